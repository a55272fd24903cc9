//! Method 2: the winning subsets counted by inclusion–exclusion over sets of lines.
//!
//! For the patterns "at least `m` of these groups fully marked" (every pattern but
//! `reach`), the number of k-subsets containing every group of a set `J` is
//! `C(c − |∪J|, k − |∪J|)`, and the standard "at least m events" formula
//! `Σ_{|J| ≥ m} (−1)^{|J|−m} C(|J|−1, m−1) N(J)` gives `W_k`. Only the histogram of
//! `(|J|, |∪J|)` over the `2^L` sets of lines is needed, so a 7×7 card (16 lines) is cheap.

use super::card::{Card, Pattern};
use super::{Error, Result};

/// `W_k` for `k = 0..=c` by inclusion–exclusion; refused for `reach`.
pub fn winning_subsets(card: &Card, pattern: Pattern) -> Result<Vec<u64>> {
    let (groups, need) = card.groups(pattern).ok_or(Error::NoInclusionExclusion {
        pattern: pattern.name(),
    })?;
    let c = card.numbered();
    let g = groups.len();
    // hist[j][u] = number of sets J of groups with |J| = j and |∪J| = u.
    let mut hist = vec![vec![0u64; c + 1]; g + 1];
    let mut union = vec![0u64; 1 << g];
    for set in 1usize..1 << g {
        let low = set.trailing_zeros() as usize;
        union[set] = union[set & (set - 1)] | groups[low];
        hist[set.count_ones() as usize][union[set].count_ones() as usize] += 1;
    }
    let binom = pascal(c.max(g) + 1);
    let mut w = vec![0u64; c + 1];
    for (k, slot) in w.iter_mut().enumerate() {
        let mut total: i128 = 0;
        for (j, row) in hist.iter().enumerate().skip(need) {
            let sign: i128 = if (j - need) % 2 == 0 { 1 } else { -1 };
            let weight = sign * i128::from(binom[j - 1][need - 1]);
            for (u, &sets) in row.iter().enumerate() {
                if sets == 0 || u > k {
                    continue;
                }
                total += weight * i128::from(sets) * i128::from(binom[c - u][k - u]);
            }
        }
        *slot = u64::try_from(total).map_err(|_| Error::BadCount { total, k })?;
    }
    Ok(w)
}

/// Pascal's triangle `C(n, k)` for `n < rows`.
fn pascal(rows: usize) -> Vec<Vec<u64>> {
    let mut t: Vec<Vec<u64>> = Vec::with_capacity(rows);
    for n in 0..rows {
        let mut row = vec![1u64; n + 1];
        for k in 1..n {
            row[k] = t[n - 1][k - 1] + t[n - 1][k];
        }
        t.push(row);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bingo::enumerate;

    #[test]
    fn inclusion_exclusion_agrees_with_enumeration_on_every_small_card() {
        for (size, free) in [(3, true), (3, false), (4, false), (5, true)] {
            let card = Card::new(size, free).unwrap();
            for p in Pattern::ALL.into_iter().filter(|&p| p != Pattern::Reach) {
                assert_eq!(
                    winning_subsets(&card, p).unwrap(),
                    enumerate::winning_subsets(&card, p).unwrap(),
                    "{size}×{size} free={free} {p}"
                );
            }
        }
    }

    #[test]
    fn every_full_card_wins_and_no_empty_card_does_on_seven_by_seven() {
        let card = Card::new(7, true).unwrap();
        let w = winning_subsets(&card, Pattern::Line).unwrap();
        assert_eq!(w[0], 0);
        assert_eq!(w[48], 1);
        // Six marked squares complete exactly the four lines through the free centre.
        assert_eq!(&w[..7], &[0, 0, 0, 0, 0, 0, 4]);
    }

    #[test]
    fn reach_is_refused() {
        let card = Card::new(5, true).unwrap();
        assert!(winning_subsets(&card, Pattern::Reach).is_err());
    }
}
