//! Reading position lines from files, standard input or `--fen`, each with its location
//! (`FILE:LINE`), so that every message can say where it comes from.

use super::line_reader::{LineReader, RawLine};
use fairysolve::epd::{self, Line, Record};
use fairysolve::problem::{self, Problem};
use fairysolve::underworld::UnderworldProblem;
use std::io::BufRead;

/// A line of a two-board game, read.
pub enum TwoBoard {
    Underworld(UnderworldProblem),
    Glass(fairysolve::glass::GlassProblem),
}

impl TwoBoard {
    pub fn record(&self) -> &Record {
        match self {
            TwoBoard::Underworld(p) => &p.record,
            TwoBoard::Glass(p) => &p.record,
        }
    }
}

/// One position line of the input, read or not.
pub struct Item {
    /// `FILE:LINE`, or `--fen` for the command line.
    pub source: String,
    pub record: Result<Record, String>,
}

impl Item {
    /// The problem this line states, or a located message.
    pub fn problem(&self) -> Result<Problem, String> {
        let rec = self.record.as_ref().map_err(|e| e.clone())?;
        problem::from_record(rec.clone()).map_err(|e| format!("{}: {}", self.file_part(), e))
    }

    /// The problem of this line if it is one of a two-board game (`Ok(None)` when it
    /// is not), or a located message.
    pub fn two_board(&self) -> Result<Option<TwoBoard>, String> {
        if let Some(p) = self.underworld()? {
            return Ok(Some(TwoBoard::Underworld(p)));
        }
        Ok(self.glass()?.map(TwoBoard::Glass))
    }

    /// The Underworld problem of this line, if it is an Underworld line (`Ok(None)`
    /// when it is not), or a located message.
    pub fn underworld(&self) -> Result<Option<UnderworldProblem>, String> {
        let rec = self.record.as_ref().map_err(|e| e.clone())?;
        if !fairysolve::underworld::setup::is_underworld(rec) {
            return Ok(None);
        }
        fairysolve::underworld::setup::read(rec.clone())
            .map(Some)
            .map_err(|e| format!("{}: {}", self.file_part(), e))
    }

    /// The Looking-Glass problem of this line, if it is one (`Ok(None)` when not).
    pub fn glass(&self) -> Result<Option<fairysolve::glass::GlassProblem>, String> {
        let rec = self.record.as_ref().map_err(|e| e.clone())?;
        if !fairysolve::glass::setup::is_glass(rec) {
            return Ok(None);
        }
        fairysolve::glass::setup::read(rec.clone())
            .map(Some)
            .map_err(|e| format!("{}: {}", self.file_part(), e))
    }

    /// The problem this line states, read for retro-analysis (rules.md 6.3 verdicts
    /// such as a check on the side not to move are reported, not refused).
    pub fn problem_for_retro(&self) -> Result<Problem, String> {
        let rec = self.record.as_ref().map_err(|e| e.clone())?;
        problem::from_record_for_retro(rec.clone())
            .map_err(|e| format!("{}: {}", self.file_part(), e))
    }

    /// A message about column `column0` (0-based) of this line, located as the
    /// reader's own messages are.
    pub fn located(&self, column0: usize, message: &str) -> String {
        let column = column0 + 1;
        match self.file_and_line() {
            Some((file, line)) => format!("{file}: line {line}, column {column}: {message}"),
            None => format!("{}: line 1, column {column}: {message}", self.source),
        }
    }

    fn file_part(&self) -> &str {
        self.file_and_line().map_or(&self.source, |(file, _)| file)
    }

    /// `FILE` and `LINE` of a `FILE:LINE` source; `--fen` is line 1 of the command line.
    fn file_and_line(&self) -> Option<(&str, &str)> {
        if self.is_fen_line() {
            return Some((&self.source, "1"));
        }
        self.source
            .rsplit_once(':')
            .filter(|(file, _)| !file.is_empty())
    }

    /// Whether this is the `--fen` line.
    pub fn is_fen_line(&self) -> bool {
        self.source == "--fen"
    }

    /// The 0-based column of the first of `opcodes` the line has, else of its FEN (0):
    /// where a message about what they state points.
    pub fn column_of(&self, opcodes: &[&str]) -> usize {
        let Ok(rec) = &self.record else { return 0 };
        opcodes
            .iter()
            .find_map(|name| rec.get(name))
            .map_or(0, |op| op.column)
    }
}

/// One named input (`-`: standard input) being read line by line.
struct Source {
    name: String,
    lines: LineReader,
    /// Lines read so far (the number of the last one).
    line_no: usize,
    /// Items this input gave: none at its end is reported.
    items: usize,
}

impl Source {
    fn open(name: &str) -> Result<Source, String> {
        let reader: Box<dyn BufRead> = if name == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            let file =
                std::fs::File::open(name).map_err(|e| format!("{name}: cannot read: {e}"))?;
            Box::new(std::io::BufReader::with_capacity(READ_BUFFER, file))
        };
        Ok(Source {
            name: name.to_string(),
            lines: LineReader::new(reader),
            line_no: 0,
            items: 0,
        })
    }

    /// How messages name this input when it holds no position line.
    fn what(&self) -> &str {
        if self.name == "-" {
            "standard input"
        } else {
            &self.name
        }
    }
}

