//! gnubg's formats, read and written byte for byte: its Hypergammon databases
//! (`hyper<C>.bd`), its Position IDs and its notation of plays. Nothing here knows the
//! family's tables.

pub mod bd;
pub mod notation;
pub mod position_id;
