//! An independent oracle for the Earthquake board (rules.md section 3): pieces on
//! physical cells, moves found by stepping cell by cell, legality by trying every enemy
//! reply on the king. Slow and plain on purpose: it shares nothing with the solver's
//! geometry, so perft, key sets and the composer's qualities can be checked against it.

use fairysolve::Position;

#[derive(Clone, Copy, PartialEq)]
pub struct P {
    pub white: bool,
    pub kind: char,
}

#[derive(Clone)]
pub struct Oracle {
    pub board: [Option<P>; 64],
    pub white: bool,
    pub castle: [bool; 4], // K Q k q
    pub ep: Option<usize>,
    pub dx: i32,
    pub dy: i32,
    pub fly: bool,
    /// Aftershocks left (White, Black) and the dx that may not be restored.
    pub shocks: [u8; 2],
    pub no_return: Option<i32>,
}

impl Oracle {
    pub fn cell(&self, sq: usize) -> (i32, i32) {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        if r >= 4 {
            (f, r)
        } else {
            (f + self.dx, r + self.dy)
        }
    }
    pub fn at(&self, c: (i32, i32)) -> Option<usize> {
        // The lower half lies on top.
        (0..32)
            .find(|&s| self.cell(s) == c)
            .or_else(|| (32..64).find(|&s| self.cell(s) == c))
    }
    pub fn in_box(&self, c: (i32, i32)) -> bool {
        c.0 >= 0.min(self.dx)
            && c.0 <= 7.max(7 + self.dx)
            && c.1 >= 4.min(self.dy)
            && c.1 <= 7.max(3 + self.dy)
    }
    pub fn ray(&self, from: usize, d: (i32, i32)) -> Vec<usize> {
        let mut out = Vec::new();
        let mut c = self.cell(from);
        loop {
            c = (c.0 + d.0, c.1 + d.1);
            match self.at(c) {
                Some(s) => {
                    out.push(s);
                    if self.board[s].is_some() {
                        break;
                    }
                }
                None if self.fly && self.in_box(c) => continue,
                None => break,
            }
        }
        out
    }
    /// Pseudo-legal (from, to, promotion) of the side `white`, captures included.
    pub fn pseudo(&self, white: bool) -> Vec<(usize, usize, Option<char>)> {
        let mut out = Vec::new();
        let rook = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let knight = [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ];
        for from in 0..64 {
            let Some(p) = self.board[from] else { continue };
            if p.white != white {
                continue;
            }
            let free = |s: usize| self.board[s].is_none_or(|q| q.white != white);
            let c = self.cell(from);
            match p.kind {
                'n' | 'k' => {
                    let deltas: Vec<(i32, i32)> = if p.kind == 'n' {
                        knight.to_vec()
                    } else {
                        rook.iter().chain(bishop.iter()).copied().collect()
                    };
                    for d in deltas {
                        if let Some(t) = self.at((c.0 + d.0, c.1 + d.1)) {
                            if free(t) {
                                out.push((from, t, None));
                            }
                        }
                    }
                }
                'r' | 'b' | 'q' => {
                    let dirs: Vec<(i32, i32)> = match p.kind {
                        'r' => rook.to_vec(),
                        'b' => bishop.to_vec(),
                        _ => rook.iter().chain(bishop.iter()).copied().collect(),
                    };
                    for d in dirs {
                        for t in self.ray(from, d) {
                            if free(t) {
                                out.push((from, t, None));
                            }
                        }
                    }
                }
                'p' => {
                    let up = if white { 1 } else { -1 };
                    let last = if white { 7 } else { 0 };
                    let mut targets = Vec::new();
                    if let Some(t) = self.at((c.0, c.1 + up)) {
                        if self.board[t].is_none() {
                            targets.push(t);
                            let home = if white { 1 } else { 6 };
                            if from / 8 == home {
                                let c2 = self.cell(t);
                                if let Some(t2) = self.at((c2.0, c2.1 + up)) {
                                    if self.board[t2].is_none() {
                                        out.push((from, t2, None));
                                    }
                                }
                            }
                        }
                    }
                    for side in [-1, 1] {
                        if let Some(t) = self.at((c.0 + side, c.1 + up)) {
                            if self.board[t].is_some_and(|q| q.white != white) || self.ep == Some(t)
                            {
                                targets.push(t);
                            }
                        }
                    }
                    for t in targets {
                        if t / 8 == last {
                            for pr in ['q', 'r', 'b', 'n'] {
                                out.push((from, t, Some(pr)));
                            }
                        } else {
                            out.push((from, t, None));
                        }
                    }
                }
                _ => unreachable!(),
            }
        }
        out
    }
    pub fn attacked(&self, sq: usize, by_white: bool) -> bool {
        let mut probe = self.clone();
        probe.ep = None;
        // A stand-in piece on `sq`, so that pawn captures onto it are generated.
        probe.board[sq] = Some(P {
            white: !by_white,
            kind: 'k',
        });
        probe.pseudo(by_white).iter().any(|&(_, t, _)| t == sq)
    }
    pub fn king(&self, white: bool) -> usize {
        (0..64)
            .find(|&s| self.board[s] == Some(P { white, kind: 'k' }))
            .unwrap()
    }
    pub fn play(&self, from: usize, to: usize, promo: Option<char>) -> Oracle {
        let mut n = self.clone();
        let p = n.board[from].take().unwrap();
        n.ep = None;
        n.no_return = None;
        if p.kind == 'p' && self.ep == Some(to) && self.board[to].is_none() {
            // The captured pawn stands one cell beyond the en passant square.
            let c = self.cell(to);
            let victim = self.at((c.0, c.1 + if p.white { -1 } else { 1 })).unwrap();
            n.board[victim] = None;
        }
        if p.kind == 'p' && (from / 8 == 1 || from / 8 == 6) && (to / 8 == 3 || to / 8 == 4) {
            let c = self.cell(from);
            let mid = self.at((c.0, c.1 + if p.white { 1 } else { -1 })).unwrap();
            if mid != to {
                n.ep = Some(mid);
            }
        }
        n.board[to] = Some(P {
            white: p.white,
            kind: promo.unwrap_or(p.kind),
        });
        for (i, sq) in [7usize, 0, 63, 56].iter().enumerate() {
            if from == *sq || to == *sq {
                n.castle[i] = false;
            }
        }
        if p.kind == 'k' {
            let i = if p.white { 0 } else { 2 };
            n.castle[i] = false;
            n.castle[i + 1] = false;
        }
        n.white = !self.white;
        n
    }
    pub fn legal(&self) -> Vec<Oracle> {
        self.legal_moves().into_iter().map(|(_, n)| n).collect()
    }
    /// Legal moves as coordinates (`e2e4`, `e7e8q`; castling as the king's move) with
    /// the position each leads to.
    pub fn legal_moves(&self) -> Vec<(String, Oracle)> {
        let name = |s: usize| format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1);
        let mut out = Vec::new();
        for (from, to, promo) in self.pseudo(self.white) {
            let n = self.play(from, to, promo);
            if !n.attacked(n.king(self.white), !self.white) {
                let mut m = format!("{}{}", name(from), name(to));
                if let Some(p) = promo {
                    m.push(p);
                }
                out.push((m, n));
            }
        }
        // Castling by name on the back rank (the standard array only).
        let (k, base) = if self.white { (0, 0) } else { (2, 56) };
        for (side, right) in [(0usize, self.castle[k]), (1, self.castle[k + 1])] {
            if !right
                || self.board[base + 4]
                    != Some(P {
                        white: self.white,
                        kind: 'k',
                    })
            {
                continue;
            }
            let (rook, kto, rto, empty, safe): (usize, usize, usize, Vec<usize>, Vec<usize>) =
                if side == 0 {
                    (
                        base + 7,
                        base + 6,
                        base + 5,
                        vec![base + 5, base + 6],
                        vec![base + 4, base + 5, base + 6],
                    )
                } else {
                    (
                        base,
                        base + 2,
                        base + 3,
                        vec![base + 1, base + 2, base + 3],
                        vec![base + 4, base + 3, base + 2],
                    )
                };
            if self.board[rook]
                != Some(P {
                    white: self.white,
                    kind: 'r',
                })
            {
                continue;
            }
            let exists = |s: usize| self.at(self.cell(s)) == Some(s);
            if empty.iter().any(|&s| self.board[s].is_some() || !exists(s)) {
                continue;
            }
            if safe.iter().any(|&s| self.attacked(s, !self.white)) {
                continue;
            }
            let mut n = self.play(base + 4, kto, None);
            n.board[rook] = None;
            n.board[rto] = Some(P {
                white: self.white,
                kind: 'r',
            });
            out.push((format!("{}{}", name(base + 4), name(kto)), n));
        }
        // Aftershocks: the lower half to another dx in -8..=8.
        let side = if self.white { 0 } else { 1 };
        if self.shocks[side] > 0 {
            for ndx in -8..=8 {
                if ndx == self.dx || Some(ndx) == self.no_return {
                    continue;
                }
                let mut n = self.clone();
                n.dx = ndx;
                if (0..64).any(|s| n.board[s].is_some() && n.at(n.cell(s)) != Some(s)) {
                    continue;
                }
                if n.attacked(n.king(self.white), !self.white) {
                    continue;
                }
                n.shocks[side] -= 1;
                n.no_return = Some(self.dx);
                n.ep = None;
                n.white = !self.white;
                out.push((format!("~{ndx}"), n));
            }
        }
        out
    }
    pub fn in_check(&self) -> bool {
        self.attacked(self.king(self.white), !self.white)
    }
    /// Whether the side to move mates within `n` of its moves.
    pub fn wins(&self, n: u32) -> bool {
        self.legal().iter().any(|after| after.loses(n))
    }
    /// Whether the side to move (the defender) is mated now or loses within `n` attacker
    /// moves counting the one just played.
    pub fn loses(&self, n: u32) -> bool {
        let replies = self.legal();
        if replies.is_empty() {
            return self.in_check();
        }
        n > 1 && replies.iter().all(|r| r.wins(n - 1))
    }
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal().iter().map(|n| n.perft(depth - 1)).sum()
    }
}

