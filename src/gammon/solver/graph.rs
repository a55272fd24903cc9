//! The game graph the solver iterates over: every state's successors for every roll,
//! precomputed once into flat arrays.
//!
//! States are renumbered into *solver order*: by class, then ascending total pip count of
//! both sides (the level), then index. The class says which sides have borne off a
//! checker: both ([`BOTH_OFF`]), one ([`ONE_OFF`]) or neither ([`NONE_OFF`]). A borne-off
//! checker never comes back, so a state only leads to states of its own class or an
//! earlier one; and a play that hits nothing strictly lowers the level. In this order a
//! sweep meets most successors already updated (Gauss–Seidel); only hits (which raise the
//! opponent's count) and passes (the same board, other side on roll, same level) point
//! back, and passes are solved exactly in pairs. A *segment* is one level of one class.
//!
//! Within a segment a sweep may visit the states in any order (they are computed from the
//! values as they stood before the level), so it visits them in *sweep order*: grouped by
//! the opponent's checkers. Every successor of `(x, o)` has `o`, or `o` after a hit, on
//! roll, and the values of the states with one side on roll lie together in solver order,
//! so consecutive states read the same few kilobytes: the sweep runs from cache rather
//! than from memory. The successor arrays are laid out in sweep order and read straight
//! through.
//!
//! The plays themselves come from [`Search`], once for each side on roll and each *view*
//! it has of the opponent (see [`Sides::view`]): 275,181 searches for 1,106,945 states.

use super::sides::{Search, Seen, Sides};
use crate::gammon::variant::Rolls;
use crate::gammon::Roll;
use crate::progress::Progress;
use rayon::prelude::*;
use std::collections::HashMap;

/// Decodes a successor code of a graph whose wins start at `win`: `Ok(solver position)`
/// or `Err(points won)`.
#[inline]
pub fn decode(win: u32, code: u32) -> Result<u32, f64> {
    if code >= win {
        Err(f64::from(code - win + 1))
    } else {
        Ok(code)
    }
}

/// The precomputed graph.
pub struct Graph {
    /// `order[s]` = the state (its place in the list given to [`Graph::build`]) at solver
    /// position `s`.
    pub order: Vec<u32>,
    /// `solver_pos[i]` = solver position of state `i`.
    pub solver_pos: Vec<u32>,
    /// `segments[j]..segments[j + 1]`: the solver positions (and the sweep positions) of
    /// segment `j`, which is level `j % levels` of class `j / levels`.
    pub segments: Vec<u32>,
    /// Levels a class has (total pip counts `0..levels`).
    pub levels: usize,
    /// `sweep[k]`: solver position of the state a sweep visits `k`-th.
    pub sweep: Vec<u32>,
    /// `partner[s]`: solver position of the same board with the other side on roll.
    pub partner: Vec<u32>,
    /// `pass_weight[s]`: how many of the ordered rolls pass (`0-0` always does).
    pub pass_weight: Vec<u8>,
    /// `pair[s]`: for the second phase of a sweep, which reads both states of a pass
    /// pair at once: the sweep positions of `s` and of its partner, and their pass
    /// weights.
    pub pair: Vec<Pair>,
    /// `off[s]`: bit 0 when the side on roll has borne off a checker, bit 1 when the
    /// opponent has (so it cannot lose a gammon).
    pub off: Vec<u8>,
    /// Successor codes at and above this value are wins: `win + points - 1`. They follow
    /// the solver positions (`0..len`), so a value array with three extra entries (the
    /// values of the wins, seen from the loser) needs no branch to read a successor.
    pub win: u32,
    /// The rolls that can move something, with their weights.
    pub rolls: Vec<Roll>,
    /// The weights of [`Graph::rolls`] as `f64` (exactly), ready for the sweeps.
    pub weights: Vec<f64>,
    /// Ordered rolls in all (the weights' denominator).
    pub denominator: u32,
    /// The successors, [`PART`] states (in sweep order) to a part; see
    /// [`Graph::successors`].
    parts: Vec<Part>,
}

/// A state and its pass partner, as a sweep's second phase reads them (see
/// [`Graph::pair`]).
#[derive(Clone, Copy)]
pub struct Pair {
    pub visit: [u32; 2],
    pub pass_weight: [u8; 2],
}

