//! The bound of Looking-Glass help play (`TurnGame::help_hopeless`, rules.md 5 and 8.2):
//! a state from which the winner cannot capture the other king within the turns left
//! is skipped.
//!
//! The win is the capture of the king (rule 5.3): with its last move a man of the
//! winner's lands on the square where the loser's king stands. A man moves by FIDE
//! rules on its own board and then may pass to the same square of the other board
//! (rule 5.2), so on either board it stands where a FIDE man of its kind would after
//! as many moves: counted on an empty board (captures wherever a pawn wants one,
//! promotion to any piece, `search::mate_bound`), each real count is at least the
//! relaxed one, and the king's walk at least its king steps. A state is hopeless when
//! no square is both within the loser's king's walk in the loser's moves left and
//! within some man's reach in the winner's. Castling moves a king or rook further in
//! one move: while either side keeps a castling right nothing is bounded.
//!
//! `tests/glass.rs` checks help play with the bound against every line played out on
//! random positions of both boards.

use super::GState;
use crate::geometry::{Geometry, Standard};
use crate::search::mate_bound::{forms, moves_left_of, standard_tables, FAR};
use crate::types::{Color, Square};

/// Whether `winner` surely cannot capture the other king with the last of `turns`
/// turns (one move each, taken alternately from the side to move) from `s`.
pub fn capture_out_of_reach(s: &GState, winner: Color, turns: u32) -> bool {
    if s.ended.is_some() || s.boards.iter().any(|b| b.castling().is_nonempty()) {
        return false;
    }
    let Some((king, _)) = s.king(!winner) else {
        return false;
    };
    let (win_left, lose_left) = moves_left_of(s.turn, winner, turns);
    let t = standard_tables();
    // The squares the loser's king may stand on at the capture.
    let walk = Standard.rides_within(king, lose_left);
    for b in &s.boards {
        for (from, piece) in b.board().pieces() {
            if piece.color != winner {
                continue;
            }
            let reaches = |to: Square| {
                forms(piece.role).iter().any(|&form| {
                    let d = t.distance(winner, piece.role, from, form, to);
                    d != FAR && u32::from(d) <= win_left
                })
            };
            if walk.into_iter().any(reaches) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(line: &str) -> GState {
        super::super::read_line(line).expect("a valid line").state
    }

    /// A rook a knight's move from the black king takes it in two moves of its own
    /// (three turns from White's), never in one; a rook on the king's file takes it
    /// at once, on the Mirror board too.
    #[test]
    fn a_king_out_of_every_reach_is_not_taken() {
        let far = state("8/8/8/3k4/8/2R5/8/K7 w - - mirror \"8/8/8/8/8/8/8/8\";");
        assert!(capture_out_of_reach(&far, Color::White, 1));
        assert!(!capture_out_of_reach(&far, Color::White, 3));
        let near = state("8/8/8/8/8/8/8/K7 w - - mirror \"8/8/8/3k4/8/8/8/3R4\";");
        assert!(!capture_out_of_reach(&near, Color::White, 1));
    }
}
