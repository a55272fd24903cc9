//! Several players (`docs/bingo.md`): `K` cards, one shared sequence of calls. The law of the first winning
//! call, and the chance that two or more cards win on that same call (a shared prize).
//!
//! **Uniform cards** (each card's numbers uniform from `1..=M`): given the calls, the cards
//! are independent and each has won by call `n` with chance `F(n)`, so
//! `P(no winner by n) = (1 − F(n))^K` exactly.
//!
//! **US cards** (column `j` takes its numbers from its own range of `R = M/s` numbers): the
//! cards are independent only given how many calls `c_j` fell in each column range. Given
//! `c_j`, a card's marked squares in column `j` number `m_j ~ Hypergeometric(R, s_j, c_j)`
//! and are a uniform `m_j`-subset of the column. With `G[m]` = number of winning marked
//! sets with per-column counts `m` (one pass over all `2^c` masks), a card's chance to have
//! won is `F(c) = A(c)/D(c)` with `D(c) = Π_j C(R, c_j)` and
//! `A(c) = Σ_m G[m] Π_j C(R − s_j, c_j − m_j)`, a tensor contraction done one column at a
//! time. Then `P(no winner by n) = Σ_{|c| = n} P(c | n) (1 − F(c))^K` with the multivariate
//! hypergeometric `P(c | n) = D(c)/C(M, n)`; the shared-win chance also conditions on the
//! column of the n-th call (probability `c_j/n`).
//!
//! Floats are computed from these exact integers for any `K`; exact fractions are kept for
//! `K ≤` [`EXACT_PLAYERS`] (beyond that they run to thousands of digits).

use super::card::{Card, Pattern};
use super::law::{big_binomial, Law};
use super::{Error, Result};
use crate::exact::big_float;
use crate::rank::{Ranker, Words};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rayon::prelude::*;
use std::fmt;
use std::str::FromStr;

/// Exact fractions are kept for at most this many players.
pub const EXACT_PLAYERS: u32 = 3;

/// Largest number of players.
pub const MAX_PLAYERS: u32 = 1_000_000;

/// How the cards' numbers are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cards {
    /// Each card: `c` distinct numbers uniform from `1..=M`.
    Uniform,
    /// Column `j` from its own range of `M/s` numbers (B 1–15, I 16–30, … on 5×5/75).
    Us,
}

impl FromStr for Cards {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "uniform" => Ok(Cards::Uniform),
            "us" => Ok(Cards::Us),
            _ => Err(Error::UnknownCards {
                name: s.to_string(),
            }),
        }
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cards::Uniform => "uniform",
            Cards::Us => "us",
        })
    }
}

/// The result for `K` players.
#[derive(Debug, Clone)]
pub struct Players {
    /// `K`, the number of cards in play.
    pub players: u32,
    /// How the cards are dealt: US cards or uniform ones.
    pub cards: Cards,
    /// The law of the first winning call.
    pub first: Law,
    /// `shared[n]` = P(first win on call n and two or more cards win on it).
    pub shared: Vec<f64>,
    /// `shared` as reduced fractions, when they are kept (`K ≤ 3`).
    pub shared_exact: Option<Vec<BigRational>>,
}

impl Players {
    /// P(the first win is shared), summed over calls.
    pub fn shared_total(&self) -> f64 {
        match self.shared_total_exact() {
            Some(q) => big_float(&q),
            None => self.shared.iter().sum(),
        }
    }

    /// The same, exactly.
    pub fn shared_total_exact(&self) -> Option<BigRational> {
        let s = self.shared_exact.as_ref()?;
        Some(s.iter().fold(BigRational::zero(), |a, b| a + b))
    }
}

/// Checks `1 ≤ k ≤` [`MAX_PLAYERS`].
pub(crate) fn check_players(k: u32) -> Result<()> {
    if k == 0 || k > MAX_PLAYERS {
        return Err(Error::Players {
            got: k,
            largest: MAX_PLAYERS,
        });
    }
    Ok(())
}

/// Checks that `max` cuts into one range per column, each at least a column long.
pub(crate) fn check_us_drum(card: &Card, max: u64) -> Result<()> {
    let s = card.size() as u64;
    if !max.is_multiple_of(s) || max / s < s {
        return Err(Error::UsDrum {
            size: card.size(),
            got: max,
        });
    }
    Ok(())
}

