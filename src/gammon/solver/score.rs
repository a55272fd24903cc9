//! The cube solver at a match score (`docs/gammon.md`, "Match play"): the same iteration
//! as money play ([`super::cube`]) with match stakes ([`Levels`]).
//!
//! Values are *match equities*, `2 · MWC − 1` for the side on roll (so that what one side
//! wins the other loses, as in money play). All the cube levels of a score are solved in
//! one iteration, a state's value holding every *component*: a cube state (centred, or a
//! cube value owned by either side) as the side on roll sees it at one of the score's two
//! perspectives (the side on roll needs `a`, or `b`). Each component reads one component
//! of its successor (the opponent's view of the same cube) and, where the opponent may
//! double, what doubling brings it: `min(take, pass)`, the take being its component one
//! cube level up (the same state's current value), or at the level where the cube goes
//! dead an *external* value by state (the double-match-point game's). A double never
//! leads down, so a take does not double the stake here: the level above holds it, and
//! a pass pair's components solve exactly from the highest level down. The rules — which
//! components, their game-over values, where a double leads — are
//! `crate::gammon::matchplay`'s; this module solves the system it is given.

use super::cube::{after_one, solve_stakes};
use super::graph::Graph;
use super::stakes::Stakes;
use super::sweep::{Lanes, Slot};
use super::{check_memory, states, Sides, TOLERANCE};
use crate::gammon::{Error, Numbers, Variant};
use crate::progress::Progress;

/// What a take brings the opponent who doubled (see [`Component::double`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Take {
    /// Its value in this component of the same state (one cube level up).
    Component(usize),
    /// Its value in the external values, by state.
    External,
}

/// One component of a score's system (see the module's documentation).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Component {
    /// The component of a successor's values (the opponent's view) that this one reads.
    pub reads: usize,
    /// The match equity of the side on roll here when it wins 1, 2, 3 points times the
    /// cube.
    pub won: [f64; 3],
    /// Where the opponent, on roll after the mover's play, has access to the cube: what
    /// a double taken brings it, and what a pass brings it (it wins the cube's value).
    pub double: Option<(Take, f64)>,
    /// The cube's value, which orders the components for a pass pair's exact solve
    /// (higher first).
    pub cube: u32,
}

/// A variant's states and their successors, built once and solved at many scores.
pub(crate) struct Board {
    graph: Graph,
    /// The record of each state in the variant's numbering, in the states' order.
    records: Vec<u64>,
    /// The solver position of the opening position.
    opening: usize,
    /// The board's points and checkers, for messages.
    size: (usize, usize),
}

