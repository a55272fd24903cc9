//! The cube solver at a match score (`docs/gammon.md`, "Match play"): the same iteration
//! as money play ([`super::cube`]) with match stakes ([`Levels`]).
//!
//! Values are *match equities*, `2 · MWC − 1` for the side on roll (so that what one side
//! wins the other loses, as in money play). One cube level is solved at a time, from the
//! highest: a double at level `v` leads to level `2v`, whose values are then known, so a
//! level's doubling values are constants by state and its operator expands nothing (a
//! take does not double the stake: the level above holds it). A level's *components* are
//! cube states as the side on roll sees them at one of the two perspectives of a score
//! (the side on roll needs `a`, or `b`); each reads one component of its successor (the
//! opponent's view of the same cube) and, where the opponent may double, the constant
//! value the opponent gets by doubling. The rules — which components, their game-over
//! values, where a double leads — are `crate::gammon::matchplay`'s; this module solves a
//! level it is given.

use super::cube::{solve_stakes, value, CubeSolution};
use super::graph::Graph;
use super::stakes::Stakes;
use super::sweep::{Duo, Quad, Slot};
use super::{check_memory, states, Sides, TOLERANCE};
use crate::gammon::{Error, Numbers, Variant};
use crate::progress::Progress;
use rayon::prelude::*;

/// The opponent may double after the mover's play: what doubling is worth to it at each
/// state, `min(take, pass)`.
pub(crate) struct Double<'a> {
    /// By state (the order of [`Board::records`]): the opponent's no-double match equity
    /// after a double taken, at twice the cube with the mover owning it.
    pub take: &'a [f64],
    /// The opponent's match equity when the mover passes: it wins the cube's value.
    pub pass: f64,
}

/// One component of a cube level (see the module's documentation).
pub(crate) struct Component<'a> {
    /// The component of a successor's values (the opponent's view) that this one reads.
    pub reads: usize,
    /// The match equity of the side on roll here when it wins 1, 2, 3 points times the
    /// cube.
    pub won: [f64; 3],
    /// Where the opponent, on roll after the mover's play, has access to the cube.
    pub double: Option<Double<'a>>,
}

/// A variant's states and their successors, built once and solved at many scores.
pub(crate) struct Board {
    graph: Graph,
    /// The record of each state in the variant's numbering, in the states' order.
    records: Vec<u64>,
    /// The solver position of the opening position.
    opening: usize,
}

/// A cube level solved: by state, each component's value, and each component's value to
/// the side that wins the opening roll and plays first with the cube centred at 1.
pub(crate) struct Solved {
    /// `values[c][i]`: component `c` of state `i`.
    pub values: Vec<Vec<f64>>,
    /// By component: the average over the opening's non-double rolls of the best play's
    /// value to its mover.
    pub opening: Vec<f64>,
    /// Sweeps and the last change.
    pub sweeps: u32,
    pub residual: f64,
}

impl Board {
    /// The graph of `variant` (checked first, and refused when it would not fit in
    /// memory).
    pub fn new(variant: &Variant, progress: Progress<'_>) -> Result<Board, Error> {
        variant.check()?;
        check_memory(variant)?;
        let sides = Sides::new(variant);
        let states = states(variant, &sides)?;
        let graph = Graph::build(&sides, &variant.rolls(), &states, progress);
        let numbers = Numbers::new(variant)?;
        let records = numbers.records_of(&states);
        let start = numbers.record(&variant.opening())?;
        let at = records.iter().position(|&r| r == start).expect("a state");
        let opening = graph.solver_pos[at] as usize;
        Ok(Board {
            graph,
            records,
            opening,
        })
    }

    /// The record of each state, in the order of [`Solved::values`].
    pub fn records(&self) -> &[u64] {
        &self.records
    }

