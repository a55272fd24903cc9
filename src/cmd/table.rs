//! `tabula table info|verify|pack|unpack`.

use super::{emit, emit_json};
use clap::Subcommand;
use serde_json::json;
use std::path::PathBuf;
use tabula::table::{self, Table};
use tabula::Result;

#[derive(Subcommand)]
pub enum TableCmd {
    /// Print a table's header (cheap checks only)
    Info {
        path: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Check everything: header, size and payload checksum
    Verify {
        path: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Compress a table with zstd for shipping
    Pack { path: PathBuf, output: PathBuf },
    /// Decompress a packed table (it must verify)
    Unpack { path: PathBuf, output: PathBuf },
}

pub fn run(cmd: TableCmd) -> Result<()> {
    match cmd {
        TableCmd::Info { path, json } => {
            let t = Table::open(&path)?;
            let h = t.header();
            if json {
                emit_json(&json!({
                    "path": path,
                    "kind": h.kind,
                    "version": h.version,
                    "variant": h.variant,
                    "layout": h.layout,
                    "record_size": h.record_size,
                    "records": h.record_count,
                    "checksum": h.checksum_hex(),
                }))
            } else {
                emit(&format!("path      {}\n{h}", path.display()))
            }
        }
        TableCmd::Verify { path, json } => {
            let t = Table::open(&path)?;
            t.verify()?;
            let h = t.header();
            if json {
                emit_json(&json!({
                    "path": path, "kind": h.kind, "records": h.record_count,
                    "checksum": h.checksum_hex(), "ok": true,
                }))
            } else {
                emit(&format!(
                    "{}: ok ({} table, {} records, sha256:{})",
                    path.display(),
                    h.kind,
                    h.record_count,
                    h.checksum_hex()
                ))
            }
        }
        TableCmd::Pack { path, output } => {
            table::pack(&path, &output)?;
            emit(&format!(
                "packed {} into {}",
                path.display(),
                output.display()
            ))
        }
        TableCmd::Unpack { path, output } => {
            table::unpack(&path, &output)?;
            emit(&format!(
                "unpacked {} into {}",
                path.display(),
                output.display()
            ))
        }
    }
}
