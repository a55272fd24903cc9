//! The two-sided solve (`docs/bearoff.md`, "Two-sided database"): for every pair of
//! sides of at most `C` checkers on `P` points, the side on roll's exact chance to win
//! (and, with fifteen checkers, to win and lose a gammon), and with the cube its no-double
//! equities when it owns the cube, when the cube is centred (and centred under the Jacoby
//! rule, where gammons exist) and when the opponent owns it, each cube state with its own
//! best plays, the opponent's doubling option applied as `gammon::cube::after_move` says.
//!
//! Every play lowers the mover's rank, so the value of `(i, j)` (side `i` on roll against
//! `j`) needs only values `(j, i')` with `i' < i`. The pairs are solved in one pass, layer
//! by layer: layer `k` is the pairs whose larger rank is `k`. First its row, `(k, j)` for
//! every `j < k`: for each roll the best of the rows `i'` of `k`'s plays, read along `j`
//! (the values are kept transposed, `t[i' · n + j]` = what moving to `i'` against `j` is
//! worth to the mover, so that these reads are contiguous and many `j` are done at once);
//! then `(k, k)`; then its column, `(j, k)` for every `j ≤ k`, from the row just made.
//! No iteration: each value is computed once, from values already final.
//!
//! A roll's best play is the one worth most to the mover in the quantity asked (each cube
//! state apart; without the cube and with gammons, the cubeless equity, the chances
//! following the play chosen); among plays worth exactly the same, the one leading to the
//! lowest-numbered side is kept.

use super::kernels;
use super::sides::{weight, Successors};
use crate::progress::Progress;
use rayon::prelude::*;

/// The values of one pair, for the side on roll, and what the solver does with them.
pub trait Values: Copy + Send + Sync + 'static {
    /// The record a table stores.
    type Record: bytemuck::Pod + Send + Sync;
    /// All zero.
    const ZERO: Self;
    /// Worse than any play: what [`Values::merge`] starts from.
    const NONE: Self;
    /// What moving to this pair (the opponent on roll, these its values) is worth to the
    /// mover, in the mover's quantities.
    fn after_move(&self) -> Self;
    /// Keeps the better of two plays' worth for the mover (`self` came first).
    fn merge(&mut self, x: &Self);
    /// Adds `w` times `x`.
    fn add(&mut self, x: &Self, w: f64);
    /// Times `s`.
    fn scaled(&self, s: f64) -> Self;
    /// The side on roll has borne off its last checker (it has won; a gammon when the
    /// opponent, `opponent_full`, has borne off none).
    fn won(opponent_full: bool) -> Self;
    /// The opponent has borne off its last checker (the side on roll has lost; a gammon
    /// when it, `full`, has borne off none).
    fn lost(full: bool) -> Self;
    /// The stored record.
    fn record(&self) -> Self::Record;
    /// [`Values::merge`] of each of `row` into `best`.
    #[inline(always)]
    fn merge_rows(best: &mut [Self], row: &[Self]) {
        for (b, x) in best.iter_mut().zip(row) {
            b.merge(x);
        }
    }
    /// [`Values::add`] of each of `x`, weighted `w`, into `acc`.
    #[inline(always)]
    fn add_rows(acc: &mut [Self], x: &[Self], w: f64) {
        for (a, b) in acc.iter_mut().zip(x) {
            a.add(b, w);
        }
    }
}

/// A chance as stored: `round(p · (2³² − 1))`.
pub fn chance(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * f64::from(u32::MAX)).round() as u32
}

/// An equity as stored: `round(e · 2²⁹)` as `i32` bits.
pub fn equity(e: f64) -> u32 {
    ((e * EQUITY_SCALE).round() as i32) as u32
}

/// The scale of a stored equity.
pub const EQUITY_SCALE: f64 = (1u64 << 29) as f64;

/// Fewer than fifteen checkers, no cube: the chance to win.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct Win(pub f64);

