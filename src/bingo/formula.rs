//! Method 5: the article's approximate formula (`docs/bingo.md`), `1 − (1 − a)^8 (1 − b)^4` on 5×5 with
//! `a = P(n,5)/P(M,5)` and `b = P(n,4)/P(M,4)` (falling factorials).
//!
//! It treats the 12 lines as independent events: a line of `ℓ` numbered squares is full
//! after `n` calls with chance `P(n,ℓ)/P(M,ℓ)`. Generalised here to any card as
//! `1 − Π_lines (1 − P(n,ℓ)/P(M,ℓ))`, which is the article's formula on 5×5 (`docs/bingo.md`). The lines share
//! squares, so it is only an approximation; [`compare`] measures how far off it is.

use super::card::Card;
use super::law::Law;

/// `P(n, l) / P(m, l)` = the chance that `l` given numbers are all among `n` calls of `m`.
fn all_called(n: u64, l: u64, m: u64) -> f64 {
    if n < l {
        return 0.0;
    }
    (0..l).map(|i| (n - i) as f64 / (m - i) as f64).product()
}

/// The formula's P(T = n) from its cumulative distribution.
pub fn formula_pmf(cdf: &[f64]) -> Vec<f64> {
    (0..cdf.len())
        .map(|n| cdf[n] - if n == 0 { 0.0 } else { cdf[n - 1] })
        .collect()
}

/// The formula's P(T ≤ n) for `n = 0..=max`.
pub fn formula_cdf(card: &Card, max: u64) -> Vec<f64> {
    (0..=max)
        .map(|n| {
            1.0 - card
                .lines()
                .iter()
                .map(|l| 1.0 - all_called(n, u64::from(l.mask.count_ones()), max))
                .product::<f64>()
        })
        .collect()
}

/// How far the formula is from a law: the largest absolute errors, and where.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Gap {
    /// max |P_formula(T = n) − P(T = n)| and its `n`.
    #[serde(rename = "max_p_error")]
    pub pmf_error: f64,
    /// The call `n` where the largest P(T = n) error is reached.
    #[serde(rename = "max_p_error_at")]
    pub pmf_at: usize,
    /// max |F_formula(n) − F(n)| and its `n`.
    #[serde(rename = "max_cdf_error")]
    pub cdf_error: f64,
    /// The call `n` where the largest P(T ≤ n) error is reached.
    #[serde(rename = "max_cdf_error_at")]
    pub cdf_at: usize,
    /// The formula's mean, Σ_n (1 − F_formula(n)).
    pub mean: f64,
}

/// Compares the formula's cumulative distribution with an exact law.
pub fn compare(formula: &[f64], law: &Law) -> Gap {
    let mut gap = Gap {
        pmf_error: 0.0,
        pmf_at: 0,
        cdf_error: 0.0,
        cdf_at: 0,
        mean: formula.iter().map(|f| 1.0 - f).sum(),
    };
    for n in 0..formula.len() {
        let fp = formula[n] - if n == 0 { 0.0 } else { formula[n - 1] };
        let e = (fp - law.p(n)).abs();
        if e > gap.pmf_error {
            gap.pmf_error = e;
            gap.pmf_at = n;
        }
        let e = (formula[n] - law.cdf[n]).abs();
        if e > gap.cdf_error {
            gap.cdf_error = e;
            gap.cdf_at = n;
        }
    }
    gap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generalised_formula_is_the_seed_s_on_five_by_five() {
        let card = Card::new(5, true).unwrap();
        let ours = formula_cdf(&card, 75);
        for n in 0..=75u64 {
            let perm = |n: u64, k: u64| (0..k).map(|i| n.saturating_sub(i) as f64).product::<f64>();
            let a = perm(n, 5) / perm(75, 5);
            let b = perm(n, 4) / perm(75, 4);
            let seed = 1.0 - (1.0 - a).powi(8) * (1.0 - b).powi(4);
            assert!((ours[n as usize] - seed).abs() < 1e-12, "n = {n}");
        }
    }

    #[test]
    fn the_formula_agrees_to_first_order_on_four_calls_where_lines_cannot_overlap() {
        // With 4 calls only the 4 lines through the free centre can be full, and two of
        // them cannot be full at once: exact is 4 / C(75, 4), the formula 1 − (1 − b)^4.
        let card = Card::new(5, true).unwrap();
        let f = formula_cdf(&card, 75);
        let exact = 4.0 / 1_215_450.0; // 4 / C(75, 4)
        assert!((f[4] - exact).abs() / exact < 1e-5);
        assert!(f[4] < exact);
    }
}
