//! eXtreme Gammon's position IDs, XGIDs, as gnubg reads them (`docs/gammon.md`, "XGID").
//!
//! `XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10`: 26 characters of checkers,
//! then nine fields separated by `:`. The checkers are drawn from the bottom player's
//! side: character 0 is the top player's bar, characters 1–24 the bottom player's points
//! 1–24 (the top player's 24–1), character 25 the bottom player's bar; `A`–`P` are 1–16
//! of the bottom player's checkers, `a`–`p` of the top player's, `-` none. The fields:
//! the cube's value as a power of 2; its owner (1 the bottom player, -1 the top one, 0
//! centred); who is on roll (1 the bottom player, -1 the top one); the dice (`00` before
//! the roll, `D` when the side on roll has doubled and the other must answer, else the
//! two dice); the bottom then the top player's score; the rules (in a match 1 for the
//! Crawford game; in money play 1 the Jacoby rule, 2 beavers, 3 both); the match's
//! length (0 for money play); the largest cube as a power of 2 (gnubg reads 0 as
//! cubeless and ignores the rest). tabula writes the side on roll at the bottom.

use crate::fault::excerpt;
use crate::gammon::numbering::hyper::GNUBG_POINTS;
use crate::gammon::{Error, Position, Roll};
use serde::Serialize;

/// Characters of the checkers' part.
pub const CHECKERS_LEN: usize = GNUBG_POINTS + 2;

/// The prefix an XGID is usually written with.
pub const PREFIX: &str = "XGID=";

/// Who holds the cube, seen from the side on roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum XgOwner {
    /// Nobody: the cube is in the middle.
    Centred,
    /// The side on roll.
    OnRoll,
    /// The other side.
    Opponent,
}

/// The dice field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum XgDice {
    /// Before the roll (`00`): the cube decision comes first.
    ToRoll,
    /// The side on roll has doubled (`D`); the other side is to take or pass.
    Doubled,
    /// The dice rolled, in the order written.
    Rolled(u8, u8),
}

/// Everything an XGID says, the position seen from the side on roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Xgid {
    /// The position, the side on roll first.
    #[serde(skip)]
    pub position: Position,
    /// The cube's value (1, 2, 4, …).
    pub cube: u32,
    /// Who holds it.
    pub owner: XgOwner,
    /// The dice.
    pub dice: XgDice,
    /// The points of the side on roll, then of the other side.
    pub score: [u32; 2],
    /// The match's length; 0 in money play.
    pub length: u32,
    /// The Crawford game (match play).
    pub crawford: bool,
    /// The Jacoby rule (money play).
    pub jacoby: bool,
    /// Beavers allowed (money play).
    pub beavers: bool,
    /// The largest cube as a power of 2 (0: cubeless, as gnubg reads it).
    pub max_cube: u32,
    /// The side on roll is written at the top (turn -1).
    #[serde(skip)]
    pub top_on_roll: bool,
}

impl Xgid {
    /// A position alone: the cube 1 in the middle, before the roll, money play without
    /// the Jacoby rule, the largest cube 2^10 (as eXtreme Gammon writes them).
    pub fn of(position: Position) -> Xgid {
        Xgid {
            position,
            cube: 1,
            owner: XgOwner::Centred,
            dice: XgDice::ToRoll,
            score: [0, 0],
            length: 0,
            crawford: false,
            jacoby: false,
            beavers: false,
            max_cube: 10,
            top_on_roll: false,
        }
    }

    /// The dice as a roll, when rolled.
    pub fn roll(&self) -> Option<Roll> {
        match self.dice {
            XgDice::Rolled(a, b) => Some(Roll::new(a, b)),
            _ => None,
        }
    }
}

/// The XGID of a position alone ([`Xgid::of`]), on the 24-point board.
pub fn encode(position: &Position) -> Result<String, Error> {
    write(&Xgid::of(*position))
}

