//! The one game loop (`docs/gammon.md`, "Playing"): a game from the variant's opening,
//! begun by the opening roll, between the human (X) and the table's perfect play (O),
//! under any judge's stakes ([`Judge`]): money play through a table, cubeless or with the
//! cube, or a game of a match at its score. The table doubles when its cube decision
//! doubles, takes when taking costs it no more than passing, and plays the first play of
//! the one ranking ([`rank`]). The human's side — its questions, the help it asks for and
//! the review of its decisions — is the trainer's, hooked in through [`Coach`]; a match is
//! a series of these games (`super::trainer`).

use super::cube::{Cube, CubeAction, CubeDecision, Owner, Response};
use super::judge::{rank, Judge, Judged};
use super::moves::{win_points, Play};
use super::{Error, Position, Roll};
use crate::random;

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

/// What game to play.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    /// The dice: stream `game` of `seed`.
    pub seed: u64,
    /// The game's number (its dice stream).
    pub game: u64,
    /// Who wins the opening roll when it is decided for them (`Some(true)`: the human);
    /// else the dice decide.
    pub first: Option<bool>,
    /// The game is played with the cube.
    pub cube: bool,
    /// A position to start from, the human on roll before its cube decision (for a game
    /// taken up where it stands); none: the variant's opening, begun by the opening roll.
    pub start: Option<Position>,
}

/// A turn, as the coach is shown it.
pub struct Turn<'t, J> {
    /// The stakes, seen by the side on roll.
    pub judge: &'t J,
    /// The position, seen by the side on roll.
    pub pos: &'t Position,
    /// The human is on roll.
    pub human: bool,
    /// The game's cube (none without it).
    pub cube: Option<Cube>,
}

impl<J: Judge> Turn<'_, J> {
    /// The cube as the side on roll sees it.
    pub fn seen(&self) -> J::Cube {
        let side = if self.human { Owner::X } else { Owner::O };
        self.judge.seen(self.cube, side)
    }
}

