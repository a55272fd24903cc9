//! The doubling cube, money play (`docs/gammon.md`, "The doubling cube"): its states,
//! the values a table keeps per position, the rules of a double, and the decision they
//! lead to. The solver (`solver::cube`), the tables, the queries and the game all speak
//! this one vocabulary.
//!
//! ```
//! use tabula::gammon::cube::{decide, CubeDecision, CubeState, Cubeful};
//!
//! // Not doubling is worth 0.6 to the side on roll; doubled and taken, the opponent
//! // would own the cube at twice the stake, where the side on roll has 0.45 a unit.
//! let c = Cubeful { owned: 0.7, centred: 0.6, centred_jacoby: 0.55, opponent_owns: 0.45 };
//! assert_eq!(c[CubeState::Centred], 0.6);
//! let verdict = decide(&c, CubeState::Centred);
//! // Doubled and taken: 2 × 0.45 = 0.9 > 0.6, and 0.9 ≤ 1, so the opponent takes.
//! assert_eq!(verdict.action, Some(CubeDecision::DoubleTake));
//! assert_eq!(decide(&c, CubeState::OpponentOwns).action, None);
//! ```

use serde::{Serialize, Serializer};
use std::fmt;
use std::ops::Index;

/// Where the cube is, seen from the side on roll, with the cube's value taken as 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum CubeState {
    /// The side on roll owns the cube: only it may double.
    Owned = 0,
    /// The cube is in the centre: either side may double.
    Centred = 1,
    /// In the centre, under the Jacoby rule: gammons count 1 until the cube is turned.
    CentredJacoby = 2,
    /// The opponent owns the cube: the side on roll cannot double.
    OpponentOwns = 3,
}

impl CubeState {
    /// The four states, in the order of their index.
    pub const ALL: [CubeState; 4] = [
        CubeState::Owned,
        CubeState::Centred,
        CubeState::CentredJacoby,
        CubeState::OpponentOwns,
    ];

    /// Its place in a value of four (`[f64; 4]`, [`Cubeful::to_array`]).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the side on roll may double.
    pub const fn has_access(self) -> bool {
        !matches!(self, CubeState::OpponentOwns)
    }

    /// The same cube seen by the other side.
    pub const fn seen_by_opponent(self) -> CubeState {
        match self {
            CubeState::Owned => CubeState::OpponentOwns,
            CubeState::OpponentOwns => CubeState::Owned,
            centred => centred,
        }
    }

    /// Its name on the command line and in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            CubeState::Owned => "owned",
            CubeState::Centred => "centred",
            CubeState::CentredJacoby => "centred_jacoby",
            CubeState::OpponentOwns => "opponent_owns",
        }
    }
}

impl fmt::Display for CubeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CubeState::Owned => "owned",
            CubeState::Centred => "centred",
            CubeState::CentredJacoby => "centred, Jacoby",
            CubeState::OpponentOwns => "opponent owns",
        })
    }
}

/// Index of [`CubeState::Owned`] in a value of four (for the solver's hot loops).
pub(crate) const OWNED: usize = CubeState::Owned.index();
/// Index of [`CubeState::Centred`].
pub(crate) const CENTRED: usize = CubeState::Centred.index();
/// Index of [`CubeState::CentredJacoby`].
pub(crate) const JACOBY: usize = CubeState::CentredJacoby.index();
/// Index of [`CubeState::OpponentOwns`].
pub(crate) const OPPONENT: usize = CubeState::OpponentOwns.index();

/// The no-double equities of one position for the side on roll, one per cube state:
/// "I do not double now, then I roll and play my best for that cube state".
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Cubeful {
    /// The side on roll owns the cube.
    pub owned: f64,
    /// The cube is centred.
    pub centred: f64,
    /// Centred, under the Jacoby rule.
    pub centred_jacoby: f64,
    /// The opponent owns the cube.
    pub opponent_owns: f64,
}

impl Cubeful {
    /// From a value of four, indexed by [`CubeState::index`].
    pub fn from_array(v: [f64; 4]) -> Cubeful {
        Cubeful {
            owned: v[OWNED],
            centred: v[CENTRED],
            centred_jacoby: v[JACOBY],
            opponent_owns: v[OPPONENT],
        }
    }

