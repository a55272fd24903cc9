//! The nine ranks and the judge that assigns one to a hand (first match, strongest first).

use super::hand::{Hand, KI, SU};
use serde::Serialize;

numbered_enum! {
    /// A hand's rank; the discriminant is the article's number (0 strongest, 8 weakest).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
    pub enum HandRank {
        /// 0: the name itself, `大石泉すき`.
        RoyalStraightFlush,
        /// 1: one character five times.
        FiveOfAKind,
        /// 2: one character four times.
        FourOfAKind,
        /// 3: all five characters, in an order other than the name's.
        StraightFlush,
        /// 4: one character three times and another twice.
        FullHouse,
        /// 5: `す` immediately followed by `き` somewhere in the hand.
        Suki,
        /// 6: one character three times.
        ThreeOfAKind,
        /// 7: two characters twice each.
        TwoPair,
        /// 8: none of the above.
        Buta,
    }
}

impl HandRank {
    /// The article's number: 0 strongest … 8 weakest.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The rank numbered `n`.
    pub fn from_number(n: u8) -> Option<HandRank> {
        HandRank::ALL.get(n as usize).copied()
    }

    /// English name.
    pub fn english(self) -> &'static str {
        match self {
            HandRank::RoyalStraightFlush => "Royal straight flush",
            HandRank::FiveOfAKind => "Five of a kind",
            HandRank::FourOfAKind => "Four of a kind",
            HandRank::StraightFlush => "Straight flush",
            HandRank::FullHouse => "Full house",
            HandRank::Suki => "Suki",
            HandRank::ThreeOfAKind => "Three of a kind",
            HandRank::TwoPair => "Two pair",
            HandRank::Buta => "Buta (nothing)",
        }
    }

    /// Japanese name.
    pub fn japanese(self) -> &'static str {
        match self {
            HandRank::RoyalStraightFlush => "ロイヤルストレートフラッシュ",
            HandRank::FiveOfAKind => "ファイブカード",
            HandRank::FourOfAKind => "フォーカード",
            HandRank::StraightFlush => "ストレートフラッシュ",
            HandRank::FullHouse => "フルハウス",
            HandRank::Suki => "すき",
            HandRank::ThreeOfAKind => "スリーカード",
            HandRank::TwoPair => "ツーペア",
            HandRank::Buta => "ブタ",
        }
    }
}

/// Position (0-based, as Python's `str.find`) of the first `すき` in the hand, if any.
pub fn suki_position(hand: &Hand) -> Option<usize> {
    let l = hand.letters();
    (0..l.len() - 1).find(|&i| l[i] == SU && l[i + 1] == KI)
}

/// The rank of a hand: the first of the nine rules (strongest first) that matches.
pub fn judge(hand: &Hand) -> HandRank {
    let mut counts = [0u8; 5];
    for &l in &hand.letters() {
        counts[l as usize] += 1;
    }
    let distinct = counts.iter().filter(|&&c| c > 0).count();
    let has = |n: u8| counts.contains(&n);
    if hand.letters() == [0, 1, 2, 3, 4] {
        HandRank::RoyalStraightFlush
    } else if distinct == 1 {
        HandRank::FiveOfAKind
    } else if has(4) {
        HandRank::FourOfAKind
    } else if distinct == 5 {
        HandRank::StraightFlush
    } else if has(3) && has(2) {
        HandRank::FullHouse
    } else if suki_position(hand).is_some() {
        HandRank::Suki
    } else if has(3) {
        HandRank::ThreeOfAKind
    } else if has(2) && distinct == 3 {
        HandRank::TwoPair
    } else {
        HandRank::Buta
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank_of(s: &str) -> HandRank {
        judge(&Hand::parse(s).unwrap())
    }

    #[test]
    fn each_rank_has_a_witness() {
        assert_eq!(rank_of("大石泉すき"), HandRank::RoyalStraightFlush);
        assert_eq!(rank_of("泉泉泉泉泉"), HandRank::FiveOfAKind);
        assert_eq!(rank_of("すすすすき"), HandRank::FourOfAKind);
        assert_eq!(rank_of("大石泉きす"), HandRank::StraightFlush);
        assert_eq!(rank_of("すきすきす"), HandRank::FullHouse);
        assert_eq!(rank_of("泉す泉すき"), HandRank::Suki);
        assert_eq!(rank_of("泉泉泉すき"), HandRank::Suki);
        assert_eq!(rank_of("泉泉泉きす"), HandRank::ThreeOfAKind);
        assert_eq!(rank_of("大大石泉泉"), HandRank::TwoPair);
        assert_eq!(rank_of("大大石泉す"), HandRank::Buta);
    }

    #[test]
    fn the_suki_position_is_that_of_the_first_pair() {
        let pos = |s: &str| suki_position(&Hand::parse(s).unwrap());
        assert_eq!(pos("すきすきす"), Some(0));
        assert_eq!(pos("大石泉すき"), Some(3));
        assert_eq!(pos("きすきすす"), Some(1));
        assert_eq!(pos("きすすすす"), None);
    }
}
