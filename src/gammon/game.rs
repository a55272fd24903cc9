//! A game of any variant in the terminal against the table's perfect play (cubeless),
//! the family's form of `crate::nikoniko::game`.

use super::moves::{self, Play};
use super::notation::{notation, parse_position};
use super::query::hint;
use super::store::Tables;
use super::Error;
use crate::lines::Lines;
use crate::random;
use std::io::{BufRead, Write};

pub use crate::nikoniko::game::GameEnd;

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
    let v = tables.variant().clone();
    let mut input = Lines::new(input);
    let io = |e: std::io::Error| Error::Io {
        path: "standard output".into(),
        source: e,
    };
    let mut rng = random::stream(seed, 0);
    let mut pos = v.opening();
    let mut human_on_roll = human_first;
    writeln!(
        out,
        "{}: you are X, the table plays O. Dice seed {seed}.",
        v.name
    )
    .map_err(io)?;
    let faces = v.faces.len() as u64;
    loop {
        let a = v.faces[random::below(&mut rng, faces) as usize];
        let b = v.faces[random::below(&mut rng, faces) as usize];
        let roll = (a.min(b), a.max(b));
        let view = if human_on_roll {
            pos.clone()
        } else {
            pos.swapped()
        };
        writeln!(out, "\nX (you) / O: {}", notation(&v, &view)).map_err(io)?;
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
                        return Ok(GameEnd::Abandoned);
                    }
                }
            }
        } else {
            let ranked = hint(tables, &pos, roll)?;
            let chosen = match ranked.moves.first() {
                Some(best) => {
                    writeln!(
                        out,
                        "O rolls {}-{} and plays {} (equity for O {:+.4}).",
                        roll.0, roll.1, best.play, best.equity
                    )
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
            };
            chosen
        };
        if moves::off(chosen.after.us(), v.checkers) == v.checkers {
            let points = moves::win_points(&v, chosen.after.them()) as i32;
            let human_points = if human_on_roll { points } else { -points };
            let word = ["", "a single game", "a gammon", "a backgammon"][points as usize];
            if human_points > 0 {
                writeln!(out, "You win {word}: {points} point(s).").map_err(io)?;
            } else {
                writeln!(out, "O wins {word}: you lose {points} point(s).").map_err(io)?;
            }
            return Ok(GameEnd::Finished { human_points });
        }
        pos = chosen.after.swapped();
        human_on_roll = !human_on_roll;
    }
}

fn ask<R: BufRead, W: Write>(
    v: &super::Variant,
    input: &mut Lines<R>,
    out: &mut W,
    plays: &[Play],
) -> Result<Option<Play>, Error> {
    let io = |e: std::io::Error| Error::Io {
        path: "standard output".into(),
        source: e,
    };
    loop {
        write!(
            out,
            "Your play (number, steps like `24/18 13/10*`, the resulting position, or q): "
        )
        .map_err(io)?;
        out.flush().map_err(io)?;
        let Some(line) = input.next_line()? else {
            writeln!(out).map_err(io)?;
            return Ok(None);
        };
        let answer = line.as_str();
        if answer == "q" || answer == "quit" {
            return Ok(None);
        }
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
        let v = super::super::Variant::built_in("hyper1").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hyper1.tbl");
        super::super::store::build(&v, &path, crate::progress::Progress::SILENT).unwrap();
        let tables = Tables::open(&v, &path).unwrap();
        // Always the first play listed.
        let input = "1\n".repeat(200);
        let mut out = Vec::new();
        let end = play(&tables, 7, true, input.as_bytes(), &mut out).unwrap();
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
        let v = super::super::Variant::built_in("hyper2").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hyper2.tbl");
        super::super::store::build(&v, &path, crate::progress::Progress::SILENT).unwrap();
        let tables = Tables::open(&v, &path).unwrap();
        let mut out = Vec::new();
        let end = play(&tables, 1, true, "q\n".as_bytes(), &mut out).unwrap();
        // Two checkers a side: the first roll offers a choice, answered `q`.
        assert_eq!(end, GameEnd::Abandoned);
    }
}