    /// Solves one cube level of two or four components to [`TOLERANCE`].
    pub fn solve(
        &self,
        components: &[Component<'_>],
        progress: Progress<'_>,
    ) -> Result<Solved, Error> {
        match components.len() {
            2 => self.solve_n::<2, Duo>(components, progress),
            4 => self.solve_n::<4, Quad>(components, progress),
            n => unreachable!("a cube level of {n} components"),
        }
    }

    fn solve_n<const N: usize, S: Slot<Value = [f64; N]>>(
        &self,
        components: &[Component<'_>],
        progress: Progress<'_>,
    ) -> Result<Solved, Error>
    where
        Levels<N, S>: Stakes<N, Slot = S>,
    {
        let g = &self.graph;
        let stakes = Levels::<N, S>::new(g, components);
        let (solution, x): (CubeSolution<N>, Vec<S>) =
            solve_stakes(g, &stakes, TOLERANCE, progress)?;
        let values = (0..N)
            .map(|c| solution.values.iter().map(|v| v[c]).collect())
            .collect();
        Ok(Solved {
            values,
            opening: self.opening_values(&stakes, &x).to_vec(),
            sweeps: solution.sweeps,
            residual: solution.residual,
        })
    }

    /// For each component, the opening roll's winner's value: it plays the best play of
    /// each non-double roll (a roll with no legal move hands the same board over).
    fn opening_values<const N: usize, S: Slot<Value = [f64; N]>>(
        &self,
        stakes: &Levels<N, S>,
        x: &[S],
    ) -> [f64; N]
    where
        Levels<N, S>: Stakes<N, Slot = S>,
    {
        let g = &self.graph;
        let s = self.opening;
        let k = g.pair[s].visit[0] as usize;
        let partner = g.partner[s] as usize;
        let (mut sum, mut weight) = ([0.0; N], 0.0);
        for (r, roll) in g.rolls.iter().enumerate() {
            if roll.is_double() {
                continue;
            }
            let succ = g.successors(k, r);
            let best = if succ.is_empty() {
                stakes.after(partner, x[partner].get())
            } else {
                succ.iter().fold([f64::NEG_INFINITY; N], |best, &code| {
                    let v = value(g, stakes, x, code);
                    std::array::from_fn(|j| best[j].max(v[j]))
                })
            };
            let w = f64::from(roll.weight());
            for j in 0..N {
                sum[j] += w * best[j];
            }
            weight += w;
        }
        sum.map(|v| v / weight)
    }
}

/// Match stakes for one cube level: the components' successors, game-over values and
/// doubling values, by solver position.
pub(crate) struct Levels<const N: usize, S> {
    reads: [usize; N],
    lost: [[f64; N]; 3],
    /// By solver position: what the opponent gets by doubling, per component of the
    /// mover; `None` where it has no access (for the joint solve of a pass pair).
    doubles: Vec<[f64; N]>,
    access: [bool; N],
    slot: std::marker::PhantomData<S>,
}

impl<const N: usize, S> Levels<N, S> {
    fn new(g: &Graph, components: &[Component<'_>]) -> Self {
        let reads = std::array::from_fn(|c| components[c].reads);
        let lost = std::array::from_fn(|k| std::array::from_fn(|c| -components[c].won[k]));
        let access = std::array::from_fn(|c| components[c].double.is_some());
        let doubles = g
            .order
            .par_iter()
            .map(|&i| {
                std::array::from_fn(|c| match &components[c].double {
                    Some(d) => d.take[i as usize].min(d.pass),
                    None => f64::NEG_INFINITY,
                })
            })
            .collect();
        Levels {
            reads,
            lost,
            doubles,
            access,
            slot: std::marker::PhantomData,
        }
    }
}

macro_rules! levels_stakes {
    ($n:literal, $slot:ty) => {
        impl Stakes<$n> for Levels<$n, $slot> {
            type Slot = $slot;
            const KEY: usize = 0;
            // A take does not double the stake: the level above holds it.
            const SPREAD: f64 = 2.0;

            fn lost(&self) -> [[f64; $n]; 3] {
                self.lost
            }

            #[inline(always)]
            fn after(&self, t: usize, v: [f64; $n]) -> [f64; $n] {
                let d = &self.doubles[t];
                std::array::from_fn(|c| -v[self.reads[c]].max(d[c]))
            }

            fn pair(
                &self,
                s: usize,
                t: usize,
                a_s: [f64; $n],
                a_t: [f64; $n],
                p_s: f64,
                p_t: f64,
                _old: [f64; $n],
            ) -> [f64; $n] {
                std::array::from_fn(|c| {
                    let r = self.reads[c];
                    let d_t = self.access[c].then_some(self.doubles[t][c]);
                    let d_s = self.access[r].then_some(self.doubles[s][r]);
                    chain(a_s[c], a_t[r], p_s, p_t, d_s, d_t)
                })
            }
        }
    };
}
levels_stakes!(2, Duo);
levels_stakes!(4, Quad);

/// One component `x_s` of a pass pair and the component `x_t` of the partner it reads:
///
/// ```text
/// x_s = a_s − p_s · max(x_t, d_t),    x_t = a_t − p_t · max(x_s, d_s)
/// ```
///
/// where `d_t` (`d_s`) is what the side on roll at `t` (at `s`) gets by doubling, `None`
/// without access. The map `x_s ↦ a_s − p_s max(a_t − p_t max(x_s, d_s), d_t)` rises with
/// slope at most `p_s p_t < 1`: one fixed point, found by trying each side's decision in
/// turn (the first that holds; at a tie two hold and agree). Both sides always passing
/// is a game that never ends: 0.
fn chain(a_s: f64, a_t: f64, p_s: f64, p_t: f64, d_s: Option<f64>, d_t: Option<f64>) -> f64 {
    if p_s == 0.0 {
        return a_s;
    }
    if p_t == 0.0 {
        return a_s - p_s * d_t.map_or(a_t, |d| a_t.max(d));
    }
    let den = 1.0 - p_s * p_t;
    if den <= 0.0 {
        return 0.0;
    }
    // Whether each side doubles: (s's side, t's side).
    let holds = |x_s: f64, x_t: f64, dbl_s: bool, dbl_t: bool| {
        let fits = |x: f64, d: Option<f64>, dbl: bool| match d {
            None => !dbl,
            Some(d) => (d >= x) == dbl || d == x,
        };
        fits(x_s, d_s, dbl_s) && fits(x_t, d_t, dbl_t)
    };
    let mut best = (f64::INFINITY, 0.0);
    for (dbl_s, dbl_t) in [(false, false), (false, true), (true, false), (true, true)] {
        if (dbl_s && d_s.is_none()) || (dbl_t && d_t.is_none()) {
            continue;
        }
        let (x_s, x_t) = match (dbl_s, dbl_t) {
            (false, false) => ((a_s - p_s * a_t) / den, (a_t - p_t * a_s) / den),
            (_, true) => {
                let x_s = a_s - p_s * d_t.unwrap_or(0.0);
                let x_t = a_t - p_t * if dbl_s { d_s.unwrap_or(0.0) } else { x_s };
                (x_s, x_t)
            }
            (true, false) => {
                let x_t = a_t - p_t * d_s.unwrap_or(0.0);
                (a_s - p_s * x_t, x_t)
            }
        };
        if holds(x_s, x_t, dbl_s, dbl_t) {
            return x_s;
        }
        // Rounding at a near tie: keep the candidate that fits its equations best.
        let misfit = (x_s - (a_s - p_s * d_t.map_or(x_t, |d| x_t.max(d))))
            .abs()
            .max((x_t - (a_t - p_t * d_s.map_or(x_s, |d| x_s.max(d)))).abs());
        if misfit < best.0 {
            best = (misfit, x_s);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chain's equations iterated from zero until they settle.
    fn iterated(a_s: f64, a_t: f64, p_s: f64, p_t: f64, d_s: Option<f64>, d_t: Option<f64>) -> f64 {
        let (mut x_s, mut x_t) = (0.0f64, 0.0f64);
        for _ in 0..5000 {
            let s = a_s - p_s * d_t.map_or(x_t, |d| x_t.max(d));
            let t = a_t - p_t * d_s.map_or(x_s, |d| x_s.max(d));
            (x_s, x_t) = (s, t);
        }
        x_s
    }

    #[test]
    fn a_pass_chain_is_the_limit_of_its_own_iteration() {
        let parts = [-0.9, -0.3, 0.0, 0.25, 0.7];
        let doubles = [None, Some(-0.5), Some(0.1), Some(0.6)];
        let mut cases = 0;
        for &a_s in &parts {
            for &a_t in &parts {
                for &d_s in &doubles {
                    for &d_t in &doubles {
                        for (p_s, p_t) in [(1.0 / 36.0, 1.0 / 36.0), (4.0 / 9.0, 0.25), (0.5, 1.0)]
                        {
                            let want = iterated(a_s, a_t, p_s, p_t, d_s, d_t);
                            let got = chain(a_s, a_t, p_s, p_t, d_s, d_t);
                            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
                            cases += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(cases, 5 * 5 * 4 * 4 * 3);
        assert_eq!(chain(0.3, 0.2, 1.0, 1.0, None, None), 0.0);
    }
}
