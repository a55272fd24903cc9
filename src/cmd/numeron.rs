//! `tabula numeron analyze|trace|solve|play|optimum|race`.

use super::progress::Bars;
use super::{emit, emit_json};
use clap::{Args, Subcommand};
use num_rational::Ratio;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabula::exact;
use tabula::numeron::interactive;
use tabula::numeron::next::NextReport;
use tabula::numeron::report::{OptimumReport, RaceReport, StrategyReport, TraceReport};
use tabula::numeron::root::{solve_root, Objective, RootReport};
use tabula::numeron::session::trace;
use tabula::numeron::tree::{self, ExportedNode};
use tabula::numeron::{self as numeron, Analysis, Engine, Player, Rules, Strategy};
use tabula::{Error, Result};

#[derive(Subcommand)]
pub enum GameCmd {
    /// Play a strategy against every secret: exact distribution of the number of guesses
    #[command(after_help = "Example:\n  tabula numeron analyze --digits 3 --strategy minimax")]
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
    #[command(after_help = "Example:\n  tabula numeron solve --strategy entropy")]
    Solve {
        #[command(flatten)]
        game: GameArgs,
        /// Strategy proposing the guesses
        #[arg(long, default_value = "entropy", value_parser = parse_strategy)]
        strategy: Strategy,
        /// Propose only guesses consistent with the answers so far
        #[arg(long)]
        hard: bool,
        /// Allow the exact strategies on N = 4 (a search of hours)
        #[arg(long)]
        long: bool,
    },
    /// Play against the program: it hides a secret and answers your guesses
    #[command(after_help = "Example:\n  tabula numeron play --seed 7")]
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Seed choosing the secret (random when absent)
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The exact optimum of the whole game, with a progress bar and a time budget
    #[command(after_help = "Example:\n  tabula numeron optimum --digits 3")]
    Optimum {
        #[command(flatten)]
        game: GameArgs,
        /// Minimise the worst case instead of the expected number of guesses
        #[arg(long)]
        worst: bool,
        /// Guesses must be consistent with the answers so far
        #[arg(long)]
        hard: bool,
        /// Stop after this many seconds and report bounds
        #[arg(long, value_name = "SECONDS")]
        budget: Option<u64>,
        /// Hide the progress bar
        #[arg(long)]
        quiet: bool,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// The candidates left after guesses and their answers, and the strategy's next guess
    #[command(
        after_help = "Example:\n  tabula numeron next --history 123:0E1B,456:1E0B --strategy entropy"
    )]
    Next {
        #[command(flatten)]
        game: GameArgs,
        /// The guesses so far and their answers, oldest first, as GUESS:ANSWER separated
        /// by commas (123:0E1B,456:1E0B)
        #[arg(long, value_delimiter = ',', value_name = "TURNS")]
        history: Vec<String>,
        /// Strategy choosing the next guess
        #[arg(long, default_value = "entropy", value_parser = parse_strategy)]
        strategy: Strategy,
        /// Propose only a guess consistent with the answers so far
        #[arg(long)]
        hard: bool,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Two players race (each guesses the other's secret, first to N EAT wins)
    #[command(after_help = "Example:\n  tabula numeron race --first entropy --second optimal")]
    Race {
        #[command(flatten)]
        game: GameArgs,
        /// Strategy of the player moving first
        #[arg(long, default_value = "first", value_parser = parse_strategy)]
        first: Strategy,
        /// Strategy of the player moving second
        #[arg(long, default_value = "first", value_parser = parse_strategy)]
        second: Strategy,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
}

/// The variant played.
#[derive(Args)]
pub struct GameArgs {
    /// Number of digits N (1..=10)
    #[arg(long, default_value_t = 3)]
    pub digits: usize,
    /// Allow repeated digits (10^N candidates)
    #[arg(long)]
    pub repeats: bool,
}

impl GameArgs {
    fn rules(&self) -> Rules {
        Rules::new(self.digits).with_repeats(self.repeats)
    }
}

/// The strategy played.
#[derive(Args)]
pub struct PlayerArgs {
    /// first, minimax, parts, entropy, optimal or optimal-worst
    #[arg(long, default_value = "first", value_parser = parse_strategy)]
    strategy: Strategy,
    /// Hard mode: every guess must be consistent with the answers so far
    #[arg(long)]
    hard: bool,
    /// Allow the exact strategies on N = 4 (a search of hours)
    #[arg(long)]
    long: bool,
}

fn parse_strategy(s: &str) -> std::result::Result<Strategy, String> {
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

/// A JSON document with its keys in the order the commands have always written them
/// (sorted, histogram keys as text).
fn sorted<T: serde::Serialize>(value: &T) -> Result<serde_json::Value> {
    serde_json::to_value(value).map_err(|e| Error::io("the JSON document", e.into()))
}

fn mean_text(r: &Ratio<u64>) -> String {
    format!("{} = {:.6}", exact::fraction(r), exact::float(r))
}

pub fn run(cmd: GameCmd) -> Result<()> {
    match cmd {
        GameCmd::Analyze {
            game,
            player,
            tree: tree_path,
            quiet,
            json,
        } => analyze(&game, &player, tree_path, quiet, json),
        GameCmd::Trace {
            secret,
            game,
            player,
            json,
        } => run_trace(&game, &player, &secret, json),
        GameCmd::Solve {
            game,
            strategy,
            hard,
            long,
        } => solve(&game, strategy, hard, long),
        GameCmd::Play { game, seed } => play(&game, seed),
        GameCmd::Optimum {
            game,
            worst,
            hard,
            budget,
            quiet,
            json,
        } => optimum(&game, worst, hard, budget, quiet, json),
        GameCmd::Next {
            game,
            history,
            strategy,
            hard,
            json,
        } => {
            let report = next(&game, strategy, hard, &history)?;
            if json {
                return emit_json(&sorted(&report)?);
            }
            emit(&render_next(&report))
        }
        GameCmd::Race {
            game,
            first,
            second,
            json,
        } => run_race(&game, first, second, json),
    }
}

/// `next`'s answer, for both doors (the command line and the server): the candidates
/// left after `history` (`GUESS:ANSWER` each) and `strategy`'s next guess.
pub fn next(
    game: &GameArgs,
    strategy: Strategy,
    hard: bool,
    history: &[String],
) -> Result<NextReport> {
    let engine = Engine::new(game.rules(), strategy).map_err(advise)?;
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
        out.push_str(&format!(
            "{}  {}E{}B  {} left\n",
            t.guess, t.eat, t.bite, t.left
        ));
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

fn analyze(
    game: &GameArgs,
    player: &PlayerArgs,
    tree_path: Option<PathBuf>,
    quiet: bool,
    json: bool,
) -> Result<()> {
    let engine = Engine::new(game.rules(), player.strategy).map_err(advise)?;
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
        return emit_json(&sorted(&report)?);
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
        "strategy {}{} on {} digits{}: {} secrets, first guess {}\n\nguesses  secrets  cumulative\n",
        r.strategy,
        if r.hard { " (hard)" } else { "" },
        r.digits,
        if r.repeats { " (repeats)" } else { "" },
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

fn run_trace(game: &GameArgs, player: &PlayerArgs, secret: &str, json: bool) -> Result<()> {
    let engine = Engine::new(game.rules(), player.strategy).map_err(advise)?;
    let secret = engine.space.parse(secret).map_err(advise)?;
    let mut p = Player::new(&engine, player.strategy, player.hard, player.long).map_err(advise)?;
    let oracle = engine.oracle();
    let steps = trace(&oracle, secret, |set, history| p.next_guess(set, history))?;
    let report = TraceReport::of_steps(&engine.space, player.strategy, player.hard, secret, &steps);
    if json {
        return emit_json(&sorted(&report)?);
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
        let answer = format!("{}E{}B", s.eat, s.bite);
        out.push_str(&format!(
            "{:>3}  {:>5}  {:>6}  {:>4}\n",
            i + 1,
            s.guess,
            answer,
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

fn solve(game: &GameArgs, strategy: Strategy, hard: bool, long: bool) -> Result<()> {
    let engine = Engine::new(game.rules(), strategy).map_err(advise)?;
    interact(|input, output| interactive::solve(&engine, strategy, hard, long, input, output))?;
    Ok(())
}

fn play(game: &GameArgs, seed: Option<u64>) -> Result<()> {
    let engine = Engine::new(game.rules(), Strategy::First).map_err(advise)?;
    let seed = seed.unwrap_or_else(rand::random);
    interact(|input, output| interactive::play(&engine, seed, input, output))?;
    Ok(())
}

fn optimum(
    game: &GameArgs,
    worst: bool,
    hard: bool,
    budget: Option<u64>,
    quiet: bool,
    json: bool,
) -> Result<()> {
    let engine = Engine::new(game.rules(), Strategy::Optimal).map_err(advise)?;
    let objective = if worst {
        Objective::Worst
    } else {
        Objective::Total
    };
    let start = Instant::now();
    let bars = Bars::new(quiet || json);
    let r = solve_root(
        &engine,
        hard,
        objective,
        budget.map(Duration::from_secs),
        bars.progress(),
    );
    drop(bars);
    let r = r.map_err(advise)?;
    let seconds = start.elapsed().as_secs_f64();
    if !quiet {
        super::diag(&format!("search time: {seconds:.1} s"));
        for c in &r.per_class {
            let unsolved = if c.lower == c.upper {
                ""
            } else {
                " (unsolved)"
            };
            super::diag(&format!(
                "class of {:>4}: {:.1} s{unsolved}",
                c.size,
                c.time.as_secs_f64()
            ));
        }
    }
    let report = OptimumReport::of_root(&engine.space, hard, &r);
    if json {
        return emit_json(&sorted(&report)?);
    }
    emit(&render_optimum(&report, &r))
}

fn render_optimum(report: &OptimumReport, r: &RootReport) -> String {
    let worst = r.objective == Objective::Worst;
    let what = if worst { "worst case" } else { "total" };
    let mut out = format!(
        "exact search, {} digits{}{}, least {what}: ",
        report.digits,
        if report.repeats { " (repeats)" } else { "" },
        if report.hard { ", hard mode" } else { "" }
    );
    if report.exact {
        out.push_str(&format!("{} (proved optimal)", report.lower));
    } else {
        out.push_str(&format!(
            "between {} and {} (budget ran out: {} of {} classes solved)",
            report.lower, report.upper, report.solved_classes, report.classes
        ));
    }
    if let Some(m) = &report.means {
        out.push_str(&format!("\nmean     {}", mean_text(&m.mean_lower_exact)));
        if !report.exact {
            out.push_str(&format!(" .. {}", mean_text(&m.mean_upper_exact)));
        }
    }
    out.push_str(&format!(
        "\nsearch   {} nodes, {} memo entries\n\nclass below {:<15} lower   upper\n",
        report.nodes, report.memo, report.first_guess
    ));
    for c in &r.per_class {
        out.push_str(&format!(
            "{:>27}  {:>6}  {:>6}\n",
            format!("{} candidates", c.size),
            c.lower,
            c.upper
        ));
    }
    out
}

fn run_race(game: &GameArgs, first: Strategy, second: Strategy, json: bool) -> Result<()> {
    // The race runs the quick searches only: an exact strategy of hours is refused.
    let advise = |e: numeron::Error| match e {
        numeron::Error::SearchOfHours { .. } => e
            .advised("a race runs the quick searches only (see `tabula numeron optimum`)")
            .into(),
        e => advise(e),
    };
    let analyse = |s: Strategy| -> Result<Analysis> {
        let engine = Engine::new(game.rules(), s).map_err(advise)?;
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
        return emit_json(&sorted(&report)?);
    }
    emit(&format!(
        "the player moving first ({first}) wins against {second} with probability {}",
        mean_text(&report.first_wins_exact)
    ))
}
