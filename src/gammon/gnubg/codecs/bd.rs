//! gnubg 1.07's Hypergammon database files, `hyper<C>.bd` (`docs/gammon.md`, "gnubg's
//! Hypergammon database files").
//!
//! A 40-byte header `gnubg-H<C>` + 31 `x` + a newline, then one 28-byte record for each
//! record of [`HyperIndex::hypergammon`], in record order: five probabilities and four
//! equities as 24-bit little-endian integers, and a zero byte. An illegal record holds
//! zero values: its probabilities are 0 but its equities are 0.0, stored as `0x7FFFFF`
//! (that is what `makehyper` writes; an all-zero record is read as illegal too).
//! [`HyperFile`] reads a file through a memory map after checking its header and length;
//! [`HyperWriter`] writes one, byte for byte as `makehyper` would.

use crate::fault::shorten;
use crate::gammon::{Error, HyperIndex, Position};
use memmap2::Mmap;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Bytes of the header.
pub const HEADER_LEN: usize = 40;
/// Bytes of a record.
pub const RECORD_LEN: usize = 28;
/// The largest 24-bit value, the scale of every stored number.
pub const SCALE: u32 = 0xFF_FFFF;

const MAGIC: &[u8] = b"gnubg-H";
/// The largest checker count a one-digit header can name.
const MAX_CHECKERS: usize = 9;

/// The header of the file for `checkers` checkers (1 to 9).
pub fn header(checkers: usize) -> Result<[u8; HEADER_LEN], Error> {
    if !(1..=MAX_CHECKERS).contains(&checkers) {
        return Err(Error::Size {
            points: crate::gammon::numbering::hyper::GNUBG_POINTS,
            checkers,
            reason: "a database header names 1 to 9 checkers",
        });
    }
    let mut out = [b'x'; HEADER_LEN];
    out[..MAGIC.len()].copy_from_slice(MAGIC);
    out[MAGIC.len()] = b'0' + checkers as u8;
    out[HEADER_LEN - 1] = b'\n';
    Ok(out)
}

/// The checker count a header names, or `None` when it is not a header.
fn parse_header(bytes: &[u8]) -> Option<usize> {
    let digit = *bytes.get(MAGIC.len())?;
    let checkers = usize::from(digit.checked_sub(b'0')?);
    let want = header(checkers).ok()?;
    (bytes.get(..HEADER_LEN)? == want).then_some(checkers)
}

/// One record as stored: the nine 24-bit integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Stored {
    /// `trunc(p · 0xFFFFFF)` for win, win gammon, win backgammon, lose gammon, lose
    /// backgammon.
    pub probabilities: [u32; 5],
    /// `trunc((e / 6 + 0.5) · 0xFFFFFF)` for owned, centred, centred with Jacoby,
    /// opponent owns.
    pub equities: [u32; 4],
}

/// One position's values, for the side on roll before it rolls (money play, the cube at
/// 1): the cubeless outcome probabilities (gammons include backgammons) and the
/// no-double equities for the four cube states.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Record {
    /// Probability of winning.
    pub win: f64,
    /// Probability of winning a gammon or a backgammon.
    pub win_gammon: f64,
    /// Probability of winning a backgammon.
    pub win_backgammon: f64,
    /// Probability of losing a gammon or a backgammon.
    pub lose_gammon: f64,
    /// Probability of losing a backgammon.
    pub lose_backgammon: f64,
    /// No-double equity when the side on roll owns the cube.
    pub owned: f64,
    /// No-double equity with the cube in the centre.
    pub centred: f64,
    /// No-double equity with the cube in the centre under the Jacoby rule.
    pub centred_jacoby: f64,
    /// Equity when the other side owns the cube.
    pub opponent_owns: f64,
}

impl Record {
    /// The cubeless equity these probabilities give (a single game 1, gammon 2,
    /// backgammon 3).
    pub fn equity(&self) -> f64 {
        2.0 * self.win - 1.0 + self.win_gammon + self.win_backgammon
            - self.lose_gammon
            - self.lose_backgammon
    }

    /// The stored form. Refuses probabilities outside `0..=1` and equities outside
    /// `-3..=3` (or not numbers). A value within 1e-6 of a step of the 24-bit scale counts
    /// as that step, so that what [`Stored::record`] reads is stored again unchanged.
    pub fn stored(&self) -> Result<Stored, Error> {
        let probabilities = [
            ("win", self.win),
            ("win_gammon", self.win_gammon),
            ("win_backgammon", self.win_backgammon),
            ("lose_gammon", self.lose_gammon),
            ("lose_backgammon", self.lose_backgammon),
        ];
        let equities = [
            ("owned", self.owned),
            ("centred", self.centred),
            ("centred_jacoby", self.centred_jacoby),
            ("opponent_owns", self.opponent_owns),
        ];
        let mut out = Stored::default();
        for (slot, (what, p)) in out.probabilities.iter_mut().zip(probabilities) {
            check(what, p, 0.0, 1.0)?;
            *slot = steps(p);
        }
        for (slot, (what, e)) in out.equities.iter_mut().zip(equities) {
            check(what, e, -3.0, 3.0)?;
            *slot = steps(e / 6.0 + 0.5);
        }
        Ok(out)
    }
}

