//! Questions at a match score (`docs/gammon.md`, "Match play"), answered from the score's
//! unit table (and 1-1's where the cube is dead): a position's match-winning chance and
//! cube verdict with the market window, and a roll's plays ranked.

use super::judge::{AtScore, ScoreTables};
use super::score::{Game, MatchCube, Score};
use crate::gammon::cube::CubeAction;
use crate::gammon::gnubg::xgid::{self, Xgid};
use crate::gammon::judge::{rank, Judge};
use crate::gammon::moves::Play;
use crate::gammon::notation::notation;
use crate::gammon::query::{look, Looked};
use crate::gammon::{Error, Position, Roll};
use serde::Serialize;

/// The market window at a score, as gnubg's `show marketwindow` gives it for gammon
/// rates of 0: from the match-equity table alone, the winning chances (cubeless, of the
/// side on roll) between which doubling is right and the opponent can still take.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MarketWindow {
    /// The least winning chance at which a double gains, for a last roll (a dead cube);
    /// none where doubling changes nothing a last roll brings (a win and a loss are worth
    /// the same at the cube and at twice it: the cube is dead for the side on roll).
    pub doubling_point: Option<f64>,
    /// The most winning chance at which the opponent can take a dead cube (its take
    /// point seen from the doubler: the doubler's cash point); none where it is 0/0.
    pub take_point: Option<f64>,
    /// The same with a live cube (the taker may redouble), as gnubg estimates it; none
    /// where the doubled cube is dead for the opponent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub take_point_live: Option<f64>,
    /// Where the opponent would redouble at once (it needs more than twice the cube and
    /// the doubler does not): the window with that redouble, as gnubg shows it instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub with_redouble: Option<(Option<f64>, Option<f64>)>,
}

/// The market window of the side on roll at `score` with the cube at `v` (see
/// [`MarketWindow`]): `win(j)`, `lose(j)` its chances after winning or losing `j`.
pub fn market_window(score: Score, v: u32, win: &dyn Fn(bool, u32) -> f64) -> MarketWindow {
    // `win(me, j)`: the chance of the side on roll (me) or the opponent after it wins j.
    let w = |j: u32| win(true, j);
    let l = |j: u32| 1.0 - win(false, j);
    let window = |up: u32| {
        let (dtw, dtl, ndw, ndl, dp) = (w(up), l(up), w(v), l(v), w(v));
        let doubling = (ndl - dtl) / ((ndl - dtl) + (dtw - ndw));
        let (risk, gain) = (dtw - dp, dp - dtl);
        let finite = |x: f64| x.is_finite().then_some(x);
        (finite(doubling), finite(1.0 - risk / (risk + gain)))
    };
    let (doubling_point, take_point) = window(2 * v);
    let (me, them) = (score.on_roll, score.opponent);
    let redoubles = me <= 2 * v && them > 2 * v;
    let dead = them <= 2 * v;
    MarketWindow {
        doubling_point,
        take_point,
        take_point_live: (!redoubles && !dead).then(|| live_take_point(score, v, win)),
        with_redouble: redoubles.then(|| window(4 * v)),
    }
}

/// gnubg's live-cube cash point of the side on roll (no gammons): from the level where
/// the doubled cube is dead for a side down to `v`, each side's cash point is
/// `1 − (the other's cash point a level up) · (DP − DTW) / (RDP − DTW)` (the taker's
/// chances valued linearly up to its own cash point, where it redoubles the doubler
/// out), and at the dead level the dead cube's `(DTL − DP) / (DTL − DTW)`, with the
/// cube one level higher for a side the other would redouble at once.
fn live_take_point(score: Score, v: u32, win: &dyn Fn(bool, u32) -> f64) -> f64 {
    // gnubg counts "away − 1".
    let (i, j) = (score.on_roll - 1, score.opponent - 1);
    let (mut top, mut levels) = (v, 0usize);
    while i >= 2 * top && j >= 2 * top {
        levels += 1;
        top *= 2;
    }
    // chance of side k (0: on roll) after it wins / loses `p`.
    let won = |k: usize, p: u32| if k == 0 { win(true, p) } else { win(false, p) };
    let lost = |k: usize, p: u32| 1.0 - won(1 - k, p);
    let mut cp = vec![[0.0f64; 2]; levels + 2];
    let mut cube = top;
    for n in (0..=levels).rev() {
        for k in 0..2 {
            let (mine, theirs) = if k == 0 { (i, j) } else { (j, i) };
            cp[n][k] = if mine < 2 * cube || theirs < 2 * cube {
                // The doubled cube is dead; a side the other redoubles at once counts the
                // cube one level higher.
                let prime = if mine < 2 * cube && theirs >= 2 * cube {
                    2 * cube
                } else {
                    cube
                };
                let (dtl, dp, dtw) = (lost(k, 2 * prime), won(k, cube), won(k, 2 * prime));
                (dtl - dp) / (dtl - dtw)
            } else {
                let (rdp, dp, dtw) = (lost(k, 2 * cube), won(k, cube), won(k, 2 * cube));
                1.0 - cp[n + 1][1 - k] * (dp - dtw) / (rdp - dtw)
            };
        }
        cube /= 2;
    }
    cp[0][0]
}

