//! A game: a geometry and the rule modifiers in force. It owns the full sequence of
//! events of a move (rules.md 1.5) and answers what the solver, perft and replay ask:
//! the legal moves, the result of playing one, and whether a side is mated.

use crate::bitboard::Bitboard;
use crate::geometry::{Earthquake, Geometry, Shifting, Standard, Terrain};
use crate::movegen::{self, MoveSink};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::search::mate_bound::Flights;
use crate::taxi::{self, Taxi};
use crate::trapdoor::{FallOrder, Trapdoor};
use crate::types::{Color, Role, Square};

/// Finds the first generated move that passes `legal`.
struct FirstLegal<F: FnMut(Move) -> bool> {
    legal: F,
    found: Option<Move>,
}

impl<F: FnMut(Move) -> bool> FirstLegal<F> {
    fn new(legal: F) -> FirstLegal<F> {
        FirstLegal { legal, found: None }
    }
}

impl<F: FnMut(Move) -> bool> MoveSink for FirstLegal<F> {
    const STOPS_EARLY: bool = true;
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.special(Move::new(role, from, to, MoveKind::Normal));
            if self.found.is_some() {
                return;
            }
        }
    }
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        movegen::pawn_moves(from, targets, promo, |mv| self.special(mv));
    }
    fn special(&mut self, mv: Move) {
        if self.found.is_none() && (self.legal)(mv) {
            self.found = Some(mv);
        }
    }
    fn done(&self) -> bool {
        self.found.is_some()
    }
}

/// Passes on to `inner` only the king's moves (`KING`) or only the other men's: the
/// two kinds of move are judged apart when the king falls unless it moves (see
/// `Game::king_falls_unless_it_moves`).
struct KingMovesOnly<S, const KING: bool> {
    inner: S,
}

impl<S: MoveSink, const KING: bool> MoveSink for KingMovesOnly<S, KING> {
    const STOPS_EARLY: bool = S::STOPS_EARLY;
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        if (role == Role::King) == KING {
            self.inner.piece(role, from, targets);
        }
    }
    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        if !KING {
            self.inner.pawn(from, targets, promo);
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        if (mv.role == Role::King) == KING {
            self.inner.special(mv);
        }
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.inner.done()
    }
    #[inline(always)]
    fn king_steps_wanted(&self, king: Square) -> Bitboard {
        if KING {
            self.inner.king_steps_wanted(king)
        } else {
            Bitboard::EMPTY
        }
    }
    #[inline(always)]
    fn piece_wanted(&self, role: Role, from: Square) -> bool {
        !KING && self.inner.piece_wanted(role, from)
    }
}

/// Which of the mover's moves may let its own falls expose its king (rule 1.5d): a
/// falling piece stands between the king and an enemy rider with no other blocker
/// (`every_move`), or with one other blocker, a piece that would have to leave
/// (`leaving`); a king step may walk onto a line from an enemy rider through falling
/// pieces only (`king_danger`).
#[derive(Copy, Clone, Debug, Default)]
struct FallGuard {
    expiring: Bitboard,
    every_move: bool,
    leaving: Bitboard,
    king_danger: Bitboard,
    /// No move of the mover can be exposed by its falls: none needs the full test.
    clears_all: bool,
}

impl FallGuard {
    /// A guard that sends every move to `Game::trapdoor_legal`: for the few moves a
    /// search for one legal move judges, cheaper than working out which need it.
    fn every_move(expiring: Bitboard) -> FallGuard {
        FallGuard {
            expiring,
            every_move: true,
            ..FallGuard::default()
        }
    }

    /// Whether the falls after `mv` may expose the mover's king, so that the move needs
    /// the full test. En passant removes a second piece, castling moves two, an
    /// aftershock moves the board: those are always tried.
    #[inline(always)]
    fn may_expose(&self, mv: Move) -> bool {
        self.every_move
            || self.leaving.contains(mv.from)
            || match mv.kind {
                MoveKind::EnPassant | MoveKind::Castle | MoveKind::Aftershock(_) => true,
                _ => mv.role == Role::King && self.king_danger.contains(mv.to),
            }
    }
}

/// The rule modifiers of a game; all `None` is FIDE chess.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub trapdoor: Option<Trapdoor>,
    pub taxi: Option<Taxi>,
}

impl Rules {
    pub fn is_fide(&self) -> bool {
        self.trapdoor.is_none() && self.taxi.is_none()
    }
}

/// How a move ended the game, if it did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The mover checkmated the opponent before anything fell (mate first, rule 1.5b),
    /// or, with falls first, in the position after the falls.
    Mate,
    /// The mover's own king fell through a trapdoor: the mover has lost (rule 1.5c).
    KingFell,
}

/// The result of playing a legal move.
#[derive(Copy, Clone, Debug)]
pub struct Played {
    pub position: Position,
    /// Squares whose pieces fell at the end of the move.
    pub fallen: Bitboard,
    pub outcome: Option<Outcome>,
}

/// The state of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Checkmated,
    Stalemated,
}

/// Deepest chain of "is this move legal because it mates?" questions followed
/// (rules.md 1.5, step b through the opponent's replies). Each level needs a checking
/// move whose own falls would expose the mover's king; real problems stay far below.
const MAX_MATE_RECURSION: u32 = 32;

#[derive(Clone, Debug)]
pub struct Game<T: Terrain = Standard> {
    pub terrain: T,
    /// Fixed at construction (`on`): `taxi_dearest` follows from it.
    pub(crate) rules: Rules,
    /// Under Taxi, the price of the dearest move on this terrain (rules.md 2.1): from
    /// this cash on, every move is affordable. Worked out once, square by square.
    taxi_dearest: u32,
    /// Help play's distances (`search::mate_bound`), fetched on first use.
    mate_tables: std::sync::OnceLock<std::sync::Arc<crate::search::mate_bound::MateTables>>,
    /// Help play's indifferent cash by turns left (`search::table_key::help_key`),
    /// worked out on first use.
    pub(crate) help_cash_needs: std::sync::OnceLock<Box<[[u32; 2]]>>,
}

impl Game<Standard> {
    pub fn fide() -> Game<Standard> {
        Game::on(Standard, Rules::default())
    }

    pub fn new(rules: Rules) -> Game<Standard> {
        Game::on(Standard, rules)
    }
}

impl<T: Terrain> Game<T> {
    /// The game of `rules` on `terrain`.
    pub fn on(terrain: T, rules: Rules) -> Game<T> {
        Game {
            taxi_dearest: rules.taxi.map_or(0, |_| taxi::dearest_move_on(&terrain)),
            terrain,
            rules,
            mate_tables: std::sync::OnceLock::new(),
            help_cash_needs: std::sync::OnceLock::new(),
        }
    }

    /// Whether the side that does not win (`!winner`) surely cannot be mated by
    /// `winner` with the last of `turns` turns from `pos` (`search::mate_bound`); never
    /// said on a board that shifts, whose distances change with the board.
    pub fn mate_out_of_reach(&self, pos: &Position, winner: Color, turns: u32) -> bool {
        let Some(geo) = self.terrain.fixed() else {
            return false;
        };
        let tables = self.mate_tables(geo);
        let flights = self.flights_barred_by(pos, winner, turns);
        tables.hopeless(geo, pos, winner, turns, flights, self.rules.taxi.is_some())
    }

    /// What bars a flight of `!winner`'s king, mated with the last of `turns` turns from
    /// `pos` (`mate_bound::Flights`): its own man or an attack, as in FIDE, where it
    /// surely pays every king's step and capture at the mate; also a man of the
    /// winner's standing there where it surely pays a plain step (one) but perhaps not
    /// a capture's fee; nothing asked where it may hold nothing.
    pub fn flights_barred_by(&self, pos: &Position, winner: Color, turns: u32) -> Flights {
        if self.mated_side_holds(pos, winner, turns, taxi::DEAREST_KING_STEP) {
            Flights::Guarded
        } else if self.mated_side_holds(pos, winner, turns, 1) {
            Flights::OrTooDear
        } else {
            Flights::Unasked
        }
    }