/// A score's system solved: by state, each component's value, and each component's value
/// to the side that wins the opening roll and plays first.
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
            size: (variant.points, variant.checkers),
        })
    }

    /// The record of each state, in the order of [`Solved::values`].
    pub fn records(&self) -> &[u64] {
        &self.records
    }

    /// Solves a system of components to [`TOLERANCE`]; `external` (by state) where a
    /// component's take reads it.
    pub fn solve(
        &self,
        components: &[Component],
        external: Option<&[f64]>,
        progress: Progress<'_>,
    ) -> Result<Solved, Error> {
        // One width for each count of components a unit has (1 at 1-1, 2 for the Crawford
        // game or a cube without live levels, 2 + 4L a unit of two perspectives with L
        // live levels, 1 + 2L one of a single perspective); a system between two widths
        // is padded with components that are worth nothing. Every width is a copy of the
        // whole solver in the binary (about 3% of the library's code each): the counts of
        // a single perspective with two or three live levels (5, 7) ride in the next width
        // up instead of their own.
        match components.len() {
            1 => self.solve_n::<1>(components, external, progress),
            2 => self.solve_n::<2>(components, external, progress),
            3 => self.solve_n::<3>(components, external, progress),
            4..=6 => self.solve_n::<6>(components, external, progress),
            7..=10 => self.solve_n::<10>(components, external, progress),
            11..=14 => self.solve_n::<14>(components, external, progress),
            15..=24 => self.solve_n::<24>(components, external, progress),
            n => unreachable!("a system of {n} components"),
        }
    }

    fn solve_n<const N: usize>(
        &self,
        components: &[Component],
        external: Option<&[f64]>,
        progress: Progress<'_>,
    ) -> Result<Solved, Error> {
        let g = &self.graph;
        self.check_room::<N>()?;
        let stakes = Levels::<N>::new(g, components, external)?;
        let (x, sweeps, residual) = solve_stakes(g, &stakes, TOLERANCE, progress)?;
        let used = components.len();
        let opening = self.opening_values(&stakes, &x)[..used].to_vec();
        drop(stakes);
        let values = (0..used)
            .map(|c| {
                let pos = &g.solver_pos;
                crate::par::collect(pos.len(), |i| x[pos[i] as usize].get()[c])
            })
            .collect();
        Ok(Solved {
            values,
            opening,
            sweeps,
            residual,
        })
    }

    /// Refuses a system of `N` values a state that would not fit in the memory left
    /// beside the graph, before allocating it: the values, what a move into each state
    /// gets, their moving parts, the values kept for an extrapolation, the recorded plays
    /// and the results.
    fn check_room<const N: usize>(&self) -> Result<(), Error> {
        let n = self.graph.len() as u64;
        let slot = std::mem::size_of::<Lanes<N>>() as u64;
        let need = n * (4 * slot + 4 * self.graph.roll_count() as u64 + 8 * N as u64 + 16);
        match crate::memory::available() {
            Some(have) if need > have => Err(Error::OutOfMemory {
                what: format!(
                    "solving a match score's {N} values a state on {} points with {} checkers",
                    self.size.0, self.size.1
                ),
                need,
                have,
            }),
            _ => Ok(()),
        }
    }

    /// For each component, the opening roll's winner's value: it plays the best play of
    /// each non-double roll (a roll with no legal move hands the same board over).
    fn opening_values<const N: usize>(&self, stakes: &Levels<N>, x: &[Lanes<N>]) -> [f64; N] {
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
                    let v = after_one(g, stakes, code as usize, x[code as usize].get());
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

/// Match stakes for one score: the components' successors, game-over values and doubles.
pub(crate) struct Levels<const N: usize> {
    reads: [usize; N],
    lost: [[f64; N]; 3],
    /// Per component, whether the opponent may double, and whether a take brings it the
    /// external value (else the component `take` of the state).
    access: [bool; N],
    outside: [bool; N],
    take: [usize; N],
    /// What a pass brings the doubler (`-∞` without access, so that `min` gives `-∞`).
    pass: [f64; N],
    /// By solver position: the external values (zero when none is read).
    external: Vec<f64>,
    /// The components from the highest cube level down (a pass pair's exact solve).
    order: [usize; N],
}

impl<const N: usize> Levels<N> {
    fn new(g: &Graph, components: &[Component], external: Option<&[f64]>) -> Result<Self, Error> {
        let get = |c: usize| components.get(c);
        // An unused component reads itself and is worth nothing.
        let reads = std::array::from_fn(|c| get(c).map_or(c, |x| x.reads));
        let lost =
            std::array::from_fn(|k| std::array::from_fn(|c| get(c).map_or(0.0, |x| -x.won[k])));
        let double = |c: usize| get(c).and_then(|x| x.double);
        let access = std::array::from_fn(|c| double(c).is_some());
        let outside = std::array::from_fn(|c| matches!(double(c), Some((Take::External, _))));
        let take = std::array::from_fn(|c| match double(c) {
            Some((Take::Component(j), _)) => {
                assert!(components[j].cube > components[c].cube, "a take leads up");
                j
            }
            _ => c,
        });
        let pass = std::array::from_fn(|c| double(c).map_or(f64::NEG_INFINITY, |d| d.1));
        let mut order: [usize; N] = std::array::from_fn(|c| c);
        order.sort_by_key(|&c| std::cmp::Reverse(get(c).map_or(0, |x| x.cube)));
        let external = match (outside.contains(&true), external) {
            (false, _) => vec![0.0; g.len()],
            (true, Some(e)) => crate::par::collect(g.order.len(), |k| e[g.order[k] as usize]),
            (true, None) => {
                return Err(Error::Inconsistent(
                    "a score's system reads external values that are not given".into(),
                ))
            }
        };
        Ok(Levels {
            reads,
            lost,
            access,
            outside,
            take,
            pass,
            external,
            order,
        })
    }

    /// What the opponent on roll at solver position `t` gets by doubling, from its values
    /// `v` there, for component `c` of the mover (`-∞` without access).
    #[inline(always)]
    fn doubling(&self, t: usize, v: &[f64; N], c: usize) -> f64 {
        let take = if self.outside[c] {
            self.external[t]
        } else {
            v[self.take[c]]
        };
        take.min(self.pass[c])
    }

    /// [`Levels::doubling`] where the opponent has access, else `None`.
    fn double(&self, t: usize, v: &[f64; N], c: usize) -> Option<f64> {
        self.access[c].then(|| self.doubling(t, v, c))
    }
}

impl<const N: usize> Stakes<N> for Levels<N> {
    type Slot = Lanes<N>;
    const KEY: usize = 0;
    // A take does not double the stake: the level above holds it.
    const SPREAD: f64 = 2.0;
    // Not specialised by roll count: fewer copies of the sweeps to compile.
    const UNROLL: bool = false;

    fn lost(&self) -> [[f64; N]; 3] {
        self.lost
    }

    #[inline(always)]
    fn after(&self, t: usize, v: [f64; N]) -> [f64; N] {
        std::array::from_fn(|c| -v[self.reads[c]].max(self.doubling(t, &v, c)))
    }

    fn pinned(&self, t: usize, v: [f64; N]) -> [f64; N] {
        std::array::from_fn(|c| {
            if !self.access[c] {
                return 0.0;
            }
            // Doubled out: doubling brings the opponent the pass (a take would bring it
            // more; at the dead level the take is fixed), and more than not doubling.
            let no_double = v[self.reads[c]];
            let pinned = if self.outside[c] {
                self.external[t].min(self.pass[c]) - no_double
            } else {
                let pass = self.pass[c];
                (v[self.take[c]] - pass).min(pass - no_double)
            };
            pinned.max(0.0)
        })
    }

    fn pair(
        &self,
        s: usize,
        t: usize,
        a_s: [f64; N],
        a_t: [f64; N],
        p_s: f64,
        p_t: f64,
        _old: [f64; N],
    ) -> [f64; N] {
        // From the highest level down, both states: a component's doubling values read
        // the level above, solved already.
        let (mut x_s, mut x_t) = ([0.0; N], [0.0; N]);
        for &c in &self.order {
            let r = self.reads[c];
            let (d_s, d_t) = (self.double(s, &x_s, r), self.double(t, &x_t, c));
            x_s[c] = chain(a_s[c], a_t[r], p_s, p_t, d_s, d_t);
            let (d_t, d_s) = (self.double(t, &x_t, r), self.double(s, &x_s, c));
            x_t[c] = chain(a_t[c], a_s[r], p_t, p_s, d_t, d_s);
        }
        x_s
    }
}

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
    use crate::gammon::cube::{CENTRED, JACOBY, OPPONENT, OWNED};

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

    // Skipping a state in a full sweep takes its recorded plays, and only where a look at
    // every play would record the same ones, ties between doubled-out plays included: a
    // board with passes at a score with a live cube level and a dead one above it.
    #[test]
    fn skipping_states_at_a_match_score_changes_no_bit() {
        let v = Variant::parse("points=8:checkers=3:faces=0-2:home=4").unwrap();
        let board = Board::new(&v, Progress::SILENT).unwrap();
        let g = &board.graph;
        let comps = [
            Component {
                reads: 0,
                won: [0.2, 0.6, 0.9],
                double: Some((Take::Component(2), 0.2)),
                cube: 1,
            },
            Component {
                reads: 2,
                won: [0.6, 0.9, 1.0],
                double: None,
                cube: 2,
            },
            Component {
                reads: 1,
                won: [0.6, 0.9, 1.0],
                double: Some((Take::External, 0.6)),
                cube: 2,
            },
        ];
        let dead = vec![0.3; board.records().len()];
        let stakes = Levels::<3>::new(g, &comps, Some(&dead)).unwrap();
        let solve = |eliminate| {
            let shortcuts = super::super::cube::Shortcuts {
                eliminate,
                store_sets: true,
            };
            super::super::cube::solve_at(g, &stakes, 1e-12, Progress::SILENT, shortcuts, None)
                .unwrap()
        };
        let (with, without) = (solve(true), solve(false));
        assert_eq!(with.1, without.1);
        assert_eq!(with.2.to_bits(), without.2.to_bits());
        let bits = |x: &[Lanes<3>]| -> Vec<u64> {
            x.iter().flat_map(|v| v.get()).map(f64::to_bits).collect()
        };
        assert!(bits(&with.0) == bits(&without.0), "the values differ");
        assert!(with.1 > 30, "{} sweeps", with.1);
    }

    /// Money play computed by the match machinery alone: one cube level whose game-over
    /// values are the points won (times the cube, 1) and whose doubles lead to the same
    /// level at twice the stake — the opponent's value after a redouble taken is twice its
    /// value with the other side owning, a pass concedes 1. The level above is the level
    /// itself, so the doubling values are iterated with it: each round solves the owned
    /// and opponent-owns components with the last round's doubling values, until they
    /// settle; then the centred and Jacoby components follow from them.
    fn money_by_levels(variant: &str) -> (Vec<[f64; 4]>, Vec<[f64; 4]>) {
        let v = Variant::parse(variant).unwrap();
        let board = Board::new(&v, Progress::SILENT).unwrap();
        let points = [1.0, 2.0, 3.0];
        let mut x = vec![0.0f64; board.records().len()];
        let mut owned_opp = None;
        for _ in 0..200 {
            let take: Vec<f64> = x.iter().map(|x| 2.0 * x).collect();
            let comps = [
                Component {
                    reads: 1,
                    won: points,
                    double: None,
                    cube: 1,
                },
                Component {
                    reads: 0,
                    won: points,
                    double: Some((Take::External, 1.0)),
                    cube: 1,
                },
            ];
            let solved = board.solve(&comps, Some(&take), Progress::SILENT).unwrap();
            let change = solved.values[1]
                .iter()
                .zip(&x)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            x = solved.values[1].clone();
            owned_opp = Some(solved.values);
            if change < 1e-14 {
                break;
            }
        }
        let owned_opp = owned_opp.unwrap();
        let take: Vec<f64> = x.iter().map(|x| 2.0 * x).collect();
        let centred = |won: [f64; 3]| {
            let comp = |reads| Component {
                reads,
                won,
                double: Some((Take::External, 1.0)),
                cube: 1,
            };
            board
                .solve(&[comp(1), comp(0)], Some(&take), Progress::SILENT)
                .unwrap()
                .values[0]
                .clone()
        };
        // Under the Jacoby rule a gammon counts 1 while the cube is centred.
        let (c, j) = (centred(points), centred([1.0; 3]));
        let levels = (0..x.len())
            .map(|i| {
                let mut q = [0.0; 4];
                q[OWNED] = owned_opp[0][i];
                q[OPPONENT] = owned_opp[1][i];
                q[CENTRED] = c[i];
                q[JACOBY] = j[i];
                q
            })
            .collect();
        let money = crate::gammon::solver::solve(&v, true, Progress::SILENT)
            .unwrap()
            .cube
            .unwrap();
        (levels, money)
    }

    fn money_is_the_special_case(variant: &str) {
        let (levels, money) = money_by_levels(variant);
        assert_eq!(levels.len(), money.len());
        let mut largest = 0.0f64;
        for (a, b) in levels.iter().zip(&money) {
            for j in 0..4 {
                largest = largest.max((a[j] - b[j]).abs());
            }
        }
        assert!(largest < 1e-12, "{variant}: largest difference {largest:e}");
    }

    #[test]
    fn money_play_is_the_match_solve_with_the_points_won_as_game_over_values() {
        money_is_the_special_case("hyper1");
        // Zero faces: passes, and pass pairs solved jointly.
        money_is_the_special_case("points=6:checkers=2:faces=0-2:home=2");
    }
}
