//! Writing tables: staging each in a temporary file beside its target, publishing one
//! table or a set of them all or nothing, checking a folder before long work, and
//! removing the temporary files of writers that were killed.
//!
//! Temporary files are named `.{target name}.{writer's PID}.{random}.tmp`, so a later
//! writer can tell whose they are (`docs/table-format.md`, "Publishing").

use super::header::{descriptor_fits, Header, BLOCK_SIZE, HEADER_LEN, SUM_LEN, VERSION};
use super::{io_error, Descriptor, TableError};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use tempfile::TempPath;

/// A temporary file older than this is removed even if its writer's PID is alive (the
/// PID may have been reused); no table takes this long to write.
const STALE_AFTER: Duration = Duration::from_secs(60 * 60);

/// The length of a table file of `record_count` records of `record_size` bytes, as this
/// build writes it (for [`prepare`]).
pub fn file_len(record_size: u32, record_count: u64) -> u64 {
    let payload = u64::from(record_size) * record_count;
    HEADER_LEN as u64 + payload + payload.div_ceil(u64::from(BLOCK_SIZE)) * SUM_LEN as u64
}

/// A table written in full to a temporary file beside its target and synced, waiting for
/// [`publish`]. Dropping it removes the temporary file.
pub struct Staged {
    target: PathBuf,
    temp: TempPath,
    header: Header,
}

impl Staged {
    /// The header the table will have.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Where the table will be published.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

/// Writes `records` as a table at `path`, atomically: staged in a temporary file in the
/// same folder, synced, then renamed over `path`. Returns the header written.
pub fn write<T: bytemuck::Pod>(
    path: &Path,
    descriptor: Descriptor<'_>,
    records: &[T],
) -> Result<Header, TableError> {
    let staged = stage(path, descriptor, records)?;
    Ok(publish(vec![staged])?.remove(0))
}

/// The first [`SUM_LEN`] bytes of the SHA-256 of each block of `payload`, block by block,
/// computed in parallel.
fn block_sums(payload: &[u8]) -> Vec<u8> {
    let block = BLOCK_SIZE as usize;
    crate::par::map_chunks(payload.len(), block, |r| {
        <[u8; SUM_LEN]>::try_from(&Sha256::digest(&payload[r])[..SUM_LEN]).expect("SUM_LEN bytes")
    })
    .concat()
}

/// Writes `records` as a table to a temporary file beside `path` and syncs it; nothing
/// is at `path` until [`publish`].
pub fn stage<T: bytemuck::Pod>(
    path: &Path,
    descriptor: Descriptor<'_>,
    records: &[T],
) -> Result<Staged, TableError> {
    assert!(
        descriptor_fits(descriptor.kind, descriptor.layout, descriptor.variant),
        "descriptor {descriptor:?} does not fit a table header"
    );
    let record_size = std::mem::size_of::<T>() as u32;
    stage_bytes(
        path,
        descriptor,
        bytemuck::cast_slice(records),
        record_size,
        records.len() as u64,
    )
}

/// [`stage`] of the records' bytes: not generic, so compiled once for every record type.
fn stage_bytes(
    path: &Path,
    descriptor: Descriptor<'_>,
    payload: &[u8],
    record_size: u32,
    record_count: u64,
) -> Result<Staged, TableError> {
    let sums = block_sums(payload);
    let header = Header {
        version: VERSION,
        kind: descriptor.kind.to_string(),
        layout: descriptor.layout.to_string(),
        variant: descriptor.variant.to_string(),
        record_size,
        record_count,
        checksum: Sha256::digest(payload).into(),
        block_size: BLOCK_SIZE,
        sums_digest: Sha256::digest(&sums)[..SUM_LEN]
            .try_into()
            .expect("SUM_LEN bytes"),
    };
    let temp = stage_with(path, |file| {
        file.write_all(&header.encode())?;
        file.write_all(payload)?;
        file.write_all(&sums)
    })?;
    Ok(Staged {
        target: path.to_path_buf(),
        temp,
        header,
    })
}

/// A table staged as its records come, for one too large to hold ([`stage`] takes them
/// all at once): [`Stream::push`] the records in order, then [`Stream::finish`] writes
/// the block sums and the header and gives the [`Staged`] table for [`publish`]. The
/// payload is written as it comes, its sums taken on the way; dropped unfinished, the
/// temporary file is removed.
pub struct Stream<T: bytemuck::Pod> {
    target: PathBuf,
    temp: tempfile::NamedTempFile,
    out: std::io::BufWriter<File>,
    descriptor: (String, String, String),
    record_count: u64,
    count: u64,
    sums: Sums,
    records: std::marker::PhantomData<T>,
}

/// A descriptor's texts, kept until the header is written.
fn owned(d: Descriptor<'_>) -> (String, String, String) {
    (
        d.kind.to_string(),
        d.layout.to_string(),
        d.variant.to_string(),
    )
}

/// The checksum and block sums of a payload taken as it comes, in pieces of any size.
#[derive(Clone)]
struct Sums {
    whole: Sha256,
    sums: Vec<u8>,
    pending: Vec<u8>,
}

impl Sums {
    fn new() -> Sums {
        Sums {
            whole: Sha256::new(),
            sums: Vec::new(),
            pending: Vec::with_capacity(BLOCK_SIZE as usize),
        }
    }

