//! Positions reached by random legal play on the standard board, for the unit tests.

use crate::fen::parse_fen;
use crate::geometry::Standard;
use crate::movegen::legal_moves;
use crate::moves::MoveList;
use crate::position::Position;
use crate::test_rng::Rng;

/// Calls `visit` with every position (and its legal moves) of `games` random games of
/// at most `plies` moves from each start.
pub fn random_positions(
    seed: u64,
    starts: &[&str],
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Position, &MoveList),
) {
    let mut rng = Rng(seed);
    for start in starts {
        for _ in 0..games {
            let mut pos = parse_fen(start).unwrap();
            for _ in 0..plies {
                let moves = legal_moves(&Standard, &pos);
                if moves.is_empty() {
                    break;
                }
                visit(&pos, &moves);
                pos.play_board(&Standard, moves[rng.below(moves.len())]);
            }
        }
    }
}
