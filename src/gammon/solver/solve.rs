//! Value iteration for the cubeless equity of every state, then the outcome
//! probabilities under the optimal policy it defines.
//!
//! A sweep walks the segments of [`Graph`] in order (Gauss–Seidel across segments,
//! Jacobi within one, so the work inside a segment runs in parallel and the result does
//! not depend on the thread count; see [`super::sweep`]). Within a segment each state is
//! solved together with its partner — the same board with the other side on roll — from
//! `E_s = a_s - p_s E_t`, `E_t = a_t - p_t E_s` (a pass hands the same board over), which
//! is exact: `E_s = (a_s - p_s a_t) / (1 - p_s p_t)`. (When both sides must pass on every
//! roll the game never ends and both equities are 0.)
//!
//! The classes of the graph are solved one after the other — both sides off, one side,
//! neither — since each leads only to itself and to those before it; the classes' last
//! sweeps, one after the other, are a sweep over every state and confirm the whole. The
//! error falls geometrically (hits send games back up the levels), so four more devices
//! cut the work: Aitken extrapolation of the
//! geometric tail ([`super::sweep::iterate`]); modified policy iteration (full sweeps
//! only now and then, growing rarer while they change no play; the sweeps between value
//! only the best plays last found); action elimination (a full sweep skips a state whose
//! best plays led the others by more than the values can since have moved: see
//! `Elimination`); and, for the outcomes, iterating only the gammon and
//! backgammon chances under the plays the last full sweep found best (the chance of
//! winning follows from the equity), over two values a state where only one side can
//! still lose a gammon, and with the plays that leave a class folded into constants.

use super::graph::{class, decode, Graph, BOTH_OFF, NONE_OFF, ONE_OFF};
use super::sweep::{
    by_rolls, iterate, iterate_apart, level_sweep, prefetch_plays, prefetch_recorded, rolls,
    with_loans, Duo, Keep, Quad, Scalar, Slot, AHEAD,
};
use crate::gammon::Error;
use crate::progress::Progress;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use super::Exclusive;

/// The cubeless iteration's results, by state (the order given to [`Graph::build`]).
pub struct Cubeless {
    pub equity: Vec<f64>,
    /// The six exclusive outcome chances, by state.
    pub outcomes: Vec<Exclusive>,
    /// Sweeps of the equity iteration (full and policy sweeps alike), and the largest
    /// change in the last one (always a full sweep).
    pub sweeps: u32,
    pub residual: f64,
    /// Sweeps of the outcome iteration, and the largest change in the last one.
    pub outcome_sweeps: u32,
    pub outcome_residual: f64,
    /// Wall time of the outcome iteration (the rest of the solve is the equity's).
    pub outcome_seconds: f64,
}

/// Solves every state to `tolerance` (the largest change in a sweep). `progress` shows
/// the sweeps.
pub fn solve(graph: Held<'_>, tolerance: f64, progress: Progress<'_>) -> Result<Cubeless, Error> {
    solve_with(graph, tolerance, progress, true, None)
}

/// As [`solve`], handing `seed` the plays its first full sweep over the class with no
/// checker off records (see [`Seed`]).
pub fn solve_seeding(
    graph: Held<'_>,
    tolerance: f64,
    progress: Progress<'_>,
    seed: &Seed,
) -> Result<Cubeless, Error> {
    // However the solve ends, the cube's solve waiting for the plays goes on (without).
    let _closed = seed.closes();
    solve_with(graph, tolerance, progress, true, Some(seed))
}

/// The plays the cubeless solve's first full sweep over the class with no checker off
/// records (by sweep position and moving roll, as the solve's own), handed to the cube's
/// solve running beside it: they start its sweeps over that class in place of a full
/// sweep of its own (the dearest of its sweeps, every value still 0), as the cube's
/// plays nearly always agree with them. The cube's iteration still ends on its own full
/// sweeps, at the same fixed point. The plays are the same whatever the thread count, so
/// the cube's values are too.
#[derive(Default)]
pub struct Seed {
    plays: std::sync::Mutex<SeedState>,
    ready: std::sync::Condvar,
}

#[derive(Default)]
struct SeedState {
    plays: Option<Arc<Vec<u32>>>,
    /// The cubeless solve has ended: no plays will come if none have.
    closed: bool,
}

impl Seed {
    /// Hands over the plays.
    fn publish(&self, plays: Vec<u32>) {
        let mut state = self.plays.lock().unwrap_or_else(|e| e.into_inner());
        state.plays = Some(Arc::new(plays));
        self.ready.notify_all();
    }

