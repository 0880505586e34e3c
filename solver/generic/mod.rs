//! The solver core that every game plugs into. A game supplies its state, its legal
//! moves, how a move is played, when the game is over and when a new round of `#N`
//! begins (`TurnGame`); the core supplies the exhaustive AND/OR proof with every key
//! (`search`), move-sequence counting (`perft`) and the solution tree.
//!
//! The single-board games (FIDE, Trapdoor, Taxi, Earthquake) keep their own fast search
//! in `crate::search`, written for one board and its shortcuts; `adapter` lets them play
//! through this core as well, which is how the tests check the core against that search.
//! The two-board games (Underworld, Looking-Glass) play through the core only.

pub mod adapter;
pub mod help;
pub mod perft;
pub mod search;

use crate::position::Position;
use crate::types::Color;
use std::fmt::Debug;
use std::hash::Hash;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// This side has won (a checkmate, a king's fall or capture, as the game defines).
    Win(Color),
    /// Stalemate or another drawn end.
    Draw,
}

/// What an attacker's first move does to the other side, for a composer's quiet key
/// (generate's qualities): whether it captures, whether it checks (or on Looking-Glass
/// attacks the king), and the flights it takes, each named with its board (`W:e7`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyEffects {
    pub captures: bool,
    pub checks: bool,
    pub flights_taken: Vec<String>,
}

impl KeyEffects {
    /// No check, no capture, no flight taken.
    pub fn quiet(&self) -> bool {
        !self.captures && !self.checks && self.flights_taken.is_empty()
    }
}

/// A game as the core sees it: states, moves, and the turn order. Every state has a side
/// to move; a state where the game is over has no move.
pub trait TurnGame: Sync {
    type State: Copy + Send + Sync;
    type Move: Copy + Eq + Send + Sync + Debug;

    /// The side to move in `s`.
    fn mover(&self, s: &Self::State) -> Color;

    /// The legal moves of the side to move (none when `end` says the game is over).
    fn moves(&self, s: &Self::State) -> Vec<Self::Move>;

    /// `moves` into `out` (emptied first), for a caller that reuses its lists.
    fn moves_into(&self, s: &Self::State, out: &mut Vec<Self::Move>) {
        *out = self.moves(s);
    }

    /// A legal move of `s`, mostly the first of `moves`, where the game finds one
    /// without listing them all (`None`: it cannot, or there is none).
    fn first_move(&self, _s: &Self::State) -> Option<Self::Move> {
        None
    }

    /// The state after the legal move `mv`, with every event the rules attach to it.
    fn play(&self, s: &Self::State, mv: Self::Move) -> Self::State;

    /// `play` on the state itself: where a game can, it changes the state in place,
    /// sparing the copies of a state returned (the search plays every move of an
    /// attacker's node into a list).
    #[inline(always)]
    fn play_in_place(&self, s: &mut Self::State, mv: Self::Move) {
        *s = self.play(s, mv);
    }

    /// Whether the game is over in `s`, and how.
    fn end(&self, s: &Self::State) -> Option<End>;

    /// Whether the turn from `before` to `after` begins a new round: `#N` counts rounds
    /// (in a single-board game a round is the attacker's move and the defender's reply).
    fn new_round(&self, before: &Self::State, after: &Self::State) -> bool;

    /// Whether the moves of `s` complete the previous turn rather than make one (the
    /// placement of a captured Underworld King, rules.md 4.8e): they take no ply in
    /// perft (rules.md 7.1), and each is a sequence of its own.
    fn completes_turn(&self, _s: &Self::State) -> bool {
        false
    }

    /// The side whose turn `s` is in: the mover, except where a choice of the other
    /// side completes the turn (`completes_turn`: an Underworld King's placement is
    /// made by its owner within the capturer's turn). Help play counts turns by it.
    fn turn_owner(&self, s: &Self::State) -> Color {
        self.mover(s)
    }

    /// The sequences of one ply that `moves` (the moves of `s`) make: one each, times
    /// the choices that complete a turn. What perft's last ply counts without playing
    /// every move where the game can tell.
    fn leaves(&self, s: &Self::State, moves: &[Self::Move]) -> u64 {
        moves
            .iter()
            .map(|&mv| {
                let next = self.play(s, mv);
                if self.completes_turn(&next) {
                    self.moves(&next).len() as u64
                } else {
                    1
                }
            })
            .sum()
    }

    /// `leaves` of all the moves of `s`: perft's last ply. A game that can count its
    /// moves without listing them says so here.
    fn count_leaves(&self, s: &Self::State) -> u64 {
        self.leaves(s, &self.moves(s))
    }

    /// `s` as if the other side were to move, for set play (rules.md 8.4: no en passant
    /// right, everything else as written); `None` where a game has no such reading.
    fn other_side_to_move(&self, _s: &Self::State) -> Option<Self::State> {
        None
    }

    /// `s` with the side to move passing, to show what the other side threatens in a
    /// solution tree (rules.md 8.4's reading of a turn passed); `None` when the side to
    /// move is in check, or where the game has no such reading.
    fn threat_state(&self, _s: &Self::State) -> Option<Self::State> {
        None
    }

