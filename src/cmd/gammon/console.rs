//! The terminal of the trainer ([`super::trainer`]): the questions (double or roll, take or
//! pass, which play) and their answers read, the plays of a roll listed.

use std::io::{BufRead, Write};
use tabula::gammon::cube::Cube;
use tabula::gammon::moves::{Generator, Play};
use tabula::gammon::notation::{notation, parse_position};
use tabula::gammon::{Error, Position, Roll, Variant};
use tabula::lines::Lines;

/// What a turn's caller may do with an answer before it is read as one: `hint`, `eval`
/// (true when it was one of them and has been answered).
pub(super) type Hook<'h, R, W> =
    dyn FnMut(&mut Console<'_, R, W>, &str) -> Result<bool, Error> + 'h;

/// The terminal: the human's answers in, everything said out.
pub(super) struct Console<'a, R, W> {
    pub(super) input: &'a mut Lines<R>,
    pub(super) out: &'a mut W,
}

/// An error writing to the terminal.
pub(super) fn io(e: std::io::Error) -> Error {
    Error::Io {
        path: "standard output".into(),
        source: e,
    }
}

impl<R: BufRead, W: Write> Console<'_, R, W> {
    /// Writes `text` and a new line.
    pub(super) fn say(&mut self, text: std::fmt::Arguments<'_>) -> Result<(), Error> {
        self.out.write_fmt(text).map_err(io)?;
        self.out.write_all(b"\n").map_err(io)
    }

    /// Says the game is abandoned.
    pub(super) fn abandoned(&mut self) -> Result<(), Error> {
        self.say(format_args!("Game abandoned."))
    }

    /// Writes `prompt` and reads the answer, lower-cased when `fold`: `None` for `q`,
    /// `quit` or the end of the input.
    pub(super) fn answer(&mut self, prompt: &str, fold: bool) -> Result<Option<String>, Error> {
        write!(self.out, "{prompt}").map_err(io)?;
        self.out.flush().map_err(io)?;
        let Some(line) = self.input.next_line()? else {
            writeln!(self.out).map_err(io)?;
            return Ok(None);
        };
        let line = if fold { line.to_lowercase() } else { line };
        Ok((line != "q" && line != "quit").then_some(line))
    }

    /// Asks `prompt` until the answer is one of the two `letters` (or the word it
    /// starts), each answer first offered to `help`; the letter's place, or `None` for
    /// `q` or the end of the input. `extra` names more answers in the reminder (`,
    /// hint, eval`).
    pub(super) fn choose(
        &mut self,
        prompt: &str,
        letters: [&str; 2],
        extra: &str,
        help: &mut Hook<'_, R, W>,
    ) -> Result<Option<usize>, Error> {
        let words = |l: &str| match l {
            "d" => "double",
            "r" => "roll",
            "t" => "take",
            "p" => "pass",
            "y" => "yes",
            _ => "no",
        };
        loop {
            let Some(answer) = self.answer(prompt, true)? else {
                return Ok(None);
            };
            if help(self, &answer)? {
                continue;
            }
            if let Some(k) = letters
                .iter()
                .position(|&l| answer == l || answer == words(l))
            {
                return Ok(Some(k));
            }
            let [a, b] = letters;
            self.say(format_args!(
                "Answer {a} ({}), {b} ({}){extra} or q.",
                words(a),
                words(b)
            ))?;
        }
    }

    /// Says the human's `roll` from `pos`: its only play (returned), or else the plays
    /// to choose from (not yet listed: see [`Console::list`]).
    pub(super) fn roll(
        &mut self,
        v: &Variant,
        pos: &Position,
        roll: Roll,
    ) -> Result<Result<Play, Vec<Play>>, Error> {
        let plays = Generator::new(v).plays(pos, roll);
        self.say(format_args!("You roll {roll}."))?;
        if plays.len() == 1 {
            let only = plays[0].text(v.points);
            self.say(format_args!("Only one play: {only}"))?;
            return Ok(Ok(plays[0]));
        }
        Ok(Err(plays))
    }

    /// Lists `plays`, numbered, each with the position it leads to.
    pub(super) fn list(&mut self, v: &Variant, plays: &[Play]) -> Result<(), Error> {
        for (k, p) in plays.iter().enumerate() {
            let (text, after) = (p.text(v.points), notation(v, &p.after));
            self.say(format_args!("  {:>2}. {text:<24} -> {after}", k + 1))?;
        }
        Ok(())
    }

    /// Asks `prompt` for one of `plays` from `pos`: its number, the play in gnubg's
    /// notation (or looser, `gnubg::notation`) or the position it leads to, each answer
    /// first offered to `help`; `unreadable` says why an answer is none of them (from
    /// the answer and the notation's error). `None` to quit.
    pub(super) fn ask(
        &mut self,
        prompt: &str,
        (v, pos, plays): (&Variant, &Position, &[Play]),
        help: &mut Hook<'_, R, W>,
        unreadable: impl Fn(&str, Error) -> String,
    ) -> Result<Option<Play>, Error> {
        loop {
            let Some(line) = self.answer(prompt, false)? else {
                return Ok(None);
            };
            if help(self, &line)? {
                continue;
            }
            if let Ok(k) = line.parse::<usize>() {
                if (1..=plays.len()).contains(&k) {
                    return Ok(Some(plays[k - 1]));
                }
                self.say(format_args!(
                    "There is no play {k}: choose 1 to {}.",
                    plays.len()
                ))?;
                continue;
            }
            match super::gnubg::notation::parse_play(v, pos, plays, &line) {
                Ok(p) => return Ok(Some(p)),
                Err(e) => {
                    if let Ok(target) = parse_position(v, &line) {
                        if let Some(p) = plays.iter().find(|p| p.after == target) {
                            return Ok(Some(*p));
                        }
                    }
                    let why = unreadable(&line, e);
                    self.say(format_args!("{why}"))?;
                }
            }
        }
    }

    /// The position's notation line from the human's side (`view`), with the cube and
    /// `note` after it.
    pub(super) fn show_notation(
        &mut self,
        v: &Variant,
        view: &Position,
        cube: Option<Cube>,
        note: &str,
    ) -> Result<(), Error> {
        let text = notation(v, view);
        let cube = cube_note(cube);
        self.say(format_args!("\nX (you) / O: {text}{cube}{note}"))
    }
}

/// The cube after a position's line: `   (cube 2, yours)`, nothing without the cube.
pub(super) fn cube_note(cube: Option<Cube>) -> String {
    cube.map(|c| format!("   ({})", tabula::gammon::game::describe(&c)))
        .unwrap_or_default()
}
