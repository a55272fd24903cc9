//! The one-sided solve (`docs/bearoff.md`, "One-sided database"): for every side of 15
//! checkers on `P` points, the exact distribution of the number of rolls needed to bear
//! off every checker, playing each roll to minimise the expected number of rolls; and, for
//! a side with all 15 on the board, the distribution of the rolls until its first checker
//! is off, under the plays that minimise that expectation.
//!
//! Every play lowers the pip count, so the sides are solved level by level in ascending
//! pips, each level in parallel. A roll's best play is found without listing its plays:
//! for each side and die the best result of one, two and three steps of that die is kept
//! (`m1`, `m2`, `m3`), so that a roll `a-b` is the best of "one step of `a`, then the best
//! step of `b`" and the reverse, and a double `d-d` the best of "one step of `d`, then the
//! best three". Only the last seven levels of those tables are kept (a step moves at most
//! six pips). The result of a play is compared by its expectation as computed, then by its
//! rank: among plays whose expectations are exactly equal the one leading to the
//! lowest-numbered side is kept. That order is total, so the grouping into steps finds
//! the same play as listing every play would (the tests check it against the plays of
//! [`super::sides::Sides::plays_into`]).
//!
//! A second pass makes the distributions from the chosen plays, each the weighted shift
//! of its 21 best successors' distributions; they are kept as runs from the first to the
//! last roll count with a positive probability, as the table stores them.

use super::index::BearoffIndex;
use super::sides::{weight, Counts, Node, Sides, ROLLS};
use crate::gammon::Error;
use crate::progress::Progress;
use crate::rank::Combinations;
use rayon::prelude::*;

/// The checkers of a one-sided database.
pub const CHECKERS: usize = 15;

/// A gammon leaf that has borne a checker off: its "rolls to the first checker off" are 0.
const OFF: u32 = u32::MAX;

/// A play's result as compared: its expectation, then its rank (12 bytes: the tables of
/// the last levels are read at random, and their size is what the first pass waits on).
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(4))]
struct Entry {
    value: f64,
    rank: u32,
}

impl Entry {
    const WORST: Entry = Entry {
        value: f64::INFINITY,
        rank: u32::MAX,
    };

    const fn finished(rank: u32) -> Entry {
        Entry { value: 0.0, rank }
    }

    #[inline(always)]
    fn better(self, other: Entry) -> bool {
        let (v, w) = (self.value, other.value);
        v < w || (v == w && self.rank < other.rank)
    }

    #[inline(always)]
    fn keep_best(&mut self, other: Entry) {
        if other.better(*self) {
            *self = other;
        }
    }
}

/// One side's tables of best results: `m[(depth - 1) * 6 + (die - 1)]` is the best side
/// reached by `depth` steps of `die`.
type Steps = [Entry; 18];

/// What the first pass finds for one side, for one of the two quantities.
#[derive(Clone, Copy)]
struct Found {
    mean: f64,
    m: Steps,
    best: [u32; 21],
    lo: u8,
    hi: u8,
}

impl Found {
    fn len(&self) -> usize {
        usize::from(self.hi - self.lo) + 1
    }
}

/// What the first pass finds for one side.
struct Row {
    rank: u32,
    rolls: Found,
    gammon: Option<Found>,
}

/// What the first pass has settled about a side, read by the sides above it: its
/// expectation, where its run is, and where its tables are in the ring.
#[derive(Clone, Copy, Default)]
struct Info {
    mean: f64,
    /// The run's first word in the payload.
    offset: u64,
    first: u8,
    len: u8,
    /// Its level's place in the ring (high bits) and its slot in the level.
    place: u32,
}

/// Bits of [`Info::place`] that hold the slot.
const SLOT_BITS: u32 = 28;

/// The roll index ([`ROLLS`]) of dice `a` and `b`, in either order.
const ROLL_OF: [[u8; 7]; 7] = {
    let mut out = [[0u8; 7]; 7];
    let mut k = 0;
    while k < 21 {
        let (a, b) = (ROLLS[k].0 as usize, ROLLS[k].1 as usize);
        out[a][b] = k as u8;
        out[b][a] = k as u8;
        k += 1;
    }
    out
};

