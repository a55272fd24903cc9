//! The two-player race: both sides guess each other's secret in turn, the first to score
//! N EAT wins. Secrets are independent and uniform, so the outcome follows from the two
//! strategies' distributions of the number of guesses: the side moving first wins when it
//! needs no more guesses than the other.

use super::tree::Analysis;
use num_rational::Ratio;

/// The probability that the side moving first (distribution `first`) wins the race
/// against `second`, exactly.
pub fn first_player_wins(first: &Analysis, second: &Analysis) -> Ratio<u64> {
    let mut wins = 0u64;
    for (&t, &count) in &first.histogram {
        let slower: u64 = second.histogram.range(t..).map(|(_, &c)| c).sum();
        wins += count * slower;
    }
    Ratio::new(wins, first.secrets.max(1) * second.secrets.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn against_itself_the_first_mover_wins_at_least_half_the_time() {
        let a = Analysis::of_histogram(BTreeMap::from([(1, 1), (2, 2), (3, 1)]));
        // Ties go to the first mover: P(T1 ≤ T2) = 1 - P(T1 > T2) = 1 - (1·0+2·1+1·3)/16.
        assert_eq!(first_player_wins(&a, &a), Ratio::new(11, 16));
    }
}
