//! The trainer (`docs/gammon.md`, "Playing"): a session of games against a table's
//! perfect play, cubeless or money play with the doubling cube, for any variant and any
//! table ([`Evaluator`]). The board before every turn; plays read in gnubg's notation (or
//! by their number in the list); the opponent's decisions shown without the table's
//! numbers until the human has answered; `hint` and `eval` on request at every prompt;
//! after each game a review of every decision the human made — plays and cube — with the
//! equity it lost against the best and gnubg's marks; a running score over the session.
//! Reads the human's answers from any `BufRead` and writes to any `Write`.

use super::board::{self, Around};
use super::console::{self, Console};
use super::cube::{decide_money, Cube, CubeAction, CubeState, Owner, Response};
use super::moves::Play;
use super::notation::{notation, parse_position};
use super::query::{hint, Hint};
use super::{Error, Evaluator, Position, Roll};
use crate::lines::Lines;
use crate::random;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::{BufRead, Write};

/// What kind of session to play.
#[derive(Clone, Copy)]
pub struct Options<'w> {
    /// Seed of the dice: game `k` of the session rolls stream `k` of it.
    pub seed: u64,
    /// The human (X) rolls first in the first game; the sides alternate after.
    pub human_first: bool,
    /// Money play with the doubling cube (no Jacoby rule, no beavers); the table must
    /// keep the cube.
    pub cube: bool,
    /// Draw the board before every turn; else one line of notation.
    pub board: bool,
    /// The words of the cube verdict.
    pub words: &'w dyn Words,
}

/// gnubg's marks for a decision that lost equity: more than 0.03 doubtful, more than 0.06
/// bad, more than 0.12 very bad (equity per unit of the cube, gnubg's default levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// `?!`: lost more than 0.03.
    Doubtful,
    /// `?`: lost more than 0.06.
    Bad,
    /// `??`: lost more than 0.12 (a blunder).
    VeryBad,
}

impl Mark {
    /// The mark of a decision that lost `loss` (per unit of the cube), if any.
    pub fn of(loss: f64) -> Option<Mark> {
        if loss > 0.12 {
            Some(Mark::VeryBad)
        } else if loss > 0.06 {
            Some(Mark::Bad)
        } else if loss > 0.03 {
            Some(Mark::Doubtful)
        } else {
            None
        }
    }

    /// `?!`, `?` or `??`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Doubtful => "?!",
            Mark::Bad => "?",
            Mark::VeryBad => "??",
        }
    }
}

/// What a reviewed decision was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A play of the dice.
    Play,
    /// Double or not, before the roll.
    Cube,
    /// Take or pass the opponent's double.
    Response,
}

/// One decision of the human's, reviewed.
#[derive(Debug, Clone, Serialize)]
pub struct Reviewed {
    /// What was decided.
    pub kind: Kind,
    /// The position decided on (notation), the decider on roll — for a response to a
    /// double, the doubler (the table) is on roll.
    pub position: String,
    /// The cube state of the side on roll in that position; none without the cube.
    pub cube: Option<CubeState>,
    /// The cube's value then.
    pub value: u32,
    /// The roll, for a play.
    pub roll: Option<Roll>,
    /// What the human chose: a play in gnubg's notation, `double`, `no double`, `take`
    /// or `pass`.
    pub chosen: String,
    /// The best choice.
    pub best: String,
    /// Equity lost against the best, per unit of the cube (0 for the best).
    pub loss: f64,
    /// gnubg's mark for the loss.
    pub mark: Option<Mark>,
}

/// How one game of the session went.
#[derive(Debug, Clone, Serialize)]
pub struct GameReview {
    /// Points won by the human (negative when lost); none when abandoned.
    pub human_points: Option<i32>,
    /// The cube's value at the end.
    pub cube: u32,
    /// Every decision of the human's, in order.
    pub decisions: Vec<Reviewed>,
    /// Their total loss, per unit of the cube.
    pub total: f64,
    /// Their total loss in points: each loss times the cube's value then.
    pub total_points: f64,
}

