//! The review of a player's decisions (`docs/gammon.md`, "Playing"): each decision's loss
//! against the best under the judge's stakes, normalised with the cube, gnubg's marks, and
//! a game's totals with the error rate per decision and gnubg's rating. The trainer's
//! review after each game and a match file's analysis ([`super::analysis`]) are both
//! built from these.

use super::cube::{Cube, CubeAction, CubeDecision, Response};
use super::judge::{Judge, Measure};
use super::notation::notation;
use super::Roll;
use serde::Serialize;

/// gnubg's marks for a decision that lost equity: more than 0.03 doubtful, more than 0.06
/// bad, more than 0.12 very bad (equity per unit of the cube, normalised at a match
/// score; gnubg's default levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// `?!`: lost more than 0.03.
    Doubtful,
    /// `?`: lost more than 0.06.
    Bad,
    /// `??`: lost more than 0.12 (a blunder).
    VeryBad,
}

impl Mark {
    /// The mark of a decision that lost `loss` (per unit of the cube), if any.
    pub fn of(loss: f64) -> Option<Mark> {
        if loss > 0.12 {
            Some(Mark::VeryBad)
        } else if loss > 0.06 {
            Some(Mark::Bad)
        } else if loss > 0.03 {
            Some(Mark::Doubtful)
        } else {
            None
        }
    }

    /// `?!`, `?` or `??`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Doubtful => "?!",
            Mark::Bad => "?",
            Mark::VeryBad => "??",
        }
    }
}

/// gnubg's rating of a player from its error rate per decision (equity per unit of the
/// cube): under 0.005 Super Grandmaster, 0.008 Grandmaster, 0.013 Master, 0.020 Advanced,
/// 0.032 Intermediate, else Beginner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rating {
    /// 0.032 or more.
    Beginner,
    /// Under 0.032.
    Intermediate,
    /// Under 0.020.
    Advanced,
    /// Under 0.013.
    Master,
    /// Under 0.008.
    Grandmaster,
    /// Under 0.005.
    SuperGrandmaster,
}

impl Rating {
    /// The rating of `rate`, the error per decision.
    pub fn of(rate: f64) -> Rating {
        match rate {
            r if r < 0.005 => Rating::SuperGrandmaster,
            r if r < 0.008 => Rating::Grandmaster,
            r if r < 0.013 => Rating::Master,
            r if r < 0.020 => Rating::Advanced,
            r if r < 0.032 => Rating::Intermediate,
            _ => Rating::Beginner,
        }
    }

    /// gnubg's words.
    pub const fn text(self) -> &'static str {
        match self {
            Rating::Beginner => "Beginner",
            Rating::Intermediate => "Intermediate",
            Rating::Advanced => "Advanced",
            Rating::Master => "Master",
            Rating::Grandmaster => "Grandmaster",
            Rating::SuperGrandmaster => "Super Grandmaster",
        }
    }
}

/// What a reviewed decision was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A play of the dice.
    Play,
    /// Double or not, before the roll.
    Cube,
    /// Take or pass the opponent's double.
    Response,
}

/// One decision of the human's, reviewed.
#[derive(Debug, Clone, Serialize)]
pub struct Reviewed {
    /// What was decided.
    pub kind: Kind,
    /// The position decided on (notation), the side on roll first — for an answer to a
    /// double, the doubler (the table).
    pub position: String,
    /// The game's cube then (none without the cube).
    #[serde(skip)]
    pub cube: Option<Cube>,
    /// The roll, for a play.
    pub roll: Option<Roll>,
    /// What the human chose: a play in gnubg's notation, `double`, `no double`, `take`
    /// or `pass`.
    pub chosen: String,
    /// The best choice.
    pub best: String,
    /// What was lost against the best, in the game's measure (per unit of the cube in
    /// money play, match-winning chance in a match); 0 for the best.
    pub loss: f64,
    /// The loss as an equity per unit of the cube (gnubg's normalised equity).
    pub normalised: f64,
    /// gnubg's mark for the normalised loss.
    pub mark: Option<Mark>,
}

