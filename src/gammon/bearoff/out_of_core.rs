//! The two-sided solve out of core (`docs/bearoff.md`, "Out of core"): the same values as
//! [`super::two_sided::solve`], bit for bit, with the memory it holds bounded, the working
//! values kept in files that a build killed at any moment resumes from.
//!
//! Sides are grouped into *levels* by pip count. A play lowers the mover's pips, so the
//! value of a pair whose roller is at level `a` and opponent at level `b` — the *tile*
//! `(a, b)` — reads only tiles `(b, a')` with `a' < a`. *Layer* `y` is every tile whose
//! larger level is `y`: first its row tiles `(y, b)`, `b < y`, which read tiles of earlier
//! layers only (from disk); then the diagonal `(y, y)` and the column tiles `(a, y)`,
//! `a < y`, which read the row tiles just made (kept in memory, transposed). A layer is
//! written to its own file, atomically, with a checksum; the files present are the
//! checkpoint. At the end the table is written from the layer files in record order.
//!
//! The order of the arithmetic of each pair is the in-memory solver's, which depends only
//! on the pair (`pair_block`), so the records are the same bytes whatever the order in
//! which pairs are solved, the memory given or the thread count.

use super::sides::{weight, Sides, Successors};
use super::two_sided::{Compact, Values, BLOCK};
use crate::gammon::Error;
use crate::progress::Progress;
use crate::table::{self, Growing, TableError};
use rayon::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The working files' format: bumped whenever their bytes change meaning.
const FORMAT: u64 = 1;
/// The trailer that ends a layer file.
const MAGIC: &[u8; 8] = b"TBBOLAYR";
const TRAILER: usize = 48;

/// What an out-of-core build did.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    /// The memory it was allowed, in bytes.
    pub memory: u64,
    /// The most bytes of working values it held at once.
    pub peak_memory: u64,
    /// Layers (pip levels), and of them those found done in the working folder.
    pub layers: usize,
    /// Layers found done (a resumed build).
    pub resumed_layers: usize,
    /// Bytes of working values written, and read back (the disk traffic of the solve).
    pub bytes_written: u64,
    /// Bytes of working values read (the solve's reads and the table's assembly).
    pub bytes_read: u64,
    /// The working folder (removed once the table is published).
    pub work: PathBuf,
    /// What this rank exchanged with the others, in a build shared by several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exchange: Option<Exchange>,
}

/// The cost of sharing a build among ranks, as one rank saw it: the bytes of its
/// gathers to rank 0 and of the row tiles' transposes among the ranks, and the time it
/// spent in them and in the barriers around the layers (which includes waiting for
/// slower ranks).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Exchange {
    /// Ranks sharing the build.
    pub ranks: usize,
    /// Gathers to rank 0 (one a tile).
    pub gathers: u64,
    /// Row tiles transposed among the ranks (one all-to-all each).
    pub transposes: u64,
    /// Bytes this rank sent: its blocks to rank 0 (none on rank 0), and its pieces of
    /// the row tiles to the other ranks.
    pub bytes_sent: u64,
    /// Bytes this rank received: the other ranks' blocks (on rank 0), and their pieces
    /// of the row tiles' rows of its share.
    pub bytes_received: u64,
    /// The most bytes received in one layer.
    pub largest_layer_received: u64,
    /// Seconds in gathers.
    pub gather_seconds: f64,
    /// Seconds in the transposes.
    pub transpose_seconds: f64,
    /// Seconds in barriers.
    pub barrier_seconds: f64,
}

/// Processes sharing one build (MPI ranks, `super::mpi`). Each rank owns a contiguous
/// share of every level: in a row tile it solves every roller of the layer's level
/// against its share of the opponents' level, so that it reads only those opponents'
/// rows from the files (1/N of the reads); the ranks then transpose the tile among
/// themselves so that each holds the rows of its share of the layer's level (as
/// rollers) against every opponent, and solves the diagonal's and column tiles' columns
/// of that share (as opponents), which read only those rows: it holds 1/N of the
/// layer's transposed rows. The tiles are gathered to rank 0, which writes the files, in
/// a folder they share, and the table; the later layers' reads are from those files.
pub trait Split {
    /// This process's number, from 0.
    fn rank(&self) -> usize;
    /// How many share the build.
    fn size(&self) -> usize;
    /// Every rank's `mine` (rank `r`'s is `counts[r]` bytes), in rank order, into `out`
    /// on rank 0 (`out` is not touched on the others).
    fn gather(&self, mine: &[u8], counts: &[usize], out: &mut [u8]);
    /// Every rank's pieces for every rank: `send` holds this rank's pieces in rank order
    /// (`send_counts[r]` bytes for rank `r`); `recv` gets, in rank order, each rank's
    /// piece for this one (`recv_counts[r]` bytes from rank `r`).
    fn all_to_all(
        &self,
        send: &[u8],
        send_counts: &[usize],
        recv: &mut [u8],
        recv_counts: &[usize],
    );
    /// Waits for every rank.
    fn barrier(&self);
}

/// The part `lo..hi` of `m` sides that rank `rank` of `ranks` owns.
fn share(m: usize, rank: usize, ranks: usize) -> (usize, usize) {
    (rank * m / ranks, (rank + 1) * m / ranks)
}

/// The sides grouped by pip count, and where each tile lies in its layer file.
pub struct Plan {
    n: usize,
    /// Each side's level (its pips) and place in its level.
    level: Vec<u32>,
    pos: Vec<u32>,
    /// Each level's sides, ascending.
    levels: Vec<Vec<u32>>,
    /// `below[y]`: sides of levels below `y` (`levels.len() + 1` entries).
    below: Vec<usize>,
}

impl Plan {
    /// The plan of `sides`.
    pub fn new(sides: &Sides) -> Plan {
        let n = sides.len();
        let level: Vec<u32> = (0..n as u32)
            .map(|s| Sides::pips(&sides.counts(s)))
            .collect();
        let top = level.iter().copied().max().unwrap_or(0) as usize;
        let mut levels = vec![Vec::new(); top + 1];
        let mut pos = vec![0u32; n];
        for (s, &l) in level.iter().enumerate() {
            let l = l as usize;
            pos[s] = levels[l].len() as u32;
            levels[l].push(s as u32);
        }
        let mut below = vec![0usize; top + 2];
        for y in 0..=top {
            below[y + 1] = below[y] + levels[y].len();
        }
        Plan {
            n,
            level,
            pos,
            levels,
            below,
        }
    }

    /// Levels, which are the layers.
    pub fn layers(&self) -> usize {
        self.levels.len()
    }

    fn size(&self, y: usize) -> usize {
        self.levels[y].len()
    }

    /// Records (pairs) of layer `y`.
    fn layer_len(&self, y: usize) -> usize {
        self.size(y) * (self.below[y + 1] + self.below[y])
    }

    /// The layer of tile `(a, b)` and where it starts in it, in records. A layer file
    /// holds its row tiles `(y, 0)`, …, `(y, y)`, then its column tiles `(0, y)`, …,
    /// `(y − 1, y)`, each roller by roller.
    fn tile(&self, a: usize, b: usize) -> (usize, usize) {
        if a >= b {
            (a, self.size(a) * self.below[b])
        } else {
            (
                b,
                self.size(b) * self.below[b + 1] + self.below[a] * self.size(b),
            )
        }
    }

