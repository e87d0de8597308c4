//! A touch is fingertips seen at rest on a piece for the dwell time. Frames in which vision
//! tells no fingertips (the arm lost into a sleeve passing across the view, held where it was)
//! break the rest: vision cannot say it went on, and a false 4.3 is worse than a miss.

use super::testkit::arm_frame;
use super::*;

/// White's arm over b2, its fingertips seen there in the frames `seen` says (true) and not
/// told in the others; the touches it made.
fn touches(seen: &[bool]) -> Vec<Square> {
    let start = Board::default();
    let mut tracker = Tracker::new(TrackerConfig { start: start.clone(), ..TrackerConfig::default() });
    let mut events = tracker.observe(&arm_frame(0, &start, None, 0));
    let covers = [Square::B2, Square::B1];
    for (n, &tip) in seen.iter().enumerate() {
        let mut o = arm_frame(n as u64 + 1, &start, Some((Square::B2, &covers)), 1);
        if !tip {
            for h in &mut o.hands {
                h.extremity_square = None;
                h.extremity_board = None;
            }
        }
        events.extend(tracker.observe(&o));
    }
    let end = seen.len() as u64 + 1;
    for n in end..end + 20 {
        events.extend(tracker.observe(&arm_frame(n, &start, None, 0)));
    }
    events.iter().filter_map(|e| if let EventKind::Touch { square, .. } = e.kind { Some(square) } else { None }).collect()
}

#[test]
fn fingertips_seen_at_rest_for_the_dwell_time_touch() {
    assert_eq!(touches(&[true; 10]), vec![Square::B2]);
}

/// 10 frames (a third of a second) from first to last, but never 0.2 s seen without a break.
#[test]
fn fingertips_lost_from_view_break_the_rest() {
    let seen = [true, true, true, false, false, false, false, true, true, true];
    assert_eq!(touches(&seen), Vec::<Square>::new());
}
