//! The `tabula` command: parses, calls the library, prints. Nothing else lives here.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tabula",
    version,
    about = "Exact analysis of small games, kept in memory-mapped tables"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Inspect, verify, pack and unpack table files
    #[command(subcommand)]
    Table(cmd::table::TableCmd),
    /// Numeron (Bulls and Cows): strategies, exact analysis over every secret, play
    #[command(subcommand)]
    Numeron(cmd::numeron::GameCmd),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Table(c) => cmd::table::run(c),
        Command::Numeron(c) => cmd::numeron::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tabula: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