/// How the session went.
#[derive(Debug, Clone, Serialize)]
pub struct SessionResult {
    /// The seed of its dice.
    pub seed: u64,
    /// Each game.
    pub games: Vec<GameReview>,
    /// The human's points over the finished games.
    pub score: i32,
}

/// How the session words what the library does not present itself (the command layer
/// owns the words): the cube verdict.
pub trait Words {
    /// The cube verdict of the side on roll, its values equities per unit of the cube.
    fn verdict(&self, a: &CubeAction) -> String;
}

/// Plays a session: games from the variant's opening, the human (X) against the table
/// (O), until the human declines another game, quits or the input ends.
///
/// The table doubles when its cube decision is "double, take" or "double, pass" (not
/// when too good: it plays on for the gammon), takes a double when taking costs it no
/// more than passing, and plays its best play for its cube state (cubeless without the
/// cube).
pub fn session<R: BufRead, W: Write>(
    table: &dyn Evaluator,
    options: &Options<'_>,
    input: R,
    out: &mut W,
) -> Result<SessionResult, Error> {
    if options.cube {
        table.cube_required()?;
    }
    let mut lines = Lines::new(input);
    let mut t = Trainer {
        table,
        options,
        con: Console {
            input: &mut lines,
            out,
        },
        review: Vec::new(),
    };
    let v = table.variant();
    t.say(format_args!(
        "{}: you are X, the table plays O. Dice seed {} (replay with --seed {}).",
        v.title(),
        options.seed,
        options.seed
    ))?;
    t.say(format_args!(
        "{}At any question: `hint` for the table's advice, `eval` for the position's \
         values, `q` to quit.",
        if options.cube {
            "Money play with the doubling cube (no Jacoby rule): the side on roll may \
             double before it rolls when the cube is centred or its own. "
        } else {
            ""
        }
    ))?;
    let mut result = SessionResult {
        seed: options.seed,
        games: Vec::new(),
        score: 0,
    };
    for game in 0.. {
        let human_first = options.human_first ^ (game % 2 == 1);
        t.say(format_args!(
            "\nGame {}: {} first.",
            game + 1,
            if human_first { "you roll" } else { "O rolls" }
        ))?;
        let (end, cube) = t.game(game, human_first)?;
        let review = t.finish(end, cube);
        t.report(&review)?;
        if let Some(p) = review.human_points {
            result.score += p;
        }
        let finished = review.human_points.is_some();
        result.games.push(review);
        let played = result
            .games
            .iter()
            .filter(|g| g.human_points.is_some())
            .count();
        t.say(format_args!(
            "Session: you {:+} point(s) after {played} finished game(s).",
            result.score
        ))?;
        if !finished || t.choose("Another game? [y/n] ", ["y", "n"], None)? != Some(0) {
            break;
        }
    }
    Ok(result)
}

/// The session under way.
struct Trainer<'a, R, W> {
    table: &'a dyn Evaluator,
    options: &'a Options<'a>,
    con: Console<'a, R, W>,
    /// The current game's decisions.
    review: Vec<Reviewed>,
}