    /// Marks the seed closed when the value returned is dropped.
    fn closes(&self) -> impl Drop + '_ {
        struct Closes<'a>(&'a Seed);
        impl Drop for Closes<'_> {
            fn drop(&mut self) {
                let mut state = self.0.plays.lock().unwrap_or_else(|e| e.into_inner());
                state.closed = true;
                self.0.ready.notify_all();
            }
        }
        Closes(self)
    }

    /// The plays, once handed over; none if the cubeless solve ended without (an error).
    pub(super) fn wait(&self) -> Option<Arc<Vec<u32>>> {
        let mut state = self.plays.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(plays) = &state.plays {
                return Some(Arc::clone(plays));
            }
            if state.closed {
                return None;
            }
            state = self.ready.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The graph as the cubeless solve holds it: its own, whose successors it frees once the
/// equities are solved (before the outcome arrays are made: the peak of a large
/// variant), or shared with the cube's solve running beside it, which still reads them.
pub enum Held<'a> {
    Own(&'a mut Graph),
    Shared(&'a Graph),
}

impl Held<'_> {
    fn graph(&self) -> &Graph {
        match self {
            Held::Own(g) => g,
            Held::Shared(g) => g,
        }
    }

    /// Frees the successors of a graph of its own.
    fn free_successors(&mut self) {
        if let Held::Own(g) = self {
            g.free_successors();
        }
    }
}

/// As [`solve`]; `eliminate` says whether full sweeps may skip the plays that provably
/// cannot have overtaken the recorded best (see [`Elimination`]). Either way the result
/// is the same, bit for bit.
fn solve_with(
    mut held: Held<'_>,
    tolerance: f64,
    progress: Progress<'_>,
    eliminate: bool,
    seed: Option<&Seed>,
) -> Result<Cubeless, Error> {
    let graph: &Graph = held.graph();
    let n = graph.len();
    let pass = graph.win + 3;
    let nr = graph.roll_count();
    // Entries n.. are the wins, valued from the side that lost (-1, -2, -3), then
    // [`PASS`], worth 0.
    let e: Vec<Scalar> = crate::par::collect(n + 4, |s| {
        Scalar::new(if s < n || s == pass as usize {
            0.0
        } else {
            -((s - n + 1) as f64)
        })
    });
    let mut run = PolicyIteration {
        g: graph,
        scratch: filled(n, 0.0),
        chosen: atomics(nr * n, pass),
        changed: AtomicBool::new(false),
        schedule: Schedule::new(),
        sweeps: 0,
        tolerance,
        elimination: eliminate.then(|| Elimination::new(n)),
    };
    // Class by class (see `graph`): a class leads only to itself and to the classes
    // solved before it, each until a full sweep over it changes nothing by `tolerance`.
    // So those last sweeps, one after the other, are a sweep over every state (the order
    // of `graph.segments`): the largest of their changes is the residual reported.
    let mut last = 0.0f64;
    for class in [BOTH_OFF, ONE_OFF] {
        last = last.max(solve_class(&mut run, progress, &e, class, None)?);
    }

    // The gammon and backgammon chances follow the plays the last full sweep over their
    // class found best (its changes were all below the tolerance), one class after the
    // other (both sides off: all zero). With one side off only the other side can still
    // lose a gammon, whoever is on roll: two values a state, the chances it loses a
    // gammon or more, a backgammon. Entry PASS stays 0. Those need no more equities, so
    // they are solved alongside the last class's equities.
    let duo: Vec<Duo> = filled(n + 4, [0.0; 2]);
    let one = compact(
        graph,
        &run.chosen,
        ONE_OFF,
        [0.0; 2],
        |c, w, code| match decode(graph.win, code) {
            Err(points) => {
                if points >= 2.0 {
                    c[0] += w;
                    c[1] += if points == 3.0 { w } else { 0.0 };
                }
                false
            }
            Ok(t) => class(graph.off[t as usize]) == ONE_OFF,
        },
    );
    let (equities, gammons) = side_by_side(
        || -> Result<f64, Error> {
            Ok(last.max(solve_class(&mut run, progress, &e, NONE_OFF, seed)?))
        },
        || {
            let started = std::time::Instant::now();
            let duo_scratch: Vec<Duo> = filled(n, [0.0; 2]);
            let result = iterate(
                progress,
                "gammons, one side off",
                tolerance,
                &duo,
                graph.class_span(ONE_OFF),
                &mut |x, keep, _| one_off_sweep(graph, &one, x, &duo_scratch, keep),
            );
            (result, started.elapsed().as_secs_f64())
        },
    );
    let residual = equities?;
    let (one_sweeps, one_residual) = gammons.0?;
    let outcomes_started = std::time::Instant::now();
    let sweeps = run.sweeps;
    let policy = std::mem::take(&mut run.chosen);
    let policy = policy.as_slice();
    drop(run);
    // The plays of the states are no longer needed: the outcomes follow the recorded
    // best plays only. Their memory (most of the graph's) goes back before the outcome
    // arrays are made.
    held.free_successors();
    let graph: &Graph = held.graph();
    // With neither off, all four chances (see `Tail`); plays that bear off a first
    // checker lead to states just solved. The gammon chances (won, lost) and the
    // backgammon chances are two systems that never meet: each is iterated as it would be
    // alone, both in the same sweeps (see `iterate_apart`).
    let none = compact(graph, policy, NONE_OFF, [0.0; 4], |c, w, code| {
        let t = match decode(graph.win, code) {
            Err(points) => [
                if points >= 2.0 { 1.0 } else { 0.0 },
                if points == 3.0 { 1.0 } else { 0.0 },
                0.0,
                0.0,
            ],
            Ok(t) if class(graph.off[t as usize]) == NONE_OFF => return true,
            Ok(t) => flip(&tail(graph, t as usize, &duo, &[])),
        };
        for (c, t) in c.iter_mut().zip(t) {
            *c += w * t;
        }
        false
    });
    // The gammons (won, lost) and the backgammons (won, lost) in the four components of a
    // slot: one sweep reads each state's plays once for both.
    let x: Vec<Quad> = filled(n + 4, [0.0; 4]);
    let scratch: Vec<Quad> = filled(n, [0.0; 4]);
    let constant: Vec<[f64; 4]> = none
        .constant
        .iter()
        .map(|c| [c[0], c[2], c[1], c[3]])
        .collect();
    let policy = (none.first, none.codes.as_slice(), constant.as_slice());
    let [(g_sweeps, g_residual), (b_sweeps, b_residual)] = iterate_apart(
        progress,
        "gammons and backgammons, none off",
        tolerance,
        &x,
        graph.class_span(NONE_OFF),
        &mut |x, keep, _, live| none_off_sweep(graph, policy, x, &scratch, keep, live),
    )?;
    drop(scratch);
    let (none_sweeps, none_residual) = (g_sweeps.max(b_sweeps), g_residual.max(b_residual));

    let outcome_seconds = gammons.1 + outcomes_started.elapsed().as_secs_f64();
    // By dense index.
    let pos = &graph.solver_pos;
    let equity: Vec<f64> = crate::par::collect(pos.len(), |i| e[pos[i] as usize].get());
    let outcomes: Vec<Exclusive> = crate::par::collect(pos.len(), |i| {
        let s = pos[i] as usize;
        if deadlocked(graph, s) {
            [0.0; 6]
        } else {
            outcomes_from(e[s].get(), &tail(graph, s, &duo, &x))
        }
    });
    let (outcome_sweeps, outcome_residual) =
        (one_sweeps + none_sweeps, one_residual.max(none_residual));
    Ok(Cubeless {
        equity,
        outcomes,
        sweeps,
        residual,
        outcome_sweeps,
        outcome_residual,
        outcome_seconds,
    })
}

/// Solves the equities of one class (the classes before it solved); returns the change
/// of its last sweep, a full one. Hands `seed` the plays of the first sweep, a full one.
fn solve_class(
    run: &mut PolicyIteration,
    progress: Progress<'_>,
    e: &[Scalar],
    class: usize,
    mut seed: Option<&Seed>,
) -> Result<f64, Error> {
    let g = run.g;
    let bounds = g.class_segments(class);
    run.start();
    let tolerance = run.tolerance;
    let span = g.class_span(class);
    let nr = g.roll_count();
    let (_, change) = iterate(
        progress,
        "equity",
        tolerance,
        e,
        span.clone(),
        &mut |e, keep, jumped| {
            let change = run.sweep(bounds, e, keep, jumped);
            if let Some(seed) = seed.take() {
                let chosen = &run.chosen[span.start * nr..span.end * nr];
                seed.publish(chosen.iter().map(|c| c.load(Ordering::Relaxed)).collect());
            }
            change
        },
    )?;
    Ok(change)
}

/// Runs `a` and `b` at the same time, each on half the threads of the current pool (and
/// one after the other when it has only one); the first to end lends its threads to the
/// other's sweeps (see [`with_loans`]). Each result is the same either way.
pub(super) fn side_by_side<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    let cores = super::sweep::cores();
    let threads = rayon::current_num_threads().min(cores);
    if threads < 2 {
        return (a(), b());
    }
    let pool = |t: usize| rayon::ThreadPoolBuilder::new().num_threads(t).build();
    match (pool(threads / 2), pool(threads - threads / 2)) {
        (Ok(pa), Ok(pb)) => std::thread::scope(|scope| {
            // The side that ends first lends its threads to the other's sweeps.
            let (ta, tb) = (threads / 2, threads - threads / 2);
            let (to_a, to_b) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
            let b = {
                let (to_a, to_b) = (Arc::clone(&to_a), Arc::clone(&to_b));
                scope.spawn(move || {
                    let b = pb.install(|| with_loans(&to_b, b));
                    to_a.fetch_add(tb, Ordering::Relaxed);
                    b
                })
            };
            let a = pa.install(|| with_loans(&to_a, a));
            to_b.fetch_add(ta, Ordering::Relaxed);
            (a, b.join().expect("a solver thread panicked"))
        }),
        _ => (a(), b()),
    }
}