/// An XGID's text, the side on roll at the bottom unless `top_on_roll`.
pub fn write(x: &Xgid) -> Result<String, Error> {
    let p = &x.position;
    let refuse = |reason: String| Err(Error::NoPositionId(reason));
    if p.points() != GNUBG_POINTS {
        return refuse(format!("the board has {} points, an XGID 24", p.points()));
    }
    if let Some(&many) = p.us().iter().chain(p.them()).find(|&&c| c > 16) {
        return refuse(format!("{many} checkers on one point, an XGID holds 16"));
    }
    if let Some(point) = p.clash() {
        return refuse(format!(
            "both sides hold point {point} of the side on roll, an XGID holds one side a point"
        ));
    }
    if !x.cube.is_power_of_two() {
        return refuse(format!("a cube of {} is not a power of 2", x.cube));
    }
    let (bottom, top) = match x.top_on_roll {
        false => (p.us(), p.them()),
        true => (p.them(), p.us()),
    };
    let letter = |count: u8, base: u8| match count {
        0 => '-',
        c => char::from(base + c - 1),
    };
    let mut text = String::with_capacity(64);
    text.push_str(PREFIX);
    text.push(letter(top[GNUBG_POINTS], b'a'));
    for point in 1..=GNUBG_POINTS {
        let (b, t) = (bottom[point - 1], top[GNUBG_POINTS - point]);
        text.push(if b > 0 {
            letter(b, b'A')
        } else {
            letter(t, b'a')
        });
    }
    text.push(letter(bottom[GNUBG_POINTS], b'A'));
    let bottom_first = |on_roll: i32| if x.top_on_roll { -on_roll } else { on_roll };
    let owner = match x.owner {
        XgOwner::Centred => 0,
        XgOwner::OnRoll => bottom_first(1),
        XgOwner::Opponent => bottom_first(-1),
    };
    let dice = match x.dice {
        XgDice::ToRoll => "00".to_string(),
        XgDice::Doubled => "D".to_string(),
        XgDice::Rolled(a, b) => format!("{a}{b}"),
    };
    let (score_bottom, score_top) = match x.top_on_roll {
        false => (x.score[0], x.score[1]),
        true => (x.score[1], x.score[0]),
    };
    let rules = if x.length > 0 {
        u32::from(x.crawford)
    } else {
        u32::from(x.jacoby) + 2 * u32::from(x.beavers)
    };
    text.push_str(&format!(
        ":{}:{owner}:{}:{dice}:{score_bottom}:{score_top}:{rules}:{}:{}",
        x.cube.trailing_zeros(),
        bottom_first(1),
        x.length,
        x.max_cube
    ));
    Ok(text)
}

/// Whether `text` looks like an XGID (its prefix, or 26 checker characters and a `:`):
/// the readers of positions try [`parse`] then.
pub fn looks_like(text: &str) -> bool {
    let t = text.trim();
    if has_prefix(t) {
        return true;
    }
    t.len() > CHECKERS_LEN
        && t.as_bytes()[CHECKERS_LEN] == b':'
        && t.as_bytes()[..CHECKERS_LEN]
            .iter()
            .all(|&b| b == b'-' || (b & !0x20).wrapping_sub(b'A') < 16)
}

/// Whether `t` starts with `XGID=` (any case).
fn has_prefix(t: &str) -> bool {
    t.as_bytes()
        .get(..PREFIX.len())
        .is_some_and(|b| b.eq_ignore_ascii_case(PREFIX.as_bytes()))
}

