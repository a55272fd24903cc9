//! The doubling cube (`docs/gammon.md`, "The cube in the solver" and "Match play"): for
//! every state the no-double values of the side on roll in each of the stakes' components
//! ([`Stakes`]). For money play ([`Money`]) these are four cube states — it owns the cube,
//! the cube is centred, centred under the Jacoby rule, the opponent owns it — with the
//! cube's value taken as 1; at a match score, the cube states of one cube level
//! (`super::score`).
//!
//! "No double" means: the side on roll does not double now, rolls, and plays its best for
//! that cube state. After its play the opponent is on roll and, if it has access to the
//! cube, first decides whether to double; the side that moved then takes or passes
//! ([`Stakes::after`]). In money play the opponent's value before it rolls, with `ND` its
//! no-double equity in the state it sees and `X` its no-double equity when the other side
//! owns the cube, is `ND` if it cannot double, else `max(ND, min(2 X, 1))` (doubling: a
//! take plays on at twice the stake with the taker owning the cube, a pass concedes 1).
//! Cube states as the opponent sees them: the mover owns → the opponent's "opponent owns";
//! centred → centred; Jacoby → Jacoby; the opponent owns → it owns. A roll without a legal
//! move hands the same board to the opponent, who decides on the cube first, like any
//! other turn. Under the Jacoby rule a gammon or backgammon won with the cube centred
//! counts 1.
//!
//! The iteration is the cubeless one's machinery (class by class, levels, Jacobi within
//! one, Aitken, modified policy iteration on the same [`Schedule`], and action
//! elimination) with `N` values a state; pass pairs are solved jointly, as the cubeless
//! ones are ([`Stakes::pair`]; for money play `cube_pair`).
//! A full sweep records each roll's best play when the components agree on it (they
//! nearly always do); the sweeps between value that play only and, where they disagree,
//! the few plays that are best in some component.

use super::graph::{decode, Graph, BOTH_OFF, NONE_OFF, ONE_OFF};
use super::solve::{atomics, filled, Elimination, Schedule, Seed, Skip};
pub(crate) use super::stakes::{Money, Stakes};
use super::sweep::{
    by_rolls, iterate, level_sweep, prefetch, prefetch_plays, rolls, worth_prefetching, Keep, Slot,
    AHEAD,
};
use crate::gammon::Error;
use crate::progress::Progress;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

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

/// A recorded entry with this bit set is a set of plays rather than one successor code
/// (successor codes stay below it): a roll whose best play differs between components.
/// Bit `i` below it is the roll's play `i` (its `i`-th successor); a sweep over the
/// recorded plays values each component by the best of the set.
const SET: u32 = 1 << 31;

/// The set of every play of a roll (a roll whose best plays are not all among its first
/// 31).
const SPLIT: u32 = u32::MAX;

/// Whether a recorded entry is a set of plays ([`SET`]), not one play.
#[inline(always)]
fn is_set(code: u32) -> bool {
    code & SET != 0
}

/// The cubeful solve's results, by state (the order given to [`Graph::build`]).
pub struct CubeSolution<const N: usize = 4> {
    /// No-double values, one per component (money play: owned, centred, centred with
    /// Jacoby, opponent owns).
    pub values: Vec<[f64; N]>,
    /// Sweeps (full and policy sweeps alike, over a class or over every state).
    pub sweeps: u32,
    /// The largest change in the last sweep over every state (the classes' last full
    /// sweeps, one after the other: see [`solve`]).
    pub residual: f64,
}

/// Solves the four no-double equities of money play for every state to `tolerance`, class
/// by class, each until a full sweep over it changes nothing by `tolerance` (so the
/// recorded plays are the best ones at the fixed point). A class leads only to itself and
/// to the classes before it, so those last sweeps, one after the other, are a sweep over
/// every state; only when one of them was damped do sweeps over every state follow.
pub fn solve(graph: &Graph, tolerance: f64, progress: Progress<'_>) -> Result<CubeSolution, Error> {
    solve_with(graph, &Money, tolerance, progress, Shortcuts::ALL, None)
}

/// As [`solve`], beside the cubeless solve that hands `seed` the plays of its first full
/// sweep over the class with no checker off: the cube's sweeps over that class start from
/// them (see [`Seed`]).
pub(super) fn solve_seeded(
    graph: &Graph,
    tolerance: f64,
    progress: Progress<'_>,
    seed: &Seed,
) -> Result<CubeSolution, Error> {
    solve_with(
        graph,
        &Money,
        tolerance,
        progress,
        Shortcuts::ALL,
        Some(seed),
    )
}

/// As [`solve`], for any stakes: the values by solver position (with the wins and the
/// pass entry after them), the sweeps, and the last change.
pub(crate) fn solve_stakes<S: Stakes<N>, const N: usize>(
    graph: &Graph,
    stakes: &S,
    tolerance: f64,
    progress: Progress<'_>,
) -> Result<(Vec<S::Slot>, u32, f64), Error> {
    solve_at(graph, stakes, tolerance, progress, Shortcuts::ALL, None)
}

/// The shortcuts a cube solve takes, neither of which changes a bit of its result (the
/// tests compare it with and without each): full sweeps skipping the states whose
/// recorded plays provably are still the best ([`Elimination`]), and the plays of the
/// rolls recorded as sets read from a [`SetStore`] rather than through the graph.
#[derive(Clone, Copy)]
pub(super) struct Shortcuts {
    pub eliminate: bool,
    pub store_sets: bool,
}

