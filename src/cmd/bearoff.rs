//! `tabula bearoff …`: the bear-off databases of real backgammon (`docs/bearoff.md`),
//! one-sided and two-sided with the cube, their questions, and gnubg's files.

pub mod analyse;
pub mod answer;
pub mod at_score;
mod render;

use super::gammon::args::{parse_cube, CubeArg, Json, Quiet, Timings};
use super::gammon::matchplay::AtScore;
use super::progress::Bars;
use super::{emit, emit_json, tables};
use answer::{RaceEquity, RaceHint};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::path::{Path, PathBuf};
use tabula::gammon::bearoff::gnubg::{self, GnubgFile, Source};
use tabula::gammon::bearoff::store::{self, Database, Kind, Method, OneSidedTable, TwoSidedTable};
use tabula::gammon::bearoff::{notation, query, BearoffIndex};
use tabula::gammon::CubeState;
use tabula::Result;

/// The size of a database.
#[derive(Args, Clone, Copy)]
pub struct Size {
    /// Points: each side's last P points (1 to 12)
    #[arg(long, value_name = "P", default_value_t = 6)]
    pub points: usize,
    /// Checkers a side at most (1 to 15; a one-sided database has 15)
    #[arg(long, value_name = "C", default_value_t = 15, value_parser = checker_count)]
    pub checkers: usize,
}

/// `build`.
fn build(args: BuildArgs) -> Result<()> {
    let BuildArgs {
        size,
        two_sided,
        cubeless,
        compact,
        table,
        memory,
        mpi,
        quiet,
        json,
        timings,
    } = args;
    let kind = if two_sided {
        let kind = Kind::two_sided(size.points, size.checkers, !cubeless);
        if compact {
            kind.stored_compact(true)
        } else {
            kind
        }
    } else {
        Kind::one_sided(size.points)
    };
    if kind.checkers != size.checkers {
        return Err(tabula::gammon::Error::Input {
            what: "checkers",
            input: size.checkers.to_string(),
            reason: "a one-sided database has fifteen checkers a side; fewer are for \
                         a two-sided one (--two-sided)"
                .into(),
        }
        .into());
    }
    kind.check()?;
    let path = tables::given_or(table.as_deref(), &kind.file_name(), tables::for_build);
    let bars = Bars::new(quiet.quiet || json.json);
    if mpi {
        return build_mpi(&kind, &path, memory, &bars, json, timings);
    }
    let method = match memory {
        Some(memory) => Method::OutOfCore { memory },
        None => Method::Auto,
    };
    let report = store::build_with(&kind, &path, method, bars.progress())?;
    super::gammon::timed_text_or_json(&report, json, timings, || render::build(&report))
}

/// `build --mpi`: the build shared by the ranks MPI started; rank 0 prints the report.
#[cfg(feature = "mpi")]
fn build_mpi(
    kind: &Kind,
    path: &Path,
    memory: Option<u64>,
    bars: &Bars,
    json: Json,
    timings: Timings,
) -> Result<()> {
    use tabula::gammon::bearoff::mpi::Mpi;
    use tabula::gammon::bearoff::out_of_core::Split;
    let Some(universe) = mpi::initialize() else {
        return Err(tabula::gammon::Error::Input {
            what: "mpi",
            input: "--mpi".into(),
            reason: "MPI could not be started (or was started twice)".into(),
        }
        .into());
    };
    let split = Mpi::new(universe.world());
    let memory = memory.unwrap_or_else(|| {
        tabula::memory::available().unwrap_or(1 << 32) / 4 * 3 / split.size() as u64
    });
    let progress = if split.rank() == 0 {
        bars.progress()
    } else {
        tabula::progress::Progress::SILENT
    };
    let report = store::build_shared(kind, path, memory, &split, progress)?;
    if split.rank() != 0 {
        return Ok(());
    }
    super::gammon::timed_text_or_json(&report, json, timings, || render::build(&report))
}

