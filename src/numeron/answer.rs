//! Answers: EAT (right digit, right place) and BITE (right digit, other place), computed
//! from the packed codes with a few word operations, and tabulated when the table fits.
//!
//! An answer is stored as one byte, `eat · (N + 1) + bite`, so a guess partitions the
//! candidates into at most `(N + 1)²` classes indexed by that byte.

use super::rules::{Notation, Space};
use super::{Error, Result};
use rayon::prelude::*;

/// An answer to a guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Answer {
    /// Digits right and in the right place.
    pub eat: u8,
    /// Digits in the secret but in another place.
    pub bite: u8,
}

impl Answer {
    /// The byte code of this answer for `n` positions.
    #[inline]
    pub fn code(self, n: usize) -> u8 {
        self.eat * (n as u8 + 1) + self.bite
    }

    /// The answer of byte code `c` for `n` positions.
    #[inline]
    pub fn from_code(c: u8, n: usize) -> Answer {
        Answer {
            eat: c / (n as u8 + 1),
            bite: c % (n as u8 + 1),
        }
    }

    /// This reply written out in the words of `notation` (`1E2B`, `1B2W`).
    pub fn written(self, notation: Notation) -> String {
        let (x, y) = notation.letters();
        format!(
            "{}{}{}{}",
            self.eat,
            char::from(x),
            self.bite,
            char::from(y)
        )
    }

    /// The winning answer: `n` EAT.
    pub fn win(n: usize) -> Answer {
        Answer {
            eat: n as u8,
            bite: 0,
        }
    }

    /// Parses a reply in Numeron's words: two numbers, EAT then BITE, apart by spaces, a
    /// comma, a slash or a dash (`1 0`, `1,0`, `1-0`); two single digits run together
    /// (`10`); or each number followed by its letter, `E` for EAT and `B` for BITE, in
    /// either order and either case (`1E0B`, `0b 1e`). A reply no code of `n` digits can
    /// get is refused.
    pub fn parse(text: &str, n: usize) -> Result<Answer> {
        Answer::parse_in(text, n, Notation::Numeron)
    }

    /// Parses a reply as [`Answer::parse`] in the words of `notation`: in Mastermind's,
    /// black pegs then white pegs, the letters `B` and `W` (`1 2`, `12`, `1B2W`, `2w 1b`).
    pub fn parse_in(text: &str, n: usize, notation: Notation) -> Result<Answer> {
        let t = text.trim();
        let (eat, bite) = Self::read(t, notation.letters()).ok_or_else(|| Error::NotAnAnswer {
            text: t.to_string(),
            help: notation.reply_help(),
        })?;
        let a = Answer { eat, bite };
        if usize::from(eat) + usize::from(bite) > n {
            return Err(Error::AnswerTooLarge {
                reply: a.written(notation),
                in_place: notation.in_place(),
                elsewhere: notation.elsewhere(),
                digits: n,
                unit: notation.position(),
            });
        }
        if n >= 1 && usize::from(eat) == n - 1 && bite == 1 {
            return Err(Error::LastDigitElsewhere {
                reply: a.written(notation),
                in_place: eat,
                unit: notation.position(),
            });
        }
        Ok(a)
    }

    /// The two counts read from a reply whose lettered form uses `letters` (in place,
    /// elsewhere; upper case), or `None` when it follows no accepted form.
    fn read(t: &str, letters: (u8, u8)) -> Option<(u8, u8)> {
        let (first, second) = letters;
        let bytes = t.as_bytes();
        if bytes.len() == 2 && bytes.iter().all(u8::is_ascii_digit) {
            return Some((bytes[0] - b'0', bytes[1] - b'0'));
        }
        // Numbers, each with the letter after it (if any), the separators between them.
        let mut items: Vec<(u8, Option<u8>)> = Vec::new();
        let mut separators = 0;
        let mut rest = t;
        while !rest.is_empty() {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 {
                let c = rest.chars().next()?;
                if c.is_whitespace() {
                    rest = &rest[c.len_utf8()..];
                    continue;
                }
                if matches!(c, ',' | '/' | '-') && items.len() == 1 && separators == 0 {
                    separators += 1;
                    rest = &rest[1..];
                    continue;
                }
                return None;
            }
            if digits > 2 {
                return None;
            }
            let value: u8 = rest[..digits].parse().ok()?;
            rest = &rest[digits..];
            let letter = match rest.bytes().next().map(|c| c.to_ascii_uppercase()) {
                Some(c) if c == first || c == second => {
                    rest = &rest[1..];
                    Some(c)
                }
                _ => None,
            };
            items.push((value, letter));
        }
        match items.as_slice() {
            [(e, None), (b, None)] => Some((*e, *b)),
            [(e, Some(x)), (b, Some(y))] if separators == 0 && *x == first && *y == second => {
                Some((*e, *b))
            }
            [(b, Some(y)), (e, Some(x))] if separators == 0 && *x == first && *y == second => {
                Some((*e, *b))
            }
            _ => None,
        }
    }
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}E{}B", self.eat, self.bite)
    }
}

