//! The family's tables on disk (every variant but `nikoniko`, whose tables keep the
//! article's format: `crate::nikoniko::store`). One table a variant, in the project's
//! checked format (`docs/table-format.md`), one record per number of the variant's index
//! (gnubg's records, illegal and finished ones included, or the article's states):
//! six `u32`, the cubeless equity of the side on roll as a signed fixed-point number
//! (`round(e · 2^29)`, as `i32` bits) and the five chances gnubg keeps — win, win a gammon
//! or more, win a backgammon, lose a gammon or more, lose a backgammon — each
//! `round(p · (2^32 - 1))`: a billionth of a point, far finer than gnubg's 24 bits.
//! Records that are not states are all zero.

use super::solver::{self, Exclusive, Sides, Solved};
use super::variant::{Numbering, Variant};
use super::{Error, HyperIndex, Position};
use crate::nikoniko::Outcomes;
use crate::progress::Progress;
use crate::table::{self, Descriptor, Table, TableError};
use rayon::prelude::*;
use serde::Serialize;
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

/// The table's variant line: the rules and the numbering.
pub fn variant_line(variant: &Variant) -> String {
    let numbering = match variant.numbering {
        Numbering::Seed => "seed index",
        Numbering::Gnubg => "gnubg index",
    };
    format!("{}; cubeless; {numbering}", variant.describe())
}

/// The default table of a variant: `tables/<name>.tbl`, a description's `:`, `=` and `,`
/// made safe for a file name.
pub fn default_path(variant: &Variant) -> PathBuf {
    let name: String = variant
        .name
        .chars()
        .map(|c| match c {
            ':' => '_',
            ',' => '.',
            '=' => '-',
            c => c,
        })
        .collect();
    PathBuf::from(format!("tables/{name}.tbl"))
}

/// The numbering of a variant's positions: record numbers and back.
pub struct Numbers {
    numbering: Numbering,
    index: HyperIndex,
    points: usize,
}

impl Numbers {
    /// The numbering of `variant`.
    pub fn new(variant: &Variant) -> Result<Numbers, Error> {
        Ok(Numbers {
            numbering: variant.numbering,
            index: variant.hyper_index()?,
            points: variant.points,
        })
    }

    /// Records in the table.
    pub fn records(&self) -> u64 {
        match self.numbering {
            Numbering::Seed => crate::nikoniko::STATES,
            Numbering::Gnubg => self.index.records(),
        }
    }

    /// The record of a legal position.
    pub fn record(&self, p: &Position) -> Result<u64, Error> {
        match self.numbering {
            Numbering::Seed => Ok(crate::nikoniko::index_of(&to_nikoniko(p))),
            Numbering::Gnubg => self.index.legal_record(p),
        }
    }

    /// The position of a record (any, legal or not, for gnubg's numbering).
    pub fn position(&self, record: u64) -> Result<Position, Error> {
        match self.numbering {
            Numbering::Seed => crate::nikoniko::position_at(record)
                .map(|p| from_nikoniko(&p))
                .ok_or(Error::OutOfRange {
                    what: "index",
                    number: record,
                    len: crate::nikoniko::STATES,
                }),
            Numbering::Gnubg => self.index.position(record),
        }
    }

    /// The record of the solver's state `(me, opp)` (side ranks).
    fn of_ranks(&self, sides: &Sides, me: u16, opp: u16) -> u64 {
        match self.numbering {
            Numbering::Seed => {
                let p = Position::new(
                    sides.counts(me)[1..=self.points + 1].to_vec(),
                    sides.counts(opp)[1..=self.points + 1].to_vec(),
                )
                .expect("slots");
                crate::nikoniko::index_of(&to_nikoniko(&p))
            }
            Numbering::Gnubg => u64::from(me) * self.index.sides() + u64::from(opp),
        }
    }
}

/// A family position on 8 points as a NikoNiko position (5 checkers).
fn to_nikoniko(p: &Position) -> crate::nikoniko::Position {
    let side = |s: &[u8]| {
        let mut v = [0u8; 10];
        v[1..=9].copy_from_slice(&s[..9]);
        v[0] = 5 - s.iter().sum::<u8>();
        v
    };
    crate::nikoniko::Position {
        me: side(p.us()),
        opp: side(p.them()),
    }
}

fn from_nikoniko(p: &crate::nikoniko::Position) -> Position {
    Position::new(p.me[1..=9].to_vec(), p.opp[1..=9].to_vec()).expect("slots")
}