/// Value of a successor code for the side that moved (wins included: see
/// [`Graph::win`]).
#[inline]
fn value(e: &[Scalar], code: u32) -> f64 {
    -e[code as usize].get()
}

/// Full sweeps for this many sweeps first. One: the sweeps over the plays it records
/// carry the values far enough for the next full sweep to choose better ones, at a
/// tenth of a full sweep's cost (four made Hypergammon-3 with the cube 9% slower).
const FULL_FIRST: u32 = 1;
/// Then one full sweep in this many, at first.
const FULL_EVERY: u32 = 4;
/// At most this many sweeps between full ones.
const FULL_MOST: u32 = 24;

/// Modified policy iteration's rhythm, for the equities and for the cube alike: which
/// sweeps look at every play (full sweeps, which record the best) and which value only
/// the plays recorded. The first [`FULL_FIRST`] sweeps are full; then one in
/// [`FULL_EVERY`], an interval that doubles (up to [`FULL_MOST`]) after every full sweep
/// that changed no recorded play, and returns to [`FULL_EVERY`] after one that did.
pub(super) struct Schedule {
    /// Full sweeps so far.
    fulls: u32,
    /// Sweeps between full ones, and how many are left before the next.
    interval: u32,
    to_full: u32,
}

impl Schedule {
    /// The rhythm from the start (a new class).
    pub(super) fn new() -> Self {
        Schedule {
            fulls: 0,
            interval: FULL_EVERY,
            to_full: 0,
        }
    }

