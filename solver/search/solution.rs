//! Solving a problem: every key (so cooks and short solutions show), the tries with
//! their refutations, and the solution tree composers read (threat, defences, the
//! attacker's continuations with duals).

use super::halt::{Halt, SOLO_TIME};
use super::tt::Table;
use super::{Killers, Limits, SearchResult, Searcher};
use crate::game::{Game, Outcome, Played};
use crate::geometry::Terrain;
use crate::moves::Move;
use crate::position::Position;
use crate::san;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub threads: usize,
    /// List tries: failing first moves with at most `max_refutations` refutations.
    pub tries: bool,
    pub max_refutations: usize,
    pub time_limit: Option<Duration>,
    /// Build the solution tree (threat, defences, continuations) for each key.
    pub tree: bool,
    /// Most nodes printed in one solution tree; deeper lines are cut with a mark.
    pub tree_budget: usize,
    /// How long a search of more threads than one runs on its first thread alone
    /// (`halt::SOLO_TIME`; tests set other values to hand over at other moments).
    pub solo_time: Duration,
    /// Leave the first moves unresolved once this many keys are proved (`None`: every
    /// first move decided). A generator asking whether a problem has one key only
    /// learns enough from a second one; the solution is then incomplete, never wrong.
    pub stop_at_keys: Option<usize>,
    /// Give the search up (incomplete, never wrong) once a thread of it has visited more
    /// nodes than this: a generator's candidate too costly to prove is dropped, not
    /// handed out. Obeyed by the two-board core (`generic::search::solve_for`), as
    /// `stop_at_keys` is.
    pub max_nodes: Option<u64>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 1,
            tries: false,
            max_refutations: 1,
            time_limit: None,
            tree: true,
            tree_budget: 1500,
            solo_time: SOLO_TIME,
            stop_at_keys: None,
            max_nodes: None,
        }
    }
}

/// An attacking move in the solution tree.
#[derive(Clone, Debug)]
pub struct AttackNode {
    pub mv: Move,
    pub san: String,
    /// Attacker moves (this one included) within which it wins.
    pub wins_in: u32,
    /// What the attacker threatens if the defender could pass (`None` when the defender
    /// is in check or nothing is threatened).
    pub threat: Vec<AttackNode>,
    pub defences: Vec<DefenceNode>,
    /// The move ends the game at once (mate before any fall, or a mate).
    pub mates: bool,
    /// Taxi: White's and Black's cash after the move (the opponent's income included).
    pub cash: Option<[u32; 2]>,
    /// Part of the tree below was left out (budget).
    pub truncated: bool,
}

#[derive(Clone, Debug)]
pub struct DefenceNode {
    pub mv: Move,
    pub san: String,
    /// The defender's own king fell with this move.
    pub king_fell: bool,
    /// Taxi: White's and Black's cash after the move.
    pub cash: Option<[u32; 2]>,
    /// The continuations were left out (the tree's size budget ran out).
    pub truncated: bool,
    /// Attacker continuations that win soonest after this defence (more than one: a dual).
    pub continuations: Vec<AttackNode>,
}

#[derive(Clone, Debug)]
pub struct Try {
    pub mv: Move,
    pub san: String,
    pub refutations: Vec<(Move, String)>,
}

#[derive(Clone, Debug)]
pub struct Solution {
    pub stipulation: u32,
    /// Every first move that wins within the stipulation, with its shortest win.
    pub keys: Vec<(Move, u32)>,
    pub trees: Vec<AttackNode>,
    pub tries: Vec<Try>,
    /// First moves the search could not decide before it was stopped.
    pub unresolved: Vec<Move>,
    /// The keys are proved, but the time limit or an interrupt stopped the tries or the
    /// solution tree: what is listed of them is partial.
    pub cut_short: bool,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Threads of the key search: one for a #1 or #2 whatever was asked (a search of
    /// well under a millisecond gains nothing from more).
    pub threads: usize,
}

