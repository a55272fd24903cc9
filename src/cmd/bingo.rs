//! `tabula bingo exact|verify|simulate|plot`: parse, call [`tabula::bingo`], print.

use super::{emit, emit_json};
use clap::{Args, Subcommand, ValueEnum};
use num_rational::BigRational;
use serde_json::{json, Value};
use std::path::PathBuf;
use tabula::bingo::formula::{compare, formula_cdf, Gap};
use tabula::bingo::players::{self, Cards, Players, UsModel};
use tabula::bingo::players_sim::simulate_players;
use tabula::bingo::plot::{write_svg, Series};
use tabula::bingo::simulate::simulate;
use tabula::bingo::stats::{chi_square, sample_mean, wilson95};
use tabula::bingo::{self, exact_law, orders, Card, Law, Method, Pattern};
use tabula::{Error, Result};

#[derive(Subcommand)]
pub enum GameCmd {
    /// The exact law of T (calls until the card wins), beside the seed's formula; or, with
    /// --players, the law of the first winning call among K cards
    Exact {
        #[command(flatten)]
        card: CardArgs,
        /// How the winning subsets are counted
        #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
        method: MethodArg,
        #[command(flatten)]
        players: PlayerArgs,
        /// No progress spinner
        #[arg(long)]
        quiet: bool,
        #[arg(long)]
        json: bool,
    },
    /// The seed's check: every call order of the 3×3 card (8! = 40,320 with M = 8) against
    /// the exact law
    Verify {
        #[command(flatten)]
        card: SmallCardArgs,
        #[arg(long)]
        json: bool,
    },
    /// Monte Carlo games, seeded and reproducible, tested against the exact law
    Simulate {
        #[command(flatten)]
        card: CardArgs,
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        players: PlayerArgs,
        #[arg(long)]
        json: bool,
    },
    /// Draw the exact law, the seed's formula and a simulation as an SVG (the seed's figure)
    Plot {
        #[command(flatten)]
        card: CardArgs,
        #[command(flatten)]
        run: RunArgs,
        /// Where to write the SVG
        #[arg(long, short, default_value = "bingo.svg")]
        output: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

/// The card and the drum.
#[derive(Args, Clone)]
pub struct CardArgs {
    /// Card side: 3, 4, 5 or 7
    #[arg(long, default_value_t = 5)]
    size: usize,
    /// Numbers in the drum, 1..=M (default 15 per column: 75 on 5×5)
    #[arg(long)]
    max: Option<u64>,
    /// line, reach, double, triple, blackout, corners or hardway
    #[arg(long, default_value = "line")]
    pattern: Pattern,
    /// No free centre: every square holds a number
    #[arg(long)]
    no_free: bool,
}

/// The card for the exhaustive check of call orders.
#[derive(Args, Clone)]
pub struct SmallCardArgs {
    /// Card side (only 3: larger cards have too many orders)
    #[arg(long, default_value_t = 3)]
    size: usize,
    /// line, reach, double, triple, blackout, corners or hardway
    #[arg(long, default_value = "line")]
    pattern: Pattern,
    /// No free centre (9! = 362,880 orders)
    #[arg(long)]
    no_free: bool,
}

/// Several players.
#[derive(Args, Clone)]
pub struct PlayerArgs {
    /// Number of cards sharing one sequence of calls
    #[arg(long)]
    players: Option<u32>,
    /// us (column ranges; default on 5×5 with 75) or uniform
    #[arg(long)]
    cards: Option<Cards>,
}

/// A simulation run.
#[derive(Args, Clone)]
pub struct RunArgs {
    /// Number of games
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Seed (same seed, same output, at any thread count)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores)
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar
    #[arg(long)]
    quiet: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum MethodArg {
    Auto,
    Enumerate,
    InclusionExclusion,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Auto => Method::Auto,
            MethodArg::Enumerate => Method::Enumerate,
            MethodArg::InclusionExclusion => Method::InclusionExclusion,
        }
    }
}

