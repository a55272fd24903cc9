//! The bear-off tables on disk (`docs/bearoff.md`, "Tables"), in the project's checked
//! format (`docs/table-format.md`), written through `table::stage` and `table::publish`.
//!
//! - One-sided, kind `bearoff-one-sided`, layout `u64`: the payload of
//!   [`super::one_sided::OneSided`] — two index words a side (where its runs start; the
//!   first roll count and length of each of its two runs), then the runs, probabilities
//!   as `f64` bits.
//! - Two-sided, kind `bearoff-two-sided`: one record a pair, `roller · n + opponent`, of
//!   `u32`s: the chance to win, with fifteen checkers the chances to win and to lose a
//!   gammon, each `round(p · (2³² − 1))`; with the cube then the no-double equities owned,
//!   centred, (centred under the Jacoby rule with fifteen checkers,) opponent owns, each
//!   `round(e · 2²⁹)` as `i32` bits.
//!
//! The header's variant line names the database (`bearoff one-sided: points=6:checkers=15`,
//! `bearoff two-sided: points=6:checkers=8; cube`), so a table is never read as another.

use super::index::{BearoffIndex, MAX_CHECKERS};
use super::one_sided;
use super::out_of_core::{self, CompactOrder, Plan, Setup};
use super::sides::{Sides, Successors};
use super::two_sided::{self, Cube, CubeEquities, Gammon, GammonCube, Win, EQUITY_SCALE};
use crate::gammon::store::Written;
use crate::gammon::{Cubeful, Error, Outcomes};
use crate::progress::Progress;
use crate::table::{self, Descriptor, Reader, Table, TableError};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Kind of a one-sided table.
pub const ONE_SIDED: &str = "bearoff-one-sided";
/// Kind of a two-sided table.
pub const TWO_SIDED: &str = "bearoff-two-sided";

/// A chance as read back.
fn chance(u: u32) -> f64 {
    f64::from(u) / f64::from(u32::MAX)
}

/// An equity as read back.
fn equity(u: u32) -> f64 {
    f64::from(u as i32) / EQUITY_SCALE
}

/// Which database a table holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Kind {
    /// Points, `P`.
    pub points: usize,
    /// Checkers a side at most, `C` (15 for a one-sided database).
    pub checkers: usize,
    /// Two-sided (else one-sided).
    pub two_sided: bool,
    /// With the cube's no-double equities (two-sided only).
    pub cube: bool,
    /// Two-sided, stored compact (`docs/bearoff.md`, "Compact tables"): each value the
    /// nearest `f32`, the pairs in the out-of-core build's order (by pip level) so the
    /// table grows as its layers are solved. The default for databases of more than 2³¹
    /// pairs (6×15 and beyond), whose `f64` working files no disk here holds.
    pub compact: bool,
}

/// Pairs above which a two-sided database is stored compact by default.
pub const COMPACT_ABOVE: u64 = 1 << 31;

/// Sides of `points` points with at most `checkers` checkers, `C(P + C, C)`, saturating.
fn side_count(points: usize, checkers: usize) -> u128 {
    (1..=checkers as u128)
        .try_fold(1u128, |acc, k| {
            Some(acc.checked_mul(points as u128 + k)? / k)
        })
        .unwrap_or(u128::MAX)
}

impl Kind {
    /// A one-sided database of `points` points.
    pub fn one_sided(points: usize) -> Kind {
        Kind {
            points,
            checkers: one_sided::CHECKERS,
            two_sided: false,
            cube: false,
            compact: false,
        }
    }

    /// A two-sided database, stored compact when it has more than [`COMPACT_ABOVE`] pairs.
    pub fn two_sided(points: usize, checkers: usize, cube: bool) -> Kind {
        let sides = side_count(points, checkers);
        Kind {
            points,
            checkers,
            two_sided: true,
            cube,
            compact: sides.saturating_mul(sides) > u128::from(COMPACT_ABOVE),
        }
    }

    /// The same database stored compact, or not (two-sided only).
    pub fn stored_compact(self, compact: bool) -> Kind {
        Kind {
            compact: compact && self.two_sided,
            ..self
        }
    }

    /// Whether gammons exist: fifteen checkers a side (a side may have borne off none).
    pub fn gammons(&self) -> bool {
        self.checkers == MAX_CHECKERS
    }

    /// Fails unless `found`, the database of the table at `path`, is this one: a table
    /// under this database's name ([`Kind::file_name`]) must be this database, not
    /// another of its kind.
    pub fn expect(&self, found: &Kind, path: &Path) -> Result<(), Error> {
        // How it is stored is not which database it is.
        if found.stored_compact(self.compact) == *self {
            return Ok(());
        }
        Err(TableError::WrongKind {
            path: path.to_path_buf(),
            expected: self.line(),
            found: found.line(),
        }
        .into())
    }

