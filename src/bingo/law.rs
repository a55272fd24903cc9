//! A law of the number of calls `T` (`0..=max`): its cumulative distribution, exact as
//! reduced fractions when known, always as floats, and its summaries (mean, median, mode,
//! percentiles).

use super::card::Card;
use crate::exact::big_float;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::Serialize;
use std::collections::BTreeMap;

/// The distribution of `T`, the call on which something first happens, over `0..=max`.
#[derive(Debug, Clone, PartialEq)]
pub struct Law {
    /// `cdf[n]` = P(T ≤ n), as floats.
    pub cdf: Vec<f64>,
    /// The same, exactly, when the method is exact and the fractions are kept.
    pub cdf_exact: Option<Vec<BigRational>>,
}

/// `C(n, k)` as a big integer (0 when `k > n`).
pub fn big_binomial(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut c = BigUint::one();
    for i in 0..k {
        c = c * (n - i) / (i + 1);
    }
    c
}

/// The percentiles every summary lists.
pub const PERCENTILES: [u32; 9] = [1, 5, 10, 25, 50, 75, 90, 95, 99];

/// The summaries of a law: mean and variance (exact when the law is), standard deviation,
/// median, mode, percentiles.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// `E[T]`, as a float.
    pub mean: f64,
    /// `E[T]` as a reduced fraction, when the law keeps its fractions.
    #[serde(serialize_with = "super::serde_opt_fraction::serialize")]
    pub mean_exact: Option<BigRational>,
    /// `Var T = E[T²] − E[T]²`, as a float.
    pub variance: f64,
    /// Var T as a reduced fraction, when the law keeps its fractions.
    #[serde(serialize_with = "super::serde_opt_fraction::serialize")]
    pub variance_exact: Option<BigRational>,
    /// The standard deviation (the square root of the variance; irrational in general).
    pub sd: f64,
    /// The median call (the 50th percentile, as [`Law::percentile`] defines it).
    pub median: usize,
    /// The most likely call `n` (the first, on ties).
    pub mode: usize,
    /// Percentile (of [`PERCENTILES`]) → the smallest `n` with P(T ≤ n) ≥ it.
    pub percentiles: BTreeMap<u32, usize>,
}

impl Law {
    /// The exact law of `T` for one card, calls from `1..=max`, from the winning-subset
    /// counts `w[k]` (`docs/bingo.md`, method 1):
    /// `P(T ≤ n) = Σ_k W_k · C(M − c, n − k) / C(M, n)`.
    pub fn from_counts(card: &Card, max: u64, w: &[u64]) -> Law {
        let c = card.numbered() as u64;
        let cdf_exact: Vec<BigRational> = (0..=max)
            .map(|n| {
                let mut numer = BigUint::zero();
                for (k, &wk) in w.iter().enumerate() {
                    let k = k as u64;
                    if wk == 0 || k > n || n - k > max - c {
                        continue;
                    }
                    numer += big_binomial(max - c, n - k) * wk;
                }
                BigRational::new(numer.into(), big_binomial(max, n).into())
            })
            .collect();
        Law::from_exact(cdf_exact)
    }

    /// A law from its exact cumulative distribution.
    pub fn from_exact(cdf_exact: Vec<BigRational>) -> Law {
        Law {
            cdf: cdf_exact.iter().map(big_float).collect(),
            cdf_exact: Some(cdf_exact),
        }
    }

    /// The largest `n`.
    pub fn max(&self) -> usize {
        self.cdf.len() - 1
    }

    /// P(T = n).
    pub fn p(&self, n: usize) -> f64 {
        let before = if n == 0 { 0.0 } else { self.cdf[n - 1] };
        self.cdf[n] - before
    }

    /// P(T = n), exactly.
    pub fn p_exact(&self, n: usize) -> Option<BigRational> {
        let cdf = self.cdf_exact.as_ref()?;
        Some(if n == 0 {
            cdf[0].clone()
        } else {
            &cdf[n] - &cdf[n - 1]
        })
    }

    /// The mean, `E[T] = Σ_{n < max} P(T > n)` (a proper law has P(T > max) = 0).
    pub fn mean(&self) -> f64 {
        match self.mean_exact() {
            Some(m) => big_float(&m),
            None => self.cdf.iter().map(|f| 1.0 - f).sum(),
        }
    }

    /// The mean `E[T]`, exactly.
    pub fn mean_exact(&self) -> Option<BigRational> {
        let cdf = self.cdf_exact.as_ref()?;
        let one = BigRational::one();
        Some(cdf.iter().fold(BigRational::zero(), |s, f| s + (&one - f)))
    }

    /// The variance, `Var T = E[T²] − E[T]²` with `E[T²] = Σ_n (2n + 1) P(T > n)`.
    pub fn variance(&self) -> f64 {
        match self.variance_exact() {
            Some(v) => big_float(&v),
            None => {
                let square: f64 = self
                    .cdf
                    .iter()
                    .enumerate()
                    .map(|(n, f)| (2 * n + 1) as f64 * (1.0 - f))
                    .sum();
                let mean = self.mean();
                (square - mean * mean).max(0.0)
            }
        }
    }

    /// The variance, exactly.
    pub fn variance_exact(&self) -> Option<BigRational> {
        let cdf = self.cdf_exact.as_ref()?;
        let one = BigRational::one();
        let square = cdf
            .iter()
            .enumerate()
            .fold(BigRational::zero(), |s, (n, f)| {
                s + (&one - f) * BigInt::from(2 * n + 1)
            });
        let mean = self.mean_exact()?;
        Some(square - &mean * &mean)
    }

