//! The `tabula nikoniko` commands that need no table: their JSON keys and their refusals.

use crate::common::json;

use assert_cmd::Command;
use predicates::str::contains;

#[test]
fn count_proves_the_seeds_1106945_states() {
    let v = json(&["nikoniko", "count", "--json"]);
    assert_eq!(v["states"], 1_106_945);
    assert_eq!(v["seed_count"], 1_106_945);
    assert_eq!(v["side_vectors"], 2002);
    assert!(v.get("seconds").is_none(), "no wall-clock time in JSON");
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
        .stderr(contains(
            "run `tabula nikoniko build --table /no/such/dir/n.tbl`",
        ));
}

#[test]
fn pnc_prints_the_articles_table_row_for_row() {
    // The article's table, p = 1..=10 places by n = 0..=5 checkers.
    let article = [
        [1, 1, 1, 1, 1, 1],
        [1, 2, 3, 4, 5, 6],
        [1, 3, 6, 10, 15, 21],
        [1, 4, 10, 20, 35, 56],
        [1, 5, 15, 35, 70, 126],
        [1, 6, 21, 56, 126, 252],
        [1, 7, 28, 84, 210, 462],
        [1, 8, 36, 120, 330, 792],
        [1, 9, 45, 165, 495, 1287],
        [1, 10, 55, 220, 715, 2002],
    ];
    let out = Command::cargo_bin("tabula")
        .unwrap()
        .args(["nikoniko", "pnc", "--json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows: Vec<Vec<u64>> = serde_json::from_value(doc["rows"].clone()).unwrap();
    assert_eq!(rows, article.map(|r| r.to_vec()).to_vec());
    let text = Command::cargo_bin("tabula")
        .unwrap()
        .args(["nikoniko", "pnc"])
        .output()
        .unwrap();
    let last = String::from_utf8(text.stdout).unwrap();
    let last = last
        .lines()
        .last()
        .unwrap()
        .split_whitespace()
        .collect::<String>();
    assert_eq!(last, "10|1|10|55|220|715|2002|");
}

#[test]
fn listing_prints_the_articles_four_places_two_checkers_in_its_order() {
    // The article prints the vectors after each next_PN step, from the all-off vector.
    let article = [
        "1 1 0 0", "0 2 0 0", "1 0 1 0", "0 1 1 0", "0 0 2 0", "1 0 0 1", "0 1 0 1", "0 0 1 1",
        "0 0 0 2",
    ];
    let out = Command::cargo_bin("tabula")
        .unwrap()
        .args(["nikoniko", "listing", "--places", "4", "--checkers", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split_once(": ").unwrap().1)
        .collect();
    assert_eq!(rows[0], "2 0 0 0");
    assert_eq!(&rows[1..], &article);
}

#[test]
fn a_listing_too_large_to_print_is_refused_with_exit_2() {
    Command::cargo_bin("tabula")
        .unwrap()
        .args(["nikoniko", "listing", "--places", "30", "--checkers", "30"])
        .assert()
        .code(2)
        .stderr(contains("too many to list"));
}
