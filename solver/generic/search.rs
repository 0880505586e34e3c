//! The exhaustive AND/OR proof for any `TurnGame`: the attacker wins within N rounds
//! when some move of its wins and every move of the defender loses, to the end of the
//! game or of the N-th round. Nothing is pruned by judgement: every move of both sides
//! is played. What is proved is kept in the transposition table as bounds (won within
//! n, not won within n), which are monotone in n and so safe to share between depths.

use super::{End, TurnGame};
use crate::search::halt::Halt;
use crate::search::nodes::NodeCounter;
use crate::search::solution::{alone_then_shared, SolveOptions};
use crate::search::tt::{Bounds, Table};
use crate::types::Color;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The search was stopped (time limit or interrupt) before it finished.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub struct Stopped;

type Proof<T> = Result<T, Stopped>;

/// A move of the solution tree: an attacker's move with the defences to it, or a
/// defence with the attacker's continuations that win soonest (more than one: duals).
#[derive(Clone, Debug)]
pub struct Line {
    pub coord: String,
    pub notation: String,
    pub mover: Color,
    /// Rounds (this one included) within which the attacker wins after this move.
    pub wins_in: u32,
    /// The move ends the game.
    pub ends: bool,
    /// The next move begins a new round (the children are one round later).
    pub round_ends: bool,
    pub children: Vec<Line>,
    /// Part of the tree below was left out (the tree's size budget ran out).
    pub truncated: bool,
    /// On an attacker's move: what the attacker threatens if the defender could pass
    /// (its moves that win soonest then; empty: nothing, a zugzwang). `None` when no
    /// threat is sought: the defender is in check, the game has no pass, the move ends
    /// the game or leaves one round only.
    pub threat: Option<Vec<Line>>,
    /// Each side's cash after the move, where the game keeps money (Taxi).
    pub cash: Option<[u32; 2]>,
    /// The mover's own king fell with this move (Trapdoor).
    pub king_fell: bool,
}

#[derive(Clone, Debug)]
pub struct CoreTry {
    pub coord: String,
    pub notation: String,
    /// Each refutation in coordinates and notation.
    pub refutations: Vec<(String, String)>,
}

/// What `solve` proved.
#[derive(Clone, Debug)]
pub struct CoreSolution {
    pub stipulation: u32,
    /// Every first move that wins within the stipulation: coordinates, notation, and
    /// the fewest rounds it wins in.
    pub keys: Vec<(String, String, u32)>,
    pub trees: Vec<Line>,
    pub tries: Vec<CoreTry>,
    /// First moves not decided before the search was stopped.
    pub unresolved: Vec<String>,
    /// Keys proved, but the tries or trees were cut short by a limit.
    pub cut_short: bool,
    pub nodes: u64,
    pub elapsed: Duration,
    pub threads: usize,
}

impl CoreSolution {
    pub fn complete(&self) -> bool {
        self.unresolved.is_empty()
    }
    pub fn finished(&self) -> bool {
        self.complete() && !self.cut_short
    }
    pub fn shortest(&self) -> Option<u32> {
        self.keys.iter().map(|k| k.2).min()
    }
    pub fn cooked(&self) -> bool {
        self.keys.len() > 1
    }
}

/// What the attacker forces (rules.md 8).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// `#N`: the attacker wins (mate, a king's fall or capture, as the game says).
    Win,
    /// `s#N`: the defender wins, by a move of its own; any end the attacker's move brings
    /// about fulfils nothing (8.3).
    SelfLoss,
}

/// Refutation memory of one line of search: per rounds left and side, the move that
/// decided the last such node (a win for the attacker, a refutation for the defender).
/// The same defence refutes most of an attacker's tries, and the same attack answers
/// most defences: tried right after the table's hint, it decides many nodes at once.
struct Killers<M, S> {
    moves: [Option<M>; 64],
    /// Move lists given back by the nodes that are done, for the next ones to fill:
    /// a node of the defender's takes one at every visit.
    buffers: Vec<Vec<M>>,
    /// The same for the lists of states an attacker's node plays ahead.
    states: Vec<Vec<(S, u32)>>,
}