impl CardArgs {
    fn build(&self) -> Result<(Card, u64)> {
        let card = Card::new(self.size, !self.no_free)?;
        let max = self.max.unwrap_or(15 * self.size as u64);
        bingo::check_drum(&card, max)?;
        Ok((card, max))
    }

    fn describe(&self, card: &Card, max: u64) -> String {
        let s = card.size();
        let free = if card.free() {
            "free centre"
        } else {
            "no free square"
        };
        format!(
            "{s}×{s} card, {free}, numbers 1..={max}, pattern {}",
            self.pattern
        )
    }
}

pub fn run(cmd: GameCmd) -> Result<()> {
    match cmd {
        GameCmd::Exact {
            card,
            method,
            players,
            quiet,
            json,
        } => {
            let spinner = tabula::progress::spinner("computing", quiet || json);
            spinner.enable_steady_tick(std::time::Duration::from_millis(120));
            let out = exact(&card, method.into(), &players, json);
            spinner.finish_and_clear();
            match out? {
                Out::Text(text) => emit(&text),
                Out::Json(doc) => emit_json(&doc),
            }
        }
        GameCmd::Verify { card, json } => verify(&card, json),
        GameCmd::Simulate {
            card,
            run,
            players,
            json,
        } => with_threads(run.threads, || simulate_cmd(&card, &run, &players, json)),
        GameCmd::Plot {
            card,
            run,
            output,
            json,
        } => with_threads(run.threads, || plot(&card, &run, &output, json)),
    }
}

/// What a command prints, held back until its spinner is cleared.
enum Out {
    Text(String),
    Json(Value),
}

fn with_threads(threads: Option<usize>, f: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    match threads {
        None => f(),
        Some(t) if t == 0 || t > 1024 => Err(Error::input(format!(
            "--threads must be between 1 and 1024, got {t}"
        ))),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|e| Error::failure(format!("could not start {t} threads: {e}")))?
            .install(f),
    }
}

fn frac(q: &BigRational) -> String {
    q.to_string()
}

fn prob(p: f64) -> String {
    format!("{p:.9}")
}

/// Right-aligned columns under a header.
fn align(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        cells
            .iter()
            .zip(&width)
            .map(|(c, &w)| format!("{c:>w$}"))
            .collect::<Vec<_>>()
            .join("  ")
    };
    let mut out = vec![line(header.to_vec())];
    out.extend(
        rows.iter()
            .map(|r| line(r.iter().map(String::as_str).collect())),
    );
    out.join("\n")
}

/// The `n` worth showing: from the first possible win to the last call with P(T = n) > 0.
fn support(law: &Law) -> std::ops::RangeInclusive<usize> {
    let first = (0..=law.max()).find(|&n| law.p(n) > 0.0).unwrap_or(0);
    let last = (0..=law.max())
        .rev()
        .find(|&n| law.p(n) > 0.0)
        .unwrap_or(law.max());
    first..=last
}

fn summary_json(law: &Law) -> Value {
    let pct: serde_json::Map<String, Value> = [1, 5, 10, 25, 50, 75, 90, 95, 99]
        .iter()
        .map(|&q| (q.to_string(), json!(law.percentile(q))))
        .collect();
    json!({
        "mean": law.mean(),
        "mean_exact": law.mean_exact().as_ref().map(frac),
        "median": law.median(),
        "mode": law.mode(),
        "percentiles": pct,
    })
}

fn summary_text(law: &Law) -> String {
    let exact = law
        .mean_exact()
        .map(|m| format!(" = {}", frac(&m)))
        .unwrap_or_default();
    let pct: Vec<String> = [5, 25, 50, 75, 95]
        .iter()
        .map(|&q| format!("{q}%: {}", law.percentile(q)))
        .collect();
    format!(
        "mean {:.6}{exact}\nmedian {}, mode {}; percentiles {}",
        law.mean(),
        law.median(),
        law.mode(),
        pct.join(", ")
    )
}

