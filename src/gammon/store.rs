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

/// Kind of a cube table (beside the cubeless one, extension `cube`).
pub const CUBE_KIND: &str = "gammon-cubeful";
/// Layout of its records: the four no-double equities, each `round(e · 2^29)` as `i32`
/// bits: owned, centred, centred with Jacoby, opponent owns.
pub const CUBE_LAYOUT: &str = "i32x4";

/// A cube record.
pub type CubeRecord = [u32; 4];

/// The cube table that goes with the cubeless table at `path`.
pub fn cube_path(path: &Path) -> PathBuf {
    path.with_extension("cube")
}

fn cube_line(variant: &Variant, checksum: &str) -> String {
    format!("{}; cube; equity {}", variant.describe(), &checksum[..16])
}

/// The four no-double equities of a position (money play, the cube's value 1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cubeful {
    /// The side on roll owns the cube.
    pub owned: f64,
    /// The cube is centred.
    pub centred: f64,
    /// Centred, under the Jacoby rule.
    pub centred_jacoby: f64,
    /// The opponent owns the cube.
    pub opponent_owns: f64,
}

impl Cubeful {
    /// From the solver's order.
    pub fn from_array(v: [f64; 4]) -> Cubeful {
        Cubeful {
            owned: v[0],
            centred: v[1],
            centred_jacoby: v[2],
            opponent_owns: v[3],
        }
    }

    /// In the solver's order.
    pub fn to_array(&self) -> [f64; 4] {
        [
            self.owned,
            self.centred,
            self.centred_jacoby,
            self.opponent_owns,
        ]
    }
}

/// The table's variant line: the rules and the numbering.
pub fn variant_line(variant: &Variant) -> String {
    let numbering = match variant.numbering {
        Numbering::Seed => "seed index",
        Numbering::Gnubg => "gnubg index",
    };
    format!("{}; cubeless; {numbering}", variant.describe())
}

/// The default table of a variant: `tables/<name>.tbl`, a description's `:`, `=` and `,`
/// made safe for a file name (for `nikoniko`, whose `tables/nikoniko.tbl` is the
/// article's table, `tables/nikoniko-cube.tbl`).
pub fn default_path(variant: &Variant) -> PathBuf {
    if variant.name == "nikoniko" {
        // `tables/nikoniko.tbl` is the article's table; the family's, with the cube, lies
        // apart.
        return PathBuf::from("tables/nikoniko-cube.tbl");
    }
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
    pub(crate) index: HyperIndex,
}

