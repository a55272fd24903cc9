//! gnubg's bear-off database files (`docs/bearoff.md`, "gnubg's files"), as its
//! `makebearoff` writes them and its `bearoff.c` reads them: reading, writing tabula's
//! tables in them, and comparing them with tabula's exact values.
//!
//! - A 40-byte header ending in a newline, padded with `x`: `gnubg-OS-PP-15-G-C-0` (one
//!   side of fifteen checkers on `P` points; `G` = 1 with the distributions to the first
//!   checker off, `C` = 1 compressed) or `gnubg-TS-PP-CC-U` (two-sided, `U` = 1 cubeful).
//! - One-sided: per side 32 probabilities (`u16`, fractions of 0xFFFF) of bearing off in
//!   exactly 0..31 rolls, then 32 for the first checker off. Compressed: an index of 8
//!   bytes a side (a `u32` offset in `u16`s from the end of the index, the count and the
//!   first roll of the non-zero run, the same two of the gammon run), then the runs.
//! - Two-sided: per record `roller · n + opponent` the cubeless equity `2p − 1` and, when
//!   cubeful, the no-double equities owned, centred, opponent owns; each `u16` `u` standing
//!   for `u / 32767.5 − 1`. The format knows no gammons.

use super::index::{BearoffIndex, MAX_CHECKERS};
use super::notation;
use super::one_sided::CHECKERS;
use super::sides::{weight, Sides, ROLLS};
use super::store::{Kind, OneSidedTable, TwoSidedTable};
use crate::gammon::Error;
use memmap2::Mmap;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Bytes of a header.
pub const HEADER_LEN: usize = 40;
/// Roll counts a one-sided record holds: 0 to 31.
pub const ROLLS_KEPT: usize = 32;
/// A one-sided probability's unit: 1/65535.
pub const OS_UNIT: f64 = 1.0 / 65535.0;
/// A two-sided equity's unit: 1/32767.5.
pub const TS_UNIT: f64 = 1.0 / 32767.5;

/// What a gnubg bear-off file holds, from its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Format {
    /// A one-sided database of fifteen checkers.
    OneSided {
        /// Points.
        points: usize,
        /// With the distributions to the first checker off.
        gammon: bool,
        /// In the compressed layout.
        compressed: bool,
    },
    /// A two-sided database.
    TwoSided {
        /// Points.
        points: usize,
        /// Checkers a side at most.
        checkers: usize,
        /// With the three cubeful equities.
        cubeful: bool,
    },
}

impl Format {
    /// The 40-byte header gnubg writes for this database.
    pub fn header(&self) -> [u8; HEADER_LEN] {
        let text = match *self {
            Format::OneSided {
                points,
                gammon,
                compressed,
            } => format!(
                "gnubg-OS-{points:02}-15-{}-{}-0",
                u8::from(gammon),
                u8::from(compressed)
            ),
            Format::TwoSided {
                points,
                checkers,
                cubeful,
            } => format!("gnubg-TS-{points:02}-{checkers:02}-{}", u8::from(cubeful)),
        };
        let mut out = [b'x'; HEADER_LEN];
        out[..text.len()].copy_from_slice(text.as_bytes());
        out[HEADER_LEN - 1] = b'\n';
        out
    }

