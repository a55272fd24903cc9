//! GNU Backgammon's files and names (`docs/gammon.md`, "gnubg interchange"): its
//! Position IDs, eXtreme Gammon's XGIDs, its match files (`.sgf`, and the Jellyfish `.mat`
//! it exports), its Hypergammon databases, and the comparison, export and import between
//! those databases and the family's tables.

pub mod bd;
pub mod compare;
pub mod export;
pub mod import;
pub mod mat;
pub mod notation;
pub mod position_id;
pub mod record;
pub mod sgf;
pub mod xgid;

pub use bd::{HyperFile, HyperWriter, Record, Stored};
pub use compare::{compare, Comparison};
pub use export::export;
pub use import::{import, Imported};
