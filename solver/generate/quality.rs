//! What a composer asks of a problem beyond soundness, each proved on the puzzle by the
//! solver (never guessed from its looks):
//!
//! - **quiet key**: the key gives no check, captures nothing and takes no flight (every
//!   square the defender's king could step to with the defender to move in the diagram
//!   it can still step to after the key);
//! - **threat or zugzwang**: what the key threatens, or that it threatens nothing;
//! - **variations**: the different attacker moves that answer the defences after the key
//!   (different mates in a `#2`);
//! - **no duals**: no defence anywhere in the solution tree has two answers;
//! - **tries**: first moves refuted by one defence only;
//! - **economy**: no man is superfluous: without it (and its timer) the diagram is
//!   illegal, or the stipulation is no longer sound, or its solution changes;
//! - **model mate**: the mate of the main line is pure (each square of the mated king's
//!   field is either blocked by one of its own men and not attacked, or attacked exactly
//!   once) and economical (each man of the mating side but the king and pawns takes part:
//!   without it, the position is no longer mate).

use super::prove::{prove, Proof};
use super::Stopped;
use crate::attacks::piece_attacks;
use crate::bitboard::Bitboard;
use crate::game::{AnyGame, Game};
use crate::generic::adapter::{BoardState, OneBoard};
use crate::generic::search::Line;
use crate::generic::{KeyEffects, TurnGame};
use crate::geometry::Terrain;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::problem::{Aim, Problem, Stipulation};
use crate::retro::{self, RetroOptions, RetroPosition};
use crate::search::tt::Table;
use crate::types::{Color, Role, Square};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};

/// The qualities of a proved puzzle. `None`: not decided for this game or stipulation
/// (said in each field).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Qualities {
    /// `#N`, `s#N`; `None` for help-mates (no key). On two boards as the game judges
    /// its key (`TurnGame::key_effects`).
    pub quiet_key: Option<bool>,
    /// The flights the key takes (`e7`), decided where `quiet_key` is.
    pub flights_taken: Option<Vec<String>>,
    /// `Some(true)`: the key threatens; `Some(false)`: zugzwang; `None`: no threat is
    /// sought (help-mates, a key that checks, a one-mover).
    pub threat: Option<bool>,
    /// Different attacker moves answering the defences after the key.
    pub variations: usize,
    /// No defence has two answers (always so for a help-mate with one solution).
    pub no_duals: bool,
    pub tries: usize,
    /// The men without which the problem stays sound with the same solution (`Qd1`,
    /// `pe5`; on two boards with the board's letter, `U:Qc5`); `None` when not decided.
    pub superfluous: Option<Vec<String>>,
    /// `None` when the main line does not end in mate, under Taxi (where a guard counts
    /// only if affordable) and on Looking-Glass (no mate: a capture ends it).
    pub model_mate: Option<bool>,
}

impl Qualities {
    pub fn economy(&self) -> Option<bool> {
        self.superfluous.as_ref().map(Vec::is_empty)
    }

    pub fn json(&self) -> Value {
        json!({
            "quiet_key": self.quiet_key,
            "flights_taken": self.flights_taken,
            "threat": self.threat.map(|t| if t { "threat" } else { "zugzwang" }),
            "variations": self.variations,
            "no_duals": self.no_duals,
            "tries": self.tries,
            "economy": self.economy(),
            "superfluous": self.superfluous,
            "model_mate": self.model_mate,
        })
    }
}

/// The squares the king of the side to move can step to (castling left out).
fn flights<T: Terrain>(game: &Game<T>, pos: &Position) -> Bitboard {
    let Some(king) = pos.board().king(pos.turn()) else {
        return Bitboard::EMPTY;
    };
    game.legal_moves(pos)
        .iter()
        .filter(|m| m.from == king && m.role == Role::King && m.kind != MoveKind::Castle)
        .fold(Bitboard::EMPTY, |b, m| b.with(m.to))
}