/// What a build did.
#[derive(Debug, Clone, Serialize)]
pub struct BuildReport {
    /// The variant's name.
    pub variant: String,
    /// Where the table was published.
    pub path: PathBuf,
    /// Records in the table, and states solved.
    pub records: u64,
    /// States solved (legal positions where neither side has finished).
    pub states: u64,
    /// Successor links: every play of every roll of every state.
    pub successors: usize,
    /// Sweeps of the equity iteration, and the largest change in the last one.
    pub sweeps: u32,
    /// The largest change of an equity in the last sweep.
    pub residual: f64,
    /// Sweeps of the outcome iteration.
    pub outcome_sweeps: u32,
    /// The largest change of an outcome chance in the last sweep.
    pub outcome_residual: f64,
    /// Wall time generating the plays, iterating, and in all (writing included), in s.
    pub graph_seconds: f64,
    /// Wall time iterating, in seconds.
    pub solve_seconds: f64,
    /// Wall time of the whole build, in seconds.
    pub seconds: f64,
    /// Bytes the graph held.
    pub graph_bytes: usize,
    /// The table's payload SHA-256, in hex.
    pub checksum: String,
    /// The solved (unrounded) equity of the opening position for the side on roll.
    pub opening_equity: f64,
}

/// Quantises a state's results into a record.
fn encode(e: f64, o: &Exclusive) -> Record {
    let p = |x: f64| (x.clamp(0.0, 1.0) * CHANCE_SCALE).round() as u32;
    let [_, wg, wb, _, lg, lb] = *o;
    [
        ((e * EQUITY_SCALE).round() as i32) as u32,
        p(o[0] + o[1] + o[2]),
        p(wg + wb),
        p(wb),
        p(lg + lb),
        p(lb),
    ]
}

/// The equity of a record.
pub fn decode_equity(r: &Record) -> f64 {
    f64::from(r[0] as i32) / EQUITY_SCALE
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

/// Solves `variant` and publishes its table at `path` atomically (`docs/table-format.md`).
/// Not for `nikoniko`, whose tables are the article's (`crate::nikoniko::store::build`).
pub fn build(variant: &Variant, path: &Path, progress: Progress<'_>) -> Result<BuildReport, Error> {
    let started = Instant::now();
    variant.check()?;
    let numbers = Numbers::new(variant)?;
    let records = numbers.records();
    table::prepare(&[path], table::file_len(24, records))?;
    let solved: Solved = solver::solve_variant(variant, progress)?;
    progress.start("writing the table", None);
    let by_record = place(&numbers, &solved, records);
    let line = variant_line(variant);
    let staged = table::stage(
        path,
        Descriptor {
            kind: KIND,
            layout: LAYOUT,
            variant: &line,
        },
        &by_record,
    )?;
    let headers = table::publish(vec![staged])?;
    progress.finish();
    let opening = numbers.record(&variant.opening())?;
    Ok(BuildReport {
        variant: variant.name.clone(),
        path: path.to_path_buf(),
        records,
        states: solved.states.len() as u64,
        successors: solved.successors,
        sweeps: solved.sweeps,
        residual: solved.residual,
        outcome_sweeps: solved.outcome_sweeps,
        outcome_residual: solved.outcome_residual,
        graph_seconds: solved.graph_seconds,
        solve_seconds: solved.solve_seconds,
        seconds: started.elapsed().as_secs_f64(),
        graph_bytes: solved.graph_bytes,
        checksum: headers[0].checksum_hex(),
        opening_equity: decode_equity(&by_record[opening as usize]),
    })
}

/// The records of a solve, by record number (zero where no state).
fn place(numbers: &Numbers, solved: &Solved, records: u64) -> Vec<Record> {
    let at: Vec<u64> = solved
        .states
        .par_iter()
        .map(|&(me, opp)| numbers.of_ranks(&solved.sides, me, opp))
        .collect();
    let mut out = vec![[0u32; 6]; records as usize];
    for (i, &r) in at.iter().enumerate() {
        out[r as usize] = encode(solved.equity[i], &solved.outcomes[i]);
    }
    out
}

/// A built table, for queries (every record checked against its block's sum when first
/// read).
pub struct Tables {
    table: Table,
    numbers: Numbers,
    variant: Variant,
}

impl Tables {
    /// Opens (memory-maps) the table of `variant` at `path`, with the cheap checks (kind,
    /// variant, size); a missing, foreign or damaged table says how to build it.
    pub fn open(variant: &Variant, path: &Path) -> Result<Tables, Error> {
        let hint = |e: TableError| {
            e.with_hint(&format!("run `tabula gammon build --variant {}`", variant.name))
        };
        let table = Table::open(path).map_err(hint)?;
        table.expect_kind(KIND)?;
        table.expect_variant(&variant_line(variant))?;
        table.expect_layout::<Record>()?;
        let numbers = Numbers::new(variant)?;
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
        Ok(Tables {
            table,
            numbers,
            variant: variant.clone(),
        })
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The numbering.
    pub fn numbers(&self) -> &Numbers {
        &self.numbers
    }

    /// The table file.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Record `i`.
    pub fn record(&self, i: u64) -> Result<Record, Error> {
        Ok(self.table.record::<Record>(i)?)
    }

    /// The cubeless equity of a legal position with play left (side on roll).
    pub fn equity(&self, p: &Position) -> Result<f64, Error> {
        Ok(decode_equity(&self.record(self.numbers.record(p)?)?))
    }

    /// The outcome chances of a legal position with play left (side on roll).
    pub fn outcomes(&self, p: &Position) -> Result<Outcomes, Error> {
        Ok(decode_outcomes(&self.record(self.numbers.record(p)?)?))
    }
}