    /// The table's kind.
    pub fn table_kind(&self) -> &'static str {
        if self.two_sided {
            TWO_SIDED
        } else {
            ONE_SIDED
        }
    }

    /// The header's variant line.
    pub fn line(&self) -> String {
        let size = format!("points={}:checkers={}", self.points, self.checkers);
        let compact = if self.compact { "; f32" } else { "" };
        match (self.two_sided, self.cube) {
            (false, _) => format!("bearoff one-sided: {size}"),
            (true, true) => format!("bearoff two-sided: {size}; cube{compact}"),
            (true, false) => format!("bearoff two-sided: {size}; cubeless{compact}"),
        }
    }

    /// The kind a variant line names, if any.
    pub fn of_line(line: &str) -> Option<Kind> {
        let (two_sided, rest) = if let Some(r) = line.strip_prefix("bearoff one-sided: ") {
            (false, r)
        } else {
            (true, line.strip_prefix("bearoff two-sided: ")?)
        };
        let (rest, compact) = match rest.strip_suffix("; f32") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (size, cube) = match (two_sided, rest.split_once("; ")) {
            (false, None) => (rest, false),
            (true, Some((size, "cube"))) => (size, true),
            (true, Some((size, "cubeless"))) => (size, false),
            _ => return None,
        };
        let (p, c) = size.split_once(':')?;
        let points = p.strip_prefix("points=")?.parse().ok()?;
        let checkers = c.strip_prefix("checkers=")?.parse().ok()?;
        let kind = Kind {
            points,
            checkers,
            two_sided,
            cube,
            compact,
        };
        (kind.line() == line).then_some(kind)
    }

    /// Whether the table keeps the cube's no-double equities alone, its chances being
    /// the cubeless table's ([`Kind::chances_from`]): a compact table with gammons and
    /// the cube (6×15: 16 bytes a pair, 47 GB, where all seven values would take 82 GB).
    pub fn equities_only(&self) -> bool {
        self.compact && self.cube && self.gammons()
    }

    /// The table whose chances a table of equities alone ([`Kind::equities_only`])
    /// reads: the same database without the cube, stored the same way.
    pub fn chances_from(&self) -> Kind {
        Kind {
            cube: false,
            ..*self
        }
    }

    /// The record layout's name and size in bytes.
    pub fn layout(&self) -> (&'static str, usize) {
        if self.compact {
            return match (self.cube, self.gammons()) {
                (false, false) => ("f32", 4),
                (true, false) => ("f32x4", 16),
                (false, true) => ("f32x3", 12),
                // The cube's equities alone: the chances are the cubeless table's.
                (true, true) => ("f32x4", 16),
            };
        }
        match (self.two_sided, self.cube, self.gammons()) {
            (false, _, _) => ("u64", 8),
            (true, false, false) => ("u32", 4),
            (true, true, false) => ("u32x4", 16),
            (true, false, true) => ("u32x3", 12),
            (true, true, true) => ("u32x7", 28),
        }
    }

    /// The name of the database, as results carry it: `bearoff 6x8`, `bearoff one-sided 6`.
    pub fn name(&self) -> String {
        if self.two_sided {
            format!("bearoff {}x{}", self.points, self.checkers)
        } else {
            format!("bearoff one-sided {}", self.points)
        }
    }

    /// The default file name: `bearoff-os-P.tbl`, `bearoff-ts-PxC.tbl` (with `-cubeless`
    /// for a two-sided table without the cube).
    pub fn file_name(&self) -> String {
        match (self.two_sided, self.cube) {
            (false, _) => format!("bearoff-os-{}.tbl", self.points),
            (true, true) => format!("bearoff-ts-{}x{}.tbl", self.points, self.checkers),
            (true, false) => format!("bearoff-ts-{}x{}-cubeless.tbl", self.points, self.checkers),
        }
    }

    /// The database whose default table file is `name` ([`Kind::file_name`], with or
    /// without its `.tbl`): `bearoff-os-6`, `bearoff-ts-6x8`, `bearoff-ts-6x15-cubeless`.
    /// Only the canonical spelling is read (no `06`, no `+6`); the size is not checked.
    ///
    /// ```
    /// use tabula::gammon::bearoff::store::Kind;
    ///
    /// assert_eq!(Kind::of_file_name("bearoff-ts-6x8"), Some(Kind::two_sided(6, 8, true)));
    /// assert_eq!(Kind::of_file_name("bearoff-os-10.tbl"), Some(Kind::one_sided(10)));
    /// assert_eq!(Kind::of_file_name("bearoff-os-06"), None);
    /// assert_eq!(Kind::of_file_name("../bearoff-os-6"), None);
    /// ```
    pub fn of_file_name(name: &str) -> Option<Kind> {
        let stem = name.strip_suffix(".tbl").unwrap_or(name);
        let rest = stem.strip_prefix("bearoff-")?;
        let kind = match (rest.strip_prefix("os-"), rest.strip_prefix("ts-")) {
            (Some(p), _) => Kind::one_sided(p.parse().ok()?),
            (_, Some(size)) => {
                let (size, cube) = match size.strip_suffix("-cubeless") {
                    Some(s) => (s, false),
                    None => (size, true),
                };
                let (p, c) = size.split_once('x')?;
                Kind::two_sided(p.parse().ok()?, c.parse().ok()?, cube)
            }
            _ => return None,
        };
        (kind.file_name() == format!("{stem}.tbl")).then_some(kind)
    }

    /// The index of one side.
    pub fn index(&self) -> Result<BearoffIndex, Error> {
        BearoffIndex::new(self.points, self.checkers)
    }

    /// Refuses what no database holds: a one-sided database of other than 15 checkers.
    pub fn check(&self) -> Result<(), Error> {
        self.index()?;
        if !self.two_sided && self.checkers != one_sided::CHECKERS {
            return Err(Error::Size {
                points: self.points,
                checkers: self.checkers,
                reason: "a one-sided database is of fifteen checkers",
            });
        }
        Ok(())
    }
}

/// What a build did.
#[derive(Debug, Clone, Serialize)]
pub struct BuildReport {
    /// The database.
    pub database: Kind,
    /// The table published.
    pub table: Written,
    /// Records in the table: a one-sided table's words, a two-sided table's pairs.
    pub records: u64,
    /// One side's positions.
    pub positions: u64,
    /// Pairs of positions (two-sided).
    pub pairs: u64,
    /// Seconds solving.
    pub solve_seconds: f64,
    /// Seconds of the whole build, writing the table included.
    pub seconds: f64,
    /// An out-of-core build's memory, disk traffic and checkpoints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out_of_core: Option<out_of_core::Report>,
}

/// How a two-sided table is solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// In memory when the machine has room for it, else out of core in what it has.
    #[default]
    Auto,
    /// Every value in memory ([`two_sided::solve`]).
    InMemory,
    /// Out of core ([`out_of_core::solve`]) in at most `memory` bytes of working values,
    /// its working files in the folder beside the table ([`work_folder`]), from which a
    /// build killed part way resumes.
    OutOfCore {
        /// Bytes of working values it may hold.
        memory: u64,
    },
}

