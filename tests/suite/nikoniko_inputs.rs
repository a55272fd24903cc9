//! NikoNiko's text inputs (issue 16): the position and roll parsers never panic, what the
//! printer writes reads back, and the command line survives hostile streams.

use crate::common::niko::{index, notation, parse_position, parse_roll};
use crate::common::{nikoniko_built, tabula};
use predicates::str::contains;
use proptest::prelude::*;
use tabula::nikoniko::STATES;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_position_parser_never_panics_on_any_text(text in "\\PC{0,60}") {
        let _ = parse_position(&text);
    }

    #[test]
    fn a_position_parser_never_panics_on_near_misses(
        text in "(bar|[0-9]{1,3}|,|/| ){0,24}"
    ) {
        if let Ok(p) = parse_position(&text) {
            // Whatever it accepts is a state, and its notation reads back to it.
            prop_assert!(index().index(&p) < STATES);
            prop_assert_eq!(parse_position(&notation(&p)).ok(), Some(p));
        }
    }

    #[test]
    fn every_state_round_trips_through_its_notation(i in 0..STATES) {
        let p = index().position(i).unwrap();
        prop_assert_eq!(parse_position(&notation(&p)).ok(), Some(p));
        prop_assert_eq!(parse_position(&i.to_string()).ok(), Some(p));
    }

    #[test]
    fn a_roll_parser_accepts_exactly_two_dice_of_0_to_2(text in "\\PC{0,12}") {
        prop_assert_eq!(parse_roll(&text).is_ok(), a_roll(&text), "{:?}", text);
    }

    // The same near the accepted texts, which arbitrary text seldom hits: `00`, `1 - 2`,
    // `21`, `3-1`, `012`.
    #[test]
    fn a_roll_parser_accepts_exactly_two_dice_near_the_rolls(text in "[0-3 -]{0,5}") {
        prop_assert_eq!(parse_roll(&text).is_ok(), a_roll(&text), "{:?}", text);
    }
}

/// What the roll parser must accept, written apart from it: two dice of 0 to 2, as `A-B`
/// (spaces around each die allowed) or as gnubg's two digits `AB`, the whole trimmed.
fn a_roll(text: &str) -> bool {
    let die = |d: &str| ["0", "1", "2"].contains(&d.trim());
    let t = text.trim();
    match t.split_once('-') {
        Some((a, b)) => die(a) && die(b),
        None => {
            let digits: Vec<char> = t.chars().collect();
            digits.len() == 2 && digits.iter().all(|c| ('0'..='2').contains(c))
        }
    }
}

#[test]
fn the_notation_of_every_state_is_distinct() {
    let all = index().all_states();
    let mut seen: Vec<String> = all.iter().map(notation).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len() as u64, STATES);
}

#[test]
fn a_huge_position_is_refused_without_echoing_it_whole() {
    let long = "8,".repeat(50_000);
    let out = tabula().args(["nikoniko", "show", &long]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.len() < 400, "{} bytes of message", err.len());
    assert!(err.contains("100000 characters"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_full_stderr_does_not_turn_bad_input_into_a_panic() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let status = std::process::Command::new(assert_cmd::cargo::cargo_bin("tabula"))
        .args(["nikoniko", "equity", "9/9"])
        .stderr(full)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

#[test]
fn a_game_fed_an_endless_line_stops_as_bad_input_naming_standard_input() {
    let (_, table, _, _) = nikoniko_built();
    tabula()
        .args(["nikoniko", "play", "--seed", "1", "--table"])
        .arg(table)
        .write_stdin(vec![0u8; 1 << 20])
        .assert()
        .code(2)
        .stderr(contains("standard input: line 1 is longer than 4096 bytes"));
}

#[test]
fn a_game_fed_bytes_that_are_not_text_says_so_and_where() {
    let (_, table, _, _) = nikoniko_built();
    tabula()
        .args(["nikoniko", "play", "--seed", "1", "--table"])
        .arg(table)
        .write_stdin(&b"\xff\xfe\n"[..])
        .assert()
        .code(2)
        .stderr(contains("standard input: line 1 is not UTF-8 text"));
}
