//! The helper's question asked once (`docs/numeron.md`): after these guesses and their
//! answers, which candidates are left, and which guess a strategy makes next. The
//! interactive helper ([`super::interactive::solve`]) asks it turn by turn; a program asks
//! it with the whole history at once.

use super::answer::Answer;
use super::engine::{Engine, Player};
use super::report::{Counts, Variant};
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
    /// The answer, written out (`1E0B`; in Mastermind `1B2W`).
    pub reply: String,
    /// The answer's counts: EAT and BITE (Mastermind: black and white).
    #[serde(flatten)]
    pub counts: Counts,
    /// Candidates consistent with every answer up to this one.
    pub left: usize,
}

/// The candidates left after a history, and the strategy's next guess.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextReport {
    /// The variant played.
    #[serde(flatten)]
    pub variant: Variant,
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

/// Reads one turn of a history, `GUESS:ANSWER` (`123:1E0B`, `123:1 0`; in Mastermind
/// `1123:1B2W`).
pub fn parse_turn(engine: &Engine, text: &str) -> Result<(u32, Answer)> {
    let space = &engine.space;
    let notation = space.notation();
    let Some((guess, answer)) = text.split_once(':') else {
        return Err(Error::NotAnAnswer {
            text: text.to_string(),
            help: notation.reply_help(),
        }
        .advised(format!(
            "write each turn as GUESS:ANSWER, e.g. {}:{}",
            space.format(0),
            (Answer { eat: 1, bite: 0 }).written(notation)
        )));
    };
    Ok((
        space.parse(guess.trim())?,
        Answer::parse_in(answer, space.digits(), notation)?,
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
                reply: reply.written(space.notation()),
                earlier: "the secret was already found".to_string(),
            });
        }
        let left = session.record(&oracle, guess, reply)?;
        turns.push(Turn {
            guess: space.format(guess),
            reply: reply.written(space.notation()),
            counts: Counts::of(reply, space.notation()),
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
        variant: Variant::of(space.rules()),
        strategy: strategy.name(),
        hard,
        history: turns,
        candidates: set.len(),
        listed: set.iter().take(LISTED).map(|&c| space.format(c)).collect(),
        solved,
        guess,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeron::answer::answer;
    use crate::numeron::Rules;

    fn engine() -> Engine {
        Engine::new(Rules::new(3), Strategy::Minimax).unwrap()
    }

    #[test]
    fn the_candidates_left_are_the_secrets_that_give_every_reply() {
        let e = engine();
        let history: Vec<(u32, Answer)> = ["123:0E1B", "456:1E0B"]
            .iter()
            .map(|t| parse_turn(&e, t).unwrap())
            .collect();
        let r = next(&e, Strategy::Minimax, false, &history).unwrap();
        // Counted again by brute force over the 720 codes.
        let fits = |s: u32, upto: usize| {
            history[..upto]
                .iter()
                .all(|&(g, a)| answer(&e.space, g, s) == a)
        };
        let all = e.space.len() as u32;
        let left: Vec<String> = (0..all)
            .filter(|&s| fits(s, 2))
            .map(|s| e.space.format(s))
            .collect();
        assert_eq!(r.history[0].left, (0..all).filter(|&s| fits(s, 1)).count());
        assert_eq!(r.history[1].left, left.len());
        assert_eq!(r.candidates, left.len());
        assert_eq!(r.listed, left[..left.len().min(LISTED)]);
        assert!(!r.solved && r.guess.is_some());
    }

    #[test]
    fn a_found_secret_ends_the_history_and_a_contradiction_is_refused() {
        let e = engine();
        let won = parse_turn(&e, "719:3E0B").unwrap();
        let r = next(&e, Strategy::Minimax, false, &[won]).unwrap();
        assert!(r.solved);
        assert_eq!((r.candidates, r.guess), (1, None));
        assert!(next(&e, Strategy::Minimax, false, &[won, won]).is_err());
        let a = parse_turn(&e, "123:0E0B").unwrap();
        let b = parse_turn(&e, "123:1E0B").unwrap();
        let refused = next(&e, Strategy::Minimax, false, &[a, b]).unwrap_err();
        assert!(refused.to_string().contains("contradicts"), "{refused}");
        let malformed = parse_turn(&e, "123").unwrap_err();
        assert!(
            malformed.to_string().contains("GUESS:ANSWER"),
            "{malformed}"
        );
    }
}
