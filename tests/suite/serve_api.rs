//! `tabula serve`'s API, asked as a program asks it: the server started on an ephemeral
//! port, a real HTTP client (ureq), and each answer compared with the command line's
//! `--json` for the same question; bad input, missing and damaged tables, limits, and a
//! clean stop.

use crate::common::{build_hyper1, json, json_of, nikoniko_built, succeed, tabula};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A running `tabula serve`, stopped (SIGTERM) when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    stderr: std::sync::Mutex<std::sync::mpsc::Receiver<String>>,
}

impl Server {
    /// Starts the server on the tables in `folder`, on a free port.
    pub fn start(folder: &Path) -> Server {
        Server::start_with(folder, &[])
    }

    /// [`Server::start`] with more of `serve`'s options.
    pub fn start_with(folder: &Path, options: &[&str]) -> Server {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("tabula"));
        command
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--threads",
                "2",
                "--tables",
            ])
            .arg(folder)
            .args(options)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // The server ends with the thread that started it (PR_SET_PDEATHSIG), which lives
        // as long as the test binary: a server kept in a static is not left running.
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl(2) alone, between fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM as libc::c_ulong);
                Ok(())
            });
        }
        let (give, take) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = give.send(command.spawn());
            loop {
                std::thread::park();
            }
        });
        let mut child = take.recv().unwrap().unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        let first = lines.recv_timeout(Duration::from_secs(20)).unwrap();
        let base = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .map(|addr| format!("http://{addr}"))
            .unwrap_or_else(|| panic!("the server's first line names no address: {first}"));
        Server {
            child,
            base,
            stderr: std::sync::Mutex::new(lines),
        }
    }

    /// `GET path`: the status and the body as JSON.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.get_text(path);
        let value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("GET {path}: {status} and not JSON ({e}): {body}"));
        (status, value)
    }

    /// `GET path`: the status and the body.
    pub fn get_text(&self, path: &str) -> (u16, String) {
        let mut response = agent().get(format!("{}{path}", self.base)).call().unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().unwrap())
    }

    /// `GET path`, which must answer 200: its document.
    pub fn ok(&self, path: &str) -> Value {
        let (status, value) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {value}");
        value
    }

    /// `GET path`, which must fail with `status`: its message.
    pub fn fault(&self, path: &str, status: u16) -> String {
        let (got, value) = self.get(path);
        assert_eq!(got, status, "GET {path}: {value}");
        value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("GET {path}: no error message in {value}"))
            .to_string()
    }

    /// Sends SIGTERM and waits for the exit: its status and what it wrote on stderr.
    pub fn stop(mut self) -> (std::process::ExitStatus, String) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) on our own child's pid, which has not been waited for.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(15),
                "the server did not stop"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let said: Vec<String> = self.stderr.lock().unwrap().try_iter().collect();
        (status, said.join("\n"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // SAFETY: as in `stop`.
            unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
            let _ = self.child.wait();
        }
    }
}

/// An HTTP client that returns 4xx and 5xx answers instead of failing on them.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// The folder the suite serves: Hypergammon-1 with the cube and its match tables to 7
/// points (gnubg's 7-point match in `tests/data/gnubg` is reviewed with them), the NikoNiko article's tables (the suite's one build), and the bear-off
/// databases of 6 points one-sided and 6x6 with the cube (a quarter of a second each).
pub fn folder() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = crate::scratch::folder();
        build_hyper1(&dir.join("hyper1.tbl"));
        for (args, file) in [
            (&["--points", "6"][..], "bearoff-os-6.tbl"),
            (
                &["--points", "6", "--checkers", "6", "--two-sided"][..],
                "bearoff-ts-6x6.tbl",
            ),
        ] {
            succeed(
                tabula()
                    .args(["bearoff", "build", "--quiet", "--table"])
                    .arg(dir.join(file))
                    .args(args),
            );
        }
        // Hypergammon-1's match tables to 7 points, for the questions at a score.
        succeed(
            tabula()
                .args([
                    "gammon",
                    "met",
                    "--variant",
                    "hyper1",
                    "--length",
                    "7",
                    "--quiet",
                ])
                .arg("--match-tables")
                .arg(&dir),
        );
        let (_, niko, _, _) = nikoniko_built();
        std::fs::copy(niko, dir.join("nikoniko.tbl")).unwrap();
        std::fs::copy(
            niko.with_extension("outcomes"),
            dir.join("nikoniko.outcomes"),
        )
        .unwrap();
        dir
    })
}

/// The server of [`folder`], started once for the module's tests.
fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start(folder()))
}

/// `tabula ARGS --json` with the served folder as the tables folder.
fn cli(args: &[&str]) -> Value {
    json_of(
        tabula()
            .env("TABULA_TABLES", folder())
            .args(args)
            .arg("--json"),
    )
}

/// `s` as a query value.
pub(crate) fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b',' => {
                (b as char).to_string()
            }
            b => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn each_family_answer_is_the_command_lines_json_document_for_the_same_question() {
    let s = server();
    let v = "hyper1";
    let positions = ["24/24", "20/6", "bar/3", "2/22", "AAAgCAAAAAAAAA", "526"];
    for p in positions {
        let q = enc(p);
        let show = s.ok(&format!("/api/gammon/{v}/show?position={q}"));
        assert_eq!(
            show,
            cli(&["gammon", "show", p, "--variant", v]),
            "show {p}"
        );
        for (http, flag) in [
            ("", "centred"),
            ("&cube=owned", "owned"),
            ("&cube=opponent", "opponent-owns"),
            ("&cube=opponent-owns", "opponent-owns"),
            ("&jacoby=true", "centred-jacoby"),
            ("&cube=jacoby", "centred-jacoby"),
        ] {
            let api = s.ok(&format!("/api/gammon/{v}/equity?position={q}{http}"));
            let line = cli(&["gammon", "equity", p, "--variant", v, "--cube", flag]);
            assert_eq!(api, line, "equity {p} {flag}");
            assert!(
                api["cube"]["action"].is_string() || flag == "opponent-owns",
                "{api}"
            );
        }
        for roll in ["6-5", "1-1", "2-4"] {
            let hint = s.ok(&format!("/api/gammon/{v}/hint?position={q}&roll={roll}"));
            assert_eq!(
                hint,
                cli(&["gammon", "hint", p, roll, "--variant", v]),
                "hint {p} {roll}"
            );
            let cubeful = s.ok(&format!(
                "/api/gammon/{v}/hint?position={q}&roll={roll}&cube=centred"
            ));
            let line = cli(&[
                "gammon",
                "hint",
                p,
                roll,
                "--variant",
                v,
                "--cube",
                "centred",
            ]);
            assert_eq!(cubeful, line, "hint {p} {roll} centred");
            let moves = s.ok(&format!("/api/gammon/{v}/moves?position={q}&roll={roll}"));
            assert_eq!(
                moves,
                cli(&["gammon", "moves", p, roll, "--variant", v]),
                "moves {p}"
            );
        }
    }
    let opening = s.ok("/api/gammon/hyper1/opening");
    assert_eq!(opening, cli(&["gammon", "opening", "--variant", v]));
    // The Hypergammon-1 opening is a double and a take (docs/gammon.md).
    let start = s.ok("/api/gammon/hyper1/equity?position=24/24");
    assert_eq!(start["cube"]["action"], "double, take", "{start}");
}

