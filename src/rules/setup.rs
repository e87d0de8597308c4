//! 7.2.1, 7.2.2, 7.3 — the set-up, judged from the first board seen before any move: the initial
//! position, the board's orientation (a light square at each player's right: h1 and a8), and
//! colours against the pairing. Nobody is the offender of a wrong set-up, so these violations
//! carry no `side`.

use shakmaty::{Bitboard, CastlingMode, Chess, Color, Position, Setup, Square};

use super::{Breach, Rules};
use crate::types::{Article, Cell, ImageSide, Placement};

fn edge(side: ImageSide) -> &'static str {
    match side {
        ImageSide::Bottom => "bottom",
        ImageSide::Top => "top",
        ImageSide::Left => "left",
        ImageSide::Right => "right",
    }
}

/// The position a fully seen board shows, White to move, castling where king and rook stand
/// at home: what the game follows after a wrong initial position is reported.
fn position_from(placement: &Placement) -> Option<Chess> {
    let mut board = shakmaty::Board::empty();
    for sq in Square::ALL {
        match placement.cell(sq) {
            Cell::Unknown => return None,
            Cell::Empty => {}
            Cell::Piece(p) => board.set_piece_at(sq, p),
        }
    }
    let corners = Bitboard::from(Square::A1) | Bitboard::from(Square::H1) | Bitboard::from(Square::A8) | Bitboard::from(Square::H8);
    let mut setup = Setup::empty();
    setup.castling_rights = corners & board.rooks();
    setup.board = board;
    setup.turn = Color::White;
    setup.position::<Chess>(CastlingMode::Standard).or_else(|e| e.ignore_invalid_castling_rights()).ok()
}

impl Rules {
    pub(super) fn check_setup(&mut self, placement: &Placement, h1_light: Option<bool>, white: Option<ImageSide>) {
        if h1_light == Some(false) {
            let detail = "the board is placed wrongly (h1 is a dark square): the position is transferred to a correctly placed board and play continues".to_owned();
            self.violation(None, Breach { article: Article::A7_2_2, detail, confidence: 0.9 });
        }
        if let (Some(seat), Some(seen)) = (self.white_sits, white) {
            if seat != seen {
                let detail = format!(
                    "colours reversed: the white pieces stand at the {} edge, but the player with White by the pairing sits at the {}; with fewer than 10 moves each the game is restarted with the right colours",
                    edge(seen),
                    edge(seat)
                );
                self.violation(None, Breach { article: Article::A7_3, detail, confidence: 0.9 });
            }
        }
        let wrong = placement.differences(self.start.board());
        if wrong.is_empty() {
            return;
        }
        let squares: Vec<String> = wrong.iter().map(|s| s.to_string()).collect();
        let detail = format!("the initial position is wrong on {}: the game is cancelled and replayed", squares.join(", "));
        self.violation(None, Breach { article: Article::A7_2_1, detail, confidence: 0.9 });
        match position_from(placement) {
            Some(pos) => {
                self.phys.reset(pos.board());
                self.start = pos.clone();
                self.pos = pos;
                self.state("following the position as it was set up".into());
            }
            None => self.state("the position as set up cannot be followed: still expecting the initial position".into()),
        }
    }
}

#[cfg(test)]
mod art_7_2_1 {
    use crate::rules::testkit::*;

    #[test]
    fn art_7_2_1_wrong_initial_position_is_reported_and_then_followed() {
        // King and queen swapped.
        let d = Script::new().board("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR", true).mv("e2e4").run();
        assert_eq!(violations(&d), [("7.2.1", None)]);
        assert!(detail_of(&d, "7.2.1").contains("d1"));
        assert_eq!(sans(&d), ["e4"]);
    }

    #[test]
    fn art_7_2_1_right_initial_position_is_silent() {
        let d = Script::new().board(START, true).mv("e2e4").run();
        assert!(violations(&d).is_empty());
    }

    #[test]
    fn art_7_2_1_unseen_squares_do_not_count_as_wrong() {
        let d = Script::new().board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB??", true).run();
        assert!(violations(&d).is_empty());
    }
}

#[cfg(test)]
mod art_7_2_2 {
    use crate::rules::testkit::*;

    #[test]
    fn art_7_2_2_dark_h1_is_a_wrongly_placed_board() {
        let d = Script::new().board(START, false).mv("e2e4").run();
        assert_eq!(violations(&d), [("7.2.2", None)]);
        assert_eq!(sans(&d), ["e4"], "play continues");
    }

    #[test]
    fn art_7_2_2_light_h1_is_right() {
        assert!(violations(&Script::new().board(START, true).run()).is_empty());
    }
}

#[cfg(test)]
mod art_7_3 {
    use crate::rules::testkit::*;
    use crate::types::ImageSide;

    #[test]
    fn art_7_3_colours_reversed_against_the_pairing() {
        let d = Script::new().white_sits(ImageSide::Bottom).board_facing(START, ImageSide::Top).run();
        assert_eq!(violations(&d), [("7.3", None)]);
    }

    #[test]
    fn art_7_3_colours_as_paired_or_pairing_unknown_are_silent() {
        let d = Script::new().white_sits(ImageSide::Left).board_facing(START, ImageSide::Left).run();
        assert!(violations(&d).is_empty());
        let d = Script::new().board_facing(START, ImageSide::Top).run();
        assert!(violations(&d).is_empty());
    }
}
