//! The `tabula fabfib` commands: JSON keys, real values, and clean refusals of bad input.

use crate::common::{json, tabula};

use predicates::prelude::*;

#[test]
fn odds_json_lists_all_220_values_with_exact_fractions_summing_to_one() {
    let v = json(&["fabfib", "odds", "--json"]);
    let d = v["distribution"].as_array().unwrap();
    assert_eq!(d.len(), 220);
    assert_eq!(v["hands"], 19_600);
    assert_eq!(v["mean_exact"], "21001/28");
    let mut num = 0u64;
    for row in d {
        let (n, den) = row["p_exact"].as_str().unwrap().split_once('/').unwrap();
        let (n, den): (u64, u64) = (n.parse().unwrap(), den.parse().unwrap());
        assert_eq!(19_600 % den, 0);
        num += n * (19_600 / den);
        assert!(row["value"].is_u64() && row["p"].is_f64());
    }
    assert_eq!(num, 19_600);
    let top = d.iter().find(|r| r["value"] == 1000).unwrap();
    assert_eq!(top["p_exact"], "1/1960");
}

#[test]
fn odds_for_a_discard_gives_the_exact_chance() {
    let v = json(&[
        "fabfib",
        "odds",
        "--hand",
        "876",
        "--discard",
        "8,7,6",
        "--target",
        "900",
        "--json",
    ]);
    assert_eq!(v["p_exact"], "949/3243");
    assert_eq!(v["favourable"], 4745);
    assert_eq!(v["draws"], 16_215);
    // Seen cards leave the deck: with all five 9s and three 0s gone, 900 is out of reach.
    let v = json(&[
        "fabfib",
        "odds",
        "--hand",
        "876",
        "--discard",
        "876",
        "--target",
        "900",
        "--seen",
        "9,9,9,9,9,0,0,0",
        "--json",
    ]);
    assert_eq!(v["p_exact"], "0/1");
}

