//! Everything that can go wrong in NikoNiko Gammon's own parts, each fault its own
//! variant.

use crate::fault::ErrorKind;
use crate::table::TableError;
use thiserror::Error;

/// An error of the NikoNiko module.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// A counting table cannot be made as asked (too large, no place).
    #[error("{0}")]
    Counting(String),
    /// The dense index is not a bijection (a bug, reported rather than hidden).
    #[error("the index does not round-trip: {0}")]
    Index(String),
    /// A table could not be opened, read, checked or written.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The family's engine failed (its solve did not converge, say).
    #[error(transparent)]
    Gammon(#[from] crate::gammon::Error),
}

impl Error {
    /// What sort of failure this is (the command layer maps it to an exit status).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Counting(_) => ErrorKind::Input,
            Error::Table(_) => ErrorKind::Table,
            Error::Gammon(e) => e.kind(),
            Error::Index(_) => ErrorKind::Failed,
        }
    }
}
