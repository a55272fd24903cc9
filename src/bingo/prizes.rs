//! Prizes (`docs/bingo.md`, Prizes): `K` cards, `k` prizes for the first cards to complete,
//! ties shared as a hall shares them.
//!
//! A player gets (part of) a prize exactly when fewer than `k` other cards completed
//! strictly before its own card: then at least one prize is left on its call. Given the
//! calls, the cards are independent, each not yet complete with chance `s` (uniform cards:
//! `s = 1 − F(n)` whatever the calls; US cards: `s(c)` for the count vector `c` of calls per
//! column, see [`super::players`]). So, with `b` the chance before call `n` and `s` after:
//!
//! - P(a given player wins a prize on call n) = `(b − s) · P(Bin(K − 1, 1 − b) < k)`;
//! - P(the k-th prize is gone by call n) = `P(Bin(K, 1 − s) ≥ k)`;
//! - P(the k-th prize is split on call n) = `Σ_{i<k} P(Bin(K, 1 − b) = i) ·
//!   P(Bin(K − i, 1 − s/b) ≥ k + 1 − i)` (more cards complete on that call than prizes
//!   remain).
//!
//! Uniform cards are summed over calls; US cards over the count vectors and the column of
//! each call. Uniform cards keep exact fractions for `K ≤` [`EXACT_PLAYERS`]; otherwise, and
//! for US cards, the floats come from the same exact integers.

use super::law::Law;
use super::players::{check_players, default_cards, Cards, UsModel, EXACT_PLAYERS};
use super::{exact_law, serde_opt_fraction, Error, Method, Result, Setup};
use crate::exact::big_float;
use crate::progress::Progress;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::Serialize;
use std::ops::{Add, Mul, Sub};

/// Most prizes one game hands out.
pub const MAX_PRIZES: u32 = 10;

/// Checks `1 ≤ prizes ≤ min(players,` [`MAX_PRIZES`]`)`.
pub(crate) fn check_prizes(players: u32, prizes: u32) -> Result<()> {
    if prizes == 0 || prizes > players.min(MAX_PRIZES) {
        return Err(Error::Prizes {
            got: prizes,
            players: players.min(MAX_PRIZES),
        });
    }
    Ok(())
}

/// The numbers the formulas are evaluated in: floats, or exact fractions.
trait Number: Clone + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    fn int(n: u64) -> Self;
    /// `C(n, i)`.
    fn choose(n: u32, i: u32) -> Self;
    fn pow(&self, e: u32) -> Self;
}

impl Number for f64 {
    fn int(n: u64) -> f64 {
        n as f64
    }
    fn choose(n: u32, i: u32) -> f64 {
        (0..i).fold(1.0, |c, t| c * f64::from(n - t) / f64::from(t + 1))
    }
    fn pow(&self, e: u32) -> f64 {
        self.powi(e as i32)
    }
}

impl Number for BigRational {
    fn int(n: u64) -> BigRational {
        BigRational::from_integer(BigInt::from(n))
    }
    fn choose(n: u32, i: u32) -> BigRational {
        BigRational::from_integer(super::law::big_binomial(n.into(), i.into()).into())
    }
    fn pow(&self, e: u32) -> BigRational {
        num_traits::pow(self.clone(), e as usize)
    }
}

/// `Σ_{j < m} C(n, j) x^j y^(n − j)` (with `x + y = 1`: P(Bin(n, x) < m)).
fn lower_terms<T: Number>(n: u32, m: u32, x: &T, y: &T) -> T {
    (0..m.min(n + 1)).fold(T::int(0), |a, j| {
        a + T::choose(n, j) * x.pow(j) * y.pow(n - j)
    })
}

/// On one call, from `b` (a card not complete before the call) and `s` (not complete after
/// it): a given player's chance of a prize on this call, and the chance that the last
/// prize is split on it.
fn on_call<T: Number>(b: &T, s: &T, players: u32, prizes: u32) -> (T, T) {
    let done = T::int(1) - b.clone();
    let now = b.clone() - s.clone();
    let chance = now.clone() * lower_terms(players - 1, prizes, &done, b);
    // i cards done before (i < k), then at least k + 1 − i of the other K − i on this call:
    // C(K, i) (1 − b)^i [b^(K−i) − Σ_{j < k+1−i} C(K−i, j) (b − s)^j s^(K−i−j)].
    let mut split = T::int(0);
    for i in 0..prizes.min(players + 1) {
        let rest = players - i;
        let need = prizes + 1 - i;
        if need > rest {
            continue;
        }
        let tail = b.pow(rest) - lower_terms(rest, need, &now, s);
        split = split + T::choose(players, i) * done.pow(i) * tail;
    }
    (chance, split)
}

/// On one call, from `s`: the chance that the `k`-th prize is gone (`k` cards complete).
fn gone<T: Number>(s: &T, players: u32, prizes: u32) -> T {
    let done = T::int(1) - s.clone();
    T::int(1) - lower_terms(players, prizes, &done, s)
}

