//! `tabula numeron` fed odd input: huge budgets, replies with their letters swapped, endless
//! or non-text stdin, a reader that closes the pipe. Each ends with a message and an exit
//! status, never a panic.

use crate::common::{json, tabula};

use predicates::prelude::*;

#[test]
fn the_largest_budget_is_no_limit_and_the_optimum_is_proved() {
    // Two distinct digits: 90 codes; the first guess splits off classes of sizes that the
    // brute-force tests in numeron_exact check; here only the budget's overflow matters.
    let budget = u64::MAX.to_string();
    let o = json(&[
        "numeron", "optimum", "--digits", "2", "--budget", &budget, "--json",
    ]);
    let unlimited = json(&["numeron", "optimum", "--digits", "2", "--json"]);
    assert_eq!(o["exact"], true);
    assert_eq!(o["lower"], unlimited["lower"]);
    // And it agrees with the whole-tree exact strategy.
    let a = json(&[
        "numeron",
        "analyze",
        "--digits",
        "2",
        "--strategy",
        "optimal",
        "--json",
    ]);
    assert_eq!(o["lower"], a["total"]);
}

#[test]
fn solve_reads_the_letters_of_a_reply_not_just_its_numbers() {
    // 012 against a secret that shares one digit out of place: 1B0E is 0 EAT 1 BITE.
    let run = |reply: &str| {
        let out = tabula()
            .args(["numeron", "solve", "--strategy", "first"])
            .write_stdin(format!("{reply}\nq\n"))
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let swapped = run("1B0E");
    assert_eq!(swapped, run("0 1"));
    assert_ne!(swapped, run("1 0"));
    assert_eq!(run("0B1E"), run("1E0B"));
    assert!(run("-1 0").contains("refused: \"-1 0\" is not an answer"));
}

#[test]
fn an_endless_line_on_stdin_is_refused_as_bad_input_naming_stdin() {
    tabula()
        .args(["numeron", "solve", "--strategy", "first"])
        .write_stdin(vec![0u8; 8 << 20])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "standard input: line 1 is longer than 4096 bytes",
        ))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn stdin_that_is_not_utf8_is_refused_naming_stdin_and_the_line() {
    for cmd in ["solve", "play"] {
        tabula()
            .args(["numeron", cmd])
            .write_stdin(&b"\n\xc3\x28\n"[..])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "standard input: line 2 is not UTF-8 text",
            ));
    }
}

#[test]
fn a_tree_is_written_whole_to_a_file_and_a_device_as_its_target_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tree.txt");
    tabula()
        .args([
            "numeron",
            "analyze",
            "--digits",
            "2",
            "--strategy",
            "first",
            "--tree",
        ])
        .arg(&path)
        .assert()
        .success();
    let text = std::fs::read_to_string(&path).unwrap();
    // One line per node; the root is the first guess over all 90 two-digit candidates.
    assert!(text.starts_with("01 (90)"), "{text}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary left"
    );
    tabula()
        .args([
            "numeron",
            "analyze",
            "--digits",
            "2",
            "--tree",
            "/dev/stdout",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not a regular file"));
}
