//! Histories: sequences of retractions from a diagram, each earlier position kept only if
//! it passes the soundness checks (rules.md 6.1, 6.3). Under a Trapdoor board a history
//! also obeys the timers: no man stays on a square longer than T of its owner's moves,
//! and a move may have ended with a fall of one of the mover's men.
//!
//! The search answers "is there a history of this depth in which the diagram's men
//! moved as asked" (`Fate`), depth-first, stopping at the first one found. It is sound
//! in the direction a proof needs: every real history of the diagram is among the ones
//! it accepts, so "no history" is a proof. When the node budget runs out it answers
//! "yes" and says so (`exhausted`), which can only withhold proofs.
//!
//! Falls are placed lazily. A man that fell at the end of move d stood on its square
//! from before move d until then, with no attacks that matter to the checks below (it
//! belongs to the mover of d, and only its blocking is needed to explain anything), so
//! it is represented as a blocker ("phantom") on an empty square, put there only when a
//! check in an earlier position needs a line closed — the fall discovered that check.

use super::game::RetroGame;
use super::retraction::{Retraction, RetroPosition};
use super::soundness::material;
use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, Terrain};
use crate::search::Limits;
use crate::types::{Color, Role, Square};
use hashbrown::HashMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// What a query asks of one man of the diagram within the searched depth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    Free,
    /// It did not move.
    Stays,
    /// Its last move was its owner's k-th last move (0: the owner's last move).
    ArrivedAt(u8),
}

#[derive(Copy, Clone)]
struct Node {
    pos: RetroPosition,
    /// Men that fell and are not on the diagram's board, placed where a fall explains a
    /// check; they only block.
    phantoms: Bitboard,
    /// 1 + index of the diagram man standing here that has not moved yet in this history.
    ident: [u8; 64],
    /// Depth of the event that ended the stay of the man standing here: 0 if it is
    /// still there in the diagram, else the retracted move that took it or moved it on.
    leave: [u8; 64],
    /// Bit d: the fall at the end of move d has been placed.
    falls_used: u32,
}

/// What the stack remembers of each depth: the occupied squares of the position there
/// and the squares the move into it used (for placing a fall after the fact).
#[derive(Copy, Clone, Default)]
struct Frame {
    occupied: Bitboard,
    path: Bitboard,
}

pub struct HistorySearch<'a, T: Terrain> {
    pub depth: u32,
    game: &'a RetroGame<T>,
    /// The user's stop (Ctrl-C) and the time limit's deadline.
    stop: &'a std::sync::atomic::AtomicBool,
    deadline: Option<Instant>,
    /// The stop or the deadline came: every query since answers "yes", unproved, at
    /// once (as when its node budget runs out).
    pub stopped: bool,
    timer: Option<u8>,
    men_squares: Vec<Square>,
    /// The placement a game starts from: a history may end there.
    start: crate::board::Board,
    /// The cash at a game's start (White's first income received; zero without Taxi).
    start_cash: [u64; 2],
    /// Nodes one query may visit.
    budget: u64,
    query_nodes: u64,
    /// Nodes visited by every query so far.
    pub nodes: u64,
    /// Some query ran out of nodes (its "yes" was not proved).
    pub exhausted: bool,
    /// The last query ran out of nodes.
    pub query_exhausted: bool,
    /// Results for positions in a search without timers or fates, by (position, depth done).
    memo: HashMap<(RetroPosition, u32), bool>,
    frames: Vec<Frame>,
    line: Vec<Retraction>,
    /// The history found by the last successful query, most recent move first.
    pub witness: Vec<Retraction>,
}

/// Owner moves strictly between depths `leave` and `arrive` (same parity as `arrive`):
/// how often a man that arrived at `arrive` had its timer counted down before leaving.
fn countdowns(leave: u32, arrive: u32) -> u32 {
    // Depths arrive-2, arrive-4, ... that are > leave.
    (arrive - leave - 1) / 2
}

/// Nodes between two looks at the stop flag and the clock: a few hundred microseconds
/// of search, so a stop is obeyed well within a second for one clock read per look.
const POLL_INTERVAL: u64 = 1024;

