//! The vocabulary of the board: colours, roles, pieces, files, ranks and squares.
//!
//! Squares keep their names on every geometry (rules.md 3.2): `Square` is a name, not a
//! physical cell. Where a square lies and what is next to it is the geometry's business.

use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    pub fn name(self) -> &'static str {
        self.fold("White", "Black")
    }

    pub fn letter(self) -> char {
        self.fold('w', 'b')
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter as in FEN and coordinate promotion suffixes.
    pub fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }

    /// The role's English name (`knight`): in messages, and as the class of its SVG
    /// figure.
    pub fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// Upper-case letter as in SAN (the pawn has none there; 'P' here).
    pub fn upper(self) -> char {
        self.char().to_ascii_uppercase()
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for White.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper(),
            Color::Black => self.role.char(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A file by name, a (0) to h (7).
pub type File = u8;
/// A rank by name, 1 (0) to 8 (7).
pub type Rank = u8;

/// A square by name. The enum lets the compiler prove every index below 64.
#[rustfmt::skip]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    #[inline(always)]
    pub fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        // SAFETY: `Square` is `repr(u8)` with the 64 discriminants 0..=63, and the mask
        // keeps the value in that range.
        unsafe { std::mem::transmute::<u8, Square>(index & 63) }
    }

    #[inline(always)]
    pub fn from_coords(file: File, rank: Rank) -> Square {
        Square::new(rank * 8 + file)
    }

    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub fn file(self) -> File {
        self as u8 & 7
    }

    #[inline(always)]
    pub fn rank(self) -> Rank {
        self as u8 >> 3
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline(always)]
    pub fn flip_vertical(self) -> Square {
        Square::new(self as u8 ^ 56)
    }

    /// The same square mirrored left-right (a1 <-> h1).
    #[inline(always)]
    pub fn flip_horizontal(self) -> Square {
        Square::new(self as u8 ^ 7)
    }

    /// Rank counted from `color`'s side: rank 1 for White is rank 8 for Black.
    #[inline(always)]
    pub fn relative_rank(self, color: Color) -> Rank {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square::new)
    }

    /// Parses `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::from_coords(file, rank))
    }

    /// Light squares are those of h1's colour.
    pub fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

pub fn file_char(file: File) -> char {
    (b'a' + file) as char
}
