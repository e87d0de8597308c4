//! Ideal observations: what a perfect vision stage would report for each frame of a scene —
//! each square's colour (its piece type too), hidden where an arm covers it; each hand's
//! outline, fingertip square and covered squares; the clock's buttons. They let the tracker be
//! tested on its own, before any pixel is read.

use shakmaty::Square;

use super::camera::{Camera, HALF_BOARD_CM, SQUARE_CM, square_at, square_centre};
use super::render::arms;
use super::timeline::{Timeline, resting_on};
use crate::types::{ClockObs, HandObs, Observation, SquareObs, SquareState};

pub fn ideal(tl: &Timeline, cam: &Camera) -> Vec<Observation> {
    tl.frames
        .iter()
        .enumerate()
        .map(|(i, world)| {
            let hands: Vec<HandObs> = world
                .hands
                .iter()
                .map(|h| {
                    let polygon = arms::outline(cam, &arms::shape(h));
                    let covers: Vec<Square> = Square::ALL
                        .into_iter()
                        .filter(|&sq| {
                            let c = square_centre(sq);
                            arms::inside(&polygon, cam.project(c)) || arms::inside(&polygon, cam.project([c[0], c[1], 4.0]))
                        })
                        .collect();
                    let over = h.tip[0].abs() < HALF_BOARD_CM && h.tip[1].abs() < HALF_BOARD_CM;
                    let [u, v] = cam.project(h.tip);
                    HandObs {
                        id: h.id,
                        side: Some(h.side.into()),
                        polygon: polygon.iter().map(|p| [p[0] as f32, p[1] as f32]).collect(),
                        extremity: [u as f32, v as f32],
                        extremity_square: if over && !h.clock_only { square_at(h.tip) } else { None },
                        covers: if h.clock_only { Vec::new() } else { covers },
                        extremity_board: Some([(h.tip[0] / SQUARE_CM + 4.0) as f32, (h.tip[1] / SQUARE_CM + 4.0) as f32]),
                        extremity_lean: None,
                    }
                })
                .collect();
            let squares = Square::ALL
                .into_iter()
                .map(|sq| {
                    if hands.iter().any(|h| h.covers.contains(&sq)) {
                        return SquareObs::OCCLUDED;
                    }
                    match resting_on(world, sq) {
                        None => SquareObs { state: SquareState::Empty, confidence: 1.0, role: None },
                        Some(p) => SquareObs {
                            state: SquareState::of(Some(p)),
                            confidence: 1.0,
                            role: Some(p.role),
                        },
                    }
                })
                .collect();
            Observation {
                frame: i as u64,
                t: i as f64 / tl.fps,
                squares,
                hands,
                clock: Some(ClockObs { pressed: [world.buttons[0] > 0.5, world.buttons[1] > 0.5] }),
                board_lost: false,
            }
        })
        .collect()
}

/// The operator's inputs of a scene ("j'adoube" heard), which reach the tracker's stream from
/// the operator, not from vision: handed out as time passes.
pub fn operator_inputs(tl: &Timeline) -> crate::types::DueEvents {
    crate::types::DueEvents::new(tl.events.iter().filter(|e| matches!(e.kind, crate::types::EventKind::AdjustAnnounced { .. })).cloned())
}
