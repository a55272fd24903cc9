//! The `tabula` command: parses, calls the library, prints. Nothing else lives here.

mod alloc;
mod cmd;
#[cfg(test)]
mod scratch;

#[global_allocator]
static ALLOCATOR: alloc::HugePages = alloc::HugePages;

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
    /// Mastermind (4 pegs, 6 colours, black and white pegs): Numeron's engine in its words
    #[command(subcommand)]
    Mastermind(cmd::mastermind::MastermindCmd),
    /// Fabfib: exact odds, a parallel simulator of whole games, replays
    #[command(subcommand)]
    Fabfib(cmd::fabfib::GameCmd),
    /// Inspect, verify, pack and unpack table files
    #[command(subcommand)]
    Table(cmd::table::TableCmd),
    /// Serve the board in a browser and the tables' answers over HTTP (JSON)
    #[cfg(feature = "serve")]
    #[command(
        after_help = "Example:\n  tabula serve --addr 127.0.0.1:7878\n\nThen open http://127.0.0.1:7878/ in a browser."
    )]
    Serve(cmd::serve::ServeArgs),
}

fn main() -> ExitCode {
    cmd::json_errors_if_asked(std::env::args_os());
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return cmd::usage(&e),
    };
    if let Err(e) = cmd::threads() {
        return cmd::fail(&e);
    }
    let result = match cli.command {
        Command::Table(c) => cmd::table::run(c),
        Command::Nikoniko(c) => cmd::nikoniko::run(c),
        Command::Gammon(c) => cmd::gammon::run(c),
        Command::Bearoff(c) => cmd::bearoff::run(c),
        Command::Poker(c) => cmd::poker::run(c),
        Command::Fabfib(c) => cmd::fabfib::run(c),
        Command::Bingo(c) => cmd::bingo::run(c),
        Command::Numeron(c) => cmd::numeron::run(c),
        Command::Mastermind(c) => cmd::mastermind::run(c),
        #[cfg(feature = "serve")]
        Command::Serve(c) => cmd::serve::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`| head`) is not a failure.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => cmd::fail(&e),
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

    /// README.md and every docs/*.md, each with its name.
    fn doc_pages() -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths = vec![root.join("README.md")];
        let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
            .expect("docs/")
            .map(|e| e.expect("a docs/ entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        docs.sort();
        paths.extend(docs);
        paths
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).expect("a readable page");
                let name = p.strip_prefix(root).unwrap_or(&p).display().to_string();
                (name, text)
            })
            .collect()
    }

    /// The command lines of a page's code blocks, with their line numbers. In a block that
    /// shows a session (`$ ` prompts), the prompted lines (the rest is output); in a block
    /// without prompts, every line.
    fn code_lines(text: &str) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        let mut block: Option<Vec<(usize, &str)>> = None;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                match block.take() {
                    None => block = Some(Vec::new()),
                    Some(lines) => {
                        let prompted = lines.iter().any(|(_, l)| l.starts_with("$ "));
                        for (n, l) in lines {
                            match l.strip_prefix("$ ") {
                                Some(command) => out.push((n, command.to_string())),
                                None if !prompted => out.push((n, l.to_string())),
                                None => {}
                            }
                        }
                    }
                }
            } else if let Some(lines) = block.as_mut() {
                lines.push((n + 1, line));
            }
        }
        out
    }

    /// A command line cut into shell words and operators, and its comment (after a `#`
    /// that starts a word). Quotes (`'…'`, `"…"`) and backslashes keep what they hold in one
    /// word; a file descriptor before a redirection (`2>`) goes with the operator.
    fn shell_split(line: &str) -> (Vec<(bool, String)>, String) {
        let mut tokens: Vec<(bool, String)> = Vec::new(); // (is an operator, text)
        let mut word: Option<String> = None;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                c if c.is_whitespace() => tokens.extend(word.take().map(|w| (false, w))),
                '#' if word.is_none() => return (tokens, chars.collect()),
                '\'' | '"' => {
                    let w = word.get_or_insert_with(String::new);
                    for q in chars.by_ref() {
                        if q == c {
                            break;
                        }
                        w.push(q);
                    }
                }
                '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
                '|' | '&' | ';' | '<' | '>' => {
                    let mut op = match word.take() {
                        Some(w)
                            if (c == '<' || c == '>') && w.bytes().all(|b| b.is_ascii_digit()) =>
                        {
                            w
                        }
                        w => {
                            tokens.extend(w.map(|w| (false, w)));
                            String::new()
                        }
                    };
                    op.push(c);
                    while let Some(&n) = chars.peek().filter(|n| "|&;<>".contains(**n)) {
                        op.push(n);
                        chars.next();
                    }
                    tokens.push((true, op));
                }
                c => word.get_or_insert_with(String::new).push(c),
            }
        }
        tokens.extend(word.map(|w| (false, w)));
        (tokens, String::new())
    }

    /// The `tabula` commands of a shell line: each part of a pipe or a chain (`|`, `&&`,
    /// `||`, `;`) that runs `tabula` (or `cargo run --release --`, which runs it), without
    /// its redirections, as the words `tabula` receives.
    fn tabula_commands(tokens: &[(bool, String)]) -> Vec<Vec<String>> {
        let mut commands = Vec::new();
        let mut words: Vec<String> = Vec::new();
        let mut tokens = tokens.iter();
        loop {
            let token = tokens.next();
            match token {
                Some((true, op)) if op.contains('<') || op.contains('>') => {
                    tokens.next(); // the redirection's file
                }
                Some((false, w)) => words.push(w.clone()),
                _ => {
                    let runs = ["cargo", "run", "--release", "--"];
                    if words.first().is_some_and(|w| w == "tabula") {
                        commands.push(std::mem::take(&mut words));
                    } else if words.len() >= runs.len() && words[..runs.len()] == runs {
                        let mut w = vec!["tabula".to_string()];
                        w.extend(words.drain(..).skip(runs.len()));
                        commands.push(w);
                    }
                    words.clear();
                    if token.is_none() {
                        return commands;
                    }
                }
            }
        }
    }

    #[test]
    fn documented_lines_are_cut_as_a_shell_cuts_them() {
        let line = "tabula poker judge 'す泉 きす' \"a b\" 2>/dev/null | head -3 && \
                    tabula table info x>out; cargo run --release -- nikoniko build < in # note";
        let (tokens, comment) = shell_split(line);
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            tabula_commands(&tokens),
            vec![
                words(&["tabula", "poker", "judge", "す泉 きす", "a b"]),
                words(&["tabula", "table", "info", "x"]),
                words(&["tabula", "nikoniko", "build"]),
            ]
        );
        assert_eq!(comment.trim(), "note");
        let (tokens, _) = shell_split("tabula bingo exact --json | jq -c '.distribution[4]'");
        assert_eq!(
            tabula_commands(&tokens),
            vec![words(&["tabula", "bingo", "exact", "--json"])]
        );
    }

    #[test]
    fn every_documented_command_line_is_one_this_program_takes() {
        use clap::error::ErrorKind;
        let mut refused = Vec::new();
        let mut checked = 0;
        for (page, text) in doc_pages() {
            for (n, line) in code_lines(&text) {
                let starts = ["tabula ", "cargo run --release -- "];
                if !starts.iter().any(|s| line.starts_with(s)) {
                    continue;
                }
                // Placeholders and shell variables stand for what the reader fills in.
                if line.contains('…') || line.contains('$') {
                    continue;
                }
                let (tokens, comment) = shell_split(&line);
                // A line shown on purpose as refused says so in its comment.
                let meant_refused = comment.contains("refused");
                for words in tabula_commands(&tokens) {
                    checked += 1;
                    let parsed = match <Cli as clap::Parser>::try_parse_from(&words) {
                        Ok(_) => Ok(()),
                        Err(e) => match e.kind() {
                            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Ok(()),
                            _ => Err(e),
                        },
                    };
                    match (parsed, meant_refused) {
                        (Ok(_), false) | (Err(_), true) => {}
                        (Ok(_), true) => refused.push(format!(
                            "{page}:{n}: `{line}` is marked refused but is accepted"
                        )),
                        (Err(e), false) => {
                            let first = e.to_string();
                            let first = first.lines().next().unwrap_or("");
                            refused.push(format!("{page}:{n}: `{line}`: {first}"));
                        }
                    }
                }
            }
        }
        assert!(checked > 50, "only {checked} documented commands found");
        assert!(
            refused.is_empty(),
            "{} documented command lines are refused:\n{}",
            refused.len(),
            refused.join("\n")
        );
    }

    /// The integration-test targets: `tests/NAME.rs` and `tests/NAME/main.rs`.
    fn test_targets(root: &std::path::Path) -> Vec<String> {
        std::fs::read_dir(root.join("tests"))
            .expect("tests/")
            .map(|e| e.expect("a tests/ entry").path())
            .filter_map(|p| {
                let stem = p.file_stem()?.to_str()?.to_string();
                let target =
                    p.extension().is_some_and(|e| e == "rs") || p.join("main.rs").is_file();
                target.then_some(stem)
            })
            .collect()
    }

    #[test]
    fn every_script_and_test_target_the_docs_name_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let targets = test_targets(root);
        let mut faults = Vec::new();
        let name_char = |c: char| c.is_ascii_alphanumeric() || "_.-".contains(c);
        for (page, text) in doc_pages() {
            for (n, line) in text.lines().enumerate() {
                let n = n + 1;
                // `scripts/NAME.sh` (or `.py`): the file exists.
                for (at, _) in line.match_indices("scripts/") {
                    if line[..at].ends_with(|c: char| c.is_ascii_alphanumeric()) {
                        continue;
                    }
                    let rest = &line[at + "scripts/".len()..];
                    let name = &rest[..rest.find(|c| !name_char(c)).unwrap_or(rest.len())];
                    let name = name.trim_end_matches('.');
                    let script = name.ends_with(".sh") || name.ends_with(".py");
                    if script && !root.join("scripts").join(name).is_file() {
                        faults.push(format!("{page}:{n}: scripts/{name} does not exist"));
                    }
                }
                // `cargo test … --test X`: X is a test target.
                if let Some(at) = line.find("cargo test") {
                    let words: Vec<&str> = line[at..]
                        .split_whitespace()
                        .map(|w| w.trim_matches(|c: char| !name_char(c)))
                        .collect();
                    for pair in words.windows(2) {
                        if pair[0] == "--test" && !targets.iter().any(|t| t == pair[1]) {
                            faults.push(format!(
                                "{page}:{n}: `cargo test --test {}`: the test targets are {targets:?}",
                                pair[1]
                            ));
                        }
                    }
                }
            }
        }
        assert!(targets.contains(&"suite".to_string()), "{targets:?}");
        assert!(faults.is_empty(), "{}", faults.join("\n"));
    }
}