impl Values for Win {
    type Record = [u32; 1];
    const ZERO: Self = Win(0.0);
    const NONE: Self = Win(f64::NEG_INFINITY);
    #[inline(always)]
    fn after_move(&self) -> Self {
        Win(1.0 - self.0)
    }
    #[inline(always)]
    fn merge(&mut self, x: &Self) {
        if x.0 > self.0 {
            self.0 = x.0;
        }
    }
    #[inline(always)]
    fn add(&mut self, x: &Self, w: f64) {
        self.0 += w * x.0;
    }
    fn scaled(&self, s: f64) -> Self {
        Win(self.0 * s)
    }
    fn won(_: bool) -> Self {
        Win(1.0)
    }
    fn lost(_: bool) -> Self {
        Win(0.0)
    }
    fn record(&self) -> [u32; 1] {
        [chance(self.0)]
    }
    fn merge_rows(best: &mut [Self], row: &[Self]) {
        kernels::max_into(bytemuck::cast_slice_mut(best), bytemuck::cast_slice(row));
    }
    fn add_rows(acc: &mut [Self], x: &[Self], w: f64) {
        kernels::add_into(bytemuck::cast_slice_mut(acc), bytemuck::cast_slice(x), w);
    }
}

/// Fewer than fifteen checkers, with the cube: the chance to win and the no-double
/// equities owned, centred and with the opponent owning the cube.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct Cube(pub [f64; 4]);

/// The places of the quantities in [`Cube`].
pub const WIN: usize = 0;
const OWNED: usize = 1;
const CENTRED: usize = 2;
const OPPONENT: usize = 3;

#[inline(always)]
fn max(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

#[inline(always)]
fn min(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// What doubling is worth to the opponent, on roll after the mover's play, where it has
/// access: `min(take, pass)`, the take twice its equity with the mover owning the cube
/// (`owned_by_mover`: its "opponent owns" value), the pass 1.
#[inline(always)]
fn double_worth(owned_by_mover: f64) -> f64 {
    min(2.0 * owned_by_mover, 1.0)
}

/// Each lane the larger of the two.
#[inline(always)]
fn max_lanes(a: &mut [f64], b: &[f64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = max(*x, *y);
    }
}

/// Each lane plus `w` times the other's.
#[inline(always)]
fn add_lanes(a: &mut [f64], b: &[f64], w: f64) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += w * y;
    }
}

impl Values for Cube {
    type Record = [u32; 4];
    const ZERO: Self = Cube([0.0; 4]);
    const NONE: Self = Cube([f64::NEG_INFINITY; 4]);
    #[inline(always)]
    fn after_move(&self) -> Self {
        let v = &self.0;
        // The opponent, on roll, doubles where it has access and gains by it.
        let d = double_worth(v[OPPONENT]);
        Cube([
            1.0 - v[WIN],
            -v[OPPONENT],
            -max(v[CENTRED], d),
            -max(v[OWNED], d),
        ])
    }
    #[inline(always)]
    fn merge(&mut self, x: &Self) {
        max_lanes(&mut self.0, &x.0);
    }
    #[inline(always)]
    fn add(&mut self, x: &Self, w: f64) {
        add_lanes(&mut self.0, &x.0, w);
    }
    fn scaled(&self, s: f64) -> Self {
        Cube(self.0.map(|x| x * s))
    }
    fn won(_: bool) -> Self {
        Cube([1.0; 4])
    }
    fn lost(_: bool) -> Self {
        Cube([0.0, -1.0, -1.0, -1.0])
    }
    fn record(&self) -> [u32; 4] {
        let v = &self.0;
        [
            chance(v[WIN]),
            equity(v[OWNED]),
            equity(v[CENTRED]),
            equity(v[OPPONENT]),
        ]
    }
    fn merge_rows(best: &mut [Self], row: &[Self]) {
        kernels::max_into(bytemuck::cast_slice_mut(best), bytemuck::cast_slice(row));
    }
    fn add_rows(acc: &mut [Self], x: &[Self], w: f64) {
        kernels::add_into(bytemuck::cast_slice_mut(acc), bytemuck::cast_slice(x), w);
    }
}

