//! Goal-directed help play: the mates a help-mate can end in are listed as plans at the
//! root, and every move is tested against the plans still possible before it is played.
//! (Popeye's Intelligent mode works from the same observation; this is our own
//! formulation and proof.)
//!
//! Every help-mate ends in a position P, after the mating side's move, in which the mated
//! king stands on some square k, a man of the mating side attacks k, and every flight of
//! k (a king step from k on the board in force) holds a man of the mated side or is
//! attacked by a man of the mating side, with the king off k. A *plan* names men of the
//! root and the square each stands on in P (and, for a pawn, the form it has there): the
//! mated king on k, one checker, and a witness for each flight that the men already named
//! do not cover. `Lister` writes every plan within the moves left:
//! - **Every P has a plan that holds in P** (each named man stands in P where the plan
//!   says). The listing branches, for the first flight the named men do not cover, over
//!   every witness: a man of the mated side on the flight, or a man of the mating side on
//!   a square from which it attacks the flight with nothing named in between, or (under
//!   Taxi with little money, below) standing on the flight itself. P's own
//!   witness is among them: a line clear in P is clear among the named men, who stand in
//!   P where they are named. A square the plan needs empty (between the checker and k,
//!   or between a witness and its flight) is empty in P, so no man P places there is
//!   skipped by refusing it. A plan that names all of another's men and more is dropped
//!   (`minimal`): wherever it holds, the other does.
//! - **A plan names what keeps the check from being parried.** Where a named man M of
//!   the mated side could, from where the plan names it, take the checker or step
//!   between it and k by a move nothing can block (a leap, a pawn's capture or single
//!   step, a ride over squares the plan keeps empty), the move is legal in every P
//!   where the plan holds unless k is in double check or M is pinned off that move.
//!   So the plan is replaced by its extensions naming a second checker, or a rider
//!   pinning M (`Lister::finish`); a named man that may already check twice or pin
//!   leaves the plan as it is. In a mate that parry is illegal, so its second checker
//!   or pinner is among the extensions: P still has a plan that holds in it. (On the
//!   published h#6 of Linß, 1989, this leaves the king in the corner behind its own
//!   rook unplanned and the search 50 times smaller.)
//! - **A plan that holds in P is never given up on a line to P.** A move moves one man
//!   one step of its empty-board graph (captures allowed wherever a pawn wants one,
//!   promotion to any piece: `MateTables`), so a man's fewest moves to its square fall by
//!   at most one per move of its own, and not at all by any other move; in P they are 0.
//!   So on every node of the line, the sum over one side's named men of their fewest
//!   moves is at most that side's moves left, and no named man is ever captured. A move
//!   after which this fails for every plan is not played.
//! - **Castling** moves two men at once: the king by up to its steps to the castled
//!   square, the rook by one. A side's sum may then fall by the king's steps more than
//!   by another move, once: while its king has not moved, the side's allowance is its
//!   moves left plus those steps (`castling_gain`).
//! - **Trapdoor** (`falls`). A fall takes a man off without a move. The guide sees
//!   moves only, so a plan naming a fallen man stays possible (a later move onto its
//!   square reads as its capture): more plans kept, never fewer, and the counts above
//!   stand. What changes is the mate (rules.md 1.5): it is judged in P, or, where P is
//!   no mate, after the mating side's falls (in the falls-first order only there), and
//!   a plan then describes that position (the fallen men are men it does not name);
//!   and after the mated side's move its own ticking men may fall, so a flight may be
//!   shut by a line that opens when one falls, and a parry may be illegal because a
//!   fall uncovers the king. The listing allows for both: a witness's line may pass the
//!   named men of the mated side, a man of the mated side may stand on a witness's
//!   line, and no parry is asked for (every plan is written as it is).
//! - **Taxi.** A check and a guard are affordable attacks: an attack is still needed,
//!   so the checker and the witnesses stand. A flight may also be barred by its price
//!   alone (`Game::flights_barred_by`). Where the mated side surely holds a king's step
//!   and the dearest fee (5) at the mate, it is not, and flights are witnessed as in
//!   FIDE. Where it surely holds a step (always so with an income of one or more) but
//!   perhaps not a fee, a flight held by a man of the mating side may be too dear to
//!   take: such a man standing on the flight is a witness too (`stand`), so P's own
//!   witness is still among those listed. Where it may hold nothing (no income and
//!   little cash), plans would name a king and a checker only, and the mate bound
//!   prunes instead. Whenever plans serve, the mated side could pay to take
//!   a king beside its own, so the kings never stand side by side in a mate, as in
//!   FIDE. A parry may be too dear
//!   to play: it is asked for only where the mated side surely pays the dearest move at
//!   the mate (`parries`); then a parry is illegal only by an affordable attack on the
//!   king after it, which comes from a second checker or a pinner as in FIDE (the
//!   mated side's move does not change the other's cash).
//! - A board that shifts is not counted here: plans serve a fixed board
//!   (`TurnGame::help_guide`).
//!
//! All plans are followed together (`PlanGuide`): each node keeps the plans still
//! possible there with each side's sum, and the table's key of a node holds a hash of that
//! set, so a failure is read back only where the same plans are possible. The set is a
//! function of the position (which men stand where, and how far each is from its
//! squares; under Trapdoor also of which men fell), so transpositions still meet in the
//! table. Where the listing would pass `MOST_PLANS` plans or `MOST_STEPS` steps, help
//! play goes without them and the mate bound (`mate_bound`) prunes instead, at that
//! length and every longer one (`NoGuide::TooMany`: a longer line allows each side more
//! moves, and the listing only grows with them). `tests/help_plans.rs` checks guided help play against the definition
//! (every move of both sides played) over random positions with castling, en passant and
//! promotion, on the standard board and on fixed Earthquake boards, under FIDE, under
//! Trapdoor (timers of both sides, T = 1 and 2, both orders of events) and under Taxi
//! (cash from broke to rich, Trapdoor too now and then).

