//! The article's open question: a further, natural tie-break rule that leaves no ties.
//!
//! The family searched is stated here and printed by `tabula poker search-rule`: simple
//! statistics of a hand, each a small integer, grouped as
//! - *positions of each character*: first and last position (0-based, -1 when absent, as
//!   Python's `str.find` / `str.rfind`), sum of the 1-based positions, and count, of each
//!   of 大 石 泉 す き;
//! - *stroke-weighted positions*: Σ strokes × position, Σ strokes × (6 − position), and
//!   the strokes of the character at each single position;
//! - *the name's shape*: number of `すき` pairs, of the name's bigrams (大石, 石泉, 泉す,
//!   すき), the longest run of the name, inversions against the name's order, the
//!   displacement Σ|home − position| and its square sum (the article's first "SSD" idea),
//!   distinct characters;
//! - *kickers*: highest stroke, lowest stroke, and the strokes sorted high to low compared
//!   as in poker.
//!
//! (Hands tied by the four rules have equal total strokes, so Σ strokes × (6 − position)
//! = 6 × total − Σ strokes × position splits exactly the same pairs as its twin: both are
//! kept, as natural readings of "stroke-weighted positions".)
//!
//! A candidate rule is one statistic, or a sequence of up to three of them, applied after
//! the article's four rules. Which side wins (higher or lower) does not change which pairs
//! stay tied, so a rule is scored by its ties alone: the ordered pairs left tied, counted
//! over the pairs the four rules leave tied, with one agreement bit mask per pair.

use super::hand::Hand;
use super::rule::Statistic;
use super::tiebreak::{all_features, Features, Key};
use super::verify::tied_pairs_after_all_rules;
use serde::Serialize;

/// A rule (a sequence of statistics) and the ordered pairs it leaves tied.
#[derive(Debug, Clone, Serialize)]
pub struct RuleScore {
    /// The statistics, described for people, in the order they are tried.
    pub rules: Vec<String>,
    /// The rule's name as `--rule` takes it (`stroke-pos+ssd+possum-o`).
    pub name: String,
    /// Ordered pairs of distinct hands still tied after the article's four rules and these
    /// statistics.
    pub tied_pairs: u64,
}

/// The best rules among the sequences of one length.
#[derive(Debug, Clone, Serialize)]
pub struct DepthResult {
    /// Number of statistics in sequence.
    pub depth: usize,
    /// Candidate sequences tried (as sets: the order inside does not change the ties).
    pub candidates: u64,
    /// The sequence with the fewest ties (among equals, the one whose statistics leave
    /// the fewest ties alone), its statistics listed strongest first.
    pub best: RuleScore,
    /// Up to 10 unordered pairs that `best` still leaves tied.
    pub remaining_examples: Vec<[String; 2]>,
    /// How many sequences leave no tie at all.
    pub zero_tie_rules: u64,
    /// The first few of those, best first.
    pub zero_tie_examples: Vec<Vec<String>>,
    /// The names (as `--rule` takes them) of all of those, best first.
    pub zero_tie_names: Vec<String>,
}

/// One group of the family, for the report.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// The group's name, as [`Statistic::group`] gives it.
    pub group: &'static str,
    /// Its statistics, described for people, in search order.
    pub statistics: Vec<String>,
}

/// The search report.
#[derive(Debug, Clone, Serialize)]
pub struct SearchReport {
    /// The family searched.
    pub family: Vec<Group>,
    /// Ordered pairs tied after the article's four rules.
    pub tied_pairs_before: u64,
    /// Every single statistic, fewest ties first.
    pub singles: Vec<RuleScore>,
    /// The best at each sequence length, 1 up to the depth searched.
    pub by_depth: Vec<DepthResult>,
    /// The best rule overall (shortest among the fewest ties).
    pub best: RuleScore,
    /// True when some rule leaves no tie.
    pub breaks_all_ties: bool,
}

/// Agreement masks: bit `s` of entry `p` is set when both hands of tied pair `p` have the
/// same value of statistic `s`.
fn agreement_masks(values: &[Vec<i32>], tied: &[(u16, u16)]) -> Vec<u64> {
    tied.iter()
        .map(|&(a, b)| {
            values
                .iter()
                .enumerate()
                .filter(|(_, v)| v[a as usize] == v[b as usize])
                .fold(0u64, |m, (i, _)| m | 1 << i)
        })
        .collect()
}

