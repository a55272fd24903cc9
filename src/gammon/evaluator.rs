//! What a solved table answers, whatever its format: the one interface through which the
//! queries ([`super::query`]), the game ([`super::game`]) and the Bellman check
//! ([`super::verify`]) read a table. The family's table ([`super::store::Tables`])
//! implements it, and so does any member's own format (the NikoNiko article's 2-byte
//! table, `crate::nikoniko::store::Tables`).

use super::{Cubeful, Error, Numbers, Outcomes, Position, Variant};
use std::path::Path;

/// How far a table's stored values may stray from the exact ones by rounding alone: what
/// the Bellman check ([`super::verify::verify`]) allows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The largest gap between a stored equity and one Bellman sweep over the stored
    /// equities.
    pub bellman: f64,
    /// The largest gap between a stored equity and the equity of the stored chances.
    pub outcome: f64,
    /// The largest gap between the stored chances' total and 1.
    pub total: f64,
}

/// A solved table of one variant, read position by position (values for the side on
/// roll, before it rolls, the cube's value 1).
pub trait Evaluator: Sync {
    /// The variant the table solves.
    fn variant(&self) -> &Variant;

    /// How the table numbers positions.
    fn numbers(&self) -> &Numbers;

    /// The table's main file, for messages.
    fn path(&self) -> &Path;

    /// The cubeless equity of record `record`.
    fn equity_at(&self, record: u64) -> Result<f64, Error>;

    /// The outcome chances of record `record`.
    fn outcomes_at(&self, record: u64) -> Result<Outcomes, Error>;

    /// The four no-double equities of record `record`, when the table keeps the cube.
    fn cubeful_at(&self, record: u64) -> Result<Option<Cubeful>, Error> {
        let _ = record;
        Ok(None)
    }

    /// Whether the table keeps the cube's no-double equities.
    fn has_cube(&self) -> bool {
        false
    }

    /// Checks every block and every payload checksum of the table's files.
    fn verify_checksums(&self) -> Result<(), Error>;

    /// Whether a file the table reads has been replaced or changed since it was opened
    /// (`crate::table::Table::changed`): a long-lived reader then opens it again.
    fn changed(&self) -> bool {
        false
    }

    /// What rounding alone allows the stored values to stray (see [`Bounds`]).
    fn bounds(&self) -> Bounds;

    /// The record of a legal position with play left.
    fn record(&self, p: &Position) -> Result<u64, Error> {
        self.numbers().record(p)
    }

    /// The cubeless equity of a legal position with play left.
    fn equity(&self, p: &Position) -> Result<f64, Error> {
        self.equity_at(self.record(p)?)
    }

    /// The outcome chances of a legal position with play left.
    fn outcomes(&self, p: &Position) -> Result<Outcomes, Error> {
        self.outcomes_at(self.record(p)?)
    }

    /// The four no-double equities of a legal position with play left, when the table
    /// keeps the cube.
    fn cubeful(&self, p: &Position) -> Result<Option<Cubeful>, Error> {
        self.cubeful_at(self.record(p)?)
    }

    /// Nothing when the table keeps the cube; else an error naming the table.
    fn cube_required(&self) -> Result<(), Error> {
        if self.has_cube() {
            return Ok(());
        }
        Err(Error::NoCube {
            path: self.path().to_path_buf(),
            hint: None,
        })
    }

    /// The four no-double equities, or an error naming the table when it keeps none.
    fn cubeful_required(&self, p: &Position) -> Result<Cubeful, Error> {
        self.cubeful(p)?.ok_or_else(|| Error::NoCube {
            path: self.path().to_path_buf(),
            hint: None,
        })
    }
}
