//! The machinery of a sweep: values shared between threads, the walk over the levels with
//! a barrier between its phases, and the iteration to a tolerance with extrapolation.
//!
//! A sweep has two phases per level (segment), about 180 in a class, and each phase is
//! short (tens of microseconds for most levels). A thread pool that parks its threads
//! between tasks spends more than that waking them, so a sweep runs its own threads for
//! its whole length; they take the first phase's states in chunks as they come free,
//! split the second phase evenly, and meet at a barrier that spins briefly, then sleeps
//! (and when other programs keep a sweep's threads waiting, the next sweeps run on one). Within a level every
//! state is computed from the values as they stood before it, so how the states are
//! shared out changes no bit of the result.

use super::graph::Graph;
use crate::gammon::Error;
use crate::progress::Progress;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The moving rolls of `g`: `R` when the caller knows it (so that loops over the rolls
/// unroll), else the graph's count (`R` = 0).
#[inline(always)]
pub(super) fn rolls<const R: usize>(g: &Graph) -> usize {
    if R > 0 {
        debug_assert_eq!(R, g.roll_count());
        R
    } else {
        g.roll_count()
    }
}

/// Calls `f::<…, R>(…)` with `R` the graph's roll count for the counts of the built-in
/// variants that take long enough for unrolled loops to matter (5: NikoNiko; 21: two
/// six-sided dice), else 0. Each count is a copy of the sweeps in the binary, so the
/// small boards of the tests (3 rolls: NikoNiko's faces 1-2 game) run the general one.
macro_rules! by_rolls {
    ($g:expr, $f:ident $(::<$($p:tt),*>)? ($($arg:expr),* $(,)?)) => {
        match $g.roll_count() {
            5 => $f::<$($($p,)*)? 5>($($arg),*),
            21 => $f::<$($($p,)*)? 21>($($arg),*),
            _ => $f::<$($($p,)*)? 0>($($arg),*),
        }
    };
}
pub(super) use by_rolls;

/// How many states ahead of the one it values a sweep asks for the values of their
/// plays (see [`prefetch`]). A sweep waits on those values, not on the arithmetic: each
/// play's successor lies in a different part of the array, mostly out of every cache.
/// Asked for eight states ahead, the outcome sweeps of Hypergammon-3 took 40% less time
/// (four: nearly as much; twelve: less, the first values asked for evicted again before use;
/// for the full sweeps of the cube two, four and eight did alike).
pub(super) const AHEAD: usize = 8;

/// Values arrays smaller than this are not [`prefetch`]ed: they stay in the caches, and
/// asking for their values only costs (Hypergammon-2's 3.4 MB of cube values: 15% more
/// processor time). Half of this machine's 32 MiB L3 cache.
const PREFETCH_FROM: usize = 16 << 20;

/// Whether a sweep over the values `x` gains from [`prefetch`]: whether they are many.
#[inline(always)]
pub(super) fn worth_prefetching<T>(x: &[T]) -> bool {
    std::mem::size_of_val(x) >= PREFETCH_FROM
}

/// Asks the processor to bring `x[i]` into its caches: a hint that changes no value and
/// no result (nothing when `i` is out of range, or on other processors than x86-64).
#[inline(always)]
pub(super) fn prefetch<T>(x: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(v) = x.get(i) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch reads nothing the program sees and cannot fault; the
        // instruction is part of x86-64's baseline (SSE).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(v).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (x, i);
}

/// [`prefetch`]es (when [`worth_prefetching`]) the values `x` of the `R` plays recorded
/// for the state at sweep position `k` (`codes[R k..R k + R]`, each read by `code`).
#[inline(always)]
pub(super) fn prefetch_recorded<T, C>(
    x: &[T],
    codes: &[C],
    k: usize,
    nr: usize,
    code: impl Fn(&C) -> u32,
) {
    if !worth_prefetching(x) {
        return;
    }
    if let Some(codes) = codes.get(nr * k..nr * k + nr) {
        for c in codes {
            prefetch(x, code(c) as usize);
        }
    }
}

/// [`prefetch`]es (when [`worth_prefetching`]) the values `x` of every play of the state
/// at sweep position `k`.
#[inline(always)]
pub(super) fn prefetch_plays<T>(g: &Graph, x: &[T], k: usize) {
    if k < g.len() && worth_prefetching(x) {
        let (starts, all) = g.state_successors(k);
        let plays = starts[0] as usize..starts[starts.len() - 1] as usize;
        for &c in &all[plays] {
            prefetch(x, c as usize);
        }
    }
}

/// A value of one state that the sweep's threads share. **The rule:** a slot is written
/// only by the one thread that owns its state, in a phase in which no other thread reads
/// it; the others read it only across a barrier (a level's phases, the end of a sweep or
/// of a parallel loop). Writes are relaxed atomic stores. Reads of the values of more
/// than one `f64` are plain loads of the whole array, which the compiler makes one or two
/// vector loads (four relaxed atomic loads and their shuffles cost the cube's sweeps a
/// fifth of their time); under the rule no read meets a write, so this is no data race.
pub trait Slot: Sync + Send {
    type Value: Copy + Send + Sync;
    fn new(v: Self::Value) -> Self;
    fn get(&self) -> Self::Value;
    fn set(&self, v: Self::Value);
    /// `self += (self - previous) · factor`, component by component, each component with
    /// the factor of its system (see [`extrapolated`]); a system without one keeps its
    /// components as they are.
    fn extrapolate(&self, previous: Self::Value, factors: &[Option<f64>]);
}

/// `v` extrapolated from `previous`: the `N` components belong to `factors.len()` systems
/// of as many components each, in order; each moves by its system's factor, if any.
#[inline(always)]
fn extrapolated<const N: usize>(
    mut v: [f64; N],
    previous: [f64; N],
    factors: &[Option<f64>],
) -> [f64; N] {
    for (i, (v, p)) in v.iter_mut().zip(previous).enumerate() {
        if let Some(factor) = factors[i * factors.len() / N] {
            *v += (*v - p) * factor;
        }
    }
    v
}

/// The values of a slot of several `f64` in one plain load of the array (see [`Slot`]'s
/// rule), which the compiler makes vector loads.
#[inline(always)]
fn load_all<const N: usize>(cells: &[AtomicU64; N]) -> [f64; N] {
    // SAFETY: `Slot`'s rule: no thread writes this slot while another reads it, and an
    // array of `AtomicU64` has the size and alignment of the array of `f64`.
    unsafe { std::ptr::read(cells.as_ptr().cast::<[f64; N]>()) }
}

/// One `f64`.
pub struct Scalar(AtomicU64);

impl Slot for Scalar {
    type Value = f64;
    fn new(v: f64) -> Self {
        Scalar(AtomicU64::new(v.to_bits()))
    }
    #[inline(always)]
    fn get(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }
    #[inline(always)]
    fn set(&self, v: f64) {
        self.0.store(v.to_bits(), Ordering::Relaxed);
    }
    fn extrapolate(&self, previous: f64, factors: &[Option<f64>]) {
        self.set(extrapolated([self.get()], [previous], factors)[0]);
    }
}

/// Two `f64`, aligned to 16 bytes so that one never straddles two cache lines.
#[repr(C, align(16))]
pub struct Duo([AtomicU64; 2]);

impl Slot for Duo {
    type Value = [f64; 2];
    fn new(v: [f64; 2]) -> Self {
        let d = Duo(Default::default());
        d.set(v);
        d
    }
    #[inline(always)]
    fn get(&self) -> [f64; 2] {
        load_all(&self.0)
    }
    #[inline(always)]
    fn set(&self, v: [f64; 2]) {
        for (cell, x) in self.0.iter().zip(v) {
            cell.store(x.to_bits(), Ordering::Relaxed);
        }
    }
    fn extrapolate(&self, previous: [f64; 2], factors: &[Option<f64>]) {
        self.set(extrapolated(self.get(), previous, factors));
    }
}

/// Four `f64`, aligned to 32 bytes (the four cube states of one position).
#[repr(C, align(32))]
pub struct Quad([AtomicU64; 4]);

impl Slot for Quad {
    type Value = [f64; 4];
    fn new(v: [f64; 4]) -> Self {
        let q = Quad(Default::default());
        q.set(v);
        q
    }
    #[inline(always)]
    fn get(&self) -> [f64; 4] {
        load_all(&self.0)
    }
    #[inline(always)]
    fn set(&self, v: [f64; 4]) {
        for (cell, x) in self.0.iter().zip(v) {
            cell.store(x.to_bits(), Ordering::Relaxed);
        }
    }
    fn extrapolate(&self, previous: [f64; 4], factors: &[Option<f64>]) {
        self.set(extrapolated(self.get(), previous, factors));
    }
}

/// `N` `f64` (the components of a match score's cube levels), aligned to a cache line:
/// a sweep reads a successor's values from as few lines as they fill (one up to eight
/// values), which is what its time goes on.
#[repr(C, align(16))]
pub struct Lanes<const N: usize>([AtomicU64; N]);

impl<const N: usize> Slot for Lanes<N> {
    type Value = [f64; N];
    fn new(v: [f64; N]) -> Self {
        let l = Lanes(std::array::from_fn(|_| AtomicU64::new(0)));
        l.set(v);
        l
    }
    #[inline(always)]
    fn get(&self) -> [f64; N] {
        load_all(&self.0)
    }
    #[inline(always)]
    fn set(&self, v: [f64; N]) {
        for (cell, x) in self.0.iter().zip(v) {
            cell.store(x.to_bits(), Ordering::Relaxed);
        }
    }
    fn extrapolate(&self, previous: [f64; N], factors: &[Option<f64>]) {
        self.set(extrapolated(self.get(), previous, factors));
    }
}

/// A barrier for a few threads that spin for a few microseconds (the waits between the
/// phases of a level usually end sooner), then sleep until the last thread arrives: on a
/// machine whose cores are busy with other work, a waiting thread gives its core away
/// instead of burning it. Adds up the time its threads spent asleep (see [`Contention`]).
struct Barrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    /// Nanoseconds the threads spent asleep in it, all together.
    asleep: AtomicU64,
}

