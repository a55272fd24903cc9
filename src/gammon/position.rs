//! A position of the family, always seen from the side on roll (`docs/gammon.md`,
//! "Positions").

use super::variant::MAX_POINTS;
use super::Error;

/// Slots a side has at most: the points of the largest board, then the bar.
pub const MAX_SLOTS: usize = MAX_POINTS + 1;

/// A position on a board of `P` points, the side on roll first.
///
/// Each side is a count vector of `P + 1` *slots* in that side's own numbering: slot
/// `i` holds its checkers on its point `i + 1` (point 1 is the deepest point of its home
/// board), slot `P` its checkers on the bar; checkers on no slot are borne off. The two
/// sides face each other: the side on roll's point `p` is the other side's point
/// `P + 1 - p`. The value is small and `Copy`: a move generator makes millions of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    points: u8,
    us: [u8; MAX_SLOTS],
    them: [u8; MAX_SLOTS],
}

impl Position {
    /// A position from the two sides' slots (`P + 1` each, the bar last), the side on
    /// roll first. Refuses sides of different lengths, or too short or too long for a
    /// board of 1 to [`MAX_POINTS`] points; does not look at the checker counts or at
    /// clashes (see [`Position::clash`] and [`super::notation::check`]).
    pub fn new(us: &[u8], them: &[u8]) -> Result<Self, Error> {
        if us.len() != them.len() || us.len() < 2 || us.len() > MAX_SLOTS {
            return Err(Error::Position {
                reason: format!(
                    "the sides have {} and {} slots; both need the same number, 2 to \
                     {MAX_SLOTS} (the points, then the bar)",
                    us.len(),
                    them.len()
                ),
            });
        }
        let mut p = Position {
            points: (us.len() - 1) as u8,
            us: [0; MAX_SLOTS],
            them: [0; MAX_SLOTS],
        };
        p.us[..us.len()].copy_from_slice(us);
        p.them[..them.len()].copy_from_slice(them);
        Ok(p)
    }

    /// Points on the board.
    #[inline]
    pub fn points(&self) -> usize {
        usize::from(self.points)
    }

    /// The side on roll's slots (its points 1..=P, then its bar).
    #[inline]
    pub fn us(&self) -> &[u8] {
        &self.us[..=self.points()]
    }

    /// The other side's slots, in its own numbering.
    #[inline]
    pub fn them(&self) -> &[u8] {
        &self.them[..=self.points()]
    }

    /// The side on roll's slots, to change.
    #[inline]
    pub(crate) fn us_mut(&mut self) -> &mut [u8] {
        let n = self.points() + 1;
        &mut self.us[..n]
    }

    /// The other side's slots, to change.
    #[inline]
    pub(crate) fn them_mut(&mut self) -> &mut [u8] {
        let n = self.points() + 1;
        &mut self.them[..n]
    }

    /// The same position with the other side on roll.
    #[inline]
    pub fn swapped(&self) -> Position {
        Position {
            points: self.points,
            us: self.them,
            them: self.us,
        }
    }

    /// The lowest point (in the side on roll's numbering) that both sides hold, if any;
    /// the bar never clashes.
    pub fn clash(&self) -> Option<usize> {
        let p = self.points();
        (1..=p).find(|&point| self.us[point - 1] > 0 && self.them[p - point] > 0)
    }

    /// Pip counts, the side on roll first: a checker on point `p` needs `p` pips, one on
    /// the bar `P + 1`.
    pub fn pips(&self) -> [u32; 2] {
        let pips = |s: &[u8]| {
            s.iter()
                .enumerate()
                .map(|(i, &c)| (i as u32 + 1) * u32::from(c))
                .sum()
        };
        [pips(self.us()), pips(self.them())]
    }

    /// Checkers of the side on roll still on the board or the bar.
    #[inline]
    pub fn us_in_play(&self) -> usize {
        self.us().iter().map(|&c| usize::from(c)).sum()
    }

    /// Checkers of the other side still on the board or the bar.
    #[inline]
    pub fn them_in_play(&self) -> usize {
        self.them().iter().map(|&c| usize::from(c)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_keeps_its_slots_and_swaps_sides() {
        let p = Position::new(&[0, 2, 1], &[1, 0, 0]).unwrap();
        assert_eq!(
            (p.points(), p.us(), p.them()),
            (2, &[0, 2, 1][..], &[1, 0, 0][..])
        );
        assert_eq!(p.swapped().us(), &[1, 0, 0]);
        assert_eq!(p.swapped().swapped(), p);
        // Point 2 of the side on roll is the other side's point 1, which it holds.
        assert_eq!(p.clash(), Some(2));
        assert_eq!(p.pips(), [2 * 2 + 3, 1]);
        assert_eq!((p.us_in_play(), p.them_in_play()), (3, 1));
    }

    #[test]
    fn sides_of_different_or_impossible_lengths_are_refused() {
        assert!(Position::new(&[0, 1], &[0, 1, 0]).is_err());
        assert!(Position::new(&[1], &[1]).is_err());
        assert!(Position::new(&[0; MAX_SLOTS + 1], &[0; MAX_SLOTS + 1]).is_err());
        assert!(Position::new(&[0; MAX_SLOTS], &[0; MAX_SLOTS]).is_ok());
    }
}