    /// The levels the plays of level `y`'s sides reach.
    fn reached(&self, succ: &Successors, y: usize) -> Vec<usize> {
        let mut seen = vec![false; self.layers()];
        for &i in &self.levels[y] {
            for r in 0..21 {
                for &s in succ.of(i as usize, r) {
                    seen[self.level[s as usize] as usize] = true;
                }
            }
        }
        (0..self.layers()).filter(|&l| seen[l]).collect()
    }
}

/// The position-keyed sum of a layer file's words: any change of a word or of its place
/// changes it; parts are summed in any order (so in parallel, and as they are written).
fn word_sum(bytes: &[u8], first_word: u64) -> u64 {
    const PART: usize = 1 << 16;
    bytes
        .par_chunks(PART)
        .enumerate()
        .map(|(c, part)| {
            let base = first_word + (c * PART / 8) as u64;
            part.chunks_exact(8).enumerate().fold(0u64, |acc, (k, w)| {
                let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
                let x = (w ^ (base + k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                    .wrapping_mul(0xBF58_476D_1CE4_E5B9);
                acc.wrapping_add(x ^ (x >> 31))
            })
        })
        .reduce(|| 0, u64::wrapping_add)
}

/// The identity of a build's working files: its database and the format.
fn build_id(line: &str) -> u64 {
    let mut bytes = line.as_bytes().to_vec();
    bytes.extend_from_slice(&FORMAT.to_le_bytes());
    bytes.resize(bytes.len().div_ceil(8) * 8, 0);
    word_sum(&bytes, 0)
}

/// Counts the bytes of working values held, to keep them under the cap and report the
/// peak.
#[derive(Default)]
struct Meter {
    now: AtomicU64,
    peak: AtomicU64,
    /// The exchange among ranks: gathers, bytes sent and received (in all, in this
    /// layer, the most in a layer), nanoseconds in gathers and in barriers.
    gathers: AtomicU64,
    transposes: AtomicU64,
    transpose_nanos: AtomicU64,
    sent: AtomicU64,
    received: AtomicU64,
    layer_received: AtomicU64,
    largest_layer: AtomicU64,
    gather_nanos: AtomicU64,
    barrier_nanos: AtomicU64,
}

impl Meter {
    /// Waits for every rank of `split`, timed.
    fn barrier(&self, split: Option<&dyn Split>) {
        if let Some(s) = split {
            let t = std::time::Instant::now();
            s.barrier();
            self.barrier_nanos
                .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        }
    }

    /// A layer is done: its bytes received count towards the largest.
    fn end_layer(&self) {
        let l = self.layer_received.swap(0, Ordering::Relaxed);
        self.largest_layer.fetch_max(l, Ordering::Relaxed);
    }

    fn exchange(&self, split: Option<&dyn Split>) -> Option<Exchange> {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        split.map(|s| Exchange {
            ranks: s.size(),
            gathers: load(&self.gathers),
            transposes: load(&self.transposes),
            bytes_sent: load(&self.sent),
            bytes_received: load(&self.received),
            largest_layer_received: load(&self.largest_layer),
            gather_seconds: load(&self.gather_nanos) as f64 * 1e-9,
            transpose_seconds: load(&self.transpose_nanos) as f64 * 1e-9,
            barrier_seconds: load(&self.barrier_nanos) as f64 * 1e-9,
        })
    }

    fn take(&self, bytes: usize) {
        let now = self.now.fetch_add(bytes as u64, Ordering::Relaxed) + bytes as u64;
        self.peak.fetch_max(now, Ordering::Relaxed);
    }
    fn give(&self, bytes: usize) {
        self.now.fetch_sub(bytes as u64, Ordering::Relaxed);
    }
}

/// A buffer of working values, counted by a [`Meter`] while it lives.
struct Held<'m, V> {
    data: Vec<V>,
    meter: &'m Meter,
}

impl<'m, V: Copy> Held<'m, V> {
    fn new(meter: &'m Meter, len: usize, fill: V) -> Self {
        meter.take(len * std::mem::size_of::<V>());
        Held {
            data: vec![fill; len],
            meter,
        }
    }
}

impl<V> Drop for Held<'_, V> {
    fn drop(&mut self) {
        self.meter.give(self.data.len() * std::mem::size_of::<V>());
    }
}

/// The working folder of a build: its layer files.
struct Work {
    dir: PathBuf,
    id: u64,
    record_size: usize,
    files: Vec<Option<File>>,
    read: AtomicU64,
    written: u64,
}

impl Work {
    fn layer_path(&self, y: usize) -> PathBuf {
        self.dir.join(format!("layer-{y:03}.bin"))
    }

    fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
        move |source| {
            TableError::Io {
                path: path.to_path_buf(),
                source,
            }
            .into()
        }
    }

    /// Opens layer `y`'s file if it is whole: its length, trailer and sum as written.
    fn check_layer(&self, plan: &Plan, y: usize) -> Result<Option<File>, Error> {
        let path = self.layer_path(y);
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Work::io(&path)(e)),
        };
        let records = plan.layer_len(y);
        let payload = records * self.record_size;
        let len = file.metadata().map_err(Work::io(&path))?.len();
        if len != (payload + TRAILER) as u64 {
            return Ok(None);
        }
        let mut trailer = [0u8; TRAILER];
        file.read_exact_at(&mut trailer, payload as u64)
            .map_err(Work::io(&path))?;
        let word = |k: usize| u64::from_le_bytes(trailer[8 * k..8 * k + 8].try_into().unwrap());
        if &trailer[..8] != MAGIC
            || word(1) != y as u64
            || word(2) != records as u64
            || word(3) != self.record_size as u64
            || word(4) != self.id
        {
            return Ok(None);
        }
        let mut sum = 0u64;
        let mut buf = vec![0u8; 1 << 24];
        let mut at = 0usize;
        while at < payload {
            let len = buf.len().min(payload - at);
            file.read_exact_at(&mut buf[..len], at as u64)
                .map_err(Work::io(&path))?;
            sum = sum.wrapping_add(word_sum(&buf[..len], (at / 8) as u64));
            at += len;
        }
        Ok((sum == word(5)).then_some(file))
    }
}

/// Where a build reads the finished layers' values.
trait Layers<V>: Sync {
    /// Reads `out.len()` values of layer `y` from value `at`.
    fn read(&self, y: usize, at: usize, out: &mut [V]) -> Result<(), Error>;
}

impl<V: bytemuck::Pod> Layers<V> for Work {
    fn read(&self, y: usize, at: usize, out: &mut [V]) -> Result<(), Error> {
        let file = self.files[y].as_ref().expect("a finished layer");
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(out);
        self.read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        file.read_exact_at(bytes, (at * self.record_size) as u64)
            .map_err(Work::io(&self.layer_path(y)))
    }
}

/// Where a build writes a layer's values as they come.
trait Sink<V> {
    fn put(&mut self, values: &[V]) -> Result<(), Error>;
}

/// Writes a layer file's values as they come, summing them.
struct LayerWriter<'a> {
    path: PathBuf,
    out: &'a mut dyn Write,
    words: u64,
    sum: u64,
}

