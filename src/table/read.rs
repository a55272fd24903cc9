//! Reading a table: refusing what is not a regular file, mapping or loading it, the cheap
//! checks at open, and the block sums checked lazily as records are read.

use super::header::{Header, HEADER_LEN, SUM_LEN};
use super::{hex, io_error, TableError};
use memmap2::{Mmap, MmapMut};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// An open table whose header, size and block-sum table have passed the checks. Its
/// bytes are a read-only map of the file ([`Table::open`]) or a private copy of them
/// ([`Table::load`]); each payload block is checked against its sum the first time a
/// record in it is read.
pub struct Table {
    path: PathBuf,
    header: Header,
    bytes: Mmap,
    /// Each block's stored sum, copied out of the file at open.
    sums: Box<[[u8; SUM_LEN]]>,
    /// One bit per block: set once the block has matched its sum.
    checked: Box<[AtomicU64]>,
}

/// The one way in: opens `path` for reading if it is a regular file, and gives its
/// length. Every file the program reads (tables, gnubg's databases, packed tables) is
/// opened here. `O_NONBLOCK` keeps the open of a named pipe from waiting for a writer;
/// the kind is then read from the open file, so a file swapped in between cannot slip
/// through. Errors name `path`, the user's own path.
pub fn open_input(path: &Path) -> Result<(File, u64), TableError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io_error(path))?;
    let meta = file.metadata().map_err(io_error(path))?;
    let what = file_kind(&meta.file_type());
    if what != "a regular file" {
        return Err(TableError::NotAFile {
            path: path.to_path_buf(),
            what,
        });
    }
    Ok((file, meta.len()))
}

pub(crate) fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

