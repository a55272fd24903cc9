//! Packing a table into a zstd-compressed file for shipping, and back.

use super::header::{Header, HEADER_LEN};
use super::read::open_input;
use super::write::{refuse_same, stage_with, write_file};
use super::{io_error, Table, TableError};
use std::io::{BufReader, Read, Write};
use std::path::Path;

/// The zstd frame magic (RFC 8878): every packed table starts with it.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Compresses the table at `src` (which must open and verify) into `dst`, atomically.
/// The folder of `dst` must exist, and `dst` must not be `src`.
pub fn pack(src: &Path, dst: &Path) -> Result<(), TableError> {
    refuse_same(dst, src)?;
    let table = Table::open(src)?;
    table.verify()?;
    let (mut file, _) = open_input(src)?;
    let mut raw = Vec::new();
    file.read_to_end(&mut raw).map_err(io_error(src))?;
    write_file(dst, |out| -> Result<(), TableError> {
        zstd::stream::copy_encode(&raw[..], out, 19).map_err(io_error(dst))
    })
}

/// Decompresses a packed table `src` into `dst`; the result must open and verify, or
/// nothing is left at `dst`. The folder of `dst` must exist, and `dst` must not be `src`.
/// The header is read and checked first, and no more bytes are expanded than it promises:
/// a small file that would expand without end is refused early.
pub fn unpack(src: &Path, dst: &Path) -> Result<(), TableError> {
    refuse_same(dst, src)?;
    let malformed = |message: String| TableError::Malformed {
        path: src.to_path_buf(),
        message,
    };
    let (file, _) = open_input(src)?;
    let mut file = BufReader::new(file);
    let mut magic = [0u8; 4];
    if file.read_exact(&mut magic).is_err() || magic != ZSTD_MAGIC {
        return Err(malformed("not a packed table (no zstd frame)".into()));
    }
    let (file, _) = open_input(src)?;
    let mut decoder = zstd::stream::read::Decoder::new(BufReader::new(file))
        .map_err(|e| malformed(format!("the packed table does not decompress: {e}")))?;
    let mut head = vec![0u8; HEADER_LEN];
    decoder.read_exact(&mut head).map_err(|e| {
        malformed(format!(
            "the packed table does not decompress to a table: {e}"
        ))
    })?;
    let header = Header::decode(src, &head)
        .map_err(|e| malformed(format!("the packed contents are not a table: {e}")))?;
    let len = header.file_len().expect("checked by decode");
    // Check the unpacked bytes before they take the destination's name.
    let staged = stage_with(dst, |f| {
        f.write_all(&head)?;
        let copied = std::io::copy(&mut (&mut decoder).take(len - HEADER_LEN as u64), f)?;
        let mut extra = [0u8; 1];
        let more = decoder.read(&mut extra)?;
        if more > 0 {
            return Err(std::io::Error::other(format!(
                "it expands past the {len} bytes its header promises"
            )));
        }
        if copied + (HEADER_LEN as u64) < len {
            return Err(std::io::Error::other(format!(
                "it expands to {} bytes, its header promises {len}",
                copied + HEADER_LEN as u64
            )));
        }
        Ok(())
    })
    .map_err(|e| match e {
        // What the contents did wrong (a bad frame, the wrong length), not the disk.
        TableError::Io { source, .. } if source.kind() == std::io::ErrorKind::Other => malformed(
            format!("the packed contents are not a sound table: {source}"),
        ),
        e => e,
    })?;
    let checked = Table::open(&staged).and_then(|t| t.verify());
    if let Err(e) = checked {
        // The fault is told of the packed file, not of the temporary file it was
        // unpacked into (which is removed).
        let fault = e.named(src);
        return Err(malformed(format!(
            "the packed contents are not a sound table: {fault}"
        )));
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
        assert!(matches!(&err, TableError::NoFolder { path, .. } if *path == missing));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    }

    #[test]
    fn a_damaged_packed_table_is_told_of_the_packed_file_not_a_temporary_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        let records: Vec<u32> = (0..50_000).collect();
        let desc = Descriptor {
            kind: "test",
            layout: "u32",
            variant: "",
        };
        write(&path, desc, &records).unwrap();
        // A payload byte flipped, then packed as is (pack itself refuses a damaged table).
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 100] ^= 1;
        let packed = dir.path().join("t.tbl.zst");
        std::fs::write(&packed, zstd::encode_all(&bytes[..], 3).unwrap()).unwrap();
        let err = unpack(&packed, &dir.path().join("back.tbl")).unwrap_err();
        let m = err.to_string();
        assert!(m.contains("is corrupt"), "{m}");
        assert!(!m.contains(".back.tbl"), "{m}");
        assert!(m.contains("t.tbl.zst"), "{m}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
