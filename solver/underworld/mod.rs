//! Underworld Chess (rules.md 4): two boards, the World and the Underworld, played in a
//! round of four turns (White on the World, Black on the World, Black on the
//! Underworld, White on the Underworld). Where each rule lives:
//! - `state`: the two boards, home files, the reserve, the phase;
//! - `drops`: where a captured man lands (rule 3), returns to the World (4d, 4e) and
//!   the placement of a captured Underworld King;
//! - `under_moves`: movement on the Underworld (4a-4c: cylinder pawns, captures, the
//!   Underworld King's check rule);
//! - this file: the turn cycle and inactive boards (4.1), World moves and their drops,
//!   mate and stalemate (4.5, 4.8a), rounds (4.8b), as a `TurnGame` of the solver core;
//! - `setup`: reading and writing a position line (formats.md 1);
//! - `notation`: moves as `--json` and composers write them (4.7);
//! - `help_bound`: the bound of help play (a mate on the World out of reach);
//! - `last_turn`: a round's last turns decided without playing them out.

pub mod drops;
pub mod help_bound;
pub mod key_effects;
pub mod last_turn;
pub mod notation;
pub mod setup;
pub mod state;
pub mod under_moves;

use crate::generic::{End, KeyEffects, TurnGame};
use crate::geometry::Standard;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Color, Role, Square};
use state::{Phase, Realm, UState};
use under_moves::UnderMove;

pub use setup::{read_line, UnderworldProblem};

/// A turn of Underworld Chess.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UMove {
    /// A move on the World (FIDE), with the drop of what it captures.
    World(Move),
    Under(UnderMove),
    /// No move on the Underworld: the side passes that turn (rule 4c).
    Pass,
    /// The owner of a captured Underworld King places it here (rule 4e).
    Place(Square),
}

/// FIDE's rules, which the World follows move by move (rules.md 4.5).
fn fide() -> &'static crate::game::Game<Standard> {
    static FIDE: std::sync::OnceLock<crate::game::Game<Standard>> = std::sync::OnceLock::new();
    FIDE.get_or_init(crate::game::Game::fide)
}

/// The rules of Underworld Chess (no parameters).
#[derive(Copy, Clone, Debug, Default)]
pub struct Underworld;

impl Underworld {
    /// The legal World moves of `color` (FIDE, never a capture of the king: a king
    /// left in check by a return is mated or escapes, it is not taken, rule 4.8a).
    pub fn world_moves(&self, s: &UState, color: Color) -> Vec<Move> {
        let w = s.world_for(color);
        let their_king = w.board().king(!color);
        crate::movegen::legal_moves(&Standard, &w)
            .iter()
            .copied()
            .filter(|m| Some(m.to) != their_king)
            .collect()
    }

    /// Whether `color` has a legal World move: asked of the generator without a list,
    /// unless the other king is in check (the generator would offer its capture).
    pub fn has_world_move(&self, s: &UState, color: Color) -> bool {
        let w = s.world_for(color);
        if !crate::movegen::king_attacked(&Standard, &w, !color) {
            return crate::movegen::has_legal_move(&Standard, &w);
        }
        !self.world_moves(s, color).is_empty()
    }

    /// Whether the king of `color` is in check on the World.
    pub fn world_check(&self, s: &UState, color: Color) -> bool {
        crate::movegen::king_attacked(&Standard, &s.world, color)
    }

    /// Whether the side that did not make the last turn is in check on the World with
    /// no World move: mated at once (rule 4.8a).
    fn mated_after_last_turn(&self, s: &UState) -> bool {
        s.placing.is_none()
            && s.last_mover
                .is_some_and(|last| self.world_check(s, !last) && !self.has_world_move(s, !last))
    }

    /// Whether the game ended with the last turn: a mate (rule 4.8a) or both boards
    /// inactive (4.1). A stalemate, and a mate on input, wait for the side's World turn
    /// (`end`).
    pub(crate) fn ended_with_last_turn(&self, s: &UState) -> bool {
        self.mated_after_last_turn(s) || (!s.active(Realm::World) && !s.active(Realm::Under))
    }

    /// The next phase after `phase` whose board is active (rule 4.1), if any.
    fn next_phase(s: &UState, phase: Phase) -> Option<Phase> {
        let mut q = phase;
        for _ in 0..4 {
            q = q.next();
            if s.active(q.realm()) {
                return Some(q);
            }
        }
        None
    }

    /// Ends the turn of `s.phase`: the next active phase, if a board is active.
    fn end_turn(s: &mut UState) {
        s.last_mover = Some(s.phase.color());
        if let Some(next) = Underworld::next_phase(s, s.phase) {
            s.phase = next;
        }
    }