    /// Whether the next sweep is full; when it is not, counts it.
    pub(super) fn next_is_full(&mut self) -> bool {
        if self.to_full == 0 {
            return true;
        }
        self.to_full -= 1;
        false
    }

    /// After a full sweep: `changed` says whether it changed a recorded play.
    pub(super) fn after_full(&mut self, changed: bool) {
        self.fulls += 1;
        if self.fulls >= FULL_FIRST {
            self.interval = if changed {
                FULL_EVERY
            } else {
                (self.interval * 2).min(FULL_MOST)
            };
            self.to_full = self.interval - 1;
        }
    }
}

/// Σ over moving rolls that do not pass of weight × best play's value, divided by the
/// ordered rolls' count, for
/// the state at sweep position `k`; records the first best play of each roll in `chosen`.
/// With `skip`, the state's recorded plays are kept without a look at the others when
/// they provably are still the best (see [`Elimination`]).
#[inline]
fn moving_part<const R: usize>(
    g: &Graph,
    e: &[Scalar],
    k: usize,
    chosen: &[AtomicU32],
    changed: &AtomicBool,
    skip: Option<Skip>,
) -> f64 {
    if skip.is_some_and(|skip| skip.skips(k)) {
        return chosen_part::<R>(g, e, k, chosen);
    }
    prefetch_plays(g, e, k + AHEAD);
    let mut sum = 0.0;
    // The smallest lead of a best play over the next best, over the rolls.
    let mut lead = f64::INFINITY;
    let nr = rolls::<R>(g);
    let (starts, all) = g.state_successors(k);
    let starts = &starts[..=nr];
    for (r, &weight) in g.weights[..nr].iter().enumerate() {
        let succ = &all[starts[r] as usize..starts[r + 1] as usize];
        if let Some((&first, rest)) = succ.split_first() {
            let (mut best, mut code) = (value(e, first), first);
            let mut next = f64::NEG_INFINITY;
            for &c in rest {
                let v = value(e, c);
                let better = v > best;
                next = if better { best } else { next.max(v) };
                best = if better { v } else { best };
                code = if better { c } else { code };
            }
            lead = lead.min(best - next);
            // Each entry is written by the one thread that owns the state.
            let recorded = &chosen[nr * k + r];
            if recorded.load(Ordering::Relaxed) != code {
                recorded.store(code, Ordering::Relaxed);
                if !changed.load(Ordering::Relaxed) {
                    changed.store(true, Ordering::Relaxed);
                }
            }
            sum += weight * best;
        }
    }
    if let Some(skip) = skip {
        skip.record(k, lead / 2.0);
    }
    sum / f64::from(g.denominator)
}

