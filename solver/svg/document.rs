//! Writes a scene as an SVG document at the places `layout` gives: the squares (light or
//! dark by name, so a displaced half keeps its colours, rules.md 3.2), void cells left
//! blank, an outline along every edge of the board and along the seam between the
//! halves, the coordinates, the men, the Trapdoor badges, the side-to-move marker, the
//! labels and captions. Every element a reader may look for carries a class and, where
//! it belongs to a square, `data-square`.

use super::figures::{figure, BLACK_FILL, FIGURE_BOX, OUTLINE, WHITE_FILL};
use super::layout::{layout, BoardFrame, Layout, CELL, MARGIN, PAD};
use super::scene::{BoardScene, Scene};
use crate::types::{file_char, Color, Piece, Square};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The page behind everything; void cells show it.
pub const BACKGROUND: &str = "#ffffff";
/// Squares of h1's colour, and the others.
pub const LIGHT_SQUARE: &str = "#ecd9b4";
pub const DARK_SQUARE: &str = "#b08a62";
/// The board's outline and the seam between the halves.
pub const EDGE: &str = "#3a3a3a";
/// A Trapdoor badge.
pub const BADGE: &str = "#c62828";
/// Radius of a Trapdoor badge; its centre is this far plus 1 from the cell's top and
/// right edges.
pub const BADGE_RADIUS: u32 = 8;

const FONT: &str = "font-family=\"sans-serif\"";

/// Text for an SVG document (or an HTML page, which reads the same escapes): the five
/// characters XML gives a meaning escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 does not allow at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A man's figure as a group placed at pixel (x, y), `size` pixels square.
fn man(
    out: &mut String,
    class: &str,
    piece: Piece,
    square: Option<Square>,
    x: i64,
    y: i64,
    size: u32,
) {
    let data = square
        .map(|s| format!(" data-square=\"{s}\""))
        .unwrap_or_default();
    let scale = size as f64 / FIGURE_BOX as f64;
    let _ = writeln!(
        out,
        "<g class=\"{class} {} {}\"{data} transform=\"translate({x} {y}) scale({scale:.4})\">{}</g>",
        color_name(piece.color),
        piece.role.name(),
        figure(piece)
    );
}

