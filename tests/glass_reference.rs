//! Through the Looking-Glass perft (rules.md 5, 5.8 and 7.1) checked against an
//! independent reference: `mod reference` below plays the game move by move on two
//! 64-square mailboxes and uses no code of the library; only the comparisons call
//! `fairysolve::glass::{perft_line, divide_line}`.
//!
//! Divide keys (both sides use them): the board the move is played on, then the
//! from- and to-square: `R:e2e4`, `M:g8f6`; a promotion letter in lower case
//! `R:e7e8q`; castling as the king taking its own rook `R:e1h1` (5.8a).

mod reference {
    //! Looking-Glass played move by move on two 64-square mailboxes, for clarity only.
    //! Squares are `rank * 8 + file` (a1 = 0, h8 = 63), files 0..8 = a..h; boards are
    //! `REAL` (0) and `MIRROR` (1).

    use std::collections::BTreeMap;
    use std::ops::RangeInclusive;

    /// A man: its colour and its kind ('P', 'N', 'B', 'R', 'Q', 'K').
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Man {
        pub white: bool,
        pub kind: char,
    }

    pub type Board = [Option<Man>; 64];

    pub const REAL: usize = 0;
    pub const MIRROR: usize = 1;
    const BOARD_NAMES: [&str; 2] = ["R", "M"];

    /// A position line's content (formats.md 1): both boards (rule 5: one set of men,
    /// each on one board), the side to move, the castling rights (rule 5.8a: a colour
    /// and a rook square on the board where that colour's king stands on its first
    /// rank), the e.p. square with its `ep_board` (rules 5.4, 5.8b).
    #[derive(Clone, Debug, PartialEq)]
    pub struct Pos {
        pub boards: [Board; 2],
        pub white: bool,
        pub rights: Vec<(bool, usize)>,
        pub ep: Option<(usize, usize)>,
    }