#[test]
fn answers_at_a_match_score_are_the_command_lines_with_score_crawford_cube_and_owner() {
    let s = server();
    let v = "hyper1";
    let asked = [
        ("3-2", "", vec!["--score", "3-2"]),
        (
            "1-3",
            "&crawford=true",
            vec!["--score", "1-3", "--crawford"],
        ),
        ("1-3", "", vec!["--score", "1-3"]),
        (
            "2-3",
            "&cube=2&owner=opponent",
            vec!["--score", "2-3", "--cube", "2", "--owner", "opponent"],
        ),
    ];
    for p in ["24/24", "20/6"] {
        for (score, http, flags) in &asked {
            let q = enc(p);
            let api = s.ok(&format!(
                "/api/gammon/{v}/equity?position={q}&score={score}{http}"
            ));
            let mut args = vec!["gammon", "equity", p, "--variant", v];
            args.extend(flags);
            assert_eq!(api, cli(&args), "equity {p} {score}{http}");
            assert!(
                api["mwc"].as_f64().is_some_and(|m| m > 0.0 && m < 1.0),
                "{api}"
            );
            let hint = s.ok(&format!(
                "/api/gammon/{v}/hint?position={q}&roll=6-5&score={score}{http}"
            ));
            let mut args = vec!["gammon", "hint", p, "6-5", "--variant", v];
            args.extend(flags);
            assert_eq!(hint, cli(&args), "hint {p} {score}{http}");
            // The answer's XGID carries the score and the cube: asked alone, it is the
            // same question.
            let x = enc(api["xgid"].as_str().unwrap());
            let again = s.ok(&format!("/api/gammon/{v}/equity?position={x}"));
            assert_eq!(again["mwc"], api["mwc"], "equity {p} {score}{http} as {x}");
            assert_eq!(
                again["cube"], api["cube"],
                "equity {p} {score}{http} as {x}"
            );
            assert_eq!(
                again["score"], api["score"],
                "equity {p} {score}{http} as {x}"
            );
            let again = s.ok(&format!("/api/gammon/{v}/hint?position={x}&roll=6-5"));
            assert_eq!(
                again["moves"], hint["moves"],
                "hint {p} {score}{http} as {x}"
            );
        }
    }
    // A score the match tables do not reach is a 404 naming the build; a bad one a 400.
    let missing = s.fault("/api/gammon/hyper1/equity?position=24/24&score=9-9", 404);
    assert!(missing.contains("gammon met"), "{missing}");
    let bad = s.fault("/api/gammon/hyper1/equity?position=24/24&score=0-3", 400);
    assert!(bad.contains("0-3"), "{bad}");
    let path = "/api/gammon/hyper1/equity?position=24/24&score=3-3&cube=3&owner=opponent";
    assert!(s.fault(path, 400).contains('3'));
}

#[test]
fn each_bear_off_answer_is_the_command_lines_json_document_for_the_same_question() {
    let s = server();
    let os = folder().join("bearoff-os-6.tbl");
    let ts = folder().join("bearoff-ts-6x6.tbl");
    let (os, ts) = (os.to_str().unwrap(), ts.to_str().unwrap());
    for side in ["6,6,5,3,1", "6,6,6,6,6,6,6,6,6,6,6,6,6,6,6", "-", "319"] {
        let api = s.ok(&format!(
            "/api/bearoff/bearoff-os-6/distribution?position={}",
            enc(side)
        ));
        assert_eq!(
            api,
            cli(&["bearoff", "distribution", side, "--table", os]),
            "{side}"
        );
        // The mean is the distribution's, added up again here.
        let rolls = api["rolls"].as_array().unwrap();
        let mean: f64 = (rolls.iter().enumerate())
            .map(|(k, p)| k as f64 * p.as_f64().unwrap())
            .sum();
        assert!(
            (mean - api["mean"].as_f64().unwrap()).abs() < 1e-12,
            "{api}"
        );
    }
    for pair in ["6,6,5/4,2,1", "6/1", "1/6", "JQAAAA0AAAAAAA", "75804"] {
        let q = enc(pair);
        for (http, flag) in [("", "centred"), ("&cube=owned", "owned")] {
            let api = s.ok(&format!(
                "/api/bearoff/bearoff-ts-6x6.tbl/equity?position={q}{http}&one_sided=bearoff-os-6"
            ));
            let line = cli(&[
                "bearoff",
                "equity",
                pair,
                "--table",
                ts,
                "--one-sided",
                os,
                "--cube",
                flag,
            ]);
            assert_eq!(api, line, "equity {pair} {flag}");
        }
        for roll in ["6-1", "2-2"] {
            let api = s.ok(&format!(
                "/api/bearoff/bearoff-ts-6x6/hint?position={q}&roll={roll}&cube=centred"
            ));
            let line = cli(&[
                "bearoff", "hint", pair, roll, "--table", ts, "--cube", "centred",
            ]);
            assert_eq!(api, line, "hint {pair} {roll}");
            let api = s.ok(&format!(
                "/api/bearoff/bearoff-ts-6x6/hint?position={q}&roll={roll}"
            ));
            assert_eq!(
                api,
                cli(&["bearoff", "hint", pair, roll, "--table", ts]),
                "hint {pair} {roll} cubeless"
            );
        }
    }
    // At a match score (the server reads gnubg's match-equity table, as the command line
    // does by default): `score`, `crawford`, `cube` and `owner`, or an XGID that brings its
    // own.
    if crate::gammon_xgid::gnubg().is_some() {
        for pair in ["6,6,5/4,2,1", "75804"] {
            let q = enc(pair);
            let api = s.ok(&format!(
                "/api/bearoff/bearoff-ts-6x6/equity?position={q}&score=3-5&cube=2&owner=opponent"
            ));
            let line = cli(&[
                "bearoff", "equity", pair, "--table", ts, "--score", "3-5", "--cube", "2",
                "--owner", "opponent",
            ]);
            assert_eq!(api, line, "equity {pair} at 3-5");
            let api = s.ok(&format!(
                "/api/bearoff/bearoff-ts-6x6/hint?position={q}&roll=6-1&score=4-1&crawford=true"
            ));
            let line = cli(&[
                "bearoff",
                "hint",
                pair,
                "6-1",
                "--table",
                ts,
                "--score",
                "4-1",
                "--crawford",
            ]);
            assert_eq!(api, line, "hint {pair} at 4-1 Crawford");
        }
        let x = "XGID=-ADA---------------aa-aa--:1:1:1:00:19:19:0:25:10";
        let api = s.ok(&format!(
            "/api/bearoff/bearoff-ts-6x6/equity?position={}",
            enc(x)
        ));
        assert_eq!(api, cli(&["bearoff", "equity", x, "--table", ts]));
        assert_eq!(api["score"]["on_roll"], 6, "{api}");
        assert_eq!(api["cube"]["value"], 2, "{api}");
    }
    // One checker on the six point against one on the ace point: the side on roll wins
    // only by bearing off at once, with a six, a sum of six or more, or a double of 2 or
    // more: 22 + 5 of the 36 rolls.
    let race = s.ok("/api/bearoff/bearoff-ts-6x6/equity?position=6/1");
    // (The table keeps a chance to 2.3e-10.)
    let win = race["outcomes"]["win"].as_f64().unwrap();
    assert!((win - 27.0 / 36.0).abs() < 1e-9, "{race}");
    // A certain win: double, pass (docs/bearoff.md).
    let won = s.ok("/api/bearoff/bearoff-ts-6x6/equity?position=1/6");
    assert_eq!(won["outcomes"]["win"].as_f64().unwrap(), 1.0);
    assert_eq!(won["cube"]["action"], "double, pass", "{won}");
    let listing = s.ok("/api/variants");
    let tables: Vec<&str> = listing["bearoff"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["table"].as_str().unwrap())
        .collect();
    assert_eq!(tables, ["bearoff-os-6", "bearoff-ts-6x6"], "{listing}");
    assert_eq!(listing["bearoff"][1]["kind"]["cube"], true);
    assert_eq!(listing["broken"].as_array().unwrap().len(), 0, "{listing}");
}

