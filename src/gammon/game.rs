//! A game of any variant in the terminal against the table's perfect play, the family's
//! form of `crate::nikoniko::game`: cubeless ([`play`]), or money play with the doubling
//! cube ([`play_with_cube`], `docs/gammon.md`, "Commands").

use super::moves::{self, Play};
use super::notation::{notation, parse_position};
use super::query::{cube_action, hint_with, CubeState};
use super::store::{Cubeful, Tables};
use super::{Error, Position};
use crate::lines::Lines;
use crate::random;
use std::io::{BufRead, Write};

pub use crate::nikoniko::game::GameEnd;

/// Who owns the doubling cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// Nobody: it is in the centre, either side may double.
    Centred,
    /// The human (X).
    Human,
    /// The table (O).
    Table,
}

/// The doubling cube: its value and its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

    /// The cube state as `side` sees it when on roll.
    fn state(&self, side: Owner) -> CubeState {
        match self.owner {
            Owner::Centred => CubeState::Centred,
            o if o == side => CubeState::Owned,
            _ => CubeState::Opponent,
        }
    }

    fn describe(&self) -> String {
        let owner = match self.owner {
            Owner::Centred => "centred",
            Owner::Human => "yours",
            Owner::Table => "O's",
        };
        format!("cube {}, {owner}", self.value)
    }
}

/// How a game with the cube ended, and the cube at its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CubeGame {
    /// The end: a finished game's points are the cube's value times 1, 2 or 3, or the
    /// cube's value before a double that was passed.
    pub end: GameEnd,
    /// The cube when the game ended (a passed double left unturned).
    pub cube: Cube,
}

/// Plays one game: the human against the table, dice from `seed`. The human moves first
/// when `human_first`. Reads moves from `input` (lines of at most
/// [`crate::lines::MAX_LINE`] bytes), writes everything to `out`.
pub fn play<R: BufRead, W: Write>(
    tables: &Tables,
    seed: u64,
    human_first: bool,
    input: R,
    out: &mut W,
) -> Result<GameEnd, Error> {
    let start = tables.variant().opening();
    Ok(session(tables, seed, start, human_first, None, input, out)?.end)
}

/// Plays one game of money play with the doubling cube (no Jacoby rule, no beavers), as
/// [`play`] does otherwise. Before each roll the side on roll may double when the cube is
/// centred or its own: the table doubles when its cube decision
/// ([`crate::gammon::query::cube_action`]) is "double, take" or "double, pass" (not when
/// too good: it plays on for the gammon), and takes the human's double when taking costs
/// it no more than passing. The table chooses its plays by their cubeful equity in its
/// cube state. Needs the cube table ([`Tables::has_cube`]).
pub fn play_with_cube<R: BufRead, W: Write>(
    tables: &Tables,
    seed: u64,
    human_first: bool,
    input: R,
    out: &mut W,
) -> Result<CubeGame, Error> {
    if !tables.has_cube() {
        return Err(no_cube(tables));
    }
    let start = tables.variant().opening();
    session(
        tables,
        seed,
        start,
        human_first,
        Some(Cube::START),
        input,
        out,
    )
}

fn no_cube(tables: &Tables) -> Error {
    Error::Input {
        what: "table",
        input: tables.table().path().display().to_string(),
        reason: "has no cube table beside it; money play with the cube needs one".into(),
    }
}

fn io(e: std::io::Error) -> Error {
    Error::Io {
        path: "standard output".into(),
        source: e,
    }
}

/// The cubeful equities of `p` (the side on roll's view).
fn cubeful(tables: &Tables, p: &Position) -> Result<Cubeful, Error> {
    tables.cubeful(p)?.ok_or_else(|| no_cube(tables))
}

