//! The bound of Underworld help play (`TurnGame::help_hopeless`, rules.md 4 and 8.2):
//! states from which the winner cannot mate within the turns left are skipped, and the
//! last World move of a help-mate is found among the mating moves alone.
//!
//! A mate on the World needs the loser's king in check there after a winner's turn
//! (rule 4.8a). Moves on the Underworld change nothing on the World except by a return
//! (rules 4d and 4e), so a mate is made by men of the winner that are on the World now,
//! unless the winner returns a man first. Hence, with each side's moves on each board
//! counted from the turns left (a side's turn holds at most one move on each board,
//! rule 4.1):
//! 1. **A return by the winner** needs a man of the winner on the Underworld that takes
//!    the loser's Underworld King (a man by 4d, the winner's own Underworld King by 4e)
//!    within the winner's Underworld moves, the King meanwhile walking at most the
//!    loser's Underworld moves. A man may also come to the Underworld first: dropped
//!    again after a capture there by a man of the loser's other than its King (rule
//!    4a; such a man must be there, or be dropped there after a capture on the World)
//!    or dropped after a capture on the World (rule 3), on its home file; a pawn on
//!    its capture file, taken here as anywhere; and an Underworld King taken by the
//!    other (the two within reach of each other) is placed anywhere (4e). Distances are
//!    counted on an empty board (pawns on the cylinder, at most two ranks a move and one
//!    file a capture), so each real count is at least the relaxed one.
//! 2. **Without a return by the winner** the mate is one of the World's own: the mate
//!    bound of the single-board games (`search::mate_bound`) applies to the World with
//!    the winner's and the loser's World moves. The loser's men may still arrive there
//!    by a return of the loser's (the same test as 1, sides swapped); where one may,
//!    flights are not counted as needing the loser's men (the check alone is asked).
//!
//! `tests/underworld.rs` checks help play with the bound against every line played out,
//! on random positions of both boards.

use super::state::{Phase, UState};
use crate::geometry::{Geometry, Standard};
use crate::search::mate_bound::{standard_tables, Flights, MateTables, FAR};
use crate::types::{Color, Role, Square};

/// How many moves a side may still make on each board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Moves {
    world: u32,
    under: u32,
}

/// The moves of each side on each board within `turns` turns from `s` (the current
/// turn counted whole, less the board it has already played): (the phase's side, the
/// other side).
fn board_moves_left(s: &UState, turns: u32) -> (Moves, Moves) {
    let own = turns.div_ceil(2);
    let other = turns / 2;
    // A side's turn is its World move then its Underworld move (Black: BW, BU) or its
    // Underworld move then its World move (White: WU, WW): at BU Black's World move of
    // this turn is made, at WW White's Underworld move.
    let mover = Moves {
        world: own - u32::from(s.phase == Phase::BU),
        under: own - u32::from(s.phase == Phase::WW),
    };
    let rest = Moves {
        world: other,
        under: other,
    };
    (mover, rest)
}

/// Whether `winner` surely cannot mate with the last of `turns` turns from `s`.
pub fn mate_out_of_reach(s: &UState, winner: Color, turns: u32) -> bool {
    if s.placing.is_some() || turns == 0 {
        return false;
    }
    let (mover, rest) = board_moves_left(s, turns);
    let (win, lose) = if s.phase.color() == winner {
        (mover, rest)
    } else {
        (rest, mover)
    };
    if may_return(s, winner, win, lose) {
        return false;
    }
    let flights = if may_return(s, !winner, lose, win) {
        Flights::Unasked
    } else {
        Flights::Guarded
    };
    standard_tables().hopeless_within(
        &Standard, &s.world, winner, win.world, lose.world, flights, false,
    )
}

