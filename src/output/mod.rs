//! The ends of the pipeline that people and other tools read: the PGN game record, the JSONL
//! logs, written as things happen, and the live server.

pub mod jsonl;
pub mod pgn;
pub mod serve;

use std::path::Path;

use anyhow::Context;

/// Writes `contents` to `path` whole or not at all: to `<name>.tmp` beside it, then renamed over
/// it, so a reader polling the file (a broadcast, a resumed game) or a crash never finds half.
pub fn write_whole(path: &Path, contents: impl AsRef<[u8]>) -> anyhow::Result<()> {
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!("{name}.tmp"));
    std::fs::write(&tmp, contents).with_context(|| format!("{}: cannot write", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("{}: cannot write", path.display()))
}