    /// The format a header names, or why it names none.
    pub fn parse(bytes: &[u8]) -> Result<Format, String> {
        let text = bytes
            .get(..HEADER_LEN)
            .ok_or_else(|| format!("{} bytes, shorter than a header", bytes.len()))?;
        let number = |at: usize, len: usize| -> Option<usize> {
            std::str::from_utf8(text.get(at..at + len)?)
                .ok()?
                .parse()
                .ok()
        };
        let format = if text.starts_with(b"gnubg-OS-") {
            let points = number(9, 2).ok_or("no number of points")?;
            if number(12, 2) != Some(CHECKERS) {
                return Err("a one-sided database of other than fifteen checkers".into());
            }
            let flag = |at: usize| match text[at] {
                b'0' => Ok(false),
                b'1' => Ok(true),
                _ => Err("a flag that is neither 0 nor 1".to_string()),
            };
            if flag(19)? {
                return Err("normal-distribution approximations, not exact distributions".into());
            }
            Format::OneSided {
                points,
                gammon: flag(15)?,
                compressed: flag(17)?,
            }
        } else if text.starts_with(b"gnubg-TS-") {
            Format::TwoSided {
                points: number(9, 2).ok_or("no number of points")?,
                checkers: number(12, 2).ok_or("no number of checkers")?,
                cubeful: match text[15] {
                    b'0' => false,
                    b'1' => true,
                    _ => return Err("a cube flag that is neither 0 nor 1".into()),
                },
            }
        } else {
            return Err(format!(
                "not a gnubg bear-off database (header {})",
                crate::fault::shorten(&String::from_utf8_lossy(&text[..16]))
            ));
        };
        let (points, checkers) = match format {
            Format::OneSided { points, .. } => (points, CHECKERS),
            Format::TwoSided {
                points, checkers, ..
            } => (points, checkers),
        };
        BearoffIndex::new(points, checkers).map_err(|e| e.to_string())?;
        if format.header()[..] != text[..] {
            return Err("its header is not one gnubg writes".into());
        }
        Ok(format)
    }

    /// The index of its sides.
    pub fn index(&self) -> BearoffIndex {
        let (p, c) = match *self {
            Format::OneSided { points, .. } => (points, CHECKERS),
            Format::TwoSided {
                points, checkers, ..
            } => (points, checkers),
        };
        BearoffIndex::new(p, c).expect("checked when parsed")
    }
}

/// A gnubg bear-off file, mapped into memory after its header and length were checked.
pub struct GnubgFile {
    path: PathBuf,
    map: Mmap,
    format: Format,
    sides: u64,
}

/// One side's record in a one-sided file, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OneSidedRecord {
    /// Rolls to bear off every checker: 0..31.
    pub rolls: [u16; ROLLS_KEPT],
    /// Rolls to the first checker off (all at 0 for a side that has borne one off, and
    /// when the file keeps none).
    pub gammon: [u16; ROLLS_KEPT],
}

impl GnubgFile {
    /// Opens `path` and checks its header and length.
    pub fn open(path: &Path) -> Result<GnubgFile, Error> {
        let bad = |reason: String| Error::BearoffFile {
            path: path.to_path_buf(),
            reason,
        };
        let (file, _) = crate::table::open_input(path)?;
        // SAFETY: a one-shot reader (`compare`, `import`): a fault ends the one command
        // (see `table::map`); every read below is bounds-checked against the length.
        let map = unsafe { crate::table::map(&file, path) }?;
        let format = Format::parse(&map).map_err(bad)?;
        let sides = format.index().sides();
        let expected = match format {
            Format::OneSided {
                gammon,
                compressed: false,
                ..
            } => Some(HEADER_LEN as u64 + sides * if gammon { 128 } else { 64 }),
            Format::OneSided {
                compressed: true, ..
            } => None,
            Format::TwoSided { cubeful, .. } => {
                Some(HEADER_LEN as u64 + sides * sides * if cubeful { 8 } else { 2 })
            }
        };
        let found = map.len() as u64;
        match expected {
            Some(e) if e != found => {
                return Err(bad(format!(
                    "{found} bytes, expected {e} (the file is {})",
                    if found < e { "truncated" } else { "too long" }
                )))
            }
            None => {
                // The index, then each side's runs in order: the last side's runs end the
                // file.
                let entry = match format {
                    Format::OneSided { gammon: true, .. } => 8,
                    _ => 6,
                };
                let index_end = HEADER_LEN as u64 + sides * entry;
                if found < index_end {
                    return Err(bad(format!(
                        "{found} bytes, too short for the index of {sides} sides (truncated)"
                    )));
                }
                let at = (index_end - entry) as usize;
                let e = &map[at..at + entry as usize];
                let runs: u64 = e[4..].iter().step_by(2).map(|&n| u64::from(n)).sum();
                let offset = u64::from(u32::from_le_bytes([e[0], e[1], e[2], e[3]]));
                let end = index_end + 2 * (offset + runs);
                if end != found {
                    return Err(bad(format!(
                        "{found} bytes, expected {end} by its index (the file is {})",
                        if found < end { "truncated" } else { "too long" }
                    )));
                }
            }
            _ => {}
        }
        Ok(GnubgFile {
            path: path.to_path_buf(),
            map,
            format,
            sides,
        })
    }