/// What `hint` and `eval` show at a prompt.
#[derive(Clone, Copy)]
enum Help<'h> {
    /// The cube decision of the side on roll in `pos`: the human's, or (`true`) the
    /// table's double the human answers.
    Cube(&'h Position, CubeState, bool),
    /// The plays of a roll.
    Plays(&'h Hint),
}

impl<R: BufRead, W: Write> Trainer<'_, R, W> {
    fn say(&mut self, text: std::fmt::Arguments<'_>) -> Result<(), Error> {
        self.con.say(text)
    }

    /// One game: its end (the human's points, none when abandoned) and the cube at the
    /// end.
    fn game(&mut self, game: u64, human_first: bool) -> Result<(Option<i32>, Cube), Error> {
        let v = self.table.variant().clone();
        let mut rng = random::stream(self.options.seed, game);
        let mut pos = v.opening();
        let mut human = human_first;
        let mut cube = self.options.cube.then_some(Cube::START);
        let faces = v.faces.len() as u64;
        self.review.clear();
        loop {
            self.show(&pos, human, cube, None)?;
            if let Some(c) = cube.as_mut() {
                let before = *c;
                match self.cube_turn(&pos, human, c)? {
                    Turn::Continue => {}
                    Turn::Quit => return Ok((None, before)),
                    Turn::Passed(points) => return Ok((Some(points), before)),
                }
            }
            let a = v.faces[random::below(&mut rng, faces) as usize];
            let b = v.faces[random::below(&mut rng, faces) as usize];
            let roll = Roll::new(a, b);
            let chosen = if human {
                match self.human_play(&pos, roll, cube)? {
                    Some(p) => p,
                    None => return Ok((None, cube.unwrap_or(Cube::START))),
                }
            } else {
                self.table_play(&pos, roll, cube)?
            };
            if chosen.wins() {
                let (points, word) = console::won(&v, &chosen, cube);
                let human_points = if human { points } else { -points };
                if human {
                    self.say(format_args!("You win {word}: {points} point(s)."))?;
                } else {
                    self.say(format_args!("O wins {word}: you lose {points} point(s)."))?;
                }
                return Ok((Some(human_points), cube.unwrap_or(Cube::START)));
            }
            pos = chosen.after.swapped();
            human = !human;
        }
    }

    /// The board (or the notation) from the human's side.
    fn show(
        &mut self,
        pos: &Position,
        human: bool,
        cube: Option<Cube>,
        dice: Option<Roll>,
    ) -> Result<(), Error> {
        let v = self.table.variant();
        let view = if human { *pos } else { pos.swapped() };
        if self.options.board {
            let around = Around {
                cube: cube.map(|c| (c.value, c.state(Owner::X))),
                dice,
                top_on_roll: !human,
            };
            let drawn = board::draw(v, &view, &around);
            self.say(format_args!("\n{drawn}"))
        } else {
            self.con.show_notation(v, &view, cube)
        }
    }

    /// The cube decisions before the roll of the side on roll.
    fn cube_turn(&mut self, pos: &Position, human: bool, c: &mut Cube) -> Result<Turn, Error> {
        let me = if human { Owner::X } else { Owner::O };
        let state = c.state(me);
        if !state.has_access() {
            return Ok(Turn::Continue);
        }
        let action = decide_money(&self.table.cubeful_required(pos)?, state, false);
        let before = c.value;
        if human {
            let doubled = action.double_take.min(action.double_pass);
            let answers = [("double", doubled), ("no double", action.no_double)];
            let best = usize::from(doubled <= action.no_double);
            let Some(k) = self.cube_question(Kind::Cube, answers, best, pos, state, before)? else {
                return Ok(Turn::Quit);
            };
            if k == 1 {
                return Ok(Turn::Continue);
            }
            self.say(format_args!("You double to {}.", 2 * before))?;
            let takes = action.response == Some(Response::Take);
            let passed = self.con.double_answered(Owner::O, takes, "", c, before)?;
            self.say(format_args!("{}", self.options.words.verdict(&action)))?;
            Ok(passed.map_or(Turn::Continue, Turn::Passed))
        } else if action.action.is_some_and(|d| d.doubles()) {
            self.say(format_args!("O doubles to {}.", 2 * before))?;
            // The human's equity taking is minus the doubler's; passing, -1.
            let (take, pass) = (-action.double_take, -action.double_pass);
            let answers = [("take", take), ("pass", pass)];
            let best = usize::from(take < pass);
            let Some(k) = self.cube_question(Kind::Response, answers, best, pos, state, before)?
            else {
                return Ok(Turn::Quit);
            };
            self.say(format_args!(
                "The table's verdict on its double: {}",
                self.options.words.verdict(&action)
            ))?;
            let passed = self.con.double_answered(Owner::X, k == 0, "", c, before)?;
            Ok(passed.map_or(Turn::Continue, Turn::Passed))
        } else {
            Ok(Turn::Continue)
        }
    }

    /// Asks the human's cube question in `pos` (`kind`: double or roll, or take or pass
    /// the table's double), the human's cube `state`, the cube at `before`; `answers`
    /// the two answers' names and equities for the human, `best` the better's place.
    /// Records the answer for the review; its place, or `None` when the human quit (the
    /// game abandoned, said).
    fn cube_question(
        &mut self,
        kind: Kind,
        answers: [(&str, f64); 2],
        best: usize,
        pos: &Position,
        state: CubeState,
        before: u32,
    ) -> Result<Option<usize>, Error> {
        let (prompt, letters, answering) = match kind {
            Kind::Cube => ("Double or roll? [d/r] ", ["d", "r"], false),
            _ => ("Take or pass? [t/p] ", ["t", "p"], true),
        };
        let help = Some(Help::Cube(pos, state, answering));
        let Some(k) = self.choose(prompt, letters, help)? else {
            self.con.abandoned()?;
            return Ok(None);
        };
        let ((chosen, value), (best, most)) = (answers[k], answers[best]);
        let position = notation(self.table.variant(), pos);
        let loss = most - value;
        self.record(
            kind,
            position,
            Some(state),
            before,
            None,
            chosen,
            best,
            loss,
        );
        Ok(Some(k))
    }
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        kind: Kind,
        position: String,
        cube: Option<CubeState>,
        value: u32,
        roll: Option<Roll>,
        chosen: &str,
        best: &str,
        loss: f64,
    ) {
        let loss = loss.max(0.0);
        self.review.push(Reviewed {
            kind,
            position,
            cube,
            value,
            roll,
            chosen: chosen.to_string(),
            best: best.to_string(),
            loss,
            mark: Mark::of(loss),
        });
    }

    /// The human's play of `roll`: the only one, or the one chosen; `None` to quit.
    fn human_play(
        &mut self,
        pos: &Position,
        roll: Roll,
        cube: Option<Cube>,
    ) -> Result<Option<Play>, Error> {
        let v = self.table.variant();
        let plays = match self.con.roll(v, pos, roll)? {
            Ok(only) => return Ok(Some(only)),
            Err(plays) => plays,
        };
        let state = cube.map(|c| c.state(Owner::X));
        let ranked = hint(self.table, pos, roll, state)?;
        self.con.list(v, &plays)?;
        let Some(chosen) = self.ask(pos, &plays, &ranked)? else {
            self.con.abandoned()?;
            return Ok(None);
        };
        let found = ranked.moves.iter().find(|m| m.play.after == chosen.after);
        if let (Some(m), Some(best)) = (found, ranked.moves.first()) {
            let value = cube.map_or(1, |c| c.value);
            let (chosen_text, best_text) = (m.text.clone(), best.text.clone());
            self.record(
                Kind::Play,
                notation(v, pos),
                state,
                value,
                Some(roll),
                &chosen_text,
                &best_text,
                m.loss,
            );
        }
        Ok(Some(chosen))
    }

    /// The table's best play of `roll` (for its cube state with the cube), shown without
    /// its equity.
    fn table_play(
        &mut self,
        pos: &Position,
        roll: Roll,
        cube: Option<Cube>,
    ) -> Result<Play, Error> {
        let state = cube.map(|c| c.state(Owner::O));
        let ranked = hint(self.table, pos, roll, state)?;
        let best = ranked.moves.first().map(|b| (b.text.as_str(), b.play));
        self.con.table_moves(pos, roll, best, "")
    }

    /// Asks `prompt` until the answer is one of the two `letters` (or the word it
    /// starts); `hint` and `eval` answered meanwhile. The letter's place, or `None` for
    /// `q` or the end of the input.
    fn choose(
        &mut self,
        prompt: &str,
        letters: [&str; 2],
        help: Option<Help<'_>>,
    ) -> Result<Option<usize>, Error> {
        let (table, words) = (self.table, self.options.words);
        let extra = if help.is_some() { ", hint, eval" } else { "" };
        self.con.choose(prompt, letters, extra, &mut |con, answer| {
            advise(con, table, words, answer, help)
        })
    }

    /// Asks for one of `plays`: its number, the play in gnubg's notation (or looser), or
    /// the position it leads to; `hint` and `eval` answered meanwhile.
    fn ask(
        &mut self,
        pos: &Position,
        plays: &[Play],
        ranked: &Hint,
    ) -> Result<Option<Play>, Error> {
        let v = self.table.variant();
        let example = plays[0].text(v.points);
        let prompt = format!("Your play (number, or like `{example}`; hint, eval, q): ");
        let (table, words) = (self.table, self.options.words);
        let help = Some(Help::Plays(ranked));
        self.con.ask(
            &prompt,
            (v, pos, plays),
            &mut |con, line| advise(con, table, words, line, help),
            |_, e| e.to_string(),
        )
    }

    /// The game's review from its decisions.
    fn finish(&mut self, human_points: Option<i32>, cube: Cube) -> GameReview {
        let decisions = std::mem::take(&mut self.review);
        let total = decisions.iter().map(|d| d.loss).sum();
        let total_points = decisions.iter().map(|d| d.loss * f64::from(d.value)).sum();
        GameReview {
            human_points,
            cube: cube.value,
            decisions,
            total,
            total_points,
        }
    }

    /// Prints a game's review.
    fn report(&mut self, r: &GameReview) -> Result<(), Error> {
        let mut out = String::from(
            "\nReview of your decisions (equity lost against the best, per unit of the cube; \
             gnubg's marks: ?! over 0.03, ? over 0.06, ?? over 0.12):",
        );
        for (k, d) in r.decisions.iter().enumerate() {
            let cube = d.cube.map_or("none", CubeState::name);
            let what = match (d.kind, d.roll) {
                (Kind::Play, Some(roll)) => format!("play {roll}"),
                (Kind::Cube, _) => "cube".to_string(),
                _ => "answer".to_string(),
            };
            let mark = d.mark.map_or("", Mark::symbol);
            let _ = write!(
                out,
                "\n  {:>3}. {what} at {} (cube {cube} at {}): {}; best {}; loss {:.6} {mark}",
                k + 1,
                d.position,
                d.value,
                d.chosen,
                d.best,
                d.loss
            );
        }
        let marked = |m: Mark| r.decisions.iter().filter(|d| d.mark == Some(m)).count();
        let _ = write!(
            out,
            "\nTotal: {:.6} lost in {} decision(s) ({:.6} points at the cube's values); \
             {} very bad, {} bad, {} doubtful.",
            r.total,
            r.decisions.len(),
            r.total_points,
            marked(Mark::VeryBad),
            marked(Mark::Bad),
            marked(Mark::Doubtful)
        );
        self.say(format_args!("{out}"))
    }
}