/// Bytes asked of a file at a time.
const READ_BUFFER: usize = 64 * 1024;

/// The position lines a command is given, read as the work asks for them: the `--fen`
/// line, then each file's lines in order, each file opened when its turn comes, so the
/// first answer of a pipe comes before the pipe ends. Read errors become items too, so
/// no input is silently dropped.
pub struct Items {
    fen: Option<Item>,
    files: std::collections::VecDeque<String>,
    current: Option<Source>,
    /// The variant flags' operations, added to every line.
    extra_ops: String,
    flags: Vec<String>,
    /// Ctrl-C ended the reading.
    stopped: bool,
    /// Items read ahead of the work (see `at_most_one`).
    ahead: std::collections::VecDeque<Item>,
}

impl Items {
    fn new(files: &[String], fen: Option<&str>, extra_ops: &str) -> Items {
        let flags = flag_opcodes(extra_ops);
        let fen = fen.map(|fen| {
            let text = with_flags(fen, 1, extra_ops, &flags);
            let record = match epd::parse_line(&text, 1) {
                Ok(Line::Position(r)) => Ok(*r),
                Ok(_) => Err("--fen: no position given".into()),
                Err(e) => Err(format!("--fen: {e}")),
            };
            Item {
                source: "--fen".into(),
                record,
            }
        });
        Items {
            fen,
            files: files.iter().cloned().collect(),
            current: None,
            extra_ops: extra_ops.to_string(),
            flags,
            stopped: false,
            ahead: std::collections::VecDeque::new(),
        }
    }

    /// Whether the input holds one position line at most. Only an input that never
    /// waits is looked ahead in (the `--fen` line, regular files): a pipe's next line
    /// may not be written yet, and its first answer must not wait for it. Of any other
    /// input the answer is `false`.
    pub fn at_most_one(&mut self) -> bool {
        let never_waits = self.current.is_none()
            && self
                .files
                .iter()
                .all(|name| name != "-" && std::fs::metadata(name).is_ok_and(|m| m.is_file()));
        if !never_waits {
            return false;
        }
        while self.ahead.len() < 2 {
            match self.read() {
                Some(item) => self.ahead.push_back(item),
                None => break,
            }
        }
        self.ahead.len() <= 1
    }

    /// The item of line `line_no` of input `name`, if it is one (blank lines and
    /// comments are not).
    fn item(&self, name: &str, line_no: usize, raw: &[u8]) -> Option<Item> {
        let at = format!("{name}:{line_no}");
        // A byte-order mark (some editors write one) is no part of the first line.
        let raw = match line_no {
            1 => raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw),
            _ => raw,
        };
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            Err(e) => {
                // Columns count characters: those of the valid part before.
                let valid = &raw[..e.valid_up_to()];
                let column = 1 + std::str::from_utf8(valid).map_or(0, |t| t.chars().count());
                return Some(Item {
                    source: at,
                    record: Err(format!(
                        "{name}: line {line_no}, column {column}: not UTF-8 text"
                    )),
                });
            }
        };
        let text = if text.trim().is_empty() || text.trim_start().starts_with('#') {
            text.to_string()
        } else {
            with_flags(text, line_no, &self.extra_ops, &self.flags)
        };
        match epd::parse_line(&text, line_no) {
            Ok(Line::Position(r)) => Some(Item {
                source: at,
                record: Ok(*r),
            }),
            Ok(_) => None,
            Err(e) => Some(Item {
                source: at,
                record: Err(format!("{name}: {e}")),
            }),
        }
    }
}

impl Iterator for Items {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        self.ahead.pop_front().or_else(|| self.read())
    }
}

