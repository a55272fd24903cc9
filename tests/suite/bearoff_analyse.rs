//! `tabula bearoff analyse` on real files: a money session and a match to one that GNU
//! Backgammon played against itself (`scripts/gnubg_match_files.sh`, `tests/data/gnubg/`;
//! the `.sgf` without gnubg's analysis properties). Every decision judged is checked
//! against a second way to the same number: `bearoff hint` and `bearoff equity` asked
//! about the decision's XGID with the cube as the player saw it; a worse play written
//! into the file loses what `hint` says it loses; the `.sgf` and `.mat` of a match
//! analyse alike; damaged files get messages naming file and line, and partial analyses.

use crate::bearoff_cli::table;
use crate::common::{json_of, tabula};
use crate::gammon_analyse::{
    compare_with, cut_anywhere, gnubg_analysis_of, the_bad_move_is_reported, with_a_bad_move,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/gnubg")
        .join(name)
}

/// `bearoff analyse FILE --all --json ARGS…` with the suite's 6×6 table: the document,
/// the exit code and stderr.
fn analyse(file: &Path, args: &[&str]) -> (Value, i32, String) {
    let out = tabula()
        .args(["bearoff", "analyse", "--all", "--json", "--table"])
        .arg(table("bearoff-ts-6x6.tbl"))
        .args(args)
        .arg(file)
        .output()
        .unwrap();
    let doc = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (doc, out.status.code().unwrap_or(-1), err)
}

/// One judged decision: (line, player, kind, XGID, roll, chosen, best, loss).
struct Decision {
    line: u64,
    player: u64,
    kind: String,
    xgid: String,
    roll: Option<String>,
    chosen: String,
    best: String,
    loss: f64,
    normalised: f64,
    /// The position, `ROLLER/OPPONENT`.
    position: String,
}

fn decisions(doc: &Value) -> Vec<Decision> {
    let mut out = Vec::new();
    for g in doc["games"].as_array().unwrap() {
        for s in g["steps"].as_array().unwrap() {
            let player = s["player"].as_u64().unwrap();
            let d = &g["reviews"][player as usize]["decisions"]
                [s["decision"].as_u64().unwrap() as usize];
            out.push(Decision {
                line: s["line"].as_u64().unwrap(),
                player,
                kind: d["kind"].as_str().unwrap().to_string(),
                xgid: s["xgid"].as_str().unwrap().to_string(),
                roll: d["roll"].as_str().map(String::from),
                chosen: d["chosen"].as_str().unwrap().to_string(),
                best: d["best"].as_str().unwrap().to_string(),
                loss: d["loss"].as_f64().unwrap(),
                normalised: d["normalised"].as_f64().unwrap(),
                position: d["position"].as_str().unwrap().to_string(),
            });
        }
    }
    out
}

/// The cube state an XGID gives the side on roll (its owner field: 0 centred, 1 the side
/// on roll, -1 its opponent).
fn cube_state(xgid: &str) -> &'static str {
    match xgid.split(':').nth(2).unwrap() {
        "0" => "centred",
        "1" => "owned",
        "-1" => "opponent-owns",
        other => panic!("owner {other} in {xgid}"),
    }
}

/// `bearoff hint` of a decision, with the cube as its XGID gives it (none: cubeless).
fn hint(xgid: &str, roll: &str, cube: Option<&str>) -> Value {
    let t = table("bearoff-ts-6x6.tbl");
    let mut args = vec!["bearoff", "hint", xgid, roll, "--table", &t, "--json"];
    if let Some(c) = cube {
        args.extend(["--cube", c]);
    }
    json_of(tabula().args(&args))
}

fn equity(xgid: &str, cube: &str) -> Value {
    let t = table("bearoff-ts-6x6.tbl");
    json_of(tabula().args([
        "bearoff", "equity", xgid, "--table", &t, "--cube", cube, "--json",
    ]))
}

