//! Training data for the piece model (`models/piece/train.py`): rendered boards under many
//! cameras, lights, boards and sets, each square cut as the product cuts it
//! (`vision::pieces::PieceCrops`, from the true board corners) and labelled with its class.
//!
//! `cargo run --release --example piece_data -- OUT_DIR [LOOKS] [FRAMES_PER_LOOK] [FIRST_SEED]`
//! writes `crops.u8` (n × 3 × 64 × 64 bytes, BGR planes: `vision::pieces::CROP`), `labels.u8` (n classes, 0 empty,
//! 1–6 White P N B R Q K, 7–12 Black) and `looks.u16` (the look each crop came from, so that
//! training can hold whole looks out) and `frames.u8` (the frame within its look). One frame in five shows the initial position (what a
//! game's centres are learned from); the others random placements. Empty squares are kept one
//! in three, so that pieces are not drowned.

use std::io::Write;

use shakmaty::{Board, Color, Piece, Role, Square};
use touchmove::sim::camera::{Camera, SQUARE_CM, square_centre};
use touchmove::sim::render::Renderer;
use touchmove::sim::rng::Rng;
use touchmove::sim::scenes::random_look;
use touchmove::sim::timeline::{PieceState, WorldFrame};
use touchmove::types::{BoardGeometry, ImageSide};
use touchmove::vision::pieces::{PieceCrops, class_of};

const ROLES: [(Role, usize); 6] = [(Role::Pawn, 3), (Role::Knight, 2), (Role::Bishop, 2), (Role::Rook, 2), (Role::Queen, 2), (Role::King, 2)];

fn random_board(rng: &mut Rng) -> Board {
    let mut board = Board::empty();
    let fill = 20 + rng.below(40);
    let total: usize = ROLES.iter().map(|r| r.1).sum();
    for sq in Square::ALL {
        if rng.below(100) >= fill {
            continue;
        }
        let mut pick = rng.below(total);
        let role = ROLES.iter().find(|(_, w)| if pick < *w { true } else { pick -= w; false }).map(|r| r.0).unwrap_or(Role::Pawn);
        let color = if rng.chance(0.5) { Color::White } else { Color::Black };
        board.set_piece_at(sq, Piece { color, role });
    }
    board
}

fn world(board: &Board, rng: &mut Rng) -> WorldFrame {
    let jitter = |rng: &mut Rng| (rng.below(100) as f64 / 100.0 - 0.5) * 0.3 * SQUARE_CM;
    let pieces = board
        .iter()
        .map(|(sq, piece)| {
            let c = square_centre(sq);
            let facing = rng.below(628) as f64 / 100.0;
            PieceState { piece, pos: [c[0] + jitter(rng), c[1] + jitter(rng), 0.0], facing, on_table: true }
        })
        .collect();
    WorldFrame { pieces, hands: vec![], buttons: [0.0, 0.0], shadow: rng.below(100) as f64 / 100.0 }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = std::path::PathBuf::from(args.first().map(String::as_str).unwrap_or("/tmp/piece-data"));
    let looks: u64 = args.get(1).map(|s| s.parse()).transpose()?.unwrap_or(300);
    let frames: usize = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(5);
    let first: u64 = args.get(3).map(|s| s.parse()).transpose()?.unwrap_or(1000);
    std::fs::create_dir_all(&out)?;
    let mut crops_f = std::io::BufWriter::new(std::fs::File::create(out.join("crops.u8"))?);
    let mut labels_f = std::io::BufWriter::new(std::fs::File::create(out.join("labels.u8"))?);
    let mut looks_f = std::io::BufWriter::new(std::fs::File::create(out.join("looks.u16"))?);
    let mut frames_f = std::io::BufWriter::new(std::fs::File::create(out.join("frames.u8"))?);
    let mut n = 0usize;
    for look in 0..looks {
        let seed = first + look;
        let (spec, mut style) = random_look(seed);
        // Each frame shows another placement: smearing one into the next would mislabel both.
        style.motion_blur = 0.0;
        let mut renderer = Renderer::new(Camera::new(&spec), &style, seed)?;
        let g = BoardGeometry { corners: renderer.cam.board_corners(), white: ImageSide::Bottom, h1_light: true };
        let cutter = PieceCrops::new(&g, spec.width as f64, spec.height as f64)?;
        let mut rng = Rng::new(seed ^ 0x91EC);
        for f in 0..frames {
            let board = if f == 0 { Board::default() } else { random_board(&mut rng) };
            let (img, _) = renderer.render(&world(&board, &mut rng))?;
            let crops = cutter.cut(&img)?;
            let per = crops.len() / 64;
            for sq in Square::ALL {
                let class = class_of(board.piece_at(sq));
                if class == 0 && rng.below(3) != 0 {
                    continue;
                }
                let i = usize::from(sq);
                let bytes: Vec<u8> = crops[i * per..(i + 1) * per].iter().map(|v| (v * 255.0).round() as u8).collect();
                crops_f.write_all(&bytes)?;
                labels_f.write_all(&[class as u8])?;
                looks_f.write_all(&(look as u16).to_le_bytes())?;
                frames_f.write_all(&[f as u8])?;
                n += 1;
            }
        }
        if look % 20 == 19 {
            eprintln!("{} looks, {n} crops", look + 1);
        }
    }
    crops_f.flush()?;
    labels_f.flush()?;
    looks_f.flush()?;
    frames_f.flush()?;
    eprintln!("{n} crops in {}", out.display());
    Ok(())
}