/// `tabula ARGS --json` run in `folder` with `folder` as the tables folder and no other
/// (no `./tables`, no per-user folder): where the server of `folder` looks for a race's
/// table.
fn cli_in(folder: &Path, args: &[&str]) -> Value {
    json_of(
        tabula()
            .current_dir(folder)
            .env("TABULA_TABLES", folder)
            .env("XDG_DATA_HOME", folder)
            .args(args)
            .arg("--json"),
    )
}

/// A folder of races of fifteen checkers on few points, exact: 3 points one-sided and 3x15
/// with the cube, 2 points one-sided and 2x15 cubeless (under a second in all).
fn few_points() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = crate::scratch::folder();
        for args in [
            &["--points", "3"][..],
            &["--points", "3", "--checkers", "15", "--two-sided"],
            &["--points", "2"],
            &[
                "--points",
                "2",
                "--checkers",
                "15",
                "--two-sided",
                "--cubeless",
            ],
        ] {
            succeed(
                tabula()
                    .env("TABULA_TABLES", &dir)
                    .args(["bearoff", "build", "--quiet"])
                    .args(args),
            );
        }
        dir
    })
}

#[test]
fn a_race_asked_without_a_table_is_the_command_lines_exact_or_estimated_answer() {
    let s = server();
    let dir = folder();
    let fifteen = "6,6,6,5,5,5,4,4,4,3,3,2,2,1,1/6,6,6,5,5,5,4,4,4,3,3,2,2,1,1";
    // (a) Races the 6x6 table holds: its exact answers, as from its own route.
    for pair in ["6,6,5/4,2,1", "6/1", "JQAAAA0AAAAAAA"] {
        let q = enc(pair);
        for (http, flag) in [("", "centred"), ("&cube=owned", "owned")] {
            let api = s.ok(&format!("/api/bearoff/race/equity?position={q}{http}"));
            assert_eq!(
                api,
                cli_in(dir, &["bearoff", "equity", pair, "--cube", flag])
            );
            let table = s.ok(&format!(
                "/api/bearoff/bearoff-ts-6x6/equity?position={q}{http}"
            ));
            assert_eq!(api, table, "{pair} {flag}");
        }
        let api = s.ok(&format!(
            "/api/bearoff/race/equity?position={q}&one_sided=bearoff-os-6&jacoby=true"
        ));
        let line = cli_in(
            dir,
            &[
                "bearoff",
                "equity",
                pair,
                "--one-sided",
                "bearoff-os-6",
                "--cube",
                "jacoby",
            ],
        );
        assert_eq!(api, line, "{pair}");
        assert!(api["one_sided_estimate"]["win"].is_f64(), "{api}");
        let api = s.ok(&format!(
            "/api/bearoff/race/hint?position={q}&roll=6-1&cube=owned"
        ));
        assert_eq!(
            api,
            cli_in(dir, &["bearoff", "hint", pair, "6-1", "--cube", "owned"]),
            "{pair}"
        );
    }
    // (b) Fifteen checkers a side and no 6x15 table: the one-sided table's estimate,
    // labelled as one, the command line's to the byte's value.
    for pair in [fifteen, "6,6,6,6,6,6,6/5,4"] {
        let q = enc(pair);
        let api = s.ok(&format!("/api/bearoff/race/equity?position={q}"));
        assert_eq!(api, cli_in(dir, &["bearoff", "equity", pair]));
        assert_eq!(api["method"], "one-sided estimate", "{api}");
        for roll in ["6-5", "1-1"] {
            let api = s.ok(&format!("/api/bearoff/race/hint?position={q}&roll={roll}"));
            assert_eq!(api, cli_in(dir, &["bearoff", "hint", pair, roll]));
            assert_eq!(api["method"], "one-sided estimate", "{api}");
            assert!(api["plays"].as_array().is_some_and(|p| !p.is_empty()));
        }
    }
    // A race at a match score (an XGID of a match): the exact table's, never the
    // estimate's.
    if crate::gammon_xgid::gnubg().is_some() {
        let x = "XGID=-ADA---------------aa-aa--:1:1:1:11:19:19:0:25:10";
        let api = s.ok(&format!(
            "/api/bearoff/race/hint?position={}&roll=1-1",
            enc(x)
        ));
        assert_eq!(api, cli_in(dir, &["bearoff", "hint", x, "1-1"]));
        assert_eq!(api["moves"][0]["play"], "2/off(2)", "{api}");
        let m = s.fault(
            &format!(
                "/api/bearoff/race/equity?position={}&score=3-3",
                enc(fifteen)
            ),
            400,
        );
        assert!(m.contains("only a two-sided table"), "{m}");
    }
    // Asked of the 6x8 table (`checkers`), missing: a 404 naming its build.
    let m = s.fault(
        "/api/bearoff/race/equity?position=6,6,6,6,6,6,6/5,4&checkers=8",
        404,
    );
    assert!(
        m.contains("tabula bearoff build --points 6 --checkers 8 --two-sided"),
        "{m}"
    );
    let listing = s.ok("/api/variants");
    assert_eq!(listing["race"]["table"], "race");
    assert_eq!(
        listing["race"]["points"],
        serde_json::json!([6]),
        "{listing}"
    );
}

