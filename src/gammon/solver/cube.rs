//! The doubling cube, money play (`docs/gammon.md`, "The cube"): for every state the
//! no-double equities of the side on roll in four cube states — it owns the cube, the cube
//! is centred, centred under the Jacoby rule, the opponent owns it — with the cube's value
//! taken as 1.
//!
//! "No double" means: the side on roll does not double now, rolls, and plays its best for
//! that cube state. After its play the opponent is on roll and, if it has access to the
//! cube, first decides whether to double; the side that moved then takes or passes. The
//! opponent's value before it rolls, with `ND` its no-double equity in the state it sees
//! and `X` its no-double equity when the other side owns the cube, is
//! `ND` if it cannot double, else `max(ND, min(2 X, 1))` (doubling: a take plays on at
//! twice the stake with the taker owning the cube, a pass concedes 1). Cube states as the
//! opponent sees them: the mover owns → the opponent's "opponent owns"; centred →
//! centred; Jacoby → Jacoby; the opponent owns → it owns. A roll without a legal move
//! hands the same board to the opponent, who decides on the cube first, like any other
//! turn. Under the Jacoby rule a gammon or backgammon won with the cube centred counts 1.
//!
//! The iteration is the cubeless one's machinery (class by class, levels, Jacobi within
//! one, Aitken, and modified policy iteration on the same [`Schedule`]) with four values
//! a state; pass pairs are solved jointly, as the cubeless ones are (see [`cube_pair`]).
//! A full sweep records each roll's best play when the four cube states agree on it
//! (they nearly always do); the sweeps between value that play only, and look at every
//! play of a roll where they disagree.

use super::cube_pair;
use super::graph::{decode, Graph, BOTH_OFF, NONE_OFF, ONE_OFF};
use super::solve::{atomics, filled, Schedule};
use super::sweep::{iterate, level_sweep, Keep, Quad, Slot};
use crate::gammon::Error;
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Where a cube state sits in a value: the side on roll owns the cube.
pub const OWNED: usize = 0;
/// The cube is centred.
pub const CENTRED: usize = 1;
/// The cube is centred, under the Jacoby rule.
pub const JACOBY: usize = 2;
/// The opponent owns the cube.
pub const OPPONENT: usize = 3;

/// The value of a position to the side about to roll in a cube state where it may double
/// (`nd`, its no-double equity there), given `x`, its no-double equity when the other
/// side owns the cube: it doubles when `min(2x, 1) > nd`, and the other side takes or
/// passes, whichever costs it less.
#[inline]
pub fn with_cube_access(nd: f64, x: f64) -> f64 {
    nd.max(doubled(x))
}

/// What doubling brings the side about to roll whose no-double equity when the other
/// side owns the cube is `x`: a take plays on at twice the stake, a pass concedes 1.
#[inline(always)]
pub(super) fn doubled(x: f64) -> f64 {
    (2.0 * x).min(1.0)
}

/// What the side that just moved gets from the opponent's no-double values `t` (the
/// opponent's own view), per cube state of the mover. (Written without branches: the
/// sweeps evaluate it for every play.)
#[inline(always)]
pub fn after_move(t: [f64; 4]) -> [f64; 4] {
    let d = doubled(t[OPPONENT]);
    [
        -t[OPPONENT],
        -t[CENTRED].max(d),
        -t[JACOBY].max(d),
        -t[OWNED].max(d),
    ]
}

/// Once plain sweeps stall, each sweep moves a value this part of the way to its new
/// estimate. The doubling makes the cube's operator expand by up to 2 where a double is
/// taken, and plain sweeps can then cycle between decisions; a step of one half settles
/// them, at the same fixed point.
const DAMPING: f64 = 0.5;

/// Plain sweeps stall when this many in a row bring the change no lower than the lowest
/// before them.
const STALL: usize = 8;

/// Damped sweeps hand back to plain ones once the change has fallen by this factor since
/// the damping began (the cycling is between cube decisions, which settle as the values
/// do), at most [`RETRIES`] times.
const RETRY_AFTER: f64 = 1e-3;
/// See [`RETRY_AFTER`].
const RETRIES: u32 = 3;

/// A recorded play that differs between cube states: the roll's plays are all looked at.
const SPLIT: u32 = u32::MAX;

