//! The `tabula nikoniko` commands that need no table: their JSON keys and their refusals.

mod common;
use common::json;

use assert_cmd::Command;
use predicates::str::contains;

#[test]
fn count_proves_the_seeds_1106945_states() {
    let v = json(&["nikoniko", "count", "--json"]);
    assert_eq!(v["states"], 1_106_945);
    assert_eq!(v["seed_count"], 1_106_945);
    assert_eq!(v["side_vectors"], 2002);
}

#[test]
fn show_gives_the_index_and_canonical_notation() {
    let v = json(&["nikoniko", "show", "2,8,5,2,8/8,8,5,2,2", "--json"]);
    assert_eq!(v["position"], "8,8,5,2,2/8,8,5,2,2");
    assert_eq!(v["index"], 562_767);
    let back = json(&["nikoniko", "show", "562767", "--json"]);
    assert_eq!(back["position"], "8,8,5,2,2/8,8,5,2,2");
    let last = json(&["nikoniko", "show", "1106944", "--json"]);
    assert_eq!(last["position"], "bar,bar,bar,bar,bar/bar,bar,bar,bar,bar");
}

#[test]
fn moves_lists_every_distinct_play_and_nothing_for_a_pass() {
    let v = json(&["nikoniko", "moves", "8,8,5,2,2/8,8,5,2,2", "1-2", "--json"]);
    let mut positions: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["position"].as_str().unwrap())
        .collect();
    positions.sort();
    assert_eq!(
        positions,
        [
            "8,5,5,2,2/8,8,5,2,2",
            "8,6,4,2,2/bar,8,8,2,2",
            "8,8,2,2,2/8,8,5,2,2",
            "8,8,2,2,2/bar,8,8,2,2"
        ]
    );
    let pass = json(&[
        "nikoniko",
        "moves",
        "bar,2,2,1,1/2,2,1,1,5",
        "1-2",
        "--json",
    ]);
    assert_eq!(pass["moves"].as_array().unwrap().len(), 0);
    assert_eq!(pass["pass"], true);
}

#[test]
fn malformed_positions_and_rolls_exit_2_naming_the_fault() {
    let cases: [(&[&str], &str); 6] = [
        (&["nikoniko", "show", "8,8,5,2/8,8,5,2,2,2"], "more than 5"),
        (&["nikoniko", "show", "1/8"], "held by both sides"),
        (&["nikoniko", "show", "9,8/1"], "point 9 does not exist"),
        (&["nikoniko", "show", "1106945"], "out of range"),
        (&["nikoniko", "moves", "1/1", "3-1"], "not a roll"),
        (&["nikoniko", "equity", "x/1"], "unknown token"),
    ];
    for (args, fault) in cases {
        Command::cargo_bin("tabula")
            .unwrap()
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(fault));
    }
}

#[test]
fn a_missing_table_exits_1_and_says_how_to_build_it() {
    Command::cargo_bin("tabula")
        .unwrap()
        .args(["nikoniko", "equity", "1/1", "--table", "/no/such/dir/n.tbl"])
        .assert()
        .code(1)
        .stderr(contains("run `tabula nikoniko build`"));
}