    /// Plays a World move of `color`: the board's part, home files, and the drop of a
    /// captured man on the Underworld (rule 3; a pawn on the file it is captured on, a
    /// promoted man's home is the file it promotes on).
    fn play_world(s: &mut UState, color: Color, mv: Move) {
        let mut w = s.world_for(color);
        let victim_home = |sq: Square| s.homes[0].get(sq);
        let victim_sq = match mv.kind {
            MoveKind::EnPassant => Some(Square::from_coords(mv.to.file(), mv.from.rank())),
            MoveKind::Castle => None,
            _ => w.board().occupied().contains(mv.to).then_some(mv.to),
        };
        let home = victim_sq.map(victim_home);
        let captured = w.play_fide(&Standard, mv);
        s.world = w;
        let homes = &mut s.homes[0];
        match mv.kind {
            MoveKind::Castle => {
                let (king_to, rook_to) = (mv.castle_king_to(), mv.castle_rook_to());
                let (king_home, rook_home) = (homes.get(mv.from), homes.get(mv.to));
                homes.clear(mv.from);
                homes.clear(mv.to);
                homes.set(king_to, king_home);
                homes.set(rook_to, rook_home);
            }
            MoveKind::Promotion(_) => {
                homes.clear(mv.from);
                homes.set(mv.to, mv.to.file());
            }
            _ => homes.carry(mv.from, mv.to),
        }
        if let Some((sq, piece)) = captured {
            let file = if piece.role == Role::Pawn {
                sq.file()
            } else {
                home.unwrap_or(0)
            };
            drops::drop_on_under(s, piece, file);
        }
    }
}

impl TurnGame for Underworld {
    type State = UState;
    type Move = UMove;

    fn mover(&self, s: &UState) -> Color {
        s.mover()
    }

    fn moves(&self, s: &UState) -> Vec<UMove> {
        if let Some(owner) = s.placing {
            let capturer = !owner;
            let candidates = !s.under.occupied()
                & (crate::bitboard::Bitboard::rank(0)
                    | crate::bitboard::Bitboard::rank(1)
                    | crate::bitboard::Bitboard::rank(6)
                    | crate::bitboard::Bitboard::rank(7));
            let attacked = under_moves::attacked_among(&s.under, candidates, capturer);
            return drops::placements(&s.under, owner, attacked)
                .into_iter()
                .map(UMove::Place)
                .collect();
        }
        // The game is over (rule 4.8a, 4.1): no move. Stalemate and mate at the
        // mover's World turn show as a World with no move below.
        if self.ended_with_last_turn(s) {
            return Vec::new();
        }
        let color = s.phase.color();
        match s.phase.realm() {
            Realm::World => self
                .world_moves(s, color)
                .into_iter()
                .map(UMove::World)
                .collect(),
            Realm::Under => {
                let moves = under_moves::legal_moves(s, color);
                if moves.is_empty() {
                    vec![UMove::Pass]
                } else {
                    moves.into_iter().map(UMove::Under).collect()
                }
            }
        }
    }

    /// The first World move the generator offers (where the other king is not in
    /// check: there it would offer the king's capture), or the first Underworld move.
    fn first_move(&self, s: &UState) -> Option<UMove> {
        if s.placing.is_some() || self.mated_after_last_turn(s) {
            return None;
        }
        let color = s.phase.color();
        match s.phase.realm() {
            Realm::World if s.active(Realm::World) && !self.world_check(s, !color) => fide()
                .first_legal_move(&s.world_for(color))
                .map(UMove::World),
            Realm::Under if s.active(Realm::Under) => under_moves::legal_moves(s, color)
                .first()
                .map(|&m| UMove::Under(m)),
            _ => None,
        }
    }

    fn play(&self, s: &UState, mv: UMove) -> UState {
        let mut next = *s;
        let color = s.phase.color();
        match mv {
            UMove::World(m) => Underworld::play_world(&mut next, color, m),
            UMove::Under(m) => under_moves::apply(&mut next, color, m),
            UMove::Pass => next.u_ep = None,
            UMove::Place(sq) => {
                let owner = s.placing.expect("a King to place");
                next.under
                    .put(sq, crate::types::Piece::new(owner, Role::King));
                next.placing = None;
            }
        }
        if next.placing.is_none() {
            Underworld::end_turn(&mut next);
        }
        next
    }

    fn end(&self, s: &UState) -> Option<End> {
        if s.placing.is_some() {
            return None;
        }
        // Mate is judged right after every turn (rule 4.8a).
        if let Some(last) = s.last_mover.filter(|_| self.mated_after_last_turn(s)) {
            return Some(End::Win(last));
        }
        if !s.active(Realm::World) && !s.active(Realm::Under) {
            return Some(End::Draw);
        }
        // Stalemate (and mate on input) when the side's World turn comes (rule 4.5).
        if s.phase.realm() == Realm::World && !self.has_world_move(s, s.phase.color()) {
            let color = s.phase.color();
            return Some(if self.world_check(s, color) {
                End::Win(!color)
            } else {
                End::Draw
            });
        }
        None
    }

