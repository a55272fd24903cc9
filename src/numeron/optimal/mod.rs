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
//! `g`, so a candidate's row holds every guess's answer to it). Sixteen or thirty-two
//! guesses are counted side by side, one byte each, by comparisons the compiler turns into
//! vector instructions, and judged in the same registers, the whole word at once: only the
//! guesses a node keeps are looked at one by one.
//!
//! **Threads.** On large sets the classes of a guess are searched side by side (rayon),
//! each with the budget its siblings' bounds leave; as soon as their values together
//! exceed what the guess may cost, the others are stopped (`Ctx`), and a stopped
//! search stores nothing. The memo is shared (`memo`): every entry is a fact whoever
//! wrote it. So the values (and every guess chosen from them) are those of one thread;
//! only the counters, and the lower bounds returned above a budget, depend on the
//! interleaving.
//!
//! The code is in three parts: `kernel` scores every guess at a node (the dense answer
//! table, the tallies and the slot bounds), `memo` keeps what has been proved of each
//! canonical set, and `objectives` holds the recursions of each objective (least total,
//! least worst case, fewest secrets at the last guess).

mod kernel;
mod memo;
mod objectives;

use super::answer::{AnswerTable, Oracle};
use super::rules::Space;
use super::tree::Node;
use super::{Error, Result};
use kernel::Tables;
use memo::{Book, Counters, Entry, Fact, Key, Memo};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub use memo::Stats;

/// Sets up to this size are solved exactly inside [`Search::last_greedy`].
const EXACT_LAST: usize = 64;

/// Sets at least this large probe their classes' bounds before searching any deeply.
const PROBE_FROM: usize = 12;

/// Sets at least this large search the classes of a guess side by side when the search may
/// use more than one thread (smaller ones are not worth handing to another thread).
const SPLIT_FROM: usize = 64;

/// Facts about sets of at least this many candidates are written out ([`Search::save`]):
/// the smaller ones are quick to find again.
const FACTS_FROM: usize = 16;

/// The kind of a file of facts.
pub const FACTS_KIND: &str = "numeron-facts";

/// "Infinite" cost: no tree within the depth cap.
pub const INF: u32 = 1 << 30;

/// Largest candidate space the exact search takes (ranks must fit `u16` in the memo's keys
/// and the answer table must fit in memory: 10,000² bytes).
pub const MAX_SEARCH_SPACE: usize = 10_000;

/// The search state: the memo persists across calls, so successive questions reuse work.
/// Every question takes `&self`: the threads of one question, and questions asked side by
/// side, share the memo.
pub struct Search<'a> {
    oracle: Oracle<'a>,
    hard: bool,
    tables: Arc<Tables>,
    memo: Memo<Entry>,
    feasible_memo: Memo<bool>,
    last_memo: Memo<Entry>,
    counters: Counters,
    deadline: Option<Instant>,
    aborted: AtomicBool,
    /// Whether large nodes may hand their classes to other threads.
    parallel: AtomicBool,
    /// The most memory the memos may take, in bytes (about), and the size below which
    /// they forget facts when they reach it ([`Search::set_memory`]).
    memory: Option<u64>,
    forget_below: AtomicUsize,
}

/// What a branch and bound ([`Search::branch`]) minimises.
#[derive(Clone, Copy)]
enum Objective {
    /// The total number of guesses ([`Search::cost`]).
    Total,
    /// The secrets left to the last guess ([`Search::last_cost`]).
    Last,
}

/// Where a search runs in the tree of work handed to threads: the stop flags of the groups
/// of sibling classes it belongs to, innermost first. A group is stopped when one of its
/// classes proves that their guess cannot be within its budget; every search below it then
/// returns at once, and stores nothing.
#[derive(Clone, Copy)]
struct Ctx<'p> {
    flag: Option<&'p AtomicBool>,
    parent: Option<&'p Ctx<'p>>,
}

