//! Scoring every guess at a node: the dense answer table, the tallies of the classes (many
//! guesses side by side), the bounds judged from them, and the guesses a node tries once
//! each.
//!
//! The tally is the search's inner loop. A candidate's row holds every guess's answer to
//! it (answers are symmetric), so the classes of `L` consecutive guesses are counted by
//! reading `L` bytes of each member's row and comparing them with each answer: `L` is 16
//! on any processor and 32 with AVX2 (the same loop compiled twice, chosen once when the
//! tables are built; 64 lanes with AVX-512 measured no faster). The counts, and so every
//! bound and every result, do not depend on which one runs.

use super::INF;
use crate::numeron::answer::AnswerTable;
use crate::numeron::rules::Space;
use crate::numeron::symmetry::{Canon, Stabilizer};
use rayon::prelude::*;

/// Guesses counted and judged together without AVX2: the lanes of one 128-bit word (32
/// with AVX2).
const LANES: usize = 16;

/// Rows of answers are padded to whole cache lines (and so to whole lane groups).
const ROW_ALIGN: usize = 64;

/// Members tallied into byte counters before they are added to wider ones.
const CHUNK: usize = 255;

/// The widest vector instructions the tally may use on this processor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Isa {
    Plain,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Isa {
    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Isa::Avx2;
        }
        Isa::Plain
    }
}

/// Sixty-four bytes aligned as one cache line (the rows of the answer table start on one).
#[repr(C, align(64))]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Line([u8; ROW_ALIGN]);

/// What every search over one space shares: the dense answers, the bounds and the tables
/// of the canonical keys.
pub(super) struct Tables {
    /// Number of candidates (and of guesses).
    pub(super) len: usize,
    /// Row length of `cells`: `len` rounded up to whole lines.
    stride: usize,
    /// Number of dense answers.
    answers: usize,
    /// Dense answers: byte `g * stride + s` numbers the answer of `g` to `s` among the
    /// answers that occur, `0..answers` (`u8::MAX` in the padding).
    cells: Vec<Line>,
    /// A power of two above the number of dense answers, at least eight.
    width: usize,
    /// The winning answer's dense number.
    pub(super) win: u8,
    /// `R`: the answers that occur, the winning one left out.
    pub(super) non_winning_answers: u64,
    /// `floor[k]`: the slot bound of `k` secrets with no cap on the depth.
    floor: Vec<u32>,
    /// `capacity[d]`: the most secrets the slots of `d` guesses hold (saturating).
    capacity: Vec<u64>,
    /// The capacities of two guesses and more below 255 (`1 + R`, `1 + R + R²`, …): a
    /// class of `k` secrets adds `max(0, k - c)` to its slot bound for each ([`Judge`]).
    levels: Vec<u8>,
    pub(super) canon: Canon,
    /// Every rank, ascending.
    pub(super) all: Vec<u32>,
    isa: Isa,
}

impl Tables {
    /// The tables of `space`, whose answers `table` holds.
    pub(super) fn new(space: &Space, table: &AnswerTable, win_code: u8, codes: usize) -> Tables {
        let len = space.len();
        let mut seen = vec![false; codes];
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
        let win = dense[win_code as usize];
        let stride = len.div_ceil(ROW_ALIGN).max(1) * ROW_ALIGN;
        let mut cells = vec![Line([u8::MAX; ROW_ALIGN]); len * stride / ROW_ALIGN];
        bytemuck::cast_slice_mut::<Line, u8>(&mut cells)
            .par_chunks_mut(stride)
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
        let levels = capacity[2..]
            .iter()
            .take_while(|&&c| c < 255)
            .map(|&c| c as u8)
            .collect();
        Tables {
            len,
            stride,
            answers,
            cells,
            levels,
            width: answers.next_power_of_two().max(8),
            win,
            non_winning_answers,
            floor,
            capacity,
            canon: Canon::new(space),
            all: (0..len as u32).collect(),
            isa: Isa::detect(),
        }
    }

