//! A capture's victim, carried off in the taker's hand: it left the board, and a piece of colour
//! untold seen where it stood is the taker, not the victim set back.

use super::colour_untold::{frame, last_board, seen, tracker, white_arm};
use super::testkit::{moved, without};
use super::*;
use crate::types::HandObs;

/// 1. d4 e6 2. c4 d5 3. cxd5, then 3... exd5 by Black's arm as rendered game 325 showed it: the
/// arm lifts the white pawn on d5 and sets the e6 pawn there, both squares hidden, and the queen
/// on d8, which could take on d5 as well, hidden too; d5 shows Black's pawn as the arm rises
/// off it, so which piece took waits until e6 and d8 show, by when the arm has gone and d5 reads
/// as a piece of colour untold for good. e6 stays unread until frame `e6_shows` (20 a second).
fn pawn_takes_back_on_d5(e6_shows: u64) -> (Board, Tracker, Vec<Event>) {
    use Square::*;
    let start = moved(&Board::default(), &[(D2, D4), (E7, E6), (C2, C4), (D7, D5), (C4, D5)]);
    let victim_off = without(&start, &[D5]);
    let after = moved(&start, &[(E6, D5)]);
    let black = |sq: Square, covers: &[Square]| HandObs { id: 8, side: Some(Side::Black), covers: covers.to_vec(), ..white_arm(sq) };
    // Black to move, as replay's tracker would be told: with White expected, the white pawn
    // lifted here would pass for the move of one person showing the game (no White hand seen).
    let mut t = Tracker::new(TrackerConfig { start: start.clone(), to_move: Color::Black, ..TrackerConfig::default() });
    let mut events = t.observe(&frame(0, &start, &[], None));
    for n in 1..120 {
        let o = match n {
            1..10 => seen(n, &start, &[], &[E6], Some(black(E6, &[E6, E7]))),
            10..20 => seen(n, &start, &[], &[D5, E6, D8], Some(black(D5, &[D5, E6, D7, E7, D8]))),
            20..30 => seen(n, &victim_off, &[], &[D5, E6, D8], Some(black(D5, &[D5, E6, D7, E7, D8]))),
            30..40 => seen(n, &after, &[], &[D5, E6, D8], Some(black(D5, &[D5, E6, D7, E7, D8]))),
            40..42 => seen(n, &after, &[], &[E6, D8], Some(black(D7, &[D7, E7, D8]))),
            42..46 => seen(n, &after, &[], &[E6, D8], None),
            46.. if n < e6_shows => seen(n, &after, &[D5], &[E6], None),
            _ => frame(n, &after, &[D5], None),
        };
        events.extend(t.observe(&o));
    }
    events.extend(t.finish());
    (after, t, events)
}

/// e6 seen empty a moment after d5 reads untold (as in game 325), or only a second later (as
/// 375's d2 did, the knight that took on e4): either way d5 holds the taker.
#[test]
fn a_piece_of_colour_untold_where_a_pawn_took_is_the_taker_not_the_victim_set_back() {
    for e6_shows in [49, 70] {
        let (after, t, events) = pawn_takes_back_on_d5(e6_shows);
        assert_eq!(t.board(), after, "{e6_shows}: {events:?}");
        assert_eq!(last_board(&events), Some(Placement::from(&after).to_string()), "{e6_shows}: {events:?}");
    }
}

/// 1. c4 d5 2. cxd5 by White's arm, which carries Black's pawn off; a moment after it left, c4,
/// which the taker left, reads as a piece of colour untold for good (a misread, as rendered game
/// 220's d1 did after Qxf3): the pawn carried off is not set down there.
#[test]
fn a_victim_carried_off_is_not_set_down_where_it_never_stood() {
    use Square::*;
    let start = moved(&Board::default(), &[(C2, C4), (D7, D5)]);
    let victim_off = without(&start, &[D5]);
    let both_off = without(&victim_off, &[C4]);
    let after = moved(&start, &[(C4, D5)]);
    let arm = |sq: Square| HandObs { covers: vec![sq], ..white_arm(sq) };
    let mut t = tracker(&start);
    let mut events = t.observe(&frame(0, &start, &[], None));
    for n in 1..100 {
        let o = match n {
            1..10 => seen(n, &start, &[], &[D5], Some(arm(D5))),
            10..20 => seen(n, &victim_off, &[], &[C4], Some(arm(C4))),
            20..30 => seen(n, &both_off, &[], &[D5], Some(arm(D5))),
            30..40 => seen(n, &after, &[], &[D5], Some(arm(D5))),
            40..55 => frame(n, &after, &[], None),
            _ => frame(n, &after, &[C4], None),
        };
        events.extend(t.observe(&o));
    }
    events.extend(t.finish());
    assert_eq!(t.board(), after, "{events:?}");
    assert_eq!(last_board(&events), Some(Placement::from(&after).to_string()), "{events:?}");
}
