//! gnubg's Hypergammon index, generalised to any board of `P` points and `C` checkers a
//! side (`docs/gammon.md`, "gnubg's index").
//!
//! One side is numbered by stars and bars: write its `C` checkers as stars and its
//! `P + 1` slots as bars, in a row of `P + 1 + C` cells read from the top: first the
//! checkers borne off, then a bar, the checkers on point 1, a bar, those on point 2, …, a
//! bar, those on the bar. The side's number is the colex rank of the bars' cells (the
//! combinatorial number system), which is [`Combinations`]' rank: all checkers off is 0,
//! and there are `N = C(P + 1 + C, C)` sides. A position is the record
//! `us · N + them`, the side on roll first, each side in its own numbering.

use crate::gammon::{Error, Position};
use crate::rank::{binomial, Combinations};
use serde::Serialize;

/// Points on gnubg's board.
pub const GNUBG_POINTS: usize = 24;

/// The index of the two-sided positions of `C` checkers a side on `P` points.
#[derive(Debug, Clone)]
pub struct HyperIndex {
    points: usize,
    checkers: usize,
    sides: u64,
    records: u64,
    bars: Combinations,
}

/// How many records an index has, and how many of them are legal positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Points on the board.
    pub points: usize,
    /// Checkers per side.
    pub checkers: usize,
    /// Numbered sides, `N`.
    pub sides: u64,
    /// Records, `N²`.
    pub records: u64,
    /// Records whose two sides hold no point in common.
    pub legal: u64,
}

impl HyperIndex {
    /// gnubg's index for `checkers`-checker Hypergammon on its 24-point board.
    pub fn hypergammon(checkers: usize) -> Result<Self, Error> {
        Self::new(GNUBG_POINTS, checkers)
    }

    /// The index for `checkers` checkers a side on `points` points. Refuses an empty board
    /// or side, and any size whose records do not fit 64 bits or whose one-byte-a-record
    /// array could not be addressed on this machine, before allocating anything.
    pub fn new(points: usize, checkers: usize) -> Result<Self, Error> {
        if points == 0 {
            return Err(Error::Size {
                points,
                checkers,
                reason: "the board needs at least one point",
            });
        }
        if checkers == 0 {
            return Err(Error::Size {
                points,
                checkers,
                reason: "each side needs at least one checker",
            });
        }
        let too_large = |reason: String| Error::TooLarge {
            points,
            checkers,
            reason,
        };
        let cells = points
            .checked_add(1)
            .and_then(|slots| slots.checked_add(checkers))
            .filter(|&cells| cells <= 64)
            .ok_or_else(|| {
                too_large("a side's stars and bars need more than 64 cells".to_string())
            })?;
        if checkers > usize::from(u8::MAX) {
            return Err(too_large(format!(
                "{checkers} checkers do not fit a one-byte count"
            )));
        }
        let sides = binomial(cells as u64, checkers as u64)
            .ok_or_else(|| too_large("the number of sides does not fit 64 bits".into()))?;
        let records = sides
            .checked_mul(sides)
            .ok_or_else(|| too_large(format!("{sides}² records do not fit 64 bits")))?;
        if usize::try_from(records).map_or(true, |r| r > isize::MAX as usize) {
            return Err(too_large(format!(
                "{records} records exceed this machine's address space"
            )));
        }
        let bars = Combinations::new(cells, points + 1)?;
        Ok(HyperIndex {
            points,
            checkers,
            sides,
            records,
            bars,
        })
    }

    /// Points on the board.
    pub fn points(&self) -> usize {
        self.points
    }

    /// Checkers per side.
    pub fn checkers(&self) -> usize {
        self.checkers
    }

    /// Numbered sides, `N = C(P + 1 + C, C)`.
    pub fn sides(&self) -> u64 {
        self.sides
    }