/// Prizes for `K` players, per call and in total.
#[derive(Debug, Clone, Serialize)]
pub struct PrizeRow {
    /// The call `n`, from 0 to `M`.
    pub n: usize,
    /// P(a given player wins a prize, or a share of one, on call n).
    pub chance: f64,
    /// `chance` as a reduced fraction, when the fractions are kept.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub chance_exact: Option<BigRational>,
    /// P(the last prize goes on call n).
    pub last_p: f64,
    /// P(the last prize is gone by call n).
    pub last_cdf: f64,
    /// P(the last prize goes on call n and is split).
    pub split: f64,
}

/// `tabula bingo exact --players K --prizes k`.
#[derive(Debug, Clone, Serialize)]
pub struct Prizes {
    /// The card, the drum and the pattern (written flat as `size`, `free`, `max`, `pattern`).
    #[serde(flatten)]
    pub setup: Setup,
    /// `K`, the number of cards in play.
    pub players: u32,
    /// `k`, the number of prizes (1 to min(`K`, 10)).
    pub prizes: u32,
    /// How the cards are dealt: US cards or uniform ones.
    pub cards: Cards,
    /// Whether the fractions are kept.
    pub exact: bool,
    /// Each player's chance of a prize (or of a share of one).
    pub chance: f64,
    /// `chance` as a reduced fraction, when the fractions are kept.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub chance_exact: Option<BigRational>,
    /// Each player's expected number of prizes, `k/K` (shares counted as fractions).
    #[serde(serialize_with = "crate::exact::serde_fraction::serialize")]
    pub expected_share: num_rational::Ratio<u64>,
    /// P(the last prize is split between cards completing on the same call).
    pub split: f64,
    /// `split` as a reduced fraction, when the fractions are kept.
    #[serde(serialize_with = "serde_opt_fraction::serialize")]
    pub split_exact: Option<BigRational>,
    /// The call at which the last (`k`-th) prize goes: its summaries.
    pub last: super::law::Summary,
    /// One row per call `n = 0..=M`.
    pub distribution: Vec<PrizeRow>,
    /// The law of the call on which the last prize goes (not serialized).
    #[serde(skip)]
    pub last_law: Law,
}

/// Prizes for `k_players` cards of the model `cards` and `prizes` prizes.
pub fn prizes(
    setup: &Setup,
    k_players: u32,
    prizes: u32,
    cards: Option<Cards>,
    progress: Progress<'_>,
) -> Result<Prizes> {
    progress.start("computing the prizes", None);
    let out = prizes_quietly(setup, k_players, prizes, cards);
    progress.finish();
    out
}

fn prizes_quietly(
    setup: &Setup,
    k_players: u32,
    prizes: u32,
    cards: Option<Cards>,
) -> Result<Prizes> {
    check_players(k_players)?;
    check_prizes(k_players, prizes)?;
    let (card, max, pattern) = (&setup.card, setup.max, setup.pattern);
    let cards = cards.unwrap_or_else(|| default_cards(card, max));
    let (chance, split, last_cdf): (Vec<f64>, Vec<f64>, Vec<f64>);
    let mut exact: Option<(Vec<BigRational>, Vec<BigRational>, Vec<BigRational>)> = None;
    match cards {
        Cards::Uniform => {
            let single = exact_law(card, pattern, max, Method::Auto)?;
            let surv: Vec<f64> = single.cdf.iter().map(|f| 1.0 - f).collect();
            (chance, split, last_cdf) = uniform_sums(&surv, k_players, prizes);
            if let (Some(cdf), true) = (&single.cdf_exact, k_players <= EXACT_PLAYERS) {
                let surv: Vec<BigRational> = cdf.iter().map(|f| BigRational::one() - f).collect();
                exact = Some(uniform_sums(&surv, k_players, prizes));
            }
        }
        Cards::Us => {
            let model = UsModel::new(card, pattern, max)?;
            chance = model.per_call(|b, s| on_call(&b, &s, k_players, prizes).0);
            split = model.per_call(|b, s| on_call(&b, &s, k_players, prizes).1);
            last_cdf = model.per_state(|s| gone(&s, k_players, prizes));
        }
    }
    let last_law = match &exact {
        Some((_, _, cdf)) => Law::from_exact(cdf.clone()),
        None => Law {
            cdf: last_cdf.iter().map(|f| f.min(1.0)).collect(),
            cdf_exact: None,
        },
    };
    let sum = |v: &[BigRational]| v.iter().fold(BigRational::zero(), |a, b| a + b);
    let distribution = (0..=max as usize)
        .map(|n| PrizeRow {
            n,
            chance: exact.as_ref().map_or(chance[n], |e| big_float(&e.0[n])),
            chance_exact: exact.as_ref().map(|e| e.0[n].clone()),
            last_p: last_law.p(n),
            last_cdf: last_law.cdf[n],
            split: exact.as_ref().map_or(split[n], |e| big_float(&e.1[n])),
        })
        .collect();
    let chance_exact = exact.as_ref().map(|e| sum(&e.0));
    let split_exact = exact.as_ref().map(|e| sum(&e.1));
    Ok(Prizes {
        setup: setup.clone(),
        players: k_players,
        prizes,
        cards,
        exact: exact.is_some(),
        chance: chance_exact
            .as_ref()
            .map_or_else(|| chance.iter().sum(), big_float),
        chance_exact,
        expected_share: num_rational::Ratio::new(u64::from(prizes), u64::from(k_players)),
        split: split_exact
            .as_ref()
            .map_or_else(|| split.iter().sum(), big_float),
        split_exact,
        last: last_law.summary(),
        distribution,
        last_law,
    })
}