    /// Whether `!winner`, mated with the last of `turns` turns from `pos`, surely holds
    /// `amount` then (always so without Taxi): counted from its cash, its incomes and
    /// the dearest move for each of its moves (`taxi::surely_holds`).
    fn mated_side_holds(&self, pos: &Position, winner: Color, turns: u32, amount: u32) -> bool {
        self.rules.taxi.as_ref().is_none_or(|taxi| {
            let (_, own_moves) = crate::search::mate_bound::moves_left(pos, winner, turns);
            taxi::surely_holds(pos, !winner, own_moves, taxi, self.taxi_dearest, amount)
        })
    }

    /// What this game changes in a mate given by `winner` with the last of `turns`
    /// turns from `pos`, for the mate plans (`help_plans::MateRules`): Trapdoor's
    /// falls, and under Taxi parries left unasked where the mated side may hold less
    /// than the dearest move (one could be too dear to play), and a flight barred by a
    /// man standing on it where its capture may be too dear (`flights_barred_by`).
    pub fn mate_rules(
        &self,
        pos: &Position,
        winner: Color,
        turns: u32,
    ) -> crate::search::help_plans::MateRules {
        crate::search::help_plans::MateRules {
            falls: self.rules.trapdoor.is_some(),
            parries: self.rules.trapdoor.is_none()
                && self.mated_side_holds(pos, winner, turns, self.taxi_dearest),
            stand: self.flights_barred_by(pos, winner, turns) == Flights::OrTooDear,
        }
    }

    /// The help bound's distances on `geo`, this game's fixed geometry.
    pub(crate) fn mate_tables(
        &self,
        geo: &T::Geo,
    ) -> std::sync::Arc<crate::search::mate_bound::MateTables> {
        self.mate_tables
            .get_or_init(|| crate::search::mate_bound::MateTables::for_geometry(geo))
            .clone()
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Under Taxi, the price of the dearest move on this terrain (rules.md 2.1).
    pub fn taxi_dearest(&self) -> u32 {
        self.taxi_dearest
    }

    /// The geometry in force in `pos`.
    #[inline(always)]
    pub fn geo(&self, pos: &Position) -> &T::Geo {
        self.terrain.at(pos)
    }

    /// No rule modifier and a fixed board: FIDE rules on this geometry, where the fast
    /// paths of the move generator and the solver apply.
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        self.rules.is_fide() && !self.terrain.shifts()
    }

    /// Whether the king of the side to move is attacked.
    #[inline(always)]
    pub fn in_check(&self, pos: &Position) -> bool {
        self.king_in_check(pos, pos.turn())
    }

    /// Whether the king of `color` is in check in `pos`: attacked (FIDE), or under Taxi
    /// attacked by a capture the other side can afford on its next turn (rules.md 2.2).
    #[inline(always)]
    pub fn king_in_check(&self, pos: &Position, color: Color) -> bool {
        match &self.rules.taxi {
            None => movegen::king_attacked(self.geo(pos), pos, color),
            Some(taxi) => taxi::in_check(self.geo(pos), pos, color, taxi),
        }
    }

    /// The board's part of a move plus its price under Taxi: the mover pays, and the
    /// opponent receives its income before its turn (rules.md 2). No falls.
    #[inline(always)]
    fn play_core(&self, pos: &Position, mv: Move) -> Position {
        let mut p = *pos;
        self.play_core_in_place(&mut p, mv);
        p
    }

    /// `play_core` on the position itself (no copy to return): the whole of `play` when
    /// there is no trapdoor.
    #[inline(always)]
    pub(crate) fn play_core_in_place(&self, p: &mut Position, mv: Move) {
        let geo = self.geo(p);
        let us = p.turn();
        let price = match &self.rules.taxi {
            Some(_) => taxi::cost(geo, p.board(), mv),
            None => 0,
        };
        // Taxi's board part is FIDE's: only timers and aftershocks need the full move.
        if self.rules.trapdoor.is_none() && !self.terrain.shifts() {
            p.play_fide(geo, mv);
        } else {
            p.play_board(geo, mv);
        }
        if self.rules.taxi.is_some() {
            p.set_cash(us, p.cash(us).saturating_sub(price));
            self.pay_income(p);
        }
    }

    /// Under Taxi, the side now to move receives its income before its turn (rules.md 2).
    #[inline(always)]
    fn pay_income(&self, p: &mut Position) {
        if let Some(taxi) = &self.rules.taxi {
            let to_move = p.turn();
            p.set_cash(to_move, p.cash(to_move) + taxi.income);
        }
    }

    /// The position if the side to move could pass (a problem's threat is what the
    /// attacker would play then): the turn ends as after a move (`Position::pass`), and
    /// the side now to move receives its Taxi income. Nothing moved, so no timer ticks.
    pub fn pass(&self, pos: &Position) -> Position {
        let mut p = *pos;
        p.pass();
        self.pay_income(&mut p);
        p
    }

    /// The moves legal by movement, price and check, with aftershocks (before the
    /// Trapdoor's own conditions).
    fn base_moves(&self, pos: &Position, moves: &mut MoveList) {
        moves.clear();
        self.generate_base(pos, moves);
        if self.terrain.shifts() {
            self.add_aftershocks(pos, moves);
        }
    }

    /// Generates into `sink` the moves legal by movement, price and check (rules.md
    /// 2.1-2.3; FIDE without Taxi): no aftershocks, no Trapdoor conditions, except that
    /// falls first a king that falls at the end of the move is not judged (see
    /// `king_falls_unless_it_moves`).
    #[inline(always)]
    pub fn generate_base<S: MoveSink>(&self, pos: &Position, sink: &mut S) {
        if self.king_falls_unless_it_moves(pos) {
            return self.generate_as_the_king_falls(pos, sink);
        }
        self.generate_checked(pos, sink);
    }

    /// `generate_base` when the king's safety is judged before any fall.
    #[inline(always)]
    fn generate_checked<S: MoveSink>(&self, pos: &Position, sink: &mut S) {
        let geo = self.geo(pos);
        match &self.rules.taxi {
            Some(taxi) if !taxi::rich(geo, pos, taxi, self.taxi_dearest) => {
                let mut priced =
                    taxi::Affordable::new(geo, pos.board(), pos.cash(pos.turn()), sink);
                let threats = taxi::AffordableAttack::against_mover(geo, pos, taxi);
                movegen::generate_with(geo, pos, &threats, &mut priced);
            }
            _ => movegen::generate(geo, pos, sink),
        }
    }

    /// Under `falls-first`, whether the mover's king falls at the end of any move that
    /// leaves it standing (ticking with one move left). Legality is then judged in P'
    /// only (rules.md 1.5, the option), where that king is gone: every move of another
    /// man is legal by its movement (and price) alone, whatever it leaves attacked, and
    /// loses unless it mates.
    #[inline(always)]
    fn king_falls_unless_it_moves(&self, pos: &Position) -> bool {
        matches!(self.rules.trapdoor, Some(td) if td.order == FallOrder::FallsFirst)
            && (pos.timers().on_last_move() & pos.board().by_piece(pos.turn(), Role::King))
                .is_nonempty()
    }

    /// `generate_base` when the mover's king falls unless it moves: the king's moves as
    /// always (a king that moves does not fall), the other men's by movement and price.
    #[cold]
    fn generate_as_the_king_falls<S: MoveSink>(&self, pos: &Position, sink: &mut S) {
        self.generate_checked(pos, &mut KingMovesOnly::<_, true> { inner: &mut *sink });
        if sink.done() {
            return;
        }
        let geo = self.geo(pos);
        let mut others = KingMovesOnly::<_, false> { inner: sink };
        match &self.rules.taxi {
            Some(_) => movegen::generate_pseudo(
                geo,
                pos,
                &mut taxi::Affordable::new(geo, pos.board(), pos.cash(pos.turn()), &mut others),
            ),
            None => movegen::generate_pseudo(geo, pos, &mut others),
        }
    }

