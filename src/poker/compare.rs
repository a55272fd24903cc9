//! The comparator: rank first, then the seed's four rules in order, reporting the stage
//! that decides. Where all four rules tie, the project reports a tie (the seed's last line
//! would answer "b wins" both ways round; see [`super::seed::compare_hand`]).

use super::hand::Hand;
use super::tiebreak::Features;
use serde::Serialize;
use std::cmp::Ordering;

/// The comparison stages, in the order they are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The ranks differ.
    Rank = 0,
    /// Rule 1: the `すき` standing further right (or present against absent).
    SukiPosition = 1,
    /// Rule 2: more characters in their right place.
    RightPlaces = 2,
    /// Rule 3: more strokes among the characters in their right place.
    RightStrokes = 3,
    /// Rule 4: fewer strokes among the characters out of place.
    WrongStrokes = 4,
}

impl Stage {
    /// All stages in order.
    pub const ALL: [Stage; 5] = [
        Stage::Rank,
        Stage::SukiPosition,
        Stage::RightPlaces,
        Stage::RightStrokes,
        Stage::WrongStrokes,
    ];

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

    /// A short human description.
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Rank => "the rank",
            Stage::SukiPosition => "rule 1 (すき further right)",
            Stage::RightPlaces => "rule 2 (more characters in their right place)",
            Stage::RightStrokes => "rule 3 (more strokes in the right place)",
            Stage::WrongStrokes => "rule 4 (fewer strokes out of place)",
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

/// Compares two hands' values stage by stage, exactly in the seed's sequence.
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

/// Compares two hands: which is stronger, and at which stage it is decided.
pub fn compare(a: &Hand, b: &Hand) -> Verdict {
    compare_features(&Features::of(a), &Features::of(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(a: &str, b: &str) -> Verdict {
        compare(&Hand::parse(a).unwrap(), &Hand::parse(b).unwrap())
    }

    #[test]
    fn the_seeds_test_pairs_are_won_by_the_first_hand_at_the_expected_stage() {
        // The seed's third pair, 'す泉太すき', has a typo (太 is not a card): skipped.
        for (a, b, stage) in [
            ("大石泉きす", "大石大石泉", Stage::Rank),
            ("泉す泉すき", "大大泉石石", Stage::Rank),
            ("大石すき泉", "泉大すき石", Stage::RightPlaces),
            ("泉泉石きき", "大大石泉泉", Stage::RightStrokes),
            ("すき泉きす", "すき石石き", Stage::RightStrokes),
        ] {
            let v = verdict(a, b);
            assert_eq!(v.order, Ordering::Greater, "{a} vs {b}");
            assert_eq!(v.stage, Some(stage), "{a} vs {b}");
            assert_eq!(verdict(b, a).order, Ordering::Less);
        }
    }

    #[test]
    fn the_seeds_first_rule_4_tie_is_reported_as_a_tie() {
        let v = verdict("大大大大石", "大大大石大");
        assert_eq!(
            v,
            Verdict {
                order: Ordering::Equal,
                stage: None
            }
        );
    }
}
