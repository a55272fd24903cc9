//! The family's questions from their arguments to their typed answers, once for both
//! doors: the command line (`super::show` … print the answer as text or `--json`) and the
//! HTTP server (`crate::cmd::serve` sends the same answer as JSON). Each reads its input
//! before it opens a table, so that bad input is refused before a table is looked for.

use super::handle::Handle;
use std::borrow::Borrow;
use tabula::gammon::query::{self, Evaluation, Hint, Looked, Moves, Opening};
use tabula::gammon::{notation, CubeState, Numbers, Position, Roll, Variant};
use tabula::Result;

/// A position of `v` as given (notation, index, Position ID or XGID); a backgammon
/// position is told where tabula answers it.
pub fn position(v: &Variant, text: &str) -> Result<Position> {
    Ok(notation::parse_position(v, text).map_err(|e| match &e {
        tabula::gammon::Error::Backgammon {
            bearoff: Some(pair),
            ..
        } => {
            // The two-sided table must hold as many checkers as the fuller side.
            let most = pair
                .split('/')
                .map(|s| s.split(',').filter(|p| *p != "-").count())
                .max()
                .unwrap_or(0);
            let size = match most > 6 {
                true => format!(" --checkers {most}"),
                false => String::new(),
            };
            let hint = format!(
                "ask `tabula bearoff equity {pair}{size}` or `tabula bearoff hint {pair} ROLL{size}`"
            );
            e.with_hint(&hint)
        }
        _ => e,
    })?)
}

/// A position and a roll of `v` as given.
pub fn position_and_roll(v: &Variant, position_text: &str, roll: &str) -> Result<(Position, Roll)> {
    Ok((position(v, position_text)?, notation::parse_roll(v, roll)?))
}

/// `show`: the position looked up in `numbers` (the variant's numbering).
pub fn show(v: &Variant, numbers: &Numbers, position_text: &str) -> Result<Looked> {
    let p = position(v, position_text)?;
    Ok(query::look(v, numbers, &p)?)
}

/// `moves`: every distinct legal play of `roll`.
pub fn moves(v: &Variant, numbers: &Numbers, position_text: &str, roll: &str) -> Result<Moves> {
    let (p, roll) = position_and_roll(v, position_text, roll)?;
    Ok(query::moves(v, numbers, &p, roll)?)
}

/// `equity`: the position's values in the table `open` opens, and the cube decision in
/// cube state `cube` where the table keeps the cube.
pub fn equity<H: Borrow<Handle>>(
    v: &Variant,
    open: impl FnOnce() -> Result<H>,
    position_text: &str,
    cube: CubeState,
) -> Result<Evaluation> {
    let p = position(v, position_text)?;
    let h = open()?;
    let h = h.borrow();
    h.advise(query::evaluate(h.table.as_ref(), &p, cube))
}

/// `hint`: the plays of `roll`, best first, ranked by the cubeful equity of `cube` when
/// given, else cubeless.
pub fn hint<H: Borrow<Handle>>(
    v: &Variant,
    open: impl FnOnce() -> Result<H>,
    position_text: &str,
    roll: &str,
    cube: Option<CubeState>,
) -> Result<Hint> {
    let (p, roll) = position_and_roll(v, position_text, roll)?;
    let h = open()?;
    let h = h.borrow();
    h.advise(query::hint(h.table.as_ref(), &p, roll, cube))
}

/// `opening`: each first roll's best play and the opening-roll winner's equity.
pub fn opening(h: &Handle) -> Result<Opening> {
    h.advise(query::opening(h.table.as_ref()))
}
