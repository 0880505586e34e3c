//! Puzzles improved by small changes (`generate --improve`, issue 41): a proved
//! single-board puzzle is changed one man at a time (a man taken off, moved one king's
//! step to an empty square, or added on a flight the key takes) and examined afresh, every proof and theme asked
//! again; the first change whose puzzle scores higher is kept, and the climb goes on
//! from there. A change never costs soundness (each step is a puzzle proved as any
//! other), and the climb stops where no change raises the score, after `MOST_STEPS`
//! steps, or after `MOST_TRIED` diagrams examined for one candidate.
//!
//! The changes are tried in a fixed order (men by square from a1, removal first, then
//! the eight steps; the blocks last), so the result depends on the candidate alone, as every puzzle of a
//! run does.

use super::{men_of, score, Examined, Found, Stopped};
use crate::geometry::{Geometry, Standard};
use crate::types::{Color, Piece, Role, Square};

/// Changes kept for one candidate at most.
const MOST_STEPS: u32 = 4;

/// Diagrams examined for one candidate at most (the blocks come last: a crowded
/// diagram may spend them all on its removals and steps).
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
        let blocks = best.qualities.flights_taken.clone().unwrap_or_default();
        for changed in changes(&best.diagram, &blocks) {
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

/// The squares one king's step from `sq`, by name (a diagram's edit, whatever the game's
/// geometry), from a1 on.
fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    Standard.king_attacks(sq).into_iter()
}

/// The men a change adds on a flight the key takes, of the defender's colour: the block
/// a composer puts there so that the key takes nothing and is quiet.
const BLOCKS: [Role; 3] = [Role::Pawn, Role::Knight, Role::Bishop];

/// The diagrams one change away from `diagram` (its FEN fields and operations), in the
/// order the climb tries them: for each man but the kings (by square from a1) the man
/// taken off, then stepped to each empty square next to it; then each square of
/// `blocks` (the flights the key takes, written `e7`) given a pawn, a knight or a bishop
/// of the side not to move.
fn changes(diagram: &str, blocks: &[String]) -> Vec<String> {
    let Some((placement, rest)) = diagram.split_once(' ') else {
        return Vec::new();
    };
    let Ok(board) = crate::fen::parse_placement(placement, 0) else {
        return Vec::new();
    };
    let defender = if rest.starts_with('b') {
        Color::White
    } else {
        Color::Black
    };
    let write = |b: &crate::board::Board| format!("{} {rest}", crate::fen::write_placement(b));
    // No pawn on a first or last rank: no diagram, and no proof spent on it.
    let may_stand = |piece: Piece, to: Square| {
        !board.occupied().contains(to) && (piece.role != Role::Pawn || (1..7).contains(&to.rank()))
    };
    let mut out = Vec::new();
    for (sq, piece) in board.pieces() {
        if piece.role == Role::King {
            continue;
        }
        let mut without = board;
        without.remove(sq);
        out.push(write(&without));
        for to in neighbours(sq).filter(|&to| may_stand(piece, to)) {
            let mut moved = without;
            moved.put(to, piece);
            out.push(write(&moved));
        }
    }
    for to in blocks.iter().filter_map(|name| Square::parse(name)) {
        for role in BLOCKS {
            let piece = Piece {
                color: defender,
                role,
            };
            if may_stand(piece, to) {
                let mut added = board;
                added.put(to, piece);
                out.push(write(&added));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_man_is_taken_off_or_stepped_then_each_flight_taken_is_blocked() {
        let all = changes("7k/8/8/8/8/8/8/KR6 w - - trapdoor 1;", &[]);
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
        // The key takes g7 and g8 from Black's king: a Black pawn, knight and bishop on
        // each (no pawn on g8).
        let blocks = ["g7".to_string(), "g8".to_string()];
        let all = changes("7k/8/8/8/8/8/8/KR6 w - - trapdoor 1;", &blocks);
        assert_eq!(
            all[5..],
            [
                "7k/6p1/8/8/8/8/8/KR6 w - - trapdoor 1;",
                "7k/6n1/8/8/8/8/8/KR6 w - - trapdoor 1;",
                "7k/6b1/8/8/8/8/8/KR6 w - - trapdoor 1;",
                "6nk/8/8/8/8/8/8/KR6 w - - trapdoor 1;",
                "6bk/8/8/8/8/8/8/KR6 w - - trapdoor 1;",
            ]
        );
    }
}
