//! Backgammon's rules on bear-off side ranks: the solvers need every play of every roll
//! from millions of sides, and this layer makes them from checker counts with the rank
//! updated step by step, instead of building positions for the one move generator
//! ([`crate::gammon::moves::Generator`]). It is the same rules and the same search: the
//! larger die first, then the smaller; on a double the checkers taken from the highest
//! point down; each checker's step as `moves` allows it (a checker beyond point 6 moves
//! freely, bearing off needs every checker home and a larger die takes the highest
//! checker); each distinct result once, in the order first found. The tests hold it to the
//! generator, play for play.
//!
//! Without contact every die can be played while a checker is left (a checker above the
//! die moves down, and if none is, all are home and the highest bears off), so every play
//! uses all the dice or bears off the last checker.

use super::index::{BearoffIndex, MAX_POINTS};
use crate::gammon::Roll;

/// The points of backgammon's home board: a side bears off once all its checkers are on
/// points `1..=HOME`.
pub const HOME: usize = 6;

/// The 21 distinct rolls of two dice, smaller die first, ascending; with their weights
/// among the 36.
pub const ROLLS: [(u8, u8); 21] = {
    let mut out = [(0, 0); 21];
    let mut k = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            out[k] = (a, b);
            k += 1;
            b += 1;
        }
        a += 1;
    }
    out
};

/// The weight of roll `k` of [`ROLLS`] among the 36 ordered rolls: 1 for a double, else 2.
#[inline(always)]
pub const fn weight(k: usize) -> f64 {
    if ROLLS[k].0 == ROLLS[k].1 {
        1.0
    } else {
        2.0
    }
}

/// The roll `k` of [`ROLLS`].
pub fn roll(k: usize) -> Roll {
    Roll::new(ROLLS[k].0, ROLLS[k].1)
}

/// Counts of checkers on points `1..=P` (index 0 unused).
pub type Counts = [u8; MAX_POINTS + 1];

/// One side while a play is searched: its counts, the checkers on each point or above
/// (`above[q]`, `q` in `1..=P + 1`), its highest point, the checkers left and its rank.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Checkers per point, `1..=P`.
    pub counts: Counts,
    above: [u8; MAX_POINTS + 2],
    /// The highest point holding a checker (0 when all are off).
    pub top: u8,
    /// Checkers still on the board.
    pub on: u8,
    /// The side's rank.
    pub rank: u32,
}

/// The tables that rank sides on a board of `P` points: binomials and their differences.
pub struct Sides {
    points: usize,
    checkers: usize,
    sides: usize,
    /// `binom[m * WIDTH + k]` = C(m, k).
    binom: Vec<u64>,
}

const WIDTH: usize = MAX_POINTS + 2;

impl Sides {
    /// The rules on the sides of `index`.
    pub fn new(index: &BearoffIndex) -> Sides {
        let (points, checkers) = (index.points(), index.checkers());
        let rows = points + checkers + 2;
        let mut binom = vec![0u64; rows * WIDTH];
        for m in 0..rows {
            binom[m * WIDTH] = 1;
            for k in 1..WIDTH {
                binom[m * WIDTH + k] = if m == 0 {
                    0
                } else {
                    binom[(m - 1) * WIDTH + k - 1] + binom[(m - 1) * WIDTH + k]
                };
            }
        }
        Sides {
            points,
            checkers,
            sides: index.sides() as usize,
            binom,
        }
    }

    /// Points, `P`.
    pub fn points(&self) -> usize {
        self.points
    }

    /// Checkers a side at most, `C`.
    pub fn checkers(&self) -> usize {
        self.checkers
    }

    /// Sides, `n`.
    pub fn len(&self) -> usize {
        self.sides
    }

    /// Whether there is no side (never: every checker off is a side).
    pub fn is_empty(&self) -> bool {
        self.sides == 0
    }

    #[inline(always)]
    fn c(&self, m: usize, k: usize) -> u64 {
        self.binom[m * WIDTH + k]
    }

    /// The rank of `counts` (as [`BearoffIndex::rank`]).
    pub fn rank(&self, counts: &Counts) -> u32 {
        let p = self.points;
        let mut cell = 0usize;
        let mut r = 0u64;
        for q in (1..=p).rev() {
            cell += usize::from(counts[q]);
            r += self.c(cell, p - q + 1);
            cell += 1;
        }
        r as u32
    }

