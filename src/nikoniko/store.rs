//! The NikoNiko tables on disk: equities (`i16` = round(equity × 10,000), the article's
//! 2 bytes a state) and outcome probabilities (six `u16` = round(p × 65,535)), both
//! indexed by the dense index, in the project's table format.
//!
//! The outcome table lives beside the equity table (same stem, extension `outcomes`) and
//! names the equity table's checksum in its variant, so a mismatched pair is refused.

use super::index::STATES;
use super::{Error, Outcomes};
use crate::gammon::solver::{solve_variant, Exclusive};
use crate::gammon::Variant;
use crate::progress::Progress;
use crate::table::{self, Descriptor, Table, TableError};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
/// The solver's stopping tolerance: largest change in a sweep.
pub const TOLERANCE: f64 = 1e-12;
/// What to tell a user whose table is missing.
pub const BUILD_HINT: &str = "run `tabula nikoniko build`";

/// The default equity table: `tables/nikoniko.tbl`.
pub fn default_path() -> PathBuf {
    PathBuf::from("tables/nikoniko.tbl")
}

/// The outcome table that goes with the equity table at `equity_path`.
pub fn outcomes_path(equity_path: &Path) -> PathBuf {
    equity_path.with_extension("outcomes")
}

fn outcome_variant(equity_checksum: &str) -> String {
    format!("{VARIANT}; equity {}", &equity_checksum[..16])
}

/// What a build did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// Where the equity table was published.
    pub equity_path: PathBuf,
    /// Where the outcome table was published.
    pub outcomes_path: PathBuf,
    /// Sweeps of the equity iteration (full and policy sweeps alike).
    pub sweeps: u32,
    /// The largest change in an equity in the last (full) sweep.
    pub residual: f64,
    /// Sweeps of the outcome iteration.
    pub outcome_sweeps: u32,
    /// The largest change in an outcome probability in the last outcome sweep.
    pub outcome_residual: f64,
    /// Wall time, in seconds, spent generating every play of every state.
    pub graph_seconds: f64,
    /// Wall time, in seconds, spent solving (equities and outcome probabilities).
    pub solve_seconds: f64,
    /// The part of `solve_seconds` spent on the outcome probabilities.
    pub outcome_seconds: f64,
    /// Wall time, in seconds, of the whole build, writing the tables included.
    pub seconds: f64,
    /// Successor links in the graph: every play of every roll of every state.
    pub successors: usize,
    /// The equity table's payload SHA-256, in hex.
    pub equity_checksum: String,
    /// The outcome table's payload SHA-256, in hex.
    pub outcome_checksum: String,
    /// The solved (unquantised) equity of the opening position for the side on roll.
    pub opening_equity: f64,
}

/// Quantises an equity for storage.
pub fn quantise_equity(e: f64) -> i16 {
    (e * EQUITY_SCALE).round() as i16
}

/// Quantises outcome probabilities for storage.
pub(crate) fn quantise_outcomes(o: &Exclusive) -> [u16; 6] {
    o.map(|p| (p.clamp(0.0, 1.0) * OUTCOME_SCALE).round() as u16)
}

