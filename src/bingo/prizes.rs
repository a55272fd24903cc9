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
//! each call. Both keep exact fractions, for any `K`, when the estimated work is within
//! [`EXACT_WORK`]: the sums are done in integers over a common scale (`Scaled`), one
//! large power per chance. Beyond the budget the floats come from the same exact integers.

use super::law::Law;
use super::players::{check_players, default_cards, Cards, UsModel};
use super::{exact_law, serde_opt_fraction, Error, Method, Result, Setup};
use crate::exact::big_float;
use crate::progress::Progress;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rayon::prelude::*;
use serde::Serialize;
use std::ops::{Add, Mul, Sub};

/// The exact fractions are kept when their estimated work (`Source::exact_work`) is at
/// most this many microseconds; beyond, the floats come from the same exact integers.
pub const EXACT_WORK: u64 = 5_000_000;

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

#[cfg(test)]
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
    /// The estimated work of the exact fractions in microseconds of one core (kept when at
    /// most [`EXACT_WORK`]; not serialized).
    #[serde(skip)]
    pub exact_work: u64,
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
    let (card, max) = (&setup.card, setup.max);
    let cards = cards.unwrap_or_else(|| default_cards(card, max));
    let source = Source::new(setup, cards)?;
    let exact_work = source.exact_work(k_players, prizes);
    let exact = source.exact(k_players, prizes);
    let (chance, split, last_cdf) = match &exact {
        Some(_) => Default::default(),
        None => source.floats(k_players, prizes),
    };
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
            chance: exact
                .as_ref()
                .map_or_else(|| chance[n], |e| big_float(&e.0[n])),
            chance_exact: exact.as_ref().map(|e| e.0[n].clone()),
            last_p: last_law.p(n),
            last_cdf: last_law.cdf[n],
            split: exact
                .as_ref()
                .map_or_else(|| split[n], |e| big_float(&e.1[n])),
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
        exact_work,
        last_law,
    })
}

/// What the sums are taken over: the law of one uniform card, or the US-card model.
enum Source {
    Uniform(Law),
    Us(UsModel),
}

impl Source {
    fn new(setup: &Setup, cards: Cards) -> Result<Source> {
        let (card, max, pattern) = (&setup.card, setup.max, setup.pattern);
        Ok(match cards {
            Cards::Uniform => Source::Uniform(exact_law(card, pattern, max, Method::Auto)?),
            Cards::Us => Source::Us(UsModel::new(card, pattern, max)?),
        })
    }

    /// The per-call sums as exact fractions, when they fit the time budget.
    fn exact(&self, players: u32, prizes: u32) -> Option<ExactSums> {
        if !self.exact_fits(players, prizes) {
            return None;
        }
        match self {
            Source::Uniform(single) => {
                let one = BigRational::one();
                let surv: Vec<BigRational> = single
                    .cdf_exact
                    .as_ref()?
                    .iter()
                    .map(|f| &one - f)
                    .collect();
                Some(uniform_exact(&surv, players, prizes))
            }
            Source::Us(model) => Some(us_exact(model, players, prizes)),
        }
    }

    /// Whether the exact sums fit the time budget: [`Source::exact_work`] at most
    /// [`EXACT_WORK`].
    fn exact_fits(&self, players: u32, prizes: u32) -> bool {
        self.exact_work(players, prizes) <= EXACT_WORK
    }

