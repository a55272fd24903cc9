//! The game graph the solver iterates over: every state's successors for every roll,
//! precomputed once into flat arrays.
//!
//! States are renumbered into *solver order*: ascending total pip count of both sides,
//! then index. A play that hits nothing strictly lowers the total, so in this order a
//! sweep meets most successors already updated (Gauss–Seidel across levels); only hits
//! (which raise the opponent's count) and passes (the same board, other side on roll,
//! same level) point back, and passes are solved exactly in pairs.

use super::index::{all_states, index_of, STATES};
use super::moves::Generator;
use super::position::Position;
use super::Roll;
use rayon::prelude::*;

/// The five rolls that can move something, with their weight among the 9 ordered rolls.
/// (`0-0`, weight 1, always passes.)
pub const MOVING_ROLLS: [(Roll, u32); 5] = [
    (Roll { low: 0, high: 1 }, 2),
    (Roll { low: 0, high: 2 }, 2),
    (Roll { low: 1, high: 1 }, 1),
    (Roll { low: 1, high: 2 }, 2),
    (Roll { low: 2, high: 2 }, 1),
];

/// Successor codes at and above this value are wins: `WIN + points - 1`. They follow the
/// solver positions (`0..STATES`), so a value array with three extra entries (the
/// values of the wins, seen from the loser) needs no branch to read a successor.
pub const WIN: u32 = STATES as u32;

/// Decodes a successor code: `Ok(solver position)` or `Err(points won)`.
#[inline]
pub fn decode(code: u32) -> Result<u32, f64> {
    if code >= WIN {
        Err(f64::from(code - WIN + 1))
    } else {
        Ok(code)
    }
}

/// The precomputed graph.
pub struct Graph {
    /// `order[s]` = dense index of the state at solver position `s`.
    pub order: Vec<u32>,
    /// `solver_pos[i]` = solver position of the state with dense index `i`.
    pub solver_pos: Vec<u32>,
    /// `levels[l]..levels[l+1]`: the solver positions of total pip count `l`.
    pub levels: Vec<u32>,
    /// `partner[s]`: solver position of the same board with the other side on roll.
    pub partner: Vec<u32>,
    /// `pass_weight[s]`: how many of the 9 ordered rolls pass (0-0 always does).
    pub pass_weight: Vec<u8>,
    /// `both_off[s]`: both sides have borne off a checker, so neither can lose a gammon.
    pub both_off: Vec<bool>,
    /// `start[5 s + r] .. start[5 s + r + 1]`: successors of state `s` for moving roll `r`
    /// (empty when that roll passes).
    pub start: Vec<u32>,
    /// Successor codes: solver positions of the states after each play (the opponent on
    /// roll), or wins (see [`decode`]).
    pub succ: Vec<u32>,
}

/// The graph of one chunk of states, before the chunks are joined.
struct Part {
    counts: Vec<u32>,
    succ: Vec<u32>,
    pass: Vec<u8>,
    partner: Vec<u32>,
}

/// Total pips on the board, both sides.
fn level(p: &Position) -> u32 {
    p.my_pips() + p.opp_pips()
}

impl Graph {
    /// Builds the graph of all 1,106,945 states (in parallel; the result does not depend
    /// on the thread count).
    pub fn build() -> Graph {
        let states = all_states();
        let n = states.len();
        let levels_of: Vec<u32> = states.par_iter().map(level).collect();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&i| (levels_of[i as usize], i));
        let mut solver_pos = vec![0u32; n];
        for (s, &i) in order.iter().enumerate() {
            solver_pos[i as usize] = s as u32;
        }
        let top = *levels_of.iter().max().expect("states exist") as usize;
        let mut levels = vec![0u32; top + 2];
        for &l in &levels_of {
            levels[l as usize + 1] += 1;
        }
        for l in 1..levels.len() {
            levels[l] += levels[l - 1];
        }

        const CHUNK: usize = 4096;
        let chunks: Vec<Part> = order
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut generator = Generator::new();
                let mut plays = Vec::new();
                let mut counts = Vec::with_capacity(chunk.len() * 5);
                let mut succ = Vec::with_capacity(chunk.len() * 20);
                let mut pass = Vec::with_capacity(chunk.len());
                let mut partner = Vec::with_capacity(chunk.len());
                for &i in chunk {
                    let p = states[i as usize];
                    partner.push(solver_pos[index_of(&p.swap()) as usize]);
                    let mut passing = 1u8;
                    for (roll, weight) in MOVING_ROLLS {
                        generator.plays_into(&p, roll, &mut plays);
                        let before = succ.len();
                        for play in &plays {
                            if play.is_pass() {
                                passing += weight as u8;
                            } else if play.wins() {
                                succ.push(WIN + play.score() - 1);
                            } else {
                                let next = play.after.swap();
                                succ.push(solver_pos[index_of(&next) as usize]);
                            }
                        }
                        counts.push((succ.len() - before) as u32);
                    }
                    pass.push(passing);
                }
                Part {
                    counts,
                    succ,
                    pass,
                    partner,
                }
            })
            .collect();

        let total: usize = chunks.iter().map(|c| c.succ.len()).sum();
        let mut start = Vec::with_capacity(n * 5 + 1);
        let mut succ = Vec::with_capacity(total);
        let mut pass_weight = Vec::with_capacity(n);
        let mut partner = Vec::with_capacity(n);
        let both_off = order
            .iter()
            .map(|&i| {
                let p = &states[i as usize];
                p.me[0] > 0 && p.opp[0] > 0
            })
            .collect();
        start.push(0u32);
        for part in chunks {
            let mut at = succ.len() as u32;
            for c in part.counts {
                at += c;
                start.push(at);
            }
            succ.extend_from_slice(&part.succ);
            pass_weight.extend_from_slice(&part.pass);
            partner.extend_from_slice(&part.partner);
        }
        debug_assert_eq!(n as u64, STATES);
        Graph {
            order,
            solver_pos,
            levels,
            partner,
            pass_weight,
            both_off,
            start,
            succ,
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Always false: the graph holds every state.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Successor codes of state `s` for moving roll `r` (index into [`MOVING_ROLLS`]).
    #[inline]
    pub fn successors(&self, s: usize, r: usize) -> &[u32] {
        let k = 5 * s + r;
        &self.succ[self.start[k] as usize..self.start[k + 1] as usize]
    }
}
