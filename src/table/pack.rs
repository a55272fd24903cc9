//! Packing a table into a zstd-compressed file for shipping, and back.

use super::write::stage_with;
use super::{io_error, Table, TableError};
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::Path;

/// The zstd frame magic (RFC 8878): every packed table starts with it.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Compresses the table at `src` (which must open and verify) into `dst`, atomically.
/// The folder of `dst` must exist.
pub fn pack(src: &Path, dst: &Path) -> Result<(), TableError> {
    let table = Table::open(src)?;
    table.verify()?;
    let raw = std::fs::read(src).map_err(io_error(src))?;
    let staged = stage_with(dst, |file| zstd::stream::copy_encode(&raw[..], file, 19))?;
    staged.persist(dst).map_err(|e| TableError::Io {
        path: dst.to_path_buf(),
        source: e.error,
    })
}

/// Decompresses a packed table `src` into `dst`; the result must open and verify, or
/// nothing is left at `dst`. The folder of `dst` must exist.
pub fn unpack(src: &Path, dst: &Path) -> Result<(), TableError> {
    let mut file = BufReader::new(File::open(src).map_err(io_error(src))?);
    let mut magic = [0u8; 4];
    if file.read_exact(&mut magic).is_err() || magic != ZSTD_MAGIC {
        return Err(TableError::Malformed {
            path: src.to_path_buf(),
            message: "not a packed table (no zstd frame)".into(),
        });
    }
    let file = BufReader::new(File::open(src).map_err(io_error(src))?);
    let mut raw = Vec::new();
    zstd::stream::read::Decoder::new(file)
        .and_then(|mut d| d.read_to_end(&mut raw))
        .map_err(|e| TableError::Malformed {
            path: src.to_path_buf(),
            message: format!("the packed table does not decompress: {e}"),
        })?;
    // Check the unpacked bytes before they take the destination's name.
    let staged = stage_with(dst, |f| f.write_all(&raw))?;
    let checked = Table::open(&staged).and_then(|t| t.verify());
    if let Err(e) = checked {
        return Err(TableError::Malformed {
            path: src.to_path_buf(),
            message: format!("the packed contents are not a sound table: {e}"),
        });
    }
    staged.persist(dst).map_err(|e| TableError::Io {
        path: dst.to_path_buf(),
        source: e.error,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{write, Descriptor};
    use super::*;

    #[test]
    fn pack_then_unpack_gives_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        let records: Vec<u16> = (0..5000).map(|i| (i % 7) as u16).collect();
        let desc = Descriptor {
            kind: "test",
            layout: "u16",
            variant: "",
        };
        write(&path, desc, &records).unwrap();
        let packed = dir.path().join("t.tbl.zst");
        pack(&path, &packed).unwrap();
        assert!(std::fs::metadata(&packed).unwrap().len() < 5000);
        let back = dir.path().join("back.tbl");
        unpack(&packed, &back).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&back).unwrap());
        assert!(matches!(
            unpack(&path, &dir.path().join("x.tbl")),
            Err(TableError::Malformed { .. })
        ));
        assert!(!dir.path().join("x.tbl").exists());
        // Into a folder that does not exist: the error names that folder.
        let missing = dir.path().join("no-such-folder");
        let err = unpack(&packed, &missing.join("t.tbl")).unwrap_err();
        assert!(matches!(&err, TableError::NoFolder { path } if *path == missing));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    }
}
