//! The crate's error: one variant per module, each module's own typed error inside.
//!
//! Every module that can fail has its own `Error` enum (thiserror) whose variants name
//! the fault and keep their sources; [`enum@Error`] wraps them, and [`Error::kind`] says
//! what sort of failure it is. Only the command layer turns a kind into an exit status
//! (`docs/cli.md`: 2 for bad input, 1 for anything else). Messages never name a
//! command-line flag: the library does not know how its caller spells its options.

use thiserror::Error;

pub use crate::fault::{excerpt, shorten, shorten_message, ErrorKind, EXCERPT_CHARS};

/// Any error the library returns.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// A table could not be opened, checked, written or packed.
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    /// A ranker could not be built or was asked about a non-member.
    #[error(transparent)]
    Rank(#[from] crate::rank::RankError),
    /// NikoNiko Gammon.
    #[error(transparent)]
    Nikoniko(#[from] crate::nikoniko::Error),
    /// Bingo.
    #[error(transparent)]
    Bingo(#[from] crate::bingo::Error),
    /// 大石泉すき poker.
    #[error(transparent)]
    Poker(#[from] crate::poker::Error),
    /// Numeron.
    #[error(transparent)]
    Numeron(#[from] crate::numeron::Error),
    /// Fabfib.
    #[error(transparent)]
    Fabfib(#[from] crate::fabfib::Error),
    /// The backgammon family's engine.
    #[error(transparent)]
    Gammon(#[from] crate::gammon::Error),
    /// Reading or writing something other than a table.
    #[error("{what}: {source}")]
    Io {
        /// What was being read or written, e.g. "standard input" or a file's path.
        what: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// An I/O error while reading or writing `what`.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            what: what.into(),
            source,
        }
    }

    /// What sort of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Table(_) => ErrorKind::Table,
            Error::Rank(_) => ErrorKind::Input,
            Error::Nikoniko(e) => e.kind(),
            Error::Bingo(e) => e.kind(),
            Error::Poker(e) => e.kind(),
            Error::Numeron(e) => e.kind(),
            Error::Fabfib(e) => e.kind(),
            Error::Gammon(e) => e.kind(),
            Error::Io { .. } => ErrorKind::Io,
        }
    }

    /// Whether this error, at its root, is a closed pipe on the way out (`| head`): not a
    /// failure of the work, and the command layer ends quietly on it.
    pub fn is_broken_pipe(&self) -> bool {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(self);
        while let Some(e) = source {
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                if io.kind() == std::io::ErrorKind::BrokenPipe {
                    return true;
                }
            }
            source = e.source();
        }
        false
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io {
            what: "input/output".into(),
            source: e,
        }
    }
}

/// Result with the crate's [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
