//! The results of the Numeron commands as plain data: what `--json` writes is the serde
//! form of these types, and the command layer renders the same values as text.

use super::answer::Answer;
use super::engine::Engine;
use super::root::{Objective, RootReport};
use super::rules::{Notation, Rules, Space};
use super::session::Step;
use super::strategy::Strategy;
use super::tree::{Analysis, Node};
use crate::exact;
use num_rational::Ratio;
use serde::Serialize;
use std::collections::BTreeMap;

/// The variant played, in its game's words; its fields are keys of the report it is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Variant {
    /// Numeron (Bulls and Cows).
    Numeron {
        /// Positions of a code.
        digits: usize,
        /// Whether digits may repeat.
        repeats: bool,
        /// Number of digit symbols.
        symbols: usize,
    },
    /// Mastermind.
    Mastermind {
        /// Positions of a code.
        pegs: usize,
        /// Number of colours.
        colours: usize,
        /// Whether colours may repeat.
        repeats: bool,
    },
}

impl Variant {
    /// The variant of `rules`.
    pub fn of(rules: Rules) -> Variant {
        match rules.notation {
            Notation::Numeron => Variant::Numeron {
                digits: rules.digits,
                repeats: rules.repeats,
                symbols: rules.alphabet,
            },
            Notation::Mastermind => Variant::Mastermind {
                pegs: rules.digits,
                colours: rules.alphabet,
                repeats: rules.repeats,
            },
        }
    }
}

/// The two counts of a reply, under the game's names; its fields are keys of the report it
/// is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Counts {
    /// Numeron's names.
    Numeron {
        /// Digits right and in the right place.
        eat: u8,
        /// Digits in the secret but in another place.
        bite: u8,
    },
    /// Mastermind's names.
    Mastermind {
        /// Colours right and in the right place.
        black: u8,
        /// Colours in the secret but in another place.
        white: u8,
    },
}

impl Counts {
    /// The counts of `a` in the words of `notation`.
    pub fn of(a: Answer, notation: Notation) -> Counts {
        match notation {
            Notation::Numeron => Counts::Numeron {
                eat: a.eat,
                bite: a.bite,
            },
            Notation::Mastermind => Counts::Mastermind {
                black: a.eat,
                white: a.bite,
            },
        }
    }
}

/// A strategy played against every secret: the exact distribution of its number of guesses.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrategyReport {
    /// The variant played.
    #[serde(flatten)]
    pub variant: Variant,
    /// The strategy's name.
    pub strategy: &'static str,
    /// Whether every guess had to be a candidate still possible.
    pub hard: bool,
    /// The strategy's first guess.
    pub first_guess: String,
    /// Number of secrets.
    pub secrets: u64,
    /// Guesses over all secrets.
    pub total: u64,
    /// The mean number of guesses, as the nearest float.
    pub mean: f64,
    /// The mean number of guesses, exactly.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub mean_exact: Ratio<u64>,
    /// The worst case.
    pub max: u32,
    /// Number of guesses → number of secrets found with that many.
    pub histogram: BTreeMap<u32, u64>,
}

impl StrategyReport {
    /// The report of `strategy`'s tree `root` over `engine`'s space.
    pub fn of_tree(engine: &Engine, strategy: Strategy, hard: bool, root: &Node) -> Self {
        let a = Analysis::of_tree(root);
        let rules = engine.space.rules();
        let mean = a.mean();
        StrategyReport {
            variant: Variant::of(rules),
            strategy: strategy.name(),
            hard,
            first_guess: engine.space.format(root.guess),
            secrets: a.secrets,
            total: a.total,
            mean: exact::float(&mean),
            mean_exact: mean,
            max: a.max,
            histogram: a.histogram,
        }
    }
}

/// One guess of a traced game, written out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TraceStep {
    /// The guess.
    pub guess: String,
    /// The reply, written out (`1E0B`, `1B2W`).
    pub reply: String,
    /// The reply's two counts.
    #[serde(flatten)]
    pub counts: Counts,
    /// Candidates left after it.
    pub left: usize,
}

/// A strategy's game against one secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TraceReport {
    /// The secret.
    pub secret: String,
    /// The strategy's name.
    pub strategy: &'static str,
    /// Whether every guess had to be a candidate still possible.
    pub hard: bool,
    /// Candidates at the start.
    pub candidates: usize,
    /// Guesses made, the winning one included.
    pub guesses: usize,
    /// Every guess in order.
    pub steps: Vec<TraceStep>,
}

impl TraceReport {
    /// The report of the game `steps` against `secret`.
    pub fn of_steps(
        space: &Space,
        strategy: Strategy,
        hard: bool,
        secret: u32,
        steps: &[Step],
    ) -> Self {
        TraceReport {
            secret: space.format(secret),
            strategy: strategy.name(),
            hard,
            candidates: space.len(),
            guesses: steps.len(),
            steps: steps
                .iter()
                .map(|s| TraceStep {
                    guess: space.format(s.guess),
                    reply: s.answer.written(space.notation()),
                    counts: Counts::of(s.answer, space.notation()),
                    left: s.left,
                })
                .collect(),
        }
    }
}

