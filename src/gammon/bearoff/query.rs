//! Questions the bear-off tables answer (`docs/bearoff.md`, "Command line"), as plain
//! serde types: a side's distributions, a pair's equity with the cube action (and the
//! one-sided estimate of the win beside the exact one), the plays of a roll ranked, a
//! position shown. The equity and hint documents are the family's
//! ([`crate::gammon::query::Evaluation`], [`crate::gammon::query::Hint`]).

use super::estimate::estimate;
use super::judge::{Bearoff, MatchPlay};
use super::notation;
use super::store::{Kind, OneSidedTable, TwoSidedTable};
use crate::gammon::cube::{decide_money, CubeState};
use crate::gammon::gnubg::{position_id, xgid};
use crate::gammon::judge::{rank, Judge};
use crate::gammon::matchplay::met::Met;
use crate::gammon::matchplay::query::{check_cube, evaluation, ranked, MatchEvaluation, MatchHint};
use crate::gammon::matchplay::{MatchCube, Score};
use crate::gammon::query::{Evaluation, Looked, Ranked};
use crate::gammon::{Error, Position, Roll};
use serde::Serialize;

/// A side's distributions.
#[derive(Debug, Clone, Serialize)]
pub struct Distribution {
    /// The side's rank.
    pub index: u64,
    /// The side.
    pub position: String,
    /// Probabilities of needing exactly 0, 1, 2, … rolls to bear off every checker
    /// (trailing zeros dropped).
    pub rolls: Vec<f64>,
    /// The expected number of rolls.
    pub mean: f64,
    /// The standard deviation of the number of rolls.
    pub std_dev: f64,
    /// The side's pip count.
    pub pips: u32,
    /// Its effective pip count, as gnubg gives it: the expected rolls times the average
    /// roll's pips, 49/6.
    pub epc: f64,
    /// What the bear-off wastes: the effective pip count less the pip count.
    pub wastage: f64,
    /// With all fifteen on the board: the probabilities of needing exactly 0, 1, 2, …
    /// rolls to bear off the first checker; else null.
    pub gammon_rolls: Option<Vec<f64>>,
    /// The expected number of rolls to the first checker off, with all fifteen on the
    /// board.
    pub gammon_mean: Option<f64>,
}

fn mean(d: &[f64]) -> f64 {
    d.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}

/// The distributions of the side `side` (a rank).
pub fn distribution(table: &OneSidedTable, side: u64) -> Result<Distribution, Error> {
    let d = table.distributions(side)?;
    let counts = table.index().side(side)?;
    let pips: u32 = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 1) * u32::from(c))
        .sum();
    let m = mean(&d.rolls);
    let second: f64 = d
        .rolls
        .iter()
        .enumerate()
        .map(|(k, p)| (k * k) as f64 * p)
        .sum();
    let epc = m * 49.0 / 6.0;
    Ok(Distribution {
        index: side,
        position: notation::side(&counts),
        std_dev: (second - m * m).max(0.0).sqrt(),
        pips,
        epc,
        wastage: epc - f64::from(pips),
        mean: m,
        gammon_mean: d.gammon_rolls.as_deref().map(mean),
        rolls: d.rolls,
        gammon_rolls: d.gammon_rolls,
    })
}

/// Both sides of a pair, each from the one-sided table, as gnubg shows them side by side.
#[derive(Debug, Clone, Serialize)]
pub struct PairDistribution {
    /// The side on roll's.
    pub roller: Distribution,
    /// The opponent's.
    pub opponent: Distribution,
}

/// A position looked up in a database's index (no table needed).
pub fn look(kind: &Kind, roller: u64, opponent: Option<u64>) -> Result<Looked, Error> {
    let index = kind.index()?;
    let them = opponent.unwrap_or(0);
    let p = index.position(roller, them)?;
    let (record, position) = match opponent {
        Some(o) => (
            index.record(roller, o)?,
            notation::pair(&index.side(roller)?, &index.side(o)?),
        ),
        None => (roller, notation::side(&index.side(roller)?)),
    };
    Ok(Looked {
        variant: kind.name(),
        index: record,
        position,
        position_id: position_id::encode(&p).ok(),
        xgid: xgid::encode(&p).ok(),
        pips: p.pips(),
    })
}

