//! Questions a built table answers: a position's equity and outcome chances, the plays
//! of a roll ranked, and the opening roll's best plays.

use super::moves::{self, off};
use super::notation::notation;
use super::store::{Cubeful, Tables};
use super::{position_id, Error, Outcomes, Position, Variant};
use serde::Serialize;

/// A position looked up.
#[derive(Debug, Clone, Serialize)]
pub struct Looked {
    /// The variant's name.
    pub variant: String,
    /// Its record number.
    pub index: u64,
    /// Its notation.
    pub position: String,
    /// gnubg's Position ID, on 24 points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_id: Option<String>,
    /// Pip counts, the side on roll first.
    pub pips: [u32; 2],
}

/// What a table says of a position.
#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    /// The position.
    #[serde(flatten)]
    pub looked: Looked,
    /// Cubeless equity of the side on roll.
    pub equity: f64,
    /// Its outcome chances.
    pub outcomes: Outcomes,
    /// The no-double equities in the four cube states, when the cube was solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubeful: Option<Cubeful>,
    /// The cube decision of the side on roll, when the cube was solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube: Option<CubeAction>,
}

/// Where the cube is, for a cube decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeState {
    /// In the centre.
    Centred,
    /// Owned by the side on roll.
    Owned,
    /// Owned by the opponent: the side on roll cannot double.
    Opponent,
}

/// The side on roll's cube decision, with the equities behind it (as gnubg shows them).
#[derive(Debug, Clone, Serialize)]
pub struct CubeAction {
    /// `no double`, `double, take`, `double, pass`, `too good`, or `no access` (the
    /// opponent owns the cube).
    pub action: &'static str,
    /// The cube state decided for.
    pub state: CubeState,
    /// Whether the Jacoby rule applies (centred cube only).
    pub jacoby: bool,
    /// Equity if it does not double.
    pub no_double: f64,
    /// Equity if it doubles and is taken: twice its equity with the opponent owning.
    pub double_take: f64,
    /// Equity if it doubles and the opponent passes: 1.
    pub double_pass: f64,
}

/// The cube decision for the side on roll from its no-double equities.
pub fn cube_action(c: &Cubeful, state: CubeState, jacoby: bool) -> CubeAction {
    let jacoby = jacoby && state == CubeState::Centred;
    let no_double = match state {
        CubeState::Centred if jacoby => c.centred_jacoby,
        CubeState::Centred => c.centred,
        CubeState::Owned => c.owned,
        CubeState::Opponent => c.opponent_owns,
    };
    let double_take = 2.0 * c.opponent_owns;
    let action = if state == CubeState::Opponent {
        "no access"
    } else if double_take.min(1.0) > no_double {
        if double_take <= 1.0 {
            "double, take"
        } else {
            "double, pass"
        }
    } else if no_double > 1.0 {
        "too good"
    } else {
        "no double"
    };
    CubeAction {
        action,
        state,
        jacoby,
        no_double,
        double_take,
        double_pass: 1.0,
    }
}

/// A play ranked by [`hint`].
#[derive(Debug, Clone, Serialize)]
pub struct Ranked {
    /// The steps, as a backgammon player writes them.
    pub play: String,
    /// The position after the play, the mover's side first.
    pub position: String,
    /// The play's equity for the side that moved.
    pub equity: f64,
    /// Its outcome chances for the side that moved.
    pub outcomes: Outcomes,
    /// Its cubeful equity for the side that moved, in the cube state the plays were
    /// ranked for (with a cube table and a cube state asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubeful: Option<f64>,
}

/// The plays of a roll, best first.
#[derive(Debug, Clone, Serialize)]
pub struct Hint {
    /// The position before the roll.
    pub position: String,
    /// The roll, smaller die first.
    pub roll: String,
    /// Every distinct play, best first (ties keep the generator's order).
    pub moves: Vec<Ranked>,
}

/// The opening roll: each first roll's best play, and the average.
#[derive(Debug, Clone, Serialize)]
pub struct Opening {
    /// The variant's name.
    pub variant: String,
    /// The opening position.
    pub position: String,
    /// For each first roll (two different faces: the opening roll is never a double), the
    /// best play and its equity for the side that won the opening roll.
    pub rolls: Vec<OpeningRoll>,
    /// The cubeless equity of the side that wins the opening roll, before it sees which
    /// roll: the average over the ordered non-double rolls.
    pub winner_equity: f64,
}

/// One first roll of [`Opening`].
#[derive(Debug, Clone, Serialize)]
pub struct OpeningRoll {
    /// The roll.
    pub roll: String,
    /// The best play.
    pub play: String,
    /// Its equity.
    pub equity: f64,
}