/// One game from `start` (the side on roll first), the human on roll first when
/// `human_first`, with the cube from `cube` when given; without it, the cubeless game.
fn session<R: BufRead, W: Write>(
    tables: &Tables,
    seed: u64,
    start: Position,
    human_first: bool,
    mut cube: Option<Cube>,
    input: R,
    out: &mut W,
) -> Result<CubeGame, Error> {
    let v = tables.variant().clone();
    let mut input = Lines::new(input);
    let mut rng = random::stream(seed, 0);
    let mut pos = start;
    let mut human_on_roll = human_first;
    let ended = |end: GameEnd, cube: Option<Cube>| {
        Ok(CubeGame {
            end,
            cube: cube.unwrap_or(Cube::START),
        })
    };
    writeln!(
        out,
        "{}: you are X, the table plays O. Dice seed {seed}.",
        v.name
    )
    .map_err(io)?;
    if cube.is_some() {
        writeln!(
            out,
            "Money play with the doubling cube (no Jacoby rule): the side on roll may double \
             before it rolls when the cube is centred or its own."
        )
        .map_err(io)?;
    }
    let faces = v.faces.len() as u64;
    loop {
        let view = if human_on_roll {
            pos.clone()
        } else {
            pos.swapped()
        };
        match &cube {
            None => writeln!(out, "\nX (you) / O: {}", notation(&v, &view)),
            Some(c) => writeln!(
                out,
                "\nX (you) / O: {}   ({})",
                notation(&v, &view),
                c.describe()
            ),
        }
        .map_err(io)?;
        if let Some(c) = cube.as_mut() {
            let before = c.value;
            let side = if human_on_roll {
                Owner::Human
            } else {
                Owner::Table
            };
            let state = c.state(side);
            if state != CubeState::Opponent {
                let action = cube_action(&cubeful(tables, &pos)?, state, false);
                let points = f64::from(before);
                if human_on_roll {
                    match choose(&mut input, out, "Double or roll? [d/r] ", ["d", "r"])? {
                        None => {
                            writeln!(out, "Game abandoned.").map_err(io)?;
                            return ended(GameEnd::Abandoned, cube);
                        }
                        Some(0) => {
                            // The table's equity taking is minus the doubler's, passing -1.
                            let take = -action.double_take * points;
                            writeln!(out, "You double to {}.", 2 * before).map_err(io)?;
                            if action.double_take <= 1.0 {
                                c.value *= 2;
                                c.owner = Owner::Table;
                                writeln!(
                                    out,
                                    "O takes (for O: {take:+.4} taking, {:+.4} passing): {}.",
                                    -points,
                                    c.describe()
                                )
                                .map_err(io)?;
                            } else {
                                writeln!(
                                    out,
                                    "O passes (for O: {take:+.4} taking, {:+.4} passing): you \
                                     win {before} point(s).",
                                    -points
                                )
                                .map_err(io)?;
                                let human_points = before as i32;
                                return ended(GameEnd::Finished { human_points }, cube);
                            }
                        }
                        Some(_) => {}
                    }
                } else if matches!(action.action, "double, take" | "double, pass") {
                    writeln!(
                        out,
                        "O doubles to {} (for O: no double {:+.4}, double and take {:+.4}, \
                         double and pass {:+.4}).",
                        2 * before,
                        action.no_double * points,
                        action.double_take * points,
                        action.double_pass * points
                    )
                    .map_err(io)?;
                    match choose(&mut input, out, "Take or pass? [t/p] ", ["t", "p"])? {
                        None => {
                            writeln!(out, "Game abandoned.").map_err(io)?;
                            return ended(GameEnd::Abandoned, cube);
                        }
                        Some(0) => {
                            c.value *= 2;
                            c.owner = Owner::Human;
                            writeln!(out, "You take: {}.", c.describe()).map_err(io)?;
                        }
                        Some(_) => {
                            writeln!(out, "You pass: you lose {before} point(s).").map_err(io)?;
                            let human_points = -(before as i32);
                            return ended(GameEnd::Finished { human_points }, cube);
                        }
                    }
                }
            }
        }
        let a = v.faces[random::below(&mut rng, faces) as usize];
        let b = v.faces[random::below(&mut rng, faces) as usize];
        let roll = (a.min(b), a.max(b));
        let plays = moves::plays(&v, &pos, roll);
        let chosen: Play = if human_on_roll {
            writeln!(out, "You roll {}-{}.", roll.0, roll.1).map_err(io)?;
            if plays.len() == 1 {
                writeln!(out, "Only one play: {}", plays[0].text(v.points)).map_err(io)?;
                plays[0].clone()
            } else {
                for (k, p) in plays.iter().enumerate() {
                    writeln!(
                        out,
                        "  {:>2}. {:<24} -> {}",
                        k + 1,
                        p.text(v.points),
                        notation(&v, &p.after)
                    )
                    .map_err(io)?;
                }
                match ask(&v, &mut input, out, &plays)? {
                    Some(p) => p,
                    None => {
                        writeln!(out, "Game abandoned.").map_err(io)?;
                        return ended(GameEnd::Abandoned, cube);
                    }
                }
            }
        } else {
            let state = cube.map(|c| (c.state(Owner::Table), false));
            let ranked = hint_with(tables, &pos, roll, state)?;
            match ranked.moves.first() {
                Some(best) => {
                    match (&cube, best.cubeful) {
                        (Some(c), Some(e)) => writeln!(
                            out,
                            "O rolls {}-{} and plays {} (cubeful equity for O {:+.4}).",
                            roll.0,
                            roll.1,
                            best.play,
                            e * f64::from(c.value)
                        ),
                        _ => writeln!(
                            out,
                            "O rolls {}-{} and plays {} (equity for O {:+.4}).",
                            roll.0, roll.1, best.play, best.equity
                        ),
                    }
                    .map_err(io)?;
                    plays
                        .iter()
                        .find(|p| notation(&v, &p.after) == best.position)
                        .cloned()
                        .expect("the best play is a legal play")
                }
                None => {
                    writeln!(out, "O rolls {}-{} and cannot move.", roll.0, roll.1).map_err(io)?;
                    plays[0].clone()
                }
            }
        };
        if moves::off(chosen.after.us(), v.checkers) == v.checkers {
            let won = moves::win_points(&v, chosen.after.them()) as i32;
            let value = cube.map_or(1, |c| c.value as i32);
            let points = won * value;
            let human_points = if human_on_roll { points } else { -points };
            let word = ["", "a single game", "a gammon", "a backgammon"][won as usize];
            let at = match cube {
                Some(c) => format!(" with the cube at {}", c.value),
                None => String::new(),
            };
            if human_points > 0 {
                writeln!(out, "You win {word}{at}: {points} point(s).").map_err(io)?;
            } else {
                writeln!(out, "O wins {word}{at}: you lose {points} point(s).").map_err(io)?;
            }
            return ended(GameEnd::Finished { human_points }, cube);
        }
        pos = chosen.after.swapped();
        human_on_roll = !human_on_roll;
    }
}

