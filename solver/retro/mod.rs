//! Retro-analysis (rules.md section 6): is a diagram legal, what can the last move have
//! been, and which men are proved ticking under a Trapdoor board.
//!
//! `game` knows the board and economy a position stands on, `retraction` takes moves
//! back, `soundness` holds the checks a placement passes on its own, `history` searches
//! sequences of retractions. This module asks the questions and gathers the report. It
//! serves every single-board game: the standard and the Earthquake board (with or
//! without aftershocks), with or without Taxi and Trapdoor timers.
//!
//! Depth: under Trapdoor T the histories are 2T half-moves deep (T moves of each side:
//! every arrival a timer can still remember); without timers `depth` half-moves
//! (`DEFAULT_DEPTH`), enough to see what the last move needed before it.

pub mod game;
pub mod history;
pub mod retraction;
pub mod soundness;
pub mod two_boards;

use crate::bitboard::Bitboard;
use crate::game::{AnyGame, Game};
use crate::geometry::{Geometry, Terrain};
use crate::position::Position;
use crate::problem::Problem;
use crate::search::Limits;
use crate::types::{Color, Piece, Role, Square};
pub use game::RetroGame;
use history::{Fate, HistorySearch};
pub use retraction::{LastShock, Retraction, RetroPosition};
pub use soundness::Illegality;
use std::sync::atomic::AtomicBool;

impl RetroPosition {
    pub fn of(pos: &Position) -> RetroPosition {
        RetroPosition {
            board: *pos.board(),
            turn: pos.turn(),
            castling: pos.castling(),
            ep: pos.ep_square(),
            cash: Color::ALL.map(|c| pos.cash(c).min(u16::MAX as u32) as u16),
            dx: pos.quake().dx,
            shocks: pos.quake().shocks,
            last_shock: LastShock::Stated(pos.quake().no_return),
        }
    }
}

/// What the analysis assumes and how far it may go.
#[derive(Clone, Debug)]
pub struct RetroOptions {
    /// The board and economy: the standard or an Earthquake board, Taxi or not.
    pub game: AnyGame,
    /// Trapdoor timer T (None: no timers).
    pub timer: Option<u8>,
    /// Timers the position file states (`timers`), taken as facts of the history.
    pub given: Vec<(Square, u8)>,
    /// Half-moves searched without timers.
    pub depth: u32,
    /// Nodes one question may visit before it answers "not proved".
    pub nodes: u64,
}

/// Half-moves searched without timers unless asked otherwise.
pub const DEFAULT_DEPTH: u32 = 4;
/// Largest depth without timers: deeper searches never finish anyway.
pub const MAX_DEPTH: u32 = 12;
/// Nodes one question may visit unless asked otherwise.
pub const DEFAULT_NODES: u64 = 2_000_000;

impl Default for RetroOptions {
    fn default() -> RetroOptions {
        RetroOptions {
            game: AnyGame::Standard(Game::fide()),
            timer: None,
            given: Vec::new(),
            depth: DEFAULT_DEPTH,
            nodes: DEFAULT_NODES,
        }
    }
}

impl RetroOptions {
    /// The options for a problem: its board and economy, its Trapdoor timer and the
    /// timers its file gives, with `depth` (clamped to 1..=MAX_DEPTH) and `nodes`.
    ///
    /// Both orders of a Trapdoor move's events are served by the same search: the
    /// positions of a history are those after the falls, and there mate first and falls
    /// first ask the same of a move (rules.md 1.5: its mover's king not attacked; the
    /// men that fell were the mover's own, so before the falls the king was attacked by
    /// no more); the orders differ only in which positions end the game, and a history
    /// ends at the diagram.
    pub fn for_problem(problem: &Problem, depth: u32, nodes: u64) -> RetroOptions {
        let rules = problem.game.rules();
        let timers = problem.position.timers();
        RetroOptions {
            game: problem.game.clone(),
            timer: rules.trapdoor.map(|t| t.timer),
            given: timers.ticking().map(|sq| (sq, timers.left(sq))).collect(),
            depth: depth.clamp(1, MAX_DEPTH),
            nodes,
        }
    }
}

/// A man proved ticking: in every kept history it arrived on its square within its
/// owner's last T moves; `r` lists every value the histories allow, each with one
/// history that gives it (most recent retraction first).
#[derive(Clone, Debug)]
pub struct Ticking {
    pub square: Square,
    pub piece: Piece,
    pub r: Vec<u8>,
    pub witnesses: Vec<Vec<Retraction>>,
}

