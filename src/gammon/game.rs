//! A game in the terminal against a table's perfect play, for any variant and any table
//! ([`Evaluator`]): cubeless, or money play with the doubling cube (`docs/gammon.md`,
//! "Playing"); and a match, game after game, each at its score with the score's tables
//! ([`play_match`]; "Match play"). The session reads the human's answers from any
//! `BufRead` and writes to any `Write`, so it is tested with scripted input.

use super::console::{self, io, Console};
use super::cube::{decide, decide_money, Choices, Cube, CubeDecision, Owner};
use super::matchplay::judge::{self as at_score, ScoreTables};
use super::matchplay::{CubeOwner, MatchCube, Score};
use super::moves::Play;
use super::query::hint;
use super::{Error, Evaluator, Position, Roll, Variant};
use crate::lines::Lines;
use crate::random;
use std::io::{BufRead, Write};

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// The game was played out, or a double passed.
    Finished {
        /// Points won by the human: 1 a single game, 2 a gammon, 3 a backgammon, times
        /// the cube's value (or the cube's value before a double that was passed);
        /// negative when the human lost.
        human_points: i32,
    },
    /// The human quit or the input ended.
    Abandoned,
}

/// How a game went: its end and the cube at its end (a passed double left unturned;
/// always [`Cube::START`] without the cube).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// How it ended.
    pub end: GameEnd,
    /// The cube when it ended.
    pub cube: Cube,
}

/// What kind of game to play.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// Seed of the dice.
    pub seed: u64,
    /// The human (X) rolls first; else the table (O).
    pub human_first: bool,
    /// Money play with the doubling cube (no Jacoby rule, no beavers); the table must
    /// keep the cube.
    pub cube: bool,
    /// Draws the board from the side on roll's view (the human's when on roll); without
    /// it each turn shows the position's notation.
    pub board: Option<&'a (dyn Fn(&Position) -> String + Sync)>,
}

impl Options<'_> {
    /// A cubeless game, the human first, with the dice of `seed`, no board.
    pub fn new(seed: u64) -> Options<'static> {
        Options {
            seed,
            human_first: true,
            cube: false,
            board: None,
        }
    }
}

/// Plays one game from the variant's opening: the human (X) against the table (O).
///
/// With the cube, before each roll the side on roll may double when the cube is centred
/// or its own: the table doubles when its cube decision is "double, take" or "double,
/// pass" (not when too good: it plays on for the gammon), and takes the human's double
/// when taking costs it no more than passing; it chooses its plays by their cubeful
/// equity in its cube state. Reads answers from `input` (lines of at most
/// [`crate::lines::MAX_LINE`] bytes), writes everything to `out`.
pub fn play<R: BufRead, W: Write>(
    table: &dyn Evaluator,
    options: &Options<'_>,
    input: R,
    out: &mut W,
) -> Result<GameResult, Error> {
    if options.cube {
        table.cube_required()?;
    }
    let start = table.variant().opening();
    let cube = options.cube.then_some(Cube::START);
    let mut input = Lines::new(input);
    Session::new(Judge::Money(table), options, &mut input, out).run(start, cube)
}

/// How a match went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchResult {
    /// The score when it ended, seen from the human: a side that needs 0 won.
    pub human_needs: u32,
    /// The points the table still needed.
    pub table_needs: u32,
    /// Games finished.
    pub games: u32,
    /// Whether the human quit (or the input ended) before the match was decided.
    pub abandoned: bool,
}

