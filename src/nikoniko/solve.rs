//! Value iteration for the cubeless equity of every state, then the outcome
//! probabilities under the optimal policy it defines.
//!
//! One sweep walks the levels of [`Graph`] upwards (Gauss–Seidel across levels, Jacobi
//! within one, so the work inside a level runs in parallel and the result does not
//! depend on the thread count). Within a level each state is solved together with its
//! partner — the same board with the other side on roll — from
//! `E_s = a_s - p_s E_t`, `E_t = a_t - p_t E_s` (a pass hands the same board over), which
//! is exact: `E_s = (a_s - p_s a_t) / (1 - p_s p_t)`. (When both sides must pass on every
//! roll the game never ends and both equities are 0.)
//!
//! The error falls geometrically (hits send games back up the levels), so three devices
//! cut the work: Aitken extrapolation of the geometric tail (`iterate`); modified policy
//! iteration (one full sweep in three, the sweeps between value only the best plays last
//! found); and, for the outcomes, iterating only the gammon and backgammon chances under
//! the final policy, the chance of winning following from the equity.

use super::graph::{Graph, MOVING_ROLLS};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// Outcome probabilities for the side on roll: win single, gammon, backgammon; lose
/// single, gammon, backgammon.
pub type Outcomes = [f64; 6];

/// Points of each outcome, from the side on roll.
pub const OUTCOME_POINTS: [f64; 6] = [1.0, 2.0, 3.0, -1.0, -2.0, -3.0];

/// The solver's results, by dense index.
pub struct Solution {
    pub equity: Vec<f64>,
    pub outcomes: Vec<Outcomes>,
    /// Sweeps of the equity iteration (full and policy sweeps alike), and the largest
    /// change in the last one (always a full sweep).
    pub sweeps: u32,
    pub residual: f64,
    /// Sweeps of the outcome iteration, and the largest change in the last one.
    pub outcome_sweeps: u32,
    pub outcome_residual: f64,
}

/// Gives up after this many sweeps (the iteration converges in far fewer).
pub const MAX_SWEEPS: u32 = 10_000;

/// Solves every state to `tolerance` (the largest change in a sweep). `progress` shows
/// the sweeps.
pub fn solve(graph: &Graph, tolerance: f64, progress: &ProgressBar) -> Result<Solution, String> {
    let n = graph.len();
    // Entries n.. are the wins, valued from the side that lost: -1, -2, -3.
    let mut e = vec![0.0f64; n + 3];
    e[n..].copy_from_slice(&[-1.0, -2.0, -3.0]);
    let mut scratch = vec![0.0f64; n];
    // Modified policy iteration: a full sweep (the best of every play) records the best
    // play of each roll; the sweeps between full ones value only those plays, at a third of
    // the cost. The iteration only stops on a full sweep, so its fixed point is the
    // optimal one.
    let chosen: Vec<AtomicU32> = (0..5 * n).map(|_| AtomicU32::new(PASS)).collect();
    let mut k = 0u32;
    let mut sweeps = 0u32;
    let (_, residual) = iterate(progress, "equity", tolerance, &mut e, |e| {
        k += 1;
        sweeps += 1;
        if k <= FULL_FIRST || k.is_multiple_of(FULL_EVERY) {
            return equity_sweep(graph, e, &mut scratch, &chosen, true);
        }
        let delta = equity_sweep(graph, e, &mut scratch, &chosen, false);
        if delta < tolerance {
            k = 0;
            sweeps += 1;
            equity_sweep(graph, e, &mut scratch, &chosen, true)
        } else {
            delta
        }
    })?;

    let policy = best_plays(graph, &e);
    // Only the gammon and backgammon chances are iterated; the chance of winning follows
    // from the equity (see `outcomes_from`). Entries n.. are the wins, seen from the side
    // that lost: no gammon, a gammon, a backgammon against it.
    let mut o = vec![Tail::default(); n + 3];
    o[n + 1].0 = [0.0, 0.0, 1.0, 0.0];
    o[n + 2].0 = [0.0, 0.0, 1.0, 1.0];
    let mut o_scratch = vec![Tail::default(); n];
    let (outcome_sweeps, outcome_residual) =
        iterate(progress, "outcomes", tolerance, &mut o, |o| {
            outcome_sweep(graph, &policy, o, &mut o_scratch)
        })?;

    let mut equity = vec![0.0; n];
    let mut outcomes = vec![[0.0; 6]; n];
    for (s, &i) in graph.order.iter().enumerate() {
        equity[i as usize] = e[s];
        outcomes[i as usize] = if deadlocked(graph, s) {
            [0.0; 6]
        } else {
            outcomes_from(e[s], &o[s])
        };
    }
    Ok(Solution {
        equity,
        outcomes,
        sweeps,
        residual,
        outcome_sweeps,
        outcome_residual,
    })
}