/// Checks one money decision against `hint` / `equity`.
fn check_money(d: &Decision) {
    let state = cube_state(&d.xgid);
    match d.kind.as_str() {
        "play" => {
            let h = hint(&d.xgid, d.roll.as_deref().unwrap(), Some(state));
            let plays = h["plays"].as_array().unwrap();
            let of = |text: &str| {
                plays
                    .iter()
                    .find(|p| p["play"] == text)
                    .unwrap_or_else(|| panic!("{text} not among {plays:?}"))
            };
            let chosen = of(&d.chosen);
            assert!(
                (chosen["loss"].as_f64().unwrap() - d.loss).abs() < 1e-12,
                "line {}: {} loses {} by the analysis, {} by hint",
                d.line,
                d.chosen,
                d.loss,
                chosen["loss"]
            );
            // The best play: hint's first, or one worth exactly as much.
            assert_eq!(
                of(&d.best)["loss"].as_f64().unwrap(),
                0.0,
                "line {}",
                d.line
            );
        }
        "cube" => {
            let e = equity(&d.xgid, state);
            let cube = &e["cube"];
            let action = cube["action"].as_str().unwrap();
            let doubles = action.starts_with("double") || action.starts_with("redouble");
            assert_eq!(d.best == "double", doubles, "line {}: {action}", d.line);
            let doubled = cube["double_take"]
                .as_f64()
                .unwrap()
                .min(cube["double_pass"].as_f64().unwrap());
            let held = cube["no_double"].as_f64().unwrap();
            let (chosen, best) = match d.chosen == "double" {
                true => (doubled, if doubles { doubled } else { held }),
                false => (held, if doubles { doubled } else { held }),
            };
            assert!((best - chosen - d.loss).abs() < 1e-12, "line {}", d.line);
        }
        _ => {
            // An answer: the doubler's XGID (dice `D`); the doubler's cube state.
            let e = equity(&d.xgid, state);
            let cube = &e["cube"];
            let (take, pass) = (
                -cube["double_take"].as_f64().unwrap(),
                -cube["double_pass"].as_f64().unwrap(),
            );
            let best = if take >= pass { "take" } else { "pass" };
            assert_eq!(d.best, best, "line {}", d.line);
            let chosen = if d.chosen == "take" { take } else { pass };
            assert!(
                (take.max(pass) - chosen - d.loss).abs() < 1e-12,
                "line {}",
                d.line
            );
        }
    }
}

