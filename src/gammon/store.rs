//! The family's tables on disk (`docs/gammon.md`, "Tables"). One table a variant, in the
//! project's checked format (`docs/table-format.md`), one record per number of the
//! variant's index (gnubg's records, illegal and finished ones included, or the article's
//! states): six `u32`, the cubeless equity of the side on roll as a signed fixed-point
//! number (`round(e · 2^29)`, as `i32` bits) and the five chances gnubg keeps — win, win a
//! gammon or more, win a backgammon, lose a gammon or more, lose a backgammon — each
//! `round(p · (2^32 - 1))`: a billionth of a point, far finer than gnubg's 24 bits.
//! Records that are not states are all zero.
//!
//! Beside it (same stem, extension `cube`) the cube table: four `i32` a record, the
//! no-double equities `round(e · 2^29)` indexed by [`super::CubeState::index`]. Its header names
//! the cubeless table's checksum, so a mismatched pair is refused. A table knows its
//! variant: its header's variant line describes the rules and the numbering.

use super::numbering::Numbers;
use super::solver::{self, Exclusive, SolveReport};
use super::variant::{Numbering, Variant};
use super::{Bounds, Cubeful, Error, Evaluator, Outcomes};
use crate::progress::Progress;
use crate::table::{self, Descriptor, Reader, Table, TableError};
use serde::Serialize;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Kind of a family table.
pub const KIND: &str = "gammon-cubeless";
/// Layout of its records.
pub const LAYOUT: &str = "u32x6";
/// Stored equity = round(e × EQUITY_SCALE).
pub const EQUITY_SCALE: f64 = (1u64 << 29) as f64;
/// Stored chance = round(p × CHANCE_SCALE).
pub const CHANCE_SCALE: f64 = u32::MAX as f64;

/// A record: the equity's bits, then the five chances.
pub type Record = [u32; 6];

/// Kind of a cube table (beside the cubeless one, extension `cube`).
pub const CUBE_KIND: &str = "gammon-cubeful";
/// Layout of its records: the four no-double equities, each `round(e · 2^29)` as `i32`
/// bits, indexed by [`super::CubeState::index`].
pub const CUBE_LAYOUT: &str = "i32x4";

/// A cube record.
pub type CubeRecord = [u32; 4];

/// The cube table that goes with the cubeless table at `path`.
pub fn cube_path(path: &Path) -> PathBuf {
    path.with_extension("cube")
}

/// The file name of a variant's table: `<name>.tbl`, a description's `:`, `=` and `,`
/// made safe for a file name.
pub fn file_name(variant: &Variant) -> String {
    let name: String = variant
        .name()
        .chars()
        .map(|c| match c {
            ':' => '_',
            ',' => '.',
            '=' => '-',
            c => c,
        })
        .collect();
    format!("{name}.tbl")
}

const CUBELESS: &str = "cubeless";
const SEED: &str = "seed index";
const GNUBG: &str = "gnubg index";

/// The mark of a table whose values are gnubg's, read from its database.
const FROM_GNUBG: &str = "from gnubg";

/// The table's variant line: the rules and the numbering.
pub fn variant_line(variant: &Variant) -> String {
    let numbering = match variant.numbering {
        Numbering::Seed => SEED,
        Numbering::Gnubg => GNUBG,
    };
    format!("{}; {CUBELESS}; {numbering}", variant.describe())
}

/// The variant a table's variant line names (see [`variant_line`]), if it names one. A
/// table imported from gnubg says so at the end of its line.
pub fn variant_of_line(line: &str) -> Option<Variant> {
    let line = line
        .strip_suffix(&format!("; {FROM_GNUBG}"))
        .unwrap_or(line);
    let mut parts = line.split("; ");
    let (rules, cubeless, numbering) = (parts.next()?, parts.next()?, parts.next()?);
    if cubeless != CUBELESS || parts.next().is_some() {
        return None;
    }
    let numbering = match numbering {
        SEED => Numbering::Seed,
        GNUBG => Numbering::Gnubg,
        _ => return None,
    };
    let mut v = Variant::parse(rules).ok()?;
    v.numbering = numbering;
    // Only a description: a built-in's name is not a variant line.
    (v.describe() == rules).then(|| v.recognised())
}

