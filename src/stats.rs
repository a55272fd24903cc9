//! Small statistics shared by the simulators: the Wilson interval, the mean of a
//! histogram and the chi-square goodness-of-fit test (its tail from `statrs`).

/// The Wilson score interval at 95% (z = 1.959964) for `successes` out of `trials`,
/// clamped to [0, 1]; `(0, 1)` when there is no trial.
pub fn wilson95(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The mean of a histogram: `counts[n]` observations of the value `n` (0 when empty).
pub fn sample_mean(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let sum: f64 = counts
        .iter()
        .enumerate()
        .map(|(n, &k)| n as f64 * k as f64)
        .sum();
    sum / total.max(1) as f64
}

/// A chi-square goodness-of-fit test of observed counts against expected probabilities.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ChiSquare {
    /// The statistic Σ (observed − expected)² / expected over the pooled bins.
    pub statistic: f64,
    /// Degrees of freedom: pooled bins − 1.
    pub df: usize,
    /// P(χ²_df ≥ statistic).
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
    } else if df == 0 || statistic <= 0.0 {
        1.0
    } else {
        // The upper tail of chi-square with df degrees of freedom: Q(df/2, x/2).
        statrs::function::gamma::gamma_ur(df as f64 / 2.0, statistic / 2.0)
    };
    ChiSquare {
        statistic,
        df,
        p_value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_matches_published_values() {
        // 50/100: 0.4038–0.5962; 0/10: 0–0.2775; 81/263: 0.2553–0.3662 (standard tables).
        let (lo, hi) = wilson95(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson95(0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-4, "{hi}");
        let (lo, hi) = wilson95(81, 263);
        assert!(
            (lo - 0.2553).abs() < 1e-4 && (hi - 0.3662).abs() < 1e-4,
            "{lo} {hi}"
        );
        assert_eq!(wilson95(3, 0), (0.0, 1.0));
    }

    #[test]
    fn the_chi_square_tail_matches_published_critical_values() {
        // 3.841 is the 95% point of chi-square with 1 df, 18.307 with 10 df (standard
        // tables); with 2 df the tail is exp(−x/2).
        let tail = |x: f64, df: f64| statrs::function::gamma::gamma_ur(df / 2.0, x / 2.0);
        assert!((tail(3.841_458_8, 1.0) - 0.05).abs() < 1e-6);
        assert!((tail(18.307_038, 10.0) - 0.05).abs() < 1e-6);
        assert!((tail(3.0, 2.0) - (-1.5f64).exp()).abs() < 1e-12);
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
    fn small_expected_bins_are_pooled_before_the_test() {
        // 100 draws: the bins expecting 2 and 3 are pooled into one expecting 5.
        let t = chi_square(&[60, 35, 2, 3], &[0.6, 0.35, 0.02, 0.03]);
        assert_eq!(t.df, 2);
        assert_eq!(t.statistic, 0.0);
    }

    #[test]
    fn the_mean_of_a_histogram_weights_each_value_by_its_count() {
        assert_eq!(sample_mean(&[0, 2, 0, 2]), 2.0);
        assert_eq!(sample_mean(&[]), 0.0);
    }
}
