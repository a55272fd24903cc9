//! Scratch folders for tables that tests of one process share (built once, read by many
//! tests): each is a folder inside the process's own, `tabula-tests-PID` in the system's
//! temporary folder, which is removed when the process exits. A `static` is never
//! dropped, so a `TempDir` kept in one, or one kept by `TempDir::keep`, would stay behind
//! after every run (a few hundred megabytes a run of the suite). The folders of a process
//! that was killed are removed by the next test process to start.
//!
//! Test code only, in one file for every test crate: the library's and the binary's unit
//! tests (`mod scratch` under `cfg(test)`) and the integration suite (by path).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The start of the name of each process's folder; the process id follows.
const PREFIX: &str = "tabula-tests-";

static PROCESS: OnceLock<PathBuf> = OnceLock::new();

/// A new, empty folder that lasts until this process exits.
pub fn folder() -> PathBuf {
    tempfile::Builder::new()
        .tempdir_in(process_folder())
        .expect("a scratch folder")
        .keep()
}

/// This process's folder, made on first use (and the folders of ended processes removed).
fn process_folder() -> &'static Path {
    PROCESS.get_or_init(|| {
        let root = std::env::temp_dir();
        remove_ended(&root);
        let dir = root.join(format!("{PREFIX}{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("the test process's scratch folder");
        // SAFETY: `remove` is a plain function that the C library calls once, at exit,
        // after the test harness has returned from `main` (or called `exit` on failure).
        unsafe { libc::atexit(remove) };
        dir
    })
}

/// Removes this process's folder (called at exit).
extern "C" fn remove() {
    if let Some(dir) = PROCESS.get() {
        // Nothing to do about a failure at exit: the next process removes what is left.
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Removes the folders of test processes that no longer run (killed before their exit):
/// where `/proc` says which processes run, else nothing.
fn remove_ended(root: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name.to_str().and_then(|n| n.strip_prefix(PREFIX));
        if let Some(pid) = pid.filter(|p| p.parse::<u32>().is_ok()) {
            if !proc.join(pid).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The folder of a process that has ended goes; a running process's, and any other
    // folder, stay.
    #[test]
    fn the_folders_of_ended_test_processes_are_removed() {
        let root = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let ended = child.id();
        child.wait().unwrap();
        let names = [
            format!("{PREFIX}{ended}"),
            format!("{PREFIX}{}", std::process::id()),
            format!("{PREFIX}x{ended}"),
            "other".to_string(),
        ];
        for name in &names {
            std::fs::create_dir_all(root.path().join(name).join("inside")).unwrap();
        }
        remove_ended(root.path());
        let left: Vec<bool> = names.iter().map(|n| root.path().join(n).exists()).collect();
        assert_eq!(left, [false, true, true, true]);
    }
}