/// A solved one-sided database, as the table's payload (`docs/bearoff.md`, "Tables"):
/// for side `s`, word `2s` is where its runs begin (a word index) and word `2s + 1` packs
/// the first roll count and length of its run of the rolls to bear off every checker, then
/// the same two of its run of the rolls to the first checker off (bits 0–7, 8–15, 16–23,
/// 24–31; length 0: no such run). The runs follow, probabilities as `f64` bits, the
/// gammon run right after the other.
#[derive(Debug, Clone)]
pub struct OneSided {
    /// Points, `P`.
    pub points: usize,
    /// The payload.
    pub words: Vec<u64>,
}

/// The levels of a board: the ranks of every side grouped by pip count, ascending.
struct Levels {
    counts: Vec<Counts>,
    /// Per rank, its place within its level.
    slot: Vec<u32>,
    /// The ranks of each level, ascending.
    levels: Vec<Vec<u32>>,
}

fn levels(index: &BearoffIndex) -> Result<Levels, Error> {
    let p = index.points();
    let n = index.sides() as usize;
    let bars = Combinations::new(p + index.checkers(), p)?;
    let mut counts = Vec::with_capacity(n);
    let mut mask = Some(bars.first_mask());
    while let Some(m) = mask {
        // Bars from the bottom: point P's checkers below the first, and so on.
        let mut c = [0u8; super::index::MAX_POINTS + 1];
        let mut rest = m;
        for q in (1..=p).rev() {
            let gap = rest.trailing_zeros();
            c[q] = gap as u8;
            rest >>= gap + 1;
        }
        counts.push(c);
        mask = bars.next_mask(m);
    }
    let pips: Vec<u16> = counts.iter().map(|c| Sides::pips(c) as u16).collect();
    let top = pips.iter().copied().max().unwrap_or(0) as usize;
    let mut levels = vec![Vec::new(); top + 1];
    let mut slot = vec![0u32; n];
    for (r, &l) in pips.iter().enumerate() {
        let level = &mut levels[usize::from(l)];
        slot[r] = level.len() as u32;
        level.push(r as u32);
    }
    Ok(Levels {
        counts,
        slot,
        levels,
    })
}

/// The tables of the last seven levels, for the two quantities.
struct Ring {
    rolls: Vec<Vec<Steps>>,
    gammon: Vec<Vec<Steps>>,
}

const RING: usize = 7;

/// A side's single steps with each die (index 1..=6): at most `P` each.
struct SingleSteps {
    nodes: [[Node; super::index::MAX_POINTS]; 7],
    len: [usize; 7],
}

impl SingleSteps {
    fn new(sides: &Sides, n: &Node) -> SingleSteps {
        let mut out = SingleSteps {
            nodes: [[*n; super::index::MAX_POINTS]; 7],
            len: [0; 7],
        };
        for die in 1..=6 {
            for from in (1..=usize::from(n.top)).rev() {
                if let Some(t) = sides.step(n, from, die) {
                    out.nodes[die][out.len[die]] = t;
                    out.len[die] += 1;
                }
            }
        }
        out
    }

    fn of(&self, die: usize) -> &[Node] {
        &self.nodes[die][..self.len[die]]
    }
}

/// The state of the first pass that a side's computation reads.
struct Known<'a> {
    info: &'a [Info],
    /// The gammon quantity's, for the sides with all fifteen on the board (from
    /// `full_from`).
    ginfo: &'a [Info],
    full_from: usize,
    ring: &'a Ring,
}

