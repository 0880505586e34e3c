//! Looking-Glass moves in writing: coordinates with the board (`R:e2e4`, promotion
//! `R:e7e8q`, castling as the king taking its rook `R:e1h1`), and the composer's
//! notation: SAN on the man's board with the pass marked (`R:Nf3>M`: the knight went on
//! to the Mirror).

use super::{GMove, GState, Glass, Side};
use crate::game::Game;
use crate::generic::End;
use crate::moves::MoveKind;

pub fn coord(m: GMove) -> String {
    format!("{}:{}", m.side.letter(), m.mv.coord(true))
}

/// `m` as composers write it: SAN on its board, `>R`/`>M` for each man that passed to
/// that board, and `#` when it captures the king.
pub fn notation(game: &Glass, s: &GState, m: GMove) -> String {
    let pos = s.board(m.side);
    let (next, passed) = game.play_reporting(s, m);
    let there = Side::letter(m.side.other());
    // SAN on the man's own board; castling is O-O / O-O-O whatever the files.
    let mut text = match m.mv.kind {
        MoveKind::Castle => {
            let long = m.mv.to.file() < m.mv.from.file();
            format!("{}:{}", m.side.letter(), if long { "O-O-O" } else { "O-O" })
        }
        _ => format!(
            "{}:{}",
            m.side.letter(),
            crate::san::san_plain(&Game::fide(), pos, m.mv)
        ),
    };
    for (sq, went) in passed.into_iter().flatten() {
        if went {
            if m.mv.kind == MoveKind::Castle {
                text.push_str(&format!(" {sq}>{there}"));
            } else {
                text.push_str(&format!(">{there}"));
            }
        }
    }
    if next.ended == Some(End::Win(s.turn)) {
        text.push('#');
    }
    text
}

/// Reads a move of the side to move: its coordinates (`R:e2e4`, or `e2e4` when only one
/// board has it) or its notation (`R:Nf3`, `Nf3`), the pass mark and `#` optional.
pub fn parse(game: &Glass, s: &GState, text: &str) -> Result<GMove, String> {
    use crate::generic::TurnGame;
    let t = text.trim_end_matches(['#', '+']);
    let found: Vec<GMove> = game
        .moves(s)
        .into_iter()
        .filter(|&m| {
            let c = coord(m);
            let n = notation(game, s, m);
            // The notation without the pass mark, with or without its board.
            let n = n.trim_end_matches('#');
            let n = n
                .split('>')
                .next()
                .unwrap_or(n)
                .split(' ')
                .next()
                .unwrap_or(n);
            c == t || c.split(':').nth(1) == Some(t) || n == t || n.split(':').nth(1) == Some(t)
        })
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        _ => {
            let legal: Vec<String> = game.moves(s).iter().map(|&m| coord(m)).collect();
            Err(format!(
                "{} (legal: {})",
                if found.is_empty() {
                    "not a legal move here"
                } else {
                    "fits more than one move; give the board, R: or M:"
                },
                legal.join(" ")
            ))
        }
    }
}
