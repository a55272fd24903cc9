//! Method 1: the winning subsets counted by exhaustive enumeration.
//!
//! `W_k` = the number of k-subsets of the card's numbered squares that satisfy the pattern.
//! For each `k` the subsets are numbered `0..C(c, k)` by the combinatorial number system
//! ([`Combinations`]); the ranks are cut into chunks, each chunk is unranked once and walked
//! in rank order with Gosper's step, and the chunks are counted in parallel.

use super::card::{Card, Pattern};
use super::{Error, Result};
use crate::rank::{Combinations, Ranker};
use rayon::prelude::*;

/// Largest number of numbered squares enumerated (2^26 subsets, the 5×5 card without a
/// free centre has 25).
pub const MAX_ENUMERATED: usize = 26;

/// Subsets per parallel work item.
const CHUNK: u64 = 1 << 16;

/// `W_k` for `k = 0..=c` by enumerating all `2^c` subsets.
pub fn winning_subsets(card: &Card, pattern: Pattern) -> Result<Vec<u64>> {
    let c = card.numbered();
    if c > MAX_ENUMERATED {
        let hint = if card.groups(pattern).is_some() {
            "inclusion-exclusion counts this pattern"
        } else {
            "this pattern has no inclusion-exclusion form: only simulation reaches it"
        };
        return Err(Error::TooManySubsets {
            size: card.size(),
            numbered: c,
            largest: MAX_ENUMERATED,
            hint,
        });
    }
    let judge = card.judge(pattern);
    let rankers: Vec<Combinations> = (0..=c)
        .map(|k| Combinations::new(c, k).expect("c ≤ 26 fits"))
        .collect();
    let work: Vec<(usize, u64)> = rankers
        .iter()
        .enumerate()
        .flat_map(|(k, r)| (0..r.len().div_ceil(CHUNK)).map(move |i| (k, i * CHUNK)))
        .collect();
    let counted: Vec<(usize, u64)> = work
        .par_iter()
        .map(|&(k, start)| {
            let r = &rankers[k];
            let end = (start + CHUNK).min(r.len());
            let mut mask = r.unrank_mask(start).expect("start < len");
            let mut wins = 0u64;
            for rank in start..end {
                wins += u64::from(judge.wins(mask));
                if rank + 1 < end {
                    mask = r.next_mask(mask).expect("rank + 1 < len");
                }
            }
            (k, wins)
        })
        .collect();
    let mut w = vec![0u64; c + 1];
    for (k, wins) in counted {
        w[k] += wins;
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(card: &Card, pattern: Pattern) -> Vec<u64> {
        let mut w = vec![0u64; card.numbered() + 1];
        for mask in 0..=card.full_mask() {
            if card.wins(pattern, mask) {
                w[mask.count_ones() as usize] += 1;
            }
        }
        w
    }

    #[test]
    fn ranked_enumeration_matches_a_plain_loop_over_all_masks() {
        for (size, free) in [(3, true), (3, false), (4, false)] {
            let card = Card::new(size, free).unwrap();
            for p in Pattern::ALL {
                assert_eq!(
                    winning_subsets(&card, p).unwrap(),
                    brute_force(&card, p),
                    "{size} {free} {p}"
                );
            }
        }
    }

    #[test]
    fn on_the_three_by_three_card_two_marked_squares_win_in_four_ways() {
        // The free centre plus two opposite squares: 2 diagonals, the middle row and column.
        let card = Card::new(3, true).unwrap();
        let w = winning_subsets(&card, Pattern::Line).unwrap();
        assert_eq!(&w[..3], &[0, 0, 4]);
        assert_eq!(w[8], 1);
    }

    #[test]
    fn a_seven_by_seven_card_is_refused_with_a_hint() {
        let card = Card::new(7, true).unwrap();
        let e = winning_subsets(&card, Pattern::Line).unwrap_err();
        assert!(e.to_string().contains("inclusion-exclusion"));
    }
}
