//! A unit's table (`docs/gammon.md`, "Match play"): one file a unit of a variant's match,
//! `<variant>.match-<unit>.tbl` (`hyper2.match-3-5.tbl`), in the project's checked format,
//! kind `gammon-match`.
//!
//! One record per number of the variant's index, [`Unit::width`] values: for each
//! perspective of the unit (the side on roll needs `a`, then `b`; one when `a = b`), the
//! no-double match-winning chance of the side on roll with the cube centred (or in the
//! Crawford game), then owning and facing each live cube level in turn, each
//! `round(MWC · (2^32 − 1))` (layout `u32xW`). At 1-1 the record is the match equity
//! `2 · MWC − 1` as an `f64` (layout `f64`): every other unit with the cube reads it
//! exactly where a double kills the cube. Records that are not states are zero. After the
//! records, a *trailer* of whole records holds `f64` values (each two `u32`, low half
//! first): the match equity of the first perspective at the start of a game, then, for
//! each perspective, the match equity after it wins 1, 2, … points short of the match. A
//! unit's table therefore answers every question at its score alone, and hands the units
//! above it their inputs exactly, whichever process solved it.

use super::score::Unit;
use super::solve::{Inputs, MatchSolver, UnitReport, UnitSolution};
use crate::gammon::store::{self as family, Written};
use crate::gammon::variant::{Numbering, Variant};
use crate::gammon::{Error, Numbers};
use crate::progress::{Parts, Progress};
use crate::table::{self, Descriptor, Reader, Table, TableError};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Kind of a unit's table.
pub const KIND: &str = "gammon-match";
/// Stored chance = round(p × CHANCE_SCALE).
pub const CHANCE_SCALE: f64 = u32::MAX as f64;

/// Calls `$f::<[u32; W]>($args)` for the record width `$w` (every width a unit can
/// have up to 64 points).
macro_rules! by_width {
    ($w:expr, $f:ident ($($arg:expr),*)) => {
        match $w {
            1 => $f::<[u32; 1]>($($arg),*),
            2 => $f::<[u32; 2]>($($arg),*),
            3 => $f::<[u32; 3]>($($arg),*),
            5 => $f::<[u32; 5]>($($arg),*),
            6 => $f::<[u32; 6]>($($arg),*),
            7 => $f::<[u32; 7]>($($arg),*),
            9 => $f::<[u32; 9]>($($arg),*),
            10 => $f::<[u32; 10]>($($arg),*),
            11 => $f::<[u32; 11]>($($arg),*),
            14 => $f::<[u32; 14]>($($arg),*),
            18 => $f::<[u32; 18]>($($arg),*),
            22 => $f::<[u32; 22]>($($arg),*),
            w => unreachable!("no unit has records of {w} values"),
        }
    };
}

/// The file name of a unit's table: the variant's table stem, `.match-`, the unit.
pub fn file_name(variant: &Variant, unit: Unit) -> String {
    let family = family::file_name(variant);
    let stem = family.strip_suffix(".tbl").unwrap_or(&family);
    format!("{stem}.match-{}.tbl", unit.name())
}

const SEED: &str = "seed index";
const GNUBG: &str = "gnubg index";

/// A unit table's variant line: the rules, the unit, the numbering.
fn line(variant: &Variant, unit: Unit) -> String {
    let numbering = match variant.numbering {
        Numbering::Seed => SEED,
        Numbering::Gnubg => GNUBG,
    };
    format!("{}; match {}; {numbering}", variant.describe(), unit.name())
}

/// The variant and unit a variant line names.
fn of_line(text: &str) -> Option<(Variant, Unit)> {
    let mut parts = text.split("; ");
    let (rules, unit, numbering) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let unit = Unit::parse(unit.strip_prefix("match ")?)?;
    let mut v = Variant::parse(rules).ok()?;
    v.numbering = match numbering {
        SEED => Numbering::Seed,
        GNUBG => Numbering::Gnubg,
        _ => return None,
    };
    (v.describe() == rules).then(|| (v.recognised(), unit))
}

