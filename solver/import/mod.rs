//! Popeye input files turned into position lines (formats.md 5): one line per problem
//! and twin, each read back by the same reader `solve` uses, so that every line written
//! can be solved.
//!
//! How Popeye's statements become a line:
//! - `id`: the title (all `Title` lines joined), else the file's name and the problem's
//!   number (`example 2`); a twin adds its Popeye label (`example 2 b)`).
//! - `c0`: the authors, the origins and the award, each group joined with `, ` and the
//!   groups with `; `.
//! - `stip`: `#N`, `h#N`, `h#N.5` or `s#N`. The side to move is the side that moves
//!   first (rules.md 8): White for `#N`, `s#N` and `h#N.5`, Black for `h#N`.
//!   `Option WhiteToPlay` turns Popeye's `h#N` into `h#(N-1).5`: Popeye shortens the
//!   help play by one half-move and lets White begin, which is exactly our `h#(N-1).5`
//!   (so `h#1` becomes `h#0.5`, a mate in one White move). For other stipulations
//!   Popeye ignores the option, and so does the import.
//! - Castling: Popeye states no rights; a king and rook on their game-array squares may
//!   castle unless `Option NoCastling` names either square. The rights of each twin are
//!   those of its own men.
//! - `Option EnPassant` gives the double step just played (departure, crossed square,
//!   arrival, e.g. `e7e6e5`); the crossed square becomes the en passant square. The step
//!   must be the last move of the side that does not move first.
//! - `Option Duplex` writes each twin twice: as stated, and with the colours' roles
//!   exchanged (`id` ends with ` duplex`); `HalfDuplex` writes only the latter. Our
//!   stipulations name the roles by colour, so the exchange is written as the colours
//!   exchanged and the board mirrored a1<-->a8 (said in `c1`): the moves of the
//!   solution are then named on the mirrored board.
//! - Options that change no solution but only what Popeye shows (`SetPlay`, `Try`,
//!   `Defence N`, `Variations`, `MaxSolutions N`, ...) are kept in `c1` as written for
//!   Popeye (`c1 "Option SetPlay Try"`); those `solve` can show are asked for by the
//!   line's `options` (`options "tries set-play";`), so that solving the line shows them. Options that narrow which plays count as
//!   solutions (`Threat N`, `MaxFlightsquares N`, `NonTrivial M N`, `KeepMatingPiece`)
//!   are refused by name: solved without them the line would be another problem.
//!
//! A problem with anything fairysolve does not play, a fault of the input, or a diagram
//! the solver refuses (rules.md 7.2: a king missing, the side not to move in check)
//! gets located messages and no line; the other problems are still imported.

pub mod diagram;
pub mod popeye;
pub mod token;

use crate::epd::{self, LineError, Operand, Operation};
use crate::fen;
use crate::problem::{self, Aim, Stipulation};
use crate::types::{Color, Piece, Role, Square};
use diagram::{Diagram, Transform};
use popeye::{Duplex, Item, Loc, PopeyeProblem, Twinning};

/// A problem of the file, imported or refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedProblem {
    /// 1-based number of the problem in its file.
    pub number: usize,
    /// Where it begins (its `BeginProblem` or the `NextProblem` before it).
    pub at: Loc,
    /// Its position lines, one per twin imported (two with `Duplex`).
    pub lines: Vec<String>,
    /// Why the problem, or each twin of it left out, was not imported: a fault of the
    /// problem refuses it whole, a fault of one twin that twin (and the twins that
    /// continue it).
    pub errors: Vec<LineError>,
}

/// What a file gave, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Imported {
    Problem(ImportedProblem),
    /// A fault outside any problem (text before `BeginProblem`, no problem at all).
    Error(LineError),
}

/// Imports every problem of a Popeye input's text; `name` names the file in the ids of
/// problems without a title.
pub fn import(text: &str, name: &str) -> Vec<Imported> {
    popeye::read(text)
        .into_iter()
        .map(|item| match item {
            Item::Problem(p) => {
                let (lines, errors) = lines(&p, name);
                Imported::Problem(ImportedProblem {
                    number: p.number,
                    at: p.at.unwrap_or(Loc { line: 1, column: 1 }),
                    lines,
                    errors,
                })
            }
            Item::Error(e) => Imported::Error(e),
        })
        .collect()
}