/// The flights `key` takes: the squares the defender's king could step to with the
/// defender to move in the diagram and cannot after the key. The turn is passed as
/// no move: nothing ticks, and no income is received (RULES.md, "The flights a key
/// takes, under Trapdoor and Taxi").
pub fn flights_taken(game: &AnyGame, pos: &Position, key: Move) -> Bitboard {
    crate::with_game!(game, g => flights_taken_in(g, pos, key))
}

fn flights_taken_in<T: Terrain>(game: &Game<T>, pos: &Position, key: Move) -> Bitboard {
    let after = game.play(pos, key).position;
    let mut passed = *pos;
    passed.pass();
    flights(game, &passed) & !flights(game, &after)
}

/// The key is quiet: no check, no capture, no flight taken.
pub fn key_is_quiet(game: &AnyGame, pos: &Position, key: Move) -> bool {
    crate::with_game!(game, g => key_is_quiet_in(g, pos, key))
}

/// `key_is_quiet` in a game of a known board (the backward construction asks it of
/// FIDE moves on the run's board).
pub(super) fn key_is_quiet_in<T: Terrain>(game: &Game<T>, pos: &Position, key: Move) -> bool {
    key_neither_takes_nor_checks(game, pos, key) && flights_taken_in(game, pos, key).is_empty()
}

/// The key captures nothing and gives no check (the theme `quiet`).
pub(super) fn key_neither_takes_nor_checks<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    key: Move,
) -> bool {
    !key.takes(pos.board()) && !game.in_check(&game.play(pos, key).position)
}

/// Whether the position (the mated side to move) is a model mate; `None` when it is not
/// mate at all.
pub fn model_mate(game: &AnyGame, pos: &Position) -> Option<bool> {
    if game.rules().taxi.is_some() || !game.is_checkmated(pos) {
        return None;
    }
    let mated = pos.turn();
    let king = pos.board().king(mated)?;
    let board = pos.board();
    let occupied = board.occupied().without(king);
    let pure = crate::with_game!(game, g => {
        let geo = g.geo(pos);
        let field = crate::geometry::Geometry::king_attacks(geo, king);
        field.into_iter().all(|sq: Square| {
            let guards = board
                .by_color(!mated)
                .into_iter()
                .filter(|&from| {
                    let p = board.piece_at(from).expect("a man");
                    piece_attacks(geo, p.role, p.color, from, occupied).contains(sq)
                })
                .count();
            if board.color_at(sq) == Some(mated) {
                guards == 0
            } else {
                guards == 1
            }
        })
    });
    let economical = board.by_color(!mated).into_iter().all(|sq| {
        if matches!(board.role_at(sq), Some(Role::King | Role::Pawn)) {
            return true;
        }
        let mut without = *pos;
        without.remove_piece(sq);
        without.set_timer(sq, None);
        !game.is_checkmated(&without)
    });
    Some(pure && economical)
}

/// The legal move of `pos` written `coord` in coordinates, if there is one.
pub fn legal_move(game: &AnyGame, pos: &Position, coord: &str) -> Option<Move> {
    let c960 = pos.is_chess960();
    game.legal_moves(pos)
        .iter()
        .copied()
        .find(|m| m.coord(c960).to_string() == coord)
}

/// Replays coordinate moves from `start`: the position reached, or `None` if a move is
/// not legal there.
fn replay(game: &AnyGame, start: &Position, coords: &[String]) -> Option<Position> {
    let mut pos = *start;
    for coord in coords {
        let mv = legal_move(game, &pos, coord)?;
        pos = game.play(&pos, mv).position;
    }
    Some(pos)
}

/// Different attacker moves answering the defences after the key.
fn variations(key: &Line) -> usize {
    let mut answers: Vec<&str> = key
        .children
        .iter()
        .flat_map(|d| d.children.iter().map(|c| c.coord.as_str()))
        .collect();
    answers.sort_unstable();
    answers.dedup();
    answers.len()
}

/// No defence in the tree below `line` has two answers, and nothing was left out.
fn dual_free(line: &Line, attacker: Color) -> bool {
    !line.truncated
        && (line.mover == attacker || line.children.len() <= 1)
        && line.children.iter().all(|c| dual_free(c, attacker))
}