/// Fifteen checkers, no cube: the cubeless equity (the key a play is chosen by), the
/// chance to win, to win a gammon and to lose one.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct Gammon(pub [f64; 4]);

const EQUITY: usize = 0;
const P_WIN: usize = 1;
const WIN_GAMMON: usize = 2;
const LOSE_GAMMON: usize = 3;

impl Values for Gammon {
    type Record = [u32; 3];
    const ZERO: Self = Gammon([0.0; 4]);
    const NONE: Self = Gammon([f64::NEG_INFINITY; 4]);
    #[inline(always)]
    fn after_move(&self) -> Self {
        let v = &self.0;
        Gammon([-v[EQUITY], 1.0 - v[P_WIN], v[LOSE_GAMMON], v[WIN_GAMMON]])
    }
    #[inline(always)]
    fn merge(&mut self, x: &Self) {
        if x.0[EQUITY] > self.0[EQUITY] {
            *self = *x;
        }
    }
    #[inline(always)]
    fn add(&mut self, x: &Self, w: f64) {
        add_lanes(&mut self.0, &x.0, w);
    }
    fn scaled(&self, s: f64) -> Self {
        Gammon(self.0.map(|x| x * s))
    }
    fn won(opponent_full: bool) -> Self {
        let g = f64::from(u8::from(opponent_full));
        Gammon([1.0 + g, 1.0, g, 0.0])
    }
    fn lost(full: bool) -> Self {
        let g = f64::from(u8::from(full));
        Gammon([-1.0 - g, 0.0, 0.0, g])
    }
    fn record(&self) -> [u32; 3] {
        let v = &self.0;
        [
            chance(v[P_WIN]),
            chance(v[WIN_GAMMON]),
            chance(v[LOSE_GAMMON]),
        ]
    }
}

/// Fifteen checkers, with the cube: [`Gammon`]'s four, then [`CubeEquities`]'s four (the
/// no-double equities owned, centred, centred under the Jacoby rule and with the opponent
/// owning the cube), each part computed as its own type computes it.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct GammonCube(pub [f64; 8]);

impl GammonCube {
    #[inline(always)]
    fn parts(&self) -> (Gammon, CubeEquities) {
        let [a, b, c, d, e, f, g, h] = self.0;
        (Gammon([a, b, c, d]), CubeEquities([e, f, g, h]))
    }

    #[inline(always)]
    fn of(g: Gammon, c: CubeEquities) -> Self {
        let ([a, b, cc, d], [e, f, gg, h]) = (g.0, c.0);
        GammonCube([a, b, cc, d, e, f, gg, h])
    }
}

impl Values for GammonCube {
    type Record = [u32; 7];
    const ZERO: Self = GammonCube([0.0; 8]);
    const NONE: Self = GammonCube([f64::NEG_INFINITY; 8]);
    #[inline(always)]
    fn after_move(&self) -> Self {
        let (g, c) = self.parts();
        GammonCube::of(g.after_move(), c.after_move())
    }
    #[inline(always)]
    fn merge(&mut self, x: &Self) {
        let ((mut g, mut c), (xg, xc)) = (self.parts(), x.parts());
        g.merge(&xg);
        c.merge(&xc);
        *self = GammonCube::of(g, c);
    }
    #[inline(always)]
    fn add(&mut self, x: &Self, w: f64) {
        add_lanes(&mut self.0, &x.0, w);
    }
    fn scaled(&self, s: f64) -> Self {
        GammonCube(self.0.map(|x| x * s))
    }
    fn won(opponent_full: bool) -> Self {
        GammonCube::of(Gammon::won(opponent_full), CubeEquities::won(opponent_full))
    }
    fn lost(full: bool) -> Self {
        GammonCube::of(Gammon::lost(full), CubeEquities::lost(full))
    }
    fn record(&self) -> [u32; 7] {
        let (g, c) = self.parts();
        let ([a, b, cc], [d, e, f, h]) = (g.record(), c.record());
        [a, b, cc, d, e, f, h]
    }
}

