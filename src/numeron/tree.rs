//! Decision trees: a strategy played against every secret at once. A node holds the
//! candidates still possible, the guess made there and one branch per answer; the secrets'
//! numbers of guesses are the depths at which each is guessed.

use super::answer::{Answer, Oracle};
use super::rules::Space;
use super::{Error, Result};
use num_rational::Ratio;
use rayon::prelude::*;
use serde::Serialize;
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
        return Err(Error::UselessGuess {
            guess: oracle.space.format(guess),
            candidates: set.len(),
        });
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

/// A decision tree written out for export: each node's guess, its number of candidates
/// and one subtree per answer (`"1E0B"`) that does not win.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExportedNode {
    /// The guess made here.
    pub guess: String,
    /// Candidates possible here.
    pub candidates: u32,
    /// The subtree below each non-winning answer.
    pub branches: BTreeMap<String, ExportedNode>,
}

/// The tree `node` over `space`, written out.
pub fn export(space: &Space, node: &Node) -> ExportedNode {
    let n = space.digits();
    ExportedNode {
        guess: space.format(node.guess),
        candidates: node.candidates,
        branches: node
            .branches
            .iter()
            .map(|(a, c)| {
                let reply = Answer::from_code(*a, n).written(space.notation());
                (reply, export(space, c))
            })
            .collect(),
    }
}
