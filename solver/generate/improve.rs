//! Puzzles improved by small changes (`generate --improve`, issue 41): a proved
//! single-board puzzle is changed one man at a time (a man taken off, or moved one
//! king's step to an empty square) and examined afresh, every proof and theme asked
//! again; the first change whose puzzle scores higher is kept, and the climb goes on
//! from there. A change never costs soundness (each step is a puzzle proved as any
//! other), and the climb stops where no change raises the score, after `MOST_STEPS`
//! steps, or after `MOST_TRIED` diagrams examined for one candidate.
//!
//! The changes are tried in a fixed order (men by square from a1, removal first, then
//! the eight steps), so the result depends on the candidate alone, as every puzzle of a
//! run does.

use super::{men_of, score, Examined, Found, Stopped};
use crate::types::{Role, Square};

/// Changes kept for one candidate at most.
const MOST_STEPS: u32 = 4;

/// Diagrams examined for one candidate at most.
const MOST_TRIED: u32 = 160;

/// The score of an examined puzzle (`generate::score` on its diagram).
fn score_of(found: &Examined) -> f64 {
    score(men_of(&found.diagram), &found.qualities, &found.themes)
}

/// The climb from `found`, each changed diagram examined by `examine`.
pub(super) fn climb(
    found: Examined,
    mut examine: impl FnMut(&str) -> Result<Found, Stopped>,
) -> Result<Examined, Stopped> {
    let mut best = found;
    let mut best_score = score_of(&best);
    let mut tried = 0;
    'steps: for _ in 0..MOST_STEPS {
        for changed in changes(&best.diagram) {
            if tried == MOST_TRIED {
                break 'steps;
            }
            tried += 1;
            if let Some(better) = examine(&changed)? {
                let s = score_of(&better);
                if s > best_score {
                    best = better;
                    best_score = s;
                    continue 'steps;
                }
            }
        }
        break;
    }
    Ok(best)
}

/// The diagrams one change away from `diagram` (its FEN fields and operations), in the
/// order the climb tries them.
fn changes(diagram: &str) -> Vec<String> {
    let Some((placement, rest)) = diagram.split_once(' ') else {
        return Vec::new();
    };
    let Ok(board) = crate::fen::parse_placement(placement, 0) else {
        return Vec::new();
    };
    let write = |b: &crate::board::Board| format!("{} {rest}", crate::fen::write_placement(b));
    let mut out = Vec::new();
    for (sq, piece) in board.pieces() {
        if piece.role == Role::King {
            continue;
        }
        let mut without = board;
        without.remove(sq);
        out.push(write(&without));
        for (df, dr) in [
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ] {
            let (f, r) = (sq.file() as i32 + df, sq.rank() as i32 + dr);
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                continue;
            }
            let to = Square::from_coords(f as u8, r as u8);
            // No pawn on a first or last rank: no diagram, and no proof spent on it.
            if board.occupied().contains(to) || (piece.role == Role::Pawn && (r == 0 || r == 7)) {
                continue;
            }
            let mut moved = without;
            moved.put(to, piece);
            out.push(write(&moved));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_man_but_the_kings_is_taken_off_or_stepped_to_an_empty_square() {
        let all = changes("7k/8/8/8/8/8/8/KR6 w - - trapdoor 1;");
        assert_eq!(
            all,
            [
                "7k/8/8/8/8/8/8/K7 w - - trapdoor 1;",
                "7k/8/8/8/8/8/8/K1R5 w - - trapdoor 1;",
                "7k/8/8/8/8/8/R7/K7 w - - trapdoor 1;",
                "7k/8/8/8/8/8/1R6/K7 w - - trapdoor 1;",
                "7k/8/8/8/8/8/2R5/K7 w - - trapdoor 1;",
            ]
        );
    }
}
