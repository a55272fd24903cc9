//! Property tests for the hand parser (issue #16): it never panics, accepts exactly the
//! five-character strings over 大石泉すき / oizsk, names the right fault otherwise, and
//! round-trips with both printers.

use proptest::prelude::*;
use tabula::poker::hand::{CHARS, ROMAJI};
use tabula::poker::{Error, Hand};

/// Whether `c` is a card, written either way (the oracle, independent of the parser).
fn is_card(c: char) -> bool {
    "大石泉すきoizsk".contains(c)
}

/// Strings mixing cards, near misses and arbitrary characters, of length 0 to 8.
fn hand_like() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        3 => prop::sample::select(vec!['大', '石', '泉', 'す', 'き', 'o', 'i', 'z', 's', 'k']),
        1 => prop::sample::select(vec!['太', 'O', 'I', ' ', 'ず', 'ぎ', '\0', '\u{301}']),
        1 => any::<char>(),
    ];
    prop::collection::vec(ch, 0..=8).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsing_any_string_never_panics_and_accepts_exactly_five_cards(text in any::<String>()) {
        let valid = text.chars().count() == 5 && text.chars().all(is_card);
        prop_assert_eq!(Hand::parse(&text).is_ok(), valid);
    }

    #[test]
    fn a_refused_hand_names_its_first_stranger_or_its_length(text in hand_like()) {
        let chars: Vec<char> = text.chars().collect();
        match (Hand::parse(&text), chars.iter().position(|&c| !is_card(c))) {
            (Ok(_), None) => prop_assert_eq!(chars.len(), 5),
            (Err(Error::UnknownCharacter { character, position, .. }), Some(i)) => {
                prop_assert_eq!(character, chars[i]);
                prop_assert_eq!(position, i + 1);
            }
            (Err(Error::WrongLength { length, .. }), None) => {
                prop_assert_eq!(length, chars.len());
                prop_assert_ne!(length, 5);
            }
            (other, stranger) => prop_assert!(false, "{text:?}: {other:?}, stranger {stranger:?}"),
        }
    }

    #[test]
    fn every_hand_round_trips_through_both_printers(letters in prop::array::uniform5(0u8..5)) {
        let hand = Hand::from_letters(letters).expect("letters below 5");
        prop_assert_eq!(Hand::parse(&hand.to_string()).unwrap(), hand);
        prop_assert_eq!(Hand::parse(&hand.romaji()).unwrap(), hand);
        prop_assert_eq!(hand.to_string().chars().count(), 5);
    }

    #[test]
    fn a_hand_spelt_with_mixed_letters_is_the_same_hand(
        letters in prop::array::uniform5(0u8..5),
        romaji in prop::array::uniform5(any::<bool>()),
    ) {
        let text: String = (0..5)
            .map(|i| {
                let l = letters[i] as usize;
                if romaji[i] { ROMAJI[l] } else { CHARS[l] }
            })
            .collect();
        let hand = Hand::parse(&text).unwrap();
        prop_assert_eq!(hand.letters(), letters);
        prop_assert_eq!(Hand::from_index(hand.index()), Some(hand));
    }
}
