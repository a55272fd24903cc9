//! The whole game's optimum, solved class by class below the first guess, with progress
//! reported class by class and an optional time budget. When the budget runs out, the
//! classes not yet solved contribute a look-ahead bound below and the best heuristic tree's
//! cost above, so the result is an interval that certainly holds the optimum.
//!
//! The optimum is `|S| + Σ optimum(class)` (least total) or `1 + max min-worst(class)`
//! (least worst case) for the best first guess. With distinct digits every first guess is
//! equivalent (any code maps to `0123…` by a symmetry), so only the smallest is tried; with
//! repeated digits, one per pattern (`0000`, `0001`, `0011`, `0012`, `0123`).
//!
//! One search (one memo) serves every class, one class after the other: equivalent sets
//! recur under different classes, and sharing their values halves the work of the largest
//! class of four digits. First guesses are taken one after the other, the most promising
//! first (least bound after one look at each class's guesses); each later one is only asked
//! whether it can match the best so far, each class within its own bound plus the slack
//! the others leave, and is refuted as soon as one class cannot.

use super::answer::Oracle;
use super::engine::Engine;
use super::optimal::{Search, Stats, INF, MAX_SEARCH_SPACE};
use super::strategy::{heuristic_guess, Strategy};
use super::symmetry::Stabilizer;
use super::tree::{self, partition, Analysis};
use super::{Error, Result};
use crate::progress::Progress;
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
    /// The search's counters.
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
struct Found {
    /// Proven lower bound.
    lower: u64,
    /// Achieved value, when known.
    upper: Option<u64>,
    time: Duration,
}

