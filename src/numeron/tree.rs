//! Decision trees: a strategy played against every secret at once. A node holds the
//! candidates still possible, the guess made there and one branch per answer; the secrets'
//! numbers of guesses are the depths at which each is guessed.

use super::answer::{Answer, Oracle};
use super::rules::Space;
use crate::{Error, Result};
use num_rational::Ratio;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// One node of a decision tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The guess made here.
    pub guess: u32,
    /// Number of candidates possible here.
    pub candidates: u32,
    /// Whether the guess is one of the candidates (it wins for that secret).
    pub consistent: bool,
    /// One subtree per non-winning answer (by answer code, ascending).
    pub branches: Vec<(u8, Node)>,
}

/// Splits `set` (ascending) by the answer to `guess`: one ascending class per answer code
/// that occurs, in ascending code order.
pub fn partition(oracle: &Oracle<'_>, guess: u32, set: &[u32]) -> Vec<(u8, Vec<u32>)> {
    let mut classes: Vec<Vec<u32>> = vec![Vec::new(); oracle.codes()];
    for &s in set {
        classes[oracle.code(guess, s) as usize].push(s);
    }
    classes
        .into_iter()
        .enumerate()
        .filter(|(_, c)| !c.is_empty())
        .map(|(a, c)| (a as u8, c))
        .collect()
}

/// Builds the tree of a strategy given as a function of (candidates, guesses so far).
/// Subtrees are built in parallel; the tree does not depend on the thread count.
pub fn build<F>(
    oracle: &Oracle<'_>,
    set: Vec<u32>,
    history: &mut Vec<u32>,
    choose: &F,
) -> Result<Node>
where
    F: Fn(&[u32], &[u32]) -> Result<u32> + Sync,
{
    let guess = choose(&set, history)?;
    let win = oracle.win();
    let classes = partition(oracle, guess, &set);
    let consistent = classes.iter().any(|(a, _)| *a == win);
    if !consistent && classes.len() == 1 {
        return Err(Error::failure(format!(
            "the strategy guessed {} which tells nothing about {} candidates",
            oracle.space.format(guess),
            set.len()
        )));
    }
    history.push(guess);
    let branches: Result<Vec<(u8, Node)>> = classes
        .into_par_iter()
        .filter(|(a, _)| *a != win)
        .map(|(a, class)| {
            let mut h = history.clone();
            build(oracle, class, &mut h, choose).map(|n| (a, n))
        })
        .collect();
    history.pop();
    Ok(Node {
        guess,
        candidates: set.len() as u32,
        consistent,
        branches: branches?,
    })
}

/// The exact distribution of the number of guesses over all secrets of a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Number of secrets.
    pub secrets: u64,
    /// Total number of guesses over all secrets.
    pub total: u64,
    /// Largest number of guesses.
    pub max: u32,
    /// Number of guesses → number of secrets.
    pub histogram: BTreeMap<u32, u64>,
}

impl Analysis {
    /// The distribution read off a tree.
    pub fn of_tree(root: &Node) -> Analysis {
        let mut histogram = BTreeMap::new();
        fn walk(n: &Node, depth: u32, h: &mut BTreeMap<u32, u64>) {
            if n.consistent {
                *h.entry(depth).or_insert(0) += 1;
            }
            for (_, c) in &n.branches {
                walk(c, depth + 1, h);
            }
        }
        walk(root, 1, &mut histogram);
        Analysis::of_histogram(histogram)
    }

    /// Totals from a histogram.
    pub fn of_histogram(histogram: BTreeMap<u32, u64>) -> Analysis {
        Analysis {
            secrets: histogram.values().sum(),
            total: histogram.iter().map(|(&d, &c)| u64::from(d) * c).sum(),
            max: histogram.keys().copied().max().unwrap_or(0),
            histogram,
        }
    }

    /// The mean number of guesses, exactly.
    pub fn mean(&self) -> Ratio<u64> {
        Ratio::new(self.total, self.secrets.max(1))
    }
}

/// The tree as nested JSON: `{guess, candidates, branches: {"1E0B": {...}}}`.
pub fn to_json(space: &Space, node: &Node) -> Value {
    let n = space.digits();
    let branches: serde_json::Map<String, Value> = node
        .branches
        .iter()
        .map(|(a, c)| (Answer::from_code(*a, n).to_string(), to_json(space, c)))
        .collect();
    json!({
        "guess": space.format(node.guess),
        "candidates": node.candidates,
        "branches": branches,
    })
}

/// The tree as indented text, one line per node: the answer that leads there, the guess
/// and how many candidates remain (`=` marks a guess that is the only candidate left).
pub fn to_text(space: &Space, root: &Node) -> String {
    let mut out = String::new();
    fn walk(space: &Space, node: &Node, label: &str, indent: usize, out: &mut String) {
        let mark = if node.candidates == 1 { " =" } else { "" };
        out.push_str(&format!(
            "{:indent$}{label}{} ({}){mark}\n",
            "",
            space.format(node.guess),
            node.candidates,
            indent = indent
        ));
        for (a, c) in &node.branches {
            let label = format!("{} → ", Answer::from_code(*a, space.digits()));
            walk(space, c, &label, indent + 2, out);
        }
    }
    walk(space, root, "", 0, &mut out);
    out
}
