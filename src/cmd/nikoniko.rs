//! `tabula nikoniko …`: NikoNiko Gammon.

use super::progress::Bars;
use super::{emit, emit_json};
use clap::Subcommand;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;
use tabula::nikoniko::{
    self, board, counting, game, index,
    moves::{self, Generator},
    notation, query, store, verify, Outcomes, Position, Roll,
};
use tabula::Result;

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
    /// The article's table of PNC(p, n): ways to put n checkers on p places
    Pnc {
        /// Rows: 1 to this many places
        #[arg(long, default_value_t = 10)]
        places: u32,
        /// Columns: 0 to this many checkers
        #[arg(long, default_value_t = 5)]
        checkers: u32,
        #[arg(long)]
        json: bool,
    },
    /// Every count vector in the order of the article's next_PN, with its rank
    Listing {
        #[arg(long, default_value_t = 4)]
        places: u32,
        #[arg(long, default_value_t = 2)]
        checkers: u32,
        #[arg(long)]
        json: bool,
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
    Ok(notation::parse_position(text)?)
}

fn roll(text: &str) -> Result<Roll> {
    Ok(notation::parse_roll(text)?)
}

/// The six outcome chances in one line (also `tabula gammon`'s).
pub(super) fn outcomes_text(o: &Outcomes) -> String {
    format!(
        "win {:5.1}% (gammon {:5.1}%, backgammon {:5.1}%)  lose {:5.1}% (gammon {:5.1}%, backgammon {:5.1}%)",
        100.0 * o.win,
        100.0 * o.win_gammon,
        100.0 * o.win_backgammon,
        100.0 * o.lose,
        100.0 * o.lose_gammon,
        100.0 * o.lose_backgammon,
    )
}

pub fn run(cmd: NikonikoCmd) -> Result<()> {
    match cmd {
        NikonikoCmd::Count { plays, json } => {
            let started = Instant::now();
            let states = index::check_bijection()?;
            let seconds = started.elapsed().as_secs_f64();
            let seed_count = index::count_states_like_the_article();
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
            let bars = Bars::new(quiet);
            let report = store::build(&table, bars.progress())?;
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
                    "outcomes": o,
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
                            "outcomes": m.outcomes,
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
            game::play(&tables, seed, !second, stdin.lock(), &mut stdout)?;
            Ok(())
        }
        NikonikoCmd::Pnc {
            places,
            checkers,
            json,
        } => {
            let table = counting::pnc_table(places, checkers)?;
            if json {
                emit_json(&table)
            } else {
                emit(&render_pnc(&table))
            }
        }
        NikonikoCmd::Listing {
            places,
            checkers,
            json,
        } => {
            let listing = counting::listing(places, checkers)?;
            if json {
                emit_json(&listing)
            } else {
                emit(&render_listing(&listing))
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
                Err(nikoniko::Error::Inconsistent(format!(
                    "a gap exceeds what rounding allows (Bellman {:.3e}, outcomes {:.3e}, total {:.3e})",
                    r.max_bellman_gap, r.max_outcome_gap, r.max_total_gap
                ))
                .into())
            }
        }
    }
}

/// The PNC table as the article prints it: `p\n | 0 | 1 | …`, one row per number of places.
fn render_pnc(t: &counting::PncTable) -> String {
    let width = t
        .rows
        .iter()
        .flatten()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1)
        .max(t.checkers.to_string().len());
    let label = t.places.to_string().len().max(3);
    let mut text = format!("{:>label$} |", "p\\n");
    for n in 0..=t.checkers {
        text.push_str(&format!(" {n:>width$} |"));
    }
    text.push('\n');
    for (p, row) in t.rows.iter().enumerate() {
        text.push_str(&format!("{:>label$} |", p + 1));
        for v in row {
            text.push_str(&format!(" {v:>width$} |"));
        }
        text.push('\n');
    }
    text
}

/// A listing as the article prints it: one vector a line, its counts apart by spaces,
/// after the vector's rank.
fn render_listing(l: &counting::Listing) -> String {
    let width = l.count.saturating_sub(1).to_string().len();
    let mut text = format!(
        "{} vectors of {} checkers on {} places (rank: counts from place 0)\n",
        l.count, l.checkers, l.places
    );
    for row in &l.rows {
        let counts: Vec<String> = row.counts.iter().map(u8::to_string).collect();
        text.push_str(&format!("{:>width$}: {}\n", row.rank, counts.join(" ")));
    }
    text
}
