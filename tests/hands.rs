//! Hands found in rendered frames (many cameras, boards, skins, sleeves and lights): the number
//! of arms over the board and the square under the fingertips, against the renderer's truth.
//! Prints the figures; `cargo test --release --test hands -- --nocapture` shows them.

use touchmove::sim::camera::{Camera, square_at};
use touchmove::sim::render::Renderer;
use touchmove::sim::scenes::{STAGED_NAMES, staged_scene};
use touchmove::sim::timeline;
use touchmove::types::{BoardGeometry, ImageSide};
use touchmove::vision::geometry::Pose;
use touchmove::vision::hands::HandDetector;
use touchmove::vision::rectify::Rectifier;

#[test]
fn hand_count_and_fingertip_square_on_rendered_scenes() {
    let (mut frames, mut count_right, mut tips, mut tips_right) = (0, 0, 0, 0);
    let mut confusion = std::collections::BTreeMap::new();
    for (k, &(_, staged)) in STAGED_NAMES.iter().enumerate().take(6) {
        let mut scene = staged_scene(staged, 20 + k as u64);
        scene.camera.width = 640;
        scene.camera.height = 360;
        let tl = timeline::run(&scene).unwrap();
        let cam = Camera::new(&scene.camera);
        let g = BoardGeometry { corners: cam.board_corners(), white: ImageSide::Bottom, h1_light: true };
        let rect = Rectifier::new(&g, 32, 0.75).unwrap();
        let mut renderer = Renderer::new(cam.clone(), &scene.style, scene.seed).unwrap();
        let pose = Pose::from_board(&g, scene.camera.width as f64, scene.camera.height as f64);
        let mut detector = HandDetector::with_pose(pose);
        for world in &tl.frames {
            let (img, _) = renderer.render(world).unwrap();
            let view = rect.warp(&img).unwrap();
            // Arms reaching over the playing area: what the tracker acts on.
            let hands: Vec<_> = detector.detect(&rect, &view).unwrap().into_iter().filter(|h| h.extremity_square.is_some() || !h.covers.is_empty()).collect();
            // Arms whose fingertips are over the playing area.
            let reach = 20.0;
            let truth: Vec<_> = world.hands.iter().filter(|h| h.tip[0].abs() < reach && h.tip[1].abs() < reach).collect();
            *confusion.entry((hands.len(), truth.len())).or_insert(0) += 1;
            frames += 1;
            if hands.len() == truth.len() {
                count_right += 1;
            }
            if let ([h], [t]) = (hands.as_slice(), truth.as_slice()) {
                tips += 1;
                if h.extremity_square == square_at(t.tip) {
                    tips_right += 1;
                }
            }
        }
    }
    println!("(found, truth) → frames: {confusion:?}");
    let count_rate = count_right as f64 / frames as f64;
    let tip_rate = tips_right as f64 / tips.max(1) as f64;
    println!("hand count right in {count_right}/{frames} frames ({:.1}%), fingertip square right in {tips_right}/{tips} ({:.1}%)", count_rate * 100.0, tip_rate * 100.0);
    // Measured here: about 87% and 62%. The misses: an arm still counted for a few frames as
    // it withdraws past the board's edge, and the far end of a hand's silhouette, which lies
    // past what the fingers hold, near a square's edge. The targets (99% and 95%) are not
    // met yet; these bounds guard against getting worse meanwhile.
    assert!(count_rate > 0.78, "{count_rate}");
    assert!(tip_rate > 0.5, "{tip_rate}");
}