/// The working folder of an out-of-core build of the table at `path`: beside it, named
/// after it (`bearoff-ts-6x10.tbl.build`).
pub fn work_folder(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".build");
    path.with_file_name(name)
}

/// Bytes a build of `kind` holds at its peak, about.
pub fn footprint(kind: &Kind) -> Result<u64, Error> {
    let index = kind.index()?;
    let n = index.sides();
    if !kind.two_sided {
        // The payload (about 26 words a side at 10 points), the side tables and the
        // last levels' tables.
        return Ok(n * (26 * 8 + 80));
    }
    let values = match (kind.cube, kind.gammons()) {
        (false, false) => 8,
        (true, false) => 32,
        (false, true) => 32,
        (true, true) => 64,
    };
    let (_, record) = kind.layout();
    Ok(index.pairs() * (values + record as u64))
}

/// Refuses a build this machine cannot hold, before anything is allocated.
fn check_memory(kind: &Kind) -> Result<(), Error> {
    let need = footprint(kind)?;
    if let Some(have) = crate::memory::available() {
        if need > have {
            return Err(Error::OutOfMemory {
                what: format!("building the {} database", kind.name()),
                need,
                have,
            });
        }
    }
    Ok(())
}

/// Solves the database `kind` and publishes its table at `path` (`docs/table-format.md`):
/// all or nothing, the folder checked for room before the solve; a two-sided database in
/// memory when it fits, else out of core ([`Method::Auto`]).
pub fn build(kind: &Kind, path: &Path, progress: Progress<'_>) -> Result<BuildReport, Error> {
    build_with(kind, path, Method::Auto, progress)
}

/// As [`build`], the two-sided solve done as `method` says (a one-sided database is
/// always solved in memory).
pub fn build_with(
    kind: &Kind,
    path: &Path,
    method: Method,
    progress: Progress<'_>,
) -> Result<BuildReport, Error> {
    build_inner(kind, path, method, None, progress)
}

/// The two-sided database `kind` solved out of core in at most `memory` bytes by the
/// ranks of `split` together (each runs this with the same arguments), its working files
/// and table in a folder they share: rank 0 writes them; every rank returns the report
/// of the table published.
pub fn build_shared(
    kind: &Kind,
    path: &Path,
    memory: u64,
    split: &dyn out_of_core::Split,
    progress: Progress<'_>,
) -> Result<BuildReport, Error> {
    if !kind.two_sided {
        return Err(Error::Size {
            points: kind.points,
            checkers: kind.checkers,
            reason: "only a two-sided database is built by several processes",
        });
    }
    build_inner(
        kind,
        path,
        Method::OutOfCore { memory },
        Some(split),
        progress,
    )
}

fn build_inner(
    kind: &Kind,
    path: &Path,
    method: Method,
    split: Option<&dyn out_of_core::Split>,
    progress: Progress<'_>,
) -> Result<BuildReport, Error> {
    let lead = split.is_none_or(|s| s.rank() == 0);
    let started = Instant::now();
    kind.check()?;
    if kind.compact {
        return build_compact(kind, path, method, split, progress);
    }
    let index = kind.index()?;
    let method = match (kind.two_sided, method) {
        (false, _) => Method::InMemory,
        (true, Method::Auto) => {
            let need = footprint(kind)?;
            match crate::memory::available() {
                Some(have) if need > have => Method::OutOfCore {
                    // Room for the rest of the machine: three quarters of what it has.
                    memory: have / 4 * 3,
                },
                _ => Method::InMemory,
            }
        }
        (true, m) => m,
    };
    if method == Method::InMemory {
        check_memory(kind)?;
    }
    let line = kind.line();
    let (layout, size) = kind.layout();
    let descriptor = Descriptor {
        kind: kind.table_kind(),
        layout,
        variant: &line,
    };
    let mut ooc = None;
    let (staged, records, solve_seconds) = if kind.two_sided {
        table::prepare(&[path], table::file_len(size as u32, index.pairs()))?;
        let sides = Sides::new(&index);
        let succ = Successors::new(&sides);
        let full = full_sides(kind, &index);
        let solve_started = Instant::now();
        let plan;
        let work = work_folder(path);
        let setup = match method {
            Method::OutOfCore { memory } => {
                plan = Plan::new(&sides);
                Some(Setup {
                    succ: &succ,
                    plan: &plan,
                    full: &full,
                    line: &line,
                    memory,
                    work: &work,
                    split,
                })
            }
            _ => None,
        };
        macro_rules! solved {
            ($v:ty) => {{
                if let Some(setup) = &setup {
                    let mut stream = None;
                    let report = out_of_core::solve::<$v>(setup, progress, |batch| {
                        if stream.is_none() {
                            stream = Some(table::Stream::new(path, descriptor, index.pairs())?);
                        }
                        Ok(stream.as_mut().expect("made").push(batch)?)
                    })?;
                    let seconds = solve_started.elapsed().as_secs_f64();
                    ooc = Some(report);
                    if !lead {
                        // Rank 0 writes the table: the others report it once published.
                        let split = split.expect("ranks");
                        split.barrier();
                        let t = TwoSidedTable::open(path)?;
                        let header = t.table().header();
                        return Ok(BuildReport {
                            database: *kind,
                            table: Written {
                                path: path.to_path_buf(),
                                kind: header.kind.clone(),
                                checksum: header.checksum_hex(),
                            },
                            records: index.pairs(),
                            positions: index.sides(),
                            pairs: index.pairs(),
                            solve_seconds: seconds,
                            seconds: started.elapsed().as_secs_f64(),
                            out_of_core: ooc,
                        });
                    }
                    let staged = stream.expect("the table's records").finish()?;
                    (staged, index.pairs(), seconds)
                } else {
                    let out = two_sided::solve::<$v>(&succ, &full, progress);
                    let seconds = solve_started.elapsed().as_secs_f64();
                    progress.start("writing the table", None);
                    (
                        table::stage(path, descriptor, &out)?,
                        out.len() as u64,
                        seconds,
                    )
                }
            }};
        }
        match (kind.cube, kind.gammons()) {
            (false, false) => solved!(Win),
            (true, false) => solved!(Cube),
            (false, true) => solved!(Gammon),
            (true, true) => solved!(GammonCube),
        }
    } else {
        check_memory(kind)?;
        table::prepare(&[path], table::file_len(8, index.sides() * 26))?;
        let solve_started = Instant::now();
        let solved = one_sided::solve(kind.points, progress)?;
        let seconds = solve_started.elapsed().as_secs_f64();
        progress.start("writing the table", None);
        let records = solved.words.len() as u64;
        (
            table::stage(path, descriptor, &solved.words)?,
            records,
            seconds,
        )
    };
    let target = staged.target().to_path_buf();
    let published = table::publish(vec![staged]);
    if let Some(split) = split {
        // The other ranks read the table once it is published (or fail with it).
        split.barrier();
    }
    let header = published?.remove(0);
    if let Some(report) = &ooc {
        // The table is published: the working files are no longer needed.
        std::fs::remove_dir_all(&report.work).map_err(|source| TableError::Io {
            path: report.work.clone(),
            source,
        })?;
    }
    progress.finish();
    Ok(BuildReport {
        database: *kind,
        table: Written {
            path: target,
            kind: header.kind.clone(),
            checksum: header.checksum_hex(),
        },
        records,
        positions: index.sides(),
        pairs: if kind.two_sided { index.pairs() } else { 0 },
        solve_seconds,
        seconds: started.elapsed().as_secs_f64(),
        out_of_core: ooc,
    })
}

