//! The US-card law for several players against a brute force over every card.
//!
//! On a 3×3 card with 9 numbers (columns of 3; the middle column holds 2 numbers beside the
//! free centre), a call order matters only through its sequence of columns (1,680 of them,
//! equally likely): relabelling numbers within a column maps cards onto cards. For each
//! column sequence every one of the 216 possible cards is played, and the law of the first
//! win among K independent cards follows from the card counts, in exact fractions.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use tabula::bingo::players::UsModel;
use tabula::bingo::{Card, Pattern};
use tabula::rank::{KPermutations, Ranker};

/// Every distinct arrangement of `counts[j]` copies of letter `j`.
fn sequences(counts: &mut [usize], prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if counts.iter().all(|&c| c == 0) {
        out.push(prefix.clone());
        return;
    }
    for j in 0..counts.len() {
        if counts[j] > 0 {
            counts[j] -= 1;
            prefix.push(j);
            sequences(counts, prefix, out);
            prefix.pop();
            counts[j] += 1;
        }
    }
}

/// For each column, every way to place its numbers (0..3) on its squares.
fn column_fillings(card: &Card) -> Vec<Vec<Vec<(u32, usize)>>> {
    (0..3)
        .map(|j| {
            let squares: Vec<u32> = (0..3).filter_map(|r| card.bit(r, j)).collect();
            let perms = KPermutations::new(3, squares.len()).unwrap();
            perms
                .iter()
                .map(|p| {
                    squares
                        .iter()
                        .zip(&p)
                        .map(|(&q, &v)| (q, usize::from(v)))
                        .collect()
                })
                .collect()
        })
        .collect()
}

fn brute_force(k: usize) -> (Vec<BigRational>, Vec<BigRational>) {
    let card = Card::new(3, true).unwrap();
    let fillings = column_fillings(&card);
    let mut seqs = Vec::new();
    sequences(&mut [3, 3, 3], &mut Vec::new(), &mut seqs);
    assert_eq!(seqs.len(), 1680);
    let cards_total = fillings.iter().map(Vec::len).product::<usize>();
    assert_eq!(cards_total, 216);
    let mut first = vec![BigRational::zero(); 10];
    let mut shared = vec![BigRational::zero(); 10];
    let frac = |a: usize, b: usize| BigRational::new(BigInt::from(a), BigInt::from(b));
    for seq in &seqs {
        // call[j][i]: the call (1-based) of the i-th number of column j.
        let mut call = [[0usize; 3]; 3];
        let mut seen = [0usize; 3];
        for (t, &j) in seq.iter().enumerate() {
            call[j][seen[j]] = t + 1;
            seen[j] += 1;
        }
        // wins_at[n]: cards whose first line comes on call n.
        let mut wins_at = [0usize; 10];
        for b in &fillings[0] {
            for i in &fillings[1] {
                for o in &fillings[2] {
                    let mut time = [0usize; 8];
                    for (j, fill) in [b, i, o].into_iter().enumerate() {
                        for &(q, v) in fill {
                            time[q as usize] = call[j][v];
                        }
                    }
                    let t = (0..=9)
                        .find(|&n| {
                            let mask = (0..8)
                                .filter(|&q| time[q] <= n)
                                .fold(0u64, |m, q| m | 1 << q);
                            card.wins(Pattern::Line, mask)
                        })
                        .unwrap();
                    wins_at[t] += 1;
                }
            }
        }
        let mut alive = cards_total;
        for n in 0..=9 {
            let before = frac(alive, cards_total);
            alive -= wins_at[n];
            let after = frac(alive, cards_total);
            let now = frac(wins_at[n], cards_total);
            let w = frac(1, seqs.len());
            let p_first = num_traits::pow(before.clone(), k) - num_traits::pow(after.clone(), k);
            let single =
                BigRational::from_integer(BigInt::from(k)) * &now * num_traits::pow(after, k - 1);
            shared[n] += &w * (&p_first - single);
            first[n] += w * p_first;
        }
    }
    let mut cdf = Vec::new();
    let mut acc = BigRational::zero();
    for p in first {
        acc += p;
        cdf.push(acc.clone());
    }
    (cdf, shared)
}

#[test]
fn the_us_card_contraction_equals_playing_every_card_against_every_column_sequence() {
    let card = Card::new(3, true).unwrap();
    let model = UsModel::new(&card, Pattern::Line, 9).unwrap();
    for k in [1usize, 2, 3] {
        let (cdf, shared) = brute_force(k);
        let ours = model.players(k as u32).unwrap();
        assert_eq!(ours.first.cdf_exact.as_ref().unwrap(), &cdf, "K = {k}");
        assert_eq!(ours.shared_exact.as_ref().unwrap(), &shared, "K = {k}");
        assert_eq!(cdf[9], BigRational::one());
    }
}
