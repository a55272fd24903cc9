//! The persistent table format: a checked header, a payload of fixed-size little-endian
//! records, and a SHA-256 sum for every block of the payload.
//!
//! `docs/table-format.md` describes the layout byte by byte, the checks a reader makes,
//! the contract between a memory-mapped reader and the programs that may change the file
//! under it, and how writers publish a table (or a pair of tables) all or nothing.
//!
//! In short:
//! - [`Table::open`] (short-lived processes: a map) and [`Table::open_cached`] (long-lived
//!   ones: positioned reads into a bounded [`Cache`] of verified blocks) refuse anything but
//!   a regular file, then do the cheap checks (magic, version, header checksum, header
//!   fields against each other, size, the block-sum table);
//! - every record read through [`Table::record`] or [`Table::records`] first checks the
//!   SHA-256 of the blocks it lies in, once per block, so a flipped byte is reported as
//!   corruption by the query that touches it, never returned as a value; a cached table
//!   truncated under its reader is an error too, never a signal;
//! - [`Table::verify`] checks every block and the payload-wide SHA-256;
//! - writers ([`write()`], [`stage`] + [`publish`]) write a temporary file beside the
//!   target and rename it into place, so readers see the old table or the new one, never
//!   a mix.

mod cache;
mod header;
#[cfg(feature = "pack")]
mod pack;
mod read;
mod write;

pub use cache::{Cache, SHARED_BUDGET};
pub use header::{Header, BLOCK_SIZE, HEADER_LEN, MAGIC, SUM_LEN, VERSION};
#[cfg(feature = "pack")]
pub use pack::{pack, unpack};
pub use read::{map, open_input, Reader, Table};
pub use write::{
    clean_stale_temporaries, file_len, prepare, publish, refuse_same, stage, write, write_file,
    Growing, Staged, Stream,
};

use std::path::{Path, PathBuf};
use thiserror::Error;