fn exact(args: &CardArgs, method: Method, players: &PlayerArgs, json: bool) -> Result<Out> {
    let (card, max) = args.build()?;
    if let Some(k) = players.players {
        return exact_players(args, &card, max, k, players.cards, json);
    }
    if players.cards.is_some() {
        return Err(Error::input("--cards needs --players K"));
    }
    let w = bingo::winning_subsets(&card, args.pattern, method)?;
    let law = Law::from_counts(&card, max, &w);
    let method_name = match method {
        Method::Enumerate => "enumerate",
        Method::InclusionExclusion => "inclusion-exclusion",
        Method::Auto if card.groups(args.pattern).is_some() => "inclusion-exclusion",
        Method::Auto => "enumerate",
    };
    // The seed's formula is about full lines only.
    let formula = (args.pattern == Pattern::Line).then(|| formula_cdf(&card, max));
    let gap: Option<Gap> = formula.as_ref().map(|f| compare(f, &law));
    let fp = |n: usize| {
        formula
            .as_ref()
            .map(|f| f[n] - if n == 0 { 0.0 } else { f[n - 1] })
    };
    if json {
        let dist: Vec<Value> = (0..=law.max())
            .map(|n| {
                let mut row = json!({
                    "n": n,
                    "p": law.p(n),
                    "p_exact": law.p_exact(n).as_ref().map(frac),
                    "cdf": law.cdf[n],
                    "cdf_exact": law.cdf_exact.as_ref().map(|c| frac(&c[n])),
                });
                if let (Some(f), Some(p)) = (&formula, fp(n)) {
                    row["formula_p"] = json!(p);
                    row["formula_cdf"] = json!(f[n]);
                }
                row
            })
            .collect();
        let mut doc = summary_json(&law);
        doc["size"] = json!(card.size());
        doc["free"] = json!(card.free());
        doc["max"] = json!(max);
        doc["pattern"] = json!(args.pattern.name());
        doc["method"] = json!(method_name);
        doc["winning_subsets"] = json!(w);
        doc["distribution"] = json!(dist);
        if let Some(g) = gap {
            doc["formula"] = json!({
                "mean": g.mean,
                "max_p_error": g.pmf_error, "max_p_error_at": g.pmf_at,
                "max_cdf_error": g.cdf_error, "max_cdf_error_at": g.cdf_at,
            });
        }
        return Ok(Out::Json(doc));
    }
    let mut header = vec!["n", "P(T = n)", "P(T ≤ n)"];
    if formula.is_some() {
        header.extend(["formula P(T = n)", "formula P(T ≤ n)"]);
    }
    header.push("P(T = n) exact");
    let rows: Vec<Vec<String>> = support(&law)
        .map(|n| {
            let mut row = vec![n.to_string(), prob(law.p(n)), prob(law.cdf[n])];
            if let (Some(f), Some(p)) = (&formula, fp(n)) {
                row.extend([prob(p), prob(f[n])]);
            }
            row.push(law.p_exact(n).as_ref().map(frac).unwrap_or_default());
            row
        })
        .collect();
    let mut text = format!(
        "bingo exact: {} (method {method_name})\n{}\n\n{}",
        args.describe(&card, max),
        summary_text(&law),
        align(&header, &rows)
    );
    if let Some(g) = gap {
        text += &format!(
            "\n\nthe seed's formula: mean {:.6} (exact {:.6}); largest error {:.6} in P(T = n) at n = {}, \
             {:.6} in P(T ≤ n) at n = {}",
            g.mean,
            law.mean(),
            g.pmf_error,
            g.pmf_at,
            g.cdf_error,
            g.cdf_at
        );
    }
    Ok(Out::Text(text))
}

