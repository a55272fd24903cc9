//! Chosen rules and the strength of a hand (issue #17), each figure checked by a second,
//! independent method: grouping hands on values computed straight from the statistics,
//! the search's own tie counts, and pairwise comparator loops against sorted keys.

use rayon::prelude::*;
use std::cmp::Ordering;
use tabula::exact;
use tabula::poker::hand::HANDS;
use tabula::poker::rule::{Rule, Statistic};
use tabula::poker::search::search;
use tabula::poker::strength::{strength, strength_table};
use tabula::poker::tiebreak::all_features;
use tabula::poker::tiebreak::compare_features;
use tabula::poker::verify::verify_rule;
use tabula::poker::{Features, Hand};

/// Distinct (article key, statistic values) over all hands, computed without `Rule`.
fn classes_by_grouping(names: &[&str]) -> usize {
    let columns: Vec<Vec<i32>> = names
        .iter()
        .map(|n| Statistic::from_name(n).expect("a statistic").values())
        .collect();
    let feats = all_features();
    let mut rows: Vec<(u32, Vec<i32>)> = (0..HANDS)
        .map(|h| (feats[h].key().0, columns.iter().map(|c| c[h]).collect()))
        .collect();
    rows.sort();
    rows.dedup();
    rows.len()
}

#[test]
fn each_of_the_56_tie_free_rules_is_typed_by_its_name_and_separates_every_hand() {
    let report = search(3);
    let names = &report.by_depth[2].zero_tie_names;
    assert_eq!(names.len(), 56);
    for name in names {
        let rule = Rule::parse(name).expect("a name the search prints parses");
        assert_eq!(&rule.name(), name);
        let parts: Vec<&str> = name.split('+').collect();
        assert_eq!(classes_by_grouping(&parts), HANDS, "{name}");
    }
}

#[test]
fn verify_proves_the_readme_rule_tie_free_and_keeps_the_articles_counts() {
    let rule = Rule::parse("stroke-pos+stroke-at-4+stroke-at-3").unwrap();
    let v = verify_rule(&rule, 1);
    assert!(v.holds(), "{:?}", v.failures());
    assert_eq!(
        v.tied_pairs_by_stage[..5],
        [2_070_024, 1_915_014, 630_220, 287_564, 24_942]
    );
    assert_eq!(v.tied_pairs_by_stage, v.tied_pairs_by_grouping);
    // After the first statistic alone: the search's single-statistic count.
    let single = search(1)
        .singles
        .into_iter()
        .find(|s| s.name == "stroke-pos")
        .unwrap();
    assert_eq!(v.tied_pairs_by_stage[5], single.tied_pairs);
    assert_eq!(*v.tied_pairs_by_stage.last().unwrap(), 0);
    let f = v.fifth_rule.as_ref().expect("a fifth rule is reported");
    assert!(f.tie_free);
    assert_eq!(v.strict_weak_order.levels, 3125);
    assert_eq!(v.stages.len(), 8);
    assert_eq!(v.stages[5..], ["stroke-pos", "stroke-at-4", "stroke-at-3"]);
}

#[test]
fn a_rule_that_leaves_ties_is_verified_but_not_tie_free() {
    for (name, ties) in [("stroke-pos", 522), ("ssd", 1388), ("stroke-pos+ssd", 8)] {
        let v = verify_rule(&Rule::parse(name).unwrap(), 0);
        assert!(v.holds(), "{name}");
        let f = v.fifth_rule.as_ref().unwrap();
        assert!(!f.tie_free, "{name}");
        assert_eq!(f.tied_pairs, ties, "{name}");
        let parts: Vec<&str> = name.split('+').collect();
        assert!(classes_by_grouping(&parts) < HANDS);
    }
}

