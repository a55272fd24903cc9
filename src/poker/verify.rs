//! Exhaustive verification of the comparator over all 3,125 × 3,124 ordered pairs of
//! different hands, as a loop over hand indices.
//!
//! - Tie counts after each stage, by two methods: the pairwise comparator loop, and
//!   grouping the hands by the prefix of their strength key (Σ n(n−1) over the groups).
//! - Strict weak order, proven: the hands are sorted by key, given integer *levels* by the
//!   comparator itself (a new level wherever two neighbours do not tie), and then every
//!   ordered pair is checked to compare exactly as its levels do. A relation equal to the
//!   comparison of an integer function is irreflexive, antisymmetric and transitive, and so
//!   is its tie relation: a strict weak order.
//! - The article's defect on a concrete pair, with its literal comparator ([`super::article`]).

use super::article;
use super::hand::{Hand, HANDS};
use super::rule::{Rule, Step, Strengths, MAX_STATISTICS};
use super::tiebreak::{compare_features, Stage};
use super::tiebreak::{Features, Key};
use super::Error;
use rayon::prelude::*;
use serde::Serialize;
use std::cmp::Ordering;

/// The two tie counts the article prints: after rules 1–3 and after rules 1–4.
pub const ARTICLE_TIES_AFTER_RULE_3: u64 = 287_564;
/// See [`ARTICLE_TIES_AFTER_RULE_3`].
pub const ARTICLE_TIES_AFTER_RULE_4: u64 = 24_942;

/// The full verification report.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// Ordered pairs of different hands: 3,125 × 3,124.
    pub pairs: u64,
    /// Stage names, in the order of the counts below: the rank, the article's four rules,
    /// then the fifth rule's statistics if one is chosen.
    pub stages: Vec<String>,
    /// Ordered pairs still tied after the rank alone, then after each rule in turn
    /// (pairwise comparator loop).
    pub tied_pairs_by_stage: Vec<u64>,
    /// The same counts by the second method (grouping by key prefix).
    pub tied_pairs_by_grouping: Vec<u64>,
    /// Ordered pairs decided at each stage (their sum plus the final ties is `pairs`).
    pub decided_pairs_by_stage: Vec<u64>,
    /// The article's two printed counts and whether they are reproduced.
    #[serde(rename = "seed_figures")]
    pub article_figures: ArticleFigures,
    /// Whether the transliterated article functions agree with the fast ones on every hand.
    #[serde(rename = "seed_agreement")]
    pub article_agreement: ArticleAgreement,
    /// The strict weak order proof.
    pub strict_weak_order: OrderProof,
    /// The first tied pairs (in index order) after each stage.
    pub examples: Vec<StageExamples>,
    /// The article's invalid last line, shown on a concrete pair.
    #[serde(rename = "seed_defect")]
    pub article_defect: ArticleDefect,
    /// The fifth rule, when one is chosen: whether it leaves any tie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fifth_rule: Option<FifthRuleProof>,
}

/// What `verify` proves about a chosen fifth rule.
#[derive(Debug, Clone, Serialize)]
pub struct FifthRuleProof {
    /// The whole rule's name.
    pub rule: Rule,
    /// Its statistics, in the order they are tried.
    pub statistics: Vec<StatisticInfo>,
    /// Ordered pairs of different hands the whole rule leaves tied (pairwise count).
    pub tied_pairs: u64,
    /// True when no pair ties: both tie counts are 0 and the proof finds 3,125 levels,
    /// one per hand, so the rule is a strict total order on the hands.
    pub tie_free: bool,
}

/// One statistic of a fifth rule, described.
#[derive(Debug, Clone, Serialize)]
pub struct StatisticInfo {
    /// The statistic's name, as `--rule` takes it.
    pub name: String,
    /// A description for people, e.g. `first position of 大`.
    pub description: String,
    /// Whether the hand with the larger value wins on it (else the smaller).
    pub larger_wins: bool,
}