    /// Every legal move of the side to move, including moves that only lose (a move
    /// whose end lets the mover's own king fall is legal, rule 1.5c).
    pub fn legal_moves(&self, pos: &Position) -> MoveList {
        let mut moves = MoveList::new();
        self.legal_moves_into(pos, &mut moves);
        moves
    }

    /// `legal_moves` into a list the caller owns (no copy of the list on return).
    #[inline]
    pub fn legal_moves_into(&self, pos: &Position, moves: &mut MoveList) {
        self.base_moves(pos, moves);
        self.retain_legal(pos, moves);
    }

    /// Whether `mv`, a move remembered from another position (a killer), is legal
    /// here, when that is cheap to decide without listing the moves; `None` otherwise.
    /// Agrees with `legal_moves_into`: the price (Taxi), legality with the attacks that
    /// count as check (every one in FIDE, the affordable ones under Taxi), then the
    /// Trapdoor's own conditions.
    pub fn is_legal_quick(&self, pos: &Position, mv: Move) -> Option<bool> {
        if self.terrain.shifts() || self.king_falls_unless_it_moves(pos) {
            return None;
        }
        let geo = self.geo(pos);
        let legal = match &self.rules.taxi {
            None => movegen::is_legal(geo, pos, mv),
            Some(taxi) => {
                if taxi::cost(geo, pos.board(), mv) > pos.cash(pos.turn()) {
                    return Some(false);
                }
                let threats = taxi::AffordableAttack::against_mover(geo, pos, taxi);
                movegen::is_legal_with(geo, pos, &threats, mv)
            }
        };
        if !legal {
            return Some(false);
        }
        if let Some(td) = self.rules.trapdoor {
            let guard = FallGuard::every_move(Trapdoor::expiring(pos, pos.turn(), Bitboard::EMPTY));
            if !self.trapdoor_legal(&td, pos, mv, &guard, 0) {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Adds the aftershocks the side to move may play (rules.md 3.7): a use left, a new
    /// dx in range that is not the one the opponent just left, no occupied square
    /// vanishing, and the own king not attacked on the shifted board (unless, falls
    /// first, it falls at the end of the move). (Falls under Trapdoor are judged with
    /// the other moves in `retain_legal`.)
    fn add_aftershocks(&self, pos: &Position, moves: &mut MoveList) {
        let us = pos.turn();
        let quake = pos.quake();
        if quake.shocks[us.index()] == 0 {
            return;
        }
        let occupied = pos.board().occupied();
        for dx in Shifting::MIN_DX..=Shifting::MAX_DX {
            if dx == quake.dx || Some(dx) == quake.no_return {
                continue;
            }
            let Some(geo) = self.terrain.shifted(dx) else {
                continue;
            };
            if (occupied - geo.squares()).is_nonempty() {
                continue;
            }
            let mv = Move::aftershock(dx);
            // A king that falls at the end of this move is not judged (falls first).
            if self.king_falls_unless_it_moves(pos)
                || !self.king_in_check(&self.play_core(pos, mv), us)
            {
                moves.push(mv);
            }
        }
    }

    /// Keeps the moves of a list from `generate_base` that are legal under these rules.
    #[inline]
    pub fn retain_legal(&self, pos: &Position, moves: &mut MoveList) {
        if let Some(td) = self.rules.trapdoor {
            let guard = self.fall_guard(pos);
            if !guard.clears_all {
                moves.retain(|&mv| {
                    !guard.may_expose(mv) || self.trapdoor_legal(&td, pos, mv, &guard, 0)
                });
            }
        }
    }

    /// What the mover's falls can do to its own king in `pos` (rule 1.5d), computed once
    /// for all its moves.
    fn fall_guard(&self, pos: &Position) -> FallGuard {
        let us = pos.turn();
        let expiring = Trapdoor::expiring(pos, us, Bitboard::EMPTY);
        let mut guard = FallGuard {
            expiring,
            clears_all: true,
            ..FallGuard::default()
        };
        let board = pos.board();
        let (Some(king), true) = (board.king(us), expiring.is_nonempty()) else {
            return guard;
        };
        let geo = self.geo(pos);
        let them = board.by_color(!us);
        // Lines from an enemy rider through falling pieces (and the square the king
        // leaves): a king step onto one may be exposed.
        let open = board.occupied() - expiring - Bitboard::from_square(king);
        for x in expiring {
            let riders = (geo.rook_attacks(x, open) & board.rooks_and_queens()
                | geo.bishop_attacks(x, open) & board.bishops_and_queens())
                & them;
            for rider in riders {
                guard.king_danger |= geo.line(x, rider);
            }
        }
        let riders = ((geo.rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (geo.bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
            & them;
        for rider in riders {
            let blockers = geo.between(king, rider) & board.occupied();
            if (blockers & expiring).is_empty() {
                continue;
            }
            let staying = blockers - expiring;
            if staying.is_empty() {
                guard.every_move = true;
            } else if !staying.more_than_one() {
                guard.leaving |= staying;
            }
        }
        guard.clears_all = !guard.every_move
            && guard.leaving.is_empty()
            && (guard.king_danger & geo.king_attacks(king)).is_empty()
            && pos.ep_square().is_none()
            && (pos.castling() & board.by_color(us)).is_empty()
            && !self.terrain.shifts();
        guard
    }

    /// Whether the side to move has a legal move (cheaper than listing them).
    #[inline]
    pub fn has_legal_move(&self, pos: &Position) -> bool {
        self.has_legal_move_at(pos, 0)
    }

    #[inline(always)]
    fn has_legal_move_at(&self, pos: &Position, depth: u32) -> bool {
        if self.rules.trapdoor.is_none() && !self.terrain.shifts() {
            // Nothing to judge a move by but the generator: ask whether it has any.
            let mut any = movegen::AnyMove(false);
            self.generate_base(pos, &mut any);
            return any.0;
        }
        self.first_legal_move_at(pos, depth).is_some()
    }

    /// A legal move of the side to move, if it has one (the first found).
    fn first_legal_move_at(&self, pos: &Position, depth: u32) -> Option<Move> {
        if !self.terrain.shifts() {
            if let Some(td) = self.rules.trapdoor {
                // Stop at the first move that passes the Trapdoor's own test (none is
                // needed when nothing of the mover falls).
                let expiring = Trapdoor::expiring(pos, pos.turn(), Bitboard::EMPTY);
                if expiring.is_nonempty() {
                    let guard = FallGuard::every_move(expiring);
                    let mut first =
                        FirstLegal::new(|mv| self.trapdoor_legal(&td, pos, mv, &guard, depth));
                    self.generate_base(pos, &mut first);
                    return first.found;
                }
            }
            let mut first = FirstLegal::new(|_| true);
            self.generate_base(pos, &mut first);
            return first.found;
        }
        // Aftershocks: listed, then judged one by one.
        let mut moves = MoveList::new();
        self.base_moves(pos, &mut moves);
        match self.rules.trapdoor {
            Some(td) => {
                let guard = self.fall_guard(pos);
                moves
                    .iter()
                    .copied()
                    .find(|&mv| self.trapdoor_legal(&td, pos, mv, &guard, depth))
            }
            None => moves.first().copied(),
        }
    }

    /// The first legal move the generator offers, found without listing the others,
    /// where the generator alone judges legality (no Trapdoor, a board that does not
    /// shift); `None` elsewhere, or without a legal move.
    pub fn first_legal_move(&self, pos: &Position) -> Option<Move> {
        if self.rules.trapdoor.is_some() || self.terrain.shifts() {
            return None;
        }
        let mut first = FirstLegal::new(|_| true);
        self.generate_base(pos, &mut first);
        first.found
    }

    /// A legal move of the side to move that gives no check, if it has one, found
    /// without listing its moves (under Trapdoor one that also mates nobody and lets no
    /// king fall, judged after its falls). `None` on a board that shifts. Under Taxi a
    /// king's step next to the other king counts as a check here (it may be one,
    /// rules.md 2.2), so every move called quiet is one.
    pub fn quiet_move(&self, pos: &Position) -> Option<Move> {
        self.first_checkless_move(pos, true)
    }

    /// A legal move that gives no check and takes nothing (en passant included), as
    /// `quiet_move` finds one. Where a capture has consequences beyond the board (a man
    /// taken on Underworld's World drops onto the other board, rules.md 4.3).
    pub fn quiet_move_taking_nothing(&self, pos: &Position) -> Option<Move> {
        self.first_checkless_move(pos, false)
    }

    fn first_checkless_move(&self, pos: &Position, captures: bool) -> Option<Move> {
        if self.terrain.shifts() {
            return None;
        }
        if self.rules.trapdoor.is_some() {
            return self.first_checkless_move_with_falls(pos, captures);
        }
        let geo = self.geo(pos);
        let info = crate::search::CheckInfo::with_king_checks(geo, pos, self.rules.taxi.is_some());
        // Under Taxi a move cheaper than the income may make a check of an attack too
        // dear now (`taxi::saved_coin_may_check`): there each move is played and the
        // check asked of the position after it.
        let saving_checks = self.rules.taxi.is_some() && taxi::saved_coin_may_check(geo, pos);
        let mut first = FirstLegal::new(|mv: Move| {
            (captures || !mv.takes(pos.board()))
                && !info.gives_check(geo, pos, mv)
                && (!saving_checks || !self.in_check(&self.play(pos, mv).position))
        });
        self.generate_base(pos, &mut first);
        first.found
    }

    /// `first_checkless_move` under Trapdoor, where the falls decide legality and check:
    /// the moves the generator offers are tried in order, each played with its falls,
    /// and the first that is legal, mates nobody, lets no king fall and leaves the
    /// other side unchecked after the falls is named. `None` where the mover's king
    /// falls unless it moves (falls first: every other move loses).
    fn first_checkless_move_with_falls(&self, pos: &Position, captures: bool) -> Option<Move> {
        if self.king_falls_unless_it_moves(pos) {
            return None;
        }
        let mut moves = MoveList::new();
        self.generate_base(pos, &mut moves);
        moves.iter().copied().find(|&mv| {
            (captures || !mv.takes(pos.board())) && self.is_legal_quick(pos, mv) == Some(true) && {
                let played = self.play(pos, mv);
                played.outcome.is_none() && !self.in_check(&played.position)
            }
        })
    }

    /// Whether the side to move surely has a legal king step, found without listing its
    /// moves: a step onto a square no enemy man attacks, with no man of its own due to
    /// fall at the end of the move (the king itself leaves its square, so it does not
    /// fall; rules.md 1.2, 1.5d). `false` says nothing: Taxi, aftershocks and other
    /// falling men are left to the full test.
    pub fn has_plain_king_step(&self, pos: &Position) -> bool {
        if self.rules.taxi.is_some() || self.terrain.shifts() {
            return false;
        }
        let us = pos.turn();
        let board = pos.board();
        let Some(king) = board.king(us) else {
            return false;
        };
        if Trapdoor::expiring(pos, us, Bitboard::from_square(king)).is_nonempty() {
            return false;
        }
        crate::attacks::unattacked_king_steps(self.geo(pos), board, king, us).is_nonempty()
    }

    pub fn status(&self, pos: &Position) -> Status {
        if self.has_legal_move(pos) {
            Status::Ongoing
        } else if self.in_check(pos) {
            Status::Checkmated
        } else {
            Status::Stalemated
        }
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmated(&self, pos: &Position) -> bool {
        self.in_check(pos) && !self.has_legal_move(pos)
    }

    fn is_checkmated_at(&self, pos: &Position, depth: u32) -> bool {
        self.in_check(pos) && !self.has_legal_move_at(pos, depth)
    }

    /// Legality under Trapdoor (rule 1.5 a-d, or falls first) of a move from
    /// `generate_base`: the cases read off the board here, the others played out in
    /// `trapdoor_legal_played`.
    #[inline(always)]
    fn trapdoor_legal(
        &self,
        td: &Trapdoor,
        pos: &Position,
        mv: Move,
        guard: &FallGuard,
        depth: u32,
    ) -> bool {
        // Pieces that leave their squares do not fall; castling moves both.
        let moved = Bitboard::from_square(mv.from) | Bitboard::from_square(mv.to);
        let expiring = if mv.is_aftershock() {
            guard.expiring
        } else {
            guard.expiring - moved
        };
        expiring.is_empty()
            || !guard.may_expose(mv)
            || self.falls_off_the_kings_lines(pos, mv, expiring)
            || self.exposed_by_falls(pos, mv, expiring) == Some(false)
            || self.trapdoor_legal_played(td, pos, mv, depth)
    }

    /// Whether no man on `falling` stands on a line from the mover's king where `mv`
    /// leaves it (or the mover has no king): falls only open lines through their
    /// squares, so such falls expose nothing (rule 1.5d). Never for an aftershock, which
    /// moves the lines themselves.
    #[inline(always)]
    fn falls_off_the_kings_lines(&self, pos: &Position, mv: Move, falling: Bitboard) -> bool {
        if mv.is_aftershock() {
            return false;
        }
        let king = match mv.role {
            Role::King if mv.is_castle() => mv.castle_king_to(),
            Role::King => mv.to,
            _ => match pos.board().king(pos.turn()) {
                Some(k) => k,
                None => return true,
            },
        };
        (self.geo(pos).queen_attacks(king, Bitboard::EMPTY) & falling).is_empty()
    }

    /// `trapdoor_legal` for a move after which the mover's falling men stand on a line
    /// from its king and the board cannot say whether they expose it: played out.
    #[inline(never)]
    fn trapdoor_legal_played(&self, td: &Trapdoor, pos: &Position, mv: Move, depth: u32) -> bool {
        let us = pos.turn();
        let arrivals = Position::arrivals(mv);
        let mut p = self.play_core(pos, mv);
        td.arrive(&mut p, arrivals);
        let before_falls = p;
        Trapdoor::count_down(&mut p, us, arrivals);
        if p.board().king(us).is_none() {
            // The king fell: a legal, losing move (rule 1.5c).
            return true;
        }
        let exposed = self.king_in_check(&p, us);
        if !exposed {
            return true;
        }
        // Exposed by its own falls: legal only when it mates first (rule 1.5b, 1.5d).
        td.order == FallOrder::MateFirst
            && depth < MAX_MATE_RECURSION
            && self.is_checkmated_at(&before_falls, depth + 1)
    }

    /// Whether the falls of the mover's men on `falling` (not the moving man) leave its
    /// king attacked after `mv`, a move legal by movement and check (or, falls first, by
    /// movement alone when that king falls: then it is not exposed), read off the board
    /// without playing it (rule 1.5d): falls only open lines, so the king is exposed
    /// exactly when an enemy rider reaches it across the squares the move and the falls
    /// leave empty. A king that falls is not exposed (its move is legal and loses,
    /// rule 1.5c). `None` when it cannot be read so: castling and en passant move or
    /// take a second man, an aftershock moves the board, and under Taxi an attack may
    /// not count.
    #[inline(always)]
    fn exposed_by_falls(&self, pos: &Position, mv: Move, falling: Bitboard) -> Option<bool> {
        if self.rules.taxi.is_some()
            || self.terrain.shifts()
            || !matches!(
                mv.kind,
                MoveKind::Normal | MoveKind::DoublePush | MoveKind::Promotion(_)
            )
        {
            return None;
        }
        let board = pos.board();
        let king = match mv.role {
            Role::King => mv.to,
            _ => board.king(pos.turn())?,
        };
        if falling.contains(king) {
            return Some(false);
        }
        let geo = self.geo(pos);
        let occupied = (board.occupied() - falling).without(mv.from).with(mv.to);
        let them = board.by_color(!pos.turn()).without(mv.to);
        let riders = (geo.rook_attacks(king, occupied) & board.rooks_and_queens())
            | (geo.bishop_attacks(king, occupied) & board.bishops_and_queens());
        Some((riders & them).is_nonempty())
    }

    /// Plays a legal move with every event that follows it.
    #[inline(always)]
    pub fn play(&self, pos: &Position, mv: Move) -> Played {
        // Without a trapdoor nothing follows the move: small enough to inline, so the
        // result is built in place.
        match self.rules.trapdoor {
            None => {
                let mut played = Played {
                    position: *pos,
                    fallen: Bitboard::EMPTY,
                    outcome: None,
                };
                self.play_core_in_place(&mut played.position, mv);
                played
            }
            Some(td) => {
                let mut played = Played {
                    position: *pos,
                    fallen: Bitboard::EMPTY,
                    outcome: None,
                };
                self.play_trapdoor_in_place(&mut played, mv, td, false, &mut None);
                played
            }
        }
    }

    /// `play` into `out`, whatever it held: without a trapdoor the position is copied
    /// once, into place.
    #[inline(always)]
    pub fn play_into(&self, out: &mut Played, pos: &Position, mv: Move) {
        match self.rules.trapdoor {
            None => {
                out.position = *pos;
                out.fallen = Bitboard::EMPTY;
                out.outcome = None;
                self.play_core_in_place(&mut out.position, mv);
            }
            Some(td) => {
                out.position = *pos;
                out.fallen = Bitboard::EMPTY;
                out.outcome = None;
                self.play_trapdoor_in_place(out, mv, td, false, &mut None);
            }
        }
    }

    /// `play` on the position itself, with the move's outcome: without a trapdoor
    /// nothing follows the move and the position is changed where it stands.
    #[inline(always)]
    pub fn play_in_place(&self, pos: &mut Position, mv: Move) -> Option<Outcome> {
        if self.rules.trapdoor.is_none() {
            self.play_core_in_place(pos, mv);
            return None;
        }
        let played = self.play(pos, mv);
        *pos = played.position;
        played.outcome
    }

    /// Whether the legal move `mv` wins by mate: before its falls (mate first) or after
    /// them. The same answer as `play`, found with less work: a defence the opponent
    /// has before the falls is tried first after them.
    pub fn mates(&self, pos: &Position, mv: Move) -> bool {
        let Some(td) = self.rules.trapdoor else {
            return self.is_checkmated(&self.play_core(pos, mv));
        };
        // A man that arrives attacking the king checks in P and, as it does not fall and
        // falls only open lines, in P' too: two check tests saved (not under Taxi, where
        // an attack is a check only if it is paid for).
        let checks = self.rules.taxi.is_none() && self.arrives_attacking_king(pos, mv);
        let mut defence = None;
        let mut played = Played {
            position: *pos,
            fallen: Bitboard::EMPTY,
            outcome: None,
        };
        self.play_trapdoor_in_place(&mut played, mv, td, checks, &mut defence);
        match played.outcome {
            Some(Outcome::Mate) => true,
            Some(Outcome::KingFell) => false,
            None => {
                let next = &played.position;
                (checks || self.in_check(next))
                    && defence.is_none_or(|d| {
                        !self.survives_falls(next, d, played.fallen)
                            && self.is_legal_quick(next, d) != Some(true)
                    })
                    && !self.has_legal_move(next)
            }
        }
    }

    /// Whether `defence`, legal before the opponent's men on `fallen` fell (mate first,
    /// rule 1.5b-c), is surely still legal in `after`: the falls only take attackers away
    /// and open lines through their squares, so a defence that does not land on one of
    /// those squares, with the king (where the defence leaves it) on no line through
    /// them, is judged as before. Castling, en passant, Taxi prices and shifting boards
    /// are left to the full test.
    fn survives_falls(&self, after: &Position, defence: Move, fallen: Bitboard) -> bool {
        if self.rules.taxi.is_some()
            || self.terrain.shifts()
            || !matches!(defence.kind, MoveKind::Normal | MoveKind::DoublePush)
            || fallen.contains(defence.to)
        {
            return false;
        }
        let Some(king) = after.board().king(after.turn()) else {
            return false;
        };
        let king = if defence.role == Role::King {
            defence.to
        } else {
            king
        };
        (self.geo(after).queen_attacks(king, Bitboard::EMPTY) & fallen).is_empty()
    }

    /// Whether the man that `mv` (an ordinary move) moves attacks the opponent's king
    /// from where it arrives.
    #[inline]
    fn arrives_attacking_king(&self, pos: &Position, mv: Move) -> bool {
        let board = pos.board();
        if mv.kind != MoveKind::Normal {
            return false;
        }
        let Some(king) = board.king(!pos.turn()) else {
            return false;
        };
        let occupied = board.occupied().without(mv.from).with(mv.to);
        crate::attacks::piece_attacks(self.geo(pos), mv.role, pos.turn(), mv.to, occupied)
            .contains(king)
    }

    /// `play` on a Trapdoor board, on `out` that holds the position before the move
    /// (no outcome, nothing fallen): arrival, countdown, falls and their order. `checks`:
    /// the move is known to give check in P. Notes in `defence` the legal move the
    /// opponent was found to have when the move checks before anything falls (mate
    /// first) without mating.
    #[inline(always)]
    fn play_trapdoor_in_place(
        &self,
        out: &mut Played,
        mv: Move,
        td: Trapdoor,
        checks: bool,
        defence: &mut Option<Move>,
    ) {
        let p = &mut out.position;
        let us = p.turn();
        self.play_core_in_place(p, mv);
        let arrivals = Position::arrivals(mv);
        td.arrive(p, arrivals);
        if !Trapdoor::counts_down(p, us, arrivals) {
            return;
        }
        match td.order {
            FallOrder::MateFirst => {
                // Only a check can be a mate; without one, skip the costly test.
                if checks || self.in_check(p) {
                    *defence = self.first_legal_move_at(p, 0);
                    if defence.is_none() {
                        out.outcome = Some(Outcome::Mate);
                        return;
                    }
                }
                out.fallen = Trapdoor::count_down(p, us, arrivals);
                if p.board().king(us).is_none() {
                    out.outcome = Some(Outcome::KingFell);
                }
            }
            FallOrder::FallsFirst => {
                out.fallen = Trapdoor::count_down(p, us, arrivals);
                if p.board().king(us).is_none() {
                    // A king that falls loses unless the same move mates (rule 1.5 option).
                    out.outcome = Some(if self.is_checkmated(p) {
                        Outcome::Mate
                    } else {
                        Outcome::KingFell
                    });
                }
            }
        }
    }

    /// Perft under these rules (rules.md 7.1): sequences of exactly `depth` moves; a
    /// game that ends earlier adds nothing, a game-ending move on the last ply counts.
    pub fn perft(&self, pos: &Position, depth: u32, bulk: bool) -> u64 {
        if self.is_plain() {
            return crate::perft::perft_fide(self.geo(pos), pos, depth, bulk);
        }
        if depth == 0 {
            return 1;
        }
        if depth == 1 && bulk && self.rules.trapdoor.is_none() && !self.terrain.shifts() {
            // Counted without listing.
            let mut count = movegen::MoveCounter(0);
            self.generate_base(pos, &mut count);
            return count.0;
        }
        let mut moves = MoveList::new();
        self.legal_moves_into(pos, &mut moves);
        if depth == 1 && bulk {
            return moves.len() as u64;
        }
        let mut nodes = 0;
        if self.rules.trapdoor.is_none() {
            // Nothing follows a move: play it in place of a copy.
            for &mv in moves.iter() {
                let mut next = *pos;
                self.play_core_in_place(&mut next, mv);
                nodes += if depth == 1 {
                    1
                } else {
                    self.perft(&next, depth - 1, bulk)
                };
            }
            return nodes;
        }
        for &mv in moves.iter() {
            let next = self.play(pos, mv);
            if next.outcome.is_none() {
                nodes += self.perft(&next.position, depth - 1, bulk);
            } else if depth == 1 {
                nodes += 1;
            }
        }
        nodes
    }
}

/// What notation, replay and tests need of a game, whatever its geometry.
pub trait Rulebook {
    fn legal_moves(&self, pos: &Position) -> MoveList;
    fn play(&self, pos: &Position, mv: Move) -> Played;
    fn in_check(&self, pos: &Position) -> bool;
    fn has_legal_move(&self, pos: &Position) -> bool;
}

impl<T: Terrain> Rulebook for Game<T> {
    fn legal_moves(&self, pos: &Position) -> MoveList {
        Game::legal_moves(self, pos)
    }
    fn play(&self, pos: &Position, mv: Move) -> Played {
        Game::play(self, pos, mv)
    }
    fn in_check(&self, pos: &Position) -> bool {
        Game::in_check(self, pos)
    }
    fn has_legal_move(&self, pos: &Position) -> bool {
        Game::has_legal_move(self, pos)
    }
}

/// A game on whichever geometry a position line asks for. Generic code (solver, perft)
/// is instantiated per geometry through `with_game!`.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Standard(Game<Standard>),
    Earthquake(Box<Game<Earthquake>>),
    Aftershocks(Box<Game<Shifting>>),
}

/// Runs `$body` with `$g` bound to the concrete `&Game<G>` inside an `AnyGame`.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::game::AnyGame::Standard($g) => $body,
            $crate::game::AnyGame::Earthquake($g) => {
                let $g: &$crate::game::Game<$crate::geometry::Earthquake> = $g;
                $body
            }
            $crate::game::AnyGame::Aftershocks($g) => {
                let $g: &$crate::game::Game<$crate::geometry::Shifting> = $g;
                $body
            }
        }
    };
}

impl AnyGame {
    pub fn rules(&self) -> &Rules {
        with_game!(self, g => &g.rules)
    }
    /// The same board under other rule modifiers.
    pub fn with_rules(&self, rules: Rules) -> AnyGame {
        match self {
            AnyGame::Standard(g) => AnyGame::Standard(Game::on(g.terrain, rules)),
            AnyGame::Earthquake(g) => {
                AnyGame::Earthquake(Box::new(Game::on(g.terrain.clone(), rules)))
            }
            AnyGame::Aftershocks(g) => {
                AnyGame::Aftershocks(Box::new(Game::on(g.terrain.clone(), rules)))
            }
        }
    }
    /// The Earthquake geometry in force in `pos`, if the board is displaced.
    pub fn earthquake(&self, pos: &Position) -> Option<&Earthquake> {
        match self {
            AnyGame::Standard(_) => None,
            AnyGame::Earthquake(g) => Some(&g.terrain),
            AnyGame::Aftershocks(g) => Some(g.terrain.at(pos)),
        }
    }
    /// Whether aftershocks are played.
    pub fn has_aftershocks(&self) -> bool {
        matches!(self, AnyGame::Aftershocks(_))
    }
    pub fn legal_moves(&self, pos: &Position) -> MoveList {
        with_game!(self, g => g.legal_moves(pos))
    }
    pub fn play(&self, pos: &Position, mv: Move) -> Played {
        with_game!(self, g => g.play(pos, mv))
    }
    pub fn in_check(&self, pos: &Position) -> bool {
        with_game!(self, g => g.in_check(pos))
    }
    pub fn has_legal_move(&self, pos: &Position) -> bool {
        with_game!(self, g => g.has_legal_move(pos))
    }
    pub fn status(&self, pos: &Position) -> Status {
        with_game!(self, g => g.status(pos))
    }
    pub fn is_checkmated(&self, pos: &Position) -> bool {
        with_game!(self, g => g.is_checkmated(pos))
    }
    pub fn perft(&self, pos: &Position, depth: u32, bulk: bool) -> u64 {
        with_game!(self, g => g.perft(pos, depth, bulk))
    }
    /// The squares that exist in `pos`.
    pub fn squares(&self, pos: &Position) -> Bitboard {
        with_game!(self, g => g.geo(pos).squares())
    }
}

impl Rulebook for AnyGame {
    fn legal_moves(&self, pos: &Position) -> MoveList {
        AnyGame::legal_moves(self, pos)
    }
    fn play(&self, pos: &Position, mv: Move) -> Played {
        AnyGame::play(self, pos, mv)
    }
    fn in_check(&self, pos: &Position) -> bool {
        AnyGame::in_check(self, pos)
    }
    fn has_legal_move(&self, pos: &Position) -> bool {
        AnyGame::has_legal_move(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;

    /// rules.md 3.7: the bar on restoring the dx an aftershock left lasts one turn, so a
    /// pass (the threat's question) lifts it for the side that moves next; rules.md 2:
    /// that side receives its Taxi income. The hash stays the one worked out afresh.
    #[test]
    fn a_pass_ends_the_turn_as_a_move_does() {
        let line = "4k3/8/8/8/8/8/8/4K3 w - - earthquake \"1 0\"; aftershock \"2 2 0\"; \
                    taxi \"5 3\";";
        let Ok(crate::epd::Line::Position(rec)) = crate::epd::parse_line(line, 1) else {
            panic!("{line}")
        };
        let p = crate::problem::from_record(*rec).unwrap();
        let shocks = |pos: &Position| -> Vec<Move> {
            p.game
                .legal_moves(pos)
                .iter()
                .copied()
                .filter(|m| m.is_aftershock())
                .collect()
        };
        let barred = Move::aftershock(0);
        assert!(!shocks(&p.position).contains(&barred));
        let AnyGame::Aftershocks(g) = &p.game else {
            panic!("aftershocks expected")
        };
        let passed = g.pass(&p.position);
        assert_eq!(passed.turn(), Color::Black);
        assert_eq!(passed.quake().no_return, None);
        assert_eq!(passed.cash(Color::Black), 3 + 2);
        assert_eq!(passed.cash(Color::White), 5);
        assert_eq!(passed.hash(), passed.compute_hash());
        assert!(shocks(&passed).contains(&barred));
    }

    /// The first legal move found (the mate test's question, answered as soon as one is
    /// found: a safe king step ends the generation) is a legal move, and there is one
    /// exactly when the move list is not empty: under FIDE, Taxi, and Trapdoor with
    /// ticking men whose falls may expose the king. Sparse boards, so that kings are
    /// often in check with few or no moves.
    #[test]
    fn first_legal_move_agrees_with_the_move_list() {
        let trapdoor = |timer, order| Rules {
            trapdoor: Some(Trapdoor { timer, order }),
            taxi: None,
        };
        let games = [
            Game::new(Rules::default()),
            Game::new(trapdoor(1, FallOrder::MateFirst)),
            Game::new(trapdoor(2, FallOrder::FallsFirst)),
            Game::new(Rules {
                trapdoor: None,
                taxi: Some(Taxi::default()),
            }),
        ];
        let mut rng = crate::test_rng::Rng(0x2545_F491_4F6C_DD1D);
        for game in &games {
            let (mut some, mut none) = (0, 0);
            let seed = rng.next();
            crate::test_games::random_placements(seed, 3_000, "QRBNPqrnp", |start, _| {
                let mut pos = *start;
                if game.rules.trapdoor.is_some() {
                    for sq in pos.board().occupied() {
                        if rng.below(2) == 0 {
                            pos.set_timer(sq, Some(1 + rng.below(2) as u8));
                        }
                    }
                }
                if game.rules.taxi.is_some() {
                    for c in Color::ALL {
                        pos.set_cash(c, rng.below(6) as u32);
                    }
                }
                let moves = game.legal_moves(&pos);
                let fen = crate::fen::write_fen(&pos);
                assert_eq!(game.has_legal_move(&pos), !moves.is_empty(), "{fen}");
                match game.first_legal_move_at(&pos, 0) {
                    Some(mv) => {
                        assert!(moves.contains(&mv), "{mv:?} in {fen}");
                        some += 1;
                    }
                    None => {
                        assert!(moves.is_empty(), "{fen}");
                        none += 1;
                    }
                }
            });
            assert!(some > 1000 && none > 10, "{some} {none}");
        }
    }

    /// `quiet_move` (what decides the defender's last turn in the solver core): a move
    /// it names is legal, leaves the other side out of check and ends nothing; under
    /// FIDE rules, on the standard board and on displaced ones, and under Trapdoor, it
    /// finds one whenever some legal move ends nothing and gives no check. Crowded
    /// random boards, Taxi with random cash, Trapdoor with random timers (T of 1 and
    /// 2, mate first and falls first).
    #[test]
    fn a_quiet_move_gives_no_check_and_is_found_when_there_is_one() {
        use crate::geometry::{Earthquake, VoidRule};
        let taxi = Rules {
            trapdoor: None,
            taxi: Some(Taxi::default()),
        };
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        fn run<T: Terrain>(game: &Game<T>, rng: &mut crate::test_rng::Rng, men: &str) {
            let (mut found, mut none) = (0, 0);
            let seed = rng.next();
            crate::test_games::random_placements(seed, 3_000, men, |start, _| {
                let mut pos = *start;
                if game.rules.taxi.is_some() {
                    for c in Color::ALL {
                        pos.set_cash(c, rng.below(6) as u32);
                    }
                }
                if let Some(td) = game.rules.trapdoor {
                    // Most men ticking, the mover's king with one move left half the
                    // time: its other moves then lose, and falls expose kings.
                    for sq in pos.board().occupied() {
                        if rng.below(3) != 0 {
                            pos.set_timer(sq, Some(1 + rng.below(td.timer as usize) as u8));
                        }
                    }
                    if let Some(king) = pos.board().king(pos.turn()) {
                        if rng.below(2) == 0 {
                            pos.set_timer(king, Some(1));
                        }
                    }
                }
                let fen = crate::fen::write_fen(&pos);
                // The placements keep Black out of check on the standard board only.
                // Under Taxi with White to move, by what White holds now (passing the
                // turn would add White's income: a rider one step too dear now, the
                // case a cheap move makes a check of, would be called a check).
                let black_checked = match &game.rules.taxi {
                    Some(t) => taxi::in_check(game.geo(&pos), &pos, Color::Black, t),
                    None => {
                        let mut passed = pos;
                        passed.pass();
                        game.in_check(&passed)
                    }
                };
                if black_checked {
                    return;
                }
                let moves = game.legal_moves(&pos);
                let gives_no_check = |mv: Move| {
                    let after = game.play(&pos, mv);
                    after.outcome.is_none() && !game.in_check(&after.position)
                };
                if game.rules.trapdoor.is_some() {
                    // The moves are tried in the list's order: the first that ends
                    // nothing and gives no check is named (none where, falls first, the
                    // mover's king falls unless it moves).
                    let first = moves.iter().copied().find(|&mv| gives_no_check(mv));
                    let got = game.quiet_move(&pos);
                    assert!(
                        got == first || (got.is_none() && game.king_falls_unless_it_moves(&pos)),
                        "{got:?} named, {first:?} first in {fen}"
                    );
                    found += usize::from(got.is_some());
                    return;
                }
                match game.quiet_move(&pos) {
                    Some(mv) => {
                        assert!(moves.contains(&mv), "{mv:?} in {fen}");
                        let after = game.play(&pos, mv);
                        assert!(after.outcome.is_none(), "{mv:?} in {fen}");
                        assert!(gives_no_check(mv), "{mv:?} in {fen}");
                        found += 1;
                    }
                    None => {
                        // Under Taxi a FIDE check the mover cannot pay for is no check,
                        // yet not called quiet: only FIDE is held to finding one.
                        if game.rules.taxi.is_none() {
                            assert!(!moves.iter().any(|&mv| gives_no_check(mv)), "{fen}");
                        }
                        none += 1;
                    }
                }
            });
            // Under Trapdoor most men tick: many moves lose or expose a king.
            let least = if game.rules.trapdoor.is_some() {
                500
            } else {
                2_000
            };
            assert!(found > least, "{found} found, {none} none");
        }
        const CROWDED: &str = "QRBNPqrnp";
        run(&Game::new(Rules::default()), &mut rng, CROWDED);
        run(&Game::new(taxi), &mut rng, CROWDED);
        // Open lines: a rider too dear to check now, whose attack a cheap move (less
        // than the income) makes a check.
        run(&Game::new(taxi), &mut rng, "QRBqrP");
        run(
            &Game::on(Earthquake::new(1, 0, VoidRule::Block), Rules::default()),
            &mut rng,
            CROWDED,
        );
        run(
            &Game::on(Earthquake::new(0, -1, VoidRule::Fly), taxi),
            &mut rng,
            CROWDED,
        );
        for (timer, order) in [(1, FallOrder::MateFirst), (2, FallOrder::FallsFirst)] {
            let trapdoor = Rules {
                trapdoor: Some(Trapdoor { timer, order }),
                taxi: None,
            };
            run(&Game::new(trapdoor), &mut rng, CROWDED);
        }
        // Rule 2.2: Black's queen on h8 attacks White's king on a8, a ride of 7 that
        // Black's 6 cannot pay; a king's step costs 1 of an income of 2, so after it
        // Black holds 7 at its next turn and the ride is a check. No king's step is
        // quiet, nor any move that costs less than 2 (a generated puzzle's proof once
        // met this position).
        let rich_after = Game::new(taxi);
        // (Read as placement: FIDE's reader would call White in check.)
        let board = crate::fen::parse_placement("K6q/2q5/1r6/6k1/8/1P6/8/R7", 0).unwrap();
        let mut pos = Position::from_parts(board, Color::Black, Bitboard::EMPTY, None, 0, 1);
        pos.set_cash(Color::White, 1);
        pos.set_cash(Color::Black, 6);
        let quiet = rich_after.quiet_move(&pos).expect("a dear enough move");
        assert!(
            !rich_after.in_check(&rich_after.play(&pos, quiet).position),
            "{quiet:?}"
        );
        let square = |name| Square::parse(name).unwrap();
        let step = Move::new(Role::King, square("g5"), square("f4"), MoveKind::Normal);
        assert!(rich_after.legal_moves(&pos).contains(&step));
        assert!(rich_after.in_check(&rich_after.play(&pos, step).position));

        // Rules 1.5c and 1.5d: the king on a1 has no step and falls at the end of any
        // other move (each a legal, losing move), so no move is quiet; the pawn on e2
        // falls unless it moves and alone shuts the rook's line to e1, so only the moves
        // that keep the line shut (onto the e-file) are legal.
        let trapdoor = Game::new(Rules {
            trapdoor: Some(Trapdoor {
                timer: 1,
                order: FallOrder::MateFirst,
            }),
            taxi: None,
        });
        let ticking = |fen: &str, sq: Square| {
            let mut pos = parse_fen(fen).unwrap();
            pos.set_timer(sq, Some(1));
            pos
        };
        let boxed = ticking("6k1/8/8/8/8/8/PP6/KB5R w - - 0 1", Square::A1);
        assert!(!trapdoor.legal_moves(&boxed).is_empty());
        assert_eq!(trapdoor.quiet_move(&boxed), None);
        let shut = ticking("4r2k/8/8/8/8/8/3NPN2/3BKB2 w - - 0 1", Square::E2);
        let quiet = trapdoor.quiet_move(&shut).expect("a move shuts the line");
        assert!(trapdoor.legal_moves(&shut).contains(&quiet), "{quiet:?}");
        assert_eq!(quiet.to.file(), Square::E1.file(), "{quiet:?}");
    }

    /// `is_legal_quick` agrees with the move list wherever it answers, under Trapdoor
    /// timers and falls and under Taxi prices, for the moves of the same side's previous
    /// turn (the killers a search offers).
    #[test]
    fn quick_legality_agrees_with_the_move_list() {
        let games = [
            Game::new(Rules {
                trapdoor: Some(Trapdoor {
                    timer: 1,
                    order: FallOrder::MateFirst,
                }),
                taxi: None,
            }),
            Game::new(Rules {
                trapdoor: Some(Trapdoor {
                    timer: 2,
                    order: FallOrder::FallsFirst,
                }),
                taxi: None,
            }),
            Game::new(Rules {
                trapdoor: None,
                taxi: Some(Taxi::default()),
            }),
            Game::new(Rules {
                trapdoor: Some(Trapdoor {
                    timer: 1,
                    order: FallOrder::MateFirst,
                }),
                taxi: Some(Taxi::default()),
            }),
        ];
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15u64);
        for game in &games {
            let (mut yes, mut no) = (0, 0);
            for _ in 0..40 {
                let mut pos = parse_fen(
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                )
                .unwrap();
                if game.rules.taxi.is_some() {
                    for c in Color::ALL {
                        pos.set_cash(c, rng.below(14) as u32);
                    }
                }
                let mut earlier: [Vec<Move>; 2] = [Vec::new(), Vec::new()];
                for ply in 0..40 {
                    let moves = game.legal_moves(&pos);
                    for &mv in &earlier[ply % 2] {
                        if let Some(quick) = game.is_legal_quick(&pos, mv) {
                            assert_eq!(
                                quick,
                                moves.contains(&mv),
                                "{mv:?} in {}",
                                crate::fen::write_fen(&pos)
                            );
                            yes += quick as usize;
                            no += !quick as usize;
                        }
                    }
                    if moves.is_empty() {
                        break;
                    }
                    earlier[ply % 2] = moves.iter().copied().collect();
                    let played = game.play(&pos, moves[rng.below(moves.len())]);
                    if played.outcome.is_some() {
                        break;
                    }
                    pos = played.position;
                }
            }
            assert!(yes > 1000 && no > 1000, "{yes} {no}");
        }
    }

    /// `mates` gives the answer of playing the move (rules.md 1.5: mate before the falls
    /// with mate first, else mate after them), on crowded random boards where men tick
    /// and fall, under both orders of events.
    #[test]
    fn mates_agrees_with_playing_the_move() {
        let mut rng = crate::test_rng::Rng(0x3C6E_F372_FE94_F82B);
        let (mut before, mut after) = (0, 0);
        for (timer, order) in [(1, FallOrder::MateFirst), (2, FallOrder::FallsFirst)] {
            let game = Game::new(Rules {
                trapdoor: Some(Trapdoor { timer, order }),
                taxi: None,
            });
            let seed = rng.next();
            crate::test_games::random_placements(seed, 4_000, "QRRBNPPPqrbnpp", |start, _| {
                let mut pos = *start;
                for sq in pos.board().occupied() {
                    if rng.below(3) == 0 {
                        pos.set_timer(sq, Some(1 + rng.below(timer as usize) as u8));
                    }
                }
                for &mv in game.legal_moves(&pos).iter() {
                    let played = game.play(&pos, mv);
                    let mate = match played.outcome {
                        Some(Outcome::Mate) => true,
                        Some(Outcome::KingFell) => false,
                        None => game.is_checkmated(&played.position),
                    };
                    before += (played.outcome == Some(Outcome::Mate)) as usize;
                    after += (played.outcome.is_none() && mate) as usize;
                    assert_eq!(
                        game.mates(&pos, mv),
                        mate,
                        "{mv:?} in {}",
                        crate::fen::write_fen(&pos)
                    );
                }
            });
        }
        assert!(before > 100 && after > 100, "{before} {after}");
    }

    /// The Trapdoor's legal moves against rule 1.5 read literally: a move legal without
    /// the Trapdoor is legal unless, played with its falls, it leaves the mover's king in
    /// check (a move that mates first, or whose own king falls, ends the game and is
    /// legal); falls first, legality is judged in P' only, so any move by its movement
    /// alone that lets the mover's king fall is legal too. On random games where pieces
    /// tick and fall, so that the shortcuts of the fall guard (which moves need the full
    /// test) are all exercised; and wherever `has_plain_king_step` finds a king step, the
    /// list has one.
    #[test]
    fn trapdoor_legality_equals_playing_every_move() {
        let mut rng = crate::test_rng::Rng(0x5DEE_CE66_D1CE_4E5B);
        let td = |timer, order| Trapdoor { timer, order };
        let rules = [
            (Some(td(1, FallOrder::MateFirst)), None),
            (Some(td(2, FallOrder::FallsFirst)), None),
            (Some(td(1, FallOrder::MateFirst)), Some(Taxi::default())),
        ];
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/2b5/8/3q4/2Q5/5B2/8/R3K2R w KQkq - 0 1",
            "3rk3/6b1/1b6/8/5B2/2q5/2R5/3QK2R w K - 0 1",
        ];
        let (mut rejected_king_steps, mut plain_steps) = (0, 0);
        for (trapdoor, taxi) in rules {
            let game = Game::new(Rules { trapdoor, taxi });
            let without = Game::new(Rules {
                trapdoor: None,
                taxi,
            });
            for start in starts {
                for _ in 0..60 {
                    let mut pos = parse_fen(start).unwrap();
                    if taxi.is_some() {
                        for c in Color::ALL {
                            pos.set_cash(c, 4 + rng.below(12) as u32);
                        }
                    }
                    for _ in 0..30 {
                        let us = pos.turn();
                        let mut by_movement = without.legal_moves(&pos);
                        if trapdoor.is_some_and(|t| t.order == FallOrder::FallsFirst) {
                            let mut pseudo = MoveList::new();
                            movegen::generate_pseudo(&crate::geometry::Standard, &pos, &mut pseudo);
                            for &mv in pseudo.iter() {
                                let falls = game.play(&pos, mv).outcome.is_some();
                                if falls && !mv.is_castle() && !by_movement.contains(&mv) {
                                    by_movement.push(mv);
                                }
                            }
                        }
                        let mut literal: Vec<Move> = by_movement
                            .iter()
                            .copied()
                            .filter(|&mv| {
                                let played = game.play(&pos, mv);
                                let legal = played.outcome.is_some()
                                    || !game.king_in_check(&played.position, us);
                                rejected_king_steps += (!legal && mv.role == Role::King) as usize;
                                legal
                            })
                            .collect();
                        let moves = game.legal_moves(&pos);
                        let mut sorted = moves.as_slice().to_vec();
                        sorted.sort_by_key(|m| m.coord(false).to_string());
                        literal.sort_by_key(|m| m.coord(false).to_string());
                        assert_eq!(sorted, literal, "{}", crate::fen::write_fen(&pos));
                        if game.has_plain_king_step(&pos) {
                            plain_steps += 1;
                            assert!(
                                moves.iter().any(|m| m.role == Role::King && !m.is_castle()),
                                "{}",
                                crate::fen::write_fen(&pos)
                            );
                        }
                        if moves.is_empty() {
                            break;
                        }
                        let played = game.play(&pos, moves[rng.below(moves.len())]);
                        if played.outcome.is_some() {
                            break;
                        }
                        pos = played.position;
                    }
                }
            }
        }
        // King steps onto a line opened by the falls, refused: the case the guard's
        // `king_danger` must catch.
        assert!(rejected_king_steps > 50, "{rejected_king_steps}");
        assert!(plain_steps > 1_000, "{plain_steps}");
    }
}
