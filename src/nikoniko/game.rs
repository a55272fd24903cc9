//! A game in the terminal against the table's perfect play.

use super::board::render;
use super::moves::Generator;
use super::notation::{notation, parse_position};
use super::query::rated_plays;
use super::store::Tables;
use super::{Position, Roll};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{self, BufRead, Write};

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// Points won by the human (negative: lost).
    Finished { human_points: i32 },
    /// The human quit or the input ended.
    Abandoned,
}

/// Plays one game: the human against the table, dice from `seed`. The human moves first
/// when `human_first`. Reads moves from `input`, writes everything to `out`.
pub fn play<R: BufRead, W: Write>(
    tables: &Tables,
    seed: u64,
    human_first: bool,
    mut input: R,
    out: &mut W,
) -> io::Result<GameEnd> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::OPENING;
    let mut human_on_roll = human_first;
    let mut generator = Generator::new();
    writeln!(
        out,
        "NikoNiko Gammon: you are X, the table plays O. Dice seed {seed}."
    )?;
    loop {
        let roll = Roll::new(rng.gen_range(0..3), rng.gen_range(0..3));
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
            // A damaged table ends the game as an I/O error that carries the table's.
            let best = rated_plays(tables, &pos, roll)
                .map_err(io::Error::other)?
                .remove(0);
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

fn ask<R: BufRead, W: Write>(
    input: &mut R,
    out: &mut W,
    plays: &[super::moves::Play],
) -> io::Result<Option<super::moves::Play>> {
    loop {
        write!(
            out,
            "Your play (number, steps like `8/6 5/4*`, the resulting position, or q): "
        )?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let answer = line.trim();
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
