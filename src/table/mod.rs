//! The persistent table format.
//!
//! A table file is a 256-byte header followed by a payload of fixed-size little-endian
//! records. Header (all integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `TABULA\x1a\n` |
//! | 8..12 | format version (`u32`, currently 1) |
//! | 12..16 | record size in bytes (`u32`) |
//! | 16..24 | record count (`u64`) |
//! | 24..56 | table kind, ASCII, NUL-padded (e.g. `nikoniko-equity`) |
//! | 56..72 | record layout, ASCII, NUL-padded (e.g. `i16`, `u16x6`) |
//! | 72..200 | variant: the rules the table was built for, UTF-8, NUL-padded |
//! | 200..232 | SHA-256 of the payload |
//! | 232..248 | reserved, zero |
//! | 248..256 | first 8 bytes of the SHA-256 of bytes 0..248 (guards the header) |
//!
//! Writers write a temporary file in the target's folder and rename it into place, so a
//! killed build never leaves a table behind. Readers memory-map the file and view the
//! payload as a typed slice without copying; [`Table::open`] does the cheap checks
//! (magic, version, header checksum, sizes) and [`Table::verify`] the payload checksum.

mod pack;

pub use pack::{pack, unpack};

use memmap2::Mmap;
use sha2::{Digest, Sha256};
use std::fmt;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Bytes in the header; the payload starts here.
pub const HEADER_LEN: usize = 256;
/// The magic number that opens every table file.
pub const MAGIC: [u8; 8] = *b"TABULA\x1a\n";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

const KIND: (usize, usize) = (24, 56);
const LAYOUT: (usize, usize) = (56, 72);
const VARIANT: (usize, usize) = (72, 200);
const CHECKSUM: (usize, usize) = (200, 232);
const HEADER_SUM: (usize, usize) = (248, 256);

/// Every way opening or checking a table can fail, each with its own message.
#[derive(Debug, Error)]
pub enum TableError {
    #[error("table {} not found{}", path.display(), hint_text(hint))]
    Missing { path: PathBuf, hint: Option<String> },
    #[error("cannot read or write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a tabula table (bad magic number)", path.display())]
    NotATable { path: PathBuf },
    #[error("{} has table format version {found}; this build reads version {supported}", path.display())]
    Version {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    #[error("{} has a corrupt header (header checksum mismatch)", path.display())]
    HeaderCorrupt { path: PathBuf },
    #[error("{} is truncated: {actual} bytes, the header promises {expected}", path.display())]
    Truncated {
        path: PathBuf,
        expected: u64,
        actual: u64,
    },
    #[error("{} has {} stray bytes after its payload ({actual} bytes, expected {expected})", path.display(), actual - expected)]
    TrailingBytes {
        path: PathBuf,
        expected: u64,
        actual: u64,
    },
    #[error("{} is corrupt: payload checksum {actual}, the header records {expected}", path.display())]
    Checksum {
        path: PathBuf,
        expected: String,
        actual: String,
    },
    #[error("{} is a `{found}` table, expected a `{expected}` table", path.display())]
    WrongKind {
        path: PathBuf,
        expected: String,
        found: String,
    },
    #[error("{} has records of {found} bytes ({layout}), expected {expected}", path.display())]
    Layout {
        path: PathBuf,
        layout: String,
        expected: usize,
        found: u32,
    },
    #[error("{} was built for `{found}`, expected `{expected}`", path.display())]
    Variant {
        path: PathBuf,
        expected: String,
        found: String,
    },
    #[error("{}: {message}", path.display())]
    Malformed { path: PathBuf, message: String },
}

fn hint_text(hint: &Option<String>) -> String {
    hint.as_ref().map(|h| format!(": {h}")).unwrap_or_default()
}

impl TableError {
    /// Adds advice to a [`TableError::Missing`] (e.g. which command builds the table);
    /// other errors are returned unchanged.
    pub fn with_hint(self, advice: &str) -> Self {
        match self {
            TableError::Missing { path, .. } => TableError::Missing {
                path,
                hint: Some(advice.to_string()),
            },
            other => other,
        }
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

/// What the header says about a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub version: u32,
    pub kind: String,
    pub layout: String,
    pub variant: String,
    pub record_size: u32,
    pub record_count: u64,
    pub checksum: [u8; 32],
}

impl Header {
    /// The payload checksum as lowercase hex.
    pub fn checksum_hex(&self) -> String {
        hex(&self.checksum)
    }

    /// Payload length in bytes, or `None` if it overflows.
    pub fn payload_len(&self) -> Option<u64> {
        u64::from(self.record_size).checked_mul(self.record_count)
    }

    fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&self.version.to_le_bytes());
        h[12..16].copy_from_slice(&self.record_size.to_le_bytes());
        h[16..24].copy_from_slice(&self.record_count.to_le_bytes());
        put_text(&mut h, KIND, &self.kind);
        put_text(&mut h, LAYOUT, &self.layout);
        put_text(&mut h, VARIANT, &self.variant);
        h[CHECKSUM.0..CHECKSUM.1].copy_from_slice(&self.checksum);
        let sum = Sha256::digest(&h[..HEADER_SUM.0]);
        h[HEADER_SUM.0..HEADER_SUM.1].copy_from_slice(&sum[..8]);
        h
    }

    fn decode(path: &Path, h: &[u8]) -> Result<Header, TableError> {
        if h.len() < MAGIC.len() || h[..8] != MAGIC {
            return Err(TableError::NotATable {
                path: path.to_path_buf(),
            });
        }
        if h.len() < HEADER_LEN {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected: HEADER_LEN as u64,
                actual: h.len() as u64,
            });
        }
        let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(TableError::Version {
                path: path.to_path_buf(),
                found: version,
                supported: VERSION,
            });
        }
        let sum = Sha256::digest(&h[..HEADER_SUM.0]);
        if sum[..8] != h[HEADER_SUM.0..HEADER_SUM.1] {
            return Err(TableError::HeaderCorrupt {
                path: path.to_path_buf(),
            });
        }
        let malformed = |message: &str| TableError::Malformed {
            path: path.to_path_buf(),
            message: message.to_string(),
        };
        Ok(Header {
            version,
            record_size: u32::from_le_bytes(h[12..16].try_into().expect("4 bytes")),
            record_count: u64::from_le_bytes(h[16..24].try_into().expect("8 bytes")),
            kind: get_text(h, KIND).ok_or_else(|| malformed("the kind is not text"))?,
            layout: get_text(h, LAYOUT).ok_or_else(|| malformed("the layout is not text"))?,
            variant: get_text(h, VARIANT).ok_or_else(|| malformed("the variant is not text"))?,
            checksum: h[CHECKSUM.0..CHECKSUM.1].try_into().expect("32 bytes"),
        })
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "kind      {}", self.kind)?;
        writeln!(f, "version   {}", self.version)?;
        writeln!(f, "variant   {}", self.variant)?;
        writeln!(
            f,
            "layout    {} ({} bytes a record)",
            self.layout, self.record_size
        )?;
        writeln!(f, "records   {}", self.record_count)?;
        write!(f, "checksum  sha256:{}", self.checksum_hex())
    }
}

fn put_text(h: &mut [u8], (start, end): (usize, usize), text: &str) {
    let bytes = text.as_bytes();
    assert!(bytes.len() <= end - start, "header text `{text}` too long");
    h[start..start + bytes.len()].copy_from_slice(bytes);
}

fn get_text(h: &[u8], (start, end): (usize, usize)) -> Option<String> {
    let field = &h[start..end];
    let used = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    if field[used..].iter().any(|&b| b != 0) {
        return None;
    }
    String::from_utf8(field[..used].to_vec()).ok()
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

/// Writes `records` as a table at `path`, atomically: a temporary file in the same folder,
/// synced, then renamed over `path`. Returns the header written.
pub fn write<T: bytemuck::Pod>(
    path: &Path,
    descriptor: Descriptor<'_>,
    records: &[T],
) -> Result<Header, TableError> {
    let payload: &[u8] = bytemuck::cast_slice(records);
    let header = Header {
        version: VERSION,
        kind: descriptor.kind.to_string(),
        layout: descriptor.layout.to_string(),
        variant: descriptor.variant.to_string(),
        record_size: std::mem::size_of::<T>() as u32,
        record_count: records.len() as u64,
        checksum: Sha256::digest(payload).into(),
    };
    write_atomically(path, |file| {
        file.write_all(&header.encode())?;
        file.write_all(payload)
    })?;
    Ok(header)
}

/// Creates `path` through a temporary file in its folder that `fill` writes; renamed into
/// place only when `fill` and the sync succeed. The temporary file is removed on failure.
pub(crate) fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), TableError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let fail = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(&dir).map_err(fail)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "table".into());
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(fail)?;
    fill(tmp.as_file_mut()).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// An open, memory-mapped table whose header has passed the cheap checks.
pub struct Table {
    path: PathBuf,
    header: Header,
    map: Mmap,
}

