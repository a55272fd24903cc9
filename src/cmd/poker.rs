//! `tabula poker judge|compare|table|verify|search-rule`: 大石泉すき poker.

use super::{emit, emit_json};
use clap::Subcommand;
use serde_json::{json, Value};
use std::cmp::Ordering;
use tabula::poker::{
    compare::compare_features, search, seed, table, verify, Features, Hand, Verdict,
};
use tabula::{Error, Result};

#[derive(Subcommand)]
pub enum PokerCmd {
    /// The rank of a hand (Japanese and English) and its tie-break values
    Judge {
        /// Five of 大石泉すき, or of the letters o i z s k (e.g. oizsk)
        hand: String,
        #[arg(long)]
        json: bool,
    },
    /// Which of two hands wins, and at which stage it is decided
    Compare {
        a: String,
        b: String,
        #[arg(long)]
        json: bool,
    },
    /// Exact count and probability of each rank over all 3,125 hands
    Table {
        #[arg(long)]
        json: bool,
    },
    /// Check the comparator over all 3,125 × 3,124 ordered pairs of different hands
    Verify {
        /// Example tied pairs to list per stage
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(0..=1000))]
        examples: u16,
        #[arg(long)]
        json: bool,
    },
    /// Search a stated family of natural fifth rules for the one leaving the fewest ties
    SearchRule {
        /// Longest sequence of statistics to try as one rule (1 to 3)
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
        depth: u8,
        /// Single statistics to list in the human output
        #[arg(long, default_value_t = 10)]
        top: usize,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(cmd: PokerCmd) -> Result<()> {
    match cmd {
        PokerCmd::Judge { hand, json } => judge(&Hand::parse(&hand)?, json),
        PokerCmd::Compare { a, b, json } => compare(&Hand::parse(&a)?, &Hand::parse(&b)?, json),
        PokerCmd::Table { json } => rank_table(json),
        PokerCmd::Verify { examples, json } => run_verify(examples.into(), json),
        PokerCmd::SearchRule { depth, top, json } => search_rule(depth.into(), top, json),
    }
}

fn hand_json(h: &Hand) -> Value {
    let f = Features::of(h);
    json!({
        "hand": h.to_string(),
        "romaji": h.romaji(),
        "index": h.index(),
        "rank": f.rank.number(),
        "rank_japanese": f.rank.japanese(),
        "rank_english": f.rank.english(),
        "tie_breaks": {
            "suki_find": f.suki_find,
            "right_places": f.right_places,
            "right_strokes": f.right_strokes,
            "wrong_strokes": f.wrong_strokes,
        },
        "key": f.key().0,
    })
}

fn judge(h: &Hand, json: bool) -> Result<()> {
    if json {
        return emit_json(&hand_json(h));
    }
    let f = Features::of(h);
    let suki = match f.suki_find {
        -1 => "no すき".to_string(),
        p => format!("すき at positions {}–{}", p + 1, p + 2),
    };
    emit(&format!(
        "hand     {h}  ({}, hand #{})\n\
         rank     {}  {} / {}\n\
         rule 1   suki_find     {:>2}   ({suki}; larger wins)\n\
         rule 2   right_places  {:>2}   (characters in their right place; more wins)\n\
         rule 3   right_strokes {:>2}   (their strokes; more wins)\n\
         rule 4   wrong_strokes {:>2}   (strokes out of place; fewer wins)",
        h.romaji(),
        h.index(),
        f.rank.number(),
        f.rank.japanese(),
        f.rank.english(),
        f.suki_find,
        f.right_places,
        f.right_strokes,
        f.wrong_strokes,
    ))
}

fn compare(a: &Hand, b: &Hand, json: bool) -> Result<()> {
    let (fa, fb) = (Features::of(a), Features::of(b));
    let Verdict { order, stage } = compare_features(&fa, &fb);
    let winner = match order {
        Ordering::Greater => "a",
        Ordering::Less => "b",
        Ordering::Equal => "tie",
    };
    let (sa, sb) = (a.to_string(), b.to_string());
    let seed_ab = seed::compare_hand(&sa, &sb);
    if json {
        return emit_json(&json!({
            "a": hand_json(a),
            "b": hand_json(b),
            "winner": winner,
            "stage": stage.map(|s| s.name()),
            "stage_number": stage.map(|s| s as u8),
            "seed_compare": seed_ab,
        }));
    }
    let headline = match (order, stage) {
        (Ordering::Greater, Some(s)) => format!("{sa} beats {sb}: decided by {}", s.describe()),
        (Ordering::Less, Some(s)) => format!("{sb} beats {sa}: decided by {}", s.describe()),
        _ if a == b => format!("{sa} and {sb} are the same hand: a tie"),
        _ => format!(
            "{sa} and {sb} tie: the rank and all four rules agree \
             (the seed's own comparator answers {seed_ab} for a,b and {} for b,a)",
            seed::compare_hand(&sb, &sa)
        ),
    };
    let row = |name: &str, x: String, y: String| {
        format!("{name:<15} {} {}", pad_left(&x, 22), pad_left(&y, 22))
    };
    let rank = |f: &Features| format!("{} {}", f.rank.number(), f.rank.english());
    let lines = [
        headline,
        String::new(),
        row("", format!("a = {sa}"), format!("b = {sb}")),
        row("rank", rank(&fa), rank(&fb)),
        row(
            "suki_find",
            fa.suki_find.to_string(),
            fb.suki_find.to_string(),
        ),
        row(
            "right_places",
            fa.right_places.to_string(),
            fb.right_places.to_string(),
        ),
        row(
            "right_strokes",
            fa.right_strokes.to_string(),
            fb.right_strokes.to_string(),
        ),
        row(
            "wrong_strokes",
            fa.wrong_strokes.to_string(),
            fb.wrong_strokes.to_string(),
        ),
    ];
    emit(&lines.join("\n"))
}

/// Terminal columns taken by `s`: the name's characters (kanji, kana) are full-width.
fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| match u32::from(c) {
            0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF => 2,
            0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 => 2,
            _ => 1,
        })
        .sum()
}

