//! `tabula bearoff equity|hint --score A-B`: a bear-off at a match score, answered from the
//! bear-off solved at the score (`gammon::bearoff::match_race`) with a match-equity table,
//! as the family's answers at a score (`gammon equity|hint --score`) and rendered the same
//! way. An XGID of a match brings its own score and cube.

use super::analyse::{open_met, GNUBG_MET};
use super::answer::{self, Race, RaceTables};
use super::{open_two_sided, Folders, Table};
use crate::cmd::gammon::args::ScoreFlags;
use crate::cmd::gammon::matchplay::AtScore;
use clap::Args;
use std::path::{Path, PathBuf};
use tabula::gammon::bearoff::query;
use tabula::gammon::bearoff::store::TwoSidedTable;
use tabula::gammon::matchplay::met::Met;
use tabula::gammon::matchplay::query::{MatchEvaluation, MatchHint};
use tabula::Result;

/// A bear-off question at a match score: the family's `--score`, `--crawford` and
/// `--owner`, and `--met`.
#[derive(Args, Clone)]
pub struct ScoreArgs {
    #[command(flatten)]
    pub flags: ScoreFlags,
    /// At a match score, the match-equity table that values the scores after the game
    /// (gnubg's XML; default gnubg's own, /usr/share/gnubg/met/Kazaross-XG2.xml)
    #[arg(long, value_name = "FILE")]
    pub met: Option<PathBuf>,
}

/// The match-equity table given, else gnubg's; at double match point, where none is
/// needed, the table of a match to one; else none is a failure naming `--met`.
pub fn met(given: Option<&Path>, at: &AtScore) -> Result<Met> {
    let (score, _) = at.read()?;
    match open_met(given)? {
        Some(met) => Ok(met),
        None if score.on_roll == 1 && score.opponent == 1 => Ok(Met::double_match_point()),
        None => Err(tabula::gammon::Error::Input {
            what: "match-equity table",
            input: given.map_or(GNUBG_MET.to_string(), |p| p.display().to_string()),
            reason: "a bear-off at a match score needs one: give --met FILE (gnubg's XML \
                     format), or install gnubg for its own"
                .into(),
        }
        .into()),
    }
}

/// `equity` at a score, for both doors: the position as given in `t`.
pub fn equity_answer(
    t: &TwoSidedTable,
    met: &Met,
    position: &str,
    at: &AtScore,
) -> Result<MatchEvaluation> {
    let (score, cube) = at.read()?;
    let (us, them) = answer::pair(t.index(), position)?;
    Ok(query::match_equity(t, met, us, them, score, cube)?)
}

/// `hint` at a score, for both doors.
pub fn hint_answer(
    t: &TwoSidedTable,
    met: &Met,
    position: &str,
    roll: &str,
    at: &AtScore,
) -> Result<MatchHint> {
    let r = answer::roll(roll)?;
    let (score, cube) = at.read()?;
    let pair = answer::pair(t.index(), position)?;
    Ok(query::match_hint(t, met, pair, r, score, cube)?)
}

/// The table of a race asked at a score without one named: the two-sided table
/// [`answer::race`] chooses (the one-sided estimate has no match values).
pub fn race_table<S: RaceTables>(
    tables: &S,
    (points, checkers): (usize, usize),
    position: &str,
) -> Result<S::TwoSided> {
    match answer::race(points, checkers, position, |k| tables.present(k))? {
        Race::Exact(kind) => tables.two_sided(&kind),
        Race::Estimate(..) => Err(tabula::gammon::Error::Position {
            reason: format!(
                "at a match score only a two-sided table answers; none of {points} points \
                 here holds this race (build bearoff-ts-{points}x15)"
            ),
        }
        .into()),
    }
}

/// The table `--table` names, else the race's.
fn opened(table: &Table, position: &str) -> Result<TwoSidedTable> {
    match table.table {
        Some(_) => open_two_sided(table, position),
        None => race_table(&Folders(None), (table.points, table.checkers), position),
    }
}

/// `equity --score`: the table of `--table`, or the race's.
pub fn equity(
    position: &str,
    table: &Table,
    at: &AtScore,
    s: &ScoreArgs,
) -> Result<MatchEvaluation> {
    let t = opened(table, position)?;
    equity_answer(&t, &met(s.met.as_deref(), at)?, position, at)
}

/// `hint --score`.
pub fn hint(
    position: &str,
    roll: &str,
    table: &Table,
    at: &AtScore,
    s: &ScoreArgs,
) -> Result<MatchHint> {
    answer::roll(roll)?;
    let t = opened(table, position)?;
    hint_answer(&t, &met(s.met.as_deref(), at)?, position, roll, at)
}