    fn take(&mut self, mut bytes: &[u8]) {
        let block = BLOCK_SIZE as usize;
        self.whole.update(bytes);
        if !self.pending.is_empty() {
            let take = (block - self.pending.len()).min(bytes.len());
            self.pending.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.pending.len() == block {
                self.sums
                    .extend_from_slice(&Sha256::digest(&self.pending)[..SUM_LEN]);
                self.pending.clear();
            }
        }
        let full = bytes.len() / block * block;
        self.sums.extend_from_slice(&block_sums(&bytes[..full]));
        self.pending.extend_from_slice(&bytes[full..]);
    }

    /// The header of a payload of `record_count` records of `record_size` bytes, and the
    /// block sums that follow the payload.
    fn finish(
        mut self,
        (kind, layout, variant): (String, String, String),
        record_size: u32,
        record_count: u64,
    ) -> (Header, Vec<u8>) {
        if !self.pending.is_empty() {
            self.sums
                .extend_from_slice(&Sha256::digest(&self.pending)[..SUM_LEN]);
        }
        let header = Header {
            version: VERSION,
            kind,
            layout,
            variant,
            record_size,
            record_count,
            checksum: self.whole.finalize().into(),
            block_size: BLOCK_SIZE,
            sums_digest: Sha256::digest(&self.sums)[..SUM_LEN]
                .try_into()
                .expect("SUM_LEN bytes"),
        };
        (header, self.sums)
    }
}

impl<T: bytemuck::Pod> Stream<T> {
    /// A temporary file beside `path` for a table of `record_count` records.
    pub fn new(
        path: &Path,
        descriptor: Descriptor<'_>,
        record_count: u64,
    ) -> Result<Stream<T>, TableError> {
        assert!(
            descriptor_fits(descriptor.kind, descriptor.layout, descriptor.variant),
            "descriptor {descriptor:?} does not fit a table header"
        );
        let temp = temporary_for(path)?;
        let file = temp.reopen().map_err(io_error(path))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
        out.write_all(&[0u8; HEADER_LEN]).map_err(io_error(path))?;
        Ok(Stream {
            target: path.to_path_buf(),
            temp,
            out,
            descriptor: owned(descriptor),
            record_count,
            count: 0,
            sums: Sums::new(),
            records: std::marker::PhantomData,
        })
    }

    /// Writes the next records.
    pub fn push(&mut self, records: &[T]) -> Result<(), TableError> {
        assert!(
            self.count + records.len() as u64 <= self.record_count,
            "{} records pushed after {} of {}",
            records.len(),
            self.count,
            self.record_count
        );
        self.count += records.len() as u64;
        let bytes: &[u8] = bytemuck::cast_slice(records);
        self.out.write_all(bytes).map_err(io_error(&self.target))?;
        self.sums.take(bytes);
        Ok(())
    }

