//! A second, plainer search for the fewest secrets at the last guess, written for these
//! tests and sharing nothing with the library's search but the rules: codes and replies
//! computed digit by digit (no answer table of the library, no ranks), every code tried at
//! every node below the root (no symmetry, no lanes, no dead digits), memoised on the exact
//! set, and bounded by its own look-ahead: a guess is judged by its real classes, each
//! bounded by the fact the memo holds about it or by how many secrets the guesses left can
//! find before the last.
//!
//! It re-proves the moonshot of issue 29 class by class: below 4-digit Bulls and Cows'
//! opening 0123, every secret can be found within seven guesses leaving 4 of class 0E2B
//! (1,260 secrets) and 46 of class 0E1B (1,440) to the seventh, and no strategy leaves
//! fewer. Only at the root are the second guesses taken one an orbit of the automorphisms
//! fixing 0123, maps the test checks against its own answer table ([`opening_orbits`]).

use crate::numeron_exact::{fewest_at_worst, naive_answer, naive_codes};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tabula::numeron::root::RootReport;
use tabula::numeron::{Engine, Rules, Strategy};

/// Facts a thread of a re-proof keeps at most (about 120 bytes each, so 3.6 GB) before it
/// forgets them.
const MEMO_MOST: usize = 30_000_000;

/// No strategy: more than any count of secrets.
const NONE: u32 = 1 << 28;

/// What the memo knows of a set with so many guesses left: its value, or a lower bound.
#[derive(Clone, Copy)]
struct Fact {
    value: u32,
    exact: bool,
}

/// The memo's hasher: the key's words mixed by multiply and rotate (the sets are the
/// keys, so `std`'s keyed hash costs more than it protects).
#[derive(Default)]
struct Mix(u64);

impl Mix {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().unwrap()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
}

type Memo = HashMap<Box<[u16]>, Fact, std::hash::BuildHasherDefault<Mix>>;

/// What [`Plain::reach`] found for a set: the least count a strategy it built leaves, the
/// largest budget it failed to meet ([`NONE`] for none).
type Reached = HashMap<Box<[u16]>, (u32, u32), std::hash::BuildHasherDefault<Mix>>;

/// The plain search over one game's codes.
struct Plain {
    codes: usize,
    /// Each code's digits as text (`1045`), for the log.
    written: Arc<[String]>,
    /// `reply[g * codes + s]`: `eat * (digits + 1) + bite` of guess `g` to secret `s`.
    reply: Arc<[u8]>,
    win: u8,
    /// The replies are `0..kinds`.
    kinds: usize,
    /// `found[k]`: the most secrets `k` guesses can find (one the first guess, one each
    /// reply to it the second, …).
    found: Vec<u64>,
    /// `memo[left]`: the facts about sets with `left` guesses left.
    memo: Vec<Memo>,
    /// `reached[left]`: what [`Plain::reach`] found for sets with `left` guesses left.
    reached: Vec<Reached>,
    nodes: u64,
    /// While judging the witness candidate at place `i` of the order: the first place
    /// reached so far, on every thread. Once it is below `i`, this candidate cannot be the
    /// witness, and [`Plain::reach`] gives up (`abandoned`; what it learnt is then not
    /// kept).
    abandon: Option<(Arc<AtomicUsize>, usize)>,
    abandoned: bool,
}

/// Where a guess sends each secret of a set: the classes numbered in order of first
/// appearance, the winning reply as `u8::MAX` (so that equal partitions compare equal).
fn partition_labels(row: &[u8], win: u8, set: &[u16], out: &mut Vec<u8>) {
    let mut label = [u8::MAX; 64];
    let mut next = 0u8;
    out.clear();
    for &s in set {
        let r = row[s as usize];
        if r == win {
            out.push(u8::MAX);
            continue;
        }
        if label[r as usize] == u8::MAX {
            label[r as usize] = next;
            next += 1;
        }
        out.push(label[r as usize]);
    }
}

impl Plain {
    fn new(rules: Rules) -> Plain {
        let codes = naive_codes(rules);
        let digits = rules.digits;
        let mut reply = Vec::with_capacity(codes.len() * codes.len());
        for g in &codes {
            for s in &codes {
                let (eat, bite) = naive_answer(g, s);
                reply.push((eat * (digits + 1) + bite) as u8);
            }
        }
        // A reply does not depend on which code is the guess: row `s` is also column `s`.
        for g in 0..codes.len() {
            for s in 0..g {
                assert_eq!(reply[g * codes.len() + s], reply[s * codes.len() + g]);
            }
        }
        let replies: HashSet<u8> = reply.iter().copied().collect();
        assert!(reply.iter().all(|&r| r < 64), "replies fit a word's bits");
        let win = (digits * (digits + 1)) as u8;
        let others = replies.len() as u64 - 1;
        let mut found = vec![0u64];
        let mut level = 1u64;
        while *found.last().unwrap() < codes.len() as u64 {
            found.push(found.last().unwrap() + level);
            level = level.saturating_mul(others);
        }
        let kinds = usize::from(*reply.iter().max().unwrap()) + 1;
        let written: Vec<String> = codes
            .iter()
            .map(|c| c.iter().map(|d| char::from(b'0' + d)).collect())
            .collect();
        Plain {
            codes: codes.len(),
            written: written.into(),
            reply: reply.into(),
            win,
            kinds,
            found,
            memo: Vec::new(),
            reached: Vec::new(),
            nodes: 0,
            abandon: None,
            abandoned: false,
        }
    }

