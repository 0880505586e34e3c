//! Piece placement: which piece stands on which square. No rules live here.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Role, Square};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    roles: [Bitboard; 6],
    colors: [Bitboard; 2],
}

impl Board {
    pub fn empty() -> Board {
        Board::default()
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role.index()]
    }

    #[inline(always)]
    pub fn by_piece(&self, color: Color, role: Role) -> Bitboard {
        self.colors[color.index()] & self.roles[role.index()]
    }

    #[inline(always)]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()]
    }

    #[inline(always)]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()]
    }

    /// The king of `color`, if it has exactly one on the board.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<Square> {
        let kings = self.by_piece(color, Role::King);
        (kings.count() == 1).then(|| kings.single())
    }

    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        // Roles are exclusive: add up index × bit, no branch to mispredict.
        let bit = |r: Role| (self.roles[r.index()].0 >> sq.index() & 1) as usize;
        let index = bit(Role::Knight)
            + 2 * bit(Role::Bishop)
            + 3 * bit(Role::Rook)
            + 4 * bit(Role::Queen)
            + 5 * bit(Role::King);
        Some(Role::ALL[index])
    }

    #[inline(always)]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.colors[0].contains(sq) {
            Some(Color::White)
        } else if self.colors[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = self.color_at(sq)?;
        let role = self.role_at(sq)?;
        Some(Piece { color, role })
    }

    /// Puts `piece` on an empty square.
    #[inline(always)]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(!self.occupied().contains(sq));
        self.roles[piece.role.index()].set(sq);
        self.colors[piece.color.index()].set(sq);
    }

    /// Removes the given piece from its square.
    #[inline(always)]
    pub fn take(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.piece_at(sq), Some(piece));
        self.roles[piece.role.index()].clear(sq);
        self.colors[piece.color.index()].clear(sq);
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline(always)]
    pub fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        debug_assert_eq!(self.piece_at(from), Some(piece));
        debug_assert!(!self.occupied().contains(to));
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.roles[piece.role.index()] ^= both;
        self.colors[piece.color.index()] ^= both;
    }

    /// Removes whatever stands on `sq`, returning it.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take(sq, piece);
        Some(piece)
    }

    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .map(move |sq| (sq, self.piece_at(sq).expect("occupied")))
    }
}
