//! Video files and network streams, read through OpenCV's FFmpeg backend.
//!
//! What OpenCV 4.6 with FFmpeg 5.1 does on damaged input (measured on the real clips and on
//! copies damaged on purpose; see `tests/sources.rs`):
//! - A packet the decoder refuses outright (an H.264 frame with its NAL sizes zeroed) makes
//!   `grab()` return false *in the middle of the file*, with `CAP_PROP_POS_FRAMES` not
//!   advanced. A plain `while cap.read()` loop stops there. The next `grab()` goes on with the
//!   next packet, so a failed grab is one frame that did not decode: it keeps its index and is
//!   reported, and reading continues. At the real end `grab()` fails every time, instantly;
//!   a run of failures that no frame follows is the end, not damage.
//! - A packet that decodes with errors (garbage inside an MPEG-4 frame, or the last frame of
//!   `TK_scholarsmate7.avi`, which the end of the file cuts 9,717 bytes short) is *not* a
//!   failure: FFmpeg conceals the damage (copies the missing blocks from the previous picture),
//!   prints "Error at MB" to stderr, and `grab()`/`read()` return true with that picture. No
//!   property tells it apart. For the frame a cut-off AVI ends in, the chunk sizes do
//!   (`avi.rs`): that frame is reported, carrying the concealed picture.
//! - Without an AVI index OpenCV reports 0 frames; the chunk walk counts them.
//! - Timestamps (`CAP_PROP_POS_MSEC`) are the container's: the H.264 clip's last two frames
//!   come back stamped 0, so times are made strictly increasing (`Clock`).

use std::collections::VecDeque;
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use opencv::core::{Mat, Vector};
use opencv::prelude::*;
use opencv::videoio::{self, VideoCapture};

use super::avi::{self, AviLayout};
use super::{Clock, Frame, FrameProblem, SourceError, SourceInfo, describe_shape};

/// How long a network stream may take to open, and to deliver each frame, before it is given
/// up: FFmpeg's own default is 30 s, and without a limit a silent server hangs forever.
pub const URL_TIMEOUT: Duration = Duration::from_secs(5);

/// Failed grabs in a row taken as the end of a file. At the end each costs nothing; in the
/// middle one undecodable packet is one failure and the following frames decode again, so
/// a long run means there is nothing left. (OpenCV itself gives up on a packet after 64.)
const FILE_FAILURES_AT_END: u32 = 64;
/// On a stream each failed grab has already waited up to `URL_TIMEOUT`.
const URL_FAILURES_AT_END: u32 = 3;

pub(super) struct VideoReader {
    cap: VideoCapture,
    clock: Clock,
    /// Live streams are stamped on arrival, files with their own timestamps.
    arrival: Option<Instant>,
    max_failures: u32,
    layout: Option<AviLayout>,
    next_index: u64,
    ready: VecDeque<Result<Frame, FrameProblem>>,
    ended: bool,
}

