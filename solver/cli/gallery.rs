//! `generate --html FILE`: a set of puzzles as one page for an editor to pick from. Each
//! puzzle is its diagram (the SVG `show --svg` draws), its stipulation and id, the
//! qualities the generator proved (themes, score, tries, variations), and its solution
//! behind a click. The page is one self-contained file: no script, no style sheet or
//! font fetched, nothing that links outside it.

use super::input::gather;
use fairysolve::generate::Puzzle;

/// `text` safe inside HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The solution of a puzzle as composers read it: its moves in the game's notation,
/// played from the diagram (numbered from the side that moves first); the coordinates
/// where the line cannot be replayed (the two-board games).
fn solution_text(p: &Puzzle) -> String {
    let coords = p.pv.join(" ");
    let Some(item) = gather(&[], Some(&p.line()), "").into_iter().next() else {
        return coords;
    };
    if !matches!(item.two_board(), Ok(None)) {
        return coords;
    }
    let Ok(problem) = item.problem() else {
        return coords;
    };
    let game = &problem.game;
    // A proof game's solution is played from the array, every other from the diagram.
    let mut pos = if p.stip.aim.is_proof_game() {
        let diagram = fairysolve::proof::Diagram::new(
            problem.position,
            problem.stated,
            game.has_aftershocks(),
        );
        match fairysolve::with_game!(game, g => diagram.start(g)) {
            Ok(start) => start,
            Err(_) => return coords,
        }
    } else {
        problem.position
    };
    let mut out = String::new();
    for (i, mv) in p.pv.iter().enumerate() {
        let Ok(m) = fairysolve::san::parse_move(game, &pos, mv) else {
            return coords;
        };
        let number = pos.fullmoves();
        if i == 0 || pos.turn() == fairysolve::Color::White {
            if i > 0 {
                out.push(' ');
            }
            match pos.turn() {
                fairysolve::Color::White => out.push_str(&format!("{number}.")),
                fairysolve::Color::Black => out.push_str(&format!("{number}...")),
            }
        } else {
            out.push(' ');
        }
        out.push_str(&fairysolve::san::san(game, &pos, m));
        pos = game.play(&pos, m).position;
    }
    out
}

/// The diagram of a puzzle as SVG, or a note where it cannot be drawn.
fn diagram(p: &Puzzle) -> String {
    let Some(item) = gather(&[], Some(&p.line()), "").into_iter().next() else {
        return "<p>(no diagram)</p>".into();
    };
    match super::show::scene(&item) {
        Ok(scene) => fairysolve::svg::render(&scene),
        Err(e) => format!("<p>{}</p>", escape(&e)),
    }
}

/// The page of `puzzles`, titled `title`.
pub fn page(title: &str, puzzles: &[Puzzle]) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(title)));
    out.push_str(
        "<style>\nbody{font-family:sans-serif;margin:1.5em;color:#222}\n\
         .set{display:flex;flex-wrap:wrap;gap:1.5em}\n\
         .puzzle{border:1px solid #bbb;border-radius:6px;padding:0.8em;width:340px}\n\
         .puzzle svg{width:100%;height:auto}\n\
         .stip{font-weight:bold;font-size:1.2em}\n\
         .qualities{color:#555;font-size:0.9em}\n\
         summary{cursor:pointer;color:#036}\n\
         </style>\n</head>\n<body>\n",
    );
    out.push_str(&format!(
        "<h1>{}</h1>\n<p>{} puzzle{}, each proved by fairysolve: one solution, nothing shorter.</p>\n<div class=\"set\">\n",
        escape(title),
        puzzles.len(),
        if puzzles.len() == 1 { "" } else { "s" }
    ));
    for p in puzzles {
        let themes: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
        out.push_str(&format!(
            "<div class=\"puzzle\" id=\"p{}\">\n<div class=\"stip\">{} <span class=\"qualities\">{}</span></div>\n{}\n",
            escape(&p.id()),
            escape(&p.stip.to_string()),
            escape(&p.id()),
            diagram(p)
        ));
        out.push_str(&format!(
            "<p class=\"qualities\">themes: {} · score {:.2} · tries {} · variations {}</p>\n",
            if themes.is_empty() {
                "none".to_string()
            } else {
                escape(&themes.join(", "))
            },
            p.score,
            p.tries.len(),
            p.variations
        ));
        out.push_str(&format!(
            "<details><summary>Solution</summary><p class=\"solution\">{}</p><p class=\"qualities\"><code>{}</code></p></details>\n</div>\n",
            escape(&solution_text(p)),
            escape(&p.line())
        ));
    }
    out.push_str("</div>\n</body>\n</html>\n");
    out
}
