//! `tabula mastermind`: Numeron's engine on 4 pegs and 6 colours that may repeat, in
//! Mastermind's words. The published figures (Knuth 1977: five guesses always suffice;
//! Koyama and Lai 1993: 5,625 guesses over the 1,296 secrets at best) reproduced by the
//! command line, the pegs and colours it reads and writes, and its bad input.

use crate::common::{json, refused, tabula};

use predicates::prelude::*;

#[test]
fn the_least_total_is_koyama_and_lais_5625_guesses_opening_with_1123() {
    let v = json(&["mastermind", "optimum", "--json"]);
    assert_eq!(v["exact"], true);
    assert_eq!(
        (v["lower"].as_u64(), v["upper"].as_u64()),
        (Some(5625), Some(5625))
    );
    assert_eq!(v["mean_lower_exact"], "625/144");
    assert_eq!(v["first_guess"], "1123");
    assert_eq!(
        (v["pegs"].as_u64(), v["colours"].as_u64()),
        (Some(4), Some(6))
    );
    // One first guess per pattern; 1123 is the only one that reaches 5,625.
    let firsts = v["first_guesses"].as_array().unwrap();
    assert_eq!(firsts.len(), 5);
    for f in firsts {
        let lower = f["lower"].as_u64().unwrap();
        assert_eq!(lower == 5625, f["guess"] == "1123", "{f}");
        assert!(lower >= 5625);
    }
    // The whole-tree search builds a strategy with that total.
    let a = json(&["mastermind", "analyze", "--strategy", "optimal", "--json"]);
    assert_eq!(
        (a["total"].as_u64(), a["first_guess"].as_str()),
        (Some(5625), Some("1123"))
    );
    assert_eq!(a["secrets"], 1296);
}

#[test]
fn five_guesses_always_suffice_and_four_do_not() {
    let v = json(&["mastermind", "optimum", "--worst", "--json"]);
    assert_eq!(
        (v["lower"].as_u64(), v["exact"].as_bool()),
        (Some(5), Some(true))
    );
    // Every first guess but 1111 reaches five, Knuth's 1122 among them.
    for f in v["first_guesses"].as_array().unwrap() {
        let five = f["guess"] != "1111";
        assert_eq!(f["upper"].as_u64() == Some(5), five, "{f}");
    }
    // Under the cap of five guesses the least total is one guess more: 5,626.
    let a = json(&[
        "mastermind",
        "analyze",
        "--strategy",
        "optimal-worst",
        "--json",
    ]);
    assert_eq!(
        (a["total"].as_u64(), a["max"].as_u64()),
        (Some(5626), Some(5))
    );
}

#[test]
fn the_fewest_secrets_needing_the_fifth_guess_is_539_after_1123() {
    let v = json(&["mastermind", "optimum", "--fewest-at-worst", "--json"]);
    assert_eq!(v["objective"], "fewest-at-worst");
    assert_eq!(v["worst"], 5);
    assert_eq!(
        (v["lower"].as_u64(), v["upper"].as_u64()),
        (Some(539), Some(539))
    );
    assert_eq!(v["first_guess"], "1123");
}

#[test]
fn a_trace_speaks_of_colours_and_black_and_white_pegs() {
    let v = json(&[
        "mastermind",
        "trace",
        "--secret",
        "3632",
        "--strategy",
        "optimal",
        "--json",
    ]);
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps[0]["guess"], "1123");
    // 1123 against 3632: no colour in place, the 2 and one 3 elsewhere.
    assert_eq!(
        (steps[0]["black"].as_u64(), steps[0]["white"].as_u64()),
        (Some(0), Some(2))
    );
    assert_eq!(steps[0]["reply"], "0B2W");
    assert!(steps[0].get("eat").is_none());
    let last = steps.last().unwrap();
    assert_eq!(
        (last["guess"].as_str(), last["black"].as_u64()),
        (Some("3632"), Some(4))
    );
    // Letters name the same colours: A is 1, F is 6.
    let letters = json(&[
        "mastermind",
        "trace",
        "--secret",
        "cfcb",
        "--strategy",
        "optimal",
        "--json",
    ]);
    assert_eq!(letters["secret"], "3632");
    assert_eq!(letters["steps"], v["steps"]);
    tabula()
        .args([
            "mastermind",
            "trace",
            "--secret",
            "3632",
            "--strategy",
            "optimal",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("  1   1123    0B2W   222"));
}

