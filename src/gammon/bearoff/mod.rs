//! The bear-off databases of real backgammon (`docs/bearoff.md`).

pub mod analysis;
pub mod estimate;
pub mod gnubg;
pub mod index;
pub mod judge;
mod kernels;
pub mod match_race;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod notation;
pub mod one_sided;
pub mod out_of_core;
pub mod query;
pub mod sides;
pub mod store;
pub mod two_sided;

pub use index::BearoffIndex;
