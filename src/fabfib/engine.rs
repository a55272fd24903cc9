//! The game engine: a whole game of fabfib, from twelve life each to the last player left.
//!
//! The deck is a fixed array; a draw takes a uniformly random card of the draw pile (the
//! same law as shuffling and drawing from the top), and when the pile runs dry the discard
//! pile becomes the new draw pile. Nothing is allocated while a game runs unless the
//! observer asks for full events.
//!
//! Who decides is a [`Seats`]: strategies for a simulation ([`Game`]), or a person among
//! strategies for a session at the table.
//!
//! Choices where the rules (`docs/fabfib.md`) are silent: a player who accepts draws its replacements before
//! its discards reach the pile (so it never draws back what it just threw away); the
//! starting player's fresh hand counts as 3 cards replaced for the strategies.

use super::calls::{is_call, lowest_call_above};
use super::cards::{hand_coins, hand_value, mask_of, Card, DECK_SIZE, TOP};
use super::events::{Event, Observer, Showdown};
use super::rules::{Rules, MAX_PLAYERS};
use super::strategy::{CallView, DiscardView, DoubtView, Strategy};
use crate::random::{self, Rng};
use std::convert::Infallible;

/// The draw pile and the discard pile.
struct Deck {
    draw: [Card; DECK_SIZE],
    draw_len: usize,
    discard: [Card; DECK_SIZE],
    discard_len: usize,
}

impl Deck {
    fn new() -> Deck {
        let mut draw = [0; DECK_SIZE];
        for (i, c) in draw.iter_mut().enumerate() {
            *c = i as Card;
        }
        Deck {
            draw,
            draw_len: DECK_SIZE,
            discard: [0; DECK_SIZE],
            discard_len: 0,
        }
    }

    /// Draws one card; returns it and whether the discard pile had to be reshuffled first.
    #[inline]
    fn draw(&mut self, rng: &mut Rng) -> (Card, bool) {
        let mut reshuffled = false;
        if self.draw_len == 0 {
            self.draw[..self.discard_len].copy_from_slice(&self.discard[..self.discard_len]);
            self.draw_len = self.discard_len;
            self.discard_len = 0;
            reshuffled = true;
        }
        let i = random::below(rng, self.draw_len as u64) as usize;
        let card = self.draw[i];
        self.draw_len -= 1;
        self.draw[i] = self.draw[self.draw_len];
        (card, reshuffled)
    }

    #[inline]
    fn throw(&mut self, card: Card) {
        self.discard[self.discard_len] = card;
        self.discard_len += 1;
    }
}

/// Who decides at each seat: the call, the discard and the doubt. A game stops early
/// when a decision returns `Err` (a person who quits); strategies never do.
pub trait Seats {
    /// Why a game stopped before its end.
    type Stop;

    /// The call of `seat`, holding what `view` shows.
    fn call(&mut self, seat: usize, view: &CallView, rng: &mut Rng) -> Result<u16, Self::Stop>;

    /// The positions `seat` throws away after accepting.
    fn discard(&mut self, seat: usize, view: &DiscardView, rng: &mut Rng)
        -> Result<u8, Self::Stop>;

    /// Whether `seat` doubts the call it is offered.
    fn doubt(&mut self, seat: usize, view: &DoubtView, rng: &mut Rng) -> Result<bool, Self::Stop>;
}

/// A game of strategies: the rules and one strategy per seat (a person's seat is
/// [`super::session`]'s).
pub struct Game<'a> {
    rules: &'a Rules,
    seats: Vec<&'a Strategy>,
}

impl<'a> Game<'a> {
    /// Seats `strategies` (one per player, `rules.players` of them).
    pub fn new(rules: &'a Rules, strategies: &[&'a Strategy]) -> Game<'a> {
        assert_eq!(strategies.len(), rules.players, "one strategy per player");
        assert!(rules.players <= MAX_PLAYERS);
        Game {
            rules,
            seats: strategies.to_vec(),
        }
    }

    /// Plays one whole game, `first` starting the first round; returns the winner.
    pub fn play<O: Observer>(&self, first: usize, rng: &mut Rng, obs: &mut O) -> usize {
        let mut bots = Bots {
            seats: &self.seats,
            obs,
        };
        match play_game(self.rules, first, rng, &mut bots) {
            Ok(winner) => winner,
            Err(never) => match never {},
        }
    }
}

