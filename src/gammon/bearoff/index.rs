//! The bear-off index (`docs/bearoff.md`, "One side's index"): one side's checkers on the
//! points `1..=P` ranked by stars and bars, as gnubg's `PositionBearoff(board, P, C)` ranks
//! them — the Hypergammon index of `crate::gammon::HyperIndex` with point `P` in the bar's
//! place. Rank 0 is every checker off; there are `C(P + C, C)` sides; a pair of sides is
//! the record `roller · n + opponent`.
//!
//! ```
//! use tabula::gammon::bearoff::BearoffIndex;
//!
//! let index = BearoffIndex::new(6, 15).unwrap();
//! assert_eq!(index.sides(), 54_264);
//! // A lone checker on point p is side p; fifteen on the six point the last side.
//! assert_eq!(index.rank(&[0, 0, 1, 0, 0, 0]).unwrap(), 3);
//! assert_eq!(index.rank(&[0, 0, 0, 0, 0, 15]).unwrap(), 54_263);
//! assert_eq!(index.side(54_263).unwrap(), vec![0, 0, 0, 0, 0, 15]);
//! ```

use crate::gammon::{Error, Position};
use crate::rank::{binomial, Combinations};
use serde::Serialize;

/// The most points a bear-off database covers: each side's last twelve points, so that
/// the two sides never meet (`docs/bearoff.md`).
pub const MAX_POINTS: usize = 12;
/// The most checkers a side has: backgammon's fifteen.
pub const MAX_CHECKERS: usize = 15;
/// Points of backgammon's board: bear-off positions are positions of real backgammon.
pub const BOARD: usize = 24;

/// The index of one side's bear-off positions: at most `C` checkers on points `1..=P`.
#[derive(Debug, Clone)]
pub struct BearoffIndex {
    points: usize,
    checkers: usize,
    sides: u64,
    bars: Combinations,
}

/// How many positions a bear-off database of `P` points and `C` checkers holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Count {
    /// Points, `P`.
    pub points: usize,
    /// Checkers a side at most, `C`.
    pub checkers: usize,
    /// One side's positions, `C(P + C, C)` (the one-sided database's records).
    pub positions: u64,
    /// Pairs of positions, `positions²` (the two-sided database's records).
    pub pairs: u64,
}

impl BearoffIndex {
    /// The index of `checkers` checkers (1 to 15) on `points` points (1 to
    /// [`MAX_POINTS`]).
    pub fn new(points: usize, checkers: usize) -> Result<BearoffIndex, Error> {
        if !(1..=MAX_POINTS).contains(&points) {
            return Err(Error::Size {
                points,
                checkers,
                reason: "a bear-off database covers 1 to 12 points (each side's last twelve, \
                         where the sides never meet)",
            });
        }
        if !(1..=MAX_CHECKERS).contains(&checkers) {
            return Err(Error::Size {
                points,
                checkers,
                reason: "a side has 1 to 15 checkers",
            });
        }
        let bars = Combinations::new(points + checkers, points)?;
        let sides = binomial((points + checkers) as u64, checkers as u64).expect("small");
        Ok(BearoffIndex {
            points,
            checkers,
            sides,
            bars,
        })
    }

    /// Points, `P`.
    pub fn points(&self) -> usize {
        self.points
    }

    /// Checkers a side at most, `C`.
    pub fn checkers(&self) -> usize {
        self.checkers
    }

    /// Sides, `n = C(P + C, C)`.
    pub fn sides(&self) -> u64 {
        self.sides
    }

    /// Pairs of sides, `n²`.
    pub fn pairs(&self) -> u64 {
        self.sides * self.sides
    }

    /// The counts of the index.
    pub fn count(&self) -> Count {
        Count {
            points: self.points,
            checkers: self.checkers,
            positions: self.sides,
            pairs: self.pairs(),
        }
    }

    fn side_error(&self, reason: String) -> Error {
        Error::Side {
            points: self.points,
            checkers: self.checkers,
            reason,
        }
    }

    /// The rank of a side given as its checkers on points `1..=P` (`P` counts).
    pub fn rank(&self, side: &[u8]) -> Result<u64, Error> {
        if side.len() != self.points {
            return Err(self.side_error(format!(
                "{} points given, expected {}",
                side.len(),
                self.points
            )));
        }
        let on: usize = side.iter().map(|&c| usize::from(c)).sum();
        if on > self.checkers {
            return Err(self.side_error(format!("{on} checkers on the board")));
        }
        // From the bottom cell up: point P's checkers, a bar, …, point 1's checkers, a
        // bar; the checkers off fill the cells above.
        Ok(self.bars.rank_stars(side)?)
    }

    /// Writes the side of rank `rank` into `side` (`P` counts).
    pub fn side_into(&self, rank: u64, side: &mut [u8]) -> Result<(), Error> {
        if side.len() != self.points {
            return Err(self.side_error(format!(
                "room for {} points, expected {}",
                side.len(),
                self.points
            )));
        }
        if rank >= self.sides {
            return Err(Error::OutOfRange {
                what: "side",
                number: rank,
                len: self.sides,
            });
        }
        Ok(self.bars.unrank_stars(rank, side)?)
    }