/// How long a waiting thread spins before it sleeps.
const SPIN: Duration = Duration::from_micros(50);

impl Barrier {
    fn new(threads: usize) -> Self {
        Barrier {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            asleep: AtomicU64::new(0),
        }
    }

    /// Returns once every thread has called it; what each wrote before is then visible to
    /// all.
    fn wait(&self) {
        if self.threads == 1 {
            return;
        }
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.arrived.store(0, Ordering::Relaxed);
            // Under the lock, so that a thread about to sleep either sees the new
            // generation or is woken.
            let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.generation.fetch_add(1, Ordering::Release);
            if self.sleepers.load(Ordering::Relaxed) > 0 {
                self.wake.notify_all();
            }
            return;
        }
        let started = Instant::now();
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            std::hint::spin_loop();
            spins += 1;
            if spins.is_multiple_of(64) && started.elapsed() > SPIN {
                self.sleep(generation);
                return;
            }
        }
    }

    fn sleep(&self, generation: usize) {
        let started = Instant::now();
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.sleepers.fetch_add(1, Ordering::Relaxed);
        while self.generation.load(Ordering::Acquire) == generation {
            guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
        self.sleepers.fetch_sub(1, Ordering::Relaxed);
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.asleep.fetch_add(nanos, Ordering::Relaxed);
    }
}

