//! `tabula bingo exact|verify|simulate|plot`: parse, call [`tabula::bingo`], render the
//! typed results as text ([`render`]) or JSON, draw the figure ([`plot`]).

mod plot;
mod render;

use super::progress::Bars;
use super::{emit, emit_json};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;
use tabula::bingo::players::Cards;
use tabula::bingo::{analysis, sampled, Error, Method, Pattern, Run, Setup};
use tabula::Result;

#[derive(Subcommand)]
pub enum GameCmd {
    /// The exact law of T (calls until the card wins), beside the article's formula; or, with
    /// --players, the law of the first winning call among K cards
    #[command(after_help = "Example:\n  tabula bingo exact --size 5 --pattern line")]
    Exact {
        #[command(flatten)]
        card: CardArgs,
        /// How the winning subsets are counted
        #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
        method: MethodArg,
        #[command(flatten)]
        players: PlayerArgs,
        /// With --players K: k prizes for the first cards to complete (ties share), and
        /// each player's chance of one
        #[arg(long, requires = "players")]
        prizes: Option<u32>,
        /// No progress spinner
        #[arg(long)]
        quiet: bool,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// The article's check: every call order of the 3×3 card (8! = 40,320 with M = 8) against
    /// the exact law
    #[command(after_help = "Example:\n  tabula bingo verify --size 3 --json")]
    Verify {
        #[command(flatten)]
        card: SmallCardArgs,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Monte Carlo games, seeded and reproducible, tested against the exact law
    #[command(after_help = "Example:\n  tabula bingo simulate --games 100000 --seed 1")]
    Simulate {
        #[command(flatten)]
        card: CardArgs,
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        players: PlayerArgs,
        /// With --players K: k prizes for the first cards to complete (ties share), sampled
        /// beside the exact chances
        #[arg(long, requires = "players")]
        prizes: Option<u32>,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Draw the exact law, the article's formula and simulations of one or more sizes (the
    /// article's figure), as an SVG, or a PNG when the file name ends in .png
    #[command(
        after_help = "Example:\n  tabula bingo plot --games 10000,1000000 --output bingo.svg"
    )]
    Plot {
        #[command(flatten)]
        card: CardArgs,
        /// Games of each simulation drawn; several sizes separated by commas
        /// (10000,1000000 as in the article) or by repeating the option
        #[arg(long, value_delimiter = ',', num_args = 1.., default_value = "1000000")]
        games: Vec<u64>,
        /// Seed of the first simulation; the i-th is seeded seed + i
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: all cores)
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bar
        #[arg(long)]
        quiet: bool,
        /// Where to write the figure: SVG, or PNG when the name ends in .png
        #[arg(long, short, default_value = "bingo.svg")]
        output: PathBuf,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
}

/// The card and the drum.
#[derive(Args, Clone)]
pub struct CardArgs {
    /// Card side: 3, 4, 5 or 7
    #[arg(long, default_value_t = 5)]
    pub size: usize,
    /// Numbers in the drum, 1..=M (default 15 per column: 75 on 5×5)
    #[arg(long)]
    pub max: Option<u64>,
    /// line, reach, double, triple, blackout, corners or hardway
    #[arg(long, default_value = "line")]
    pub pattern: Pattern,
    /// No free centre: every square holds a number
    #[arg(long)]
    pub no_free: bool,
}

/// The card for the exhaustive check of call orders.
#[derive(Args, Clone)]
pub struct SmallCardArgs {
    /// Card side (only 3: larger cards have too many orders)
    #[arg(long, default_value_t = 3)]
    size: usize,
    /// line, reach, double, triple, blackout, corners or hardway
    #[arg(long, default_value = "line")]
    pattern: Pattern,
    /// No free centre (9! = 362,880 orders)
    #[arg(long)]
    no_free: bool,
}

/// Several players.
#[derive(Args, Clone)]
pub struct PlayerArgs {
    /// Number of cards sharing one sequence of calls
    #[arg(long)]
    pub players: Option<u32>,
    /// us (column ranges; default on 5×5 with 75) or uniform
    #[arg(long, requires = "players")]
    pub cards: Option<Cards>,
}

/// A simulation run.
#[derive(Args, Clone)]
pub struct RunArgs {
    /// Number of games
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Seed (same seed, same output, at any thread count)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores)
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar
    #[arg(long)]
    quiet: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum MethodArg {
    Auto,
    Enumerate,
    InclusionExclusion,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Auto => Method::Auto,
            MethodArg::Enumerate => Method::Enumerate,
            MethodArg::InclusionExclusion => Method::InclusionExclusion,
        }
    }
}

impl CardArgs {
    fn setup(&self) -> Result<Setup> {
        Setup::new(self.size, !self.no_free, self.max, self.pattern).map_err(|e| match e {
            e @ Error::Drum { .. } => e.named("--max").into(),
            e => e.into(),
        })
    }
}

impl RunArgs {
    fn run(&self) -> Run {
        Run {
            games: self.games,
            seed: self.seed,
        }
    }
}

/// Names the option a bad count of games, players or prizes came from.
fn flag_context(e: Error) -> tabula::Error {
    match e {
        e @ Error::Games { .. } => e.named("--games").into(),
        e @ Error::Players { .. } => e.named("--players").into(),
        e @ Error::Prizes { .. } => e.named("--prizes").into(),
        e => e.into(),
    }
}

