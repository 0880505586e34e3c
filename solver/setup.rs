//! Checks on reading a position (rules.md 7.2): what makes a diagram acceptable to the
//! engine, whatever the commands asked of it later.

use crate::attacks::is_attacked;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::fen::Setup;
use crate::geometry::{Geometry, Standard};
use crate::types::{Color, Role, Square};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("{0} has no king")]
    NoKing(&'static str),
    #[error("{0} has {1} kings")]
    TooManyKings(&'static str, u32),
    #[error("{side} pawn on {square}, a rank it can never stand on")]
    PawnOnLastRank { side: &'static str, square: String },
    #[error("{0} is in check but it is not its turn")]
    OppositeCheck(&'static str),
    #[error("en passant {square}: {reason}")]
    BadEnPassant { square: String, reason: String },
    #[error("{square} does not exist on this board")]
    NoSuchSquare { square: String },
}

/// The checks every game shares, with FIDE check (the side not to move is not attacked).
pub fn validate<G: Geometry>(geo: &G, setup: &Setup) -> Result<(), SetupError> {
    validate_board(geo, setup)?;
    let board = &setup.board;
    let them = !setup.turn;
    let king = board.king(them).expect("checked by validate_board");
    if is_attacked(geo, board, king, setup.turn, board.occupied()) {
        return Err(SetupError::OppositeCheck(them.name()));
    }
    Ok(())
}

/// The checks of placement and rights, on any geometry; whether the side not to move
/// is in check depends on the rules (Taxi) and is the caller's.
pub fn validate_board<G: Geometry>(geo: &G, setup: &Setup) -> Result<(), SetupError> {
    validate_men(geo, setup)?;
    let board = &setup.board;
    for color in Color::ALL {
        let last = Bitboard::rank(color.fold(7, 0));
        if let Some(sq) = (board.by_piece(color, Role::Pawn) & last).first() {
            return Err(SetupError::PawnOnLastRank {
                side: color.name(),
                square: sq.to_string(),
            });
        }
    }
    validate_en_passant(geo, &setup.board, setup.turn, setup.ep)
}

/// The least a position needs for any command to look at it: its men stand on squares
/// that exist and each side has one king. Retro-analysis reports the other checks as
/// verdicts instead of refusing the line.
pub fn validate_men<G: Geometry>(geo: &G, setup: &Setup) -> Result<(), SetupError> {
    let board = &setup.board;
    if let Some(sq) = (board.occupied() - geo.squares()).first() {
        return Err(SetupError::NoSuchSquare {
            square: sq.to_string(),
        });
    }
    for color in Color::ALL {
        match board.by_piece(color, Role::King).count() {
            0 => return Err(SetupError::NoKing(color.name())),
            1 => {}
            n => return Err(SetupError::TooManyKings(color.name(), n)),
        }
    }
    Ok(())
}

/// An en passant square stands behind a pawn of the side that just moved, on the square
/// its double step passed, with that square and the one it came from empty.
pub fn validate_en_passant<G: Geometry>(
    geo: &G,
    board: &Board,
    turn: Color,
    ep: Option<Square>,
) -> Result<(), SetupError> {
    if let Some(ep) = ep {
        let us = turn;
        let them = !us;
        let bad = |reason: &str| SetupError::BadEnPassant {
            square: ep.to_string(),
            reason: reason.to_string(),
        };
        if board.occupied().contains(ep) {
            return Err(bad("the square is occupied"));
        }
        let victim = geo.pawn_step(them, ep);
        if (victim & board.by_piece(them, Role::Pawn)).is_empty() {
            return Err(bad(&format!(
                "no {} pawn in front of it that can have just moved two squares",
                them.name()
            )));
        }
        let origin = geo.pawn_step(us, ep);
        let from_rank = Bitboard::rank(them.fold(1, 6));
        if (origin & from_rank & !board.occupied()).is_empty() {
            return Err(bad(
                "the square the pawn came from is not an empty square of its second rank",
            ));
        }
    }
    Ok(())
}

pub fn validate_fide(setup: &Setup) -> Result<(), SetupError> {
    validate(&Standard, setup)
}