impl Shortcuts {
    /// Both, as every solve but the tests' takes them.
    pub(super) const ALL: Shortcuts = Shortcuts {
        eliminate: true,
        store_sets: true,
    };
}

/// As [`solve`], with the `shortcuts` given.
fn solve_with<S: Stakes<N>, const N: usize>(
    graph: &Graph,
    stakes: &S,
    tolerance: f64,
    progress: Progress<'_>,
    shortcuts: Shortcuts,
    seed: Option<&Seed>,
) -> Result<CubeSolution<N>, Error> {
    let (x, sweeps, residual) = solve_at(graph, stakes, tolerance, progress, shortcuts, seed)?;
    let pos = &graph.solver_pos;
    let values = crate::par::collect(pos.len(), |i| x[pos[i] as usize].get());
    Ok(CubeSolution {
        values,
        sweeps,
        residual,
    })
}

/// The solve itself: the values by solver position, the sweeps, the last change.
pub(super) fn solve_at<S: Stakes<N>, const N: usize>(
    graph: &Graph,
    stakes: &S,
    tolerance: f64,
    progress: Progress<'_>,
    shortcuts: Shortcuts,
    seed: Option<&Seed>,
) -> Result<(Vec<S::Slot>, u32, f64), Error> {
    let n = graph.len();
    let x = start(n, stakes);
    let mut run = Run::new(graph, stakes, &x, tolerance, shortcuts);
    // Class by class (see `graph`): a class leads only to itself and to the classes
    // solved before it, so the last sweeps of the classes, one after the other, are a
    // sweep over every state (the order of `graph.segments`): when each was a plain one
    // (not damped), the largest of their changes is the residual.
    let mut residual = 0.0f64;
    let mut damped = false;
    for class in [BOTH_OFF, ONE_OFF, NONE_OFF] {
        run.start();
        let bounds = graph.class_segments(class);
        if let Some(plays) = seed.filter(|_| class == NONE_OFF).and_then(Seed::wait) {
            run.seeded(graph.class_span(class), &plays);
        }
        let (_, change) = iterate(
            progress,
            "cube",
            tolerance,
            &x,
            graph.class_span(class),
            &mut |x, keep, jumped| run.sweep(bounds, x, keep, jumped),
        )?;
        residual = residual.max(change);
        damped |= run.last_step < 1.0;
    }
    if damped {
        // A damped sweep moves each value only part of the way: sweeps over every state
        // until a plain one changes nothing by the tolerance.
        run.start();
        (_, residual) = iterate(
            progress,
            "cube",
            tolerance,
            &x,
            0..n,
            &mut |x, keep, jumped| run.sweep(&graph.segments, x, keep, jumped),
        )?;
    }
    Ok((x, run.sweeps, residual))
}

/// The values a solve starts from, by solver position: 0 for the `n` states; after them
/// the wins (valued from the side that lost), then the pass entry.
fn start<S: Stakes<N>, const N: usize>(n: usize, stakes: &S) -> Vec<S::Slot> {
    let lost = stakes.lost();
    crate::par::collect(n + 4, |s| {
        S::Slot::new(if s < n || s == n + 3 {
            [0.0; N]
        } else {
            lost[s - n]
        })
    })
}

/// What the side that moved gets at each successor code, from the values `x` (by solver
/// position, the wins and the pass entry after them): at a state, [`Stakes::after`] of its
/// values (the opponent on roll decides on the cube first); at a win, the loser's entry
/// negated (no cube decision); at the pass entry, 0. The sweeps read these, once per play,
/// rather than the values: each is computed once per change of a state's values instead
/// of once per play that leads there.
pub(crate) fn after_all<S: Stakes<N>, const N: usize>(
    g: &Graph,
    stakes: &S,
    x: &[S::Slot],
) -> Vec<S::Slot> {
    crate::par::collect(x.len(), |code| {
        S::Slot::new(after_one(g, stakes, code, x[code].get()))
    })
}

/// [`after_all`] of one successor code whose values are `v`.
#[inline(always)]
pub(crate) fn after_one<S: Stakes<N>, const N: usize>(
    g: &Graph,
    stakes: &S,
    code: usize,
    v: [f64; N],
) -> [f64; N] {
    match decode(g.win, code as u32) {
        Err(_) => v.map(|l| -l),
        Ok(t) => stakes.after(t as usize, v),
    }
}

/// Brings `after[span]` up to date with `x[span]` (after an extrapolation moved them).
fn refresh<S: Stakes<N>, const N: usize>(
    g: &Graph,
    stakes: &S,
    x: &[S::Slot],
    after: &[S::Slot],
    span: std::ops::Range<usize>,
) {
    crate::par::for_ranges(span.len(), crate::par::GRAIN, &|r| {
        for i in r {
            let code = span.start + i;
            after[code].set(after_one(g, stakes, code, x[code].get()));
        }
    });
}

/// The value to the side that moved of the successor `code`, per component of the mover,
/// from [`after_all`]'s array.
#[inline(always)]
fn value<T: Slot>(after: &[T], code: u32) -> T::Value {
    after[code as usize].get()
}

