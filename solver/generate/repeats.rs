//! What makes a puzzle a repeat of one kept before, so that a set holds none:
//! - **the same diagram**: its FEN fields and variant operations (without `stip`, `id`,
//!   `pv` and comments), or their mirror image (files a-h reversed) where the rules
//!   allow one (no castling, no en passant, no Earthquake board, whose displacement has
//!   a direction);
//! - **the same idea**: the same stipulation, men and game, and a main line played by
//!   the same kinds of men along the same steps (a capture, a promotion and a castling
//!   alike), up to the mirror image where the rules allow one. A diagram moved along the
//!   board (a transposition), or one whose bystanders stand elsewhere while the same men
//!   play the same key, defence and mate, repeats the idea.

use crate::epd::{parse_line, Line, Record};
use crate::moves::MoveKind;
use crate::problem::from_record;
use crate::types::Square;
use std::collections::HashSet;

/// Whether a puzzle with the repeat keys `keys` (`repeat_keys`) is met for the first
/// time in a set whose kept puzzles' keys are `seen`; if so its keys join them.
pub fn first_met(seen: &mut HashSet<String>, keys: Vec<String>) -> bool {
    if keys.iter().any(|k| seen.contains(k)) {
        return false;
    }
    seen.extend(keys);
    true
}

/// The keys under which a puzzle line repeats another of a set: its diagram and, where
/// the line tells it, its idea. `None` for a line that is no position line.
pub fn repeat_keys(line: &str) -> Option<Vec<String>> {
    let read = Read::of(line)?;
    let mut keys = vec![read.diagram()];
    keys.extend(read.idea().map(|i| format!("idea {i}")));
    Some(keys)
}

/// The idea of a puzzle line (its `stip` and `pv` read from it), or `None` where the line
/// says too little to tell (no main line, a two-board game, men with timers of their own,
/// a move of the main line not legal): such a puzzle is only compared by its diagram.
pub fn idea(line: &str) -> Option<String> {
    Read::of(line)?.idea()
}

/// A puzzle line read once for both keys.
struct Read {
    rec: Record,
    /// The FEN fields as written.
    fields: Vec<String>,
    /// The variant operations, each written out; `stip`, `id`, `pv` and comments left out.
    ops: Vec<String>,
    /// Whether the rules allow the mirror image.
    mirrorable: bool,
}

impl Read {
    fn of(line: &str) -> Option<Read> {
        let Ok(Line::Position(rec)) = parse_line(line, 1) else {
            return None;
        };
        let fields: Vec<String> = rec.fen_text.split(' ').map(str::to_string).collect();
        let ops: Vec<String> = rec
            .operations
            .iter()
            .filter(|op| !["stip", "id", "pv", "c0", "c1", "dm"].contains(&op.opcode.as_str()))
            .map(|op| crate::epd::write_operations(std::slice::from_ref(op)))
            .collect();
        let mirrorable = fields.get(2).is_some_and(|f| f == "-")
            && fields.get(3).is_some_and(|f| f == "-")
            && !ops.iter().any(|o| o.starts_with("earthquake"));
        Some(Read {
            rec: *rec,
            fields,
            ops,
            mirrorable,
        })
    }

    /// The diagram as one text: the smaller of it and its mirror image where the rules
    /// allow the mirror.
    fn diagram(&self) -> String {
        let fields = &self.fields[..4.min(self.fields.len())];
        let plain = format!("{} {}", fields.join(" "), self.ops.join(" "));
        if !self.mirrorable {
            return plain;
        }
        let flip = |placement: &str| -> String {
            placement
                .split('/')
                .map(|rank| rank.chars().rev().collect::<String>())
                .collect::<Vec<_>>()
                .join("/")
        };
        let mirrored_ops: Vec<String> = self
            .ops
            .iter()
            .map(|op| match op.strip_prefix("mirror \"") {
                Some(rest) => format!("mirror \"{}\";", flip(rest.trim_end_matches(['"', ';']))),
                None => op.clone(),
            })
            .collect();
        let mirrored = format!(
            "{} {} {}",
            flip(&fields[0]),
            fields[1..].join(" "),
            mirrored_ops.join(" ")
        );
        plain.min(mirrored)
    }