/// Shows what `hint` or `eval` asks for, if `answer` is one of them.
fn advise<R: BufRead, W: Write>(
    con: &mut Console<'_, R, W>,
    table: &dyn Evaluator,
    words: &dyn Words,
    answer: &str,
    help: Option<Help<'_>>,
) -> Result<bool, Error> {
    let word = answer.to_lowercase();
    if word != "hint" && word != "eval" {
        return Ok(false);
    }
    let v = table.variant();
    let text = match (word.as_str(), help) {
        (_, None) => "No advice here.".to_string(),
        ("hint", Some(Help::Cube(pos, state, answering))) => {
            let action = decide_money(&table.cubeful_required(pos)?, state, false);
            let who = if answering {
                "O's double, from O's side: "
            } else {
                ""
            };
            format!("{who}{}", words.verdict(&action))
        }
        ("hint", Some(Help::Plays(h))) => {
            let mut out = format!("The table's ranking of {}:", h.roll);
            for (k, m) in h.moves.iter().enumerate() {
                let _ = write!(
                    out,
                    "\n  {:>2}. {:<24} equity {:+.6}  loss {:.6}",
                    k + 1,
                    m.text,
                    m.key(),
                    m.loss
                );
            }
            out
        }
        (_, Some(Help::Cube(pos, state, _))) => evaluation(table, pos, Some(state))?,
        (_, Some(Help::Plays(h))) => {
            let pos = parse_position(v, &h.position)?;
            evaluation(table, &pos, h.cube)?
        }
    };
    con.say(format_args!("{text}"))?;
    Ok(true)
}

