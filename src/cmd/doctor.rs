//! `touchmove doctor`: says whether this machine has what touchmove needs — OpenCV with
//! FFmpeg video I/O, ONNX Runtime and the piece model it runs, cameras — and what to do about anything missing.

use anyhow::{Result, bail};
use opencv::videoio;

use crate::vision::onnx;
use crate::vision::pieces::model::PieceModel;

#[derive(Debug, clap::Args)]
pub struct DoctorArgs {}

pub fn run(_args: DoctorArgs) -> Result<()> {
    let mut missing = Vec::new();
    println!("touchmove {}", env!("CARGO_PKG_VERSION"));
    match opencv::core::get_version_string() {
        Ok(v) => println!("OpenCV {v}"),
        Err(e) => missing.push(format!("OpenCV: {e}")),
    }
    match videoio::has_backend(videoio::VideoCaptureAPIs::CAP_FFMPEG) {
        Ok(true) => println!("video I/O: FFmpeg"),
        _ => missing.push("OpenCV has no FFmpeg video I/O: install Debian's libopencv-dev (scripts/setup.sh)".to_owned()),
    }
    match onnx::load() {
        Ok(path) => {
            println!("ONNX Runtime: {}", path.display());
            // The runtime alone is not enough: the model must load and answer in it.
            match PieceModel::shipped() {
                Ok(m) => println!("piece model: {} (models/piece.onnx; names pieces in touchmove board and promoted pieces in replay and live)", m.source()),
                Err(e) => missing.push(e.to_string()),
            }
        }
        Err(e) => missing.push(e.to_string()),
    }
    match nokhwa::query(nokhwa::utils::ApiBackend::Auto) {
        Ok(cams) if cams.is_empty() => println!("cameras: none (live needs --url, or a camera)"),
        Ok(cams) => println!("cameras: {}", cams.iter().map(|c| c.human_name()).collect::<Vec<_>>().join(", ")),
        Err(e) => println!("cameras: cannot list ({e})"),
    }
    if missing.is_empty() {
        return Ok(());
    }
    for m in &missing {
        eprintln!("missing: {m}");
    }
    bail!("{} thing(s) missing, see above", missing.len())
}