    /// The estimated work of the exact sums, in microseconds of one core (fitted to the
    /// timings in `docs/bingo.md`). With `w = ⌈K · bits(S) / 64⌉ + 1` the words of the
    /// largest numbers: uniform cards cost `0.6 (M + 1) w²` (reducing the fractions is
    /// quadratic), US cards `V (0.4 + 1.8 k + 0.035 (k + 1) w)` over the `V` count vectors
    /// (no `1.8 k` when `k = K`: nothing is split),
    /// plus the same reductions (the model itself, common to the floats, is not counted).
    pub(crate) fn exact_work(&self, players: u32, prizes: u32) -> u64 {
        let words = |scale_bits: u64| (u64::from(players) * scale_bits).div_ceil(64) + 1;
        match self {
            Source::Uniform(single) => {
                let Some(cdf) = &single.cdf_exact else {
                    return u64::MAX;
                };
                // The scale of call n is the lcm of the denominators of F(n − 1) and F(n).
                let bits = (1..cdf.len())
                    .map(|n| cdf[n - 1].denom().lcm(cdf[n].denom()).bits())
                    .max()
                    .unwrap_or(1);
                let w = words(bits);
                (cdf.len() as u64).saturating_mul(w * w) / 10 * 6
            }
            Source::Us(model) => {
                let w = words(model.scale().bits());
                let k = u64::from(prizes);
                // No split to sum when every player gets a prize.
                let split = if prizes < players { 1800 * k } else { 0 };
                let per_vector_ns = (400 + split).saturating_add((35 * (k + 1)).saturating_mul(w));
                let vectors = (model.vectors() as u64).saturating_mul(per_vector_ns) / 1000;
                vectors.saturating_add((model.max() + 1).saturating_mul(w * w) / 10 * 6)
            }
        }
    }

    /// The per-call sums in floats, from the same exact integers.
    fn floats(&self, players: u32, prizes: u32) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        match self {
            Source::Uniform(single) => {
                let surv: Vec<f64> = single.cdf.iter().map(|f| 1.0 - f).collect();
                uniform_sums(&surv, players, prizes)
            }
            Source::Us(model) => (
                model.per_call(|b, s| on_call(&b, &s, players, prizes).0),
                model.per_call(|b, s| on_call(&b, &s, players, prizes).1),
                model.per_state(|s| gone(&s, players, prizes)),
            ),
        }
    }
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

/// The binomial sums of [`on_call`] and [`gone`] in integers, for a card open with chance
/// `u/S` over a common scale `S`. Each sum is a homogeneous polynomial of degree `K` in
/// `(S, u)`, so a numerator over `S^K`; each is written as one large power of `u` times a
/// polynomial of degree at most `k`, so a chance costs one large power and a few products
/// of a large number by a small one, whatever `K`.
struct Scaled {
    players: u32,
    prizes: u32,
    scale: BigInt,
    /// `S^K`, the common denominator.
    scale_k: BigInt,
    /// `C(K, i)` for `i < k`.
    c_k: Vec<BigInt>,
    /// `C(K − 1, i)` for `i < k`.
    c_k1: Vec<BigInt>,
    /// `C(K, i) C(K − i, j)` for `i < k`, `j ≤ k − i`.
    c_split: Vec<Vec<BigInt>>,
    /// `β(b, c)` as a polynomial in `c`: `β = Σ_r γ_r(b) c^r` with
    /// `γ_r(b) = Σ_i λ_{i,r} (S − b)^i b^(k−i−r)`; `lambda[r]` lists the pairs `(i, λ_{i,r})`.
    lambda: Vec<Vec<(usize, BigInt)>>,
}

/// A card open with chance `u/S`, and the large numbers the sums take from it.
struct Open {
    u: BigInt,
    /// `u^(K−k)`.
    low: BigInt,
    /// `Q(u) = Σ_{j<k} C(K−1, j) (S − u)^j u^(K−1−j)`: `S^(K−1)` · P(fewer than `k` of the
    /// `K − 1` other cards are done).
    q: BigInt,
    /// `A(u) = Σ_{i<k} C(K, i) (S − u)^i u^(K−i)`: `S^K` · P(fewer than `k` cards are done).
    a: BigInt,
}

/// The coefficients `λ_{i,r}` of [`Scaled::gamma`]. With `m = k − i`, the coefficient of
/// `c^r` in `Σ_{j≤m} C(K−i, j) (b − c)^j c^(m−j)` is `b^(m−r) κ_{i,r}`, where
/// `κ_{i,r} = Σ_{j=m−r}^{m} C(K−i, j) C(j, r−m+j) (−1)^(r−m+j)` (expand `(b − c)^j`: the
/// power of `b` is always `m − r`); then `λ_{i,r} = C(K, i) κ_{i,r}`.
fn lambda(players: u32, prizes: u32) -> Vec<Vec<(usize, BigInt)>> {
    let c = |n: u32, i: u32| BigInt::from(super::law::big_binomial(n.into(), i.into()));
    (0..=prizes)
        .map(|r| {
            (0..prizes)
                .filter(|&i| r <= prizes - i)
                .map(|i| {
                    let m = prizes - i;
                    let kappa: BigInt = (m - r..=m)
                        .map(|j| {
                            let l = r + j - m;
                            let t = c(players - i, j) * c(j, l);
                            if l.is_multiple_of(2) {
                                t
                            } else {
                                -t
                            }
                        })
                        .sum();
                    (i as usize, c(players, i) * kappa)
                })
                .collect()
        })
        .collect()
}