impl Table {
    /// Opens and maps `path`, checking the magic, version, header checksum and that the
    /// file's size is exactly the header's promise. The payload checksum is not read:
    /// see [`Table::verify`].
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let file = File::open(path).map_err(io_error(path))?;
        let actual = file.metadata().map_err(io_error(path))?.len();
        // SAFETY: the map is read-only; tables are replaced by rename, never rewritten in
        // place, so the mapped bytes do not change under us.
        let map = unsafe { Mmap::map(&file) }.map_err(io_error(path))?;
        let header = Header::decode(path, &map)?;
        let expected = header
            .payload_len()
            .and_then(|n| n.checked_add(HEADER_LEN as u64))
            .ok_or_else(|| TableError::Malformed {
                path: path.to_path_buf(),
                message: "the record count overflows".into(),
            })?;
        if actual < expected {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected,
                actual,
            });
        }
        if actual > expected {
            return Err(TableError::TrailingBytes {
                path: path.to_path_buf(),
                expected,
                actual,
            });
        }
        Ok(Table {
            path: path.to_path_buf(),
            header,
            map,
        })
    }

    /// Opens `path` and checks that it is a table of `kind`.
    pub fn open_kind(path: &Path, kind: &str) -> Result<Table, TableError> {
        let table = Table::open(path)?;
        table.expect_kind(kind)?;
        Ok(table)
    }

    /// Fails unless the table is of `kind`.
    pub fn expect_kind(&self, kind: &str) -> Result<(), TableError> {
        if self.header.kind == kind {
            Ok(())
        } else {
            Err(TableError::WrongKind {
                path: self.path.clone(),
                expected: kind.to_string(),
                found: self.header.kind.clone(),
            })
        }
    }

    /// Fails unless the table was built for `variant`.
    pub fn expect_variant(&self, variant: &str) -> Result<(), TableError> {
        if self.header.variant == variant {
            Ok(())
        } else {
            Err(TableError::Variant {
                path: self.path.clone(),
                expected: variant.to_string(),
                found: self.header.variant.clone(),
            })
        }
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The payload bytes.
    pub fn payload(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// The payload as records of `T`, without copying; fails if `T`'s size is not the
    /// table's record size.
    pub fn records<T: bytemuck::Pod>(&self) -> Result<&[T], TableError> {
        let size = std::mem::size_of::<T>();
        if size != self.header.record_size as usize {
            return Err(TableError::Layout {
                path: self.path.clone(),
                layout: self.header.layout.clone(),
                expected: size,
                found: self.header.record_size,
            });
        }
        bytemuck::try_cast_slice(self.payload()).map_err(|e| TableError::Malformed {
            path: self.path.clone(),
            message: format!("payload cannot be viewed as records: {e}"),
        })
    }

    /// Recomputes the payload checksum and compares it with the header's.
    pub fn verify(&self) -> Result<(), TableError> {
        let actual: [u8; 32] = Sha256::digest(self.payload()).into();
        if actual == self.header.checksum {
            Ok(())
        } else {
            Err(TableError::Checksum {
                path: self.path.clone(),
                expected: self.header.checksum_hex(),
                actual: hex(&actual),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESC: Descriptor<'static> = Descriptor {
        kind: "test-squares",
        layout: "u32",
        variant: "n=1000",
    };

    fn squares() -> Vec<u32> {
        (0..1000u32).map(|i| i * i).collect()
    }

    #[test]
    fn a_written_table_reads_back_the_same_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sq.tbl");
        let header = write(&path, DESC, &squares()).unwrap();
        let table = Table::open_kind(&path, "test-squares").unwrap();
        assert_eq!(table.header(), &header);
        assert_eq!(table.records::<u32>().unwrap(), &squares()[..]);
        table.verify().unwrap();
        assert!(matches!(
            table.records::<u16>(),
            Err(TableError::Layout { .. })
        ));
        assert!(matches!(
            table.expect_kind("other"),
            Err(TableError::WrongKind { .. })
        ));
        // No temporary file is left beside the table.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn each_fault_is_its_own_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sq.tbl");
        write(&path, DESC, &squares()).unwrap();
        let good = std::fs::read(&path).unwrap();
        let bad = dir.path().join("bad.tbl");
        let try_bytes = |bytes: &[u8]| {
            std::fs::write(&bad, bytes).unwrap();
            Table::open(&bad).and_then(|t| t.verify())
        };

        assert!(matches!(
            Table::open(&dir.path().join("none.tbl")),
            Err(TableError::Missing { .. })
        ));
        assert!(matches!(
            try_bytes(b"hello, world"),
            Err(TableError::NotATable { .. })
        ));
        assert!(matches!(try_bytes(b""), Err(TableError::NotATable { .. })));
        assert!(matches!(
            try_bytes(&good[..100]),
            Err(TableError::Truncated { .. })
        ));
        assert!(matches!(
            try_bytes(&good[..good.len() - 1]),
            Err(TableError::Truncated { .. })
        ));
        let mut longer = good.clone();
        longer.push(0);
        assert!(matches!(
            try_bytes(&longer),
            Err(TableError::TrailingBytes { .. })
        ));
        let mut flipped = good.clone();
        flipped[HEADER_LEN + 17] ^= 1;
        assert!(matches!(
            try_bytes(&flipped),
            Err(TableError::Checksum { .. })
        ));
        let mut header_flip = good.clone();
        header_flip[80] ^= 1;
        assert!(matches!(
            try_bytes(&header_flip),
            Err(TableError::HeaderCorrupt { .. })
        ));
        let mut version = good.clone();
        version[8] = 9;
        assert!(matches!(
            try_bytes(&version),
            Err(TableError::Version { found: 9, .. })
        ));
    }
}
