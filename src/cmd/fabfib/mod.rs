//! `tabula fabfib odds|simulate|replay|tune|play`: parses, calls the library, writes text
//! or JSON.

mod render;

use super::progress::Bars;
use super::{emit, emit_json, emit_sorted};
use clap::{ArgGroup, Args, Subcommand};
use tabula::fabfib::calls::parse_call;
use tabula::fabfib::cards::{parse_digits, parse_hand};
use tabula::fabfib::odds::{self, DiscardQuery};
use tabula::fabfib::replay;
use tabula::fabfib::rules::{Rules, DEFAULT_LIFE};
use tabula::fabfib::simulate::{self, Report, Simulation};
use tabula::fabfib::strategy::{parse_strategies_with, ArticleParams};
use tabula::fabfib::tune::{self, Grid, Tuning};
use tabula::fabfib::{session, Error as FabfibError};
use tabula::Result;

#[derive(Subcommand)]
pub enum GameCmd {
    /// Exact odds: a fresh hand's value, or the chance that a discard reaches a target
    #[command(after_help = "Example:\n  tabula fabfib odds")]
    Odds(OddsArgs),
    /// Play many games in parallel; report win rates, lies, doubts and calls
    #[command(after_help = "Example:\n  tabula fabfib simulate --games 100000 --seed 1")]
    Simulate(SimulateArgs),
    /// Play one game (as `simulate` plays it) and print it turn by turn
    #[command(after_help = "Example:\n  tabula fabfib replay --seed 1 --game 0")]
    Replay(ReplayArgs),
    /// Search the article strategy's parameters against a field of opponents
    #[command(after_help = "Example:\n  tabula fabfib tune --games 40000")]
    Tune(TuneArgs),
    /// Play a game in the terminal against strategy players
    #[command(after_help = "Example:\n  tabula fabfib play --seed 7")]
    Play(PlayArgs),
}

#[derive(Args)]
#[command(group(ArgGroup::new("choice").args(["discard", "best"])))]
pub struct OddsArgs {
    /// Your hand, three digits (876 or 8,7,6); needs --target and --discard or --best
    #[arg(long, requires = "target", requires = "choice")]
    hand: Option<String>,
    /// The digits you throw away (8,7,6; empty for none with --zero-discard)
    #[arg(long, requires = "hand", conflicts_with = "best")]
    discard: Option<String>,
    /// The call the new hand must reach (a call: 1000 or digits that never rise, like 900)
    #[arg(long, requires = "hand")]
    target: Option<String>,
    /// Digits of cards you know are out of the deck besides your hand (e.g. 9,9,0)
    #[arg(long, requires = "hand")]
    seen: Option<String>,
    /// Rank every possible discard, best first
    #[arg(long, requires = "hand")]
    best: bool,
    /// A call is true only if the hand is worth exactly the call
    #[arg(long)]
    exact: bool,
    /// Allow discarding no card at all
    #[arg(long)]
    zero_discard: bool,
    /// Print one JSON document
    #[arg(long)]
    json: bool,
}

/// The rules of the table.
#[derive(Args)]
pub struct RulesArgs {
    /// Starting life
    #[arg(long, default_value_t = DEFAULT_LIFE)]
    life: i16,
    /// A call is true only if the hand is worth exactly the call
    #[arg(long)]
    exact: bool,
    /// A player who accepts may discard no card
    #[arg(long)]
    zero_discard: bool,
}

/// The article strategy's parameters (docs/fabfib.md), for every seat that uses them.
#[derive(Args)]
pub struct ArticleArgs {
    /// Article strategy: Poisson mean of the digits a lie makes up
    #[arg(long, default_value_t = ArticleParams::default().mean)]
    mean: f64,
    /// Article strategy: Poisson mean of the extra rise of the digit a lie raises
    #[arg(long, default_value_t = ArticleParams::default().bump)]
    bump: f64,
    /// Article strategy: cards below this digit are thrown away
    #[arg(long, default_value_t = ArticleParams::default().keep)]
    keep: u8,
    /// Article strategy: a hand spread below this throws everything but 9s
    #[arg(long, default_value_t = ArticleParams::default().spread)]
    spread: u8,
    /// Article strategy: doubt when the doubt index exceeds this
    #[arg(long, default_value_t = ArticleParams::default().doubt)]
    doubt: f64,
}