    /// The counts of rank `rank`.
    pub fn counts(&self, rank: u32) -> Counts {
        // Colex unranking: the bars from the top (point 1's) down.
        let p = self.points;
        let mut r = u64::from(rank);
        let mut counts = [0u8; MAX_POINTS + 1];
        let mut m = p + self.checkers; // cells above the current bar
        let mut cells = [0usize; MAX_POINTS + 1];
        for k in (1..=p).rev() {
            // The largest cell c < m with C(c, k) <= r.
            let mut c = m - 1;
            while self.c(c, k) > r {
                c -= 1;
            }
            r -= self.c(c, k);
            cells[k] = c;
            m = c;
        }
        // Bar k (from the bottom, k = 1..=P) belongs to point P - k + 1; the checkers of
        // point q lie between its bar and the bar below.
        let mut below = 0usize; // the cell just above the previous bar
        for (k, &cell) in cells.iter().enumerate().take(p + 1).skip(1) {
            counts[p - k + 1] = (cell - below) as u8;
            below = cell + 1;
        }
        counts
    }

    /// The node of a side.
    pub fn node(&self, rank: u32) -> Node {
        self.node_of(self.counts(rank), rank)
    }

    /// The node of counts whose rank is `rank`.
    pub fn node_of(&self, counts: Counts, rank: u32) -> Node {
        let p = self.points;
        let mut above = [0u8; MAX_POINTS + 2];
        for q in (1..=p).rev() {
            above[q] = above[q + 1] + counts[q];
        }
        let top = (1..=p).rev().find(|&q| counts[q] > 0).unwrap_or(0) as u8;
        Node {
            counts,
            above,
            top,
            on: above[1],
            rank,
        }
    }

    /// The side after moving its checker on point `from` by `die`, if the rules allow:
    /// a checker above the die moves down; one at or below it bears off when every
    /// checker is home and it is on the die's point or the highest.
    #[inline]
    pub fn step(&self, n: &Node, from: usize, die: usize) -> Option<Node> {
        if n.counts[from] == 0 {
            return None;
        }
        let to = if from > die {
            from - die
        } else {
            let top = usize::from(n.top);
            if top > HOME || (from < die && from != top) {
                return None;
            }
            0
        };
        let p = self.points;
        let mut next = *n;
        next.counts[from] -= 1;
        let mut delta = 0u64;
        // Each point's bar in (to, from] drops a cell: C(a, k) - C(a - 1, k) = C(a - 1, k - 1).
        for q in to + 1..=from {
            let cell = usize::from(n.above[q]) + p - q;
            delta += self.c(cell - 1, p - q);
            next.above[q] -= 1;
        }
        next.rank = (u64::from(n.rank) - delta) as u32;
        if to > 0 {
            next.counts[to] += 1;
        } else {
            next.on -= 1;
        }
        if next.counts[from] == 0 && from == top_of(n) {
            let mut t = from;
            while t > 0 && next.counts[t] == 0 {
                t -= 1;
            }
            next.top = t as u8;
        }
        Some(next)
    }

    /// Every distinct play of roll `k` ([`ROLLS`]) from the side `rank`, as the ranks of
    /// the sides after it, in the order the search first finds them (the one move
    /// generator's order); empty when the side has no checker.
    pub fn plays_into(&self, rank: u32, k: usize, out: &mut Vec<u32>) {
        out.clear();
        let n = self.node(rank);
        if n.on == 0 {
            return;
        }
        let (low, high) = (usize::from(ROLLS[k].0), usize::from(ROLLS[k].1));
        let mut push = |r: u32| {
            if !out.contains(&r) {
                out.push(r);
            }
        };
        if low == high {
            self.doubles(&n, low, 4, self.points, &mut push);
        } else {
            for (a, b) in [(high, low), (low, high)] {
                for from in (1..=usize::from(n.top)).rev() {
                    let Some(t) = self.step(&n, from, a) else {
                        continue;
                    };
                    if t.on == 0 {
                        push(t.rank);
                        continue;
                    }
                    for from2 in (1..=usize::from(t.top)).rev() {
                        if let Some(u) = self.step(&t, from2, b) {
                            push(u.rank);
                        }
                    }
                }
            }
        }
    }

    /// The plays of `left` more steps of `die`, each from no higher than `highest`.
    fn doubles(
        &self,
        n: &Node,
        die: usize,
        left: usize,
        highest: usize,
        push: &mut impl FnMut(u32),
    ) {
        if left == 0 {
            push(n.rank);
            return;
        }
        for from in (1..=highest.min(usize::from(n.top))).rev() {
            if let Some(t) = self.step(n, from, die) {
                if t.on == 0 {
                    push(t.rank);
                } else {
                    self.doubles(&t, die, left - 1, from, push);
                }
            }
        }
    }

    /// Pips of a side.
    pub fn pips(counts: &Counts) -> u32 {
        counts
            .iter()
            .enumerate()
            .map(|(q, &c)| q as u32 * u32::from(c))
            .sum()
    }
}

