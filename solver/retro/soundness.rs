//! The soundness checks of rules.md 6.3 that a placement passes or fails on its own,
//! without its history: checks on the side not to move, pawns on impossible ranks,
//! material beyond the original sets, pawn captures against the opponent's losses,
//! castling and en passant rights. Each failure is reported by name.

use super::game::RetroGame;
use super::retraction::RetroPosition;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::Terrain;
use crate::setup::{validate_en_passant, SetupError};
use crate::types::{Color, Role, Square};
use thiserror::Error;

/// Why a diagram cannot arise in a game. Messages are full sentences for the CLI.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Illegality {
    #[error("{side} is in check but it is not its turn")]
    OppositeCheck { side: &'static str },
    #[error("{side} pawn on {square}, a rank no pawn can stand on")]
    PawnOnEdgeRank { side: &'static str, square: Square },
    #[error("{side} has {count} pawns (at most 8)")]
    TooManyPawns { side: &'static str, count: u32 },
    #[error("{side} has {count} men (at most 16)")]
    TooManyMen { side: &'static str, count: u32 },
    #[error(
        "{side} has more men than its original set by {promoted} (bishops counted {bishops}), but pawns missing to promote: {missing}"
    )]
    TooManyPromoted {
        side: &'static str,
        /// How bishops were counted: "by square colour", or "together" where a bishop
        /// can change colour.
        bishops: &'static str,
        promoted: u32,
        missing: u32,
    },
    #[error(
        "{side}'s pawns stand on files that need captures: at least {needed}; but men {opponent} has lost: {lost}"
    )]
    PawnCaptures {
        side: &'static str,
        opponent: &'static str,
        needed: u32,
        lost: u32,
    },
    #[error("castling right {right}: {reason}")]
    CastlingRight { right: String, reason: String },
    #[error("en passant {square}: {reason}")]
    EnPassant { square: Square, reason: String },
    #[error("{side} is in check from {checkers}, which no last move can have given")]
    ImpossibleCheck {
        side: &'static str,
        checkers: String,
    },
    #[error("{side} holds {cash}, less than the income of {income} it received before this turn")]
    CashBelowIncome {
        side: &'static str,
        cash: u32,
        income: u32,
    },
    #[error("{side}'s cash {cash} is reached by no history of {depth} retraction(s)")]
    UnreachableCash {
        side: &'static str,
        cash: u32,
        depth: u32,
    },
    #[error("no sequence of {depth} retraction(s) leads back to a sound position")]
    NoLastMove { depth: u32 },
}

/// Checks of the placement alone (material, pawns), for both sides. Cheap enough to run
/// on every earlier position a retraction produces.
pub fn material<T: Terrain>(game: &RetroGame<T>, board: &Board) -> Option<Illegality> {
    // Counts first, for both sides: the later checks subtract them from 16 and 8.
    for color in Color::ALL {
        let men = board.by_color(color).count();
        let pawns = board.by_piece(color, Role::Pawn).count();
        if let Some(fault) = too_many(color, men, pawns) {
            return Some(fault);
        }
    }
    for color in Color::ALL {
        let pawns = board.by_piece(color, Role::Pawn);
        let count = |role| board.by_piece(color, role).count();
        let bishops = board.by_piece(color, Role::Bishop);
        let light = bishops.filter(|sq| sq.is_light()).count() as u32;
        // A bishop crossing the seam of an Earthquake board changes colour.
        let by_colour = (!game.displaced).then_some((light, bishops.count() - light));
        let promoted = beyond_set(count, by_colour);
        if let Some(fault) = too_many_promoted(color, promoted, pawns.count(), by_colour) {
            return Some(fault);
        }
        let needed = game.pawn_captures(color, pawns);
        let lost = 16 - board.by_color(!color).count();
        if needed > lost {
            return Some(Illegality::PawnCaptures {
                side: color.name(),
                opponent: (!color).name(),
                needed,
                lost,
            });
        }
    }
    None
}