/// One cubeful iteration under way: the recorded best plays and the sweeps' rhythm.
struct Run<'a, S: Stakes<N>, const N: usize> {
    g: &'a Graph,
    stakes: &'a S,
    /// What the side that moved gets at each successor code (see [`after_all`]), kept
    /// up to date with the values.
    after: Vec<S::Slot>,
    /// The moving part of each state's values, by sweep position.
    a: Vec<S::Slot>,
    /// By sweep position and moving roll: the first play best for the key component in
    /// the last full sweep, when it is best in the other components too, else a set of
    /// plays that holds each component's best ([`SET`], [`split_set`]); the pass entry
    /// where the roll passes (and for every roll before its class's first sweep).
    chosen: Vec<AtomicU32>,
    /// The plays of the sets among them, kept beside them (see [`SetStore`]).
    sets: SetStore,
    /// Set by a full sweep that changes a recorded play.
    changed: AtomicBool,
    schedule: Schedule,
    /// The step (see [`DAMPING`]) and the changes of the sweeps since it was last set to 1.
    step: f64,
    /// The step the last sweep took.
    last_step: f64,
    changes: Vec<f64>,
    /// The change when the step was last damped, and how often plain sweeps were tried
    /// again since.
    damped_at: f64,
    retries: u32,
    sweeps: u32,
    tolerance: f64,
    elimination: Option<Elimination>,
}

impl<'a, S: Stakes<N>, const N: usize> Run<'a, S, N> {
    fn new(
        g: &'a Graph,
        stakes: &'a S,
        x: &[S::Slot],
        tolerance: f64,
        shortcuts: Shortcuts,
    ) -> Self {
        let (n, nr) = (g.len(), g.roll_count());
        // Successor codes (the states, the wins, the pass entry) stay below a set's bit.
        debug_assert!(u64::from(g.win) + 3 < u64::from(SET));
        Run {
            g,
            stakes,
            after: after_all(g, stakes, x),
            a: filled(n, [0.0; N]),
            // As in the cubeless solve: the pass entry until a full sweep (each class's
            // first sweep is one) records the rolls that move.
            chosen: atomics(nr * n, g.win + 3),
            sets: SetStore::new(n, nr, shortcuts.store_sets),
            changed: AtomicBool::new(false),
            schedule: Schedule::new(),
            step: 1.0,
            last_step: 1.0,
            changes: Vec::new(),
            damped_at: 0.0,
            retries: 0,
            sweeps: 0,
            tolerance,
            elimination: shortcuts.eliminate.then(|| Elimination::new(n)),
        }
    }

    /// A fresh start for the sweeps' rhythm (a new class).
    fn start(&mut self) {
        self.schedule = Schedule::new();
        self.step = 1.0;
        self.changes.clear();
        self.retries = 0;
    }

    /// Records `plays` (by sweep position and moving roll) for the states of `span`, as a
    /// full sweep would: the class's first sweeps value them (see [`Seed`]).
    fn seeded(&mut self, span: std::ops::Range<usize>, plays: &[u32]) {
        let nr = self.g.roll_count();
        let chosen = &self.chosen[span.start * nr..span.end * nr];
        for (entry, &play) in chosen.iter().zip(plays) {
            entry.store(play, Ordering::Relaxed);
        }
        self.schedule.after_full(true);
    }

    /// Advances the clock of [`Elimination`] by a change.
    fn tick(&mut self, change: f64) {
        if let Some(el) = &mut self.elimination {
            el.tick(change);
        }
    }

