//! The trainer (`docs/gammon.md`, "Playing"): games against a table's perfect play, in
//! money play (cubeless or with the doubling cube, through any [`Evaluator`]) or a match
//! to `N` points (the scores' tables), each game the library's one game loop
//! ([`tabula::gammon::game`]) with the trainer hooked in as its [`Coach`]: the board before
//! every turn; plays read in gnubg's notation (or by their number in the list); the
//! table's decisions shown without its numbers until the human has answered; `hint` and
//! `eval` on request at every question; after each game the library's review
//! ([`tabula::gammon::review`]) of the human's decisions that lost something; a running
//! score (a money session's points, a match's score). It is the terminal's door to the
//! game, so it lives in the command layer: it reads the human's answers from any
//! `BufRead`, writes to any `Write`, and words verdicts, rankings and reviews through
//! [`Words`] (`render_play.rs`).

use super::board::{self, Around, Standing};
use super::console::Console;
use serde::Serialize;
use std::io::{BufRead, Write};
use tabula::gammon::cube::{Cube, CubeAction, Owner};
use tabula::gammon::game::{self, Coach, GameEnd, GameResult, Setup, Turn};
use tabula::gammon::gnubg::{position_id, xgid};
use tabula::gammon::judge::{Judge, Judged, Measure, Money, Worth};
use tabula::gammon::matchplay::judge::{AtScore, ScoreTables};
use tabula::gammon::matchplay::{Game, Score};
use tabula::gammon::moves::Play;
use tabula::gammon::notation::notation;
use tabula::gammon::review::{
    double_answers, game_review, reviewed, take_answers, GameReview, Kind, Reviewed,
};
use tabula::gammon::{Error, Evaluator, Outcomes, Roll};
use tabula::lines::Lines;

/// What kind of session to play.
#[derive(Clone, Copy)]
pub struct Options<'w> {
    /// Seed of the dice: game `k` rolls stream `k` of it.
    pub seed: u64,
    /// The human (X) wins the first game's opening roll; else the table (O) does. The
    /// dice decide the later games'.
    pub human_first: bool,
    /// Money play with the doubling cube (no Jacoby rule, no beavers); the table must keep
    /// the cube. A match is always played with it.
    pub cube: bool,
    /// Draw the board before every turn; else one line of notation.
    pub board: bool,
    /// The words of what the session shows.
    pub words: &'w dyn Words,
}

/// How the session words what the library does not present itself: the command layer
/// owns these words.
pub trait Words {
    /// The dice's seed, as the first line says it (with how to replay it).
    fn seed(&self, seed: u64) -> String;
    /// The cube verdict of the side on roll, its values in `measure`.
    fn verdict(&self, a: &CubeAction, measure: Measure) -> String;
    /// The table's ranking of the plays of `roll`.
    fn ranking(&self, roll: Roll, plays: &[Row], measure: Measure) -> String;
    /// A position's values.
    fn evaluation(&self, e: &Evaluated) -> String;
    /// A game's review.
    fn review(&self, r: &GameReview) -> String;
}

/// A play of a ranking, as `hint` shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The play in gnubg's notation.
    pub play: String,
    /// Its value to the mover.
    pub value: f64,
    /// What it gives up against the best.
    pub loss: f64,
}

/// A position's values for the side on roll, as `eval` shows them.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluated {
    /// Its notation, the side on roll first.
    pub position: String,
    /// gnubg's Position ID with the side on roll to move (on 24 points).
    pub position_id: Option<String>,
    /// Its XGID, the side on roll at the bottom (on 24 points).
    pub xgid: Option<String>,
    /// What `no_double` measures.
    pub measure: Measure,
    /// Its value to the side on roll if it does not double.
    pub no_double: f64,
    /// Its cubeless equity and chances, where the stakes have them.
    pub cubeless: Option<(f64, Outcomes)>,
}

