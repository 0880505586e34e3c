//! Proof games (rules.md 9): every game of a given length from the array that reaches
//! a diagram, on every single-board game.
//!
//! Where each job lives: `diagram` (the array on the line's board, and when a game has
//! reached the diagram), `distance` (how far each man is from each square on the
//! board's geometries), `bound` (what a position still needs: the deductions that let
//! the search leave a position, each with the rule that makes it sound), `search` (the
//! games themselves, every legal move played).
//!
//! `spg N` first searches the shorter lengths of the same parity, from the least the
//! bound allows, and stops at the first that has games: those are the cooks, and that
//! length is the shortest. A length with none is proved empty by the same exhaustive
//! search, so "no shorter game" is a proof, not a judgement.

pub mod bound;
pub mod diagram;
pub mod distance;
pub mod search;

pub use diagram::{Diagram, ProofError};
pub use search::{DeadEnds, ProofEvent};

use crate::game::Game;
use crate::geometry::Terrain;
use crate::moves::Move;
use crate::search::halt::Halt;
use crate::types::Square;
use bound::Bound;
use search::Search;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How a proof-game search may be stopped.
pub struct ProofLimits<'a> {
    pub stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    /// Stop after this many games of the stipulated length.
    pub max_games: Option<usize>,
    /// Stop after this many positions searched (a budget that, unlike a deadline,
    /// gives the same answer on every machine: what the generator uses).
    pub max_nodes: Option<u64>,
    /// Table size in megabytes.
    pub table_mb: usize,
}

/// What a proof-game search proved.
#[derive(Clone, Debug, Default)]
pub struct ProofOutcome {
    /// Every game of the stipulated length (all of them when `complete`).
    pub games: Vec<Vec<Move>>,
    /// `spg`: the games of the shortest length below the stipulated one, if any.
    pub cooks: Vec<Vec<Move>>,
    /// Their length in half-moves.
    pub cook_plies: Option<u32>,
    /// The fewest half-moves of a game that reaches the diagram, where proved.
    pub shortest: Option<u32>,
    /// The fewest half-moves the bound allows (no game is shorter).
    pub least_plies: Option<u32>,
    /// Why no game reaches the diagram in the stipulated length, when the bound tells.
    pub why_not: Option<String>,
    /// Every length asked was searched to the end.
    pub complete: bool,
    /// Stopped by `max_games`.
    pub capped: bool,
    pub nodes: u64,
    /// The length being searched when the search stopped, and how far its first moves
    /// had got.
    pub searching_plies: u32,
    pub first_moves_done: usize,
    pub first_moves: usize,
}

/// Every proof game of `plies` half-moves to `diagram` on `game` (with `shortest`, the
/// shorter ones too, as cooks), reporting each game as it is found.
pub fn solve<T: Terrain>(
    game: &Game<T>,
    diagram: &Diagram,
    plies: u32,
    shortest: bool,
    limits: &ProofLimits,
    mut on_event: impl FnMut(u32, ProofEvent),
) -> Result<ProofOutcome, ProofError> {
    let start = diagram.start(game)?;
    let bound = Bound::new(game, diagram);
    let halt = Halt::new(limits.stop, limits.deadline);
    let mut dead = DeadEnds::new(limits.table_mb);
    let turn = diagram.position.turn();
    let least = bound.least_plies(&start, turn, plies);
    let mut out = ProofOutcome {
        least_plies: least,
        why_not: bound.why_not(&start, plies),
        complete: true,
        ..ProofOutcome::default()
    };
    let Some(least) = least else {
        return Ok(out);
    };
    let mut lengths: Vec<u32> = Vec::new();
    if shortest {
        lengths.extend((least..plies).step_by(2));
    }
    lengths.push(plies);
    // Whether every length below the one searched has no game: those below the bound's
    // least by the bound, the others by a search that went to its end (`pg` searches
    // none of them).
    let mut none_shorter = shortest || least == plies;
    for length in lengths {
        let cook = length < plies;
        if cook && out.cook_plies.is_some() {
            // The shortest length is known: only the stipulated one is left.
            continue;
        }
        let mut search = Search::new(
            game,
            diagram,
            &bound,
            &mut dead,
            &halt,
            if cook { None } else { limits.max_games },
            |e| on_event(length, e),
        );
        search.max_nodes = limits.max_nodes.map(|m| m.saturating_sub(out.nodes));
        search.run(&start, length);
        out.nodes += search.nodes;
        let found = std::mem::take(&mut search.found);
        let (stopped, capped) = (search.stopped, search.capped);
        let (done, first) = (search.first_moves_done, search.first_moves);
        if !found.is_empty() && none_shorter {
            out.shortest = Some(length);
        }
        none_shorter &= found.is_empty() && !stopped;
        out.capped |= capped;
        if cook {
            if !found.is_empty() {
                out.cook_plies = Some(length);
                out.cooks = found;
            }
        } else {
            out.games = found;
        }
        if stopped && !capped {
            // A limit or Ctrl-C: nothing more is searched; say where it stopped.
            out.complete = false;
            out.searching_plies = length;
            out.first_moves_done = done;
            out.first_moves = first;
            return Ok(out);
        }
    }
    Ok(out)
}

/// What the games of a proof game prove of the diagram's history: the last moves they
/// end with, and the men ticking in every one of them (with each r seen). Every game
/// ends in the diagram, so a man ticking in each is ticking in every history of this
/// length: the history is the games themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub last_moves: Vec<Move>,
    pub ticking: Vec<(Square, Vec<u8>)>,
}

/// The history `games` (each from the array of `diagram` on `game`) prove.
pub fn history<T: Terrain>(game: &Game<T>, diagram: &Diagram, games: &[Vec<Move>]) -> History {
    let Ok(start) = diagram.start(game) else {
        return History::default();
    };
    let mut out = History::default();
    let mut ticking: Option<Vec<(Square, Vec<u8>)>> = None;
    for moves in games {
        let mut pos = start;
        for &mv in moves {
            pos = game.play(&pos, mv).position;
        }
        if let Some(&last) = moves.last() {
            if !out.last_moves.contains(&last) {
                out.last_moves.push(last);
            }
        }
        let here: Vec<(Square, u8)> = pos
            .timers()
            .ticking()
            .map(|sq| (sq, pos.timers().left(sq)))
            .collect();
        ticking = Some(match ticking {
            None => here.iter().map(|&(sq, r)| (sq, vec![r])).collect(),
            Some(before) => before
                .into_iter()
                .filter_map(|(sq, mut rs)| {
                    let &(_, r) = here.iter().find(|(s, _)| *s == sq)?;
                    if !rs.contains(&r) {
                        rs.push(r);
                        rs.sort_unstable();
                    }
                    Some((sq, rs))
                })
                .collect(),
        });
    }
    out.ticking = ticking.unwrap_or_default();
    out
}