    /// Writes the block sums and the header, and syncs the file: the table is staged.
    pub fn finish(mut self) -> Result<Staged, TableError> {
        use std::io::{Seek, SeekFrom};
        assert_eq!(self.count, self.record_count, "records missing");
        let fail = io_error(&self.target);
        let (header, sums) = self.sums.finish(
            self.descriptor,
            std::mem::size_of::<T>() as u32,
            self.record_count,
        );
        let result = (|| {
            self.out.write_all(&sums)?;
            self.out.flush()?;
            let file = self.out.get_mut();
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&header.encode())?;
            file.sync_all()
        })();
        result.map_err(fail)?;
        Ok(Staged {
            target: self.target,
            temp: self.temp.into_temp_path(),
            header,
        })
    }
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "table".into())
}

/// The start of this process's temporary names for a target named `target_name`.
fn temp_prefix(target_name: &str) -> String {
    format!(".{target_name}.{}.", std::process::id())
}

/// The builder of temporary files named from `prefix` ([`temp_prefix`]). `umask` applies
/// to the mode asked for, so a published file has the mode any new file would have.
fn temp_builder(prefix: &str) -> tempfile::Builder<'_, 'static> {
    let mut b = tempfile::Builder::new();
    b.prefix(prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b
}

/// Refuses an output `path` that exists and is not a regular file (a folder, a device
/// such as `/dev/null`, a named pipe, a socket): the writers rename a new file over their
/// target, which would replace such a thing with a regular file.
pub(crate) fn check_output(path: &Path) -> Result<(), TableError> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(TableError::NotAFile {
            path: path.to_path_buf(),
            what: super::read::file_kind(&m.file_type()),
        }),
        _ => Ok(()),
    }
}

/// Refuses to write `output` when it is the file `input` (the same file, whatever the
/// names): a command never replaces its own input.
pub fn refuse_same(output: &Path, input: &Path) -> Result<(), TableError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(output), std::fs::metadata(input)) {
            if (a.dev(), a.ino()) == (b.dev(), b.ino()) {
                return Err(TableError::SameFile {
                    path: output.to_path_buf(),
                });
            }
        }
    }
    #[cfg(not(unix))]
    {
        if let (Ok(a), Ok(b)) = (output.canonicalize(), input.canonicalize()) {
            if a == b {
                return Err(TableError::SameFile {
                    path: output.to_path_buf(),
                });
            }
        }
    }
    Ok(())
}

/// A new temporary file beside `path`, named for it (see the module's documentation),
/// after checking the target: its folder exists, it is not something other than a
/// regular file, and stale temporaries of killed writers are cleared.
fn temporary_for(path: &Path) -> Result<tempfile::NamedTempFile, TableError> {
    let dir = folder_of(path);
    if !dir.is_dir() {
        return Err(TableError::NoFolder {
            target: path.to_path_buf(),
            path: dir,
        });
    }
    check_output(path)?;
    clean_stale_temporaries(path)?;
    let prefix = temp_prefix(&file_name(path));
    temp_builder(&prefix)
        .tempfile_in(&dir)
        .map_err(|source| TableError::Io {
            path: path.to_path_buf(),
            source,
        })
}