/// How the session (or the match) went.
#[derive(Debug, Clone, Serialize)]
pub struct SessionResult {
    /// The seed of its dice.
    pub seed: u64,
    /// Each game.
    pub games: Vec<GameReview>,
    /// The human's points over the finished games.
    pub score: i32,
    /// For a match: its length.
    pub length: Option<u32>,
    /// For a match: the points the human and the table still needed at its end (0 for
    /// the winner).
    pub needs: Option<[u32; 2]>,
    /// Whether the human quit (or the input ended) before the session's end.
    pub abandoned: bool,
}

/// Plays a money session (cubeless or with the cube): games from the variant's opening,
/// the human (X) against the table (O), until the human declines another game, quits or
/// the input ends.
pub fn session<R: BufRead, W: Write>(
    table: &dyn Evaluator,
    options: &Options<'_>,
    input: R,
    out: &mut W,
) -> Result<SessionResult, Error> {
    if options.cube {
        table.cube_required()?;
    }
    let judge = Money {
        table,
        beavers: false,
    };
    let mut lines = Lines::new(input);
    let mut t = Trainer::new(options, &mut lines, out);
    let v = table.variant();
    t.say(format_args!(
        "{}: you are X, the table plays O. {}",
        v.title(),
        options.words.seed(options.seed)
    ))?;
    t.say(format_args!(
        "{}{HELP}",
        if options.cube {
            "Money play with the doubling cube (no Jacoby rule): the side on roll may \
             double before it rolls when the cube is centred or its own. "
        } else {
            ""
        }
    ))?;
    let mut result = t.result(None);
    for game in 0.. {
        t.say(format_args!("\nGame {}.", game + 1))?;
        let review = t.game(&judge, game, options.cube)?;
        let finished = t.tally(&mut result, review);
        let played = result.games.iter().filter(|g| g.human_points.is_some());
        t.say(format_args!(
            "Session: you {:+} point(s) after {} finished game(s).",
            result.score,
            played.count()
        ))?;
        if !finished || t.choose("Another game? [y/n] ", ["y", "n"], None)? != Some(0) {
            break;
        }
    }
    Ok(result)
}

/// Plays a match to `length` points: the human (X) against the table (O), game after game
/// (each the one game loop, begun by the opening roll), the Crawford rule applied, the
/// trainer's help and review as in money play. `tables(score)` gives the tables of a
/// game's score (seen from the human). The dice of game `k` are stream `k` of the seed.
pub fn play_match<R: BufRead, W: Write>(
    length: u32,
    tables: &mut dyn FnMut(Score) -> Result<ScoreTables, Error>,
    options: &Options<'_>,
    input: R,
    out: &mut W,
) -> Result<SessionResult, Error> {
    tabula::gammon::matchplay::score::check_length(length)?;
    let mut lines = Lines::new(input);
    let mut t = Trainer::new(options, &mut lines, out);
    let mut score = Score::new(length, length, false)?;
    t.say(format_args!(
        "A match to {length} point(s): you are X, the table plays O. {}",
        options.words.seed(options.seed)
    ))?;
    t.say(format_args!("{HELP}"))?;
    let mut result = t.result(Some(length));
    for game in 0.. {
        let st = tables(score)?;
        let rule = match score.game {
            Game::Crawford => " This is the Crawford game: no doubling.",
            _ => "",
        };
        t.say(format_args!(
            "\nGame {}: you need {}, O needs {}.{rule}",
            game + 1,
            score.on_roll,
            score.opponent
        ))?;
        t.standing = Some(Standing {
            length,
            bottom: score.on_roll,
            top: score.opponent,
            crawford: score.game == Game::Crawford,
        });
        let judge = AtScore { tables: &st, score };
        let review = t.game(&judge, game, true)?;
        let points = review.human_points;
        t.tally(&mut result, review);
        let Some(points) = points else {
            result.needs = Some([score.on_roll, score.opponent]);
            break;
        };
        let won = points.unsigned_abs();
        let next = if points > 0 {
            score.after_win(won)
        } else {
            score.mirrored().after_win(won).map(Score::mirrored)
        };
        let Some(next) = next else {
            let needs = match points > 0 {
                true => [0, score.opponent],
                false => [score.on_roll, 0],
            };
            result.needs = Some(needs);
            let who = if points > 0 { "You win" } else { "O wins" };
            t.say(format_args!(
                "{who} the match to {length} ({} game(s)).",
                game + 1
            ))?;
            break;
        };
        score = next;
        t.say(format_args!(
            "Match to {length}: you need {}, O needs {}.",
            score.on_roll, score.opponent
        ))?;
    }
    Ok(result)
}