impl ArticleArgs {
    fn params(&self) -> ArticleParams {
        ArticleParams {
            mean: self.mean,
            bump: self.bump,
            keep: self.keep,
            spread: self.spread,
            doubt: self.doubt,
        }
    }
}

/// The table: players, strategies and rules.
#[derive(Args)]
pub struct TableArgs {
    /// Players, 2-10 (default: one per listed strategy, or 3)
    #[arg(long)]
    players: Option<usize>,
    /// One strategy for all, or one per player: article (alias seed), honest, odds, odds:T,
    /// CALL/DISCARD/DOUBT
    #[arg(long, default_value = "article")]
    strategies: String,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    article: ArticleArgs,
}

#[derive(Args)]
pub struct SimulateArgs {
    /// Games to play, 1 to 1,000,000,000
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Seed of the run (same seed, same output, at any thread count)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    table: TableArgs,
    /// Hide the progress bar
    #[arg(long)]
    quiet: bool,
    /// Print one JSON document
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// Seed of the run
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Which game of the run (0 is the first)
    #[arg(long, default_value_t = 0)]
    game: u64,
    #[command(flatten)]
    table: TableArgs,
    /// Print the events as one JSON document
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct TuneArgs {
    /// The opponents, one strategy per seat after yours (2-10 players in all)
    #[arg(long, default_value = "article,article")]
    field: String,
    /// Games per setting (the same games for every setting)
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Seed of the run (same seed, same output, at any thread count)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Poisson means of the digits a lie makes up, comma-separated
    #[arg(long, action = clap::ArgAction::Set, value_delimiter = ',', default_values_t = Grid::default().mean)]
    mean: Vec<f64>,
    /// Poisson means of the extra rise of a lie, comma-separated
    #[arg(long, action = clap::ArgAction::Set, value_delimiter = ',', default_values_t = Grid::default().bump)]
    bump: Vec<f64>,
    /// Digits below which cards are thrown, comma-separated
    #[arg(long, action = clap::ArgAction::Set, value_delimiter = ',', default_values_t = Grid::default().keep)]
    keep: Vec<u8>,
    /// Spreads below which all but 9s are thrown, comma-separated
    #[arg(long, action = clap::ArgAction::Set, value_delimiter = ',', default_values_t = Grid::default().spread)]
    spread: Vec<u8>,
    /// Doubt thresholds, comma-separated
    #[arg(long, action = clap::ArgAction::Set, value_delimiter = ',', default_values_t = Grid::default().doubt)]
    doubt: Vec<f64>,
    /// Settings to list, best first (all with --json)
    #[arg(long, default_value_t = 10)]
    top: usize,
    #[command(flatten)]
    rules: RulesArgs,
    /// Hide the progress bar
    #[arg(long)]
    quiet: bool,
    /// Print one JSON document
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct PlayArgs {
    /// Your seat, 1 to the number of players (P1 starts the first round)
    #[arg(long, default_value_t = 1)]
    seat: usize,
    /// Players, 2-10 (default: you and one per listed strategy, or 3)
    #[arg(long)]
    players: Option<usize>,
    /// The other players: one strategy for all, or one per other seat (article, honest,
    /// odds, odds:T, CALL/DISCARD/DOUBT)
    #[arg(long, default_value = "article")]
    strategies: String,
    /// Seed of the deal and of the other players' draws
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    article: ArticleArgs,
}

pub fn run(cmd: GameCmd) -> Result<()> {
    match cmd {
        GameCmd::Odds(a) => run_odds(a),
        GameCmd::Simulate(a) => run_simulate(a),
        GameCmd::Replay(a) => run_replay(a),
        GameCmd::Tune(a) => run_tune(a),
        GameCmd::Play(a) => run_play(a),
    }
}

impl RulesArgs {
    fn rules(&self, players: usize) -> Rules {
        Rules {
            players,
            life: self.life,
            exact: self.exact,
            zero_discard: self.zero_discard,
        }
    }
}

fn simulation(t: &TableArgs, games: u64, seed: u64) -> Result<Simulation> {
    let params = t.article.params();
    let strategies = parse_strategies_with(&t.strategies, &params)?;
    let players = t.players.unwrap_or(if strategies.len() > 1 {
        strategies.len()
    } else {
        3
    });
    Ok(Simulation::with_article(
        t.rules.rules(players),
        strategies,
        games,
        seed,
        &params,
    )?)
}

fn run_odds(a: OddsArgs) -> Result<()> {
    let Some(hand_text) = &a.hand else {
        let fresh = odds::fresh_odds();
        return if a.json {
            emit_sorted(&fresh)
        } else {
            emit(&render::render_fresh(&fresh))
        };
    };
    let query = DiscardQuery {
        hand: parse_hand(hand_text)?,
        target: parse_call(a.target.as_deref().unwrap_or(""), "target")?,
        exact: a.exact,
        seen: parse_digits(a.seen.as_deref().unwrap_or(""), "seen cards")?,
        zero_discard: a.zero_discard,
    };
    if a.best {
        let ranking = odds::discard_ranking(query)?;
        if a.json {
            return emit_sorted(&ranking);
        }
        return emit(&render::render_discards(&ranking.query, &ranking.options));
    }
    let discard = parse_digits(a.discard.as_deref().unwrap_or(""), "discard")?;
    let chance = odds::discard_odds(query, &discard)?;
    if a.json {
        return emit_sorted(&chance);
    }
    emit(&render::render_discards(
        &chance.query,
        std::slice::from_ref(&chance.option),
    ))
}

fn run_simulate(a: SimulateArgs) -> Result<()> {
    let sim = simulation(&a.table, a.games, a.seed)?;
    let bars = Bars::new(a.quiet || a.json);
    let tally = sim.run(bars.progress());
    drop(bars);
    let report = Report::new(&sim, &tally);
    if a.json {
        return emit_json(&report);
    }
    emit(&render::render_simulation(&report))
}

fn run_replay(a: ReplayArgs) -> Result<()> {
    let sim = simulation(&a.table, 1, a.seed)?;
    let game = replay::replay(&sim, a.game);
    if a.json {
        return emit_sorted(&game);
    }
    emit(&render::render_replay(&game, &sim.rules))
}

fn run_tune(a: TuneArgs) -> Result<()> {
    let tuning = Tuning {
        rules: a.rules.rules(2),
        field: a.field,
        grid: Grid {
            mean: a.mean,
            bump: a.bump,
            keep: a.keep,
            spread: a.spread,
            doubt: a.doubt,
        },
        games: a.games,
        seed: a.seed,
    };
    let bars = Bars::new(a.quiet || a.json);
    let report = tune::tune(&tuning, bars.progress())?;
    drop(bars);
    if a.json {
        return emit_json(&report);
    }
    emit(&render::render_tune(&report, a.top))
}

fn run_play(a: PlayArgs) -> Result<()> {
    let params = a.article.params();
    let listed = parse_strategies_with(&a.strategies, &params)?;
    let players = a.players.unwrap_or(if listed.len() > 1 {
        listed.len() + 1
    } else {
        3
    });
    let rules = a.rules.rules(players).checked()?;
    let seat = match a.seat {
        s if (1..=players).contains(&s) => s - 1,
        s => return Err(FabfibError::Seat { seat: s, players }.into()),
    };
    let setup = session::Setup {
        rules,
        seat,
        opponents: simulate::seat(players - 1, listed, &params)?,
        seed: a.seed,
    };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    session::play(&setup, stdin.lock(), "standard input", &mut stdout)?;
    Ok(())
}