/// Creates a temporary file beside `path` that `fill` writes, synced; removed if
/// anything fails. The folder must exist.
pub(crate) fn stage_with(
    path: &Path,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<TempPath, TableError> {
    let fail = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = temporary_for(path)?;
    fill(tmp.as_file_mut()).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    Ok(tmp.into_temp_path())
}

/// Renames a finished temporary file over `path` and makes the rename durable.
fn persist(tmp: TempPath, path: &Path) -> Result<(), TableError> {
    tmp.persist(path).map_err(|e| TableError::Io {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    if let Ok(dir) = File::open(folder_of(path)) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// The one way out for a file of any format (gnubg's databases, plots, trees, packed
/// tables): `fill` writes it, buffered, into a temporary file beside `path`, which is
/// synced and renamed over `path` only if `fill` succeeds; on any failure the temporary
/// file is removed and `path` is left as it was. The folder must exist; a `path` that is a
/// folder or another kind of file than a regular one is refused.
pub fn write_file<E: From<TableError>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    let mut tmp = temporary_for(path)?;
    let fail = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    {
        let mut out = std::io::BufWriter::new(tmp.as_file_mut());
        fill(&mut out)?;
        out.flush().map_err(fail)?;
    }
    tmp.as_file().sync_all().map_err(fail)?;
    Ok(persist(tmp.into_temp_path(), path)?)
}

/// Renames every staged table into place, all or nothing: if any rename fails, the
/// targets already renamed get back their old files (or are removed if they had none)
/// and no temporary file is left. Returns the headers, in order.
///
/// Readers that open the targets during the renames may see some new and some old;
/// tables that belong together name each other (e.g. by checksum) so such a reader
/// refuses the mix instead of mixing answers.
pub fn publish(staged: Vec<Staged>) -> Result<Vec<Header>, TableError> {
    // Keep each existing target under a temporary name (a second link to the same file)
    // until every rename has succeeded.
    let mut backups: Vec<Option<TempPath>> = Vec::with_capacity(staged.len());
    for s in &staged {
        backups.push(keep_old(&s.target)?);
    }
    let mut done: Vec<usize> = Vec::new();
    let mut headers = Vec::with_capacity(staged.len());
    let mut failure = None;
    for (k, s) in staged.into_iter().enumerate() {
        let target = s.target.clone();
        match s.temp.persist(&target) {
            Ok(()) => {
                done.push(k);
                headers.push((target, s.header));
            }
            Err(e) => {
                failure = Some(TableError::Io {
                    path: target,
                    source: e.error,
                });
                break; // the remaining temporaries are removed as they drop
            }
        }
    }
    if let Some(error) = failure {
        for &k in done.iter().rev() {
            let target = &headers[k].0;
            match backups[k].take() {
                Some(old) => {
                    let _ = old.persist(target);
                }
                None => {
                    let _ = std::fs::remove_file(target);
                }
            }
        }
        return Err(error);
    }
    // Make the renames durable before the old files' last names go.
    for (target, _) in &headers {
        if let Ok(dir) = File::open(folder_of(target)) {
            let _ = dir.sync_all();
        }
    }
    drop(backups);
    Ok(headers.into_iter().map(|(_, h)| h).collect())
}

/// A second name for the file at `target`, if there is one, removed when dropped.
fn keep_old(target: &Path) -> Result<Option<TempPath>, TableError> {
    match std::fs::symlink_metadata(target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(target)(e)),
        // Nothing to keep: the rename over it fails, and the set is rolled back.
        Ok(m) if m.is_dir() => return Ok(None),
        Ok(_) => {}
    }
    let prefix = temp_prefix(&file_name(target));
    let link = temp_builder(&prefix)
        .make_in(folder_of(target), |p| {
            std::fs::hard_link(target, p).or_else(|_| std::fs::copy(target, p).map(|_| ()))
        })
        .map_err(io_error(target))?;
    Ok(Some(link.into_temp_path()))
}

/// Gets the folders of `targets` ready for a long piece of work that ends by writing
/// them, so that it fails in milliseconds rather than after the work: creates the
/// folders, removes stale temporary files, refuses a target that is a folder, and checks
/// that `bytes` (the tables' total size) can be written there by reserving that much in
/// a probe file and removing it.
pub fn prepare(targets: &[&Path], bytes: u64) -> Result<(), TableError> {
    for target in targets {
        let dir = folder_of(target);
        let unwritable = |source| TableError::Unwritable {
            path: dir.clone(),
            bytes,
            source,
        };
        std::fs::create_dir_all(&dir).map_err(unwritable)?;
        check_output(target)?;
        clean_stale_temporaries(target)?;
        let prefix = temp_prefix(&file_name(target));
        let probe = temp_builder(&prefix)
            .tempfile_in(&dir)
            .map_err(unwritable)?;
        reserve(probe.as_file(), bytes).map_err(unwritable)?;
    }
    Ok(())
}

/// Reserves `bytes` of disk for `file`, where the file system can say so up front.
fn reserve(file: &File, bytes: u64) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        let len = libc::off_t::try_from(bytes).unwrap_or(libc::off_t::MAX);
        // SAFETY: a plain system call on a descriptor we own.
        let r = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) };
        match r {
            0 | libc::EOPNOTSUPP | libc::EINVAL => Ok(()),
            e => Err(std::io::Error::from_raw_os_error(e)),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (file, bytes);
        Ok(())
    }
}

