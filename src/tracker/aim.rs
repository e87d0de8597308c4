//! Whether fingertips seen on a piece are clear of its square's edge at the piece's own height.
//! Vision puts them at one height above the board ([`EXTREMITY_HEIGHT`]), not knowing what they
//! hold; under a camera looking down at a slant, fingers on a king's head, higher, are seen
//! further along the slant than where they are (rendered game 245: the fingers on the queen on
//! d1, seen clear inside e1, were at the king's height on e1's edge with d1; a false 4.3.1). The
//! tracker takes a touch only clear of a square's edge, so of the two points, at vision's height
//! and at the height of the piece it believes on that square, the one nearer the edge is kept.
//! The point is never moved to another square: the belief about squares under the hand is the
//! least sure there is (rendered game 385: fingertips setting a pawn down on d6, moved to d7 at
//! the height of the pawn still believed there, left the place to no hand and the queen was
//! taken to have gone there).

use shakmaty::{Role, Square};

use crate::types::{EXTREMITY_HEIGHT, HandObs};

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

/// The fingertips' point on the board to judge a touch by: of vision's (at
/// [`EXTREMITY_HEIGHT`]) and the same at the height of the piece standing on vision's square
/// (`standing` gives each square's), the one nearer that square's edge, a point beyond it put on
/// it. None where vision gave no slant or that square holds no piece: then vision's.
pub(super) fn aim(h: &HandObs, standing: impl Fn(Square) -> Option<Role>) -> Option<[f32; 2]> {
    let (Some(b), Some(lean), Some(seen)) = (h.extremity_board, h.extremity_lean, h.extremity_square) else { return None };
    let z = grip_height(standing(seen)?);
    let corner = [u32::from(seen.file()) as f32, u32::from(seen.rank()) as f32];
    // Kept within the square, just inside its far edges, so that it still names the square.
    let within = |c: f32, lo: f32| c.clamp(lo, lo + 1.0 - 1e-3);
    let p = [within(b[0] + lean[0] * (z - EXTREMITY_HEIGHT), corner[0]), within(b[1] + lean[1] * (z - EXTREMITY_HEIGHT), corner[1])];
    let inset = |p: [f32; 2]| (0..2).map(|k| (p[k] - corner[k]).min(corner[k] + 1.0 - p[k])).fold(f32::INFINITY, f32::min);
    (inset(p) < inset(b)).then_some(p)
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
                h.extremity_square = Some(Square::from_coords(shakmaty::File::new(board[0] as u32), shakmaty::Rank::new(board[1] as u32)));
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

    /// Seen clear inside f1, the bishop's square, at vision's height; at the bishop's height on
    /// f1's edge with e1: no touch (the camera leans toward the a-file, three squares for each
    /// square higher).
    #[test]
    fn fingertips_on_a_pieces_edge_at_its_height_touch_nothing() {
        assert_eq!(touches([5.3, 0.5], Some([-3.0, 0.0])), Vec::<Square>::new());
    }

    /// At the bishop's height beyond f1 altogether: no touch either.
    #[test]
    fn fingertips_off_the_piece_at_its_height_touch_nothing() {
        assert_eq!(touches([5.3, 0.5], Some([-5.0, 0.0])), Vec::<Square>::new());
    }

    /// The same fingertips with the camera looking straight down: over the bishop.
    #[test]
    fn fingertips_under_a_camera_looking_straight_down_stay_where_seen() {
        assert_eq!(touches([5.5, 0.5], Some([0.0, 0.0])), vec![Square::F1]);
        assert_eq!(touches([5.5, 0.5], None), vec![Square::F1]);
        // A slant that leaves them clear inside at the bishop's height.
        assert_eq!(touches([5.5, 0.5], Some([1.0, 0.0])), vec![Square::F1]);
    }

    /// Seen at the edge of f1, and further inside it at the bishop's height: left at the edge,
    /// where a touch is not taken (rendered game 225: a phantom arm's tip on c8's edge).
    #[test]
    fn fingertips_on_the_edge_of_the_square_they_are_over_stay_there() {
        assert_eq!(touches([5.1, 0.5], Some([2.0, 0.0])), Vec::<Square>::new());
    }

    /// Over an empty square: no touch, wherever the camera leans.
    #[test]
    fn fingertips_over_no_piece_at_its_height_touch_nothing() {
        assert_eq!(touches([4.5, 3.5], Some([0.0, 1.0])), Vec::<Square>::new());
    }
}
