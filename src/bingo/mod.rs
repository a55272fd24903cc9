//! Bingo (`spec/bingo.md`): the law of `T`, the number of calls until a card wins, by five
//! methods that check one another, and the game with several players.
//!
//! - [`card`]: the card, its lines and the patterns.
//! - [`enumerate`] (method 1) and [`inclusion`] (method 2): the winning-subset counts `W_k`.
//! - [`law`]: from `W_k` to the exact law of `T`, and its summaries.
//! - [`orders`] (method 3): every call order of the 3×3 card, as the seed did.
//! - [`simulate`] (method 4): seeded parallel Monte Carlo; [`stats`] tests it.
//! - [`formula`] (method 5): the seed's approximate formula.
//! - [`players`]: `K` cards, uniform or US; [`players_sim`] plays them; [`plot`]: the seed's figure.
//! - [`report`] and [`report_sim`]: what each command prints, as text tables or JSON.

pub mod card;
pub mod enumerate;
mod error;
pub mod formula;
pub mod inclusion;
pub mod law;
pub mod orders;
pub mod players;
pub mod players_sim;
pub mod plot;
pub mod report;
pub mod report_sim;
pub mod rng;
pub mod simulate;
pub mod stats;

pub use error::Error;

pub use card::{Card, Pattern};
pub use law::Law;

use crate::Result;

/// Which exact method counts the winning subsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Inclusion–exclusion where the pattern allows it, enumeration otherwise.
    Auto,
    Enumerate,
    InclusionExclusion,
}

/// `W_k` by the chosen method.
pub fn winning_subsets(card: &Card, pattern: Pattern, method: Method) -> Result<Vec<u64>> {
    match method {
        Method::Enumerate => enumerate::winning_subsets(card, pattern),
        Method::InclusionExclusion => inclusion::winning_subsets(card, pattern),
        Method::Auto => {
            if card.groups(pattern).is_some() {
                inclusion::winning_subsets(card, pattern)
            } else {
                enumerate::winning_subsets(card, pattern)
            }
        }
    }
}

/// The exact law of `T` for one card and a drum of `max` numbers.
pub fn exact_law(card: &Card, pattern: Pattern, max: u64, method: Method) -> Result<Law> {
    check_drum(card, max)?;
    Ok(Law::from_counts(
        card,
        max,
        &winning_subsets(card, pattern, method)?,
    ))
}

/// Largest drum accepted anywhere.
pub const MAX_NUMBERS: u64 = 128;

/// Checks `c ≤ M ≤ 128`.
pub fn check_drum(card: &Card, max: u64) -> Result<()> {
    let c = card.numbered() as u64;
    if max < c || max > MAX_NUMBERS {
        return Err(crate::Error::input(format!(
            "--max must be between {c} (the card's numbered squares) and {MAX_NUMBERS}, got {max}"
        )));
    }
    Ok(())
}
