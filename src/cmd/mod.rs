//! The command layer: one file per subcommand group. Each parses nothing itself (clap does),
//! calls the library, and prints through [`emit`] / [`emit_json`].

pub mod bearoff;
pub mod bingo;
pub mod fabfib;
pub mod gammon;
pub mod mastermind;
pub mod nikoniko;
pub mod numeron;
mod numeron_words;
pub mod optimum;
pub mod poker;
pub mod progress;
#[cfg(feature = "serve")]
pub mod serve;
pub mod table;
pub mod tables;

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use tabula::Result;

/// Prints `text` (a trailing newline is added) on stdout. A closed pipe (`| head`) comes
/// back as an error that `main` recognises and ends on quietly.
pub fn emit(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(text.as_bytes())
        .and_then(|()| {
            if text.ends_with('\n') {
                Ok(())
            } else {
                out.write_all(b"\n")
            }
        })
        .and_then(|()| out.flush());
    written.map_err(|e| tabula::Error::io("standard output", e))
}

/// Prints one JSON document on stdout (pretty, with a trailing newline).
pub fn emit_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| tabula::Error::io("writing JSON", std::io::Error::other(e)))?;
    emit(&text)
}

/// A value as a JSON document with its keys sorted (serde_json's maps are ordered by key),
/// so that a report's bytes do not depend on its fields' order.
pub fn sorted<T: serde::Serialize>(value: &T) -> Result<serde_json::Value> {
    serde_json::to_value(value)
        .map_err(|e| tabula::Error::io("a JSON document", std::io::Error::other(e)))
}

/// [`emit_json`] of the [`sorted`] document.
pub fn emit_sorted<T: serde::Serialize>(value: &T) -> Result<()> {
    emit_json(&sorted(value)?)
}

/// The exit status for an error (`docs/cli.md`): 2 for bad input, 1 for anything else.
/// The one place where a kind of failure becomes a number.
pub fn exit_code(e: &tabula::Error) -> u8 {
    match e.kind() {
        tabula::ErrorKind::Input => 2,
        tabula::ErrorKind::Table | tabula::ErrorKind::Io | tabula::ErrorKind::Failed => 1,
    }
}

/// The one way to stderr for diagnostics: a line that never panics (a closed or full
/// stderr loses it, nothing more). Callers leave it out under `--quiet`.
pub fn diag(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = err.write_all(b"\n");
    }
    let _ = err.flush();
}

/// Whether the command line asked for `--json`: then a failure is reported as one JSON
/// document on stderr (`docs/cli.md`), the exit status unchanged.
static JSON_ERRORS: AtomicBool = AtomicBool::new(false);

/// Reports failures as JSON from now on when `args` (the whole command line) hold
/// `--json` before any `--`.
pub fn json_errors_if_asked<I: IntoIterator<Item = std::ffi::OsString>>(args: I) {
    let asked = args
        .into_iter()
        .take_while(|a| a != "--")
        .any(|a| a == "--json");
    JSON_ERRORS.store(asked, Ordering::Relaxed);
}

/// The failure as the JSON document printed under `--json`: `error` (`kind`: input,
/// usage, table, io or failed; `message`; `exit_code`).
fn error_document(kind: &str, message: &str, code: u8) -> String {
    let doc = serde_json::json!({
        "error": { "kind": kind, "message": message, "exit_code": code }
    });
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| message.to_string())
}

/// Writes a failure's message on stderr: as text, or under `--json` as one JSON document.
fn report(kind: &str, message: &str, code: u8) {
    if JSON_ERRORS.load(Ordering::Relaxed) {
        let message = message.trim_end();
        let message = message.strip_prefix("tabula: ").unwrap_or(message);
        diag(&error_document(kind, message, code));
    } else {
        diag(message);
    }
}

/// Reports a failure on stderr and gives its exit status. Every error message leaves
/// here, so the excerpt rule is applied here too: no piece of the user's input is repeated
/// at length, whichever library message carries it.
pub fn fail(e: &tabula::Error) -> ExitCode {
    let code = exit_code(e);
    let kind = match e.kind() {
        tabula::ErrorKind::Input => "input",
        tabula::ErrorKind::Table => "table",
        tabula::ErrorKind::Io => "io",
        tabula::ErrorKind::Failed => "failed",
    };
    report(
        kind,
        &tabula::error::shorten_message(&format!("tabula: {e}")),
        code,
    );
    ExitCode::from(code)
}

/// What the argument parser says when it does not run a command: help and the version on
/// stdout (exit 0, or 1 when stdout cannot take them); a usage error on stderr, every
/// long piece of the user's input in it shortened by the excerpt rule (exit 2).
pub fn usage(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => match emit(&e.render().to_string()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        },
        _ => {
            report(
                "usage",
                &tabula::error::shorten_message(&parser_message(e)),
                2,
            );
            ExitCode::from(2)
        }
    }
}

/// The argument parser's message: whole on a terminal's stderr (with its usage line and
/// the advice to try `--help`); under `--json`, its first paragraph alone, the fault.
fn parser_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    if !JSON_ERRORS.load(Ordering::Relaxed) {
        return text;
    }
    let first = text.split("\n\n").next().unwrap_or(&text).trim();
    first.strip_prefix("error: ").unwrap_or(first).to_string()
}

/// Starts the thread pool every parallel pass runs on: one thread per core, or, where no
/// thread can be started (a process limit, no memory for a stack), the main thread alone.
pub fn threads() -> Result<()> {
    if rayon::ThreadPoolBuilder::new().build_global().is_ok() {
        return Ok(());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build_global()
        .map_err(|e| {
            tabula::Error::io(
                "the thread pool",
                std::io::Error::other(format!("no thread could be started: {e}")),
            )
        })
}
