//! The source stage: turns an input (a video file, a network stream, a camera, a folder of
//! stills) into a stream of numbered, timestamped BGR frames for vision.
//!
//! Every input is opened the same way, [`open`], and read the same way: [`Source`] is an
//! iterator of `Result<Frame, FrameProblem>`. A frame that cannot be decoded is reported with
//! the index and time it would have had, and reading goes on; only the end of the input ends
//! the iteration. Whatever cannot be opened at all is a [`SourceError`], one line naming the
//! input and what to do about it. Nothing here panics on bad input.
//!
//! Indices count what the input delivers (0, 1, 2, …), so a frame index here is the frame
//! index in the file. Times are seconds: a file's own timestamps (made strictly increasing
//! where the container lies), a monotonic clock from the moment a live input (camera,
//! network stream) opened, a nominal rate for stills ([`FOLDER_FPS`]).

mod avi;
mod camera;
mod folder;
mod video;

use std::convert::Infallible;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use opencv::core::{Mat, Size};

pub use folder::FOLDER_FPS;
pub use video::URL_TIMEOUT;

/// One picture from the input.
#[derive(Debug)]
pub struct Frame {
    /// Position in the input, counting every frame it holds, undecodable ones included.
    pub index: u64,
    /// Seconds since the start of the input; strictly increasing along a source.
    pub t: f64,
    /// BGR, 8 bits a channel.
    pub image: Mat,
}

/// A frame the input holds but that could not be read whole. Its index and time are those it
/// would have had, so later frames keep theirs.
#[derive(Debug, thiserror::Error)]
#[error("frame {index} at {t:.3} s: {what}")]
pub struct FrameProblem {
    pub index: u64,
    pub t: f64,
    /// What went wrong, for a log line.
    pub what: String,
    /// What the decoder made of it, where it made anything (a damaged picture, partly filled
    /// in from the previous one): fit for a review overlay, not for judging the board.
    pub image: Option<Mat>,
}

/// Where frames come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceSpec {
    /// A video file, read through FFmpeg.
    File(PathBuf),
    /// A network stream (`rtsp://`, `http(s)://`, …), read through FFmpeg with a timeout
    /// ([`URL_TIMEOUT`]). Treated as live: frames are stamped on arrival, so a remote *file*
    /// read faster than real time gets squeezed times; download it and open it as a file.
    Url(String),
    /// A camera by index (`/dev/videoN` on Linux).
    Camera(u32),
    /// A folder of `.png`/`.jpg` stills, read in name order.
    Folder(PathBuf),
}

impl SourceSpec {
    /// Tells the kinds apart: `scheme://…` is a URL (`file://` a path); `camera:N` and
    /// `/dev/videoN` are cameras, and so is a bare number that names no file; an existing
    /// directory is a folder; anything else is a file (whose absence `open` reports).
    pub fn parse(s: &str) -> SourceSpec {
        if let Some(path) = s.strip_prefix("file://") {
            return SourceSpec::from_path(Path::new(path));
        }
        if has_url_scheme(s) {
            return SourceSpec::Url(s.to_string());
        }
        let camera = s.strip_prefix("camera:").or_else(|| s.strip_prefix("/dev/video"));
        if let Some(n) = camera.and_then(|n| n.parse().ok()) {
            return SourceSpec::Camera(n);
        }
        if let (false, Ok(n)) = (Path::new(s).exists(), s.parse()) {
            return SourceSpec::Camera(n);
        }
        SourceSpec::from_path(Path::new(s))
    }

    fn from_path(path: &Path) -> SourceSpec {
        if path.is_dir() {
            SourceSpec::Folder(path.to_path_buf())
        } else {
            SourceSpec::File(path.to_path_buf())
        }
    }
}

fn has_url_scheme(s: &str) -> bool {
    // A one-letter scheme would be a Windows drive (`C://`), not a protocol.
    s.split_once("://").is_some_and(|(scheme, _)| {
        scheme.len() >= 2
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

impl FromStr for SourceSpec {
    type Err = Infallible;
    fn from_str(s: &str) -> Result<Self, Infallible> {
        Ok(SourceSpec::parse(s))
    }
}

impl fmt::Display for SourceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceSpec::File(p) | SourceSpec::Folder(p) => write!(f, "{}", p.display()),
            SourceSpec::Url(u) => f.write_str(u),
            SourceSpec::Camera(n) => write!(f, "camera {n}"),
        }
    }
}

/// What a source knows about itself once open.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceInfo {
    /// One line for logs: what the input is, its size, rate and length.
    pub description: String,
    /// Nominal frames per second, where the input states one.
    pub fps: Option<f64>,
    /// Frames in the input, where known before reading it (never for live inputs).
    pub frame_count: Option<u64>,
    /// Size of the first frame (stills in a folder may differ; each frame carries its own).
    pub frame_size: Size,
    /// A camera or network stream: frames arrive in real time, and there is no end to wait for.
    pub live: bool,
}

