//! The one error type the command layer sees, and the exit status each kind maps to
//! (`spec/cli.md`: 2 for bad input or usage, 1 for any other failure).

use thiserror::Error;

/// An error reported to the user.
#[derive(Debug, Error)]
pub enum Error {
    /// The user's input is malformed: a position, a hand, a flag value. Exit status 2.
    #[error("{0}")]
    BadInput(String),
    /// A table is missing, foreign, corrupt or of the wrong kind. Exit status 1.
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    /// Anything else that went wrong at run time (I/O, an impossible search). Exit status 1.
    #[error("{0}")]
    Failure(String),
}

impl Error {
    /// Shorthand for [`Error::BadInput`].
    pub fn input(message: impl Into<String>) -> Self {
        Error::BadInput(message.into())
    }

    /// Shorthand for [`Error::Failure`].
    pub fn failure(message: impl Into<String>) -> Self {
        Error::Failure(message.into())
    }

    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::BadInput(_) => 2,
            Error::Table(_) | Error::Failure(_) => 1,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Failure(e.to_string())
    }
}

/// Result with the crate's [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
