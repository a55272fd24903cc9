//! `tabula nikoniko …`: NikoNiko Gammon.

use super::{emit, emit_json};
use clap::Subcommand;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;
use tabula::nikoniko::{
    board, game, index,
    moves::{self, Generator},
    notation, query,
    solve::Outcomes,
    store, verify, Position, Roll,
};
use tabula::{Error, Result};

#[derive(Subcommand)]
pub enum NikonikoCmd {
    /// Enumerate every state and prove the index round-trips (1,106,945 states)
    Count {
        /// Also generate the plays of all 6 distinct rolls for every state, and count them
        #[arg(long)]
        plays: bool,
        #[arg(long)]
        json: bool,
    },
    /// Show a position: board, notation, index, pip counts
    Show {
        /// `8,8,5,2,2/8,8,5,2,2` (side on roll first) or a dense index
        position: String,
        #[arg(long)]
        json: bool,
    },
    /// Every distinct legal play of a roll
    Moves {
        position: String,
        /// `1-2`, `0-0`, `2-2`, …
        roll: String,
        #[arg(long)]
        json: bool,
    },
    /// Build the equity and outcome tables by value iteration
    Build {
        /// The equity table (the outcome table goes beside it, extension `outcomes`)
        #[arg(long, default_value_os_t = store::default_path())]
        table: PathBuf,
        /// Hide the progress display
        #[arg(long)]
        quiet: bool,
        #[arg(long)]
        json: bool,
    },
    /// Equity and outcome chances of a position for the side on roll
    Equity {
        position: String,
        #[arg(long, default_value_os_t = store::default_path())]
        table: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Every legal play of a roll, best first, with equity and the equity each loses
    Hint {
        position: String,
        roll: String,
        #[arg(long, default_value_os_t = store::default_path())]
        table: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal against the table's perfect play
    Play {
        /// Seed of the dice
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Let the table move first
        #[arg(long)]
        second: bool,
        #[arg(long, default_value_os_t = store::default_path())]
        table: PathBuf,
    },
    /// Re-derive every stored value with one Bellman sweep and report the worst gap
    Verify {
        #[arg(long, default_value_os_t = store::default_path())]
        table: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

fn position(text: &str) -> Result<Position> {
    notation::parse_position(text).map_err(|e| Error::input(format!("position: {e}")))
}

fn roll(text: &str) -> Result<Roll> {
    notation::parse_roll(text).map_err(Error::input)
}

fn outcomes_json(o: &Outcomes) -> Value {
    json!({
        "win": o[0] + o[1] + o[2],
        "win_gammon": o[1] + o[2],
        "win_backgammon": o[2],
        "lose": o[3] + o[4] + o[5],
        "lose_gammon": o[4] + o[5],
        "lose_backgammon": o[5],
    })
}

fn outcomes_text(o: &Outcomes) -> String {
    format!(
        "win {:5.1}% (gammon {:5.1}%, backgammon {:5.1}%)  lose {:5.1}% (gammon {:5.1}%, backgammon {:5.1}%)",
        100.0 * (o[0] + o[1] + o[2]),
        100.0 * (o[1] + o[2]),
        100.0 * o[2],
        100.0 * (o[3] + o[4] + o[5]),
        100.0 * (o[4] + o[5]),
        100.0 * o[5],
    )
}

pub fn run(cmd: NikonikoCmd) -> Result<()> {
    match cmd {
        NikonikoCmd::Count { plays, json } => {
            let started = Instant::now();
            let states = index::check_bijection().map_err(Error::failure)?;
            let seconds = started.elapsed().as_secs_f64();
            let seed_count = index::count_states_like_the_seed();
            let mut doc = json!({
                "states": states,
                "seed_count": seed_count,
                "side_vectors": index::SIDE_VECTORS,
                "round_trips_verified": states,
                "seconds": seconds,
            });
            let mut text = format!(
                "states                {states}\n\
                 counted as the seed   {seed_count}\n\
                 one side's vectors    {} (the seed's PNC(10, 5))\n\
                 round trips verified  {states} (index -> position -> index) in {seconds:.3} s",
                index::SIDE_VECTORS
            );
            if plays {
                let all = index::all_states();
                let started = Instant::now();
                let stats = moves::play_statistics(&all);
                let play_seconds = started.elapsed().as_secs_f64();
                let rows: Vec<Value> = Roll::ALL
                    .iter()
                    .zip(stats)
                    .map(|((r, _), s)| {
                        json!({"roll": r.to_string(), "plays": s.plays, "passes": s.passes, "wins": s.wins})
                    })
                    .collect();
                doc["plays"] = json!({ "rolls": rows, "seconds": play_seconds });
                text.push_str(&format!(
                    "\nplays of every roll from every state, generated in {play_seconds:.3} s:\n  roll        plays     passes       wins"
                ));
                for ((r, _), s) in Roll::ALL.iter().zip(stats) {
                    text.push_str(&format!(
                        "\n  {r}  {:>11} {:>10} {:>10}",
                        s.plays, s.passes, s.wins
                    ));
                }
            }
            if json {
                emit_json(&doc)
            } else {
                emit(&text)
            }
        }
        NikonikoCmd::Show {
            position: text,
            json,
        } => {
            let p = position(&text)?;
            if json {
                emit_json(&json!({
                    "index": index::index_of(&p),
                    "position": notation::notation(&p),
                    "pips": { "on_roll": p.my_pips(), "opponent": p.opp_pips() },
                    "on_roll": p.me,
                    "opponent": p.opp,
                }))
            } else {
                emit(&board::render(&p))
            }
        }
        NikonikoCmd::Moves {
            position: text,
            roll: r,
            json,
        } => {
            let p = position(&text)?;
            let r = roll(&r)?;
            let plays = Generator::new().plays(&p, r);
            let pass = plays.len() == 1 && plays[0].is_pass();
            let listed: Vec<_> = if pass { Vec::new() } else { plays };
            if json {
                let moves: Vec<Value> = listed
                    .iter()
                    .map(|m| {
                        json!({
                            "position": notation::notation(&m.after),
                            "play": m.to_string(),
                            "index_after": if m.wins() { Value::Null } else { json!(index::index_of(&m.after.swap())) },
                            "wins": m.score(),
                        })
                    })
                    .collect();
                emit_json(&json!({
                    "position": notation::notation(&p),
                    "roll": r.to_string(),
                    "pass": pass,
                    "moves": moves,
                }))
            } else if pass {
                emit(&format!("{r}: no legal move, the turn passes"))
            } else {
                let mut text = format!("{} distinct plays of {r}:\n", listed.len());
                for (k, m) in listed.iter().enumerate() {
                    let end = match m.score() {
                        0 => String::new(),
                        s => format!("  (wins {s})"),
                    };
                    text.push_str(&format!(
                        "{:>3}. {:<22} {}{end}\n",
                        k + 1,
                        m.to_string(),
                        notation::notation(&m.after)
                    ));
                }
                emit(&text)
            }
        }
        NikonikoCmd::Build { table, quiet, json } => {
            let report = store::build(&table, quiet)?;
            if json {
                emit_json(&json!({
                    "table": report.equity_path,
                    "outcomes_table": report.outcomes_path,
                    "states": index::STATES,
                    "successors": report.successors,
                    "sweeps": report.sweeps,
                    "residual": report.residual,
                    "outcome_sweeps": report.outcome_sweeps,
                    "outcome_residual": report.outcome_residual,
                    "seconds": report.seconds,
                    "graph_seconds": report.graph_seconds,
                    "solve_seconds": report.solve_seconds,
                    "outcome_seconds": report.outcome_seconds,
                    "checksum": report.equity_checksum,
                    "outcomes_checksum": report.outcome_checksum,
                    "opening_equity": report.opening_equity,
                }))
            } else {
                emit(&format!(
                    "built {} and {}\n\
                     states          {}\n\
                     plays           {} successor links\n\
                     equity          {} sweeps, final residual {:.2e}\n\
                     outcomes        {} sweeps, final residual {:.2e}\n\
                     time            {:.2} s ({:.2} s generating plays, {:.2} s iterating, {:.2} s of it \
                     for the outcomes)\n\
                     checksum        sha256:{}\n\
                     outcomes sum    sha256:{}\n\
                     opening equity  {:+.6}",
                    report.equity_path.display(),
                    report.outcomes_path.display(),
                    index::STATES,
                    report.successors,
                    report.sweeps,
                    report.residual,
                    report.outcome_sweeps,
                    report.outcome_residual,
                    report.seconds,
                    report.graph_seconds,
                    report.solve_seconds,
                    report.outcome_seconds,
                    report.equity_checksum,
                    report.outcome_checksum,
                    report.opening_equity,
                ))
            }
        }
        NikonikoCmd::Equity {
            position: text,
            table,
            json,
        } => {
            let p = position(&text)?;
            let tables = store::Tables::open(&table)?;
            let i = index::index_of(&p);
            let (e, o) = (tables.equity(i)?, tables.outcomes(i)?);
            if json {
                emit_json(&json!({
                    "index": i,
                    "position": notation::notation(&p),
                    "equity": e,
                    "outcomes": outcomes_json(&o),
                }))
            } else {
                emit(&format!(
                    "position {}  (index {i})\nequity   {e:+.4} for the side on roll\n{}",
                    notation::notation(&p),
                    outcomes_text(&o)
                ))
            }
        }
        NikonikoCmd::Hint {
            position: text,
            roll: r,
            table,
            json,
        } => {
            let p = position(&text)?;
            let r = roll(&r)?;
            let tables = store::Tables::open(&table)?;
            let rated = query::rated_plays(&tables, &p, r)?;
            if json {
                let moves: Vec<Value> = rated
                    .iter()
                    .map(|m| {
                        json!({
                            "position": notation::notation(&m.play.after),
                            "play": m.play.to_string(),
                            "equity": m.equity,
                            "loss": m.loss,
                            "outcomes": outcomes_json(&m.outcomes),
                        })
                    })
                    .collect();
                emit_json(&json!({
                    "position": notation::notation(&p),
                    "index": index::index_of(&p),
                    "roll": r.to_string(),
                    "moves": moves,
                }))
            } else {
                let mut text = format!("{} to play {r}:\n", notation::notation(&p));
                for (k, m) in rated.iter().enumerate() {
                    text.push_str(&format!(
                        "{:>3}. {:<22} {:<22} equity {:+.4}  loss {:.4}\n     {}\n",
                        k + 1,
                        m.play.to_string(),
                        notation::notation(&m.play.after),
                        m.equity,
                        m.loss,
                        outcomes_text(&m.outcomes)
                    ));
                }
                emit(&text)
            }
        }
        NikonikoCmd::Play {
            seed,
            second,
            table,
        } => {
            // Loaded into memory: a game lasts, and the files may change meanwhile.
            let tables = store::Tables::load(&table)?;
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout();
            match game::play(&tables, seed, !second, stdin.lock(), &mut stdout) {
                // The reader went away (`| head`): nothing left to say.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                // A damaged table: report it as the table error it is.
                Err(e)
                    if e.get_ref()
                        .is_some_and(|r| r.is::<tabula::table::TableError>()) =>
                {
                    let inner = e.into_inner().expect("checked");
                    Err(Error::Table(*inner.downcast().expect("checked")))
                }
                other => other.map(|_| ()).map_err(Error::from),
            }
        }
        NikonikoCmd::Verify { table, json } => {
            let tables = store::Tables::open(&table)?;
            let started = Instant::now();
            let r = verify::verify(&tables)?;
            let seconds = started.elapsed().as_secs_f64();
            if json {
                emit_json(&json!({
                    "ok": r.ok,
                    "max_bellman_gap": r.max_bellman_gap,
                    "worst_index": r.worst_index,
                    "bellman_bound": r.bellman_bound,
                    "max_outcome_gap": r.max_outcome_gap,
                    "outcome_bound": r.outcome_bound,
                    "max_total_gap": r.max_total_gap,
                    "total_bound": r.total_bound,
                    "seconds": seconds,
                }))?;
            } else {
                emit(&format!(
                    "checksums           ok\n\
                     Bellman sweep       largest gap {:.3e} at index {} (rounding allows {:.3e})\n\
                     equity vs outcomes  largest gap {:.3e} (rounding allows {:.3e})\n\
                     outcomes add to 1   largest gap {:.3e} (rounding allows {:.3e})\n\
                     verdict             {} ({seconds:.2} s)",
                    r.max_bellman_gap,
                    r.worst_index,
                    r.bellman_bound,
                    r.max_outcome_gap,
                    r.outcome_bound,
                    r.max_total_gap,
                    r.total_bound,
                    if r.ok { "consistent" } else { "INCONSISTENT" }
                ))?;
            }
            if r.ok {
                Ok(())
            } else {
                Err(Error::failure("the table is not consistent with the rules"))
            }
        }
    }
}