impl<'a, T: Terrain> HistorySearch<'a, T> {
    pub fn new(
        game: &'a RetroGame<T>,
        root: &RetroPosition,
        depth: u32,
        timer: Option<u8>,
        budget: u64,
        limits: &Limits<'a>,
    ) -> HistorySearch<'a, T> {
        HistorySearch {
            depth,
            game,
            stop: limits.stop,
            deadline: limits.deadline,
            stopped: false,
            timer,
            men_squares: root.board.occupied().collect(),
            start: crate::position::Position::startpos().board,
            start_cash: game
                .taxi
                .map_or([0, 0], |t| [(t.start + t.income) as u64, t.start as u64]),
            budget,
            query_nodes: 0,
            nodes: 0,
            exhausted: false,
            query_exhausted: false,
            memo: HashMap::new(),
            frames: vec![Frame::default(); depth as usize + 2],
            line: Vec::new(),
            witness: Vec::new(),
        }
    }

    /// The diagram's men, in the order `Fate`s refer to them.
    pub fn men(&self) -> &[Square] {
        &self.men_squares
    }

    /// Starts a question from the diagram `pos`: clears the line and the query's node
    /// count, and returns the root of the search.
    fn begin(&mut self, pos: &RetroPosition) -> Node {
        self.line.clear();
        self.query_nodes = 0;
        self.query_exhausted = false;
        self.frames[0] = Frame {
            occupied: pos.board.occupied(),
            path: Bitboard::EMPTY,
        };
        let mut ident = [0u8; 64];
        for (i, sq) in self.men_squares.iter().enumerate() {
            ident[sq.index()] = i as u8 + 1;
        }
        Node {
            pos: *pos,
            phantoms: Bitboard::EMPTY,
            ident,
            leave: [0; 64],
            falls_used: 0,
        }
    }

    /// Depth of the move that is a man's owner's k-th last move: the side that just
    /// moved plays the odd depths, the side to move the even ones.
    fn owner_depth(&self, root_turn: Color, owner: Color, k: u8) -> u32 {
        2 * k as u32 + if owner == root_turn { 2 } else { 1 }
    }

    /// Whether a history of the full depth exists in which each man of the diagram (by
    /// index in `men`) did what `fates` asks.
    pub fn exists(&mut self, pos: &RetroPosition, fates: &[Fate]) -> bool {
        let root = self.begin(pos);
        self.extend(&root, 0, pos.turn, fates)
    }

    /// The last moves that begin a history of the full depth with the fates asked, each
    /// with whether one was found.
    pub fn last_moves(&mut self, pos: &RetroPosition, fates: &[Fate]) -> Vec<(Retraction, bool)> {
        let root = self.begin(pos);
        let mut found: Vec<(Retraction, bool)> = Vec::new();
        for (r, child) in self.children(&root, 0, pos.turn, fates) {
            let known = found.iter().position(|(m, _)| *m == r);
            if let Some(i) = known {
                if found[i].1 {
                    continue;
                }
            }
            self.line.clear();
            self.line.push(r);
            self.frames[1] = self.frame_of(&child, &r);
            let ok = self.extend(&child, 1, pos.turn, fates);
            match known {
                Some(i) => found[i].1 |= ok,
                None => found.push((r, ok)),
            }
        }
        found
    }

    /// Whether the side to move's check in `pos` can be explained by some last move (with
    /// a fall under Trapdoor): used to name an impossible check.
    pub fn check_explained(&mut self, pos: &RetroPosition) -> bool {
        let root = self.begin(pos);
        let fates = vec![Fate::Free; self.men_squares.len()];
        !self.children(&root, 0, pos.turn, &fates).is_empty()
    }

    /// Whether `node` is where a game starts (under Taxi with the starting cash, White's
    /// first income received); every man asked to have moved has.
    fn is_game_start(&self, node: &Node, fates: &[Fate]) -> bool {
        node.pos.turn == Color::White
            && node.pos.board == self.start
            && node.phantoms.is_empty()
            && node.pos.cash.map(u64::from) == self.start_cash
            && fates.iter().enumerate().all(|(i, f)| {
                !matches!(f, Fate::ArrivedAt(_))
                    || node.ident[self.men_squares[i].index()] != i as u8 + 1
            })
    }

    /// The frame of the position before `r`; the move was played on its board.
    fn frame_of(&self, child: &Node, r: &Retraction) -> Frame {
        Frame {
            occupied: child.pos.board.occupied() | child.phantoms,
            path: r.path(self.game.geo(child.pos.dx)),
        }
    }

    fn extend(&mut self, node: &Node, done: u32, root_turn: Color, fates: &[Fate]) -> bool {
        if done == self.depth || self.is_game_start(node, fates) {
            self.witness = self.line.clone();
            return true;
        }
        self.nodes += 1;
        self.query_nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) && !self.stopped {
            self.stopped = self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        if self.query_nodes > self.budget || self.stopped {
            self.exhausted = true;
            self.query_exhausted = true;
            return true;
        }
        let memo_ok = self.timer.is_none() && fates.iter().all(|f| *f == Fate::Free);
        if memo_ok {
            if let Some(&known) = self.memo.get(&(node.pos, done)) {
                if known {
                    self.witness = self.line.clone();
                }
                return known;
            }
        }
        let children = self.children(node, done, root_turn, fates);
        let mut found = false;
        for (r, child) in children {
            self.frames[done as usize + 1] = self.frame_of(&child, &r);
            self.line.push(r);
            let ok = self.extend(&child, done + 1, root_turn, fates);
            self.line.pop();
            if ok {
                found = true;
                break;
            }
        }
        if memo_ok && !self.query_exhausted {
            self.memo.insert((node.pos, done), found);
        }
        found
    }

    /// The earlier positions one retraction away that pass the checks and agree with the
    /// query and the timers.
    fn children(
        &mut self,
        node: &Node,
        done: u32,
        root_turn: Color,
        fates: &[Fate],
    ) -> Vec<(Retraction, Node)> {
        let depth = done + 1;
        let mover = !node.pos.turn;
        // A man whose last move must be this one.
        let mut forced = None;
        for (i, fate) in fates.iter().enumerate() {
            let sq = self.men_squares[i];
            if node.ident[sq.index()] != i as u8 + 1 {
                continue;
            }
            if let Fate::ArrivedAt(k) = *fate {
                let owner = node.pos.board.color_at(sq).expect("an unmoved man");
                let at = self.owner_depth(root_turn, owner, k);
                if at < depth || (at == depth && forced.is_some()) {
                    return Vec::new();
                }
                if at == depth {
                    forced = Some(sq);
                }
            }
        }
        let mut raw = Vec::new();
        self.game.retractions(&node.pos, node.phantoms, &mut raw);
        let mut out = Vec::new();
        for r in raw {
            let arrivals = r.arrivals();
            let moved = arrivals.as_slice();
            if forced.is_some_and(|sq| !moved.contains(&sq)) {
                continue;
            }
            if !self.fates_allow(node, moved, depth, root_turn, fates) {
                continue;
            }
            if let Some(t) = self.timer {
                if moved
                    .iter()
                    .any(|sq| countdowns(node.leave[sq.index()] as u32, depth) >= t as u32)
                {
                    continue;
                }
            }
            let Some(pos) = self.game.unplay(&node.pos, &r) else {
                continue;
            };
            let changes_material = r.shock.is_none()
                && (r.captured.is_some() || r.role == Role::Pawn || r.promoted.is_some());
            if changes_material && material(self.game, &pos.board).is_some() {
                continue;
            }
            let mut child = *node;
            child.pos = pos;
            for sq in moved {
                child.ident[sq.index()] = 0;
            }
            for sq in r.departures() {
                child.leave[sq.index()] = depth as u8;
            }
            // The side that moved before (not to move in the earlier position) may not
            // be in check there.
            let them = !mover;
            let Some(king) = child.pos.board.king(them) else {
                continue;
            };
            let checkers = self.game.checkers(&child.pos, them, child.phantoms);
            if checkers.is_empty() {
                out.push((r, child));
            } else if self.timer.is_some() {
                self.frames[depth as usize] = self.frame_of(&child, &r);
                for shielded in self.shield(child, depth, king, checkers) {
                    out.push((r, shielded));
                }
            }
        }
        out
    }

    fn fates_allow(
        &self,
        node: &Node,
        moved: &[Square],
        depth: u32,
        root_turn: Color,
        fates: &[Fate],
    ) -> bool {
        moved.iter().all(|sq| {
            let id = node.ident[sq.index()];
            if id == 0 {
                return true;
            }
            match fates[id as usize - 1] {
                Fate::Free => true,
                Fate::Stays => false,
                Fate::ArrivedAt(k) => {
                    let owner = node.pos.board.color_at(*sq).expect("a man");
                    self.owner_depth(root_turn, owner, k) == depth
                }
            }
        })
    }

    /// Ways to close every line from `checkers` to `king` with men that fell later: each
    /// on an empty square between, standing there from the move it fell at (depth d, not
    /// yet used) back to `depth`, never crossed by a move in between.
    fn shield(&self, node: Node, depth: u32, king: Square, checkers: Bitboard) -> Vec<Node> {
        let Some(checker) = checkers.first() else {
            return vec![node];
        };
        let rest = checkers.without(checker);
        let line = self.game.geo(node.pos.dx).between(checker, king);
        let mut out = Vec::new();
        for d in 1..=depth {
            if node.falls_used & 1 << d != 0 {
                continue;
            }
            let mut taken = self.frames[d as usize - 1].occupied;
            for k in d..=depth {
                taken |= self.frames[k as usize].occupied | self.frames[k as usize].path;
            }
            for q in line - taken {
                let mut next = node;
                next.phantoms.set(q);
                next.falls_used |= 1 << d;
                out.extend(self.shield(next, depth, king, rest));
            }
        }
        out
    }
}
