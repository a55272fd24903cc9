//! `import`: gnubg's `hyper<C>.bd` database read into a family table and its cube table
//! (`docs/gammon.md`, "gnubg interchange"), so that every query answers from gnubg's own
//! values. The tables say where their values came from: their variant line ends in
//! `from gnubg`.

use crate::gammon::gnubg::codecs::bd::HyperFile;
use crate::gammon::notation::check;
use crate::gammon::store::{self, Written};
use crate::gammon::variant::BuiltIn;
use crate::gammon::{Error, Numbers};
use crate::table;
use serde::Serialize;
use std::path::Path;

/// What an import wrote.
#[derive(Debug, Clone, Serialize)]
pub struct Imported {
    /// The variant (Hypergammon with the file's checker count).
    pub variant: String,
    /// The records read and written.
    pub records: u64,
    /// The tables published: the cubeless one, then the cube table.
    pub tables: Vec<Written>,
}

/// Writes the values of gnubg's database `file` as the family table at `path` and its
/// cube table beside it, all or nothing. The records that are not positions with play
/// left (illegal, or a side already off) are all zero, as in a table tabula builds.
pub fn import(file: &HyperFile, path: &Path) -> Result<Imported, Error> {
    table::refuse_same(path, file.path())?;
    let built_in = match file.checkers() {
        1 => BuiltIn::Hyper1,
        2 => BuiltIn::Hyper2,
        3 => BuiltIn::Hyper3,
        c => {
            return Err(Error::Variant {
                reason: format!("a database of {c} checkers: tabula knows Hypergammon 1 to 3"),
            })
        }
    };
    let variant = built_in.variant();
    let numbers = Numbers::new(&variant)?;
    let records = numbers.records();
    let cube_file = store::cube_path(path);
    table::prepare(
        &[path, &cube_file],
        table::file_len(24, records) + table::file_len(16, records),
    )?;
    let mut cubeless = vec![[0u32; 6]; records as usize];
    let mut cube = vec![[0u32; 4]; records as usize];
    for r in 0..records {
        let live = check(&variant, &numbers.position(r)?).is_ok();
        let Some(values) = file.record(r)?.filter(|_| live) else {
            continue;
        };
        // Each of gnubg's values is a whole number of its steps; stored rounded up to
        // the table's finer unit, it reads back at or just above that step, so an export
        // truncates it to the same step: import then export gives gnubg's file again.
        let chance = |p: f64| (p * store::CHANCE_SCALE).ceil().min(store::CHANCE_SCALE) as u32;
        let equity = |e: f64| ((e * store::EQUITY_SCALE).ceil() as i32) as u32;
        cubeless[r as usize] = [
            ((values.equity() * store::EQUITY_SCALE).round() as i32) as u32,
            chance(values.win),
            chance(values.win_gammon),
            chance(values.win_backgammon),
            chance(values.lose_gammon),
            chance(values.lose_backgammon),
        ];
        cube[r as usize] = [
            values.owned,
            values.centred,
            values.centred_jacoby,
            values.opponent_owns,
        ]
        .map(equity);
    }
    let tables = store::publish(&variant, path, &cubeless, Some(&cube), true)?;
    Ok(Imported {
        variant: variant.name(),
        records,
        tables,
    })
}