    /// As a value of four, indexed by [`CubeState::index`].
    pub fn to_array(&self) -> [f64; 4] {
        let mut v = [0.0; 4];
        for s in CubeState::ALL {
            v[s.index()] = self[s];
        }
        v
    }

    /// What the side that has just moved into this position (the opponent on roll, these
    /// its values) gets, per cube state of its own: the opponent first decides on the
    /// cube (see [`after_move`]).
    pub fn after_move(&self) -> Cubeful {
        Cubeful::from_array(after_move(self.to_array()))
    }
}

impl Index<CubeState> for Cubeful {
    type Output = f64;

    fn index(&self, s: CubeState) -> &f64 {
        match s {
            CubeState::Owned => &self.owned,
            CubeState::Centred => &self.centred,
            CubeState::CentredJacoby => &self.centred_jacoby,
            CubeState::OpponentOwns => &self.opponent_owns,
        }
    }
}

/// What doubling brings the side about to roll whose no-double equity when the other
/// side owns the cube is `x`: a take plays on at twice the stake, a pass concedes 1.
#[inline(always)]
pub fn doubled(x: f64) -> f64 {
    (2.0 * x).min(1.0)
}

/// The value of a position to the side about to roll in a cube state where it may double
/// (`nd`, its no-double equity there), given `x`, its no-double equity when the other
/// side owns the cube: it doubles when `min(2x, 1) > nd`, and the other side takes or
/// passes, whichever costs it less.
#[inline]
pub fn with_cube_access(nd: f64, x: f64) -> f64 {
    nd.max(doubled(x))
}

/// What the side that just moved gets from the opponent's no-double values `t` (the
/// opponent's own view), per cube state of the mover: the opponent, on roll, doubles
/// where it has access and gains by it. Cube states as the opponent sees them: the mover
/// owns → the opponent's "opponent owns"; centred → centred; Jacoby → Jacoby; the
/// opponent owns → it owns. (Written without branches: the sweeps evaluate it for every
/// play.)
#[inline(always)]
pub fn after_move(t: [f64; 4]) -> [f64; 4] {
    let d = doubled(t[OPPONENT]);
    let mut out = [0.0; 4];
    out[OWNED] = -t[OPPONENT];
    out[CENTRED] = -t[CENTRED].max(d);
    out[JACOBY] = -t[JACOBY].max(d);
    out[OPPONENT] = -t[OWNED].max(d);
    out
}

/// The cube decision of the side on roll that may double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CubeDecision {
    /// Not doubling is better, and the game is not won enough to play on for a gammon.
    NoDouble,
    /// Doubling is better, and the opponent's best answer is to take.
    DoubleTake,
    /// Doubling is better, and the opponent's best answer is to pass.
    DoublePass,
    /// Not doubling is better because the side on roll expects more than the opponent's
    /// pass would give it: it plays on for the gammon.
    TooGood,
}

impl CubeDecision {
    /// As backgammon players say it: `no double`, `double, take`, `double, pass`,
    /// `too good`.
    pub const fn text(self) -> &'static str {
        match self {
            CubeDecision::NoDouble => "no double",
            CubeDecision::DoubleTake => "double, take",
            CubeDecision::DoublePass => "double, pass",
            CubeDecision::TooGood => "too good",
        }
    }

    /// Whether the side on roll doubles.
    pub const fn doubles(self) -> bool {
        matches!(self, CubeDecision::DoubleTake | CubeDecision::DoublePass)
    }
}

impl fmt::Display for CubeDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl Serialize for CubeDecision {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}

