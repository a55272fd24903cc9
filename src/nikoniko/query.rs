//! Queries against the built tables: the plays of a roll, rated and sorted.

use super::moves::{Generator, Play};
use super::store::Tables;
use super::{index_of, Outcomes, Position, Roll};
use crate::table::TableError;

/// A legal play with what the tables say of it, for the side that moves.
#[derive(Debug, Clone)]
pub struct RatedPlay {
    /// The play: its steps and the position after it.
    pub play: Play,
    /// Equity after the play, for the side that moved.
    pub equity: f64,
    /// Outcome probabilities after the play, for the side that moved.
    pub outcomes: Outcomes,
    /// Equity given up against the best play (0 for the best).
    pub loss: f64,
}

/// The outcome probabilities of a position for the side on roll, as stored.
pub fn outcomes_of(tables: &Tables, p: &Position) -> Result<Outcomes, TableError> {
    tables.outcomes(index_of(p))
}

/// What a play is worth to the side that made it: a win's points, or minus the value of
/// the position after it with the opponent on roll.
pub fn rate(tables: &Tables, play: &Play) -> Result<(f64, Outcomes), TableError> {
    if play.wins() {
        return Ok((f64::from(play.score()), Outcomes::won(play.score() as u8)));
    }
    let next = play.after.swap();
    let i = index_of(&next);
    Ok((-tables.equity(i)?, tables.outcomes(i)?.flip()))
}

/// Every legal play of `roll` from `p`, best first (ties keep the generator's order).
pub fn rated_plays(
    tables: &Tables,
    p: &Position,
    roll: Roll,
) -> Result<Vec<RatedPlay>, TableError> {
    let mut rated: Vec<RatedPlay> = Generator::new()
        .plays(p, roll)
        .into_iter()
        .map(|play| {
            let (equity, outcomes) = rate(tables, &play)?;
            Ok(RatedPlay {
                play,
                equity,
                outcomes,
                loss: 0.0,
            })
        })
        .collect::<Result<_, TableError>>()?;
    rated.sort_by(|a, b| b.equity.total_cmp(&a.equity));
    let best = rated.first().map_or(0.0, |r| r.equity);
    for r in &mut rated {
        r.loss = best - r.equity;
    }
    Ok(rated)
}

/// The opening: each non-double first roll's best play, and the opening-roll winner's
/// equity (the average over the six ordered non-double rolls), in the family's form.
pub fn opening(tables: &Tables) -> Result<crate::gammon::query::Opening, TableError> {
    let start = Position::OPENING;
    let mut rolls = Vec::new();
    let mut sum = 0.0;
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        let roll = Roll::new(a, b);
        let rated = rated_plays(tables, &start, roll)?;
        let best = &rated[0];
        let equity = if best.play.is_pass() {
            -tables.equity(index_of(&start))?
        } else {
            best.equity
        };
        sum += equity;
        rolls.push(crate::gammon::query::OpeningRoll {
            roll: roll.to_string(),
            play: best.play.to_string(),
            equity,
        });
    }
    Ok(crate::gammon::query::Opening {
        variant: "nikoniko".to_string(),
        position: super::notation::notation(&start),
        winner_equity: sum / rolls.len() as f64,
        rolls,
    })
}
