//! JSONL writing: one object a line, flushed at once, so a crash loses nothing written before it.

use std::io::{self, Write};

/// Writes lines and flushes each.
pub struct JsonlWriter<W: Write> {
    out: W,
}

impl<W: Write> JsonlWriter<W> {
    pub fn new(out: W) -> Self {
        JsonlWriter { out }
    }

    pub fn line(&mut self, json: &str) -> io::Result<()> {
        self.out.write_all(json.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}
