//! How a game ends, as chances for one side: wins and losses, single, gammon and
//! backgammon (`docs/gammon.md`, "A variant").

use serde::Serialize;

/// The chances of each way a game can end, for one side (the side on roll unless said
/// otherwise). Each gammon chance includes the backgammons, as backgammon players count
/// them: `win ≥ win_gammon ≥ win_backgammon`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Outcomes {
    /// Winning at all.
    pub win: f64,
    /// Winning a gammon or a backgammon.
    pub win_gammon: f64,
    /// Winning a backgammon.
    pub win_backgammon: f64,
    /// Losing at all.
    pub lose: f64,
    /// Losing a gammon or a backgammon.
    pub lose_gammon: f64,
    /// Losing a backgammon.
    pub lose_backgammon: f64,
}

impl Outcomes {
    /// From the six exclusive chances in the solver's order: win single, win gammon, win
    /// backgammon, lose single, lose gammon, lose backgammon.
    pub fn from_exclusive(o: [f64; 6]) -> Outcomes {
        Outcomes {
            win: o[0] + o[1] + o[2],
            win_gammon: o[1] + o[2],
            win_backgammon: o[2],
            lose: o[3] + o[4] + o[5],
            lose_gammon: o[4] + o[5],
            lose_backgammon: o[5],
        }
    }

    /// A game already won, scoring `points` (1, 2 or 3).
    pub fn won(points: u8) -> Outcomes {
        let mut o = [0.0; 6];
        o[usize::from(points.clamp(1, 3)) - 1] = 1.0;
        Outcomes::from_exclusive(o)
    }

    /// The same chances seen from the other side.
    pub fn flip(&self) -> Outcomes {
        Outcomes {
            win: self.lose,
            win_gammon: self.lose_gammon,
            win_backgammon: self.lose_backgammon,
            lose: self.win,
            lose_gammon: self.win_gammon,
            lose_backgammon: self.win_backgammon,
        }
    }

    /// The expected points these chances are worth (a backgammon 3, a gammon 2, a
    /// single game 1).
    pub fn equity(&self) -> f64 {
        self.win - self.lose + self.win_gammon - self.lose_gammon + self.win_backgammon
            - self.lose_backgammon
    }

    /// How far the chances are from adding up to one (every game that can end does).
    pub fn total(&self) -> f64 {
        self.win + self.lose
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backgammon_counts_as_a_win_and_a_gammon_too() {
        let o = Outcomes::won(3);
        assert_eq!((o.win, o.win_gammon, o.win_backgammon), (1.0, 1.0, 1.0));
        assert_eq!(o.equity(), 3.0);
        assert_eq!(o.flip().equity(), -3.0);
    }

    #[test]
    fn the_equity_weighs_each_exclusive_outcome_by_its_points() {
        let exclusive = [0.25, 0.125, 0.0625, 0.375, 0.125, 0.0625];
        let o = Outcomes::from_exclusive(exclusive);
        let points = [1.0, 2.0, 3.0, -1.0, -2.0, -3.0];
        let expected: f64 = exclusive.iter().zip(points).map(|(p, s)| p * s).sum();
        assert!((o.equity() - expected).abs() < 1e-15);
        assert_eq!(o.total(), 1.0);
    }
}
