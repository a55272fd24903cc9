//! Everything that can go wrong in NikoNiko Gammon, each fault its own variant.

use crate::error::ErrorKind;
use crate::table::TableError;
use thiserror::Error;

/// An error of the NikoNiko module.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// A position could not be read: what was given and why it is not a position.
    #[error("position {input}: {reason}")]
    Position {
        /// The text given (shortened when long).
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A roll could not be read.
    #[error("roll {input}: {reason}")]
    Roll {
        /// The text given (shortened when long).
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A counting table cannot be made as asked (too large, no place).
    #[error("{0}")]
    Counting(String),
    /// The dense index is not a bijection (a bug, reported rather than hidden).
    #[error("the index does not round-trip: {0}")]
    Index(String),
    /// The stored values do not satisfy the rules' equations within their rounding.
    #[error("the table is not consistent with the rules: {0}")]
    Inconsistent(String),
    /// A table could not be opened, read, checked or written.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The family's solver failed (its iteration did not converge).
    #[error(transparent)]
    Solver(#[from] crate::gammon::Error),
    /// A line of the player's answers could not be read.
    #[error("standard input: {0}")]
    Line(#[from] crate::lines::LineError),
    /// Writing the game failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being read or written.
        what: &'static str,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// What sort of failure this is (the command layer maps it to an exit status).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Position { .. } | Error::Roll { .. } | Error::Counting(_) => ErrorKind::Input,
            Error::Table(_) => ErrorKind::Table,
            Error::Solver(e) => e.kind(),
            Error::Io { .. } | Error::Line(crate::lines::LineError::Read(_)) => ErrorKind::Io,
            Error::Line(_) => ErrorKind::Input,
            Error::Index(_) | Error::Inconsistent(_) => ErrorKind::Failed,
        }
    }
}