impl Verification {
    /// The checks that do not hold, in words (empty when all hold): the article's figures
    /// reproduced, the two tie counts agreeing, the article's functions agreeing on every
    /// hand, and the strict weak order.
    pub fn failures(&self) -> Vec<&'static str> {
        let p = &self.strict_weak_order;
        [
            (
                self.article_figures.reproduced,
                "the article's tie counts are not reproduced",
            ),
            (
                self.tied_pairs_by_stage == self.tied_pairs_by_grouping,
                "the pairwise and grouped tie counts differ",
            ),
            (
                self.article_agreement.agreeing == self.article_agreement.hands,
                "the article's functions disagree on some hands",
            ),
            (p.irreflexive, "some hand does not tie with itself"),
            (p.antisymmetric, "the comparator is not antisymmetric"),
            (p.transitive, "the comparator is not transitive"),
            (
                p.equals_key_order,
                "the comparator differs from the key order",
            ),
        ]
        .into_iter()
        .filter(|(holds, _)| !holds)
        .map(|(_, what)| what)
        .collect()
    }

    /// Whether every check holds.
    pub fn holds(&self) -> bool {
        self.failures().is_empty()
    }

    /// `Ok` when every check holds, else the failed checks as an error.
    pub fn check(&self) -> Result<(), Error> {
        match self.failures() {
            f if f.is_empty() => Ok(()),
            f => Err(Error::VerificationFailed {
                failed: f.join("; "),
            }),
        }
    }
}

/// The article's printed counts against ours.
#[derive(Debug, Clone, Serialize)]
pub struct ArticleFigures {
    /// Ordered pairs the article counts as tied after rules 1–3.
    pub after_rule_3: u64,
    /// Ordered pairs the article counts as tied after rules 1–4.
    pub after_rule_4: u64,
    /// Whether our pairwise tie counts after rules 3 and 4 equal the article's.
    pub reproduced: bool,
}

/// Per-hand agreement of the article's transliterated functions with the fast code.
#[derive(Debug, Clone, Serialize)]
pub struct ArticleAgreement {
    /// Hands checked (all of them).
    pub hands: u64,
    /// Hands whose rank, `すき` position, right-place count (the article's `calc_pos_score`),
    /// right-place strokes and out-of-place strokes all agree.
    pub agreeing: u64,
}

/// The strict weak order proof.
#[derive(Debug, Clone, Serialize)]
pub struct OrderProof {
    /// Number of tie classes (levels).
    pub levels: u64,
    /// Hands that tie with themselves (all must).
    pub irreflexive: bool,
    /// Every `compare(a, b)` is the reverse of `compare(b, a)`.
    pub antisymmetric: bool,
    /// Every pair compares as its levels do (and the two checks above hold), so the strict
    /// order and the ties are transitive.
    pub transitive: bool,
    /// Every pair compares as the lexicographic comparison of the strength keys.
    pub equals_key_order: bool,
    /// Ordered pairs checked (all 3,125²).
    pub pairs_checked: u64,
}

/// Example pairs tied after one stage.
#[derive(Debug, Clone, Serialize)]
pub struct StageExamples {
    /// The stage's machine name, e.g. `right_strokes`.
    pub stage: String,
    /// Ordered pairs of distinct hands still tied after this stage.
    pub tied_pairs: u64,
    /// The first few of those pairs in index order, each hand in characters.
    pub pairs: Vec<[String; 2]>,
}

/// The article's defect on a concrete pair.
#[derive(Debug, Clone, Serialize)]
pub struct ArticleDefect {
    /// The first hand of the first pair tied after all four rules, in characters (empty
    /// when no pair ties).
    pub a: String,
    /// The second hand of that pair, in characters.
    pub b: String,
    /// The article's `compare_hand(a, b)`.
    #[serde(rename = "seed_compare_ab")]
    pub article_compare_ab: i64,
    /// The article's `compare_hand(b, a)`.
    #[serde(rename = "seed_compare_ba")]
    pub article_compare_ba: i64,
    /// Ordered pairs on which the article's comparator answers 1 both ways round.
    pub pairs_answering_1_both_ways: u64,
}

