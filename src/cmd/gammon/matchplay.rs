//! `tabula gammon met`, `score-build`, `score-plan`, and `equity`, `hint`, `play` at a
//! match score: where the match tables lie, and the library's match play called and
//! rendered.

use super::answer::{position, position_and_roll};
use super::args::{
    CubeArg, EquityArgs, HintArgs, MatchPlayArgs, MatchSource, MetArgs, PlayArgs, ScoreArgs,
    ScoreBuildArgs, ScoreFlags, ScorePlanArgs,
};
use super::trainer;
use super::{render_match, text_or_json};
use crate::cmd::progress::Bars;
use crate::cmd::{emit, tables};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tabula::gammon::matchplay::judge::ScoreTables;
use tabula::gammon::matchplay::met::{Met, MetComparison};
use tabula::gammon::matchplay::query;
use tabula::gammon::matchplay::store::{self, UnitBuilt, UnitTable};
use tabula::gammon::matchplay::{CubeOwner, Game, MatchCube, Score, Unit};
use tabula::gammon::Variant;
use tabula::table::Reader;
use tabula::Result;

/// Where `unit`'s table lies: in `--match-tables` when given, else where the tables
/// folder has it (or would put it).
fn place(v: &Variant, folder: Option<&Path>, unit: Unit) -> PathBuf {
    let file = store::file_name(v, unit);
    match folder {
        Some(dir) => dir.join(file),
        None => tables::find(&file),
    }
}

/// The arguments that name a unit's score on the command line.
fn score_args(unit: Unit) -> String {
    let s = unit.score(false);
    match unit.game {
        Game::Crawford => format!("--score {}-{} --crawford", s.on_roll, s.opponent),
        _ => format!("--score {}-{}", s.on_roll, s.opponent),
    }
}

/// The advice for a missing match table needed at `unit`'s score: the command that builds
/// it (with every table below `unit`'s).
fn build_advice(v: &Variant, unit: Unit, folder: Option<&Path>) -> String {
    let tables = folder
        .map(|d| format!(" --match-tables {}", d.display()))
        .unwrap_or_default();
    format!(
        "run `tabula gammon met --variant {} --length {}{tables}` (or `tabula gammon \
         score-build --variant {} {}{tables}` once the scores below it are built)",
        v.name(),
        unit.b,
        v.name(),
        score_args(unit)
    )
}

/// Opens `unit`'s table with `reader` for a question at `asked`'s score, with the advice
/// that builds a missing one.
fn open_unit(
    v: &Variant,
    unit: Unit,
    asked: Unit,
    folder: Option<&Path>,
    reader: Reader<'_>,
) -> Result<UnitTable> {
    let path = place(v, folder, unit);
    let opened = UnitTable::open_with(&path, Some((v, unit)), reader);
    Ok(opened.map_err(|e| e.with_hint(&build_advice(v, asked, folder)))?)
}

/// The tables that answer at `score`, in `folder` (the tables folder by default), opened
/// with `reader`.
pub fn score_tables(
    v: &Variant,
    score: Score,
    folder: Option<&Path>,
    reader: Reader<'_>,
) -> Result<ScoreTables> {
    let (unit, _) = score.unit();
    let dmp = if unit.reads_dmp() {
        Some(open_unit(v, Unit::DMP, unit, folder, reader)?)
    } else {
        None
    };
    Ok(ScoreTables::new(
        open_unit(v, unit, unit, folder, reader)?,
        dmp,
    )?)
}

/// Where the tables at a score come from: opened for the one question (the command
/// line), or kept open by the server.
pub type OpenScore<'a> = &'a dyn Fn(Score) -> Result<Arc<ScoreTables>>;

/// The command line's [`OpenScore`]: the tables of the question's folder, mapped for the
/// one question.
fn for_one_question<'a>(
    v: &'a Variant,
    at: &'a AtScore<'a>,
) -> impl Fn(Score) -> Result<Arc<ScoreTables>> + 'a {
    move |score| Ok(Arc::new(score_tables(v, score, at.folder, Reader::Map)?))
}

