//! Property tests of the ranking engine on large parameters: for each ranker, random ranks
//! round-trip through `unrank` and `rank`, random valid objects round-trip through `rank`
//! and `unrank`, `advance` steps from rank `r` to rank `r + 1`, and ranks follow each
//! ranker's documented order. Where a closed form exists (words, combinations,
//! k-permutations) the rank is also recomputed independently in 128-bit arithmetic.

use proptest::prelude::*;
use tabula::rank::{Combinations, KPermutations, Multisets, Ranker, Words};

/// Seed order of count vectors: numbers whose most significant digit is the last place.
fn seed_less(a: &[u8], b: &[u8]) -> bool {
    a.iter().rev().lt(b.iter().rev())
}

/// Colex order of ascending subsets: compare the largest elements first.
fn colex_less(a: &[u8], b: &[u8]) -> bool {
    a.iter().rev().lt(b.iter().rev())
}

/// Binomial coefficient in u128 (independent of the engine's own table).
fn binom128(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1))
}

/// The three properties every ranker must have at rank `r` and object `x`.
fn check_ranker<R: Ranker>(
    ranker: &R,
    r: u64,
    r2: u64,
    x: &[u8],
    less: impl Fn(&[u8], &[u8]) -> bool,
) -> Result<(), TestCaseError> {
    let len = ranker.len();
    // rank(unrank(r)) = r
    let obj = ranker.unrank(r).expect("r < len");
    prop_assert_eq!(ranker.rank(&obj).expect("a member"), r);
    // unrank(rank(x)) = x
    let rx = ranker.rank(x).expect("x is valid");
    prop_assert!(rx < len);
    prop_assert_eq!(ranker.unrank(rx).expect("in range"), x.to_vec());
    // advance agrees with r + 1
    let mut next = obj.clone();
    let moved = ranker.advance(&mut next);
    if r + 1 < len {
        prop_assert!(moved);
        prop_assert_eq!(&next, &ranker.unrank(r + 1).expect("in range"));
        prop_assert!(less(&obj, &next));
    } else {
        prop_assert!(!moved);
    }
    // ranks follow the documented order
    let other = ranker.unrank(r2).expect("r2 < len");
    prop_assert_eq!(r < r2, less(&obj, &other));
    prop_assert_eq!(r2 < r, less(&other, &obj));
    // one past the end is refused
    prop_assert!(ranker.unrank(len).is_err());
    Ok(())
}

/// A rank below `len` from a random seed: one time in eight the last rank, one in eight
/// the first, otherwise uniform (the ends are where off-by-ones live).
fn pick(seed: u64, len: u64) -> u64 {
    match seed % 8 {
        0 => len - 1,
        1 => 0,
        _ => (seed / 8) % len,
    }
}

/// `places` places and a random vector of `items` items, built from random place choices.
fn multiset_case() -> impl Strategy<Value = (usize, u32, Vec<u8>)> {
    (1usize..=30, 0u32..=20).prop_flat_map(|(places, items)| {
        proptest::collection::vec(0..places, items as usize).prop_map(move |choices| {
            let mut v = vec![0u8; places];
            for c in choices {
                v[c] += 1;
            }
            (places, items, v)
        })
    })
}

/// `n`, `k` and a random k-subset (ascending) or k-permutation of `0..n`.
fn subset_case(max_n: usize) -> impl Strategy<Value = (usize, usize, Vec<u8>)> {
    (1usize..=max_n)
        .prop_flat_map(|n| (Just(n), 0..=n))
        .prop_flat_map(|(n, k)| {
            Just((0..n as u8).collect::<Vec<u8>>())
                .prop_shuffle()
                .prop_map(move |all| (n, k, all[..k].to_vec()))
        })
}