impl Table {
    /// Opens `path` and maps it read-only, after checking that it is a regular file, its
    /// magic, version and header checksum, that its size is exactly the header's promise,
    /// and that its block-sum table matches the header. Payload blocks are checked as
    /// they are read; [`Table::verify`] checks them all and the payload checksum.
    ///
    /// A map reads the file itself: a program that truncates the file in place while it
    /// is mapped makes reads past the new end fault (`docs/table-format.md`, "The
    /// mapping contract"). Long-running readers use [`Table::load`].
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let (file, len) = open_input(path)?;
        if len < HEADER_LEN as u64 {
            return Err(short_file(path, &file, len));
        }
        // SAFETY: the map is read-only, of a regular file. tabula never writes a table in
        // place (writers rename a new file over the name), so the mapped inode does not
        // change; another program truncating it is outside the contract documented in
        // docs/table-format.md.
        let bytes = unsafe { Mmap::map(&file) }.map_err(io_error(path))?;
        Table::from_bytes(path, bytes)
    }

    /// Opens `path` like [`Table::open`] but reads the whole file into memory private to
    /// this process, so later changes to the file, even a truncation, cannot reach the
    /// reader. For sessions that keep a table open for long.
    pub fn load(path: &Path) -> Result<Table, TableError> {
        let (mut file, len) = open_input(path)?;
        if len < HEADER_LEN as u64 {
            return Err(short_file(path, &file, len));
        }
        let size = usize::try_from(len).map_err(|_| TableError::Malformed {
            path: path.to_path_buf(),
            message: "too large to load into memory".into(),
        })?;
        let mut copy = MmapMut::map_anon(size).map_err(io_error(path))?;
        file.read_exact(&mut copy).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                // Shrunk between the size check and the read.
                TableError::Truncated {
                    path: path.to_path_buf(),
                    expected: len,
                    actual: file.metadata().map(|m| m.len()).unwrap_or(0),
                }
            } else {
                io_error(path)(e)
            }
        })?;
        let bytes = copy.make_read_only().map_err(io_error(path))?;
        Table::from_bytes(path, bytes)
    }

    fn from_bytes(path: &Path, bytes: Mmap) -> Result<Table, TableError> {
        let header = Header::decode(path, &bytes)?;
        let actual = bytes.len() as u64;
        let expected = header.file_len().expect("checked by decode");
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
        let payload_end = HEADER_LEN + header.payload_len().expect("checked") as usize;
        let sum_bytes = &bytes[payload_end..];
        if Sha256::digest(sum_bytes)[..SUM_LEN] != header.sums_digest {
            return Err(TableError::SumsCorrupt {
                path: path.to_path_buf(),
                hint: None,
            });
        }
        let sums: Box<[[u8; SUM_LEN]]> = sum_bytes
            .chunks_exact(SUM_LEN)
            .map(|c| c.try_into().expect("SUM_LEN bytes"))
            .collect();
        let checked = (0..sums.len().div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        Ok(Table {
            path: path.to_path_buf(),
            header,
            bytes,
            sums,
            checked,
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

    /// Fails unless the table's records are `size_of::<T>()` bytes each.
    pub fn expect_layout<T: bytemuck::Pod>(&self) -> Result<(), TableError> {
        let size = std::mem::size_of::<T>();
        if size == self.header.record_size as usize {
            Ok(())
        } else {
            Err(TableError::Layout {
                path: self.path.clone(),
                layout: self.header.layout.clone(),
                expected: size,
                found: self.header.record_size,
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

    /// The payload bytes, unchecked: read records through [`Table::record`] or
    /// [`Table::records`], which check the block sums.
    pub fn payload(&self) -> &[u8] {
        let end = HEADER_LEN + self.header.payload_len().expect("checked") as usize;
        &self.bytes[HEADER_LEN..end]
    }

    /// Record `i`, after checking the sums of the blocks it lies in.
    pub fn record<T: bytemuck::Pod>(&self, i: u64) -> Result<T, TableError> {
        self.expect_layout::<T>()?;
        if i >= self.header.record_count {
            return Err(TableError::OutOfRange {
                path: self.path.clone(),
                index: i,
                count: self.header.record_count,
            });
        }
        let size = std::mem::size_of::<T>() as u64;
        let start = i * size;
        self.check_range(start, start + size)?;
        let at = start as usize;
        Ok(bytemuck::pod_read_unaligned(
            &self.payload()[at..at + size as usize],
        ))
    }

    /// The payload as records of `T`, without copying, after checking every block.
    pub fn records<T: bytemuck::Pod>(&self) -> Result<&[T], TableError> {
        self.expect_layout::<T>()?;
        self.check_blocks()?;
        bytemuck::try_cast_slice(self.payload()).map_err(|e| TableError::Malformed {
            path: self.path.clone(),
            message: format!("payload cannot be viewed as records: {e}"),
        })
    }

    /// Checks the sum of every block not checked yet; the first bad block is the error.
    pub fn check_blocks(&self) -> Result<(), TableError> {
        (0..self.sums.len() as u64).try_for_each(|b| self.check_block(b))
    }

    /// Checks the payload-wide SHA-256 against the header's, then every block's sum.
    pub fn verify(&self) -> Result<(), TableError> {
        let actual: [u8; 32] = Sha256::digest(self.payload()).into();
        if actual != self.header.checksum {
            return Err(TableError::Checksum {
                path: self.path.clone(),
                expected: self.header.checksum_hex(),
                actual: hex(&actual),
                hint: None,
            });
        }
        self.check_blocks()
    }

    /// Checks the blocks that payload bytes `start..end` lie in.
    fn check_range(&self, start: u64, end: u64) -> Result<(), TableError> {
        let block = u64::from(self.header.block_size);
        (start / block..end.div_ceil(block)).try_for_each(|b| self.check_block(b))
    }

    fn check_block(&self, b: u64) -> Result<(), TableError> {
        let (word, bit) = (&self.checked[(b / 64) as usize], 1u64 << (b % 64));
        if word.load(Ordering::Acquire) & bit != 0 {
            return Ok(());
        }
        let size = u64::from(self.header.block_size);
        let start = b * size;
        let end = (start + size).min(self.payload().len() as u64);
        let sum = Sha256::digest(&self.payload()[start as usize..end as usize]);
        if sum[..SUM_LEN] != self.sums[b as usize] {
            return Err(TableError::BlockCorrupt {
                path: self.path.clone(),
                block: b,
                start,
                end,
                hint: None,
            });
        }
        word.fetch_or(bit, Ordering::Release);
        Ok(())
    }

    /// How many blocks have been checked so far (for tests and diagnostics).
    pub fn blocks_checked(&self) -> u64 {
        self.checked
            .iter()
            .map(|w| u64::from(w.load(Ordering::Acquire).count_ones()))
            .sum()
    }
}

/// The error for a file shorter than a header: not a table, or a truncated one.
fn short_file(path: &Path, file: &File, len: u64) -> TableError {
    let mut head = Vec::with_capacity(len as usize);
    if let Err(e) = file.take(len).read_to_end(&mut head) {
        return io_error(path)(e);
    }
    match Header::decode(path, &head) {
        Err(e) => e,
        Ok(_) => TableError::Truncated {
            path: path.to_path_buf(),
            expected: HEADER_LEN as u64,
            actual: len,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::{write, Descriptor, BLOCK_SIZE};
    use super::*;

    const DESC: Descriptor<'static> = Descriptor {
        kind: "test-squares",
        layout: "u32",
        variant: "n=100000",
    };

    /// 400,000 bytes of payload: 25 blocks, the last one partial.
    fn squares() -> Vec<u32> {
        (0..100_000u32).map(|i| i.wrapping_mul(i)).collect()
    }

    fn written(dir: &Path) -> PathBuf {
        let path = dir.join("sq.tbl");
        write(&path, DESC, &squares()).unwrap();
        path
    }

    #[test]
    fn a_written_table_reads_back_the_same_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path());
        let table = Table::open_kind(&path, "test-squares").unwrap();
        assert_eq!(table.header().block_count(), Some(25));
        assert_eq!(table.records::<u32>().unwrap(), &squares()[..]);
        assert_eq!(table.record::<u32>(99_999).unwrap(), squares()[99_999]);
        table.verify().unwrap();
        assert!(matches!(
            table.records::<u16>(),
            Err(TableError::Layout { .. })
        ));
        assert!(matches!(
            table.record::<u32>(100_000),
            Err(TableError::OutOfRange { .. })
        ));
        assert!(matches!(
            table.expect_kind("other"),
            Err(TableError::WrongKind { .. })
        ));
        // No temporary file is left beside the table.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn reading_a_record_checks_only_the_blocks_it_lies_in() {
        let dir = tempfile::tempdir().unwrap();
        let table = Table::open(&written(dir.path())).unwrap();
        assert_eq!(table.blocks_checked(), 0);
        table.record::<u32>(7).unwrap();
        assert_eq!(table.blocks_checked(), 1);
        table.record::<u32>(8).unwrap();
        assert_eq!(table.blocks_checked(), 1);
        table.record::<u32>(u64::from(BLOCK_SIZE) / 4).unwrap();
        assert_eq!(table.blocks_checked(), 2);
        table.check_blocks().unwrap();
        assert_eq!(table.blocks_checked(), 25);
    }

    #[test]
    fn a_record_across_a_block_boundary_checks_both_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("six.tbl");
        let records: Vec<[u16; 6]> = (0..5000u16).map(|i| [i; 6]).collect();
        let desc = Descriptor {
            kind: "test",
            layout: "u16x6",
            variant: "",
        };
        write(&path, desc, &records).unwrap();
        // Record 1365 spans bytes 16380..16392: the end of block 0, the start of block 1.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + 16_390] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        let table = Table::open(&path).unwrap();
        assert_eq!(table.record::<[u16; 6]>(1364).unwrap(), [1364; 6]);
        assert!(matches!(
            table.record::<[u16; 6]>(1365),
            Err(TableError::BlockCorrupt { block: 1, .. })
        ));
    }

    #[test]
    fn a_flipped_payload_byte_anywhere_is_an_error_from_the_record_that_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path());
        let good = std::fs::read(&path).unwrap();
        for at in [0usize, 1, 123_457, 399_999] {
            let mut bytes = good.clone();
            bytes[HEADER_LEN + at] ^= 0x20;
            std::fs::write(&path, &bytes).unwrap();
            let table = Table::open(&path).unwrap();
            let record = (at / 4) as u64;
            let block = at as u64 / u64::from(BLOCK_SIZE);
            let err = table.record::<u32>(record).unwrap_err();
            assert!(
                matches!(err, TableError::BlockCorrupt { block: b, .. } if b == block),
                "{err}"
            );
            assert!(err.to_string().contains("is corrupt"));
            assert!(table.records::<u32>().is_err());
            assert!(table.verify().is_err());
            // Records in other blocks still read.
            let elsewhere = if block == 0 { 99_999 } else { 0 };
            assert_eq!(
                table.record::<u32>(elsewhere).unwrap(),
                squares()[elsewhere as usize]
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        #[test]
        fn a_table_with_any_byte_changed_is_refused_and_never_read_as_other_records(
            at in 0usize..400_456, mask in 1u8..=255,
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = written(dir.path());
            let mut bytes = std::fs::read(&path).unwrap();
            proptest::prop_assert_eq!(bytes.len(), 400_456);
            bytes[at] ^= mask;
            std::fs::write(&path, &bytes).unwrap();
            let read = Table::open(&path).and_then(|t| t.records::<u32>().map(<[u32]>::to_vec));
            proptest::prop_assert!(read.is_err());
        }

        #[test]
        fn a_table_cut_anywhere_is_refused(len in 0usize..400_456) {
            let dir = tempfile::tempdir().unwrap();
            let path = written(dir.path());
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..len]).unwrap();
            proptest::prop_assert!(Table::open(&path).is_err());
            proptest::prop_assert!(Table::load(&path).is_err());
        }
    }

    #[test]
    fn each_fault_is_its_own_error() {
        let dir = tempfile::tempdir().unwrap();
        let good = std::fs::read(written(dir.path())).unwrap();
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
        assert!(matches!(
            Table::open(&bad).unwrap().record::<u32>(4),
            Err(TableError::BlockCorrupt { block: 0, .. })
        ));
        let mut sums = good.clone();
        let last = sums.len() - 3;
        sums[last] ^= 1;
        assert!(matches!(
            try_bytes(&sums),
            Err(TableError::SumsCorrupt { .. })
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

    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.tbl");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo on a path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (path, what) in [
            (fifo.as_path(), "a named pipe"),
            (dir.path(), "a folder"),
            (Path::new("/dev/null"), "a character device"),
        ] {
            for open in [Table::open, Table::load] {
                let err = open(path).err().expect("refused");
                assert!(
                    matches!(&err, TableError::NotAFile { what: w, .. } if *w == what),
                    "{err}"
                );
            }
        }
    }

    #[test]
    fn a_loaded_table_reads_on_after_its_file_is_truncated() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path());
        let table = Table::load(&path).unwrap();
        // Truncate in place, as another program might. A mapped table would fault on
        // the pages past the new end; the loaded copy does not share them.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(0)
            .unwrap();
        assert_eq!(table.records::<u32>().unwrap(), &squares()[..]);
        table.verify().unwrap();
    }

    #[test]
    fn a_version_1_table_is_refused_as_an_old_format() {
        // The header of format version 1: magic, version 1, then fields this build does
        // not read, sealed with version 1's header checksum.
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(b"TABULA\x1a\n");
        h[8..12].copy_from_slice(&1u32.to_le_bytes());
        h[12..16].copy_from_slice(&4u32.to_le_bytes());
        h[16..24].copy_from_slice(&1u64.to_le_bytes());
        h[24..28].copy_from_slice(b"test");
        let sum = Sha256::digest(&h[..248]);
        h[248..].copy_from_slice(&sum[..8]);
        let mut bytes = h.to_vec();
        bytes.extend_from_slice(&7u32.to_le_bytes());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.tbl");
        std::fs::write(&path, bytes).unwrap();
        let err = Table::open(&path).err().expect("refused");
        assert!(
            matches!(
                err,
                TableError::Version {
                    found: 1,
                    supported: 2,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("rebuild it"));
    }
}