/// Strategies at every seat, and an observer watching.
pub struct Bots<'s, 'o, O> {
    /// One strategy per seat.
    pub seats: &'s [&'s Strategy],
    /// Who watches.
    pub obs: &'o mut O,
}

impl<O> Seats for Bots<'_, '_, O> {
    type Stop = Infallible;

    #[inline]
    fn call(&mut self, seat: usize, view: &CallView, rng: &mut Rng) -> Result<u16, Infallible> {
        Ok(self.seats[seat].caller.call(view, rng))
    }

    #[inline]
    fn discard(
        &mut self,
        seat: usize,
        view: &DiscardView,
        rng: &mut Rng,
    ) -> Result<u8, Infallible> {
        Ok(self.seats[seat].discarder.discard(view, rng))
    }

    #[inline]
    fn doubt(&mut self, seat: usize, view: &DoubtView, rng: &mut Rng) -> Result<bool, Infallible> {
        Ok(self.seats[seat].doubter.doubt(view, rng))
    }
}

impl<O: Observer> Observer for Bots<'_, '_, O> {
    const WANTS_EVENTS: bool = O::WANTS_EVENTS;

    fn event(&mut self, event: Event) {
        self.obs.event(event);
    }

    #[inline]
    fn on_call(&mut self, player: usize, call: u16, lie: bool) {
        self.obs.on_call(player, call, lie);
    }

    #[inline]
    fn on_doubt(&mut self, doubter: usize, caller: usize, call_true: bool, forced: bool) {
        self.obs.on_doubt(doubter, caller, call_true, forced);
    }

    #[inline]
    fn on_round(&mut self) {
        self.obs.on_round();
    }

    #[inline]
    fn on_game_over(&mut self, winner: usize) {
        self.obs.on_game_over(winner);
    }
}

