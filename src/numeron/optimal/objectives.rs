//! The recursions of each objective: the least total ([`Search::cost`]), the least worst
//! case ([`Search::feasible`]) and the fewest secrets at the last guess
//! ([`Search::last_cost`]), with the branch and bound the first and the last share.

use super::kernel::Distinct;
use super::memo::Entry;
use super::{Objective, Search, EXACT_LAST, INF, PROBE_FROM};

impl Search<'_> {
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

    pub(super) fn greedy_last(
        &mut self,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
    ) -> Option<u32> {
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

    /// `last(S, d, β)`: the fewest secrets left to the `d`-th guess when at most `β`, else a
    /// lower bound above `β`; the same branch and bound as [`Search::cost`] with the bound
    /// [`Search::last_bound`] for each class.
    pub(super) fn last_cost(
        &mut self,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        beta: u32,
    ) -> u32 {
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

    pub(super) fn cost(
        &mut self,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        beta: u32,
    ) -> u32 {
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

    /// The value of `objective` at a node (`cost` or `last_cost`).
    pub(super) fn solve(
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
    pub(super) fn bound(&self, objective: Objective, n: usize, depth: u32) -> u32 {
        match objective {
            Objective::Total => self.lower_bound(n, depth),
            Objective::Last => self.last_bound(n, depth),
        }
    }

    /// The branch and bound of [`Search::cost`] and [`Search::last_cost`] below their own
    /// cut-offs, with `lb` a lower bound for the node: the memo, then every guess worth
    /// trying in ascending bound order (its classes probed first on large sets), each
    /// class with the budget its siblings' bounds leave.
    pub(super) fn branch(
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
}