/// What a table says of a position at a score.
#[derive(Debug, Clone, Serialize)]
pub struct MatchEvaluation {
    /// The position.
    #[serde(flatten)]
    pub looked: Looked,
    /// The score, the side on roll first.
    pub score: Score,
    /// The cube, seen from the side on roll.
    pub cube: MatchCube,
    /// The match-winning chance of the side on roll if it does not double now.
    pub mwc: f64,
    /// Its cube decision in match-winning chances, where it may double (as money play's,
    /// with `double_pass` the chance of winning the cube's value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube_action: Option<CubeAction>,
    /// The market window at the score, where it may double.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub market_window: Option<MarketWindow>,
}

/// Refuses a turned cube in the Crawford game.
pub(crate) fn check_cube(score: Score, cube: MatchCube) -> Result<(), Error> {
    if !score.cube_in_play() && cube != MatchCube::START {
        return Err(Error::Input {
            what: "cube",
            input: cube.value.to_string(),
            reason: "the Crawford game is played without the cube".into(),
        });
    }
    Ok(())
}

/// Evaluates `p` at `score` with `cube`.
pub fn evaluate(
    t: &ScoreTables,
    p: &Position,
    score: Score,
    cube: MatchCube,
) -> Result<MatchEvaluation, Error> {
    check_cube(score, cube)?;
    let looked = look(t.unit().variant(), t.unit().numbers(), p)?;
    let judge = AtScore { tables: t, score };
    let win = |me: bool, j: u32| t.won(if me { score } else { score.mirrored() }, j);
    evaluation(&judge, p, looked, (score, cube), &win)
}

/// The evaluation of `p` (`looked`, its facts) at `score` with `cube` by `judge`, the
/// stakes of that score (a score's tables, or the bear-off solved at it); `win(me, j)` the
/// chance of the side on roll (`me`) or of its opponent after it wins `j` points. The
/// cube is checked by the caller.
pub(crate) fn evaluation<J: Judge<Cube = MatchCube, Worth = f64>>(
    judge: &J,
    p: &Position,
    mut looked: Looked,
    (score, cube): (Score, MatchCube),
    win: &dyn Fn(bool, u32) -> f64,
) -> Result<MatchEvaluation, Error> {
    if looked.xgid.is_some() {
        looked.xgid = xgid_at(p, score, cube);
    }
    let mwc = judge.position(p, cube)?;
    let cube_action = judge.cube(p, cube)?;
    let market_window = cube_action
        .is_some()
        .then(|| market_window(score, cube.value, win));
    Ok(MatchEvaluation {
        looked,
        score,
        cube,
        mwc,
        cube_action,
        market_window,
    })
}

/// The XGID of `p` at `score` with `cube`. An XGID holds the points each side has and the
/// match's length, not the points they need: written as the match to the larger of the
/// two needs (every match with the same needs is the same game from here on).
fn xgid_at(p: &Position, score: Score, cube: MatchCube) -> Option<String> {
    let length = score.on_roll.max(score.opponent);
    let x = Xgid {
        cube: cube.value,
        owner: cube.owner.into(),
        score: [length - score.on_roll, length - score.opponent],
        length,
        crawford: score.game == Game::Crawford,
        ..Xgid::of(*p)
    };
    xgid::write(&x).ok()
}

/// A play ranked at a score.
#[derive(Debug, Clone, Serialize)]
pub struct MatchRanked {
    /// The play itself.
    #[serde(skip)]
    pub play: Play,
    /// The steps.
    #[serde(rename = "play")]
    pub text: String,
    /// The position after the play, the mover's side first.
    pub position: String,
    /// The mover's match-winning chance after it (the opponent then decides on the cube).
    pub mwc: f64,
    /// What it gives up against the best play.
    pub loss: f64,
}

/// The plays of a roll at a score, best first.
#[derive(Debug, Clone, Serialize)]
pub struct MatchHint {
    /// The position before the roll.
    pub position: String,
    /// Its number in the variant's index.
    pub index: u64,
    /// The roll.
    pub roll: Roll,
    /// The score.
    pub score: Score,
    /// The cube, seen from the side that moves.
    pub cube: MatchCube,
    /// Every distinct play, best first (ties keep the generator's order); empty when the
    /// roll passes.
    pub moves: Vec<MatchRanked>,
}

/// Every play of `roll` from `p` at `score` with `cube`, best first.
pub fn hint(
    t: &ScoreTables,
    p: &Position,
    roll: Roll,
    score: Score,
    cube: MatchCube,
) -> Result<MatchHint, Error> {
    check_cube(score, cube)?;
    let v = t.unit().variant();
    let index = t.unit().numbers().record(p)?;
    let judge = AtScore { tables: t, score };
    let before = (notation(v, p), index);
    ranked(&judge, p, before, (roll, score, cube), |play| {
        Ok(notation(v, &play.after))
    })
}

/// The plays of `roll` from `p` ranked by `judge` at `score` with `cube`, best first:
/// `before` the position's notation and record, `after` a play's resulting position as
/// the answer writes it. The cube is checked by the caller.
pub(crate) fn ranked<J: Judge<Cube = MatchCube, Worth = f64>>(
    judge: &J,
    p: &Position,
    (position, index): (String, u64),
    (roll, score, cube): (Roll, Score, MatchCube),
    after: impl Fn(&Play) -> Result<String, Error>,
) -> Result<MatchHint, Error> {
    let points = judge.variant().points;
    let moves = rank(judge, p, roll, cube)?
        .into_iter()
        .map(|j| {
            Ok(MatchRanked {
                text: j.play.text(points),
                position: after(&j.play)?,
                mwc: j.worth,
                play: j.play,
                loss: j.loss,
            })
        })
        .collect::<Result<_, Error>>()?;
    Ok(MatchHint {
        position,
        index,
        roll,
        score,
        cube,
        moves,
    })
}