/// The reminder of what every question accepts.
const HELP: &str = "At any question: `hint` for the table's advice, `eval` for the position's \
                    values, `q` to quit.";

/// The session under way: the trainer's side of each game.
struct Trainer<'a, R, W> {
    options: &'a Options<'a>,
    con: Console<'a, R, W>,
    /// The current game's decisions.
    review: Vec<Reviewed>,
    /// The match's score, for the board.
    standing: Option<Standing>,
}

/// What `hint` and `eval` show at a question.
struct Help {
    hint: String,
    eval: String,
}

impl<'a, R: BufRead, W: Write> Trainer<'a, R, W> {
    fn new(options: &'a Options<'a>, input: &'a mut Lines<R>, out: &'a mut W) -> Self {
        Trainer {
            options,
            con: Console { input, out },
            review: Vec::new(),
            standing: None,
        }
    }

    fn say(&mut self, text: std::fmt::Arguments<'_>) -> Result<(), Error> {
        self.con.say(text)
    }

    fn result(&self, length: Option<u32>) -> SessionResult {
        SessionResult {
            seed: self.options.seed,
            games: Vec::new(),
            score: 0,
            length,
            needs: None,
            abandoned: false,
        }
    }

    /// One game under `judge` (seen by the human), reviewed and its review shown.
    fn game<J: Judge + Clone>(
        &mut self,
        judge: &J,
        game: u64,
        cube: bool,
    ) -> Result<GameReview, Error> {
        let setup = Setup {
            seed: self.options.seed,
            game,
            first: (game == 0).then_some(self.options.human_first),
            cube,
            start: None,
        };
        self.review.clear();
        let ended = game::play(judge, setup, self)?;
        if ended.end == GameEnd::Abandoned {
            self.con.abandoned()?;
        }
        let measure = judge.unit(judge.seen(cube.then_some(Cube::START), Owner::X));
        let review = self.finish(ended, measure);
        let text = self.options.words.review(&review);
        self.say(format_args!("{text}"))?;
        Ok(review)
    }

    /// Adds a game's review to the session's result; whether it finished.
    fn tally(&self, result: &mut SessionResult, review: GameReview) -> bool {
        let finished = review.human_points.is_some();
        result.score += review.human_points.unwrap_or(0);
        result.abandoned |= !finished;
        result.games.push(review);
        finished
    }

    /// The game's review from its decisions.
    fn finish(&mut self, ended: GameResult, measure: Measure) -> GameReview {
        let decisions = std::mem::take(&mut self.review);
        let human_points = match ended.end {
            GameEnd::Finished { human_points } => Some(human_points),
            GameEnd::Abandoned => None,
        };
        game_review(decisions, human_points, ended.cube.value, measure)
    }

    /// Records a decision for the review.
    #[allow(clippy::too_many_arguments)]
    fn record<J: Judge>(
        &mut self,
        turn: &Turn<'_, J>,
        kind: Kind,
        roll: Option<Roll>,
        chosen: &str,
        best: &str,
        loss: f64,
    ) {
        let (judge, seen) = (turn.judge, turn.seen());
        let r = reviewed(
            judge,
            seen,
            turn.pos,
            turn.cube,
            kind,
            roll,
            [chosen, best],
            loss,
        );
        self.review.push(r);
    }

