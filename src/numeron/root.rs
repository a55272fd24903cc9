//! The whole game's optimum, solved class by class below the first guess, with a progress
//! bar and an optional time budget. When the budget runs out, the classes not yet solved
//! contribute a look-ahead bound below and the best heuristic tree's cost above, so the result is
//! an interval that certainly holds the optimum.
//!
//! Every first guess is equivalent (any code maps to `0123…` by a symmetry), so the first
//! guess is the smallest code and the optimum is `|S| + Σ optimum(class)` (least total) or
//! `1 + max min-worst(class)` (least worst case).

use super::engine::Engine;
use super::optimal::{Search, Stats, INF};
use super::strategy::{heuristic_guess, Strategy};
use super::tree::{self, partition, Analysis};
use crate::{Error, Result};
use indicatif::ProgressBar;
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

/// Solves the whole game for `objective`, advancing `bar` once per class of the first
/// guess; stops at `deadline` with bounds.
pub fn solve_root(
    engine: &Engine,
    hard: bool,
    objective: Objective,
    deadline: Option<Instant>,
    bar: &ProgressBar,
) -> Result<RootReport> {
    let table = engine
        .table
        .as_ref()
        .ok_or_else(|| Error::input("the exact search needs the answer table (N ≤ 4)"))?;
    let mut search = Search::new(&engine.space, table, hard)?;
    search.set_deadline(deadline);
    let oracle = engine.oracle();
    let all: Vec<u32> = (0..engine.space.len() as u32).collect();
    let n = all.len() as u64;
    let win = oracle.win();
    let mut classes: Vec<Vec<u32>> = partition(&oracle, 0, &all)
        .into_iter()
        .filter(|(a, _)| *a != win)
        .map(|(_, c)| c)
        .collect();
    classes.sort_by_key(|c| c.len());
    bar.set_length(classes.len() as u64);
    let history = [0u32];
    let mut exact_values: Vec<Option<u64>> = vec![None; classes.len()];
    let mut aborted = false;
    let mut times = vec![Duration::ZERO; classes.len()];
    for (i, class) in classes.iter().enumerate() {
        let started = Instant::now();
        bar.set_prefix(format!("class of {} candidates", class.len()));
        let value = match objective {
            Objective::Total => {
                // Start from the total a heuristic tree achieves: the search then only
                // explores what can beat it.
                let upper = heuristic_cost(engine, class, hard, objective)? as u32;
                search.optimum_below(class, &history, class.len() as u32, upper)
            }
            Objective::Worst => search.min_worst(class, &history),
        };
        times[i] = started.elapsed();
        match value {
            Ok(v) if v < INF => exact_values[i] = Some(u64::from(v)),
            Ok(_) => return Err(Error::failure("a class has no finite optimum")),
            Err(_) => {
                aborted = true;
                break;
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let stats = search.stats();
    let mut lower = Vec::new();
    let mut upper = Vec::new();
    for (class, exact) in classes.iter().zip(&exact_values) {
        match exact {
            Some(v) => {
                lower.push(*v);
                upper.push(*v);
            }
            None => {
                let heuristic = heuristic_cost(engine, class, hard, objective)?;
                let bound = match objective {
                    Objective::Total => {
                        u64::from(search.lookahead_bound(class, &mut vec![0], LOOKAHEAD))
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
    let report = RootReport {
        objective,
        secrets: n,
        lower: combine(&lower),
        upper: combine(&upper),
        exact: !aborted,
        solved_classes: exact_values.iter().filter(|v| v.is_some()).count(),
        classes: classes.len(),
        stats,
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
    };
    Ok(report)
}

/// The best cost among the heuristics' subtrees on one class (after the first guess): an
/// achieved value, hence an upper bound on the optimum.
fn heuristic_cost(engine: &Engine, class: &[u32], hard: bool, objective: Objective) -> Result<u64> {
    let oracle = engine.oracle();
    let mut best = u64::MAX;
    for strategy in [Strategy::Minimax, Strategy::Parts, Strategy::Entropy] {
        let choose = |set: &[u32], history: &[u32]| -> Result<u32> {
            Ok(heuristic_guess(strategy, &oracle, set, history, hard))
        };
        let subtree = tree::build(&oracle, class.to_vec(), &mut vec![0], &choose)?;
        let a = Analysis::of_tree(&subtree);
        best = best.min(match objective {
            Objective::Total => a.total,
            Objective::Worst => u64::from(a.max),
        });
    }
    Ok(best)
}