    /// The same game with an empty memo (the answers shared), for another thread.
    fn fresh(&self) -> Plain {
        Plain {
            codes: self.codes,
            written: Arc::clone(&self.written),
            reply: Arc::clone(&self.reply),
            win: self.win,
            kinds: self.kinds,
            found: self.found.clone(),
            memo: Vec::new(),
            reached: Vec::new(),
            nodes: 0,
            abandon: None,
            abandoned: false,
        }
    }

    fn found(&self, guesses: u32) -> u64 {
        self.found
            .get(guesses as usize)
            .copied()
            .unwrap_or(u64::MAX)
    }

    fn row(&self, g: usize) -> &[u8] {
        &self.reply[g * self.codes..][..self.codes]
    }

    /// A lower bound of `k` secrets left to the last of `left` guesses, from their number
    /// alone: those that the guesses before the last cannot find.
    fn size_bound(&self, k: u64, left: u32) -> u32 {
        if k == 0 {
            0
        } else if left == 0 || k > self.found(left) {
            NONE
        } else if k == 1 {
            u32::from(left == 1)
        } else {
            k.saturating_sub(self.found(left - 1)) as u32
        }
    }

    fn fact(&self, set: &[u16], left: u32) -> Option<Fact> {
        self.memo.get(left as usize)?.get(set).copied()
    }

    /// A lower bound of the secrets of `set` left to the last of `left` guesses, without
    /// searching: the memo's fact, else [`Plain::size_bound`].
    fn bound(&self, set: &[u16], left: u32) -> u32 {
        let size = self.size_bound(set.len() as u64, left);
        if set.len() <= 1 || size >= NONE {
            return size;
        }
        match self.fact(set, left) {
            Some(f) => f.value.max(size),
            None => size,
        }
    }

    fn remember(&mut self, set: &[u16], left: u32, fact: Fact) {
        if self.memo.len() <= left as usize {
            self.memo.resize_with(left as usize + 1, Memo::default);
        }
        let slot = self.memo[left as usize].entry(set.into()).or_insert(fact);
        if fact.exact || (!slot.exact && fact.value > slot.value) {
            *slot = fact;
        }
    }

    /// Whether `g`'s replies tell every secret of `set` apart.
    fn separates(&self, g: usize, set: &[u16]) -> bool {
        let row = self.row(g);
        let mut seen = 0u64;
        for &s in set {
            let bit = 1u64 << row[s as usize];
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
        }
        true
    }

    /// The exact value with two guesses left: the first must tell the secrets apart, and
    /// finds one of them only if it is one of them.
    fn two(&self, set: &[u16]) -> u32 {
        let k = set.len() as u32;
        if set.iter().any(|&g| self.separates(g as usize, set)) {
            return k - 1;
        }
        // Every code at once, a secret's row (its replies to every guess) at a time.
        let mut seen = vec![0u64; self.codes];
        let mut clash = vec![false; self.codes];
        for &s in set {
            for ((seen, clash), &r) in seen.iter_mut().zip(&mut clash).zip(self.row(s as usize)) {
                let bit = 1u64 << r;
                *clash |= *seen & bit != 0;
                *seen |= bit;
            }
        }
        if clash.contains(&false) {
            k
        } else {
            NONE
        }
    }

    /// The classes of guess `g` over `set`, the winning one left out, largest first.
    fn classes(&self, g: usize, set: &[u16]) -> Vec<Vec<u16>> {
        let row = self.row(g);
        let mut by: Vec<Vec<u16>> = vec![Vec::new(); 64];
        for &s in set {
            let r = row[s as usize];
            if r != self.win {
                by[r as usize].push(s);
            }
        }
        let mut classes: Vec<Vec<u16>> = by.into_iter().filter(|c| !c.is_empty()).collect();
        classes.sort_by_key(|c| std::cmp::Reverse(c.len()));
        classes
    }

