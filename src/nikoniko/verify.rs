//! `nikoniko verify`: re-derives every state's value from the stored table with one
//! Bellman sweep over the stored values, independently of the solver's iteration.

use super::store::{Tables, EQUITY_SCALE, OUTCOME_SCALE};
use crate::gammon::solver::{graph::decode, graph_of};
use crate::gammon::Variant;
use crate::table::TableError;
use rayon::prelude::*;

/// What the sweep found.
#[derive(Debug, Clone)]
pub struct VerifyReport {
    /// Largest |Bellman(stored)(s) - stored(s)| over all states, and where.
    pub max_bellman_gap: f64,
    /// The dense index of the state with the largest Bellman gap.
    pub worst_index: u64,
    /// Largest |stored equity - Σ points × stored outcome probabilities|.
    pub max_outcome_gap: f64,
    /// Largest |Σ stored probabilities - 1| (a game that never ends has 0: counted apart).
    pub max_total_gap: f64,
    /// What rounding alone allows for `max_bellman_gap`.
    pub bellman_bound: f64,
    /// What rounding alone allows for `max_outcome_gap`.
    pub outcome_bound: f64,
    /// What rounding alone allows for `max_total_gap`.
    pub total_bound: f64,
    /// Whether every gap is within its bound.
    pub ok: bool,
}

/// Checks the payload checksums, then sweeps.
pub fn verify(tables: &Tables) -> Result<VerifyReport, TableError> {
    tables.verify_checksums()?;
    let stored = tables.equities()?;
    let e = |i: u32| f64::from(stored[i as usize]) / EQUITY_SCALE;
    let graph = graph_of(&Variant::built_in("nikoniko").expect("built in"));
    let (max_bellman_gap, worst) = (0..graph.len())
        .into_par_iter()
        .map(|k| {
            let s = graph.sweep[k] as usize;
            let value = |code: u32| match decode(graph.win, code) {
                Ok(t) => -e(graph.order[t as usize]),
                Err(points) => points,
            };
            let mut sum = 0.0;
            for (r, &(_, _, weight)) in graph.rolls.iter().enumerate() {
                let succ = graph.successors(k, r);
                if !succ.is_empty() {
                    let best = succ.iter().map(|&c| value(c)).fold(f64::MIN, f64::max);
                    sum += f64::from(weight) * best;
                }
            }
            let partner = graph.order[graph.partner[s] as usize];
            sum -= f64::from(graph.pass_weight[s]) * e(partner);
            let i = graph.order[s];
            ((sum / f64::from(graph.denominator) - e(i)).abs(), i)
        })
        .reduce(
            || (0.0, u32::MAX),
            |a, b| {
                if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
                    b
                } else {
                    a
                }
            },
        );
    let (max_outcome_gap, max_total_gap) = (0..stored.len() as u64)
        .into_par_iter()
        .map(|i| {
            let o = tables.outcomes(i)?;
            let from_outcomes = o.equity();
            let total = o.total();
            // A deadlocked state (no side can ever move) ends never: all zero.
            let total_gap = if total == 0.0 {
                0.0
            } else {
                (total - 1.0).abs()
            };
            Ok(((from_outcomes - tables.equity(i)?).abs(), total_gap))
        })
        .try_reduce(|| (0.0, 0.0), |a, b| Ok((a.0.max(b.0), a.1.max(b.1))))?;
    // Each stored equity is within half a unit of its true value; the Bellman sweep of
    // such values is too, so the two differ by at most one unit (plus float noise).
    let unit = 1.0 / EQUITY_SCALE;
    let p_unit = 1.0 / OUTCOME_SCALE;
    let bellman_bound = unit + 1e-9;
    let outcome_bound = 0.5 * unit + 6.0 * 3.0 * 0.5 * p_unit + 1e-9;
    let total_bound = 6.0 * 0.5 * p_unit + 1e-9;
    Ok(VerifyReport {
        max_bellman_gap,
        worst_index: u64::from(worst),
        max_outcome_gap,
        max_total_gap,
        bellman_bound,
        outcome_bound,
        total_bound,
        ok: max_bellman_gap <= bellman_bound
            && max_outcome_gap <= outcome_bound
            && max_total_gap <= total_bound,
    })
}