    /// Records, `N²`.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Bytes of a table of `bytes_per_record` bytes a record after a header of
    /// `header` bytes, refused when it does not fit 64 bits or this machine's address
    /// space.
    pub fn table_bytes(&self, header: u64, bytes_per_record: u64) -> Result<u64, Error> {
        self.records
            .checked_mul(bytes_per_record)
            .and_then(|b| b.checked_add(header))
            .filter(|&b| usize::try_from(b).is_ok_and(|b| b <= isize::MAX as usize))
            .ok_or_else(|| Error::TooLarge {
                points: self.points,
                checkers: self.checkers,
                reason: format!(
                    "a table of {} records of {bytes_per_record} bytes exceeds this machine's \
                     address space",
                    self.records
                ),
            })
    }

    fn side_error(&self, reason: String) -> Error {
        Error::Side {
            points: self.points,
            checkers: self.checkers,
            reason,
        }
    }

    /// The number of one side (`points + 1` slots, the bar last; the checkers not on a
    /// slot are off).
    pub fn side_rank(&self, side: &[u8]) -> Result<u64, Error> {
        if side.len() != self.points + 1 {
            return Err(self.side_error(format!(
                "{} slots given, expected {} (the points, then the bar)",
                side.len(),
                self.points + 1
            )));
        }
        let on_board: usize = side.iter().map(|&c| usize::from(c)).sum();
        if on_board > self.checkers {
            return Err(self.side_error(format!("{on_board} checkers on the board")));
        }
        // Bars from the bottom cell up: the bar's checkers, a bar, point P's checkers, a
        // bar, …, point 1's checkers, a bar; the checkers off fill the cells above.
        Ok(self.bars.rank_stars(side)?)
    }