impl<V: bytemuck::Pod> Sink<V> for LayerWriter<'_> {
    fn put(&mut self, values: &[V]) -> Result<(), Error> {
        let bytes: &[u8] = bytemuck::cast_slice(values);
        self.sum = self.sum.wrapping_add(word_sum(bytes, self.words));
        self.words += (bytes.len() / 8) as u64;
        self.out.write_all(bytes).map_err(Work::io(&self.path))
    }
}

/// The values of the pairs `I × J` (rollers `rollers`, opponents `opponents`, each
/// ascending and at one level, neither holding side 0): `out[i · |J| + j]`. `after(s)` is
/// the row, along `J`, of what moving to side `s` is worth to the mover.
///
/// Each pair's arithmetic is the in-memory solver's: its rolls in order, except that for
/// a pair `(i, j)` with `j` below the first layer of `i`'s block of [`BLOCK`] layers, the
/// rolls with a play into that block are added after the others (the in-memory solver
/// sweeps the rows below a block first and completes those rolls later).
fn pair_block<'w, V: Values>(
    succ: &Successors,
    rollers: &[u32],
    opponents: &[u32],
    after: &(dyn Fn(u32) -> &'w [V] + Sync),
    out: &mut [V],
) {
    let c = opponents.len();
    if c == 0 || rollers.is_empty() {
        // A rank whose share of a small level is empty.
        return;
    }
    out.par_chunks_mut(c)
        .zip(rollers.par_iter())
        .with_min_len(4)
        .for_each_init(
            || (vec![V::ZERO; c], vec![V::ZERO; c], Vec::<(usize, V)>::new()),
            |(acc, best, kept), (row, &i)| {
                let i = i as usize;
                let k0 = 1 + (i - 1) / BLOCK * BLOCK;
                let p = opponents.partition_point(|&j| (j as usize) < k0);
                acc.fill(V::ZERO);
                kept.clear();
                for r in 0..21 {
                    let list = succ.of(i, r);
                    best.copy_from_slice(after(list[0]));
                    for &s in &list[1..] {
                        V::merge_rows(best, after(s));
                    }
                    let w = weight(r);
                    if p > 0 && *list.last().expect("a play") as usize >= k0 {
                        V::add_rows(&mut acc[p..], &best[p..], w);
                        kept.extend(best[..p].iter().map(|&v| (r, v)));
                    } else {
                        V::add_rows(acc, best, w);
                    }
                }
                for part in kept.chunks(p.max(1)) {
                    let w = weight(part[0].0);
                    for (a, (_, v)) in acc[..p].iter_mut().zip(part) {
                        a.add(v, w);
                    }
                }
                for (o, a) in row.iter_mut().zip(acc.iter()) {
                    *o = a.scaled(1.0 / 36.0);
                }
            },
        );
}

/// Hands `out` a tile of `rows` rollers whose values each rank holds a block of: its
/// share of the rollers (`by_rows`: every opponent of each) or its share of the
/// opponents (each roller's columns of its share). Alone, `mine` is the tile. Shared, the
/// blocks are gathered to the lead, which puts the tile in roller-major order; the other
/// ranks put nothing.
fn emit<V: Values + bytemuck::Pod>(
    split: Option<&dyn Split>,
    meter: &Meter,
    out: &mut dyn Sink<V>,
    mine: &[V],
    (rows, cols): (usize, usize),
    by_rows: bool,
) -> Result<(), Error> {
    let Some(sp) = split else {
        return out.put(mine);
    };
    let k = sp.size();
    let size = std::mem::size_of::<V>();
    let parts: Vec<(usize, usize)> = (0..k)
        .map(|r| share(if by_rows { rows } else { cols }, r, k))
        .collect();
    let other = if by_rows { cols } else { rows };
    let counts: Vec<usize> = parts
        .iter()
        .map(|&(lo, hi)| (hi - lo) * other * size)
        .collect();
    let all: usize = counts.iter().sum();
    in_one_piece("gathered", (rows, cols), all)?;
    let lead = sp.rank() == 0;
    let mut gathered = Held::new(meter, if lead { rows * cols } else { 0 }, V::ZERO);
    let t = std::time::Instant::now();
    sp.gather(
        bytemuck::cast_slice(mine),
        &counts,
        bytemuck::cast_slice_mut(&mut gathered.data),
    );
    let mine_bytes = counts[sp.rank()] as u64;
    meter
        .gather_nanos
        .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
    meter.gathers.fetch_add(1, Ordering::Relaxed);
    if !lead {
        meter.sent.fetch_add(mine_bytes, Ordering::Relaxed);
        return Ok(());
    }
    let got = all as u64 - mine_bytes;
    meter.received.fetch_add(got, Ordering::Relaxed);
    meter.layer_received.fetch_add(got, Ordering::Relaxed);
    if by_rows {
        // The ranks' rows in rank order are the tile's.
        return out.put(&gathered.data);
    }
    out.put(&interleave(meter, &gathered.data, &parts, (rows, cols)).data)
}

/// Refuses an MPI collective over a tile of `rows` × `cols` pairs that moves more than
/// 2 GB at once (MPI's counts and displacements are `i32`).
fn in_one_piece(how: &str, (rows, cols): (usize, usize), bytes: usize) -> Result<(), Error> {
    if bytes > i32::MAX as usize {
        return Err(Error::MemoryCap {
            what: format!("a tile of {rows} × {cols} pairs {how} by MPI in one piece"),
            need: bytes as u64,
            cap: i32::MAX as u64,
        });
    }
    Ok(())
}

/// The tile of `rows` × `cols` values from the ranks' blocks in rank order, rank `r`'s
/// holding every row's columns `parts[r]`, row by row: each row is the ranks' pieces.
fn interleave<'m, V: Values>(
    meter: &'m Meter,
    blocks: &[V],
    parts: &[(usize, usize)],
    (rows, cols): (usize, usize),
) -> Held<'m, V> {
    let mut tile = Held::new(meter, rows * cols, V::ZERO);
    let mut at = 0;
    for &(lo, hi) in parts {
        let w = hi - lo;
        if w == 0 {
            continue;
        }
        for (i, piece) in blocks[at..at + rows * w].chunks_exact(w).enumerate() {
            tile.data[i * cols + lo..i * cols + hi].copy_from_slice(piece);
        }
        at += rows * w;
    }
    tile
}

