//! The exact search: the decision tree of least total number of guesses (optionally with a
//! cap on the depth), by depth-first branch and bound over candidate sets.
//!
//! `cost(S, d, β)` is the least total number of guesses to find every secret of `S` with at
//! most `d` guesses each, when that total is at most `β`; otherwise some lower bound above
//! `β`. The search is exact because every pruning is by a sound lower bound:
//! - **slot bound**: one guess can win for at most one secret and answer in at most `R`
//!   other ways (`R` = the number of non-winning answers), so at most `R^(k-1)` secrets can
//!   be found with the `k`-th guess; filling those slots shallowest first bounds the total
//!   from below (and proves a set too large for `d` guesses infeasible);
//! - **small sets**: only one secret can be found with the first guess, so `n` secrets cost
//!   at least `2n - 1`, reached exactly when some candidate tells all the others apart;
//!   failing that they cost at least `2n`, reached when a candidate leaves one pair (both
//!   checked on the candidates alone, before any other guess is scored);
//! - a guess's bound is `|S|` plus the slot bounds of its classes, so guesses are tried in
//!   ascending bound order and the loop stops at the first bound that cannot beat the best;
//! - each child gets the budget left by the others' bounds, and on large sets every child
//!   is first probed (can it meet its own slot bound?) so that a hopeless guess is dropped
//!   before any child is searched deeply; a known achieved total (a heuristic tree's) can
//!   seed the budget from the start ([`Search::optimum_below`]).
//!
//! The least worst case is decided by a separate AND-OR search, [`Search::feasible`].
//!
//! Reductions that keep exactness: only one guess per orbit of the symmetries fixing the
//! guesses so far, and per class of guesses differing only in digits no candidate contains;
//! only one guess per distinct partition (with its winning candidate marked); guesses that
//! do not split the set are skipped. Both are checked only for the guesses the bounds let
//! through. Results are memoised by a canonical image of the set under digit relabelling
//! and position permutation (exact values, and lower bounds learnt from cut-offs).
//!
//! Every guess is scored at every node from the candidates' rows of a dense answer table
//! (answers are symmetric: the guess `g` against the secret `s` answers as `s` against
//! `g`, so a candidate's row holds every guess's answer to it). Sixteen guesses are
//! counted side by side, one byte each, by comparisons the compiler turns into vector
//! instructions, and judged together with word operations (`judge_lanes`): only the
//! guesses a node keeps are looked at one by one.

use super::answer::{AnswerTable, Oracle};
use super::rules::Space;
use super::symmetry::{Canon, Stabilizer};
use super::tree::{partition, Node};
use super::{Error, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// Sets up to this size are solved exactly inside [`Search::last_greedy`].
const EXACT_LAST: usize = 64;

/// Sets at least this large probe their classes' bounds before searching any deeply.
const PROBE_FROM: usize = 12;

/// "Infinite" cost: no tree within the depth cap.
pub const INF: u32 = 1 << 30;

/// Largest candidate space the exact search takes (ranks must fit `u16` in the memo's keys
/// and the answer table must fit in memory: 10,000² bytes).
pub const MAX_SEARCH_SPACE: usize = 10_000;

#[derive(Debug, Clone, Copy)]
enum Entry {
    Exact(u32),
    Lower(u32),
}

/// A fast hash for the memo's keys (sorted ranks): a multiply-rotate over 8-byte words.
#[derive(Default, Clone, Copy)]
struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }

    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// Memo keys: (depth cap, at most the set's size; the set's canonical image).
type Memo<V> = HashMap<(u32, Box<[u16]>), V, BuildHasherDefault<WordHasher>>;

/// Counters of one search, for the report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls of the cost function that were not answered by a shortcut.
    pub nodes: u64,
    /// Entries in the memo.
    pub memo: u64,
    /// Memo hits that settled a node.
    pub hits: u64,
}

impl std::ops::Add for Stats {
    type Output = Stats;

    fn add(self, o: Stats) -> Stats {
        Stats {
            nodes: self.nodes + o.nodes,
            memo: self.memo + o.memo,
            hits: self.hits + o.hits,
        }
    }
}