/// As [`moving_part`], valuing only the plays recorded in `chosen`.
#[inline]
fn chosen_part<const R: usize>(g: &Graph, e: &[Scalar], k: usize, chosen: &[AtomicU32]) -> f64 {
    let mut sum = 0.0;
    let nr = rolls::<R>(g);
    prefetch_recorded(e, chosen, k + AHEAD, nr, |c| c.load(Ordering::Relaxed));
    let chosen = &chosen[nr * k..nr * k + nr];
    for (&weight, code) in g.weights[..nr].iter().zip(chosen) {
        // A pass reads the pass entry, worth 0.
        let code = code.load(Ordering::Relaxed);
        sum += weight * value(e, code);
    }
    sum / f64::from(g.denominator)
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

/// Modified policy iteration: a full sweep (the best of every play) records the best play
/// of each roll in `chosen`; the sweeps between full ones value only those plays, at a
/// third of the cost.
struct PolicyIteration<'a> {
    g: &'a Graph,
    scratch: Vec<Scalar>,
    chosen: Vec<AtomicU32>,
    /// Set by a full sweep that changes a recorded play.
    changed: AtomicBool,
    schedule: Schedule,
    /// Sweeps in all.
    sweeps: u32,
    tolerance: f64,
    elimination: Option<Elimination>,
}

/// What lets a full sweep skip most states once the values settle (action elimination):
/// a state's recorded plays are still the best of their rolls as long as no play's value
/// can have moved by half the smallest lead they had, when last compared, over the next
/// best play. The clock is the sum of the largest changes of every sweep (and
/// extrapolation) so far, which bounds how far any value has moved between two of its
/// readings; a play's value moves at most that far here, and twice as far with the cube
/// (a take doubles), so a state is skipped while its limit, the clock when it was last
/// compared plus half its lead (a quarter with the cube), exceeds the clock now plus the
/// largest change of the sweep under way (and a margin for rounding). A skipped state's
/// value is computed from the same plays, in the same order, as a full look would take:
/// the result is the same, bit for bit.
pub(super) struct Elimination {
    /// By sweep position, the bits of the limit (-∞ until first compared).
    limit: Vec<AtomicU64>,
    /// The clock before the sweep under way.
    clock: f64,
}

impl Elimination {
    /// For `n` states, none compared yet.
    pub(super) fn new(n: usize) -> Self {
        Elimination {
            limit: crate::par::collect(n, |_| AtomicU64::new(f64::NEG_INFINITY.to_bits())),
            clock: 0.0,
        }
    }

    /// Advances the clock by a change.
    pub(super) fn tick(&mut self, change: f64) {
        self.clock += change;
    }

    /// For a state of the full sweep under way, which has changed no value by more than
    /// `moved` so far.
    pub(super) fn at(&self, moved: f64) -> Skip<'_> {
        Skip {
            limit: &self.limit,
            bound: self.clock + moved + CLOCK_MARGIN,
            clock: self.clock,
        }
    }
}

/// An [`Elimination`] as a full sweep reads it at one point: whether a state is skipped,
/// and its new limit after a look at every play.
#[derive(Clone, Copy)]
pub(super) struct Skip<'a> {
    limit: &'a [AtomicU64],
    /// The clock now plus the largest change of the sweep under way (and the margin).
    bound: f64,
    /// The clock before the sweep under way.
    clock: f64,
}