impl Known<'_> {
    /// `t` itself as an entry, and its tables unless it is finished (every checker off;
    /// for the gammon quantity, a checker off).
    #[inline]
    fn look(&self, t: &Node, gammon: bool) -> (Entry, Option<&Steps>) {
        let r = t.rank as usize;
        let (info, ring) = if gammon {
            if usize::from(t.on) < CHECKERS {
                return (Entry::finished(OFF), None);
            }
            (&self.ginfo[r - self.full_from], &self.ring.gammon)
        } else {
            if t.on == 0 {
                return (Entry::finished(0), None);
            }
            (&self.info[r], &self.ring.rolls)
        };
        let level = (info.place >> SLOT_BITS) as usize;
        let slot = (info.place & ((1 << SLOT_BITS) - 1)) as usize;
        let e = Entry {
            value: info.mean,
            rank: t.rank,
        };
        (e, Some(&ring[level][slot]))
    }

    /// Where the run of a leaf is: its first roll count, length and offset (a finished
    /// leaf needs no more rolls).
    #[inline]
    fn run(&self, leaf: u32, gammon: bool) -> (usize, usize, usize) {
        if leaf == OFF || (!gammon && leaf == 0) {
            return (0, 1, usize::MAX);
        }
        let i = if gammon {
            &self.ginfo[leaf as usize - self.full_from]
        } else {
            &self.info[leaf as usize]
        };
        (usize::from(i.first), usize::from(i.len), i.offset as usize)
    }

    /// The first pass for one side, for one quantity: each single step `t` of a die `a`
    /// is looked up once, and serves every table and roll it is part of: one step of
    /// `a` (`t` itself), two and three (`t`'s one and two), the double `a-a` (`t`'s
    /// three) and every roll `a-b` (`t`'s one step of `b`).
    fn find(&self, steps: &SingleSteps, gammon: bool) -> Found {
        let mut m = [Entry::WORST; 18];
        let mut rolls = [Entry::WORST; 21];
        for a in 1..=6 {
            for t in steps.of(a) {
                let (own, tables) = self.look(t, gammon);
                m[a - 1].keep_best(own);
                match tables {
                    None => {
                        m[6 + a - 1].keep_best(own);
                        m[12 + a - 1].keep_best(own);
                        for b in 1..=6 {
                            rolls[usize::from(ROLL_OF[a][b])].keep_best(own);
                        }
                    }
                    Some(tm) => {
                        m[6 + a - 1].keep_best(tm[a - 1]);
                        m[12 + a - 1].keep_best(tm[6 + a - 1]);
                        rolls[usize::from(ROLL_OF[a][a])].keep_best(tm[12 + a - 1]);
                        for b in (1..=6).filter(|&b| b != a) {
                            rolls[usize::from(ROLL_OF[a][b])].keep_best(tm[b - 1]);
                        }
                    }
                }
            }
        }
        let mut best = [0u32; 21];
        let (mut sum, mut lo, mut hi) = (0.0, u8::MAX, 0u8);
        for (k, e) in rolls.iter().enumerate() {
            sum += weight(k) * e.value;
            best[k] = e.rank;
            let (first, len, _) = self.run(e.rank, gammon);
            lo = lo.min(first as u8 + 1);
            hi = hi.max((first + len) as u8);
        }
        Found {
            mean: 1.0 + sum / 36.0,
            m,
            best,
            lo,
            hi,
        }
    }

    /// Writes the run of a side whose best plays are `f` into `out` (its length), from
    /// the runs already in `done`: each roll's best successor's run, shifted by one roll
    /// and weighted.
    fn fill(&self, f: &Found, gammon: bool, done: &[u64], out: &mut [u64]) {
        let mut acc = [0.0f64; 256];
        let acc = &mut acc[..out.len()];
        let first = usize::from(f.lo);
        // Weighted in 36ths, divided once: a certain event sums to exactly 1.
        for (k, &leaf) in f.best.iter().enumerate() {
            let w = weight(k);
            let (lf, len, offset) = self.run(leaf, gammon);
            let at = lf + 1 - first;
            if offset == usize::MAX {
                acc[at] += w;
                continue;
            }
            for (a, v) in acc[at..at + len]
                .iter_mut()
                .zip(&done[offset..offset + len])
            {
                *a += w * f64::from_bits(*v);
            }
        }
        for (o, a) in out.iter_mut().zip(acc.iter()) {
            *o = (a / 36.0).to_bits();
        }
    }
}

