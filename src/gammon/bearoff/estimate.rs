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

#[cfg(test)]
mod tests {
    use super::super::store::{build, Kind, TwoSidedTable};
    use super::*;
    use crate::progress::Progress;

    #[test]
    fn the_one_sided_estimate_of_two_certain_races_is_certain() {
        let one = Distributions {
            rolls: vec![0.0, 1.0],
            gammon_rolls: None,
        };
        let two = Distributions {
            rolls: vec![0.0, 0.0, 1.0],
            gammon_rolls: Some(vec![0.0, 0.0, 1.0]),
        };
        assert_eq!(estimate(&one, &two), (1.0, 1.0, 0.0));
        assert_eq!(estimate(&two, &one).0, 0.0);
        // Both need one roll: the side on roll is off first.
        assert_eq!(estimate(&one, &one).0, 1.0);
    }

    #[test]
    fn the_estimate_of_a_race_is_the_exact_value_where_the_race_is_certain_and_close_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let os = dir.path().join("os.tbl");
        build(&Kind::one_sided(6), &os, Progress::SILENT).unwrap();
        let os = OneSidedTable::open(&os).unwrap();
        let ts = dir.path().join("ts.tbl");
        let kind = Kind::two_sided(6, 6, false);
        build(&kind, &ts, Progress::SILENT).unwrap();
        let ts = TwoSidedTable::open(&ts).unwrap();
        // Fifteen checkers each: answered, labelled, a gammon possible.
        let full = [3u8, 3, 3, 2, 2, 2];
        let e = race_estimate(&os, &full, &[0, 0, 0, 0, 0, 15]).unwrap();
        assert_eq!(e.method, ONE_SIDED_ESTIMATE);
        assert_eq!(e.pips, [3 + 6 + 9 + 8 + 10 + 12, 90]);
        assert!(e.win > 0.99 && e.win < 1.0 && e.lose_gammon == 0.0, "{e:?}");
        // One checker on the one point against fifteen at home: a certain gammon.
        let g = race_estimate(&os, &[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 15]).unwrap();
        assert!((g.win - 1.0).abs() < 1e-12 && (g.win_gammon - 1.0).abs() < 1e-12);
        assert!((g.equity - 2.0).abs() < 1e-12);
        // Against the exact 6x6 value: within a few points where both exist.
        let index = ts.index();
        let mut worst: f64 = 0.0;
        for (us, them) in [(100u64, 200u64), (500, 400), (923, 923), (50, 900)] {
            let (a, b) = (index.side(us).unwrap(), index.side(them).unwrap());
            let e = race_estimate(&os, &a, &b).unwrap();
            worst = worst.max((e.win - ts.values(us, them).unwrap().win).abs());
        }
        assert!(worst < 0.05, "{worst}");
        // The plays of 6-5 from 15 checkers: ranked, the best losing nothing.
        let h = hint_estimate(&os, &full, &[0, 0, 0, 0, 0, 15], Roll::new(6, 5)).unwrap();
        assert!(h.plays.len() > 1 && h.plays[0].loss == 0.0);
        assert!(h.plays.windows(2).all(|w| w[0].equity >= w[1].equity));
    }
}
