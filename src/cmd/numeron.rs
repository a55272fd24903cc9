//! `tabula numeron analyze|trace|solve|play|optimum|race`.

use super::{emit, emit_json};
use clap::{Args, Subcommand};
use serde_json::json;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tabula::numeron::root::{solve_root, Objective};
use tabula::numeron::session::{hidden_secret, trace, Session};
use tabula::numeron::{race, tree, Analysis, Answer, Engine, Player, Rules, Strategy};
use tabula::{progress, Error, Result};

#[derive(Subcommand)]
pub enum GameCmd {
    /// Play a strategy against every secret: exact distribution of the number of guesses
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
        #[arg(long)]
        json: bool,
    },
    /// Show a strategy's game against one secret, guess by guess
    Trace {
        /// The secret, e.g. 719
        #[arg(long)]
        secret: String,
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        player: PlayerArgs,
        #[arg(long)]
        json: bool,
    },
    /// Interactive helper: it proposes guesses, you type the answers (`1 0` or `1E0B`)
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
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Seed choosing the secret (random when absent)
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The exact optimum of the whole game, with a progress bar and a time budget
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
        #[arg(long)]
        json: bool,
    },
    /// Two players race (each guesses the other's secret, first to N EAT wins)
    Race {
        #[command(flatten)]
        game: GameArgs,
        /// Strategy of the player moving first
        #[arg(long, default_value = "first", value_parser = parse_strategy)]
        first: Strategy,
        /// Strategy of the player moving second
        #[arg(long, default_value = "first", value_parser = parse_strategy)]
        second: Strategy,
        #[arg(long)]
        json: bool,
    },
}

/// The variant played.
#[derive(Args)]
pub struct GameArgs {
    /// Number of digits N (1..=10)
    #[arg(long, default_value_t = 3)]
    digits: usize,
    /// Allow repeated digits (10^N candidates)
    #[arg(long)]
    repeats: bool,
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

fn fraction(r: num_rational::Ratio<u64>) -> String {
    format!("{}/{}", r.numer(), r.denom())
}

fn as_f64(r: num_rational::Ratio<u64>) -> f64 {
    *r.numer() as f64 / *r.denom() as f64
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
        GameCmd::Race {
            game,
            first,
            second,
            json,
        } => run_race(&game, first, second, json),
    }
}

fn analyze(
    game: &GameArgs,
    player: &PlayerArgs,
    tree_path: Option<PathBuf>,
    quiet: bool,
    json: bool,
) -> Result<()> {
    let spinner = progress::spinner(&format!("analyzing {}", player.strategy), quiet);
    spinner.enable_steady_tick(Duration::from_millis(120));
    let engine = Engine::new(game.rules(), player.strategy)?;
    let root = engine.tree(player.strategy, player.hard, player.long);
    spinner.finish_and_clear();
    let root = root?;
    let a = Analysis::of_tree(&root);
    if let Some(path) = &tree_path {
        let text = if path.extension().is_some_and(|e| e == "json") {
            serde_json::to_string_pretty(&tree::to_json(&engine.space, &root))
                .map_err(|e| Error::failure(e.to_string()))?
        } else {
            tree::to_text(&engine.space, &root)
        };
        std::fs::write(path, text)
            .map_err(|e| Error::failure(format!("cannot write {}: {e}", path.display())))?;
    }
    let mean = a.mean();
    if json {
        let histogram: serde_json::Map<String, serde_json::Value> = a
            .histogram
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect();
        return emit_json(&json!({
            "digits": game.digits,
            "repeats": game.repeats,
            "strategy": player.strategy.name(),
            "hard": player.hard,
            "first_guess": engine.space.format(root.guess),
            "secrets": a.secrets,
            "total": a.total,
            "mean": as_f64(mean),
            "mean_exact": fraction(mean),
            "max": a.max,
            "histogram": histogram,
        }));
    }
    let mut out = format!(
        "strategy {}{} on {} digits{}: {} secrets, first guess {}\n\nguesses  secrets  cumulative\n",
        player.strategy,
        if player.hard { " (hard)" } else { "" },
        game.digits,
        if game.repeats { " (repeats)" } else { "" },
        a.secrets,
        engine.space.format(root.guess),
    );
    let mut cumulative = 0;
    for (k, v) in &a.histogram {
        cumulative += v;
        out.push_str(&format!("{k:>7}  {v:>7}  {cumulative:>10}\n"));
    }
    out.push_str(&format!(
        "\ntotal    {}\nmean     {} = {:.6}\nworst    {}",
        a.total,
        fraction(mean),
        as_f64(mean),
        a.max
    ));
    if let Some(p) = tree_path {
        out.push_str(&format!("\ntree     written to {}", p.display()));
    }
    emit(&out)
}

