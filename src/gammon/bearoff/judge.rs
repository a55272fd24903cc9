//! The bear-off's judge (`crate::gammon::judge`): money play through a two-sided table,
//! its values shared with the family's ([`MoneyWorth`]).

use super::store::TwoSidedTable;
use crate::gammon::cube::{decide_money, Cube, CubeAction, CubeState, Owner};
use crate::gammon::judge::{money_unit, Judge, Measure, MoneyWorth};
use crate::gammon::{Error, Outcomes, Position, Variant};

/// Money play in a two-sided bear-off database.
#[derive(Clone)]
pub struct Bearoff<'a> {
    table: &'a TwoSidedTable,
    variant: Variant,
    beavers: bool,
}

impl<'a> Bearoff<'a> {
    /// The judge of `table` (with beavers, as gnubg's money sessions, or without).
    pub fn new(table: &'a TwoSidedTable, beavers: bool) -> Bearoff<'a> {
        Bearoff {
            table,
            variant: Variant::backgammon(),
            beavers,
        }
    }

    fn no_cube(&self) -> Error {
        Error::NoCube {
            path: self.table.table().path().to_path_buf(),
            hint: None,
        }
    }
}

impl Judge for Bearoff<'_> {
    type Cube = Option<CubeState>;
    type Worth = MoneyWorth;

    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn unit(&self, cube: Option<CubeState>) -> Measure {
        money_unit(cube)
    }

    fn turned(&self) -> Self {
        self.clone()
    }

    fn seen(&self, cube: Option<Cube>, side: Owner) -> Option<CubeState> {
        cube.map(|c| c.state(side))
    }

    fn position(&self, p: &Position, cube: Option<CubeState>) -> Result<f64, Error> {
        let (us, them) = self.table.index().ranks_of(p)?;
        let v = self.table.values(us, them)?;
        match cube {
            Some(s) => Ok(v.cubeful.ok_or_else(|| self.no_cube())?[s]),
            None => Ok(v.equity()),
        }
    }

    fn cubeless(&self, p: &Position) -> Result<Option<(f64, Outcomes)>, Error> {
        let (us, them) = self.table.index().ranks_of(p)?;
        let v = self.table.values(us, them)?;
        Ok(Some((v.equity(), v.outcomes())))
    }

    fn won(&self, points: u32, cube: Option<CubeState>) -> MoneyWorth {
        MoneyWorth::won(points, cube)
    }

    fn after(&self, next: &Position, cube: Option<CubeState>) -> Result<MoneyWorth, Error> {
        let (on_roll, mover) = self.table.index().ranks_of(next)?;
        let v = self.table.values(on_roll, mover)?;
        if cube.is_some() && v.cubeful.is_none() {
            return Err(self.no_cube());
        }
        Ok(MoneyWorth::after(v.equity(), v.outcomes(), v.cubeful, cube))
    }

    fn cube(&self, p: &Position, cube: Option<CubeState>) -> Result<Option<CubeAction>, Error> {
        let Some(state) = cube else {
            return Ok(None);
        };
        let (us, them) = self.table.index().ranks_of(p)?;
        let c = self
            .table
            .values(us, them)?
            .cubeful
            .ok_or_else(|| self.no_cube())?;
        Ok(Some(decide_money(&c, state, self.beavers)))
    }
}
