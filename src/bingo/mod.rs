//! Bingo (`docs/bingo.md`): the law of `T`, the number of calls until a card wins, by five
//! methods that check one another, and the game with several players.
//!
//! - [`card`]: the card, its lines and the patterns.
//! - [`enumerate`] (method 1) and [`inclusion`] (method 2): the winning-subset counts `W_k`.
//! - [`law`]: from `W_k` to the exact law of `T`, and its summaries.
//! - [`orders`] (method 3): every call order of the 3×3 card, as the article did.
//! - [`simulate`] (method 4): seeded parallel Monte Carlo, tested with [`crate::stats`].
//! - [`formula`] (method 5): the article's approximate formula.
//! - [`players`]: `K` cards, uniform or US; [`players_sim`] plays them.
//! - [`analysis`] and [`sampled`]: what each command computes, as typed results (the
//!   command layer renders them as text, or writes them as JSON).

pub mod analysis;
pub mod card;
pub mod enumerate;
mod error;
pub mod formula;
pub mod inclusion;
pub mod law;
pub mod orders;
pub mod players;
pub mod players_sim;
pub mod prizes;
pub mod sampled;
pub mod simulate;

pub use error::{Error, Result};

pub use card::{Card, Pattern};
pub use law::Law;

/// Which exact method counts the winning subsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Inclusion–exclusion where the pattern allows it, enumeration otherwise.
    Auto,
    /// Method 1: enumerate all `2^c` subsets of the numbered squares (at most 26 squares).
    Enumerate,
    /// Method 2: inclusion–exclusion over the pattern's sets (every pattern but `reach`).
    InclusionExclusion,
}

impl Method {
    /// The method actually used for `pattern` on `card` (resolves [`Method::Auto`]).
    pub fn resolve(self, card: &Card, pattern: Pattern) -> Method {
        match self {
            Method::Auto if card.groups(pattern).is_some() => Method::InclusionExclusion,
            Method::Auto => Method::Enumerate,
            m => m,
        }
    }

    /// The method's name: `enumerate`, `inclusion-exclusion` (or `auto`).
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Enumerate => "enumerate",
            Method::InclusionExclusion => "inclusion-exclusion",
        }
    }
}

/// `W_k` by the chosen method.
pub fn winning_subsets(card: &Card, pattern: Pattern, method: Method) -> Result<Vec<u64>> {
    match method.resolve(card, pattern) {
        Method::InclusionExclusion => inclusion::winning_subsets(card, pattern),
        _ => enumerate::winning_subsets(card, pattern),
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

/// Largest drum accepted anywhere (the simulation keeps the called numbers in a `u128`).
pub const MAX_NUMBERS: u64 = 128;

/// Checks `c ≤ M ≤ 128`.
pub fn check_drum(card: &Card, max: u64) -> Result<()> {
    let numbered = card.numbered() as u64;
    if max < numbered || max > MAX_NUMBERS {
        return Err(Error::Drum {
            numbered,
            largest: MAX_NUMBERS,
            got: max,
        });
    }
    Ok(())
}

/// The card, the drum and the pattern a command is about.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The card's geometry (size, free centre, lines).
    pub card: Card,
    /// `M`: the drum holds the numbers `1..=M` (`c ≤ M ≤` [`MAX_NUMBERS`]).
    pub max: u64,
    /// What a card must mark to win.
    pub pattern: Pattern,
}

impl Setup {
    /// A `size × size` card (free centre when `free` and the size is odd), numbers
    /// `1..=max` (default 15 per column: 75 on 5×5).
    pub fn new(size: usize, free: bool, max: Option<u64>, pattern: Pattern) -> Result<Setup> {
        let card = Card::new(size, free)?;
        let max = max.unwrap_or(15 * size as u64);
        check_drum(&card, max)?;
        Ok(Setup { card, max, pattern })
    }
}

/// Written as the four keys `size`, `free`, `max`, `pattern`.
impl serde::Serialize for Setup {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Setup", 4)?;
        st.serialize_field("size", &self.card.size())?;
        st.serialize_field("free", &self.card.free())?;
        st.serialize_field("max", &self.max)?;
        st.serialize_field("pattern", &self.pattern)?;
        st.end()
    }
}

/// A simulation run: how many games, from which seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Run {
    /// How many games to play (`1..=`[`MAX_GAMES`]).
    pub games: u64,
    /// The seed: chunk `i` draws from [`crate::random::stream`]`(seed, i)`.
    pub seed: u64,
}

/// Most games one run accepts: ten billion, about twenty minutes on two cores.
pub const MAX_GAMES: u64 = 10_000_000_000;

impl Run {
    /// Checks `1 ≤ games ≤` [`MAX_GAMES`].
    pub fn check(&self) -> Result<()> {
        if self.games == 0 || self.games > MAX_GAMES {
            return Err(Error::Games {
                got: self.games,
                largest: MAX_GAMES,
            });
        }
        Ok(())
    }
}

/// `serde` writer for an optional exact fraction: `"num/den"` or `null`.
pub(crate) mod serde_opt_fraction {
    use num_rational::BigRational;
    use serde::Serializer;

    pub fn serialize<S: Serializer>(q: &Option<BigRational>, s: S) -> Result<S::Ok, S::Error> {
        match q {
            Some(q) => crate::exact::serde_fraction::serialize(q, s),
            None => s.serialize_none(),
        }
    }
}