#[derive(Clone, Debug)]
pub struct RetroReport {
    /// Every check the diagram fails (empty: not proved illegal).
    pub illegal: Vec<Illegality>,
    /// The side that made the last move.
    pub mover: Color,
    /// Every last move that begins a kept history.
    pub last_moves: Vec<Retraction>,
    /// Men proved ticking (not those the file gives a timer).
    pub ticking: Vec<Ticking>,
    /// The timer assignments to the proved men (and the file's) that some history
    /// allows; one entry when the r values are unique. Empty without Trapdoor.
    pub scenarios: Vec<Vec<(Square, u8)>>,
    /// An en passant capture proved available: the last move was this double step.
    pub en_passant: Option<Square>,
    /// Half-moves each kept history reaches back.
    pub depth: u32,
    /// False when a limit cut some question short: then nothing unproved is listed as
    /// proved, and the last moves may include some that deeper search would drop.
    pub complete: bool,
    /// The time limit or the user's stop ended the analysis before every question was
    /// asked: what is listed was proved, the rest was not decided.
    pub stopped: bool,
    pub nodes: u64,
}

impl RetroReport {
    pub fn legal(&self) -> bool {
        self.illegal.is_empty()
    }
}

/// Largest number of timer assignments examined one by one for `scenarios`.
const MAX_SCENARIOS: usize = 64;

/// The retro-analysis of a diagram: legality with every failed check named, candidate
/// last moves, men proved ticking and the en passant right the history proves.
pub fn analyse(pos: &RetroPosition, opts: &RetroOptions) -> RetroReport {
    let never = AtomicBool::new(false);
    analyse_within(
        pos,
        opts,
        &Limits {
            stop: &never,
            deadline: None,
        },
    )
}

/// Whether `analyse` finds `pos` legal (not proved illegal: a question cut short by
/// `opts.nodes` counts as a history, as there), from the first history found rather
/// than every last move's. A problem's generator asks this of many diagrams: economy
/// calls a man superfluous unless the diagram without it is proved illegal.
pub fn legal(pos: &RetroPosition, opts: &RetroOptions) -> bool {
    if opts.timer.is_some() {
        // The timers' fates decide which histories count: `analyse` asks them.
        return analyse(pos, opts).legal();
    }
    let displaced = !matches!(opts.game, AnyGame::Standard(_));
    crate::with_game!(&opts.game, g => {
        let game = RetroGame::of_game(g, displaced);
        let (found, _cut_short) = first_history(&game, pos, opts);
        found
    })
}

/// Whether `pos` is proved legal (a history of the full depth found within
/// `opts.nodes`: a question cut short proves nothing) with no en passant right proved
/// that the diagram does not state (a right the history proves is one the diagram must
/// state): what a problem's diagram needs. From the first history found, unless some
/// last move may be a double step that a pawn of the side to move could take: then
/// `analyse` decides it from every last move. What `analyse` calls legal and complete
/// with no right proved is proved so; what is proved so, `analyse` calls legal.
pub fn proved_legal_without_en_passant(pos: &RetroPosition, opts: &RetroOptions) -> bool {
    let displaced = !matches!(opts.game, AnyGame::Standard(_));
    let full = || {
        let report = analyse(pos, opts);
        report.legal() && report.complete && report.en_passant.is_none()
    };
    if opts.timer.is_some() {
        return full();
    }
    crate::with_game!(&opts.game, g => {
        let game = RetroGame::of_game(g, displaced);
        if may_prove_en_passant(game.geo(pos.dx), pos) {
            full()
        } else {
            let (found, cut_short) = first_history(&game, pos, opts);
            found && !cut_short
        }
    })
}

/// Whether no check of `soundness::static_checks` fails and a history of the full
/// depth is found, and whether the search was cut short by `opts.nodes` (a question
/// cut short answers yes: it can only withhold proofs of "no"). Without timers.
fn first_history<T: Terrain>(
    game: &RetroGame<T>,
    pos: &RetroPosition,
    opts: &RetroOptions,
) -> (bool, bool) {
    if !soundness::static_checks(game, pos).is_empty() {
        return (false, false);
    }
    let never = AtomicBool::new(false);
    let limits = Limits {
        stop: &never,
        deadline: None,
    };
    let depth = opts.depth.max(1);
    let mut search = HistorySearch::new(game, pos, depth, None, opts.nodes, &limits);
    let fates = vec![Fate::Free; search.men().len()];
    let found = search.exists(pos, &fates);
    (found, search.exhausted)
}

