//! `tabula gammon …`: the family's commands, its tables against the manifest and against
//! GNU Backgammon's published database values, and bad variants.

use crate::common::{built_once, json, json_of, manifest, tabula, Built};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The folder where this suite builds the family's tables, once.
fn folder() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(crate::scratch::folder)
}

/// Builds `variant` into `table` (with the cube when `cube`), on `threads` threads when
/// given; its `--json` report.
fn build(variant: &str, threads: Option<&str>, table: &Path, cube: bool) -> Value {
    let mut command = tabula();
    if let Some(threads) = threads {
        command.env("RAYON_NUM_THREADS", threads);
    }
    command.args(["gammon", "build", "--variant", variant, "--quiet", "--json"]);
    if !cube {
        command.arg("--cubeless");
    }
    json_of(command.arg("--table").arg(table))
}

/// The checksum of the cubeless table a build reports.
fn checksum(report: &Value) -> String {
    assert_eq!(report["tables"][0]["kind"], "gammon-cubeless", "{report}");
    format!(
        "sha256:{}",
        report["tables"][0]["checksum"].as_str().unwrap()
    )
}

/// Builds `variant` without the cube into the suite's folder as `file`, with `threads`
/// threads.
fn build_with(variant: &str, threads: &str, file: &str) -> Value {
    build(variant, Some(threads), &folder().join(file), false)
}