/// Whether other programs are taking the cores: when a sweep's threads spent more than a
/// third of its time asleep at its barriers (the other threads were not running), the
/// next sweeps run on one thread (no barrier at all), then try their
/// threads again; each contended try in a row doubles the solo stretch (16, 32, … 256
/// sweeps), an uncontended one resets it. The thread count changes no bit of a sweep's
/// result, so this changes only the time a solve takes on a busy machine.
struct Contention {
    /// Sweeps still to run on one thread.
    solo: AtomicUsize,
    /// Contended multi-thread sweeps in a row.
    streak: AtomicUsize,
}

/// Sweeps run on one thread after a first contended one.
const SOLO_SWEEPS: usize = 16;
/// The longest solo stretch: `SOLO_SWEEPS << MAX_DOUBLINGS`.
const MAX_DOUBLINGS: usize = 4;

static CONTENTION: Contention = Contention {
    solo: AtomicUsize::new(0),
    streak: AtomicUsize::new(0),
};

impl Contention {
    /// Whether this sweep should run on one thread (and counts it down).
    fn take_solo(&self) -> bool {
        self.solo
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Records how a multi-thread sweep's barrier waits went, in a sweep of `wall` time.
    /// A few short sleeps are normal: a level's last chunks or another program's brief
    /// turn on a core. Only when the threads spent a third of the sweep asleep (the
    /// other thread was not running) would one thread have done as well.
    fn record(&self, barrier: &Barrier, wall: Duration) {
        let asleep = barrier.asleep.load(Ordering::Relaxed) as f64;
        let threads = barrier.threads as f64;
        if asleep * 3.0 > wall.as_nanos() as f64 * threads {
            let streak = self.streak.fetch_add(1, Ordering::Relaxed);
            self.solo
                .store(SOLO_SWEEPS << streak.min(MAX_DOUBLINGS), Ordering::Relaxed);
        } else {
            self.streak.store(0, Ordering::Relaxed);
        }
    }
}

thread_local! {
    /// Threads lent to the sweeps this thread starts (see [`with_loans`]).
    static LOANS: std::cell::RefCell<Option<Arc<AtomicUsize>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `loans` counting the threads lent to the sweeps it starts on this thread,
/// on top of the current pool's. Two jobs run side by side on a core each; when one ends,
/// it adds its threads to the other's loans, and the other's next sweeps use both cores.
/// The thread count changes no bit of a sweep's result.
pub fn with_loans<R>(loans: &Arc<AtomicUsize>, f: impl FnOnce() -> R) -> R {
    LOANS.with(|l| *l.borrow_mut() = Some(Arc::clone(loans)));
    let result = f();
    LOANS.with(|l| *l.borrow_mut() = None);
    result
}

/// Threads lent to the sweeps of this thread.
fn lent() -> usize {
    LOANS.with(|l| l.borrow().as_ref().map_or(0, |n| n.load(Ordering::Relaxed)))
}

/// The cores this process may use, asked once: the answer comes from the system's files
/// (the control group's quota among them), about 40 µs a time, and a solve asks before
/// each of its hundreds of sweeps.
pub(super) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// States a thread takes at a time in the first phase of a segment: at most, at least.
const MAX_CHUNK: usize = 512;
const MIN_CHUNK: usize = 16;

/// A sweep whose levels (those with states) hold fewer states than this on average runs
/// on one thread.
const SMALL_LEVEL: usize = 600;

/// The part `t` of `threads` of the range `lo..hi`.
fn share(lo: usize, hi: usize, t: usize, threads: usize) -> std::ops::Range<usize> {
    let len = hi - lo;
    lo + len * t / threads..lo + len * (t + 1) / threads
}

/// How much a sweep changed the values: an `f64`, or one for each of the `M` independent
/// systems whose values share the slots (see [`iterate_apart`]).
pub trait Change: Copy + Send + Sync {
    /// No change.
    const NONE: Self;
    /// The larger of the two, system by system.
    fn max(self, other: Self) -> Self;
    /// The largest of the systems'.
    fn largest(self) -> f64;
}

impl Change for f64 {
    const NONE: f64 = 0.0;
    #[inline(always)]
    fn max(self, other: f64) -> f64 {
        f64::max(self, other)
    }
    #[inline(always)]
    fn largest(self) -> f64 {
        self
    }
}

impl<const M: usize> Change for [f64; M] {
    const NONE: [f64; M] = [0.0; M];
    #[inline(always)]
    fn max(self, other: [f64; M]) -> [f64; M] {
        std::array::from_fn(|j| self[j].max(other[j]))
    }
    #[inline(always)]
    fn largest(self) -> f64 {
        self.into_iter().fold(0.0, f64::max)
    }
}

/// Where a sweep keeps the values it replaces (for an extrapolation after it): the
/// slots of the states from solver position `first` on.
pub struct Keep<S> {
    slots: Vec<S>,
    first: usize,
}

/// One sweep over the segments `bounds` (boundaries, see [`Graph::segments`]) in order, on
/// as many threads as the current rayon pool has (at most one a core). For each segment:
/// `moving(x, k, moved)` computes the part from the rolls that move of the state at sweep
/// position `k`, into `a[k]` (reading the values as they stand; by sweep position, so
/// that the threads write apart), where `moved` is the largest change this sweep has
/// made so far (in the segments before); then, for each state `s` of the segment,
/// `pair(s, a_s, a_t, p_s, p_t, x_s)` solves it with its pass partner `t` (in the same
/// segment) and returns its new value and how much it changed (a [`Change`]: by system,
/// where the values hold several); the value replaced goes to `keep`, if any. Returns the
/// largest change.
pub fn level_sweep<S: Slot, D: Change>(
    g: &Graph,
    bounds: &[u32],
    x: &[S],
    a: &[S],
    keep: Option<&Keep<S>>,
    moving: impl Fn(&[S], usize, f64) -> S::Value + Sync,
    pair: impl Fn(usize, S::Value, S::Value, f64, f64, S::Value) -> (S::Value, D) + Sync,
) -> D {
    // Spinning threads must not outnumber the cores (the result is the same for any
    // number of threads).
    let cores = cores();
    // A sweep over few states per level spends more at its barriers than it gains.
    let states = (bounds[bounds.len() - 1] - bounds[0]) as usize;
    let levels = bounds.windows(2).filter(|w| w[1] > w[0]).count();
    let small = states < SMALL_LEVEL * levels.max(1);
    let threads = if small || CONTENTION.take_solo() {
        1
    } else {
        (rayon::current_num_threads() + lent())
            .min(cores)
            .clamp(1, 64)
    };
    let barrier = Barrier::new(threads);
    // w / D for the 0..=D ordered rolls that can pass, divided once here rather than
    // per state.
    let chances: Vec<f64> = (0..=g.denominator)
        .map(|w| f64::from(w) / f64::from(g.denominator))
        .collect();
    // The first phase's work varies from state to state: threads take chunks of it as
    // they come free, one counter per segment.
    let taken: Vec<AtomicUsize> = bounds.iter().map(|_| AtomicUsize::new(0)).collect();
    // The largest change so far, as the bits of a nonnegative f64 (which order as the
    // numbers do); read only across a barrier, so the same for every thread count.
    let moved = AtomicU64::new(0);
    let work = |t: usize| -> D {
        let mut delta = D::NONE;
        for (j, w) in bounds.windows(2).enumerate() {
            let (lo, hi) = (w[0] as usize, w[1] as usize);
            let so_far = f64::from_bits(moved.load(Ordering::Relaxed));
            loop {
                // Smaller chunks as the segment runs out, so that the threads finish
                // together (guided scheduling).
                let left = (hi - lo).saturating_sub(taken[j].load(Ordering::Relaxed));
                let size = (left / (4 * threads)).clamp(MIN_CHUNK, MAX_CHUNK);
                let from = lo + taken[j].fetch_add(size, Ordering::Relaxed);
                if from >= hi {
                    break;
                }
                let to = (from + size).min(hi);
                for (k, slot) in (from..to).zip(&a[from..to]) {
                    slot.set(moving(x, k, so_far));
                }
            }
            barrier.wait();
            for (s, both) in share(lo, hi, t, threads).zip(&g.pair[share(lo, hi, t, threads)]) {
                let [k, kp] = both.visit.map(|k| k as usize);
                let [w, wp] = both.pass_weight.map(usize::from);
                let old = x[s].get();
                let (new, d) = pair(s, a[k].get(), a[kp].get(), chances[w], chances[wp], old);
                x[s].set(new);
                if let Some(keep) = keep {
                    keep.slots[s - keep.first].set(old);
                }
                delta = delta.max(d);
            }
            moved.fetch_max(delta.largest().to_bits(), Ordering::Relaxed);
            barrier.wait();
        }
        delta
    };
    if threads == 1 {
        return work(0);
    }
    let started = Instant::now();
    let delta = std::thread::scope(|scope| {
        let work = &work;
        let others: Vec<_> = (1..threads).map(|t| scope.spawn(move || work(t))).collect();
        let mut delta = work(0);
        for other in others {
            delta = delta.max(other.join().expect("a sweep thread panicked"));
        }
        delta
    });
    CONTENTION.record(&barrier, started.elapsed());
    delta
}

/// Gives up after this many sweeps (the iterations converge in far fewer).
pub const MAX_SWEEPS: u32 = 10_000;

/// Ordinary sweeps between two extrapolations.
const EXTRAPOLATE_AFTER: usize = 3;

/// One sweep as [`iterate`] calls it: the values, what to keep for an extrapolation, the
/// bound on the last extrapolation's change; returns the sweep's largest change.
pub type Sweep<'a, S> = dyn FnMut(&[S], Option<&Keep<S>>, f64) -> f64 + 'a;

/// One sweep as [`iterate_apart`] calls it: as [`Sweep`], system by system, and which
/// systems are still iterated (the others' values must stay as they are).
pub type Sweeps<'a, S, const M: usize> =
    dyn FnMut(&[S], Option<&Keep<S>>, [f64; M], [bool; M]) -> [f64; M] + 'a;

/// Runs `sweep` over `x` until the largest change in a sweep is below `tolerance`;
/// returns the sweeps made and the last change. The sweeps change only `x[span]`; a
/// sweep is handed a [`Keep`] for the values it replaces when an extrapolation may
/// follow it, and a bound on how much the extrapolation just before it changed any
/// value (0 when there was none).
///
/// The error of these iterations decays geometrically (by about 0.72 a sweep for the
/// equities, 0.8 for the outcomes: hits send games back up the levels). Once the ratio of
/// successive changes has settled (two ratios within 5%: a stricter test waits longer and
/// costs sweeps), the remaining geometric tail is summed in one step
/// (`x += (x - x_prev) · λ / (1 - λ)`, Aitken's extrapolation); the sweeps that follow
/// are ordinary ones, so the fixed point and the stopping test are unchanged.
pub fn iterate<S: Slot>(
    progress: Progress<'_>,
    what: &str,
    tolerance: f64,
    x: &[S],
    span: std::ops::Range<usize>,
    sweep: &mut Sweep<'_, S>,
) -> Result<(u32, f64), Error> {
    let [done] = iterate_apart(
        progress,
        what,
        tolerance,
        x,
        span,
        &mut |x, keep, [j], _| [sweep(x, keep, j)],
    )?;
    Ok(done)
}

/// [`iterate`] for `M` systems that never meet, whose values share the slots of `x` (the
/// components of a slot split evenly between them, in order), so that one sweep reads
/// each state's plays once for all of them. Each system is iterated exactly as
/// [`iterate`] would alone (its own changes, extrapolations and stopping test), bit for
/// bit; a system that has converged is left as it is while the others go on. Returns,
/// system by system, the sweeps made and the last change.
pub fn iterate_apart<S: Slot, const M: usize>(
    progress: Progress<'_>,
    what: &str,
    tolerance: f64,
    x: &[S],
    span: std::ops::Range<usize>,
    // `dyn`: one copy of this loop for each kind of value, not one for each caller.
    sweep: &mut Sweeps<'_, S, M>,
) -> Result<[(u32, f64); M], Error> {
    let moving = &x[span.clone()];
    let previous = Keep {
        slots: crate::par::collect(moving.len(), |i| S::new(moving[i].get())),
        first: span.start,
    };
    let mut deltas: [Vec<f64>; M] = std::array::from_fn(|_| Vec::new());
    let mut last_jump = [0usize; M];
    // The largest change the last extrapolation made (at most).
    let mut jumped = [0.0; M];
    let mut done: [Option<(u32, f64)>; M] = [None; M];
    for k in 1..=MAX_SWEEPS {
        let live = done.map(|d| d.is_none());
        // The values before this sweep are needed only if an extrapolation may follow it.
        let may_jump = (0..M)
            .any(|j| live[j] && deltas[j].len() + 1 >= (last_jump[j] + EXTRAPOLATE_AFTER).max(3));
        let delta = sweep(x, may_jump.then_some(&previous), jumped, live);
        jumped = [0.0; M];
        let mut factors = [None; M];
        for j in (0..M).filter(|&j| live[j]) {
            let deltas = &mut deltas[j];
            deltas.push(delta[j]);
            if delta[j] < tolerance {
                done[j] = Some((k, delta[j]));
                continue;
            }
            let n = deltas.len();
            if n >= last_jump[j] + EXTRAPOLATE_AFTER && n >= 3 {
                let r1 = deltas[n - 1] / deltas[n - 2];
                let r2 = deltas[n - 2] / deltas[n - 3];
                if r1 > 0.0 && r1 < 0.98 && (r1 - r2).abs() < 0.05 * r1 {
                    let factor = r1 / (1.0 - r1);
                    // |x - x_prev| is at most the last sweep's change.
                    jumped[j] = deltas[n - 1] * factor;
                    factors[j] = Some(factor);
                    last_jump[j] = n;
                }
            }
        }
        if !progress.is_silent() {
            let residual = (0..M).filter(|&j| live[j]).map(|j| delta[j]);
            let residual = residual.fold(0.0, f64::max);
            progress.status(&format!("{what} sweep {k}, residual {residual:.2e}"));
        }
        if let Some(done) = done.iter().copied().collect::<Option<Vec<_>>>() {
            return Ok(std::array::from_fn(|j| done[j]));
        }
        if factors.iter().any(Option::is_some) {
            let before = &previous.slots;
            crate::par::for_ranges(moving.len(), crate::par::GRAIN, &|r| {
                for i in r {
                    moving[i].extrapolate(before[i].get(), &factors);
                }
            });
        }
    }
    Err(Error::NotConverged {
        what: what.to_string(),
        sweeps: MAX_SWEEPS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_large_arrays_are_prefetched_and_never_past_their_end() {
        assert!(!worth_prefetching(&vec![0.0f64; 1 << 10]));
        let large = vec![0u8; PREFETCH_FROM];
        assert!(worth_prefetching(&large));
        // Past the end of the values or of the plays: nothing asked, no panic.
        prefetch(&large, PREFETCH_FROM);
        prefetch_recorded(&large, &[1u32, 2, 3], 0, 3, |&c| c + PREFETCH_FROM as u32);
        prefetch_recorded(&large, &[1u32, 2, 3], 1, 3, |&c| c);
    }

    /// A toy sweep of one system (rate `rate`, constants `c`) in place over `x`, each value
    /// read from another one, the way a state reads its successors.
    fn toy(
        rate: f64,
        c: &[f64],
        get: impl Fn(usize) -> f64,
        mut set: impl FnMut(usize, f64),
    ) -> f64 {
        let mut change = 0.0f64;
        for i in 0..c.len() {
            let new = c[i] + rate * get((i * 7 + 3) % c.len());
            change = change.max((new - get(i)).abs());
            set(i, new);
        }
        change
    }

    #[test]
    fn systems_iterated_together_are_each_the_same_bits_as_alone() {
        let len = 50;
        let rates = [0.8, 0.55];
        let c: [Vec<f64>; 2] = [
            (0..len).map(|i| (i as f64 * 0.37).sin()).collect(),
            (0..len).map(|i| (i as f64 * 1.3).cos() * 2.0).collect(),
        ];
        let alone: Vec<(Vec<u64>, (u32, f64))> = (0..2)
            .map(|j| {
                let x: Vec<Scalar> = (0..len).map(|_| Scalar::new(0.0)).collect();
                let mut jumps = 0;
                let done = iterate(
                    Progress::SILENT,
                    "alone",
                    1e-12,
                    &x,
                    0..len,
                    &mut |x, keep, jumped| {
                        jumps += usize::from(jumped > 0.0);
                        toy(
                            rates[j],
                            &c[j],
                            |i| x[i].get(),
                            |i, v| {
                                if let Some(keep) = keep {
                                    keep.slots[i].set(x[i].get());
                                }
                                x[i].set(v);
                            },
                        )
                    },
                )
                .unwrap();
                assert!(jumps > 0, "system {j} never extrapolated");
                (x.iter().map(|s| s.get().to_bits()).collect(), done)
            })
            .collect();
        // The two converge after different numbers of sweeps, and extrapolate apart.
        assert_ne!(alone[0].1 .0, alone[1].1 .0);
        let x: Vec<Duo> = (0..len).map(|_| Duo::new([0.0; 2])).collect();
        let done = iterate_apart(
            Progress::SILENT,
            "together",
            1e-12,
            &x,
            0..len,
            &mut |x, keep, _, live| {
                let mut change = [0.0; 2];
                for j in (0..2).filter(|&j| live[j]) {
                    change[j] = toy(
                        rates[j],
                        &c[j],
                        |i| x[i].get()[j],
                        |i, v| {
                            let mut both = x[i].get();
                            if let Some(keep) = keep {
                                let mut kept = keep.slots[i].get();
                                kept[j] = both[j];
                                keep.slots[i].set(kept);
                            }
                            both[j] = v;
                            x[i].set(both);
                        },
                    );
                }
                change
            },
        )
        .unwrap();
        for j in 0..2 {
            assert_eq!(done[j], alone[j].1);
            let bits: Vec<u64> = x.iter().map(|s| s.get()[j].to_bits()).collect();
            assert_eq!(bits, alone[j].0, "system {j}");
        }
    }

    #[test]
    fn shares_cover_a_range_exactly_once_in_order() {
        for threads in 1..5 {
            for (lo, hi) in [(0, 0), (3, 4), (10, 107)] {
                let all: Vec<usize> = (0..threads)
                    .flat_map(|t| share(lo, hi, t, threads))
                    .collect();
                assert_eq!(all, (lo..hi).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_thread_kept_waiting_sleeps_and_is_woken() {
        let barrier = Barrier::new(2);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(20));
                barrier.wait();
            });
            barrier.wait();
        });
        // The waiting thread slept most of the 20 ms.
        assert!(barrier.asleep.load(Ordering::Relaxed) > 10_000_000);
    }

    #[test]
    fn the_barrier_holds_every_thread_until_all_have_written() {
        let threads = 3;
        let barrier = Barrier::new(threads);
        let cells: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
        std::thread::scope(|scope| {
            for t in 0..threads {
                let (barrier, cells) = (&barrier, &cells);
                scope.spawn(move || {
                    for round in 1..=200 {
                        cells[t].store(round, Ordering::Relaxed);
                        barrier.wait();
                        for c in cells {
                            assert_eq!(c.load(Ordering::Relaxed), round);
                        }
                        barrier.wait();
                    }
                });
            }
        });
    }
}
