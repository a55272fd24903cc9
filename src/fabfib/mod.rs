//! Fabfib: the bluffing card game of calls, discards and doubts (spec `fabfib.md`).
//!
//! - [`cards`]: the 50-card deck, coins, hand values.
//! - [`calls`]: legal calls and their dense numbering.
//! - [`rules`]: players, life and the two options (exact calls, zero discards).
//! - [`odds`]: exact chances: a fresh hand's value, reaching a target after a discard.
//! - [`strategy`]: the call / discard / doubt traits and the `seed`, `honest`, `odds` sets.
//! - [`engine`]: one whole game; [`events`]: what an observer sees of it.
//! - [`simulate`], [`stats`]: many games in parallel, reproducibly; [`replay`]: one game.
//! - [`text`]: the aligned tables the command prints.

pub mod calls;
pub mod cards;
pub mod engine;
mod error;
pub mod events;
pub mod odds;
pub mod replay;
pub mod rng;
pub mod rules;
pub mod simulate;
pub mod stats;
pub mod strategy;
pub mod text;

pub use error::Error;
