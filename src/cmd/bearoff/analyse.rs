//! `tabula bearoff analyse FILE`: a backgammon match file's bear-offs judged by the
//! two-sided tables found (`gammon::bearoff::analysis`), rendered as `gammon analyse`
//! renders its analysis, with the tables named and the decisions not judged counted.

use super::answer::{build_command, open_one_sided, open_two_sided};
use super::by_name;
use crate::cmd::gammon::analyse::{fault_line, read, render as render_analysis};
use crate::cmd::gammon::args::Json;
use crate::cmd::progress::Bars;
use crate::cmd::{diag, emit, emit_json, tables};
use clap::Args;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use tabula::gammon::bearoff::analysis::{self, BearoffAnalysis};
use tabula::gammon::bearoff::store::{Kind, OneSidedTable, TwoSidedTable};
use tabula::gammon::matchplay::met::Met;
use tabula::Result;

/// `bearoff analyse`'s arguments.
#[derive(Args, Clone)]
pub struct AnalyseArgs {
    /// The match file of backgammon: gnubg's .sgf or a .mat (Jellyfish) text
    pub file: PathBuf,
    /// A two-sided table to judge with (repeat for several; default: every two-sided
    /// table in the tables folder)
    #[arg(long, value_name = "FILE")]
    pub table: Vec<PathBuf>,
    /// Also estimate the races no two-sided table holds from this one-sided table (a file,
    /// or a table's name in the tables folder: bearoff-os-6); not exact, labelled so
    #[arg(long, value_name = "FILE|NAME")]
    pub one_sided: Option<PathBuf>,
    /// The match-equity table (gnubg's XML) that values the scores after a game, for a
    /// match's games at other scores than double match point (default: gnubg's own,
    /// /usr/share/gnubg/met/Kazaross-XG2.xml, where gnubg is installed; none: judge only
    /// double match point and the Crawford game, which need no table)
    #[arg(long, value_name = "FILE|none")]
    pub met: Option<PathBuf>,
    /// List every decision judged, not only those that lost equity
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub json: Json,
}

/// The two-sided tables of the tables folders (the first folder holding a name wins), by
/// name.
fn found() -> Vec<(PathBuf, Kind)> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for dir in tables::folders() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        names.sort();
        for name in names {
            let Some(kind) = Kind::of_file_name(&name).filter(|k| k.two_sided) else {
                continue;
            };
            if name.ends_with(".tbl") && seen.insert(name.clone()) {
                out.push((dir.join(&name), kind));
            }
        }
    }
    out
}

/// The tables given, or found; none is a failure naming the build of the 6×6 table.
fn open_tables(given: &[PathBuf]) -> Result<Vec<TwoSidedTable>> {
    if !given.is_empty() {
        return given
            .iter()
            .map(|p| -> Result<TwoSidedTable> {
                let p = by_name(p);
                let t = TwoSidedTable::open(&p)?;
                // A table of the cube's equities alone judges with its cubeless table.
                t.chances()?;
                Ok(t)
            })
            .collect();
    }
    let found = found();
    if found.is_empty() {
        let kind = Kind::two_sided(6, 6, true);
        let path = tables::find(&kind.file_name());
        // The missing 6×6 table's own message, with its build.
        open_two_sided(&path, &kind, None)?;
    }
    // A table of the cube's equities alone without its cubeless table cannot judge a
    // play: the others judge its positions, as without it.
    let (mut open, mut lacking) = (Vec::new(), None);
    for (path, kind) in &found {
        let t = open_two_sided(path, kind, None)?;
        match t.chances() {
            Ok(_) => open.push(t),
            Err(e) => lacking = lacking.or(Some(e)),
        }
    }
    match lacking {
        // None left: what the skipped table lacks.
        Some(e) if open.is_empty() => Err(e.into()),
        _ => Ok(open),
    }
}

/// gnubg's default match-equity table, where Debian's gnubg installs it.
pub const GNUBG_MET: &str = "/usr/share/gnubg/met/Kazaross-XG2.xml";

/// The match-equity table given, else gnubg's where it is installed (none: a match's games
/// at other scores than double match point are counted as not judged).
pub(crate) fn open_met(given: Option<&Path>) -> Result<Option<Met>> {
    match given {
        Some(path) if path == Path::new("none") => Ok(None),
        Some(path) => Ok(Some(Met::read_gnubg(path)?)),
        None => {
            let path = Path::new(GNUBG_MET);
            Ok(match path.exists() {
                true => Some(Met::read_gnubg(path)?),
                false => None,
            })
        }
    }
}

/// `bearoff analyse FILE`.
pub fn run(args: AnalyseArgs) -> Result<()> {
    let record = read(&args.file)?;
    let owned = open_tables(&args.table)?;
    let met = match record.length {
        0 => None,
        _ => open_met(args.met.as_deref())?,
    };
    let one_sided: Option<OneSidedTable> = match &args.one_sided {
        Some(given) => {
            let points = owned.iter().map(|t| t.kind().points).max().unwrap_or(6);
            Some(open_one_sided(
                &by_name(given),
                &Kind::one_sided(points),
                Some(given),
            )?)
        }
        None => None,
    };
    let tables: Vec<&TwoSidedTable> = owned.iter().collect();
    // A match's games at their scores solve the bear-offs they reach: seconds each with
    // the larger tables, so the games are counted on a bar (stderr, a terminal only).
    let bars = Bars::new(args.json.json);
    let progress = bars.progress();
    let a = analysis::analyse(&record, &tables, one_sided.as_ref(), met.as_ref(), progress)
        .map_err(|e| match e {
            tabula::gammon::Error::NoCube { .. } => {
                let kind = Kind::two_sided(6, 6, true);
                e.with_hint(&format!(
                    "the file played with the cube: {}",
                    build_command(&kind, None)
                ))
            }
            e => e,
        })?;
    match args.json.json {
        true => emit_json(&a)?,
        false => {
            emit(&render(&a, args.all))?;
            for f in &a.analysis.faults {
                diag(&fault_line(&args.file, f));
            }
        }
    }
    faults(&args.file, &a)
}

/// Exit status 2 when the file had faults (the rest analysed).
fn faults(file: &Path, a: &BearoffAnalysis) -> Result<()> {
    match a.analysis.faults.len() {
        0 => Ok(()),
        n => Err(tabula::gammon::Error::Input {
            what: "match file",
            input: file.display().to_string(),
            reason: format!("{n} fault(s) above; the rest of the file was analysed"),
        }
        .into()),
    }
}

/// The analysis as text: the tables, the exact analysis as `gammon analyse` prints it,
/// then the estimate's when asked.
pub fn render(a: &BearoffAnalysis, all: bool) -> String {
    let mut out = format!(
        "Bear-offs judged exactly by {}; the other decisions are counted as not judged.\n",
        a.tables.join(", "),
    );
    if a.analysis.length > 0 {
        out.push_str(&match &a.met {
            Some(met) => {
                format!("The scores after a game are valued by the match-equity table {met}.\n")
            }
            None => format!(
                "No match-equity table (--met FILE, or gnubg's {GNUBG_MET}): only the games \
                 at double match point and the Crawford game are judged.\n"
            ),
        });
    }
    out.push_str(&render_analysis(&a.analysis, all));
    if let Some(e) = &a.estimate {
        out.push_str(&format!(
            "\n\nThe races no two-sided table holds, by the {} of {} (not exact; cubeless, \
             whatever the cube and the score):\n",
            e.method, e.table
        ));
        out.push_str(&render_analysis(&e.analysis, all));
    }
    out
}
