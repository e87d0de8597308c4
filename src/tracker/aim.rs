//! Where the fingertips are, given the pieces. Vision puts them at one height above the board
//! ([`EXTREMITY_HEIGHT`]), not knowing what they hold; under a camera looking down at a slant,
//! fingers grasping a king's head are seen well beyond the king's square, and on a pawn's head
//! short of it (rendered game 245: the fingers on the queen on d1 read on e1, a false 4.3.1;
//! castling kings grasped on e1 read on f1). The tracker knows the pieces: fingertips carrying
//! one hold it at its head, and fingertips over the board are at the head of a piece that
//! stands where they would then be.

use shakmaty::{Role, Square};

use super::Tracker;
use crate::types::{EXTREMITY_HEIGHT, HandObs, Observation};

/// How high fingers hold each piece, in squares: near its head, a little under its top (a
/// Staunton set stands, in its squares' side: king 1.9, queen 1.7, bishop 1.35, knight 1.2,
/// rook 1.05, pawn 1.0).
fn grip_height(role: Role) -> f32 {
    match role {
        Role::Pawn => 0.85,
        Role::Rook => 0.95,
        Role::Knight => 1.05,
        Role::Bishop => 1.2,
        Role::Queen => 1.45,
        Role::King => 1.65,
    }
}

fn square_at(p: [f32; 2]) -> Option<Square> {
    let inside = |c: f32| (0.0..8.0).contains(&c);
    (inside(p[0]) && inside(p[1])).then(|| Square::from_coords(shakmaty::File::new(p[0] as u32), shakmaty::Rank::new(p[1] as u32)))
}

/// Where a hand's fingertips are, given the role of the piece standing on each square
/// (`standing`) and of the one the hand carries (`held`): put at the height of the piece carried,
/// or else of a piece standing where they would then be over it (of several, the one they would
/// be nearest the centre of). None where vision gave no slant or no such piece is found: then
/// they are where vision put them. Where that is the square vision saw them over, the point of
/// the two nearer its edge: a height guessed is no surer than vision's, and a point put further
/// inside the square would pass the tracker's guard against fingertips seen on a square's edge
/// (rendered game 225: a phantom arm's tip on c8's edge, moved inside it at a bishop's height,
/// touched the bishop; game 245: the fingers on the queen on d1 seen on e1, at a king's height
/// on e1's edge with d1).
pub fn aim(h: &HandObs, standing: impl Fn(Square) -> Option<Role>, held: Option<Role>) -> Option<(Square, [f32; 2])> {
    let (Some(b), Some(lean), Some(seen)) = (h.extremity_board, h.extremity_lean, h.extremity_square) else { return None };
    let at = |z: f32| [b[0] + lean[0] * (z - EXTREMITY_HEIGHT), b[1] + lean[1] * (z - EXTREMITY_HEIGHT)];
    if let Some(role) = held {
        let p = at(grip_height(role));
        return square_at(p).map(|sq| (sq, p));
    }
    let (sq, p, _) = Role::ALL
        .into_iter()
        .filter_map(|role| {
            let p = at(grip_height(role));
            let sq = square_at(p)?;
            let off = (p[0].fract() - 0.5).hypot(p[1].fract() - 0.5);
            (standing(sq) == Some(role)).then_some((sq, p, off))
        })
        .min_by(|a, b| a.2.total_cmp(&b.2))?;
    if sq != seen {
        return Some((sq, p));
    }
    // The same square: whichever of the two points lies nearer its edge, so that the tracker's
    // guard against fingertips seen on a square's edge holds for both.
    let inset = |p: [f32; 2]| p.iter().map(|c| c.fract().min(1.0 - c.fract())).fold(f32::INFINITY, f32::min);
    Some((sq, if inset(p) < inset(b) { p } else { b }))
}

impl Tracker {
    /// The frame with each hand's fingertips aimed (see [`aim`]) at the pieces the tracker
    /// believes stand on the board and the last one each hand lifted and still holds.
    pub(super) fn aimed(&self, obs: &Observation) -> Observation {
        let mut out = obs.clone();
        for h in &mut out.hands {
            let held = self.hands.get(&h.id).and_then(|t| t.held.last()).map(|held| held.piece.role);
            if let Some((square, board)) = aim(h, |sq| self.belief[usize::from(sq)].map(|p| p.role), held) {
                h.extremity_square = Some(square);
                h.extremity_board = Some(board);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Board, Square};

    use super::super::testkit::arm_frame;
    use super::super::{Tracker, TrackerConfig};
    use crate::types::EventKind;

    /// White's fingertips at rest for half a second where vision places them (at `board`, with
    /// `lean` squares for each square higher), over the opening position: the touches made.
    fn touches(board: [f32; 2], lean: Option<[f32; 2]>) -> Vec<Square> {
        let start = Board::default();
        let mut tracker = Tracker::new(TrackerConfig { start: start.clone(), ..TrackerConfig::default() });
        let mut events = tracker.observe(&arm_frame(0, &start, None, 0));
        for n in 1..16 {
            let mut o = arm_frame(n, &start, Some((Square::E1, &[Square::E1, Square::D1])), 1);
            for h in &mut o.hands {
                h.extremity_square = super::square_at(board);
                h.extremity_board = Some(board);
                h.extremity_lean = lean;
            }
            events.extend(tracker.observe(&o));
        }
        for n in 16..36 {
            events.extend(tracker.observe(&arm_frame(n, &start, None, 0)));
        }
        events.iter().filter_map(|e| if let EventKind::Touch { square, .. } = e.kind { Some(square) } else { None }).collect()
    }

    /// Seen at vision's height on f1 by its edge with e1, the fingertips would be well inside
    /// e1 at the height of a king's head, and over no other piece at its own height: the camera
    /// leans toward the a-file, a square and a half for each square higher.
    #[test]
    fn fingertips_on_a_kings_head_are_over_the_king() {
        assert_eq!(touches([5.1, 0.5], Some([-1.5, 0.0])), vec![Square::E1]);
        assert_eq!(touches([5.1, 0.5], None), Vec::<Square>::new());
    }

    /// The same fingertips with the camera looking straight down: over the bishop.
    #[test]
    fn fingertips_under_a_camera_looking_straight_down_stay_where_seen() {
        assert_eq!(touches([5.5, 0.5], Some([0.0, 0.0])), vec![Square::F1]);
        assert_eq!(touches([5.5, 0.5], None), vec![Square::F1]);
    }

    /// Seen at the edge of f1, over the bishop at its height but no other piece at its own: left
    /// at the edge, where a touch is not taken (rendered game 225).
    #[test]
    fn fingertips_on_the_edge_of_the_square_they_are_over_stay_there() {
        assert_eq!(touches([5.1, 0.5], Some([2.0, 0.0])), Vec::<Square>::new());
    }

    /// Over an empty square at vision's height and over no piece at any piece's height: no
    /// touch, wherever the camera leans.
    #[test]
    fn fingertips_over_no_piece_at_its_height_touch_nothing() {
        assert_eq!(touches([4.5, 3.5], Some([0.0, 1.0])), Vec::<Square>::new());
    }
}
