//! Fabfib: the bluffing card game of calls, discards and doubts (rules in `docs/fabfib.md`).
//!
//! - [`cards`]: the 50-card deck, coins, hand values.
//! - [`calls`]: legal calls and their dense numbering.
//! - [`rules`]: players, life and the two options (exact calls, zero discards).
//! - [`odds`]: exact chances: a fresh hand's value, reaching a target after a discard.
//! - [`strategy`]: the call / discard / doubt traits and the `article`, `honest`, `odds`
//!   sets.
//! - [`engine`]: one whole game; [`events`]: what an observer sees of it.
//! - [`simulate`], [`tally`]: many games in parallel, reproducibly; [`replay`]: one game.
//! - [`tune`]: a search over the article strategy's parameters against a field.
//! - [`session`]: a person at the table, over any reader and writer.
//!
//! The library returns typed results (`serde`); the command layer writes them as text or
//! JSON.

pub mod calls;
pub mod cards;
pub mod engine;
mod error;
pub mod events;
pub mod odds;
pub mod replay;
pub mod rules;
pub mod session;
pub mod simulate;
pub mod strategy;
pub mod tally;
pub mod tune;

pub use error::{Error, Result};