/// Low bit of each of the first `n` nibbles.
#[inline]
fn nibble_ones(n: usize) -> u64 {
    0x1111_1111_1111_1111u64 & ((1u64 << (4 * n)) - 1)
}

/// The answer code of `guess` against `secret` (ranks in `space`), from the packed forms:
/// EAT counts equal nibbles, the common digits come from the digit masks (or counts).
#[inline]
pub fn answer_code(space: &Space, guess: u32, secret: u32) -> u8 {
    let n = space.digits();
    let x = space.packed(guess) ^ space.packed(secret);
    let differ = (x | x >> 1 | x >> 2 | x >> 3) & nibble_ones(n);
    let eat = n as u32 - differ.count_ones();
    let (a, b) = (space.digit_info(guess), space.digit_info(secret));
    let common = if space.rules().repeats {
        (0..10)
            .map(|d| (a >> (4 * d) & 15).min(b >> (4 * d) & 15))
            .sum::<u64>() as u32
    } else {
        (a & b).count_ones()
    };
    (eat * (n as u32 + 1) + common - eat) as u8
}

/// The answer of `guess` against `secret`.
pub fn answer(space: &Space, guess: u32, secret: u32) -> Answer {
    Answer::from_code(answer_code(space, guess, secret), space.digits())
}

/// Largest table kept in memory: 10,000² answers (100 MB: four digits with repeats, or
/// Mastermind with five pegs and six colours, 7,776 codes).
pub const MAX_TABLE_CELLS: usize = 10_000 * 10_000;

/// Every answer of every guess against every secret, row per guess (one byte each).
#[derive(Debug, Clone)]
pub struct AnswerTable {
    len: usize,
    cells: Vec<u8>,
}

impl AnswerTable {
    /// Builds the table in parallel (rows are independent), or `None` when it would exceed
    /// [`MAX_TABLE_CELLS`].
    pub fn build(space: &Space) -> Option<AnswerTable> {
        let len = space.len();
        if len.checked_mul(len)? > MAX_TABLE_CELLS {
            return None;
        }
        let mut cells = vec![0u8; len * len];
        cells.par_chunks_mut(len).enumerate().for_each(|(g, row)| {
            for (s, cell) in row.iter_mut().enumerate() {
                *cell = answer_code(space, g as u32, s as u32);
            }
        });
        Some(AnswerTable { len, cells })
    }

    /// The answers of `guess` against every secret, by secret rank.
    #[inline]
    pub fn row(&self, guess: u32) -> &[u8] {
        let g = guess as usize;
        &self.cells[g * self.len..(g + 1) * self.len]
    }
}

/// Answers from the table when there is one, else computed on the fly.
#[derive(Clone, Copy)]
pub struct Oracle<'a> {
    /// The candidate space.
    pub space: &'a Space,
    /// The table, when it fits.
    pub table: Option<&'a AnswerTable>,
}

impl<'a> Oracle<'a> {
    /// The answer code of `guess` against `secret`.
    #[inline]
    pub fn code(&self, guess: u32, secret: u32) -> u8 {
        match self.table {
            Some(t) => t.row(guess)[secret as usize],
            None => answer_code(self.space, guess, secret),
        }
    }

    /// Number of distinct answer codes (`(N + 1)²`).
    pub fn codes(&self) -> usize {
        (self.space.digits() + 1).pow(2)
    }

    /// The winning answer's code.
    pub fn win(&self) -> u8 {
        Answer::win(self.space.digits()).code(self.space.digits())
    }

