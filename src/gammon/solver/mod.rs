//! The family's solver: one engine for every variant (`docs/gammon.md`, "The solver").
//!
//! Its public face is one function, [`solve`], which takes a [`Variant`] and returns a
//! [`Solution`] (every state's values, in the order of the variant's numbering) and its
//! [`SolveReport`]; the tables that keep the result are the callers' (the family's, in
//! [`crate::gammon::store`], or a member's own format). Inside, crate-private: `sides`
//! numbers one side's checkers and precomputes its moves; `graph` lays out every state's
//! successors for every roll; `solve` iterates the cubeless equities, then the outcome
//! chances under the optimal plays; `cube` and `cube_pair` the four no-double equities;
//! `sweep` is the parallel, deterministic machinery of one sweep.

pub(crate) mod cube;
mod cube_pair;
pub(crate) mod graph;
pub(crate) mod score;
pub(crate) mod sides;
mod solve;
mod stakes;
mod sweep;

pub(crate) use sides::Sides;

use super::variant::Variant;
use super::{Error, Numbers};
use crate::progress::Progress;
use graph::Graph;
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// The solver's stopping tolerance: the largest change in a sweep.
pub const TOLERANCE: f64 = 1e-12;

/// A variant with fewer states than this solves its cube and its cubeless values side by
/// side, a thread each, rather than one after the other on every thread. Its levels are
/// small: a sweep's threads meet at each level's two barriers after a few microseconds
/// of work, so one thread a stage does the same work in less processor time. A larger
/// variant solves them one after the other, on every thread: the cubeless solve frees
/// most of the graph before its outcome arrays are made, which keeps its peak memory to
/// the cube's (Hypergammon-3: 37 million states, 6 GB). Side by side, the cube's sweeps
/// over the class with no checker off start from the cubeless solve's first plays there
/// (`solve::Seed`); one after the other, from their own first full sweep.
const SIDE_BY_SIDE_BELOW: usize = 4 << 20;

/// The six exclusive outcome chances for the side on roll, in the solver's order: win
/// single, win gammon, win backgammon; lose single, lose gammon, lose backgammon (the
/// public form is [`crate::gammon::Outcomes::from_exclusive`]).
pub type Exclusive = [f64; 6];

/// The states of a variant, as pairs of side ranks (see [`Sides`]), the side on roll
/// first, in the order of the variant's numbering: the NikoNiko article's dense index, or
/// gnubg's record order with the illegal and finished records left out.
pub(crate) fn states(variant: &Variant, sides: &Sides) -> Result<Vec<(u16, u16)>, Error> {
    let numbers = Numbers::new(variant)?;
    Ok(match numbers.seed() {
        Some(seed) => {
            // The article's number of each side, then this solver's, once a side.
            let ours: Vec<u16> = seed
                .side_locations()
                .iter()
                .map(|v| {
                    let mut side = [0u8; sides::LOCATIONS];
                    side[..v.len()].copy_from_slice(v);
                    sides.rank(&side)
                })
                .collect();
            seed.side_numbers()
                .par_iter()
                .map(|&(me, opp)| (ours[me as usize], ours[opp as usize]))
                .collect()
        }
        None => {
            let n = sides.len() as u16;
            let p = sides.points();
            let mirror = p + 1;
            // Side 0, all checkers off, is the only finished side: both start at 1.
            (1..n)
                .into_par_iter()
                .flat_map_iter(|me| {
                    let mine = sides.counts(me);
                    (1..n).filter_map(move |opp| {
                        let theirs = sides.counts(opp);
                        let clash = (1..=p).any(|q| mine[q] > 0 && theirs[mirror - q] > 0);
                        (!clash).then_some((me, opp))
                    })
                })
                .collect()
        }
    })
}

/// How many states a variant has, without listing them: the legal records less those in
/// which a side has borne off everything.
pub fn state_count(variant: &Variant) -> Result<u64, Error> {
    let counts = variant.hyper_index()?.counts();
    Ok(counts.legal - (2 * counts.sides - 1))
}

/// Bytes a solve of `states` states with `rolls` moving rolls and `checkers` checkers a
/// side needs at its peak, roughly: the successors (a few per checker and roll), their
/// starts, the recorded plays, and a dozen values a state.
fn footprint(states: u64, rolls: u64, checkers: u64) -> u64 {
    let successors_per_roll = (2 * checkers.min(5)).max(2) + 1;
    states.saturating_mul(4 * rolls * (successors_per_roll + 2) + 160)
}

