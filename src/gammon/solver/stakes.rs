//! What a game is played for, as the cube solver ([`super::cube`]) sees it: the value of
//! a game's ends, and what the opponent's turn (with its cube decision) leaves the side
//! that moved. One solver serves money play and match play (`docs/gammon.md`, "The cube
//! in the solver" and "Match play"); they differ only here.
//!
//! A state's value is `N` numbers, one per *component*: a cube state as the side on roll
//! sees it (and, at a match score, which side needs which score). Money play has four
//! components and is its own special case of the match game: its game-over values are the
//! points won, and its cube states at value 2 are those at value 1 doubled, so a double
//! leads back into the same four components ([`Money`]). At a match score the game-over
//! values are match equities and a double leads to the next cube level, solved before
//! (`super::score`).

use super::cube_pair;
use super::sweep::{Quad, Slot};
use crate::gammon::cube::{after_move, CENTRED, JACOBY, OPPONENT, OWNED};

/// The stakes of a solve with `N` values a state.
pub(crate) trait Stakes<const N: usize>: Sync {
    /// A state's `N` values as the sweep's threads share them.
    type Slot: Slot<Value = [f64; N]>;

    /// The component whose first best play a full sweep records (see `super::cube`).
    const KEY: usize;

    /// A bound on how much further a play's value can move than the values it reads,
    /// times two (the two plays compared): 4 when a take doubles the stake (money
    /// play), 2 when it does not.
    const SPREAD: f64;

    /// Whether the sweeps are compiled for each common roll count (faster loops over the
    /// rolls, one more copy of the sweeps each).
    const UNROLL: bool = true;

    /// Per component, the value of a game won by 1, 2 and 3 points (times the cube) to
    /// the side that lost it.
    fn lost(&self) -> [[f64; N]; 3];

    /// What the side that moved into solver position `t` gets, per component, from the
    /// opponent's no-double values `v` there (the opponent, on roll, first decides on
    /// the cube).
    fn after(&self, t: usize, v: [f64; N]) -> [f64; N];

    /// Per component, how far every value may move (each by less than that) with the
    /// value [`Stakes::after`] gives at `t` staying exactly what it is now, from the
    /// opponent's values `v` there; 0 where it may change at once. It stays where the
    /// opponent's double is passed and the pass's value is fixed: doubling then brings
    /// the opponent exactly what a pass concedes.
    fn pinned(&self, t: usize, v: [f64; N]) -> [f64; N];

    /// The value of solver position `s` in its pass pair with `t` (see
    /// [`cube_pair`]): `a_s`, `a_t` the parts from the rolls that move, `p_s`, `p_t`
    /// the chances that each passes, `old` the value of `s` before.
    #[allow(clippy::too_many_arguments)]
    fn pair(
        &self,
        s: usize,
        t: usize,
        a_s: [f64; N],
        a_t: [f64; N],
        p_s: f64,
        p_t: f64,
        old: [f64; N],
    ) -> [f64; N];
}

/// Money play: the cube's value taken as 1, the four no-double equities of
/// [`crate::gammon::CubeState`]; a game won scores its points (1 under the Jacoby rule
/// while the cube is centred), a double taken plays on at twice the stake with the
/// taker owning the cube, a double passed concedes 1.
pub(crate) struct Money;

impl Stakes<4> for Money {
    type Slot = Quad;
    const KEY: usize = CENTRED;
    const SPREAD: f64 = 4.0;

    fn lost(&self) -> [[f64; 4]; 3] {
        std::array::from_fn(|k| {
            let points = (k + 1) as f64;
            // Seen from the loser; under Jacoby a gammon counts 1.
            [-points, -points, -1.0, -points]
        })
    }

    #[inline(always)]
    fn after(&self, _t: usize, v: [f64; 4]) -> [f64; 4] {
        after_move(v)
    }

    fn pinned(&self, _t: usize, v: [f64; 4]) -> [f64; 4] {
        // Doubled out: the opponent's double is passed (2 X ≥ 1, X its value when the
        // mover owns the cube) and better for it than not doubling (its no-double value
        // below 1): the mover gets exactly -1.
        let passed = v[OPPONENT] - 0.5;
        let pin = |nd: f64| passed.min(1.0 - nd).max(0.0);
        let mut out = [0.0; 4];
        out[CENTRED] = pin(v[CENTRED]);
        out[JACOBY] = pin(v[JACOBY]);
        out[OPPONENT] = pin(v[OWNED]);
        out
    }

    #[inline]
    fn pair(
        &self,
        _s: usize,
        _t: usize,
        a_s: [f64; 4],
        a_t: [f64; 4],
        p_s: f64,
        p_t: f64,
        old: [f64; 4],
    ) -> [f64; 4] {
        cube_pair::solve(a_s, a_t, p_s, p_t, old)
    }
}
