//! A position of the family: the two sides' checkers, each side in its own numbering.

use super::Error;
use serde::Serialize;

/// A position on a board of `points` points, the side on roll first.
///
/// Each side is a count vector of `points + 1` slots in that side's own numbering:
/// `side[i]` checkers on its point `i + 1` (point 1 is the deepest point of its home
/// board), `side[points]` checkers on the bar; checkers on no slot are borne off. The two
/// sides face each other: the side on roll's point `p` is the other side's point
/// `points + 1 - p`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Position {
    us: Vec<u8>,
    them: Vec<u8>,
}

impl Position {
    /// A position from the two sides' slots (`points + 1` each, the bar last), the side on
    /// roll first. Refuses sides of different or too short lengths; does not look at the
    /// checker counts or at clashes (see [`Position::clash`]).
    pub fn new(us: Vec<u8>, them: Vec<u8>) -> Result<Self, Error> {
        if us.len() != them.len() || us.len() < 2 {
            return Err(Error::Position {
                reason: format!(
                    "the sides have {} and {} slots; both need the same number, at least 2 \
                     (the points, then the bar)",
                    us.len(),
                    them.len()
                ),
            });
        }
        Ok(Position { us, them })
    }

    /// Points on the board.
    pub fn points(&self) -> usize {
        self.us.len() - 1
    }

    /// The side on roll's slots (its points 1..=P, then its bar).
    pub fn us(&self) -> &[u8] {
        &self.us
    }

    /// The other side's slots, in its own numbering.
    pub fn them(&self) -> &[u8] {
        &self.them
    }

    /// The same position with the other side on roll.
    pub fn swapped(&self) -> Position {
        Position {
            us: self.them.clone(),
            them: self.us.clone(),
        }
    }

    /// The lowest point (in the side on roll's numbering) that both sides hold, if any;
    /// the bar never clashes.
    pub fn clash(&self) -> Option<usize> {
        let p = self.points();
        (1..=p).find(|&point| self.us[point - 1] > 0 && self.them[p - point] > 0)
    }
}
