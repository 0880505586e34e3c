//! A Popeye diagram: the men on their squares, and the changes Popeye's twins make to
//! it (rotations, mirrors, shifts, colour changes). Popeye states no castling rights:
//! a king and rook on their game-array squares may castle unless `NoCastling` names one
//! of them, so the rights are worked out when the position line is written.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::{Color, Piece, Role, Square};

/// A reflection or rotation of the whole board, as Popeye's `Rotate` and `Mirror` name
/// them (`Rotate` turns to the left; a mirror is named by where a1, or a8, goes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Transform {
    Rotate90,
    Rotate180,
    Rotate270,
    /// `a1<-->h1`: files reversed.
    MirrorA1H1,
    /// `a1<-->a8`: ranks reversed.
    MirrorA1A8,
    /// `a1<-->h8`: reflected in the a8-h1 diagonal.
    MirrorA1H8,
    /// `a8<-->h1`: reflected in the a1-h8 diagonal.
    MirrorA8H1,
}

impl Transform {
    pub fn apply(self, sq: Square) -> Square {
        let (f, r) = (sq.file(), sq.rank());
        let (f, r) = match self {
            Transform::Rotate90 => (7 - r, f),
            Transform::Rotate180 => (7 - f, 7 - r),
            Transform::Rotate270 => (r, 7 - f),
            Transform::MirrorA1H1 => (7 - f, r),
            Transform::MirrorA1A8 => (f, 7 - r),
            Transform::MirrorA1H8 => (7 - r, 7 - f),
            Transform::MirrorA8H1 => (r, f),
        };
        Square::from_coords(f, r)
    }
}

/// The men of a diagram, square by square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    men: [Option<Piece>; 64],
}

impl Default for Diagram {
    fn default() -> Diagram {
        Diagram { men: [None; 64] }
    }
}

impl Diagram {
    pub fn at(&self, sq: Square) -> Option<Piece> {
        self.men[sq.index()]
    }

    /// Puts a man on `sq`; a man already there is replaced (as Popeye does).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.men[sq.index()] = Some(piece);
    }

    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        self.men[sq.index()].take()
    }

    /// The game array (Popeye's `InitialGameArray`).
    pub fn game_array() -> Diagram {
        let mut d = Diagram::default();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in back.into_iter().enumerate() {
            let file = file as u8;
            d.put(Square::from_coords(file, 0), Piece::new(Color::White, role));
            d.put(
                Square::from_coords(file, 1),
                Piece::new(Color::White, Role::Pawn),
            );
            d.put(
                Square::from_coords(file, 6),
                Piece::new(Color::Black, Role::Pawn),
            );
            d.put(Square::from_coords(file, 7), Piece::new(Color::Black, role));
        }
        d
    }

    pub fn transformed(&self, t: Transform) -> Diagram {
        let mut d = Diagram::default();
        for sq in Square::all() {
            d.men[t.apply(sq).index()] = self.at(sq);
        }
        d
    }

    /// The whole position moved by (dx, dy), or None when a man would leave the board.
    pub fn shifted(&self, dx: i32, dy: i32) -> Option<Diagram> {
        let mut d = Diagram::default();
        for sq in Square::all() {
            if let Some(p) = self.at(sq) {
                let f = sq.file() as i32 + dx;
                let r = sq.rank() as i32 + dy;
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    return None;
                }
                d.put(Square::from_coords(f as u8, r as u8), p);
            }
        }
        Some(d)
    }

    /// Every man changes colour where it stands (Popeye's `PolishType`).
    pub fn colours_exchanged(&self) -> Diagram {
        let mut d = self.clone();
        for m in d.men.iter_mut().flatten() {
            *m = Piece::new(!m.color, m.role);
        }
        d
    }

    /// Every man of `from` becomes a `to` (Popeye's `Substitute`).
    pub fn substituted(&self, from: Role, to: Role) -> Diagram {
        let mut d = self.clone();
        for m in d.men.iter_mut().flatten() {
            if m.role == from {
                m.role = to;
            }
        }
        d
    }

    pub fn board(&self) -> Board {
        let mut b = Board::empty();
        for sq in Square::all() {
            if let Some(p) = self.at(sq) {
                b.put(sq, p);
            }
        }
        b
    }

    /// The castling rights Popeye gives this diagram: for each side, each rook on a
    /// corner of its first rank with the king on its e-square, unless `no_castling`
    /// holds the king's or the rook's square. The result holds the rooks' squares, as
    /// `fen::write_castling` takes them.
    pub fn castling(&self, no_castling: &[Square]) -> Bitboard {
        let mut rights = Bitboard(0);
        for color in Color::ALL {
            let rank = color.fold(0, 7);
            let king = Square::from_coords(4, rank);
            if self.at(king) != Some(Piece::new(color, Role::King)) || no_castling.contains(&king) {
                continue;
            }
            for file in [0, 7] {
                let rook = Square::from_coords(file, rank);
                if self.at(rook) == Some(Piece::new(color, Role::Rook))
                    && !no_castling.contains(&rook)
                {
                    rights.set(rook);
                }
            }
        }
        rights
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_and_mirrors_move_a1_where_popeye_says() {
        let a1 = Square::A1;
        assert_eq!(Transform::Rotate90.apply(a1), Square::H1);
        assert_eq!(Transform::Rotate90.apply(Square::H8), Square::A8);
        assert_eq!(Transform::Rotate90.apply(Square::B1), Square::H2);
        assert_eq!(Transform::Rotate180.apply(a1), Square::H8);
        assert_eq!(Transform::Rotate270.apply(a1), Square::A8);
        assert_eq!(Transform::MirrorA1H1.apply(a1), Square::H1);
        assert_eq!(Transform::MirrorA1A8.apply(a1), Square::A8);
        assert_eq!(Transform::MirrorA1H8.apply(a1), Square::H8);
        assert_eq!(Transform::MirrorA8H1.apply(Square::A8), Square::H1);
        assert_eq!(Transform::MirrorA8H1.apply(a1), a1);
        for t in [
            Transform::Rotate90,
            Transform::Rotate180,
            Transform::Rotate270,
        ] {
            let four = |s| (0..4).fold(s, |s, _| t.apply(s));
            assert!(Square::all().all(|s| four(s) == s), "{t:?}");
        }
    }

    #[test]
    fn castling_follows_the_men_and_no_castling() {
        let d = Diagram::game_array();
        assert_eq!(d.castling(&[]).count(), 4);
        assert_eq!(d.castling(&[Square::E1]).count(), 2);
        assert_eq!(d.castling(&[Square::A8, Square::H1]).count(), 2);
        assert_eq!(d.shifted(0, 1), None);
        let up = d.transformed(Transform::Rotate180);
        assert_eq!(up.castling(&[]).count(), 0);
    }
}
