//! Taxi Chess (rules.md 2): every move costs money, captures pay a towing fee, and a
//! check is only an attack the attacker can afford on its next turn. The order of a
//! move's events is `game`'s; here are the prices and the affordable attack.

use crate::attacks::attackers;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::Geometry;
use crate::movegen::{EveryAttack, MoveSink, Threats};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// The economy of a game (rules.md 2, parameters).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Taxi {
    /// Received before each own turn.
    pub income: u32,
    /// Cash at the start of a game (kept for the record; problems give cash in hand).
    pub start: u32,
}

impl Default for Taxi {
    fn default() -> Taxi {
        Taxi {
            income: 2,
            start: 16,
        }
    }
}

/// The towing fee of a capture on `sq`: 1 + the square's distance from the edge
/// (4 on d4-e5, 3 on the rest of c3-f6, 2 on the rest of b2-g7, 1 on the edge).
#[inline(always)]
pub fn towing_fee(sq: Square) -> u32 {
    TOWING_FEES[sq.index()] as u32
}

const TOWING_FEES: [u8; 64] = {
    let mut fees = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let to_file_edge = if f < 7 - f { f } else { 7 - f };
        let to_rank_edge = if r < 7 - r { r } else { 7 - r };
        fees[sq] = 1 + if to_file_edge < to_rank_edge {
            to_file_edge
        } else {
            to_rank_edge
        } as u8;
        sq += 1;
    }
    fees
};

/// Cost of travelling: one a square (riders, king, pawns; void cells flown over are
/// free, rules.md 3.8), two for a knight's leap.
#[inline]
pub fn movement_cost<G: Geometry>(geo: &G, role: Role, from: Square, to: Square) -> u32 {
    match role {
        Role::Knight => 2,
        _ => geo.ride_length(from, to),
    }
}

/// The full price of a legal move (rules.md 2.1).
#[inline(always)]
pub fn cost<G: Geometry>(geo: &G, board: &Board, mv: Move) -> u32 {
    if mv.kind == MoveKind::Normal {
        // Most moves: travel, and the fee when something is captured.
        let fee = if board.occupied().contains(mv.to) {
            towing_fee(mv.to)
        } else {
            0
        };
        return movement_cost(geo, mv.role, mv.from, mv.to) + fee;
    }
    match mv.kind {
        MoveKind::Aftershock(_) => 0,
        MoveKind::Castle => {
            if mv.to.file() > mv.from.file() {
                4
            } else {
                5
            }
        }
        MoveKind::EnPassant => {
            let victim = geo.pawn_step(!board.color_at(mv.from).unwrap_or(Color::White), mv.to);
            movement_cost(geo, mv.role, mv.from, mv.to) + victim.first().map_or(0, towing_fee)
        }
        _ => {
            let travel = movement_cost(geo, mv.role, mv.from, mv.to);
            let fee = if board.occupied().contains(mv.to) {
                towing_fee(mv.to)
            } else {
                0
            };
            let promotion = if mv.promotion().is_some() { 2 } else { 0 };
            travel + fee + promotion
        }
    }
}

/// Under Taxi a king is only threatened by a capture its enemy can pay for with
/// `budget` (rules.md 2.2): the legal generator's notion of check. When the budget
/// pays for any ride or leap, every attack counts, as in FIDE.
pub struct AffordableAttack {
    budget: u32,
    /// The budget pays for every attack.
    every: bool,
}

impl AffordableAttack {
    pub fn new<G: Geometry>(geo: &G, budget: u32) -> AffordableAttack {
        AffordableAttack {
            budget,
            every: pays_any_travel(geo, budget),
        }
    }

    /// The threats to the side to move's king: the opponent's budget on its next turn.
    pub fn against_mover<G: Geometry>(geo: &G, pos: &Position, taxi: &Taxi) -> AffordableAttack {
        AffordableAttack::new(geo, next_turn_budget(pos, !pos.turn(), taxi))
    }
}

