//! Text diagrams of a position as it lies physically: on a displaced Earthquake board
//! each cell shows the piece and the square's own name, and void cells stay blank, so
//! a composer sees which square is next to which (rules.md 3.1).

use crate::game::AnyGame;
use crate::position::Position;
use crate::types::Square;
use std::collections::HashMap;

/// The diagram, top row first. Each cell is `Pa1` (piece letter, or `.` for an empty
/// square, then the square's name); void cells are blank.
pub fn diagram(game: &AnyGame, pos: &Position) -> String {
    let squares = game.squares(pos);
    let cell = |sq: Square| -> (i32, i32) {
        match game.earthquake(pos) {
            Some(eq) => eq.cell(sq),
            None => (sq.file() as i32, sq.rank() as i32),
        }
    };
    let mut at: HashMap<(i32, i32), Square> = HashMap::new();
    for sq in squares {
        at.insert(cell(sq), sq);
    }
    let xs = at.keys().map(|c| c.0);
    let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(7));
    let ys = at.keys().map(|c| c.1);
    let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(7));
    let mut out = String::new();
    for y in (y0..=y1).rev() {
        let mut row = String::new();
        for x in x0..=x1 {
            match at.get(&(x, y)) {
                Some(&sq) => {
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
