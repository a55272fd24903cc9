//! `tabula poker judge|compare|table|strength|verify|search-rule`: 大石泉すき poker.

use super::{emit, emit_json};
use clap::Subcommand;
use tabula::exact;
use tabula::poker::compare::TieBreaks;
use tabula::poker::frequency::{self, RankFrequencies};
use tabula::poker::rule::{Rule, Step};
use tabula::poker::search::{self, SearchReport};
use tabula::poker::strength::{self, Strength, StrengthTable};
use tabula::poker::verify::{self, Verification};
use tabula::poker::{Comparison, Hand, Judgement, Stage, Winner};
use tabula::Result;
use unicode_width::UnicodeWidthStr;

/// The rule to compare by: `article` (the article's four rules, the default) or one to
/// three statistic names joined by `+` (see `poker search-rule`).
const RULE_HELP: &str = "Rule to compare by: `article` (default) or statistics joined by `+`, e.g. stroke-pos+ssd+possum-o";

#[derive(Subcommand)]
pub enum PokerCmd {
    /// The rank of a hand (Japanese and English) and its tie-break values
    #[command(after_help = "Example:\n  tabula poker judge oizsk")]
    Judge {
        /// Five of 大石泉すき, or of the letters o i z s k (e.g. oizsk)
        hand: String,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Which of two hands wins, and at which stage it is decided
    #[command(after_help = "Example:\n  tabula poker compare oizsk ooiis")]
    Compare {
        /// The first hand (e.g. oizsk)
        a: String,
        /// The second hand
        b: String,
        #[arg(long, default_value = "article", value_parser = Rule::parse, help = RULE_HELP)]
        rule: Rule,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Exact count and probability of each rank over all 3,125 hands; with --strength,
    /// every hand's chances against a random hand
    #[command(after_help = "Example:\n  tabula poker table")]
    Table {
        /// List all 3,125 hands, strongest first, with their chances to beat, tie and
        /// lose to a uniformly random hand
        #[arg(long)]
        strength: bool,
        #[arg(long, default_value = "article", value_parser = Rule::parse, help = RULE_HELP,
              requires = "strength")]
        rule: Rule,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// The exact chance that a hand beats, ties and loses to a uniformly random hand
    #[command(after_help = "Example:\n  tabula poker strength oizsk")]
    Strength {
        /// Five of 大石泉すき, or of the letters o i z s k (e.g. oizsk)
        hand: String,
        #[arg(long, default_value = "article", value_parser = Rule::parse, help = RULE_HELP)]
        rule: Rule,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Check the comparator over all 3,125 × 3,124 ordered pairs of different hands
    #[command(after_help = "Example:\n  tabula poker verify --json")]
    Verify {
        /// Example tied pairs to list per stage
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(0..=1000))]
        examples: u16,
        #[arg(long, default_value = "article", value_parser = Rule::parse, help = RULE_HELP)]
        rule: Rule,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Search a stated family of natural fifth rules for the one leaving the fewest ties
    #[command(after_help = "Example:\n  tabula poker search-rule --top 5")]
    SearchRule {
        /// Longest sequence of statistics to try as one rule (1 to 3)
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
        depth: u8,
        /// Single statistics to list in the human output
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
}

/// Emits `value` as JSON, or rendered for people.
fn show<T: serde::Serialize>(value: &T, json: bool, render: impl Fn(&T) -> String) -> Result<()> {
    if json {
        emit_json(value)
    } else {
        emit(&render(value))
    }
}

pub fn run(cmd: PokerCmd) -> Result<()> {
    match cmd {
        PokerCmd::Judge { hand, json } => {
            show(&Judgement::of(&Hand::parse(&hand)?), json, render_judgement)
        }
        PokerCmd::Compare { a, b, rule, json } => {
            show(&comparison(&a, &b, &rule)?, json, render_comparison)
        }
        PokerCmd::Table {
            strength: false,
            json,
            ..
        } => show(&frequency::rank_frequencies(), json, render_frequencies),
        PokerCmd::Table {
            strength: true,
            rule,
            json,
        } => show(
            &strength::strength_table(&rule),
            json,
            render_strength_table,
        ),
        PokerCmd::Strength { hand, rule, json } => {
            let s = strength::strength(&Hand::parse(&hand)?, &rule);
            show(&s, json, |s| render_strength(s, &rule))
        }
        PokerCmd::Verify {
            examples,
            rule,
            json,
        } => {
            let v = verify::verify_rule(&rule, examples.into());
            show(&v, json, render_verification)?;
            Ok(v.check()?)
        }
        PokerCmd::SearchRule { depth, top, json } => {
            show(&search::search(depth.into()), json, |r| {
                render_search(r, top)
            })
        }
    }
}

/// `compare`'s answer, for both doors (the command line and the server).
pub fn comparison(a: &str, b: &str, rule: &Rule) -> Result<Comparison> {
    Ok(Comparison::under(&Hand::parse(a)?, &Hand::parse(b)?, rule))
}

/// A short description of a comparison stage, for people.
fn describe(step: Step) -> String {
    match step {
        Step::Article(stage) => match stage {
            Stage::Rank => "the rank",
            Stage::SukiPosition => "rule 1 (すき further right)",
            Stage::RightPlaces => "rule 2 (more characters in their right place)",
            Stage::RightStrokes => "rule 3 (more strokes in the right place)",
            Stage::WrongStrokes => "rule 4 (fewer strokes out of place)",
        }
        .to_string(),
        Step::Fifth(stat) => format!(
            "the fifth rule's {} ({}; {} wins)",
            stat.name(),
            stat.description(),
            if stat.larger_wins() {
                "larger"
            } else {
                "smaller"
            }
        ),
    }
}

fn render_judgement(j: &Judgement) -> String {
    let t = &j.tie_breaks;
    let suki = match t.suki_find {
        -1 => "no すき".to_string(),
        p => format!("すき at positions {}–{}", p + 1, p + 2),
    };
    format!(
        "hand     {}  ({}, hand #{})\n\
         rank     {}  {} / {}\n\
         rule 1   suki_find     {:>2}   ({suki}; larger wins)\n\
         rule 2   right_places  {:>2}   (characters in their right place; more wins)\n\
         rule 3   right_strokes {:>2}   (their strokes; more wins)\n\
         rule 4   wrong_strokes {:>2}   (strokes out of place; fewer wins)",
        j.hand,
        j.romaji,
        j.index,
        j.rank,
        j.rank_japanese,
        j.rank_english,
        t.suki_find,
        t.right_places,
        t.right_strokes,
        t.wrong_strokes,
    )
}

fn render_comparison(c: &Comparison) -> String {
    let (sa, sb) = (&c.a.hand, &c.b.hand);
    let headline = match (c.winner, c.stage) {
        (Winner::A, Some(s)) => format!("{sa} beats {sb}: decided by {}", describe(s)),
        (Winner::B, Some(s)) => format!("{sb} beats {sa}: decided by {}", describe(s)),
        _ if sa == sb => format!("{sa} and {sb} are the same hand: a tie"),
        _ if c.rule.is_some() => {
            format!("{sa} and {sb} tie: the rank, all four rules and the fifth rule agree")
        }
        _ => format!(
            "{sa} and {sb} tie: the rank and all four rules agree \
             (the article's own comparator answers {} for a,b and {} for b,a)",
            c.article_compare, c.article_compare_reversed
        ),
    };
    let row = |name: &str, x: &str, y: &str| {
        format!("{name:<15} {} {}", pad_left(x, 22), pad_left(y, 22))
    };
    let rank = |j: &Judgement| format!("{} {}", j.rank, j.rank_english);
    let mut lines = vec![
        headline,
        String::new(),
        row("", &format!("a = {sa}"), &format!("b = {sb}")),
        row("rank", &rank(&c.a), &rank(&c.b)),
    ];
    let values = |t: &TieBreaks| {
        [
            i16::from(t.suki_find),
            t.right_places.into(),
            t.right_strokes.into(),
            t.wrong_strokes.into(),
        ]
    };
    let names = [
        "suki_find",
        "right_places",
        "right_strokes",
        "wrong_strokes",
    ];
    let (va, vb) = (values(&c.a.tie_breaks), values(&c.b.tie_breaks));
    for (i, name) in names.iter().enumerate() {
        lines.push(row(name, &va[i].to_string(), &vb[i].to_string()));
    }
    for p in &c.fifth_rule {
        lines.push(row(&p.statistic.name(), &p.a.to_string(), &p.b.to_string()));
    }
    if let Some(rule) = &c.rule {
        let fifth: Vec<String> = rule.fifth().iter().map(|s| s.name()).collect();
        let text = format!(
            "rule {rule}: the article's four rules, then {}",
            fifth.join(" → ")
        );
        lines.insert(1, text);
    }
    lines.join("\n")
}

/// `s` right-aligned in `width` terminal columns (kanji and kana take two).
fn pad_left(s: &str, width: usize) -> String {
    format!("{}{s}", " ".repeat(width.saturating_sub(s.width())))
}

/// `s` left-aligned in `width` terminal columns (kanji and kana take two).
fn pad_right(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(s.width())))
}

