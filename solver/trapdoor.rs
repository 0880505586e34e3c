//! Trapdoor board (rules.md 1): arrival timers, the countdown at the end of each own
//! move, and falls. The order of events (mate first or falls first) is applied by
//! `game`, which owns the full sequence of a move; here are its parts.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Square};
use crate::zobrist::MAX_TIMER;

/// Order of events after a move (rules.md 1.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum FallOrder {
    /// Mate is judged before anything falls (default).
    #[default]
    MateFirst,
    /// Falls happen first; mate, stalemate and legality are judged after them.
    FallsFirst,
}

impl FallOrder {
    pub fn name(self) -> &'static str {
        match self {
            FallOrder::MateFirst => "mate-first",
            FallOrder::FallsFirst => "falls-first",
        }
    }

    pub fn parse(s: &str) -> Option<FallOrder> {
        match s {
            "mate-first" => Some(FallOrder::MateFirst),
            "falls-first" => Some(FallOrder::FallsFirst),
            _ => None,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Trapdoor {
    /// T: own moves a piece may stay on the square it arrived on.
    pub timer: u8,
    pub order: FallOrder,
}

impl Trapdoor {
    pub const MAX_TIMER: u8 = MAX_TIMER as u8;

    /// Starts a fresh timer on every square a piece arrived on (rule 1.1).
    #[inline]
    pub fn arrive(&self, pos: &mut Position, arrivals: Bitboard) {
        for sq in arrivals {
            pos.set_timer(sq, Some(self.timer));
        }
    }

    /// Pieces of `mover` that fall at the end of its move: ticking with one move left
    /// and not among `arrivals` (rule 1.2).
    #[inline]
    pub fn expiring(pos: &Position, mover: Color, arrivals: Bitboard) -> Bitboard {
        (pos.timers().on_last_move() & pos.board().by_color(mover)) - arrivals
    }

    /// Whether the countdown changes anything for `mover` (some timer other than the
    /// arrivals' would tick).
    #[inline]
    pub fn counts_down(pos: &Position, mover: Color, arrivals: Bitboard) -> bool {
        ((pos.timers().ticking() & pos.board().by_color(mover)) - arrivals).is_nonempty()
    }

    /// The countdown at the end of a move of `mover` (rule 1.2): every ticking piece of
    /// `mover` that did not arrive loses one; those at zero fall. Returns the squares of
    /// the fallen pieces.
    pub fn count_down(pos: &mut Position, mover: Color, arrivals: Bitboard) -> Bitboard {
        let own = (pos.timers().ticking() & pos.board().by_color(mover)) - arrivals;
        let fallen = own & pos.timers().on_last_move();
        for sq in fallen {
            pos.remove_piece(sq);
        }
        for sq in own - fallen {
            let left = pos.timers().left(sq);
            pos.set_timer(sq, Some(left - 1));
        }
        fallen
    }
}

/// Notation of a fall: the square capturing itself, `(e4:e4)` (rule 1.7).
pub fn fall_notation(sq: Square) -> String {
    format!("({sq}:{sq})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;

    /// The pieces that fall are those with one move left, whatever the other timers
    /// (every r from 1 to the largest), of the mover only, arrivals excepted (rules.md
    /// 1.2).
    #[test]
    fn expiring_means_one_move_left() {
        let mut pos =
            parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let squares: Vec<Square> = pos.board().occupied().into_iter().collect();
        for (i, &sq) in squares.iter().enumerate() {
            pos.set_timer(sq, Some((i % (MAX_TIMER + 1)) as u8));
        }
        for mover in Color::ALL {
            for arrivals in [Bitboard::EMPTY, Bitboard::rank(1) | Bitboard::rank(6)] {
                let want = squares
                    .iter()
                    .filter(|&&sq| pos.board().color_at(sq) == Some(mover))
                    .filter(|&&sq| pos.timers().get(sq) == Some(1) && !arrivals.contains(sq))
                    .fold(Bitboard::EMPTY, |b, &sq| b.with(sq));
                assert!(want.is_nonempty());
                assert_eq!(Trapdoor::expiring(&pos, mover, arrivals), want);
            }
        }
    }
}
