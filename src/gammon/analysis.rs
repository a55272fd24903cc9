//! A match file analysed exactly (`docs/gammon.md`, "Match files"): each game
//! of a [`MatchRecord`] replayed from the variant's opening, every checker play and cube
//! decision of both players judged by the judge of its stakes — money play through a
//! table, a match's score through the score's tables — and reviewed by the trainer's own
//! review ([`review::reviewed`], [`review::game_review`]): the equity lost, gnubg's
//! marks, each player's totals, error rate per decision and rating.
//!
//! What is reviewed is what the trainer reviews: every play of a roll with more than one
//! play; every turn on which the player could double (an access to the cube the table's
//! cube rule says is live), doubled or not — a missed double is a `no double` that lost;
//! every answer to a double. A line that cannot be replayed (a play that is not legal, a
//! double without access, an action out of turn) is a [`Fault`] naming its line; its game
//! is analysed up to it, and the next games still are.

use super::cube::{Cube, CubeAction, Owner};
use super::gnubg::record::{Act, Action, Fault, GameRecord, MatchRecord};
use super::gnubg::xgid::{self, XgDice, XgOwner, Xgid};
use super::judge::{rank, Judge, Measure, Money};
use super::matchplay::judge::{AtScore, ScoreTables};
use super::matchplay::Score;
use super::moves::{win_points, Generator};
use super::review::{self, GameReview, Kind, Mark, Rating, Reviewed};
use super::{Error, Evaluator, Position, Roll, Variant};
use serde::Serialize;

/// One reviewed decision, in the order of the game.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// The file's line of the action decided.
    pub line: usize,
    /// Who decided: 0 the file's first player, 1 its second.
    pub player: usize,
    /// Its place in that player's review of the game.
    pub decision: usize,
    /// The position decided on as an XGID, the side on roll at the bottom (for an answer
    /// to a double, the doubler on roll and the dice `D`), with the cube and the score.
    pub xgid: String,
}

/// One game, analysed.
#[derive(Debug, Clone, Serialize)]
pub struct GameAnalysis {
    /// Its number in the file.
    pub number: usize,
    /// Each player's points before it.
    pub score: [u32; 2],
    /// Whether it is the Crawford game.
    pub crawford: bool,
    /// Each player's review (the trainer's): its decisions, totals, rate and rating;
    /// the points it won (negative: lost), none when the game did not finish in the file.
    pub reviews: [GameReview; 2],
    /// The decisions of both players in the order they were made.
    pub steps: Vec<Step>,
    /// Whether every action of the game was replayed.
    pub complete: bool,
    /// Each player's decisions that were not judged: positions the stakes do not value
    /// (a bear-off analysis: positions outside its tables). Always 0 for Hypergammon.
    pub skipped: [usize; 2],
}

/// A player's totals over the file.
#[derive(Debug, Clone, Serialize)]
pub struct Totals {
    /// The player's name in the file.
    pub name: String,
    /// Decisions reviewed: plays, cube decisions and answers to doubles.
    pub decisions: usize,
    /// Of which checker plays.
    pub plays: usize,
    /// Of which cube decisions and answers.
    pub cube: usize,
    /// The normalised losses' total (equity per unit of the cube).
    pub normalised: f64,
    /// The normalised loss per decision (gnubg's error rate), when there was one.
    pub rate: Option<f64>,
    /// gnubg's rating of that rate.
    pub rating: Option<Rating>,
    /// Decisions marked doubtful (`?!`), bad (`?`) and very bad (`??`).
    pub marks: [usize; 3],
    /// Decisions not judged (outside the tables of a bear-off analysis).
    pub skipped: usize,
}

/// A file, analysed.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The variant's name.
    pub variant: String,
    /// The match's length; 0 for money play.
    pub length: u32,
    /// What the losses measure: money play's cubeful equity, or match-winning chances.
    pub measure: Measure,
    /// Each player's totals, the file's first player first.
    pub totals: [Totals; 2],
    /// The games analysed.
    pub games: Vec<GameAnalysis>,
    /// What could not be read or replayed, by line.
    pub faults: Vec<Fault>,
}

