//! The tallies of a simulation: integer counts per seat and per call, summed over games.

use super::calls::{call_index, call_of_index, NUMBER_OF_CALLS};
use super::events::Observer;
use super::rules::MAX_PLAYERS;

/// Counts for one seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatTally {
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

impl SeatTally {
    fn add(&mut self, o: &SeatTally) {
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
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Rounds played.
    pub rounds: u64,
    /// Per seat.
    pub seats: [SeatTally; MAX_PLAYERS],
    /// Doubts forced by a call of 1000.
    pub forced_doubts: u64,
    /// Forced doubts that caught a lie.
    pub forced_doubts_won: u64,
    /// How often each call was made, by dense call number.
    pub calls: [u64; NUMBER_OF_CALLS],
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            games: 0,
            rounds: 0,
            seats: [SeatTally::default(); MAX_PLAYERS],
            forced_doubts: 0,
            forced_doubts_won: 0,
            calls: [0; NUMBER_OF_CALLS],
        }
    }
}

impl Tally {
    /// Adds another set of counts.
    pub fn merge(mut self, o: Tally) -> Tally {
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
    pub fn total(&self) -> SeatTally {
        let mut t = SeatTally::default();
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

impl Observer for Tally {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_is_order_independent() {
        let mut a = Tally::default();
        a.on_call(0, 631, false);
        a.on_game_over(1);
        let mut b = Tally::default();
        b.on_call(2, 1000, true);
        b.on_doubt(0, 2, false, true);
        b.on_round();
        assert_eq!(a.clone().merge(b.clone()), b.merge(a));
    }
}