/// The one-sided estimate of a race: the side on roll wins if it needs no more rolls
/// than the opponent (and wins a gammon if it is off before the opponent's first checker
/// is).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Estimate {
    /// The estimated chance to win.
    pub win: f64,
    /// The estimated chance to win a gammon (with fifteen checkers).
    pub win_gammon: f64,
    /// The estimated chance to lose a gammon (with fifteen checkers).
    pub lose_gammon: f64,
    /// The estimate's error: `win` minus the exact chance.
    pub win_error: f64,
}

/// What `equity` answers: the family's evaluation, and the one-sided estimate beside it.
#[derive(Debug, Clone, Serialize)]
pub struct BearoffEvaluation {
    /// The exact values.
    #[serde(flatten)]
    pub evaluation: Evaluation,
    /// The estimate from a one-sided table, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub one_sided_estimate: Option<Estimate>,
}

/// The values of the pair (`roller`, `opponent`), with the cube decision of the side on
/// roll in `state` where the table keeps the cube and the game is not over (a side with
/// every checker off has finished it: no cube decision is left), and the one-sided estimate where a
/// one-sided table is given.
pub fn equity(
    table: &TwoSidedTable,
    roller: u64,
    opponent: u64,
    state: CubeState,
    one_sided: Option<&OneSidedTable>,
) -> Result<BearoffEvaluation, Error> {
    let v = table.values(roller, opponent)?;
    let looked = look(&table.kind(), roller, Some(opponent))?;
    let over = game_over(table, roller, opponent)?;
    let estimate = match one_sided {
        None => None,
        Some(os) => {
            let index = table.index();
            let us = os.distributions_of(&index.side(roller)?)?;
            let them = os.distributions_of(&index.side(opponent)?)?;
            let (win, win_gammon, lose_gammon) = estimate(&us, &them);
            let g = table.kind().gammons();
            Some(Estimate {
                win,
                win_gammon: if g { win_gammon } else { 0.0 },
                lose_gammon: if g { lose_gammon } else { 0.0 },
                win_error: win - v.win,
            })
        }
    };
    Ok(BearoffEvaluation {
        evaluation: Evaluation {
            looked,
            equity: v.equity(),
            outcomes: v.outcomes(),
            cube: match over {
                true => None,
                false => v.cubeful.as_ref().map(|c| decide_money(c, state, true)),
            },
            cubeful: v.cubeful,
        },
        one_sided_estimate: estimate,
    })
}

/// The plays of a roll, best first (the family's `Hint`, its plays under `plays`).
#[derive(Debug, Clone, Serialize)]
pub struct BearoffHint {
    /// The position before the roll.
    pub position: String,
    /// Its record.
    pub index: u64,
    /// The roll, smaller die first.
    pub roll: Roll,
    /// The cube state the plays are ranked for, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube: Option<CubeState>,
    /// Every distinct play, best first (each with `play` and `equity`).
    pub plays: Vec<Ranked>,
}

/// Every play of `roll` for the side on roll of the pair, best first: by the cubeful
/// equity of cube state `cube` when given (the table must keep the cube), else by cubeless
/// equity. The plays are the one move generator's, on backgammon's board.
pub fn hint(
    table: &TwoSidedTable,
    roller: u64,
    opponent: u64,
    roll: Roll,
    cube: Option<CubeState>,
) -> Result<BearoffHint, Error> {
    if cube.is_some() && !table.has_cube() {
        return Err(Error::NoCube {
            path: table.table().path().to_path_buf(),
            hint: None,
        });
    }
    let index = table.index();
    let p = index.position(roller, opponent)?;
    let judge = Bearoff::new(table, true);
    let variant = judge.variant();
    let mut plays = Vec::new();
    for j in rank(&judge, &p, roll, cube)? {
        let after = index.side_of(j.play.after.us())?;
        let position = notation::pair(&after, &index.side(opponent)?);
        plays.push(Ranked::of_judged(variant, j, position));
    }
    Ok(BearoffHint {
        position: notation::pair(&index.side(roller)?, &index.side(opponent)?),
        index: index.record(roller, opponent)?,
        roll,
        cube,
        plays,
    })
}

