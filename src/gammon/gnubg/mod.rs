//! GNU Backgammon's files and names (`docs/gammon.md`, "gnubg interchange"), in two
//! parts: the codecs (its Position IDs, its notation, its Hypergammon databases, byte for
//! byte) and the interchange between those databases and the family's tables (compare,
//! export, import).

pub mod codecs;
pub mod interchange;

pub use codecs::{bd, notation, position_id};
pub use interchange::{compare, export, import};

pub use bd::{HyperFile, HyperWriter, Record, Stored};
pub use compare::{compare, Comparison};
pub use export::export;
pub use import::{import, Imported};
