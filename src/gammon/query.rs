//! Questions a solved table answers (`docs/gammon.md`, "Queries"), through any
//! [`Evaluator`]: a position's equity, outcome chances and cube decision; the plays of a
//! roll ranked; the opening roll's best plays. The results are plain serde types: the
//! command line's `--json` documents are their serde form.

use super::cube::{decide_money, CubeAction, CubeState, Cubeful};
use super::gnubg::{position_id, xgid};
use super::judge::{rank, Judged, Money, MoneyWorth};
use super::moves::{win_points, Generator, Play};
use super::notation::notation;
use super::{Error, Evaluator, Numbers, Outcomes, Position, Roll, Variant};
use serde::Serialize;

/// A position looked up (no table needed).
#[derive(Debug, Clone, Serialize)]
pub struct Looked {
    /// The variant's name.
    pub variant: String,
    /// Its number in the variant's index (a gnubg record or the article's index).
    pub index: u64,
    /// Its notation.
    pub position: String,
    /// gnubg's Position ID, on 24 points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_id: Option<String>,
    /// eXtreme Gammon's XGID (the cube centred, before the roll), on 24 points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xgid: Option<String>,
    /// Pip counts, the side on roll first.
    pub pips: [u32; 2],
}

/// The legal plays of a roll (no table needed).
#[derive(Debug, Clone, Serialize)]
pub struct Moves {
    /// The position before the roll.
    pub position: String,
    /// The roll, smaller die first.
    pub roll: Roll,
    /// Whether the roll passes (no legal move).
    pub pass: bool,
    /// Every distinct play, in the generator's order; empty for a pass.
    pub moves: Vec<Move>,
}

/// One play of [`Moves`].
#[derive(Debug, Clone, Serialize)]
pub struct Move {
    /// The steps, as a backgammon player writes them.
    pub play: String,
    /// The position after the play, the mover's side first.
    pub position: String,
    /// The index of the position after the play with the opponent on roll; none when
    /// the play wins.
    pub index_after: Option<u64>,
    /// The points the play wins when it bears off the last checker (1, 2 or 3), else 0.
    pub wins: u32,
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
    /// The no-double equities in the four cube states, when the table keeps the cube.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubeful: Option<Cubeful>,
    /// The cube decision of the side on roll, when the table keeps the cube.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube: Option<CubeAction>,
}

/// A play ranked by [`hint`].
#[derive(Debug, Clone, Serialize)]
pub struct Ranked {
    /// The play itself.
    #[serde(skip)]
    pub play: Play,
    /// The steps, as a backgammon player writes them.
    #[serde(rename = "play")]
    pub text: String,
    /// The position after the play, the mover's side first.
    pub position: String,
    /// gnubg's Position ID of the position after the play, as gnubg shows it with the
    /// opponent on roll (on 24 points; none when the play wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_id: Option<String>,
    /// The XGID of the same position, the opponent on roll (on 24 points; none when the
    /// play wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xgid: Option<String>,
    /// The play one die at a time, tabula's steps (`24/18`, `18/13`), for a board that
    /// moves checkers a die at a time.
    pub steps: Vec<String>,
    /// The play's cubeless equity for the side that moved.
    pub equity: f64,
    /// Its outcome chances for the side that moved.
    pub outcomes: Outcomes,
    /// Its cubeful equity for the side that moved, in the cube state the plays were
    /// ranked for (when one was asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubeful: Option<f64>,
    /// What it gives up against the best play, in the equity the plays were ranked by.
    pub loss: f64,
}

impl Ranked {
    /// A judged play, written as every door shows it (gnubg's notation, its steps, the
    /// Position ID after it); `position` is the position after the play as text.
    pub fn of_judged(v: &Variant, j: Judged<MoneyWorth>, position: String) -> Ranked {
        let play = j.play;
        let shown = (v.points == position_id::POINTS && !play.wins()).then(|| play.after.swapped());
        let position_id = shown.and_then(|p| position_id::encode(&p).ok());
        let xgid = shown.and_then(|p| xgid::encode(&p).ok());
        let steps = play
            .steps()
            .iter()
            .map(|s| super::gnubg::notation::format(v.points, std::slice::from_ref(s)))
            .collect();
        Ranked {
            text: play.text(v.points),
            position,
            position_id,
            xgid,
            steps,
            play,
            equity: j.worth.equity,
            outcomes: j.worth.outcomes,
            cubeful: j.worth.cubeful,
            loss: j.loss,
        }
    }

    /// The value the plays are ranked by: cubeful when asked for, else cubeless.
    pub fn key(&self) -> f64 {
        self.cubeful.unwrap_or(self.equity)
    }
}