fn cube_line(variant: &Variant, checksum: &str) -> String {
    format!("{}; cube; equity {}", variant.describe(), &checksum[..16])
}

/// A table written by a build.
#[derive(Debug, Clone, Serialize)]
pub struct Written {
    /// Where it was published.
    pub path: PathBuf,
    /// Its kind (`docs/table-format.md`).
    pub kind: String,
    /// Its payload's SHA-256, in hex.
    pub checksum: String,
}

impl Written {
    /// The tables published at `targets`, with the `headers` they were published with.
    pub fn list(targets: Vec<PathBuf>, headers: Vec<crate::table::Header>) -> Vec<Written> {
        targets
            .into_iter()
            .zip(headers)
            .map(|(path, h)| Written {
                path,
                kind: h.kind.clone(),
                checksum: h.checksum_hex(),
            })
            .collect()
    }
}

/// What a build did: the tables it published and how the solve went.
#[derive(Debug, Clone, Serialize)]
pub struct BuildReport {
    /// The variant's name.
    pub variant: String,
    /// The tables published, the main one first.
    pub tables: Vec<Written>,
    /// Records in a table.
    pub records: u64,
    /// How the solve went.
    #[serde(flatten)]
    pub solve: SolveReport,
    /// Wall time of the whole build, writing the tables included, in seconds.
    pub seconds: f64,
    /// The solved (unrounded) cubeless equity of the opening position for the side on roll.
    pub opening_equity: f64,
}

/// Quantises a state's results into a record.
fn encode(e: f64, o: &Exclusive) -> Record {
    let p = |x: f64| (x.clamp(0.0, 1.0) * CHANCE_SCALE).round() as u32;
    let [_, wg, wb, _, lg, lb] = *o;
    [
        quantise(e),
        p(o[0] + o[1] + o[2]),
        p(wg + wb),
        p(wb),
        p(lg + lb),
        p(lb),
    ]
}

/// An equity as stored: `round(e · 2^29)` as `i32` bits.
fn quantise(e: f64) -> u32 {
    ((e * EQUITY_SCALE).round() as i32) as u32
}

/// An equity as read back.
fn dequantise(u: u32) -> f64 {
    f64::from(u as i32) / EQUITY_SCALE
}

/// The equity of a record.
pub fn decode_equity(r: &Record) -> f64 {
    dequantise(r[0])
}

/// The outcome chances of a record.
pub fn decode_outcomes(r: &Record) -> Outcomes {
    let p = |i: usize| f64::from(r[i]) / CHANCE_SCALE;
    let (win, wg, wb, lg, lb) = (p(1), p(2), p(3), p(4), p(5));
    Outcomes {
        win,
        win_gammon: wg,
        win_backgammon: wb,
        // A game no side can ever move in is stored as all zero: it is never lost.
        lose: if win == 0.0 && decode_equity(r) == 0.0 {
            0.0
        } else {
            1.0 - win
        },
        lose_gammon: lg,
        lose_backgammon: lb,
    }
}

/// The four no-double equities of a cube record.
pub fn decode_cube(r: &CubeRecord) -> Cubeful {
    Cubeful::from_array(r.map(dequantise))
}

