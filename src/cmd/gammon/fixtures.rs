//! Tables the trainer's tests share, built once per test binary through the library's
//! public builders (the library's own tests have theirs in `gammon::fixtures`).

use std::path::PathBuf;
use std::sync::OnceLock;
use tabula::gammon::matchplay::judge::ScoreTables;
use tabula::gammon::matchplay::store::{self as match_store, file_name, UnitTable};
use tabula::gammon::matchplay::{Score, Unit};
use tabula::gammon::store::{self, Tables};
use tabula::gammon::{Error, Variant};
use tabula::progress::Progress;

/// Two checkers a side on 12 points: games with choices and doubles.
pub const TWO_CHECKERS: &str = "points=12:checkers=2";

/// The tables of `name` (Hypergammon-1 or [`TWO_CHECKERS`]), with the cube or without.
pub fn tables(name: &'static str, cube: bool) -> &'static Tables {
    static CELLS: [OnceLock<Tables>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let cell = match (name, cube) {
        ("hyper1", false) => &CELLS[0],
        ("hyper1", true) => &CELLS[1],
        _ => &CELLS[2],
    };
    cell.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.tbl");
        store::build(
            &Variant::parse(name).unwrap(),
            &path,
            cube,
            Progress::SILENT,
        )
        .unwrap();
        Tables::open(&path).unwrap()
    })
}

/// The tables of Hypergammon-1 at `score` (a match to 3 points at most).
pub fn score_tables(score: Score) -> Result<ScoreTables, Error> {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let v = Variant::parse("hyper1").unwrap();
    let dir = DIR.get_or_init(|| {
        let dir = crate::scratch::folder();
        let place = |u: Unit| dir.join(file_name(&v, u));
        match_store::build(&v, 3, &place, Progress::SILENT).unwrap();
        dir
    });
    let at = |u: Unit| dir.join(file_name(&v, u));
    let (unit, _) = score.unit();
    let dmp = unit
        .reads_dmp()
        .then(|| UnitTable::open(&at(Unit::DMP), None))
        .transpose()?;
    ScoreTables::new(UnitTable::open(&at(unit), None)?, dmp)
}
