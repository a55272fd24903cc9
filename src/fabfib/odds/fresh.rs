//! The value of a fresh hand of three cards, over all C(50, 3) hands.

use super::SMALL_BINOM;
use crate::exact;
use crate::fabfib::cards::{digit, digits_value, Card, DECK_SIZE, DIGITS};
use crate::rank::Combinations;
use num_rational::Ratio;
use serde::Serialize;

/// One line of the fresh-hand distribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueCount {
    /// A hand value (a call).
    pub value: u16,
    /// Hands of three cards (out of C(50, 3) = 19,600) worth it.
    pub hands: u64,
}

/// The distribution of a fresh hand's value, lowest value first: every one of the
/// C(50, 3) hands, visited in rank order with the [`Combinations`] ranker's masks.
pub fn fresh_distribution() -> Vec<ValueCount> {
    let ranker = Combinations::new(DECK_SIZE, 3).expect("C(50,3) fits");
    let mut by_value = vec![0u64; 1001];
    let mut mask = ranker.first_mask();
    loop {
        let mut m = mask;
        let mut cards = [0 as Card; 3];
        for slot in &mut cards {
            *slot = m.trailing_zeros() as Card;
            m &= m - 1;
        }
        let v = digits_value(digit(cards[0]), digit(cards[1]), digit(cards[2]));
        by_value[usize::from(v)] += 1;
        match ranker.next_mask(mask) {
            Some(next) => mask = next,
            None => break,
        }
    }
    collect(&by_value)
}

/// The same distribution by a counting formula: for each digit multiset with
/// multiplicities `m_d`, `Π C(5, m_d)` hands. For cross-checks.
pub fn fresh_distribution_by_formula() -> Vec<ValueCount> {
    let mut by_value = vec![0u64; 1001];
    for a in 0..DIGITS as u8 {
        for b in a..DIGITS as u8 {
            for d in b..DIGITS as u8 {
                let mut m = [0usize; DIGITS];
                for x in [a, b, d] {
                    m[usize::from(x)] += 1;
                }
                let ways: u64 = m.iter().map(|&k| SMALL_BINOM[5][k.min(3)]).product();
                by_value[usize::from(digits_value(a, b, d))] += ways;
            }
        }
    }
    collect(&by_value)
}

fn collect(by_value: &[u64]) -> Vec<ValueCount> {
    by_value
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(v, &hands)| ValueCount {
            value: v as u16,
            hands,
        })
        .collect()
}

/// One line of the fresh-hand table: a value, the hands worth it and the hands worth at
/// least it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FreshRow {
    /// A hand value.
    pub value: u16,
    /// Hands worth exactly `value`.
    pub hands: u64,
    /// Hands worth `value` or more.
    pub at_least: u64,
}

/// The fresh-hand distribution with its upper tail, lowest value first.
pub fn fresh_rows() -> Vec<FreshRow> {
    let d = fresh_distribution();
    let mut at_least = d.iter().map(|x| x.hands).sum::<u64>();
    d.iter()
        .map(|x| {
            let row = FreshRow {
                value: x.value,
                hands: x.hands,
                at_least,
            };
            at_least -= x.hands;
            row
        })
        .collect()
}

/// The exact mean value of a fresh hand.
pub fn fresh_mean() -> Ratio<u64> {
    let d = fresh_distribution();
    let total: u64 = d.iter().map(|x| x.hands).sum();
    let sum: u64 = d.iter().map(|x| u64::from(x.value) * x.hands).sum();
    Ratio::new(sum, total)
}

/// One value of a fresh hand, with its exact and float chances.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FreshValue {
    /// Hands worth exactly `value`.
    pub hands: u64,
    /// The chance of exactly `value`, as a float.
    pub p: f64,
    /// The chance of `value` or more, as a float.
    pub p_at_least: f64,
    /// The chance of `value` or more, exactly.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub p_at_least_exact: Ratio<u64>,
    /// The chance of exactly `value`, exactly.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub p_exact: Ratio<u64>,
    /// A hand value.
    pub value: u16,
}

/// The fresh-hand odds (the JSON of `fabfib odds`): every value, lowest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FreshOdds {
    /// Every value a hand can have.
    pub distribution: Vec<FreshValue>,
    /// Hands of three cards: C(50, 3).
    pub hands: u64,
    /// The mean value, as a float.
    pub mean: f64,
    /// The mean value, exactly.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub mean_exact: Ratio<u64>,
    /// Distinct values.
    pub values: usize,
}

/// The fresh-hand odds, exact and as floats.
pub fn fresh_odds() -> FreshOdds {
    let rows = fresh_rows();
    let total = rows.first().map_or(1, |r| r.at_least);
    let distribution = rows
        .iter()
        .map(|x| {
            let p_exact = Ratio::new(x.hands, total);
            let p_at_least_exact = Ratio::new(x.at_least, total);
            FreshValue {
                hands: x.hands,
                p: exact::float(&p_exact),
                p_at_least: exact::float(&p_at_least_exact),
                p_at_least_exact,
                p_exact,
                value: x.value,
            }
        })
        .collect();
    let mean_exact = fresh_mean();
    FreshOdds {
        distribution,
        hands: total,
        mean: exact::float(&mean_exact),
        mean_exact,
        values: rows.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fresh_distribution_by_ranker_and_by_formula_agree() {
        let a = fresh_distribution();
        let b = fresh_distribution_by_formula();
        assert_eq!(a, b);
        assert_eq!(a.len(), 220);
        assert_eq!(a.iter().map(|x| x.hands).sum::<u64>(), 19_600);
    }

    #[test]
    fn three_zeros_three_nines_and_a_run_have_the_expected_hand_counts() {
        let d = fresh_distribution();
        let hands = |v: u16| d.iter().find(|x| x.value == v).unwrap().hands;
        assert_eq!(hands(1000), 10); // C(5,3)
        assert_eq!(hands(999), 10);
        assert_eq!(hands(990), 50); // C(5,2)·5
        assert_eq!(hands(987), 125); // 5·5·5
    }
}
