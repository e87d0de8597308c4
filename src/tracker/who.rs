//! Which hand changed a square: only one that came in before the square was last seen as it
//! was (or one of the player whose arm hid it since, seen again under a new id). A square
//! hidden for long, by an arm or by what vision took for one, may have changed at any time
//! while it was; the hand that came in meanwhile is not its author.

use super::colour_untold::{frame, last_board, open_game, seen, tracker, white_arm};
use super::testkit::{moved, without};
use super::*;
use crate::types::HandObs;

/// After 1. e4 e5, White's queen goes d1-f3 under something vision takes for an arm resting
/// on d2 (it hides d1, d2, e1 and e2; f3 is in doubt) while the arm that moved it is not seen;
/// Black's arm comes in and rests on `black_rests` while d1 is still hidden, and d1 and f3 are
/// seen as they now are only after the thing on d2 has gone.
fn queen_moved_while_hidden(black_rests: Square) -> (Board, Tracker, Vec<Event>) {
    use Square::*;
    let start = open_game();
    let after = moved(&start, &[(D1, F3)]);
    let ghost = HandObs { covers: vec![D1, D2, E1, E2], ..white_arm(D2) };
    let black = HandObs { id: 8, side: Some(Side::Black), ..white_arm(black_rests) };
    let mut t = tracker(&start);
    let mut events = t.observe(&frame(0, &start, &[], None));
    for n in 1..120 {
        let hands: Vec<HandObs> = match n {
            1..40 => vec![ghost.clone()],
            40..60 => vec![ghost.clone(), black.clone()],
            60..80 => vec![black.clone()],
            _ => vec![],
        };
        let hidden: &[Square] = if n < 62 { &[F3] } else { &[] };
        let mut o = seen(n, &after, &[], hidden, None);
        o.hands = hands;
        events.extend(t.observe(&o));
    }
    events.extend(t.finish());
    (after, t, events)
}

/// Black's hand came in long after d1 and f3 were last seen as they were: it neither took the
/// queen nor set her down, whether it rests far from them or next to f3 (rendered game 55:
/// White's Qxd3, its arm unseen, was credited to Black's hand resting next to d3).
#[test]
fn a_change_under_a_square_hidden_since_before_an_arm_came_in_is_not_that_arms() {
    for rests in [Square::C6, Square::G4] {
        let (after, t, events) = queen_moved_while_hidden(rests);
        assert_eq!(t.board(), after, "{rests}: {events:?}");
        assert!(!events.iter().any(|e| matches!(e.kind, EventKind::Lift { .. } | EventKind::Place { .. })), "{rests}: {events:?}");
        assert_eq!(last_board(&events), Some(Placement::from(&after).to_string()), "{rests}");
    }
}

/// White's Qd1xd3 and Black's c5xd4 as rendered game 55 showed them: White's arm is seen
/// lifting the bishop on d3, and leaves; the arm that brings the queen is not seen, while
/// something vision takes for an arm rests on d2 (hiding d1) and d3 is in doubt; Black's arm
/// comes in while d1 is still hidden, rests on c5 and then on d4, takes there, and moves on. The queen on
/// d3 is the piece seen gone from d1, not the white pawn Black's hand took from d4.
#[test]
fn a_piece_set_down_while_a_square_was_hidden_is_not_a_later_arms() {
    use Square::*;
    let start: Board = "4k3/8/8/2p5/3P4/3b4/8/3QK3".parse::<shakmaty::fen::Fen>().expect("a FEN").into_setup().board;
    let bishop_off = without(&start, &[D3]);
    let queen_took = moved(&bishop_off, &[(D1, D3)]);
    let pawn_took = moved(&queen_took, &[(C5, D4)]);
    let arm = |id: u32, side: Side, sq: Square, covers: &[Square]| HandObs { id, side: Some(side), covers: covers.to_vec(), ..white_arm(sq) };
    let mut t = tracker(&start);
    let mut events = t.observe(&frame(0, &start, &[], None));
    for n in 1..160 {
        let (board, hidden, hands): (&Board, &[Square], Vec<HandObs>) = match n {
            1..10 => (&start, &[], vec![arm(7, Side::White, D3, &[D3])]),
            10..20 => (&bishop_off, &[], vec![arm(7, Side::White, D2, &[D2])]),
            20..60 => (&queen_took, &[D3], vec![arm(9, Side::White, D2, &[D1, D2, E1])]),
            60..70 => (&queen_took, &[D3], vec![arm(9, Side::White, D2, &[D1, D2, E1]), arm(8, Side::Black, C5, &[C5, D4])]),
            70..80 => (&pawn_took, &[D3], vec![arm(9, Side::White, D2, &[D1, D2, E1]), arm(8, Side::Black, D4, &[D4, C5])]),
            80..95 => (&pawn_took, &[], vec![arm(8, Side::Black, D4, &[D4, C5, D3])]),
            95..110 => (&pawn_took, &[], vec![arm(8, Side::Black, D6, &[D6])]),
            _ => (&pawn_took, &[], vec![]),
        };
        let mut o = seen(n, board, &[], hidden, None);
        o.hands = hands;
        events.extend(t.observe(&o));
    }
    events.extend(t.finish());
    assert_eq!(t.board(), pawn_took, "{events:?}");
}

