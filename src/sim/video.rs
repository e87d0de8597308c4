//! Renders a scene to `video.mp4` (H.264), `events.jsonl` (the truth's events, as a tracker
//! would write them), `contact.jpg` (four moments) and `truth.json`: per frame, what stands on each
//! square, what a hand hides, each hand's outline and fingertips; the events with their frames;
//! and the decisions the rules core draws from them.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use opencv::core::{Mat, Size, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use opencv::videoio::{self, VideoWriter};
use serde::Serialize;

use super::camera::Camera;
use super::render::{FrameTruth, Renderer};
use super::scene::Scene;
use super::timeline;
use crate::rules::{Rules, RulesConfig};
use crate::types::{Decision, Event, EventKind, ImageSide};

#[derive(Serialize)]
struct Truth<'a> {
    fps: f64,
    width: u32,
    height: u32,
    frames: u64,
    /// The playing area's corners at a8, h8, h1, a1 in image pixels.
    corners: [[f64; 2]; 4],
    /// The image edge White sits at.
    white: &'static str,
    h1_light: bool,
    events: &'a [Event],
    decisions: &'a [Decision],
    per_frame: &'a [FrameTruth],
}

/// What a rendered scene produced.
pub struct Rendered {
    pub frames: u64,
    pub events: Vec<Event>,
    pub decisions: Vec<Decision>,
}

fn edge(name: &str) -> ImageSide {
    match name {
        "top" => ImageSide::Top,
        "left" => ImageSide::Left,
        "right" => ImageSide::Right,
        _ => ImageSide::Bottom,
    }
}

/// Four frames, two by two, at half size, as a JPEG for a person to look at.
pub fn contact_sheet(tiles: &[Mat], path: &Path) -> Result<()> {
    let half = |m: &Mat| -> Result<Mat> {
        let mut out = Mat::default();
        opencv::imgproc::resize(m, &mut out, Size::new(m.cols() / 2, m.rows() / 2), 0.0, 0.0, opencv::imgproc::INTER_AREA)?;
        Ok(out)
    };
    let t: Vec<Mat> = tiles.iter().map(half).collect::<Result<_>>()?;
    let (mut top, mut bottom, mut sheet) = (Mat::default(), Mat::default(), Mat::default());
    opencv::core::hconcat2(&t[0], &t[1], &mut top)?;
    opencv::core::hconcat2(&t[2], &t[3], &mut bottom)?;
    opencv::core::vconcat2(&top, &bottom, &mut sheet)?;
    let params: Vector<i32> = Vector::from_iter([imgcodecs::IMWRITE_JPEG_QUALITY, 85]);
    if !imgcodecs::imwrite(path.to_string_lossy().as_ref(), &sheet, &params)? {
        bail!("{}: cannot write the contact sheet", path.display());
    }
    Ok(())
}

/// The decisions the rules core draws from a scene's events.
pub fn decisions_for(scene: &Scene, events: &[Event]) -> Result<Vec<Decision>> {
    let start = scene.start_position()?;
    let mut rules = Rules::new(RulesConfig { start, white_sits: None });
    let mut out: Vec<Decision> = events.iter().flat_map(|e| rules.apply(e)).collect();
    out.extend(rules.finish());
    Ok(out)
}

/// Renders `scene` into `dir`; `progress(done, total)` is called after each frame. With
/// `video` false only `truth.json` is written (the frames are still rendered for their truth).
pub fn render_scene(scene: &Scene, dir: &Path, video: bool, mut progress: impl FnMut(u64, u64)) -> Result<Rendered> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the output folder", dir.display()))?;
    let timeline = timeline::run(scene)?;
    let cam = Camera::new(&scene.camera);
    let white = cam.white_edge();
    let mut events = timeline.events;
    for e in &mut events {
        if let EventKind::Board { white: w, .. } = &mut e.kind {
            *w = Some(edge(white));
        }
    }
    let mut renderer = Renderer::new(cam.clone(), &scene.style, scene.seed)?;
    let total = timeline.frames.len() as u64;
    let mut writer = if video {
        let path = dir.join("video.mp4");
        // x264 through OpenCV's FFmpeg backend; quality from the scene's CRF, which OpenCV only
        // takes from the environment.
        // SAFETY: set_var is unsafe only while other threads may read the environment; this
        // runs before any thread of ours starts and OpenCV reads it on the next line.
        unsafe { std::env::set_var("OPENCV_FFMPEG_WRITER_OPTIONS", format!("crf;{}", scene.style.crf)) };
        let fourcc = VideoWriter::fourcc('a', 'v', 'c', '1')?;
        let size = Size::new(scene.camera.width as i32, scene.camera.height as i32);
        let w = VideoWriter::new_with_backend(path.to_string_lossy().as_ref(), videoio::CAP_FFMPEG, fourcc, scene.fps, size, true)?;
        if !w.is_opened()? {
            bail!("{}: cannot open an H.264 writer (is OpenCV built with FFmpeg? run scripts/setup.sh)", path.display());
        }
        Some(w)
    } else {
        None
    };
    let mut per_frame = Vec::with_capacity(total as usize);
    let n = timeline.frames.len();
    let picks = [n / 5, n / 2, 3 * n / 4, n.saturating_sub(15)];
    let mut tiles = Vec::new();
    for (i, world) in timeline.frames.iter().enumerate() {
        let (image, mut truth) = renderer.render(world)?;
        if picks.contains(&i) && tiles.len() < 4 {
            tiles.push(image.try_clone()?);
        }
        truth.t = (i as f64 / scene.fps * 1e4).round() / 1e4;
        if let Some(w) = writer.as_mut() {
            w.write(&image)?;
        }
        per_frame.push(truth);
        progress(i as u64 + 1, total);
    }
    if let Some(mut w) = writer {
        w.release()?;
    }
    if tiles.len() == 4 {
        contact_sheet(&tiles, &dir.join("contact.jpg"))?;
    }
    let decisions = decisions_for(scene, &events)?;
    let path = dir.join("events.jsonl");
    let mut lines = String::new();
    for e in &events {
        lines.push_str(&e.to_json());
        lines.push('\n');
    }
    std::fs::write(&path, lines).with_context(|| format!("{}: cannot write", path.display()))?;
    let truth = Truth {
        fps: scene.fps,
        width: scene.camera.width,
        height: scene.camera.height,
        frames: total,
        corners: cam.board_corners().map(|p| [(p[0] * 10.0).round() / 10.0, (p[1] * 10.0).round() / 10.0]),
        white,
        h1_light: true,
        events: &events,
        decisions: &decisions,
        per_frame: &per_frame,
    };
    let path = dir.join("truth.json");
    let file = File::create(&path).with_context(|| format!("{}: cannot create", path.display()))?;
    let mut out = BufWriter::new(file);
    serde_json::to_writer(&mut out, &truth)?;
    out.flush()?;
    Ok(Rendered { frames: total, events, decisions })
}