/// A chance as stored.
fn quantise(mwc: f64) -> u32 {
    (mwc.clamp(0.0, 1.0) * CHANCE_SCALE).round() as u32
}

/// The `f64`s of a trailer, after `records` records of `width` values.
fn trailer(solution: &UnitSolution) -> Vec<f64> {
    let mut out = vec![solution.start];
    out.extend(&solution.won[0]);
    out.extend(&solution.won[1]);
    out
}

/// The records of a solved unit, then its trailer, as `u32`s.
fn payload(solution: &UnitSolution, records: u64, at: &[u64]) -> Vec<u32> {
    let unit = solution.unit;
    let w = unit.width();
    let mut flat = vec![0u32; records as usize * w];
    for (i, &r) in at.iter().enumerate() {
        let row = &mut flat[r as usize * w..(r as usize + 1) * w];
        if unit == Unit::DMP {
            let bits = solution.columns[0][i].to_bits();
            row.copy_from_slice(&[bits as u32, (bits >> 32) as u32]);
        } else {
            for (cell, column) in row.iter_mut().zip(&solution.columns) {
                *cell = quantise((1.0 + column[i]) / 2.0);
            }
        }
    }
    for e in trailer(solution) {
        let bits = e.to_bits();
        flat.extend([bits as u32, (bits >> 32) as u32]);
    }
    flat.resize(flat.len().div_ceil(w) * w, 0);
    flat
}

fn stage_as<T: bytemuck::Pod>(
    path: &Path,
    d: Descriptor<'_>,
    flat: &[u32],
) -> Result<table::Staged, TableError> {
    table::stage(path, d, bytemuck::cast_slice::<u32, T>(flat))
}

/// Writes a solved unit's table at `path`, atomically.
pub fn write(
    path: &Path,
    variant: &Variant,
    solution: &UnitSolution,
    at: &[u64],
) -> Result<Written, Error> {
    let unit = solution.unit;
    let numbers = Numbers::new(variant)?;
    let flat = payload(solution, numbers.records(), at);
    let w = unit.width();
    table::prepare(
        &[path],
        table::file_len(4 * w as u32, (flat.len() / w) as u64),
    )?;
    let layout = layout(unit);
    let text = line(variant, unit);
    let d = Descriptor {
        kind: KIND,
        layout: &layout,
        variant: &text,
    };
    let staged = by_width!(w, stage_as(path, d, &flat))?;
    let header = table::publish(vec![staged])?.remove(0);
    Ok(Written {
        path: path.to_path_buf(),
        kind: header.kind.clone(),
        checksum: header.checksum_hex(),
    })
}

/// A unit's table, opened for questions.
pub struct UnitTable {
    table: Table,
    variant: Variant,
    unit: Unit,
    numbers: Numbers,
    /// The trailer's values: start, then each perspective's wins.
    trailer: Vec<f64>,
}

/// The record layout of `unit`'s table.
fn layout(unit: Unit) -> String {
    if unit == Unit::DMP {
        "f64".to_string()
    } else {
        format!("u32x{}", unit.width())
    }
}

fn malformed(path: &Path, message: String) -> Error {
    TableError::Malformed {
        path: path.to_path_buf(),
        message,
    }
    .into()
}

fn read_as<T: bytemuck::Pod>(table: &Table, i: u64, out: &mut Vec<u32>) -> Result<(), TableError> {
    let record: T = table.record(i)?;
    out.clear();
    out.extend_from_slice(bytemuck::cast_slice(std::slice::from_ref(&record)));
    Ok(())
}

impl UnitTable {
    /// Opens the table at `path` (checking its kind, variant line, layout and size); with
    /// `expected`, refuses a table of another variant or unit.
    pub fn open(path: &Path, expected: Option<(&Variant, Unit)>) -> Result<UnitTable, Error> {
        UnitTable::open_with(path, expected, Reader::Map)
    }

