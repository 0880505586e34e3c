//! `fairysolve show --svg` and `--svg-dir` (formats.md 5): every bundled example and the
//! variant suites drawn by the binary, rendered to pictures with resvg, and read back
//! square by square: each cell's colour where rules.md 3.1 puts it (light, dark, or the
//! blank page on a void cell), each man's figure and colour, each Trapdoor badge, the
//! side-to-move marker. Besides the pictures, the SVG text itself: one figure per man,
//! the labels and captions, byte-identical output; and the command's files and errors.
//!
//! Set FAIRYSOLVE_SVG_PNG to a folder to keep the pictures the tests look at.

mod common;

use common::{run, text};
use fairysolve::epd::{self, Record};
use fairysolve::svg::document::{BACKGROUND, BADGE, BADGE_RADIUS, DARK_SQUARE, LIGHT_SQUARE};
use fairysolve::svg::figures::figure_document;
use fairysolve::svg::layout::CELL;
use fairysolve::svg::{layout, render, Scene};
use fairysolve::types::{Color, Piece, Role, Square};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fairysolve-svg-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn records(file: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(file).unwrap();
    epd::parse_text(&text)
        .into_iter()
        .map(|r| r.expect("every bundled line reads"))
        .collect()
}

/// The scene of a line, read as `show` reads it.
fn scene_of(rec: &Record) -> Scene {
    if fairysolve::underworld::setup::is_underworld(rec) {
        let p = fairysolve::underworld::setup::read(rec.clone()).unwrap();
        Scene::underworld(&p.state, p.stipulation).headed(rec)
    } else if fairysolve::glass::setup::is_glass(rec) {
        let p = fairysolve::glass::setup::read(rec.clone()).unwrap();
        Scene::glass(&p.state, p.stipulation).headed(rec)
    } else {
        Scene::single(&fairysolve::problem::from_record(rec.clone()).unwrap())
    }
}

fn picture(svg: &str) -> Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    pixmap
}

fn keep(name: &str, pixmap: &Pixmap) {
    if let Ok(dir) = std::env::var("FAIRYSOLVE_SVG_PNG") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = pixmap.save_png(Path::new(&dir).join(format!("{name}.png")));
    }
}

fn rgb(pixmap: &Pixmap, x: i64, y: i64) -> (u8, u8, u8) {
    let p = pixmap
        .pixel(x as u32, y as u32)
        .expect("inside the picture")
        .demultiply();
    (p.red(), p.green(), p.blue())
}

fn hex(colour: &str) -> (u8, u8, u8) {
    let v = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap();
    ((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

/// What a pixel of a man's figure is: its light fill, its dark fill or outline, or
/// neither (the square, an edge blended with it).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Ink {
    Light,
    Dark,
    None,
}

fn ink((r, g, b): (u8, u8, u8), alpha: u8) -> Ink {
    if alpha < 255 {
        Ink::None
    } else if r >= 245 && g >= 245 && b >= 245 {
        Ink::Light
    } else if r <= 60 && g <= 60 && b <= 60 {
        Ink::Dark
    } else {
        Ink::None
    }
}

/// Whether pixel (i, j) of a cell is left out of a figure's ink: the Trapdoor badge's
/// corner (top right), and the two pixels along the edges where the board's outline
/// may run (no figure reaches them).
fn left_out(i: u32, j: u32) -> bool {
    let badge = i >= CELL - 2 * BADGE_RADIUS - 3 && j <= 2 * BADGE_RADIUS + 3;
    let edge = i < 2 || j < 2 || i >= CELL - 2 || j >= CELL - 2;
    badge || edge
}

/// The ink of every pixel of a cell-sized picture, `left_out` pixels left out.
fn inks(at: impl Fn(u32, u32) -> Ink) -> Vec<Ink> {
    let mut out = Vec::new();
    for j in 0..CELL {
        for i in 0..CELL {
            out.push(if left_out(i, j) { Ink::None } else { at(i, j) });
        }
    }
    out
}

/// The twelve figures drawn alone, as inks: what each man must look like in a cell.
fn references() -> Vec<(Piece, Vec<Ink>)> {
    let mut out = Vec::new();
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece::new(color, role);
            let pm = picture(&figure_document(piece, CELL));
            let v = inks(|i, j| {
                let p = pm.pixel(i, j).unwrap().demultiply();
                ink((p.red(), p.green(), p.blue()), p.alpha())
            });
            out.push((piece, v));
        }
    }
    out
}

