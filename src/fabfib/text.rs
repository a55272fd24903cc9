//! Human-readable output: aligned tables for odds and simulation reports.

use super::cards::format_digits;
use super::odds::{fraction, DiscardOption, FreshRow};
use super::simulate::Report;
use num_rational::Ratio;

/// The header of a discard table.
fn option_header() -> Vec<String> {
    ["discard", "keep", "favourable", "draws", "p_exact", "p"]
        .map(String::from)
        .to_vec()
}

/// One discard as a table row.
fn option_row(o: &DiscardOption) -> Vec<String> {
    let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
    vec![
        dash(format_digits(&o.discard)),
        dash(format_digits(&o.kept)),
        o.chance.favourable.to_string(),
        o.chance.total.to_string(),
        fraction(&o.chance.ratio()),
        format!("{:.6}", o.chance.float()),
    ]
}

/// The simulation report: a row per player, the game-wide rates, the calls by hundreds
/// and the ten most frequent calls.
pub fn simulate_text(r: &Report) -> String {
    let mut out = format!(
        "fabfib: {} games, {} players, {} life, seed {}; a call is true when the hand is {}; \
         {} discards\n\n",
        r.games,
        r.rules.players,
        r.rules.life,
        r.seed,
        if r.rules.exact {
            "worth exactly it"
        } else {
            "worth at least it"
        },
        if r.rules.zero_discard { "0-3" } else { "1-3" },
    );
    let mut t = vec![[
        "player",
        "strategy",
        "wins",
        "win rate",
        "95% interval",
        "calls",
        "lie rate",
        "doubts",
        "doubt success",
    ]
    .map(String::from)
    .to_vec()];
    for p in &r.players {
        t.push(vec![
            format!("P{}", p.player),
            p.strategy.clone(),
            p.wins.to_string(),
            format!("{:.4}", p.win_rate),
            format!("{:.4}-{:.4}", p.win_rate_ci95[0], p.win_rate_ci95[1]),
            p.calls.to_string(),
            format!("{:.4}", p.lie_rate),
            p.doubts.to_string(),
            format!("{:.4}", p.doubt_success_rate),
        ]);
    }
    out += &table(
        &t,
        &[false, false, true, true, true, true, true, true, true],
    );
    let summary = vec![
        vec![
            "mean rounds per game".into(),
            format!("{:.4}", r.mean_rounds),
        ],
        vec!["mean calls per game".into(), format!("{:.4}", r.mean_calls)],
        vec![
            "lie rate".into(),
            format!("{:.4} ({} of {} calls)", r.lie_rate, r.lies, r.calls),
        ],
        vec![
            "doubt success rate".into(),
            format!(
                "{:.4} ({} of {} doubts caught a lie)",
                r.doubt_success_rate, r.doubts_won, r.doubts
            ),
        ],
        vec![
            "forced doubts (after 1000)".into(),
            format!("{} ({} caught a lie)", r.forced_doubts, r.forced_doubts_won),
        ],
    ];
    out += "\n\n";
    out += &table(&summary, &[false, false]);
    // Calls by hundreds, then the most frequent.
    let mut by_hundred = [0u64; 10];
    for c in &r.call_distribution {
        by_hundred[usize::from(c.call / 100).min(9)] += c.count;
    }
    let mut t = vec![["calls", "count", "share"].map(String::from).to_vec()];
    for (h, &n) in by_hundred.iter().enumerate().skip(1) {
        let label = if h == 9 {
            "900-1000".to_string()
        } else {
            format!("{}00-{}99", h, h)
        };
        t.push(vec![
            label,
            n.to_string(),
            format!("{:.4}", n as f64 / r.calls.max(1) as f64),
        ]);
    }
    out += "\n\ndistribution of calls\n";
    out += &table(&t, &[false, true, true]);
    let mut top = r.call_distribution.clone();
    top.sort_by(|a, b| b.count.cmp(&a.count).then(a.call.cmp(&b.call)));
    let mut t = vec![["call", "count", "share"].map(String::from).to_vec()];
    for c in top.iter().take(10) {
        t.push(vec![
            c.call.to_string(),
            c.count.to_string(),
            format!("{:.4}", c.p),
        ]);
    }
    out += "\n\nmost frequent calls\n";
    out += &table(&t, &[true, true, true]);
    out
}

/// Aligns rows into columns (the first row is the header); `right[i]` right-aligns
/// column `i`.
pub fn table(rows: &[Vec<String>], right: &[bool]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    rows.iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .map(|(c, s)| {
                    if right.get(c).copied().unwrap_or(false) {
                        format!("{s:>w$}", w = width[c])
                    } else {
                        format!("{s:<w$}", w = width[c])
                    }
                })
                .collect::<Vec<_>>()
                .join("  ")
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The fresh-hand table: value, hands, exact and float chance, upper tail.
pub fn fresh_text(rows: &[FreshRow], mean: &Ratio<u64>) -> String {
    let total = rows.first().map_or(0, |r| r.at_least);
    let r = |n: u64| Ratio::new(n, total.max(1));
    let mut t = vec![["value", "hands", "p_exact", "p", "p(>= value)"]
        .map(String::from)
        .to_vec()];
    for x in rows {
        t.push(vec![
            x.value.to_string(),
            x.hands.to_string(),
            fraction(&r(x.hands)),
            format!("{:.6}", x.hands as f64 / total as f64),
            format!("{:.6}", x.at_least as f64 / total as f64),
        ]);
    }
    format!(
        "a fresh hand: {total} hands of 3 cards, {} values, mean value {} = {:.4}\n\n{}",
        rows.len(),
        fraction(mean),
        *mean.numer() as f64 / *mean.denom() as f64,
        table(&t, &[true; 5])
    )
}

/// The table of one or more discards from `hand` towards `target`.
pub fn discard_text(hand: &[u8; 3], target: u16, exact: bool, options: &[DiscardOption]) -> String {
    let mut rows = vec![option_header()];
    rows.extend(options.iter().map(option_row));
    format!(
        "hand {}, target {target}{}{}\n\n{}",
        format_digits(hand),
        if exact { " exactly" } else { " or more" },
        if options.len() > 1 {
            ": every discard, best first"
        } else {
            ""
        },
        table(&rows, &[false, false, true, true, true, true])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_pads_every_column_to_its_widest_cell() {
        let rows = vec![
            vec!["a".to_string(), "n".to_string()],
            vec!["long".to_string(), "12345".to_string()],
        ];
        assert_eq!(table(&rows, &[false, true]), "a         n\nlong  12345");
    }
}
