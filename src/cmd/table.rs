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
    #[command(after_help = "Example:\n  tabula table info tables/nikoniko.tbl --json")]
    Info {
        /// The table file
        path: PathBuf,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Check everything: header, size and payload checksum
    #[command(after_help = "Example:\n  tabula table verify tables/hyper2.tbl")]
    Verify {
        /// The table file
        path: PathBuf,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Compress a table with zstd for shipping
    #[command(after_help = "Example:\n  tabula table pack tables/hyper2.tbl hyper2.tbl.zst")]
    Pack {
        /// The table file
        path: PathBuf,
        /// The packed file to write
        output: PathBuf,
    },
    /// Decompress a packed table (it must verify)
    #[command(after_help = "Example:\n  tabula table unpack hyper2.tbl.zst tables/hyper2.tbl")]
    Unpack {
        /// The packed file
        path: PathBuf,
        /// The table file to write
        output: PathBuf,
    },
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