/// Plays a match to `length` points: the human (X) against the table (O), game after game
/// from the variant's opening, each begun by the opening roll (each side throws one die,
/// ties again; the higher moves first with both, the cube centred at 1), the Crawford
/// rule applied. `tables(score)` gives the tables of a game's score (seen from the
/// human). The table doubles when its cube decision at the score is "double, take" or
/// "double, pass", takes the human's double when taking leaves it at least the chance a
/// pass would, and plays for its match-winning chance. The dice of game `k` are stream
/// `k` of the seed.
pub fn play_match<R: BufRead, W: Write>(
    length: u32,
    tables: &mut dyn FnMut(Score) -> Result<ScoreTables, Error>,
    options: &Options<'_>,
    input: R,
    out: &mut W,
) -> Result<MatchResult, Error> {
    super::matchplay::score::check_length(length)?;
    let mut input = Lines::new(input);
    let mut score = Score::new(length, length, false)?;
    let mut games = 0;
    let say =
        |out: &mut W, text: String| -> Result<(), Error> { writeln!(out, "{text}").map_err(io) };
    say(
        out,
        format!(
            "A match to {length} point(s): you are X, the table plays O. Dice seed {}.",
            options.seed
        ),
    )?;
    loop {
        let t = tables(score)?;
        let rule = match score.game {
            super::matchplay::Game::Crawford => " This is the Crawford game: no doubling.",
            _ => "",
        };
        say(
            out,
            format!(
                "\nGame {}: you need {}, O needs {}.{rule}",
                games + 1,
                score.on_roll,
                score.opponent
            ),
        )?;
        let judge = Judge::Match {
            tables: &t,
            human: score,
            game: u64::from(games),
        };
        let start = t.unit().variant().opening();
        let game = Session::new(judge, options, &mut input, out).run(start, Some(Cube::START))?;
        let GameEnd::Finished { human_points } = game.end else {
            return Ok(MatchResult {
                human_needs: score.on_roll,
                table_needs: score.opponent,
                games,
                abandoned: true,
            });
        };
        games += 1;
        let points = human_points.unsigned_abs();
        let next = if human_points > 0 {
            score.after_win(points)
        } else {
            score.mirrored().after_win(points).map(Score::mirrored)
        };
        let Some(next) = next else {
            let (human_needs, table_needs) = if human_points > 0 {
                (0, score.opponent)
            } else {
                (score.on_roll, 0)
            };
            say(
                out,
                format!(
                    "{} the match to {length} ({games} game(s)).",
                    if human_points > 0 {
                        "You win"
                    } else {
                        "O wins"
                    }
                ),
            )?;
            return Ok(MatchResult {
                human_needs,
                table_needs,
                games,
                abandoned: false,
            });
        };
        score = next;
    }
}

/// Where the table's decisions in a game come from.
#[derive(Clone, Copy)]
enum Judge<'a> {
    /// Cubeless or money play: one table.
    Money(&'a dyn Evaluator),
    /// A game of a match: the tables of its score, and the score seen from the human (X).
    Match {
        tables: &'a ScoreTables,
        human: Score,
        /// The game's number in the match (its dice stream).
        game: u64,
    },
}

/// One game under way.
struct Session<'a, R, W> {
    judge: Judge<'a>,
    variant: &'a Variant,
    options: &'a Options<'a>,
    con: Console<'a, R, W>,
}

impl<'a, R: BufRead, W: Write> Session<'a, R, W> {
    fn new(
        judge: Judge<'a>,
        options: &'a Options<'a>,
        input: &'a mut Lines<R>,
        out: &'a mut W,
    ) -> Self {
        let variant = match judge {
            Judge::Money(table) => table.variant(),
            Judge::Match { tables, .. } => tables.unit().variant(),
        };
        Session {
            judge,
            variant,
            options,
            con: Console { input, out },
        }
    }

    fn say(&mut self, text: std::fmt::Arguments<'_>) -> Result<(), Error> {
        self.con.say(text)
    }