    /// The idea (see the module's head), or `None` where the line does not tell it.
    fn idea(&self) -> Option<String> {
        let stip = self.rec.get("stip")?.single()?;
        let pv: Vec<&str> = self
            .rec
            .get("pv")?
            .operands
            .iter()
            .flat_map(|o| o.text().split_whitespace())
            .collect();
        if pv.is_empty() || self.rec.get("timers").is_some() {
            return None;
        }
        let problem = from_record(self.rec.clone()).ok()?;
        let (game, mut pos) = (problem.game, problem.position);
        let mut men: Vec<char> = pos.board().pieces().map(|(_, p)| p.char()).collect();
        men.sort_unstable();
        let mut steps = Vec::with_capacity(pv.len());
        for coord in pv {
            let mv = super::quality::legal_move(&game, &pos, coord)?;
            let man = pos.board().piece_at(mv.from)?;
            let takes = match mv.kind {
                MoveKind::EnPassant => true,
                MoveKind::Castle => false,
                _ => pos.board().piece_at(mv.to).is_some(),
            };
            let file = |sq: Square| sq.file() as i32;
            let rank = |sq: Square| sq.rank() as i32;
            steps.push(Step {
                man: man.char(),
                files: file(mv.to) - file(mv.from),
                ranks: rank(mv.to) - rank(mv.from),
                takes,
                promotion: mv.promotion().map(|r| r.char()),
            });
            pos = game.play(&pos, mv).position;
        }
        let line = |mirrored: bool| {
            steps
                .iter()
                .map(|s| s.text(mirrored))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let played = if self.mirrorable {
            line(false).min(line(true))
        } else {
            line(false)
        };
        Some(format!(
            "{stip} | {} {} | {} | {played}",
            men.iter().collect::<String>(),
            self.fields.get(1).map_or("w", String::as_str),
            self.ops.join(" ")
        ))
    }
}

/// What a move of the main line says of the idea: the man (FEN letter), its step in
/// files and ranks, whether it takes, what it becomes.
struct Step {
    man: char,
    files: i32,
    ranks: i32,
    takes: bool,
    promotion: Option<char>,
}

impl Step {
    fn text(&self, mirrored: bool) -> String {
        let files = if mirrored { -self.files } else { self.files };
        format!(
            "{}{:+}{:+}{}{}",
            self.man,
            files,
            self.ranks,
            if self.takes { "x" } else { "" },
            self.promotion.map(String::from).unwrap_or_default()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::idea;

    /// A #2 moved one file along the board, its mirror image, and the same key, defence
    /// and mate with a bystander elsewhere are the same idea; another key, or one more
    /// man, is not; a line without its main line has none.
    #[test]
    fn transpositions_mirrors_and_moved_bystanders_share_an_idea() {
        let base = idea(r##"8/8/5K2/3k4/1R6/5R2/8/8 w - - stip "#2"; pv "f3c3 d5d6 b4d4";"##);
        let moved = idea(r##"8/8/6K1/4k3/2R5/6R1/8/8 w - - stip "#2"; pv "g3d3 e5e6 c4e4";"##);
        let mirror = idea(r##"8/8/2K5/4k3/6R1/2R5/8/8 w - - stip "#2"; pv "c3f3 e5e6 g4e4";"##);
        assert!(base.is_some());
        assert_eq!(base, moved);
        assert_eq!(base, mirror);
        let bystander_a2 =
            idea(r##"8/8/5K2/3k4/1R6/5R2/P7/8 w - - stip "#2"; pv "f3c3 d5d6 b4d4";"##);
        let bystander_h3 =
            idea(r##"8/8/5K2/3k4/1R6/5R1P/8/8 w - - stip "#2"; pv "f3c3 d5d6 b4d4";"##);
        assert!(bystander_a2.is_some());
        assert_eq!(bystander_a2, bystander_h3);
        assert_ne!(base, bystander_a2);
        let other = idea(r##"8/8/5K2/3k4/1R6/5R2/8/8 w - - stip "#2"; pv "f3f4 d5c5 b4b5";"##);
        assert_ne!(base, other);
        assert_eq!(idea(r##"8/8/5K2/3k4/1R6/5R2/8/8 w - - stip "#2";"##), None);
    }
}