    /// What a move does beyond moving one man from `from` to `to` on its board.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Kind {
        Plain,
        /// A pawn double step: it leaves an e.p. square on its board (5.8b).
        Double,
        /// Rule 5.8b: the double-stepped pawn taken on `victim` of board `victim_board`.
        EnPassant {
            victim_board: usize,
            victim: usize,
        },
        /// Rule 5.8a: `from` is the king, `to` its rook; both go to their destinations.
        Castle {
            king_to: usize,
            rook_to: usize,
        },
    }

    /// One move: the board it is played on (rule 5.2: a man moves on its own board).
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Move {
        pub board: usize,
        pub from: usize,
        pub to: usize,
        pub promo: Option<char>,
        pub kind: Kind,
    }

    /// A step (file, rank) of a man's move.
    type Dir = (i32, i32);
    #[rustfmt::skip]
    const KNIGHT: [Dir; 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    #[rustfmt::skip]
    const KING: [Dir; 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    const ROOK: [Dir; 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    const BISHOP: [Dir; 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

    fn sq(f: i32, r: i32) -> Option<usize> {
        ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
    }

    fn file(s: usize) -> i32 {
        (s % 8) as i32
    }

    fn rank(s: usize) -> i32 {
        (s / 8) as i32
    }

    fn name(s: usize) -> String {
        format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
    }

    pub fn parse_square(t: &str) -> Option<usize> {
        let b = t.as_bytes();
        if b.len() != 2 {
            return None;
        }
        sq(
            i32::from(b[0]) - i32::from(b'a'),
            i32::from(b[1]) - i32::from(b'1'),
        )
    }

    /// The first rank of a colour (index 0 for White, 7 for Black).
    fn first_rank(white: bool) -> i32 {
        if white {
            0
        } else {
            7
        }
    }

    /// The board and square of a colour's king (rule 7.2: exactly one a side).
    pub fn king(pos: &Pos, white: bool) -> Option<(usize, usize)> {
        let is_king = |m: &Option<Man>| *m == Some(Man { white, kind: 'K' });
        (0..2).find_map(|b| pos.boards[b].iter().position(is_king).map(|s| (b, s)))
    }

    /// The divide key of a move (formats.md 2: board prefix, squares, promotion letter;
    /// castling as the king taking its rook).
    pub fn key(mv: &Move) -> String {
        let promo = mv
            .promo
            .map_or(String::new(), |p| p.to_ascii_lowercase().to_string());
        let (b, from, to) = (BOARD_NAMES[mv.board], name(mv.from), name(mv.to));
        format!("{b}:{from}{to}{promo}")
    }

    /// Rule 5.2 with FIDE movement: the moves of a knight, bishop, rook, queen or king
    /// on board `b`; only men of that board block or are captured.
    fn piece_moves(pos: &Pos, b: usize, from: usize, man: Man, out: &mut Vec<Move>) {
        let board = &pos.boards[b];
        let (dirs, rides): (&[Dir], bool) = match man.kind {
            'N' => (&KNIGHT, false),
            'K' => (&KING, false),
            'B' => (&BISHOP, true),
            'R' => (&ROOK, true),
            _ => (&KING, true),
        };
        for &(df, dr) in dirs {
            let mut step = 1;
            while let Some(to) = sq(file(from) + step * df, rank(from) + step * dr) {
                if board[to].is_some_and(|m| m.white == man.white) {
                    break;
                }
                let kind = Kind::Plain;
                out.push(Move {
                    board: b,
                    from,
                    to,
                    promo: None,
                    kind,
                });
                if !rides || board[to].is_some() {
                    break;
                }
                step += 1;
            }
        }
    }

    /// Rule 5.8b: the e.p. capture onto `to` by a pawn of `white` on board `b`: the
    /// pawn must stand on `ep_board`, `to` must be the e.p. square and empty there,
    /// and the pawn taken is the double-stepped one (on `ep_board` if still there,
    /// else on the same square of the other board).
    fn en_passant(pos: &Pos, b: usize, to: usize, white: bool) -> Option<Kind> {
        if pos.ep != Some((to, b)) || pos.boards[b][to].is_some() {
            return None;
        }
        let victim = sq(file(to), rank(to) + if white { -1 } else { 1 })?;
        let pawn = Some(Man {
            white: !white,
            kind: 'P',
        });
        let victim_board = [b, 1 - b]
            .into_iter()
            .find(|&vb| pos.boards[vb][victim] == pawn)?;
        Some(Kind::EnPassant {
            victim_board,
            victim,
        })
    }

    /// FIDE pawn moves on board `b` (rule 5.2): pushes and captures see only board `b`;
    /// a double step from the second rank; promotion to Q, R, B or N; e.p. by 5.8b.
    fn pawn_moves(pos: &Pos, b: usize, from: usize, white: bool, out: &mut Vec<Move>) {
        let board = &pos.boards[b];
        let dr = if white { 1 } else { -1 };
        let (f, r) = (file(from), rank(from));
        let mut add = |to: usize, kind: Kind| {
            let promos: &[Option<char>] = if rank(to) == first_rank(!white) {
                &[Some('Q'), Some('R'), Some('B'), Some('N')]
            } else {
                &[None]
            };
            for &promo in promos {
                out.push(Move {
                    board: b,
                    from,
                    to,
                    promo,
                    kind,
                });
            }
        };
        if let Some(to) = sq(f, r + dr).filter(|&t| board[t].is_none()) {
            add(to, Kind::Plain);
            let second = first_rank(white) + dr;
            if let Some(to2) = sq(f, r + 2 * dr).filter(|&t| r == second && board[t].is_none()) {
                add(to2, Kind::Double);
            }
        }
        for df in [-1, 1] {
            let Some(to) = sq(f + df, r + dr) else {
                continue;
            };
            if board[to].is_some_and(|m| m.white != white) {
                add(to, Kind::Plain);
            } else if let Some(kind) = en_passant(pos, b, to, white) {
                add(to, kind);
            }
        }
    }

    /// The squares from `a` to `b` on one rank, both included.
    fn span(a: usize, b: usize) -> RangeInclusive<usize> {
        a.min(b)..=a.max(b)
    }

    /// Rules 5.3 and 5.8a: castling with each right of the side to move, on the board
    /// of its king, by the Chess960 rule (king to g/c, rook to f/d of the first rank;
    /// every square between each of them and its destination empty but for the two),
    /// with no condition of check.
    fn castlings(pos: &Pos, out: &mut Vec<Move>) {
        let Some((b, k)) = king(pos, pos.white) else {
            return;
        };
        let board = &pos.boards[b];
        for &(white, rook) in &pos.rights {
            let own_rook = board[rook] == Some(Man { white, kind: 'R' });
            if white != pos.white || !own_rook || rank(k) != first_rank(white) {
                continue;
            }
            let base = first_rank(white) as usize * 8;
            let (king_to, rook_to) = if rook > k {
                (base + 6, base + 5)
            } else {
                (base + 2, base + 3)
            };
            let mut path = span(k, king_to).chain(span(rook, rook_to));
            if path.all(|t| t == k || t == rook || board[t].is_none()) {
                let kind = Kind::Castle { king_to, rook_to };
                out.push(Move {
                    board: b,
                    from: k,
                    to: rook,
                    promo: None,
                    kind,
                });
            }
        }
    }

    /// Every move of the side to move, on both boards (rules 5.2, 5.3: no check, so
    /// every pseudo-legal move is legal). Empty: stalemate (5.5).
    pub fn moves(pos: &Pos) -> Vec<Move> {
        let mut out = Vec::new();
        for b in [REAL, MIRROR] {
            for (s, m) in pos.boards[b].iter().enumerate() {
                match m {
                    Some(m) if m.white == pos.white && m.kind == 'P' => {
                        pawn_moves(pos, b, s, m.white, &mut out)
                    }
                    Some(m) if m.white == pos.white => piece_moves(pos, b, s, *m, &mut out),
                    _ => {}
                }
            }
        }
        castlings(pos, &mut out);
        out
    }

    /// Plays a move; true when it captured the enemy king (rule 5.3: the game is won).
    /// Rule 5.2: when the move ends, the moved man (the promoted piece, 5.8) passes to
    /// the same square of the other board if that square is empty there, else stays;
    /// after castling king and rook each pass or stay on their own, also when castling
    /// left one of them on its own square (5.8a).
    pub fn play(pos: &Pos, mv: &Move) -> (Pos, bool) {
        let mut next = pos.clone();
        let (b, other) = (mv.board, 1 - mv.board);
        let man = next.boards[b][mv.from]
            .take()
            .expect("a man on the from-square");
        let mut won = false;
        let landed = match mv.kind {
            Kind::Castle { king_to, rook_to } => {
                let rook = next.boards[b][mv.to].take();
                next.boards[b][king_to] = Some(man);
                next.boards[b][rook_to] = rook;
                vec![king_to, rook_to]
            }
            Kind::EnPassant {
                victim_board,
                victim,
            } => {
                next.boards[victim_board][victim] = None;
                next.boards[b][mv.to] = Some(man);
                vec![mv.to]
            }
            Kind::Plain | Kind::Double => {
                won = next.boards[b][mv.to].is_some_and(|m| m.kind == 'K');
                let kind = mv.promo.unwrap_or(man.kind);
                next.boards[b][mv.to] = Some(Man { kind, ..man });
                vec![mv.to]
            }
        };
        for s in landed {
            if next.boards[other][s].is_none() {
                next.boards[other][s] = next.boards[b][s].take();
            }
        }
        // Castling rights (5.8a) are lost when the king moves, or when the right's
        // rook (on its king's board) moves or is captured there.
        let king_board = |white: bool| king(pos, white).map(|(kb, _)| kb);
        next.rights.retain(|&(white, rook)| {
            let king_moved = man == Man { white, kind: 'K' };
            let rook_touched = king_board(white) == Some(b) && (mv.from == rook || mv.to == rook);
            !king_moved && !rook_touched
        });
        // Rule 5.8b: a double step writes its e.p. square and the board it was played on.
        next.ep = (mv.kind == Kind::Double).then_some(((mv.from + mv.to) / 2, b));
        next.white = !pos.white;
        (next, won)
    }

    /// Rule 7.1: the number of move sequences of exactly `depth` plies; a game won by a
    /// king capture before the last ply adds nothing, one on the last ply counts.
    /// At depth 1 every move counts once, a king capture included: the count of moves.
    pub fn perft(pos: &Pos, depth: u32) -> u64 {
        match depth {
            0 => return 1,
            1 => return moves(pos).len() as u64,
            _ => {}
        }
        let mut total = 0;
        for mv in moves(pos) {
            let (next, won) = play(pos, &mv);
            if !won {
                total += perft(&next, depth - 1);
            }
        }
        total
    }

    /// Perft split by first move (depth >= 1), keys as `key` writes them.
    pub fn divide(pos: &Pos, depth: u32) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for mv in moves(pos) {
            let (next, won) = play(pos, &mv);
            let n = match (won, depth) {
                (true, 1) => 1,
                (true, _) => 0,
                (false, _) => perft(&next, depth - 1),
            };
            *out.entry(key(&mv)).or_insert(0) += n;
        }
        out
    }

    fn parse_board(text: &str) -> Result<Board, String> {
        let mut board = [None; 64];
        let bad = || format!("bad placement {text:?}");
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != 8 {
            return Err(bad());
        }
        for (i, row) in rows.iter().enumerate() {
            let mut f = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as i32;
                    continue;
                }
                let kind = c.to_ascii_uppercase();
                let s = sq(f, 7 - i as i32).filter(|_| "PNBRQK".contains(kind));
                board[s.ok_or_else(bad)?] = Some(Man {
                    white: c == kind,
                    kind,
                });
                f += 1;
            }
            if f != 8 {
                return Err(bad());
            }
        }
        Ok(board)
    }

    fn write_board(board: &Board) -> String {
        let mut rows = Vec::new();
        for r in (0..8).rev() {
            let (mut row, mut gap) = (String::new(), 0);
            for m in &board[r * 8..r * 8 + 8] {
                match m {
                    None => gap += 1,
                    Some(m) => {
                        if gap > 0 {
                            row += &gap.to_string();
                        }
                        let c = if m.white {
                            m.kind
                        } else {
                            m.kind.to_ascii_lowercase()
                        };
                        row.push(c);
                        gap = 0;
                    }
                }
            }
            if gap > 0 {
                row += &gap.to_string();
            }
            rows.push(row);
        }
        rows.join("/")
    }

    /// Rule 5.8a: one castling letter. The king of that colour must stand on its first
    /// rank; the rook square is on that board: Shredder letters name the rook's file,
    /// K/Q (k/q) the outermost rook on that side of the king.
    fn parse_right(pos: &Pos, c: char) -> Result<(bool, usize), String> {
        let white = c.is_ascii_uppercase();
        let bad = || format!("castling {c}: no such right");
        let (b, k) = king(pos, white).ok_or_else(bad)?;
        let base = first_rank(white) * 8;
        if rank(k) != first_rank(white) {
            return Err(bad());
        }
        let is_rook =
            |f: &i32| pos.boards[b][(base + f) as usize] == Some(Man { white, kind: 'R' });
        let rook_file = match c.to_ascii_lowercase() {
            'k' => (file(k) + 1..8).rev().find(is_rook),
            'q' => (0..file(k)).find(is_rook),
            l @ 'a'..='h' => Some(l as i32 - 'a' as i32).filter(|f| is_rook(f) && *f != file(k)),
            _ => None,
        };
        Ok((white, (base + rook_file.ok_or_else(bad)?) as usize))
    }

    /// The operations of a line after the four FEN fields, as (opcode, operand) with
    /// quotes removed; a `;` inside quotes does not end an operation.
    fn operations(text: &str) -> Vec<(String, String)> {
        let (mut ops, mut current, mut quoted) = (Vec::new(), String::new(), false);
        for c in text.chars() {
            match c {
                '"' => quoted = !quoted,
                ';' if !quoted => ops.push(std::mem::take(&mut current)),
                _ => current.push(c),
            }
        }
        ops.push(current);
        let split = |op: &String| {
            let op = op.trim();
            let (code, arg) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
            (code.to_string(), arg.trim().to_string())
        };
        ops.iter()
            .map(split)
            .filter(|(code, _)| !code.is_empty())
            .collect()
    }

    /// Reads a position line (formats.md 1): the Real board as the first four FEN
    /// fields (six-field FEN accepted), then the operations `mirror` (the Mirror
    /// board) and `ep_board` (required with an e.p. square, 5.8b); others are ignored.
    pub fn parse(line: &str) -> Result<Pos, String> {
        let mut rest = line.trim();
        let mut fields = Vec::new();
        for _ in 0..6 {
            let (word, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let counter = fields.len() >= 4 && word.parse::<u32>().is_ok();
            if !(fields.len() < 4 || counter) {
                break;
            }
            fields.push(word);
            rest = tail.trim_start();
        }
        if fields.len() < 4 {
            return Err("fewer than four FEN fields".into());
        }
        let mut mirror = None;
        let mut ep_board = None;
        for (code, arg) in operations(rest) {
            match code.as_str() {
                "mirror" => mirror = Some(parse_board(&arg)?),
                "ep_board" if arg == "R" => ep_board = Some(REAL),
                "ep_board" if arg == "M" => ep_board = Some(MIRROR),
                "ep_board" => return Err(format!("bad ep_board {arg:?}")),
                _ => {}
            }
        }
        let white = match fields[1] {
            "w" => true,
            "b" => false,
            s => return Err(format!("bad side {s:?}")),
        };
        let boards = [
            parse_board(fields[0])?,
            mirror.ok_or("no mirror operation")?,
        ];
        let mut pos = Pos {
            boards,
            white,
            rights: Vec::new(),
            ep: None,
        };
        for w in [true, false] {
            let kings = pos.boards.iter().flatten().flatten();
            if kings
                .filter(|m| {
                    **m == Man {
                        white: w,
                        kind: 'K',
                    }
                })
                .count()
                != 1
            {
                return Err("not exactly one king a side".into());
            }
        }
        if fields[2] != "-" {
            for c in fields[2].chars() {
                let right = parse_right(&pos, c)?;
                if !pos.rights.contains(&right) {
                    pos.rights.push(right);
                }
            }
        }
        if fields[3] != "-" {
            let ep = parse_square(fields[3]).ok_or(format!("bad e.p. square {:?}", fields[3]))?;
            if rank(ep) != if white { 5 } else { 2 } {
                return Err(format!("e.p. square {} on the wrong rank", fields[3]));
            }
            pos.ep = Some((ep, ep_board.ok_or("an e.p. square needs ep_board")?));
        }
        Ok(pos)
    }

    /// Writes a position as a line that `parse` and the production reader read:
    /// castling in Shredder-FEN (White's letters first, files from h to a).
    pub fn to_line(pos: &Pos) -> String {
        let mut rights = pos.rights.clone();
        rights.sort_by_key(|&(white, rook)| (!white, std::cmp::Reverse(file(rook))));
        let letter = |&(white, rook): &(bool, usize)| {
            let c = (b'a' + file(rook) as u8) as char;
            if white {
                c.to_ascii_uppercase()
            } else {
                c
            }
        };
        let mut castling: String = rights.iter().map(letter).collect();
        if castling.is_empty() {
            castling.push('-');
        }
        let side = if pos.white { "w" } else { "b" };
        let ep = pos.ep.map_or("-".to_string(), |(s, _)| name(s));
        let (real, mirror) = (
            write_board(&pos.boards[REAL]),
            write_board(&pos.boards[MIRROR]),
        );
        let mut line = format!("{real} {side} {castling} {ep} mirror \"{mirror}\";");
        if let Some((_, b)) = pos.ep {
            line += &format!(" ep_board {};", BOARD_NAMES[b]);
        }
        line
    }
}

use fairysolve::glass::{divide_line, perft_line};
use reference::{divide, key, moves, parse, parse_square, perft, play, to_line, Pos};
use std::collections::{BTreeMap, BTreeSet};

/// The table: a `#` line says what the next case exercises and under which rule; a
/// case is `name depth perft | position line`, the counts computed by the reference.
const CASES: &str = r#"
# 5.1 standard array on both boards, X-FEN KQkq: the armies meet only through passes (5.2).
standard 5 7322717 | 8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - mirror "rnbqkbnr/pppppppp/8/8/8/8/8/8";
# 5.1 independent Chess960 pair BBQNNRKR / NRKBBQRN, Shredder rights (5.8a): castlings blocked by the other rook.
c960a 5 6377188 | 8/8/8/8/8/8/PPPPPPPP/BBQNNRKR w HFgb - mirror "nrkbbqrn/pppppppp/8/8/8/8/8/8";
# 5.1 pair QRBKNBRN / RKRBBNNQ, X-FEN KQkq read as the outermost rooks on each side (5.8a).
c960b 5 6717869 | 8/8/8/8/8/8/PPPPPPPP/QRBKNBRN w KQkq - mirror "rkrbbnnq/pppppppp/8/8/8/8/8/8";
# 5.1 pair NRKRBBQN / BQRKRNNB, Shredder rights DBec (5.8a).
c960c 5 6446373 | 8/8/8/8/8/8/PPPPPPPP/NRKRBBQN w DBec - mirror "bqrkrnnb/pppppppp/8/8/8/8/8/8";
# 5.1 pair RKRNNQBB / standard, Shredder rights CAha: two different arrays for the two sides.
c960d 5 7669055 | 8/8/8/8/8/8/PPPPPPPP/RKRNNQBB w CAha - mirror "rnbqkbnr/pppppppp/8/8/8/8/8/8";
# 5.2 blocked passes: single steps of both sides land on squares occupied on the other board and stay.
blocked 4 485738 | 8/8/8/8/8/8/PPPPPPPP/R3K2R w - - mirror "r3k2r/8/8/8/8/pppppppp/8/8";
# 5.2/5.8a split castling: e1h1 king stays (M g1 taken), rook passes; e1a1 king passes, rook stays (M d1 taken); Rxa1 ends a right.
split 4 459606 | r7/8/8/8/8/8/8/R3K2R w KQ - mirror "4k3/8/8/8/8/8/8/3n2n1";
# 5.8a Chess960 castling that leaves a man on its own square: Kg1 (H) stays and passes, M rook d8 (d) stays and passes.
castle960 4 710259 | 8/8/8/8/8/8/8/1R4KR w HBhd - mirror "3rk2r/8/8/8/8/8/8/5b2";
# 5.8a rights on the board where the king stands: White castles on M, Black on R.
castleM 5 1629547 | r3k3/8/8/8/8/8/8/8 w Ha - mirror "8/8/8/8/8/8/8/4K2R";
# 5.4/5.8b e.p. on ep_board M of a pawn that passed to R d5; R c5 (not on ep_board) may not; capturers stay (R d6 taken).
ep_passed 6 2021887 | 8/8/3n4/2Pp4/8/8/8/4K3 w - d6 mirror "4k3/8/8/2P1P3/8/8/8/8"; ep_board M;
# 5.8b e.p. on ep_board R of the pawn that stayed there (M e4 taken); the capturer passes to M e3.
ep_stayed 6 936476 | 4k3/8/8/8/3pP3/8/8/4K3 b - e3 mirror "8/8/8/8/4n3/8/8/8"; ep_board R;
# 5.8b double steps in play: e2e4/g2g4 pass to M and are taken from R d4/f4; c2c4 stays (M c4 taken).
ep_dyn 6 4656396 | 4k3/8/8/8/3p1p2/8/2P1P1P1/4K3 w - - mirror "8/8/8/8/2n4p/8/8/8";
# 5.8 promotions: b8 stays (M b8 taken), xa8 passes, xc8 stays; g2g1 passes, g2xh1 stays; promoted men take the king.
promo 4 607669 | r1b5/1P6/8/8/8/8/8/4K2R w - - mirror "1nk5/8/8/8/8/8/6p1/7N";
# 5.3/7.1 king captures at ply 1 (Qxd8) and later (d2xe1 promotes taking the king, four ways): counted only on the last ply.
kingcap 5 1405669 | 3k4/8/8/8/7Q/8/3p4/3RK3 w - - mirror "8/8/8/8/8/8/8/8";
# 5.5 stalemate inside the tree: White's wall has no move on either board unless Black's rook takes a7.
stalemate 6 367522 | RBBQKBBR/PPPPPPPP/8/8/8/8/8/r7 b - - mirror "8/8/8/8/8/8/8/7k";
# 5.5 stalemate at the root: no move on either board, no sequence at all.
stalemate0 2 0 | RBBQKBBR/PPPPPPPP/8/8/8/8/8/r7 w - - mirror "8/8/8/8/8/8/8/7k";
"#;

fn cases() -> Vec<(&'static str, u32, u64, &'static str)> {
    let case = |row: &'static str| {
        let (head, line) = row.split_once(" | ").expect("name depth perft | line");
        let [name, depth, count] = head.split(' ').collect::<Vec<_>>()[..] else {
            panic!("not `name depth perft`: {head}")
        };
        let depth = depth.parse().expect("a depth");
        (name, depth, count.parse().expect("a count"), line)
    };
    let rows = CASES.lines().filter(|l| l.contains(" | "));
    rows.map(case).collect()
}

