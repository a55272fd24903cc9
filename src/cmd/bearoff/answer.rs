//! The bear-off questions from their arguments to their typed answers, once for both
//! doors: the command line (`tabula bearoff distribution|equity|hint` prints the answer as
//! text or `--json`) and the HTTP server (`crate::cmd::serve` sends the same answer as
//! JSON, `/api/bearoff/{table}/…`). The position is read against the database's index
//! before any table is opened, so that bad input is refused before a table is looked for.
//!
//! A race asked without a table named (`bearoff equity P`, `/api/bearoff/race/…`) is
//! answered from the table [`race`] chooses, each door opening it its own way
//! ([`RaceTables`]: the tables folders, or the server's kept tables).

use serde::Serialize;
use std::borrow::Borrow;
use std::path::Path;
use tabula::gammon::bearoff::estimate::{self, EstimatedHint, RaceEstimate};
use tabula::gammon::bearoff::query::{self, BearoffEvaluation, BearoffHint, Distribution};
use tabula::gammon::bearoff::store::{Kind, OneSidedTable, TwoSidedTable};
use tabula::gammon::bearoff::{notation, BearoffIndex};
use tabula::gammon::{CubeState, Roll, Variant};
use tabula::Result;

/// One side of `kind` as given (points, index or Position ID): its rank.
pub fn side(kind: &Kind, position: &str) -> Result<u64> {
    Ok(notation::parse_side(&kind.index()?, position)?)
}

/// Two sides of `kind` as given (`ROLLER/OPPONENT`, record or Position ID): their ranks.
pub fn pair(index: &BearoffIndex, position: &str) -> Result<(u64, u64)> {
    Ok(notation::parse_pair(index, position)?)
}

/// A roll of backgammon's dice (`6-1`, `3-3`).
pub fn roll(text: &str) -> Result<Roll> {
    Ok(tabula::gammon::notation::parse_roll(
        &Variant::backgammon(),
        text,
    )?)
}

/// `distribution`: the distributions of one side.
pub fn distribution(t: &OneSidedTable, position: &str) -> Result<Distribution> {
    let s = side(&t.kind(), position)?;
    Ok(query::distribution(t, s)?)
}

/// `equity`: the pair's exact values and the cube decision in `cube`, with the one-sided
/// estimate of the win where a one-sided table is given.
pub fn equity(
    t: &TwoSidedTable,
    position: &str,
    cube: CubeState,
    one_sided: Option<&OneSidedTable>,
) -> Result<BearoffEvaluation> {
    let (us, them) = pair(t.index(), position)?;
    Ok(query::equity(t, us, them, cube, one_sided)?)
}

/// `hint`: every play of `roll`, best first, by the cubeful equity of `cube` when given
/// (the table must keep the cube), else cubeless.
pub fn hint(
    t: &TwoSidedTable,
    position: &str,
    roll_text: &str,
    cube: Option<CubeState>,
) -> Result<BearoffHint> {
    let r = roll(roll_text)?;
    let (us, them) = pair(t.index(), position)?;
    Ok(query::hint(t, us, them, r, cube)
        .map_err(|e| e.with_hint("build the table with the cube (without --cubeless)"))?)
}

/// The command that builds `kind`'s table (at `given`, when a path was given).
pub fn build_command(kind: &Kind, given: Option<&Path>) -> String {
    let mut cmd = format!(
        "run `tabula bearoff build --points {} --checkers {}",
        kind.points, kind.checkers
    );
    if kind.two_sided {
        cmd.push_str(" --two-sided");
        if !kind.cube {
            cmd.push_str(" --cubeless");
        }
    }
    if let Some(p) = given {
        cmd.push_str(&format!(" --table {}", p.display()));
    }
    cmd.push('`');
    cmd
}

/// The one-sided table at `path`, a missing or damaged one with the command that builds
/// `kind`'s (with `--table` when the path was `given`). A table found under `kind`'s
/// default name (not `given`) must be `kind`'s database.
pub fn open_one_sided(path: &Path, kind: &Kind, given: Option<&Path>) -> Result<OneSidedTable> {
    let advice = |e: tabula::gammon::Error| e.with_hint(&build_command(kind, given));
    let t = OneSidedTable::open(path).map_err(advice)?;
    if given.is_none() {
        kind.expect(&t.kind(), path).map_err(advice)?;
    }
    Ok(t)
}

/// The two-sided table at `path`, as [`open_one_sided`].
pub fn open_two_sided(path: &Path, kind: &Kind, given: Option<&Path>) -> Result<TwoSidedTable> {
    let advice = |e: tabula::gammon::Error| e.with_hint(&build_command(kind, given));
    let t = TwoSidedTable::open(path).map_err(advice)?;
    if given.is_none() {
        kind.expect(&t.kind(), path).map_err(advice)?;
    }
    Ok(t)
}

/// Where a race asked without a table named is answered from, as [`race`] chooses.
#[derive(Debug, Clone, PartialEq)]
pub enum Race {
    /// The two-sided table of this kind: exact.
    Exact(Kind),
    /// The one-sided table of this kind, and the two sides (their checkers on its
    /// points): an estimate.
    Estimate(Kind, Vec<u8>, Vec<u8>),
}