fn players_law(card: &Card, pattern: Pattern, max: u64, k: u32, cards: Cards) -> Result<Players> {
    match cards {
        Cards::Us => UsModel::new(card, pattern, max)?.players(k),
        Cards::Uniform => players::uniform(&exact_law(card, pattern, max, Method::Auto)?, k),
    }
}

fn exact_players(
    args: &CardArgs,
    card: &Card,
    max: u64,
    k: u32,
    cards: Option<Cards>,
    json: bool,
) -> Result<Out> {
    let cards = cards.unwrap_or_else(|| players::default_cards(card, max));
    let result = players_law(card, args.pattern, max, k, cards)?;
    let law = &result.first;
    // For US cards, how far off the uniform shortcut 1 − (1 − F)^K is.
    let shortcut = if cards == Cards::Us {
        let uni = players::uniform(&exact_law(card, args.pattern, max, Method::Auto)?, k)?;
        let gap = compare(&uni.first.cdf, law);
        let (err, at) = (gap.cdf_error, gap.cdf_at);
        Some((uni.first.mean(), err, at, uni.first.cdf))
    } else {
        None
    };
    if json {
        let dist: Vec<Value> = (0..=law.max())
            .map(|n| {
                json!({
                    "n": n,
                    "p": law.p(n),
                    "p_exact": law.p_exact(n).as_ref().map(frac),
                    "cdf": law.cdf[n],
                    "shared": result.shared[n],
                    "shared_exact": result.shared_exact.as_ref().map(|s| frac(&s[n])),
                })
            })
            .collect();
        let mut doc = summary_json(law);
        doc["size"] = json!(card.size());
        doc["free"] = json!(card.free());
        doc["max"] = json!(max);
        doc["pattern"] = json!(args.pattern.name());
        doc["players"] = json!(k);
        doc["cards"] = json!(cards.to_string());
        doc["exact"] = json!(law.cdf_exact.is_some());
        doc["shared"] = json!(result.shared_total());
        doc["shared_exact"] = json!(result.shared_total_exact().as_ref().map(frac));
        doc["distribution"] = json!(dist);
        if let Some((mean, err, at, _)) = &shortcut {
            doc["shortcut"] = json!({"mean": mean, "max_cdf_error": err, "max_cdf_error_at": at});
        }
        return Ok(Out::Json(doc));
    }
    let exactness = if law.cdf_exact.is_some() {
        "exact fractions"
    } else if k <= players::EXACT_PLAYERS {
        "floats from the exact formula; fractions are not kept for a drum this large"
    } else {
        "floats from the exact formula; fractions only for K ≤ 3"
    };
    let shared_exact = result
        .shared_total_exact()
        .map(|q| format!(" = {}", frac(&q)))
        .unwrap_or_default();
    let mut header = vec![
        "n",
        "P(first win = n)",
        "P(first win ≤ n)",
        "P(shared win at n)",
    ];
    if shortcut.is_some() {
        header.push("shortcut P(first win ≤ n)");
    }
    let rows: Vec<Vec<String>> = support(law)
        .map(|n| {
            let mut row = vec![
                n.to_string(),
                prob(law.p(n)),
                prob(law.cdf[n]),
                prob(result.shared[n]),
            ];
            if let Some((_, _, _, cdf)) = &shortcut {
                row.push(prob(cdf[n]));
            }
            row
        })
        .collect();
    let mut text = format!(
        "bingo exact: {k} players, {cards} cards; {} ({exactness})\n{}\nP(the first win is shared) {:.9}{shared_exact}\n\n{}",
        args.describe(card, max),
        summary_text(law),
        result.shared_total(),
        align(&header, &rows)
    );
    if let Some((mean, err, at, _)) = &shortcut {
        text += &format!(
            "\n\nthe uniform-card shortcut 1 − (1 − F)^K: mean {mean:.6}; largest error {err:.6} in \
             P(first win ≤ n) at n = {at}"
        );
    }
    Ok(Out::Text(text))
}