fn run_trace(game: &GameArgs, player: &PlayerArgs, secret: &str, json: bool) -> Result<()> {
    let engine = Engine::new(game.rules(), player.strategy)?;
    let secret = engine
        .space
        .parse(secret)
        .map_err(|e| Error::input(format!("--secret: {e}")))?;
    let mut p = Player::new(&engine, player.strategy, player.hard, player.long)?;
    let oracle = engine.oracle();
    let steps = trace(&oracle, secret, |set, history| p.next_guess(set, history))?;
    let space = &engine.space;
    if json {
        let list: Vec<_> = steps
            .iter()
            .map(|s| {
                json!({"guess": space.format(s.guess), "eat": s.answer.eat,
                       "bite": s.answer.bite, "left": s.left})
            })
            .collect();
        return emit_json(&json!({
            "secret": space.format(secret),
            "strategy": player.strategy.name(),
            "hard": player.hard,
            "candidates": space.len(),
            "guesses": steps.len(),
            "steps": list,
        }));
    }
    let mut out = format!(
        "secret {} with strategy {}{}: {} candidates\n\n  #  guess  answer  left\n",
        space.format(secret),
        player.strategy,
        if player.hard { " (hard)" } else { "" },
        space.len()
    );
    for (i, s) in steps.iter().enumerate() {
        out.push_str(&format!(
            "{:>3}  {:>5}  {:>6}  {:>4}\n",
            i + 1,
            space.format(s.guess),
            s.answer.to_string(),
            s.left
        ));
    }
    out.push_str(&format!("\nfound in {} guesses", steps.len()));
    emit(&out)
}

/// Reads one trimmed line; `None` at end of input.
fn read_line(input: &mut impl BufRead) -> Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_string()))
}

fn prompt(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => Ok(other?),
    }
}

fn solve(game: &GameArgs, strategy: Strategy, hard: bool, long: bool) -> Result<()> {
    let engine = Engine::new(game.rules(), strategy)?;
    let mut player = Player::new(&engine, strategy, hard, long)?;
    let oracle = engine.oracle();
    let space = &engine.space;
    let n = space.digits();
    let mut session = Session::new(space);
    emit(&format!(
        "Think of a secret of {n} {}digits. For each guess type its answer as EAT BITE \
         (`1 0` or `1E0B`); to answer a guess of your own, type it first (`345 1E0B`); `q` quits.",
        if game.repeats { "" } else { "distinct " }
    ))?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut suggestion = player.next_guess(&session.candidates().to_vec(), &[])?;
    loop {
        let left = session.candidates().len();
        prompt(&format!(
            "{left} candidate{} left; guess {}\nanswer> ",
            if left == 1 { "" } else { "s" },
            space.format(suggestion)
        ))?;
        let Some(line) = read_line(&mut input)? else {
            return emit("\n(end of input)");
        };
        if line.is_empty() {
            continue;
        }
        if line == "q" || line == "quit" {
            return Ok(());
        }
        let (guess, reply) = match parse_reply(space, &line, suggestion) {
            Ok(x) => x,
            Err(e) => {
                emit(&format!("refused: {e}"))?;
                continue;
            }
        };
        if let Err(e) = session.record(&oracle, guess, reply) {
            emit(&format!("refused: {e}"))?;
            continue;
        }
        if session.solved(n) {
            return emit(&format!(
                "solved: {} in {} guesses",
                space.format(guess),
                session.history().len()
            ));
        }
        let set = session.candidates().to_vec();
        suggestion = player.next_guess(&set, &session.guesses())?;
        if set.len() <= 6 {
            let list: Vec<String> = set.iter().map(|&c| space.format(c)).collect();
            emit(&format!("candidates: {}", list.join(" ")))?;
        }
    }
}

/// `1 0`, `1E0B`, or a guess then its answer (`345 1E0B`, `345 1 0`).
fn parse_reply(
    space: &tabula::numeron::Space,
    line: &str,
    suggestion: u32,
) -> Result<(u32, Answer)> {
    let n = space.digits();
    let mut parts = line.split_whitespace();
    let first = parts.next().unwrap_or("");
    if first.len() == n && first.chars().all(|c| c.is_ascii_digit()) && n > 2 {
        let rest: Vec<&str> = parts.collect();
        if !rest.is_empty() {
            let guess = space.parse(first)?;
            return Ok((guess, Answer::parse(&rest.join(" "), n)?));
        }
    }
    Ok((suggestion, Answer::parse(line, n)?))
}

fn play(game: &GameArgs, seed: Option<u64>) -> Result<()> {
    let engine = Engine::new(game.rules(), Strategy::First)?;
    let space = &engine.space;
    let oracle = engine.oracle();
    let seed = seed.unwrap_or_else(rand::random);
    let secret = hidden_secret(space, seed);
    let n = space.digits();
    emit(&format!(
        "I have chosen a secret of {n} {}digits (seed {seed}). Type your guesses; `q` gives up.",
        if game.repeats { "" } else { "distinct " }
    ))?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut session = Session::new(space);
    loop {
        prompt("guess> ")?;
        let Some(line) = read_line(&mut input)? else {
            return emit(&format!("\nthe secret was {}", space.format(secret)));
        };
        if line.is_empty() {
            continue;
        }
        if line == "q" || line == "quit" {
            return emit(&format!("the secret was {}", space.format(secret)));
        }
        let guess = match space.parse(&line) {
            Ok(g) => g,
            Err(e) => {
                emit(&format!("refused: {e}"))?;
                continue;
            }
        };
        let reply = tabula::numeron::answer::answer(space, guess, secret);
        let left = session.record(&oracle, guess, reply)?;
        if reply == Answer::win(n) {
            return emit(&format!(
                "{reply}: found {} in {} guesses",
                space.format(secret),
                session.history().len()
            ));
        }
        emit(&format!(
            "{reply}  ({left} candidates fit every answer so far)"
        ))?;
    }
}

