//! Table faults through the CLI: each is refused with exit status 1 and its own message.

use crate::common::tabula;

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

#[cfg(unix)]
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[test]
fn a_named_pipe_a_folder_and_dev_null_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.tbl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for (path, what) in [
        (fifo.as_path(), "is a named pipe, not a regular file"),
        (dir.path(), "is a folder, not a regular file"),
        (
            Path::new("/dev/null"),
            "is a character device, not a regular file",
        ),
    ] {
        for cmd in ["info", "verify", "pack"] {
            let mut c = tabula();
            c.args(["table", cmd]).arg(path);
            if cmd == "pack" {
                c.arg(dir.path().join("out.zst"));
            }
            c.timeout(std::time::Duration::from_secs(10))
                .assert()
                .code(1)
                .stderr(contains(what));
        }
    }
}

#[test]
fn a_table_of_format_version_1_is_refused_with_advice_to_rebuild() {
    use sha2::{Digest, Sha256};
    // Version 1's header: no block sums, sealed with its own header checksum.
    let mut h = vec![0u8; 256];
    h[..8].copy_from_slice(b"TABULA\x1a\n");
    h[8..12].copy_from_slice(&1u32.to_le_bytes());
    h[12..16].copy_from_slice(&2u32.to_le_bytes());
    h[16..24].copy_from_slice(&2u64.to_le_bytes());
    h[24..39].copy_from_slice(b"nikoniko-equity");
    let sum = Sha256::digest(&h[..248]);
    h[248..].copy_from_slice(&sum[..8]);
    h.extend_from_slice(&[0, 0, 1, 0]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.tbl");
    std::fs::write(&path, h).unwrap();
    tabula()
        .args(["table", "info"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(contains(
            "has table format version 1; this build reads version 2",
        ));
    tabula()
        .args(["nikoniko", "equity", "0", "--table"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(contains("rebuild it (run `tabula nikoniko build --table"));
}

#[test]
fn unpack_into_a_missing_folder_names_that_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = good_table(dir.path());
    let packed = dir.path().join("good.tbl.zst");
    tabula()
        .args(["table", "pack"])
        .arg(&path)
        .arg(&packed)
        .assert()
        .success();
    let missing = dir.path().join("no-such-folder");
    let out = tabula()
        .args(["table", "unpack"])
        .arg(&packed)
        .arg(missing.join("good.tbl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "cannot write {}: its folder {} does not exist",
            missing.join("good.tbl").display(),
            missing.display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("not found"), "{stderr}");
}

#[test]
fn an_error_quotes_a_very_long_path_only_in_part() {
    let long = "t".repeat(100_000);
    let out = tabula().args(["table", "info", &long]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.len() < 400, "{} bytes: {stderr:.200}", stderr.len());
    assert!(stderr.contains("… (100000 characters)"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_written_table_has_the_mode_the_umask_allows() {
    let dir = tempfile::tempdir().unwrap();
    let path = good_table(dir.path());
    for (umask, mode) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let packed = dir.path().join(format!("{umask}.zst"));
        let out = crate::common::tabula_with_umask(
            umask,
            &[
                "table".as_ref(),
                "pack".as_ref(),
                path.as_ref(),
                packed.as_ref(),
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(mode_of(&packed), mode, "umask {umask}");
    }
}

/// A copy of the built pair in a fresh folder, with `edit` applied to the bytes of
/// the file with extension `ext` (`tbl` or `outcomes`).
fn nikoniko_copy(dir: &Path, ext: &str, mut edit: impl FnMut(&mut Vec<u8>)) -> PathBuf {
    let (_, table, _, _) = crate::common::nikoniko_built();
    let copy = dir.join("nikoniko.tbl");
    for e in ["tbl", "outcomes"] {
        let mut bytes = std::fs::read(table.with_extension(e)).unwrap();
        if e == ext {
            edit(&mut bytes);
        }
        std::fs::write(copy.with_extension(e), bytes).unwrap();
    }
    copy
}

const STATE: u64 = 553_472;

#[test]
fn a_build_removes_the_temporaries_of_a_killed_build_and_keeps_a_running_ones() {
    let (dir, _, killed, running) = crate::common::nikoniko_built();
    assert!(!killed.exists());
    assert!(running.exists());
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let running_name = running.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        names,
        [running_name.as_str(), "nikoniko.outcomes", "nikoniko.tbl"]
    );
}

#[cfg(unix)]
#[test]
fn built_tables_have_the_mode_the_umask_allows() {
    let (_, table, _, _) = crate::common::nikoniko_built();
    assert_eq!(mode_of(table), 0o644);
    assert_eq!(mode_of(&table.with_extension("outcomes")), 0o644);
}

#[test]
fn a_sound_nikoniko_table_answers() {
    let (_, table, _, _) = crate::common::nikoniko_built();
    tabula()
        .args(["nikoniko", "equity", &STATE.to_string(), "--table"])
        .arg(table)
        .assert()
        .success()
        .stdout(contains("equity   +0.0474"));
}

#[test]
fn a_flipped_byte_in_the_equity_table_is_reported_as_corruption_by_the_query() {
    let dir = tempfile::tempdir().unwrap();
    // The high byte of the state's own record: read as a value, it would change the
    // equity by more than 1.6.
    let copy = nikoniko_copy(dir.path(), "tbl", |b| {
        b[table::HEADER_LEN + 2 * STATE as usize + 1] ^= 0x40
    });
    for args in [
        vec!["nikoniko", "equity", "553472"],
        vec!["nikoniko", "equity", "553472", "--json"],
    ] {
        tabula()
            .args(&args)
            .arg("--table")
            .arg(&copy)
            .assert()
            .code(1)
            .stdout("")
            .stderr(contains("nikoniko.tbl is corrupt"))
            .stderr(contains("run `tabula nikoniko build --table"));
    }
}

#[test]
fn a_flipped_byte_in_the_outcome_table_is_reported_as_corruption_by_the_query() {
    let dir = tempfile::tempdir().unwrap();
    let copy = nikoniko_copy(dir.path(), "outcomes", |b| {
        b[table::HEADER_LEN + 12 * STATE as usize + 4] ^= 0x01
    });
    tabula()
        .args(["nikoniko", "equity", "553472", "--table"])
        .arg(&copy)
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains("nikoniko.outcomes is corrupt"));
}

#[test]
fn a_flipped_byte_far_from_the_query_does_not_stop_it() {
    let dir = tempfile::tempdir().unwrap();
    let copy = nikoniko_copy(dir.path(), "tbl", |b| b[table::HEADER_LEN + 5] ^= 0x40);
    tabula()
        .args(["nikoniko", "equity", "553472", "--table"])
        .arg(&copy)
        .assert()
        .success()
        .stdout(contains("equity   +0.0474"));
    tabula()
        .args(["table", "verify"])
        .arg(&copy)
        .assert()
        .code(1)
        .stderr(contains("is corrupt"));
}

#[test]
fn a_game_goes_on_when_its_tables_are_truncated_under_it() {
    use std::io::{BufRead, Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let copy = nikoniko_copy(dir.path(), "", |_| {});
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tabula"))
        .args(["nikoniko", "play", "--second", "--seed", "3", "--table"])
        .arg(&copy)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the table has made its first move: the tables are open.
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("O rolls") {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "no move: {seen}");
        seen.push_str(&line);
    }
    for e in ["tbl", "outcomes"] {
        std::fs::OpenOptions::new()
            .write(true)
            .open(copy.with_extension(e))
            .unwrap()
            .set_len(0)
            .unwrap();
    }
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all("1\n".repeat(500).as_bytes()).unwrap();
    drop(stdin);
    out.read_to_string(&mut seen).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}\n{seen}");
    assert!(
        seen.contains("You win") || seen.contains("O wins"),
        "{seen}"
    );
}

#[test]
fn a_build_into_a_folder_it_cannot_create_fails_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    let started = std::time::Instant::now();
    tabula()
        .args(["nikoniko", "build", "--quiet", "--table"])
        .arg(file.join("nikoniko.tbl"))
        .assert()
        .code(1)
        .stderr(contains("cannot write"));
    // A solve takes seconds; the check takes milliseconds.
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}

#[cfg(unix)]
#[test]
fn a_build_into_a_read_only_folder_fails_before_solving() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root writes anywhere: then there is no read-only folder to test with.
    if std::fs::write(ro.join("probe"), b"").is_ok() {
        return;
    }
    let started = std::time::Instant::now();
    tabula()
        .args(["nikoniko", "build", "--quiet", "--table"])
        .arg(ro.join("nikoniko.tbl"))
        .assert()
        .code(1)
        .stderr(contains("cannot write"));
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
}

#[test]
fn every_kind_of_query_refuses_a_table_damaged_in_every_block() {
    let dir = tempfile::tempdir().unwrap();
    let copy = nikoniko_copy(dir.path(), "tbl", |b| {
        let payload = b.len() - table::HEADER_LEN - 8 * 136;
        for at in (0..payload).step_by(table::BLOCK_SIZE as usize) {
            b[table::HEADER_LEN + at] ^= 0x40;
        }
    });
    for args in [
        vec!["nikoniko", "equity", "8,8,5,2,2/8,8,5,2,2"],
        vec!["nikoniko", "hint", "8,8,5,2,2/8,8,5,2,2", "1-2"],
        vec!["nikoniko", "play", "--second"],
    ] {
        tabula()
            .args(&args)
            .arg("--table")
            .arg(&copy)
            .write_stdin("1\n".repeat(50))
            .assert()
            .code(1)
            .stderr(contains("nikoniko.tbl is corrupt"))
            .stderr(contains("run `tabula nikoniko build --table"));
    }
}
