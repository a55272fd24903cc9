//! The text of every fabfib result: aligned tables for odds, simulations and searches, and
//! a replayed game turn by turn.

use tabula::exact::fraction;
use tabula::fabfib::cards::{digit, format_cards, format_digits};
use tabula::fabfib::events::Event;
use tabula::fabfib::odds::{DiscardOption, DiscardQuery, FreshOdds};
use tabula::fabfib::replay::Replay;
use tabula::fabfib::rules::Rules;
use tabula::fabfib::simulate::Report;
use tabula::fabfib::tune::{SettingResult, TuneReport};

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
pub fn render_simulation(r: &Report) -> String {
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
    if let Some(a) = &r.article {
        out.insert_str(
            out.len() - 1,
            &format!(
                "article parameters: mean {}, bump {}, keep {}, spread {}, doubt {}\n",
                a.mean, a.bump, a.keep, a.spread, a.doubt
            ),
        );
    }
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
    out += &calls(r);
    out
}

/// The calls of a simulation by hundreds, then the most frequent.
fn calls(r: &Report) -> String {
    let mut out = String::new();
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
pub fn render_fresh(f: &FreshOdds) -> String {
    let mut t = vec![["value", "hands", "p_exact", "p", "p(>= value)"]
        .map(String::from)
        .to_vec()];
    for x in &f.distribution {
        t.push(vec![
            x.value.to_string(),
            x.hands.to_string(),
            fraction(&x.p_exact),
            format!("{:.6}", x.p),
            format!("{:.6}", x.p_at_least),
        ]);
    }
    format!(
        "a fresh hand: {} hands of 3 cards, {} values, mean value {} = {:.4}\n\n{}",
        f.hands,
        f.values,
        fraction(&f.mean_exact),
        f.mean,
        table(&t, &[true; 5])
    )
}

/// The table of one or more discards from the query's hand towards its target.
pub fn render_discards(q: &DiscardQuery, options: &[DiscardOption]) -> String {
    let mut rows = vec![option_header()];
    rows.extend(options.iter().map(option_row));
    format!(
        "hand {}, target {}{}{}\n\n{}",
        format_digits(&q.hand),
        q.target,
        if q.exact { " exactly" } else { " or more" },
        if options.len() > 1 {
            ": every discard, best first"
        } else {
            ""
        },
        table(&rows, &[false, false, true, true, true, true])
    )
}

/// The cards' digits, highest first.
fn digits(cards: &[u8]) -> String {
    format_digits(&cards.iter().map(|&c| digit(c)).collect::<Vec<_>>())
}

/// A replayed game as readable lines. Players are shown as P1, P2, …; cards as
/// digit(coins).
pub fn render_replay(r: &Replay, rules: &Rules) -> String {
    let mut out = Vec::new();
    let names: Vec<String> = r
        .strategies
        .iter()
        .enumerate()
        .map(|(i, s)| format!("P{} {}", i + 1, s))
        .collect();
    out.push(format!(
        "game {} of seed {}: {} players ({}), {} life each",
        r.game,
        r.seed,
        rules.players,
        names.join(", "),
        rules.life
    ));
    for e in &r.events {
        let line = match e {
            Event::RoundStart {
                round,
                starter,
                life,
            } => {
                let life: Vec<String> = life
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("P{}:{}", i + 1, (*l).max(0)))
                    .collect();
                format!(
                    "\nround {round}: P{} starts   life {}",
                    starter + 1,
                    life.join(" ")
                )
            }
            Event::Reshuffle { cards } => {
                format!("  (the deck is empty: {cards} discarded cards are shuffled in)")
            }
            Event::Replace {
                player,
                received,
                discarded,
                drawn,
            } => format!(
                "  P{} sees {}, throws {}, draws {}",
                player + 1,
                digits(received),
                digits(discarded),
                digits(drawn)
            ),
            Event::Call {
                player,
                hand,
                value,
                call,
                lie,
            } => format!(
                "  P{} holds {} = {value:<4} calls {call}{}",
                player + 1,
                format_cards(hand),
                if *lie { " (lie)" } else { "" }
            ),
            Event::Accept { player, .. } => format!("  P{} accepts", player + 1),
            Event::Doubt(d) => format!(
                "  P{} {} {}: the hand is {}, {}; P{} loses {} -> {}{}",
                d.doubter + 1,
                if d.forced { "must doubt" } else { "doubts" },
                d.call,
                d.value,
                if d.call_true {
                    "the call holds"
                } else {
                    "a lie"
                },
                d.loser + 1,
                d.loss,
                d.life.max(0),
                if d.loser == d.caller { " (caller)" } else { "" }
            ),
            Event::Out { player } => format!("  P{} is out", player + 1),
            Event::GameOver { winner, rounds } => {
                format!("\nP{} wins after {rounds} rounds", winner + 1)
            }
        };
        out.push(line);
    }
    out.join("\n")
}

/// A setting's row: its parameters, wins and win rate with its interval.
fn setting_row(label: &str, r: &SettingResult) -> Vec<String> {
    let p = &r.params;
    vec![
        label.to_string(),
        p.mean.to_string(),
        p.bump.to_string(),
        p.keep.to_string(),
        p.spread.to_string(),
        p.doubt.to_string(),
        r.wins.to_string(),
        format!("{:.4}", r.win_rate),
        format!("{:.4}-{:.4}", r.win_rate_ci95[0], r.win_rate_ci95[1]),
    ]
}

/// The search: the `top` settings by wins, the article's own setting, the best.
pub fn render_tune(r: &TuneReport, top: usize) -> String {
    let mut out = format!(
        "fabfib tune: P1 plays the article's strategies against {} ({} players, {} life); \
         {} settings x {} games, seed {}\n\n",
        r.field.join(", "),
        r.rules.players,
        r.rules.life,
        r.settings.len(),
        r.games,
        r.seed
    );
    let mut ranked: Vec<&SettingResult> = r.settings.iter().collect();
    ranked.sort_by_key(|s| std::cmp::Reverse(s.wins));
    let mut t = vec![[
        "rank",
        "mean",
        "bump",
        "keep",
        "spread",
        "doubt",
        "wins",
        "win rate",
        "95% interval",
    ]
    .map(String::from)
    .to_vec()];
    for (k, s) in ranked.iter().take(top.max(1)).enumerate() {
        t.push(setting_row(&(k + 1).to_string(), s));
    }
    if let Some(a) = &r.article {
        t.push(setting_row("article", a));
    }
    out += &table(&t, &[false, true, true, true, true, true, true, true, true]);
    let b = &r.best.params;
    out += &format!(
        "\n\nbest: --mean {} --bump {} --keep {} --spread {} --doubt {}: wins {:.4} \
         ({:.4}-{:.4})",
        b.mean,
        b.bump,
        b.keep,
        b.spread,
        b.doubt,
        r.best.win_rate,
        r.best.win_rate_ci95[0],
        r.best.win_rate_ci95[1]
    );
    if let Some(a) = &r.article {
        out += &format!(
            "\narticle's own setting: wins {:.4} ({:.4}-{:.4})",
            a.win_rate, a.win_rate_ci95[0], a.win_rate_ci95[1]
        );
    }
    out
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
