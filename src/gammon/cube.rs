//! The doubling cube, money play (`docs/gammon.md`, "The doubling cube"): its states,
//! the values a table keeps per position, the rules of a double, and the decision they
//! lead to. The solver (`solver::cube`), the tables, the queries and the game all speak
//! this one vocabulary.
//!
//! ```
//! use tabula::gammon::cube::{decide_money, CubeDecision, CubeState, Cubeful};
//!
//! // Not doubling is worth 0.6 to the side on roll; doubled and taken, the opponent
//! // would own the cube at twice the stake, where the side on roll has 0.45 a unit.
//! let c = Cubeful { owned: 0.7, centred: 0.6, centred_jacoby: 0.55, opponent_owns: 0.45 };
//! assert_eq!(c[CubeState::Centred], 0.6);
//! let verdict = decide_money(&c, CubeState::Centred, false);
//! // Doubled and taken: 2 × 0.45 = 0.9 > 0.6, and 0.9 ≤ 1, so the opponent takes.
//! assert_eq!(verdict.action, Some(CubeDecision::DoubleTake));
//! assert_eq!(decide_money(&c, CubeState::OpponentOwns, false).action, None);
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

/// What the side on roll may choose before it rolls, each valued in the stakes' unit
/// (equity per unit of the cube in money play, match-winning chance at a score): higher is
/// better for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choices {
    /// It does not double.
    pub no_double: f64,
    /// It doubles and the opponent takes.
    pub double_take: f64,
    /// It doubles and the opponent passes.
    pub double_pass: f64,
}

impl Choices {
    /// Money play's choices in cube state `state`: a double taken plays on at twice the
    /// stake with the opponent owning the cube; a double passed is worth one cube.
    pub fn money(c: &Cubeful, state: CubeState) -> Choices {
        Choices {
            no_double: c[state],
            double_take: 2.0 * c.opponent_owns,
            double_pass: 1.0,
        }
    }
}

/// What the rules around a cube decision allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rules {
    /// The side on roll may double: the cube is in play, centred or its own.
    pub access: bool,
    /// The cube is its own: a double is a redouble.
    pub redouble: bool,
    /// Money play where a taker may beaver (redouble at once, keeping the cube), as in
    /// gnubg's money sessions.
    pub beavers: bool,
    /// A single win at this cube already takes the match: the cube is dead for the side
    /// on roll, which never doubles.
    pub dead: bool,
}

impl Rules {
    /// Money play in cube state `state`.
    pub fn money(state: CubeState, beavers: bool) -> Rules {
        Rules {
            access: state.has_access(),
            redouble: state == CubeState::Owned,
            beavers,
            dead: false,
        }
    }
}

/// One of the three choices, as the verdict lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// No double.
    NoDouble,
    /// Double, and the opponent takes.
    DoubleTake,
    /// Double, and the opponent passes.
    DoublePass,
}

impl Choice {
    /// `no double`, `double, take`, `double, pass`.
    pub const fn text(self) -> &'static str {
        match self {
            Choice::NoDouble => "no double",
            Choice::DoubleTake => "double, take",
            Choice::DoublePass => "double, pass",
        }
    }

    /// Its value among `c`.
    pub fn of(self, c: &Choices) -> f64 {
        match self {
            Choice::NoDouble => c.no_double,
            Choice::DoubleTake => c.double_take,
            Choice::DoublePass => c.double_pass,
        }
    }
}

impl Serialize for Choice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}

/// The side on roll's cube decision, with the values behind it, as gnubg gives it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CubeAction {
    /// The decision; none when the side on roll has no access to the cube.
    pub action: Option<CubeDecision>,
    /// The money cube state decided for (none at a match score, whose cube is beside).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<CubeState>,
    /// The value if it does not double.
    pub no_double: f64,
    /// The value if it doubles and is taken (in money play twice its equity with the
    /// opponent owning the cube).
    pub double_take: f64,
    /// The value if it doubles and the opponent passes (in money play 1).
    pub double_pass: f64,
    /// The opponent's proper answer to a double: `take` when taking costs it no more
    /// than passing (double/take ≤ double/pass), else `pass`; none without access.
    pub response: Option<Response>,
    /// The verdict as gnubg words it: `No double, take`, `No double, beaver`, `Double,
    /// pass`, `Too good to redouble, pass`, `Never double, take (dead cube)` … (a
    /// redouble when the side on roll owns the cube); none without access.
    pub proper: Option<Proper>,
    /// How far past the doubling point the position is: min(double/take, double/pass)
    /// − no double (positive: doubling gains that much; negative: it costs that much).
    pub doubling_margin: f64,
    /// How far the opponent is from its take point: double/pass − double/take
    /// (positive: taking saves it that much; negative: it should pass).
    pub take_margin: f64,
    /// The three choices in gnubg's order: the proper one first.
    pub order: [Choice; 3],
    /// gnubg's percentage where it gives one: for no double, (ND − DT) / (DP − DT), how
    /// many doubles should be passed before doubling is right; for too good to double,
    /// pass, (ND − DP) / (DT − DP), how many should be taken.
    pub percent: Option<f64>,
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
    /// The opponent takes and, in money play with beavers, beavers: it would be ahead.
    pub beaver: bool,
    /// The cube is dead for the side on roll: it never doubles.
    pub dead: bool,
}