/// Solves the one-sided database of `points` points (15 checkers).
pub fn solve(points: usize, progress: Progress<'_>) -> Result<OneSided, Error> {
    let index = BearoffIndex::new(points, CHECKERS)?;
    let sides = Sides::new(&index);
    let n = index.sides() as usize;
    let lv = levels(&index)?;
    // The sides with all fifteen on the board are the last ranks (C(P + 14, 14) of them).
    let full_from = n - crate::rank::binomial((CHECKERS - 1 + points) as u64, (points - 1) as u64)
        .expect("small") as usize;
    let mut info = vec![Info::default(); n];
    let mut ginfo = vec![Info::default(); n - full_from];
    let mut ring = Ring {
        rolls: vec![Vec::new(); RING],
        gammon: vec![Vec::new(); RING],
    };
    // The index words, then side 0's run: every checker off needs no roll.
    let mut words = vec![0u64; 2 * n];
    words.push(1f64.to_bits());
    info[0] = Info {
        offset: 2 * n as u64,
        len: 1,
        ..Info::default()
    };
    progress.start("one-sided", Some(n as u64));
    for (l, level) in lv.levels.iter().enumerate().skip(1) {
        let known = Known {
            info: &info,
            ginfo: &ginfo,
            full_from,
            ring: &ring,
        };
        let rows: Vec<Row> = level
            .par_iter()
            .with_min_len(64)
            .map(|&r| {
                let node = sides.node_of(lv.counts[r as usize], r);
                let steps = SingleSteps::new(&sides, &node);
                Row {
                    rank: r,
                    rolls: known.find(&steps, false),
                    gammon: (usize::from(node.on) == CHECKERS).then(|| known.find(&steps, true)),
                }
            })
            .collect();
        // The level's runs, each side's two together, in the level's order.
        let start = words.len();
        let lens: Vec<usize> = rows
            .iter()
            .map(|row| row.rolls.len() + row.gammon.as_ref().map_or(0, Found::len))
            .collect();
        words.resize(start + lens.iter().sum::<usize>(), 0);
        {
            let (done, fresh) = words.split_at_mut(start);
            let mut slices = Vec::with_capacity(rows.len());
            let mut rest = fresh;
            for &len in &lens {
                let (head, tail) = rest.split_at_mut(len);
                slices.push(head);
                rest = tail;
            }
            rows.par_iter()
                .zip(slices.into_par_iter())
                .with_min_len(64)
                .for_each(|(row, out)| {
                    let (a, b) = out.split_at_mut(row.rolls.len());
                    known.fill(&row.rolls, false, done, a);
                    if let Some(g) = &row.gammon {
                        known.fill(g, true, done, b);
                    }
                });
        }
        let slot = l % RING;
        ring.rolls[slot].clear();
        ring.gammon[slot].clear();
        let mut at = start as u64;
        for (row, len) in rows.iter().zip(lens) {
            let r = row.rank as usize;
            let place = (slot as u32) << SLOT_BITS | lv.slot[r];
            info[r] = Info {
                mean: row.rolls.mean,
                offset: at,
                first: row.rolls.lo,
                len: row.rolls.len() as u8,
                place,
            };
            ring.rolls[slot].push(row.rolls.m);
            let mut packed = u64::from(row.rolls.lo) | (row.rolls.len() as u64) << 8;
            match &row.gammon {
                Some(g) => {
                    ginfo[r - full_from] = Info {
                        mean: g.mean,
                        offset: at + row.rolls.len() as u64,
                        first: g.lo,
                        len: g.len() as u8,
                        place,
                    };
                    packed |= u64::from(g.lo) << 16 | (g.len() as u64) << 24;
                    ring.gammon[slot].push(g.m);
                }
                None => ring.gammon[slot].push([Entry::WORST; 18]),
            }
            words[2 * r] = at;
            words[2 * r + 1] = packed;
            at += len as u64;
        }
        progress.advance(level.len() as u64);
    }
    words[0] = 2 * n as u64;
    words[1] = 1 << 8;
    progress.finish();
    Ok(OneSided { points, words })
}

/// One side's two distributions, read from a payload (the solver's or a table's).
pub fn decode(words: &[u64], s: usize) -> Option<(Vec<f64>, Option<Vec<f64>>)> {
    let offset = usize::try_from(*words.get(2 * s)?).ok()?;
    let packed = *words.get(2 * s + 1)?;
    let field = |i: u32| (packed >> (8 * i) & 0xFF) as usize;
    let (first, len, gfirst, glen) = (field(0), field(1), field(2), field(3));
    let run = |first: usize, at: usize, len: usize| -> Option<Vec<f64>> {
        let values = words.get(at..at.checked_add(len)?)?;
        let mut out = vec![0.0; first];
        out.extend(values.iter().map(|&w| f64::from_bits(w)));
        Some(out)
    };
    let rolls = run(first, offset, len)?;
    let gammon = if glen == 0 {
        None
    } else {
        Some(run(gfirst, offset.checked_add(len)?, glen)?)
    };
    Some((rolls, gammon))
}

impl OneSided {
    /// Sides in the database.
    pub fn len(&self) -> usize {
        let n = BearoffIndex::new(self.points, CHECKERS).map_or(0, |i| i.sides());
        n as usize
    }

