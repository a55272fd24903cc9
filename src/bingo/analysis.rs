//! The exact results behind `tabula bingo exact` and `verify`, as typed values: the law of
//! one card beside the article's formula, the law of the first win among `K` cards, and the
//! exhaustive check of call orders. Their serde form is the `--json` document (keys as in
//! `docs/bingo.md`); the command layer renders them as text. The simulations are in
//! [`super::sampled`].

use super::formula::{compare, formula_cdf, formula_pmf, Gap};
use super::law::Summary;
use super::players::{self, Cards, Players, UsModel};
use super::{exact_law, orders, serde_opt_fraction, Card, Law, Method, Pattern, Result, Setup};
use crate::progress::Progress;
use num_rational::BigRational;
use serde::Serialize;

/// One call `n` of an exact law, with the article's formula beside it when it applies.
#[derive(Debug, Clone, Serialize)]
pub struct LawRow {
    /// The call `n`, from 0 to `M`.
    pub n: usize,
    /// P(T = n), as a float.
    pub p: f64,
    /// P(T = n) as a reduced fraction, when the law keeps its fractions.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub p_exact: Option<BigRational>,
    /// P(T ≤ n), as a float.
    pub cdf: f64,
    /// P(T ≤ n) as a reduced fraction, when the law keeps its fractions.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub cdf_exact: Option<BigRational>,
    /// P(T = n) by the article's formula (line pattern only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formula_p: Option<f64>,
    /// P(T ≤ n) by the article's formula (line pattern only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formula_cdf: Option<f64>,
}

/// `tabula bingo exact`: the exact law of `T` for one card, beside the article's formula.
#[derive(Debug, Clone, Serialize)]
pub struct SingleCard {
    /// The card, the drum and the pattern (written flat as `size`, `free`, `max`, `pattern`).
    #[serde(flatten)]
    pub setup: Setup,
    /// The method that counted the winning subsets (never `auto`).
    pub method: &'static str,
    /// `W_k`, the winning `k`-subsets of the numbered squares.
    pub winning_subsets: Vec<u64>,
    /// The summaries of the law (written flat: `mean`, `variance`, `median`, …).
    #[serde(flatten)]
    pub summary: Summary,
    /// One row per call `n = 0..=M`.
    pub distribution: Vec<LawRow>,
    /// How far the formula is from the law (line pattern only: the formula is about lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formula: Option<Gap>,
    /// The exact law itself (not serialized).
    #[serde(skip)]
    pub law: Law,
}

/// The exact law of one card, counted by `method`.
pub fn single_card(setup: &Setup, method: Method, progress: Progress<'_>) -> Result<SingleCard> {
    progress.start("computing the exact law", None);
    let (card, max, pattern) = (&setup.card, setup.max, setup.pattern);
    let w = super::winning_subsets(card, pattern, method);
    progress.finish();
    let w = w?;
    let law = Law::from_counts(card, max, &w);
    let formula = (pattern == Pattern::Line).then(|| formula_cdf(card, max));
    let formula_p = formula.as_deref().map(formula_pmf);
    let distribution = (0..=law.max())
        .map(|n| LawRow {
            n,
            p: law.p(n),
            p_exact: law.p_exact(n),
            cdf: law.cdf[n],
            cdf_exact: law.cdf_exact.as_ref().map(|c| c[n].clone()),
            formula_p: formula_p.as_ref().map(|f| f[n]),
            formula_cdf: formula.as_ref().map(|f| f[n]),
        })
        .collect();
    Ok(SingleCard {
        setup: setup.clone(),
        method: method.resolve(card, pattern).name(),
        winning_subsets: w,
        summary: law.summary(),
        distribution,
        formula: formula.as_ref().map(|f| compare(f, &law)),
        law,
    })
}

/// The `n` worth showing: from the first possible win to the last call with P(T = n) > 0.
pub fn support(law: &Law) -> std::ops::RangeInclusive<usize> {
    let first = (0..=law.max()).find(|&n| law.p(n) > 0.0).unwrap_or(0);
    let last = (0..=law.max())
        .rev()
        .find(|&n| law.p(n) > 0.0)
        .unwrap_or(law.max());
    first..=last
}

/// One call `n` of the law of the first win among `K` cards.
#[derive(Debug, Clone, Serialize)]
pub struct PlayersRow {
    /// The call `n`, from 0 to `M`.
    pub n: usize,
    /// P(the first win comes on call n), as a float.
    pub p: f64,
    /// The same as a reduced fraction, when the fractions are kept (`K ≤ 3`).
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub p_exact: Option<BigRational>,
    /// P(the first win comes by call n), as a float.
    pub cdf: f64,
    /// P(first win on call n and two or more cards win on it).
    pub shared: f64,
    /// `shared` as a reduced fraction, when the fractions are kept.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub shared_exact: Option<BigRational>,
    /// For US cards: the uniform-card shortcut's P(first win ≤ n).
    #[serde(skip)]
    pub shortcut_cdf: Option<f64>,
}

/// How far the uniform-card shortcut `1 − (1 − F)^K` is from the US-card law.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Shortcut {
    /// The mean first winning call by the shortcut (the US-card mean is in the summary).
    pub mean: f64,
    /// max_n |F_shortcut(n) − F_US(n)|: the largest error of P(first win ≤ n).
    pub max_cdf_error: f64,
    /// The call `n` where that largest error is reached.
    pub max_cdf_error_at: usize,
}