/// Uniform cards: from the single-card law `single`, exactly.
pub fn uniform(single: &Law, k: u32) -> Result<Players> {
    check_players(k)?;
    let max = single.max();
    let kf = k as i32;
    let surv: Vec<f64> = (0..=max).map(|n| 1.0 - single.cdf[n]).collect();
    let first_cdf: Vec<f64> = surv.iter().map(|s| 1.0 - s.powi(kf)).collect();
    let shared: Vec<f64> = (0..=max)
        .map(|n| {
            let before = if n == 0 { 1.0 } else { surv[n - 1] };
            let s = surv[n];
            let first = before.powi(kf) - s.powi(kf);
            (first - f64::from(k) * (before - s) * s.powi(kf - 1)).max(0.0)
        })
        .collect();
    let (first, shared_exact) = match (&single.cdf_exact, k <= EXACT_PLAYERS) {
        (Some(cdf), true) => {
            let one = BigRational::one();
            let ku = k as usize;
            let surv: Vec<BigRational> = cdf.iter().map(|f| &one - f).collect();
            let first = surv.iter().map(|s| &one - pow(s, ku)).collect();
            let shared: Vec<BigRational> = (0..=max)
                .map(|n| {
                    let before = if n == 0 {
                        one.clone()
                    } else {
                        surv[n - 1].clone()
                    };
                    let s = &surv[n];
                    pow(&before, ku)
                        - pow(s, ku)
                        - BigRational::from_integer(BigInt::from(k))
                            * (&before - s)
                            * pow(s, ku - 1)
                })
                .collect();
            (Law::from_exact(first), Some(shared))
        }
        _ => (
            Law {
                cdf: first_cdf,
                cdf_exact: None,
            },
            None,
        ),
    };
    let shared = match &shared_exact {
        Some(e) => e.iter().map(big_float).collect(),
        None => shared,
    };
    Ok(Players {
        players: k,
        cards: Cards::Uniform,
        first,
        shared,
        shared_exact,
    })
}

fn pow(q: &BigRational, k: usize) -> BigRational {
    num_traits::pow(q.clone(), k)
}

/// The US-card model prepared for one card geometry, pattern and drum: the per-column
/// count vectors `c` and the integers `A(c)`, `D(c)` for each.
#[derive(Debug, Clone)]
pub struct UsModel {
    max: u64,
    /// Numbers per column range.
    range: u64,
    /// Number of columns.
    cols: usize,
    /// `survivors[idx]` = D(c) − A(c), `totals[idx]` = D(c), for the count vector `c` of
    /// rank `idx` among the words over `0..=R` (see [`UsModel::layers`]).
    survivors: Vec<u128>,
    totals: Vec<u128>,
}