/// Fifteen checkers, with the cube, the equities alone: the no-double equities owned,
/// centred, centred under the Jacoby rule and with the opponent owning the cube. What a
/// compact table with gammons keeps (`docs/bearoff.md`, "Compact tables"; its chances are
/// the cubeless table's): each cube state chooses its own plays, so these are
/// [`GammonCube`]'s last four, which it computes as this type.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(transparent)]
pub struct CubeEquities(pub [f64; 4]);

const E_OWNED: usize = 0;
const E_CENTRED: usize = 1;
const E_JACOBY: usize = 2;
const E_OPPONENT: usize = 3;

impl Values for CubeEquities {
    type Record = [u32; 4];
    const ZERO: Self = CubeEquities([0.0; 4]);
    const NONE: Self = CubeEquities([f64::NEG_INFINITY; 4]);
    #[inline(always)]
    fn after_move(&self) -> Self {
        let v = &self.0;
        let d = double_worth(v[E_OPPONENT]);
        CubeEquities([
            -v[E_OPPONENT],
            -max(v[E_CENTRED], d),
            -max(v[E_JACOBY], d),
            -max(v[E_OWNED], d),
        ])
    }
    #[inline(always)]
    fn merge(&mut self, x: &Self) {
        max_lanes(&mut self.0, &x.0);
    }
    #[inline(always)]
    fn add(&mut self, x: &Self, w: f64) {
        add_lanes(&mut self.0, &x.0, w);
    }
    fn scaled(&self, s: f64) -> Self {
        CubeEquities(self.0.map(|x| x * s))
    }
    fn won(opponent_full: bool) -> Self {
        let g = f64::from(u8::from(opponent_full));
        // A gammon counts 1 while the cube is centred under the Jacoby rule.
        CubeEquities([1.0 + g, 1.0 + g, 1.0, 1.0 + g])
    }
    fn lost(full: bool) -> Self {
        let g = f64::from(u8::from(full));
        CubeEquities([-1.0 - g, -1.0 - g, -1.0, -1.0 - g])
    }
    fn record(&self) -> [u32; 4] {
        self.0.map(equity)
    }
}

/// The values as a compact table keeps them (`store::Kind::compact`: the databases too
/// large for `f64` working files, 6×15 and beyond): each quantity as the nearest `f32`,
/// the cubeless equity left out where the chances give it. The build computes in `f64`
/// and reads back what it stored, so the stored value is what the next layers use.
pub trait Compact: Values {
    /// The stored record.
    type Small: bytemuck::Pod + Send + Sync;
    /// The record of these values.
    fn small(&self) -> Self::Small;
    /// The values a record holds.
    fn of_small(s: &Self::Small) -> Self;
}

fn narrow<const K: usize>(v: &[f64]) -> [f32; K] {
    std::array::from_fn(|k| v[k] as f32)
}

fn widen(v: &[f32], out: &mut [f64]) {
    for (o, x) in out.iter_mut().zip(v) {
        *o = f64::from(*x);
    }
}

impl Compact for Win {
    type Small = [f32; 1];
    fn small(&self) -> [f32; 1] {
        [self.0 as f32]
    }
    fn of_small(s: &[f32; 1]) -> Self {
        Win(f64::from(s[0]))
    }
}

impl Compact for Cube {
    type Small = [f32; 4];
    fn small(&self) -> [f32; 4] {
        narrow(&self.0)
    }
    fn of_small(s: &[f32; 4]) -> Self {
        let mut v = [0.0; 4];
        widen(s, &mut v);
        Cube(v)
    }
}

/// The cubeless equity of the chances (a win 1, a gammon 2; no backgammon in a bear-off).
fn gammon_equity(v: &[f64]) -> f64 {
    2.0 * v[P_WIN] - 1.0 + v[WIN_GAMMON] - v[LOSE_GAMMON]
}