    /// The next sweep over the segments `bounds`, after an extrapolation that changed no
    /// value by more than `jumped`; a sweep over the recorded plays whose change falls
    /// below the tolerance is followed at once by a full one.
    fn sweep(
        &mut self,
        bounds: &[u32],
        x: &[S::Slot],
        keep: Option<&Keep<S::Slot>>,
        jumped: f64,
    ) -> f64 {
        self.sweeps += 1;
        self.tick(jumped);
        if jumped > 0.0 {
            // An extrapolation moved the values of these segments (and only it makes
            // `jumped` positive).
            let span = bounds[0] as usize..bounds[bounds.len() - 1] as usize;
            refresh(self.g, self.stakes, x, &self.after, span);
        }
        let mut full = self.schedule.next_is_full();
        self.last_step = self.step;
        let mut change = self.pass(bounds, x, keep, full);
        self.tick(change);
        if !full && change < self.tolerance {
            self.sweeps += 1;
            full = true;
            change = self.pass(bounds, x, keep, true);
            self.tick(change);
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

    /// One sweep: looking at every play (of the states not skipped) and recording the
    /// best when `full`, else valuing the recorded plays only.
    fn pass(&self, bounds: &[u32], x: &[S::Slot], keep: Option<&Keep<S::Slot>>, full: bool) -> f64 {
        let full = full.then_some((&self.changed, self.elimination.as_ref()));
        let (g, stakes, step) = (self.g, self.stakes, self.step);
        let chosen = Recorded {
            plays: &self.chosen,
            sets: &self.sets,
        };
        let arrays = Arrays {
            x,
            after: &self.after,
            a: &self.a,
            keep,
        };
        if !S::UNROLL {
            return cube_sweep::<S, N, 0>(g, stakes, bounds, arrays, chosen, full, step);
        }
        by_rolls!(
            g,
            cube_sweep::<S, N>(g, stakes, bounds, arrays, chosen, full, step)
        )
    }
}

/// A full sweep when `full` is given (recording the best plays in `chosen`, setting its
/// flag if one becomes a different play, and skipping with the [`Elimination`], if
/// any), else a sweep over the plays recorded last; each value moves
/// `step` of the way to its new estimate.
fn cube_sweep<S: Stakes<N>, const N: usize, const R: usize>(
    g: &Graph,
    stakes: &S,
    bounds: &[u32],
    arrays: Arrays<'_, S::Slot>,
    chosen: Recorded<'_>,
    full: Option<(&AtomicBool, Option<&Elimination>)>,
    step: f64,
) -> f64 {
    let after = arrays.after;
    level_sweep(
        g,
        bounds,
        arrays.x,
        arrays.a,
        arrays.keep,
        |_, k, moved| match full {
            Some((changed, elimination)) => {
                let skip = elimination.map(|el| el.at(moved));
                full_part::<S, N, R>(g, stakes, (arrays.x, after), k, chosen, changed, skip)
            }
            None => chosen_part::<S, N, R>(g, after, k, chosen),
        },
        |s, a_s, a_t, p_s, p_t, old| {
            let t = g.partner[s] as usize;
            let n = stakes.pair(s, t, a_s, a_t, p_s, p_t, old);
            let new: [f64; N] = std::array::from_fn(|j| old[j] + step * (n[j] - old[j]));
            let change = (0..N).map(|j| (new[j] - old[j]).abs()).fold(0.0, f64::max);
            // Written by the thread that owns the state, read by the others across the
            // level's barrier, as the values are.
            after[s].set(stakes.after(s, new));
            (new, change)
        },
    )
}

/// The arrays a sweep reads and writes: the values (by solver position), what the side
/// that moved gets at each successor code (see [`after_all`]), the moving parts (by sweep
/// position), and where the values replaced are kept for an extrapolation.
struct Arrays<'a, T> {
    x: &'a [T],
    after: &'a [T],
    a: &'a [T],
    keep: Option<&'a Keep<T>>,
}

/// Σ over the moving rolls that do not pass of weight × the best play's values (each
/// component's best), divided by the ordered rolls' count, for the state at sweep
/// position `k`; records in `chosen` each roll's first best play for the key component,
/// or a set of plays ([`split_set`]) where that play is not the best in every component.
/// With `skip`, the
/// state's recorded plays are kept without a look at the others when they provably are
/// still what a look would find (see [`Elimination`]).
#[inline]
fn full_part<S: Stakes<N>, const N: usize, const R: usize>(
    g: &Graph,
    stakes: &S,
    (x, after): (&[S::Slot], &[S::Slot]),
    k: usize,
    recorded_plays: Recorded<'_>,
    changed: &AtomicBool,
    skip: Option<Skip>,
) -> [f64; N] {
    if skip.is_some_and(|skip| skip.skips(k)) {
        return chosen_part::<S, N, R>(g, after, k, recorded_plays);
    }
    prefetch_plays(g, after, k + AHEAD);
    let chosen = recorded_plays.plays;
    let nr = rolls::<R>(g);
    // The plays of the rolls recorded as sets, in roll order, for the store (when there
    // is one: without, a look does no more than before it existed).
    let mut kept = recorded_plays.sets.wanted().then(Kept::new);
    let mut sum = [0.0f64; N];
    // How far every value may move, at least, before a look would record something else:
    // the least over the rolls.
    let mut room = f64::INFINITY;
    // The rolls (the first 64) recorded at or near a tie, and their least room.
    let (mut ties, mut tied_room) = (0u64, f64::INFINITY);
    let (starts, all) = g.state_successors(k);
    let starts = &starts[..=nr];
    for (r, &weight) in g.weights[..nr].iter().enumerate() {
        let succ = &all[starts[r] as usize..starts[r + 1] as usize];
        if succ.is_empty() {
            continue;
        }
        // Each component's best and next best, and the first play best for the key
        // (written with comparisons rather than `max`, which guards against NaN).
        let mut best = [f64::NEG_INFINITY; N];
        let mut next = [f64::NEG_INFINITY; N];
        let (mut key, mut at) = (f64::NEG_INFINITY, 0);
        for (i, &code) in succ.iter().enumerate() {
            let v = value(after, code);
            if v[S::KEY] > key {
                (key, at) = (v[S::KEY], i);
            }
            for j in 0..N {
                next[j] = larger(next[j], smaller(v[j], best[j]));
                best[j] = larger(best[j], v[j]);
            }
        }
        let first = (value(after, succ[at]), succ[at]);
        // Each entry is written by the one thread that owns the state.
        let recorded = &chosen[nr * k + r];
        let code = recorded.load(Ordering::Relaxed);
        let margin = |j: usize| best[j] - next[j];
        // The first best play for the key, when it is also best in the other components,
        // is recorded with its lead over the next best in every component.
        let (now, roll_room) = if first.0 == best {
            let lead = (0..N).map(margin).fold(f64::INFINITY, f64::min);
            (first.1, lead)
        } else {
            // Else a set of plays; it stays a set while the key's first best play (its
            // lead) falls short somewhere (by `short`).
            let short = (0..N).map(|j| best[j] - first.0[j]).fold(0.0, f64::max);
            let (set, gap) = split_set(after, succ, &best, code);
            (set, margin(S::KEY).min(short).min(gap))
        };
        let roll_room = roll_room / S::SPREAD;
        if !is_set(now) && roll_room < PINNED_LOOK && r < 64 {
            ties |= 1 << r;
            tied_room = tied_room.min(roll_room);
        } else {
            room = room.min(roll_room);
        }
        if let Some(kept) = &mut kept {
            if is_set(now) && now != SPLIT {
                kept.roll(now, succ);
            }
            kept.changed |= now != code && (is_set(now) || is_set(code));
        }
        if now != code {
            recorded.store(now, Ordering::Relaxed);
            // Only a new best play restarts the rhythm, not a roll that turns into a set
            // or back (near ties, as values settle).
            if !is_set(now) && !is_set(code) {
                changed.store(true, Ordering::Relaxed);
            }
        }
        for j in 0..N {
            sum[j] += weight * best[j];
        }
    }
    if let Some(kept) = &kept {
        recorded_plays.sets.keep(k, kept);
    }
    if let Some(skip) = skip {
        // The rolls at or near a tie may be at one that cannot change (see `pinned_room`):
        // worth a second look when the other rolls leave room. A roll's room is at least
        // its plain one, `tied_room` for those not looked at again.
        let mut refined = ties != 0 && room >= PINNED_LOOK;
        if refined {
            for r in (0..nr.min(64)).filter(|r| ties >> r & 1 == 1) {
                let succ = &all[starts[r] as usize..starts[r + 1] as usize];
                let recorded = chosen[nr * k + r].load(Ordering::Relaxed);
                room = room.min(pinned_room(g, stakes, (x, after), succ, recorded));
                if room < PINNED_LOOK {
                    refined = false;
                    break;
                }
            }
        }
        if !refined {
            room = room.min(tied_room);
        }
        skip.record(k, room);
    }
    let d = f64::from(g.denominator);
    sum.map(|v| v / d)
}

/// The larger of two values (the second when they are equal); with [`smaller`], what the
/// full look's loop compiles to single instructions. No value is NaN.
#[inline(always)]
fn larger(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// The smaller of two values (the second when they are equal).
#[inline(always)]
fn smaller(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// A roll's room (how far the values may move before a look records another play) below
/// which [`full_part`] looks at its plays again for ties that cannot change.
const PINNED_LOOK: f64 = 1e-6;

/// How far every value may move before the play `best` (best in every component of a
/// roll whose plays lead to `succ`) stops being the first best: for each other play and
/// component, the gap between them over [`Stakes::SPREAD`], or, where both plays' values
/// are pinned (see [`Stakes::pinned`]: a double and a pass, fixed until the values move
/// by so much) and so cannot move at all, the less pinned of the two. Plays that lead to
/// the same place as `best` (wins of as many points) are the same play. Exact ties of
/// doubled-out plays are common with the cube; without this, every state with one would
/// be looked at in every full sweep.
#[inline(never)]
fn pinned_room<S: Stakes<N>, const N: usize>(
    g: &Graph,
    stakes: &S,
    (x, after): (&[S::Slot], &[S::Slot]),
    succ: &[u32],
    best: u32,
) -> f64 {
    let pins = |code: u32| match decode(g.win, code) {
        Err(_) => [f64::INFINITY; N],
        Ok(t) => stakes.pinned(t as usize, x[t as usize].get()),
    };
    let (v_best, pin_best) = (value(after, best), pins(best));
    let mut room = f64::INFINITY;
    for &code in succ {
        if code == best {
            continue;
        }
        let (v, pin) = (value(after, code), pins(code));
        for j in 0..N {
            let gap = (v_best[j] - v[j]) / S::SPREAD;
            room = room.min(gap.max(pin_best[j].min(pin[j])));
        }
    }
    room
}

/// For a roll whose best play differs between components (`best`, each component's best
/// value over the plays leading to `succ`): the set of plays to record ([`SET`]) and how
/// far the values may move, times [`Stakes::SPREAD`], before a look would record another.
/// The set recorded before, `old`, is kept while it holds each component's best (then its
/// lead over the plays outside it is the room); else the new set is each component's
/// first best play, or [`SPLIT`] (every play) when one of them is not among the first 31,
/// and is looked at again in the next full sweep (room 0).
#[inline(never)]
fn split_set<T: Slot<Value = [f64; N]>, const N: usize>(
    after: &[T],
    succ: &[u32],
    best: &[f64; N],
    old: u32,
) -> (u32, f64) {
    // SPLIT is not kept: the roll's best plays may fit a set now.
    let kept = is_set(old) && old != SPLIT;
    let (mut inside, mut outside) = ([f64::NEG_INFINITY; N], [f64::NEG_INFINITY; N]);
    let mut set = SET;
    let mut found = [false; N];
    for (i, &code) in succ.iter().enumerate() {
        let v = value(after, code);
        if kept {
            let side = if i < 31 && old >> i & 1 == 1 {
                &mut inside
            } else {
                &mut outside
            };
            for j in 0..N {
                side[j] = larger(side[j], v[j]);
            }
        }
        let mut first = false;
        for j in 0..N {
            if !found[j] && v[j] == best[j] {
                found[j] = true;
                first = true;
            }
        }
        if first {
            set = if i < 31 { set | 1 << i } else { SPLIT };
        }
    }
    if kept && inside == *best {
        let lead = (0..N)
            .map(|j| best[j] - outside[j])
            .fold(f64::INFINITY, f64::min);
        return (old, lead);
    }
    (set, 0.0)
}

/// Calls `take` with each play of the set `code` (a [`SET`] or [`SPLIT`]) of a roll whose
/// plays are `succ`.
#[inline(always)]
fn set_plays(code: u32, succ: &[u32], mut take: impl FnMut(u32)) {
    if code == SPLIT {
        succ.iter().for_each(|&code| take(code));
    } else {
        let mut plays = code & !SET;
        while plays != 0 {
            take(succ[plays.trailing_zeros() as usize]);
            plays &= plays - 1;
        }
    }
}

/// [`prefetch`]es the values in `after` of the plays recorded for the state at sweep
/// position `k`, a set's plays as [`chosen_part`] reads them (when [`worth_prefetching`]).
#[inline(always)]
fn prefetch_chosen<T>(g: &Graph, after: &[T], recorded: Recorded<'_>, k: usize, nr: usize) {
    let Some(codes) = recorded
        .plays
        .get(nr * k..nr * k + nr)
        .filter(|_| worth_prefetching(after))
    else {
        return;
    };
    let mut cursor = Cursor::default();
    for (r, code) in codes.iter().enumerate() {
        let code = code.load(Ordering::Relaxed);
        if is_set(code) {
            recorded.set_plays(g, k, r, code, &mut cursor, |c| prefetch(after, c as usize));
        } else {
            prefetch(after, code as usize);
        }
    }
}

/// As [`full_part`], valuing only the plays recorded in `chosen` (each component's best
/// of a roll's [`SET`], read from the [`SetStore`] where it holds them).
#[inline]
fn chosen_part<S: Stakes<N>, const N: usize, const R: usize>(
    g: &Graph,
    after: &[S::Slot],
    k: usize,
    recorded: Recorded<'_>,
) -> [f64; N] {
    let nr = rolls::<R>(g);
    prefetch_chosen(g, after, recorded, k + AHEAD, nr);
    let mut sum = [0.0f64; N];
    let chosen = &recorded.plays[nr * k..nr * k + nr];
    let mut cursor = Cursor::default();
    for (r, (&weight, code)) in g.weights[..nr].iter().zip(chosen).enumerate() {
        // A pass reads the pass entry, worth 0 (adding -0.0 changes no sum).
        let code = code.load(Ordering::Relaxed);
        let best = if is_set(code) {
            let mut best = [f64::NEG_INFINITY; N];
            recorded.set_plays(g, k, r, code, &mut cursor, |code| {
                let v = value(after, code);
                for j in 0..N {
                    best[j] = larger(best[j], v[j]);
                }
            });
            best
        } else {
            value(after, code)
        };
        for j in 0..N {
            sum[j] += weight * best[j];
        }
    }
    let d = f64::from(g.denominator);
    sum.map(|v| v / d)
}

/// The recorded entries of a cube solve and the store of their sets' plays, as its sweeps
/// read them.
#[derive(Clone, Copy)]
struct Recorded<'a> {
    plays: &'a [AtomicU32],
    sets: &'a SetStore,
}

/// Where a state's sets lie in the [`SetStore`] as a walk over its rolls reaches them:
/// not looked up yet (before its first set), held nowhere, or the next set's plays.
#[derive(Default)]
struct Cursor(Option<Option<usize>>);

impl Recorded<'_> {
    /// Calls `take` with each play of the set `code` recorded for roll `r` of the state at
    /// sweep position `k`, from the store when it holds the state's sets, else through the
    /// graph: the same plays in the same order. A walk over the state's rolls in order
    /// carries `cursor` from one set to the next.
    #[inline(always)]
    fn set_plays(
        &self,
        g: &Graph,
        k: usize,
        r: usize,
        code: u32,
        cursor: &mut Cursor,
        take: impl FnMut(u32),
    ) {
        // Without a store, `first` holds nothing: every set is read through the graph.
        let at = match code {
            SPLIT => None,
            _ => *cursor.0.get_or_insert_with(|| self.sets.first(k)),
        };
        match at {
            Some(at) => cursor.0 = Some(Some(self.sets.plays(at, take))),
            None => set_plays(code, g.successors(k, r), take),
        }
    }
}

/// Recorded entries (states times rolls) up to which [`SetStore`] keeps the sets' plays:
/// Hypergammon-2 and NikoNiko, whose arrays live in the caches; Hypergammon-3's sweeps
/// wait on far memory for every play alike, and its memory is spoken for.
const STORE_UP_TO: usize = 1 << 25;

/// Marks the last play of a roll in the [`SetStore`] (successor codes stay below it, as
/// below [`SET`]).
const LAST: u32 = 1 << 31;

/// The plays of the rolls recorded as sets ([`SET`], not [`SPLIT`]), kept beside the
/// recorded entries: for each state whose last full look recorded a set, the plays of
/// each such roll in roll order, each roll's last one marked [`LAST`]. A sweep over the
/// recorded plays reads them here, near those of the states before and after, rather
/// than through the graph, where each is a load from far memory (a third of that sweep's
/// time on Hypergammon-2). A look that changes a state's sets rewrites them in place when
/// they fit, else appends them; nothing is reclaimed while the solve runs, and once the
/// store is full a state's sets are read through the graph again. Either way the same
/// plays are read in the same order: the values are the same, bit for bit, whatever the
/// store holds.
struct SetStore {
    /// By sweep position: where the state's sets start in `plays`, or [`NOWHERE`].
    first: Vec<AtomicU32>,
    plays: Vec<AtomicU32>,
    used: AtomicUsize,
}

/// A state whose sets the store does not hold.
const NOWHERE: u32 = u32::MAX;

/// The plays of a state's set rolls gathered during its full look: the store holds a
/// state's sets when they have at most this many plays (a set has at most one play for
/// each component, a state a few sets).
const KEPT: usize = 48;

/// See [`SetStore`]: a full look's set rolls, in roll order.
struct Kept {
    plays: [u32; KEPT],
    len: usize,
    /// Whether a roll became a set, changed its set, or stopped being one.
    changed: bool,
}

impl Kept {
    fn new() -> Self {
        Kept {
            plays: [0; KEPT],
            len: 0,
            changed: false,
        }
    }