#[test]
fn reference_matches_table() {
    let cases = cases();
    assert!(cases.len() >= 12);
    for (name, depth, want, line) in cases {
        let pos = parse(line).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(perft(&pos, depth), want, "{name}: {line}");
    }
}

/// The position line of the table case `name`.
fn case_line(name: &str) -> &'static str {
    let found = cases().into_iter().find(|c| c.0 == name);
    found.unwrap_or_else(|| panic!("no case {name}")).3
}

/// Plays moves named by their divide keys from a position line; true when the last
/// one captured the king.
fn after(line: &str, keys: &[&str]) -> (Pos, bool) {
    let (mut pos, mut won) = (parse(line).expect("a readable line"), false);
    for k in keys {
        let all = moves(&pos);
        let mv = all.iter().find(|m| key(m) == *k);
        (pos, won) = play(&pos, mv.unwrap_or_else(|| panic!("no move {k}")));
    }
    (pos, won)
}

/// The man on `R:g1` or `M:g1` as a FEN letter.
fn at(pos: &Pos, place: &str) -> Option<char> {
    let (board, square) = place.split_once(':').expect("B:sq");
    let b = usize::from(board == "M");
    let m = pos.boards[b][parse_square(square).expect("a square")]?;
    Some(if m.white {
        m.kind
    } else {
        m.kind.to_ascii_lowercase()
    })
}

