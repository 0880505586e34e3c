//! Help-mates for any `TurnGame` (rules.md 8.2): every line in which the sides take
//! turns, no move before the last ends the game, and White's last move wins for White.
//! `h#N` is 2N turns from Black's; `h#N.5` is 2N + 1 from White's. Lines that win
//! earlier (White's k-th move, k < N) are the short solutions. Every turn of both sides
//! is played; a table of proved failures (no such line of the remaining length from a
//! state) only skips what cannot lead to a solution.

use super::{End, TurnGame};
use crate::types::Color;
use hashbrown::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The search was stopped (time limit or interrupt).
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct Stopped;

/// A help-mate's solutions, each the whole line (coordinates and notation).
#[derive(Clone, Debug, Default)]
pub struct HelpSolution {
    pub solutions: Vec<Vec<(String, String)>>,
    pub short: Vec<Vec<(String, String)>>,
    pub nodes: u64,
    pub complete: bool,
}

struct Lines<'a, G: TurnGame> {
    game: &'a G,
    winner: Color,
    /// (state key, turns left) with no solution.
    dead: HashSet<(u64, u32)>,
    nodes: u64,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
}

impl<G: TurnGame> Lines<'_, G> {
    fn check(&mut self) -> Result<(), Stopped> {
        self.nodes += 1;
        if self.stop.load(Ordering::Relaxed)
            || (self.nodes & 0x3FF == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Err(Stopped);
        }
        Ok(())
    }

    /// Every line of exactly `turns` turns from `s` that ends with `winner`'s win on its
    /// last turn and with no end before; appended to `out` behind `prefix`.
    fn collect(
        &mut self,
        s: &G::State,
        turns: u32,
        prefix: &mut Vec<(String, String)>,
        out: &mut Vec<Vec<(String, String)>>,
    ) -> Result<bool, Stopped> {
        self.check()?;
        let key = (self.game.key(s), turns);
        if self.dead.contains(&key) {
            return Ok(false);
        }
        let mut found = false;
        for mv in self.game.moves(s) {
            let next = self.game.play(s, mv);
            // A move that leaves a choice to complete the turn (a King's placement) has
            // not used it up, nor ended the game yet.
            let (left, end) = if self.game.completes_turn(&next) {
                (turns, None)
            } else {
                (turns - 1, self.game.end(&next))
            };
            let wins = end == Some(End::Win(self.winner)) && self.game.mover(s) == self.winner;
            let hit = match (left, end) {
                (0, _) => wins,
                (_, Some(_)) => false,
                (_, None) => {
                    prefix.push((self.game.coord(s, mv), self.game.notation(s, mv)));
                    let below = self.collect(&next, left, prefix, out)?;
                    prefix.pop();
                    found |= below;
                    false
                }
            };
            if hit {
                let mut line = prefix.clone();
                line.push((self.game.coord(s, mv), self.game.notation(s, mv)));
                out.push(line);
                found = true;
            }
        }
        if !found {
            self.dead.insert(key);
        }
        Ok(found)
    }
}

/// The solutions of a help-mate of `turns` turns from `root` (whose side to move moves
/// first), won by `winner`; `short_turns`: the shorter lengths whose lines are short
/// solutions.
pub fn solve_help<G: TurnGame>(
    game: &G,
    root: &G::State,
    winner: Color,
    turns: u32,
    short_turns: &[u32],
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> HelpSolution {
    let mut lines = Lines {
        game,
        winner,
        dead: HashSet::new(),
        nodes: 0,
        stop,
        deadline,
    };
    let mut out = HelpSolution {
        complete: true,
        ..HelpSolution::default()
    };
    if turns > 0
        && lines
            .collect(root, turns, &mut Vec::new(), &mut out.solutions)
            .is_err()
    {
        out.complete = false;
    }
    for &t in short_turns {
        if t > 0
            && lines
                .collect(root, t, &mut Vec::new(), &mut out.short)
                .is_err()
        {
            out.complete = false;
        }
    }
    out.solutions.sort();
    out.short.sort();
    out.nodes = lines.nodes;
    out
}