/// `1, x, x², …, x^e`.
fn powers(x: &BigInt, e: u32) -> Vec<BigInt> {
    let mut v = Vec::with_capacity(e as usize + 1);
    v.push(BigInt::one());
    for i in 0..e as usize {
        let next = &v[i] * x;
        v.push(next);
    }
    v
}

impl Scaled {
    fn new(players: u32, prizes: u32, scale: BigInt) -> Scaled {
        let c = |n: u32, i: u32| BigInt::from(super::law::big_binomial(n.into(), i.into()));
        Scaled {
            scale_k: num_traits::pow(scale.clone(), players as usize),
            c_k: (0..prizes).map(|i| c(players, i)).collect(),
            c_k1: (0..prizes).map(|i| c(players - 1, i)).collect(),
            c_split: (0..prizes)
                .map(|i| {
                    (0..=prizes - i)
                        .map(|j| c(players, i) * c(players - i, j))
                        .collect()
                })
                .collect(),
            lambda: lambda(players, prizes),
            players,
            prizes,
            scale,
        }
    }

    /// `γ_0(b), …, γ_k(b)`, so that `β(b, c) = Σ_r γ_r(b) c^r`.
    fn gamma(&self, b: &BigInt) -> Vec<BigInt> {
        let k = self.prizes as usize;
        let down = powers(&(&self.scale - b), self.prizes);
        let up = powers(b, self.prizes);
        self.lambda
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .map(|(i, l)| l * &down[*i] * &up[k - i - r])
                    .sum()
            })
            .collect()
    }

    fn open(&self, u: BigInt) -> Open {
        let k = self.prizes as usize;
        let low = num_traits::pow(u.clone(), (self.players - self.prizes) as usize);
        let up = powers(&u, self.prizes);
        let down = powers(&(&self.scale - &u), self.prizes);
        // u^(K−1−j) = u^(K−k) u^(k−1−j) and u^(K−i) = u^(K−k) u · u^(k−1−i).
        let q: BigInt = (0..k)
            .map(|j| &self.c_k1[j] * &down[j] * &up[k - 1 - j])
            .sum();
        let a: BigInt = (0..k)
            .map(|i| &self.c_k[i] * &down[i] * &up[k - 1 - i])
            .sum();
        Open {
            q: &low * q,
            a: &low * &u * a,
            low,
            u,
        }
    }

    /// `β(b, c) = Σ_{i<k} Σ_{j≤k−i} C(K, i) C(K−i, j) (S − b)^i (b − c)^j c^(k−i−j)`, so
    /// that the split term `Σ_{i<k} C(K, i) (S − b)^i Σ_{j≤k−i} C(K−i, j) (b − c)^j
    /// c^(K−i−j)` is `c^(K−k) β(b, c)`.
    fn beta(&self, b: &BigInt, c: &BigInt) -> BigInt {
        let k = self.prizes as usize;
        let down = powers(&(&self.scale - b), self.prizes);
        let now = powers(&(b - c), self.prizes);
        let up = powers(c, self.prizes);
        let mut sum = BigInt::zero();
        for (i, row) in self.c_split.iter().enumerate() {
            let inner: BigInt = row
                .iter()
                .enumerate()
                .map(|(j, cij)| cij * &now[j] * &up[k - i - j])
                .sum();
            sum += &down[i] * inner;
        }
        sum
    }

    /// `S^K` · a given player's chance of a prize on a call that takes a card from open
    /// with chance `b/S` to open with chance `c/S`: `(b − c) Q(b)`.
    fn chance(&self, b: &Open, c: &Open) -> BigInt {
        (&b.u - &c.u) * &b.q
    }

    /// `S^K` · the chance that the last prize is split on that call: `A(b) − c^(K−k) β(b, c)`
    /// (none when there are as many prizes as players).
    fn split(&self, b: &Open, c: &Open) -> BigInt {
        if !self.splits() {
            return BigInt::zero();
        }
        &b.a - &c.low * self.beta(&b.u, &c.u)
    }

    /// Whether the last prize can be split: fewer prizes than players.
    fn splits(&self) -> bool {
        self.prizes < self.players
    }

    /// `S^K` · the chance that the last prize is gone: `S^K − A(c)`.
    fn gone(&self, c: &Open) -> BigInt {
        &self.scale_k - &c.a
    }
}