/// The cubeful solve's results, by state (the order given to [`Graph::build`]).
pub struct Cubeful {
    /// No-double equities: owned, centred, centred with Jacoby, opponent owns.
    pub values: Vec<[f64; 4]>,
    /// Sweeps (full and policy sweeps alike, over a class or over every state).
    pub sweeps: u32,
    /// The largest change in the last sweep (a full one over every state).
    pub residual: f64,
}

/// Solves the four no-double equities of every state to `tolerance`, class by class
/// (each until a sweep over it changes nothing by `tolerance`), then sweeps over every
/// state until one changes nothing by `tolerance`; each iteration ends on a full sweep,
/// so the recorded plays are the best ones at the fixed point.
pub fn solve(graph: &Graph, tolerance: f64, progress: Progress<'_>) -> Result<Cubeful, Error> {
    let n = graph.len();
    // Entries n.. are the wins (valued from the side that lost), then the pass entry.
    let x: Vec<Quad> = (0..n + 4)
        .into_par_iter()
        .map(|s| {
            Quad::new(if s < n || s == n + 3 {
                [0.0; 4]
            } else {
                let points = (s - n + 1) as f64;
                // Seen from the loser; under Jacoby a gammon counts 1.
                [-points, -points, -1.0, -points]
            })
        })
        .collect();
    let mut run = Run::new(graph, tolerance);
    // Class by class (see `graph`): a class leads only to itself and to the classes
    // solved before it. Then a sweep over every state, whose change is the residual.
    for class in [BOTH_OFF, ONE_OFF, NONE_OFF] {
        run.start();
        let bounds = graph.class_segments(class);
        iterate(
            progress,
            "cube",
            tolerance,
            &x,
            graph.class_span(class),
            |x, keep, _| run.sweep(bounds, x, keep),
        )?;
    }
    run.start();
    let (_, residual) = iterate(progress, "cube", tolerance, &x, 0..n, |x, keep, _| {
        run.sweep(&graph.segments, x, keep)
    })?;
    let values = graph
        .solver_pos
        .par_iter()
        .map(|&s| x[s as usize].get())
        .collect();
    Ok(Cubeful {
        values,
        sweeps: run.sweeps,
        residual,
    })
}

/// The value to the side that moved of the successor `code`, per cube state of the mover.
#[inline(always)]
fn value(g: &Graph, x: &[Quad], code: u32) -> [f64; 4] {
    match decode(g.win, code) {
        // A win: the loser's entry, negated (no cube decision).
        Err(_) => x[code as usize].get().map(|l| -l),
        Ok(t) => after_move(x[t as usize].get()),
    }
}

/// One cubeful iteration under way: the recorded best plays and the sweeps' rhythm.
struct Run<'a> {
    g: &'a Graph,
    /// The moving part of each state's values, by sweep position.
    a: Vec<Quad>,
    /// By sweep position and moving roll: the first play best for the centred cube in the
    /// last full sweep, when it is best in the other cube states too, else [`SPLIT`] (a
    /// sweep over the recorded plays then looks at every play of that roll).
    chosen: Vec<AtomicU32>,
    /// Set by a full sweep that changes a recorded play.
    changed: AtomicBool,
    schedule: Schedule,
    /// The step (see [`DAMPING`]) and the changes of the sweeps since it was last set to 1.
    step: f64,
    changes: Vec<f64>,
    /// The change when the step was last damped, and how often plain sweeps were tried
    /// again since.
    damped_at: f64,
    retries: u32,
    sweeps: u32,
    tolerance: f64,
}

impl<'a> Run<'a> {
    fn new(g: &'a Graph, tolerance: f64) -> Self {
        let (n, nr) = (g.len(), g.roll_count());
        Run {
            g,
            a: filled(n, [0.0; 4]),
            chosen: atomics(nr * n, SPLIT),
            changed: AtomicBool::new(false),
            schedule: Schedule::new(),
            step: 1.0,
            changes: Vec::new(),
            damped_at: 0.0,
            retries: 0,
            sweeps: 0,
            tolerance,
        }
    }

    /// A fresh start for the sweeps' rhythm (a new class).
    fn start(&mut self) {
        self.schedule = Schedule::new();
        self.step = 1.0;
        self.changes.clear();
        self.retries = 0;
    }

