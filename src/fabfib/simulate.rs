//! Many games in parallel, reproducibly: game `g` draws from `random::stream(seed, g)`
//! and is started by seat `g mod players`, whichever thread plays it.

use super::engine::Game;
use super::rules::Rules;
use super::strategy::{parse_strategy_with, uses_article, ArticleParams, Strategy};
use super::tally::{rate, Tally};
use super::{Error, Result};
use crate::progress::Progress;
use crate::random;
use crate::stats::wilson95;
use rayon::prelude::*;
use serde::Serialize;

/// Games per unit of parallel work.
pub const CHUNK: u64 = 2048;

/// The most games one run may play: a billion, about an hour of work on two cores.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// Checks a number of games against `1..=MAX_GAMES`.
pub fn check_games(games: u64) -> Result<u64> {
    if (1..=MAX_GAMES).contains(&games) {
        Ok(games)
    } else {
        Err(Error::Games {
            games,
            max: MAX_GAMES,
        })
    }
}

/// A simulation to run.
pub struct Simulation {
    /// The table's rules.
    pub rules: Rules,
    /// One strategy per seat.
    pub strategies: Vec<Strategy>,
    /// Games to play.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// The parameters of the article's parts, when not the article's own.
    pub article: Option<ArticleParams>,
}

/// One strategy for everyone, or one per player: the seats, one strategy each.
pub fn seat(
    players: usize,
    strategies: Vec<Strategy>,
    params: &ArticleParams,
) -> Result<Vec<Strategy>> {
    match strategies.len() {
        1 => {
            let name = strategies[0].name.clone();
            (0..players)
                .map(|_| parse_strategy_with(&name, params))
                .collect()
        }
        n if n == players => Ok(strategies),
        given => Err(Error::StrategyCount { given, players }),
    }
}

impl Simulation {
    /// Seats the strategies (one for everyone, or one per player), the article's parts
    /// with its own parameters.
    pub fn new(rules: Rules, strategies: Vec<Strategy>, games: u64, seed: u64) -> Result<Self> {
        Simulation::with_article(rules, strategies, games, seed, &ArticleParams::default())
    }

    /// Seats the strategies, built with `params` for the article's parts (the strategies
    /// given must have been built with the same `params`).
    pub fn with_article(
        rules: Rules,
        strategies: Vec<Strategy>,
        games: u64,
        seed: u64,
        params: &ArticleParams,
    ) -> Result<Self> {
        let rules = rules.checked()?;
        let games = check_games(games)?;
        let strategies = seat(rules.players, strategies, params)?;
        let article = (*params != ArticleParams::default() && strategies.iter().any(uses_article))
            .then_some(*params);
        Ok(Simulation {
            rules,
            strategies,
            games,
            seed,
            article,
        })
    }

    /// Plays every game, reporting the games done to `progress` (stage `"games"`).
    pub fn run(&self, progress: Progress<'_>) -> Tally {
        progress.start("games", Some(self.games));
        let tally = play_games(
            &self.rules,
            &self.strategies,
            self.games,
            self.seed,
            progress,
        );
        progress.finish();
        tally
    }
}

/// Plays games `0..games` of a run seeded with `seed` in parallel chunks, advancing
/// `progress` by each finished chunk's games. The tally depends on the seed alone, not on
/// the threads.
pub fn play_games(
    rules: &Rules,
    strategies: &[Strategy],
    games: u64,
    seed: u64,
    progress: Progress<'_>,
) -> Tally {
    let seats: Vec<&Strategy> = strategies.iter().collect();
    let table = Game::new(rules, &seats);
    let chunks = games.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut tally = Tally::default();
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(games);
            for g in start..end {
                let mut rng = random::stream(seed, g);
                table.play((g % rules.players as u64) as usize, &mut rng, &mut tally);
            }
            progress.advance(end - start);
            tally
        })
        .reduce(Tally::default, Tally::merge)
}