/// Whether `side` may return a man to the World within its moves `own`, the other side
/// making at most `other`'s (point 1 of the module head).
fn may_return(s: &UState, side: Color, own: Moves, other: Moves) -> bool {
    if own.under == 0 {
        return false;
    }
    let Some(target) = s.under.king(!side) else {
        return false;
    };
    // The side's one Underworld move left, the other side's moves all made: the
    // capture is a move there now. (At BW, Black's World move comes first; what it
    // may drop on the Underworld is a White man, which only blocks lines there.)
    if own.under == 1 && other.under == 0 && other.world == 0 {
        return super::under_moves::attacked(&s.under, target, side);
    }
    let t = standard_tables();
    // Where the other Underworld King may stand when it is taken.
    let region = Standard.rides_within(target, other.under);
    let takes_from = |role: Role, from: Square| {
        region
            .into_iter()
            .any(|to| u_distance(t, side, role, from, to) <= own.under)
    };
    // A man of `side` taken on the Underworld by a man of the other side other than its
    // King is dropped again (4a): that needs such a man there, now or dropped after a
    // capture on the World.
    let others_men = |board: &crate::board::Board| {
        (board.by_color(!side) - board.by_role(Role::King)).is_nonempty()
    };
    let redropped =
        other.under > 0 && (others_men(&s.under) || (own.world > 0 && others_men(s.world.board())));
    for (sq, piece) in s.under.pieces() {
        if piece.color != side {
            continue;
        }
        let moved_away = match piece.role {
            // Taken by the other King, placed anywhere (4e): the Kings must meet.
            Role::King => {
                other.under > 0 && Standard.ride_length(sq, target) <= other.under + own.under
            }
            // Dropped on its file (anywhere here, so no distance is asked: the bound
            // gives up on a pawn whenever one of the other side's men may take it).
            Role::Pawn => redropped,
            // Dropped on its home file.
            _ => redropped && on_file(s.homes[1].get(sq), |from| takes_from(piece.role, from)),
        };
        if moved_away || takes_from(piece.role, sq) {
            return true;
        }
    }
    // Men of the World taken there first and dropped on their home files (rule 3).
    if other.world > 0 {
        for (sq, piece) in s.world.board().pieces() {
            if piece.color != side || piece.role == Role::King {
                continue;
            }
            if piece.role == Role::Pawn
                || on_file(s.homes[0].get(sq), |from| takes_from(piece.role, from))
            {
                return true;
            }
        }
    }
    false
}

/// Whether `test` holds for some square of `file`.
fn on_file(file: u8, test: impl Fn(Square) -> bool) -> bool {
    (0..8).any(|rank| test(Square::from_coords(file, rank)))
}