/// What every search over one space shares: the dense answers, the bounds and the tables
/// of the canonical keys.
struct Tables {
    /// Number of candidates (and of guesses).
    len: usize,
    /// Row length of `cells`: `len` rounded up to whole lanes.
    stride: usize,
    /// Number of dense answers.
    answers: usize,
    /// Dense answers: `cells[g * stride + s]` numbers the answer of `g` to `s` among the
    /// answers that occur, `0..width`.
    cells: Vec<u8>,
    /// A power of two above the number of dense answers, at least eight.
    width: usize,
    /// The winning answer's dense number.
    win: u8,
    non_winning_answers: u64,
    /// `floor[k]`: the slot bound of `k` secrets with no cap on the depth.
    floor: Vec<u32>,
    /// `capacity[d]`: the most secrets the slots of `d` guesses hold (saturating).
    capacity: Vec<u64>,
    canon: Canon,
    all: Vec<u32>,
}

/// The search state: the memo persists across calls, so successive questions reuse work.
pub struct Search<'a> {
    oracle: Oracle<'a>,
    hard: bool,
    tables: std::sync::Arc<Tables>,
    memo: Memo<Entry>,
    feasible_memo: Memo<bool>,
    last_memo: Memo<Entry>,
    stats: Stats,
    deadline: Option<Instant>,
    aborted: bool,
    tally8: Vec<u8>,
    tally16: Vec<u16>,
}

/// Guesses tallied at a time: their counters (`BLOCK * width` bytes or words) stay in the
/// first-level cache while every member's row adds to them.
const BLOCK: usize = 512;

/// Guesses counted side by side by [`tally_lanes`] (rows of answers are padded to whole
/// lanes).
const LANES: usize = 16;