/// One seat's results.
#[derive(Debug, Clone, Serialize)]
pub struct SeatReport {
    /// Seat number, from 1.
    pub player: usize,
    /// Its strategy's name.
    pub strategy: String,
    /// Games won.
    pub wins: u64,
    /// Wins / games.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_rate_ci95: [f64; 2],
    /// Calls made.
    pub calls: u64,
    /// Lies among them.
    pub lies: u64,
    /// Lies / calls.
    pub lie_rate: f64,
    /// Doubts by choice.
    pub doubts: u64,
    /// Doubts that caught a lie.
    pub doubts_won: u64,
    /// Doubts won / doubts.
    pub doubt_success_rate: f64,
}

/// One line of the call distribution.
#[derive(Debug, Clone, Serialize)]
pub struct CallCount {
    /// The call.
    pub call: u16,
    /// Times made.
    pub count: u64,
    /// Share of all calls.
    pub p: f64,
}

/// What a simulation reports (the JSON document of `tabula fabfib simulate --json`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Games played.
    pub games: u64,
    /// The seed of the random number generator.
    pub seed: u64,
    /// The rules played under.
    pub rules: RulesReport,
    /// Each seat's results, in seat order.
    pub players: Vec<SeatReport>,
    /// Rounds played over all games.
    pub rounds: u64,
    /// Rounds / games.
    pub mean_rounds: f64,
    /// Calls made by all seats.
    pub calls: u64,
    /// Calls / games.
    pub mean_calls: f64,
    /// Lies among the calls.
    pub lies: u64,
    /// Lies / calls.
    pub lie_rate: f64,
    /// Doubts by choice, by all seats.
    pub doubts: u64,
    /// Doubts by choice that caught a lie.
    pub doubts_won: u64,
    /// Doubts won / doubts.
    pub doubt_success_rate: f64,
    /// Doubts forced by a call of 1000.
    pub forced_doubts: u64,
    /// Forced doubts that caught a lie.
    pub forced_doubts_won: u64,
    /// How often each call was made, lowest call first; calls never made are left out.
    pub call_distribution: Vec<CallCount>,
    /// The article's parameters, written only when they are not the article's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article: Option<ArticleParams>,
}

/// The rules as reported.
#[derive(Debug, Clone, Serialize)]
pub struct RulesReport {
    /// Players at the table, 2–10.
    pub players: usize,
    /// Life each player starts with.
    pub life: i16,
    /// Whether a call is true only if the hand is worth exactly the call.
    pub exact: bool,
    /// Whether a player who accepts may discard no card at all.
    pub zero_discard: bool,
}

impl From<&Rules> for RulesReport {
    fn from(r: &Rules) -> Self {
        RulesReport {
            players: r.players,
            life: r.life,
            exact: r.exact,
            zero_discard: r.zero_discard,
        }
    }
}

impl Report {
    /// Builds the report of a finished simulation.
    pub fn new(sim: &Simulation, stats: &Tally) -> Report {
        let players = sim
            .strategies
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let t = &stats.seats[i];
                let (lo, hi) = wilson95(t.wins, stats.games);
                SeatReport {
                    player: i + 1,
                    strategy: s.name.clone(),
                    wins: t.wins,
                    win_rate: rate(t.wins, stats.games),
                    win_rate_ci95: [lo, hi],
                    calls: t.calls,
                    lies: t.lies,
                    lie_rate: rate(t.lies, t.calls),
                    doubts: t.doubts,
                    doubts_won: t.doubts_won,
                    doubt_success_rate: rate(t.doubts_won, t.doubts),
                }
            })
            .collect();
        let total = stats.total();
        let call_distribution = stats
            .call_distribution()
            .into_iter()
            .map(|(call, count)| CallCount {
                call,
                count,
                p: rate(count, total.calls),
            })
            .collect();
        Report {
            games: stats.games,
            seed: sim.seed,
            rules: RulesReport::from(&sim.rules),
            players,
            rounds: stats.rounds,
            mean_rounds: rate(stats.rounds, stats.games),
            calls: total.calls,
            mean_calls: rate(total.calls, stats.games),
            lies: total.lies,
            lie_rate: rate(total.lies, total.calls),
            doubts: total.doubts,
            doubts_won: total.doubts_won,
            doubt_success_rate: rate(total.doubts_won, total.doubts),
            forced_doubts: stats.forced_doubts,
            forced_doubts_won: stats.forced_doubts_won,
            call_distribution,
            article: sim.article,
        }
    }
}