/// States to a [`Part`] of the successor arrays (built in parallel, part by part).
const PART: usize = 1 << 16;

/// The plays of the states of one side on roll, searched once for each view of the
/// opponent (see [`Sides::view`]), in one array: for each view the number of plays of
/// each moving roll, then the plays, as [`Search::landings_into`] gives them.
struct Memo {
    plays: Vec<u64>,
}

/// The successors of [`PART`] consecutive states in sweep order.
struct Part {
    /// `start[R i + r] .. start[R i + r + 1]`: the successors of the part's `i`-th state
    /// for moving roll `r` (of `R`), in `succ` (empty when that roll passes).
    start: Vec<u32>,
    /// Successor codes: solver positions of the states after each play (the opponent on
    /// roll), or wins (see [`decode`]).
    succ: Vec<u32>,
}

/// Classes, in the order they are solved: both sides have borne off a checker, one side
/// has, neither has.
pub const BOTH_OFF: usize = 0;
pub const ONE_OFF: usize = 1;
pub const NONE_OFF: usize = 2;
const CLASSES: usize = 3;

/// The class of a state from its [`Graph::off`] bits.
#[inline]
pub fn class(off: u8) -> usize {
    match off {
        3 => BOTH_OFF,
        0 => NONE_OFF,
        _ => ONE_OFF,
    }
}

/// Sorts `0..keys.len()` by key, stably, for keys below `buckets` (a counting sort).
fn counting_sort(keys: &[u32], buckets: usize) -> Vec<u32> {
    let mut first = vec![0u32; buckets + 1];
    for &k in keys {
        first[k as usize + 1] += 1;
    }
    for b in 1..first.len() {
        first[b] += first[b - 1];
    }
    let mut out = vec![0u32; keys.len()];
    for (i, &k) in keys.iter().enumerate() {
        let at = &mut first[k as usize];
        out[*at as usize] = i as u32;
        *at += 1;
    }
    out
}