/// A question at a match score as either door reads it: the score as given (`A-B`),
/// whether this is the Crawford game, the cube (a value; a state's name is refused) and
/// its owner, the folder of the match tables (the tables folder's when none).
pub struct AtScore<'a> {
    pub score: &'a str,
    pub crawford: bool,
    pub cube: Option<CubeArg>,
    pub owner: Option<CubeOwner>,
    pub folder: Option<&'a Path>,
}

impl<'a> AtScore<'a> {
    /// The command line's `--score`, `--crawford`, `--owner` and `--match-tables`, with
    /// `--cube`.
    pub fn of(s: &'a ScoreArgs, cube: Option<CubeArg>) -> AtScore<'a> {
        AtScore::of_flags(&s.flags, cube, s.tables.match_tables.as_deref())
    }

    /// `--score`, `--crawford` and `--owner` with `--cube`, the match tables in `folder`.
    pub fn of_flags(
        s: &'a ScoreFlags,
        cube: Option<CubeArg>,
        folder: Option<&'a Path>,
    ) -> AtScore<'a> {
        AtScore {
            score: s.score.as_deref().expect("called with --score"),
            crawford: s.crawford,
            cube,
            owner: s.owner.map(CubeOwner::from),
            folder,
        }
    }

    /// The score and the cube.
    pub fn read(&self) -> Result<(Score, MatchCube)> {
        let score = Score::parse(self.score, self.crawford)?;
        let value = match self.cube {
            None | Some(CubeArg::State(tabula::gammon::CubeState::Centred)) => 1,
            Some(CubeArg::Value(v)) => v,
            Some(CubeArg::State(state)) => {
                return Err(tabula::gammon::Error::Input {
                    what: "cube",
                    input: state.name().to_string(),
                    reason: "at a match score --cube takes the cube's value (1, 2, 4, …) and \
                             --owner who owns it"
                        .into(),
                }
                .into())
            }
        };
        let owner = match (value, self.owner) {
            (1, None) => CubeOwner::Centred,
            (_, Some(o)) => o,
            (_, None) => {
                return Err(tabula::gammon::Error::Input {
                    what: "cube",
                    input: value.to_string(),
                    reason: "a cube of 2 or more has an owner: give --owner on-roll or \
                             --owner opponent"
                        .into(),
                }
                .into())
            }
        };
        Ok((score, MatchCube::new(value, owner)?))
    }
}

/// `equity` at a score, for both doors (the command line and the server): the position
/// as given, at the score `at`.
pub fn equity_answer(
    v: &Variant,
    position_text: &str,
    at: &AtScore,
    open: OpenScore,
) -> Result<query::MatchEvaluation> {
    let p = position(v, position_text)?;
    let (score, cube) = at.read()?;
    let t = open(score)?;
    Ok(query::evaluate(&t, &p, score, cube)?)
}

/// `hint` at a score, for both doors.
pub fn hint_answer(
    v: &Variant,
    position_text: &str,
    roll: &str,
    at: &AtScore,
    open: OpenScore,
) -> Result<query::MatchHint> {
    let (p, roll) = position_and_roll(v, position_text, roll)?;
    let (score, cube) = at.read()?;
    let t = open(score)?;
    Ok(query::hint(&t, &p, roll, score, cube)?)
}

/// `equity --score`.
pub fn equity(v: &Variant, args: EquityArgs, s: ScoreArgs) -> Result<()> {
    let at = AtScore::of(&s, args.cube);
    let e = equity_answer(v, &args.at.position, &at, &for_one_question(v, &at))?;
    text_or_json(&e, args.json, || render_match::evaluation(&e))
}

/// `hint --score`.
pub fn hint(v: &Variant, args: HintArgs, s: ScoreArgs) -> Result<()> {
    let at = AtScore::of(&s, args.cube);
    let h = hint_answer(
        v,
        &args.at.at.position,
        &args.at.roll,
        &at,
        &for_one_question(v, &at),
    )?;
    text_or_json(&h, args.json, || render_match::hint(&h))
}

