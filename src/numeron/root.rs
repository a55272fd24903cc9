//! The whole game's optimum, solved class by class below the first guess, with progress
//! reported class by class (the proven interval narrowing as classes are solved) and an
//! optional time budget. When the budget runs out, the classes not yet solved contribute a
//! look-ahead bound below and the best heuristic tree's cost above, so the result is an
//! interval that certainly holds the optimum.
//!
//! The optimum is `|S| + Σ optimum(class)` (least total) or `1 + max min-worst(class)`
//! (least worst case) for the best first guess. With distinct digits every first guess is
//! equivalent (any code maps to `0123…` by a symmetry), so only the smallest is tried; with
//! repeated digits, one per pattern (`0000`, `0001`, `0011`, `0012`, `0123`).
//!
//! One search (one memo) serves every class, and the classes of a first guess are solved
//! one after the other, smallest first, each on every thread (the search hands the classes
//! of its large nodes to other threads): equivalent sets recur under different classes,
//! and the facts proved for the smaller ones more than halve the work of the largest class
//! of four digits (0.44 M nodes after the others, 1.0 M before them). First guesses
//! are taken one after the other, the most promising first (least bound after one look at
//! each class's guesses, then smallest largest class); each later one is only asked whether
//! it can match the best so far, each class within its own bound plus the slack the others
//! leave.
//!
//! What is reported is the same however many threads ran, and whatever facts were learnt
//! before ([`Keep`]): the look at each class that orders the first guesses is taken on a
//! search of its own, on one thread; a class found above the budget it was given is
//! reported one above that budget (its search may have proved more, by an amount that
//! depends on the interleaving); and the values themselves are exact.

use super::answer::Oracle;
use super::engine::Engine;
use super::optimal::{Search, Stats, INF, MAX_SEARCH_SPACE};
use super::strategy::{heuristic_guess, Strategy};
use super::symmetry::Stabilizer;
use super::tree::{self, partition, Analysis};
use super::{Error, Result};
use crate::progress::Progress;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Guesses looked ahead for the lower bound of a class left unsolved.
const LOOKAHEAD: u32 = 2;

/// What to minimise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Objective {
    /// The total (hence expected) number of guesses.
    Total,
    /// The worst case.
    Worst,
    /// The worst case, then the number of secrets that need it (lexicographically).
    FewestAtWorst,
}

/// How a long search keeps what it proves, so that it can stop and go on later, or be
/// split into jobs whose results are combined: files of facts to start from, and a file to
/// write the facts proved to, from time to time and at the end.
#[derive(Debug, Clone, Default)]
pub struct Keep {
    /// Files of facts proved earlier (checkpoints, the results of jobs), read first.
    pub read: Vec<PathBuf>,
    /// The file the facts are written to (atomically, whole each time).
    pub write: Option<PathBuf>,
    /// How often to write them while the search runs (only at the end when `None`).
    pub every: Option<Duration>,
    /// About how many bytes the search may keep facts in (no limit when `None`): past it,
    /// it forgets facts about its smallest sets ([`Search::set_memory`]).
    pub memory: Option<u64>,
}

/// The optimum, or bounds on it when the budget ran out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootReport {
    /// What was minimised.
    pub objective: Objective,
    /// Number of secrets.
    pub secrets: u64,
    /// The first guess the figures are for (the best one).
    pub first_guess: u32,
    /// A proven lower bound (the optimum when `exact`).
    pub lower: u64,
    /// An achieved value (the optimum when `exact`).
    pub upper: u64,
    /// Whether the search finished.
    pub exact: bool,
    /// Classes below the first guess solved exactly, and their number.
    pub solved_classes: usize,
    /// Number of classes below the first guess.
    pub classes: usize,
    /// The search's counters (they depend on the threads' interleaving).
    pub stats: Stats,
    /// Each class below the first guess, smallest first.
    pub per_class: Vec<ClassBound>,
    /// Every first guess tried (one per pattern), in the order tried.
    pub first_guesses: Vec<FirstGuessBound>,
    /// For [`Objective::FewestAtWorst`]: the least worst case, whose secrets `lower` and
    /// `upper` count.
    pub worst: Option<u32>,
}

