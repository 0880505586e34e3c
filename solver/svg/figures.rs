//! The six piece figures, drawn by the program itself as SVG paths (no font, no file):
//! plain Staunton-like silhouettes on a 100 x 100 box, standing on a plinth at the
//! bottom. A White man is filled light with a dark outline and dark inner lines, a
//! Black man filled dark with light inner lines, as diagrams in print show them.

use crate::types::{Color, Piece, Role};
use std::fmt::Write as _;

/// The side of the square box every figure is drawn in.
pub const FIGURE_BOX: u32 = 100;

/// Fill of a White man (pure white, apart from every square colour).
pub const WHITE_FILL: &str = "#ffffff";
/// Fill of a Black man.
pub const BLACK_FILL: &str = "#1c1c1c";
/// The outline of every man.
pub const OUTLINE: &str = "#000000";

/// The plinth every figure stands on.
const PLINTH: &str = "M20 90 L80 90 L80 84 Q80 79 75 79 L25 79 Q20 79 20 84 Z";

/// The filled parts of a figure, back to front, and its inner lines.
struct Shape {
    parts: &'static [&'static str],
    /// Circles (cx, cy, r), filled like the parts.
    balls: &'static [(u32, u32, u32)],
    /// Inner lines, drawn in the contrast colour.
    lines: &'static [&'static str],
    /// Dots in the contrast colour (the knight's eye).
    dots: &'static [(u32, u32, u32)],
}

fn shape(role: Role) -> Shape {
    match role {
        Role::Pawn => Shape {
            parts: &[
                // A flared body under a collar and a round head.
                "M30 80 C32 64 42 58 44 47 L56 47 C58 58 68 64 70 80 Z",
                "M37 49 Q35 44 40 42 L60 42 Q65 44 63 49 Z",
                PLINTH,
            ],
            balls: &[(50, 29, 13)],
            lines: &[],
            dots: &[],
        },
        Role::Rook => Shape {
            parts: &[
                // A tapering tower under a battlement of three merlons.
                "M33 80 L36 40 L64 40 L67 80 Z",
                "M27 42 L27 17 L37 17 L37 25 L45 25 L45 17 L55 17 L55 25 L63 25 L63 17 L73 17 L73 42 Z",
                PLINTH,
            ],
            balls: &[],
            lines: &["M36 48 L64 48", "M36 72 L64 72"],
            dots: &[],
        },
        Role::Knight => Shape {
            parts: &[
                // A horse's head looking left: chest, jaw, muzzle, forehead, ear, mane.
                "M33 80 C35 68 43 60 48 53 L40 55 L31 57 Q21 55 24 46 L40 27 L47 20 \
                 L50 9 L58 18 C73 22 81 46 75 80 Z",
                PLINTH,
            ],
            balls: &[],
            lines: &["M60 26 C68 36 70 54 68 74"],
            dots: &[(43, 31, 3)],
        },
        Role::Bishop => Shape {
            parts: &[
                // A mitre with its slit on a slender foot.
                "M36 80 C38 69 42 65 44 59 L56 59 C58 65 62 69 64 80 Z",
                "M38 61 L40 54 L60 54 L62 61 Z",
                "M50 15 C33 28 31 44 40 54 L60 54 C69 44 67 28 50 15 Z",
                PLINTH,
            ],
            balls: &[(50, 11, 5)],
            lines: &["M55 29 L46 41"],
            dots: &[],
        },
        Role::Queen => Shape {
            parts: &[
                // A crown of five points, each with a ball.
                "M28 80 L20 34 L35 55 L36 26 L46 53 L50 21 L54 53 L64 26 L65 55 L80 34 L72 80 Z",
                PLINTH,
            ],
            balls: &[
                (20, 30, 5),
                (36, 22, 5),
                (50, 17, 5),
                (64, 22, 5),
                (80, 30, 5),
            ],
            lines: &["M29 70 L71 70"],
            dots: &[],
        },
        Role::King => Shape {
            parts: &[
                // A broad crown under a knob and a cross.
                "M30 80 C24 62 28 47 39 43 L61 43 C72 47 76 62 70 80 Z",
                "M41 44 Q50 30 59 44 Z",
                "M46 8 L54 8 L54 16 L62 16 L62 24 L54 24 L54 35 L46 35 L46 24 L38 24 L38 16 \
                 L46 16 Z",
                PLINTH,
            ],
            balls: &[],
            lines: &["M31 70 L69 70", "M36 55 Q50 49 64 55"],
            dots: &[],
        },
    }
}

/// The SVG elements of `piece`'s figure in the `FIGURE_BOX` box (no transform): to be
/// placed inside a group that scales and moves it.
pub fn figure(piece: Piece) -> String {
    let (fill, contrast) = match piece.color {
        Color::White => (WHITE_FILL, OUTLINE),
        Color::Black => (BLACK_FILL, WHITE_FILL),
    };
    let s = shape(piece.role);
    // The shapes leave room around them in their box; enlarged a tenth (about the box's
    // centre, a little lower) they fill a cell as the men of printed diagrams do.
    let mut out = String::from("<g transform=\"translate(-5 -6) scale(1.1)\">");
    let _ = write!(
        out,
        "<g fill=\"{fill}\" stroke=\"{OUTLINE}\" stroke-width=\"3\" stroke-linejoin=\"round\">"
    );
    for d in s.parts {
        let _ = write!(out, "<path d=\"{d}\"/>");
    }
    for (cx, cy, r) in s.balls {
        let _ = write!(out, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\"/>");
    }
    out.push_str("</g>");
    if !s.lines.is_empty() {
        let _ = write!(
            out,
            "<g fill=\"none\" stroke=\"{contrast}\" stroke-width=\"2.5\" stroke-linecap=\"round\">"
        );
        for d in s.lines {
            let _ = write!(out, "<path d=\"{d}\"/>");
        }
        out.push_str("</g>");
    }
    for (cx, cy, r) in s.dots {
        let _ = write!(
            out,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{contrast}\"/>"
        );
    }
    out.push_str("</g>");
    out
}

/// A standalone SVG document of one figure, `size` pixels square, on a transparent
/// ground: a reference picture of each man.
pub fn figure_document(piece: Piece, size: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" \
         viewBox=\"0 0 {FIGURE_BOX} {FIGURE_BOX}\">{}</svg>\n",
        figure(piece)
    )
}