/// One class below the first guess, as reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClassReport {
    /// Candidates in the class.
    pub size: usize,
    /// Proven lower bound on its guesses after the first.
    pub lower: u64,
    /// Achieved value.
    pub upper: u64,
}

/// One first guess of the optimum, as reported: what is proved of the game's value when it
/// opens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FirstGuessReport {
    /// The first guess.
    pub guess: String,
    /// Proven lower bound.
    pub lower: u64,
    /// Achieved value, when known (`null` for a first guess refuted by its bound).
    pub upper: Option<u64>,
}

/// The mean number of guesses between the bounds of a least-total optimum.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeanBounds {
    /// The lower bound's mean, as the nearest float.
    pub mean_lower: f64,
    /// The lower bound's mean, exactly.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub mean_lower_exact: Ratio<u64>,
    /// The upper bound's mean, as the nearest float.
    pub mean_upper: f64,
    /// The upper bound's mean, exactly.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub mean_upper_exact: Ratio<u64>,
}

/// The whole game's optimum, or bounds on it when the budget ran out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptimumReport {
    /// The variant played.
    #[serde(flatten)]
    pub variant: Variant,
    /// Whether every guess had to be a candidate still possible.
    pub hard: bool,
    /// `"total"`, `"worst"` or `"fewest-at-worst"`.
    pub objective: &'static str,
    /// For `"fewest-at-worst"`: the least worst case, whose secrets `lower` and `upper`
    /// count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worst: Option<u32>,
    /// Whether the bounds meet (the optimum is proved).
    pub exact: bool,
    /// The first guess of the figures.
    pub first_guess: String,
    /// Number of secrets.
    pub secrets: u64,
    /// Proven lower bound.
    pub lower: u64,
    /// Achieved value.
    pub upper: u64,
    /// Classes below the first guess.
    pub classes: usize,
    /// Of them, solved exactly.
    pub solved_classes: usize,
    /// Each class, smallest first.
    pub per_class: Vec<ClassReport>,
    /// Every first guess tried (one per pattern of repeated symbols), in the order tried.
    pub first_guesses: Vec<FirstGuessReport>,
    /// The means, for the least total only.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub means: Option<MeanBounds>,
}

impl OptimumReport {
    /// The report of the search `r` over `space`.
    pub fn of_root(space: &Space, hard: bool, r: &RootReport) -> Self {
        let rules = space.rules();
        let ratio = |v: u64| Ratio::new(v, r.secrets.max(1));
        OptimumReport {
            variant: Variant::of(rules),
            hard,
            objective: match r.objective {
                Objective::Total => "total",
                Objective::Worst => "worst",
                Objective::FewestAtWorst => "fewest-at-worst",
            },
            worst: r.worst,
            exact: r.exact,
            first_guess: space.format(r.first_guess),
            secrets: r.secrets,
            lower: r.lower,
            upper: r.upper,
            classes: r.classes,
            solved_classes: r.solved_classes,
            per_class: r
                .per_class
                .iter()
                .map(|c| ClassReport {
                    size: c.size,
                    lower: c.lower,
                    upper: c.upper,
                })
                .collect(),
            first_guesses: r
                .first_guesses
                .iter()
                .map(|f| FirstGuessReport {
                    guess: space.format(f.guess),
                    lower: f.lower,
                    upper: f.upper,
                })
                .collect(),
            means: (r.objective == Objective::Total).then(|| MeanBounds {
                mean_lower: exact::float(&ratio(r.lower)),
                mean_lower_exact: ratio(r.lower),
                mean_upper: exact::float(&ratio(r.upper)),
                mean_upper_exact: ratio(r.upper),
            }),
        }
    }
}

/// The two-player race between two strategies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RaceReport {
    /// The strategy moving first.
    pub first: &'static str,
    /// The strategy moving second.
    pub second: &'static str,
    /// The probability that the first mover wins, as the nearest float.
    pub first_wins: f64,
    /// The same, exactly.
    #[serde(serialize_with = "exact::serde_fraction::serialize")]
    pub first_wins_exact: Ratio<u64>,
}

impl RaceReport {
    /// The race of `first` (distribution `a`) against `second` (distribution `b`).
    pub fn of(first: Strategy, a: &Analysis, second: Strategy, b: &Analysis) -> Self {
        let p = super::race::first_player_wins(a, b);
        RaceReport {
            first: first.name(),
            second: second.name(),
            first_wins: exact::float(&p),
            first_wins_exact: p,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::Rules;
    use super::*;

    #[test]
    fn the_strategy_report_of_one_digit_counts_one_to_ten_guesses() {
        // One digit, first strategy: the secret d is found at guess d + 1.
        let engine = Engine::new(Rules::new(1), Strategy::First).unwrap();
        let root = engine.tree(Strategy::First, false, false).unwrap();
        let r = StrategyReport::of_tree(&engine, Strategy::First, false, &root);
        assert_eq!(r.total, (1..=10).sum::<u64>());
        assert_eq!(r.mean_exact, Ratio::new(11, 2));
        assert_eq!(r.mean, 5.5);
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["mean_exact"], "11/2");
        assert_eq!(v["histogram"]["10"], 1);
        assert_eq!(v["first_guess"], "0");
    }
}
