//! Retro-analysis of the two-board games (rules.md 6.3 with sections 4 and 5): the checks
//! that need no history. The readers of those lines already refuse a wrong number of
//! kings, a pawn where it can never stand, a castling right without its king and rook
//! at home and, in Underworld, a side in check that may not be (rule 4.8c; Looking-Glass
//! has no check); here the men are counted over both boards and the reserve. Histories
//! are not searched on two boards: no last move is listed and no man proved to have moved.

use super::soundness::{counts, Illegality};
use crate::glass::GState;
use crate::types::Role;
use crate::underworld::state::UState;

/// The count checks of an Underworld position: each side's men on the World, on the
/// Underworld (its Underworld King aside, which is not one of its 16) and in the reserve.
pub fn underworld(state: &UState) -> Option<Illegality> {
    counts(|color, role| {
        let world = state.world.board().by_piece(color, role).count();
        if role == Role::King {
            return world;
        }
        world + state.under.by_piece(color, role).count() + state.reserve.count(color, role) as u32
    })
}

/// The count checks of a Looking-Glass position: one set of men over both boards.
pub fn glass(state: &GState) -> Option<Illegality> {
    counts(|color, role| {
        state
            .boards
            .iter()
            .map(|b| b.board().by_piece(color, role).count())
            .sum()
    })
}
