//! Retractions: FIDE moves taken back (rules.md 6.1). A retraction names the move as it
//! was played forward (with the man it captured, now put back) and turns a position into
//! the one before that move. Whether the earlier position could have stood on the board
//! is the business of `soundness` and `history`; here only the board's geometry and the
//! way each kind of move changes the placement are known.

use crate::attacks::{is_attacked, piece_attacks};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::geometry::{Geometry, Standard};
use crate::types::{Color, Piece, Role, Square};
use std::fmt;

/// A position as retro-analysis sees it: placement, side to move, the castling rights
/// that are asserted (their king and rooks never moved) and an en passant square that
/// asserts the last move was that pawn's double step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RetroPosition {
    pub board: Board,
    pub turn: Color,
    pub castling: Bitboard,
    pub ep: Option<Square>,
}

/// A move taken back. `role` is the moving man's role before the move (a pawn for a
/// promotion); `captured` is the man the move took, put back by the retraction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Retraction {
    pub mover: Color,
    pub role: Role,
    pub from: Square,
    pub to: Square,
    pub promoted: Option<Role>,
    pub captured: Option<Role>,
    pub en_passant: bool,
    /// Castling: the rook's squares before and after.
    pub castle: Option<(Square, Square)>,
}

impl Retraction {
    fn plain(mover: Color, role: Role, from: Square, to: Square) -> Retraction {
        Retraction {
            mover,
            role,
            from,
            to,
            promoted: None,
            captured: None,
            en_passant: false,
            castle: None,
        }
    }

    /// The man standing on `to` after the move.
    pub fn arrived(&self) -> Role {
        self.promoted.unwrap_or(self.role)
    }

    /// The square of the man taken en passant.
    pub fn en_passant_victim(&self) -> Square {
        Square::from_coords(self.to.file(), self.from.rank())
    }

    /// Squares the move crossed or used, besides `from` and `to`: a ride's path, the
    /// square a double step passed, castling's paths. Nothing may have stood on them
    /// while the move was played.
    pub fn path(&self) -> Bitboard {
        let geo = Standard;
        let mut path = Bitboard::from_square(self.from).with(self.to);
        if matches!(self.role, Role::Bishop | Role::Rook | Role::Queen)
            || (self.role == Role::Pawn && self.from.file() == self.to.file())
        {
            path |= geo.between(self.from, self.to);
        }
        if let Some((rook_from, rook_to)) = self.castle {
            path |= geo.between(self.from, self.to)
                | geo.between(rook_from, rook_to)
                | Bitboard::from_square(rook_from).with(rook_to);
        }
        if self.en_passant {
            path = path.with(self.en_passant_victim());
        }
        path
    }

    /// Coordinate notation of the forward move (formats.md 2): `e2e4`, `e7e8q`, castling
    /// as the king's move.
    pub fn coord(&self) -> String {
        let promo = self
            .promoted
            .map(|r| r.char().to_string())
            .unwrap_or_default();
        format!("{}{}{promo}", self.from, self.to)
    }
}

/// Long notation of the forward move with the captured man named: `Bf1xNc4`, `d7-d5`,
/// `e5xd6 e.p.`, `b7xRa8=Q`, `O-O`.
impl fmt::Display for Retraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((rook_from, _)) = self.castle {
            return f.write_str(if rook_from.file() == 7 {
                "O-O"
            } else {
                "O-O-O"
            });
        }
        if self.role != Role::Pawn {
            write!(f, "{}", self.role.upper())?;
        }
        write!(f, "{}", self.from)?;
        match self.captured {
            Some(_) if self.en_passant => write!(f, "x{} e.p.", self.to)?,
            Some(role) => write!(f, "x{}{}", role.upper(), self.to)?,
            None => write!(f, "-{}", self.to)?,
        }
        if let Some(p) = self.promoted {
            write!(f, "={}", p.upper())?;
        }
        Ok(())
    }
}