impl Found {
    fn exact(&self) -> bool {
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

/// Each first guess with the classes it splits `all` into, the winning one left out,
/// smallest first.
fn first_splits(oracle: &Oracle, firsts: &[u32], all: &[u32]) -> Vec<(u32, Vec<Vec<u32>>)> {
    let win = oracle.win();
    firsts
        .iter()
        .map(|&g| {
            let mut classes: Vec<Vec<u32>> = partition(oracle, g, all)
                .into_iter()
                .filter(|(a, _)| *a != win)
                .map(|(_, c)| c)
                .collect();
            classes.sort_by_key(|c| c.len());
            (g, classes)
        })
        .collect()
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
    if objective == Objective::FewestAtWorst {
        return solve_fewest_at_worst(engine, hard, budget, progress);
    }
    let too_large = Error::TooLargeForExactSearch {
        candidates: engine.space.len(),
        max: MAX_SEARCH_SPACE,
    };
    let table = match engine.table.as_ref() {
        Some(table) if engine.space.len() <= MAX_SEARCH_SPACE => table,
        _ => return Err(too_large),
    };
    let base = Search::new(&engine.space, table, hard)?;
    let deadline = budget.and_then(|b| Instant::now().checked_add(b));
    let oracle = engine.oracle();
    let all: Vec<u32> = (0..engine.space.len() as u32).collect();
    let firsts =
        Stabilizer::of_history(&engine.space, &[]).representatives(&engine.space, &all, &all);
    let n = all.len() as u64;
    let splits = first_splits(&oracle, &firsts, &all);
    progress.start(
        "optimum",
        Some(splits.iter().map(|s| s.1.len() as u64).sum()),
    );
    let mut search = base;
    search.set_deadline(deadline);
    let combine = |v: &[u64]| match objective {
        Objective::Total => n + v.iter().sum::<u64>(),
        Objective::Worst | Objective::FewestAtWorst => 1 + v.iter().copied().max().unwrap_or(0),
    };
    // The first guesses in order of promise: the least bound after probing each class.
    let probes: Vec<Vec<u64>> = splits
        .iter()
        .map(|(first, classes)| {
            classes
                .iter()
                .map(|class| probe(&mut search, class, *first, objective))
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..splits.len()).collect();
    order.sort_by_key(|&i| (combine(&probes[i]), splits[i].0));
    let mut results: Vec<Option<Vec<Found>>> = vec![None; splits.len()];
    let mut best: Option<(usize, u64)> = None;
    for &i in &order {
        let (first, classes) = &splits[i];
        let found: Vec<Found> = match best {
            None => classes
                .iter()
                .map(|class| {
                    let f = solve_class(engine, &mut search, hard, objective, *first, class, None);
                    advance(progress, engine, *first, class.len());
                    f
                })
                .collect::<Result<_>>()?,
            Some((_, value)) => {
                // Within what would tie the best: each class its probe bound plus the slack.
                let floor = combine(&probes[i]);
                if floor > value {
                    progress.advance(classes.len() as u64);
                    results[i] = Some(
                        probes[i]
                            .iter()
                            .map(|&lower| Found {
                                lower,
                                upper: None,
                                time: Duration::ZERO,
                            })
                            .collect(),
                    );
                    continue;
                }
                let limit = |lower: u64| match objective {
                    Objective::Total => lower + (value - floor),
                    Objective::Worst | Objective::FewestAtWorst => value - 1,
                };
                classes
                    .iter()
                    .zip(&probes[i])
                    .map(|(class, &lower)| {
                        let f = solve_class(
                            engine,
                            &mut search,
                            hard,
                            objective,
                            *first,
                            class,
                            Some(limit(lower)),
                        );
                        advance(progress, engine, *first, class.len());
                        f
                    })
                    .collect::<Result<_>>()?
            }
        };
        let upper = found
            .iter()
            .map(|f| f.upper)
            .collect::<Option<Vec<u64>>>()
            .map(|v| combine(&v));
        if let Some(u) = upper {
            if best.is_none_or(|(_, b)| u < b) {
                best = Some((i, u));
            }
        }
        results[i] = Some(found);
    }
    progress.finish();
    let (best_index, _) = best.ok_or(Error::Internal("no first guess has a value"))?;
    let lower_of = |found: &[Found]| combine(&found.iter().map(|f| f.lower).collect::<Vec<_>>());
    let first_guesses: Vec<FirstGuessBound> = order
        .iter()
        .map(|&i| {
            let found = results[i].as_ref().expect("every first guess is tried");
            FirstGuessBound {
                guess: splits[i].0,
                lower: lower_of(found),
                upper: found
                    .iter()
                    .map(|f| f.upper)
                    .collect::<Option<Vec<u64>>>()
                    .map(|v| combine(&v)),
            }
        })
        .collect();
    let found = results[best_index].as_ref().expect("the best was tried");
    let (first, classes) = &splits[best_index];
    let upper = first_guesses
        .iter()
        .find(|f| f.guess == *first)
        .and_then(|f| f.upper)
        .expect("the best has a value");
    // The whole game's lower bound is the least over the first guesses; it is proved
    // optimal when that meets the best achieved value.
    let lower = first_guesses
        .iter()
        .map(|f| f.lower)
        .min()
        .expect("a first guess");
    let stats = search.stats();
    Ok(RootReport {
        objective,
        secrets: n,
        first_guess: *first,
        lower,
        upper,
        exact: lower == upper,
        solved_classes: found.iter().filter(|f| f.exact()).count(),
        classes: classes.len(),
        stats,
        per_class: class_bounds(classes, &found[..]),
        first_guesses,
        worst: None,
    })
}

/// The least worst case, then the fewest secrets that need it: the worst case is solved
/// first ([`Objective::Worst`]); then below each first guess that reaches it, each class
/// gets an upper bound from a greedy strategy ([`Search::last_greedy`]) and a lower bound
/// that rises one at a time (each step a complete search: can the class leave at most
/// `β` secrets to the last guess?) until they meet or the budget runs out.
fn solve_fewest_at_worst(
    engine: &Engine,
    hard: bool,
    budget: Option<Duration>,
    progress: Progress<'_>,
) -> Result<RootReport> {
    let started = Instant::now();
    let deadline = budget.and_then(|b| started.checked_add(b));
    let worst = solve_root(engine, hard, Objective::Worst, budget, progress)?;
    if !worst.exact {
        return Err(Error::OutOfTime);
    }
    let w = worst.lower as u32;
    let table = engine.table.as_ref().ok_or(Error::TooLargeForExactSearch {
        candidates: engine.space.len(),
        max: MAX_SEARCH_SPACE,
    })?;
    let mut search = Search::new(&engine.space, table, hard)?;
    search.set_deadline(deadline);
    let oracle = engine.oracle();
    let all: Vec<u32> = (0..engine.space.len() as u32).collect();
    let firsts: Vec<u32> = worst
        .first_guesses
        .iter()
        .filter(|f| f.upper == Some(u64::from(w)))
        .map(|f| f.guess)
        .collect();
    let splits = first_splits(&oracle, &firsts, &all);
    progress.start(
        "fewest at the worst case",
        Some(splits.iter().map(|s| s.1.len() as u64).sum()),
    );
    let mut results: Vec<Vec<Found>> = Vec::new();
    for (first, classes) in &splits {
        let mut found = Vec::new();
        for class in classes {
            let t = Instant::now();
            let history = [*first];
            let depth = w - 1;
            let mut lower = u64::from(search.last_bound(class.len(), depth));
            let mut upper = match search.last_greedy(class, &history, depth) {
                Ok(Some(u)) => Some(u64::from(u)),
                Ok(None) => return Err(Error::Internal("a class misses the least worst case")),
                Err(_) => None,
            };
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
            }
            found.push(Found {
                lower,
                upper,
                time: t.elapsed(),
            });
            advance(progress, engine, *first, class.len());
        }
        results.push(found);
    }
    progress.finish();
    let sum = |f: &[Found], pick: &dyn Fn(&Found) -> Option<u64>| -> Option<u64> {
        f.iter().map(pick).sum::<Option<u64>>()
    };
    let first_guesses: Vec<FirstGuessBound> = splits
        .iter()
        .zip(&results)
        .map(|((g, _), f)| FirstGuessBound {
            guess: *g,
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
    let (first, classes) = &splits[best];
    let found = &results[best];
    Ok(RootReport {
        objective: Objective::FewestAtWorst,
        secrets: all.len() as u64,
        first_guess: *first,
        lower,
        upper,
        exact: lower == upper,
        solved_classes: found.iter().filter(|f| f.exact()).count(),
        classes: classes.len(),
        stats: search.stats() + worst.stats,
        per_class: class_bounds(classes, &found[..]),
        first_guesses,
        worst: Some(w),
    })
}

/// Reports one class done.
fn advance(progress: Progress<'_>, engine: &Engine, first: u32, size: usize) {
    if !progress.is_silent() {
        progress.status(&format!(
            "first guess {}, class of {size} candidates",
            engine.space.format(first)
        ));
    }
    progress.advance(1);
}

/// A quick lower bound on one class's value: what one look at its guesses proves (the
/// slot bounds of their classes; for the worst case, the depth its size needs).
fn probe(search: &mut Search<'_>, class: &[u32], first: u32, objective: Objective) -> u64 {
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

/// One class below `first`: solved exactly, or (with `limit`) only up to that value, beyond
/// which a lower bound above it is returned; when the deadline passes, bounded instead.
fn solve_class(
    engine: &Engine,
    search: &mut Search<'_>,
    hard: bool,
    objective: Objective,
    first: u32,
    class: &[u32],
    limit: Option<u64>,
) -> Result<Found> {
    let started = Instant::now();
    let history = [first];
    let depth = class.len() as u32;
    let value = match (objective, limit) {
        (Objective::Total, None) => {
            // Start from the total a heuristic tree achieves: the search then only explores
            // what can beat it.
            let upper = heuristic_cost(engine, class, hard, objective, first)? as u32;
            search.optimum_below(class, &history, depth, upper).map(Ok)
        }
        (Objective::Total, Some(limit)) => {
            let limit = limit.min(u64::from(INF - 1)) as u32;
            search.optimum_within(class, &history, depth, limit)
        }
        (Objective::Worst | Objective::FewestAtWorst, None) => {
            search.min_worst(class, &history).map(Ok)
        }
        (Objective::Worst | Objective::FewestAtWorst, Some(limit)) => {
            let limit = limit.min(u64::from(INF - 1)) as u32;
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
        Ok(Err(lower)) => Ok(Found {
            lower: u64::from(lower),
            upper: None,
            time,
        }),
        Err(_) => {
            // Out of time: bounds from a look ahead and from the heuristics.
            let heuristic = heuristic_cost(engine, class, hard, objective, first)?;
            let bound = match objective {
                Objective::Total => {
                    let mut fresh = search.fork();
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
fn heuristic_cost(
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
    use std::sync::Mutex;

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