/// An alphabet size and a word length whose family fits a u64, and a random word.
fn words_case() -> impl Strategy<Value = (usize, usize, Vec<u8>)> {
    (1usize..=256)
        .prop_flat_map(|a| {
            let max_len = (0..=64u32)
                .take_while(|&l| (a as u64).checked_pow(l).is_some())
                .last()
                .unwrap_or(0) as usize;
            (Just(a), 0..=max_len)
        })
        .prop_flat_map(|(a, length)| {
            proptest::collection::vec(0..a, length).prop_map(move |w| {
                (
                    a,
                    length,
                    w.into_iter().map(|c| c as u8).collect::<Vec<u8>>(),
                )
            })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn multisets_up_to_30_places_and_20_items_round_trip_in_seed_order(
        (places, items, x) in multiset_case(),
        seeds in (any::<u64>(), any::<u64>()),
    ) {
        let m = Multisets::new(places, items).expect("fits");
        let len = m.len();
        prop_assert_eq!(u128::from(len), binom128((places + items as usize - 1) as u128, items.into()));
        check_ranker(&m, pick(seeds.0, len), pick(seeds.1, len), &x, seed_less)?;
    }

    #[test]
    fn combinations_up_to_64_round_trip_in_colex_order(
        (n, k, mut x) in subset_case(64),
        seeds in (any::<u64>(), any::<u64>()),
    ) {
        x.sort_unstable();
        let c = Combinations::new(n, k).expect("fits");
        let len = c.len();
        prop_assert_eq!(u128::from(len), binom128(n as u128, k as u128));
        // Independent rank: the combinatorial number system, Σ C(c_i, i + 1).
        let expected: u128 = x.iter().enumerate().map(|(i, &ci)| binom128(ci.into(), i as u128 + 1)).sum();
        prop_assert_eq!(u128::from(c.rank(&x).expect("valid")), expected);
        // Masks: rank_mask / unrank_mask / next_mask agree with the slice API.
        let r = pick(seeds.0, len);
        let mask = c.unrank_mask(r).expect("in range");
        prop_assert_eq!(mask.count_ones() as usize, k);
        prop_assert_eq!(c.rank_mask(mask).expect("valid"), r);
        match c.next_mask(mask) {
            Some(m2) => {
                prop_assert!(m2 > mask);
                prop_assert_eq!(c.rank_mask(m2).expect("valid"), r + 1);
            }
            None => prop_assert_eq!(r, len - 1),
        }
        check_ranker(&c, r, pick(seeds.1, len), &x, colex_less)?;
    }

    #[test]
    fn k_permutations_up_to_20_round_trip_in_lexicographic_order(
        (n, k, x) in subset_case(20),
        seeds in (any::<u64>(), any::<u64>()),
    ) {
        let p = KPermutations::new(n, k).expect("fits");
        let len = p.len();
        let falling: u128 = (0..k as u128).map(|i| n as u128 - i).product();
        prop_assert_eq!(u128::from(len), falling);
        // Independent rank: each value's place among the unused ones, in mixed radix.
        let mut expected = 0u128;
        for (i, &v) in x.iter().enumerate() {
            let smaller_unused = (0..v).filter(|u| !x[..i].contains(u)).count() as u128;
            let rest: u128 = (i as u128 + 1..k as u128).map(|j| n as u128 - j).product();
            expected += smaller_unused * rest;
        }
        prop_assert_eq!(u128::from(p.rank(&x).expect("valid")), expected);
        check_ranker(&p, pick(seeds.0, len), pick(seeds.1, len), &x, |a, b| a < b)?;
    }

    #[test]
    fn words_over_large_alphabets_round_trip_in_lexicographic_order(
        (a, length, x) in words_case(),
        seeds in (any::<u64>(), any::<u64>()),
    ) {
        let w = Words::new(a, length).expect("fits");
        let len = w.len();
        prop_assert_eq!(u128::from(len), (a as u128).pow(length as u32));
        let expected = x.iter().fold(0u128, |acc, &c| acc * a as u128 + u128::from(c));
        prop_assert_eq!(u128::from(w.rank(&x).expect("valid")), expected);
        check_ranker(&w, pick(seeds.0, len), pick(seeds.1, len), &x, |p, q| p < q)?;
    }

    #[test]
    fn ranks_near_the_end_of_huge_families_round_trip(
        back in 0u64..1000,
    ) {
        // The largest families each ranker accepts in tests: C(64, 32), 20!, 2^63, C(49, 20).
        let c = Combinations::new(64, 32).expect("fits");
        let p = KPermutations::new(20, 20).expect("fits");
        let w = Words::new(2, 63).expect("fits");
        let m = Multisets::new(30, 20).expect("fits");
        for ranker in [&c as &dyn Ranker, &p, &w, &m] {
            let r = ranker.len() - 1 - back;
            let obj = ranker.unrank(r).expect("in range");
            prop_assert_eq!(ranker.rank(&obj).expect("member"), r);
        }
    }
}