impl Numbers {
    /// The numbering of `variant`.
    pub fn new(variant: &Variant) -> Result<Numbers, Error> {
        Ok(Numbers {
            numbering: variant.numbering,
            index: variant.hyper_index()?,
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

    /// The record of every state of a solve, in the order of [`solver::states`]: for the
    /// article's numbering that order is the index itself; for gnubg's, `me · N + opp`.
    fn records_of(&self, states: &[(u16, u16)]) -> Vec<u64> {
        match self.numbering {
            Numbering::Seed => (0..states.len() as u64).collect(),
            Numbering::Gnubg => {
                let n = self.index.sides();
                states
                    .par_iter()
                    .map(|&(me, opp)| u64::from(me) * n + u64::from(opp))
                    .collect()
            }
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
    /// With the cube: its sweeps, last change and table checksum.
    pub cube_sweeps: Option<u32>,
    /// The largest change of a cubeful equity in the cube's last sweep.
    pub cube_residual: Option<f64>,
    /// The cube table's payload SHA-256, in hex.
    pub cube_checksum: Option<String>,
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
    build_with(variant, path, false, progress)
}

/// As [`build`]; with `cube`, also solves the cube and writes its table beside
/// ([`cube_path`]), both published together.
pub fn build_with(
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
    let solved: Solved = solver::solve_variant_with(variant, cube, progress)?;
    progress.start("writing the table", None);
    let at = numbers.records_of(&solved.states);
    let mut by_record = vec![[0u32; 6]; records as usize];
    for (i, &r) in at.iter().enumerate() {
        by_record[r as usize] = encode(solved.equity[i], &solved.outcomes[i]);
    }
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
    let mut staged = vec![staged];
    if let Some(c) = &solved.cube {
        let mut cube_records = vec![[0u32; 4]; records as usize];
        for (i, &r) in at.iter().enumerate() {
            cube_records[r as usize] =
                c.values[i].map(|e| ((e * EQUITY_SCALE).round() as i32) as u32);
        }
        let line = cube_line(variant, &staged[0].header().checksum_hex());
        staged.push(table::stage(
            &cube_file,
            Descriptor {
                kind: CUBE_KIND,
                layout: CUBE_LAYOUT,
                variant: &line,
            },
            &cube_records,
        )?);
    }
    let headers = table::publish(staged)?;
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
        cube_sweeps: solved.cube.as_ref().map(|c| c.sweeps),
        cube_residual: solved.cube.as_ref().map(|c| c.residual),
        cube_checksum: headers.get(1).map(|h| h.checksum_hex()),
        checksum: headers[0].checksum_hex(),
        opening_equity: decode_equity(&by_record[opening as usize]),
    })
}

/// A built table, for queries (every record checked against its block's sum when first
/// read).
pub struct Tables {
    table: Table,
    cube: Option<Table>,
    numbers: Numbers,
    variant: Variant,
}

impl Tables {
    /// Opens (memory-maps) the table of `variant` at `path`, with the cheap checks (kind,
    /// variant, size); a missing, foreign or damaged table says how to build it.
    pub fn open(variant: &Variant, path: &Path) -> Result<Tables, Error> {
        let hint = |e: TableError| {
            e.with_hint(&format!(
                "run `tabula gammon build --variant {}`",
                variant.name
            ))
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
        let cube_file = cube_path(path);
        let cube = if cube_file.exists() {
            let c = Table::open(&cube_file).map_err(hint)?;
            c.expect_kind(CUBE_KIND)?;
            c.expect_variant(&cube_line(variant, &table.header().checksum_hex()))?;
            c.expect_layout::<CubeRecord>()?;
            Some(c)
        } else {
            None
        };
        Ok(Tables {
            table,
            cube,
            numbers,
            variant: variant.clone(),
        })
    }

    /// Whether the cube was solved (its table lies beside).
    pub fn has_cube(&self) -> bool {
        self.cube.is_some()
    }

    /// The four no-double equities of a position, when the cube was solved.
    pub fn cubeful(&self, p: &Position) -> Result<Option<Cubeful>, Error> {
        let Some(c) = &self.cube else {
            return Ok(None);
        };
        let r: CubeRecord = c.record(self.numbers.record(p)?)?;
        Ok(Some(Cubeful::from_array(
            r.map(|u| f64::from(u as i32) / EQUITY_SCALE),
        )))
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

/// What [`verify`] found.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyReport {
    /// Largest |Bellman(stored)(s) - stored(s)| over the states, and where.
    pub max_bellman_gap: f64,
    /// The record of the state with the largest Bellman gap.
    pub worst_record: u64,
    /// Largest |stored equity - the equity of the stored chances|.
    pub max_outcome_gap: f64,
    /// What rounding alone allows for `max_bellman_gap`.
    pub bellman_bound: f64,
    /// What rounding alone allows for `max_outcome_gap`.
    pub outcome_bound: f64,
    /// Whether every gap is within its bound.
    pub ok: bool,
}

/// Checks every block, then re-derives every state's equity from the stored ones with
/// one Bellman sweep over the plays of [`super::moves`]'s rules (the solver's graph),
/// and checks each record's equity against its chances.
pub fn verify(tables: &Tables) -> Result<VerifyReport, Error> {
    tables.table.verify()?;
    let records: &[Record] = tables.table.records()?;
    let variant = &tables.variant;
    let sides = Sides::new(variant);
    let states = solver::states(variant, &sides);
    let graph = solver::graph::Graph::build(&sides, &variant.rolls(), &states, Progress::SILENT);
    let record_of = tables.numbers.records_of(&states);
    let e = |state: u32| decode_equity(&records[record_of[state as usize] as usize]);
    let (max_bellman_gap, worst) = (0..graph.len())
        .into_par_iter()
        .map(|k| {
            let s = graph.sweep[k] as usize;
            let value = |code: u32| match solver::graph::decode(graph.win, code) {
                Ok(t) => -e(graph.order[t as usize]),
                Err(points) => points,
            };
            let mut sum = 0.0;
            for (r, &(_, _, weight)) in graph.rolls.iter().enumerate() {
                let succ = graph.successors(k, r);
                if !succ.is_empty() {
                    let best = succ.iter().map(|&c| value(c)).fold(f64::MIN, f64::max);
                    sum += f64::from(weight) * best;
                }
            }
            let partner = graph.order[graph.partner[s] as usize];
            sum -= f64::from(graph.pass_weight[s]) * e(partner);
            let i = graph.order[s];
            (
                (sum / f64::from(graph.denominator) - e(i)).abs(),
                record_of[i as usize],
            )
        })
        .reduce(
            || (0.0, u64::MAX),
            |a, b| {
                if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
                    b
                } else {
                    a
                }
            },
        );
    let max_outcome_gap = record_of
        .par_iter()
        .map(|&r| {
            let rec = &records[r as usize];
            let o = decode_outcomes(rec);
            if o.win == 0.0 && o.lose == 0.0 {
                0.0
            } else {
                (o.equity() - decode_equity(rec)).abs()
            }
        })
        .reduce(|| 0.0, f64::max);
    let (unit, p_unit) = (1.0 / EQUITY_SCALE, 1.0 / CHANCE_SCALE);
    let bellman_bound = unit + 1e-12;
    let outcome_bound = 0.5 * unit + 5.0 * 2.0 * 0.5 * p_unit + 1e-12;
    Ok(VerifyReport {
        max_bellman_gap,
        worst_record: worst,
        max_outcome_gap,
        bellman_bound,
        outcome_bound,
        ok: max_bellman_gap <= bellman_bound && max_outcome_gap <= outcome_bound,
    })
}

/// The largest differences between a table and a gnubg database.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// The variant.
    pub variant: String,
    /// Records in both.
    pub records: u64,
    /// Records compared: the legal ones with play left.
    pub compared: u64,
    /// The largest difference of each quantity.
    pub max_diff: MaxDiff,
    /// Where each largest difference is, and the two values there.
    pub quantities: Vec<Worst>,
    /// Whether every cubeless equity difference is within gnubg's precision (its 24-bit
    /// rounding, and its own stopping rule, a change of 1e-5 in a sweep).
    pub within_precision: bool,
    /// Records whose chances differ by more than [`TIE_GAP`] while their equities agree:
    /// there the plays tie in equity and the two programs break the tie apart.
    pub tie_records: u64,
    /// Records where the side on roll has a roll without a legal move (a pass), where
    /// gnubg 1.07's cubeful values go wrong.
    pub pass_records: u64,
    /// With the cube: the largest difference of each cubeful equity over the records
    /// where no roll passes (the error spreads from the pass positions to those that
    /// lead to them, so it is smaller there, not nil).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_diff_without_pass: Option<CubeDiff>,
}

/// The largest difference of each quantity.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct MaxDiff {
    /// Cubeless equity.
    pub equity: f64,
    /// P(win).
    pub win: f64,
    /// P(win a gammon or more).
    pub win_gammon: f64,
    /// P(win a backgammon).
    pub win_backgammon: f64,
    /// P(lose a gammon or more).
    pub lose_gammon: f64,
    /// P(lose a backgammon).
    pub lose_backgammon: f64,
    /// With the cube: the four no-double equities.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub cube: Option<CubeDiff>,
}

/// The largest difference of each cubeful equity.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct CubeDiff {
    /// Owned.
    pub owned: f64,
    /// Centred.
    pub centred: f64,
    /// Centred, Jacoby.
    pub centred_jacoby: f64,
    /// Opponent owns.
    pub opponent_owns: f64,
}

/// One quantity's largest difference.
#[derive(Debug, Clone, Serialize)]
pub struct Worst {
    /// The quantity.
    pub name: &'static str,
    /// The difference.
    pub max_diff: f64,
    /// Where.
    pub record: u64,
    /// The position there.
    pub position: String,
    /// tabula's value.
    pub ours: f64,
    /// gnubg's value.
    pub theirs: f64,
}

/// gnubg's precision for a cubeless chance: 24-bit truncation plus its stopping rule.
pub const GNUBG_CHANCE_TOLERANCE: f64 = 1e-5 + 1.0 / 16_777_215.0;

/// A chance that differs by more than this while the equities agree is taken for a tie
/// kept differently: far beyond what gnubg's stopping rule leaves (a few 1e-5).
pub const TIE_GAP: f64 = 1e-3;

const NAMES: [&str; 10] = [
    "equity",
    "win",
    "win_gammon",
    "win_backgammon",
    "lose_gammon",
    "lose_backgammon",
    "owned",
    "centred",
    "centred_jacoby",
    "opponent_owns",
];

/// One record compared: its number, both programs' values, whether a roll passes there.
struct Compared {
    record: u64,
    ours: [f64; 10],
    theirs: [f64; 10],
    pass: bool,
}

/// What the records compared so far add up to: per quantity the largest difference, its
/// record (the first, on a tie) and the two values there; the largest cubeful differences
/// where no roll passes; the counts.
#[derive(Default)]
struct Tally {
    worst: [(f64, u64, f64, f64); 10],
    no_pass: [f64; 4],
    compared: u64,
    ties: u64,
    passes: u64,
}

impl Tally {
    /// Counts one record, compared for its first `quantities` values.
    fn add(&mut self, c: &Compared, quantities: usize) {
        self.compared += 1;
        self.passes += u64::from(c.pass);
        let diff: [f64; 10] = std::array::from_fn(|i| (c.ours[i] - c.theirs[i]).abs());
        if diff[0] <= 6.0 * GNUBG_CHANCE_TOLERANCE && diff[1..6].iter().any(|&d| d > TIE_GAP) {
            self.ties += 1;
        }
        for (i, w) in self.worst.iter_mut().enumerate().take(quantities) {
            if diff[i] > w.0 || (diff[i] == w.0 && c.record < w.1) {
                *w = (diff[i], c.record, c.ours[i], c.theirs[i]);
            }
        }
        if !c.pass {
            for j in 0..4 {
                self.no_pass[j] = self.no_pass[j].max(diff[6 + j]);
            }
        }
    }

