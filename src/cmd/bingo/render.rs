//! The text of `tabula bingo`: one `render` function per result type of
//! [`tabula::bingo::analysis`] and [`tabula::bingo::sampled`], aligned tables for people.

use num_rational::BigRational;
use tabula::bingo::analysis::{support, SeveralPlayers, SingleCard, Verification};
use tabula::bingo::law::Summary;
use tabula::bingo::players::EXACT_PLAYERS;
use tabula::bingo::prizes::{Prizes, EXACT_WORK};
use tabula::bingo::sampled::{SimulatedCard, SimulatedPlayers};
use tabula::bingo::Setup;
use tabula::exact::fraction;
use unicode_width::UnicodeWidthStr;

fn prob(p: f64) -> String {
    format!("{p:.9}")
}

fn frac(q: &BigRational) -> String {
    fraction(q)
}

/// Right-aligned columns under a header, by display width (East Asian wide characters
/// take two columns).
fn align(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut width: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for row in rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.width());
        }
    }
    let line = |cells: Vec<&str>| {
        cells
            .iter()
            .zip(&width)
            .map(|(c, &w)| format!("{}{c}", " ".repeat(w - c.width())))
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

/// One line naming the card, the drum and the pattern.
pub fn describe(setup: &Setup) -> String {
    let s = setup.card.size();
    let free = if setup.card.free() {
        "free centre"
    } else {
        "no free square"
    };
    format!(
        "{s}×{s} card, {free}, numbers 1..={}, pattern {}",
        setup.max, setup.pattern
    )
}

/// The figure's title.
pub fn figure_title(setup: &Setup) -> String {
    let s = setup.card.size();
    format!(
        "bingo {s}×{s}, 1..={}, {}: P(T = n)",
        setup.max, setup.pattern
    )
}

fn summary(s: &Summary) -> String {
    let exact = s
        .mean_exact
        .as_ref()
        .map(|m| format!(" = {}", frac(m)))
        .unwrap_or_default();
    let pct: Vec<String> = [5, 25, 50, 75, 95]
        .iter()
        .map(|q| format!("{q}%: {}", s.percentiles[q]))
        .collect();
    let variance_exact = s
        .variance_exact
        .as_ref()
        .map(|v| format!(" = {}", frac(v)))
        .unwrap_or_default();
    format!(
        "mean {:.6}{exact}\nvariance {:.6}{variance_exact}, standard deviation {:.6}\nmedian {}, mode {}; percentiles {}",
        s.mean,
        s.variance,
        s.sd,
        s.median,
        s.mode,
        pct.join(", ")
    )
}

/// `tabula bingo exact`.
pub fn single_card(out: &SingleCard) -> String {
    let with_formula = out.formula.is_some();
    let mut header = vec!["n", "P(T = n)", "P(T ≤ n)"];
    if with_formula {
        header.extend(["formula P(T = n)", "formula P(T ≤ n)"]);
    }
    header.push("P(T = n) exact");
    let rows: Vec<Vec<String>> = support(&out.law)
        .map(|n| {
            let r = &out.distribution[n];
            let mut row = vec![n.to_string(), prob(r.p), prob(r.cdf)];
            if let (Some(p), Some(c)) = (r.formula_p, r.formula_cdf) {
                row.extend([prob(p), prob(c)]);
            }
            row.push(r.p_exact.as_ref().map(frac).unwrap_or_default());
            row
        })
        .collect();
    let mut text = format!(
        "bingo exact: {} (method {})\n{}\n\n{}",
        describe(&out.setup),
        out.method,
        summary(&out.summary),
        align(&header, &rows)
    );
    if let Some(g) = &out.formula {
        text += &format!(
            "\n\nthe seed's formula: mean {:.6} (exact {:.6}); largest error {:.6} in P(T = n) at n = {}, \
             {:.6} in P(T ≤ n) at n = {}",
            g.mean,
            out.summary.mean,
            g.pmf_error,
            g.pmf_at,
            g.cdf_error,
            g.cdf_at
        );
    }
    text
}

/// `tabula bingo exact --players K`.
pub fn several_players(out: &SeveralPlayers) -> String {
    let k = out.players;
    let exactness = if out.exact {
        "exact fractions"
    } else if k <= EXACT_PLAYERS {
        "floats from the exact formula; fractions are not kept for a drum this large"
    } else {
        "floats from the exact formula; fractions only for K ≤ 3"
    };
    let shared_exact = out
        .shared_exact
        .as_ref()
        .map(|q| format!(" = {}", frac(q)))
        .unwrap_or_default();
    let mut header = vec![
        "n",
        "P(first win = n)",
        "P(first win ≤ n)",
        "P(shared win at n)",
    ];
    if out.shortcut.is_some() {
        header.push("shortcut P(first win ≤ n)");
    }
    let rows: Vec<Vec<String>> = support(&out.result.first)
        .map(|n| {
            let r = &out.distribution[n];
            let mut row = vec![n.to_string(), prob(r.p), prob(r.cdf), prob(r.shared)];
            if let Some(c) = r.shortcut_cdf {
                row.push(prob(c));
            }
            row
        })
        .collect();
    let mut text = format!(
        "bingo exact: {k} players, {} cards; {} ({exactness})\n{}\nP(the first win is shared) {:.9}{shared_exact}\n\n{}",
        out.result.cards,
        describe(&out.setup),
        summary(&out.summary),
        out.shared,
        align(&header, &rows)
    );
    if let Some(s) = &out.shortcut {
        text += &format!(
            "\n\nthe uniform-card shortcut 1 − (1 − F)^K: mean {:.6}; largest error {:.6} in \
             P(first win ≤ n) at n = {}",
            s.mean, s.max_cdf_error, s.max_cdf_error_at
        );
    }
    text
}

/// `tabula bingo exact --players K --prizes k`.
pub fn prizes(out: &Prizes) -> String {
    let (k, prizes) = (out.players, out.prizes);
    let exactness = if out.exact {
        "exact fractions".to_string()
    } else {
        let seconds = out.exact_work as f64 / 1e6;
        let time = if seconds < 60.0 {
            format!("about {seconds:.1} s")
        } else if seconds < 3600.0 {
            format!("about {:.0} min", seconds / 60.0)
        } else {
            "more than an hour".to_string()
        };
        format!(
            "floats from the exact formula; the fractions would take {time}, over the {:.0} s \
             budget of docs/bingo.md",
            EXACT_WORK as f64 / 1e6
        )
    };
    let exact = |q: &Option<BigRational>| {
        q.as_ref()
            .map(|q| format!(" = {}", frac(q)))
            .unwrap_or_default()
    };
    let header = [
        "n",
        "P(a prize on call n)",
        "P(last prize on n)",
        "P(last prize by n)",
        "P(split on n)",
    ];
    let rows: Vec<Vec<String>> = support(&out.last_law)
        .map(|n| {
            let r = &out.distribution[n];
            vec![
                n.to_string(),
                prob(r.chance),
                prob(r.last_p),
                prob(r.last_cdf),
                prob(r.split),
            ]
        })
        .collect();
    format!(
        "bingo exact: {k} players, {prizes} prizes, {} cards; {} ({exactness})\n\
         each player's chance of a prize (or a share of one) {:.9}{}; expected prizes per player {}\n\
         P(the last prize is split) {:.9}{}\n\
         the call of the last prize: {}\n\n{}",
        out.cards,
        describe(&out.setup),
        out.chance,
        exact(&out.chance_exact),
        fraction(&out.expected_share),
        out.split,
        exact(&out.split_exact),
        summary(&out.last).replace('\n', "; "),
        align(&header, &rows)
    )
}

/// `tabula bingo verify`.
pub fn verification(out: &Verification) -> String {
    let header = [
        "n",
        "orders",
        "P(T = n) by orders",
        "P(T = n) by subsets",
        "same",
    ];
    let rows: Vec<Vec<String>> = support(&out.law)
        .map(|n| {
            let r = &out.distribution[n];
            let a = r.p_exact.clone().unwrap_or_default();
            let b = r.enumeration_p_exact.clone().unwrap_or_default();
            let same = if a == b { "yes" } else { "NO" };
            vec![
                n.to_string(),
                r.orders.to_string(),
                frac(&a),
                frac(&b),
                same.into(),
            ]
        })
        .collect();
    let s = out.setup.card.size();
    format!(
        "bingo verify: {s}×{s} card, numbers 1..={}, pattern {}: {} call orders\n{}\n\n{}\n\n{}",
        out.setup.max,
        out.setup.pattern,
        out.orders,
        summary(&out.summary),
        align(&header, &rows),
        if out.agrees {
            "every call order agrees with the exact law by subset enumeration"
        } else {
            "DISAGREEMENT between call orders and subset enumeration"
        }
    )
}

/// A row of a simulation table: `n`, the games, the sampled chance and its interval, the
/// exact chance (or `-`).
fn sampled_row(n: usize, count: u64, sampled: [f64; 3], exact: Option<f64>) -> Vec<String> {
    let mut row = vec![n.to_string(), count.to_string()];
    row.extend(sampled.map(prob));
    row.push(exact.map(prob).unwrap_or_else(|| "-".into()));
    row
}

/// `tabula bingo simulate`.
pub fn simulated_card(out: &SimulatedCard) -> String {
    let header = [
        "n",
        "games",
        "P(T = n) sampled",
        "95% low",
        "95% high",
        "exact P(T = n)",
    ];
    let counts = &out.sample.counts;
    let last = counts.iter().rposition(|&c| c > 0).unwrap_or(0);
    let first = counts.iter().position(|&c| c > 0).unwrap_or(0);
    let first = out
        .exact
        .as_ref()
        .map_or(first, |l| first.min(*support(l).start()));
    let rows: Vec<Vec<String>> = out.distribution[first..=last]
        .iter()
        .map(|r| sampled_row(r.n, r.count, [r.p, r.low, r.high], r.exact_p))
        .collect();
    let mean = out.mean;
    let verdict = match (&out.chi_square, out.exact_mean) {
        (Some(c), Some(exact_mean)) => format!(
            "sample mean {mean:.6}, exact {exact_mean:.6}; chi-square against the exact law: {:.2} on {} df, p-value {:.4}",
            c.statistic, c.df, c.p_value
        ),
        _ => format!("sample mean {mean:.6} (no exact law for this card and pattern)"),
    };
    format!(
        "bingo simulate: {}; {} games, seed {}\n\n{}\n\n{verdict}",
        describe(&out.setup),
        out.run.games,
        out.run.seed,
        align(&header, &rows)
    )
}

/// `tabula bingo simulate --players K`.
pub fn simulated_players(out: &SimulatedPlayers) -> String {
    let header = [
        "n",
        "games",
        "P(first win = n) sampled",
        "95% low",
        "95% high",
        "exact",
    ];
    let rows: Vec<Vec<String>> = out
        .distribution
        .iter()
        .filter(|r| r.count > 0)
        .map(|r| sampled_row(r.n, r.count, [r.p, r.low, r.high], r.exact_p))
        .collect();
    let (mean, shared) = (out.mean, out.shared);
    let (slo, shi) = (out.shared_low, out.shared_high);
    let verdict = match (&out.chi_square, out.exact_mean, out.exact_shared) {
        (Some(c), Some(exact_mean), Some(exact_shared)) => format!(
            "sample mean {mean:.6}, exact {exact_mean:.6}; shared first win {shared:.6} [{slo:.6}, {shi:.6}], exact {exact_shared:.6}\n\
             chi-square against the exact law: {:.2} on {} df, p-value {:.4}",
            c.statistic, c.df, c.p_value
        ),
        _ => format!("sample mean {mean:.6}, shared first win {shared:.6}"),
    };
    let mut verdict = verdict;
    if let Some(p) = &out.prizes {
        let exact = |x: Option<f64>| x.map(|x| format!(", exact {x:.6}")).unwrap_or_default();
        verdict += &format!(
            "\n{} prizes: a given player's chance {:.6} [{:.6}, {:.6}]{}; the last prize split \
             {:.6} [{:.6}, {:.6}]{}; mean call of the last prize {:.6}{}",
            p.prizes,
            p.chance,
            p.chance_low,
            p.chance_high,
            exact(p.exact_chance),
            p.split,
            p.split_low,
            p.split_high,
            exact(p.exact_split),
            p.last_mean,
            exact(p.exact_last_mean)
        );
        if let Some(c) = &p.last_chi_square {
            verdict += &format!(
                "\nchi-square of the call of the last prize against the exact law: {:.2} on {} \
                 df, p-value {:.4}",
                c.statistic, c.df, c.p_value
            );
        }
    }
    format!(
        "bingo simulate: {} players, {} cards; {}; {} games, seed {}\n\n{}\n\n{verdict}",
        out.players,
        out.cards,
        describe(&out.setup),
        out.run.games,
        out.run.seed,
        align(&header, &rows)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_aligned_by_display_width_not_by_characters() {
        let text = align(&["名前", "n"], &[vec!["ab".into(), "10".into()]]);
        let lines: Vec<&str> = text.lines().collect();
        // "名前" is four columns wide: "ab" is padded by two spaces to meet it.
        assert_eq!(lines[0], "名前   n");
        assert_eq!(lines[1], "  ab  10");
    }
}
