//! Everything that can go wrong in 大石泉すき poker, each fault its own variant.

use crate::error::ErrorKind;
use thiserror::Error;

/// An error of the 大石泉すき poker module.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {}

impl Error {
    /// What sort of failure this is (the command layer maps it to an exit status).
    pub fn kind(&self) -> ErrorKind {
        match *self {}
    }
}
