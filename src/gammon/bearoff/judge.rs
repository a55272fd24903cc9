//! The bear-off's judges (`crate::gammon::judge`): money play through a two-sided table,
//! its values shared with the family's ([`MoneyWorth`]); double match point through the
//! same table's chance to win ([`DoubleMatchPoint`]); any other match score through the
//! bear-off solved at that score ([`MatchPlay`]); the one-sided estimate of a race
//! ([`Estimate`], labelled as not exact); and several tables tried largest first
//! ([`Largest`]), as a match file's analysis asks them (`docs/bearoff.md`, "Match files").

use super::estimate::race_estimate;
use super::match_race::MatchRace;
use super::store::{OneSidedTable, TwoSidedTable};
use crate::gammon::cube::{decide, decide_money, Cube, CubeAction, CubeState, Owner};
use crate::gammon::judge::{money_unit, Judge, Measure, MoneyWorth};
use crate::gammon::matchplay::judge::{may_double, rules};
use crate::gammon::matchplay::met::Met;
use crate::gammon::matchplay::{MatchCube, Score};
use crate::gammon::{Error, Outcomes, Position, Variant};
use std::rc::Rc;

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

    fn holds(&self, p: &Position) -> bool {
        self.table.index().ranks_of(p).is_ok()
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

/// Double match point (both sides one point from the match, or a match to one): the cube
/// is dead and a game won, single or gammon, is the match, so the match-winning chance of
/// the side on roll is its chance to win the game, read from a two-sided table. It judges
/// the Crawford game too, from a table without gammons (`analysis`): there a play's
/// match-winning chance is a rising line of its chance to win the game, and gnubg's
/// normalised loss the same `2 · Δp`.
#[derive(Clone)]
pub struct DoubleMatchPoint<'a> {
    table: &'a TwoSidedTable,
    variant: Variant,
}

impl<'a> DoubleMatchPoint<'a> {
    /// The judge of `table` at double match point.
    pub fn new(table: &'a TwoSidedTable) -> DoubleMatchPoint<'a> {
        DoubleMatchPoint {
            table,
            variant: Variant::backgammon(),
        }
    }

    fn win(&self, p: &Position) -> Result<f64, Error> {
        let (us, them) = self.table.index().ranks_of(p)?;
        Ok(self.table.values(us, them)?.win)
    }
}

impl Judge for DoubleMatchPoint<'_> {
    type Cube = ();
    type Worth = f64;

    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn unit(&self, _: ()) -> Measure {
        Measure::Chance
    }

    fn holds(&self, p: &Position) -> bool {
        self.table.index().ranks_of(p).is_ok()
    }

    fn turned(&self) -> Self {
        self.clone()
    }

    fn seen(&self, _: Option<Cube>, _: Owner) {}

    fn position(&self, p: &Position, _: ()) -> Result<f64, Error> {
        self.win(p)
    }

    fn cubeless(&self, p: &Position) -> Result<Option<(f64, Outcomes)>, Error> {
        let (us, them) = self.table.index().ranks_of(p)?;
        let v = self.table.values(us, them)?;
        Ok(Some((v.equity(), v.outcomes())))
    }

    fn won(&self, _: u32, _: ()) -> f64 {
        1.0
    }

    fn after(&self, next: &Position, _: ()) -> Result<f64, Error> {
        Ok(1.0 - self.win(next)?)
    }

    fn cube(&self, _: &Position, _: ()) -> Result<Option<CubeAction>, Error> {
        Ok(None)
    }

    /// gnubg's normalisation at a score, `2 · loss / (won − lost)`: here `2 · loss`.
    fn normalised(&self, loss: f64, _: ()) -> f64 {
        2.0 * loss
    }
}

/// A match score other than double match point: exact match-winning chances from the
/// bear-off solved at the score ([`MatchRace`]: the table's sides and the rules, the
/// scores after the game valued by a match-equity table); the table itself gives only the
/// cubeless values a review shows beside them. The two sides' judges share the values.
#[derive(Clone)]
pub struct MatchPlay<'a> {
    table: &'a TwoSidedTable,
    race: Rc<MatchRace>,
    /// The perspective of the side on roll (0: the score as given).
    side: usize,
    variant: Variant,
}

