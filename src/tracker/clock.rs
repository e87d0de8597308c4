//! The clock's presses, told in their place: after the move they end. A move made wholly
//! under an arm is known only once its squares are read again as the arm withdraws, and the
//! board is told then; the hand that made it is often at the clock by that time. Told as it
//! is seen, the press would reach the rules before the move and read as a clock pressed
//! without a move (7.5.3). So a press waits while the board has changes not yet told, for at
//! most [`CLOCK_WAIT_SECS`], and whatever came after it waits with it. An arm of the player
//! pressing still seen over the board has in truth gone (the Laws have the clock pressed with
//! the hand that moved), vision holding it a while: the press waits for it to go too, and the
//! time allowed for the board to be told counts from then.

use super::*;

/// The longest a press waits for the board to be told, seconds: longer than the tracker looks
/// for a piece seen gone ([`UNFOUND_SECS`]) before telling the board without it. Not much
/// longer: while a press waits, so does every event after it, the next move's too.
pub(super) const CLOCK_WAIT_SECS: f64 = UNFOUND_SECS + 0.5;

/// The longest a press waits for an arm of its player to be gone from the board, seconds
/// (rendered game 300: White's arm held over the board two seconds after castling, the press
/// was told before the castling, a 7.5.3).
pub(super) const ARM_WAIT_SECS: f64 = 6.0;

impl Tracker {
    /// Notes this frame's presses (a button going down) and tells those no longer waiting.
    pub(super) fn clock(&mut self, obs: &Observation, now: (u64, f64), arm_hid: bool) {
        let pressed = obs.clock.map_or([false; 2], |c| c.pressed);
        for (i, side) in [(0, Side::White), (1, Side::Black)] {
            if pressed[i] && !self.clock_was[i] {
                self.presses.push(((now, now.1), side));
            }
        }
        self.clock_was = pressed;
        // A player's own piece gone in a hand a moment ago is about to be seen set down.
        let in_hand = self.loose.iter().any(|l| l.own && l.at >= obs.t - LOOSE_SECS);
        let untold = self.unheard || arm_hid || in_hand || !self.unattended.is_empty() || !self.settled();
        // An arm of the player pressing, still seen over the board, starts the wait afresh.
        let waiting: Vec<bool> = self.presses.iter().map(|&((made, _), side)| self.arm_waited_for(side, made.1, now.1)).collect();
        for (((_, since), _), wait) in self.presses.iter_mut().zip(waiting) {
            if wait {
                *since = now.1;
            }
        }
        self.tell_presses(now, untold);
    }

    /// Whether a press `side` made at `made` still waits for an arm of that player seen over
    /// the board (for [`ARM_WAIT_SECS`] at most).
    fn arm_waited_for(&self, side: Side, made: f64, now: f64) -> bool {
        self.hands.values().any(|t| t.side == side) && now - made < ARM_WAIT_SECS
    }

    /// Tells the presses waiting, those at least [`CLOCK_WAIT_SECS`] old unless nothing is
    /// `untold` any more, all of them at the end of the stream.
    pub(super) fn tell_presses(&mut self, now: (u64, f64), untold: bool) {
        while let Some(&((at, since), side)) = self.presses.first() {
            if self.arm_waited_for(side, at.1, now.1) || (untold && now.1 - since < CLOCK_WAIT_SECS) {
                break;
            }
            self.presses.remove(0);
            // Never before what was told while it waited (the board, dated when it was told);
            // but before the other player's arm that came in since, and all it did: their move
            // follows the press (rendered game 225 with the clock in view: White's press, held
            // for an arm of White's vision kept over the board, then for the squares Black's
            // arm hid, was told after 6... Nc6, a false 7.5.3).
            let theirs = self.pending.iter().filter(|(_, e)| e.t >= at.1 && matches!(e.kind, EventKind::HandEnter { side: s, .. } if s != side)).map(|(_, e)| e.t).fold(f64::INFINITY, f64::min);
            let latest = self.pending.iter().map(|(_, e)| e.t).filter(|&t| t < theirs).fold(at.1, f64::max);
            let when = if latest > at.1 { (now.0.min(at.0 + ((latest - at.1) * self.fps_hint).round() as u64), latest) } else { at };
            self.emit(when, EventKind::Clock { side });
        }
    }