/// Uniform cards: the per-call sums, from the survival `1 − F(n)` of one card.
fn uniform_sums<T: Number>(surv: &[T], players: u32, prizes: u32) -> (Vec<T>, Vec<T>, Vec<T>) {
    let mut chance = Vec::with_capacity(surv.len());
    let mut split = Vec::with_capacity(surv.len());
    for n in 0..surv.len() {
        let b = if n == 0 {
            T::int(1)
        } else {
            surv[n - 1].clone()
        };
        let (c, s) = on_call(&b, &surv[n], players, prizes);
        chance.push(c);
        split.push(s);
    }
    let last = surv.iter().map(|s| gone(s, players, prizes)).collect();
    (chance, split, last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bingo::analysis::several_players;
    use crate::bingo::Pattern;

    #[test]
    fn two_players_and_one_prize_share_it_exactly_when_the_first_win_is_shared() {
        // With K = 2 and k = 1, both players get a share exactly when the first win is
        // shared: 2 · P(prize) − 1 = P(shared first win), the law of `players`.
        let setup = Setup::new(5, true, Some(75), Pattern::Line).unwrap();
        for cards in [Cards::Uniform, Cards::Us] {
            let p = prizes(&setup, 2, 1, Some(cards), Progress::SILENT).unwrap();
            let first = several_players(&setup, 2, Some(cards), Progress::SILENT).unwrap();
            assert!(
                (2.0 * p.chance - 1.0 - first.shared).abs() < 1e-12,
                "{cards}"
            );
            assert!((p.split - first.shared).abs() < 1e-12, "{cards}");
            for n in 0..=75 {
                assert!((p.last_law.cdf[n] - first.result.first.cdf[n]).abs() < 1e-12);
            }
            if cards == Cards::Uniform {
                let two = BigRational::from_integer(2.into());
                assert_eq!(
                    two * p.chance_exact.unwrap() - BigRational::one(),
                    first.shared_exact.unwrap()
                );
            }
        }
    }

    #[test]
    fn as_many_prizes_as_players_give_everyone_one_and_none_is_split() {
        let setup = Setup::new(3, true, Some(12), Pattern::Line).unwrap();
        for cards in [Cards::Uniform, Cards::Us] {
            let p = prizes(&setup, 3, 3, Some(cards), Progress::SILENT).unwrap();
            assert!((p.chance - 1.0).abs() < 1e-12 && p.split.abs() < 1e-12);
        }
        assert!(prizes(&setup, 3, 4, None, Progress::SILENT).is_err());
        assert!(prizes(&setup, 3, 0, None, Progress::SILENT).is_err());
    }

    #[test]
    fn dealt_cards_win_prizes_as_often_as_the_formulas_say() {
        use crate::bingo::players_sim::simulate_players;
        use crate::bingo::Run;
        use crate::stats::chi_square;
        let cases = [
            (
                Setup::new(5, true, Some(75), Pattern::Line).unwrap(),
                Cards::Us,
                6,
                2,
            ),
            (
                Setup::new(3, true, Some(12), Pattern::Line).unwrap(),
                Cards::Uniform,
                4,
                3,
            ),
            (
                Setup::new(3, true, Some(12), Pattern::Line).unwrap(),
                Cards::Us,
                5,
                2,
            ),
        ];
        for (setup, cards, k, prizes_) in cases {
            let exact = prizes(&setup, k, prizes_, Some(cards), Progress::SILENT).unwrap();
            let run = Run {
                games: 60_000,
                seed: 21,
            };
            let sample =
                simulate_players(&setup, cards, k, prizes_, &run, Progress::SILENT).unwrap();
            let g = run.games as f64;
            let near = |hits: u64, p: f64, what: &str| {
                let se = (p * (1.0 - p) / g).sqrt();
                let got = hits as f64 / g;
                assert!((got - p).abs() < 5.0 * se + 1e-9, "{what}: {got} vs {p}");
            };
            near(sample.prize.iter().sum(), exact.chance, "chance");
            near(sample.split.iter().sum(), exact.split, "split");
            let probs: Vec<f64> = (0..=setup.max as usize)
                .map(|n| exact.last_law.p(n))
                .collect();
            let chi = chi_square(&sample.last, &probs);
            assert!(chi.p_value > 1e-4, "last prize law rejected: {chi:?}");
        }
    }
}
