//! A pass pair with the cube: a board and the same board with the other side on roll,
//! each reached from the other by a roll without a legal move. Their values are
//!
//! ```text
//! N_s = a_s + p_s · after_move(N_t),    N_t = a_t + p_t · after_move(N_s)
//! ```
//!
//! with `a` the part from the rolls that move and `p` the chance of a roll that passes
//! (see [`after_move`]). A sweep that read the partner's value as it stood before would
//! shrink the pair's error only by `2 p` a sweep, where the side on roll doubles and the
//! other takes (NikoNiko's pairs that pass on 4 rolls in 9: 0.89, the whole iteration's
//! pace). Like the cubeless pairs, they are solved together, exactly.
//!
//! `after_move` is linear once each side's cube decision is fixed (no double, double and
//! take, double and pass), so the pair's equations are: guess the decisions, solve the
//! linear equations they give, and take the decisions the solution implies, until they
//! stand (at most [`ROUNDS`] times; then, in a cycle at a near tie, every combination is
//! tried and the one whose solution fits its own equations best is kept).
//!
//! The owned and the opponent-owns values hold each other up alone (the owner's
//! redouble); the centred and the Jacoby values then follow, each on its own, from the
//! redouble values they imply.
//!
//! Most pairs (about half of NikoNiko's solves) have no double anywhere at
//! their solution; there every value solves alone in closed form, which is tried first
//! and kept where it implies no double.

use crate::gammon::cube::{
    after_move, doubled, with_cube_access, CENTRED, JACOBY, OPPONENT, OWNED,
};

/// Rounds of guessing the decisions before every combination is tried.
const ROUNDS: usize = 4;

/// What the side on roll does with cube access, given its no-double equity `nd` there
/// and its no-double equity `x` when the other side owns the cube (as
/// [`crate::gammon::cube::with_cube_access`] decides it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Decision {
    NoDouble,
    Take,
    Pass,
}

impl Decision {
    const ALL: [Decision; 3] = [Decision::NoDouble, Decision::Take, Decision::Pass];

    fn of(nd: f64, x: f64) -> Decision {
        if nd >= doubled(x) {
            Decision::NoDouble
        } else if 2.0 * x <= 1.0 {
            Decision::Take
        } else {
            Decision::Pass
        }
    }
}

/// The value of `s` in the pair `(s, t)`: `a_s`, `a_t` the moving parts, `p_s`, `p_t`
/// the chances that each passes; `old`, the value of `s` before, makes the first guess
/// at the decisions (right nearly always once the values settle).
pub fn solve(a_s: [f64; 4], a_t: [f64; 4], p_s: f64, p_t: f64, old: [f64; 4]) -> [f64; 4] {
    if p_s == 0.0 {
        return a_s;
    }
    if p_t == 0.0 {
        return add(a_s, p_s, after_move(a_t));
    }
    if p_s == 1.0 && p_t == 1.0 {
        // Neither side can ever move: the game never ends, and no one gains by doubling.
        return [0.0; 4];
    }
    // Most often neither side doubles, nor redoubles: each value then solves alone,
    // `N_s = (a_s - p_s a_t') / (1 - p_s p_t)` with `a_t'` the owned and opponent-owns
    // parts swapped. That holds where no side would double at the solution.
    let inv = 1.0 / (1.0 - p_s * p_t);
    let alone = |a: [f64; 4], p: f64, b: [f64; 4]| -> [f64; 4] {
        let b = [b[OPPONENT], b[CENTRED], b[JACOBY], b[OWNED]];
        std::array::from_fn(|j| (a[j] - p * b[j]) * inv)
    };
    let (n_s, n_t) = (alone(a_s, p_s, a_t), alone(a_t, p_t, a_s));
    let holds = |n: [f64; 4]| {
        let d = doubled(n[OPPONENT]);
        n[OWNED] >= d && n[CENTRED] >= d && n[JACOBY] >= d
    };
    if holds(n_s) && holds(n_t) {
        return n_s;
    }
    // t as one step of the pair's equations from s as it was.
    let guess_t = add(a_t, p_t, after_move(old));
    let guess = (
        Decision::of(old[OWNED], old[OPPONENT]),
        Decision::of(guess_t[OWNED], guess_t[OPPONENT]),
    );
    let ([o_s, x_s], [_, x_t]) = redoubles(a_s, a_t, p_s, p_t, guess);
    let (d_s, d_t) = (doubled(x_s), doubled(x_t));
    let mut n = [0.0; 4];
    n[OWNED] = o_s;
    n[OPPONENT] = x_s;
    for j in [CENTRED, JACOBY] {
        let guess = (d_s > old[j], d_t > guess_t[j]);
        n[j] = centred(a_s[j], a_t[j], p_s, p_t, d_s, d_t, guess);
    }
    n
}

