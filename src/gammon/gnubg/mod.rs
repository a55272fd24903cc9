//! GNU Backgammon's files and names (`docs/gammon.md`, "gnubg interchange"), in two
//! parts: the codecs (its Position IDs, eXtreme Gammon's XGIDs, its notation, its match
//! files — `.sgf` and the Jellyfish `.mat` it exports — and its Hypergammon databases,
//! byte for byte) and the interchange between those databases and the family's tables
//! (compare, export, import).

pub mod codecs;
pub mod interchange;

pub use codecs::{bd, mat, notation, position_id, record, sgf, xgid};
pub use interchange::{compare, export, import};

pub use bd::{HyperFile, HyperWriter, Record, Stored};
pub use compare::{compare, Comparison};
pub use export::export;
pub use import::{import, Imported};
