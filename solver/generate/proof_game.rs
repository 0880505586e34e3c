//! Proof-game puzzles (`generate --stip "spg N"`): candidate `index` is a game of N moves
//! from the array drawn from the seed and the index; its final position, everything of
//! it stated, is a puzzle when the proof-game search proves that game the only one of
//! its length and, for `spg`, no game shorter.

use super::candidate::Draw;
use super::{Puzzle, Spec, Stopped, Theme};
use crate::game::Game;
use crate::geometry::Terrain;
use crate::moves::Move;
use crate::position::Position;
use crate::problem::{position_line, Aim, Problem, Stated};
use crate::proof::{self, Diagram, ProofLimits};
use std::sync::atomic::{AtomicBool, Ordering};

/// Positions each candidate's proof may search: a candidate not proved within them is
/// not handed out (the same on every machine).
pub const PROOF_NODES: u64 = 200_000;

/// Candidate `index` of a proof-game run on the board of `board` (the run's operations
/// on a board of two kings), proved, or `None` when it is no puzzle.
pub fn examine(
    spec: &Spec,
    board: &Problem,
    index: u64,
    stop: &AtomicBool,
) -> Result<Option<Puzzle>, Stopped> {
    let found = crate::with_game!(&board.game, g => examine_on(spec, board, g, index, stop));
    if stop.load(Ordering::Relaxed) {
        return Err(Stopped);
    }
    Ok(found)
}

fn examine_on<T: Terrain>(
    spec: &Spec,
    board: &Problem,
    game: &Game<T>,
    index: u64,
    stop: &AtomicBool,
) -> Option<Puzzle> {
    let aftershocks = board.game.has_aftershocks();
    let start = Diagram::new(board.position, Stated::default(), aftershocks)
        .start(game)
        .ok()?;
    let plies = spec.stip.plies();
    let mut draw = Draw::new(spec.seed, index);
    let mut pos = start;
    let mut fell = false;
    for _ in 0..plies {
        let moves = game.legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        let mv: Move = draw.pick(moves.as_slice());
        let played = game.play(&pos, mv);
        if played.outcome.is_some() {
            return None;
        }
        fell |= played.fallen.is_nonempty();
        pos = played.position;
    }
    // On an aftershock board the line states the board the game begins and ends on.
    if aftershocks && pos.quake().dx != start.quake().dx {
        return None;
    }
    let diagram_text = diagram_line(board, &start, &pos);
    let line = format!("{diagram_text} stip \"{}\";", spec.stip);
    let problem = crate::problem::from_record(match crate::epd::parse_line(&line, 1) {
        Ok(crate::epd::Line::Position(rec)) => *rec,
        _ => return None,
    })
    .ok()?;
    let diagram = Diagram::new(problem.position, problem.stated, aftershocks);
    let limits = ProofLimits {
        stop,
        deadline: None,
        max_games: Some(2),
        max_nodes: Some(PROOF_NODES),
        table_mb: 4,
    };
    let shortest = spec.stip.aim == Aim::ShortestProofGame;
    let outcome = proof::solve(game, &diagram, plies, shortest, &limits, |_, _| {}).ok()?;
    let unique = outcome.complete && outcome.games.len() == 1 && outcome.cooks.is_empty();
    if !unique {
        return None;
    }
    let pv: Vec<String> = outcome.games[0]
        .iter()
        .map(|m| m.coord(false).to_string())
        .collect();
    let mut themes = Vec::new();
    if !spec.ops.trim().is_empty() {
        themes.push(Theme::Variant);
    }
    if fell {
        themes.push(Theme::Fall);
    }
    let men = pos.board().occupied().count();
    // Fewer men left and a longer game make the harder puzzle.
    let score = 0.5 * (32 - men) as f64 / 32.0 + 0.5 * plies.min(20) as f64 / 20.0;
    let score = (score * 100.0).round() / 100.0;
    Some(Puzzle {
        seed: spec.seed,
        index,
        diagram: diagram_text,
        stip: spec.stip,
        key: pv.first().cloned().unwrap_or_default(),
        pv,
        themes,
        score,
        tries: Vec::new(),
        variations: 0,
        retro: None,
        qualities: super::Qualities::default(),
        effort: None,
    })
}

/// The diagram of `pos`, everything of its state stated (rules.md 9.3); on an
/// aftershock board with the board and the allowance of `start`, where the game began
/// (the line states the start's counters, RULES.md).
fn diagram_line(board: &Problem, start: &Position, pos: &Position) -> String {
    let mut shown = *pos;
    if board.game.has_aftershocks() {
        shown.set_quake(*start.quake());
    }
    position_line(&board.game, &shown)
}
