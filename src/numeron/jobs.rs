//! The whole game's optimum split into independent jobs, the pattern of match play's
//! `score-plan`: one job a class below a first guess, each writing what it proved to a
//! file of facts ([`Search::save`](super::optimal::Search::save)); the optimum is then
//! solved in one process from all the files ([`solve_root_keeping`](super::root::solve_root_keeping)),
//! which finds every class's value among the facts.
//!
//! The plan ([`plan`]) looks at each class once (the probes the whole search orders its
//! first guesses by) and plays the heuristics on each: the most promising first guess's
//! classes are solved exactly; a later first guess whose probes already exceed that first
//! guess's heuristic value is refuted by them (no job); the others' classes are solved
//! only up to their probe bound plus the slack that value leaves. The whole search never
//! asks more of a class than that (its limits come from an exact value, at most the
//! heuristic one), so the combining step only reads facts. A job's facts hold whatever
//! limit it was given, so a wrong limit costs time, never exactness.

use super::answer::Answer;
use super::engine::Engine;
use super::root::{
    first_splits, heuristic_cost, keeping, new_search, probe_all, promise, solve_class, Keep,
    Objective,
};
use super::{Error, Result};
use crate::progress::Progress;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// One job: a class below a first guess, solved exactly or up to a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The first guess.
    pub first: u32,
    /// The reply to it that the class's secrets give.
    pub reply: Answer,
    /// Secrets in the class.
    pub size: usize,
    /// The most the job needs to know (`None`: the class's exact value).
    pub limit: Option<u64>,
}

/// The jobs of one optimum, and the first guesses refuted without any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Jobs, largest class first.
    pub units: Vec<Unit>,
    /// The first guess solved exactly, and its heuristic value (every limit comes from it).
    pub first: u32,
    /// The heuristic value of `first`.
    pub heuristic: u64,
    /// First guesses whose probes exceed that value, with their probe bound.
    pub refuted: Vec<(u32, u64)>,
}

/// The jobs of the optimum of `objective` ([`Objective::Total`] or [`Objective::Worst`]).
pub fn plan(engine: &Engine, hard: bool, objective: Objective) -> Result<Plan> {
    if objective == Objective::FewestAtWorst {
        return Err(Error::Internal(
            "the fewest secrets at the worst case is not split into jobs",
        ));
    }
    let search = new_search(engine, hard)?;
    let oracle = engine.oracle();
    let n = engine.space.len() as u64;
    let splits = first_splits(&oracle);
    let probes = probe_all(&search, &splits, objective);
    let combine = |v: &[u64]| match objective {
        Objective::Total => n + v.iter().sum::<u64>(),
        _ => 1 + v.iter().copied().max().unwrap_or(0),
    };
    let best = (0..splits.len())
        .min_by_key(|&i| promise(objective, n, &probes[i], &splits[i]))
        .ok_or(Error::Internal("no first guess"))?;
    let first = &splits[best];
    let heuristics: Vec<u64> = first
        .classes
        .par_iter()
        .map(|c| heuristic_cost(engine, c, hard, objective, first.guess))
        .collect::<Result<_>>()?;
    let heuristic = combine(&heuristics);
    let mut units = Vec::new();
    let mut refuted = Vec::new();
    for (i, split) in splits.iter().enumerate() {
        let floor = combine(&probes[i]);
        if i != best && floor > heuristic {
            refuted.push((split.guess, floor));
            continue;
        }
        for ((class, &reply), &probe) in split.classes.iter().zip(&split.replies).zip(&probes[i]) {
            units.push(Unit {
                first: split.guess,
                reply: Answer::from_code(reply, engine.space.digits()),
                size: class.len(),
                limit: (i != best).then(|| match objective {
                    Objective::Total => probe + (heuristic - floor),
                    _ => heuristic - 1,
                }),
            });
        }
    }
    units.sort_by_key(|u| std::cmp::Reverse(u.size));
    Ok(Plan {
        units,
        first: first.guess,
        heuristic,
        refuted,
    })
}

/// What one job proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitReport {
    /// The job.
    pub unit: Unit,
    /// A proven lower bound on the class's value.
    pub lower: u64,
    /// An achieved value, when known.
    pub upper: Option<u64>,
    /// Whether the job is done: the value found, or proved above the limit.
    pub settled: bool,
    /// Time spent.
    pub time: Duration,
}

/// Solves the job `unit` on `engine`'s space, starting from the facts `keep.read` and
/// writing its own to `keep.write` as it goes; the facts are also written to `out` once the
/// job is settled (not when the budget ran out first).
#[allow(clippy::too_many_arguments)]
pub fn solve_unit(
    engine: &Engine,
    hard: bool,
    objective: Objective,
    unit: &Unit,
    budget: Option<Duration>,
    keep: &Keep,
    out: Option<&std::path::Path>,
    progress: Progress<'_>,
) -> Result<UnitReport> {
    let started = Instant::now();
    let oracle = engine.oracle();
    let code = unit.reply.code(engine.space.digits());
    let splits = first_splits(&oracle);
    let tried = || {
        let names: Vec<String> = splits
            .iter()
            .map(|s| engine.space.format(s.guess))
            .collect();
        names.join(", ")
    };
    let split = splits
        .iter()
        .find(|s| s.guess == unit.first)
        .ok_or_else(|| Error::NotAFirstGuess {
            guess: engine.space.format(unit.first),
            tried: tried(),
        })?;
    let class = split
        .replies
        .iter()
        .position(|&r| r == code)
        .map(|i| &split.classes[i])
        .ok_or_else(|| Error::NoSuchClass {
            guess: engine.space.format(unit.first),
            reply: unit.reply.written(engine.space.notation()),
        })?;
    let mut search = new_search(engine, hard)?;
    search.set_deadline(budget.and_then(|b| started.checked_add(b)));
    search.set_memory(keep.memory);
    for path in &keep.read {
        search.learn(path)?;
    }
    progress.start("job", Some(1));
    let found = keeping(&search, keep, || {
        solve_class(
            engine, &search, hard, objective, unit.first, class, unit.limit, None,
        )
    })?;
    progress.advance(1);
    progress.finish();
    let settled = !search.is_aborted() && (found.upper.is_none() || found.exact());
    if let (true, Some(out)) = (settled, out) {
        search.save(out)?;
    }
    Ok(UnitReport {
        unit: Unit {
            size: class.len(),
            ..unit.clone()
        },
        lower: found.lower,
        upper: found.upper,
        settled,
        time: started.elapsed(),
    })
}