fn check(what: &'static str, value: f64, low: f64, high: f64) -> Result<(), Error> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(Error::Value {
            what,
            value,
            low,
            high,
        })
    }
}

/// `trunc(x · 0xFFFFFF)` for `x` in `0..=1`, a product within 1e-6 of a whole number
/// taken as that number.
fn steps(x: f64) -> u32 {
    let scaled = x * f64::from(SCALE);
    let nearest = scaled.round();
    let whole = if (scaled - nearest).abs() < 1e-6 {
        nearest
    } else {
        scaled.floor()
    };
    whole.clamp(0.0, f64::from(SCALE)) as u32
}

impl Stored {
    /// Reads the 28 bytes of a record; refuses a nonzero padding byte.
    pub fn from_bytes(bytes: &[u8; RECORD_LEN], record: u64) -> Result<Self, Error> {
        if bytes[RECORD_LEN - 1] != 0 {
            return Err(Error::Corrupt {
                record,
                reason: "its padding byte is not zero",
            });
        }
        let u24 = |i: usize| {
            u32::from(bytes[3 * i])
                | u32::from(bytes[3 * i + 1]) << 8
                | u32::from(bytes[3 * i + 2]) << 16
        };
        let mut out = Stored::default();
        for (i, slot) in out.probabilities.iter_mut().enumerate() {
            *slot = u24(i);
        }
        for (i, slot) in out.equities.iter_mut().enumerate() {
            *slot = u24(5 + i);
        }
        Ok(out)
    }

    /// The 28 bytes of a record.
    pub fn to_bytes(&self) -> [u8; RECORD_LEN] {
        let mut out = [0u8; RECORD_LEN];
        for (i, &value) in self.probabilities.iter().chain(&self.equities).enumerate() {
            out[3 * i..3 * i + 3].copy_from_slice(&value.to_le_bytes()[..3]);
        }
        out
    }

    /// What `makehyper` stores for an illegal record: zero probabilities and equities of
    /// 0.0, i.e. `trunc(0.5 · 0xFFFFFF) = 0x7FFFFF` each.
    pub const ILLEGAL: Stored = Stored {
        probabilities: [0; 5],
        equities: [SCALE / 2; 4],
    };

    /// Whether this is an illegal record's marker: [`Stored::ILLEGAL`], or all zeros. No
    /// legal position stores either (zero probabilities are a certain single loss, whose
    /// equities are -1).
    pub fn is_illegal(&self) -> bool {
        *self == Stored::ILLEGAL || *self == Stored::default()
    }

    /// The values: `u / 0xFFFFFF` for a probability, `(u / 0xFFFFFF − 0.5) · 6` for an
    /// equity.
    pub fn record(&self) -> Record {
        let scale = f64::from(SCALE);
        let p = |i: usize| f64::from(self.probabilities[i]) / scale;
        let e = |i: usize| (f64::from(self.equities[i]) / scale - 0.5) * 6.0;
        Record {
            win: p(0),
            win_gammon: p(1),
            win_backgammon: p(2),
            lose_gammon: p(3),
            lose_backgammon: p(4),
            owned: e(0),
            centred: e(1),
            centred_jacoby: e(2),
            opponent_owns: e(3),
        }
    }
}

/// A `hyper<C>.bd` file, memory-mapped and checked.
#[derive(Debug)]
pub struct HyperFile {
    path: PathBuf,
    map: Mmap,
    index: HyperIndex,
}

impl HyperFile {
    /// Opens a database file of any checker count, checking its header and its length.
    pub fn open(path: &Path) -> Result<Self, Error> {
        Self::open_checked(path, None)
    }

    /// Opens the database file for `checkers` checkers, refusing one for another count.
    pub fn open_for(path: &Path, checkers: usize) -> Result<Self, Error> {
        Self::open_checked(path, Some(checkers))
    }

