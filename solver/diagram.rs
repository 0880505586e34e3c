//! Text diagrams of a position as it lies physically: on a displaced Earthquake board
//! each cell shows the piece and the square's own name, and void cells stay blank, so
//! a composer sees which square is next to which (rules.md 3.1).

use crate::game::AnyGame;
use crate::physical::PhysicalBoard;
use crate::position::Position;

/// The diagram, top row first. Each cell is `Pa1` (piece letter, or `.` for an empty
/// square, then the square's name); void cells are blank.
pub fn diagram(game: &AnyGame, pos: &Position) -> String {
    let board = PhysicalBoard::of(game, pos);
    let mut out = String::new();
    for y in (board.y0..=board.y1).rev() {
        let mut row = String::new();
        for x in board.x0..=board.x1 {
            match board.square_at(x, y) {
                Some(sq) => {
                    let piece = pos.board().piece_at(sq).map(|p| p.char()).unwrap_or('.');
                    row.push_str(&format!("{piece}{sq} "));
                }
                None => row.push_str("    "),
            }
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}