/// Whether each side of `index` has borne off none of its checkers, where gammons
/// count (fifteen checkers); none does otherwise.
fn full_sides(kind: &Kind, index: &BearoffIndex) -> Vec<bool> {
    (0..index.sides())
        .map(|s| {
            let on: usize = index
                .side(s)
                .map_or(0, |v| v.iter().map(|&c| usize::from(c)).sum());
            kind.gammons() && on == MAX_CHECKERS
        })
        .collect()
}

/// [`build_inner`] of a compact database: always out of core, the table growing in the
/// working folder as its layers are solved ([`out_of_core::solve_compact`]).
fn build_compact(
    kind: &Kind,
    path: &Path,
    method: Method,
    split: Option<&dyn out_of_core::Split>,
    progress: Progress<'_>,
) -> Result<BuildReport, Error> {
    let started = Instant::now();
    let memory = match method {
        Method::OutOfCore { memory } => memory,
        Method::Auto => crate::memory::available().unwrap_or(1 << 32) / 4 * 3,
        Method::InMemory => {
            return Err(Error::Size {
                points: kind.points,
                checkers: kind.checkers,
                reason: "a compact database is built out of core",
            })
        }
    };
    let index = kind.index()?;
    let line = kind.line();
    let (layout, size) = kind.layout();
    let descriptor = Descriptor {
        kind: kind.table_kind(),
        layout,
        variant: &line,
    };
    let work = work_folder(path);
    // Room for what the growing table does not hold yet.
    let grown = std::fs::metadata(work.join("table.partial")).map_or(0, |m| m.len());
    table::prepare(
        &[path],
        table::file_len(size as u32, index.pairs()).saturating_sub(grown),
    )?;
    let sides = Sides::new(&index);
    let succ = Successors::new(&sides);
    let full = full_sides(kind, &index);
    let plan = Plan::new(&sides);
    let setup = Setup {
        succ: &succ,
        plan: &plan,
        full: &full,
        line: &line,
        memory,
        work: &work,
        split,
    };
    let solve_started = Instant::now();
    let (report, staged) = match (kind.cube, kind.gammons()) {
        (false, false) => out_of_core::solve_compact::<Win>(&setup, progress, path, descriptor),
        (true, false) => out_of_core::solve_compact::<Cube>(&setup, progress, path, descriptor),
        (false, true) => out_of_core::solve_compact::<Gammon>(&setup, progress, path, descriptor),
        (true, true) => {
            out_of_core::solve_compact::<CubeEquities>(&setup, progress, path, descriptor)
        }
    }?;
    let solve_seconds = solve_started.elapsed().as_secs_f64();
    let header = match staged {
        Some(staged) => {
            let published = table::publish(vec![staged]);
            if let Some(split) = split {
                // The other ranks read the table once it is published (or fail with it).
                split.barrier();
            }
            let header = published?.remove(0);
            std::fs::remove_dir_all(&work).map_err(|source| TableError::Io {
                path: work.clone(),
                source,
            })?;
            header
        }
        None => {
            split.expect("ranks").barrier();
            TwoSidedTable::open(path)?.table().header().clone()
        }
    };
    Ok(BuildReport {
        database: *kind,
        table: Written {
            path: path.to_path_buf(),
            kind: header.kind.clone(),
            checksum: header.checksum_hex(),
        },
        records: index.pairs(),
        positions: index.sides(),
        pairs: index.pairs(),
        solve_seconds,
        seconds: started.elapsed().as_secs_f64(),
        out_of_core: Some(report),
    })
}

/// Opens a bear-off table and tells which database it holds.
/// Opens the table at `path`, which must be a one-sided database or, with `two_sided`,
/// a two-sided one.
fn open_sided(path: &Path, two_sided: bool, reader: Reader<'_>) -> Result<(Table, Kind), Error> {
    let (table, kind) = open_kind(path, reader)?;
    if kind.two_sided != two_sided {
        let expected = if two_sided { TWO_SIDED } else { ONE_SIDED };
        return Err(TableError::WrongKind {
            path: path.to_path_buf(),
            expected: expected.to_string(),
            found: kind.table_kind().to_string(),
        }
        .into());
    }
    Ok((table, kind))
}

