//! How the family numbers positions (`docs/gammon.md`, "gnubg's index", and
//! `docs/nikoniko.md`, "States and the dense index"): gnubg's Hypergammon index
//! ([`HyperIndex`]) and the NikoNiko article's dense index ([`SeedIndex`]), side by side.
//! A variant says which of the two its tables use ([`Numbering`]); the solver runs on
//! either.

pub mod hyper;
pub mod seed;

pub use hyper::{Counts, HyperIndex};
pub use seed::SeedIndex;

use super::variant::{Numbering, Variant};
use super::{Error, Position};
use rayon::prelude::*;
use serde::Serialize;

/// How many positions a variant has, counted in closed form.
#[derive(Debug, Clone, Serialize)]
pub struct Census {
    /// The variant's name.
    pub variant: String,
    /// Its rules.
    pub rules: Variant,
    /// Records in one of its tables (see [`Numbers::records`]).
    pub records: u64,
    /// Positions whose sides share no point (gnubg's legal records).
    pub legal: u64,
    /// States: legal positions in which neither side has finished.
    pub states: u64,
}

/// The [`Census`] of a variant.
pub fn census(variant: &Variant) -> Result<Census, Error> {
    variant.check()?;
    let numbers = Numbers::new(variant)?;
    let legal = numbers.hyper().counts().legal;
    Ok(Census {
        variant: variant.name(),
        rules: variant.clone(),
        records: numbers.records(),
        legal: match numbers.numbering() {
            Numbering::Seed => numbers.records(),
            Numbering::Gnubg => legal,
        },
        states: super::solver::state_count(variant)?,
    })
}

/// The numbering of a variant's positions: record numbers and back.
#[derive(Debug, Clone)]
pub struct Numbers {
    hyper: HyperIndex,
    seed: Option<SeedIndex>,
}

impl Numbers {
    /// The numbering of `variant`.
    pub fn new(variant: &Variant) -> Result<Numbers, Error> {
        let hyper = variant.hyper_index()?;
        let seed = match variant.numbering {
            Numbering::Seed => Some(SeedIndex::new(variant.points, variant.checkers)?),
            Numbering::Gnubg => None,
        };
        Ok(Numbers { hyper, seed })
    }

    /// Which numbering this is.
    pub fn numbering(&self) -> Numbering {
        match self.seed {
            Some(_) => Numbering::Seed,
            None => Numbering::Gnubg,
        }
    }

    /// gnubg's index of the variant's board (the solver numbers sides with it, whatever
    /// the tables' numbering).
    pub fn hyper(&self) -> &HyperIndex {
        &self.hyper
    }

    /// Records in a table: the article's states, or gnubg's records (illegal and
    /// finished ones included).
    pub fn records(&self) -> u64 {
        match &self.seed {
            Some(seed) => seed.states(),
            None => self.hyper.records(),
        }
    }

    /// The record of a legal position with play left.
    pub fn record(&self, p: &Position) -> Result<u64, Error> {
        match &self.seed {
            Some(seed) => {
                if p.points() != seed.points() {
                    return Err(Error::Position {
                        reason: format!(
                            "a position on {} points, the index numbers {}",
                            p.points(),
                            seed.points()
                        ),
                    });
                }
                if let Some(point) = p.clash() {
                    return Err(Error::Clash { point });
                }
                let c = seed.checkers();
                if [p.us_in_play(), p.them_in_play()]
                    .iter()
                    .any(|&n| n == 0 || n > c)
                {
                    return Err(Error::Position {
                        reason: format!("not a state of {c} checkers a side with play left"),
                    });
                }
                Ok(seed.index(p))
            }
            None => self.hyper.legal_record(p),
        }
    }

    /// The position of a record (any, legal or not, for gnubg's numbering).
    pub fn position(&self, record: u64) -> Result<Position, Error> {
        match &self.seed {
            Some(seed) => seed.position(record).ok_or(Error::OutOfRange {
                what: "index",
                number: record,
                len: seed.states(),
            }),
            None => self.hyper.position(record),
        }
    }

    /// The record of every state of a solve (pairs of gnubg side numbers, in the order
    /// the solver lists them: see `solver::states`). For the article's numbering that
    /// order is the index itself.
    pub(crate) fn records_of(&self, states: &[(u16, u16)]) -> Vec<u64> {
        match &self.seed {
            Some(_) => (0..states.len() as u64).collect(),
            None => {
                let n = self.hyper.sides();
                states
                    .par_iter()
                    .map(|&(me, opp)| u64::from(me) * n + u64::from(opp))
                    .collect()
            }
        }
    }

    /// The article's index, for a variant numbered by it.
    pub(crate) fn seed(&self) -> Option<&SeedIndex> {
        self.seed.as_ref()
    }
}
