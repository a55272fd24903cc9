//! `export`: a family table of Hypergammon 1-3 (and its cube table) written as gnubg
//! 1.07's `hyper<C>.bd` database (`docs/gammon.md`, "gnubg's Hypergammon database
//! files"), through the tables' atomic writer.

use crate::gammon::gnubg::codecs::bd::{HyperWriter, Record};
use crate::gammon::notation::check;
use crate::gammon::store::{self, decode_cube, decode_outcomes, Tables};
use crate::gammon::variant::Numbering;
use crate::gammon::{Cubeful, Error, Evaluator};
use std::path::Path;

/// The most checkers a side has in a database gnubg reads.
pub const MAX_CHECKERS: usize = 3;

/// Writes the table at `path` as gnubg 1.07's `hyper<C>.bd`, with the no-double
/// equities of the cube table, or 0 when the cube was not solved; atomically (see
/// [`crate::table::write_file`]). Returns the records written.
pub fn export(tables: &Tables, path: &Path) -> Result<u64, Error> {
    let variant = tables.variant();
    if variant.numbering != Numbering::Gnubg
        || variant.points != crate::gammon::gnubg::codecs::position_id::POINTS
        || variant.checkers > MAX_CHECKERS
    {
        return Err(Error::Variant {
            reason: format!(
                "{} is not Hypergammon 1-3: gnubg reads no database of it",
                variant.name()
            ),
        });
    }
    let (records, cube) = store::records(tables)?;
    let cube = cube.as_deref();
    let numbers = tables.numbers();
    crate::table::write_file(path, |out| -> Result<(), Error> {
        let mut writer = HyperWriter::new(out, variant.checkers)?;
        for (r, rec) in records.iter().enumerate() {
            if !writer.next_is_legal() {
                writer.push(None)?;
                continue;
            }
            let p = numbers.position(r as u64)?;
            let o = decode_outcomes(rec);
            let live = check(variant, &p).is_ok();
            let c = match cube {
                Some(c) if live => decode_cube(&c[r]),
                _ => Cubeful::default(),
            };
            let values = Record {
                win: if live { o.win } else { 0.0 },
                win_gammon: o.win_gammon,
                win_backgammon: o.win_backgammon,
                lose_gammon: o.lose_gammon,
                lose_backgammon: o.lose_backgammon,
                owned: c.owned,
                centred: c.centred,
                centred_jacoby: c.centred_jacoby,
                opponent_owns: c.opponent_owns,
            };
            writer.push(Some(&values))?;
        }
        writer.finish()?;
        Ok(())
    })
    .map_err(|e| match e {
        // The writer knows no file name: the user's path, not the temporary one.
        Error::Io { source, .. } => Error::Io {
            path: path.to_path_buf(),
            source,
        },
        e => e,
    })?;
    Ok(records.len() as u64)
}
