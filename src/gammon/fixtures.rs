//! Tables the library's tests share, built once per test binary: memory-mapped, then
//! their folder removed (a match's folder is kept until the process ends).

use super::matchplay::judge::ScoreTables;
use super::matchplay::store::{file_name, UnitTable};
use super::matchplay::{Score, Unit};
use super::store::Tables;
use super::{Error, Variant};
use crate::progress::Progress;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Two checkers a side on 12 points: games with choices and doubles, its tables with the
/// cube built in a tenth of Hypergammon-2's time.
pub const TWO_CHECKERS: &str = "points=12:checkers=2";

/// The tables of `name` (Hypergammon-1 or [`TWO_CHECKERS`]), with the cube or without.
pub fn tables(name: &'static str, cube: bool) -> &'static Tables {
    static CELLS: [OnceLock<Tables>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let cell = match (name, cube) {
        ("hyper1", false) => &CELLS[0],
        ("hyper1", true) => &CELLS[1],
        (TWO_CHECKERS, true) => &CELLS[2],
        _ => unreachable!("no test uses {name} (cube: {cube})"),
    };
    cell.get_or_init(|| {
        let v = Variant::parse(name).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.tbl");
        super::store::build(&v, &path, cube, Progress::SILENT).unwrap();
        Tables::open(&path).unwrap()
    })
}

/// Hypergammon-1's match tables to 3 points.
fn match_folder() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let v = Variant::parse("hyper1").unwrap();
        let dir = crate::scratch::folder();
        let place = |u: Unit| dir.join(file_name(&v, u));
        super::matchplay::store::build(&v, 3, &place, Progress::SILENT).unwrap();
        dir
    })
}

/// The tables of Hypergammon-1 at `score` (a match to 3 points at most).
pub fn score_tables(score: Score) -> Result<ScoreTables, Error> {
    let v = Variant::parse("hyper1").unwrap();
    let dir = match_folder();
    let at = |u: Unit| dir.join(file_name(&v, u));
    let (unit, _) = score.unit();
    let dmp = unit
        .reads_dmp()
        .then(|| UnitTable::open(&at(Unit::DMP), None))
        .transpose()?;
    ScoreTables::new(UnitTable::open(&at(unit), None)?, dmp)
}
