//! Everything that can go wrong in 大石泉すき poker, each fault its own variant.

use crate::fault::ErrorKind;
use thiserror::Error;

/// An error of the 大石泉すき poker module.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// A hand holds a character that is not one of 大石泉すき nor a letter standing for one.
    #[error(
        "hand {text:?}: unknown character {character:?} at position {position}; a hand uses \
         only 大 石 泉 す き (or the letters o i z s k)"
    )]
    UnknownCharacter {
        /// The hand as given.
        text: String,
        /// The first character that is not accepted.
        character: char,
        /// Its position, 1-based.
        position: usize,
    },
    /// A hand is not five characters long.
    #[error("hand {text:?} has {length} characters; a hand has exactly 5")]
    WrongLength {
        /// The hand as given.
        text: String,
        /// Its length in characters.
        length: usize,
    },
    /// A rule name that is neither `article` nor one to three known statistics.
    #[error(
        "bad rule {name:?}: {reason}; a rule is `article` or one to three statistic names \
         joined by `+`, e.g. `stroke-pos+ssd+possum-o`"
    )]
    BadRule {
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The exhaustive verification found a check that does not hold.
    #[error("the verification failed: {failed}")]
    VerificationFailed {
        /// The checks that failed, in words.
        failed: String,
    },
}

impl Error {
    /// What sort of failure this is (the command layer maps it to an exit status).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::UnknownCharacter { .. } | Error::WrongLength { .. } | Error::BadRule { .. } => {
                ErrorKind::Input
            }
            Error::VerificationFailed { .. } => ErrorKind::Failed,
        }
    }
}