#[inline(always)]
fn top_of(n: &Node) -> usize {
    usize::from(n.top)
}

/// Every side's distinct plays of every roll, as ranks sorted ascending: `list[start[s *
/// 21 + k]..start[s * 21 + k + 1]]` for side `s` and roll `k`.
pub struct Successors {
    /// Where each side's and roll's plays begin, and one entry past the last.
    pub start: Vec<u32>,
    /// The ranks after each play.
    pub list: Vec<u32>,
}

impl Successors {
    /// The successors of every side of `sides`, built in parallel (the same for any
    /// thread count).
    pub fn new(sides: &Sides) -> Successors {
        use rayon::prelude::*;
        let n = sides.len();
        let chunks: Vec<(Vec<u32>, Vec<u32>)> = (0..n)
            .collect::<Vec<_>>()
            .par_chunks(1024)
            .map(|chunk| {
                let mut lens = Vec::with_capacity(chunk.len() * 21);
                let mut list = Vec::new();
                let mut plays = Vec::new();
                for &s in chunk {
                    for k in 0..21 {
                        sides.plays_into(s as u32, k, &mut plays);
                        plays.sort_unstable();
                        lens.push(plays.len() as u32);
                        list.extend_from_slice(&plays);
                    }
                }
                (lens, list)
            })
            .collect();
        let mut start = Vec::with_capacity(n * 21 + 1);
        let mut list = Vec::new();
        start.push(0u32);
        for (lens, l) in chunks {
            let mut at = *start.last().expect("non-empty");
            for len in lens {
                at += len;
                start.push(at);
            }
            list.extend_from_slice(&l);
        }
        Successors { start, list }
    }

    /// The plays of side `s` with roll `k`.
    #[inline(always)]
    pub fn of(&self, s: usize, k: usize) -> &[u32] {
        let i = s * 21 + k;
        &self.list[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::moves::Generator;
    use crate::gammon::{Position, Variant};

    /// Plays of the one generator on backgammon's board, as bear-off ranks.
    fn generator_plays(index: &BearoffIndex, side: &[u8], k: usize) -> Vec<u32> {
        let v = Variant::backgammon();
        let mut us = [0u8; 25];
        us[..side.len()].copy_from_slice(side);
        // An opponent far away in its own home board: no contact.
        let mut them = [0u8; 25];
        them[0] = 2;
        let p = Position::new(&us, &them).unwrap();
        let plays = Generator::new(&v).plays(&p, roll(k));
        plays
            .iter()
            .map(|m| index.side_of(m.after.us()).unwrap())
            .map(|s| index.rank(&s).unwrap() as u32)
            .collect()
    }

    fn agree(points: usize, checkers: usize, step: usize) -> usize {
        let index = BearoffIndex::new(points, checkers).unwrap();
        let sides = Sides::new(&index);
        let mut out = Vec::new();
        let mut compared = 0;
        for r in (1..index.sides()).step_by(step) {
            let side = index.side(r).unwrap();
            let n = sides.node(r as u32);
            assert_eq!(&n.counts[1..=points], &side[..], "counts of {r}");
            assert_eq!(sides.rank(&n.counts), r as u32);
            for k in 0..21 {
                sides.plays_into(r as u32, k, &mut out);
                assert_eq!(
                    out,
                    generator_plays(&index, &side, k),
                    "{side:?} {}",
                    roll(k)
                );
                compared += 1;
            }
        }
        compared
    }

    #[test]
    fn the_rank_search_makes_the_generators_plays_in_its_order_on_every_6x6_side() {
        assert_eq!(agree(6, 6, 1), 923 * 21);
    }

    #[test]
    fn the_rank_search_makes_the_generators_plays_with_checkers_outside_home() {
        // Ten points, fifteen checkers: checkers beyond the six point must come home first.
        assert!(agree(10, 15, 4_999) > 10_000);
        assert!(agree(8, 4, 1) > 10_000);
    }

    #[test]
    #[ignore = "every side of 6x15 and 8x8 against the generator: about ten seconds"]
    fn the_rank_search_makes_the_generators_plays_on_every_6x15_and_8x8_side() {
        agree(6, 15, 1);
        agree(8, 8, 1);
    }

    #[test]
    fn the_successor_lists_are_the_plays_sorted() {
        let index = BearoffIndex::new(6, 6).unwrap();
        let sides = Sides::new(&index);
        let s = Successors::new(&sides);
        let mut plays = Vec::new();
        for r in 0..index.sides() as usize {
            for k in 0..21 {
                sides.plays_into(r as u32, k, &mut plays);
                plays.sort_unstable();
                assert_eq!(s.of(r, k), &plays[..]);
            }
        }
        assert_eq!(s.of(0, 0), &[] as &[u32]);
    }
}