#[test]
fn odds_best_ranks_every_discard_and_names_the_best() {
    let v = json(&[
        "fabfib", "odds", "--best", "--hand", "876", "--target", "900", "--json",
    ]);
    assert_eq!(v["options"].as_array().unwrap().len(), 7);
    assert_eq!(v["best"]["discard"], "876");
    let with_zero = json(&[
        "fabfib",
        "odds",
        "--best",
        "--hand",
        "876",
        "--target",
        "876",
        "--zero-discard",
        "--json",
    ]);
    assert_eq!(with_zero["options"].as_array().unwrap().len(), 8);
    assert_eq!(with_zero["best"]["discard"], "");
    assert_eq!(with_zero["best"]["p_exact"], "1/1");
    tabula()
        .args([
            "fabfib", "odds", "--best", "--hand", "876", "--target", "900",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("949/3243"));
}

#[test]
fn simulate_json_has_the_contract_keys_and_wins_add_up() {
    let v = json(&[
        "fabfib", "simulate", "--games", "500", "--seed", "3", "--json",
    ]);
    assert_eq!(v["games"], 500);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    let wins: u64 = players.iter().map(|p| p["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 500);
    for p in players {
        assert_eq!(p["strategy"], "article");
        let ci = p["win_rate_ci95"].as_array().unwrap();
        let r = p["win_rate"].as_f64().unwrap();
        assert!(ci[0].as_f64().unwrap() <= r && r <= ci[1].as_f64().unwrap());
    }
    for key in [
        "mean_rounds",
        "lie_rate",
        "doubt_success_rate",
        "call_distribution",
    ] {
        assert!(!v[key].is_null(), "{key}");
    }
}

#[test]
fn simulate_prints_the_same_bytes_on_one_and_two_threads() {
    let run = |threads: &str| {
        tabula()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "fabfib",
                "simulate",
                "--games",
                "5000",
                "--seed",
                "11",
                "--strategies",
                "seed,odds,honest",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert!(String::from_utf8(one).unwrap().contains("odds"));
}

#[test]
fn replay_prints_one_game_to_its_winner() {
    tabula()
        .args(["fabfib", "replay", "--seed", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("round 1: P1 starts"))
        .stdout(predicate::str::contains(" wins after "));
    let v = json(&[
        "fabfib",
        "replay",
        "--seed",
        "3",
        "--game",
        "4",
        "--players",
        "4",
        "--json",
    ]);
    let events = v["events"].as_array().unwrap();
    assert_eq!(events.last().unwrap()["event"], "game_over");
    assert_eq!(events[0]["starter"], 0); // game 4 of 4 players: seat 4 mod 4 = P1 starts
}

#[test]
fn bad_input_is_refused_with_status_2_and_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["odds", "--hand", "87", "--target", "900", "--best"],
            "exactly 3 digits",
        ),
        (
            &["odds", "--hand", "8a6", "--target", "900", "--best"],
            "not a digit",
        ),
        (
            &["odds", "--hand", "876", "--target", "678", "--best"],
            "not a call",
        ),
        (
            &["odds", "--hand", "876", "--target", "000", "--best"],
            "not a call",
        ),
        (
            &["odds", "--hand", "876", "--target", "900", "--discard", "5"],
            "does not hold",
        ),
        (
            &["odds", "--hand", "876", "--target", "900", "--discard", ""],
            "discard 1 to 3",
        ),
        (&["odds", "--hand", "876", "--target", "900"], "--discard"),
        (
            &[
                "odds", "--hand", "999", "--target", "999", "--best", "--seen", "9,9,9",
            ],
            "only 5",
        ),
        (&["odds", "--discard", "8"], "--hand"),
        (
            &[
                "odds",
                "--hand",
                "876",
                "--target",
                "900",
                "--best",
                "--discard",
                "8",
            ],
            "cannot be used",
        ),
        (&["simulate", "--players", "1"], "2 to 10"),
        (&["simulate", "--players", "11"], "2 to 10"),
        (&["simulate", "--strategies", "bluff"], "unknown strategy"),
        (&["simulate", "--strategies", "odds:1.5"], "threshold"),
        (
            &["simulate", "--strategies", "seed,odds", "--players", "3"],
            "one per player",
        ),
        (&["simulate", "--games", "0"], "at least 1"),
        (&["simulate", "--games", "-5"], "unexpected argument"),
        (&["simulate", "--life", "0"], "life"),
        (&["replay", "--seed", "x"], "invalid value"),
    ];
    for (args, message) in cases {
        tabula()
            .arg("fabfib")
            .args(*args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(*message))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn simulate_refuses_more_games_than_its_documented_maximum() {
    tabula()
        .args(["fabfib", "simulate", "--games", "1000000001", "--json"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains(
            "1000000001 games: a run plays at least 1 game and at most 1000000000",
        ));
    tabula()
        .args(["fabfib", "simulate", "--games", &u64::MAX.to_string()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 1000000000"));
}

#[test]
fn the_old_name_seed_still_seats_the_article_strategy() {
    let by_alias = json(&[
        "fabfib",
        "simulate",
        "--games",
        "300",
        "--strategies",
        "seed,seed/best/odds",
        "--json",
    ]);
    let by_name = json(&[
        "fabfib",
        "simulate",
        "--games",
        "300",
        "--strategies",
        "article,article/best/odds",
        "--json",
    ]);
    assert_eq!(by_alias, by_name);
    assert_eq!(by_name["players"][1]["strategy"], "article/best/odds");
}

#[test]
fn tune_reports_every_setting_with_its_interval_and_the_best_one() {
    let v = json(&[
        "fabfib", "tune", "--field", "article", "--games", "2000", "--seed", "4", "--mean", "3,4",
        "--doubt", "0.85,2", "--bump", "0.2", "--json",
    ]);
    let settings = v["settings"].as_array().unwrap();
    assert_eq!(settings.len(), 4);
    assert_eq!(v["rules"]["players"], 2);
    let most = settings
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .max()
        .unwrap();
    assert_eq!(v["best"]["wins"].as_u64().unwrap(), most);
    for s in settings {
        let r = s["win_rate"].as_f64().unwrap();
        let ci = s["win_rate_ci95"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= r && r <= ci[1].as_f64().unwrap());
    }
    // The article's own setting wins exactly what `simulate` gives player 1 with the same
    // seed and games: against itself both seats use the defaults.
    let sim = json(&[
        "fabfib",
        "simulate",
        "--strategies",
        "article",
        "--players",
        "2",
        "--games",
        "2000",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(v["article"]["wins"], sim["players"][0]["wins"]);
}

#[test]
fn tune_prints_the_same_bytes_on_one_and_two_threads() {
    let run = |threads: &str| {
        tabula()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "fabfib",
                "tune",
                "--field",
                "odds,honest",
                "--games",
                "3000",
                "--seed",
                "8",
                "--mean",
                "3,4,5",
                "--doubt",
                "0.8,0.9",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert!(String::from_utf8(one).unwrap().contains("best: --mean"));
}

#[test]
fn tune_refuses_bad_settings_with_status_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["--mean", "30"], "Poisson mean 30 is out of range"),
        (&["--keep", "11"], "keep digit 11 is out of range"),
        (&["--doubt", "x"], "invalid value"),
        (
            &[
                "--field",
                "article,article,article,article,article,article,article,article,article,article",
            ],
            "2 to 10",
        ),
        (&["--field", "bluff"], "unknown strategy"),
        (
            &["--games", "100000000", "--mean", "1,2,3,4,5,6,7,8,9,10,11"],
            "at most 1000000000",
        ),
        (&["--games", "0"], "at least 1"),
    ];
    for (args, message) in cases {
        tabula()
            .args(["fabfib", "tune"])
            .args(*args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(*message))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn play_seats_a_person_and_plays_the_script_to_the_end() {
    let script = "a\nall\n1000\nd\n".repeat(300);
    let out = tabula()
        .args([
            "fabfib",
            "play",
            "--seed",
            "5",
            "--seat",
            "2",
            "--strategies",
            "odds",
        ])
        .write_stdin(script)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("Fabfib: P1 odds, P2 you, P3 odds (12 life each, seed 5)"));
    assert!(out.contains("round 1: P1 starts"), "{out}");
    assert!(
        out.contains("wins after") || out.contains("You win after"),
        "{out}"
    );
}

#[test]
fn play_refuses_bad_input_with_status_2_naming_standard_input() {
    tabula()
        .args(["fabfib", "play"])
        .write_stdin(&b"\xff\xfe\n"[..])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "standard input: the input is not valid UTF-8 text",
        ));
    tabula()
        .args(["fabfib", "play"])
        .write_stdin(vec![b'7'; 100_000])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "standard input: a line longer than 4096 bytes",
        ));
    for (args, message) in [
        (&["--seat", "4"][..], "seat 4: the seats are 1 to 3"),
        (&["--seat", "0"][..], "seat 0"),
        (&["--players", "11"][..], "2 to 10"),
        (
            &["--strategies", "article,odds", "--players", "4"][..],
            "one per player",
        ),
    ] {
        tabula()
            .args(["fabfib", "play"])
            .args(args)
            .write_stdin("q\n")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn the_article_parameters_reach_simulate_and_show_only_when_changed() {
    let plain = json(&["fabfib", "simulate", "--games", "400", "--json"]);
    assert!(plain.get("article").is_none());
    let same = json(&[
        "fabfib", "simulate", "--games", "400", "--mean", "4", "--doubt", "0.85", "--json",
    ]);
    assert_eq!(plain, same);
    let tuned = json(&[
        "fabfib", "simulate", "--games", "400", "--mean", "3", "--doubt", "0.95", "--json",
    ]);
    assert_eq!(tuned["article"]["mean"], 3.0);
    assert_eq!(tuned["article"]["doubt"], 0.95);
    assert_ne!(tuned["players"], plain["players"]);
    tabula()
        .args(["fabfib", "simulate", "--bump", "12"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bump 12 is out of range"));
}
