//! The card: an `s × s` grid, an optional free centre, its lines, and the patterns that
//! count as a win.
//!
//! Squares are numbered row by row, `0..s²`. The squares that hold numbers (all but a free
//! centre) are renumbered `0..c` in the same order; a set of marked squares is then a `u64`
//! mask over those `c` bits, which is what every method in this module works on.

use super::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// The card sizes the project supports.
pub const SIZES: [usize; 4] = [3, 4, 5, 7];

/// What "has won" means (`docs/bingo.md`, Patterns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// At least one full line (bingo).
    Line,
    /// Some line with at most one unmarked square (リーチ).
    Reach,
    /// At least two full lines.
    Double,
    /// At least three full lines.
    Triple,
    /// Every square marked (coverall).
    Blackout,
    /// The four corners marked.
    Corners,
    /// A full line that does not use the free square.
    Hardway,
}

impl Pattern {
    /// Every pattern, in the order of the spec.
    pub const ALL: [Pattern; 7] = [
        Pattern::Line,
        Pattern::Reach,
        Pattern::Double,
        Pattern::Triple,
        Pattern::Blackout,
        Pattern::Corners,
        Pattern::Hardway,
    ];

    /// The pattern's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Line => "line",
            Pattern::Reach => "reach",
            Pattern::Double => "double",
            Pattern::Triple => "triple",
            Pattern::Blackout => "blackout",
            Pattern::Corners => "corners",
            Pattern::Hardway => "hardway",
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Pattern {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl FromStr for Pattern {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Pattern::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Pattern::ALL.iter().map(|p| p.name()).collect();
                Error::UnknownPattern {
                    name: s.to_string(),
                    expected: names.join(", "),
                }
            })
    }
}

/// One line of the card: its numbered squares as a mask, and whether it crosses the free
/// centre.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// The line's numbered squares, bit `i` for the `i`-th numbered square.
    pub mask: u64,
    /// Whether the line crosses the free centre (such lines do not count for `hardway`).
    pub through_free: bool,
}

/// The geometry of a card (not its numbers: every method here is symmetric in them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    size: usize,
    free: bool,
    /// `bit[square]`: the bit of a numbered square, `None` for the free centre.
    bit: Vec<Option<u32>>,
    lines: Vec<Line>,
}

impl Card {
    /// A `size × size` card; `free` asks for a free centre (only odd sizes have one; it is
    /// ignored on even sizes). Sizes 3, 4, 5 and 7.
    pub fn new(size: usize, free: bool) -> Result<Card> {
        if !SIZES.contains(&size) {
            return Err(Error::CardSize { size });
        }
        let free = free && size % 2 == 1;
        let centre = (size * size) / 2;
        let mut bit = Vec::with_capacity(size * size);
        let mut next = 0u32;
        for square in 0..size * size {
            if free && square == centre {
                bit.push(None);
            } else {
                bit.push(Some(next));
                next += 1;
            }
        }
        let mut squares_of_lines: Vec<Vec<usize>> = Vec::new();
        for r in 0..size {
            squares_of_lines.push((0..size).map(|c| r * size + c).collect());
        }
        for c in 0..size {
            squares_of_lines.push((0..size).map(|r| r * size + c).collect());
        }
        squares_of_lines.push((0..size).map(|i| i * size + i).collect());
        squares_of_lines.push((0..size).map(|i| i * size + size - 1 - i).collect());
        let lines = squares_of_lines
            .iter()
            .map(|squares| Line {
                mask: squares
                    .iter()
                    .filter_map(|&q| bit[q])
                    .fold(0, |m, b| m | 1 << b),
                through_free: squares.iter().any(|&q| bit[q].is_none()),
            })
            .collect();
        Ok(Card {
            size,
            free,
            bit,
            lines,
        })
    }

    /// The side of the grid.
    pub fn size(&self) -> usize {
        self.size
    }

    /// True when the centre is free (marked from the start, holds no number).
    pub fn free(&self) -> bool {
        self.free
    }

    /// Number of squares that hold a number.
    pub fn numbered(&self) -> usize {
        self.size * self.size - usize::from(self.free)
    }

    /// The mask with every numbered square.
    pub fn full_mask(&self) -> u64 {
        if self.numbered() == 64 {
            u64::MAX
        } else {
            (1u64 << self.numbered()) - 1
        }
    }

    /// The bit of the square at `(row, col)`, `None` for the free centre.
    pub fn bit(&self, row: usize, col: usize) -> Option<u32> {
        self.bit[row * self.size + col]
    }

    /// The `2s + 2` lines: rows, columns, then the two diagonals.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The four corners as a mask.
    pub fn corners(&self) -> u64 {
        let s = self.size - 1;
        [(0, 0), (0, s), (s, 0), (s, s)]
            .iter()
            .filter_map(|&(r, c)| self.bit(r, c))
            .fold(0, |m, b| m | 1 << b)
    }