    /// What `eval` shows of the position of `turn` (the side on roll's).
    fn evaluated<J: Judge>(&self, turn: &Turn<'_, J>) -> Result<String, Error> {
        let (judge, pos, cube) = (turn.judge, turn.pos, turn.seen());
        let e = Evaluated {
            position: notation(judge.variant(), pos),
            position_id: (judge.variant().points == position_id::POINTS)
                .then(|| position_id::encode(pos).ok())
                .flatten(),
            xgid: (judge.variant().points == position_id::POINTS)
                .then(|| xgid::encode(pos).ok())
                .flatten(),
            measure: judge.unit(cube),
            no_double: judge.position(pos, cube)?,
            cubeless: judge.cubeless(pos)?,
        };
        Ok(self.options.words.evaluation(&e))
    }

    /// Asks `prompt` until the answer is one of the two `letters` (or the word it
    /// starts); `hint` and `eval` answered meanwhile. The letter's place, or `None` for
    /// `q` or the end of the input.
    fn choose(
        &mut self,
        prompt: &str,
        letters: [&str; 2],
        help: Option<&Help>,
    ) -> Result<Option<usize>, Error> {
        let extra = if help.is_some() { ", hint, eval" } else { "" };
        self.con.choose(prompt, letters, extra, &mut |con, answer| {
            advise(con, answer, help)
        })
    }

    /// The cube question `kind` (double or roll, take or pass) in `turn`, its two
    /// answers' names and values for the human, `best` the better's place; records the
    /// answer. Its place, or `None` to quit.
    fn cube_question<J: Judge>(
        &mut self,
        turn: &Turn<'_, J>,
        kind: Kind,
        answers: [(&str, f64); 2],
        best: usize,
        action: &CubeAction,
    ) -> Result<Option<usize>, Error> {
        let (prompt, letters, who) = match kind {
            Kind::Cube => ("Double or roll? [d/r] ", ["d", "r"], ""),
            _ => (
                "Take or pass? [t/p] ",
                ["t", "p"],
                "O's double, from O's side: ",
            ),
        };
        let measure = turn.judge.unit(turn.seen());
        let help = Help {
            hint: format!("{who}{}", self.options.words.verdict(action, measure)),
            eval: self.evaluated(turn)?,
        };
        let Some(k) = self.choose(prompt, letters, Some(&help))? else {
            return Ok(None);
        };
        let ((chosen, value), (best, most)) = (answers[k], answers[best]);
        self.record(turn, kind, None, chosen, best, most - value);
        Ok(Some(k))
    }
}

