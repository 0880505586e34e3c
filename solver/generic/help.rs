//! Help-mates for any `TurnGame` (rules.md 8.2): every line in which the sides take
//! turns, no move before the last ends the game, and White's last move wins for White.
//! `h#N` is 2N turns from Black's; `h#N.5` is 2N + 1 from White's. Lines that win
//! earlier (White's k-th move, k < N) are the short solutions. A turn is a side's moves
//! until the other side's: one move in every game but Underworld, where a side's turn is
//! its move on each active board of the round, a captured Underworld King's placement
//! by its owner included in the capturer's turn (RULES.md, `TurnGame::turn_owner`).
//!
//! Every turn of both sides is played, except where one of three exact rules says that
//! nothing below can be a solution:
//! - the table of proved failures: a state with the same turns left that had no line
//!   has none now (the same state has the same future);
//! - the game's bound (`TurnGame::help_hopeless`): the winner cannot win on the last of
//!   the turns left whatever both sides play (each game states why its bound is sound);
//! - the last turn plays only the moves that win at once (`TurnGame::winning_moves`,
//!   where the game finds them without playing every move).
//!
//! Lines are kept as moves while they are searched; a solution is written out (with its
//! notation) only when it is found, and handed to the caller at once.

use super::{End, TurnGame};
use crate::search::halt::Halt;
use crate::search::tt::Table;
use crate::types::Color;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A guide for help play (`TurnGame::help_guide`; for the single-board games the mate
/// plans of `search::help_plans`), followed along the line being searched. Its promise:
/// every line that wins on its last turn goes on with every move of it (`enter` refuses
/// a move only when no winning line plays it from the line so far), and `key` tells
/// apart the nodes where it would refuse differently.
pub trait HelpGuide<M> {
    /// Back at the root.
    fn restart(&mut self);
    /// Whether a winning line may go on with `mv` from the node entered last, `turns`
    /// turns left before it; the node after `mv` is entered when it may.
    fn enter(&mut self, mv: M, turns: u32) -> bool;
    /// Back to the node before the last move entered.
    fn leave(&mut self);
    /// Mixed into the table's key of the node entered last: a failure proved under the
    /// guide's refusals there holds only where it refuses alike.
    fn key(&self) -> u64;
}

/// Why a game gives help play no guide for one length (`TurnGame::help_guide`).
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum NoGuide {
    /// The game has none for this root and length; another length may have one.
    NotServed,
    /// The mates are too many to list from this root at this length, and so at every
    /// longer one (a longer line allows each side more moves: the listing only grows).
    /// Help play is exact without a guide, so this only spares listing them again.
    TooMany,
}

/// The search was stopped (time limit, interrupt or the most solutions asked for).
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct Stopped;

/// A help-mate's solutions, each the whole line (coordinates and notation).
#[derive(Clone, Debug, Default)]
pub struct HelpSolution {
    pub solutions: Vec<Vec<(String, String)>>,
    pub short: Vec<Vec<(String, String)>>,
    pub nodes: u64,
    /// Every line was searched: the solutions are all there are.
    pub complete: bool,
    /// The search stopped because it had found the most solutions asked for.
    pub capped: bool,
    /// The length (in turns) of the short solutions listed: the shortest that has any.
    /// Longer short lines are not searched: the shortest already cooks the problem.
    pub short_turns: Option<u32>,
    /// First moves searched to the end, of all (the last search's, when it stopped).
    pub first_moves_done: usize,
    pub first_moves: usize,
    /// The length in turns of the search those first moves belong to.
    pub searching_turns: u32,
}

/// What stops a help search, and how many solutions are wanted.
#[derive(Copy, Clone)]
pub struct HelpLimits<'a> {
    /// Ctrl-C.
    pub stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    /// Stop after this many solutions (short ones not counted); `None`: all.
    pub max_solutions: Option<usize>,
    /// Stop at the first short solution (a problem that has one is unsound whatever
    /// else it has: the generator's question).
    pub first_short_stops: bool,
    /// Give up (incomplete) past this many nodes: the generator's budget for a
    /// candidate; `None`: no budget.
    pub max_nodes: Option<u64>,
}

