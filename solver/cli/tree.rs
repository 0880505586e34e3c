//! Solution trees as composers print them and as scripts read them: one text layout and
//! one JSON shape for every game and stipulation (`#N`, `s#N`, one board or two).
//!
//! The layout is the one of published solutions: the key with `!`, its threat (or
//! `zugzwang`), each defence on a line of its own with the continuations that win after
//! it on the same line when they end there (`(dual)` when there are several), a forced
//! sequence on one line (`1...Kh5 2.Qg4+ Kh6 3.Qg6#`) until play branches, each branch
//! then on a line of its own, one step further in. On the two-board games the
//! attacker may move twice in a row; where every choice of such an unanswered move wins
//! the same way (the obligatory move on the other board), the first is printed with the
//! count of the others, `(or 7 others alike)`; JSON and `--full` keep every move.

use fairysolve::generic::search::Line;
use fairysolve::types::Color;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// How a tree is written.
pub struct Layout {
    /// The side that plays the key.
    pub attacker: Color,
    /// The stipulation's N: a key that wins sooner is marked short.
    pub moves: u32,
    /// Every move printed, none folded into `(or N others alike)`.
    pub full: bool,
}

impl Layout {
    /// Writes the tree of one key, from round 1.
    pub fn write_key(&self, key: &Line, out: &mut String) {
        let marks = Marks {
            key: true,
            ..Marks::default()
        };
        self.write(key, 0, 1, true, &marks, out);
    }

    /// `line` at `pad` (its move and marks), then what follows it: on the same text
    /// line while there is one way on (a forced sequence), or when the continuations
    /// all end at once; else one line per move, indented one step further.
    fn write(
        &self,
        line: &Line,
        pad: usize,
        round: u32,
        numbered: bool,
        marks: &Marks,
        out: &mut String,
    ) {
        out.push_str(&self.move_text(line, round, numbered, marks));
        let next_round = round + line.round_ends as u32;
        let kids = self.groups(&line.children);
        let answered = line.mover == self.attacker
            && kids.first().is_some_and(|(k, _)| k.mover != self.attacker);
        // A forced sequence goes on along the line it began on, except that the
        // defences of a key, and those after a threat or a zugzwang, each begin a line.
        let breaks = answered && (marks.key || line.threat.is_some());
        if kids.is_empty() {
            out.push('\n');
        } else if kids.len() == 1 && !breaks {
            let (kid, alike) = kids[0];
            out.push(' ');
            // A defence within its round follows the attacker's move unnumbered.
            let numbered = kid.mover == self.attacker || next_round != round;
            let m = Marks {
                alike,
                ..Marks::default()
            };
            self.write(kid, pad, next_round, numbered, &m, out);
        } else if !answered
            && kids
                .iter()
                .all(|(k, _)| k.mover == self.attacker && self.inline(k))
        {
            // Continuations that end at once: one line, a dual when more than one.
            for (i, &(kid, alike)) in kids.iter().enumerate() {
                out.push_str(if i == 0 { " " } else { ", " });
                let m = Marks {
                    alike,
                    ..Marks::default()
                };
                let mut text = String::new();
                self.write(kid, pad, next_round, true, &m, &mut text);
                out.push_str(text.trim_end_matches('\n'));
            }
            if kids.len() > 1 {
                out.push_str(" (dual)");
            }
            out.push('\n');
        } else {
            out.push('\n');
            let dual = kids.len() > 1 && kids.iter().all(|(k, _)| k.mover == self.attacker);
            for &(kid, alike) in &kids {
                out.push_str(&" ".repeat(pad + 4));
                let m = Marks {
                    alike,
                    dual,
                    ..Marks::default()
                };
                self.write(kid, pad + 4, next_round, true, &m, out);
            }
        }
    }