    fn open_checked(path: &Path, expected: Option<usize>) -> Result<Self, Error> {
        let (file, found_len) = crate::table::open_input(path)?;
        // SAFETY: a one-shot reader (`compare`, `import`): a fault ends the one command
        // (see `table::map`); the length is checked against the header below.
        let map = unsafe { crate::table::map(&file, path) }?;
        let head = &map[..map.len().min(HEADER_LEN)];
        let checkers = parse_header(head).ok_or_else(|| Error::Header {
            path: path.to_path_buf(),
            found: shorten(&String::from_utf8_lossy(head).escape_debug().to_string()),
        })?;
        if let Some(expected) = expected.filter(|&e| e != checkers) {
            return Err(Error::WrongCheckers {
                path: path.to_path_buf(),
                expected,
                found: checkers,
            });
        }
        let index = HyperIndex::hypergammon(checkers)?;
        let expected_len = index.table_bytes(HEADER_LEN as u64, RECORD_LEN as u64)?;
        if found_len != expected_len {
            return Err(Error::Length {
                path: path.to_path_buf(),
                expected: expected_len,
                found: found_len,
                state: if found_len < expected_len {
                    "truncated"
                } else {
                    "too long"
                },
            });
        }
        Ok(HyperFile {
            path: path.to_path_buf(),
            map,
            index,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Checkers per side.
    pub fn checkers(&self) -> usize {
        self.index.checkers()
    }

    /// The file's index.
    pub fn index(&self) -> &HyperIndex {
        &self.index
    }

    /// Records in the file.
    pub fn records(&self) -> u64 {
        self.index.records()
    }

    /// The stored integers of a record.
    pub fn stored(&self, record: u64) -> Result<Stored, Error> {
        self.index.split(record)?;
        let start = HEADER_LEN + record as usize * RECORD_LEN;
        let bytes: &[u8; RECORD_LEN] = self.map[start..start + RECORD_LEN]
            .try_into()
            .expect("a record's length");
        Stored::from_bytes(bytes, record).map_err(|e| Error::InFile {
            path: self.path.clone(),
            source: Box::new(e),
        })
    }

    /// The values of a record, `None` for an illegal one (see [`Stored::is_illegal`]).
    pub fn record(&self, record: u64) -> Result<Option<Record>, Error> {
        let stored = self.stored(record)?;
        Ok((!stored.is_illegal()).then(|| stored.record()))
    }

    /// The values of a position, `None` for an illegal record.
    pub fn lookup(&self, position: &Position) -> Result<Option<Record>, Error> {
        self.record(self.index.record(position)?)
    }
}

/// Writes a `hyper<C>.bd` file record by record, in record order.
#[derive(Debug)]
pub struct HyperWriter<W: Write> {
    out: W,
    index: HyperIndex,
    /// Per side: the points it holds as a mask, from its own side and mirrored.
    held: Vec<(u64, u64)>,
    next: u64,
}

impl<W: Write> HyperWriter<W> {
    /// Starts a file for `checkers` checkers (1 to 9; gnubg reads 1 to 3) and writes its
    /// header.
    pub fn new(mut out: W, checkers: usize) -> Result<Self, Error> {
        let head = header(checkers)?;
        let index = HyperIndex::hypergammon(checkers)?;
        index.table_bytes(HEADER_LEN as u64, RECORD_LEN as u64)?;
        out.write_all(&head)
            .map_err(Error::io(Path::new("database")))?;
        let held = (0..index.sides())
            .map(|rank| {
                let side = index.side(rank)?;
                Ok((index.occupied(&side, false), index.occupied(&side, true)))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(HyperWriter {
            out,
            index,
            held,
            next: 0,
        })
    }

    /// The index the records follow.
    pub fn index(&self) -> &HyperIndex {
        &self.index
    }

    /// The number of the record the next [`HyperWriter::push`] writes.
    pub fn next_record(&self) -> u64 {
        self.next
    }

    /// Whether the next record is a legal position (then it needs values).
    pub fn next_is_legal(&self) -> bool {
        let n = self.index.sides();
        let (us, them) = (self.next / n, self.next % n);
        self.next < self.index.records()
            && self.held[us as usize].0 & self.held[them as usize].1 == 0
    }

    /// Writes the next record: values for a legal position, `None` for an illegal one
    /// (stored as [`Stored::ILLEGAL`]).
    pub fn push(&mut self, values: Option<&Record>) -> Result<(), Error> {
        let record = self.next;
        if record >= self.index.records() {
            return Err(Error::Records {
                record,
                reason: "the file already holds every record",
            });
        }
        let bytes = match (self.next_is_legal(), values) {
            (true, Some(values)) => values.stored()?.to_bytes(),
            (false, None) => Stored::ILLEGAL.to_bytes(),
            (true, None) => {
                return Err(Error::Records {
                    record,
                    reason: "a legal position needs values",
                })
            }
            (false, Some(_)) => {
                return Err(Error::Records {
                    record,
                    reason: "an illegal record (both sides on one point) takes no values",
                })
            }
        };
        self.out
            .write_all(&bytes)
            .map_err(Error::io(Path::new("database")))?;
        self.next += 1;
        Ok(())
    }

    /// Checks that every record was written, flushes and returns the writer.
    pub fn finish(mut self) -> Result<W, Error> {
        if self.next != self.index.records() {
            return Err(Error::Records {
                record: self.next,
                reason: "the file ends before its last record",
            });
        }
        self.out.flush().map_err(Error::io(Path::new("database")))?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_gnubg_h_the_count_31_x_and_a_newline() {
        let head = header(2).unwrap();
        assert_eq!(&head[..], b"gnubg-H2xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
        assert_eq!(parse_header(&head), Some(2));
        assert_eq!(parse_header(b"gnubg-H2xxxx"), None);
        assert!(header(0).is_err() && header(10).is_err());
    }

    #[test]
    fn every_24_bit_value_survives_reading_and_writing_again() {
        for u in 0..=SCALE {
            assert_eq!(steps(f64::from(u) / f64::from(SCALE)), u, "probability {u}");
            let e = (f64::from(u) / f64::from(SCALE) - 0.5) * 6.0;
            assert_eq!(steps(e / 6.0 + 0.5), u, "equity {u}");
        }
    }

    #[test]
    fn values_are_truncated_onto_the_24_bit_scale() {
        let record = Record {
            win: 0.5,
            win_gammon: 0.25,
            win_backgammon: 0.0,
            lose_gammon: 1.0,
            lose_backgammon: 0.1,
            owned: 1.0,
            centred: -3.0,
            centred_jacoby: 3.0,
            opponent_owns: 0.0,
        };
        let stored = record.stored().unwrap();
        // 0.5 · 16777215 = 8388607.5, 0.25 · … = 4194303.75, 0.1 · … = 1677721.5.
        assert_eq!(
            stored.probabilities,
            [8_388_607, 4_194_303, 0, SCALE, 1_677_721]
        );
        // (1/6 + 1/2) · 16777215 = 11184810, -3 → 0, 3 → all ones, 0 → 8388607.
        assert_eq!(stored.equities, [11_184_810, 0, SCALE, 8_388_607]);
        let bytes = stored.to_bytes();
        assert_eq!(&bytes[..3], &[0xFF, 0xFF, 0x7F]);
        assert_eq!(bytes[27], 0);
        assert_eq!(Stored::from_bytes(&bytes, 0).unwrap(), stored);
    }

    #[test]
    fn values_the_format_cannot_hold_are_refused() {
        let good = Record {
            win: 0.5,
            win_gammon: 0.0,
            win_backgammon: 0.0,
            lose_gammon: 0.0,
            lose_backgammon: 0.0,
            owned: 0.0,
            centred: 0.0,
            centred_jacoby: 0.0,
            opponent_owns: 0.0,
        };
        for bad in [
            Record { win: 1.5, ..good },
            Record {
                lose_gammon: -0.1,
                ..good
            },
            Record { owned: 3.5, ..good },
            Record {
                centred: f64::NAN,
                ..good
            },
        ] {
            assert!(matches!(bad.stored(), Err(Error::Value { .. })));
        }
    }

    #[test]
    fn an_illegal_record_is_stored_as_makehyper_stores_it() {
        // makehyper's hyper1.bd, record 50 (side on roll on its 1 point, the other on its
        // 24): zero probabilities, four equities of 0.0.
        let bytes = Stored::ILLEGAL.to_bytes();
        assert_eq!(&bytes[..15], &[0; 15]);
        assert_eq!(&bytes[15..27], &[0xFF, 0xFF, 0x7F].repeat(4)[..]);
        // 0.0 truncated: half a step of the equity scale below zero when read back.
        let zero = Stored::ILLEGAL.record();
        assert_eq!(zero.win, 0.0);
        let half_step = 3.0 / f64::from(SCALE);
        for e in [
            zero.owned,
            zero.centred,
            zero.centred_jacoby,
            zero.opponent_owns,
        ] {
            assert!((e + half_step).abs() < 1e-12, "{e}");
        }
        assert_eq!(zero.stored().unwrap(), Stored::ILLEGAL);
    }

    #[test]
    fn a_nonzero_padding_byte_is_corrupt() {
        let mut bytes = [0u8; RECORD_LEN];
        bytes[27] = 1;
        assert!(matches!(
            Stored::from_bytes(&bytes, 7),
            Err(Error::Corrupt { record: 7, .. })
        ));
    }
}