#[test]
fn a_race_of_fifteen_checkers_is_exact_from_the_fifteen_checker_table_of_its_points() {
    let dir = few_points();
    let s = Server::start(dir);
    // (c) 3 points: the 3x15 table with the cube, exact, as from its own route.
    let three = "3,3,3,3,3,2,2,2,2,2,1,1,1,1,1/3,3,3,3,3,3,2,2,2,2,2,1,1,1,1";
    // The last pair fits 3x6, which the folder lacks: 3x15 holds it too and answers.
    for pair in [three, "3,3,2/1,1,1,1,1,1,1,1", "3,2/2,1,1"] {
        let q = enc(pair);
        let api = s.ok(&format!(
            "/api/bearoff/race/equity?position={q}&points=3&cube=owned"
        ));
        let line = cli_in(
            dir,
            &[
                "bearoff", "equity", pair, "--points", "3", "--cube", "owned",
            ],
        );
        assert_eq!(api, line, "{pair}");
        assert_eq!(api["variant"], "bearoff 3x15", "{api}");
        assert!(api["cube"]["action"].is_string(), "{api}");
        let table = s.ok(&format!(
            "/api/bearoff/bearoff-ts-3x15/equity?position={q}&cube=owned"
        ));
        assert_eq!(api, table);
        let hint = format!("/api/bearoff/race/hint?position={q}&roll=4-2&points=3&cube=centred");
        let line = cli_in(
            dir,
            &[
                "bearoff", "hint", pair, "4-2", "--points", "3", "--cube", "centred",
            ],
        );
        assert_eq!(s.ok(&hint), line, "{pair}");
    }
    // 2 points: only the cubeless 2x15 table, exact; a cube question of it is a 404.
    let two = "2,2,2,2,2,2,2,1,1,1,1,1,1,1,1/2,2,2,2,2,2,2,2,1,1,1,1,1,1,1";
    let q = enc(two);
    let exact = s.ok(&format!("/api/bearoff/race/equity?position={q}&points=2"));
    assert_eq!(
        exact,
        cli_in(dir, &["bearoff", "equity", two, "--points", "2"])
    );
    assert_eq!(exact["variant"], "bearoff 2x15", "{exact}");
    let api = s.ok(&format!(
        "/api/bearoff/race/hint?position={q}&roll=2-1&points=2"
    ));
    assert_eq!(
        api,
        cli_in(dir, &["bearoff", "hint", two, "2-1", "--points", "2"])
    );
    let m = s.fault(
        &format!("/api/bearoff/race/hint?position={q}&roll=2-1&points=2&cube=owned"),
        404,
    );
    assert!(m.contains("without the cube"), "{m}");
    // The 3-point race drawn on 6 points in the suite's folder (no 6x15 there): the
    // estimate, near the exact chance of 3x15 but not it (each side's race is taken as
    // independent of the other's: 0.682254 against 0.682208).
    let estimate = server().ok(&format!("/api/bearoff/race/equity?position={}", enc(three)));
    assert_eq!(estimate["method"], "one-sided estimate");
    let exact = s.ok(&format!(
        "/api/bearoff/race/equity?position={}&points=3",
        enc(three)
    ));
    let (e, x) = (
        estimate["win"].as_f64().unwrap(),
        exact["outcomes"]["win"].as_f64().unwrap(),
    );
    assert!(
        (e - x).abs() < 1e-3 && (e - x).abs() > 1e-6,
        "estimate {e}, exact {x}"
    );
    // Missing tables: a 404 naming the build; a race that fits the 6x6 table asks it.
    let m = s.fault(
        &format!("/api/bearoff/race/equity?position={}", enc(three)),
        404,
    );
    assert!(
        m.contains("tabula bearoff build --points 6 --checkers 15 --table")
            && m.contains("bearoff-os-6.tbl not found"),
        "{m}"
    );
    let m = s.fault("/api/bearoff/race/hint?position=6/1&roll=6-1", 404);
    assert!(
        m.contains("tabula bearoff build --points 6 --checkers 6 --two-sided"),
        "{m}"
    );
    // Bad input: a 400 with the command line's reason.
    for (path, says) in [
        (
            "equity?position=4/1&points=3&checkers=15",
            "outside the database's points 1 to 3",
        ),
        ("equity?position=6/1&points=13", "1 to 12 points"),
        ("equity?position=6/1&points=six", "parameter `points`"),
        ("equity?position=6/1&checkers=16", "1 to 15 checkers"),
        (
            "hint?position=3/1&roll=7-1&points=3&checkers=15",
            "roll 7-1",
        ),
        ("hint?position=3/1&points=3", "parameter `roll` is missing"),
        ("equity?position=3/1&cube=sideways", "sideways"),
        ("equity?position=3/1&cube=owned&jacoby=true", "Jacoby"),
        (
            "equity?position=3/1&one_sided=bearoff-ts-3x15",
            "names no one-sided table",
        ),
        (
            "hint?position=3/1&roll=2-1&points=3&checkers=15&one_sided=bearoff-os-3",
            "unknown parameter `one_sided`",
        ),
    ] {
        let m = s.fault(&format!("/api/bearoff/race/{path}"), 400);
        assert!(m.contains(says), "{path}: {m}");
    }
    let m = s.fault("/api/bearoff/race/distribution?position=3", 404);
    assert!(m.contains("of a race: equity or hint"), "{m}");
    let listing = s.ok("/api/variants");
    assert_eq!(
        listing["race"]["points"],
        serde_json::json!([2, 3]),
        "{listing}"
    );
}

/// A fifteen-checker cube table stored compact keeps the cube's equities alone (6×15's
/// 47 GB record): the race is answered with the chances of the cubeless table beside it,
/// as the command line answers it, and without that table the answer is a 404 naming it
/// and its build.
#[test]
fn a_compact_cube_table_answers_races_with_the_cubeless_table_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let build = |name: &str, extra: &[&str]| {
        let size = ["--points", "3", "--checkers", "15", "--compact"];
        crate::bearoff_out_of_core::build(
            &[&size[..], extra].concat(),
            &dir.path().join(name),
            None,
        )
    };
    build("bearoff-ts-3x15.tbl", &[]);
    let pair = "3,3,3,3,3,2,2,2,2,2,1,1,1,1,1/3,3,3,3,3,3,2,2,2,2,2,1,1,1,1";
    let route = format!("/api/bearoff/race/equity?position={}&points=3", enc(pair));
    let alone = Server::start(dir.path());
    let m = alone.fault(&route, 404);
    assert!(
        m.contains("bearoff-ts-3x15-cubeless.tbl") && m.contains("--cubeless"),
        "{m}"
    );
    drop(alone);
    build("bearoff-ts-3x15-cubeless.tbl", &["--cubeless"]);
    let s = Server::start(dir.path());
    let api = s.ok(&route);
    assert_eq!(api["variant"], "bearoff 3x15", "{api}");
    assert!(api["cubeful"]["centred"].is_f64() && api["outcomes"]["win"].is_f64());
    assert_eq!(
        api,
        cli_in(dir.path(), &["bearoff", "equity", pair, "--points", "3"])
    );
}