/// Refuses a variant whose solve would not fit this machine's memory, before allocating.
pub fn check_memory(variant: &Variant) -> Result<(), Error> {
    let states = state_count(variant)?;
    let need = footprint(
        states,
        variant.rolls().moving.len() as u64,
        variant.checkers as u64,
    );
    if let Some(have) = crate::memory::available() {
        if need > have {
            return Err(Error::OutOfMemory {
                what: format!("solving the {states} states of {}", variant.name()),
                need,
                have,
            });
        }
    }
    Ok(())
}

/// How a solve went: its size, its sweeps and their last changes, its time.
#[derive(Debug, Clone, Serialize)]
pub struct SolveReport {
    /// States solved (legal positions where neither side has finished).
    pub states: u64,
    /// Successor links: every play of every roll of every state.
    pub successors: usize,
    /// Bytes the graph of those links held.
    pub graph_bytes: usize,
    /// Sweeps of the equity iteration (full and policy sweeps alike).
    pub sweeps: u32,
    /// The largest change of an equity in the last sweep (always a full one).
    pub residual: f64,
    /// Sweeps of the outcome iteration: those of the class with one side off, then those
    /// of the class with none (whose two systems share their sweeps).
    pub outcome_sweeps: u32,
    /// The largest change of an outcome chance in the last sweep.
    pub outcome_residual: f64,
    /// With the cube: its sweeps.
    pub cube_sweeps: Option<u32>,
    /// With the cube: the largest change of a cubeful equity in its last sweep.
    pub cube_residual: Option<f64>,
    /// Wall time generating the plays, in seconds.
    pub graph_seconds: f64,
    /// Wall time iterating (equities, outcomes and the cube), in seconds.
    pub solve_seconds: f64,
    /// The part of `solve_seconds` spent on the outcomes.
    pub outcome_seconds: f64,
}

/// A variant solved: the equity and outcome chances of every state, and with the cube
/// its four no-double equities, in the order of the variant's numbering (see
/// [`Solution::records`]), and how the solve went.
pub struct Solution {
    /// The states, as side ranks (see [`states`]).
    states: Vec<(u16, u16)>,
    /// Cubeless equity of the side on roll, by state.
    pub equity: Vec<f64>,
    /// The six exclusive outcome chances of the side on roll, by state.
    pub outcomes: Vec<Exclusive>,
    /// With the cube: the no-double equities by state, indexed by
    /// [`crate::gammon::CubeState::index`].
    pub cube: Option<Vec<[f64; 4]>>,
    /// How the solve went.
    pub report: SolveReport,
}

impl Solution {
    /// The record of each state in the variant's numbering, in the order of
    /// [`Solution::equity`] (for the article's numbering, `0, 1, 2, …`).
    pub fn records(&self, numbers: &Numbers) -> Vec<u64> {
        numbers.records_of(&self.states)
    }
}

/// The graph of a variant (checked first) and its states, as the solver lays them out.
pub(crate) fn graph_of(variant: &Variant) -> Result<(Graph, Vec<(u16, u16)>), Error> {
    variant.check()?;
    let sides = Sides::new(variant);
    let states = states(variant, &sides)?;
    let graph = Graph::build(&sides, &variant.rolls(), &states, Progress::SILENT);
    Ok((graph, states))
}

/// Solves every state of `variant` to [`TOLERANCE`], and with `cube` the four no-double
/// equities too. Refuses, before allocating, a variant that does not check or would not
/// fit in memory.
pub fn solve(variant: &Variant, cube: bool, progress: Progress<'_>) -> Result<Solution, Error> {
    solve_in(variant, cube, progress, SIDE_BY_SIDE_BELOW)
}