/// `a + p · m`, component by component.
fn add(a: [f64; 4], p: f64, m: [f64; 4]) -> [f64; 4] {
    std::array::from_fn(|j| a[j] + p * m[j])
}

/// The owned and opponent-owns values `[O, X]` of `s` and of `t`:
///
/// ```text
/// O_s = aO_s - p_s X_t          X_s = aX_s - p_s max(O_t, min(2 X_t, 1))
/// ```
///
/// and the same with `s` and `t` swapped.
fn redoubles(
    a_s: [f64; 4],
    a_t: [f64; 4],
    p_s: f64,
    p_t: f64,
    guess: (Decision, Decision),
) -> ([f64; 2], [f64; 2]) {
    let solve_for = |m_s: Decision, m_t: Decision| -> Option<([f64; 2], [f64; 2])> {
        // The redoubler's value in decision m, as α + b·X_own + c·X_other.
        let linear = |m: Decision, a_own: [f64; 4], p_own: f64| match m {
            Decision::NoDouble => (a_own[OWNED], 0.0, -p_own),
            Decision::Take => (0.0, 2.0, 0.0),
            Decision::Pass => (1.0, 0.0, 0.0),
        };
        let (al_s, b_s, c_s) = linear(m_s, a_s, p_s);
        let (al_t, b_t, c_t) = linear(m_t, a_t, p_t);
        // X_s = aX_s - p_s (al_t + b_t X_t + c_t X_s), and the same for t.
        let (m11, m12, r1) = (1.0 + p_s * c_t, p_s * b_t, a_s[OPPONENT] - p_s * al_t);
        let (m21, m22, r2) = (p_t * b_s, 1.0 + p_t * c_s, a_t[OPPONENT] - p_t * al_s);
        let det = m11 * m22 - m12 * m21;
        if det == 0.0 {
            return None;
        }
        let x_s = (r1 * m22 - m12 * r2) / det;
        let x_t = (m11 * r2 - r1 * m21) / det;
        let o_s = a_s[OWNED] - p_s * x_t;
        let o_t = a_t[OWNED] - p_t * x_s;
        Some(([o_s, x_s], [o_t, x_t]))
    };
    // The residual of the pair's own equations at a candidate.
    let misfit = |([o_s, x_s], [o_t, x_t]): ([f64; 2], [f64; 2])| -> f64 {
        [
            o_s - (a_s[OWNED] - p_s * x_t),
            x_s - (a_s[OPPONENT] - p_s * with_cube_access(o_t, x_t)),
            o_t - (a_t[OWNED] - p_t * x_s),
            x_t - (a_t[OPPONENT] - p_t * with_cube_access(o_s, x_s)),
        ]
        .iter()
        .fold(0.0, |m, r| m.max(r.abs()))
    };
    let (mut m_s, mut m_t) = guess;
    for _ in 0..ROUNDS {
        if let Some(v @ ([o_s, x_s], [o_t, x_t])) = solve_for(m_s, m_t) {
            let now = (Decision::of(o_s, x_s), Decision::of(o_t, x_t));
            if now == (m_s, m_t) {
                return v;
            }
            (m_s, m_t) = now;
        }
    }
    Decision::ALL
        .iter()
        .flat_map(|&m_s| Decision::ALL.iter().map(move |&m_t| (m_s, m_t)))
        .filter_map(|(m_s, m_t)| solve_for(m_s, m_t))
        .map(|v| (misfit(v), v))
        .fold(None, |best: Option<(f64, _)>, (f, v)| match best {
            Some((g, _)) if g <= f => best,
            _ => Some((f, v)),
        })
        .map_or(([0.0; 2], [0.0; 2]), |(_, v)| v)
}

