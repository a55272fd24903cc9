//! `tabula numeron|mastermind optimum`, `optimum-plan` and `optimum-build`: the whole
//! game's exact optimum, in one process (with checkpoints to go on from), or split into
//! independent jobs and combined (`docs/numeron.md`, "Long searches: checkpoints, memory
//! and jobs").

use super::numeron_words::{describe, mean_text};
use super::progress::Bars;
use super::{diag, emit, emit_sorted};
use clap::Args;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tabula::numeron::jobs::{self, Unit, UnitReport};
use tabula::numeron::report::{OptimumReport, Variant};
use tabula::numeron::root::{solve_root_keeping, Keep, Objective, RootReport};
use tabula::numeron::{self as numeron, Answer, Engine, Rules, Strategy};
use tabula::Result;

/// What a search minimises, and which guesses it may make: the same in `optimum`, every
/// job of its plan and the job that combines them.
#[derive(Args)]
pub struct Aim {
    /// Minimise the worst case instead of the expected number of guesses
    #[arg(long)]
    pub worst: bool,
    /// Guesses must be consistent with the answers so far
    #[arg(long)]
    pub hard: bool,
}

impl Aim {
    /// The objective, `--fewest-at-worst` given or not.
    fn objective(&self, fewest_at_worst: bool) -> Objective {
        match (fewest_at_worst, self.worst) {
            (true, _) => Objective::FewestAtWorst,
            (false, true) => Objective::Worst,
            (false, false) => Objective::Total,
        }
    }
}

/// How often a long search writes its checkpoint.
#[derive(Args)]
pub struct Every {
    /// Seconds between two writes of the checkpoint
    #[arg(long, value_name = "SECONDS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
}

/// How a long search keeps what it proves and bounds its memory.
#[derive(Args)]
pub struct Keeping {
    /// Keep what the search proves in this file as it runs (every --every seconds and at
    /// the end), and go on from it when it exists
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    #[command(flatten)]
    pub every: Every,
    /// Keep the search's facts within about this many gigabytes (forgetting those about
    /// the smallest sets past it)
    #[arg(long, value_name = "GB", value_parser = gigabytes)]
    pub memory: Option<u64>,
    /// Stop after this many seconds with the bounds proved so far (a checkpoint keeps
    /// them)
    #[arg(long, value_name = "SECONDS")]
    pub budget: Option<u64>,
    /// Hide the progress bar and the timings
    #[arg(long)]
    pub quiet: bool,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

impl Keeping {
    /// What the search reads (the facts files, and the checkpoint when it exists) and
    /// writes.
    fn keep(&self, facts: &[PathBuf]) -> Keep {
        let mut read = facts.to_vec();
        if let Some(c) = self.checkpoint.as_ref().filter(|c| c.exists()) {
            read.push(c.clone());
        }
        Keep {
            read,
            write: self.checkpoint.clone(),
            every: Some(Duration::from_secs(self.every.every)),
            memory: self.memory,
        }
    }