/// Plays one whole game under `rules`, `first` starting the first round, the decisions
/// and the watching done by `players`; returns the winner, or why the game stopped.
pub fn play_game<P: Seats + Observer>(
    rules: &Rules,
    first: usize,
    rng: &mut Rng,
    players: &mut P,
) -> Result<usize, P::Stop> {
    let n = rules.players;
    let mut life = [0i16; MAX_PLAYERS];
    life[..n].fill(rules.life);
    let mut alive = n;
    let mut seen = [0u64; MAX_PLAYERS];
    let mut deck = Deck::new();
    let mut starter = first % n;
    let mut round = 0u32;
    let next_alive = |life: &[i16; MAX_PLAYERS], from: usize| {
        let mut p = (from + 1) % n;
        while life[p] <= 0 {
            p = (p + 1) % n;
        }
        p
    };

    while alive > 1 {
        round += 1;
        if P::WANTS_EVENTS {
            players.event(Event::RoundStart {
                round,
                starter,
                life: life[..n].to_vec(),
            });
        }
        let mut holder = starter;
        let mut hand = [0 as Card; 3];
        for slot in &mut hand {
            *slot = draw(&mut deck, rng, &mut seen, players);
        }
        let mut replaced = 3u8;
        let mut previous: Option<u16> = None;
        // The hand the holder received and who passed it.
        let mut received: Option<(usize, [Card; 3])> = None;
        loop {
            let view = CallView {
                hand,
                previous,
                replaced,
                rules,
            };
            let mut call = players.call(holder, &view, rng)?;
            if !(is_call(call) && previous.is_none_or(|p| call > p)) {
                debug_assert!(false, "strategy made an illegal call {call}");
                call = lowest_call_above(previous).unwrap_or(TOP);
            }
            let value = hand_value(&hand);
            let call_true = rules.call_is_true(value, call);
            players.on_call(holder, call, !call_true);
            if P::WANTS_EVENTS {
                players.event(Event::Call {
                    player: holder,
                    hand,
                    value,
                    call,
                    lie: !call_true,
                });
            }
            let receiver = next_alive(&life, holder);
            let forced = call >= TOP;
            let doubt = forced || {
                let passed = match received {
                    Some((from, h)) if from == receiver => Some(h),
                    _ => None,
                };
                let view = DoubtView {
                    call,
                    previous,
                    replaced,
                    seen: seen[receiver],
                    passed,
                    rules,
                };
                players.doubt(receiver, &view, rng)?
            };
            if doubt {
                let loser = if call_true { receiver } else { holder };
                let loss = hand_coins(&hand);
                life[loser] -= i16::from(loss);
                let shown = mask_of(&hand);
                for (p, s) in seen[..n].iter_mut().enumerate() {
                    if life[p] > 0 {
                        *s |= shown;
                    }
                }
                for &c in &hand {
                    deck.throw(c);
                }
                players.on_doubt(receiver, holder, call_true, forced);
                if P::WANTS_EVENTS {
                    players.event(Event::Doubt(Showdown {
                        doubter: receiver,
                        caller: holder,
                        call,
                        value,
                        forced,
                        call_true,
                        loser,
                        loss,
                        life: life[loser],
                    }));
                }
                if life[loser] <= 0 {
                    alive -= 1;
                    seen[loser] = 0;
                    if P::WANTS_EVENTS {
                        players.event(Event::Out { player: loser });
                    }
                    if alive > 1 {
                        starter = next_alive(&life, loser);
                    }
                } else {
                    starter = loser;
                }
                break;
            }
            if P::WANTS_EVENTS {
                players.event(Event::Accept {
                    player: receiver,
                    call,
                });
            }
            let dview = DiscardView {
                hand,
                call,
                seen: seen[receiver],
                rules,
            };
            let mut mask = players.discard(receiver, &dview, rng)? & 0b111;
            if mask.count_ones() < rules.min_discard() {
                debug_assert!(false, "strategy discarded too few cards");
                mask = 1;
            }
            let before = hand;
            for (i, slot) in hand.iter_mut().enumerate() {
                if mask >> i & 1 == 1 {
                    *slot = draw(&mut deck, rng, &mut seen, players);
                }
            }
            let mut thrown = 0u64;
            for (i, &c) in before.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    deck.throw(c);
                    thrown |= 1u64 << c;
                }
            }
            seen[receiver] |= thrown;
            if P::WANTS_EVENTS {
                let pick = |h: &[Card; 3]| {
                    (0..3)
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| h[i])
                        .collect::<Vec<_>>()
                };
                players.event(Event::Replace {
                    player: receiver,
                    received: before,
                    discarded: pick(&before),
                    drawn: pick(&hand),
                });
            }
            received = Some((holder, before));
            replaced = mask.count_ones() as u8;
            previous = Some(call);
            holder = receiver;
        }
        players.on_round();
    }
    let winner = (0..n).find(|&p| life[p] > 0).unwrap_or(0);
    players.on_game_over(winner);
    if P::WANTS_EVENTS {
        players.event(Event::GameOver {
            winner,
            rounds: round,
        });
    }
    Ok(winner)
}

/// Draws a card; on a reshuffle everyone forgets which cards lie in the discard pile.
#[inline]
fn draw<O: Observer>(
    deck: &mut Deck,
    rng: &mut Rng,
    seen: &mut [u64; MAX_PLAYERS],
    obs: &mut O,
) -> Card {
    if O::WANTS_EVENTS && deck.draw_len == 0 {
        obs.event(Event::Reshuffle {
            cards: deck.discard_len,
        });
    }
    let (card, reshuffled) = deck.draw(rng);
    if reshuffled {
        *seen = [0; MAX_PLAYERS];
    }
    card
}