/// The index of `kind`'s sides, once `unfit` (given the table's record count) finds no
/// fault with `table`'s size.
fn fitted_index(
    table: &Table,
    kind: Kind,
    unfit: impl FnOnce(u64, &BearoffIndex) -> Option<String>,
) -> Result<BearoffIndex, Error> {
    let index = kind.index()?;
    match unfit(table.header().record_count, &index) {
        Some(message) => Err(TableError::Malformed {
            path: table.path().to_path_buf(),
            message,
        }
        .into()),
        None => Ok(index),
    }
}

fn open_kind(path: &Path, reader: Reader<'_>) -> Result<(Table, Kind), Error> {
    let table = reader.open(path)?;
    let header = table.header();
    if header.kind != ONE_SIDED && header.kind != TWO_SIDED {
        return Err(TableError::WrongKind {
            path: path.to_path_buf(),
            expected: format!("{ONE_SIDED} or {TWO_SIDED}"),
            found: header.kind.clone(),
        }
        .into());
    }
    let malformed = |message: String| TableError::Malformed {
        path: path.to_path_buf(),
        message,
    };
    let kind = Kind::of_line(&header.variant)
        .filter(|k| k.table_kind() == header.kind)
        .ok_or_else(|| {
            malformed(format!(
                "its variant line {} names no bear-off database",
                crate::fault::excerpt(&header.variant)
            ))
        })?;
    kind.check()?;
    let (layout, size) = kind.layout();
    if header.layout != layout || header.record_size as usize != size {
        return Err(malformed(format!(
            "records of {} bytes ({}), expected {size} ({layout})",
            header.record_size, header.layout
        ))
        .into());
    }
    Ok((table, kind))
}

/// A bear-off table of either kind.
pub enum Database {
    /// A one-sided table.
    OneSided(OneSidedTable),
    /// A two-sided table.
    TwoSided(TwoSidedTable),
}

impl Database {
    /// Opens the table at `path`, whichever kind it is.
    pub fn open(path: &Path) -> Result<Database, Error> {
        Database::open_with(path, Reader::Map)
    }

    /// As [`Database::open`] with the reader `reader` (a long-lived process reads through
    /// the cache of verified blocks, `docs/table-format.md`).
    pub fn open_with(path: &Path, reader: Reader<'_>) -> Result<Database, Error> {
        let (table, kind) = open_kind(path, reader)?;
        Ok(if kind.two_sided {
            Database::TwoSided(TwoSidedTable::with(table, kind, reader)?)
        } else {
            Database::OneSided(OneSidedTable::with(table, kind)?)
        })
    }

    /// The table file.
    pub fn table(&self) -> &Table {
        match self {
            Database::OneSided(t) => &t.table,
            Database::TwoSided(t) => &t.table,
        }
    }

    /// Fails unless the database is `expected`: a table found under the name of one
    /// database ([`Kind::file_name`]) must be that database, not another of its kind.
    pub fn expect(&self, expected: &Kind) -> Result<(), Error> {
        expected.expect(&self.kind(), self.table().path())
    }

    /// The database it holds.
    pub fn kind(&self) -> Kind {
        match self {
            Database::OneSided(t) => t.kind,
            Database::TwoSided(t) => t.kind,
        }
    }
}

/// A one-sided table, for questions: each answer reads one side's two index words and
/// its runs (every block they lie in checked against its sum).
pub struct OneSidedTable {
    table: Table,
    kind: Kind,
    index: BearoffIndex,
}

/// One side's distributions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Distributions {
    /// The probabilities of needing exactly 0, 1, 2, … rolls to bear off every checker
    /// (trailing zeros dropped).
    pub rolls: Vec<f64>,
    /// For a side with all fifteen on the board, the probabilities of needing exactly
    /// 0, 1, 2, … rolls to bear off its first checker.
    pub gammon_rolls: Option<Vec<f64>>,
}

impl OneSidedTable {
    /// Opens the one-sided table at `path`; refuses a table of another kind.
    pub fn open(path: &Path) -> Result<OneSidedTable, Error> {
        OneSidedTable::open_with(path, Reader::Map)
    }

    /// As [`OneSidedTable::open`] with the reader `reader`.
    pub fn open_with(path: &Path, reader: Reader<'_>) -> Result<OneSidedTable, Error> {
        let (table, kind) = open_sided(path, false, reader)?;
        OneSidedTable::with(table, kind)
    }

    /// The table, once its size agrees with its header: the index words of every side
    /// come first, so the first side's runs start right after them, and the last side's
    /// runs end the payload. A header relabelled to another number of points fails one
    /// of the two.
    fn with(table: Table, kind: Kind) -> Result<OneSidedTable, Error> {
        let index = fitted_index(&table, kind, |records, index| {
            (records < 2 * index.sides())
                .then(|| format!("{records} records cannot index {} sides", index.sides()))
        })?;
        let t = OneSidedTable { table, kind, index };
        let sides = t.index.sides();
        let records = t.table.header().record_count;
        let first = t.word(0)?;
        let last = sides - 1;
        let (offset, packed) = (t.word(2 * last)?, t.word(2 * last + 1)?);
        let end = offset.saturating_add((packed >> 8 & 0xFF) + (packed >> 24 & 0xFF));
        if first != 2 * sides || end != records {
            return Err(TableError::Malformed {
                path: t.table.path().to_path_buf(),
                message: format!(
                    "its header says `{}` ({sides} sides), but its index does not fit its \
                     {records} records",
                    kind.line()
                ),
            }
            .into());
        }
        Ok(t)
    }

    /// The database.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The index of its sides.
    pub fn index(&self) -> &BearoffIndex {
        &self.index
    }

    /// The table file.
    pub fn table(&self) -> &Table {
        &self.table
    }

    fn word(&self, i: u64) -> Result<u64, Error> {
        Ok(self.table.record::<u64>(i)?)
    }