/// What `met` prints: the table, the units found or solved, and a comparison.
#[derive(Serialize)]
struct MetReport {
    #[serde(flatten)]
    met: Met,
    /// The units of the match: their tables, and how each solve went.
    units: Vec<UnitBuilt>,
    /// The gnubg file written, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    gnubg: Option<PathBuf>,
    /// The comparison with another table, if asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    compared: Option<MetComparison>,
}

/// `met`.
pub fn met(source: MatchSource, args: MetArgs) -> Result<()> {
    let v = Variant::parse(&source.variant)?;
    let folder = source.tables.match_tables.as_deref();
    // Read a table to compare with before the long work.
    let theirs = args.compare.as_deref().map(Met::read_gnubg).transpose()?;
    let bars = Bars::new(args.quiet.quiet || args.json.json);
    let at = |unit: Unit| place(&v, folder, unit);
    let (units, starts) = store::build(&v, args.length, &at, bars.progress())?;
    let met = Met::from_starts(&v.name(), args.length, &starts)?;
    if let Some(path) = &args.gnubg {
        let name = format!("tabula: exact {} MET to {} points", v.title(), args.length);
        let description = format!(
            "The exact match equities of {} ({}), solved by tabula (no gammonless or cube \
             approximations)",
            v.title(),
            v.describe()
        );
        met.write_gnubg(path, &name, &description)?;
    }
    let report = MetReport {
        compared: theirs.map(|t| MetComparison::new(met.clone(), t)),
        met,
        units,
        gnubg: args.gnubg.clone(),
    };
    super::timed_text_or_json(&report, args.json, args.timings, || {
        render_match::met_report(
            &report.met,
            &report.units,
            report.gnubg.as_deref(),
            report.compared.as_ref(),
        )
    })
}

/// `score-build`.
pub fn score_build(source: MatchSource, args: ScoreBuildArgs) -> Result<()> {
    let v = Variant::parse(&source.variant)?;
    let folder = source.tables.match_tables.as_deref();
    let (unit, _) = Score::parse(&args.score, args.crawford)?.unit();
    let mut needed = unit.inputs();
    if unit.reads_dmp() && !needed.contains(&Unit::DMP) {
        needed.insert(0, Unit::DMP);
    }
    // Each input's table, with the command that builds a missing one.
    for input in needed {
        open_unit(&v, input, unit, folder, Reader::Map)?;
    }
    let bars = Bars::new(args.quiet.quiet || args.json.json);
    let at = |u: Unit| place(&v, folder, u);
    let built = store::build_unit(&v, unit, &at, None, bars.progress())?;
    super::timed_text_or_json(&built, args.json, args.timings, || {
        render_match::unit_built(&built)
    })
}

/// `score-plan`: a Makefile, one rule a unit.
pub fn score_plan(source: MatchSource, args: ScorePlanArgs) -> Result<()> {
    let v = Variant::parse(&source.variant)?;
    tabula::gammon::matchplay::score::check_length(args.length)?;
    let folder = source.tables.match_tables.as_deref();
    let shell = |what: &'static str, text: &str| -> Result<String> {
        Ok(make_recipe_word(&shell_quoted(&expressible(what, text)?)))
    };
    let tables_arg = match folder {
        Some(d) => format!(
            " --match-tables {}",
            shell("folder", &d.display().to_string())?
        ),
        None => String::new(),
    };
    let path = |u: Unit| -> Result<String> {
        make_file_name(&expressible(
            "folder",
            &place(&v, folder, u).display().to_string(),
        )?)
    };
    let units = Unit::all(args.length);
    let mut rules = Vec::new();
    for &u in &units {
        let mut deps: Vec<String> = u.inputs().into_iter().map(path).collect::<Result<_>>()?;
        if u.reads_dmp() {
            deps.insert(0, path(Unit::DMP)?);
        }
        deps.dedup();
        let command = format!(
            "$(TABULA) gammon score-build --variant {} {}{tables_arg} --quiet",
            shell("variant", &v.name())?,
            score_args(u)
        );
        rules.push((path(u)?, deps, command));
    }
    let program = make_variable_value(&shell_quoted(&expressible("program", &args.program)?));
    emit(&render_match::plan(
        &v.name(),
        args.length,
        &program,
        &rules,
    ))
}