use crate::attacks::piece_attacks;
use crate::bitboard::Bitboard;
use crate::generic::help::NoGuide;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::search::mate_bound::{forms, moves_left, MateTables, FAR};
use crate::types::{Color, Role, Square};
use std::sync::Arc;

/// Beyond this many plans, or this many steps of the listing, the listing gives up and
/// help play goes without plans: following more would cost more than their tests save
/// (the mate bound of `mate_bound` is then the better prune).
const MOST_PLANS: usize = 30_000;
const MOST_STEPS: usize = 2_000_000;

/// Below this many turns the listing costs more than the search it prunes (`generate
/// --stip "h#2"` made 2.3 times fewer puzzles a minute with plans), and the mate bound
/// serves alone.
const FEWEST_TURNS: u32 = 5;

/// The most men a plan names: the king, the checker, a witness for each of up to eight
/// flights, and two more against a parry (a second checker, or a pinner). A plan that
/// would name more is written without the parry test (`Lister::finish`).
const MOST_NAMED: usize = 12;

/// What the game in force changes in a mate, for the listing (see the module's
/// comment): each departure from `FIDE` loosens the plans, never tightens them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MateRules {
    /// Trapdoor: the mated side's men may fall after its own move.
    pub falls: bool,
    /// A named man's parry is asked for (`Lister::finish`): only where a parry is
    /// illegal by a second check or a pin alone, not by a fall (Trapdoor) or its price
    /// (Taxi, where the mated side may hold less than the dearest move at the mate).
    pub parries: bool,
    /// A man of the mating side standing on a flight bars it: its capture may be too
    /// dear (Taxi, where the mated side surely pays a king's step at the mate but
    /// perhaps not a fee, `mate_bound::Flights::OrTooDear`).
    pub stand: bool,
}

impl MateRules {
    /// The FIDE rules.
    pub const FIDE: MateRules = MateRules {
        falls: false,
        parries: true,
        stand: false,
    };
}

/// A man of the root.
#[derive(Copy, Clone, Debug)]
struct Man {
    sq: Square,
    role: Role,
    color: Color,
}

/// One named man of a plan: which man of the root, where it stands in the mate and as
/// what.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Named {
    man: u8,
    to: Square,
    form: Role,
}

/// The men a mate names (see the module's comment).
#[derive(Clone, Debug)]
pub struct Plan {
    named: [Named; MOST_NAMED],
    len: u8,
}

impl Plan {
    fn named(&self) -> &[Named] {
        &self.named[..self.len as usize]
    }

    /// Where the plan names man `man` (which it names).
    fn of(&self, man: usize) -> Named {
        *self
            .named()
            .iter()
            .find(|n| n.man as usize == man)
            .expect("the plan names the man")
    }
}

/// The listing of the plans of one root.
struct Lister<'a, G: Geometry> {
    tables: &'a MateTables,
    geo: &'a G,
    men: &'a [Man],
    winner: Color,
    /// The mated king's square in the plans being listed.
    k: Square,
    win_left: u8,
    lose_left: u8,
    named: Vec<Named>,
    /// The men named, by index.
    used: u64,
    /// The squares of the named men (k among them), and those of the mated side's.
    occupied: Bitboard,
    blockers: Bitboard,
    /// Squares that must stay empty: between the checker and k, and between each
    /// witness and the flight it was named for.
    keep_empty: Bitboard,
    /// Under Trapdoor: the squares between each witness and its flight, which a man of
    /// the mated side may hold in the mate (`falls`), not in `keep_empty`.
    witness_lines: Bitboard,
    /// What the game changes in a mate (`MateRules`).
    rules: MateRules,
    plans: Vec<Plan>,
    /// The listing's steps so far.
    steps: usize,
    overflow: bool,
}