/// One first guess: what is proved of the whole game's value when it opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstGuessBound {
    /// The first guess.
    pub guess: u32,
    /// A proven lower bound on the value with this first guess.
    pub lower: u64,
    /// An achieved value with this first guess, when one is known.
    pub upper: Option<u64>,
}

/// One class below the first guess: its bounds and the time spent on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassBound {
    /// Number of candidates in the class.
    pub size: usize,
    /// Proven lower bound on the class's optimum (its guesses after the first).
    pub lower: u64,
    /// Achieved value.
    pub upper: u64,
    /// Time spent searching it (zero when not reached).
    pub time: Duration,
}

/// What one class's search found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Found {
    /// Proven lower bound.
    pub(crate) lower: u64,
    /// Achieved value, when known.
    pub(crate) upper: Option<u64>,
    pub(crate) time: Duration,
}

impl Found {
    pub(crate) fn exact(&self) -> bool {
        self.upper == Some(self.lower)
    }
}

/// What the report says of each class below the first guess: its size and bounds.
fn class_bounds(classes: &[Vec<u32>], found: &[Found]) -> Vec<ClassBound> {
    classes
        .iter()
        .zip(found)
        .map(|(c, f)| ClassBound {
            size: c.len(),
            lower: f.lower,
            upper: f.upper.unwrap_or(f.lower),
            time: f.time,
        })
        .collect()
}

/// A first guess and the classes it splits the secrets into (the winning one left out),
/// smallest first (ties in the order of their replies), each with its reply's code.
pub(crate) struct FirstSplit {
    pub(crate) guess: u32,
    pub(crate) classes: Vec<Vec<u32>>,
    pub(crate) replies: Vec<u8>,
}

/// The first guesses worth trying (one per orbit of the symmetries) and their classes.
pub(crate) fn first_splits(oracle: &Oracle) -> Vec<FirstSplit> {
    let space = oracle.space;
    let all: Vec<u32> = (0..space.len() as u32).collect();
    let win = oracle.win();
    Stabilizer::of_history(space, &[])
        .representatives(space, &all, &all)
        .into_iter()
        .map(|g| {
            let mut classes: Vec<(u8, Vec<u32>)> = partition(oracle, g, &all)
                .into_iter()
                .filter(|(a, c)| *a != win && !c.is_empty())
                .collect();
            classes.sort_by_key(|(a, c)| (c.len(), *a));
            FirstSplit {
                guess: g,
                replies: classes.iter().map(|(a, _)| *a).collect(),
                classes: classes.into_iter().map(|(_, c)| c).collect(),
            }
        })
        .collect()
}

/// The whole game's value from its classes' values.
fn combine(objective: Objective, secrets: u64, values: &[u64]) -> u64 {
    match objective {
        Objective::Total => secrets + values.iter().sum::<u64>(),
        Objective::Worst | Objective::FewestAtWorst => {
            1 + values.iter().copied().max().unwrap_or(0)
        }
    }
}

/// How promising a first guess is, most promising least: the bound its probes prove, then
/// its largest class, then its rank.
pub(crate) fn promise(
    objective: Objective,
    secrets: u64,
    probes: &[u64],
    split: &FirstSplit,
) -> (u64, usize, u32) {
    let largest = split.classes.iter().map(Vec::len).max().unwrap_or(0);
    (combine(objective, secrets, probes), largest, split.guess)
}

/// The exact search of `engine`'s space, with a check of its size.
pub(crate) fn new_search(engine: &Engine, hard: bool) -> Result<Search<'_>> {
    match engine.table.as_ref() {
        Some(table) if engine.space.len() <= MAX_SEARCH_SPACE => {
            Search::new(&engine.space, table, hard)
        }
        _ => Err(Error::TooLargeForExactSearch {
            candidates: engine.space.len(),
            max: MAX_SEARCH_SPACE,
        }),
    }
}

