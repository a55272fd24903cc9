//! gnubg's Position IDs: 14 characters that name a position on the 24-point board
//! (`docs/gammon.md`, "Position IDs").
//!
//! The ID packs an 80-bit key: for each side, for each of its slots (points 1..=24, then
//! the bar), one 1 bit per checker and then a 0 bit; the bits fill bytes from the least
//! significant bit up, the rest of the 80 bits are 0. gnubg writes the side *not* on
//! roll first and the side on roll second (its board's `[0]` and `[1]`; a game played in
//! `gnubg -t` shows it). The 10 bytes are then written in base 64 (`A`–`Z`, `a`–`z`,
//! `0`–`9`, `+`, `/`), most significant bits first and without padding: 14 characters,
//! the last one carrying only 2 of the key's bits.

use crate::fault::shorten;
use crate::gammon::numbering::hyper::GNUBG_POINTS;
use crate::gammon::{Error, Position};

/// Characters in a Position ID.
pub const LEN: usize = 14;

/// Points on the board a Position ID describes.
pub const POINTS: usize = GNUBG_POINTS;

/// Bits in a Position ID's key.
const KEY_BITS: u32 = 80;

/// Slots per side: the 24 points and the bar.
const SLOTS: usize = GNUBG_POINTS + 1;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 80-bit key of a position (bit `i` is bit `i % 8` of the key's byte `i / 8`).
pub fn key(position: &Position) -> Result<u128, Error> {
    if position.points() != GNUBG_POINTS {
        return Err(Error::NoPositionId(format!(
            "the board has {} points, a Position ID 24",
            position.points()
        )));
    }
    let checkers: u32 = position
        .us()
        .iter()
        .chain(position.them())
        .map(|&c| u32::from(c))
        .sum();
    if checkers + 2 * SLOTS as u32 > KEY_BITS {
        return Err(Error::NoPositionId(format!(
            "{checkers} checkers on the board, a Position ID holds at most {}",
            KEY_BITS - 2 * SLOTS as u32
        )));
    }
    let mut key = 0u128;
    let mut bit = 0;
    for side in [position.them(), position.us()] {
        for &count in side {
            key |= ((1u128 << count) - 1) << bit;
            bit += u32::from(count) + 1;
        }
    }
    Ok(key)
}

/// The position of an 80-bit key, refusing keys with fewer than 50 slot ends or with
/// bits set after the last one (gnubg never writes those).
pub fn from_key(key: u128) -> Result<Position, Error> {
    parse_key(key).map_err(|reason| Error::PositionId {
        input: format!("key {key:#x}"),
        reason,
    })
}

fn parse_key(key: u128) -> Result<Position, String> {
    if key >> KEY_BITS != 0 {
        return Err("the key has more than 80 bits".into());
    }
    let mut sides = [vec![0u8; SLOTS], vec![0u8; SLOTS]];
    let mut slot = 0;
    let mut bit = 0;
    while slot < 2 * SLOTS {
        if bit == KEY_BITS {
            return Err(format!(
                "the key ends after {slot} of the 50 slots (too many checkers)"
            ));
        }
        if key >> bit & 1 == 1 {
            sides[slot / SLOTS][slot % SLOTS] += 1;
        } else {
            slot += 1;
        }
        bit += 1;
    }
    if bit < KEY_BITS && key >> bit != 0 {
        return Err("bits are set after the last slot".into());
    }
    let [them, us] = sides;
    Position::new(&us, &them).map_err(|e| e.to_string())
}

/// The Position ID of a position on the 24-point board (at most 30 checkers in all).
pub fn encode(position: &Position) -> Result<String, Error> {
    let key = key(position)?;
    // The key's bytes in order, as one big-endian number of 80 bits, then 4 zero bits to
    // make 84 = 14 × 6.
    let bytes = key.to_le_bytes();
    let mut stream = 0u128;
    for &byte in &bytes[..10] {
        stream = stream << 8 | u128::from(byte);
    }
    stream <<= 4;
    let id = (0..LEN)
        .rev()
        .map(|i| char::from(ALPHABET[(stream >> (6 * i) & 63) as usize]))
        .collect();
    Ok(id)
}

/// The position of a Position ID (14 characters exactly as gnubg prints them). The side
/// on roll is the ID's second side.
pub fn decode(id: &str) -> Result<Position, Error> {
    let fail = |reason: String| Error::PositionId {
        input: shorten(id),
        reason,
    };
    if id.len() != LEN || !id.is_ascii() {
        return Err(fail(format!(
            "a Position ID has {LEN} characters of A-Z, a-z, 0-9, + and /"
        )));
    }
    let mut stream = 0u128;
    for ch in id.bytes() {
        let digit = ALPHABET
            .iter()
            .position(|&a| a == ch)
            .ok_or_else(|| fail(format!("`{}` is not a base-64 character", char::from(ch))))?;
        stream = stream << 6 | digit as u128;
    }
    if stream & 0xF != 0 {
        return Err(fail(
            "its last character carries bits beyond the 80-bit key".into(),
        ));
    }
    stream >>= 4;
    let mut bytes = [0u8; 16];
    for (i, byte) in bytes[..10].iter_mut().enumerate() {
        *byte = (stream >> (8 * (9 - i))) as u8;
    }
    parse_key(u128::from_le_bytes(bytes)).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backgammon_start() -> Position {
        crate::gammon::Variant::backgammon().opening()
    }

    #[test]
    fn the_backgammon_opening_has_gnubgs_id() {
        assert_eq!(encode(&backgammon_start()).unwrap(), "4HPwATDgc/ABMA");
        assert_eq!(decode("4HPwATDgc/ABMA").unwrap(), backgammon_start());
    }

    #[test]
    fn the_key_of_the_opening_is_the_one_gnubgs_manual_spells_out() {
        // The manual's ten bytes: E0 73 F0 01 30 E0 73 F0 01 30.
        let bytes = key(&backgammon_start()).unwrap().to_le_bytes();
        assert_eq!(
            bytes[..10],
            [0xE0, 0x73, 0xF0, 0x01, 0x30, 0xE0, 0x73, 0xF0, 0x01, 0x30]
        );
    }

    #[test]
    fn malformed_ids_are_refused() {
        for bad in [
            "",
            "4HPwATDgc/ABM",
            "4HPwATDgc/ABMAA",
            "4HPwATDgc/AB-A",
            "4HPwATDgc/ABMB",
            "4HPwATDgc/ABMé",
            "//////////////",
        ] {
            assert!(
                matches!(decode(bad), Err(Error::PositionId { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn positions_off_the_24_point_board_or_too_full_have_no_id() {
        let small = Position::new(&[0; 9], &[0; 9]).unwrap();
        assert!(matches!(encode(&small), Err(Error::NoPositionId(_))));
        let mut full = vec![0u8; 25];
        full[0] = 16;
        let crowded = Position::new(&full, &full).unwrap();
        assert!(matches!(encode(&crowded), Err(Error::NoPositionId(_))));
    }
}
