//! Library tests for 大石泉すき poker: every number is checked against a second method
//! (the article's Python transliterated on strings, closed-form counts, grouping instead of
//! pairwise loops) or against the figures the article prints.

use rayon::prelude::*;
use std::cmp::Ordering;
use tabula::exact;
use tabula::poker::frequency::{rank_counts, rank_frequencies};
use tabula::poker::hand::HANDS;
use tabula::poker::rule::Statistic;
use tabula::poker::search::search;
use tabula::poker::tiebreak::compare_features;
use tabula::poker::tiebreak::{all_features, Key};
use tabula::poker::verify::{
    prove_strict_weak_order, tied_pairs_after_all_rules, ties_by_grouping, verify,
    ARTICLE_TIES_AFTER_RULE_3, ARTICLE_TIES_AFTER_RULE_4,
};
use tabula::poker::{article, Features, Hand, HandRank};

fn all_strings() -> Vec<String> {
    Hand::all().map(|h| h.to_string()).collect()
}

#[test]
fn the_articles_judge_and_scores_agree_with_the_fast_code_on_all_3125_hands() {
    for (h, s) in Hand::all().zip(all_strings()) {
        let f = Features::of(&h);
        assert_eq!(article::judge_hand(&s), i64::from(f.rank.number()), "{s}");
        assert_eq!(article::py_find(&s, "すき"), i64::from(f.suki_find), "{s}");
        assert_eq!(
            article::calc_pos_score(&s),
            i64::from(f.right_places),
            "{s}"
        );
        assert_eq!(
            article::calc_stroke_score(&s),
            i64::from(f.right_strokes),
            "{s}"
        );
        assert_eq!(
            article::calc_stroke_not_score(&s),
            i64::from(f.wrong_strokes),
            "{s}"
        );
    }
}

#[test]
fn the_rank_table_matches_closed_form_counts() {
    let counts = rank_counts();
    // Closed forms over 5-letter words on 5 letters, by pattern of letter counts.
    let straight = 120 - 1; // 5! orders, less the name itself
    let four = 5 * 4 * 5; // letter, kicker, kicker's place
    let full = 5 * 4 * 10; // triple letter, pair letter, C(5,2) places of the pair
                           // Words containing すき: inclusion–exclusion over its 4 possible places (it cannot
                           // overlap itself; two copies fit in 3 ways, three do not fit).
    let with_suki = 4 * 125 - 3 * 5;
    // …of which the stronger ranks take: the name, the 23 other orders with すき glued,
    // すすすす+き / きききき+す with すき somewhere (4 + 4), and す/き full houses (9 + 9:
    // ten arrangements each, less the one with every き before every す).
    let suki = with_suki - 1 - 23 - 8 - 18;
    assert_eq!(
        counts[..6],
        [1, 5, four, straight, full, suki],
        "ranks 0 to 5"
    );
    // Three of a kind, two pair and buta share what is left of their count patterns:
    // (3,1,1): 5·C(4,2)·20 = 600, (2,2,1): 10·3·30 = 900, (2,1,1,1): 5·4·60 = 1200.
    assert_eq!(
        counts[5] + counts[6] + counts[7] + counts[8],
        600 + 900 + 1200
    );
    assert_eq!(counts.iter().sum::<u64>(), 3125);
    assert_eq!(counts, [1, 5, 100, 119, 200, 435, 516, 765, 984]);
    let rows = rank_frequencies().ranks;
    assert_eq!(exact::fraction(&rows[0].p_exact), "1/3125");
    assert_eq!(exact::fraction(&rows[5].p_exact), "87/625");
    assert_eq!(rows[8].english, HandRank::Buta.english());
}

