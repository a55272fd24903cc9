//! 大石泉すき poker ("Oishi Izumi Suki" poker): five characters of the name drawn with
//! repetition, ranked like poker hands, compared by the article's four tie-break rules.
//!
//! Rules and contracts: `docs/izumi-poker.md`. Every hand is numbered `0..3125` by the
//! ranking engine ([`hand`]), so every exhaustive pass here is a loop over integers.
//!
//! - [`hand`]: hands, their spellings and numbering;
//! - [`mod@judge`]: the nine ranks;
//! - [`tiebreak`]: the four rules as per-hand values, and the strength key;
//! - [`mod@compare`]: the comparator, the stage that decides, and the reports of
//!   `judge` and `compare`;
//! - [`frequency`]: how often each rank is dealt;
//! - [`verify`]: tie counts, the strict-weak-order proof, the article's defect;
//! - [`rule`]: rules a user can name (`article`, or a fifth rule of statistics) and the
//!   statistics themselves;
//! - [`search`]: the search for a fifth rule that breaks the remaining ties;
//! - [`strength`]: the chance that a hand beats, ties and loses to a random hand;
//! - [`article`]: the article's Python transliterated, the independent second method.

/// Declares a field-less enum whose variants are numbered `0, 1, …` in the order written,
/// with `ALL` listing them in that order.
macro_rules! numbered_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident,)+
    }) => {
        $(#[$meta])*
        $vis enum $name { $($(#[$vmeta])* $variant,)+ }

        impl $name {
            /// Every variant, in order.
            pub const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];
        }
    };
}

pub mod article;
pub mod compare;
mod error;
pub mod frequency;
pub mod hand;
pub mod judge;
pub mod rule;
pub mod search;
pub mod strength;
pub mod tiebreak;
pub mod verify;

pub use error::Error;

pub use compare::{compare, Comparison, Judgement, Winner};
pub use hand::Hand;
pub use judge::{judge, HandRank};
pub use tiebreak::{Features, Stage, Verdict};
