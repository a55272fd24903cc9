//! A tabula table against gnubg's bear-off file of the same database, position by
//! position: the largest difference of each quantity, where it is, and how the
//! differences spread.

use super::{ts_value, Format, GnubgFile, OS_UNIT, ROLLS_KEPT, TS_UNIT};
use crate::gammon::bearoff::notation;
use crate::gammon::bearoff::sides::{weight, Sides, ROLLS};
use crate::gammon::bearoff::store::{Kind, OneSidedTable, TwoSidedTable};
use crate::gammon::Error;
use serde::Serialize;

/// The largest difference of one quantity.
#[derive(Debug, Clone, Serialize)]
pub struct Largest {
    /// The quantity.
    pub quantity: &'static str,
    /// The largest absolute difference.
    pub max_diff: f64,
    /// The same in gnubg's units (1/65535 of a probability one-sided, 1/32767.5 of an
    /// equity two-sided).
    pub units: f64,
    /// Where: the side (one-sided) or the record (two-sided).
    pub index: u64,
    /// Where, as a position.
    pub position: String,
    /// tabula's exact value there.
    pub tabula: f64,
    /// gnubg's value there.
    pub gnubg: f64,
    /// The mean absolute difference over the positions compared.
    pub mean_diff: f64,
    /// Positions differing by more than one unit of gnubg's, by more than 4, by more
    /// than 16.
    pub over: [u64; 3],
    /// At the position with the largest difference, the rolls whose two best plays are
    /// worth the same to within 4 units of gnubg's (exactly, by tabula's values): there
    /// rounded values can choose the other play.
    pub near_ties: usize,
}

/// A comparison of a tabula table with a gnubg file.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// tabula's database.
    pub database: Kind,
    /// gnubg's file.
    pub gnubg: Format,
    /// Positions compared (one-sided: sides; two-sided: pairs where both sides have a
    /// checker).
    pub positions: u64,
    /// The largest difference of each quantity.
    pub max_diff: std::collections::BTreeMap<&'static str, f64>,
    /// Where each largest difference is, and how the differences spread.
    pub quantities: Vec<Largest>,
    /// One-sided: sides whose exact distribution needs more than 31 rolls with a
    /// positive probability (the format truncates them).
    pub beyond_format: u64,
}

impl Comparison {
    /// tabula's database, named.
    pub fn database_name(&self) -> String {
        self.database.name()
    }
}

/// Running maxima of one quantity.
#[derive(Clone, Copy, Default)]
struct Tally {
    max: f64,
    at: u64,
    ours: f64,
    theirs: f64,
    sum: f64,
    over: [u64; 3],
}

impl Tally {
    fn add(&mut self, at: u64, ours: f64, theirs: f64, unit: f64) {
        let d = (ours - theirs).abs();
        if d > self.max {
            *self = Tally {
                max: d,
                at,
                ours,
                theirs,
                ..*self
            };
        }
        self.sum += d;
        for (k, limit) in [1.0, 4.0, 16.0].iter().enumerate() {
            self.over[k] += u64::from(d > limit * unit + 1e-12);
        }
    }
}