impl Items {
    /// The next item from the inputs themselves.
    fn read(&mut self) -> Option<Item> {
        if let Some(item) = self.fen.take() {
            return Some(item);
        }
        loop {
            if self.stopped {
                return None;
            }
            if super::limits::interrupted() {
                // Lines not read are work not done: said once (exit status 1).
                self.stopped = true;
                let name = match self.current.take() {
                    Some(source) => source.name,
                    None => self.files.pop_front()?,
                };
                return Some(Item {
                    source: name.clone(),
                    record: Err(format!("{name}: reading stopped (interrupted)")),
                });
            }
            let Some(source) = &mut self.current else {
                let name = self.files.pop_front()?;
                match Source::open(&name) {
                    Ok(source) => self.current = Some(source),
                    Err(e) => {
                        return Some(Item {
                            source: name,
                            record: Err(e),
                        })
                    }
                }
                continue;
            };
            let raw = match source.lines.next_line() {
                None => {
                    let source = self.current.take()?;
                    if source.items > 0 {
                        continue;
                    }
                    // Nothing to work on is a fault the user should hear of.
                    return Some(Item {
                        source: source.name.clone(),
                        record: Err(format!(
                            "{}: no position line in {}",
                            source.name,
                            source.what()
                        )),
                    });
                }
                Some(Err(e)) => {
                    let name = source.name.clone();
                    let line = source.line_no + 1;
                    // What follows an unreadable stretch cannot be placed: the input ends.
                    self.current = None;
                    return Some(Item {
                        source: format!("{name}:{line}"),
                        record: Err(format!("{name}: line {line}: cannot read: {e}")),
                    });
                }
                Some(Ok(raw)) => raw,
            };
            source.line_no += 1;
            let (name, line_no) = (source.name.clone(), source.line_no);
            let item = match raw {
                RawLine::TooLong => Some(Item {
                    source: format!("{name}:{line_no}"),
                    record: Err(format!(
                        "{name}: line {line_no}, column 1: longer than {} bytes; skipped",
                        epd::MAX_LINE_LEN
                    )),
                }),
                RawLine::Text(bytes) => self.item(&name, line_no, &bytes),
            };
            if let Some(item) = item {
                if let Some(source) = &mut self.current {
                    source.items += 1;
                }
                return Some(item);
            }
        }
    }
}

/// The positions a command is given (`--fen` and FILEs, with its variant flags; the
/// command line holds one or the other, see the commands' `input` group), read as the
/// work goes.
pub fn command_input(files: &[String], fen: Option<&str>, variants: &super::VariantFlags) -> Items {
    Items::new(files, fen, &variants.operations())
}

/// Every position line of the files and the `--fen` line, read at once (for commands
/// of one position). `extra_ops` are appended to every line.
pub fn gather(files: &[String], fen: Option<&str>, extra_ops: &str) -> Vec<Item> {
    Items::new(files, fen, extra_ops).collect()
}

/// The opcodes of the flags' operations (read once for all the lines).
fn flag_opcodes(extra_ops: &str) -> Vec<String> {
    if extra_ops.is_empty() {
        return Vec::new();
    }
    match epd::parse_line(&format!("8/8/8/8/8/8/8/8 w - - {extra_ops}"), 1) {
        Ok(Line::Position(r)) => r.operations.iter().map(|o| o.opcode.clone()).collect(),
        _ => Vec::new(),
    }
}

/// A position line with the flags' operations added; an operation the line has and a
/// flag gives too is the flag's (the flag overrides it).
fn with_flags(text: &str, line_no: usize, extra_ops: &str, flags: &[String]) -> String {
    if extra_ops.is_empty() {
        return text.to_string();
    }
    if let Ok(Line::Position(mut rec)) = epd::parse_line(text, line_no) {
        if rec.operations.iter().any(|o| flags.contains(&o.opcode)) {
            rec.operations.retain(|o| !flags.contains(&o.opcode));
            return with_operations(&epd::write_record(&rec), extra_ops);
        }
    }
    with_operations(text, extra_ops)
}

/// A position line with the flags' operations added. A separator goes first: the last
/// operation of a line may lack its `;` (perft suites write `;D6 119060324`), and the
/// flags' operations must not become its operands.
fn with_operations(line: &str, extra_ops: &str) -> String {
    if extra_ops.is_empty() {
        line.to_string()
    } else {
        format!("{line} ;{extra_ops}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags' operations stay operations of their own whether or not the line's
    /// last operation ends with `;`, and a line of bare FEN fields takes them too.
    #[test]
    fn flag_operations_follow_any_line() {
        for line in [
            "4k3/8/8/8/8/8/8/4K2R w K - dm 1",
            "4k3/8/8/8/8/8/8/4K2R w K - dm 1;",
            "4k3/8/8/8/8/8/8/4K2R w K - c0 \"x\"",
            "4k3/8/8/8/8/8/8/4K2R w K -",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15",
            "4k3/8/8/8/8/8/8/4K2R w K - ;",
        ] {
            let text = with_operations(line, " trapdoor \"1\";");
            let Ok(Line::Position(rec)) = epd::parse_line(&text, 1) else {
                panic!("{text} is not read");
            };
            let trapdoor = rec.get("trapdoor").expect(line);
            assert_eq!(trapdoor.single(), Some("1"), "{line}");
            let last = rec.operations.iter().rev().nth(1);
            assert!(last.is_none_or(|o| o.operands.len() == 1), "{line}");
        }
    }

    /// A flag overrides the line's own operation of the same name.
    #[test]
    fn a_flag_overrides_the_lines_operation() {
        let flags = flag_opcodes(" trapdoor 2;");
        let text = with_flags(
            "4k3/8/8/8/8/8/8/4K2R w K - trapdoor 1; dm 1;",
            1,
            " trapdoor 2;",
            &flags,
        );
        let Ok(Line::Position(rec)) = epd::parse_line(&text, 1) else {
            panic!("{text} is not read");
        };
        assert_eq!(rec.get("trapdoor").and_then(|o| o.single()), Some("2"));
        assert_eq!(rec.get("dm").and_then(|o| o.single()), Some("1"));
    }
}