impl<M: Copy, S> Killers<M, S> {
    fn new() -> Killers<M, S> {
        Killers {
            moves: [None; 64],
            buffers: Vec::new(),
            states: Vec::new(),
        }
    }

    fn slot(n: u32, attacking: bool) -> usize {
        (n as usize & 31) * 2 + usize::from(attacking)
    }
}

/// One proof search: the game, the attacker, the goal, the table and the limits.
pub struct Prover<'a, G: TurnGame> {
    game: &'a G,
    attacker: Color,
    goal: Goal,
    table: &'a Table,
    /// Salt of this search's table keys (entries of other searches never match).
    salt: u64,
    /// Ctrl-C, the deadline and the hand-over to more threads.
    halt: Halt<'a>,
    nodes: NodeCounter,
    /// The nodes after which the search gives up (`SolveOptions::max_nodes`), counted
    /// on each thread.
    max_nodes: u64,
}

impl<'a, G: TurnGame> Prover<'a, G> {
    pub fn new(
        game: &'a G,
        attacker: Color,
        goal: Goal,
        table: &'a Table,
        stop: &'a AtomicBool,
        deadline: Option<Instant>,
    ) -> Prover<'a, G> {
        Prover {
            game,
            attacker,
            goal,
            table,
            salt: table.new_search() ^ (attacker as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            halt: Halt::new(stop, deadline),
            nodes: NodeCounter::default(),
            max_nodes: u64::MAX,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.total()
    }

    fn check_limits(&self) -> Proof<()> {
        let count = self.nodes.count();
        if count & 0x3FF == 0 {
            self.halt.poll();
        }
        // A thread's own count: the generator's searches run on one thread.
        if count >= self.max_nodes {
            self.halt.give_up();
        }
        if self.halt.halted() {
            return Err(Stopped);
        }
        Ok(())
    }

    /// The state after `mv` and the rounds left there, or how the game ended.
    fn after(&self, s: &G::State, mv: G::Move, n: u32) -> Result<(G::State, u32), Option<End>> {
        let next = self.game.play(s, mv);
        let left = self.rounds_left(s, &next, n);
        Self::goes_on(self.game.end(&next), next, left)
    }

    /// The rounds left at `next`, reached from `s` with `n` left.
    fn rounds_left(&self, s: &G::State, next: &G::State, n: u32) -> u32 {
        if self.game.new_round(s, next) {
            n - 1
        } else {
            n
        }
    }

    /// `next` with its rounds left if the play goes on there: not when the game has
    /// ended (`end`), nor when the rounds are spent (`Err(None)`).
    fn goes_on(
        end: Option<End>,
        next: G::State,
        left: u32,
    ) -> Result<(G::State, u32), Option<End>> {
        if end.is_some() {
            return Err(end);
        }
        if left == 0 {
            return Err(None);
        }
        Ok((next, left))
    }

    /// Whether playing `mv` in `s` (n rounds left, this one included) leads to the
    /// attacker's win within them.
    pub fn move_wins(&self, s: &G::State, mv: G::Move, n: u32) -> Proof<bool> {
        self.move_wins_with(s, mv, n, &mut Killers::new())
    }

    fn move_wins_with(
        &self,
        s: &G::State,
        mv: G::Move,
        n: u32,
        k: &mut Killers<G::Move, G::State>,
    ) -> Proof<bool> {
        let next = self.game.play(s, mv);
        let left = self.rounds_left(s, &next, n);
        // The table's line is fetched while the game looks at the state's end.
        self.prefetch(&next, left);
        self.reached_wins(s, &next, left, k)
    }

    /// Fetches the table's line of `next` (with `left` rounds left) if it is kept there.
    fn prefetch(&self, next: &G::State, left: u32) {
        if self.tabled(self.game.mover(next) == self.attacker, left) {
            self.table.prefetch(self.game.key(next) ^ self.salt);
        }
    }

    /// The attacker's last turn, where the game lists its candidates for the goal
    /// (`TurnGame::self_mate_candidates`, `TurnGame::mate_candidates`): whether one
    /// wins. `None`: not such a node, or every move is to be tried.
    fn last_turn_leaf(
        &self,
        s: &G::State,
        attacking: bool,
        n: u32,
        k: &mut Killers<G::Move, G::State>,
    ) -> Option<Proof<bool>> {
        if !(attacking && n == 1) {
            return None;
        }
        let moves = match self.goal {
            Goal::SelfLoss => self.game.self_mate_candidates(s)?,
            Goal::Win => self.game.mate_candidates(s)?,
        };
        Some(self.last_attacking_move(s, moves, k))
    }

    /// What the table's bounds `b` prove for a state with `n` rounds left: a win, no
    /// win, or nothing.
    fn decided_by(b: Bounds, n: u32) -> Option<bool> {
        if b.win as u32 <= n {
            Some(true)
        } else if b.fail as u32 >= n {
            Some(false)
        } else {
            None
        }
    }

    /// Whether the state `next`, reached by a move from `s` with `left` rounds left
    /// there, leads to the attacker's win within them.
    fn reached_wins(
        &self,
        s: &G::State,
        next: &G::State,
        left: u32,
        k: &mut Killers<G::Move, G::State>,
    ) -> Proof<bool> {
        // The defender's last turn, and it has a move after which nobody wins in this
        // round (`TurnGame::quiet_move`): the rounds run out, and the defender holds,
        // against `#N` and `s#N` alike. Whether the game ended needs no asking: a side
        // with a legal move is not mated.
        let attacking = self.game.mover(next) == self.attacker;
        if left == 1 && !attacking {
            if let Some(quiet) = self.game.quiet_move(next) {
                self.check_limits()?;
                debug_assert!({
                    let after = self.game.play(next, quiet);
                    !matches!(self.game.end(&after), Some(End::Win(_)))
                });
                return Ok(false);
            }
        }
        // The attacker's last turn: where the game lists candidates the game goes on,
        // or the attacker is stalemated and its list is empty (a draw, no win), or no
        // move of its can reach the goal (an empty list too): its end needs no asking.
        if let Some(won) = self.last_turn_leaf(next, attacking, left, k) {
            return won;
        }
        // A state the table decides needs no look at its end either: the table holds
        // only states whose game went on (`wins_with` is never asked about another).
        if left > 0 && self.tabled(attacking, left) {
            let key = self.game.key(next) ^ self.salt;
            let probed = self.table.probe(key);
            if let Some(won) = probed.and_then(|b| Self::decided_by(b, left)) {
                return Ok(won);
            }
            // Not decided: the node is searched at once, with the hint the probe gave.
            // Its move list tells whether the game ended (a state where it did has no
            // move), so the end is asked only of a state without one.
            self.check_limits()?;
            let hint = probed.map_or(0, |b| b.hint as usize);
            return self.search_node(Some(s), next, left, k, Some(key), hint);
        }
        // The state is read where it lies: a state is as large as a board, and most
        // nodes are reached from a list of them.
        let end = self.game.end(next);
        if end.is_some() || left == 0 {
            return Ok(self.fulfils(s, end));
        }
        self.wins_with(next, left, k)
    }

    /// Whether a state with `n` rounds left is kept in the table. The defender's last
    /// turn is decided by its first move that does not end the game as the goal asks,
    /// mostly its first move, and the attacker's last move of a self-mate by a few
    /// moves left by `TurnGame::self_mate_candidates`: working either out again costs
    /// less than the cache miss of a probe. The attacker's last turn of `#N` is kept
    /// (where the game lists `TurnGame::mate_candidates` it is decided by them first,
    /// and not kept).
    fn tabled(&self, attacking: bool, n: u32) -> bool {
        n > 1 || (attacking && self.goal == Goal::Win)
    }

    /// Whether the game's end `end`, brought about by a move from `s`, is the goal. A
    /// self-mate is the defender's win by a turn of its own (rules.md 8.3): the turn's,
    /// not the mover's (an Underworld King's placement by its owner belongs to the
    /// capturer's turn, rules.md 4.8e).
    fn fulfils(&self, s: &G::State, end: Option<End>) -> bool {
        match self.goal {
            Goal::Win => end == Some(End::Win(self.attacker)),
            Goal::SelfLoss => {
                let defender = !self.attacker;
                self.game.turn_owner(s) == defender && end == Some(End::Win(defender))
            }
        }
    }

    /// Whether the attacker wins within `n` rounds from `s` (the game not over).
    pub fn wins(&self, s: &G::State, n: u32) -> Proof<bool> {
        self.wins_with(s, n, &mut Killers::new())
    }

    fn wins_with(&self, s: &G::State, n: u32, k: &mut Killers<G::Move, G::State>) -> Proof<bool> {
        self.check_limits()?;
        let attacking = self.game.mover(s) == self.attacker;
        let tabled = self.tabled(attacking, n);
        let key = if tabled {
            self.game.key(s) ^ self.salt
        } else {
            0
        };
        let mut hint = 0usize;
        if let Some(b) = tabled.then(|| self.table.probe(key)).flatten() {
            if let Some(won) = Self::decided_by(b, n) {
                return Ok(won);
            }
            hint = b.hint as usize;
        }
        if let Some(won) = self.last_turn_leaf(s, attacking, n, k) {
            return won;
        }
        self.search_node(None, s, n, k, tabled.then_some(key), hint)
    }

    /// The search of `s` (`n` rounds left, reached by a move from `parent`, if known)
    /// once the table had nothing to decide it: its moves tried in order until one
    /// decides, what was proved kept under `key` if it is tabled. `hint` is the index
    /// of the move that decided it last time. A state without a move is a game's end,
    /// judged as the move from `parent` brought it about (with no parent: nothing is
    /// proved won).
    fn search_node(
        &self,
        parent: Option<&G::State>,
        s: &G::State,
        n: u32,
        k: &mut Killers<G::Move, G::State>,
        key: Option<u64>,
        mut hint: usize,
    ) -> Proof<bool> {
        let attacking = self.game.mover(s) == self.attacker;
        // Most of the defender's nodes are refuted by the move tried first, the first
        // listed where the table gives no hint: where the game finds it alone, it is
        // tried before the others are listed.
        let mut tried = None;
        if !attacking && hint == 0 {
            if let Some(first) = self.game.first_move(s) {
                if !self.move_wins_with(s, first, n, k)? {
                    if let Some(key) = key {
                        self.table.store(key, None, Some(n as u8), 0);
                    }
                    return Ok(false);
                }
                tried = Some(first);
            }
        }
        let mut moves = k.buffers.pop().unwrap_or_default();
        self.game.moves_into(s, &mut moves);
        if moves.is_empty() {
            k.buffers.push(moves);
            let end = parent.and_then(|p| self.game.end(s).map(|e| (p, e)));
            return Ok(end.is_some_and(|(p, e)| self.fulfils(p, Some(e))));
        }
        // The move that decided this state last time (won, or refuted) first, then the
        // one that decided the last node of this kind (`Killers`). A hint beyond the
        // list (another state behind the same key) orders nothing. Ordering only:
        // every move is still tried until one decides.
        if hint >= moves.len() {
            hint = 0;
        }
        let slot = Killers::<G::Move, G::State>::slot(n, attacking);
        let killer = k.moves[slot]
            .and_then(|m| moves.iter().position(|&x| x == m))
            .filter(|&i| i != hint);
        let tried = tried.and_then(|m| moves.iter().position(|&x| x == m));
        let order = std::iter::once(hint)
            .chain(killer)
            .chain((0..moves.len()).filter(|&i| i != hint && Some(i) != killer))
            .filter(|&i| Some(i) != tried);
        // At the attacker's node, most of which fail and so try every move, the states
        // after all the moves come first, each one's table line fetched: the probes of
        // the defender's nodes then wait on memory together, not one after another.
        let mut played = k.states.pop().unwrap_or_default();
        if attacking && n > 1 {
            for &mv in moves.iter() {
                played.push((*s, n));
                let (next, left) = played.last_mut().expect("just pushed");
                self.game.play_in_place(next, mv);
                *left = self.rounds_left(s, next, n);
                self.prefetch(next, *left);
            }
        }
        let mut decided = None;
        for i in order {
            // A move that wins for the attacker decides its node; a defence that does
            // not lose decides the defender's.
            // (A search cut short leaves its lists to the allocator.)
            let wins = match played.get(i) {
                Some((next, left)) => self.reached_wins(s, next, *left, k)?,
                None => self.move_wins_with(s, moves[i], n, k)?,
            };
            if wins == attacking {
                decided = Some(i);
                break;
            }
        }
        played.clear();
        k.states.push(played);
        let won = match decided {
            Some(_) => attacking,
            None => !attacking,
        };
        if let Some(i) = decided {
            k.moves[slot] = Some(moves[i]);
        }
        let hint = decided.map_or(0, |i| i.min(u16::MAX as usize) as u16);
        moves.clear();
        k.buffers.push(moves);
        match key {
            None => {}
            Some(key) if won => self.table.store(key, Some(n as u8), None, hint),
            Some(key) => self.table.store(key, None, Some(n as u8), hint),
        }
        Ok(won)
    }

    /// The attacker's last turn from `s`, among `moves`: only those after which the goal
    /// may be reached in the round (`TurnGame::self_mate_candidates`,
    /// `TurnGame::mate_candidates`; the others fail). Whether one of them forces it;
    /// the node is not kept in the table.
    fn last_attacking_move(
        &self,
        s: &G::State,
        moves: Vec<G::Move>,
        k: &mut Killers<G::Move, G::State>,
    ) -> Proof<bool> {
        self.check_limits()?;
        let slot = Killers::<G::Move, G::State>::slot(1, true);
        let killer = k.moves[slot].and_then(|m| moves.iter().position(|&x| x == m));
        let order = killer
            .into_iter()
            .chain((0..moves.len()).filter(|&i| Some(i) != killer));
        for i in order {
            if self.move_wins_with(s, moves[i], 1, k)? {
                k.moves[slot] = Some(moves[i]);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The fewest rounds (up to `n`) within which `mv` wins from `s`, if it does.
    fn fewest_rounds(&self, s: &G::State, mv: G::Move, n: u32) -> Proof<Option<u32>> {
        let mut k = Killers::new();
        for d in 1..=n {
            if self.move_wins_with(s, mv, d, &mut k)? {
                return Ok(Some(d));
            }
        }
        Ok(None)
    }

    /// The attacker's moves from `s` that win soonest within `n`, with their rounds.
    fn best_moves(&self, s: &G::State, n: u32) -> Proof<(u32, Vec<G::Move>)> {
        let moves = self.game.moves(s);
        let mut k = Killers::new();
        for d in 1..=n {
            let mut winners = Vec::new();
            for &mv in &moves {
                if self.move_wins_with(s, mv, d, &mut k)? {
                    winners.push(mv);
                }
            }
            if !winners.is_empty() {
                return Ok((d, winners));
            }
        }
        Ok((0, Vec::new()))
    }

    /// The tree below `mv` from `s` (the attacker's move winning within `n`, or a
    /// defence with `n` rounds left).
    fn tree(&self, s: &G::State, mv: G::Move, n: u32, budget: &mut usize) -> Proof<Line> {
        *budget = budget.saturating_sub(1);
        let next = self.game.play(s, mv);
        let mut line = self.bare_line(s, mv, &next, n);
        let left = self.rounds_left(s, &next, n);
        match Self::goes_on(self.game.end(&next), next, left) {
            Err(_) => line.ends = true,
            Ok(_) if *budget == 0 => line.truncated = true,
            Ok((next, left)) => {
                line.round_ends = left < n;
                if line.mover == self.attacker && self.game.mover(&next) != self.attacker {
                    line.threat = self.threat(&next, left)?;
                }
                line.children = self.children(&next, left, budget)?;
                // A defence lasts as long as the attacker's quickest win after it (the
                // rounds it was given are only a bound).
                if line.mover != self.attacker {
                    if let Some(most) = line.children.iter().map(|c| c.wins_in).max() {
                        line.wins_in = n - left + most;
                    }
                }
            }
        }
        Ok(line)
    }

    /// `mv` from `s` (leading to `after`) as a line of the tree, with nothing below it.
    fn bare_line(&self, s: &G::State, mv: G::Move, after: &G::State, n: u32) -> Line {
        Line {
            coord: self.game.coord(s, mv),
            notation: self.game.notation(s, mv),
            mover: self.game.mover(s),
            wins_in: n,
            ends: false,
            round_ends: false,
            children: Vec::new(),
            truncated: false,
            threat: None,
            cash: self.game.cash(after),
            king_fell: self.game.king_fell(after),
        }
    }

    /// What the attacker threatens in `s` (the defender to move, `n` rounds left) if
    /// the defender could pass: its moves that win soonest within the rounds after this
    /// one. `None` where no threat is sought (see `Line::threat`).
    fn threat(&self, s: &G::State, n: u32) -> Proof<Option<Vec<Line>>> {
        if n < 2 {
            return Ok(None);
        }
        let Some(passed) = self.game.threat_state(s) else {
            return Ok(None);
        };
        let (d, winners) = self.best_moves(&passed, n - 1)?;
        Ok(Some(
            winners
                .into_iter()
                .map(|w| {
                    let after = self.game.play(&passed, w);
                    let mut line = self.bare_line(&passed, w, &after, d);
                    line.ends = self.game.end(&after).is_some();
                    line
                })
                .collect(),
        ))
    }

    /// What follows in the tree from `s` (`n` rounds left): the attacker's moves that win
    /// soonest (more than one: duals), or every defence. A side may move twice in a row
    /// (two boards): the levels follow the movers, not a fixed alternation.
    fn children(&self, s: &G::State, n: u32, budget: &mut usize) -> Proof<Vec<Line>> {
        let mut out = Vec::new();
        if self.game.mover(s) == self.attacker {
            let (d, winners) = self.best_moves(s, n)?;
            for w in winners {
                out.push(self.tree(s, w, d, budget)?);
            }
        } else {
            for d in self.game.moves(s) {
                out.push(self.tree(s, d, n, budget)?);
            }
        }
        Ok(out)
    }

    /// Defences to `mv` after which the attacker does not win within `n`: at most
    /// `limit` + 1 (enough to tell a try). `None` when the move is not answered by the
    /// defender (the game ends, or the attacker moves again).
    fn refutations(
        &self,
        s: &G::State,
        mv: G::Move,
        n: u32,
        limit: usize,
    ) -> Proof<Option<Vec<(String, String)>>> {
        let Ok((next, left)) = self.after(s, mv, n) else {
            return Ok(None);
        };
        if self.game.mover(&next) == self.attacker {
            return Ok(None);
        }
        let mut out = Vec::new();
        let mut k = Killers::new();
        for d in self.game.moves(&next) {
            if !self.move_wins_with(&next, d, left, &mut k)? {
                out.push((self.game.coord(&next, d), self.game.notation(&next, d)));
                if out.len() > limit {
                    break;
                }
            }
        }
        Ok(Some(out))
    }
}

/// Proves `#n` from `root` for its side to move: every key, the tries, the tree.
pub fn solve<G: TurnGame>(
    game: &G,
    table: &Table,
    root: &G::State,
    n: u32,
    opts: &SolveOptions,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> CoreSolution {
    solve_for(game, Goal::Win, table, root, n, opts, stop, progress)
}

/// Proves that the side to move of `root` forces `goal` within `n` rounds (`#n`, or
/// `s#n`): every key, the tries, the tree.
#[allow(clippy::too_many_arguments)]
pub fn solve_for<G: TurnGame>(
    game: &G,
    goal: Goal,
    table: &Table,
    root: &G::State,
    n: u32,
    opts: &SolveOptions,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> CoreSolution {
    let start = Instant::now();
    let attacker = game.mover(root);
    let mut prover = Prover::new(
        game,
        attacker,
        goal,
        table,
        stop,
        opts.time_limit.map(|d| start + d),
    );
    prover.max_nodes = opts.max_nodes.unwrap_or(u64::MAX);
    let roots = game.moves(root);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let keys_found = std::sync::atomic::AtomicUsize::new(0);
    let one_root = |&mv: &G::Move| {
        if opts
            .stop_at_keys
            .is_some_and(|k| keys_found.load(Ordering::Relaxed) >= k)
        {
            // Enough keys to answer what was asked: the move stays unresolved.
            return Err(Stopped);
        }
        let r = prover.fewest_rounds(root, mv, n);
        if let Ok(Some(_)) = r {
            keys_found.fetch_add(1, Ordering::Relaxed);
        }
        if r.is_ok() {
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, roots.len());
        }
        r
    };
    // On this thread alone until `opts.solo_time` from the start (most problems are solved
    // by then); the first moves left then go to every thread, the one cut short taken
    // up again from what it proved, kept in the table.
    let threads = opts.threads.max(1);
    let (verdicts, shared) = alone_then_shared(
        &prover.halt,
        (threads > 1).then(|| start + opts.solo_time),
        threads,
        &roots,
        one_root,
        one_root,
        |r| r.is_err(),
    );
    let mut keys = Vec::new();
    let mut failed = Vec::new();
    let mut unresolved = Vec::new();
    for (&mv, verdict) in roots.iter().zip(&verdicts) {
        match verdict {
            Ok(Some(w)) => keys.push((mv, *w)),
            Ok(None) => failed.push(mv),
            Err(_) => unresolved.push(game.coord(root, mv)),
        }
    }
    let mut cut_short = false;
    let mut tries = Vec::new();
    if opts.tries && unresolved.is_empty() {
        for &mv in &failed {
            match prover.refutations(root, mv, n, opts.max_refutations) {
                Ok(Some(refs)) if !refs.is_empty() && refs.len() <= opts.max_refutations => tries
                    .push(CoreTry {
                        coord: game.coord(root, mv),
                        notation: game.notation(root, mv),
                        refutations: refs,
                    }),
                Ok(_) => {}
                Err(_) => {
                    cut_short = true;
                    break;
                }
            }
        }
    }
    let mut trees = Vec::new();
    if opts.tree && unresolved.is_empty() {
        for &(mv, w) in &keys {
            let mut budget = opts.tree_budget;
            match prover.tree(root, mv, w, &mut budget) {
                Ok(line) => trees.push(line),
                Err(_) => {
                    cut_short = true;
                    break;
                }
            }
        }
    }
    CoreSolution {
        stipulation: n,
        keys: keys
            .iter()
            .map(|&(mv, w)| (game.coord(root, mv), game.notation(root, mv), w))
            .collect(),
        trees,
        tries,
        unresolved,
        cut_short,
        nodes: prover.nodes(),
        elapsed: start.elapsed(),
        threads: if shared { threads } else { 1 },
    }
}

/// Set play (rules.md 8.4): the diagram `root` as if the defender were to move; for each
/// of its moves, the attacker's moves that force `goal` within `n` - 1 from there (none:
/// the defence is unprovided). `None` when the game has no such reading of a diagram.
pub fn set_play<G: TurnGame>(
    game: &G,
    goal: Goal,
    table: &Table,
    root: &G::State,
    n: u32,
    stop: &AtomicBool,
    deadline: Option<Instant>,
) -> Option<Result<Vec<SetDefence>, Stopped>> {
    let attacker = game.mover(root);
    let set = game.other_side_to_move(root)?;
    let prover = Prover::new(game, attacker, goal, table, stop, deadline);
    let run = || -> Result<Vec<SetDefence>, Stopped> {
        let mut out = Vec::new();
        for d in game.moves(&set) {
            let after = game.play(&set, d);
            let end = game.end(&after);
            let mut replies = Vec::new();
            if end.is_none() && n > 1 {
                for m in game.moves(&after) {
                    if prover.move_wins(&after, m, n - 1)? {
                        replies.push((game.coord(&after, m), game.notation(&after, m)));
                    }
                }
            }
            out.push(SetDefence {
                coord: game.coord(&set, d),
                notation: game.notation(&set, d),
                replies,
                fulfils: goal == Goal::SelfLoss && end == Some(End::Win(!attacker)),
            });
        }
        Ok(out)
    };
    Some(run())
}

/// A defence of the set play with the attacker's set replies.
#[derive(Clone, Debug)]
pub struct SetDefence {
    pub coord: String,
    pub notation: String,
    pub replies: Vec<(String, String)>,
    /// The set move itself fulfils the stipulation: under `s#N` it wins for the
    /// defender at once (rules.md 8.4), and needs no reply.
    pub fulfils: bool,
}
