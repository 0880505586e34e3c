//! Puzzles improved by small changes (`generate --improve`, issue 41): a proved
//! single-board puzzle is changed one man at a time (a man taken off, moved one king's
//! step to an empty square, or a rook, bishop, knight or pawn of either colour added
//! within two steps of the king the stipulation mates) and examined afresh, every proof
//! and theme asked again; the first change whose puzzle scores higher is kept, and the
//! climb goes on from there. A change never costs soundness (each step is a puzzle
//! proved as any other), and the climb stops where no change raises the score, after
//! `MOST_STEPS` steps, or after `MOST_TRIED` diagrams examined for one candidate.
//!
//! The men the proof named superfluous are taken off first (each such change raises
//! the score unless it loses a theme); the other changes are tried in an order drawn
//! from the run's seed and the candidate's index, so the result depends on the
//! candidate alone, as every puzzle of a run does, and the tries are not all spent on
//! the men nearest a1.
//!
//! Climbing toward themes a candidate lacks (a climb from every sound candidate, kept
//! where it ends showing them) was measured and lost to filtering: `#2` with economy, a
//! quiet key, two variations and no duals came at 36 a minute that way against 82 by
//! drawing and filtering, since a climb costs a hundred proofs or more.

use super::candidate::Draw;
use super::{examine_single, men_of, score, Examined, Found, Spec, Stopped, MOST_SMALLER};
use crate::geometry::{Geometry, Standard};
use crate::problem::Aim;
use crate::search::tt::Table;
use crate::types::{Color, Piece, Role, Square};
use std::sync::atomic::AtomicBool;

/// Changes kept for one candidate at most.
const MOST_STEPS: u32 = 6;

/// Diagrams examined for one candidate at most. One change costs a proof, and a sound
/// one every quality besides (economy: a proof again without each man).
const MOST_TRIED: u32 = 120;

/// Kept apart from the candidate's own draw (which uses the seed and index too).
const CLIMB_SALT: u64 = 0x6A09_E667_F3BC_C908;

/// Candidate `index`'s diagram examined and, when it is a puzzle with every theme of
/// `spec`, improved.
pub(super) fn improved(
    spec: &Spec,
    index: u64,
    diagram: &str,
    table: &Table,
    stop: &AtomicBool,
) -> Result<Found, Stopped> {
    let mut smaller_left = MOST_SMALLER;
    let Some(found) = examine_single(spec, diagram, table, stop, &mut smaller_left)? else {
        return Ok(None);
    };
    let mated = if spec.stip.aim == Aim::Selfmate {
        Color::White
    } else {
        Color::Black
    };
    let mut draw = Draw::new(spec.seed ^ CLIMB_SALT, index);
    // Men are added only of the roles the run draws, and within its bound.
    let roles: Vec<Role> = ADDED
        .into_iter()
        .filter(|r| spec.pieces.contains(r))
        .collect();
    let best = climb(
        found,
        |diagram, superfluous| {
            let men = men_of(diagram);
            let added = if men < spec.men.1 { &roles[..] } else { &[] };
            let mut list = changes(diagram, superfluous, mated, added, &mut draw);
            // Within the men asked (`--men`): a man comes off only above the least.
            if men <= spec.men.0 {
                list.retain(|changed| men_of(changed) >= men);
            }
            list
        },
        |changed| {
            let mut none = 0;
            examine_single(spec, changed, table, stop, &mut none)
        },
    )?;
    Ok(Some(best))
}

/// The score of an examined puzzle (`generate::score` on its diagram).
fn score_of(found: &Examined) -> f64 {
    score(men_of(&found.diagram), &found.qualities, &found.themes)
}