/// Every way opening, reading, checking or writing a table can fail, each with its own
/// message.
#[derive(Debug, Error)]
pub enum TableError {
    /// The table file does not exist.
    #[error("table {} not found{}", shown(path), hint_text(hint))]
    Missing {
        /// The path that was looked for.
        path: PathBuf,
        /// Advice appended to the message, such as the command that builds the table.
        hint: Option<String>,
    },
    /// An I/O operation on the file failed.
    #[error("cannot read or write {}: {source}", shown(path))]
    Io {
        /// The file being read or written.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The path exists but is not a regular file.
    #[error("{} is {what}, not a regular file", shown(path))]
    NotAFile {
        /// The path that was opened.
        path: PathBuf,
        /// What the path is instead, such as "a directory".
        what: &'static str,
    },
    /// A command asked to write over the very file it reads.
    #[error(
        "{} is the file being read: it cannot also be the one written",
        shown(path)
    )]
    SameFile {
        /// The path given as the output.
        path: PathBuf,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{} is not a tabula table (bad magic number)", shown(path))]
    NotATable {
        /// The file that was opened.
        path: PathBuf,
    },
    /// The file has a format version this build does not read.
    #[error("{}", version_text(path, *found, *supported, hint))]
    Version {
        /// The file that was opened.
        path: PathBuf,
        /// The version recorded in the file's header.
        found: u32,
        /// The version this build reads ([`VERSION`]).
        supported: u32,
        /// Advice on rebuilding an older table, such as the command that builds it.
        hint: Option<String>,
    },
    /// The header's own checksum does not match its bytes.
    #[error("{} has a corrupt header (header checksum mismatch)", shown(path))]
    HeaderCorrupt {
        /// The file that was opened.
        path: PathBuf,
    },
    /// The file is shorter than its header says it should be.
    #[error(
        "{} is truncated: {actual} bytes, the header promises {expected}",
        shown(path)
    )]
    Truncated {
        /// The file that was opened.
        path: PathBuf,
        /// The file length in bytes the header implies.
        expected: u64,
        /// The file's actual length in bytes.
        actual: u64,
    },
    /// The file is longer than its header says it should be.
    #[error("{} has {} stray bytes after its block sums ({actual} bytes, expected {expected})", shown(path), actual - expected)]
    TrailingBytes {
        /// The file that was opened.
        path: PathBuf,
        /// The file length in bytes the header implies.
        expected: u64,
        /// The file's actual length in bytes.
        actual: u64,
    },
    /// The SHA-256 of the whole payload does not match the one in the header.
    #[error(
        "{} is corrupt: payload checksum {actual}, the header records {expected}{}",
        shown(path),
        hint_text(hint)
    )]
    Checksum {
        /// The file that was checked.
        path: PathBuf,
        /// The payload SHA-256 recorded in the header, in hex.
        expected: String,
        /// The SHA-256 of the payload as read, in hex.
        actual: String,
        /// Advice appended to the message, such as the command that rebuilds the table.
        hint: Option<String>,
    },
    /// The table of block sums does not match the digest of it in the header.
    #[error(
        "{} is corrupt: its table of block sums does not match the header{}",
        shown(path),
        hint_text(hint)
    )]
    SumsCorrupt {
        /// The file that was opened.
        path: PathBuf,
        /// Advice appended to the message, such as the command that rebuilds the table.
        hint: Option<String>,
    },
    /// One block of the payload does not match its stored sum.
    #[error(
        "{} is corrupt: payload bytes {start}..{end} (block {block}) do not match their checksum{}",
        shown(path),
        hint_text(hint)
    )]
    BlockCorrupt {
        /// The file that was read.
        path: PathBuf,
        /// The index of the corrupt block, from 0.
        block: u64,
        /// The block's first byte, as an offset into the payload.
        start: u64,
        /// One past the block's last byte, as an offset into the payload.
        end: u64,
        /// Advice appended to the message, such as the command that rebuilds the table.
        hint: Option<String>,
    },
    /// The header names a different kind of table than the reader wants.
    #[error("{} is a `{found}` table, expected a `{expected}` table", shown(path))]
    WrongKind {
        /// The file that was opened.
        path: PathBuf,
        /// The kind the reader asked for.
        expected: String,
        /// The kind recorded in the header.
        found: String,
    },
    /// The header's record size differs from the size of the record type being read.
    #[error(
        "{} has records of {found} bytes ({layout}), expected {expected}",
        shown(path)
    )]
    Layout {
        /// The file that was opened.
        path: PathBuf,
        /// The record layout recorded in the header, such as `i16`.
        layout: String,
        /// The record size in bytes the reader expects.
        expected: usize,
        /// The record size in bytes recorded in the header.
        found: u32,
    },
    /// The table was built for different rules than the reader wants.
    #[error("{} was built for `{found}`, expected `{expected}`", shown(path))]
    Variant {
        /// The file that was opened.
        path: PathBuf,
        /// The variant the reader asked for.
        expected: String,
        /// The variant recorded in the header.
        found: String,
    },
    /// A record index at or past the end of the table.
    #[error("{} holds {count} records: there is no record {index}", shown(path))]
    OutOfRange {
        /// The file that was read.
        path: PathBuf,
        /// The record index asked for, from 0.
        index: u64,
        /// The number of records in the table.
        count: u64,
    },
    /// The folder to write into does not exist.
    #[error(
        "cannot write {}: its folder {} does not exist",
        shown(target),
        shown(path)
    )]
    NoFolder {
        /// The file that was to be written.
        target: PathBuf,
        /// The missing folder.
        path: PathBuf,
    },
    /// Writing tables into a folder failed, typically for lack of space or permission.
    #[error(
        "cannot write {bytes} bytes of tables into folder {}: {source}",
        shown(path)
    )]
    Unwritable {
        /// The folder being written into.
        path: PathBuf,
        /// The number of bytes that were to be written.
        bytes: u64,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The file breaks the format in some other way, described by the message.
    #[error("{}: {message}", shown(path))]
    Malformed {
        /// The file that was read.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
}

fn hint_text(hint: &Option<String>) -> String {
    hint.as_ref().map(|h| format!(": {h}")).unwrap_or_default()
}

fn version_text(path: &Path, found: u32, supported: u32, hint: &Option<String>) -> String {
    let advice = if found < supported {
        match hint {
            Some(h) => format!("rebuild it ({h})"),
            None => "rebuild it".to_string(),
        }
    } else {
        "it was written by a newer tabula".to_string()
    };
    format!(
        "{} has table format version {found}; this build reads version {supported}: {advice}",
        shown(path)
    )
}

impl TableError {
    /// The same fault, told of the file `path` (a packed table's, for the fault found in
    /// the temporary file it was unpacked into).
    #[cfg(feature = "pack")]
    pub(crate) fn named(mut self, name: &Path) -> Self {
        use TableError::*;
        match &mut self {
            Missing { path, .. }
            | Io { path, .. }
            | NotAFile { path, .. }
            | SameFile { path }
            | NotATable { path }
            | Version { path, .. }
            | HeaderCorrupt { path }
            | Truncated { path, .. }
            | TrailingBytes { path, .. }
            | Checksum { path, .. }
            | SumsCorrupt { path, .. }
            | BlockCorrupt { path, .. }
            | WrongKind { path, .. }
            | Layout { path, .. }
            | Variant { path, .. }
            | OutOfRange { path, .. }
            | Malformed { path, .. } => *path = name.to_path_buf(),
            NoFolder { target, .. } => *target = name.to_path_buf(),
            Unwritable { .. } => {}
        }
        self
    }

    /// Adds advice (e.g. which command builds the table) to the faults a rebuild cures:
    /// a missing table, an old format, corruption. Other errors are returned unchanged.
    pub fn with_hint(mut self, advice: &str) -> Self {
        match &mut self {
            TableError::Missing { hint, .. }
            | TableError::Version { hint, .. }
            | TableError::Checksum { hint, .. }
            | TableError::SumsCorrupt { hint, .. }
            | TableError::BlockCorrupt { hint, .. } => *hint = Some(advice.to_string()),
            _ => {}
        }
        self
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> TableError + '_ {
    move |source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            TableError::Missing {
                path: path.to_path_buf(),
                hint: None,
            }
        } else {
            TableError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    }
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub use crate::fault::{excerpt, EXCERPT_CHARS};

/// A path as an error message shows it (see [`excerpt`]).
fn shown(path: &Path) -> String {
    excerpt(&path.to_string_lossy())
}

/// What a table is: its kind, record layout and the rules it was built for.
#[derive(Debug, Clone, Copy)]
pub struct Descriptor<'a> {
    /// Short ASCII name, at most 32 bytes (e.g. `nikoniko-equity`).
    pub kind: &'a str,
    /// Record layout, at most 16 bytes (e.g. `i16`).
    pub layout: &'a str,
    /// The rules and parameters the table was built for, at most 128 bytes.
    pub variant: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_text_is_quoted_whole_and_a_long_one_is_cut_with_its_length() {
        assert_eq!(excerpt("8,8,5/8,8,5"), "8,8,5/8,8,5");
        let exactly = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exactly), exactly);
        let long = "é".repeat(100_000);
        let cut = excerpt(&long);
        assert!(cut.starts_with(&"é".repeat(EXCERPT_CHARS)));
        assert!(cut.ends_with("… (100000 characters)"));
        assert!(cut.chars().count() < EXCERPT_CHARS + 30);
    }

    #[test]
    fn an_old_table_is_told_to_rebuild_and_a_newer_one_to_upgrade() {
        let old = TableError::Version {
            path: "t.tbl".into(),
            found: 1,
            supported: 2,
            hint: None,
        }
        .with_hint("run `tabula nikoniko build`");
        assert_eq!(
            old.to_string(),
            "t.tbl has table format version 1; this build reads version 2: \
             rebuild it (run `tabula nikoniko build`)"
        );
        let newer = TableError::Version {
            path: "t.tbl".into(),
            found: 3,
            supported: 2,
            hint: None,
        };
        assert!(newer.to_string().ends_with("written by a newer tabula"));
    }
}