/// Solves the whole game for `objective`, advancing `progress` once per class of a first
/// guess; stops when `budget` has passed (no budget, or one too long to reckon, is no limit)
/// with bounds. With distinct digits every first guess is equivalent, so only the smallest
/// is tried; with repeated digits one per pattern (`000`, `001`, …).
pub fn solve_root(
    engine: &Engine,
    hard: bool,
    objective: Objective,
    budget: Option<Duration>,
    progress: Progress<'_>,
) -> Result<RootReport> {
    solve_root_keeping(engine, hard, objective, budget, &Keep::default(), progress)
}

/// [`solve_root`], starting from the facts of `keep.read` and writing what it proves to
/// `keep.write` (every `keep.every`, and at the end, also when the budget runs out).
pub fn solve_root_keeping(
    engine: &Engine,
    hard: bool,
    objective: Objective,
    budget: Option<Duration>,
    keep: &Keep,
    progress: Progress<'_>,
) -> Result<RootReport> {
    let started = Instant::now();
    let mut search = new_search(engine, hard)?;
    search.set_deadline(budget.and_then(|b| started.checked_add(b)));
    search.set_memory(keep.memory);
    for path in &keep.read {
        search.learn(path)?;
    }
    keeping(&search, keep, || match objective {
        Objective::FewestAtWorst => solve_fewest_at_worst(engine, &search, hard, progress),
        _ => solve_first_guesses(engine, &search, hard, objective, progress),
    })
}

/// Runs `work` on `search` while a thread writes the search's facts to `keep.write` every
/// `keep.every`; writes them once more at the end (whether `work` succeeded or ran out of
/// time). A failed write stops the search and is the error returned.
pub(crate) fn keeping<T>(
    search: &Search<'_>,
    keep: &Keep,
    work: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let Some(path) = keep.write.as_deref() else {
        return work();
    };
    // A first write checks the path before hours of work.
    search.save(path)?;
    let failed: Mutex<Option<Error>> = Mutex::new(None);
    let result = std::thread::scope(|s| {
        let (done, wait) = mpsc::channel::<()>();
        if let Some(every) = keep.every {
            let failed = &failed;
            s.spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(every) {
                    if let Err(e) = search.save(path) {
                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        search.stop();
                        break;
                    }
                }
            });
        }
        let result = work();
        drop(done);
        result
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    search.save(path)?;
    result
}

/// The proven interval of the whole game with one first guess, narrowing as its classes
/// are solved, reported as the progress's status.
struct Narrowing<'p> {
    progress: Progress<'p>,
    objective: Objective,
    secrets: u64,
    /// The first guess, written out.
    first: String,
    /// Each class's proven lower bound and achieved value (`u64::MAX` when none is known).
    bounds: Mutex<Vec<(u64, u64)>>,
}

impl<'p> Narrowing<'p> {
    fn new(
        progress: Progress<'p>,
        objective: Objective,
        secrets: u64,
        first: String,
        bounds: Vec<(u64, u64)>,
    ) -> Narrowing<'p> {
        let n = Narrowing {
            progress,
            objective,
            secrets,
            first,
            bounds: Mutex::new(bounds),
        };
        n.show();
        n
    }

    /// Class `i` is proved at least `lower` and achieves `upper`.
    fn set(&self, i: usize, lower: u64, upper: Option<u64>) {
        {
            let mut b = self.bounds.lock().unwrap_or_else(|e| e.into_inner());
            b[i] = (lower, upper.unwrap_or(b[i].1));
        }
        self.show();
    }

    fn show(&self) {
        if self.progress.is_silent() {
            return;
        }
        let (lowers, uppers): (Vec<u64>, Vec<u64>) = self
            .bounds
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .copied()
            .unzip();
        let lower = combine(self.objective, self.secrets, &lowers);
        let upper = match uppers.contains(&u64::MAX) {
            true => "?".to_string(),
            false => combine(self.objective, self.secrets, &uppers).to_string(),
        };
        self.progress.status(&format!(
            "first guess {}: proven {lower}..{upper}",
            self.first
        ));
    }
}