/// Small facts counted by hand, one per rule the table cases are meant to exercise.
#[test]
fn reference_hand_checks() {
    // 5.2/5.8a split castling: the king stays (M g1 taken) and the rook passes, or the
    // king passes and the rook stays (M d1 taken); every right of White is gone.
    let (pos, _) = after(case_line("split"), &["R:e1h1"]);
    assert_eq!(
        (at(&pos, "R:g1"), at(&pos, "M:f1"), at(&pos, "R:f1")),
        (Some('K'), Some('R'), None)
    );
    assert!(pos.rights.is_empty());
    let (pos, _) = after(case_line("split"), &["R:e1a1"]);
    assert_eq!(
        (at(&pos, "M:c1"), at(&pos, "R:d1"), at(&pos, "R:c1")),
        (Some('K'), Some('R'), None)
    );
    // 5.8a: a rook that moves or is captured on its square ends its right only.
    let (pos, _) = after(case_line("split"), &["R:h1h2"]);
    assert_eq!(
        (pos.rights.clone(), at(&pos, "M:h2")),
        (vec![(true, 0)], Some('R'))
    );
    assert!(after(case_line("split"), &["R:h1h2", "R:a8a1"])
        .0
        .rights
        .is_empty());
    // 5.8a: a king and a rook that castling leaves on their squares still pass.
    let (pos, _) = after(case_line("castle960"), &["R:g1h1"]);
    assert_eq!(
        (at(&pos, "M:g1"), at(&pos, "R:g1"), at(&pos, "R:f1")),
        (Some('K'), None, Some('R'))
    );
    let (pos, _) = after(case_line("castle960"), &["R:g1h1", "M:e8d8"]);
    assert_eq!(
        (at(&pos, "R:c8"), at(&pos, "R:d8"), at(&pos, "M:d8")),
        (Some('k'), Some('r'), None)
    );
    // 5.8a: rights on the king's board, so White castles on M.
    let (pos, _) = after(case_line("castleM"), &["M:e1h1"]);
    assert_eq!((at(&pos, "R:g1"), at(&pos, "R:f1")), (Some('K'), Some('R')));
    // 5.8b: e.p. from ep_board M takes the pawn that passed to R d5; the capturer stays
    // (R d6 taken); R c5 is not on ep_board: R:c5d6 takes the knight and passes.
    let (pos, _) = after(case_line("ep_passed"), &["M:e5d6"]);
    assert_eq!(
        (at(&pos, "R:d5"), at(&pos, "M:d6"), at(&pos, "R:d6")),
        (None, Some('P'), Some('n'))
    );
    let (pos, _) = after(case_line("ep_passed"), &["R:c5d6"]);
    assert_eq!(
        (at(&pos, "R:d5"), at(&pos, "R:d6"), at(&pos, "M:d6")),
        (Some('p'), None, Some('P'))
    );
    // 5.8b: e.p. of the pawn that stayed on ep_board; the capturer passes to M e3.
    let (pos, _) = after(case_line("ep_stayed"), &["R:d4e3"]);
    assert_eq!(
        (at(&pos, "R:e4"), at(&pos, "M:e3"), at(&pos, "M:e4")),
        (None, Some('p'), Some('n'))
    );
    // 5.8b in play: e2e4 passes to M e4 and writes e3 on R; d4xe3 takes it on M.
    let (pos, _) = after(case_line("ep_dyn"), &["R:e2e4"]);
    assert_eq!(
        (at(&pos, "M:e4"), pos.ep),
        (Some('P'), Some((20, reference::REAL)))
    );
    let (pos, _) = after(case_line("ep_dyn"), &["R:e2e4", "R:d4e3"]);
    assert_eq!(
        (at(&pos, "M:e4"), at(&pos, "M:e3"), pos.ep),
        (None, Some('p'), None)
    );
    let (pos, _) = after(case_line("ep_dyn"), &["R:c2c4", "R:d4c3"]);
    assert_eq!((at(&pos, "R:c4"), at(&pos, "M:c3")), (None, Some('p')));
    // 5.2 promotion: the new piece passes when it can.
    let promo = case_line("promo");
    assert_eq!(at(&after(promo, &["R:b7b8q"]).0, "R:b8"), Some('Q'));
    assert_eq!(at(&after(promo, &["R:b7a8q"]).0, "M:a8"), Some('Q'));
    assert_eq!(at(&after(promo, &["R:b7c8n"]).0, "R:c8"), Some('N'));
    assert_eq!(
        at(&after(promo, &["R:e1d1", "M:g2g1q"]).0, "R:g1"),
        Some('q')
    );
    assert_eq!(
        at(&after(promo, &["R:e1d1", "M:g2h1r"]).0, "M:h1"),
        Some('r')
    );
    // 5.3/7.1: a king capture ends the game; on the last ply it counts once per move.
    let kingcap = parse(case_line("kingcap")).expect("a line");
    assert!(after(case_line("kingcap"), &["R:h4d8"]).1);
    assert_eq!(
        (divide(&kingcap, 1)["R:h4d8"], divide(&kingcap, 2)["R:h4d8"]),
        (1, 0)
    );
    for p in ["q", "r", "b", "n"] {
        assert!(after(case_line("kingcap"), &["R:d1c1", &format!("R:d2e1{p}")]).1);
    }
    // 5.5: White's wall has no move unless the black rook took a7 (8 moves then).
    let stalemate = parse(case_line("stalemate")).expect("a line");
    assert!(moves(&after(case_line("stalemate"), &["R:a1b1"]).0).is_empty());
    assert_eq!(divide(&stalemate, 2)["R:a1a7"], perft(&stalemate, 2));
    assert_eq!(perft(&stalemate, 2), 8);
    // 5.8a reading: KQkq names the outermost rooks; written back in Shredder-FEN.
    let x_fen = parse(case_line("c960b")).expect("a line");
    assert!(to_line(&x_fen).contains(" w GBca - "));
    // formats.md 1: six-field FEN, a `;` inside a quoted operand, ep_board required.
    let six = "8/8/8/8/8/8/8/4K3 w - - 0 1 id \"a;b\"; mirror \"4k3/8/8/8/8/8/8/8\";";
    assert_eq!(perft(&parse(six).expect("six fields"), 1), 5);
    assert!(parse("4k3/8/8/3pP3/8/8/8/4K3 w - d6 mirror \"8/8/8/8/8/8/8/8\";").is_err());
}