/// The side on roll's cube decision in one cube state, with the equities behind it (as
/// gnubg shows them).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CubeAction {
    /// The decision; none when the side on roll has no access to the cube.
    pub action: Option<CubeDecision>,
    /// The cube state decided for.
    pub state: CubeState,
    /// Equity if it does not double: its no-double equity in that state.
    pub no_double: f64,
    /// Equity if it doubles and is taken: twice its equity with the opponent owning.
    pub double_take: f64,
    /// Equity if it doubles and the opponent passes: 1.
    pub double_pass: f64,
    /// The opponent's proper answer to a double: `take` when taking costs it no more
    /// than passing (double/take ≤ double/pass), else `pass`; none without access.
    pub response: Option<Response>,
    /// The verdict as gnubg words it: `No double, take`, `Double, pass`, `Too good to
    /// redouble, pass` … (a redouble when the side on roll owns the cube); none without
    /// access.
    pub proper: Option<Proper>,
    /// How far past the doubling point the position is: min(double/take, double/pass)
    /// − no double (positive: doubling gains that much; negative: it costs that much).
    pub doubling_margin: f64,
    /// How far the opponent is from its take point: double/pass − double/take
    /// (positive: taking saves it that much; negative: it should pass).
    pub take_margin: f64,
}

/// The proper cube action as gnubg words it: the decision of the side on roll (a
/// redouble when it owns the cube) and the opponent's proper answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Proper {
    /// The side on roll's decision.
    pub decision: CubeDecision,
    /// The opponent's answer to a double.
    pub response: Response,
    /// The cube is the side on roll's own: a redouble.
    pub redouble: bool,
}

impl fmt::Display for Proper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (re, big) = if self.redouble {
            ("re", "Redouble")
        } else {
            ("", "Double")
        };
        match self.decision {
            CubeDecision::NoDouble => write!(f, "No {re}double"),
            CubeDecision::DoubleTake | CubeDecision::DoublePass => f.write_str(big),
            CubeDecision::TooGood => write!(f, "Too good to {re}double"),
        }?;
        write!(f, ", {}", self.response)
    }
}

impl Serialize for Proper {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Response {
    /// Play on at twice the stake, owning the cube.
    Take,
    /// Concede the game at the stake before the double.
    Pass,
}

impl Response {
    /// `take` or `pass`.
    pub const fn text(self) -> &'static str {
        match self {
            Response::Take => "take",
            Response::Pass => "pass",
        }
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl Serialize for Response {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}

/// The decision of the side on roll in cube state `state` from its no-double equities:
/// with ND its no-double equity and DT = 2 × its equity with the opponent owning, it
/// doubles when min(DT, 1) > ND, and the opponent takes when DT ≤ 1; not doubling is
/// "too good" when ND > 1.
pub fn decide(c: &Cubeful, state: CubeState) -> CubeAction {
    let no_double = c[state];
    let double_take = 2.0 * c.opponent_owns;
    let action = if !state.has_access() {
        None
    } else if doubled(c.opponent_owns) > no_double {
        Some(if double_take <= 1.0 {
            CubeDecision::DoubleTake
        } else {
            CubeDecision::DoublePass
        })
    } else if no_double > 1.0 {
        Some(CubeDecision::TooGood)
    } else {
        Some(CubeDecision::NoDouble)
    };
    let response = state.has_access().then_some(if double_take <= 1.0 {
        Response::Take
    } else {
        Response::Pass
    });
    let proper = match (action, response) {
        (Some(decision), Some(response)) => Some(Proper {
            decision,
            response,
            redouble: state == CubeState::Owned,
        }),
        _ => None,
    };
    CubeAction {
        action,
        state,
        no_double,
        double_take,
        double_pass: 1.0,
        response,
        proper,
        doubling_margin: double_take.min(1.0) - no_double,
        take_margin: 1.0 - double_take,
    }
}

/// Who owns the cube in a game between two players, `X` and `O`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Owner {
    /// Nobody: it is in the centre, either side may double.
    Centred,
    /// Player X.
    X,
    /// Player O.
    O,
}

/// The doubling cube of a game: its value and its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cube {
    /// 1, 2, 4, …: what a single game is worth.
    pub value: u32,
    /// Who may double next.
    pub owner: Owner,
}

impl Cube {
    /// The cube at the start of a game: 1, centred.
    pub const START: Cube = Cube {
        value: 1,
        owner: Owner::Centred,
    };

    /// The cube state as `player` (X or O) sees it when on roll (no Jacoby rule).
    pub fn state(&self, player: Owner) -> CubeState {
        match self.owner {
            Owner::Centred => CubeState::Centred,
            o if o == player => CubeState::Owned,
            _ => CubeState::OpponentOwns,
        }
    }

