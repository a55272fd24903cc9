//! The exact odds against seeded simulations of the draws and against the source article's facts.

use rand::seq::SliceRandom;
use tabula::fabfib::cards::{digits_value, DECK_SIZE};
use tabula::fabfib::odds::{discard_options, fresh_distribution, fresh_mean, reach, Pool};
use tabula::random;

#[test]
fn the_exact_reach_chance_agrees_with_a_seeded_simulation_of_draws() {
    // Hand 8,7,6 with 9,9,0 seen; keep 8, draw 2 from the 44 others; target 880.
    let pool = Pool::without_digits(&[8, 7, 6, 9, 9, 0], "t").unwrap();
    let exact = reach(&[8], &pool, 880, false).float();
    let cards: Vec<u8> = (0..10u8)
        .flat_map(|d| std::iter::repeat_n(d, usize::from(pool.count(d))))
        .collect();
    assert_eq!(cards.len(), 44);
    let mut rng = random::stream(123, 0);
    let n = 200_000;
    let mut hits = 0;
    for _ in 0..n {
        let draw: Vec<&u8> = cards.choose_multiple(&mut rng, 2).collect();
        if digits_value(8, *draw[0], *draw[1]) >= 880 {
            hits += 1;
        }
    }
    let observed = f64::from(hits) / f64::from(n);
    let sd = (exact * (1.0 - exact) / f64::from(n)).sqrt();
    assert!((observed - exact).abs() < 4.0 * sd, "{observed} vs {exact}");
}

#[test]
fn a_fresh_hand_is_worth_21001_over_28_on_average() {
    // The library sums over the ranker's distribution; here a plain triple loop over
    // card numbers gives the same total.
    let mut sum = 0u64;
    let mut count = 0u64;
    for a in 0..DECK_SIZE as u8 {
        for b in a + 1..DECK_SIZE as u8 {
            for c in b + 1..DECK_SIZE as u8 {
                sum += u64::from(digits_value(a / 5, b / 5, c / 5));
                count += 1;
            }
        }
    }
    assert_eq!(count, 19_600);
    let m = fresh_mean();
    assert_eq!((*m.numer(), *m.denom()), (21_001, 28));
    assert_eq!(sum * 28, 21_001 * 19_600);
}

#[test]
fn the_articles_876_example_is_best_played_by_throwing_everything_to_find_a_nine() {
    // The article: from 876, throw all and hope for at least one 9. Against a target of 900
    // that is the best of the seven discards.
    let options = discard_options(&[8, 7, 6], &[], 900, false, false).unwrap();
    assert_eq!(options[0].discard, vec![8, 7, 6]);
}

#[test]
fn the_fresh_distribution_sums_to_all_hands_and_tails_match_the_reach_chance() {
    let d = fresh_distribution();
    for &t in &[100u16, 500, 876, 900, 990, 999, 1000] {
        let tail: u64 = d.iter().filter(|x| x.value >= t).map(|x| x.hands).sum();
        assert_eq!(reach(&[], &Pool::full(), t, false).favourable, tail, "{t}");
        let exact: u64 = d.iter().filter(|x| x.value == t).map(|x| x.hands).sum();
        assert_eq!(reach(&[], &Pool::full(), t, true).favourable, exact, "{t}");
    }
}

mod random_pools {
    use proptest::prelude::*;
    use tabula::fabfib::calls::all_calls;
    use tabula::fabfib::odds::{reach, reach_by_cards, Pool};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn reach_by_digits_equals_the_card_by_card_count_for_any_pool(
            out in proptest::collection::vec(0u8..10, 0..12),
            kept in proptest::collection::vec(0u8..10, 0..=3),
            target_index in 0usize..220,
            exact in any::<bool>(),
        ) {
            let mut all = out.clone();
            all.extend(&kept);
            prop_assume!(Pool::without_digits(&all, "t").is_ok());
            let pool = Pool::without_digits(&all, "t").unwrap();
            let target = all_calls()[target_index];
            prop_assert_eq!(
                reach(&kept, &pool, target, exact),
                reach_by_cards(&kept, &pool, target, exact)
            );
        }
    }
}
