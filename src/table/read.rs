//! Reading a table: refusing what is not a regular file, the cheap checks at open, and
//! the two readers (`docs/table-format.md`, "Two readers"): a memory map for short-lived
//! processes, positioned reads into a cache of verified blocks for long-lived ones.

use super::cache::{self, Cache, Key};
use super::header::{Header, HEADER_LEN, SUM_LEN};
use super::{hex, io_error, TableError};
use memmap2::Mmap;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// An open table whose header, size and block-sum table have passed the checks. Its
/// records are read from a read-only map of the file ([`Table::open`]) or by positioned
/// reads into a shared cache ([`Table::open_cached`]); either way each payload block is
/// checked against its stored sum before a record in it is returned.
pub struct Table {
    path: PathBuf,
    header: Header,
    /// Each block's stored sum, copied out of the file at open.
    sums: Box<[[u8; SUM_LEN]]>,
    /// The open file, and what it was when opened.
    file: File,
    opened: Stamp,
    body: Body,
}

enum Body {
    /// The file mapped; one bit a block, set once the block has matched its sum.
    Mapped {
        map: Mmap,
        checked: Box<[AtomicU64]>,
    },
    /// Read block by block; verified copies kept in `cache` under this table's number.
    Cached { cache: Cache, id: u64 },
}

/// What identifies a file and its contents' last change, as `fstat` gives them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Stamp {
    device: u64,
    inode: u64,
    len: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            device: meta.dev(),
            inode: meta.ino(),
            len: meta.len(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// How a table is read (`docs/table-format.md`, "Two readers"): every store opens its
/// files through one of these.
#[derive(Clone, Copy, Debug)]
pub enum Reader<'a> {
    /// A memory map ([`Table::open`]), for a short-lived process: a query, a build, a check.
    Map,
    /// Positioned reads into a cache of verified blocks ([`Table::open_cached`]), for a
    /// long-lived process: a server, a solver that reads as it goes.
    Cached(&'a Cache),
    /// As [`Reader::Cached`], every block read and checked at open ([`Table::preload`]):
    /// for a game, which then goes on whatever happens to its file later, when the table
    /// fits the cache.
    Preloaded(&'a Cache),
}

impl Reader<'_> {
    /// The reader of a long-lived process: [`Reader::Cached`] with the process's cache.
    pub fn long_lived() -> Reader<'static> {
        Reader::Cached(Cache::shared())
    }

    /// The reader of a game: [`Reader::Preloaded`] with the process's cache.
    pub fn session() -> Reader<'static> {
        Reader::Preloaded(Cache::shared())
    }

    /// Opens the table at `path` with this reader.
    pub fn open(self, path: &Path) -> Result<Table, TableError> {
        match self {
            Reader::Map => Table::open(path),
            Reader::Cached(cache) => Table::open_cached(path, cache),
            Reader::Preloaded(cache) => {
                let table = Table::open_cached(path, cache)?;
                table.preload()?;
                Ok(table)
            }
        }
    }
}

