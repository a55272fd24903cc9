//! One judge for every stake (`docs/architecture.md`, "One judge"): what a play, a
//! position at a cube, and a finished game are worth under given stakes. Money play
//! through any [`Evaluator`](super::Evaluator) ([`Money`]), a match score through the
//! score's tables (`matchplay::judge::AtScore`) and the two-sided bear-off
//! (`bearoff::judge::Bearoff`) implement it; on it stand the one ranking of a roll's plays
//! ([`rank`]), the one cube rule ([`super::cube::decide`]) and the one game loop
//! (`super::game`).
//!
//! A caller that judges one decision of a game (a match file's analysis, say) asks the
//! judge of its stakes: [`rank`] for a play, [`Judge::cube`] for a cube decision.

mod money;

pub use money::{money_unit, Money, MoneyWorth};

use super::cube::{Cube, CubeAction, Owner};
use super::moves::{win_points, Generator, Play};
use super::{Error, Outcomes, Position, Roll, Variant};
use serde::Serialize;

/// What a judge's values measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Cubeless equities (money play without the cube).
    Cubeless,
    /// Cubeful equities per unit of the cube (money play with it).
    Cubeful,
    /// Match-winning chances.
    Chance,
}

/// What a play is worth to its mover, as plays are ranked.
pub trait Worth: Clone {
    /// The value the plays are ranked by (higher is better for the mover).
    fn key(&self) -> f64;

    /// The value that orders plays of the same key: the cubeless equity where there is
    /// one, else the key itself.
    fn tiebreak(&self) -> f64 {
        self.key()
    }
}

/// A match-winning chance.
impl Worth for f64 {
    fn key(&self) -> f64 {
        *self
    }
}

/// What a game is played for, and what its table says under those stakes. Values are
/// seen from the side on roll (for a play, its mover), higher better.
pub trait Judge {
    /// The cube as the side on roll sees it: a money cube state (none: cubeless), or the
    /// cube at a match score.
    type Cube: Copy;
    /// What a play is worth to its mover.
    type Worth: Worth;

    /// The variant played.
    fn variant(&self) -> &Variant;

    /// What its values are with `cube`.
    fn unit(&self, cube: Self::Cube) -> Measure;

    /// Whether these stakes value `p` and the positions its plays lead to: every position
    /// for a table of the whole variant; for a bear-off database, the pairs it holds.
    fn holds(&self, p: &Position) -> bool {
        let _ = p;
        true
    }

    /// Readies the values of the decisions at `p`, held, and of the positions a game goes
    /// on to from it, for a judge that values them lazily (the bear-off at a match score);
    /// nothing to do for a table. The analysis of a game calls it at each decision it
    /// judges, so that the game's first decision in a bear-off values what the rest read.
    fn prepare(&self, p: &Position) -> Result<(), Error> {
        let _ = p;
        Ok(())
    }

    /// The same stakes seen by the other side (at a match score, the score mirrored).
    fn turned(&self) -> Self
    where
        Self: Sized;

    /// A game's cube (none: a game without it) as `side` sees it on its turn.
    fn seen(&self, cube: Option<Cube>, side: Owner) -> Self::Cube;

    /// What `p` (with play left) is worth to the side on roll with `cube` if it does not
    /// double: its cubeless equity without a cube.
    fn position(&self, p: &Position, cube: Self::Cube) -> Result<f64, Error>;

    /// The cubeless equity and outcome chances of `p`, where these stakes have them.
    fn cubeless(&self, p: &Position) -> Result<Option<(f64, Outcomes)>, Error> {
        let _ = p;
        Ok(None)
    }

    /// What a game won by `points` (1 a single game, 2 a gammon, 3 a backgammon) is worth
    /// to the winner, `cube` as the winner saw it on its turn.
    fn won(&self, points: u32, cube: Self::Cube) -> Self::Worth;

    /// What `next` (the opponent on roll after a play, with play left) is worth to the
    /// side that moved into it, `cube` as that side saw it: the opponent decides on the
    /// cube first.
    fn after(&self, next: &Position, cube: Self::Cube) -> Result<Self::Worth, Error>;

    /// The cube decision of the side on roll in `p` with `cube`, in the stakes' unit; none
    /// where these stakes have no cube decision there (cubeless, the Crawford game, a
    /// dead cube, no access at a match score).
    fn cube(&self, p: &Position, cube: Self::Cube) -> Result<Option<CubeAction>, Error>;

    /// A loss in the stakes' unit as an equity per unit of the cube (gnubg's normalised
    /// equity, which its marks and ratings read), with `cube` as the side that lost it
    /// saw it.
    fn normalised(&self, loss: f64, cube: Self::Cube) -> f64 {
        let _ = cube;
        loss
    }