    /// Whether it has no side (never: side 0, every checker off, is always there).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The distribution of the rolls needed to bear off every checker of side `s`:
    /// probabilities of needing exactly 0, 1, 2, … rolls.
    pub fn rolls_of(&self, s: usize) -> Vec<f64> {
        decode(&self.words, s).map(|d| d.0).unwrap_or_default()
    }

    /// The distribution of the rolls to the first checker off, for a side with all 15 on
    /// the board.
    pub fn gammon_of(&self, s: usize) -> Option<Vec<f64>> {
        decode(&self.words, s).and_then(|d| d.1)
    }
}

/// The mean of a distribution (probabilities of 0, 1, 2, … rolls).
pub fn mean(distribution: &[f64]) -> f64 {
    distribution
        .iter()
        .enumerate()
        .map(|(k, p)| k as f64 * p)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain recursion: every play of every roll listed by the rank search, the best
    /// by (expectation, rank); the distributions by direct recursion with memo.
    struct Plain {
        sides: Sides,
        mean: Vec<Option<f64>>,
        dist: Vec<Option<Vec<f64>>>,
    }

    impl Plain {
        fn best(&mut self, s: u32, k: usize) -> u32 {
            let mut plays = Vec::new();
            self.sides.plays_into(s, k, &mut plays);
            let mut best = (f64::INFINITY, u32::MAX);
            for &t in &plays {
                let m = self.mean(t);
                if m < best.0 || (m == best.0 && t < best.1) {
                    best = (m, t);
                }
            }
            best.1
        }

        fn mean(&mut self, s: u32) -> f64 {
            if s == 0 {
                return 0.0;
            }
            if let Some(m) = self.mean[s as usize] {
                return m;
            }
            let mut sum = 0.0;
            for k in 0..21 {
                let b = self.best(s, k);
                sum += weight(k) * self.mean(b);
            }
            let m = 1.0 + sum / 36.0;
            self.mean[s as usize] = Some(m);
            m
        }

        fn dist(&mut self, s: u32) -> Vec<f64> {
            if s == 0 {
                return vec![1.0];
            }
            if let Some(d) = &self.dist[s as usize] {
                return d.clone();
            }
            let mut out = vec![0.0; 2];
            for k in 0..21 {
                let b = self.best(s, k);
                let d = self.dist(b);
                if out.len() < d.len() + 1 {
                    out.resize(d.len() + 1, 0.0);
                }
                for (i, p) in d.iter().enumerate() {
                    out[i + 1] += weight(k) * p;
                }
            }
            for o in &mut out {
                *o /= 36.0;
            }
            while out.last() == Some(&0.0) {
                out.pop();
            }
            self.dist[s as usize] = Some(out.clone());
            out
        }
    }

    #[test]
    fn the_grouped_steps_choose_the_plays_the_listed_plays_choose() {
        let solved = solve(3, Progress::SILENT).unwrap();
        let index = BearoffIndex::new(3, CHECKERS).unwrap();
        let n = index.sides() as usize;
        let mut plain = Plain {
            sides: Sides::new(&index),
            mean: vec![None; n],
            dist: vec![None; n],
        };
        for s in 0..n {
            let ours = solved.rolls_of(s);
            let theirs = plain.dist(s as u32);
            assert_eq!(ours.len(), theirs.len(), "side {s}");
            for (a, b) in ours.iter().zip(&theirs) {
                assert!((a - b).abs() < 1e-14, "side {s}: {ours:?} {theirs:?}");
            }
            assert!((mean(&ours) - plain.mean(s as u32)).abs() < 1e-12);
        }
    }

    #[test]
    fn a_lone_checker_on_the_one_point_needs_one_roll_and_all_distributions_add_to_one() {
        let solved = solve(4, Progress::SILENT).unwrap();
        assert_eq!(solved.rolls_of(0), vec![1.0]);
        assert_eq!(solved.rolls_of(1), vec![0.0, 1.0]);
        for s in 0..solved.len() {
            let total: f64 = solved.rolls_of(s).iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{s}: {total}");
            if let Some(g) = solved.gammon_of(s) {
                assert!((g.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
        // Only the sides with fifteen on the board have a gammon distribution.
        let index = BearoffIndex::new(4, 15).unwrap();
        let full = (0..solved.len())
            .filter(|&s| index.side(s as u64).unwrap().iter().sum::<u8>() == 15)
            .count();
        let with = (0..solved.len())
            .filter(|&s| solved.gammon_of(s).is_some())
            .count();
        assert_eq!(full, with);
    }
}
