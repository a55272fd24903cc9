//! `tabula nikoniko …`: NikoNiko Gammon with the article's own table. The questions are
//! presets of the family's commands (`super::gammon`) on the article's table; the
//! article's counting and its table format are its own.

use super::gammon::args::{ArticleTable, CountArgs, EquityArgs, HintArgs, Json, MovesArgs};
use super::gammon::args::{PlayArgs, Quiet, ShowArgs, Timings};
use super::gammon::handle::open_article;
use super::gammon::{self as family, render};
use super::progress::Bars;
use super::{emit, emit_json, tables};
use clap::Subcommand;
use std::time::Instant;
use tabula::nikoniko::{self, counting, store};
use tabula::table::Reader;
use tabula::Result;

#[derive(Subcommand)]
pub enum NikonikoCmd {
    /// Enumerate every state and prove the index round-trips (1,106,945 states)
    #[command(after_help = "Example:\n  tabula nikoniko count --plays")]
    Count {
        /// Also generate the plays of every roll from every state, and count them
        #[arg(long)]
        plays: bool,
        #[command(flatten)]
        args: CountArgs,
    },
    /// Show a position: board, notation, index, pip counts
    #[command(after_help = "Example:\n  tabula nikoniko show 8,8,5,2,2/8,8,5,2,2")]
    Show {
        #[command(flatten)]
        args: ShowArgs,
    },
    /// Every distinct legal play of a roll
    #[command(after_help = "Example:\n  tabula nikoniko moves 8,8,5,2,2/8,8,5,2,2 2-2")]
    Moves {
        #[command(flatten)]
        args: MovesArgs,
    },
    /// Build the article's equity and outcome tables by value iteration
    #[command(after_help = "Example:\n  tabula nikoniko build")]
    Build {
        #[command(flatten)]
        table: ArticleTable,
        #[command(flatten)]
        quiet: Quiet,
        #[command(flatten)]
        json: Json,
        #[command(flatten)]
        timings: Timings,
    },
    /// Equity and outcome chances of a position for the side on roll
    #[command(after_help = "Example:\n  tabula nikoniko equity 8,8,5,2,2/8,8,5,2,2")]
    Equity {
        #[command(flatten)]
        table: ArticleTable,
        #[command(flatten)]
        args: EquityArgs,
    },
    /// Every legal play of a roll, best first, with the equity each loses
    #[command(after_help = "Example:\n  tabula nikoniko hint 8,8,5,2,2/8,8,5,2,2 1-2")]
    Hint {
        #[command(flatten)]
        table: ArticleTable,
        #[command(flatten)]
        args: HintArgs,
    },
    /// The opening: each first roll's best play and the opening-roll winner's equity
    #[command(after_help = "Example:\n  tabula nikoniko opening")]
    Opening {
        #[command(flatten)]
        table: ArticleTable,
        #[command(flatten)]
        json: Json,
    },
    /// Play a game in the terminal against the table's perfect play
    #[command(after_help = "Example:\n  tabula nikoniko play --seed 7")]
    Play {
        #[command(flatten)]
        table: ArticleTable,
        #[command(flatten)]
        args: PlayArgs,
    },
    /// The article's table of PNC(p, n): ways to put n checkers on p places
    #[command(after_help = "Example:\n  tabula nikoniko pnc --places 10 --checkers 5")]
    Pnc {
        /// Rows: 1 to this many places
        #[arg(long, default_value_t = 10)]
        places: u32,
        /// Columns: 0 to this many checkers
        #[arg(long, default_value_t = 5)]
        checkers: u32,
        #[command(flatten)]
        json: Json,
    },
    /// Every count vector in the order of the article's next_PN, with its rank
    #[command(after_help = "Example:\n  tabula nikoniko listing --places 4 --checkers 2")]
    Listing {
        /// Places of a vector
        #[arg(long, default_value_t = 4)]
        places: u32,
        /// Checkers of a vector
        #[arg(long, default_value_t = 2)]
        checkers: u32,
        #[command(flatten)]
        json: Json,
    },
    /// Re-derive every stored value with one Bellman sweep and report the worst gap
    #[command(after_help = "Example:\n  tabula nikoniko verify")]
    Verify {
        #[command(flatten)]
        table: ArticleTable,
        #[command(flatten)]
        json: Json,
    },
}

pub fn run(cmd: NikonikoCmd) -> Result<()> {
    let v = nikoniko::variant();
    match cmd {
        NikonikoCmd::Count { plays, args } => {
            let started = Instant::now();
            let c = counting::count(plays)?;
            let seconds = started.elapsed().as_secs_f64();
            if args.json.json {
                emit_json(&c)
            } else {
                emit(&render::count(&c, seconds))
            }
        }
        NikonikoCmd::Show { args } => family::show(&v, args),
        NikonikoCmd::Moves { args } => family::moves(&v, args),
        NikonikoCmd::Build {
            table,
            quiet,
            json,
            timings,
        } => {
            let path =
                tables::given_or(table.table.as_deref(), store::FILE_NAME, tables::for_build);
            let bars = Bars::new(quiet.quiet || json.json);
            let report = store::build(&path, bars.progress())?;
            family::emit_report(&report, json, timings)
        }
        NikonikoCmd::Equity { table, args } => {
            family::equity(&v, || open_article(&table, Reader::Map), args)
        }
        NikonikoCmd::Hint { table, args } => {
            family::hint(&v, || open_article(&table, Reader::Map), args)
        }
        NikonikoCmd::Opening { table, json } => {
            family::opening(&open_article(&table, Reader::Map)?, json)
        }
        // Loaded into memory: a game lasts, and the files may change meanwhile.
        NikonikoCmd::Play { table, args } => {
            family::play(&open_article(&table, Reader::session())?, args)
        }
        NikonikoCmd::Pnc {
            places,
            checkers,
            json,
        } => {
            let table = counting::pnc_table(places, checkers)?;
            if json.json {
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
            if json.json {
                emit_json(&listing)
            } else {
                emit(&render_listing(&listing))
            }
        }
        NikonikoCmd::Verify { table, json } => {
            family::verify(&open_article(&table, Reader::Map)?, json)
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