impl Compact for Gammon {
    type Small = [f32; 3];
    fn small(&self) -> [f32; 3] {
        narrow(&self.0[P_WIN..])
    }
    fn of_small(s: &[f32; 3]) -> Self {
        let mut v = [0.0; 4];
        widen(s, &mut v[P_WIN..]);
        v[EQUITY] = gammon_equity(&v);
        Gammon(v)
    }
}

impl Compact for GammonCube {
    type Small = [f32; 7];
    fn small(&self) -> [f32; 7] {
        narrow(&self.0[P_WIN..])
    }
    fn of_small(s: &[f32; 7]) -> Self {
        let mut v = [0.0; 8];
        widen(s, &mut v[P_WIN..]);
        v[EQUITY] = gammon_equity(&v);
        GammonCube(v)
    }
}

impl Compact for CubeEquities {
    type Small = [f32; 4];
    fn small(&self) -> [f32; 4] {
        narrow(&self.0)
    }
    fn of_small(s: &[f32; 4]) -> Self {
        let mut v = [0.0; 4];
        widen(s, &mut v);
        CubeEquities(v)
    }
}

/// How many `j` a thread takes at once when reading rows: the rows of a block's plays for
/// this many `j` stay in the core's cache while the block's layers read them.
const CHUNK: usize = 64;

/// Layers solved together: their rows below the block are read in one sweep over `j`, so
/// that the many rows their plays share are read from memory once.
pub(crate) const BLOCK: usize = 32;

/// Solves every pair of the `n` sides whose plays are `succ`; `full[s]`: side `s` has
/// borne off none of its checkers (gammons). Returns the records, `roller · n + opponent`.
///
/// The layers come in blocks `k0..k1`. A block's rows below `k0` are swept first, chunk
/// by chunk of `j` in parallel, from the rows of the plays below `k0` (final before the
/// block); a roll with a play inside the block keeps its partial best apart. Then layer
/// by layer: the kept rolls are completed from the rows made since, the corner `k0..k`
/// is made whole, the row is stored and the column made from it.
pub fn solve<V: Values>(
    succ: &Successors,
    full: &[bool],
    progress: Progress<'_>,
) -> Vec<V::Record> {
    let n = full.len();
    let mut out = vec![V::ZERO.record(); n * n];
    // t[i' * n + j]: what moving to side i' against side j is worth to the mover.
    let mut t = vec![V::ZERO; n * n];
    let mut row = vec![V::ZERO; n];
    out[0] = V::won(false).record();
    t[0] = V::won(false).after_move();
    for j in 1..n {
        // The side on roll has no checker: it has won; the opponent has none: lost.
        let (won, lost) = (V::won(full[j]), V::lost(full[j]));
        out[j] = won.record();
        out[j * n] = lost.record();
        t[j] = lost.after_move();
        t[j * n] = won.after_move();
    }
    progress.start("two-sided", Some((n * n) as u64));
    let mut k0 = 1;
    while k0 < n {
        let k1 = (k0 + BLOCK).min(n);
        let block = Block::new(succ, k0, k1);
        let mut sums = block.sweep(succ, &t, n);
        for k in k0..k1 {
            block.complete(succ, &t, n, k, &mut sums);
            // The row of k: (k, j) for every j < k.
            row[0] = V::lost(full[k]).after_move();
            for j in 1..k {
                let v = if j < k0 {
                    sums[block.at(k, j)].scaled(1.0 / 36.0)
                } else {
                    corner(succ, &t, n, k, j)
                };
                out[k * n + j] = v.record();
                let h = v.after_move();
                row[j] = h;
                t[j * n + k] = h;
            }
            // The column: (j, k) for j in 1..=k, each from k's row at j's plays.
            let column: Vec<V> = (1..k + 1)
                .into_par_iter()
                .with_min_len(64)
                .map(|j| {
                    let mut sum = V::ZERO;
                    for r in 0..21 {
                        let list = succ.of(j, r);
                        let mut best = row[list[0] as usize];
                        for &s in &list[1..] {
                            best.merge(&row[s as usize]);
                        }
                        sum.add(&best, weight(r));
                    }
                    sum.scaled(1.0 / 36.0)
                })
                .collect();
            for (j, v) in (1..=k).zip(&column) {
                out[j * n + k] = v.record();
                t[k * n + j] = v.after_move();
            }
            progress.advance(2 * k as u64);
        }
        k0 = k1;
    }
    progress.finish();
    out
}

