//! The judge at a match score (`super::super::judge`): match-winning chances from the
//! score's tables.

use super::score::{CubeOwner, Game, MatchCube, Score, Unit};
use super::store::{UnitTable, CHANCE_SCALE};
use crate::gammon::cube::{decide, Choices, Cube, CubeAction, Owner, Rules};
use crate::gammon::judge::{Judge, Measure};
use crate::gammon::{Error, Position, Variant};
use std::path::Path;

/// The tables that answer at one score: its unit's, and 1-1's (where a cube is dead).
pub struct ScoreTables {
    unit: UnitTable,
    dmp: Option<UnitTable>,
}

impl ScoreTables {
    /// The unit's table and, for a unit with the cube, 1-1's.
    pub fn new(unit: UnitTable, dmp: Option<UnitTable>) -> Result<ScoreTables, Error> {
        let u = unit.unit();
        if dmp.is_none() && u.reads_dmp() {
            return Err(Error::Inconsistent(format!(
                "the score {} needs the table of 1-1 beside its own",
                u.name()
            )));
        }
        Ok(ScoreTables { unit, dmp })
    }

    /// The unit's table.
    pub fn unit(&self) -> &UnitTable {
        &self.unit
    }

    /// 1-1's table, for a unit with the cube.
    pub fn dmp(&self) -> Option<&UnitTable> {
        self.dmp.as_ref()
    }

    /// Where the unit's table lies.
    pub fn path(&self) -> &Path {
        self.unit.table().path()
    }

    /// The match-winning chance of the side on roll at `score` (this unit's) with `cube`,
    /// if it does not double now, at record `record`.
    pub fn no_double(&self, record: u64, score: Score, cube: MatchCube) -> Result<f64, Error> {
        let (u, second) = score.unit();
        debug_assert_eq!(u, self.unit.unit());
        let dead = u.game != Game::Crawford && cube.value >= u.dead_level();
        if u == Unit::DMP || dead {
            let dmp = self.dmp.as_ref().unwrap_or(&self.unit);
            let row = dmp.row(record)?;
            let e = f64::from_bits(u64::from(row[0]) | u64::from(row[1]) << 32);
            // Rounded as the other tables' chances are, so that equal values compare equal.
            return Ok(((1.0 + e) / 2.0 * CHANCE_SCALE).round() / CHANCE_SCALE);
        }
        let row = self.unit.row(record)?;
        let column = if u.game == Game::Crawford {
            usize::from(second)
        } else {
            let base = if second && !u.symmetric() {
                u.columns()
            } else {
                0
            };
            match cube.owner {
                CubeOwner::Centred => base,
                owner => {
                    let level = cube.value.trailing_zeros() as usize - 1;
                    base + 1 + 2 * level + usize::from(owner == CubeOwner::Opponent)
                }
            }
        };
        Ok(f64::from(row[column]) / CHANCE_SCALE)
    }

    /// The match-winning chance of the side of `score` on roll winning `points`.
    pub fn won(&self, score: Score, points: u32) -> f64 {
        let (_, second) = score.unit();
        (1.0 + self.unit.won(second, points)) / 2.0
    }

    /// The chance of the side on roll after it loses `points`.
    pub fn lost(&self, score: Score, points: u32) -> f64 {
        1.0 - self.won(score.mirrored(), points)
    }
}

/// Whether the side on roll may double at `score` with `cube` and has a reason to: the
/// cube is in play, it has access, and the cube is not dead (below the first value at or
/// above what both sides need, where every game decides the match).
pub fn may_double(score: Score, cube: MatchCube) -> bool {
    let (unit, _) = score.unit();
    score.cube_in_play() && cube.has_access() && cube.value < unit.dead_level()
}

/// The rules of a cube decision at `score` with `cube` (where the side on roll may
/// double): no beavers; the cube is dead for a side that a single win at this cube takes
/// to the match (gnubg's "never double").
pub fn rules(score: Score, cube: MatchCube) -> Rules {
    Rules {
        access: true,
        redouble: cube.owner == CubeOwner::OnRoll,
        beavers: false,
        dead: score.on_roll <= cube.value,
    }
}

/// Match play at a score: the score's tables, the score seen from the side on roll.
#[derive(Clone, Copy)]
pub struct AtScore<'a> {
    /// The tables of the score.
    pub tables: &'a ScoreTables,
    /// The score, the side on roll first.
    pub score: Score,
}

impl AtScore<'_> {
    /// The same score seen by the other side.
    pub fn mirrored(self) -> Self {
        AtScore {
            score: self.score.mirrored(),
            ..self
        }
    }

    /// The three choices of the side on roll at record `record` with `cube`, where it may
    /// double.
    fn choices(&self, record: u64, cube: MatchCube) -> Result<Choices, Error> {
        let t = self.tables;
        Ok(Choices {
            no_double: t.no_double(record, self.score, cube)?,
            double_take: t.no_double(record, self.score, cube.doubled())?,
            double_pass: t.won(self.score, cube.value),
        })
    }
}

impl Judge for AtScore<'_> {
    type Cube = MatchCube;
    type Worth = f64;

    fn variant(&self) -> &Variant {
        self.tables.unit().variant()
    }

    fn unit(&self, _: MatchCube) -> Measure {
        Measure::Chance
    }

    fn turned(&self) -> Self {
        self.mirrored()
    }

    /// The cube at 1, centred, for a game without one.
    fn seen(&self, cube: Option<Cube>, side: Owner) -> MatchCube {
        MatchCube::seen(cube, side)
    }

    fn position(&self, p: &Position, cube: MatchCube) -> Result<f64, Error> {
        let record = self.tables.unit().numbers().record(p)?;
        self.tables.no_double(record, self.score, cube)
    }

    /// The chance after winning `points` times the cube.
    fn won(&self, points: u32, cube: MatchCube) -> f64 {
        self.tables.won(self.score, points * cube.value)
    }

    /// One less the opponent's chance, on roll, deciding on the cube first.
    fn after(&self, next: &Position, cube: MatchCube) -> Result<f64, Error> {
        let them = self.mirrored();
        let their_cube = cube.seen_by_opponent();
        let record = self.tables.unit().numbers().record(next)?;
        let nd = self.tables.no_double(record, them.score, their_cube)?;
        let theirs = if may_double(them.score, their_cube) {
            let c = them.choices(record, their_cube)?;
            nd.max(c.double_take.min(c.double_pass))
        } else {
            nd
        };
        Ok(1.0 - theirs)
    }

    fn cube(&self, p: &Position, cube: MatchCube) -> Result<Option<CubeAction>, Error> {
        if !may_double(self.score, cube) {
            return Ok(None);
        }
        let record = self.tables.unit().numbers().record(p)?;
        Ok(Some(decide(
            self.choices(record, cube)?,
            rules(self.score, cube),
        )))
    }

    /// Per unit of the cube: a chance lost over what winning and losing the cube's value
    /// are apart, twice (gnubg's `mwc2eq`).
    fn normalised(&self, loss: f64, cube: MatchCube) -> f64 {
        let t = self.tables;
        let spread = t.won(self.score, cube.value) - t.lost(self.score, cube.value);
        2.0 * loss / spread
    }
}