    /// The game from `start` (the human's view when `human_first`), with `cube` when
    /// given; without it, the cubeless game.
    fn run(mut self, start: Position, mut cube: Option<Cube>) -> Result<GameResult, Error> {
        let v = self.variant.clone();
        let game = match self.judge {
            Judge::Money(_) => 0,
            Judge::Match { game, .. } => game,
        };
        let mut rng = random::stream(self.options.seed, game);
        let mut pos = start;
        let mut human = self.options.human_first;
        let ended = |end: GameEnd, cube: Option<Cube>| {
            Ok(GameResult {
                end,
                cube: cube.unwrap_or(Cube::START),
            })
        };
        let faces = v.faces.len() as u64;
        let mut opening = None;
        match self.judge {
            Judge::Money(_) => {
                self.say(format_args!(
                    "{}: you are X, the table plays O. Dice seed {}.",
                    v.title(),
                    self.options.seed
                ))?;
                if cube.is_some() {
                    self.say(format_args!(
                        "Money play with the doubling cube (no Jacoby rule): the side on roll \
                         may double before it rolls when the cube is centred or its own."
                    ))?;
                }
            }
            Judge::Match { .. } => {
                // The opening roll: each side throws one die, ties again; the higher
                // moves first with both.
                let (x, o) = loop {
                    let x = v.faces[random::below(&mut rng, faces) as usize];
                    let o = v.faces[random::below(&mut rng, faces) as usize];
                    if x != o {
                        break (x, o);
                    }
                };
                human = x > o;
                self.say(format_args!(
                    "Opening roll: you throw {x}, O throws {o}: {} first with {}.",
                    if human { "you move" } else { "O moves" },
                    Roll::new(x, o)
                ))?;
                opening = Some(Roll::new(x, o));
            }
        }
        loop {
            self.show(&pos, human, cube)?;
            if let (Some(c), None) = (cube.as_mut(), opening) {
                if let Some(end) = self.cube_turn(&pos, human, c)? {
                    return ended(end, cube);
                }
            }
            let roll = match opening.take() {
                Some(roll) => roll,
                None => {
                    let a = v.faces[random::below(&mut rng, faces) as usize];
                    let b = v.faces[random::below(&mut rng, faces) as usize];
                    Roll::new(a, b)
                }
            };
            let chosen = if human {
                match self.human_play(&pos, roll)? {
                    Some(p) => p,
                    None => {
                        self.con.abandoned()?;
                        return ended(GameEnd::Abandoned, cube);
                    }
                }
            } else {
                self.table_play(&pos, roll, cube)?
            };
            if chosen.wins() {
                let (points, word) = console::won(&v, &chosen, cube);
                let human_points = if human { points } else { -points };
                let at = match cube {
                    Some(c) => format!(" with the cube at {}", c.value),
                    None => String::new(),
                };
                if human_points > 0 {
                    self.say(format_args!("You win {word}{at}: {points} point(s)."))?;
                } else {
                    self.say(format_args!(
                        "O wins {word}{at}: you lose {points} point(s)."
                    ))?;
                }
                return ended(GameEnd::Finished { human_points }, cube);
            }
            pos = chosen.after.swapped();
            human = !human;
        }
    }

    /// Shows the position from the human's side, with the cube.
    fn show(&mut self, pos: &Position, human: bool, cube: Option<Cube>) -> Result<(), Error> {
        let view = if human { *pos } else { pos.swapped() };
        match self.options.board {
            Some(board) => {
                let drawn = board(&view);
                let cube = console::cube_note(cube);
                self.say(format_args!("\n{drawn}{cube}"))
            }
            None => self.con.show_notation(self.variant, &view, cube),
        }
    }

    /// The cube decisions before the roll of the side on roll (`human` or the table);
    /// the game's end when a double is passed or the human quits.
    fn cube_turn(
        &mut self,
        pos: &Position,
        human: bool,
        c: &mut Cube,
    ) -> Result<Option<GameEnd>, Error> {
        match self.judge {
            Judge::Money(table) => self.money_cube_turn(table, pos, human, c),
            Judge::Match {
                tables, human: at, ..
            } => self.match_cube_turn(tables, at, pos, human, c),
        }
    }