/// A block of layers `k0..k1`: which of their rolls have a play inside the block, and
/// where each layer's sums and each kept roll's partial best lie. Sums are kept chunk by
/// chunk of `j` (`1..k0`), each chunk's values together, so that chunks are filled in
/// parallel: chunk `c` holds, for each layer, then for each kept roll, `CHUNK` values.
struct Block {
    k0: usize,
    k1: usize,
    /// The kept rolls: (layer, roll, where its plays inside the block start).
    kept: Vec<(usize, usize, usize)>,
    /// Per layer and roll: its index in `kept`, or `usize::MAX`.
    kept_at: Vec<usize>,
}

impl Block {
    fn new(succ: &Successors, k0: usize, k1: usize) -> Block {
        let mut kept = Vec::new();
        let mut kept_at = vec![usize::MAX; (k1 - k0) * 21];
        for k in k0..k1 {
            for r in 0..21 {
                let list = succ.of(k, r);
                let split = list.partition_point(|&s| (s as usize) < k0);
                if split < list.len() {
                    kept_at[(k - k0) * 21 + r] = kept.len();
                    kept.push((k, r, split));
                }
            }
        }
        Block {
            k0,
            k1,
            kept,
            kept_at,
        }
    }

    /// Values a chunk holds.
    fn stride(&self) -> usize {
        (self.k1 - self.k0 + self.kept.len()) * CHUNK
    }

    /// Where layer `k`'s sum at `j` (< k0) lies.
    fn at(&self, k: usize, j: usize) -> usize {
        let (c, jj) = ((j - 1) / CHUNK, (j - 1) % CHUNK);
        c * self.stride() + (k - self.k0) * CHUNK + jj
    }

    /// The sweep below `k0`: every layer's sums over its rolls without a play in the
    /// block, and the kept rolls' partial bests, in 36ths.
    fn sweep<V: Values>(&self, succ: &Successors, t: &[V], n: usize) -> Vec<V> {
        let j_count = self.k0 - 1;
        let chunks = j_count.div_ceil(CHUNK);
        let mut sums = vec![V::ZERO; chunks * self.stride()];
        if chunks == 0 {
            return sums;
        }
        sums.par_chunks_mut(self.stride())
            .enumerate()
            .for_each_init(
                || vec![V::ZERO; CHUNK],
                |best, (c, region)| {
                    let j0 = 1 + c * CHUNK;
                    let len = CHUNK.min(self.k0 - j0);
                    let best = &mut best[..len];
                    for k in self.k0..self.k1 {
                        let acc = &mut region[(k - self.k0) * CHUNK..][..len];
                        for r in 0..21 {
                            let list = succ.of(k, r);
                            let d = self.kept_at[(k - self.k0) * 21 + r];
                            let below = if d == usize::MAX {
                                list
                            } else {
                                &list[..self.kept[d].2]
                            };
                            best.fill(V::NONE);
                            for &s in below {
                                let at = s as usize * n + j0;
                                V::merge_rows(best, &t[at..at + len]);
                            }
                            if d == usize::MAX {
                                V::add_rows(acc, best, weight(r));
                            }
                        }
                    }
                    // The kept rolls' partial bests, after the layers' sums.
                    for (d, &(k, r, split)) in self.kept.iter().enumerate() {
                        let list = &succ.of(k, r)[..split];
                        let part = &mut region[(self.k1 - self.k0 + d) * CHUNK..][..len];
                        part.fill(V::NONE);
                        for &s in list {
                            let at = s as usize * n + j0;
                            V::merge_rows(part, &t[at..at + len]);
                        }
                    }
                },
            );
        sums
    }