    fn corrupt(&self, side: u64) -> Error {
        TableError::Malformed {
            path: self.table.path().to_path_buf(),
            message: format!("the index words of side {side} point outside the table"),
        }
        .into()
    }

    /// The distributions of side `side`.
    pub fn distributions(&self, side: u64) -> Result<Distributions, Error> {
        if side >= self.index.sides() {
            return Err(Error::OutOfRange {
                what: "side",
                number: side,
                len: self.index.sides(),
            });
        }
        let offset = self.word(2 * side)?;
        let packed = self.word(2 * side + 1)?;
        let field = |i: u32| (packed >> (8 * i) & 0xFF) as usize;
        let count = self.table.header().record_count;
        let (first, len, gfirst, glen) = (field(0), field(1), field(2), field(3));
        offset
            .checked_add((len + glen) as u64)
            .filter(|&e| e <= count && len > 0 && packed >> 32 == 0)
            .ok_or_else(|| self.corrupt(side))?;
        let run = |first: usize, at: u64, len: usize| -> Result<Vec<f64>, Error> {
            let mut out = vec![0.0; first];
            for i in 0..len as u64 {
                out.push(f64::from_bits(self.word(at + i)?));
            }
            while out.last() == Some(&0.0) {
                out.pop();
            }
            Ok(out)
        };
        Ok(Distributions {
            rolls: run(first, offset, len)?,
            gammon_rolls: if glen == 0 {
                None
            } else {
                Some(run(gfirst, offset + len as u64, glen)?)
            },
        })
    }

    /// The distributions of a side given as its checkers on points `1..=P'` (any
    /// `P' ≤ P`: the table's side with the same checkers).
    pub fn distributions_of(&self, side: &[u8]) -> Result<Distributions, Error> {
        self.distributions(self.rank_of(side)?)
    }

    /// The table's rank of a side given on `side.len()` points (at most the table's).
    pub fn rank_of(&self, side: &[u8]) -> Result<u64, Error> {
        let p = self.index.points();
        if side.len() > p {
            if let Some(q) = (p..side.len()).find(|&q| side[q] > 0) {
                return Err(Error::Side {
                    points: p,
                    checkers: self.index.checkers(),
                    reason: format!("a checker on point {}", q + 1),
                });
            }
        }
        let mut own = vec![0u8; p];
        let k = side.len().min(p);
        own[..k].copy_from_slice(&side[..k]);
        self.index.rank(&own)
    }

    /// Checks every block and the payload's checksum.
    pub fn verify(&self) -> Result<(), Error> {
        Ok(self.table.verify()?)
    }
}

/// A two-sided table, for questions: each answer reads one record.
pub struct TwoSidedTable {
    table: Table,
    kind: Kind,
    index: BearoffIndex,
    /// A compact table's order of pairs.
    order: Option<CompactOrder>,
    /// A table of the cube's equities alone ([`Kind::equities_only`]): the cubeless
    /// table beside it that keeps the chances, when it is there.
    beside: Option<Box<TwoSidedTable>>,
}

/// What a two-sided table says of a pair, for the side on roll before it rolls.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PairValues {
    /// Its chance to win.
    pub win: f64,
    /// Its chance to win a gammon (0 below fifteen checkers).
    pub win_gammon: f64,
    /// Its chance to lose a gammon (0 below fifteen checkers).
    pub lose_gammon: f64,
    /// Its no-double equities, when the table keeps the cube (below fifteen checkers the
    /// Jacoby rule changes nothing: `centred_jacoby` is `centred`).
    pub cubeful: Option<Cubeful>,
}

impl PairValues {
    /// The outcome chances (no backgammon is possible in a bear-off).
    pub fn outcomes(&self) -> Outcomes {
        Outcomes {
            win: self.win,
            win_gammon: self.win_gammon,
            win_backgammon: 0.0,
            lose: 1.0 - self.win,
            lose_gammon: self.lose_gammon,
            lose_backgammon: 0.0,
        }
    }

    /// The cubeless equity: a win 1, a gammon 2.
    pub fn equity(&self) -> f64 {
        self.outcomes().equity()
    }
}

impl TwoSidedTable {
    /// Opens the two-sided table at `path`; refuses a table of another kind.
    pub fn open(path: &Path) -> Result<TwoSidedTable, Error> {
        TwoSidedTable::open_with(path, Reader::Map)
    }

    /// As [`TwoSidedTable::open`] with the reader `reader`.
    pub fn open_with(path: &Path, reader: Reader<'_>) -> Result<TwoSidedTable, Error> {
        let (table, kind) = open_sided(path, true, reader)?;
        TwoSidedTable::with(table, kind, reader)
    }

