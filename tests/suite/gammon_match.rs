//! Match play from the command line: `tabula gammon met`, `score-build`, `score-plan`,
//! and `equity`, `hint`, `play` at a score — the match-equity table's exact values and
//! checksums, the same bytes by every route and thread count, the known limits (1-1, the
//! Crawford game, post-Crawford free drops), gnubg's file format, and bad input.

use crate::common::{json, json_of, manifest, succeed, tabula};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A fresh folder for match tables.
fn fresh() -> PathBuf {
    crate::scratch::folder()
}

/// `tabula gammon met --variant V --length N --json` into `folder`, on `threads` threads
/// when given.
fn met(variant: &str, length: u32, folder: &Path, threads: Option<&str>) -> Value {
    let mut command = tabula();
    if let Some(t) = threads {
        command.env("RAYON_NUM_THREADS", t);
    }
    json_of(
        command
            .args(["gammon", "met", "--variant", variant, "--quiet", "--json"])
            .args(["--length", &length.to_string(), "--match-tables"])
            .arg(folder),
    )
}

/// Hypergammon-1 to 7 points, solved once for this module: the folder and the report.
fn hyper1() -> &'static (PathBuf, Value) {
    static BUILT: OnceLock<(PathBuf, Value)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = fresh();
        let report = met("hyper1", 7, &dir, None);
        (dir, report)
    })
}

/// Two checkers a side on 12 points, to 3 points: games with gammons that are not
/// certain, solved in a fraction of a second.
const SMALL: &str = "points=12:checkers=2";

fn small() -> &'static (PathBuf, Value) {
    static BUILT: OnceLock<(PathBuf, Value)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = fresh();
        let report = met(SMALL, 3, &dir, None);
        (dir, report)
    })
}

