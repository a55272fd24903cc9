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
use tabula::bingo::players::{Cards, UsModel};
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

/// For one column sequence: `wins_at[n]`, how many of the 216 cards first have a line on
/// call n.
fn first_wins(card: &Card, fillings: &[Vec<Vec<(u32, usize)>>], seq: &[usize]) -> Vec<usize> {
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
    wins_at.to_vec()
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
        let wins_at = first_wins(&card, &fillings, seq);
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

/// The hall's rule, played literally on the completion calls `t` of K cards: whether card 0
/// gets a prize (or a share), the call of the last prize, and whether it is split.
fn hall(t: &[usize], prizes: usize) -> (bool, usize, bool) {
    let mut left = prizes;
    let mut calls: Vec<usize> = t.to_vec();
    calls.sort_unstable();
    calls.dedup();
    let (mut first_prize, mut last, mut split) = (false, 0, false);
    for n in calls {
        if left == 0 {
            break;
        }
        let j = t.iter().filter(|&&x| x == n).count();
        if t[0] == n {
            first_prize = true;
        }
        if j >= left {
            last = n;
            split = j > left;
            left = 0;
        } else {
            left -= j;
        }
    }
    (first_prize, last, split)
}

/// Every K-tuple of cards, grouped by their completion calls: `weights[n]` cards of
/// `total` complete on call n; returns P(card 0 gets a prize), P(last prize by call n),
/// P(the last prize is split), exactly.
fn tuples(
    weights: &[usize],
    total: usize,
    k: usize,
    prizes: usize,
) -> (BigRational, Vec<BigRational>, BigRational) {
    let calls: Vec<usize> = (0..weights.len()).filter(|&n| weights[n] > 0).collect();
    let mut chance = BigRational::zero();
    let mut last = vec![BigRational::zero(); weights.len()];
    let mut split = BigRational::zero();
    let mut idx = vec![0usize; k];
    loop {
        let t: Vec<usize> = idx.iter().map(|&i| calls[i]).collect();
        let w = t.iter().fold(BigRational::one(), |a, &n| {
            a * BigRational::new(BigInt::from(weights[n]), BigInt::from(total))
        });
        let (prize, at, shared) = hall(&t, prizes);
        if prize {
            chance += &w;
        }
        if shared {
            split += &w;
        }
        last[at] += w;
        // Next tuple (odometer).
        let mut d = 0;
        while d < k && idx[d] + 1 == calls.len() {
            idx[d] = 0;
            d += 1;
        }
        if d == k {
            break;
        }
        idx[d] += 1;
    }
    let mut acc = BigRational::zero();
    let cdf = last
        .into_iter()
        .map(|p| {
            acc += p;
            acc.clone()
        })
        .collect();
    (chance, cdf, split)
}

#[test]
#[ignore = "exhaustive (every card and column sequence); .ci/run runs it"]
fn each_player_s_chance_of_a_prize_with_us_cards_is_the_hall_rule_on_every_card() {
    // The 3×3 card with 9 numbers: every column sequence, every card, the rule played out.
    let card = Card::new(3, true).unwrap();
    let fillings = column_fillings(&card);
    let mut seqs = Vec::new();
    sequences(&mut [3, 3, 3], &mut Vec::new(), &mut seqs);
    let setup = tabula::bingo::Setup::new(3, true, Some(9), Pattern::Line).unwrap();
    for (k, prizes) in [(2usize, 1usize), (3, 1), (3, 2), (4, 2)] {
        let (mut chance, mut cdf, mut split) = (
            BigRational::zero(),
            vec![BigRational::zero(); 10],
            BigRational::zero(),
        );
        let per_seq = BigRational::new(BigInt::one(), BigInt::from(seqs.len()));
        for seq in &seqs {
            let wins_at = first_wins(&card, &fillings, seq);
            let (c, l, s) = tuples(&wins_at, 216, k, prizes);
            chance += &per_seq * c;
            split += &per_seq * s;
            for (a, b) in cdf.iter_mut().zip(l) {
                *a += &per_seq * b;
            }
        }
        let ours = tabula::bingo::prizes::prizes(
            &setup,
            k as u32,
            prizes as u32,
            Some(Cards::Us),
            tabula::progress::Progress::SILENT,
        )
        .unwrap();
        // Exact fractions, equal to the rule played out.
        assert!(ours.exact, "K = {k}, k = {prizes}");
        assert_eq!(
            ours.chance_exact.as_ref(),
            Some(&chance),
            "K = {k}, k = {prizes}"
        );
        assert_eq!(
            ours.split_exact.as_ref(),
            Some(&split),
            "K = {k}, k = {prizes}"
        );
        assert_eq!(ours.last_law.cdf_exact.as_ref(), Some(&cdf));
        let f = tabula::exact::big_float;
        assert!((ours.chance - f(&chance)).abs() < 1e-15);
        assert!((ours.split - f(&split)).abs() < 1e-15);
    }
}

#[test]
fn each_player_s_chance_of_a_prize_with_uniform_cards_is_the_hall_rule_on_every_card() {
    // The 3×3 card with 8 numbers: every card is an arrangement of the 8 numbers (8! of
    // them); fix the call order 1, 2, …, 8 (any other is a relabelling) and play the rule
    // on every K-tuple of cards, grouped by their completion calls. Exact fractions.
    let card = Card::new(3, true).unwrap();
    let mut weights = vec![0usize; 9];
    let perms = KPermutations::new(8, 8).unwrap();
    for arrangement in perms.iter() {
        // Square q holds number arrangement[q] + 1, called on that call.
        let t = (0..=8)
            .find(|&n| {
                let mask = (0..8)
                    .filter(|&q| usize::from(arrangement[q]) < n)
                    .fold(0u64, |m, q| m | 1 << q);
                card.wins(Pattern::Line, mask)
            })
            .unwrap();
        weights[t] += 1;
    }
    let setup = tabula::bingo::Setup::new(3, true, Some(8), Pattern::Line).unwrap();
    for (k, prizes) in [(2usize, 1usize), (3, 1), (3, 2), (3, 3), (5, 2), (6, 4)] {
        let (chance, cdf, split) = tuples(&weights, 40_320, k, prizes);
        let ours = tabula::bingo::prizes::prizes(
            &setup,
            k as u32,
            prizes as u32,
            Some(Cards::Uniform),
            tabula::progress::Progress::SILENT,
        )
        .unwrap();
        assert_eq!(
            ours.chance_exact.as_ref(),
            Some(&chance),
            "K = {k}, k = {prizes}"
        );
        assert_eq!(
            ours.split_exact.as_ref(),
            Some(&split),
            "K = {k}, k = {prizes}"
        );
        assert_eq!(ours.last_law.cdf_exact.as_ref(), Some(&cdf));
    }
}
