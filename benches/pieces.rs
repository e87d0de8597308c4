//! The piece model's cost per frame beside the hand-made path's, on one rendered 1280×720
//! frame of the initial position: the whole hand-made vision pass (`Vision::observe`: warp,
//! hands, 64 squares read and adapted), cutting the 64 crops, and cutting them and running the
//! model on all 64 (one thread, as in the pipeline). Medians from criterion; the model is
//! skipped, with a line saying why, where ONNX Runtime is missing.

use criterion::{Criterion, criterion_group, criterion_main};
use touchmove::sim::camera::Camera;
use touchmove::sim::render::Renderer;
use touchmove::sim::scenes::game_scene;
use touchmove::sim::timeline;
use touchmove::types::{BoardGeometry, ImageSide};
use touchmove::vision::frame::Vision;
use touchmove::vision::pieces::PieceCrops;
use touchmove::vision::pieces::model::{PieceModel, PieceReader};

fn pieces(c: &mut Criterion) {
    let start = shakmaty::Chess::default();
    let scene = game_scene(&start, &[], 3);
    let tl = timeline::run(&scene).unwrap();
    let mut r = Renderer::new(Camera::new(&scene.camera), &scene.style, scene.seed).unwrap();
    let (img, _) = r.render(&tl.frames[0]).unwrap();
    let g = BoardGeometry { corners: r.cam.board_corners(), white: ImageSide::Bottom, h1_light: true };
    let board = shakmaty::Board::default();
    let mut vision = Vision::start(&img, Some(g.clone()), &board).unwrap();
    let cutter = PieceCrops::new(&g, scene.camera.width as f64, scene.camera.height as f64).unwrap();
    let mut group = c.benchmark_group("per_frame");
    group.sample_size(30);
    group.bench_function("hand_made_vision_pass", |b| b.iter(|| vision.observe(0, 0.0, &img).unwrap()));
    group.bench_function("piece_crops_cut", |b| b.iter(|| cutter.cut(&img).unwrap()));
    match PieceModel::shipped() {
        Ok(model) => {
            let mut reader = PieceReader::learn(model, &cutter.cut(&img).unwrap(), &board).unwrap();
            group.bench_function("piece_model_64_squares", |b| b.iter(|| reader.read(&cutter.cut(&img).unwrap()).unwrap()));
        }
        Err(e) => eprintln!("piece model skipped: {e}"),
    }
    group.finish();
}

criterion_group!(benches, pieces);
criterion_main!(benches);