/// Writes `prompt` and reads the answer (lower-cased when `fold`): `None` for `q`, `quit`
/// or the end of the input.
fn answer<R: BufRead, W: Write>(
    input: &mut Lines<R>,
    out: &mut W,
    prompt: &str,
    fold: bool,
) -> Result<Option<String>, Error> {
    write!(out, "{prompt}").map_err(io)?;
    out.flush().map_err(io)?;
    let Some(line) = input.next_line()? else {
        writeln!(out).map_err(io)?;
        return Ok(None);
    };
    let line = if fold { line.to_lowercase() } else { line };
    Ok((line != "q" && line != "quit").then_some(line))
}

/// Asks `prompt` until the answer is one of the two `letters` (or the word it starts);
/// the letter's place, or `None` for `q` or the end of the input.
fn choose<R: BufRead, W: Write>(
    input: &mut Lines<R>,
    out: &mut W,
    prompt: &str,
    letters: [&str; 2],
) -> Result<Option<usize>, Error> {
    let words = |l: &str| match l {
        "d" => "double",
        "r" => "roll",
        "t" => "take",
        _ => "pass",
    };
    loop {
        let Some(answer) = answer(input, out, prompt, true)? else {
            return Ok(None);
        };
        if let Some(k) = letters
            .iter()
            .position(|&l| answer == l || answer == words(l))
        {
            return Ok(Some(k));
        }
        writeln!(
            out,
            "Answer {} ({}), {} ({}) or q.",
            letters[0],
            words(letters[0]),
            letters[1],
            words(letters[1])
        )
        .map_err(io)?;
    }
}

