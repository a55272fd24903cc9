//! tabula: exact analysis of small games, kept in persistent memory-mapped tables.
//!
//! The library does the work; the `tabula` binary only parses, calls and prints.
//!
//! - [`rank`]: the combinatorial ranking engine every exhaustive pass stands on.
//! - [`table`]: the persistent, checked, memory-mapped table format.
//! - [`memory`]: how much memory the work may still take.
//! - one module per game.

#![warn(missing_docs)]

pub mod bingo;
pub mod error;
pub mod exact;
pub mod fabfib;
pub mod fault;
pub mod gammon;
pub mod lines;
pub mod memory;
pub mod nikoniko;
pub mod numeron;
pub(crate) mod par;
pub mod poker;
pub mod progress;
pub mod random;
pub mod rank;
#[cfg(test)]
mod scratch;
pub mod stats;
pub mod table;

pub use error::{Error, ErrorKind, Result};