    /// Each side's cash in `s`, where the game keeps money (Taxi, rules.md 2): what a
    /// solution tree prints after each move.
    fn cash(&self, _s: &Self::State) -> Option<[u32; 2]> {
        None
    }

    /// Whether the move that led to `s` made its mover's own king fall (Trapdoor,
    /// rules.md 1): the tree says so, the notation only shows the fall.
    fn king_fell(&self, _s: &Self::State) -> bool {
        false
    }

    /// A legal move of the side to move in `s`, found without playing it, after which
    /// nobody wins before a new round begins, whatever either side plays until then,
    /// where the game can tell that quickly (`None`: it cannot, or there is no such
    /// move). The defender's last turn of a stipulation is then decided without a move
    /// list: such a move refutes `#N` and `s#N` alike.
    fn quiet_move(&self, _s: &Self::State) -> Option<Self::Move> {
        None
    }

    /// The legal moves of the side to move in `s` that win the game for it at once
    /// (help play's last move), where the game finds them without playing every move;
    /// `None`: help play plays every move and asks `end`. A move that needs a choice to
    /// complete its turn is never among them.
    fn winning_moves(&self, _s: &Self::State) -> Option<Vec<Self::Move>> {
        None
    }

    /// The attacker's legal moves from `s` in the last round of a self-mate that may
    /// leave the defender nothing but moves that win for it, where the game can tell
    /// the others without playing them: each move left out lets the defender a reply
    /// that ends nothing. `Some` (maybe empty) where the game goes on in `s` or the
    /// attacker is stalemated (empty: a stalemate is no win for anyone), so the game's
    /// end needs no asking; `None`: every legal move is tried, and the game asked
    /// whether it ended.
    fn self_mate_candidates(&self, _s: &Self::State) -> Option<Vec<Self::Move>> {
        None
    }

    /// The same as `self_mate_candidates` for `#N`: the attacker's legal moves from `s`
    /// in the last round that may win within it, where the game can tell the others
    /// without playing them (after each move left out the attacker does not win in
    /// the round, whatever the defender plays or may play). `None`: every legal move is
    /// tried.
    fn mate_candidates(&self, _s: &Self::State) -> Option<Vec<Self::Move>> {
        None
    }

    /// Whether `winner` surely cannot win with the last of `turns` turns from `s`
    /// (played alternately from the side to move, nothing ending the game before),
    /// whatever both sides play: a bound help play uses to skip a state. It must never
    /// say so of a state from which such a win exists; `false` says nothing.
    fn help_hopeless(&self, _s: &Self::State, _winner: Color, _turns: u32) -> bool {
        false
    }

    /// Plans for help play from `root` (`help::HelpGuide`): where the game can list the
    /// mates of `turns` turns won by `winner` and test each move against each of them.
    /// Without one (`help::NoGuide`) help play searches every move.
    fn help_guide(
        &self,
        _root: &Self::State,
        _winner: Color,
        _turns: u32,
    ) -> Result<Box<dyn help::HelpGuide<Self::Move> + '_>, help::NoGuide> {
        Err(help::NoGuide::NotServed)
    }

    /// What `key`, a legal move of the side to move in `s`, does to the other side
    /// (`KeyEffects`); `None` where the game does not judge it.
    fn key_effects(&self, _s: &Self::State, _key: Self::Move) -> Option<KeyEffects> {
        None
    }

    /// The board on which the king of `mated` stands in `s`, as a FIDE position with
    /// `mated` to move, where the game's mate is a FIDE mate on one board (a composer's
    /// model mate is judged there); `None` where it is not.
    fn mate_board(&self, _s: &Self::State, _mated: Color) -> Option<Position> {
        None
    }

    /// A hash of everything that decides the future of `s` (the transposition table's
    /// key; collisions are checked by the table's own verification word).
    fn key(&self, s: &Self::State) -> u64;

    /// The key of `s` in help play with `turns` turns left (the last one the winning
    /// move): `key`, or one that states whose differences cannot change any line of
    /// those turns share (the same lines, so the same solutions and failures).
    fn help_key(&self, s: &Self::State, _turns: u32) -> u64 {
        self.key(s)
    }

    /// `mv` in coordinates, as `--json` keys write it (`U:e1e2`, `W:e2e4`).
    fn coord(&self, s: &Self::State, mv: Self::Move) -> String;

    /// The legal move of `s` that `coord` writes (as `coord` writes it), if there is one.
    fn move_written(&self, s: &Self::State, coord: &str) -> Option<Self::Move> {
        self.moves(s)
            .into_iter()
            .find(|&m| self.coord(s, m) == coord)
    }

    /// `mv` as composers write it, with its events (drops, returns, checks, mate).
    fn notation(&self, s: &Self::State, mv: Self::Move) -> String;
}

/// A small, fast hasher for state keys (FxHash's multiply-rotate): states are hashed
/// whole at every node, and SipHash would cost more than the rest of a node's work.
#[derive(Default)]
pub struct StateHasher(u64);

impl std::hash::Hasher for StateHasher {
    fn finish(&self) -> u64 {
        // A final mix so that the table's index bits depend on every input bit.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The key of a hashable state.
pub fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut h = StateHasher::default();
    value.hash(&mut h);
    std::hash::Hasher::finish(&h)
}