impl fmt::Display for Proper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (re, big) = if self.redouble {
            ("re", "Redouble")
        } else {
            ("", "Double")
        };
        if self.dead {
            return write!(f, "Never {re}double, take (dead cube)");
        }
        match self.decision {
            CubeDecision::NoDouble => write!(f, "No {re}double"),
            CubeDecision::DoubleTake | CubeDecision::DoublePass => f.write_str(big),
            CubeDecision::TooGood => write!(f, "Too good to {re}double"),
        }?;
        match self.beaver {
            true => f.write_str(", beaver"),
            false => write!(f, ", {}", self.response),
        }
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

/// The one cube decision rule, for money play, match play and the bear-off alike
/// (`docs/gammon.md`, "The doubling cube"): with ND, DT and DP the values of `c`, the
/// opponent takes when DT ≤ DP; the side on roll doubles when min(DT, DP) > ND, or when
/// not doubling is worth exactly what the pass is and a take no less (a certain win
/// cashed: gnubg's "double, pass"); else not doubling is "too good" when ND > DP. Where
/// the cube is dead for it, it never doubles.
pub fn decide(c: Choices, rules: Rules) -> CubeAction {
    let Choices {
        no_double: nd,
        double_take: dt,
        double_pass: dp,
    } = c;
    let cash = nd == dp && dt >= dp;
    let response = if dt <= dp && !cash {
        Response::Take
    } else {
        Response::Pass
    };
    // gnubg's "No double, beaver": doubling would be right, but the taker beavers and
    // the doubler, then at twice the take's stake, would be worse off than not doubling.
    let beaten_by_beaver = rules.beavers
        && !rules.redouble
        && response == Response::Take
        && dt.min(dp) > nd
        && (-2.0..=0.0).contains(&dt)
        && 2.0 * dt < nd;
    let decision = if rules.dead || beaten_by_beaver {
        CubeDecision::NoDouble
    } else if dt.min(dp) > nd || cash {
        match response {
            Response::Take => CubeDecision::DoubleTake,
            Response::Pass => CubeDecision::DoublePass,
        }
    } else if nd > dp {
        CubeDecision::TooGood
    } else {
        CubeDecision::NoDouble
    };
    let order = match (decision, response) {
        _ if rules.dead => [Choice::NoDouble, Choice::DoublePass, Choice::DoubleTake],
        (CubeDecision::DoubleTake, _) => [Choice::DoubleTake, Choice::DoublePass, Choice::NoDouble],
        (CubeDecision::DoublePass, _) => [Choice::DoublePass, Choice::DoubleTake, Choice::NoDouble],
        (CubeDecision::TooGood, Response::Pass) => {
            [Choice::NoDouble, Choice::DoubleTake, Choice::DoublePass]
        }
        _ => [Choice::NoDouble, Choice::DoublePass, Choice::DoubleTake],
    };
    let ratio = |a: f64, b: f64| (b != 0.0).then(|| a / b);
    let percent = match (decision, response) {
        _ if rules.dead || !rules.access || beaten_by_beaver => None,
        (CubeDecision::NoDouble, _) => ratio(nd - dt, dp - dt),
        (CubeDecision::TooGood, Response::Pass) if nd <= dt => ratio(nd - dp, dt - dp),
        _ => None,
    };
    // A beaver: the taker would be ahead (gnubg's "double/take equity" at most 0), when it
    // takes and the side on roll does not double, or doubles a centred cube.
    let beaver = rules.beavers
        && response == Response::Take
        && (-2.0..=0.0).contains(&dt)
        && match decision {
            CubeDecision::NoDouble => !rules.dead,
            CubeDecision::DoubleTake => !rules.redouble,
            _ => false,
        };
    let proper = rules.access.then_some(Proper {
        decision,
        response,
        redouble: rules.redouble,
        beaver,
        dead: rules.dead,
    });
    CubeAction {
        action: rules.access.then_some(decision),
        state: None,
        no_double: nd,
        double_take: dt,
        double_pass: dp,
        response: rules.access.then_some(response),
        proper,
        doubling_margin: dt.min(dp) - nd,
        take_margin: dp - dt,
        order,
        percent,
    }
}