    /// Every code as the next guess over `set` with `left` guesses, each partition of the
    /// set once, judged by the sizes of its classes: `(bound, largest class, guess)` in that
    /// order for those whose bound is at most `beta`, and the least bound of the others.
    fn scan(&self, set: &[u16], left: u32, beta: u32) -> (Vec<(u32, usize, usize)>, u32) {
        let n = set.len();
        let mut tries: Vec<(u32, usize, usize)> = Vec::new();
        let mut lower = NONE;
        let mut seen: HashMap<u64, usize, std::hash::BuildHasherDefault<Mix>> = HashMap::default();
        let (mut mine, mut theirs) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let mut counts = [[0u32; 256]; 4];
        // With two guesses left below a guess, each class of k secrets leaves at least
        // k - 1 to the last, so a guess of d different replies leaves at least n - d: the
        // replies each guess gives (a bit each), from the secrets' rows read in order,
        // leave the full count to the few guesses that pass that bound.
        let kinds: Option<Vec<u64>> = (left == 3).then(|| {
            // The bit of each reply, looked up: plain loads, cheaper than a shift a byte.
            const BIT: [u64; 256] = {
                let mut bit = [0u64; 256];
                let mut r = 0;
                while r < 64 {
                    bit[r] = 1 << r;
                    r += 1;
                }
                bit
            };
            // Four rows at a time: a guess's bits loaded and stored once for four secrets.
            let mut kinds = vec![0u64; self.codes];
            let mut quads = set.chunks_exact(4);
            for q in &mut quads {
                let [a, b, c, d] = [0, 1, 2, 3].map(|i| self.row(q[i] as usize));
                for (g, k) in kinds.iter_mut().enumerate() {
                    *k |= BIT[a[g] as usize]
                        | BIT[b[g] as usize]
                        | BIT[c[g] as usize]
                        | BIT[d[g] as usize];
                }
            }
            for &s in quads.remainder() {
                for (k, &r) in kinds.iter_mut().zip(self.row(s as usize)) {
                    *k |= BIT[r as usize];
                }
            }
            kinds
        });
        // Otherwise the replies of every guess to the set's secrets, a guess's contiguous:
        // read from the secrets' rows, which are the guesses' columns ([`Plain::new`]), so
        // that each row is read in order once instead of a byte of every row for each
        // secret.
        let mut replies = vec![0u8; if kinds.is_some() { n } else { self.codes * n }];
        if kinds.is_none() {
            for (i, &s) in set.iter().enumerate() {
                for (g, &r) in self.row(s as usize).iter().enumerate() {
                    replies[g * n + i] = r;
                }
            }
        }
        for g in 0..self.codes {
            let row = match &kinds {
                Some(kinds) => {
                    let d = kinds[g].count_ones() as usize;
                    if d == 1 && kinds[g] & (1u64 << self.win) == 0 {
                        continue; // tells nothing
                    }
                    let b = (n - d) as u32;
                    if b > beta {
                        lower = lower.min(b);
                        continue;
                    }
                    let from = self.row(g);
                    for (r, &s) in replies.iter_mut().zip(set) {
                        *r = from[s as usize];
                    }
                    &replies[..]
                }
                None => &replies[g * n..][..n],
            };
            // The classes' sizes, counted four secrets at a time in four tables (so that
            // equal replies in a row do not wait on each other), then added up.
            let mut quads = row.chunks_exact(4);
            for q in &mut quads {
                for (c, &r) in counts.iter_mut().zip(q) {
                    c[r as usize] += 1;
                }
            }
            for &r in quads.remainder() {
                counts[0][r as usize] += 1;
            }
            let mut b = 0u32;
            let mut largest = 0;
            for r in 0..self.kinds {
                let k: u32 = counts.iter_mut().map(|c| std::mem::take(&mut c[r])).sum();
                if k > 0 && r != self.win as usize {
                    b = b.saturating_add(self.size_bound(u64::from(k), left - 1));
                    largest = largest.max(k as usize);
                }
            }
            if largest == n {
                continue; // tells nothing
            }
            let b = b.min(NONE);
            if b > beta {
                lower = lower.min(b);
                continue;
            }
            // The partition's print: each secret's class by its order of first appearance.
            let mut label = [u8::MAX; 256];
            let mut next = 0u8;
            let mut print = Mix::default();
            for &r in row {
                if r == self.win {
                    print.add(u64::MAX);
                    continue;
                }
                if label[r as usize] == u8::MAX {
                    label[r as usize] = next;
                    next += 1;
                }
                print.add(u64::from(label[r as usize]));
            }
            match seen.entry(std::hash::Hasher::finish(&print)) {
                std::collections::hash_map::Entry::Occupied(e) => {
                    partition_labels(self.row(g), self.win, set, &mut mine);
                    partition_labels(self.row(*e.get()), self.win, set, &mut theirs);
                    if mine == theirs {
                        continue; // the same partition as a guess already kept
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(g);
                }
            }
            tries.push((b, largest, g));
        }
        tries.sort_unstable();
        (tries, lower)
    }

    /// Guess `g` over `set` with `left` guesses: `Ok` with the fewest secrets its classes
    /// leave to the last guess when at most `limit`, else `Err` with a lower bound above it.
    fn judge(&mut self, set: &[u16], left: u32, g: usize, limit: u32) -> Result<u32, u32> {
        self.by_classes(set, left, g, limit, |p, c, _, budget| {
            let v = p.solve(c, left - 1, budget);
            if v > budget {
                Err(v)
            } else {
                Ok(v)
            }
        })
    }

    /// Guess `g`'s classes over `set` with `left` guesses, in turn, within `limit`: each
    /// class's lower bound, then `class(search, class, bound, budget)` with what the classes
    /// before it took and the bounds of those after it leave, `Ok` with what it takes or
    /// `Err` with a bound above its budget. `Ok` with the sum, or `Err` with a bound above
    /// `limit`.
    fn by_classes(
        &mut self,
        set: &[u16],
        left: u32,
        g: usize,
        limit: u32,
        mut class: impl FnMut(&mut Self, &[u16], u32, u32) -> Result<u32, u32>,
    ) -> Result<u32, u32> {
        let classes = self.classes(g, set);
        let bounds: Vec<u32> = classes.iter().map(|c| self.bound(c, left - 1)).collect();
        let mut rest: u32 = bounds.iter().fold(0u32, |a, &b| a.saturating_add(b));
        if rest > limit {
            return Err(rest.min(NONE));
        }
        let mut sum = 0u32;
        for (c, b) in classes.iter().zip(bounds) {
            rest -= b;
            let budget = limit - sum - rest;
            match class(self, c, b, budget) {
                Ok(v) => sum += v,
                Err(v) => return Err(sum.saturating_add(v).saturating_add(rest).min(NONE)),
            }
        }
        Ok(sum)
    }

    /// The fewest secrets of `set` (ascending codes) a strategy finding each within `left`
    /// guesses leaves to the last one, when at most `beta`; otherwise a lower bound above
    /// `beta` (at least [`NONE`] when no strategy finds them all).
    fn solve(&mut self, set: &[u16], left: u32, beta: u32) -> u32 {
        let quick = self.bound(set, left);
        if set.len() <= 1 || quick >= NONE || left == 1 {
            return quick;
        }
        if let Some(f) = self.fact(set, left) {
            if f.exact || f.value > beta {
                return f.value;
            }
        }
        if quick > beta {
            return quick;
        }
        self.nodes += 1;
        if left == 2 {
            let value = self.two(set);
            self.remember(set, left, Fact { value, exact: true });
            return value;
        }
        let (tries, mut lower) = self.scan(set, left, beta);
        let mut best = NONE;
        for (b, _, g) in tries {
            let limit = beta.min(best.saturating_sub(1));
            if b > limit {
                lower = lower.min(b);
                break;
            }
            match self.judge(set, left, g, limit) {
                Ok(v) => best = v,
                Err(v) => lower = lower.min(v),
            }
        }
        let fact = if best <= beta {
            Fact {
                value: best,
                exact: true,
            }
        } else {
            Fact {
                value: lower.max(beta + 1),
                exact: false,
            }
        };
        self.remember(set, left, fact);
        fact.value
    }

    /// A strategy for `set` with `left` guesses that leaves at most `beta` to the last, if
    /// this search finds one: the count it leaves. Unlike [`Plain::solve`] it takes the
    /// first guess that fits the budget and does not prove anything about the others, so
    /// `None` refutes nothing; what it returns is the count of a strategy it built (below
    /// three guesses left, the exact value). What shows a witness.
    fn reach(&mut self, set: &[u16], left: u32, beta: u32) -> Option<u32> {
        if self.abandoned || self.bound(set, left) > beta {
            return None;
        }
        if left <= 3 || set.len() <= 2 {
            let v = self.solve(set, left, beta);
            return (v <= beta).then_some(v);
        }
        if let Some(f) = self.fact(set, left) {
            if f.exact {
                return (f.value <= beta).then_some(f.value);
            }
        }
        let known = self
            .reached
            .get(left as usize)
            .and_then(|m| m.get(set))
            .copied();
        if let Some((found, failed)) = known {
            if found <= beta {
                return Some(found);
            }
            if failed != NONE && failed >= beta {
                return None;
            }
        }
        self.nodes += 1;
        if self.nodes % 64 == 1 {
            if let Some((first, i)) = &self.abandon {
                self.abandoned = first.load(Ordering::Relaxed) < *i;
            }
        }
        let (tries, _) = self.scan(set, left, beta);
        let mut got = None;
        for (b, _, g) in tries {
            if b > beta || self.abandoned {
                break;
            }
            if let Some(v) = self.reach_judge(set, left, g, beta) {
                got = Some(v);
                break;
            }
        }
        if self.abandoned {
            return None;
        }
        if self.reached.len() <= left as usize {
            self.reached
                .resize_with(left as usize + 1, Default::default);
        }
        let slot = self.reached[left as usize]
            .entry(set.into())
            .or_insert((NONE, NONE));
        match got {
            Some(v) => slot.0 = slot.0.min(v),
            None => {
                slot.1 = if slot.1 == NONE {
                    beta
                } else {
                    slot.1.max(beta)
                }
            }
        }
        got
    }

    /// Guess `g` over `set` with `left` guesses, within `limit`, as [`Plain::reach`] builds
    /// strategies: each class in turn given the least budget, from its lower bound up, that
    /// a strategy is found for.
    fn reach_judge(&mut self, set: &[u16], left: u32, g: usize, limit: u32) -> Option<u32> {
        self.by_classes(set, left, g, limit, |p, c, b, budget| {
            (b..=budget)
                .find_map(|t| p.reach(c, left - 1, t))
                .ok_or(budget + 1)
        })
        .ok()
    }

    /// The exact fewest secrets of `set` at the last of `left` guesses ([`NONE`] when
    /// impossible): each budget the lower bound the last search proved.
    fn fewest(&mut self, set: &[u16], left: u32) -> u32 {
        let mut beta = self.bound(set, left);
        loop {
            let v = self.solve(set, left, beta);
            if v <= beta || v >= NONE {
                return v;
            }
            beta = v;
        }
    }

    fn facts(&self) -> usize {
        let reached: usize = self.reached.iter().map(|m| m.len()).sum();
        self.memo.iter().map(|m| m.len()).sum::<usize>() + reached
    }

    /// The classes of `guess` over every code, by reply, the winning one left out.
    fn classes_of(&self, guess: usize) -> Vec<(u8, Vec<u16>)> {
        let mut by: std::collections::BTreeMap<u8, Vec<u16>> = Default::default();
        for s in 0..self.codes {
            let r = self.reply[guess * self.codes + s];
            if r != self.win {
                by.entry(r).or_default().push(s as u16);
            }
        }
        by.into_iter().collect()
    }
}

/// The library's report of the fewest secrets at the least worst case, the plain search
/// over the same game, and the library's first guess as the plain search's code number.
fn below_library_opening(rules: Rules) -> (RootReport, Plain, usize) {
    let engine = Engine::new(rules, Strategy::Optimal).unwrap();
    let r = fewest_at_worst(&engine);
    let first = engine.space.digits_of(r.first_guess);
    let g = naive_codes(rules).iter().position(|c| *c == first).unwrap();
    (r, Plain::new(rules), g)
}

/// The plain search against the library's: below the first guess the library chooses, the
/// fewest secrets of every class at the least worst case, on small games of both kinds.
#[test]
fn the_plain_search_finds_every_class_of_the_fewest_at_the_worst_case_as_the_library() {
    for rules in [
        Rules::new(2).with_alphabet(5),
        Rules::new(3).with_alphabet(5),
        Rules::new(3).with_alphabet(6),
        Rules::mastermind(3, 4),
    ] {
        let (r, mut plain, g) = below_library_opening(rules);
        let worst = r.worst.unwrap();
        let mut got: Vec<(usize, u64)> = plain
            .classes_of(g)
            .iter()
            .map(|(_, c)| (c.len(), u64::from(plain.fewest(c, worst - 1))))
            .collect();
        let mut want: Vec<(usize, u64)> = r.per_class.iter().map(|c| (c.size, c.upper)).collect();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "{rules:?}");
        // And the whole game from the start.
        let all: Vec<u16> = (0..plain.codes as u16).collect();
        assert_eq!(u64::from(plain.fewest(&all, worst)), r.upper, "{rules:?}");
        assert_eq!(plain.fewest(&all, worst - 1), NONE, "{rules:?}");
    }
}

