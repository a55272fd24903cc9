//! Match play (`docs/gammon.md`, "Match play"): the backgammon family played in matches
//! to `N` points, with the Crawford rule, solved exactly with the one cube solver at
//! match stakes. Values are match-winning chances.
//!
//! - [`score`]: scores, the cube at a score, and the units a match is solved in.
//! - [`solve`]: one unit's solve from the units below it, or a whole match's in order.
//! - [`store`]: a unit's table; building one unit, or every unit of a match.
//! - [`met`]: the match-equity table, in gnubg's file format too.
//! - [`judge`]: the score's tables and the judge at a score.
//! - [`query`]: a position's chance and cube verdict at a score, a roll's plays ranked.

pub mod judge;
pub mod met;
pub mod query;
pub mod score;
pub mod solve;
pub mod store;

#[cfg(test)]
mod naive;

pub use score::{CubeOwner, Game, MatchCube, Score, Unit};