impl<'a> MatchPlay<'a> {
    /// The judge of `table` at `score` (the side on roll first), `met` valuing the scores
    /// after a game; a score beyond `met` is refused.
    pub fn new(table: &'a TwoSidedTable, met: &Met, score: Score) -> Result<MatchPlay<'a>, Error> {
        Ok(MatchPlay {
            table,
            race: Rc::new(MatchRace::new(table.index(), met, score)?),
            side: 0,
            variant: Variant::backgammon(),
        })
    }

    fn ranks(&self, p: &Position) -> Result<(u32, u32), Error> {
        let (us, them) = self.table.index().ranks_of(p)?;
        // Side ranks are below 2³² in every table (`BearoffIndex`).
        Ok((us as u32, them as u32))
    }

    fn score(&self) -> Score {
        self.race.score(self.side)
    }

    /// The match-winning chance of the side on roll (`me`) or of its opponent after it
    /// wins `n` points (what the market window reads).
    pub fn won_points(&self, me: bool, n: u32) -> f64 {
        let side = if me { self.side } else { 1 - self.side };
        self.race.won_points(side, n)
    }
}

impl Judge for MatchPlay<'_> {
    type Cube = MatchCube;
    type Worth = f64;

    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn unit(&self, _: MatchCube) -> Measure {
        Measure::Chance
    }

    /// The pairs the table holds whose game from there fits in the values' budget
    /// (`match_race::BUDGET`).
    fn holds(&self, p: &Position) -> bool {
        self.ranks(p)
            .is_ok_and(|(us, them)| self.race.fits(us, them))
    }

    fn prepare(&self, p: &Position) -> Result<(), Error> {
        let (us, them) = self.ranks(p)?;
        self.race.prepare(self.side, us, them)
    }

    fn turned(&self) -> Self {
        MatchPlay {
            side: 1 - self.side,
            ..self.clone()
        }
    }

    fn seen(&self, cube: Option<Cube>, side: Owner) -> MatchCube {
        MatchCube::seen(cube, side)
    }

    fn position(&self, p: &Position, cube: MatchCube) -> Result<f64, Error> {
        let (us, them) = self.ranks(p)?;
        self.race.no_double(self.side, us, them, cube)
    }

    fn cubeless(&self, p: &Position) -> Result<Option<(f64, Outcomes)>, Error> {
        let (us, them) = self.table.index().ranks_of(p)?;
        let v = self.table.values(us, them)?;
        Ok(Some((v.equity(), v.outcomes())))
    }

    /// The chance after winning `points` times the cube.
    fn won(&self, points: u32, cube: MatchCube) -> f64 {
        self.race.won(self.side, points, cube)
    }

    /// One less the opponent's chance, on roll, deciding on the cube first.
    fn after(&self, next: &Position, cube: MatchCube) -> Result<f64, Error> {
        let (on_roll, mover) = self.ranks(next)?;
        let theirs = cube.seen_by_opponent();
        Ok(1.0 - self.race.on_turn(1 - self.side, on_roll, mover, theirs)?)
    }

    fn cube(&self, p: &Position, cube: MatchCube) -> Result<Option<CubeAction>, Error> {
        let score = self.score();
        if !may_double(score, cube) {
            return Ok(None);
        }
        let (us, them) = self.ranks(p)?;
        let choices = self.race.choices(self.side, us, them, cube)?;
        Ok(Some(decide(choices, rules(score, cube))))
    }

    /// Per unit of the cube: a chance lost over what winning and losing the cube's value
    /// are apart, twice (gnubg's `mwc2eq`).
    fn normalised(&self, loss: f64, cube: MatchCube) -> f64 {
        let won = self.race.won(self.side, 1, cube);
        let lost = 1.0 - self.race.won(1 - self.side, 1, cube);
        2.0 * loss / (won - lost)
    }
}

/// The one-sided estimate of a race of money play without the cube (`estimate::race_estimate`:
/// each side's rolls to bear off taken as independent): not exact, and every answer built
/// on it says so. It holds the races whose sides are all on the table's points.
#[derive(Clone)]
pub struct Estimate<'a> {
    table: &'a OneSidedTable,
    variant: Variant,
    exact: Vec<&'a TwoSidedTable>,
}