/// Asserts that [`reprove`] on two threads accepts `want` for `class` with `left` guesses
/// and, when `want` is positive, refuses one less; returns whether it was.
fn accepts_and_refuses_one_less(
    plain: &Plain,
    class: &[u16],
    left: u32,
    want: u32,
    orbit: Option<&[usize]>,
) -> bool {
    assert_eq!(reprove(plain, class, left, want, 2, None, orbit), Ok(()));
    if want == 0 {
        return false;
    }
    let low = reprove(plain, class, left, want - 1, 2, None, orbit);
    assert!(
        low.is_err(),
        "a claim of {} for a class of {}",
        want - 1,
        class.len()
    );
    true
}

/// [`reprove`] on a small game: each class below the library's first guess re-proved at the
/// library's value with two threads, and a value one too low refused.
#[test]
fn reprove_confirms_the_library_s_classes_and_refuses_a_lower_claim() {
    let rules = Rules::new(3).with_alphabet(6);
    let (r, plain, g) = below_library_opening(rules);
    let worst = r.worst.unwrap();
    let mut positive = 0;
    for (_, class) in plain.classes_of(g) {
        // The value as the plain search's memoised recursion finds it (the test above
        // holds those equal to the library's).
        let want = plain.fresh().fewest(&class, worst - 1);
        positive += usize::from(accepts_and_refuses_one_less(
            &plain,
            &class,
            worst - 1,
            want,
            None,
        ));
    }
    assert!(positive > 0, "some class leaves secrets to the last guess");
}