impl<J: Judge, R: BufRead, W: Write> Coach<J> for Trainer<'_, R, W> {
    fn say(&mut self, text: std::fmt::Arguments<'_>) -> Result<(), Error> {
        self.con.say(text)
    }

    fn show(&mut self, turn: &Turn<'_, J>) -> Result<(), Error> {
        let v = turn.judge.variant();
        let view = if turn.human {
            *turn.pos
        } else {
            turn.pos.swapped()
        };
        if self.options.board {
            let around = Around {
                cube: turn.cube.map(|c| (c.value, c.state(Owner::X))),
                dice: None,
                top_on_roll: !turn.human,
                score: self.standing,
            };
            let drawn = board::draw(v, &view, &around);
            return self.say(format_args!("\n{drawn}"));
        }
        let note = self
            .standing
            .map(|s| format!("   ({s})"))
            .unwrap_or_default();
        self.con.show_notation(v, &view, turn.cube, &note)
    }

    fn double(&mut self, turn: &Turn<'_, J>, action: &CubeAction) -> Result<Option<bool>, Error> {
        let (answers, best) = double_answers(action);
        let k = self.cube_question(turn, Kind::Cube, answers, best, action)?;
        Ok(k.map(|k| k == 0))
    }

    fn take(&mut self, turn: &Turn<'_, J>, action: &CubeAction) -> Result<Option<bool>, Error> {
        let (answers, best) = take_answers(action);
        let Some(k) = self.cube_question(turn, Kind::Response, answers, best, action)? else {
            return Ok(None);
        };
        let measure = turn.judge.unit(turn.seen());
        let verdict = self.options.words.verdict(action, measure);
        self.say(format_args!("The table's verdict on its double: {verdict}"))?;
        Ok(Some(k == 0))
    }

    fn answered(&mut self, turn: &Turn<'_, J>, action: &CubeAction) -> Result<(), Error> {
        let verdict = self
            .options
            .words
            .verdict(action, turn.judge.unit(turn.seen()));
        self.say(format_args!("{verdict}"))
    }

    fn play(
        &mut self,
        turn: &Turn<'_, J>,
        roll: Roll,
        ranked: &[Judged<J::Worth>],
    ) -> Result<Option<Play>, Error> {
        let v = turn.judge.variant();
        let plays = match self.con.roll(v, turn.pos, roll)? {
            Ok(only) => return Ok(Some(only)),
            Err(plays) => plays,
        };
        self.con.list(v, &plays)?;
        let rows: Vec<Row> = ranked
            .iter()
            .map(|j| Row {
                play: j.play.text(v.points),
                value: j.worth.key(),
                loss: j.loss,
            })
            .collect();
        let measure = turn.judge.unit(turn.seen());
        let help = Help {
            hint: self.options.words.ranking(roll, &rows, measure),
            eval: self.evaluated(turn)?,
        };
        let example = plays[0].text(v.points);
        let prompt = format!("Your play (number, or like `{example}`; hint, eval, q): ");
        let Some(chosen) = self.con.ask(
            &prompt,
            (v, turn.pos, &plays),
            &mut |con, line| advise(con, line, Some(&help)),
            |_, e| e.to_string(),
        )?
        else {
            return Ok(None);
        };
        let at = ranked.iter().position(|j| j.play.after == chosen.after);
        if let (Some(at), Some(best)) = (at, rows.first()) {
            let (chosen_text, best_text) = (rows[at].play.clone(), best.play.clone());
            let loss = rows[at].loss;
            self.record(turn, Kind::Play, Some(roll), &chosen_text, &best_text, loss);
        }
        Ok(Some(chosen))
    }
}

