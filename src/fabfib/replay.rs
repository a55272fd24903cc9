//! One game, turn by turn, as text.

use super::cards::{digit, format_cards, format_digits};
use super::engine::Table;
use super::events::{Event, Recorder};
use super::rng::game_rng;
use super::simulate::Simulation;

/// Plays game number `game` of the simulation (exactly as `simulate` plays it) and
/// returns its events.
pub fn record(sim: &Simulation, game: u64) -> Vec<Event> {
    let seats: Vec<_> = sim.strategies.iter().collect();
    let table = Table::new(&sim.rules, &seats);
    let mut rec = Recorder::default();
    let mut rng = game_rng(sim.seed, game);
    table.play(
        (game % sim.rules.players as u64) as usize,
        &mut rng,
        &mut rec,
    );
    rec.events
}

/// The cards' digits, highest first.
fn digits(cards: &[u8]) -> String {
    format_digits(&cards.iter().map(|&c| digit(c)).collect::<Vec<_>>())
}

/// The events as readable lines. Players are shown as P1, P2, …; cards as digit(coins).
pub fn describe(sim: &Simulation, game: u64, events: &[Event]) -> String {
    let mut out = Vec::new();
    let names: Vec<String> = sim
        .strategies
        .iter()
        .enumerate()
        .map(|(i, s)| format!("P{} {}", i + 1, s.name))
        .collect();
    out.push(format!(
        "game {game} of seed {}: {} players ({}), {} life each",
        sim.seed,
        sim.rules.players,
        names.join(", "),
        sim.rules.life
    ));
    for e in events {
        let line = match e {
            Event::RoundStart {
                round,
                starter,
                life,
            } => {
                let life: Vec<String> = life
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("P{}:{}", i + 1, (*l).max(0)))
                    .collect();
                format!(
                    "\nround {round}: P{} starts   life {}",
                    starter + 1,
                    life.join(" ")
                )
            }
            Event::Reshuffle { cards } => {
                format!("  (the deck is empty: {cards} discarded cards are shuffled in)")
            }
            Event::Replace {
                player,
                received,
                discarded,
                drawn,
            } => format!(
                "  P{} sees {}, throws {}, draws {}",
                player + 1,
                digits(received),
                digits(discarded),
                digits(drawn)
            ),
            Event::Call {
                player,
                hand,
                value,
                call,
                lie,
            } => format!(
                "  P{} holds {} = {value:<4} calls {call}{}",
                player + 1,
                format_cards(hand),
                if *lie { " (lie)" } else { "" }
            ),
            Event::Accept { player, .. } => format!("  P{} accepts", player + 1),
            Event::Doubt {
                doubter,
                caller,
                call,
                value,
                forced,
                call_true,
                loser,
                loss,
                life,
            } => format!(
                "  P{} {} {call}: the hand is {value}, {}; P{} loses {loss} -> {}{}",
                doubter + 1,
                if *forced { "must doubt" } else { "doubts" },
                if *call_true {
                    "the call holds"
                } else {
                    "a lie"
                },
                loser + 1,
                (*life).max(0),
                if loser == caller { " (caller)" } else { "" }
            ),
            Event::Out { player } => format!("  P{} is out", player + 1),
            Event::GameOver { winner, rounds } => {
                format!("\nP{} wins after {rounds} rounds", winner + 1)
            }
        };
        out.push(line);
    }
    out.join("\n")
}
