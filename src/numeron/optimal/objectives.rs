//! The recursions of each objective: the least total ([`Search::cost`]), the least worst
//! case ([`Search::feasible_at`]) and the fewest secrets at the last guess
//! ([`Search::last_cost`]), with the branch and bound the first and the last share, and
//! the optimal guess and tree read from the values.
//!
//! Each recursion returns at once, storing nothing, when its search must stop
//! ([`Search::stopped`]): its caller then checks the same and does likewise, so no value
//! computed by a stopped search is ever used or kept.

use super::kernel::Distinct;
use super::memo::Entry;
use super::{Ctx, Objective, Search, EXACT_LAST, INF, PROBE_FROM};
use crate::numeron::symmetry::Stabilizer;
use crate::numeron::tree::{partition, Node};
use crate::numeron::{Error, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

impl Search<'_> {
    /// Whether some strategy finds every secret of `set` within `depth` guesses
    /// ([`Search::feasible`]).
    pub(super) fn feasible_at(
        &self,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        ctx: &Ctx,
    ) -> bool {
        let n = set.len();
        if self.stopped(ctx) || depth == 0 {
            return n == 0;
        }
        if n <= 1 {
            return true;
        }
        if n as u64 > self.tables.capacity(depth) {
            return false;
        }
        if depth as usize >= n {
            // Guessing the candidates one by one finds each within n guesses.
            return true;
        }
        if n as u64 <= self.tables.non_winning_answers + 1 && self.tables.perfect_member(set) {
            return true;
        }
        if self.tick(ctx) {
            return false;
        }
        let key = self.memo_key(set, depth);
        if let Some(known) = self.feasible_memo.get(&key) {
            self.counters.hit();
            return known;
        }
        let (candidates, _) = self.tables.scan(self.hard, set, depth, INF - 1);
        let mut distinct = Distinct::new(self.oracle.space, set, history);
        let mut found = false;
        for (_, g) in candidates {
            let Some(classes) = distinct.classes(self.oracle.space, &self.tables, g, set) else {
                continue;
            };
            history.push(g);
            let all = self.all_feasible(n, &classes, history, depth - 1, ctx);
            history.pop();
            if self.stopped(ctx) {
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

    /// Whether every class is feasible within `depth` guesses (the classes of a guess at a
    /// node of `n` candidates); side by side on large nodes, the others stopped at the
    /// first that is not. Meaningless when the search must stop.
    fn all_feasible(
        &self,
        n: usize,
        classes: &[Vec<u32>],
        history: &mut Vec<u32>,
        depth: u32,
        ctx: &Ctx,
    ) -> bool {
        if !self.splits(n) {
            return classes
                .iter()
                .all(|c| self.feasible_at(c, history, depth, ctx));
        }
        let flag = AtomicBool::new(false);
        let group = ctx.within(&flag);
        classes.par_iter().for_each(|c| {
            if group.stopped() {
                return;
            }
            let ok = self.feasible_at(c, &mut history.clone(), depth, &group);
            if !ok && !self.stopped(&group) {
                flag.store(true, Ordering::Relaxed);
            }
        });
        !flag.load(Ordering::Relaxed)
    }

    /// [`Search::last_greedy`]'s strategy below `set`; `None` when it cannot finish.
    pub(super) fn greedy_last(
        &self,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        ctx: &Ctx,
    ) -> Option<u32> {
        let n = set.len();
        if self.stopped(ctx) || self.tables.last_bound(n, depth) >= INF {
            return None;
        }
        if n <= EXACT_LAST {
            let v = self.last_cost(set, history, depth, INF, ctx);
            return (v < INF).then_some(v);
        }
        let (candidates, _) = self.tables.scan(self.hard, set, depth, INF - 1);
        let mut distinct = Distinct::new(self.oracle.space, set, history);
        for (_, g) in candidates {
            let Some(classes) = distinct.classes(self.oracle.space, &self.tables, g, set) else {
                continue;
            };
            history.push(g);
            let feasible = self.all_feasible(n, &classes, history, depth - 1, ctx);
            let mut total = None;
            if feasible && !self.stopped(ctx) {
                let each = |c: &Vec<u32>| self.greedy_last(c, &mut history.clone(), depth - 1, ctx);
                total = if self.splits(n) {
                    classes.par_iter().map(each).sum::<Option<u32>>()
                } else {
                    classes.iter().map(each).sum::<Option<u32>>()
                };
            }
            history.pop();
            if self.stopped(ctx) {
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
        &self,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        beta: u32,
        ctx: &Ctx,
    ) -> u32 {
        let n = set.len();
        if self.stopped(ctx) {
            return INF;
        }
        let lb = self.tables.last_bound(n, depth);
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
        if depth >= 3
            && n as u64 <= self.tables.non_winning_answers + 1
            && self.tables.perfect_member(set)
        {
            return 0;
        }
        self.branch(Objective::Last, set, history, depth, beta, lb, ctx)
    }

    /// `cost(S, d, β)`: the least total for `set` within `depth` guesses each when at most
    /// `beta`, else a lower bound above `beta`.
    pub(super) fn cost(
        &self,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        beta: u32,
        ctx: &Ctx,
    ) -> u32 {
        let n = set.len();
        if self.stopped(ctx) {
            return INF;
        }
        if n <= 1 {
            return if depth == 0 && n == 1 { INF } else { n as u32 };
        }
        let mut lb = self.tables.lower_bound(n, depth);
        if lb >= INF || lb > beta {
            return lb;
        }
        if n == 2 {
            return 3;
        }
        if n as u64 <= self.tables.non_winning_answers + 2 {
            let (exact, lower) = self.tables.members_first(set, depth);
            if let Some(v) = exact {
                return v;
            }
            lb = lb.max(lower);
            if lb > beta {
                return lb;
            }
        }
        self.branch(Objective::Total, set, history, depth, beta, lb, ctx)
    }

    /// The value of `objective` at a node (`cost` or `last_cost`).
    pub(super) fn solve(
        &self,
        objective: Objective,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        beta: u32,
        ctx: &Ctx,
    ) -> u32 {
        match objective {
            Objective::Total => self.cost(set, history, depth, beta, ctx),
            Objective::Last => self.last_cost(set, history, depth, beta, ctx),
        }
    }

    /// The slot bound of `objective`: [`Search::lower_bound`] or [`Search::last_bound`].
    fn bound(&self, objective: Objective, n: usize, depth: u32) -> u32 {
        match objective {
            Objective::Total => self.tables.lower_bound(n, depth),
            Objective::Last => self.tables.last_bound(n, depth),
        }
    }

    /// The branch and bound of [`Search::cost`] and [`Search::last_cost`] below their own
    /// cut-offs, with `lb` a lower bound for the node: the memo, then every guess worth
    /// trying in ascending bound order (its classes probed first on large sets), each
    /// class with the budget its siblings' bounds leave.
    #[allow(clippy::too_many_arguments)]
    fn branch(
        &self,
        objective: Objective,
        set: &[u32],
        history: &mut Vec<u32>,
        depth: u32,
        beta: u32,
        mut lb: u32,
        ctx: &Ctx,
    ) -> u32 {
        let n = set.len();
        if self.tick(ctx) {
            return INF;
        }
        let key = self.memo_key(set, depth);
        match self.memo(objective).get(&key) {
            Some(Entry::Exact(v)) => {
                self.counters.hit();
                return v;
            }
            Some(Entry::Lower(v)) => {
                lb = lb.max(v);
                if lb > beta {
                    self.counters.hit();
                    return lb;
                }
            }
            None => {}
        }
        let (candidates, skipped) = match objective {
            Objective::Total => self.tables.scan(self.hard, set, depth, beta),
            Objective::Last => self.tables.scan_last(self.hard, set, depth, beta),
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
            let Some(classes) = distinct.classes(self.oracle.space, &self.tables, g, set) else {
                continue;
            };
            history.push(g);
            let mut floors: Vec<u32> = classes
                .iter()
                .map(|c| self.bound(objective, c.len(), depth - 1))
                .collect();
            let mut acc = Some(bound);
            if n >= PROBE_FROM {
                // Probe: ask each class only whether it can meet its own slot bound. The
                // answer is cheap (one scan of its guesses, then memoised) and is a sharper
                // floor, so a hopeless guess is dropped before any class is searched deeply.
                acc = self.classes_within(
                    objective,
                    n,
                    &classes,
                    &mut floors,
                    history,
                    (depth - 1, bound, limit),
                    true,
                    ctx,
                );
            }
            if acc.is_some_and(|a| a <= limit) {
                let a = acc.expect("checked");
                acc = self.classes_within(
                    objective,
                    n,
                    &classes,
                    &mut floors,
                    history,
                    (depth - 1, a, limit),
                    false,
                    ctx,
                );
            }
            history.pop();
            let Some(acc) = acc else {
                return INF;
            };
            if acc <= limit {
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

    /// The classes of one guess (at a node of `n` candidates) searched within budgets: the
    /// guess's total is `acc` with the classes at their `floors`; each class is asked
    /// whether it can be done within its floor (a probe) or within its floor plus the slack
    /// `limit - acc` leaves. A class found above its floor raises it (and the total) to
    /// what it proved. Stops at the first total above `limit`; returns the total (at most
    /// `limit` only when every class was searched and found within its budget, each then
    /// exact unless probed), or `None` when the search must stop.
    ///
    /// On a large node the classes are searched side by side, each with the slack the
    /// others' values known at its start leave; they are stopped together as soon as the
    /// values known exceed the slack.
    #[allow(clippy::too_many_arguments)]
    fn classes_within(
        &self,
        objective: Objective,
        n: usize,
        classes: &[Vec<u32>],
        floors: &mut [u32],
        history: &mut Vec<u32>,
        (depth, acc, limit): (u32, u32, u32),
        probe: bool,
        ctx: &Ctx,
    ) -> Option<u32> {
        let mut acc = acc;
        if !self.splits(n) {
            for (c, floor) in classes.iter().zip(floors.iter_mut()) {
                if probe && c.len() < 3 {
                    continue;
                }
                let beta = if probe {
                    *floor
                } else {
                    limit - (acc - *floor)
                };
                let v = self.solve(objective, c, history, depth, beta, ctx);
                if self.stopped(ctx) {
                    return None;
                }
                if v > *floor {
                    acc = acc.saturating_add(v - *floor).min(INF);
                    *floor = v;
                }
                if acc > limit {
                    break;
                }
            }
            return Some(acc);
        }
        let slack = u64::from(limit - acc);
        let excess = AtomicU64::new(0);
        let flag = AtomicBool::new(false);
        let group = ctx.within(&flag);
        let values: Vec<Option<u32>> = classes
            .par_iter()
            .zip(floors.par_iter())
            .map(|(c, &floor)| {
                if (probe && c.len() < 3) || group.stopped() {
                    return None;
                }
                let beta = if probe {
                    floor
                } else {
                    let known = excess.load(Ordering::Relaxed);
                    if known > slack {
                        return None;
                    }
                    floor + (slack - known) as u32
                };
                let v = self.solve(objective, c, &mut history.clone(), depth, beta, &group);
                if self.stopped(&group) {
                    return None;
                }
                if v > floor {
                    let more = u64::from(v - floor);
                    if excess.fetch_add(more, Ordering::Relaxed) + more > slack {
                        flag.store(true, Ordering::Relaxed);
                    }
                }
                Some(v)
            })
            .collect();
        if self.stopped(ctx) {
            return None;
        }
        for (floor, v) in floors.iter_mut().zip(values) {
            if let Some(v) = v.filter(|&v| v > *floor) {
                acc = acc.saturating_add(v - *floor).min(INF);
                *floor = v;
            }
        }
        Some(acc)
    }

    /// [`Search::lookahead_bound`].
    pub(super) fn lookahead(&self, set: &[u32], history: &mut Vec<u32>, levels: u32) -> u32 {
        let n = set.len();
        let depth = n as u32;
        if levels == 0 || n <= 2 {
            return self.tables.lower_bound(n, depth);
        }
        let mut distinct = Distinct::new(self.oracle.space, set, history);
        let mut best = INF;
        for (bound, g) in self.tables.scan(self.hard, set, depth, INF).0 {
            if bound >= best {
                break;
            }
            let Some(classes) = distinct.classes(self.oracle.space, &self.tables, g, set) else {
                continue;
            };
            history.push(g);
            let mut total = n as u32;
            for class in &classes {
                total = total.saturating_add(self.lookahead(class, history, levels - 1));
            }
            history.pop();
            best = best.min(total);
        }
        best
    }

    /// [`Search::best_guess`]: the guesses one per orbit, candidates first, then by rank;
    /// the first whose classes reach the optimum is the answer, whatever the threads found
    /// first.
    pub(super) fn best_guess_at(&self, set: &[u32], history: &[u32], depth: u32) -> Result<u32> {
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
        for g in reps {
            let member = set.binary_search(&g).is_ok();
            let (_, children) = self.tables.split(g, set);
            if !member && children.len() == 1 {
                continue;
            }
            let mut floors: Vec<u32> = children
                .iter()
                .map(|c| self.tables.lower_bound(c.len(), depth - 1))
                .collect();
            let acc = floors.iter().fold(n, |a, &b| a.saturating_add(b).min(INF));
            if acc > target {
                continue;
            }
            h.push(g);
            let value = self.classes_within(
                Objective::Total,
                set.len(),
                &children,
                &mut floors,
                &mut h,
                (depth - 1, acc, target),
                false,
                &Ctx::TOP,
            );
            h.pop();
            match value {
                None => return Err(Error::OutOfTime),
                Some(v) if v == target => return Ok(g),
                Some(_) => {}
            }
        }
        Err(Error::Internal(
            "no guess reaches the optimum the search proved",
        ))
    }

    /// [`Search::tree`].
    pub(super) fn tree_at(&self, set: &[u32], history: &mut Vec<u32>, depth: u32) -> Result<Node> {
        let guess = self.best_guess(set, history, depth)?;
        let win = self.oracle.win();
        let classes = partition(&self.oracle, guess, set);
        let consistent = classes.iter().any(|(a, _)| *a == win);
        history.push(guess);
        let branch = |(a, c): &(u8, Vec<u32>)| -> Result<(u8, Node)> {
            Ok((*a, self.tree_at(c, &mut history.clone(), depth - 1)?))
        };
        let rest: Vec<&(u8, Vec<u32>)> = classes.iter().filter(|(a, _)| *a != win).collect();
        let branches = if self.splits(set.len()) {
            rest.into_par_iter()
                .map(branch)
                .collect::<Result<Vec<_>>>()?
        } else {
            rest.into_iter().map(branch).collect::<Result<Vec<_>>>()?
        };
        history.pop();
        Ok(Node {
            guess,
            candidates: set.len() as u32,
            consistent,
            branches,
        })
    }
}