/// Refuses a pair whose game is over (a side with every checker off): at a match score
/// there is no decision left to value.
fn in_play(table: &TwoSidedTable, roller: u64, opponent: u64) -> Result<Position, Error> {
    if game_over(table, roller, opponent)? {
        return Err(Error::Position {
            reason: "the game is over: a side has borne off every checker".into(),
        });
    }
    table.index().position(roller, opponent)
}

/// Whether a side of the pair has borne off every checker: the game is over.
fn game_over(table: &TwoSidedTable, roller: u64, opponent: u64) -> Result<bool, Error> {
    let index = table.index();
    let off = index.rank(&vec![0u8; index.points()])?;
    Ok(roller == off || opponent == off)
}

/// At a match score: the pair's match-winning chance for the side on roll with `cube` if
/// it does not double, its cube decision and the market window, from the bear-off solved
/// at the score (`match_race`, `docs/bearoff.md` "At a match score"), `met` valuing the
/// scores after the game. The answer is the family's at a score
/// (`matchplay::query::evaluate`).
pub fn match_equity(
    table: &TwoSidedTable,
    met: &Met,
    roller: u64,
    opponent: u64,
    score: Score,
    cube: MatchCube,
) -> Result<MatchEvaluation, Error> {
    check_cube(score, cube)?;
    let p = in_play(table, roller, opponent)?;
    let judge = MatchPlay::new(table, met, score)?;
    judge.prepare(&p)?;
    let looked = look(&table.kind(), roller, Some(opponent))?;
    let win = |me: bool, j: u32| judge.won_points(me, j);
    evaluation(&judge, &p, looked, (score, cube), &win)
}

/// At a match score: every play of `roll` for the side on roll of the pair, best first by
/// its match-winning chance with `cube` (the opponent deciding on the cube after it), from
/// the bear-off solved at the score. The answer is the family's at a score
/// (`matchplay::query::hint`).
pub fn match_hint(
    table: &TwoSidedTable,
    met: &Met,
    (roller, opponent): (u64, u64),
    roll: Roll,
    score: Score,
    cube: MatchCube,
) -> Result<MatchHint, Error> {
    check_cube(score, cube)?;
    let p = in_play(table, roller, opponent)?;
    let index = table.index();
    let judge = MatchPlay::new(table, met, score)?;
    judge.prepare(&p)?;
    let them = index.side(opponent)?;
    let before = (
        notation::pair(&index.side(roller)?, &them),
        index.record(roller, opponent)?,
    );
    ranked(&judge, &p, before, (roll, score, cube), |play| {
        Ok(notation::pair(&index.side_of(play.after.us())?, &them))
    })
}

#[cfg(test)]
mod tests {
    use super::super::store::build;
    use super::*;
    use crate::progress::Progress;

    #[test]
    fn the_best_plays_of_the_21_rolls_average_to_the_positions_values() {
        let dir = tempfile::tempdir().unwrap();
        let kind = Kind::two_sided(4, 4, true);
        let path = dir.path().join(kind.file_name());
        build(&kind, &path, Progress::SILENT).unwrap();
        let t = TwoSidedTable::open(&path).unwrap();
        let (us, them) = notation::parse_pair(t.index(), "4,4,3/4,4,4,4").unwrap();
        let e = equity(&t, us, them, CubeState::Centred, None).unwrap();
        assert_eq!(e.evaluation.looked.position, "4,4,3/4,4,4,4");
        let c = e.evaluation.cubeful.unwrap();
        for state in [
            CubeState::Owned,
            CubeState::Centred,
            CubeState::OpponentOwns,
        ] {
            let (mut cubeless, mut cubeful) = (0.0, 0.0);
            for (k, &(a, b)) in super::super::sides::ROLLS.iter().enumerate() {
                let w = super::super::sides::weight(k) / 36.0;
                let h = hint(&t, us, them, Roll::new(a, b), Some(state)).unwrap();
                assert!(h.plays.windows(2).all(|m| m[0].key() >= m[1].key()));
                assert_eq!(h.plays[0].loss, 0.0);
                cubeful += w * h.plays[0].cubeful.unwrap();
                let best = h.plays.iter().map(|m| m.equity).fold(f64::MIN, f64::max);
                cubeless += w * best;
            }
            assert!(
                (cubeful - c[state]).abs() < 1e-8,
                "{state}: {cubeful} {}",
                c[state]
            );
            assert!((cubeless - e.evaluation.equity).abs() < 1e-8);
        }
    }
}