/// Ordered pairs left tied by the statistics in `set` (a bit set), from the masks.
fn ties_of(masks: &[u64], set: u64) -> u64 {
    2 * masks.iter().filter(|&&m| m & set == set).count() as u64
}

/// All `k`-subsets of `0..n` as bit masks, in colex order (via the ranking engine's
/// Gosper step).
fn subsets(n: usize, k: usize) -> Vec<u64> {
    let comb = crate::rank::Combinations::new(n, k).expect("n ≤ 64");
    std::iter::successors(Some(comb.first_mask()), |&m| comb.next_mask(m)).collect()
}

fn hand_text(index: u16) -> String {
    Hand::from_index(index.into())
        .expect("index below 3125")
        .to_string()
}

/// Searches sequences of 1 up to `depth` (at most 3) statistics.
pub fn search(depth: usize) -> SearchReport {
    let stats = Statistic::family();
    assert!(stats.len() <= 64, "the masks hold 64 statistics");
    let values: Vec<Vec<i32>> = stats.iter().map(|s| s.values()).collect();
    let keys: Vec<Key> = all_features().iter().map(Features::key).collect();
    let tied = tied_pairs_after_all_rules(&keys);
    let masks = agreement_masks(&values, &tied);
    let single_ties: Vec<u64> = (0..stats.len()).map(|i| ties_of(&masks, 1 << i)).collect();
    let mut singles: Vec<RuleScore> = (0..stats.len())
        .map(|i| RuleScore {
            rules: vec![stats[i].description()],
            name: stats[i].name(),
            tied_pairs: single_ties[i],
        })
        .collect();
    singles.sort_by_key(|r| r.tied_pairs);
    // Statistics in a set, strongest alone (fewest ties) first.
    let ordered = |set: u64| -> Vec<usize> {
        let mut members: Vec<usize> = (0..stats.len()).filter(|i| set >> i & 1 == 1).collect();
        members.sort_by_key(|&i| (single_ties[i], i));
        members
    };
    let names = |set: u64| -> Vec<String> {
        ordered(set)
            .iter()
            .map(|&i| stats[i].description())
            .collect()
    };
    let rule_name = |set: u64| -> String {
        let names: Vec<String> = ordered(set).iter().map(|&i| stats[i].name()).collect();
        names.join("+")
    };
    let by_depth: Vec<DepthResult> = (1..=depth.clamp(1, 3))
        .map(|d| {
            let sets = subsets(stats.len(), d);
            // Fewest ties first; among equals, the set of individually strongest
            // statistics (smallest sum of single ties), then the first in colex order.
            let mut scored: Vec<(u64, u64, u64)> = sets
                .iter()
                .map(|&s| {
                    let strength = ordered(s).iter().map(|&i| single_ties[i]).sum();
                    (ties_of(&masks, s), strength, s)
                })
                .collect();
            scored.sort_unstable();
            let (best_ties, _, best_set) = scored[0];
            let zeros: Vec<u64> = scored.iter().filter(|p| p.0 == 0).map(|p| p.2).collect();
            let remaining: Vec<[String; 2]> = tied
                .iter()
                .zip(&masks)
                .filter(|(_, &m)| m & best_set == best_set)
                .take(10)
                .map(|(&(a, b), _)| [hand_text(a), hand_text(b)])
                .collect();
            DepthResult {
                depth: d,
                candidates: sets.len() as u64,
                best: RuleScore {
                    rules: names(best_set),
                    name: rule_name(best_set),
                    tied_pairs: best_ties,
                },
                remaining_examples: remaining,
                zero_tie_rules: zeros.len() as u64,
                zero_tie_examples: zeros.iter().take(10).map(|&s| names(s)).collect(),
                zero_tie_names: zeros.iter().map(|&s| rule_name(s)).collect(),
            }
        })
        .collect();
    let best = by_depth
        .iter()
        .min_by_key(|d| d.best.tied_pairs)
        .map(|d| d.best.clone())
        .expect("depth ≥ 1");
    let mut family_groups: Vec<Group> = Vec::new();
    for s in &stats {
        match family_groups.last_mut() {
            Some(g) if g.group == s.group() => g.statistics.push(s.description()),
            _ => family_groups.push(Group {
                group: s.group(),
                statistics: vec![s.description()],
            }),
        }
    }
    SearchReport {
        family: family_groups,
        tied_pairs_before: 2 * tied.len() as u64,
        singles,
        by_depth,
        breaks_all_ties: best.tied_pairs == 0,
        best,
    }
}
