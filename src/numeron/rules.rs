//! The rules of one game variant and its candidate space: every admissible secret (and
//! guess), numbered densely in ascending numeric order by the crate's rankers.
//!
//! Distinct digits are numbered by [`KPermutations`] (`012` → 0, …, `987` → 719 for
//! N = 3); with repeated digits allowed, by [`Words`] (`000` → 0, …, `999` → 999).
//! Each candidate is also kept packed for fast answers: one nibble per position and a
//! per-digit summary (a bit mask of its digits, or nibble counts when digits repeat).
//!
//! The same game is Mastermind when symbols repeat (`docs/numeron.md`): a [`Notation`]
//! says in whose words codes and replies are written.

use super::{Error, Result};
use crate::rank::{KPermutations, Ranker, Words};

/// How codes and replies are written: in Numeron's words or in Mastermind's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// Digits `0` to `K-1`; a reply is EAT (in place) and BITE (elsewhere), `1E2B`.
    #[default]
    Numeron,
    /// Colours `1` to `K` (or the letters `A`, `B`, …; letters only with ten colours); a
    /// reply is black pegs (in place) and white pegs (elsewhere), `1B2W`.
    Mastermind,
}

impl Notation {
    /// The word for one position of a code (`digit`, `peg`).
    pub fn position(self) -> &'static str {
        match self {
            Notation::Numeron => "digit",
            Notation::Mastermind => "peg",
        }
    }

    /// The word for a symbol (`digit`, `colour`).
    pub fn symbol(self) -> &'static str {
        match self {
            Notation::Numeron => "digit",
            Notation::Mastermind => "colour",
        }
    }

    /// The name of the count of symbols in place (`EAT`, `black`).
    pub fn in_place(self) -> &'static str {
        match self {
            Notation::Numeron => "EAT",
            Notation::Mastermind => "black",
        }
    }

    /// The name of the count of symbols elsewhere (`BITE`, `white`).
    pub fn elsewhere(self) -> &'static str {
        match self {
            Notation::Numeron => "BITE",
            Notation::Mastermind => "white",
        }
    }

    /// The letters that follow the two counts of a reply (`E`, `B`; `B`, `W`).
    pub fn letters(self) -> (u8, u8) {
        match self {
            Notation::Numeron => (b'E', b'B'),
            Notation::Mastermind => (b'B', b'W'),
        }
    }

    /// How to type a reply, for messages.
    pub fn reply_help(self) -> &'static str {
        match self {
            Notation::Numeron => "type EAT and BITE as `1 0` or `1E0B`",
            Notation::Mastermind => "type the black and white pegs as `1 2` or `1B2W`",
        }
    }

    /// The character for symbol `d` of an alphabet of `alphabet` symbols.
    pub fn symbol_char(self, d: u8, alphabet: usize) -> char {
        match self {
            Notation::Numeron => char::from(b'0' + d),
            Notation::Mastermind if alphabet <= 9 => char::from(b'1' + d),
            Notation::Mastermind => char::from(b'A' + d),
        }
    }

    /// The symbol written `c`, if it is one of an alphabet of `alphabet` symbols.
    pub fn symbol_of(self, c: char, alphabet: usize) -> Option<u8> {
        let d = match (self, c) {
            (Notation::Numeron, '0'..='9') => c as u8 - b'0',
            (Notation::Mastermind, '1'..='9') => c as u8 - b'1',
            (Notation::Mastermind, 'A'..='Z') => c as u8 - b'A',
            (Notation::Mastermind, 'a'..='z') => c as u8 - b'a',
            _ => return None,
        };
        (usize::from(d) < alphabet).then_some(d)
    }

    /// The symbols of an alphabet of `alphabet`, for messages (`0-9`, `1-6 or A-F`).
    pub fn symbols_text(self, alphabet: usize) -> String {
        let last = |first: u8| char::from(first + alphabet.saturating_sub(1) as u8);
        match self {
            Notation::Numeron => format!("0-{}", last(b'0')),
            Notation::Mastermind if alphabet <= 9 => {
                format!("1-{} or A-{}", last(b'1'), last(b'A'))
            }
            Notation::Mastermind => format!("A-{}", last(b'A')),
        }
    }
}