/// Solves `variant` (with the cube's four no-double equities when `cube`) and publishes
/// its table at `path` and, with the cube, the cube table beside it ([`cube_path`]), all
/// or nothing (`docs/table-format.md`). The folder is checked for room before the solve.
pub fn build(
    variant: &Variant,
    path: &Path,
    cube: bool,
    progress: Progress<'_>,
) -> Result<BuildReport, Error> {
    let started = Instant::now();
    variant.check()?;
    solver::check_memory(variant)?;
    let numbers = Numbers::new(variant)?;
    let records = numbers.records();
    let cube_file = cube_path(path);
    let bytes = table::file_len(24, records)
        + if cube {
            table::file_len(16, records)
        } else {
            0
        };
    table::prepare(&[path, &cube_file], bytes)?;
    let solved = solver::solve(variant, cube, progress)?;
    progress.start("writing the table", None);
    let at = solved.records(&numbers);
    let mut by_record = vec![[0u32; 6]; records as usize];
    for (i, &r) in at.iter().enumerate() {
        by_record[r as usize] = encode(solved.equity[i], &solved.outcomes[i]);
    }
    let cube_records = solved.cube.as_ref().map(|values| {
        let mut out = vec![[0u32; 4]; records as usize];
        for (i, &r) in at.iter().enumerate() {
            out[r as usize] = values[i].map(quantise);
        }
        out
    });
    let tables = publish(variant, path, &by_record, cube_records.as_deref(), false)?;
    progress.finish();
    let opening = numbers.record(&variant.opening())?;
    let opening_index = at.iter().position(|&r| r == opening).expect("a state");
    Ok(BuildReport {
        variant: variant.name(),
        tables,
        records,
        solve: solved.report.clone(),
        seconds: started.elapsed().as_secs_f64(),
        opening_equity: solved.equity[opening_index],
    })
}

/// Publishes the family table of `variant` at `path` and, when given, its cube table
/// beside it ([`cube_path`]), all or nothing; `from_gnubg` marks values read from gnubg's
/// database.
pub(crate) fn publish(
    variant: &Variant,
    path: &Path,
    records: &[Record],
    cube: Option<&[CubeRecord]>,
    from_gnubg: bool,
) -> Result<Vec<Written>, Error> {
    let mut line = variant_line(variant);
    if from_gnubg {
        line = format!("{line}; {FROM_GNUBG}");
    }
    let main = Descriptor {
        kind: KIND,
        layout: LAYOUT,
        variant: &line,
    };
    let mut staged = vec![table::stage(path, main, records)?];
    if let Some(cube) = cube {
        let line = cube_line(variant, &staged[0].header().checksum_hex());
        let descriptor = Descriptor {
            kind: CUBE_KIND,
            layout: CUBE_LAYOUT,
            variant: &line,
        };
        staged.push(table::stage(&cube_path(path), descriptor, cube)?);
    }
    let targets: Vec<PathBuf> = staged.iter().map(|s| s.target().to_path_buf()).collect();
    let headers = table::publish(staged)?;
    Ok(Written::list(targets, headers))
}

/// A built table, for queries (every record checked against its block's sum when first
/// read), with its cube table when one lies beside it.
pub struct Tables {
    table: Table,
    cube: Option<Table>,
    numbers: Numbers,
    variant: Variant,
}

impl Tables {
    /// Opens (memory-maps) the table at `path` and its cube table if there is one, with
    /// the cheap checks (kind, layout, size, pairing). The table says its variant.
    pub fn open(path: &Path) -> Result<Tables, Error> {
        Tables::open_with(path, None, Reader::Map)
    }

    /// As [`Tables::open`], refusing a table of another variant than `variant`.
    pub fn open_for(variant: &Variant, path: &Path) -> Result<Tables, Error> {
        Tables::open_with(path, Some(variant), Reader::Map)
    }

    /// As [`Tables::open`] with the reader `reader` (a long-lived process reads through
    /// the cache of verified blocks, `docs/table-format.md`), refusing a table of another
    /// variant than `expected` when given.
    pub fn open_with(
        path: &Path,
        expected: Option<&Variant>,
        reader: Reader<'_>,
    ) -> Result<Tables, Error> {
        Tables::with_table(reader.open(path)?, expected, reader)
    }