/// Runs the whole verification of the article's comparator; `examples` pairs are listed
/// per stage.
pub fn verify(examples: usize) -> Verification {
    verify_rule(&Rule::article(), examples)
}

/// Runs the whole verification of `rule`: the article's stages, then the fifth rule's.
pub fn verify_rule(rule: &Rule, examples: usize) -> Verification {
    let strengths = rule.strengths();
    let feats = strengths.features();
    let keys: Vec<Key> = feats.iter().map(Features::key).collect();
    // The article's rules alone are compared through `compare_features` directly and
    // proven against the 32-bit key: the loops below then run as fast as they did before
    // rules could be chosen.
    let by_article = |a: usize, b: usize| compare_features(&feats[a], &feats[b]);
    let decided = if rule.is_article() {
        decided_by_stage(HANDS, Stage::ALL.len(), |a, b| {
            by_article(a, b).stage.map(|s| s as usize)
        })
    } else {
        decided_by_stage(HANDS, strengths.stages(), |a, b| {
            strengths.compare(a, b).stage
        })
    };
    let ties_pairwise = ties_after_each_stage(&decided);
    let ties_grouped: Vec<u64> = (0..strengths.stages())
        .map(|s| ties_by_grouping_rule(&strengths, s))
        .collect();
    let pairs = (HANDS * (HANDS - 1)) as u64;
    let tied_after_all = tied_pairs_after_all_rules(&keys);
    let proof = if rule.is_article() {
        prove_strict_weak_order(HANDS, &keys, |a, b| by_article(a, b).order, true)
    } else {
        let full_keys: Vec<u128> = (0..HANDS).map(|h| strengths.key(h)).collect();
        prove_strict_weak_order(
            HANDS,
            &full_keys,
            |a, b| strengths.compare(a, b).order,
            true,
        )
    };
    let steps = rule.steps();
    let fifth_rule = (!rule.is_article()).then(|| {
        let tied = *ties_pairwise.last().expect("five stages at least");
        FifthRuleProof {
            rule: rule.clone(),
            statistics: rule
                .fifth()
                .iter()
                .map(|s| StatisticInfo {
                    name: s.name(),
                    description: s.description(),
                    larger_wins: s.larger_wins(),
                })
                .collect(),
            tied_pairs: tied,
            tie_free: tied == 0
                && ties_grouped.last() == Some(&0)
                && proof.levels == HANDS as u64
                && proof.transitive,
        }
    });
    Verification {
        pairs,
        stages: steps.iter().map(|s| s.name()).collect(),
        article_figures: ArticleFigures {
            after_rule_3: ARTICLE_TIES_AFTER_RULE_3,
            after_rule_4: ARTICLE_TIES_AFTER_RULE_4,
            reproduced: ties_pairwise[3] == ARTICLE_TIES_AFTER_RULE_3
                && ties_pairwise[4] == ARTICLE_TIES_AFTER_RULE_4,
        },
        article_agreement: article_agreement(feats),
        strict_weak_order: proof,
        examples: tied_examples(&strengths, &steps, &ties_pairwise, examples),
        article_defect: article_defect(&tied_after_all),
        decided_pairs_by_stage: decided[..strengths.stages()].to_vec(),
        tied_pairs_by_stage: ties_pairwise,
        tied_pairs_by_grouping: ties_grouped,
        fifth_rule,
    }
}