/// The least total or the least worst case, first guess by first guess.
fn solve_first_guesses(
    engine: &Engine,
    search: &Search<'_>,
    hard: bool,
    objective: Objective,
    progress: Progress<'_>,
) -> Result<RootReport> {
    let oracle = engine.oracle();
    let n = engine.space.len() as u64;
    let splits = first_splits(&oracle);
    progress.start(
        "optimum",
        Some(splits.iter().map(|s| s.classes.len() as u64).sum()),
    );
    let probes = probe_all(search, &splits, objective);
    let mut order: Vec<usize> = (0..splits.len()).collect();
    order.sort_by_key(|&i| promise(objective, n, &probes[i], &splits[i]));
    let mut results: Vec<Option<Vec<Found>>> = vec![None; splits.len()];
    let mut best: Option<(usize, u64)> = None;
    for &i in &order {
        let split = &splits[i];
        let floor = combine(objective, n, &probes[i]);
        if best.is_some_and(|(_, value)| floor > value) {
            // Refuted by its probes alone.
            progress.advance(split.classes.len() as u64);
            let found = probes[i].iter().map(|&lower| Found {
                lower,
                upper: None,
                time: Duration::ZERO,
            });
            results[i] = Some(found.collect());
            continue;
        }
        // Within what would tie the best: each class its probe bound plus the slack.
        let limits: Vec<Option<u64>> = probes[i]
            .iter()
            .map(|&lower| {
                best.map(|(_, value)| match objective {
                    Objective::Total => lower + (value - floor),
                    Objective::Worst | Objective::FewestAtWorst => value - 1,
                })
            })
            .collect();
        let found = solve_classes(
            engine, search, hard, objective, split, &probes[i], &limits, progress,
        )?;
        let upper = found
            .iter()
            .map(|f| f.upper)
            .collect::<Option<Vec<u64>>>()
            .map(|v| combine(objective, n, &v));
        if let Some(u) = upper {
            if best.is_none_or(|(_, b)| u < b) {
                best = Some((i, u));
            }
        }
        results[i] = Some(found);
    }
    progress.finish();
    let (best_index, upper) = best.ok_or(Error::Internal("no first guess has a value"))?;
    let first_guesses: Vec<FirstGuessBound> = order
        .iter()
        .map(|&i| {
            let found = results[i].as_ref().expect("every first guess is tried");
            let lowers: Vec<u64> = found.iter().map(|f| f.lower).collect();
            FirstGuessBound {
                guess: splits[i].guess,
                lower: combine(objective, n, &lowers),
                upper: found
                    .iter()
                    .map(|f| f.upper)
                    .collect::<Option<Vec<u64>>>()
                    .map(|v| combine(objective, n, &v)),
            }
        })
        .collect();
    let found = results[best_index].as_ref().expect("the best was tried");
    let split = &splits[best_index];
    // The whole game's lower bound is the least over the first guesses; it is proved
    // optimal when that meets the best achieved value.
    let lower = first_guesses
        .iter()
        .map(|f| f.lower)
        .min()
        .expect("a first guess");
    Ok(RootReport {
        objective,
        secrets: n,
        first_guess: split.guess,
        lower,
        upper,
        exact: lower == upper,
        solved_classes: found.iter().filter(|f| f.exact()).count(),
        classes: split.classes.len(),
        stats: search.stats(),
        per_class: class_bounds(&split.classes, found),
        first_guesses,
        worst: None,
    })
}

/// The classes of one first guess (smallest first, as [`first_splits`] orders them), each
/// within its limit (none: solved exactly).
#[allow(clippy::too_many_arguments)]
fn solve_classes(
    engine: &Engine,
    search: &Search<'_>,
    hard: bool,
    objective: Objective,
    split: &FirstSplit,
    probes: &[u64],
    limits: &[Option<u64>],
    progress: Progress<'_>,
) -> Result<Vec<Found>> {
    let first = split.guess;
    let classes = &split.classes;
    // The achieved values the search starts from (the heuristics' trees).
    let uppers: Vec<Option<u64>> = classes
        .par_iter()
        .zip(limits)
        .map(|(class, limit)| match limit {
            None => heuristic_cost(engine, class, hard, objective, first).map(Some),
            Some(_) => Ok(None),
        })
        .collect::<Result<_>>()?;
    let narrowing = Narrowing::new(
        progress,
        objective,
        engine.space.len() as u64,
        engine.space.format(first),
        probes
            .iter()
            .zip(&uppers)
            .map(|(&p, u)| (p, u.unwrap_or(u64::MAX)))
            .collect(),
    );
    // One class after the other, smallest first, each on every thread (its large nodes
    // hand their classes out): the facts the smaller classes prove make the larger ones
    // cheaper (the 4-digit class of 1440 searches 0.44 M nodes after the others, 1.0 M
    // before them), and side by side the largest would start without them.
    let mut found = Vec::with_capacity(classes.len());
    for (i, class) in classes.iter().enumerate() {
        let f = solve_class(
            engine, search, hard, objective, first, class, limits[i], uppers[i],
        )?;
        narrowing.set(i, f.lower, f.upper);
        progress.advance(1);
        found.push(f);
    }
    Ok(found)
}