/// The climb from `found`: the changes of each diagram listed by `changes` (given the
/// men the proof named superfluous), each examined by `examine`.
fn climb(
    found: Examined,
    mut changes: impl FnMut(&str, &[String]) -> Vec<String>,
    mut examine: impl FnMut(&str) -> Result<Found, Stopped>,
) -> Result<Examined, Stopped> {
    let mut best_score = score_of(&found);
    let mut best = found;
    let mut tried = 0;
    'steps: for _ in 0..MOST_STEPS {
        let superfluous = best.qualities.superfluous.clone().unwrap_or_default();
        for changed in changes(&best.diagram, &superfluous) {
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

/// The squares within two king's steps of `sq` but `sq` itself: where a man added
/// guards, blocks or defends around that king.
fn around(sq: Square) -> impl Iterator<Item = Square> {
    let (file, rank) = (sq.file() as i32, sq.rank() as i32);
    (-2..=2)
        .flat_map(move |df| (-2..=2).map(move |dr| (file + df, rank + dr)))
        .filter(move |&(f, r)| (f, r) != (file, rank) && (0..8).contains(&f) && (0..8).contains(&r))
        .map(|(f, r)| Square::from_coords(f as u8, r as u8))
}

/// The men a change adds, of either colour. No queen: of 145 additions kept in a `#2`
/// run with queens offered, 3 were queens, each a proof or more spent for nothing.
const ADDED: [Role; 4] = [Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// The diagrams one change away from `diagram` (its FEN fields and operations), in the
/// order the climb tries them: each man of `superfluous` (`Bg4`) taken off, then, in an
/// order drawn from `draw`, every other man but the kings taken off, each such man
/// stepped to each empty square next to it, and each empty square within two steps of
/// the `mated` side's king given a man of either colour of each role of `added`.
fn changes(
    diagram: &str,
    superfluous: &[String],
    mated: Color,
    added: &[Role],
    draw: &mut Draw,
) -> Vec<String> {
    let Some((placement, rest)) = diagram.split_once(' ') else {
        return Vec::new();
    };
    let Ok(board) = crate::fen::parse_placement(placement, 0) else {
        return Vec::new();
    };
    let write = |b: &crate::board::Board| format!("{} {rest}", crate::fen::write_placement(b));
    // No pawn on a first or last rank: no diagram, and no proof spent on it.
    let may_stand = |piece: Piece, to: Square| {
        !board.occupied().contains(to) && (piece.role != Role::Pawn || (1..7).contains(&to.rank()))
    };
    let first: Vec<Square> = superfluous
        .iter()
        .filter_map(|man| Square::parse(man.get(1..)?))
        .collect();
    let mut out: Vec<String> = first
        .iter()
        .filter_map(|&sq| {
            let mut without = board;
            without.remove(sq)?;
            Some(write(&without))
        })
        .collect();
    let mut rest_of: Vec<String> = Vec::new();
    for (sq, piece) in board.pieces() {
        if piece.role == Role::King {
            continue;
        }
        let mut without = board;
        without.remove(sq);
        if !first.contains(&sq) {
            rest_of.push(write(&without));
        }
        for to in neighbours(sq).filter(|&to| may_stand(piece, to)) {
            let mut moved = without;
            moved.put(to, piece);
            rest_of.push(write(&moved));
        }
    }
    if let Some(king) = board.king(mated) {
        for to in around(king) {
            for color in [Color::White, Color::Black] {
                for &role in added {
                    let piece = Piece { color, role };
                    if may_stand(piece, to) {
                        let mut added = board;
                        added.put(to, piece);
                        rest_of.push(write(&added));
                    }
                }
            }
        }
    }
    // Fisher–Yates from the candidate's draw.
    for i in (1..rest_of.len()).rev() {
        let j = (draw.next_u64() % (i as u64 + 1)) as usize;
        rest_of.swap(i, j);
    }
    out.extend(rest_of);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    #[test]
    fn superfluous_men_come_off_first_then_every_other_change_once() {
        let diagram = "7k/8/8/8/8/8/8/KR6 w - - trapdoor 1;";
        let mut draw = Draw::new(1, 2);
        let all = changes(
            diagram,
            &["Rb1".to_string()],
            Color::Black,
            &ADDED,
            &mut draw,
        );
        assert_eq!(all[0], "7k/8/8/8/8/8/8/K7 w - - trapdoor 1;");
        // The rook stepped to a2, b2, c2, c1; around h8 (g8, g7, h7, f8, f7, f6, g6,
        // h6: 8 squares) a rook, bishop and knight of either colour, and a pawn of
        // either colour on the six squares off the last rank.
        assert_eq!(all.len(), 1 + 4 + 8 * 6 + 6 * 2);
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
        assert!(all.contains(&"7k/6p1/8/8/8/8/8/KR6 w - - trapdoor 1;".to_string()));
        assert!(all.contains(&"6Nk/8/8/8/8/8/8/KR6 w - - trapdoor 1;".to_string()));
        assert!(!all
            .iter()
            .any(|d| d.starts_with("6Pk/") || d.starts_with("6pk/")));
        // The same candidate draws the same order; another candidate another one.
        let again = changes(
            diagram,
            &["Rb1".to_string()],
            Color::Black,
            &ADDED,
            &mut Draw::new(1, 2),
        );
        assert_eq!(again, all);
        let other = changes(
            diagram,
            &["Rb1".to_string()],
            Color::Black,
            &ADDED,
            &mut Draw::new(1, 3),
        );
        assert_ne!(other, all);
        assert_eq!(sorted(other), sorted(all));
    }

    #[test]
    fn men_are_added_around_the_king_the_stipulation_mates() {
        // s#N: White's king on a1 is the one mated; squares within two steps: 8, six
        // of them off the first rank for a pawn.
        let all = changes(
            "7k/8/8/8/8/8/8/K7 w - -",
            &[],
            Color::White,
            &ADDED,
            &mut Draw::new(1, 1),
        );
        assert_eq!(all.len(), 8 * 6 + 6 * 2);
        assert!(all.iter().all(|d| d.starts_with("7k/")));
        // Only the roles a run draws (`--pieces N`), none where it has no room.
        let knights = |added: &[Role]| {
            changes(
                "7k/8/8/8/8/8/8/K7 w - -",
                &[],
                Color::White,
                added,
                &mut Draw::new(1, 1),
            )
        };
        assert_eq!(knights(&[Role::Knight]).len(), 8 * 2);
        assert!(knights(&[Role::Knight])
            .iter()
            .all(|d| d.contains('N') || d.contains('n')));
        assert!(knights(&[]).is_empty());
    }
}