/// Money play's decision in cube state `state` from a position's no-double equities
/// (beavers as `beavers` says).
pub fn decide_money(c: &Cubeful, state: CubeState, beavers: bool) -> CubeAction {
    CubeAction {
        state: Some(state),
        ..decide(Choices::money(c, state), Rules::money(state, beavers))
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
        let d = |nd, x| {
            decide_money(&c(nd, x), CubeState::Centred, false)
                .action
                .unwrap()
        };
        assert_eq!(d(0.3, 0.1), CubeDecision::NoDouble);
        assert_eq!(d(0.3, 0.4), CubeDecision::DoubleTake);
        assert_eq!(d(0.9, 0.6), CubeDecision::DoublePass);
        assert_eq!(d(1.2, 0.6), CubeDecision::TooGood);
        assert_eq!(CubeDecision::DoubleTake.to_string(), "double, take");
        let json =
            serde_json::to_value(decide_money(&c(0.3, 0.4), CubeState::Owned, false)).unwrap();
        assert_eq!(json["action"], "double, take");
        assert_eq!(json["state"], "owned");
        assert_eq!(json["response"], "take");
        assert_eq!(json["proper"], "Redouble, take");
        let v = |nd, x, state| decide_money(&c(nd, x), state, true);
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
    fn the_verdict_has_gnubgs_beaver_percentage_and_order() {
        let choices = |nd, dt, dp| Choices {
            no_double: nd,
            double_take: dt,
            double_pass: dp,
        };
        let money = Rules::money(CubeState::Centred, true);
        // No double, and the taker would be ahead (DT = -0.2 ≤ 0): a beaver, and gnubg's
        // (ND − DT) / (DP − DT) = 0.3 / 1.2.
        let a = decide(choices(0.1, -0.2, 1.0), money);
        assert_eq!(a.proper.unwrap().to_string(), "No double, beaver");
        assert_eq!(a.action, Some(CubeDecision::NoDouble));
        assert!((a.percent.unwrap() - 0.25).abs() < 1e-12);
        assert_eq!(
            a.order,
            [Choice::NoDouble, Choice::DoublePass, Choice::DoubleTake]
        );
        // Without beavers (a game played without them), a take.
        let plain = decide(
            choices(0.1, -0.2, 1.0),
            Rules::money(CubeState::Centred, false),
        );
        assert_eq!(plain.proper.unwrap().to_string(), "No double, take");
        // Doubling right (DT > ND) but beaten by the beaver (2·DT < ND): gnubg's "No
        // double, beaver", no percentage, no double first (hyper1 `AAIAAAAIAAAAAA` with
        // Jacoby); where the beaver costs the doubler less, "Double, beaver".
        let a = decide(choices(-0.049055, -0.034646, 1.0), money);
        assert_eq!(a.proper.unwrap().to_string(), "No double, beaver");
        assert_eq!((a.percent, a.order[0]), (None, Choice::NoDouble));
        let a = decide(choices(-0.05, -0.02, 1.0), money);
        assert_eq!(a.proper.unwrap().to_string(), "Double, beaver");
        let plain = Rules::money(CubeState::Centred, false);
        let a = decide(choices(-0.049055, -0.034646, 1.0), plain);
        assert_eq!(a.proper.unwrap().to_string(), "Double, take");
        // Too good, pass with DT ≥ ND > DP: (ND − DP) / (DT − DP); listed ND, DT, DP.
        let a = decide(choices(1.1, 1.3, 1.0), money);
        assert_eq!(a.proper.unwrap().to_string(), "Too good to double, pass");
        assert!((a.percent.unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(
            a.order,
            [Choice::NoDouble, Choice::DoubleTake, Choice::DoublePass]
        );
        // ND > DT > DP: never right to double, no percentage.
        assert_eq!(decide(choices(1.3, 1.1, 1.0), money).percent, None);
        // A certain single win is cashed: double, pass.
        let a = decide(choices(1.0, 2.0, 1.0), money);
        assert_eq!(a.action, Some(CubeDecision::DoublePass));
        assert_eq!(a.response, Some(Response::Pass));
        // Doubles have no percentage.
        assert_eq!(decide(choices(0.3, 0.8, 1.0), money).percent, None);
        // A dead cube: never double.
        let dead = Rules {
            access: true,
            dead: true,
            ..Rules::default()
        };
        let a = decide(choices(0.6, 0.55, 1.0), dead);
        assert_eq!(a.action, Some(CubeDecision::NoDouble));
        assert_eq!(
            a.proper.unwrap().to_string(),
            "Never double, take (dead cube)"
        );
        assert_eq!(a.percent, None);
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