/// Reads an XGID (with or without its `XGID=` prefix): nine or ten fields (the largest
/// cube may be left out), checked as gnubg checks them.
pub fn parse(text: &str) -> Result<Xgid, Error> {
    let t = text.trim();
    let fail = |reason: String| Error::Input {
        what: "XGID",
        input: excerpt(t),
        reason,
    };
    // The prefix is ASCII: after it, a char boundary.
    let body = if has_prefix(t) { &t[PREFIX.len()..] } else { t };
    let fields: Vec<&str> = body.split(':').collect();
    if !(9..=10).contains(&fields.len()) {
        return Err(fail(format!(
            "an XGID has the checkers and 8 or 9 fields separated by `:`, this one {} field(s)",
            fields.len().saturating_sub(1)
        )));
    }
    let (bottom, top) = checkers(fields[0]).map_err(&fail)?;
    let number = |i: usize, what: &str| -> Result<i64, Error> {
        fields[i]
            .parse::<i64>()
            .ok()
            .filter(|n| n.abs() < 1 << 20)
            .ok_or_else(|| {
                fail(format!(
                    "the {what} `{}` is not a number",
                    excerpt(fields[i])
                ))
            })
    };
    let cube_exp = number(1, "cube")?;
    if !(0..=12).contains(&cube_exp) {
        return Err(fail(format!(
            "the cube is 2 to the power {cube_exp}; gnubg allows 0 to 12"
        )));
    }
    let owner = number(2, "cube's owner")?;
    let turn = number(3, "side on roll")?;
    if !(-1..=1).contains(&owner) || turn.abs() != 1 {
        return Err(fail(
            "the cube's owner is 1, 0 or -1 and the side on roll 1 or -1".into(),
        ));
    }
    let top_on_roll = turn == -1;
    let dice = dice(fields[4]).map_err(&fail)?;
    let (score_bottom, score_top) = (number(5, "score")?, number(6, "score")?);
    let rules = number(7, "rules")?;
    let length = number(8, "match length")?;
    let max_cube = match fields.get(9) {
        Some(_) => number(9, "largest cube")?,
        None => 10,
    };
    if score_bottom < 0 || score_top < 0 || length < 0 || max_cube < 0 {
        return Err(fail("scores, length and cube are never negative".into()));
    }
    if length > 0 && (score_bottom >= length || score_top >= length) {
        return Err(fail(format!(
            "a score of {score_bottom}-{score_top} in a match to {length}: the match is over"
        )));
    }
    if !(0..=if length > 0 { 1 } else { 3 }).contains(&rules) {
        return Err(fail(format!(
            "rules {rules}: in a match 0 or 1 (the Crawford game), in money play 0 to 3"
        )));
    }
    let (us, them) = match top_on_roll {
        false => (bottom, top),
        true => (top, bottom),
    };
    let position = Position::new(&us, &them)?;
    let on_roll_first = |s: [i64; 2]| match top_on_roll {
        false => [s[0] as u32, s[1] as u32],
        true => [s[1] as u32, s[0] as u32],
    };
    let owner = match owner * turn {
        0 => XgOwner::Centred,
        1 => XgOwner::OnRoll,
        _ => XgOwner::Opponent,
    };
    Ok(Xgid {
        position,
        cube: 1 << cube_exp,
        owner,
        dice,
        score: on_roll_first([score_bottom, score_top]),
        length: length as u32,
        crawford: length > 0 && rules == 1,
        jacoby: length == 0 && rules & 1 == 1,
        beavers: length == 0 && rules & 2 == 2,
        max_cube: max_cube as u32,
        top_on_roll,
    })
}