/// A re-proof with a file of guesses done goes on where it stopped: run again, it finds
/// every guess there and searches none (the file does not grow), and a file that claims a
/// guess refuted for a smaller value is not taken for a refutation at this one.
#[test]
fn reprove_resumes_from_its_file_of_guesses_done() {
    let rules = Rules::new(3).with_alphabet(6);
    let plain = Plain::new(rules);
    let (_, class) = plain
        .classes_of(0)
        .into_iter()
        .max_by_key(|(_, c)| c.len())
        .unwrap();
    let want = plain.fresh().fewest(&class, 4);
    assert!(
        want > 0 && want < NONE,
        "the class needs a refutation: {want}"
    );
    let dir = tempfile::tempdir().unwrap();
    let done = dir.path().join("done.txt");
    let path = done.to_str().unwrap();
    assert_eq!(
        reprove(&plain, &class, 4, want, 2, Some(path), None),
        Ok(())
    );
    let first = std::fs::read_to_string(&done).unwrap();
    let refuted = first.lines().filter(|l| !l.starts_with("reach ")).count();
    assert!(
        refuted > 0 && first.lines().count() == refuted + 1,
        "{first}"
    );
    assert_eq!(
        reprove(&plain, &class, 4, want, 2, Some(path), None),
        Ok(())
    );
    assert_eq!(std::fs::read_to_string(&done).unwrap(), first);
    // Lines for a claim one lower do not count for this one: they are searched again.
    let lower: String = first
        .lines()
        .filter(|l| !l.starts_with("reach "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {} {}\n", f[0], f[1], want - 1)
        })
        .collect();
    std::fs::write(&done, &lower).unwrap();
    assert_eq!(
        reprove(&plain, &class, 4, want, 2, Some(path), None),
        Ok(())
    );
    let again = std::fs::read_to_string(&done).unwrap();
    assert_eq!(again.lines().count(), lower.lines().count() + 1 + refuted);
}

/// `judge(search, i)` for the items `0..count`, taken in order by `threads` threads, each
/// with its own search (its memo forgotten past [`MEMO_MOST`] facts: forgetting costs only
/// time, and hours of guesses would fill the memory); a thread stops at the first item
/// for which `stop` holds. The results, by item.
fn on_threads<T: Send>(
    plain: &Plain,
    threads: usize,
    count: usize,
    stop: impl Fn(usize) -> bool + Sync,
    judge: impl Fn(&mut Plain, usize) -> T + Sync,
) -> Vec<(usize, T)> {
    let next = AtomicUsize::new(0);
    let mut judged: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = plain.fresh();
                    let mut judged = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count || stop(i) {
                            break;
                        }
                        if mine.facts() > MEMO_MOST {
                            mine.memo.clear();
                            mine.reached.clear();
                        }
                        judged.push((i, judge(&mut mine, i)));
                    }
                    judged
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a re-proof thread panicked"))
            .collect()
    });
    judged.sort_unstable_by_key(|j| j.0);
    judged
}

