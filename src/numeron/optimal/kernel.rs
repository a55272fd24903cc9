//! Scoring every guess at a node: the dense answer table, the tallies of the classes
//! (sixteen guesses side by side), the bounds judged from them, and the guesses a node
//! tries once each.

use super::{Search, INF};
use crate::numeron::rules::Space;
use crate::numeron::symmetry::{Canon, Stabilizer};

/// What every search over one space shares: the dense answers, the bounds and the tables
/// of the canonical keys.
pub(super) struct Tables {
    /// Number of candidates (and of guesses).
    pub(super) len: usize,
    /// Row length of `cells`: `len` rounded up to whole lanes.
    pub(super) stride: usize,
    /// Number of dense answers.
    pub(super) answers: usize,
    /// Dense answers: `cells[g * stride + s]` numbers the answer of `g` to `s` among the
    /// answers that occur, `0..width`.
    pub(super) cells: Vec<u8>,
    /// A power of two above the number of dense answers, at least eight.
    pub(super) width: usize,
    /// The winning answer's dense number.
    pub(super) win: u8,
    pub(super) non_winning_answers: u64,
    /// `floor[k]`: the slot bound of `k` secrets with no cap on the depth.
    pub(super) floor: Vec<u32>,
    /// `capacity[d]`: the most secrets the slots of `d` guesses hold (saturating).
    pub(super) capacity: Vec<u64>,
    pub(super) canon: Canon,
    pub(super) all: Vec<u32>,
}

/// Guesses tallied at a time: their counters (`BLOCK * width` bytes or words) stay in the
/// first-level cache while every member's row adds to them.
pub(super) const BLOCK: usize = 512;

/// Guesses counted side by side by [`tally_lanes`] (rows of answers are padded to whole
/// lanes).
pub(super) const LANES: usize = 16;

/// The classes of the guesses `g0..g0 + LANES` over `set`: `acc[a][l]` counts the members
/// answering `a` to the guess `g0 + l` (answers at or above `answers` are not counted).
/// Each answer is counted by a comparison across the lanes, which the compiler turns into
/// vector instructions: no counter is read and written one guess at a time.
#[inline]
pub(super) fn tally_lanes<const W: usize>(
    cells: &[u8],
    stride: usize,
    g0: usize,
    answers: usize,
    set: &[u32],
) -> [[u8; LANES]; W] {
    let mut acc = [[0u8; LANES]; W];
    // Eight answers at a time: their counters fit in vector registers for the whole pass.
    for (pass, counters) in acc.chunks_exact_mut(8).enumerate() {
        if pass * 8 >= answers {
            break;
        }
        let first = (pass * 8) as u8;
        let mut eight = [[0u8; LANES]; 8];
        for &s in set {
            let base = s as usize * stride + g0;
            let row: &[u8; LANES] = cells[base..base + LANES]
                .try_into()
                .expect("rows hold whole lanes");
            for (a, counts) in eight.iter_mut().enumerate() {
                let a = first + a as u8;
                for (c, &r) in counts.iter_mut().zip(row) {
                    *c += u8::from(r == a);
                }
            }
        }
        counters.copy_from_slice(&eight);
    }
    acc
}

/// What a scan keeps: the guesses with their bounds up to `beta`, and the least bound
/// above it.
pub(super) struct Kept {
    beta: u32,
    /// `(bound << 32) | guess`, so that sorting orders by bound, then guess.
    keys: Vec<u64>,
    skipped: u32,
}

impl Kept {
    #[inline]
    pub(super) fn keep(&mut self, g: u32, bound: Option<u32>) {
        match bound {
            Some(b) if b <= self.beta => self.keys.push(u64::from(b) << 32 | u64::from(g)),
            Some(b) => self.skipped = self.skipped.min(b),
            None => {}
        }
    }
}

/// Each byte's low seven bits, each byte's high bit, and each byte's lowest bit, of the
/// sixteen lanes of a [`judge_lanes`] word.
pub(super) const LOW7: u128 = u128::from_le_bytes([0x7f; LANES]);
pub(super) const HIGH: u128 = u128::from_le_bytes([0x80; LANES]);
pub(super) const ONES: u128 = u128::from_le_bytes([0x01; LANES]);

