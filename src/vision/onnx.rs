//! ONNX Runtime for the learned models, found without any variable set: scripts/setup.sh
//! unpacks it to /opt/onnxruntime/lib; `ORT_DYLIB_PATH` overrides. Loading is checked once and
//! a missing or broken library is one clear sentence, never a panic (ort's default loader
//! panics when the library is absent, so it is never used).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Where the runtime is looked for, in order, when `ORT_DYLIB_PATH` is not set.
pub const SEARCH: &[&str] = &["/opt/onnxruntime/lib/libonnxruntime.so", "/usr/local/lib/libonnxruntime.so", "/usr/lib/libonnxruntime.so"];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    #[error("ONNX Runtime not found (looked in {0}): run scripts/setup.sh, or set ORT_DYLIB_PATH to a libonnxruntime.so (1.31 or newer)")]
    NotFound(String),
    #[error("ORT_DYLIB_PATH={0}: no such file; point it at a libonnxruntime.so, or unset it to use /opt/onnxruntime/lib")]
    BadOverride(String),
    #[error("ONNX Runtime at {path} cannot be loaded: {reason}")]
    Load { path: String, reason: String },
}

/// The library file to load.
pub fn locate() -> Result<PathBuf, RuntimeError> {
    if let Some(v) = std::env::var_os("ORT_DYLIB_PATH").filter(|v| !v.is_empty()) {
        let p = PathBuf::from(&v);
        return if p.is_file() { Ok(p) } else { Err(RuntimeError::BadOverride(p.display().to_string())) };
    }
    SEARCH.iter().map(Path::new).find(|p| p.is_file()).map(Path::to_path_buf).ok_or_else(|| RuntimeError::NotFound(SEARCH.join(", ")))
}

/// Loads ONNX Runtime once for the process; later calls return the first outcome.
pub fn load() -> Result<PathBuf, RuntimeError> {
    runtime().map(|(path, _)| path)
}

/// The process's one ONNX Runtime environment, which sessions are built in (ONNX Runtime
/// allows one per process, and it ends when the last handle goes: it is held here for good).
pub fn environment() -> Result<ort::environment::Environment, RuntimeError> {
    runtime().map(|(_, env)| env)
}

fn runtime() -> Result<(PathBuf, ort::environment::Environment), RuntimeError> {
    static LOADED: OnceLock<Result<(PathBuf, ort::environment::Environment), RuntimeError>> = OnceLock::new();
    LOADED
        .get_or_init(|| {
            let path = locate()?;
            let fail = |reason: String| RuntimeError::Load { path: path.display().to_string(), reason };
            let builder = ort::init_from(&path).map_err(|e| fail(e.to_string()))?;
            let env = builder.build().map_err(|e| fail(e.to_string()))?;
            Ok((path, env))
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_says_what_to_do() {
        let e = RuntimeError::NotFound(SEARCH.join(", "));
        assert!(e.to_string().contains("scripts/setup.sh"));
    }
}
