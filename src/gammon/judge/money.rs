//! Money play's judge over any [`Evaluator`]: equities per unit of the cube, a cube state
//! (or none, cubeless); the bear-off's judge shares its values ([`MoneyWorth`]).

use super::{Judge, Measure, Worth};
use crate::gammon::cube::{decide_money, Cube, CubeAction, CubeState, Cubeful, Owner};
use crate::gammon::{Error, Evaluator, Outcomes, Position, Variant};

/// Money play through a table.
#[derive(Clone, Copy)]
pub struct Money<'a> {
    /// The table.
    pub table: &'a dyn Evaluator,
    /// Whether a taker may beaver (gnubg's money sessions: the questions), or not (the
    /// game).
    pub beavers: bool,
}

/// What a play is worth to its mover in money play.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoneyWorth {
    /// Its cubeless equity.
    pub equity: f64,
    /// Its outcome chances.
    pub outcomes: Outcomes,
    /// Its cubeful equity in the cube state asked for (none: cubeless).
    pub cubeful: Option<f64>,
}

impl MoneyWorth {
    /// A game won by `points`: its points, cubeful too (1 under the Jacoby rule, the
    /// cube centred).
    pub fn won(points: u32, state: Option<CubeState>) -> MoneyWorth {
        let cubeful = state.map(|s| match s {
            CubeState::CentredJacoby => 1.0,
            _ => f64::from(points),
        });
        MoneyWorth {
            equity: f64::from(points),
            outcomes: Outcomes::won(points as u8),
            cubeful,
        }
    }

    /// The position after a play from the values of the opponent on roll there (its
    /// cubeless equity, its chances, its no-double equities): the opponent decides on the
    /// cube first (`Cubeful::after_move`).
    pub fn after(
        equity: f64,
        outcomes: Outcomes,
        cubeful: Option<Cubeful>,
        state: Option<CubeState>,
    ) -> MoneyWorth {
        MoneyWorth {
            equity: -equity,
            outcomes: outcomes.flip(),
            cubeful: match (state, cubeful) {
                (Some(s), Some(c)) => Some(c.after_move()[s]),
                _ => None,
            },
        }
    }
}

impl Worth for MoneyWorth {
    /// Cubeful when a cube state was asked for, else cubeless.
    fn key(&self) -> f64 {
        self.cubeful.unwrap_or(self.equity)
    }

    fn tiebreak(&self) -> f64 {
        self.equity
    }
}

/// Money play's unit: cubeful with a cube state, else cubeless.
pub fn money_unit(cube: Option<CubeState>) -> Measure {
    match cube {
        Some(_) => Measure::Cubeful,
        None => Measure::Cubeless,
    }
}

impl Judge for Money<'_> {
    type Cube = Option<CubeState>;
    type Worth = MoneyWorth;

    fn variant(&self) -> &Variant {
        self.table.variant()
    }

    fn unit(&self, cube: Option<CubeState>) -> Measure {
        money_unit(cube)
    }

    fn turned(&self) -> Self {
        *self
    }

    fn seen(&self, cube: Option<Cube>, side: Owner) -> Option<CubeState> {
        cube.map(|c| c.state(side))
    }

    fn position(&self, p: &Position, cube: Option<CubeState>) -> Result<f64, Error> {
        match cube {
            Some(s) => Ok(self.table.cubeful_required(p)?[s]),
            None => self.table.equity(p),
        }
    }

    fn cubeless(&self, p: &Position) -> Result<Option<(f64, Outcomes)>, Error> {
        Ok(Some((self.table.equity(p)?, self.table.outcomes(p)?)))
    }

    fn won(&self, points: u32, cube: Option<CubeState>) -> MoneyWorth {
        MoneyWorth::won(points, cube)
    }

    fn after(&self, next: &Position, cube: Option<CubeState>) -> Result<MoneyWorth, Error> {
        let cubeful = match cube {
            Some(_) => Some(self.table.cubeful_required(next)?),
            None => None,
        };
        let (equity, outcomes) = (self.table.equity(next)?, self.table.outcomes(next)?);
        Ok(MoneyWorth::after(equity, outcomes, cubeful, cube))
    }

    fn cube(&self, p: &Position, cube: Option<CubeState>) -> Result<Option<CubeAction>, Error> {
        let Some(state) = cube else {
            return Ok(None);
        };
        let c = self.table.cubeful_required(p)?;
        Ok(Some(decide_money(&c, state, self.beavers)))
    }
}
