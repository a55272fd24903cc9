//! The `tabula` command: parses, calls the library, prints. Nothing else lives here.

mod alloc;
mod cmd;

#[global_allocator]
static ALLOCATOR: alloc::HugePages = alloc::HugePages;

use clap::{Parser, Subcommand};
use std::io::Write;
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
    /// The backgammon family: NikoNiko, Hypergammon 1-3 and variants of your own, solved
    #[command(subcommand)]
    Gammon(cmd::gammon::GammonCmd),
    /// Bingo: the exact law of the calls until a card wins, simulation, several players
    #[command(subcommand)]
    Bingo(cmd::bingo::GameCmd),
    /// 大石泉すき poker: ranks, the comparator and its exhaustive verification
    #[command(subcommand)]
    Poker(cmd::poker::PokerCmd),
    /// Numeron (Bulls and Cows): strategies, exact analysis over every secret, play
    #[command(subcommand)]
    Numeron(cmd::numeron::GameCmd),
    /// Mastermind (4 pegs, 6 colours, black and white pegs): Numeron's engine in its words
    #[command(subcommand)]
    Mastermind(cmd::mastermind::MastermindCmd),
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
        Command::Gammon(c) => cmd::gammon::run(c),
        Command::Poker(c) => cmd::poker::run(c),
        Command::Fabfib(c) => cmd::fabfib::run(c),
        Command::Bingo(c) => cmd::bingo::run(c),
        Command::Numeron(c) => cmd::numeron::run(c),
        Command::Mastermind(c) => cmd::mastermind::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`| head`) is not a failure.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            // Nothing more can be done if even stderr is closed or full.
            let _ = writeln!(std::io::stderr(), "tabula: {e}");
            ExitCode::from(cmd::exit_code(&e))
        }
    }
}