/// Judges the guesses `g0..g0 + LANES` (those below `len`) from their classes `acc`, as
/// [`judge`] does, but sixteen at a time: while no class holds more than `small` secrets a
/// guess's bound is `3n - t`, with `t` its winning secret (0 or 1) plus its non-empty
/// classes. The classes are counted across the lanes with word operations on each answer's
/// sixteen counters (one byte per lane); when no lane is kept (`t >= 3n - beta`) and none
/// has a larger class, only the best `t` is looked for, which gives the least bound above
/// `beta`. A guess that tells nothing has `t = 1`, below every other, so it never sets that
/// bound.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn judge_lanes<const W: usize>(
    acc: &[[u8; LANES]; W],
    g0: usize,
    len: usize,
    n: usize,
    win: usize,
    floor: &[u32],
    cap: u64,
    small: u8,
    kept: &mut Kept,
) {
    // A byte above `small` (below 127) sets its high bit in `((x & LOW7) + over) | x`.
    let over = ONES * u128::from(0x7f - small);
    let mut parts = 0u128;
    let mut big = 0u128;
    for counts in acc {
        let x = u128::from_le_bytes(*counts);
        parts += ((((x & LOW7) + LOW7) | x) & HIGH) >> 7;
        big |= (((x & LOW7) + over) | x) & HIGH;
    }
    let t = parts + u128::from_le_bytes(acc[win]);
    let t = t.to_le_bytes();
    let valid = LANES.min(len.saturating_sub(g0));
    let three_n = 3 * n as u32;
    // Lanes are kept when t >= 3n - beta; t never exceeds answers + 1.
    let need = three_n.saturating_sub(kept.beta);
    let simple = big == 0 && cap != 1 && cap >= u64::from(small);
    if simple && need > u32::from(u8::MAX) {
        let best = t[..valid].iter().copied().max().unwrap_or(0);
        if best > 1 {
            kept.skipped = kept.skipped.min(three_n - u32::from(best));
        }
        return;
    }
    let need8 = need.min(255) as u8;
    if simple && t[..valid].iter().all(|&x| x < need8) {
        let best = t[..valid].iter().copied().max().unwrap_or(0);
        if best > 1 {
            kept.skipped = kept.skipped.min(three_n - u32::from(best));
        }
        return;
    }
    let big = big.to_le_bytes();
    for l in 0..valid {
        if big[l] != 0 || cap == 1 || cap < u64::from(small) {
            judge_lane(acc, l, g0, n, win, floor, cap, kept);
        } else if t[l] > 1 {
            kept.keep((g0 + l) as u32, Some(three_n - u32::from(t[l])));
        }
    }
}

/// One lane of [`judge_lanes`] judged class by class (a class above `R + 1` secrets).
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
pub(super) fn judge_lane<const W: usize>(
    acc: &[[u8; LANES]; W],
    l: usize,
    g0: usize,
    n: usize,
    win: usize,
    floor: &[u32],
    cap: u64,
    kept: &mut Kept,
) {
    let counts: [u8; W] = std::array::from_fn(|a| acc[a][l]);
    kept.keep((g0 + l) as u32, judge(&counts, n, win, floor, cap));
}

/// Tallies the answers of the guesses `guesses` to the members of `set`: `buf[i * width +
/// a]` counts the members that answer `a` to the guess `guesses.start + i`.
pub(super) fn tally<T: Copy + Default + std::ops::AddAssign + From<u8>>(
    cells: &[u8],
    stride: usize,
    guesses: std::ops::Range<usize>,
    width: usize,
    set: &[u32],
    buf: &mut Vec<T>,
) {
    buf.clear();
    buf.resize(guesses.len() * width, T::default());
    for &s in set {
        let row = &cells[s as usize * stride..][guesses.clone()];
        for (counts, &a) in buf.chunks_exact_mut(width).zip(row) {
            counts[a as usize] += T::from(1);
        }
    }
}