/// `build --mpi` in a tabula built without MPI: refused.
#[cfg(not(feature = "mpi"))]
fn build_mpi(_: &Kind, _: &Path, _: Option<u64>, _: &Bars, _: Json, _: Timings) -> Result<()> {
    Err(tabula::gammon::Error::Input {
        what: "option",
        input: "--mpi".into(),
        reason: "this tabula was built without MPI (the cargo feature `mpi`)".into(),
    }
    .into())
}

/// Reads `--memory`: bytes, or a number with K, M, G or T (powers of 1024), as 512M.
fn byte_size(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((at, _)) => t.split_at(at),
        None => (t, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err("expected a size such as 512M or 4G (K, M, G, T)".into()),
    };
    match number.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x * ((1u64 << shift) as f64) < 1e18 => {
            Ok((x * (1u64 << shift) as f64) as u64)
        }
        _ => Err("expected a size such as 512M or 4G (K, M, G, T)".into()),
    }
}

/// Reads `--checkers`: 1 to 15.
fn checker_count(text: &str) -> std::result::Result<usize, String> {
    match text.parse::<usize>() {
        Ok(c) if (1..=15).contains(&c) => Ok(c),
        _ => Err("expected a number of checkers from 1 to 15".into()),
    }
}

/// A table to ask: `--table`, else the default one of `--points` and `--checkers`.
#[derive(Args, Clone)]
pub struct Table {
    /// The table (default: the database of --points and --checkers in the tables folder)
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Points of the default table
    #[arg(long, value_name = "P", default_value_t = 6)]
    pub points: usize,
    /// Checkers of the default two-sided table
    #[arg(long, value_name = "C", default_value_t = 6)]
    pub checkers: usize,
}

