//! The backgammon family's engine (`docs/gammon.md`): one set of rules, numberings,
//! solver, tables and gnubg interchange for every member — NikoNiko Gammon, Hypergammon
//! 1–3 and variants of a user's own. It knows no single member: a member (the NikoNiko
//! article's own table format, say) sits on top of it and reaches its tables through the
//! one [`Evaluator`] interface.
//!
//! - Rules: [`Variant`] (with the [`BuiltIn`] members), [`Position`] (always from the
//!   side on roll), [`Roll`], [`moves`] (the one move generator), [`Outcomes`], and the
//!   doubling cube's vocabulary in [`cube`].
//! - Numberings ([`numbering`]): gnubg's Hypergammon index and the NikoNiko article's
//!   dense index, side by side.
//! - [`solver`]: the exact solve of a whole variant, cube included.
//! - [`matchplay`]: match play, solved score by score with the same solver.
//! - [`store`]: the family's tables on disk; [`Evaluator`]: what any table answers.
//! - [`query`], [`verify`], [`game`], [`review`]: the questions, the Bellman check, the
//!   one game loop (the command layer's trainer hooks into it) and the review of a
//!   player's decisions, written once over [`Evaluator`].
//! - [`notation`]: positions and rolls as text; [`gnubg`]: plays in gnubg's notation,
//!   Position IDs, gnubg's Hypergammon databases, comparison and export.
//! - [`bearoff`]: the bear-off databases of real backgammon, one-sided and two-sided
//!   with the cube, in tabula's tables and gnubg's formats.
//!
//! ```
//! use tabula::gammon::{gnubg::position_id, notation, HyperIndex, Variant};
//!
//! let index = HyperIndex::hypergammon(3).unwrap();
//! let counts = index.counts();
//! assert_eq!((counts.records, counts.legal), (10_732_176, 7_959_904));
//!
//! let hyper3 = Variant::parse("hyper3").unwrap();
//! let opening = hyper3.opening();
//! let id = position_id::encode(&opening).unwrap();
//! assert_eq!(position_id::decode(&id).unwrap(), opening);
//! assert_eq!(notation::notation(&hyper3, &opening), "24,23,22/24,23,22");
//! ```

pub mod analysis;
pub mod bearoff;
pub mod cube;
mod error;
mod evaluator;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod game;
pub mod gnubg;
pub mod judge;
pub mod matchplay;
pub mod moves;
pub mod notation;
pub mod numbering;
mod outcomes;
mod position;
pub mod query;
pub mod review;
mod roll;
pub mod solver;
pub mod store;
pub mod variant;
pub mod verify;

pub use cube::{CubeDecision, CubeState, Cubeful};
pub use error::Error;
pub use evaluator::{Bounds, Evaluator};
pub use numbering::{Counts, HyperIndex, Numbers, SeedIndex};
pub use outcomes::Outcomes;
pub use position::Position;
pub use roll::Roll;
pub use variant::{BuiltIn, Numbering, Variant};
