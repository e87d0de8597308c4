//! Reading back the logs a live game wrote, for `--resume`: a killed process may have cut its
//! last line short (dropped, with a warning); a line damaged before the end is an error that
//! names the file and the line, since a record rebuilt past it would be a guess.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::types::{Event, EventReader, Journalled};

/// Reads a log that a killed process may have cut mid-line: a bad last line is dropped with a
/// warning, a bad line before it is an error naming it.
fn read_lines<T>(path: &Path, parse: impl Fn(&str) -> Result<T, String>) -> Result<Vec<T>> {
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("{}: cannot read", path.display())),
    };
    let lines: Vec<String> = BufReader::new(f).lines().collect::<std::io::Result<_>>().with_context(|| format!("{}: cannot read (not UTF-8 text?)", path.display()))?;
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match parse(line) {
            Ok(v) => out.push(v),
            Err(why) if Some(i) == last => eprintln!("touchmove: {}: line {}: {why}; the last line was cut short and is dropped", path.display(), i + 1),
            Err(why) => bail!("{}: line {}: {why}; the log is damaged before its end (fix or remove that line to resume)", path.display(), i + 1),
        }
    }
    Ok(out)
}

pub fn read_events(path: &Path) -> Result<Vec<Event>> {
    read_lines(path, |line| {
        let mut r = EventReader::new(line.as_bytes());
        match r.next() {
            Some(Ok(e)) => Ok(e),
            Some(Err(e)) => Err(e.message),
            None => Err("empty".into()),
        }
    })
}

pub fn read_journal(path: &Path) -> Result<Vec<Journalled>> {
    read_lines(path, |line| serde_json::from_str::<Journalled>(line).map_err(|e| e.to_string()))
}