/// `decided[s]`: ordered pairs of different hands decided at stage `s` (of `stages`); the
/// last entry: the pairs tied after every stage. One pass of the comparator `stage_of`
/// (the deciding stage of hands `a` and `b`, `None` for a tie) over all pairs of `0..n`.
pub fn decided_by_stage(
    n: usize,
    stages: usize,
    stage_of: impl Fn(usize, usize) -> Option<usize> + Sync,
) -> Vec<u64> {
    assert!(stages <= MAX_STAGES, "at most {MAX_STAGES} stages");
    (0..n)
        .into_par_iter()
        .map(|a| {
            let mut d = [0u64; MAX_STAGES + 1];
            for b in 0..n {
                if a != b {
                    d[stage_of(a, b).unwrap_or(stages)] += 1;
                }
            }
            d
        })
        .reduce(
            || [0; MAX_STAGES + 1],
            |x, y| std::array::from_fn(|i| x[i] + y[i]),
        )[..=stages]
        .to_vec()
}

/// Most stages a rule has: the rank, four rules, three statistics.
const MAX_STAGES: usize = 5 + MAX_STATISTICS;

/// Ties left after stage `k` = pairs decided later, plus the final ties.
pub fn ties_after_each_stage(decided: &[u64]) -> Vec<u64> {
    (0..decided.len() - 1)
        .map(|k| decided[k + 1..].iter().sum())
        .collect()
}

/// Second method for any rule: ordered pairs agreeing on every value the stages up to
/// `stage` see, Σ n(n−1) over the groups of equal values.
pub fn ties_by_grouping_rule(strengths: &Strengths, stage: usize) -> u64 {
    let mut prefixes: Vec<_> = (0..strengths.len())
        .map(|h| strengths.prefix(h, stage))
        .collect();
    prefixes.sort_unstable();
    prefixes
        .chunk_by(|x, y| x == y)
        .map(|g| (g.len() * (g.len() - 1)) as u64)
        .sum()
}

/// Second method: ordered pairs agreeing on the key prefix of `stage`, Σ n(n−1) over the
/// groups of equal prefixes.
pub fn ties_by_grouping(keys: &[Key], stage: usize) -> u64 {
    let mut prefixes: Vec<u32> = keys.iter().map(|k| k.prefix(stage)).collect();
    prefixes.sort_unstable();
    prefixes
        .chunk_by(|x, y| x == y)
        .map(|g| (g.len() * (g.len() - 1)) as u64)
        .sum()
}

/// Unordered pairs `(a, b)`, `a < b` by index, tied after all four rules, in index order.
pub fn tied_pairs_after_all_rules(keys: &[Key]) -> Vec<(u16, u16)> {
    let mut order: Vec<u16> = (0..keys.len() as u16).collect();
    order.sort_by_key(|&i| (keys[i as usize], i));
    let mut out = Vec::new();
    for group in order.chunk_by(|&x, &y| keys[x as usize] == keys[y as usize]) {
        for (i, &a) in group.iter().enumerate() {
            for &b in &group[i + 1..] {
                out.push((a, b));
            }
        }
    }
    out.sort_unstable();
    out
}

fn article_agreement(feats: &[Features]) -> ArticleAgreement {
    let agreeing = Hand::all()
        .zip(feats)
        .filter(|(h, f)| {
            let s = h.to_string();
            article::judge_hand(&s) == i64::from(f.rank.number())
                && article::py_find(&s, "すき") == i64::from(f.suki_find)
                && article::calc_pos_score(&s) == i64::from(f.right_places)
                && article::calc_stroke_score(&s) == i64::from(f.right_strokes)
                && article::calc_stroke_not_score(&s) == i64::from(f.wrong_strokes)
        })
        .count() as u64;
    ArticleAgreement {
        hands: HANDS as u64,
        agreeing,
    }
}