/// How alike two ink maps are: pixels inked alike over pixels inked in either.
fn likeness(a: &[Ink], b: &[Ink]) -> f64 {
    let (mut same, mut any) = (0, 0);
    for (x, y) in a.iter().zip(b) {
        if *x != Ink::None || *y != Ink::None {
            any += 1;
            if x == y {
                same += 1;
            }
        }
    }
    if any == 0 {
        1.0
    } else {
        same as f64 / any as f64
    }
}

/// The squares of a single-board line at their cells, worked out here from rules.md
/// 3.1 and 3.3 (not from the library's placement): (f, r) for ranks 5-8, (f + dx,
/// r + dy) for ranks 1-4, which lie on top where the halves overlap.
fn expected_cells(rec: &Record) -> BTreeMap<(i32, i32), Square> {
    let (dx, dy) = rec
        .get("earthquake")
        .and_then(|o| o.single())
        .map(|s| {
            let v: Vec<i32> = s.split_whitespace().map(|n| n.parse().unwrap()).collect();
            (v[0], v[1])
        })
        .unwrap_or((0, 0));
    let mut at = BTreeMap::new();
    for sq in Square::all().filter(|s| s.rank() >= 4) {
        at.insert((sq.file() as i32, sq.rank() as i32), sq);
    }
    for sq in Square::all().filter(|s| s.rank() < 4) {
        at.insert((sq.file() as i32 + dx, sq.rank() as i32 + dy), sq);
    }
    at
}

/// The men of a placement field, by square (a FEN's first field).
fn placement(field: &str) -> BTreeMap<Square, Piece> {
    let mut men = BTreeMap::new();
    for (row, text) in field.split('/').enumerate() {
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as u8;
            } else {
                let piece = Piece::from_char(c).unwrap();
                men.insert(Square::from_coords(file, 7 - row as u8), piece);
                file += 1;
            }
        }
    }
    men
}

/// What each board of a line holds, read here from the line itself: (label, men).
fn expected_boards(rec: &Record) -> Vec<(Option<&'static str>, BTreeMap<Square, Piece>)> {
    let main = placement(rec.fen_text.split(' ').next().unwrap());
    let other = |op: &str| placement(rec.get(op).unwrap().single().unwrap());
    if rec.get("underworld").is_some() {
        vec![
            (Some("World"), main),
            (Some("Underworld"), other("underworld")),
        ]
    } else if rec.get("mirror").is_some() {
        vec![(Some("Real"), main), (Some("Mirror"), other("mirror"))]
    } else {
        vec![(None, main)]
    }
}

