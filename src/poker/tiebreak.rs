//! The article's four tie-break rules, as per-hand values, the lexicographic key they form, and
//! the stage-by-stage comparison of two hands' values ([`compare_features`]).
//!
//! "Right place": position `i + 1` is right for the name's `i`-th character (大 first, き
//! last). The article reaches this through lookup strings (`calc_pos_score`); [`super::article`]
//! transliterates those, and the tests prove the two agree on all 3,125 hands.

use super::hand::{Hand, STROKES};
use super::judge::{judge, suki_position, HandRank};
use serde::Serialize;
use std::cmp::Ordering;

/// Everything the comparator looks at, for one hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Features {
    /// The rank (0 strongest).
    pub rank: HandRank,
    /// Rule 1: position of the first `すき` as Python's `str.find` (-1 when absent);
    /// larger wins.
    pub suki_find: i8,
    /// Rule 2: number of characters in their right place; more wins.
    pub right_places: u8,
    /// Rule 3: strokes of the characters in their right place; more wins.
    pub right_strokes: u8,
    /// Rule 4: strokes of the characters not in their right place; fewer wins.
    pub wrong_strokes: u8,
}

impl Features {
    /// Computes the values of a hand.
    pub fn of(hand: &Hand) -> Features {
        let mut right_places = 0;
        let mut right_strokes = 0;
        let mut wrong_strokes = 0;
        for (i, &l) in hand.letters().iter().enumerate() {
            if usize::from(l) == i {
                right_places += 1;
                right_strokes += STROKES[i];
            } else {
                wrong_strokes += STROKES[l as usize];
            }
        }
        Features {
            rank: judge(hand),
            suki_find: suki_position(hand).map_or(-1, |p| p as i8),
            right_places,
            right_strokes,
            wrong_strokes,
        }
    }

    /// The strength key: a larger key is a stronger hand; its fields, most significant
    /// first, are the rank and the four rules, each oriented so that larger wins.
    pub fn key(&self) -> Key {
        Key(((8 - u32::from(self.rank.number())) << SHIFTS[0])
            | (((self.suki_find + 1) as u32) << SHIFTS[1])
            | (u32::from(self.right_places) << SHIFTS[2])
            | (u32::from(self.right_strokes) << SHIFTS[3])
            | ((MAX_WRONG - u32::from(self.wrong_strokes)) << SHIFTS[4]))
    }
}

/// Largest possible rule-4 value (five 泉 out of place): 5 × 9.
const MAX_WRONG: u32 = 45;

/// Bit offset of each field in a [`Key`]: rank, rule 1, rule 2, rule 3, rule 4.
const SHIFTS: [u32; 5] = [20, 16, 12, 6, 0];

/// A packed strength key (see [`Features::key`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Key(pub u32);

impl Key {
    /// The part of the key that the rank and the first `stage` rules see (stage 0: the
    /// rank alone; stage 4: the whole key).
    pub fn prefix(self, stage: usize) -> u32 {
        self.0 >> SHIFTS[stage]
    }
}

/// Values for all 3,125 hands, in index order.
pub fn all_features() -> Vec<Features> {
    Hand::all().map(|h| Features::of(&h)).collect()
}

numbered_enum! {
    /// The comparison stages, in the order they are tried; the JSON names them in
    /// snake case (`suki_position`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Stage {
        /// The ranks differ.
        Rank,
        /// Rule 1: the `すき` standing further right (or present against absent).
        SukiPosition,
        /// Rule 2: more characters in their right place.
        RightPlaces,
        /// Rule 3: more strokes among the characters in their right place.
        RightStrokes,
        /// Rule 4: fewer strokes among the characters out of place.
        WrongStrokes,
    }
}

impl Stage {
    /// Machine name, as in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Rank => "rank",
            Stage::SukiPosition => "suki_position",
            Stage::RightPlaces => "right_places",
            Stage::RightStrokes => "right_strokes",
            Stage::WrongStrokes => "wrong_strokes",
        }
    }
}

/// The result of comparing hand `a` with hand `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// `Greater` when `a` is the stronger hand, `Less` when `b` is, `Equal` for a tie.
    pub order: Ordering,
    /// The stage that decided, `None` for a tie.
    pub stage: Option<Stage>,
}

/// Compares two hands' values stage by stage, exactly in the article's sequence
/// (`docs/izumi-poker.md`).
#[inline]
pub fn compare_features(a: &Features, b: &Features) -> Verdict {
    let steps = [
        // A smaller rank number is stronger.
        (Stage::Rank, b.rank.cmp(&a.rank)),
        (Stage::SukiPosition, a.suki_find.cmp(&b.suki_find)),
        (Stage::RightPlaces, a.right_places.cmp(&b.right_places)),
        (Stage::RightStrokes, a.right_strokes.cmp(&b.right_strokes)),
        (Stage::WrongStrokes, b.wrong_strokes.cmp(&a.wrong_strokes)),
    ];
    for (stage, order) in steps {
        if order != Ordering::Equal {
            return Verdict {
                order,
                stage: Some(stage),
            };
        }
    }
    Verdict {
        order: Ordering::Equal,
        stage: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_has_every_character_in_its_right_place() {
        let f = Features::of(&Hand::parse("大石泉すき").unwrap());
        assert_eq!(f.right_places, 5);
        assert_eq!(f.right_strokes, 23);
        assert_eq!(f.wrong_strokes, 0);
        assert_eq!(f.suki_find, 3);
    }

    #[test]
    fn out_of_place_characters_count_their_own_strokes() {
        // 泉 at 1 (9), 泉 at 2 (9) out of place; す at 4 right (2); き at 5 right (4).
        let f = Features::of(&Hand::parse("泉泉泉すき").unwrap());
        assert_eq!(
            (f.right_places, f.right_strokes, f.wrong_strokes),
            (3, 15, 18)
        );
    }

    #[test]
    fn key_order_follows_each_field_in_turn() {
        let k = |s: &str| Features::of(&Hand::parse(s).unwrap()).key();
        assert!(k("大石泉すき") > k("泉泉泉泉泉"));
        // Same rank (すき), すき further right wins.
        assert!(k("泉泉泉すき") > k("泉すき泉泉"));
        assert_eq!(k("大石泉すき").prefix(0), 8);
    }
}