    fn with(table: Table, kind: Kind, reader: Reader<'_>) -> Result<TwoSidedTable, Error> {
        let beside = if kind.equities_only() {
            let path = chances_path(&table, kind);
            match TwoSidedTable::open_with(&path, reader) {
                Ok(t) => {
                    kind.chances_from().expect(&t.kind(), &path)?;
                    Some(Box::new(t))
                }
                Err(Error::Table(TableError::Missing { .. })) => None,
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        let index = fitted_index(&table, kind, |records, index| {
            (records != index.pairs())
                .then(|| format!("holds {records} records, expected {}", index.pairs()))
        })?;
        let order = kind.compact.then(|| CompactOrder::new(&Sides::new(&index)));
        Ok(TwoSidedTable {
            table,
            kind,
            index,
            order,
            beside,
        })
    }

    /// The database.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The index of one side.
    pub fn index(&self) -> &BearoffIndex {
        &self.index
    }

    /// The table file.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Whether it keeps the cube.
    pub fn has_cube(&self) -> bool {
        self.kind.cube
    }

    /// The values of pair `pair` (`roller · n + opponent`).
    pub fn values_at(&self, pair: u64) -> Result<PairValues, Error> {
        let t = &self.table;
        let Some(record) = self.compact_record(pair)? else {
            let record = pair;
            return Ok(match (self.kind.cube, self.kind.gammons()) {
                (false, false) => decode(&t.record::<[u32; 1]>(record)?, false, false),
                (true, false) => decode(&t.record::<[u32; 4]>(record)?, true, false),
                (false, true) => decode(&t.record::<[u32; 3]>(record)?, false, true),
                (true, true) => decode(&t.record::<[u32; 7]>(record)?, true, true),
            });
        };
        let v = match (self.kind.cube, self.kind.gammons()) {
            (false, false) => widen(&t.record::<[f32; 1]>(record)?),
            (true, false) => widen(&t.record::<[f32; 4]>(record)?),
            (false, true) => widen(&t.record::<[f32; 3]>(record)?),
            (true, true) => {
                let c = self.chances()?.values_at(pair)?;
                let mut v = vec![c.win, c.win_gammon, c.lose_gammon];
                v.extend(widen(&t.record::<[f32; 4]>(record)?));
                v
            }
        };
        Ok(decode_with(&v, self.kind.cube, self.kind.gammons()))
    }

    /// The no-double equities of pair `pair` alone (none without the cube): what a table
    /// of the cube's equities alone ([`Kind::equities_only`]) answers without its
    /// cubeless table beside it.
    pub fn cubeful_at(&self, pair: u64) -> Result<Option<Cubeful>, Error> {
        if !self.kind.equities_only() {
            return Ok(self.values_at(pair)?.cubeful);
        }
        let record = self.compact_record(pair)?.expect("a compact table");
        let e = widen(&self.table.record::<[f32; 4]>(record)?);
        Ok(Some(Cubeful {
            owned: e[0],
            centred: e[1],
            centred_jacoby: e[2],
            opponent_owns: e[3],
        }))
    }

    /// [`TwoSidedTable::cubeful_at`] of the pair of sides `roller`, `opponent`.
    pub fn cubeful(&self, roller: u64, opponent: u64) -> Result<Option<Cubeful>, Error> {
        self.cubeful_at(self.index.record(roller, opponent)?)
    }

    /// The table that keeps the chances: this one, or for a table of equities alone the
    /// cubeless table beside it (a fault naming it and the command that builds it when
    /// it is not there).
    pub fn chances(&self) -> Result<&TwoSidedTable, Error> {
        if !self.kind.equities_only() {
            return Ok(self);
        }
        self.beside.as_deref().ok_or_else(|| {
            let needs = chances_path(&self.table, self.kind);
            Error::NoChances {
                path: self.table.path().to_path_buf(),
                build: format!(
                    "tabula bearoff build --two-sided --points {} --checkers {} --cubeless \
                     --table {}",
                    self.kind.points,
                    self.kind.checkers,
                    needs.display()
                ),
                needs,
            }
        })
    }

    /// The record of pair `pair` in a compact table (none for another).
    fn compact_record(&self, pair: u64) -> Result<Option<u64>, Error> {
        let Some(order) = &self.order else {
            return Ok(None);
        };
        let n = self.index.sides();
        if pair >= n * n {
            return Err(Error::OutOfRange {
                what: "pair",
                number: pair,
                len: n * n,
            });
        }
        Ok(Some(order.record((pair / n) as usize, (pair % n) as usize)))
    }

    /// The values of the pair of sides `roller`, `opponent` (ranks).
    pub fn values(&self, roller: u64, opponent: u64) -> Result<PairValues, Error> {
        self.values_at(self.index.record(roller, opponent)?)
    }

    /// Checks every block and the payload's checksum.
    pub fn verify(&self) -> Result<(), Error> {
        Ok(self.table.verify()?)
    }
}

/// Where the cubeless table that keeps the chances of `table`, a table of the cube's
/// equities alone, lies: beside it, under its own name.
fn chances_path(table: &Table, kind: Kind) -> PathBuf {
    table.path().with_file_name(kind.chances_from().file_name())
}

/// A compact record's values as `f64`s.
fn widen(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

/// A stored record's values.
pub fn decode(r: &[u32], cube: bool, gammons: bool) -> PairValues {
    let at = if gammons { 3 } else { 1 };
    let v: Vec<f64> = r
        .iter()
        .enumerate()
        .map(|(k, &u)| if k < at { chance(u) } else { equity(u) })
        .collect();
    decode_with(&v, cube, gammons)
}

/// The values of a record read back as numbers: the chances, then the equities.
fn decode_with(r: &[f64], cube: bool, gammons: bool) -> PairValues {
    let (win, win_gammon, lose_gammon, at) = if gammons {
        (r[0], r[1], r[2], 3)
    } else {
        (r[0], 0.0, 0.0, 1)
    };
    let cubeful = cube.then(|| {
        let e = |i: usize| r[at + i];
        if gammons {
            Cubeful {
                owned: e(0),
                centred: e(1),
                centred_jacoby: e(2),
                opponent_owns: e(3),
            }
        } else {
            Cubeful {
                owned: e(0),
                centred: e(1),
                centred_jacoby: e(1),
                opponent_owns: e(2),
            }
        }
    });
    PairValues {
        win,
        win_gammon,
        lose_gammon,
        cubeful,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_and_its_variant_line_round_trip() {
        for kind in [
            Kind::one_sided(6),
            Kind::two_sided(6, 6, true),
            Kind::two_sided(6, 15, false),
            Kind::two_sided(4, 15, true),
        ] {
            assert_eq!(Kind::of_line(&kind.line()), Some(kind));
        }
        assert_eq!(
            Kind::of_line("bearoff two-sided: points=6:checkers=6"),
            None
        );
        assert_eq!(
            Kind::two_sided(6, 8, true).file_name(),
            "bearoff-ts-6x8.tbl"
        );
        assert!(Kind::two_sided(6, 15, false).gammons());
        assert!(Kind::one_sided(6).check().is_ok());
        assert!(Kind {
            checkers: 14,
            ..Kind::one_sided(6)
        }
        .check()
        .is_err());
    }

    #[test]
    fn a_built_table_answers_what_the_solve_found() {
        let dir = tempfile::tempdir().unwrap();
        let kind = Kind::two_sided(3, 3, true);
        let path = dir.path().join(kind.file_name());
        let report = build(&kind, &path, Progress::SILENT).unwrap();
        assert_eq!(report.pairs, 400);
        let t = TwoSidedTable::open(&path).unwrap();
        // One checker on the one point against anything: a certain win.
        let v = t.values(1, 19).unwrap();
        assert_eq!(v.win, 1.0);
        assert_eq!(v.cubeful.unwrap().centred, 1.0);
        let os = dir.path().join("os.tbl");
        build(&Kind::one_sided(2), &os, Progress::SILENT).unwrap();
        let o = OneSidedTable::open(&os).unwrap();
        assert_eq!(o.distributions(1).unwrap().rolls, vec![0.0, 1.0]);
        assert!(TwoSidedTable::open(&os).is_err());
        assert!(OneSidedTable::open(&path).is_err());
    }

    /// Builds `kind` in memory and compact; every pair's values, and the largest
    /// difference.
    fn compact_against_f64(kind: Kind, memory: u64) -> f64 {
        let dir = tempfile::tempdir().unwrap();
        let (exact, small) = (dir.path().join("e.tbl"), dir.path().join("c.tbl"));
        let compact = kind.stored_compact(true);
        build_with(&kind, &exact, Method::InMemory, Progress::SILENT).unwrap();
        let r = build_with(
            &compact,
            &small,
            Method::OutOfCore { memory },
            Progress::SILENT,
        )
        .unwrap();
        assert!(!work_folder(&small).exists());
        assert!(r.out_of_core.unwrap().peak_memory <= memory);
        if compact.equities_only() {
            // Its chances are the cubeless table's, beside it under that table's name.
            let alone = TwoSidedTable::open(&small).unwrap();
            let e = alone.values_at(1).unwrap_err();
            assert!(matches!(e, Error::NoChances { .. }), "{e}");
            let chances = compact.chances_from();
            let beside = dir.path().join(chances.file_name());
            build_with(
                &chances,
                &beside,
                Method::OutOfCore { memory },
                Progress::SILENT,
            )
            .unwrap();
        }
        let (e, c) = (
            TwoSidedTable::open(&exact).unwrap(),
            TwoSidedTable::open(&small).unwrap(),
        );
        assert_eq!(c.kind(), compact);
        assert_eq!(c.table().header().layout, compact.layout().0);
        kind.expect(&c.kind(), &small).unwrap();
        let n = e.index().sides();
        let mut worst = 0.0f64;
        for pair in 0..n * n {
            let (a, b) = (e.values_at(pair).unwrap(), c.values_at(pair).unwrap());
            let mut d = vec![a.win - b.win, a.win_gammon - b.win_gammon];
            d.push(a.lose_gammon - b.lose_gammon);
            if let (Some(x), Some(y)) = (a.cubeful, b.cubeful) {
                d.extend([
                    x.owned - y.owned,
                    x.centred - y.centred,
                    x.centred_jacoby - y.centred_jacoby,
                    x.opponent_owns - y.opponent_owns,
                ]);
            }
            worst = d.iter().fold(worst, |w, x| w.max(x.abs()));
        }
        worst
    }

    /// [`compact_against_f64`], printed and held to `f32`'s rounding: 24 bits, where the
    /// `u32` records of the `f64` table keep 29 to 32.
    fn compact_within_f32_rounding(kind: Kind, memory: u64) -> f64 {
        let worst = compact_against_f64(kind, memory);
        eprintln!("{}: largest difference {worst:.3e}", kind.line());
        assert!(worst < 3e-7, "{}: {worst}", kind.line());
        worst
    }

    #[test]
    fn a_compact_table_holds_the_f64_builds_values_to_f32_rounding() {
        // Pairs in the build's order: a wrong place would differ by far more.
        for (kind, memory) in [
            (Kind::two_sided(3, 15, false), 1 << 22),
            (Kind::two_sided(3, 15, true), 1 << 23),
            (Kind::two_sided(5, 5, true), 1 << 20),
            (Kind::two_sided(5, 5, false), 1 << 20),
        ] {
            let worst = compact_within_f32_rounding(kind, memory);
            assert!(worst > 0.0, "{}: no rounding at all?", kind.line());
        }
    }

    #[test]
    #[ignore = "4x15 and 6x10 both ways: about a minute"]
    fn the_largest_compact_error_at_4x15_and_6x10() {
        for (kind, memory) in [
            (Kind::two_sided(4, 15, true), 1 << 28),
            (Kind::two_sided(4, 15, false), 1 << 28),
            (Kind::two_sided(6, 10, false), 1 << 28),
        ] {
            compact_within_f32_rounding(kind, memory);
        }
    }

    #[test]
    fn compact_is_the_default_above_two_to_the_31_pairs_only() {
        assert!(!Kind::two_sided(6, 14, true).compact);
        let k = Kind::two_sided(6, 15, false);
        assert!(k.compact);
        assert_eq!(
            k.line(),
            "bearoff two-sided: points=6:checkers=15; cubeless; f32"
        );
        assert_eq!(Kind::of_line(&k.line()), Some(k));
        assert_eq!(k.layout(), ("f32x3", 12));
        assert_eq!(Kind::of_file_name(&k.file_name()), Some(k));
        assert!(Kind::two_sided(7, 15, true).compact);
        assert!(!Kind::one_sided(6).stored_compact(true).compact);
        // No overflow on absurd sizes.
        assert!(Kind::two_sided(usize::MAX, usize::MAX, true).compact);
        assert!(build_with(
            &Kind::two_sided(2, 2, false).stored_compact(true),
            Path::new("/nonexistent/x.tbl"),
            Method::InMemory,
            Progress::SILENT
        )
        .is_err());
    }
}
