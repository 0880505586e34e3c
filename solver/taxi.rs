//! Taxi Chess (rules.md 2): every move costs money, captures pay a towing fee, and a
//! check is only an attack the attacker can afford on its next turn. The order of a
//! move's events is `game`'s; here are the prices and the affordable attack.

use crate::attacks::attackers;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::{Geometry, Shifting, Terrain};
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

/// The most a king's move other than castling can cost: a step of one square and the
/// towing fee of the dearest square, 4 (rules.md 2.1).
pub const DEAREST_KING_STEP: u32 = 1 + 4;

/// Whether `color`, with `moves` moves of its own still to play from `pos` (its turns
/// and the other side's alternating, the other side's last move ending them), surely
/// holds at least `amount` when that last move is made (with `DEAREST_KING_STEP` it
/// pays for every king's step and capture there, and a square next to its king is
/// barred to the king only by its own man or an attack, as in FIDE). Its cash then is
/// at least what it holds now, with every income it receives until then (one before
/// each of its turns still ahead, and one for the turn after the last move; rules.md 2
/// intro), less `dearest` for each of its moves; and never less than that last income.
pub fn surely_holds(
    pos: &Position,
    color: Color,
    moves: u32,
    taxi: &Taxi,
    dearest: u32,
    amount: u32,
) -> bool {
    let incomes = moves + u32::from(pos.turn() != color);
    let least = pos.cash(color) as i64 + (incomes as i64) * taxi.income as i64
        - moves as i64 * dearest as i64;
    least.max(taxi.income as i64) >= amount as i64
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

/// Whether a man of the side to move already attacks the other king, too dear to be a
/// check now (its cash pays no ride of every length): a move cheaper than its income
/// leaves it richer at its next turn, and the attack may become a check (rules.md 2.2).
/// `false`: a move gives check only by what it does on the board.
pub fn saved_coin_may_check<G: Geometry>(geo: &G, pos: &Position) -> bool {
    let board = pos.board();
    let us = pos.turn();
    !pays_any_travel(geo, pos.cash(us))
        && board
            .king(!us)
            .is_some_and(|king| attackers(geo, board, king, us, board.occupied()).is_nonempty())
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

/// The exact price of the dearest move on a board (rules.md 2.1): a ride with the
/// towing fee where it ends, found square by square (not for hot paths). No other move
/// costs more than 7: a knight's capture 2 + 4, castling 5, en passant 1 + 4, a pawn's
/// double step 2, a promoting capture 1 + 4 + 2. On the standard board it is 8 (Ra1xa8,
/// or Qh1xd5), and every board has a rank of 8 squares, so a ride of 7 onto an edge.
pub fn exact_dearest_move<G: Geometry>(geo: &G) -> u32 {
    let mut dearest = 1 + 4 + 2;
    for to in geo.squares() {
        // Rides are reversible: the squares a ride to `to` starts from are those it
        // reaches from `to`.
        for from in geo.queen_attacks(to, Bitboard::EMPTY) & geo.squares() {
            dearest = dearest.max(geo.ride_length(from, to) + towing_fee(to));
        }
    }
    dearest
}

/// The cash from which the exact amount of each side stops mattering for the next
/// turns: `[side to move, other side]`. With the side to move having `mover_turns`
/// turns ahead and the other side `other_turns` (its first after the mover's), a side
/// at or above its amount pays for every move at each of its turns and for every attack
/// at each of the opponent's, however dearly both play (`dearest` a move, `income` a
/// turn, rules.md 2.1-2.3). Two positions that differ only in such amounts therefore
/// have the same moves, checks, mates and stalemates for those turns: what lets the
/// solver share one table entry between them.
pub fn indifferent_cash<G: Geometry>(
    geo: &G,
    taxi: &Taxi,
    dearest: u32,
    mover_turns: u32,
    other_turns: u32,
) -> [u32; 2] {
    let (m, r, i) = (
        dearest as i64,
        geo.longest_ride().max(2) as i64,
        taxi.income as i64,
    );
    let mut need = [0i64; 2];
    // The mover at its turn j holds s + jI - jM; after its move j, its budget for the
    // opponent's turn j is s + (j+1)I - (j+1)M.
    for j in 0..mover_turns as i64 {
        need[0] = need[0].max(m + j * (m - i));
    }
    for j in 0..other_turns as i64 {
        need[0] = need[0].max(r + (j + 1) * (m - i));
    }
    // The other side at its turn j holds o + (j+1)I - jM, and that is also its budget
    // for the mover's turn j (after j of its moves).
    for j in 0..other_turns as i64 {
        need[1] = need[1].max(m + j * m - (j + 1) * i);
    }
    for j in 0..mover_turns as i64 {
        need[1] = need[1].max(r + j * m - (j + 1) * i);
    }
    need.map(|n| n.max(0) as u32)
}

/// Whether the opponent of the side to move can afford every attack it could make on
/// its next turn (a ride of any length, a leap): then "the king is left in check" means
/// what it means in FIDE, whatever the move played now (it does not change the
/// opponent's cash), and Taxi legality is FIDE legality plus the price (rules.md 2.2).
pub fn attacks_affordable<G: Geometry>(geo: &G, pos: &Position, taxi: &Taxi) -> bool {
    pays_any_travel(geo, next_turn_budget(pos, !pos.turn(), taxi))
}

/// The price of the dearest move on any board of `terrain` (`exact_dearest_move`; with
/// aftershocks, the dearest over every displacement).
pub fn dearest_move_on<T: Terrain>(terrain: &T) -> u32 {
    match terrain.fixed() {
        Some(geo) => exact_dearest_move(geo),
        None => (Shifting::MIN_DX..=Shifting::MAX_DX)
            .filter_map(|dx| terrain.shifted(dx))
            .map(exact_dearest_move)
            .max()
            .unwrap_or(0),
    }
}

/// Whether, beyond `attacks_affordable`, the side to move can pay for any move (the
/// `dearest` on this board): then Taxi legality is FIDE legality (rules.md 2 with deep
/// pockets).
#[inline(always)]
pub fn rich<G: Geometry>(geo: &G, pos: &Position, taxi: &Taxi, dearest: u32) -> bool {
    pos.cash(pos.turn()) >= dearest && attacks_affordable(geo, pos, taxi)
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
    const STOPS_EARLY: bool = S::STOPS_EARLY;
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
    #[inline(always)]
    fn piece_wanted(&self, role: Role, from: Square) -> bool {
        self.inner.piece_wanted(role, from)
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

    /// The dearest move on the standard board costs 8 (rules.md 2.1: Ra1xa8 is 7 + 1,
    /// Qh1xd5 4 + 4), and no move of random crowded boards or games costs more.
    #[test]
    fn the_dearest_move_is_the_dearest() {
        let geo = &crate::geometry::Standard;
        let dearest = exact_dearest_move(geo);
        assert_eq!(dearest, 8);
        let rook = crate::fen::parse_fen("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        let capture = Move::new(Role::Rook, Square::A1, Square::A8, MoveKind::Normal);
        assert_eq!(cost(geo, rook.board(), capture), dearest);
        let mut most = 0;
        let mut visit = |pos: &Position, moves: &crate::moves::MoveList| {
            for &mv in moves.iter() {
                most = most.max(cost(geo, pos.board(), mv));
            }
        };
        crate::test_games::random_placements(7, 3000, "QRRBBNNPPPqrrbbnnppp", &mut visit);
        crate::test_games::random_positions(
            9,
            &["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
            40,
            120,
            &mut visit,
        );
        assert_eq!(most, dearest);
        // A board displaced by (2, 2) has rides of 9, and a capture at the end of one
        // costs 10.
        let quake = crate::geometry::Earthquake::new(2, 2, crate::geometry::VoidRule::Block);
        assert_eq!(quake.longest_ride(), 9);
        assert_eq!(exact_dearest_move(&quake), 10);
    }

    /// The amounts worked out by hand for the standard board (dearest move 8, longest
    /// attack 7, income 2).
    #[test]
    fn indifferent_cash_by_hand() {
        let (geo, taxi) = (&crate::geometry::Standard, &Taxi::default());
        // The attacker's last move: 13 pays 8 and keeps 5 + 2 for any attack; the
        // defender's 6 + 2 pays its reply and makes any attack on the attacker's move.
        assert_eq!(indifferent_cash(geo, taxi, 8, 1, 1), [13, 6]);
        // Two moves each: 6 more for the mover (8 spent, 2 earned), 6 for the other.
        assert_eq!(indifferent_cash(geo, taxi, 8, 2, 2), [19, 12]);
        // The defender to move with two turns (its reply and the mate test) against
        // the attacker's one move.
        assert_eq!(indifferent_cash(geo, taxi, 8, 2, 1), [14, 11]);
    }

    #[test]
    fn the_dearest_king_step_is_a_step_and_the_dearest_fee() {
        let dearest_fee = (0..64).map(|i| towing_fee(Square::new(i))).max();
        assert_eq!(dearest_fee.map(|f| 1 + f), Some(DEAREST_KING_STEP));
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