/// After 1. e4 e5, White's arm rests over g1 and f3 for two seconds while the knight goes
/// g1-f3 under it; vision then follows the same arm under a new id as it moves to f3 and
/// leaves. The knight's lift is that arm's: the square was hidden by White's arm throughout,
/// though the arm under its new id came in long after g1 was last seen.
#[test]
fn a_change_under_a_players_arm_seen_again_under_a_new_id_is_that_players() {
    use Square::*;
    let start = open_game();
    let after = moved(&start, &[(G1, F3)]);
    let arm = |id: u32, sq: Square, covers: &[Square]| HandObs { id, covers: covers.to_vec(), ..white_arm(sq) };
    let mut t = tracker(&start);
    let mut events = t.observe(&frame(0, &start, &[], None));
    for n in 1..90 {
        let (board, hands) = match n {
            1..20 => (&start, vec![arm(1, G1, &[G1, G2, F2, F3])]),
            20..40 => (&after, vec![arm(1, G1, &[G1, G2, F2, F3])]),
            40..50 => (&after, vec![arm(2, F3, &[F3])]),
            _ => (&after, vec![]),
        };
        let mut o = frame(n, board, &[], None);
        o.hands = hands;
        events.extend(t.observe(&o));
    }
    events.extend(t.finish());
    assert_eq!(t.board(), after, "{events:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Lift { square: G1, .. })), "{events:?}");
}

/// One person shows a game from White's side: the arm that made 1. e4 goes on to lift the e7
/// pawn under it and leaves still holding it, and the pawn shows on e5 only after. No hand of
/// Black's has come over the board, so the black pawn in that hand is the mover's own, set
/// down as the arm left, not a capture's victim carried off (`knightvision/sample_clip_3s.mp4`
/// halved: 1... e5 never told).
#[test]
fn a_piece_of_the_player_to_move_in_the_only_players_hand_is_set_down_not_carried_off() {
    use Square::*;
    let start = Board::default();
    let e4 = moved(&start, &[(E2, E4)]);
    let lifted = without(&e4, &[E7]);
    let e5 = moved(&e4, &[(E7, E5)]);
    let mut reel = super::testkit::Reel::new(&start);
    reel.run(10, &start, Some((E2, &[E2]))).run(10, &without(&start, &[E2]), Some((E4, &[E3, E4]))).run(10, &e4, Some((E4, &[E3]))).run(2, &e4, None);
    let reach: &[Square] = &[E3, E4, E5, E6, E7];
    reel.run(10, &e4, Some((E7, reach))).run(10, &lifted, Some((E5, &reach[..3]))).run(6, &lifted, None).run(30, &e5, None);
    let (board, events) = reel.finish();
    assert_eq!(board, e5, "{events:?}");
}