    /// The side of rank `rank`, as its checkers on points `1..=P`.
    pub fn side(&self, rank: u64) -> Result<Vec<u8>, Error> {
        let mut side = vec![0; self.points];
        self.side_into(rank, &mut side)?;
        Ok(side)
    }

    /// The record of a pair: `roller · n + opponent`.
    pub fn record(&self, roller: u64, opponent: u64) -> Result<u64, Error> {
        for (what, r) in [("side", roller), ("side", opponent)] {
            if r >= self.sides {
                return Err(Error::OutOfRange {
                    what,
                    number: r,
                    len: self.sides,
                });
            }
        }
        Ok(roller * self.sides + opponent)
    }

    /// The two sides of a record, the side on roll first.
    pub fn split(&self, record: u64) -> Result<(u64, u64), Error> {
        if record >= self.pairs() {
            return Err(Error::OutOfRange {
                what: "record",
                number: record,
                len: self.pairs(),
            });
        }
        Ok((record / self.sides, record % self.sides))
    }

    /// One side of a position of real backgammon (24 points, the bar last) as the `P`
    /// counts of its points `1..=P`; refuses a checker beyond point `P` or on the bar,
    /// and more than `C` checkers.
    pub fn side_of(&self, slots: &[u8]) -> Result<Vec<u8>, Error> {
        if slots.len() != BOARD + 1 {
            return Err(self.side_error(format!(
                "a side of {} slots; a bear-off position is one of backgammon's 24 points",
                slots.len()
            )));
        }
        if let Some(q) = (self.points..=BOARD).find(|&i| slots[i] > 0) {
            return Err(self.side_error(if q == BOARD {
                "a checker on the bar".to_string()
            } else {
                format!("a checker on point {}", q + 1)
            }));
        }
        let side = slots[..self.points].to_vec();
        self.rank(&side)?;
        Ok(side)
    }

    /// The ranks of both sides of a position of real backgammon, the side on roll first.
    pub fn ranks_of(&self, p: &Position) -> Result<(u64, u64), Error> {
        if p.points() != BOARD {
            return Err(Error::Position {
                reason: format!(
                    "a position on {} points; bear-off positions are backgammon's (24 points)",
                    p.points()
                ),
            });
        }
        let us = self.rank(&self.side_of(p.us())?)?;
        let them = self.rank(&self.side_of(p.them())?)?;
        Ok((us, them))
    }

    /// The position of real backgammon with the two sides of the given ranks, the side on
    /// roll first (each side on its own points `1..=P`).
    pub fn position(&self, roller: u64, opponent: u64) -> Result<Position, Error> {
        let mut us = [0u8; BOARD + 1];
        let mut them = [0u8; BOARD + 1];
        self.side_into(roller, &mut us[..self.points])?;
        self.side_into(opponent, &mut them[..self.points])?;
        Position::new(&us, &them)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::HyperIndex;

    #[test]
    fn the_counts_are_the_binomials_of_the_spec() {
        for (p, c, n) in [
            (6, 6, 924),
            (6, 8, 3_003),
            (6, 10, 8_008),
            (6, 12, 18_564),
            (6, 15, 54_264),
            (8, 15, 490_314),
            (10, 15, 3_268_760),
            (12, 15, 17_383_860),
        ] {
            assert_eq!(BearoffIndex::new(p, c).unwrap().sides(), n, "{p}x{c}");
        }
        assert_eq!(BearoffIndex::new(6, 15).unwrap().pairs(), 2_944_581_696);
    }

    #[test]
    fn the_bearoff_rank_is_the_hypergammon_rank_with_point_p_in_the_bars_place() {
        let bearoff = BearoffIndex::new(4, 3).unwrap();
        let hyper = HyperIndex::new(3, 3).unwrap();
        assert_eq!(bearoff.sides(), hyper.sides());
        for r in 0..bearoff.sides() {
            let side = bearoff.side(r).unwrap();
            assert_eq!(bearoff.rank(&side).unwrap(), r);
            assert_eq!(hyper.side_rank(&side).unwrap(), r);
        }
    }

    #[test]
    fn a_side_beyond_the_database_is_refused_with_the_point_named() {
        let index = BearoffIndex::new(6, 15).unwrap();
        let mut slots = [0u8; BOARD + 1];
        slots[6] = 1;
        assert!(index
            .side_of(&slots)
            .unwrap_err()
            .to_string()
            .contains("point 7"));
        slots[6] = 0;
        slots[BOARD] = 1;
        assert!(index
            .side_of(&slots)
            .unwrap_err()
            .to_string()
            .contains("bar"));
        slots[BOARD] = 0;
        slots[0] = 16;
        assert!(index.side_of(&slots).is_err());
        assert!(BearoffIndex::new(13, 15).is_err());
        assert!(BearoffIndex::new(6, 0).is_err());
    }

    #[test]
    fn a_position_and_its_ranks_round_trip() {
        let index = BearoffIndex::new(6, 8).unwrap();
        let p = index.position(2_000, 17).unwrap();
        assert_eq!(index.ranks_of(&p).unwrap(), (2_000, 17));
        assert_eq!(index.record(2_000, 17).unwrap(), 2_000 * 3_003 + 17);
        assert_eq!(index.split(2_000 * 3_003 + 17).unwrap(), (2_000, 17));
        assert!(index.split(3_003 * 3_003).is_err());
    }
}