/// The plays of a roll, best first.
#[derive(Debug, Clone, Serialize)]
pub struct Hint {
    /// The position before the roll.
    pub position: String,
    /// Its number in the variant's index.
    pub index: u64,
    /// The roll, smaller die first.
    pub roll: Roll,
    /// The cube state the plays are ranked for, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube: Option<CubeState>,
    /// Every distinct play, best first (ties keep the generator's order); empty when
    /// the roll passes.
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
    pub roll: Roll,
    /// The best play.
    pub play: String,
    /// Its equity.
    pub equity: f64,
}

/// Looks a position up in the variant's numbering.
pub fn look(variant: &Variant, numbers: &Numbers, p: &Position) -> Result<Looked, Error> {
    Ok(Looked {
        variant: variant.name(),
        index: numbers.record(p)?,
        position: notation(variant, p),
        position_id: (variant.points == position_id::POINTS)
            .then(|| position_id::encode(p).ok())
            .flatten(),
        xgid: (variant.points == position_id::POINTS)
            .then(|| xgid::encode(p).ok())
            .flatten(),
        pips: p.pips(),
    })
}

/// Every distinct legal play of `roll` from `p`.
pub fn moves(
    variant: &Variant,
    numbers: &Numbers,
    p: &Position,
    roll: Roll,
) -> Result<Moves, Error> {
    let plays = Generator::new(variant).plays(p, roll);
    let pass = plays.len() == 1 && plays[0].is_pass();
    let mut listed = Vec::new();
    for m in plays.iter().filter(|m| !m.is_pass()) {
        let (index_after, wins) = if m.wins() {
            (None, win_points(variant, m.after.them()))
        } else {
            (Some(numbers.record(&m.after.swapped())?), 0)
        };
        listed.push(Move {
            play: m.text(variant.points),
            position: notation(variant, &m.after),
            index_after,
            wins,
        });
    }
    Ok(Moves {
        position: notation(variant, p),
        roll,
        pass,
        moves: listed,
    })
}

/// The equity and outcome chances of a position, and where the table keeps the cube its
/// no-double equities and the decision of the side on roll in cube state `state`.
pub fn evaluate(
    table: &dyn Evaluator,
    p: &Position,
    state: CubeState,
) -> Result<Evaluation, Error> {
    let looked = look(table.variant(), table.numbers(), p)?;
    let cubeful = table.cubeful(p)?;
    Ok(Evaluation {
        looked,
        equity: table.equity(p)?,
        outcomes: table.outcomes(p)?,
        cube: cubeful.as_ref().map(|c| decide_money(c, state, true)),
        cubeful,
    })
}

/// Every play of `roll` from `p`, best first: by the cubeful equity of the side that
/// moves in cube state `cube` when given (the table must keep the cube), else by
/// cubeless equity (the one ranking, [`rank`]). Empty when the roll passes.
pub fn hint(
    table: &dyn Evaluator,
    p: &Position,
    roll: Roll,
    cube: Option<CubeState>,
) -> Result<Hint, Error> {
    let v = table.variant();
    if cube.is_some() {
        table.cube_required()?;
    }
    let judge = Money {
        table,
        beavers: true,
    };
    let moves = rank(&judge, p, roll, cube)?
        .into_iter()
        .map(|j| {
            let position = notation(v, &j.play.after);
            Ranked::of_judged(v, j, position)
        })
        .collect();
    Ok(Hint {
        position: notation(v, p),
        index: table.record(p)?,
        roll,
        cube,
        moves,
    })
}

/// The opening: each non-double first roll's best play, and the opening-roll winner's
/// equity (the average over the ordered non-double rolls).
pub fn opening(table: &dyn Evaluator) -> Result<Opening, Error> {
    let v = table.variant();
    let start = v.opening();
    let mut rolls = Vec::new();
    let (mut sum, mut weight) = (0.0, 0.0);
    for (i, &a) in v.faces.iter().enumerate() {
        for &b in &v.faces[i + 1..] {
            let roll = Roll::new(a, b);
            let h = hint(table, &start, roll, None)?;
            let (play, equity) = match h.moves.first() {
                Some(m) => (m.text.clone(), m.equity),
                // No play: the opponent is on roll in the same position.
                None => ("(no move)".to_string(), -table.equity(&start)?),
            };
            sum += f64::from(roll.weight()) * equity;
            weight += f64::from(roll.weight());
            rolls.push(OpeningRoll { roll, play, equity });
        }
    }
    Ok(Opening {
        variant: v.name(),
        position: notation(v, &start),
        rolls,
        winner_equity: if weight > 0.0 { sum / weight } else { 0.0 },
    })
}
