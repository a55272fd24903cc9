//! `tabula bingo exact|verify|simulate|plot`: parse, call [`tabula::bingo`], print.

use super::{emit, emit_json};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;
use tabula::bingo::players::Cards;
use tabula::bingo::report::{self, Report, Run, Setup};
use tabula::bingo::report_sim;
use tabula::bingo::{Method, Pattern};
use tabula::{Error, Result};

#[derive(Subcommand)]
pub enum GameCmd {
    /// The exact law of T (calls until the card wins), beside the seed's formula; or, with
    /// --players, the law of the first winning call among K cards
    Exact {
        #[command(flatten)]
        card: CardArgs,
        /// How the winning subsets are counted
        #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
        method: MethodArg,
        #[command(flatten)]
        players: PlayerArgs,
        /// No progress spinner
        #[arg(long)]
        quiet: bool,
        #[arg(long)]
        json: bool,
    },
    /// The seed's check: every call order of the 3×3 card (8! = 40,320 with M = 8) against
    /// the exact law
    Verify {
        #[command(flatten)]
        card: SmallCardArgs,
        #[arg(long)]
        json: bool,
    },
    /// Monte Carlo games, seeded and reproducible, tested against the exact law
    Simulate {
        #[command(flatten)]
        card: CardArgs,
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        players: PlayerArgs,
        #[arg(long)]
        json: bool,
    },
    /// Draw the exact law, the seed's formula and a simulation as an SVG (the seed's figure)
    Plot {
        #[command(flatten)]
        card: CardArgs,
        #[command(flatten)]
        run: RunArgs,
        /// Where to write the SVG
        #[arg(long, short, default_value = "bingo.svg")]
        output: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

/// The card and the drum.
#[derive(Args, Clone)]
pub struct CardArgs {
    /// Card side: 3, 4, 5 or 7
    #[arg(long, default_value_t = 5)]
    size: usize,
    /// Numbers in the drum, 1..=M (default 15 per column: 75 on 5×5)
    #[arg(long)]
    max: Option<u64>,
    /// line, reach, double, triple, blackout, corners or hardway
    #[arg(long, default_value = "line")]
    pattern: Pattern,
    /// No free centre: every square holds a number
    #[arg(long)]
    no_free: bool,
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
    players: Option<u32>,
    /// us (column ranges; default on 5×5 with 75) or uniform
    #[arg(long)]
    cards: Option<Cards>,
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
        Setup::new(self.size, !self.no_free, self.max, self.pattern)
    }
}

impl RunArgs {
    fn run(&self) -> Run {
        Run {
            games: self.games,
            seed: self.seed,
            quiet: self.quiet,
        }
    }
}

fn print(report: Report) -> Result<()> {
    match report {
        Report::Text(text) => emit(&text),
        Report::Json(doc) => emit_json(&doc),
    }
}

pub fn run(cmd: GameCmd) -> Result<()> {
    match cmd {
        GameCmd::Exact {
            card,
            method,
            players,
            quiet,
            json,
        } => {
            let setup = card.setup()?;
            let spinner = tabula::progress::spinner("computing the exact law", quiet || json);
            if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            {
                spinner.set_style(style);
            }
            spinner.enable_steady_tick(std::time::Duration::from_millis(120));
            let out = match (players.players, players.cards) {
                (Some(k), cards) => report::exact_players(&setup, k, cards, json),
                (None, Some(_)) => Err(Error::input("--cards needs --players K")),
                (None, None) => report::exact(&setup, method.into(), json),
            };
            spinner.finish_and_clear();
            print(out?)
        }
        GameCmd::Verify { card, json } => {
            let (out, agrees) = report::verify(card.size, !card.no_free, card.pattern, json)?;
            print(out)?;
            if agrees {
                Ok(())
            } else {
                Err(Error::failure(
                    "the call orders disagree with the exact law",
                ))
            }
        }
        GameCmd::Simulate {
            card,
            run,
            players,
            json,
        } => with_threads(run.threads, || {
            let setup = card.setup()?;
            let started = std::time::Instant::now();
            let out = match players.players {
                Some(k) => {
                    report_sim::simulate_players_report(&setup, &run.run(), k, players.cards, json)
                }
                None => report_sim::simulate_report(&setup, &run.run(), json),
            }?;
            let seconds = started.elapsed().as_secs_f64();
            if !run.quiet {
                eprintln!(
                    "{} games in {seconds:.3} s ({:.0} games/s)",
                    run.games,
                    run.games as f64 / seconds
                );
            }
            print(out)
        }),
        GameCmd::Plot {
            card,
            run,
            output,
            json,
        } => with_threads(run.threads, || {
            print(report_sim::plot(&card.setup()?, &run.run(), &output, json)?)
        }),
    }
}

fn with_threads(threads: Option<usize>, f: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    match threads {
        None => f(),
        Some(t) if t == 0 || t > 1024 => Err(Error::input(format!(
            "--threads must be between 1 and 1024, got {t}"
        ))),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|e| Error::failure(format!("could not start {t} threads: {e}")))?
            .install(f),
    }
}