#[test]
fn a_fifth_rule_orders_the_articles_ties_by_its_oriented_values() {
    // Recomputed here: on every pair the article ties, the winner is the hand whose
    // statistics, compared in turn (smaller SSD wins), are better.
    let rule = Rule::parse("stroke-pos+ssd+possum-o").unwrap();
    let stats = rule.fifth().to_vec();
    let feats = all_features();
    let hands: Vec<Hand> = Hand::all().collect();
    let oriented = |h: &Hand| -> Vec<i32> {
        let x = h.letters();
        vec![stats[0].value(&x), -stats[1].value(&x), stats[2].value(&x)]
    };
    let mut checked = 0;
    for a in 0..HANDS {
        for b in 0..HANDS {
            if a != b && compare_features(&feats[a], &feats[b]).order == Ordering::Equal {
                let expected = oriented(&hands[a]).cmp(&oriented(&hands[b]));
                assert_eq!(rule.compare(&hands[a], &hands[b]).order, expected);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 24_942);
}

/// `(beats, ties)` of every hand by running `cmp` on all 3,125 opponents.
fn pairwise_counts(cmp: impl Fn(usize, usize) -> Ordering + Sync) -> Vec<(u64, u64)> {
    (0..HANDS)
        .into_par_iter()
        .map(|a| {
            (0..HANDS).fold((0, 0), |(w, t), b| match cmp(a, b) {
                Ordering::Greater => (w + 1, t),
                Ordering::Equal => (w, t + 1),
                Ordering::Less => (w, t),
            })
        })
        .collect()
}

#[test]
fn the_strength_table_equals_summing_pairwise_comparisons() {
    let feats = all_features();
    let by_article = pairwise_counts(|a, b| compare_features(&feats[a], &feats[b]).order);
    let rule = Rule::parse("stroke-pos+stroke-at-4+stroke-at-3").unwrap();
    let hands: Vec<Hand> = Hand::all().collect();
    let by_rule = pairwise_counts(|a, b| rule.compare(&hands[a], &hands[b]).order);
    for (r, pairwise) in [(Rule::article(), by_article), (rule.clone(), by_rule)] {
        let table = strength_table(&r);
        assert_eq!(table.hands.len(), HANDS);
        assert_eq!(table.opponents, 3125);
        for s in &table.hands {
            assert_eq!((s.beats, s.ties), pairwise[s.index], "{} under {r}", s.hand);
            assert_eq!(s.beats + s.ties + s.loses_to, 3125);
            assert_eq!(
                *s.p_win_exact.numer() * 3125 / *s.p_win_exact.denom(),
                s.beats
            );
            assert_eq!(s.p_win, s.beats as f64 / 3125.0);
        }
        // Strongest first.
        assert!(table.hands.windows(2).all(|w| w[0].beats >= w[1].beats));
    }
}

#[test]
fn wins_and_losses_balance_and_ties_are_the_articles_24942_plus_each_hand_itself() {
    let table = strength_table(&Rule::article());
    let wins: u64 = table.hands.iter().map(|s| s.beats).sum();
    let losses: u64 = table.hands.iter().map(|s| s.loses_to).sum();
    let ties: u64 = table.hands.iter().map(|s| s.ties).sum();
    assert_eq!(wins, losses);
    assert_eq!(ties, 3125 + 24_942);
    assert_eq!(wins + losses + ties, 3125 * 3125);
    // Under a tie-free rule every hand ties only itself, and the hands beat 0 … 3,124.
    let table = strength_table(&Rule::parse("stroke-pos+ssd+possum-o").unwrap());
    assert!(table.hands.iter().all(|s| s.ties == 1));
    let mut beats: Vec<u64> = table.hands.iter().map(|s| s.beats).collect();
    beats.sort_unstable();
    assert_eq!(beats, (0..3125).collect::<Vec<u64>>());
}

#[test]
fn one_hands_strength_is_its_row_of_the_table_in_lowest_terms() {
    let table = strength_table(&Rule::article());
    for text in ["すき泉きす", "大大大大大", "大石泉すき"] {
        let hand = Hand::parse(text).unwrap();
        let s = strength(&hand, &Rule::article());
        assert_eq!(
            table.hands.iter().find(|r| r.index == hand.index()),
            Some(&s)
        );
        assert_eq!(s.rank, Features::of(&hand).rank.number());
        for (p, n) in [(&s.p_win_exact, s.beats), (&s.p_tie_exact, s.ties)] {
            assert_eq!(*p * num_rational::Ratio::from_integer(3125), n.into());
        }
    }
    // 大大大大大 loses to the name and the three stronger five of a kind only: it beats
    // 3,120 hands, 624/625 in lowest terms.
    let s = strength(&Hand::parse("ooooo").unwrap(), &Rule::article());
    assert_eq!((s.beats, s.ties, s.loses_to), (3120, 1, 4));
    assert_eq!(exact::fraction(&s.p_win_exact), "624/625");
}
