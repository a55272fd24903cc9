//! The `tabula numeron` commands as scripts see them: JSON keys, exit statuses, messages,
//! the interactive helpers fed through stdin, and byte-identical output across thread counts.

use crate::common::{json, refused, tabula};

use predicates::prelude::*;
use serde_json::Value;

#[test]
fn analyze_prints_the_contract_keys_with_exact_values() {
    let v = json(&[
        "numeron",
        "analyze",
        "--digits",
        "3",
        "--strategy",
        "first",
        "--json",
    ]);
    assert_eq!(v["secrets"], 720);
    assert_eq!(v["total"], 3792);
    assert_eq!(v["max"], 9);
    assert_eq!(v["mean_exact"], "79/15");
    assert!((v["mean"].as_f64().unwrap() - 3792.0 / 720.0).abs() < 1e-12);
    let h = v["histogram"].as_object().unwrap();
    assert_eq!(h["6"], 205);
    assert_eq!(h.values().map(|x| x.as_u64().unwrap()).sum::<u64>(), 720);
}

#[test]
fn every_strategy_is_accepted_by_analyze() {
    for s in [
        "first",
        "minimax",
        "parts",
        "entropy",
        "optimal",
        "optimal-worst",
    ] {
        let v = json(&[
            "numeron",
            "analyze",
            "--digits",
            "2",
            "--strategy",
            s,
            "--json",
        ]);
        assert_eq!(v["secrets"], 90, "{s}");
        for key in ["total", "mean", "max", "histogram"] {
            assert!(v.get(key).is_some(), "{s}: {key}");
        }
    }
    let hard = json(&[
        "numeron",
        "analyze",
        "--strategy",
        "minimax",
        "--hard",
        "--json",
    ]);
    assert_eq!(hard["hard"], true);
    assert_eq!(hard["total"], 3713);
}

#[test]
fn trace_reproduces_the_seed_game_for_719() {
    let v = json(&[
        "numeron",
        "trace",
        "--secret",
        "719",
        "--strategy",
        "first",
        "--json",
    ]);
    assert_eq!(v["guesses"], 6);
    let left: Vec<u64> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["left"].as_u64().unwrap())
        .collect();
    assert_eq!(left, [126, 40, 9, 4, 1, 1]);
    tabula()
        .args(["numeron", "trace", "--secret", "719"])
        .assert()
        .success()
        .stdout(predicate::str::contains("  5    718    2E0B     1"))
        .stdout(predicate::str::contains("found in 6 guesses"));
}

#[test]
fn the_tree_file_lists_every_guess() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("tree.txt");
    let json = dir.path().join("tree.json");
    for p in [&text, &json] {
        tabula()
            .args(["numeron", "analyze", "--tree"])
            .arg(p)
            .assert()
            .success();
    }
    let t = std::fs::read_to_string(&text).unwrap();
    assert!(t.starts_with("012 (720)\n"));
    // `first` always guesses a candidate, so each node finds exactly one secret.
    assert_eq!(t.lines().count(), 720);
    assert!(t.contains("\n  1E0B → 034 (126)\n"));
    let j: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(j["guess"], "012");
    assert_eq!(j["branches"]["1E0B"]["candidates"], 126);
    assert_eq!(j["branches"]["1E0B"]["guess"], "034");
}