/// The bound of a guess whose classes over `n` candidates have the sizes `counts` (by dense
/// answer): `n` plus the slot bounds of the classes that do not win; `None` when the guess
/// tells nothing (one class, not a win) or leaves a class larger than `cap`.
#[inline]
pub(super) fn judge<T: Copy + Into<u32>>(
    counts: &[T],
    n: usize,
    win: usize,
    floor: &[u32],
    cap: u64,
) -> Option<u32> {
    let mut bound = n as u32;
    let mut biggest = 0u32;
    for &k in counts {
        let k: u32 = k.into();
        bound += floor[k as usize];
        biggest = biggest.max(k);
    }
    let hit: u32 = counts[win].into();
    if (hit == 0 && biggest as usize == n) || u64::from(biggest) > cap {
        return None;
    }
    // The winning class (0 or 1 secret) costs nothing more: floor[hit] = hit.
    Some(bound - hit)
}

/// Digits that no member of `set` contains, ascending.
pub(super) fn dead_digits(space: &Space, set: &[u32]) -> Vec<u8> {
    let n = space.digits();
    let mut alive = 0u16;
    for &r in set {
        let p = space.packed(r);
        for i in 0..n {
            alive |= 1 << (p >> (4 * i) & 15);
        }
    }
    (0..space.rules().alphabet as u8)
        .filter(|&d| alive >> d & 1 == 0)
        .collect()
}

/// The guesses a node tries, each partition once: a guess that a symmetry fixing the
/// guesses so far (or a swap of digits no candidate contains) maps to another is passed
/// over, and so is a guess splitting the set as an earlier one did.
pub(super) struct Distinct {
    stabilizer: Stabilizer,
    dead: Vec<u8>,
    tried: Vec<Vec<u8>>,
}

impl Distinct {
    pub(super) fn new(space: &Space, set: &[u32], history: &[u32]) -> Distinct {
        Distinct {
            stabilizer: Stabilizer::of_history(space, history),
            dead: dead_digits(space, set),
            tried: Vec::new(),
        }
    }

    /// The classes `g` splits `set` into (as [`Search::split`]), or `None` when `g` is
    /// passed over.
    pub(super) fn classes(
        &mut self,
        search: &Search,
        g: u32,
        set: &[u32],
    ) -> Option<Vec<Vec<u32>>> {
        if !self.stabilizer.keeps(search.oracle.space, g, &self.dead) {
            return None;
        }
        let (labels, classes) = search.split(g, set);
        if self.tried.contains(&labels) {
            return None;
        }
        self.tried.push(labels);
        Some(classes)
    }
}

