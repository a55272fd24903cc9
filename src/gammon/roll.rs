//! A roll of the two dice (`docs/gammon.md`, "A variant").

use serde::{Serialize, Serializer};
use std::fmt;

/// A roll of two dice, kept with the smaller die first: the order the dice fell in does
/// not change the plays, only how likely the roll is ([`Roll::weight`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Roll {
    low: u8,
    high: u8,
}

impl Roll {
    /// The roll of dice `a` and `b`, in either order.
    #[inline]
    pub const fn new(a: u8, b: u8) -> Roll {
        if a <= b {
            Roll { low: a, high: b }
        } else {
            Roll { low: b, high: a }
        }
    }

    /// The smaller die.
    #[inline]
    pub const fn low(self) -> u8 {
        self.low
    }

    /// The larger die.
    #[inline]
    pub const fn high(self) -> u8 {
        self.high
    }

    /// Both dice show the same face: each die is played twice.
    #[inline]
    pub const fn is_double(self) -> bool {
        self.low == self.high
    }

    /// Whether a die of the roll moves a checker (a face 0 moves nothing).
    #[inline]
    pub const fn moves(self) -> bool {
        self.high > 0
    }

    /// How many of the equally likely ordered rolls fall as this one: 1 for a double,
    /// 2 otherwise.
    #[inline]
    pub const fn weight(self) -> u32 {
        if self.is_double() {
            1
        } else {
            2
        }
    }
}

impl fmt::Display for Roll {
    /// `low-high`, as the notation writes a roll (`1-2`, `6-6`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.low, self.high)
    }
}

impl Serialize for Roll {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roll_keeps_the_smaller_die_first_and_weighs_doubles_once() {
        let r = Roll::new(6, 5);
        assert_eq!((r.low(), r.high(), r.weight()), (5, 6, 2));
        assert_eq!(r, Roll::new(5, 6));
        assert_eq!(r.to_string(), "5-6");
        assert_eq!(Roll::new(3, 3).weight(), 1);
        assert!(!Roll::new(0, 0).moves() && Roll::new(0, 1).moves());
    }
}