/// How one game went.
#[derive(Debug, Clone, Serialize)]
pub struct GameReview {
    /// Points won by the human (negative when lost); none when abandoned.
    pub human_points: Option<i32>,
    /// The cube's value at the end.
    pub cube: u32,
    /// What the losses measure.
    pub measure: Measure,
    /// Every decision of the human's, in order.
    pub decisions: Vec<Reviewed>,
    /// Their total loss.
    pub total: f64,
    /// In money play, their total loss in points: each loss times the cube's value then.
    pub total_points: Option<f64>,
    /// The normalised losses' total.
    pub normalised: f64,
    /// The normalised loss per decision (gnubg's error rate), when there was one.
    pub rate: Option<f64>,
    /// gnubg's rating of that rate.
    pub rating: Option<Rating>,
}

/// A decision reviewed: `chosen` and `best` as words, `loss` (clamped at 0) in the
/// judge's measure, normalised with the cube as the side that decided saw it (for an
/// answer to a double, the doubler's `judge` and `seen`, as the review has always read
/// it). The trainer's review and a match file's analysis record decisions through this.
#[allow(clippy::too_many_arguments)]
pub fn reviewed<J: Judge + ?Sized>(
    judge: &J,
    seen: J::Cube,
    pos: &super::Position,
    cube: Option<Cube>,
    kind: Kind,
    roll: Option<Roll>,
    [chosen, best]: [&str; 2],
    loss: f64,
) -> Reviewed {
    let loss = loss.max(0.0);
    let normalised = judge.normalised(loss, seen);
    Reviewed {
        kind,
        position: notation(judge.variant(), pos),
        cube,
        roll,
        chosen: chosen.to_string(),
        best: best.to_string(),
        loss,
        normalised,
        mark: Mark::of(normalised),
    }
}

/// A game's review from its decisions: their totals, the error rate per decision and
/// gnubg's rating; `points` won by the reviewed side (none: unfinished), `cube` the
/// cube's value at the end.
pub fn game_review(
    decisions: Vec<Reviewed>,
    points: Option<i32>,
    cube: u32,
    measure: Measure,
) -> GameReview {
    // Folded from +0.0: an empty sum is 0, not -0.
    let total = decisions.iter().fold(0.0, |sum, d| sum + d.loss);
    let normalised = decisions.iter().fold(0.0, |sum, d| sum + d.normalised);
    let rate = (!decisions.is_empty()).then(|| normalised / decisions.len() as f64);
    let total_points = (measure != Measure::Chance).then(|| {
        let value = |d: &Reviewed| f64::from(d.cube.map_or(1, |c| c.value));
        decisions.iter().map(|d| d.loss * value(d)).sum()
    });
    GameReview {
        human_points: points,
        cube,
        measure,
        decisions,
        total,
        total_points,
        normalised,
        rate,
        rating: rate.map(Rating::of),
    }
}

/// The side on roll's two answers to its cube question, `double` and `no double`, with
/// their values from `action`, and the better's place.
pub fn double_answers(action: &CubeAction) -> ([(&'static str, f64); 2], usize) {
    let doubled = action.double_take.min(action.double_pass);
    let answers = [("double", doubled), ("no double", action.no_double)];
    let best = usize::from(!action.action.is_some_and(CubeDecision::doubles));
    (answers, best)
}

/// The answers to a double, `take` and `pass`, with their values to the side that
/// answers (the doubler's in `action`, turned: what one gains the other loses), and the
/// better's place.
pub fn take_answers(action: &CubeAction) -> ([(&'static str, f64); 2], usize) {
    let answers = [("take", -action.double_take), ("pass", -action.double_pass)];
    let best = usize::from(action.response != Some(Response::Take));
    (answers, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnubgs_marks_and_ratings_start_where_gnubg_puts_them() {
        assert_eq!(Mark::of(0.0), None);
        assert_eq!(Mark::of(0.03), None);
        assert_eq!(Mark::of(0.031), Some(Mark::Doubtful));
        assert_eq!(Mark::of(0.06), Some(Mark::Doubtful));
        assert_eq!(Mark::of(0.061), Some(Mark::Bad));
        assert_eq!(Mark::of(0.121), Some(Mark::VeryBad));
        assert_eq!(Mark::VeryBad.symbol(), "??");
        assert_eq!(Rating::of(0.0049), Rating::SuperGrandmaster);
        assert_eq!(Rating::of(0.005), Rating::Grandmaster);
        assert_eq!(Rating::of(0.0129), Rating::Master);
        assert_eq!(Rating::of(0.0199), Rating::Advanced);
        assert_eq!(Rating::of(0.031), Rating::Intermediate);
        assert_eq!(Rating::of(0.032).text(), "Beginner");
    }
}
