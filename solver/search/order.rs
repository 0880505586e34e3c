//! Move ordering for the solver and the cheap check test of the attacker's last move.
//! Ordering only changes how soon a proof is found, never what is proved.

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::geometry::{Geometry, Terrain};
use crate::movegen::MoveSink;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Role, Square};

/// A move packed into 16 bits for the transposition table's hint (never 0 for a move,
/// since from != to).
#[inline]
pub fn pack(mv: Move) -> u16 {
    (mv.from as u16) << 6 | mv.to as u16 | promo_bits(mv) << 12
}

fn promo_bits(mv: Move) -> u16 {
    match mv.promotion() {
        None => 0,
        Some(r) => r as u16,
    }
}

/// What the defender's king is exposed to, for testing whether an attacking move gives
/// check without playing it (FIDE rules).
pub struct CheckInfo {
    king: Option<Square>,
    /// Squares from which a piece of each role would attack the king.
    squares: [Bitboard; 6],
    /// Attacker's pieces whose leaving uncovers a ride onto the king.
    discoverers: Bitboard,
}

impl CheckInfo {
    pub fn new<G: Geometry>(geo: &G, pos: &Position) -> CheckInfo {
        let us = pos.turn();
        let them = !us;
        let board = pos.board();
        let Some(king) = board.king(them) else {
            return CheckInfo {
                king: None,
                squares: [Bitboard::EMPTY; 6],
                discoverers: Bitboard::EMPTY,
            };
        };
        let occ = board.occupied();
        let bishop = geo.bishop_attacks(king, occ);
        let rook = geo.rook_attacks(king, occ);
        let squares = [
            geo.pawn_attacks(them, king),
            geo.knight_attacks(king),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ];
        // Our riders aimed at the king with exactly one of our pieces between.
        let ours = board.by_color(us);
        let snipers = ((geo.rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
            | (geo.bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for s in snipers {
            let between = geo.between(king, s) & occ;
            if between.count() == 1 {
                discoverers |= between & ours;
            }
        }
        CheckInfo {
            king: Some(king),
            squares,
            discoverers,
        }
    }

    /// Whether `mv` (legal) leaves the defender's king attacked.
    #[inline]
    pub fn gives_check<G: Geometry>(&self, geo: &G, pos: &Position, mv: Move) -> bool {
        let Some(king) = self.king else {
            return false;
        };
        match mv.kind {
            MoveKind::Normal | MoveKind::DoublePush => {
                if self.squares[mv.role.index()].contains(mv.to) {
                    return true;
                }
                self.discoverers.contains(mv.from) && !geo.line(king, mv.from).contains(mv.to)
            }
            // Rare: decide on the board.
            _ => {
                let mut p = *pos;
                p.play_board(geo, mv);
                crate::movegen::king_attacked(geo, &p, p.turn())
            }
        }
    }
}

/// Puts the moves with the highest priority first, keeping generation order within a
/// priority, so the order is the same on every run and thread. Priorities are small
/// (0..=3), so this is a few linear passes, no sort.
#[inline]
fn order_by_priority(moves: &mut MoveList, priority: impl Fn(Move) -> u8) {
    let n = moves.len();
    let mut prio = [0u8; 256];
    let mut max = 0;
    for (i, &mv) in moves.iter().enumerate() {
        prio[i] = priority(mv);
        max = max.max(prio[i]);
    }
    if max == 0 {
        return;
    }
    let original: MoveList = {
        let mut l = MoveList::new();
        for &mv in moves.iter() {
            l.push(mv);
        }
        l
    };
    let out = moves.as_mut_slice();
    let mut j = 0;
    for p in (0..=max).rev() {
        for i in 0..n {
            if prio[i] == p {
                out[j] = original[i];
                j += 1;
            }
        }
    }
}

/// Orders attacking moves: the table's hint and the killer, then checks and captures,
/// then the rest.
pub fn sort_attacks<T: Terrain>(
    game: &Game<T>,
    pos: &Position,
    moves: &mut MoveList,
    hint: u16,
    killer: Option<Move>,
) {
    if moves.len() < 2 {
        return;
    }
    let geo = game.geo(pos);
    let info = CheckInfo::new(geo, pos);
    let theirs = pos.board().by_color(!pos.turn());
    let fide = game.is_plain();
    order_by_priority(moves, |mv| {
        if (hint != 0 && pack(mv) == hint) || Some(mv) == killer {
            3
        } else if fide && info.gives_check(geo, pos, mv) {
            2
        } else if theirs.contains(mv.to) || mv.promotion().is_some() {
            1
        } else {
            0
        }
    });
}

/// Orders defences: the table's hint and the last refutation first (a refutation is
/// usually found again among siblings), the rest in generation order.
#[inline]
pub fn sort_defences(moves: &mut MoveList, hint: u16, killer: Option<Move>) {
    let slice = moves.as_mut_slice();
    let mut front = 0;
    for wanted in [killer, None] {
        let found = match wanted {
            Some(k) => slice.iter().position(|&m| m == k),
            None if hint != 0 => slice.iter().position(|&m| pack(m) == hint),
            None => None,
        };
        if let Some(i) = found {
            if i >= front {
                slice[front..=i].rotate_right(1);
                front += 1;
            }
        }
    }
}

/// Collects the moves that may give check: exact for ordinary moves, and every
/// promotion and special move (the caller verifies those on the board).
pub struct CheckCandidates<'a, G: Geometry> {
    pub geo: &'a G,
    pub info: &'a CheckInfo,
    pub out: &'a mut MoveList,
}

impl<G: Geometry> CheckCandidates<'_, G> {
    #[inline(always)]
    fn checking_targets(&self, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        let Some(king) = self.info.king else {
            return Bitboard::EMPTY;
        };
        let direct = targets & self.info.squares[role.index()];
        if self.info.discoverers.contains(from) {
            direct | (targets - self.geo.line(king, from))
        } else {
            direct
        }
    }
}

impl<G: Geometry> MoveSink for CheckCandidates<'_, G> {
    #[inline(always)]
    fn piece(&mut self, role: Role, from: Square, targets: Bitboard) {
        let t = self.checking_targets(role, from, targets);
        self.out.piece(role, from, t);
    }
    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard, promo: Bitboard) {
        let t = self.checking_targets(Role::Pawn, from, targets - promo) | (targets & promo);
        self.out.pawn(from, t, promo);
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.out.push(mv);
    }
}