/// The SVG document of a scene.
pub fn render(scene: &Scene) -> String {
    let page = layout(scene);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
        w = page.width,
        h = page.height
    );
    let _ = writeln!(
        out,
        "<rect class=\"page\" width=\"{}\" height=\"{}\" fill=\"{BACKGROUND}\"/>",
        page.width, page.height
    );
    if let Some(title) = &scene.title {
        page_text(
            &mut out,
            "title",
            page.title_baseline,
            "font-size=\"16\" font-weight=\"bold\"",
            title,
        );
    }
    if let Some(source) = &scene.source {
        page_text(
            &mut out,
            "source",
            page.source_baseline,
            "font-size=\"14\" font-style=\"italic\"",
            source,
        );
    }
    for (board, frame) in scene.boards.iter().zip(&page.boards) {
        draw_board(&mut out, board, frame, &page);
    }
    for (i, caption) in scene.captions.iter().enumerate() {
        let baseline = page.captions_top + i as u32 * super::layout::LINE + 17;
        page_text(&mut out, "caption", baseline, "font-size=\"14\"", caption);
    }
    for (i, &piece) in scene.reserve.iter().enumerate() {
        let size = super::layout::RESERVE_FIGURE;
        let x = (PAD + i as u32 * size) as i64;
        man(
            &mut out,
            "reserve",
            piece,
            None,
            x,
            page.reserve_top as i64,
            size,
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A line of text at the page's left edge (the title, the source, a caption), its
/// baseline at `y`, in `style`.
fn page_text(out: &mut String, class: &str, y: u32, style: &str, text: &str) {
    let _ = writeln!(
        out,
        "<text class=\"{class}\" x=\"{PAD}\" y=\"{y}\" {FONT} {style}>{}</text>",
        escape(text)
    );
}

/// Which half of an Earthquake board a square belongs to (ranks 1-4 are displaced).
fn lower_half(sq: Square) -> bool {
    sq.rank() < 4
}

fn draw_board(out: &mut String, board: &BoardScene, frame: &BoardFrame, page: &Layout) {
    let _ = writeln!(
        out,
        "<g class=\"board\"{}>",
        board
            .label
            .as_ref()
            .map(|l| format!(" data-label=\"{}\"", escape(l)))
            .unwrap_or_default()
    );
    if let Some(label) = &board.label {
        let _ = writeln!(
            out,
            "<text class=\"board-label\" x=\"{}\" y=\"{}\" {FONT} font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\">{}</text>",
            frame.left + frame.width() / 2,
            page.label_baseline,
            escape(label)
        );
    }
    let physical = &board.physical;
    let names = physical.is_displaced();
    // Squares.
    for &(sq, (x, y)) in physical.cells() {
        let (px, py) = frame.cell_origin(x, y);
        let (class, fill) = if sq.is_light() {
            ("light", LIGHT_SQUARE)
        } else {
            ("dark", DARK_SQUARE)
        };
        let _ = writeln!(
            out,
            "<rect class=\"square {class}\" data-square=\"{sq}\" x=\"{px}\" y=\"{py}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
        );
    }
    // The outline: every cell edge with a void cell or the page beyond it, and on a
    // displaced board every edge with a square of the other half (the seam).
    let mut path = String::new();
    for &(sq, (x, y)) in physical.cells() {
        let (px, py) = frame.cell_origin(x, y);
        let c = CELL as i64;
        let edges = [
            ((x, y + 1), (px, py, px + c, py)),
            ((x, y - 1), (px, py + c, px + c, py + c)),
            ((x - 1, y), (px, py, px, py + c)),
            ((x + 1, y), (px + c, py, px + c, py + c)),
        ];
        for ((nx, ny), (ax, ay, bx, by)) in edges {
            let outline = match physical.square_at(nx, ny) {
                None => true,
                Some(n) => names && lower_half(n) != lower_half(sq),
            };
            if outline {
                let _ = write!(path, "M{ax} {ay}L{bx} {by}");
            }
        }
    }
    let _ = writeln!(
        out,
        "<path class=\"outline\" d=\"{path}\" fill=\"none\" stroke=\"{EDGE}\" stroke-width=\"2\" stroke-linecap=\"square\"/>"
    );
    draw_coordinates(out, board, frame);
    for &(sq, piece) in &board.men {
        if let Some((x, y)) = physical.cell_of(sq) {
            let (px, py) = frame.cell_origin(x, y);
            man(out, "man", piece, Some(sq), px, py, CELL);
        }
    }
    if names {
        // On a displaced board the edges cannot name every square: each cell says its
        // own name, small, in its upper left corner (a figure is narrow at the top; the
        // upper right holds the Trapdoor badge), over the man with a halo of the
        // square's colour so that it stays readable.
        for &(sq, (x, y)) in physical.cells() {
            let (px, py) = frame.cell_origin(x, y);
            let (ink, halo) = if sq.is_light() {
                (DARK_SQUARE, LIGHT_SQUARE)
            } else {
                (LIGHT_SQUARE, DARK_SQUARE)
            };
            let _ = writeln!(
                out,
                "<text class=\"square-name\" x=\"{}\" y=\"{}\" {FONT} font-size=\"9\" fill=\"{ink}\" stroke=\"{halo}\" stroke-width=\"2.5\" paint-order=\"stroke\">{sq}</text>",
                px + 3,
                py + 10
            );
        }
    }
    for &(sq, r) in &board.timers {
        if let Some((x, y)) = physical.cell_of(sq) {
            let (px, py) = frame.cell_origin(x, y);
            let (cx, cy) = (
                px + (CELL - BADGE_RADIUS - 1) as i64,
                py + (BADGE_RADIUS + 1) as i64,
            );
            let _ = writeln!(
                out,
                "<g class=\"timer\" data-square=\"{sq}\" data-r=\"{r}\"><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{BADGE_RADIUS}\" fill=\"{BADGE}\"/><text x=\"{cx}\" y=\"{}\" {FONT} font-size=\"11\" font-weight=\"bold\" fill=\"{WHITE_FILL}\" text-anchor=\"middle\">{r}</text></g>",
                cy + 4
            );
        }
    }
    if let Some(color) = board.to_move {
        // Beside the mover's own side of the board: the bottom row for White.
        let cx = frame.left + frame.width() + MARGIN + 8;
        let cy = match color {
            Color::White => frame.top + frame.height() - CELL / 2,
            Color::Black => frame.top + CELL / 2,
        };
        let fill = match color {
            Color::White => WHITE_FILL,
            Color::Black => BLACK_FILL,
        };
        let _ = writeln!(
            out,
            "<circle class=\"to-move {}\" cx=\"{cx}\" cy=\"{cy}\" r=\"7\" fill=\"{fill}\" stroke=\"{OUTLINE}\" stroke-width=\"1.5\"/>",
            color_name(color)
        );
    }
    out.push_str("</g>\n");
}

/// Whether some line (column or row) holds two names (files or ranks), given each
/// square's (line, name).
fn holds_two(pairs: impl Iterator<Item = (i32, u8)>) -> bool {
    let pairs: BTreeSet<(i32, u8)> = pairs.collect();
    let lines: BTreeSet<i32> = pairs.iter().map(|p| p.0).collect();
    pairs.len() > lines.len()
}

/// File letters and rank numbers along the edges, each beside its own squares. When a
/// column (row) holds squares of both halves, as on a displaced Earthquake board, each
/// half is labelled on its own side: the lower half's files below it, the upper's above;
/// its ranks on the side it was moved to.
fn draw_coordinates(out: &mut String, board: &BoardScene, frame: &BoardFrame) {
    let physical = &board.physical;
    let cells = physical.cells();
    let columns_shared = holds_two(cells.iter().map(|&(sq, (x, _))| (x, sq.file())));
    let rows_shared = holds_two(cells.iter().map(|&(sq, (_, y))| (y, sq.rank())));
    let (dx, dy) = physical.cell_of(Square::A1).unwrap_or((0, 0));
    let mut files = BTreeSet::new();
    let mut ranks = BTreeSet::new();
    for &(sq, (x, y)) in cells {
        let lower = lower_half(sq);
        // Files below (false) or above (true); ranks left (false) or right (true).
        let above = columns_shared && (lower == (dy >= 4));
        let right = rows_shared && (lower == (dx > 0));
        files.insert((above, x, file_char(sq.file())));
        ranks.insert((right, y, (b'1' + sq.rank()) as char));
    }
    let c = CELL as i64;
    for (above, x, letter) in files {
        let (px, _) = frame.cell_origin(x, frame.y1);
        let y = if above {
            frame.top as i64 - 7
        } else {
            (frame.top + frame.height()) as i64 + 16
        };
        let _ = writeln!(
            out,
            "<text class=\"file\" x=\"{}\" y=\"{y}\" {FONT} font-size=\"13\" text-anchor=\"middle\">{letter}</text>",
            px + c / 2
        );
    }
    for (right, y, digit) in ranks {
        let (_, py) = frame.cell_origin(frame.x0, y);
        let x = if right {
            (frame.left + frame.width()) as i64 + MARGIN as i64 / 2
        } else {
            frame.left as i64 - MARGIN as i64 / 2
        };
        let _ = writeln!(
            out,
            "<text class=\"rank\" x=\"{x}\" y=\"{}\" {FONT} font-size=\"13\" text-anchor=\"middle\">{digit}</text>",
            py + c / 2 + 5
        );
    }
}