#[test]
fn bear_off_faults_name_the_table_the_question_or_the_input() {
    let s = server();
    let m = s.fault("/api/bearoff/bearoff-ts-6x6/equity?position=7/6", 400);
    assert!(m.starts_with("position 7/6: "), "{m}");
    let m = s.fault(
        "/api/bearoff/bearoff-ts-6x6/hint?position=6/6&roll=6-1&one_sided=bearoff-os-6",
        400,
    );
    assert_eq!(m, "unknown parameter `one_sided`");
    let m = s.fault(
        "/api/bearoff/bearoff-ts-6x6/equity?position=6/6&one_sided=bearoff-ts-6x6",
        400,
    );
    assert!(m.contains("names no one-sided table"), "{m}");
    let m = s.fault("/api/bearoff/bearoff-os-13/distribution?position=6", 400);
    assert!(m.contains("1 to 12 points"), "{m}");
    let m = s.fault("/api/bearoff/bearoff-ts-6x6/distribution?position=6", 404);
    assert!(m.contains("a question of a one-sided table"), "{m}");
    let m = s.fault("/api/bearoff/bearoff-os-6/hint?position=6/6&roll=6-1", 404);
    assert!(m.contains("a question of a two-sided table"), "{m}");
    let m = s.fault("/api/bearoff/bearoff-os-6/verify", 404);
    assert!(m.starts_with("no question `verify`"), "{m}");
    // Only the names a build writes are opened: nothing climbs out of the folder.
    for name in ["..%2Fbearoff-os-6", "bearoff-os-06", "hyper1"] {
        let m = s.fault(&format!("/api/bearoff/{name}/distribution?position=6"), 404);
        assert!(m.starts_with("no bear-off table"), "{m}");
    }
    let m = s.fault("/api/bearoff/bearoff-ts-6x8/equity?position=6/6", 404);
    let file = folder().join("bearoff-ts-6x8.tbl");
    assert!(
        m.contains(&format!("table {} not found", file.display())),
        "{m}"
    );
    assert!(
        m.contains("tabula bearoff build --points 6 --checkers 8 --two-sided"),
        "{m}"
    );
}

#[test]
fn nikoniko_is_answered_from_the_articles_table_as_tabula_nikoniko_answers() {
    let s = server();
    let table = folder().join("nikoniko.tbl");
    let table = table.to_str().unwrap();
    let start = "8,8,5,2,2/8,8,5,2,2";
    let q = enc(start);
    let api = s.ok(&format!("/api/gammon/nikoniko/equity?position={q}"));
    assert_eq!(api, cli(&["nikoniko", "equity", start, "--table", table]));
    assert_eq!(api["index"], 562767);
    let api = s.ok(&format!("/api/gammon/nikoniko/hint?position={q}&roll=1-2"));
    assert_eq!(
        api,
        cli(&["nikoniko", "hint", start, "1-2", "--table", table])
    );
    let api = s.ok("/api/gammon/nikoniko/opening");
    assert_eq!(api, cli(&["nikoniko", "opening", "--table", table]));
    let listing = s.ok("/api/variants");
    let names: Vec<&str> = listing["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    // By board size: NikoNiko's 8 points, then Hypergammon's 24.
    assert_eq!(names, ["nikoniko", "hyper1"], "{listing}");
    assert_eq!(listing["variants"][0]["cube"], false);
    assert_eq!(listing["variants"][0]["opening"], start);
    assert_eq!(listing["variants"][1]["cube"], true);
}

#[test]
fn the_other_games_answer_as_their_commands_do() {
    let s = server();
    let api = s.ok("/api/bingo/law?size=3&pattern=line");
    assert_eq!(
        api,
        json(&[
            "bingo",
            "exact",
            "--size",
            "3",
            "--pattern",
            "line",
            "--json"
        ])
    );
    assert_eq!(
        api["mean_exact"],
        json(&["bingo", "exact", "--size", "3", "--json"])["mean_exact"]
    );
    let api = s.ok("/api/bingo/law?size=3&players=2&cards=uniform");
    let line = json(&[
        "bingo",
        "exact",
        "--size",
        "3",
        "--players",
        "2",
        "--cards",
        "uniform",
        "--json",
    ]);
    assert_eq!(api, line);
    let api = s.ok("/api/numeron/next?history=123:0E1B,456:1E0B&strategy=minimax");
    let line = json(&[
        "numeron",
        "next",
        "--history",
        "123:0E1B,456:1E0B",
        "--strategy",
        "minimax",
        "--json",
    ]);
    assert_eq!(api, line);
    assert_eq!(api["history"][1]["left"], api["candidates"]);
    assert!(api["guess"].is_string(), "{api}");
    let api = s.ok("/api/numeron/next?history=123:3E0B");
    assert_eq!(
        (api["solved"].clone(), api["candidates"].clone()),
        (Value::Bool(true), 1.into())
    );
    let api = s.ok(&format!(
        "/api/poker/compare?a=oizsk&b={}",
        enc("大大石石す")
    ));
    assert_eq!(api, json(&["poker", "compare", "oizsk", "ooiis", "--json"]));
    assert_eq!(api["winner"], "a");
}

#[test]
fn bad_input_gets_a_4xx_that_names_the_fault() {
    let s = server();
    let m = s.fault("/api/gammon/hyper1/equity?position=24,23/24", 400);
    assert!(m.starts_with("position 24,23/24: "), "{m}");
    let m = s.fault("/api/gammon/hyper1/hint?position=24/24&roll=7-1", 400);
    assert!(m.starts_with("roll 7-1: not a roll"), "{m}");
    let m = s.fault("/api/gammon/hyper9/equity?position=24/24", 400);
    assert!(m.contains("unknown variant hyper9"), "{m}");
    let m = s.fault("/api/gammon/hyper1/equity", 400);
    assert_eq!(m, "parameter `position` is missing");
    let m = s.fault("/api/gammon/hyper1/equity?position=24/24&cueb=owned", 400);
    assert_eq!(m, "unknown parameter `cueb`");
    let m = s.fault("/api/gammon/hyper1/equity?position=24/24&cube=mine", 400);
    // The command line's parser's reason, in its form.
    assert!(
        m.starts_with("invalid value `mine` for `cube`: expected owned, centred"),
        "{m}"
    );
    let m = s.fault(
        "/api/gammon/hyper1/equity?position=24/24&cube=owned&jacoby=true",
        400,
    );
    assert!(m.contains("Jacoby rule applies to a centred cube"), "{m}");
    let m = s.fault("/api/gammon/hyper1/equity?position=24/24&position=1/1", 400);
    assert_eq!(m, "parameter `position` is given twice");
    let m = s.fault("/api/gammon/hyper1/verify", 404);
    assert!(m.starts_with("no question `verify`"), "{m}");
    let m = s.fault("/api/bingo/law?size=6", 400);
    assert!(m.contains('6'), "{m}");
    let m = s.fault("/api/bingo/law?cards=us", 400);
    assert_eq!(m, "parameter `cards` needs `players`");
    let m = s.fault("/api/numeron/next?history=123:0E1B,123:1E0B", 400);
    assert!(m.contains("contradicts the earlier answers"), "{m}");
    let m = s.fault("/api/numeron/next?history=123", 400);
    assert!(m.contains("GUESS:ANSWER"), "{m}");
    let m = s.fault("/api/poker/compare?a=oizsk&b=xyz", 400);
    assert!(m.to_lowercase().contains("xyz"), "{m}");
    let m = s.fault("/api/nothing", 404);
    assert!(m.starts_with("no route `/api/nothing`"), "{m}");
    let m = s.fault("/api/bearoff/hyper2/equity?position=1,1/1,1", 404);
    assert!(m.contains("bear-off"), "{m}");
}

#[test]
fn a_missing_table_is_a_404_naming_the_file_in_the_tables_folder_and_its_build() {
    let s = server();
    let m = s.fault("/api/gammon/hyper3/equity?position=24,23,22/24,23,22", 404);
    let file = folder().join("hyper3.tbl");
    assert!(
        m.contains(&format!("table {} not found", file.display())),
        "{m}"
    );
    assert!(m.contains("tabula gammon build --variant hyper3"), "{m}");
    let m = s.fault("/api/gammon/points=12:checkers=2/opening", 404);
    assert!(m.contains(&folder().display().to_string()), "{m}");
    // The article's table keeps no cube.
    let m = s.fault(
        "/api/gammon/nikoniko/hint?position=8,8,5,2,2/8,8,5,2,2&roll=1-2&cube=owned",
        404,
    );
    assert!(m.contains("no cube table"), "{m}");
    // A path is never taken from the request: names that climb out are variants refused.
    let m = s.fault("/api/gammon/..%2F..%2Fetc%2Fpasswd/opening", 400);
    assert!(m.contains("unknown variant ../../etc/passwd"), "{m}");
    let (status, _) = s.get("/../../etc/passwd");
    assert_eq!(status, 404);
}

/// A match file of `tests/data/gnubg` (made by gnubg).
pub fn gnubg_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/gnubg")
        .join(name)
}

