//! The comparator: rank first, then the article's four rules in order, reporting the stage
//! that decides. Where all four rules tie, the project reports a tie (the article's last line
//! would answer "b wins" both ways round; see [`super::article::compare_hand`]).

use super::article;
use super::hand::Hand;
use super::rule::{Decision, Rule, Statistic, Step};
use super::tiebreak::{compare_features, Features, Key, Verdict};
use serde::Serialize;
use std::cmp::Ordering;

/// Compares two hands: which is stronger, and at which stage it is decided.
pub fn compare(a: &Hand, b: &Hand) -> Verdict {
    compare_features(&Features::of(a), &Features::of(b))
}

/// A hand judged: its spellings, number, rank and the four tie-break values (the report
/// of `tabula poker judge`). Fields are in the order the JSON has always listed them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Judgement {
    /// The hand in characters, e.g. `大石泉すき`.
    pub hand: String,
    /// The hand's number, `0..3125`.
    pub index: usize,
    /// The strength key (a larger key is a stronger hand).
    pub key: Key,
    /// The rank's number (0 strongest).
    pub rank: u8,
    /// The rank's English name, e.g. `Full house`.
    pub rank_english: &'static str,
    /// The rank's Japanese name, e.g. `フルハウス`.
    pub rank_japanese: &'static str,
    /// The hand in romanised letters, e.g. `oizsk`.
    pub romaji: String,
    /// The values of the four rules.
    pub tie_breaks: TieBreaks,
}

/// The values of the four tie-break rules for one hand (see [`Features`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TieBreaks {
    /// Rule 2: number of characters in their right place (0–5); more wins.
    pub right_places: u8,
    /// Rule 3: strokes of the characters in their right place; more wins.
    pub right_strokes: u8,
    /// Rule 1: position of the first `すき`, 0–3, or -1 when absent; larger wins.
    pub suki_find: i8,
    /// Rule 4: strokes of the characters not in their right place; fewer wins.
    pub wrong_strokes: u8,
}

impl Judgement {
    /// Judges `hand`.
    pub fn of(hand: &Hand) -> Judgement {
        let f = Features::of(hand);
        Judgement {
            hand: hand.to_string(),
            index: hand.index(),
            key: f.key(),
            rank: f.rank.number(),
            rank_english: f.rank.english(),
            rank_japanese: f.rank.japanese(),
            romaji: hand.romaji(),
            tie_breaks: TieBreaks {
                right_places: f.right_places,
                right_strokes: f.right_strokes,
                suki_find: f.suki_find,
                wrong_strokes: f.wrong_strokes,
            },
        }
    }
}

/// Which hand of a comparison wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// The first hand, `a`, is stronger.
    A,
    /// The second hand, `b`, is stronger.
    B,
    /// Neither: every stage of the rule ties.
    Tie,
}

impl From<Ordering> for Winner {
    fn from(order: Ordering) -> Winner {
        match order {
            Ordering::Greater => Winner::A,
            Ordering::Less => Winner::B,
            Ordering::Equal => Winner::Tie,
        }
    }
}

/// Two hands compared (the report of `tabula poker compare`), with the answer of the
/// article's own comparator beside ours.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// The first hand, judged.
    pub a: Judgement,
    /// The second hand, judged.
    pub b: Judgement,
    /// The rule, when it is not the article's alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// The fifth rule's statistics on both hands (empty under the article's rule).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fifth_rule: Vec<StatisticPair>,
    /// The article's `compare_hand(a, b)`: -1 when `a` wins, 1 when `b` wins, and 1 again
    /// where all four rules tie.
    #[serde(rename = "seed_compare")]
    pub article_compare: i64,
    /// The stage that decided, `null` for a tie.
    pub stage: Option<Step>,
    /// Its number (0 = the rank, 1 to 4 = the article's rules, 5 on: the fifth rule's
    /// statistics).
    pub stage_number: Option<u8>,
    /// Which hand wins under the rule.
    pub winner: Winner,
    /// The article's `compare_hand(b, a)` (not in the JSON: it is the defect the text
    /// shows beside a tie).
    #[serde(skip)]
    pub article_compare_reversed: i64,
}

/// One statistic of a fifth rule on both hands of a comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatisticPair {
    /// The statistic.
    pub statistic: Statistic,
    /// Whether the hand with the larger value wins on it (else the smaller).
    pub larger_wins: bool,
    /// Its value on the first hand.
    pub a: i32,
    /// Its value on the second hand.
    pub b: i32,
}

impl Comparison {
    /// Compares `a` with `b` by the article's rules.
    pub fn of(a: &Hand, b: &Hand) -> Comparison {
        Comparison::under(a, b, &Rule::article())
    }

    /// Compares `a` with `b` by `rule`.
    pub fn under(a: &Hand, b: &Hand, rule: &Rule) -> Comparison {
        let Decision { order, stage } = rule.compare(a, b);
        let (sa, sb) = (a.to_string(), b.to_string());
        let steps = rule.steps();
        Comparison {
            a: Judgement::of(a),
            b: Judgement::of(b),
            rule: (!rule.is_article()).then(|| rule.clone()),
            fifth_rule: rule
                .fifth()
                .iter()
                .map(|&s| StatisticPair {
                    statistic: s,
                    larger_wins: s.larger_wins(),
                    a: s.value(&a.letters()),
                    b: s.value(&b.letters()),
                })
                .collect(),
            article_compare: article::compare_hand(&sa, &sb),
            stage: stage.map(|i| steps[i]),
            stage_number: stage.map(|i| i as u8),
            winner: order.into(),
            article_compare_reversed: article::compare_hand(&sb, &sa),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tiebreak::Stage;
    use super::*;

    fn verdict(a: &str, b: &str) -> Verdict {
        compare(&Hand::parse(a).unwrap(), &Hand::parse(b).unwrap())
    }

    #[test]
    fn the_articles_test_pairs_are_won_by_the_first_hand_at_the_expected_stage() {
        // The article's third pair, 'す泉太すき', has a typo (太 is not a card): skipped.
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
    fn the_articles_first_rule_4_tie_is_reported_as_a_tie() {
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
