//! Statistics gathered over many games, and the 95% interval of a rate.

use super::calls::{call_index, call_of_index, NUMBER_OF_CALLS};
use super::events::Observer;
use super::rules::MAX_PLAYERS;

/// Counts for one seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatStats {
    /// Games won.
    pub wins: u64,
    /// Calls made.
    pub calls: u64,
    /// Calls that were lies (the hand did not make them true).
    pub lies: u64,
    /// Doubts made by choice (not forced by a call of 1000).
    pub doubts: u64,
    /// Doubts by choice that caught a lie.
    pub doubts_won: u64,
}

impl SeatStats {
    fn add(&mut self, o: &SeatStats) {
        self.wins += o.wins;
        self.calls += o.calls;
        self.lies += o.lies;
        self.doubts += o.doubts;
        self.doubts_won += o.doubts_won;
    }
}

/// Counts over many games. Sums of integers only, so merging in any order gives the same
/// result: the simulation's output does not depend on how games are spread over threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Games played.
    pub games: u64,
    /// Rounds played.
    pub rounds: u64,
    /// Per seat.
    pub seats: [SeatStats; MAX_PLAYERS],
    /// Doubts forced by a call of 1000.
    pub forced_doubts: u64,
    /// Forced doubts that caught a lie.
    pub forced_doubts_won: u64,
    /// How often each call was made, by dense call number.
    pub calls: [u64; NUMBER_OF_CALLS],
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            games: 0,
            rounds: 0,
            seats: [SeatStats::default(); MAX_PLAYERS],
            forced_doubts: 0,
            forced_doubts_won: 0,
            calls: [0; NUMBER_OF_CALLS],
        }
    }
}

impl Stats {
    /// Adds another set of counts.
    pub fn merge(mut self, o: Stats) -> Stats {
        self.games += o.games;
        self.rounds += o.rounds;
        for (a, b) in self.seats.iter_mut().zip(&o.seats) {
            a.add(b);
        }
        self.forced_doubts += o.forced_doubts;
        self.forced_doubts_won += o.forced_doubts_won;
        for (a, b) in self.calls.iter_mut().zip(&o.calls) {
            *a += b;
        }
        self
    }

    /// All seats' counts added up.
    pub fn total(&self) -> SeatStats {
        let mut t = SeatStats::default();
        for s in &self.seats {
            t.add(s);
        }
        t
    }

    /// `(call, times made)` for every call made at least once, lowest call first.
    pub fn call_distribution(&self) -> Vec<(u16, u64)> {
        let mut v: Vec<(u16, u64)> = (0..NUMBER_OF_CALLS)
            .filter(|&i| self.calls[i] > 0)
            .map(|i| (call_of_index(i), self.calls[i]))
            .collect();
        v.sort_unstable();
        v
    }
}

impl Observer for Stats {
    #[inline]
    fn on_call(&mut self, player: usize, call: u16, lie: bool) {
        let s = &mut self.seats[player];
        s.calls += 1;
        s.lies += u64::from(lie);
        self.calls[call_index(call)] += 1;
    }

    #[inline]
    fn on_doubt(&mut self, doubter: usize, _caller: usize, call_true: bool, forced: bool) {
        if forced {
            self.forced_doubts += 1;
            self.forced_doubts_won += u64::from(!call_true);
        } else {
            let s = &mut self.seats[doubter];
            s.doubts += 1;
            s.doubts_won += u64::from(!call_true);
        }
    }

    #[inline]
    fn on_round(&mut self) {
        self.rounds += 1;
    }

    #[inline]
    fn on_game_over(&mut self, winner: usize) {
        self.games += 1;
        self.seats[winner].wins += 1;
    }
}

/// `part / whole`, or 0 when `whole` is 0.
pub fn rate(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The Wilson score interval at 95% (z = 1.959964) for `successes` out of `trials`;
/// `(0, 1)` when there is no trial.
pub fn wilson_95(successes: u64, trials: u64) -> (f64, f64) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_matches_published_values() {
        // 50/100: 0.4038–0.5962; 0/10: 0–0.2775; 81/263 (Wilson 1927 style example)
        // 0.2553–0.3662 (standard tables).
        let (lo, hi) = wilson_95(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_95(0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-4, "{hi}");
        let (lo, hi) = wilson_95(81, 263);
        assert!(
            (lo - 0.2553).abs() < 1e-4 && (hi - 0.3662).abs() < 1e-4,
            "{lo} {hi}"
        );
    }

    #[test]
    fn merging_is_order_independent() {
        let mut a = Stats::default();
        a.on_call(0, 631, false);
        a.on_game_over(1);
        let mut b = Stats::default();
        b.on_call(2, 1000, true);
        b.on_doubt(0, 2, false, true);
        b.on_round();
        assert_eq!(a.clone().merge(b.clone()), b.merge(a));
    }
}