#[test]
fn the_articles_two_tie_counts_are_reproduced_and_agree_with_grouping() {
    let v = verify(5);
    assert_eq!(v.pairs, 3125 * 3124);
    assert_eq!(v.tied_pairs_by_stage[3], ARTICLE_TIES_AFTER_RULE_3);
    assert_eq!(v.tied_pairs_by_stage[4], ARTICLE_TIES_AFTER_RULE_4);
    assert_eq!(ARTICLE_TIES_AFTER_RULE_3, 287_564);
    assert_eq!(ARTICLE_TIES_AFTER_RULE_4, 24_942);
    assert_eq!(v.tied_pairs_by_stage, v.tied_pairs_by_grouping);
    assert_eq!(
        v.tied_pairs_by_stage,
        [2_070_024, 1_915_014, 630_220, 287_564, 24_942]
    );
    // After the rank alone, the ties are the ordered pairs inside each rank of the table.
    let within_ranks: u64 = rank_counts().iter().map(|c| c * (c - 1)).sum();
    assert_eq!(v.tied_pairs_by_stage[0], within_ranks);
    let decided: u64 = v.decided_pairs_by_stage.iter().sum();
    assert_eq!(decided + v.tied_pairs_by_stage[4], v.pairs);
    assert!(v.article_figures.reproduced);
    assert_eq!(v.article_agreement.agreeing, 3125);
}

#[test]
#[ignore = "exhaustive (every ordered pair of hands, the slowest test); .ci/run runs it"]
fn the_literal_article_comparator_agrees_with_ours_on_every_ordered_pair() {
    // The article's own algorithm on strings, through rule 4 (0 for a tie), against the
    // fast comparator, over all 3,125 × 3,125 ordered pairs; and its tie counts after rules
    // 3 and 4 (the two it prints).
    let strings = all_strings();
    let feats = all_features();
    let (mismatches, ties3, ties4) = (0..HANDS)
        .into_par_iter()
        .map(|a| {
            let mut m = (0u64, 0u64, 0u64);
            for b in 0..HANDS {
                let (literal, stage) = article::compare_stage(&strings[a], &strings[b]);
                let ours = match compare_features(&feats[a], &feats[b]).order {
                    Ordering::Greater => -1,
                    Ordering::Equal => 0,
                    Ordering::Less => 1,
                };
                m.0 += u64::from(literal != ours);
                if a != b {
                    m.1 += u64::from(stage > 3);
                    m.2 += u64::from(stage > 4);
                }
            }
            m
        })
        .reduce(|| (0, 0, 0), |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2));
    assert_eq!(mismatches, 0);
    assert_eq!(ties3, 287_564);
    assert_eq!(ties4, 24_942);
}

#[test]
fn the_tied_examples_begin_with_the_articles_own_listing() {
    let v = verify(5);
    let pairs = |stage: usize| -> Vec<String> {
        v.examples[stage]
            .pairs
            .iter()
            .map(|[a, b]| format!("{a}/{b}"))
            .collect()
    };
    // The article prints these after rules 1–3 …
    assert_eq!(
        pairs(3)[..4],
        [
            "大大大大石/大大大大泉",
            "大大大大石/大大大大す",
            "大大大大石/大大大石大",
            "大大大大石/大大大泉大"
        ]
    );
    // … and this one first after rule 4.
    assert_eq!(pairs(4)[0], "大大大大石/大大大石大");
    for e in &v.examples {
        assert_eq!(e.pairs.len(), 5);
    }
}

#[test]
fn the_comparator_is_proven_a_strict_weak_order_with_948_tie_classes() {
    let v = verify(0);
    let p = &v.strict_weak_order;
    assert!(p.irreflexive && p.antisymmetric && p.transitive && p.equals_key_order);
    assert_eq!(p.pairs_checked, 3125 * 3125);
    // Tie classes counted independently: distinct strength keys.
    let mut keys: Vec<Key> = all_features().iter().map(Features::key).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(p.levels, keys.len() as u64);
    assert_eq!(p.levels, 948);
}

#[test]
fn the_articles_last_line_fails_the_proof_and_answers_1_both_ways() {
    let feats = all_features();
    let keys: Vec<Key> = feats.iter().map(Features::key).collect();
    // The article's final comparator: a tie after rule 4 is "b wins" (Less), both ways round.
    let article_like = |a: usize, b: usize| match compare_features(&feats[a], &feats[b]).order {
        Ordering::Equal if a != b => Ordering::Less,
        o => o,
    };
    let p = prove_strict_weak_order(HANDS, &keys, article_like, false);
    assert!(p.irreflexive);
    assert!(!p.antisymmetric);
    assert!(!p.transitive);
    let v = verify(1);
    let d = &v.article_defect;
    assert_eq!((d.article_compare_ab, d.article_compare_ba), (1, 1));
    assert_eq!(article::compare_hand(&d.a, &d.b), 1);
    assert_eq!(article::compare_hand(&d.b, &d.a), 1);
    assert_eq!(d.pairs_answering_1_both_ways, ARTICLE_TIES_AFTER_RULE_4);
}