/// A twin as it stands: its men and its stipulation.
#[derive(Clone, Debug)]
struct Stage {
    diagram: Diagram,
    stipulation: Stipulation,
}

/// Popeye's twin labels: a) to z), then z1), z2), ...
fn twin_label(index: usize) -> String {
    if index < 26 {
        format!("{})", (b'a' + index as u8) as char)
    } else {
        format!("z{})", index - 25)
    }
}

/// The position lines of one problem, and why what was left out was.
fn lines(p: &PopeyeProblem, name: &str) -> (Vec<String>, Vec<LineError>) {
    if !p.errors.is_empty() {
        return (Vec::new(), p.errors.clone());
    }
    let begin = p.at.unwrap_or(Loc { line: 1, column: 1 });
    let Some((stipulation, _)) = p.stipulation else {
        return (Vec::new(), vec![begin.error("no Stipulation")]);
    };
    let original = Stage {
        diagram: p.diagram.clone(),
        stipulation,
    };
    // Each twin with its label and where it is stated.
    let mut stages: Vec<(Option<String>, Stage, Loc)> = Vec::new();
    let mut errors = Vec::new();
    if p.twins.is_empty() {
        stages.push((None, original.clone(), begin));
    } else {
        if !p.zero_position {
            stages.push((Some(twin_label(0)), original.clone(), begin));
        }
        // The twin before, unless it was refused.
        let mut previous = Some(original.clone());
        for (i, twin) in p.twins.iter().enumerate() {
            // Without ZeroPosition the diagram itself is twin a).
            let label = twin_label(i + usize::from(!p.zero_position));
            let base = if twin.continued {
                previous.clone()
            } else {
                Some(original.clone())
            };
            let Some(mut stage) = base else {
                errors.push(twin.at.error(format!(
                    "twin {label} continues the twin before, which is not imported"
                )));
                continue;
            };
            if !twin.errors.is_empty() {
                // The twin is reported; its siblings are still imported.
                errors.extend(twin.errors.iter().cloned());
                previous = None;
                continue;
            }
            match twin
                .changes
                .iter()
                .try_for_each(|(change, at)| apply(&mut stage, change, *at))
            {
                Ok(()) => {
                    stages.push((Some(label), stage.clone(), twin.at));
                    previous = Some(stage);
                }
                Err(e) => {
                    errors.push(e);
                    previous = None;
                }
            }
        }
    }
    let en_passant = match &p.options.en_passant {
        None => None,
        Some((squares, at)) => match double_step(squares) {
            Some(step) => Some((step, *at)),
            None => {
                errors.push(at.error(
                    "EnPassant: a pawn's double step is expected (departure, crossed square, arrival, e.g. e7e6e5)",
                ));
                None
            }
        },
    };

    let title = p.titles.join(" ");
    let base_id = if title.is_empty() {
        format!("{name} {}", p.number)
    } else {
        title
    };
    let groups = [
        p.authors.join(", "),
        p.origins.join(", "),
        p.award.clone().unwrap_or_default(),
    ];
    let source: Vec<&str> = groups
        .iter()
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .collect();
    let exchanges: &[bool] = match p.options.duplex {
        Duplex::No => &[false],
        Duplex::Both => &[false, true],
        Duplex::Half => &[true],
    };

    let mut out = Vec::new();
    for (label, stage, at) in &stages {
        for &exchanged in exchanges {
            let mut stipulation = stage.stipulation;
            if p.options.white_to_play && stipulation.aim == Aim::Help && !stipulation.half {
                stipulation = Stipulation {
                    aim: Aim::Help,
                    moves: stipulation.moves - 1,
                    half: true,
                };
            }
            let first = match stipulation.aim {
                Aim::Help if !stipulation.half => Color::Black,
                _ => Color::White,
            };
            let mut diagram = stage.diagram.clone();
            let mut no_castling = p.options.no_castling.clone();
            let mut step = en_passant.map(|(s, _)| s);
            if exchanged {
                let mirror = |sq: Square| Transform::MirrorA1A8.apply(sq);
                diagram = diagram
                    .transformed(Transform::MirrorA1A8)
                    .colours_exchanged();
                no_castling = no_castling.into_iter().map(mirror).collect();
                step = step.map(|s| DoubleStep {
                    color: !s.color,
                    from: mirror(s.from),
                    crossed: mirror(s.crossed),
                    to: mirror(s.to),
                });
            }
            let mut ep = None;
            if let (Some(s), Some((_, ep_at))) = (step, en_passant) {
                if s.color == first {
                    // Popeye uses the double step only when the other side made it; with
                    // Duplex it is for the other line.
                    if p.options.duplex != Duplex::Both {
                        errors.push(ep_at.error(format!(
                            "EnPassant: the double step is {}'s, but {} moves first",
                            s.color.name(),
                            first.name()
                        )));
                        continue;
                    }
                } else if diagram.at(s.to) != Some(Piece::new(s.color, Role::Pawn))
                    || diagram.at(s.from).is_some()
                    || diagram.at(s.crossed).is_some()
                {
                    errors.push(ep_at.error(format!(
                        "EnPassant: {}{}{}: the pawn must stand on {} with {} and {} empty{}",
                        s.from,
                        s.crossed,
                        s.to,
                        s.to,
                        s.from,
                        s.crossed,
                        label.as_ref().map(|l| format!(" (twin {l})")).unwrap_or_default()
                    )));
                    continue;
                } else {
                    ep = Some(s.crossed);
                }
            }

            let mut id = base_id.clone();
            if let Some(l) = label {
                id.push(' ');
                id.push_str(l);
            }
            if exchanged && p.options.duplex == Duplex::Both {
                id.push_str(" duplex");
            }
            let mut notes = Vec::new();
            if !p.options.showing.is_empty() {
                notes.push(format!("Option {}", p.options.showing.join(" ")));
            }
            if exchanged {
                let which = if p.options.duplex == Duplex::Both {
                    "Duplex"
                } else {
                    "HalfDuplex"
                };
                notes.push(format!(
                    "{which}: colours exchanged and board mirrored a1<-->a8"
                ));
            }
            let quoted = |opcode: &str, text: String| Operation {
                opcode: opcode.to_string(),
                operands: vec![Operand::Quoted(text)],
                column: 0,
            };
            let mut ops = vec![quoted("id", id)];
            if !source.is_empty() {
                ops.push(quoted("c0", source.join("; ")));
            }
            if !notes.is_empty() {
                ops.push(quoted("c1", notes.join("; ")));
            }
            ops.push(quoted("stip", stipulation.to_string()));
            let asked = asked_options(&p.options.showing, stipulation);
            if !asked.is_empty() {
                ops.push(quoted("options", asked));
            }
            let board = diagram.board();
            let fields = format!(
                "{} {} {} {}",
                fen::write_placement(&board),
                first.letter(),
                fen::write_castling(&board, diagram.castling(&no_castling)),
                ep.map_or("-".to_string(), |s| s.to_string())
            );
            let line = format!("{fields} {}", epd::write_operations(&ops));
            match playable(&line) {
                Ok(()) => out.push(line),
                Err(reason) => errors.push(at.error(match label {
                    Some(l) => format!("twin {l}: the diagram cannot be played: {reason}"),
                    None => format!("the diagram cannot be played: {reason}"),
                })),
            }
        }
    }
    (out, errors)
}

