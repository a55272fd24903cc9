//! The `tabula` command: parses, calls the library, prints. Nothing else lives here.

mod cmd;

#[global_allocator]
static ALLOCATOR: tabula::alloc::HugePages = tabula::alloc::HugePages;

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
    /// NikoNiko Gammon: backgammon at one third size, solved exactly
    #[command(subcommand)]
    Nikoniko(cmd::nikoniko::NikonikoCmd),
    /// Bingo: the exact law of the calls until a card wins, simulation, several players
    #[command(subcommand)]
    Bingo(cmd::bingo::GameCmd),
    /// 大石泉すき poker: ranks, the comparator and its exhaustive verification
    #[command(subcommand)]
    Poker(cmd::poker::PokerCmd),
    /// Numeron (Bulls and Cows): strategies, exact analysis over every secret, play
    #[command(subcommand)]
    Numeron(cmd::numeron::GameCmd),
    /// Fabfib: exact odds, a parallel simulator of whole games, replays
    #[command(subcommand)]
    Fabfib(cmd::fabfib::GameCmd),
    /// Inspect, verify, pack and unpack table files
    #[command(subcommand)]
    Table(cmd::table::TableCmd),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Table(c) => cmd::table::run(c),
        Command::Nikoniko(c) => cmd::nikoniko::run(c),
        Command::Poker(c) => cmd::poker::run(c),
        Command::Fabfib(c) => cmd::fabfib::run(c),
        Command::Bingo(c) => cmd::bingo::run(c),
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