/// Looks a position up (no table needed).
pub fn look(
    variant: &Variant,
    numbers: &super::store::Numbers,
    p: &Position,
) -> Result<Looked, Error> {
    let pips = |s: &[u8]| {
        s.iter()
            .enumerate()
            .map(|(i, &c)| (i as u32 + 1) * u32::from(c))
            .sum()
    };
    Ok(Looked {
        variant: variant.name.clone(),
        index: numbers.record(p)?,
        position: notation(variant, p),
        position_id: (variant.points == 24)
            .then(|| position_id::encode(p).ok())
            .flatten(),
        pips: [pips(p.us()), pips(p.them())],
    })
}

/// The equity and outcome chances of a position, and with the cube solved its cubeful
/// equities and the cube decision for the cube `state` (`jacoby`: under the Jacoby rule).
pub fn evaluate(
    tables: &Tables,
    p: &Position,
    state: CubeState,
    jacoby: bool,
) -> Result<Evaluation, Error> {
    let looked = look(tables.variant(), tables.numbers(), p)?;
    let cubeful = tables.cubeful(p)?;
    Ok(Evaluation {
        looked,
        equity: tables.equity(p)?,
        outcomes: tables.outcomes(p)?,
        cube: cubeful.as_ref().map(|c| cube_action(c, state, jacoby)),
        cubeful,
    })
}

/// The value of a play's result for the side that moved: a win's points, or the
/// opponent's stored equity negated.
fn value(tables: &Tables, after: &Position) -> Result<(f64, Outcomes), Error> {
    let v = tables.variant();
    if off(after.us(), v.checkers) == v.checkers {
        let points = moves::win_points(v, after.them());
        return Ok((f64::from(points), Outcomes::won(points as u8)));
    }
    let next = after.swapped();
    Ok((-tables.equity(&next)?, tables.outcomes(&next)?.flip()))
}

/// Every play of `roll` from `p`, best first by cubeless equity.
pub fn hint(tables: &Tables, p: &Position, roll: (u8, u8)) -> Result<Hint, Error> {
    hint_with(tables, p, roll, None)
}

/// Every play of `roll` from `p`, best first: by the cubeful equity of the side that
/// moves in the cube state `cube` (`(state, jacoby)`) when given and the cube was solved,
/// else by cubeless equity. After the play the opponent decides on the cube first.
pub fn hint_with(
    tables: &Tables,
    p: &Position,
    roll: (u8, u8),
    cube: Option<(CubeState, bool)>,
) -> Result<Hint, Error> {
    let v = tables.variant();
    let slot = cube
        .filter(|_| tables.has_cube())
        .map(|(state, jacoby)| match state {
            CubeState::Owned => crate::gammon::solver::cube::OWNED,
            CubeState::Centred if jacoby => crate::gammon::solver::cube::JACOBY,
            CubeState::Centred => crate::gammon::solver::cube::CENTRED,
            CubeState::Opponent => crate::gammon::solver::cube::OPPONENT,
        });
    let mut ranked = Vec::new();
    for play in moves::plays(v, p, roll) {
        if play.steps.is_empty() {
            continue;
        }
        let (equity, outcomes) = value(tables, &play.after)?;
        let cubeful = match slot {
            None => None,
            Some(k) if off(play.after.us(), v.checkers) == v.checkers => {
                let points = f64::from(moves::win_points(v, play.after.them()));
                Some(if k == crate::gammon::solver::cube::JACOBY {
                    1.0
                } else {
                    points
                })
            }
            Some(k) => {
                let next = tables
                    .cubeful(&play.after.swapped())?
                    .expect("a cube table");
                Some(crate::gammon::solver::cube::after_move(next.to_array())[k])
            }
        };
        ranked.push(Ranked {
            play: play.text(v.points),
            position: notation(v, &play.after),
            equity,
            outcomes,
            cubeful,
        });
    }
    let key = |r: &Ranked| r.cubeful.unwrap_or(r.equity);
    ranked.sort_by(|a, b| key(b).total_cmp(&key(a)));
    Ok(Hint {
        position: notation(v, p),
        roll: format!("{}-{}", roll.0, roll.1),
        moves: ranked,
    })
}

/// The opening: each non-double first roll's best play, and the opening-roll winner's
/// equity (the average over the ordered non-double rolls).
pub fn opening(tables: &Tables) -> Result<Opening, Error> {
    let v = tables.variant();
    let start = v.opening();
    let mut rolls = Vec::new();
    let (mut sum, mut weight) = (0.0, 0.0);
    for (i, &a) in v.faces.iter().enumerate() {
        for &b in &v.faces[i + 1..] {
            let h = hint(tables, &start, (a, b))?;
            let (play, equity) = match h.moves.first() {
                Some(m) => (m.play.clone(), m.equity),
                // No play: the opponent is on roll in the same position.
                None => ("(no move)".to_string(), -tables.equity(&start)?),
            };
            sum += 2.0 * equity;
            weight += 2.0;
            rolls.push(OpeningRoll {
                roll: format!("{a}-{b}"),
                play,
                equity,
            });
        }
    }
    Ok(Opening {
        variant: v.name.clone(),
        position: notation(v, &start),
        rolls,
        winner_equity: if weight > 0.0 { sum / weight } else { 0.0 },
    })
}