/// The human's side of a game: how it answers, and what it is told (the trainer).
pub trait Coach<J: Judge> {
    /// Says a line.
    fn say(&mut self, text: std::fmt::Arguments<'_>) -> Result<(), Error>;

    /// Shows the position before a turn.
    fn show(&mut self, turn: &Turn<'_, J>) -> Result<(), Error>;

    /// The human's cube decision (true: it doubles), `action` the table's verdict; none
    /// to quit.
    fn double(&mut self, turn: &Turn<'_, J>, action: &CubeAction) -> Result<Option<bool>, Error>;

    /// The human's answer to the table's double (true: it takes), `action` the table's
    /// verdict on its double; none to quit.
    fn take(&mut self, turn: &Turn<'_, J>, action: &CubeAction) -> Result<Option<bool>, Error>;

    /// After the table answered the human's double: what it shows then.
    fn answered(&mut self, turn: &Turn<'_, J>, action: &CubeAction) -> Result<(), Error>;

    /// The human's play of `roll`, `ranked` the plays best first; none to quit.
    fn play(
        &mut self,
        turn: &Turn<'_, J>,
        roll: Roll,
        ranked: &[Judged<J::Worth>],
    ) -> Result<Option<Play>, Error>;
}

/// Plays one game: `judge` the stakes seen by the human (X), the table (O) the other side.
pub fn play<J: Judge + Clone>(
    judge: &J,
    setup: Setup,
    coach: &mut dyn Coach<J>,
) -> Result<GameResult, Error> {
    let judges = [judge.clone(), judge.turned()];
    let v = judge.variant().clone();
    let mut rng = random::stream(setup.seed, setup.game);
    let faces = v.faces.len() as u64;
    let mut die = || v.faces[random::below(&mut rng, faces) as usize];
    // The opening roll: each side throws one die, ties again; the higher moves first
    // with both.
    let (mut pos, mut human, mut opening) = match setup.start {
        Some(p) => (p, true, None),
        None => {
            let (a, b) = loop {
                let (a, b) = (die(), die());
                if a != b {
                    break (a, b);
                }
            };
            let (x, o) = match setup.first {
                Some(true) => (a.max(b), a.min(b)),
                Some(false) => (a.min(b), a.max(b)),
                None => (a, b),
            };
            coach.say(format_args!(
                "Opening roll: you throw {x}, O throws {o}: {} first with {}.",
                if x > o { "you move" } else { "O moves" },
                Roll::new(x, o)
            ))?;
            (v.opening(), x > o, Some(Roll::new(x, o)))
        }
    };
    let mut cube = setup.cube.then_some(Cube::START);
    let end = |end: GameEnd, cube: Option<Cube>| GameResult {
        end,
        cube: cube.unwrap_or(Cube::START),
    };
    loop {
        let judge = &judges[usize::from(!human)];
        let turn = Turn {
            judge,
            pos: &pos,
            human,
            cube,
        };
        coach.show(&turn)?;
        if let (Some(c), None) = (cube, opening) {
            let mut after = c;
            if let Some(ended) = cube_turn(&turn, &mut after, coach)? {
                return Ok(end(ended, Some(c)));
            }
            cube = Some(after);
        }
        let roll = opening.take().unwrap_or_else(|| Roll::new(die(), die()));
        let turn = Turn { cube, ..turn };
        let ranked = rank(judge, &pos, roll, turn.seen())?;
        let chosen = if human {
            match coach.play(&turn, roll, &ranked)? {
                Some(p) => p,
                None => return Ok(end(GameEnd::Abandoned, cube)),
            }
        } else {
            match ranked.first() {
                Some(best) => {
                    let text = best.play.text(v.points);
                    coach.say(format_args!("O rolls {roll} and plays {text}."))?;
                    best.play
                }
                None => {
                    coach.say(format_args!("O rolls {roll} and cannot move."))?;
                    Play::pass(&pos)
                }
            }
        };
        if chosen.wins() {
            let won = win_points(&v, chosen.after.them());
            let points = (won * cube.map_or(1, |c| c.value)) as i32;
            let word = ["", "a single game", "a gammon", "a backgammon"][won as usize];
            if human {
                coach.say(format_args!("You win {word}: {points} point(s)."))?;
            } else {
                coach.say(format_args!("O wins {word}: you lose {points} point(s)."))?;
            }
            let human_points = if human { points } else { -points };
            return Ok(end(GameEnd::Finished { human_points }, cube));
        }
        pos = chosen.after.swapped();
        human = !human;
    }
}

/// The cube decisions before the roll of the side on roll: the game's end when a double
/// is passed or the human quits; `c` turned when a double is taken.
fn cube_turn<J: Judge>(
    turn: &Turn<'_, J>,
    c: &mut Cube,
    coach: &mut dyn Coach<J>,
) -> Result<Option<GameEnd>, Error> {
    let Some(action) = turn.judge.cube(turn.pos, turn.seen())? else {
        return Ok(None);
    };
    if action.action.is_none() {
        return Ok(None);
    }
    let before = c.value;
    let quit = Ok(Some(GameEnd::Abandoned));
    if turn.human {
        match coach.double(turn, &action)? {
            None => return quit,
            Some(false) => return Ok(None),
            Some(true) => {}
        }
        coach.say(format_args!("You double to {}.", 2 * before))?;
        let takes = action.response == Some(Response::Take);
        let passed = answered(coach, Owner::O, takes, c, before)?;
        coach.answered(turn, &action)?;
        return Ok(passed);
    }
    if !action.action.is_some_and(CubeDecision::doubles) {
        return Ok(None);
    }
    coach.say(format_args!("O doubles to {}.", 2 * before))?;
    match coach.take(turn, &action)? {
        None => quit,
        Some(takes) => answered(coach, Owner::X, takes, c, before),
    }
}

/// A double from `before` answered by `taker`: when it takes, the cube turned to it; when
/// it passes, the game's end (the human's points, negative when the human passed).
fn answered<J: Judge>(
    coach: &mut dyn Coach<J>,
    taker: Owner,
    takes: bool,
    c: &mut Cube,
    before: u32,
) -> Result<Option<GameEnd>, Error> {
    let (who, take, pass, end, sign) = match taker {
        Owner::X => ("You", "take", "pass", "you lose", -1),
        _ => ("O", "takes", "passes", "you win", 1),
    };
    if takes {
        *c = c.taken_by(taker);
        coach.say(format_args!("{who} {take}: {}.", describe(c)))?;
        return Ok(None);
    }
    coach.say(format_args!("{who} {pass}: {end} {before} point(s)."))?;
    Ok(Some(GameEnd::Finished {
        human_points: sign * before as i32,
    }))
}

/// The cube for the human's eyes: `cube 2, yours`.
pub fn describe(c: &Cube) -> String {
    let owner = match c.owner {
        Owner::Centred => "centred",
        Owner::X => "yours",
        Owner::O => "O's",
    };
    format!("cube {}, {owner}", c.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::cube::CubeState;
    use crate::gammon::fixtures::{tables, TWO_CHECKERS};
    use crate::gammon::judge::Money;
    use crate::gammon::{moves, Evaluator};

    /// A human that always doubles (or never), always takes (or passes), and plays the
    /// table's best play; everything said, and before each of the table's turns whether
    /// its verdict doubles, written down.
    struct Script {
        doubles: bool,
        takes: bool,
        said: String,
    }

    impl<J: Judge> Coach<J> for Script {
        fn say(&mut self, text: std::fmt::Arguments<'_>) -> Result<(), Error> {
            self.said += &format!("{text}\n");
            Ok(())
        }

        fn show(&mut self, turn: &Turn<'_, J>) -> Result<(), Error> {
            self.said += "TURN\n";
            if let (false, Some(_), true) =
                (turn.human, turn.cube, self.said.matches("TURN").count() > 1)
            {
                let action = turn.judge.cube(turn.pos, turn.seen())?;
                let doubles = action
                    .and_then(|a| a.action)
                    .is_some_and(CubeDecision::doubles);
                self.said += &format!("VERDICT {}\n", ["holds", "doubles"][usize::from(doubles)]);
            }
            Ok(())
        }

        fn double(&mut self, _: &Turn<'_, J>, _: &CubeAction) -> Result<Option<bool>, Error> {
            Ok(Some(self.doubles))
        }

        fn take(&mut self, _: &Turn<'_, J>, a: &CubeAction) -> Result<Option<bool>, Error> {
            assert!(a.action.is_some_and(CubeDecision::doubles), "{a:?}");
            Ok(Some(self.takes))
        }

        fn answered(&mut self, _: &Turn<'_, J>, _: &CubeAction) -> Result<(), Error> {
            Ok(())
        }

        fn play(
            &mut self,
            turn: &Turn<'_, J>,
            _: Roll,
            ranked: &[Judged<J::Worth>],
        ) -> Result<Option<Play>, Error> {
            Ok(Some(
                ranked.first().map_or(Play::pass(turn.pos), |j| j.play),
            ))
        }
    }

    fn run(
        table: &dyn Evaluator,
        seed: u64,
        start: Option<Position>,
        (doubles, takes): (bool, bool),
    ) -> (GameResult, String) {
        let judge = Money {
            table,
            beavers: false,
        };
        let setup = Setup {
            seed,
            game: 0,
            first: None,
            cube: true,
            start,
        };
        let mut script = Script {
            doubles,
            takes,
            said: String::new(),
        };
        let result = play(&judge, setup, &mut script).unwrap();
        (result, script.said)
    }

    /// The first legal position with play left, in record order, where the side on roll's
    /// cube decision in `state` is `action`.
    fn position_where(t: &dyn Evaluator, state: CubeState, action: CubeDecision) -> Position {
        let (numbers, checkers) = (t.numbers(), t.variant().checkers);
        let judge = Money {
            table: t,
            beavers: false,
        };
        (0..numbers.records())
            .filter_map(|r| numbers.position(r).ok())
            .filter(|p| p.clash().is_none())
            .filter(|p| moves::off(p.us(), checkers) < checkers)
            .filter(|p| moves::off(p.them(), checkers) < checkers)
            .find(|p| judge.cube(p, Some(state)).unwrap().unwrap().action == Some(action))
            .unwrap_or_else(|| panic!("no position where the cube decision is {action}"))
    }

    #[test]
    fn every_game_begins_with_the_opening_roll_and_the_table_doubles_exactly_where_its_verdict_does(
    ) {
        let mut doubled = 0;
        for (name, seed) in [("hyper1", 5), (TWO_CHECKERS, 1), (TWO_CHECKERS, 2)] {
            for takes in [true, false] {
                let (game, text) = run(tables(name, true), seed, None, (false, takes));
                assert!(text.starts_with("Opening roll: you throw "), "{text}");
                // The first mover moves at once: no cube decision before it.
                let first = text.split("TURN\n").nth(1).unwrap();
                assert!(!first.contains("double"), "{text}");
                let lines: Vec<&str> = text.lines().collect();
                for (k, l) in lines.iter().enumerate() {
                    let next = lines.get(k + 1).copied().unwrap_or("");
                    match *l {
                        "VERDICT doubles" => assert!(next.starts_with("O doubles to"), "{text}"),
                        "VERDICT holds" => assert!(!next.starts_with("O doubles"), "{text}"),
                        _ => {}
                    }
                }
                doubled += text.matches("O doubles to").count();
                let GameEnd::Finished { human_points } = game.end else {
                    panic!("abandoned: {text}");
                };
                // A finished game scores a multiple of the final cube: 1 to 3 times it, or
                // the cube's value before a passed double.
                let value = game.cube.value as i32;
                assert_eq!(human_points % value, 0, "{text}");
                assert!((1..=3).contains(&(human_points.abs() / value)), "{text}");
                let taken = text.matches("You take:").count() + text.matches("O takes:").count();
                assert_eq!(value, 1 << taken, "{text}");
            }
        }
        assert!(doubled > 0, "the table never doubled");
    }

    #[test]
    fn the_table_passes_a_double_where_its_verdict_says_pass_and_takes_it_otherwise() {
        let t = tables("hyper1", true);
        let pass = position_where(t, CubeState::Centred, CubeDecision::DoublePass);
        let (game, text) = run(t, 3, Some(pass), (true, true));
        assert_eq!(game.end, GameEnd::Finished { human_points: 1 }, "{text}");
        assert_eq!(game.cube, Cube::START);
        assert!(
            text.contains("You double to 2.\nO passes: you win 1 point(s)."),
            "{text}"
        );
        let take = position_where(t, CubeState::Centred, CubeDecision::DoubleTake);
        let (_, text) = run(t, 3, Some(take), (true, true));
        assert!(
            text.contains("You double to 2.\nO takes: cube 2, O's."),
            "{text}"
        );
        // A human who never doubles, in a position too good for the table to double
        // after its own roll: the table plays on.
        let too_good = position_where(t, CubeState::Centred, CubeDecision::TooGood);
        let (game, text) = run(t, 2, Some(too_good.swapped()), (false, true));
        assert!(game.end != GameEnd::Abandoned);
        assert!(!text.starts_with("Opening roll"), "{text}");
    }

    #[test]
    fn a_human_who_quits_abandons_the_game_with_the_cube_as_it_was() {
        struct Quit;
        impl<J: Judge> Coach<J> for Quit {
            fn say(&mut self, _: std::fmt::Arguments<'_>) -> Result<(), Error> {
                Ok(())
            }
            fn show(&mut self, _: &Turn<'_, J>) -> Result<(), Error> {
                Ok(())
            }
            fn double(&mut self, _: &Turn<'_, J>, _: &CubeAction) -> Result<Option<bool>, Error> {
                Ok(None)
            }
            fn take(&mut self, _: &Turn<'_, J>, _: &CubeAction) -> Result<Option<bool>, Error> {
                Ok(None)
            }
            fn answered(&mut self, _: &Turn<'_, J>, _: &CubeAction) -> Result<(), Error> {
                Ok(())
            }
            fn play(
                &mut self,
                _: &Turn<'_, J>,
                _: Roll,
                _: &[Judged<J::Worth>],
            ) -> Result<Option<Play>, Error> {
                Ok(None)
            }
        }
        let judge = Money {
            table: tables(TWO_CHECKERS, true),
            beavers: false,
        };
        let setup = Setup {
            seed: 1,
            game: 0,
            first: Some(true),
            cube: true,
            start: None,
        };
        let game = play(&judge, setup, &mut Quit).unwrap();
        assert_eq!(game.end, GameEnd::Abandoned);
        assert_eq!(game.cube, Cube::START);
    }
}
