//! What makes a puzzle a repeat of one kept before, so that a set holds none:
//! - **the same diagram**: its FEN fields and variant operations (without `stip`, `id`,
//!   `pv` and comments), or their mirror image (files a-h reversed) where the rules
//!   allow one (no castling, no en passant, no Earthquake board, whose displacement has
//!   a direction), and on Looking-Glass the same with the two boards' men exchanged
//!   (the rules of rules.md 5 do not tell the Real board from the Mirror once the game
//!   has begun; a line with castling rights or an en passant right is compared as it
//!   stands);
//! - **the same idea**: the same stipulation, men and game, and a main line played by
//!   the same kinds of men along the same steps (a capture, a promotion and a castling
//!   alike), up to the mirror image where the rules allow one. A diagram moved along the
//!   board (a transposition), or one whose bystanders stand elsewhere while the same men
//!   play the same key, defence and mate, repeats the idea. On Looking-Glass each move
//!   also says whether it is played on the key's board and whether its man passed.

use crate::board::Board;
use crate::epd::{parse_line, Line, Record};
use crate::generic::TurnGame;
use crate::glass::{Glass, Side};
use crate::moves::Move;
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
/// says too little to tell (no main line, Underworld, men with timers of their own, a
/// move of the main line not legal): such a puzzle is only compared by its diagram.
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
            && !ops
                .iter()
                .any(|o| o.starts_with("earthquake") || o.starts_with("underworld"));
        Some(Read {
            rec: *rec,
            fields,
            ops,
            mirrorable,
        })
    }

    /// The diagram as one text: the smallest of it and its images where the rules allow
    /// them (the mirror image; on Looking-Glass the boards exchanged, and both).
    fn diagram(&self) -> String {
        let fields = &self.fields[..4.min(self.fields.len())];
        let real = fields[0].as_str();
        let Some(mirror) = self.mirror_board() else {
            let plain = self.text(real, None, false);
            return if self.mirrorable {
                plain.min(self.text(real, None, true))
            } else {
                plain
            };
        };
        let mut images = vec![self.text(real, Some(mirror), false)];
        if self.mirrorable {
            images.push(self.text(real, Some(mirror), true));
            images.push(self.text(mirror, Some(real), false));
            images.push(self.text(mirror, Some(real), true));
        }
        images.into_iter().min().expect("the diagram itself")
    }

    /// The Looking-Glass Mirror board's placement, if the line has one.
    fn mirror_board(&self) -> Option<&str> {
        self.ops
            .iter()
            .find_map(|op| op.strip_prefix("mirror \""))
            .map(|rest| rest.trim_end_matches(['"', ';']))
    }

    /// The diagram's text with `first` as its placement and `mirror` as its Looking-Glass
    /// Mirror board, each mirrored (files a-h reversed) where `flipped`.
    fn text(&self, first: &str, mirror: Option<&str>, flipped: bool) -> String {
        let flip = |placement: &str| -> String {
            if !flipped {
                return placement.to_string();
            }
            placement
                .split('/')
                .map(|rank| rank.chars().rev().collect::<String>())
                .collect::<Vec<_>>()
                .join("/")
        };
        let ops: Vec<String> = self
            .ops
            .iter()
            .map(|op| match (op.starts_with("mirror \""), mirror) {
                (true, Some(board)) => format!("mirror \"{}\";", flip(board)),
                _ => op.clone(),
            })
            .collect();
        let fields = &self.fields[1..4.min(self.fields.len())];
        format!("{} {} {}", flip(first), fields.join(" "), ops.join(" "))
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
        let (mut men, steps) = if self.mirror_board().is_some() {
            self.glass_steps(&pv)?
        } else {
            self.steps(&pv)?
        };
        men.sort_unstable();
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
        // The game's operations, without where the Mirror board's men stand.
        let rules: Vec<&str> = self
            .ops
            .iter()
            .map(String::as_str)
            .filter(|op| !op.starts_with("mirror \""))
            .collect();
        Some(format!(
            "{stip} | {} {} | {} | {played}",
            men.iter().collect::<String>(),
            self.fields.get(1).map_or("w", String::as_str),
            rules.join(" ")
        ))
    }
}

impl Read {
    /// The men (FEN letters) and the steps of the main line `pv` on a single board.
    fn steps(&self, pv: &[&str]) -> Option<(Vec<char>, Vec<Step>)> {
        let problem = from_record(self.rec.clone()).ok()?;
        let (game, mut pos) = (problem.game, problem.position);
        let men: Vec<char> = pos.board().pieces().map(|(_, p)| p.char()).collect();
        let mut steps = Vec::with_capacity(pv.len());
        for &coord in pv {
            let mv = super::quality::legal_move(&game, &pos, coord)?;
            steps.push(Step::of(pos.board(), mv, None)?);
            pos = game.play(&pos, mv).position;
        }
        Some((men, steps))
    }

    /// The men of both boards and the steps of the main line `pv` on Looking-Glass.
    fn glass_steps(&self, pv: &[&str]) -> Option<(Vec<char>, Vec<Step>)> {
        let problem = crate::glass::setup::read(self.rec.clone()).ok()?;
        let mut state = problem.state;
        let game = Glass {
            attacker: state.turn,
        };
        let men: Vec<char> = Side::BOTH
            .into_iter()
            .flat_map(|side| state.board(side).board().pieces().map(|(_, p)| p.char()))
            .collect();
        let mut steps = Vec::with_capacity(pv.len());
        let mut key_board = None;
        for &coord in pv {
            let m = game.move_written(&state, coord)?;
            let on_key_board = *key_board.get_or_insert(m.side) == m.side;
            let (next, passes) = game.play_reporting(&state, m);
            let passed = passes[0].is_some_and(|(_, passed)| passed);
            let board = state.board(m.side).board();
            steps.push(Step::of(board, m.mv, Some((on_key_board, passed)))?);
            state = next;
        }
        Some((men, steps))
    }
}