/// Proves (or refutes) that `cmp` is a strict weak order on `0..n`, where
/// `cmp(a, b) = Greater` means `a` is stronger. The items are sorted by `sort_key` (any
/// order; a correct comparator makes the result independent of it), given integer levels
/// by `cmp` itself (a new level wherever two neighbours do not tie), and then every ordered
/// pair, `a = b` included, is checked against its levels. If all agree, `cmp` *is* the
/// comparison of an integer function: irreflexive, antisymmetric and transitive, with
/// transitive ties. `keys`, if given, are also checked to order every pair as `cmp` does.
pub fn prove_strict_weak_order<K: Ord + Sync>(
    n: usize,
    sort_key: &[K],
    cmp: impl Fn(usize, usize) -> Ordering + Sync,
    check_keys: bool,
) -> OrderProof {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| sort_key[x].cmp(&sort_key[y]));
    let mut level = vec![0u32; n];
    let mut current = 0u32;
    for w in order.windows(2) {
        if cmp(w[1], w[0]) != Ordering::Equal {
            current += 1;
        }
        level[w[1]] = current;
    }
    // failures: [reflexive ties missing, antisymmetry, level order, key order]
    let failures = (0..n)
        .into_par_iter()
        .map(|a| {
            let mut f = [0u64; 4];
            for b in 0..n {
                let ab = cmp(a, b);
                if a == b && ab != Ordering::Equal {
                    f[0] += 1;
                }
                if ab != cmp(b, a).reverse() {
                    f[1] += 1;
                }
                if ab != level[a].cmp(&level[b]) {
                    f[2] += 1;
                }
                if check_keys && ab != sort_key[a].cmp(&sort_key[b]) {
                    f[3] += 1;
                }
            }
            f
        })
        .reduce(|| [0; 4], |x, y| std::array::from_fn(|i| x[i] + y[i]));
    OrderProof {
        levels: if n == 0 { 0 } else { u64::from(current) + 1 },
        irreflexive: failures[0] == 0,
        antisymmetric: failures[1] == 0,
        transitive: failures[0] == 0 && failures[1] == 0 && failures[2] == 0,
        equals_key_order: check_keys && failures[3] == 0,
        pairs_checked: (n * n) as u64,
    }
}

/// The first `per_stage` ordered pairs (index order) tied after each stage.
fn tied_examples(
    strengths: &Strengths,
    steps: &[Step],
    ties: &[u64],
    per_stage: usize,
) -> Vec<StageExamples> {
    let stages = steps.len();
    let mut lists: Vec<Vec<[String; 2]>> = vec![Vec::new(); stages];
    'scan: for a in 0..strengths.len() {
        for b in 0..strengths.len() {
            if a == b {
                continue;
            }
            let decided_at = strengths.compare(a, b).stage.unwrap_or(stages);
            for list in lists.iter_mut().take(decided_at) {
                if list.len() < per_stage {
                    list.push([hand_text(a), hand_text(b)]);
                }
            }
            if lists.iter().all(|l| l.len() >= per_stage) {
                break 'scan;
            }
        }
    }
    steps
        .iter()
        .zip(lists)
        .zip(ties)
        .map(|((s, pairs), &tied_pairs)| StageExamples {
            stage: s.name(),
            tied_pairs,
            pairs,
        })
        .collect()
}

fn hand_text(index: usize) -> String {
    Hand::from_index(index)
        .expect("index below 3125")
        .to_string()
}

fn article_defect(tied: &[(u16, u16)]) -> ArticleDefect {
    let both_ways = tied
        .iter()
        .map(|&(a, b)| {
            let (a, b) = (hand_text(a.into()), hand_text(b.into()));
            let ab = article::compare_hand(&a, &b);
            let ba = article::compare_hand(&b, &a);
            if ab == 1 && ba == 1 {
                2
            } else {
                0
            }
        })
        .sum();
    let (a, b) = tied
        .first()
        .map(|&(a, b)| (hand_text(a.into()), hand_text(b.into())))
        .unwrap_or_default();
    ArticleDefect {
        article_compare_ab: article::compare_hand(&a, &b),
        article_compare_ba: article::compare_hand(&b, &a),
        a,
        b,
        pairs_answering_1_both_ways: both_ways,
    }
}
