//! Positions and rolls of any variant as text (`docs/gammon.md`, "Notation"): `X/O`, each
//! side a comma-separated list of the points of its checkers in play in its own numbering
//! (`bar` for the bar), the side on roll first, as NikoNiko writes them; or a record
//! number of the variant's index; or, on 24 points, a gnubg Position ID.

use super::gnubg::{position_id, xgid};
use super::moves::off;
use super::{Error, Numbers, Position, Roll, Variant};

/// A position as text: the points of each side, highest first, `bar` first of all.
pub fn notation(variant: &Variant, p: &Position) -> String {
    let side = |s: &[u8]| {
        let bar = variant.points;
        let mut items = Vec::new();
        for _ in 0..s[bar] {
            items.push("bar".to_string());
        }
        for point in (1..=variant.points).rev() {
            for _ in 0..s[point - 1] {
                items.push(point.to_string());
            }
        }
        items.join(",")
    };
    format!("{}/{}", side(p.us()), side(p.them()))
}

fn input(what: &'static str, text: &str, reason: String) -> Error {
    Error::Input {
        what,
        input: crate::fault::excerpt(text),
        reason,
    }
}

/// Reads a position of `variant` (notation, record number or Position ID) and checks it:
/// the right number of checkers a side, no point held by both, each side with a checker
/// in play.
pub fn parse_position(variant: &Variant, text: &str) -> Result<Position, Error> {
    let t = text.trim();
    let bad = |reason: String| input("position", text, reason);
    let p = if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        let numbers = Numbers::new(variant)?;
        let out_of_range = || {
            bad(format!(
                "the index is out of range (0 to {})",
                numbers.records() - 1
            ))
        };
        let record: u64 = t.parse().map_err(|_| out_of_range())?;
        if record >= numbers.records() {
            return Err(out_of_range());
        }
        numbers.position(record).map_err(|e| bad(e.to_string()))?
    } else if xgid::looks_like(t) {
        if variant.points != position_id::POINTS {
            return Err(bad(format!(
                "an XGID describes the 24-point board, {} has {} points",
                variant.title(),
                variant.points
            )));
        }
        xgid::parse(t)?.position
    } else if let Some((us, them)) = t.split_once('/') {
        if them.contains('/') {
            return Err(bad("more than one `/`".to_string()));
        }
        let read = |most| -> Result<Position, Error> {
            Position::new(
                &side(variant, us, &bad, most)?,
                &side(variant, them, &bad, most)?,
            )
        };
        match read(variant.checkers) {
            Ok(p) => p,
            // Backgammon's 15 a side, listed for a smaller member: recognised below.
            Err(e) => match read(15) {
                Ok(p)
                    if variant.points == position_id::POINTS
                        && backgammon(variant, &p).is_some() =>
                {
                    p
                }
                _ => return Err(e),
            },
        }
    } else if variant.points == position_id::POINTS && t.len() == position_id::LEN {
        let p = position_id::decode(t)?;
        if p.points() != 24 {
            return Err(bad("not a 24-point position".to_string()));
        }
        p
    } else {
        return Err(bad(format!(
            "expected X/O (the points of each side's checkers, e.g. {}), an index{}",
            notation(variant, &variant.opening()),
            if variant.points == position_id::POINTS {
                ", a gnubg Position ID or an XGID"
            } else {
                ""
            }
        )));
    };
    if let Some(bearoff) = backgammon(variant, &p) {
        return Err(Error::Backgammon {
            input: crate::fault::excerpt(text),
            variant: variant.title(),
            bearoff,
            hint: None,
        });
    }
    check(variant, &p).map_err(bad)?;
    Ok(p)
}

/// Whether `p` is a position of backgammon itself (15 checkers a side on 24 points, all
/// on the board or borne off) given for a smaller member; then its bear-off pair
/// (`ROLLER/OPPONENT`, each side's checkers' points, `-` for none) when every checker of
/// both sides is home.
fn backgammon(variant: &Variant, p: &Position) -> Option<Option<String>> {
    const HOME: usize = 6;
    let backgammon = p.points() == position_id::POINTS
        && variant.checkers < 15
        // More than any Hypergammon holds, and more than the variant's.
        && p.us_in_play().max(p.them_in_play()) > variant.checkers.max(3)
        && p.us_in_play() <= 15
        && p.them_in_play() <= 15;
    if !backgammon {
        return None;
    }
    let home = |s: &[u8]| s[HOME..].iter().all(|&c| c == 0);
    if !home(p.us()) || !home(p.them()) {
        return Some(None);
    }
    let side = |s: &[u8]| {
        let points: Vec<String> = (1..=HOME)
            .rev()
            .flat_map(|point| std::iter::repeat_n(point.to_string(), usize::from(s[point - 1])))
            .collect();
        match points.is_empty() {
            true => "-".to_string(),
            false => points.join(","),
        }
    };
    Some(Some(format!("{}/{}", side(p.us()), side(p.them()))))
}