/// The count checks of rules.md 6.3 over men wherever they stand, `count(colour, role)`
/// of them (both boards of a two-board game and its reserve, rules.md 4 and 5): at most
/// 16 men and 8 pawns a side, and no more men beyond the original set than missing pawns
/// can have become. Bishops are counted together: a man can change board, and a dropped
/// one square colour.
pub fn counts(count: impl Fn(Color, Role) -> u32) -> Option<Illegality> {
    for color in Color::ALL {
        let men = Role::ALL.iter().map(|&role| count(color, role)).sum();
        if let Some(fault) = too_many(color, men, count(color, Role::Pawn)) {
            return Some(fault);
        }
    }
    Color::ALL.into_iter().find_map(|color| {
        let promoted = beyond_set(|role| count(color, role), None);
        too_many_promoted(color, promoted, count(color, Role::Pawn), None)
    })
}

/// More than 16 men or 8 pawns of `color`.
fn too_many(color: Color, men: u32, pawns: u32) -> Option<Illegality> {
    let side = color.name();
    if men > 16 {
        Some(Illegality::TooManyMen { side, count: men })
    } else if pawns > 8 {
        Some(Illegality::TooManyPawns { side, count: pawns })
    } else {
        None
    }
}

/// More men of `color` beyond the original set (`promoted`) than its missing pawns can
/// have become.
fn too_many_promoted(
    color: Color,
    promoted: u32,
    pawns: u32,
    bishops_by_colour: Option<(u32, u32)>,
) -> Option<Illegality> {
    let missing = 8 - pawns;
    (promoted > missing).then(|| Illegality::TooManyPromoted {
        side: color.name(),
        bishops: if bishops_by_colour.is_some() {
            "by square colour"
        } else {
            "together"
        },
        promoted,
        missing,
    })
}

/// Men of one colour beyond the original set, from its counts by role, each of which a
/// pawn must have become: queens beyond one, rooks and knights beyond two, bishops beyond
/// one per square colour when `bishops_by_colour` gives them (light, dark), else beyond
/// two.
fn beyond_set(count: impl Fn(Role) -> u32, bishops_by_colour: Option<(u32, u32)>) -> u32 {
    let bishops = match bishops_by_colour {
        Some((light, dark)) => light.saturating_sub(1) + dark.saturating_sub(1),
        None => count(Role::Bishop).saturating_sub(2),
    };
    count(Role::Queen).saturating_sub(1)
        + count(Role::Rook).saturating_sub(2)
        + count(Role::Knight).saturating_sub(2)
        + bishops
}

/// The fewest captures the pawns on `pawns` need to have made: each pawn started on its
/// own file a..h and each capture moves it one file, so this is the cheapest matching
/// of pawns to distinct starting files (a small assignment solved over file subsets).
pub fn pawn_file_captures(pawns: Bitboard) -> u32 {
    let files: Vec<i32> = pawns.map(|sq| sq.file() as i32).collect();
    if files.len() > 8 {
        return u32::MAX;
    }
    // Pawns on distinct files can each have started on its own file: no capture. (The
    // common case, and the history search asks at every node.)
    let used = files.iter().fold(0u32, |m, &f| m | 1 << f);
    if used.count_ones() as usize == files.len() {
        return 0;
    }
    cheapest_assignment(files.len(), |pawn, start| {
        (files[pawn] - start as i32).unsigned_abs()
    })
}

/// The cheapest way to give `n` pawns (at most 8) distinct starting files, `cost(pawn,
/// file)` each: a small assignment solved over file subsets.
pub fn cheapest_assignment(n: usize, cost: impl Fn(usize, usize) -> u32) -> u32 {
    if n > 8 {
        return u32::MAX;
    }
    // best[mask]: cheapest assignment of the first popcount(mask) pawns to the files in
    // `mask`.
    let mut best = [u32::MAX; 256];
    best[0] = 0;
    for mask in 0usize..256 {
        let placed = mask.count_ones() as usize;
        if best[mask] == u32::MAX || placed >= n {
            continue;
        }
        for start in 0..8 {
            if mask & 1 << start == 0 {
                let total = best[mask] + cost(placed, start);
                let next = &mut best[mask | 1 << start];
                *next = (*next).min(total);
            }
        }
    }
    (0usize..256)
        .filter(|m| m.count_ones() as usize == n)
        .map(|m| best[m])
        .min()
        .unwrap_or(0)
}

