//! `generate --html FILE`: a set of puzzles as one page for an editor to pick from. Each
//! puzzle is its diagram (the SVG `show --svg` draws), its stipulation and id, the
//! qualities the generator proved (themes, score, tries, variations), and its solution
//! behind a click. The page is one self-contained file: no script, no style sheet or
//! font fetched, nothing that links outside it.

use super::input::{gather, Item};
use fairysolve::generate::Puzzle;
use fairysolve::svg::escape;

/// The solution of a puzzle (its line read as `item`) as composers read it: its moves in
/// the game's notation, played from the diagram (a proof game's from the array); the
/// coordinates where the line cannot be replayed (the two-board games).
fn solution_text(p: &Puzzle, item: &Item) -> String {
    let coords = p.pv.join(" ");
    if !matches!(item.two_board(), Ok(None)) {
        return coords;
    }
    let Ok(problem) = item.problem() else {
        return coords;
    };
    let game = &problem.game;
    let start = if p.stip.aim.is_proof_game() {
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
    let mut pos = start;
    let mut moves = Vec::new();
    for mv in &p.pv {
        let Ok(m) = fairysolve::san::parse_move(game, &pos, mv) else {
            return coords;
        };
        moves.push(m);
        pos = game.play(&pos, m).position;
    }
    fairysolve::san::line(game, &start, &moves).0
}

/// The diagram of a puzzle (its line read as `item`) as SVG, or a note where it cannot
/// be drawn.
fn diagram(item: &Item) -> String {
    match super::show::scene(item) {
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
        let line = p.line();
        let Some(item) = gather(&[], Some(&line), "").into_iter().next() else {
            continue;
        };
        let themes: Vec<String> = p.themes.iter().map(|t| t.to_string()).collect();
        out.push_str(&format!(
            "<div class=\"puzzle\" id=\"p{}\">\n<div class=\"stip\">{} <span class=\"qualities\">{}</span></div>\n{}\n",
            escape(&p.id()),
            escape(&p.stip.to_string()),
            escape(&p.id()),
            diagram(&item)
        ));
        out.push_str(&format!(
            "<p class=\"qualities\">themes: {} · score {:.2} · tries {} · variations {}{}</p>\n",
            if themes.is_empty() {
                "none".to_string()
            } else {
                escape(&themes.join(", "))
            },
            p.score,
            p.tries.len(),
            p.variations,
            escape(&qualities_words(&p.qualities))
        ));
        out.push_str(&format!(
            "<details><summary>Solution</summary><p class=\"solution\">{}</p><p class=\"qualities\"><code>{}</code></p></details>\n</div>\n",
            escape(&solution_text(p, &item)),
            escape(&line)
        ));
    }
    out.push_str("</div>\n</body>\n</html>\n");
    out
}

/// The proved qualities that the themes do not already say, in words: threat or
/// zugzwang, the men found superfluous, duals.
fn qualities_words(q: &fairysolve::generate::quality::Qualities) -> String {
    let mut words = Vec::new();
    match q.threat {
        Some(true) => words.push("threat".to_string()),
        Some(false) => words.push("zugzwang".to_string()),
        None => {}
    }
    if let Some(men) = q.superfluous.as_ref().filter(|m| !m.is_empty()) {
        words.push(format!("superfluous: {}", men.join(" ")));
    }
    if !q.no_duals {
        words.push("duals".to_string());
    }
    words.iter().map(|w| format!(" · {w}")).collect()
}