    /// What `play` is worth to its mover.
    fn play(&self, play: &Play, cube: Self::Cube) -> Result<Self::Worth, Error> {
        if play.wins() {
            let points = win_points(self.variant(), play.after.them());
            return Ok(self.won(points, cube));
        }
        self.after(&play.after.swapped(), cube)
    }
}

/// A play judged: what it is worth, and what it loses against the best.
#[derive(Debug, Clone)]
pub struct Judged<W> {
    /// The play.
    pub play: Play,
    /// What it is worth to the mover.
    pub worth: W,
    /// What it gives up against the best play, in the key's unit (0 for the best).
    pub loss: f64,
}

/// The one ranking: every play of `roll` from `p`, best first by the judge's key, plays of
/// the same key by their tiebreak, plays alike in both in the generator's order. Empty
/// when the roll passes.
pub fn rank<J: Judge + ?Sized>(
    judge: &J,
    p: &Position,
    roll: Roll,
    cube: J::Cube,
) -> Result<Vec<Judged<J::Worth>>, Error> {
    let mut ranked = Vec::new();
    for play in Generator::new(judge.variant()).plays(p, roll) {
        if play.is_pass() {
            continue;
        }
        let worth = judge.play(&play, cube)?;
        ranked.push(Judged {
            play,
            worth,
            loss: 0.0,
        });
    }
    ranked.sort_by(|a, b| {
        (b.worth.key().total_cmp(&a.worth.key()))
            .then(b.worth.tiebreak().total_cmp(&a.worth.tiebreak()))
    });
    let best = ranked.first().map_or(0.0, |r| r.worth.key());
    for r in &mut ranked {
        r.loss = best - r.worth.key();
    }
    Ok(ranked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::cube::CubeState;
    use crate::gammon::fixtures::{score_tables, tables};
    use crate::gammon::matchplay::judge::AtScore;
    use crate::gammon::matchplay::{CubeOwner, MatchCube, Score};
    use crate::gammon::{moves, Evaluator};

    /// The average over the rolls of the best play's key (a roll that cannot move hands
    /// the same board to the opponent).
    fn roll_average<J: Judge>(judge: &J, p: &Position, cube: J::Cube) -> f64 {
        let faces = &judge.variant().faces;
        let weight = 1.0 / (faces.len() * faces.len()) as f64;
        let mut sum = 0.0;
        for &a in faces {
            for &b in faces {
                let ranked = rank(judge, p, Roll::new(a, b), cube).unwrap();
                sum += weight
                    * match ranked.first() {
                        Some(best) => best.worth.key(),
                        None => judge.play(&Play::pass(p), cube).unwrap().key(),
                    };
            }
        }
        sum
    }

    /// Hypergammon-1's positions with play left, the first `n` in record order.
    fn positions(t: &dyn Evaluator, n: usize) -> Vec<Position> {
        let (numbers, checkers) = (t.numbers(), t.variant().checkers);
        (0..numbers.records())
            .filter_map(|r| numbers.position(r).ok())
            .filter(|p| p.clash().is_none())
            .filter(|p| moves::off(p.us(), checkers) < checkers)
            .filter(|p| moves::off(p.them(), checkers) < checkers)
            .take(n)
            .collect()
    }

    // Bellman's equation, read through the one ranking: a position's value without a
    // double is the average over the rolls of the best play's, in money play (cubeless
    // and every cube state) and at a match score.
    #[test]
    fn the_best_plays_of_every_roll_average_to_the_positions_value() {
        let t = tables("hyper1", true);
        let money = Money {
            table: t,
            beavers: false,
        };
        let at = Score::new(2, 3, false).unwrap();
        let st = score_tables(at).unwrap();
        let judge = AtScore {
            tables: &st,
            score: at,
        };
        let cubes = [
            MatchCube::START,
            MatchCube::new(2, CubeOwner::OnRoll).unwrap(),
            MatchCube::new(2, CubeOwner::Opponent).unwrap(),
        ];
        for p in positions(t, 60) {
            let cubeless = roll_average(&money, &p, None);
            assert!((cubeless - t.equity(&p).unwrap()).abs() < 1e-9, "{p:?}");
            for state in CubeState::ALL {
                let e = roll_average(&money, &p, Some(state));
                let stored = money.position(&p, Some(state)).unwrap();
                assert!((e - stored).abs() < 1e-9, "{p:?} {state}: {e} {stored}");
            }
            for cube in cubes {
                let mwc = roll_average(&judge, &p, cube);
                let stored = judge.position(&p, cube).unwrap();
                assert!((mwc - stored).abs() < 1e-6, "{p:?} {cube}: {mwc} {stored}");
            }
        }
    }
}