    /// What it holds.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn u16_at(&self, at: usize) -> Option<u16> {
        let b = self.map.get(at..at + 2)?;
        Some(u16::from_le_bytes([b[0], b[1]]))
    }

    fn corrupt(&self, what: String) -> Error {
        Error::BearoffFile {
            path: self.path.clone(),
            reason: what,
        }
    }

    /// The record of side `s` of a one-sided file.
    pub fn one_sided(&self, s: u64) -> Result<OneSidedRecord, Error> {
        let Format::OneSided {
            gammon, compressed, ..
        } = self.format
        else {
            return Err(self.corrupt("a two-sided file has no one-sided records".into()));
        };
        if s >= self.sides {
            return Err(Error::OutOfRange {
                what: "side",
                number: s,
                len: self.sides,
            });
        }
        let mut out = OneSidedRecord {
            rolls: [0; ROLLS_KEPT],
            gammon: [0; ROLLS_KEPT],
        };
        let short = || self.corrupt(format!("side {s}'s record lies past the end (truncated)"));
        if !compressed {
            let at = HEADER_LEN + s as usize * if gammon { 128 } else { 64 };
            for i in 0..ROLLS_KEPT {
                out.rolls[i] = self.u16_at(at + 2 * i).ok_or_else(short)?;
                if gammon {
                    out.gammon[i] = self.u16_at(at + 64 + 2 * i).ok_or_else(short)?;
                }
            }
            return Ok(out);
        }
        let entry = if gammon { 8 } else { 6 };
        let at = HEADER_LEN + s as usize * entry;
        let idx = self.map.get(at..at + entry).ok_or_else(short)?;
        let offset = u32::from_le_bytes([idx[0], idx[1], idx[2], idx[3]]) as usize;
        let (nz, first) = (usize::from(idx[4]), usize::from(idx[5]));
        let (gnz, gfirst) = if gammon {
            (usize::from(idx[6]), usize::from(idx[7]))
        } else {
            (0, 0)
        };
        if first + nz > ROLLS_KEPT || gfirst + gnz > ROLLS_KEPT {
            return Err(self.corrupt(format!("side {s}'s index entry is out of the format")));
        }
        let data = HEADER_LEN + self.sides as usize * entry + 2 * offset;
        for i in 0..nz {
            out.rolls[first + i] = self.u16_at(data + 2 * i).ok_or_else(short)?;
        }
        for i in 0..gnz {
            out.gammon[gfirst + i] = self.u16_at(data + 2 * (nz + i)).ok_or_else(short)?;
        }
        Ok(out)
    }

    /// The stored values of record `record` of a two-sided file: the cubeless equity and,
    /// when cubeful, owned, centred, opponent owns.
    pub fn two_sided(&self, record: u64) -> Result<Vec<u16>, Error> {
        let Format::TwoSided { cubeful, .. } = self.format else {
            return Err(self.corrupt("a one-sided file has no two-sided records".into()));
        };
        if record >= self.sides * self.sides {
            return Err(Error::OutOfRange {
                what: "record",
                number: record,
                len: self.sides * self.sides,
            });
        }
        let k = if cubeful { 4 } else { 1 };
        let at = HEADER_LEN + 2 * k * record as usize;
        (0..k)
            .map(|i| {
                self.u16_at(at + 2 * i)
                    .ok_or_else(|| self.corrupt("truncated".into()))
            })
            .collect()
    }
}

/// A two-sided value as gnubg reads it.
pub fn ts_value(u: u16) -> f64 {
    f64::from(u) / 32767.5 - 1.0
}

/// An equity in `-1..=1` as a two-sided `u16` (rounded).
pub fn ts_stored(e: f64) -> u16 {
    ((e + 1.0) * 32767.5).round().clamp(0.0, 65535.0) as u16
}