    /// The standard deviation, `√Var T`.
    pub fn sd(&self) -> f64 {
        self.variance().sqrt()
    }

    /// The `percent`-th percentile: the smallest `n` with P(T ≤ n) ≥ percent/100, compared
    /// exactly when the law is exact (`percent` in 0..=100).
    pub fn percentile(&self, percent: u32) -> usize {
        if let Some(cdf) = &self.cdf_exact {
            let q = BigRational::new(BigInt::from(percent), BigInt::from(100));
            return cdf.iter().position(|f| *f >= q).unwrap_or(self.max());
        }
        let q = f64::from(percent) / 100.0;
        self.cdf.iter().position(|&f| f >= q).unwrap_or(self.max())
    }

    /// The summaries of the law.
    pub fn summary(&self) -> Summary {
        Summary {
            mean: self.mean(),
            mean_exact: self.mean_exact(),
            variance: self.variance(),
            variance_exact: self.variance_exact(),
            sd: self.sd(),
            median: self.median(),
            mode: self.mode(),
            percentiles: PERCENTILES
                .iter()
                .map(|&q| (q, self.percentile(q)))
                .collect(),
        }
    }

    /// The median (the 50th percentile as defined by [`Law::percentile`]).
    pub fn median(&self) -> usize {
        self.percentile(50)
    }

    /// The most likely `n` (the first, on ties; exact comparison when the law is exact).
    pub fn mode(&self) -> usize {
        if self.cdf_exact.is_some() {
            let ps: Vec<BigRational> = (0..=self.max()).filter_map(|n| self.p_exact(n)).collect();
            let mut best = 0;
            for (n, p) in ps.iter().enumerate() {
                if *p > ps[best] {
                    best = n;
                }
            }
            return best;
        }
        let mut best = 0;
        for n in 0..=self.max() {
            if self.p(n) > self.p(best) {
                best = n;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bingo::card::Pattern;
    use crate::bingo::enumerate::winning_subsets;

    fn frac(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn the_seed_s_hand_count_for_two_calls_on_three_by_three_is_one_seventh() {
        // The seed: 4 × 2/8 × 1/7 = 1/7.
        let card = Card::new(3, true).unwrap();
        let law = Law::from_counts(&card, 8, &winning_subsets(&card, Pattern::Line).unwrap());
        assert_eq!(law.cdf_exact.as_ref().unwrap()[2], frac(1, 7));
        assert_eq!(law.p_exact(1).unwrap(), frac(0, 1));
        assert_eq!(law.cdf_exact.as_ref().unwrap()[8], frac(1, 1));
        // P(T ≤ 3) is exactly 1/2, so the median is 3, not 4.
        assert_eq!(law.cdf_exact.as_ref().unwrap()[3], frac(1, 2));
        assert_eq!(law.median(), 3);
        assert_eq!(law.percentile(14), 2);
        assert_eq!(law.percentile(15), 3);
    }

    #[test]
    fn blackout_on_a_full_drum_happens_exactly_on_the_last_call() {
        let card = Card::new(3, true).unwrap();
        let law = Law::from_counts(
            &card,
            10,
            &winning_subsets(&card, Pattern::Blackout).unwrap(),
        );
        // T = the latest of 8 call times among 10: P(T ≤ n) = C(n, 8) / C(10, 8).
        assert_eq!(law.cdf_exact.as_ref().unwrap()[9], frac(9, 45));
        // E[T] = 8 · 11 / 9 for the maximum of 8 of 1..=10.
        assert_eq!(law.mean_exact().unwrap(), frac(88, 9));
        assert_eq!(law.mode(), 10);
        assert_eq!(law.median(), 10);
    }

    #[test]
    fn the_last_of_k_numbers_has_the_order_statistic_variance() {
        // The largest of a uniform k-subset of 1..=M has variance
        // k (M + 1) (M − k) / ((k + 1)² (k + 2)) (a closed form, not the tail sums used here).
        let card = Card::new(5, true).unwrap();
        for (pattern, k) in [(Pattern::Blackout, 24i64), (Pattern::Corners, 4)] {
            let m = 75i64;
            let law = Law::from_counts(&card, 75, &winning_subsets(&card, pattern).unwrap());
            let closed = frac(k * (m + 1) * (m - k), (k + 1) * (k + 1) * (k + 2));
            assert_eq!(law.variance_exact().unwrap(), closed, "{pattern}");
            assert!((law.sd() - big_float(&closed).sqrt()).abs() < 1e-12);
        }
    }

    #[test]
    fn the_variance_from_tail_sums_is_the_variance_from_the_probabilities() {
        // Σ n² P(T = n) − (Σ n P(T = n))², straight from the definition, on the 3×3 card.
        let card = Card::new(3, true).unwrap();
        for p in Pattern::ALL {
            let law = Law::from_counts(&card, 12, &winning_subsets(&card, p).unwrap());
            let (mut m1, mut m2) = (BigRational::zero(), BigRational::zero());
            for n in 0..=law.max() {
                let q = law.p_exact(n).unwrap();
                let n = BigRational::from_integer(BigInt::from(n));
                m1 += &q * &n;
                m2 += q * &n * &n;
            }
            assert_eq!(law.variance_exact().unwrap(), &m2 - &m1 * &m1, "{p}");
            // The float path (no fractions kept) agrees.
            let floats = Law {
                cdf: law.cdf.clone(),
                cdf_exact: None,
            };
            assert!((floats.variance() - law.variance()).abs() < 1e-9, "{p}");
        }
    }
}