#[test]
fn every_bear_off_of_a_gnubg_money_session_is_judged_as_hint_and_equity_judge_it() {
    let (doc, code, err) = analyse(&data("backgammon-money.mat"), &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(doc["method"], "exact");
    assert_eq!(doc["variant"], "backgammon");
    assert_eq!(doc["measure"], "cubeful");
    assert_eq!(doc["tables"], serde_json::json!(["bearoff 6x6"]));
    assert_eq!(doc["games"].as_array().unwrap().len(), 5);
    assert!(doc["estimate"].is_null());
    let ds = decisions(&doc);
    let kinds = |k: &str| ds.iter().filter(|d| d.kind == k).count();
    assert!(kinds("play") >= 5 && kinds("cube") >= 5 && kinds("response") >= 2);
    for d in &ds {
        check_money(d);
    }
    // Every decision is judged or counted: the two totals add up per player, and most of
    // a game of backgammon is outside a 6×6 table.
    for (p, t) in doc["totals"].as_array().unwrap().iter().enumerate() {
        let judged = ds.iter().filter(|d| d.player == p as u64).count() as u64;
        assert_eq!(t["decisions"].as_u64().unwrap(), judged);
        assert!(t["skipped"].as_u64().unwrap() > 5 * judged, "{t}");
    }
}

// gnubg's own analysis of the same session (`analyse match`, `export match text`), kept
// where the position is a bear-off of at most six checkers a side
// (`scripts/gnubg_bearoff_analysis.py`): gnubg reads its 6×6 database there, so its best
// play and proper cube action are the table's. Its "No double, beaver" is a no double and
// its "Take"/"Beaver" a take (tabula's money judge has no beavers).
#[test]
fn every_bear_off_gnubg_analysed_has_gnubgs_best_play_and_cube_action() {
    let (doc, code, err) = analyse(&data("backgammon-money.mat"), &[]);
    assert_eq!(code, 0, "{err}");
    let gnubg = gnubg_analysis_of(&[data("backgammon-money-bearoff.txt")]);
    let (compared, differ) = compare_with(&doc, &gnubg);
    assert_eq!(differ, Vec::<String>::new());
    // Every decision tabula judged is one gnubg analysed (plays with a choice, cube
    // decisions and answers), and the other way round: gnubg's blocks are the positions
    // the 6×6 table holds.
    assert_eq!(compared, decisions(&doc).len());
    assert_eq!(compared, 15);
}

#[test]
fn a_worse_bear_off_written_into_the_file_loses_what_hint_says() {
    // root's 2-1 at 3,3,2,2,1,1 against 3,3,2,2 (game 5): gnubg bore two off; 3/1 1/off
    // bears one off and is marked.
    let mat = std::fs::read_to_string(data("backgammon-money.mat")).unwrap();
    let at = mat
        .lines()
        .position(|l| l.ends_with("21: 2/0 1/0 "))
        .unwrap();
    let mut lines: Vec<String> = mat.lines().map(String::from).collect();
    lines[at] = lines[at].replace("21: 2/0 1/0", "21: 3/1 1/0");
    let dir = tempfile::tempdir().unwrap();
    let worse = dir.path().join("worse.mat");
    std::fs::write(&worse, lines.join("\n") + "\n").unwrap();
    let (doc, code, err) = analyse(&worse, &[]);
    // root's next roll, 5-3 played 3/0 3/0 from a position with one checker on 3, is no
    // longer legal: a fault on the next line, the game replayed up to it.
    assert_eq!(code, 2, "{err}");
    assert_eq!(doc["faults"][0]["line"], at + 2, "{}", doc["faults"]);
    let ds = decisions(&doc);
    let d = ds
        .iter()
        .find(|d| d.line == at as u64 + 1 && d.kind == "play" && d.player == 1)
        .unwrap();
    // gnubg's notation joins 3/1 1/off.
    assert_eq!(d.chosen, "3/off");
    assert_eq!(d.best, "2/off 1/off");
    assert!(d.loss > 0.1, "{}", d.loss);
    check_money(d);
    for d in &ds {
        check_money(d);
    }
    let root = &doc["totals"][1];
    assert_eq!(
        root["marks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_u64().unwrap())
            .sum::<u64>(),
        1
    );
}

#[test]
fn the_sgf_and_the_mat_of_a_match_analyse_alike_and_only_double_match_point_is_judged() {
    let (sgf, code, err) = analyse(&data("backgammon-match1.sgf"), &[]);
    assert_eq!(code, 0, "{err}");
    let (mat, code, err) = analyse(&data("backgammon-match1.mat"), &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(sgf["measure"], "chance");
    assert_eq!(sgf["length"], 1);
    for key in ["totals", "measure", "length"] {
        assert_eq!(sgf[key], mat[key], "{key}");
    }
    let judged = |doc: &Value| -> Vec<(String, String, String)> {
        decisions(doc)
            .into_iter()
            .map(|d| (d.xgid, d.chosen, d.best))
            .collect()
    };
    assert_eq!(judged(&sgf), judged(&mat));
    // A match to one is double match point: a game won is the match, so a play's loss of
    // match-winning chance is half its loss of cubeless equity (no gammon in 6x6).
    let ds = decisions(&mat);
    assert!(ds.len() >= 3);
    for d in &ds {
        check_match(d);
    }
    // A worse last roll written in: 4/1 3/off instead of bearing both off.
    let text = std::fs::read_to_string(data("backgammon-match1.mat")).unwrap();
    assert_eq!(text.matches("43: 4/0 3/0").count(), 1);
    let dir = tempfile::tempdir().unwrap();
    let worse = dir.path().join("worse.mat");
    std::fs::write(&worse, text.replace("43: 4/0 3/0", "43: 4/1 3/0")).unwrap();
    let (doc, code, err) = analyse(&worse, &[]);
    assert_eq!(code, 0, "{err}");
    let ds = decisions(&doc);
    let d = ds.iter().find(|d| d.chosen == "4/1 3/off").unwrap();
    assert_eq!(d.best, "4/off 3/off");
    assert!((d.loss - 1.0 / 9.0).abs() < 1e-9, "{}", d.loss);
    check_match(d);

    // A match to three without a match-equity table: its games not at 2-2 are counted,
    // none judged; with gnubg's, judged at their scores.
    let (three, code, err) = analyse(&data("backgammon-match3.mat"), &["--met", "none"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(three["met"], Value::Null);
    for g in three["games"].as_array().unwrap() {
        let dmp = g["score"].as_array().unwrap().iter().all(|s| s == 2);
        if !dmp {
            assert!(g["steps"].as_array().unwrap().is_empty());
            assert!(g["skipped"][0].as_u64().unwrap() > 0);
        }
    }
    let Some(met) = gnubg_met() else { return };
    let (three, code, err) = analyse(&data("backgammon-match3.mat"), &["--met", met]);
    assert_eq!(code, 0, "{err}");
    assert!(three["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| !g["steps"].as_array().unwrap().is_empty()));
}

/// Checks a play at double match point against `hint`'s cubeless equities (the position
/// given without its score), and against `hint` of its XGID, which brings its score.
fn check_match(d: &Decision) {
    assert_eq!(d.kind, "play", "no cube decision at double match point");
    check_at_score(d);
    let h = hint(&d.position, d.roll.as_deref().unwrap(), None);
    let plays = h["plays"].as_array().unwrap();
    let equity = |text: &str| {
        plays
            .iter()
            .find(|p| p["play"] == text)
            .unwrap_or_else(|| panic!("{text} not among {plays:?}"))["equity"]
            .as_f64()
            .unwrap()
    };
    let best = plays[0]["equity"].as_f64().unwrap();
    let loss = (best - equity(&d.chosen)) / 2.0;
    assert!(
        (loss - d.loss).abs() < 1e-9,
        "line {}: {loss} {}",
        d.line,
        d.loss
    );
    assert!((best - equity(&d.best)).abs() < 1e-9, "line {}", d.line);
}

/// Checks a decision at a match score against `bearoff hint` or `bearoff equity` of its
/// XGID, which brings the score and the cube: the same best choice, and the same loss.
fn check_at_score(d: &Decision) {
    let t = table("bearoff-ts-6x6.tbl");
    match d.kind.as_str() {
        "play" => {
            let roll = d.roll.as_deref().unwrap();
            let h =
                json_of(tabula().args(["bearoff", "hint", &d.xgid, roll, "--table", &t, "--json"]));
            let moves = h["moves"].as_array().unwrap();
            let chosen = moves
                .iter()
                .find(|m| m["play"] == d.chosen.as_str())
                .unwrap();
            let loss = chosen["loss"].as_f64().unwrap();
            assert!(
                (loss - d.loss).abs() < 1e-12,
                "line {}: {loss} {}",
                d.line,
                d.loss
            );
            assert_eq!(moves[0]["loss"], 0.0);
            let best = moves.iter().find(|m| m["play"] == d.best.as_str()).unwrap();
            assert_eq!(best["loss"], 0.0, "line {}", d.line);
        }
        kind => {
            let e = json_of(tabula().args(["bearoff", "equity", &d.xgid, "--table", &t, "--json"]));
            let proper = e["cube_action"]["action"].as_str().unwrap();
            let doubles = proper.starts_with("double");
            match kind {
                "cube" => assert_eq!(doubles, d.best == "double", "line {}: {proper}", d.line),
                _ => {
                    let takes = e["cube_action"]["response"] == "take";
                    assert_eq!(takes, d.best == "take", "line {}", d.line);
                }
            }
        }
    }
}

// The match to one's game, read as the Crawford game of a match to three at 2-0 (the
// file's header and score changed, its moves gnubg's): the cube is dead and no gammon can
// be won in 6x6, so each play is worth its chance to win the game, and the decisions judged
// are those of double match point, with the same losses.
#[test]
fn the_crawford_game_is_judged_by_the_chance_to_win_as_double_match_point_is() {
    let text = std::fs::read_to_string(data("backgammon-match1.mat")).unwrap();
    let score = " gnubg : 0                      root : 0";
    assert_eq!(text.matches(score).count(), 1);
    let crawford = text
        .replacen(" 1 point match", " 3 point match", 1)
        .replace(score, " gnubg : 2                      root : 0");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("crawford.mat");
    std::fs::write(&file, crawford).unwrap();
    let (doc, code, err) = analyse(&file, &["--met", "none"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(doc["length"], 3);
    assert_eq!(doc["measure"], "chance");
    assert_eq!(doc["games"][0]["crawford"], true);
    let (dmp, code, err) = analyse(&data("backgammon-match1.mat"), &[]);
    assert_eq!(code, 0, "{err}");
    // The same positions (the XGID's first field; its others hold the score), choices,
    // best plays and losses.
    let judged = |doc: &Value| -> Vec<(String, String, String, String, u64)> {
        decisions(doc)
            .into_iter()
            .map(|d| {
                let position = d.xgid.split(':').next().unwrap().to_string();
                (position, d.kind, d.chosen, d.best, d.loss.to_bits())
            })
            .collect()
    };
    let ds = judged(&doc);
    assert!(ds.len() >= 3, "{ds:?}");
    assert_eq!(ds, judged(&dmp));
    assert!(ds.iter().all(|d| d.1 == "play"));
    // At 1-0 in the same match, neither double match point nor the Crawford game: without
    // a match-equity table not judged, every decision counted.
    let text = std::fs::read_to_string(&file).unwrap();
    let other = dir.path().join("other.mat");
    std::fs::write(&other, text.replace(" gnubg : 2  ", " gnubg : 1  ")).unwrap();
    let (doc, code, err) = analyse(&other, &["--met", "none"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(doc["games"][0]["crawford"], false);
    assert!(decisions(&doc).is_empty());
    let skipped = |doc: &Value| -> u64 {
        let totals = doc["totals"].as_array().unwrap();
        totals.iter().map(|t| t["skipped"].as_u64().unwrap()).sum()
    };
    assert_eq!(skipped(&doc), skipped(&dmp) + ds.len() as u64);

    // With gnubg's match-equity table the Crawford game is judged by the bear-off solved at
    // its score: the same best plays, and losses in match-winning chance `Δp (W − L)` whose
    // normalisation is the same `2 · Δp` whatever the table.
    let Some(met) = gnubg_met() else { return };
    let (solved, code, err) = analyse(&file, &["--met", met]);
    assert_eq!(code, 0, "{err}");
    let (a, b) = (decisions(&solved), decisions(&dmp));
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(&b) {
        assert_eq!(
            (&a.xgid[..26], &a.chosen, &a.best),
            (&b.xgid[..26], &b.chosen, &b.best)
        );
        assert!(
            (a.normalised - b.normalised).abs() < 1e-9,
            "{} {}",
            a.normalised,
            b.normalised
        );
        assert!(a.loss <= b.loss + 1e-12);
    }
    // At 1-0 the game is judged too, its cube decisions with it.
    let (doc, code, err) = analyse(&other, &["--met", met]);
    assert_eq!(code, 0, "{err}");
    assert!(decisions(&doc).len() >= ds.len());
}

#[test]
fn the_one_sided_estimate_is_apart_labelled_and_hints_estimate() {
    let os = table("bearoff-os-6.tbl");
    let (doc, code, err) = analyse(&data("backgammon-money.mat"), &["--one-sided", &os]);
    assert_eq!(code, 0, "{err}");
    let e = &doc["estimate"];
    assert_eq!(e["method"], "one-sided estimate");
    assert_eq!(e["measure"], "cubeless");
    // The exact analysis is the same with the estimate beside it.
    let (alone, _, _) = analyse(&data("backgammon-money.mat"), &[]);
    assert_eq!(doc["totals"], alone["totals"]);
    let ds = decisions(e);
    assert!(!ds.is_empty());
    // hint's estimate reads the one-sided table of the tables folder (no 6x15 there).
    let folder = Path::new(&os).parent().unwrap();
    let exact: Vec<String> = decisions(&doc).iter().map(|d| d.xgid.clone()).collect();
    for d in &ds {
        assert_eq!(d.kind, "play", "the estimate judges plays only");
        assert!(!exact.contains(&d.xgid), "{} is the exact table's", d.xgid);
        // `bearoff hint` of a race beyond the tables answers with the same estimate.
        let h = json_of(tabula().env("TABULA_TABLES", folder).args([
            "bearoff",
            "hint",
            &d.xgid,
            d.roll.as_deref().unwrap(),
            "--checkers",
            "15",
            "--json",
        ]));
        assert_eq!(h["method"], "one-sided estimate");
        let plays = h["plays"].as_array().unwrap();
        let losses: Vec<f64> = plays.iter().map(|p| p["loss"].as_f64().unwrap()).collect();
        assert!(
            losses.iter().any(|l| (l - d.loss).abs() < 1e-12),
            "line {}: {} not among {losses:?}",
            d.line,
            d.loss
        );
        assert_eq!(losses[0], 0.0);
    }
}

#[test]
fn damaged_files_get_messages_naming_file_and_line_and_the_rest_is_analysed() {
    let dir = tempfile::tempdir().unwrap();
    // A move that is not legal in the second game: that game stops there, the others are
    // analysed.
    let (bad, line) = with_a_bad_move(&data("backgammon-money.mat"), dir.path());
    let doc = the_bad_move_is_reported(
        analyse(&bad, &[]),
        tabula()
            .args([
                "bearoff",
                "analyse",
                "--table",
                &table("bearoff-ts-6x6.tbl"),
            ])
            .arg(&bad),
        line,
    );
    assert_eq!(doc["games"][4]["complete"], true);
    assert!(!doc["games"][4]["steps"].as_array().unwrap().is_empty());

    // Truncated anywhere: never a panic, exit 0 or 2.
    cut_anywhere(&data("backgammon-match1.sgf"), 97, dir.path(), |f| {
        let (_, code, err) = analyse(f, &[]);
        (code, err)
    });
    // A Hypergammon file: named, nothing analysed, exit 2.
    let (doc, code, _) = analyse(&data("hyper2-money.mat"), &[]);
    assert_eq!(code, 2);
    let reason = doc["faults"][0]["reason"].as_str().unwrap();
    assert!(reason.contains("Hypergammon-2"), "{reason}");
    // Not a match file.
    let junk = dir.path().join("junk.mat");
    std::fs::write(&junk, "hello\n").unwrap();
    assert_eq!(analyse(&junk, &[]).1, 2);

    // No two-sided table: exit 1 naming the build; a money file with the cube and only a
    // cubeless table: exit 1 too.
    let empty = tempfile::tempdir().unwrap();
    let out = tabula()
        .current_dir(empty.path())
        .env("TABULA_TABLES", empty.path())
        .env("HOME", empty.path())
        .env("XDG_DATA_HOME", empty.path())
        .args(["bearoff", "analyse"])
        .arg(data("backgammon-money.mat"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tabula bearoff build --points 6 --checkers 6 --two-sided"),
        "{stderr}"
    );
    let out = tabula()
        .args([
            "bearoff",
            "analyse",
            "--table",
            &table("bearoff-ts-6x6-cubeless.tbl"),
        ])
        .arg(data("backgammon-money.mat"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// gnubg's match-equity table, where gnubg is installed (`.ci/run` installs it; with
/// `TABULA_GNUBG` set its absence is a failure).
fn gnubg_met() -> Option<&'static str> {
    crate::gammon_xgid::gnubg()?;
    Some("/usr/share/gnubg/met/Kazaross-XG2.xml")
}

// A 25-point match gnubg played against itself (`scripts/gnubg_match_files.sh`, seed 3),
// its bear-offs judged at their scores with gnubg's own match-equity table, and compared
// with gnubg's analysis of the same file, kept where the position is a bear-off of at most
// six checkers a side (`scripts/gnubg_bearoff_analysis.py`).
#[test]
fn every_bear_off_of_a_gnubg_match_is_judged_at_its_score_as_gnubg_judges_it() {
    let Some(met) = gnubg_met() else { return };
    let (doc, code, err) = analyse(&data("backgammon-match25.mat"), &["--met", met]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(doc["met"], "Kazaross XG2 25 point MET");
    let gnubg = gnubg_analysis_of(&[data("backgammon-match25-bearoff.txt")]);
    let (compared, differ) = compare_with(&doc, &gnubg);
    assert_eq!(differ, Vec::<String>::new());
    assert_eq!(compared, decisions(&doc).len());
    assert_eq!(compared, 19);
    // The decisions of the game at 19-19 (6-6 to go) again through `bearoff hint` and
    // `bearoff equity` of their XGIDs. (The first game's, at 23-23, read eleven cube
    // places: a second a question through the command line, the suite's time.)
    let again: Vec<Decision> = decisions(&doc)
        .into_iter()
        .filter(|d| d.xgid.contains(":19:19:0:25:"))
        .collect();
    assert_eq!(again.len(), 7);
    for d in &again {
        check_at_score(d);
    }
}

/// A table of the cube's equities alone (a fifteen-checker cube table stored compact,
/// as 6×15's) cannot judge without its cubeless table: found in the folder beside others
/// it is left out and they judge as without it; alone, or named, it is a failure naming
/// the cubeless table.
#[test]
fn a_cube_table_of_equities_alone_is_left_out_of_the_folders_tables() {
    let dir = tempfile::tempdir().unwrap();
    let lone = dir.path().join("bearoff-ts-3x15.tbl");
    let size = ["--points", "3", "--checkers", "15", "--compact"];
    crate::bearoff_out_of_core::build(&size, &lone, None);
    let in_folder = |folder: &Path, extra: &[&str]| {
        tabula()
            .env("TABULA_TABLES", folder)
            .args(["bearoff", "analyse", "--json"])
            .args(extra)
            .arg(data("backgammon-money.mat"))
            .output()
            .unwrap()
    };
    // Alone in the folder, and named.
    for out in [
        in_folder(dir.path(), &[]),
        in_folder(dir.path(), &["--table", lone.to_str().unwrap()]),
    ] {
        assert_eq!(out.status.code(), Some(1));
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("bearoff-ts-3x15-cubeless.tbl"), "{said}");
    }
    // Beside the 6x6 table: the 6x6 table's analysis.
    std::fs::copy(
        table("bearoff-ts-6x6.tbl"),
        dir.path().join("bearoff-ts-6x6.tbl"),
    )
    .unwrap();
    let both = in_folder(dir.path(), &[]);
    assert!(
        both.status.success(),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
    let six = json_of(
        tabula()
            .args(["bearoff", "analyse", "--json", "--table"])
            .arg(dir.path().join("bearoff-ts-6x6.tbl"))
            .arg(data("backgammon-money.mat")),
    );
    let got: Value = serde_json::from_slice(&both.stdout).unwrap();
    assert_eq!(got["tables"], six["tables"]);
    assert_eq!(got["tables"], serde_json::json!(["bearoff 6x6"]));
    assert!(
        got["totals"].is_object() || got["totals"].is_array(),
        "{got}"
    );
    assert_eq!(got["totals"], six["totals"]);
    assert_eq!(got["games"], six["games"]);
}

// At double match point a game won is the match: a bear-off there is answered without a
// match-equity table (`--met none`, or gnubg not installed), as with one; at any other
// score none is a failure that names `--met`.
#[test]
fn double_match_point_needs_no_match_equity_table_and_other_scores_do() {
    let t = table("bearoff-ts-6x6.tbl");
    let dmp = "XGID=-A-BA-----------------bbb-:0:0:1:31:0:0:0:1:10";
    let ask = |xgid: &str, met: Option<&str>| {
        let mut cmd = tabula();
        cmd.args(["bearoff", "hint", xgid, "1-3", "--table", &t, "--json"]);
        if let Some(met) = met {
            cmd.args(["--met", met]);
        }
        cmd.output().unwrap()
    };
    let without = ask(dmp, Some("none"));
    assert_eq!(
        without.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&without.stderr)
    );
    let doc: Value = serde_json::from_slice(&without.stdout).unwrap();
    let moves = doc["moves"].as_array().unwrap();
    assert_eq!(moves[0]["loss"], 0.0);
    assert!(moves.iter().any(|m| m["loss"].as_f64().unwrap() > 0.0));
    if let Some(met) = gnubg_met() {
        let with = ask(dmp, Some(met));
        assert_eq!(with.status.code(), Some(0));
        let with: Value = serde_json::from_slice(&with.stdout).unwrap();
        assert_eq!(with["moves"], doc["moves"]);
    }
    // The same position in a match to three at 0-0: a table is needed.
    let three = dmp.replace(":0:0:1:31:0:0:0:1:10", ":0:0:1:31:0:0:0:3:10");
    let refused = ask(&three, Some("none"));
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--met"));
}