/// Whether the solver reads `line` (the reason when not).
fn playable(line: &str) -> Result<(), String> {
    match epd::parse_line(line, 1) {
        Ok(epd::Line::Position(rec)) => problem::from_record(*rec)
            .map(|_| ())
            .map_err(|e| e.message),
        Ok(_) => Err("no position".to_string()),
        Err(e) => Err(e.message),
    }
}

/// A pawn's double step, as `Option EnPassant` states it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct DoubleStep {
    color: Color,
    from: Square,
    crossed: Square,
    to: Square,
}

fn double_step(squares: &[Square]) -> Option<DoubleStep> {
    let [from, crossed, to] = *squares else {
        return None;
    };
    let same_file = from.file() == crossed.file() && crossed.file() == to.file();
    let ranks = (from.rank(), crossed.rank(), to.rank());
    let color = match ranks {
        (1, 2, 3) => Color::White,
        (6, 5, 4) => Color::Black,
        _ => return None,
    };
    same_file.then_some(DoubleStep {
        color,
        from,
        crossed,
        to,
    })
}

/// What Popeye's output options ask `solve` to show, in the words of the `options`
/// operation, where the stipulation has it: `Try` the tries and `Defence N` those with
/// up to N refutations (`#N`, `s#N`), `SetPlay` the set play (`#N`, `s#N`, N >= 2),
/// `MaxSolutions N` a cap on help play's solutions. The others change only Popeye's
/// display and stay in `c1`.
fn asked_options(showing: &[String], stipulation: Stipulation) -> String {
    let battle = stipulation.aim != Aim::Help;
    let mut words = Vec::new();
    for option in showing {
        let mut parts = option.split_whitespace();
        match (parts.next(), parts.next()) {
            (Some("Try"), _) if battle => words.push("tries".to_string()),
            (Some("Defence"), Some(n)) if battle => {
                words.push("tries".to_string());
                words.push(format!("refutations {n}"));
            }
            (Some("SetPlay"), _) if battle && stipulation.moves >= 2 => {
                words.push("set-play".to_string())
            }
            (Some("MaxSolutions"), Some(n)) if !battle => words.push(format!("max-solutions {n}")),
            _ => {}
        }
    }
    let mut once: Vec<String> = Vec::new();
    for w in words {
        if !once.contains(&w) {
            once.push(w);
        }
    }
    once.join(" ")
}