/// The least worst case, then the fewest secrets that need it: the worst case is solved
/// first ([`Objective::Worst`]); then below each first guess that reaches it, each class
/// gets an upper bound from a greedy strategy ([`Search::last_greedy`]) and a lower bound
/// that rises one at a time (each step a complete search: can the class leave at most
/// `β` secrets to the last guess?) until they meet or the budget runs out.
fn solve_fewest_at_worst(
    engine: &Engine,
    search: &Search<'_>,
    hard: bool,
    progress: Progress<'_>,
) -> Result<RootReport> {
    let worst = solve_first_guesses(engine, search, hard, Objective::Worst, progress)?;
    if !worst.exact {
        return Err(Error::OutOfTime);
    }
    let w = worst.lower as u32;
    let oracle = engine.oracle();
    let splits: Vec<FirstSplit> = first_splits(&oracle)
        .into_iter()
        .filter(|s| {
            worst
                .first_guesses
                .iter()
                .any(|f| f.guess == s.guess && f.upper == Some(u64::from(w)))
        })
        .collect();
    progress.start(
        "fewest at the worst case",
        Some(splits.iter().map(|s| s.classes.len() as u64).sum()),
    );
    let mut results: Vec<Vec<Found>> = Vec::new();
    for split in &splits {
        let first = split.guess;
        let depth = w - 1;
        let narrowing = Narrowing::new(
            progress,
            Objective::Total,
            0,
            engine.space.format(first),
            split
                .classes
                .iter()
                .map(|c| (u64::from(search.last_bound(c.len(), depth)), u64::MAX))
                .collect(),
        );
        let mut largest_first: Vec<usize> = (0..split.classes.len()).collect();
        largest_first.reverse();
        let found: Vec<(usize, Found)> = largest_first
            .into_par_iter()
            .map(|i| {
                let class = &split.classes[i];
                let f = fewest_in_class(search, class, first, depth, &|lower, upper| {
                    narrowing.set(i, lower, upper)
                })?;
                progress.advance(1);
                Ok((i, f))
            })
            .collect::<Result<_>>()?;
        let mut out = vec![None; split.classes.len()];
        for (i, f) in found {
            out[i] = Some(f);
        }
        results.push(out.into_iter().map(|f| f.expect("every class")).collect());
    }
    progress.finish();
    let sum = |f: &[Found], pick: &dyn Fn(&Found) -> Option<u64>| -> Option<u64> {
        f.iter().map(pick).sum::<Option<u64>>()
    };
    let first_guesses: Vec<FirstGuessBound> = splits
        .iter()
        .zip(&results)
        .map(|(s, f)| FirstGuessBound {
            guess: s.guess,
            lower: sum(f, &|x| Some(x.lower)).unwrap_or(0),
            upper: sum(f, &|x| x.upper),
        })
        .collect();
    let best = (0..splits.len())
        .min_by_key(|&i| {
            (
                first_guesses[i].upper.unwrap_or(u64::MAX),
                first_guesses[i].lower,
            )
        })
        .ok_or(Error::Internal(
            "no first guess reaches the least worst case",
        ))?;
    let lower = first_guesses.iter().map(|f| f.lower).min().unwrap_or(0);
    let upper = first_guesses[best].upper.ok_or(Error::OutOfTime)?;
    let split = &splits[best];
    let found = &results[best];
    Ok(RootReport {
        objective: Objective::FewestAtWorst,
        secrets: engine.space.len() as u64,
        first_guess: split.guess,
        lower,
        upper,
        exact: lower == upper,
        solved_classes: found.iter().filter(|f| f.exact()).count(),
        classes: split.classes.len(),
        stats: search.stats(),
        per_class: class_bounds(&split.classes, found),
        first_guesses,
        worst: Some(w),
    })
}