    fn budget(&self) -> Option<Duration> {
        self.budget.map(Duration::from_secs)
    }
}

/// `optimum`.
#[derive(Args)]
pub struct OptimumArgs {
    #[command(flatten)]
    pub aim: Aim,
    /// Minimise the worst case, then the number of secrets that need it
    #[arg(long, conflicts_with = "worst")]
    pub fewest_at_worst: bool,
    /// Start from the facts in this file (a checkpoint or a job's result); may be repeated
    #[arg(long, value_name = "FILE")]
    pub facts: Vec<PathBuf>,
    #[command(flatten)]
    pub keeping: Keeping,
}

/// `optimum-plan`.
#[derive(Args)]
pub struct PlanArgs {
    #[command(flatten)]
    pub aim: Aim,
    /// The folder the jobs write their results and checkpoints to
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub folder: PathBuf,
    /// The program the rules run
    #[arg(long, value_name = "PATH", default_value = "tabula")]
    pub program: String,
    #[command(flatten)]
    pub every: Every,
}

/// `optimum-build`.
#[derive(Args)]
pub struct BuildArgs {
    /// The first guess whose class this job solves
    #[arg(long, value_name = "CODE")]
    pub first: String,
    /// The reply to the first guess that names the class
    #[arg(long, value_name = "REPLY")]
    pub reply: String,
    /// Only find whether the class's value is at most this (the plan's limit)
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub aim: Aim,
    /// Write what the job proved to this file once it is done
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub keeping: Keeping,
}

/// The engine of the exact strategies on `rules`.
fn engine(rules: Rules) -> Result<Engine> {
    Ok(Engine::new(rules, Strategy::Optimal)?)
}

/// A number of gigabytes (`4`, `0.5`) as bytes.
fn gigabytes(text: &str) -> std::result::Result<u64, String> {
    match text.parse::<f64>() {
        Ok(g) if g > 0.0 && g < 1e6 => Ok((g * 1e9) as u64),
        _ => Err(format!("{text:?} is not a number of gigabytes above 0")),
    }
}

/// `optimum`.
pub fn optimum(rules: Rules, o: &OptimumArgs) -> Result<()> {
    let engine = engine(rules)?;
    let start = Instant::now();
    let k = &o.keeping;
    let bars = Bars::new(k.quiet || k.json);
    let r = solve_root_keeping(
        &engine,
        o.aim.hard,
        o.aim.objective(o.fewest_at_worst),
        k.budget(),
        &k.keep(&o.facts),
        bars.progress(),
    );
    drop(bars);
    let r = r?;
    let seconds = start.elapsed().as_secs_f64();
    if !k.quiet {
        diag(&format!(
            "search time: {seconds:.1} s, {} nodes, {} memo entries",
            r.stats.nodes, r.stats.memo
        ));
        for c in &r.per_class {
            let unsolved = if c.lower == c.upper {
                ""
            } else {
                " (unsolved)"
            };
            diag(&format!(
                "class of {:>4}: {:.1} s{unsolved}",
                c.size,
                c.time.as_secs_f64()
            ));
        }
    }
    let report = OptimumReport::of_root(&engine.space, o.aim.hard, &r);
    if k.json {
        return emit_sorted(&report);
    }
    emit(&render_optimum(&report, &r))
}

fn render_optimum(report: &OptimumReport, r: &RootReport) -> String {
    let what = match (r.objective, r.worst) {
        (Objective::Worst, _) => "worst case".to_string(),
        (Objective::FewestAtWorst, Some(w)) => {
            format!("worst case {w}, then fewest secrets needing guess {w}")
        }
        _ => "total".to_string(),
    };
    let mut out = format!(
        "exact search, {}{}, least {what}: ",
        describe(&report.variant),
        if report.hard { ", hard mode" } else { "" }
    );
    if report.exact {
        let _ = write!(out, "{} (proved optimal)", report.lower);
    } else {
        let _ = write!(
            out,
            "between {} and {} (budget ran out: {} of {} classes solved)",
            report.lower, report.upper, report.solved_classes, report.classes
        );
    }
    if let Some(m) = &report.means {
        let _ = write!(out, "\nmean     {}", mean_text(&m.mean_lower_exact));
        if !report.exact {
            let _ = write!(out, " .. {}", mean_text(&m.mean_upper_exact));
        }
    }
    out.push('\n');
    if report.first_guesses.len() > 1 {
        out.push_str("\nfirst guess (one per pattern)     lower   upper\n");
        for f in &report.first_guesses {
            let upper = f.upper.map_or("-".to_string(), |u| u.to_string());
            let _ = writeln!(out, "{:>27}  {:>6}  {:>6}", f.guess, f.lower, upper);
        }
    }
    let _ = writeln!(
        out,
        "\nclass below {:<15} lower   upper",
        report.first_guess
    );
    for c in &r.per_class {
        let _ = writeln!(
            out,
            "{:>27}  {:>6}  {:>6}",
            format!("{} candidates", c.size),
            c.lower,
            c.upper
        );
    }
    out
}

/// The words that run `command` on the game of `rules` (`numeron optimum-build --digits
/// 4`, `mastermind optimum --pegs 5 --colours 6`).
fn game_command(rules: Rules, command: &str) -> String {
    match rules.notation() {
        numeron::rules::Notation::Numeron => format!(
            "numeron {command} --digits {}{}{}",
            rules.digits,
            if rules.repeats { " --repeats" } else { "" },
            if rules.alphabet == 10 {
                String::new()
            } else {
                format!(" --symbols {}", rules.alphabet)
            }
        ),
        numeron::rules::Notation::Mastermind => format!(
            "mastermind {command} --pegs {} --colours {}",
            rules.digits, rules.alphabet
        ),
    }
}

/// `optimum-plan`: a Makefile, one rule a job and one combining their results.
pub fn plan(rules: Rules, a: &PlanArgs) -> Result<()> {
    let engine = engine(rules)?;
    let (worst, hard) = (a.aim.worst, a.aim.hard);
    let bars = Bars::new(false);
    bars.progress().start("planning the jobs", None);
    let plan = jobs::plan(&engine, hard, a.aim.objective(false));
    drop(bars);
    let plan = plan?;
    let flags = format!(
        "{}{}",
        if worst { " --worst" } else { "" },
        if hard { " --hard" } else { "" }
    );
    let space = &engine.space;
    let folder = a.folder.display().to_string();
    let path = |u: &Unit| {
        format!(
            "{folder}/unit-{}-{}.tbl",
            space.format(u.first),
            u.reply.written(space.notation())
        )
    };
    let what = format!(
        "{}{}, least {}",
        describe(&Variant::of(rules)),
        if hard { ", hard mode" } else { "" },
        if worst { "worst case" } else { "total" }
    );
    let mut out = format!(
        "# The exact optimum of {what}, split into {} jobs, one a class below a first guess.\n\
         # Each job writes what it proved to its file; the last rule solves the optimum from\n\
         # them all. Run with `make -j N -f FILE`, or hand the jobs (independent of each other)\n\
         # to a batch scheduler, then run the last rule. A job stopped before it is done goes on\n\
         # from its checkpoint (FILE.part) when run again.\n\
         # First guess solved exactly: {} (its heuristic value {}).\n",
        plan.units.len(),
        space.format(plan.first),
        plan.heuristic
    );
    for (g, floor) in &plan.refuted {
        let _ = writeln!(
            out,
            "# First guess {} refuted by its probes alone: at least {floor}.",
            space.format(*g)
        );
    }
    let _ = write!(
        out,
        "TABULA ?= {}\n\nall: {folder}/optimum.txt\n\n.PHONY: all\n.DELETE_ON_ERROR:\n\n{folder}/optimum.txt:",
        a.program
    );
    for u in &plan.units {
        let _ = write!(out, " \\\n  {}", path(u));
    }
    let _ = writeln!(
        out,
        "\n\t$(TABULA) {}{flags} --quiet $(addprefix --facts ,$^) > $@",
        game_command(rules, "optimum")
    );
    for u in &plan.units {
        let limit = u.limit.map(|l| format!(" --limit {l}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "\n{}:\n\t$(TABULA) {} --first {} --reply {}{limit}{flags} --out $@ --checkpoint $@.part --every {} --quiet",
            path(u),
            game_command(rules, "optimum-build"),
            space.format(u.first),
            u.reply.written(space.notation()),
            a.every.every
        );
    }
    emit(&out)
}

/// What `optimum-build --json` writes.
#[derive(Serialize)]
struct BuildReport {
    first: String,
    reply: String,
    size: usize,
    limit: Option<u64>,
    lower: u64,
    upper: Option<u64>,
    settled: bool,
}

/// `optimum-build`: one job of the plan.
pub fn build(rules: Rules, a: &BuildArgs) -> Result<()> {
    let engine = engine(rules)?;
    let space = &engine.space;
    let first = space.parse(&a.first)?;
    let reply = Answer::parse_in(&a.reply, space.digits(), space.notation())?;
    let unit = Unit {
        first,
        reply,
        size: 0,
        limit: a.limit,
    };
    let k = &a.keeping;
    let bars = Bars::new(k.quiet || k.json);
    let r = jobs::solve_unit(
        &engine,
        a.aim.hard,
        a.aim.objective(false),
        &unit,
        k.budget(),
        &k.keep(&[]),
        Some(&a.out),
        bars.progress(),
    );
    drop(bars);
    let r: UnitReport = r?;
    if !r.settled {
        return Err(numeron::Error::OutOfTime.into());
    }
    let report = BuildReport {
        first: space.format(r.unit.first),
        reply: r.unit.reply.written(space.notation()),
        size: r.unit.size,
        limit: r.unit.limit,
        lower: r.lower,
        upper: r.upper,
        settled: r.settled,
    };
    if !k.quiet {
        diag(&format!("job time: {:.1} s", r.time.as_secs_f64()));
    }
    if k.json {
        return emit_sorted(&report);
    }
    let value = match (r.upper, r.unit.limit) {
        (Some(u), _) if u == r.lower => format!("{u}"),
        (_, Some(l)) => format!("above {l} (at least {})", r.lower),
        _ => format!("between {} and {}", r.lower, r.upper.unwrap_or(r.lower)),
    };
    emit(&format!(
        "job {} {} ({} candidates): {value}; facts written to {}",
        report.first,
        report.reply,
        report.size,
        a.out.display()
    ))
}