    /// The time of the earliest press still waiting: nothing later is told before it.
    pub(super) fn clock_mark(&self) -> f64 {
        self.presses.first().map_or(f64::INFINITY, |((at, _), _)| at.1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{Reel, arm_frame, moved, without};
    use super::*;
    use crate::types::ClockObs;

    /// A reel whose frames show White's button held down for `frames` frames, with White's
    /// arm as given.
    fn pressing(reel: &mut Reel, frames: u64, board: &Board, arm: super::super::testkit::Arm) {
        for _ in 0..frames {
            let n = reel.next_frame();
            let mut o = arm_frame(n, board, arm, reel.arm_id);
            o.clock = Some(ClockObs { pressed: [true, false] });
            reel.feed(o);
        }
    }

    fn kinds(events: &[Event]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Clock { side } => Some(format!("clock {side:?}")),
                EventKind::Board { .. } => Some("board".into()),
                EventKind::Lift { square, .. } => Some(format!("lift {square}")),
                EventKind::Place { square, .. } => Some(format!("place {square}")),
                _ => None,
            })
            .collect()
    }

    /// The stream ends on `after`, and White's press is told after the move that made it.
    fn press_told_after_the_move(board: Board, after: &Board, events: &[Event]) {
        assert_eq!(&board, after);
        let order = kinds(events);
        let clock = order.iter().position(|k| k == "clock White").expect("the press is told");
        let told = order.iter().rposition(|k| k == "board" || k.starts_with("place")).expect("the move is told");
        assert!(told < clock, "{order:?}");
    }

    /// 1. e4 made wholly under the arm: e2 and e4 are read again only as the arm withdraws,
    /// and the press comes before they have been read for sure. The board is told first.
    #[test]
    fn a_press_waits_for_the_move_made_under_the_arm() {
        use Square::*;
        let start = Board::default();
        let after = moved(&start, &[(E2, E4)]);
        let mut reel = Reel::new(&start);
        reel.run(15, &start, Some((E3, &[E2, E3, E4, D2, D3, F2, F3])));
        // The arm gone, e2 and e4 unread for a moment (the arm's shadow), then the press.
        reel.run_seen(1, &after, None, |o| {
            o.squares[usize::from(E2)] = crate::types::SquareObs::OCCLUDED;
            o.squares[usize::from(E4)] = crate::types::SquareObs::OCCLUDED;
        });
        pressing(&mut reel, 4, &after, None);
        reel.run(30, &after, None);
        let (board, events) = reel.finish();
        press_told_after_the_move(board, &after, &events);
        assert!(events.windows(2).all(|w| w[0].t <= w[1].t), "time never goes back: {events:?}");
    }

    /// Nf3 made under the arm; as it withdraws, f3 reads white one frame in three and fits no
    /// look in between (the knight just set down), and White presses at once. The square stays
    /// the arm's: its change counts as one the arm uncovered, and the move is told before the
    /// press, which waits no more than two seconds (rendered 20-ply game 145: counted as a
    /// change no hand was near, it needed thirty readings, and the press was a false 7.5.3).
    #[test]
    fn a_square_flickering_as_the_arm_uncovers_it_is_told_before_the_press() {
        use Square::*;
        let start = Board::default();
        let after = moved(&start, &[(G1, F3)]);
        let mut reel = Reel::new(&start);
        reel.run(15, &start, Some((F2, &[F1, G1, E2, F2, G2, F3, G3])));
        // The arm withdraws in view, f3 already uncovered.
        reel.run(2, &after, Some((G1, &[F1, G1])));
        let flicker = |o: &mut Observation| {
            if o.frame % 3 != 0 {
                o.squares[usize::from(F3)] = crate::types::SquareObs::OCCLUDED;
            }
        };
        reel.run_seen(3, &after, None, flicker);
        for _ in 0..4 {
            let n = reel.next_frame();
            let mut o = arm_frame(n, &after, None, reel.arm_id);
            flicker(&mut o);
            o.clock = Some(ClockObs { pressed: [true, false] });
            reel.feed(o);
        }
        reel.run_seen(120, &after, None, flicker).run(30, &after, None);
        let (board, events) = reel.finish();
        press_told_after_the_move(board, &after, &events);
    }

    /// The arm reaching to e3 is lost by vision while it is still there, over e1; e1's rook,
    /// read through it, is empty one frame in three and no look in between, and then the rook
    /// again. The arm did not leave in view: e1 is no square it uncovered, and what it shows
    /// counts only as a change no hand was near, which this is not (rendered game 300: the rook
    /// taken as lifted at once later came back as a knight, a false 7.6).
    #[test]
    fn a_square_flickering_where_the_arm_was_lost_over_it_stays_as_it_was() {
        use Square::*;
        // A rook on e1 and a knight on f3, a knight's move apart: a rook gone from e1 could
        // come back as that knight.
        let start = moved(&Board::default(), &[(G1, F3), (E1, G1), (H1, E1)]);
        let mut reel = Reel::new(&start);
        reel.run(15, &start, Some((E3, &[D1, E1, F1, E2, F2, E3, F3])));
        let f3_unread = |o: &mut Observation| o.squares[usize::from(F3)] = crate::types::SquareObs::OCCLUDED;
        reel.run_seen(15, &start, None, |o| {
            let state = if o.frame % 3 == 0 { SquareState::Empty } else { SquareState::Occluded };
            o.squares[usize::from(E1)] = crate::tracker::testkit::square_obs(state);
            f3_unread(o);
        });
        reel.run_seen(10, &start, None, f3_unread);
        reel.run(60, &start, None);
        let (board, events) = reel.finish();
        assert_eq!(board, start);
        let acts: Vec<String> = kinds(&events).into_iter().filter(|k| k.starts_with("lift") || k.starts_with("place")).collect();
        assert!(acts.is_empty(), "{acts:?}");
    }