/// As [`solve`], the cube and the cubeless values side by side when the variant has
/// fewer than `side_by_side_below` states. The cubeless values are the same either way, bit
/// for bit; the cube's reach the same fixed point by another path (their own first full
/// sweep in place of the cubeless solve's plays), the same whatever the thread count.
fn solve_in(
    variant: &Variant,
    cube: bool,
    progress: Progress<'_>,
    side_by_side_below: usize,
) -> Result<Solution, Error> {
    variant.check()?;
    check_memory(variant)?;
    let started = Instant::now();
    progress.start("numbering the states", None);
    let sides = Sides::new(variant);
    let states = states(variant, &sides)?;
    let mut graph = Graph::build(&sides, &variant.rolls(), &states, progress);
    let graph_seconds = started.elapsed().as_secs_f64();
    let (successors, graph_bytes) = (graph.successor_count(), graph.bytes());
    let (cube, cubeless) = if cube && states.len() < side_by_side_below {
        // Each on a thread of its own, the first to end lending its thread to the other.
        progress.start(
            "iterating the cube and, beside it, the cubeless values",
            None,
        );
        // The cube's sweeps over the class with no checker off start from the plays of the
        // cubeless solve's first full sweep over it (see `solve::Seed`). On one thread the
        // cubeless solve runs first, so that the plays are there when the cube wants them.
        let seed = solve::Seed::default();
        let (cubeless, cube) = solve::side_by_side(
            || solve::solve_seeding(solve::Held::Shared(&graph), TOLERANCE, progress, &seed),
            || cube::solve_seeded(&graph, TOLERANCE, progress, &seed),
        );
        (Some(cube?), cubeless?)
    } else {
        let cube = if cube {
            progress.start("iterating the cube", None);
            Some(cube::solve(&graph, TOLERANCE, progress)?)
        } else {
            None
        };
        progress.start("iterating", None);
        (
            cube,
            solve::solve(solve::Held::Own(&mut graph), TOLERANCE, progress)?,
        )
    };
    let solve_seconds = started.elapsed().as_secs_f64() - graph_seconds;
    let report = SolveReport {
        states: states.len() as u64,
        successors,
        graph_bytes,
        sweeps: cubeless.sweeps,
        residual: cubeless.residual,
        outcome_sweeps: cubeless.outcome_sweeps,
        outcome_residual: cubeless.outcome_residual,
        cube_sweeps: cube.as_ref().map(|c| c.sweeps),
        cube_residual: cube.as_ref().map(|c| c.residual),
        graph_seconds,
        solve_seconds,
        outcome_seconds: cubeless.outcome_seconds,
    };
    Ok(Solution {
        states,
        equity: cubeless.equity,
        outcomes: cubeless.outcomes,
        cube: cube.map(|c| c.values),
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::{moves, notation, Position};
    use std::collections::HashMap;

    /// Every position of `variant` with play left, by brute force over boards.
    fn boards(variant: &Variant) -> Vec<Position> {
        let index = variant.hyper_index().unwrap();
        (0..index.records())
            .map(|r| index.position(r).unwrap())
            .filter(|p| notation::check(variant, p).is_ok())
            .collect()
    }

    /// Every position of `variant` with play left (see [`boards`]), where each is in the
    /// list, and for each position and moving roll its plays: a position (the opponent on
    /// roll; a pass leaves the same board to it) or a win of so many points.
    struct Boards {
        all: Vec<Position>,
        at: HashMap<Position, usize>,
        succ: Vec<Vec<Vec<Result<usize, f64>>>>,
    }

    fn board_graph(variant: &Variant) -> Boards {
        let all = boards(variant);
        let at: HashMap<Position, usize> = all.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let rolls = variant.rolls();
        let succ = all
            .iter()
            .map(|p| {
                rolls
                    .moving
                    .iter()
                    .map(|&roll| {
                        moves::plays(variant, p, roll)
                            .into_iter()
                            .map(|m| {
                                if m.wins() {
                                    Err(f64::from(moves::win_points(variant, m.after.them())))
                                } else {
                                    Ok(at[&m.after.swapped()])
                                }
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Boards { all, at, succ }
    }

    /// The board of the solver's state `i`.
    fn board_of(solved: &Solution, sides: &Sides, i: usize) -> Position {
        let (me, opp) = solved.states[i];
        let p = sides.points();
        Position::new(&sides.counts(me)[1..=p + 1], &sides.counts(opp)[1..=p + 1]).unwrap()
    }

    /// Cubeless equities by plain value iteration on boards with the board generator: no
    /// ranks, no classes, no pairs, no extrapolation, no policy iteration.
    fn naive_equities(variant: &Variant) -> HashMap<Position, f64> {
        let Boards { all, at, succ } = board_graph(variant);
        let rolls = variant.rolls();
        let mut e = vec![0.0f64; all.len()];
        let d = f64::from(rolls.denominator);
        for _ in 0..100_000 {
            let mut change = 0.0f64;
            for s in 0..all.len() {
                let mut v = -f64::from(rolls.idle) * e[at[&all[s].swapped()]];
                for (r, w) in rolls.moving.iter().map(|r| r.weight()).enumerate() {
                    let best = succ[s][r]
                        .iter()
                        .map(|t| match *t {
                            Ok(t) => -e[t],
                            Err(points) => points,
                        })
                        .fold(f64::NEG_INFINITY, f64::max);
                    v += f64::from(w) * best;
                }
                let v = v / d;
                change = change.max((v - e[s]).abs());
                e[s] = v;
            }
            if change < 1e-14 {
                break;
            }
        }
        all.into_iter().zip(e).collect()
    }

    /// The four no-double equities (owned, centred, Jacoby, opponent owns) by plain
    /// value iteration on boards with the board generator, from the rules as written:
    /// after each play the opponent, on roll, doubles when it has the cube's access and
    /// gains by it, and the side that moved then takes or passes, whichever costs less.
    /// Damped by one half throughout (the doubling can make plain sweeps cycle).
    fn naive_cubeful(variant: &Variant) -> HashMap<Position, [f64; 4]> {
        let Boards { all, at, succ } = board_graph(variant);
        let rolls = variant.rolls();
        let (owned, centred, jacoby, theirs) = (0, 1, 2, 3);
        // What the side that moved gets in its cube state `mine` when the opponent, on
        // roll, holds `v` (its own view).
        let after = |v: [f64; 4], mine: usize| -> f64 {
            // The opponent's cube state, and whether it may double.
            let (its, access) = match mine {
                0 => (theirs, false),
                3 => (owned, true),
                m => (m, true),
            };
            let no_double = v[its];
            // Doubled, the side that moved takes (owning the cube at twice the stake:
            // the opponent then holds 2 v[theirs]) or passes (the opponent wins 1).
            let doubled = (2.0 * v[theirs]).min(1.0);
            let opponent = if access && doubled > no_double {
                doubled
            } else {
                no_double
            };
            -opponent
        };
        let mut x = vec![[0.0f64; 4]; all.len()];
        let d = f64::from(rolls.denominator);
        for _ in 0..200_000 {
            let mut change = 0.0f64;
            for s in 0..all.len() {
                let idle = x[at[&all[s].swapped()]];
                for mine in [owned, centred, jacoby, theirs] {
                    let mut v = f64::from(rolls.idle) * after(idle, mine);
                    for (r, w) in rolls.moving.iter().map(|r| r.weight()).enumerate() {
                        let best = succ[s][r]
                            .iter()
                            .map(|t| match *t {
                                Ok(t) => after(x[t], mine),
                                // Under Jacoby a gammon counts 1 while the cube is centred.
                                Err(points) if mine == jacoby => points.min(1.0),
                                Err(points) => points,
                            })
                            .fold(f64::NEG_INFINITY, f64::max);
                        v += f64::from(w) * best;
                    }
                    let new = x[s][mine] + 0.5 * (v / d - x[s][mine]);
                    change = change.max((new - x[s][mine]).abs());
                    x[s][mine] = new;
                }
            }
            if change < 1e-14 {
                break;
            }
        }
        all.into_iter().zip(x).collect()
    }

    fn cube_matches_naive(name: &str) -> usize {
        let variant = Variant::parse(name).unwrap();
        let solved = solve(&variant, true, Progress::SILENT).unwrap();
        let sides = Sides::new(&variant);
        let cube = solved.cube.as_ref().unwrap();
        let naive = naive_cubeful(&variant);
        assert_eq!(solved.states.len(), naive.len());
        for (i, values) in cube.iter().enumerate() {
            let board = board_of(&solved, &sides, i);
            for (ours, theirs) in values.iter().zip(naive[&board]) {
                assert!(
                    (ours - theirs).abs() < 1e-10,
                    "{name} {board:?}: {values:?} vs {:?}",
                    naive[&board]
                );
            }
        }
        naive.len()
    }

    #[test]
    fn hyper1_cubeful_equities_match_plain_value_iteration_on_boards() {
        assert_eq!(cube_matches_naive("hyper1"), 601);
    }

    #[test]
    fn cubeful_equities_with_passes_match_plain_value_iteration_on_boards() {
        // Zero faces: the side that cannot move hands the board over, and the opponent
        // decides on the cube first.
        assert!(cube_matches_naive("points=6:checkers=2:faces=0-2:home=2") > 500);
    }

    fn engine_matches_naive(name: &str) -> usize {
        let variant = Variant::parse(name).unwrap();
        let solved = solve(&variant, false, Progress::SILENT).unwrap();
        let sides = Sides::new(&variant);
        let naive = naive_equities(&variant);
        assert_eq!(solved.states.len(), naive.len());
        for i in 0..solved.states.len() {
            let board = board_of(&solved, &sides, i);
            let expected = naive[&board];
            assert!(
                (solved.equity[i] - expected).abs() < 1e-10,
                "{name} {board:?}: {} vs {expected}",
                solved.equity[i]
            );
            let o = crate::gammon::Outcomes::from_exclusive(solved.outcomes[i]);
            assert!((o.equity() - solved.equity[i]).abs() < 1e-9, "{board:?}");
        }
        naive.len()
    }

    #[test]
    fn hyper1_equities_match_plain_value_iteration_on_boards() {
        assert_eq!(engine_matches_naive("hyper1"), 601);
    }

    #[test]
    fn a_small_board_with_a_zero_face_matches_plain_value_iteration() {
        // Zero faces make passes, so pass pairs and deadlocks are exercised.
        assert!(engine_matches_naive("points=6:checkers=2:faces=0-2:home=2") > 500);
    }

    #[test]
    fn a_board_of_three_checkers_and_four_faces_matches_plain_value_iteration() {
        assert!(engine_matches_naive("points=7:checkers=3:faces=1-4:home=2") > 5_000);
    }

    #[test]
    fn the_cube_beside_the_cubeless_solve_is_the_same_on_one_thread_and_agrees_with_it_alone() {
        let v = Variant::parse("points=7:checkers=3:faces=1-4:home=2").unwrap();
        let pool = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
        };
        // Two threads, so that the two solves do run side by side (one a thread); on one,
        // the cubeless solve runs first and the cube's after it, from the same plays.
        let beside = pool(2).install(|| solve_in(&v, true, Progress::SILENT, usize::MAX).unwrap());
        let one = pool(1).install(|| solve_in(&v, true, Progress::SILENT, usize::MAX).unwrap());
        // In turn, the cube's solve starts from no plays of the cubeless one.
        let in_turn = pool(2).install(|| solve_in(&v, true, Progress::SILENT, 0).unwrap());
        let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let flat = |c: &Option<Vec<[f64; 4]>>| c.as_ref().unwrap().concat();
        assert!(bits(&flat(&beside.cube)) == bits(&flat(&one.cube)));
        assert_eq!(beside.report.cube_sweeps, one.report.cube_sweeps);
        for other in [&one, &in_turn] {
            // The cubeless values do not depend on the cube beside them.
            assert!(bits(&beside.equity) == bits(&other.equity));
            assert!(beside.outcomes.concat() == other.outcomes.concat());
            assert_eq!(beside.report.sweeps, other.report.sweeps);
        }
        // Seeded or not, the cube's values are the same fixed point.
        let (a, b) = (flat(&beside.cube), flat(&in_turn.cube));
        let most = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(most < 1e-10, "{most}");
        assert!(a.len() > 20_000, "{}", a.len());
    }

    #[test]
    fn hyper1_cubeful_opening_agrees_with_gnubgs_database() {
        // gnubg 1.07's hyper1.bd, record 648 (Hypergammon-1 has no pass positions, where
        // makehyper errs): owned, centred, Jacoby, opponent owns.
        let v = Variant::built_in("hyper1").unwrap();
        let solved = solve(&v, true, Progress::SILENT).unwrap();
        let sides = Sides::new(&v);
        let cube = solved.cube.as_ref().unwrap();
        let opening = solved
            .states
            .iter()
            .position(|&(me, opp)| sides.counts(me)[24] == 1 && sides.counts(opp)[24] == 1)
            .unwrap();
        let gnubg = [0.5882762, 0.5393156, 0.4556764, 0.3863552];
        for (ours, theirs) in cube[opening].iter().zip(gnubg) {
            assert!((ours - theirs).abs() < 1e-4, "{:?}", cube[opening]);
        }
    }

    #[test]
    fn a_variant_too_large_for_memory_is_refused_before_allocating() {
        let v = Variant::parse("points=24:checkers=4").unwrap();
        let message = solve(&v, false, Progress::SILENT)
            .err()
            .unwrap()
            .to_string();
        assert!(
            message.contains("states") && message.contains("GB"),
            "{message}"
        );
    }
}