/// A distribution (probabilities of 0, 1, 2, … rolls) as gnubg's 32 `u16`s: each
/// rounded to 1/65535, the rolls from 32 on left out, and the largest corrected so that
/// they add up to 0xFFFF exactly, as `makebearoff` does.
pub fn os_stored(d: &[f64]) -> [u16; ROLLS_KEPT] {
    let mut out = [0u16; ROLLS_KEPT];
    let mut sum = 0i64;
    let mut mode = 0;
    for (i, &p) in d.iter().take(ROLLS_KEPT).enumerate() {
        out[i] = (p * 65535.0).round().clamp(0.0, 65535.0) as u16;
        sum += i64::from(out[i]);
        if out[i] > out[mode] {
            mode = i;
        }
    }
    out[mode] = (i64::from(out[mode]) + 65535 - sum).clamp(0, 65535) as u16;
    out
}

/// Writes the table as gnubg's file at `path`, atomically (`crate::table::write_file`):
/// a one-sided table in the compressed layout unless `uncompressed`, with the
/// distributions to the first checker off; a two-sided table with its cube, if it keeps
/// one. Refuses a two-sided table of fifteen checkers (gnubg's format has no gammons).
/// Returns the format written.
pub fn export(path: &Path, source: Source<'_>, uncompressed: bool) -> Result<Format, Error> {
    let format = match source {
        Source::OneSided(t) => Format::OneSided {
            points: t.kind().points,
            gammon: true,
            compressed: !uncompressed,
        },
        Source::TwoSided(t) => {
            let k = t.kind();
            if k.gammons() {
                return Err(Error::Variant {
                    reason: format!(
                        "gnubg's two-sided format has no gammons, and a database of \
                         {MAX_CHECKERS} checkers has them: export one of at most {}",
                        MAX_CHECKERS - 1
                    ),
                });
            }
            Format::TwoSided {
                points: k.points,
                checkers: k.checkers,
                cubeful: k.cube,
            }
        }
    };
    crate::table::write_file(path, |out| -> Result<(), Error> {
        let io = |e: std::io::Error| Error::Io {
            path: path.to_path_buf(),
            source: e,
        };
        out.write_all(&format.header()).map_err(io)?;
        match source {
            Source::OneSided(t) => write_one_sided(t, !uncompressed, out).map_err(|e| match e {
                Error::Io { source, .. } => io(source),
                e => e,
            }),
            Source::TwoSided(t) => {
                let n = t.index().pairs();
                let mut buf = Vec::with_capacity(1 << 16);
                for r in 0..n {
                    let v = t.values_at(r)?;
                    buf.extend_from_slice(&ts_stored(2.0 * v.win - 1.0).to_le_bytes());
                    if let Some(c) = v.cubeful {
                        for e in [c.owned, c.centred, c.opponent_owns] {
                            buf.extend_from_slice(&ts_stored(e).to_le_bytes());
                        }
                    }
                    if buf.len() >= 1 << 16 {
                        out.write_all(&buf).map_err(io)?;
                        buf.clear();
                    }
                }
                out.write_all(&buf).map_err(io)
            }
        }
    })?;
    Ok(format)
}

