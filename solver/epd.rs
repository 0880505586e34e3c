//! Position files (formats.md section 1): one position per line, the FEN fields then
//! operations `opcode operand ...;`. This module reads and writes the text faithfully;
//! what the operations mean is `problem`'s business.

use crate::fen::{self, FenError, Setup};
use std::fmt::Write as _;
use thiserror::Error;

/// A reading error, located in its line (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {message}")]
pub struct LineError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl LineError {
    pub fn new(line: usize, column0: usize, message: impl Into<String>) -> LineError {
        LineError {
            line,
            column: column0 + 1,
            message: message.into(),
        }
    }
}

/// One operand: a bare word or a quoted string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    Word(String),
    Quoted(String),
}

impl Operand {
    pub fn text(&self) -> &str {
        match self {
            Operand::Word(s) | Operand::Quoted(s) => s,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<Operand>,
    /// 0-based column of the opcode in its line, in characters.
    pub column: usize,
}

impl Operation {
    /// The single operand's text, or None when there is not exactly one.
    pub fn single(&self) -> Option<&str> {
        match self.operands.as_slice() {
            [one] => Some(one.text()),
            _ => None,
        }
    }
}

/// A position line as read: its FEN fields and operations in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub line: usize,
    pub setup: Setup,
    /// The FEN fields as written in the line (single-spaced), so a record is written
    /// back in its own spelling (X-FEN or Shredder-FEN castling, counters or none).
    pub fen_text: String,
    pub operations: Vec<Operation>,
}

impl Record {
    pub fn get(&self, opcode: &str) -> Option<&Operation> {
        self.operations.iter().find(|o| o.opcode == opcode)
    }

    pub fn id(&self) -> Option<&str> {
        self.get("id").and_then(|o| o.single())
    }
}

/// Opcodes of the EPD standard that are kept and written back untouched.
const STANDARD_OPCODES: &[&str] = &[
    "acd",
    "acn",
    "acs",
    "am",
    "bm",
    "c0",
    "c1",
    "c2",
    "c3",
    "c4",
    "c5",
    "c6",
    "c7",
    "c8",
    "c9",
    "ce",
    "dm",
    "draw_accept",
    "draw_claim",
    "draw_offer",
    "draw_reject",
    "eco",
    "fmvn",
    "hmvc",
    "id",
    "nic",
    "noop",
    "pm",
    "pv",
    "rc",
    "resign",
    "sm",
    "tcgs",
    "tcri",
    "tcsi",
    "v0",
    "v1",
    "v2",
    "v3",
    "v4",
    "v5",
    "v6",
    "v7",
    "v8",
    "v9",
];

/// The operations of the single-board games' rules (formats.md 1).
pub const SINGLE_BOARD_OPS: &[&str] = &[
    "trapdoor",
    "timers",
    "trapdoor_order",
    "taxi",
    "taxi_income",
    "taxi_start",
    "earthquake",
    "void",
    "aftershock",
];
/// The operations only an Underworld line carries.
pub const UNDERWORLD_OPS: &[&str] = &["underworld", "phase", "reserve", "homes", "u_ep"];
/// The operations only a Looking-Glass line carries.
pub const GLASS_OPS: &[&str] = &["mirror", "ep_board"];

/// Whether `opcode` is one of fairysolve's own operations (formats.md section 1): a
/// game's, the stipulation, or what `solve` is asked to show (`options`).
fn is_variant_opcode(opcode: &str) -> bool {
    opcode == "stip"
        || opcode == "options"
        || [SINGLE_BOARD_OPS, UNDERWORLD_OPS, GLASS_OPS]
            .iter()
            .any(|ops| ops.contains(&opcode))
}

/// `D1`..`D99`: an expected perft count, as perft suites write them (`;D1 20 ;D2 400`).
pub fn perft_depth(opcode: &str) -> Option<u32> {
    let n = opcode.strip_prefix('D')?;
    if n.is_empty() || n.len() > 2 || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok().filter(|&d| d >= 1)
}

/// Longest line read, in bytes (without its end); longer ones are refused rather than
/// processed, and the command line's readers skip them without holding them whole.
pub const MAX_LINE_LEN: usize = 64 * 1024;

/// What a line of a position file holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Blank,
    Comment,
    Position(Box<Record>),
}