    /// Writes the side numbered `rank` into `side` (`points + 1` slots).
    pub fn side_into(&self, rank: u64, side: &mut [u8]) -> Result<(), Error> {
        if side.len() != self.points + 1 {
            return Err(self.side_error(format!(
                "room for {} slots, expected {}",
                side.len(),
                self.points + 1
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

    /// The side numbered `rank`.
    pub fn side(&self, rank: u64) -> Result<Vec<u8>, Error> {
        let mut side = vec![0; self.points + 1];
        self.side_into(rank, &mut side)?;
        Ok(side)
    }

    /// The record of a position: `us · N + them`. Refuses a position on another board
    /// or with too many checkers; does not refuse a clash (the record exists, illegal).
    pub fn record(&self, position: &Position) -> Result<u64, Error> {
        if position.points() != self.points {
            return Err(self.side_error(format!("the position is on {} points", position.points())));
        }
        let us = self.side_rank(position.us())?;
        let them = self.side_rank(position.them())?;
        Ok(us * self.sides + them)
    }

    /// The record of a legal position; refuses one whose sides share a point.
    pub fn legal_record(&self, position: &Position) -> Result<u64, Error> {
        let record = self.record(position)?;
        match position.clash() {
            Some(point) => Err(Error::Clash { point }),
            None => Ok(record),
        }
    }

    /// The side numbers of a record, the side on roll first.
    pub fn split(&self, record: u64) -> Result<(u64, u64), Error> {
        if record >= self.records {
            return Err(Error::OutOfRange {
                what: "record",
                number: record,
                len: self.records,
            });
        }
        Ok((record / self.sides, record % self.sides))
    }

    /// The position of a record (legal or not).
    pub fn position(&self, record: u64) -> Result<Position, Error> {
        let (us, them) = self.split(record)?;
        Position::new(&self.side(us)?, &self.side(them)?)
    }

    /// The points a side holds as a mask, bit `p - 1` for its point `p` (the bar is not a
    /// point, nor is any slot beyond the board's). `mirrored` numbers them from the other
    /// side instead: bit `P - p`.
    pub fn occupied(&self, side: &[u8], mirrored: bool) -> u64 {
        side.iter()
            .take(self.points)
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .fold(0, |mask, (i, _)| {
                mask | 1 << if mirrored { self.points - 1 - i } else { i }
            })
    }

    /// Whether a record is a legal position (its sides hold no point in common).
    pub fn is_legal(&self, record: u64) -> Result<bool, Error> {
        let position = self.position(record)?;
        Ok(position.clash().is_none())
    }

    /// The counts of records and legal positions. The legal ones are counted in closed
    /// form, not by enumeration: for each `k`, the sides holding exactly `k` points times
    /// the other sides that avoid those `k` points.
    pub fn counts(&self) -> Counts {
        let p = self.points as u64;
        let c = self.checkers as u64;
        // Every binomial here is at most N or N², which fit u64 (checked in `new`).
        let b = |n: u64, k: u64| u128::from(binomial(n, k).expect("bounded by the index"));
        let mut legal: u128 = 0;
        for k in 0..=p.min(c) {
            // Sides holding exactly k points: choose them, put s ≥ k checkers on them (each
            // at least one), the other c - s on the bar or off.
            let holding: u128 = if k == 0 {
                u128::from(c + 1)
            } else {
                (k..=c)
                    .map(|s| b(p, k) * b(s - 1, k - 1) * u128::from(c - s + 1))
                    .sum()
            };
            // Other sides avoiding those k points: c checkers on p - k points and the bar.
            legal += holding * b(p + 1 - k + c, c);
        }
        Counts {
            points: self.points,
            checkers: self.checkers,
            sides: self.sides,
            records: self.records,
            legal: u64::try_from(legal).expect("legal records are records"),
        }
    }
}

/// Hypergammon's start for `checkers` checkers: each side one checker on each of its
/// points 24, 23, … (`checkers` of them), the side on roll first.
pub fn hypergammon_opening(checkers: usize) -> Result<Position, Error> {
    if checkers == 0 || checkers > GNUBG_POINTS {
        return Err(Error::Size {
            points: GNUBG_POINTS,
            checkers,
            reason: "the opening puts one checker on each of the points 24, 23, …",
        });
    }
    let mut side = vec![0u8; GNUBG_POINTS + 1];
    for slot in &mut side[GNUBG_POINTS - checkers..GNUBG_POINTS] {
        *slot = 1;
    }
    Position::new(&side, &side)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every side of `c` checkers on `p` points, in no particular order (by brute force:
    /// every count vector of `p + 1` slots with at most `c` checkers).
    fn all_sides(p: usize, c: usize) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut side = vec![0u8; p + 1];
        fn fill(i: usize, left: usize, side: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if i == side.len() {
                out.push(side.clone());
                return;
            }
            for n in 0..=left {
                side[i] = n as u8;
                fill(i + 1, left - n, side, out);
            }
            side[i] = 0;
        }
        fill(0, c, &mut side, &mut out);
        out
    }

    /// gnubg's order restated without stars and bars: compare, from point 1 up to the
    /// bar, how many checkers stand on that slot or further back.
    fn behind(side: &[u8]) -> Vec<usize> {
        (0..side.len())
            .map(|i| side[i..].iter().map(|&c| usize::from(c)).sum())
            .collect()
    }

    #[test]
    fn the_three_hypergammon_indexes_have_the_published_sizes() {
        let want = [(1, 26, 676, 652), (2, 351, 123_201, 107_253)];
        for (c, sides, records, legal) in want {
            let counts = HyperIndex::hypergammon(c).unwrap().counts();
            assert_eq!(
                (counts.sides, counts.records, counts.legal),
                (sides, records, legal)
            );
        }
        // Hypergammon-3: Tom Keith's 7,959,904 legal positions.
        let counts = HyperIndex::hypergammon(3).unwrap().counts();
        assert_eq!(counts.sides, 3276);
        assert_eq!(counts.records, 10_732_176);
        assert_eq!(counts.legal, 7_959_904);
    }

    #[test]
    fn the_closed_form_legal_count_agrees_with_enumerating_every_record() {
        let mut sizes: Vec<(usize, usize)> =
            (1..=6).flat_map(|p| (1..=4).map(move |c| (p, c))).collect();
        sizes.extend([(8, 5), (24, 1), (24, 2), (24, 3)]);
        for (p, c) in sizes {
            let index = HyperIndex::new(p, c).unwrap();
            let sides: Vec<Vec<u8>> = (0..index.sides()).map(|r| index.side(r).unwrap()).collect();
            let ours: Vec<u64> = sides.iter().map(|s| index.occupied(s, false)).collect();
            let theirs: Vec<u64> = sides.iter().map(|s| index.occupied(s, true)).collect();
            let legal = ours
                .iter()
                .map(|&u| theirs.iter().filter(|&&t| u & t == 0).count() as u64)
                .sum::<u64>();
            assert_eq!(index.counts().legal, legal, "{p} points, {c} checkers");
        }
    }

    #[test]
    fn sides_are_numbered_in_gnubgs_order_with_all_off_first() {
        for (p, c) in [(1, 1), (3, 2), (5, 3), (8, 5), (24, 1), (24, 2)] {
            let index = HyperIndex::new(p, c).unwrap();
            let mut sides = all_sides(p, c);
            assert_eq!(sides.len() as u64, index.sides());
            sides.sort_by_key(|s| behind(s));
            for (rank, side) in sides.iter().enumerate() {
                assert_eq!(index.side_rank(side).unwrap(), rank as u64, "{side:?}");
                assert_eq!(&index.side(rank as u64).unwrap(), side);
            }
            assert!(sides[0].iter().all(|&c| c == 0));
        }
    }

    #[test]
    fn one_checker_is_numbered_by_its_point_and_the_bar_last() {
        let index = HyperIndex::hypergammon(1).unwrap();
        for slot in 0..25 {
            let mut side = vec![0; 25];
            side[slot] = 1;
            assert_eq!(index.side_rank(&side).unwrap(), slot as u64 + 1);
        }
    }

    #[test]
    fn records_put_the_side_on_roll_first_and_mark_clashes_illegal() {
        let index = HyperIndex::hypergammon(1).unwrap();
        let mut us = vec![0; 25];
        let mut them = vec![0; 25];
        us[23] = 1; // our 24 point
        them[5] = 1; // their 6 point, our 19
        let position = Position::new(&us, &them).unwrap();
        let record = index.record(&position).unwrap();
        assert_eq!(record, 24 * 26 + 6);
        assert_eq!(index.position(record).unwrap(), position);
        assert!(index.is_legal(record).unwrap());
        them[5] = 0;
        them[0] = 1; // their 1 point is our 24 point
        let clash = Position::new(&us, &them).unwrap();
        assert_eq!(clash.clash(), Some(24));
        assert!(!index.is_legal(index.record(&clash).unwrap()).unwrap());
        assert!(matches!(
            index.legal_record(&clash),
            Err(Error::Clash { point: 24 })
        ));
        assert_eq!(index.legal_record(&position).unwrap(), record);
    }

    #[test]
    fn the_opening_of_hypergammon_is_a_legal_record() {
        for c in 1..=3 {
            let index = HyperIndex::hypergammon(c).unwrap();
            let opening = hypergammon_opening(c).unwrap();
            let record = index.record(&opening).unwrap();
            assert!(index.is_legal(record).unwrap());
            let (us, them) = index.split(record).unwrap();
            assert_eq!(us, them);
        }
    }

    #[test]
    fn bad_sizes_and_sides_are_refused_with_typed_errors() {
        assert!(matches!(HyperIndex::new(0, 3), Err(Error::Size { .. })));
        assert!(matches!(HyperIndex::new(24, 0), Err(Error::Size { .. })));
        // C(24 + 1 + 20, 20)² overflows 64 bits.
        assert!(matches!(
            HyperIndex::new(24, 20),
            Err(Error::TooLarge { .. })
        ));
        assert!(matches!(
            HyperIndex::new(100, 1),
            Err(Error::TooLarge { .. })
        ));
        let index = HyperIndex::hypergammon(2).unwrap();
        assert!(matches!(index.side_rank(&[0; 24]), Err(Error::Side { .. })));
        let mut crowded = vec![0; 25];
        crowded[3] = 3;
        assert!(matches!(index.side_rank(&crowded), Err(Error::Side { .. })));
        assert!(matches!(
            index.split(index.records()),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            index.side(index.sides()),
            Err(Error::OutOfRange { .. })
        ));
    }
}