/// The stakes a file is judged under.
pub enum Stakes<'a> {
    /// Money play through a table (with its cube table when the file used the cube).
    Money(&'a dyn Evaluator),
    /// A match: the tables of each score, seen from the file's first player.
    Match(&'a mut dyn FnMut(Score) -> Result<ScoreTables, Error>),
}

/// Analyses `record` (already read) under `stakes`. Faults of the file are kept in the
/// result; an error is returned only for what stops the whole analysis (a table that
/// cannot be opened).
pub fn analyse(record: &MatchRecord, stakes: Stakes<'_>) -> Result<Analysis, Error> {
    let mut faults = record.faults.clone();
    let mut games = Vec::new();
    let (variant, measure) = match &stakes {
        Stakes::Money(t) => (
            t.variant().clone(),
            if record.cube {
                Measure::Cubeful
            } else {
                Measure::Cubeless
            },
        ),
        Stakes::Match(_) => (Variant::parse(&record_variant(record)?)?, Measure::Chance),
    };
    let name = variant.name();
    let played = record.played.variant_name();
    if played.as_deref() != Some(name.as_str()) {
        faults.push(Fault {
            line: 0,
            game: None,
            reason: format!(
                "the file's games are {}, tabula judges them in {} ({}): nothing analysed",
                record.played.title(),
                variant.title(),
                match record.played {
                    super::gnubg::record::Played::Backgammon => {
                        "backgammon's bear-offs are judged by the bear-off databases"
                    }
                    _ => "Hypergammon 1-3 are judged exactly",
                }
            ),
        });
        return Ok(finish(record, &name, measure, games, faults));
    }
    if record.jacoby && record.length == 0 && record.cube {
        faults.push(Fault {
            line: 0,
            game: None,
            reason: "the Jacoby rule was in force; tabula's money games are judged without it"
                .into(),
        });
    }
    let crawford = crawford_games(record);
    match stakes {
        Stakes::Money(table) => {
            if record.cube {
                table.cube_required()?;
            }
            let judge = Money {
                table,
                beavers: false,
            };
            for g in &record.games {
                games.push(replay(&judge, record, g, false, Judging::All, &mut faults));
            }
        }
        Stakes::Match(tables) => {
            let length = record.length;
            for (g, &crawford) in record.games.iter().zip(&crawford) {
                let needs = |s: u32| length.checked_sub(s).filter(|&n| n > 0);
                let score = match (needs(g.score[0]), needs(g.score[1])) {
                    (Some(a), Some(b)) => Score::new(a, b, crawford),
                    _ => Err(Error::Inconsistent("a score at or past the length".into())),
                };
                let score = match score {
                    Ok(s) => s,
                    Err(e) => {
                        faults.push(Fault {
                            line: g.line,
                            game: Some(g.number),
                            reason: format!(
                                "the score {}-{} in a match to {length}: {e}",
                                g.score[0], g.score[1]
                            ),
                        });
                        continue;
                    }
                };
                let st = tables(score)?;
                let judge = AtScore { tables: &st, score };
                let all = Judging::All;
                games.push(replay(&judge, record, g, crawford, all, &mut faults));
            }
        }
    }
    Ok(finish(record, &name, measure, games, faults))
}

/// The analysis of a file played in a variant tabula has no table for (backgammon,
/// Nackgammon): no game, the fault saying so. None for a Hypergammon file.
pub fn unjudgeable(record: &MatchRecord) -> Option<Analysis> {
    if record.played.variant_name().is_some() {
        return None;
    }
    let mut faults = record.faults.clone();
    faults.push(Fault {
        line: 0,
        game: None,
        reason: format!(
            "the file's games are {}: tabula judges Hypergammon 1-3 games exactly{}",
            record.played.title(),
            match record.played {
                super::gnubg::record::Played::Backgammon => {
                    ", and backgammon's bear-offs with the bear-off databases"
                }
                _ => "",
            }
        ),
    });
    let measure = match record.length {
        0 => Measure::Cubeful,
        _ => Measure::Chance,
    };
    Some(finish(record, "-", measure, Vec::new(), faults))
}

/// The name of the built-in variant a record was played in, for a match's tables.
fn record_variant(record: &MatchRecord) -> Result<String, Error> {
    Ok(record
        .played
        .variant_name()
        .unwrap_or_else(|| "hyper1".to_string()))
}

pub(crate) fn finish(
    record: &MatchRecord,
    variant: &str,
    measure: Measure,
    games: Vec<GameAnalysis>,
    faults: Vec<Fault>,
) -> Analysis {
    let totals = [0, 1].map(|player| {
        let decisions: Vec<&Reviewed> = games
            .iter()
            .flat_map(|g| &g.reviews[player].decisions)
            .collect();
        let normalised = decisions.iter().fold(0.0, |sum, d| sum + d.normalised);
        let rate = (!decisions.is_empty()).then(|| normalised / decisions.len() as f64);
        let marked = |m: Mark| decisions.iter().filter(|d| d.mark == Some(m)).count();
        let plays = decisions.iter().filter(|d| d.kind == Kind::Play).count();
        Totals {
            name: record.players[player].clone(),
            decisions: decisions.len(),
            plays,
            cube: decisions.len() - plays,
            normalised,
            rate,
            rating: rate.map(Rating::of),
            marks: [
                marked(Mark::Doubtful),
                marked(Mark::Bad),
                marked(Mark::VeryBad),
            ],
            skipped: games.iter().map(|g| g.skipped[player]).sum(),
        }
    });
    Analysis {
        variant: variant.to_string(),
        length: record.length,
        measure,
        totals,
        games,
        faults,
    }
}

/// The side of the cube's owner, seen from `player`.
fn owner_of(player: usize) -> Owner {
    match player {
        0 => Owner::X,
        _ => Owner::O,
    }
}

/// Which of a game's decisions are judged (where the judge holds the position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Judging {
    /// Plays, cube decisions and answers.
    All,
    /// Plays only: the judge has no cube (the one-sided estimate); doubles and answers
    /// are counted as skipped.
    Plays,
    /// None: every decision is counted as skipped (a score the tables cannot judge).
    Nothing,
}