impl VideoReader {
    pub(super) fn open_file(path: &Path) -> Result<(SourceInfo, VideoReader), SourceError> {
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SourceError::NotFound(path.to_path_buf()),
            _ => SourceError::Unreadable { path: path.to_path_buf(), error: e },
        })?;
        if meta.is_dir() {
            let seen = "it is a folder; open it as a folder of stills".to_string();
            return Err(SourceError::NotVideo { path: path.to_path_buf(), seen });
        }
        if meta.len() == 0 {
            return Err(SourceError::EmptyFile(path.to_path_buf()));
        }
        // Read the head ourselves: FFmpeg says the same "cannot open" for a file we may not
        // read as for one that is not video, and the head tells which kind of not-video it is.
        let mut head = Vec::with_capacity(64);
        std::fs::File::open(path)
            .and_then(|f| f.take(64).read_to_end(&mut head))
            .map_err(|e| SourceError::Unreadable { path: path.to_path_buf(), error: e })?;
        let opencv_err = |error| SourceError::OpenCv { input: path.display().to_string(), error };

        let cap = VideoCapture::from_file(path.as_os_str(), videoio::CAP_FFMPEG).map_err(opencv_err)?;
        if !cap.is_opened().map_err(opencv_err)? {
            return Err(SourceError::NotVideo { path: path.to_path_buf(), seen: sniff(&head) });
        }
        let layout = avi::scan(path);
        let mut reader = VideoReader::new(cap, None, FILE_FAILURES_AT_END, layout);
        let first = reader.first_frame_size();
        let Some(size) = first else {
            let detail = match reader.layout.as_ref().and_then(|l| l.cut.clone()) {
                Some(cut) if cut.index == 0 => {
                    format!("the file ends {} bytes into its first frame of {}", cut.present, cut.declared)
                }
                _ => "FFmpeg returns no picture".to_string(),
            };
            return Err(SourceError::NoFrames { path: path.to_path_buf(), detail });
        };

        let fps = reader.fps();
        let frame_count = match &reader.layout {
            Some(layout) => Some(layout.frames),
            None => reader.prop(videoio::CAP_PROP_FRAME_COUNT).filter(|&n| n >= 1.0).map(|n| n as u64),
        };
        let name =
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let mut description =
            format!("video {name} ({}): {}", reader.codec(), describe_shape(size, fps, frame_count));
        if let Some(cut) = reader.layout.as_ref().and_then(|l| l.cut.as_ref()) {
            description += &format!(", cut off in frame {}", cut.index);
        }
        let info = SourceInfo { description, fps, frame_count, frame_size: size, live: false };
        Ok((info, reader))
    }

    pub(super) fn open_url(url: &str) -> Result<(SourceInfo, VideoReader), SourceError> {
        let opencv_err = |error| SourceError::OpenCv { input: url.to_string(), error };
        let ms = URL_TIMEOUT.as_millis() as i32;
        let params = Vector::<i32>::from_slice(&[
            videoio::CAP_PROP_OPEN_TIMEOUT_MSEC,
            ms,
            videoio::CAP_PROP_READ_TIMEOUT_MSEC,
            ms,
        ]);
        let cap =
            VideoCapture::from_file_with_params(url, videoio::CAP_FFMPEG, &params).map_err(opencv_err)?;
        if !cap.is_opened().map_err(opencv_err)? {
            return Err(SourceError::Unreachable { url: url.to_string(), seconds: URL_TIMEOUT.as_secs() });
        }
        let mut reader = VideoReader::new(cap, Some(Instant::now()), URL_FAILURES_AT_END, None);
        let Some(size) = reader.first_frame_size() else {
            return Err(SourceError::NoStreamFrames { url: url.to_string() });
        };
        let fps = reader.fps();
        let description = format!("stream {url} ({}): {}", reader.codec(), describe_shape(size, fps, None));
        let info = SourceInfo { description, fps, frame_count: None, frame_size: size, live: true };
        Ok((info, reader))
    }

    fn new(
        cap: VideoCapture,
        arrival: Option<Instant>,
        max_failures: u32,
        layout: Option<AviLayout>,
    ) -> VideoReader {
        let clock = Clock::new(stated_fps(&cap));
        VideoReader {
            cap,
            clock,
            arrival,
            max_failures,
            layout,
            next_index: 0,
            ready: VecDeque::new(),
            ended: false,
        }
    }

    /// Reads up to the first picture, so that a file with none fails to open.
    fn first_frame_size(&mut self) -> Option<opencv::core::Size> {
        self.read_ahead();
        self.ready.iter().find_map(|item| match item {
            Ok(frame) => frame.image.size().ok(),
            Err(_) => None,
        })
    }

    fn prop(&self, id: i32) -> Option<f64> {
        self.cap.get(id).ok().filter(|v| v.is_finite())
    }

    fn fps(&self) -> Option<f64> {
        stated_fps(&self.cap)
    }

    fn codec(&self) -> String {
        let fourcc = self.prop(videoio::CAP_PROP_FOURCC).unwrap_or(0.0) as u32;
        let chars = fourcc.to_le_bytes();
        let mut s = if fourcc != 0 && chars.iter().all(|c| c.is_ascii_graphic() || *c == b' ') {
            String::from_utf8_lossy(&chars).trim().to_string() + ", "
        } else {
            String::new()
        };
        s += &self.cap.get_backend_name().unwrap_or_else(|_| "FFMPEG".into());
        s
    }

    /// One grab: the picture and the time the input states for it, or `None` when no picture
    /// came (the end, or a frame that did not decode).
    fn grab(&mut self) -> Option<(Mat, f64)> {
        if !self.cap.grab().unwrap_or(false) {
            return None;
        }
        let mut image = Mat::default();
        if !self.cap.retrieve(&mut image, 0).unwrap_or(false) || image.empty() {
            return None;
        }
        let stated = match self.arrival {
            Some(start) => start.elapsed().as_secs_f64(),
            None => self.prop(videoio::CAP_PROP_POS_MSEC).unwrap_or(f64::NAN) / 1000.0,
        };
        Some((image, stated))
    }

    /// Grabs until a picture comes, queueing the frames that failed before it and then it;
    /// or, when none comes, marks the end and queues what the chunk walk says is missing.
    fn read_ahead(&mut self) {
        let mut failed = 0u64;
        while failed < u64::from(self.max_failures) {
            let Some((image, stated)) = self.grab() else {
                failed += 1;
                continue;
            };
            let (skipped_times, t) = self.clock.stamp_after(failed, stated);
            for t in skipped_times {
                let index = self.take_index();
                let what = "FFmpeg could not decode it (the packet is damaged); reading went on".to_string();
                self.ready.push_back(Err(FrameProblem { index, t, what, image: None }));
            }
            let index = self.take_index();
            let item = match self.cut_at(index) {
                Some(what) => Err(FrameProblem { index, t, what, image: Some(image) }),
                None => Ok(Frame { index, t, image }),
            };
            self.ready.push_back(item);
            return;
        }
        self.ended = true;
        // The chunk walk counts frames FFmpeg never returned: at the end of a file they look
        // like its end, but they are in the file and did not decode.
        let expected = self.layout.as_ref().map_or(0, |l| l.frames);
        while self.next_index < expected {
            let index = self.take_index();
            let t = self.clock.next_nominal();
            let what = self.cut_at(index).unwrap_or_else(|| "FFmpeg returned no picture for it".to_string());
            self.ready.push_back(Err(FrameProblem { index, t, what, image: None }));
        }
    }

    fn take_index(&mut self) -> u64 {
        self.next_index += 1;
        self.next_index - 1
    }

    fn cut_at(&self, index: u64) -> Option<String> {
        let cut = self.layout.as_ref()?.cut.as_ref().filter(|c| c.index == index)?;
        Some(format!(
            "the file ends {} bytes into this frame's {} (a cut-off recording): FFmpeg filled in the rest from the previous picture",
            cut.present, cut.declared
        ))
    }
}

