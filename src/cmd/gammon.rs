//! `tabula gammon … --variant V`: any member of the backgammon family. `--variant
//! nikoniko` runs the same code as `tabula nikoniko …` (its tables keep the article's
//! format); every other variant uses the family's tables.

use super::nikoniko::{outcomes_text, run as run_nikoniko, NikonikoCmd};
use super::progress::Bars;
use super::{emit, emit_json};
use clap::Subcommand;
use serde_json::json;
use std::path::{Path, PathBuf};
use tabula::gammon::store::{self, Numbers, Tables};
use tabula::gammon::{bd, moves, notation, query, Position, Variant};
use tabula::Result;

#[derive(Subcommand)]
pub enum GammonCmd {
    /// Records and legal positions of the variant's index
    Count {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        json: bool,
    },
    /// Show a position: notation, record, Position ID, pip counts
    Show {
        /// `24,23/24,23` (side on roll first), a record number or a gnubg Position ID
        position: String,
        #[arg(long)]
        variant: String,
        #[arg(long)]
        json: bool,
    },
    /// Every distinct legal play of a roll
    Moves {
        position: String,
        /// `6-5`, `3-3`, …
        roll: String,
        #[arg(long)]
        variant: String,
        #[arg(long)]
        json: bool,
    },
    /// Solve the variant and write its table
    Build {
        #[arg(long)]
        variant: String,
        /// Also solve the doubling cube (money play) into `<stem>.cube`, beside the table
        #[arg(long)]
        cube: bool,
        /// The table (default `tables/<variant>.tbl`)
        #[arg(long)]
        table: Option<PathBuf>,
        /// Hide the progress display
        #[arg(long)]
        quiet: bool,
        #[arg(long)]
        json: bool,
    },
    /// Equity and outcome chances of a position for the side on roll
    Equity {
        position: String,
        #[arg(long)]
        variant: String,
        /// The cube state for the cube decision (with a cube table)
        #[arg(long, value_enum, default_value_t = CubeArg::Centred)]
        cube: CubeArg,
        /// The Jacoby rule for a centred cube
        #[arg(long)]
        jacoby: bool,
        #[arg(long)]
        table: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Every legal play of a roll, best first
    Hint {
        position: String,
        roll: String,
        #[arg(long)]
        variant: String,
        /// Rank by the cubeful equity of this cube state (with a cube table)
        #[arg(long, value_enum)]
        cube: Option<CubeArg>,
        /// The Jacoby rule for a centred cube
        #[arg(long)]
        jacoby: bool,
        #[arg(long)]
        table: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// The opening: each first roll's best play and the opening-roll winner's equity
    Opening {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        table: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal against the table's perfect play
    Play {
        #[arg(long)]
        variant: String,
        /// Seed of the dice
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Let the table move first
        #[arg(long)]
        second: bool,
        /// Money play with the doubling cube (needs a table built with `--cube`)
        #[arg(long)]
        cube: bool,
        #[arg(long)]
        table: Option<PathBuf>,
    },
    /// Re-derive every stored value with one Bellman sweep and report the worst gap
    Verify {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        table: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Compare the variant's table with a gnubg Hypergammon database, value by value
    Compare {
        #[arg(long)]
        variant: String,
        /// gnubg's `hyperC.bd`
        #[arg(long)]
        gnubg: PathBuf,
        #[arg(long)]
        table: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Write the variant's values as a gnubg Hypergammon database (`hyperC.bd`)
    Export {
        #[arg(long)]
        variant: String,
        /// The file to write
        #[arg(long)]
        gnubg: PathBuf,
        #[arg(long)]
        table: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum CubeArg {
    Centred,
    Owned,
    Opponent,
}

impl From<CubeArg> for query::CubeState {
    fn from(c: CubeArg) -> Self {
        match c {
            CubeArg::Centred => query::CubeState::Centred,
            CubeArg::Owned => query::CubeState::Owned,
            CubeArg::Opponent => query::CubeState::Opponent,
        }
    }
}

fn variant_of(name: &str) -> Result<Variant> {
    Ok(Variant::parse(name)?)
}

fn is_nikoniko(v: &Variant) -> bool {
    v.name == "nikoniko"
}

fn table_path(v: &Variant, table: Option<PathBuf>) -> PathBuf {
    table.unwrap_or_else(|| store::default_path(v))
}

fn nikoniko_table(table: Option<PathBuf>) -> PathBuf {
    table.unwrap_or_else(tabula::nikoniko::store::default_path)
}

fn position(v: &Variant, text: &str) -> Result<Position> {
    Ok(notation::parse_position(v, text)?)
}

pub fn run(cmd: GammonCmd) -> Result<()> {
    match cmd {
        GammonCmd::Count { variant, json } => {
            let v = variant_of(&variant)?;
            let numbers = Numbers::new(&v)?;
            let records = numbers.records();
            let legal = match v.numbering {
                tabula::gammon::Numbering::Seed => records,
                tabula::gammon::Numbering::Gnubg => v.hyper_index()?.counts().legal,
            };
            let states = tabula::gammon::solver::state_count(&v)?;
            if json {
                emit_json(&json!({
                    "variant": v.name,
                    "rules": v,
                    "records": records,
                    "legal": legal,
                    "states": states,
                }))
            } else {
                let rules = v.describe();
                let name = if v.name == rules {
                    rules
                } else {
                    format!("{} ({rules})", v.name)
                };
                emit(&format!(
                    "variant   {name}\nrecords   {records}\nlegal     {legal} (positions whose sides share no point)\nstates    {states} (legal, and neither side has finished)"
                ))
            }
        }
        GammonCmd::Show {
            position: text,
            variant,
            json,
        } => {
            let v = variant_of(&variant)?;
            if is_nikoniko(&v) {
                return run_nikoniko(NikonikoCmd::Show {
                    position: text,
                    json,
                });
            }
            let p = position(&v, &text)?;
            let looked = query::look(&v, &Numbers::new(&v)?, &p)?;
            if json {
                emit_json(&looked)
            } else {
                let mut out = format!(
                    "position  {}\nrecord    {}\npips      {} (on roll), {} (opponent)",
                    looked.position, looked.index, looked.pips[0], looked.pips[1]
                );
                if let Some(id) = &looked.position_id {
                    out.push_str(&format!("\nPosition ID {id}"));
                }
                emit(&out)
            }
        }
        GammonCmd::Moves {
            position: text,
            roll,
            variant,
            json,
        } => {
            let v = variant_of(&variant)?;
            if is_nikoniko(&v) {
                return run_nikoniko(NikonikoCmd::Moves {
                    position: text,
                    roll,
                    json,
                });
            }
            let p = position(&v, &text)?;
            let r = notation::parse_roll(&v, &roll)?;
            let plays: Vec<moves::Play> = moves::plays(&v, &p, r)
                .into_iter()
                .filter(|m| !m.steps.is_empty())
                .collect();
            if json {
                let listed: Vec<_> = plays
                    .iter()
                    .map(|m| {
                        json!({
                            "position": notation::notation(&v, &m.after),
                            "play": m.text(v.points),
                        })
                    })
                    .collect();
                emit_json(&json!({
                    "position": notation::notation(&v, &p),
                    "roll": format!("{}-{}", r.0, r.1),
                    "pass": plays.is_empty(),
                    "moves": listed,
                }))
            } else if plays.is_empty() {
                emit(&format!("{}-{}: no legal move, the turn passes", r.0, r.1))
            } else {
                let mut out = format!("{} distinct plays of {}-{}:\n", plays.len(), r.0, r.1);
                for (k, m) in plays.iter().enumerate() {
                    out.push_str(&format!(
                        "{:>3}. {:<24} {}\n",
                        k + 1,
                        m.text(v.points),
                        notation::notation(&v, &m.after)
                    ));
                }
                emit(&out)
            }
        }
        GammonCmd::Build {
            variant,
            cube,
            table,
            quiet,
            json,
        } => {
            let v = variant_of(&variant)?;
            if is_nikoniko(&v) && !cube {
                return run_nikoniko(NikonikoCmd::Build {
                    table: nikoniko_table(table),
                    quiet,
                    json,
                });
            }
            let path = table_path(&v, table);
            let bars = Bars::new(quiet || json);
            let report = store::build_with(&v, &path, cube, bars.progress())?;
            if json {
                emit_json(&report)
            } else {
                emit(&format!(
                    "built {} ({})\n\
                     records         {} ({} states)\n\
                     plays           {} successor links ({:.2} GB of graph)\n\
                     equity          {} sweeps, final residual {:.2e}\n\
                     outcomes        {} sweeps, final residual {:.2e}\n\
                     time            {:.2} s ({:.2} s generating plays, {:.2} s iterating)\n\
                     checksum        sha256:{}{}\n\
                     opening equity  {:+.6}",
                    report.path.display(),
                    report.variant,
                    report.records,
                    report.states,
                    report.successors,
                    report.graph_bytes as f64 / 1e9,
                    report.sweeps,
                    report.residual,
                    report.outcome_sweeps,
                    report.outcome_residual,
                    report.seconds,
                    report.graph_seconds,
                    report.solve_seconds,
                    report.checksum,
                    match (&report.cube_checksum, report.cube_sweeps) {
                        (Some(c), Some(n)) => format!(
                            "\ncube            {n} sweeps, final residual {:.2e}, table sha256:{c}",
                            report.cube_residual.unwrap_or(0.0)
                        ),
                        _ => String::new(),
                    },
                    report.opening_equity,
                ))
            }
        }
        GammonCmd::Equity {
            position: text,
            variant,
            cube,
            jacoby,
            table,
            json,
        } => {
            let v = variant_of(&variant)?;
            let path = table_path(&v, table.clone());
            if is_nikoniko(&v) && !store::cube_path(&path).exists() {
                return run_nikoniko(NikonikoCmd::Equity {
                    position: text,
                    table: nikoniko_table(table),
                    json,
                });
            }
            let p = position(&v, &text)?;
            let tables = Tables::open(&v, &path)?;
            let e = query::evaluate(&tables, &p, cube.into(), jacoby)?;
            if json {
                emit_json(&e)
            } else {
                let mut out = format!(
                    "position {}  (record {})\nequity   {:+.6} for the side on roll (cubeless)\n{}",
                    e.looked.position,
                    e.looked.index,
                    e.equity,
                    outcomes_text(&e.outcomes)
                );
                if let (Some(c), Some(a)) = (&e.cubeful, &e.cube) {
                    out.push_str(&format!(
                        "\ncubeful  owned {:+.6}  centred {:+.6}  Jacoby {:+.6}  opponent owns {:+.6}\n\
                         cube     {:?}{}: no double {:+.6}, double/take {:+.6}, double/pass {:+.6}\n\
                         action   {}",
                        c.owned,
                        c.centred,
                        c.centred_jacoby,
                        c.opponent_owns,
                        a.state,
                        if a.jacoby { ", Jacoby" } else { "" },
                        a.no_double,
                        a.double_take,
                        a.double_pass,
                        a.action
                    ));
                }
                emit(&out)
            }
        }
        GammonCmd::Hint {
            position: text,
            roll,
            variant,
            cube,
            jacoby,
            table,
            json,
        } => {
            let v = variant_of(&variant)?;
            if is_nikoniko(&v) && cube.is_none() {
                return run_nikoniko(NikonikoCmd::Hint {
                    position: text,
                    roll,
                    table: nikoniko_table(table),
                    json,
                });
            }
            let p = position(&v, &text)?;
            let r = notation::parse_roll(&v, &roll)?;
            let tables = Tables::open(&v, &table_path(&v, table))?;
            let h = query::hint_with(&tables, &p, r, cube.map(|c| (c.into(), jacoby)))?;
            if json {
                emit_json(&h)
            } else if h.moves.is_empty() {
                emit(&format!("{}: no legal move, the turn passes", h.roll))
            } else {
                let key = |m: &query::Ranked| m.cubeful.unwrap_or(m.equity);
                let best = key(&h.moves[0]);
                let mut out = format!("{} to play {}:\n", h.position, h.roll);
                for (k, m) in h.moves.iter().enumerate() {
                    let cubeful = m
                        .cubeful
                        .map(|c| format!("cubeful {c:+.6}  "))
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "{:>3}. {:<24} {:<20} {cubeful}equity {:+.6}  loss {:.6}\n     {}\n",
                        k + 1,
                        m.play,
                        m.position,
                        m.equity,
                        best - key(m),
                        outcomes_text(&m.outcomes)
                    ));
                }
                emit(&out)
            }
        }
        GammonCmd::Opening {
            variant,
            table,
            json,
        } => {
            let v = variant_of(&variant)?;
            let o = if is_nikoniko(&v) {
                tabula::nikoniko::query::opening(&tabula::nikoniko::store::Tables::open(
                    &nikoniko_table(table),
                )?)?
            } else {
                query::opening(&Tables::open(&v, &table_path(&v, table))?)?
            };
            if json {
                emit_json(&o)
            } else {
                let mut out = format!("{} opening {}: best first plays\n", o.variant, o.position);
                for r in &o.rolls {
                    out.push_str(&format!(
                        "  {:<5} {:<24} {:+.6}\n",
                        r.roll, r.play, r.equity
                    ));
                }
                out.push_str(&format!(
                    "opening-roll winner's equity {:+.10} (average over the non-double rolls)",
                    o.winner_equity
                ));
                emit(&out)
            }
        }
        GammonCmd::Play {
            variant,
            seed,
            second,
            cube,
            table,
        } => {
            let v = variant_of(&variant)?;
            if is_nikoniko(&v) && !cube {
                return run_nikoniko(NikonikoCmd::Play {
                    seed,
                    second,
                    table: nikoniko_table(table),
                });
            }
            let given = table.clone();
            let path = table_path(&v, table);
            if cube && !store::cube_path(&path).exists() {
                let build = match given {
                    Some(t) => format!(
                        "tabula gammon build --variant {} --cube --table {}",
                        v.name,
                        t.display()
                    ),
                    None => format!("tabula gammon build --variant {} --cube", v.name),
                };
                return Err(tabula::gammon::Error::Input {
                    what: "table",
                    input: path.display().to_string(),
                    reason: format!(
                        "no cube table lies beside it ({}); build it with `{build}`",
                        store::cube_path(&path).display()
                    ),
                }
                .into());
            }
            let tables = Tables::open(&v, &path)?;
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout();
            if cube {
                tabula::gammon::game::play_with_cube(
                    &tables,
                    seed,
                    !second,
                    stdin.lock(),
                    &mut stdout,
                )?;
            } else {
                tabula::gammon::game::play(&tables, seed, !second, stdin.lock(), &mut stdout)?;
            }
            Ok(())
        }
        GammonCmd::Verify {
            variant,
            table,
            json,
        } => {
            let v = variant_of(&variant)?;
            if is_nikoniko(&v) {
                return run_nikoniko(NikonikoCmd::Verify {
                    table: nikoniko_table(table),
                    json,
                });
            }
            let tables = Tables::open(&v, &table_path(&v, table))?;
            let r = store::verify(&tables)?;
            if json {
                emit_json(&r)?;
            } else {
                emit(&format!(
                    "checksums           ok\n\
                     Bellman sweep       largest gap {:.3e} at record {} (rounding allows {:.3e})\n\
                     equity vs outcomes  largest gap {:.3e} (rounding allows {:.3e})\n\
                     verdict             {}",
                    r.max_bellman_gap,
                    r.worst_record,
                    r.bellman_bound,
                    r.max_outcome_gap,
                    r.outcome_bound,
                    if r.ok { "consistent" } else { "INCONSISTENT" }
                ))?;
            }
            if r.ok {
                Ok(())
            } else {
                Err(tabula::gammon::Error::Inconsistent(format!(
                    "a gap exceeds what rounding allows (Bellman {:.3e}, outcomes {:.3e})",
                    r.max_bellman_gap, r.max_outcome_gap
                ))
                .into())
            }
        }
        GammonCmd::Compare {
            variant,
            gnubg,
            table,
            json,
        } => {
            let v = variant_of(&variant)?;
            let tables = Tables::open(&v, &table_path(&v, table))?;
            let file = bd::HyperFile::open_for(&gnubg, v.checkers)?;
            let c = store::compare(&tables, &file)?;
            if json {
                emit_json(&c)
            } else {
                emit(&compare_text(&c, &gnubg))
            }
        }
        GammonCmd::Export {
            variant,
            gnubg,
            table,
        } => {
            let v = variant_of(&variant)?;
            let tables = Tables::open(&v, &table_path(&v, table))?;
            let written = store::export(&tables, &gnubg)?;
            emit(&format!(
                "wrote {} ({written} records, gnubg 1.07's format{})",
                gnubg.display(),
                if tables.has_cube() {
                    ""
                } else {
                    "; no cube table, so the cubeful equities are 0: build with --cube"
                }
            ))
        }
    }
}

fn compare_text(c: &store::Comparison, path: &Path) -> String {
    let mut out = format!(
        "{} against {}: {} records, {} compared (legal, play left)\n",
        c.variant,
        path.display(),
        c.records,
        c.compared
    );
    for d in &c.quantities {
        out.push_str(&format!(
            "  {:<16} largest difference {:.3e} at record {} ({}): tabula {:.7}, gnubg {:.7}\n",
            d.name, d.max_diff, d.record, d.position, d.ours, d.theirs
        ));
    }
    out.push_str(&format!(
        "{} positions differ in a chance by more than {:.0e} while their equities agree: plays \
         that tie in equity, kept differently by the two programs\n",
        c.tie_records,
        store::TIE_GAP
    ));
    out.push_str(&format!(
        "{} positions have a roll without a legal move (gnubg 1.07 mishandles the cube there)\n",
        c.pass_records
    ));
    if let Some(d) = &c.max_diff_without_pass {
        out.push_str(&format!(
            "cubeful, where no roll passes: largest differences owned {:.1e}, centred {:.1e}, \
             Jacoby {:.1e}, opponent owns {:.1e}\n",
            d.owned, d.centred, d.centred_jacoby, d.opponent_owns
        ));
    }
    out.push_str(&format!(
        "gnubg stores 24 bits: a chance to {:.1e}, an equity to {:.1e}; every cubeless \
         equity difference is {}",
        1.0 / f64::from(bd::SCALE),
        6.0 / f64::from(bd::SCALE),
        if c.within_precision {
            "within that (plus gnubg's own 1e-5 stopping rule)"
        } else {
            "NOT within it"
        }
    ));
    out
}