/// Writes a result as its JSON document. The keys come out sorted (through a
/// `serde_json::Value`), as bingo's documents have always listed them.
fn json_document<T: serde::Serialize>(value: &T) -> Result<()> {
    let doc = serde_json::to_value(value)
        .map_err(|e| tabula::Error::io("the JSON document", std::io::Error::other(e)))?;
    emit_json(&doc)
}

pub fn run(cmd: GameCmd) -> Result<()> {
    match cmd {
        GameCmd::Exact {
            card,
            method,
            players,
            prizes,
            quiet,
            json,
        } => run_exact(&card, method, &players, prizes, quiet, json),
        GameCmd::Verify { card, json } => {
            let out = analysis::verify(card.size, !card.no_free, card.pattern)?;
            if json {
                json_document(&out)?;
            } else {
                emit(&render::verification(&out))?;
            }
            if out.agrees {
                Ok(())
            } else {
                Err(Error::OrdersDisagree.into())
            }
        }
        GameCmd::Simulate {
            card,
            run,
            players,
            prizes,
            json,
        } => with_threads(run.threads, || {
            run_simulate(&card, &run, &players, prizes, json)
        }),
        GameCmd::Plot {
            card,
            games,
            seed,
            threads,
            quiet,
            output,
            json,
        } => with_threads(threads, || {
            let setup = card.setup()?;
            let bars = Bars::new(quiet || json);
            let series =
                sampled::figure(&setup, &games, seed, bars.progress()).map_err(flag_context)?;
            drop(bars);
            plot::write(&output, &render::figure_title(&setup), &series)?;
            if json {
                json_document(&serde_json::json!({ "path": output, "series": series }))
            } else {
                emit(&format!(
                    "wrote {} ({} curves)",
                    output.display(),
                    series.len()
                ))
            }
        }),
    }
}

/// `bingo exact`: one card, several players, or their prizes.
fn run_exact(
    card: &CardArgs,
    method: MethodArg,
    players: &PlayerArgs,
    prizes: Option<u32>,
    quiet: bool,
    json: bool,
) -> Result<()> {
    let setup = card.setup()?;
    let bars = Bars::new(quiet || json);
    match players.players {
        Some(k) if prizes.is_some() => {
            let out = tabula::bingo::prizes::prizes(
                &setup,
                k,
                prizes.unwrap_or(1),
                players.cards,
                bars.progress(),
            )
            .map_err(|e| match e {
                e @ Error::Prizes { .. } => e.named("--prizes").into(),
                e => flag_context(e),
            })?;
            drop(bars);
            if json {
                json_document(&out)
            } else {
                emit(&render::prizes(&out))
            }
        }
        _ => {
            let out = law(card, method, players, bars.progress())?;
            drop(bars);
            match (&out, json) {
                (_, true) => json_document(&out),
                (Law::Players(out), false) => emit(&render::several_players(out)),
                (Law::Card(out), false) => emit(&render::single_card(out)),
            }
        }
    }
}

/// What `bingo exact` computes without prizes: one card's law of T, or the law of the
/// first winning call among several cards. Its JSON document is the one of either.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub enum Law {
    /// One card.
    Card(analysis::SingleCard),
    /// Several players.
    Players(analysis::SeveralPlayers),
}

/// `bingo exact`'s law, for both doors (the command line and the server).
pub fn law(
    card: &CardArgs,
    method: MethodArg,
    players: &PlayerArgs,
    progress: tabula::progress::Progress<'_>,
) -> Result<Law> {
    let setup = card.setup()?;
    Ok(match players.players {
        Some(k) => Law::Players(
            analysis::several_players(&setup, k, players.cards, progress).map_err(flag_context)?,
        ),
        None => Law::Card(analysis::single_card(&setup, method.into(), progress)?),
    })
}

/// `bingo simulate`: one card or several players, on the current thread pool.
fn run_simulate(
    card: &CardArgs,
    run: &RunArgs,
    players: &PlayerArgs,
    prizes: Option<u32>,
    json: bool,
) -> Result<()> {
    let setup = card.setup()?;
    let started = std::time::Instant::now();
    let bars = Bars::new(run.quiet || json);
    let print: Box<dyn FnOnce() -> Result<()>> = match players.players {
        Some(k) => {
            let out = sampled::simulated_players(
                &setup,
                &run.run(),
                k,
                players.cards,
                prizes,
                bars.progress(),
            )
            .map_err(flag_context)?;
            Box::new(move || match json {
                true => json_document(&out),
                false => emit(&render::simulated_players(&out)),
            })
        }
        None => {
            let out = sampled::simulated_card(&setup, &run.run(), bars.progress())
                .map_err(flag_context)?;
            Box::new(move || match json {
                true => json_document(&out),
                false => emit(&render::simulated_card(&out)),
            })
        }
    };
    drop(bars);
    let seconds = started.elapsed().as_secs_f64();
    if !run.quiet {
        super::diag(&format!(
            "{} games in {seconds:.3} s ({:.0} games/s)",
            run.games,
            run.games as f64 / seconds
        ));
    }
    print()
}

/// The largest number of worker threads accepted.
const MAX_THREADS: usize = 1024;

fn with_threads(threads: Option<usize>, f: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    match threads {
        None => f(),
        Some(t) if t == 0 || t > MAX_THREADS => Err(Error::Threads {
            got: t,
            largest: MAX_THREADS,
        }
        .named("--threads")
        .into()),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|source| Error::ThreadPool { threads: t, source })?
            .install(f),
    }
}