/// A row tile of `rows` rollers against `cols` opponents, of which this rank holds every
/// roller against its share of the opponents (`part`), made into its share of the
/// rollers against every opponent, through one all-to-all among the ranks (each rank's
/// piece for rank `r` is `r`'s rollers against its opponents: `part`'s rows in rank
/// order already). Alone, `part` is the tile.
fn transpose<'m, V: Values + bytemuck::Pod>(
    split: Option<&dyn Split>,
    meter: &'m Meter,
    part: Held<'m, V>,
    (rows, cols): (usize, usize),
) -> Result<Held<'m, V>, Error> {
    let Some(sp) = split else {
        return Ok(part);
    };
    let (k, me) = (sp.size(), sp.rank());
    let size = std::mem::size_of::<V>();
    let row_parts: Vec<(usize, usize)> = (0..k).map(|r| share(rows, r, k)).collect();
    let col_parts: Vec<(usize, usize)> = (0..k).map(|r| share(cols, r, k)).collect();
    let (wr, wc) = (
        row_parts[me].1 - row_parts[me].0,
        col_parts[me].1 - col_parts[me].0,
    );
    let send_counts: Vec<usize> = row_parts
        .iter()
        .map(|&(lo, hi)| (hi - lo) * wc * size)
        .collect();
    let recv_counts: Vec<usize> = col_parts
        .iter()
        .map(|&(lo, hi)| wr * (hi - lo) * size)
        .collect();
    let most = send_counts.iter().chain(&recv_counts).sum::<usize>();
    in_one_piece("transposed", (rows, cols), most)?;
    let mut got = Held::new(meter, wr * cols, V::ZERO);
    let started = std::time::Instant::now();
    sp.all_to_all(
        bytemuck::cast_slice(&part.data),
        &send_counts,
        bytemuck::cast_slice_mut(&mut got.data),
        &recv_counts,
    );
    meter
        .transpose_nanos
        .fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
    meter.transposes.fetch_add(1, Ordering::Relaxed);
    let sent = send_counts.iter().sum::<usize>() - send_counts[me];
    let received = recv_counts.iter().sum::<usize>() - recv_counts[me];
    meter.sent.fetch_add(sent as u64, Ordering::Relaxed);
    meter.received.fetch_add(received as u64, Ordering::Relaxed);
    meter
        .layer_received
        .fetch_add(received as u64, Ordering::Relaxed);
    drop(part);
    // Rank r's piece is this rank's rollers against r's opponents, roller by roller.
    Ok(interleave(meter, &got.data, &col_parts, (wr, cols)))
}

/// The bytes the build of `n`-side layers needs at least with values of `size` bytes, on
/// each of `ranks` ranks: the largest layer's transposed rows of one rank's share, its
/// tiles (the lead gathers whole ones), and one column of its reads.
pub fn least_memory(plan: &Plan, succ: &Successors, size: usize, ranks: usize) -> u64 {
    (0..plan.layers())
        .map(|y| {
            let m = plan.size(y);
            let mine = m.div_ceil(ranks.max(1));
            // A tile and its rows' buffer; shared, the lead's gathered tile besides.
            let tiles = if ranks > 1 { 3 } else { 2 };
            let window: usize = plan.reached(succ, y).iter().map(|&l| plan.size(l)).sum();
            let widest = (0..=y).map(|l| plan.size(l)).max().unwrap_or(0);
            ((plan.below[y] * mine + tiles * m * widest + window + widest + m) * size) as u64
        })
        .max()
        .unwrap_or(0)
}

/// Refuses a build of `line` whose memory cap is below the `least` it needs.
fn fits(line: &str, memory: u64, least: u64) -> Result<(), Error> {
    if memory < least {
        return Err(Error::MemoryCap {
            what: format!("the out-of-core build of `{line}` (its largest layer)"),
            need: least,
            cap: memory,
        });
    }
    Ok(())
}

/// What [`solve`] needs besides the successors.
pub struct Setup<'a> {
    /// The sides' plays.
    pub succ: &'a Successors,
    /// The sides' levels.
    pub plan: &'a Plan,
    /// Whether each side has borne off none of its checkers (gammons).
    pub full: &'a [bool],
    /// The database's variant line: the working files name it.
    pub line: &'a str,
    /// The bytes of working values it may hold.
    pub memory: u64,
    /// The working folder.
    pub work: &'a Path,
    /// The ranks sharing the build, if any.
    pub split: Option<&'a dyn Split>,
}

/// Solves every layer not yet in the working folder, then hands `emit` the records in
/// table order, a batch of whole rows at a time (`emit` returns when it has written
/// them). Returns what it did.
pub fn solve<V: Values + bytemuck::Pod>(
    setup: &Setup<'_>,
    progress: Progress<'_>,
    mut emit: impl FnMut(&[V::Record]) -> Result<(), Error>,
) -> Result<Report, Error> {
    let Setup {
        succ,
        plan,
        line,
        memory,
        work: dir,
        split,
        ..
    } = *setup;
    let lead = split.is_none_or(|s| s.rank() == 0);
    let meter = Meter::default();
    let barrier = || meter.barrier(split);
    let size = std::mem::size_of::<V>();
    let record = std::mem::size_of::<V::Record>();
    fits(
        line,
        memory,
        least_memory(plan, succ, size, split.map_or(1, |s| s.size())).max((plan.n * record) as u64),
    )?;
    std::fs::create_dir_all(dir).map_err(Work::io(dir))?;
    let mut work = Work {
        dir: dir.to_path_buf(),
        id: build_id(line),
        record_size: size,
        files: (0..plan.layers()).map(|_| None).collect(),
        read: AtomicU64::new(0),
        written: 0,
    };
    // The layers already done: the first run of whole files; anything after is stale.
    let mut done = 0;
    while done < plan.layers() {
        match work.check_layer(plan, done)? {
            Some(f) => {
                work.files[done] = Some(f);
                done += 1;
            }
            None => break,
        }
    }
    barrier();
    for y in done..plan.layers() {
        let path = work.layer_path(y);
        if lead && path.exists() {
            std::fs::remove_file(&path).map_err(Work::io(&path))?;
        }
    }
    barrier();
    let resumed = done;
    let pairs = (plan.n * plan.n) as u64;
    progress.start("two-sided, out of core", Some(pairs));
    progress.advance((0..done).map(|y| plan.layer_len(y) as u64).sum());
    for y in done..plan.layers() {
        if !progress.is_silent() {
            progress.status(&format!(
                "layer {} of {}, {} MB held",
                y + 1,
                plan.layers(),
                meter.now.load(Ordering::Relaxed) >> 20
            ));
        }
        let path = work.layer_path(y);
        if !lead {
            // The same layer, solved together with the lead, which writes it.
            let mut sink = std::io::sink();
            let mut writer = LayerWriter {
                path: path.clone(),
                out: &mut sink,
                words: 0,
                sum: 0,
            };
            layer::<V>(setup, &work, &meter, y, &mut writer)?;
            barrier();
            meter.end_layer();
            work.files[y] = Some(File::open(&path).map_err(Work::io(&path))?);
            progress.advance(plan.layer_len(y) as u64);
            continue;
        }
        let mut failure = None;
        let written = crate::table::write_file(&path, |out| {
            let mut writer = LayerWriter {
                path: path.clone(),
                out,
                words: 0,
                sum: 0,
            };
            if let Err(e) = layer::<V>(setup, &work, &meter, y, &mut writer) {
                failure = Some(e);
                return Err(TableError::Malformed {
                    path: path.clone(),
                    message: "the layer was not finished".into(),
                });
            }
            let mut trailer = Vec::with_capacity(TRAILER);
            trailer.extend_from_slice(MAGIC);
            for w in [
                y as u64,
                plan.layer_len(y) as u64,
                size as u64,
                work.id,
                writer.sum,
            ] {
                trailer.extend_from_slice(&w.to_le_bytes());
            }
            writer
                .out
                .write_all(&trailer)
                .map_err(|source| TableError::Io {
                    path: path.clone(),
                    source,
                })
        });
        if let Some(e) = failure {
            return Err(e);
        }
        written?;
        barrier();
        meter.end_layer();
        work.written += (plan.layer_len(y) * size) as u64;
        work.files[y] = Some(File::open(&path).map_err(Work::io(&path))?);
        progress.advance(plan.layer_len(y) as u64);
    }
    progress.finish();
    let report = Report {
        memory,
        peak_memory: 0,
        layers: plan.layers(),
        resumed_layers: resumed,
        bytes_written: work.written,
        bytes_read: 0,
        work: dir.to_path_buf(),
        exchange: None,
    };
    if !lead {
        return Ok(Report {
            peak_memory: meter.peak.load(Ordering::Relaxed),
            bytes_read: work.read.load(Ordering::Relaxed),
            exchange: meter.exchange(split),
            ..report
        });
    }
    // The table, rows in record order: row i's values at level b are row pos(i) of tile
    // (level(i), b).
    progress.start("writing the table", Some(plan.n as u64));
    let rows = (memory as usize / (plan.n * record)).clamp(1, 4096);
    let mut records = Held::new(&meter, rows * plan.n, V::ZERO.record());
    let mut i0 = 0;
    while i0 < plan.n {
        let i1 = (i0 + rows).min(plan.n);
        let batch = &mut records.data[..(i1 - i0) * plan.n];
        let made: Result<(), Error> = batch.par_chunks_mut(plan.n).enumerate().try_for_each_init(
            || vec![V::ZERO; plan.levels.iter().map(Vec::len).max().unwrap_or(0)],
            |buf, (k, row)| {
                let i = i0 + k;
                let a = plan.level[i] as usize;
                let p = plan.pos[i] as usize;
                for b in 0..plan.layers() {
                    let (layer, at) = plan.tile(a, b);
                    let seg = &mut buf[..plan.size(b)];
                    work.read(layer, at + p * plan.size(b), seg)?;
                    for (&j, v) in plan.levels[b].iter().zip(seg.iter()) {
                        row[j as usize] = v.record();
                    }
                }
                Ok(())
            },
        );
        made?;
        emit(batch)?;
        progress.advance((i1 - i0) as u64);
        i0 = i1;
    }
    progress.finish();
    Ok(Report {
        peak_memory: meter.peak.load(Ordering::Relaxed),
        bytes_read: work.read.load(Ordering::Relaxed),
        exchange: meter.exchange(split),
        ..report
    })
}

