//! `tabula gammon … --variant V`: any member of the backgammon family, through the
//! family's engine; the functions that answer each question are shared with the
//! article's presets, `tabula nikoniko …` (`super::nikoniko`).

pub mod analyse;
pub mod answer;
pub mod args;
pub mod board;
mod console;
#[cfg(test)]
mod fixtures;
pub mod handle;
pub mod matchplay;
pub mod render;
pub mod render_match;
pub mod render_play;
pub mod trainer;

use super::progress::Bars;
use super::{emit, emit_json};
use args::{
    CountArgs, CubeArg, EquityArgs, HintArgs, Json, MatchPlayArgs, MatchSource, MetArgs, MovesArgs,
    PlayArgs, Quiet, ScoreArgs, ScoreBuildArgs, ScorePlanArgs, ShowArgs, Source, Timings,
};
use clap::Subcommand;
use handle::Handle;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;
use tabula::gammon::{gnubg, numbering, store, verify};
use tabula::gammon::{CubeState, Position, Variant};
use tabula::table::Reader;
use tabula::Result;

#[derive(Subcommand)]
pub enum GammonCmd {
    /// Records, legal positions and states of the variant's index
    #[command(after_help = "Example:\n  tabula gammon count --variant hyper3")]
    Count {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        args: CountArgs,
    },
    /// Show a position: notation, index, Position ID, pip counts
    #[command(after_help = "Example:\n  tabula gammon show 24,23/24,23 --variant hyper2")]
    Show {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        args: ShowArgs,
    },
    /// Every distinct legal play of a roll
    #[command(after_help = "Example:\n  tabula gammon moves 24,23/24,23 6-5 --variant hyper2")]
    Moves {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        args: MovesArgs,
    },
    /// Solve the variant, the doubling cube included, and write its tables
    #[command(after_help = "Example:\n  tabula gammon build --variant hyper2")]
    Build {
        #[command(flatten)]
        source: Source,
        /// Skip the doubling cube: only the cubeless table (faster, half the memory)
        #[arg(long)]
        cubeless: bool,
        #[command(flatten)]
        quiet: Quiet,
        #[command(flatten)]
        json: Json,
        #[command(flatten)]
        timings: Timings,
    },
    /// Equity, outcome chances and cube decision of a position for the side on roll; at a
    /// match score its match-winning chance, cube verdict and market window
    #[command(
        after_help = "Examples:\n  tabula gammon equity 24,23/24,23 --variant hyper2\n  \
                      tabula gammon equity 24,23/24,23 --variant hyper2 --score 3-5 --cube 2 --owner opponent"
    )]
    Equity {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        args: EquityArgs,
        #[command(flatten)]
        score: ScoreArgs,
    },
    /// Every legal play of a roll, best first, with the equity (or at a match score the
    /// match-winning chance) each loses
    #[command(
        after_help = "Examples:\n  tabula gammon hint 24,23/24,23 6-5 --variant hyper2 --cube centred\n  \
                      tabula gammon hint 24,23/24,23 6-5 --variant hyper2 --score 1-3 --crawford"
    )]
    Hint {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        args: HintArgs,
        #[command(flatten)]
        score: ScoreArgs,
    },
    /// The opening: each first roll's best play and the opening-roll winner's equity
    #[command(after_help = "Example:\n  tabula gammon opening --variant hyper3")]
    Opening {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        json: Json,
    },
    /// Play a game (or a match) in the terminal against the table's perfect play
    #[command(
        after_help = "Examples:\n  tabula gammon play --variant hyper1 --cube --seed 7\n  \
                      tabula gammon play --variant hyper1 --match 5 --seed 7"
    )]
    Play {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        args: PlayArgs,
        #[command(flatten)]
        matched: MatchPlayArgs,
    },
    /// Analyse a match file exactly (gnubg's .sgf or a .mat text; Hypergammon 1-3, money
    /// or match): every play and cube decision judged at its score, each player's
    /// losses, error rate and rating
    #[command(after_help = "Examples:\n  tabula gammon analyse match.sgf\n  \
                      tabula gammon analyse match.mat --json")]
    Analyse {
        #[command(flatten)]
        args: analyse::AnalyseArgs,
    },
    /// The exact match-equity table of a match to N points, solving the scores whose
    /// tables are missing
    #[command(
        after_help = "Examples:\n  tabula gammon met --variant hyper1 --length 7\n  \
                      tabula gammon met --variant hyper2 --length 3 --gnubg hyper2-met.xml --compare /usr/share/gnubg/met/Kazaross-XG2.xml"
    )]
    Met {
        #[command(flatten)]
        source: MatchSource,
        #[command(flatten)]
        args: MetArgs,
    },
    /// Solve one score of a match from the tables of the scores below it: the unit of
    /// work a batch scheduler runs (see score-plan)
    #[command(
        name = "score-build",
        after_help = "Example:\n  tabula gammon score-build --variant hyper2 --score 2-3"
    )]
    ScoreBuild {
        #[command(flatten)]
        source: MatchSource,
        #[command(flatten)]
        args: ScoreBuildArgs,
    },
    /// Print a Makefile that solves every score of a match with score-build, each after
    /// the scores it reads (for make -j, or a batch scheduler's dependencies)
    #[command(
        name = "score-plan",
        after_help = "Example:\n  tabula gammon score-plan --variant hyper2 --length 7"
    )]
    ScorePlan {
        #[command(flatten)]
        source: MatchSource,
        #[command(flatten)]
        args: ScorePlanArgs,
    },
    /// Re-derive every stored value with one Bellman sweep and report the worst gap
    #[command(after_help = "Example:\n  tabula gammon verify --variant hyper2")]
    Verify {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        json: Json,
    },
    /// Compare the variant's tables with a gnubg Hypergammon database, value by value
    #[command(
        after_help = "Example:\n  tabula gammon compare --variant hyper2 --gnubg /var/lib/gnubg/hyper2.bd"
    )]
    Compare {
        #[command(flatten)]
        source: Source,
        /// gnubg's `hyperC.bd`
        #[arg(long, value_name = "FILE")]
        gnubg: PathBuf,
        #[command(flatten)]
        json: Json,
    },
    /// Read a gnubg Hypergammon database (`hyperC.bd`) into the variant's tables
    #[command(
        after_help = "Example:\n  tabula gammon import --gnubg hyper2.bd --table hyper2-gnubg.tbl"
    )]
    Import {
        /// gnubg's `hyperC.bd` (it says its checker count)
        #[arg(long, value_name = "FILE")]
        gnubg: PathBuf,
        /// The table to write (default: the variant's, in the tables folder); its cube
        /// table goes beside it
        #[arg(long, value_name = "PATH")]
        table: Option<PathBuf>,
        #[command(flatten)]
        json: Json,
    },
    /// Write the variant's values as a gnubg Hypergammon database (`hyperC.bd`)
    #[command(after_help = "Example:\n  tabula gammon export --variant hyper2 --gnubg hyper2.bd")]
    Export {
        #[command(flatten)]
        source: Source,
        /// The file to write
        #[arg(long, value_name = "FILE")]
        gnubg: PathBuf,
    },
}

