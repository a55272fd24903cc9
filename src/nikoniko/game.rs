//! A game in the terminal against the table's perfect play.

use super::board::render;
use super::moves::Generator;
use super::notation::{notation, parse_position};
use super::query::rated_plays;
use super::store::Tables;
use super::Error;
use super::{Position, Roll};
use crate::lines::Lines;
use crate::random;
use std::io::{BufRead, Write};

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// Points won by the human (negative: lost).
    Finished {
        /// Points won by the human: 1 a single game, 2 a gammon, 3 a backgammon;
        /// negative when the human lost. In the family's game with the doubling cube
        /// (`crate::gammon::game::play_with_cube`) these times the cube's value, or the
        /// cube's value before a double that was passed.
        human_points: i32,
    },
    /// The human quit or the input ended.
    Abandoned,
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
    let mut input = Lines::new(input);
    let mut out = Out(out);
    let out = &mut out;
    let mut rng = random::stream(seed, 0);
    let mut pos = Position::OPENING;
    let mut human_on_roll = human_first;
    let mut generator = Generator::new();
    writeln!(
        out,
        "NikoNiko Gammon: you are X, the table plays O. Dice seed {seed}."
    )?;
    loop {
        let roll = Roll::new(
            random::below(&mut rng, 3) as u8,
            random::below(&mut rng, 3) as u8,
        );
        let view = if human_on_roll { pos } else { pos.swap() };
        writeln!(out, "\n{}", render(&view))?;
        let plays = generator.plays(&pos, roll);
        let chosen = if human_on_roll {
            writeln!(out, "You roll {roll}.")?;
            if plays.len() == 1 {
                writeln!(out, "Only one play: {}", plays[0])?;
                plays[0]
            } else {
                for (k, p) in plays.iter().enumerate() {
                    writeln!(
                        out,
                        "  {:>2}. {:<20} -> {}",
                        k + 1,
                        p.to_string(),
                        notation(&p.after)
                    )?;
                }
                match ask(&mut input, out, &plays)? {
                    Some(p) => p,
                    None => {
                        writeln!(out, "Game abandoned.")?;
                        return Ok(GameEnd::Abandoned);
                    }
                }
            }
        } else {
            let best = rated_plays(tables, &pos, roll)?.remove(0);
            writeln!(
                out,
                "O rolls {roll} and plays {} (equity for O {:+.4}).",
                best.play, best.equity
            )?;
            best.play
        };
        if chosen.wins() {
            let points = chosen.score() as i32;
            let human_points = if human_on_roll { points } else { -points };
            let word = ["", "a single game", "a gammon", "a backgammon"][points as usize];
            if human_points > 0 {
                writeln!(out, "You win {word}: {points} point(s).")?;
            } else {
                writeln!(out, "O wins {word}: you lose {points} point(s).")?;
            }
            return Ok(GameEnd::Finished { human_points });
        }
        pos = chosen.after.swap();
        human_on_roll = !human_on_roll;
    }
}

/// The game's output: a failed write is an [`Error::Io`] on standard output's behalf.
struct Out<'a, W>(&'a mut W);

impl<W: Write> Write for Out<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl From<std::io::Error> for Error {
    fn from(source: std::io::Error) -> Self {
        Error::Io {
            what: "writing the game",
            source,
        }
    }
}

fn ask<R: BufRead, W: Write>(
    input: &mut Lines<R>,
    out: &mut W,
    plays: &[super::moves::Play],
) -> Result<Option<super::moves::Play>, Error> {
    loop {
        write!(
            out,
            "Your play (number, steps like `8/6 5/4*`, the resulting position, or q): "
        )?;
        out.flush()?;
        let Some(line) = input.next_line()? else {
            writeln!(out)?;
            return Ok(None);
        };
        let answer = line.as_str();
        if answer == "q" || answer == "quit" {
            return Ok(None);
        }
        if let Ok(k) = answer.parse::<usize>() {
            if (1..=plays.len()).contains(&k) {
                return Ok(Some(plays[k - 1]));
            }
            writeln!(out, "There is no play {k}: choose 1 to {}.", plays.len())?;
            continue;
        }
        let words: Vec<&str> = answer.split_whitespace().collect();
        if let Some(p) = plays
            .iter()
            .find(|p| p.to_string().split(' ').eq(words.iter().copied()))
        {
            return Ok(Some(*p));
        }
        if let Ok(target) = parse_position(answer) {
            if let Some(p) = plays.iter().find(|p| p.after == target) {
                return Ok(Some(*p));
            }
        }
        writeln!(out, "`{answer}` is not one of the legal plays listed.")?;
    }
}