    /// The move of `line` with its number and marks.
    fn move_text(&self, line: &Line, round: u32, numbered: bool, marks: &Marks) -> String {
        let attacking = line.mover == self.attacker;
        let mut s = match (attacking, numbered) {
            (true, _) => format!("{round}."),
            (false, true) => format!("{round}..."),
            (false, false) => String::new(),
        };
        s.push_str(&line.notation);
        if marks.key {
            s.push('!');
        }
        if let Some([w, b]) = line.cash {
            let _ = write!(s, " [W {w} B {b}]");
        }
        if line.king_fell {
            s.push_str(" (the king falls)");
        }
        if marks.key && line.wins_in < self.moves {
            let _ = write!(s, " (short: wins in {})", line.wins_in);
        }
        if marks.alike > 0 {
            let _ = write!(
                s,
                " (or {} other{} alike)",
                marks.alike,
                if marks.alike == 1 { "" } else { "s" }
            );
        }
        if marks.dual {
            s.push_str(" (dual)");
        }
        match &line.threat {
            Some(t) if t.is_empty() && !line.children.is_empty() && !line.truncated => {
                s.push_str(" zugzwang");
            }
            Some(t) if !t.is_empty() => {
                let threats: Vec<String> = t
                    .iter()
                    .map(|m| format!("{}.{}", round + 1, m.notation))
                    .collect();
                let _ = write!(s, " threat: {}", threats.join(", "));
            }
            _ => {}
        }
        if line.truncated {
            s.push_str(" ... (tree cut here)");
        }
        s
    }

    /// Whether `line` and all that follows it fit on one text line among other
    /// continuations: nothing to mark (no threat), and at most one way on, itself inline.
    fn inline(&self, line: &Line) -> bool {
        if line.truncated || line.threat.is_some() {
            return false;
        }
        match self.groups(&line.children).as_slice() {
            [] => true,
            [(kid, _)] => self.inline(kid),
            _ => false,
        }
    }

    /// `children` with each unanswered attacker's move that wins exactly as an earlier
    /// sibling does folded into it: the first of each kind with the count of the others.
    fn groups<'l>(&self, children: &'l [Line]) -> Vec<(&'l Line, usize)> {
        let mut out: Vec<(&Line, usize, Option<String>)> = Vec::new();
        for c in children {
            let unanswered = c.mover == self.attacker
                && !c.children.is_empty()
                && c.children.iter().all(|g| g.mover == self.attacker);
            let shape = (unanswered && !self.full).then(|| self.below(c));
            match out.iter_mut().find(|(_, _, s)| s.is_some() && *s == shape) {
                Some(group) => group.1 += 1,
                None => out.push((c, 0, shape)),
            }
        }
        out.into_iter().map(|(l, n, _)| (l, n)).collect()
    }

    /// What follows `line`, as text: two moves that win the same way show the same.
    fn below(&self, line: &Line) -> String {
        let mut s = String::new();
        for c in &line.children {
            self.write(c, 0, 1, true, &Marks::default(), &mut s);
        }
        s
    }
}

/// What a move's text carries besides the move.
#[derive(Default)]
struct Marks {
    /// The key (`!`, and the short mark).
    key: bool,
    /// Equivalent moves folded into this one.
    alike: usize,
    /// One of several continuations.
    dual: bool,
}

/// A tree node in the JSON every game writes: the move, who made it, in how many rounds
/// the attacker wins, whether the game ended, cash and falls, the threat of an
/// attacker's move (`null`: none sought; `[]`: a zugzwang), and `next`, the moves that
/// follow (the defences, or the continuations that win after a defence).
pub fn json(line: &Line) -> Value {
    json!({
        "move": line.coord,
        "san": line.notation,
        "side": line.mover.name().to_lowercase(),
        "wins_in": line.wins_in,
        "ends": line.ends,
        "truncated": line.truncated,
        "cash": line.cash,
        "king_fell": line.king_fell,
        "threat": line.threat.as_ref().map(|t| t.iter().map(json).collect::<Vec<_>>()),
        "next": line.children.iter().map(json).collect::<Vec<_>>(),
    })
}