fn verify(args: &SmallCardArgs, json: bool) -> Result<()> {
    let card = Card::new(args.size, !args.no_free)?;
    let found = orders::all_orders(&card, args.pattern)?;
    let by_orders = found.law();
    let m = card.numbered() as u64;
    let exact = exact_law(&card, args.pattern, m, Method::Enumerate)?;
    let agrees = by_orders == exact;
    if json {
        let dist: Vec<Value> = (0..=by_orders.max())
            .map(|n| {
                json!({
                    "n": n,
                    "orders": found.counts[n],
                    "p": by_orders.p(n),
                    "p_exact": by_orders.p_exact(n).as_ref().map(frac),
                    "cdf": by_orders.cdf[n],
                    "enumeration_p_exact": exact.p_exact(n).as_ref().map(frac),
                })
            })
            .collect();
        let mut doc = summary_json(&by_orders);
        doc["size"] = json!(card.size());
        doc["free"] = json!(card.free());
        doc["max"] = json!(m);
        doc["pattern"] = json!(args.pattern.name());
        doc["orders"] = json!(found.orders);
        doc["agrees"] = json!(agrees);
        doc["distribution"] = json!(dist);
        emit_json(&doc)?;
    } else {
        let header = [
            "n",
            "orders",
            "P(T = n) by orders",
            "P(T = n) by subsets",
            "same",
        ];
        let rows: Vec<Vec<String>> = support(&by_orders)
            .map(|n| {
                let a = by_orders.p_exact(n).unwrap_or_default();
                let b = exact.p_exact(n).unwrap_or_default();
                let same = if a == b { "yes" } else { "NO" };
                vec![
                    n.to_string(),
                    found.counts[n].to_string(),
                    frac(&a),
                    frac(&b),
                    same.into(),
                ]
            })
            .collect();
        let s = card.size();
        emit(&format!(
            "bingo verify: {s}×{s} card, numbers 1..={m}, pattern {}: {} call orders\n{}\n\n{}\n\n{}",
            args.pattern,
            found.orders,
            summary_text(&by_orders),
            align(&header, &rows),
            if agrees {
                "every call order agrees with the exact law by subset enumeration"
            } else {
                "DISAGREEMENT between call orders and subset enumeration"
            }
        ))?;
    }
    if agrees {
        Ok(())
    } else {
        Err(Error::failure(
            "the call orders disagree with the exact law",
        ))
    }
}

/// Most games one run accepts (about a day of simulation).
const MAX_GAMES: u64 = 1_000_000_000_000;

fn check_games(games: u64) -> Result<()> {
    if games == 0 || games > MAX_GAMES {
        return Err(Error::input(format!(
            "--games must be between 1 and {MAX_GAMES}, got {games}"
        )));
    }
    Ok(())
}