/// The centred (or Jacoby) value `C_s` given each side's value in doubling, `d_s` and
/// `d_t` (`min(2 X, 1)`):
///
/// ```text
/// C_s = a_s - p_s max(C_t, d_t),    C_t = a_t - p_t max(C_s, d_s)
/// ```
fn centred(a_s: f64, a_t: f64, p_s: f64, p_t: f64, d_s: f64, d_t: f64, guess: (bool, bool)) -> f64 {
    // Each side's choice: whether it doubles.
    let solve_for = |dbl_s: bool, dbl_t: bool| -> (f64, f64) {
        match (dbl_s, dbl_t) {
            (false, false) => {
                let den = 1.0 - p_s * p_t;
                ((a_s - p_s * a_t) / den, (a_t - p_t * a_s) / den)
            }
            (_, true) => {
                let c_s = a_s - p_s * d_t;
                (c_s, a_t - p_t * if dbl_s { d_s } else { c_s })
            }
            (true, false) => {
                let c_t = a_t - p_t * d_s;
                (a_s - p_s * c_t, c_t)
            }
        }
    };
    let (mut dbl_s, mut dbl_t) = guess;
    for _ in 0..ROUNDS {
        let (c_s, c_t) = solve_for(dbl_s, dbl_t);
        let now = (d_s > c_s, d_t > c_t);
        if now == (dbl_s, dbl_t) {
            return c_s;
        }
        (dbl_s, dbl_t) = now;
    }
    let misfit = |(c_s, c_t): (f64, f64)| {
        (c_s - (a_s - p_s * c_t.max(d_t)))
            .abs()
            .max((c_t - (a_t - p_t * c_s.max(d_s))).abs())
    };
    [(false, false), (false, true), (true, false), (true, true)]
        .iter()
        .map(|&(x, y)| solve_for(x, y))
        .fold((f64::INFINITY, 0.0), |(best, c), v| {
            let f = misfit(v);
            if f < best {
                (f, v.0)
            } else {
                (best, c)
            }
        })
        .1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pair's equations, iterated from zero until they settle (both chances to pass
    /// small enough that they do).
    fn iterated(a_s: [f64; 4], a_t: [f64; 4], p_s: f64, p_t: f64) -> [f64; 4] {
        let (mut n_s, mut n_t) = ([0.0; 4], [0.0; 4]);
        for _ in 0..5000 {
            let s = add(a_s, p_s, after_move(n_t));
            let t = add(a_t, p_t, after_move(n_s));
            (n_s, n_t) = (s, t);
        }
        n_s
    }

    fn close(a: [f64; 4], b: [f64; 4]) {
        for j in 0..4 {
            assert!((a[j] - b[j]).abs() < 1e-12, "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn the_joint_solution_is_the_limit_of_the_pairs_own_iteration() {
        // Moving parts over a grid of cube situations, pass chances up to 4/9.
        let parts = [-0.9, -0.4, -0.05, 0.0, 0.2, 0.35, 0.6];
        let mut cases = 0;
        for &o in &parts {
            for &x in &parts {
                for &c in &parts {
                    for &(p_s, p_t) in
                        &[(1.0 / 9.0, 4.0 / 9.0), (4.0 / 9.0, 4.0 / 9.0), (0.25, 0.1)]
                    {
                        let a_s = [o, c, c - 0.05, x];
                        let a_t = [x * 0.5, -c, 0.1 - c, o * 0.5];
                        let want = iterated(a_s, a_t, p_s, p_t);
                        close(solve(a_s, a_t, p_s, p_t, [0.0; 4]), want);
                        // Any first guess leads to the same solution.
                        close(solve(a_s, a_t, p_s, p_t, want), want);
                        close(solve(a_s, a_t, p_s, p_t, [1.0, -1.0, 0.5, 0.9]), want);
                        cases += 1;
                    }
                }
            }
        }
        assert_eq!(cases, 7 * 7 * 7 * 3);
    }

    #[test]
    fn a_side_that_never_passes_leaves_the_other_one_equation() {
        let a_s = [0.3, 0.2, 0.1, 0.0];
        let a_t = [0.5, 0.45, 0.4, 0.3];
        // t never passes: s reads t's moving part, as the opponent decides on the cube.
        let n = solve(a_s, a_t, 4.0 / 9.0, 0.0, [0.0; 4]);
        close(n, add(a_s, 4.0 / 9.0, after_move(a_t)));
        // s never passes: its value is its moving part.
        close(solve(a_s, a_t, 0.0, 4.0 / 9.0, [0.0; 4]), a_s);
    }

    #[test]
    fn a_board_where_neither_side_can_move_is_worth_nothing() {
        assert_eq!(solve([0.0; 4], [0.0; 4], 1.0, 1.0, [0.0; 4]), [0.0; 4]);
    }
}
