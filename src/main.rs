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
    /// Bear-off databases of real backgammon: one-sided and two-sided with the cube, exact
    #[command(subcommand)]
    Bearoff(cmd::bearoff::BearoffCmd),
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
        Command::Gammon(c) => cmd::gammon::run(c),
        Command::Bearoff(c) => cmd::bearoff::run(c),
        Command::Poker(c) => cmd::poker::run(c),
        Command::Fabfib(c) => cmd::fabfib::run(c),
        Command::Bingo(c) => cmd::bingo::run(c),
        Command::Numeron(c) => cmd::numeron::run(c),
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

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every subcommand, by its path from `tabula`.
    fn leaves(cmd: &clap::Command, path: String, out: &mut Vec<(String, clap::Command)>) {
        let mut any = false;
        for sub in cmd.get_subcommands() {
            any = true;
            leaves(sub, format!("{path} {}", sub.get_name()), out);
        }
        if !any {
            out.push((path, cmd.clone()));
        }
    }

    #[test]
    fn every_subcommand_has_an_example_and_every_argument_a_description() {
        let mut all = Vec::new();
        leaves(&Cli::command(), "tabula".to_string(), &mut all);
        let mut faults = Vec::new();
        for (path, cmd) in &all {
            if cmd.get_about().is_none() {
                faults.push(format!("{path}: no description"));
            }
            let example = cmd.get_after_help().map(|h| h.to_string());
            if !example
                .as_ref()
                .is_some_and(|h| h.contains("Example") && h.contains("tabula "))
            {
                faults.push(format!("{path}: no example in its help"));
            }
            // Each example is a command line this program takes.
            for line in example.iter().flat_map(|h| h.lines()) {
                let words: Vec<&str> = line.split_whitespace().collect();
                if words.first() == Some(&"tabula") {
                    if let Err(e) = <Cli as clap::Parser>::try_parse_from(&words) {
                        faults.push(format!("{path}: its example `{line}` is refused: {e}"));
                    }
                }
            }
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                match arg.get_help() {
                    Some(h) if !h.to_string().trim().is_empty() => {}
                    _ => faults.push(format!("{path}: argument {id} has no description")),
                }
            }
        }
        assert!(all.len() > 40, "{} subcommands", all.len());
        assert!(
            faults.is_empty(),
            "{} faults:\n{}",
            faults.len(),
            faults.join("\n")
        );
    }
}