fn optimum(
    game: &GameArgs,
    worst: bool,
    hard: bool,
    budget: Option<u64>,
    quiet: bool,
    json: bool,
) -> Result<()> {
    let engine = Engine::new(game.rules(), Strategy::Optimal)?;
    if engine.table.is_none() || engine.space.len() > tabula::numeron::optimal::MAX_SEARCH_SPACE {
        return Err(Error::input(format!(
            "the exact search handles at most {} candidates (N ≤ 4), not {}",
            tabula::numeron::optimal::MAX_SEARCH_SPACE,
            engine.space.len()
        )));
    }
    let objective = if worst {
        Objective::Worst
    } else {
        Objective::Total
    };
    let start = Instant::now();
    let deadline = budget.map(|s| start + Duration::from_secs(s));
    let bar = progress::bar(1, "optimum", quiet);
    let r = solve_root(&engine, hard, objective, deadline, &bar)?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!("search time: {seconds:.1} s");
    let what = if worst { "worst case" } else { "total" };
    let ratio = |v: u64| num_rational::Ratio::new(v, r.secrets);
    if json {
        let mut doc = json!({
            "digits": game.digits,
            "repeats": game.repeats,
            "hard": hard,
            "objective": if worst { "worst" } else { "total" },
            "exact": r.exact,
            "first_guess": engine.space.format(r.first_guess),
            "secrets": r.secrets,
            "lower": r.lower,
            "upper": r.upper,
            "classes": r.classes,
            "solved_classes": r.solved_classes,
            "nodes": r.stats.nodes,
            "memo": r.stats.memo,
            "per_class": r.per_class.iter().map(|c| json!({
                "size": c.size, "lower": c.lower, "upper": c.upper,
            })).collect::<Vec<_>>(),
        });
        if !worst {
            doc["mean_lower"] = json!(as_f64(ratio(r.lower)));
            doc["mean_lower_exact"] = json!(fraction(ratio(r.lower)));
            doc["mean_upper"] = json!(as_f64(ratio(r.upper)));
            doc["mean_upper_exact"] = json!(fraction(ratio(r.upper)));
        }
        return emit_json(&doc);
    }
    let mut out = format!(
        "exact search, {} digits{}{}, least {what}: ",
        game.digits,
        if game.repeats { " (repeats)" } else { "" },
        if hard { ", hard mode" } else { "" }
    );
    if r.exact {
        out.push_str(&format!("{} (proved optimal)", r.lower));
    } else {
        out.push_str(&format!(
            "between {} and {} (budget ran out: {} of {} classes solved)",
            r.lower, r.upper, r.solved_classes, r.classes
        ));
    }
    if !worst {
        out.push_str(&format!(
            "\nmean     {} = {:.6}",
            fraction(ratio(r.lower)),
            as_f64(ratio(r.lower))
        ));
        if !r.exact {
            out.push_str(&format!(
                " .. {} = {:.6}",
                fraction(ratio(r.upper)),
                as_f64(ratio(r.upper))
            ));
        }
    }
    out.push_str(&format!(
        "\nsearch   {} nodes, {} memo entries\n\nclass below {:<15} lower   upper\n",
        r.stats.nodes,
        r.stats.memo,
        engine.space.format(r.first_guess)
    ));
    for c in &r.per_class {
        out.push_str(&format!(
            "{:>27}  {:>6}  {:>6}\n",
            format!("{} candidates", c.size),
            c.lower,
            c.upper
        ));
        eprintln!(
            "class of {:>4}: {:.1} s{}",
            c.size,
            c.time.as_secs_f64(),
            if c.lower == c.upper {
                ""
            } else {
                " (unsolved)"
            }
        );
    }
    emit(&out)
}

fn run_race(game: &GameArgs, first: Strategy, second: Strategy, json: bool) -> Result<()> {
    let analyse = |s: Strategy| -> Result<Analysis> {
        let engine = Engine::new(game.rules(), s)?;
        Ok(Analysis::of_tree(&engine.tree(s, false, false)?))
    };
    let a = analyse(first)?;
    let b = if second == first {
        a.clone()
    } else {
        analyse(second)?
    };
    let p = race::first_player_wins(&a, &b);
    if json {
        return emit_json(&json!({
            "first": first.name(), "second": second.name(),
            "first_wins": as_f64(p), "first_wins_exact": fraction(p),
        }));
    }
    emit(&format!(
        "the player moving first ({first}) wins against {second} with probability {} = {:.6}",
        fraction(p),
        as_f64(p)
    ))
}
