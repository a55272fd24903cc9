//! The NikoNiko article's tables on disk (`docs/nikoniko.md`, "Tables"): equities (`i16` =
//! round(equity × 10,000), the article's 2 bytes a state) and outcome probabilities (six
//! `u16` = round(p × 65,535), exclusive: win single, gammon, backgammon, lose single,
//! gammon, backgammon), both indexed by the article's dense index, in the project's table
//! format. The family's solver computes them; the engine reads them through
//! [`Evaluator`].
//!
//! The outcome table lives beside the equity table (same stem, extension `outcomes`) and
//! names the equity table's checksum in its variant, so a mismatched pair is refused.

use super::{Error, STATES};
use crate::gammon::solver::{self, Exclusive};
use crate::gammon::store::{BuildReport, Written};
use crate::gammon::{Bounds, Evaluator, Numbers, Outcomes, Variant};
use crate::progress::Progress;
use crate::table::{self, Descriptor, Reader, Table, TableError};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The equity table's record layout: one `i16` a state.
const EQUITY_LAYOUT: &str = "i16";
/// The outcome table's record layout: six `u16` chances a state.
const OUTCOMES_LAYOUT: &str = "u16x6";

/// Kind of the equity table.
pub const EQUITY_KIND: &str = "nikoniko-equity";
/// Kind of the outcome table.
pub const OUTCOME_KIND: &str = "nikoniko-outcomes";
/// The rules both tables are built for.
pub const VARIANT: &str = "nikoniko 8 points, 5 checkers, dice 0-2, cubeless, seed index";
/// Stored equity = round(equity × EQUITY_SCALE).
pub const EQUITY_SCALE: f64 = 10_000.0;
/// Stored probability = round(p × OUTCOME_SCALE).
pub const OUTCOME_SCALE: f64 = 65_535.0;
/// The file name of the equity table.
pub const FILE_NAME: &str = "nikoniko.tbl";

/// The outcome table that goes with the equity table at `equity_path`.
pub fn outcomes_path(equity_path: &Path) -> PathBuf {
    equity_path.with_extension("outcomes")
}

fn outcome_variant(equity_checksum: &str) -> String {
    format!("{VARIANT}; equity {}", &equity_checksum[..16])
}

/// Quantises an equity for storage.
pub fn quantise_equity(e: f64) -> i16 {
    (e * EQUITY_SCALE).round() as i16
}

/// Quantises outcome probabilities for storage.
fn quantise_outcomes(o: &Exclusive) -> [u16; 6] {
    o.map(|p| (p.clamp(0.0, 1.0) * OUTCOME_SCALE).round() as u16)
}

/// Solves the game with the family's solver and publishes both tables together: both
/// are written and synced under temporary names, then renamed into place, all or nothing
/// (`docs/table-format.md`). The folder is checked for room before the solve. `progress`
/// hears of each stage and sweep.
pub fn build(equity_path: &Path, progress: Progress<'_>) -> Result<BuildReport, Error> {
    let started = Instant::now();
    let out_path = outcomes_path(equity_path);
    table::prepare(
        &[equity_path, &out_path],
        table::file_len(2, STATES) + table::file_len(12, STATES),
    )?;
    let variant = super::variant();
    let solved = solver::solve(&variant, false, progress)?;
    progress.start("writing tables", None);
    // The article's numbering lists the states in index order.
    let equities: Vec<i16> = solved
        .equity
        .par_iter()
        .map(|&e| quantise_equity(e))
        .collect();
    let outcomes: Vec<[u16; 6]> = solved.outcomes.par_iter().map(quantise_outcomes).collect();
    let equity_descriptor = Descriptor {
        kind: EQUITY_KIND,
        layout: EQUITY_LAYOUT,
        variant: VARIANT,
    };
    let equity_table = table::stage(equity_path, equity_descriptor, &equities)?;
    // The outcome table names the equity table's checksum, so a mismatched pair is refused.
    let line = outcome_variant(&equity_table.header().checksum_hex());
    let outcome_descriptor = Descriptor {
        kind: OUTCOME_KIND,
        layout: OUTCOMES_LAYOUT,
        variant: &line,
    };
    let outcome_table = table::stage(&out_path, outcome_descriptor, &outcomes)?;
    // The outcome table first: a reader that opens the pair between the two renames
    // finds the new outcome table naming an equity table it does not see, and refuses.
    let mut headers = table::publish(vec![outcome_table, equity_table])?;
    headers.reverse();
    progress.finish();
    let opening = super::index().index(&variant.opening()) as usize;
    let tables = Written::list(vec![equity_path.to_path_buf(), out_path], headers);
    Ok(BuildReport {
        variant: variant.name(),
        tables,
        records: STATES,
        solve: solved.report.clone(),
        seconds: started.elapsed().as_secs_f64(),
        opening_equity: solved.equity[opening],
    })
}

