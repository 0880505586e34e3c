//! Underworld Chess perft (rules.md 4, 4.8 and 7.1) checked against an independent
//! reference: `mod reference` below plays the game move by move on two 64-square
//! mailboxes and uses no code of the library; only the comparisons call
//! `fairysolve::underworld::{perft_line, divide_line}`.
//!
//! Divide keys (both sides use them): W moves `W:e2e4`, `W:e7e8q`, castling as the
//! king's move `W:e1g1`; U moves `U:e1e2`, a capture of a UK by a regular man (4.4d)
//! as its plain move `U:f3e1`, a pass `U:pass`; a UK taking the UK (4.4e) with its
//! return `U:e1d2(a1=Ra1@W)` (the man from U a1 lands on W a1) or `U:e1d2(=Nb1@W)`
//! (from the reserve), letters upper case; drops on U and the placements of the
//! captured UK are not written (a key sums its placements, 4.8e).

mod reference {
    //! Underworld Chess played move by move on two 64-square mailboxes, for clarity
    //! only. Squares are `rank * 8 + file` (a1 = 0, h8 = 63), files 0..8 = a..h.

    use std::collections::BTreeMap;
    use std::fmt;

    /// A man: its kind ('P', 'N', 'B', 'R', 'Q', 'K') and its home file (rules 4.2, 4.8i),
    /// kept per man as it moves. A 'K' on W is a World King, on U an Underworld King (UK):
    /// kings never change board. A pawn's home is the file of its capture: never read.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Man {
        pub white: bool,
        pub kind: char,
        pub home: u8,
    }

    pub type Board = [Option<Man>; 64];

    /// The turn cycle of rule 4.1, in order.
    const PHASES: [&str; 4] = ["WW", "BW", "BU", "WU"];

    /// A position line's content: both boards, the phase (index in `PHASES`), W castling
    /// rights K Q k q, each board's e.p. square (4.8h), the reserve of men captured for
    /// good (rule 4.3; upper case White).
    #[derive(Clone, Debug)]
    pub struct Pos {
        pub w: Board,
        pub u: Board,
        pub phase: usize,
        pub castling: [bool; 4],
        pub w_ep: Option<usize>,
        pub u_ep: Option<usize>,
        pub reserve: Vec<char>,
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

    fn parse_square(t: &str) -> Option<usize> {
        let b = t.as_bytes();
        let at = |i: usize, base: u8| i32::from(b[i].wrapping_sub(base));
        if b.len() != 2 {
            return None;
        }
        sq(at(0, b'a'), at(1, b'1'))
    }

    /// Rule 4.1: White moves at WW and WU, Black at BW and BU.
    pub fn white_to_move(pos: &Pos) -> bool {
        pos.phase == 0 || pos.phase == 3
    }

    /// Rule 4.1: a board is active when it holds a man other than its native kings.
    fn active(b: &Board) -> bool {
        b.iter().flatten().any(|m| m.kind != 'K')
    }

    /// Rules 4.1 and 4.8d: the next phase of the cycle whose board is active (a skipped
    /// turn is no ply). Both boards inactive: unchanged, and `ended` reports the draw.
    fn next_phase(pos: &Pos, from: usize) -> usize {
        let board_active = |p: usize| active(if p >= 2 { &pos.u } else { &pos.w });
        let mut later = (1..=4).map(|i| (from + i) % 4);
        later.find(|&p| board_active(p)).unwrap_or(from)
    }

    /// Rules 4.2 and 4.8i, the default home file of a man standing on `s`: K e, Q d,
    /// R a/h and N b/g by the half of the board, White B c on dark squares and f on
    /// light ones, Black B the other way round.
    fn default_home(white: bool, kind: char, s: usize) -> u8 {
        let right = usize::from(file(s) >= 4);
        let dark = (file(s) + rank(s)) % 2 == 0;
        match kind {
            'K' => 4,
            'Q' => 3,
            'R' => [0, 7][right],
            'N' => [1, 6][right],
            'B' => [5, 2][usize::from(dark == white)],
            _ => file(s) as u8,
        }
    }

    /// The rank a pawn steps to from rank `r`: U is a cylinder (4.4b, 4.8g: rank 1
    /// follows rank 8), on W a pawn never leaves the board.
    fn pawn_step(white: bool, r: i32, cylinder: bool) -> Option<i32> {
        let to = r + if white { 1 } else { -1 };
        if cylinder {
            return Some(to.rem_euclid(8));
        }
        (0..8).contains(&to).then_some(to)
    }

    /// The squares a non-pawn man on `from` reaches, empty or occupied; lines stop at
    /// the first man and the board edge (only pawns see the cylinder).
    fn targets(b: &Board, from: usize, kind: char) -> Vec<usize> {
        let (f, r) = (file(from), rank(from));
        let (dirs, slides): (&[Dir], bool) = match kind {
            'N' => (&KNIGHT, false),
            'K' => (&KING, false),
            'B' => (&BISHOP, true),
            'R' => (&ROOK, true),
            _ => (&KING, true),
        };
        let mut out = Vec::new();
        for &(df, dr) in dirs {
            let mut step = 1;
            while let Some(t) = sq(f + step * df, r + step * dr) {
                out.push(t);
                if !slides || b[t].is_some() {
                    break;
                }
                step += 1;
            }
        }
        out
    }

    /// Whether a man of `by_white` attacks `s`; `cylinder` for U (4.8f: a UK is in
    /// check when an enemy man attacks it with U movement; 4.8g: pawns wrap).
    fn attacked(b: &Board, s: usize, by_white: bool, cylinder: bool) -> bool {
        let (f, r) = (file(s), rank(s));
        let holds = |t: Option<usize>, kinds: &str| {
            t.and_then(|t| b[t])
                .is_some_and(|m| m.white == by_white && kinds.contains(m.kind))
        };
        let first_hit = |(df, dr): Dir| {
            let mut step = 1;
            while let Some(t) = sq(f + step * df, r + step * dr) {
                if b[t].is_some() {
                    return Some(t);
                }
                step += 1;
            }
            None
        };
        let pawn_from = |pr: i32| {
            pawn_step(by_white, pr, cylinder) == Some(r)
                && (holds(sq(f - 1, pr), "P") || holds(sq(f + 1, pr), "P"))
        };
        (0..8).any(pawn_from)
            || KNIGHT
                .iter()
                .any(|&(df, dr)| holds(sq(f + df, r + dr), "N"))
            || KING.iter().any(|&(df, dr)| holds(sq(f + df, r + dr), "K"))
            || ROOK.iter().any(|&d| holds(first_hit(d), "RQ"))
            || BISHOP.iter().any(|&d| holds(first_hit(d), "BQ"))
    }

    fn king_square(b: &Board, white: bool) -> usize {
        let is_king = |m: &Option<Man>| m.is_some_and(|m| m.white == white && m.kind == 'K');
        b.iter().position(is_king).expect("a king")
    }

    /// FIDE check on W.
    fn in_check_w(w: &Board, white: bool) -> bool {
        attacked(w, king_square(w, white), !white, false)
    }

    /// Rules 4.3, 4.4d, 4.8e and 4.8j: the empty square of file `f` where a man of
    /// `kind` lands, scanning from its home rank inwards: pieces ranks 1..8 (Black
    /// 8..1); pawns ranks 2..8 (7..1) on U and 2..7 (7..2) on W. None: the file is full.
    fn landing(b: &Board, white: bool, kind: char, f: i32, on_u: bool) -> Option<usize> {
        let first = i32::from(kind == 'P');
        let last = if kind == 'P' && !on_u { 6 } else { 7 };
        let ranks = (first..=last).map(|r| if white { r } else { 7 - r });
        ranks.filter_map(|r| sq(f, r)).find(|&s| b[s].is_none())
    }

    /// Rule 4.2: the home file of a man, a pawn's being the file of its capture.
    fn home_file(m: Man, capture_file: i32) -> i32 {
        match m.kind {
            'P' => capture_file,
            _ => i32::from(m.home),
        }
    }

    /// Rules 4.3 and 4.4a: a man captured on W, or on U by anything but the enemy UK,
    /// drops on U on its home file (a pawn on the capture file), or goes to the
    /// reserve for good when that file is full.
    fn drop_on_u(pos: &mut Pos, m: Man, capture_file: i32) {
        match landing(&pos.u, m.white, m.kind, home_file(m, capture_file), true) {
            Some(s) => pos.u[s] = Some(m),
            None => pos.reserve.push(letter(m.white, m.kind)),
        }
    }

    /// The FEN letter of a man: upper case White.
    fn letter(white: bool, kind: char) -> char {
        if white {
            kind
        } else {
            kind.to_ascii_lowercase()
        }
    }

    fn man(white: bool, kind: char, home: u8) -> Man {
        Man { white, kind, home }
    }

    /// A turn as divide names it: `W:e7e8q`, `U:e1e2`, `U:pass`, a 4.4e capture with
    /// its return `U:e1d2(a1=Ra1@W)` (the man from U a1) or `U:e1d2(=Nb1@W)` (from the
    /// reserve). Drops and 4.4d/4.4e placements are implied, not written.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Key {
        W(usize, usize, Option<char>),
        U(usize, usize, Option<(Option<usize>, char, usize)>),
        Pass,
    }

    impl fmt::Display for Key {
        fn fmt(&self, out: &mut fmt::Formatter) -> fmt::Result {
            match *self {
                Key::Pass => write!(out, "U:pass"),
                Key::W(from, to, promo) => {
                    write!(out, "W:{}{}", name(from), name(to))?;
                    promo.map_or(Ok(()), |k| write!(out, "{}", k.to_ascii_lowercase()))
                }
                Key::U(from, to, ret) => {
                    write!(out, "U:{}{}", name(from), name(to))?;
                    let Some((src, kind, at)) = ret else {
                        return Ok(());
                    };
                    let src = src.map(name).unwrap_or_default();
                    write!(out, "({src}={kind}{}@W)", name(at))
                }
            }
        }
    }

    /// Plays a FIDE move on W (rules 4 and 4.5): a captured man (a pawn taken e.p.
    /// from `victim`) drops on U by rule 4.3 on the capture file; a promoted man takes
    /// the promotion file as home (4.2); castling moves the rook; rights fall with a
    /// move from or to e1/a1/h1 (e8/a8/h8); the W e.p. square is set by a double step
    /// and cleared by any other W move (4.8h).
    fn make_w(pos: &Pos, from: usize, to: usize, victim: usize, promo: Option<char>) -> Pos {
        let mut c = pos.clone();
        let mut mover = c.w[from].take().expect("a man moves");
        let captured = c.w[victim].take();
        if let Some(kind) = promo {
            mover = man(mover.white, kind, file(to) as u8);
        }
        c.w[to] = Some(mover);
        if mover.kind == 'K' && (file(to) - file(from)).abs() == 2 {
            // Castling: the rook goes from its corner to the square the king crossed.
            let rook_from = if to > from { to + 1 } else { to - 2 };
            c.w[(from + to) / 2] = c.w[rook_from].take();
        }
        if let Some(v) = captured {
            drop_on_u(&mut c, v, file(to));
        }
        for (i, (king, rook)) in [(4, 7), (4, 0), (60, 63), (60, 56)].into_iter().enumerate() {
            if [king, rook].contains(&from) || [king, rook].contains(&to) {
                c.castling[i] = false;
            }
        }
        let double = mover.kind == 'P' && (rank(to) - rank(from)).abs() == 2;
        c.w_ep = double.then(|| (from + to) / 2);
        c
    }

    /// Legal W moves of `white` (FIDE): pawn pushes, double steps, captures, e.p. on
    /// the W e.p. square when it lies in front of this side's pawns, promotion to
    /// Q/R/B/N; castling; never a capture of a king (4.8a); the own king not left in
    /// check.
    fn w_children(pos: &Pos, white: bool) -> Vec<(Key, Pos)> {
        let w = &pos.w;
        let mut moves = Vec::new(); // (from, to, captured square, promotion)
        for from in 0..64 {
            let Some(m) = w[from].filter(|m| m.white == white) else {
                continue;
            };
            let (f, r) = (file(from), rank(from));
            if m.kind != 'P' {
                for t in targets(w, from, m.kind) {
                    if w[t].is_none_or(|v| v.white != white && v.kind != 'K') {
                        moves.push((from, t, t, None));
                    }
                }
                continue;
            }
            let dir = if white { 1 } else { -1 };
            let mut add = |to: usize, victim: usize| {
                if rank(to) == if white { 7 } else { 0 } {
                    moves.extend("QRBN".chars().map(|k| (from, to, victim, Some(k))));
                } else {
                    moves.push((from, to, victim, None));
                }
            };
            if let Some(one) = sq(f, r + dir).filter(|&t| w[t].is_none()) {
                add(one, one);
                let two = sq(f, r + 2 * dir).filter(|&t| w[t].is_none());
                if let Some(two) = two.filter(|_| r == if white { 1 } else { 6 }) {
                    add(two, two);
                }
            }
            let diagonals = [sq(f - 1, r + dir), sq(f + 1, r + dir)];
            for t in diagonals.into_iter().flatten() {
                let victim = sq(file(t), r).expect("beside the pawn");
                let is_ep = pos.w_ep == Some(t)
                    && rank(t) == if white { 5 } else { 2 }
                    && w[t].is_none()
                    && w[victim].is_some_and(|v| v.white != white && v.kind == 'P');
                if w[t].is_some_and(|v| v.white != white && v.kind != 'K') {
                    add(t, t);
                } else if is_ep {
                    add(t, victim);
                }
            }
        }
        let (base, rights) = if white { (0, 0) } else { (56, 2) };
        let empty = |v: &[usize]| v.iter().all(|&s| w[base + s].is_none());
        let safe = |v: &[usize]| v.iter().all(|&s| !attacked(w, base + s, !white, false));
        let rook_on = |s: usize| w[base + s].is_some_and(|m| m.white == white && m.kind == 'R');
        let king_home = w[base + 4].is_some_and(|m| m.white == white && m.kind == 'K');
        let may = |wing: usize| king_home && pos.castling[rights + wing];
        if may(0) && rook_on(7) && empty(&[5, 6]) && safe(&[4, 5, 6]) {
            moves.push((base + 4, base + 6, base + 6, None));
        }
        if may(1) && rook_on(0) && empty(&[1, 2, 3]) && safe(&[4, 3, 2]) {
            moves.push((base + 4, base + 2, base + 2, None));
        }
        let mut out = Vec::new();
        for (from, to, victim, promo) in moves {
            let c = make_w(pos, from, to, victim, promo);
            if !in_check_w(&c.w, white) {
                out.push((Key::W(from, to, promo), c));
            }
        }
        out
    }

    /// A U move before rule 4.4c is applied, and whether it is a 4.4e capture whose
    /// captured UK is still to be placed (4.8e, 4.8f).
    type UMove = (Key, Pos, bool);

    /// A U move capturing nothing, or capturing a man (from `victim`: the target, or the
    /// pawn taken e.p.) that drops again on U by rule 4.3 after the capturer has landed
    /// (4.4a, 4.8h, 4.8j), or goes to the reserve for good when the capturer is the UK
    /// (4.4a). The U e.p. square is cleared (4.8h).
    fn u_move(pos: &Pos, from: usize, to: usize, victim: Option<usize>) -> UMove {
        let mut c = pos.clone();
        let captured = victim.and_then(|v| c.u[v].take());
        let mover = c.u[from].take().expect("a man moves");
        c.u[to] = Some(mover);
        match captured {
            Some(v) if mover.kind == 'K' => c.reserve.push(letter(v.white, v.kind)),
            Some(v) => drop_on_u(&mut c, v, file(to)),
            None => {}
        }
        c.u_ep = None;
        (Key::U(from, to, None), c, false)
    }

    /// Rule 4.4d: a regular man that captures a UK leaves U for W (its home file
    /// nearest its home rank; a pawn the capture file, ranks 2..7); the UK stays. No
    /// move when W has no such square.
    fn man_takes_uk(pos: &Pos, from: usize, to: usize) -> Option<UMove> {
        let mut c = pos.clone();
        let m = c.u[from].take().expect("a man moves");
        let f = home_file(m, file(to));
        let s = landing(&c.w, m.white, m.kind, f, false)?;
        c.w[s] = Some(Man { home: f as u8, ..m });
        c.u_ep = None;
        Some((Key::U(from, to, None), c, false))
    }

    /// Rules 4.4e and 4.8e: the UK moves onto the other UK's square and its owner
    /// returns one man to W, each placeable choice a move of its own: an own man from U
    /// (placed as in 4.4d, a pawn on the capture file), or one from the reserve on
    /// either home file of its kind (R a/h, N b/g, B c/f, Q d, P the capture file),
    /// which becomes its home. Nothing placeable: the capture stands alone.
    fn uk_takes_uk(pos: &Pos, from: usize, to: usize, out: &mut Vec<UMove>) {
        let c = u_move(pos, from, to, None).1;
        let white = c.u[to].expect("the UK has moved").white;
        let mut choices = Vec::new(); // (U square, or None for the reserve; man; W file)
        for (s, m) in c.u.iter().enumerate() {
            if let Some(m) = m.filter(|m| m.white == white && m.kind != 'K') {
                choices.push((Some(s), m, home_file(m, file(to))));
            }
        }
        let in_reserve = |k: &char| c.reserve.contains(&letter(white, *k));
        for kind in "PNBRQ".chars().filter(in_reserve) {
            let files = match kind {
                'R' => vec![0, 7],
                'N' => vec![1, 6],
                'B' => vec![2, 5],
                'Q' => vec![3],
                _ => vec![file(to)],
            };
            choices.extend(files.into_iter().map(|f| (None, man(white, kind, 0), f)));
        }
        let mut found = Vec::new();
        for (src, m, f) in choices {
            let Some(t) = landing(&c.w, white, m.kind, f, false) else {
                continue;
            };
            let mut r = c.clone();
            match src {
                Some(s) => r.u[s] = None,
                None => {
                    let i = r.reserve.iter().position(|&e| e == letter(white, m.kind));
                    r.reserve.remove(i.expect("in the reserve"));
                }
            }
            r.w[t] = Some(Man { home: f as u8, ..m });
            found.push((Key::U(from, to, Some((src, m.kind, t))), r));
        }
        if found.is_empty() {
            found.push((Key::U(from, to, None), c));
        }
        out.extend(found.into_iter().map(|(key, pos)| (key, pos, true)));
    }

    /// All U moves of `white` before rule 4.4c. No castling and no promotion (4.4b);
    /// pawns push and capture over the cylinder, double step from rank 2 (7) by name
    /// only, and take e.p. on the U e.p. square (4.8g, 4.8h).
    fn u_moves(pos: &Pos, white: bool) -> Vec<UMove> {
        let u = &pos.u;
        let mut out = Vec::new();
        for from in 0..64 {
            let Some(m) = u[from].filter(|m| m.white == white) else {
                continue;
            };
            let (f, r) = (file(from), rank(from));
            let mut reach = Vec::new(); // squares a capture may target
            if m.kind == 'P' {
                let ahead = pawn_step(white, r, true).expect("the cylinder has no end");
                let one = sq(f, ahead).expect("on the board");
                let (start, dir) = if white { (r == 1, 1) } else { (r == 6, -1) };
                if u[one].is_none() {
                    out.push(u_move(pos, from, one, None));
                    let two = sq(f, r + 2 * dir).filter(|&t| u[t].is_none());
                    if let Some(two) = two.filter(|_| start) {
                        let mut double = u_move(pos, from, two, None);
                        double.1.u_ep = Some(one);
                        out.push(double);
                    }
                }
                let diagonals = [sq(f - 1, ahead), sq(f + 1, ahead)];
                for t in diagonals.into_iter().flatten() {
                    let victim = sq(file(t), r).expect("beside the pawn");
                    if pos.u_ep == Some(t)
                        && rank(t) == if white { 5 } else { 2 }
                        && u[t].is_none()
                        && u[victim].is_some_and(|v| v.white != white && v.kind == 'P')
                    {
                        out.push(u_move(pos, from, t, Some(victim)));
                    }
                    reach.push(t);
                }
            } else {
                for t in targets(u, from, m.kind) {
                    if u[t].is_none() {
                        out.push(u_move(pos, from, t, None));
                    }
                    reach.push(t);
                }
            }
            for t in reach {
                match u[t] {
                    Some(v) if v.white == white => {}
                    Some(v) if v.kind == 'K' && m.kind == 'K' => {
                        uk_takes_uk(pos, from, t, &mut out)
                    }
                    Some(v) if v.kind == 'K' => out.extend(man_takes_uk(pos, from, t)),
                    Some(_) => out.push(u_move(pos, from, t, Some(t))),
                    None => {}
                }
            }
        }
        out
    }

    /// Rule 4.8e: where the owner places its captured UK: the empty squares of its first
    /// rank of U that the capturing side does not attack on U; else the same on its
    /// second rank; else any empty square of those two ranks; else any empty square.
    fn uk_placements(u: &Board, owner_white: bool) -> Vec<usize> {
        let (first, second) = if owner_white { (0, 1) } else { (7, 6) };
        let empty = |r: i32| (0..8).filter_map(move |f| sq(f, r).filter(|&s| u[s].is_none()));
        let safe = |&s: &usize| !attacked(u, s, !owner_white, true);
        let tiers: [Vec<usize>; 4] = [
            empty(first).filter(safe).collect(),
            empty(second).filter(safe).collect(),
            empty(first).chain(empty(second)).collect(),
            (0..64).filter(|&s| u[s].is_none()).collect(),
        ];
        let tier = tiers.into_iter().find(|t| !t.is_empty());
        tier.unwrap_or_default()
    }

    /// Legal U turns. Rule 4.4c / 4.8f: a move that leaves the own UK attacked on U
    /// (judged after the whole move, before a 4.4e placement) is dropped unless no
    /// move keeps it safe. Each 4.4e placement is a sequence of its own under the same
    /// key (4.8e). No U move at all: a pass, which ends the U e.p. right (4.4c, 4.8h).
    fn u_children(pos: &Pos, white: bool) -> Vec<(Key, Pos)> {
        let moves = u_moves(pos, white);
        if moves.is_empty() {
            let mut pass = pos.clone();
            pass.u_ep = None;
            return vec![(Key::Pass, pass)];
        }
        let safe = |m: &UMove| !attacked(&m.1.u, king_square(&m.1.u, white), !white, true);
        let any_safe = moves.iter().any(safe);
        let mut out = Vec::new();
        for (key, after, uk_taken) in moves.into_iter().filter(|m| !any_safe || safe(m)) {
            if !uk_taken {
                out.push((key, after));
                continue;
            }
            for s in uk_placements(&after.u, !white) {
                let mut p = after.clone();
                p.u[s] = Some(man(!white, 'K', 4));
                out.push((key, p));
            }
        }
        out
    }

    /// Every turn from `pos`: (divide key, position after it with the next phase set).
    pub fn children(pos: &Pos) -> Vec<(Key, Pos)> {
        let on_u = pos.phase >= 2;
        let generate = if on_u { u_children } else { w_children };
        let mut out = generate(pos, white_to_move(pos));
        for (_, c) in &mut out {
            c.phase = next_phase(c, pos.phase);
        }
        out
    }

    /// Whether the game ends right after a turn of `mover_white`: both boards inactive
    /// (4.1, draw), or the other side's W king in check with no legal W move (4.8a,
    /// mate judged at once). A W turn with no legal move (4.5) simply has no children.
    pub fn ended(c: &Pos, mover_white: bool) -> bool {
        let them = !mover_white;
        (!active(&c.w) && !active(&c.u))
            || (in_check_w(&c.w, them) && w_children(c, them).is_empty())
    }

    /// Rules 7.1 and 4.8d: the sequences of exactly `depth` turns; a game that ends
    /// earlier adds nothing, a game-ending turn on the last ply counts.
    pub fn perft(pos: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if !active(&pos.w) && !active(&pos.u) {
            return 0;
        }
        let mover = white_to_move(pos);
        let count = |(_, c): &(Key, Pos)| after_turn(c, mover, depth - 1);
        children(pos).iter().map(count).sum()
    }

    fn after_turn(c: &Pos, mover_white: bool, depth: u32) -> u64 {
        match depth {
            0 => 1,
            _ if ended(c, mover_white) => 0,
            _ => perft(c, depth),
        }
    }

    /// Perft split by the key of the first turn.
    pub fn divide(pos: &Pos, depth: u32) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        if depth > 0 && (active(&pos.w) || active(&pos.u)) {
            for (key, c) in children(pos) {
                *out.entry(key.to_string()).or_insert(0) +=
                    after_turn(&c, white_to_move(pos), depth - 1);
            }
        }
        out
    }

    fn parse_board(text: &str) -> Result<Board, String> {
        let mut b = [None; 64];
        let bad = || format!("bad placement {text:?}");
        let rows: Vec<&str> = text.split('/').collect();
        for (i, row) in rows.iter().enumerate() {
            let mut f = 0;
            for c in row.chars() {
                let kind = c.to_ascii_uppercase();
                if let Some(d) = c.to_digit(10) {
                    f += d as i32;
                    continue;
                }
                let s = sq(f, 7 - i as i32)
                    .filter(|_| "PNBRQK".contains(kind))
                    .ok_or_else(bad)?;
                b[s] = Some(man(c == kind, kind, default_home(c == kind, kind, s)));
                f += 1;
            }
            if f != 8 || rows.len() != 8 {
                return Err(bad());
            }
        }
        Ok(b)
    }

    fn write_board(b: &Board) -> String {
        let mut text = String::new();
        for r in (0..8).rev() {
            let mut gap = 0;
            let digit = |gap: u32| char::from_digit(gap, 10).filter(|_| gap > 0);
            for m in &b[r * 8..r * 8 + 8] {
                match m {
                    None => gap += 1,
                    Some(m) => {
                        text.extend(digit(gap));
                        text.push(letter(m.white, m.kind));
                        gap = 0;
                    }
                }
            }
            text.extend(digit(gap));
            text += if r > 0 { "/" } else { "" };
        }
        text
    }

    /// Reads a position line (formats.md section 1): the World as the first four FEN
    /// fields, then the operations `underworld`, `phase`, `reserve`, `homes` (4.8i)
    /// and `u_ep`; others are ignored.
    pub fn parse(line: &str) -> Result<Pos, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let square = |t: &str| parse_square(t).ok_or(format!("bad square {t:?}"));
        let ep = words.get(3).copied().unwrap_or("-");
        let mut pos = Pos {
            w: parse_board(words.first().ok_or("empty line")?)?,
            u: [None; 64],
            phase: if words.get(1) == Some(&"b") { 1 } else { 0 },
            castling: ['K', 'Q', 'k', 'q'].map(|c| words.get(2).is_some_and(|w| w.contains(c))),
            w_ep: if ep == "-" { None } else { Some(square(ep)?) },
            u_ep: None,
            reserve: Vec::new(),
        };
        let (ops, mut homes) = (words.get(4..).unwrap_or_default().join(" "), "");
        for op in ops.split(';') {
            let (code, arg) = op.trim().split_once(' ').unwrap_or((op.trim(), ""));
            let arg = arg.trim().trim_matches('"');
            match code {
                "underworld" => pos.u = parse_board(arg)?,
                "phase" => pos.phase = PHASES.iter().position(|&p| p == arg).ok_or("bad phase")?,
                "reserve" => pos.reserve = arg.chars().collect(),
                "homes" => homes = arg,
                "u_ep" => pos.u_ep = Some(square(arg)?),
                _ => {}
            }
        }
        for entry in homes.split_whitespace() {
            let parts: Vec<&str> = entry.split(':').collect();
            let (on_w, at, f) = match parts[..] {
                ["W", at, f] => (true, square(at)?, f),
                ["U", at, f] => (false, square(at)?, f),
                [at, f] => (pos.w[square(at)?].is_some(), square(at)?, f),
                _ => return Err(format!("bad homes entry {entry:?}")),
            };
            let home = square(&format!("{f}1"))? as u8;
            let man = if on_w { &mut pos.w[at] } else { &mut pos.u[at] };
            let man = man.as_mut().ok_or(format!("homes: no man on {entry:?}"))?;
            man.home = home;
        }
        Ok(pos)
    }

    /// Writes a position as a line that `parse` and the production reader read: the
    /// side is the phase's mover, `homes` lists every non-pawn off its default home.
    pub fn to_line(pos: &Pos) -> String {
        let side = if white_to_move(pos) { "w" } else { "b" };
        let rights = "KQkq".chars().zip(pos.castling);
        let mut castling: String = rights.filter_map(|(c, on)| on.then_some(c)).collect();
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = pos.w_ep.map_or("-".to_string(), name);
        let (w, u, phase) = (write_board(&pos.w), write_board(&pos.u), PHASES[pos.phase]);
        let mut line = format!("{w} {side} {castling} {ep} underworld \"{u}\"; phase {phase};");
        if !pos.reserve.is_empty() {
            line += &format!(" reserve \"{}\";", pos.reserve.iter().collect::<String>());
        }
        let mut homes = Vec::new();
        for (label, b) in [("W", &pos.w), ("U", &pos.u)] {
            for (s, m) in b.iter().enumerate() {
                if m.is_some_and(|m| m.kind != 'P' && m.home != default_home(m.white, m.kind, s)) {
                    let home = (b'a' + b[s].expect("a man").home) as char;
                    homes.push(format!("{label}:{}:{home}", name(s)));
                }
            }
        }
        if !homes.is_empty() {
            line += &format!(" homes \"{}\";", homes.join(" "));
        }
        if let Some(e) = pos.u_ep {
            line += &format!(" u_ep {};", name(e));
        }
        line
    }
}

