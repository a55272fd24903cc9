//! Cards, hands and hand values.
//!
//! The deck has 50 cards: the digits 0–9, five of each. A card is numbered `0..50`; card
//! `c` shows the digit `c / 5`, and its copy number `c % 5` fixes its coins: copies 0–2
//! carry 1 coin, copy 3 carries 2, copy 4 carries 3. A hand of three cards is worth the
//! number its digits make in descending order, except that three zeros are worth 1000.

use super::{Error, Result};

/// A card, `0..50`.
pub type Card = u8;

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 50;
/// Number of digits.
pub const DIGITS: usize = 10;
/// Copies of each digit.
pub const COPIES: u8 = 5;
/// The value of three zeros, the highest hand and the highest call.
pub const TOP: u16 = 1000;
/// The mask of every card of the deck.
pub const FULL_DECK: u64 = (1u64 << DECK_SIZE) - 1;

const COINS_OF_COPY: [u8; 5] = [1, 1, 1, 2, 3];

/// The digit a card shows.
#[inline]
pub fn digit(card: Card) -> u8 {
    card / COPIES
}

/// The coins a card carries (1, 2 or 3).
#[inline]
pub fn coins(card: Card) -> u8 {
    COINS_OF_COPY[usize::from(card % COPIES)]
}

/// The value of three digits given in any order.
#[inline]
pub fn digits_value(a: u8, b: u8, c: u8) -> u16 {
    VALUES[usize::from(a) * 100 + usize::from(b) * 10 + usize::from(c)]
}

/// The value of a hand of three cards.
#[inline]
pub fn hand_value(hand: &[Card; 3]) -> u16 {
    digits_value(digit(hand[0]), digit(hand[1]), digit(hand[2]))
}

/// The coins on a hand of three cards (3 to 9): the life a losing player gives up.
#[inline]
pub fn hand_coins(hand: &[Card; 3]) -> u8 {
    coins(hand[0]) + coins(hand[1]) + coins(hand[2])
}

/// The bit mask of a set of cards.
#[inline]
pub fn mask_of(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, &c| m | 1u64 << c)
}

/// The digits of a hand, highest first.
pub fn sorted_digits(hand: &[Card; 3]) -> [u8; 3] {
    let mut d = [digit(hand[0]), digit(hand[1]), digit(hand[2])];
    d.sort_unstable_by(|a, b| b.cmp(a));
    d
}

/// `VALUES[100a + 10b + c]`: the value of the digits `a, b, c` in any order.
static VALUES: [u16; 1000] = build_values();

const fn build_values() -> [u16; 1000] {
    let mut table = [0u16; 1000];
    let mut i = 0;
    while i < 1000 {
        let (mut a, mut b, mut c) = (i / 100, i / 10 % 10, i % 10);
        // Sort descending with three compare-swaps.
        if a < b {
            (a, b) = (b, a);
        }
        if b < c {
            (b, c) = (c, b);
        }
        if a < b {
            (a, b) = (b, a);
        }
        let v = a * 100 + b * 10 + c;
        table[i] = if v == 0 { TOP } else { v as u16 };
        i += 1;
    }
    table
}

/// Parses a list of digits: either written together (`876`) or separated by commas
/// (`8,7,6`). An empty text is an empty list. `what` names the input in error messages.
pub fn parse_digits(text: &str, what: &str) -> Result<Vec<u8>> {
    let text = text.trim();
    let parts: Vec<String> = if text.contains(',') {
        text.split(',').map(|p| p.trim().to_string()).collect()
    } else {
        text.chars().map(String::from).collect()
    };
    parts
        .iter()
        .map(|p| match p.parse::<u8>() {
            Ok(d) if d <= 9 => Ok(d),
            _ => Err(Error::NotADigit {
                what: what.to_string(),
                text: text.to_string(),
                part: p.clone(),
            }),
        })
        .collect()
}

/// Parses a hand: exactly three digits, in any order (`876`, `6,7,8`).
pub fn parse_hand(text: &str) -> Result<[u8; 3]> {
    let d = parse_digits(text, "hand")?;
    <[u8; 3]>::try_from(d.as_slice()).map_err(|_| Error::HandSize {
        text: text.to_string(),
        digits: d.len(),
    })
}

/// Writes digits together, highest first (`[6, 8, 7]` → `876`).
pub fn format_digits(digits: &[u8]) -> String {
    let mut d = digits.to_vec();
    d.sort_unstable_by(|a, b| b.cmp(a));
    d.iter().map(|x| char::from(b'0' + x)).collect()
}

/// Writes cards as their digits with their coins (`8(1) 6(3) 1(1)`), in hand order.
pub fn format_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|&c| format!("{}({})", digit(c), coins(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_is_worth_its_digits_in_descending_order() {
        assert_eq!(digits_value(6, 3, 1), 631);
        assert_eq!(digits_value(1, 3, 6), 631);
        assert_eq!(digits_value(0, 5, 0), 500);
        assert_eq!(digits_value(9, 9, 9), 999);
    }

    #[test]
    fn three_zeros_are_worth_a_thousand() {
        assert_eq!(digits_value(0, 0, 0), TOP);
    }

    #[test]
    fn each_digit_has_three_one_coin_cards_a_two_and_a_three() {
        for d in 0..10u8 {
            let mut c: Vec<u8> = (0..DECK_SIZE as u8)
                .filter(|&x| digit(x) == d)
                .map(coins)
                .collect();
            c.sort_unstable();
            assert_eq!(c, vec![1, 1, 1, 2, 3]);
        }
        let total: u32 = (0..DECK_SIZE as u8).map(|c| u32::from(coins(c))).sum();
        assert_eq!(total, 80);
    }

    #[test]
    fn digits_parse_together_or_with_commas_and_reject_anything_else() {
        assert_eq!(parse_digits("876", "x").unwrap(), vec![8, 7, 6]);
        assert_eq!(parse_digits("8, 7,6", "x").unwrap(), vec![8, 7, 6]);
        assert_eq!(parse_digits("", "x").unwrap(), Vec::<u8>::new());
        assert!(parse_digits("8a6", "x").is_err());
        assert!(parse_digits("8,10", "x").is_err());
        assert!(parse_hand("87").is_err());
        assert!(parse_hand("8765").is_err());
        assert_eq!(parse_hand("687").unwrap(), [6, 8, 7]);
    }
}
