//! What several test files read from `../shared/real/` (never copied into the project): the
//! labelled stills of real boards; openings to render, from their moves; and a rendered scene's
//! camera set up as vision sees it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use opencv::core::Mat;
use opencv::imgcodecs;
use opencv::prelude::*;
use shakmaty::Board;

pub fn real(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real").join(rel)
}

pub fn load(path: &Path) -> Mat {
    let m = imgcodecs::imread(path.to_str().unwrap(), imgcodecs::IMREAD_COLOR).unwrap();
    assert!(!m.empty(), "{} did not load", path.display());
    m
}

/// The moves of a line played from the initial position, given as UCI.
pub fn uci_line(line: &[&str]) -> Vec<shakmaty::Move> {
    let mut pos = shakmaty::Chess::default();
    line.iter()
        .map(|u| {
            let m = u.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
            shakmaty::Position::play_unchecked(&mut pos, m);
            m
        })
        .collect()
}

pub fn board_of(fen: &str) -> Board {
    fen.split_whitespace().next().unwrap().parse().unwrap()
}

/// A bgu game's labelled frames in order: (image, board). A frame labelled twice (one CSV row
/// before a move, one after) counts once, with the first label. The frames are straightened
/// 480×480 views with White at the bottom; the first shows the initial position.
pub fn bgu_game(n: u32) -> Vec<(PathBuf, Board)> {
    let dir = real(&format!("stills/bgu-per-frame-games/game{n}"));
    let text = std::fs::read_to_string(dir.join(format!("game{n}.csv"))).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let frame: u64 = f[0].parse().unwrap();
        let path = dir.join(format!("tagged_images/frame_{frame:06}.jpg"));
        if path.exists() && seen.insert(frame) {
            out.push((path, board_of(f[2])));
        }
    }
    out
}

/// The chess-ray-vision straightened phone photos and their boards (`img13` shows the initial
/// position; White sits on the left).
pub fn chess_ray() -> Vec<(PathBuf, Board)> {
    let dir = real("stills/chess-ray-vision");
    let text = std::fs::read_to_string(dir.join("labels.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| l.starts_with("warped/"))
        .map(|l| {
            let (file, fen) = l.split_once(',').unwrap();
            (dir.join(file), board_of(fen))
        })
        .collect()
}

/// The margin round the board, in squares, that [`shoot`]'s view looks for arms in (as vision's).
pub const VIEW_MARGIN: f64 = 0.75;

/// A rendered scene at 640 × 360, as vision sees it with the board's true outline: its
/// timeline, camera, geometry, the rectified view with the hand finder's margin, and its renderer.
pub struct Shot {
    pub timeline: touchmove::sim::timeline::Timeline,
    pub camera: touchmove::sim::camera::Camera,
    pub geometry: touchmove::types::BoardGeometry,
    pub rect: touchmove::vision::rectify::Rectifier,
    pub renderer: touchmove::sim::render::Renderer,
}

pub fn shoot(mut scene: touchmove::sim::scene::Scene) -> Shot {
    use touchmove::sim::camera::Camera;
    scene.camera.width = 640;
    scene.camera.height = 360;
    let timeline = touchmove::sim::timeline::run(&scene).unwrap();
    let camera = Camera::new(&scene.camera);
    let geometry = touchmove::types::BoardGeometry { corners: camera.board_corners(), white: touchmove::types::ImageSide::Bottom, h1_light: true };
    let rect = touchmove::vision::rectify::Rectifier::new(&geometry, 32, VIEW_MARGIN).unwrap();
    let renderer = touchmove::sim::render::Renderer::new(camera.clone(), &scene.style, scene.seed).unwrap();
    Shot { timeline, camera, geometry, rect, renderer }
}