/// A table to export.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// One-sided.
    OneSided(&'a OneSidedTable),
    /// Two-sided.
    TwoSided(&'a TwoSidedTable),
}

fn write_one_sided(t: &OneSidedTable, compressed: bool, out: &mut dyn Write) -> Result<(), Error> {
    let n = t.index().sides();
    let stored = |s: u64| -> Result<([u16; ROLLS_KEPT], [u16; ROLLS_KEPT]), Error> {
        let d = t.distributions(s)?;
        let gammon = match &d.gammon_rolls {
            Some(g) => os_stored(g),
            None => os_stored(&[1.0]),
        };
        Ok((os_stored(&d.rolls), gammon))
    };
    let io = |e: std::io::Error| Error::Io {
        path: t.table().path().to_path_buf(),
        source: e,
    };
    if !compressed {
        for s in 0..n {
            let (r, g) = stored(s)?;
            for v in r.iter().chain(&g) {
                out.write_all(&v.to_le_bytes()).map_err(io)?;
            }
        }
        return Ok(());
    }
    // The index first, then the runs: two passes over the table.
    let run = |a: &[u16; ROLLS_KEPT]| -> (usize, usize) {
        let last = (0..ROLLS_KEPT).rev().find(|&i| a[i] != 0).unwrap_or(0);
        let first = (0..=last).find(|&i| a[i] != 0).unwrap_or(0);
        (first, last - first + 1)
    };
    let mut offset = 0u64;
    for s in 0..n {
        let (r, g) = stored(s)?;
        let ((f, len), (gf, glen)) = (run(&r), run(&g));
        let at = u32::try_from(offset).map_err(|_| Error::TooLarge {
            points: t.kind().points,
            checkers: CHECKERS,
            reason: "the compressed file's offsets exceed 32 bits".into(),
        })?;
        out.write_all(&at.to_le_bytes()).map_err(io)?;
        out.write_all(&[len as u8, f as u8, glen as u8, gf as u8])
            .map_err(io)?;
        offset += (len + glen) as u64;
    }
    for s in 0..n {
        let (r, g) = stored(s)?;
        let ((f, len), (gf, glen)) = (run(&r), run(&g));
        for v in r[f..f + len].iter().chain(&g[gf..gf + glen]) {
            out.write_all(&v.to_le_bytes()).map_err(io)?;
        }
    }
    Ok(())
}

/// The largest difference of one quantity.
#[derive(Debug, Clone, Serialize)]
pub struct Largest {
    /// The quantity.
    pub quantity: &'static str,
    /// The largest absolute difference.
    pub max_diff: f64,
    /// The same in gnubg's units (1/65535 of a probability one-sided, 1/32767.5 of an
    /// equity two-sided).
    pub units: f64,
    /// Where: the side (one-sided) or the record (two-sided).
    pub index: u64,
    /// Where, as a position.
    pub position: String,
    /// tabula's exact value there.
    pub tabula: f64,
    /// gnubg's value there.
    pub gnubg: f64,
    /// The mean absolute difference over the positions compared.
    pub mean_diff: f64,
    /// Positions differing by more than one unit of gnubg's, by more than 4, by more
    /// than 16.
    pub over: [u64; 3],
    /// At the position with the largest difference, the rolls whose two best plays are
    /// worth the same to within 4 units of gnubg's (exactly, by tabula's values): there
    /// rounded values can choose the other play.
    pub near_ties: usize,
}

/// A comparison of a tabula table with a gnubg file.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// tabula's database.
    pub database: Kind,
    /// gnubg's file.
    pub gnubg: Format,
    /// Positions compared (one-sided: sides; two-sided: pairs where both sides have a
    /// checker).
    pub positions: u64,
    /// The largest difference of each quantity.
    pub max_diff: std::collections::BTreeMap<&'static str, f64>,
    /// Where each largest difference is, and how the differences spread.
    pub quantities: Vec<Largest>,
    /// One-sided: sides whose exact distribution needs more than 31 rolls with a
    /// positive probability (the format truncates them).
    pub beyond_format: u64,
}

impl Comparison {
    /// tabula's database, named.
    pub fn database_name(&self) -> String {
        super::query::name(&self.database)
    }
}

/// Running maxima of one quantity.
#[derive(Clone, Copy, Default)]
struct Tally {
    max: f64,
    at: u64,
    ours: f64,
    theirs: f64,
    sum: f64,
    over: [u64; 3],
}

impl Tally {
    fn add(&mut self, at: u64, ours: f64, theirs: f64, unit: f64) {
        let d = (ours - theirs).abs();
        if d > self.max {
            *self = Tally {
                max: d,
                at,
                ours,
                theirs,
                ..*self
            };
        }
        self.sum += d;
        for (k, limit) in [1.0, 4.0, 16.0].iter().enumerate() {
            self.over[k] += u64::from(d > limit * unit + 1e-12);
        }
    }
}

