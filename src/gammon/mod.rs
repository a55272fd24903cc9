//! The backgammon family's interchange with GNU Backgammon (gnubg), independent of any
//! solver (`docs/gammon.md`).
//!
//! - [`hyper`]: gnubg's Hypergammon index (one side numbered by stars and bars, a record
//!   = side on roll · N + other side), generalised to any board and checker count.
//! - [`position_id`]: gnubg's 14-character Position IDs on the 24-point board.
//! - [`bd`]: gnubg 1.07's `hyper<C>.bd` database files, read through a memory map and
//!   written record by record.
//!
//! ```
//! use tabula::gammon::{hyper, position_id, HyperIndex};
//!
//! let index = HyperIndex::hypergammon(3).unwrap();
//! let counts = index.counts();
//! assert_eq!((counts.records, counts.legal), (10_732_176, 7_959_904));
//!
//! let opening = hyper::hypergammon_opening(3).unwrap();
//! let id = position_id::encode(&opening).unwrap();
//! assert_eq!(position_id::decode(&id).unwrap(), opening);
//! ```

pub mod bd;
mod error;
pub mod game;
pub mod hyper;
pub mod moves;
pub mod notation;
mod position;
pub mod position_id;
pub mod query;
pub mod solver;
pub mod store;
pub mod variant;

pub use crate::nikoniko::Outcomes;
pub use bd::{HyperFile, HyperWriter, Record, Stored};
pub use error::Error;
pub use hyper::{Counts, HyperIndex};
pub use position::Position;
pub use variant::{Numbering, Variant};
