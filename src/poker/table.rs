//! The table of ranks: exact count and probability of each rank over all 3,125 hands.

use super::hand::{Hand, HANDS};
use super::judge::{judge, HandRank};
use num_rational::Ratio;
use serde::Serialize;

/// One row of the rank table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankRow {
    /// The seed's rank number (0 strongest).
    pub rank: u8,
    pub japanese: &'static str,
    pub english: &'static str,
    /// Number of hands of this rank.
    pub count: u64,
    /// Probability as a float.
    pub p: f64,
    /// Probability as a reduced fraction, e.g. `"1/3125"`.
    pub p_exact: String,
}

/// Counts of each rank, indexed by rank number, by judging every hand.
pub fn rank_counts() -> [u64; 9] {
    let mut counts = [0u64; 9];
    for h in Hand::all() {
        counts[judge(&h).number() as usize] += 1;
    }
    counts
}

/// The rank table, strongest rank first.
pub fn rank_table() -> Vec<RankRow> {
    let counts = rank_counts();
    HandRank::ALL
        .iter()
        .map(|&r| {
            let count = counts[r.number() as usize];
            let p = Ratio::new(count, HANDS as u64);
            RankRow {
                rank: r.number(),
                japanese: r.japanese(),
                english: r.english(),
                count,
                p: count as f64 / HANDS as f64,
                p_exact: format!("{}/{}", p.numer(), p.denom()),
            }
        })
        .collect()
}
