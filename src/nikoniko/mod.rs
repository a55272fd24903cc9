//! NikoNiko Gammon: backgammon at one third size (8 points, 5 checkers, dice 0–2).
//!
//! Positions are always seen from the side on roll. The rules are `docs/nikoniko.md`.
//!
//! ```
//! use tabula::nikoniko::{index_of, moves::Generator, notation, Position, Roll};
//!
//! let opening = notation::parse_position("8,8,5,2,2/8,8,5,2,2").unwrap();
//! assert_eq!(opening, Position::OPENING);
//! assert_eq!(index_of(&opening), 562_767);
//! // The opening 1-2 has four distinct plays.
//! assert_eq!(Generator::new().plays(&opening, Roll::new(1, 2)).len(), 4);
//! ```

pub mod board;
pub mod counting;
mod error;
pub mod game;
pub mod index;
pub mod moves;
pub mod notation;
mod outcomes;
pub mod position;
pub mod query;
pub mod store;
pub mod verify;

pub use error::Error;

pub use index::{index_of, position_at, STATES};
pub use outcomes::Outcomes;
pub use position::Position;

/// A roll of two dice with faces 0, 1, 2, kept with the smaller die first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Roll {
    /// The smaller die, 0–2.
    pub low: u8,
    /// The larger die, 0–2.
    pub high: u8,
}

impl Roll {
    /// The roll of dice `a` and `b` (order does not matter).
    pub fn new(a: u8, b: u8) -> Roll {
        Roll {
            low: a.min(b),
            high: a.max(b),
        }
    }

    /// The 6 distinct rolls with their weight among the 9 equally likely ordered rolls.
    pub const ALL: [(Roll, u32); 6] = [
        (Roll { low: 0, high: 0 }, 1),
        (Roll { low: 0, high: 1 }, 2),
        (Roll { low: 0, high: 2 }, 2),
        (Roll { low: 1, high: 1 }, 1),
        (Roll { low: 1, high: 2 }, 2),
        (Roll { low: 2, high: 2 }, 1),
    ];
}

impl std::fmt::Display for Roll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.low, self.high)
    }
}