/// What a move of the main line says of the idea: the man (FEN letter), its step in
/// files and ranks, whether it takes, what it becomes; on Looking-Glass whether it is
/// played on the board of the key and whether its man passed.
struct Step {
    man: char,
    files: i32,
    ranks: i32,
    takes: bool,
    promotion: Option<char>,
    glass: Option<(bool, bool)>,
}

impl Step {
    /// The step of `mv`, played on `board` (where its man stands); `None` when no man
    /// stands on its start.
    fn of(board: &Board, mv: Move, glass: Option<(bool, bool)>) -> Option<Step> {
        let file = |sq: Square| sq.file() as i32;
        let rank = |sq: Square| sq.rank() as i32;
        Some(Step {
            man: board.piece_at(mv.from)?.char(),
            files: file(mv.to) - file(mv.from),
            ranks: rank(mv.to) - rank(mv.from),
            takes: mv.takes(board),
            promotion: mv.promotion().map(|r| r.char()),
            glass,
        })
    }

    fn text(&self, mirrored: bool) -> String {
        let files = if mirrored { -self.files } else { self.files };
        format!(
            "{}{:+}{:+}{}{}{}",
            self.man,
            files,
            self.ranks,
            if self.takes { "x" } else { "" },
            self.promotion.map(String::from).unwrap_or_default(),
            match self.glass {
                None => "",
                Some((true, false)) => "=",
                Some((true, true)) => "=>",
                Some((false, false)) => "~",
                Some((false, true)) => "~>",
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{idea, repeat_keys};

    /// The diagram a puzzle line repeats under (the first repeat key).
    fn diagram(line: &str) -> String {
        repeat_keys(line).expect("a position line")[0].clone()
    }

    /// On Looking-Glass the two boards exchanged, mirrored, or both, are the same
    /// diagram, and the same key, defence and mate along the same steps (on the key's
    /// board or the other, passing or not) the same idea, wherever the men stand; another
    /// key is another idea; castling rights name a board, so a line with them is
    /// compared as it is.
    #[test]
    fn looking_glass_boards_exchanged_are_the_same_diagram_and_idea() {
        let line = r##"8/8/8/8/8/8/2K5/8 w - - mirror "8/8/3N4/p7/8/8/pp6/k7"; stip "s#3"; pv "R:c2b1 M:a1b1";"##;
        let exchanged = r##"8/8/3N4/p7/8/8/pp6/k7 w - - mirror "8/8/8/8/8/8/2K5/8"; stip "s#3"; pv "M:c2b1 R:a1b1";"##;
        let mirrored = r##"8/8/8/8/8/8/5K2/8 w - - mirror "8/8/4N3/7p/8/8/6pp/7k"; stip "s#3"; pv "R:f2g1 M:h1g1";"##;
        let moved = r##"8/8/8/8/8/8/3K4/8 w - - mirror "8/8/4N3/1p6/8/8/1pp5/1k6"; stip "s#3"; pv "R:d2c1 M:b1c1";"##;
        let other_key = r##"8/8/8/8/8/8/2K5/8 w - - mirror "8/8/3N4/p7/8/8/pp6/k7"; stip "s#3"; pv "R:c2b2 M:a5a4";"##;
        assert_eq!(diagram(line), diagram(exchanged));
        assert_eq!(diagram(line), diagram(mirrored));
        assert_ne!(diagram(line), diagram(moved));
        let base = idea(line);
        assert!(base.is_some());
        assert_eq!(base, idea(exchanged));
        assert_eq!(base, idea(mirrored));
        assert_eq!(base, idea(moved));
        assert!(idea(other_key).is_some());
        assert_ne!(base, idea(other_key));
        // The same men along the same steps, but the key played on the other board and
        // passing, and the defence on the key's board: another idea.
        let passing = r##"8/8/8/8/8/8/2K5/7N w - - mirror "8/8/3N4/p7/8/8/pp6/k7"; stip "s#3"; pv "R:c2b1 M:a1b1";"##;
        let staying = r##"8/8/8/8/8/8/8/1N6 w - - mirror "8/8/3N4/p7/8/8/ppK5/k7"; stip "s#3"; pv "M:c2b1 M:a1b1";"##;
        assert!(idea(passing).is_some() && idea(staying).is_some());
        assert_ne!(idea(passing), idea(staying));
        let castles = r##"8/8/8/8/8/8/8/R3K3 w Q - mirror "4k3/8/8/8/8/8/8/8";"##;
        let castles_exchanged = r##"4k3/8/8/8/8/8/8/8 w Q - mirror "8/8/8/8/8/8/8/R3K3";"##;
        assert_ne!(diagram(castles), diagram(castles_exchanged));
    }

    /// An Underworld diagram is not mirrored: the queen's home file (d) and the king's
    /// (e) do not exchange with the files (rules.md 4.2).
    #[test]
    fn an_underworld_diagram_has_no_mirror_image() {
        let line = r##"4k3/8/8/8/8/8/3Q4/4K3 w - - underworld "4k3/8/8/8/8/8/8/4K3"; phase WW;"##;
        let mirrored =
            r##"3k4/8/8/8/8/8/4Q3/3K4 w - - underworld "3k4/8/8/8/8/8/8/3K4"; phase WW;"##;
        let world_mirrored =
            r##"3k4/8/8/8/8/8/4Q3/3K4 w - - underworld "4k3/8/8/8/8/8/8/4K3"; phase WW;"##;
        assert_ne!(diagram(line), diagram(mirrored));
        assert_ne!(diagram(line), diagram(world_mirrored));
    }

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