/// gnubg's Hypergammon-1 money session as a `.mat` with an illegal move in its second
/// game, and that line's number.
pub fn damaged_mat() -> (String, usize) {
    let mat = std::fs::read_to_string(gnubg_file("hyper1-money.mat")).unwrap();
    let mut lines: Vec<String> = mat.lines().map(String::from).collect();
    let at = lines.iter().position(|l| l.contains(" Game 2")).unwrap() + 2;
    lines[at] = lines[at].replacen(": ", ": 24/1 ", 1);
    (lines.join("\n"), at + 1)
}

/// `POST /api/gammon/analyse` with `body`: the status and the document.
pub fn post_analyse(s: &Server, body: &[u8]) -> (u16, Value) {
    let url = format!("{}/api/gammon/analyse", s.base);
    let mut r = agent().post(&url).send(body).unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap();
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{status}: {e}: {text}"));
    (status, value)
}

/// `tabula gammon analyse FILE --all --json` over the served folder: its document,
/// whatever its exit status (2 when the file has faults).
fn cli_analyse(file: &Path) -> Value {
    let (doc, code, said) = crate::gammon_analyse::analyse_in(folder(), file);
    assert!(code == 0 || code == 2, "{code}: {said}");
    doc
}

#[test]
fn a_match_file_posted_is_analysed_as_the_command_line_analyses_it() {
    let s = server();
    for name in [
        "hyper1-money.sgf",
        "hyper1-money.mat",
        "hyper1-match7.sgf",
        "hyper1-match7.mat",
    ] {
        let file = gnubg_file(name);
        let (status, doc) = post_analyse(s, &std::fs::read(&file).unwrap());
        assert_eq!(status, 200, "{name}: {doc}");
        assert_eq!(doc, cli_analyse(&file), "{name}");
        assert_eq!(doc["faults"], serde_json::json!([]), "{name}");
        assert!(!doc["games"][0]["steps"].as_array().unwrap().is_empty());
    }
    // A damaged line: the faults listed (its line named), the other games analysed.
    let (damaged, line) = damaged_mat();
    let (status, doc) = post_analyse(s, damaged.as_bytes());
    assert_eq!(status, 200, "{doc}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("damaged.mat");
    std::fs::write(&file, &damaged).unwrap();
    assert_eq!(doc, cli_analyse(&file));
    let faults = doc["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0]["line"], line, "{faults:?}");
    assert_eq!(faults[0]["game"], 2, "{faults:?}");
    assert_eq!(doc["games"][1]["complete"], false);
    assert!(doc["games"].as_array().unwrap().len() > 2);
    assert_eq!(doc["games"][2]["complete"], true);
    // Truncated anywhere: an answer, never a crash.
    let sgf = std::fs::read(gnubg_file("hyper1-money.sgf")).unwrap();
    for cut in (1..sgf.len()).step_by(1499) {
        let (status, doc) = post_analyse(s, &sgf[..cut]);
        assert!(
            status == 200 || status == 400,
            "cut at {cut}: {status} {doc}"
        );
    }
    // A backgammon file: its bear-offs, as `tabula bearoff analyse FILE --json` judges them
    // with the folder's two-sided table.
    let file = gnubg_file("backgammon-match25.mat");
    let bg = std::fs::read(&file).unwrap();
    let (status, doc) = post_analyse(s, &bg);
    assert_eq!(status, 200, "{doc}");
    let ts = folder().join("bearoff-ts-6x6.tbl");
    let ts = ts.to_str().unwrap();
    let file = file.to_str().unwrap();
    assert_eq!(doc, cli(&["bearoff", "analyse", file, "--table", ts]));
    assert_eq!(doc["variant"], "backgammon");
    assert_eq!(doc["tables"], serde_json::json!(["bearoff 6x6"]));
    // A variant without its table in the folder: a 404 naming the build, as elsewhere.
    let hyper2 = std::fs::read(gnubg_file("hyper2-money.sgf")).unwrap();
    let (status, doc) = post_analyse(s, &hyper2);
    assert_eq!(status, 404, "{doc}");
    assert!(doc["error"]
        .as_str()
        .unwrap()
        .contains("tabula gammon build --variant hyper2"));
    // No file, a parameter, another method, a file too large.
    let (status, doc) = post_analyse(s, b"  \n");
    assert_eq!(status, 400, "{doc}");
    assert!(doc["error"].as_str().unwrap().contains(".sgf or .mat"));
    let url = format!("{}/api/gammon/analyse?all=true", s.base);
    let mut r = agent().post(&url).send(&sgf[..]).unwrap();
    assert_eq!(r.status().as_u16(), 400);
    assert!(r.body_mut().read_to_string().unwrap().contains("`all`"));
    let (status, doc) = s.get("/api/gammon/analyse");
    assert_eq!(status, 405, "{doc}");
    let url = format!("{}/api/gammon/analyse", s.base);
    let r = agent().get(&url).call().unwrap();
    assert_eq!(r.headers()["allow"], "POST");
    // A file too large: refused on its declared length, before it is sent.
    let mut stream = std::net::TcpStream::connect(s.base.trim_start_matches("http://")).unwrap();
    let head = format!(
        "POST /api/gammon/analyse HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
        5 << 20
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = vec![0; 4096];
    let n = stream.read(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("larger than 4194304 bytes"), "{answer}");
}

#[test]
fn oversized_requests_and_other_methods_are_refused_with_their_status() {
    let s = server();
    let long = format!("/api/gammon/hyper1/equity?position={}", "1".repeat(5000));
    let m = s.fault(&long, 414);
    assert!(m.contains("at most 4096"), "{m}");
    let url = format!("{}/api/gammon/hyper1/equity?position=24/24", s.base);
    let mut r = agent().post(&url).send(vec![b'x'; 100_000]).unwrap();
    assert_eq!(r.status().as_u16(), 413);
    assert!(r
        .body_mut()
        .read_to_string()
        .unwrap()
        .contains("larger than 16384 bytes"));
    let mut r = agent().post(&url).send(&b"{}"[..]).unwrap();
    assert_eq!(r.status().as_u16(), 405);
    assert_eq!(r.headers()["allow"], "GET, HEAD");
    let _ = r.body_mut().read_to_string();
    // A head larger than the server reads: refused by hyper, the connection closed.
    let mut stream = std::net::TcpStream::connect(s.base.trim_start_matches("http://")).unwrap();
    let head = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(40_000)
    );
    let _ = stream.write_all(head.as_bytes());
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 431"),
        "{answer}"
    );
    // The server still answers.
    s.ok("/api/gammon/hyper1/equity?position=24/24");
}

#[test]
fn the_page_and_its_files_come_from_the_binary() {
    let s = server();
    let (status, page) = s.get_text("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/app.js\""), "{page}");
    for file in ["/app.js", "/style.css", "/icon.svg"] {
        let (status, body) = s.get_text(file);
        assert_eq!(status, 200, "{file}");
        assert!(body.len() > 100, "{file}");
    }
}

