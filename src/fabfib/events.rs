//! What happens in a game, as events an [`Observer`] may watch (statistics, a replay).

use super::cards::Card;
use serde::Serialize;

/// One thing that happened at the table. Players are numbered from 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A round begins.
    RoundStart {
        /// The round's number in the game, from 1.
        round: u32,
        /// The player who draws the first hand and calls first.
        starter: usize,
        /// Every player's life at the start of the round, by player.
        life: Vec<i16>,
    },
    /// The discard pile was shuffled into a new deck.
    Reshuffle {
        /// Cards shuffled back from the discard pile.
        cards: usize,
    },
    /// A player accepted the hand and replaced some cards.
    Replace {
        /// The player who accepted.
        player: usize,
        /// The hand as received, before replacing.
        received: [Card; 3],
        /// The cards thrown away.
        discarded: Vec<Card>,
        /// The cards drawn in their place, in the same slots.
        drawn: Vec<Card>,
    },
    /// A player announced a call for the hand it passes on.
    Call {
        /// The player who called.
        player: usize,
        /// The hand passed on with the call.
        hand: [Card; 3],
        /// The hand's actual value.
        value: u16,
        /// The value announced.
        call: u16,
        /// Whether the call is false under the rules (the hand does not make it).
        lie: bool,
    },
    /// The receiver accepted the call.
    Accept {
        /// The player who accepted.
        player: usize,
        /// The call accepted.
        call: u16,
    },
    /// The receiver doubted (or had to); the hand was shown.
    Doubt(Showdown),
    /// A player reached 0 life and left the game.
    Out {
        /// The player who left.
        player: usize,
    },
    /// The game ended.
    GameOver {
        /// The last player with life left.
        winner: usize,
        /// Rounds played in the game.
        rounds: u32,
    },
}

/// A doubt and what showing the hand settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Showdown {
    /// Who doubted.
    pub doubter: usize,
    /// Who made the call.
    pub caller: usize,
    /// The call doubted.
    pub call: u16,
    /// The value of the hand shown.
    pub value: u16,
    /// Whether the doubt was forced by a call of 1000.
    pub forced: bool,
    /// Whether the hand made the call true.
    pub call_true: bool,
    /// Who lost life.
    pub loser: usize,
    /// The life lost: the coins on the hand.
    pub loss: u8,
    /// The loser's life after the loss (0 or less: out).
    pub life: i16,
}

/// Watches a game. Every method has an empty default; the engine is generic over the
/// observer, so unwatched events cost nothing.
pub trait Observer {
    /// Whether the observer wants the full [`Event`]s (built only then).
    const WANTS_EVENTS: bool = false;

    /// A full event (only called when [`Observer::WANTS_EVENTS`]).
    fn event(&mut self, _event: Event) {}

    /// A call was made.
    #[inline]
    fn on_call(&mut self, _player: usize, _call: u16, _lie: bool) {}

    /// A call was doubted (`forced` after a call of 1000).
    #[inline]
    fn on_doubt(&mut self, _doubter: usize, _caller: usize, _call_true: bool, _forced: bool) {}

    /// A round ended.
    #[inline]
    fn on_round(&mut self) {}

    /// The game ended.
    #[inline]
    fn on_game_over(&mut self, _winner: usize) {}
}

/// Watches nothing.
pub struct NoObserver;

impl Observer for NoObserver {}

/// Keeps every event, for a replay.
#[derive(Debug, Default)]
pub struct Recorder {
    /// The events, in order.
    pub events: Vec<Event>,
}

impl Observer for Recorder {
    const WANTS_EVENTS: bool = true;

    fn event(&mut self, event: Event) {
        self.events.push(event);
    }
}