    /// [`Session::cube_turn`] in money play.
    fn money_cube_turn(
        &mut self,
        table: &dyn Evaluator,
        pos: &Position,
        human: bool,
        c: &mut Cube,
    ) -> Result<Option<GameEnd>, Error> {
        let before = c.value;
        let me = if human { Owner::X } else { Owner::O };
        let state = c.state(me);
        if !state.has_access() {
            return Ok(None);
        }
        let action = decide_money(&table.cubeful_required(pos)?, state, false);
        let points = f64::from(before);
        if human {
            let Some(k) = self.choose("Double or roll? [d/r] ", ["d", "r"])? else {
                return self.abandon();
            };
            if k == 1 {
                return Ok(None);
            }
            // The table's equity taking is minus the doubler's; passing, -1.
            let take = -action.double_take * points;
            self.say(format_args!("You double to {}.", 2 * before))?;
            let note = format!(" (for O: {take:+.6} taking, {:+.6} passing)", -points);
            let passed =
                self.con
                    .double_answered(Owner::O, action.double_take <= 1.0, &note, c, before)?;
            return Ok(passed.map(|human_points| GameEnd::Finished { human_points }));
        }
        if action.action.is_some_and(CubeDecision::doubles) {
            self.say(format_args!(
                "O doubles to {} (for O: no double {:+.6}, double and take {:+.6}, double and \
                 pass {:+.6}).",
                2 * before,
                action.no_double * points,
                action.double_take * points,
                action.double_pass * points
            ))?;
            return self.answer_double(c, before, |_| Ok(()));
        }
        Ok(None)
    }

    /// The game abandoned: says so.
    fn abandon(&mut self) -> Result<Option<GameEnd>, Error> {
        self.con.abandoned()?;
        Ok(Some(GameEnd::Abandoned))
    }

    /// Asks the human to take or pass the table's double from `before`; `answered`
    /// speaks once the human has answered, before the answer's effect.
    fn answer_double(
        &mut self,
        c: &mut Cube,
        before: u32,
        answered: impl FnOnce(&mut Self) -> Result<(), Error>,
    ) -> Result<Option<GameEnd>, Error> {
        let Some(k) = self.choose("Take or pass? [t/p] ", ["t", "p"])? else {
            return self.abandon();
        };
        answered(self)?;
        let passed = self.con.double_answered(Owner::X, k == 0, "", c, before)?;
        Ok(passed.map(|human_points| GameEnd::Finished { human_points }))
    }

    /// The human's play of `roll`: the only one, or the one chosen; `None` to quit.
    fn human_play(&mut self, pos: &Position, roll: Roll) -> Result<Option<Play>, Error> {
        let v = self.variant;
        let plays = match self.con.roll(v, pos, roll)? {
            Ok(only) => return Ok(Some(only)),
            Err(plays) => plays,
        };
        self.con.list(v, &plays)?;
        let example = plays[0].text(v.points);
        let prompt =
            format!("Your play (number, steps like `{example}`, the resulting position, or q): ");
        self.con.ask(
            &prompt,
            (v, pos, &plays),
            &mut |_, _| Ok(false),
            |line, _| {
                let shown = crate::error::excerpt(line);
                format!("`{shown}` is not one of the legal plays listed.")
            },
        )
    }

    /// The table's best play of `roll`: by cubeful equity in its cube state when the cube
    /// is in play, else cubeless.
    fn table_play(
        &mut self,
        pos: &Position,
        roll: Roll,
        cube: Option<Cube>,
    ) -> Result<Play, Error> {
        let table = match self.judge {
            Judge::Money(table) => table,
            Judge::Match {
                tables, human: at, ..
            } => return self.match_play(tables, at, pos, roll, cube),
        };
        let state = cube.map(|c| c.state(Owner::O));
        let ranked = hint(table, pos, roll, state)?;
        let best = ranked.moves.first();
        let note = match (cube, best.and_then(|b| b.cubeful)) {
            (Some(c), Some(e)) => format!(" (cubeful equity for O {:+.6})", e * f64::from(c.value)),
            _ => best.map_or(String::new(), |b| {
                format!(" (equity for O {:+.6})", b.equity)
            }),
        };
        let best = best.map(|b| (b.text.as_str(), b.play));
        self.con.table_moves(pos, roll, best, &note)
    }

