//! `tabula gammon analyse` on real files: matches and money sessions GNU Backgammon played
//! against itself and saved as `.sgf` and `.mat` (`tests/data/gnubg/`, made by
//! `scripts/gnubg_match_files.sh`, with gnubg's own analysis exported as text beside
//! them). Both formats give the same analysis; in money play the best play and the cube
//! action agree with gnubg's analysis everywhere (gnubg's Hypergammon databases hold
//! exact money values); damaged files get messages naming file and line and partial
//! analyses. With gnubg installed, a fresh match is played, saved and analysed too.

use crate::common::tabula;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tabula::gammon::gnubg::{position_id, xgid};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/gnubg")
        .join(name)
}

/// A folder with Hypergammon-1 and -2's tables with the cube, and Hypergammon-1's match
/// tables to 7 points, built once.
fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = crate::scratch::folder();
        for v in ["hyper1", "hyper2"] {
            tabula()
                .args(["gammon", "build", "--variant", v, "--quiet", "--table"])
                .arg(dir.join(format!("{v}.tbl")))
                .assert()
                .success();
        }
        tabula()
            .args([
                "gammon",
                "met",
                "--variant",
                "hyper1",
                "--length",
                "7",
                "--match-tables",
            ])
            .arg(&dir)
            .assert()
            .success();
        dir
    })
}

/// `analyse FILE --all --json` with the suite's tables: the document and the exit code.
fn analyse(file: &Path) -> (Value, i32, String) {
    analyse_in(tables(), file)
}

