//! The `tabula bingo` command line: the contract of `spec/cli.md`, real values, and clear
//! refusals of bad input.

use crate::common::{json, tabula};

use predicates::prelude::*;
use serde_json::Value;

#[test]
fn exact_five_by_five_gives_the_published_four_call_chance_and_the_mean() {
    let doc = json(&["bingo", "exact", "--size", "5", "--max", "75", "--json"]);
    // Four calls win only on the 4 lines through the free centre: 4 / C(75, 4).
    let dist = doc["distribution"].as_array().unwrap();
    assert_eq!(dist.len(), 76);
    assert_eq!(dist[4]["n"], 4);
    assert_eq!(dist[4]["p_exact"], "2/607725");
    // Fractions are always written "n/d" (`tabula::exact::fraction`).
    assert_eq!(dist[3]["p_exact"], "0/1");
    assert_eq!(dist[75]["cdf"], 1.0);
    assert_eq!(doc["mean_exact"], "8491934/205275");
    assert!((doc["mean"].as_f64().unwrap() - 41.368_574).abs() < 1e-6);
    assert_eq!(doc["median"], 42);
    assert_eq!(doc["mode"], 43);
    // The seed's formula is beside it, and visibly off.
    assert!(doc["formula"]["max_cdf_error"].as_f64().unwrap() > 0.03);
}

#[test]
fn both_exact_methods_print_the_same_law() {
    let a = json(&[
        "bingo",
        "exact",
        "--method",
        "enumerate",
        "--pattern",
        "double",
        "--json",
    ]);
    let b = json(&[
        "bingo",
        "exact",
        "--method",
        "inclusion-exclusion",
        "--pattern",
        "double",
        "--json",
    ]);
    assert_eq!(a["distribution"], b["distribution"]);
    assert_eq!(a["winning_subsets"], b["winning_subsets"]);
}

#[test]
fn the_seven_by_seven_card_is_exact_by_inclusion_exclusion() {
    let doc = json(&["bingo", "exact", "--size", "7", "--json"]);
    assert_eq!(doc["max"], 105);
    assert_eq!(doc["method"], "inclusion-exclusion");
    // Six calls fill a line only through the free centre: 4 / C(105, 6).
    let p6 = &doc["distribution"][6]["p_exact"];
    assert_eq!(p6, "1/402336025");
}

#[test]
fn verify_enumerates_the_seed_s_forty_thousand_orders_and_agrees() {
    let doc = json(&["bingo", "verify", "--size", "3", "--json"]);
    assert_eq!(doc["orders"], 40320);
    assert_eq!(doc["agrees"], true);
    assert_eq!(doc["distribution"][2]["p_exact"], "1/7");
    assert_eq!(doc["mean_exact"], "243/70");
}

#[test]
fn verify_as_a_table_says_every_order_agrees() {
    tabula()
        .args(["bingo", "verify"])
        .assert()
        .success()
        .stdout(predicate::str::contains("40320 call orders"))
        .stdout(predicate::str::contains("agrees"));
}

