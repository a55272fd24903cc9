//! `tabula fabfib odds|simulate|replay`.

use super::{emit, emit_json};
use clap::{Args, Subcommand};
use serde_json::json;
use tabula::fabfib::calls::parse_call;
use tabula::fabfib::cards::{format_digits, parse_digits, parse_hand};
use tabula::fabfib::odds::{self, fraction, DiscardOption};
use tabula::fabfib::rules::{Rules, DEFAULT_LIFE};
use tabula::fabfib::simulate::{Report, Simulation};
use tabula::fabfib::strategy::parse_strategies;
use tabula::fabfib::{replay, text};
use tabula::{Error, Result};

#[derive(Subcommand)]
pub enum GameCmd {
    /// Exact odds: a fresh hand's value, or the chance that a discard reaches a target
    Odds(OddsArgs),
    /// Play many games in parallel; report win rates, lies, doubts and calls
    Simulate(SimulateArgs),
    /// Play one game (as `simulate` plays it) and print it turn by turn
    Replay(ReplayArgs),
}

#[derive(Args)]
pub struct OddsArgs {
    /// Your hand, three digits (876 or 8,7,6); needs --target and --discard or --best
    #[arg(long, requires = "target")]
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

/// The table: players, strategies and rules.
#[derive(Args)]
pub struct TableArgs {
    /// Players, 2-10 (default: one per listed strategy, or 3)
    #[arg(long)]
    players: Option<usize>,
    /// One strategy for all, or one per player: seed, honest, odds, odds:T, CALL/DISCARD/DOUBT
    #[arg(long, default_value = "seed")]
    strategies: String,
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

#[derive(Args)]
pub struct SimulateArgs {
    /// Games to play
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

pub fn run(cmd: GameCmd) -> Result<()> {
    match cmd {
        GameCmd::Odds(a) => run_odds(a),
        GameCmd::Simulate(a) => run_simulate(a),
        GameCmd::Replay(a) => run_replay(a),
    }
}

fn simulation(t: &TableArgs, games: u64, seed: u64) -> Result<Simulation> {
    let strategies = parse_strategies(&t.strategies)?;
    let players = t.players.unwrap_or(if strategies.len() > 1 {
        strategies.len()
    } else {
        3
    });
    let rules = Rules {
        players,
        life: t.life,
        exact: t.exact,
        zero_discard: t.zero_discard,
    };
    Simulation::new(rules, strategies, games, seed)
}

fn run_odds(a: OddsArgs) -> Result<()> {
    let Some(hand_text) = &a.hand else {
        return fresh(a.json);
    };
    let hand = parse_hand(hand_text)?;
    let target = parse_call(a.target.as_deref().unwrap_or(""), "target")?;
    let seen = parse_digits(a.seen.as_deref().unwrap_or(""), "seen cards")?;
    let head = json!({
        "hand": format_digits(&hand),
        "target": target,
        "exact": a.exact,
        "seen": format_digits(&seen),
    });
    if a.best {
        let options = odds::discard_options(&hand, &seen, target, a.exact, a.zero_discard)?;
        if a.json {
            let mut doc = head;
            doc["best"] = option_json(&options[0]);
            doc["options"] = options.iter().map(option_json).collect();
            return emit_json(&doc);
        }
        return emit(&text::discard_text(&hand, target, a.exact, &options));
    }
    let Some(discard_text) = &a.discard else {
        return Err(Error::input(
            "--hand needs --discard D (the digits you throw away) or --best",
        ));
    };
    let discard = parse_digits(discard_text, "discard")?;
    let o = odds::discard_chance(&hand, &discard, &seen, target, a.exact, a.zero_discard)?;
    if a.json {
        let mut doc = head;
        for (k, v) in option_json(&o).as_object().into_iter().flatten() {
            doc[k] = v.clone();
        }
        return emit_json(&doc);
    }
    emit(&text::discard_text(
        &hand,
        target,
        a.exact,
        std::slice::from_ref(&o),
    ))
}

fn option_json(o: &DiscardOption) -> serde_json::Value {
    json!({
        "discard": format_digits(&o.discard),
        "kept": format_digits(&o.kept),
        "favourable": o.chance.favourable,
        "draws": o.chance.total,
        "p": o.chance.float(),
        "p_exact": fraction(&o.chance.ratio()),
    })
}

fn fresh(as_json: bool) -> Result<()> {
    let rows = odds::fresh_rows();
    let total = rows.first().map_or(0, |r| r.at_least);
    let mean = odds::fresh_mean();
    let r = |n: u64| num_rational::Ratio::new(n, total);
    if as_json {
        let distribution: Vec<_> = rows
            .iter()
            .map(|x| {
                json!({
                    "value": x.value,
                    "hands": x.hands,
                    "p": x.hands as f64 / total as f64,
                    "p_exact": fraction(&r(x.hands)),
                    "p_at_least": x.at_least as f64 / total as f64,
                    "p_at_least_exact": fraction(&r(x.at_least)),
                })
            })
            .collect();
        return emit_json(&json!({
            "hands": total,
            "values": rows.len(),
            "mean": *mean.numer() as f64 / *mean.denom() as f64,
            "mean_exact": fraction(&mean),
            "distribution": distribution,
        }));
    }
    emit(&text::fresh_text(&rows, &mean))
}

fn run_simulate(a: SimulateArgs) -> Result<()> {
    let sim = simulation(&a.table, a.games, a.seed)?;
    let bar = tabula::progress::bar(sim.games, "simulate", a.quiet);
    let stats = sim.run(&|n| bar.inc(n));
    bar.finish_and_clear();
    let report = Report::new(&sim, &stats);
    if a.json {
        return emit_json(&report);
    }
    emit(&text::simulate_text(&report))
}

fn run_replay(a: ReplayArgs) -> Result<()> {
    let sim = simulation(&a.table, 1, a.seed)?;
    let events = replay::record(&sim, a.game);
    if a.json {
        let names: Vec<_> = sim.strategies.iter().map(|s| s.name.clone()).collect();
        return emit_json(&json!({
            "seed": a.seed,
            "game": a.game,
            "strategies": names,
            "events": events,
        }));
    }
    emit(&replay::describe(&sim, a.game, &events))
}
