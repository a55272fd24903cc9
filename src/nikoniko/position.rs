//! A NikoNiko Gammon position, always seen from the side on roll.

use std::fmt;

/// Locations of one side, in its own numbering: 0 = borne off, 1..=8 = points, 9 = bar.
pub const LOCATIONS: usize = 10;
/// The bar's location.
pub const BAR: usize = 9;
/// Checkers a side.
pub const CHECKERS: u8 = 5;
/// Points on the board.
pub const POINTS: usize = 8;

/// Checker counts per location (0 off, 1..=8 points, 9 bar) for one side, in its own
/// numbering.
pub type Side = [u8; LOCATIONS];

/// A position: the side on roll (`me`) and its opponent (`opp`), each in its own
/// numbering. A side's point `p` is the other side's point `9 - p`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The side on roll, in its own numbering.
    pub me: Side,
    /// The opponent, in its own numbering.
    pub opp: Side,
}

/// Why a pair of sides is not a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// A side does not have exactly [`CHECKERS`] checkers.
    Count {
        /// Which side: "the side on roll" or "the opponent".
        side: &'static str,
        /// The checkers it has, on the board, on the bar and borne off.
        found: u32,
    },
    /// A side has borne off every checker, so the game is already over.
    NothingInPlay {
        /// Which side: "the side on roll" or "the opponent".
        side: &'static str,
    },
    /// Both sides have checkers on the same point.
    SharedPoint {
        /// The point, 1–8, in the numbering of the side on roll.
        point: usize,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Count { side, found } => {
                write!(f, "{side} has {found} checkers, expected {CHECKERS}")
            }
            Fault::NothingInPlay { side } => write!(f, "{side} has no checker in play"),
            Fault::SharedPoint { point } => write!(
                f,
                "point {point} of the side on roll (the opponent's {}) is held by both sides",
                9 - point
            ),
        }
    }
}

impl Position {
    /// The opening position: 2 checkers on 8, 1 on 5, 2 on 2, for each side.
    pub const OPENING: Position = Position {
        me: [0, 0, 2, 0, 0, 1, 0, 0, 2, 0],
        opp: [0, 0, 2, 0, 0, 1, 0, 0, 2, 0],
    };

    /// Builds a position and checks it is a state of the game (both sides with 5
    /// checkers, at least one in play, no point held by both).
    pub fn new(me: Side, opp: Side) -> Result<Position, Fault> {
        let p = Position { me, opp };
        p.check()?;
        Ok(p)
    }

    /// Checks the invariants of a state (see [`Position::new`]).
    pub fn check(&self) -> Result<(), Fault> {
        for (side, v) in [("the side on roll", &self.me), ("the opponent", &self.opp)] {
            let found: u32 = v.iter().map(|&c| u32::from(c)).sum();
            if found != u32::from(CHECKERS) {
                return Err(Fault::Count { side, found });
            }
            if v[0] == CHECKERS {
                return Err(Fault::NothingInPlay { side });
            }
        }
        match (1..=POINTS).find(|&p| self.me[p] > 0 && self.opp[9 - p] > 0) {
            Some(point) => Err(Fault::SharedPoint { point }),
            None => Ok(()),
        }
    }

    /// The same board with the other side on roll.
    pub fn swap(&self) -> Position {
        Position {
            me: self.opp,
            opp: self.me,
        }
    }

    /// Pip count of the side on roll (a checker on point p needs p pips, on the bar 9).
    pub fn my_pips(&self) -> u32 {
        pips(&self.me)
    }

    /// Pip count of the opponent.
    pub fn opp_pips(&self) -> u32 {
        pips(&self.opp)
    }
}

/// Pip count of one side.
pub fn pips(side: &Side) -> u32 {
    side.iter()
        .enumerate()
        .map(|(loc, &c)| loc as u32 * u32::from(c))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_position_is_a_state_with_25_pips_a_side() {
        Position::OPENING.check().unwrap();
        assert_eq!(Position::OPENING.my_pips(), 25);
        assert_eq!(Position::OPENING.opp_pips(), 25);
        assert_eq!(Position::OPENING.swap(), Position::OPENING);
    }

    #[test]
    fn a_point_held_by_both_sides_is_refused() {
        let mut me = [4, 1, 0, 0, 0, 0, 0, 0, 0, 0];
        let opp = [4, 0, 0, 0, 0, 0, 0, 0, 1, 0];
        assert_eq!(Position::new(me, opp), Err(Fault::SharedPoint { point: 1 }));
        me = [4, 0, 1, 0, 0, 0, 0, 0, 0, 0];
        assert!(Position::new(me, opp).is_ok());
    }

    #[test]
    fn wrong_counts_and_finished_sides_are_refused() {
        let five_off = [5, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let ok = [4, 0, 1, 0, 0, 0, 0, 0, 0, 0];
        assert!(matches!(
            Position::new(five_off, ok),
            Err(Fault::NothingInPlay { .. })
        ));
        assert!(matches!(
            Position::new([0, 0, 0, 0, 0, 0, 0, 0, 0, 6], ok),
            Err(Fault::Count { found: 6, .. })
        ));
    }
}
