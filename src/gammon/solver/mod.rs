//! The family's solver: one engine for every variant (`docs/gammon.md`, "The solver").
//!
//! [`sides`] numbers one side's checkers and precomputes its moves; [`graph`] lays out
//! every state's successors for every roll; [`solve`] iterates the cubeless equities, then
//! the outcome chances under the optimal plays; [`sweep`] is the parallel, deterministic
//! machinery of one sweep. [`solve_variant`] runs the whole for a [`Variant`]; the tables
//! that keep the result are the callers' (NikoNiko's own format, or the family's).

pub mod cube;
mod cube_pair;
pub(crate) mod graph;
pub(crate) mod sides;
mod solve;
mod sweep;

pub use sides::{Side, Sides, LOCATIONS};
pub(crate) use solve::Exclusive;

use super::variant::{Numbering, Variant};
use super::Error;
use crate::progress::Progress;
use graph::Graph;
use rayon::prelude::*;
use std::time::Instant;

/// The solver's stopping tolerance: the largest change in a sweep.
pub const TOLERANCE: f64 = 1e-12;

/// The states of a variant, as pairs of side ranks (see [`Sides`]), the side on roll
/// first, in the order of the variant's numbering: the NikoNiko article's dense index, or
/// gnubg's record order with the illegal and finished records left out.
pub fn states(variant: &Variant, sides: &Sides) -> Vec<(u16, u16)> {
    match variant.numbering {
        Numbering::Seed => {
            use crate::nikoniko::index;
            // The article's number of each side, then this solver's, once a side.
            let ours: Vec<u16> = index::all_sides()
                .iter()
                .map(|v| sides.rank(&widen(v)))
                .collect();
            index::all_states()
                .par_iter()
                .map(|p| {
                    let rank = |v| ours[usize::from(index::side_rank(v))];
                    (rank(&p.me), rank(&p.opp))
                })
                .collect()
        }
        Numbering::Gnubg => {
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
    }
}

/// A NikoNiko side as the solver's [`Side`].
pub fn widen(side: &crate::nikoniko::position::Side) -> Side {
    let mut out = [0u8; LOCATIONS];
    out[..side.len()].copy_from_slice(side);
    out
}

/// How many states a variant has, without listing them: the legal records less those in
/// which a side has borne off everything.
pub fn state_count(variant: &Variant) -> Result<u64, Error> {
    Ok(match variant.numbering {
        Numbering::Seed => crate::nikoniko::STATES,
        Numbering::Gnubg => {
            let counts = variant.hyper_index()?.counts();
            counts.legal - (2 * counts.sides - 1)
        }
    })
}

/// Bytes a solve of `states` states with `rolls` moving rolls and `checkers` checkers a
/// side needs at its peak, roughly: the successors (a few per checker and roll), their
/// starts, the recorded plays, and a dozen values a state.
pub fn footprint(states: u64, rolls: u64, checkers: u64) -> u64 {
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
    if let Some(have) = available_memory() {
        if need > have {
            return Err(Error::TooLarge {
                points: variant.points,
                checkers: variant.checkers,
                reason: format!(
                    "{states} states; solving them needs about {:.1} GB and this machine has \
                     {:.1} GB available",
                    need as f64 / 1e9,
                    have as f64 / 1e9
                ),
            });
        }
    }
    Ok(())
}

/// The memory this machine has available, from `/proc/meminfo` (None elsewhere).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A variant solved: the equity and outcome chances of every state (in the order of
/// [`states`]) and how the solve went.
pub struct Solved {
    /// The states, as side ranks (see [`states`]).
    pub states: Vec<(u16, u16)>,
    /// Cubeless equity of the side on roll, by state.
    pub equity: Vec<f64>,
    /// The six exclusive outcome chances of the side on roll, by state.
    pub outcomes: Vec<Exclusive>,
    /// The side tables the states are numbered by.
    pub sides: Sides,
    /// Sweeps of the equity iteration.
    pub sweeps: u32,
    /// The largest change of an equity in the last sweep.
    pub residual: f64,
    /// Sweeps of the outcome iteration.
    pub outcome_sweeps: u32,
    /// The largest change of an outcome chance in the last sweep.
    pub outcome_residual: f64,
    /// Wall time of the graph, in seconds.
    pub graph_seconds: f64,
    /// Wall time of the iterations (equities and outcomes), in seconds.
    pub solve_seconds: f64,
    /// The part of `solve_seconds` spent on the outcomes.
    pub outcome_seconds: f64,
    /// Successor links in the graph.
    pub successors: usize,
    /// Bytes the graph held.
    pub graph_bytes: usize,
    /// With the cube: the four no-double equities by state (see [`cube`]).
    pub cube: Option<cube::Cubeful>,
}

/// The graph of a variant (checked first).
pub(crate) fn graph_of(variant: &Variant) -> Graph {
    let sides = Sides::new(variant);
    let states = states(variant, &sides);
    Graph::build(&sides, &variant.rolls(), &states, Progress::SILENT)
}

/// Solves every state of `variant` to [`TOLERANCE`]. Refuses, before allocating, a
/// variant that does not check or would not fit in memory.
pub fn solve_variant(variant: &Variant, progress: Progress<'_>) -> Result<Solved, Error> {
    solve_variant_with(variant, false, progress)
}

/// As [`solve_variant`], with the cube's four no-double equities when `with_cube`.
pub fn solve_variant_with(
    variant: &Variant,
    with_cube: bool,
    progress: Progress<'_>,
) -> Result<Solved, Error> {
    variant.check()?;
    check_memory(variant)?;
    let started = Instant::now();
    progress.start("numbering the states", None);
    let sides = Sides::new(variant);
    let states = states(variant, &sides);
    let mut graph = Graph::build(&sides, &variant.rolls(), &states, progress);
    let graph_seconds = started.elapsed().as_secs_f64();
    let (successors, graph_bytes) = (graph.successor_count(), graph.bytes());
    let cube = if with_cube {
        progress.start("iterating the cube", None);
        Some(cube::solve(&graph, TOLERANCE, progress)?)
    } else {
        None
    };
    progress.start("iterating", None);
    let solution = solve::solve(&mut graph, TOLERANCE, progress)?;
    let solve_seconds = started.elapsed().as_secs_f64() - graph_seconds;
    Ok(Solved {
        states,
        equity: solution.equity,
        outcomes: solution.outcomes,
        sides,
        sweeps: solution.sweeps,
        residual: solution.residual,
        outcome_sweeps: solution.outcome_sweeps,
        outcome_residual: solution.outcome_residual,
        graph_seconds,
        solve_seconds,
        outcome_seconds: solution.outcome_seconds,
        successors,
        graph_bytes,
        cube,
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
        let at: HashMap<Position, usize> = all
            .iter()
            .enumerate()
            .map(|(i, p)| (p.clone(), i))
            .collect();
        let rolls = variant.rolls();
        let succ = all
            .iter()
            .map(|p| {
                rolls
                    .moving
                    .iter()
                    .map(|&(a, b, _)| {
                        moves::plays(variant, p, (a, b))
                            .into_iter()
                            .map(|m| {
                                if moves::off(m.after.us(), variant.checkers) == variant.checkers {
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
    fn board_of(solved: &Solved, variant: &Variant, i: usize) -> Position {
        let (me, opp) = solved.states[i];
        let p = variant.points;
        Position::new(
            solved.sides.counts(me)[1..=p + 1].to_vec(),
            solved.sides.counts(opp)[1..=p + 1].to_vec(),
        )
        .unwrap()
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
                for (r, &(_, _, w)) in rolls.moving.iter().enumerate() {
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
                    for (r, &(_, _, w)) in rolls.moving.iter().enumerate() {
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
        let solved = solve_variant_with(&variant, true, Progress::SILENT).unwrap();
        let cube = solved.cube.as_ref().unwrap();
        let naive = naive_cubeful(&variant);
        assert_eq!(solved.states.len(), naive.len());
        for i in 0..solved.states.len() {
            let board = board_of(&solved, &variant, i);
            for (ours, theirs) in cube.values[i].iter().zip(naive[&board]) {
                assert!(
                    (ours - theirs).abs() < 1e-10,
                    "{name} {board:?}: {:?} vs {:?}",
                    cube.values[i],
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
        let solved = solve_variant(&variant, Progress::SILENT).unwrap();
        let naive = naive_equities(&variant);
        assert_eq!(solved.states.len(), naive.len());
        for i in 0..solved.states.len() {
            let board = board_of(&solved, &variant, i);
            let expected = naive[&board];
            assert!(
                (solved.equity[i] - expected).abs() < 1e-10,
                "{name} {board:?}: {} vs {expected}",
                solved.equity[i]
            );
            let o = crate::nikoniko::Outcomes::from_exclusive(solved.outcomes[i]);
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
    fn hyper1_cubeful_opening_agrees_with_gnubgs_database() {
        // gnubg 1.07's hyper1.bd, record 648 (Hypergammon-1 has no pass positions, where
        // makehyper errs): owned, centred, Jacoby, opponent owns.
        let v = Variant::built_in("hyper1").unwrap();
        let solved = solve_variant_with(&v, true, Progress::SILENT).unwrap();
        let cube = solved.cube.unwrap();
        let opening = solved
            .states
            .iter()
            .position(|&(me, opp)| {
                solved.sides.counts(me)[24] == 1 && solved.sides.counts(opp)[24] == 1
            })
            .unwrap();
        let gnubg = [0.5882762, 0.5393156, 0.4556764, 0.3863552];
        for (ours, theirs) in cube.values[opening].iter().zip(gnubg) {
            assert!((ours - theirs).abs() < 1e-4, "{:?}", cube.values[opening]);
        }
    }

    #[test]
    fn a_variant_too_large_for_memory_is_refused_before_allocating() {
        let v = Variant::parse("points=24:checkers=4").unwrap();
        let message = solve_variant(&v, Progress::SILENT)
            .err()
            .unwrap()
            .to_string();
        assert!(
            message.contains("states") && message.contains("GB"),
            "{message}"
        );
    }
}
