//! The command layer: one file per subcommand group. Each parses nothing itself (clap does),
//! calls the library, and prints through [`emit`] / [`emit_json`].

pub mod bearoff;
pub mod bingo;
pub mod fabfib;
pub mod gammon;
pub mod nikoniko;
pub mod numeron;
pub mod poker;
pub mod progress;
pub mod table;
pub mod tables;

use std::io::Write;
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

/// The exit status for an error (`docs/cli.md`): 2 for bad input, 1 for anything else.
/// The one place where a kind of failure becomes a number.
pub fn exit_code(e: &tabula::Error) -> u8 {
    match e.kind() {
        tabula::ErrorKind::Input => 2,
        tabula::ErrorKind::Table | tabula::ErrorKind::Io | tabula::ErrorKind::Failed => 1,
    }
}
