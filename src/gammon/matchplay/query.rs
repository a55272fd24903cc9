//! Questions at a match score (`docs/gammon.md`, "Match play"), answered from the score's
//! unit table (and 1-1's where the cube is dead): a position's match-winning chance and
//! cube verdict with the market window, and a roll's plays ranked.

use super::score::{CubeOwner, Game, MatchCube, Score, Unit};
use super::store::{UnitTable, CHANCE_SCALE};
use crate::gammon::cube::{decide, Choices, CubeAction, Rules};
use crate::gammon::moves::{win_points, Generator, Play};
use crate::gammon::notation::notation;
use crate::gammon::query::{look, Looked};
use crate::gammon::{Error, Position, Roll};
use serde::Serialize;
use std::path::Path;

/// The tables that answer at one score: its unit's, and 1-1's (where a cube is dead).
pub struct ScoreTables {
    unit: UnitTable,
    dmp: Option<UnitTable>,
}

impl ScoreTables {
    /// The unit's table and, for a unit with the cube, 1-1's.
    pub fn new(unit: UnitTable, dmp: Option<UnitTable>) -> Result<ScoreTables, Error> {
        let u = unit.unit();
        if dmp.is_none() && u.reads_dmp() {
            return Err(Error::Inconsistent(format!(
                "the score {} needs the table of 1-1 beside its own",
                u.name()
            )));
        }
        Ok(ScoreTables { unit, dmp })
    }

    /// The unit's table.
    pub fn unit(&self) -> &UnitTable {
        &self.unit
    }

    /// Where the unit's table lies.
    pub fn path(&self) -> &Path {
        self.unit.table().path()
    }

    /// The match-winning chance of the side on roll at `score` (this unit's) with `cube`,
    /// if it does not double now, at record `record`.
    pub fn no_double(&self, record: u64, score: Score, cube: MatchCube) -> Result<f64, Error> {
        let (u, second) = score.unit();
        debug_assert_eq!(u, self.unit.unit());
        let dead = u.game != Game::Crawford && cube.value >= u.dead_level();
        if u == Unit::DMP || dead {
            let dmp = self.dmp.as_ref().unwrap_or(&self.unit);
            let row = dmp.row(record)?;
            let e = f64::from_bits(u64::from(row[0]) | u64::from(row[1]) << 32);
            // Rounded as the other tables' chances are, so that equal values compare equal.
            return Ok(((1.0 + e) / 2.0 * CHANCE_SCALE).round() / CHANCE_SCALE);
        }
        let row = self.unit.row(record)?;
        let column = if u.game == Game::Crawford {
            usize::from(second)
        } else {
            let base = if second && !u.symmetric() {
                u.columns()
            } else {
                0
            };
            match cube.owner {
                CubeOwner::Centred => base,
                owner => {
                    let level = cube.value.trailing_zeros() as usize - 1;
                    base + 1 + 2 * level + usize::from(owner == CubeOwner::Opponent)
                }
            }
        };
        Ok(f64::from(row[column]) / CHANCE_SCALE)
    }

    /// The match-winning chance of the side of `score` on roll winning `points`.
    pub fn won(&self, score: Score, points: u32) -> f64 {
        let (_, second) = score.unit();
        (1.0 + self.unit.won(second, points)) / 2.0
    }

    /// The chance of the side on roll after it loses `points`.
    pub fn lost(&self, score: Score, points: u32) -> f64 {
        1.0 - self.won(score.mirrored(), points)
    }
}

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

/// Whether the side on roll may double at `score` with `cube` and has a reason to: the
/// cube is in play, it has access, and the cube is not dead (below the first value at or
/// above what both sides need, where every game decides the match).
pub fn may_double(score: Score, cube: MatchCube) -> bool {
    let (unit, _) = score.unit();
    score.cube_in_play() && cube.has_access() && cube.value < unit.dead_level()
}

/// The rules of a cube decision at `score` with `cube` (where the side on roll may
/// double): no beavers; the cube is dead for a side that a single win at this cube takes
/// to the match (gnubg's "never double").
pub fn rules(score: Score, cube: MatchCube) -> Rules {
    Rules {
        access: true,
        redouble: cube.owner == CubeOwner::OnRoll,
        beavers: false,
        dead: score.on_roll <= cube.value,
    }
}

fn check_cube(score: Score, cube: MatchCube) -> Result<(), Error> {
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
    let looked = look(t.unit.variant(), t.unit.numbers(), p)?;
    let record = looked.index;
    let mwc = t.no_double(record, score, cube)?;
    let (cube_action, market_window) = if may_double(score, cube) {
        let dt = t.no_double(record, score, cube.doubled())?;
        let dp = t.won(score, cube.value);
        let win = |me: bool, j: u32| {
            if me {
                t.won(score, j)
            } else {
                t.won(score.mirrored(), j)
            }
        };
        let choices = Choices {
            no_double: mwc,
            double_take: dt,
            double_pass: dp,
        };
        (
            Some(decide(choices, rules(score, cube))),
            Some(market_window(score, cube.value, &win)),
        )
    } else {
        (None, None)
    };
    Ok(MatchEvaluation {
        looked,
        score,
        cube,
        mwc,
        cube_action,
        market_window,
    })
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

/// The mover's chance after `play` at `score` with `cube`: a win's, or what the
/// opponent, on roll and deciding on the cube first, leaves it.
pub fn play_value(
    t: &ScoreTables,
    play: &Play,
    score: Score,
    cube: MatchCube,
) -> Result<f64, Error> {
    let v = t.unit.variant();
    if play.wins() {
        return Ok(t.won(score, win_points(v, play.after.them()) * cube.value));
    }
    let next = play.after.swapped();
    let record = t.unit.numbers().record(&next)?;
    let (their_score, their_cube) = (score.mirrored(), cube.seen_by_opponent());
    let nd = t.no_double(record, their_score, their_cube)?;
    let theirs = if may_double(their_score, their_cube) {
        let dt = t.no_double(record, their_score, their_cube.doubled())?;
        nd.max(dt.min(t.won(their_score, their_cube.value)))
    } else {
        nd
    };
    Ok(1.0 - theirs)
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
    let v = t.unit.variant();
    let index = t.unit.numbers().record(p)?;
    let mut moves = Vec::new();
    for play in Generator::new(v).plays(p, roll) {
        if play.is_pass() {
            continue;
        }
        moves.push(MatchRanked {
            text: play.text(v.points),
            position: notation(v, &play.after),
            mwc: play_value(t, &play, score, cube)?,
            play,
            loss: 0.0,
        });
    }
    moves.sort_by(|a, b| b.mwc.total_cmp(&a.mwc));
    let best = moves.first().map_or(0.0, |m| m.mwc);
    for m in &mut moves {
        m.loss = best - m.mwc;
    }
    Ok(MatchHint {
        position: notation(v, p),
        index,
        roll,
        score,
        cube,
        moves,
    })
}
