//! The NikoNiko tables on disk: equities (`i16` = round(equity × 10,000), the article's
//! 2 bytes a state) and outcome probabilities (six `u16` = round(p × 65,535)), both
//! indexed by the dense index, in the project's table format.
//!
//! The outcome table lives beside the equity table (same stem, extension `outcomes`) and
//! names the equity table's checksum in its variant, so a mismatched pair is refused.

use super::graph::Graph;
use super::index::STATES;
use super::solve::{solve, Exclusive};
use super::{Error, Outcomes};
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
    pub equity_path: PathBuf,
    pub outcomes_path: PathBuf,
    pub sweeps: u32,
    pub residual: f64,
    pub outcome_sweeps: u32,
    pub outcome_residual: f64,
    pub graph_seconds: f64,
    pub solve_seconds: f64,
    /// The part of `solve_seconds` spent on the outcome probabilities.
    pub outcome_seconds: f64,
    pub seconds: f64,
    pub successors: usize,
    pub equity_checksum: String,
    pub outcome_checksum: String,
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

/// Builds both tables from nothing and writes them atomically (outcomes first, then the
/// equity table that names them). `progress` hears of each stage and sweep.
pub fn build(equity_path: &Path, progress: Progress<'_>) -> Result<BuildReport, Error> {
    let started = Instant::now();
    progress.start("generating every play of every state", None);
    let graph = Graph::build();
    let graph_seconds = started.elapsed().as_secs_f64();
    progress.start("iterating", None);
    let solved = solve(&graph, TOLERANCE, progress)?;
    let solve_seconds = started.elapsed().as_secs_f64() - graph_seconds;
    progress.start("writing tables", None);

    let equities: Vec<i16> = solved
        .equity
        .par_iter()
        .map(|&e| quantise_equity(e))
        .collect();
    let outcomes = &solved.outcomes;
    // The equity checksum is known before writing: it is the SHA-256 of the payload.
    let equity_checksum = {
        use sha2::{Digest, Sha256};
        table::hex(&Sha256::digest(bytemuck::cast_slice::<i16, u8>(&equities)))
    };
    let out_path = outcomes_path(equity_path);
    let variant = outcome_variant(&equity_checksum);
    let out_header = table::write(
        &out_path,
        Descriptor {
            kind: OUTCOME_KIND,
            layout: "u16x6",
            variant: &variant,
        },
        outcomes,
    )?;
    let eq_header = table::write(
        equity_path,
        Descriptor {
            kind: EQUITY_KIND,
            layout: "i16",
            variant: VARIANT,
        },
        &equities,
    )?;
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
        successors: graph.successor_count(),
        equity_checksum: eq_header.checksum_hex(),
        outcome_checksum: out_header.checksum_hex(),
        opening_equity: solved.equity[opening],
    })
}

/// The two tables, memory-mapped, for queries.
pub struct Tables {
    equity: Table,
    outcomes: Table,
}

impl Tables {
    /// Opens the equity table at `equity_path` and its outcome table, with the cheap
    /// checks (kind, variant, sizes, pairing); a missing table says how to build it.
    pub fn open(equity_path: &Path) -> Result<Tables, TableError> {
        let equity = open_checked(equity_path, EQUITY_KIND, VARIANT)?;
        let variant = outcome_variant(&equity.header().checksum_hex());
        let outcomes = open_checked(&outcomes_path(equity_path), OUTCOME_KIND, &variant)?;
        let t = Tables { equity, outcomes };
        t.equities()?;
        t.all_outcomes()?;
        Ok(t)
    }

    /// Also checks both payload checksums.
    pub fn verify_checksums(&self) -> Result<(), TableError> {
        self.equity.verify()?;
        self.outcomes.verify()
    }

    /// The equity table's file.
    pub fn equity_table(&self) -> &Table {
        &self.equity
    }

    /// The outcome table's file.
    pub fn outcome_table(&self) -> &Table {
        &self.outcomes
    }

    /// Stored equities, by index.
    pub fn equities(&self) -> Result<&[i16], TableError> {
        self.equity.records::<i16>()
    }

    fn all_outcomes(&self) -> Result<&[[u16; 6]], TableError> {
        self.outcomes.records::<[u16; 6]>()
    }

    /// The equity of the state with dense index `i` (side on roll).
    pub fn equity(&self, i: u64) -> f64 {
        let e = self.equities().expect("checked at open");
        f64::from(e[i as usize]) / EQUITY_SCALE
    }

    /// The outcome probabilities of the state with dense index `i` (side on roll).
    pub fn outcomes(&self, i: u64) -> Outcomes {
        let o = self.all_outcomes().expect("checked at open");
        Outcomes::from_exclusive(o[i as usize].map(|q| f64::from(q) / OUTCOME_SCALE))
    }
}

fn open_checked(path: &Path, kind: &str, variant: &str) -> Result<Table, TableError> {
    let t = Table::open_kind(path, kind).map_err(|e| e.with_hint(BUILD_HINT))?;
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