impl<'a> Estimate<'a> {
    /// The estimate of `table`, holding the races none of `exact` holds.
    pub fn new(table: &'a OneSidedTable, exact: &[&'a TwoSidedTable]) -> Estimate<'a> {
        Estimate {
            table,
            variant: Variant::backgammon(),
            exact: exact.to_vec(),
        }
    }

    fn sides(&self, p: &Position) -> Result<(Vec<u8>, Vec<u8>), Error> {
        let index = self.table.index();
        Ok((index.side_of(p.us())?, index.side_of(p.them())?))
    }
}

impl Judge for Estimate<'_> {
    type Cube = ();
    type Worth = f64;

    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn unit(&self, _: ()) -> Measure {
        Measure::Cubeless
    }

    fn holds(&self, p: &Position) -> bool {
        self.sides(p).is_ok() && !self.exact.iter().any(|t| t.index().ranks_of(p).is_ok())
    }

    fn turned(&self) -> Self {
        self.clone()
    }

    fn seen(&self, _: Option<Cube>, _: Owner) {}

    fn position(&self, p: &Position, _: ()) -> Result<f64, Error> {
        let (us, them) = self.sides(p)?;
        Ok(race_estimate(self.table, &us, &them)?.equity)
    }

    fn won(&self, points: u32, _: ()) -> f64 {
        f64::from(points)
    }

    fn after(&self, next: &Position, _: ()) -> Result<f64, Error> {
        Ok(-self.position(next, ())?)
    }

    fn cube(&self, _: &Position, _: ()) -> Result<Option<CubeAction>, Error> {
        Ok(None)
    }
}

/// Several judges of the same stakes over different tables, tried in the order given
/// (largest table first): a position is judged by the first that holds it.
#[derive(Clone)]
pub struct Largest<J> {
    judges: Vec<J>,
}

impl<J: Judge> Largest<J> {
    /// The judges in the order they are tried; none when `judges` is empty.
    pub fn new(judges: Vec<J>) -> Option<Largest<J>> {
        (!judges.is_empty()).then_some(Largest { judges })
    }

    fn of(&self, p: &Position) -> Result<&J, Error> {
        self.judges
            .iter()
            .find(|j| j.holds(p))
            .ok_or_else(|| Error::Position {
                reason: "a position outside every bear-off table given".into(),
            })
    }
}

impl<J: Judge> Judge for Largest<J> {
    type Cube = J::Cube;
    type Worth = J::Worth;

    fn variant(&self) -> &Variant {
        self.judges[0].variant()
    }

    fn unit(&self, cube: J::Cube) -> Measure {
        self.judges[0].unit(cube)
    }

    fn holds(&self, p: &Position) -> bool {
        self.judges.iter().any(|j| j.holds(p))
    }

    fn prepare(&self, p: &Position) -> Result<(), Error> {
        self.of(p)?.prepare(p)
    }

    fn turned(&self) -> Self {
        Largest {
            judges: self.judges.iter().map(J::turned).collect(),
        }
    }

    fn seen(&self, cube: Option<Cube>, side: Owner) -> J::Cube {
        self.judges[0].seen(cube, side)
    }

    fn position(&self, p: &Position, cube: J::Cube) -> Result<f64, Error> {
        self.of(p)?.position(p, cube)
    }

    fn cubeless(&self, p: &Position) -> Result<Option<(f64, Outcomes)>, Error> {
        self.of(p)?.cubeless(p)
    }

    fn won(&self, points: u32, cube: J::Cube) -> J::Worth {
        self.judges[0].won(points, cube)
    }

    fn after(&self, next: &Position, cube: J::Cube) -> Result<J::Worth, Error> {
        self.of(next)?.after(next, cube)
    }

    fn cube(&self, p: &Position, cube: J::Cube) -> Result<Option<CubeAction>, Error> {
        self.of(p)?.cube(p, cube)
    }

    fn normalised(&self, loss: f64, cube: J::Cube) -> f64 {
        self.judges[0].normalised(loss, cube)
    }
}