/// Why an input cannot be opened. Each message is one line naming the input.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{0}: no such file or folder; check the path")]
    NotFound(PathBuf),
    // The underlying errors are in the message, not `source`s: the CLI prints error chains
    // on one line (`{:#}`), which would say them twice.
    #[error("{path}: cannot be read ({error}); check the path and its permissions")]
    Unreadable { path: PathBuf, error: std::io::Error },
    #[error("{0}: the file is empty (0 bytes); it was not recorded or not copied completely")]
    EmptyFile(PathBuf),
    #[error("{path}: not a video FFmpeg can read ({seen}); give a video file, or convert it with ffmpeg")]
    NotVideo { path: PathBuf, seen: String },
    #[error(
        "{path}: opens as video but no frame decodes ({detail}); the file is truncated or corrupt, copy or record it again"
    )]
    NoFrames { path: PathBuf, detail: String },
    #[error("{0}: no .png or .jpg image in this folder; point at the folder that holds the stills")]
    NoImages(PathBuf),
    #[error("{path}: none of its {count} images decodes; they are corrupt or not images")]
    NoReadableImages { path: PathBuf, count: usize },
    #[error(
        "camera {index}: not found ({found} camera(s) on this machine); connect one, or give a video file or --url"
    )]
    NoCamera { index: u32, found: usize },
    #[error("camera {index}: found but cannot be opened ({reason}); check that no other program holds it")]
    CameraFailed { index: u32, reason: String },
    #[error(
        "{url}: cannot open the stream within {seconds} s (refused, unreachable or silent); check the address and that the stream is running"
    )]
    Unreachable { url: String, seconds: u64 },
    #[error(
        "{url}: the stream opened but sent no frame that decodes; check the stream's codec and that it is running"
    )]
    NoStreamFrames { url: String },
    #[error("{input}: OpenCV failed ({error}); this is a bug or a broken OpenCV install")]
    OpenCv { input: String, error: opencv::Error },
}

/// An open input; iterate it for frames. Also tells what it knows ([`Source::info`]).
pub struct Source {
    info: SourceInfo,
    reader: Reader,
}

enum Reader {
    Video(video::VideoReader),
    Camera(camera::CameraReader),
    Folder(folder::FolderReader),
}

/// Opens an input. Fails, with one clear line, when it holds no frame at all; a source that
/// opens has already decoded its first frame (or reported why it could not, see
/// [`FrameProblem`]) and yields at least one frame.
pub fn open(spec: &SourceSpec) -> Result<Source, SourceError> {
    let (info, reader) = match spec {
        SourceSpec::File(path) => {
            let (info, r) = video::VideoReader::open_file(path)?;
            (info, Reader::Video(r))
        }
        SourceSpec::Url(url) => {
            let (info, r) = video::VideoReader::open_url(url)?;
            (info, Reader::Video(r))
        }
        SourceSpec::Camera(index) => {
            let (info, r) = camera::CameraReader::open(*index)?;
            (info, Reader::Camera(r))
        }
        SourceSpec::Folder(path) => {
            let (info, r) = folder::FolderReader::open(path)?;
            (info, Reader::Folder(r))
        }
    };
    Ok(Source { info, reader })
}

impl Source {
    pub fn info(&self) -> &SourceInfo {
        &self.info
    }
    pub fn fps(&self) -> Option<f64> {
        self.info.fps
    }
    pub fn frame_count(&self) -> Option<u64> {
        self.info.frame_count
    }
    pub fn frame_size(&self) -> Size {
        self.info.frame_size
    }
    pub fn is_live(&self) -> bool {
        self.info.live
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.info.description)
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source").field("info", &self.info).finish_non_exhaustive()
    }
}

impl Iterator for Source {
    type Item = Result<Frame, FrameProblem>;
    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.reader {
            Reader::Video(r) => r.next(),
            Reader::Camera(r) => r.next(),
            Reader::Folder(r) => r.next(),
        }
    }
}

/// Turns the times an input states into strictly increasing ones: a stated time that does
/// not move forward (a container that restarts its clock, or stamps its last frames 0) is
/// replaced by one nominal frame interval after the previous time.
#[derive(Debug, Clone)]
struct Clock {
    prev: Option<f64>,
    interval: f64,
}

impl Clock {
    fn new(fps: Option<f64>) -> Clock {
        // 30 fps when the input states none: the common camera rate.
        let fps = fps.filter(|f| f.is_finite() && *f > 0.0).unwrap_or(30.0);
        Clock { prev: None, interval: 1.0 / fps }
    }