/// Whether some last move could be a double step whose passed square a pawn of the
/// side to move attacks (`proved_en_passant` can name a right only then): a pawn of the
/// side that moved last stands one pawn step beyond the passed square of a step from
/// its second rank, on the board `geo`.
fn may_prove_en_passant<G: Geometry>(geo: &G, pos: &RetroPosition) -> bool {
    if pos.ep.is_some() {
        return false;
    }
    let mover = !pos.turn;
    let pawns = pos.board.by_piece(mover, Role::Pawn);
    let takers = pos.board.by_piece(pos.turn, Role::Pawn);
    if pawns.is_empty() || takers.is_empty() {
        return false;
    }
    (0..64u8).map(Square::new).any(|from| {
        from.relative_rank(mover) == 1
            && geo.pawn_step(mover, from).first().is_some_and(|passed| {
                (geo.pawn_step(mover, passed) & pawns).is_nonempty()
                    && (takers & geo.pawn_attacks(mover, passed)).is_nonempty()
            })
    })
}

/// `analyse` that ends within a fraction of a second of `limits.stop` being set or the
/// deadline passing, with what it proved by then (`stopped` says so).
pub fn analyse_within(pos: &RetroPosition, opts: &RetroOptions, limits: &Limits) -> RetroReport {
    let displaced = !matches!(opts.game, AnyGame::Standard(_));
    crate::with_game!(&opts.game, g => {
        let game = RetroGame::of_game(g, displaced);
        analyse_on(&game, pos, opts, limits)
    })
}

/// `analyse_within` on the board and economy of `game`.
fn analyse_on<T: Terrain>(
    game: &RetroGame<T>,
    pos: &RetroPosition,
    opts: &RetroOptions,
    limits: &Limits,
) -> RetroReport {
    let depth = match opts.timer {
        Some(t) => 2 * t as u32,
        None => opts.depth.max(1),
    };
    let mut report = RetroReport {
        illegal: soundness::static_checks(game, pos),
        mover: !pos.turn,
        last_moves: Vec::new(),
        ticking: Vec::new(),
        scenarios: Vec::new(),
        en_passant: None,
        depth,
        complete: true,
        stopped: false,
        nodes: 0,
    };
    if !report.illegal.is_empty() {
        return report;
    }
    let mut search = HistorySearch::new(game, pos, depth, opts.timer, opts.nodes, limits);
    let men: Vec<Square> = search.men().to_vec();
    let mut fates = vec![Fate::Free; men.len()];
    let timer = opts.timer.unwrap_or(0);
    for &(sq, r) in &opts.given {
        if let Some(i) = men.iter().position(|&m| m == sq) {
            if (1..=timer).contains(&r) {
                fates[i] = Fate::ArrivedAt(timer - r);
            }
        }
    }

    let candidates = search.last_moves(pos, &fates);
    report.last_moves = candidates
        .iter()
        .filter(|(_, ok)| *ok)
        .map(|(r, _)| *r)
        .collect();
    if report.last_moves.is_empty() {
        report.illegal = explain_illegal(game, pos, depth, opts, &fates, limits);
        report.complete = !search.exhausted;
        report.stopped = search.stopped;
        report.nodes = search.nodes;
        return report;
    }
    report.en_passant = proved_en_passant(game.geo(pos.dx), pos, &report.last_moves);
    // Every last move's question finished: some history exists, so a question about one
    // man that finished with "no" is a proof even if a later one is cut short. (Were
    // the diagram illegal, every such "no" would hold of no history at all.)
    let legality_proved = !search.exhausted;

    if let Some(t) = opts.timer {
        prove_ticking(pos, t, &mut search, &fates, &mut report);
    }
    report.complete = !search.exhausted;
    report.stopped = search.stopped;
    report.nodes = search.nodes;
    if !report.complete {
        // A proof needs every history searched; an unfinished question proves nothing,
        // but the men whose own questions finished stay proved.
        if !legality_proved {
            report.ticking.clear();
        }
        report.scenarios = vec![opts.given.clone()];
    }
    report
}