fn built(variant: &'static str) -> &'static Value {
    static BUILT: Built = OnceLock::new();
    built_once(&BUILT, variant, || {
        build_with(variant, "2", &format!("{variant}.tbl"))
    })
}

fn table(variant: &'static str) -> String {
    built(variant);
    folder()
        .join(format!("{variant}.tbl"))
        .display()
        .to_string()
}

#[test]
fn hyper1_and_hyper2_tables_have_the_manifests_checksums() {
    for variant in ["hyper1", "hyper2"] {
        assert_eq!(
            checksum(built(variant)),
            manifest(&format!("{variant}.tbl")),
            "{variant}"
        );
    }
}

// About 300 sweeps of 1.1 million states: run with `cargo test --release -- --ignored`.
#[test]
#[ignore = "a full solve of 1.1 million states; run with --ignored"]
fn the_nikoniko_12_table_has_the_manifests_checksum() {
    assert_eq!(checksum(built("nikoniko-12")), manifest("nikoniko-12.tbl"));
}

#[test]
fn hyper_tables_do_not_depend_on_the_thread_count() {
    for variant in ["hyper1", "hyper2"] {
        let one = build_with(variant, "1", &format!("{variant}-one-thread.tbl"));
        assert_eq!(checksum(&one), checksum(built(variant)), "{variant}");
    }
}

#[test]
fn the_hyper_openings_agree_with_gnubgs_databases() {
    // Values read from gnubg 1.07's hyper1.bd (record 648) and hyper2.bd (record
    // 121,792), built by its `makehyper`; gnubg stops at a change of 1e-5.
    let e1 = json(&[
        "gammon",
        "equity",
        "24/24",
        "--variant",
        "hyper1",
        "--json",
        "--table",
        &table("hyper1"),
    ]);
    assert_eq!(e1["index"], 648);
    assert!((e1["equity"].as_f64().unwrap() - 0.4527736).abs() < 1e-5);
    let e2 = json(&[
        "gammon",
        "equity",
        "24,23/24,23",
        "--variant",
        "hyper2",
        "--json",
        "--table",
        &table("hyper2"),
    ]);
    assert_eq!(e2["index"], 121_792);
    assert!((e2["equity"].as_f64().unwrap() - 0.1522440).abs() < 1e-5);
    assert!((e2["outcomes"]["win"].as_f64().unwrap() - 0.5354742).abs() < 1e-5);
}

#[test]
fn hyper3_counts_its_records_and_keiths_legal_positions() {
    let c = json(&["gammon", "count", "--variant", "hyper3", "--json"]);
    assert_eq!(c["records"], 10_732_176);
    assert_eq!(c["legal"], 7_959_904);
}

#[test]
fn a_position_id_a_record_and_the_notation_name_the_same_position() {
    let by_text = json(&[
        "gammon",
        "show",
        "24,23/24,23",
        "--variant",
        "hyper2",
        "--json",
    ]);
    let id = by_text["position_id"].as_str().unwrap().to_string();
    let by_id = json(&["gammon", "show", &id, "--variant", "hyper2", "--json"]);
    let record = by_text["index"].to_string();
    let by_record = json(&["gammon", "show", &record, "--variant", "hyper2", "--json"]);
    assert_eq!(by_id["position"], "24,23/24,23");
    assert_eq!(by_record["position"], "24,23/24,23");
}

#[test]
fn a_hint_values_each_play_as_minus_the_opponents_equity_after_it() {
    let h = json(&[
        "gammon",
        "hint",
        "24,23/24,23",
        "6-5",
        "--variant",
        "hyper2",
        "--json",
        "--table",
        &table("hyper2"),
    ]);
    let moves = h["moves"].as_array().unwrap();
    let all = json(&[
        "gammon",
        "moves",
        "24,23/24,23",
        "6-5",
        "--variant",
        "hyper2",
        "--json",
    ]);
    assert_eq!(moves.len(), all["moves"].as_array().unwrap().len());
    let mut last = f64::INFINITY;
    for m in moves {
        let e = m["equity"].as_f64().unwrap();
        assert!(e <= last);
        last = e;
        // The position after the play, with the opponent on roll.
        let (mine, theirs) = m["position"].as_str().unwrap().split_once('/').unwrap();
        let next = json(&[
            "gammon",
            "equity",
            &format!("{theirs}/{mine}"),
            "--variant",
            "hyper2",
            "--json",
            "--table",
            &table("hyper2"),
        ]);
        assert_eq!(e, -next["equity"].as_f64().unwrap());
    }
}

#[test]
fn the_opening_roll_winners_equity_is_the_mean_of_the_best_first_plays() {
    let o = json(&[
        "gammon",
        "opening",
        "--variant",
        "hyper2",
        "--json",
        "--table",
        &table("hyper2"),
    ]);
    let rolls = o["rolls"].as_array().unwrap();
    assert_eq!(rolls.len(), 15);
    let mean = rolls
        .iter()
        .map(|r| r["equity"].as_f64().unwrap())
        .sum::<f64>()
        / 15.0;
    assert!((o["winner_equity"].as_f64().unwrap() - mean).abs() < 1e-12);
    let h = json(&[
        "gammon",
        "hint",
        "24,23/24,23",
        "6-5",
        "--variant",
        "hyper2",
        "--json",
        "--table",
        &table("hyper2"),
    ]);
    let five_six = rolls.iter().find(|r| r["roll"] == "5-6").unwrap();
    assert_eq!(five_six["equity"], h["moves"][0]["equity"]);
}

#[test]
fn the_family_table_passes_its_own_bellman_check() {
    let v = json(&[
        "gammon",
        "verify",
        "--variant",
        "hyper2",
        "--json",
        "--table",
        &table("hyper2"),
    ]);
    assert_eq!(v["ok"], true, "{v}");
}

#[test]
fn the_article_table_answers_gammon_and_nikoniko_alike_and_knows_its_variant() {
    let t = crate::common::nikoniko_built().1.display().to_string();
    let ask = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["8,8,5,2,2/8,8,5,2,2", "--json", "--table", &t]);
        json(&all)
    };
    let by_nikoniko = ask(&["nikoniko", "equity"]);
    assert_eq!(
        ask(&["gammon", "equity", "--variant", "nikoniko"]),
        by_nikoniko
    );
    // The table says its variant: --table alone is enough.
    assert_eq!(ask(&["gammon", "equity"]), by_nikoniko);
    assert_eq!(by_nikoniko["index"], 562_767);
}

