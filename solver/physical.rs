//! Where each square lies physically (rules.md 3.1): the one notion of placement that
//! every drawing of a board shares (the text diagram of `show`, the SVG diagram), so
//! that a displaced Earthquake board is drawn the way its moves are played.

use crate::game::AnyGame;
use crate::position::Position;
use crate::types::Square;
use std::collections::BTreeMap;

/// The squares of a board at their physical cells (x to the right, y upwards, a1 of the
/// standard board at (0, 0)), and the smallest rectangle of cells holding them all.
/// Cells of that rectangle that hold no square are void.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhysicalBoard {
    /// Every square that exists, by name, with its cell.
    cells: Vec<(Square, (i32, i32))>,
    at: BTreeMap<(i32, i32), Square>,
    /// The bounding rectangle: x0..=x1, y0..=y1.
    pub x0: i32,
    pub x1: i32,
    pub y0: i32,
    pub y1: i32,
}

impl PhysicalBoard {
    /// The board of `game` as it lies in `pos` (with aftershocks the lower half's dx is
    /// the position's).
    pub fn of(game: &AnyGame, pos: &Position) -> PhysicalBoard {
        let cell = |sq: Square| -> (i32, i32) {
            match game.earthquake(pos) {
                Some(eq) => eq.cell(sq),
                None => (sq.file() as i32, sq.rank() as i32),
            }
        };
        PhysicalBoard::from_cells(game.squares(pos).map(|sq| (sq, cell(sq))).collect())
    }

    /// The standard 8x8 board (each board of the two-board games).
    pub fn standard() -> PhysicalBoard {
        PhysicalBoard::from_cells(
            Square::all()
                .map(|sq| (sq, (sq.file() as i32, sq.rank() as i32)))
                .collect(),
        )
    }

    fn from_cells(mut cells: Vec<(Square, (i32, i32))>) -> PhysicalBoard {
        cells.sort();
        let at: BTreeMap<(i32, i32), Square> = cells.iter().map(|&(sq, c)| (c, sq)).collect();
        let xs = || cells.iter().map(|(_, c)| c.0);
        let ys = || cells.iter().map(|(_, c)| c.1);
        PhysicalBoard {
            x0: xs().min().unwrap_or(0),
            x1: xs().max().unwrap_or(7),
            y0: ys().min().unwrap_or(0),
            y1: ys().max().unwrap_or(7),
            cells,
            at,
        }
    }

    /// Every square that exists with its cell, a1 first.
    pub fn cells(&self) -> &[(Square, (i32, i32))] {
        &self.cells
    }

    /// The square on cell (x, y), if the cell is not void.
    pub fn square_at(&self, x: i32, y: i32) -> Option<Square> {
        self.at.get(&(x, y)).copied()
    }

    /// The cell of `sq`, if the square exists.
    pub fn cell_of(&self, sq: Square) -> Option<(i32, i32)> {
        self.cells.iter().find(|(s, _)| *s == sq).map(|&(_, c)| c)
    }

    /// Columns and rows of the bounding rectangle.
    pub fn size(&self) -> (u32, u32) {
        (
            (self.x1 - self.x0 + 1) as u32,
            (self.y1 - self.y0 + 1) as u32,
        )
    }

    /// Whether some square is not on its standard cell (a displaced Earthquake board):
    /// then the names of the squares cannot be read off the edges alone.
    pub fn is_displaced(&self) -> bool {
        self.cells
            .iter()
            .any(|&(sq, c)| c != (sq.file() as i32, sq.rank() as i32))
    }
}