    /// As [`UnitTable::open`] with the reader `reader` (a long-lived process reads
    /// through the cache of verified blocks, `docs/table-format.md`).
    pub fn open_with(
        path: &Path,
        expected: Option<(&Variant, Unit)>,
        reader: Reader<'_>,
    ) -> Result<UnitTable, Error> {
        let table = reader.open(path)?;
        table.expect_kind(KIND)?;
        let text = table.header().variant.clone();
        let (variant, unit) = of_line(&text).ok_or_else(|| {
            malformed(
                path,
                format!(
                    "its variant line {} names no variant and score",
                    crate::fault::excerpt(&text)
                ),
            )
        })?;
        if let Some((v, u)) = expected {
            table.expect_variant(&line(v, u))?;
        }
        let w = unit.width();
        if table.header().record_size as usize != 4 * w || table.header().layout != layout(unit) {
            return Err(TableError::Layout {
                path: path.to_path_buf(),
                layout: table.header().layout.clone(),
                expected: 4 * w,
                found: table.header().record_size,
            }
            .into());
        }
        let numbers = Numbers::new(&variant)?;
        let values = 1 + (unit.a - 1) as usize + (unit.b - 1) as usize;
        let extra = (2 * values).div_ceil(w) as u64;
        if table.header().record_count != numbers.records() + extra {
            return Err(malformed(
                path,
                format!(
                    "holds {} records, expected {}",
                    table.header().record_count,
                    numbers.records() + extra
                ),
            ));
        }
        let mut words = Vec::new();
        let mut row = Vec::new();
        for r in numbers.records()..numbers.records() + extra {
            by_width!(w, read_as(&table, r, &mut row))?;
            words.extend_from_slice(&row);
        }
        let trailer = words[..2 * values]
            .chunks(2)
            .map(|p| f64::from_bits(u64::from(p[0]) | u64::from(p[1]) << 32))
            .collect();
        Ok(UnitTable {
            table,
            variant,
            unit,
            numbers,
            trailer,
        })
    }