/// `tabula gammon ARGS --json --match-tables FOLDER`.
fn at(folder: &Path, args: &[&str]) -> Value {
    let folder = folder.display().to_string();
    let mut all = vec!["gammon"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", "--match-tables", &folder]);
    json(&all)
}

/// `tabula gammon QUERY… --variant V --score S EXTRA… --json` over the match tables in
/// `folder`.
fn at_score(folder: &Path, query: &[&str], variant: &str, score: &str, extra: &[&str]) -> Value {
    let mut args = query.to_vec();
    args.extend_from_slice(&["--variant", variant, "--score", score]);
    args.extend_from_slice(extra);
    at(folder, &args)
}

/// The checksum of each unit's table in a `met` report, by unit.
fn checksums(report: &Value) -> Vec<(String, String)> {
    report["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["unit"].as_str().unwrap().to_string(),
                u["table"]["checksum"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn the_hyper1_match_equity_table_holds_the_values_its_rules_force_and_the_manifests_checksums() {
    let (_, report) = hyper1();
    assert_eq!(report["length"], 7);
    let met = report["met"].as_array().unwrap();
    let post = report["post_crawford"].as_array().unwrap();
    assert_eq!((met.len(), post.len()), (7, 7));
    for (a, row) in met.iter().enumerate() {
        assert_eq!(row.as_array().unwrap().len(), 7);
        for (b, column) in met.iter().enumerate() {
            let sum = f(&row[b]) + f(&column[a]);
            assert!((sum - 1.0).abs() < 1e-15, "{a} {b}: {sum}");
        }
    }
    // 1-1 is one half; with one checker a side every win is a gammon or more, so at 2-2
    // and in the Crawford game at 1-2 every game decides the match: one half too.
    assert_eq!(f(&met[0][0]), 0.5);
    assert_eq!(f(&met[1][1]), 0.5);
    assert_eq!(f(&met[0][1]), 0.5);
    assert_eq!(f(&post[0]), 0.5);
    // At 1-4 (Crawford) the trailer's gammon leads to 1-2 and its backgammon to 1-1 (post
    // Crawford), both worth one half to it: the leader has 1/2 + 1/2 · 1/2.
    assert!((f(&met[0][3]) - 0.75).abs() < 1e-12, "{}", met[0][3]);
    for (unit, checksum) in checksums(report) {
        let name = format!("hyper1.match-{unit}.tbl");
        if ["1-1", "1-4-crawford", "2-3", "3-5", "7-7"].contains(&unit.as_str()) {
            assert_eq!(format!("sha256:{checksum}"), manifest(&name), "{name}");
        }
    }
}

#[test]
fn every_score_built_apart_gives_the_same_bytes_as_the_whole_match_in_one_process() {
    let one = met("hyper1", 3, &fresh(), None);
    let dir = fresh();
    // The units in the order the plan lists them (each after those it reads).
    for (unit, _) in checksums(&one) {
        let (score, crawford) = match unit.strip_suffix("-post-crawford") {
            Some(s) => (s.to_string(), false),
            None => match unit.strip_suffix("-crawford") {
                Some(s) => (s.to_string(), true),
                None => (unit.clone(), false),
            },
        };
        let mut command = tabula();
        command.args(["gammon", "score-build", "--variant", "hyper1", "--quiet"]);
        command
            .args(["--score", &score, "--match-tables"])
            .arg(&dir);
        if crawford {
            command.arg("--crawford");
        }
        succeed(&mut command);
    }
    // Read back by `met`, which now finds every table.
    let again = met("hyper1", 3, &dir, None);
    assert_eq!(checksums(&again), checksums(&one));
    assert!(again["units"]
        .as_array()
        .unwrap()
        .iter()
        .all(|u| u["solve"].is_null()));
}

#[test]
fn a_score_whose_inputs_are_missing_names_the_command_that_builds_them() {
    let out = tabula()
        .args([
            "gammon",
            "score-build",
            "--variant",
            "hyper1",
            "--score",
            "3-2",
        ])
        .arg("--match-tables")
        .arg(fresh())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not found"), "{stderr}");
    assert!(
        stderr.contains("tabula gammon met --variant hyper1"),
        "{stderr}"
    );
}

#[test]
fn the_plan_has_a_rule_for_each_score_after_the_scores_it_reads() {
    let out = tabula()
        .args([
            "gammon",
            "score-plan",
            "--variant",
            "hyper1",
            "--length",
            "3",
        ])
        .args(["--match-tables", "T"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let plan = String::from_utf8(out.stdout).unwrap();
    assert!(plan.contains("TABULA ?= 'tabula'"), "{plan}");
    // 3-3 reads 1-1 (where the cube dies), 2-3 and the Crawford game 1-3.
    let rule = plan
        .lines()
        .find(|l| l.starts_with("T/hyper1.match-3-3.tbl:"))
        .unwrap();
    for dep in ["1-1", "2-3", "1-3-crawford"] {
        assert!(
            rule.contains(&format!("T/hyper1.match-{dep}.tbl")),
            "{rule}"
        );
    }
    assert!(plan.contains(
        "\t$(TABULA) gammon score-build --variant 'hyper1' --score 1-3 --crawford --match-tables 'T' --quiet"
    ));
    assert_eq!(plan.matches("score-build").count(), 8);
}

// Runs make: `cargo test --release -- --ignored`.
#[test]
#[ignore = "runs make -j2 on a plan; run with --ignored"]
fn make_runs_the_plan_in_parallel_to_the_same_tables() {
    let dir = fresh();
    let plan = tabula()
        .args([
            "gammon",
            "score-plan",
            "--variant",
            "hyper1",
            "--length",
            "4",
        ])
        .arg("--match-tables")
        .arg(&dir)
        .output()
        .unwrap();
    let file = dir.join("plan.mk");
    std::fs::write(&file, plan.stdout).unwrap();
    let program = assert_cmd::cargo::cargo_bin("tabula");
    let status = std::process::Command::new("make")
        .args(["-j2", "-s", "-f"])
        .arg(&file)
        .arg(format!("TABULA={}", program.display()))
        .status()
        .unwrap();
    assert!(status.success());
    let again = met("hyper1", 4, &dir, None);
    assert!(again["units"]
        .as_array()
        .unwrap()
        .iter()
        .all(|u| u["solve"].is_null()));
    assert_eq!(
        checksums(&again),
        checksums(&met("hyper1", 4, &fresh(), None))
    );
}

// hyper2's sweeps run on two threads (hyper1's levels are too small to share).
#[test]
#[ignore = "solves hyper2's match to 2 points twice; run with --ignored"]
fn match_tables_do_not_depend_on_the_thread_count_and_have_the_manifests_checksums() {
    let one = met("hyper2", 2, &fresh(), Some("1"));
    let two = met("hyper2", 2, &fresh(), Some("2"));
    assert_eq!(checksums(&one), checksums(&two));
    for (unit, checksum) in checksums(&one) {
        let name = format!("hyper2.match-{unit}.tbl");
        assert_eq!(format!("sha256:{checksum}"), manifest(&name), "{name}");
    }
}

#[test]
fn at_one_away_one_away_every_game_decides_the_match_and_the_cube_is_dead() {
    let (dir, _) = hyper1();
    let e = at_score(dir, &["equity", "24/24"], "hyper1", "1-1", &[]);
    assert!(e["cube_action"].is_null(), "{e}");
    let turned = at_score(
        dir,
        &["equity", "24/24"],
        "hyper1",
        "1-1",
        &["--cube", "4", "--owner", "opponent"],
    );
    assert_eq!(e["mwc"], turned["mwc"]);
    // gnubg's hyper1.bd: the opening's chance of winning, 0.6015828 (every game there
    // is played to win it: at 1-1 gammons are worth nothing more).
    assert!((f(&e["mwc"]) - 0.6015828).abs() < 1e-6, "{e}");
    // The cube at 4 or more is as dead at 3-4 as at 1-1: the same chance.
    let dead = at_score(
        dir,
        &["equity", "24/24"],
        "hyper1",
        "3-4",
        &["--cube", "4", "--owner", "on-roll"],
    );
    assert_eq!(dead["mwc"], e["mwc"]);
    assert!(dead["cube_action"].is_null());
}

#[test]
fn the_crawford_game_is_played_without_the_cube() {
    let (dir, _) = hyper1();
    let e = at_score(dir, &["equity", "24/24"], "hyper1", "1-3", &["--crawford"]);
    assert!(e["cube_action"].is_null(), "{e}");
    assert_eq!(e["score"]["game"], "crawford");
    let post = at_score(dir, &["equity", "24/24"], "hyper1", "1-3", &[]);
    assert_eq!(post["score"]["game"], "post-crawford");
    let out = tabula()
        .args([
            "gammon",
            "equity",
            "24/24",
            "--variant",
            "hyper1",
            "--score",
            "1-3",
        ])
        .args([
            "--crawford",
            "--cube",
            "2",
            "--owner",
            "on-roll",
            "--match-tables",
        ])
        .arg(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("without the cube"));
}

#[test]
fn post_crawford_the_trailer_doubles_and_the_leader_drops_for_free() {
    let (dir, _) = small();
    // The trailer (2 away) on roll bears off its checkers on 3 and 2 with any roll
    // without a 1 (25 of 36); the leader, one checker left on its 1 point, has borne one
    // off, so the trailer wins no gammon. Not doubling, a win leads to 1-1: 25/72. A take
    // leaves the cube dead, worth its chance of winning the game, 25/36; a pass leads to
    // 1-1, one half: the leader drops for free.
    let e = at_score(dir, &["equity", "3,2/1"], SMALL, "2-1", &[]);
    let a = &e["cube_action"];
    assert_eq!(a["action"], "double, pass", "{e}");
    assert!((f(&a["no_double"]) - 25.0 / 72.0).abs() < 1e-9, "{e}");
    assert!((f(&a["double_take"]) - 25.0 / 36.0).abs() < 1e-9, "{e}");
    assert_eq!(f(&a["double_pass"]), 0.5);
    // A single win is worth no more than a double's (it reaches 1-1 either way): the
    // doubling point is 0.
    assert_eq!(f(&e["market_window"]["doubling_point"]), 0.0);
    // At the opening the trailer's gammons (each wins the match) make playing on better
    // than the leader's drop: too good to double.
    let opening = at_score(dir, &["equity", "12,11/12,11"], SMALL, "2-1", &[]);
    assert_eq!(opening["cube_action"]["action"], "too good", "{opening}");
    // The leader gains nothing by doubling: its wins take the match already.
    let leader = at_score(dir, &["equity", "1/3,2"], SMALL, "1-2", &[]);
    let action = leader["cube_action"]["action"].as_str().unwrap();
    assert!(["no double", "too good"].contains(&action), "{leader}");
}

#[test]
fn a_hint_at_a_score_ranks_the_plays_by_match_winning_chance() {
    let (dir, _) = small();
    let h = at_score(dir, &["hint", "12,11/12,11", "6-5"], SMALL, "3-2", &[]);
    let values: Vec<f64> = h["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| f(&m["mwc"]))
        .collect();
    assert!(
        values.len() > 1 && values.windows(2).all(|w| w[0] >= w[1]),
        "{values:?}"
    );
    assert_eq!(f(&h["moves"][0]["loss"]), 0.0);
}

// An answer at a score gives its XGID with the score (the match to the larger need), and
// that XGID alone, without --score, asks the same question: the same score, cube and
// answer, for `equity` and for `hint`.
#[test]
fn an_xgid_at_a_score_carries_the_score_and_the_cube_both_ways() {
    let (dir, _) = hyper1();
    let cases: [(&str, &[&str]); 5] = [
        ("3-5", &[]),
        ("5-3", &["--cube", "2", "--owner", "opponent"]),
        ("1-4", &["--crawford"]),
        ("1-4", &["--cube", "2", "--owner", "on-roll"]),
        ("6-6", &["--cube", "4", "--owner", "on-roll"]),
    ];
    for (score, extra) in cases {
        let asked = at_score(dir, &["equity", "20/18"], "hyper1", score, extra);
        let x = asked["xgid"].as_str().unwrap().to_string();
        assert!(
            !x.ends_with(":0:10"),
            "{score} {extra:?}: {x} is a money XGID"
        );
        let again = at(dir, &["equity", &x, "--variant", "hyper1"]);
        for key in ["score", "cube", "mwc", "cube_action", "xgid"] {
            assert_eq!(asked[key], again[key], "{score} {extra:?}: {key} from {x}");
        }
        let hint = at_score(dir, &["hint", "20/18", "6-5"], "hyper1", score, extra);
        let again = at(dir, &["hint", &x, "6-5", "--variant", "hyper1"]);
        assert_eq!(hint, again, "{score} {extra:?}: hint from {x}");
    }
}

#[test]
fn the_table_written_in_gnubgs_format_reads_back_as_the_same_table() {
    let (dir, report) = hyper1();
    let file = dir.join("hyper1-7.xml");
    let again = at(
        dir,
        &[
            "met",
            "--variant",
            "hyper1",
            "--length",
            "7",
            "--quiet",
            "--gnubg",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(again["met"], report["met"]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("<pre-crawford-table type=\"explicit\">"),
        "{text}"
    );
    assert!(text.contains("<post-crawford-table type=\"explicit\" player=\"both\">"));
    let compared = at(
        dir,
        &[
            "met",
            "--variant",
            "hyper1",
            "--length",
            "7",
            "--quiet",
            "--compare",
            file.to_str().unwrap(),
        ],
    );
    let largest = f(&compared["compared"]["largest"][0]);
    // Written to twelve decimals.
    assert!(largest.abs() < 1e-12, "{largest}");
}

#[test]
fn a_match_played_in_the_terminal_ends_with_a_winner() {
    let (dir, _) = hyper1();
    let out = succeed(
        tabula()
            .args([
                "gammon",
                "play",
                "--variant",
                "hyper1",
                "--match",
                "3",
                "--seed",
                "4",
            ])
            .arg("--match-tables")
            .arg(dir)
            .write_stdin("r\nt\n1\n".repeat(500)),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("A match to 3 point(s)"), "{stdout}");
    assert!(stdout.contains("Opening roll: you throw"), "{stdout}");
    assert!(stdout.contains(" the match to 3 ("), "{stdout}");
}

#[test]
fn bad_lengths_scores_and_cubes_are_refused_with_status_2() {
    let (dir, _) = hyper1();
    let dir = dir.display().to_string();
    let cases: [&[&str]; 9] = [
        &["met", "--variant", "hyper1", "--length", "0"],
        &["met", "--variant", "hyper1", "--length", "65"],
        &["equity", "24/24", "--variant", "hyper1", "--score", "0-3"],
        &["equity", "24/24", "--variant", "hyper1", "--score", "3-x"],
        &[
            "equity",
            "24/24",
            "--variant",
            "hyper1",
            "--score",
            "2-2",
            "--crawford",
        ],
        &[
            "equity",
            "24/24",
            "--variant",
            "hyper1",
            "--score",
            "3-5",
            "--cube",
            "3",
            "--owner",
            "on-roll",
        ],
        &[
            "equity",
            "24/24",
            "--variant",
            "hyper1",
            "--score",
            "3-5",
            "--cube",
            "2",
        ],
        &[
            "equity",
            "24/24",
            "--variant",
            "hyper1",
            "--score",
            "3-5",
            "--cube",
            "owned",
        ],
        &["equity", "24/24", "--variant", "hyper1", "--cube", "2"],
    ];
    for args in cases {
        let out = tabula()
            .arg("gammon")
            .args(args)
            .args(["--match-tables", &dir])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(stderr.starts_with("tabula: "), "{args:?}: {stderr}");
    }
}

#[test]
fn a_score_whose_table_is_missing_names_the_command_that_builds_it() {
    let out = tabula()
        .args([
            "gammon",
            "equity",
            "24/24",
            "--variant",
            "hyper1",
            "--score",
            "3-5",
        ])
        .arg("--match-tables")
        .arg(fresh())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tabula gammon met --variant hyper1 --length 5"),
        "{stderr}"
    );
}

/// gnubg's market window for one player, as `show marketwindow` prints it.
struct GnubgWindow {
    /// The dead cube's doubling point and take point (where the opponent would not
    /// redouble at once).
    dead: (f64, f64),
    /// The window where the opponent redoubles at once, where gnubg shows one.
    redouble: Option<(f64, f64)>,
    /// The live cube's take point, where gnubg shows one.
    live: Option<f64>,
}

/// gnubg's `show marketwindow 0 0 0 0` for player 0 ("gnubg") with the match-equity table
/// `met` loaded, at a match to `length` where player 0 needs `me` and player 1 `them`.
fn gnubg_window(met: &Path, length: u32, me: u32, them: u32) -> GnubgWindow {
    let script = format!(
        "set matchequitytable {}\nset player 0 human\nset player 1 human\nnew match {length}\n\
         set score {} {}\nshow marketwindow 0 0 0 0\n",
        met.display(),
        length - me,
        length - them
    );
    let out = std::process::Command::new("/usr/games/gnubg")
        .args(["-t", "-q", "-r"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(script.as_bytes())?;
            child.wait_with_output()
        })
        .expect("gnubg runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mine = text
        .split("Player gnubg market window:")
        .nth(1)
        .unwrap_or_else(|| panic!("no window in {text}"));
    let mine = mine.split("market window:").next().unwrap();
    // The two percentages of a line `Dead cube …: 27.04% -  54.31%`.
    let pair = |start: &str| -> Option<(f64, f64)> {
        let line = mine.lines().find(|l| l.starts_with(start))?;
        let p: Vec<f64> = line
            .split('%')
            .filter_map(|p| p.split_whitespace().last())
            .filter_map(|p| p.parse::<f64>().ok())
            .map(|p| p / 100.0)
            .collect();
        Some((p[0], p[1]))
    };
    GnubgWindow {
        dead: pair("Dead cube").unwrap_or_else(|| panic!("no dead cube in {mine}")),
        redouble: pair("Dead cube (opponent redoubles)"),
        live: pair("Live cube").map(|p| p.1),
    }
}

// Needs gnubg (/usr/games/gnubg); CI skips the tests named gnubg.
#[test]
#[ignore = "needs gnubg; run with --ignored gnubg"]
fn gnubg_loads_the_exported_table_and_shows_the_same_market_windows() {
    let dir = fresh();
    let report = met(SMALL, 5, &dir, None);
    let file = dir.join("small-5.xml");
    at(
        &dir,
        &[
            "met",
            "--variant",
            SMALL,
            "--length",
            "5",
            "--quiet",
            "--gnubg",
            file.to_str().unwrap(),
        ],
    );
    assert_eq!(report["length"], 5);
    // gnubg prints two decimals of a percentage.
    let close = |ours: &Value, theirs: f64| (f(ours) - theirs).abs() < 6e-5;
    let mut redoubles = 0;
    for (me, them) in [(3, 5), (5, 3), (2, 4), (4, 4), (2, 5), (5, 2), (4, 5)] {
        let score = format!("{me}-{them}");
        let ours = at_score(&dir, &["equity", "12,11/12,11"], SMALL, &score, &[]);
        let w = &ours["market_window"];
        let g = gnubg_window(&file, 5, me, them);
        assert!(
            close(&w["doubling_point"], g.dead.0),
            "{score}: {w} vs {:?}",
            g.dead
        );
        assert!(
            close(&w["take_point"], g.dead.1),
            "{score}: {w} vs {:?}",
            g.dead
        );
        match g.redouble {
            Some((d, t)) => {
                redoubles += 1;
                let r = &w["with_redouble"];
                assert!(
                    close(&r[0], d) && close(&r[1], t),
                    "{score}: {w} vs {d} {t}"
                );
            }
            None => assert!(w["with_redouble"].is_null(), "{score}: {w}"),
        }
        if let Some(live) = g.live {
            assert!(close(&w["take_point_live"], live), "{score}: {w} vs {live}");
        }
    }
    assert!(
        redoubles > 0,
        "no score with an immediate redouble was compared"
    );
}

/// The tables `make` builds from a plan in folders whose names hold what make and the
/// shell read as their own syntax (a space, `$`, `#`, `:`, quotes), run by a program whose
/// path holds a space: each table byte for byte `met`'s. What make cannot be given (`%`,
/// `=`, a line break) is refused, naming the folder.
#[test]
fn a_plan_quotes_what_make_and_the_shell_read_and_refuses_what_they_cannot() {
    let root = fresh();
    let reference = root.join("reference");
    std::fs::create_dir(&reference).unwrap();
    met("hyper1", 2, &reference, None);
    let program = root.join("bin dir").join("tab ula");
    std::fs::create_dir(program.parent().unwrap()).unwrap();
    std::fs::copy(assert_cmd::cargo::cargo_bin("tabula"), &program).unwrap();
    for name in [
        "a b",
        "plan$x",
        "h#sh",
        "co:lon",
        "q'uo\"te",
        "all $x #: '\"*?[]",
    ] {
        let dir = root.join(name);
        std::fs::create_dir(&dir).unwrap();
        let plan = tabula()
            .args([
                "gammon",
                "score-plan",
                "--variant",
                "hyper1",
                "--length",
                "2",
            ])
            .arg("--match-tables")
            .arg(&dir)
            .arg("--program")
            .arg(&program)
            .output()
            .unwrap();
        assert!(plan.status.success(), "{name}");
        let file = root.join(format!("{}.mk", name.len()));
        std::fs::write(&file, plan.stdout).unwrap();
        let made = std::process::Command::new("make")
            .args(["-s", "-j2", "-f"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(made.status.success(), "{name}: {made:?}");
        let mut built: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        built.sort();
        assert_eq!(built.len(), 4, "{name}: {built:?}");
        for table in built {
            assert_eq!(
                std::fs::read(dir.join(&table)).unwrap(),
                std::fs::read(reference.join(&table)).unwrap(),
                "{name}/{table}"
            );
        }
    }
    // Nothing was written anywhere else (`plan$x` once made `make` write into `plan`).
    assert!(!root.join("plan").exists());
    for name in ["p%q", "x=y", "new\nline"] {
        let out = tabula()
            .args([
                "gammon",
                "score-plan",
                "--variant",
                "hyper1",
                "--length",
                "2",
            ])
            .arg("--match-tables")
            .arg(root.join(name))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("a Makefile cannot name it"), "{err}");
    }
}

#[test]
fn a_match_longer_than_64_points_is_refused_before_anything_is_looked_for() {
    for length in ["65", "65536"] {
        let out = tabula()
            .args(["gammon", "play", "--variant", "hyper1", "--match", length])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(!err.contains("met --length"), "{err}");
    }
}