/// The trailer-free checkpoint of a compact build: which layers of the growing table are
/// done, each with the SHA-256 of its bytes.
const JOURNAL: &[u8; 8] = b"TBBOJRNL";

/// A compact build's finished layers: regions of the growing table, read back as values.
struct Grown<V: Compact> {
    file: File,
    path: PathBuf,
    /// Where each layer starts in the payload, in records.
    start: Vec<u64>,
    read: AtomicU64,
    values: std::marker::PhantomData<V>,
}

impl<V: Compact> Layers<V> for Grown<V> {
    fn read(&self, y: usize, at: usize, out: &mut [V]) -> Result<(), Error> {
        let record = std::mem::size_of::<V::Small>();
        let mut small = vec![bytemuck::Zeroable::zeroed(); out.len()];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut small);
        self.read.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let offset = (self.start[y] + at as u64) * record as u64;
        self.file
            .read_exact_at(bytes, table::HEADER_LEN as u64 + offset)
            .map_err(Work::io(&self.path))?;
        for (o, s) in out.iter_mut().zip(&small) {
            *o = V::of_small(s);
        }
        Ok(())
    }
}

/// Appends a layer's values, as records, to the growing table, hashing them.
struct GrowingSink<'a, V: Compact> {
    table: &'a mut Growing,
    hash: Sha256,
    values: std::marker::PhantomData<V>,
}

impl<V: Compact> Sink<V> for GrowingSink<'_, V> {
    fn put(&mut self, values: &[V]) -> Result<(), Error> {
        let small: Vec<V::Small> = crate::par::collect(values.len(), |k| values[k].small());
        let bytes: &[u8] = bytemuck::cast_slice(&small);
        self.hash.update(bytes);
        Ok(self.table.push(bytes)?)
    }
}

/// A compact build's journal: the identity of the build and each done layer's SHA-256.
fn read_journal(path: &Path, id: u64) -> Vec<[u8; 32]> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    if bytes.len() < 16 || &bytes[..8] != JOURNAL || bytes[8..16] != id.to_le_bytes() {
        return Vec::new();
    }
    bytes[16..]
        .chunks_exact(32)
        .map(|c| c.try_into().expect("32 bytes"))
        .collect()
}

/// A rank's sink that keeps nothing: the lead writes the layer.
struct Discard;

impl<V> Sink<V> for Discard {
    fn put(&mut self, _: &[V]) -> Result<(), Error> {
        Ok(())
    }
}