impl Skip<'_> {
    /// Whether the state at sweep position `k` keeps its recorded plays without a look.
    #[inline]
    pub(super) fn skips(&self, k: usize) -> bool {
        f64::from_bits(self.limit[k].load(Ordering::Relaxed)) > self.bound
    }

    /// After a look at every play of the state at sweep position `k`: its recorded plays
    /// stand while no value moves by more than `room` from now.
    #[inline]
    pub(super) fn record(&self, k: usize, room: f64) {
        self.limit[k].store((self.clock + room).to_bits(), Ordering::Relaxed);
    }
}

/// Room left for the rounding of the clock's sums (far above it: a clock near 30 after
/// a few hundred additions is off by under 1e-12).
const CLOCK_MARGIN: f64 = 1e-11;

impl PolicyIteration<'_> {
    /// Starts the schedule again (for a new class).
    fn start(&mut self) {
        self.schedule = Schedule::new();
    }

    /// The next sweep over the segments `bounds`, full or over the recorded plays as the
    /// [`Schedule`] says. A sweep over recorded plays whose change falls below the
    /// tolerance is followed at once by a full one, so the iteration only ever stops on a
    /// full sweep: its fixed point is the optimal one.
    fn sweep(
        &mut self,
        bounds: &[u32],
        e: &[Scalar],
        keep: Option<&Keep<Scalar>>,
        jumped: f64,
    ) -> f64 {
        self.sweeps += 1;
        self.tick(jumped);
        if self.schedule.next_is_full() {
            return self.full(bounds, e, keep);
        }
        let (g, a, chosen) = (self.g, &self.scratch, &self.chosen);
        let delta = by_rolls!(g, equity_sweep(g, bounds, e, a, keep, chosen, None));
        self.tick(delta);
        if delta < self.tolerance {
            self.sweeps += 1;
            self.full(bounds, e, keep)
        } else {
            delta
        }
    }

    /// Advances the clock of [`Elimination`] by a change.
    fn tick(&mut self, change: f64) {
        if let Some(el) = &mut self.elimination {
            el.tick(change);
        }
    }

    fn full(&mut self, bounds: &[u32], e: &[Scalar], keep: Option<&Keep<Scalar>>) -> f64 {
        let (g, a, chosen) = (self.g, &self.scratch, &self.chosen);
        self.changed.store(false, Ordering::Relaxed);
        let full = Some((&self.changed, self.elimination.as_ref()));
        let delta = by_rolls!(g, equity_sweep(g, bounds, e, a, keep, chosen, full));
        self.tick(delta);
        self.schedule
            .after_full(self.changed.load(Ordering::Relaxed));
        delta
    }
}

/// A full sweep when `full` is given (recording the best plays in `chosen`, setting its
/// flag if one differs from the play recorded before, and skipping with the
/// [`Elimination`], if any), else a sweep over the plays recorded last.
fn equity_sweep<const R: usize>(
    g: &Graph,
    bounds: &[u32],
    e: &[Scalar],
    a: &[Scalar],
    keep: Option<&Keep<Scalar>>,
    chosen: &[AtomicU32],
    full: Option<(&AtomicBool, Option<&Elimination>)>,
) -> f64 {
    level_sweep(
        g,
        bounds,
        e,
        a,
        keep,
        |e, k, moved| match full {
            Some((changed, elimination)) => {
                let skip = elimination.map(|el| el.at(moved));
                moving_part::<R>(g, e, k, chosen, changed, skip)
            }
            None => chosen_part::<R>(g, e, k, chosen),
        },
        |_, a_s, a_t, p_s, p_t, x| {
            let new = solve_pair(a_s, a_t, p_s, p_t);
            (new, (new - x).abs())
        },
    )
}

/// The chances of winning a gammon or more, a backgammon, losing a gammon or more, a
/// backgammon, for the side on roll.
type Tail = [f64; 4];

/// The same chances seen from the other side.
fn flip(o: &Tail) -> Tail {
    [o[2], o[3], o[0], o[1]]
}

/// Both sides must pass on every roll: the game never ends.
fn deadlocked(g: &Graph, s: usize) -> bool {
    let all = g.denominator as u8;
    g.pass_weight[s] == all && g.pass_weight[g.partner[s] as usize] == all
}

