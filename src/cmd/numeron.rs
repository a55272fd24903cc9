//! `tabula numeron analyze|trace|solve|play|optimum|next|race` (`optimum` and its jobs in
//! [`super::optimum`]).

use super::numeron_words::{describe, mean_text};
use super::optimum::{self, BuildArgs, OptimumArgs, PlanArgs};
use super::progress::Bars;
use super::{emit, emit_sorted, sorted};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use tabula::numeron::interactive;
use tabula::numeron::next::NextReport;
use tabula::numeron::report::{RaceReport, StrategyReport, TraceReport};
use tabula::numeron::session::trace;
use tabula::numeron::tree::{self, ExportedNode};
use tabula::numeron::{self as numeron, Analysis, Engine, Player, Rules, Strategy};
use tabula::{Error, Result};

#[derive(Subcommand)]
pub enum GameCmd {
    /// Play a strategy against every secret: exact distribution of the number of guesses
    #[command(
        after_help = "Example:\n  tabula numeron analyze --digits 4 --strategy entropy --tree tree.txt"
    )]
    Analyze {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        player: PlayerArgs,
        /// Write the decision tree to this file (JSON when it ends in .json, else text)
        #[arg(long, value_name = "PATH")]
        tree: Option<PathBuf>,
        /// Hide the progress spinner
        #[arg(long)]
        quiet: bool,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Show a strategy's game against one secret, guess by guess
    #[command(after_help = "Example:\n  tabula numeron trace --secret 719 --strategy first")]
    Trace {
        /// The secret, e.g. 719
        #[arg(long)]
        secret: String,
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        player: PlayerArgs,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Interactive helper: it proposes guesses, you type the answers (`1 0` or `1E0B`)
    #[command(after_help = "Example:\n  tabula numeron solve --digits 4 --strategy entropy")]
    Solve {
        #[command(flatten)]
        game: GameArgs,
        /// Strategy proposing the guesses
        #[arg(long, default_value = "entropy", value_parser = parse_strategy)]
        strategy: Strategy,
        /// Propose only guesses consistent with the answers so far
        #[arg(long)]
        hard: bool,
        /// Allow the exact strategies on more than 2,000 candidates (a search of minutes)
        #[arg(long)]
        long: bool,
    },
    /// Play against the program: it hides a secret and answers your guesses
    #[command(after_help = "Example:\n  tabula numeron play --digits 4 --seed 7")]
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Seed choosing the secret (random when absent)
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The exact optimum of the whole game, with a progress bar, a time budget and
    /// checkpoints
    #[command(after_help = "Example:\n  tabula numeron optimum --digits 3 --budget 60")]
    Optimum {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        optimum: OptimumArgs,
    },
    /// The optimum split into independent jobs: a Makefile, one rule a job
    #[command(
        name = "optimum-plan",
        after_help = "Example:\n  tabula numeron optimum-plan --digits 4 --folder jobs\n(a Makefile on stdout: save it as plan.mk, then run make -j 2 -f plan.mk)"
    )]
    OptimumPlan {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        plan: PlanArgs,
    },
    /// One job of optimum-plan: a class below a first guess, its facts written to a file
    #[command(
        name = "optimum-build",
        after_help = "Example:\n  tabula numeron optimum-build --digits 3 --first 012 --reply 0E1B --out u.tbl"
    )]
    OptimumBuild {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        build: BuildArgs,
    },
    /// The candidates left after guesses and their answers, and the strategy's next guess
    #[command(
        after_help = "Example:\n  tabula numeron next --history 123:0E1B,456:1E0B --strategy entropy"
    )]
    Next {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        next: NextArgs,
    },
    /// Two players race (each guesses the other's secret, first to N EAT wins)
    #[command(after_help = "Example:\n  tabula numeron race --first entropy --second optimal")]
    Race {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        race: RaceArgs,
    },
}