fn ask<R: BufRead, W: Write>(
    v: &super::Variant,
    input: &mut Lines<R>,
    out: &mut W,
    plays: &[Play],
) -> Result<Option<Play>, Error> {
    let prompt = "Your play (number, steps like `24/18 13/10*`, the resulting position, or q): ";
    loop {
        let Some(line) = answer(input, out, prompt, false)? else {
            return Ok(None);
        };
        let answer = line.as_str();
        if let Ok(k) = answer.parse::<usize>() {
            if (1..=plays.len()).contains(&k) {
                return Ok(Some(plays[k - 1].clone()));
            }
            writeln!(out, "There is no play {k}: choose 1 to {}.", plays.len()).map_err(io)?;
            continue;
        }
        let words: Vec<&str> = answer.split_whitespace().collect();
        if let Some(p) = plays
            .iter()
            .find(|p| p.text(v.points).split(' ').eq(words.iter().copied()))
        {
            return Ok(Some(p.clone()));
        }
        if let Ok(target) = parse_position(v, answer) {
            if let Some(p) = plays.iter().find(|p| p.after == target) {
                return Ok(Some(p.clone()));
            }
        }
        writeln!(out, "`{answer}` is not one of the legal plays listed.").map_err(io)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scripted_hyper1_game_against_the_table_ends_with_a_score() {
        let tables = built("hyper1", false);
        // Always the first play listed.
        let input = "1\n".repeat(200);
        let mut out = Vec::new();
        let end = play(tables, 7, true, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        match end {
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
        let mut out = Vec::new();
        let end = play(tables, 1, true, "q\n".as_bytes(), &mut out).unwrap();
        // Two checkers a side: the first roll offers a choice, answered `q`.
        assert_eq!(end, GameEnd::Abandoned);
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
            let v = super::super::Variant::parse(name).unwrap();
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("table.tbl");
            super::super::store::build_with(&v, &path, cube, crate::progress::Progress::SILENT)
                .unwrap();
            Tables::open(&v, &path).unwrap()
        })
    }

    /// The first legal position with play left, in record order, where the side on roll's
    /// cube decision in `state` is `action`.
    fn position_where(tables: &Tables, state: CubeState, action: &str) -> Position {
        let numbers = tables.numbers();
        let checkers = tables.variant().checkers;
        (0..numbers.records())
            .filter_map(|r| numbers.position(r).ok())
            .filter(|p| p.clash().is_none())
            .filter(|p| moves::off(p.us(), checkers) < checkers)
            .filter(|p| moves::off(p.them(), checkers) < checkers)
            .find(|p| cube_action(&cubeful(tables, p).unwrap(), state, false).action == action)
            .unwrap_or_else(|| panic!("no position where the cube decision is {action}"))
    }

    fn run(
        tables: &Tables,
        seed: u64,
        start: Position,
        human_first: bool,
        cube: Cube,
        input: &str,
    ) -> (CubeGame, String) {
        let mut out = Vec::new();
        let game = session(
            tables,
            seed,
            start,
            human_first,
            Some(cube),
            input.as_bytes(),
            &mut out,
        )
        .unwrap();
        (game, String::from_utf8(out).unwrap())
    }

    #[test]
    fn the_table_doubles_the_hyper1_opening_and_a_pass_costs_the_human_one_point() {
        let tables = built("hyper1", true);
        let opening = tables.variant().opening();
        // The table's own decision, which gnubg's database confirms (tests/suite).
        let decision = cube_action(
            &cubeful(tables, &opening).unwrap(),
            CubeState::Centred,
            false,
        );
        assert_eq!(decision.action, "double, take");
        let mut out = Vec::new();
        let game = play_with_cube(tables, 5, false, "p\n".as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
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
            owner: Owner::Human,
        };
        assert_eq!(game.cube, owned, "{text}");
        // Owning the cube, the human is asked before its roll.
        let took = text.find("You take: cube 2, yours.").expect("the take");
        assert!(text[took..].contains("Double or roll? [d/r]"), "{text}");
    }

    #[test]
    fn the_table_passes_a_double_where_its_cube_decision_says_pass_and_takes_it_otherwise() {
        let tables = built("hyper1", true);
        for (before, state) in [
            (Cube::START, CubeState::Centred),
            (
                Cube {
                    value: 2,
                    owner: Owner::Human,
                },
                CubeState::Owned,
            ),
        ] {
            let pass = position_where(tables, state, "double, pass");
            let (game, text) = run(tables, 3, pass, true, before, "d\n");
            let human_points = before.value as i32;
            assert_eq!(game.end, GameEnd::Finished { human_points }, "{text}");
            assert_eq!(game.cube, before);
            assert!(text.contains("O passes"), "{text}");

            let take = position_where(tables, state, "double, take");
            let (game, text) = run(tables, 3, take, true, before, "d\nq\nq\n");
            let taken = Cube {
                value: 2 * before.value,
                owner: Owner::Table,
            };
            assert_eq!(game.cube, taken, "{text}");
            assert!(text.contains("O takes"), "{text}");
        }
    }

    #[test]
    fn the_table_too_good_to_double_plays_on_without_doubling() {
        let tables = built("hyper1", true);
        let p = position_where(tables, CubeState::Centred, "too good");
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
            let mut out = Vec::new();
            let game =
                play_with_cube(tables, seed, human_first, script.as_bytes(), &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
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
        let e = play_with_cube(tables, 1, true, "".as_bytes(), &mut Vec::new()).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Input);
    }
}