    /// Both tallies in one; the result does not depend on how the records were split.
    fn merge(mut self, other: Tally) -> Tally {
        for (w, o) in self.worst.iter_mut().zip(other.worst) {
            if o.0 > w.0 || (o.0 == w.0 && o.1 < w.1) {
                *w = o;
            }
        }
        for (a, b) in self.no_pass.iter_mut().zip(other.no_pass) {
            *a = a.max(b);
        }
        self.compared += other.compared;
        self.ties += other.ties;
        self.passes += other.passes;
        self
    }
}

/// Compares the table (and its cube table, if any) with a gnubg database of the same
/// variant, record by record.
pub fn compare(tables: &Tables, file: &super::HyperFile) -> Result<Comparison, Error> {
    let variant = &tables.variant;
    if variant.numbering != Numbering::Gnubg || variant.points != 24 {
        return Err(Error::Variant {
            reason: format!(
                "{} is not a Hypergammon variant: gnubg keeps no database of it",
                variant.name
            ),
        });
    }
    let records: &[Record] = tables.table.records()?;
    let cube: Option<&[CubeRecord]> = match &tables.cube {
        Some(c) => Some(c.records()?),
        None => None,
    };
    let quantities = if cube.is_some() { 10 } else { 6 };
    let sides = Sides::new(variant);
    let rolls = variant.rolls();
    let n = records.len() as u64;
    let tally = (0..n)
        .into_par_iter()
        .map_init(
            || (solver::sides::Search::new(&sides), Vec::new()),
            |(search, found), r| -> Result<Option<Compared>, Error> {
                let p = tables.numbers.position(r)?;
                if super::notation::check(variant, &p).is_err() {
                    return Ok(None);
                }
                let Some(theirs) = file.record(r)? else {
                    return Ok(None);
                };
                let rec = &records[r as usize];
                let o = decode_outcomes(rec);
                let mut ours = [0.0; 10];
                ours[..6].copy_from_slice(&[
                    decode_equity(rec),
                    o.win,
                    o.win_gammon,
                    o.win_backgammon,
                    o.lose_gammon,
                    o.lose_backgammon,
                ]);
                if let Some(c) = cube {
                    for (j, &u) in c[r as usize].iter().enumerate() {
                        ours[6 + j] = f64::from(u as i32) / EQUITY_SCALE;
                    }
                }
                let gnubg = [
                    theirs.equity(),
                    theirs.win,
                    theirs.win_gammon,
                    theirs.win_backgammon,
                    theirs.lose_gammon,
                    theirs.lose_backgammon,
                    theirs.owned,
                    theirs.centred,
                    theirs.centred_jacoby,
                    theirs.opponent_owns,
                ];
                let (me, opp) = tables.numbers.index.split(r)?;
                let (me, opp) = (me as u16, opp as u16);
                let pass = rolls.moving.iter().any(|&(a, b, _)| {
                    found.clear();
                    search.landings_into(me, sides.view(me, opp), (a, b), found);
                    found.is_empty()
                });
                Ok(Some(Compared {
                    record: r,
                    ours,
                    theirs: gnubg,
                    pass,
                }))
            },
        )
        .try_fold(Tally::default, |mut t, item| -> Result<Tally, Error> {
            if let Some(c) = item? {
                t.add(&c, quantities);
            }
            Ok(t)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.merge(b)))?;
    let Tally {
        worst,
        no_pass,
        compared,
        ties,
        passes,
    } = tally;
    let listed = NAMES[..quantities]
        .iter()
        .zip(&worst)
        .map(|(&name, &(d, r, ours, theirs))| -> Result<Worst, Error> {
            Ok(Worst {
                name,
                max_diff: d,
                record: r,
                position: super::notation::notation(variant, &tables.numbers.position(r)?),
                ours,
                theirs,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let cube_diff = |v: [f64; 4]| CubeDiff {
        owned: v[0],
        centred: v[1],
        centred_jacoby: v[2],
        opponent_owns: v[3],
    };
    let max_diff = MaxDiff {
        equity: worst[0].0,
        win: worst[1].0,
        win_gammon: worst[2].0,
        win_backgammon: worst[3].0,
        lose_gammon: worst[4].0,
        lose_backgammon: worst[5].0,
        cube: cube.map(|_| cube_diff([worst[6].0, worst[7].0, worst[8].0, worst[9].0])),
    };
    Ok(Comparison {
        variant: variant.name.clone(),
        records: n,
        compared,
        within_precision: max_diff.equity <= 6.0 * GNUBG_CHANCE_TOLERANCE,
        max_diff,
        quantities: listed,
        tie_records: ties,
        pass_records: passes,
        max_diff_without_pass: cube.map(|_| cube_diff(no_pass)),
    })
}

/// Writes the table as gnubg 1.07's `hyper<C>.bd` (atomically: a temporary file renamed
/// into place), with the cubeful equities of the cube table, or 0 when the cube was not
/// solved. Returns the records written.
pub fn export(tables: &Tables, path: &Path) -> Result<u64, Error> {
    let variant = &tables.variant;
    if variant.numbering != Numbering::Gnubg || variant.points != 24 || variant.checkers > 3 {
        return Err(Error::Variant {
            reason: format!(
                "{} is not Hypergammon 1-3: gnubg reads no database of it",
                variant.name
            ),
        });
    }
    let records: &[Record] = tables.table.records()?;
    let cube: Option<&[CubeRecord]> = match &tables.cube {
        Some(c) => Some(c.records()?),
        None => None,
    };
    let tmp = path.with_extension("bd.tmp");
    let file = std::fs::File::create(&tmp).map_err(Error::io(&tmp))?;
    let mut writer = super::HyperWriter::new(std::io::BufWriter::new(file), variant.checkers)?;
    for (r, rec) in records.iter().enumerate() {
        if writer.next_is_legal() {
            let p = tables.numbers.position(r as u64)?;
            let o = decode_outcomes(rec);
            let live = super::notation::check(variant, &p).is_ok();
            let c = match cube {
                Some(c) if live => c[r].map(|u| f64::from(u as i32) / EQUITY_SCALE),
                _ => [0.0; 4],
            };
            let values = super::Record {
                win: if live { o.win } else { 0.0 },
                win_gammon: o.win_gammon,
                win_backgammon: o.win_backgammon,
                lose_gammon: o.lose_gammon,
                lose_backgammon: o.lose_backgammon,
                owned: c[0],
                centred: c[1],
                centred_jacoby: c[2],
                opponent_owns: c[3],
            };
            writer.push(Some(&values))?;
        } else {
            writer.push(None)?;
        }
    }
    let out = writer.finish()?;
    let file = out
        .into_inner()
        .map_err(|e| Error::io(&tmp)(e.into_error()))?;
    file.sync_all().map_err(Error::io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(Error::io(path))?;
    Ok(records.len() as u64)
}