/// The keys whose counts differ between the reference's divide and production's.
fn differences(want: &BTreeMap<String, u64>, got: &[(String, u64)]) -> Vec<String> {
    let mut prod: BTreeMap<&str, u64> = BTreeMap::new();
    for (key, n) in got {
        *prod.entry(key).or_insert(0) += n;
    }
    let mut keys: BTreeSet<&str> = prod.keys().copied().collect();
    keys.extend(want.keys().map(String::as_str));
    let differs = |k: &&str| want.get(*k) != prod.get(k);
    let say = |k: &str| format!("{k}: reference {:?}, prod. {:?}", want.get(k), prod.get(k));
    keys.into_iter().filter(differs).map(say).collect()
}

/// Prints, at each depth from 1 to `depth`, the keys on which the two divides differ.
fn report_divides(line: &str, depth: u32) {
    let pos = parse(line).expect("the reference reads the table");
    for d in 1..=depth {
        let want = divide(&pos, d);
        match divide_line(line, d) {
            Err(e) => eprintln!("  depth {d}: divide_line failed: {e}"),
            Ok(got) => {
                let diff = differences(&want, &got);
                eprintln!("  depth {d}: {} of {} keys differ", diff.len(), want.len());
                diff.iter().for_each(|d| eprintln!("    {d}"));
            }
        }
    }
}

