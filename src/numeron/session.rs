//! The state of one game: the guesses made, their answers and the candidates left. The
//! interactive helper feeds it the user's answers; the hidden-secret game computes them.

use super::answer::{answer, Answer, Oracle};
use super::rules::Space;
use super::set::CandidateSet;
use super::{Error, Result};

/// Guesses and answers so far, and the candidates consistent with all of them.
#[derive(Debug, Clone)]
pub struct Session {
    candidates: CandidateSet,
    history: Vec<(u32, Answer)>,
}

impl Session {
    /// A fresh game over `space`.
    pub fn new(space: &Space) -> Session {
        Session {
            candidates: CandidateSet::full(space.len()),
            history: Vec::new(),
        }
    }

    /// The candidates still possible.
    pub fn candidates(&self) -> &CandidateSet {
        &self.candidates
    }

    /// The guesses made so far, oldest first.
    pub fn guesses(&self) -> Vec<u32> {
        self.history.iter().map(|h| h.0).collect()
    }

    /// The guesses and their answers.
    pub fn history(&self) -> &[(u32, Answer)] {
        &self.history
    }

    /// Whether the last answer was a win.
    pub fn solved(&self, n: usize) -> bool {
        self.history.last().is_some_and(|h| h.1 == Answer::win(n))
    }

    /// Records `answer` to `guess`, keeping only the candidates that would give it. An
    /// answer that no candidate left could give is refused (the state is unchanged), with a
    /// message saying whether it is impossible for this guess or contradicts earlier ones.
    pub fn record(&mut self, oracle: &Oracle<'_>, guess: u32, reply: Answer) -> Result<usize> {
        let space = oracle.space;
        let n = space.digits();
        let notation = space.notation();
        let code = reply.code(n);
        let g = space.format(guess);
        let any_secret = (0..space.len() as u32).any(|s| oracle.code(guess, s) == code);
        if !any_secret {
            return Err(Error::ImpossibleForGuess {
                reply: reply.written(notation),
                guess: g,
            });
        }
        let next = self.candidates.filter(oracle, guess, code);
        if next.is_empty() {
            let earlier: Vec<String> = self
                .history
                .iter()
                .map(|(h, a)| format!("{} {}", space.format(*h), a.written(notation)))
                .collect();
            return Err(Error::Contradiction {
                guess: g,
                reply: reply.written(notation),
                earlier: earlier.join(", "),
            });
        }
        self.candidates = next;
        self.history.push((guess, reply));
        Ok(self.candidates.len())
    }
}

/// One step of a traced game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The guess.
    pub guess: u32,
    /// Its answer.
    pub answer: Answer,
    /// Candidates left after it.
    pub left: usize,
}

/// Plays `next` (a strategy) against `secret` until it wins; at most one guess per
/// candidate, so a strategy that repeats itself is an error rather than a loop.
pub fn trace(
    oracle: &Oracle<'_>,
    secret: u32,
    mut next: impl FnMut(&[u32], &[u32]) -> Result<u32>,
) -> Result<Vec<Step>> {
    let space = oracle.space;
    let mut session = Session::new(space);
    let mut steps = Vec::new();
    while !session.solved(space.digits()) {
        if steps.len() > space.len() {
            return Err(Error::NoConvergence);
        }
        let set = session.candidates().to_vec();
        let guess = next(&set, &session.guesses())?;
        let reply = answer(space, guess, secret);
        let left = session.record(oracle, guess, reply)?;
        steps.push(Step {
            guess,
            answer: reply,
            left,
        });
    }
    Ok(steps)
}

/// The secret the program hides for `seed`: uniform over the candidates, drawn from the
/// crate's one generator ([`crate::random`]).
pub fn hidden_secret(space: &Space, seed: u64) -> u32 {
    let mut rng = crate::random::stream(seed, 0);
    crate::random::below(&mut rng, space.len() as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::super::rules::Rules;
    use super::*;

    #[test]
    fn an_answer_contradicting_the_earlier_ones_is_refused_and_changes_nothing() {
        let space = Space::new(Rules::new(3)).unwrap();
        let oracle = Oracle {
            space: &space,
            table: None,
        };
        let mut s = Session::new(&space);
        let g012 = space.parse("012").unwrap();
        assert_eq!(
            s.record(&oracle, g012, Answer { eat: 0, bite: 0 }).unwrap(),
            210
        );
        let g013 = space.parse("013").unwrap();
        let e = s
            .record(&oracle, g013, Answer { eat: 2, bite: 0 })
            .unwrap_err()
            .to_string();
        assert!(e.contains("contradicts"), "{e}");
        assert_eq!(s.candidates().len(), 210);
        assert_eq!(s.history().len(), 1);
    }

    #[test]
    fn the_hidden_secret_depends_on_the_seed_only() {
        let space = Space::new(Rules::new(4)).unwrap();
        assert_eq!(hidden_secret(&space, 7), hidden_secret(&space, 7));
        let distinct: std::collections::HashSet<u32> =
            (0..50).map(|s| hidden_secret(&space, s)).collect();
        assert!(distinct.len() > 40);
    }
}