/// `text`, a path or a name the plan writes, unless make cannot be given it: a line
/// break, a tab or a backslash (which make reads as a continuation or an escape of its
/// own), or in a file name `%` (a pattern), `=` (an assignment), `;` (a recipe) or `|`
/// (order-only prerequisites), which no escape hides from make's parser, is refused,
/// naming it.
fn expressible(what: &'static str, text: &str) -> Result<String> {
    let file = what == "folder";
    let bad = text.chars().find(|&c| {
        matches!(c, '\n' | '\r' | '\t' | '\\') || (file && matches!(c, '%' | '=' | ';' | '|'))
    });
    match bad {
        None => Ok(text.to_string()),
        Some(c) => Err(tabula::gammon::Error::Input {
            what,
            input: text.to_string(),
            reason: format!(
                "a Makefile cannot name it: it holds {}",
                match c {
                    '\\' => "a backslash".to_string(),
                    '\t' => "a tab".to_string(),
                    '\n' | '\r' => "a line break".to_string(),
                    c => format!("`{c}`, which make reads as its own syntax"),
                }
            ),
        }
        .into()),
    }
}

/// `text` as one word of the shell: in single quotes, a quote inside closed, escaped and
/// opened again.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A shell word in a make recipe: make expands `$` before the shell sees the line.
fn make_recipe_word(word: &str) -> String {
    word.replace('$', "$$")
}

/// A value of a make variable (`TABULA ?= …`): `$` doubled, `#` (a comment) escaped.
fn make_variable_value(text: &str) -> String {
    make_recipe_word(text).replace('#', "\\#")
}

/// A file name as a make target or prerequisite ([`expressible`] first): every other
/// character make reads as syntax escaped (a space, `#`, `:`, wildcards), `$` doubled.
fn make_file_name(path: &str) -> Result<String> {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '$' => out.push_str("$$"),
            ' ' | '#' | ':' | '*' | '?' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// `play --match`: a match on standard input and output.
pub fn play(v: &Variant, args: PlayArgs, m: MatchPlayArgs, draw_board: bool) -> Result<()> {
    let length = m.length.expect("called with --match");
    // The same bound as `met` (1 to 64 points), before anything is looked for.
    tabula::gammon::matchplay::score::check_length(length)?;
    let folder = m.tables.match_tables.as_deref();
    // Every table the match can reach, checked before the first game (the trailer is
    // never post-Crawford at the full length).
    for unit in Unit::all(length) {
        if unit.game != Game::PostCrawford || unit.b < length || length == 1 {
            let whole = Unit {
                a: length,
                b: length,
                game: Game::Normal,
            };
            open_unit(v, unit, whole, folder, Reader::Map)?;
        }
    }
    let options = trainer::Options {
        seed: args.seed.unwrap_or_else(super::clock_seed),
        human_first: !args.second,
        cube: true,
        board: draw_board,
        words: &super::render_play::Words,
    };
    let mut open = |score: Score| -> std::result::Result<ScoreTables, tabula::gammon::Error> {
        let (unit, _) = score.unit();
        let dmp = match unit.reads_dmp() {
            true => Some(UnitTable::open_with(
                &place(v, folder, Unit::DMP),
                Some((v, Unit::DMP)),
                Reader::session(),
            )?),
            false => None,
        };
        ScoreTables::new(
            UnitTable::open_with(&place(v, folder, unit), Some((v, unit)), Reader::session())?,
            dmp,
        )
    };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    trainer::play_match(length, &mut open, &options, stdin.lock(), &mut stdout)?;
    Ok(())
}
