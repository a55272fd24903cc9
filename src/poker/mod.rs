//! 大石泉すき poker ("Oishi Izumi Suki" poker): five characters of the name drawn with
//! repetition, ranked like poker hands, compared by the seed's four tie-break rules.
//!
//! Rules: `spec/izumi-poker.md`. Every hand is numbered `0..3125` by the ranking engine
//! ([`hand`]), so every exhaustive pass here is a loop over integers.
//!
//! - [`hand`]: hands, their spellings and numbering;
//! - [`mod@judge`]: the nine ranks;
//! - [`tiebreak`]: the four rules as per-hand values, and the strength key;
//! - [`mod@compare`]: the comparator and the stage that decides;
//! - [`table`]: counts and probabilities of the ranks;
//! - [`verify`]: tie counts, the strict-weak-order proof, the seed's defect;
//! - [`search`]: the search for a fifth rule that breaks the remaining ties;
//! - [`seed`]: the seed's Python transliterated, the independent second method.

pub mod compare;
mod error;
pub mod hand;
pub mod judge;
pub mod search;
pub mod seed;
pub mod table;
pub mod tiebreak;
pub mod verify;

pub use error::Error;

pub use compare::{compare, Stage, Verdict};
pub use hand::Hand;
pub use judge::{judge, HandRank};
pub use tiebreak::Features;
