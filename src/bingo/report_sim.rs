//! The reports of the simulations: `tabula bingo simulate` (one card or several players)
//! and `tabula bingo plot`, each beside the exact law it is tested against.

use super::formula::formula_cdf;
use super::players::{self, Cards};
use super::players_sim::simulate_players;
use super::plot::{write_svg, Series};
use super::report::{align, frac, players_law, prob, support, Report, Run, Setup};
use super::simulate::simulate;
use super::stats::{chi_square, sample_mean, wilson95};
use super::{exact_law, Method, Pattern};
use crate::{Error, Result};
use serde_json::{json, Value};
use std::path::Path;

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

/// `tabula bingo simulate`: Monte Carlo games, tested against the exact law.
pub fn simulate_report(setup: &Setup, run: &Run, json: bool) -> Result<Report> {
    let (card, max, args) = (&setup.card, setup.max, setup);
    check_games(run.games)?;
    let bar = crate::progress::bar(run.games, "games", run.quiet || json);
    let sample = simulate(card, args.pattern, max, run.games, run.seed, &|n| {
        bar.inc(n)
    })?;
    bar.finish_and_clear();
    // The exact law, where one of the exact methods reaches.
    let exact = exact_law(card, args.pattern, max, Method::Auto).ok();
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
        return Ok(Report::Json(doc));
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
    Ok(Report::Text(format!(
        "bingo simulate: {}; {} games, seed {}\n\n{}\n\n{verdict}",
        args.describe(),
        run.games,
        run.seed,
        align(&header, &rows)
    )))
}

/// `tabula bingo simulate --players K`: dealt cards, tested against the exact law.
pub fn simulate_players_report(
    setup: &Setup,
    run: &Run,
    k: u32,
    cards: Option<Cards>,
    json: bool,
) -> Result<Report> {
    let (card, max, args) = (&setup.card, setup.max, setup);
    check_games(run.games)?;
    let cards = cards.unwrap_or_else(|| players::default_cards(card, max));
    let bar = crate::progress::bar(run.games, "games", run.quiet || json);
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
        return Ok(Report::Json(doc));
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
    Ok(Report::Text(format!(
        "bingo simulate: {k} players, {cards} cards; {}; {} games, seed {}\n\n{}\n\n{verdict}",
        args.describe(),
        run.games,
        run.seed,
        align(&header, &rows)
    )))
}

/// `tabula bingo plot`: the exact law, the seed's formula and a simulation as an SVG.
pub fn plot(setup: &Setup, run: &Run, output: &Path, json: bool) -> Result<Report> {
    let (card, max, args) = (&setup.card, setup.max, setup);
    check_games(run.games)?;
    let exact = exact_law(card, args.pattern, max, Method::Auto)?;
    let range = support(&exact);
    let mut series = vec![Series {
        label: "exact".into(),
        points: range.clone().map(|n| (n as f64, exact.p(n))).collect(),
    }];
    if args.pattern == Pattern::Line {
        let f = formula_cdf(card, max);
        series.push(Series {
            label: "seed's formula".into(),
            points: range
                .clone()
                .map(|n| (n as f64, f[n] - if n == 0 { 0.0 } else { f[n - 1] }))
                .collect(),
        });
    }
    let bar = crate::progress::bar(run.games, "games", run.quiet || json);
    let sample = simulate(card, args.pattern, max, run.games, run.seed, &|n| {
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
        Ok(Report::Json(json!({
            "path": output,
            "series": series.iter().map(|s| json!({"label": s.label, "points": s.points})).collect::<Vec<_>>(),
        })))
    } else {
        Ok(Report::Text(format!(
            "wrote {} ({} curves)",
            output.display(),
            series.len()
        )))
    }
}