    /// A round begins when play passes from the WU end of the cycle back towards its
    /// start, phases skipped or not (rule 4.8b).
    fn new_round(&self, before: &UState, after: &UState) -> bool {
        after.placing.is_none() && after.phase <= before.phase
    }

    /// Only a King taking the other leaves a choice (its placement) to count.
    fn leaves(&self, s: &UState, moves: &[UMove]) -> u64 {
        moves
            .iter()
            .map(|&mv| match mv {
                UMove::Under(UnderMove {
                    kind: under_moves::UnderKind::KingTakesKing(_),
                    ..
                }) => self.moves(&self.play(s, mv)).len() as u64,
                _ => 1,
            })
            .sum()
    }

    /// On the World the generator counts without a list, unless the other king is in
    /// check (the generator would offer its capture, which is no move here).
    fn count_leaves(&self, s: &UState) -> u64 {
        let color = s.phase.color();
        let plain_world = s.placing.is_none()
            && s.phase.realm() == Realm::World
            && s.active(Realm::World)
            && !self.world_check(s, !color)
            && !self.mated_after_last_turn(s);
        if plain_world {
            return crate::movegen::count_legal(&Standard, &s.world_for(color));
        }
        self.leaves(s, &self.moves(s))
    }

    fn completes_turn(&self, s: &UState) -> bool {
        s.placing.is_some()
    }

    /// The phase's side: a captured Underworld King is placed by its owner within the
    /// capturer's turn (rules.md 4.8e).
    fn turn_owner(&self, s: &UState) -> Color {
        s.phase.color()
    }

    /// At WW, the last move of White's turn: White's mates on the World, which are the
    /// FIDE mates of that board (rule 4.5: check, and no legal World move). Not where
    /// Black is in check already (on input): a mate there need not give check, and the
    /// FIDE mates are found among the checking moves.
    fn winning_moves(&self, s: &UState) -> Option<Vec<UMove>> {
        if s.phase != Phase::WW || s.placing.is_some() || self.world_check(s, Color::Black) {
            return None;
        }
        if self.mated_after_last_turn(s) {
            return Some(Vec::new());
        }
        let mut list = crate::moves::MoveList::new();
        crate::search::last_move::mating_moves(fide(), &s.world_for(Color::White), &mut list);
        Some(list.iter().map(|&m| UMove::World(m)).collect())
    }

    /// A move after which nobody wins in this round (`last_turn`).
    fn quiet_move(&self, s: &UState) -> Option<UMove> {
        last_turn::quiet_move(self, s)
    }

    /// White's last turns that may bring about a self-mate (`last_turn`).
    fn self_mate_candidates(&self, s: &UState) -> Option<Vec<UMove>> {
        last_turn::self_mate_candidates(self, s)
    }

    /// White's last turns that may mate (`last_turn`).
    fn mate_candidates(&self, s: &UState) -> Option<Vec<UMove>> {
        last_turn::mate_candidates(self, s)
    }

    /// A mate on the World out of reach (`help_bound`).
    fn help_hopeless(&self, s: &UState, winner: Color, turns: u32) -> bool {
        help_bound::mate_out_of_reach(s, winner, turns)
    }

    fn key(&self, s: &UState) -> u64 {
        s.key()
    }

    fn coord(&self, s: &UState, mv: UMove) -> String {
        notation::coord(s, mv)
    }

    fn notation(&self, s: &UState, mv: UMove) -> String {
        notation::notation(self, s, mv)
    }

    fn key_effects(&self, s: &UState, key: UMove) -> Option<KeyEffects> {
        Some(key_effects::key_effects(self, s, key))
    }

    /// The mate is a FIDE mate on the World (rule 4.5).
    fn mate_board(&self, s: &UState, mated: Color) -> Option<Position> {
        Some(s.world_for(mated))
    }
}

/// Perft of a position line (rules.md 7.1, 4.8d), for tests and tools.
pub fn perft_line(line: &str, depth: u32) -> Result<u64, String> {
    let p = read_line(line)?;
    Ok(crate::generic::perft::perft(&Underworld, &p.state, depth))
}

/// `perft_line` split by the first move, in `--json` coordinates.
pub fn divide_line(line: &str, depth: u32) -> Result<Vec<(String, u64)>, String> {
    let p = read_line(line)?;
    Ok(crate::generic::perft::divide(&Underworld, &p.state, depth))
}