/// Re-proves that the fewest secrets of `class` left to the last of `left` guesses is
/// `want`. First every partition of the class is refuted at `want - 1` (leaves at least
/// `want`), by its classes' sizes or by a search, the guesses shared among `threads`
/// threads, each with its own memo; then, among the guesses whose refutation left exactly
/// `want` open, one is shown to reach it. Each guess refuted is a line on stderr and, when
/// `done` names a file, a line there (`size guess bound`, and `reach size guess want` for
/// the witness), so that a run stopped resumes where it was: the guesses the file lists
/// refuted are not searched again.
fn reprove(
    plain: &Plain,
    class: &[u16],
    left: u32,
    want: u32,
    threads: usize,
    done: Option<&str>,
    orbit: Option<&[usize]>,
) -> Result<(), String> {
    use std::io::Write;
    let start = std::time::Instant::now();
    let size = class.len();
    // Every partition whose classes' sizes allow `want`; the others leave more.
    let (tries, _) = plain.scan(class, left, want);
    let lines = done
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default();
    let fields = |l: &str| -> Vec<usize> {
        l.split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    // A guess stands for its orbit, when the orbits are given.
    let key = |g: usize| orbit.map_or(g, |o| o[g]);
    // The bounds proved by a previous run, by guess (by orbit).
    let mut bounds: HashMap<usize, u32> = HashMap::new();
    for f in lines
        .lines()
        .filter(|l| !l.starts_with("reach "))
        .map(fields)
        .filter(|f| f.len() == 3 && f[0] == size && f[2] >= want as usize)
    {
        let b = bounds.entry(key(f[1])).or_insert(0);
        *b = (*b).max(f[2] as u32);
    }
    let log = std::sync::Mutex::new(done.map(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .unwrap()
    }));
    if want > 0 {
        // The sizes of those at `want` refute them already.
        for &(b, _, g) in &tries {
            if b == want {
                bounds.entry(key(g)).or_insert(want);
            }
        }
        let mut work: Vec<usize> = Vec::new();
        for g in tries.iter().map(|t| key(t.2)) {
            if !bounds.contains_key(&g) && !work.contains(&g) {
                work.push(g);
            }
        }
        eprintln!(
            "[{:.0?}] class of {size}: {} partitions, {} to refute at {}",
            start.elapsed(),
            tries.len(),
            work.len(),
            want - 1
        );
        let judged = on_threads(
            plain,
            threads,
            work.len(),
            |_| false,
            |mine, i| {
                let g = work[i];
                let r = mine.judge(class, left, g, want - 1);
                if let Err(bound) = r {
                    let mut log = log.lock().unwrap();
                    eprintln!(
                        "[{:.0?}] class of {size}: {}/{} guess {g} ({}) leaves at least \
                         {bound} ({} nodes, {} facts)",
                        start.elapsed(),
                        i + 1,
                        work.len(),
                        mine.written[g],
                        mine.nodes,
                        mine.facts()
                    );
                    if let Some(f) = log.as_mut() {
                        writeln!(f, "{size} {g} {bound}").unwrap();
                    }
                }
                r
            },
        );
        let mut failures = Vec::new();
        for (i, r) in judged {
            let g = work[i];
            match r {
                Err(bound) => {
                    bounds.insert(g, bound);
                }
                Ok(v) => failures.push(format!("guess {g} leaves {v}")),
            }
        }
        if !failures.is_empty() {
            return Err(failures.join("; "));
        }
    }
    // The witness: the one a previous run found first, then those left at exactly `want`
    // in the search's order (with `want` 0, every guess).
    let known = lines
        .lines()
        .filter(|l| l.starts_with("reach "))
        .map(fields)
        .find(|f| f.len() == 3 && f[0] == size && f[2] == want as usize)
        .map(|f| f[1]);
    let open = |g: &usize| want == 0 || bounds.get(&key(*g)) == Some(&want);
    // One guess of each orbit: its others leave the same.
    let mut order: Vec<usize> = Vec::new();
    for g in known
        .into_iter()
        .chain(tries.iter().map(|t| key(t.2)))
        .filter(open)
    {
        if !order.iter().any(|&o| key(o) == key(g)) {
            order.push(g);
        }
    }
    // The first of them that reaches `want`, judged on every thread in that order: a
    // thread stops once a guess before its next one has reached it, so every guess before
    // the first that does is judged; a guess under way after it is given up.
    let reached_at = Arc::new(AtomicUsize::new(usize::MAX));
    let judged = on_threads(
        plain,
        threads,
        order.len(),
        |i| i > reached_at.load(Ordering::Relaxed),
        |mine, i| {
            let g = order[i];
            mine.abandon = Some((Arc::clone(&reached_at), i));
            let r = mine.reach_judge(class, left, g, want);
            mine.abandon = None;
            let outcome = if std::mem::take(&mut mine.abandoned) {
                "given up: a guess before it reached".to_string()
            } else {
                format!("{r:?}")
            };
            eprintln!(
                "[{:.0?}] class of {size}: guess {g} ({}) with at most {want}: {outcome} ({} nodes)",
                start.elapsed(),
                mine.written[g],
                mine.nodes,
            );
            if r.is_some() {
                reached_at.fetch_min(i, Ordering::Relaxed);
            }
            r
        },
    );
    let reach = judged
        .into_iter()
        .find_map(|(i, r)| r.map(|v| (order[i], v)));
    let Some((reached, v)) = reach else {
        return Err(format!("no guess leaves at most {want}"));
    };
    if v != want {
        return Err(format!("guess {reached} leaves {v}"));
    }
    if known != Some(reached) {
        if let Some(f) = log.lock().unwrap().as_mut() {
            writeln!(f, "reach {size} {reached} {want}").unwrap();
        }
    }
    Ok(())
}

