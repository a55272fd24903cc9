//! The Bellman check of a solved table (`docs/gammon.md`, "Checking a table"): every
//! payload checksum, then one Bellman sweep over the stored equities — each state's
//! equity re-derived from its successors' stored ones, under the rules' plays — and each
//! record's equity against its stored chances. Independent of the solver's iteration:
//! only the rules (the graph of plays) are shared.

use super::solver;
use super::{Error, Evaluator};
use rayon::prelude::*;
use serde::Serialize;

/// What [`verify`] found.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyReport {
    /// Whether every gap is within what rounding allows.
    pub ok: bool,
    /// Largest |Bellman(stored)(s) - stored(s)| over the states.
    pub max_bellman_gap: f64,
    /// The index (record) of the state with the largest Bellman gap (the lowest, on a tie).
    pub worst_index: u64,
    /// What rounding alone allows for `max_bellman_gap`.
    pub bellman_bound: f64,
    /// Largest |stored equity - the equity of the stored chances|.
    pub max_outcome_gap: f64,
    /// What rounding alone allows for `max_outcome_gap`.
    pub outcome_bound: f64,
    /// Largest |Σ stored chances - 1| (a game that can never end has 0: counted apart).
    pub max_total_gap: f64,
    /// What rounding alone allows for `max_total_gap`.
    pub total_bound: f64,
}

/// Checks the checksums of `table`, then sweeps (see the module's documentation).
pub fn verify(table: &dyn Evaluator) -> Result<VerifyReport, Error> {
    table.verify_checksums()?;
    let (graph, states) = solver::graph_of(table.variant())?;
    let record_of = table.numbers().records_of(&states);
    // The stored equities by state, read once.
    let stored: Vec<f64> = record_of
        .par_iter()
        .map(|&r| table.equity_at(r))
        .collect::<Result<_, _>>()?;
    let (max_bellman_gap, worst) = (0..graph.len())
        .into_par_iter()
        .map(|k| {
            let s = graph.sweep[k] as usize;
            let value = |code: u32| match solver::graph::decode(graph.win, code) {
                Ok(t) => -stored[graph.order[t as usize] as usize],
                Err(points) => points,
            };
            let mut sum = 0.0;
            for (r, roll) in graph.rolls.iter().enumerate() {
                let succ = graph.successors(k, r);
                if !succ.is_empty() {
                    let best = succ.iter().map(|&c| value(c)).fold(f64::MIN, f64::max);
                    sum += f64::from(roll.weight()) * best;
                }
            }
            let partner = graph.order[graph.partner[s] as usize] as usize;
            sum -= f64::from(graph.pass_weight[s]) * stored[partner];
            let i = graph.order[s] as usize;
            let gap = (sum / f64::from(graph.denominator) - stored[i]).abs();
            (gap, record_of[i])
        })
        .reduce(|| (0.0, u64::MAX), worse);
    let (max_outcome_gap, max_total_gap) = record_of
        .par_iter()
        .zip(&stored)
        .map(|(&r, &e)| -> Result<(f64, f64), Error> {
            let o = table.outcomes_at(r)?;
            let total = o.total();
            // A game no side can ever move in ends never: its chances are all zero.
            if total == 0.0 {
                return Ok((0.0, 0.0));
            }
            Ok(((o.equity() - e).abs(), (total - 1.0).abs()))
        })
        .try_reduce(|| (0.0, 0.0), |a, b| Ok((a.0.max(b.0), a.1.max(b.1))))?;
    let bounds = table.bounds();
    Ok(VerifyReport {
        ok: max_bellman_gap <= bounds.bellman
            && max_outcome_gap <= bounds.outcome
            && max_total_gap <= bounds.total,
        max_bellman_gap,
        worst_index: worst,
        bellman_bound: bounds.bellman,
        max_outcome_gap,
        outcome_bound: bounds.outcome,
        max_total_gap,
        total_bound: bounds.total,
    })
}

/// The larger gap, the lower record on a tie: the same answer however the work was split.
fn worse(a: (f64, u64), b: (f64, u64)) -> (f64, u64) {
    if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
        b
    } else {
        a
    }
}

impl VerifyReport {
    /// The error to return when a gap exceeds its bound.
    pub fn failure(&self) -> Option<Error> {
        (!self.ok).then(|| {
            Error::Inconsistent(format!(
                "a gap exceeds what rounding allows (Bellman {:.3e} at index {}, outcomes \
                 {:.3e}, total {:.3e})",
                self.max_bellman_gap, self.worst_index, self.max_outcome_gap, self.max_total_gap
            ))
        })
    }
}