impl Iterator for VideoReader {
    type Item = Result<Frame, FrameProblem>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.ready.is_empty() && !self.ended {
            self.read_ahead();
        }
        self.ready.pop_front()
    }
}

/// The rate the container states; some streams state absurd ones (90000, the RTP clock).
fn stated_fps(cap: &VideoCapture) -> Option<f64> {
    cap.get(videoio::CAP_PROP_FPS).ok().filter(|&f| f.is_finite() && f > 0.0 && f < 1000.0)
}

/// What a file FFmpeg cannot open looks like, for the error message.
fn sniff(head: &[u8]) -> String {
    let known = if head.starts_with(b"RIFF") && head.get(8..12) == Some(b"AVI ") {
        Some("an AVI")
    } else if head.get(4..8) == Some(b"ftyp") {
        Some("an MP4/MOV")
    } else if head.starts_with(&[0x1a, 0x45, 0xdf, 0xa3]) {
        Some("a Matroska/WebM")
    } else {
        None
    };
    if let Some(kind) = known {
        return format!("it starts like {kind} file, so it is truncated or corrupt");
    }
    if head.iter().all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace() || b >= 0x80) {
        return "it is text".to_string();
    }
    "its content is no video format FFmpeg knows".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniff_names_what_it_sees() {
        assert_eq!(sniff(b"this is not a video\n"), "it is text");
        assert!(sniff(b"\0\0\0\x20ftypisom\0\0\x02\0").contains("MP4/MOV"));
        assert!(sniff(b"RIFF\0\0\0\0AVI LIST").contains("AVI"));
        assert!(sniff(&[0, 1, 2, 3, 0xff]).contains("no video format"));
    }
}