fn pad_left(s: &str, width: usize) -> String {
    format!("{}{s}", " ".repeat(width.saturating_sub(display_width(s))))
}

fn pad_right(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(display_width(s))))
}

fn rank_table(json: bool) -> Result<()> {
    let rows = table::rank_table();
    let total: u64 = rows.iter().map(|r| r.count).sum();
    if json {
        return emit_json(&json!({ "hands": total, "ranks": rows }));
    }
    let mut out = vec![format!(
        "{:>4}  {:<20} {:<28} {:>5}  {:>9}  {:>10}",
        "rank", "english", "japanese", "count", "p_exact", "p"
    )];
    for r in &rows {
        out.push(format!(
            "{:>4}  {:<20} {} {:>5}  {:>9}  {:>10.8}",
            r.rank,
            r.english,
            pad_right(r.japanese, 28),
            r.count,
            r.p_exact,
            r.p
        ));
    }
    out.push(format!(
        "{:>4}  {:<20} {:<28} {:>5}",
        "", "all hands", "", total
    ));
    emit(&out.join("\n"))
}

fn run_verify(examples: usize, json: bool) -> Result<()> {
    let v = verify::verify(examples);
    let proof = &v.strict_weak_order;
    let ok = v.seed_figures.reproduced
        && v.tied_pairs_by_stage == v.tied_pairs_by_grouping
        && v.seed_agreement.agreeing == v.seed_agreement.hands
        && proof.irreflexive
        && proof.antisymmetric
        && proof.transitive
        && proof.equals_key_order;
    if json {
        emit_json(&v)?;
    } else {
        emit(&verify_text(&v, ok))?;
    }
    if ok {
        Ok(())
    } else {
        Err(Error::failure(
            "poker verification failed (see the report above)",
        ))
    }
}

fn tick(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "NO"
    }
}