impl<'a> HelpLimits<'a> {
    /// Every solution, stopped only by `stop` and `deadline`.
    pub fn all(stop: &'a AtomicBool, deadline: Option<Instant>) -> HelpLimits<'a> {
        HelpLimits {
            stop,
            deadline,
            max_solutions: None,
            first_short_stops: false,
            max_nodes: None,
        }
    }
}

/// What a help search tells its caller while it runs.
pub enum HelpEvent<'a> {
    /// A solution (or, `short`, a short solution) has been proved.
    Found {
        line: &'a [(String, String)],
        short: bool,
    },
    /// Of the first moves of the line length being searched, `done` of `total` are
    /// searched to the end; `found` solutions so far.
    Progress {
        done: usize,
        total: usize,
        found: usize,
    },
}

/// The state of one search: the game, the winner, the table of failures and the line
/// being played.
struct Lines<'a, G: TurnGame> {
    game: &'a G,
    root: &'a G::State,
    winner: Color,
    table: &'a Table,
    /// Mixed into every key: entries of other searches never match.
    salt: u64,
    nodes: u64,
    limits: HelpLimits<'a>,
    /// Ctrl-C and the deadline, as every search reads them.
    halt: Halt<'a>,
    /// The moves from the root to the node being searched.
    path: Vec<G::Move>,
    found: usize,
    capped: bool,
    out: HelpSolution,
    events: &'a mut dyn FnMut(HelpEvent),
    /// The game's guide for this length, when it has one.
    guide: Option<Box<dyn HelpGuide<G::Move> + 'a>>,
    /// The shortest length whose mates were too many to list (`NoGuide::TooMany`):
    /// no longer one is listed again.
    too_many_from: Option<u32>,
}