/// Reads one line (`line_no` is 1-based, for messages). Columns in messages count
/// characters, as an editor does, not bytes.
pub fn parse_line(text: &str, line_no: usize) -> Result<Line, LineError> {
    let chars_before = |byte: usize| text.char_indices().take_while(|&(i, _)| i < byte).count();
    match parse_line_by_bytes(text, line_no) {
        Ok(Line::Position(mut rec)) => {
            for op in &mut rec.operations {
                op.column = chars_before(op.column);
            }
            Ok(Line::Position(rec))
        }
        Ok(line) => Ok(line),
        Err(mut e) => {
            e.column = 1 + chars_before(e.column - 1);
            Err(e)
        }
    }
}

/// `parse_line` with columns counted in bytes.
fn parse_line_by_bytes(text: &str, line_no: usize) -> Result<Line, LineError> {
    if text.len() > MAX_LINE_LEN {
        return Err(LineError::new(
            line_no,
            0,
            format!(
                "the line is {} bytes long, at most {MAX_LINE_LEN} are read",
                text.len()
            ),
        ));
    }
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Ok(Line::Blank);
    }
    if trimmed.starts_with('#') {
        return Ok(Line::Comment);
    }
    let located = |e: FenError| LineError::new(line_no, e.column, e.message);

    // The FEN fields end where the first operation starts: after four fields, or six
    // when the fifth and sixth are the move counters.
    let all = fen::fields(text);
    let numeric = |i: usize| {
        all.get(i)
            .map(|(_, t)| {
                // Digits, perhaps with the first operation's `;` glued on; a lone `;`
                // is a stray separator, not a counter.
                t.bytes().any(|b| b.is_ascii_digit())
                    && t.bytes().all(|b| b.is_ascii_digit() || b == b';')
            })
            .unwrap_or(false)
    };
    // A field that starts as a number does (`-5`, `1.5`) is a counter that is wrong,
    // not an operation: it is read as a counter, so the message names what it is.
    let counter_like = |i: usize| {
        all.get(i).is_some_and(|(_, t)| {
            let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
            digits.starts_with(|c: char| c.is_ascii_digit())
        })
    };
    let fen_count = if (numeric(4) && numeric(5)) || (counter_like(4) && counter_like(5)) {
        6
    } else {
        4
    };
    let mut fen_fields: Vec<(usize, &str)> = all.iter().take(fen_count).copied().collect();
    // A sixth field written with its `;` glued on ends the line's FEN too.
    if let Some(last) = fen_fields.last_mut() {
        if fen_count == 6 {
            last.1 = last.1.trim_end_matches(';');
        }
    }
    let rest_start = match all.get(fen_count) {
        Some(&(col, _)) => col,
        None => text.len(),
    };
    let setup = match fen::parse_fields(&fen_fields) {
        Ok(setup) => setup,
        Err(e) => {
            // Looking-Glass castling rights name rooks on either board (rules.md 5.8a):
            // its own reader checks the field against both, so here it is set aside.
            let glass = parse_operations(text, rest_start, line_no)
                .is_ok_and(|ops| ops.iter().any(|o| o.opcode == "mirror"));
            if !glass || fen_fields.len() < 3 {
                return Err(located(e));
            }
            let mut without_castling = fen_fields.clone();
            without_castling[2].1 = "-";
            fen::parse_fields(&without_castling).map_err(|_| located(e))?
        }
    };
    // A halfmove clock alone, or one that is no number, once the FEN fields before it
    // are read.
    if counter_like(4) && !counter_like(5) {
        let (column, field) = all[4];
        let field = field.trim_end_matches(';');
        return Err(match field.parse::<u32>() {
            Ok(_) => LineError::new(
                line_no,
                column + field.len(),
                format!("the move number is missing after the halfmove clock '{field}'"),
            ),
            Err(_) => LineError::new(
                line_no,
                column,
                format!("the halfmove clock '{field}' is not a number"),
            ),
        });
    }
    // The counters' glued `;`, if any, belongs to no operation.
    let operations = parse_operations(text, rest_start, line_no)?;
    Ok(Line::Position(Box::new(Record {
        line: line_no,
        setup,
        fen_text: fen_fields
            .iter()
            .map(|(_, t)| *t)
            .collect::<Vec<_>>()
            .join(" "),
        operations,
    })))
}

