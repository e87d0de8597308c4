//! A walk over an AVI file's chunks, made before FFmpeg reads it, for the two things OpenCV
//! cannot tell about a damaged recording: how many frames an AVI without an index holds
//! (OpenCV says 0), and which frame the end of a cut-off file falls in. FFmpeg decodes such a
//! frame with its missing part filled in from the previous picture and OpenCV returns it as a
//! good frame; the chunk sizes are the only place the damage shows (see `video.rs`).
//!
//! The walk is linear and forgiving of the headers an interrupted recording leaves unfinished
//! (a RIFF or `movi` size of 0 or 0xFFFFFFFF): containers (`RIFF`, `LIST`) are entered, every
//! other chunk is stepped over by its own size. Where it loses the chunk structure (garbage in
//! the middle of the file) it gives up and claims nothing.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// What the chunks say about the video stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct AviLayout {
    /// Video chunks that hold data, the cut one included: one per frame FFmpeg delivers.
    /// (FFmpeg skips empty chunks, the "dropped frame" markers of capture tools.)
    pub frames: u64,
    pub cut: Option<CutFrame>,
}

/// The frame whose data runs past the end of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CutFrame {
    pub index: u64,
    pub declared: u64,
    pub present: u64,
}

/// `None` when the file is not an AVI, cannot be read, or its chunks cannot be followed.
pub(super) fn scan(path: &Path) -> Option<AviLayout> {
    let file = File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    scan_reader(BufReader::new(file), len)
}

fn scan_reader<R: Read + Seek>(mut r: R, len: u64) -> Option<AviLayout> {
    let mut head = [0u8; 12];
    r.read_exact(&mut head).ok()?;
    if &head[0..4] != b"RIFF" || &head[8..12] != b"AVI " {
        return None;
    }
    let mut pos = 12u64;
    let mut video_stream: Option<[u8; 2]> = None;
    let mut frames = 0u64;
    let mut cut = None;
    while pos + 8 <= len {
        let mut hdr = [0u8; 8];
        r.seek(SeekFrom::Start(pos)).ok()?;
        r.read_exact(&mut hdr).ok()?;
        let id = [hdr[0], hdr[1], hdr[2], hdr[3]];
        let size = u64::from(u32::from_le_bytes([hdr[4], hdr[5], hdr[6], hdr[7]]));
        if &id == b"RIFF" || &id == b"LIST" {
            // Enter it: its children follow the 4-byte type, whatever its (often unfinished) size.
            pos += 12;
            continue;
        }
        if !id.iter().all(|&b| b.is_ascii_alphanumeric() || b == b' ' || b == b'_') {
            return None;
        }
        let data_end = pos + 8 + size;
        if is_video_chunk(&id) && size > 0 {
            let stream = *video_stream.get_or_insert([id[0], id[1]]);
            if stream == [id[0], id[1]] {
                if data_end > len {
                    cut = Some(CutFrame { index: frames, declared: size, present: len - pos - 8 });
                    frames += 1;
                    break;
                }
                frames += 1;
            }
        }
        // Chunks are padded to an even length.
        pos = data_end + (size & 1);
    }
    video_stream.map(|_| AviLayout { frames, cut })
}

/// `NNdc` (compressed) or `NNdb` (uncompressed) video data of stream NN.
fn is_video_chunk(id: &[u8; 4]) -> bool {
    id[0].is_ascii_digit() && id[1].is_ascii_digit() && (&id[2..] == b"dc" || &id[2..] == b"db")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn chunk(id: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut v = id.to_vec();
        v.extend_from_slice(&(data.len() as u32).to_le_bytes());
        v.extend_from_slice(data);
        if data.len() % 2 == 1 {
            v.push(0);
        }
        v
    }

    fn list(kind: &[u8; 4], children: &[Vec<u8>], size: Option<u32>) -> Vec<u8> {
        let body: Vec<u8> = children.concat();
        let mut v = b"LIST".to_vec();
        v.extend_from_slice(&size.unwrap_or(body.len() as u32 + 4).to_le_bytes());
        v.extend_from_slice(kind);
        v.extend(body);
        v
    }

    fn avi(riff_size: u32, body: Vec<u8>) -> Vec<u8> {
        let mut v = b"RIFF".to_vec();
        v.extend_from_slice(&riff_size.to_le_bytes());
        v.extend_from_slice(b"AVI ");
        v.extend(body);
        v
    }

    fn scan_bytes(b: &[u8]) -> Option<AviLayout> {
        scan_reader(Cursor::new(b), b.len() as u64)
    }

    fn hdrl() -> Vec<u8> {
        list(b"hdrl", &[chunk(b"avih", &[0; 56]), list(b"strl", &[chunk(b"strh", &[0; 56])], None)], None)
    }

    #[test]
    fn counts_video_chunks_and_skips_audio_index_and_empty_ones() {
        let movi = list(
            b"movi",
            &[
                chunk(b"00dc", &[1; 101]),
                chunk(b"01wb", &[2; 40]),
                chunk(b"00dc", &[]),
                list(b"rec ", &[chunk(b"00db", &[3; 10])], None),
                chunk(b"00dc", &[4; 7]),
            ],
            None,
        );
        let file = avi(0, [hdrl(), movi, chunk(b"idx1", &[0; 32])].concat());
        assert_eq!(scan_bytes(&file), Some(AviLayout { frames: 3, cut: None }));
    }

    #[test]
    fn finds_the_frame_the_end_of_the_file_cuts() {
        // As an interrupted recorder leaves it: RIFF and movi sizes never written.
        let movi = list(
            b"movi",
            &[chunk(b"00dc", &[1; 300]), chunk(b"00dc", &[2; 301]), chunk(b"00dc", &[3; 500])],
            Some(u32::MAX),
        );
        let mut file = avi(u32::MAX, [hdrl(), movi].concat());
        file.truncate(file.len() - 380);
        let layout = scan_bytes(&file).unwrap();
        assert_eq!(
            layout,
            AviLayout { frames: 3, cut: Some(CutFrame { index: 2, declared: 500, present: 120 }) }
        );
    }

    #[test]
    fn claims_nothing_when_lost_or_not_an_avi() {
        let mut garbage = avi(0, hdrl());
        garbage.extend_from_slice(&[0xff, 0x00, 0x13, 0x80, 1, 0, 0, 0]);
        assert_eq!(scan_bytes(&garbage), None);
        assert_eq!(scan_bytes(b"RIFF\0\0\0\0WAVEfmt "), None);
        assert_eq!(scan_bytes(b"hello"), None);
        assert_eq!(scan_bytes(&avi(4, vec![])), None, "no video chunk: nothing to say");
    }
}