/// Solves the database as [`solve`] does, but keeps its values as a compact table does
/// ([`Compact`], `store::Kind::compact`): the table is the layers' records in layer order,
/// written as each layer is done into a growing file in the working folder, which is
/// also what later layers read. The checkpoint is that file and a journal of each done
/// layer's SHA-256; a new run keeps the layers whose bytes agree with it. Returns the
/// table staged for publishing (the growing file, renamed over `target`) — on rank 0 of
/// a shared build; the other ranks solve their shares and return none.
pub fn solve_compact<V: Compact + bytemuck::Pod>(
    setup: &Setup<'_>,
    progress: Progress<'_>,
    target: &Path,
    descriptor: table::Descriptor<'_>,
) -> Result<(Report, Option<table::Staged>), Error> {
    let Setup {
        succ,
        plan,
        line,
        memory,
        work: dir,
        split,
        ..
    } = *setup;
    let lead = split.is_none_or(|s| s.rank() == 0);
    let meter = Meter::default();
    let barrier = || meter.barrier(split);
    let size = std::mem::size_of::<V>();
    let record = std::mem::size_of::<V::Small>() as u64;
    fits(
        line,
        memory,
        least_memory(plan, succ, size, split.map_or(1, |s| s.size())),
    )?;
    std::fs::create_dir_all(dir).map_err(Work::io(dir))?;
    let journal = dir.join("journal");
    let partial = dir.join("table.partial");
    let id = build_id(&format!("{line}; compact"));
    let mut start = vec![0u64; plan.layers() + 1];
    for y in 0..plan.layers() {
        start[y + 1] = start[y] + plan.layer_len(y) as u64;
    }
    let write_journal = |sums: &[[u8; 32]]| {
        crate::table::write_file(&journal, |out| -> Result<(), Error> {
            out.write_all(JOURNAL)
                .and_then(|()| out.write_all(&id.to_le_bytes()))
                .and_then(|()| sums.iter().try_for_each(|h| out.write_all(h)))
                .map_err(Work::io(&journal))
        })
    };
    // The layers done: the first run of them whose bytes agree with the journal (the
    // lead keeps them, reading them once, and writes the journal again with those alone;
    // the other ranks then read it).
    let pairs = (plan.n * plan.n) as u64;
    let mut done = 0;
    let mut sums = Vec::new();
    let mut growing = None;
    if lead {
        let journaled = read_journal(&journal, id);
        let pieces: Vec<(u64, [u8; 32])> = journaled
            .iter()
            .take(plan.layers())
            .enumerate()
            .map(|(y, h)| (plan.layer_len(y) as u64 * record, *h))
            .collect();
        let (g, kept) = Growing::open(target, &partial, descriptor, record as u32, pairs, &pieces)?;
        done = kept;
        sums = journaled[..kept].to_vec();
        write_journal(&sums)?;
        growing = Some(g);
    }
    barrier();
    if !lead {
        done =
            std::fs::metadata(&journal).map_or(0, |m| (m.len().saturating_sub(16) / 32) as usize);
    }
    // Every rank has read the journal before the lead writes it again: a rank that read
    // it after the lead's first layer would skip that layer, and its collectives would
    // meet the others' out of step (the hangs of 4-rank compact builds under load).
    barrier();
    let layers = Grown::<V> {
        file: File::open(&partial).map_err(Work::io(&partial))?,
        path: partial.clone(),
        start: start.clone(),
        read: AtomicU64::new(0),
        values: std::marker::PhantomData,
    };
    progress.start("two-sided, out of core, compact", Some(pairs));
    progress.advance(start[done]);
    for y in done..plan.layers() {
        if !progress.is_silent() {
            progress.status(&format!(
                "layer {} of {}, {} MB held",
                y + 1,
                plan.layers(),
                meter.now.load(Ordering::Relaxed) >> 20
            ));
        }
        match growing.as_mut() {
            Some(table) => {
                let mut sink = GrowingSink::<V> {
                    table,
                    hash: Sha256::new(),
                    values: std::marker::PhantomData,
                };
                layer::<V>(setup, &layers, &meter, y, &mut sink)?;
                let hash: [u8; 32] = sink.hash.finalize().into();
                table.sync()?;
                sums.push(hash);
                write_journal(&sums)?;
            }
            // Another rank: the same layer, solved with the lead, which writes it.
            None => layer::<V>(setup, &layers, &meter, y, &mut Discard)?,
        }
        // The layer is on disk before any rank reads it.
        barrier();
        meter.end_layer();
        progress.advance(plan.layer_len(y) as u64);
    }
    progress.finish();
    progress.start("sealing the table", None);
    let staged = growing.map(Growing::finish).transpose()?;
    progress.finish();
    Ok((
        Report {
            memory,
            peak_memory: meter.peak.load(Ordering::Relaxed),
            layers: plan.layers(),
            resumed_layers: done,
            bytes_written: (start[plan.layers()] - start[done]) * record,
            bytes_read: layers.read.load(Ordering::Relaxed),
            work: dir.to_path_buf(),
            exchange: meter.exchange(split),
        },
        staged,
    ))
}

/// The record, in a compact table, of the pair `(roller, opponent)`: layer by layer,
/// each layer's tiles as [`Plan`] lays them out.
pub struct CompactOrder {
    plan: Plan,
    start: Vec<u64>,
}

impl CompactOrder {
    /// The order of `sides`' pairs.
    pub fn new(sides: &Sides) -> CompactOrder {
        let plan = Plan::new(sides);
        let mut start = vec![0u64; plan.layers() + 1];
        for y in 0..plan.layers() {
            start[y + 1] = start[y] + plan.layer_len(y) as u64;
        }
        CompactOrder { plan, start }
    }

    /// The record of the pair (both sides' ranks below the number of sides).
    pub fn record(&self, roller: usize, opponent: usize) -> u64 {
        let p = &self.plan;
        let (a, b) = (p.level[roller] as usize, p.level[opponent] as usize);
        let (layer, at) = p.tile(a, b);
        self.start[layer]
            + (at + p.pos[roller] as usize * p.size(b) + p.pos[opponent] as usize) as u64
    }
}

