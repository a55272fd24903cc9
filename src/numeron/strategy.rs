//! Strategies: which guess to make given the candidates left.
//!
//! Heuristics score each allowed guess by the partition it makes of the candidates; ties
//! (entropy: within 1e-12) go to a guess that is still a candidate, then to the smallest
//! rank. Guesses are scored one per orbit of the symmetries fixing the guesses so far
//! ([`Stabilizer`]): the orbit's smallest rank stands for it, which is also the one the
//! tie-break would pick among equals.

use super::answer::Oracle;
use super::symmetry::Stabilizer;
use super::{Error, Result};
use rayon::prelude::*;

/// A strategy by name (`docs/numeron.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The smallest consistent candidate (the source article's method, `docs/numeron.md`).
    First,
    /// Knuth: the guess whose largest answer class is smallest.
    Minimax,
    /// The guess giving the most distinct answers.
    Parts,
    /// The guess of largest Shannon entropy of the answer distribution.
    Entropy,
    /// Exact minimum of the expected number of guesses.
    Optimal,
    /// Exact minimum of the worst case (then of the expected number among those).
    OptimalWorst,
}

impl Strategy {
    /// Every strategy, in the order the command line lists them (`docs/numeron.md`).
    pub const ALL: [Strategy; 6] = [
        Strategy::First,
        Strategy::Minimax,
        Strategy::Parts,
        Strategy::Entropy,
        Strategy::Optimal,
        Strategy::OptimalWorst,
    ];

    /// The strategy's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::First => "first",
            Strategy::Minimax => "minimax",
            Strategy::Parts => "parts",
            Strategy::Entropy => "entropy",
            Strategy::Optimal => "optimal",
            Strategy::OptimalWorst => "optimal-worst",
        }
    }

    /// Parses a strategy name.
    pub fn parse(name: &str) -> Result<Strategy> {
        Strategy::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
                Error::UnknownStrategy {
                    name: name.to_string(),
                    known: names.join(", "),
                }
            })
    }

    /// True for the exact searches.
    pub fn is_exact(self) -> bool {
        matches!(self, Strategy::Optimal | Strategy::OptimalWorst)
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Largest candidate space the heuristics accept: they score every allowed guess at every
/// node (N = 5, 30,240 codes, is the largest that stays within seconds).
pub const MAX_HEURISTIC_SPACE: usize = 30_240;

/// Entropy values this close count as equal.
const ENTROPY_EPSILON: f64 = 1e-12;

/// The heuristic choice of `strategy` (not an exact one) for the candidates `set`
/// (ascending ranks), after the guesses `history`; `hard` restricts guesses to `set`.
pub fn heuristic_guess(
    strategy: Strategy,
    oracle: &Oracle<'_>,
    set: &[u32],
    history: &[u32],
    hard: bool,
) -> u32 {
    assert!(!set.is_empty(), "a guess needs at least one candidate");
    if strategy == Strategy::First || set.len() <= 2 {
        // With two candidates left, guessing one of them is a perfect split that also
        // may win: every heuristic's tie-break picks the smaller.
        return set[0];
    }
    let space = oracle.space;
    let stab = Stabilizer::of_history(space, history);
    let pool: Vec<u32> = if hard {
        set.to_vec()
    } else {
        (0..space.len() as u32).collect()
    };
    let reps = stab.representatives(space, &pool, set);
    let codes = oracle.codes();
    let win = oracle.win() as usize;
    let score = |g: u32| -> (f64, bool) {
        let mut counts = vec![0u32; codes];
        oracle.count_into(g, set, &mut counts);
        let consistent = counts[win] > 0;
        let s = match strategy {
            Strategy::Minimax => {
                let worst = counts
                    .iter()
                    .enumerate()
                    .filter(|&(a, _)| a != win)
                    .map(|(_, &c)| c)
                    .max()
                    .unwrap_or(0);
                -f64::from(worst)
            }
            Strategy::Parts => counts.iter().filter(|&&c| c > 0).count() as f64,
            _ => {
                let n = set.len() as f64;
                let sum: f64 = counts
                    .iter()
                    .filter(|&&c| c > 1)
                    .map(|&c| f64::from(c) * f64::from(c).ln())
                    .sum();
                n.ln() - sum / n
            }
        };
        (s, consistent)
    };
    let scored: Vec<(f64, bool, u32)> = if reps.len() * set.len() > 200_000 {
        reps.par_iter()
            .map(|&g| {
                let (s, c) = score(g);
                (s, c, g)
            })
            .collect()
    } else {
        reps.iter()
            .map(|&g| {
                let (s, c) = score(g);
                (s, c, g)
            })
            .collect()
    };
    let best = scored.iter().map(|x| x.0).fold(f64::NEG_INFINITY, f64::max);
    let eps = if strategy == Strategy::Entropy {
        ENTROPY_EPSILON
    } else {
        0.0
    };
    scored
        .iter()
        .filter(|x| x.0 >= best - eps)
        .min_by_key(|x| (!x.1, x.2))
        .map(|x| x.2)
        .expect("at least one guess is scored")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::{prop_assert_eq, proptest};

    #[test]
    fn every_strategy_reads_back_from_its_name() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::parse(s.name()).unwrap(), s);
        }
    }

    proptest! {
        #[test]
        fn a_name_is_a_strategy_exactly_when_it_is_listed(name in "\\PC{0,16}") {
            let listed = Strategy::ALL.iter().find(|s| s.name() == name).copied();
            prop_assert_eq!(Strategy::parse(&name).ok(), listed);
        }
    }
}