/// Largest number of candidates a [`Space`] accepts (10!, N = 10 with distinct digits;
/// repeated digits stop at 10^6).
pub const MAX_CANDIDATES: u64 = 3_628_800;

/// One variant of the game: how many positions, whether digits may repeat, and how many
/// digit symbols there are (10 in the game; Mastermind's 6 colours; smaller alphabets
/// also serve the tests' brute force), and in whose words it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Positions in a secret (`N`).
    pub digits: usize,
    /// Whether a secret may repeat a digit.
    pub repeats: bool,
    /// Number of digit symbols, `0..alphabet`.
    pub alphabet: usize,
    /// How codes and replies are written.
    pub notation: Notation,
}

impl Rules {
    /// The standard game with `digits` distinct digits out of ten.
    pub fn new(digits: usize) -> Rules {
        Rules {
            digits,
            repeats: false,
            alphabet: 10,
            notation: Notation::Numeron,
        }
    }

    /// Mastermind: `pegs` positions, `colours` symbols that may repeat, written in its words.
    pub fn mastermind(pegs: usize, colours: usize) -> Rules {
        Rules {
            digits: pegs,
            repeats: true,
            alphabet: colours,
            notation: Notation::Mastermind,
        }
    }

    /// The words codes and replies are written in.
    pub fn notation(self) -> Notation {
        self.notation
    }

    /// The same rules with repeated digits allowed or not.
    pub fn with_repeats(self, repeats: bool) -> Rules {
        Rules { repeats, ..self }
    }

    /// The same rules over the symbols `0..alphabet`.
    pub fn with_alphabet(self, alphabet: usize) -> Rules {
        Rules { alphabet, ..self }
    }
}

#[derive(Debug, Clone)]
enum Numbering {
    Distinct(KPermutations),
    Repeats(Words),
}

impl Numbering {
    fn ranker(&self) -> &dyn Ranker {
        match self {
            Numbering::Distinct(k) => k,
            Numbering::Repeats(w) => w,
        }
    }
}

/// The candidate space of a [`Rules`]: codes by rank, packed for fast answers.
#[derive(Debug, Clone)]
pub struct Space {
    rules: Rules,
    numbering: Numbering,
    /// Position `p` (0 = leftmost) of candidate `r` in bits `4p..4p+4` of `packed[r]`.
    packed: Vec<u64>,
    /// Distinct digits: bit `d` set when digit `d` occurs. Repeats: nibble `d` = count of `d`.
    digit_info: Vec<u64>,
}

impl Space {
    /// Builds the space; refuses N = 0, N beyond the alphabet (distinct digits), alphabets
    /// outside 1..=10 and spaces above [`MAX_CANDIDATES`].
    pub fn new(rules: Rules) -> Result<Space> {
        let Rules {
            digits: n,
            repeats,
            alphabet: a,
            ..
        } = rules;
        if !(1..=10).contains(&a) {
            return Err(Error::Alphabet {
                alphabet: a,
                symbol: rules.notation.symbol(),
            });
        }
        if n == 0 || n > 10 {
            return Err(Error::Digits {
                digits: n,
                unit: rules.notation.position(),
            });
        }
        if !repeats && n > a {
            return Err(Error::TooFewSymbols {
                digits: n,
                alphabet: a,
            });
        }
        let numbering = if repeats {
            Numbering::Repeats(Words::new(a, n)?)
        } else {
            Numbering::Distinct(KPermutations::new(a, n)?)
        };
        let len = numbering.ranker().len();
        if len > MAX_CANDIDATES {
            return Err(Error::TooManyCandidates {
                candidates: len,
                max: MAX_CANDIDATES,
                unit: rules.notation.position(),
            });
        }
        let mut packed = Vec::with_capacity(len as usize);
        let mut digit_info = Vec::with_capacity(len as usize);
        let ranker = numbering.ranker();
        let mut code = ranker.unrank(0)?;
        loop {
            packed.push(pack(&code));
            digit_info.push(summary(&code, repeats));
            if !ranker.advance(&mut code) {
                break;
            }
        }
        debug_assert_eq!(packed.len() as u64, len);
        Ok(Space {
            rules,
            numbering,
            packed,
            digit_info,
        })
    }