/// Solves layer `y` into `out`: row tiles, diagonal, column tiles. Shared by ranks, each
/// solves the rows of its share of the level's sides and the columns of its share
/// ([`Split`]), and the lead puts the gathered tiles.
fn layer<V: Values + bytemuck::Pod>(
    setup: &Setup<'_>,
    work: &dyn Layers<V>,
    meter: &Meter,
    y: usize,
    out: &mut dyn Sink<V>,
) -> Result<(), Error> {
    let Setup {
        succ,
        plan,
        full,
        memory,
        split,
        ..
    } = *setup;
    let size = std::mem::size_of::<V>();
    let sy = &plan.levels[y];
    let m = sy.len();
    if y == 0 {
        // The pair of sides with no checker: the side on roll has won.
        return match split {
            Some(sp) if sp.rank() != 0 => Ok(()),
            _ => out.put(&[V::won(false)]),
        };
    }
    // This rank's share of the level: all of it alone.
    let (lo, hi) = split.map_or((0, m), |sp| share(m, sp.rank(), sp.size()));
    let (mine, w) = (&sy[lo..hi], hi - lo);
    // t[(below[level s] + pos s) · w + i]: what moving to s against side i of this rank's
    // share is worth to the mover, for every s below the level.
    let mut t = Held::new(meter, plan.below[y] * w, V::ZERO);
    let reached = plan.reached(succ, y);
    let window: usize = reached.iter().map(|&l| plan.size(l)).sum();
    // Row tiles (y, b): the plays of level y's sides read tiles (b, a') of earlier layers.
    // Every roller of the level against this rank's share of the opponents of level b,
    // whose rows alone it reads; then transposed among the ranks.
    for b in 0..y {
        let sb = &plan.levels[b];
        let nb = sb.len();
        let (jlo, jhi) = split.map_or((0, nb), |sp| share(nb, sp.rank(), sp.size()));
        let wj = jhi - jlo;
        let mut part = Held::new(meter, m * wj, V::ZERO);
        if b == 0 {
            if wj > 0 {
                for (row, &i) in part.data.chunks_exact_mut(wj).zip(sy) {
                    row.fill(V::lost(full[i as usize]));
                }
            }
        } else if wj > 0 {
            // Opponents of level b in chunks whose reads fit what memory is left.
            let held = meter.now.load(Ordering::Relaxed) as usize;
            let room = (memory as usize).saturating_sub(held);
            let widest = reached.iter().map(|&l| plan.size(l)).max().unwrap_or(0);
            let per = (window + m + widest) * size;
            let c = (room / per).clamp(1, wj);
            let mut reads = Held::new(meter, window * c, V::ZERO);
            let mut raw = Held::new(meter, c * widest, V::ZERO);
            let mut strip = Held::new(meter, m * c, V::ZERO);
            // Where each reached level's rows start in the window.
            let mut start = vec![usize::MAX; plan.layers()];
            let mut at = 0;
            for &l in &reached {
                start[l] = at;
                at += plan.size(l);
            }
            let mut j0 = jlo;
            while j0 < jhi {
                let j1 = (j0 + c).min(jhi);
                let cw = j1 - j0;
                for &l in &reached {
                    let (layer, first) = plan.tile(b, l);
                    let sl = plan.size(l);
                    let rows = &mut raw.data[..cw * sl];
                    work.read(layer, first + j0 * sl, rows)?;
                    for (jj, r) in rows.chunks_exact(sl).enumerate() {
                        for (q, v) in r.iter().enumerate() {
                            reads.data[(start[l] + q) * cw + jj] = v.after_move();
                        }
                    }
                }
                let wd = &reads.data;
                let after = |s: u32| {
                    let s = s as usize;
                    let row = start[plan.level[s] as usize] + plan.pos[s] as usize;
                    &wd[row * cw..row * cw + cw]
                };
                pair_block(succ, sy, &sb[j0..j1], &after, &mut strip.data[..m * cw]);
                for (i, piece) in strip.data[..m * cw].chunks_exact(cw).enumerate() {
                    part.data[i * wj + j0 - jlo..i * wj + j1 - jlo].copy_from_slice(piece);
                }
                j0 = j1;
            }
        }
        emit(split, meter, out, &part.data, (m, nb), false)?;
        let tile = transpose(split, meter, part, (m, nb))?;
        for (i, row) in tile.data.chunks_exact(nb).enumerate() {
            for (q, v) in row.iter().enumerate() {
                t.data[(plan.below[b] + q) * w + i] = v.after_move();
            }
        }
    }
    let td = &t.data;
    let after = |s: u32| {
        let s = s as usize;
        let row = plan.below[plan.level[s] as usize] + plan.pos[s] as usize;
        &td[row * w..row * w + w]
    };
    // The diagonal (y, y), then the column tiles (a, y): their plays read the row tiles,
    // only along this rank's share of the opponents.
    let mut tile = Held::new(meter, m * w, V::ZERO);
    pair_block(succ, sy, mine, &after, &mut tile.data);
    emit(split, meter, out, &tile.data, (m, m), false)?;
    drop(tile);
    for a in 0..y {
        let sa = &plan.levels[a];
        let mut tile = Held::new(meter, sa.len() * w, V::ZERO);
        if a == 0 {
            for (v, &j) in tile.data.iter_mut().zip(mine) {
                *v = V::won(full[j as usize]);
            }
        } else {
            pair_block(succ, sa, mine, &after, &mut tile.data);
        }
        emit(split, meter, out, &tile.data, (sa.len(), m), false)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::index::{BearoffIndex, MAX_CHECKERS};
    use super::super::two_sided::{self, Cube, Gammon, GammonCube, Win};
    use super::*;

    fn full_of(index: &BearoffIndex, gammons: bool) -> Vec<bool> {
        (0..index.sides())
            .map(|s| {
                let on: usize = index.side(s).unwrap().iter().map(|&c| c as usize).sum();
                gammons && on == MAX_CHECKERS
            })
            .collect()
    }

    /// A database's sides, as the builds read them.
    struct Db {
        succ: Successors,
        full: Vec<bool>,
        plan: Plan,
    }

    fn db(points: usize, checkers: usize) -> Db {
        let index = BearoffIndex::new(points, checkers).unwrap();
        let sides = Sides::new(&index);
        Db {
            succ: Successors::new(&sides),
            full: full_of(&index, checkers == MAX_CHECKERS),
            plan: Plan::new(&sides),
        }
    }

    /// What `solve` hands its caller (the lead's records; none on another rank), and its
    /// report.
    fn records<V: Values + bytemuck::Pod>(setup: &Setup<'_>) -> (Vec<V::Record>, Report) {
        let mut out = Vec::new();
        let report = solve::<V>(setup, Progress::SILENT, |b| {
            out.extend_from_slice(b);
            Ok(())
        })
        .unwrap();
        (out, report)
    }

    /// The out-of-core build of `db` in `memory` bytes (each rank's), by one process or
    /// shared by `ranks` threads: the lead's records, and each rank's report.
    fn run<V: Values + bytemuck::Pod>(
        db: &Db,
        ranks: usize,
        memory: u64,
    ) -> (Vec<V::Record>, Vec<Report>) {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let slots = std::sync::Mutex::new(vec![Vec::new(); ranks]);
        let wait = std::sync::Barrier::new(ranks);
        let runs: Vec<(Vec<V::Record>, Report)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..ranks)
                .map(|rank| {
                    let (work, slots, wait) = (&work, &slots, &wait);
                    scope.spawn(move || {
                        let me = Threads { rank, slots, wait };
                        let setup = Setup {
                            succ: &db.succ,
                            plan: &db.plan,
                            full: &db.full,
                            line: "test",
                            memory,
                            work,
                            split: (ranks > 1).then_some(&me as &dyn Split),
                        };
                        records::<V>(&setup)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(runs[1..].iter().all(|(out, _)| out.is_empty()));
        let reports = runs.iter().map(|(_, r)| r.clone()).collect();
        (runs.into_iter().next().unwrap().0, reports)
    }

    /// The out-of-core records of `points` × `checkers` in `memory` bytes, and the
    /// in-memory solver's.
    fn both<V: Values + bytemuck::Pod>(
        points: usize,
        checkers: usize,
        memory: u64,
    ) -> (Vec<V::Record>, Vec<V::Record>, Report) {
        let db = db(points, checkers);
        let (out, mut reports) = run::<V>(&db, 1, memory);
        let want = two_sided::solve::<V>(&db.succ, &db.full, Progress::SILENT);
        (out, want, reports.remove(0))
    }

    fn same<R: bytemuck::Pod>(a: &[R], b: &[R]) -> bool {
        bytemuck::cast_slice::<R, u8>(a) == bytemuck::cast_slice::<R, u8>(b)
    }

    #[test]
    fn every_kind_of_value_is_the_in_memory_solvers_bit_for_bit() {
        let (got, want, _) = both::<Win>(5, 5, 1 << 30);
        assert!(same(&got, &want));
        let (got, want, _) = both::<Cube>(4, 6, 1 << 30);
        assert!(same(&got, &want));
        let (got, want, _) = both::<Gammon>(2, 15, 1 << 30);
        assert!(same(&got, &want));
        let (got, want, _) = both::<GammonCube>(3, 15, 1 << 30);
        assert!(same(&got, &want));
    }

    #[test]
    fn the_least_memory_reads_in_narrow_chunks_and_gives_the_same_bytes() {
        let d = db(6, 6);
        let least = least_memory(&d.plan, &d.succ, 32, 1).max(924 * 16);
        let (got, want, report) = both::<Cube>(6, 6, least);
        assert!(same(&got, &want));
        assert!(
            report.peak_memory <= least,
            "{} > {least}",
            report.peak_memory
        );
        // Far less than the in-memory solver's n² working values.
        assert!(least * 10 < 924 * 924 * 32, "{least}");
        assert!(report.bytes_read > report.bytes_written);
    }

    /// Ranks as threads of one process, for the tests: a gather through shared slots
    /// between two waits at a barrier.
    struct Threads<'s> {
        rank: usize,
        slots: &'s std::sync::Mutex<Vec<Vec<u8>>>,
        wait: &'s std::sync::Barrier,
    }

    impl Split for Threads<'_> {
        fn rank(&self) -> usize {
            self.rank
        }
        fn size(&self) -> usize {
            self.slots.lock().unwrap().len()
        }
        fn gather(&self, mine: &[u8], counts: &[usize], out: &mut [u8]) {
            assert_eq!(mine.len(), counts[self.rank]);
            self.slots.lock().unwrap()[self.rank] = mine.to_vec();
            self.wait.wait();
            if self.rank == 0 {
                let slots = self.slots.lock().unwrap();
                assert_eq!(out.len(), counts.iter().sum::<usize>());
                let mut at = 0;
                for (slot, &c) in slots.iter().zip(counts) {
                    out[at..at + c].copy_from_slice(slot);
                    at += c;
                }
            }
            self.wait.wait();
        }
        fn all_to_all(
            &self,
            send: &[u8],
            send_counts: &[usize],
            recv: &mut [u8],
            recv_counts: &[usize],
        ) {
            // Each rank's pieces, behind their sizes as eight bytes each.
            let mut mine: Vec<u8> = send_counts
                .iter()
                .flat_map(|&c| (c as u64).to_le_bytes())
                .collect();
            mine.extend_from_slice(send);
            self.slots.lock().unwrap()[self.rank] = mine;
            self.wait.wait();
            {
                let slots = self.slots.lock().unwrap();
                let k = slots.len();
                let mut at = 0;
                for (slot, &want) in slots.iter().zip(recv_counts) {
                    let count = |r: usize| {
                        u64::from_le_bytes(slot[8 * r..8 * r + 8].try_into().unwrap()) as usize
                    };
                    let from = 8 * k + (0..self.rank).map(count).sum::<usize>();
                    assert_eq!(count(self.rank), want);
                    recv[at..at + want].copy_from_slice(&slot[from..from + want]);
                    at += want;
                }
                assert_eq!(at, recv.len());
            }
            self.wait.wait();
        }
        fn barrier(&self) {
            self.wait.wait();
        }
    }

    #[test]
    fn ranks_sharing_the_build_each_hold_their_share_and_give_the_same_bytes() {
        let d = db(6, 6);
        let (plan, succ) = (&d.plan, &d.succ);
        let want = two_sided::solve::<Cube>(succ, &d.full, Progress::SILENT);
        let alone_reads = run::<Cube>(&d, 1, 1 << 30).1[0].bytes_read;
        for ranks in [2, 3] {
            // Each rank holds its share of the layers' transposed rows: the least memory
            // it needs falls with the ranks, below what one process needs, and a build in
            // that much gives the same bytes.
            let least = least_memory(plan, succ, 32, ranks);
            let alone = least_memory(plan, succ, 32, 1);
            eprintln!("{ranks} ranks: {least} bytes a rank at least, {alone} alone");
            assert!(least * 10 < alone * 7, "{ranks} ranks: {least} of {alone}");
            let (got, reports) = run::<Cube>(&d, ranks, least);
            assert!(same(&got, &want), "{ranks} ranks");
            let reads: Vec<u64> = reports.iter().map(|r| r.bytes_read).collect();
            eprintln!("{ranks} ranks read {reads:?}, one process {alone_reads}");
            // The ranks split the reads: each row is read by one rank, each rank reads
            // about its share.
            assert_eq!(reads.iter().sum::<u64>(), alone_reads, "{ranks} ranks");
            assert!(
                reads
                    .iter()
                    .all(|&r| r * ranks as u64 * 10 < alone_reads * 13),
                "{ranks} ranks: {reads:?} of {alone_reads}"
            );
            assert!(reports.iter().all(|r| r.peak_memory <= least));
            let x = reports[1].exchange.as_ref().unwrap();
            assert_eq!(x.ranks, ranks);
            // The row tiles' transposes: every rank sends and receives.
            assert!(x.bytes_sent > 0 && x.bytes_received > 0 && x.transposes > 0);
            assert!(reports[0].exchange.as_ref().unwrap().bytes_received > 0);
        }
        let (got, want, _) = both::<GammonCube>(3, 10, 1 << 30);
        assert!(same(&got, &run::<GammonCube>(&db(3, 10), 2, 1 << 30).0));
        assert!(same(&got, &want));
    }

    // Through the store, as `bearoff build --mpi` runs it: the table of layer files and
    // the compact one, by 2 and 3 ranks, each the one-process table byte for byte.
    #[test]
    fn the_stores_shared_builds_publish_the_one_process_tables() {
        use super::super::store::{build_shared, build_with, Kind, Method};
        let dir = tempfile::tempdir().unwrap();
        for compact in [false, true] {
            let kind = Kind::two_sided(3, 10, true).stored_compact(compact);
            let one = dir.path().join(format!("one-{compact}.tbl"));
            let memory = Method::OutOfCore { memory: 1 << 28 };
            build_with(&kind, &one, memory, Progress::SILENT).unwrap();
            for ranks in [2, 3] {
                let path = dir.path().join(format!("shared-{compact}-{ranks}.tbl"));
                let slots = std::sync::Mutex::new(vec![Vec::new(); ranks]);
                let wait = std::sync::Barrier::new(ranks);
                std::thread::scope(|scope| {
                    for rank in 0..ranks {
                        let (kind, path, slots, wait) = (&kind, &path, &slots, &wait);
                        scope.spawn(move || {
                            let me = Threads { rank, slots, wait };
                            build_shared(kind, path, 1 << 28, &me, Progress::SILENT).unwrap();
                        });
                    }
                });
                let (a, b) = (std::fs::read(&one).unwrap(), std::fs::read(&path).unwrap());
                assert!(a == b, "compact {compact}, {ranks} ranks");
            }
        }
    }

    #[test]
    fn too_little_memory_is_refused_with_what_is_needed() {
        let index = BearoffIndex::new(4, 4).unwrap();
        let sides = Sides::new(&index);
        let succ = Successors::new(&sides);
        let plan = Plan::new(&sides);
        let dir = tempfile::tempdir().unwrap();
        let setup = Setup {
            succ: &succ,
            plan: &plan,
            full: &[false; 70],
            line: "test",
            memory: 100,
            work: dir.path(),
            split: None,
        };
        let e = solve::<Cube>(&setup, Progress::SILENT, |_| Ok(())).unwrap_err();
        assert!(matches!(e, Error::MemoryCap { cap: 100, .. }), "{e}");
    }

    #[test]
    fn a_resumed_build_reuses_whole_layers_and_redoes_a_damaged_one() {
        let index = BearoffIndex::new(5, 5).unwrap();
        let sides = Sides::new(&index);
        let succ = Successors::new(&sides);
        let full = vec![false; index.sides() as usize];
        let plan = Plan::new(&sides);
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("w");
        let setup = Setup {
            succ: &succ,
            plan: &plan,
            full: &full,
            line: "test",
            memory: 1 << 30,
            work: &work,
            split: None,
        };
        let run = || records::<Cube>(&setup);
        let (first, r) = run();
        assert_eq!(r.resumed_layers, 0);
        // All layers are there: a second run solves nothing.
        let (again, r) = run();
        assert_eq!(r.resumed_layers, plan.layers());
        assert_eq!(r.bytes_written, 0);
        assert!(same(&first, &again));
        // A flipped byte in layer 12 and a missing layer 20: layers from 12 on are redone.
        let path = work.join("layer-012.bin");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[40] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        std::fs::remove_file(work.join("layer-020.bin")).unwrap();
        let (third, r) = run();
        assert_eq!(r.resumed_layers, 12);
        assert!(same(&first, &third));
        // Another database's working files are not taken for this one's.
        let other = Setup {
            line: "another",
            ..setup
        };
        let r = solve::<Cube>(&other, Progress::SILENT, |_| Ok(())).unwrap();
        assert_eq!(r.resumed_layers, 0);
    }
}
