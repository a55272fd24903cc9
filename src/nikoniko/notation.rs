//! The notation of `docs/nikoniko.md`: `X/O` lists of checker locations (`8,8,5,2,2/8,8,5,2,2`, `bar`),
//! a dense index as a plain integer, and rolls `1-2`.

use super::index::{index_of, position_at, STATES};
use super::position::{Position, Side, BAR, CHECKERS, POINTS};
use super::Error;
use super::Roll;
use crate::error::shorten;

/// Writes one side's checkers in play, highest first (`bar,8,5,2,2`); empty when all
/// are off.
pub fn side_notation(side: &Side) -> String {
    let mut tokens = Vec::new();
    for loc in (1..=BAR).rev() {
        for _ in 0..side[loc] {
            tokens.push(if loc == BAR {
                "bar".to_string()
            } else {
                loc.to_string()
            });
        }
    }
    tokens.join(",")
}

/// The canonical notation of a position (`8,8,5,2,2/8,8,5,2,2`).
pub fn notation(p: &Position) -> String {
    format!("{}/{}", side_notation(&p.me), side_notation(&p.opp))
}

fn parse_side(text: &str, which: &'static str) -> Result<Side, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("{which} lists no checker in play"));
    }
    let mut side: Side = [0; 10];
    let mut listed = 0u8;
    for token in text.split(',') {
        let token = token.trim();
        let loc = match token {
            "bar" | "BAR" | "Bar" => BAR,
            _ => match token.parse::<usize>() {
                Ok(p) if (1..=POINTS).contains(&p) => p,
                Ok(p) => {
                    return Err(format!(
                        "{which}: point {p} does not exist (points are 1 to {POINTS}, or `bar`)"
                    ))
                }
                Err(_) if token.is_empty() => {
                    return Err(format!("{which}: an empty entry in the list"))
                }
                Err(_) => {
                    return Err(format!(
                        "{which}: unknown token `{token}` (expected a point 1 to {POINTS} or `bar`)"
                    ))
                }
            },
        };
        listed += 1;
        if listed > CHECKERS {
            return Err(format!("{which} lists more than {CHECKERS} checkers"));
        }
        side[loc] += 1;
    }
    side[0] = CHECKERS - listed;
    Ok(side)
}

/// Parses a position in the notation of `docs/nikoniko.md`, or a dense index.
pub fn parse_position(text: &str) -> Result<Position, Error> {
    position_or_reason(text).map_err(|reason| Error::Position {
        input: shorten(text),
        reason,
    })
}

fn position_or_reason(text: &str) -> Result<Position, String> {
    let text = text.trim();
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let index: u64 = text
            .parse()
            .map_err(|_| format!("the index is out of range (0 to {})", STATES - 1))?;
        return position_at(index)
            .ok_or_else(|| format!("the index is out of range (0 to {})", STATES - 1));
    }
    let Some((me, opp)) = text.split_once('/') else {
        return Err(
            "not a position: expected `X/O` (e.g. 8,8,5,2,2/8,8,5,2,2) or an index".to_string(),
        );
    };
    if opp.contains('/') {
        return Err("more than one `/`".to_string());
    }
    let me = parse_side(me, "the side on roll")?;
    let opp = parse_side(opp, "the opponent")?;
    let p = Position::new(me, opp).map_err(|f| f.to_string())?;
    debug_assert!(index_of(&p) < STATES);
    Ok(p)
}

/// Parses a roll `a-b` with dice 0, 1 or 2.
pub fn parse_roll(text: &str) -> Result<Roll, Error> {
    let bad = || Error::Roll {
        input: shorten(text),
        reason: "not a roll: expected two dice 0 to 2, like `1-2` or `0-0`".to_string(),
    };
    let (a, b) = text.trim().split_once('-').ok_or_else(bad)?;
    let die = |s: &str| match s.trim() {
        "0" => Ok(0u8),
        "1" => Ok(1),
        "2" => Ok(2),
        _ => Err(bad()),
    };
    Ok(Roll::new(die(a)?, die(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_position_is_written_as_the_docs_write_it() {
        assert_eq!(notation(&Position::OPENING), "8,8,5,2,2/8,8,5,2,2");
        assert_eq!(
            parse_position("8,8,5,2,2/8,8,5,2,2").unwrap(),
            Position::OPENING
        );
    }

    #[test]
    fn checkers_may_be_listed_in_any_order_and_print_canonically() {
        let p = parse_position("2,bar,5,8,2/8,2,5,8,2").unwrap();
        assert_eq!(notation(&p), "bar,8,5,2,2/8,8,5,2,2");
        assert_eq!(p.me[BAR], 1);
        assert_eq!(p.me[0], 0);
    }

    #[test]
    fn unlisted_checkers_are_borne_off() {
        let p = parse_position("1/1").unwrap();
        assert_eq!(p.me[0], 4);
        assert_eq!(p.opp[1], 1);
    }

    #[test]
    fn every_malformed_position_is_refused_with_its_fault() {
        let cases = [
            ("", "not a position"),
            ("8,8,5,2,2", "expected `X/O`"),
            ("8,8,5,2,2/8,8,5,2,2/1", "more than one"),
            ("9/1", "point 9 does not exist"),
            ("0/1", "point 0 does not exist"),
            ("x/1", "unknown token `x`"),
            ("1,,2/1", "empty entry"),
            ("1,1,1,1,1,1/1", "more than 5"),
            ("/1", "no checker in play"),
            ("1/", "no checker in play"),
            ("1/8", "held by both sides"),
            ("1106945", "out of range"),
            ("99999999999999999999999", "out of range"),
        ];
        for (text, fault) in cases {
            let err = parse_position(text).unwrap_err();
            assert!(
                err.to_string().contains(fault),
                "`{text}` gave `{err}`, expected `{fault}`"
            );
        }
    }

    #[test]
    fn every_state_round_trips_through_its_notation_and_its_index() {
        for (i, p) in super::super::index::all_states().iter().enumerate() {
            let text = notation(p);
            assert_eq!(parse_position(&text).ok().as_ref(), Some(p), "{text}");
            assert_eq!(parse_position(&i.to_string()).ok().as_ref(), Some(p));
        }
    }

    #[test]
    fn rolls_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_roll("1-2").unwrap(), Roll::new(1, 2));
        assert_eq!(parse_roll("2-1").unwrap(), Roll::new(1, 2));
        for bad in ["3-1", "12", "1-", "a-b", "1-2-0", ""] {
            assert!(parse_roll(bad).is_err(), "{bad}");
        }
    }
}