    fn stamp(&mut self, stated: f64) -> f64 {
        let t = match self.prev {
            Some(p) if stated > p => stated,
            // Not later, or NaN (no time stated).
            Some(p) => p + self.interval,
            None => stated.max(0.0),
        };
        self.prev = Some(t);
        t
    }

    /// One nominal interval on, for a frame that has no time of its own.
    fn next_nominal(&mut self) -> f64 {
        self.stamp(f64::NAN)
    }

    /// Times for `skipped` frames that yielded no picture, spread evenly before the frame
    /// that came next (stated at `stated`), and that frame's own time.
    fn stamp_after(&mut self, skipped: u64, stated: f64) -> (Vec<f64>, f64) {
        let before = self.prev;
        let floor = if before.is_none() { skipped as f64 * self.interval } else { f64::MIN };
        let t = self.stamp(stated.max(floor));
        let base = before.unwrap_or(-self.interval);
        let step = (t - base) / (skipped + 1) as f64;
        ((1..=skipped).map(|k| base + step * k as f64).collect(), t)
    }
}

/// "640×480, 20 fps, 334 frames": the common part of every description.
fn describe_shape(size: Size, fps: Option<f64>, frames: Option<u64>) -> String {
    let mut s = format!("{}×{}", size.width, size.height);
    if let Some(fps) = fps {
        s += &format!(", {} fps", trim_float(fps));
    }
    if let Some(n) = frames {
        s += &format!(", {n} frame{}", if n == 1 { "" } else { "s" });
        if let Some(fps) = fps.filter(|&f| f > 0.0) {
            s += &format!(" ({:.1} s)", n as f64 / fps);
        }
    }
    s
}

fn trim_float(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_tells_kinds_apart() {
        use SourceSpec::*;
        assert_eq!(SourceSpec::parse("rtsp://10.0.0.2:554/stream"), Url("rtsp://10.0.0.2:554/stream".into()));
        assert_eq!(
            SourceSpec::parse("https://example.org/game.mp4"),
            Url("https://example.org/game.mp4".into())
        );
        assert_eq!(SourceSpec::parse("camera:2"), Camera(2));
        assert_eq!(SourceSpec::parse("/dev/video1"), Camera(1));
        assert_eq!(SourceSpec::parse("0"), Camera(0));
        assert_eq!(SourceSpec::parse("/"), Folder("/".into()));
        assert_eq!(SourceSpec::parse("file:///tmp"), Folder("/tmp".into()));
        assert_eq!(SourceSpec::parse("game.avi"), File("game.avi".into()));
        assert_eq!(SourceSpec::parse("C://game.avi"), File("C://game.avi".into()));
        assert_eq!("no/such/dir/".parse::<SourceSpec>().unwrap(), File("no/such/dir/".into()));
    }

    #[test]
    fn spec_displays_as_given() {
        assert_eq!(SourceSpec::Camera(3).to_string(), "camera 3");
        assert_eq!(SourceSpec::parse("rtsp://h/x").to_string(), "rtsp://h/x");
    }

    #[test]
    fn clock_never_goes_back() {
        let mut c = Clock::new(Some(30.0));
        let ts: Vec<f64> = [0.0, 1.0 / 30.0, 0.0, 0.0, 10.0].iter().map(|&s| c.stamp(s)).collect();
        assert_eq!(ts[..2], [0.0, 1.0 / 30.0]);
        assert!((ts[2] - 2.0 / 30.0).abs() < 1e-12 && (ts[3] - 3.0 / 30.0).abs() < 1e-12);
        assert_eq!(ts[4], 10.0);
        assert!((c.next_nominal() - (10.0 + 1.0 / 30.0)).abs() < 1e-12);
    }

    #[test]
    fn skipped_frames_get_times_between_their_neighbours() {
        let mut c = Clock::new(Some(10.0));
        let (none, t0) = c.stamp_after(0, 0.0);
        assert!(none.is_empty() && t0 == 0.0);
        let (skipped, t) = c.stamp_after(2, 0.3);
        assert_eq!(t, 0.3);
        assert!((skipped[0] - 0.1).abs() < 1e-12 && (skipped[1] - 0.2).abs() < 1e-12);
        // Before any frame: the skipped ones start at 0 and push the first frame on.
        let mut c = Clock::new(Some(10.0));
        let (skipped, t) = c.stamp_after(2, 0.0);
        assert!((skipped[0] - 0.0).abs() < 1e-12 && (skipped[1] - 0.1).abs() < 1e-12);
        assert!((t - 0.2).abs() < 1e-12);
    }

    #[test]
    fn shape_reads_well() {
        let size = Size::new(640, 480);
        assert_eq!(describe_shape(size, Some(20.0), Some(334)), "640×480, 20 fps, 334 frames (16.7 s)");
        assert_eq!(describe_shape(size, Some(29.97), None), "640×480, 29.97 fps");
        assert_eq!(describe_shape(size, None, None), "640×480");
    }
}