use fairysolve::underworld::{divide_line, perft_line};
use reference::{children, divide, ended, parse, perft, to_line, white_to_move};
use std::collections::{BTreeMap, BTreeSet};

/// The table: a `#` line says what the next case exercises and under which rule; a
/// case is `name depth perft | position line`, the counts computed by the reference.
const CASES: &str = r#"
# Start array (4.1): FIDE until a W capture drops a man on U (4.3); ply 5 is then Black's first U turn.
initial 5 4821670 | rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - underworld "4k3/8/8/8/8/8/8/4K3";
# After 1.e4 d5 2.exd5 Qxd5, phase BU: pawns dropped on U d7/d2 (4.3), U double steps and u_ep (4.8h).
scandi 5 343472 | rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR b KQkq - underworld "4k3/3p4/8/8/8/8/3P4/4K3"; phase BU;
# Kiwipete with U holding only the UKs: castling, W e.p., promotions, drops of every kind (4.3, 4.8j).
kiwipete 4 2805854 | r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - underworld "4k3/8/8/8/8/8/8/4K3";
# Perft position 3, U inactive (4.1): a W capture wakes U and Black makes the first U move.
pos3 5 612973 | 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - underworld "4k3/8/8/8/8/8/8/4K3";
# W inactive, phase WU: UK takes UK (4.4e) with 6 pawn returns or a reserve Q, safety per return (4.8f), placement tiers 2-4 (4.8e), re-drops (4.4a).
army 5 1447669 | 4k3/8/8/8/8/8/8/4K3 w - - underworld "rnbqrbnr/PPPPPPPP/4k3/4K3/8/8/8/8"; phase WU; reserve "Q";
# Phase BU: Black's UK takes White's with returns from U (N, Q, R) and the reserve (r a/h, p on the capture file); placement tiers 1-3 (4.4e, 4.8e).
ukuk 5 1647012 | 1n2k3/8/8/8/8/8/8/R3K3 b - - underworld "8/2n5/8/3k4/4K3/8/q7/7r"; phase BU; reserve "rBp";
# Phase WU, 4.4d: pawn d8xe1 over the cylinder goes to W e2, knight to g1, rook refused (W a-file full); U double step b2b4 (4.8h).
takeuk 5 113906 | r3k3/p7/p7/P7/P7/P7/P7/R3K3 w - - underworld "3P3K/8/8/8/8/5N2/1P6/R3k3"; phase WU;
# Phase BU, cylinder pawns (4.4b, 4.8g): b1-b8 and h1-h8 wrap, b1xa8 over the edge re-drops the pawn on a2 (4.4a).
cylinder 6 440181 | 4k3/8/8/8/8/8/8/4K2R b - - underworld "P3k3/2p5/8/8/8/8/5P2/1p2K2p"; phase BU;
# Phase BU, e.p. on both boards (4.8h): u_ep e3 for Black now, W ep d6 live at White's next W turn; victims dropped on their file.
ep 6 67822 | 4k3/8/8/3pP3/8/8/8/4K3 b - d6 underworld "4k3/8/8/8/3pP3/8/8/4K3"; phase BU; u_ep e3;
# W inactive (4.1), phase BU: a U-only cycle until a 4.4d capture puts a man on W; UK captures for good (4.4a).
wdead 5 472356 | 4k3/8/8/8/8/8/8/4K3 b - - underworld "4k3/3p4/8/2n5/8/8/3P4/R3K3"; phase BU;
# Phase WU: White has no U move (pawns blocked, 4.4d refused for want of a W square), so U:pass is a ply (4.4c, 4.8d).
pass 6 3928 | k7/n7/b7/p7/P7/B7/N7/K7 w - - underworld "1P6/1P6/1P6/1P6/1P6/kP6/PP6/KP6"; phase WU;
# Phase WU: the 4.4e return of the rook (homes "U:e2:a", 4.8i) to W a1 mates at once and ends the game (4.8a).
mate 5 37548 | k7/2K4p/1P6/8/8/8/8/8 w - - underworld "8/8/8/4k3/3K4/8/4R3/8"; phase WU; reserve "N"; homes "U:e2:a";
# Phase BW: b2 promotes (home b) or takes the a1 rook (homes "W:a1:h") that drops on U h1; castling right Q (4.2, 4.3, 4.8i).
promo 5 221046 | 4k3/8/8/8/8/8/1p6/R3K3 b Q - underworld "4k3/8/8/8/8/8/8/4K3"; homes "W:a1:h";
# Phase WU: White's UK takes the last Black man on U for good, both boards inactive: a draw (4.1); UK takes UK, nothing to return (4.8e).
draw 5 62491 | 4k3/8/8/8/8/8/8/4K3 w - - underworld "8/8/8/3k4/4K3/5n2/8/8"; phase WU;
# Phase BU: Black's rook takes White's UK (4.4d), lands on W a8 and mates at once (4.8a).
mate4d 5 17222 | 8/8/8/8/8/1p6/2k4P/K7 b - - underworld "k7/4r3/8/8/4K3/8/8/8"; phase BU; homes "U:e7:a";
# Phase BU: the Black UK on h8 is in check from the a8 rook and no move saves it, so every U move is legal (4.4c, 4.8f).
override 6 142515 | 4k3/8/8/8/8/8/4P3/4K3 b - - underworld "R6k/6pp/8/8/8/8/8/4K3"; phase BU;
# Phase WU: White is stalemated on W but only its WW turn judges it (4.8a); Re2xe8 (4.4d) lands on W a2 and frees White.
stalemate 5 2662 | 8/8/8/8/8/1p6/2k5/K7 w - - underworld "4k3/8/8/8/8/8/4R3/K7"; phase WU; homes "U:e2:a";
"#;

fn cases() -> Vec<(&'static str, u32, u64, &'static str)> {
    let case = |row: &'static str| {
        let (head, line) = row.split_once(" | ").expect("name depth perft | line");
        let [name, depth, count] = head.split(' ').collect::<Vec<_>>()[..] else {
            panic!("not `name depth perft`: {head}")
        };
        let (depth, count) = (
            depth.parse().expect("a depth"),
            count.parse().expect("a count"),
        );
        (name, depth, count, line)
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

/// The positions met on random games of up to 30 turns from most table cases (two
/// games each, a fixed-seed xorshift64 choosing the turns), as the reference writes them.
fn random_walk_lines() -> Vec<String> {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut below = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut lines = Vec::new();
    let starts = cases()
        .into_iter()
        .filter(|c| !["kiwipete", "pos3"].contains(&c.0));
    for (_, _, _, line) in starts {
        for _ in 0..2 {
            let mut pos = parse(line).expect("the reference reads the table");
            for _ in 0..30 {
                lines.push(to_line(&pos));
                let mut next = children(&pos);
                if next.is_empty() {
                    break;
                }
                let (_, after) = next.swap_remove(below(next.len()));
                if ended(&after, white_to_move(&pos)) {
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