/// `analyse FILE --all --json` with the tables of `dir`: the document (null when none was
/// printed), the exit code and what was said on stderr.
pub fn analyse_in(dir: &Path, file: &Path) -> (Value, i32, String) {
    let out = tabula()
        .env("TABULA_TABLES", dir)
        .args(["gammon", "analyse", "--all", "--json"])
        .arg(file)
        .output()
        .unwrap();
    let doc = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let code = out.status.code().unwrap_or(-1);
    (doc, code, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Each step of an analysis: its XGID, kind, choice and best.
fn steps(doc: &Value) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for g in doc["games"].as_array().unwrap() {
        for s in g["steps"].as_array().unwrap() {
            let player = s["player"].as_u64().unwrap() as usize;
            let d = &g["reviews"][player]["decisions"][s["decision"].as_u64().unwrap() as usize];
            out.push((
                s["xgid"].as_str().unwrap().to_string(),
                d["kind"].as_str().unwrap().to_string(),
                d["chosen"].as_str().unwrap().to_string(),
                d["best"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

#[test]
fn sgf_and_mat_files_of_the_same_match_give_the_same_analysis() {
    for name in ["hyper1-money", "hyper1-match7", "hyper2-money"] {
        let (sgf, code_sgf, err) = analyse(&data(&format!("{name}.sgf")));
        assert_eq!(code_sgf, 0, "{name}: {err}");
        let (mat, code_mat, err) = analyse(&data(&format!("{name}.mat")));
        assert_eq!(code_mat, 0, "{name}: {err}");
        assert_eq!(sgf["faults"], serde_json::json!([]), "{name}");
        assert_eq!(steps(&sgf), steps(&mat), "{name}");
        assert_eq!(sgf["totals"], mat["totals"], "{name}");
        assert!(!steps(&sgf).is_empty(), "{name}");
        // Every XGID shown reads back.
        for (x, ..) in steps(&sgf) {
            xgid::parse(&x).unwrap();
        }
    }
}

/// What gnubg's text export says per position: the best play of each roll, the proper
/// cube action of the side on roll, and the proper answer to a double. Keyed by the
/// Position ID and `play DD`, `cube` or `answer`.
fn gnubg_analysis(name: &str) -> HashMap<(String, String), String> {
    let mut files = vec![data(&format!("{name}.txt"))];
    for k in 2.. {
        let f = data(&format!("{name}_{k:03}.txt"));
        if !f.exists() {
            break;
        }
        files.push(f);
    }
    gnubg_analysis_of(&files)
}

/// [`gnubg_analysis`] of the given text exports (or of blocks kept from them).
pub(crate) fn gnubg_analysis_of(files: &[PathBuf]) -> HashMap<(String, String), String> {
    let mut out = HashMap::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let (mut kind, mut id) = (String::new(), String::new());
        for line in text.lines() {
            if let Some(header) = line.strip_prefix("Move number ") {
                kind = if let Some(dice) = header.split(" to play ").nth(1) {
                    let d = dice.trim().as_bytes();
                    // As tabula writes a roll: the smaller die first.
                    let (a, b) = (d[0].min(d[1]) as char, d[0].max(d[1]) as char);
                    format!("play {a}{b}")
                } else if header.contains("doubles to") {
                    "answer".into()
                } else {
                    "cube".into()
                };
            } else if let Some(rest) = line.split("Position ID: ").nth(1) {
                id = rest.trim().to_string();
            } else if let Some(proper) = line.strip_prefix("Proper cube action: ") {
                // In a roll's block, the cube decision before that roll.
                let key = if kind == "answer" { "answer" } else { "cube" };
                out.entry((id.clone(), key.to_string()))
                    .or_insert_with(|| proper.trim().to_string());
            } else if kind.starts_with("play") {
                let t = line.trim_start_matches('*').trim_start();
                if let Some(rest) = t.strip_prefix("1. ") {
                    // `Cubeful 2-ply    24/19 23/22     Eq.: +0.112`
                    let words: Vec<&str> = rest.split_whitespace().collect();
                    if let Some(eq) = words.iter().position(|w| *w == "Eq.:") {
                        let play = words[2..eq].join(" ");
                        out.entry((id.clone(), kind.clone())).or_insert(play);
                    }
                }
            }
        }
    }
    out
}

/// tabula's decisions compared with gnubg's analysis: (compared, differences).
fn compare(name: &str) -> (usize, Vec<String>) {
    let (doc, code, err) = analyse(&data(&format!("{name}.sgf")));
    assert_eq!(code, 0, "{err}");
    compare_with(&doc, &gnubg_analysis(name))
}

/// The decisions of an analysis document (`gammon analyse` or `bearoff analyse`) compared
/// with gnubg's analysis of the same positions: (compared, differences).
pub(crate) fn compare_with(
    doc: &Value,
    gnubg: &HashMap<(String, String), String>,
) -> (usize, Vec<String>) {
    let (mut compared, mut differ) = (0, Vec::new());
    for (x, kind, _chosen, best) in steps(doc) {
        let parsed = xgid::parse(&x).unwrap();
        let id = position_id::encode(&parsed.position).unwrap();
        let key = match kind.as_str() {
            "play" => {
                let r = parsed.roll().unwrap();
                format!("play {}{}", r.low(), r.high())
            }
            "cube" => "cube".into(),
            _ => "answer".into(),
        };
        let Some(theirs) = gnubg.get(&(id.clone(), key.clone())) else {
            continue;
        };
        compared += 1;
        let agree = match key.as_str() {
            "cube" => {
                let doubles = theirs.starts_with("Double") || theirs.starts_with("Redouble");
                (best == "double") == doubles
            }
            "answer" => (best == "take") == (theirs.contains("take") || theirs.contains("beaver")),
            _ => &best == theirs,
        };
        if !agree {
            differ.push(format!("{id} {key}: tabula {best}, gnubg {theirs} ({x})"));
        }
    }
    (compared, differ)
}

#[test]
fn in_money_play_the_best_play_and_cube_action_are_gnubgs() {
    for (name, at_least) in [("hyper1-money", 20), ("hyper2-money", 80)] {
        let (compared, differ) = compare(name);
        assert!(compared >= at_least, "{name}: {compared} compared");
        assert_eq!(differ, Vec::<String>::new(), "{name}");
    }
}

/// The points of each game of a `.sgf` file as its `RE[W+n]` or `RE[B+n]` says, player 0's.
fn results(sgf: &str) -> Vec<i64> {
    std::fs::read_to_string(data(sgf))
        .unwrap()
        .split("RE[")
        .skip(1)
        .map(|re| {
            let n: i64 = re[2..].split(']').next().unwrap().parse().unwrap();
            if re.starts_with('W') {
                n
            } else {
                -n
            }
        })
        .collect()
}

// gnubg's automatic doubles: an opening roll of doubles turns the cube before the game's
// first play (the file's `CV[2]`, `CV[4]`). The same session without them is
// hyper1-money (the same seed, the same games): the points scale with the starting cube,
// and every decision is judged from it.
#[test]
fn a_game_from_an_automatically_doubled_cube_is_judged_and_scored_from_that_cube() {
    let points = |doc: &Value| -> Vec<i64> {
        doc["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["reviews"][0]["human_points"].as_i64().unwrap())
            .collect()
    };
    let (auto, code, err) = analyse(&data("hyper1-auto.sgf"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(auto["faults"], serde_json::json!([]));
    assert_eq!(points(&auto), results("hyper1-auto.sgf"));
    let (plain, ..) = analyse(&data("hyper1-money.sgf"));
    assert_eq!(points(&plain), results("hyper1-money.sgf"));
    // Games 3 and 4 started from 4 and 2: four and two times the points.
    assert_eq!(points(&auto)[2], 4 * points(&plain)[2]);
    assert_eq!(points(&auto)[3], 2 * points(&plain)[3]);
    // The first XGID of game 3 shows the cube of 4 (2^2), centred.
    let first = auto["games"][2]["steps"][0]["xgid"].as_str().unwrap();
    let x = xgid::parse(first).unwrap();
    assert_eq!((x.cube, x.owner), (4, xgid::XgOwner::Centred), "{first}");
    // gnubg's analysis of the same file agrees everywhere.
    let (compared, differ) = compare("hyper1-auto");
    assert!(compared >= 20, "{compared} compared");
    assert_eq!(differ, Vec::<String>::new());
    // gnubg's .mat cannot say the cube was turned: its games read as from the cube at 1.
    let (mat, ..) = analyse(&data("hyper1-auto.mat"));
    assert_eq!(points(&mat), points(&plain));
    // A turned cube where there is none, the Crawford game's or a session without the
    // cube, is a fault naming the game; the other games are analysed.
    let dir = tempfile::tempdir().unwrap();
    let crawford = std::fs::read_to_string(data("hyper1-match7.sgf"))
        .unwrap()
        .replacen(
            "CrawfordGame:Hypergammon1]",
            "CrawfordGame:Hypergammon1]CV[2]",
            1,
        );
    let nocube = std::fs::read_to_string(data("hyper1-auto.sgf"))
        .unwrap()
        .replace("RU[Hypergammon1]", "RU[NoCube:Hypergammon1]");
    for (name, text, why, turned) in [
        ("crawford.sgf", crawford, "the Crawford game", vec![7]),
        ("nocube.sgf", nocube, "without the cube", vec![3, 4]),
    ] {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        let (doc, _, err) = analyse(&f);
        let refused: Vec<u64> = doc["faults"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| {
                f["reason"]
                    .as_str()
                    .unwrap()
                    .contains("starts from a cube of")
            })
            .map(|f| {
                let reason = f["reason"].as_str().unwrap();
                assert!(reason.contains(why), "{reason}");
                f["game"].as_u64().unwrap()
            })
            .collect();
        assert_eq!(refused, turned, "{name}: {err}");
        let games = doc["games"].as_array().unwrap();
        assert!(
            games.iter().filter(|g| g["complete"] == true).count() >= 1,
            "{name}"
        );
    }
}

#[test]
fn at_a_match_score_the_plays_are_gnubgs_and_the_cube_differs_where_its_met_does() {
    // gnubg judges the cube at a match score with its match-equity table, which is
    // backgammon's (Kazaross-XG2), not Hypergammon's; tabula's are exact. The checker
    // plays of Hypergammon-1 are forced but for the opening's doubles, so agree.
    let (compared, differ) = compare("hyper1-match7");
    assert!(compared >= 15, "{compared}");
    for d in &differ {
        assert!(!d.contains(" play "), "{d}");
    }
}

#[test]
fn damaged_files_get_messages_naming_file_and_line_and_the_rest_is_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let (bad, line) = with_a_bad_move(&data("hyper2-money.mat"), dir.path());
    let doc = the_bad_move_is_reported(
        analyse(&bad),
        tabula()
            .env("TABULA_TABLES", tables())
            .args(["gammon", "analyse"])
            .arg(&bad),
        line,
    );
    assert_eq!(doc["games"].as_array().unwrap().len(), 5);
    assert_eq!(doc["games"][2]["complete"], true);

    cut_anywhere(&data("hyper1-money.sgf"), 997, dir.path(), |f| {
        let (_, code, err) = analyse(f);
        (code, err)
    });

    // Another variant: named, nothing analysed, exit 2.
    let (doc, code, _) = analyse(&data("backgammon-match3.mat"));
    assert_eq!(code, 2);
    let reason = doc["faults"][0]["reason"].as_str().unwrap();
    assert!(reason.contains("backgammon"), "{reason}");
    // A file that is not a match at all.
    let junk = dir.path().join("junk.mat");
    std::fs::write(&junk, "hello\n").unwrap();
    let (_, code, err) = analyse(&junk);
    assert_eq!(code, 2, "{err}");
    let missing = json_of_failure(&dir.path().join("none.sgf"));
    assert_eq!(missing, 1);
}

/// A copy of the `.mat` at `file` in `dir` (`bad.mat`) whose second game's first move is
/// not legal (`24/1` added): the copy and that line.
pub(crate) fn with_a_bad_move(file: &Path, dir: &Path) -> (PathBuf, usize) {
    let mat = std::fs::read_to_string(file).unwrap();
    let line = mat.lines().position(|l| l.contains(" Game 2")).unwrap() + 3;
    let mut lines: Vec<String> = mat.lines().map(String::from).collect();
    lines[line - 1] = lines[line - 1].replacen(": ", ": 24/1 ", 1);
    let bad = dir.join("bad.mat");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    (bad, line)
}

/// Checks the analysis of [`with_a_bad_move`]'s file, as JSON (document, exit code,
/// stderr) and in text (`text`, the command): exit 2, one fault at `line`, the second game
/// replayed up to it, the message naming the file and the line, the totals printed. The
/// document.
pub(crate) fn the_bad_move_is_reported(
    (doc, code, err): (Value, i32, String),
    text: &mut assert_cmd::Command,
    line: usize,
) -> Value {
    assert_eq!(code, 2, "{err}");
    let faults = doc["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0]["line"], line, "{faults:?}");
    assert_eq!(doc["games"][1]["complete"], false);
    let out = text.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("bad.mat:{line}: game 2: ")),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Totals"));
    doc
}

/// `file` cut every `step` bytes (and 3 before its end), each cut analysed by `analyse`
/// (its exit code and stderr): never a panic, exit 0 or 2.
pub(crate) fn cut_anywhere(
    file: &Path,
    step: usize,
    dir: &Path,
    mut analyse: impl FnMut(&Path) -> (i32, String),
) {
    let bytes = std::fs::read(file).unwrap();
    for cut in (0..bytes.len()).step_by(step).chain([bytes.len() - 3]) {
        let f = dir.join("cut.sgf");
        std::fs::write(&f, &bytes[..cut]).unwrap();
        let (code, err) = analyse(&f);
        assert!(code == 0 || code == 2, "cut at {cut}: {code} {err}");
        assert!(!err.contains("panicked"), "cut at {cut}: {err}");
    }
}

fn json_of_failure(file: &Path) -> i32 {
    let out = tabula()
        .args(["gammon", "analyse"])
        .arg(file)
        .output()
        .unwrap();
    out.status.code().unwrap_or(-1)
}

#[test]
fn gnubg_plays_a_match_that_tabula_then_analyses() {
    if crate::gammon_xgid::gnubg().is_none() {
        eprintln!("gnubg is not installed: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gnubg_match_files.sh");
    let made = std::process::Command::new("bash")
        .arg(script)
        .arg(dir.path())
        .args(["fresh", "1", "7", "17"])
        .env("TABULA_GNUBG_CACHE", dir.path().join("cache"))
        .output()
        .unwrap();
    if !made.status.success() {
        let why = String::from_utf8_lossy(&made.stderr);
        assert!(
            std::env::var_os("TABULA_GNUBG").is_none(),
            "gnubg could not play: {why}"
        );
        eprintln!("gnubg could not play here (needs root or its databases): {why}");
        return;
    }
    let (sgf, code, err) = analyse(&dir.path().join("fresh.sgf"));
    assert_eq!(code, 0, "{err}");
    let (mat, _, _) = analyse(&dir.path().join("fresh.mat"));
    assert_eq!(steps(&sgf), steps(&mat));
    assert!(!steps(&sgf).is_empty());
}

#[test]
fn a_backgammon_position_is_recognised_and_its_bear_off_pointed_to() {
    let refused = |position: &str| {
        let out = tabula()
            .args(["gammon", "show", "--variant", "hyper3", position])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let opening = refused("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10");
    assert!(opening.contains("a backgammon position"), "{opening}");
    assert!(!opening.contains("unknown token"), "{opening}");
    let home = refused("XGID=-ABCCCC------------abcccc-:0:0:1:00:0:0:0:0:10");
    assert!(
        home.contains("tabula bearoff equity 6,6,6,5,5,5,4,4,4,3,3,3,2,2,1/6,5,5,4,4,4,3,3,3,2,2,2,1,1,1 --checkers 15"),
        "{home}"
    );
    // As a list of points too.
    let listed =
        refused("24,24,13,13,13,13,13,8,8,8,6,6,6,6,6/24,24,13,13,13,13,13,8,8,8,6,6,6,6,6");
    assert!(listed.contains("a backgammon position"), "{listed}");
    // A Hypergammon XGID reads, and `show` prints the XGID back.
    let x = "XGID=-aaa------------------AAA-:0:0:1:00:0:0:0:0:10";
    let out = tabula()
        .args(["gammon", "show", "--variant", "hyper3", x, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["xgid"], x);
    assert_eq!(doc["position"], "24,23,22/24,23,22");
}

#[test]
#[ignore = "solves Hypergammon-2's match tables to 3 points (about 25 s)"]
fn a_hypergammon_2_match_differs_from_gnubg_only_where_its_met_does() {
    tabula()
        .args([
            "gammon",
            "met",
            "--variant",
            "hyper2",
            "--length",
            "3",
            "--match-tables",
        ])
        .arg(tables())
        .assert()
        .success();
    let (compared, differ) = compare("hyper2-match3");
    assert!(compared >= 20, "{compared}");
    // gnubg's cubeful match evaluation (backgammon's match-equity table on the
    // database's cubeless chances) prefers 11/4 by 0.005; the exact tables 12/6 11/10.
    assert_eq!(differ.len(), 1, "{differ:?}");
    assert!(
        differ[0].contains("play 16: tabula 12/6 11/10, gnubg 11/4"),
        "{differ:?}"
    );
}

#[test]
fn a_double_before_the_first_roll_is_the_starting_sides_cube_decision() {
    // The page's games let the side that starts double at once; their review is a .mat
    // whose first entry is that double (the Hypergammon-1 opening: double, take).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.mat");
    let text = "; [Variation \"HyperGammon (1)\"]\n\n 0 point match\n\n Game 1\n \
                you : 0                        tabula : 0\n  \
                1)  Doubles => 2                  Takes\n  \
                2) 52: 24/22 22/17\n";
    std::fs::write(&file, text).unwrap();
    let (doc, code, err) = analyse(&file);
    assert_eq!(code, 0, "{err}");
    assert_eq!(doc["faults"], serde_json::json!([]));
    let game = &doc["games"][0];
    let first = &game["reviews"][0]["decisions"][0];
    assert_eq!(first["kind"], "cube");
    assert_eq!(first["chosen"], "double");
    assert_eq!(first["best"], "double");
    let answer = &game["reviews"][1]["decisions"][0];
    assert_eq!(answer["kind"], "response");
    assert_eq!(answer["chosen"], "take");
    assert_eq!(answer["best"], "take");
}
