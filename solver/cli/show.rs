//! `fairysolve show`: each position drawn as it lies, with its rules, for a composer to
//! see the board (on a displaced Earthquake board: physically, with square names), and
//! its line written back as read (formats.md 1: every operation kept, the spelling of
//! the FEN fields too). With `--svg` / `--svg-dir` each position becomes an SVG diagram
//! instead (formats.md 5).

use super::input::{command_input, Item, TwoBoard};
use super::VariantFlags;
use clap::Args;
use fairysolve::diagram::diagram;
use fairysolve::epd::write_record;
use fairysolve::svg::Scene;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

#[derive(Args)]
// Without a position to work on the command line is wrong (exit 2, formats.md 2).
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["files", "fen"])))]
pub struct ShowArgs {
    /// Position files (`-` for standard input), read line by line as the work goes;
    /// lines end with LF, CRLF or CR, and one longer than 65536 bytes is reported and
    /// skipped.
    pub files: Vec<String>,
    /// One position (FEN or a whole position line with operations).
    #[arg(long)]
    pub fen: Option<String>,
    /// Write an SVG diagram instead of the text: to standard output when the input
    /// holds one position (with more, give --svg-dir; exit 2 otherwise).
    #[arg(long)]
    pub svg: bool,
    /// Write one SVG diagram per position into DIR (created if missing; implies --svg),
    /// named from the line's id (letters, digits, `.`, `_` and `-` kept, the rest made
    /// `-`), else `line-N.svg`; a name already used gets `-2`, `-3`, ... Each file
    /// written is printed, one path a line.
    #[arg(long, value_name = "DIR")]
    pub svg_dir: Option<PathBuf>,
    #[command(flatten)]
    pub variants: VariantFlags,
}

/// What `show` does with a position that could be read.
enum Shown {
    Text(String),
    Svg(Scene),
}

/// The scene `show --svg` draws of a line (the gallery of `generate --html` too).
pub(crate) fn scene(item: &Item) -> Result<Scene, String> {
    match draw(item, true)? {
        Shown::Svg(scene) => Ok(scene),
        Shown::Text(_) => Err("no diagram".into()),
    }
}

/// A line read and drawn: as text (with its line written back), or as a scene.
fn draw(item: &Item, svg: bool) -> Result<Shown, String> {
    if let Some(two) = item.two_board()? {
        let rec = two.record();
        let stip = match &two {
            TwoBoard::Underworld(p) => p.stipulation,
            TwoBoard::Glass(p) => p.stipulation,
        };
        if svg {
            return Ok(Shown::Svg(
                match &two {
                    TwoBoard::Underworld(p) => Scene::underworld(&p.state, stip),
                    TwoBoard::Glass(p) => Scene::glass(&p.state, stip),
                }
                .headed(rec),
            ));
        }
        let board = match &two {
            TwoBoard::Underworld(p) => super::two_board::draw_underworld(&p.state),
            TwoBoard::Glass(p) => super::two_board::draw_glass(&p.state),
        };
        return Ok(Shown::Text(text(item, rec, &board)));
    }
    // A line that cannot be played is only reported.
    let problem = item.problem()?;
    if svg {
        return Ok(Shown::Svg(Scene::single(&problem)));
    }
    let mut board = diagram(&problem.game, &problem.position);
    // Below the board, what the board does not show: the side to move and the
    // stipulation, the geometry, the ticking men with their moves left, the cash.
    let pos = &problem.position;
    let ticking: Vec<String> = pos
        .timers()
        .ticking()
        .map(|sq| format!("{sq} r={}", pos.timers().left(sq)))
        .collect();
    let ticking = if ticking.is_empty() {
        "; no man ticking".to_string()
    } else {
        format!("; ticking: {}", ticking.join(", "))
    };
    for caption in Scene::single(&problem).captions {
        board.push_str(&caption.replace("; a badge gives a ticking man's moves left", &ticking));
        board.push('\n');
    }
    Ok(Shown::Text(text(item, &problem.record, &board)))
}

/// The text of one position: its source and id, the board, the line written back.
fn text(item: &Item, rec: &fairysolve::epd::Record, board: &str) -> String {
    let id = rec.id().map(|s| format!(" \"{s}\"")).unwrap_or_default();
    format!("{}{id}\n{board}{}\n\n", item.source, write_record(rec))
}

/// Longest file name stem made from an id.
const MAX_STEM: usize = 80;

/// The file name stem of a position: its id made safe for any file system, else
/// `line-N` (N the line number; 1 for `--fen`).
fn stem(item: &Item, id: Option<&str>) -> String {
    let mut out = String::new();
    for c in id.unwrap_or_default().chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out.chars().take(MAX_STEM).collect();
    // No hidden files, no `.` or `..`, no dangling separators.
    let out = out.trim_matches(|c| c == '-' || c == '.');
    if !out.is_empty() {
        return out.to_string();
    }
    let line = item
        .source
        .rsplit_once(':')
        .map_or("1", |(_, n)| n)
        .to_string();
    format!("line-{line}")
}

/// A file name in `used` neither already nor (on a file system that ignores case)
/// up to case: `stem.svg`, else `stem-2.svg`, `stem-3.svg`, ...
fn unique_name(stem: &str, used: &mut HashSet<String>) -> String {
    let mut n = 1;
    loop {
        let name = if n == 1 {
            format!("{stem}.svg")
        } else {
            format!("{stem}-{n}.svg")
        };
        if used.insert(name.to_lowercase()) {
            return name;
        }
        n += 1;
    }
}

pub fn run(args: ShowArgs) -> bool {
    let items = command_input(&args.files, args.fen.as_deref(), &args.variants);
    let svg = args.svg || args.svg_dir.is_some();
    if let Some(dir) = &args.svg_dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("--svg-dir {}: cannot create: {e}", dir.display());
            return false;
        }
    }
    // One SVG document is one picture: several on standard output would make a file no
    // viewer reads. The lines are read as the work goes, so the one document is held
    // back until the input ends: a second position ends the command before anything is
    // written, as a wrong command line does (exit 2, formats.md 2).
    let mut single: Option<String> = None;
    let mut seen = 0usize;
    let mut used = HashSet::new();
    let mut ok = true;
    for item in items {
        seen += 1;
        if svg && args.svg_dir.is_none() && seen > 1 {
            eprintln!(
                "--svg writes one diagram to standard output, and the input holds more than one position ({} is the second): give --svg-dir DIR for one file each",
                item.source
            );
            std::process::exit(2);
        }
        let scene = match draw(&item, svg) {
            Ok(Shown::Text(t)) => {
                print!("{t}");
                continue;
            }
            Ok(Shown::Svg(scene)) => scene,
            Err(e) => {
                eprintln!("{e}");
                ok = false;
                continue;
            }
        };
        let document = fairysolve::svg::render(&scene);
        let Some(dir) = &args.svg_dir else {
            single = Some(document);
            continue;
        };
        let id = item.record.as_ref().ok().and_then(|r| r.id());
        let name = unique_name(&stem(&item, id), &mut used);
        let path = Path::new(dir).join(name);
        match std::fs::write(&path, document) {
            Ok(()) => println!("{}", path.display()),
            Err(e) => {
                eprintln!("{}: {}: cannot write: {e}", item.source, path.display());
                ok = false;
            }
        }
    }
    if let Some(document) = single {
        print!("{document}");
    }
    ok
}