/// Names what makes a diagram with no kept history illegal: a castling or en passant
/// right that no history allows, Taxi cash that none reaches, a check no move gives, or
/// no history at all.
fn explain_illegal<T: Terrain>(
    game: &RetroGame<T>,
    pos: &RetroPosition,
    depth: u32,
    opts: &RetroOptions,
    fates: &[Fate],
    limits: &Limits,
) -> Vec<Illegality> {
    let has_history = |p: &RetroPosition| {
        let mut s = HistorySearch::new(game, p, depth, opts.timer, opts.nodes, limits);
        // A "yes" cut short by a limit is no history: it names no reason.
        s.exists(p, fates) && !s.exhausted
    };
    let mut found = Vec::new();
    for rook in pos.castling {
        let without = RetroPosition {
            castling: pos.castling.without(rook),
            ..*pos
        };
        if has_history(&without) {
            found.push(Illegality::CastlingRight {
                right: crate::fen::write_castling(&pos.board, Bitboard::from_square(rook)),
                reason: "the king or this rook must have moved".into(),
            });
        }
    }
    if let Some(square) = pos.ep {
        let without = RetroPosition { ep: None, ..*pos };
        if has_history(&without) {
            found.push(Illegality::EnPassant {
                square,
                reason: "the double step cannot have been the last move".into(),
            });
        }
    }
    if !found.is_empty() {
        return found;
    }
    if game.taxi.is_some() {
        // Ample cash pays for any history the placement has: if one exists with it, the
        // diagram's amount is what no history reaches.
        const AMPLE: u16 = 4096;
        for color in Color::ALL {
            let mut richer = *pos;
            richer.cash[color.index()] = pos.cash[color.index()].saturating_add(AMPLE);
            if has_history(&richer) {
                found.push(Illegality::UnreachableCash {
                    side: color.name(),
                    cash: pos.cash[color.index()] as u32,
                    depth,
                });
            }
        }
        if !found.is_empty() {
            return found;
        }
    }
    let us = pos.turn;
    if pos.board.king(us).is_some() {
        let checkers = game.checkers(pos, us, Bitboard::EMPTY);
        let mut s = HistorySearch::new(game, pos, depth, opts.timer, opts.nodes, limits);
        if checkers.is_nonempty() && !s.check_explained(pos) {
            let names: Vec<String> = checkers
                .map(|sq| {
                    let role = pos.board.role_at(sq).expect("a checker");
                    format!("{}{sq}", role.upper())
                })
                .collect();
            return vec![Illegality::ImpossibleCheck {
                side: us.name(),
                checkers: names.join(" and "),
            }];
        }
    }
    vec![Illegality::NoLastMove { depth }]
}

/// An en passant right the diagram does not state but every kept history proves: each
/// candidate last move is the same double step, and a pawn of the side to move attacks
/// the square it passed (on `geo`, the board it was played on).
fn proved_en_passant<G: Geometry>(
    geo: &G,
    pos: &RetroPosition,
    last_moves: &[Retraction],
) -> Option<Square> {
    if pos.ep.is_some() {
        return None;
    }
    let first = last_moves.first()?;
    let passed = geo.pawn_step(first.mover, first.from).first()?;
    let double = first.role == Role::Pawn
        && first.shock.is_none()
        && first.captured.is_none()
        && first.promoted.is_none()
        && first.from.relative_rank(first.mover) == 1
        && geo.pawn_step(first.mover, passed).contains(first.to);
    if !double || last_moves.iter().any(|r| r != first) {
        return None;
    }
    let takers = pos.board.by_piece(pos.turn, Role::Pawn);
    (takers & geo.pawn_attacks(first.mover, passed))
        .is_nonempty()
        .then_some(passed)
}

/// What the histories found so far show about each man: that it can have stayed, and
/// on which of its owner's last moves (k-th last) it can have arrived, with a history.
struct Seen {
    can_stay: Vec<bool>,
    arrived: Vec<Vec<(u8, Vec<Retraction>)>>,
}

impl Seen {
    fn learn<T: Terrain>(&mut self, men: &[Square], search: &HistorySearch<T>) {
        if search.query_exhausted {
            return;
        }
        for (i, a) in arrivals(men, &search.witness).into_iter().enumerate() {
            match a {
                None => self.can_stay[i] = true,
                Some(k) => {
                    if !self.arrived[i].iter().any(|(seen, _)| *seen == k) {
                        self.arrived[i].push((k, search.witness.clone()));
                    }
                }
            }
        }
    }
}

