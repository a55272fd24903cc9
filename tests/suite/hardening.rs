//! The faults of issue 26, one test each: one way in and one way out for every file, one
//! stderr and one stdout, memory, messages, limits. (`scripts/fuzz_cli.py` tries the same
//! faults on every subcommand, derived from the command tree.)

use crate::common::{hyper1_with_gnubg, json, tabula};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A named pipe in `dir`.
fn fifo(dir: &Path) -> PathBuf {
    let path = dir.join("a-pipe");
    let made = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success());
    path
}

/// `tabula ARGS` with a time limit: its output, or a failure if it hangs.
fn within(seconds: u64, args: &[&std::ffi::OsStr]) -> Output {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("tabula"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > Duration::from_secs(seconds) {
            child.kill().unwrap();
            panic!("{args:?} still runs after {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

#[test]
fn a_named_pipe_given_as_a_gnubg_file_or_a_packed_table_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (table, _) = hyper1_with_gnubg(dir.path());
    let pipe = fifo(dir.path());
    let out_tbl = dir.path().join("out.tbl");
    for args in [
        vec![
            os("gammon"),
            os("compare"),
            os("--table"),
            table.as_os_str(),
            os("--gnubg"),
            pipe.as_os_str(),
        ],
        vec![
            os("table"),
            os("unpack"),
            pipe.as_os_str(),
            out_tbl.as_os_str(),
        ],
    ] {
        let out = within(10, &args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{} is a named pipe", pipe.display())),
            "{err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_full_stderr_loses_the_diagnostics_but_not_the_answer() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    // bingo simulate reports its speed on stderr.
    let out = Command::new(assert_cmd::cargo::cargo_bin("tabula"))
        .args(["bingo", "simulate", "--games", "1000", "--json"])
        .stderr(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["games"], 1000);
}

#[cfg(unix)]
#[test]
fn help_and_the_version_that_cannot_be_written_exit_1() {
    for flag in ["--help", "--version"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(assert_cmd::cargo::cargo_bin("tabula"))
            .arg(flag)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("standard output"));
    }
}

/// `tabula ARGS` under an address-space limit of `kib` KiB.
#[cfg(unix)]
fn limited(kib: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(assert_cmd::cargo::cargo_bin("tabula"))
        .args(args)
        .output()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn a_build_without_the_memory_it_needs_exits_1_saying_how_much() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("h3.tbl");
    // Refused before the solve: the check knows the address-space limit.
    let out = limited(
        1_500_000,
        &[
            "gammon",
            "build",
            "--variant",
            "hyper3",
            "--quiet",
            "--table",
            table.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("GB") && err.contains("address-space limit"),
        "{err}"
    );
    let niko = dir.path().join("n.tbl");
    let out = limited(
        250_000,
        &[
            "nikoniko",
            "build",
            "--quiet",
            "--table",
            niko.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs about 0.5 GB"), "{err}");
    // The bear-off 6x10 with the cube: C(16, 10) = 8008 sides, 8008² pairs of 48 bytes
    // (16 of record, 32 of working values) while solving: 3.08 GB. Without room for that
    // a two-sided build goes out of core (tests/suite/bearoff_out_of_core.rs); what it is
    // refused is a memory cap below its largest layer, before anything is allocated.
    let bearoff = dir.path().join("b.tbl");
    let out = limited(
        1_500_000,
        &[
            "bearoff",
            "build",
            "--points",
            "6",
            "--checkers",
            "10",
            "--two-sided",
            "--memory",
            "64K",
            "--quiet",
            "--table",
            bearoff.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("points=6:checkers=10; cube")
            && err.contains("MB of working memory; 0.1 MB was allowed"),
        "{err}"
    );
    assert!(!bearoff.exists());
    // Refused by the allocator part way (numeron's answer table): a message and exit 1,
    // not an abort.
    let out = limited(
        40_000,
        &[
            "numeron",
            "analyze",
            "--digits",
            "4",
            "--strategy",
            "entropy",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("out of memory"), "{err}");
    // Nothing half-written is left.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn exports_at_once_to_one_file_never_tear_it_and_leave_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let (table, single) = hyper1_with_gnubg(dir.path());
    let expected = std::fs::read(&single).unwrap();
    let target = dir.path().join("both.bd");
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(assert_cmd::cargo::cargo_bin("tabula"))
                .args(["gammon", "export", "--table"])
                .arg(&table)
                .arg("--gnubg")
                .arg(&target)
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    // A reader meanwhile sees no file or a whole one.
    for _ in 0..200 {
        if let Ok(bytes) = std::fs::read(&target) {
            assert_eq!(bytes.len(), expected.len(), "a torn export");
        }
    }
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    assert_eq!(std::fs::read(&target).unwrap(), expected);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
}

#[test]
fn an_export_onto_a_folder_names_the_users_path_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (table, _) = hyper1_with_gnubg(dir.path());
    let folder = dir.path().join("a-folder.bd");
    std::fs::create_dir(&folder).unwrap();
    let out = tabula()
        .args(["gammon", "export", "--table"])
        .arg(&table)
        .arg("--gnubg")
        .arg(&folder)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{} is a folder", folder.display())),
        "{err}"
    );
    assert!(folder.is_dir());
}

#[test]
fn a_corrupt_gnubg_file_is_reported_at_its_lowest_bad_record_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (table, bd) = hyper1_with_gnubg(dir.path());
    let mut bytes = std::fs::read(&bd).unwrap();
    // A nonzero padding byte (byte 27 of a 28-byte record) in records 300 and 40.
    for record in [300usize, 40] {
        bytes[40 + record * 28 + 27] = 1;
    }
    std::fs::write(&bd, bytes).unwrap();
    for threads in ["1", "2", "2", "2"] {
        let out = tabula()
            .env("RAYON_NUM_THREADS", threads)
            .args(["gammon", "compare", "--table"])
            .arg(&table)
            .arg("--gnubg")
            .arg(&bd)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{}: record 40:", bd.display())),
            "{threads} threads: {err}"
        );
    }
}

#[test]
fn a_huge_argument_is_quoted_in_part_whichever_command_refuses_it() {
    let long = "x".repeat(131_000);
    for args in [
        vec!["poker", "table", "--rule", &long],
        vec!["poker", "judge", &long],
        vec!["bingo", "simulate", "--games", &long],
        vec!["gammon", "count", "--variant", &long],
        vec!["fabfib", "replay", "--strategies", &long],
        vec!["bingo", "plot", "--games", "10", "--output", &long],
    ] {
        let out = tabula().args(&args).output().unwrap();
        assert!(matches!(out.status.code(), Some(1 | 2)), "{:?}", &args[..2]);
        assert!(
            out.stderr.len() < 1000,
            "{:?}: {} bytes of stderr",
            &args[..2],
            out.stderr.len()
        );
    }
}

#[test]
fn inputs_the_docs_refuse_are_refused() {
    for args in [
        vec![
            "gammon",
            "count",
            "--variant",
            "points=8:checkers=2:points=9",
        ],
        vec!["fabfib", "tune", "--games", "40", "--games", "40"],
        vec!["bingo", "simulate", "--games", "1000000000000"],
    ] {
        let out = tabula().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn unpack_refuses_a_small_file_that_expands_past_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.tbl");
    tabula()
        .args([
            "gammon",
            "build",
            "--variant",
            "hyper1",
            "--cubeless",
            "--quiet",
        ])
        .arg("--table")
        .arg(&table)
        .assert()
        .success();
    // The table, then 256 MB of zeros, packed: a few hundred kilobytes.
    let mut raw = std::fs::read(&table).unwrap();
    raw.resize(raw.len() + (256 << 20), 0);
    let packed = dir.path().join("bomb.zst");
    std::fs::write(&packed, zstd::encode_all(&raw[..], 3).unwrap()).unwrap();
    drop(raw);
    assert!(std::fs::metadata(&packed).unwrap().len() < 1 << 20);
    let out_path = dir.path().join("out.tbl");
    let started = Instant::now();
    let out = tabula()
        .args(["table", "unpack"])
        .arg(&packed)
        .arg(&out_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("expands past"), "{err}");
    assert!(!out_path.exists());
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn pack_refuses_to_write_over_its_own_input_and_a_build_over_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let (table, _) = hyper1_with_gnubg(dir.path());
    let before = std::fs::read(&table).unwrap();
    let out = tabula()
        .args(["table", "pack"])
        .arg(&table)
        .arg(&table)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the file being read"));
    assert_eq!(std::fs::read(&table).unwrap(), before);
    let out = tabula()
        .args([
            "gammon",
            "build",
            "--variant",
            "hyper1",
            "--quiet",
            "--table",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/dev/null is a character device"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = std::fs::metadata("/dev/null").unwrap().file_type();
        assert!(kind.is_char_device());
    }
}

#[test]
fn json_answers_carry_no_wall_clock_time() {
    let (_, table, _, _) = crate::common::nikoniko_built();
    let table = table.to_str().unwrap();
    for args in [
        vec!["nikoniko", "count", "--json"],
        vec!["nikoniko", "verify", "--json", "--table", table],
    ] {
        let doc = json(&args);
        let text = doc.to_string();
        assert!(!text.contains("seconds"), "{args:?}: {text}");
    }
    // A build's report has its timings only when asked.
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("h1.tbl");
    let t = t.to_str().unwrap();
    let build = [
        "gammon",
        "build",
        "--variant",
        "hyper1",
        "--quiet",
        "--json",
        "--table",
        t,
    ];
    let plain = json(&build);
    assert!(plain.get("seconds").is_none() && plain.get("graph_seconds").is_none());
    assert_eq!(plain["records"], 676);
    let timed = json(&[&build[..], &["--timings"]].concat());
    assert!(timed["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(timed["tables"], plain["tables"]);
}

#[test]
fn a_game_reads_its_table_into_memory_so_a_truncation_under_it_does_no_harm() {
    use std::io::{BufRead, Write};
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("two.tbl");
    tabula()
        .args([
            "gammon",
            "build",
            "--variant",
            "points=12:checkers=2",
            "--quiet",
        ])
        .arg("--table")
        .arg(&table)
        .assert()
        .success();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("tabula"))
        .args(["gammon", "play", "--seed", "3", "--table"])
        .arg(&table)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first line comes once the table is open: then it is truncated in place.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.contains("you are X"), "{first}");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&table)
        .unwrap()
        .set_len(100)
        .unwrap();
    // Always the first play; the game may end before every line is read.
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all("1\n".repeat(300).as_bytes());
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{rest}");
    assert!(rest.contains("point(s)"), "{rest}");
}

/// `--json` carries no wall-clock time (`docs/cli.md`): the same build, in two folders
/// with the same relative paths, prints the same bytes; `--timings` adds the seconds.
#[test]
fn two_json_runs_of_a_build_print_the_same_bytes() {
    let runs: &[&[&str]] = &[
        &[
            "bearoff", "build", "--points", "4", "--table", "t.tbl", "--json",
        ],
        &[
            "bearoff",
            "build",
            "--points",
            "3",
            "--checkers",
            "3",
            "--two-sided",
            "--table",
            "t.tbl",
            "--json",
        ],
        &[
            "gammon",
            "met",
            "--variant",
            "hyper1",
            "--length",
            "2",
            "--match-tables",
            ".",
            "--json",
        ],
        &[
            "gammon",
            "build",
            "--variant",
            "hyper1",
            "--table",
            "t.tbl",
            "--json",
        ],
    ];
    for args in runs {
        let out: Vec<Vec<u8>> = (0..2)
            .map(|_| {
                let dir = tempfile::tempdir().unwrap();
                let out = tabula()
                    .current_dir(dir.path())
                    .args(*args)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{args:?}");
                out.stdout
            })
            .collect();
        assert_eq!(out[0], out[1], "{args:?}");
        assert!(
            !String::from_utf8_lossy(&out[0]).contains("seconds"),
            "{args:?}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let timed = tabula()
        .current_dir(dir.path())
        .args([
            "bearoff",
            "build",
            "--points",
            "3",
            "--table",
            "t.tbl",
            "--json",
            "--timings",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&timed.stdout).contains("\"seconds\""));
}