impl Solution {
    /// Every first move decided: the key set is proved.
    pub fn complete(&self) -> bool {
        self.unresolved.is_empty()
    }
    /// Everything asked for was done: keys, and the tries and trees when asked.
    pub fn finished(&self) -> bool {
        self.complete() && !self.cut_short
    }
    pub fn shortest(&self) -> Option<u32> {
        self.keys.iter().map(|&(_, n)| n).min()
    }
    pub fn cooked(&self) -> bool {
        self.keys.len() > 1
    }
}

/// Each side's cash in `pos`, under Taxi rules.
impl AttackNode {
    /// `mv`, played from `pos` with result `played`, winning within `wins_in`, with
    /// nothing below it yet; `mates` when the move ends the game at once.
    fn bare<T: Terrain>(
        game: &Game<T>,
        pos: &Position,
        mv: Move,
        played: &Played,
        wins_in: u32,
    ) -> AttackNode {
        AttackNode {
            mv,
            san: san::san_played(game, pos, mv, played),
            wins_in,
            threat: Vec::new(),
            defences: Vec::new(),
            mates: played.outcome == Some(Outcome::Mate),
            cash: cash(game, &played.position),
            truncated: false,
        }
    }
}

fn cash<T: Terrain>(game: &Game<T>, pos: &Position) -> Option<[u32; 2]> {
    game.rules.taxi.map(|_| {
        [
            pos.cash(crate::types::Color::White),
            pos.cash(crate::types::Color::Black),
        ]
    })
}

/// What the root rounds of `solve` know of a first move.
#[derive(Copy, Clone)]
enum Verdict {
    /// Not decided yet: no win found at the depths tried so far.
    Open,
    /// No win within the full depth.
    Refuted,
    /// Wins in this many moves (the fewest).
    WinsIn(u32),
}