impl UsModel {
    /// Prepares the model: one pass over all marked sets for `G`, then the contraction.
    pub fn new(card: &Card, pattern: Pattern, max: u64) -> Result<UsModel> {
        let s = card.size() as u64;
        let c = card.numbered();
        check_us_drum(card, max)?;
        if c > super::enumerate::MAX_ENUMERATED {
            return Err(Error::UsCardTooLarge { size: card.size() });
        }
        let range = max / s;
        let cols = card.size();
        let col_masks: Vec<u64> = (0..cols).map(|j| card.column(j)).collect();
        let col_sizes: Vec<usize> = col_masks.iter().map(|m| m.count_ones() as usize).collect();
        // G over the mixed radix (s_j + 1), column 0 most significant.
        let g_dims: Vec<usize> = col_sizes.iter().map(|&k| k + 1).collect();
        let g_len: usize = g_dims.iter().product();
        let judge = card.judge(pattern);
        let chunk = 1u64 << 16;
        let total = 1u64 << c;
        let g: Vec<u128> = (0..total.div_ceil(chunk))
            .into_par_iter()
            .map(|i| {
                let mut local = vec![0u128; g_len];
                for mask in i * chunk..((i + 1) * chunk).min(total) {
                    if judge.wins(mask) {
                        let idx = col_masks.iter().zip(&g_dims).fold(0usize, |a, (cm, d)| {
                            a * d + (mask & cm).count_ones() as usize
                        });
                        local[idx] += 1;
                    }
                }
                local
            })
            .reduce(
                || vec![0u128; g_len],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        // Contract column by column: m_j → c_j with kernel C(R − s_j, c_j − m_j).
        let overflow = || Error::UsOverflow;
        let mut tensor = g;
        let mut dims = g_dims.clone();
        for j in 0..cols {
            let sj = col_sizes[j] as u64;
            let kernel: Vec<Vec<u128>> = (0..=range)
                .map(|cj| {
                    (0..=sj)
                        .map(|m| {
                            if m > cj {
                                Ok(0)
                            } else {
                                crate::rank::binomial(range - sj, cj - m)
                                    .map(u128::from)
                                    .ok_or_else(overflow)
                            }
                        })
                        .collect::<Result<Vec<_>>>()
                })
                .collect::<Result<Vec<_>>>()?;
            let outer: usize = dims[..j].iter().product();
            let inner: usize = dims[j + 1..].iter().product();
            let (old_d, new_d) = (dims[j], range as usize + 1);
            let mut next = vec![0u128; outer * new_d * inner];
            for o in 0..outer {
                for (cj, row) in kernel.iter().enumerate() {
                    for i in 0..inner {
                        let mut acc: u128 = 0;
                        for (m, &kv) in row.iter().enumerate() {
                            if kv != 0 {
                                let t = tensor[(o * old_d + m) * inner + i];
                                acc = kv
                                    .checked_mul(t)
                                    .and_then(|x| acc.checked_add(x))
                                    .ok_or_else(overflow)?;
                            }
                        }
                        next[(o * new_d + cj) * inner + i] = acc;
                    }
                }
            }
            tensor = next;
            dims[j] = new_d;
        }
        let binoms: Vec<u128> = (0..=range)
            .map(|k| u128::from(crate::rank::binomial(range, k).unwrap_or(0)))
            .collect();
        let r1 = range as usize + 1;
        let totals: Vec<u128> = (0..tensor.len())
            .map(|idx| {
                let mut rest = idx;
                let mut d: u128 = 1;
                for _ in 0..cols {
                    d = d.checked_mul(binoms[rest % r1]).ok_or_else(overflow)?;
                    rest /= r1;
                }
                Ok(d)
            })
            .collect::<Result<Vec<_>>>()?;
        let survivors = totals.iter().zip(&tensor).map(|(d, a)| d - a).collect();
        Ok(UsModel {
            max,
            range,
            cols,
            survivors,
            totals,
        })
    }

    /// The count vectors `c` grouped by their sum `n = 0..=M`, each with its index: its
    /// rank among the words of `cols` letters over `0..=R` ([`Words`], lexicographic, so
    /// column 0 is the most significant digit, as in the contracted tensor).
    pub(crate) fn layers(&self) -> Vec<Vec<(usize, Vec<u64>)>> {
        let words = Words::new(self.range as usize + 1, self.cols).expect("(R + 1)^cols fits");
        let mut layers = vec![Vec::new(); self.max as usize + 1];
        for (idx, word) in words.iter().enumerate() {
            let c: Vec<u64> = word.iter().map(|&x| u64::from(x)).collect();
            let n: u64 = c.iter().sum();
            layers[n as usize].push((idx, c));
        }
        layers
    }

    /// The stride of column `j` in the tensor index (a power of `R + 1`).
    pub(crate) fn stride(&self, j: usize) -> usize {
        (self.range as usize + 1).pow((self.cols - 1 - j) as u32)
    }

    /// Numbers per column range, `R = M/s`.
    pub(crate) fn range(&self) -> u64 {
        self.range
    }

    /// The drum's size `M`.
    pub(crate) fn max(&self) -> u64 {
        self.max
    }

    /// How many count vectors there are, `(R + 1)^cols`.
    pub(crate) fn vectors(&self) -> usize {
        self.totals.len()
    }

    /// `D(c) = Π_j C(R, c_j)`, the number of ways to have the count vector of rank `idx`
    /// (so `P(c | n) = D(c)/C(M, n)`).
    pub(crate) fn total(&self, idx: usize) -> u128 {
        self.totals[idx]
    }

    /// `S = L^cols`, `L` the lcm of the binomials `C(R, i)`: every `D(c)` divides it.
    pub(crate) fn scale(&self) -> BigUint {
        let l = (0..=self.range).fold(BigUint::one(), |a, i| a.lcm(&big_binomial(self.range, i)));
        num_traits::pow(l, self.cols)
    }

    /// A card's chance to be still open as integers over one common scale: `(S, u)` with
    /// `u[idx]/S = (D(c) − A(c))/D(c)` for every count vector, `S = L^cols` and `L` the lcm
    /// of the binomials `C(R, i)` (every `D(c)` divides `S`).
    pub(crate) fn open_scaled(&self) -> (BigUint, Vec<BigUint>) {
        let scale = self.scale();
        let u = self
            .survivors
            .par_iter()
            .zip(&self.totals)
            .map(|(&s, &d)| BigUint::from(s) * (&scale / d))
            .collect();
        (scale, u)
    }

    /// The law for `k` players.
    pub fn players(&self, k: u32) -> Result<Players> {
        check_players(k)?;
        let layers = self.layers();
        let (cdf, shared) = self.floats(k, &layers);
        let mut result = Players {
            players: k,
            cards: Cards::Us,
            first: Law {
                cdf,
                cdf_exact: None,
            },
            shared,
            shared_exact: None,
        };
        if k > EXACT_PLAYERS {
            return Ok(result);
        }
        if let Some((cdf, shared)) = self.exact(k, &layers) {
            result.shared = shared.iter().map(big_float).collect();
            result.first = Law::from_exact(cdf);
            result.shared_exact = Some(shared);
        }
        Ok(result)
    }

    #[cfg(test)]
    fn players_float_for_test(&self, k: u32) -> (Vec<f64>, Vec<f64>) {
        self.floats(k, &self.layers())
    }

    /// For each call `n`: `Σ_c P(c | n) · Σ_j (c_j / n) · g(s(c − e_j), s(c))`, the sum over
    /// the count vectors `c` after `n` calls and the column `j` of the `n`-th call, where
    /// `s` is a card's chance not to have won yet (floats from the exact integers).
    pub(crate) fn per_call(&self, g: impl Fn(f64, f64) -> f64 + Sync) -> Vec<f64> {
        let layers = self.layers();
        layers
            .par_iter()
            .enumerate()
            .map(|(n, layer)| {
                if n == 0 {
                    return 0.0;
                }
                let all = big_float(&BigRational::from_integer(
                    big_binomial(self.max, n as u64).into(),
                ));
                let mut sum = 0.0;
                for (idx, c) in layer {
                    let pc = self.totals[*idx] as f64 / all;
                    let s = self.survivors[*idx] as f64 / self.totals[*idx] as f64;
                    for (j, &cj) in c.iter().enumerate() {
                        if cj > 0 {
                            let b = idx - self.stride(j);
                            let before = self.survivors[b] as f64 / self.totals[b] as f64;
                            sum += pc * cj as f64 / n as f64 * g(before, s);
                        }
                    }
                }
                sum
            })
            .collect()
    }

    /// For each call `n`: `Σ_c P(c | n) · h(s(c))` over the count vectors after `n` calls.
    pub(crate) fn per_state(&self, h: impl Fn(f64) -> f64 + Sync) -> Vec<f64> {
        let layers = self.layers();
        layers
            .par_iter()
            .enumerate()
            .map(|(n, layer)| {
                let all = big_float(&BigRational::from_integer(
                    big_binomial(self.max, n as u64).into(),
                ));
                layer
                    .iter()
                    .map(|(idx, _)| {
                        let pc = self.totals[*idx] as f64 / all;
                        pc * h(self.survivors[*idx] as f64 / self.totals[*idx] as f64)
                    })
                    .sum()
            })
            .collect()
    }

    /// P(T_K ≤ n) and the shared-win chances, in floats from the exact integers.
    fn floats(&self, k: u32, layers: &[Vec<(usize, Vec<u64>)>]) -> (Vec<f64>, Vec<f64>) {
        let kf = k as i32;
        let survive: Vec<f64> = self
            .survivors
            .iter()
            .zip(&self.totals)
            .map(|(&s, &d)| s as f64 / d as f64)
            .collect();
        let per_n: Vec<(f64, f64, f64)> = layers
            .par_iter()
            .enumerate()
            .map(|(n, layer)| {
                let all = big_binomial(self.max, n as u64);
                let all = big_float(&BigRational::new(all.into(), BigInt::one()));
                let (mut won, mut first, mut single) = (0.0, 0.0, 0.0);
                for (idx, c) in layer {
                    let pc = self.totals[*idx] as f64 / all;
                    let s = survive[*idx];
                    won += pc * (1.0 - s.powi(kf));
                    if n == 0 {
                        continue;
                    }
                    for (j, &cj) in c.iter().enumerate() {
                        if cj == 0 {
                            continue;
                        }
                        let w = pc * cj as f64 / n as f64;
                        let before = survive[idx - self.stride(j)];
                        first += w * (before.powi(kf) - s.powi(kf));
                        single += w * f64::from(k) * (before - s) * s.powi(kf - 1);
                    }
                }
                (won, first, single)
            })
            .collect();
        let cdf: Vec<f64> = per_n.iter().map(|t| t.0.min(1.0)).collect();
        let shared: Vec<f64> = per_n.iter().map(|t| (t.1 - t.2).max(0.0)).collect();
        (cdf, shared)
    }

    /// Exact fractions for small `k`: survival of a card as `u(c)/L^cols` with `L` the lcm of
    /// the column binomials, so every sum is over integers. `None` when `L^cols` does not fit
    /// 128 bits (drums much larger than 15 numbers per column): floats only, then.
    fn exact(
        &self,
        k: u32,
        layers: &[Vec<(usize, Vec<u64>)>],
    ) -> Option<(Vec<BigRational>, Vec<BigRational>)> {
        let ku = k as usize;
        let l = (0..=self.range).fold(BigUint::one(), |a, i| a.lcm(&big_binomial(self.range, i)));
        let scale = num_traits::pow(l, self.cols);
        // u(c) = (D − A) · (scale / D) ≤ scale, in 128 bits when the scale fits.
        let scale128 = u128::try_from(&scale).ok()?;
        let us: Vec<u128> = self
            .survivors
            .iter()
            .zip(&self.totals)
            .map(|(&s, &d)| s * (scale128 / d))
            .collect();
        let u = |idx: usize| BigUint::from(us[idx]);
        let scale_k = num_traits::pow(scale.clone(), ku);
        // Per count vector c (sum n), with ub_j = u(c − e_j) and uc = u(c):
        //   Σ_j c_j [ub_j^K − uc^K − K (ub_j − uc) uc^(K−1)]
        //   = Σ_j c_j ub_j^K + (K − 1) n uc^K − K (Σ_j c_j ub_j) uc^(K−1),
        // so each vector costs one big power per neighbour and no signed big arithmetic.
        let per_n: Vec<(BigRational, BigRational)> = layers
            .par_iter()
            .enumerate()
            .map(|(n, layer)| {
                let all = big_binomial(self.max, n as u64);
                let mut none = BigUint::zero();
                let mut plus = BigUint::zero();
                let mut minus = BigUint::zero();
                for (idx, c) in layer {
                    let d = BigUint::from(self.totals[*idx]);
                    let uc = u(*idx);
                    let uc_k1 = num_traits::pow(uc.clone(), ku - 1);
                    let uc_k = &uc_k1 * &uc;
                    let mut neighbours_k = BigUint::zero();
                    let mut neighbours = BigUint::zero();
                    for (j, &cj) in c.iter().enumerate() {
                        if cj == 0 {
                            continue;
                        }
                        let ub = u(idx - self.stride(j));
                        neighbours_k += num_traits::pow(ub.clone(), ku) * cj;
                        neighbours += ub * cj;
                    }
                    plus += &d * (neighbours_k + &uc_k * ((ku as u64 - 1) * n as u64));
                    minus += &d * neighbours * &uc_k1 * k;
                    none += d * uc_k;
                }
                let denom = BigInt::from(&all * &scale_k);
                let surv = BigRational::new(none.into(), denom.clone());
                let shared = if n == 0 {
                    BigRational::zero()
                } else {
                    BigRational::new(
                        BigInt::from(plus) - BigInt::from(minus),
                        denom * BigInt::from(n),
                    )
                };
                (BigRational::one() - surv, shared)
            })
            .collect();
        Some(per_n.into_iter().unzip())
    }
}

/// The default card model: US cards on the 5×5 card with 75 numbers, uniform otherwise.
pub fn default_cards(card: &Card, max: u64) -> Cards {
    if card.size() == 5 && max == 75 {
        Cards::Us
    } else {
        Cards::Uniform
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bingo::{exact_law, Method};

    fn five() -> Card {
        Card::new(5, true).unwrap()
    }

    #[test]
    fn one_us_card_has_exactly_the_single_card_law() {
        // 40 numbers, 8 a column: the free centre and five columns as with 75, a tenth of
        // the work.
        let card = five();
        let single = exact_law(&card, Pattern::Line, 40, Method::InclusionExclusion).unwrap();
        let one = UsModel::new(&card, Pattern::Line, 40)
            .unwrap()
            .players(1)
            .unwrap();
        assert_eq!(one.first.cdf_exact, single.cdf_exact);
        assert_eq!(one.shared_total_exact(), Some(BigRational::zero()));
    }

    /// The float path (as used beyond EXACT_PLAYERS) against the exact fractions, K = 3.
    fn floats_agree_with_the_exact_fractions(max: u64) {
        let model = UsModel::new(&five(), Pattern::Line, max).unwrap();
        let exact = model.players(3).unwrap();
        // The float path alone, as used beyond EXACT_PLAYERS: recompute with the same k.
        let layers = model.layers();
        let (cdf, shared) = model.exact(3, &layers).unwrap();
        assert_eq!(Some(cdf), exact.first.cdf_exact);
        for (e, f) in shared.iter().zip(&exact.shared) {
            assert!((big_float(e) - f).abs() < 1e-15);
        }
        let float_only = UsModel::players_float_for_test(&model, 3);
        for n in 0..=max as usize {
            assert!(
                (float_only.0[n] - exact.first.cdf[n]).abs() < 1e-12,
                "n = {n}"
            );
            assert!((float_only.1[n] - exact.shared[n]).abs() < 1e-12, "n = {n}");
        }
    }

    #[test]
    fn floats_for_many_players_agree_with_the_exact_fractions_for_few() {
        // 5×5 with 40 numbers (8 a column): the same sums as with 75, a fraction of the work.
        floats_agree_with_the_exact_fractions(40);
    }

    #[test]
    #[ignore = "about 8 s: the same check with 75 numbers (CI runs it)"]
    fn floats_for_many_players_agree_with_the_exact_fractions_for_few_with_75_numbers() {
        floats_agree_with_the_exact_fractions(75);
    }

    #[test]
    fn us_cards_are_not_uniform_cards_for_several_players() {
        // The 1 − (1 − F)^K shortcut is exact for uniform cards but not for US cards (here
        // with 40 numbers, 8 a column: a third of the work of 75).
        let card = five();
        let single = exact_law(&card, Pattern::Line, 40, Method::InclusionExclusion).unwrap();
        let uni = uniform(&single, 100).unwrap();
        let us = UsModel::new(&card, Pattern::Line, 40)
            .unwrap()
            .players(100)
            .unwrap();
        let gap = (0..=40)
            .map(|n| (uni.first.cdf[n] - us.first.cdf[n]).abs())
            .fold(0.0, f64::max);
        assert!(gap > 1e-3, "gap {gap}");
        // Both are proper laws with every winner by the last call.
        assert!((us.first.cdf[40] - 1.0).abs() < 1e-12);
        assert!((uni.first.cdf[40] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn two_uniform_players_follow_the_product_rule_exactly() {
        let card = Card::new(3, true).unwrap();
        let single = exact_law(&card, Pattern::Line, 8, Method::Enumerate).unwrap();
        let two = uniform(&single, 2).unwrap();
        let one = BigRational::one();
        let f = single.cdf_exact.as_ref().unwrap();
        let g = two.first.cdf_exact.as_ref().unwrap();
        for n in 0..=8 {
            let s = &one - &f[n];
            assert_eq!(g[n], &one - &s * &s);
        }
        // With M = c = 8 a shared win at call 2 needs both cards to win on the same pair.
        assert!(two.shared_total() > 0.0);
    }

    #[test]
    fn zero_players_and_bad_drums_are_refused() {
        let card = five();
        assert!(UsModel::new(&card, Pattern::Line, 74).is_err());
        let model = UsModel::new(&card, Pattern::Line, 40).unwrap();
        assert!(model.players(0).is_err());
    }
}