#[test]
fn production_perft_matches_table() {
    let mut bad = Vec::new();
    for (name, depth, want, line) in cases() {
        let got = perft_line(line, depth);
        if got != Ok(want) {
            eprintln!("{name}: perft {depth} = {got:?}, reference {want}\n  {line}");
            report_divides(line, depth);
            bad.push(name);
        }
    }
    assert!(bad.is_empty(), "production perft differs on {bad:?}");
}

/// The positions met on random games of up to 30 plies from every table case (three
/// games each, a fixed-seed xorshift64 choosing the moves), as the reference writes
/// them. A game stops at a king capture (5.3) or a stalemate (5.5).
fn random_walk_lines() -> Vec<String> {
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut below = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut lines = Vec::new();
    for (_, _, _, line) in cases() {
        for _ in 0..3 {
            let mut pos = parse(line).expect("the reference reads the table");
            for _ in 0..30 {
                lines.push(to_line(&pos));
                let next = moves(&pos);
                if next.is_empty() {
                    break;
                }
                let (after, won) = play(&pos, &next[below(next.len())]);
                if won {
                    break;
                }
                pos = after;
            }
        }
    }
    lines
}

#[test]
fn reference_writes_what_it_reads() {
    for line in random_walk_lines() {
        let pos = parse(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(to_line(&pos), line);
    }
}

#[test]
fn production_divide_matches_reference_on_random_walks() {
    let mut bad = 0;
    for line in random_walk_lines() {
        let pos = parse(&line).expect("the reference reads its own lines");
        for depth in 1..=2 {
            let diff = match divide_line(&line, depth) {
                Ok(got) => differences(&divide(&pos, depth), &got),
                Err(e) => vec![format!("divide_line failed: {e}")],
            };
            if !diff.is_empty() {
                bad += 1;
                if bad <= 10 {
                    eprintln!("depth {depth}: {line}\n    {}", diff.join("\n    "));
                }
            }
        }
    }
    assert_eq!(bad, 0, "{bad} divides differ (the first 10 printed)");
}