/// Every check of rules.md 6.3 a diagram fails by its placement and rights alone (the
/// ones that need its history are `history`'s): all of them, not only the first.
pub fn static_checks<T: Terrain>(game: &RetroGame<T>, pos: &RetroPosition) -> Vec<Illegality> {
    let mut found = Vec::new();
    let board = &pos.board;
    let them = !pos.turn;
    if game.checkers(pos, them, Bitboard::EMPTY).is_nonempty() {
        found.push(Illegality::OppositeCheck { side: them.name() });
    }
    for color in Color::ALL {
        for square in board.by_piece(color, Role::Pawn) {
            if !game.pawn_may_stand(color, square) {
                found.push(Illegality::PawnOnEdgeRank {
                    side: color.name(),
                    square,
                });
            }
        }
    }
    if !found
        .iter()
        .any(|f| matches!(f, Illegality::PawnOnEdgeRank { .. }))
    {
        found.extend(material(game, board));
    }
    if let Some(taxi) = &game.taxi {
        let cash = pos.cash[pos.turn.index()] as u32;
        if cash < taxi.income {
            found.push(Illegality::CashBelowIncome {
                side: pos.turn.name(),
                cash,
                income: taxi.income,
            });
        }
    }
    for rook in pos.castling {
        let color = if rook.rank() == 0 {
            Color::White
        } else {
            Color::Black
        };
        let right = crate::fen::write_castling(board, Bitboard::from_square(rook));
        let home = Square::from_coords(4, rook.rank());
        if board.king(color) != Some(home) {
            found.push(Illegality::CastlingRight {
                right,
                reason: format!("the {} king is not on {home}", color.name()),
            });
        } else if rook.file() != 0 && rook.file() != 7 {
            found.push(Illegality::CastlingRight {
                right,
                reason: format!("{rook} is not a rook's home square"),
            });
        }
    }
    if let (Some(square), Err(SetupError::BadEnPassant { reason, .. })) = (
        pos.ep,
        validate_en_passant(game.geo(pos.dx), board, pos.turn, pos.ep),
    ) {
        found.push(Illegality::EnPassant { square, reason });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// The fewest captures by trying every way of giving the pawns distinct starting
    /// files (the definition, without the subset table or the distinct-files shortcut).
    fn captures_by_trial(files: &[i32], used: u32) -> u32 {
        let Some((&f, rest)) = files.split_first() else {
            return 0;
        };
        (0..8)
            .filter(|s| used & 1 << s == 0)
            .map(|s| (f - s).unsigned_abs() + captures_by_trial(rest, used | 1 << s))
            .min()
            .unwrap_or(u32::MAX)
    }

    /// `pawn_file_captures`, its shortcut for pawns on distinct files included, against
    /// the definition over random sets of 0 to 8 pawns anywhere on the board.
    #[test]
    fn pawn_file_captures_is_the_cheapest_assignment() {
        let mut rng = Rng(0x9a3b_51c7_0e42_d8f1);
        let mut distinct = 0;
        for _ in 0..5000 {
            let count = rng.below(9);
            let mut pawns = Bitboard::EMPTY;
            while (pawns.count() as usize) < count {
                pawns = pawns.with(Square::new(rng.below(64) as u8));
            }
            let files: Vec<i32> = pawns.map(|sq| sq.file() as i32).collect();
            let used = files.iter().fold(0u32, |m, &f| m | 1 << f);
            distinct += (used.count_ones() as usize == files.len()) as u32;
            assert_eq!(
                pawn_file_captures(pawns),
                captures_by_trial(&files, 0),
                "{files:?}"
            );
        }
        assert!(distinct > 500, "too few sets on distinct files: {distinct}");
    }
}