/// Questions per man: can it have stayed? If not, which of its owner's moves can have
/// been its last? Histories found along the way answer questions before they are asked.
fn prove_ticking<T: Terrain>(
    pos: &RetroPosition,
    timer: u8,
    search: &mut HistorySearch<T>,
    base: &[Fate],
    report: &mut RetroReport,
) {
    let men: Vec<Square> = search.men().to_vec();
    let mut seen = Seen {
        can_stay: vec![false; men.len()],
        arrived: vec![Vec::new(); men.len()],
    };
    let ask = |search: &mut HistorySearch<T>, seen: &mut Seen, fates: &[Fate]| {
        let found = search.exists(pos, fates);
        if found {
            seen.learn(&men, search);
        }
        found
    };
    ask(search, &mut seen, base);
    for i in 0..men.len() {
        if base[i] != Fate::Free {
            continue;
        }
        if !seen.can_stay[i] {
            let mut fates = base.to_vec();
            fates[i] = Fate::Stays;
            // An unfinished search proves nothing: the man may have stayed.
            if ask(search, &mut seen, &fates) && search.query_exhausted {
                seen.can_stay[i] = true;
            }
        }
        if seen.can_stay[i] {
            continue;
        }
        for k in 0..timer {
            if seen.arrived[i].iter().any(|(seen, _)| *seen == k) {
                continue;
            }
            let mut fates = base.to_vec();
            fates[i] = Fate::ArrivedAt(k);
            if ask(search, &mut seen, &fates) && search.query_exhausted {
                seen.arrived[i].push((k, Vec::new()));
            }
        }
        let mut arrived = seen.arrived[i].clone();
        arrived.sort_by_key(|(k, _)| std::cmp::Reverse(*k));
        report.ticking.push(Ticking {
            square: men[i],
            piece: pos.board.piece_at(men[i]).expect("a man of the diagram"),
            r: arrived.iter().map(|(k, _)| timer - k).collect(),
            witnesses: arrived.into_iter().map(|(_, w)| w).collect(),
        });
    }
    match scenarios(pos, timer, search, base, &men, &report.ticking) {
        Some(s) => report.scenarios = s,
        None => report.complete = false,
    }
}

/// For each man of the diagram, the owner's move (k-th last) on which it last arrived
/// in `history` (most recent retraction first), or None if it did not move.
fn arrivals(men: &[Square], history: &[Retraction]) -> Vec<Option<u8>> {
    let mut at: Vec<Option<Square>> = men.iter().map(|&s| Some(s)).collect();
    let mut result = vec![None; men.len()];
    for (i, r) in history.iter().enumerate() {
        let depth = i as u32 + 1;
        let moved = r.arrivals();
        for (m, place) in at.iter_mut().enumerate() {
            if let Some(sq) = *place {
                if moved.contains(&sq) {
                    let owner_moves_before = (depth - 1) / 2;
                    result[m] = Some(owner_moves_before as u8);
                    *place = None;
                }
            }
        }
    }
    result
}

/// Timer assignments over the proved men (with the file's timers) that a history allows;
/// None when there are too many to examine.
fn scenarios<T: Terrain>(
    pos: &RetroPosition,
    timer: u8,
    search: &mut HistorySearch<T>,
    base: &[Fate],
    men: &[Square],
    ticking: &[Ticking],
) -> Option<Vec<Vec<(Square, u8)>>> {
    let given: Vec<(Square, u8)> = men
        .iter()
        .zip(base)
        .filter_map(|(&sq, f)| match f {
            Fate::ArrivedAt(k) => Some((sq, timer - k)),
            _ => None,
        })
        .collect();
    let count: usize = ticking.iter().map(|t| t.r.len().max(1)).product();
    if count > MAX_SCENARIOS {
        return None;
    }
    let mut combos: Vec<Vec<(Square, u8)>> = vec![Vec::new()];
    for t in ticking {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                t.r.iter().map(move |&r| {
                    let mut c = c.clone();
                    c.push((t.square, r));
                    c
                })
            })
            .collect();
    }
    let exact = combos.len() > 1;
    let mut out = Vec::new();
    for combo in combos {
        let keep = !exact || {
            let mut fates = base.to_vec();
            for &(sq, r) in &combo {
                let i = men.iter().position(|&m| m == sq).expect("a man");
                fates[i] = Fate::ArrivedAt(timer - r);
            }
            search.exists(pos, &fates)
        };
        if keep {
            let mut all = given.clone();
            all.extend(combo);
            all.sort();
            out.push(all);
        }
    }
    Some(out)
}