/// `bearoff build`'s arguments.
#[derive(Args)]
pub struct BuildArgs {
    #[command(flatten)]
    size: Size,
    /// The two-sided database (pairs of sides) instead of the one-sided one
    #[arg(long)]
    two_sided: bool,
    /// Two-sided without the cube: only the cubeless chances
    #[arg(long, requires = "two_sided")]
    cubeless: bool,
    /// Two-sided, stored compact: each value as f32, the pairs in the build's order, the
    /// table growing as it is solved, out of core (the default above 2^31 pairs: 6x15).
    /// With fifteen checkers and the cube it keeps the cube's equities alone, and reads
    /// the chances from the cubeless table beside it
    #[arg(long, requires = "two_sided")]
    compact: bool,
    /// The table to write (default: the database's, in the tables folder)
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Two-sided: solve out of core, holding at most SIZE of working values (as 512M,
    /// 4G, or bytes); the working files, beside the table, let a killed build resume.
    /// Default: in memory when it fits, else out of core in 3/4 of the memory free
    #[arg(long, value_name = "SIZE", value_parser = byte_size, requires = "two_sided")]
    memory: Option<u64>,
    /// Two-sided, out of core, shared by the ranks of `mpirun -n N tabula …` (a
    /// tabula built with the cargo feature `mpi`); rank 0 writes the table
    #[arg(long, requires = "two_sided")]
    mpi: bool,
    #[command(flatten)]
    quiet: Quiet,
    #[command(flatten)]
    json: Json,
    #[command(flatten)]
    timings: Timings,
}

#[derive(Subcommand)]
pub enum BearoffCmd {
    /// One side's positions and the pairs of a database of P points and C checkers
    #[command(after_help = "Example:\n  tabula bearoff count --points 6 --checkers 15")]
    Count {
        #[command(flatten)]
        size: Size,
        #[command(flatten)]
        json: Json,
    },
    /// Solve a database exactly and write its table (two-sided tables include the cube)
    #[command(
        after_help = "Example:\n  tabula bearoff build --points 6\n  tabula bearoff build --points 6 --checkers 8 --two-sided"
    )]
    Build(BuildArgs),
    /// Show a position: its index, notation, gnubg Position ID and pip counts
    #[command(
        after_help = "Example:\n  tabula bearoff show 6,6,5/3,1 --points 6 --checkers 6\n  tabula bearoff show 6,6,5,3,1"
    )]
    Show {
        /// One side (6,6,5,3,1; - for none), two sides ROLLER/OPPONENT, a Position ID, an XGID or
        /// an index
        #[arg(allow_hyphen_values = true)]
        position: String,
        #[command(flatten)]
        size: Size,
        #[command(flatten)]
        json: Json,
    },
    /// The distributions of the rolls one side needs to bear off (a one-sided table)
    #[command(
        after_help = "Example:\n  tabula bearoff distribution 6,6,5,3,1 --table tables/bearoff-os-6.tbl"
    )]
    Distribution {
        /// One side: its checkers' points (6,6,5,3,1; - for none), an index, a Position ID or an XGID
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// The one-sided table (default: the one of --points in the tables folder)
        #[arg(long, value_name = "FILE")]
        table: Option<PathBuf>,
        /// Points of the default table
        #[arg(long, value_name = "P", default_value_t = 6)]
        points: usize,
        #[command(flatten)]
        json: Json,
    },
    /// Exact chances, equity and cube action of a position (a two-sided table)
    #[command(
        after_help = "Examples:\n  tabula bearoff equity 6,6,5/4,2,1 --table tables/bearoff-ts-6x6.tbl --one-sided tables/bearoff-os-6.tbl\n  tabula bearoff equity 6,6,5/4,2,1 --score 3-5 --cube 2 --owner opponent"
    )]
    Equity {
        /// Two sides ROLLER/OPPONENT (6,6,5/4,2,1), a record, a Position ID or an XGID
        #[arg(allow_hyphen_values = true)]
        position: String,
        #[command(flatten)]
        table: Table,
        /// A one-sided table: its estimate of the win beside the exact one (a file, or
        /// a table's name in the tables folder as serve names it: bearoff-os-6)
        #[arg(long, value_name = "FILE|NAME")]
        one_sided: Option<PathBuf>,
        /// The cube state whose decision to show (with the cube): owned, centred,
        /// centred-jacoby, opponent-owns (default centred); at a match score the cube's
        /// value (default 1)
        #[arg(long, value_name = "CUBE", value_parser = parse_cube)]
        cube: Option<CubeArg>,
        #[command(flatten)]
        at: at_score::ScoreArgs,
        #[command(flatten)]
        json: Json,
    },
    /// Every play of a roll, best first, with the equity each loses
    #[command(
        after_help = "Examples:\n  tabula bearoff hint 6,6,5/4,2,1 6-1 --cube centred\n  tabula bearoff hint 6,6,5/4,2,1 6-1 --score 4-1 --crawford"
    )]
    Hint {
        /// Two sides ROLLER/OPPONENT (6,6,5/4,2,1), a record, a Position ID or an XGID
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// The roll, as 6-1 or 3-3
        roll: String,
        #[command(flatten)]
        table: Table,
        /// Rank the plays by the cubeful equity of this cube state (owned, centred,
        /// centred-jacoby, opponent-owns), cubeless without it; at a match score, the
        /// cube's value
        #[arg(long, value_name = "CUBE", value_parser = parse_cube)]
        cube: Option<CubeArg>,
        #[command(flatten)]
        at: at_score::ScoreArgs,
        #[command(flatten)]
        json: Json,
    },
    /// Judge a backgammon match file's bear-offs exactly (gnubg's .sgf or a .mat text):
    /// every play and cube decision a two-sided table holds, the others counted
    #[command(
        after_help = "Examples:\n  tabula bearoff analyse match.sgf\n  tabula bearoff analyse match.mat --table tables/bearoff-ts-6x6.tbl --one-sided bearoff-os-6 --json"
    )]
    Analyse(analyse::AnalyseArgs),
    /// Write a table in gnubg's format (gnubg_os0.bd, gnubg_ts0.bd)
    #[command(
        after_help = "Example:\n  tabula bearoff export --table tables/bearoff-os-6.tbl --gnubg gnubg_os0.bd\n  tabula bearoff export --table tables/bearoff-ts-6x6.tbl --gnubg gnubg_ts0.bd"
    )]
    Export {
        /// The table to write out
        #[arg(long, value_name = "FILE")]
        table: PathBuf,
        /// The gnubg file to write
        #[arg(long, value_name = "OUT")]
        gnubg: PathBuf,
        /// One-sided: gnubg's uncompressed layout instead of the compressed one
        #[arg(long)]
        uncompressed: bool,
    },
    /// Compare a table with gnubg's file of the same database, quantity by quantity
    #[command(
        after_help = "Example:\n  tabula bearoff compare --table tables/bearoff-ts-6x6.tbl --gnubg /var/lib/gnubg/gnubg_ts0.bd"
    )]
    Compare {
        /// The table
        #[arg(long, value_name = "FILE")]
        table: PathBuf,
        /// gnubg's file (gnubg_os0.bd, gnubg_ts0.bd, or one makebearoff wrote)
        #[arg(long, value_name = "FILE")]
        gnubg: PathBuf,
        #[command(flatten)]
        json: Json,
    },
}

