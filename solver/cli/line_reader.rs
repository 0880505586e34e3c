//! Lines of a file or a pipe, read as they come: ended by LF, CRLF or a lone CR (old
//! Mac files), with a bound on their length so that no input (`/dev/zero`, a binary
//! file) is ever held whole in memory.

use fairysolve::epd::MAX_LINE_LEN;
use std::io::{BufRead, ErrorKind};

/// One line read, without its end.
#[derive(Debug, PartialEq, Eq)]
pub enum RawLine {
    Text(Vec<u8>),
    /// Longer than `MAX_LINE_LEN` bytes: skipped up to its end without being kept.
    TooLong,
}

pub struct LineReader {
    input: Box<dyn BufRead>,
    /// The last line ended with a CR: an LF right after it belongs to that end (CRLF).
    /// Remembered rather than looked for at once, so that a line ended by a lone CR is
    /// handed on without waiting for the next byte of a pipe.
    after_cr: bool,
}

impl LineReader {
    pub fn new(input: Box<dyn BufRead>) -> LineReader {
        LineReader {
            input,
            after_cr: false,
        }
    }

    /// The next line, or None at the end of the input. A last line without an end
    /// counts; an input that ends right after a line end has no empty line after it.
    pub fn next_line(&mut self) -> Option<std::io::Result<RawLine>> {
        let mut line = Vec::new();
        let mut too_long = false;
        let mut started = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Some(Err(e)),
            };
            if buf.is_empty() {
                if !started {
                    return None;
                }
                break;
            }
            if std::mem::take(&mut self.after_cr) && buf[0] == b'\n' {
                self.input.consume(1);
                continue;
            }
            started = true;
            let end = buf.iter().position(|&b| b == b'\n' || b == b'\r');
            let take = end.unwrap_or(buf.len());
            if !too_long {
                if line.len() + take > MAX_LINE_LEN {
                    // From here on the line is only skipped.
                    too_long = true;
                    line = Vec::new();
                } else {
                    line.extend_from_slice(&buf[..take]);
                }
            }
            match end {
                Some(i) => {
                    self.after_cr = buf[i] == b'\r';
                    self.input.consume(i + 1);
                    break;
                }
                None => self.input.consume(take),
            }
        }
        Some(Ok(if too_long {
            RawLine::TooLong
        } else {
            RawLine::Text(line)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &'static [u8]) -> Vec<RawLine> {
        // A one-byte buffer splits every end from its line, and a CRLF across reads.
        let input = std::io::BufReader::with_capacity(1, bytes);
        let mut reader = LineReader::new(Box::new(input));
        std::iter::from_fn(|| reader.next_line().map(|r| r.expect("in memory"))).collect()
    }

    fn text(t: &[u8]) -> RawLine {
        RawLine::Text(t.to_vec())
    }

    /// LF, CRLF and lone CR all end a line; the last line need not be ended.
    #[test]
    fn every_line_ending_counts() {
        let got = lines_of(b"a\nb\r\nc\rd\r\re");
        let want = vec![
            text(b"a"),
            text(b"b"),
            text(b"c"),
            text(b"d"),
            text(b""),
            text(b"e"),
        ];
        assert_eq!(got, want);
        assert_eq!(lines_of(b"a\r\n"), vec![text(b"a")]);
        assert_eq!(lines_of(b""), Vec::new());
        assert_eq!(lines_of(b"\n"), vec![text(b"")]);
    }

    /// A line over the bound is skipped to its end, and the next one is read.
    #[test]
    fn a_long_line_is_skipped() {
        let mut bytes = vec![0u8; MAX_LINE_LEN + 1];
        bytes.extend_from_slice(b"\r\nok");
        let input = std::io::Cursor::new(bytes);
        let mut reader = LineReader::new(Box::new(input));
        assert_eq!(reader.next_line().unwrap().unwrap(), RawLine::TooLong);
        assert_eq!(reader.next_line().unwrap().unwrap(), text(b"ok"));
        assert!(reader.next_line().is_none());
        let exact = vec![b'x'; MAX_LINE_LEN];
        let mut reader = LineReader::new(Box::new(std::io::Cursor::new(exact.clone())));
        assert_eq!(reader.next_line().unwrap().unwrap(), RawLine::Text(exact));
    }
}
