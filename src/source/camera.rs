//! Cameras, through nokhwa (V4L2 on Linux): the live input at a broadcast table.
//!
//! A camera has no timestamps of its own that nokhwa passes on, so frames are stamped with a
//! monotonic clock started when the stream opens. Machines without a camera are the common
//! case in tests and CI: `query` then lists none and `Camera::new` errors, and both become a
//! `SourceError` before anything is read.

use std::time::Instant;

use nokhwa::Camera;
use nokhwa::pixel_format::RgbFormat;
use nokhwa::utils::{ApiBackend, CameraIndex, RequestedFormat, RequestedFormatType};
use opencv::core::Mat;
use opencv::imgproc;
use opencv::prelude::*;

use super::{Clock, Frame, FrameProblem, SourceError, SourceInfo, describe_shape};

/// Failed captures in a row after which the camera is taken as gone (unplugged): about a
/// second at webcam rates. Each failure is reported before that.
const FAILURES_AT_END: u32 = 30;
/// Captures tried at open before the camera is declared unusable.
const WARM_UP_TRIES: u32 = 10;

pub(super) struct CameraReader {
    camera: Camera,
    start: Instant,
    clock: Clock,
    next_index: u64,
    first: Option<Frame>,
    failures: u32,
}

impl CameraReader {
    pub(super) fn open(index: u32) -> Result<(SourceInfo, CameraReader), SourceError> {
        // Ask first: on a machine without the camera, `Camera::new`'s error says less.
        let failed = |reason: String| SourceError::CameraFailed { index, reason };
        let cameras =
            nokhwa::query(ApiBackend::Auto).map_err(|e| failed(format!("cannot list cameras: {e}")))?;
        if !cameras.iter().any(|c| *c.index() == CameraIndex::Index(index)) {
            return Err(SourceError::NoCamera { index, found: cameras.len() });
        }
        let format = RequestedFormat::new::<RgbFormat>(RequestedFormatType::AbsoluteHighestFrameRate);
        let mut camera = Camera::new(CameraIndex::Index(index), format).map_err(|e| failed(e.to_string()))?;
        camera.open_stream().map_err(|e| failed(e.to_string()))?;
        let start = Instant::now();
        let fps = Some(f64::from(camera.frame_rate())).filter(|&f| f > 0.0);
        let name = camera.info().human_name();
        let mut reader =
            CameraReader { camera, start, clock: Clock::new(fps), next_index: 0, first: None, failures: 0 };
        // Webcams often fail their first captures while they settle; those are not frames of
        // the game, so they are retried here rather than numbered and reported.
        let mut first = reader.next_frame();
        for _ in 1..WARM_UP_TRIES {
            if first.is_ok() {
                break;
            }
            reader.next_index = 0;
            first = reader.next_frame();
        }
        let first = first.map_err(|p| failed(p.what))?;
        let size = first.image.size().map_err(|e| failed(e.to_string()))?;
        reader.first = Some(first);
        let description = format!("camera {index} ({name}): {}", describe_shape(size, fps, None));
        let info = SourceInfo { description, fps, frame_count: None, frame_size: size, live: true };
        Ok((info, reader))
    }

    /// The next capture; a failed one still takes its slot in the numbering and the time.
    fn next_frame(&mut self) -> Result<Frame, FrameProblem> {
        let captured = self.camera.frame();
        // Stamped when the picture arrives, before decoding it.
        let t = self.clock.stamp(self.start.elapsed().as_secs_f64());
        let index = self.next_index;
        self.next_index += 1;
        match captured.map_err(|e| e.to_string()).and_then(|buffer| decode(&buffer)) {
            Ok(image) => Ok(Frame { index, t, image }),
            Err(what) => Err(FrameProblem {
                index,
                t,
                what: format!("the camera gave no usable frame: {what}"),
                image: None,
            }),
        }
    }
}

fn decode(buffer: &nokhwa::Buffer) -> Result<Mat, String> {
    let res = buffer.resolution();
    let mut rgb = vec![0u8; res.width() as usize * res.height() as usize * 3];
    buffer.decode_image_to_buffer::<RgbFormat>(&mut rgb).map_err(|e| e.to_string())?;
    rgb_to_bgr(&rgb, res.width(), res.height()).map_err(|e| e.to_string())
}

/// nokhwa hands out RGB; the pipeline works in OpenCV's BGR.
fn rgb_to_bgr(rgb: &[u8], width: u32, height: u32) -> opencv::Result<Mat> {
    let packed = Mat::from_slice(rgb)?;
    let shaped = packed.reshape(3, height as i32)?;
    if shaped.cols() != width as i32 {
        return Err(opencv::Error::new(
            opencv::core::StsBadSize,
            format!("{} bytes for a {width}×{height} RGB frame", rgb.len()),
        ));
    }
    let mut bgr = Mat::default();
    imgproc::cvt_color(&shaped, &mut bgr, imgproc::COLOR_RGB2BGR, 0)?;
    Ok(bgr)
}

impl Iterator for CameraReader {
    type Item = Result<Frame, FrameProblem>;
    fn next(&mut self) -> Option<Self::Item> {
        if let Some(first) = self.first.take() {
            return Some(Ok(first));
        }
        if self.failures >= FAILURES_AT_END {
            return None;
        }
        let item = self.next_frame();
        self.failures = if item.is_ok() { 0 } else { self.failures + 1 };
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use opencv::core::Vec3b;

    #[test]
    fn no_camera_is_an_error_not_a_panic() {
        // These machines have no camera; where one is attached, a high index still has none.
        match CameraReader::open(97) {
            Err(SourceError::NoCamera { index: 97, .. }) => {}
            Err(other) => panic!("expected NoCamera, got {other}"),
            Ok(_) => panic!("camera 97 opened"),
        }
    }

    #[test]
    fn rgb_becomes_bgr() {
        let rgb = [10, 20, 30, 40, 50, 60];
        let bgr = rgb_to_bgr(&rgb, 2, 1).unwrap();
        assert_eq!((bgr.rows(), bgr.cols(), bgr.typ()), (1, 2, opencv::core::CV_8UC3));
        assert_eq!(*bgr.at_2d::<Vec3b>(0, 1).unwrap(), Vec3b::from([60, 50, 40]));
        assert!(rgb_to_bgr(&rgb, 3, 1).is_err());
    }
}