#[test]
fn concurrent_clients_each_get_the_same_exact_answer() {
    let s = server();
    let path = "/api/gammon/hyper1/hint?position=20/6&roll=6-5&cube=centred";
    let expected = s.ok(path);
    std::thread::scope(|scope| {
        for _ in 0..8 {
            scope.spawn(|| {
                for _ in 0..50 {
                    assert_eq!(s.ok(path), expected);
                }
            });
        }
    });
}

#[test]
fn a_damaged_table_is_a_500_naming_the_fault_and_the_server_answers_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(folder().join("hyper1.tbl"), dir.path().join("hyper1.tbl")).unwrap();
    std::fs::copy(folder().join("hyper1.cube"), dir.path().join("hyper1.cube")).unwrap();
    // One byte of the payload (which starts after the 256-byte header) flipped.
    let path = dir.path().join("hyper1.tbl");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[256 + 1000] ^= 0xFF;
    std::fs::write(&path, bytes).unwrap();
    std::fs::write(dir.path().join("hyper2.tbl"), b"not a table").unwrap();
    let server = Server::start(dir.path());
    for _ in 0..2 {
        let m = server.fault("/api/gammon/hyper1/equity?position=24/24", 500);
        assert!(
            m.contains("is corrupt: payload bytes 0..16224 (block 0)"),
            "{m}"
        );
    }
    let m = server.fault("/api/gammon/hyper2/equity?position=24,23/24,23", 500);
    assert!(m.contains("is not a tabula table"), "{m}");
    let listing = server.ok("/api/variants");
    assert_eq!(listing["broken"][0]["file"], "hyper2.tbl", "{listing}");
    // Questions that need no table are still answered.
    server.ok("/api/gammon/hyper1/show?position=24/24");
    let (status, said) = server.stop();
    assert!(status.success(), "{status}: {said}");
}

/// Writes `bytes` at `at` into the file `path` in place (the same inode), as a disk or
/// another program might under a running server.
fn write_in_place(path: &Path, at: u64, bytes: &[u8]) {
    use std::os::unix::fs::FileExt;
    let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.write_all_at(bytes, at).unwrap();
}

/// Long enough for the server to look at its tables' files again (`LOOK_EVERY`).
const LOOK_AGAIN: Duration = Duration::from_millis(300);

