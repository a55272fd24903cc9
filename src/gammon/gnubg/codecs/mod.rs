//! gnubg's formats, read and written byte for byte: its Hypergammon databases
//! (`hyper<C>.bd`), its Position IDs, eXtreme Gammon's XGIDs, its notation of plays and
//! its match files (`.sgf`, `.mat`, read into one [`record`]). Nothing here knows the
//! family's tables.

pub mod bd;
pub mod mat;
pub mod notation;
pub mod position_id;
pub mod record;
pub mod sgf;
pub mod xgid;