/// Solves `#n` for the side to move. `progress` is called as each first move is
/// decided (a key, or refuted at the full depth).
pub fn solve<T: Terrain>(
    game: &Game<T>,
    table: &Table,
    pos: &Position,
    n: u32,
    opts: &SolveOptions,
    stop: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Solution {
    let start = Instant::now();
    let limits = Limits {
        stop,
        deadline: opts.time_limit.map(|d| start + d),
    };
    let mut searcher = Searcher::new(game, table, limits);
    let roots: Vec<Move> = game.legal_moves(pos).iter().copied().collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = roots.len();
    // A #1 or #2 is solved in well under a millisecond: waking threads costs more.
    // The threads the search really uses (reported with the solution).
    let threads = if n >= PARALLEL_MIN_MOVES {
        opts.threads.max(1)
    } else {
        1
    };
    // Few first moves: split the defences below them too; many: the first moves alone
    // keep every thread busy, and splitting deeper only adds speculative work.
    searcher.split_defences = threads > 1 && roots.len() < 4 * threads;
    // The threads join only when the search proves long (see `alone_then_shared`);
    // until then none is started.
    let pool = || thread_pool(threads);
    let mut shared = false;

    // Every first move is tried at depth 1, then those left at depth 2, up to
    // `SHALLOW_ROUNDS` and at most n - 3; then each first move left goes on alone up to
    // n. The work is that of finding each move's shortest win on its own, and a time
    // limit or Ctrl-C finds every short win already proved (a mate in one, in a #4 or
    // longer, or in two, in a #5 or longer, is never left undecided behind a long
    // search of another first move). Shorter problems are solved in milliseconds, where
    // a round on one thread would cost a good part of the second thread's gain.
    let mut verdicts = vec![Verdict::Open; total];
    let mut pending: Vec<usize> = (0..total).collect();
    let mut stopped = false;
    let mut k = Killers::default();
    // The shallow rounds are cheap next to the last: they run on this thread alone,
    // which saves a fork and join of the threads per round.
    let shallow = SHALLOW_ROUNDS.min(n.saturating_sub(3));
    let mut from = 1;
    while from <= n && !stopped {
        let to = if from <= shallow { from } else { n };
        let one_root = |i: usize, k: &mut Killers| {
            let mut r = Ok(None);
            for depth in from..=to {
                r = searcher
                    .attack_with(pos, roots[i], depth, k)
                    .map(|won| won.then_some(depth));
                if !matches!(r, Ok(None)) {
                    break;
                }
            }
            if matches!(r, Ok(Some(_))) || (to == n && r.is_ok()) {
                let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(d, total);
            }
            (i, r)
        };
        // In the last round this thread works alone until `opts.solo_time` from the
        // start: most problems are solved by then, and waking threads would cost them
        // more than it saves. Then the first moves left go to every thread.
        let hand_over = (threads > 1 && to == n).then(|| start + opts.solo_time);
        let (results, used) = alone_then_shared(
            &searcher.halt,
            hand_over,
            threads,
            &pending,
            |&i| one_root(i, &mut k),
            |&i| {
                // Each worker keeps its refutation memory from one first move to the
                // next, as a single thread does. Taken out of the cell, not borrowed: a
                // worker waiting inside this search may steal another first move (or
                // problem) and take the cell's memory.
                let mut k = THREAD_KILLERS.with(|c| c.take());
                let r = one_root(i, &mut k);
                THREAD_KILLERS.with(|c| c.replace(k));
                r
            },
            |(_, r)| r.is_err(),
        );
        shared |= used;
        pending.clear();
        for (i, r) in results {
            match r {
                Ok(Some(w)) => verdicts[i] = Verdict::WinsIn(w),
                Ok(None) if to == n => verdicts[i] = Verdict::Refuted,
                Ok(None) => pending.push(i),
                Err(_) => stopped = true,
            }
        }
        from = to + 1;
    }

    let mut keys = Vec::new();
    let mut failed = Vec::new();
    let mut unresolved = Vec::new();
    for (i, &mv) in roots.iter().enumerate() {
        match verdicts[i] {
            Verdict::WinsIn(w) => keys.push((mv, w)),
            Verdict::Refuted => failed.push(mv),
            Verdict::Open => unresolved.push(mv),
        }
    }

    let mut tries = Vec::new();
    let mut cut_short = false;
    if opts.tries && unresolved.is_empty() {
        let one_try = |&mv: &Move| -> SearchResult<Option<Try>> {
            let mut k = Killers::default();
            let refs = searcher.refutations(pos, mv, n, opts.max_refutations, &mut k)?;
            if refs.is_empty() || refs.len() > opts.max_refutations {
                return Ok(None);
            }
            let next = game.play(pos, mv).position;
            Ok(Some(Try {
                mv,
                san: san::san(game, pos, mv),
                refutations: refs
                    .iter()
                    .map(|&d| (d, san::san(game, &next, d)))
                    .collect(),
            }))
        };
        // `Err`: the search was stopped before this first move's refutations were known.
        // On every thread only when the search needed them.
        let found: Vec<SearchResult<Option<Try>>> = if shared {
            pool().install(|| failed.par_iter().map(one_try).collect())
        } else {
            failed.iter().map(one_try).collect()
        };
        cut_short |= found.iter().any(|f| f.is_err());
        tries = found.into_iter().flatten().flatten().collect();
    }

    let mut trees = Vec::new();
    if opts.tree && unresolved.is_empty() {
        for &(mv, w) in &keys {
            let mut budget = opts.tree_budget;
            let mut k = Killers::default();
            let mut tree = || tree_node(&searcher, pos, mv, w, &mut budget, &mut k);
            let tree = if shared { pool().install(tree) } else { tree() };
            match tree {
                Ok(node) => trees.push(node),
                Err(_) => {
                    // The key alone, marked as cut, so that the trees still follow `keys`.
                    cut_short = true;
                    let played = game.play(pos, mv);
                    trees.push(AttackNode {
                        truncated: true,
                        ..AttackNode::bare(game, pos, mv, &played, w)
                    });
                }
            }
        }
    }

    Solution {
        stipulation: n,
        keys,
        trees,
        tries,
        unresolved,
        cut_short,
        nodes: searcher.nodes(),
        elapsed: start.elapsed(),
        threads: if shared { threads } else { 1 },
    }
}

thread_local! {
    static THREAD_KILLERS: std::cell::RefCell<Killers> = std::cell::RefCell::new(Killers::default());
}

impl crate::game::AnyGame {
    /// `solve` on this game's geometry.
    pub fn solve(
        &self,
        table: &Table,
        pos: &Position,
        n: u32,
        opts: &SolveOptions,
        stop: &AtomicBool,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Solution {
        crate::with_game!(self, g => solve(g, table, pos, n, opts, stop, progress))
    }
}

/// Depths at which every first move is tried before any goes deeper (see `solve`).
const SHALLOW_ROUNDS: u32 = 2;

/// Smallest stipulation solved with more than one thread.
const PARALLEL_MIN_MOVES: u32 = 3;

/// One pool per thread count, built once and reused by every solve (and by callers
/// that solve several problems at once on it: nested work then shares the threads).
pub fn thread_pool(threads: usize) -> Arc<rayon::ThreadPool> {
    type Pools = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let threads = threads.max(1);
    let mut pools = POOLS
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return p.clone();
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool"),
    );
    pools.push((threads, pool.clone()));
    pool
}

/// Works through `items` on this thread until `hand_over` (never, when `None`), then, if
/// any are left, on `threads` threads (see `halt::SOLO_TIME`). The item the hand-over
/// cut short is worked on again, from what its search kept in the table. `alone` and
/// `shared` do the same work (the second keeps its per-thread state where a pool thread
/// finds it); `stopped` tells a result cut short. Returns the results in the order of
/// `items`, and whether the other threads were used.
pub fn alone_then_shared<I: Sync, R: Send>(
    halt: &Halt,
    hand_over: Option<Instant>,
    threads: usize,
    items: &[I],
    mut alone: impl FnMut(&I) -> R,
    shared: impl Fn(&I) -> R + Sync,
    stopped: impl Fn(&R) -> bool,
) -> (Vec<R>, bool) {
    if let Some(moment) = hand_over {
        halt.hand_over_at(moment);
    }
    let mut results = Vec::with_capacity(items.len());
    for item in items {
        let r = alone(item);
        if stopped(&r) && halt.handed_over() {
            break;
        }
        results.push(r);
    }
    halt.resume();
    let left = &items[results.len()..];
    let used = !left.is_empty();
    if used {
        results.extend(
            thread_pool(threads).install(|| left.par_iter().map(&shared).collect::<Vec<_>>()),
        );
    }
    (results, used)
}

/// Attacker moves from `pos` that win within exactly the fewest moves possible (up to
/// `max`), with that number.
fn best_attacks<T: Terrain>(
    s: &Searcher<'_, T>,
    pos: &Position,
    max: u32,
    k: &mut Killers,
) -> SearchResult<(u32, Vec<Move>)> {
    let moves: Vec<Move> = s.game.legal_moves(pos).iter().copied().collect();
    let geo = s.game.geo(pos);
    let flights = s.flights(pos);
    for n in 1..=max {
        let mut winners = Vec::new();
        for &mv in &moves {
            // A last move that leaves the king a flight cannot win.
            let hopeless = n == 1 && flights.kept_by(geo, pos, mv);
            if !hopeless && s.attack_with(pos, mv, n, k)? {
                winners.push(mv);
            }
        }
        if !winners.is_empty() {
            return Ok((n, winners));
        }
    }
    Ok((0, Vec::new()))
}

/// The solution tree under the attacking move `mv`, which wins within `n`.
fn tree_node<T: Terrain>(
    s: &Searcher<'_, T>,
    pos: &Position,
    mv: Move,
    n: u32,
    budget: &mut usize,
    k: &mut Killers,
) -> SearchResult<AttackNode> {
    let game = s.game;
    let played = game.play(pos, mv);
    let mut node = AttackNode::bare(game, pos, mv, &played, n);
    *budget = budget.saturating_sub(1);
    if node.mates {
        return Ok(node);
    }
    let next = played.position;
    let defences = game.legal_moves(&next);
    if defences.is_empty() {
        node.mates = game.in_check(&next);
        return Ok(node);
    }
    if *budget == 0 {
        node.truncated = true;
        return Ok(node);
    }
    // The threat: what wins if the defender could pass.
    if n >= 2 && !game.in_check(&next) {
        let passed = game.pass(&next);
        let (m, winners) = best_attacks(s, &passed, n - 1, k)?;
        for w in winners {
            let p2 = game.play(&passed, w);
            let mut threat = AttackNode::bare(game, &passed, w, &p2, m);
            threat.mates |= game.is_checkmated(&p2.position);
            node.threat.push(threat);
        }
    }
    for &d in defences.iter() {
        let p = game.play(&next, d);
        let mut dn = DefenceNode {
            mv: d,
            san: san::san_played(game, &next, d, &p),
            king_fell: p.outcome == Some(Outcome::KingFell),
            cash: cash(game, &p.position),
            truncated: false,
            continuations: Vec::new(),
        };
        if p.outcome.is_none() && n >= 2 {
            let (m, winners) = best_attacks(s, &p.position, n - 1, k)?;
            for w in winners {
                if *budget == 0 {
                    node.truncated = true;
                    dn.truncated = true;
                    break;
                }
                dn.continuations
                    .push(tree_node(s, &p.position, w, m, budget, k)?);
            }
        }
        node.defences.push(dn);
    }
    Ok(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    /// Every first move is tried for a mate in one before any is searched deeper: a
    /// stop as soon as one first move is decided finds the back-rank mate proved, and
    /// the other first moves undecided.
    #[test]
    fn short_wins_are_proved_first() {
        let line = "6k1/5ppp/8/8/8/8/8/R5K1 w - - dm 4;";
        let p = crate::problem::from_line(line);
        let table = Table::new(4);
        let stop = AtomicBool::new(false);
        let stop_at_first = |_: usize, _: usize| stop.store(true, Ordering::SeqCst);
        let opts = SolveOptions::default();
        let cut = p
            .game
            .solve(&table, &p.position, 4, &opts, &stop, &stop_at_first);
        let ra8 = p
            .game
            .legal_moves(&p.position)
            .iter()
            .copied()
            .find(|m| m.to.to_string() == "a8");
        assert_eq!(cut.keys, vec![(ra8.unwrap(), 1)]);
        assert_eq!(
            cut.unresolved.len() + 1,
            p.game.legal_moves(&p.position).len()
        );
    }

    /// A stop that comes after every first move is decided (the progress report of the
    /// last one sets it) leaves the keys proved and the tries and tree cut short, and
    /// the solution says so instead of passing for finished.
    #[test]
    fn a_stop_after_the_keys_cuts_the_rest_short() {
        let line = "1b3q1n/2pb2r1/4P3/r3pp2/3PP2p/P1NkPNP1/Q2B4/R3K2R w KQ - dm 3;";
        let p = crate::problem::from_line(line);
        let table = Table::new(4);
        let opts = SolveOptions {
            tries: true,
            ..SolveOptions::default()
        };
        let whole = p.game.solve(
            &table,
            &p.position,
            3,
            &opts,
            &AtomicBool::new(false),
            &|_, _| {},
        );
        assert!(whole.finished() && !whole.tries.is_empty() && !whole.trees.is_empty());
        let stop = AtomicBool::new(false);
        let stop_at_last = |done: usize, total: usize| {
            if done == total {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let cut = p
            .game
            .solve(&table, &p.position, 3, &opts, &stop, &stop_at_last);
        assert!(cut.complete());
        assert_eq!(cut.keys, whole.keys);
        assert!(cut.cut_short && !cut.finished());
        assert!(cut.tries.is_empty());
        // One tree a key still, in the order of the keys, each marked as cut.
        assert_eq!(cut.trees.len(), cut.keys.len());
        for (tree, &(mv, _)) in cut.trees.iter().zip(&cut.keys) {
            assert!(tree.mv == mv && tree.truncated && tree.defences.is_empty());
        }
        // Tries alone (no tree asked for) are flagged too.
        stop.store(false, Ordering::SeqCst);
        let tries_only = SolveOptions {
            tree: false,
            ..opts
        };
        let cut = p
            .game
            .solve(&table, &p.position, 3, &tries_only, &stop, &stop_at_last);
        assert!(cut.complete() && cut.cut_short && cut.tries.is_empty());
    }
}
