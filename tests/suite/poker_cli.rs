//! The `tabula poker` command line: JSON keys from `spec/cli.md`, human output, and
//! malformed input refused with exit status 2 and a message naming the fault.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn tabula() -> Command {
    Command::cargo_bin("tabula").expect("the binary is built")
}

/// Runs `tabula poker ARGS --json`, checks success and that stdout is one JSON document.
fn json(args: &[&str]) -> Value {
    let out = tabula()
        .arg("poker")
        .args(args)
        .arg("--json")
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8");
    serde_json::from_str(&stdout).expect("exactly one JSON document on stdout")
}

#[test]
fn verify_json_carries_the_contract_keys_and_the_seeds_counts() {
    let v = json(&["verify"]);
    assert_eq!(v["pairs"], 9_762_500);
    let ties: Vec<u64> = v["tied_pairs_by_stage"]
        .as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_u64().expect("integers"))
        .collect();
    assert_eq!(ties, [2_070_024, 1_915_014, 630_220, 287_564, 24_942]);
    assert_eq!(v["strict_weak_order"]["transitive"], true);
    assert_eq!(v["strict_weak_order"]["antisymmetric"], true);
    assert_eq!(v["seed_defect"]["seed_compare_ab"], 1);
    assert_eq!(v["seed_defect"]["seed_compare_ba"], 1);
    assert_eq!(v["examples"].as_array().map(Vec::len), Some(5));
}

#[test]
fn verify_prints_a_table_and_ends_ok() {
    tabula()
        .args(["poker", "verify", "--examples", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("287564"))
        .stdout(predicate::str::contains("大大大大石 / 大大大石大"))
        .stdout(predicate::str::contains("verification: ok"));
}

#[test]
fn judge_names_the_rank_in_both_languages_from_either_spelling() {
    for spelling in ["大石泉すき", "oizsk", "大iz すき"] {
        let spelling = spelling.replace(' ', "");
        let v = json(&["judge", &spelling]);
        assert_eq!(v["hand"], "大石泉すき");
        assert_eq!(v["rank"], 0);
        assert_eq!(v["rank_japanese"], "ロイヤルストレートフラッシュ");
        assert_eq!(v["rank_english"], "Royal straight flush");
        assert_eq!(v["tie_breaks"]["right_strokes"], 23);
    }
    let v = json(&["judge", "sksks"]);
    assert_eq!(v["rank_english"], "Full house");
    assert_eq!(v["tie_breaks"]["suki_find"], 0);
    tabula()
        .args(["poker", "judge", "zzzsk"])
        .assert()
        .success()
        .stdout(predicate::str::contains("すき / Suki"));
}

#[test]
fn compare_says_who_wins_and_at_which_stage() {
    let v = json(&["compare", "すき泉きす", "すき石石き"]);
    assert_eq!(v["winner"], "a");
    assert_eq!(v["stage"], "right_strokes");
    assert_eq!(v["seed_compare"], -1);
    let v = json(&["compare", "oooio", "ooooi"]);
    assert_eq!(v["winner"], "tie");
    assert_eq!(v["stage"], Value::Null);
    assert_eq!(v["seed_compare"], 1);
    let v = json(&["compare", "ooooi", "zzzzz"]);
    assert_eq!(v["winner"], "b");
    assert_eq!(v["stage"], "rank");
    tabula()
        .args(["poker", "compare", "大石泉きす", "大石大石泉"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "大石泉きす beats 大石大石泉: decided by the rank",
        ));
}

#[test]
fn table_json_counts_all_3125_hands_with_exact_fractions() {
    let v = json(&["table"]);
    assert_eq!(v["hands"], 3125);
    let ranks = v["ranks"].as_array().expect("an array");
    assert_eq!(ranks.len(), 9);
    assert_eq!(ranks[0]["count"], 1);
    assert_eq!(ranks[0]["p_exact"], "1/3125");
    assert_eq!(ranks[5]["japanese"], "すき");
    assert_eq!(ranks[5]["p_exact"], "87/625");
    let total: u64 = ranks.iter().map(|r| r["count"].as_u64().unwrap()).sum();
    assert_eq!(total, 3125);
}

#[test]
fn search_rule_announces_a_rule_that_leaves_no_ties() {
    let v = json(&["search-rule"]);
    assert_eq!(v["tied_pairs_before"], 24_942);
    assert_eq!(v["breaks_all_ties"], true);
    assert_eq!(v["best"]["tied_pairs"], 0);
    assert_eq!(v["by_depth"].as_array().map(Vec::len), Some(3));
    tabula()
        .args(["poker", "search-rule", "--depth", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("leaves 8 ordered pairs tied"));
    tabula()
        .args(["poker", "search-rule"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "*** A NATURAL RULE LEAVES NO TIES",
        ));
}

#[test]
fn malformed_hands_are_refused_with_exit_2_naming_the_fault() {
    for (args, fault) in [
        (vec!["judge", "oiz"], "has 3 characters"),
        (vec!["judge", "oizskk"], "has 6 characters"),
        (vec!["judge", ""], "has 0 characters"),
        (
            vec!["judge", "oizsx"],
            "unknown character 'x' at position 5",
        ),
        (
            vec!["judge", "す泉太すき"],
            "unknown character '太' at position 3",
        ),
        (vec!["judge", "OIZSK"], "unknown character 'O'"),
        (
            vec!["compare", "oizsk", "oi zk"],
            "unknown character ' ' at position 3",
        ),
        (vec!["compare", "oizsk"], "B"),
        (vec!["search-rule", "--depth", "4"], "4"),
        (vec!["search-rule", "--depth", "0"], "0"),
        (vec!["verify", "--examples", "x"], "x"),
        (vec!["deal"], "deal"),
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

// Issue #17: `--rule NAME` on compare, verify and table, and `poker strength`.

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