/// Runs `sweep` over `x` until the largest change in a sweep is below `tolerance`.
///
/// The error of this iteration decays geometrically (by about 0.72 a sweep for the
/// equities, 0.8 for the outcomes: hits send games back up the levels). Once the ratio of
/// successive changes has settled, the remaining geometric tail is summed in one step
/// (`x += (x - x_prev) · λ / (1 - λ)`, Aitken's extrapolation); the sweeps that follow
/// are ordinary ones, so the fixed point and the stopping test are unchanged.
fn iterate<T: bytemuck::Pod + Send + Sync>(
    progress: &ProgressBar,
    what: &str,
    tolerance: f64,
    x: &mut [T],
    mut sweep: impl FnMut(&mut [T]) -> f64,
) -> Result<(u32, f64), String> {
    let mut previous: Vec<T> = x.to_vec();
    let mut deltas: Vec<f64> = Vec::new();
    let mut last_jump = 0usize;
    for k in 1..=MAX_SWEEPS {
        // The state before this sweep is needed only if an extrapolation may follow it.
        let may_jump = deltas.len() + 1 >= (last_jump + EXTRAPOLATE_AFTER).max(3);
        if may_jump {
            previous
                .par_iter_mut()
                .zip(x.par_iter())
                .for_each(|(p, v)| *p = *v);
        }
        let delta = sweep(x);
        deltas.push(delta);
        progress.set_message(format!("{what} sweep {k}, residual {delta:.2e}"));
        progress.tick();
        if delta < tolerance {
            return Ok((k, delta));
        }
        let n = deltas.len();
        if n >= last_jump + EXTRAPOLATE_AFTER && n >= 3 {
            let r1 = deltas[n - 1] / deltas[n - 2];
            let r2 = deltas[n - 2] / deltas[n - 3];
            if r1 > 0.0 && r1 < 0.98 && (r1 - r2).abs() < 0.01 * r1 {
                let factor = r1 / (1.0 - r1);
                let now: &mut [f64] = bytemuck::cast_slice_mut(x);
                let before: &[f64] = bytemuck::cast_slice(&previous);
                now.par_iter_mut()
                    .zip(before.par_iter())
                    .for_each(|(v, &p)| *v += (*v - p) * factor);
                last_jump = n;
            }
        }
    }
    Err(format!(
        "the {what} iteration did not converge in {MAX_SWEEPS} sweeps"
    ))
}

/// Ordinary sweeps between two extrapolations.
const EXTRAPOLATE_AFTER: usize = 3;

/// Value of a successor code for the side that moved (wins included: see
/// [`super::graph::WIN`]).
#[inline]
fn value(e: &[f64], code: u32) -> f64 {
    -e[code as usize]
}

/// Full sweeps for this many sweeps first, while the best plays still change often.
const FULL_FIRST: u32 = 4;
/// Then one full sweep in this many.
const FULL_EVERY: u32 = 3;

/// Σ over moving rolls that do not pass of weight × best play's value, divided by 9;
/// records the first best play of each roll in `chosen`.
#[inline]
fn moving_part(g: &Graph, e: &[f64], s: usize, chosen: &[AtomicU32]) -> f64 {
    let mut sum = 0.0;
    for (r, &(_, weight)) in MOVING_ROLLS.iter().enumerate() {
        let succ = g.successors(s, r);
        if let Some((&first, rest)) = succ.split_first() {
            let (mut best, mut code) = (value(e, first), first);
            for &c in rest {
                let v = value(e, c);
                if v > best {
                    (best, code) = (v, c);
                }
            }
            // Each entry is written by the one task that owns state s.
            chosen[5 * s + r].store(code, Ordering::Relaxed);
            sum += f64::from(weight) * best;
        }
    }
    sum / 9.0
}

/// As [`moving_part`], valuing only the plays recorded in `chosen`.
#[inline]
fn chosen_part(e: &[f64], s: usize, chosen: &[AtomicU32]) -> f64 {
    let mut sum = 0.0;
    for (r, &(_, weight)) in MOVING_ROLLS.iter().enumerate() {
        let code = chosen[5 * s + r].load(Ordering::Relaxed);
        if code != PASS {
            sum += f64::from(weight) * value(e, code);
        }
    }
    sum / 9.0
}

/// Solves `x_s = a_s - p_s x_t`, `x_t = a_t - p_t x_s` for `x_s`.
#[inline]
fn solve_pair(a_s: f64, a_t: f64, p_s: f64, p_t: f64) -> f64 {
    let den = 1.0 - p_s * p_t;
    if den == 0.0 {
        0.0
    } else {
        (a_s - p_s * a_t) / den
    }
}

fn pass_chance(g: &Graph, s: usize) -> f64 {
    f64::from(g.pass_weight[s]) / 9.0
}

