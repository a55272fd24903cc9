//! The reports behind `tabula bingo`: each command's numbers, computed by the methods of
//! this module and laid out as an aligned text table or as one JSON document (the keys of
//! `spec/cli.md`). The binary only parses its arguments, calls these and prints. The exact
//! commands are here; the simulations are in [`super::report_sim`].

use super::formula::{compare, formula_cdf, Gap};
use super::players::{self, Cards, Players, UsModel};
use super::{check_drum, exact_law, orders, Card, Law, Method, Pattern};
use crate::Result;
use num_rational::BigRational;
use serde_json::{json, Value};

/// What a command prints: text for people, or one JSON document.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    Text(String),
    Json(Value),
}

/// The card, the drum and the pattern a command is about.
#[derive(Debug, Clone)]
pub struct Setup {
    pub card: Card,
    pub max: u64,
    pub pattern: Pattern,
}

impl Setup {
    /// A `size × size` card (free centre when `free` and the size is odd), numbers
    /// `1..=max` (default 15 per column: 75 on 5×5).
    pub fn new(size: usize, free: bool, max: Option<u64>, pattern: Pattern) -> Result<Setup> {
        let card = Card::new(size, free)?;
        let max = max.unwrap_or(15 * size as u64);
        check_drum(&card, max)?;
        Ok(Setup { card, max, pattern })
    }

    /// One line naming the card, the drum and the pattern.
    pub fn describe(&self) -> String {
        let s = self.card.size();
        let free = if self.card.free() {
            "free centre"
        } else {
            "no free square"
        };
        format!(
            "{s}×{s} card, {free}, numbers 1..={}, pattern {}",
            self.max, self.pattern
        )
    }
}

/// A simulation run.
#[derive(Debug, Clone, Copy)]
pub struct Run {
    pub games: u64,
    pub seed: u64,
    /// No progress bar.
    pub quiet: bool,
}

pub(crate) fn frac(q: &BigRational) -> String {
    q.to_string()
}

pub(crate) fn prob(p: f64) -> String {
    format!("{p:.9}")
}

/// Right-aligned columns under a header.
pub(crate) fn align(header: &[&str], rows: &[Vec<String>]) -> String {
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
pub(crate) fn support(law: &Law) -> std::ops::RangeInclusive<usize> {
    let first = (0..=law.max()).find(|&n| law.p(n) > 0.0).unwrap_or(0);
    let last = (0..=law.max())
        .rev()
        .find(|&n| law.p(n) > 0.0)
        .unwrap_or(law.max());
    first..=last
}

pub(crate) fn summary_json(law: &Law) -> Value {
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

pub(crate) fn summary_text(law: &Law) -> String {
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

/// `tabula bingo exact`: the exact law of T for one card, beside the seed's formula.
pub fn exact(setup: &Setup, method: Method, json: bool) -> Result<Report> {
    let (card, max, args) = (&setup.card, setup.max, setup);
    let w = super::winning_subsets(card, args.pattern, method)?;
    let law = Law::from_counts(card, max, &w);
    let method_name = match method {
        Method::Enumerate => "enumerate",
        Method::InclusionExclusion => "inclusion-exclusion",
        Method::Auto if card.groups(args.pattern).is_some() => "inclusion-exclusion",
        Method::Auto => "enumerate",
    };
    // The seed's formula is about full lines only.
    let formula = (args.pattern == Pattern::Line).then(|| formula_cdf(card, max));
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
        return Ok(Report::Json(doc));
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
        args.describe(),
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
    Ok(Report::Text(text))
}

pub(crate) fn players_law(
    card: &Card,
    pattern: Pattern,
    max: u64,
    k: u32,
    cards: Cards,
) -> Result<Players> {
    match cards {
        Cards::Us => UsModel::new(card, pattern, max)?.players(k),
        Cards::Uniform => players::uniform(&exact_law(card, pattern, max, Method::Auto)?, k),
    }
}

/// `tabula bingo exact --players K`: the law of the first winning call among K cards.
pub fn exact_players(setup: &Setup, k: u32, cards: Option<Cards>, json: bool) -> Result<Report> {
    let (card, max, args) = (&setup.card, setup.max, setup);
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
        return Ok(Report::Json(doc));
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
        args.describe(),
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
    Ok(Report::Text(text))
}

/// `tabula bingo verify`: every call order of a tiny card against the exact law. Returns
/// the report and whether the two agree.
pub fn verify(size: usize, free: bool, pattern: Pattern, json: bool) -> Result<(Report, bool)> {
    let card = Card::new(size, free)?;
    let args = Setup {
        card: card.clone(),
        max: card.numbered() as u64,
        pattern,
    };
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
        return Ok((Report::Json(doc), agrees));
    }
    {
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
        let text = format!(
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
        );
        Ok((Report::Text(text), agrees))
    }
}