#[test]
fn a_table_changed_or_truncated_under_the_server_is_refused_and_the_server_answers_on() {
    let dir = tempfile::tempdir().unwrap();
    for file in [
        "hyper1.tbl",
        "hyper1.cube",
        "bearoff-ts-6x6.tbl",
        "bearoff-os-6.tbl",
    ] {
        std::fs::copy(folder().join(file), dir.path().join(file)).unwrap();
    }
    let server = Server::start(dir.path());
    let equity = "/api/gammon/hyper1/equity?position=20/6&cube=owned";
    let pair = "/api/bearoff/bearoff-ts-6x6/equity?position=6,6,5/4,2,1";
    let side = "/api/bearoff/bearoff-os-6/distribution?position=6,6,5,3,1";
    let before: Vec<Value> = [equity, pair, side].iter().map(|p| server.ok(p)).collect();
    // A byte flipped in place in every block of the table, each block already read and
    // verified by the server or not: the answer is refused, never another number.
    let table = dir.path().join("hyper1.tbl");
    let len = std::fs::metadata(&table).unwrap().len();
    let payload = len - 256 - (len - 256) / 16_385 * 8;
    for at in (256..256 + payload).step_by(16_384) {
        write_in_place(&table, at + 7, &[0x5A]);
    }
    std::thread::sleep(LOOK_AGAIN);
    for _ in 0..3 {
        let m = server.fault(equity, 500);
        assert!(m.contains("is corrupt: payload bytes"), "{m}");
    }
    // The one-sided table's ranks and runs flipped too.
    let os = dir.path().join("bearoff-os-6.tbl");
    let os_len = std::fs::metadata(&os).unwrap().len();
    for at in (256..os_len - 1024).step_by(4096) {
        write_in_place(&os, at, &[0xA5]);
    }
    // A table cut short in place: a mapped reader would die of SIGBUS here.
    let ts = dir.path().join("bearoff-ts-6x6.tbl");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&ts)
        .unwrap()
        .set_len(1000)
        .unwrap();
    std::thread::sleep(LOOK_AGAIN);
    let m = server.fault(pair, 500);
    assert!(m.contains("is truncated"), "{m}");
    let m = server.fault(side, 500);
    assert!(m.contains("is corrupt"), "{m}");
    // Alive: questions that need no table, and the listing, which names the bear-off
    // tables' faults (hyper1's header and sums are whole: its blocks fail as read).
    server.ok("/api/gammon/hyper1/show?position=24/24");
    let listing = server.ok("/api/variants");
    assert_eq!(listing["broken"].as_array().unwrap().len(), 2, "{listing}");
    // A rebuild renamed over the damaged files is picked up: the same answers again.
    for file in ["hyper1.tbl", "bearoff-ts-6x6.tbl", "bearoff-os-6.tbl"] {
        let fresh = dir.path().join(format!(".{file}.new"));
        std::fs::copy(folder().join(file), &fresh).unwrap();
        std::fs::rename(&fresh, dir.path().join(file)).unwrap();
    }
    std::thread::sleep(LOOK_AGAIN);
    let after: Vec<Value> = [equity, pair, side].iter().map(|p| server.ok(p)).collect();
    assert_eq!(before, after);
    let (status, said) = server.stop();
    assert!(status.success(), "{status}: {said}");
}

#[test]
fn sigterm_finishes_the_request_in_flight_and_stops_the_server_cleanly() {
    let server = Server::start(folder());
    // A bingo law of a few hundred milliseconds, under way when the signal comes.
    let url = format!("{}/api/bingo/law?size=4&players=3", server.base);
    let asking = std::thread::spawn(move || {
        let mut r = agent().get(&url).call().unwrap();
        (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
    });
    std::thread::sleep(Duration::from_millis(150));
    let (status, said) = server.stop();
    assert!(status.success(), "{status}: {said}");
    assert!(said.contains("stopping"), "{said}");
    let (code, body) = asking.join().unwrap();
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("\"distribution\""));
}

#[test]
fn mutated_requests_get_an_answer_or_a_fault_never_a_crash_or_a_hang() {
    let s = server();
    let routes = [
        "/api/gammon/hyper1/equity?position=20/6&cube=owned",
        "/api/gammon/hyper1/hint?position=bar/3&roll=6-5&cube=centred",
        "/api/gammon/hyper1/moves?position=24/24&roll=1-1",
        "/api/gammon/hyper1/show?position=AAAgCAAAAAAAAA",
        "/api/gammon/nikoniko/hint?position=8,8,5,2,2/8,8,5,2,2&roll=0-2",
        "/api/gammon/points=12:checkers=2/show?position=12,11/12,11",
        "/api/numeron/next?history=123:0E1B&strategy=parts",
        "/api/poker/compare?a=oizsk&b=ooiis&rule=article",
        "/api/bingo/law?size=3&pattern=corners",
        "/api/bearoff/bearoff-os-6/distribution?position=6,6,5,3,1",
        "/api/bearoff/bearoff-ts-6x6/equity?position=6,6,5/4,2,1&one_sided=bearoff-os-6",
        "/api/bearoff/bearoff-ts-6x6/hint?position=6,6,5/4,2,1&roll=6-1&cube=owned",
        "/api/bearoff/race/equity?position=6,6,6,6,6,6,6/5,4&one_sided=bearoff-os-6",
        "/api/bearoff/race/hint?position=6,6,5/4,2,1&roll=6-1&cube=owned&checkers=6",
    ];
    let junk = [
        "",
        "%",
        "%FF",
        "%00",
        "/",
        "..",
        "&",
        "=",
        "bar",
        "-1",
        "99999999999999999999",
        "%E5%A4%A7",
        "+",
        ",",
        ":",
        "?",
        "%23",
        "%2F..%2F",
    ];
    // A fixed xorshift: the same requests on every run.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for _ in 0..400 {
        let route = routes[next(routes.len())];
        // Mutated after `/api/` (before it, a path is the page's or a 404's).
        let cut = 5 + next(route.len() - 4);
        let insert = junk[next(junk.len())];
        let mut path = format!("{}{insert}{}", &route[..cut], &route[cut..]);
        if next(4) == 0 {
            path.push_str(&insert.repeat(next(50)));
        }
        let url = format!("{}{path}", s.base);
        // Some mutations are not URLs at all: the client refuses them itself.
        let Ok(mut response) = agent().get(&url).call() else {
            continue;
        };
        let status = response.status().as_u16();
        let body = response.body_mut().read_to_string().unwrap();
        assert!(
            [200, 400, 404, 414, 503].contains(&status),
            "{path}: {status} {body}"
        );
        let value: Value = serde_json::from_str(&body).unwrap_or_else(|_| {
            panic!("{path}: {status} and not JSON: {body}");
        });
        assert_eq!(
            status == 200,
            value.get("error").is_none(),
            "{path}: {value}"
        );
    }
    s.ok("/api/gammon/hyper1/equity?position=24/24");
}

/// The address `host:port` of `server`.
fn address(server: &Server) -> String {
    server.base.trim_start_matches("http://").to_string()
}

#[test]
fn slow_and_half_closed_clients_get_their_answer_or_a_deadline_and_do_not_hold_a_stop() {
    use std::net::{Shutdown, TcpStream};
    // A deadline of 2 s instead of 10: the test waits for it once.
    let server = Server::start_with(folder(), &["--deadline", "2"]);
    let addr = address(&server);
    // A complete request, then the client closes its side: the answer still comes.
    let mut half = TcpStream::connect(&addr).unwrap();
    half.write_all(b"GET /api/poker/compare?a=oizsk&b=ooiis HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    half.shutdown(Shutdown::Write).unwrap();
    half.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answer = String::new();
    let _ = half.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // A declared body that never comes: a 408 once its deadline passes, not a connection
    // held for ever.
    let mut slow = TcpStream::connect(&addr).unwrap();
    slow.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
        .unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let started = Instant::now();
    let mut answer = String::new();
    let _ = slow.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("within 2s"), "{answer}");
    assert!(started.elapsed() >= Duration::from_millis(1900));
    assert!(started.elapsed() < Duration::from_secs(7));
    // A head half sent does not hold the stop for the head's whole deadline.
    let mut partial = TcpStream::connect(&addr).unwrap();
    partial
        .write_all(b"GET /api/variants HTTP/1.1\r\nHo")
        .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    let (status, said) = server.stop();
    assert!(status.success(), "{status}: {said}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}
