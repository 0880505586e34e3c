//! Movement on the Underworld (rules.md 4.4, 4.8f-h): orthodox men on a cylinder for
//! pawns (rank 1 follows rank 8), no castling, no promotion; captures that drop the
//! victim again, keep it for good (the enemy Underworld King's captures), send the
//! capturer to the World (taking an Underworld King) or return a man (King takes
//! King); and the Underworld King's check rule, which binds only while some move keeps
//! it safe.

use super::drops::{self, Return};
use super::state::UState;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::{Geometry, Standard};
use crate::types::{Color, Role, Square};

/// What an Underworld move does besides moving a man.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnderKind {
    Quiet,
    /// A pawn's two-square step from its second rank (writes `u_ep`).
    DoubleStep,
    /// A capture of a man other than a King: the victim is dropped again (rule 4a),
    /// or kept for good when the capturer is the Underworld King.
    Capture,
    EnPassant,
    /// A man other than the King captures the enemy Underworld King: it returns to the
    /// World and the King stays (rule 4d).
    TakesKing,
    /// The Underworld King takes the other, with the man its side returns (rule 4e).
    KingTakesKing(Option<Return>),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnderMove {
    pub from: Square,
    pub to: Square,
    pub kind: UnderKind,
}

/// The square a pawn of `color` on `sq` steps to: forward, rank 1 following rank 8.
pub fn pawn_step(color: Color, sq: Square) -> Square {
    let rank = match color {
        Color::White => (sq.rank() + 1) % 8,
        Color::Black => (sq.rank() + 7) % 8,
    };
    Square::from_coords(sq.file(), rank)
}

/// The squares a pawn of `color` on `sq` attacks on the cylinder (rules.md 4.8g).
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    let ahead = pawn_step(color, sq);
    let mut out = Bitboard::EMPTY;
    for df in [-1i8, 1] {
        let f = ahead.file() as i8 + df;
        if (0..8).contains(&f) {
            out.set(Square::from_coords(f as u8, ahead.rank()));
        }
    }
    out
}

/// Whether a man of `by` attacks `sq` on the Underworld (rules.md 4.8f: with Underworld
/// movement, whatever 4d would let it do there).
pub fn attacked(board: &Board, sq: Square, by: Color) -> bool {
    let geo = &Standard;
    let occupied = board.occupied();
    let them = board.by_color(by);
    let leapers = (geo.knight_attacks(sq) & board.by_role(Role::Knight))
        | (geo.king_attacks(sq) & board.by_role(Role::King))
        | (geo.rook_attacks(sq, occupied) & board.rooks_and_queens())
        | (geo.bishop_attacks(sq, occupied) & board.bishops_and_queens());
    if (leapers & them).is_nonempty() {
        return true;
    }
    // A pawn of `by` attacks `sq` from where `sq` is one of its attacks: rides are
    // symmetric, and so is the cylinder's diagonal step seen from the other colour.
    (pawn_attacks(!by, sq) & board.by_piece(by, Role::Pawn)).is_nonempty()
}

