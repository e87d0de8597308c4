//! Renderer cost: one 1280×720 frame (pieces, an arm over the board, clock, light, blur, lens
//! distortion, noise), without encoding, and H.264 encoding excluded. Medians from criterion.

use criterion::{Criterion, criterion_group, criterion_main};
use touchmove::sim::breaches::BreachKind;
use touchmove::sim::camera::Camera;
use touchmove::sim::render::Renderer;
use touchmove::sim::scenes::breach_scene;
use touchmove::sim::timeline;

fn render_frame(c: &mut Criterion) {
    let scene = breach_scene(BreachKind::TwoHands, 4);
    let tl = timeline::run(&scene).unwrap();
    // A frame with a hand over the board.
    let busy = tl.frames.iter().position(|f| !f.hands.is_empty()).unwrap_or(0) + 10;
    let world = tl.frames[busy.min(tl.frames.len() - 1)].clone();
    let mut r = Renderer::new(Camera::new(&scene.camera), &scene.style, scene.seed).unwrap();
    let mut group = c.benchmark_group("render");
    group.sample_size(30);
    group.bench_function("frame_1280x720", |b| b.iter(|| r.render(&world).unwrap()));
    group.finish();
}

criterion_group!(benches, render_frame);
criterion_main!(benches);