/// The table that answers the race `position` asked of the databases of `points` and
/// `checkers`: the two-sided table of both when the position fits it (below fifteen
/// checkers) and that table is there, or neither fifteen-checker table is (its absence is
/// then what the answer names); else the fifteen-checker two-sided table of `points`,
/// with the cube or else cubeless, when `present` says it is there (it holds every race
/// of its points); else the one-sided table of `points`, whose answer is an estimate. The
/// position is read first: bad input is refused before any table is looked for.
pub fn race(
    points: usize,
    checkers: usize,
    position: &str,
    present: impl Fn(&Kind) -> bool,
) -> Result<Race> {
    let kind = Kind::two_sided(points, checkers, true);
    let fits = pair(&kind.index()?, position);
    let fifteen = [
        Kind::two_sided(points, 15, true),
        Kind::two_sided(points, 15, false),
    ];
    let fifteen_here = fifteen.iter().find(|k| present(k));
    if fits.is_ok() && checkers < 15 && (present(&kind) || fifteen_here.is_none()) {
        return Ok(Race::Exact(kind));
    }
    let index = fifteen[0].index()?;
    let (us, them) = match (pair(&index, position), fits) {
        (Ok(p), _) => p,
        (Err(_), Err(e)) | (Err(e), Ok(_)) => return Err(e),
    };
    if let Some(k) = fifteen_here {
        return Ok(Race::Exact(*k));
    }
    Ok(Race::Estimate(
        Kind::one_sided(points),
        index.side(us)?,
        index.side(them)?,
    ))
}

/// The tables a race is answered from: the command line's tables folders, or the tables
/// the server keeps open.
pub trait RaceTables {
    /// A two-sided table as opened.
    type TwoSided: Borrow<TwoSidedTable>;
    /// A one-sided table as opened.
    type OneSided: Borrow<OneSidedTable>;
    /// Whether `kind`'s table is there.
    fn present(&self, kind: &Kind) -> bool;
    /// `kind`'s two-sided table; a missing one names the command that builds it.
    fn two_sided(&self, kind: &Kind) -> Result<Self::TwoSided>;
    /// The one-sided table the question names, else `kind`'s.
    fn one_sided(&self, kind: &Kind) -> Result<Self::OneSided>;
    /// Whether the question names a one-sided table: its estimate of the win is then
    /// given beside an exact answer.
    fn names_one_sided(&self) -> bool;
}

/// `equity` of a race: exact, or the one-sided estimate (labelled by its `method`).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum RaceEquity {
    /// From a two-sided table.
    Exact(Box<BearoffEvaluation>),
    /// From the one-sided table.
    Estimate(RaceEstimate),
}

/// `hint` of a race: exact, or ranked by the one-sided estimate.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum RaceHint {
    /// From a two-sided table.
    Exact(BearoffHint),
    /// From the one-sided table.
    Estimate(EstimatedHint),
}

/// `equity` of `position` from the two-sided table `t`, with the estimate of the win of
/// the one-sided table the question names, if it names one.
pub fn exact_equity<S: RaceTables>(
    tables: &S,
    t: &TwoSidedTable,
    position: &str,
    cube: CubeState,
) -> Result<BearoffEvaluation> {
    let os = match tables.names_one_sided() {
        true => Some(tables.one_sided(&Kind::one_sided(t.kind().points))?),
        false => None,
    };
    equity(t, position, cube, os.as_ref().map(Borrow::borrow))
}

/// `equity` of the race `position` from the table [`race`] chooses among `tables`.
pub fn race_equity<S: RaceTables>(
    tables: &S,
    points: usize,
    checkers: usize,
    position: &str,
    cube: CubeState,
) -> Result<RaceEquity> {
    Ok(
        match race(points, checkers, position, |k| tables.present(k))? {
            Race::Exact(kind) => {
                let t = tables.two_sided(&kind)?;
                RaceEquity::Exact(Box::new(exact_equity(tables, t.borrow(), position, cube)?))
            }
            Race::Estimate(kind, us, them) => {
                let os = tables.one_sided(&kind)?;
                RaceEquity::Estimate(estimate::race_estimate(os.borrow(), &us, &them)?)
            }
        },
    )
}

/// `hint` of the race `position` from the table [`race`] chooses among `tables`; `cube`
/// as [`hint`]'s (an estimate is cubeless).
pub fn race_hint<S: RaceTables>(
    tables: &S,
    points: usize,
    checkers: usize,
    position: &str,
    roll_text: &str,
    cube: Option<CubeState>,
) -> Result<RaceHint> {
    let r = roll(roll_text)?;
    Ok(
        match race(points, checkers, position, |k| tables.present(k))? {
            Race::Exact(kind) => {
                let t = tables.two_sided(&kind)?;
                RaceHint::Exact(hint(t.borrow(), position, roll_text, cube)?)
            }
            Race::Estimate(kind, us, them) => {
                let os = tables.one_sided(&kind)?;
                RaceHint::Estimate(estimate::hint_estimate(os.borrow(), &us, &them, r)?)
            }
        },
    )
}