/// A key per number of turns left, so that a failure is read only at its own length
/// (a line of n turns says nothing of n + 2).
fn turns_key(turns: u32) -> u64 {
    (turns as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The table's mark of a proved failure.
const FAILED: u8 = 1;

impl<'a, G: TurnGame> Lines<'a, G> {
    fn tick(&mut self) -> Result<(), Stopped> {
        self.nodes += 1;
        if self.nodes & 0x3FF == 0 {
            self.halt.poll();
        }
        if self.capped
            || self.halt.halted()
            || self.limits.max_nodes.is_some_and(|m| self.nodes > m)
        {
            return Err(Stopped);
        }
        Ok(())
    }

    /// The line of `path` then `last`, written out from the root.
    fn write_line(&self, last: G::Move) -> Vec<(String, String)> {
        let mut s = *self.root;
        let mut line = Vec::with_capacity(self.path.len() + 1);
        for &mv in self.path.iter().chain(std::iter::once(&last)) {
            line.push((self.game.coord(&s, mv), self.game.notation(&s, mv)));
            s = self.game.play(&s, mv);
        }
        line
    }

    /// A line found: handed to the caller and kept.
    fn record(&mut self, last: G::Move, short: bool) {
        let line = self.write_line(last);
        (self.events)(HelpEvent::Found { line: &line, short });
        if short {
            self.out.short.push(line);
            if self.limits.first_short_stops {
                self.capped = true;
            }
        } else {
            self.out.solutions.push(line);
            self.found += 1;
            if self.limits.max_solutions.is_some_and(|m| self.found >= m) {
                self.capped = true;
            }
        }
    }

    /// Every line of exactly `turns` turns from `s` that ends with `winner`'s win on its
    /// last turn and with no end before. Whether there was one.
    fn collect(&mut self, s: &G::State, turns: u32, short: bool) -> Result<bool, Stopped> {
        self.tick()?;
        if turns == 1 {
            return self.last_turn(s, short);
        }
        let guide_key = self.guide.as_ref().map_or(0, |g| g.key());
        let key = self.game.help_key(s, turns) ^ self.salt ^ turns_key(turns) ^ guide_key;
        if self.table.probe(key).is_some_and(|b| b.fail >= FAILED) {
            return Ok(false);
        }
        if self.guide.is_none() && self.game.help_hopeless(s, self.winner, turns) {
            self.table.store(key, None, Some(FAILED), 0);
            return Ok(false);
        }
        let mut found = false;
        for mv in self.game.moves(s) {
            found |= self.guided(s, mv, turns, short)?;
        }
        if !found {
            self.table.store(key, None, Some(FAILED), 0);
        }
        Ok(found)
    }

    /// `after`, when the guide lets a line go on with `mv`.
    fn guided(
        &mut self,
        s: &G::State,
        mv: G::Move,
        turns: u32,
        short: bool,
    ) -> Result<bool, Stopped> {
        let Some(guide) = self.guide.as_mut() else {
            return self.after(s, mv, turns, short);
        };
        if !guide.enter(mv, turns) {
            return Ok(false);
        }
        let below = self.after(s, mv, turns, short);
        if let Some(guide) = self.guide.as_mut() {
            guide.leave();
        }
        below
    }

    /// The lines that go on with `mv` from `s`, `turns` turns left before it.
    fn after(
        &mut self,
        s: &G::State,
        mv: G::Move,
        turns: u32,
        short: bool,
    ) -> Result<bool, Stopped> {
        let next = self.game.play(s, mv);
        // A move that leaves a choice to complete the turn (a King's placement), or
        // after which its side moves again (the Underworld's two boards), has not used
        // the turn up. A move that ends the game leaves a state without moves (the
        // trait's contract): nothing follows it, with no test of its own here.
        let left = if self.same_turn(s, &next) {
            turns
        } else {
            turns - 1
        };
        self.path.push(mv);
        let below = self.collect(&next, left, short);
        self.path.pop();
        below
    }

    /// Whether `next`, reached by a move from `s`, is still the same side's turn, the
    /// game not over: the side moves again (on Underworld a side's turn is its moves
    /// on both boards, rules.md 4.1), or the move left a choice that completes the
    /// turn (an Underworld King's placement, made by the other side, rules.md 4.8e).
    fn same_turn(&self, s: &G::State, next: &G::State) -> bool {
        self.game.turn_owner(next) == self.game.turn_owner(s) && self.game.end(next).is_none()
    }

    /// The last turn: the moves of the winner that win at once.
    fn last_turn(&mut self, s: &G::State, short: bool) -> Result<bool, Stopped> {
        if self.game.turn_owner(s) != self.winner {
            return Ok(false);
        }
        if let Some(wins) = self.game.winning_moves(s) {
            // Not one past the most solutions asked for.
            for &mv in &wins {
                if self.capped {
                    break;
                }
                self.record(mv, short);
            }
            return Ok(!wins.is_empty());
        }
        if self.game.help_hopeless(s, self.winner, 1) {
            return Ok(false);
        }
        let mut found = false;
        for mv in self.game.moves(s) {
            let next = self.game.play(s, mv);
            if self.same_turn(s, &next) {
                self.tick()?;
                self.path.push(mv);
                let below = self.last_turn(&next, short);
                self.path.pop();
                found |= below?;
            } else if !self.capped && self.game.end(&next) == Some(End::Win(self.winner)) {
                self.record(mv, short);
                found = true;
            }
        }
        Ok(found)
    }

    /// The lines of `turns` turns from the root, with progress over its first moves.
    fn search_root(&mut self, turns: u32, short: bool) -> Result<(), Stopped> {
        let root = *self.root;
        if turns == 1 {
            self.tick()?;
            self.last_turn(&root, short)?;
            return Ok(());
        }
        // The guide's plans depend on the length; its keys keep its nodes apart from
        // another length's.
        self.guide = self.guide_for(turns);
        let searched = self.search_first_moves(turns, short);
        self.guide = None;
        searched
    }

    /// The game's guide for lines of `turns` turns from the root, unless a shorter
    /// length already had too many mates to list.
    fn guide_for(&mut self, turns: u32) -> Option<Box<dyn HelpGuide<G::Move> + 'a>> {
        if self.too_many_from.is_some_and(|t| turns >= t) {
            return None;
        }
        match self.game.help_guide(self.root, self.winner, turns) {
            Ok(guide) => Some(guide),
            Err(NoGuide::NotServed) => None,
            Err(NoGuide::TooMany) => {
                self.too_many_from = Some(turns);
                None
            }
        }
    }

    /// The lines of `turns` turns from the root, with progress over the first moves.
    fn search_first_moves(&mut self, turns: u32, short: bool) -> Result<(), Stopped> {
        let root = *self.root;
        let moves = self.game.moves(&root);
        self.out.searching_turns = turns;
        self.out.first_moves = moves.len();
        self.out.first_moves_done = 0;
        for (i, &mv) in moves.iter().enumerate() {
            (self.events)(HelpEvent::Progress {
                done: i,
                total: moves.len(),
                found: self.found,
            });
            if let Some(guide) = self.guide.as_mut() {
                guide.restart();
            }
            self.guided(&root, mv, turns, short)?;
            self.out.first_moves_done = i + 1;
        }
        (self.events)(HelpEvent::Progress {
            done: moves.len(),
            total: moves.len(),
            found: self.found,
        });
        Ok(())
    }
}

/// The solutions of a help-mate of `turns` turns from `root` (whose side to move moves
/// first), won by `winner`; `short_turns`: the shorter lengths whose lines are short
/// solutions, searched first. `table` keeps the proved failures (salted for this search).
/// `events` hears of each solution as it is proved and of the progress over the first
/// moves.
#[allow(clippy::too_many_arguments)]
pub fn solve_help_with<G: TurnGame>(
    game: &G,
    root: &G::State,
    winner: Color,
    turns: u32,
    short_turns: &[u32],
    table: &Table,
    limits: HelpLimits,
    events: &mut dyn FnMut(HelpEvent),
) -> HelpSolution {
    let mut lines = Lines {
        game,
        root,
        winner,
        table,
        salt: table.new_search(),
        nodes: 0,
        limits,
        halt: Halt::new(limits.stop, limits.deadline),
        path: Vec::new(),
        found: 0,
        capped: false,
        out: HelpSolution::default(),
        events,
        guide: None,
        too_many_from: None,
    };
    let mut complete = true;
    let mut shorter: Vec<u32> = short_turns
        .iter()
        .copied()
        .filter(|&t| t > 0 && t < turns)
        .collect();
    shorter.sort_unstable();
    for t in shorter {
        if lines.search_root(t, true).is_err() {
            complete = false;
            break;
        }
        if !lines.out.short.is_empty() {
            lines.out.short_turns = Some(t);
            break;
        }
    }
    if complete && turns > 0 && lines.search_root(turns, false).is_err() {
        complete = false;
    }
    let mut out = std::mem::take(&mut lines.out);
    out.nodes = lines.nodes;
    out.capped = lines.capped;
    out.complete = complete;
    out.solutions.sort();
    out.short.sort();
    out
}

/// `solve_help_with` for every solution, stopped only by `stop` and `deadline`, told
/// nothing while it runs.
#[allow(clippy::too_many_arguments)]
pub fn solve_help<G: TurnGame>(
    game: &G,
    root: &G::State,
    winner: Color,
    turns: u32,
    short_turns: &[u32],
    table: &Table,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> HelpSolution {
    solve_help_with(
        game,
        root,
        winner,
        turns,
        short_turns,
        table,
        HelpLimits::all(stop, deadline),
        &mut |_| {},
    )
}