#[test]
fn the_helper_reads_black_and_white_pegs_and_refuses_the_impossible() {
    tabula()
        .args(["mastermind", "solve", "--strategy", "first"])
        .write_stdin("0 0\n3B1W\n2w 1b\n1E0B\nAABB 1 0\n1122 4 0\nq\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Think of a secret of 4 pegs in 6 colours",
        ))
        .stdout(predicate::str::contains("1296 candidates left; guess 1111"))
        .stdout(predicate::str::contains("625 candidates left; guess 2222"))
        .stdout(predicate::str::contains(
            "refused: 3B1W is impossible: when 3 pegs are in place",
        ))
        // Two white pegs and a black one: 2222 can only score black pegs.
        .stdout(predicate::str::contains(
            "refused: 1B2W is impossible for the guess 2222",
        ))
        .stdout(predicate::str::contains(
            "refused: \"1E0B\" is not an answer: type the black and white pegs",
        ))
        // A guess of one's own in letters, then one that contradicts 1111's no pegs.
        .stdout(predicate::str::contains("128 candidates left"))
        .stdout(predicate::str::contains("refused: 1122 4B0W contradicts"));
}

#[test]
fn the_helper_finds_the_secret_from_honest_pegs() {
    // The pegs the secret 2345 gives to each guess of the strategy `first`, as its trace
    // reports them, typed back to the helper in the other notation (`b w`).
    let t = json(&[
        "mastermind",
        "trace",
        "--secret",
        "2345",
        "--strategy",
        "first",
        "--json",
    ]);
    let script: String = t["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{} {}\n", s["black"], s["white"]))
        .collect();
    tabula()
        .args(["mastermind", "solve", "--strategy", "first"])
        .write_stdin(script)
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "solved: 2345 in {} guesses",
            t["guesses"]
        )));
}

#[test]
fn the_game_answers_in_pegs() {
    let out = tabula()
        .args(["mastermind", "play", "--seed", "7"])
        .write_stdin("q\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("I have chosen a secret of 4 pegs in 6 colours"),
        "{text}"
    );
    let secret = text.trim().rsplit(' ').next().unwrap().to_string();
    assert_eq!(secret.len(), 4);
    assert!(secret.chars().all(|c| ('1'..='6').contains(&c)), "{secret}");
    tabula()
        .args(["mastermind", "play", "--seed", "7"])
        .write_stdin(format!("1237\n{secret}\n"))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "refused: \"1237\" is not a code: '7' is not a colour 1-6 or A-F",
        ))
        .stdout(predicate::str::contains(format!(
            "4B0W: found {secret} in 1 guesses"
        )));
}

#[test]
fn bad_input_exits_2_in_mastermind_words() {
    for (args, fault) in [
        (
            vec!["trace", "--secret", "1237"],
            "is not a colour 1-6 or A-F",
        ),
        (vec!["trace", "--secret", "12"], "has 2 pegs, expected 4"),
        (vec!["trace", "--secret", "GABC"], "'G' is not a colour"),
        // As in Numeron, a code is taken as given: a space is no colour.
        (
            vec!["trace", "--secret", " 1123"],
            "\" 1123\" is not a code: ' ' is not a colour 1-6 or A-F",
        ),
        (
            vec!["next", "--history", "1122:1B0W,1123:0B0W"],
            "1123 0B0W contradicts the earlier answers (1122 1B0W)",
        ),
        (
            vec!["next", "--history", "1122"],
            "type the black and white pegs",
        ),
        (
            vec!["next", "--history", "1122:5B0W"],
            "black + white cannot exceed 4 pegs",
        ),
        (
            vec!["analyze", "--colours", "11"],
            "the alphabet must have 1 to 10 colours, not 11",
        ),
        (
            vec!["analyze", "--pegs", "0"],
            "the number of pegs must be between 1 and 10, not 0",
        ),
        (
            vec!["optimum", "--pegs", "5", "--colours", "7"],
            "at most 10000 candidates",
        ),
        (
            vec!["optimum", "--worst", "--fewest-at-worst"],
            "cannot be used",
        ),
    ] {
        refused("mastermind", &args, fault);
    }
}

#[test]
fn ten_colours_are_written_as_letters() {
    let v = json(&[
        "mastermind",
        "trace",
        "--pegs",
        "2",
        "--colours",
        "10",
        "--secret",
        "JA",
        "--json",
    ]);
    assert_eq!(v["secret"], "JA");
    assert_eq!(v["steps"][0]["guess"], "AA");
}