impl<G: Geometry> Threats<G> for AffordableAttack {
    /// A leap costs 2; every other attack is a ride, step or pawn capture paid by its
    /// length (rides are reversible, so the attackers within reach are the squares
    /// within `budget` of `sq`).
    #[inline(always)]
    fn counting(&self, geo: &G, board: &Board, sq: Square, attackers: Bitboard) -> Bitboard {
        if self.every {
            return attackers;
        }
        let knights = board.by_role(Role::Knight);
        let riders = attackers & (geo.rides_within(sq, self.budget) - knights);
        if self.budget >= 2 {
            riders | (attackers & knights)
        } else {
            riders
        }
    }

    #[inline(always)]
    fn attacked(&self, geo: &G, board: &Board, sq: Square, by: Color, occupied: Bitboard) -> bool {
        if self.every {
            return EveryAttack.attacked(geo, board, sq, by, occupied);
        }
        self.counting(geo, board, sq, attackers(geo, board, sq, by, occupied))
            .is_nonempty()
    }
}

/// What `color` can spend on its next turn: its cash, plus its income when it is not
/// the side to move (rules.md 2.2).
pub fn next_turn_budget(pos: &Position, color: Color, taxi: &Taxi) -> u32 {
    pos.cash(color) + if pos.turn() == color { 0 } else { taxi.income }
}

/// Whether the king of `color` is in (affordable) check.
pub fn in_check<G: Geometry>(geo: &G, pos: &Position, color: Color, taxi: &Taxi) -> bool {
    let Some(k) = pos.board().king(color) else {
        return false;
    };
    let board = pos.board();
    AffordableAttack::new(geo, next_turn_budget(pos, !color, taxi)).attacked(
        geo,
        board,
        k,
        !color,
        board.occupied(),
    )
}

/// Whether `amount` pays for any move that captures and promotes nothing: the longest
/// ride on this board, or a knight's leap.
#[inline(always)]
pub fn pays_any_travel<G: Geometry>(geo: &G, amount: u32) -> bool {
    amount >= geo.longest_ride().max(2)
}

/// Of the `squares` next to a king, those its side can pay to step to with `budget`:
/// a step travels one square, a capture adds the fee of the square (rules.md 2.1).
pub fn affordable_king_steps(board: &Board, squares: Bitboard, budget: u32) -> Bitboard {
    let Some(for_fees) = budget.checked_sub(1) else {
        return Bitboard::EMPTY;
    };
    let occupied = board.occupied();
    (squares - occupied) | (squares & occupied & fees_at_most(for_fees))
}

/// The squares whose towing fee is at most `amount`.
#[inline(always)]
fn fees_at_most(amount: u32) -> Bitboard {
    Bitboard(FEES_AT_MOST[amount.min(4) as usize])
}

const FEES_AT_MOST: [u64; 5] = {
    let mut masks = [0; 5];
    let mut amount = 0;
    while amount < 5 {
        let mut sq = 0;
        while sq < 64 {
            if TOWING_FEES[sq] as usize <= amount {
                masks[amount] |= 1 << sq;
            }
            sq += 1;
        }
        amount += 1;
    }
    masks
};

/// The price of the dearest move on this board: the longest ride, the largest towing
/// fee, a promotion.
fn dearest_move<G: Geometry>(geo: &G) -> u32 {
    geo.longest_ride() + 4 + 2
}

/// Whether the opponent of the side to move can afford every attack it could make on
/// its next turn (a ride of any length, a leap): then "the king is left in check" means
/// what it means in FIDE, whatever the move played now (it does not change the
/// opponent's cash), and Taxi legality is FIDE legality plus the price (rules.md 2.2).
pub fn attacks_affordable<G: Geometry>(geo: &G, pos: &Position, taxi: &Taxi) -> bool {
    pays_any_travel(geo, next_turn_budget(pos, !pos.turn(), taxi))
}

/// Whether, beyond `attacks_affordable`, the side to move can pay for any move: then
/// Taxi legality is FIDE legality (rules.md 2 with deep pockets).
pub fn rich<G: Geometry>(geo: &G, pos: &Position, taxi: &Taxi) -> bool {
    pos.cash(pos.turn()) >= dearest_move(geo) && attacks_affordable(geo, pos, taxi)
}

