//! What the exhaustive solver proves of a candidate, for any game of the solver core:
//! its solutions in the sense of the stipulation (the keys of `#N` and `s#N`, the whole
//! lines of `h#N`), whether the search finished, and the main line of the one solution.

use crate::generic::help::{solve_help_with, HelpLimits};
use crate::generic::search::{solve_for, Goal, Line};
use crate::generic::TurnGame;
use crate::problem::{Aim, Stipulation};
use crate::search::solution::SolveOptions;
use crate::search::tt::Table;
use crate::types::Color;
use std::sync::atomic::AtomicBool;

/// The proof of one stipulation in one position.
#[derive(Clone, Debug, Default)]
pub struct Proof {
    /// Every search finished: what follows is proved.
    pub complete: bool,
    /// The solutions: each key in coordinates (`#N`, `s#N`), each whole line (`h#N`).
    pub solutions: Vec<String>,
    /// The fewest moves of any solution (`#N`, `s#N`); short help-mate lines count
    /// in `short`.
    pub shortest: Option<u32>,
    pub short: usize,
    /// The one solution's main line (coordinates, notation): the key, the longest
    /// defence and the first continuation, to the end.
    pub main: Vec<(String, String)>,
    /// Tries (`#N`, `s#N`): first moves refuted by one defence only.
    pub tries: Vec<String>,
    /// The solution tree of the first key (`#N`, `s#N`, when the detail was asked for).
    pub tree: Option<Line>,
    /// Positions the search visited.
    pub nodes: u64,
}

impl Proof {
    /// Exactly one solution, and nothing shorter (formats.md 3).
    pub fn unique(&self, stip: Stipulation) -> bool {
        self.complete
            && self.solutions.len() == 1
            && self.short == 0
            && (stip.aim == Aim::Help || self.shortest == Some(stip.moves))
    }
}

/// The main line below a move of the tree: the defence that lasts longest (the first
/// of them), then the first of the attacker's continuations.
fn main_line(line: &Line, out: &mut Vec<(String, String)>) {
    out.push((line.coord.clone(), line.notation.clone()));
    let next = line
        .children
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (c.wins_in, std::cmp::Reverse(*i)))
        .map(|(_, c)| c);
    if let Some(defence) = next {
        out.push((defence.coord.clone(), defence.notation.clone()));
        if let Some(cont) = defence.children.first() {
            main_line(cont, out);
        }
    }
}

/// Proves `stip` from `root`. `detail`: also the tries, the tree and the main line
/// (asked for once a candidate has passed the plain proof).
pub fn prove<G: TurnGame>(
    game: &G,
    root: &G::State,
    stip: Stipulation,
    table: &Table,
    stop: &AtomicBool,
    detail: bool,
) -> Proof {
    prove_within(game, root, stip, table, stop, detail, None)
}

/// `prove`, the search given up (the proof incomplete, so the candidate not handed
/// out) past `budget` nodes.
pub fn prove_within<G: TurnGame>(
    game: &G,
    root: &G::State,
    stip: Stipulation,
    table: &Table,
    stop: &AtomicBool,
    detail: bool,
    budget: Option<u64>,
) -> Proof {
    match stip.aim {
        // A proof game is proved from the array, not from a diagram's moves
        // (`generate::proof_games`): nothing is proved here.
        Aim::ProofGame | Aim::ShortestProofGame => Proof::default(),
        Aim::Help => {
            let turns = 2 * stip.moves + stip.half as u32;
            let short: Vec<u32> = (1..turns).filter(|t| t % 2 == turns % 2).collect();
            // Uniqueness is all that is asked: a second solution, or any short one,
            // settles it (the search stops there).
            let limits = HelpLimits {
                stop,
                deadline: None,
                max_solutions: Some(2),
                first_short_stops: true,
                max_nodes: budget,
            };
            let sol = solve_help_with(
                game,
                root,
                Color::White,
                turns,
                &short,
                table,
                limits,
                &mut |_| {},
            );
            let text = |l: &Vec<(String, String)>| -> String {
                l.iter()
                    .map(|(c, _)| c.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            Proof {
                complete: sol.complete || sol.capped,
                solutions: sol.solutions.iter().map(text).collect(),
                shortest: None,
                short: sol.short.len(),
                main: sol.solutions.first().cloned().unwrap_or_default(),
                tries: Vec::new(),
                tree: None,
                nodes: sol.nodes,
            }
        }
        Aim::Direct | Aim::Selfmate => {
            let goal = if stip.aim == Aim::Direct {
                Goal::Win
            } else {
                Goal::SelfLoss
            };
            let opts = SolveOptions {
                threads: 1,
                tries: detail,
                max_refutations: 1,
                time_limit: None,
                tree: detail,
                tree_budget: 400,
                // Without the detail only uniqueness is asked: a second key settles it
                // (then incomplete, and no puzzle). Not at a short key: the variant
                // themes compare a complete FIDE solution with the puzzle's.
                stop_at_keys: (!detail).then_some(2),
                max_nodes: budget,
                ..SolveOptions::default()
            };
            let sol = solve_for(game, goal, table, root, stip.moves, &opts, stop, &|_, _| {});
            let mut main = Vec::new();
            if let Some(tree) = sol.trees.first() {
                main_line(tree, &mut main);
            }
            Proof {
                complete: sol.finished(),
                solutions: sol.keys.iter().map(|k| k.0.clone()).collect(),
                shortest: sol.shortest(),
                short: 0,
                main,
                tries: sol.tries.iter().map(|t| t.coord.clone()).collect(),
                tree: sol.trees.first().cloned(),
                nodes: sol.nodes,
            }
        }
    }
}