/// Removes, from `target`'s folder, the temporary files that writers of `target` left
/// when they were killed: those whose writer's PID no longer runs, and any older than an
/// hour (including the PID-less names of format version 1). Returns what it removed.
pub fn clean_stale_temporaries(target: &Path) -> Result<Vec<PathBuf>, TableError> {
    let dir = folder_of(target);
    let name = file_name(target);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(&dir)(e)),
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(writer) = temporary_of(&file.to_string_lossy(), &name) else {
            continue;
        };
        let old = entry
            .metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age > STALE_AFTER);
        let dead = writer.is_some_and(|pid| !process_runs(pid));
        if old || dead {
            let path = entry.path();
            if std::fs::remove_file(&path).is_ok() {
                removed.push(path);
            }
        }
    }
    Ok(removed)
}

/// If `file` is a temporary name for `target` — `.{target}.{pid}.{random}.tmp`, or the
/// version-1 `.{target}.{random}.tmp` — the writer's PID (`None` for the old names).
fn temporary_of(file: &str, target: &str) -> Option<Option<u32>> {
    let middle = file
        .strip_prefix('.')?
        .strip_prefix(target)?
        .strip_prefix('.')?
        .strip_suffix(".tmp")?;
    let alnum = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric());
    match middle.split_once('.') {
        Some((pid, random)) if alnum(random) => pid.parse().ok().map(Some),
        None if alnum(middle) => Some(None),
        _ => None,
    }
}

