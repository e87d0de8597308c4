//! What the piece model is shown, and the real boards' crops for experiments with it.
//!
//! `cargo run --release --example diag_pieces -- montage IMAGE OUT.png` writes the 64 crops of
//! one image as `PieceCrops` cuts them, 8 × 8 (a8 top-left), the board taken to fill the image
//! with White at the bottom (the bgu frames).
//!
//! `cargo run --release --example diag_pieces -- dump OUT_DIR (2 | 7 | ray)` writes every
//! labelled frame of bgu game 2 or 7, or the chess-ray-vision photos (initial position first),
//! as `models/piece/train.py`'s data format (`crops.u8`, `labels.u8`, `frames.u8`: the frame's
//! index, 0 for the initial position): for trying readers on real boards outside the product
//! (`../shared/real/` is read, nothing is copied into the project).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use opencv::core::{CV_8UC3, Mat, Rect, Scalar, Vec3b, Vector};
use opencv::imgcodecs;
use opencv::prelude::*;
use shakmaty::{Board, Square};
use touchmove::types::{BoardGeometry, ImageSide};
use touchmove::vision::pieces::{CROP, PieceCrops, class_of};
use touchmove::vision::squares::{corners_with_white_at, find_straightened};

fn read(path: &Path) -> Result<Mat> {
    let img = imgcodecs::imread(path, imgcodecs::IMREAD_COLOR)?;
    if img.empty() {
        bail!("{}: cannot read the image", path.display());
    }
    Ok(img)
}

fn crops(img: &Mat, corners: Option<[[f64; 2]; 4]>) -> Result<Vec<f32>> {
    let (w, h) = (img.cols() as f64, img.rows() as f64);
    let corners = corners.unwrap_or([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]);
    let g = BoardGeometry { corners, white: ImageSide::Bottom, h1_light: true };
    Ok(PieceCrops::new(&g, w, h)?.cut(img)?)
}

fn montage(image: &Path, out: &Path) -> Result<()> {
    let crops = crops(&read(image)?, None)?;
    let side = (8 * (CROP + 2)) as i32;
    let mut canvas = Mat::new_rows_cols_with_default(side, side, CV_8UC3, Scalar::all(255.0))?;
    let plane = CROP * CROP;
    for sq in Square::ALL {
        let (col, row) = (u32::from(sq.file()) as usize, 7 - u32::from(sq.rank()) as usize);
        let base = usize::from(sq) * 3 * plane;
        let r = Rect::new((col * (CROP + 2)) as i32, (row * (CROP + 2)) as i32, CROP as i32, CROP as i32);
        let mut cell = Mat::roi_mut(&mut canvas, r)?;
        for y in 0..CROP {
            for x in 0..CROP {
                let px = cell.at_2d_mut::<Vec3b>(y as i32, x as i32)?;
                for c in 0..3 {
                    px[c] = (crops[base + c * plane + y * CROP + x] * 255.0).round() as u8;
                }
            }
        }
    }
    imgcodecs::imwrite(out, &canvas, &Vector::new())?;
    Ok(())
}

fn real() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real/stills")
}

/// (image, board, corners) in reading order.
fn labelled(set: &str) -> Result<Vec<(PathBuf, Board, Option<[[f64; 2]; 4]>)>> {
    let board = |fen: &str| fen.split_whitespace().next().unwrap_or("").parse::<Board>().with_context(|| format!("bad FEN {fen}"));
    let mut out = Vec::new();
    if set == "ray" {
        let dir = real().join("chess-ray-vision");
        let text = std::fs::read_to_string(dir.join("labels.csv"))?;
        let mut rows = Vec::new();
        for l in text.lines().skip(1).filter(|l| l.starts_with("warped/")) {
            let (file, fen) = l.split_once(',').context("labels.csv: a row without a comma")?;
            rows.push((dir.join(file), board(fen)?));
        }
        rows.sort_by_key(|r| !r.0.ends_with("img13.png"));
        for (path, b) in rows {
            let grid = find_straightened(&read(&path)?)?.with_context(|| format!("{}: no straightened board", path.display()))?;
            out.push((path, b, Some(corners_with_white_at(ImageSide::Left, grid.corners))));
        }
    } else {
        let dir = real().join(format!("bgu-per-frame-games/game{set}"));
        let text = std::fs::read_to_string(dir.join(format!("game{set}.csv")))?;
        let mut seen = std::collections::HashSet::new();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let frame: u64 = f[0].parse()?;
            let path = dir.join(format!("tagged_images/frame_{frame:06}.jpg"));
            if path.exists() && seen.insert(frame) {
                out.push((path, board(f[2])?, None));
            }
        }
    }
    Ok(out)
}

fn dump(out: &Path, set: &str) -> Result<()> {
    std::fs::create_dir_all(out)?;
    let create = |name: &str| -> Result<std::io::BufWriter<std::fs::File>> { Ok(std::io::BufWriter::new(std::fs::File::create(out.join(name))?)) };
    let (mut c, mut l, mut f) = (create("crops.u8")?, create("labels.u8")?, create("frames.u8")?);
    let frames = labelled(set)?;
    for (i, (path, board, corners)) in frames.iter().enumerate() {
        let crops = crops(&read(path)?, *corners)?;
        c.write_all(&crops.iter().map(|v| (v * 255.0).round() as u8).collect::<Vec<u8>>())?;
        for sq in Square::ALL {
            l.write_all(&[class_of(board.piece_at(sq)) as u8])?;
            f.write_all(&[i.min(255) as u8])?;
        }
    }
    c.flush()?;
    l.flush()?;
    f.flush()?;
    eprintln!("{} frames of {set} in {}", frames.len(), out.display());
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["montage", image, out] => montage(Path::new(image), Path::new(out)),
        ["dump", out, set @ ("2" | "7" | "ray")] => dump(Path::new(out), set),
        _ => bail!("usage: diag_pieces montage IMAGE OUT.png | diag_pieces dump OUT_DIR (2 | 7 | ray)"),
    }
}