    /// Completes layer `k`'s kept rolls below `k0` with their plays inside the block
    /// (rows made since the sweep) and adds them to its sums.
    fn complete<V: Values>(&self, succ: &Successors, t: &[V], n: usize, k: usize, sums: &mut [V]) {
        let mine: Vec<(usize, usize, usize)> = self
            .kept
            .iter()
            .enumerate()
            .filter(|(_, &(kk, _, _))| kk == k)
            .map(|(d, &(_, r, split))| (d, r, split))
            .collect();
        if mine.is_empty() || self.k0 == 1 {
            return;
        }
        let stride = self.stride();
        let (k0, k1) = (self.k0, self.k1);
        sums.par_chunks_mut(stride)
            .enumerate()
            .for_each(|(c, region)| {
                let j0 = 1 + c * CHUNK;
                let len = CHUNK.min(k0 - j0);
                for &(d, r, split) in &mine {
                    let w = weight(r);
                    let list = &succ.of(k, r)[split..];
                    for jj in 0..len {
                        let mut best = region[(k1 - k0 + d) * CHUNK + jj];
                        for &s in list {
                            best.merge(&t[s as usize * n + j0 + jj]);
                        }
                        region[(k - k0) * CHUNK + jj].add(&best, w);
                    }
                }
            });
    }
}

/// Layer `k`'s value at `j` inside its block (`k0 <= j < k`), from every play's row.
fn corner<V: Values>(succ: &Successors, t: &[V], n: usize, k: usize, j: usize) -> V {
    let mut sum = V::ZERO;
    for r in 0..21 {
        let mut best = V::NONE;
        for &s in succ.of(k, r) {
            best.merge(&t[s as usize * n + j]);
        }
        sum.add(&best, weight(r));
    }
    sum.scaled(1.0 / 36.0)
}

#[cfg(test)]
mod tests {
    use super::super::index::BearoffIndex;
    use super::super::sides::{Sides, ROLLS};
    use super::*;
    use std::collections::HashMap;