/// Why `p` is not a position of `variant` with play left, if it is not.
pub fn check(variant: &Variant, p: &Position) -> Result<(), String> {
    if p.points() != variant.points {
        return Err(format!(
            "a position on {} points, the variant has {}",
            p.points(),
            variant.points
        ));
    }
    for (name, s) in [("the side on roll", p.us()), ("the opponent", p.them())] {
        let on: usize = s.iter().map(|&c| usize::from(c)).sum();
        if on > variant.checkers {
            return Err(format!(
                "{name} has {on} checkers in play, the variant has {} a side",
                variant.checkers
            ));
        }
        if off(s, variant.checkers) == variant.checkers {
            return Err(format!("{name} has no checker in play: the game is over"));
        }
    }
    if let Some(point) = p.clash() {
        return Err(format!(
            "point {point} of the side on roll (the opponent's {}) is held by both sides",
            variant.points + 1 - point
        ));
    }
    Ok(())
}

/// One side's list: points `1..=P` or `bar`, comma-separated (empty: all off).
fn side(
    variant: &Variant,
    text: &str,
    bad: &dyn Fn(String) -> Error,
    most: usize,
) -> Result<Vec<u8>, Error> {
    let mut slots = vec![0u8; variant.points + 1];
    if text.trim().is_empty() {
        return Ok(slots);
    }
    let p = variant.points;
    for (listed, token) in text.split(',').map(str::trim).enumerate() {
        let slot = if token.eq_ignore_ascii_case("bar") {
            p
        } else {
            match token.parse::<usize>() {
                Ok(point) if (1..=p).contains(&point) => point - 1,
                Ok(point) => {
                    return Err(bad(format!(
                        "point {point} does not exist (points are 1 to {p}, or `bar`)"
                    )))
                }
                Err(_) if token.is_empty() => {
                    return Err(bad("an empty entry in a list of points".to_string()))
                }
                Err(_) => {
                    return Err(bad(format!(
                        "unknown token `{}` (expected a point 1 to {p} or `bar`)",
                        crate::fault::excerpt(token)
                    )))
                }
            }
        };
        if listed >= most {
            return Err(bad(format!(
                "a side lists more than {} checkers",
                variant.checkers
            )));
        }
        slots[slot] += 1;
    }
    Ok(slots)
}

/// Reads a roll `a-b` of the variant's faces, each die written as a plain number, or as
/// gnubg writes it, `ab` (`65`).
pub fn parse_roll(variant: &Variant, text: &str) -> Result<Roll, Error> {
    let faces = variant
        .faces
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let bad = || {
        input(
            "roll",
            text,
            format!("not a roll: expected two dice of the faces {faces}, like `1-2` or `12`"),
        )
    };
    let t = text.trim();
    // `6-5`, or gnubg's `65` (two single-digit dice).
    let (a, b) = match t.split_once('-') {
        Some(dice) => dice,
        None if t.len() == 2 && t.is_char_boundary(1) => t.split_at(1),
        None => return Err(bad()),
    };
    let die = |t: &str| -> Result<u8, Error> {
        let t = t.trim();
        match variant.faces.iter().find(|f| f.to_string() == t) {
            Some(&d) => Ok(d),
            None => Err(bad()),
        }
    };
    Ok(Roll::new(die(a)?, die(b)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hyper3_opening_reads_from_its_notation_its_record_and_its_position_id() {
        let v = Variant::built_in("hyper3").unwrap();
        let opening = v.opening();
        assert_eq!(notation(&v, &opening), "24,23,22/24,23,22");
        let from_text = parse_position(&v, "24,23,22/24,23,22").unwrap();
        let record = Numbers::new(&v).unwrap().record(&opening).unwrap();
        let from_record = parse_position(&v, &record.to_string()).unwrap();
        let id = position_id::encode(&opening).unwrap();
        let from_id = parse_position(&v, &id).unwrap();
        assert_eq!(
            (&from_text, &from_record, &from_id),
            (&opening, &opening, &opening)
        );
    }

    #[test]
    fn a_bad_position_is_refused_with_the_fault_named() {
        let v = Variant::built_in("hyper2").unwrap();
        let fault = |t: &str| parse_position(&v, t).unwrap_err().to_string();
        assert!(fault("24,23,22/24,23").contains("lists more than 2 checkers"));
        assert!(fault("24,24,24/24,23").contains("more than 2"));
        assert!(fault("25,23/24,23").contains("point 25 does not exist"));
        assert!(fault("x,23/24,23").contains("unknown token `x`"));
        assert!(fault("/24,23").contains("no checker in play"));
        assert!(fault("3,2/23,20").contains("held by both"));
        assert!(fault("nonsense").contains("expected X/O"));
        assert!(fault("24,,23/24,23").contains("empty entry"));
        assert!(fault("24/23/22").contains("more than one"));
        assert!(fault("123201").contains("out of range (0 to 123200)"));
    }

    #[test]
    fn rolls_must_use_the_variants_faces() {
        let v = Variant::built_in("nikoniko-12").unwrap();
        assert_eq!(parse_roll(&v, "2-1").unwrap(), Roll::new(1, 2));
        assert_eq!(parse_roll(&v, "21").unwrap(), Roll::new(1, 2));
        assert_eq!(parse_roll(&v, " 22 ").unwrap(), Roll::new(2, 2));
        for bad in ["0-1", "+1-2", "01-2", "1-2-1", "13", "122", "1", "é", ""] {
            let e = parse_roll(&v, bad).unwrap_err().to_string();
            assert!(
                e.contains("not a roll: expected two dice of the faces 1, 2"),
                "{e}"
            );
        }
    }
}
