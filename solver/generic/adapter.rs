//! The single-board games (FIDE, Trapdoor, Taxi, Earthquake and their combinations) as a
//! `TurnGame`: what lets the core's plain search be checked against the fast one of
//! `crate::search` on the same problems (tests/generic_core.rs), and lets every stipulation
//! built on the core serve these games too.

use super::{End, TurnGame};
use crate::game::{Game, Outcome};
use crate::geometry::Terrain;
use crate::moves::Move;
use crate::position::Position;
use crate::types::Color;

/// A position of a single-board game, with how the move that led to it ended the game.
#[derive(Copy, Clone, Debug)]
pub struct BoardState {
    pub position: Position,
    pub ended: Option<End>,
}

/// How a move of `mover` ended the game by the outcome `Game::play` gives it (a mate
/// judged with the falls, or a king's fall); `None` otherwise (a mate without falls is
/// read from the board after the move, `TurnGame::end`).
fn ended_by(mover: Color, outcome: Option<Outcome>) -> Option<End> {
    outcome.map(|o| match o {
        Outcome::Mate => End::Win(mover),
        Outcome::KingFell => End::Win(!mover),
    })
}

/// `game` with `attacker` as the side whose moves begin each round.
pub struct OneBoard<'a, T: Terrain> {
    pub game: &'a Game<T>,
    pub attacker: Color,
}

impl BoardState {
    pub fn new(position: Position) -> BoardState {
        BoardState {
            position,
            ended: None,
        }
    }
}