    /// The plain recursion of the test: a pair's value from its plays, with memo; the
    /// cube written out again from `docs/gammon.md` on the four states.
    struct Plain<'a> {
        sides: &'a Sides,
        full: Vec<bool>,
        memo: HashMap<(u32, u32), [f64; 8]>,
    }

    impl Plain<'_> {
        /// [equity, win, win gammon, lose gammon, owned, centred, Jacoby, opponent owns].
        fn value(&mut self, i: u32, j: u32) -> [f64; 8] {
            let g = |b: bool| f64::from(u8::from(b));
            if i == 0 {
                let w = 1.0 + g(self.full[j as usize]);
                return [w, 1.0, w - 1.0, 0.0, w, w, 1.0, w];
            }
            if j == 0 {
                let l = 1.0 + g(self.full[i as usize]);
                return [-l, 0.0, 0.0, l - 1.0, -l, -l, -1.0, -l];
            }
            if let Some(v) = self.memo.get(&(i, j)) {
                return *v;
            }
            let mut total = [0.0; 8];
            let mut plays = Vec::new();
            for k in 0..ROLLS.len() {
                self.sides.plays_into(i, k, &mut plays);
                plays.sort_unstable();
                let mut best: Option<[f64; 8]> = None;
                for &p in &plays.clone() {
                    let o = self.value(j, p);
                    // The opponent on roll decides on the cube first.
                    let dt = (2.0 * o[7]).min(1.0);
                    let mine = [
                        -o[0],
                        1.0 - o[1],
                        o[3],
                        o[2],
                        -o[7],
                        -o[5].max(dt),
                        -o[6].max(dt),
                        -o[4].max(dt),
                    ];
                    best = Some(match best {
                        None => mine,
                        Some(mut b) => {
                            if mine[0] > b[0] {
                                b[..4].copy_from_slice(&mine[..4]);
                            }
                            for s in 4..8 {
                                b[s] = b[s].max(mine[s]);
                            }
                            b
                        }
                    });
                }
                for (t, b) in total.iter_mut().zip(best.unwrap()) {
                    *t += weight(k) * b / 36.0;
                }
            }
            self.memo.insert((i, j), total);
            total
        }
    }

    fn full_of(index: &BearoffIndex) -> Vec<bool> {
        (0..index.sides())
            .map(|s| {
                index
                    .side(s)
                    .unwrap()
                    .iter()
                    .map(|&c| usize::from(c))
                    .sum::<usize>()
                    == crate::gammon::bearoff::index::MAX_CHECKERS
            })
            .collect()
    }

    #[test]
    fn every_cubeful_value_of_4x4_agrees_with_the_plain_recursion() {
        let index = BearoffIndex::new(4, 4).unwrap();
        let sides = Sides::new(&index);
        let succ = Successors::new(&sides);
        let full = vec![false; index.sides() as usize];
        let solved = solve::<Cube>(&succ, &full, Progress::SILENT);
        let n = index.sides() as usize;
        let mut plain = Plain {
            sides: &sides,
            full: full.clone(),
            memo: HashMap::new(),
        };
        for i in 1..n {
            for j in 1..n {
                let v = plain.value(i as u32, j as u32);
                let want = [chance(v[1]), equity(v[4]), equity(v[5]), equity(v[7])];
                let got = solved[i * n + j];
                for q in 0..4 {
                    assert!(
                        got[q].abs_diff(want[q]) <= 1,
                        "({i}, {j}) {q}: {got:?} {want:?}"
                    );
                }
                // The win chance is the cubeless equity's: no gammons below 15 checkers.
                assert!((2.0 * v[1] - 1.0 - v[0]).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn every_gammon_value_of_2x15_agrees_with_the_plain_recursion() {
        let index = BearoffIndex::new(2, 15).unwrap();
        let sides = Sides::new(&index);
        let succ = Successors::new(&sides);
        let full = full_of(&index);
        let solved = solve::<GammonCube>(&succ, &full, Progress::SILENT);
        let cubeless = solve::<Gammon>(&succ, &full, Progress::SILENT);
        // The cube's equities solved alone are the same numbers.
        let equities = solve::<CubeEquities>(&succ, &full, Progress::SILENT);
        let n = index.sides() as usize;
        let mut plain = Plain {
            sides: &sides,
            full,
            memo: HashMap::new(),
        };
        let mut gammons = 0;
        for i in 1..n {
            for j in 1..n {
                let v = plain.value(i as u32, j as u32);
                let want = [
                    chance(v[1]),
                    chance(v[2]),
                    chance(v[3]),
                    equity(v[4]),
                    equity(v[5]),
                    equity(v[6]),
                    equity(v[7]),
                ];
                let got = solved[i * n + j];
                for q in 0..7 {
                    assert!(
                        got[q].abs_diff(want[q]) <= 1,
                        "({i}, {j}) {q}: {got:?} {want:?}"
                    );
                }
                assert_eq!(&cubeless[i * n + j][..], &got[..3]);
                assert_eq!(&equities[i * n + j][..], &got[3..]);
                gammons += usize::from(got[1] > 0 || got[2] > 0);
            }
        }
        assert!(gammons > 200, "{gammons}");
    }

    #[test]
    fn the_values_do_not_depend_on_the_thread_count() {
        let index = BearoffIndex::new(5, 5).unwrap();
        let sides = Sides::new(&index);
        let succ = Successors::new(&sides);
        let full = vec![false; index.sides() as usize];
        let many = solve::<Cube>(&succ, &full, Progress::SILENT);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let one = pool.install(|| solve::<Cube>(&succ, &full, Progress::SILENT));
        assert!(many == one);
    }
}
