//! What vision reads in a real clip, frame by frame: for each frame (or every Nth), the squares
//! as a board diagram row (`.` empty, `w`/`b` a piece, `?` hidden), the hands, and the squares
//! that differ from the first frame's reading. For finding where a clip loses its way.
//! DIAG_DUMP=F,G writes frames F and G with the hands drawn as /tmp/clip-F.png.
//!
//! `cargo run --release --example diag_clip -- VIDEO [EVERY] [FROM-TO seconds]`; the first
//! frame must show the initial position (or DIAG_FEN's) with no hand over the board. Every
//! frame is read; EVERY and FROM-TO choose what is printed. Vision starts on frame 1 (frame 0
//! may carry a title; DIAG_START=N starts on frame N), where replay starts on the first frame after the picture stops changing:
//! where the two disagree, compare their starts first.

use shakmaty::{Board, Square};
use touchmove::source::{SourceSpec, open};
use touchmove::types::SquareState;
use touchmove::vision::frame::Vision;

fn row(states: &[SquareState]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        for file in 0..8 {
            s.push(match states[rank * 8 + file] {
                SquareState::Empty => '.',
                SquareState::White => 'w',
                SquareState::Black => 'b',
                SquareState::Occluded => '?',
                SquareState::Piece => 'p',
            });
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: diag_clip VIDEO [EVERY] [FROM-TO]");
    let every: u64 = args.get(2).map(|s| s.parse().expect("EVERY is a number")).unwrap_or(1);
    let span = args.get(3).map(|s| {
        let (a, b) = s.split_once('-').expect("FROM-TO");
        (a.parse::<f64>().expect("FROM"), b.parse::<f64>().expect("TO"))
    });
    let dump: Vec<u64> = std::env::var("DIAG_DUMP").unwrap_or_default().split(',').filter_map(|s| s.parse().ok()).collect();
    let mut source = open(&SourceSpec::parse(path)).expect("opens");
    // DIAG_START=0 starts on frame 0, as replay does where frame 1 agrees with it.
    let skip: usize = std::env::var("DIAG_START").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    for _ in 0..skip {
        let _ = source.next();
    }
    let first = source.next().expect("a frame").expect("readable");
    let start: Board = std::env::var("DIAG_FEN").ok().map(|f| f.split_whitespace().next().unwrap_or("").parse().expect("DIAG_FEN: a FEN")).unwrap_or_default();
    let mut vision = Vision::start(&first.image, None, &start).expect("vision starts");
    eprintln!("geometry {:?} learned {}", vision.geometry, vision.learned);
    for frame in source.flatten() {
        // Every frame is seen, as replay sees them (the settled view, the looks and the arms
        // follow frame by frame); EVERY and FROM-TO choose only what is printed.
        let obs = vision.observe(frame.index, frame.t, &frame.image).expect("observes");
        if frame.index % every != 0 || span.is_some_and(|(a, b)| !(a..b).contains(&frame.t)) {
            continue;
        }
        let states: Vec<_> = obs.squares.iter().map(|o| o.state).collect();
        let odd: Vec<String> = (0..64)
            .filter(|&i| {
                let want = match start.piece_at(Square::new(i as u32)) {
                    None => SquareState::Empty,
                    Some(p) if p.color.is_white() => SquareState::White,
                    Some(_) => SquareState::Black,
                };
                states[i] != SquareState::Occluded && states[i] != want
            })
            .map(|i| format!("{}{:?}", Square::new(i as u32), states[i]).chars().take(4).collect())
            .collect();
        let hands: Vec<String> = obs.hands.iter().map(|h| format!("#{}{:?}@{:?}", h.id, h.side, h.extremity_square)).collect();
        if dump.contains(&frame.index) {
            let mut img = frame.image.clone();
            for h in &obs.hands {
                let pts: opencv::core::Vector<opencv::core::Point> = h.polygon.iter().map(|p| opencv::core::Point::new(p[0] as i32, p[1] as i32)).collect();
                let polys = opencv::core::Vector::<opencv::core::Vector<opencv::core::Point>>::from_iter([pts]);
                opencv::imgproc::polylines(&mut img, &polys, true, opencv::core::Scalar::new(0.0, 0.0, 255.0, 0.0), 2, opencv::imgproc::LINE_8, 0).unwrap();
                let e = opencv::core::Point::new(h.extremity[0] as i32, h.extremity[1] as i32);
                opencv::imgproc::circle(&mut img, e, 5, opencv::core::Scalar::new(0.0, 255.0, 0.0, 0.0), 2, opencv::imgproc::LINE_8, 0).unwrap();
            }
            opencv::imgcodecs::imwrite(&format!("/tmp/clip-{}.png", frame.index), &img, &opencv::core::Vector::new()).unwrap();
        }
        // DIAG_SQ=f8,g7: those squares' states and confidences too.
        let watch: String = std::env::var("DIAG_SQ").unwrap_or_default().split(',').filter_map(|s| s.parse::<Square>().ok()).map(|s| format!(" {s}:{:?}/{:.2}", obs.squares[usize::from(s)].state, obs.squares[usize::from(s)].confidence)).collect();
        println!("{:4} {:6.2} {} hands[{}] vs start: {}{watch}", frame.index, frame.t, row(&states), hands.join(" "), odd.join(" "));
    }
}
