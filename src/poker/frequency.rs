//! How often each rank is dealt: its exact count and probability over all 3,125 hands.

use super::hand::{Hand, HANDS};
use super::judge::{judge, HandRank};
use crate::exact;
use num_rational::Ratio;
use serde::Serialize;

/// How often one rank is dealt (fields in the order the JSON has always listed them).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankFrequency {
    /// Number of hands of this rank.
    pub count: u64,
    /// The rank's English name, e.g. `Full house`.
    pub english: &'static str,
    /// The rank's Japanese name, e.g. `フルハウス`.
    pub japanese: &'static str,
    /// Probability as a float.
    pub p: f64,
    /// Probability as a reduced fraction, written `"1/3125"`.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub p_exact: Ratio<u64>,
    /// The rank's number (0 strongest).
    pub rank: u8,
}

/// How often each rank is dealt, strongest rank first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankFrequencies {
    /// Hands counted: all 3,125.
    pub hands: u64,
    /// One entry per rank, strongest first.
    pub ranks: Vec<RankFrequency>,
}

/// Counts of each rank, indexed by rank number, by judging every hand.
pub fn rank_counts() -> [u64; 9] {
    let mut counts = [0u64; 9];
    for h in Hand::all() {
        counts[judge(&h).number() as usize] += 1;
    }
    counts
}

/// The count and probability of every rank.
pub fn rank_frequencies() -> RankFrequencies {
    let counts = rank_counts();
    let ranks = HandRank::ALL
        .iter()
        .map(|&r| {
            let count = counts[r.number() as usize];
            let p = Ratio::new(count, HANDS as u64);
            RankFrequency {
                rank: r.number(),
                japanese: r.japanese(),
                english: r.english(),
                count,
                p: exact::float(&p),
                p_exact: p,
            }
        })
        .collect();
    RankFrequencies {
        hands: counts.iter().sum(),
        ranks,
    }
}