/// The two sides' slots (points 1–24, then the bar), the bottom player first.
fn checkers(text: &str) -> Result<(Vec<u8>, Vec<u8>), String> {
    if text.len() != CHECKERS_LEN || !text.is_ascii() {
        return Err(format!(
            "the checkers take {CHECKERS_LEN} characters (a bar, 24 points, a bar), not {}",
            text.chars().count()
        ));
    }
    let mut bottom = vec![0u8; GNUBG_POINTS + 1];
    let mut top = vec![0u8; GNUBG_POINTS + 1];
    for (i, ch) in text.bytes().enumerate() {
        let (count, upper) = match ch {
            b'-' => continue,
            b'A'..=b'P' => (ch - b'A' + 1, true),
            b'a'..=b'p' => (ch - b'a' + 1, false),
            _ => {
                return Err(format!(
                    "`{}` at {} is not a checker count (A-P, a-p or -)",
                    char::from(ch),
                    i + 1
                ))
            }
        };
        match (i, upper) {
            (0, false) => top[GNUBG_POINTS] = count,
            (25, true) => bottom[GNUBG_POINTS] = count,
            (0, true) | (25, false) => {
                return Err(format!(
                    "character {} is the {} player's bar, not the {}'s",
                    i + 1,
                    if i == 0 { "top" } else { "bottom" },
                    if upper { "bottom" } else { "top" }
                ))
            }
            (point, true) => bottom[point - 1] = count,
            (point, false) => top[GNUBG_POINTS - point] = count,
        }
    }
    Ok((bottom, top))
}

fn dice(text: &str) -> Result<XgDice, String> {
    let b = text.as_bytes();
    match b {
        b"00" => Ok(XgDice::ToRoll),
        b"D" => Ok(XgDice::Doubled),
        [a @ b'1'..=b'6', c @ b'1'..=b'6'] => Ok(XgDice::Rolled(a - b'0', c - b'0')),
        b"B" | b"R" => Err(format!(
            "the dice `{text}` (a beaver or raccoon under way) are not read; gnubg reads \
             00, D or two dice"
        )),
        _ => Err(format!(
            "the dice `{}` are not 00, D or two dice 1-6",
            excerpt(text)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backgammon_start() -> Position {
        crate::gammon::Variant::backgammon().opening()
    }

    #[test]
    fn the_opening_reads_and_writes_as_extreme_gammon_writes_it() {
        let text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";
        let x = parse(text).unwrap();
        assert_eq!(x.position, backgammon_start());
        assert_eq!(encode(&backgammon_start()).unwrap(), text);
        // The same with the top player on roll: the sides swap, the board does not.
        let top = parse("-b----E-C---eE---c-e----B-:1:-1:-1:52:3:1:1:5").unwrap();
        assert_eq!(top.position, backgammon_start());
        assert!(top.top_on_roll);
        assert_eq!(
            (top.cube, top.owner, top.roll(), top.score, top.crawford),
            (2, XgOwner::OnRoll, Some(Roll::new(2, 5)), [1, 3], true)
        );
        let again = write(&top).unwrap();
        assert_eq!(
            again,
            "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:52:3:1:1:5:10"
        );
    }

    #[test]
    fn bars_and_sides_land_where_gnubg_puts_them() {
        // The top player (o) has one on the bar, the bottom player (X) one on the bar
        // and one on its 3 point; o has one on its 20 point (X's 5).
        let x = parse("a--A-a-------------------A:0:0:1:00:0:0:0:0:10").unwrap();
        let p = x.position;
        assert_eq!((p.us()[24], p.us()[2]), (1, 1));
        assert_eq!((p.them()[24], p.them()[19]), (1, 1));
    }

    #[test]
    fn malformed_xgids_are_refused() {
        for bad in [
            "",
            "XGID=",
            "-b----E-C---eE---c-e----B-",
            "-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
            "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0",
            "-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
            "-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10",
            "-b----E-C---eE---c-e----B-:13:0:1:00:0:0:0:0:10",
            "-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10",
            "-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10",
            "-b----E-C---eE---c-e----B-:0:0:1:00:5:0:0:5:10",
            "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10",
            "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10",
            "-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
            "Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            "-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10",
            "-b----E-C---eE---c-e----BZ:0:0:1:00:0:0:0:0:10",
            "-b----E-C---eE---c-e----Bé:0:0:1:00:0:0:0:0:10",
            "XGIé=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            "日本語",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_off_the_24_point_board_have_no_xgid() {
        let small = Position::new(&[0; 10], &[1; 10]).unwrap();
        assert!(encode(&small).is_err());
    }
}
