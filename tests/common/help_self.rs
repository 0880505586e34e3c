//! Help-mates (rules.md 8.2) and self-mates (8.3) of the bundled collections solved on
//! the solver core, and the solution sets their lines publish, in one comparable form:
//! for h#, the solution lines in coordinates sorted and joined with " | "; for s#, the
//! keys sorted and joined with spaces; "none" for an empty set.

use fairysolve::game::{AnyGame, Outcome};
use fairysolve::generic::adapter::{BoardState, OneBoard};
use fairysolve::generic::help::solve_help;
use fairysolve::generic::search::{solve_for, Goal};
use fairysolve::moves::Move;
use fairysolve::problem::{Aim, Problem, Stipulation};
use fairysolve::search::solution::SolveOptions;
use fairysolve::search::tt::Table;
use fairysolve::{Color, Position};
use std::sync::atomic::AtomicBool;

/// How a move from `pos` ends the game, if it does: the winner, or `None` inside for a
/// draw (rules.md 1.5, 7.1: mate, a king's fall, stalemate). The references that play
/// every line read the end of each move from here.
pub fn ending(game: &AnyGame, pos: &Position, mv: Move) -> (Position, Option<Option<Color>>) {
    let mover = pos.turn();
    let played = game.play(pos, mv);
    let end = match played.outcome {
        Some(Outcome::Mate) => Some(Some(mover)),
        Some(Outcome::KingFell) => Some(Some(!mover)),
        None if game.legal_moves(&played.position).is_empty() => {
            if game.in_check(&played.position) {
                Some(Some(mover))
            } else {
                Some(None)
            }
        }
        None => None,
    };
    (played.position, end)
}

/// A set as one line: sorted, joined with `sep`, "none" when empty.
fn set_line(mut items: Vec<String>, sep: &str) -> String {
    items.sort();
    if items.is_empty() {
        "none".into()
    } else {
        items.join(sep)
    }
}

/// The set a line publishes in operation `opcode` as `"<label>: ..."` (`solutions`
/// lines separated by `|`, `keys` by spaces, or `none`), in the form above.
pub fn published_set(p: &Problem, opcode: &str, label: &str) -> String {
    let text = p
        .record
        .get(opcode)
        .and_then(|o| o.single())
        .unwrap_or_else(|| panic!("line {}: no {opcode}", p.record.line));
    let list = text
        .strip_prefix(label)
        .and_then(|t| t.strip_prefix(": "))
        .unwrap_or_else(|| panic!("line {}: {opcode} is not \"{label}: ...\"", p.record.line));
    if list == "none" {
        return list.into();
    }
    match label {
        "solutions" => set_line(
            list.split('|')
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect(),
            " | ",
        ),
        _ => set_line(list.split_whitespace().map(str::to_string).collect(), " "),
    }
}

/// The line's stipulation, which must be `aim`.
fn stipulation(p: &Problem, aim: Aim) -> Stipulation {
    let stip = p
        .stipulation
        .unwrap_or_else(|| panic!("line {}: no stip", p.record.line));
    assert_eq!(stip.aim, aim, "line {}: {stip}", p.record.line);
    stip
}

/// Every solution of the line's h#N or h#N.5 (Black moves first, or White in h#N.5).
/// Panics if the search did not finish or found a shorter mate: the collections hold
/// problems whose full solution set has exactly the stated length.
pub fn solved_help(p: &Problem) -> String {
    let stip = stipulation(p, Aim::Help);
    let turns = 2 * stip.moves + stip.half as u32;
    let short: Vec<u32> = (1..turns).filter(|t| t % 2 == turns % 2).collect();
    let stop = AtomicBool::new(false);
    let table = fairysolve::search::tt::Table::new(16);
    let sol = fairysolve::with_game!(&p.game, g => {
        let game = OneBoard { game: g, attacker: p.position.turn() };
        solve_help(&game, &BoardState::new(p.position), Color::White, turns, &short, &table, &stop, None)
    });
    assert!(sol.complete, "line {}", p.record.line);
    assert!(
        sol.short.is_empty(),
        "line {}: short {:?}",
        p.record.line,
        sol.short
    );
    set_line(
        sol.solutions
            .iter()
            .map(|l| {
                l.iter()
                    .map(|(c, _)| c.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect(),
        " | ",
    )
}

/// Every key of the line's s#N (White forces Black to mate within N Black moves).
pub fn solved_self_keys(p: &Problem) -> String {
    let stip = stipulation(p, Aim::Selfmate);
    let stop = AtomicBool::new(false);
    let table = Table::new(16);
    let opts = SolveOptions {
        threads: 1,
        tree: false,
        ..SolveOptions::default()
    };
    let sol = fairysolve::with_game!(&p.game, g => {
        let game = OneBoard { game: g, attacker: Color::White };
        solve_for(&game, Goal::SelfLoss, &table, &BoardState::new(p.position), stip.moves, &opts, &stop, &|_, _| {})
    });
    assert!(sol.finished(), "line {}", p.record.line);
    set_line(sol.keys.iter().map(|k| k.0.clone()).collect(), " ")
}