impl<'p> Ctx<'p> {
    /// Outside any group.
    const TOP: Ctx<'static> = Ctx {
        flag: None,
        parent: None,
    };

    /// Inside the group stopped by `flag`, itself inside `self`.
    fn within(&'p self, flag: &'p AtomicBool) -> Ctx<'p> {
        Ctx {
            flag: Some(flag),
            parent: Some(self),
        }
    }

    /// Whether this group or one around it was stopped.
    fn stopped(&self) -> bool {
        let mut at = Some(self);
        while let Some(c) = at {
            if c.flag.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return true;
            }
            at = c.parent;
        }
        false
    }
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
        let tables = Tables::new(space, table, oracle.win(), oracle.codes());
        Ok(Search::with_tables(oracle, hard, Arc::new(tables)))
    }

    /// A search with `tables`, its memos, counters and deadline fresh.
    fn with_tables(oracle: Oracle<'a>, hard: bool, tables: Arc<Tables>) -> Search<'a> {
        Search {
            oracle,
            hard,
            tables,
            memo: Memo::default(),
            feasible_memo: Memo::default(),
            last_memo: Memo::default(),
            counters: Counters::default(),
            deadline: None,
            aborted: AtomicBool::new(false),
            parallel: AtomicBool::new(true),
            memory: None,
            forget_below: AtomicUsize::new(8),
        }
    }

    /// A new search over the same space and rules, sharing this one's tables but with a
    /// memo, counters and deadline of its own.
    pub fn fork(&self) -> Search<'a> {
        Search::with_tables(self.oracle, self.hard, self.tables.clone())
    }

    /// Stops the search (every later call returns an error) once `deadline` passes.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Keeps the memos within about `bytes` (no limit with `None`, the default): when they
    /// reach it they forget the facts about the smallest sets (fewer than 8 candidates,
    /// then 16, 32, … until they are within half of it). Forgetting changes no value, only
    /// the time to find it again.
    pub fn set_memory(&mut self, bytes: Option<u64>) {
        self.memory = bytes;
    }

    /// The memos' size in bytes (about).
    fn memo_bytes(&self) -> u64 {
        self.memo.bytes() + self.feasible_memo.bytes() + self.last_memo.bytes()
    }

    /// Forgets facts about small sets while the memos are above their limit.
    fn keep_within_memory(&self) {
        let Some(limit) = self.memory else {
            return;
        };
        if self.memo_bytes() <= limit {
            return;
        }
        let mut below = self.forget_below.load(Ordering::Relaxed);
        loop {
            self.memo.forget_below(below);
            self.feasible_memo.forget_below(below);
            self.last_memo.forget_below(below);
            if self.memo_bytes() <= limit / 2 || below > MAX_SEARCH_SPACE {
                break;
            }
            below *= 2;
        }
        self.forget_below.fetch_max(below, Ordering::Relaxed);
    }

    /// Lets large nodes hand their classes to other threads (the default), or not: with
    /// `false` every question is searched on the calling thread alone, so that even the
    /// bounds it returns above a budget, and the counters, are the same on every run.
    pub fn set_parallel(&self, on: bool) {
        self.parallel.store(on, Ordering::Relaxed);
    }

    /// Stops the search at once, as a passed deadline does.
    pub fn stop(&self) {
        self.aborted.store(true, Ordering::Relaxed);
    }

    /// The rules the facts of this search hold under: a file of facts's variant.
    pub fn facts_variant(&self) -> String {
        let r = self.oracle.space.rules();
        format!(
            "digits={} symbols={} repeats={} hard={}",
            r.digits, r.alphabet, r.repeats, self.hard
        )
    }

    /// Writes what the search has proved about sets of at least `FACTS_FROM` (16)
    /// candidates to `path`, atomically: a table of kind [`FACTS_KIND`], one `u16` a
    /// record. Facts stored while it writes may or may not be in the file; every fact in it
    /// holds.
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut words = Vec::new();
        let mut add = |book: Book, facts: Vec<(Key, Entry)>| {
            for (key, entry) in facts {
                memo::encode(&mut words, &(book, key, entry));
            }
        };
        add(Book::Total, self.memo.facts(FACTS_FROM));
        add(
            Book::Feasible,
            self.feasible_memo
                .facts(FACTS_FROM)
                .into_iter()
                .map(|(k, ok)| (k, if ok { Entry::Exact(0) } else { Entry::Lower(0) }))
                .collect(),
        );
        add(Book::Last, self.last_memo.facts(FACTS_FROM));
        let descriptor = crate::table::Descriptor {
            kind: FACTS_KIND,
            layout: "u16",
            variant: &self.facts_variant(),
        };
        crate::table::write(path, descriptor, &words)?;
        Ok(())
    }

    /// Learns the facts written to `path` by a search of the same rules ([`Search::save`]);
    /// returns how many. A file of another kind or other rules, or damaged, is refused.
    pub fn learn(&self, path: &Path) -> Result<usize> {
        let table = crate::table::Reader::long_lived().open(path)?;
        table.expect_kind(FACTS_KIND)?;
        table.expect_variant(&self.facts_variant())?;
        table.verify()?;
        let words = table.records::<u16>()?;
        let facts: Vec<Fact> = memo::decode(&words, self.tables.len, INF).map_err(|message| {
            crate::table::TableError::Malformed {
                path: path.to_path_buf(),
                message,
            }
        })?;
        for (book, key, entry) in &facts {
            match book {
                Book::Total => self.memo.insert(key.clone(), *entry),
                Book::Last => self.last_memo.insert(key.clone(), *entry),
                Book::Feasible => self
                    .feasible_memo
                    .insert(key.clone(), matches!(entry, Entry::Exact(_))),
            }
        }
        Ok(facts.len())
    }

    /// Whether the deadline stopped the search (every later call fails).
    pub fn is_aborted(&self) -> bool {
        self.aborted.load(Ordering::Relaxed)
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.counters.nodes.load(Ordering::Relaxed),
            hits: self.counters.hits.load(Ordering::Relaxed),
            memo: (self.memo.len() + self.feasible_memo.len() + self.last_memo.len()) as u64,
        }
    }

    /// The slot bound: least total number of guesses for `n` secrets with at most `depth`
    /// guesses each ([`INF`] when even the slots do not suffice).
    pub fn lower_bound(&self, n: usize, depth: u32) -> u32 {
        self.tables.lower_bound(n, depth)
    }

    /// A lower bound on [`Search::fewest_last`] from the size alone: `depth - 1` guesses
    /// find at most `capacity(depth - 1)` secrets, the others need the last guess.
    pub fn last_bound(&self, n: usize, depth: u32) -> u32 {
        self.tables.last_bound(n, depth)
    }

    /// The least total number of guesses for the candidates `set` (ascending ranks) after
    /// the guesses `history`, with at most `depth` guesses per secret ([`INF`] if none).
    pub fn optimum(&self, set: &[u32], history: &[u32], depth: u32) -> Result<u32> {
        self.solve_from(Objective::Total, set, history, depth, INF)
    }

    /// The least total for `set` as [`Search::optimum`], given a total `upper` that some
    /// strategy achieves: every branch that cannot beat it is cut from the start.
    pub fn optimum_below(
        &self,
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
        &self,
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
    pub fn min_worst(&self, set: &[u32], history: &[u32]) -> Result<u32> {
        // No cap: the depth of the candidates guessed one by one is always feasible.
        Ok(self
            .min_worst_within(set, history, u32::MAX - 1)?
            .unwrap_or_else(|bound| bound))
    }

    /// The least worst case for `set` as [`Search::min_worst`] when it is at most `limit`;
    /// else `Err(limit + 1)`, a lower bound.
    pub fn min_worst_within(
        &self,
        set: &[u32],
        history: &[u32],
        limit: u32,
    ) -> Result<std::result::Result<u32, u32>> {
        let mut d = 1;
        while self.lower_bound(set.len(), d) >= INF {
            d += 1;
        }
        while d <= limit {
            if self.feasible(set, history, d)? {
                return Ok(Ok(d));
            }
            d += 1;
        }
        Ok(Err(d.max(limit + 1)))
    }

    /// Whether some strategy finds every secret of `set` within `depth` guesses: an AND-OR
    /// search that stops at the first guess whose classes are all feasible, largest class
    /// first, memoised by (canonical set, depth).
    pub fn feasible(&self, set: &[u32], history: &[u32], depth: u32) -> Result<bool> {
        let ok = self.feasible_at(set, &mut history.to_vec(), depth, &Ctx::TOP);
        self.check_aborted()?;
        Ok(ok)
    }

    /// The fewest secrets of `set` that a strategy finding every one within `depth`
    /// guesses must leave to its last guess (the `depth`-th), with the least worst case
    /// known to be `depth` this is the second key of the lexicographic objective;
    /// [`INF`] when not every secret can be found within `depth` guesses.
    pub fn fewest_last(&self, set: &[u32], history: &[u32], depth: u32) -> Result<u32> {
        self.solve_from(Objective::Last, set, history, depth, INF)
    }

    /// [`Search::fewest_last`] when it is at most `beta`; else `Err(bound)` with a proven
    /// lower bound above `beta`.
    pub fn fewest_last_within(
        &self,
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
    pub fn last_greedy(&self, set: &[u32], history: &[u32], depth: u32) -> Result<Option<u32>> {
        let v = self.greedy_last(set, &mut history.to_vec(), depth, &Ctx::TOP);
        self.check_aborted()?;
        Ok(v)
    }

    /// The optimal guess for `set` under the cap `depth`: among the guesses achieving the
    /// optimum, a candidate beats a non-candidate, then the smallest rank wins.
    pub fn best_guess(&self, set: &[u32], history: &[u32], depth: u32) -> Result<u32> {
        let g = self.best_guess_at(set, history, depth)?;
        self.check_aborted()?;
        Ok(g)
    }

    /// The optimal decision tree for `set` under the cap `depth` (its subtrees built side
    /// by side; the same tree on any number of threads).
    pub fn tree(&self, set: &[u32], history: &mut Vec<u32>, depth: u32) -> Result<Node> {
        self.tree_at(set, history, depth)
    }

    /// A lower bound on the least total for `set` (no depth cap) looking `levels` guesses
    /// ahead: `|S| + min over guesses of Σ bound(class)`, with the slot bound at the leaves.
    pub fn lookahead_bound(&self, set: &[u32], history: &mut Vec<u32>, levels: u32) -> u32 {
        self.lookahead(set, history, levels)
    }

    /// The value of `objective` for `set` after `history` within `beta`, an error if the
    /// deadline passed.
    fn solve_from(
        &self,
        objective: Objective,
        set: &[u32],
        history: &[u32],
        depth: u32,
        beta: u32,
    ) -> Result<u32> {
        let mut h = history.to_vec();
        let v = self.solve(objective, set, &mut h, depth, beta, &Ctx::TOP);
        self.check_aborted()?;
        Ok(v)
    }

    fn check_aborted(&self) -> Result<()> {
        if self.is_aborted() {
            Err(Error::OutOfTime)
        } else {
            Ok(())
        }
    }

    /// Whether the search must stop: the deadline passed or the group `ctx` was stopped.
    #[inline]
    fn stopped(&self, ctx: &Ctx) -> bool {
        self.is_aborted() || ctx.stopped()
    }

    /// Counts a searched node and, every 1024 nodes, checks the deadline (every 65,536
    /// the memory, [`Search::set_memory`]); true when the search must stop
    /// ([`Search::stopped`]).
    fn tick(&self, ctx: &Ctx) -> bool {
        let nodes = self.counters.node();
        if nodes.is_multiple_of(1024) {
            if self.deadline.is_some_and(|d| Instant::now() > d) {
                self.aborted.store(true, Ordering::Relaxed);
            }
            if nodes.is_multiple_of(1 << 16) {
                self.keep_within_memory();
            }
        }
        self.stopped(ctx)
    }

    /// Whether a node of `n` candidates hands its classes to other threads.
    fn splits(&self, n: usize) -> bool {
        n >= SPLIT_FROM && self.parallel.load(Ordering::Relaxed) && rayon::current_num_threads() > 1
    }

    /// A node's key in the memos: its depth cap (no more than its size matters) and the
    /// canonical image of its set.
    fn memo_key(&self, set: &[u32], depth: u32) -> Key {
        Key::new(
            depth.min(set.len() as u32),
            self.tables.canon.key(self.oracle.space, set),
        )
    }

    /// The memo of `objective`'s values.
    fn memo(&self, objective: Objective) -> &Memo<Entry> {
        match objective {
            Objective::Total => &self.memo,
            Objective::Last => &self.last_memo,
        }
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
        let search = Search::new(&space, &table, true).unwrap();
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
