//! The one distribution the article's caller draws besides uniform numbers: a Poisson
//! count capped at 9 (a digit), sampled from the run's [`random::Rng`].

use crate::random;
use rand::Rng;

/// A Poisson distribution capped at 9 (every draw the article's caller makes is a digit),
/// sampled by inversion with one uniform draw.
#[derive(Debug, Clone)]
pub struct CappedPoisson {
    /// `cdf[k]` = P(X ≤ k) for k in 0..9; anything above `cdf[8]` gives 9.
    cdf: [f64; 9],
}

impl CappedPoisson {
    /// Poisson(λ) capped at 9.
    pub fn new(lambda: f64) -> CappedPoisson {
        let mut cdf = [0.0; 9];
        let mut pmf = (-lambda).exp();
        let mut sum = 0.0;
        for (k, slot) in cdf.iter_mut().enumerate() {
            sum += pmf;
            *slot = sum;
            pmf *= lambda / (k as f64 + 1.0);
        }
        CappedPoisson { cdf }
    }

    /// One draw, 0–9.
    #[inline]
    pub fn sample(&self, rng: &mut random::Rng) -> u8 {
        let u: f64 = rng.gen();
        let mut k = 0;
        while k < 9 && u >= self.cdf[k] {
            k += 1;
        }
        k as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_poisson_draws_follow_the_poisson_probabilities() {
        let lambda: f64 = 4.0;
        let p = CappedPoisson::new(lambda);
        let mut rng = random::stream(11, 0);
        let n = 200_000;
        let mut counts = [0u32; 10];
        for _ in 0..n {
            counts[usize::from(p.sample(&mut rng))] += 1;
        }
        // Independent pmf by the factorial formula.
        let mut fact = 1.0;
        let mut below = 0.0;
        for (k, &count) in counts.iter().enumerate().take(9) {
            if k > 0 {
                fact *= k as f64;
            }
            let pk = (-lambda).exp() * lambda.powi(k as i32) / fact;
            below += pk;
            let observed = f64::from(count) / n as f64;
            assert!((observed - pk).abs() < 0.005, "k={k}: {observed} vs {pk}");
        }
        let tail = f64::from(counts[9]) / n as f64;
        assert!((tail - (1.0 - below)).abs() < 0.005);
    }
}