/// Whether a process with this PID runs (on this machine's PID namespace).
fn process_runs(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if pid <= 0 {
            return false;
        }
        // SAFETY: signal 0 only asks whether the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// A table written in pieces over a long build that may be killed and run again: its
/// payload grows in a file the build owns (not a temporary of this process), each piece
/// synced before the build records it as done ([`Growing::sync`]); a new run keeps the
/// pieces it trusts ([`Growing::open`]'s `keep`) and goes on. [`Growing::finish`] adds
/// the block sums and the header and gives the [`Staged`] table for [`publish`]; until
/// then the file's header is zero, so nothing reads it as a table.
pub struct Growing {
    target: PathBuf,
    path: PathBuf,
    file: File,
    descriptor: (String, String, String),
    record_size: u32,
    record_count: u64,
    written: u64,
    sums: Sums,
}

impl Growing {
    /// The growing table at `partial` for `target`, of `record_count` records of
    /// `record_size` bytes, made if missing. `pieces` are the lengths and SHA-256s of the
    /// payload's first pieces as a checkpoint recorded them: the file keeps the first run
    /// of them whose bytes agree (read once, which also takes the table's sums), the rest
    /// is cut off. Returns the table and how many pieces it kept.
    pub fn open(
        target: &Path,
        partial: &Path,
        descriptor: Descriptor<'_>,
        record_size: u32,
        record_count: u64,
        pieces: &[(u64, [u8; 32])],
    ) -> Result<(Growing, usize), TableError> {
        use std::os::unix::fs::FileExt;
        assert!(
            descriptor_fits(descriptor.kind, descriptor.layout, descriptor.variant),
            "descriptor {descriptor:?} does not fit a table header"
        );
        check_output(target)?;
        let io = io_error(partial);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(partial)
            .map_err(io)?;
        let have = file.metadata().map_err(io_error(partial))?.len();
        let mut g = Growing {
            target: target.to_path_buf(),
            path: partial.to_path_buf(),
            file,
            descriptor: owned(descriptor),
            record_size,
            record_count,
            written: 0,
            sums: Sums::new(),
        };
        let mut buf = vec![0u8; 1 << 24];
        let mut kept = 0;
        for &(len, want) in pieces {
            let end = g.written + len;
            if HEADER_LEN as u64 + end > have {
                break;
            }
            let before = g.sums.clone();
            let mut piece = Sha256::new();
            let mut at = g.written;
            while at < end {
                let n = buf.len().min((end - at) as usize);
                g.file
                    .read_exact_at(&mut buf[..n], HEADER_LEN as u64 + at)
                    .map_err(io_error(partial))?;
                piece.update(&buf[..n]);
                g.sums.take(&buf[..n]);
                at += n as u64;
            }
            if piece.finalize()[..] != want[..] {
                g.sums = before;
                break;
            }
            g.written = end;
            kept += 1;
        }
        g.file
            .set_len(HEADER_LEN as u64 + g.written)
            .map_err(io_error(partial))?;
        // The header stays zero until the table is whole.
        g.file
            .write_all_at(&[0u8; HEADER_LEN], 0)
            .map_err(io_error(partial))?;
        Ok((g, kept))
    }

    /// Bytes of payload written.
    pub fn len(&self) -> u64 {
        self.written
    }

    /// Whether no payload is written yet.
    pub fn is_empty(&self) -> bool {
        self.written == 0
    }

    /// Appends payload bytes.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), TableError> {
        use std::os::unix::fs::FileExt;
        let end = self.written + bytes.len() as u64;
        assert!(
            end <= u64::from(self.record_size) * self.record_count,
            "payload past its records"
        );
        self.file
            .write_all_at(bytes, HEADER_LEN as u64 + self.written)
            .map_err(io_error(&self.path))?;
        self.sums.take(bytes);
        self.written = end;
        Ok(())
    }

    /// Reads payload bytes from `at` (written ones only).
    pub fn read_at(&self, at: u64, out: &mut [u8]) -> Result<(), TableError> {
        use std::os::unix::fs::FileExt;
        assert!(
            at + out.len() as u64 <= self.written,
            "read past the payload"
        );
        self.file
            .read_exact_at(out, HEADER_LEN as u64 + at)
            .map_err(io_error(&self.path))
    }

    /// Makes what is written durable: a checkpoint may then name it.
    pub fn sync(&self) -> Result<(), TableError> {
        self.file.sync_data().map_err(io_error(&self.path))
    }

    /// Writes the block sums and the header once every record is there, and syncs: the
    /// table is staged (publishing renames the growing file over the target).
    pub fn finish(self) -> Result<Staged, TableError> {
        use std::os::unix::fs::FileExt;
        let payload = u64::from(self.record_size) * self.record_count;
        assert_eq!(self.written, payload, "records missing");
        let (header, sums) = self
            .sums
            .finish(self.descriptor, self.record_size, self.record_count);
        let fail = io_error(&self.path);
        let result = (|| {
            self.file.write_all_at(&sums, HEADER_LEN as u64 + payload)?;
            self.file.sync_data()?;
            self.file.write_all_at(&header.encode(), 0)?;
            self.file.sync_all()
        })();
        result.map_err(fail)?;
        Ok(Staged {
            target: self.target,
            temp: TempPath::try_from_path(&self.path).map_err(io_error(&self.path))?,
            header,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_recognised_with_their_writers_pid() {
        assert_eq!(
            temporary_of(".n.tbl.4242.aB3xYz.tmp", "n.tbl"),
            Some(Some(4242))
        );
        assert_eq!(temporary_of(".n.tbl.aB3xYz.tmp", "n.tbl"), Some(None));
        assert_eq!(temporary_of(".n.tbl.4242.aB3xYz.tmp", "m.tbl"), None);
        assert_eq!(temporary_of("n.tbl.4242.aB3xYz.tmp", "n.tbl"), None);
        assert_eq!(temporary_of(".n.tbl.42x.a.b.tmp", "n.tbl"), None);
        assert_eq!(temporary_of(".n.tbl.4242.aB3xYz", "n.tbl"), None);
        assert_eq!(temporary_of(".n.tbl..tmp", "n.tbl"), None);
    }

    #[test]
    fn this_process_runs_and_a_reaped_child_does_not() {
        assert!(process_runs(std::process::id()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!process_runs(pid));
    }

    #[test]
    fn a_dead_writers_temporary_is_removed_and_a_live_ones_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("n.tbl");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let dead_tmp = dir.path().join(format!(".n.tbl.{dead}.abc123.tmp"));
        let live_tmp = dir
            .path()
            .join(format!(".n.tbl.{}.abc123.tmp", std::process::id()));
        let other = dir.path().join(format!(".m.tbl.{dead}.abc123.tmp"));
        for p in [&dead_tmp, &live_tmp, &other] {
            std::fs::write(p, b"partial").unwrap();
        }
        assert_eq!(clean_stale_temporaries(&target).unwrap(), vec![dead_tmp]);
        assert!(live_tmp.exists() && other.exists());
    }

    #[test]
    fn a_pair_whose_second_rename_fails_leaves_the_first_table_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let desc = Descriptor {
            kind: "test",
            layout: "u32",
            variant: "",
        };
        let first = dir.path().join("a.tbl");
        write(&first, desc, &[1u32, 2, 3]).unwrap();
        let before = std::fs::read(&first).unwrap();
        // The second target becomes, once staged, a folder with something in it: no
        // file can be renamed over it.
        let second = dir.path().join("b.tbl");
        let staged = vec![
            stage(&first, desc, &[7u32, 8, 9]).unwrap(),
            stage(&second, desc, &[4u32]).unwrap(),
        ];
        std::fs::create_dir(&second).unwrap();
        std::fs::write(second.join("x"), b"x").unwrap();
        // Renaming the first succeeds, the second fails.
        assert!(publish(staged).is_err());
        assert_eq!(std::fs::read(&first).unwrap(), before);
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["a.tbl", "b.tbl"]);
    }

    #[test]
    fn a_pair_whose_second_rename_fails_leaves_no_first_table_if_there_was_none() {
        let dir = tempfile::tempdir().unwrap();
        let desc = Descriptor {
            kind: "test",
            layout: "u32",
            variant: "",
        };
        let first = dir.path().join("a.tbl");
        let second = dir.path().join("b.tbl");
        let staged = vec![
            stage(&first, desc, &[7u32]).unwrap(),
            stage(&second, desc, &[4u32]).unwrap(),
        ];
        std::fs::create_dir(&second).unwrap();
        std::fs::write(second.join("x"), b"x").unwrap();
        assert!(publish(staged).is_err());
        assert!(!first.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_file_whose_filling_fails_leaves_its_target_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.bd");
        std::fs::write(&target, b"old").unwrap();
        let failed: Result<(), TableError> = write_file(&target, |out| {
            out.write_all(b"half").unwrap();
            Err(TableError::Malformed {
                path: target.clone(),
                message: "stopped".into(),
            })
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        write_file(&target, |out| -> Result<(), TableError> {
            out.write_all(b"new").map_err(io_error(&target))
        })
        .unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // Neither a folder nor a device is replaced.
        for path in [dir.path(), Path::new("/dev/null")] {
            let refused = write_file(path, |_| -> Result<(), TableError> { Ok(()) });
            assert!(
                matches!(refused, Err(TableError::NotAFile { .. })),
                "{path:?}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_published_table_has_the_mode_the_umask_allows() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        let desc = Descriptor {
            kind: "test",
            layout: "u32",
            variant: "",
        };
        write(&path, desc, &[1u32]).unwrap();
        // Read the umask without changing it (Linux 4.7+ shows it in /proc).
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let Some(umask) = status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .and_then(|m| u32::from_str_radix(m.trim(), 8).ok())
        else {
            return;
        };
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask);
    }

    #[test]
    fn a_staged_table_that_is_dropped_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let desc = Descriptor {
            kind: "test",
            layout: "u32",
            variant: "",
        };
        let staged = stage(&dir.path().join("t.tbl"), desc, &[1u32]).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        drop(staged);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn file_len_is_the_length_of_the_file_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tbl");
        let desc = Descriptor {
            kind: "test",
            layout: "u16x6",
            variant: "",
        };
        let records = vec![[3u16; 6]; 5000];
        write(&path, desc, &records).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), file_len(12, 5000));
    }
}