/// The six exclusive outcomes from the equity and the gammon chances: with W the chance
/// of winning, `E = 2W - 1 + (Gw - Gl) + (Bw - Bl)`, since every game that can end does.
fn outcomes_from(e: f64, t: &Tail) -> Exclusive {
    let [gw, bw, gl, bl] = *t;
    let w = (1.0 + e - (gw - gl) - (bw - bl)) / 2.0;
    let l = 1.0 - w;
    [w - gw, gw - bw, bw, l - gl, gl - bl, bl]
}

/// The chances of the state at solver position `s` (see [`Tail`]) from the results of
/// the classes: `duo` for one side off; for neither, `none` (gammons won and lost, then
/// backgammons won and lost).
#[inline]
fn tail(g: &Graph, s: usize, duo: &[Duo], none: &[Quad]) -> Tail {
    match g.off[s] {
        // The side on roll has borne off a checker, the opponent none.
        1 => {
            let [gammon, backgammon] = duo[s].get();
            [gammon, backgammon, 0.0, 0.0]
        }
        2 => {
            let [gammon, backgammon] = duo[s].get();
            [0.0, 0.0, gammon, backgammon]
        }
        0 => {
            let [gw, gl, bw, bl] = none[s].get();
            [gw, bw, gl, bl]
        }
        _ => [0.0; 4],
    }
}

/// The policy's plays from the states of one class, ready for sweeps without branches:
/// for each state (by sweep position, from the class's first) the five rolls' plays as
/// positions in the class's value array — a state of the class, or [`PASS`] (worth 0)
/// for a pass and for a play that leaves the class — and the constant part of the value,
/// from the plays that end the game or leave the class.
struct Compact<V> {
    first: usize,
    /// `R` codes a state.
    codes: Vec<u32>,
    constant: Vec<V>,
}

/// Builds the [`Compact`] form of `policy` for `class`: `resolve(constant, w, code)`
/// says whether the play `code` stays in the class, and otherwise adds `w` × its value
/// to `constant`.
fn compact<V: Copy + Send + Sync>(
    g: &Graph,
    policy: &[AtomicU32],
    class: usize,
    zero: V,
    resolve: impl Fn(&mut V, f64, u32) -> bool + Sync,
) -> Compact<V> {
    let span = g.class_span(class);
    let (nr, pass) = (g.roll_count(), g.win + 3);
    let weight = |r: usize| f64::from(g.rolls[r].weight()) / f64::from(g.denominator);
    // One pass: `resolve` adds to the constant exactly the plays that leave the class.
    let mut codes = vec![pass; span.len() * nr];
    let constant = codes
        .par_chunks_mut(nr.max(1))
        .zip(span.clone().into_par_iter())
        .map(|(out, k)| {
            let mut constant = zero;
            for (r, slot) in out.iter_mut().enumerate() {
                let code = policy[nr * k + r].load(Ordering::Relaxed);
                if code != pass && resolve(&mut constant, weight(r), code) {
                    *slot = code;
                }
            }
            constant
        })
        .collect();
    Compact {
        first: span.start,
        codes,
        constant,
    }
}

/// A sweep of the chances that the side which has borne off none loses a gammon or
/// more, a backgammon, over the states where one side has borne off. The plays that stay
/// in the class keep the same side at risk; the others are in `policy.constant`.
fn one_off_sweep(
    g: &Graph,
    policy: &Compact<[f64; 2]>,
    x: &[Duo],
    a: &[Duo],
    keep: Option<&Keep<Duo>>,
) -> f64 {
    let policy = (
        policy.first,
        policy.codes.as_slice(),
        policy.constant.as_slice(),
    );
    let [change] = by_rolls!(
        g,
        pairs_sweep::<false, Duo, 2, 1>(g, ONE_OFF, policy, x, a, keep, [true])
    );
    change
}

/// A sweep of both pairs of chances — a gammon won and lost, a backgammon won and lost —
/// over the states where neither side has borne off, under `policy`: the first state's
/// position and, from it, the plays and the constants of a [`Compact`] (the plays that
/// bear off a first checker or win are in the constants); only the `live` pairs change.
/// What one side wins the other loses: each play and each pass swaps each pair.
fn none_off_sweep(
    g: &Graph,
    policy: (usize, &[u32], &[[f64; 4]]),
    x: &[Quad],
    a: &[Quad],
    keep: Option<&Keep<Quad>>,
    live: [bool; 2],
) -> [f64; 2] {
    by_rolls!(
        g,
        pairs_sweep::<true, Quad, 4, 2>(g, NONE_OFF, policy, x, a, keep, live)
    )
}