/// One class below `first` for the fewest secrets at the last of `depth` more guesses: an
/// upper bound from the greedy strategy, and a lower bound raised by complete searches
/// until they meet or the deadline passes; `report(lower, upper)` hears of each step.
fn fewest_in_class(
    search: &Search<'_>,
    class: &[u32],
    first: u32,
    depth: u32,
    report: &(dyn Fn(u64, Option<u64>) + Sync),
) -> Result<Found> {
    let t = Instant::now();
    let history = [first];
    let mut lower = u64::from(search.last_bound(class.len(), depth));
    let mut upper = match search.last_greedy(class, &history, depth) {
        Ok(Some(u)) => Some(u64::from(u)),
        Ok(None) => return Err(Error::Internal("a class misses the least worst case")),
        Err(_) => None,
    };
    report(lower, upper);
    while upper.is_none_or(|u| lower < u) && !search.is_aborted() {
        let beta = lower.min(u64::from(INF - 1)) as u32;
        match search.fewest_last_within(class, &history, depth, beta) {
            Ok(Ok(v)) => {
                // Every smaller value was refuted: this one is the least.
                lower = u64::from(v);
                upper = Some(lower);
            }
            Ok(Err(bound)) => lower = u64::from(bound),
            Err(_) => break,
        }
        report(lower, upper);
    }
    Ok(Found {
        lower,
        upper,
        time: t.elapsed(),
    })
}

/// A quick lower bound on each class's value below each first guess: what one look at its
/// guesses proves (the slot bounds of their classes; for the worst case, the depth its
/// size needs). Taken on a search of its own, one class after the other, so that the
/// bounds are the same whatever the threads and whatever the search learnt before.
pub(crate) fn probe_all(
    search: &Search<'_>,
    splits: &[FirstSplit],
    objective: Objective,
) -> Vec<Vec<u64>> {
    let own = search.fork();
    own.set_parallel(false);
    splits
        .iter()
        .map(|s| {
            s.classes
                .iter()
                .map(|class| probe(&own, class, s.guess, objective))
                .collect()
        })
        .collect()
}

fn probe(search: &Search<'_>, class: &[u32], first: u32, objective: Objective) -> u64 {
    let slots = (1u32..)
        .find(|&d| search.lower_bound(class.len(), d) < INF)
        .unwrap_or(1);
    match objective {
        Objective::Total => {
            let depth = class.len() as u32;
            let floor = search.lower_bound(class.len(), depth);
            match search.optimum_within(class, &[first], depth, floor) {
                Ok(Ok(v)) | Ok(Err(v)) => u64::from(v),
                Err(_) => u64::from(floor),
            }
        }
        Objective::Worst | Objective::FewestAtWorst => u64::from(slots),
    }
}