/// The variant played.
#[derive(Args)]
pub struct GameArgs {
    /// Number of digits N (1..=10)
    #[arg(long, default_value_t = 3)]
    pub digits: usize,
    /// Allow repeated digits (K^N candidates, scored as in Mastermind)
    #[arg(long)]
    pub repeats: bool,
    /// Number of digit symbols K, the digits 0 to K-1 (1..=10)
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub symbols: usize,
}

impl GameArgs {
    /// The rules these arguments name.
    pub fn rules(&self) -> Rules {
        Rules::new(self.digits)
            .with_repeats(self.repeats)
            .with_alphabet(self.symbols)
    }
}

/// The strategy played.
#[derive(Args)]
pub struct PlayerArgs {
    /// first, minimax, parts, entropy, optimal or optimal-worst
    #[arg(long, default_value = "first", value_parser = parse_strategy)]
    pub strategy: Strategy,
    /// Hard mode: every guess must be consistent with the answers so far
    #[arg(long)]
    pub hard: bool,
    /// Allow the exact strategies on more than 2,000 candidates (a search of minutes)
    #[arg(long)]
    pub long: bool,
}

/// The history `next` continues, and who continues it.
#[derive(Args)]
pub struct NextArgs {
    /// The guesses so far and their answers, oldest first, as GUESS:ANSWER separated
    /// by commas (123:0E1B,456:1E0B)
    #[arg(long, value_delimiter = ',', value_name = "TURNS")]
    pub history: Vec<String>,
    /// Strategy choosing the next guess
    #[arg(long, default_value = "entropy", value_parser = parse_strategy)]
    pub strategy: Strategy,
    /// Propose only a guess consistent with the answers so far
    #[arg(long)]
    pub hard: bool,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

/// The two players of a race.
#[derive(Args)]
pub struct RaceArgs {
    /// Strategy of the player moving first
    #[arg(long, default_value = "first", value_parser = parse_strategy)]
    pub first: Strategy,
    /// Strategy of the player moving second
    #[arg(long, default_value = "first", value_parser = parse_strategy)]
    pub second: Strategy,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn parse_strategy(s: &str) -> std::result::Result<Strategy, String> {
    Strategy::parse(s).map_err(|e| e.to_string())
}

/// The library's error, with advice naming this command's options where one helps.
fn advise(e: numeron::Error) -> Error {
    let advice = match &e {
        numeron::Error::SearchOfHours { .. } => {
            "add --long to run it (see also `tabula numeron optimum`)"
        }
        numeron::Error::TooLargeForHeuristic { .. } => "use --strategy first",
        numeron::Error::RepeatedDigit { .. } => "see --repeats",
        _ => return e.into(),
    };
    e.advised(advice).into()
}

pub fn run(cmd: GameCmd) -> Result<()> {
    match cmd {
        GameCmd::Analyze {
            game,
            player,
            tree: tree_path,
            quiet,
            json,
        } => analyze(game.rules(), &player, tree_path, quiet, json),
        GameCmd::Trace {
            secret,
            game,
            player,
            json,
        } => run_trace(game.rules(), &player, &secret, json),
        GameCmd::Solve {
            game,
            strategy,
            hard,
            long,
        } => solve(game.rules(), strategy, hard, long),
        GameCmd::Play { game, seed } => play(game.rules(), seed),
        GameCmd::Optimum { game, optimum: o } => optimum::optimum(game.rules(), &o),
        GameCmd::OptimumPlan { game, plan } => optimum::plan(game.rules(), &plan),
        GameCmd::OptimumBuild { game, build } => optimum::build(game.rules(), &build),
        GameCmd::Next { game, next: n } => run_next(game.rules(), &n),
        GameCmd::Race { game, race } => run_race(game.rules(), &race),
    }
}

/// `next` on the command line: the report as text or JSON.
pub fn run_next(rules: Rules, n: &NextArgs) -> Result<()> {
    let report = next_report(rules, n.strategy, n.hard, &n.history)?;
    if n.json {
        return emit_sorted(&report);
    }
    emit(&render_next(&report))
}

/// `next`'s answer, for both doors (the command line and the server): the candidates
/// left after `history` (`GUESS:ANSWER` each) and `strategy`'s next guess.
pub fn next(
    game: &GameArgs,
    strategy: Strategy,
    hard: bool,
    history: &[String],
) -> Result<NextReport> {
    next_report(game.rules(), strategy, hard, history)
}

fn next_report(
    rules: Rules,
    strategy: Strategy,
    hard: bool,
    history: &[String],
) -> Result<NextReport> {
    let engine = Engine::new(rules, strategy).map_err(advise)?;
    let turns = history
        .iter()
        .map(|t| numeron::next::parse_turn(&engine, t))
        .collect::<numeron::Result<Vec<_>>>()
        .map_err(advise)?;
    numeron::next::next(&engine, strategy, hard, &turns).map_err(advise)
}

fn render_next(r: &NextReport) -> String {
    let mut out = String::new();
    for t in &r.history {
        out.push_str(&format!("{}  {}  {} left\n", t.guess, t.reply, t.left));
    }
    let more = r.candidates.saturating_sub(r.listed.len());
    out.push_str(&format!(
        "{} candidate{}: {}{}",
        r.candidates,
        if r.candidates == 1 { "" } else { "s" },
        r.listed.join(" "),
        if more > 0 {
            format!(" … and {more} more")
        } else {
            String::new()
        }
    ));
    match &r.guess {
        Some(g) => out.push_str(&format!("\nnext guess ({}): {g}", r.strategy)),
        None => out.push_str("\nsolved"),
    }
    out
}

pub fn analyze(
    rules: Rules,
    player: &PlayerArgs,
    tree_path: Option<PathBuf>,
    quiet: bool,
    json: bool,
) -> Result<()> {
    let engine = Engine::new(rules, player.strategy).map_err(advise)?;
    let bars = Bars::new(quiet);
    let root =
        engine.tree_with_progress(player.strategy, player.hard, player.long, bars.progress());
    drop(bars);
    let root = root.map_err(advise)?;
    let report = StrategyReport::of_tree(&engine, player.strategy, player.hard, &root);
    if let Some(path) = &tree_path {
        write_tree(path, &tree::export(&engine.space, &root))?;
    }
    if json {
        return emit_sorted(&report);
    }
    emit(&render_analysis(&report, tree_path.as_deref()))
}

/// Writes the tree to `path`: JSON when the name ends in `.json`, else indented text.
fn write_tree(path: &Path, root: &ExportedNode) -> Result<()> {
    let text = if path.extension().is_some_and(|e| e == "json") {
        serde_json::to_string_pretty(&sorted(root)?)
            .map_err(|e| Error::io("the tree file", e.into()))?
    } else {
        render_tree(root)
    };
    tabula::table::write_file(path, |out| {
        out.write_all(text.as_bytes())
            .map_err(|e| Error::io(format!("the tree file {}", path.display()), e))
    })
}

/// The tree as indented text, one line per node: the answer that leads there, the guess
/// and how many candidates remain (`=` marks a guess that is the only candidate left).
fn render_tree(root: &ExportedNode) -> String {
    fn walk(node: &ExportedNode, label: &str, indent: usize, out: &mut String) {
        let mark = if node.candidates == 1 { " =" } else { "" };
        out.push_str(&format!(
            "{:indent$}{label}{} ({}){mark}\n",
            "", node.guess, node.candidates
        ));
        for (answer, child) in &node.branches {
            walk(child, &format!("{answer} → "), indent + 2, out);
        }
    }
    let mut out = String::new();
    walk(root, "", 0, &mut out);
    out
}

fn render_analysis(r: &StrategyReport, tree_path: Option<&Path>) -> String {
    let mut out = format!(
        "strategy {}{} on {}: {} secrets, first guess {}\n\nguesses  secrets  cumulative\n",
        r.strategy,
        if r.hard { " (hard)" } else { "" },
        describe(&r.variant),
        r.secrets,
        r.first_guess,
    );
    let mut cumulative = 0;
    for (k, v) in &r.histogram {
        cumulative += v;
        out.push_str(&format!("{k:>7}  {v:>7}  {cumulative:>10}\n"));
    }
    out.push_str(&format!(
        "\ntotal    {}\nmean     {}\nworst    {}",
        r.total,
        mean_text(&r.mean_exact),
        r.max
    ));
    if let Some(p) = tree_path {
        out.push_str(&format!("\ntree     written to {}", p.display()));
    }
    out
}

pub fn run_trace(rules: Rules, player: &PlayerArgs, secret: &str, json: bool) -> Result<()> {
    let engine = Engine::new(rules, player.strategy).map_err(advise)?;
    let secret = engine.space.parse(secret).map_err(advise)?;
    let mut p = Player::new(&engine, player.strategy, player.hard, player.long).map_err(advise)?;
    let oracle = engine.oracle();
    let steps = trace(&oracle, secret, |set, history| p.next_guess(set, history))?;
    let report = TraceReport::of_steps(&engine.space, player.strategy, player.hard, secret, &steps);
    if json {
        return emit_sorted(&report);
    }
    emit(&render_trace(&report))
}

fn render_trace(r: &TraceReport) -> String {
    let mut out = format!(
        "secret {} with strategy {}{}: {} candidates\n\n  #  guess  answer  left\n",
        r.secret,
        r.strategy,
        if r.hard { " (hard)" } else { "" },
        r.candidates
    );
    for (i, s) in r.steps.iter().enumerate() {
        out.push_str(&format!(
            "{:>3}  {:>5}  {:>6}  {:>4}\n",
            i + 1,
            s.guess,
            s.reply,
            s.left
        ));
    }
    out.push_str(&format!("\nfound in {} guesses", r.guesses));
    out
}

/// Standard input and output for an interactive session, their faults named.
fn interact<T>(
    session: impl FnOnce(
        std::io::StdinLock<'static>,
        std::io::StdoutLock<'static>,
    ) -> numeron::Result<T>,
) -> Result<T> {
    session(std::io::stdin().lock(), std::io::stdout().lock())
        .map_err(|e| advise(e.in_streams("standard input", "standard output")))
}

pub fn solve(rules: Rules, strategy: Strategy, hard: bool, long: bool) -> Result<()> {
    let engine = Engine::new(rules, strategy).map_err(advise)?;
    interact(|input, output| interactive::solve(&engine, strategy, hard, long, input, output))?;
    Ok(())
}

pub fn play(rules: Rules, seed: Option<u64>) -> Result<()> {
    let engine = Engine::new(rules, Strategy::First).map_err(advise)?;
    let seed = seed.unwrap_or_else(rand::random);
    interact(|input, output| interactive::play(&engine, seed, input, output))?;
    Ok(())
}

pub fn run_race(rules: Rules, race: &RaceArgs) -> Result<()> {
    let RaceArgs {
        first,
        second,
        json,
    } = *race;
    // The race runs the quick searches only: an exact strategy of hours is refused.
    let advise = |e: numeron::Error| match e {
        numeron::Error::SearchOfHours { .. } => e
            .advised("a race runs the quick searches only (see `tabula numeron optimum`)")
            .into(),
        e => advise(e),
    };
    let analyse = |s: Strategy| -> Result<Analysis> {
        let engine = Engine::new(rules, s).map_err(advise)?;
        let root = engine.tree(s, false, false).map_err(advise)?;
        Ok(Analysis::of_tree(&root))
    };
    let a = analyse(first)?;
    let b = if second == first {
        a.clone()
    } else {
        analyse(second)?
    };
    let report = RaceReport::of(first, &a, second, &b);
    if json {
        return emit_sorted(&report);
    }
    emit(&format!(
        "the player moving first ({first}) wins against {second} with probability {}",
        mean_text(&report.first_wins_exact)
    ))
}
