//! The whole game's optimum, solved class by class below the first guess, with progress
//! reported class by class and an optional time budget. When the budget runs out, the classes not yet solved
//! contribute a look-ahead bound below and the best heuristic tree's cost above, so the result is
//! an interval that certainly holds the optimum.
//!
//! The optimum is `|S| + Σ optimum(class)` (least total) or `1 + max min-worst(class)`
//! (least worst case) for the best first guess. With distinct digits every first guess is
//! equivalent (any code maps to `0123…` by a symmetry), so only the smallest is tried; with
//! repeated digits, one per pattern.

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
    let too_large = Error::TooLargeForExactSearch {
        candidates: engine.space.len(),
        max: MAX_SEARCH_SPACE,
    };
    let table = match engine.table.as_ref() {
        Some(table) if engine.space.len() <= MAX_SEARCH_SPACE => table,
        _ => return Err(too_large),
    };
    let mut search = Search::new(&engine.space, table, hard)?;
    search.set_deadline(budget.and_then(|b| Instant::now().checked_add(b)));
    let oracle = engine.oracle();
    let all: Vec<u32> = (0..engine.space.len() as u32).collect();
    let firsts =
        Stabilizer::of_history(&engine.space, &[]).representatives(&engine.space, &all, &all);
    let win = oracle.win();
    let splits: Vec<(u32, Vec<Vec<u32>>)> = firsts
        .iter()
        .map(|&g| {
            let mut classes: Vec<Vec<u32>> = partition(&oracle, g, &all)
                .into_iter()
                .filter(|(a, _)| *a != win)
                .map(|(_, c)| c)
                .collect();
            classes.sort_by_key(|c| c.len());
            (g, classes)
        })
        .collect();
    progress.start(
        "optimum",
        Some(splits.iter().map(|s| s.1.len() as u64).sum()),
    );
    let mut best: Option<RootReport> = None;
    let mut lower = u64::MAX;
    for (first, classes) in &splits {
        let report = solve_first_guess(
            engine,
            &mut search,
            hard,
            objective,
            *first,
            classes,
            progress,
        )?;
        lower = lower.min(report.lower);
        let better = best
            .as_ref()
            .is_none_or(|b| (report.upper, report.lower) < (b.upper, b.lower));
        if better {
            best = Some(report);
        }
    }
    progress.finish();
    let mut report = best.ok_or(Error::Internal("no first guess to try"))?;
    // The whole game's lower bound is the least over the first guesses; it is proved
    // optimal when that meets the best achieved value.
    report.lower = lower;
    report.exact = report.lower == report.upper;
    report.stats = search.stats();
    Ok(report)
}

/// The optimum below one first guess: each class solved exactly, or bounded when the
/// budget has run out.
fn solve_first_guess(
    engine: &Engine,
    search: &mut Search<'_>,
    hard: bool,
    objective: Objective,
    first: u32,
    classes: &[Vec<u32>],
    progress: Progress<'_>,
) -> Result<RootReport> {
    let n = engine.space.len() as u64;
    let history = [first];
    let mut exact_values: Vec<Option<u64>> = vec![None; classes.len()];
    let mut times = vec![Duration::ZERO; classes.len()];
    for (i, class) in classes.iter().enumerate() {
        if search.is_aborted() {
            break;
        }
        let started = Instant::now();
        if !progress.is_silent() {
            progress.status(&format!(
                "first guess {}, class of {} candidates",
                engine.space.format(first),
                class.len()
            ));
        }
        let value = match objective {
            Objective::Total => {
                // Start from the total a heuristic tree achieves: the search then only
                // explores what can beat it.
                let upper = heuristic_cost(engine, class, hard, objective, first)? as u32;
                search.optimum_below(class, &history, class.len() as u32, upper)
            }
            Objective::Worst => search.min_worst(class, &history),
        };
        times[i] = started.elapsed();
        match value {
            Ok(v) if v < INF => exact_values[i] = Some(u64::from(v)),
            Ok(_) => return Err(Error::Internal("a class has no finite optimum")),
            Err(_) => break,
        }
        progress.advance(1);
    }
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    for (class, exact) in classes.iter().zip(&exact_values) {
        match exact {
            Some(v) => {
                lower.push(*v);
                upper.push(*v);
            }
            None => {
                let heuristic = heuristic_cost(engine, class, hard, objective, first)?;
                let bound = match objective {
                    Objective::Total => {
                        u64::from(search.lookahead_bound(class, &mut vec![first], LOOKAHEAD))
                    }
                    Objective::Worst => (1u32..)
                        .find(|&d| search.lower_bound(class.len(), d) < INF)
                        .map_or(1, u64::from),
                };
                lower.push(bound);
                upper.push(heuristic);
            }
        }
    }
    let combine = |v: &[u64]| match objective {
        Objective::Total => n + v.iter().sum::<u64>(),
        Objective::Worst => 1 + v.iter().copied().max().unwrap_or(0),
    };
    let solved = exact_values.iter().filter(|v| v.is_some()).count();
    Ok(RootReport {
        objective,
        secrets: n,
        first_guess: first,
        lower: combine(&lower),
        upper: combine(&upper),
        exact: solved == classes.len(),
        solved_classes: solved,
        classes: classes.len(),
        stats: search.stats(),
        per_class: classes
            .iter()
            .zip(lower.iter().zip(&upper))
            .zip(&times)
            .map(|((c, (&lower, &upper)), &time)| ClassBound {
                size: c.len(),
                lower,
                upper,
                time,
            })
            .collect(),
    })
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
            Objective::Worst => u64::from(a.max),
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
                Event::Status(_) => {}
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
        assert_eq!(e.kind(), crate::ErrorKind::Input);
        assert!(e.to_string().contains("at most 10000"), "{e}");
    }
}