/// The game under way.
struct Replay<'j, J: Judge> {
    judges: [&'j J; 2],
    v: Variant,
    pos: Position,
    on_roll: Option<usize>,
    cube: Option<Cube>,
    /// The doubler and its verdict (none: not judged), when a double awaits its answer.
    pending: Option<(usize, Option<CubeAction>)>,
    judging: Judging,
    /// Each player's decisions not judged.
    skipped: [usize; 2],
    /// The side on roll has made its cube decision this turn.
    decided: bool,
    decisions: [Vec<Reviewed>; 2],
    steps: Vec<Step>,
    /// Points won by player 0 (negative: lost), once the game is over.
    points: Option<i32>,
    record: &'j MatchRecord,
    game: &'j GameRecord,
    crawford: bool,
}

pub(crate) fn replay<J: Judge + Clone>(
    judge: &J,
    record: &MatchRecord,
    game: &GameRecord,
    crawford: bool,
    judging: Judging,
    faults: &mut Vec<Fault>,
) -> GameAnalysis {
    let turned = judge.turned();
    let v = judge.variant().clone();
    let start = starting_cube(record, game, crawford);
    let mut r = Replay {
        judges: [judge, &turned],
        pos: v.opening(),
        v,
        on_roll: None,
        cube: record.cube.then(|| *start.as_ref().unwrap_or(&Cube::START)),
        pending: None,
        judging,
        skipped: [0, 0],
        decided: false,
        decisions: [Vec::new(), Vec::new()],
        steps: Vec::new(),
        points: None,
        record,
        game,
        crawford,
    };
    let mut complete = true;
    let mut actions = game.actions.as_slice();
    if let Err(reason) = &start {
        faults.push(Fault {
            line: game.line,
            game: Some(game.number),
            reason: reason.clone(),
        });
        (complete, actions) = (false, &[]);
    }
    for action in actions {
        let outcome = if r.points.is_some() {
            Err("an action after the game's end".to_string())
        } else {
            r.act(action)
        };
        if let Err(reason) = outcome {
            faults.push(Fault {
                line: action.line,
                game: Some(game.number),
                reason,
            });
            complete = false;
            break;
        }
    }
    let points = match (r.points, game.result) {
        (Some(p), _) => Some(p),
        // A resignation: the file's result.
        (None, Some((winner, n))) if complete => {
            Some(if winner == 0 { n as i32 } else { -(n as i32) })
        }
        _ => None,
    };
    let measure = judge.unit(judge.seen(record.cube.then_some(Cube::START), Owner::X));
    let cube = r.cube.map_or(1, |c| c.value);
    let [d0, d1] = r.decisions;
    GameAnalysis {
        number: game.number,
        score: game.score,
        crawford,
        reviews: [
            review::game_review(d0, points, cube, measure),
            review::game_review(d1, points.map(|p| -p), cube, measure),
        ],
        steps: r.steps,
        complete,
        skipped: r.skipped,
    }
}