/// One sweep over the levels, bottom up. For each level: `moving(x, s)` computes every
/// state's part from the rolls that move (reading the values as they stand, so the work
/// of a level runs in parallel), then `pair(a_s, a_t, p_s, p_t, x_s)` solves each state
/// with its pass partner and returns how much `x_s` changed. Returns the largest change.
fn level_sweep<T: Copy + Send + Sync>(
    g: &Graph,
    x: &mut [T],
    a: &mut [T],
    moving: impl Fn(&[T], usize) -> T + Sync,
    pair: impl Fn(&T, &T, f64, f64, &mut T) -> f64 + Sync,
) -> f64 {
    let mut delta = 0.0f64;
    for w in g.levels.windows(2) {
        let (lo, hi) = (w[0] as usize, w[1] as usize);
        let snapshot: &[T] = x;
        a[lo..hi]
            .par_iter_mut()
            .enumerate()
            .for_each(|(k, out)| *out = moving(snapshot, lo + k));
        let a: &[T] = a;
        let level_delta = x[lo..hi]
            .par_iter_mut()
            .enumerate()
            .map(|(k, v)| {
                let s = lo + k;
                let t = g.partner[s] as usize;
                pair(&a[s], &a[t], pass_chance(g, s), pass_chance(g, t), v)
            })
            .reduce(|| 0.0, f64::max);
        delta = delta.max(level_delta);
    }
    delta
}

/// A full sweep when `full` (recording the best plays in `chosen`), else a sweep over the
/// plays recorded last.
fn equity_sweep(g: &Graph, e: &mut [f64], a: &mut [f64], chosen: &[AtomicU32], full: bool) -> f64 {
    level_sweep(
        g,
        e,
        a,
        |e, s| {
            if full {
                moving_part(g, e, s, chosen)
            } else {
                chosen_part(e, s, chosen)
            }
        },
        |&a_s, &a_t, p_s, p_t, x| {
            let new = solve_pair(a_s, a_t, p_s, p_t);
            let d = (new - *x).abs();
            *x = new;
            d
        },
    )
}

/// Marks a roll on which the side passes in the policy.
const PASS: u32 = u32::MAX - 8;

/// For each state and moving roll, the first play of greatest value (or [`PASS`]).
fn best_plays(g: &Graph, e: &[f64]) -> Vec<u32> {
    (0..g.len())
        .into_par_iter()
        .flat_map_iter(|s| {
            (0..MOVING_ROLLS.len()).map(move |r| {
                let succ = g.successors(s, r);
                let mut best = PASS;
                let mut best_value = f64::NEG_INFINITY;
                for &c in succ {
                    let v = value(e, c);
                    if v > best_value {
                        best_value = v;
                        best = c;
                    }
                }
                best
            })
        })
        .collect()
}

/// The chances of winning a gammon or more, a backgammon, losing a gammon or more, a
/// backgammon, for the side on roll. Aligned to 32 bytes: one read never straddles two
/// cache lines.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
#[repr(C, align(32))]
struct Tail([f64; 4]);

// SAFETY: four f64 and no padding (32 bytes, aligned to 32).
unsafe impl bytemuck::Zeroable for Tail {}
unsafe impl bytemuck::Pod for Tail {}

fn flip(o: &Tail) -> Tail {
    Tail([o.0[2], o.0[3], o.0[0], o.0[1]])
}

/// Both sides must pass on every roll: the game never ends.
fn deadlocked(g: &Graph, s: usize) -> bool {
    g.pass_weight[s] == 9 && g.pass_weight[g.partner[s] as usize] == 9
}

/// The six exclusive outcomes from the equity and the gammon chances: with W the chance
/// of winning, `E = 2W - 1 + (Gw - Gl) + (Bw - Bl)`, since every game that can end does.
fn outcomes_from(e: f64, t: &Tail) -> Outcomes {
    let [gw, bw, gl, bl] = t.0;
    let w = (1.0 + e - (gw - gl) - (bw - bl)) / 2.0;
    let l = 1.0 - w;
    [w - gw, gw - bw, bw, l - gl, gl - bl, bl]
}

fn outcome_sweep(g: &Graph, policy: &[u32], o: &mut [Tail], a: &mut [Tail]) -> f64 {
    let moving = |o: &[Tail], s: usize| {
        let mut sum = [0.0; 4];
        if g.both_off[s] {
            // No gammon either way, now or later: every tail is exactly zero.
            return Tail(sum);
        }
        for (r, &(_, weight)) in MOVING_ROLLS.iter().enumerate() {
            let code = policy[5 * s + r];
            if code == PASS {
                continue;
            }
            let w = f64::from(weight) / 9.0;
            let f = flip(&o[code as usize]);
            for (x, y) in sum.iter_mut().zip(f.0) {
                *x += w * y;
            }
        }
        Tail(sum)
    };
    level_sweep(g, o, a, moving, |a_s, a_t, p_s, p_t, x| {
        // x_s = a_s + p_s flip(x_t), x_t = a_t + p_t flip(x_s)
        //  ⇒ x_s = (a_s + p_s flip(a_t)) / (1 - p_s p_t).
        let den = 1.0 - p_s * p_t;
        let ft = flip(a_t);
        let mut d = 0.0f64;
        for j in 0..4 {
            let new = if den == 0.0 {
                0.0
            } else {
                (a_s.0[j] + p_s * ft.0[j]) / den
            };
            d = d.max((new - x.0[j]).abs());
            x.0[j] = new;
        }
        d
    })
}