    /// [`Session::cube_turn`] in a game of a match at `at` (the human's score).
    fn match_cube_turn(
        &mut self,
        tables: &ScoreTables,
        at: Score,
        pos: &Position,
        human: bool,
        c: &mut Cube,
    ) -> Result<Option<GameEnd>, Error> {
        let me = if human { Owner::X } else { Owner::O };
        let score = if human { at } else { at.mirrored() };
        let cube = match_cube(c, me);
        if !at_score::may_double(score, cube) {
            return Ok(None);
        }
        let record = tables.unit().numbers().record(pos)?;
        let choices = Choices {
            no_double: tables.no_double(record, score, cube)?,
            double_take: tables.no_double(record, score, cube.doubled())?,
            double_pass: tables.won(score, cube.value),
        };
        let action = decide(choices, at_score::rules(score, cube));
        let before = c.value;
        let percent = |p: f64| format!("{:.2}%", 100.0 * p);
        if human {
            let Some(k) = self.choose("Double or roll? [d/r] ", ["d", "r"])? else {
                return self.abandon();
            };
            if k == 1 {
                return Ok(None);
            }
            self.say(format_args!("You double to {}.", 2 * before))?;
            // O's chance is one less the doubler's.
            let (take, pass) = (
                percent(1.0 - action.double_take),
                percent(1.0 - action.double_pass),
            );
            let note = format!(" (O's match-winning chance {take} taking, {pass} passing)");
            let takes = action.double_take <= action.double_pass;
            let passed = self
                .con
                .double_answered(Owner::O, takes, &note, c, before)?;
            return Ok(passed.map(|human_points| GameEnd::Finished { human_points }));
        }
        if action.action.is_some_and(CubeDecision::doubles) {
            self.say(format_args!("O doubles to {}.", 2 * before))?;
            // The table's numbers once the human has answered.
            return self.answer_double(c, before, |s| {
                s.say(format_args!(
                    "O's match-winning chance: no double {}, double and take {}, double and \
                     pass {}.",
                    percent(action.no_double),
                    percent(action.double_take),
                    percent(action.double_pass)
                ))
            });
        }
        Ok(None)
    }

    /// The table's best play of `roll` in a game of a match at `at` (the human's score).
    fn match_play(
        &mut self,
        tables: &ScoreTables,
        at: Score,
        pos: &Position,
        roll: Roll,
        cube: Option<Cube>,
    ) -> Result<Play, Error> {
        let c = cube.unwrap_or(Cube::START);
        let ranked = super::matchplay::query::hint(
            tables,
            pos,
            roll,
            at.mirrored(),
            match_cube(&c, Owner::O),
        )?;
        let best = ranked.moves.first().map(|b| (b.text.as_str(), b.play));
        self.con.table_moves(pos, roll, best, "")
    }