    /// Counts of each answer code of `guess` over `set`, in `counts` (cleared first).
    #[inline]
    pub fn count_into(&self, guess: u32, set: &[u32], counts: &mut [u32]) {
        counts.iter_mut().for_each(|c| *c = 0);
        match self.table {
            Some(t) => {
                let row = t.row(guess);
                for &s in set {
                    counts[row[s as usize] as usize] += 1;
                }
            }
            None => {
                for &s in set {
                    counts[answer_code(self.space, guess, s) as usize] += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::Rules;
    use super::*;

    /// The definition of `docs/numeron.md`, position by position.
    fn naive(g: &[u8], s: &[u8], repeats: bool) -> Answer {
        let eat = g.iter().zip(s).filter(|(a, b)| a == b).count();
        let common = if repeats {
            (0..10u8)
                .map(|d| {
                    let cg = g.iter().filter(|&&x| x == d).count();
                    let cs = s.iter().filter(|&&x| x == d).count();
                    cg.min(cs)
                })
                .sum::<usize>()
        } else {
            g.iter().filter(|d| s.contains(d)).count()
        };
        Answer {
            eat: eat as u8,
            bite: (common - eat) as u8,
        }
    }

    #[test]
    fn fast_answers_agree_with_the_position_by_position_count() {
        for rules in [
            Rules::new(3),
            Rules::new(3).with_repeats(true),
            Rules::new(2).with_alphabet(5),
        ] {
            let space = Space::new(rules).unwrap();
            let table = AnswerTable::build(&space).unwrap();
            for g in 0..space.len() as u32 {
                for s in 0..space.len() as u32 {
                    let want = naive(&space.digits_of(g), &space.digits_of(s), rules.repeats);
                    assert_eq!(answer(&space, g, s), want);
                    assert_eq!(table.row(g)[s as usize], want.code(space.digits()));
                }
            }
        }
    }

    #[test]
    fn answers_parse_in_both_notations_and_impossible_ones_are_refused() {
        assert_eq!(Answer::parse("1 0", 3).unwrap(), Answer { eat: 1, bite: 0 });
        assert_eq!(
            Answer::parse("1E2B", 3).unwrap(),
            Answer { eat: 1, bite: 2 }
        );
        assert_eq!(
            Answer::parse("0e1b", 3).unwrap(),
            Answer { eat: 0, bite: 1 }
        );
        assert_eq!(Answer::parse("30", 3).unwrap(), Answer { eat: 3, bite: 0 });
        assert!(Answer::parse("2 1", 3)
            .unwrap_err()
            .to_string()
            .contains("impossible"));
        assert!(Answer::parse("2 2", 3)
            .unwrap_err()
            .to_string()
            .contains("cannot exceed"));
        assert!(Answer::parse("x", 3).is_err());
        assert!(Answer::parse("", 3).is_err());
        assert!(Answer::parse("1 2 3", 3).is_err());
    }

    #[test]
    fn mastermind_replies_are_black_then_white_pegs() {
        let m = Notation::Mastermind;
        let a = Answer { eat: 1, bite: 2 };
        assert_eq!(a.written(m), "1B2W");
        for text in ["1B2W", "2w1b", "1b 2w", "1 2", "12", "1,2"] {
            assert_eq!(Answer::parse_in(text, 4, m).unwrap(), a, "{text}");
        }
        // Numeron's letters are not Mastermind's: E is no peg, and B is black, not BITE.
        assert!(Answer::parse_in("1E2B", 4, m).is_err());
        assert_eq!(
            Answer::parse_in("2B", 4, m).map_err(|e| e.to_string()),
            Err("\"2B\" is not an answer: type the black and white pegs as `1 2` or `1B2W`".into())
        );
        let e = Answer::parse_in("3B1W", 4, m).unwrap_err().to_string();
        assert!(e.contains("when 3 pegs are in place"), "{e}");
        let e = Answer::parse_in("3 2", 4, m).unwrap_err().to_string();
        assert_eq!(e, "3B2W is impossible: black + white cannot exceed 4 pegs");
    }

    mod properties {
        use super::super::Answer;
        use proptest::prelude::{prop_assert, prop_assert_eq, proptest};

        proptest! {
            #[test]
            fn parsing_any_text_never_panics(text in "\\PC{0,30}", n in 0usize..=10) {
                let _ = Answer::parse(&text, n);
            }

            #[test]
            fn a_parsed_reply_is_always_possible(text in "[0-9eEbB ,/\\-]{0,10}", n in 1usize..=10) {
                if let Ok(a) = Answer::parse(&text, n) {
                    prop_assert!(usize::from(a.eat) + usize::from(a.bite) <= n);
                    prop_assert!(!(usize::from(a.eat) == n - 1 && a.bite == 1));
                }
            }

            #[test]
            fn a_printed_reply_reads_back_the_same(n in 1usize..=10, eat in 0u8..=10, bite in 0u8..=10) {
                let a = Answer { eat, bite };
                let possible = usize::from(eat) + usize::from(bite) <= n
                    && !(usize::from(eat) == n - 1 && bite == 1);
                prop_assert_eq!(Answer::parse(&a.to_string(), n).ok(), possible.then_some(a));
                let swapped = format!("{bite}b{eat}e");
                prop_assert_eq!(Answer::parse(&swapped, n).ok(), possible.then_some(a));
                prop_assert_eq!(Answer::parse(&format!("{eat} {bite}"), n).ok(), possible.then_some(a));
            }
        }
    }
}