    /// The unit.
    pub fn unit(&self) -> Unit {
        self.unit
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The variant's numbering.
    pub fn numbers(&self) -> &Numbers {
        &self.numbers
    }

    /// The file.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The match equity of the unit's first perspective at the start of a game.
    pub fn start(&self) -> f64 {
        self.trailer[0]
    }

    /// The match equity of perspective `second` after it wins `points` (1 for the match).
    pub fn won(&self, second: bool, points: u32) -> f64 {
        let u = self.unit;
        let need = u.score(second).on_roll;
        if points >= need {
            return 1.0;
        }
        let at = if second { u.a as usize } else { 1 };
        self.trailer[at + points as usize - 1]
    }

    /// The stored values of record `record` (see the module's documentation).
    pub fn row(&self, record: u64) -> Result<Vec<u32>, Error> {
        let mut row = Vec::new();
        by_width!(self.unit.width(), read_as(&self.table, record, &mut row))?;
        Ok(row)
    }

    /// At 1-1: the match equity of every record (zero where no state), every block checked.
    pub fn dmp_equities(&self) -> Result<Vec<f64>, Error> {
        if self.unit != Unit::DMP {
            return Err(malformed(
                self.table.path(),
                "is not the table of 1-1".into(),
            ));
        }
        let records = self.table.records::<[u32; 2]>()?;
        Ok(records[..self.numbers.records() as usize]
            .iter()
            .map(|p| f64::from_bits(u64::from(p[0]) | u64::from(p[1]) << 32))
            .collect())
    }
}

/// A unit built or found by [`build`].
#[derive(Debug, Clone, Serialize)]
pub struct UnitBuilt {
    /// The unit's name.
    pub unit: String,
    /// The table.
    pub table: Written,
    /// How its solve went; none when the table was there already.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solve: Option<UnitReport>,
    /// The match-winning chance of the side needing the smaller score at the start of a
    /// game (as the table keeps it exactly).
    pub start_mwc: f64,
}

/// Where each unit's table lies.
pub type Place<'a> = &'a dyn Fn(Unit) -> PathBuf;

/// The start values (and, at 1-1, the values by state) of the units found or solved.
struct Known {
    starts: HashMap<Unit, f64>,
    dmp: Option<Vec<f64>>,
}

impl Known {
    /// Takes a unit's table into account.
    fn add(&mut self, t: &UnitTable, at: Option<&[u64]>) -> Result<(), Error> {
        self.starts.insert(t.unit(), t.start());
        if t.unit() == Unit::DMP {
            if let Some(at) = at {
                let all = t.dmp_equities()?;
                self.dmp = Some(at.iter().map(|&r| all[r as usize]).collect());
            }
        }
        Ok(())
    }
}

fn found(t: &UnitTable) -> UnitBuilt {
    let h = t.table().header();
    UnitBuilt {
        unit: t.unit().name(),
        table: Written {
            path: t.table().path().to_path_buf(),
            kind: h.kind.clone(),
            checksum: h.checksum_hex(),
        },
        solve: None,
        start_mwc: (1.0 + t.start()) / 2.0,
    }
}

/// Solves `unit` of `variant` from the tables of the units below it (which must exist
/// where `place` says) and writes its table there; `solver` is the variant's board when
/// the caller has one already.
pub fn build_unit(
    variant: &Variant,
    unit: Unit,
    place: Place<'_>,
    solver: Option<&MatchSolver>,
    progress: Progress<'_>,
) -> Result<UnitBuilt, Error> {
    let built;
    let solver = match solver {
        Some(s) => s,
        None => {
            built = MatchSolver::new(variant, progress)?;
            &built
        }
    };
    let mut known = Known {
        starts: HashMap::new(),
        dmp: None,
    };
    let mut needed = unit.inputs();
    if unit.reads_dmp() && !needed.contains(&Unit::DMP) {
        needed.push(Unit::DMP);
    }
    for input in needed {
        let t = UnitTable::open(&place(input), Some((variant, input)))?;
        known.add(&t, Some(solver.records()))?;
    }
    solve_and_write(variant, unit, place, solver, &known, progress)
}

fn solve_and_write(
    variant: &Variant,
    unit: Unit,
    place: Place<'_>,
    solver: &MatchSolver,
    known: &Known,
    progress: Progress<'_>,
) -> Result<UnitBuilt, Error> {
    let inputs = Inputs {
        starts: &known.starts,
        dmp: known.dmp.as_deref(),
    };
    let solution = solver.solve(unit, &inputs, progress)?;
    let table = write(&place(unit), variant, &solution, solver.records())?;
    Ok(UnitBuilt {
        unit: unit.name(),
        table,
        start_mwc: (1.0 + solution.start) / 2.0,
        solve: Some(solution.report),
    })
}

/// A unit's expected work, in the units of [`Parts`]: its pairs of values a state (a
/// sweep's time goes on reading its successors' values, 16 bytes a pair; `benchmarks.md`,
/// "Match play").
fn work(unit: Unit) -> u64 {
    // 1-1 solves one value a state (its table keeps it as the two halves of an f64).
    let values = if unit == Unit::DMP { 1 } else { unit.width() };
    values.div_ceil(2) as u64
}

/// Every unit of a match to `length`: the tables found where `place` says are read, the
/// others solved in order (on one board, built when the first is needed) and written.
/// Returns each unit's report and the start values. Reports where the match stands
/// ([`Parts`], stage `"scores"`, a unit's work its pairs of values a state) as each unit
/// begins and ends.
pub fn build(
    variant: &Variant,
    length: u32,
    place: Place<'_>,
    progress: Progress<'_>,
) -> Result<(Vec<UnitBuilt>, HashMap<Unit, f64>), Error> {
    super::score::check_length(length)?;
    let mut solver: Option<MatchSolver> = None;
    let mut known = Known {
        starts: HashMap::new(),
        dmp: None,
    };
    let mut out = Vec::new();
    let units = Unit::all(length);
    let mut parts = Parts {
        stage: "scores",
        done: 0,
        total: units.len() as u64,
        work_done: 0,
        work: units.iter().map(|&u| work(u)).sum(),
        current: None,
    };
    progress.parts(parts);
    for unit in units {
        let path = place(unit);
        if path.exists() {
            let t = UnitTable::open(&path, Some((variant, unit)))?;
            known.add(&t, solver.as_ref().map(MatchSolver::records))?;
            out.push(found(&t));
            parts.done += 1;
            parts.work_done += work(unit);
            progress.parts(parts);
            continue;
        }
        let name = unit.name();
        progress.parts(Parts {
            current: Some(&name),
            ..parts
        });
        if solver.is_none() {
            progress.start("numbering the states", None);
            let s = MatchSolver::new(variant, progress)?;
            // 1-1's values, found before the board was built, are read now.
            if known.dmp.is_none() && known.starts.contains_key(&Unit::DMP) {
                let t = UnitTable::open(&place(Unit::DMP), Some((variant, Unit::DMP)))?;
                known.add(&t, Some(s.records()))?;
            }
            solver = Some(s);
        }
        let s = solver.as_ref().expect("built");
        let b = solve_and_write(variant, unit, place, s, &known, progress)?;
        let t = UnitTable::open(&path, Some((variant, unit)))?;
        known.add(&t, Some(s.records()))?;
        out.push(b);
        parts.done += 1;
        parts.work_done += work(unit);
        progress.parts(parts);
    }
    Ok((out, known.starts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Event;
    use std::sync::Mutex;

    /// The `Parts` events of a build of hyper1 to `length` in `dir`: done, work done,
    /// the part under way.
    fn parts_of(dir: &Path, length: u32) -> (Vec<(u64, u64, Option<String>)>, u64) {
        let v = Variant::parse("hyper1").unwrap();
        let seen = Mutex::new((Vec::new(), 0));
        let record = |e: Event<'_>| {
            if let Event::Parts(p) = e {
                let mut seen = seen.lock().unwrap();
                assert_eq!(
                    (p.stage, p.total),
                    ("scores", Unit::all(length).len() as u64)
                );
                seen.0
                    .push((p.done, p.work_done, p.current.map(str::to_string)));
                seen.1 = p.work;
            }
        };
        let place = |u: Unit| dir.join(format!("hyper1.match-{}.tbl", u.name()));
        build(&v, length, &place, Progress::new(&record)).unwrap();
        seen.into_inner().unwrap()
    }

    // A match build reports where it stands: each score under way, then done, its work
    // its pairs of values; a second build finds every table and reports each done.
    #[test]
    fn a_match_build_reports_each_score_under_way_and_done_and_their_work() {
        let dir = tempfile::tempdir().unwrap();
        let units = Unit::all(4);
        let (events, total_work) = parts_of(dir.path(), 4);
        assert_eq!(events.len(), 1 + 2 * units.len());
        assert_eq!(events[0], (0, 0, None));
        let mut work_done = 0;
        for (i, u) in units.iter().enumerate() {
            assert_eq!(events[1 + 2 * i], (i as u64, work_done, Some(u.name())));
            work_done += work(*u);
            assert_eq!(events[2 + 2 * i], (i as u64 + 1, work_done, None));
        }
        assert_eq!(work_done, total_work);
        // 4-4 keeps the centred cube and owning and facing level 2: 3 values, 2 pairs;
        // 1-1 one value; a Crawford game two.
        assert_eq!(work(Unit::parse("4-4").unwrap()), 2);
        assert_eq!(work(Unit::DMP), 1);
        assert_eq!(work(Unit::parse("1-3-crawford").unwrap()), 1);
        let (again, _) = parts_of(dir.path(), 4);
        assert!(again.iter().all(|(_, _, current)| current.is_none()));
        assert_eq!(again.last().unwrap().0, units.len() as u64);
    }
}