/// Builds both tables from nothing and publishes them together: both are written and
/// synced under temporary names, then renamed into place, all or nothing
/// (`docs/table-format.md`). The folder is checked for room before the solve.
/// `progress` hears of each stage and sweep.
pub fn build(equity_path: &Path, progress: Progress<'_>) -> Result<BuildReport, Error> {
    let started = Instant::now();
    let out_path = outcomes_path(equity_path);
    table::prepare(
        &[equity_path, &out_path],
        table::file_len(2, STATES) + table::file_len(12, STATES),
    )?;
    let variant = Variant::built_in("nikoniko").expect("built in");
    let solved = solve_variant(&variant, progress)?;
    let (graph_seconds, solve_seconds) = (solved.graph_seconds, solved.solve_seconds);
    progress.start("writing tables", None);

    let equities: Vec<i16> = solved
        .equity
        .par_iter()
        .map(|&e| quantise_equity(e))
        .collect();
    let outcomes: Vec<[u16; 6]> = solved.outcomes.par_iter().map(quantise_outcomes).collect();
    let outcomes = &outcomes;
    let equity_table = table::stage(
        equity_path,
        Descriptor {
            kind: EQUITY_KIND,
            layout: "i16",
            variant: VARIANT,
        },
        &equities,
    )?;
    // The outcome table names the equity table's checksum, so a mismatched pair is refused.
    let variant = outcome_variant(&equity_table.header().checksum_hex());
    let outcome_table = table::stage(
        &out_path,
        Descriptor {
            kind: OUTCOME_KIND,
            layout: "u16x6",
            variant: &variant,
        },
        outcomes,
    )?;
    let headers = table::publish(vec![outcome_table, equity_table])?;
    let (out_header, eq_header) = (&headers[0], &headers[1]);
    progress.finish();
    let opening = super::index_of(&super::Position::OPENING) as usize;
    Ok(BuildReport {
        equity_path: equity_path.to_path_buf(),
        outcomes_path: out_path,
        sweeps: solved.sweeps,
        residual: solved.residual,
        outcome_sweeps: solved.outcome_sweeps,
        outcome_residual: solved.outcome_residual,
        graph_seconds,
        solve_seconds,
        outcome_seconds: solved.outcome_seconds,
        seconds: started.elapsed().as_secs_f64(),
        successors: solved.successors,
        equity_checksum: eq_header.checksum_hex(),
        outcome_checksum: out_header.checksum_hex(),
        opening_equity: solved.equity[opening],
    })
}

/// The two tables, for queries. Each record is checked against its block's sum when
/// first read, so the accessors fail on a damaged table instead of answering from it.
pub struct Tables {
    equity: Table,
    outcomes: Table,
}

impl Tables {
    /// Opens (memory-maps) the equity table at `equity_path` and its outcome table, with
    /// the cheap checks (kind, variant, sizes, pairing); a missing, old or damaged table
    /// says how to build it.
    pub fn open(equity_path: &Path) -> Result<Tables, TableError> {
        Tables::with(equity_path, Table::open)
    }

    /// Like [`Tables::open`], but reads both tables into memory, so that a long session
    /// is not hurt by the files changing under it (`docs/table-format.md`).
    pub fn load(equity_path: &Path) -> Result<Tables, TableError> {
        Tables::with(equity_path, Table::load)
    }

    fn with(
        equity_path: &Path,
        open: fn(&Path) -> Result<Table, TableError>,
    ) -> Result<Tables, TableError> {
        let equity = open_checked(equity_path, EQUITY_KIND, VARIANT, open)?;
        equity.expect_layout::<i16>()?;
        let variant = outcome_variant(&equity.header().checksum_hex());
        let outcomes = open_checked(&outcomes_path(equity_path), OUTCOME_KIND, &variant, open)?;
        outcomes.expect_layout::<[u16; 6]>()?;
        Ok(Tables { equity, outcomes })
    }

    /// Checks every block and both payload checksums.
    pub fn verify_checksums(&self) -> Result<(), TableError> {
        self.equity.verify().map_err(hint)?;
        self.outcomes.verify().map_err(hint)
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
    pub fn equities(&self) -> Result<&[i16], TableError> {
        self.equity.records::<i16>().map_err(hint)
    }

    /// The equity of the state with dense index `i` (side on roll).
    pub fn equity(&self, i: u64) -> Result<f64, TableError> {
        let e: i16 = self.equity.record(i).map_err(hint)?;
        Ok(f64::from(e) / EQUITY_SCALE)
    }

    /// The outcome probabilities of the state with dense index `i` (side on roll).
    pub fn outcomes(&self, i: u64) -> Result<Outcomes, TableError> {
        let o: [u16; 6] = self.outcomes.record(i).map_err(hint)?;
        Ok(Outcomes::from_exclusive(
            o.map(|q| f64::from(q) / OUTCOME_SCALE),
        ))
    }
}

fn hint(e: TableError) -> TableError {
    e.with_hint(BUILD_HINT)
}

fn open_checked(
    path: &Path,
    kind: &str,
    variant: &str,
    open: fn(&Path) -> Result<Table, TableError>,
) -> Result<Table, TableError> {
    let t = open(path).map_err(hint)?;
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