/// Whether each game of a match is the Crawford game: as the file marks it, else by the
/// rule (the first game at which a player needs one point, after a game that left one
/// there: not a match to one, as gnubg has it). Every game of a money session is not.
pub(crate) fn crawford_games(record: &MatchRecord) -> Vec<bool> {
    let mut previous_at_match_point = false;
    let length = record.length;
    record
        .games
        .iter()
        .map(|g| {
            let at_match_point = length > 0 && g.score.iter().any(|&s| s + 1 == length);
            let crawford = g
                .crawford
                .unwrap_or(length > 1 && at_match_point && !previous_at_match_point)
                && at_match_point;
            previous_at_match_point = at_match_point;
            crawford
        })
        .collect()
}

/// The cube `game` starts from (the usual one when its file sets none): refused in a game
/// without the cube and in the Crawford game.
fn starting_cube(record: &MatchRecord, game: &GameRecord, crawford: bool) -> Result<Cube, String> {
    let Some(start) = game.start else {
        return Ok(Cube::START);
    };
    let turned = format!("the game starts from a cube of {}", start.value);
    if !record.cube {
        return Err(format!("{turned}, but it was played without the cube"));
    }
    if crawford {
        return Err(format!("{turned}, but it is the Crawford game (no cube)"));
    }
    Ok(Cube {
        value: start.value,
        owner: start.owner.map_or(Owner::Centred, owner_of),
    })
}

