//! A puzzle's idea, for keeping a set free of repeats: two puzzles show the same idea
//! when they have the same stipulation, the same men and game, and their main lines are
//! played by the same kinds of men along the same steps (a capture, a promotion and a
//! castling alike), up to the mirror image where the rules allow one. A diagram moved
//! along the board (a transposition), or one whose bystanders stand elsewhere while the
//! same men play the same key, defence and mate, is a repeat of the idea.

use crate::epd::{parse_line, Line};
use crate::moves::MoveKind;
use crate::problem::from_record;
use crate::types::Square;

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

/// The idea of a puzzle line (its `stip` and `pv` read from it), or `None` where the line
/// says too little to tell (no main line, a two-board game, men with timers of their own,
/// a move of the main line not legal): such a puzzle is only compared whole.
pub fn idea(line: &str) -> Option<String> {
    let Ok(Line::Position(rec)) = parse_line(line, 1) else {
        return None;
    };
    let stip = rec.get("stip")?.single()?.to_string();
    let pv: Vec<String> = rec
        .get("pv")?
        .operands
        .iter()
        .flat_map(|o| o.text().split_whitespace())
        .map(str::to_string)
        .collect();
    if pv.is_empty() || rec.get("timers").is_some() {
        return None;
    }
    let fen_text = rec.fen_text.clone();
    let fields: Vec<&str> = fen_text.split(' ').collect();
    let ops: Vec<String> = rec
        .operations
        .iter()
        .filter(|op| !["stip", "id", "pv", "c0", "c1", "dm"].contains(&op.opcode.as_str()))
        .map(|op| crate::epd::write_operations(std::slice::from_ref(op)))
        .collect();
    let mirrorable = fields.get(2) == Some(&"-")
        && fields.get(3) == Some(&"-")
        && !ops.iter().any(|o| o.starts_with("earthquake"));
    let problem = from_record(*rec).ok()?;
    let (game, mut pos) = (problem.game, problem.position);
    let mut men: Vec<char> = pos.board().pieces().map(|(_, p)| p.char()).collect();
    men.sort_unstable();
    let mut steps = Vec::with_capacity(pv.len());
    for coord in &pv {
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
    let played = if mirrorable {
        line(false).min(line(true))
    } else {
        line(false)
    };
    Some(format!(
        "{stip} | {} {} | {} | {played}",
        men.iter().collect::<String>(),
        fields.get(1).unwrap_or(&"w"),
        ops.join(" ")
    ))
}

/// The keys under which a puzzle line repeats another of a set: its diagram (with its
/// mirror image, `super::canonical`) and its idea. `None` for a line that is no puzzle.
pub fn repeat_keys(line: &str) -> Option<Vec<String>> {
    let mut keys = vec![super::canonical(line)?];
    keys.extend(idea(line).map(|i| format!("idea {i}")));
    Some(keys)
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