#[test]
fn gammon_with_the_variant_nikoniko_reads_the_family_table_not_the_articles() {
    // A tables folder holding only the article's table: the family's query fails,
    // naming the family's table and how to build it.
    let dir = tempfile::tempdir().unwrap();
    let article = crate::common::nikoniko_built().1.clone();
    std::fs::copy(&article, dir.path().join("nikoniko.tbl")).unwrap();
    std::fs::copy(
        article.with_extension("outcomes"),
        dir.path().join("nikoniko.outcomes"),
    )
    .unwrap();
    // Run from the temporary folder, with no per-user folder: a `tables/` of the working
    // copy or of the user's does not count.
    let out = tabula()
        .env("TABULA_TABLES", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .env("HOME", dir.path())
        .current_dir(dir.path())
        .args([
            "gammon",
            "equity",
            "8,8,5,2,2/8,8,5,2,2",
            "--variant",
            "nikoniko",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nikoniko-cube.tbl not found"), "{err}");
    assert!(
        err.contains("run `tabula gammon build --variant nikoniko`"),
        "{err}"
    );
    // The article's own command finds its table there.
    let a = tabula()
        .env("TABULA_TABLES", dir.path())
        .args(["nikoniko", "equity", "8,8,5,2,2/8,8,5,2,2"])
        .output()
        .unwrap();
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
}

#[test]
fn equities_print_to_six_decimals_whatever_the_variant_or_table() {
    let article = crate::common::nikoniko_built().1.display().to_string();
    for (position, table) in [
        ("8,8,5,2,2/8,8,5,2,2", article),
        ("24,23/24,23", table("hyper2")),
    ] {
        let out = tabula()
            .args(["gammon", "equity", position, "--table", &table])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text.lines().find(|l| l.starts_with("equity")).unwrap();
        let number = line.split_whitespace().nth(1).unwrap();
        assert_eq!(number.split_once('.').unwrap().1.len(), 6, "{line}");
    }
}

#[test]
fn bad_variants_exit_2_naming_the_fault() {
    for (variant, fault) in [
        ("points=8:checkers=0", "0 checkers"),
        ("points=8:checkers=2:start=9,8", "point 9"),
        ("points=8:checkers=2:faces=1,20", "face 20"),
        ("points=24:checkers=6", "16 bits"),
        ("hyper4", "unknown variant"),
    ] {
        let out = tabula()
            .args(["gammon", "count", "--variant", variant])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{variant}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(fault), "{variant}: {err}");
    }
    let out = tabula()
        .args([
            "gammon",
            "build",
            "--variant",
            "points=24:checkers=4",
            "--table",
        ])
        .arg(folder().join("huge.tbl"))
        .output()
        .unwrap();
    // The variant is sound; this machine's memory is not enough: a runtime failure.
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("GB"));
}

#[test]
fn a_missing_family_table_says_how_to_build_it() {
    let out = tabula()
        .args([
            "gammon",
            "equity",
            "24,23/24,23",
            "--variant",
            "hyper2",
            "--table",
        ])
        .arg(folder().join("absent.tbl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tabula gammon build --variant hyper2"));
}

fn cube_table(variant: &str) -> String {
    let table = folder().join(format!("{variant}-cube.tbl"));
    if !table.with_extension("cube").exists() {
        build(variant, None, &table, true);
    }
    table.display().to_string()
}

/// The payload checksum of a cube table, as `tabula table info` prints it.
fn cube_checksum(table: &str) -> String {
    let cube = std::path::Path::new(table).with_extension("cube");
    let info = json(&["table", "info", cube.to_str().unwrap(), "--json"]);
    assert_eq!(info["kind"], "gammon-cubeful");
    format!("sha256:{}", info["checksum"].as_str().unwrap())
}

#[test]
fn hyper1_and_hyper2_cube_tables_have_the_manifests_checksums() {
    for variant in ["hyper1", "hyper2"] {
        assert_eq!(
            cube_checksum(&cube_table(variant)),
            manifest(&format!("{variant}.cube")),
            "{variant}"
        );
    }
}

// The cube of 1.1 million states, on one thread (the manifest's on two): run with
// `cargo test --release -- --ignored`.
#[test]
#[ignore = "a cubeful solve of 1.1 million states; run with --ignored"]
fn the_nikoniko_cube_table_has_the_manifests_checksum_on_one_thread() {
    let table = folder().join("nikoniko-cube-1.tbl");
    build("nikoniko", Some("1"), &table, true);
    assert_eq!(
        cube_checksum(table.to_str().unwrap()),
        manifest("nikoniko-cube.cube")
    );
}

#[test]
fn the_hyper1_opening_is_a_double_and_a_take_and_the_hyper2_opening_no_double() {
    let e1 = json(&[
        "gammon",
        "equity",
        "24/24",
        "--variant",
        "hyper1",
        "--json",
        "--table",
        &cube_table("hyper1"),
    ]);
    assert_eq!(e1["cube"]["action"], "double, take");
    // gnubg 1.07's hyper1.bd, record 648: owned, centred, Jacoby, opponent owns (no pass
    // position in Hypergammon-1, so gnubg's cube is right there).
    for (key, gnubg) in [
        ("owned", 0.5882762),
        ("centred", 0.5393156),
        ("centred_jacoby", 0.4556764),
        ("opponent_owns", 0.3863552),
    ] {
        assert!(
            (e1["cubeful"][key].as_f64().unwrap() - gnubg).abs() < 1e-5,
            "{key}"
        );
    }
    let e2 = json(&[
        "gammon",
        "equity",
        "24,23/24,23",
        "--variant",
        "hyper2",
        "--json",
        "--table",
        &cube_table("hyper2"),
    ]);
    assert_eq!(e2["cube"]["action"], "no double");
    // The cubeless part of a cube build is the same table.
    assert_eq!(
        e2["equity"],
        json(&[
            "gammon",
            "equity",
            "24,23/24,23",
            "--variant",
            "hyper2",
            "--json",
            "--table",
            &table("hyper2")
        ])["equity"]
    );
}

#[test]
fn a_cubeful_hint_ranks_by_the_cubeful_equity_of_the_state_asked_for() {
    let h = json(&[
        "gammon",
        "hint",
        "24,23/24,23",
        "6-5",
        "--variant",
        "hyper2",
        "--cube",
        "centred",
        "--json",
        "--table",
        &cube_table("hyper2"),
    ]);
    let values: Vec<f64> = h["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["cubeful"].as_f64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
}

#[test]
fn a_cubeful_hint_of_a_cubeless_table_fails_naming_the_command_that_builds_the_cube() {
    let out = tabula()
        .args([
            "gammon",
            "hint",
            "24,23/24,23",
            "6-5",
            "--cube",
            "owned",
            "--table",
        ])
        .arg(table("hyper2"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no cube table"), "{stderr}");
    assert!(
        stderr.contains("tabula gammon build --variant hyper2"),
        "{stderr}"
    );
}

#[test]
fn play_with_the_cube_needs_a_cube_table_and_names_the_command_that_builds_it() {
    let out = tabula()
        .args([
            "gammon",
            "play",
            "--variant",
            "hyper1",
            "--cube",
            "--table",
            &table("hyper1"),
        ])
        .write_stdin("q\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no cube table"), "{stderr}");
    assert!(
        stderr.contains("tabula gammon build --variant hyper1 --table"),
        "{stderr}"
    );
    // With its cube table the table doubles in Hypergammon-1 once the opening roll is
    // played (the opening is a double and a take, as gnubg's database has it above); a
    // pass loses the cube's value. The human rolls, passes and plays the first play: a
    // refused answer is asked again with the next line.
    let out = tabula()
        .args([
            "gammon",
            "play",
            "--variant",
            "hyper1",
            "--cube",
            "--second",
            "--seed",
            "1",
            "--table",
            &cube_table("hyper1"),
        ])
        .write_stdin("r\np\n1\n".repeat(30))
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("O doubles to 2"), "{stdout}");
    assert!(
        stdout.contains("You pass: you lose 1 point(s).\n"),
        "{stdout}"
    );
    // The game over, the session's score; the input's end declines another game.
    assert!(
        stdout.contains("Session: you -1 point(s) after 1 finished game(s).\nAnother game? [y/n] "),
        "{stdout}"
    );
}

#[test]
fn hint_json_gives_each_plays_loss_and_the_position_id_after_it_as_show_reads_it() {
    let table = table("hyper2");
    let hint = json(&[
        "gammon",
        "hint",
        "24,23/24,23",
        "65",
        "--table",
        &table,
        "--json",
    ]);
    let moves = hint["moves"].as_array().unwrap();
    assert!(moves.len() > 3);
    let best = moves[0]["equity"].as_f64().unwrap();
    for m in moves {
        // Cubeless: the loss is the best equity less the play's.
        let loss = best - m["equity"].as_f64().unwrap();
        assert!((m["loss"].as_f64().unwrap() - loss).abs() < 1e-12, "{m}");
        // The position after the play, the opponent on roll, read back from its ID.
        let mover_first = m["position"].as_str().unwrap();
        let (us, them) = mover_first.split_once('/').unwrap();
        let id = m["position_id"].as_str().unwrap();
        let shown = json(&["gammon", "show", id, "--variant", "hyper2", "--json"]);
        assert_eq!(shown["position"], format!("{them}/{us}"), "{m}");
    }
}

#[test]
fn an_error_under_json_is_one_json_document_on_stderr_with_the_same_exit_status() {
    for (args, code, kind) in [
        (
            vec!["gammon", "show", "99/1", "--variant", "hyper1", "--json"],
            2,
            "input",
        ),
        (vec!["gammon", "show", "--json"], 2, "usage"),
        (
            vec![
                "gammon",
                "equity",
                "24/24",
                "--table",
                "/no/such/h.tbl",
                "--json",
            ],
            1,
            "table",
        ),
    ] {
        let out = tabula().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert!(out.stdout.is_empty());
        let doc: Value = serde_json::from_slice(&out.stderr).expect("one JSON document");
        assert_eq!(doc["error"]["kind"], kind, "{args:?}");
        assert_eq!(doc["error"]["exit_code"], code);
        assert!(!doc["error"]["message"].as_str().unwrap().is_empty());
    }
    // Without --json, the same fault is a line of text.
    let out = tabula()
        .args(["gammon", "show", "99/1", "--variant", "hyper1"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("tabula: position 99/1"));
}

#[test]
fn the_cube_verdict_lists_only_what_the_side_with_access_may_choose() {
    let table = cube_table("hyper1");
    let text = |cube: &str| {
        let out = tabula()
            .args([
                "gammon", "equity", "24/24", "--table", &table, "--cube", cube,
            ])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let doc = json(&["gammon", "equity", "24/24", "--table", &table, "--json"]);
    let cube = &doc["cube"];
    let (nd, dt) = (
        cube["no_double"].as_f64().unwrap(),
        cube["double_take"].as_f64().unwrap(),
    );
    // The opening of Hypergammon-1: double, take (gnubg's database agrees, gammon_gnubg).
    assert_eq!(cube["proper"], "Double, take");
    assert_eq!(cube["response"], "take");
    assert!((cube["doubling_margin"].as_f64().unwrap() - (dt.min(1.0) - nd)).abs() < 1e-12);
    assert!((cube["take_margin"].as_f64().unwrap() - (1.0 - dt)).abs() < 1e-12);
    let centred = text("centred");
    assert!(
        centred.contains("Proper cube action: Double, take"),
        "{centred}"
    );
    assert!(
        centred.contains(&format!("1. Double, take     {dt:+.6}")),
        "{centred}"
    );
    let opponent = text("opponent-owns");
    assert!(opponent.contains("no access to the cube"), "{opponent}");
    assert!(!opponent.contains("Double, take"), "{opponent}");
}