impl Graph {
    /// Builds the graph of `states` (each a pair of side ranks, the side on roll first;
    /// the states of one side on roll consecutive), in parallel; the result does not
    /// depend on the thread count. `progress` counts the side-on-roll runs searched.
    pub fn build(
        sides: &Sides,
        rolls: &Rolls,
        states: &[(u16, u16)],
        progress: Progress<'_>,
    ) -> Graph {
        let ranks = states;
        let n = ranks.len();
        let nr = rolls.moving.len();
        let rank_count = sides.len();
        let win = n as u32;
        let off_of = |&(me, opp): &(u16, u16)| {
            u8::from(sides.counts(me)[0] > 0) | u8::from(sides.counts(opp)[0] > 0) << 1
        };
        let level = |r: &(u16, u16)| sides.pips(r.0) + sides.pips(r.1);
        let levels = ranks.par_iter().map(level).max().unwrap_or(0) as usize + 1;
        let segment_of: Vec<u32> = ranks
            .par_iter()
            .map(|r| (class(off_of(r)) * levels) as u32 + level(r))
            .collect();

        // Solver order: by segment, then state number.
        let order = counting_sort(&segment_of, CLASSES * levels);
        let mut segments = vec![0u32; CLASSES * levels + 1];
        for &j in &segment_of {
            segments[j as usize + 1] += 1;
        }
        for j in 1..segments.len() {
            segments[j] += segments[j - 1];
        }
        // The solver position of every pair of side ranks that is a state.
        let mut position = vec![u32::MAX; rank_count * rank_count];
        for (s, &i) in order.iter().enumerate() {
            let (me, opp) = ranks[i as usize];
            position[usize::from(me) * rank_count + usize::from(opp)] = s as u32;
        }
        let solver_pos: Vec<u32> = ranks
            .par_iter()
            .map(|&(me, opp)| position[usize::from(me) * rank_count + usize::from(opp)])
            .collect();
        let partner: Vec<u32> = order
            .par_iter()
            .map(|&i| {
                let (me, opp) = ranks[i as usize];
                position[usize::from(opp) * rank_count + usize::from(me)]
            })
            .collect();
        // The states of one side on roll lie together in the given order: their runs.
        let mut runs: Vec<(usize, usize)> = Vec::with_capacity(rank_count);
        for (i, r) in ranks.iter().enumerate() {
            match runs.last_mut() {
                Some((_, end)) if ranks[*end - 1].0 == r.0 => *end = i + 1,
                _ => runs.push((i, i + 1)),
            }
        }
        // Each side's place among the sides on roll, in the given order.
        let mut run_of = vec![0u32; rank_count];
        for (j, &(lo, _)) in runs.iter().enumerate() {
            run_of[usize::from(ranks[lo].0)] = j as u32;
        }
        // Sweep order: within each segment, grouped by the opponent in the order its
        // states come as the side on roll (where the successors lie), then solver order.
        let sweep_keys: Vec<u32> = order
            .par_iter()
            .map(|&i| {
                segment_of[i as usize] * rank_count as u32
                    + run_of[usize::from(ranks[i as usize].1)]
            })
            .collect();
        let sweep = counting_sort(&sweep_keys, CLASSES * levels * rank_count);
        drop(sweep_keys);
        let mut visit = vec![0u32; n];
        for (k, &s) in sweep.iter().enumerate() {
            visit[s as usize] = k as u32;
        }

        // A state's plays depend on the opponent only through its view (see
        // [`Sides::view`]): each run searches every view it meets once.
        progress.start(
            "searching the plays of every side on roll",
            Some(runs.len() as u64),
        );
        // For each run, its memo and where each of its states' view starts in it.
        let memos: Vec<(Memo, Vec<u32>)> = runs
            .par_iter()
            .map_init(
                || (Search::new(sides), HashMap::new()),
                |(search, seen), &(lo, hi)| {
                    let me = ranks[lo].0;
                    let mut memo = Memo { plays: Vec::new() };
                    let mut at = Vec::with_capacity(hi - lo);
                    seen.clear();
                    for &(_, opp) in &ranks[lo..hi] {
                        let view = sides.view(me, opp);
                        let head = *seen.entry(view).or_insert_with(|| {
                            let head = memo.plays.len();
                            memo.plays.resize(head + nr, 0);
                            for (r, &roll) in rolls.moving.iter().enumerate() {
                                let before = memo.plays.len();
                                search.landings_into(me, view, roll, &mut memo.plays);
                                memo.plays[head + r] = (memo.plays.len() - before) as u64;
                            }
                            head as u32
                        });
                        at.push(head);
                    }
                    progress.advance(1);
                    (memo, at)
                },
            )
            .collect();
        progress.finish();
        // By solver position: the state's memo (high 16 bits) and opponent (low 16), and
        // where its view starts in the memo.
        let mut memo_of = vec![0u32; rank_count];
        let mut first_of = vec![0usize; rank_count];
        for (j, &(lo, _)) in runs.iter().enumerate() {
            let me = ranks[lo].0;
            memo_of[usize::from(me)] = j as u32;
            first_of[usize::from(me)] = lo;
        }
        let plays_of: Vec<(u32, u32)> = order
            .par_iter()
            .map(|&i| {
                let (me, opp) = ranks[i as usize];
                let j = memo_of[usize::from(me)];
                let at = memos[j as usize].1[i as usize - first_of[usize::from(me)]];
                (j << 16 | u32::from(opp), at)
            })
            .collect();
        // The successors, in sweep order.
        let built: Vec<(Part, Vec<u8>)> = sweep
            .par_chunks(PART)
            .map(|chunk| {
                let mut start = Vec::with_capacity(chunk.len() * nr + 1);
                start.push(0);
                // Room for every play the memos list (the distinct ones are fewer), so
                // that the array never grows or shrinks: either copies it into fresh
                // pages, which the kernel must zero first (and a virtual machine back).
                // Grown from 16 a state, Hypergammon-3's arrays were copied three times.
                // The room never written is never touched, so it takes no memory beyond
                // the page the array ends in.
                let room: usize = chunk
                    .iter()
                    .map(|&s| {
                        let (key, at) = plays_of[s as usize];
                        let memo = &memos[(key >> 16) as usize].0;
                        let head = at as usize;
                        memo.plays[head..head + nr].iter().sum::<u64>() as usize
                    })
                    .sum();
                let mut succ = Vec::with_capacity(room);
                let mut pass = Vec::with_capacity(chunk.len());
                let mut seen = Seen::new();
                for &s in chunk {
                    let (key, at) = plays_of[s as usize];
                    let memo = &memos[(key >> 16) as usize].0;
                    let opp = key as u16;
                    let head = at as usize;
                    let mut next = head + nr;
                    let mut passing = rolls.idle;
                    let blots = sides.blots(opp);
                    for (r, weight) in rolls.moving.iter().map(|r| r.weight()).enumerate() {
                        let count = memo.plays[head + r] as usize;
                        if count == 0 {
                            passing += weight;
                        }
                        seen.clear();
                        for &play in &memo.plays[next..next + count] {
                            let mover = (play >> 32) as u16;
                            let hits = play as u32 & blots;
                            // Plays that land on different points but hit the same blots
                            // lead to the same position: the first stands for them.
                            if count > 1 && !seen.insert(u64::from(mover) << 32 | u64::from(hits)) {
                                continue;
                            }
                            let other = sides.hit_all(opp, hits);
                            succ.push(if sides.all_off(mover) {
                                win + sides.win_points(other) - 1
                            } else {
                                // The opponent is on roll next.
                                position[usize::from(other) * rank_count + usize::from(mover)]
                            });
                        }
                        next += count;
                        start.push(succ.len() as u32);
                    }
                    pass.push(passing as u8);
                }
                (Part { start, succ }, pass)
            })
            .collect();
        drop(memos);
        drop(plays_of);
        drop(position);
        let mut pass_weight = vec![0u8; n];
        let off = order
            .par_iter()
            .map(|&i| off_of(&ranks[i as usize]))
            .collect();
        let mut parts = Vec::with_capacity(built.len());
        for (part, pass) in built {
            let first = parts.len() * PART;
            for (k, pass) in (first..).zip(pass) {
                pass_weight[sweep[k] as usize] = pass;
            }
            parts.push(part);
        }
        let pair = (0..n)
            .into_par_iter()
            .map(|s| {
                let p = partner[s] as usize;
                Pair {
                    visit: [visit[s], visit[p]],
                    pass_weight: [pass_weight[s], pass_weight[p]],
                }
            })
            .collect();
        Graph {
            order,
            solver_pos,
            segments,
            levels,
            sweep,
            partner,
            pass_weight,
            pair,
            off,
            win,
            rolls: rolls.moving.clone(),
            weights: rolls.moving.iter().map(|r| f64::from(r.weight())).collect(),
            denominator: rolls.denominator,
            parts,
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Moving rolls.
    #[inline]
    pub fn roll_count(&self) -> usize {
        self.rolls.len()
    }

    /// The segment boundaries of class `c`, level by level (see [`Graph::segments`]).
    pub fn class_segments(&self, c: usize) -> &[u32] {
        &self.segments[c * self.levels..=(c + 1) * self.levels]
    }

    /// The solver positions of class `c`.
    pub fn class_span(&self, c: usize) -> std::ops::Range<usize> {
        let b = self.class_segments(c);
        b[0] as usize..b[self.levels] as usize
    }

    /// Successor codes of the state at sweep position `k` for moving roll `r` (index into
    /// [`Graph::rolls`]).
    #[inline]
    pub fn successors(&self, k: usize, r: usize) -> &[u32] {
        let part = &self.parts[k / PART];
        let j = self.rolls.len() * (k % PART) + r;
        &part.succ[part.start[j] as usize..part.start[j + 1] as usize]
    }

    /// Frees the successors (after the equities are solved: the outcomes need only the
    /// plays recorded best).
    pub fn free_successors(&mut self) {
        self.parts = Vec::new();
    }

    /// The successors of the state at sweep position `k`: the starts of its rolls'
    /// (`R + 1` offsets) and the array they index.
    #[inline]
    pub fn state_successors(&self, k: usize) -> (&[u32], &[u32]) {
        let part = &self.parts[k / PART];
        let nr = self.rolls.len();
        let j = nr * (k % PART);
        (&part.start[j..=j + nr], &part.succ)
    }

    /// Successor links in all (every play of every roll of every state).
    pub fn successor_count(&self) -> usize {
        self.parts.iter().map(|p| p.succ.len()).sum()
    }

    /// Bytes the graph holds (its arrays' lengths).
    pub fn bytes(&self) -> usize {
        let parts: usize = self
            .parts
            .iter()
            .map(|p| 4 * (p.start.len() + p.succ.len()))
            .sum();
        parts + self.len() * (4 * 5 + 2 + std::mem::size_of::<Pair>())
    }
}