/// The two tables, for queries. Each record is checked against its block's sum when
/// first read, so the accessors fail on a damaged table instead of answering from it.
pub struct Tables {
    equity: Table,
    outcomes: Table,
    variant: Variant,
    numbers: Numbers,
}

impl Tables {
    /// Opens (memory-maps) the equity table at `equity_path` and its outcome table, with
    /// the cheap checks (kind, variant, sizes, pairing).
    pub fn open(equity_path: &Path) -> Result<Tables, TableError> {
        Tables::open_with(equity_path, Reader::Map)
    }

    /// As [`Tables::open`] with the reader `reader` (a long-lived process reads through
    /// the cache of verified blocks, `docs/table-format.md`).
    pub fn open_with(equity_path: &Path, reader: Reader<'_>) -> Result<Tables, TableError> {
        Tables::with_table(reader.open(equity_path)?, reader)
    }

    /// As [`Tables::open_with`], from the equity table already open (its outcome table is
    /// opened beside it with `reader`).
    pub fn with_table(equity: Table, reader: Reader<'_>) -> Result<Tables, TableError> {
        let equity_path = &equity.path().to_path_buf();
        let equity = checked(equity, EQUITY_KIND, VARIANT)?;
        equity.expect_records::<i16>(EQUITY_LAYOUT)?;
        let variant = outcome_variant(&equity.header().checksum_hex());
        let outcomes = open_checked(&outcomes_path(equity_path), OUTCOME_KIND, &variant, reader)?;
        outcomes.expect_records::<[u16; 6]>(OUTCOMES_LAYOUT)?;
        let variant = super::variant();
        let numbers = Numbers::new(&variant).expect("the article's numbering");
        Ok(Tables {
            equity,
            outcomes,
            variant,
            numbers,
        })
    }

    /// The equity table's file.
    pub fn equity_table(&self) -> &Table {
        &self.equity
    }

    /// The outcome table's file.
    pub fn outcome_table(&self) -> &Table {
        &self.outcomes
    }

    /// Stored equities, by index (every block checked first).
    pub fn equities(&self) -> Result<std::borrow::Cow<'_, [i16]>, TableError> {
        self.equity.records::<i16>()
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
        self.equity.path()
    }

    fn equity_at(&self, record: u64) -> Result<f64, crate::gammon::Error> {
        let e: i16 = self.equity.record(record)?;
        Ok(f64::from(e) / EQUITY_SCALE)
    }

    fn outcomes_at(&self, record: u64) -> Result<Outcomes, crate::gammon::Error> {
        let o: [u16; 6] = self.outcomes.record(record)?;
        Ok(Outcomes::from_exclusive(
            o.map(|q| f64::from(q) / OUTCOME_SCALE),
        ))
    }

    fn verify_checksums(&self) -> Result<(), crate::gammon::Error> {
        self.equity.verify()?;
        Ok(self.outcomes.verify()?)
    }

    fn changed(&self) -> bool {
        self.equity.changed() || self.outcomes.changed()
    }

    fn bounds(&self) -> Bounds {
        // Each stored equity is within half a unit of its true value; one Bellman sweep
        // of such values is too, so the two differ by at most one unit (plus float
        // noise). The six chances, each within half a unit, weigh up to 3 points each.
        let (unit, p_unit) = (1.0 / EQUITY_SCALE, 1.0 / OUTCOME_SCALE);
        Bounds {
            bellman: unit + 1e-9,
            outcome: 0.5 * unit + 6.0 * 3.0 * 0.5 * p_unit + 1e-9,
            total: 6.0 * 0.5 * p_unit + 1e-9,
        }
    }
}

fn open_checked(
    path: &Path,
    kind: &str,
    variant: &str,
    reader: Reader<'_>,
) -> Result<Table, TableError> {
    checked(reader.open(path)?, kind, variant)
}

/// `t`, once it is a table of `kind` for `variant` with a record a state.
fn checked(t: Table, kind: &str, variant: &str) -> Result<Table, TableError> {
    let path = t.path();
    t.expect_kind(kind)?;
    t.expect_variant(variant)?;
    if t.header().record_count != STATES {
        return Err(TableError::Malformed {
            path: path.to_path_buf(),
            message: format!(
                "holds {} records, expected one per state ({STATES})",
                t.header().record_count
            ),
        });
    }
    Ok(t)
}