pub fn run(cmd: BearoffCmd) -> Result<()> {
    match cmd {
        BearoffCmd::Count { size, json } => {
            let c = BearoffIndex::new(size.points, size.checkers)?.count();
            text_or_json(&c, json, || render::count(&c))
        }
        BearoffCmd::Build(args) => build(args),
        BearoffCmd::Show {
            position,
            size,
            json,
        } => show(&position, size, json),
        BearoffCmd::Distribution {
            position,
            table,
            points,
            json,
        } => distribution(&position, table.as_deref(), points, json),
        BearoffCmd::Equity {
            position,
            table,
            one_sided,
            cube,
            at,
            json,
        } => equity(&position, &table, one_sided.as_deref(), cube, at, json),
        BearoffCmd::Hint {
            position,
            roll,
            table,
            cube,
            at,
            json,
        } => hint(&position, &roll, &table, cube, at, json),
        BearoffCmd::Analyse(args) => analyse::run(args),
        BearoffCmd::Export {
            table,
            gnubg: out,
            uncompressed,
        } => {
            let db = Database::open(&table)?;
            let format = match &db {
                Database::OneSided(t) => gnubg::export(&out, Source::OneSided(t), uncompressed)?,
                Database::TwoSided(t) => gnubg::export(&out, Source::TwoSided(t), uncompressed)?,
            };
            emit(&render::export(&out, &format))
        }
        BearoffCmd::Compare {
            table,
            gnubg: file,
            json,
        } => {
            let db = Database::open(&table)?;
            let file = GnubgFile::open(&file)?;
            let c = match &db {
                Database::OneSided(t) => gnubg::compare_one_sided(t, &file)?,
                Database::TwoSided(t) => gnubg::compare_two_sided(t, &file)?,
            };
            text_or_json(&c, json, || render::comparison(&c, file.path()))
        }
    }
}

