//! A folder of stills (`.png`, `.jpg`, `.jpeg`), read through OpenCV's imgcodecs: positions
//! photographed one by one, or frames someone exported from a video.
//!
//! Order is the file names' natural order (`img2` before `img10`), the way a person numbers
//! photos. Stills carry no time, so frame `i` is at `i / FOLDER_FPS` seconds. Other files
//! (labels, licences) and subfolders are left alone. A still that does not decode is
//! reported in its place and the rest are read.

use std::cmp::Ordering;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use opencv::imgcodecs;
use opencv::prelude::*;

use super::{Frame, FrameProblem, SourceError, SourceInfo, describe_shape};

/// The nominal rate of a folder of stills: one a second, so a still's time in seconds is its
/// position in the folder, easy to find again from a log line.
pub const FOLDER_FPS: f64 = 1.0;

const EXTENSIONS: [&str; 3] = ["png", "jpg", "jpeg"];

pub(super) struct FolderReader {
    files: VecDeque<PathBuf>,
    next_index: u64,
    ready: VecDeque<Result<Frame, FrameProblem>>,
}

impl FolderReader {
    pub(super) fn open(path: &Path) -> Result<(SourceInfo, FolderReader), SourceError> {
        let entries = std::fs::read_dir(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => SourceError::NotFound(path.to_path_buf()),
            _ => SourceError::Unreadable { path: path.to_path_buf(), error: e },
        })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && has_image_extension(p))
            .collect();
        if files.is_empty() {
            return Err(SourceError::NoImages(path.to_path_buf()));
        }
        files.sort_by(|a, b| natural_cmp(&file_name(a), &file_name(b)));
        let count = files.len();
        let mut reader = FolderReader { files: files.into(), next_index: 0, ready: VecDeque::new() };

        // Decode up to the first still that reads, so a folder of broken files fails here.
        let size = loop {
            match reader.read_one() {
                Some(Ok(frame)) => {
                    let size = frame.image.size().unwrap_or_default();
                    reader.ready.push_back(Ok(frame));
                    break size;
                }
                Some(Err(problem)) => reader.ready.push_back(Err(problem)),
                None => return Err(SourceError::NoReadableImages { path: path.to_path_buf(), count }),
            }
        };
        let name = path.display();
        let description = format!(
            "stills in {name}: {} (first), {count} images at a nominal {FOLDER_FPS} fps",
            describe_shape(size, None, None)
        );
        let info = SourceInfo {
            description,
            fps: Some(FOLDER_FPS),
            frame_count: Some(count as u64),
            frame_size: size,
            live: false,
        };
        Ok((info, reader))
    }

    fn read_one(&mut self) -> Option<Result<Frame, FrameProblem>> {
        let file = self.files.pop_front()?;
        let index = self.next_index;
        self.next_index += 1;
        let t = index as f64 / FOLDER_FPS;
        // IMREAD_COLOR: always 8-bit BGR (grey and 16-bit stills converted), EXIF rotation applied.
        let what = match imgcodecs::imread(file.as_os_str(), imgcodecs::IMREAD_COLOR) {
            Ok(image) if !image.empty() => return Some(Ok(Frame { index, t, image })),
            Ok(_) => "OpenCV cannot decode it (corrupt, or not really an image)".to_string(),
            Err(e) => format!("OpenCV failed on it: {e}"),
        };
        let what = format!("{}: {what}", file.display());
        Some(Err(FrameProblem { index, t, what, image: None }))
    }
}

impl Iterator for FolderReader {
    type Item = Result<Frame, FrameProblem>;
    fn next(&mut self) -> Option<Self::Item> {
        self.ready.pop_front().or_else(|| self.read_one())
    }
}

fn has_image_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Compares runs of digits by value and everything else character by character.
fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a, b);
    loop {
        match (a.chars().next(), b.chars().next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.len() - a.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let db = b.len() - b.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                let (na, nb) = (a[..da].trim_start_matches('0'), b[..db].trim_start_matches('0'));
                // Longer (without leading zeros) is larger; equal lengths compare digit-wise;
                // "007" and "7" tie on value and fall back to the zeros, so order stays total.
                let by_value = na.len().cmp(&nb.len()).then_with(|| na.cmp(nb)).then_with(|| da.cmp(&db));
                if by_value != Ordering::Equal {
                    return by_value;
                }
                (a, b) = (&a[da..], &b[db..]);
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(&y);
                }
                (a, b) = (&a[x.len_utf8()..], &b[y.len_utf8()..]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_numbers_by_value() {
        let mut names = vec!["img10.png", "img2.png", "img1.png", "b.jpg", "a10.jpg", "a9.jpg", "img02.png"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, ["a9.jpg", "a10.jpg", "b.jpg", "img1.png", "img2.png", "img02.png", "img10.png"]);
        assert_eq!(natural_cmp("frame_000200.jpg", "frame_000588.jpg"), Ordering::Less);
        assert_eq!(natural_cmp("x", "x"), Ordering::Equal);
    }

    #[test]
    fn only_stills_count() {
        assert!(has_image_extension(Path::new("a/chessBoard001.JPG")));
        assert!(has_image_extension(Path::new("x.jpeg")));
        assert!(!has_image_extension(Path::new("labels.json")));
        assert!(!has_image_extension(Path::new("LICENSE")));
    }
}