impl Search<'_> {
    /// The most secrets that `depth` guesses can find (the slots of the slot bound).
    pub(super) fn capacity(&self, depth: u32) -> u64 {
        self.tables
            .capacity
            .get(depth as usize)
            .copied()
            .unwrap_or(u64::MAX)
    }

    /// The dense answers of `guess` to every secret, by secret rank.
    #[inline]
    pub(super) fn row(&self, guess: u32) -> &[u8] {
        let g = guess as usize;
        &self.tables.cells[g * self.tables.stride..][..self.tables.len]
    }

    /// The slot bound: least total number of guesses for `n` secrets with at most `depth`
    /// guesses each ([`INF`] when even the slots do not suffice).
    pub fn lower_bound(&self, n: usize, depth: u32) -> u32 {
        if n as u64 > self.capacity(depth) {
            return INF;
        }
        match self.tables.floor.get(n) {
            Some(&f) => f,
            None => {
                // Beyond the space (only asked by tests): fill the slots one by one.
                let r = self.tables.non_winning_answers.max(1);
                let (mut left, mut total, mut slots, mut k) = (n as u64, 0u64, 1u64, 1u64);
                while left > 0 {
                    let take = left.min(slots);
                    total += take * k;
                    left -= take;
                    slots = slots.saturating_mul(r);
                    k += 1;
                }
                total.min(u64::from(INF)) as u32
            }
        }
    }

    /// A lower bound on [`Search::fewest_last`] from the size alone: `depth - 1` guesses
    /// find at most `capacity(depth - 1)` secrets, the others need the last guess.
    pub fn last_bound(&self, n: usize, depth: u32) -> u32 {
        if depth == 0 {
            return if n == 0 { 0 } else { INF };
        }
        if n as u64 > self.capacity(depth) {
            return INF;
        }
        (n as u64).saturating_sub(self.capacity(depth - 1)) as u32
    }

    /// Whether a member of `set` answers differently to every other member.
    pub(super) fn perfect_member(&self, set: &[u32]) -> bool {
        let mut seen = vec![false; self.tables.width];
        set.iter().any(|&g| {
            let row = self.row(g);
            seen.iter_mut().for_each(|s| *s = false);
            set.iter().all(|&s| {
                let a = row[s as usize] as usize;
                !std::mem::replace(&mut seen[a], true)
            })
        })
    }

    /// The exact cost of a small set when the candidates alone settle it, else a lower
    /// bound: a member telling all others apart costs `2n - 1`, the least possible; with
    /// none, every guess leaves some secret to a third guess (or finds none with the
    /// first), so `2n` is a bound, reached by a member leaving one pair.
    pub(super) fn members_first(&self, set: &[u32], depth: u32) -> (Option<u32>, u32) {
        let n = set.len() as u32;
        let mut counts = vec![0u32; self.tables.width];
        let mut one_pair = false;
        for &g in set {
            let row = self.row(g);
            counts.iter_mut().for_each(|c| *c = 0);
            for &s in set {
                counts[row[s as usize] as usize] += 1;
            }
            counts[self.tables.win as usize] = 0;
            let mut pairs = 0;
            let mut larger = false;
            for &c in &counts {
                pairs += u32::from(c == 2);
                larger |= c > 2;
            }
            if pairs == 0 && !larger {
                return (Some(2 * n - 1), 2 * n - 1);
            }
            one_pair |= pairs == 1 && !larger;
        }
        if one_pair && depth >= 3 {
            (Some(2 * n), 2 * n)
        } else {
            (None, 2 * n)
        }
    }

    /// The classes `guess` splits `set` into, the winning one left out, largest first (ties
    /// in order of first member); and the partition written as each member's class number
    /// by first appearance (255 for the winning secret), which identifies it.
    pub(super) fn split(&self, guess: u32, set: &[u32]) -> (Vec<u8>, Vec<Vec<u32>>) {
        let row = self.row(guess);
        let mut number = vec![u8::MAX; self.tables.width];
        let mut classes: Vec<Vec<u32>> = Vec::new();
        let mut labels = Vec::with_capacity(set.len());
        for &s in set {
            let a = row[s as usize];
            if a == self.tables.win {
                labels.push(u8::MAX);
                continue;
            }
            let slot = &mut number[a as usize];
            if *slot == u8::MAX {
                *slot = classes.len() as u8;
                classes.push(Vec::new());
            }
            labels.push(*slot);
            classes[*slot as usize].push(s);
        }
        classes.sort_by_key(|c| std::cmp::Reverse(c.len()));
        (labels, classes)
    }

    /// The guesses worth trying at a node (`set`, at most `depth` guesses each) with their
    /// bounds, in ascending (bound, rank) order: every allowed guess that splits the set and
    /// leaves no class too large for `depth - 1` guesses. Those whose bound exceeds `beta`
    /// are left out, and the least of their bounds is returned beside ([`INF`] if none).
    pub(super) fn scan(&mut self, set: &[u32], depth: u32, beta: u32) -> (Vec<(u32, u32)>, u32) {
        let n = set.len();
        let cap = self.capacity(depth.saturating_sub(1));
        let (win, width, len) = (self.tables.win as usize, self.tables.width, self.tables.len);
        let (stride, answers) = (self.tables.stride, self.tables.answers);
        let floor = &self.tables.floor;
        let mut kept = Kept {
            beta,
            keys: Vec::new(),
            skipped: INF,
        };
        if self.hard {
            let mut counts = vec![0u32; width];
            for &g in set {
                let row = &self.tables.cells[g as usize * stride..][..len];
                counts.iter_mut().for_each(|c| *c = 0);
                for &s in set {
                    counts[row[s as usize] as usize] += 1;
                }
                kept.keep(g, judge(&counts, n, win, floor, cap));
            }
        } else if n < 256 && matches!(width, 8 | 16 | 32) && answers < 127 {
            let small = (self.tables.non_winning_answers + 1) as u8;
            let cells = &self.tables.cells;
            for g0 in (0..len).step_by(LANES) {
                match width {
                    8 => {
                        let acc = tally_lanes::<8>(cells, stride, g0, answers, set);
                        judge_lanes(&acc, g0, len, n, win, floor, cap, small, &mut kept);
                    }
                    16 => {
                        let acc = tally_lanes::<16>(cells, stride, g0, answers, set);
                        judge_lanes(&acc, g0, len, n, win, floor, cap, small, &mut kept);
                    }
                    _ => {
                        let acc = tally_lanes::<32>(cells, stride, g0, answers, set);
                        judge_lanes(&acc, g0, len, n, win, floor, cap, small, &mut kept);
                    }
                }
            }
        } else {
            let cells = &self.tables.cells;
            for start in (0..len).step_by(BLOCK) {
                let guesses = start..len.min(start + BLOCK);
                tally(cells, stride, guesses, width, set, &mut self.tally16);
                for (g, counts) in self.tally16.chunks_exact(width).enumerate() {
                    kept.keep(start as u32 + g as u32, judge(counts, n, win, floor, cap));
                }
            }
        }
        kept.keys.sort_unstable();
        let out = kept
            .keys
            .iter()
            .map(|&k| ((k >> 32) as u32, k as u32))
            .collect();
        (out, kept.skipped)
    }

    /// The guesses worth trying for [`Search::last_cost`] at a node, with their bounds (the
    /// classes' [`Search::last_bound`]s), as [`Search::scan`] does for the total. Most
    /// guesses share the bound 0 on large sets; among equal bounds the guesses of least
    /// total bound come first (the classes that are easiest to finish early).
    pub(super) fn scan_last(
        &mut self,
        set: &[u32],
        depth: u32,
        beta: u32,
    ) -> (Vec<(u32, u32)>, u32) {
        let n = set.len();
        let cap = self.capacity(depth - 1);
        let last = self.capacity(depth.saturating_sub(2));
        let (win, width, len) = (self.tables.win as usize, self.tables.width, self.tables.len);
        let stride = self.tables.stride;
        let floor = &self.tables.floor;
        // (last bound, total bound, guess), packed 24, 24 and 16 bits.
        let mut keys: Vec<u64> = Vec::new();
        let mut skipped = INF;
        let mut judge_last = |g: u32, counts: &[u32]| {
            let mut bound = 0u64;
            let mut total = n as u64;
            let mut biggest = 0u32;
            for (a, &k) in counts.iter().enumerate() {
                if a != win {
                    bound += u64::from(k).saturating_sub(last);
                    total += u64::from(floor[k as usize]);
                }
                biggest = biggest.max(k);
            }
            let hit = counts[win];
            if (hit == 0 && biggest as usize == n) || u64::from(biggest) > cap {
                return;
            }
            if bound > u64::from(beta) {
                skipped = skipped.min(bound as u32);
                return;
            }
            keys.push(bound << 40 | total.min(0xff_ffff) << 16 | u64::from(g));
        };
        let cells = &self.tables.cells;
        let mut counts = vec![0u32; width];
        if self.hard {
            for &g in set {
                let row = &cells[g as usize * stride..][..len];
                counts.iter_mut().for_each(|c| *c = 0);
                for &s in set {
                    counts[row[s as usize] as usize] += 1;
                }
                judge_last(g, &counts);
            }
        } else {
            for start in (0..len).step_by(BLOCK) {
                let guesses = start..len.min(start + BLOCK);
                if n < 256 {
                    tally(cells, stride, guesses, width, set, &mut self.tally8);
                    for (g, c) in self.tally8.chunks_exact(width).enumerate() {
                        counts
                            .iter_mut()
                            .zip(c)
                            .for_each(|(x, &y)| *x = u32::from(y));
                        judge_last((start + g) as u32, &counts);
                    }
                } else {
                    tally(cells, stride, guesses, width, set, &mut self.tally16);
                    for (g, c) in self.tally16.chunks_exact(width).enumerate() {
                        counts
                            .iter_mut()
                            .zip(c)
                            .for_each(|(x, &y)| *x = u32::from(y));
                        judge_last((start + g) as u32, &counts);
                    }
                }
            }
        }
        keys.sort_unstable();
        let out = keys
            .iter()
            .map(|&k| ((k >> 40) as u32, (k & 0xffff) as u32))
            .collect();
        (out, skipped)
    }
}
