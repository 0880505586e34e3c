//! Reading position lines from files, standard input or `--fen`, each with its location
//! (`FILE:LINE`), so that every message can say where it comes from.

use fairysolve::epd::{self, Line, Record};
use fairysolve::problem::{self, Problem};
use fairysolve::underworld::UnderworldProblem;
use std::io::Read;

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
            None => format!("{}: column {column}: {message}", self.source),
        }
    }

    fn file_part(&self) -> &str {
        self.file_and_line().map_or(&self.source, |(file, _)| file)
    }

    /// `FILE` and `LINE` of a `FILE:LINE` source (none for `--fen`).
    fn file_and_line(&self) -> Option<(&str, &str)> {
        self.source
            .rsplit_once(':')
            .filter(|(file, _)| !file.is_empty())
    }
}

/// Reads the lines of one named input (`-` for standard input).
fn read_source(name: &str) -> Result<Vec<u8>, String> {
    if name == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("{name}: cannot read standard input: {e}"))?;
        Ok(buf)
    } else {
        std::fs::read(name).map_err(|e| format!("{name}: cannot read: {e}"))
    }
}

/// The positions a command is given (`--fen` and FILEs, with its variant flags; the
/// command line holds one or the other, see the commands' `input` group).
pub fn command_input(
    files: &[String],
    fen: Option<&str>,
    variants: &super::VariantFlags,
) -> Vec<Item> {
    gather(files, fen, &variants.operations())
}

/// Every position line of the files and the `--fen` line; read errors become items
/// too, so no input is silently dropped. `extra_ops` are appended to `--fen`.
pub fn gather(files: &[String], fen: Option<&str>, extra_ops: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let flags = flag_opcodes(extra_ops);
    if let Some(fen) = fen {
        let text = with_flags(fen, 1, extra_ops, &flags);
        match epd::parse_line(&text, 1) {
            Ok(Line::Position(r)) => items.push(Item {
                source: "--fen".into(),
                record: Ok(*r),
            }),
            Ok(_) => items.push(Item {
                source: "--fen".into(),
                record: Err("--fen: no position given".into()),
            }),
            Err(e) => items.push(Item {
                source: "--fen".into(),
                record: Err(format!("--fen: {e}")),
            }),
        }
    }
    for name in files {
        let bytes = match read_source(name) {
            Ok(b) => b,
            Err(e) => {
                items.push(Item {
                    source: name.clone(),
                    record: Err(e),
                });
                continue;
            }
        };
        // A byte-order mark (some editors write one) is no part of the first line.
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let before = items.len();
        for (i, raw) in lines(bytes).enumerate() {
            let line_no = i + 1;
            let source = format!("{name}:{line_no}");
            let text = match std::str::from_utf8(raw) {
                Ok(t) => t,
                Err(e) => {
                    // Columns count characters: those of the valid part before.
                    let valid = &raw[..e.valid_up_to()];
                    let column = 1 + std::str::from_utf8(valid).map_or(0, |t| t.chars().count());
                    items.push(Item {
                        source,
                        record: Err(format!(
                            "{name}: line {line_no}, column {column}: not UTF-8 text"
                        )),
                    });
                    continue;
                }
            };
            let text = if text.trim().is_empty() || text.trim_start().starts_with('#') {
                text.to_string()
            } else {
                with_flags(text, line_no, extra_ops, &flags)
            };
            match epd::parse_line(&text, line_no) {
                Ok(Line::Position(r)) => items.push(Item {
                    source,
                    record: Ok(*r),
                }),
                Ok(_) => {}
                Err(e) => items.push(Item {
                    source,
                    record: Err(format!("{name}: {e}")),
                }),
            }
        }
        if items.len() == before {
            // Nothing to work on is a fault the user should hear of (exit status 1).
            let what = if name == "-" {
                "standard input"
            } else {
                name.as_str()
            };
            items.push(Item {
                source: name.clone(),
                record: Err(format!("{name}: no position line in {what}")),
            });
        }
    }
    items
}

/// The lines of `bytes`, ended by LF, CRLF or a lone CR (old Mac files), without their
/// ends.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(bytes);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                let skip = if text[i] == b'\r' && text.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                rest = Some(&text[i + skip..]);
                Some(&text[..i])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
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
    /// LF, CRLF and lone CR all end a line; the last line need not be ended.
    #[test]
    fn every_line_ending_counts() {
        let text = b"a\nb\r\nc\rd\r\re";
        let got: Vec<&[u8]> = lines(text).collect();
        let want: Vec<&[u8]> = vec![b"a", b"b", b"c", b"d", b"", b"e"];
        assert_eq!(got, want);
    }

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