/// The moves of `color` on the Underworld by movement alone (before rule 4c).
pub fn pseudo_moves(s: &UState, color: Color) -> Vec<UnderMove> {
    let geo = &Standard;
    let board = &s.under;
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    let their_king = board.by_piece(!color, Role::King);
    let mut out = Vec::new();
    let capture = |out: &mut Vec<UnderMove>, role: Role, from: Square, to: Square| {
        if !their_king.contains(to) {
            out.push(UnderMove {
                from,
                to,
                kind: UnderKind::Capture,
            });
        } else if role == Role::King {
            let choices = drops::return_choices(s, color, to);
            if choices.is_empty() {
                out.push(UnderMove {
                    from,
                    to,
                    kind: UnderKind::KingTakesKing(None),
                });
            }
            for r in choices {
                out.push(UnderMove {
                    from,
                    to,
                    kind: UnderKind::KingTakesKing(Some(r)),
                });
            }
        } else {
            // Rule 4d: only when the capturer has a square on the World.
            let file = if role == Role::Pawn {
                to.file()
            } else {
                s.homes[1].get(from)
            };
            if drops::landing(s.world.board(), color, role, file, true).is_some() {
                out.push(UnderMove {
                    from,
                    to,
                    kind: UnderKind::TakesKing,
                });
            }
        }
    };
    for from in ours {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let targets = match role {
            Role::Pawn => {
                let step = pawn_step(color, from);
                if !occupied.contains(step) {
                    out.push(UnderMove {
                        from,
                        to: step,
                        kind: UnderKind::Quiet,
                    });
                    // The double step: from the second rank by name, never across the
                    // cylinder's seam.
                    if from.relative_rank(color) == 1 {
                        let two = pawn_step(color, step);
                        if !occupied.contains(two) {
                            out.push(UnderMove {
                                from,
                                to: two,
                                kind: UnderKind::DoubleStep,
                            });
                        }
                    }
                }
                let attacks = pawn_attacks(color, from);
                if let Some(ep) = s.u_ep {
                    if attacks.contains(ep) && !occupied.contains(ep) {
                        out.push(UnderMove {
                            from,
                            to: ep,
                            kind: UnderKind::EnPassant,
                        });
                    }
                }
                for to in attacks & theirs {
                    capture(&mut out, role, from, to);
                }
                continue;
            }
            Role::Knight => geo.knight_attacks(from),
            Role::Bishop => geo.bishop_attacks(from, occupied),
            Role::Rook => geo.rook_attacks(from, occupied),
            Role::Queen => geo.queen_attacks(from, occupied),
            Role::King => geo.king_attacks(from),
        };
        for to in targets - ours {
            if theirs.contains(to) {
                capture(&mut out, role, from, to);
            } else {
                out.push(UnderMove {
                    from,
                    to,
                    kind: UnderKind::Quiet,
                });
            }
        }
    }
    out
}

/// The square of the pawn taken en passant onto `ep` by a pawn of `color`.
fn en_passant_victim(color: Color, ep: Square) -> Square {
    let rank = match color {
        Color::White => ep.rank() - 1,
        Color::Black => ep.rank() + 1,
    };
    Square::from_coords(ep.file(), rank)
}

/// Plays the Underworld move `mv` of `color` on `s`: the move and its drop or return. A
/// King taken by the other is left for its owner to place (`s.placing`).
pub fn apply(s: &mut UState, color: Color, mv: UnderMove) {
    let piece = s
        .under
        .piece_at(mv.from)
        .expect("a man on the move's square");
    s.u_ep = None;
    match mv.kind {
        UnderKind::Quiet | UnderKind::DoubleStep => {
            s.under.remove(mv.from);
            s.under.put(mv.to, piece);
            s.homes[1].carry(mv.from, mv.to);
            if mv.kind == UnderKind::DoubleStep {
                s.u_ep = Some(pawn_step(color, mv.from));
            }
        }
        UnderKind::Capture => {
            let victim = s.under.remove(mv.to).expect("a man to capture");
            let file = if victim.role == Role::Pawn {
                mv.to.file()
            } else {
                s.homes[1].get(mv.to)
            };
            s.under.remove(mv.from);
            s.under.put(mv.to, piece);
            s.homes[1].carry(mv.from, mv.to);
            if piece.role == Role::King {
                // The enemy Underworld King captures for good (rule 4a).
                s.reserve.add(victim.color, victim.role);
            } else {
                // The capturer lands first, then the victim is dropped (rule 4.8j).
                drops::drop_on_under(s, victim, file);
            }
        }
        UnderKind::EnPassant => {
            let victim_sq = en_passant_victim(color, mv.to);
            let victim = s.under.remove(victim_sq).expect("a pawn taken en passant");
            s.under.remove(mv.from);
            s.under.put(mv.to, piece);
            s.homes[1].carry(mv.from, mv.to);
            drops::drop_on_under(s, victim, victim_sq.file());
        }
        UnderKind::TakesKing => {
            let file = if piece.role == Role::Pawn {
                mv.to.file()
            } else {
                s.homes[1].get(mv.from)
            };
            s.under.remove(mv.from);
            s.homes[1].clear(mv.from);
            drops::return_to_world(s, piece, file);
        }
        UnderKind::KingTakesKing(ret) => {
            s.under.remove(mv.to);
            s.homes[1].clear(mv.to);
            s.under.remove(mv.from);
            s.under.put(mv.to, piece);
            s.homes[1].carry(mv.from, mv.to);
            if let Some(r) = ret {
                drops::apply_return(s, color, r);
            }
            s.placing = Some(!color);
        }
    }
}

