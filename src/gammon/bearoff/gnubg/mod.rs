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

use super::index::BearoffIndex;
use super::one_sided::CHECKERS;
use crate::gammon::Error;
use memmap2::Mmap;
use serde::Serialize;
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

mod compare;
mod export;

pub use compare::{compare_one_sided, compare_two_sided, Comparison, Largest};
pub use export::{export, Source};

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
