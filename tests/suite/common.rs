//! Helpers shared by the command-line tests.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

/// The `tabula` binary built for the tests.
pub fn tabula() -> Command {
    Command::cargo_bin("tabula").unwrap()
}

/// Runs `tabula ARGS`, which must succeed, and parses its stdout as one JSON document.
pub fn json(args: &[&str]) -> Value {
    json_of(tabula().args(args))
}

/// Runs `command`, which must succeed; its output.
pub fn succeed(command: &mut Command) -> std::process::Output {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `tabula GAME ARGS`, which must be refused as bad input: exit 2, a message that
/// names `fault`, no panic.
pub fn refused(game: &str, args: &[&str], fault: &str) {
    use predicates::prelude::*;
    tabula()
        .arg(game)
        .args(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(fault))
        .stderr(predicate::str::contains("panicked").not());
}

/// Runs `command`, which must succeed, and parses its stdout as one JSON document.
pub fn json_of(command: &mut Command) -> Value {
    let out = succeed(command);
    serde_json::from_slice(&out.stdout).expect("stdout is exactly one JSON document")
}

/// A memo of build reports by name, for [`built_once`].
pub type Built = std::sync::OnceLock<std::sync::Mutex<Vec<(&'static str, &'static Value)>>>;

/// The report `build` gives for `name`, built once for the whole suite (under the memo's
/// lock, so a second caller waits for the first build) and kept.
pub fn built_once(
    memo: &'static Built,
    name: &'static str,
    build: impl FnOnce() -> Value,
) -> &'static Value {
    let mut list = memo.get_or_init(Default::default).lock().unwrap();
    if let Some((_, v)) = list.iter().find(|(n, _)| *n == name) {
        return v;
    }
    let v: &'static Value = Box::leak(Box::new(build()));
    list.push((name, v));
    v
}

/// The checksum `tables/MANIFEST` gives the table file `name`.
pub fn manifest(name: &str) -> String {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/MANIFEST")).unwrap();
    text.lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .and_then(|l| l.split_whitespace().last())
        .unwrap_or_else(|| panic!("{name} is not in the manifest"))
        .to_string()
}

/// Builds Hypergammon-1's table with the cube into `table` by the command line.
pub fn build_hyper1(table: &std::path::Path) {
    tabula()
        .args([
            "gammon",
            "build",
            "--variant",
            "hyper1",
            "--quiet",
            "--table",
        ])
        .arg(table)
        .assert()
        .success();
}

/// Exports `table` as gnubg's file `bd` by the command line.
pub fn export_gnubg(table: &std::path::Path, bd: &std::path::Path) {
    tabula()
        .args(["gammon", "export", "--table"])
        .arg(table)
        .arg("--gnubg")
        .arg(bd)
        .assert()
        .success();
}

/// A Hypergammon-1 table with its cube in `dir`, and its gnubg export.
pub fn hyper1_with_gnubg(dir: &std::path::Path) -> (PathBuf, PathBuf) {
    let table = dir.join("hyper1.tbl");
    build_hyper1(&table);
    let bd = dir.join("hyper1.bd");
    export_gnubg(&table, &bd);
    (table, bd)
}

/// NikoNiko's tables, built once for the whole suite by the command line (umask 022) into a folder that held the
/// temporary files of a killed build (a dead PID) and of a running one (this process).
/// Returns the folder, the equity table and the two temporary files.
pub fn nikoniko_built() -> &'static (PathBuf, PathBuf, PathBuf, PathBuf) {
    &nikoniko_build().files
}

/// The one NikoNiko build of the suite: its files (see [`nikoniko_built`]) and the
/// report the build printed with `--json`.
pub struct Build {
    pub files: (PathBuf, PathBuf, PathBuf, PathBuf),
    pub report: Value,
}

/// The one NikoNiko build of the suite (see [`nikoniko_built`]).
pub fn nikoniko_build() -> &'static Build {
    static BUILT: std::sync::OnceLock<Build> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = crate::scratch::folder();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let killed = dir.join(format!(".nikoniko.tbl.{dead}.Xy12Ab.tmp"));
        let running = dir.join(format!(
            ".nikoniko.outcomes.{}.Zz98Qq.tmp",
            std::process::id()
        ));
        std::fs::write(&killed, vec![7u8; 1000]).unwrap();
        std::fs::write(&running, vec![7u8; 1000]).unwrap();
        let table = dir.join("nikoniko.tbl");
        let args: [&std::ffi::OsStr; 6] = [
            "nikoniko".as_ref(),
            "build".as_ref(),
            "--quiet".as_ref(),
            "--json".as_ref(),
            "--table".as_ref(),
            table.as_ref(),
        ];
        #[cfg(unix)]
        let out = tabula_with_umask("022", &args);
        #[cfg(not(unix))]
        let out = tabula().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Build {
            files: (dir, table, killed, running),
            report: serde_json::from_slice(&out.stdout).expect("the build's JSON report"),
        }
    })
}

/// `tabula ARGS` run under the given umask.
#[cfg(unix)]
pub fn tabula_with_umask(umask: &str, args: &[&std::ffi::OsStr]) -> std::process::Output {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(assert_cmd::cargo::cargo_bin("tabula"))
        .args(args);
    cmd.output().unwrap()
}

/// NikoNiko through the family's engine: its rules, notation and index.
pub mod niko {
    use tabula::gammon::{notation as text, Error, Position, Roll, SeedIndex, Variant};

    /// The variant.
    pub fn variant() -> Variant {
        tabula::nikoniko::variant()
    }

    /// The article's index.
    pub fn index() -> SeedIndex {
        tabula::nikoniko::index()
    }

    /// A position in NikoNiko's notation (or an index).
    pub fn parse_position(t: &str) -> Result<Position, Error> {
        text::parse_position(&variant(), t)
    }

    /// A roll `a-b` of dice 0-2.
    pub fn parse_roll(t: &str) -> Result<Roll, Error> {
        text::parse_roll(&variant(), t)
    }

    /// A position's notation.
    pub fn notation(p: &Position) -> String {
        text::notation(&variant(), p)
    }
}