impl<G: Geometry> Lister<'_, G> {
    fn distance(&self, man: usize, form: Role, to: Square) -> u8 {
        let m = self.men[man];
        self.tables.distance(m.color, m.role, m.sq, form, to)
    }

    /// The squares whose named men block a witness's line to a flight: every named
    /// man's but k's, and under Trapdoor not the mated side's (each may fall after the
    /// king's step and open the line).
    fn line_blockers(&self) -> Bitboard {
        let named = self.occupied.without(self.k);
        if self.rules.falls {
            // The mated side's named men other than its king stand on flights.
            named - self.blockers
        } else {
            named
        }
    }

    /// Whether the named men cover flight `f`: a man of the mated side stands there, or
    /// a man of the mating side attacks it, the king off k (or, where its capture may be
    /// too dear, `stand`, stands there).
    fn covered(&self, f: Square) -> bool {
        if self.blockers.contains(f) {
            return true;
        }
        let occupied = self.line_blockers();
        self.named.iter().any(|n| {
            let m = self.men[n.man as usize];
            m.color == self.winner
                && if n.to == f {
                    self.rules.stand
                } else {
                    piece_attacks(self.geo, n.form, m.color, n.to, occupied).contains(f)
                }
        })
    }

    fn emit(&mut self) {
        if self.plans.len() >= MOST_PLANS {
            self.overflow = true;
            return;
        }
        let mut named = [Named {
            man: 0,
            to: Square::A1,
            form: Role::Pawn,
        }; MOST_NAMED];
        named[..self.named.len()].copy_from_slice(&self.named);
        self.plans.push(Plan {
            named,
            len: self.named.len() as u8,
        });
    }

    /// Names man `man` on `to` as `form`.
    fn name(&mut self, man: usize, to: Square, form: Role) {
        self.named.push(Named {
            man: man as u8,
            to,
            form,
        });
        self.used |= 1 << man;
        self.occupied = self.occupied.with(to);
    }

    /// Takes back the man named last.
    fn unname(&mut self) {
        let n = self.named.pop().expect("a man was named");
        self.used &= !(1 << n.man);
        self.occupied = self.occupied.without(n.to);
    }

    /// Every plan that completes the named men, with `win` and `lose` moves spent.
    fn flights(&mut self, win: u8, lose: u8) {
        self.steps += 1;
        if self.steps > MOST_STEPS {
            self.overflow = true;
        }
        if self.overflow {
            return;
        }
        let squares = self.geo.squares();
        let Some(f) = (self.geo.king_attacks(self.k) & squares)
            .into_iter()
            .find(|&f| !self.covered(f))
        else {
            self.finish(win);
            return;
        };
        if self.named.len() >= MOST_NAMED {
            // Not reached: a witness covers at least its flight, and there are at most
            // eight.
            return;
        }
        // A man of the mated side stands on f (under Trapdoor it may stand on a
        // witness's line: it falls after the king's step); or, where its capture may be
        // too dear, a man of the mating side other than its king (the kings never stand
        // side by side: the mated side pays a king's step at the mate, so the mating
        // king there would be in check).
        if !self.occupied.contains(f) && !self.keep_empty.contains(f) {
            self.stand_on(f, !self.winner, win, lose);
            if self.rules.stand {
                self.stand_on(f, self.winner, win, lose);
            }
        }
        // A man of the mating side attacks f.
        let others = self.line_blockers();
        for i in 0..self.men.len() {
            let m = self.men[i];
            if m.color != self.winner || self.used & (1 << i) != 0 {
                continue;
            }
            for &form in forms(m.role) {
                let from = self.tables.attackers_of(m.color, form, f) & squares;
                for y in from - self.occupied - self.keep_empty - self.witness_lines {
                    if y == self.k
                        || (form == Role::King && self.geo.king_attacks(self.k).contains(y))
                    {
                        continue;
                    }
                    let line = self.geo.between(y, f);
                    if (line & others).is_nonempty() {
                        continue;
                    }
                    let d = self.distance(i, form, y);
                    if d == FAR || win + d > self.win_left {
                        continue;
                    }
                    let (keep, lines) = (self.keep_empty, self.witness_lines);
                    if self.rules.falls {
                        self.witness_lines |= line.without(self.k);
                    } else {
                        self.keep_empty |= line.without(self.k);
                    }
                    self.name(i, y, form);
                    self.flights(win + d, lose);
                    self.unname();
                    (self.keep_empty, self.witness_lines) = (keep, lines);
                }
            }
        }
    }

    /// Every plan that completes the named men with a man of `side` other than its king
    /// standing on flight `f`, in each form it can take within its side's moves left
    /// (`win` and `lose` spent): a man of the mated side holds the flight, one of the
    /// mating side bars it (`MateRules::stand`).
    fn stand_on(&mut self, f: Square, side: Color, win: u8, lose: u8) {
        let mated = side != self.winner;
        for i in 0..self.men.len() {
            let m = self.men[i];
            if m.color != side || m.role == Role::King || self.used & (1 << i) != 0 {
                continue;
            }
            for &form in forms(m.role) {
                let d = self.distance(i, form, f);
                if d == FAR {
                    continue;
                }
                let (win, lose) = if mated {
                    (win, lose + d)
                } else {
                    (win + d, lose)
                };
                if win > self.win_left || lose > self.lose_left {
                    continue;
                }
                self.name(i, f, form);
                if mated {
                    self.blockers = self.blockers.with(f);
                }
                self.flights(win, lose);
                if mated {
                    self.blockers = self.blockers.without(f);
                }
                self.unname();
            }
        }
    }

    /// The plans of the named men, every flight covered: written as they are unless a
    /// named man of the mated side parries the check whatever the men not named do
    /// (`parry`). Then the mate needs what makes that parry illegal: a second check
    /// (only the king may answer it) or a pin of the parrying man by a man the plan did
    /// not name yet; a plan is written for each, and one that leaves neither possible is
    /// not (it holds in no mate).
    fn finish(&mut self, win: u8) {
        self.steps += 1;
        if self.steps > MOST_STEPS {
            self.overflow = true;
        }
        if self.overflow {
            return;
        }
        // Under Trapdoor a parry may be illegal by a fall of the mated side's men
        // (rules.md 1.5d), under Taxi with little money by its price: there no parry
        // is asked for (`MateRules::parries`).
        if self.named.len() >= MOST_NAMED || !self.rules.parries {
            self.emit();
            return;
        }
        let Some((man, to)) = self.parry() else {
            self.emit();
            return;
        };
        self.second_checks(win);
        self.pins(man, to, win);
    }

    /// A move of a named man of the mated side, from where the plan names it, that
    /// takes the checker or steps between it and k in every position where the plan
    /// holds, unless a second check or a pin makes it illegal, and that no named man
    /// can make illegal (a named man of the mating side that may attack k besides the
    /// checker, or may pin the parrying man off its move). Only moves no man can block
    /// count: a leap, a pawn's capture or one step, a ride over squares the plan keeps
    /// empty. En passant and a pawn's double step are not looked at (fewer parries
    /// found leave more plans, never fewer mates).
    fn parry(&self) -> Option<(Square, Square)> {
        let checker = self.named[1];
        let winner = self.winner;
        let second = self.named[2..].iter().any(|n| {
            self.men[n.man as usize].color == winner
                && piece_attacks(self.geo, n.form, winner, n.to, self.occupied).contains(self.k)
        });
        if second {
            return None;
        }
        let line = self.geo.between(checker.to, self.k);
        let targets = line.with(checker.to);
        let loser = !winner;
        for n in &self.named[1..] {
            if self.men[n.man as usize].color != loser {
                continue;
            }
            let reach = match n.form {
                Role::King => Bitboard::EMPTY,
                Role::Pawn => {
                    (self.geo.pawn_attacks(loser, n.to) & Bitboard::from_square(checker.to))
                        | (self.geo.pawn_step(loser, n.to) & line)
                }
                form => piece_attacks(self.geo, form, loser, n.to, !self.keep_empty),
            };
            for s in reach & targets {
                if !self.pinnable(n.to, s) {
                    return Some((n.to, s));
                }
            }
        }
        None
    }

    /// Whether a named man of the mating side may pin the man on `at` against k off
    /// its move to `s`: it rides to k through `at` with no other named man between.
    fn pinnable(&self, at: Square, s: Square) -> bool {
        self.named.iter().any(|n| {
            self.men[n.man as usize].color == self.winner
                && self.rides_to_k(n.form, n.to)
                && self.pin_line(n.to, at, s)
        })
    }

    /// Whether a rider on `y` would pin a man on `at` against k off its move to `s`:
    /// `at` lies between them with no named man, and `s` is off the line.
    fn pin_line(&self, y: Square, at: Square, s: Square) -> bool {
        let ray = self.geo.between(self.k, y);
        ray.contains(at) && !ray.with(y).contains(s) && (ray.without(at) & self.occupied).is_empty()
    }

    /// Whether a man of `form` on `y` is a rider that reaches k on the empty board.
    fn rides_to_k(&self, form: Role, y: Square) -> bool {
        matches!(form, Role::Bishop | Role::Rook | Role::Queen)
            && piece_attacks(self.geo, form, self.winner, y, Bitboard::EMPTY).contains(self.k)
    }

    /// The plans with a second checker: a man not named yet, attacking k over squares
    /// kept empty.
    fn second_checks(&mut self, win: u8) {
        let squares = self.geo.squares();
        for i in 0..self.men.len() {
            let m = self.men[i];
            if m.color != self.winner || m.role == Role::King || self.used & (1 << i) != 0 {
                continue;
            }
            for &form in forms(m.role) {
                let from = self.tables.attackers_of(m.color, form, self.k) & squares;
                for y in (from - self.occupied - self.keep_empty).without(self.k) {
                    let line = self.geo.between(y, self.k);
                    if (line & self.occupied).is_nonempty() {
                        continue;
                    }
                    let d = self.distance(i, form, y);
                    if d == FAR || win + d > self.win_left {
                        continue;
                    }
                    let keep = self.keep_empty;
                    self.keep_empty |= line;
                    self.name(i, y, form);
                    self.emit();
                    self.unname();
                    self.keep_empty = keep;
                }
            }
        }
    }

    /// The plans with a pinner of the man on `at` off its parry to `s`: a rider not
    /// named yet on the line from k through `at`, the squares between kept empty; each
    /// finished again (another parry may remain).
    fn pins(&mut self, at: Square, s: Square, win: u8) {
        let squares = self.geo.squares();
        for y in squares - self.occupied - self.keep_empty {
            if !self.pin_line(y, at, s) {
                continue;
            }
            let ray = self.geo.between(self.k, y);
            for i in 0..self.men.len() {
                let m = self.men[i];
                if m.color != self.winner || self.used & (1 << i) != 0 {
                    continue;
                }
                for &form in forms(m.role) {
                    if !self.rides_to_k(form, y) {
                        continue;
                    }
                    let d = self.distance(i, form, y);
                    if d == FAR || win + d > self.win_left {
                        continue;
                    }
                    let keep = self.keep_empty;
                    self.keep_empty |= ray.without(at);
                    self.name(i, y, form);
                    self.finish(win + d);
                    self.unname();
                    self.keep_empty = keep;
                    if self.overflow {
                        return;
                    }
                }
            }
        }
    }

    /// Every plan with the mated king (man `king`) on each square it can reach.
    fn list(&mut self, king: usize) {
        let squares = self.geo.squares();
        for k in squares {
            let walk = self.distance(king, Role::King, k);
            if walk == FAR || walk > self.lose_left {
                continue;
            }
            self.k = k;
            self.named.clear();
            self.used = 0;
            self.occupied = Bitboard::EMPTY;
            self.blockers = Bitboard::EMPTY;
            self.witness_lines = Bitboard::EMPTY;
            self.name(king, k, Role::King);
            // The checker: a king never checks (kings never stand side by side; under
            // Taxi plans serve only where the mated side could pay to take a king
            // beside its own, see the module's comment).
            for i in 0..self.men.len() {
                let m = self.men[i];
                if m.color != self.winner || m.role == Role::King {
                    continue;
                }
                for &form in forms(m.role) {
                    for x in (self.tables.attackers_of(m.color, form, k) & squares).without(k) {
                        let d = self.distance(i, form, x);
                        if d == FAR || d > self.win_left {
                            continue;
                        }
                        self.keep_empty = self.geo.between(x, k);
                        self.name(i, x, form);
                        self.flights(d, walk);
                        self.unname();
                        if self.overflow {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// The plans of a help play from `pos` of `turns` turns won by `winner`. None where plans
/// do not serve (`NoGuide::NotServed`): the board holds more than 64 men, the mated side
/// has no king, the line is shorter than `FEWEST_TURNS` or longer than 400 turns; nor
/// where the listing passes `MOST_PLANS` or `MOST_STEPS` (`NoGuide::TooMany`: more turns
/// only allow more plans). The caller has made sure the game's mate is one the rules
/// describe, on a fixed board.
pub fn plans<G: Geometry>(
    tables: Arc<MateTables>,
    geo: &G,
    pos: &Position,
    winner: Color,
    turns: u32,
    rules: MateRules,
) -> Result<PlanGuide, NoGuide> {
    // A side's moves left, with its castling allowance, must stay below `FAR` (a
    // need is a byte): no plan helps a line that long anyway.
    if !(FEWEST_TURNS..=400).contains(&turns) {
        return Err(NoGuide::NotServed);
    }
    let castle = castling_gain(pos);
    let men: Vec<Man> = pos
        .board()
        .pieces()
        .map(|(sq, p)| Man {
            sq,
            role: p.role,
            color: p.color,
        })
        .collect();
    if men.len() > 64 {
        return Err(NoGuide::NotServed);
    }
    let king = men
        .iter()
        .position(|m| m.color != winner && m.role == Role::King)
        .ok_or(NoGuide::NotServed)?;
    let (win_left, lose_left) = moves_left(pos, winner, turns);
    let mut lister = Lister {
        tables: &tables,
        geo,
        men: &men,
        winner,
        k: Square::A1,
        win_left: (win_left.min(240) as u8) + castle[winner.index()],
        lose_left: (lose_left.min(240) as u8) + castle[(!winner).index()],
        named: Vec::with_capacity(MOST_NAMED),
        used: 0,
        occupied: Bitboard::EMPTY,
        blockers: Bitboard::EMPTY,
        keep_empty: Bitboard::EMPTY,
        witness_lines: Bitboard::EMPTY,
        rules,
        plans: Vec::new(),
        steps: 0,
        overflow: false,
    };
    lister.list(king);
    if lister.overflow {
        return Err(NoGuide::TooMany);
    }
    let listed = std::mem::take(&mut lister.plans);
    let plans = minimal(listed);
    Ok(PlanGuide::new(tables, winner, pos, men, plans, castle))
}

/// Per side, how many moves more than one its named men may come nearer by in its one
/// castling: the king's steps to its castled square (the rook comes one nearer, as any
/// man by any move). 0 for a side without a castling right.
fn castling_gain(pos: &Position) -> [u8; 2] {
    let mut gain = [0u8; 2];
    for rook in pos.castling() {
        let Some(p) = pos.board().piece_at(rook) else {
            continue;
        };
        let Some(king) = pos.board().king(p.color) else {
            continue;
        };
        let to_file = if rook.file() > king.file() { 6 } else { 2 };
        let steps = (king.file() as i32 - to_file).unsigned_abs() as u8;
        let g = &mut gain[p.color.index()];
        *g = (*g).max(steps);
    }
    gain
}

/// The plans that name no other plan's men and more: a mate in which a plan holds holds
/// every plan whose named men are among its own, so searching the larger plan finds no
/// line the smaller one does not (and two plans that name the same men are one).
fn minimal(plans: Vec<Plan>) -> Vec<Plan> {
    // Every plan names the mated king first and the checker second; they group the plans.
    let mut plans: Vec<((Named, Named), Plan)> = plans
        .into_iter()
        .map(|mut p| {
            let key = (p.named[0], p.named[1]);
            p.named[..p.len as usize].sort_unstable();
            (key, p)
        })
        .collect();
    plans.sort_by(|(_, a), (_, b)| a.len.cmp(&b.len).then_with(|| a.named().cmp(b.named())));
    plans.dedup_by(|(_, b), (_, a)| a.named() == b.named());
    let mut kept: hashbrown::HashMap<(Named, Named), Vec<usize>> = hashbrown::HashMap::new();
    let mut out: Vec<Plan> = Vec::with_capacity(plans.len());
    for (key, p) in plans {
        let group = kept.entry(key).or_default();
        let dominated = group
            .iter()
            .any(|&a| out[a].named().iter().all(|n| p.named().contains(n)));
        if !dominated {
            group.push(out.len());
            out.push(p);
        }
    }
    out
}

/// No man on a square (`Frame::man_at`).
const NO_MAN: u8 = u8::MAX;

/// A plan still possible on a node, with each side's fewest moves to bring its named men
/// where it names them.
#[derive(Copy, Clone)]
struct Live {
    plan: u16,
    need: [u8; 2],
}

/// One node of the line being searched: the plans still possible there, where the men of
/// the root stand and as what.
#[derive(Clone)]
struct Frame {
    live: Vec<Live>,
    man_at: [u8; 64],
    role: Vec<Role>,
    mover: Color,
    /// A hash of the set of plans in `live`.
    key: u64,
    /// Whether some plan in `live` leaves the side to move a move to spare; if none
    /// does, only the men in `named` may move (the move must bring one nearer).
    spare: bool,
    named: u64,
    /// Per side, what castling may still gain it (`castling_gain`); kept until the
    /// side's king moves, whatever else takes the right away.
    castle: [u8; 2],
    /// The plans after a move of one man, as far as they do not depend on the move.
    by_man: ByMan,
}

/// The moves of one man from a node share most of their work: a plan that does not name
/// the man goes on after any of them (no capture of its men) exactly when it leaves the
/// mover a move to spare; only the plans naming the man depend on where it goes.
#[derive(Clone, Default)]
struct ByMan {
    /// The man, or `NO_MAN` where nothing is kept yet.
    man: u8,
    /// The plans that do not name the man and go on, with their key, their union of
    /// named men and whether one leaves the next mover a move to spare.
    others: Vec<Live>,
    key: u64,
    named: u64,
    spare: bool,
    /// The plans that name the man: each with its needs less the man's distance now,
    /// and where it names the man.
    naming: Vec<(Live, Square, Role)>,
}

/// The plans of one root, followed along the line being searched: a move is played only
/// if some plan is still possible after it, and the table's key of a node holds the set
/// of plans possible there (a failure proved for one set says nothing of another).
/// Searching all plans together visits each node once however many plans it serves.
pub struct PlanGuide {
    tables: Arc<MateTables>,
    winner: Color,
    men: Vec<Man>,
    plans: Vec<Plan>,
    /// Per plan, its named men as a mask of the root's men.
    masks: Vec<u64>,
    /// Per plan, a random word: a set's key is the sum (xor) of its plans' words.
    words: Vec<u64>,
    /// The nodes from the root to the one entered last (`depth`); deeper frames are kept
    /// for their memory.
    frames: Vec<Frame>,
    depth: usize,
}

impl PlanGuide {
    fn new(
        tables: Arc<MateTables>,
        winner: Color,
        pos: &Position,
        men: Vec<Man>,
        plans: Vec<Plan>,
        castle: [u8; 2],
    ) -> Self {
        let mut man_at = [NO_MAN; 64];
        for (i, m) in men.iter().enumerate() {
            man_at[m.sq.index()] = i as u8;
        }
        let mut word = 0x2545_F491_4F6C_DD1D_u64;
        let mut root = Frame {
            live: Vec::with_capacity(plans.len()),
            man_at,
            role: men.iter().map(|m| m.role).collect(),
            mover: pos.turn(),
            key: 0,
            spare: true,
            named: 0,
            castle,
            by_man: ByMan {
                man: NO_MAN,
                ..ByMan::default()
            },
        };
        let mut masks = Vec::with_capacity(plans.len());
        let mut words = Vec::with_capacity(plans.len());
        for (i, plan) in plans.iter().enumerate() {
            let mut need = [0u8; 2];
            let mut mask = 0u64;
            for n in plan.named() {
                let m = men[n.man as usize];
                let d = tables.distance(m.color, m.role, m.sq, n.form, n.to);
                need[m.color.index()] = need[m.color.index()].saturating_add(d);
                mask |= 1 << n.man;
            }
            // xorshift: distinct words for the plans, fixed from run to run.
            word ^= word << 13;
            word ^= word >> 7;
            word ^= word << 17;
            masks.push(mask);
            words.push(word);
            root.key ^= word;
            root.live.push(Live {
                plan: i as u16,
                need,
            });
        }
        PlanGuide {
            tables,
            winner,
            men,
            plans,
            masks,
            words,
            frames: vec![root],
            depth: 0,
        }
    }

    /// Back at the root.
    pub fn restart(&mut self) {
        self.depth = 0;
    }

    /// Whether some plan goes on with `mv` from the node entered last, `turns` turns left
    /// before it; the node after `mv` is entered when one does.
    pub fn enter<G: Geometry>(&mut self, geo: &G, mv: Move, turns: u32) -> bool {
        if self.frames.len() == self.depth + 1 {
            let copy = self.frames[self.depth].clone();
            self.frames.push(copy);
        }
        let (done, next) = self.frames.split_at_mut(self.depth + 1);
        let (cur, next) = (&mut done[self.depth], &mut next[0]);
        let moved = cur.man_at[mv.from.index()];
        debug_assert!(moved != NO_MAN, "every man of a node is a man of the root");
        if !cur.spare && cur.named & (1 << moved) == 0 {
            return false;
        }
        let mover = cur.mover;
        let m = moved as usize;
        let color = self.men[m].color;
        let (role_before, role_after) = (cur.role[m], mv.promotion().unwrap_or(cur.role[m]));
        let mut castle = cur.castle;
        if role_before == Role::King {
            castle[color.index()] = 0;
        }
        // The moves left after `mv`, the other side to move, each with what castling
        // may still gain it.
        let left = turns.saturating_sub(1);
        let (win_left, lose_left) = if !mover == self.winner {
            (left.div_ceil(2), left / 2)
        } else {
            (left / 2, left.div_ceil(2))
        };
        let limit = |c: Color| {
            let moves = if c == self.winner {
                win_left
            } else {
                lose_left
            };
            moves + castle[c.index()] as u32
        };
        let own_limit = limit(color);
        // The other side's limit now, and after a move of a man no plan brings nearer.
        let other_limit = limit(!color);
        let next_limit = other_limit.saturating_sub(1);
        let tables = &*self.tables;
        // A castling move's rook, and a man taken (none for castling: `to` is the rook's).
        let (rook, taken) = match mv.kind {
            MoveKind::Castle => (cur.man_at[mv.to.index()], None),
            MoveKind::EnPassant => (NO_MAN, Some(geo.pawn_step(!mover, mv.to).single())),
            _ => (NO_MAN, Some(mv.to)),
        };
        let captured = taken.map_or(NO_MAN, |sq| cur.man_at[sq.index()]);
        let (to, rook_to) = if rook == NO_MAN {
            (mv.to, mv.to)
        } else {
            (mv.castle_king_to(), mv.castle_rook_to())
        };
        next.live.clear();
        next.key = 0;
        next.spare = false;
        next.named = 0;
        let push = |next: &mut Frame, plan: u16, need: [u8; 2], mask: u64, word: u64| {
            next.live.push(Live { plan, need });
            next.key ^= word;
            next.spare |= need[(!color).index()] as u32 <= next_limit;
            next.named |= mask;
        };
        let named_taken = captured != NO_MAN && cur.named & (1 << captured) != 0;
        if named_taken || rook != NO_MAN {
            // A named man taken, or two men moved: every plan looked at.
            let dead = if captured == NO_MAN {
                0
            } else {
                1u64 << captured
            };
            for live in &cur.live {
                let p = live.plan as usize;
                let mask = self.masks[p];
                if mask & dead != 0 {
                    continue;
                }
                let mut need = live.need;
                let own = &mut need[color.index()];
                if mask & (1 << m) != 0 {
                    let n = self.plans[p].of(m);
                    let before = tables.distance(color, role_before, mv.from, n.form, n.to);
                    let after = tables.distance(color, role_after, to, n.form, n.to);
                    *own = own.saturating_sub(before).saturating_add(after);
                }
                if rook != NO_MAN && mask & (1 << rook) != 0 {
                    let n = self.plans[p].of(rook as usize);
                    let before = tables.distance(color, Role::Rook, mv.to, n.form, n.to);
                    let after = tables.distance(color, Role::Rook, rook_to, n.form, n.to);
                    *own = own.saturating_sub(before).saturating_add(after);
                }
                if *own as u32 > own_limit {
                    continue;
                }
                push(next, live.plan, need, mask, self.words[p]);
            }
        } else {
            let by_man = &mut cur.by_man;
            if by_man.man != moved {
                by_man.man = moved;
                by_man.others.clear();
                by_man.naming.clear();
                by_man.key = 0;
                by_man.named = 0;
                by_man.spare = false;
                for live in &cur.live {
                    let p = live.plan as usize;
                    let mask = self.masks[p];
                    if mask & (1 << m) != 0 {
                        let n = self.plans[p].of(m);
                        let before = tables.distance(color, role_before, mv.from, n.form, n.to);
                        let mut less = *live;
                        let own = &mut less.need[color.index()];
                        *own = own.saturating_sub(before);
                        by_man.naming.push((less, n.to, n.form));
                    } else if live.need[color.index()] as u32 <= own_limit {
                        by_man.others.push(*live);
                        by_man.key ^= self.words[p];
                        by_man.named |= mask;
                        by_man.spare |= live.need[(!color).index()] as u32 <= next_limit;
                    }
                }
            }
            next.live.clone_from(&by_man.others);
            next.key = by_man.key;
            next.named = by_man.named;
            next.spare = by_man.spare;
            for &(less, goal, form) in &by_man.naming {
                let mut need = less.need;
                let own = &mut need[color.index()];
                *own = own.saturating_add(tables.distance(color, role_after, to, form, goal));
                if *own as u32 > own_limit {
                    continue;
                }
                let p = less.plan as usize;
                push(next, less.plan, need, self.masks[p], self.words[p]);
            }
        }
        if next.live.is_empty() {
            return false;
        }
        next.man_at = cur.man_at;
        if let Some(sq) = taken {
            next.man_at[sq.index()] = NO_MAN;
        }
        next.man_at[mv.from.index()] = NO_MAN;
        if rook != NO_MAN {
            next.man_at[mv.to.index()] = NO_MAN;
            next.man_at[rook_to.index()] = rook;
        }
        next.man_at[to.index()] = moved;
        next.role.clone_from(&cur.role);
        next.role[m] = role_after;
        next.mover = !mover;
        next.castle = castle;
        next.by_man.man = NO_MAN;
        self.depth += 1;
        true
    }

    /// Back to the node before the last move entered.
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// The key of the set of plans possible on the node entered last.
    pub fn key(&self) -> u64 {
        self.frames[self.depth].key
    }
}

/// The guide with the geometry it plays on.
pub struct GuideOn<'a, G: Geometry> {
    pub geo: &'a G,
    pub guide: PlanGuide,
}

impl<G: Geometry> crate::generic::help::HelpGuide<Move> for GuideOn<'_, G> {
    fn restart(&mut self) {
        self.guide.restart()
    }

    fn enter(&mut self, mv: Move, turns: u32) -> bool {
        self.guide.enter(self.geo, mv, turns)
    }

    fn leave(&mut self) {
        self.guide.leave()
    }

    fn key(&self) -> u64 {
        self.guide.key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_fen;
    use crate::geometry::Standard;
    use crate::movegen::{king_attacked, legal_moves};
    use crate::test_rng::Rng;

    /// Boards one White move from many mates: Black's king on or near an edge with two
    /// to four of its men beside it (they block flights and could parry a single
    /// check), White's king apart, two to four of White's men anywhere, riders most of
    /// them (they pin the men beside the king and check twice). White to move, Black
    /// not in check.
    fn near_mates(seed: u64, count: usize, mut visit: impl FnMut(&Position)) {
        let mut rng = Rng(seed);
        let near =
            |a: usize, b: usize| (a % 8).abs_diff(b % 8) <= 1 && (a / 8).abs_diff(b / 8) <= 1;
        let mut seen = 0;
        while seen < count {
            let mut board = [None::<char>; 64];
            let king = loop {
                let sq = rng.below(64);
                let (f, r) = (sq % 8, sq / 8);
                if f <= 1 || f >= 6 || r <= 1 || r >= 6 {
                    break sq;
                }
            };
            board[king] = Some('k');
            let mut put = |rng: &mut Rng, man: char, ok: &dyn Fn(usize) -> bool| {
                for _ in 0..50 {
                    let sq = rng.below(64);
                    let pawn_rank = sq / 8 == 0 || sq / 8 == 7;
                    if board[sq].is_none()
                        && ok(sq)
                        && !(man.eq_ignore_ascii_case(&'p') && pawn_rank)
                    {
                        board[sq] = Some(man);
                        return;
                    }
                }
            };
            put(&mut rng, 'K', &|sq| !near(sq, king));
            for _ in 0..2 + rng.below(3) {
                let man = b"rrbnnpp"[rng.below(7)] as char;
                put(&mut rng, man, &|sq| near(sq, king));
            }
            for _ in 0..2 + rng.below(3) {
                let man = b"QRRBBNP"[rng.below(7)] as char;
                put(&mut rng, man, &|_| true);
            }
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|r| (0..8).map(|f| board[r * 8 + f].unwrap_or('1')).collect())
                .collect();
            let Ok(pos) = parse_fen(&format!("{} w - - 0 1", ranks.join("/"))) else {
                continue;
            };
            if king_attacked(&Standard, &pos, Color::Black) {
                continue;
            }
            visit(&pos);
            seen += 1;
        }
    }

    /// Whether some plan listed from `mate` itself names only men already where it
    /// names them.
    fn holds_in_place(tables: &Arc<MateTables>, mate: &Position) -> Option<bool> {
        holds_in_place_by(tables, mate, MateRules::FIDE)
    }

    /// `holds_in_place` under `rules`.
    fn holds_in_place_by(
        tables: &Arc<MateTables>,
        mate: &Position,
        rules: MateRules,
    ) -> Option<bool> {
        let guide = plans(tables.clone(), &Standard, mate, Color::White, 5, rules).ok()?;
        Some(guide.frames[0].live.iter().any(|l| l.need == [0, 0]))
    }

    /// A Taxi mate whose flight holds a man too dear to take (rules.md 2.1, 2.3): Black,
    /// with one guilder at its turn, cannot pay for Kxa7 (a step and the edge's fee, two)
    /// nor for Kxb8 (the pawn guards it); the rook checks and holds b7. Only the pawn
    /// standing on a7 bars that flight, so a plan holds in this mate only where a man
    /// standing on a flight is its witness (`MateRules::stand`); under FIDE's listing
    /// none does (Kxa7 would be a flight).
    #[test]
    fn a_man_too_dear_to_take_on_a_flight_is_its_witness() {
        let tables = MateTables::for_geometry(&Standard);
        let mate = parse_fen("kR6/P7/8/8/8/8/8/7K b - - 0 1").unwrap();
        let stand = MateRules {
            falls: false,
            parries: false,
            stand: true,
        };
        assert_eq!(holds_in_place_by(&tables, &mate, stand), Some(true));
        assert_eq!(holds_in_place(&tables, &mate), Some(false));
    }

    /// Mates that need `Lister::finish`'s answers to a parry: a double check by two
    /// knights, each taken by a man on a flight (a7xb6, Bxc7), every flight blocked, so
    /// that only a plan with the second checker holds; a double check by two riders that
    /// each cover a flight, the knight on the third able to step between either and k
    /// (the second checker is named as a witness); a rook pinned on the king's rank (the
    /// pinner also covers the rook's square: plans without the rook hold too).
    #[test]
    fn mates_by_double_check_and_pin_keep_their_plans() {
        let tables = MateTables::for_geometry(&Standard);
        for fen in [
            "kb6/pnN5/1N6/8/8/8/8/7K b - - 0 1",
            "kn6/8/8/8/4B3/8/8/R6K b - - 0 1",
            "kr5R/p7/8/3B4/8/8/8/7K b - - 0 1",
        ] {
            let mate = parse_fen(fen).unwrap();
            assert!(legal_moves(&Standard, &mate).is_empty());
            assert!(king_attacked(&Standard, &mate, Color::Black));
            assert_eq!(holds_in_place(&tables, &mate), Some(true), "{fen}");
        }
    }

    /// Every mate has a plan that holds in it (the module's first claim): listed from
    /// the mate itself, some plan names only men already where it names them. Mates made
    /// by White's last move on boards where men beside the mated king could parry a
    /// single check and riders pin them or check twice (`Lister::finish`).
    #[test]
    fn every_mate_has_a_plan_that_holds_in_it() {
        let tables = MateTables::for_geometry(&Standard);
        let (mut mates, mut double) = (0, 0);
        near_mates(7, 8_000, |pos| {
            for &mv in legal_moves(&Standard, pos).iter() {
                let mut mate = *pos;
                mate.play_board(&Standard, mv);
                if !king_attacked(&Standard, &mate, Color::Black)
                    || !legal_moves(&Standard, &mate).is_empty()
                {
                    continue;
                }
                let Some(holds) = holds_in_place(&tables, &mate) else {
                    continue;
                };
                mates += 1;
                let board = mate.board();
                let king = board.king(Color::Black).unwrap();
                let checkers = crate::attacks::attackers(
                    &Standard,
                    board,
                    king,
                    Color::White,
                    board.occupied(),
                );
                double += usize::from(checkers.more_than_one());
                assert!(
                    holds,
                    "no plan holds in the mate {}",
                    crate::fen::write_fen(&mate)
                );
            }
        });
        assert!(
            mates >= 400 && double >= 3,
            "{mates} mates, {double} by double check"
        );
    }

    /// Too many plans at one length means too many at every longer one (help play
    /// lists no longer length again, `NoGuide::TooMany`): crowded boards from the
    /// array and from the published h#3 suite, each length from 5 to 9 turns.
    #[test]
    fn too_many_plans_stay_too_many_on_longer_lines() {
        let tables = MateTables::for_geometry(&Standard);
        let boards = [
            "5B2/2p1p3/1p2pp1b/5P1b/2p1k2q/6rp/p3B1P1/R3K3 b Q - 0 1",
            "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b K - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut overflows = 0;
        for fen in boards {
            let pos = parse_fen(fen).unwrap();
            let winner = !pos.turn();
            let mut too_many = false;
            for turns in 5..=9 {
                let listed = plans(
                    tables.clone(),
                    &Standard,
                    &pos,
                    winner,
                    turns,
                    MateRules::FIDE,
                );
                let now = matches!(listed, Err(NoGuide::TooMany));
                assert!(
                    !too_many || now,
                    "{fen}: too many at fewer turns, not at {turns}"
                );
                assert!(
                    !matches!(listed, Err(NoGuide::NotServed)),
                    "{fen} at {turns}"
                );
                overflows += usize::from(now);
                too_many = now;
            }
        }
        assert!(overflows >= 4, "{overflows} lengths with too many plans");
    }
}
