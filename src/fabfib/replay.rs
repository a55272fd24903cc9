//! One game of a run, event by event, exactly as the simulator plays it.

use super::engine::Game;
use super::events::{Event, Recorder};
use super::simulate::Simulation;
use crate::random;
use serde::Serialize;

/// One game's events (the JSON of `fabfib replay`).
#[derive(Debug, Clone, Serialize)]
pub struct Replay {
    /// What happened, in order.
    pub events: Vec<Event>,
    /// Which game of the run (0 is the first).
    pub game: u64,
    /// The run's seed.
    pub seed: u64,
    /// Each seat's strategy.
    pub strategies: Vec<String>,
}

/// Plays game number `game` of the simulation (exactly as `simulate` plays it) and
/// returns its events.
pub fn record(sim: &Simulation, game: u64) -> Vec<Event> {
    let seats: Vec<_> = sim.strategies.iter().collect();
    let table = Game::new(&sim.rules, &seats);
    let mut rec = Recorder::default();
    let mut rng = random::stream(sim.seed, game);
    table.play(
        (game % sim.rules.players as u64) as usize,
        &mut rng,
        &mut rec,
    );
    rec.events
}

/// Game number `game` of the simulation, with the seed and the seats.
pub fn replay(sim: &Simulation, game: u64) -> Replay {
    Replay {
        events: record(sim, game),
        game,
        seed: sim.seed,
        strategies: sim.strategies.iter().map(|s| s.name.clone()).collect(),
    }
}
