//! The bear-off's judge (`crate::gammon::judge`): money play through a two-sided table,
//! its values shared with the family's ([`MoneyWorth`]).

use super::store::TwoSidedTable;
use crate::gammon::cube::{decide_money, CubeAction, CubeState};
use crate::gammon::judge::{Judge, MoneyWorth};
use crate::gammon::{Error, Position, Variant};

/// Money play in a two-sided bear-off database.
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