fn verify_text(v: &verify::Verification, ok: bool) -> String {
    let mut out = vec![
        format!("ordered pairs of different hands: {}", v.pairs),
        String::new(),
        format!(
            "{:<6} {:<15} {:>12} {:>12} {:>12}",
            "stage", "rule", "decided", "tied after", "by grouping"
        ),
    ];
    for (s, name) in v.stages.iter().enumerate() {
        out.push(format!(
            "{:<6} {:<15} {:>12} {:>12} {:>12}",
            s,
            name,
            v.decided_pairs_by_stage[s],
            v.tied_pairs_by_stage[s],
            v.tied_pairs_by_grouping[s]
        ));
    }
    let p = &v.strict_weak_order;
    out.extend([
        String::new(),
        format!(
            "seed's figures reproduced: {} (after rule 3: {}, after rule 4: {})",
            tick(v.seed_figures.reproduced),
            v.seed_figures.after_rule_3,
            v.seed_figures.after_rule_4
        ),
        format!(
            "seed's functions agree on hands: {} of {}",
            v.seed_agreement.agreeing, v.seed_agreement.hands
        ),
        format!(
            "strict weak order: irreflexive {}, antisymmetric {}, transitive {}, \
             equals key order {}",
            tick(p.irreflexive),
            tick(p.antisymmetric),
            tick(p.transitive),
            tick(p.equals_key_order)
        ),
        format!(
            "  ({} tie classes; all {} ordered pairs compare as their classes do)",
            p.levels, p.pairs_checked
        ),
    ]);
    for e in &v.examples {
        if e.pairs.is_empty() {
            continue;
        }
        out.push(String::new());
        out.push(format!(
            "tied after {} ({} pairs), first ones:",
            e.stage, e.tied_pairs
        ));
        for [a, b] in &e.pairs {
            out.push(format!("  {a} / {b}"));
        }
    }
    let d = &v.seed_defect;
    out.extend([
        String::new(),
        format!(
            "seed's defect: compare_hand({}, {}) = {} and compare_hand({}, {}) = {}",
            d.a, d.b, d.seed_compare_ab, d.b, d.a, d.seed_compare_ba
        ),
        format!(
            "  ({} ordered pairs answer 1 both ways round; reported here as ties)",
            d.pairs_answering_1_both_ways
        ),
        String::new(),
        if ok {
            "verification: ok".to_string()
        } else {
            "verification: FAILED".to_string()
        },
    ]);
    out.join("\n")
}

fn search_rule(depth: usize, top: usize, json: bool) -> Result<()> {
    let r = search::search(depth);
    if json {
        return emit_json(&r);
    }
    let mut out = vec!["family searched (applied after the seed's four rules):".to_string()];
    for g in &r.family {
        out.push(format!("  {}:", g.group));
        let mut line = String::from("   ");
        for (i, stat) in g.statistics.iter().enumerate() {
            let item = if i + 1 < g.statistics.len() {
                format!(" {stat},")
            } else {
                format!(" {stat}")
            };
            if line.chars().count() + item.chars().count() > 88 {
                out.push(std::mem::replace(&mut line, String::from("   ")));
            }
            line.push_str(&item);
        }
        out.push(line);
    }
    out.push(format!(
        "\nordered pairs tied after the four rules: {}",
        r.tied_pairs_before
    ));
    out.push(format!(
        "\nbest single statistics (of {}):",
        r.singles.len()
    ));
    for s in r.singles.iter().take(top) {
        out.push(format!("  {:>8}  {}", s.tied_pairs, s.rules.join(" → ")));
    }
    out.push(format!(
        "\n{:>5} {:>10} {:>10} {:>10}  best",
        "depth", "rules", "no ties", "fewest"
    ));
    for d in &r.by_depth {
        out.push(format!(
            "{:>5} {:>10} {:>10} {:>10}  {}",
            d.depth,
            d.candidates,
            d.zero_tie_rules,
            d.best.tied_pairs,
            d.best.rules.join(" → ")
        ));
    }
    for d in &r.by_depth {
        if !d.remaining_examples.is_empty() && d.remaining_examples.len() <= 5 {
            let pairs: Vec<String> = d
                .remaining_examples
                .iter()
                .map(|[a, b]| format!("{a} / {b}"))
                .collect();
            out.push(format!(
                "  depth {} still ties: {}",
                d.depth,
                pairs.join(", ")
            ));
        }
    }
    out.push(String::new());
    if r.breaks_all_ties {
        out.push(format!(
            "*** A NATURAL RULE LEAVES NO TIES: {} ***",
            r.best.rules.join(" → ")
        ));
        if let Some(d) = r.by_depth.iter().find(|d| d.zero_tie_rules > 0) {
            out.push(format!(
                "    ({} rules of {} statistics leave none; the first ones:)",
                d.zero_tie_rules, d.depth
            ));
            for rules in &d.zero_tie_examples {
                out.push(format!("      {}", rules.join(" → ")));
            }
        }
    } else {
        out.push(format!(
            "no rule in the family leaves no ties; the best, {}, leaves {} ordered pairs tied",
            r.best.rules.join(" → "),
            r.best.tied_pairs
        ));
    }
    emit(&out.join("\n"))
}