/// A sink that passes on to `inner` only the moves `cash` pays for (rules.md 2.1):
/// put in front of a list, a counter or a "has a move" test, it prices while the
/// generator runs. Quiet moves are paid by a mask of reachable squares; only
/// captures, promotions and special moves are priced one by one.
pub struct Affordable<'a, G: Geometry, S: MoveSink> {
    geo: &'a G,
    board: &'a Board,
    cash: u32,
    /// Every move that captures and promotes nothing is affordable.
    quiet_affordable: bool,
    pub inner: S,
}

impl<'a, G: Geometry, S: MoveSink> Affordable<'a, G, S> {
    pub fn new(geo: &'a G, board: &'a Board, cash: u32, inner: S) -> Self {
        Affordable {
            geo,
            board,
            cash,
            quiet_affordable: pays_any_travel(geo, cash),
            inner,
        }
    }

    /// The targets of a man of `role` on `from` that `cash` pays for, promotions aside.
    #[inline(always)]
    fn paid(&self, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        let occupied = self.board.occupied();
        let quiet = targets - occupied;
        let mut paid = if self.quiet_affordable || (role == Role::Knight && self.cash >= 2) {
            quiet
        } else if role == Role::Knight {
            Bitboard::EMPTY
        } else {
            quiet & self.geo.rides_within(from, self.cash)
        };
        for to in targets & occupied {
            if cost(
                self.geo,
                self.board,
                Move::new(role, from, to, MoveKind::Normal),
            ) <= self.cash
            {
                paid.set(to);
            }
        }
        paid
    }
}

impl<G: Geometry, S: MoveSink> MoveSink for Affordable<'_, G, S> {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        let paid = self.paid(role, from, targets);
        self.inner.piece(role, from, paid);
    }
    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        let mut paid = self.paid(Role::Pawn, from, targets - promo);
        for to in targets & promo {
            // Every promotion of one step costs the same.
            let mv = Move::new(Role::Pawn, from, to, MoveKind::Promotion(Role::Queen));
            if cost(self.geo, self.board, mv) <= self.cash {
                paid.set(to);
            }
        }
        self.inner.pawn(from, paid, promo);
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        if cost(self.geo, self.board, mv) <= self.cash {
            self.inner.special(mv);
        }
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.inner.done()
    }
    #[inline(always)]
    fn king_steps_wanted(&self, king: Square) -> Bitboard {
        self.inner.king_steps_wanted(king)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mask agrees with pricing each step as a move (rules.md 2.1: a king step 1, a
    /// capture adds the towing fee).
    #[test]
    fn affordable_king_steps_are_the_steps_paid_for() {
        let geo = &crate::geometry::Standard;
        let pos = crate::fen::parse_fen("8/8/8/3ppp2/3pKp2/3ppp2/8/k7 w - - 0 1").unwrap();
        let king = pos.board().king(Color::White).unwrap();
        let steps = geo.king_attacks(king);
        for budget in 0..8 {
            let want = steps
                .filter(|&to| {
                    let mv = Move::new(Role::King, king, to, MoveKind::Normal);
                    cost(geo, pos.board(), mv) <= budget
                })
                .fold(Bitboard::EMPTY, |b, to| b.with(to));
            let got = affordable_king_steps(pos.board(), steps, budget);
            assert_eq!(got, want, "budget {budget}");
        }
        let edge = crate::fen::parse_fen("8/8/8/8/8/8/1n6/Kn5k w - - 0 1").unwrap();
        let corner = edge.board().king(Color::White).unwrap();
        assert_eq!(
            affordable_king_steps(edge.board(), geo.king_attacks(corner), 2),
            geo.king_attacks(corner) - Bitboard::from_square(Square::B2)
        );
    }

    #[test]
    fn towing_fees_by_ring() {
        for (sq, fee) in [
            (Square::D4, 4),
            (Square::E5, 4),
            (Square::C3, 3),
            (Square::F6, 3),
            (Square::B2, 2),
            (Square::G7, 2),
            (Square::A1, 1),
            (Square::H5, 1),
        ] {
            assert_eq!(towing_fee(sq), fee, "{sq}");
        }
    }
}