/// Reads `--cube`: a money-play cube state (bear-off tables are money play; a cube value
/// is for a match score).
/// `equity`: at a match score, or in money play from the table given or the race's.
fn equity(
    position: &str,
    table: &Table,
    one_sided: Option<&Path>,
    mut cube: Option<CubeArg>,
    mut at: at_score::ScoreArgs,
    json: Json,
) -> Result<()> {
    at.flags.or_from_xgid(position, &mut cube);
    if at.flags.score.is_some() {
        let score = AtScore::of_flags(&at.flags, cube, None);
        let e = at_score::equity(position, table, &score, &at)?;
        return text_or_json(&e, json, || {
            crate::cmd::gammon::render_match::evaluation(&e)
        });
    }
    let cube = money(cube)?.unwrap_or(CubeState::Centred);
    let folders = Folders(one_sided);
    let e = match table.table {
        Some(_) => {
            let t = open_two_sided(table, position)?;
            RaceEquity::Exact(Box::new(answer::exact_equity(
                &folders, &t, position, cube,
            )?))
        }
        None => answer::race_equity(&folders, table.points, table.checkers, position, cube)?,
    };
    text_or_json(&e, json, || match &e {
        RaceEquity::Exact(e) => render::evaluation(e),
        RaceEquity::Estimate(e) => render::race_estimate(e),
    })
}

/// `hint`: at a match score, or in money play.
fn hint(
    position: &str,
    roll: &str,
    table: &Table,
    mut cube: Option<CubeArg>,
    mut at: at_score::ScoreArgs,
    json: Json,
) -> Result<()> {
    at.flags.or_from_xgid(position, &mut cube);
    if at.flags.score.is_some() {
        let score = AtScore::of_flags(&at.flags, cube, None);
        let h = at_score::hint(position, roll, table, &score, &at)?;
        return text_or_json(&h, json, || crate::cmd::gammon::render_match::hint(&h));
    }
    let cube = money(cube)?;
    let h = match table.table {
        Some(_) => {
            answer::roll(roll)?;
            let t = open_two_sided(table, position)?;
            RaceHint::Exact(answer::hint(&t, position, roll, cube)?)
        }
        None => answer::race_hint(
            &Folders(None),
            table.points,
            table.checkers,
            position,
            roll,
            cube,
        )?,
    };
    text_or_json(&h, json, || match &h {
        RaceHint::Exact(h) => render::hint(h),
        RaceHint::Estimate(h) => render::hint_estimate(h),
    })
}

/// The money cube state of `--cube` (a value needs `--score`).
fn money(cube: Option<CubeArg>) -> Result<Option<CubeState>> {
    match cube {
        None => Ok(None),
        Some(CubeArg::State(s)) => Ok(Some(s)),
        Some(CubeArg::Value(v)) => Err(tabula::gammon::Error::Input {
            what: "cube",
            input: v.to_string(),
            reason: "in money play --cube takes a cube state (owned, centred, \
                     centred-jacoby, opponent-owns); a cube's value goes with --score"
                .into(),
        }
        .into()),
    }
}

/// Prints `value` as JSON with `json`, else the text `text` makes.
fn text_or_json<T: Serialize>(value: &T, json: Json, text: impl FnOnce() -> String) -> Result<()> {
    if json.json {
        emit_json(value)
    } else {
        emit(&text())
    }
}

/// `show`: one side, or two.
/// `distribution` of one side, or of a pair side by side.
fn distribution(position: &str, table: Option<&Path>, points: usize, json: Json) -> Result<()> {
    let kind = Kind::one_sided(points);
    // A pair ROLLER/OPPONENT: both sides side by side.
    // (A Position ID may hold a `/`; it has no commas and 14 characters.)
    let id = position.trim().len() == 14 && !position.contains(',');
    let pair = position.split_once('/').filter(|_| !id);
    let sides = pair.map_or(vec![position], |(a, b)| vec![a, b]);
    if table.is_none() {
        // Bad input is refused before a table is looked for.
        for s in &sides {
            answer::side(&kind, s)?;
        }
    }
    let t = open_one_sided(table, &kind)?;
    if let Some((a, b)) = pair {
        let d = tabula::gammon::bearoff::query::PairDistribution {
            roller: answer::distribution(&t, a)?,
            opponent: answer::distribution(&t, b)?,
        };
        return text_or_json(&d, json, || render::pair_distribution(&d));
    }
    let d = answer::distribution(&t, position)?;
    text_or_json(&d, json, || render::distribution(&d))
}

