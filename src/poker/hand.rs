//! A hand: five letters of 大石泉すき, with repetition, in order. Hands are numbered
//! `0..3125` by the ranking engine ([`Words`] over the five letters, lexicographic in the
//! name's order), which is also the order of the article's `itertools.product`
//! (`docs/izumi-poker.md`).

use super::Error;
use crate::rank::{Ranker, Words};
use std::fmt;
use std::sync::OnceLock;

/// The five characters, in the name's order: letter `i` of a hand is `CHARS[i]`.
pub const CHARS: [char; 5] = ['大', '石', '泉', 'す', 'き'];

/// The romanised letters accepted for each character (大=o, 石=i, 泉=z, す=s, き=k).
pub const ROMAJI: [char; 5] = ['o', 'i', 'z', 's', 'k'];

/// Stroke counts as the article takes them: 大 3, 石 5, 泉 9, す 2, き 4.
pub const STROKES: [u8; 5] = [3, 5, 9, 2, 4];

/// Letter of す and of き, the two halves of the `すき` pair.
pub const SU: u8 = 3;
/// Letter of き.
pub const KI: u8 = 4;

/// Number of letters in a hand.
pub const WIDTH: usize = 5;

/// Number of hands, 5^5.
pub const HANDS: usize = 3125;

/// A hand: `letters[i]` in `0..5` indexes [`CHARS`]; letter `i` sits at position `i + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hand {
    letters: [u8; WIDTH],
}

/// The ranker numbering all hands (5-letter words over 5 letters).
pub fn ranker() -> &'static Words {
    static WORDS: OnceLock<Words> = OnceLock::new();
    WORDS.get_or_init(|| Words::new(5, WIDTH).expect("5^5 fits a u64"))
}

impl Hand {
    /// The hand with these letters; `None` if a letter is not in `0..5`.
    pub fn from_letters(letters: [u8; WIDTH]) -> Option<Hand> {
        letters.iter().all(|&l| l < 5).then_some(Hand { letters })
    }

    /// The hand numbered `index` (`0..3125`); `None` out of range.
    pub fn from_index(index: usize) -> Option<Hand> {
        let mut letters = [0u8; WIDTH];
        ranker().unrank_into(index as u64, &mut letters).ok()?;
        Some(Hand { letters })
    }

    /// The hand's number in `0..3125`.
    pub fn index(&self) -> usize {
        ranker()
            .rank(&self.letters)
            .expect("a hand's letters are always in range") as usize
    }

    /// The letters, position 1 first.
    pub fn letters(&self) -> [u8; WIDTH] {
        self.letters
    }

    /// The hand in romanised letters, e.g. `oizsk`.
    pub fn romaji(&self) -> String {
        self.letters.iter().map(|&l| ROMAJI[l as usize]).collect()
    }

    /// Parses a hand written with the characters 大石泉すき or the letters `oizsk` (the two
    /// may be mixed). Anything else is refused with a message naming the fault.
    pub fn parse(text: &str) -> Result<Hand, Error> {
        let mut letters = Vec::with_capacity(WIDTH);
        for (i, c) in text.chars().enumerate() {
            let letter = CHARS
                .iter()
                .position(|&k| k == c)
                .or_else(|| ROMAJI.iter().position(|&r| r == c))
                .ok_or_else(|| Error::UnknownCharacter {
                    text: text.to_string(),
                    character: c,
                    position: i + 1,
                })?;
            letters.push(letter as u8);
        }
        let letters: [u8; WIDTH] = letters
            .try_into()
            .map_err(|v: Vec<u8>| Error::WrongLength {
                text: text.to_string(),
                length: v.len(),
            })?;
        Ok(Hand { letters })
    }

    /// Every hand, in index order.
    pub fn all() -> impl Iterator<Item = Hand> {
        ranker().iter().map(|v| Hand {
            letters: v.try_into().expect("the ranker yields 5 letters"),
        })
    }
}

impl fmt::Display for Hand {
    /// The hand in characters, e.g. `大石泉すき`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &l in &self.letters {
            write!(f, "{}", CHARS[l as usize])?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Hand {
    type Err = Error;

    fn from_str(s: &str) -> Result<Hand, Error> {
        Hand::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_hand_194_in_either_spelling() {
        let h = Hand::parse("大石泉すき").unwrap();
        assert_eq!(h, Hand::parse("oizsk").unwrap());
        assert_eq!(h.index(), 194);
        assert_eq!(h.to_string(), "大石泉すき");
        assert_eq!(h.romaji(), "oizsk");
    }

    #[test]
    fn every_index_round_trips_and_follows_itertools_product_order() {
        let all: Vec<Hand> = Hand::all().collect();
        assert_eq!(all.len(), HANDS);
        for (i, h) in all.iter().enumerate() {
            assert_eq!(h.index(), i);
            assert_eq!(Hand::from_index(i), Some(*h));
            // product('大石泉すき', repeat=5): the last letter varies fastest.
            let expected: Vec<u8> = (0..5)
                .rev()
                .map(|p| ((i / 5usize.pow(p)) % 5) as u8)
                .collect();
            assert_eq!(h.letters().to_vec(), expected);
        }
        assert_eq!(Hand::from_index(HANDS), None);
    }

    #[test]
    fn mixed_spellings_are_accepted_and_strangers_refused() {
        assert_eq!(
            Hand::parse("大iz すk".replace(' ', "").as_str())
                .unwrap()
                .romaji(),
            "oizsk"
        );
        let e = Hand::parse("す泉太すき").unwrap_err().to_string();
        assert!(e.contains("'太'") && e.contains("position 3"), "{e}");
        let e = Hand::parse("oiz").unwrap_err().to_string();
        assert!(e.contains("has 3 characters"), "{e}");
        assert!(Hand::parse("").is_err());
        assert!(Hand::parse("oizskk").is_err());
        assert!(Hand::parse("OIZSK").is_err());
    }
}