impl<T: Terrain> TurnGame for OneBoard<'_, T> {
    type State = BoardState;
    type Move = Move;

    fn mover(&self, s: &BoardState) -> Color {
        s.position.turn()
    }

    fn moves(&self, s: &BoardState) -> Vec<Move> {
        if s.ended.is_some() {
            return Vec::new();
        }
        // Into a list on this frame: the list returned by value would be copied whole.
        let mut list = crate::moves::MoveList::new();
        self.game.legal_moves_into(&s.position, &mut list);
        list.as_slice().to_vec()
    }

    fn moves_into(&self, s: &BoardState, out: &mut Vec<Move>) {
        out.clear();
        if s.ended.is_none() {
            let mut list = crate::moves::MoveList::new();
            self.game.legal_moves_into(&s.position, &mut list);
            out.extend_from_slice(list.as_slice());
        }
    }

    /// `Game::first_legal_move`; a state whose game ended has no legal move.
    fn first_move(&self, s: &BoardState) -> Option<Move> {
        if s.ended.is_some() {
            return None;
        }
        self.game.first_legal_move(&s.position)
    }

    fn play(&self, s: &BoardState, mv: Move) -> BoardState {
        let mover = s.position.turn();
        let played = self.game.play(&s.position, mv);
        BoardState {
            position: played.position,
            ended: ended_by(mover, played.outcome),
        }
    }

    #[inline(always)]
    fn play_in_place(&self, s: &mut BoardState, mv: Move) {
        let mover = s.position.turn();
        let outcome = self.game.play_in_place(&mut s.position, mv);
        s.ended = ended_by(mover, outcome);
    }

    fn end(&self, s: &BoardState) -> Option<End> {
        if s.ended.is_some() {
            return s.ended;
        }
        if self.game.has_legal_move(&s.position) {
            return None;
        }
        Some(if self.game.in_check(&s.position) {
            End::Win(!s.position.turn())
        } else {
            End::Draw
        })
    }

    /// A round is the attacker's move and the defender's reply (rules.md 1.6).
    fn new_round(&self, _before: &BoardState, after: &BoardState) -> bool {
        after.position.turn() == self.attacker
    }

    /// The turn passes without a move: no en passant right, timers and cash as they are
    /// (rules.md 8.4).
    fn other_side_to_move(&self, s: &BoardState) -> Option<BoardState> {
        let mut p = s.position;
        p.pass();
        Some(BoardState::new(p))
    }

    fn threat_state(&self, s: &BoardState) -> Option<BoardState> {
        // The turn ends as after a move, and the side then to move receives its Taxi
        // income (rules.md 2), as the fast search's threats do.
        if s.ended.is_some() || self.game.in_check(&s.position) {
            return None;
        }
        Some(BoardState::new(self.game.pass(&s.position)))
    }

    fn cash(&self, s: &BoardState) -> Option<[u32; 2]> {
        let p = &s.position;
        self.game
            .rules
            .taxi
            .map(|_| [p.cash(Color::White), p.cash(Color::Black)])
    }

    fn king_fell(&self, s: &BoardState) -> bool {
        s.ended == Some(End::Win(s.position.turn()))
    }

    /// A move that gives no check: it mates nobody and lets nobody fall where the game
    /// can say so without playing it (no Trapdoor, a board that does not shift), and the
    /// turn, with it the round, goes to the other side.
    fn quiet_move(&self, s: &BoardState) -> Option<Move> {
        if s.ended.is_some() {
            return None;
        }
        self.game.quiet_move(&s.position)
    }

    /// The mates, found among the moves that give check (or that falls make one) and
    /// take every flight (`search::last_move::mating_moves`).
    fn winning_moves(&self, s: &BoardState) -> Option<Vec<Move>> {
        if s.ended.is_some() {
            return Some(Vec::new());
        }
        let mut list = crate::moves::MoveList::new();
        crate::search::last_move::mating_moves(self.game, &s.position, &mut list);
        Some(list.as_slice().to_vec())
    }

    /// The moves a checkless reply that no move touches leaves standing are left out
    /// (`search::last_move::self_mate_candidates`).
    fn self_mate_candidates(&self, s: &BoardState) -> Option<Vec<Move>> {
        if s.ended.is_some() {
            return None;
        }
        let mut list = crate::moves::MoveList::new();
        crate::search::last_move::self_mate_candidates(self.game, &s.position, &mut list)
            .then(|| list.as_slice().to_vec())
    }

    /// The fewest moves to a mate on an empty board (`search::mate_bound`).
    fn help_hopeless(&self, s: &BoardState, winner: Color, turns: u32) -> bool {
        s.ended.is_none() && self.game.mate_out_of_reach(&s.position, winner, turns)
    }

    /// The plans of `search::help_plans`, on a fixed board, loosened for the falls of
    /// Trapdoor and the prices of Taxi (`MateRules`). Not where the mated side may hold
    /// nothing at the mate (Taxi with no income and little cash): a flight may be barred
    /// by the price of a plain step, plans of a king and a checker would prune less than
    /// the mate bound, which then serves.
    fn help_guide(
        &self,
        root: &BoardState,
        winner: Color,
        turns: u32,
    ) -> Result<Box<dyn super::help::HelpGuide<Move> + '_>, super::help::NoGuide> {
        use super::help::NoGuide;
        use crate::search::mate_bound::Flights;
        if root.ended.is_some()
            || self.game.flights_barred_by(&root.position, winner, turns) == Flights::Unasked
        {
            return Err(NoGuide::NotServed);
        }
        let geo = self.game.terrain.fixed().ok_or(NoGuide::NotServed)?;
        let tables = self.game.mate_tables(geo);
        let rules = self.game.mate_rules(&root.position, winner, turns);
        let guide =
            crate::search::help_plans::plans(tables, geo, &root.position, winner, turns, rules)?;
        Ok(Box::new(crate::search::help_plans::GuideOn { geo, guide }))
    }

    fn key(&self, s: &BoardState) -> u64 {
        s.position.hash()
    }

    /// Under Taxi, each side's cash from the amount on that pays for every move and
    /// attack of the turns left (`search::table_key::help_key`) shares one key.
    fn help_key(&self, s: &BoardState, turns: u32) -> u64 {
        crate::search::table_key::help_key(self.game, &s.position, turns)
    }

    fn coord(&self, s: &BoardState, mv: Move) -> String {
        mv.coord(s.position.is_chess960()).to_string()
    }

    fn notation(&self, s: &BoardState, mv: Move) -> String {
        crate::san::san(self.game, &s.position, mv)
    }
}
