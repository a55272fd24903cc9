//! A backgammon match file's bear-offs judged exactly (`docs/bearoff.md`, "Match
//! files"): each game replayed from backgammon's opening by the family's replay
//! (`crate::gammon::analysis`), and every decision whose position a two-sided table
//! holds judged by the bear-off's judges — money play through [`Bearoff`] (cubeful when
//! the file played with the cube), double match point and the Crawford game through
//! [`DoubleMatchPoint`] — the tables tried largest first ([`Largest`]). The other
//! decisions are counted, not judged: positions outside every table, and in a match every
//! game at another score (a table holds money values; there the cube and the gammons are
//! worth what the match makes them, which no table here holds). On request the races the
//! tables do not hold are judged apart by the one-sided estimate ([`Estimate`]), labelled
//! so.
//!
//! The Crawford game is judged by the chance to win the game. The cube is dead, and a
//! game won is worth the same match-winning chance `W` (`L` lost) whatever the play, when
//! no gammon can be won: that holds in the tables of fewer than fifteen checkers a side
//! (every side on them has borne off), the only ones used there. A play is then worth
//! `L + p (W − L)` with `p` its chance to win, so the best play is the one of the largest
//! `p`, and gnubg's normalisation of a loss in match-winning chance, `2 · loss / (W − L)`,
//! is `2 · Δp`: the same numbers as at double match point, whatever the match-equity table.

use super::estimate::ONE_SIDED_ESTIMATE;
use super::judge::{Bearoff, DoubleMatchPoint, Estimate, Largest, MatchPlay};
use super::store::{OneSidedTable, TwoSidedTable};
use crate::gammon::analysis::{crawford_games, finish, replay, Analysis, Judging};
use crate::gammon::gnubg::record::{Fault, MatchRecord, Played};
use crate::gammon::judge::{Judge, Measure};
use crate::gammon::matchplay::met::Met;
use crate::gammon::matchplay::Score;
use crate::gammon::Error;
use crate::progress::Progress;
use serde::Serialize;

/// How the exact analysis is labelled.
pub const EXACT: &str = "exact";

/// A file's bear-offs, analysed: the family's analysis document (`gammon::analysis`),
/// with the tables that judged it and, when asked, the one-sided estimate's.
#[derive(Debug, Clone, Serialize)]
pub struct BearoffAnalysis {
    /// Always [`EXACT`].
    pub method: &'static str,
    /// The two-sided tables used, largest first (`bearoff 6x6`).
    pub tables: Vec<String>,
    /// The match-equity table that valued the scores after a game, in a match judged at
    /// scores other than double match point (its name); null otherwise.
    pub met: Option<String>,
    /// The analysis of the decisions the tables hold.
    #[serde(flatten)]
    pub analysis: Analysis,
    /// The one-sided estimate of the races no table holds, when asked.
    pub estimate: Option<EstimatedAnalysis>,
}

/// The races no two-sided table holds, judged by the one-sided estimate: cubeless money
/// equities whatever the cube and the score, plays only. Not exact.
#[derive(Debug, Clone, Serialize)]
pub struct EstimatedAnalysis {
    /// Always [`ONE_SIDED_ESTIMATE`].
    pub method: &'static str,
    /// The one-sided table (`bearoff one-sided 6`).
    pub table: String,
    /// Its analysis (the cube decisions and every other decision counted as skipped).
    #[serde(flatten)]
    pub analysis: Analysis,
}

/// Whether both sides need one point: the score of double match point (a match to one
/// included).
pub fn double_match_point(length: u32, score: [u32; 2]) -> bool {
    length > 0 && score.iter().all(|&s| s + 1 == length)
}