/// Men that a move onto `sq` can have captured: never a king, and a pawn only where
/// pawns can stand.
fn capturable(sq: Square) -> &'static [Role] {
    const WITH_PAWN: [Role; 5] = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    if sq.rank() == 0 || sq.rank() == 7 {
        &WITH_PAWN[..4]
    } else {
        &WITH_PAWN
    }
}

/// One step towards `color`'s own side (a pawn's step taken back), if on the board.
fn step_back(color: Color, sq: Square) -> Option<Square> {
    let rank = sq.rank() as i32 + color.fold(-1, 1);
    (0..8)
        .contains(&rank)
        .then(|| Square::from_coords(sq.file(), rank as u8))
}

fn beside(sq: Square) -> impl Iterator<Item = Square> {
    [-1i32, 1].into_iter().filter_map(move |df| {
        let file = sq.file() as i32 + df;
        (0..8)
            .contains(&file)
            .then(|| Square::from_coords(file as u8, sq.rank()))
    })
}

/// The king and rook of an asserted castling right never moved: they are frozen.
pub fn frozen(pos: &RetroPosition, color: Color) -> Bitboard {
    let rooks = pos.castling & Bitboard::rank(color.fold(0, 7));
    if rooks.is_empty() {
        return Bitboard::EMPTY;
    }
    let king = pos
        .board
        .king(color)
        .map(Bitboard::from_square)
        .unwrap_or_default();
    rooks | king
}

/// Every retraction of the side that just moved (`!pos.turn`) that the placement allows:
/// the squares it comes back to are empty (`blockers` adds squares held by men the board
/// does not show), a ride's path is clear, pawns move backwards, captured men are put
/// back, and castling and en passant are undone. An en passant square in `pos` admits
/// only the double step it records. Whether the earlier position is sound is not
/// checked here.
pub fn retractions(pos: &RetroPosition, blockers: Bitboard, out: &mut Vec<Retraction>) {
    let geo = Standard;
    let mover = !pos.turn;
    let board = &pos.board;
    let occupied = board.occupied() | blockers;
    let empty = !occupied;
    let with_captures = |r: Retraction, out: &mut Vec<Retraction>| {
        for &role in capturable(r.to) {
            out.push(Retraction {
                captured: Some(role),
                ..r
            });
        }
    };

    if let Some(ep) = pos.ep {
        // The last move was the double step over `ep`, and nothing else.
        let (Some(to), Some(from)) = (step_back(!mover, ep), step_back(mover, ep)) else {
            return;
        };
        if board.piece_at(to) == Some(Piece::new(mover, Role::Pawn))
            && empty.contains(ep)
            && empty.contains(from)
        {
            out.push(Retraction::plain(mover, Role::Pawn, from, to));
        }
        return;
    }

    let frozen = frozen(pos, mover);
    for (to, piece) in board.pieces() {
        if piece.color != mover || frozen.contains(to) {
            continue;
        }
        let rank = to.relative_rank(mover);
        match piece.role {
            Role::Pawn => {
                if rank < 2 {
                    continue;
                }
                let back = step_back(mover, to).expect("a pawn above its second rank");
                if empty.contains(back) {
                    out.push(Retraction::plain(mover, Role::Pawn, back, to));
                    if rank == 3 {
                        let start = step_back(mover, back).expect("rank 2 exists");
                        if empty.contains(start) {
                            out.push(Retraction::plain(mover, Role::Pawn, start, to));
                        }
                    }
                }
                for from in beside(back) {
                    if !empty.contains(from) {
                        continue;
                    }
                    with_captures(Retraction::plain(mover, Role::Pawn, from, to), out);
                    if rank == 5 {
                        // En passant: the taken pawn stood beside `from`, having just
                        // passed `to` from the square in front of it.
                        let victim = Square::from_coords(to.file(), from.rank());
                        let origin = step_back(!mover, to).expect("rank 7 exists");
                        if empty.contains(victim) && empty.contains(origin) {
                            out.push(Retraction {
                                captured: Some(Role::Pawn),
                                en_passant: true,
                                ..Retraction::plain(mover, Role::Pawn, from, to)
                            });
                        }
                    }
                }
            }
            role => {
                if rank == 7 && role != Role::King {
                    // A promotion taken back: the pawn returns to the seventh rank.
                    let back = step_back(mover, to).expect("rank 7 exists");
                    let promoted = |from| Retraction {
                        promoted: Some(role),
                        ..Retraction::plain(mover, Role::Pawn, from, to)
                    };
                    if empty.contains(back) {
                        out.push(promoted(back));
                    }
                    for from in beside(back) {
                        if empty.contains(from) {
                            with_captures(promoted(from), out);
                        }
                    }
                }
                for from in piece_attacks(&geo, role, mover, to, occupied) & empty {
                    let r = Retraction::plain(mover, role, from, to);
                    out.push(r);
                    with_captures(r, out);
                }
                if role == Role::King {
                    uncastle(pos, to, empty, out);
                }
            }
        }
    }
}

