//! Positions and rolls of any variant as text (`docs/gammon.md`, "Notation"): `X/O`, each
//! side a comma-separated list of the points of its checkers in play in its own numbering
//! (`bar` for the bar), the side on roll first, as NikoNiko writes them; or a record
//! number of the variant's index; or, on 24 points, a gnubg Position ID.

use super::moves::off;
use super::store::Numbers;
use super::{position_id, Error, Position, Variant};

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
        input: crate::error::excerpt(text),
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
        let record: u64 = t
            .parse()
            .map_err(|_| bad("a record number too large".to_string()))?;
        Numbers::new(variant)?
            .position(record)
            .map_err(|e| bad(e.to_string()))?
    } else if t.contains('/') {
        let (us, them) = t.split_once('/').expect("a slash");
        Position::new(side(variant, us, &bad)?, side(variant, them, &bad)?)?
    } else if variant.points == 24 && t.len() == position_id::LEN {
        let p = position_id::decode(t)?;
        if p.points() != 24 {
            return Err(bad("not a 24-point position".to_string()));
        }
        p
    } else {
        return Err(bad(format!(
            "expected X/O (the points of each side's checkers, e.g. {}), a record number{}",
            notation(variant, &variant.opening()),
            if variant.points == 24 {
                ", or a gnubg Position ID"
            } else {
                ""
            }
        )));
    };
    check(variant, &p).map_err(bad)?;
    Ok(p)
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
fn side(variant: &Variant, text: &str, bad: &dyn Fn(String) -> Error) -> Result<Vec<u8>, Error> {
    let mut slots = vec![0u8; variant.points + 1];
    for token in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let slot = if token.eq_ignore_ascii_case("bar") {
            variant.points
        } else {
            match token.parse::<usize>() {
                Ok(point) if (1..=variant.points).contains(&point) => point - 1,
                _ => {
                    return Err(bad(format!(
                        "{} is not a point 1-{} or bar",
                        crate::error::excerpt(token),
                        variant.points
                    )))
                }
            }
        };
        if usize::from(slots[slot]) >= variant.checkers {
            return Err(bad(format!(
                "more than {} checkers on one side",
                variant.checkers
            )));
        }
        slots[slot] += 1;
    }
    Ok(slots)
}

/// Reads a roll `a-b` of the variant's faces; returns it smaller die first.
pub fn parse_roll(variant: &Variant, text: &str) -> Result<(u8, u8), Error> {
    let bad = |reason: String| input("roll", text, reason);
    let (a, b) = text
        .trim()
        .split_once('-')
        .ok_or_else(|| bad("expected a-b, the two dice".to_string()))?;
    let die = |t: &str| -> Result<u8, Error> {
        let d: u8 = t
            .trim()
            .parse()
            .map_err(|_| bad(format!("{} is not a die", crate::error::excerpt(t))))?;
        if variant.faces.contains(&d) {
            Ok(d)
        } else {
            Err(bad(format!(
                "{d} is not a face of this variant's dice ({})",
                variant
                    .faces
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
    };
    let (a, b) = (die(a)?, die(b)?);
    Ok((a.min(b), a.max(b)))
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
        assert!(fault("24,23,22/24,23").contains("3 checkers in play"));
        assert!(fault("24,24,24/24,23").contains("more than 2"));
        assert!(fault("25,23/24,23").contains("not a point"));
        assert!(fault("/24,23").contains("no checker in play"));
        assert!(fault("3,2/23,20").contains("held by both"));
        assert!(fault("nonsense").contains("expected X/O"));
    }

    #[test]
    fn rolls_must_use_the_variants_faces() {
        let v = Variant::built_in("nikoniko-12").unwrap();
        assert_eq!(parse_roll(&v, "2-1").unwrap(), (1, 2));
        assert!(parse_roll(&v, "0-1")
            .unwrap_err()
            .to_string()
            .contains("not a face"));
    }
}