#[test]
fn solve_follows_the_users_answers_to_the_secret() {
    tabula()
        .args(["numeron", "solve", "--strategy", "first"])
        .write_stdin("1 0\n0E0B\n2 1\n1e0b\n0 1\n2 0\n3 0\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("126 candidates left; guess 034"))
        .stdout(predicate::str::contains("refused: 2E1B is impossible"))
        .stdout(predicate::str::contains("solved: 719 in 6 guesses"));
}

#[test]
fn solve_says_when_answers_contradict_each_other() {
    tabula()
        .args(["numeron", "solve", "--strategy", "first"])
        .write_stdin("0 0\n012 3 0\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("contradicts the earlier answers"));
}

#[test]
fn play_answers_guesses_against_a_seeded_secret() {
    let out = tabula()
        .args(["numeron", "play", "--seed", "42"])
        .write_stdin("q\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let secret = text.trim().rsplit(' ').next().unwrap().to_string();
    assert_eq!(secret.len(), 3);
    tabula()
        .args(["numeron", "play", "--seed", "42"])
        .write_stdin(format!("01\n012\n{secret}\n"))
        .assert()
        .success()
        .stdout(predicate::str::contains("refused: \"01\" has 2 digits"))
        .stdout(predicate::str::contains(format!(
            "3E0B: found {secret} in 2 guesses"
        )));
}

#[test]
fn bad_input_exits_2_naming_the_fault() {
    for (args, fault) in [
        (vec!["analyze", "--digits", "0"], "between 1 and 10"),
        (vec!["analyze", "--digits", "11"], "between 1 and 10"),
        (vec!["analyze", "--strategy", "best"], "unknown strategy"),
        (vec!["analyze", "--digits", "7", "--repeats"], "too many"),
        (
            vec!["analyze", "--digits", "4", "--strategy", "optimal"],
            "--long",
        ),
        (
            vec!["analyze", "--digits", "6", "--strategy", "minimax"],
            "use --strategy first",
        ),
        (vec!["trace", "--secret", "7a9"], "not a digit"),
        (vec!["trace", "--secret", "771"], "repeats the digit 7"),
        (vec!["trace", "--secret", "12"], "has 2 digits"),
        (vec!["optimum", "--digits", "5"], "at most 10000"),
    ] {
        refused("numeron", &args, fault);
    }
}

#[test]
fn output_is_the_same_bytes_with_one_or_two_threads() {
    let run = |threads: &str| {
        tabula()
            .env("RAYON_NUM_THREADS", threads)
            .args(["numeron", "analyze", "--strategy", "entropy", "--json"])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn race_odds_follow_from_the_two_analyzed_distributions() {
    let hist = |s: &str| -> Vec<(u64, u64)> {
        let v = json(&["numeron", "analyze", "--strategy", s, "--json"]);
        v["histogram"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, c)| (k.parse().unwrap(), c.as_u64().unwrap()))
            .collect()
    };
    let (a, b) = (hist("first"), hist("entropy"));
    // The first mover wins when it needs no more guesses than the other.
    let wins: u64 = a
        .iter()
        .map(|&(t, c)| c * b.iter().filter(|x| x.0 >= t).map(|x| x.1).sum::<u64>())
        .sum();
    let g = num_integer::gcd(wins, 720 * 720);
    let v = json(&[
        "numeron", "race", "--first", "first", "--second", "entropy", "--json",
    ]);
    assert_eq!(
        v["first_wins_exact"],
        format!("{}/{}", wins / g, 720 * 720 / g)
    );
}

#[test]
fn optimum_proves_the_numeron_figures_and_a_cut_short_search_brackets_them() {
    let v = json(&["numeron", "optimum", "--digits", "3", "--json"]);
    assert_eq!(
        (v["exact"].as_bool(), v["lower"].as_u64()),
        (Some(true), Some(3575))
    );
    assert_eq!(v["upper"], 3575);
    assert_eq!(v["mean_lower_exact"], "715/144");
    let w = json(&["numeron", "optimum", "--digits", "3", "--worst", "--json"]);
    assert_eq!(
        (w["lower"].as_u64(), w["upper"].as_u64()),
        (Some(6), Some(6))
    );
    // With no time at all the search stops early but its bounds still hold the optimum.
    let b = json(&[
        "numeron", "optimum", "--digits", "3", "--budget", "0", "--json",
    ]);
    let (lower, upper) = (b["lower"].as_u64().unwrap(), b["upper"].as_u64().unwrap());
    assert!(lower <= 3575 && 3575 <= upper, "{lower}..{upper}");
    assert_eq!(b["exact"].as_bool().unwrap(), lower == upper);
    for class in b["per_class"].as_array().unwrap() {
        assert!(class["lower"].as_u64().unwrap() <= class["upper"].as_u64().unwrap());
    }
}

#[test]
fn with_repeated_digits_the_optimum_tries_every_pattern_of_first_guess() {
    // 000, 001, 012… are not equivalent first guesses when digits may repeat: the class by
    // class optimum must agree with the whole-tree search, which tries them all.
    for digits in ["2", "3"] {
        let o = json(&[
            "numeron",
            "optimum",
            "--digits",
            digits,
            "--repeats",
            "--json",
        ]);
        let a = json(&[
            "numeron",
            "analyze",
            "--digits",
            digits,
            "--repeats",
            "--strategy",
            "optimal",
            "--json",
        ]);
        assert_eq!(o["exact"], true);
        assert_eq!(o["lower"], a["total"], "{digits} digits");
        assert_eq!(o["first_guess"], a["first_guess"]);
    }
}
