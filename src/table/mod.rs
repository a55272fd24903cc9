//! The persistent table format: a checked header, a payload of fixed-size little-endian
//! records, and a SHA-256 sum for every block of the payload.
//!
//! `docs/table-format.md` describes the layout byte by byte, the checks a reader makes,
//! the contract between a memory-mapped reader and the programs that may change the file
//! under it, and how writers publish a table (or a pair of tables) all or nothing.
//!
//! In short:
//! - [`Table::open`] refuses anything but a regular file before mapping it, then does the
//!   cheap checks (magic, version, header checksum, size, the block-sum table);
//! - every record read through [`Table::record`] or [`Table::records`] first checks the
//!   SHA-256 of the blocks it lies in, once per block per process, so a flipped byte is
//!   reported as corruption by the query that touches it, never returned as a value;
//! - [`Table::verify`] checks every block and the payload-wide SHA-256;
//! - [`Table::load`] copies the file into memory for long-running readers, which then
//!   cannot be hurt by a file truncated under them;
//! - writers ([`write`], [`stage`] + [`publish`]) write a temporary file beside the target
//!   and rename it into place, so readers see the old table or the new one, never a mix.

mod header;
#[cfg(feature = "pack")]
mod pack;
mod read;
mod write;

pub use header::{Header, BLOCK_SIZE, HEADER_LEN, MAGIC, SUM_LEN, VERSION};
#[cfg(feature = "pack")]
pub use pack::{pack, unpack};
pub use read::Table;
pub use write::{clean_stale_temporaries, file_len, prepare, publish, stage, write, Staged};

use std::path::{Path, PathBuf};
use thiserror::Error;

/// Every way opening, reading, checking or writing a table can fail, each with its own
/// message.
#[derive(Debug, Error)]
pub enum TableError {
    #[error("table {} not found{}", shown(path), hint_text(hint))]
    Missing { path: PathBuf, hint: Option<String> },
    #[error("cannot read or write {}: {source}", shown(path))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is {what}, not a table file", shown(path))]
    NotAFile { path: PathBuf, what: &'static str },
    #[error("{} is not a tabula table (bad magic number)", shown(path))]
    NotATable { path: PathBuf },
    #[error("{}", version_text(path, *found, *supported, hint))]
    Version {
        path: PathBuf,
        found: u32,
        supported: u32,
        hint: Option<String>,
    },
    #[error("{} has a corrupt header (header checksum mismatch)", shown(path))]
    HeaderCorrupt { path: PathBuf },
    #[error(
        "{} is truncated: {actual} bytes, the header promises {expected}",
        shown(path)
    )]
    Truncated {
        path: PathBuf,
        expected: u64,
        actual: u64,
    },
    #[error("{} has {} stray bytes after its block sums ({actual} bytes, expected {expected})", shown(path), actual - expected)]
    TrailingBytes {
        path: PathBuf,
        expected: u64,
        actual: u64,
    },
    #[error(
        "{} is corrupt: payload checksum {actual}, the header records {expected}{}",
        shown(path),
        hint_text(hint)
    )]
    Checksum {
        path: PathBuf,
        expected: String,
        actual: String,
        hint: Option<String>,
    },
    #[error(
        "{} is corrupt: its table of block sums does not match the header{}",
        shown(path),
        hint_text(hint)
    )]
    SumsCorrupt { path: PathBuf, hint: Option<String> },
    #[error(
        "{} is corrupt: payload bytes {start}..{end} (block {block}) do not match their checksum{}",
        shown(path),
        hint_text(hint)
    )]
    BlockCorrupt {
        path: PathBuf,
        block: u64,
        start: u64,
        end: u64,
        hint: Option<String>,
    },
    #[error("{} is a `{found}` table, expected a `{expected}` table", shown(path))]
    WrongKind {
        path: PathBuf,
        expected: String,
        found: String,
    },
    #[error(
        "{} has records of {found} bytes ({layout}), expected {expected}",
        shown(path)
    )]
    Layout {
        path: PathBuf,
        layout: String,
        expected: usize,
        found: u32,
    },
    #[error("{} was built for `{found}`, expected `{expected}`", shown(path))]
    Variant {
        path: PathBuf,
        expected: String,
        found: String,
    },
    #[error("{} holds {count} records: there is no record {index}", shown(path))]
    OutOfRange {
        path: PathBuf,
        index: u64,
        count: u64,
    },
    #[error("cannot write into folder {}: it does not exist", shown(path))]
    NoFolder { path: PathBuf },
    #[error(
        "cannot write {bytes} bytes of tables into folder {}: {source}",
        shown(path)
    )]
    Unwritable {
        path: PathBuf,
        bytes: u64,
        source: std::io::Error,
    },
    #[error("{}: {message}", shown(path))]
    Malformed { path: PathBuf, message: String },
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

/// The longest piece of user input an error message repeats, in characters.
pub const EXCERPT_CHARS: usize = 80;

/// `text` as an error message may quote it: whole if it is at most [`EXCERPT_CHARS`]
/// characters, else its first [`EXCERPT_CHARS`] characters, `…`, and how long it was.
pub fn excerpt(text: &str) -> String {
    let mut chars = text.char_indices();
    match chars.nth(EXCERPT_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}

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
