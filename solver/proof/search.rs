//! The search for every game of a given length from the array to the diagram: all
//! legal moves played, depth first, a position left only when the bound (`bound.rs`)
//! shows the diagram out of reach in the moves left, or when the table remembers that
//! the same position with the same half-moves left led to no proof game before.

use super::bound::{Bound, Need};
use super::diagram::Diagram;
use crate::game::Game;
use crate::geometry::Terrain;
use crate::moves::Move;
use crate::position::Position;
use crate::search::halt::Halt;

/// How often (in nodes) the clock is read.
const POLL_NODES: u64 = 4096;

/// What the search reports as it goes.
pub enum ProofEvent<'a> {
    /// A proof game (of the length searched): the moves from the array.
    Found(&'a [Move]),
    /// The first moves of the length searched: `done` of `total`, `found` games so far.
    Progress {
        done: usize,
        total: usize,
        found: usize,
    },
}

/// Positions (with the half-moves left) from which no proof game exists: a table of
/// fixed size, each entry a full key, a newer one replacing an older on its slot.
pub struct DeadEnds {
    slots: Vec<u64>,
    mask: usize,
}

impl DeadEnds {
    /// A table of about `megabytes` (a power of two of slots, at least 2^10).
    pub fn new(megabytes: usize) -> DeadEnds {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<u64>();
        let size = wanted.next_power_of_two().max(1 << 10);
        let size = if size > wanted { size / 2 } else { size }.max(1 << 10);
        DeadEnds {
            slots: vec![0; size],
            mask: size - 1,
        }
    }

    fn key(pos: &Position, plies: u32) -> u64 {
        (pos.hash() ^ (plies as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    /// The key's slot, from bits above the one the key always sets.
    fn slot(&self, key: u64) -> usize {
        (key >> 1) as usize & self.mask
    }

    fn contains(&self, key: u64) -> bool {
        self.slots[self.slot(key)] == key
    }

    fn insert(&mut self, key: u64) {
        let slot = self.slot(key);
        self.slots[slot] = key;
    }
}

/// One search of one length.
pub struct Search<'a, T: Terrain, F: FnMut(ProofEvent)> {
    pub game: &'a Game<T>,
    pub diagram: &'a Diagram,
    pub bound: &'a Bound,
    pub dead: &'a mut DeadEnds,
    pub halt: &'a Halt<'a>,
    /// Stop after this many games.
    pub max_games: Option<usize>,
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
    pub on_event: F,
    pub nodes: u64,
    pub found: Vec<Vec<Move>>,
    line: Vec<Move>,
    /// Stopped by the halt or the cap: what was not searched is not known.
    pub stopped: bool,
    pub capped: bool,
    /// First moves searched to the end.
    pub first_moves_done: usize,
    pub first_moves: usize,
}

impl<'a, T: Terrain, F: FnMut(ProofEvent)> Search<'a, T, F> {
    pub fn new(
        game: &'a Game<T>,
        diagram: &'a Diagram,
        bound: &'a Bound,
        dead: &'a mut DeadEnds,
        halt: &'a Halt<'a>,
        max_games: Option<usize>,
        on_event: F,
    ) -> Self {
        Search {
            game,
            diagram,
            bound,
            dead,
            halt,
            max_games,
            max_nodes: None,
            on_event,
            nodes: 0,
            found: Vec::new(),
            line: Vec::new(),
            stopped: false,
            capped: false,
            first_moves_done: 0,
            first_moves: 0,
        }
    }

    /// Every game of exactly `plies` half-moves from `start` to the diagram, into
    /// `found` (each reported as found).
    pub fn run(&mut self, start: &Position, plies: u32) {
        if plies == 0 {
            // The diagram is the array itself: the empty game, when nothing differs.
            if self.diagram.is(self.game, start) {
                self.found.push(Vec::new());
                (self.on_event)(ProofEvent::Found(&[]));
            }
            return;
        }
        let Need::Moves(need) = self.bound.need(start) else {
            return;
        };
        if !self.bound.open(start, plies) {
            return;
        }
        let moves = self.game.legal_moves(start);
        self.first_moves = moves.len();
        for (i, &mv) in moves.iter().enumerate() {
            self.step(start, need, mv, plies);
            if self.stopped {
                return;
            }
            self.first_moves_done = i + 1;
            (self.on_event)(ProofEvent::Progress {
                done: i + 1,
                total: moves.len(),
                found: self.found.len(),
            });
        }
    }

    /// Plays `mv` from `pos` (`plies` half-moves left before it) and searches on;
    /// whether a proof game went through it.
    fn step(&mut self, pos: &Position, need: [u32; 2], mv: Move, plies: u32) -> bool {
        let played = self.game.play(pos, mv);
        let child = &played.position;
        if plies == 1 {
            if !self.diagram.reached(self.game, pos, mv, child) {
                return false;
            }
            self.line.push(mv);
            self.found.push(self.line.clone());
            (self.on_event)(ProofEvent::Found(&self.line));
            self.line.pop();
            if self.max_games.is_some_and(|m| self.found.len() >= m) {
                self.capped = true;
                self.stopped = true;
            }
            return true;
        }
        // A game that ends before its last move is no proof game (rules.md 9.4).
        if played.outcome.is_some() {
            return false;
        }
        let men_changed = child.board().occupied().count() != pos.board().occupied().count();
        let Some(need) = self
            .bound
            .after_move(child, plies - 1, pos.turn(), need, men_changed)
        else {
            return false;
        };
        self.line.push(mv);
        let found = self.search(child, need, plies - 1);
        self.line.pop();
        found
    }

    /// Whether some proof game goes on from `pos` with `plies` half-moves left.
    fn search(&mut self, pos: &Position, need: [u32; 2], plies: u32) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_NODES) {
            self.halt.poll();
        }
        if self.halt.halted() || self.max_nodes.is_some_and(|m| self.nodes > m) {
            self.stopped = true;
            return false;
        }
        let key = DeadEnds::key(pos, plies);
        if self.dead.contains(key) {
            return false;
        }
        let mut found = false;
        for &mv in self.game.legal_moves(pos).iter() {
            found |= self.step(pos, need, mv, plies);
            if self.stopped {
                return found;
            }
        }
        if !found {
            self.dead.insert(key);
        }
        found
    }
}
