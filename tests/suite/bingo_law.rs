//! Cross-checks of the bingo laws between independent methods and closed forms.

use num_bigint::BigInt;
use num_rational::BigRational;
use tabula::bingo::simulate::simulate;
use tabula::bingo::{exact_law, Card, Law, Method, Pattern};
use tabula::progress::Progress;
use tabula::stats::chi_square;

fn frac(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn probs(law: &Law) -> Vec<f64> {
    (0..=law.max()).map(|n| law.p(n)).collect()
}

#[test]
fn blackout_and_corners_have_the_order_statistic_mean_k_times_m_plus_one_over_k_plus_one() {
    // The last of k given numbers among M calls comes on average at k(M + 1)/(k + 1).
    let card = Card::new(5, true).unwrap();
    for method in [Method::Enumerate, Method::InclusionExclusion] {
        let blackout = exact_law(&card, Pattern::Blackout, 75, method).unwrap();
        assert_eq!(blackout.mean_exact().unwrap(), frac(24 * 76, 25));
        let corners = exact_law(&card, Pattern::Corners, 75, method).unwrap();
        assert_eq!(corners.mean_exact().unwrap(), frac(4 * 76, 5));
    }
}

#[test]
fn the_five_by_five_line_law_has_the_mean_found_by_both_exact_methods() {
    let card = Card::new(5, true).unwrap();
    let a = exact_law(&card, Pattern::Line, 75, Method::Enumerate).unwrap();
    let b = exact_law(&card, Pattern::Line, 75, Method::InclusionExclusion).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.mean_exact().unwrap(), frac(8_491_934, 205_275));
    // The seed's "about 3 in a million" for a win on the 4th call: 4 / C(75, 4).
    assert_eq!(a.p_exact(4).unwrap(), frac(4, 1_215_450));
}

#[test]
fn the_dragon_quest_drum_of_twenty_four_numbers_always_ends_by_the_last_call() {
    let card = Card::new(5, true).unwrap();
    let law = exact_law(&card, Pattern::Line, 24, Method::InclusionExclusion).unwrap();
    assert_eq!(
        law,
        exact_law(&card, Pattern::Line, 24, Method::Enumerate).unwrap()
    );
    assert_eq!(law.p_exact(4).unwrap(), frac(4, 10_626)); // 4 / C(24, 4)
    assert_eq!(law.cdf_exact.as_ref().unwrap()[24], frac(1, 1));
    assert_eq!(law.mean_exact().unwrap(), frac(4_245_967, 312_018));
}

#[test]
fn simulated_reach_games_fit_the_enumerated_reach_law() {
    // Reach has no inclusion–exclusion: enumeration is checked against games instead.
    let card = Card::new(5, true).unwrap();
    let law = exact_law(&card, Pattern::Reach, 75, Method::Enumerate).unwrap();
    let sample = simulate(&card, Pattern::Reach, 75, 400_000, 3, Progress::SILENT).unwrap();
    let chi = chi_square(&sample.counts, &probs(&law));
    assert!(chi.p_value > 1e-4, "{chi:?}");
    assert!(chi.df > 20);
}

#[test]
fn a_wrong_law_is_rejected_by_the_same_test() {
    // The test has power: the seed's formula is rejected by a large sample.
    let card = Card::new(5, true).unwrap();
    let sample = simulate(&card, Pattern::Line, 75, 2_000_000, 4, Progress::SILENT).unwrap();
    let f = tabula::bingo::formula::formula_cdf(&card, 75);
    let formula_p: Vec<f64> = (0..f.len())
        .map(|n| f[n] - if n == 0 { 0.0 } else { f[n - 1] })
        .collect();
    assert!(chi_square(&sample.counts, &formula_p).p_value < 1e-6);
    let exact = exact_law(&card, Pattern::Line, 75, Method::Auto).unwrap();
    assert!(chi_square(&sample.counts, &probs(&exact)).p_value > 1e-4);
}

#[test]
fn every_pattern_on_four_by_four_agrees_across_exact_methods_and_games() {
    let card = Card::new(4, false).unwrap();
    for p in Pattern::ALL {
        let law = exact_law(&card, p, 60, Method::Enumerate).unwrap();
        if p != Pattern::Reach {
            assert_eq!(
                law,
                exact_law(&card, p, 60, Method::InclusionExclusion).unwrap()
            );
        }
        let sample = simulate(&card, p, 60, 100_000, 11, Progress::SILENT).unwrap();
        let chi = chi_square(&sample.counts, &probs(&law));
        assert!(chi.p_value > 1e-5, "{p}: {chi:?}");
    }
}

#[test]
fn patterns_are_ordered_as_they_should_be() {
    // reach ≤ line ≤ double ≤ triple ≤ blackout, and hardway ≥ line, call for call.
    let card = Card::new(5, true).unwrap();
    let law = |p| exact_law(&card, p, 75, Method::Auto).unwrap();
    let chain = [
        law(Pattern::Reach),
        law(Pattern::Line),
        law(Pattern::Double),
        law(Pattern::Triple),
        law(Pattern::Blackout),
    ];
    let hardway = law(Pattern::Hardway);
    for n in 0..=75 {
        for pair in chain.windows(2) {
            assert!(pair[0].cdf[n] >= pair[1].cdf[n]);
        }
        assert!(chain[1].cdf[n] >= hardway.cdf[n]);
    }
}

#[test]
fn the_sample_variance_of_many_games_meets_the_exact_variance() {
    let card = Card::new(5, true).unwrap();
    let law = exact_law(&card, Pattern::Line, 75, Method::Auto).unwrap();
    let sample = simulate(&card, Pattern::Line, 75, 400_000, 12, Progress::SILENT).unwrap();
    let g = sample.games as f64;
    let mean = tabula::stats::sample_mean(&sample.counts);
    let var: f64 = sample
        .counts
        .iter()
        .enumerate()
        .map(|(n, &k)| k as f64 * (n as f64 - mean).powi(2))
        .sum::<f64>()
        / (g - 1.0);
    // The sampling error of a variance is about √((μ₄ − σ⁴)/g); μ₄ from the exact law.
    let m4: f64 = (0..=law.max())
        .map(|n| law.p(n) * (n as f64 - law.mean()).powi(4))
        .sum();
    let se = ((m4 - law.variance().powi(2)) / g).sqrt();
    assert!(
        (var - law.variance()).abs() < 5.0 * se,
        "{var} vs {}",
        law.variance()
    );
}