    /// Adds the plays of the set `code` of a roll whose plays are `succ`; past [`KEPT`],
    /// counts them only (the store then holds none of the state's sets).
    #[inline]
    fn roll(&mut self, code: u32, succ: &[u32]) {
        let from = self.len;
        set_plays(code, succ, |play| {
            if self.len < KEPT {
                self.plays[self.len] = play;
            }
            self.len += 1;
        });
        if self.len > from && self.len <= KEPT {
            self.plays[self.len - 1] |= LAST;
        }
    }
}

impl SetStore {
    /// For `n` states of `nr` rolls: room for as many plays as there are recorded
    /// entries, or none past [`STORE_UP_TO`] or unless `wanted`.
    fn new(n: usize, nr: usize, wanted: bool) -> Self {
        let entries = n * nr;
        let (first, room) = if wanted && entries <= STORE_UP_TO {
            (n, entries)
        } else {
            (0, 0)
        };
        SetStore {
            first: atomics(first, NOWHERE),
            plays: atomics(room, 0),
            used: AtomicUsize::new(0),
        }
    }

    /// Whether there is a store (see [`SetStore::new`]).
    #[inline(always)]
    fn wanted(&self) -> bool {
        !self.first.is_empty()
    }

    /// Where the sets of the state at sweep position `k` start, if the store holds them
    /// (past the room word, see [`SetStore::keep`]).
    #[inline]
    fn first(&self, k: usize) -> Option<usize> {
        self.first
            .get(k)
            .map(|at| at.load(Ordering::Relaxed))
            .filter(|&at| at != NOWHERE)
            .map(|at| at as usize + 1)
    }