fn show(position: &str, size: Size, json: Json) -> Result<()> {
    let index = BearoffIndex::new(size.points, size.checkers)?;
    let two = position.contains('/')
        || position.trim().len() == 14
        || tabula::gammon::gnubg::xgid::looks_like(position);
    let (kind, roller, opponent) = if two {
        let (us, them) = notation::parse_pair(&index, position)?;
        (
            Kind::two_sided(size.points, size.checkers, true),
            us,
            Some(them),
        )
    } else {
        let kind = Kind {
            two_sided: false,
            ..Kind::two_sided(size.points, size.checkers, false)
        };
        (kind, notation::parse_side(&index, position)?, None)
    };
    let looked = query::look(&kind, roller, opponent)?;
    text_or_json(&looked, json, || {
        let text = super::gammon::render::looked(&looked);
        // A pair is drawn on backgammon's board, as gnubg shows it.
        let drawn = looked
            .position_id
            .as_deref()
            .filter(|_| opponent.is_some())
            .and_then(|id| tabula::gammon::gnubg::position_id::decode(id).ok())
            .map(|p| {
                let around = super::gammon::board::Around {
                    cube: None,
                    dice: None,
                    top_on_roll: false,
                    score: None,
                };
                super::gammon::board::draw(&tabula::gammon::Variant::backgammon(), &p, &around)
            });
        match drawn {
            Some(board) => format!("{board}\n{text}"),
            None => text,
        }
    })
}

/// A table given by its name as `serve` names it (`bearoff-os-6`, with or without
/// `.tbl`): the file of that name in the tables folder, when no file of the given path
/// exists; else the path itself.
fn by_name(given: &Path) -> PathBuf {
    let bare = given.components().count() == 1 && !given.exists();
    match (bare, given.to_str()) {
        (true, Some(name)) if name.starts_with("bearoff-") => {
            let file = match name.ends_with(".tbl") {
                true => name.to_string(),
                false => format!("{name}.tbl"),
            };
            tables::find(&file)
        }
        _ => given.to_path_buf(),
    }
}

/// The one-sided table given (a path, or a name as `serve` lists it) or found by its
/// default name.
fn open_one_sided(given: Option<&Path>, kind: &Kind) -> Result<OneSidedTable> {
    let given = given.map(by_name);
    let path = tables::given_or(given.as_deref(), &kind.file_name(), tables::find);
    answer::open_one_sided(&path, kind, given.as_deref())
}

/// The tables folders (`tables::find`), and the one-sided table `--one-sided` names (a
/// path, or a name as `serve` lists it): where a race asked without `--table` is
/// answered from ([`answer::race`]).
pub(super) struct Folders<'a>(Option<&'a Path>);

impl answer::RaceTables for Folders<'_> {
    type TwoSided = TwoSidedTable;
    type OneSided = OneSidedTable;

    fn present(&self, kind: &Kind) -> bool {
        tables::find(&kind.file_name()).is_file()
    }

    fn two_sided(&self, kind: &Kind) -> Result<TwoSidedTable> {
        answer::open_two_sided(&tables::find(&kind.file_name()), kind, None)
    }

    fn one_sided(&self, kind: &Kind) -> Result<OneSidedTable> {
        open_one_sided(self.0, kind)
    }

    fn names_one_sided(&self) -> bool {
        self.0.is_some()
    }
}

/// The two-sided table of `table`; without `--table`, `position` is read first, so that
/// bad input is refused before a table is looked for.
fn open_two_sided(table: &Table, position: &str) -> Result<TwoSidedTable> {
    let kind = Kind::two_sided(table.points, table.checkers, true);
    if table.table.is_none() {
        answer::pair(&kind.index()?, position)?;
    }
    let path = tables::given_or(table.table.as_deref(), &kind.file_name(), tables::find);
    answer::open_two_sided(&path, &kind, table.table.as_deref())
}