/// Whether the Underworld King of `color` is attacked in `s` (none on the board: no).
pub fn king_in_check(s: &UState, color: Color) -> bool {
    match s.under.king(color) {
        Some(k) => attacked(&s.under, k, !color),
        None => false,
    }
}

/// The Underworld after `mv` of `color`, men only: what the King's safety is judged on
/// (rule 4.8f: after the whole move, re-drops and returns included). The same board as
/// `apply` leaves, without the home files and the reserve.
fn board_after(s: &UState, color: Color, mv: UnderMove) -> Board {
    let mut b = s.under;
    let Some(piece) = b.remove(mv.from) else {
        return b;
    };
    match mv.kind {
        UnderKind::Quiet | UnderKind::DoubleStep => b.put(mv.to, piece),
        UnderKind::Capture => {
            if let Some(victim) = b.remove(mv.to) {
                let file = if victim.role == Role::Pawn {
                    mv.to.file()
                } else {
                    s.homes[1].get(mv.to)
                };
                b.put(mv.to, piece);
                if piece.role != Role::King {
                    if let Some(sq) = drops::landing(&b, victim.color, victim.role, file, false) {
                        b.put(sq, victim);
                    }
                }
            }
        }
        UnderKind::EnPassant => {
            let victim_sq = en_passant_victim(color, mv.to);
            b.put(mv.to, piece);
            if let Some(victim) = b.remove(victim_sq) {
                if let Some(sq) =
                    drops::landing(&b, victim.color, victim.role, victim_sq.file(), false)
                {
                    b.put(sq, victim);
                }
            }
        }
        UnderKind::TakesKing => {}
        UnderKind::KingTakesKing(ret) => {
            b.remove(mv.to);
            b.put(mv.to, piece);
            if let Some(Return {
                from: drops::ReturnFrom::Under(sq),
                ..
            }) = ret
            {
                b.remove(sq);
            }
        }
    }
    b
}

/// Whether `mv` of `color` leaves its Underworld King unattacked (rule 4.8f).
pub fn keeps_king_safe(s: &UState, color: Color, mv: UnderMove) -> bool {
    let b = board_after(s, color, mv);
    match b.king(color) {
        Some(k) => !attacked(&b, k, !color),
        None => true,
    }
}

/// The legal Underworld moves of `color` (rules.md 4c, 4.8f): those that leave its
/// Underworld King safe, judged after the whole move; when none does, every move. An
/// empty list means the side passes.
pub fn legal_moves(s: &UState, color: Color) -> Vec<UnderMove> {
    let mut all = pseudo_moves(s, color);
    if all.iter().any(|&mv| keeps_king_safe(s, color, mv)) {
        all.retain(|&mv| keeps_king_safe(s, color, mv));
    }
    all
}

/// The squares of `board` attacked by `by` on the Underworld, among `squares`.
pub fn attacked_among(board: &Board, squares: Bitboard, by: Color) -> Bitboard {
    squares
        .into_iter()
        .filter(|&sq| attacked(board, sq, by))
        .fold(Bitboard::EMPTY, |b, sq| b.with(sq))
}