/// The moonshot re-proved without the library's search: within the six guesses after 0123,
/// class 0E2B (1,260 secrets) leaves at least and at best 4 secrets to the last, class
/// 0E1B (1,440) 46. The second guesses are refuted one an orbit of the automorphisms
/// fixing 0123, which [`opening_orbits`] checks against the answer table (19 orbits
/// besides 0123); below them every code is tried at every node. Below 0E2B a refutation
/// takes seconds, below 0E1B 5 to 30 minutes on a thread: about three hours on two cores
/// (`docs/numeron.md`). `TABULA_PLAIN_EVERY=1` refutes every one of the 5,039 second guesses
/// instead: weeks. Run it alone, on every core:
/// `TABULA_PLAIN_DONE=<file> cargo test --release -- --ignored --nocapture
/// the_plain_search_reproves`; the file keeps the guesses refuted and the witnesses, and a
/// run stopped and run again goes on where it was.
#[test]
#[ignore = "about three hours on two cores; .ci/run skips it"]
fn the_plain_search_reproves_4_and_46_secrets_at_the_seventh_guess_below_0123() {
    let rules = Rules::new(4);
    let plain = Plain::new(rules);
    let opening = naive_codes(rules)
        .iter()
        .position(|c| *c == [0, 1, 2, 3])
        .unwrap();
    let classes = plain.classes_of(opening);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let done = std::env::var("TABULA_PLAIN_DONE").ok();
    // Each orbit of second guesses once, unless every guess is asked for.
    let orbit = std::env::var_os("TABULA_PLAIN_EVERY")
        .is_none()
        .then(|| opening_orbits(rules, &plain));
    for (reply, size, want) in [((0, 2), 1260, 4), ((0, 1), 1440, 46)] {
        let code = (reply.0 * 5 + reply.1) as u8;
        let class = &classes.iter().find(|(r, _)| *r == code).unwrap().1;
        assert_eq!(class.len(), size);
        assert_eq!(
            reprove(
                &plain,
                class,
                6,
                want,
                threads,
                done.as_deref(),
                orbit.as_deref()
            ),
            Ok(())
        );
    }
}

/// The automorphisms of a game of distinct digits that fix its opening `0, 1, …, n-1`: a
/// permutation `σ` of the places with the same permutation of the opening's digits, then
/// the other digits renamed. Returns, for each code, the least code of its orbit, after
/// checking against the answer table that the maps it uses are automorphisms (every reply
/// kept, for every pair of codes) fixing the opening: each of the places' permutations,
/// and the two generators of the other digits' renamings. So a guess and its orbit's least
/// code leave the same to the last guess below the opening's classes, which each map onto
/// itself.
fn opening_orbits(rules: Rules, plain: &Plain) -> Vec<usize> {
    let codes = naive_codes(rules);
    let n = rules.digits;
    let a = rules.alphabet as u8;
    assert!(!rules.repeats && usize::from(a) > n);
    let index: HashMap<Vec<u8>, usize> = codes
        .iter()
        .enumerate()
        .map(|(i, c)| (c.clone(), i))
        .collect();
    let opening = index[&(0..n as u8).collect::<Vec<u8>>()];
    // Every permutation of the places, in lexicographic order.
    let mut perms: Vec<Vec<usize>> = vec![(0..n).collect()];
    loop {
        let mut p = perms.last().unwrap().clone();
        let Some(i) = (0..n.saturating_sub(1)).rev().find(|&i| p[i] < p[i + 1]) else {
            break;
        };
        let j = (i + 1..n).rev().find(|&j| p[j] > p[i]).unwrap();
        p.swap(i, j);
        p[i + 1..].reverse();
        perms.push(p);
    }
    // The map of the codes by a permutation of the places and one of the digits.
    let map = |place: &[usize], digit: &[u8]| -> Vec<usize> {
        codes
            .iter()
            .map(|c| {
                let mut d = vec![0u8; n];
                for (p, &x) in c.iter().enumerate() {
                    d[place[p]] = digit[usize::from(x)];
                }
                index[&d]
            })
            .collect()
    };
    let with_opening = |place: &[usize]| -> Vec<u8> {
        (0..a)
            .map(|x| {
                if usize::from(x) < n {
                    place[usize::from(x)] as u8
                } else {
                    x
                }
            })
            .collect()
    };
    let identity: Vec<usize> = (0..n).collect();
    let mut swap: Vec<u8> = (0..a).collect();
    swap.swap(n, n + 1);
    let cycle: Vec<u8> = (0..a)
        .map(|x| {
            if usize::from(x) < n {
                x
            } else {
                n as u8 + (x - n as u8 + 1) % (a - n as u8)
            }
        })
        .collect();
    let mut generators: Vec<Vec<usize>> = perms.iter().map(|p| map(p, &with_opening(p))).collect();
    if usize::from(a) > n + 1 {
        generators.push(map(&identity, &swap));
        generators.push(map(&identity, &cycle));
    }
    let c = codes.len();
    for m in &generators {
        assert_eq!(m[opening], opening, "the map fixes the opening");
        for x in 0..c {
            let (row, image) = (plain.row(x), plain.row(m[x]));
            assert!(
                (0..c).all(|y| row[y] == image[m[y]]),
                "a map that changes a reply"
            );
        }
    }
    // The least code of each orbit: over the places' permutations (the first generators),
    // the other digits renamed in order of appearance (a product of the last two).
    (0..c)
        .map(|x| {
            generators[..perms.len()]
                .iter()
                .map(|m| {
                    let mut d = codes[m[x]].clone();
                    let mut fresh = n as u8;
                    let mut name = vec![u8::MAX; usize::from(a)];
                    for x in d.iter_mut() {
                        let old = usize::from(*x);
                        if old >= n {
                            if name[old] == u8::MAX {
                                name[old] = fresh;
                                fresh += 1;
                            }
                            *x = name[old];
                        }
                    }
                    index[&d]
                })
                .min()
                .unwrap()
        })
        .collect()
}

