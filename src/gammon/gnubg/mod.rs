//! GNU Backgammon's files and names (`docs/gammon.md`, "gnubg interchange"): its
//! Position IDs, its Hypergammon databases, and the comparison, export and import between
//! those databases and the family's tables.

pub mod bd;
pub mod compare;
pub mod export;
pub mod import;
pub mod position_id;

pub use bd::{HyperFile, HyperWriter, Record, Stored};
pub use compare::{compare, Comparison};
pub use export::export;
pub use import::{import, Imported};