/// The Trapdoor timers of a line: `timers "e4:1 d5:2"`.
fn expected_timers(rec: &Record) -> BTreeMap<Square, u8> {
    rec.get("timers")
        .and_then(|o| o.single())
        .map(|s| {
            s.split_whitespace()
                .map(|t| {
                    let (sq, r) = t.split_once(':').unwrap();
                    (Square::parse(sq).unwrap(), r.parse().unwrap())
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Checks the picture of one line square by square; `name` says which in messages.
fn check_picture(name: &str, rec: &Record, svg: &str, refs: &[(Piece, Vec<Ink>)]) {
    let scene = scene_of(rec);
    let page = layout(&scene);
    let pm = picture(svg);
    keep(name, &pm);
    assert_eq!(
        (pm.width(), pm.height()),
        (page.width, page.height),
        "{name}"
    );
    let boards = expected_boards(rec);
    assert_eq!(scene.boards.len(), boards.len(), "{name}");
    let timers = expected_timers(rec);
    let single = boards.len() == 1;
    for ((board, frame), (label, men)) in scene.boards.iter().zip(&page.boards).zip(&boards) {
        assert_eq!(board.label.as_deref(), *label, "{name}");
        // The geometry: the library's placement is the rule's.
        let cells = if single {
            expected_cells(rec)
        } else {
            expected_cells(&epd::parse_text("8/8/8/8/8/8/8/8 w - -").remove(0).unwrap())
        };
        let placed: BTreeMap<(i32, i32), Square> = board
            .physical
            .cells()
            .iter()
            .map(|&(sq, c)| (c, sq))
            .collect();
        assert_eq!(placed, cells, "{name}: squares at their physical cells");
        let (x0, x1) = (board.physical.x0, board.physical.x1);
        let (y0, y1) = (board.physical.y0, board.physical.y1);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (px, py) = frame.cell_origin(x, y);
                // The square's colour away from the outline, the badge and the name.
                let corner = rgb(&pm, px + 5, py + 5);
                let square = cells.get(&(x, y));
                let want = match square {
                    None => hex(BACKGROUND),
                    Some(sq) if sq.is_light() => hex(LIGHT_SQUARE),
                    Some(_) => hex(DARK_SQUARE),
                };
                assert_eq!(corner, want, "{name}: cell ({x},{y}) {square:?}");
                let Some(&sq) = square else { continue };
                let cell = inks(|i, j| {
                    let (r, g, b) = rgb(&pm, px + i as i64, py + j as i64);
                    ink((r, g, b), 255)
                });
                let light = cell.iter().filter(|&&k| k == Ink::Light).count();
                let dark = cell.iter().filter(|&&k| k == Ink::Dark).count();
                match men.get(&sq) {
                    None => assert_eq!((light, dark), (0, 0), "{name}: {sq} is empty"),
                    Some(&piece) => {
                        match piece.color {
                            Color::White => assert!(
                                light >= 150 && dark >= 60,
                                "{name}: {sq} a White man, light fill in a dark outline ({light} light, {dark} dark)"
                            ),
                            Color::Black => assert!(
                                dark >= 150 && dark >= 3 * light,
                                "{name}: {sq} a Black man, mostly dark ({light} light, {dark} dark)"
                            ),
                        }
                        // The figure is the man's: of the twelve drawn alone, it is
                        // the most alike, and clearly so.
                        let mut scores: Vec<(f64, Piece)> =
                            refs.iter().map(|(p, r)| (likeness(&cell, r), *p)).collect();
                        scores.sort_by(|a, b| b.0.total_cmp(&a.0));
                        let ((score, best), (next, _)) = (scores[0], scores[1]);
                        assert_eq!(
                            best,
                            piece,
                            "{name}: {sq} looks most like a {:?} {} ({score:.2})",
                            best.color,
                            best.role.name()
                        );
                        assert!(
                            score > 0.8 && score - next > 0.1,
                            "{name}: {sq} figure likeness {score:.2}, next {next:.2}"
                        );
                    }
                }
                // A Trapdoor badge exactly on the ticking men (its number is text,
                // which this renderer, built without fonts, leaves out).
                let (cx, cy) = (
                    px + (CELL - BADGE_RADIUS - 1) as i64,
                    py + (BADGE_RADIUS + 1) as i64,
                );
                let badge = rgb(&pm, cx - 5, cy) == hex(BADGE);
                assert_eq!(
                    badge,
                    single && timers.contains_key(&sq),
                    "{name}: badge on {sq}"
                );
            }
        }
        // The side to move: a marker right of the board beside the mover's side.
        if let Some(color) = board.to_move {
            let cx = (frame.left + frame.width() + fairysolve::svg::layout::MARGIN + 8) as i64;
            let cy = match color {
                Color::White => (frame.top + frame.height() - CELL / 2) as i64,
                Color::Black => (frame.top + CELL / 2) as i64,
            };
            let fill = rgb(&pm, cx, cy);
            let want = match color {
                Color::White => (255, 255, 255),
                Color::Black => hex(fairysolve::svg::figures::BLACK_FILL),
            };
            assert_eq!(fill, want, "{name}: side-to-move marker");
        }
    }
    // The men captured for good, in a row under the captions: on the white page a
    // figure shows by its dark pixels (outline, or a Black man's fill), and those are
    // most like the same man's drawn alone.
    let size = fairysolve::svg::layout::RESERVE_FIGURE;
    let dark_set = |at: &dyn Fn(u32, u32) -> Ink| -> Vec<bool> {
        (0..size * size)
            .map(|k| at(k % size, k / size) == Ink::Dark)
            .collect()
    };
    let alone: Vec<(Piece, Vec<bool>)> = Color::ALL
        .into_iter()
        .flat_map(|c| Role::ALL.map(|r| Piece::new(c, r)))
        .map(|piece| {
            let pm = picture(&figure_document(piece, size));
            let set = dark_set(&|i, j| {
                // Over the white page (the picture's colours are premultiplied).
                let p = pm.pixel(i, j).unwrap();
                let white = |c: u8| c.saturating_add(255 - p.alpha());
                ink((white(p.red()), white(p.green()), white(p.blue())), 255)
            });
            (piece, set)
        })
        .collect();
    for (k, &piece) in scene.reserve.iter().enumerate() {
        let (left, top) = (
            (fairysolve::svg::layout::PAD + k as u32 * size) as i64,
            page.reserve_top as i64,
        );
        let drawn = dark_set(&|i, j| ink(rgb(&pm, left + i as i64, top + j as i64), 255));
        let iou = |a: &[bool], b: &[bool]| {
            let both = a.iter().zip(b).filter(|(x, y)| **x && **y).count();
            let either = a.iter().zip(b).filter(|(x, y)| **x || **y).count();
            both as f64 / either.max(1) as f64
        };
        let (best, score) = alone
            .iter()
            .map(|(p, set)| (*p, iou(&drawn, set)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        assert_eq!(best, piece, "{name}: reserve figure {k}");
        assert!(
            score > 0.7,
            "{name}: reserve figure {k} likeness {score:.2}"
        );
    }
}

/// Checks the SVG text of one line: one figure per man, one square per existing
/// square, one badge per timer with its r, the labels, the captions.
fn check_text(name: &str, rec: &Record, svg: &str) {
    let boards = expected_boards(rec);
    let men: usize = boards.iter().map(|(_, m)| m.len()).sum();
    assert_eq!(svg.matches("class=\"man ").count(), men, "{name}: figures");
    // The men counted as composers print them, White's and Black's over all boards.
    let count = |c: Color| -> usize {
        boards
            .iter()
            .map(|(_, m)| m.values().filter(|p| p.color == c).count())
            .sum()
    };
    let tally = format!("({}+{})", count(Color::White), count(Color::Black));
    assert!(svg.contains(&tally), "{name}: piece count {tally}");
    // One side-to-move mark, whatever the boards.
    assert_eq!(
        svg.matches("class=\"to-move ").count(),
        1,
        "{name}: one mark"
    );
    for (label, board) in &boards {
        for (sq, piece) in board {
            let tag = format!(
                "class=\"man {} {}\" data-square=\"{sq}\"",
                piece.color.name().to_lowercase(),
                piece.role.name()
            );
            assert!(svg.contains(&tag), "{name}: {tag}");
        }
        if let Some(label) = label {
            assert!(
                svg.contains(&format!("data-label=\"{label}\"")),
                "{name}: {label}"
            );
            assert!(
                svg.contains(&format!(">{label}</text>")),
                "{name}: {label} written"
            );
        }
    }
    let squares = if boards.len() == 1 {
        expected_cells(rec).len()
    } else {
        128
    };
    assert_eq!(
        svg.matches("class=\"square ").count(),
        squares,
        "{name}: squares"
    );
    let timers = expected_timers(rec);
    assert_eq!(
        svg.matches("class=\"timer\"").count(),
        timers.len(),
        "{name}"
    );
    for (sq, r) in &timers {
        let badge = format!("data-square=\"{sq}\" data-r=\"{r}\"");
        assert!(svg.contains(&badge), "{name}: {badge}");
        assert!(
            svg.contains(&format!(">{r}</text></g>")),
            "{name}: r written"
        );
    }
    if let Some(cash) = rec.get("taxi").and_then(|o| o.single()) {
        let (w, b) = cash.split_once(' ').unwrap();
        let income = rec
            .get("taxi_income")
            .and_then(|o| o.single())
            .unwrap_or("2");
        let caption = format!("Taxi cash: White {w}, Black {b}, income {income}");
        assert!(svg.contains(&caption), "{name}: {caption}");
    }
    if let Some(id) = rec.id() {
        assert!(svg.contains("class=\"title\""), "{name}: title");
        let shown: String = id.chars().take(20).collect();
        let escaped = shown
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(svg.contains(&escaped), "{name}: id in the title");
    }
    if let Some(c0) = rec.get("c0").and_then(|o| o.single()) {
        let shown: String = c0.chars().take(20).collect();
        let escaped = shown
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(
            svg.contains("class=\"source\"") && svg.contains(&escaped),
            "{name}: author and source under the title"
        );
    }
    if let Some(reserve) = rec.get("reserve").and_then(|o| o.single()) {
        assert_eq!(
            svg.matches("class=\"reserve ").count(),
            reserve.len(),
            "{name}"
        );
    }
}

/// Draws every line of `file` with the binary into a folder, then checks each file.
fn check_file(file: &str) {
    let refs = references();
    let recs = records(file);
    let dir = scratch(&file.replace('/', "-"));
    let out = run(&["show", "--svg-dir", dir.to_str().unwrap(), file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(written.len(), recs.len(), "one file per position");
    for (rec, path) in recs.iter().zip(&written) {
        let svg = std::fs::read_to_string(path).unwrap();
        // The command writes what the library draws, the same bytes each time.
        assert_eq!(svg, render(&scene_of(rec)), "{path}");
        let name = Path::new(path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        check_text(&name, rec, &svg);
        check_picture(&name, rec, &svg, &refs);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn demo_examples_drawn_square_by_square() {
    check_file("positions/examples/demo.epd");
}

#[test]
fn earthquake_boards_drawn_physically() {
    check_file("positions/earthquake/problems.epd");
}

#[test]
fn trapdoor_timers_drawn_as_badges() {
    check_file("positions/trapdoor/problems.epd");
}

#[test]
fn taxi_cash_in_the_caption() {
    check_file("positions/taxi/problems.epd");
}

#[test]
fn underworld_boards_side_by_side() {
    check_file("positions/underworld/problems.epd");
}

#[test]
fn looking_glass_boards_side_by_side() {
    check_file("positions/glass/problems.epd");
}

/// Boards the bundled files do not have: a void row, halves side by side, an overlap
/// that hides half a rank, a displacement to the left, each with men on both halves.
#[test]
fn displaced_boards_of_every_kind() {
    let refs = references();
    let lines = [
        ("all-men", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start & <all> men\";"),
        ("void-row", "r3k3/8/8/8/8/8/8/R3K3 w - - earthquake \"0 -1\"; id \"void row\";"),
        ("beside", "4k3/8/1q6/8/6N1/8/8/4K3 b - - earthquake \"8 4\";"),
        ("overlap", "4k3/8/8/8/2B5/8/8/4K3 w - - earthquake \"3 2\";"),
        ("left", "4k3/8/8/p7/7P/8/8/4K3 w - - earthquake \"-5 -2\"; trapdoor 2; timers \"h4:2 a5:1\";"),
        (
            "reserve",
            "7k/5Kp1/8/8/8/8/8/8 b - - underworld \"8/8/7k/8/7R/8/8/4K3\"; phase BU; reserve \"QRpnB\";",
        ),
        ("taxi-quake", "4k3/8/8/8/8/8/8/R3K3 w - - earthquake \"1 0\"; taxi \"3 0\"; taxi_income 1;"),
    ];
    for (name, line) in lines {
        let rec = epd::parse_text(line).remove(0).unwrap();
        let svg = render(&scene_of(&rec));
        check_text(name, &rec, &svg);
        check_picture(name, &rec, &svg, &refs);
    }
}

#[test]
fn the_same_line_gives_the_same_bytes() {
    for rec in records("positions/examples/demo.epd") {
        assert_eq!(render(&scene_of(&rec)), render(&scene_of(&rec)));
    }
}

#[test]
fn one_position_to_standard_output() {
    let out = run(&[
        "show",
        "--svg",
        "--fen",
        "k7/7p/1K6/8/5B2/8/P7/8 w - - trapdoor 1; timers \"a8:1\"; id \"box\";",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    assert!(svg.starts_with("<svg "));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("class=\"man ").count(), 5);
    assert!(svg.contains("class=\"to-move white\""));
    // Several positions need a folder.
    let out = run(&["show", "--svg", "positions/examples/demo.epd"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--svg-dir"));
    assert!(out.stdout.is_empty());
}

#[test]
fn file_names_from_ids_and_line_numbers() {
    let dir = scratch("names");
    let input = "\
4k3/8/8/8/8/8/8/4K3 w - - id \"a/b: c\";
4k3/8/8/8/8/8/8/4K3 w - - id \"a/b: c\";
4k3/8/8/8/8/8/8/4K3 w - - id \"a-b-c\";
4k3/8/8/8/8/8/8/4K3 w - -
4k3/8/8/8/8/8/8/4K3 w - - id \"..\";
4k3/8/8/8/8/8/8/4KK2 w - - id \"bad\";
4k3/8/8/8/8/8/8/4K3 w - - id \"after the bad one\";
";
    let file = dir.join("in.epd");
    std::fs::write(&file, input).unwrap();
    let out_dir = dir.join("out");
    let out = run(&[
        "show",
        "--svg-dir",
        out_dir.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    // The bad line is reported with its place and stops nothing else.
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("in.epd: line 6"), "{err}");
    let names: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| {
            Path::new(l)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "a-b-c.svg",
            "a-b-c-2.svg",
            "a-b-c-3.svg",
            "line-4.svg",
            "line-5.svg",
            "after-the-bad-one.svg"
        ]
    );
    for name in &names {
        let svg = std::fs::read_to_string(out_dir.join(name)).unwrap();
        assert_eq!(svg.matches("class=\"man ").count(), 2, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_show_is_unchanged_without_svg() {
    let out = run(&["show", "positions/examples/demo.epd"]);
    assert!(out.status.success());
    let t = text(&out.stdout);
    assert!(t.contains("na8 .b8 .c8 .d8 .e8 Bf8 .g8 nh8"));
    assert!(t.contains("World                      Underworld"));
    assert!(!t.contains("<svg"));
}

#[test]
fn stdin_and_piped_input_work_with_svg() {
    let out = common::run_with_stdin(
        &["show", "--svg", "-"],
        "8/8/8/8/8/8/8/4K2k w - - mirror \"8/8/8/8/8/8/8/8\";\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    assert!(svg.contains("data-label=\"Real\"") && svg.contains("data-label=\"Mirror\""));
    assert_eq!(svg.matches("class=\"to-move white\"").count(), 1);
}