/// The fewest Underworld moves of a `role` of `color` from `from` ending with a capture
/// on `to`, on an empty board, or less: a pawn on the cylinder is counted as gaining
/// at most two ranks a move (forwards, rank 1 following rank 8) and one file a move.
fn u_distance(t: &MateTables, color: Color, role: Role, from: Square, to: Square) -> u32 {
    match role {
        Role::King => Standard.ride_length(from, to),
        Role::Pawn => {
            let forward = match color {
                Color::White => (to.rank() as i32 - from.rank() as i32).rem_euclid(8),
                Color::Black => (from.rank() as i32 - to.rank() as i32).rem_euclid(8),
            };
            let forward = if forward == 0 { 8 } else { forward as u32 };
            let files = (to.file() as i32 - from.file() as i32).unsigned_abs();
            forward.div_ceil(2).max(files).max(1)
        }
        _ => match t.distance(color, role, from, role, to) {
            FAR => u32::MAX,
            d => d as u32,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(line: &str) -> UState {
        super::super::read_line(line).expect("a valid line").state
    }

    /// Every line of help play of `turns` turns from `s` won by White, in coordinates,
    /// the search complete.
    fn help_lines(s: &UState, turns: u32) -> Vec<Vec<String>> {
        let table = crate::search::tt::Table::new(8);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let sol = crate::generic::help::solve_help(
            &super::super::Underworld,
            s,
            Color::White,
            turns,
            &[],
            &table,
            &stop,
            None,
        );
        assert!(sol.complete);
        sol.solutions
            .iter()
            .map(|l| l.iter().map(|(c, _)| c.clone()).collect())
            .collect()
    }

    #[test]
    fn a_side_moves_once_on_each_board_in_a_turn() {
        let bw = state("4k3/8/8/8/8/8/8/R3K3 b - - underworld \"4k3/8/8/8/8/8/P7/4K3\"; phase BW;");
        assert_eq!(
            board_moves_left(&bw, 3),
            (Moves { world: 2, under: 2 }, Moves { world: 1, under: 1 })
        );
        let ww = state("4k3/8/8/8/8/8/8/R3K3 w - - underworld \"4k3/8/8/8/8/8/P7/4K3\"; phase WW;");
        assert_eq!(
            board_moves_left(&ww, 1),
            (Moves { world: 1, under: 0 }, Moves { world: 0, under: 0 })
        );
    }

    /// With no man of White's on the World but its king, no mate is in reach unless a
    /// man comes back: a queen that may not take the Underworld King leaves the
    /// position hopeless; one returned with the King taking the King lands on d1 (4e),
    /// and U:Kxe2(=Qd1@W) (K@..) / Qd8# is the one line, for each placement of Black's King.
    #[test]
    fn a_return_is_the_only_way_to_a_mate_from_the_underworld() {
        let far = state("k7/8/1K6/8/8/8/8/8 w - - underworld \"8/8/8/8/8/4k3/8/Q3K3\"; phase WU;");
        assert!(mate_out_of_reach(&far, Color::White, 1));
        let line = "k7/8/1K6/8/8/8/8/8 w - - underworld \"8/8/8/8/8/8/4k3/Q3K3\"; phase WU;";
        let takes = state(line);
        assert!(!mate_out_of_reach(&takes, Color::White, 1));
        let lines = help_lines(&takes, 1);
        // One line for each square Black's King is placed on (4.8e).
        assert_eq!(lines.len(), 8, "{lines:?}");
        for l in &lines {
            assert_eq!(l[0], "U:e1e2(a1=Qd1@W)", "{l:?}");
            assert_eq!(l.last().map(String::as_str), Some("W:d1d8"), "{l:?}");
        }
    }

    /// A man the other King takes for good returns from the reserve on either home
    /// file of its kind (4e): 1.Ka6 / U:Kg1xh2 (the rook captured for good) U:Kh1xh2
    /// (=Ra1@W) (K@..) / Nbd6#, the rook on a1 guarding a7 (eight solutions, one for
    /// each placement of Black's King). Counted on its own home file alone, the h-file,
    /// the rook would guard nothing there, and the bound would skip the line.
    #[test]
    fn a_man_taken_for_good_returns_on_either_home_file_of_its_kind() {
        let line =
            "2N2K2/1k6/8/1N1P4/8/8/8/8 b - - underworld \"8/8/8/8/8/8/4P2R/4R1kK\"; phase BW;";
        let s = state(line);
        assert!(!mate_out_of_reach(&s, Color::White, 2));
        let lines = help_lines(&s, 2);
        assert_eq!(lines.len(), 8, "{lines:?}");
        for l in &lines {
            assert_eq!(l[..3], ["W:b7a6", "U:g1h2", "U:h1h2(=Ra1@W)"], "{l:?}");
            assert_eq!(l.last().map(String::as_str), Some("W:b5d6"), "{l:?}");
        }
    }

    /// A flight held by a man the loser returns (rule 4d): 1...a6 or a5, U:Sf6xKe4 (the
    /// knight back on g8), 2.Sf7#. Nothing of White's can reach the Black King on the
    /// Underworld, and without the knight on g8 no mate is in reach.
    #[test]
    fn a_flight_may_be_held_by_a_man_the_loser_returns() {
        let line = "7k/p5pp/8/4N3/8/8/8/K7 b - - underworld \"k7/8/5n2/8/4K3/8/8/8\"; phase BW;";
        let s = state(line);
        assert!(!mate_out_of_reach(&s, Color::White, 2));
        let lines = help_lines(&s, 2);
        assert!(!lines.is_empty());
        for l in &lines {
            // The Underworld holds only its Kings after the return: White's turn there
            // is skipped (rule 4.1).
            assert_eq!(l[1..], ["U:f6e4", "W:e5f7"], "{l:?}");
        }
    }
}
