//! The bear-off questions from their arguments to their typed answers, once for both
//! doors: the command line (`tabula bearoff distribution|equity|hint` prints the answer as
//! text or `--json`) and the HTTP server (`crate::cmd::serve` sends the same answer as
//! JSON, `/api/bearoff/{table}/…`). The position is read against the database's index
//! before any table is opened, so that bad input is refused before a table is looked for.

use std::path::Path;
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
