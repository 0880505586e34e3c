//! Perft in the peers' libraries (cozy-chess, shakmaty), written the way their own perft
//! examples count, for the side-by-side benches. Leaf moves are observed (black_box) so
//! that making them cannot be optimised away.

use shakmaty::{CastlingMode, Chess, Position as _};
use std::hint::black_box;

pub fn cozy_perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if bulk && depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                // The leaf move is really made: its result is observed.
                nodes += cozy_perft(black_box(&child), depth - 1, bulk);
            }
            false
        });
    }
    nodes
}

pub fn shakmaty_perft(pos: &Chess, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if bulk && depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            shakmaty_perft(black_box(&child), depth - 1, bulk)
        })
        .sum()
}

/// One position read by each library: fairysolve, cozy-chess, shakmaty.
pub fn boards(fen: &str) -> (fairysolve::Position, cozy_chess::Board, Chess) {
    let ours = fairysolve::fen::parse_fen(fen).unwrap();
    let cozy = fen.parse().unwrap();
    let shak = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    (ours, cozy, shak)
}