/// One class below `first`: solved exactly (from the achieved value `upper`, for the
/// least total), or (with `limit`) only up to that value, beyond which the class is
/// reported one above it; when the deadline passes, bounded instead.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_class(
    engine: &Engine,
    search: &Search<'_>,
    hard: bool,
    objective: Objective,
    first: u32,
    class: &[u32],
    limit: Option<u64>,
    upper: Option<u64>,
) -> Result<Found> {
    let started = Instant::now();
    let history = [first];
    let depth = class.len() as u32;
    let capped = limit.map(|l| l.min(u64::from(INF - 1)) as u32);
    let value = match (objective, capped) {
        (Objective::Total, None) => {
            // Start from the total a heuristic tree achieves: the search then only explores
            // what can beat it.
            let upper = match upper {
                Some(u) => u,
                None => heuristic_cost(engine, class, hard, objective, first)?,
            };
            search
                .optimum_below(class, &history, depth, upper.min(u64::from(INF - 1)) as u32)
                .map(Ok)
        }
        (Objective::Total, Some(limit)) => search.optimum_within(class, &history, depth, limit),
        (Objective::Worst | Objective::FewestAtWorst, None) => {
            search.min_worst(class, &history).map(Ok)
        }
        (Objective::Worst | Objective::FewestAtWorst, Some(limit)) => {
            search.min_worst_within(class, &history, limit)
        }
    };
    let time = started.elapsed();
    match value {
        Ok(Ok(v)) if v < INF => Ok(Found {
            lower: u64::from(v),
            upper: Some(u64::from(v)),
            time,
        }),
        Ok(Ok(_)) => Err(Error::Internal("a class has no finite optimum")),
        Ok(Err(_)) => Ok(Found {
            // What the search proved above the limit depends on the interleaving of the
            // threads; one above the limit does not.
            lower: u64::from(capped.expect("a limit")) + 1,
            upper: None,
            time,
        }),
        Err(_) => {
            // Out of time: bounds from a look ahead and from the heuristics.
            let heuristic = match upper {
                Some(u) => u,
                None => heuristic_cost(engine, class, hard, objective, first)?,
            };
            let bound = match objective {
                Objective::Total => {
                    let fresh = search.fork();
                    u64::from(fresh.lookahead_bound(class, &mut vec![first], LOOKAHEAD))
                }
                Objective::Worst | Objective::FewestAtWorst => (1u32..)
                    .find(|&d| search.lower_bound(class.len(), d) < INF)
                    .map_or(1, u64::from),
            };
            Ok(Found {
                lower: bound,
                upper: Some(heuristic),
                time,
            })
        }
    }
}

/// The best cost among the heuristics' subtrees on one class (after the first guess): an
/// achieved value, hence an upper bound on the optimum.
pub(crate) fn heuristic_cost(
    engine: &Engine,
    class: &[u32],
    hard: bool,
    objective: Objective,
    first: u32,
) -> Result<u64> {
    let oracle = engine.oracle();
    let mut best = u64::MAX;
    for strategy in [Strategy::Minimax, Strategy::Parts, Strategy::Entropy] {
        let choose = |set: &[u32], history: &[u32]| -> Result<u32> {
            Ok(heuristic_guess(strategy, &oracle, set, history, hard))
        };
        let subtree = tree::build(&oracle, class.to_vec(), &mut vec![first], &choose)?;
        let a = Analysis::of_tree(&subtree);
        best = best.min(match objective {
            Objective::Total => a.total,
            Objective::Worst | Objective::FewestAtWorst => u64::from(a.max),
        });
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::super::rules::Rules;
    use super::*;
    use crate::progress::Event;

    #[test]
    fn the_optimum_reports_one_step_per_class_and_a_huge_budget_is_no_limit() {
        let engine = Engine::new(Rules::new(2), Strategy::Optimal).unwrap();
        let events = Mutex::new((None, 0u64, 0u32));
        let record = |e: Event<'_>| {
            let mut ev = events.lock().unwrap();
            match e {
                Event::Start { total, .. } => ev.0 = total,
                Event::Advance(n) => ev.1 += n,
                Event::Finish => ev.2 += 1,
                Event::Status(_) | Event::Parts(_) => {}
            }
        };
        let r = solve_root(
            &engine,
            false,
            Objective::Total,
            Some(Duration::MAX),
            Progress::new(&record),
        )
        .unwrap();
        let (total, advanced, finished) = *events.lock().unwrap();
        assert!(r.exact);
        assert_eq!(total, Some(r.classes as u64));
        assert_eq!(advanced, r.classes as u64);
        assert_eq!(finished, 1);
        // The whole-tree exact strategy reaches the same total.
        let tree = engine.tree(Strategy::Optimal, false, false).unwrap();
        assert_eq!(r.lower, Analysis::of_tree(&tree).total);
    }

    #[test]
    fn a_space_beyond_the_exact_search_is_refused_as_bad_input() {
        let engine = Engine::new(Rules::new(5), Strategy::Optimal).unwrap();
        let e = solve_root(&engine, false, Objective::Total, None, Progress::SILENT).unwrap_err();
        assert_eq!(e.kind(), crate::fault::ErrorKind::Input);
        assert!(e.to_string().contains("at most 10000"), "{e}");
    }
}
