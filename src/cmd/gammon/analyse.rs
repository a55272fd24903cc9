//! `tabula gammon analyse FILE`: a match file (gnubg's `.sgf`, the Jellyfish `.mat`)
//! read, replayed and judged by the library (`gammon::analysis`), rendered as text or
//! JSON; the file's faults on stderr, each naming the file and the line.

use super::args::Json;
use super::handle;
use super::matchplay::score_tables;
use super::text_or_json;
use crate::cmd::diag;
use clap::Args;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tabula::gammon::analysis::{self, Analysis, Stakes};
use tabula::gammon::gnubg::record::{Fault, MatchRecord, Played};
use tabula::gammon::gnubg::{mat, sgf};
use tabula::gammon::judge::Measure;
use tabula::gammon::matchplay::judge::ScoreTables;
use tabula::gammon::matchplay::Score;
use tabula::gammon::review::{Kind, Mark};
use tabula::gammon::Variant;
use tabula::table::{Reader, TableError};
use tabula::Result;

/// The largest match file read.
const MAX_BYTES: u64 = 16 << 20;

/// `analyse`'s arguments.
#[derive(Args, Clone)]
pub struct AnalyseArgs {
    /// The match file: gnubg's .sgf or a .mat (Jellyfish) text, as gnubg and most
    /// programs export it
    pub file: PathBuf,
    /// The variant's table for money play (default: the file's variant's, in the tables
    /// folder)
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
    /// The folder of the match tables, one a score (default: the tables folder)
    #[arg(long, value_name = "DIR")]
    pub match_tables: Option<PathBuf>,
    /// List every decision, not only those that lost equity
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub json: Json,
}

