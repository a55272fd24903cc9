//! A tabula table written as gnubg's bear-off file, byte for byte as `makebearoff`
//! writes one, atomically.

use super::{os_stored, ts_stored, Format, ROLLS_KEPT};
use crate::gammon::bearoff::index::MAX_CHECKERS;
use crate::gammon::bearoff::one_sided::CHECKERS;
use crate::gammon::bearoff::store::{OneSidedTable, TwoSidedTable};
use crate::gammon::Error;
use std::io::Write;
use std::path::Path;

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
