//! Where every part of a diagram goes on the page, in whole pixels: the boards left to
//! right, each cell at its physical place (x to the right, y upwards on the board, so
//! the top row of the page is the board's highest y), the labels, the captions. Whole
//! pixels keep the output byte-identical and let a test find each square in a picture.

use super::scene::Scene;

/// The side of a cell, in pixels.
pub const CELL: u32 = 48;
/// Room for the coordinates on each side of a board.
pub const MARGIN: u32 = 22;
/// Room right of a board for the side-to-move marker (beyond the coordinates' margin).
pub const MARKER_ROOM: u32 = 18;
/// Blank border of the page.
pub const PAD: u32 = 12;
/// Between two boards side by side.
pub const GAP: u32 = 28;
/// Height of the title line, of the boards' labels, of each caption line.
pub const LINE: u32 = 24;
/// Side of a man captured for good (Underworld), drawn under the captions.
pub const RESERVE_FIGURE: u32 = 30;
/// Width of a caption's character, as an estimate to size the page (no font metrics
/// here: a viewer's font may differ a little).
const CHAR_WIDTH: u32 = 8;

/// One board on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardFrame {
    /// Top-left pixel of the cell grid (the bounding rectangle of the cells).
    pub left: u32,
    pub top: u32,
    /// The cell at the grid's left column and top row.
    pub x0: i32,
    pub y1: i32,
    pub columns: u32,
    pub rows: u32,
}

impl BoardFrame {
    /// Top-left pixel of the physical cell (x, y).
    pub fn cell_origin(&self, x: i32, y: i32) -> (i64, i64) {
        (
            self.left as i64 + (x - self.x0) as i64 * CELL as i64,
            self.top as i64 + (self.y1 - y) as i64 * CELL as i64,
        )
    }

    pub fn width(&self) -> u32 {
        self.columns * CELL
    }

    pub fn height(&self) -> u32 {
        self.rows * CELL
    }
}

/// The page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    pub boards: Vec<BoardFrame>,
    /// Baselines of the title, of the source under it and of the boards' labels.
    pub title_baseline: u32,
    pub source_baseline: u32,
    pub label_baseline: u32,
    /// Top of the first caption line.
    pub captions_top: u32,
    /// Top of the row of men captured for good.
    pub reserve_top: u32,
}

pub fn layout(scene: &Scene) -> Layout {
    let title = if scene.title.is_some() { LINE } else { 0 };
    let source = if scene.source.is_some() { LINE } else { 0 };
    let labels = if scene.boards.iter().any(|b| b.label.is_some()) {
        LINE
    } else {
        0
    };
    let grid_top = PAD + title + source + labels + MARGIN;
    let mut boards = Vec::new();
    let mut x = PAD;
    for b in &scene.boards {
        let (columns, rows) = b.physical.size();
        let frame = BoardFrame {
            left: x + MARGIN,
            top: grid_top,
            x0: b.physical.x0,
            y1: b.physical.y1,
            columns,
            rows,
        };
        x = frame.left + frame.width() + MARGIN + MARKER_ROOM + GAP;
        boards.push(frame);
    }
    let boards_right = x.saturating_sub(GAP).max(PAD);
    let tallest = boards.iter().map(|f| f.height()).max().unwrap_or(0);
    let captions_top = grid_top + tallest + MARGIN + PAD / 2;
    let reserve_top = captions_top + LINE * scene.captions.len() as u32;
    let reserve = if scene.reserve.is_empty() {
        0
    } else {
        RESERVE_FIGURE + PAD / 2
    };
    let widest_text = scene
        .captions
        .iter()
        .chain(scene.title.as_ref())
        .chain(scene.source.as_ref())
        .map(|c| c.chars().count() as u32 * CHAR_WIDTH)
        .max()
        .unwrap_or(0);
    let reserve_width = scene.reserve.len() as u32 * RESERVE_FIGURE;
    Layout {
        width: boards_right.max(widest_text.max(reserve_width) + PAD) + PAD,
        height: reserve_top + reserve + PAD,
        boards,
        title_baseline: PAD + LINE - 6,
        source_baseline: PAD + title + LINE - 6,
        label_baseline: PAD + title + source + LINE - 6,
        captions_top,
        reserve_top,
    }
}