    /// The squares of column `col` as a mask (the US card's letter columns B I N G O).
    pub fn column(&self, col: usize) -> u64 {
        (0..self.size)
            .filter_map(|r| self.bit(r, col))
            .fold(0, |m, b| m | 1 << b)
    }

    /// The masks whose union of full coverage makes a win, and how many of them must be
    /// covered, for the patterns that are "at least `m` of these sets are fully marked";
    /// `None` for `reach`, which is not of that form. Inclusion–exclusion works on these.
    pub fn groups(&self, pattern: Pattern) -> Option<(Vec<u64>, usize)> {
        let all: Vec<u64> = self.lines.iter().map(|l| l.mask).collect();
        match pattern {
            Pattern::Line => Some((all, 1)),
            Pattern::Double => Some((all, 2)),
            Pattern::Triple => Some((all, 3)),
            Pattern::Hardway => Some((
                self.lines
                    .iter()
                    .filter(|l| !l.through_free)
                    .map(|l| l.mask)
                    .collect(),
                1,
            )),
            Pattern::Blackout => Some((vec![self.full_mask()], 1)),
            Pattern::Corners => Some((vec![self.corners()], 1)),
            Pattern::Reach => None,
        }
    }

    /// A test `marked mask → has won` for `pattern`, as a small value that is cheap to call
    /// in the inner loops of the enumeration and the simulation.
    pub fn judge(&self, pattern: Pattern) -> Judge {
        let (masks, need) = match self.groups(pattern) {
            Some(g) => g,
            None => (self.lines.iter().map(|l| l.mask).collect(), 1),
        };
        Judge {
            masks,
            need,
            reach: pattern == Pattern::Reach,
        }
    }

    /// True when the marked squares `mask` satisfy `pattern` (the free centre always
    /// counts as marked). The plain, obviously-correct reference the fast paths are
    /// checked against.
    pub fn wins(&self, pattern: Pattern, mask: u64) -> bool {
        let full = |l: &&Line| l.mask & mask == l.mask;
        let full_lines = self.lines.iter().filter(full).count();
        match pattern {
            Pattern::Line => full_lines >= 1,
            Pattern::Double => full_lines >= 2,
            Pattern::Triple => full_lines >= 3,
            Pattern::Reach => self
                .lines
                .iter()
                .any(|l| (l.mask & !mask).count_ones() <= 1),
            Pattern::Blackout => mask & self.full_mask() == self.full_mask(),
            Pattern::Corners => mask & self.corners() == self.corners(),
            Pattern::Hardway => self.lines.iter().filter(full).any(|l| !l.through_free),
        }
    }
}

/// A compiled win test: at least `need` of `masks` fully marked, or (reach) some mask with
/// at most one unmarked square.
#[derive(Debug, Clone)]
pub struct Judge {
    masks: Vec<u64>,
    need: usize,
    reach: bool,
}

impl Judge {
    /// True when the marked squares `mask` win.
    #[inline]
    pub fn wins(&self, mask: u64) -> bool {
        if self.reach {
            return self.masks.iter().any(|&l| (l & !mask).count_ones() <= 1);
        }
        if self.need == 1 {
            return self.masks.iter().any(|&l| l & !mask == 0);
        }
        self.masks.iter().filter(|&&l| l & mask == l).count() >= self.need
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_five_by_five_card_has_twelve_lines_and_twenty_four_numbers() {
        let card = Card::new(5, true).unwrap();
        assert_eq!(card.numbered(), 24);
        assert_eq!(card.lines().len(), 12);
        let through: Vec<_> = card.lines().iter().filter(|l| l.through_free).collect();
        assert_eq!(through.len(), 4);
        assert!(through.iter().all(|l| l.mask.count_ones() == 4));
        assert!(card
            .lines()
            .iter()
            .filter(|l| !l.through_free)
            .all(|l| l.mask.count_ones() == 5));
    }

    #[test]
    fn an_even_card_has_no_free_centre() {
        let card = Card::new(4, true).unwrap();
        assert!(!card.free());
        assert_eq!(card.numbered(), 16);
        assert_eq!(card.lines().len(), 10);
    }

    #[test]
    fn unsupported_sizes_are_refused() {
        assert!(Card::new(6, true).is_err());
        assert!(Card::new(2, true).is_err());
    }

    #[test]
    fn the_compiled_judge_agrees_with_the_plain_rules_on_every_three_by_three_mask() {
        for free in [true, false] {
            let card = Card::new(3, free).unwrap();
            for p in Pattern::ALL {
                let judge = card.judge(p);
                for mask in 0..=card.full_mask() {
                    assert_eq!(judge.wins(mask), card.wins(p, mask), "{p} {mask:#b}");
                }
            }
        }
    }

    #[test]
    fn patterns_parse_by_name_and_unknown_names_are_refused() {
        assert_eq!("hardway".parse::<Pattern>().unwrap(), Pattern::Hardway);
        assert!("diagonal".parse::<Pattern>().is_err());
    }
}