/// Reads `path` as a match file: `.sgf` by its extension or its first characters, else
/// `.mat`. Opened as every input is (`table::open_input`): what is not a regular file (a
/// named pipe, a folder) is refused at once, never waited on.
pub fn read(path: &Path) -> Result<MatchRecord> {
    let io = |e| tabula::Error::io(path.display().to_string(), e);
    let (mut file, size) = match tabula::table::open_input(path) {
        Ok(opened) => opened,
        Err(TableError::NotAFile { what, .. }) => {
            return Err(input(path, format!("{what}, not a regular file")))
        }
        // Missing, unreadable: as the file system says it, as before.
        Err(_) => {
            return Err(io(std::fs::metadata(path)
                .err()
                .unwrap_or_else(|| std::io::Error::other("cannot be opened"))))
        }
    };
    if size > MAX_BYTES {
        return Err(input(
            path,
            format!("{size} bytes; a match file is read up to {MAX_BYTES}"),
        ));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
    let sgf_named = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
    Ok(read_text(&bytes, sgf_named))
}

/// Reads a match file's bytes: `.sgf` when `sgf_named` or by its first characters, else
/// `.mat` (bytes that are not UTF-8 are read as replacement characters).
pub fn read_text(bytes: &[u8], sgf_named: bool) -> MatchRecord {
    let text = String::from_utf8_lossy(bytes);
    match sgf_named || text.trim_start().starts_with("(;") {
        true => sgf::read(&text),
        false => mat::read(&text),
    }
}

fn input(path: &Path, reason: String) -> tabula::Error {
    tabula::gammon::Error::Input {
        what: "match file",
        input: path.display().to_string(),
        reason,
    }
    .into()
}

/// The analysis of a file read: the stakes from its length (money play: the variant's
/// table; a match: its scores' tables).
pub fn analysis(
    record: &MatchRecord,
    table: Option<&Path>,
    folder: Option<&Path>,
) -> Result<Analysis> {
    let money = |name: Option<String>| {
        let source = super::args::Source {
            variant: match table {
                Some(_) => None,
                None => name,
            },
            table: table.map(Path::to_path_buf),
        };
        Ok(Arc::new(handle::open(&source, Reader::Map)?))
    };
    let score = |v: &Variant, score| score_tables(v, score, folder, Reader::Map);
    analysis_with(record, money, score)
}

/// The analysis of a file read, its tables opened by `money` (the variant's table, by the
/// file's variant's name) and `score` (a match score's tables): the command line's files,
/// or the tables the server keeps open.
pub fn analysis_with(
    record: &MatchRecord,
    money: impl FnOnce(Option<String>) -> Result<Arc<handle::Handle>>,
    score: impl Fn(&Variant, Score) -> Result<ScoreTables>,
) -> Result<Analysis> {
    // A file tabula cannot judge needs no table: its fault says so.
    if let Some(a) = analysis::unjudgeable(record) {
        return Ok(a);
    }
    let name = record.played.variant_name();
    if record.length == 0 {
        let h = money(name)?;
        return h.advise(analysis::analyse(record, Stakes::Money(h.table.as_ref())));
    }
    let v = Variant::parse(name.as_deref().expect("checked"))?;
    let mut open = |s| -> std::result::Result<_, tabula::gammon::Error> {
        score(&v, s).map_err(|e| match e {
            tabula::Error::Gammon(g) => g,
            other => tabula::gammon::Error::Inconsistent(other.to_string()),
        })
    };
    Ok(analysis::analyse(record, Stakes::Match(&mut open))?)
}

/// `analyse FILE`.
pub fn run(args: AnalyseArgs) -> Result<()> {
    let record = read(&args.file)?;
    let a = analysis(&record, args.table.as_deref(), args.match_tables.as_deref())?;
    text_or_json(&a, args.json, || render(&a, args.all))?;
    if !args.json.json {
        for f in &a.faults {
            diag(&fault_line(&args.file, f));
        }
        if record.played == Played::Backgammon {
            // The command that judges what the family's tables cannot (the JSON document
            // stays the library's, as the server sends it).
            diag(&format!(
                "{0}: its bear-offs: `tabula bearoff analyse {0}`",
                args.file.display()
            ));
        }
    }
    match a.faults.len() {
        0 => Ok(()),
        n => Err(input(
            &args.file,
            format!("{n} fault(s) above; the rest of the file was analysed"),
        )),
    }
}

/// `FILE:LINE: game G: reason`.
pub fn fault_line(file: &Path, f: &Fault) -> String {
    let game = f.game.map(|g| format!("game {g}: ")).unwrap_or_default();
    match f.line {
        0 => format!("{}: {game}{}", file.display(), f.reason),
        line => format!("{}:{line}: {game}{}", file.display(), f.reason),
    }
}

fn loss(l: f64, measure: Measure) -> String {
    match measure {
        Measure::Chance => format!("{:.4}%", 100.0 * l),
        _ => format!("{l:.6}"),
    }
}

/// The analysis as text: each game's decisions (those that lost, or all), then each
/// player's totals.
pub fn render(a: &Analysis, all: bool) -> String {
    let kind = match a.length {
        0 => "money play".to_string(),
        n => format!("a match to {n}"),
    };
    let unit = match a.measure {
        Measure::Chance => "match-winning chance",
        Measure::Cubeless => "cubeless equity",
        Measure::Cubeful => "equity per unit of the cube",
    };
    let mut out = format!(
        "{} ({kind}), {} game(s); losses in {unit}; gnubg's marks: ?! over 0.03, ? over 0.06, \
         ?? over 0.12 (normalised per unit of the cube)",
        a.variant,
        a.games.len()
    );
    for g in &a.games {
        let _ = write!(
            out,
            "\n\nGame {} ({} {}, {} {}){}{}",
            g.number,
            a.totals[0].name,
            g.score[0],
            a.totals[1].name,
            g.score[1],
            if g.crawford {
                ", the Crawford game"
            } else {
                ""
            },
            if g.complete {
                ""
            } else {
                ", replayed up to a fault"
            }
        );
        if g.skipped.iter().any(|&n| n > 0) {
            let _ = write!(
                out,
                "; {} and {} decision(s) not judged",
                g.skipped[0], g.skipped[1]
            );
        }
        for s in &g.steps {
            let d = &g.reviews[s.player].decisions[s.decision];
            if !all && d.loss <= 0.0 {
                continue;
            }
            let what = match (d.kind, d.roll) {
                (Kind::Play, Some(roll)) => format!("plays {roll}"),
                (Kind::Cube, _) => "cube".to_string(),
                _ => "answer".to_string(),
            };
            let _ = write!(
                out,
                "\n  line {:>4}  {:<10} {what}: {}; best {}; loss {} {}\n             {}",
                s.line,
                a.totals[s.player].name,
                d.chosen,
                d.best,
                loss(d.loss, a.measure),
                d.mark.map_or("", Mark::symbol),
                s.xgid
            );
        }
    }
    out.push_str("\n\nTotals (normalised equity per unit of the cube):");
    for t in &a.totals {
        let rate = t
            .rate
            .map(|r| format!("{:.1}", 1000.0 * r))
            .unwrap_or_else(|| "-".into());
        let _ = write!(
            out,
            "\n  {:<12} {} decision(s) ({} plays, {} cube), lost {:.6}, error rate {rate} \
             thousandths a decision, {} very bad, {} bad, {} doubtful; rating {}",
            t.name,
            t.decisions,
            t.plays,
            t.cube,
            t.normalised,
            t.marks[2],
            t.marks[1],
            t.marks[0],
            t.rating.map_or("-", |r| r.text())
        );
        if t.skipped > 0 {
            let _ = write!(out, "; {} decision(s) not judged", t.skipped);
        }
    }
    if !a.faults.is_empty() {
        let _ = write!(
            out,
            "\n\n{} fault(s): see the messages on stderr.",
            a.faults.len()
        );
    }
    out
}