    /// The rules this space enumerates.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Number of positions `N`.
    pub fn digits(&self) -> usize {
        self.rules.digits
    }

    /// Number of candidates.
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    /// Never true (every space has at least one candidate); kept for clippy.
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// The packed positions of candidate `r` (nibble `p` = digit at position `p`).
    #[inline]
    pub fn packed(&self, r: u32) -> u64 {
        self.packed[r as usize]
    }

    /// The per-digit summary of candidate `r` (see the field's documentation).
    #[inline]
    pub(crate) fn digit_info(&self, r: u32) -> u64 {
        self.digit_info[r as usize]
    }

    /// The digits of candidate `r`, leftmost first.
    pub fn digits_of(&self, r: u32) -> Vec<u8> {
        let p = self.packed(r);
        (0..self.digits())
            .map(|i| (p >> (4 * i) & 15) as u8)
            .collect()
    }

    /// The rank of a sequence of digits, or `None` when it is not a candidate.
    pub fn rank_of(&self, digits: &[u8]) -> Option<u32> {
        self.numbering.ranker().rank(digits).ok().map(|r| r as u32)
    }

    /// The words codes and replies are written in.
    pub fn notation(&self) -> Notation {
        self.rules.notation
    }

    /// Candidate `r` written out (`"012"`; in Mastermind's words `"1123"`).
    pub fn format(&self, r: u32) -> String {
        let (notation, a) = (self.rules.notation, self.rules.alphabet);
        self.digits_of(r)
            .iter()
            .map(|&d| notation.symbol_char(d, a))
            .collect()
    }

    /// Parses a code such as `719` (Mastermind: `1123` or `AABC`), naming the fault when
    /// it is not a candidate. The text is taken as given: a space around the digits is a
    /// fault too (callers that read lines trim them first).
    pub fn parse(&self, text: &str) -> Result<u32> {
        let n = self.digits();
        let (notation, a) = (self.rules.notation, self.rules.alphabet);
        let mut digits = Vec::with_capacity(n);
        for c in text.chars() {
            match notation.symbol_of(c, a) {
                Some(d) => digits.push(d),
                None => {
                    return Err(Error::NotASymbol {
                        text: text.to_string(),
                        found: c,
                        symbol: notation.symbol(),
                        symbols: notation.symbols_text(a),
                    })
                }
            }
        }
        if digits.len() != n {
            return Err(Error::CodeLength {
                text: text.to_string(),
                found: digits.len(),
                expected: n,
                unit: notation.position(),
            });
        }
        if !self.rules.repeats {
            for (i, d) in digits.iter().enumerate() {
                if digits[..i].contains(d) {
                    return Err(Error::RepeatedDigit {
                        text: text.to_string(),
                        digit: *d,
                    });
                }
            }
        }
        self.rank_of(&digits).ok_or_else(|| Error::NotACandidate {
            text: text.to_string(),
        })
    }
}

fn pack(code: &[u8]) -> u64 {
    code.iter()
        .enumerate()
        .fold(0, |acc, (i, &d)| acc | u64::from(d) << (4 * i))
}

