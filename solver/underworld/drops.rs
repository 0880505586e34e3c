//! Where men go between the boards (rules.md 4.3, 4d, 4e, 4.8e, 4.8j): a man captured
//! on the World, or re-dropped after a capture on the Underworld, lands on its home
//! file of the Underworld nearest its home rank; a man that captures an Underworld King
//! returns to the World the same way; a captured Underworld King is placed back by its
//! owner. No file with room: the man is captured for good.

use super::state::{Homes, UState};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::{Color, Piece, Role, Square};

/// The ranks scanned for a drop or a return, nearest the home rank first (rules.md
/// 4.8j): White men 1..8, White pawns dropped on U 2..8, returned to W 2..7; Black
/// mirrored.
fn ranks(color: Color, role: Role, to_world: bool) -> impl Iterator<Item = u8> {
    let (low, high) = match (role, to_world) {
        (Role::Pawn, true) => (1, 6),
        (Role::Pawn, false) => (1, 7),
        _ => (0, 7),
    };
    (low..=high).map(move |r| match color {
        Color::White => r,
        Color::Black => 7 - r,
    })
}

/// The square where a man of `color` and `role` with home file `file` lands on `board`
/// (`to_world`: a return to the World, else a drop on the Underworld), if its file has
/// room.
pub fn landing(
    board: &Board,
    color: Color,
    role: Role,
    file: u8,
    to_world: bool,
) -> Option<Square> {
    let occupied = board.occupied();
    ranks(color, role, to_world)
        .map(|r| Square::from_coords(file, r))
        .find(|&sq| !occupied.contains(sq))
}

/// Drops `piece`, captured with home file `file` (a pawn: the file it was captured on),
/// on the Underworld (rules.md 4.3), or puts it in the reserve when its file is full.
/// Returns the square it landed on.
pub fn drop_on_under(s: &mut UState, piece: Piece, file: u8) -> Option<Square> {
    match landing(&s.under, piece.color, piece.role, file, false) {
        Some(sq) => {
            s.under.put(sq, piece);
            s.homes[1].set(sq, if piece.role == Role::Pawn { 0 } else { file });
            Some(sq)
        }
        None => {
            s.reserve.add(piece.color, piece.role);
            None
        }
    }
}

/// Puts `piece` with home file `file` on the World by rules 4d/4e, if its file has room.
pub fn return_to_world(s: &mut UState, piece: Piece, file: u8) -> Option<Square> {
    let sq = landing(s.world.board(), piece.color, piece.role, file, true)?;
    s.world.place_piece(sq, piece);
    s.homes[0].set(sq, if piece.role == Role::Pawn { 0 } else { file });
    Some(sq)
}

/// Where a man returned to the World may come from (rules.md 4e, 4.8e).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReturnFrom {
    /// The man on this square of the Underworld.
    Under(Square),
    /// A permanently captured man of this role.
    Reserve(Role),
}

/// A man returned to the World with the capture of an Underworld King by the other.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Return {
    pub from: ReturnFrom,
    pub role: Role,
    /// Its square on the World.
    pub to: Square,
}

/// The home files a man from the reserve may take (rules.md 4.8e): either of its kind;
/// a pawn the capture's file.
fn reserve_files(role: Role, capture_file: u8) -> Vec<u8> {
    match role {
        Role::Rook => vec![0, 7],
        Role::Knight => vec![1, 6],
        Role::Bishop => vec![2, 5],
        Role::Queen => vec![3],
        _ => vec![capture_file],
    }
}

/// Every choice of a man that `color` may return to the World after its Underworld King
/// took the other on `capture_sq`, in `s` as it stands after the capture (rules.md 4e,
/// 4.8e): its men on the Underworld placed as in 4d (a pawn on the capture's file), and
/// men of the reserve on either home file of their kind.
pub fn return_choices(s: &UState, color: Color, capture_sq: Square) -> Vec<Return> {
    let mut out = Vec::new();
    let world = s.world.board();
    let ours = s.under.by_color(color) - s.under.by_role(Role::King);
    for from in ours {
        let Some(role) = s.under.role_at(from) else {
            continue;
        };
        let file = if role == Role::Pawn {
            capture_sq.file()
        } else {
            s.homes[1].get(from)
        };
        if let Some(to) = landing(world, color, role, file, true) {
            out.push(Return {
                from: ReturnFrom::Under(from),
                role,
                to,
            });
        }
    }
    for role in s.reserve.roles(color) {
        for file in reserve_files(role, capture_sq.file()) {
            if let Some(to) = landing(world, color, role, file, true) {
                out.push(Return {
                    from: ReturnFrom::Reserve(role),
                    role,
                    to,
                });
            }
        }
    }
    out
}

/// Plays a return on `s`.
pub fn apply_return(s: &mut UState, color: Color, r: Return) {
    match r.from {
        ReturnFrom::Under(from) => {
            s.under.remove(from);
            s.homes[1].clear(from);
        }
        ReturnFrom::Reserve(role) => s.reserve.take(color, role),
    }
    s.world.place_piece(r.to, Piece::new(color, r.role));
    let home = if r.role == Role::Pawn { 0 } else { r.to.file() };
    s.homes[0].set(r.to, home);
}

/// The squares where the owner (`owner`) may place its Underworld King, taken by the
/// other (rules.md 4.8e): unoccupied squares of its first rank that no man of the
/// capturer attacks on the Underworld; else the same on its second rank; else any
/// unoccupied square of those two ranks; else any unoccupied square.
pub fn placements(under: &Board, owner: Color, attacked: Bitboard) -> Bitboard {
    let empty = !under.occupied();
    let (first, second) = match owner {
        Color::White => (Bitboard::rank(0), Bitboard::rank(1)),
        Color::Black => (Bitboard::rank(7), Bitboard::rank(6)),
    };
    [
        first & (empty - attacked),
        second & (empty - attacked),
        (first | second) & empty,
        empty,
    ]
    .into_iter()
    .find(|b| b.is_nonempty())
    .unwrap_or(Bitboard::EMPTY)
}

/// The home files of the men of one board, with the defaults of rules.md 4.2 for men
/// the position file does not name.
pub fn default_homes(board: &Board) -> Homes {
    let mut homes = Homes::default();
    for (sq, piece) in board.pieces() {
        homes.set(sq, super::state::default_home(piece.color, piece.role, sq));
    }
    homes
}
