//! The square reader on real boards and rendered ones.
//!
//! Real data is read from `../shared/real/` (never copied into the project):
//! - `stills/bgu-per-frame-games/game{2,7}/`: straightened 480×480 frames of two real games
//!   (`tagged_images/frame_NNNNNN.jpg`) and `gameN.csv` (frame number → FEN); White sits at the
//!   bottom in both. Each game's frames are read in order after learning from its first
//!   (initial-position) frame, the reader adapting to the light from its own confident readings.
//! - `stills/chess-ray-vision/warped/` + `labels.csv`: 13 straightened phone photos of one
//!   opening; the board does not fill the image and White sits on the left.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use opencv::core::Mat;
use opencv::imgcodecs;
use opencv::prelude::*;
use shakmaty::{Board, Color, Square};
use touchmove::types::{SquareObs, SquareState};
use touchmove::vision::squares::SquareReader;

fn real(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real").join(rel)
}

fn load(path: &Path) -> Mat {
    let m = imgcodecs::imread(path.to_str().unwrap(), imgcodecs::IMREAD_COLOR).unwrap();
    assert!(!m.empty(), "{} did not load", path.display());
    m
}

fn board_of(fen: &str) -> Board {
    fen.split_whitespace().next().unwrap().parse().unwrap()
}

/// Square tallies: read wrong (empty/white/black), occluded, and in all; pieces whose type was
/// read wrong or not at all.
#[derive(Default, Debug)]
struct Tally {
    wrong: usize,
    occluded: usize,
    squares: usize,
    pieces: usize,
    type_wrong: usize,
    worst: BTreeMap<String, usize>,
    confusions: BTreeMap<String, usize>,
}

impl Tally {
    fn add(&mut self, name: &str, read: &[SquareObs], truth: &Board) {
        let mut here = 0;
        for sq in Square::ALL {
            let obs = read[usize::from(sq)];
            let want = match truth.piece_at(sq) {
                None => SquareState::Empty,
                Some(p) if p.color == Color::White => SquareState::White,
                Some(_) => SquareState::Black,
            };
            self.squares += 1;
            if let Some(p) = truth.piece_at(sq) {
                self.pieces += 1;
                if obs.role != Some(p.role) {
                    self.type_wrong += 1;
                }
            }
            match obs.state {
                SquareState::Occluded => self.occluded += 1,
                s if s != want => {
                    self.wrong += 1;
                    here += 1;
                    *self.confusions.entry(format!("{sq} {want:?}->{s:?}")).or_default() += 1;
                }
                _ => {}
            }
        }
        if here > 0 {
            self.worst.insert(name.to_owned(), here);
        }
    }

    fn report(&self, what: &str) {
        println!(
            "{what}: {} of {} squares read wrong ({:.2} %), {} occluded ({:.2} %); piece type wrong or unknown for {} of {} pieces ({:.1} %)",
            self.wrong,
            self.squares,
            100.0 * self.wrong as f64 / self.squares as f64,
            self.occluded,
            100.0 * self.occluded as f64 / self.squares as f64,
            self.type_wrong,
            self.pieces,
            100.0 * self.type_wrong as f64 / self.pieces.max(1) as f64
        );
    }
}

/// A game's labelled frames in order: (image, board). A frame labelled twice (one CSV row
/// before a move, one after) counts once, with the first label.
fn bgu_game(n: u32) -> Vec<(PathBuf, Board)> {
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

fn read_game(n: u32) -> Tally {
    let frames = bgu_game(n);
    let mut reader = SquareReader::learn(&load(&frames[0].0), &frames[0].1).unwrap();
    let mut t = Tally::default();
    for (path, board) in &frames {
        let read = reader.read_adapting(&load(path)).unwrap();
        t.add(&path.file_name().unwrap().to_string_lossy(), &read, board);
    }
    t
}

#[test]
fn bgu_games_2_and_7_read_within_one_percent() {
    let mut all = Tally::default();
    for n in [2, 7] {
        let t = read_game(n);
        t.report(&format!("bgu game {n}"));
        println!("  frames with errors: {:?}", t.worst);
        println!("  confusions: {:?}", t.confusions.iter().filter(|(_, n)| **n > 1).collect::<Vec<_>>());
        all.wrong += t.wrong;
        all.occluded += t.occluded;
        all.squares += t.squares;
        all.pieces += t.pieces;
        all.type_wrong += t.type_wrong;
    }
    all.report("bgu games 2 and 7");
    assert_eq!(all.squares, 132 * 64);
    assert!(all.wrong * 100 <= all.squares, "{} wrong", all.wrong);
}