/// A man in the notation of `superfluous`: letter (upper case White) and square.
fn man_name(pos: &Position, sq: Square) -> String {
    let p = pos.board().piece_at(sq).expect("a man");
    format!("{}{sq}", p.char())
}

/// The men of `problem` (on the position `pos`, its timers as proved) whose removal
/// keeps the diagram legal and the stipulation sound with the same solutions.
fn superfluous(
    problem: &Problem,
    pos: &Position,
    stip: Stipulation,
    proof: &Proof,
    table: &Table,
    stop: &AtomicBool,
) -> Result<Vec<String>, Stopped> {
    let game = &problem.game;
    let mut out = Vec::new();
    for sq in pos.board().occupied() {
        if pos.board().role_at(sq) == Some(Role::King) || pos.castling().contains(sq) {
            // A castling rook's right cannot stand without it: the diagram would say
            // something else.
            continue;
        }
        let mut without = *pos;
        without.remove_piece(sq);
        without.set_timer(sq, None);
        // The side not to move in check: no legal diagram.
        let mut other_to_move = without;
        other_to_move.pass();
        if game.in_check(&other_to_move) {
            continue;
        }
        let other = crate::with_game!(game, g => {
            let one = OneBoard { game: g, attacker: without.turn() };
            prove(&one, &BoardState::new(without), stip, table, stop, false)
        });
        if stop.load(Ordering::Relaxed) {
            return Err(Stopped);
        }
        if !other.unique(stip) || other.solutions != proof.solutions {
            continue;
        }
        // Legal by retro-analysis too, where the retro module plays the game.
        let mut shown = problem.clone();
        shown.position = without;
        let opts = RetroOptions::for_problem(&shown, retro::DEFAULT_DEPTH, super::RETRO_NODES);
        if retro::legal(&RetroPosition::of(&without), &opts) {
            out.push(man_name(pos, sq));
        }
    }
    Ok(out)
}

/// A two-board line without each of its men but the kings, one at a time: the man's
/// name (`U:Qc5`, its board's letter from `boards` first) and the line without it. The
/// first board's placement opens the line, the second's is its first quoted field (as
/// `generate` writes both games' lines).
pub fn two_board_removals(line: &str, boards: [char; 2]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some((first, rest)) = line.split_once(' ') else {
        return out;
    };
    let Some((before, quoted)) = rest.split_once('"') else {
        return out;
    };
    let Some((second, after)) = quoted.split_once('"') else {
        return out;
    };
    for (b, placement) in [first, second].into_iter().enumerate() {
        let Ok(board) = crate::fen::parse_placement(placement, 0) else {
            continue;
        };
        for (sq, piece) in board.pieces() {
            if piece.role == Role::King {
                continue;
            }
            let mut smaller = board;
            smaller.remove(sq);
            let written = crate::fen::write_placement(&smaller);
            let line = if b == 0 {
                format!("{written} {before}\"{second}\"{after}")
            } else {
                format!("{first} {before}\"{written}\"{after}")
            };
            out.push((format!("{}:{}{sq}", boards[b], piece.char()), line));
        }
    }
    out
}

/// The qualities of a proved single-board puzzle: `problem` as read, `pos` its position
/// with the timers retro-analysis proved, `proof` its proof with the tree; `economy`:
/// decide it too (a proof again without each man).
pub fn of_single(
    problem: &Problem,
    pos: &Position,
    stip: Stipulation,
    proof: &Proof,
    economy: bool,
    table: &Table,
    stop: &AtomicBool,
) -> Result<Qualities, Stopped> {
    let game = &problem.game;
    let help = stip.aim == Aim::Help;
    let key = proof
        .main
        .first()
        .and_then(|(coord, _)| legal_move(game, pos, coord));
    let mated_at = replay(
        game,
        pos,
        &proof
            .main
            .iter()
            .map(|(c, _)| c.clone())
            .collect::<Vec<_>>(),
    );
    Ok(Qualities {
        quiet_key: (!help).then(|| key.is_some_and(|k| key_is_quiet(game, pos, k))),
        flights_taken: key.filter(|_| !help).map(|k| {
            flights_taken(game, pos, k)
                .into_iter()
                .map(|sq| sq.to_string())
                .collect()
        }),
        threat: proof
            .tree
            .as_ref()
            .and_then(|t| t.threat.as_ref().map(|v| !v.is_empty())),
        variations: proof.tree.as_ref().map_or(0, variations),
        no_duals: help
            || proof
                .tree
                .as_ref()
                .is_some_and(|t| dual_free(t, pos.turn())),
        tries: proof.tries.len(),
        superfluous: if economy {
            Some(superfluous(problem, pos, stip, proof, table, stop)?)
        } else {
            None
        },
        model_mate: mated_at.and_then(|p| model_mate(game, &p)),
    })
}

