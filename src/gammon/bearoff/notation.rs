//! Bear-off positions as text (`docs/bearoff.md`, "Command line"): one side as the points
//! of its checkers, highest first (`6,6,5,3,1`; `-` for a side with none); two sides as
//! `ROLLER/OPPONENT`; or a gnubg Position ID; or an index (a side's rank, or a pair's
//! record `roller · n + opponent`). A lone checker on point `p` is side `p`, so the number
//! `p` means the same side read either way.
//!
//! ```
//! use tabula::gammon::bearoff::{notation, BearoffIndex};
//!
//! let index = BearoffIndex::new(6, 6).unwrap();
//! let (us, them) = notation::parse_pair(&index, "6,5/2,1").unwrap();
//! assert_eq!(notation::pair(&index.side(us).unwrap(), &index.side(them).unwrap()), "6,5/2,1");
//! assert_eq!(notation::parse_side(&index, "3").unwrap(), 3);
//! assert_eq!(notation::parse_side(&index, "-").unwrap(), 0);
//! ```

use super::index::BearoffIndex;
use crate::gammon::gnubg::{position_id, xgid};
use crate::gammon::Error;

/// A side as text: its checkers' points, highest first; `-` for none.
pub fn side(counts: &[u8]) -> String {
    let mut items = Vec::new();
    for (q, &c) in counts.iter().enumerate().rev() {
        for _ in 0..c {
            items.push((q + 1).to_string());
        }
    }
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join(",")
    }
}

/// Two sides as text, the side on roll first.
pub fn pair(us: &[u8], them: &[u8]) -> String {
    format!("{}/{}", side(us), side(them))
}

fn input(text: &str, reason: String) -> Error {
    Error::Input {
        what: "position",
        input: crate::fault::excerpt(text),
        reason,
    }
}

/// Reads one side written as its checkers' points (`-` for none) into counts.
fn side_counts(index: &BearoffIndex, text: &str, whole: &str) -> Result<Vec<u8>, Error> {
    let t = text.trim();
    let p = index.points();
    let mut counts = vec![0u8; p];
    if t == "-" {
        return Ok(counts);
    }
    let mut total = 0usize;
    for item in t.split(',') {
        let item = item.trim();
        let point: usize = item.parse().map_err(|_| {
            input(
                whole,
                format!("{} is not a point (1 to {p})", crate::fault::shorten(item)),
            )
        })?;
        if !(1..=p).contains(&point) {
            return Err(input(
                whole,
                format!("point {point} is outside the database's points 1 to {p}"),
            ));
        }
        total += 1;
        if total > index.checkers() {
            return Err(input(
                whole,
                format!("more than {} checkers on a side", index.checkers()),
            ));
        }
        counts[point - 1] += 1;
    }
    Ok(counts)
}

fn all_digits(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
}

/// Reads one side: its checkers' points, `-`, a side's rank, or a Position ID (its side
/// on roll). Returns its rank.
pub fn parse_side(index: &BearoffIndex, text: &str) -> Result<u64, Error> {
    let t = text.trim();
    if all_digits(t) {
        let rank: u64 = t.parse().map_err(|_| out_of_range(index.sides(), text))?;
        if rank >= index.sides() {
            return Err(out_of_range(index.sides(), text));
        }
        return Ok(rank);
    }
    if t.len() == position_id::LEN {
        if let Ok(p) = position_id::decode(t) {
            return Ok(index
                .ranks_of(&p)
                .map_err(|e| input(text, e.to_string()))?
                .0);
        }
    }
    if xgid::looks_like(t) {
        let p = xgid::parse(t)?.position;
        return Ok(index
            .ranks_of(&p)
            .map_err(|e| input(text, e.to_string()))?
            .0);
    }
    if t.contains('/') {
        return Err(input(
            text,
            "one side expected (a one-sided database), not two".into(),
        ));
    }
    index.rank(&side_counts(index, t, text)?)
}

fn out_of_range(len: u64, text: &str) -> Error {
    input(
        text,
        format!("the index is out of range (0 to {})", len.saturating_sub(1)),
    )
}

/// Reads two sides: `ROLLER/OPPONENT`, a pair's record, or a Position ID. Returns the
/// two ranks, the side on roll first.
pub fn parse_pair(index: &BearoffIndex, text: &str) -> Result<(u64, u64), Error> {
    let pair = pair_of(index, text)?;
    // Both sides off is no position: the game ended with the last checker borne off.
    let off = index.rank(&vec![0u8; index.points()])?;
    if pair == (off, off) {
        return Err(input(
            text,
            "both sides have borne off every checker: the game is over".into(),
        ));
    }
    Ok(pair)
}

fn pair_of(index: &BearoffIndex, text: &str) -> Result<(u64, u64), Error> {
    let t = text.trim();
    if all_digits(t) {
        let record: u64 = t.parse().map_err(|_| out_of_range(index.pairs(), text))?;
        if record >= index.pairs() {
            return Err(out_of_range(index.pairs(), text));
        }
        return index.split(record);
    }
    // A Position ID may hold a `/`; notation never decodes as one (its commas).
    if t.len() == position_id::LEN {
        if let Ok(p) = position_id::decode(t) {
            return index.ranks_of(&p).map_err(|e| input(text, e.to_string()));
        }
    }
    if xgid::looks_like(t) {
        let p = xgid::parse(t)?.position;
        return index.ranks_of(&p).map_err(|e| input(text, e.to_string()));
    }
    if let Some((us, them)) = t.split_once('/') {
        if them.contains('/') {
            return Err(input(text, "more than one `/`".into()));
        }
        let us = index.rank(&side_counts(index, us, text)?)?;
        let them = index.rank(&side_counts(index, them, text)?)?;
        return Ok((us, them));
    }
    Err(input(
        text,
        "expected ROLLER/OPPONENT (each side's checkers' points, such as 6,6,5/3,1; - for a \
         side with none), a record number, a gnubg Position ID or an XGID"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_and_pairs_read_back_and_bad_ones_are_refused() {
        let index = BearoffIndex::new(6, 15).unwrap();
        let r = parse_side(&index, "6,6,5,3,1").unwrap();
        assert_eq!(side(&index.side(r).unwrap()), "6,6,5,3,1");
        assert_eq!(parse_side(&index, "1,3,5,6,6").unwrap(), r);
        assert!(parse_side(&index, "7").is_ok()); // an index
        assert!(parse_side(&index, "7,1")
            .unwrap_err()
            .to_string()
            .contains("point 7"));
        assert!(parse_side(&index, "x").is_err());
        assert!(parse_side(&index, "54264").is_err());
        assert!(parse_pair(&index, "6/5/4").is_err());
        let (us, them) = parse_pair(&index, "-/6,6").unwrap();
        assert_eq!(us, 0);
        assert_eq!(
            pair(&index.side(us).unwrap(), &index.side(them).unwrap()),
            "-/6,6"
        );
        let sixteen = vec!["1"; 16].join(",");
        assert!(parse_side(&index, &sixteen).is_err());
    }

    #[test]
    fn a_position_id_names_the_same_pair() {
        let index = BearoffIndex::new(6, 15).unwrap();
        let (us, them) = parse_pair(&index, "6,5,4/3,2,1").unwrap();
        let p = index.position(us, them).unwrap();
        let id = position_id::encode(&p).unwrap();
        assert_eq!(parse_pair(&index, &id).unwrap(), (us, them));
        // gnubg's starting position is not a bear-off.
        assert!(parse_pair(&index, "4HPwATDgc/ABMA").is_err());
    }
}