fn render_frequencies(f: &RankFrequencies) -> String {
    let mut out = vec![format!(
        "{:>4}  {:<20} {:<28} {:>5}  {:>9}  {:>10}",
        "rank", "english", "japanese", "count", "p_exact", "p"
    )];
    for r in &f.ranks {
        out.push(format!(
            "{:>4}  {:<20} {} {:>5}  {:>9}  {:>10.8}",
            r.rank,
            r.english,
            pad_right(r.japanese, 28),
            r.count,
            exact::fraction(&r.p_exact),
            r.p
        ));
    }
    out.push(format!(
        "{:>4}  {:<20} {:<28} {:>5}",
        "", "all hands", "", f.hands
    ));
    out.join("\n")
}

fn tick(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "NO"
    }
}

fn render_strength(s: &Strength, rule: &Rule) -> String {
    let line = |what: &str, n: u64, exact: &num_rational::Ratio<u64>, p: f64| {
        format!(
            "  {what:<9} {n:>5} hands   {:>10}  {p:.8}",
            tabula::exact::fraction(exact)
        )
    };
    [
        format!(
            "hand     {}  ({}, hand #{})  rank {} {}",
            s.hand, s.romaji, s.index, s.rank, s.rank_english
        ),
        format!("rule     {rule}"),
        "against a uniformly random hand (any of the 3,125, itself included):".to_string(),
        line("beats", s.beats, &s.p_win_exact, s.p_win),
        line("ties", s.ties, &s.p_tie_exact, s.p_tie),
        line("loses to", s.loses_to, &s.p_loss_exact, s.p_loss),
    ]
    .join("\n")
}