/// Analyses the bear-offs of `record` (already read) with the two-sided `tables` (tried
/// largest first; with the cube when the file played money with it), and, with
/// `one_sided`, estimates the races they do not hold. Faults of the file are kept in the
/// result; an error only for what stops the whole analysis (no table fit to judge it).
pub fn analyse(
    record: &MatchRecord,
    tables: &[&TwoSidedTable],
    one_sided: Option<&OneSidedTable>,
    met: Option<&Met>,
    progress: Progress<'_>,
) -> Result<BearoffAnalysis, Error> {
    let mut faults = record.faults.clone();
    let mut tables = tables.to_vec();
    tables.sort_by_key(|t| std::cmp::Reverse(t.index().pairs()));
    let money_cube = record.length == 0 && record.cube;
    let measure = match (record.length, record.cube) {
        (0, true) => Measure::Cubeful,
        (0, false) => Measure::Cubeless,
        _ => Measure::Chance,
    };
    if money_cube {
        if let Some(t) = tables
            .first()
            .filter(|_| tables.iter().all(|t| !t.has_cube()))
        {
            return Err(Error::NoCube {
                path: t.table().path().to_path_buf(),
                hint: None,
            });
        }
        tables.retain(|t| t.has_cube());
    }
    let names = tables.iter().map(|t| t.kind().name()).collect();
    if record.played != Played::Backgammon {
        faults.push(Fault {
            line: 0,
            game: None,
            reason: format!(
                "the file's games are {}: the bear-off databases judge backgammon's; \
                 Hypergammon 1-3 games are judged by the family's tables",
                record.played.title()
            ),
        });
        return Ok(BearoffAnalysis {
            method: EXACT,
            tables: names,
            met: None,
            analysis: finish(record, "backgammon", measure, Vec::new(), faults),
            estimate: None,
        });
    }
    if record.jacoby && money_cube && tables.iter().any(|t| t.kind().gammons()) {
        faults.push(Fault {
            line: 0,
            game: None,
            reason: "the Jacoby rule was in force; tabula's money games are judged without it"
                .into(),
        });
    }
    let mut games = Vec::new();
    if record.length == 0 {
        let judge = Largest::new(tables.iter().map(|t| Bearoff::new(t, false)).collect())
            .ok_or_else(no_table)?;
        progress.start("games", Some(record.games.len() as u64));
        for g in &record.games {
            games.push(replay(&judge, record, g, false, Judging::All, &mut faults));
            progress.advance(1);
        }
    } else {
        let judge = Largest::new(tables.iter().map(|t| DoubleMatchPoint::new(t)).collect())
            .ok_or_else(no_table)?;
        // The Crawford game's without a match-equity table: the tables without gammons
        // (no side on them has all fifteen checkers, so none can lose a gammon).
        let crawford_judge = Largest::new(
            tables
                .iter()
                .filter(|t| !t.kind().gammons())
                .map(|t| DoubleMatchPoint::new(t))
                .collect(),
        );
        // A game at a score solves the bear-offs it reaches: seconds with the larger tables.
        progress.start("games", Some(record.games.len() as u64));
        for (g, &crawford) in record.games.iter().zip(&crawford_games(record)) {
            let at_score = at_score(record, g.score, crawford, &tables, met);
            let all = Judging::All;
            let analysed = match (&at_score, crawford, &crawford_judge) {
                _ if double_match_point(record.length, g.score) => {
                    replay(&judge, record, g, crawford, all, &mut faults)
                }
                (Some(at_score), _, _) => replay(at_score, record, g, crawford, all, &mut faults),
                (None, true, Some(crawford_judge)) => {
                    replay(crawford_judge, record, g, crawford, all, &mut faults)
                }
                _ => replay(&judge, record, g, crawford, Judging::Nothing, &mut faults),
            };
            games.push(analysed);
            progress.advance(1);
        }
    }
    progress.finish();
    let estimate = one_sided.map(|os| {
        let judge = Estimate::new(os, &tables);
        // The estimate's replay is the exact one's: its faults are the ones above.
        let mut again = Vec::new();
        let games = record
            .games
            .iter()
            .map(|g| replay(&judge, record, g, false, Judging::Plays, &mut again))
            .collect();
        EstimatedAnalysis {
            method: ONE_SIDED_ESTIMATE,
            table: os.kind().name(),
            analysis: finish(record, "backgammon", judge.unit(()), games, Vec::new()),
        }
    });
    Ok(BearoffAnalysis {
        method: EXACT,
        tables: names,
        met: met.filter(|_| record.length > 0).map(|m| m.variant.clone()),
        analysis: finish(record, "backgammon", measure, games, faults),
        estimate,
    })
}

/// The judge of a game at `score` (player 0's, counted from 0) by the bear-off solved at
/// that score, the tables tried largest first; none without a match-equity table, or
/// where the score lies beyond it.
fn at_score<'a>(
    record: &MatchRecord,
    score: [u32; 2],
    crawford: bool,
    tables: &[&'a TwoSidedTable],
    met: Option<&Met>,
) -> Option<Largest<MatchPlay<'a>>> {
    let needs = |s: u32| record.length.checked_sub(s).filter(|&n| n > 0);
    let score = Score::new(needs(score[0])?, needs(score[1])?, crawford).ok()?;
    let judges = tables
        .iter()
        .map(|t| MatchPlay::new(t, met?, score).ok())
        .collect::<Option<Vec<_>>>()?;
    Largest::new(judges)
}

fn no_table() -> Error {
    Error::Inconsistent("no two-sided bear-off table to judge the file with".into())
}
