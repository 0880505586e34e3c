//! Popeye's input as words: the tokens of its input language with their line and column,
//! the rest of a line for the free-text commands (Author, Origin, Title, Remark), and
//! its way of matching keywords (any unique prefix, in any case).

/// Characters that separate tokens (Popeye's own list: blanks, line ends, `;` and `,`).
fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | ';' | ',')
}

/// Characters a token is made of: letters, digits and the signs of stipulations
/// (`h#2.5`, `ser-h#3`, `#=2`), twin mirrors (`a1<-->h1`) and Forsyth (`+.g2`).
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "#=+-%>!.<()~/&|:[]{}?".contains(c)
}

/// One token and where it starts (1-based line and column; columns count characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub line: usize,
    pub column: usize,
}

/// What the reader found next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    Token(Token),
    /// A character that is neither a separator nor part of any token (`*`, `"`, `é`).
    Stray(char, usize, usize),
    End,
}

/// A cursor over the text of one file.
pub struct Reader {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    column: usize,
}

impl Reader {
    pub fn new(text: &str) -> Reader {
        Reader {
            chars: text.chars().collect(),
            pos: 0,
            line: 1,
            column: 1,
        }
    }

    /// Where the reader stands (line, column).
    pub fn here(&self) -> (usize, usize) {
        (self.line, self.column)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        // CR LF, LF and a lone CR each end one line.
        let line_end = c == '\n' || (c == '\r' && self.peek() != Some('\n'));
        if line_end {
            self.line += 1;
            self.column = 1;
        } else if c != '\r' {
            self.column += 1;
        }
        Some(c)
    }

    /// The next token, skipping separators.
    pub fn next_word(&mut self) -> Next {
        while self.peek().is_some_and(is_separator) {
            self.bump();
        }
        let (line, column) = self.here();
        match self.peek() {
            None => Next::End,
            Some(c) if is_token_char(c) => {
                let mut text = String::new();
                while let Some(c) = self.peek().filter(|&c| is_token_char(c)) {
                    text.push(c);
                    self.bump();
                }
                Next::Token(Token { text, line, column })
            }
            Some(c) => {
                self.bump();
                Next::Stray(c, line, column)
            }
        }
    }

    /// The rest of the current line after a command word (Author, Title, ...), without
    /// the blanks and punctuation that lead it and the blanks that end it; empty when
    /// the command ends its line (as Popeye reads it, the text never comes from the
    /// next line).
    pub fn rest_of_line(&mut self) -> String {
        while self
            .peek()
            .is_some_and(|c| matches!(c, ' ' | '\t' | ';' | '.' | ','))
        {
            self.bump();
        }
        let mut text = String::new();
        while let Some(c) = self.peek().filter(|&c| c != '\n' && c != '\r') {
            text.push(c);
            self.bump();
        }
        text.trim_end().to_string()
    }
}

/// How a word matched a table of keywords.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Match {
    /// The index of the one keyword the word names.
    One(usize),
    /// The word is the start of several keywords and none of them in full.
    Ambiguous,
    None,
}

/// Popeye's keyword matching: the word must be the start of a keyword, in any case; the
/// first keyword it starts is taken when the word is all of it or starts no other.
pub fn keyword(table: &[&str], word: &str) -> Match {
    let starts = |k: &str| {
        k.len() >= word.len()
            && k.is_char_boundary(word.len())
            && k[..word.len()].eq_ignore_ascii_case(word)
    };
    if word.is_empty() {
        return Match::None;
    }
    let Some(first) = table.iter().position(|k| starts(k)) else {
        return Match::None;
    };
    if table[first].len() == word.len() || !table[first + 1..].iter().any(|k| starts(k)) {
        Match::One(first)
    } else {
        Match::Ambiguous
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(String, usize, usize)> {
        let mut r = Reader::new(text);
        let mut out = Vec::new();
        loop {
            match r.next_word() {
                Next::Token(t) => out.push((t.text, t.line, t.column)),
                Next::Stray(c, l, col) => out.push((format!("stray {c}"), l, col)),
                Next::End => return out,
            }
        }
    }

    #[test]
    fn tokens_carry_line_and_column() {
        assert_eq!(
            tokens("beg\r\n  pie white Ka1,Pb2;\rstip h#2.5 *"),
            vec![
                ("beg".into(), 1, 1),
                ("pie".into(), 2, 3),
                ("white".into(), 2, 7),
                ("Ka1".into(), 2, 13),
                ("Pb2".into(), 2, 17),
                ("stip".into(), 3, 1),
                ("h#2.5".into(), 3, 6),
                ("stray *".into(), 3, 12),
            ]
        );
    }

    #[test]
    fn free_text_is_the_rest_of_the_line() {
        let mut r = Reader::new("author  A. B. Composer \nnext");
        assert!(matches!(r.next_word(), Next::Token(t) if t.text == "author"));
        assert_eq!(r.rest_of_line(), "A. B. Composer");
        assert!(matches!(r.next_word(), Next::Token(t) if t.text == "next"));
        let mut r = Reader::new("author\nnext");
        r.next_word();
        assert_eq!(r.rest_of_line(), "");
    }

    #[test]
    fn keywords_match_any_unique_start() {
        let table = [
            "move",
            "exchange",
            "stipulation",
            "sstipulation",
            "continued",
            "condition",
        ];
        assert_eq!(keyword(&table, "MO"), Match::One(0));
        assert_eq!(keyword(&table, "st"), Match::One(2));
        assert_eq!(keyword(&table, "s"), Match::Ambiguous);
        assert_eq!(keyword(&table, "co"), Match::Ambiguous);
        assert_eq!(keyword(&table, "cont"), Match::One(4));
        assert_eq!(keyword(&table, "cond"), Match::One(5));
        assert_eq!(keyword(&table, "moves"), Match::None);
        assert_eq!(keyword(&["ab", "abc"], "ab"), Match::One(0));
    }
}