pub fn run(cmd: GammonCmd) -> Result<()> {
    match cmd {
        GammonCmd::Count { source, args } => count(&handle::variant(&source)?, args.json),
        GammonCmd::Show { source, args } => show(&handle::variant(&source)?, args),
        GammonCmd::Moves { source, args } => moves(&handle::variant(&source)?, args),
        GammonCmd::Build {
            source,
            cubeless,
            quiet,
            json,
            timings,
        } => {
            let v = handle::variant(&source)?;
            let path = handle::build_path(&v, source.table.as_deref());
            let bars = Bars::new(quiet.quiet || json.json);
            let report = store::build(&v, &path, !cubeless, bars.progress())?;
            emit_report(&report, json, timings)
        }
        GammonCmd::Equity {
            source,
            mut args,
            mut score,
        } => {
            score.flags.or_from_xgid(&args.at.position, &mut args.cube);
            match score.flags.score {
                Some(_) => matchplay::equity(&handle::variant(&source)?, args, score),
                None => {
                    let (v, open) = handle::resolve(&source, Reader::Map)?;
                    equity(&v, open, args)
                }
            }
        }
        GammonCmd::Hint {
            source,
            mut args,
            mut score,
        } => {
            score
                .flags
                .or_from_xgid(&args.at.at.position, &mut args.cube);
            match score.flags.score {
                Some(_) => matchplay::hint(&handle::variant(&source)?, args, score),
                None => {
                    let (v, open) = handle::resolve(&source, Reader::Map)?;
                    hint(&v, open, args)
                }
            }
        }
        GammonCmd::Opening { source, json } => opening(&handle::open(&source, Reader::Map)?, json),
        GammonCmd::Play {
            source,
            args,
            matched,
        } => match matched.length {
            Some(_) => {
                let v = handle::variant(&source)?;
                matchplay::play(&v, args, matched, !args.board.no_board)
            }
            None => play(&handle::open(&source, Reader::session())?, args),
        },
        GammonCmd::Analyse { args } => analyse::run(args),
        GammonCmd::Met { source, args } => matchplay::met(source, args),
        GammonCmd::ScoreBuild { source, args } => matchplay::score_build(source, args),
        GammonCmd::ScorePlan { source, args } => matchplay::score_plan(source, args),
        GammonCmd::Verify { source, json } => verify(&handle::open(&source, Reader::Map)?, json),
        GammonCmd::Compare {
            source,
            gnubg: file,
            json,
        } => {
            let tables = handle::open_family(&source)?;
            let checkers = tabula::gammon::Evaluator::variant(&tables).checkers;
            let file = gnubg::HyperFile::open_for(&file, checkers)?;
            let c = gnubg::compare(&tables, &file)?;
            text_or_json(&c, json, || render::comparison(&c, file.path()))
        }
        GammonCmd::Import {
            gnubg: file,
            table,
            json,
        } => {
            let file = gnubg::HyperFile::open(&file)?;
            let variant = Variant::parse(&format!("hyper{}", file.checkers()))?;
            let path = handle::build_path(&variant, table.as_deref());
            let imported = gnubg::import(&file, &path)?;
            text_or_json(&imported, json, || render::imported(&imported, file.path()))
        }
        GammonCmd::Export {
            source,
            gnubg: file,
        } => {
            let tables = handle::open_family(&source)?;
            let written = gnubg::export(&tables, &file)?;
            let cube = tabula::gammon::Evaluator::has_cube(&tables);
            emit(&render::export(&file, written, cube))
        }
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

/// Prints a build's report; its JSON holds the wall-clock timings only with `--timings`,
/// so that the same build prints the same bytes.
pub fn emit_report(report: &store::BuildReport, json: Json, timings: Timings) -> Result<()> {
    timed_text_or_json(report, json, timings, || render::build(report))
}

/// Prints `value` as JSON with `json` — without its wall-clock timings (every key that
/// ends in `seconds`, at any depth) unless `timings` asks for them, so that the same
/// command prints the same bytes (`docs/cli.md`) — else the text `text` makes.
pub fn timed_text_or_json<T: Serialize>(
    value: &T,
    json: Json,
    timings: Timings,
    text: impl FnOnce() -> String,
) -> Result<()> {
    if !json.json {
        return emit(&text());
    }
    let mut doc = serde_json::to_value(value)
        .map_err(|e| tabula::Error::io("writing JSON", std::io::Error::other(e)))?;
    if !timings.timings {
        drop_timings(&mut doc);
    }
    emit_json(&doc)
}

fn drop_timings(doc: &mut serde_json::Value) {
    match doc {
        serde_json::Value::Object(fields) => {
            fields.retain(|key, _| !key.ends_with("seconds"));
            fields.values_mut().for_each(drop_timings);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_timings),
        _ => {}
    }
}

/// The board of `p` as text (`board`), the side on roll at the bottom.
fn draw(v: &Variant, p: &Position, dice: Option<tabula::gammon::Roll>) -> String {
    let around = board::Around {
        dice,
        ..board::Around::default()
    };
    board::draw(v, p, &around)
}

/// `count`.
pub fn count(v: &Variant, json: Json) -> Result<()> {
    let c = numbering::census(v)?;
    text_or_json(&c, json, || render::census(&c))
}

/// `show`.
pub fn show(v: &Variant, args: ShowArgs) -> Result<()> {
    let looked = answer::show(v, &tabula::gammon::Numbers::new(v)?, &args.at.position)?;
    let p = answer::position(v, &args.at.position)?;
    text_or_json(&looked, args.json, || {
        if args.board.no_board {
            render::looked(&looked)
        } else {
            format!("{}\n\n{}", draw(v, &p, None), render::looked(&looked))
        }
    })
}

/// `moves`.
pub fn moves(v: &Variant, args: MovesArgs) -> Result<()> {
    let numbers = tabula::gammon::Numbers::new(v)?;
    let m = answer::moves(v, &numbers, &args.at.at.position, &args.at.roll)?;
    text_or_json(&m, args.json, || render::moves(&m))
}

/// The money-play cube state `--cube` names (a value is for a match score).
pub fn money_state(cube: CubeArg) -> Result<CubeState> {
    match cube {
        CubeArg::State(s) => Ok(s),
        CubeArg::Value(v) => Err(tabula::gammon::Error::Input {
            what: "cube",
            input: v.to_string(),
            reason: "a cube value is for a match score (tabula gammon … --score A-B); in money \
                     play --cube takes a state: owned, centred, centred-jacoby, opponent-owns"
                .into(),
        }
        .into()),
    }
}

/// `equity` of a position of `v`, in the table `open` opens.
pub fn equity(v: &Variant, open: impl FnOnce() -> Result<Handle>, args: EquityArgs) -> Result<()> {
    let cube = args.cube.unwrap_or(CubeArg::State(CubeState::Centred));
    let e = answer::equity(v, open, &args.at.position, money_state(cube)?)?;
    text_or_json(&e, args.json, || render::evaluation(&e))
}

/// `hint` for a position of `v`, in the table `open` opens.
pub fn hint(v: &Variant, open: impl FnOnce() -> Result<Handle>, args: HintArgs) -> Result<()> {
    let cube = args.cube.map(money_state).transpose()?;
    let hint = answer::hint(v, open, &args.at.at.position, &args.at.roll, cube)?;
    text_or_json(&hint, args.json, || {
        if args.board.no_board {
            return render::hint(&hint);
        }
        // The position and roll were read by the answer: read again, they cannot fail.
        match answer::position(v, &args.at.at.position) {
            Ok(p) => format!(
                "{}\n\n{}",
                draw(v, &p, Some(hint.roll)),
                render::hint(&hint)
            ),
            Err(_) => render::hint(&hint),
        }
    })
}

/// `opening`.
pub fn opening(h: &Handle, json: Json) -> Result<()> {
    let o = answer::opening(h)?;
    text_or_json(&o, json, || render::opening(&o))
}

/// `play`: a session of games on standard input and output, the trainer's.
pub fn play(h: &Handle, args: PlayArgs) -> Result<()> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let options = trainer::Options {
        seed,
        human_first: !args.second,
        cube: args.cube,
        board: !args.board.no_board,
        words: &render_play::Words,
    };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    h.advise(trainer::session(
        h.table.as_ref(),
        &options,
        stdin.lock(),
        &mut stdout,
    ))?;
    Ok(())
}

/// A seed from the clock: the nanoseconds since the epoch, folded to 64 bits.
pub(crate) fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    t.as_secs().wrapping_mul(1_000_000_007) ^ u64::from(t.subsec_nanos())
}

/// `verify`: fails when a gap exceeds what rounding allows.
pub fn verify(h: &Handle, json: Json) -> Result<()> {
    let started = Instant::now();
    let r = h.advise(verify::verify(h.table.as_ref()))?;
    let seconds = started.elapsed().as_secs_f64();
    text_or_json(&r, json, || render::verify(&r, seconds))?;
    match r.failure() {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
