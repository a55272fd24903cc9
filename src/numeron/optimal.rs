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
//! only one guess per distinct partition (with its winning candidate
//! marked); guesses that do not split the set are skipped. Results are memoised by a
//! canonical image of the set under digit relabelling and position permutation (exact
//! values, and lower bounds learnt from cut-offs).

use super::answer::{AnswerTable, Oracle};
use super::rules::Space;
use super::symmetry::{canonical_key, position_permutations, Stabilizer};
use super::tree::{partition, Node};
use super::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// Sets at least this large probe their classes' bounds before searching any deeply.
const PROBE_FROM: usize = 12;

/// "Infinite" cost: no tree within the depth cap.
pub const INF: u32 = 1 << 30;

/// Largest candidate space the exact search takes (ranks must fit `u16` and the answer
/// table must fit in memory).
pub const MAX_SEARCH_SPACE: usize = 5040;

#[derive(Debug, Clone, Copy)]
enum Entry {
    Exact(u32),
    Lower(u32),
}

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

/// The search state: the memo persists across calls, so successive questions reuse work.
pub struct Search<'a> {
    oracle: Oracle<'a>,
    hard: bool,
    perms: Vec<Vec<usize>>,
    all: Vec<u32>,
    non_winning_answers: u64,
    memo: HashMap<(u8, Vec<u16>), Entry>,
    feasible_memo: HashMap<(u8, Vec<u16>), bool>,
    stats: Stats,
    deadline: Option<Instant>,
    aborted: bool,
}

