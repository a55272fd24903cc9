//! The table rules: number of players, starting life and the two options of
//! `docs/fabfib.md`.

use super::{Error, Result};

/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players.
pub const MAX_PLAYERS: usize = 10;
/// Default starting life.
pub const DEFAULT_LIFE: i16 = 12;
/// Highest starting life.
pub const MAX_LIFE: i16 = 1000;

/// The rules a game is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Players at the table, 2–10.
    pub players: usize,
    /// Life each player starts with.
    pub life: i16,
    /// Option: a call is true only if the hand is worth exactly the call (default: at
    /// least the call).
    pub exact: bool,
    /// Option: a player who accepts may discard no card at all (default: 1–3 cards).
    pub zero_discard: bool,
}

impl Rules {
    /// The default rules for `players` players, checked.
    pub fn new(players: usize) -> Result<Rules> {
        Rules {
            players,
            life: DEFAULT_LIFE,
            exact: false,
            zero_discard: false,
        }
        .checked()
    }

    /// Checks the player count and the life.
    pub fn checked(self) -> Result<Rules> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&self.players) {
            return Err(Error::Players {
                players: self.players,
                min: MIN_PLAYERS,
                max: MAX_PLAYERS,
            });
        }
        if !(1..=MAX_LIFE).contains(&self.life) {
            return Err(Error::Life {
                life: self.life,
                max: MAX_LIFE,
            });
        }
        Ok(self)
    }

    /// Fewest cards a player who accepts must discard (0 or 1).
    #[inline]
    pub fn min_discard(&self) -> u32 {
        u32::from(!self.zero_discard)
    }

    /// Whether a hand worth `value` makes `call` true.
    #[inline]
    pub fn call_is_true(&self, value: u16, call: u16) -> bool {
        if self.exact {
            value == call
        } else {
            value >= call
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_true_when_the_hand_reaches_it_or_with_the_option_matches_it() {
        let mut r = Rules::new(3).unwrap();
        assert!(r.call_is_true(876, 876));
        assert!(r.call_is_true(900, 876));
        assert!(!r.call_is_true(875, 876));
        r.exact = true;
        assert!(r.call_is_true(876, 876));
        assert!(!r.call_is_true(900, 876));
    }

    #[test]
    fn player_counts_outside_two_to_ten_are_refused() {
        assert!(Rules::new(1).is_err());
        assert!(Rules::new(11).is_err());
        assert!(Rules::new(2).is_ok());
        assert!(Rules::new(10).is_ok());
    }
}