    /// Calls `take` with the plays of the roll whose plays start at `at`; returns where
    /// the next roll's plays start.
    #[inline(always)]
    fn plays(&self, mut at: usize, mut take: impl FnMut(u32)) -> usize {
        loop {
            let play = self.plays[at].load(Ordering::Relaxed);
            take(play & !LAST);
            at += 1;
            if play & LAST != 0 {
                return at;
            }
        }
    }

    /// Records the sets of a full look at the state at sweep position `k` (written by the
    /// one thread that owns the state; read by the others across a barrier). A state's
    /// plays are a word giving their room, then the plays: kept where they are while its
    /// sets are the same, rewritten in place when the new ones fit, else appended.
    fn keep(&self, k: usize, kept: &Kept) {
        let Some(first) = self.first.get(k) else {
            return;
        };
        let old = first.load(Ordering::Relaxed);
        if !kept.changed && old != NOWHERE {
            return;
        }
        let len = kept.len;
        let at = if len == 0 || len > KEPT {
            NOWHERE
        } else {
            let room = |at: u32| self.plays[at as usize].load(Ordering::Relaxed) as usize;
            let at = if old != NOWHERE && room(old) >= len {
                Some(old as usize)
            } else {
                let at = self.used.fetch_add(len + 1, Ordering::Relaxed);
                self.plays.get(at..at + len + 1).map(|slots| {
                    slots[0].store(len as u32, Ordering::Relaxed);
                    at
                })
            };
            match at {
                Some(at) => {
                    let slots = &self.plays[at + 1..at + 1 + len];
                    for (slot, &play) in slots.iter().zip(&kept.plays[..len]) {
                        slot.store(play, Ordering::Relaxed);
                    }
                    u32::try_from(at).unwrap_or(NOWHERE)
                }
                None => NOWHERE,
            }
        };
        first.store(at, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use crate::gammon::cube::{decide_money, CubeDecision, CubeState, Cubeful};
    use crate::gammon::solver::solve;
    use crate::gammon::{notation, Numbers, Variant};
    use crate::progress::Progress;

    /// The four no-double equities of `position` in `variant`, solved with the cube, and
    /// its cubeless equity.
    fn cubeful(variant: &str, position: &str) -> (Cubeful, f64) {
        let v = Variant::parse(variant).unwrap();
        let p = notation::parse_position(&v, position).unwrap();
        let solved = solve(&v, true, Progress::SILENT).unwrap();
        let numbers = Numbers::new(&v).unwrap();
        let record = numbers.record(&p).unwrap();
        let i = solved
            .records(&numbers)
            .iter()
            .position(|&r| r == record)
            .unwrap();
        let values = solved.cube.as_ref().unwrap()[i];
        (Cubeful::from_array(values), solved.equity[i])
    }

    fn centred(c: &Cubeful) -> CubeDecision {
        decide_money(c, CubeState::Centred, false).action.unwrap()
    }

    /// Solves a board with NikoNiko's dice (and its passes) with every shortcut and
    /// with `fewer`, and compares the two bit for bit; returns the board's graph.
    fn the_same_bits_with_fewer_shortcuts(fewer: super::Shortcuts) -> super::Graph {
        let v = Variant::parse("points=8:checkers=3:faces=0-2:home=4").unwrap();
        let (graph, _) = crate::gammon::solver::graph_of(&v).unwrap();
        let solve = |shortcuts| {
            super::solve_with(
                &graph,
                &super::Money,
                1e-12,
                Progress::SILENT,
                shortcuts,
                None,
            )
            .unwrap()
        };
        let (with, without) = (solve(super::Shortcuts::ALL), solve(fewer));
        assert_eq!(with.sweeps, without.sweeps);
        assert_eq!(with.residual.to_bits(), without.residual.to_bits());
        let bits = |c: &super::CubeSolution| -> Vec<u64> {
            c.values.iter().flatten().map(|e| e.to_bits()).collect()
        };
        assert!(bits(&with) == bits(&without), "the cubeful values differ");
        assert!(with.sweeps > 50, "{} sweeps", with.sweeps);
        graph
    }

    #[test]
    fn reading_the_sets_plays_from_their_store_changes_no_bit_of_the_cube() {
        use super::{BOTH_OFF, NONE_OFF, ONE_OFF};
        let graph = the_same_bits_with_fewer_shortcuts(super::Shortcuts {
            eliminate: true,
            store_sets: false,
        });
        // The board has sets, and the store holds them: a few full sweeps over each class
        // record some, for states it then reads them for.
        let x = super::start(graph.len(), &super::Money);
        let run = super::Run::new(&graph, &super::Money, &x, 1e-12, super::Shortcuts::ALL);
        for class in [BOTH_OFF, ONE_OFF, NONE_OFF] {
            for _ in 0..4 {
                run.pass(graph.class_segments(class), &x, None, true);
            }
        }
        let held = (0..graph.len())
            .filter(|&k| run.sets.first(k).is_some())
            .count();
        assert!(held > 100, "the store holds the sets of {held} states");
    }

    #[test]
    fn the_set_store_keeps_rewrites_and_gives_up_when_full() {
        use super::{Kept, SetStore, SET};
        let plays = |store: &SetStore, k: usize, rolls: usize| -> Option<Vec<u32>> {
            let mut at = store.first(k)?;
            let mut out = Vec::new();
            for r in 0..rolls {
                at = store.plays(at, |c| out.push(c + 100 * r as u32));
            }
            Some(out)
        };
        let kept = |sets: &[(u32, &[u32])], changed: bool| {
            let mut kept = Kept::new();
            for &(mask, succ) in sets {
                kept.roll(SET | mask, succ);
            }
            kept.changed = changed;
            kept
        };
        // Room for 4 x 3 = 12 words.
        let store = SetStore::new(4, 3, true);
        store.keep(1, &kept(&[(0b101, &[10, 11, 12]), (0b10, &[20, 21])], true));
        assert_eq!(plays(&store, 1, 2), Some(vec![10, 12, 121]));
        let first = store.first(1);
        // Unchanged: kept where it is. Fewer plays: rewritten in place.
        store.keep(
            1,
            &kept(&[(0b101, &[10, 11, 12]), (0b10, &[20, 21])], false),
        );
        assert_eq!(store.first(1), first);
        store.keep(1, &kept(&[(0b1, &[30, 31])], true));
        assert_eq!(
            (store.first(1), plays(&store, 1, 1)),
            (first, Some(vec![30]))
        );
        // More plays than its room: appended after it (4 words used, 5 more).
        store.keep(1, &kept(&[(0b111, &[1, 2, 3]), (0b1, &[4])], true));
        assert_eq!(plays(&store, 1, 2), Some(vec![1, 2, 3, 104]));
        assert!(store.first(1) > first);
        // No room left for 4 more words (9 of 12 used), and no sets at all: held nowhere.
        store.keep(2, &kept(&[(0b111, &[5, 6, 7])], true));
        assert_eq!(plays(&store, 2, 1), None);
        store.keep(1, &kept(&[], true));
        assert_eq!(store.first(1), None);
        // A store not wanted holds nothing.
        let off = SetStore::new(4, 3, false);
        off.keep(0, &kept(&[(0b1, &[7])], true));
        assert_eq!(off.first(0), None);
    }

    // Skipping a state in a full sweep takes its recorded plays, and only where a look at
    // every play would record and value the same ones; NikoNiko's own check is its
    // manifest checksum, here a board with NikoNiko's dice (and its passes).
    #[test]
    fn skipping_the_states_whose_plays_cannot_have_changed_changes_no_bit_of_the_cube() {
        the_same_bits_with_fewer_shortcuts(super::Shortcuts {
            eliminate: false,
            store_sets: true,
        });
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
        let a = decide_money(&c, CubeState::Centred, false);
        assert_eq!(a.action, Some(CubeDecision::DoubleTake));
        close(a.double_take, 0.75);
    }

    // The same race one pip shorter: 14 rolls of 16 win, ND = 3/4, a take would give 3/2:
    // double, pass. Four pips longer for the faces 1-3 (checker on 5): 4 of 9 win, no
    // double.
    #[test]
    fn a_stronger_last_roll_is_a_pass_and_a_weaker_one_no_double() {
        let (c, _) = cubeful("points=6:checkers=2:faces=1-4:home=6", "4/1");
        close(c.centred, 2.0 * 14.0 / 16.0 - 1.0);
        assert_eq!(centred(&c), CubeDecision::DoublePass);
        let (c, _) = cubeful("points=6:checkers=2:faces=1-3:home=6", "5/1");
        close(c.centred, 2.0 * 4.0 / 9.0 - 1.0);
        assert_eq!(centred(&c), CubeDecision::NoDouble);
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
        assert_eq!(centred(&c), CubeDecision::DoubleTake);
    }

    // Under the Jacoby rule a gammon counts 1 while the cube is centred: with one checker a
    // side every win is a gammon (here not a backgammon: the loser's checker is outside
    // the winner's home board), so the Jacoby equity of a race won for sure is 1, the
    // others' 2. Without Jacoby that is too good to double; with it, playing on is worth
    // exactly the 1 that cashing brings: a certain win is cashed, "double, pass", as gnubg
    // calls it (a centred cube under Jacoby: not even an optional double).
    #[test]
    fn jacoby_counts_a_gammon_as_one_while_the_cube_is_centred() {
        let (c, cubeless) = cubeful("points=6:checkers=1:faces=1-4:home=3:start=6", "2/1");
        close(cubeless, 2.0);
        close(c.centred_jacoby, 1.0);
        close(c.centred, 2.0);
        close(c.owned, 2.0);
        close(c.opponent_owns, 2.0);
        let a = decide_money(&c, CubeState::CentredJacoby, false);
        assert_eq!(a.action, Some(CubeDecision::DoublePass));
        assert_eq!(centred(&c), CubeDecision::TooGood);
    }
}
