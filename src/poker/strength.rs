//! How strong a hand is: the exact chance that it beats, ties and loses to a uniformly
//! random hand under a chosen rule.
//!
//! The opponent is one of all 3,125 hands, each with chance 1/3,125, the hand itself
//! included: both players are dealt independently, so they may hold the same hand (which
//! ties). Every chance is therefore a count over 3,125 (`docs/izumi-poker.md`).
//!
//! The counts come from sorting the hands by their strength key: a hand beats the hands
//! with a smaller key and ties those with an equal one. The tests count them a second way,
//! by running the comparator on every pair.

use super::hand::{Hand, HANDS};
use super::judge::judge;
use super::rule::Rule;
use crate::exact;
use num_rational::Ratio;
use serde::Serialize;

/// How one hand fares against a uniformly random hand.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Strength {
    /// The hand in characters.
    pub hand: String,
    /// The hand in letters.
    pub romaji: String,
    /// The hand's number, `0..3125`.
    pub index: usize,
    /// The rank's number (0 strongest).
    pub rank: u8,
    /// The rank's English name, e.g. `Full house`.
    pub rank_english: &'static str,
    /// Hands it beats; with `ties` and `loses_to` they add up to 3,125.
    pub beats: u64,
    /// Hands it ties with, itself included.
    pub ties: u64,
    /// Hands it loses to.
    pub loses_to: u64,
    /// The chance it beats a random hand: `beats` / 3,125.
    pub p_win: f64,
    /// The chance it ties with a random hand: `ties` / 3,125.
    pub p_tie: f64,
    /// The chance it loses to a random hand: `loses_to` / 3,125.
    pub p_loss: f64,
    /// `p_win` as a reduced fraction, written `"num/den"`.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub p_win_exact: Ratio<u64>,
    /// `p_tie` as a reduced fraction, written `"num/den"`.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub p_tie_exact: Ratio<u64>,
    /// `p_loss` as a reduced fraction, written `"num/den"`.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub p_loss_exact: Ratio<u64>,
}

impl Strength {
    fn new(hand: Hand, beats: u64, ties: u64) -> Strength {
        let n = HANDS as u64;
        let loses_to = n - beats - ties;
        let (w, t, l) = (
            Ratio::new(beats, n),
            Ratio::new(ties, n),
            Ratio::new(loses_to, n),
        );
        let rank = judge(&hand);
        Strength {
            hand: hand.to_string(),
            romaji: hand.romaji(),
            index: hand.index(),
            rank: rank.number(),
            rank_english: rank.english(),
            beats,
            ties,
            loses_to,
            p_win: exact::float(&w),
            p_tie: exact::float(&t),
            p_loss: exact::float(&l),
            p_win_exact: w,
            p_tie_exact: t,
            p_loss_exact: l,
        }
    }
}

/// The strength of every hand, strongest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrengthTable {
    /// The rule the hands are compared by.
    pub rule: Rule,
    /// Opponents each hand is measured against: all 3,125 hands.
    pub opponents: u64,
    /// Every hand, strongest first (by index among hands that tie).
    pub hands: Vec<Strength>,
}

/// `(beats, ties)` of every hand under `rule`, in index order, from the sorted keys.
pub fn counts(rule: &Rule) -> Vec<(u64, u64)> {
    let strengths = rule.strengths();
    let keys: Vec<_> = (0..HANDS).map(|h| strengths.key(h)).collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    keys.iter()
        .map(|k| {
            let below = sorted.partition_point(|x| x < k);
            let up_to = sorted.partition_point(|x| x <= k);
            (below as u64, (up_to - below) as u64)
        })
        .collect()
}

/// How `hand` fares against a uniformly random hand under `rule`.
pub fn strength(hand: &Hand, rule: &Rule) -> Strength {
    let (beats, ties) = counts(rule)[hand.index()];
    Strength::new(*hand, beats, ties)
}

/// How every hand fares against a uniformly random hand under `rule`, strongest first.
pub fn strength_table(rule: &Rule) -> StrengthTable {
    let mut hands: Vec<Strength> = counts(rule)
        .into_iter()
        .zip(Hand::all())
        .map(|((beats, ties), h)| Strength::new(h, beats, ties))
        .collect();
    hands.sort_by(|x, y| y.beats.cmp(&x.beats).then(x.index.cmp(&y.index)));
    StrengthTable {
        rule: rule.clone(),
        opponents: HANDS as u64,
        hands,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_beats_every_other_hand_and_ties_only_itself() {
        let s = strength(&Hand::parse("大石泉すき").unwrap(), &Rule::article());
        assert_eq!((s.beats, s.ties, s.loses_to), (3124, 1, 0));
        assert_eq!(exact::fraction(&s.p_win_exact), "3124/3125");
        assert_eq!(exact::fraction(&s.p_loss_exact), "0/1");
    }

    #[test]
    fn the_strongest_five_of_a_kind_loses_only_to_the_name() {
        // Each five of a kind has exactly one card at home; 泉 has the most strokes (9),
        // so 泉泉泉泉泉 wins rule 3 against the other four and loses only to the name.
        let s = strength(&Hand::parse("泉泉泉泉泉").unwrap(), &Rule::article());
        assert_eq!((s.beats, s.ties, s.loses_to), (3123, 1, 1));
        // す has the fewest strokes (2): すすすすす beats only the lower ranks.
        let s = strength(&Hand::parse("すすすすす").unwrap(), &Rule::article());
        assert_eq!((s.beats, s.ties, s.loses_to), (3125 - 6, 1, 5));
    }
}