impl<J: Judge> Replay<'_, J> {
    /// Whether `p`'s decision in the present position is judged; counted as skipped when
    /// not. `cube`: a cube decision or an answer.
    fn judged(&mut self, p: usize, cube: bool) -> bool {
        let judged = match self.judging {
            Judging::All => true,
            Judging::Plays => !cube,
            Judging::Nothing => false,
        } && self.judges[p].holds(&self.pos)
            && self.judges[p].prepare(&self.pos).is_ok();
        if !judged {
            self.skipped[p] += 1;
        }
        judged
    }

    fn seen(&self, player: usize) -> J::Cube {
        self.judges[player].seen(self.cube, owner_of(player))
    }

    /// The position as an XGID for the review, `player` on roll.
    fn xgid(&self, player: usize, pos: &Position, dice: XgDice) -> String {
        let owner = match self.cube.map(|c| c.owner) {
            None | Some(Owner::Centred) => XgOwner::Centred,
            Some(o) if o == owner_of(player) => XgOwner::OnRoll,
            Some(_) => XgOwner::Opponent,
        };
        let s = self.game.score;
        let x = Xgid {
            position: *pos,
            cube: self.cube.map_or(1, |c| c.value),
            owner,
            dice,
            score: [s[player], s[1 - player]],
            length: self.record.length,
            crawford: self.crawford,
            jacoby: false,
            beavers: false,
            max_cube: if self.record.cube { 10 } else { 0 },
            top_on_roll: false,
        };
        xgid::write(&x).unwrap_or_default()
    }

    fn record(&mut self, player: usize, line: usize, review: Reviewed, xgid: String) {
        self.steps.push(Step {
            line,
            player,
            decision: self.decisions[player].len(),
            xgid,
        });
        self.decisions[player].push(review);
    }

    fn act(&mut self, a: &Action) -> Result<(), String> {
        let p = a.player;
        if let Some((doubler, _)) = self.pending {
            if p == doubler || !matches!(a.act, Act::Take | Act::Drop) {
                return Err("a double not answered by take or pass".into());
            }
        }
        match &a.act {
            Act::Move { dice, steps } => self.play(a.line, p, Roll::new(dice.0, dice.1), steps),
            Act::Double => self.double(a.line, p),
            Act::Take | Act::Drop => self.answer(a.line, p, a.act == Act::Take),
        }
    }

    fn check_turn(&mut self, p: usize) -> Result<(), String> {
        match self.on_roll {
            Some(q) if q != p => Err(format!(
                "{} acts, but {} is on roll",
                self.record.players[p], self.record.players[q]
            )),
            _ => Ok(()),
        }
    }

    /// The cube decision of `p` before its roll when it did not double: recorded when it
    /// had access.
    fn held(&mut self, line: usize, p: usize) -> Result<(), String> {
        if self.decided || self.cube.is_none() || self.on_roll.is_none() {
            return Ok(());
        }
        // Unjudged positions: a turn without a double is not counted as a decision.
        let judge = self.judges[p];
        if self.judging != Judging::All
            || !judge.holds(&self.pos)
            || judge.prepare(&self.pos).is_err()
        {
            return Ok(());
        }
        let seen = self.seen(p);
        let action = judge.cube(&self.pos, seen).map_err(|e| e.to_string())?;
        if let Some(action) = action.filter(|a| a.action.is_some()) {
            self.cube_decision(line, p, &action, false);
        }
        Ok(())
    }

    /// Records `p`'s cube decision (`doubled` or not) against `action`, the table's.
    fn cube_decision(&mut self, line: usize, p: usize, action: &CubeAction, doubled: bool) {
        let (judge, seen) = (self.judges[p], self.seen(p));
        let (answers, best) = review::double_answers(action);
        let k = usize::from(!doubled);
        let loss = answers[best].1 - answers[k].1;
        let words = [answers[k].0, answers[best].0];
        let (pos, cube) = (self.pos, self.cube);
        let r = review::reviewed(judge, seen, &pos, cube, Kind::Cube, None, words, loss);
        let x = self.xgid(p, &pos, XgDice::ToRoll);
        self.record(p, line, r, x);
    }

    fn play(
        &mut self,
        line: usize,
        p: usize,
        roll: Roll,
        steps: &[(u8, u8)],
    ) -> Result<(), String> {
        self.check_turn(p)?;
        if roll.high() > *self.v.faces.iter().max().unwrap_or(&6) {
            return Err(format!("the roll {roll} is not of the variant's dice"));
        }
        self.held(line, p)?;
        self.on_roll = Some(p);
        let target = apply(&self.pos, steps)?;
        let plays = Generator::new(&self.v).plays(&self.pos, roll);
        let Some(chosen) = plays.iter().find(|q| q.after == target).copied() else {
            return Err(format!(
                "{} is not a legal play of {roll} (the play {} leaves the mover's side {})",
                describe(steps),
                describe(steps),
                super::notation::notation(&self.v, &target)
                    .split('/')
                    .next()
                    .unwrap_or("")
            ));
        };
        if plays.len() > 1 && self.judged(p, false) {
            let judge = self.judges[p];
            let seen = self.seen(p);
            let ranked = rank(judge, &self.pos, roll, seen).map_err(|e| e.to_string())?;
            if let (Some(at), Some(best)) = (
                ranked.iter().position(|j| j.play.after == chosen.after),
                ranked.first(),
            ) {
                let points = self.v.points;
                let (c, b) = (ranked[at].play.text(points), best.play.text(points));
                let r = review::reviewed(
                    judge,
                    seen,
                    &self.pos,
                    self.cube,
                    Kind::Play,
                    Some(roll),
                    [&c, &b],
                    ranked[at].loss,
                );
                let (d0, d1) = (roll.high(), roll.low());
                let x = self.xgid(p, &self.pos, XgDice::Rolled(d0, d1));
                self.record(p, line, r, x);
            }
        }
        if chosen.wins() {
            let won = win_points(&self.v, chosen.after.them()) * self.cube.map_or(1, |c| c.value);
            self.points = Some(if p == 0 { won as i32 } else { -(won as i32) });
        }
        self.pos = chosen.after.swapped();
        self.on_roll = Some(1 - p);
        self.decided = false;
        Ok(())
    }

    fn double(&mut self, line: usize, p: usize) -> Result<(), String> {
        self.check_turn(p)?;
        // A double before the game's first roll (a game of tabula's page, where the side
        // that starts may double at once): that side is on roll.
        self.on_roll.get_or_insert(p);
        if self.decided {
            return Err("a second double in one turn".into());
        }
        if !self.judged(p, true) {
            let cube = self.cube.ok_or("a double in a game without the cube")?;
            if cube.owner == owner_of(1 - p) {
                return Err(format!(
                    "{} doubles, but the cube is the other side's",
                    self.record.players[p]
                ));
            }
            self.decided = true;
            self.pending = Some((p, None));
            return Ok(());
        }
        let judge = self.judges[p];
        let seen = self.seen(p);
        let action = judge.cube(&self.pos, seen).map_err(|e| e.to_string())?;
        let Some(action) = action.filter(|a| a.action.is_some()) else {
            return Err(format!(
                "{} doubles without access to the cube (it is the other side's, the Crawford \
                 game, or no cube)",
                self.record.players[p]
            ));
        };
        self.cube_decision(line, p, &action, true);
        self.decided = true;
        self.pending = Some((p, Some(action)));
        Ok(())
    }

    fn answer(&mut self, line: usize, taker: usize, takes: bool) -> Result<(), String> {
        let Some((doubler, action)) = self.pending.take() else {
            return Err("a take or pass with no double to answer".into());
        };
        let cube = self.cube.unwrap_or(Cube::START);
        let Some(action) = action else {
            self.skipped[taker] += 1;
            return self.settle(doubler, taker, takes, cube);
        };
        let (answers, best) = review::take_answers(&action);
        let k = usize::from(!takes);
        let loss = answers[best].1 - answers[k].1;
        let judge = self.judges[doubler];
        let seen = self.seen(doubler);
        let words = [answers[k].0, answers[best].0];
        let pos = self.pos;
        let r = review::reviewed(
            judge,
            seen,
            &pos,
            self.cube,
            Kind::Response,
            None,
            words,
            loss,
        );
        let x = self.xgid(doubler, &pos, XgDice::Doubled);
        self.record(taker, line, r, x);
        self.settle(doubler, taker, takes, cube)
    }

    /// The cube after the answer: taken, or the game passed.
    fn settle(
        &mut self,
        doubler: usize,
        taker: usize,
        takes: bool,
        cube: Cube,
    ) -> Result<(), String> {
        if takes {
            self.cube = Some(cube.taken_by(owner_of(taker)));
        } else {
            let won = cube.value as i32;
            self.points = Some(if doubler == 0 { won } else { -won });
        }
        Ok(())
    }
}

