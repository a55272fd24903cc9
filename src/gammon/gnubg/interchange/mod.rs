//! Between gnubg's Hypergammon databases and the family's tables: the comparison record
//! by record, the export of a table as gnubg's file, the import of gnubg's file as a
//! table. Built on the codecs (`super::codecs`).

pub mod compare;
pub mod export;
pub mod import;
