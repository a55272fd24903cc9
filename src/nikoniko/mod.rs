//! NikoNiko Gammon, the article's own parts (`docs/nikoniko.md`): backgammon at one third
//! size (8 points, 5 checkers, dice 0–2) is a member of the backgammon family, and its
//! rules, index, solver, queries and game are the family engine's ([`crate::gammon`],
//! the built-in variant [`BuiltIn::Nikoniko`]). What stays here is the article's: its
//! 2-byte table format ([`store`], read through the engine's [`crate::gammon::Evaluator`]),
//! its PNC table and listing and its counting checks ([`counting`]), and the ASCII board
//! ([`board`]).
//!
//! ```
//! use tabula::gammon::{moves::Generator, notation, Roll};
//! use tabula::nikoniko;
//!
//! let v = nikoniko::variant();
//! let opening = notation::parse_position(&v, "8,8,5,2,2/8,8,5,2,2").unwrap();
//! assert_eq!(opening, v.opening());
//! assert_eq!(nikoniko::index().index(&opening), 562_767);
//! // The opening 1-2 has four distinct plays.
//! assert_eq!(Generator::new(&v).plays(&opening, Roll::new(1, 2)).len(), 4);
//! ```

pub mod board;
pub mod counting;
mod error;
pub mod store;

pub use error::Error;

use crate::gammon::{BuiltIn, SeedIndex, Variant};

/// Number of states: the article's 1,106,945.
pub const STATES: u64 = 1_106_945;
/// Count vectors of one side (5 checkers on 10 locations), all off included: the
/// article's PNC(10, 5) = 2,002.
pub const SIDE_VECTORS: u64 = 2_002;

/// The game's rules: the family's built-in variant `nikoniko`.
pub fn variant() -> Variant {
    BuiltIn::Nikoniko.variant()
}

/// The article's dense index of the states.
pub fn index() -> SeedIndex {
    SeedIndex::new(8, 5).expect("the article's board")
}