fn describe(steps: &[(u8, u8)]) -> String {
    if steps.is_empty() {
        return "no move".into();
    }
    let point = |p: u8| match p {
        25 => "bar".to_string(),
        0 => "off".to_string(),
        p => p.to_string(),
    };
    steps
        .iter()
        .map(|&(f, t)| format!("{}/{}", point(f), point(t)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position after the mover's steps (its numbering: 25 the bar, 0 off), hits
/// included; refused when a step moves a checker that is not there, backwards, or onto
/// a point the other side holds with two or more.
fn apply(pos: &Position, steps: &[(u8, u8)]) -> Result<Position, String> {
    let p = pos.points();
    let mut us = pos.us().to_vec();
    let mut them = pos.them().to_vec();
    for &(from, to) in steps {
        let (from, to) = (usize::from(from), usize::from(to));
        let slot = match from {
            25 => p,
            f if (1..=p).contains(&f) => f - 1,
            f => return Err(format!("no point {f} to move from")),
        };
        if us[slot] == 0 {
            return Err(format!(
                "{}: no checker of the mover there",
                describe(&[(from as u8, to as u8)])
            ));
        }
        if to >= from.min(p + 1) {
            return Err(format!(
                "{} does not move forward",
                describe(&[(from as u8, to as u8)])
            ));
        }
        us[slot] -= 1;
        if to == 0 {
            continue;
        }
        us[to - 1] += 1;
        let theirs = p - to;
        match them[theirs] {
            0 => {}
            1 => {
                them[theirs] = 0;
                them[p] += 1;
            }
            _ => {
                return Err(format!(
                    "{}: the other side holds point {to}",
                    describe(&[(from as u8, to as u8)])
                ))
            }
        }
    }
    Position::new(&us, &them).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_apply_with_their_hits() {
        let v = Variant::parse("hyper2").unwrap();
        let p = v.opening();
        // 24/18 lands on the other side's point 7: empty.
        let q = apply(&p, &[(24, 18)]).unwrap();
        assert_eq!(super::super::notation::notation(&v, &q), "23,18/24,23");
        // A hit: the other side's checker on its point 7 is our 18.
        // The other side on roll: its 24/7 lands on our 18 and hits.
        let hit = apply(&q.swapped(), &[(24, 7)]).unwrap();
        assert_eq!(hit.them()[24], 1);
        assert!(apply(&p, &[(20, 18)]).is_err());
        assert!(apply(&p, &[(18, 24)]).is_err());
    }
}