/// Compares a one-sided table with gnubg's one-sided file of the same points.
pub fn compare_one_sided(t: &OneSidedTable, file: &GnubgFile) -> Result<Comparison, Error> {
    let Format::OneSided { points, gammon, .. } = file.format() else {
        return Err(mismatch(t.kind(), file));
    };
    if points != t.kind().points {
        return Err(mismatch(t.kind(), file));
    }
    let n = t.index().sides();
    let mut tallies = [Tally::default(); 4];
    let mut beyond = 0u64;
    let mean = |d: &[f64]| d.iter().enumerate().map(|(i, p)| i as f64 * p).sum::<f64>();
    for s in 0..n {
        let ours = t.distributions(s)?;
        let theirs = file.one_sided(s)?;
        beyond += u64::from(ours.rolls.len() > ROLLS_KEPT);
        let g = ours.gammon_rolls.clone().unwrap_or_else(|| vec![1.0]);
        let as_f = |a: &[u16; ROLLS_KEPT]| a.map(|u| f64::from(u) * OS_UNIT);
        let (tr, tg) = (as_f(&theirs.rolls), as_f(&theirs.gammon));
        for i in 0..ROLLS_KEPT {
            tallies[0].add(s, ours.rolls.get(i).copied().unwrap_or(0.0), tr[i], OS_UNIT);
            if gammon {
                tallies[1].add(s, g.get(i).copied().unwrap_or(0.0), tg[i], OS_UNIT);
            }
        }
        tallies[2].add(s, mean(&ours.rolls), mean(&tr), OS_UNIT);
        if gammon && ours.gammon_rolls.is_some() {
            tallies[3].add(s, mean(&g), mean(&tg), OS_UNIT);
        }
    }
    let index = t.index().clone();
    let names = ["rolls", "gammon_rolls", "mean", "gammon_mean"];
    let sides = Sides::new(&index);
    let quantities = names
        .iter()
        .zip(&tallies)
        .filter(|(name, _)| gammon || !name.starts_with("gammon"))
        .map(|(&name, tally)| {
            let ties = one_sided_ties(t, &sides, tally.at, name.starts_with("gammon"))?;
            Ok(largest(
                name,
                tally,
                n,
                OS_UNIT,
                notation::side(&index.side(tally.at)?),
                ties,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(Comparison {
        database: t.kind(),
        gnubg: file.format(),
        positions: n,
        max_diff: quantities
            .iter()
            .map(|q| (q.quantity, q.max_diff))
            .collect(),
        quantities,
        beyond_format: beyond,
    })
}

fn largest(
    quantity: &'static str,
    t: &Tally,
    count: u64,
    unit: f64,
    position: String,
    near_ties: usize,
) -> Largest {
    Largest {
        quantity,
        max_diff: t.max,
        units: t.max / unit,
        index: t.at,
        position,
        tabula: t.ours,
        gnubg: t.theirs,
        mean_diff: t.sum / count.max(1) as f64,
        over: t.over,
        near_ties,
    }
}

fn mismatch(kind: Kind, file: &GnubgFile) -> Error {
    Error::BearoffFile {
        path: file.path().to_path_buf(),
        reason: format!(
            "holds {}, not the database of the table ({})",
            match file.format() {
                Format::OneSided { points, .. } =>
                    format!("a one-sided database of {points} points"),
                Format::TwoSided {
                    points, checkers, ..
                } => format!("a two-sided database of {points}x{checkers}"),
            },
            kind.line()
        ),
    }
}

/// The rolls of side `s` whose two best plays' exact expectations differ by less than
/// four units of gnubg's one-sided format (a probability unit, as an expectation of
/// rolls).
fn one_sided_ties(t: &OneSidedTable, sides: &Sides, s: u64, gammon: bool) -> Result<usize, Error> {
    let mut plays = Vec::new();
    let mut ties = 0;
    let value = |r: u32| -> Result<f64, Error> {
        let d = t.distributions(u64::from(r))?;
        let d = if gammon {
            match d.gammon_rolls {
                Some(g) => g,
                None => return Ok(0.0),
            }
        } else {
            d.rolls
        };
        Ok(d.iter().enumerate().map(|(i, p)| i as f64 * p).sum())
    };
    for k in 0..ROLLS.len() {
        sides.plays_into(s as u32, k, &mut plays);
        let mut values = plays
            .iter()
            .map(|&r| value(r))
            .collect::<Result<Vec<_>, _>>()?;
        values.sort_by(f64::total_cmp);
        ties += usize::from(values.len() > 1 && values[1] - values[0] < 4.0 * OS_UNIT);
    }
    Ok(ties)
}

/// Compares a two-sided table with gnubg's two-sided file of the same size.
pub fn compare_two_sided(t: &TwoSidedTable, file: &GnubgFile) -> Result<Comparison, Error> {
    let k = t.kind();
    let Format::TwoSided {
        points,
        checkers,
        cubeful,
    } = file.format()
    else {
        return Err(mismatch(k, file));
    };
    if (points, checkers) != (k.points, k.checkers) || k.gammons() {
        return Err(mismatch(k, file));
    }
    let index = t.index().clone();
    let n = index.sides();
    let quantities = if cubeful && k.cube { 4 } else { 1 };
    let mut tallies = [Tally::default(); 4];
    let mut compared = 0u64;
    for us in 1..n {
        for them in 1..n {
            let r = us * n + them;
            let ours = t.values_at(r)?;
            let theirs = file.two_sided(r)?;
            compared += 1;
            tallies[0].add(r, 2.0 * ours.win - 1.0, ts_value(theirs[0]), TS_UNIT);
            if let (Some(c), true) = (ours.cubeful, quantities == 4) {
                for (i, e) in [c.owned, c.centred, c.opponent_owns].iter().enumerate() {
                    tallies[1 + i].add(r, *e, ts_value(theirs[1 + i]), TS_UNIT);
                }
            }
        }
    }
    let names = ["equity", "owned", "centred", "opponent_owns"];
    let sides = Sides::new(&index);
    let list = names
        .iter()
        .zip(&tallies)
        .take(quantities)
        .map(|(&name, tally)| {
            let (us, them) = index.split(tally.at)?;
            let ties = two_sided_ties(t, &sides, us, them)?;
            Ok(largest(
                name,
                tally,
                compared,
                TS_UNIT,
                notation::pair(&index.side(us)?, &index.side(them)?),
                ties,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(Comparison {
        database: k,
        gnubg: file.format(),
        positions: compared,
        max_diff: list.iter().map(|q| (q.quantity, q.max_diff)).collect(),
        quantities: list,
        beyond_format: 0,
    })
}

/// The rolls of the pair whose two best plays' exact winning chances differ by less than
/// four units of gnubg's two-sided format.
fn two_sided_ties(t: &TwoSidedTable, sides: &Sides, us: u64, them: u64) -> Result<usize, Error> {
    let mut plays = Vec::new();
    let mut ties = 0;
    for k in 0..ROLLS.len() {
        sides.plays_into(us as u32, k, &mut plays);
        let mut values = plays
            .iter()
            .map(|&r| {
                if r == 0 {
                    Ok(1.0)
                } else {
                    t.values(them, u64::from(r)).map(|v| 1.0 - v.win)
                }
            })
            .collect::<Result<Vec<_>, Error>>()?;
        values.sort_by(|a, b| b.total_cmp(a));
        let _ = weight(k);
        ties += usize::from(values.len() > 1 && 2.0 * (values[0] - values[1]) < 4.0 * TS_UNIT);
    }
    Ok(ties)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_gnubgs_and_read_back() {
        let os = Format::OneSided {
            points: 6,
            gammon: true,
            compressed: true,
        };
        assert_eq!(
            &os.header()[..],
            b"gnubg-OS-06-15-1-1-0xxxxxxxxxxxxxxxxxxx\n"
        );
        let ts = Format::TwoSided {
            points: 6,
            checkers: 6,
            cubeful: true,
        };
        assert_eq!(
            &ts.header()[..],
            b"gnubg-TS-06-06-1xxxxxxxxxxxxxxxxxxxxxxx\n"
        );
        assert_eq!(Format::parse(&os.header()), Ok(os));
        assert_eq!(Format::parse(&ts.header()), Ok(ts));
        assert!(Format::parse(b"gnubg-H3xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n").is_err());
        assert!(Format::parse(b"gnubg-TS-13-06-1xxxxxxxxxxxxxxxxxxxxxxx\n").is_err());
    }

    #[test]
    fn a_distribution_is_stored_to_add_up_to_0xffff() {
        let third = [0.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0];
        let s = os_stored(&third);
        assert_eq!(s.iter().map(|&u| u32::from(u)).sum::<u32>(), 65535);
        assert_eq!(&s[..4], &[0, 21845, 21845, 21845]);
        assert_eq!(ts_stored(1.0), 65535);
        assert_eq!(ts_stored(-1.0), 0);
        assert!((ts_value(ts_stored(0.25)) - 0.25).abs() < TS_UNIT);
    }
}