    /// As [`Tables::open_with`], from the main table already open (its cube table is
    /// opened beside it with `reader`).
    pub fn with_table(
        table: Table,
        expected: Option<&Variant>,
        reader: Reader<'_>,
    ) -> Result<Tables, Error> {
        let path = &table.path().to_path_buf();
        table.expect_kind(KIND)?;
        let line = &table.header().variant;
        let variant = variant_of_line(line).ok_or_else(|| TableError::Malformed {
            path: path.to_path_buf(),
            message: format!(
                "its variant line {} names no variant",
                crate::fault::excerpt(line)
            ),
        })?;
        if let Some(expected) = expected.filter(|&e| *e != variant) {
            return Err(TableError::Variant {
                path: path.to_path_buf(),
                expected: variant_line(expected),
                found: line.clone(),
            }
            .into());
        }
        table.expect_records::<Record>(LAYOUT)?;
        let numbers = Numbers::new(&variant)?;
        if table.header().record_count != numbers.records() {
            return Err(TableError::Malformed {
                path: path.to_path_buf(),
                message: format!(
                    "holds {} records, expected {}",
                    table.header().record_count,
                    numbers.records()
                ),
            }
            .into());
        }
        let cube_file = cube_path(path);
        // Anything under the cube table's name is opened, so that a link that leads
        // nowhere or round in a loop is an error, not a table without the cube.
        let cube = if cube_file.symlink_metadata().is_ok() {
            let c = reader.open(&cube_file)?;
            c.expect_kind(CUBE_KIND)?;
            c.expect_variant(&cube_line(&variant, &table.header().checksum_hex()))?;
            c.expect_records::<CubeRecord>(CUBE_LAYOUT)?;
            if c.header().record_count != numbers.records() {
                return Err(TableError::Malformed {
                    path: cube_file,
                    message: format!(
                        "holds {} records, expected {}",
                        c.header().record_count,
                        numbers.records()
                    ),
                }
                .into());
            }
            Some(c)
        } else {
            None
        };
        Ok(Tables {
            table,
            cube,
            numbers,
            variant,
        })
    }

    /// The cubeless table's file.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The cube table's file, when the cube was solved.
    pub fn cube_table(&self) -> Option<&Table> {
        self.cube.as_ref()
    }

    /// Record `i` of the cubeless table.
    pub fn record(&self, i: u64) -> Result<Record, Error> {
        Ok(self.table.record::<Record>(i)?)
    }
}

impl Evaluator for Tables {
    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn numbers(&self) -> &Numbers {
        &self.numbers
    }

    fn path(&self) -> &Path {
        self.table.path()
    }

    fn equity_at(&self, record: u64) -> Result<f64, Error> {
        Ok(decode_equity(&self.record(record)?))
    }

    fn outcomes_at(&self, record: u64) -> Result<Outcomes, Error> {
        Ok(decode_outcomes(&self.record(record)?))
    }

    fn cubeful_at(&self, record: u64) -> Result<Option<Cubeful>, Error> {
        match &self.cube {
            Some(c) => Ok(Some(decode_cube(&c.record::<CubeRecord>(record)?))),
            None => Ok(None),
        }
    }

    fn has_cube(&self) -> bool {
        self.cube.is_some()
    }

    fn verify_checksums(&self) -> Result<(), Error> {
        self.table.verify()?;
        if let Some(c) = &self.cube {
            c.verify()?;
        }
        Ok(())
    }

    fn changed(&self) -> bool {
        // A cube table built or removed beside the table counts too.
        self.table.changed()
            || match &self.cube {
                Some(c) => c.changed(),
                None => cube_path(self.table.path()).symlink_metadata().is_ok(),
            }
    }

    fn bounds(&self) -> Bounds {
        let (unit, p_unit) = (1.0 / EQUITY_SCALE, 1.0 / CHANCE_SCALE);
        Bounds {
            bellman: unit + 1e-12,
            // The equity of the chances: 2 win - 1 + the four gammon chances, each stored
            // to half a unit.
            outcome: 0.5 * unit + 5.0 * 2.0 * 0.5 * p_unit + 1e-12,
            // The chance of losing is read as 1 - win: the total is exact.
            total: 1e-12,
        }
    }
}

/// The records of the cubeless table and of the cube table, if any (every block checked).
pub(crate) type AllRecords<'a> = (Cow<'a, [Record]>, Option<Cow<'a, [CubeRecord]>>);

/// The records of the cubeless table and of the cube table, if any (every block checked).
pub(crate) fn records(tables: &Tables) -> Result<AllRecords<'_>, Error> {
    let records = tables.table.records::<Record>()?;
    let cube = match &tables.cube {
        Some(c) => Some(c.records::<CubeRecord>()?),
        None => None,
    };
    Ok((records, cube))
}
