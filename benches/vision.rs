//! The vision pass per frame, in the two halves replay runs on two threads: what a `Preparer`
//! works out ahead (the board's view warped, what each square measures, the clock's strip) and
//! what follows frame by frame (the hand finder, the squares read against their looks, the
//! memory of how they last settled). Over a rendered second of a 1280×720 game from the moment
//! an arm comes in, and over a second of the board at rest (most of a game's frames). Medians
//! from criterion; `touchmove bench` measures the whole replay beside decoding.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use opencv::core::Mat;
use shakmaty::Position;
use touchmove::sim::camera::Camera;
use touchmove::sim::render::Renderer;
use touchmove::sim::scenes::game_scene;
use touchmove::sim::timeline;
use touchmove::types::{BoardGeometry, ImageSide};
use touchmove::vision::frame::{Prepared, Vision};

/// Frames in a sample: a second of the rendered video.
const FRAMES: usize = 30;

fn vision(c: &mut Criterion) {
    let start = shakmaty::Chess::default();
    let e4 = shakmaty::san::San::from_ascii(b"e4").unwrap().to_move(&start).unwrap();
    let scene = game_scene(&start, &[e4], 3);
    let tl = timeline::run(&scene).unwrap();
    let mut r = Renderer::new(Camera::new(&scene.camera), &scene.style, scene.seed).unwrap();
    let arm_in = tl.frames.iter().position(|f| !f.hands.is_empty()).expect("an arm comes in");
    let render = |r: &mut Renderer, from: usize| -> Vec<Mat> { tl.frames[from..from + FRAMES].iter().map(|w| r.render(w).unwrap().0).collect() };
    let (moving, still) = (render(&mut r, arm_in), render(&mut r, 0));
    let g = BoardGeometry { corners: r.cam.board_corners(), white: ImageSide::Bottom, h1_light: true };
    let board = start.board().clone();
    let started = || Vision::start(&still[0], Some(g), &board).unwrap();
    let preparer = started().preparer();
    let prepare = |frames: &[Mat]| -> Vec<Prepared> { frames.iter().enumerate().map(|(i, f)| preparer.prepare(i as u64, i as f64 / 30.0, f).unwrap()).collect() };
    let mut group = c.benchmark_group("vision_per_second_of_video");
    group.sample_size(10);
    for (name, frames) in [("arm_moving", &moving), ("board_at_rest", &still)] {
        group.bench_function(format!("prepare_{name}"), |b| b.iter(|| prepare(frames)));
        // From a vision just started, as replay's would be; setting it up is not timed.
        group.bench_function(format!("follow_{name}"), |b| {
            b.iter_batched(
                || (started(), prepare(frames)),
                |(mut v, prepared)| {
                    for (p, f) in prepared.into_iter().zip(frames) {
                        v.observe_prepared(p, f).unwrap();
                    }
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, vision);
criterion_main!(benches);
