//! Move ordering for the solver and the cheap check test of the attacker's last move.
//! Ordering only changes how soon a proof is found, never what is proved.

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::geometry::Geometry;
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

/// Attacking moves in the order to try: the table's hint and the killer, then checks,
/// then captures, then the rest.
pub fn attacks<G: Geometry>(game: &Game<G>, pos: &Position, moves: &MoveList, hint: u16, killer: Option<Move>) -> Vec<Move> {
    let info = CheckInfo::new(&game.geo, pos);
    let theirs = pos.board().by_color(!pos.turn());
    let mut scored: Vec<(i32, Move)> = moves
        .iter()
        .map(|&mv| {
            let mut score = 0;
            if hint != 0 && pack(mv) == hint {
                score += 1000;
            }
            if Some(mv) == killer {
                score += 500;
            }
            if game.rules.is_fide() && info.gives_check(&game.geo, pos, mv) {
                score += 100;
            }
            if theirs.contains(mv.to) {
                score += 10 + mv_value(pos, mv.to);
            }
            if matches!(mv.kind, MoveKind::Promotion(Role::Queen)) {
                score += 20;
            }
            (score, mv)
        })
        .collect();
    scored.sort_by_key(|&(s, _)| -s);
    scored.into_iter().map(|(_, m)| m).collect()
}

fn mv_value(pos: &Position, sq: Square) -> i32 {
    match pos.board().role_at(sq) {
        Some(Role::Queen) => 9,
        Some(Role::Rook) => 5,
        Some(Role::Bishop) | Some(Role::Knight) => 3,
        Some(Role::Pawn) => 1,
        _ => 0,
    }
}

/// Defences in the order to try: the hint and the last refutation first, then captures
/// and king moves (which most often escape), then the rest.
pub fn defences(pos: &Position, moves: &MoveList, hint: u16, killer: Option<Move>) -> Vec<Move> {
    let theirs = pos.board().by_color(!pos.turn());
    let mut scored: Vec<(i32, Move)> = moves
        .iter()
        .map(|&mv| {
            let mut score = 0;
            if hint != 0 && pack(mv) == hint {
                score += 1000;
            }
            if Some(mv) == killer {
                score += 500;
            }
            if theirs.contains(mv.to) {
                score += 50 + mv_value(pos, mv.to);
            }
            if mv.role == Role::King {
                score += 20;
            }
            (score, mv)
        })
        .collect();
    scored.sort_by_key(|&(s, _)| -s);
    scored.into_iter().map(|(_, m)| m).collect()
}