/// Compares a one-sided table with gnubg's one-sided file of the same points.
pub fn compare_one_sided(t: &OneSidedTable, file: &GnubgFile) -> Result<Comparison, Error> {
    let Format::OneSided { points, gammon, .. } = file.format() else {
        return Err(mismatch(t.kind(), file));
    };
    if points != t.kind().points {
        return Err(mismatch(t.kind(), file));
    }
    let n = t.index().sides();
    let mut tallies = [Tally::default(); 4];
    let mut beyond = 0u64;
    let mean = |d: &[f64]| d.iter().enumerate().map(|(i, p)| i as f64 * p).sum::<f64>();
    for s in 0..n {
        let ours = t.distributions(s)?;
        let theirs = file.one_sided(s)?;
        beyond += u64::from(ours.rolls.len() > ROLLS_KEPT);
        let g = ours.gammon_rolls.clone().unwrap_or_else(|| vec![1.0]);
        let as_f = |a: &[u16; ROLLS_KEPT]| a.map(|u| f64::from(u) * OS_UNIT);
        let (tr, tg) = (as_f(&theirs.rolls), as_f(&theirs.gammon));
        for i in 0..ROLLS_KEPT {
            tallies[0].add(s, ours.rolls.get(i).copied().unwrap_or(0.0), tr[i], OS_UNIT);
            if gammon {
                tallies[1].add(s, g.get(i).copied().unwrap_or(0.0), tg[i], OS_UNIT);
            }
        }
        tallies[2].add(s, mean(&ours.rolls), mean(&tr), OS_UNIT);
        if gammon && ours.gammon_rolls.is_some() {
            tallies[3].add(s, mean(&g), mean(&tg), OS_UNIT);
        }
    }
    let index = t.index().clone();
    let names = ["rolls", "gammon_rolls", "mean", "gammon_mean"];
    let sides = Sides::new(&index);
    let quantities = names
        .iter()
        .zip(&tallies)
        .filter(|(name, _)| gammon || !name.starts_with("gammon"))
        .map(|(&name, tally)| {
            let ties = one_sided_ties(t, &sides, tally.at, name.starts_with("gammon"))?;
            Ok(largest(
                name,
                tally,
                n,
                OS_UNIT,
                notation::side(&index.side(tally.at)?),
                ties,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(Comparison {
        database: t.kind(),
        gnubg: file.format(),
        positions: n,
        max_diff: quantities
            .iter()
            .map(|q| (q.quantity, q.max_diff))
            .collect(),
        quantities,
        beyond_format: beyond,
    })
}

fn largest(
    quantity: &'static str,
    t: &Tally,
    count: u64,
    unit: f64,
    position: String,
    near_ties: usize,
) -> Largest {
    Largest {
        quantity,
        max_diff: t.max,
        units: t.max / unit,
        index: t.at,
        position,
        tabula: t.ours,
        gnubg: t.theirs,
        mean_diff: t.sum / count.max(1) as f64,
        over: t.over,
        near_ties,
    }
}

fn mismatch(kind: Kind, file: &GnubgFile) -> Error {
    Error::BearoffFile {
        path: file.path().to_path_buf(),
        reason: format!(
            "holds {}, not the database of the table ({})",
            match file.format() {
                Format::OneSided { points, .. } =>
                    format!("a one-sided database of {points} points"),
                Format::TwoSided {
                    points, checkers, ..
                } => format!("a two-sided database of {points}x{checkers}"),
            },
            kind.line()
        ),
    }
}

/// The rolls of side `s` whose two best plays' exact expectations differ by less than
/// four units of gnubg's one-sided format (a probability unit, as an expectation of
/// rolls).
fn one_sided_ties(t: &OneSidedTable, sides: &Sides, s: u64, gammon: bool) -> Result<usize, Error> {
    let mut plays = Vec::new();
    let mut ties = 0;
    let value = |r: u32| -> Result<f64, Error> {
        let d = t.distributions(u64::from(r))?;
        let d = if gammon {
            match d.gammon_rolls {
                Some(g) => g,
                None => return Ok(0.0),
            }
        } else {
            d.rolls
        };
        Ok(d.iter().enumerate().map(|(i, p)| i as f64 * p).sum())
    };
    for k in 0..ROLLS.len() {
        sides.plays_into(s as u32, k, &mut plays);
        let mut values = plays
            .iter()
            .map(|&r| value(r))
            .collect::<Result<Vec<_>, _>>()?;
        values.sort_by(f64::total_cmp);
        ties += usize::from(values.len() > 1 && values[1] - values[0] < 4.0 * OS_UNIT);
    }
    Ok(ties)
}

/// Compares a two-sided table with gnubg's two-sided file of the same size.
pub fn compare_two_sided(t: &TwoSidedTable, file: &GnubgFile) -> Result<Comparison, Error> {
    let k = t.kind();
    let Format::TwoSided {
        points,
        checkers,
        cubeful,
    } = file.format()
    else {
        return Err(mismatch(k, file));
    };
    if (points, checkers) != (k.points, k.checkers) || k.gammons() {
        return Err(mismatch(k, file));
    }
    let index = t.index().clone();
    let n = index.sides();
    let quantities = if cubeful && k.cube { 4 } else { 1 };
    let mut tallies = [Tally::default(); 4];
    let mut compared = 0u64;
    for us in 1..n {
        for them in 1..n {
            let r = us * n + them;
            let ours = t.values_at(r)?;
            let theirs = file.two_sided(r)?;
            compared += 1;
            tallies[0].add(r, 2.0 * ours.win - 1.0, ts_value(theirs[0]), TS_UNIT);
            if let (Some(c), true) = (ours.cubeful, quantities == 4) {
                for (i, e) in [c.owned, c.centred, c.opponent_owns].iter().enumerate() {
                    tallies[1 + i].add(r, *e, ts_value(theirs[1 + i]), TS_UNIT);
                }
            }
        }
    }
    let names = ["equity", "owned", "centred", "opponent_owns"];
    let sides = Sides::new(&index);
    let list = names
        .iter()
        .zip(&tallies)
        .take(quantities)
        .map(|(&name, tally)| {
            let (us, them) = index.split(tally.at)?;
            let ties = two_sided_ties(t, &sides, us, them)?;
            Ok(largest(
                name,
                tally,
                compared,
                TS_UNIT,
                notation::pair(&index.side(us)?, &index.side(them)?),
                ties,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(Comparison {
        database: k,
        gnubg: file.format(),
        positions: compared,
        max_diff: list.iter().map(|q| (q.quantity, q.max_diff)).collect(),
        quantities: list,
        beyond_format: 0,
    })
}

/// The rolls of the pair whose two best plays' exact winning chances differ by less than
/// four units of gnubg's two-sided format.
fn two_sided_ties(t: &TwoSidedTable, sides: &Sides, us: u64, them: u64) -> Result<usize, Error> {
    let mut plays = Vec::new();
    let mut ties = 0;
    for k in 0..ROLLS.len() {
        sides.plays_into(us as u32, k, &mut plays);
        let mut values = plays
            .iter()
            .map(|&r| {
                if r == 0 {
                    Ok(1.0)
                } else {
                    t.values(them, u64::from(r)).map(|v| 1.0 - v.win)
                }
            })
            .collect::<Result<Vec<_>, Error>>()?;
        values.sort_by(|a, b| b.total_cmp(a));
        let _ = weight(k);
        ties += usize::from(values.len() > 1 && 2.0 * (values[0] - values[1]) < 4.0 * TS_UNIT);
    }
    Ok(ties)
}