/// The classes of the guesses `g0..g0 + LANES` over `set`: `acc[a][l]` counts the members
/// answering `a` to the guess `g0 + l` (answers at or above `answers` are not counted).
/// Each answer is counted by a comparison across the lanes, which the compiler turns into
/// vector instructions: no counter is read and written one guess at a time.
#[inline]
fn tally_lanes<const W: usize>(
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
struct Kept {
    beta: u32,
    /// `(bound << 32) | guess`, so that sorting orders by bound, then guess.
    keys: Vec<u64>,
    skipped: u32,
}

impl Kept {
    #[inline]
    fn keep(&mut self, g: u32, bound: Option<u32>) {
        match bound {
            Some(b) if b <= self.beta => self.keys.push(u64::from(b) << 32 | u64::from(g)),
            Some(b) => self.skipped = self.skipped.min(b),
            None => {}
        }
    }
}

/// Each byte's low seven bits, each byte's high bit, and each byte's lowest bit, of the
/// sixteen lanes of a [`judge_lanes`] word.
const LOW7: u128 = u128::from_le_bytes([0x7f; LANES]);
const HIGH: u128 = u128::from_le_bytes([0x80; LANES]);
const ONES: u128 = u128::from_le_bytes([0x01; LANES]);

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
fn judge_lanes<const W: usize>(
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
fn judge_lane<const W: usize>(
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
fn tally<T: Copy + Default + std::ops::AddAssign + From<u8>>(
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
fn judge<T: Copy + Into<u32>>(
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
fn dead_digits(space: &Space, set: &[u32]) -> Vec<u8> {
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
struct Distinct {
    stabilizer: Stabilizer,
    dead: Vec<u8>,
    tried: Vec<Vec<u8>>,
}

impl Distinct {
    fn new(space: &Space, set: &[u32], history: &[u32]) -> Distinct {
        Distinct {
            stabilizer: Stabilizer::of_history(space, history),
            dead: dead_digits(space, set),
            tried: Vec::new(),
        }
    }

    /// The classes `g` splits `set` into (as [`Search::split`]), or `None` when `g` is
    /// passed over.
    fn classes(&mut self, search: &Search, g: u32, set: &[u32]) -> Option<Vec<Vec<u32>>> {
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

/// What a branch and bound ([`Search::branch`]) minimises.
#[derive(Clone, Copy)]
enum Objective {
    /// The total number of guesses ([`Search::cost`]).
    Total,
    /// The secrets left to the last guess ([`Search::last_cost`]).
    Last,
}

impl<'a> Search<'a> {
    /// A search over `space` with answers from `table`; `hard` restricts guesses to the
    /// candidates still possible.
    pub fn new(space: &'a Space, table: &'a AnswerTable, hard: bool) -> Result<Search<'a>> {
        let len = space.len();
        if len > MAX_SEARCH_SPACE {
            return Err(Error::TooLargeForExactSearch {
                candidates: len,
                max: MAX_SEARCH_SPACE,
            });
        }
        let oracle = Oracle {
            space,
            table: Some(table),
        };
        let mut seen = vec![false; oracle.codes()];
        for g in 0..len as u32 {
            for &c in table.row(g) {
                seen[c as usize] = true;
            }
        }
        let mut dense = vec![u8::MAX; seen.len()];
        let mut answers = 0usize;
        for (code, _) in seen.iter().enumerate().filter(|(_, &s)| s) {
            dense[code] = answers as u8;
            answers += 1;
        }
        let win = dense[oracle.win() as usize];
        let stride = len.div_ceil(LANES) * LANES;
        let mut cells = vec![0u8; len * stride];
        cells
            .par_chunks_mut(stride.max(1))
            .enumerate()
            .for_each(|(g, row)| {
                for (cell, &code) in row.iter_mut().zip(table.row(g as u32)) {
                    *cell = dense[code as usize];
                }
            });
        let non_winning_answers = answers.saturating_sub(1) as u64;
        let r = non_winning_answers.max(1);
        let mut floor = Vec::with_capacity(len + 1);
        floor.push(0u32);
        let (mut level, mut slots, mut used, mut total) = (1u64, 1u64, 0u64, 0u64);
        for _ in 0..len {
            if used == slots {
                level += 1;
                slots = slots.saturating_mul(r);
                used = 0;
            }
            used += 1;
            total += level;
            floor.push(total.min(u64::from(INF)) as u32);
        }
        let mut capacity = vec![0u64];
        let mut slots = 1u64;
        for _ in 0..64 {
            let last = *capacity.last().expect("capacity of no guess");
            capacity.push(last.saturating_add(slots));
            slots = slots.saturating_mul(r);
        }
        let tables = Tables {
            len,
            stride,
            answers,
            cells,
            width: answers.next_power_of_two().max(8),
            win,
            non_winning_answers,
            floor,
            capacity,
            canon: Canon::new(space),
            all: (0..len as u32).collect(),
        };
        Ok(Search::with_tables(
            oracle,
            hard,
            std::sync::Arc::new(tables),
        ))
    }

    /// A search with `tables`, its memos, counters and deadline fresh.
    fn with_tables(oracle: Oracle<'a>, hard: bool, tables: std::sync::Arc<Tables>) -> Search<'a> {
        Search {
            oracle,
            hard,
            tables,
            memo: Memo::default(),
            feasible_memo: Memo::default(),
            last_memo: Memo::default(),
            stats: Stats::default(),
            deadline: None,
            aborted: false,
            tally8: Vec::new(),
            tally16: Vec::new(),
        }
    }

    /// A new search over the same space and rules, sharing this one's tables but with a
    /// memo, counters and deadline of its own (so that searches can run side by side and
    /// count the same whatever the number of threads).
    pub fn fork(&self) -> Search<'a> {
        Search::with_tables(self.oracle, self.hard, self.tables.clone())
    }

    /// Stops the search (every later call returns an error) once `deadline` passes.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether the deadline stopped the search (every later call fails).
    pub fn is_aborted(&self) -> bool {
        self.aborted
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        Stats {
            memo: (self.memo.len() + self.feasible_memo.len() + self.last_memo.len()) as u64,
            ..self.stats
        }
    }

    /// The most secrets that `depth` guesses can find (the slots of the slot bound).
    fn capacity(&self, depth: u32) -> u64 {
        self.tables
            .capacity
            .get(depth as usize)
            .copied()
            .unwrap_or(u64::MAX)
    }

    /// The dense answers of `guess` to every secret, by secret rank.
    #[inline]
    fn row(&self, guess: u32) -> &[u8] {
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

    /// The least total number of guesses for the candidates `set` (ascending ranks) after
    /// the guesses `history`, with at most `depth` guesses per secret ([`INF`] if none).
    pub fn optimum(&mut self, set: &[u32], history: &[u32], depth: u32) -> Result<u32> {
        let v = self.solve_from(Objective::Total, set, history, depth, INF)?;
        Ok(v)
    }

    /// The least total for `set` as [`Search::optimum`], given a total `upper` that some
    /// strategy achieves: every branch that cannot beat it is cut from the start.
    pub fn optimum_below(
        &mut self,
        set: &[u32],
        history: &[u32],
        depth: u32,
        upper: u32,
    ) -> Result<u32> {
        let v = self.solve_from(Objective::Total, set, history, depth, upper)?;
        if v > upper {
            return Err(Error::Internal(
                "the search found no tree within a total some strategy achieves",
            ));
        }
        Ok(v)
    }

    /// The least total for `set` as [`Search::optimum`] when it is at most `beta`; else
    /// `Err(bound)` with a proven lower bound above `beta`.
    pub fn optimum_within(
        &mut self,
        set: &[u32],
        history: &[u32],
        depth: u32,
        beta: u32,
    ) -> Result<std::result::Result<u32, u32>> {
        let v = self.solve_from(Objective::Total, set, history, depth, beta)?;
        Ok(if v <= beta { Ok(v) } else { Err(v) })
    }

    /// The least worst case for `set`: the smallest depth cap under which every secret
    /// can be found (decided by [`Search::feasible`]).
    pub fn min_worst(&mut self, set: &[u32], history: &[u32]) -> Result<u32> {
        // No cap: the depth of the candidates guessed one by one is always feasible.
        Ok(self
            .min_worst_within(set, history, u32::MAX - 1)?
            .unwrap_or_else(|bound| bound))
    }

    /// The least worst case for `set` as [`Search::min_worst`] when it is at most `limit`;
    /// else `Err(limit + 1)`, a lower bound.
    pub fn min_worst_within(
        &mut self,
        set: &[u32],
        history: &[u32],
        limit: u32,
    ) -> Result<std::result::Result<u32, u32>> {
        let mut d = 1;
        while self.lower_bound(set.len(), d) >= INF {
            d += 1;
        }
        while d <= limit {
            let mut h = history.to_vec();
            let ok = self.feasible(set, &mut h, d);
            self.check_aborted()?;
            if ok {
                return Ok(Ok(d));
            }
            d += 1;
        }
        Ok(Err(d.max(limit + 1)))
    }

    /// Whether some strategy finds every secret of `set` within `depth` guesses: an AND-OR
    /// search that stops at the first guess whose classes are all feasible, largest class
    /// first, memoised by (canonical set, depth).
    pub fn feasible(&mut self, set: &[u32], history: &mut Vec<u32>, depth: u32) -> bool {
        let n = set.len();
        if self.aborted || depth == 0 {
            return n == 0;
        }
        if n <= 1 {
            return true;
        }
        if n as u64 > self.capacity(depth) {
            return false;
        }
        if depth as usize >= n {
            // Guessing the candidates one by one finds each within n guesses.
            return true;
        }
        if n as u64 <= self.tables.non_winning_answers + 1 && self.perfect_member(set) {
            return true;
        }
        if self.count_node_and_check_time() {
            return false;
        }
        let key = self.memo_key(set, depth);
        if let Some(&known) = self.feasible_memo.get(&key) {
            self.stats.hits += 1;
            return known;
        }
        let (candidates, _) = self.scan(set, depth, INF - 1);
        let mut distinct = Distinct::new(self.oracle.space, set, history);
        let mut found = false;
        for (_, g) in candidates {
            let Some(classes) = distinct.classes(self, g, set) else {
                continue;
            };
            history.push(g);
            let all = classes.iter().all(|c| self.feasible(c, history, depth - 1));
            history.pop();
            if self.aborted {
                return false;
            }
            if all {
                found = true;
                break;
            }
        }
        self.feasible_memo.insert(key, found);
        found
    }

    /// A node's key in the memos: its depth cap (no more than its size matters) and the
    /// canonical image of its set.
    fn memo_key(&self, set: &[u32], depth: u32) -> (u32, Box<[u16]>) {
        (
            depth.min(set.len() as u32),
            self.tables
                .canon
                .key(self.oracle.space, set)
                .into_boxed_slice(),
        )
    }

    /// Whether a member of `set` answers differently to every other member.
    fn perfect_member(&self, set: &[u32]) -> bool {
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
    fn members_first(&self, set: &[u32], depth: u32) -> (Option<u32>, u32) {
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
    fn split(&self, guess: u32, set: &[u32]) -> (Vec<u8>, Vec<Vec<u32>>) {
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

    /// Counts a searched node and, every 1024 nodes, checks the deadline: true (and the
    /// search marked aborted) when this check finds it passed.
    fn count_node_and_check_time(&mut self) -> bool {
        self.stats.nodes += 1;
        let expired = self.stats.nodes.is_multiple_of(1024)
            && self.deadline.is_some_and(|d| Instant::now() > d);
        if expired {
            self.aborted = true;
        }
        expired
    }

    fn check_aborted(&self) -> Result<()> {
        if self.aborted {
            Err(Error::OutOfTime)
        } else {
            Ok(())
        }
    }

    /// The optimal guess for `set` under the cap `depth`: among the guesses achieving the
    /// optimum, a candidate beats a non-candidate, then the smallest rank wins.
    pub fn best_guess(&mut self, set: &[u32], history: &[u32], depth: u32) -> Result<u32> {
        let target = self.optimum(set, history, depth)?;
        if target >= INF {
            return Err(Error::Infeasible {
                candidates: set.len(),
                depth,
            });
        }
        if set.len() <= 2 {
            return Ok(set[0]);
        }
        let n = set.len() as u32;
        let pool: Vec<u32> = if self.hard {
            set.to_vec()
        } else {
            self.tables.all.clone()
        };
        let space = self.oracle.space;
        let mut reps = Stabilizer::of_history(space, history).representatives(space, &pool, set);
        reps.sort_by_key(|&g| (set.binary_search(&g).is_err(), g));
        let mut h = history.to_vec();
        h.push(0);
        for g in reps {
            *h.last_mut().expect("pushed") = g;
            let member = set.binary_search(&g).is_ok();
            let (_, children) = self.split(g, set);
            if !member && children.len() == 1 {
                continue;
            }
            let mut acc = n;
            acc += children
                .iter()
                .map(|c| self.lower_bound(c.len(), depth - 1))
                .fold(0u32, |a, b| a.saturating_add(b).min(INF));
            if acc > target {
                continue;
            }
            let mut ok = true;
            for c in &children {
                let clb = self.lower_bound(c.len(), depth - 1);
                let v = self.cost(c, &mut h, depth - 1, target - (acc - clb));
                self.check_aborted()?;
                acc = acc - clb + v.min(INF);
                if acc > target {
                    ok = false;
                    break;
                }
            }
            if ok && acc == target {
                return Ok(g);
            }
        }
        Err(Error::Internal(
            "no guess reaches the optimum the search proved",
        ))
    }

    /// The optimal decision tree for `set` under the cap `depth`.
    pub fn tree(&mut self, set: &[u32], history: &mut Vec<u32>, depth: u32) -> Result<Node> {
        let guess = self.best_guess(set, history, depth)?;
        let win = self.oracle.win();
        let classes = partition(&self.oracle, guess, set);
        let consistent = classes.iter().any(|(a, _)| *a == win);
        history.push(guess);
        let mut branches = Vec::new();
        for (a, c) in classes {
            if a != win {
                branches.push((a, self.tree(&c, history, depth - 1)?));
            }
        }
        history.pop();
        Ok(Node {
            guess,
            candidates: set.len() as u32,
            consistent,
            branches,
        })
    }

    /// The fewest secrets of `set` that a strategy finding every one within `depth`
    /// guesses must leave to its last guess (the `depth`-th), with the least worst case
    /// known to be `depth` this is the second key of the lexicographic objective;
    /// [`INF`] when not every secret can be found within `depth` guesses.
    pub fn fewest_last(&mut self, set: &[u32], history: &[u32], depth: u32) -> Result<u32> {
        let v = self.solve_from(Objective::Last, set, history, depth, INF)?;
        Ok(v)
    }

    /// [`Search::fewest_last`] when it is at most `beta`; else `Err(bound)` with a proven
    /// lower bound above `beta`.
    pub fn fewest_last_within(
        &mut self,
        set: &[u32],
        history: &[u32],
        depth: u32,
        beta: u32,
    ) -> Result<std::result::Result<u32, u32>> {
        let v = self.solve_from(Objective::Last, set, history, depth, beta)?;
        Ok(if v <= beta { Ok(v) } else { Err(v) })
    }

    /// An upper bound on [`Search::fewest_last`]: the secrets that one strategy finding
    /// every secret within `depth` guesses leaves to its last guess; `None` when no
    /// strategy finds them all in time. The strategy is greedy: at each node the guess of
    /// least total bound (as [`Search::optimum`] orders them) whose classes can all still
    /// be finished in time; sets of at most `EXACT_LAST` (64) candidates are solved exactly.
    pub fn last_greedy(&mut self, set: &[u32], history: &[u32], depth: u32) -> Result<Option<u32>> {
        let mut h = history.to_vec();
        let v = self.greedy_last(set, &mut h, depth);
        self.check_aborted()?;
        Ok(v)
    }

    fn greedy_last(&mut self, set: &[u32], history: &mut Vec<u32>, depth: u32) -> Option<u32> {
        let n = set.len();
        if self.aborted || self.last_bound(n, depth) >= INF {
            return None;
        }
        if n <= EXACT_LAST {
            let v = self.last_cost(set, history, depth, INF);
            return (v < INF).then_some(v);
        }
        let (candidates, _) = self.scan(set, depth, INF - 1);
        let mut distinct = Distinct::new(self.oracle.space, set, history);
        for (_, g) in candidates {
            let Some(classes) = distinct.classes(self, g, set) else {
                continue;
            };
            history.push(g);
            let feasible = classes.iter().all(|c| self.feasible(c, history, depth - 1));
            let mut total = Some(0u32);
            if feasible {
                for c in &classes {
                    total = total
                        .zip(self.greedy_last(c, history, depth - 1))
                        .map(|(a, b)| a + b);
                }
            }
            history.pop();
            if self.aborted {
                return None;
            }
            if feasible {
                return total;
            }
        }
        None
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

    /// `last(S, d, β)`: the fewest secrets left to the `d`-th guess when at most `β`, else a
    /// lower bound above `β`; the same branch and bound as [`Search::cost`] with the bound
    /// [`Search::last_bound`] for each class.
    fn last_cost(&mut self, set: &[u32], history: &mut Vec<u32>, depth: u32, beta: u32) -> u32 {
        let n = set.len();
        if self.aborted {
            return INF;
        }
        let lb = self.last_bound(n, depth);
        if lb >= INF || lb > beta || n == 0 {
            return lb;
        }
        if depth == 1 {
            return n as u32;
        }
        if n < depth as usize {
            // The candidates guessed one by one all come before the last guess.
            return 0;
        }
        if depth >= 3 && n as u64 <= self.tables.non_winning_answers + 1 && self.perfect_member(set)
        {
            return 0;
        }
        self.branch(Objective::Last, set, history, depth, beta, lb)
    }

    /// The guesses worth trying for [`Search::last_cost`] at a node, with their bounds (the
    /// classes' [`Search::last_bound`]s), as [`Search::scan`] does for the total. Most
    /// guesses share the bound 0 on large sets; among equal bounds the guesses of least
    /// total bound come first (the classes that are easiest to finish early).
    fn scan_last(&mut self, set: &[u32], depth: u32, beta: u32) -> (Vec<(u32, u32)>, u32) {
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

    fn cost(&mut self, set: &[u32], history: &mut Vec<u32>, depth: u32, beta: u32) -> u32 {
        let n = set.len();
        if self.aborted {
            return INF;
        }
        if n <= 1 {
            return if depth == 0 && n == 1 { INF } else { n as u32 };
        }
        let mut lb = self.lower_bound(n, depth);
        if lb >= INF || lb > beta {
            return lb;
        }
        if n == 2 {
            return 3;
        }
        if n as u64 <= self.tables.non_winning_answers + 2 {
            let (exact, lower) = self.members_first(set, depth);
            if let Some(v) = exact {
                return v;
            }
            lb = lb.max(lower);
            if lb > beta {
                return lb;
            }
        }
        self.branch(Objective::Total, set, history, depth, beta, lb)
    }

    /// [`Search::solve`] from the guesses `history`, an error if the deadline passed.
    fn solve_from(
        &mut self,
        objective: Objective,
        set: &[u32],
        history: &[u32],
        depth: u32,
        beta: u32,
    ) -> Result<u32> {
        let mut h = history.to_vec();
        let v = self.solve(objective, set, &mut h, depth, beta);
        self.check_aborted()?;
        Ok(v)
    }

    /// The value of `objective` at a node (`cost` or `last_cost`).
    fn solve(
        &mut self,
        objective: Objective,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        beta: u32,
    ) -> u32 {
        match objective {
            Objective::Total => self.cost(set, history, depth, beta),
            Objective::Last => self.last_cost(set, history, depth, beta),
        }
    }

    /// The slot bound of `objective`: [`Search::lower_bound`] or [`Search::last_bound`].
    fn bound(&self, objective: Objective, n: usize, depth: u32) -> u32 {
        match objective {
            Objective::Total => self.lower_bound(n, depth),
            Objective::Last => self.last_bound(n, depth),
        }
    }

    /// The memo of `objective`'s values.
    fn memo(&mut self, objective: Objective) -> &mut Memo<Entry> {
        match objective {
            Objective::Total => &mut self.memo,
            Objective::Last => &mut self.last_memo,
        }
    }

    /// The branch and bound of [`Search::cost`] and [`Search::last_cost`] below their own
    /// cut-offs, with `lb` a lower bound for the node: the memo, then every guess worth
    /// trying in ascending bound order (its classes probed first on large sets), each
    /// class with the budget its siblings' bounds leave.
    fn branch(
        &mut self,
        objective: Objective,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        beta: u32,
        mut lb: u32,
    ) -> u32 {
        let n = set.len();
        if self.count_node_and_check_time() {
            return INF;
        }
        let key = self.memo_key(set, depth);
        match self.memo(objective).get(&key) {
            Some(&Entry::Exact(v)) => {
                self.stats.hits += 1;
                return v;
            }
            Some(&Entry::Lower(v)) => {
                lb = lb.max(v);
                if lb > beta {
                    self.stats.hits += 1;
                    return lb;
                }
            }
            None => {}
        }
        let (candidates, skipped) = match objective {
            Objective::Total => self.scan(set, depth, beta),
            Objective::Last => self.scan_last(set, depth, beta),
        };
        let mut distinct = Distinct::new(self.oracle.space, set, history);
        let mut best = INF;
        let mut fail = skipped;
        for (bound, g) in candidates {
            let limit = beta.min(best.saturating_sub(1));
            if bound > limit {
                fail = fail.min(bound);
                break;
            }
            let Some(classes) = distinct.classes(self, g, set) else {
                continue;
            };
            history.push(g);
            let mut acc = bound;
            let mut ok = true;
            let mut floors: Vec<u32> = classes
                .iter()
                .map(|c| self.bound(objective, c.len(), depth - 1))
                .collect();
            if n >= PROBE_FROM {
                // Probe: ask each class only whether it can meet its own slot bound. The
                // answer is cheap (one scan of its guesses, then memoised) and is a sharper
                // floor, so a hopeless guess is dropped before any class is searched deeply.
                for (c, floor) in classes.iter().zip(floors.iter_mut()) {
                    if c.len() < 3 {
                        continue;
                    }
                    let v = self.solve(objective, c, history, depth - 1, *floor);
                    if self.aborted {
                        history.pop();
                        return INF;
                    }
                    if v > *floor {
                        acc = acc.saturating_add(v - *floor).min(INF);
                        *floor = v;
                    }
                    if acc > limit {
                        ok = false;
                        break;
                    }
                }
            }
            for (c, &clb) in classes.iter().zip(&floors) {
                if !ok {
                    break;
                }
                let v = self.solve(objective, c, history, depth - 1, limit - (acc - clb));
                if self.aborted {
                    history.pop();
                    return INF;
                }
                acc = (acc - clb).saturating_add(v).min(INF);
                if acc > limit {
                    ok = false;
                    break;
                }
            }
            history.pop();
            if ok {
                best = acc;
                if best <= lb {
                    break;
                }
            } else {
                fail = fail.min(acc);
            }
        }
        if best <= beta {
            self.memo(objective).insert(key, Entry::Exact(best));
            best
        } else {
            let low = lb.max(fail);
            self.memo(objective).insert(key, Entry::Lower(low));
            low
        }
    }

    /// A lower bound on the least total for `set` (no depth cap) looking `levels` guesses
    /// ahead: `|S| + min over guesses of Σ bound(class)`, with the slot bound at the leaves.
    pub fn lookahead_bound(&mut self, set: &[u32], history: &mut Vec<u32>, levels: u32) -> u32 {
        let n = set.len();
        let depth = n as u32;
        if levels == 0 || n <= 2 {
            return self.lower_bound(n, depth);
        }
        let mut distinct = Distinct::new(self.oracle.space, set, history);
        let mut best = INF;
        for (bound, g) in self.scan(set, depth, INF).0 {
            if bound >= best {
                break;
            }
            let Some(classes) = distinct.classes(self, g, set) else {
                continue;
            };
            history.push(g);
            let mut total = n as u32;
            for class in &classes {
                total = total.saturating_add(self.lookahead_bound(class, history, levels - 1));
            }
            history.pop();
            best = best.min(total);
        }
        best
    }

    /// The guesses worth trying at a node (`set`, at most `depth` guesses each) with their
    /// bounds, in ascending (bound, rank) order: every allowed guess that splits the set and
    /// leaves no class too large for `depth - 1` guesses. Those whose bound exceeds `beta`
    /// are left out, and the least of their bounds is returned beside ([`INF`] if none).
    fn scan(&mut self, set: &[u32], depth: u32, beta: u32) -> (Vec<(u32, u32)>, u32) {
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
}

#[cfg(test)]
mod tests {
    use super::super::rules::Rules;
    use super::*;

    #[test]
    fn the_slot_bound_fills_one_then_eight_then_sixty_four_places_for_three_digits() {
        let space = Space::new(Rules::new(3)).unwrap();
        let table = AnswerTable::build(&space).unwrap();
        let search = Search::new(&space, &table, false).unwrap();
        // Three digits: 9 answers are possible (not 2E1B), 8 of them not winning.
        assert_eq!(search.tables.non_winning_answers, 8);
        assert_eq!(search.lower_bound(1, 1), 1);
        assert_eq!(search.lower_bound(2, 2), 3);
        assert_eq!(search.lower_bound(9, 2), 1 + 8 * 2);
        assert_eq!(search.lower_bound(10, 3), 1 + 8 * 2 + 3);
        assert_eq!(search.lower_bound(10, 2), INF);
        assert_eq!(search.lower_bound(73, 3), 1 + 16 + 64 * 3);
        assert_eq!(search.lower_bound(74, 3), INF);
    }

    #[test]
    fn a_set_split_into_singletons_by_one_of_its_members_costs_two_per_secret_but_one() {
        let space = Space::new(Rules::new(3)).unwrap();
        let table = AnswerTable::build(&space).unwrap();
        let mut search = Search::new(&space, &table, true).unwrap();
        // 012 answers 3E0B, 2E0B, 1E2B, 0E3B to these four: all different.
        let mut set: Vec<u32> = ["012", "013", "021", "120"]
            .iter()
            .map(|c| space.parse(c).unwrap())
            .collect();
        set.sort();
        assert_eq!(search.optimum(&set, &[], 4).unwrap(), 7);
        assert_eq!(search.best_guess(&set, &[], 4).unwrap(), set[0]);
        assert_eq!(search.min_worst(&set, &[]).unwrap(), 2);
    }
}
