//! A second, plainer search for the fewest secrets at the last guess, written for these
//! tests and sharing nothing with the library's search but the rules: codes and replies
//! computed digit by digit (no answer table of the library, no ranks), every code tried at
//! every node (no symmetry, no lanes, no dead digits), memoised on the exact set, and
//! bounded by its own look-ahead: a guess is judged by its real classes, each bounded by
//! the fact the memo holds about it or by how many secrets the guesses left can find
//! before the last.
//!
//! It re-proves the moonshot of issue 29 class by class: below 4-digit Bulls and Cows'
//! opening 0123, every secret can be found within seven guesses leaving 4 of class 0E2B
//! (1,260 secrets) and 46 of class 0E1B (1,440) to the seventh, and no strategy leaves
//! fewer.

use crate::numeron_exact::{naive_answer, naive_codes};
use std::collections::{HashMap, HashSet};
use tabula::numeron::root::{solve_root, Objective};
use tabula::numeron::{Engine, Rules, Strategy};
use tabula::progress::Progress;

/// No strategy: more than any count of secrets.
const NONE: u32 = 1 << 28;

/// What the memo knows of a set with so many guesses left: its value, or a lower bound.
#[derive(Clone, Copy)]
struct Fact {
    value: u32,
    exact: bool,
}

/// The plain search over one game's codes.
struct Plain {
    codes: usize,
    /// `reply[g * codes + s]`: `eat * (digits + 1) + bite` of guess `g` to secret `s`.
    reply: Vec<u8>,
    win: u8,
    /// `found[k]`: the most secrets `k` guesses can find (one the first guess, one each
    /// reply to it the second, …).
    found: Vec<u64>,
    memo: HashMap<(Vec<u16>, u32), Fact>,
    nodes: u64,
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
        let replies: HashSet<u8> = reply.iter().copied().collect();
        let win = (digits * (digits + 1)) as u8;
        let others = replies.len() as u64 - 1;
        let mut found = vec![0u64];
        let mut level = 1u64;
        while *found.last().unwrap() < codes.len() as u64 {
            found.push(found.last().unwrap() + level);
            level = level.saturating_mul(others);
        }
        Plain {
            codes: codes.len(),
            reply,
            win,
            found,
            memo: HashMap::new(),
            nodes: 0,
        }
    }

    fn found(&self, guesses: u32) -> u64 {
        self.found
            .get(guesses as usize)
            .copied()
            .unwrap_or(u64::MAX)
    }

    /// A lower bound of the secrets of `set` left to the last of `left` guesses, without
    /// searching: the memo's fact, else those that the guesses before the last cannot find.
    fn bound(&self, set: &[u16], left: u32) -> u32 {
        let k = set.len() as u64;
        if k == 0 {
            return 0;
        }
        if left == 0 || k > self.found(left) {
            return NONE;
        }
        if k == 1 {
            return u32::from(left == 1);
        }
        let size = k.saturating_sub(self.found(left - 1)) as u32;
        match self.memo.get(&(set.to_vec(), left)) {
            Some(f) => f.value.max(size),
            None => size,
        }
    }

    /// The fewest secrets of `set` (ascending codes) a strategy finding each within `left`
    /// guesses leaves to the last one, when at most `beta`; otherwise a lower bound above
    /// `beta` (at least [`NONE`] when no strategy finds them all).
    fn solve(&mut self, set: &[u16], left: u32, beta: u32) -> u32 {
        let quick = self.bound(set, left);
        if set.len() <= 1 || quick >= NONE || left == 1 {
            return quick;
        }
        let key = (set.to_vec(), left);
        if let Some(f) = self.memo.get(&key) {
            if f.exact || f.value > beta {
                return f.value;
            }
        }
        if quick > beta {
            return quick;
        }
        self.nodes += 1;
        // Every code as the next guess, each partition of the set once, with the bound of
        // its classes: least bound first, then smallest largest class, then by code.
        let mut partitions: HashSet<Vec<u8>> = HashSet::new();
        let mut tries: Vec<(u32, usize, usize, Vec<Vec<u16>>)> = Vec::new();
        let mut lower = NONE;
        for g in 0..self.codes {
            let row = &self.reply[g * self.codes..][..self.codes];
            let mut label = [u8::MAX; 256];
            let mut labels = Vec::with_capacity(set.len());
            let mut classes: Vec<Vec<u16>> = Vec::new();
            for &s in set {
                let r = row[s as usize];
                if r == self.win {
                    labels.push(u8::MAX);
                    continue;
                }
                if label[r as usize] == u8::MAX {
                    label[r as usize] = classes.len() as u8;
                    classes.push(Vec::new());
                }
                labels.push(label[r as usize]);
                classes[label[r as usize] as usize].push(s);
            }
            if classes.len() == 1 && classes[0].len() == set.len() {
                continue; // tells nothing
            }
            if !partitions.insert(labels) {
                continue;
            }
            let b = classes
                .iter()
                .map(|c| self.bound(c, left - 1))
                .fold(0u32, |a, b| a.saturating_add(b))
                .min(NONE);
            if b > beta {
                lower = lower.min(b);
                continue;
            }
            classes.sort_by_key(|c| std::cmp::Reverse(c.len()));
            tries.push((b, classes[0].len(), g, classes));
        }
        tries.sort_by_key(|t| (t.0, t.1, t.2));
        let mut best = NONE;
        for (b, _, _, classes) in tries {
            let limit = beta.min(best.saturating_sub(1));
            if b > limit {
                lower = lower.min(b);
                break;
            }
            let bounds: Vec<u32> = classes.iter().map(|c| self.bound(c, left - 1)).collect();
            let mut rest: u32 = bounds.iter().fold(0u32, |a, &b| a.saturating_add(b));
            if rest > limit {
                lower = lower.min(rest.min(NONE));
                continue;
            }
            let mut sum = 0u32;
            let mut refuted = false;
            for (c, b) in classes.iter().zip(bounds) {
                rest -= b;
                let budget = limit - sum - rest;
                let v = self.solve(c, left - 1, budget);
                if v > budget {
                    lower = lower.min(sum.saturating_add(v).saturating_add(rest).min(NONE));
                    refuted = true;
                    break;
                }
                sum += v;
            }
            if !refuted {
                best = sum;
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
        let slot = self.memo.entry(key).or_insert(fact);
        if fact.exact || (!slot.exact && fact.value > slot.value) {
            *slot = fact;
        }
        fact.value
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
        let engine = Engine::new(rules, Strategy::Optimal).unwrap();
        let r = solve_root(
            &engine,
            false,
            Objective::FewestAtWorst,
            None,
            Progress::SILENT,
        )
        .unwrap();
        let worst = r.worst.unwrap();
        let mut plain = Plain::new(rules);
        let first = engine.space.digits_of(r.first_guess);
        let g = naive_codes(rules).iter().position(|c| *c == first).unwrap();
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

/// The moonshot re-proved without the library's search: within the six guesses after 0123,
/// class 0E2B (1,260 secrets) leaves at least and at best 4 secrets to the last, class
/// 0E1B (1,440) 46. Without symmetry every one of the 5,040 codes is tried at each node
/// (the library tries a few dozen near the top), so this takes far longer than the
/// library's minute and a half: the 3-digit class 0E0B (210 secrets) alone takes more than a
/// minute. Run it alone: `cargo test --release -- --ignored the_plain_search_reproves`.
#[test]
#[ignore = "not yet run to its end (hours expected); .ci/run skips it"]
fn the_plain_search_reproves_4_and_46_secrets_at_the_seventh_guess_below_0123() {
    let rules = Rules::new(4);
    let mut plain = Plain::new(rules);
    let opening = naive_codes(rules)
        .iter()
        .position(|c| *c == [0, 1, 2, 3])
        .unwrap();
    let classes = plain.classes_of(opening);
    for (reply, size, want) in [((0, 2), 1260, 4), ((0, 1), 1440, 46)] {
        let code = (reply.0 * 5 + reply.1) as u8;
        let class = &classes.iter().find(|(r, _)| *r == code).unwrap().1;
        assert_eq!(class.len(), size);
        let start = std::time::Instant::now();
        // Proves `want` reachable and nothing below it.
        let v = plain.solve(class, 6, want);
        eprintln!(
            "class {}E{}B ({size}): {v} in {:.1?}, {} nodes, {} facts",
            reply.0,
            reply.1,
            start.elapsed(),
            plain.nodes,
            plain.memo.len()
        );
        assert_eq!(v, want, "class {reply:?}");
    }
}