    /// The next sweep over the segments `bounds`; a sweep over the recorded plays whose
    /// change falls below the tolerance is followed at once by a full one.
    fn sweep(&mut self, bounds: &[u32], x: &[Quad], keep: Option<&Keep<Quad>>) -> f64 {
        self.sweeps += 1;
        let mut full = self.schedule.next_is_full();
        let mut change = self.pass(bounds, x, keep, full);
        if !full && change < self.tolerance {
            self.sweeps += 1;
            full = true;
            change = self.pass(bounds, x, keep, true);
        }
        if full {
            self.schedule
                .after_full(self.changed.swap(false, Ordering::Relaxed));
        }
        // The step depends only on the sweeps' changes, so on no thread count.
        self.changes.push(change);
        let k = self.changes.len();
        if self.step == 1.0 && k > STALL {
            let before = self.changes[..k - STALL]
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min);
            if self.changes[k - STALL..].iter().all(|&c| c >= before) {
                self.step = DAMPING;
                self.damped_at = change;
            }
        } else if self.step < 1.0 && self.retries < RETRIES && change < self.damped_at * RETRY_AFTER
        {
            // Settled: plain sweeps again, with a fresh record of their changes.
            self.step = 1.0;
            self.retries += 1;
            self.changes.clear();
        }
        change
    }

    /// One sweep: looking at every play and recording the best when `full`, else valuing
    /// the recorded plays only.
    fn pass(&self, bounds: &[u32], x: &[Quad], keep: Option<&Keep<Quad>>, full: bool) -> f64 {
        let (g, omega) = (self.g, self.step);
        let d = f64::from(g.denominator);
        let nr = g.roll_count();
        level_sweep(
            g,
            bounds,
            x,
            &self.a,
            keep,
            |x, k, _| {
                let mut sum = [0.0f64; 4];
                let (starts, all) = g.state_successors(k);
                for (r, &weight) in g.weights[..nr].iter().enumerate() {
                    let succ = &all[starts[r] as usize..starts[r + 1] as usize];
                    if succ.is_empty() {
                        continue;
                    }
                    let recorded = &self.chosen[nr * k + r];
                    let code = recorded.load(Ordering::Relaxed);
                    let best = if full || code == SPLIT {
                        // The best of each cube state, and the first play best centred.
                        let mut best = [f64::NEG_INFINITY; 4];
                        let mut first = ([f64::NEG_INFINITY; 4], succ[0]);
                        for &code in succ {
                            let v = value(g, x, code);
                            if v[CENTRED] > first.0[CENTRED] {
                                first = (v, code);
                            }
                            for j in 0..4 {
                                best[j] = best[j].max(v[j]);
                            }
                        }
                        if full {
                            // Recorded when it is also best in the other cube states.
                            let now = if first.0 == best { first.1 } else { SPLIT };
                            if now != code {
                                recorded.store(now, Ordering::Relaxed);
                                // Only a new best play restarts the rhythm, not a roll
                                // that turns SPLIT or back (near ties, as values settle).
                                if now != SPLIT && code != SPLIT {
                                    self.changed.store(true, Ordering::Relaxed);
                                }
                            }
                        }
                        best
                    } else {
                        value(g, x, code)
                    };
                    for j in 0..4 {
                        sum[j] += weight * best[j];
                    }
                }
                sum.map(|v| v / d)
            },
            |a_s, a_t, p_s, p_t, old| {
                let n = cube_pair::solve(a_s, a_t, p_s, p_t, old);
                let new: [f64; 4] = std::array::from_fn(|j| old[j] + omega * (n[j] - old[j]));
                let change = (0..4).map(|j| (new[j] - old[j]).abs()).fold(0.0, f64::max);
                (new, change)
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::gammon::solver::{solve_variant_with, Solved};
    use crate::gammon::store::Cubeful;
    use crate::gammon::{notation, query, Variant};
    use crate::progress::Progress;

    /// The four no-double equities of `position` in `variant`, solved with the cube.
    fn cubeful(variant: &str, position: &str) -> (Cubeful, f64) {
        let v = Variant::parse(variant).unwrap();
        let p = notation::parse_position(&v, position).unwrap();
        let solved: Solved = solve_variant_with(&v, true, Progress::SILENT).unwrap();
        let points = v.points;
        let i = solved
            .states
            .iter()
            .position(|&(me, opp)| {
                solved.sides.counts(me)[1..=points + 1] == *p.us()
                    && solved.sides.counts(opp)[1..=points + 1] == *p.them()
            })
            .unwrap();
        let values = solved.cube.unwrap().values[i];
        (Cubeful::from_array(values), solved.equity[i])
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    // One checker left a side, each side's other checker off: the side on roll bears off
    // on a total of 5 or more (11 of the 16 rolls of two dice 1-4); otherwise the
    // opponent bears off for sure. Every win is single: ND = 2p - 1 = 3/8 in every cube
    // state, and doubling (taken) gives 2 × 3/8 = 3/4 ≤ 1: double, take.
    #[test]
    fn the_last_roll_of_a_race_is_a_double_and_a_take_at_eleven_chances_in_sixteen() {
        let (c, cubeless) = cubeful("points=6:checkers=2:faces=1-4:home=6", "5/1");
        close(cubeless, 6.0 / 16.0);
        for e in c.to_array() {
            close(e, 6.0 / 16.0);
        }
        let a = query::cube_action(&c, query::CubeState::Centred, false);
        assert_eq!(a.action, "double, take");
        close(a.double_take, 0.75);
    }

    // The same race one pip shorter: 14 rolls of 16 win, ND = 3/4, a take would give 3/2:
    // double, pass. Four pips longer for the faces 1-3 (checker on 5): 4 of 9 win, no
    // double.
    #[test]
    fn a_stronger_last_roll_is_a_pass_and_a_weaker_one_no_double() {
        let (c, _) = cubeful("points=6:checkers=2:faces=1-4:home=6", "4/1");
        close(c.centred, 2.0 * 14.0 / 16.0 - 1.0);
        let a = query::cube_action(&c, query::CubeState::Centred, false);
        assert_eq!(a.action, "double, pass");
        let (c, _) = cubeful("points=6:checkers=2:faces=1-3:home=6", "5/1");
        close(c.centred, 2.0 * 4.0 / 9.0 - 1.0);
        let a = query::cube_action(&c, query::CubeState::Centred, false);
        assert_eq!(a.action, "no double");
    }

    // Faces 0 and 1: each side bears its last checker off unless it rolls 0-0 (1 in 4),
    // which passes the same board to the other side, who then decides on the cube. By
    // hand: owned O = 3/4 - X/4 (the opponent cannot double); opponent owns
    // X = 3/4 - max(O, min(2X, 1))/4 and centred C = 3/4 - max(C, min(2X, 1))/4, since after
    // the pass the opponent doubles me out: X = C = 1/2, O = 5/8. Cubeless it would be
    // E = 3/4 - E/4 = 3/5: the opponent's cube decision after a pass costs a tenth.
    #[test]
    fn after_a_pass_the_opponent_decides_on_the_cube_first() {
        let (c, cubeless) = cubeful("points=3:checkers=2:faces=0,1:home=3:start=3,3", "1/1");
        close(cubeless, 0.6);
        close(c.owned, 0.625);
        close(c.centred, 0.5);
        close(c.centred_jacoby, 0.5);
        close(c.opponent_owns, 0.5);
        let a = query::cube_action(&c, query::CubeState::Centred, false);
        assert_eq!(a.action, "double, take");
    }

    // Under the Jacoby rule a gammon counts 1 while the cube is centred: with one checker a
    // side every win is a gammon (here not a backgammon: the loser's checker is outside
    // the winner's home board), so the Jacoby equity of a race won for sure is 1, the
    // others' 2. Without Jacoby that is too good to double; with it, cashing 1 gains
    // nothing over playing on.
    #[test]
    fn jacoby_counts_a_gammon_as_one_while_the_cube_is_centred() {
        let (c, cubeless) = cubeful("points=6:checkers=1:faces=1-4:home=3:start=6", "2/1");
        close(cubeless, 2.0);
        close(c.centred_jacoby, 1.0);
        close(c.centred, 2.0);
        close(c.owned, 2.0);
        close(c.opponent_owns, 2.0);
        let a = query::cube_action(&c, query::CubeState::Centred, true);
        assert_eq!(a.action, "no double");
        let a = query::cube_action(&c, query::CubeState::Centred, false);
        assert_eq!(a.action, "too good");
    }
}