    fn bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.cells)
    }

    /// The dense answers of `guess` to every secret, by secret rank.
    #[inline]
    pub(super) fn row(&self, guess: u32) -> &[u8] {
        &self.bytes()[guess as usize * self.stride..][..self.len]
    }

    /// The most secrets that `depth` guesses can find (the slots of the slot bound).
    pub(super) fn capacity(&self, depth: u32) -> u64 {
        self.capacity
            .get(depth as usize)
            .copied()
            .unwrap_or(u64::MAX)
    }

    /// The slot bound: least total number of guesses for `n` secrets with at most `depth`
    /// guesses each ([`INF`] when even the slots do not suffice).
    pub(super) fn lower_bound(&self, n: usize, depth: u32) -> u32 {
        if n as u64 > self.capacity(depth) {
            return INF;
        }
        match self.floor.get(n) {
            Some(&f) => f,
            None => {
                // Beyond the space (only asked by tests): fill the slots one by one.
                let r = self.non_winning_answers.max(1);
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

    /// The fewest of `n` secrets that a strategy finding each within `depth` guesses leaves
    /// to the last one, from the size alone: `depth - 1` guesses find at most
    /// `capacity(depth - 1)` secrets ([`INF`] when `depth` guesses cannot find them all).
    pub(super) fn last_bound(&self, n: usize, depth: u32) -> u32 {
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
        let mut seen = vec![false; self.width];
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
        let mut counts = vec![0u32; self.width];
        let mut one_pair = false;
        for &g in set {
            let row = self.row(g);
            counts.iter_mut().for_each(|c| *c = 0);
            for &s in set {
                counts[row[s as usize] as usize] += 1;
            }
            counts[self.win as usize] = 0;
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
        let mut number = vec![u8::MAX; self.width];
        let mut classes: Vec<Vec<u32>> = Vec::new();
        let mut labels = Vec::with_capacity(set.len());
        for &s in set {
            let a = row[s as usize];
            if a == self.win {
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

    /// The guesses worth trying at a node (`set`, at most `depth` guesses each) for the
    /// least total, with their bounds, in ascending (bound, rank) order: every allowed
    /// guess (every code, or with `hard` the members) that splits the set and leaves no
    /// class too large for `depth - 1` guesses. Those whose bound exceeds `beta` are left
    /// out, and the least of their bounds is returned beside ([`INF`] if none).
    pub(super) fn scan(
        &self,
        hard: bool,
        set: &[u32],
        depth: u32,
        beta: u32,
    ) -> (Vec<(u32, u32)>, u32) {
        let n = set.len();
        let cap = self.capacity(depth.saturating_sub(1));
        let win = self.win as usize;
        let mut kept = Kept {
            beta,
            keys: Vec::new(),
            skipped: INF,
        };
        if hard {
            let mut counts = vec![0u32; self.width];
            for &g in set {
                let row = self.row(g);
                counts.iter_mut().for_each(|c| *c = 0);
                for &s in set {
                    counts[row[s as usize] as usize] += 1;
                }
                kept.keep(g, judge(&counts, n, win, &self.floor, cap));
            }
        } else if n <= CHUNK && self.answers < 127 {
            let judge = self.judge(n, cap);
            self.each_word(
                set,
                &mut TotalLanes {
                    judge: &judge,
                    kept: &mut kept,
                },
            );
        } else {
            let floor = &self.floor;
            self.each_guess(set, |g, counts| {
                kept.keep(g, judge(counts, n, win, floor, cap));
            });
        }
        kept.keys.sort_unstable();
        let out = kept
            .keys
            .iter()
            .map(|&k| ((k >> 32) as u32, k as u32))
            .collect();
        (out, kept.skipped)
    }

    /// The guesses worth trying for the fewest secrets at the last guess, with their bounds
    /// (the classes' [`Tables::last_bound`]s), as [`Tables::scan`] does for the total. Most
    /// guesses share the bound 0 on large sets; among equal bounds the guesses of least
    /// total bound come first (the classes that are easiest to finish early).
    pub(super) fn scan_last(
        &self,
        hard: bool,
        set: &[u32],
        depth: u32,
        beta: u32,
    ) -> (Vec<(u32, u32)>, u32) {
        let n = set.len();
        let cap = self.capacity(depth - 1);
        let last = self.capacity(depth.saturating_sub(2));
        let win = self.win as usize;
        let floor = &self.floor;
        // (last bound, total bound, guess), packed 24, 24 and 16 bits.
        let mut keys: Vec<u64> = Vec::new();
        let mut skipped = INF;
        let mut judge_last = |g: u32, counts: &[u16]| {
            let mut bound = 0u64;
            let mut total = n as u64;
            let mut biggest = 0u32;
            for (a, &k) in counts.iter().enumerate() {
                let k = u32::from(k);
                if a != win {
                    bound += u64::from(k).saturating_sub(last);
                    total += u64::from(floor[k as usize]);
                }
                biggest = biggest.max(k);
            }
            let hit = u32::from(counts[win]);
            if (hit == 0 && biggest as usize == n) || u64::from(biggest) > cap {
                return;
            }
            if bound > u64::from(beta) {
                skipped = skipped.min(bound as u32);
                return;
            }
            keys.push(bound << 40 | total.min(0xff_ffff) << 16 | u64::from(g));
        };
        if hard {
            let mut counts = vec![0u16; self.width];
            for &g in set {
                let row = self.row(g);
                counts.iter_mut().for_each(|c| *c = 0);
                for &s in set {
                    counts[row[s as usize] as usize] += 1;
                }
                judge_last(g, &counts);
            }
        } else if n <= CHUNK && self.answers < 127 {
            let judge = self.judge(n, cap);
            self.each_word(
                set,
                &mut LastLanes {
                    judge: &judge,
                    last: last.min(255) as u8,
                    beta,
                    keys: &mut keys,
                    skipped: &mut skipped,
                },
            );
        } else {
            self.each_guess(set, judge_last);
        }
        keys.sort_unstable();
        let out = keys
            .iter()
            .map(|&k| ((k >> 40) as u32, (k & 0xffff) as u32))
            .collect();
        (out, skipped)
    }

    /// The judge of the guesses at a node of `n` candidates whose classes may hold at most
    /// `cap` secrets.
    fn judge(&self, n: usize, cap: u64) -> Judge<'_> {
        Judge {
            len: self.len,
            n,
            win: self.win as usize,
            cap,
            small: (self.non_winning_answers + 1).min(127) as u8,
            levels: &self.levels,
        }
    }

    /// Hands `f` the words of the guesses `g0..g0 + L` (`L` 16, or 32 with AVX2),
    /// ascending, with `words[a][l]` the members of `set` (at most [`CHUNK`]) answering
    /// `a` to the guess `g0 + l` (`words` has [`Tables::width`] entries; lanes past the
    /// last guess count nothing).
    fn each_word(&self, set: &[u32], f: &mut impl Words) {
        let scan = Scan { tables: self, set };
        match self.width {
            8 => scan.small::<8>(f),
            16 => scan.small::<16>(f),
            32 => scan.small::<32>(f),
            _ => scan.small::<64>(f),
        }
    }

    /// Calls `f(g, counts)` for every guess `g`, ascending, with `counts[a]` the members of
    /// `set` answering `a` to it (`counts` has [`Tables::width`] entries).
    fn each_guess(&self, set: &[u32], f: impl FnMut(u32, &[u16])) {
        let scan = Scan { tables: self, set };
        match self.width {
            8 => scan.wide::<8>(f),
            16 => scan.wide::<16>(f),
            32 => scan.wide::<32>(f),
            _ => scan.wide::<64>(f),
        }
    }
}

/// One node's scan: the tables and the set.
struct Scan<'t> {
    tables: &'t Tables,
    set: &'t [u32],
}

impl Scan<'_> {
    /// [`Tables::each_word`] on the widest lanes the processor has.
    fn small<const W: usize>(&self, f: &mut impl Words) {
        match self.tables.isa {
            Isa::Plain => self.small_lanes::<LANES, W>(f),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the processor has AVX2 (`Isa::detect`).
            Isa::Avx2 => unsafe { self.small_avx2::<W>(f) },
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn small_avx2<const W: usize>(&self, f: &mut impl Words) {
        self.small_lanes::<{ 2 * LANES }, W>(f);
    }

    #[inline(always)]
    fn small_lanes<const L: usize, const W: usize>(&self, f: &mut impl Words) {
        let t = self.tables;
        for g0 in (0..t.len).step_by(L) {
            let acc = tally::<L, W>(t.bytes(), t.stride, g0, t.answers, self.set);
            f.word(&acc, g0);
        }
    }

    /// [`Tables::each_guess`] on the widest lanes the processor has.
    fn wide<const W: usize>(&self, f: impl FnMut(u32, &[u16])) {
        match self.tables.isa {
            Isa::Plain => self.wide_lanes::<LANES, W>(f),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the processor has AVX2 (`Isa::detect`).
            Isa::Avx2 => unsafe { self.wide_avx2::<W>(f) },
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn wide_avx2<const W: usize>(&self, f: impl FnMut(u32, &[u16])) {
        self.wide_lanes::<{ 2 * LANES }, W>(f);
    }

    /// The classes of every guess, `L` guesses at a time, counted in bytes over chunks of
    /// [`CHUNK`] members and added up in 16-bit counters.
    #[inline(always)]
    fn wide_lanes<const L: usize, const W: usize>(&self, mut f: impl FnMut(u32, &[u16])) {
        let t = self.tables;
        for g0 in (0..t.len).step_by(L) {
            let mut wide = [[0u16; L]; W];
            for chunk in self.set.chunks(CHUNK) {
                let acc = tally::<L, W>(t.bytes(), t.stride, g0, t.answers, chunk);
                for (w, a) in wide.iter_mut().zip(&acc) {
                    for (x, &y) in w.iter_mut().zip(a) {
                        *x += u16::from(y);
                    }
                }
            }
            for (l, g) in (g0..t.len.min(g0 + L)).enumerate() {
                let counts: [u16; W] = std::array::from_fn(|a| wide[a][l]);
                f(g as u32, &counts);
            }
        }
    }
}

/// The classes of the guesses `g0..g0 + L` over `set` (at most 255 members): `acc[a][l]`
/// counts the members answering `a` to the guess `g0 + l` (answers at or above `answers`
/// are not counted). Each answer is counted by a comparison across the lanes, which the
/// compiler turns into vector instructions: no counter is read and written one guess at a
/// time.
#[inline(always)]
fn tally<const L: usize, const W: usize>(
    cells: &[u8],
    stride: usize,
    g0: usize,
    answers: usize,
    set: &[u32],
) -> [[u8; L]; W] {
    let mut acc = [[0u8; L]; W];
    // Eight answers at a time: their counters fit in vector registers for the whole pass.
    for (pass, counters) in acc.chunks_exact_mut(8).enumerate() {
        if pass * 8 >= answers {
            break;
        }
        let first = (pass * 8) as u8;
        let mut eight = [[0u8; L]; 8];
        for &s in set {
            let base = s as usize * stride + g0;
            let row: &[u8; L] = cells[base..base + L]
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

/// What takes the words of guesses a scan counts ([`Tables::each_word`]): its
/// method is inlined into the tally's loop, so that it is compiled with the tally's
/// instructions (AVX2 where the processor has it) and sees the word's fixed size.
trait Words {
    /// The guesses `g0..g0 + L`, `words[a][l]` members answering `a` to `g0 + l`.
    fn word<const L: usize, const W: usize>(&mut self, words: &[[u8; L]; W], g0: usize);
}

/// The guesses worth trying for the least total ([`Judge::lanes`]).
struct TotalLanes<'j, 'k> {
    judge: &'j Judge<'j>,
    kept: &'k mut Kept,
}

impl Words for TotalLanes<'_, '_> {
    #[inline(always)]
    fn word<const L: usize, const W: usize>(&mut self, words: &[[u8; L]; W], g0: usize) {
        self.judge.lanes(words, g0, self.kept);
    }
}

/// The guesses worth trying for the fewest at the last guess ([`Judge::last_lanes`]).
struct LastLanes<'j, 'k> {
    judge: &'j Judge<'j>,
    last: u8,
    beta: u32,
    keys: &'k mut Vec<u64>,
    skipped: &'k mut u32,
}

impl Words for LastLanes<'_, '_> {
    #[inline(always)]
    fn word<const L: usize, const W: usize>(&mut self, words: &[[u8; L]; W], g0: usize) {
        self.judge
            .last_lanes(words, g0, self.last, self.beta, self.keys, self.skipped);
    }
}

/// What judging a node's guesses needs: the space's size, the node's size `n`, the
/// winning answer, the largest class allowed, `R + 1`, and the capacities below 255.
///
/// A guess's bound is `n` plus the slot bounds of its classes; the slot bound of `k`
/// secrets is `Σ_j max(0, k - c_j)` over the capacities `c_0 = 0`, `c_1 = 1`, `c_2 = 1 +
/// R`, … (the `i`-th secret lies at the level of the capacities below `i`). Summed over
/// the classes, the first two terms give `n` and `n - classes`, so the bound is `3n - t +
/// Σ_{j≥2} Σ_a max(0, k_a - c_j)`, with `t` the guess's non-empty classes plus its winning
/// secret (0 or 1) (the winning class costs nothing more than its secret): byte operations
/// across the lanes of a word (16 or 32), one guess a lane.
struct Judge<'l> {
    len: usize,
    n: usize,
    win: usize,
    cap: u64,
    small: u8,
    levels: &'l [u8],
}

/// The counts of one word of `L` guesses that every judgement needs: `t` (non-empty
/// classes plus the winning secret), the largest class, and the winning secret.
struct Word<const L: usize> {
    t: [u8; L],
    biggest: [u8; L],
    hit: [u8; L],
}

impl Judge<'_> {
    /// `t`, the largest class and the winning secret of each lane of `acc`.
    #[inline(always)]
    fn word<const L: usize, const W: usize>(&self, acc: &[[u8; L]; W]) -> Word<L> {
        let mut t = [0u8; L];
        let mut biggest = [0u8; L];
        for counts in acc {
            for l in 0..L {
                t[l] += u8::from(counts[l] != 0);
                biggest[l] = biggest[l].max(counts[l]);
            }
        }
        let hit = acc[self.win];
        for l in 0..L {
            t[l] += hit[l];
        }
        Word { t, biggest, hit }
    }

    /// `Σ_{j≥2} Σ_a max(0, k_a - c_j)` of each lane: what the classes above `R + 1` add
    /// to `3n - t`.
    #[inline(always)]
    fn extra<const L: usize, const W: usize>(&self, acc: &[[u8; L]; W]) -> [u16; L] {
        let mut extra = [0u16; L];
        for counts in acc {
            for &c in self.levels {
                for l in 0..L {
                    extra[l] += u16::from(counts[l].saturating_sub(c));
                }
            }
        }
        extra
    }

    /// Whether the guess of lane `l` is out: it tells nothing (one class, not a win), or
    /// leaves a class larger than the cap.
    #[inline(always)]
    fn out<const L: usize>(&self, w: &Word<L>, l: usize) -> bool {
        (w.hit[l] == 0 && usize::from(w.biggest[l]) == self.n) || u64::from(w.biggest[l]) > self.cap
    }

    /// Judges the guesses `g0..g0 + L` (those below `len`) from their classes `acc`, as
    /// [`judge`] does, a word at a time. While no class holds more than `R + 1` secrets a
    /// guess's bound is `3n - t`: when no lane is kept (`t >= 3n - beta`), only the best
    /// `t` is looked for, which gives the least bound above `beta` (a guess that tells
    /// nothing has `t = 1`, below every other, so it never sets that bound). Lanes past
    /// the last guess count nothing (`t` and the largest class 0), so the test is taken
    /// on the whole word at once.
    #[inline(always)]
    fn lanes<const L: usize, const W: usize>(
        &self,
        acc: &[[u8; L]; W],
        g0: usize,
        kept: &mut Kept,
    ) {
        let w = self.word(acc);
        let three_n = 3 * self.n as u32;
        let small = self.small;
        let most = |x: &[u8; L]| x.iter().fold(0u8, |m, &v| m.max(v));
        let simple = most(&w.biggest) <= small && self.cap >= u64::from(small);
        // Lanes are kept when t >= 3n - beta; t never exceeds answers + 1.
        let need = three_n.saturating_sub(kept.beta);
        let best = most(&w.t);
        if simple && u32::from(best) < need {
            if best > 1 {
                kept.skipped = kept.skipped.min(three_n - u32::from(best));
            }
            return;
        }
        let valid = L.min(self.len.saturating_sub(g0));
        let extra = if simple { [0; L] } else { self.extra(acc) };
        for (l, &e) in extra.iter().enumerate().take(valid) {
            if !self.out(&w, l) {
                let bound = three_n - u32::from(w.t[l]) + u32::from(e);
                kept.keep((g0 + l) as u32, Some(bound));
            }
        }
    }

    /// Judges the guesses `g0..g0 + L` for the fewest secrets at the last guess, as
    /// [`Tables::scan_last`] does one at a time: the bound `Σ_{a ≠ win} max(0, k_a - last)`
    /// (kept when at most `beta`, else the least such is `skipped`), then the total bound
    /// to order equal ones.
    #[inline(always)]
    fn last_lanes<const L: usize, const W: usize>(
        &self,
        acc: &[[u8; L]; W],
        g0: usize,
        last: u8,
        beta: u32,
        keys: &mut Vec<u64>,
        skipped: &mut u32,
    ) {
        let w = self.word(acc);
        let extra = self.extra(acc);
        let mut bound = [0u16; L];
        for (a, counts) in acc.iter().enumerate() {
            if a != self.win {
                for l in 0..L {
                    bound[l] += u16::from(counts[l].saturating_sub(last));
                }
            }
        }
        let three_n = 3 * self.n as u64;
        for l in 0..L.min(self.len.saturating_sub(g0)) {
            if self.out(&w, l) {
                continue;
            }
            let b = u32::from(bound[l]);
            if b > beta {
                *skipped = (*skipped).min(b);
                continue;
            }
            let total = three_n - u64::from(w.t[l]) + u64::from(extra[l]);
            keys.push(u64::from(b) << 40 | total.min(0xff_ffff) << 16 | (g0 + l) as u64);
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

    /// The classes `g` splits `set` into (as [`Tables::split`]), or `None` when `g` is
    /// passed over.
    pub(super) fn classes(
        &mut self,
        space: &Space,
        tables: &Tables,
        g: u32,
        set: &[u32],
    ) -> Option<Vec<Vec<u32>>> {
        if !self.stabilizer.keeps(space, g, &self.dead) {
            return None;
        }
        let (labels, classes) = tables.split(g, set);
        if self.tried.contains(&labels) {
            return None;
        }
        self.tried.push(labels);
        Some(classes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeron::rules::Rules;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    /// The classes of every guess counted one secret at a time.
    fn plain_counts(t: &Tables, set: &[u32]) -> Vec<Vec<u16>> {
        (0..t.len as u32)
            .map(|g| {
                let mut c = vec![0u16; t.width];
                for &s in set {
                    c[t.row(g)[s as usize] as usize] += 1;
                }
                c
            })
            .collect()
    }

    /// [`Tables::scan`] (not `hard`) one guess at a time from the plain counts.
    fn plain_scan(t: &Tables, set: &[u32], depth: u32, beta: u32) -> (Vec<(u32, u32)>, u32) {
        let cap = t.capacity(depth.saturating_sub(1));
        let (mut kept, mut skipped) = (Vec::new(), INF);
        for (g, counts) in plain_counts(t, set).iter().enumerate() {
            match judge(counts, set.len(), t.win as usize, &t.floor, cap) {
                Some(b) if b <= beta => kept.push((b, g as u32)),
                Some(b) => skipped = skipped.min(b),
                None => {}
            }
        }
        kept.sort_unstable();
        (kept, skipped)
    }

    /// [`Tables::scan_last`] (not `hard`) one guess at a time from the plain counts:
    /// ordered by last bound, then total bound, then guess.
    fn plain_scan_last(t: &Tables, set: &[u32], depth: u32, beta: u32) -> (Vec<(u32, u32)>, u32) {
        let n = set.len();
        let cap = t.capacity(depth - 1);
        let last = t.capacity(depth.saturating_sub(2));
        let win = t.win as usize;
        let (mut kept, mut skipped) = (Vec::new(), INF);
        for (g, counts) in plain_counts(t, set).iter().enumerate() {
            let Some(total) = judge(counts, n, win, &t.floor, cap) else {
                continue;
            };
            let bound: u64 = (counts.iter().enumerate())
                .filter(|&(a, _)| a != win)
                .map(|(_, &k)| u64::from(k).saturating_sub(last))
                .sum();
            if bound > u64::from(beta) {
                skipped = skipped.min(bound as u32);
            } else {
                kept.push((bound as u32, total, g as u32));
            }
        }
        kept.sort_unstable();
        (kept.into_iter().map(|(b, _, g)| (b, g)).collect(), skipped)
    }

    /// Every guess's counts as the words hold them; the lanes past the last guess checked
    /// empty (the judge's test of a whole word relies on it).
    struct Collect {
        len: usize,
        words: Vec<(u32, Vec<u16>)>,
    }

    impl Words for Collect {
        fn word<const L: usize, const W: usize>(&mut self, w: &[[u8; L]; W], g0: usize) {
            for l in 0..L {
                let c: Vec<u16> = w.iter().map(|a| u16::from(a[l])).collect();
                if g0 + l < self.len {
                    self.words.push(((g0 + l) as u32, c));
                } else {
                    assert!(c.iter().all(|&x| x == 0), "lane {} past the end", g0 + l);
                }
            }
        }
    }

    /// The instruction sets this processor can run: the portable one always, AVX2 where
    /// the processor has it.
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    fn isas() -> Vec<Isa> {
        let mut isas = vec![Isa::Plain];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            isas.push(Isa::Avx2);
        }
        isas
    }

    #[test]
    fn every_lane_width_counts_the_classes_as_one_secret_at_a_time_does() {
        for rules in [Rules::new(3), Rules::mastermind(4, 4), Rules::new(2)] {
            let space = Space::new(rules).unwrap();
            let table = AnswerTable::build(&space).unwrap();
            let oracle = crate::numeron::Oracle {
                space: &space,
                table: Some(&table),
            };
            let mut t = Tables::new(&space, &table, oracle.win(), oracle.codes());
            // A set larger than one chunk, and a small one.
            let big: Vec<u32> = (0..space.len() as u32).step_by(2).collect();
            let small: Vec<u32> = (0..space.len() as u32).step_by(7).take(40).collect();
            for set in [&big, &small] {
                let want: Vec<(u32, Vec<u16>)> = plain_counts(&t, set)
                    .into_iter()
                    .enumerate()
                    .map(|(g, c)| (g as u32, c))
                    .collect();
                for isa in isas() {
                    t.isa = isa;
                    let mut got = Vec::new();
                    t.each_guess(set, |g, c| got.push((g, c.to_vec())));
                    assert_eq!(got, want, "{rules:?} {isa:?}");
                    if set.len() <= CHUNK {
                        // The byte words of 16 or 32 guesses hold the same counts.
                        let mut words = Collect {
                            len: t.len,
                            words: Vec::new(),
                        };
                        t.each_word(set, &mut words);
                        assert_eq!(words.words, want, "{rules:?} {isa:?}");
                    }
                }
            }
        }
    }

    /// The bounds judged sixteen (or thirty-two) guesses at a time, on every instruction
    /// set the processor has, against the same bounds judged one guess at a time from
    /// counts taken one secret at a time: random sets of 1 to 255 candidates, every depth
    /// from one guess to no limit, and cut-offs from none to every guess.
    #[test]
    fn the_lanes_judge_every_guess_as_one_guess_at_a_time_does_on_every_isa() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(37);
        for rules in [
            Rules::new(3),
            Rules::new(2),
            Rules::mastermind(4, 4),
            Rules::mastermind(3, 3),
            Rules::mastermind(2, 2),
            Rules::new(3).with_repeats(true),
        ] {
            let space = Space::new(rules).unwrap();
            let table = AnswerTable::build(&space).unwrap();
            let oracle = crate::numeron::Oracle {
                space: &space,
                table: Some(&table),
            };
            let mut t = Tables::new(&space, &table, oracle.win(), oracle.codes());
            if t.answers >= 127 {
                continue;
            }
            let mut all: Vec<u32> = (0..space.len() as u32).collect();
            for size in [1, 2, 3, 5, 9, 17, 40, 100, 200, 255] {
                if size > all.len() {
                    continue;
                }
                all.shuffle(&mut rng);
                let mut set = all[..size].to_vec();
                set.sort_unstable();
                let n = size as u32;
                for depth in [1, 2, 3, 4, 5, 9, 40] {
                    let total_betas = [0, 2 * n, 3 * n - 3, 3 * n, 4 * n, INF - 1, INF];
                    let want: Vec<_> = (total_betas.iter())
                        .map(|&b| plain_scan(&t, &set, depth, b))
                        .collect();
                    let last_betas = [0, 1, n / 4, n / 2, n, INF];
                    let want_last: Vec<_> = (last_betas.iter())
                        .map(|&b| plain_scan_last(&t, &set, depth, b))
                        .collect();
                    for isa in isas() {
                        t.isa = isa;
                        for (&beta, want) in total_betas.iter().zip(&want) {
                            let got = t.scan(false, &set, depth, beta);
                            assert_eq!(&got, want, "{rules:?} {isa:?} n={n} d={depth} b={beta}");
                        }
                        for (&beta, want) in last_betas.iter().zip(&want_last) {
                            let got = t.scan_last(false, &set, depth, beta);
                            assert_eq!(&got, want, "{rules:?} {isa:?} n={n} d={depth} b={beta}");
                        }
                    }
                }
            }
        }
    }
}