/// The exact per-call sums (chance, split, last prize gone by `n`) as reduced fractions.
type ExactSums = (Vec<BigRational>, Vec<BigRational>, Vec<BigRational>);

/// Uniform cards, exactly: on call `n` the scale is the lcm of the denominators of
/// `1 − F(n − 1)` and `1 − F(n)`.
fn uniform_exact(surv: &[BigRational], players: u32, prizes: u32) -> ExactSums {
    let one = BigRational::one();
    let per_n: Vec<(BigRational, BigRational, BigRational)> = (0..surv.len())
        .into_par_iter()
        .map(|n| {
            let b = if n == 0 { &one } else { &surv[n - 1] };
            let s = &surv[n];
            let scale = b.denom().lcm(s.denom());
            let sc = Scaled::new(players, prizes, scale.clone());
            let ob = sc.open(b.numer() * (&scale / b.denom()));
            let os = sc.open(s.numer() * (&scale / s.denom()));
            let over = |x: BigInt| BigRational::new(x, sc.scale_k.clone());
            (
                over(sc.chance(&ob, &os)),
                over(sc.split(&ob, &os)),
                over(sc.gone(&os)),
            )
        })
        .collect();
    unzip3(per_n)
}

fn unzip3<A, B, C>(v: Vec<(A, B, C)>) -> (Vec<A>, Vec<B>, Vec<C>) {
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for (a, b, c) in v {
        out.0.push(a);
        out.1.push(b);
        out.2.push(c);
    }
    out
}