/// The values of `pos` for the side on roll.
fn evaluation(
    t: &dyn Evaluator,
    pos: &Position,
    state: Option<CubeState>,
) -> Result<String, Error> {
    let o = t.outcomes(pos)?;
    let mut out = format!(
        "{}: cubeless equity {:+.6} for the side on roll; win {:.1}% (gammon {:.1}%), \
             lose {:.1}% (gammon {:.1}%)",
        notation(t.variant(), pos),
        t.equity(pos)?,
        100.0 * o.win,
        100.0 * o.win_gammon,
        100.0 * o.lose,
        100.0 * o.lose_gammon
    );
    if let (Some(state), Some(c)) = (state, t.cubeful(pos)?) {
        let _ = write!(out, "\ncubeful (no double, {state}) {:+.6}", c[state]);
    }
    Ok(out)
}

/// What a cube turn came to.
enum Turn {
    /// Play on: roll.
    Continue,
    /// The human quit.
    Quit,
    /// A double was passed: the human's points.
    Passed(i32),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::cube::Cubeful;
    use crate::gammon::store::Tables;
    use crate::gammon::Variant;

    #[test]
    fn gnubgs_marks_start_above_three_six_and_twelve_hundredths() {
        assert_eq!(Mark::of(0.0), None);
        assert_eq!(Mark::of(0.03), None);
        assert_eq!(Mark::of(0.031), Some(Mark::Doubtful));
        assert_eq!(Mark::of(0.06), Some(Mark::Doubtful));
        assert_eq!(Mark::of(0.061), Some(Mark::Bad));
        assert_eq!(Mark::of(0.121), Some(Mark::VeryBad));
        assert_eq!(Mark::VeryBad.symbol(), "??");
    }