    /// Vision holds White's arm over the board three seconds after the press (it had gone to
    /// the clock): the press waits for it, and for the move it hid.
    #[test]
    fn a_press_waits_for_its_players_arm_still_seen_over_the_board() {
        use Square::*;
        let start = Board::default();
        let after = moved(&start, &[(E2, E4)]);
        let arm: &[Square] = &[E2, E3, E4, D2, D3, F2, F3];
        let mut reel = Reel::new(&start);
        reel.run(15, &start, Some((E3, arm)));
        pressing(&mut reel, 90, &after, Some((E3, arm)));
        reel.run(30, &after, None);
        let (board, events) = reel.finish();
        press_told_after_the_move(board, &after, &events);
    }

    /// As above, but Black's arm comes in as vision lets White's go, and plays 1... e5 under
    /// the wait: the press is told before Black's arm, whose move follows it (rendered game
    /// 225 with the clock in view: 6... Nc6 told before White's press, a false 7.5.3).
    #[test]
    fn a_press_waiting_is_told_before_the_other_players_arm() {
        use Square::*;
        let start = Board::default();
        let after = moved(&start, &[(E2, E4)]);
        let replied = moved(&after, &[(E7, E5)]);
        let arm: &[Square] = &[E2, E3, D2, D3, F2, F3];
        let mut reel = Reel::new(&start);
        reel.run(15, &start, Some((E3, arm)));
        pressing(&mut reel, 45, &after, Some((E3, arm)));
        // Black's arm, over e6 and hiding the squares about it, lifts e7 and sets it on e5.
        let black = |reel: &mut Reel, frames: u64, board: &Board, tip: Square| {
            for _ in 0..frames {
                let n = reel.next_frame();
                let mut o = arm_frame(n, board, Some((tip, &[D6, E6, F6, D7, F7])), 9);
                o.hands[0].side = Some(Side::Black);
                reel.feed(o);
            }
        };
        black(&mut reel, 15, &after, E7);
        black(&mut reel, 15, &without(&after, &[E7]), E6);
        black(&mut reel, 15, &replied, E5);
        reel.run(30, &replied, None);
        let (board, events) = reel.finish();
        assert_eq!(board, replied);
        let clock = events.iter().position(|e| matches!(e.kind, EventKind::Clock { side: Side::White })).expect("the press is told");
        let black_in = events.iter().position(|e| matches!(e.kind, EventKind::HandEnter { side: Side::Black, .. })).expect("Black's arm");
        assert!(clock < black_in, "{events:?}");
        let white_moved = events.iter().position(|e| matches!(e.kind, EventKind::Place { square: E4, .. })).expect("1. e4");
        assert!(white_moved < clock, "{events:?}");
    }

    /// A press with nothing changed on the board is told at once, when it happens: that is
    /// the clock pressed without a move.
    #[test]
    fn a_press_with_the_board_unchanged_is_told_at_once() {
        let start = Board::default();
        let mut reel = Reel::new(&start);
        reel.run(10, &start, None);
        let before = reel.events.len();
        pressing(&mut reel, 1, &start, None);
        let told: Vec<&Event> = reel.events[before..].iter().filter(|e| matches!(e.kind, EventKind::Clock { .. })).collect();
        assert_eq!(told.len(), 1, "{:?}", reel.events);
        assert_eq!(told[0].frame, Some(11));
    }

    /// A board that never settles (a square misread on and off) holds a press back no longer
    /// than [`CLOCK_WAIT_SECS`].
    #[test]
    fn a_press_waits_no_longer_than_its_limit() {
        use Square::*;
        let start = Board::default();
        let mut reel = Reel::new(&start);
        reel.run(10, &start, None);
        pressing(&mut reel, 1, &start, None);
        let flicker = without(&start, &[A7]);
        for k in 0..120 {
            reel.run(1, if k % 2 == 0 { &flicker } else { &start }, None);
        }
        let (_, events) = reel.finish();
        let clock = events.iter().find(|e| matches!(e.kind, EventKind::Clock { .. })).expect("told in the end");
        assert!(clock.t - 11.0 / 30.0 <= CLOCK_WAIT_SECS + 0.05, "{clock:?}");
    }
}
