//! Numeron (Bulls and Cows): candidates, answers, strategies and the exact analysis of a
//! strategy over every secret (`docs/numeron.md`).
//!
//! - [`rules`]: the variant and its candidate space, ranked by [`crate::rank`].
//! - [`answer`]: EAT/BITE from packed codes; the answer table when it fits.
//! - [`set`]: candidate sets as bitsets over ranks.
//! - [`symmetry`]: digit relabelling × position permutation; orbits and canonical keys.
//! - [`strategy`]: `first`, `minimax`, `parts`, `entropy`.
//! - [`optimal`]: the exact branch-and-bound search (`optimal`, `optimal-worst`).
//! - [`tree`]: decision trees and the distribution of the number of guesses.
//! - [`engine`]: one object tying these together for the commands.
//! - [`root`]: the whole game's optimum with progress, a time budget and checkpoints.
//! - [`jobs`]: the same optimum split into independent jobs, one a class of a first guess.
//! - [`session`]: the interactive helper's and the hidden-secret game's state.
//! - [`next`]: the helper's question asked once: the candidates and the next guess after a
//!   history.

pub mod answer;
pub mod engine;
mod error;
pub mod interactive;
pub mod jobs;
pub mod next;
pub mod optimal;
pub mod race;
pub mod report;
pub mod root;
pub mod rules;
pub mod session;
pub mod set;
pub mod strategy;
pub mod symmetry;
pub mod tree;

pub use error::Error;

pub use answer::{Answer, AnswerTable, Oracle};
pub use engine::{Engine, Player};
pub use rules::{Rules, Space};
pub use set::CandidateSet;
pub use strategy::Strategy;
pub use tree::{Analysis, Node};

/// Result with the Numeron module's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