/// `tabula bingo exact --players K`: the law of the first winning call among `K` cards.
#[derive(Debug, Clone, Serialize)]
pub struct SeveralPlayers {
    /// The card, the drum and the pattern (written flat as `size`, `free`, `max`, `pattern`).
    #[serde(flatten)]
    pub setup: Setup,
    /// `K`, the number of cards in play.
    pub players: u32,
    /// How the cards are dealt: US cards or uniform ones.
    pub cards: Cards,
    /// Whether the fractions are kept.
    pub exact: bool,
    /// The summaries of the law of the first winning call (written flat).
    #[serde(flatten)]
    pub summary: Summary,
    /// P(the first win is shared).
    pub shared: f64,
    /// `shared` as a reduced fraction, when the fractions are kept.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub shared_exact: Option<BigRational>,
    /// One row per call `n = 0..=M`.
    pub distribution: Vec<PlayersRow>,
    /// For US cards, how far the uniform-card shortcut is off (`None` for uniform cards).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shortcut: Option<Shortcut>,
    /// The full result the rows are read from (not serialized).
    #[serde(skip)]
    pub result: Players,
}

/// The law of `K` cards of the model `cards`.
pub fn players_law(setup: &Setup, k: u32, cards: Cards) -> Result<Players> {
    let (card, max, pattern) = (&setup.card, setup.max, setup.pattern);
    match cards {
        Cards::Us => UsModel::new(card, pattern, max)?.players(k),
        Cards::Uniform => players::uniform(&exact_law(card, pattern, max, Method::Auto)?, k),
    }
}

/// The first win among `k` cards (`cards`: by default US cards on 5×5 with 75 numbers,
/// uniform cards otherwise).
pub fn several_players(
    setup: &Setup,
    k: u32,
    cards: Option<Cards>,
    progress: Progress<'_>,
) -> Result<SeveralPlayers> {
    progress.start("computing the exact law", None);
    let out = several_players_quietly(setup, k, cards);
    progress.finish();
    out
}

fn several_players_quietly(setup: &Setup, k: u32, cards: Option<Cards>) -> Result<SeveralPlayers> {
    let (card, max, pattern) = (&setup.card, setup.max, setup.pattern);
    let cards = cards.unwrap_or_else(|| players::default_cards(card, max));
    let result = players_law(setup, k, cards)?;
    let law = &result.first;
    // For US cards, how far off the uniform shortcut 1 − (1 − F)^K is.
    let uniform = match cards {
        Cards::Us => Some(players::uniform(
            &exact_law(card, pattern, max, Method::Auto)?,
            k,
        )?),
        Cards::Uniform => None,
    };
    let shortcut = uniform.as_ref().map(|uni| {
        let gap = compare(&uni.first.cdf, law);
        Shortcut {
            mean: uni.first.mean(),
            max_cdf_error: gap.cdf_error,
            max_cdf_error_at: gap.cdf_at,
        }
    });
    let distribution = (0..=law.max())
        .map(|n| PlayersRow {
            n,
            p: law.p(n),
            p_exact: law.p_exact(n),
            cdf: law.cdf[n],
            shared: result.shared[n],
            shared_exact: result.shared_exact.as_ref().map(|s| s[n].clone()),
            shortcut_cdf: uniform.as_ref().map(|u| u.first.cdf[n]),
        })
        .collect();
    Ok(SeveralPlayers {
        setup: setup.clone(),
        players: k,
        cards,
        exact: law.cdf_exact.is_some(),
        summary: law.summary(),
        shared: result.shared_total(),
        shared_exact: result.shared_total_exact(),
        distribution,
        shortcut,
        result,
    })
}

/// One call `n` of the exhaustive check.
#[derive(Debug, Clone, Serialize)]
pub struct OrdersRow {
    /// The call `n`, from 0 to `c` (the drum holds exactly the card's `c` numbers).
    pub n: usize,
    /// Call orders whose first win is on call `n`.
    pub orders: u64,
    /// P(T = n) by the call orders (`orders / c!`), as a float.
    pub p: f64,
    /// The same as a reduced fraction.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub p_exact: Option<BigRational>,
    /// P(T ≤ n) by the call orders, as a float.
    pub cdf: f64,
    /// The same probability from the winning-subset enumeration.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub enumeration_p_exact: Option<BigRational>,
}

/// `tabula bingo verify`: every call order of a tiny card against the exact law.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// The card, a drum of exactly its `c` numbers, and the pattern (written flat).
    #[serde(flatten)]
    pub setup: Setup,
    /// Number of call orders walked (`c!`).
    pub orders: u64,
    /// Whether the orders give exactly the law of the subset enumeration.
    pub agrees: bool,
    /// The summaries of the law given by the call orders (written flat).
    #[serde(flatten)]
    pub summary: Summary,
    /// One row per call `n = 0..=c`.
    pub distribution: Vec<OrdersRow>,
    /// The law given by the call orders (not serialized).
    #[serde(skip)]
    pub law: Law,
}

/// Walks every call order of a `size × size` card whose drum holds exactly its numbers.
pub fn verify(size: usize, free: bool, pattern: Pattern) -> Result<Verification> {
    let card = Card::new(size, free)?;
    let max = card.numbered() as u64;
    let found = orders::all_orders(&card, pattern)?;
    let by_orders = found.law();
    let exact = exact_law(&card, pattern, max, Method::Enumerate)?;
    let distribution = (0..=by_orders.max())
        .map(|n| OrdersRow {
            n,
            orders: found.counts[n],
            p: by_orders.p(n),
            p_exact: by_orders.p_exact(n),
            cdf: by_orders.cdf[n],
            enumeration_p_exact: exact.p_exact(n),
        })
        .collect();
    Ok(Verification {
        setup: Setup { card, max, pattern },
        orders: found.orders,
        agrees: by_orders == exact,
        summary: by_orders.summary(),
        distribution,
        law: by_orders,
    })
}
