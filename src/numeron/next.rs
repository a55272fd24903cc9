//! The helper's question asked once (`docs/numeron.md`): after these guesses and their
//! answers, which candidates are left, and which guess a strategy makes next. The
//! interactive helper ([`super::interactive::solve`]) asks it turn by turn; a program asks
//! it with the whole history at once.

use super::answer::Answer;
use super::engine::{Engine, Player};
use super::session::Session;
use super::strategy::Strategy;
use super::{Error, Result};
use serde::Serialize;

/// How many of the candidates left a [`NextReport`] lists.
pub const LISTED: usize = 100;

/// One guess of the history, its answer, and the candidates left after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The guess.
    pub guess: String,
    /// Digits in place (EAT).
    pub eat: u8,
    /// Digits elsewhere (BITE).
    pub bite: u8,
    /// Candidates consistent with every answer up to this one.
    pub left: usize,
}

/// The candidates left after a history, and the strategy's next guess.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextReport {
    /// Digits of a code.
    pub digits: usize,
    /// Whether digits may repeat.
    pub repeats: bool,
    /// The strategy's name.
    pub strategy: &'static str,
    /// Whether every guess had to be a candidate still possible.
    pub hard: bool,
    /// The guesses and answers given, in order.
    pub history: Vec<Turn>,
    /// How many candidates are left.
    pub candidates: usize,
    /// The first [`LISTED`] of them, in ascending order.
    pub listed: Vec<String>,
    /// Whether the last answer found the secret.
    pub solved: bool,
    /// The strategy's next guess; none once solved.
    pub guess: Option<String>,
}

/// Reads one turn of a history, `GUESS:ANSWER` (`123:1E0B`, `123:1 0`).
pub fn parse_turn(engine: &Engine, text: &str) -> Result<(u32, Answer)> {
    let space = &engine.space;
    let Some((guess, answer)) = text.split_once(':') else {
        return Err(Error::NotAnAnswer {
            text: text.to_string(),
        }
        .advised("write each turn as GUESS:ANSWER, e.g. 123:1E0B"));
    };
    Ok((
        space.parse(guess.trim())?,
        Answer::parse(answer, space.digits())?,
    ))
}

/// The candidates left after `history` (guesses and answers, oldest first) and
/// `strategy`'s next guess (`hard`: only candidates still possible). An answer that
/// contradicts the earlier ones is refused, naming them; an exact strategy of hours is
/// refused as the helper refuses it without being told to wait.
pub fn next(
    engine: &Engine,
    strategy: Strategy,
    hard: bool,
    history: &[(u32, Answer)],
) -> Result<NextReport> {
    let space = &engine.space;
    let n = space.digits();
    let oracle = engine.oracle();
    let mut player = Player::new(engine, strategy, hard, false)?;
    let mut session = Session::new(space);
    let mut turns = Vec::with_capacity(history.len());
    for &(guess, reply) in history {
        if session.solved(n) {
            return Err(Error::Contradiction {
                guess: space.format(guess),
                answer: reply,
                earlier: "the secret was already found".to_string(),
            });
        }
        let left = session.record(&oracle, guess, reply)?;
        turns.push(Turn {
            guess: space.format(guess),
            eat: reply.eat,
            bite: reply.bite,
            left,
        });
    }
    let set = session.candidates().to_vec();
    let solved = session.solved(n);
    let guess = match solved {
        true => None,
        false => Some(space.format(player.next_guess(&set, &session.guesses())?)),
    };
    Ok(NextReport {
        digits: n,
        repeats: space.rules().repeats,
        strategy: strategy.name(),
        hard,
        history: turns,
        candidates: set.len(),
        listed: set.iter().take(LISTED).map(|&c| space.format(c)).collect(),
        solved,
        guess,
    })
}