/// The oracle's copy of a position read by fairysolve (placement and side only).
pub fn oracle_from(pos: &Position, dx: i32, dy: i32, fly: bool) -> Oracle {
    let mut board = [None; 64];
    for (sq, piece) in pos.board().pieces() {
        board[sq.index()] = Some(P {
            white: piece.color == fairysolve::Color::White,
            kind: piece.role.char(),
        });
    }
    Oracle {
        board,
        white: pos.turn() == fairysolve::Color::White,
        castle: [false; 4],
        ep: None,
        dx,
        dy,
        fly,
        shocks: [0, 0],
        no_return: None,
    }
}

pub fn oracle_start(dx: i32, dy: i32, fly: bool) -> Oracle {
    let mut board = [None; 64];
    let back = ['r', 'n', 'b', 'q', 'k', 'b', 'n', 'r'];
    for f in 0..8 {
        board[f] = Some(P {
            white: true,
            kind: back[f],
        });
        board[8 + f] = Some(P {
            white: true,
            kind: 'p',
        });
        board[48 + f] = Some(P {
            white: false,
            kind: 'p',
        });
        board[56 + f] = Some(P {
            white: false,
            kind: back[f],
        });
    }
    Oracle {
        board,
        white: true,
        castle: [true; 4],
        ep: None,
        dx,
        dy,
        fly,
        shocks: [0, 0],
        no_return: None,
    }
}
