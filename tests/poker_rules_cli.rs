//! The command line of issue #17: `--rule NAME` on compare, verify and table, and
//! `poker strength`.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn tabula() -> Command {
    Command::cargo_bin("tabula").expect("the binary is built")
}

fn json(args: &[&str]) -> Value {
    let out = tabula()
        .arg("poker")
        .args(args)
        .arg("--json")
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).expect("one JSON document")
}

#[test]
fn compare_with_a_rule_breaks_the_articles_tie_at_the_fifth_rule() {
    // Σ strokes × position: 大大大大石 3+6+9+12+25 = 55, 大大大石大 3+6+9+20+15 = 53.
    let v = json(&[
        "compare",
        "ooooi",
        "oooio",
        "--rule",
        "stroke-pos+ssd+possum-o",
    ]);
    assert_eq!(v["winner"], "a");
    assert_eq!(v["stage"], "stroke-pos");
    assert_eq!(v["stage_number"], 5);
    assert_eq!(v["rule"], "stroke-pos+ssd+possum-o");
    assert_eq!(v["fifth_rule"][0]["a"], 55);
    assert_eq!(v["fifth_rule"][0]["b"], 53);
    // The article's answer is still beside it, and the default is unchanged.
    assert_eq!(v["seed_compare"], 1);
    let v = json(&["compare", "ooooi", "oooio", "--rule", "article"]);
    assert_eq!(v["winner"], "tie");
    assert!(v.get("rule").is_none());
}

#[test]
fn verify_with_a_tie_free_rule_says_so_and_a_leaky_one_does_not() {
    let v = json(&["verify", "--rule", "stroke-pos+stroke-at-4+stroke-at-3"]);
    assert_eq!(v["fifth_rule"]["tie_free"], true);
    assert_eq!(v["fifth_rule"]["tied_pairs"], 0);
    assert_eq!(v["strict_weak_order"]["levels"], 3125);
    assert_eq!(v["tied_pairs_by_stage"][4], 24_942);
    tabula()
        .args(["poker", "verify", "--rule", "ssd", "--examples", "0"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "tie-free: no (1388 ordered pairs still tie)",
        ));
    assert!(json(&["verify"]).get("fifth_rule").is_none());
}

#[test]
fn strength_gives_exact_chances_that_add_up_to_one() {
    let v = json(&["strength", "ooooo"]);
    assert_eq!(v["beats"], 3120);
    assert_eq!(v["p_win_exact"], "624/625");
    assert_eq!(v["p_tie_exact"], "1/3125");
    assert_eq!(v["p_loss_exact"], "4/3125");
    let p: f64 = ["p_win", "p_tie", "p_loss"]
        .iter()
        .map(|k| v[k].as_f64().unwrap())
        .sum();
    assert!((p - 1.0).abs() < 1e-12);
    let v = json(&["strength", "ooooi", "--rule", "stroke-pos+ssd+possum-o"]);
    assert_eq!(v["ties"], 1);
}

#[test]
fn the_strength_table_lists_every_hand_strongest_first() {
    let v = json(&["table", "--strength"]);
    assert_eq!(v["rule"], "article");
    let hands = v["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 3125);
    assert_eq!(hands[0]["hand"], "大石泉すき");
    assert_eq!(hands[1]["hand"], "泉泉泉泉泉");
    let v = json(&[
        "table",
        "--strength",
        "--rule",
        "stroke-revpos+ssd+possum-o",
    ]);
    assert_eq!(v["rule"], "stroke-revpos+ssd+possum-o");
}

#[test]
fn bad_rules_are_refused_with_exit_2_naming_the_fault() {
    for (args, fault) in [
        (
            vec!["compare", "oizsk", "oizsk", "--rule", "sdd"],
            "no statistic is called \"sdd\"",
        ),
        (vec!["verify", "--rule", "ssd+ssd"], "ssd is named twice"),
        (
            vec!["strength", "oizsk", "--rule", "run+ssd+kicker+distinct"],
            "4 statistics",
        ),
        (vec!["table", "--rule", "ssd"], "--strength"),
        (vec!["strength", "oizs"], "has 4 characters"),
    ] {
        tabula()
            .arg("poker")
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(fault))
            .stderr(predicate::str::contains("panicked").not());
    }
}