fn is_opcode(word: &str) -> bool {
    let mut chars = word.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Reads `opcode operand ...;` sequences from `text[start..]`.
fn parse_operations(text: &str, start: usize, line_no: usize) -> Result<Vec<Operation>, LineError> {
    let bytes = text.as_bytes();
    let mut i = start;
    let mut ops: Vec<Operation> = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < bytes.len() && (bytes[*i] as char).is_ascii_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_ws(&mut i);
        if i >= bytes.len() {
            break;
        }
        if bytes[i] == b';' {
            // A stray separator (e.g. after the move counters).
            i += 1;
            continue;
        }
        // Opcode.
        let op_start = i;
        while i < bytes.len() && !(bytes[i] as char).is_ascii_whitespace() && bytes[i] != b';' {
            i += 1;
        }
        let opcode = &text[op_start..i];
        if !is_opcode(opcode) {
            // A stipulation written as in a problem's heading: say how a line writes it.
            let hint = if opcode.contains('#') {
                format!(" (a stipulation is written stip \"{opcode}\";)")
            } else {
                String::new()
            };
            return Err(LineError::new(
                line_no,
                op_start,
                format!("'{opcode}' is not an operation name{hint}"),
            ));
        }
        if !STANDARD_OPCODES.contains(&opcode)
            && !is_variant_opcode(opcode)
            && perft_depth(opcode).is_none()
        {
            return Err(LineError::new(
                line_no,
                op_start,
                format!("unknown operation '{opcode}'"),
            ));
        }
        if ops.iter().any(|o| o.opcode == opcode) {
            return Err(LineError::new(
                line_no,
                op_start,
                format!("operation '{opcode}' is given twice"),
            ));
        }
        // Operands up to the `;`.
        let mut operands = Vec::new();
        loop {
            skip_ws(&mut i);
            if i >= bytes.len() {
                // The last operation of a line may omit its ';' (perft suites do).
                break;
            }
            match bytes[i] {
                b';' => {
                    i += 1;
                    break;
                }
                b'"' => {
                    let q_start = i;
                    i += 1;
                    let mut s = String::new();
                    loop {
                        match text[i..].chars().next() {
                            None => {
                                return Err(LineError::new(
                                    line_no,
                                    q_start,
                                    "a quoted operand has no closing '\"'",
                                ))
                            }
                            Some('"') => {
                                i += 1;
                                break;
                            }
                            Some('\\') if matches!(bytes.get(i + 1), Some(b'"') | Some(b'\\')) => {
                                s.push(bytes[i + 1] as char);
                                i += 2;
                            }
                            Some(c) => {
                                s.push(c);
                                i += c.len_utf8();
                            }
                        }
                    }
                    operands.push(Operand::Quoted(s));
                }
                _ => {
                    let w_start = i;
                    while i < bytes.len()
                        && !(bytes[i] as char).is_ascii_whitespace()
                        && bytes[i] != b';'
                        && bytes[i] != b'"'
                    {
                        i += 1;
                    }
                    operands.push(Operand::Word(text[w_start..i].to_string()));
                }
            }
        }
        // A name or a comment that says nothing is a slip (`id;`), and an id of many
        // words would be lost (`id` names a position with one operand, quoted).
        let comment =
            opcode.len() == 2 && opcode.starts_with('c') && opcode.as_bytes()[1].is_ascii_digit();
        if (opcode == "id" && operands.len() != 1) || (comment && operands.is_empty()) {
            let what = if comment { "a comment" } else { "a name" };
            return Err(LineError::new(
                line_no,
                op_start,
                format!(
                    "{opcode}: one operand expected ({what} in quotes), {} given",
                    operands.len()
                ),
            ));
        }
        ops.push(Operation {
            opcode: opcode.to_string(),
            operands,
            column: op_start,
        });
    }
    Ok(ops)
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Writes operations in the order given, `opcode operand ...;` separated by spaces.
pub fn write_operations(ops: &[Operation]) -> String {
    let mut out = String::new();
    for op in ops {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&op.opcode);
        for operand in &op.operands {
            match operand {
                Operand::Word(w) => write!(out, " {w}").unwrap(),
                Operand::Quoted(q) => write!(out, " {}", quote(q)).unwrap(),
            }
        }
        out.push(';');
    }
    out
}

/// Writes a record back as a line: the same fields and operations it was read with.
pub fn write_record(rec: &Record) -> String {
    let mut out = rec.fen_text.clone();
    let ops = write_operations(&rec.operations);
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops);
    }
    out
}

/// Reads a whole file's text: every line's result, with blank and comment lines left
/// out. One bad line never stops the others.
pub fn parse_text(text: &str) -> Vec<Result<Record, LineError>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| match parse_line(line, i + 1) {
            Ok(Line::Position(r)) => Some(Ok(*r)),
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        })
        .collect()
}
