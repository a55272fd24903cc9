//! Everything that can go wrong in the backgammon family's engine, each fault its own
//! variant.

use crate::fault::ErrorKind;
use crate::rank::RankError;
use std::path::PathBuf;
use thiserror::Error;

/// An error of the gammon module.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// A board or checker count that describes no game: no points, no checkers.
    #[error("a board of {points} points with {checkers} checkers a side: {reason}")]
    Size {
        /// Points on the board.
        points: usize,
        /// Checkers per side.
        checkers: usize,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A variant whose index or table would not fit 64-bit counts or this machine's
    /// address space; refused before anything is allocated.
    #[error("a board of {points} points with {checkers} checkers a side is too large: {reason}")]
    TooLarge {
        /// Points on the board.
        points: usize,
        /// Checkers per side.
        checkers: usize,
        /// Which count does not fit.
        reason: String,
    },
    /// Work that would need more memory than this process can take (the memory
    /// available, and the address-space limit); refused before anything is allocated.
    #[error("{what} needs about {:.1} GB and this process can take {:.1} GB more (the memory available, and the address-space limit)", *need as f64 / 1e9, *have as f64 / 1e9)]
    OutOfMemory {
        /// What would have been done.
        what: String,
        /// Bytes it needs, roughly.
        need: u64,
        /// Bytes this process can still take.
        have: u64,
    },
    /// A memory cap below the least the work needs.
    #[error("{what} needs at least {} of working memory; {} was allowed", bytes(*need), bytes(*cap))]
    MemoryCap {
        /// What was asked.
        what: String,
        /// Bytes it needs at least.
        need: u64,
        /// Bytes it was allowed.
        cap: u64,
    },
    /// One side's checkers do not fit the board or the checker count.
    #[error("not a side of {checkers} checkers on {points} points: {reason}")]
    Side {
        /// Points on the board.
        points: usize,
        /// Checkers per side.
        checkers: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Two sides that do not make a position (different or too few slots).
    #[error("not a position: {reason}")]
    Position {
        /// What is wrong with it.
        reason: String,
    },
    /// A position whose two sides stand on the same point.
    #[error("both sides hold point {point} (counted from the side on roll)")]
    Clash {
        /// The point, in the numbering of the side on roll.
        point: usize,
    },
    /// A side or record number beyond the index.
    #[error("{what} {number} is out of range (there are {len})")]
    OutOfRange {
        /// "side" or "record".
        what: &'static str,
        /// The number asked for.
        number: u64,
        /// How many there are.
        len: u64,
    },
    /// A gnubg Position ID that could not be read.
    #[error("Position ID {input}: {reason}")]
    PositionId {
        /// The text given (shortened when long).
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A position a Position ID cannot hold (not on 24 points, or over 30 checkers).
    #[error("no Position ID for this position: {0}")]
    NoPositionId(String),
    /// A probability or equity outside the range the file format can store.
    #[error("{what} = {value} cannot be stored: it must lie in {low}..={high}")]
    Value {
        /// Which value.
        what: &'static str,
        /// The value given.
        value: f64,
        /// The lowest storable value.
        low: f64,
        /// The highest storable value.
        high: f64,
    },
    /// A database file's first 40 bytes are not gnubg's Hypergammon header.
    #[error("{path}: not a gnubg Hypergammon database (header {found})")]
    Header {
        /// The file.
        path: PathBuf,
        /// The header as read, shortened and escaped.
        found: String,
    },
    /// A database file for another checker count than the one asked for.
    #[error("{path}: a database for {found} checkers, expected {expected}")]
    WrongCheckers {
        /// The file.
        path: PathBuf,
        /// The checker count the caller asked for.
        expected: usize,
        /// The checker count in the header.
        found: usize,
    },
    /// A database file shorter or longer than its header says it must be.
    #[error("{path}: {found} bytes, expected {expected} (the file is {state})")]
    Length {
        /// The file.
        path: PathBuf,
        /// The length its header implies.
        expected: u64,
        /// The length found.
        found: u64,
        /// "truncated" or "too long".
        state: &'static str,
    },
    /// A gnubg bear-off database (`gnubg_os*.bd`, `gnubg_ts*.bd`) that cannot be read:
    /// its header, its length, or a record outside its format.
    #[error("{path}: {reason}")]
    BearoffFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A stored record that breaks the format (a nonzero padding byte).
    #[error("record {record}: {reason}")]
    Corrupt {
        /// The record number.
        record: u64,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A fault found in a file, named with the file.
    #[error("{}: {source}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// The fault.
        source: Box<Error>,
    },
    /// Records given to a database writer that do not fit the index: a value for an
    /// illegal record, none for a legal one, or the wrong number of records.
    #[error("record {record}: {reason}")]
    Records {
        /// The record number.
        record: u64,
        /// What is wrong.
        reason: &'static str,
    },
    /// A variant that describes no game this program can solve.
    #[error("variant: {reason}")]
    Variant {
        /// What is wrong with it.
        reason: String,
    },
    /// A position or roll given as text that could not be read for the variant.
    #[error("{what} {input}: {reason}")]
    Input {
        /// "position" or "roll".
        what: &'static str,
        /// The text given (shortened when long).
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A value iteration did not reach its tolerance.
    #[error("the {what} iteration did not converge in {sweeps} sweeps")]
    NotConverged {
        /// Which quantity was being iterated.
        what: String,
        /// How many sweeps were made.
        sweeps: u32,
    },
    /// A table could not be opened, read, checked or written.
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    /// The stored values do not satisfy the rules' equations within their rounding.
    #[error("the table is not consistent with the rules: {0}")]
    Inconsistent(String),
    /// A question about the doubling cube, asked of a table that does not keep it.
    #[error(
        "{}: no cube table lies beside it (the table was built without the cube){}",
        path.display(),
        hint.as_ref().map(|h| format!(": {h}")).unwrap_or_default()
    )]
    NoCube {
        /// The table asked.
        path: PathBuf,
        /// Advice, such as the command that builds the cube table.
        hint: Option<String>,
    },
    /// A compact table with gammons and the cube, which keeps the cube's equities alone,
    /// asked a pair's chances without the cubeless table that keeps them beside it.
    #[error(
        "{}: the table keeps the cube's no-double equities alone; the chances to win and \
         of gammons are the cubeless table's, {}, which is not there: build it with `{build}`",
        path.display(),
        needs.display()
    )]
    NoChances {
        /// The table asked.
        path: PathBuf,
        /// The cubeless table it needs beside it.
        needs: PathBuf,
        /// The command that builds it.
        build: String,
    },
    /// A position of backgammon itself (15 checkers a side on 24 points) given where a
    /// smaller member of the family is played.
    #[error(
        "{input}: a backgammon position (15 checkers a side), not one of {variant}; tabula \
         answers backgammon exactly in the bear-off, once both sides have every checker in \
         their home boards{}{}",
        bearoff.as_ref().map(|b| format!(" (this one is: {b})")).unwrap_or_else(|| " (this one is not yet)".into()),
        hint.as_ref().map(|h| format!(": {h}")).unwrap_or_default()
    )]
    Backgammon {
        /// The text given (shortened when long).
        input: String,
        /// The variant asked.
        variant: String,
        /// The position as a bear-off pair (`ROLLER/OPPONENT`), when it is one.
        bearoff: Option<String>,
        /// Advice, such as the command that answers the bear-off.
        hint: Option<String>,
    },
    /// A line of the player's answers could not be read.
    #[error("standard input: {0}")]
    Line(#[from] crate::lines::LineError),
    /// The ranking engine refused a family (kept as the source).
    #[error("the side index cannot be built")]
    Rank(#[from] RankError),
    /// Reading or writing a database file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// What sort of failure this is (the command layer maps it to an exit status).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Size { .. }
            | Error::TooLarge { .. }
            | Error::Side { .. }
            | Error::Position { .. }
            | Error::Clash { .. }
            | Error::OutOfRange { .. }
            | Error::PositionId { .. }
            | Error::NoPositionId(_)
            | Error::Value { .. }
            | Error::Records { .. }
            | Error::Rank(_)
            | Error::Variant { .. }
            | Error::Backgammon { .. }
            | Error::Input { .. }
            | Error::MemoryCap { .. } => ErrorKind::Input,
            Error::NotConverged { .. } | Error::Inconsistent(_) | Error::OutOfMemory { .. } => {
                ErrorKind::Failed
            }
            Error::Table(_) | Error::NoCube { .. } | Error::NoChances { .. } => ErrorKind::Table,
            Error::Line(crate::lines::LineError::Read(_)) => ErrorKind::Io,
            Error::Line(_) => ErrorKind::Input,
            Error::Header { .. }
            | Error::BearoffFile { .. }
            | Error::WrongCheckers { .. }
            | Error::Length { .. }
            | Error::Corrupt { .. } => ErrorKind::Table,
            Error::Io { .. } => ErrorKind::Io,
            Error::InFile { source, .. } => source.kind(),
        }
    }

    /// Adds advice (such as the command that builds the table) to a fault that a rebuild
    /// cures (a missing cube table, and the table faults of
    /// [`crate::table::TableError::with_hint`]); other errors are returned unchanged.
    pub fn with_hint(self, advice: &str) -> Self {
        match self {
            Error::Table(e) => Error::Table(e.with_hint(advice)),
            Error::NoCube { path, .. } => Error::NoCube {
                path,
                hint: Some(advice.to_string()),
            },
            Error::Backgammon {
                input,
                variant,
                bearoff,
                ..
            } => Error::Backgammon {
                input,
                variant,
                bearoff,
                hint: Some(advice.to_string()),
            },
            e => e,
        }
    }

    pub(crate) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
        move |source| Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Bytes as an error message shows them: MB below a gigabyte, else GB.
fn bytes(b: u64) -> String {
    if b < 1_000_000_000 {
        format!("{:.1} MB", b as f64 / 1e6)
    } else {
        format!("{:.1} GB", b as f64 / 1e9)
    }
}