/// Shows what `hint` or `eval` asks for, if `answer` is one of them.
fn advise<R: BufRead, W: Write>(
    con: &mut Console<'_, R, W>,
    answer: &str,
    help: Option<&Help>,
) -> Result<bool, Error> {
    let text = match (answer.to_lowercase().as_str(), help) {
        ("hint" | "eval", None) => "No advice here.",
        ("hint", Some(h)) => h.hint.as_str(),
        ("eval", Some(h)) => h.eval.as_str(),
        _ => return Ok(false),
    };
    con.say(format_args!("{text}"))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{score_tables, tables, TWO_CHECKERS};
    use super::*;

    /// Everything in brief, for the tests.
    struct Brief;

    impl Words for Brief {
        fn seed(&self, seed: u64) -> String {
            format!("Seed {seed}.")
        }
        fn verdict(&self, a: &CubeAction, _: Measure) -> String {
            format!("verdict {:?}", a.proper.map(|p| p.to_string()))
        }
        fn ranking(&self, roll: Roll, plays: &[Row], _: Measure) -> String {
            format!("ranking of {roll}: {} plays", plays.len())
        }
        fn evaluation(&self, e: &Evaluated) -> String {
            format!("values of {}: {}", e.position, e.no_double)
        }
        fn review(&self, r: &GameReview) -> String {
            format!("review: {} decisions", r.decisions.len())
        }
    }

    fn options(seed: u64) -> Options<'static> {
        Options {
            seed,
            human_first: true,
            cube: true,
            board: false,
            words: &Brief,
        }
    }

    fn run(seed: u64, input: &str) -> (SessionResult, String) {
        run_on("hyper1", seed, input)
    }

    fn run_on(name: &'static str, seed: u64, input: &str) -> (SessionResult, String) {
        let mut out = Vec::new();
        let t = tables(name, true);
        let result = session(t, &options(seed), input.as_bytes(), &mut out).unwrap();
        (result, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_session_keeps_the_running_score_reviews_each_game_and_replays_from_its_seed() {
        // Every question answered in turn by one of these: a refused answer is asked
        // again with the next line, so the human takes, rolls, plays the first play and
        // asks for another game; the input's end abandons the last game.
        let script = "t\nr\n1\ny\n".repeat(60);
        let (result, text) = run(3, &script);
        let finished: Vec<i32> = result.games.iter().filter_map(|g| g.human_points).collect();
        assert!(finished.len() >= 3, "{text}");
        assert_eq!(result.score, finished.iter().sum::<i32>());
        assert!(text.starts_with("Hypergammon-1: you are X, the table plays O. Seed 3."));
        assert_eq!(
            text.matches("Opening roll:").count(),
            result.games.len(),
            "{text}"
        );
        // The first game's opening roll is the human's.
        assert!(text.contains("Game 1.\nOpening roll: you throw"), "{text}");
        let last = format!(
            "Session: you {:+} point(s) after {} finished game(s).",
            result.score,
            finished.len()
        );
        assert!(text.contains(&last), "{text}");
        for g in &result.games {
            let sum: f64 = g.decisions.iter().map(|d| d.loss).sum();
            assert!((g.total - sum).abs() < 1e-12);
            assert!(g.decisions.iter().all(|d| d.loss >= 0.0));
            // In money play the normalised loss is the loss.
            assert!((g.normalised - g.total).abs() < 1e-12);
        }
        // The same seed and answers: the same session.
        assert_eq!(run(3, &script).1, text);
    }

    #[test]
    fn hint_and_eval_are_answered_at_every_question_and_the_game_goes_on() {
        let (_, text) = run_on(TWO_CHECKERS, 7, &"hint\neval\nt\nr\n1\n".repeat(40));
        assert!(text.contains("ranking of "), "{text}");
        assert!(text.contains("values of "), "{text}");
        assert!(text.contains("verdict Some("), "{text}");
    }

    #[test]
    fn a_scripted_match_is_played_game_after_game_to_a_winner_with_the_crawford_rule() {
        let mut crawford = 0;
        for seed in 1..=6 {
            let mut out = Vec::new();
            let script = "r\nt\n1\n".repeat(600);
            let mut open = score_tables;
            let r = play_match(3, &mut open, &options(seed), script.as_bytes(), &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(!r.abandoned, "{text}");
            let [human, table] = r.needs.unwrap();
            // One side needs nothing more; the other still needs 1 to 3.
            assert_eq!(human.min(table), 0, "{r:?}");
            assert!((1..=3).contains(&human.max(table)), "{r:?}");
            assert_eq!(
                text.matches("Opening roll:").count(),
                r.games.len(),
                "{text}"
            );
            assert_eq!(text.matches("review: ").count(), r.games.len(), "{text}");
            crawford += text.matches("This is the Crawford game").count();
            // No cube is turned in the Crawford game.
            for game in text
                .split("\nGame ")
                .filter(|g| g.contains("Crawford game"))
            {
                assert!(!game.contains("double"), "{game}");
            }
            // The review's losses are match-winning chances; each normalised by its cube.
            for g in &r.games {
                assert_eq!(g.measure, Measure::Chance);
                assert!(g.decisions.iter().all(|d| d.normalised >= d.loss));
            }
        }
        assert!(crawford > 0, "no match reached the Crawford game");
    }

    #[test]
    fn a_table_without_its_cube_refuses_money_play() {
        let t = tables("hyper1", false);
        let e = session(t, &options(1), "".as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(matches!(e, Error::NoCube { .. }), "{e}");
    }
}