#[test]
fn several_us_players_have_a_mean_first_win_and_shared_prizes() {
    // US cards with 40 numbers (8 a column): a tenth of the work of 75 (the default card,
    // US cards by default: the next test).
    let drum = ["--max", "40", "--cards", "us"];
    let single = json(
        &[
            &["bingo", "exact", "--players", "1"][..],
            &drum,
            &["--json"],
        ]
        .concat(),
    );
    let one = single["mean"].as_f64().unwrap();
    let doc = json(
        &[
            &["bingo", "exact", "--players", "2"][..],
            &drum,
            &["--json"],
        ]
        .concat(),
    );
    assert_eq!(doc["cards"], "us");
    assert_eq!(doc["exact"], true);
    let mean = doc["mean"].as_f64().unwrap();
    // Two cards: the first win comes sooner than one card's.
    assert!(mean > 0.75 * one && mean < one, "{mean}, one card {one}");
    assert!(doc["mean_exact"].is_string());
    let dist = doc["distribution"].as_array().unwrap();
    let total: f64 = dist.iter().map(|r| r["p"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert!(doc["shared"].as_f64().unwrap() > 0.0);
}

#[test]
fn one_player_is_the_single_card_law() {
    let one = json(&["bingo", "exact", "--players", "1", "--json"]);
    assert_eq!(one["cards"], "us");
    assert_eq!(one["mean_exact"], "8491934/205275");
    assert_eq!(one["shared_exact"], "0/1");
}

#[test]
fn many_uniform_players_use_floats_only() {
    let doc = json(&[
        "bingo",
        "exact",
        "--players",
        "50",
        "--cards",
        "uniform",
        "--json",
    ]);
    assert_eq!(doc["cards"], "uniform");
    assert_eq!(doc["exact"], false);
    assert!(doc["mean_exact"].is_null());
    assert!(doc["mean"].as_f64().unwrap() < 30.0);
}

#[test]
fn simulate_is_the_same_on_one_and_two_threads_and_passes_its_test() {
    let run = |threads: &str| {
        tabula()
            .args([
                "bingo", "simulate", "--games", "200000", "--seed", "9", "--json",
            ])
            .args(["--threads", threads])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let doc: Value = serde_json::from_slice(&one).unwrap();
    assert_eq!(doc["games"], 200000);
    let chi = doc["chi_square"]["p_value"].as_f64().unwrap();
    assert!(chi > 1e-4, "chi-square p-value {chi}");
    assert!((doc["mean"].as_f64().unwrap() - 41.3686).abs() < 0.1);
}

#[test]
fn simulate_several_players_prints_the_exact_law_beside() {
    tabula()
        .args([
            "bingo",
            "simulate",
            "--players",
            "10",
            "--games",
            "20000",
            "--quiet",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("10 players, us cards"))
        .stdout(predicate::str::contains("chi-square"));
}

#[test]
fn plot_writes_an_svg_with_the_three_curves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bingo.svg");
    tabula()
        .args(["bingo", "plot", "--games", "20000", "--quiet", "--output"])
        .arg(&path)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("exact") && svg.contains("formula") && svg.contains("simulation"));
}

#[test]
fn bad_input_is_refused_with_exit_status_two_and_a_reason() {
    let cases: &[(&[&str], &str)] = &[
        (&["bingo", "exact", "--size", "6"], "size 6"),
        (&["bingo", "exact", "--max", "20"], "--max"),
        (&["bingo", "exact", "--max", "500"], "--max"),
        (&["bingo", "exact", "--pattern", "zigzag"], "zigzag"),
        (
            &["bingo", "exact", "--size", "7", "--method", "enumerate"],
            "inclusion-exclusion",
        ),
        (
            &["bingo", "exact", "--size", "7", "--pattern", "reach"],
            "enumerate",
        ),
        (&["bingo", "exact", "--players", "0"], "--players"),
        (&["bingo", "exact", "--players", "3", "--cards", "uk"], "uk"),
        (
            &[
                "bingo",
                "exact",
                "--players",
                "3",
                "--max",
                "74",
                "--cards",
                "us",
            ],
            "multiple",
        ),
        (&["bingo", "exact", "--cards", "us"], "--players"),
        (&["bingo", "verify", "--size", "5"], "too many"),
        (&["bingo", "simulate", "--games", "0"], "--games"),
        (&["bingo", "simulate", "--games", "ten"], "ten"),
        (
            &["bingo", "simulate", "--threads", "0", "--games", "5"],
            "--threads",
        ),
    ];
    for (args, needle) in cases {
        tabula()
            .args(*args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*needle))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn an_unwritable_plot_is_a_failure_with_status_one() {
    tabula()
        .args([
            "bingo",
            "plot",
            "--games",
            "1000",
            "--quiet",
            "--output",
            "/nonexistent/x.svg",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("/nonexistent/x.svg"));
}

/// `"n/d"` → n/d.
fn parse_fraction(s: &str) -> num_rational::BigRational {
    let (n, d) = s.split_once('/').expect("a fraction n/d");
    num_rational::BigRational::new(n.parse().unwrap(), d.parse().unwrap())
}

#[test]
fn the_variance_of_the_three_by_three_card_is_the_one_its_call_orders_give() {
    // Straight from the counts of the 40,320 orders: Σ n² k_n / 8! − (Σ n k_n / 8!)².
    let doc = json(&["bingo", "verify", "--json"]);
    let (mut s1, mut s2, mut total) = (0i128, 0i128, 0i128);
    for row in doc["distribution"].as_array().unwrap() {
        let (n, k) = (
            row["n"].as_i64().unwrap() as i128,
            row["orders"].as_i64().unwrap() as i128,
        );
        s1 += n * k;
        s2 += n * n * k;
        total += k;
    }
    let expected =
        num_rational::BigRational::new((s2 * total - s1 * s1).into(), (total * total).into());
    let variance = parse_fraction(doc["variance_exact"].as_str().unwrap());
    assert_eq!(variance, expected);
    let sd = doc["sd"].as_f64().unwrap();
    assert!((sd * sd - tabula::exact::big_float(&variance)).abs() < 1e-12);
}

#[test]
fn every_pattern_and_size_has_an_exact_variance_beside_the_mean() {
    for size in ["3", "4", "5", "7"] {
        for pattern in ["line", "double", "triple", "blackout", "corners", "hardway"] {
            let doc = json(&[
                "bingo",
                "exact",
                "--size",
                size,
                "--pattern",
                pattern,
                "--json",
            ]);
            let v = doc["variance"].as_f64().unwrap();
            let exact = parse_fraction(doc["variance_exact"].as_str().unwrap());
            // The float is the fraction's value, and the fraction is reduced.
            assert!(v > 0.0 && (v - tabula::exact::big_float(&exact)).abs() <= 1e-12 * v);
            assert_eq!(
                exact.to_string(),
                doc["variance_exact"].as_str().unwrap(),
                "{size} {pattern}"
            );
            let sd = doc["sd"].as_f64().unwrap();
            assert!((sd * sd - v).abs() < 1e-9 * v, "{size} {pattern}");
        }
    }
    // Reach (enumeration only) on the cards that can be enumerated.
    let doc = json(&["bingo", "exact", "--pattern", "reach", "--json"]);
    assert!(doc["variance_exact"].is_string());
}

#[test]
fn the_variance_is_printed_beside_the_mean() {
    tabula()
        .args(["bingo", "exact"])
        .assert()
        .success()
        .stdout(predicate::str::contains("variance "))
        .stdout(predicate::str::contains("standard deviation "));
}

#[test]
fn plot_draws_any_number_of_sample_sizes_beside_the_exact_law_and_the_formula() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bingo.svg");
    let out = tabula()
        .args(["bingo", "plot", "--games", "2000,30000", "--games", "500"])
        .args(["--seed", "4", "--quiet", "--json", "--output"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let labels: Vec<&str> = doc["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "exact",
            "seed's formula",
            "simulation, 2000 games",
            "simulation, 30000 games",
            "simulation, 500 games"
        ]
    );
    // The first simulation is the one `simulate` plays with the same seed.
    let sim = json(&[
        "bingo", "simulate", "--games", "2000", "--seed", "4", "--quiet", "--json",
    ]);
    for point in doc["series"][2]["points"].as_array().unwrap() {
        let n = point[0].as_f64().unwrap() as usize;
        assert_eq!(point[1], sim["distribution"][n]["p"]);
    }
    // One legend with every label (an apostrophe is escaped in SVG).
    let svg = std::fs::read_to_string(&path).unwrap();
    for label in &labels {
        assert!(label.split('\'').all(|part| svg.contains(part)), "{label}");
    }
}

#[test]
fn plot_writes_a_png_when_asked_for_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bingo.png");
    tabula()
        .args([
            "bingo",
            "plot",
            "--games",
            "10000,100000",
            "--quiet",
            "--output",
        ])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("4 curves"));
    let png = std::fs::read(&path).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn each_player_s_chance_of_a_prize_is_at_least_the_share_of_prizes_and_grows_with_them() {
    let chance = |prizes: &str, drum: &[&str]| {
        let head = ["bingo", "exact", "--players", "10", "--prizes", prizes];
        let doc = json(&[&head[..], drum, &["--json"]].concat());
        assert_eq!(doc["cards"], "us");
        assert_eq!(doc["expected_share"], format!("{prizes}/10"));
        doc["chance"].as_f64().unwrap()
    };
    // The default 5×5 card with 75 numbers: US cards, 3 prizes past the exact budget.
    assert!(chance("3", &[]) > 0.3);
    // With 40 numbers (8 a column) both are exact, in a tenth of the time of 75.
    let drum = ["--max", "40", "--cards", "us"];
    let (one, three) = (chance("1", &drum), chance("3", &drum));
    // Ties make a share of a prize a little likelier than k/K.
    assert!(one > 0.1 && one < 0.13, "{one}");
    assert!(three > 0.3 && three > one, "{three}");
    for args in [
        &["bingo", "exact", "--players", "3", "--prizes", "4"][..],
        &["bingo", "exact", "--players", "3", "--prizes", "0"][..],
        &["bingo", "exact", "--prizes", "2"][..],
    ] {
        tabula()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--p"));
    }
}

#[test]
fn simulate_with_prizes_samples_the_exact_prize_chances_and_leaves_the_first_win_alone() {
    let args = [
        "bingo",
        "simulate",
        "--size",
        "3",
        "--max",
        "12",
        "--cards",
        "us",
        "--games",
        "100000",
        "--seed",
        "3",
        "--quiet",
        "--json",
        "--players",
        "5",
    ];
    let plain = json(&args);
    let with = json(&[&args[..], &["--prizes", "2"]].concat());
    // The prizes are counted in the same games: the first-win keys are unchanged.
    for key in [
        "distribution",
        "shared",
        "mean",
        "chi_square",
        "exact_shared",
    ] {
        assert_eq!(plain[key], with[key], "{key}");
    }
    assert!(plain.get("chance").is_none() && plain.get("prizes").is_none());
    assert_eq!(with["prizes"], 2);
    // The exact chances are fractions (US cards, K = 5), and the samples sit within five
    // standard errors of them; the calls of the last prize pass the chi-square test.
    let exact = |key: &str| {
        let q = with[key].as_str().unwrap();
        let (n, d) = q.split_once('/').unwrap();
        n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap()
    };
    for (key, exact_key) in [
        ("chance", "exact_chance_exact"),
        ("split", "exact_split_exact"),
    ] {
        let p = exact(exact_key);
        let exact_float = with[&format!("exact_{key}")].as_f64().unwrap();
        assert!((p - exact_float).abs() < 1e-12, "{key}");
        let got = with[key].as_f64().unwrap();
        let se = (p * (1.0 - p) / 100_000.0).sqrt();
        assert!((got - p).abs() < 5.0 * se, "{key}: {got} vs {p}");
        let (low, high) = (
            with[&format!("{key}_low")].as_f64().unwrap(),
            with[&format!("{key}_high")].as_f64().unwrap(),
        );
        assert!(low < got && got < high);
    }
    // At least the share k/K = 2/5, with ties.
    assert!(exact("exact_chance_exact") > 0.4);
    assert!(with["last_chi_square"]["p_value"].as_f64().unwrap() > 1e-4);
    let mean = with["last_mean"].as_f64().unwrap();
    assert!((mean - with["exact_last_mean"].as_f64().unwrap()).abs() < 0.05);
    tabula()
        .args([&args[..], &["--prizes", "6"]].concat())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--prizes"));
}

#[test]
fn us_card_prizes_come_as_fractions_and_past_the_budget_as_floats_that_say_so() {
    let doc = json(&[
        "bingo",
        "exact",
        "--size",
        "4",
        "--cards",
        "us",
        "--players",
        "6",
        "--prizes",
        "2",
        "--json",
    ]);
    assert_eq!(doc["exact"], true);
    let value = |q: &Value| {
        let (n, d) = q.as_str().unwrap().split_once('/').unwrap();
        n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap()
    };
    for key in ["chance", "split"] {
        let q = value(&doc[format!("{key}_exact").as_str()]);
        assert!((q - doc[key].as_f64().unwrap()).abs() < 1e-12, "{key}");
    }
    assert!(value(&doc["last"]["mean_exact"]) > 4.0);
    // The per-call chances add up to the whole, and the distribution rows carry fractions.
    let rows = doc["distribution"].as_array().unwrap();
    let total: f64 = rows.iter().map(|r| value(&r["chance_exact"])).sum();
    assert!((total - doc["chance"].as_f64().unwrap()).abs() < 1e-12);
    // 100,000 uniform players: far past the budget, floats only, and the text says why.
    let far = [
        "bingo",
        "exact",
        "--cards",
        "uniform",
        "--players",
        "100000",
        "--prizes",
        "10",
    ];
    let doc = json(&[&far[..], &["--json"]].concat());
    assert_eq!(doc["exact"], false);
    assert!(doc["chance_exact"].is_null() && doc["split_exact"].is_null());
    assert!(doc["chance"].as_f64().unwrap() > 1e-4);
    tabula()
        .args(far)
        .assert()
        .success()
        .stdout(predicate::str::contains("over the 5 s budget"));
}
