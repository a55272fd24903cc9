//! Small statistics for the simulation: Wilson intervals and the chi-square test.

/// The mean of a histogram: `counts[n]` observations of the value `n`.
pub fn sample_mean(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let sum: f64 = counts
        .iter()
        .enumerate()
        .map(|(n, &k)| n as f64 * k as f64)
        .sum();
    sum / total.max(1) as f64
}

pub use crate::stats::wilson95;

/// A chi-square goodness-of-fit test of observed counts against expected probabilities.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChiSquare {
    pub statistic: f64,
    /// Degrees of freedom: pooled bins − 1.
    pub df: usize,
    pub p_value: f64,
}

/// Pools adjacent bins (left to right) until each expects at least 5 observations, then
/// tests. A count in a bin of probability zero makes the statistic infinite.
pub fn chi_square(observed: &[u64], probs: &[f64]) -> ChiSquare {
    let total: u64 = observed.iter().sum();
    let n = total as f64;
    let mut bins: Vec<(f64, f64)> = Vec::new();
    let mut impossible = false;
    let (mut o, mut e) = (0.0, 0.0);
    for (&obs, &p) in observed.iter().zip(probs) {
        if p <= 0.0 && obs > 0 {
            impossible = true;
        }
        o += obs as f64;
        e += p * n;
        if e >= 5.0 {
            bins.push((o, e));
            o = 0.0;
            e = 0.0;
        }
    }
    if e > 0.0 || o > 0.0 {
        match bins.last_mut() {
            Some(last) => {
                last.0 += o;
                last.1 += e;
            }
            None => bins.push((o, e)),
        }
    }
    let statistic = if impossible {
        f64::INFINITY
    } else {
        bins.iter()
            .map(|&(o, e)| if e > 0.0 { (o - e) * (o - e) / e } else { 0.0 })
            .sum()
    };
    let df = bins.len().saturating_sub(1);
    let p_value = if statistic.is_infinite() {
        0.0
    } else if df == 0 {
        1.0
    } else {
        upper_gamma_regularized(df as f64 / 2.0, statistic / 2.0)
    };
    ChiSquare {
        statistic,
        df,
        p_value,
    }
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let mut a = C[0];
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Q(a, x) = Γ(a, x) / Γ(a): series below a + 1, continued fraction above.
pub fn upper_gamma_regularized(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let log_prefactor = -x + a * x.ln() - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * log_prefactor.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (log_prefactor.exp() * h).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_tail_matches_known_critical_values() {
        // 3.841 is the 95% point of chi-square with 1 df; 18.307 with 10 df.
        assert!((upper_gamma_regularized(0.5, 3.841_458_8 / 2.0) - 0.05).abs() < 1e-6);
        assert!((upper_gamma_regularized(5.0, 18.307_038 / 2.0) - 0.05).abs() < 1e-6);
        // With 2 df the tail is exp(-x/2).
        assert!((upper_gamma_regularized(1.0, 1.5) - (-1.5f64).exp()).abs() < 1e-12);
    }

    #[test]
    fn a_perfect_fit_has_statistic_zero_and_an_impossible_count_fails() {
        let t = chi_square(&[50, 30, 20], &[0.5, 0.3, 0.2]);
        assert_eq!(t.statistic, 0.0);
        assert_eq!(t.df, 2);
        assert!((t.p_value - 1.0).abs() < 1e-12);
        let bad = chi_square(&[50, 30, 20, 1], &[0.5, 0.3, 0.2, 0.0]);
        assert!(bad.statistic.is_infinite());
        assert_eq!(bad.p_value, 0.0);
    }

    #[test]
    fn the_mean_of_a_histogram_weights_each_value_by_its_count() {
        assert_eq!(sample_mean(&[0, 2, 0, 2]), 2.0);
        assert_eq!(sample_mean(&[]), 0.0);
    }

    #[test]
    fn wilson_interval_contains_the_estimate() {
        let (lo, hi) = wilson95(30, 100);
        assert!(lo < 0.3 && 0.3 < hi);
        assert!((lo - 0.2189).abs() < 1e-3 && (hi - 0.3958).abs() < 1e-3);
    }
}