/// Maps `file`, a regular file opened through [`open_input`], read-only: the one memory
/// map of a file in tabula (tables, gnubg's databases). Only for short-lived processes
/// (`docs/table-format.md`, "Two readers").
///
/// # Safety
///
/// The map is sound only while no one changes the file in place. Reading a page that
/// another program truncated away raises `SIGBUS` and ends the process; a page rewritten
/// in place reads in either version. tabula itself never writes a file in place (its
/// writers rename a new file over the name), so the caller promises that the process is
/// short-lived — a fault can only end the one command that met it — and that every byte
/// it uses is checked (the block sums, or the caller's own checks) before it is trusted.
pub unsafe fn map(file: &File, path: &Path) -> Result<Mmap, TableError> {
    // SAFETY: the caller's promise above; the map is read-only.
    unsafe { Mmap::map(file) }.map_err(io_error(path))
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
    /// For short-lived processes only: a program that truncates the file in place while
    /// it is mapped makes reads past the new end fault ([`map`]). Long-lived readers use
    /// [`Table::open_cached`].
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let (file, len) = open_input(path)?;
        if len < HEADER_LEN as u64 {
            return Err(short_file(path, &file, len));
        }
        // SAFETY: a one-shot reader (see `map`); every payload byte is checked against
        // its block's sum before it is returned, the header and sums below.
        let map = unsafe { map(&file, path) }?;
        let header = Header::decode(path, &map)?;
        check_len(path, &header, map.len() as u64)?;
        let payload_end = HEADER_LEN + header.payload_len().expect("checked") as usize;
        let sums = sums(path, &header, &map[payload_end..])?;
        let checked = (0..sums.len().div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        let opened = stamp(path, &file)?;
        Ok(Table {
            path: path.to_path_buf(),
            header,
            sums,
            file,
            opened,
            body: Body::Mapped { map, checked },
        })
    }

    /// Opens `path` for a long-lived reader: the same checks at open as [`Table::open`],
    /// then no map. A record is read with a positioned read of the block it lies in,
    /// which is checked against its sum before it enters `cache` and before any of it is
    /// returned; later reads of that block are served from the verified copy. A file
    /// changed or truncated in place is then an error for the read that meets it (a
    /// block that no longer matches its sum, or is no longer there), never another
    /// number and never a signal; [`Table::changed`] tells a reader that the file was
    /// replaced or altered, so that it can open it again.
    pub fn open_cached(path: &Path, cache: &Cache) -> Result<Table, TableError> {
        let (file, len) = open_input(path)?;
        if len < HEADER_LEN as u64 {
            return Err(short_file(path, &file, len));
        }
        let mut head = [0u8; HEADER_LEN];
        read_at(path, &file, &mut head, 0, len)?;
        let header = Header::decode(path, &head)?;
        check_len(path, &header, len)?;
        let payload_end = HEADER_LEN as u64 + header.payload_len().expect("checked");
        let mut sum_bytes = vec![0u8; (len - payload_end) as usize];
        read_at(path, &file, &mut sum_bytes, payload_end, len)?;
        let sums = sums(path, &header, &sum_bytes)?;
        let opened = stamp(path, &file)?;
        if opened.len != len {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected: len,
                actual: opened.len,
            });
        }
        Ok(Table {
            path: path.to_path_buf(),
            header,
            sums,
            file,
            opened,
            body: Body::Cached {
                cache: cache.clone(),
                id: cache::next_table(),
            },
        })
    }

    /// Reads every block of a cached table into its cache, each checked against its sum
    /// (a corrupt block is the error), when the whole payload fits in half the cache's
    /// budget; afterwards the table answers from memory whatever happens to its file. A
    /// mapped table, or one too large, is left as it is.
    pub fn preload(&self) -> Result<(), TableError> {
        let Body::Cached { cache, id } = &self.body else {
            return Ok(());
        };
        if self.payload_len() > cache.budget() / 2 {
            return Ok(());
        }
        for b in 0..self.sums.len() as u64 {
            let key = Key {
                table: *id,
                block: b,
            };
            if cache.with(key, |_| ()).is_none() {
                let mut data = vec![0u8; self.block_range(b).len()].into_boxed_slice();
                self.read_block(b, &mut data)?;
                cache.insert(key, data);
            }
        }
        Ok(())
    }

    /// Opens `path` and checks that it is a table of `kind`.
    pub fn open_kind(path: &Path, kind: &str) -> Result<Table, TableError> {
        let table = Table::open(path)?;
        table.expect_kind(kind)?;
        Ok(table)
    }

    /// Whether the file is no longer the one opened: its name now leads to another file
    /// (a rebuild renamed over it, or it was removed), or the open file was written to or
    /// resized in place since. A long-lived reader that finds it so opens the path again;
    /// until then it reads on from the file it has, block by block checked.
    pub fn changed(&self) -> bool {
        let now = self.file.metadata().map(|m| Stamp::of(&m));
        let named = std::fs::metadata(&self.path).map(|m| Stamp::of(&m));
        match (now, named) {
            (Ok(now), Ok(named)) => {
                now != self.opened
                    || (named.device, named.inode) != (self.opened.device, self.opened.inode)
            }
            _ => true,
        }
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

    /// Fails unless the header names the record layout `layout` and its records are
    /// `size_of::<T>()` bytes each: the record type a reader decodes, as the file spells it.
    pub fn expect_records<T: bytemuck::Pod>(&self, layout: &str) -> Result<(), TableError> {
        self.expect_layout::<T>()?;
        if self.header.layout == layout {
            Ok(())
        } else {
            Err(TableError::Malformed {
                path: self.path.clone(),
                message: format!(
                    "its records are laid out as {}, expected {layout}",
                    crate::fault::excerpt(&self.header.layout)
                ),
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
        let size = std::mem::size_of::<T>();
        let start = i * size as u64;
        let mut record = T::zeroed();
        self.read_payload(start, bytemuck::bytes_of_mut(&mut record))?;
        Ok(record)
    }

    /// The payload as records of `T`, after checking every block: a view of the map, or
    /// for a cached table a copy read block by block (not kept in the cache).
    pub fn records<T: bytemuck::Pod>(&self) -> Result<Cow<'_, [T]>, TableError> {
        self.expect_layout::<T>()?;
        let malformed = |e: bytemuck::PodCastError| TableError::Malformed {
            path: self.path.clone(),
            message: format!("payload cannot be viewed as records: {e}"),
        };
        match &self.body {
            Body::Mapped { map, .. } => {
                self.check_blocks()?;
                let payload = &map[HEADER_LEN..HEADER_LEN + self.payload_len()];
                bytemuck::try_cast_slice(payload)
                    .map(Cow::Borrowed)
                    .map_err(malformed)
            }
            Body::Cached { .. } => {
                let mut out = vec![T::zeroed(); self.header.record_count as usize];
                let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut out);
                let block = self.header.block_size as usize;
                for (b, chunk) in bytes.chunks_mut(block).enumerate() {
                    self.read_block(b as u64, chunk)?;
                }
                Ok(Cow::Owned(out))
            }
        }
    }

    /// Checks the sum of every block not checked yet; the first bad block is the error.
    /// (A cached table reads each block once more, without keeping it.)
    pub fn check_blocks(&self) -> Result<(), TableError> {
        let mut buf = Vec::new();
        (0..self.sums.len() as u64).try_for_each(|b| match &self.body {
            Body::Mapped { .. } => self.check_mapped(b),
            Body::Cached { .. } => {
                buf.resize(self.block_range(b).len(), 0);
                self.read_block(b, &mut buf)
            }
        })
    }

    /// Checks the payload-wide SHA-256 against the header's, then every block's sum.
    pub fn verify(&self) -> Result<(), TableError> {
        let mut hasher = Sha256::new();
        match &self.body {
            Body::Mapped { map, .. } => {
                hasher.update(&map[HEADER_LEN..HEADER_LEN + self.payload_len()]);
            }
            Body::Cached { .. } => {
                let mut buf = vec![0u8; self.header.block_size as usize];
                for b in 0..self.sums.len() as u64 {
                    let n = self.block_range(b).len();
                    self.read_raw(b, &mut buf[..n])?;
                    hasher.update(&buf[..n]);
                }
            }
        }
        let actual: [u8; 32] = hasher.finalize().into();
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

    /// How many blocks have been checked so far and kept as checked: the map's bitmap,
    /// or the blocks of a cached table in its cache (for tests and diagnostics).
    pub fn blocks_checked(&self) -> u64 {
        match &self.body {
            Body::Mapped { checked, .. } => checked
                .iter()
                .map(|w| u64::from(w.load(Ordering::Acquire).count_ones()))
                .sum(),
            Body::Cached { cache, id } => (0..self.sums.len() as u64)
                .filter(|&block| cache.with(Key { table: *id, block }, |_| ()).is_some())
                .count() as u64,
        }
    }

    fn payload_len(&self) -> usize {
        self.header.payload_len().expect("checked") as usize
    }

    /// Payload bytes `b × block size ..` of block `b`.
    fn block_range(&self, b: u64) -> std::ops::Range<usize> {
        let size = self.header.block_size as usize;
        let start = b as usize * size;
        start..(start + size).min(self.payload_len())
    }

    /// Copies payload bytes `start .. start + out.len()` into `out`, each block they lie
    /// in checked first.
    fn read_payload(&self, start: u64, out: &mut [u8]) -> Result<(), TableError> {
        let size = u64::from(self.header.block_size);
        let end = start + out.len() as u64;
        for b in start / size..end.div_ceil(size) {
            let range = self.block_range(b);
            let from = (start.max(range.start as u64)) as usize;
            let to = (end.min(range.end as u64)) as usize;
            let dst = &mut out[from - start as usize..to - start as usize];
            match &self.body {
                Body::Mapped { map, .. } => {
                    self.check_mapped(b)?;
                    dst.copy_from_slice(&map[HEADER_LEN + from..HEADER_LEN + to]);
                }
                Body::Cached { cache, id } => {
                    let key = Key {
                        table: *id,
                        block: b,
                    };
                    let within = from - range.start..to - range.start;
                    let copy = |data: &[u8]| dst.copy_from_slice(&data[within.clone()]);
                    if cache.with(key, copy).is_none() {
                        let mut data = vec![0u8; range.len()].into_boxed_slice();
                        self.read_block(b, &mut data)?;
                        dst.copy_from_slice(&data[within.clone()]);
                        cache.insert(key, data);
                    }
                }
            }
        }
        Ok(())
    }

    /// Reads block `b` of a cached table into `out` (its length) and checks its sum.
    fn read_block(&self, b: u64, out: &mut [u8]) -> Result<(), TableError> {
        self.read_raw(b, out)?;
        self.check_sum(b, out)
    }

    /// Reads block `b` of a cached table into `out`, unchecked.
    fn read_raw(&self, b: u64, out: &mut [u8]) -> Result<(), TableError> {
        let at = HEADER_LEN as u64 + self.block_range(b).start as u64;
        let expected = self.header.file_len().expect("checked");
        read_at(&self.path, &self.file, out, at, expected)
    }

    fn check_sum(&self, b: u64, bytes: &[u8]) -> Result<(), TableError> {
        if Sha256::digest(bytes)[..SUM_LEN] == self.sums[b as usize] {
            return Ok(());
        }
        let range = self.block_range(b);
        Err(TableError::BlockCorrupt {
            path: self.path.clone(),
            block: b,
            start: range.start as u64,
            end: range.end as u64,
            hint: None,
        })
    }

    fn check_mapped(&self, b: u64) -> Result<(), TableError> {
        let Body::Mapped { map, checked } = &self.body else {
            unreachable!("a mapped table")
        };
        let (word, bit) = (&checked[(b / 64) as usize], 1u64 << (b % 64));
        if word.load(Ordering::Acquire) & bit != 0 {
            return Ok(());
        }
        let range = self.block_range(b);
        self.check_sum(b, &map[HEADER_LEN + range.start..HEADER_LEN + range.end])?;
        word.fetch_or(bit, Ordering::Release);
        Ok(())
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        if let Body::Cached { cache, id } = &self.body {
            cache.forget(*id);
        }
    }
}

/// Refuses a file whose length is not the header's promise.
fn check_len(path: &Path, header: &Header, actual: u64) -> Result<(), TableError> {
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
    Ok(())
}

/// The block sums, once their bytes match the header's digest of them.
fn sums(path: &Path, header: &Header, bytes: &[u8]) -> Result<Box<[[u8; SUM_LEN]]>, TableError> {
    if Sha256::digest(bytes)[..SUM_LEN] != header.sums_digest {
        return Err(TableError::SumsCorrupt {
            path: path.to_path_buf(),
            hint: None,
        });
    }
    Ok(bytes
        .chunks_exact(SUM_LEN)
        .map(|c| c.try_into().expect("SUM_LEN bytes"))
        .collect())
}

fn stamp(path: &Path, file: &File) -> Result<Stamp, TableError> {
    file.metadata()
        .map(|m| Stamp::of(&m))
        .map_err(io_error(path))
}

/// Fills `out` from byte `at` of `file` with positioned reads; a file that ends first is
/// truncated (`expected` is the length it should have).
fn read_at(
    path: &Path,
    file: &File,
    out: &mut [u8],
    at: u64,
    expected: u64,
) -> Result<(), TableError> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(out, at).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            TableError::Truncated {
                path: path.to_path_buf(),
                expected,
                actual: file.metadata().map(|m| m.len()).unwrap_or(0),
            }
        } else {
            io_error(path)(e)
        }
    })
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
    use super::super::{write, Cache, Descriptor, BLOCK_SIZE};
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
            let read = Table::open(&path).and_then(|t| t.records::<u32>().map(|r| r.to_vec()));
            proptest::prop_assert!(read.is_err());
        }

        #[test]
        fn a_table_cut_anywhere_is_refused(len in 0usize..400_456) {
            let dir = tempfile::tempdir().unwrap();
            let path = written(dir.path());
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..len]).unwrap();
            proptest::prop_assert!(Table::open(&path).is_err());
            proptest::prop_assert!(cached(&path).is_err());
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
            for open in [Table::open, cached] {
                let err = open(path).err().expect("refused");
                assert!(
                    matches!(&err, TableError::NotAFile { what: w, .. } if *w == what),
                    "{err}"
                );
            }
        }
    }

    fn cached(path: &Path) -> Result<Table, TableError> {
        Table::open_cached(path, &Cache::new(1 << 20))
    }

    /// Writes `bytes` over the file at `path` in place (the same inode), as another
    /// program might.
    fn write_in_place(path: &Path, at: u64, bytes: &[u8]) {
        use std::os::unix::fs::FileExt;
        let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        f.write_all_at(bytes, at).unwrap();
    }

    fn truncate_in_place(path: &Path, len: u64) {
        let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        f.set_len(len).unwrap();
    }

    #[test]
    fn a_cached_table_reads_the_same_records_as_a_mapped_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path());
        let cache = Cache::new(1 << 20);
        let table = Table::open_cached(&path, &cache).unwrap();
        assert_eq!(table.blocks_checked(), 0);
        for i in [0u64, 1, 4095, 4096, 50_000, 99_999] {
            assert_eq!(table.record::<u32>(i).unwrap(), squares()[i as usize]);
        }
        assert_eq!(table.blocks_checked(), 4);
        assert_eq!(&table.records::<u32>().unwrap()[..], &squares()[..]);
        table.verify().unwrap();
        assert!(!table.changed());
        // Closing the table gives its blocks back.
        drop(table);
        assert_eq!(cache.bytes(), 0);
    }

    #[test]
    fn a_cached_table_keeps_to_its_cache_budget() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path());
        // Room for one block a shard: 16 of the 25 blocks.
        let budget = 16 * 16_384;
        let cache = Cache::new(budget);
        let table = Table::open_cached(&path, &cache).unwrap();
        for i in (0..100_000u64).step_by(997) {
            assert_eq!(table.record::<u32>(i).unwrap(), squares()[i as usize]);
            assert!(cache.bytes() <= budget);
        }
        assert!(table.blocks_checked() < 25);
    }

    #[test]
    fn a_byte_changed_in_place_under_a_cached_table_is_an_error_never_another_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path());
        let table = cached(&path).unwrap();
        assert_eq!(table.record::<u32>(3).unwrap(), 9);
        // Block 0 is already verified in the cache; block 5 is not read yet.
        write_in_place(&path, HEADER_LEN as u64 + 12, &[0xFF]);
        write_in_place(&path, HEADER_LEN as u64 + 5 * 16_384 + 8, &[0xFF]);
        assert!(table.changed());
        // The verified copy answers as the table was opened, never the changed byte.
        assert_eq!(table.record::<u32>(3).unwrap(), 9);
        let err = table.record::<u32>(5 * 4096 + 2).unwrap_err();
        assert!(
            matches!(err, TableError::BlockCorrupt { block: 5, .. }),
            "{err}"
        );
        // Opened again, the table refuses both blocks.
        let again = cached(&path).unwrap();
        assert!(matches!(
            again.record::<u32>(3),
            Err(TableError::BlockCorrupt { block: 0, .. })
        ));
    }

    #[test]
    fn a_cached_table_truncated_under_it_is_an_error_never_a_signal() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path());
        let table = cached(&path).unwrap();
        assert_eq!(table.record::<u32>(10).unwrap(), 100);
        truncate_in_place(&path, 1000);
        assert!(table.changed());
        assert_eq!(table.record::<u32>(10).unwrap(), 100);
        let err = table.record::<u32>(99_999).unwrap_err();
        assert!(matches!(err, TableError::Truncated { .. }), "{err}");
        assert!(table.verify().is_err());
        assert!(matches!(cached(&path), Err(TableError::Truncated { .. })));
    }

    #[test]
    fn a_table_replaced_by_a_rename_is_seen_as_changed_and_opens_anew() {
        let dir = tempfile::tempdir().unwrap();
        let path = written(dir.path());
        let table = cached(&path).unwrap();
        assert!(!table.changed());
        let doubled: Vec<u32> = squares().iter().map(|x| x.wrapping_mul(2)).collect();
        write(&path, DESC, &doubled).unwrap();
        assert!(table.changed());
        // The old file is still whole: the open table reads on from it.
        assert_eq!(table.record::<u32>(7).unwrap(), 49);
        assert_eq!(cached(&path).unwrap().record::<u32>(7).unwrap(), 98);
        std::fs::remove_file(&path).unwrap();
        assert!(table.changed());
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
