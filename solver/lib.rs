//! fairysolve: a problem solver and retro-analyser for Trapdoor, Taxi, Earthquake,
//! Underworld and Looking-Glass chess.
//!
//! Where each job lives: `types`, `bitboard`, `board` (placement); `geometry` (which
//! squares exist and where moves lead); `attacks` and `movegen` (FIDE moves on any
//! geometry); `position` (state and the board's part of a move); `trapdoor` (a rule
//! modifier); `game` (the order of events of a move under the rules in force);
//! `fen`, `setup` and `epd` (reading and writing positions); `san` (notation); `perft`;
//! `search` (the mate solver); `generate` (puzzles, proved); `import` (Popeye input
//! files to position lines); `cpu_time` (what the benchmarks measure); `physical`
//! (where each square lies), `diagram` and `svg` (drawing a position).

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod cpu_time;
pub mod diagram;
pub mod epd;
pub mod fen;
pub mod game;
pub mod generate;
pub mod generic;
pub mod geometry;
pub mod glass;
pub mod import;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod physical;
pub mod position;
pub mod problem;
pub mod proof;
pub mod retro;
pub mod san;
pub mod search;
pub mod setup;
pub mod svg;
pub mod taxi;
#[cfg(test)]
mod test_games;
#[cfg(test)]
mod test_rng;
pub mod trapdoor;
pub mod types;
pub mod underworld;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use game::{Game, Outcome, Played, Rules, Status};
pub use moves::{Move, MoveKind};
pub use position::Position;
pub use types::{Color, Piece, Role, Square};
