//! Table faults through the CLI: each is refused with exit status 1 and its own message.

mod common;
use common::tabula;

use predicates::str::contains;
use std::path::{Path, PathBuf};
use tabula::table::{self, Descriptor};

fn good_table(dir: &Path) -> PathBuf {
    let path = dir.join("good.tbl");
    let records: Vec<u32> = (0..4096).map(|i| i * 7 + 1).collect();
    table::write(
        &path,
        Descriptor {
            kind: "test-kind",
            layout: "u32",
            variant: "a test table",
        },
        &records,
    )
    .unwrap();
    path
}

fn variant_of(dir: &Path, name: &str, edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let mut bytes = std::fs::read(good_table(dir)).unwrap();
    edit(&mut bytes);
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_sound_table_verifies_and_reports_its_kind_and_records() {
    let dir = tempfile::tempdir().unwrap();
    let path = good_table(dir.path());
    tabula()
        .args(["table", "verify"])
        .arg(&path)
        .assert()
        .success()
        .stdout(contains("ok (test-kind table, 4096 records"));
    let out = tabula()
        .args(["table", "info", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "test-kind");
    assert_eq!(v["records"], 4096);
}

#[test]
fn a_garbage_file_is_not_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbage.tbl");
    std::fs::write(&path, b"these bytes are not a table at all").unwrap();
    for cmd in ["info", "verify"] {
        tabula()
            .args(["table", cmd])
            .arg(&path)
            .assert()
            .code(1)
            .stderr(contains("is not a tabula table"));
    }
}

#[test]
fn a_flipped_payload_byte_fails_the_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let path = variant_of(dir.path(), "flipped.tbl", |b| {
        b[table::HEADER_LEN + 100] ^= 0x10
    });
    tabula()
        .args(["table", "verify"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(contains("is corrupt: payload checksum"));
}

#[test]
fn a_truncated_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = variant_of(dir.path(), "short.tbl", |b| b.truncate(b.len() - 3));
    tabula()
        .args(["table", "info"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(contains("is truncated"));
}

#[test]
fn a_flipped_header_byte_is_a_corrupt_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = variant_of(dir.path(), "header.tbl", |b| b[30] ^= 1);
    tabula()
        .args(["table", "verify"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(contains("corrupt header"));
}

#[test]
fn a_table_of_another_kind_is_refused_by_a_game_command() {
    let dir = tempfile::tempdir().unwrap();
    let path = good_table(dir.path());
    tabula()
        .args(["nikoniko", "equity", "1/1", "--table"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(contains(
            "is a `test-kind` table, expected a `nikoniko-equity` table",
        ));
}

#[test]
fn a_missing_file_says_so() {
    tabula()
        .args(["table", "verify", "/no/such/file.tbl"])
        .assert()
        .code(1)
        .stderr(contains("not found"));
}

#[test]
fn pack_and_unpack_round_trip_and_refuse_a_non_packed_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = good_table(dir.path());
    let packed = dir.path().join("good.tbl.zst");
    let back = dir.path().join("back.tbl");
    tabula()
        .args(["table", "pack"])
        .arg(&path)
        .arg(&packed)
        .assert()
        .success();
    tabula()
        .args(["table", "unpack"])
        .arg(&packed)
        .arg(&back)
        .assert()
        .success();
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&back).unwrap());
    tabula()
        .args(["table", "unpack"])
        .arg(&path)
        .arg(dir.path().join("x.tbl"))
        .assert()
        .code(1)
        .stderr(contains("not a packed table"));
}

#[test]
fn a_wrong_flag_is_a_usage_error() {
    tabula()
        .args(["table", "info", "--frobnicate"])
        .assert()
        .code(2);
    tabula().args(["no-such-command"]).assert().code(2);
}