    fn hyper1() -> &'static Tables {
        use std::sync::OnceLock;
        static TABLES: OnceLock<Tables> = OnceLock::new();
        TABLES.get_or_init(|| {
            let v = Variant::parse("hyper1").unwrap();
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("hyper1.tbl");
            crate::gammon::store::build(&v, &path, true, crate::progress::Progress::SILENT)
                .unwrap();
            Tables::open(&path).unwrap()
        })
    }

    /// The verdict in brief, for the tests.
    struct Brief;

    impl Words for Brief {
        fn verdict(&self, a: &CubeAction) -> String {
            format!("verdict {:?}", a.proper)
        }
    }

    fn run(seed: u64, input: &str) -> (SessionResult, String) {
        let options = Options {
            seed,
            human_first: true,
            cube: true,
            board: false,
            words: &Brief,
        };
        let mut out = Vec::new();
        let result = session(hyper1(), &options, input.as_bytes(), &mut out).unwrap();
        (result, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_session_keeps_the_running_score_alternates_the_first_roll_and_replays_from_its_seed() {
        // Every question answered in turn by one of these: a refused answer is asked
        // again with the next line, so the human takes, rolls, plays the first play and
        // asks for another game; the input's end abandons the last game.
        let script = "t\nr\n1\ny\n".repeat(60);
        let (result, text) = run(3, &script);
        let finished: Vec<i32> = result.games.iter().filter_map(|g| g.human_points).collect();
        assert!(finished.len() >= 3, "{text}");
        assert_eq!(result.score, finished.iter().sum::<i32>());
        assert!(text.contains("Game 2: O rolls first."), "{text}");
        assert!(text.contains("Game 3: you roll first."), "{text}");
        let last = format!(
            "Session: you {:+} point(s) after {} finished game(s).",
            result.score,
            finished.len()
        );
        assert!(text.contains(&last), "{text}");
        // Each game's total is the sum of its decisions' losses.
        for g in &result.games {
            let sum: f64 = g.decisions.iter().map(|d| d.loss).sum();
            assert!((g.total - sum).abs() < 1e-12);
            assert!(g.decisions.iter().all(|d| d.loss >= 0.0));
        }
        // The same seed and answers: the same session.
        assert_eq!(run(3, &script).1, text);
    }
}
