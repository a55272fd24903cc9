//! Helpers shared by the command-line tests.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;

/// The `tabula` binary built for the tests.
pub fn tabula() -> Command {
    Command::cargo_bin("tabula").unwrap()
}

/// Runs `tabula ARGS`, which must succeed, and parses its stdout as one JSON document.
pub fn json(args: &[&str]) -> Value {
    let out = tabula().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is exactly one JSON document")
}
