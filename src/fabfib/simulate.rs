//! Many games in parallel, reproducibly: game `g` is played with the generator seeded by
//! `(seed, g)` and started by seat `g mod players`, whichever thread plays it.

use super::engine::Table;
use super::rng::game_rng;
use super::rules::Rules;
use super::stats::{rate, wilson95, Stats};
use super::strategy::Strategy;
use crate::{Error, Result};
use rayon::prelude::*;
use serde::Serialize;

/// Games per unit of parallel work.
pub const CHUNK: u64 = 2048;

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
}

impl Simulation {
    /// Seats the strategies: one name for everyone, or one per player.
    pub fn new(rules: Rules, strategies: Vec<Strategy>, games: u64, seed: u64) -> Result<Self> {
        let rules = rules.checked()?;
        if games == 0 {
            return Err(Error::input("--games must be at least 1"));
        }
        let strategies = match strategies.len() {
            1 => {
                let name = strategies[0].name.clone();
                (0..rules.players)
                    .map(|_| super::strategy::parse_strategy(&name))
                    .collect::<Result<Vec<_>>>()?
            }
            n if n == rules.players => strategies,
            n => {
                return Err(Error::input(format!(
                    "{n} strategies for {} players: give one for everyone or one per player",
                    rules.players
                )))
            }
        };
        Ok(Simulation {
            rules,
            strategies,
            games,
            seed,
        })
    }

    /// Plays every game; `progress` is told how many games each finished chunk held.
    pub fn run(&self, progress: &(dyn Fn(u64) + Sync)) -> Stats {
        let seats: Vec<&Strategy> = self.strategies.iter().collect();
        let table = Table::new(&self.rules, &seats);
        let chunks = self.games.div_ceil(CHUNK);
        (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let mut stats = Stats::default();
                let start = chunk * CHUNK;
                let end = (start + CHUNK).min(self.games);
                for g in start..end {
                    let mut rng = game_rng(self.seed, g);
                    table.play(
                        (g % self.rules.players as u64) as usize,
                        &mut rng,
                        &mut stats,
                    );
                }
                progress(end - start);
                stats
            })
            .reduce(Stats::default, Stats::merge)
    }
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
    pub games: u64,
    pub seed: u64,
    pub rules: RulesReport,
    pub players: Vec<SeatReport>,
    pub rounds: u64,
    pub mean_rounds: f64,
    pub calls: u64,
    pub mean_calls: f64,
    pub lies: u64,
    pub lie_rate: f64,
    pub doubts: u64,
    pub doubts_won: u64,
    pub doubt_success_rate: f64,
    pub forced_doubts: u64,
    pub forced_doubts_won: u64,
    pub call_distribution: Vec<CallCount>,
}

/// The rules as reported.
#[derive(Debug, Clone, Serialize)]
pub struct RulesReport {
    pub players: usize,
    pub life: i16,
    pub exact: bool,
    pub zero_discard: bool,
}

impl Report {
    /// Builds the report of a finished simulation.
    pub fn new(sim: &Simulation, stats: &Stats) -> Report {
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
            rules: RulesReport {
                players: sim.rules.players,
                life: sim.rules.life,
                exact: sim.rules.exact,
                zero_discard: sim.rules.zero_discard,
            },
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
        }
    }
}
