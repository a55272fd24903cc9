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
//!
//! The code is in three parts: [`kernel`] scores every guess at a node (the dense answer
//! table, the tallies and the slot bounds), [`memo`] keeps what has been proved of each
//! canonical set, and [`objectives`] holds the recursions of each objective (least total,
//! least worst case, fewest secrets at the last guess).

mod kernel;
mod memo;
mod objectives;

use super::answer::{AnswerTable, Oracle};
use super::rules::Space;
use super::symmetry::{Canon, Stabilizer};
use super::tree::{partition, Node};
use super::{Error, Result};
use kernel::{Tables, LANES};
use memo::{Entry, Memo};
use rayon::prelude::*;
use std::time::Instant;

pub use memo::Stats;

/// Sets up to this size are solved exactly inside [`Search::last_greedy`].
const EXACT_LAST: usize = 64;

/// Sets at least this large probe their classes' bounds before searching any deeply.
const PROBE_FROM: usize = 12;

/// "Infinite" cost: no tree within the depth cap.
pub const INF: u32 = 1 << 30;

/// Largest candidate space the exact search takes (ranks must fit `u16` in the memo's keys
/// and the answer table must fit in memory: 10,000² bytes).
pub const MAX_SEARCH_SPACE: usize = 10_000;

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
