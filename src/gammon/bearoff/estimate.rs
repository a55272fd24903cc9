//! The one-sided estimate of a race, for the positions no two-sided table holds: each
//! side's distribution of the rolls it needs to bear off, from the one-sided table, as if
//! the two races were independent. Labelled as an estimate wherever it is shown.

use super::notation;
use super::store::{Distributions, OneSidedTable};
use crate::gammon::{Error, Roll};
use serde::Serialize;

/// The one-sided estimate from two sides' distributions (side on roll first).
pub fn estimate(us: &Distributions, them: &Distributions) -> (f64, f64, f64) {
    let at = |d: &[f64], i: usize| d.get(i).copied().unwrap_or(0.0);
    // P(a side needs at least i rolls) for every i.
    let tail = |d: &[f64]| -> Vec<f64> {
        let mut out = vec![0.0; d.len() + 2];
        for i in (0..d.len()).rev() {
            out[i] = out[i + 1] + d[i];
        }
        out
    };
    // Σ_i P(one side needs exactly i rolls) · P(the other needs at least i + lag).
    let first = |rolls: &[f64], other: &[f64], lag: usize| -> f64 {
        let other_tail = tail(other);
        rolls
            .iter()
            .enumerate()
            .map(|(i, p)| p * at(&other_tail, i + lag))
            .sum()
    };
    let win = first(&us.rolls, &them.rolls, 0);
    let win_gammon = them
        .gammon_rolls
        .as_deref()
        .map_or(0.0, |g| first(&us.rolls, g, 0));
    let lose_gammon = us
        .gammon_rolls
        .as_deref()
        .map_or(0.0, |g| first(&them.rolls, g, 1));
    (win, win_gammon, lose_gammon)
}

/// How a race's answer was found: what [`RaceEstimate::method`] and
/// [`EstimatedHint::method`] say.
pub const ONE_SIDED_ESTIMATE: &str = "one-sided estimate";

/// A race answered without a two-sided table: the one-sided table's estimate (each side's
/// distribution of the rolls it needs, as if the two races were independent), labelled
/// as one.
#[derive(Debug, Clone, Serialize)]
pub struct RaceEstimate {
    /// Always [`ONE_SIDED_ESTIMATE`]: not an exact value.
    pub method: &'static str,
    /// The position, `ROLLER/OPPONENT`.
    pub position: String,
    /// The pips of the side on roll and of the opponent.
    pub pips: [u32; 2],
    /// The estimated chance to win.
    pub win: f64,
    /// The estimated chance to win a gammon.
    pub win_gammon: f64,
    /// The estimated chance to lose a gammon.
    pub lose_gammon: f64,
    /// The estimated cubeless equity (a win 1, a gammon 2).
    pub equity: f64,
}

fn pips(side: &[u8]) -> u32 {
    side.iter()
        .enumerate()
        .map(|(p, &c)| (p as u32 + 1) * u32::from(c))
        .sum()
}

/// The one-sided estimate of the race of `us` (on roll) against `them`, each given as
/// its checkers on points `1..=P` of the table.
pub fn race_estimate(table: &OneSidedTable, us: &[u8], them: &[u8]) -> Result<RaceEstimate, Error> {
    let a = table.distributions_of(us)?;
    let b = table.distributions_of(them)?;
    let (win, win_gammon, lose_gammon) = estimate(&a, &b);
    Ok(RaceEstimate {
        method: ONE_SIDED_ESTIMATE,
        position: notation::pair(us, them),
        pips: [pips(us), pips(them)],
        win,
        win_gammon,
        lose_gammon,
        equity: 2.0 * win - 1.0 + win_gammon - lose_gammon,
    })
}

/// One play of an estimated hint.
#[derive(Debug, Clone, Serialize)]
pub struct EstimatedPlay {
    /// The position after the play, the opponent now on roll (`OPPONENT/MOVER`, as the
    /// mover's sides are written: the mover's side first).
    pub after: String,
    /// The estimated cubeless equity of the play for the mover.
    pub equity: f64,
    /// What it loses against the best play.
    pub loss: f64,
}

/// The plays of a roll ranked by the one-sided estimate.
#[derive(Debug, Clone, Serialize)]
pub struct EstimatedHint {
    /// Always [`ONE_SIDED_ESTIMATE`].
    pub method: &'static str,
    /// The position before the roll.
    pub position: String,
    /// The roll.
    pub roll: Roll,
    /// Every distinct play, best first by the estimate (ties: the sides' order).
    pub plays: Vec<EstimatedPlay>,
}

/// Every play of `roll` for `us` against `them`, ranked by the one-sided estimate of the
/// race after it.
pub fn hint_estimate(
    table: &OneSidedTable,
    us: &[u8],
    them: &[u8],
    roll: Roll,
) -> Result<EstimatedHint, Error> {
    let index = table.index();
    let sides = super::sides::Sides::new(index);
    let rank = table.rank_of(us)?;
    let k = super::sides::ROLLS
        .iter()
        .position(|&(a, b)| (a, b) == (roll.low(), roll.high()))
        .expect("a roll of two dice");
    let mut after = Vec::new();
    sides.plays_into(rank as u32, k, &mut after);
    after.sort_unstable();
    let mut plays = Vec::new();
    for s in after {
        let mine = index.side(u64::from(s))?;
        let theirs = race_estimate(table, them, &mine)?;
        plays.push(EstimatedPlay {
            after: notation::pair(&mine, them),
            equity: -theirs.equity,
            loss: 0.0,
        });
    }
    plays.sort_by(|a, b| b.equity.total_cmp(&a.equity));
    let best = plays.first().map_or(0.0, |p| p.equity);
    for p in &mut plays {
        p.loss = best - p.equity;
    }
    Ok(EstimatedHint {
        method: ONE_SIDED_ESTIMATE,
        position: notation::pair(us, them),
        roll,
        plays,
    })
}