impl<'a> Search<'a> {
    /// A search over `space` with answers from `table`; `hard` restricts guesses to the
    /// candidates still possible.
    pub fn new(space: &'a Space, table: &'a AnswerTable, hard: bool) -> Result<Search<'a>> {
        if space.len() > MAX_SEARCH_SPACE {
            return Err(Error::TooLargeForExactSearch {
                candidates: space.len(),
                max: MAX_SEARCH_SPACE,
            });
        }
        let oracle = Oracle {
            space,
            table: Some(table),
        };
        let win = oracle.win();
        let mut seen = vec![false; oracle.codes()];
        for g in 0..space.len() as u32 {
            for &c in table.row(g) {
                seen[c as usize] = true;
            }
        }
        let non_winning_answers = seen
            .iter()
            .enumerate()
            .filter(|&(a, &s)| s && a != win as usize)
            .count() as u64;
        Ok(Search {
            oracle,
            hard,
            perms: position_permutations(space.digits()),
            all: (0..space.len() as u32).collect(),
            non_winning_answers,
            memo: HashMap::new(),
            feasible_memo: HashMap::new(),
            stats: Stats::default(),
            deadline: None,
            aborted: false,
        })
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
            memo: (self.memo.len() + self.feasible_memo.len()) as u64,
            ..self.stats
        }
    }

    /// The slot bound: least total number of guesses for `n` secrets with at most `depth`
    /// guesses each ([`INF`] when even the slots do not suffice).
    pub fn lower_bound(&self, n: usize, depth: u32) -> u32 {
        let mut left = n as u64;
        let mut total = 0u64;
        let mut slots = 1u64;
        let mut k = 1u64;
        while left > 0 {
            if k > u64::from(depth) {
                return INF;
            }
            let take = left.min(slots);
            total += take * k;
            left -= take;
            slots = slots.saturating_mul(self.non_winning_answers.max(1));
            k += 1;
        }
        total.min(u64::from(INF)) as u32
    }

    /// The least total number of guesses for the candidates `set` (ascending ranks) after
    /// the guesses `history`, with at most `depth` guesses per secret ([`INF`] if none).
    pub fn optimum(&mut self, set: &[u32], history: &[u32], depth: u32) -> Result<u32> {
        let mut h = history.to_vec();
        let v = self.cost(set, &mut h, depth, INF);
        self.check_aborted()?;
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
        let mut h = history.to_vec();
        let v = self.cost(set, &mut h, depth, upper);
        self.check_aborted()?;
        if v > upper {
            return Err(Error::Internal(
                "the search found no tree within a total some strategy achieves",
            ));
        }
        Ok(v)
    }

    /// The least worst case for `set`: the smallest depth cap under which every secret
    /// can be found (decided by [`Search::feasible`]).
    pub fn min_worst(&mut self, set: &[u32], history: &[u32]) -> Result<u32> {
        let mut d = 1;
        while self.lower_bound(set.len(), d) >= INF {
            d += 1;
        }
        loop {
            let mut h = history.to_vec();
            let ok = self.feasible(set, &mut h, d);
            self.check_aborted()?;
            if ok {
                return Ok(d);
            }
            d += 1;
        }
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
        if self.lower_bound(n, depth) >= INF {
            return false;
        }
        if n == 2 {
            return depth >= 2;
        }
        if self.count_node_and_check_time() {
            return false;
        }
        let key = (
            depth.min(n as u32) as u8,
            canonical_key(self.oracle.space, set, &self.perms),
        );
        if let Some(&known) = self.feasible_memo.get(&key) {
            self.stats.hits += 1;
            return known;
        }
        let (candidates, _) = self.ordered_guesses(set, history, depth, INF - 1);
        let mut found = false;
        for (_, g) in candidates {
            let classes = self.classes_largest_first(g, set);
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

    /// The classes `guess` splits `set` into, the winning one left out, largest first.
    fn classes_largest_first(&self, guess: u32, set: &[u32]) -> Vec<Vec<u32>> {
        let win = self.oracle.win();
        let mut classes: Vec<Vec<u32>> = partition(&self.oracle, guess, set)
            .into_iter()
            .filter(|(a, _)| *a != win)
            .map(|(_, c)| c)
            .collect();
        classes.sort_by_key(|c| std::cmp::Reverse(c.len()));
        classes
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
            self.all.clone()
        };
        let mut reps = Stabilizer::of_history(self.oracle.space, history).representatives(
            self.oracle.space,
            &pool,
            set,
        );
        reps.sort_by_key(|&g| (set.binary_search(&g).is_err(), g));
        let win = self.oracle.win();
        let mut h = history.to_vec();
        h.push(0);
        for g in reps {
            *h.last_mut().expect("pushed") = g;
            let classes = partition(&self.oracle, g, set);
            if classes.len() == 1 && classes[0].0 != win {
                continue;
            }
            let mut acc = n;
            let children: Vec<&Vec<u32>> = classes
                .iter()
                .filter(|(a, _)| *a != win)
                .map(|(_, c)| c)
                .collect();
            acc += children
                .iter()
                .map(|c| self.lower_bound(c.len(), depth - 1))
                .fold(0u32, |a, b| a.saturating_add(b).min(INF));
            if acc > target {
                continue;
            }
            let mut ok = true;
            for c in children {
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
        if self.count_node_and_check_time() {
            return INF;
        }
        let key = (
            depth.min(n as u32) as u8,
            canonical_key(self.oracle.space, set, &self.perms),
        );
        match self.memo.get(&key) {
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
        let (candidates, skipped) = self.ordered_guesses(set, history, depth, beta);
        let mut best = INF;
        let mut fail = skipped;
        for (bound, g) in candidates {
            let limit = beta.min(best.saturating_sub(1));
            if bound > limit {
                fail = fail.min(bound);
                break;
            }
            let classes = self.classes_largest_first(g, set);
            history.push(g);
            let mut acc = bound;
            let mut ok = true;
            let mut floors: Vec<u32> = classes
                .iter()
                .map(|c| self.lower_bound(c.len(), depth - 1))
                .collect();
            if n >= PROBE_FROM {
                // Probe: ask each class only whether it can meet its own slot bound. The
                // answer is cheap (one scan of its guesses, then memoised) and is a sharper
                // floor, so a hopeless guess is dropped before any class is searched deeply.
                for (c, floor) in classes.iter().zip(floors.iter_mut()) {
                    if c.len() < 3 {
                        continue;
                    }
                    let v = self.cost(c, history, depth - 1, *floor);
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
                let v = self.cost(c, history, depth - 1, limit - (acc - clb));
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
            self.memo.insert(key, Entry::Exact(best));
            best
        } else {
            let low = lb.max(fail);
            self.memo.insert(key, Entry::Lower(low));
            low
        }
    }

    /// A lower bound on the least total for `set` (no depth cap) looking `levels` guesses
    /// ahead: `|S| + min over guesses of Σ bound(class)`, with the slot bound at the leaves.
    pub fn lookahead_bound(&self, set: &[u32], history: &mut Vec<u32>, levels: u32) -> u32 {
        let n = set.len();
        let depth = n as u32;
        if levels == 0 || n <= 2 {
            return self.lower_bound(n, depth);
        }
        let win = self.oracle.win();
        let mut best = INF;
        for (bound, g) in self.ordered_guesses(set, history, depth, INF).0 {
            if bound >= best {
                break;
            }
            history.push(g);
            let mut total = n as u32;
            for (a, class) in partition(&self.oracle, g, set) {
                if a != win {
                    total = total.saturating_add(self.lookahead_bound(&class, history, levels - 1));
                }
            }
            history.pop();
            best = best.min(total);
        }
        best
    }

    /// The guesses worth trying at a node, one per orbit and per partition, with their
    /// bounds, in ascending (bound, rank) order; guesses whose bound exceeds `beta` are left
    /// out, and the least of their bounds is returned beside ([`INF`] if none).
    fn ordered_guesses(
        &self,
        set: &[u32],
        history: &[u32],
        depth: u32,
        beta: u32,
    ) -> (Vec<(u32, u32)>, u32) {
        let space = self.oracle.space;
        let pool: &[u32] = if self.hard { set } else { &self.all };
        let reps = Stabilizer::of_history(space, history).representatives(space, pool, set);
        let win = self.oracle.win();
        let n = set.len();
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        let mut counts = vec![0u32; self.oracle.codes()];
        let mut out = Vec::new();
        let mut label = vec![0u8; self.oracle.codes()];
        let mut skipped = INF;
        for g in reps {
            self.oracle.count_into(g, set, &mut counts);
            if counts[win as usize] == 0 && counts.iter().any(|&c| c as usize == n) {
                continue;
            }
            let mut bound = n as u32;
            for (a, &c) in counts.iter().enumerate() {
                if c > 0 && a != win as usize {
                    bound = bound.saturating_add(self.lower_bound(c as usize, depth - 1));
                }
            }
            if bound >= INF {
                continue;
            }
            if bound > beta {
                skipped = skipped.min(bound);
                continue;
            }
            // The partition's shape: answers relabelled by first appearance, win kept apart.
            label.iter_mut().for_each(|l| *l = 0);
            let mut next = 1u8;
            let row = self.oracle.table.expect("the search has a table").row(g);
            let shape: Vec<u8> = set
                .iter()
                .map(|&s| {
                    let a = row[s as usize];
                    if a == win {
                        return 255;
                    }
                    if label[a as usize] == 0 {
                        label[a as usize] = next;
                        next += 1;
                    }
                    label[a as usize]
                })
                .collect();
            if seen.insert(shape) {
                out.push((bound, g));
            }
        }
        out.sort_unstable();
        (out, skipped)
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
        assert_eq!(search.non_winning_answers, 8);
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