/// US cards, exactly: the sums over the count vectors `c` of each call `n` and the column
/// `j` of the `n`-th call, all over the model's common scale, one layer of vectors at a time.
///
/// With `b = c − e_j`, `D(c) c_j = D(b) (R − b_j)`, so the terms that depend on `b` alone are
/// gathered on `b`: the chance term `Σ_c D(c) Σ_j c_j (u_b − u_c) Q(b)` is
/// `Σ_b Q(b) D(b) Σ_j (R − b_j) (u_b − u_{b+e_j})`, a large number times a small one per
/// vector; and `Σ_c D(c) Σ_j c_j A(b) = (M − n + 1) Σ_b D(b) A(b)` is the open sum of the
/// call before. The split's other term is `Σ_c D(c) u_c^(K−k) Σ_r u_c^r Σ_j c_j γ_r(b)`,
/// small numbers until one product per vector.
fn us_exact(model: &UsModel, players: u32, prizes: u32) -> ExactSums {
    let (scale, u) = model.open_scaled();
    let u: Vec<BigInt> = u.into_par_iter().map(BigInt::from).collect();
    let sc = Scaled::new(players, prizes, scale.into());
    let range = model.range();
    let layers = model.layers();
    let mut pos = vec![0usize; model.vectors()];
    for layer in &layers {
        for (p, (idx, _)) in layer.iter().enumerate() {
            pos[*idx] = p;
        }
    }
    let k = prizes as usize;
    let mut gammas: Vec<Vec<BigInt>> = Vec::new();
    let (mut open_before, mut chance_before) = (BigInt::zero(), BigInt::zero());
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for (n, layer) in layers.iter().enumerate() {
        let per: Vec<(BigInt, BigInt, BigInt, Vec<BigInt>)> = layer
            .par_iter()
            .map(|(idx, c)| {
                let uc = &u[*idx];
                let d = BigInt::from(model.total(*idx));
                let oc = sc.open(uc.clone());
                // Towards the next call: D(c) Σ_{j: c_j < R} (R − c_j) (u_c − u_{c+e_j}).
                let mut w = BigInt::zero();
                for (j, &cj) in c.iter().enumerate() {
                    if cj < range {
                        w += (uc - &u[idx + model.stride(j)]) * (range - cj);
                    }
                }
                let chance = &oc.q * (w * &d);
                let (mut minus, mut gamma) = (BigInt::zero(), Vec::new());
                if sc.splits() {
                    let mut g = vec![BigInt::zero(); k + 1];
                    for (j, &cj) in c.iter().enumerate() {
                        if cj > 0 {
                            let gb = &gammas[pos[idx - model.stride(j)]];
                            for (a, b) in g.iter_mut().zip(gb) {
                                *a += b * cj;
                            }
                        }
                    }
                    let up = powers(uc, prizes);
                    let sigma: BigInt = g.iter().zip(&up).map(|(a, b)| a * b).sum();
                    minus = &oc.low * (sigma * &d);
                    gamma = sc.gamma(uc);
                }
                (d * oc.a, chance, minus, gamma)
            })
            .collect();
        let [mut open, mut chance, mut minus] = [(); 3].map(|()| BigInt::zero());
        gammas = Vec::with_capacity(per.len());
        for (o, ch, mi, g) in per {
            open += o;
            chance += ch;
            minus += mi;
            gammas.push(g);
        }
        let all = BigInt::from(super::law::big_binomial(model.max(), n as u64)) * &sc.scale_k;
        // Σ_c D(c) = C(M, n): the last prize is gone unless fewer than k cards are done.
        out.2
            .push(BigRational::one() - BigRational::new(open.clone(), all.clone()));
        if n == 0 {
            out.0.push(BigRational::zero());
            out.1.push(BigRational::zero());
        } else {
            let all = all * BigInt::from(n);
            let split = if sc.splits() {
                open_before * BigInt::from(model.max() + 1 - n as u64) - minus
            } else {
                BigInt::zero()
            };
            out.0.push(BigRational::new(chance_before, all.clone()));
            out.1.push(BigRational::new(split, all));
        }
        open_before = open;
        chance_before = chance;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bingo::analysis::several_players;
    use crate::bingo::Pattern;

    /// With K = 2 and k = 1, both players get a share exactly when the first win is
    /// shared: 2 · P(prize) − 1 = P(shared first win), the law of `players`.
    fn two_players_share_one_prize_exactly_when_the_first_win_is_shared(max: u64) {
        let setup = Setup::new(5, true, Some(max), Pattern::Line).unwrap();
        for cards in [Cards::Uniform, Cards::Us] {
            let p = prizes(&setup, 2, 1, Some(cards), Progress::SILENT).unwrap();
            let first = several_players(&setup, 2, Some(cards), Progress::SILENT).unwrap();
            assert!(
                (2.0 * p.chance - 1.0 - first.shared).abs() < 1e-12,
                "{cards}"
            );
            assert!((p.split - first.shared).abs() < 1e-12, "{cards}");
            for n in 0..=max as usize {
                assert!((p.last_law.cdf[n] - first.result.first.cdf[n]).abs() < 1e-12);
            }
            // Exactly, for US cards as for uniform ones.
            let two = BigRational::from_integer(2.into());
            let shared = first.shared_exact.unwrap();
            assert_eq!(two * p.chance_exact.unwrap() - BigRational::one(), shared);
            assert_eq!(p.split_exact, Some(shared), "{cards}");
            assert_eq!(
                p.last_law.cdf_exact, first.result.first.cdf_exact,
                "{cards}"
            );
        }
    }

    #[test]
    fn two_players_and_one_prize_share_it_exactly_when_the_first_win_is_shared() {
        // 5×5 with 40 numbers (8 a column): the same sums as with 75, in a tenth of a second.
        two_players_share_one_prize_exactly_when_the_first_win_is_shared(40);
    }

    #[test]
    #[ignore = "about 10 s: the same check with 75 numbers (CI runs it)"]
    fn two_players_and_one_prize_share_it_exactly_when_the_first_win_is_shared_with_75_numbers() {
        two_players_share_one_prize_exactly_when_the_first_win_is_shared(75);
    }

    /// The US sums straight from [`on_call`] and [`gone`] in reduced fractions, vector by
    /// vector and column by column (no common scale, no factored powers).
    fn us_reference(model: &UsModel, players: u32, prizes: u32) -> ExactSums {
        let (scale, u) = model.open_scaled();
        let open = |idx: usize| BigRational::new(u[idx].clone().into(), scale.clone().into());
        let mut out = (Vec::new(), Vec::new(), Vec::new());
        for (n, layer) in model.layers().iter().enumerate() {
            let all = super::super::law::big_binomial(model.max(), n as u64);
            let [mut chance, mut split, mut last] = [(); 3].map(|()| BigRational::zero());
            for (idx, c) in layer {
                let pc = BigRational::new(model.total(*idx).into(), all.clone().into());
                let s = open(*idx);
                last += &pc * gone(&s, players, prizes);
                for (j, &cj) in c.iter().enumerate() {
                    if cj > 0 {
                        let b = open(idx - model.stride(j));
                        let w = &pc * BigRational::new(cj.into(), (n as u64).into());
                        let (ch, sp) = on_call(&b, &s, players, prizes);
                        chance += &w * ch;
                        split += w * sp;
                    }
                }
            }
            out.0.push(chance);
            out.1.push(split);
            out.2.push(last);
        }
        out
    }

    #[test]
    fn the_integer_sums_are_the_formulas_evaluated_in_fractions() {
        // Factored powers over a common scale against the plain formulas in fractions.
        let small = Setup::new(3, true, Some(12), Pattern::Line).unwrap();
        let model = UsModel::new(&small.card, small.pattern, small.max).unwrap();
        for (k, prizes_) in [(1, 1), (2, 1), (4, 2), (5, 5), (7, 3), (12, 10)] {
            assert_eq!(
                us_exact(&model, k, prizes_),
                us_reference(&model, k, prizes_),
                "US, K = {k}, k = {prizes_}"
            );
        }
        let single = exact_law(&small.card, small.pattern, 12, Method::Auto).unwrap();
        let one = BigRational::one();
        let surv: Vec<BigRational> = single.cdf_exact.unwrap().iter().map(|f| &one - f).collect();
        for (k, prizes_) in [(1, 1), (3, 2), (6, 6), (9, 4), (40, 10)] {
            assert_eq!(
                uniform_exact(&surv, k, prizes_),
                uniform_sums(&surv, k, prizes_),
                "uniform, K = {k}, k = {prizes_}"
            );
        }
    }

    /// The exact prize fractions against the floats computed from the same integers.
    fn exact_fractions_agree_with_floats(setup: &Setup, cards: Cards, k: u32, prizes_: u32) {
        let p = prizes(setup, k, prizes_, Some(cards), Progress::SILENT).unwrap();
        assert!(p.exact, "{cards} K = {k}: work {}", p.exact_work);
        let (chance, split, last) = Source::new(setup, cards).unwrap().floats(k, prizes_);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        let exact_chance = big_float(p.chance_exact.as_ref().unwrap());
        assert!(close(exact_chance, chance.iter().sum()), "{cards} K = {k}");
        let exact_split = big_float(p.split_exact.as_ref().unwrap());
        assert!(close(exact_split, split.iter().sum()), "{cards} K = {k}");
        for (n, row) in p.distribution.iter().enumerate() {
            let c = big_float(row.chance_exact.as_ref().unwrap());
            assert!(close(c, chance[n]), "{cards} K = {k}, n = {n}");
            assert!(close(row.split, split[n]), "{cards} K = {k}, n = {n}");
            assert!(
                close(row.last_cdf, last[n].min(1.0)),
                "{cards} K = {k}, n = {n}"
            );
        }
        // The expected number of prizes per player is k/K: the chance of a prize is at
        // least that, exactly, with ties.
        let share = BigRational::new(prizes_.into(), k.into());
        assert!(p.chance_exact.unwrap() >= share);
    }

    #[test]
    fn the_exact_fractions_agree_with_the_floats_from_the_same_integers() {
        let cases = [
            (
                Setup::new(4, true, Some(40), Pattern::Line).unwrap(),
                Cards::Us,
                20,
                3,
            ),
            (
                Setup::new(4, false, Some(32), Pattern::Corners).unwrap(),
                Cards::Us,
                50,
                10,
            ),
            // 5×5 US cards with 30 numbers (6 a column): the free centre and five columns
            // as with 75, a fraction of the work (75 numbers: the ignored test below).
            // The drums are small (10, 8 and 6 numbers a column, 50 for the uniform
            // cards): the same kinds of card, players and prizes at a third of the work.
            (
                Setup::new(5, true, Some(30), Pattern::Line).unwrap(),
                Cards::Us,
                3,
                2,
            ),
            (
                Setup::new(5, true, Some(50), Pattern::Line).unwrap(),
                Cards::Uniform,
                100,
                7,
            ),
        ];
        for (setup, cards, k, prizes_) in cases {
            exact_fractions_agree_with_floats(&setup, cards, k, prizes_);
        }
    }

    #[test]
    #[ignore = "about 10 s: 5×5 US cards with 75 numbers (CI runs it)"]
    fn the_exact_fractions_agree_with_the_floats_for_us_cards_with_75_numbers() {
        let setup = Setup::new(5, true, Some(75), Pattern::Line).unwrap();
        exact_fractions_agree_with_floats(&setup, Cards::Us, 3, 2);
    }

    #[test]
    fn beyond_the_time_budget_the_floats_are_kept_and_said_to_be() {
        let setup = Setup::new(5, true, Some(75), Pattern::Line).unwrap();
        let p = prizes(&setup, 100_000, 10, Some(Cards::Uniform), Progress::SILENT).unwrap();
        assert!(!p.exact && p.exact_work > EXACT_WORK);
        assert!(p.chance_exact.is_none() && p.split_exact.is_none());
        assert!(p.last.mean_exact.is_none());
        // Still a proper law and an expected share of k/K = 1/10000.
        assert!((p.last_law.cdf[75] - 1.0).abs() < 1e-12);
        assert!(p.chance >= 1e-4 && p.chance < 2e-4, "{}", p.chance);
        // The estimate grows with the players and the prizes.
        let source = Source::new(&setup, Cards::Us).unwrap();
        assert!(source.exact_work(3, 1) < source.exact_work(30, 1));
        assert!(source.exact_work(30, 1) < source.exact_work(30, 10));
    }

    #[test]
    fn as_many_prizes_as_players_give_everyone_one_and_none_is_split() {
        let setup = Setup::new(3, true, Some(12), Pattern::Line).unwrap();
        for cards in [Cards::Uniform, Cards::Us] {
            let p = prizes(&setup, 3, 3, Some(cards), Progress::SILENT).unwrap();
            assert_eq!(p.chance_exact, Some(BigRational::one()), "{cards}");
            assert_eq!(p.split_exact, Some(BigRational::zero()), "{cards}");
        }
        assert!(prizes(&setup, 3, 4, None, Progress::SILENT).is_err());
        assert!(prizes(&setup, 3, 0, None, Progress::SILENT).is_err());
    }

    /// Dealt cards (simulated games) against the exact prize chances and the law of the
    /// last prize's call.
    fn dealt_cards_agree_with_the_formulas(setup: &Setup, cards: Cards, k: u32, prizes_: u32) {
        use crate::bingo::players_sim::simulate_players;
        use crate::bingo::Run;
        use crate::stats::chi_square;
        let exact = prizes(setup, k, prizes_, Some(cards), Progress::SILENT).unwrap();
        let run = Run {
            games: 60_000,
            seed: 21,
        };
        let sample = simulate_players(setup, cards, k, prizes_, &run, Progress::SILENT).unwrap();
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

    #[test]
    fn dealt_cards_win_prizes_as_often_as_the_formulas_say() {
        let cases = [
            // 5×5 US cards with 40 numbers (75 numbers: the ignored test below).
            (
                Setup::new(5, true, Some(40), Pattern::Line).unwrap(),
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
            dealt_cards_agree_with_the_formulas(&setup, cards, k, prizes_);
        }
    }

    #[test]
    #[ignore = "a few seconds: 5×5 US cards with 75 numbers (CI runs it)"]
    fn dealt_us_cards_with_75_numbers_win_prizes_as_often_as_the_formulas_say() {
        let setup = Setup::new(5, true, Some(75), Pattern::Line).unwrap();
        dealt_cards_agree_with_the_formulas(&setup, Cards::Us, 6, 2);
    }
}