    /// Asks `prompt` until the answer is one of the two `letters` (or the word it
    /// starts); the letter's place, or `None` for `q` or the end of the input.
    fn choose(&mut self, prompt: &str, letters: [&str; 2]) -> Result<Option<usize>, Error> {
        self.con.choose(prompt, letters, "", &mut |_, _| Ok(false))
    }
}
/// A game's cube as `side` sees it at a match score.
fn match_cube(c: &Cube, side: Owner) -> MatchCube {
    let owner = match c.owner {
        Owner::Centred => CubeOwner::Centred,
        o if o == side => CubeOwner::OnRoll,
        _ => CubeOwner::Opponent,
    };
    MatchCube {
        value: c.value,
        owner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::cube::CubeState;
    use crate::gammon::store::Tables;
    use crate::gammon::{moves, Variant};

    fn play_with(
        table: &Tables,
        seed: u64,
        human_first: bool,
        cube: bool,
        input: &str,
    ) -> (GameResult, String) {
        let options = Options {
            seed,
            human_first,
            cube,
            board: None,
        };
        let mut out = Vec::new();
        let game = play(table, &options, input.as_bytes(), &mut out).unwrap();
        (game, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_scripted_hyper1_game_against_the_table_ends_with_a_score() {
        let tables = built("hyper1", false);
        // Always the first play listed.
        let (game, text) = play_with(tables, 7, true, false, &"1\n".repeat(200));
        match game.end {
            GameEnd::Finished { human_points } => {
                assert!((1..=3).contains(&human_points.abs()), "{text}");
                assert!(text.contains("point(s)"));
            }
            GameEnd::Abandoned => panic!("the game was abandoned:\n{text}"),
        }
    }

    #[test]
    fn q_abandons_the_game() {
        // The tables with the cube (built once for this module's tests): play without the
        // cube reads only their cubeless part.
        let tables = built(TWO_CHECKERS, true);
        // Two checkers a side: the first roll offers a choice, answered `q`.
        let (game, _) = play_with(tables, 1, true, false, "q\n");
        assert_eq!(game.end, GameEnd::Abandoned);
    }

    #[test]
    fn a_board_drawn_by_the_caller_replaces_the_notation_line() {
        let tables = built("hyper1", false);
        let board = |p: &Position| format!("BOARD {}", p.pips()[0]);
        let options = Options {
            seed: 7,
            human_first: true,
            cube: false,
            board: Some(&board),
        };
        let mut out = Vec::new();
        play(tables, &options, "q\n".as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\nBOARD 24"), "{text}");
        assert!(!text.contains("X (you) / O:"), "{text}");
    }

    /// Two checkers a side on 12 points: games with choices and doubles, its tables with
    /// the cube built in a tenth of hyper2's time.
    const TWO_CHECKERS: &str = "points=12:checkers=2";

    /// A variant's tables (with the cube solved or not), built once for all of this
    /// module's tests: memory-mapped, then their folder removed.
    fn built(name: &'static str, cube: bool) -> &'static Tables {
        use std::sync::OnceLock;
        static HYPER1: OnceLock<Tables> = OnceLock::new();
        static HYPER1_CUBE: OnceLock<Tables> = OnceLock::new();
        static TWO_CHECKERS_CUBE: OnceLock<Tables> = OnceLock::new();
        let cell = match (name, cube) {
            ("hyper1", false) => &HYPER1,
            ("hyper1", true) => &HYPER1_CUBE,
            (TWO_CHECKERS, true) => &TWO_CHECKERS_CUBE,
            _ => unreachable!("no test uses {name} (cube: {cube})"),
        };
        cell.get_or_init(|| {
            let v = Variant::parse(name).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("table.tbl");
            crate::gammon::store::build(&v, &path, cube, crate::progress::Progress::SILENT)
                .unwrap();
            Tables::open(&path).unwrap()
        })
    }

    /// The first legal position with play left, in record order, where the side on roll's
    /// cube decision in `state` is `action`.
    fn position_where(tables: &Tables, state: CubeState, action: CubeDecision) -> Position {
        let numbers = tables.numbers();
        let checkers = tables.variant().checkers;
        (0..numbers.records())
            .filter_map(|r| numbers.position(r).ok())
            .filter(|p| p.clash().is_none())
            .filter(|p| moves::off(p.us(), checkers) < checkers)
            .filter(|p| moves::off(p.them(), checkers) < checkers)
            .find(|p| {
                decide_money(&tables.cubeful_required(p).unwrap(), state, false).action
                    == Some(action)
            })
            .unwrap_or_else(|| panic!("no position where the cube decision is {action}"))
    }

    fn run(
        tables: &Tables,
        seed: u64,
        start: Position,
        human_first: bool,
        cube: Cube,
        input: &str,
    ) -> (GameResult, String) {
        let options = Options {
            seed,
            human_first,
            cube: true,
            board: None,
        };
        let mut out = Vec::new();
        let mut lines = Lines::new(input.as_bytes());
        let game = Session::new(Judge::Money(tables), &options, &mut lines, &mut out)
            .run(start, Some(cube))
            .unwrap();
        (game, String::from_utf8(out).unwrap())
    }

    #[test]
    fn the_table_doubles_the_hyper1_opening_and_a_pass_costs_the_human_one_point() {
        let tables = built("hyper1", true);
        let opening = tables.variant().opening();
        // The table's own decision, which gnubg's database confirms (tests/suite).
        let decision = decide_money(
            &tables.cubeful_required(&opening).unwrap(),
            CubeState::Centred,
            false,
        );
        assert_eq!(decision.action, Some(CubeDecision::DoubleTake));
        let (game, text) = play_with(tables, 5, false, true, "p\n");
        assert_eq!(game.end, GameEnd::Finished { human_points: -1 }, "{text}");
        assert_eq!(game.cube, Cube::START);
        assert!(text.contains("O doubles to 2"), "{text}");
        assert!(text.contains("You pass: you lose 1 point(s)."), "{text}");
    }

    #[test]
    fn taking_the_tables_opening_double_gives_the_human_the_cube_at_two() {
        let tables = built("hyper1", true);
        let opening = tables.variant().opening();
        let (game, text) = run(tables, 5, opening, false, Cube::START, "t\nq\n");
        assert_eq!(game.end, GameEnd::Abandoned, "{text}");
        let owned = Cube {
            value: 2,
            owner: Owner::X,
        };
        assert_eq!(game.cube, owned, "{text}");
        // Owning the cube, the human is asked before its roll.
        let took = text.find("You take: cube 2, yours.").expect("the take");
        assert!(text[took..].contains("Double or roll? [d/r]"), "{text}");
    }

    #[test]
    fn the_table_passes_a_double_where_its_cube_decision_says_pass_and_takes_it_otherwise() {
        let tables = built("hyper1", true);
        let owned_by_human = Cube {
            value: 2,
            owner: Owner::X,
        };
        for (before, state) in [
            (Cube::START, CubeState::Centred),
            (owned_by_human, CubeState::Owned),
        ] {
            let pass = position_where(tables, state, CubeDecision::DoublePass);
            let (game, text) = run(tables, 3, pass, true, before, "d\n");
            let human_points = before.value as i32;
            assert_eq!(game.end, GameEnd::Finished { human_points }, "{text}");
            assert_eq!(game.cube, before);
            assert!(text.contains("O passes"), "{text}");

            let take = position_where(tables, state, CubeDecision::DoubleTake);
            let (game, text) = run(tables, 3, take, true, before, "d\nq\nq\n");
            assert_eq!(game.cube, before.taken_by(Owner::O), "{text}");
            assert!(text.contains("O takes"), "{text}");
        }
    }

    #[test]
    fn the_table_too_good_to_double_plays_on_without_doubling() {
        let tables = built("hyper1", true);
        let p = position_where(tables, CubeState::Centred, CubeDecision::TooGood);
        let (game, text) = run(tables, 2, p, false, Cube::START, "q\n");
        assert!(!text.contains("O doubles"), "{text}");
        assert!(text.contains("O rolls"), "{text}");
        assert_eq!(game.cube, Cube::START);
    }

    #[test]
    fn scripted_games_with_the_cube_finish_for_a_multiple_of_the_final_cube() {
        // Every prompt is answered in turn by one of `r`, `t`, `1`; an answer that does not
        // fit is refused and the next line tried: the human rolls, takes and plays the
        // first play listed.
        let script = "r\nt\n1\n".repeat(400);
        let mut on_two_checkers = 0;
        for (name, seed, human_first) in [
            ("hyper1", 5, false),
            (TWO_CHECKERS, 1, true),
            (TWO_CHECKERS, 2, false),
        ] {
            let tables = built(name, true);
            let (game, text) = play_with(tables, seed, human_first, true, &script);
            let GameEnd::Finished { human_points } = game.end else {
                panic!("the game was abandoned:\n{text}");
            };
            let value = game.cube.value as i32;
            assert_eq!(human_points % value, 0, "{text}");
            assert!((1..=3).contains(&(human_points.abs() / value)), "{text}");
            let doubles = text.matches("doubles to").count() + text.matches("You double").count();
            assert_eq!(value, 1 << doubles, "{text}");
            on_two_checkers += usize::from(name == TWO_CHECKERS && doubles > 0);
        }
        // The cube was turned in the games of two checkers: the multiple is not always 1.
        assert!(on_two_checkers > 0);
    }

    #[test]
    fn a_table_without_its_cube_refuses_money_play() {
        let tables = built("hyper1", false);
        let options = Options {
            cube: true,
            ..Options::new(1)
        };
        let e = play(tables, &options, "".as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(matches!(e, Error::NoCube { .. }), "{e}");
    }

    /// Hypergammon-1's match tables to 3 points, built once for this module's tests.
    fn match_tables() -> &'static std::path::Path {
        use std::sync::OnceLock;
        static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
        DIR.get_or_init(|| {
            let v = Variant::parse("hyper1").unwrap();
            let dir = tempfile::tempdir().unwrap().keep();
            let place = |u: crate::gammon::matchplay::Unit| {
                dir.join(crate::gammon::matchplay::store::file_name(&v, u))
            };
            crate::gammon::matchplay::store::build(
                &v,
                3,
                &place,
                crate::progress::Progress::SILENT,
            )
            .unwrap();
            dir
        })
    }

    #[test]
    fn a_scripted_match_is_played_game_after_game_to_a_winner_with_the_crawford_rule() {
        use crate::gammon::matchplay::store::{file_name, UnitTable};
        use crate::gammon::matchplay::Unit;
        let v = Variant::parse("hyper1").unwrap();
        let dir = match_tables();
        let mut open = |score: Score| {
            let (unit, _) = score.unit();
            let at = |u: Unit| dir.join(file_name(&v, u));
            let dmp = unit
                .reads_dmp()
                .then(|| UnitTable::open(&at(Unit::DMP), None))
                .transpose()?;
            ScoreTables::new(UnitTable::open(&at(unit), None)?, dmp)
        };
        let mut crawford = 0;
        for seed in 1..=6 {
            let mut out = Vec::new();
            let script = "r\nt\n1\n".repeat(600);
            let r = play_match(
                3,
                &mut open,
                &Options::new(seed),
                script.as_bytes(),
                &mut out,
            )
            .unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(!r.abandoned, "{text}");
            assert!(r.games >= 1);
            // One side needs nothing more; the other still needs 1 to 3.
            assert_eq!(r.human_needs.min(r.table_needs), 0, "{r:?}");
            assert!((1..=3).contains(&r.human_needs.max(r.table_needs)), "{r:?}");
            assert_eq!(
                text.matches("Opening roll:").count() as u32,
                r.games,
                "{text}"
            );
            crawford += text.matches("This is the Crawford game").count();
            // No cube is turned in the Crawford game: the game after the notice ends
            // before any double.
            for game in text
                .split("\nGame ")
                .filter(|g| g.contains("Crawford game"))
            {
                assert!(!game.contains("double"), "{game}");
            }
        }
        assert!(crawford > 0, "no match reached the Crawford game");
    }
}