/// Castling taken back (standard set-up only): the king on g1 or c1 with the rook beside
/// it returns to e1 and the corner. The king may not have been in check or crossed an
/// attacked square; the right was in force before the move.
fn uncastle(pos: &RetroPosition, king_to: Square, empty: Bitboard, out: &mut Vec<Retraction>) {
    let mover = !pos.turn;
    let back = mover.fold(0, 7);
    if king_to.rank() != back {
        return;
    }
    let sq = |file| Square::from_coords(file, back);
    let (rook_from, rook_to, crossed) = match king_to.file() {
        6 => (sq(7), sq(5), sq(5)),
        2 => (sq(0), sq(3), sq(3)),
        _ => return,
    };
    let king_from = sq(4);
    let rook = Piece::new(mover, Role::Rook);
    let mut clear = Bitboard::from_square(king_from).with(rook_from);
    if rook_from.file() == 0 {
        clear = clear.with(sq(1));
    }
    if pos.board.piece_at(rook_to) != Some(rook) || !(clear - empty).is_empty() {
        return;
    }
    let before = uncastled_board(&pos.board, mover, king_to, king_from, rook_from, rook_to);
    let occupied = before.occupied();
    if is_attacked(&Standard, &before, king_from, !mover, occupied)
        || is_attacked(&Standard, &before, crossed, !mover, occupied)
    {
        return;
    }
    out.push(Retraction {
        castle: Some((rook_from, rook_to)),
        ..Retraction::plain(mover, Role::King, king_from, king_to)
    });
}

fn uncastled_board(
    board: &Board,
    mover: Color,
    king_to: Square,
    king_from: Square,
    rook_from: Square,
    rook_to: Square,
) -> Board {
    let mut b = *board;
    b.take(king_to, Piece::new(mover, Role::King));
    b.take(rook_to, Piece::new(mover, Role::Rook));
    b.put(king_from, Piece::new(mover, Role::King));
    b.put(rook_from, Piece::new(mover, Role::Rook));
    b
}

/// The position before the retracted move: the mover to move, the captured man back,
/// castling's right restored, and the en passant square an en passant capture needed.
pub fn unplay(pos: &RetroPosition, r: &Retraction) -> RetroPosition {
    let mut board = pos.board;
    let mover = r.mover;
    let mut castling = pos.castling;
    if let Some((rook_from, rook_to)) = r.castle {
        board = uncastled_board(&board, mover, r.to, r.from, rook_from, rook_to);
        castling = castling.with(rook_from);
    } else {
        board.take(r.to, Piece::new(mover, r.arrived()));
        board.put(r.from, Piece::new(mover, r.role));
        if let Some(role) = r.captured {
            let sq = if r.en_passant {
                r.en_passant_victim()
            } else {
                r.to
            };
            board.put(sq, Piece::new(!mover, role));
        }
    }
    RetroPosition {
        board,
        turn: mover,
        castling,
        ep: r.en_passant.then_some(r.to),
    }
}