fn render_strength_table(t: &StrengthTable) -> String {
    let mut out = vec![
        format!(
            "every hand against a uniformly random one of the {} (itself included); rule {}",
            t.opponents, t.rule
        ),
        String::new(),
        format!(
            "{:>5}  {}  {:<6} {:<24} {:>10} {:>10}  {:>10} {:>10}  {:>10} {:>10}",
            "place",
            pad_right("hand", 10),
            "romaji",
            "rank",
            "win",
            "p_win",
            "tie",
            "p_tie",
            "loss",
            "p_loss"
        ),
    ];
    for (place, s) in t.hands.iter().enumerate() {
        out.push(format!(
            "{:>5}  {}  {:<6} {:<24} {:>10} {:>10.8}  {:>10} {:>10.8}  {:>10} {:>10.8}",
            place + 1,
            pad_right(&s.hand, 10),
            s.romaji,
            format!("{} {}", s.rank, s.rank_english),
            exact::fraction(&s.p_win_exact),
            s.p_win,
            exact::fraction(&s.p_tie_exact),
            s.p_tie,
            exact::fraction(&s.p_loss_exact),
            s.p_loss,
        ));
    }
    out.join("\n")
}

/// What the verification says about a chosen fifth rule (nothing under the article's
/// rule alone).
fn fifth_rule_text(v: &Verification) -> Option<String> {
    let f = v.fifth_rule.as_ref()?;
    let mut out = vec![format!("rule {}: the article's four rules, then", f.rule)];
    for s in &f.statistics {
        let side = if s.larger_wins { "larger" } else { "smaller" };
        out.push(format!("  {:<14} {} ({side} wins)", s.name, s.description));
    }
    out.push(if f.tie_free {
        format!(
            "tie-free: yes (all {} ordered pairs of different hands are decided, by both \
             counts; {} tie classes, one per hand)\n",
            v.pairs, v.strict_weak_order.levels
        )
    } else {
        format!("tie-free: no ({} ordered pairs still tie)\n", f.tied_pairs)
    });
    Some(out.join("\n"))
}

fn render_verification(v: &Verification) -> String {
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
            "the article's figures reproduced: {} (after rule 3: {}, after rule 4: {})",
            tick(v.article_figures.reproduced),
            v.article_figures.after_rule_3,
            v.article_figures.after_rule_4
        ),
        format!(
            "the article's functions agree on hands: {} of {}",
            v.article_agreement.agreeing, v.article_agreement.hands
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
    let d = &v.article_defect;
    out.extend([
        String::new(),
        format!(
            "the article's defect: compare_hand({}, {}) = {} and compare_hand({}, {}) = {}",
            d.a, d.b, d.article_compare_ab, d.b, d.a, d.article_compare_ba
        ),
        format!(
            "  ({} ordered pairs answer 1 both ways round; reported here as ties)",
            d.pairs_answering_1_both_ways
        ),
        String::new(),
        if v.holds() {
            "verification: ok".to_string()
        } else {
            "verification: FAILED".to_string()
        },
    ]);
    if let Some(text) = fifth_rule_text(v) {
        out.insert(out.len() - 1, text);
    }
    out.join("\n")
}

fn render_search(r: &SearchReport, top: usize) -> String {
    let mut out = vec!["family searched (applied after the article's four rules):".to_string()];
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
            for (rules, name) in d.zero_tie_examples.iter().zip(&d.zero_tie_names) {
                out.push(format!("      {name:<30} {}", rules.join(" → ")));
            }
        }
        out.push(format!(
            "    (use one with --rule NAME, e.g. `tabula poker verify --rule {}`)",
            r.best.name
        ));
    } else {
        out.push(format!(
            "no rule in the family leaves no ties; the best, {}, leaves {} ordered pairs tied",
            r.best.rules.join(" → "),
            r.best.tied_pairs
        ));
    }
    out.join("\n")
}