fn summary(code: &[u8], repeats: bool) -> u64 {
    code.iter().fold(0, |acc, &d| {
        if repeats {
            acc + (1u64 << (4 * d))
        } else {
            acc | 1 << d
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numeron_space_runs_from_012_to_987() {
        let s = Space::new(Rules::new(3)).unwrap();
        assert_eq!(s.len(), 720);
        assert_eq!(s.format(0), "012");
        assert_eq!(s.format(719), "987");
        assert_eq!(s.format(s.parse("719").unwrap()), "719");
    }

    #[test]
    fn repeated_digits_number_a_thousand_codes() {
        let s = Space::new(Rules::new(3).with_repeats(true)).unwrap();
        assert_eq!(s.len(), 1000);
        assert_eq!(s.parse("007").unwrap(), 7);
    }

    #[test]
    fn malformed_codes_are_refused_with_the_fault_named() {
        let s = Space::new(Rules::new(3)).unwrap();
        for (bad, fault) in [
            ("71", "has 2 digits"),
            ("7199", "has 4 digits"),
            ("7a9", "not a digit"),
            ("771", "repeats the digit 7"),
            ("719 ", "not a digit"),
            (" 719", "not a digit"),
        ] {
            let e = s.parse(bad).unwrap_err().to_string();
            assert!(e.contains(fault), "{bad}: {e}");
        }
        assert!(Space::new(Rules::new(0)).is_err());
        assert!(Space::new(Rules::new(11)).is_err());
        assert!(Space::new(Rules::new(7).with_repeats(true)).is_err());
    }

    #[test]
    fn mastermind_codes_are_colours_one_to_six_or_letters() {
        let s = Space::new(Rules::mastermind(4, 6)).unwrap();
        assert_eq!(s.len(), 1296);
        assert_eq!(
            (s.format(0), s.format(1295)),
            ("1111".into(), "6666".into())
        );
        let r = s.parse("1123").unwrap();
        assert_eq!(s.parse("aabc").unwrap(), r);
        assert_eq!(s.parse("A1bC").unwrap(), r);
        for (bad, fault) in [
            ("1237", "'7' is not a colour 1-6 or A-F"),
            ("0123", "'0' is not a colour"),
            ("123", "has 3 pegs, expected 4"),
        ] {
            let e = s.parse(bad).unwrap_err().to_string();
            assert!(e.contains(fault), "{bad}: {e}");
        }
        // Ten colours have no digit for the tenth: they are written A to J.
        let ten = Space::new(Rules::mastermind(2, 10)).unwrap();
        assert_eq!(ten.format(99), "JJ");
        assert!(ten.parse("1J").is_ok());
    }

    mod properties {
        use super::super::{Rules, Space};
        use proptest::prelude::{prop_assert, prop_assert_eq, proptest};

        proptest! {
            #[test]
            fn parsing_any_text_as_a_code_never_panics(text in "\\PC{0,20}", digits in 1usize..=4, repeats: bool) {
                let space = Space::new(Rules::new(digits).with_repeats(repeats)).unwrap();
                let _ = space.parse(&text);
            }

            #[test]
            fn every_mastermind_code_reads_back_as_itself(pegs in 1usize..=4, colours in 1usize..=10, pick: u32) {
                let space = Space::new(Rules::mastermind(pegs, colours)).unwrap();
                let r = pick % space.len() as u32;
                prop_assert_eq!(space.parse(&space.format(r)).unwrap(), r);
                prop_assert_eq!(space.parse(&space.format(r).to_lowercase()).unwrap(), r);
            }

            #[test]
            fn parsing_any_text_as_a_mastermind_code_never_panics(text in "\\PC{0,12}", colours in 1usize..=10) {
                let space = Space::new(Rules::mastermind(4, colours)).unwrap();
                let _ = space.parse(&text);
            }

            #[test]
            fn every_code_reads_back_as_itself(digits in 1usize..=4, repeats: bool, pick: u32) {
                let space = Space::new(Rules::new(digits).with_repeats(repeats)).unwrap();
                let r = pick % space.len() as u32;
                prop_assert_eq!(space.parse(&space.format(r)).unwrap(), r);
            }

            #[test]
            fn a_string_of_digits_is_a_code_exactly_when_it_fits_the_rules(text in "[0-9]{0,5}", digits in 1usize..=4, repeats: bool) {
                let space = Space::new(Rules::new(digits).with_repeats(repeats)).unwrap();
                let distinct = text.chars().collect::<std::collections::HashSet<_>>().len() == text.len();
                let fits = text.len() == digits && (repeats || distinct);
                let parsed = space.parse(&text);
                prop_assert_eq!(parsed.is_ok(), fits);
                if let Ok(r) = parsed {
                    prop_assert!(space.format(r) == text);
                }
            }
        }
    }
}