/// The orbits of the opening's automorphisms on 3 digits of 6: every guess leaves each class
/// of the opening what its orbit's least code leaves (each judged in full, its own memo),
/// and a re-proof over the orbits accepts each class's value and refuses one less, as the
/// re-proof over every guess does.
#[test]
fn a_guess_leaves_what_its_orbit_s_least_code_leaves_and_the_re_proof_over_orbits_agrees() {
    let rules = Rules::new(3).with_alphabet(6);
    let plain = Plain::new(rules);
    let orbit = opening_orbits(rules, &plain);
    let orbits: HashSet<usize> = orbit.iter().copied().collect();
    assert!(
        orbits.len() > 1 && orbits.len() < plain.codes / 4,
        "{}",
        orbits.len()
    );
    let opening = naive_codes(rules)
        .iter()
        .position(|c| *c == [0, 1, 2])
        .unwrap();
    assert_eq!(orbit[opening], opening);
    let mut positive = 0;
    for (_, class) in plain.classes_of(opening) {
        for (g, &least) in orbit.iter().enumerate() {
            let value = |g: usize| plain.fresh().judge(&class, 4, g, NONE - 1);
            assert_eq!(
                value(g),
                value(least),
                "guess {g}, class of {}",
                class.len()
            );
        }
        let want = plain.fresh().fewest(&class, 4);
        assert!(want < NONE, "a class of {} has a strategy", class.len());
        positive += usize::from(accepts_and_refuses_one_less(
            &plain,
            &class,
            4,
            want,
            Some(&orbit),
        ));
    }
    assert!(positive > 0, "some class leaves secrets to the last guess");
}

/// [`Plain::reach`] meets each class's exact value, and never claims less, on small games
/// (every class of the opening, with four and five guesses left).
#[test]
fn reach_builds_a_strategy_at_each_class_s_exact_value_and_never_below() {
    for rules in [
        Rules::new(3).with_alphabet(6),
        Rules::new(3).with_alphabet(7),
    ] {
        let plain = Plain::new(rules);
        let mut positive = 0;
        for left in [4, 5] {
            for (_, class) in plain.classes_of(0) {
                let exact = plain.fresh().fewest(&class, left);
                if exact >= NONE {
                    continue;
                }
                positive += usize::from(exact > 0);
                assert_eq!(plain.fresh().reach(&class, left, exact), Some(exact));
                if exact > 0 {
                    assert_eq!(plain.fresh().reach(&class, left, exact - 1), None);
                }
            }
        }
        assert!(
            positive > 0,
            "{rules:?}: some class leaves secrets to the last"
        );
    }
}

#[test]
fn a_witness_candidate_after_one_reached_is_given_up_and_teaches_nothing() {
    let plain = Plain::new(Rules::new(3).with_alphabet(7));
    // Five guesses left, so that the classes of a second guess are searched (with three
    // or fewer left `reach` takes the exact value).
    let left = 5;
    // The largest class of 012 that a strategy can find.
    let (class, exact) = plain
        .classes_of(0)
        .into_iter()
        .map(|(_, c)| {
            let v = plain.fresh().fewest(&c, left);
            (c, v)
        })
        .filter(|&(_, v)| v < NONE)
        .max_by_key(|(c, _)| c.len())
        .expect("a class a strategy finds");
    let guess = (1..plain.codes)
        .find(|&g| plain.fresh().reach_judge(&class, left, g, exact) == Some(exact))
        .expect("a guess that reaches the class's value");
    // Nothing reached before it (place 3 of the order): it is judged as usual.
    let mut mine = plain.fresh();
    mine.abandon = Some((Arc::new(AtomicUsize::new(usize::MAX)), 3));
    assert_eq!(mine.reach_judge(&class, left, guess, exact), Some(exact));
    assert!(!mine.abandoned);
    // Place 2 reached: the candidate at place 3 cannot be the witness, and is given up
    // without keeping a strategy or a failure.
    let mut mine = plain.fresh();
    mine.abandon = Some((Arc::new(AtomicUsize::new(2)), 3));
    assert_eq!(mine.reach_judge(&class, left, guess, exact), None);
    assert!(mine.abandoned);
    assert!(mine.reached.iter().all(|m| m.is_empty()));
}