    /// The cube after `player` doubled and the other took: twice the value, owned by the
    /// taker.
    pub fn taken_by(&self, taker: Owner) -> Cube {
        Cube {
            value: 2 * self.value,
            owner: taker,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_of_four_is_indexed_by_the_cube_state() {
        let c = Cubeful::from_array([1.0, 2.0, 3.0, 4.0]);
        for (k, s) in CubeState::ALL.into_iter().enumerate() {
            assert_eq!(s.index(), k);
            assert_eq!(c[s], (k + 1) as f64);
            assert_eq!(s.seen_by_opponent().seen_by_opponent(), s);
        }
        assert_eq!(Cubeful::from_array(c.to_array()), c);
    }

    #[test]
    fn after_a_move_the_opponent_doubles_where_it_has_access_and_gains() {
        // The opponent, on roll: no double 0.3 everywhere, 0.4 when the mover owns.
        let t = Cubeful {
            owned: 0.3,
            centred: 0.3,
            centred_jacoby: 0.3,
            opponent_owns: 0.4,
        };
        let a = t.after_move();
        // The mover owns: the opponent cannot double, and sees "opponent owns".
        assert_eq!(a.owned, -0.4);
        // Centred: the opponent doubles (2 × 0.4 = 0.8 > 0.3), the mover takes.
        assert_eq!(a.centred, -0.8);
        assert_eq!(a.centred_jacoby, -0.8);
        // The opponent owns: it doubles from owning too.
        assert_eq!(a.opponent_owns, -0.8);
    }

    #[test]
    fn the_decision_follows_the_doubling_and_take_points() {
        let c = |nd: f64, x: f64| Cubeful {
            owned: nd,
            centred: nd,
            centred_jacoby: nd,
            opponent_owns: x,
        };
        let d = |nd, x| decide(&c(nd, x), CubeState::Centred).action.unwrap();
        assert_eq!(d(0.3, 0.1), CubeDecision::NoDouble);
        assert_eq!(d(0.3, 0.4), CubeDecision::DoubleTake);
        assert_eq!(d(0.9, 0.6), CubeDecision::DoublePass);
        assert_eq!(d(1.2, 0.6), CubeDecision::TooGood);
        assert_eq!(CubeDecision::DoubleTake.to_string(), "double, take");
        let json = serde_json::to_value(decide(&c(0.3, 0.4), CubeState::Owned)).unwrap();
        assert_eq!(json["action"], "double, take");
        assert_eq!(json["state"], "owned");
        assert_eq!(json["response"], "take");
        assert_eq!(json["proper"], "Redouble, take");
        let v = |nd, x, state| decide(&c(nd, x), state);
        let proper = |nd, x, state| v(nd, x, state).proper.unwrap().to_string();
        assert_eq!(proper(0.3, 0.1, CubeState::Centred), "No double, take");
        assert_eq!(proper(0.9, 0.6, CubeState::Centred), "Double, pass");
        assert_eq!(
            proper(1.2, 0.6, CubeState::Owned),
            "Too good to redouble, pass"
        );
        assert_eq!(v(0.3, 0.1, CubeState::OpponentOwns).proper, None);
        assert_eq!(v(0.3, 0.1, CubeState::OpponentOwns).response, None);
        // Margins: 2 × 0.4 = 0.8 against 0.3 and against 1.
        let a = v(0.3, 0.4, CubeState::Centred);
        assert!((a.doubling_margin - 0.5).abs() < 1e-12);
        assert!((a.take_margin - 0.2).abs() < 1e-12);
    }

    #[test]
    fn a_game_cube_is_owned_by_the_taker_at_twice_the_value() {
        let cube = Cube::START.taken_by(Owner::O);
        assert_eq!((cube.value, cube.owner), (2, Owner::O));
        assert_eq!(cube.state(Owner::O), CubeState::Owned);
        assert_eq!(cube.state(Owner::X), CubeState::OpponentOwns);
        assert_eq!(Cube::START.state(Owner::X), CubeState::Centred);
    }
}