/// A two-board line played from `start`: the state its first move is played in, that
/// move, and the state at its end; `None` if a move written in `coords` is not legal where
/// it stands (or the line is empty).
fn replay_turns<G: TurnGame>(
    game: &G,
    start: &G::State,
    coords: &[(String, String)],
) -> Option<(G::State, G::Move, G::State)> {
    let mut s = *start;
    let mut first = None;
    for (coord, _) in coords {
        let mv = game.move_written(&s, coord)?;
        first.get_or_insert((s, mv));
        s = game.play(&s, mv);
    }
    let (before, key) = first?;
    Some((before, key, s))
}

/// The qualities of a two-board puzzle decided without further proofs (economy is
/// `None`): the key's effects where the game judges them (`TurnGame::key_effects`),
/// and the model mate where its mate is a FIDE mate on one board
/// (`TurnGame::mate_board`: on Underworld the World, its men on the Underworld apart).
pub fn of_two_board<G: TurnGame>(
    game: &G,
    state: &G::State,
    stip: Stipulation,
    proof: &Proof,
) -> Qualities {
    let help = stip.aim == Aim::Help;
    let mover = game.mover(state);
    let line = replay_turns(game, state, &proof.main);
    let key = line
        .filter(|_| !help)
        .and_then(|(s, mv, _)| game.key_effects(&s, mv));
    // The side to move mates in #N, is mated in s#N; in h#N it is the side mated,
    // in h#N.5 the side mating.
    let mated = match stip.aim {
        Aim::Selfmate => mover,
        Aim::Help if !stip.half => mover,
        _ => !mover,
    };
    let fide = AnyGame::Standard(crate::game::Game::fide());
    Qualities {
        quiet_key: key.as_ref().map(KeyEffects::quiet),
        flights_taken: key.map(|k| k.flights_taken),
        threat: proof
            .tree
            .as_ref()
            .and_then(|t| t.threat.as_ref().map(|v| !v.is_empty())),
        variations: proof.tree.as_ref().map_or(0, variations),
        no_duals: help || proof.tree.as_ref().is_some_and(|t| dual_free(t, mover)),
        tries: proof.tries.len(),
        superfluous: None,
        model_mate: line
            .and_then(|(_, _, end)| game.mate_board(&end, mated))
            .and_then(|board| model_mate(&fide, &board)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_board_line_loses_each_man_but_the_kings_in_turn() {
        let line = "8/8/8/3k4/8/2R5/8/K7 w - - mirror \"8/8/8/8/8/8/4p3/8\";";
        let removals = two_board_removals(line, ['R', 'M']);
        assert_eq!(
            removals,
            [
                (
                    "R:Rc3".to_string(),
                    "8/8/8/3k4/8/8/8/K7 w - - mirror \"8/8/8/8/8/8/4p3/8\";".to_string()
                ),
                (
                    "M:pe2".to_string(),
                    "8/8/8/3k4/8/2R5/8/K7 w - - mirror \"8/8/8/8/8/8/8/8\";".to_string()
                ),
            ]
        );
        let under = "4k3/8/8/8/8/8/8/R3K3 w - - underworld \"4k3/8/8/8/8/8/P7/4K3\"; phase WW;";
        let names: Vec<String> = two_board_removals(under, ['W', 'U'])
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names, ["W:Ra1", "U:Pa2"]);
    }
}