/// Makes one twin's change.
fn apply(stage: &mut Stage, change: &Twinning, at: Loc) -> Result<(), LineError> {
    let d = &mut stage.diagram;
    let empty = |sq: Square| at.error(format!("there is no man on {sq}"));
    match change {
        Twinning::Move(from, to) => {
            let man = d.remove(*from).ok_or_else(|| empty(*from))?;
            d.put(*to, man);
        }
        Twinning::Exchange(a, b) => {
            let x = d.at(*a).ok_or_else(|| empty(*a))?;
            let y = d.at(*b).ok_or_else(|| empty(*b))?;
            d.put(*a, y);
            d.put(*b, x);
        }
        Twinning::Remove(squares) => {
            for sq in squares {
                d.remove(*sq).ok_or_else(|| empty(*sq))?;
            }
        }
        Twinning::Add(men) => {
            for (sq, man) in men {
                d.put(*sq, *man);
            }
        }
        Twinning::Transform(t) => *d = d.transformed(*t),
        Twinning::Shift(from, to) => {
            let dx = to.file() as i32 - from.file() as i32;
            let dy = to.rank() as i32 - from.rank() as i32;
            *d = d.shifted(dx, dy).ok_or_else(|| {
                at.error(format!("Shift {from} {to}: a man would leave the board"))
            })?;
        }
        Twinning::PolishType => *d = d.colours_exchanged(),
        Twinning::Substitute(from, to) => *d = d.substituted(*from, *to),
        Twinning::Stipulation(s) => stage.stipulation = *s,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(text: &str) -> Vec<Result<Vec<String>, Vec<String>>> {
        import(text, "t")
            .into_iter()
            .map(|i| match i {
                Imported::Problem(p) if p.errors.is_empty() => Ok(p.lines),
                Imported::Problem(p) => Err(p.errors.iter().map(|e| e.to_string()).collect()),
                Imported::Error(e) => Err(vec![e.to_string()]),
            })
            .collect()
    }

    #[test]
    fn white_to_play_shortens_a_help_mate_by_one_half_move() {
        let got = lines_of(
            "beginproblem stip h#2 pieces white kg6 qb1 black kh8 option whitetoplay endproblem",
        );
        assert_eq!(
            got,
            vec![Ok(vec![
                "7k/8/6K1/8/8/8/8/1Q6 w - - id \"t 1\"; stip \"h#1.5\";".to_string()
            ])]
        );
    }

    #[test]
    fn twin_labels_run_past_z() {
        assert_eq!(twin_label(0), "a)");
        assert_eq!(twin_label(25), "z)");
        assert_eq!(twin_label(26), "z1)");
    }

    #[test]
    fn double_steps() {
        assert!(double_step(&[Square::E7, Square::E6, Square::E5]).is_some());
        assert!(double_step(&[Square::E2, Square::E3, Square::E4]).is_some());
        assert!(double_step(&[Square::E2, Square::E4]).is_none());
        assert!(double_step(&[Square::E7, Square::E6, Square::D5]).is_none());
    }
}