fn simulate_cmd(args: &CardArgs, run: &RunArgs, players: &PlayerArgs, json: bool) -> Result<()> {
    let (card, max) = args.build()?;
    check_games(run.games)?;
    if let Some(k) = players.players {
        return simulate_players_cmd(args, &card, max, run, k, players.cards, json);
    }
    let bar = tabula::progress::bar(run.games, "games", run.quiet || json);
    let started = std::time::Instant::now();
    let sample = simulate(&card, args.pattern, max, run.games, run.seed, &|n| {
        bar.inc(n)
    })?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if !run.quiet {
        eprintln!(
            "{} games in {seconds:.3} s ({:.0} games/s)",
            run.games,
            run.games as f64 / seconds
        );
    }
    // The exact law, where one of the exact methods reaches.
    let exact = exact_law(&card, args.pattern, max, Method::Auto).ok();
    let probs: Option<Vec<f64>> = exact
        .as_ref()
        .map(|l| (0..=l.max()).map(|n| l.p(n)).collect());
    let chi = probs.as_ref().map(|p| chi_square(&sample.counts, p));
    let g = run.games as f64;
    let mean = sample_mean(&sample.counts);
    if json {
        let dist: Vec<Value> = (0..=max as usize)
            .map(|n| {
                let (lo, hi) = wilson95(sample.counts[n], run.games);
                let mut row = json!({
                    "n": n, "count": sample.counts[n], "p": sample.counts[n] as f64 / g,
                    "low": lo, "high": hi,
                });
                if let Some(l) = &exact {
                    row["exact_p"] = json!(l.p(n));
                    row["exact_p_exact"] = json!(l.p_exact(n).as_ref().map(frac));
                }
                row
            })
            .collect();
        let mut doc = json!({
            "size": card.size(), "free": card.free(), "max": max, "pattern": args.pattern.name(),
            "games": run.games, "seed": run.seed, "mean": mean, "distribution": dist,
        });
        if let (Some(c), Some(l)) = (chi, &exact) {
            doc["exact_mean"] = json!(l.mean());
            doc["chi_square"] = json!({"statistic": c.statistic, "df": c.df, "p_value": c.p_value});
        }
        return emit_json(&doc);
    }
    let header = [
        "n",
        "games",
        "P(T = n) sampled",
        "95% low",
        "95% high",
        "exact P(T = n)",
    ];
    let last = (0..=max as usize)
        .rev()
        .find(|&n| sample.counts[n] > 0)
        .unwrap_or(0);
    let first = (0..=max as usize)
        .find(|&n| sample.counts[n] > 0)
        .unwrap_or(0);
    let first = exact
        .as_ref()
        .map_or(first, |l| first.min(*support(l).start()));
    let rows: Vec<Vec<String>> = (first..=last)
        .map(|n| {
            let (lo, hi) = wilson95(sample.counts[n], run.games);
            vec![
                n.to_string(),
                sample.counts[n].to_string(),
                prob(sample.counts[n] as f64 / g),
                prob(lo),
                prob(hi),
                exact
                    .as_ref()
                    .map(|l| prob(l.p(n)))
                    .unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let verdict = match (chi, &exact) {
        (Some(c), Some(l)) => format!(
            "sample mean {mean:.6}, exact {:.6}; chi-square against the exact law: {:.2} on {} df, p-value {:.4}",
            l.mean(),
            c.statistic,
            c.df,
            c.p_value
        ),
        _ => format!("sample mean {mean:.6} (no exact law for this card and pattern)"),
    };
    emit(&format!(
        "bingo simulate: {}; {} games, seed {}\n\n{}\n\n{verdict}",
        args.describe(&card, max),
        run.games,
        run.seed,
        align(&header, &rows)
    ))
}

fn simulate_players_cmd(
    args: &CardArgs,
    card: &Card,
    max: u64,
    run: &RunArgs,
    k: u32,
    cards: Option<Cards>,
    json: bool,
) -> Result<()> {
    let cards = cards.unwrap_or_else(|| players::default_cards(card, max));
    let bar = tabula::progress::bar(run.games, "games", run.quiet || json);
    let sample = simulate_players(
        card,
        args.pattern,
        max,
        cards,
        k,
        run.games,
        run.seed,
        &|n| bar.inc(n),
    )?;
    bar.finish_and_clear();
    let exact = players_law(card, args.pattern, max, k, cards).ok();
    let g = run.games as f64;
    let chi = exact.as_ref().map(|e| {
        chi_square(
            &sample.first,
            &(0..=max as usize).map(|n| e.first.p(n)).collect::<Vec<_>>(),
        )
    });
    let shared_hits: u64 = sample.shared.iter().sum();
    let (slo, shi) = wilson95(shared_hits, run.games);
    let mean = sample_mean(&sample.first);
    if json {
        let dist: Vec<Value> = (0..=max as usize)
            .map(|n| {
                let (lo, hi) = wilson95(sample.first[n], run.games);
                let mut row = json!({"n": n, "count": sample.first[n], "p": sample.first[n] as f64 / g,
                    "low": lo, "high": hi, "shared_count": sample.shared[n]});
                if let Some(e) = &exact {
                    row["exact_p"] = json!(e.first.p(n));
                }
                row
            })
            .collect();
        let mut doc = json!({
            "size": card.size(), "free": card.free(), "max": max, "pattern": args.pattern.name(),
            "players": k, "cards": cards.to_string(), "games": run.games, "seed": run.seed,
            "mean": mean, "shared": shared_hits as f64 / g, "shared_low": slo, "shared_high": shi,
            "distribution": dist,
        });
        if let (Some(c), Some(e)) = (chi, &exact) {
            doc["exact_mean"] = json!(e.first.mean());
            doc["exact_shared"] = json!(e.shared_total());
            doc["chi_square"] = json!({"statistic": c.statistic, "df": c.df, "p_value": c.p_value});
        }
        return emit_json(&doc);
    }
    let header = [
        "n",
        "games",
        "P(first win = n) sampled",
        "95% low",
        "95% high",
        "exact",
    ];
    let rows: Vec<Vec<String>> = (0..=max as usize)
        .filter(|&n| sample.first[n] > 0)
        .map(|n| {
            let (lo, hi) = wilson95(sample.first[n], run.games);
            vec![
                n.to_string(),
                sample.first[n].to_string(),
                prob(sample.first[n] as f64 / g),
                prob(lo),
                prob(hi),
                exact
                    .as_ref()
                    .map(|e| prob(e.first.p(n)))
                    .unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let verdict = match (chi, &exact) {
        (Some(c), Some(e)) => format!(
            "sample mean {mean:.6}, exact {:.6}; shared first win {:.6} [{slo:.6}, {shi:.6}], exact {:.6}\n\
             chi-square against the exact law: {:.2} on {} df, p-value {:.4}",
            e.first.mean(),
            shared_hits as f64 / g,
            e.shared_total(),
            c.statistic,
            c.df,
            c.p_value
        ),
        _ => format!("sample mean {mean:.6}, shared first win {:.6}", shared_hits as f64 / g),
    };
    emit(&format!(
        "bingo simulate: {k} players, {cards} cards; {}; {} games, seed {}\n\n{}\n\n{verdict}",
        args.describe(card, max),
        run.games,
        run.seed,
        align(&header, &rows)
    ))
}

fn plot(args: &CardArgs, run: &RunArgs, output: &PathBuf, json: bool) -> Result<()> {
    let (card, max) = args.build()?;
    check_games(run.games)?;
    let exact = exact_law(&card, args.pattern, max, Method::Auto)?;
    let range = support(&exact);
    let mut series = vec![Series {
        label: "exact".into(),
        points: range.clone().map(|n| (n as f64, exact.p(n))).collect(),
    }];
    if args.pattern == Pattern::Line {
        let f = formula_cdf(&card, max);
        series.push(Series {
            label: "seed's formula".into(),
            points: range
                .clone()
                .map(|n| (n as f64, f[n] - if n == 0 { 0.0 } else { f[n - 1] }))
                .collect(),
        });
    }
    let bar = tabula::progress::bar(run.games, "games", run.quiet || json);
    let sample = simulate(&card, args.pattern, max, run.games, run.seed, &|n| {
        bar.inc(n)
    })?;
    bar.finish_and_clear();
    series.push(Series {
        label: format!("simulation, {} games", run.games),
        points: range
            .map(|n| (n as f64, sample.counts[n] as f64 / run.games as f64))
            .collect(),
    });
    let s = card.size();
    let title = format!("bingo {s}×{s}, 1..={max}, {}: P(T = n)", args.pattern);
    write_svg(output, &title, &series)?;
    if json {
        emit_json(&json!({
            "path": output,
            "series": series.iter().map(|s| json!({"label": s.label, "points": s.points})).collect::<Vec<_>>(),
        }))
    } else {
        emit(&format!(
            "wrote {} ({} curves)",
            output.display(),
            series.len()
        ))
    }
}