#[test]
fn the_proof_catches_a_cycle_even_when_antisymmetric() {
    // Rock–paper–scissors on three items: antisymmetric, irreflexive, not transitive.
    let rps = |a: usize, b: usize| {
        if a == b {
            Ordering::Equal
        } else if (a + 1) % 3 == b {
            Ordering::Greater
        } else {
            Ordering::Less
        }
    };
    let p = prove_strict_weak_order(3, &[0, 1, 2], rps, false);
    assert!(p.irreflexive && p.antisymmetric);
    assert!(!p.transitive);
    // A plain order by value passes, with one class per value.
    let values = [2, 0, 2, 1];
    let p = prove_strict_weak_order(4, &values, |a, b| values[a].cmp(&values[b]), true);
    assert!(p.transitive && p.equals_key_order);
    assert_eq!(p.levels, 3);
}

/// Ordered pairs tied after the four rules and the given statistics, by grouping the hands.
fn ties_by_grouping_with(stats: &[&str]) -> u64 {
    let fam = Statistic::family();
    let chosen: Vec<Vec<i32>> = stats
        .iter()
        .map(|name| {
            fam.iter()
                .find(|s| s.description() == *name)
                .expect("a statistic")
                .values()
        })
        .collect();
    let feats = all_features();
    let mut rows: Vec<(Key, Vec<i32>)> = (0..HANDS)
        .map(|h| (feats[h].key(), chosen.iter().map(|v| v[h]).collect()))
        .collect();
    rows.sort();
    rows.chunk_by(|x, y| x == y)
        .map(|g| (g.len() * (g.len() - 1)) as u64)
        .sum()
}

#[test]
fn the_rule_search_finds_a_three_statistic_rule_that_leaves_no_ties() {
    let r = search(3);
    assert_eq!(r.tied_pairs_before, 24_942);
    assert_eq!(r.singles.len(), Statistic::family().len());
    // Each depth's best, recounted by grouping hands on (key, statistics).
    for d in &r.by_depth {
        let names: Vec<&str> = d.best.rules.iter().map(String::as_str).collect();
        assert_eq!(
            ties_by_grouping_with(&names),
            d.best.tied_pairs,
            "{names:?}"
        );
    }
    assert_eq!(r.by_depth[0].best.tied_pairs, 522);
    assert_eq!(r.by_depth[0].best.rules, ["Σ strokes × position"]);
    assert_eq!(r.by_depth[1].best.tied_pairs, 8);
    assert_eq!(r.by_depth[1].zero_tie_rules, 0);
    assert_eq!(r.by_depth[2].best.tied_pairs, 0);
    assert_eq!(r.by_depth[2].zero_tie_rules, 56);
    assert!(r.breaks_all_ties);
    for rules in &r.by_depth[2].zero_tie_examples {
        let names: Vec<&str> = rules.iter().map(String::as_str).collect();
        assert_eq!(ties_by_grouping_with(&names), 0, "{names:?}");
    }
    // The remaining pairs of the best two-statistic rule: 4 unordered pairs.
    assert_eq!(r.by_depth[1].remaining_examples.len(), 4);
}

#[test]
fn the_tie_list_holds_half_the_ordered_ties_after_rule_4() {
    let keys: Vec<Key> = all_features().iter().map(Features::key).collect();
    let tied = tied_pairs_after_all_rules(&keys);
    assert_eq!(2 * tied.len() as u64, ties_by_grouping(&keys, 4));
    assert!(tied
        .iter()
        .all(|&(a, b)| a < b && keys[a as usize] == keys[b as usize]));
}

#[test]
fn verification_is_the_same_with_one_thread_or_two() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            (
                serde_json::to_string(&verify(3)).unwrap(),
                serde_json::to_string(&search(2)).unwrap(),
            )
        })
    };
    assert_eq!(run(1), run(2));
}