/// A sweep over `class` under `policy` (the first state's position, then each state's
/// plays and constant) of `M` systems of two values a state that never meet, the `L = 2M`
/// components of a slot (system `j`'s are `2j` and `2j + 1`); only the `live` ones
/// change. With `SWAP`, every play and every pass swaps each pair (what one side wins the
/// other loses); without, a pass changes who is on roll, not who is at risk. A state and
/// its pass partner solve exactly: `x_s = a_s + p_s x_t`, `x_t = a_t + p_t x_s` (with the
/// swap where it applies) ⇒ `x_s = (a_s + p_s a_t) / (1 - p_s p_t)`. Returns each
/// system's largest change.
#[allow(clippy::too_many_arguments)]
fn pairs_sweep<const SWAP: bool, S, const L: usize, const M: usize, const R: usize>(
    g: &Graph,
    class: usize,
    policy: (usize, &[u32], &[[f64; L]]),
    x: &[S],
    a: &[S],
    keep: Option<&Keep<S>>,
    live: [bool; M],
) -> [f64; M]
where
    S: Slot<Value = [f64; L]>,
{
    const { assert!(L == 2 * M) };
    let (first, codes, constant) = policy;
    let nr = rolls::<R>(g);
    let weights: Vec<f64> = g
        .rolls
        .iter()
        .map(|r| f64::from(r.weight()) / f64::from(g.denominator))
        .collect();
    let weights = &weights[..nr];
    let moving = |x: &[S], k: usize, _| {
        let i = k - first;
        prefetch_recorded(x, codes, i + AHEAD, nr, |&c| c);
        let mut sum = constant[i];
        for (&code, &w) in codes[i * nr..i * nr + nr].iter().zip(weights) {
            let v = x[code as usize].get();
            for j in 0..M {
                let [p, q] = [v[2 * j], v[2 * j + 1]];
                let [u, v] = if SWAP { [q, p] } else { [p, q] };
                sum[2 * j] += w * u;
                sum[2 * j + 1] += w * v;
            }
        }
        sum
    };
    level_sweep(
        g,
        g.class_segments(class),
        x,
        a,
        keep,
        moving,
        |_, a_s, a_t, p_s, p_t, old| {
            let den = 1.0 - p_s * p_t;
            let (mut new, mut change) = (old, [0.0; M]);
            for j in (0..M).filter(|&j| live[j]) {
                let (u, v) = (2 * j, 2 * j + 1);
                if den == 0.0 {
                    // Both always pass: the game never ends (no change counted).
                    [new[u], new[v]] = [0.0; 2];
                    continue;
                }
                let t = if SWAP {
                    [a_t[v], a_t[u]]
                } else {
                    [a_t[u], a_t[v]]
                };
                [new[u], new[v]] = [(a_s[u] + p_s * t[0]) / den, (a_s[v] + p_s * t[1]) / den];
                change[j] = (new[u] - old[u]).abs().max((new[v] - old[v]).abs());
            }
            (new, change)
        },
    )
}

/// `len` atomics holding `v`, filled in parallel (the recorded plays).
pub(super) fn atomics(len: usize, v: u32) -> Vec<AtomicU32> {
    crate::par::collect(len, |_| AtomicU32::new(v))
}

/// `len` slots holding `v`, filled in parallel.
pub(super) fn filled<S: Slot>(len: usize, v: S::Value) -> Vec<S> {
    crate::par::collect(len, |_| S::new(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Two full solves (about 5 s in release): run with `cargo test --release -- --ignored`.
    #[test]
    #[ignore = "two full solves; run with --ignored"]
    fn skipping_the_plays_that_cannot_have_overtaken_changes_no_bit_of_the_result() {
        let graph = || {
            super::super::graph_of(&crate::gammon::Variant::built_in("nikoniko").unwrap())
                .unwrap()
                .0
        };
        let with = solve_with(Held::Own(&mut graph()), 1e-12, Progress::SILENT, true, None)
            .expect("converges");
        let without = solve_with(
            Held::Own(&mut graph()),
            1e-12,
            Progress::SILENT,
            false,
            None,
        )
        .expect("converges");
        assert_eq!(with.sweeps, without.sweeps);
        assert_eq!(with.residual.to_bits(), without.residual.to_bits());
        let bits = |s: &Cubeless| s.equity.iter().map(|e| e.to_bits()).collect::<Vec<_>>();
        assert!(bits(&with) == bits(&without), "the equities differ");
        assert!(
            with.outcomes == without.outcomes,
            "the outcome chances differ"
        );
    }
}
