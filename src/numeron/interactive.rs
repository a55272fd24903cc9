//! The two interactive sessions, over any line input and any output (the command layer
//! hands them standard input and output; the tests hand them scripts):
//!
//! - [`solve`]: the helper. The user thinks of a secret; the session proposes guesses and
//!   reads each answer (`1 0`, `1E0B`, or a guess of the user's own followed by its
//!   answer, `345 1E0B`).
//! - [`play`]: the game. The session hides a secret and answers the user's guesses.
//!
//! Lines are read at most [`MAX_LINE`] bytes at a time: a longer line (or a stream with no
//! line breaks at all) ends the session with [`Error::LineTooLong`] instead of filling the
//! memory.

use super::answer::{answer, Answer};
use super::engine::{Engine, Player};
use super::rules::{Notation, Space};
use super::session::{hidden_secret, Session};
use super::strategy::Strategy;
use super::{Error, Result};
use std::io::{BufRead, Write};

/// The longest line a session reads, in bytes (its line break not counted).
pub const MAX_LINE: usize = crate::lines::MAX_LINE;

/// How a [`solve`] session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveEnd {
    /// The last answer was all EAT: the secret and the number of guesses.
    Solved {
        /// The secret found.
        secret: String,
        /// Guesses made.
        guesses: usize,
    },
    /// The user quit.
    Quit,
    /// The input ended.
    EndOfInput,
}

/// How a [`play`] session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayEnd {
    /// The user found the secret with this many guesses.
    Found {
        /// Guesses made.
        guesses: usize,
    },
    /// The user gave up (or the input ended) before finding it.
    GaveUp,
}

/// Lines of the user's input, as every session reads them ([`crate::lines`]).
struct Lines<R>(crate::lines::Lines<R>);

impl<R: BufRead> Lines<R> {
    fn new(input: R) -> Self {
        Lines(crate::lines::Lines::new(input))
    }

    /// The next line, trimmed; `None` at the end of the input.
    fn next(&mut self) -> Result<Option<String>> {
        use crate::lines::LineError;
        self.0.next_line().map_err(|e| match e {
            LineError::Read(e) => Error::Read(e),
            LineError::TooLong { line, max } => Error::LineTooLong { line, max },
            LineError::NotText { line } => Error::NotText { line },
        })
    }
}

fn say(out: &mut impl Write, text: &str) -> Result<()> {
    writeln!(out, "{text}").map_err(Error::Write)
}

fn prompt(out: &mut impl Write, text: &str) -> Result<()> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::Write)
}

fn is_quit(line: &str) -> bool {
    line == "q" || line == "quit"
}

/// Parses one line of the helper: an answer to `suggestion` (`1 0`, `1E0B`), or a guess
/// of the user's own then its answer (`345 1E0B`, `345 1 0`; not with one or two digits,
/// where `10` reads as an answer). In Mastermind's words the answer is in black and white
/// pegs (`1B2W`) and a guess of one's own may be written in letters (`AABC 1B2W`).
pub fn parse_reply(space: &Space, line: &str, suggestion: u32) -> Result<(u32, Answer)> {
    let n = space.digits();
    let notation = space.notation();
    let line = line.trim();
    let symbol = |c: u8| match notation {
        Notation::Numeron => c.is_ascii_digit(),
        Notation::Mastermind => c.is_ascii_alphanumeric(),
    };
    if n > 2 {
        if let Some((first, rest)) = line.split_once(char::is_whitespace) {
            if first.len() == n && first.bytes().all(symbol) {
                let guess = space.parse(first)?;
                return Ok((guess, Answer::parse_in(rest, n, notation)?));
            }
        }
    }
    Ok((suggestion, Answer::parse_in(line, n, notation)?))
}

/// The secret's kind in the game's words: `3 distinct digits`, `3 digits 0-5`, `4 pegs in
/// 6 colours (1-6 or A-F, repeats allowed)`.
fn secret_words(space: &Space) -> String {
    let rules = space.rules();
    let n = rules.digits;
    match rules.notation {
        Notation::Numeron => format!(
            "{n} {}digit{}{}",
            if rules.repeats { "" } else { "distinct " },
            if n == 1 { "" } else { "s" },
            if rules.alphabet < 10 {
                format!(" {}", rules.notation.symbols_text(rules.alphabet))
            } else {
                String::new()
            }
        ),
        Notation::Mastermind => format!(
            "{n} peg{} in {} colours ({}, {})",
            if n == 1 { "" } else { "s" },
            rules.alphabet,
            rules.notation.symbols_text(rules.alphabet),
            if rules.repeats {
                "repeats allowed"
            } else {
                "all different"
            }
        ),
    }
}

/// An example of a guess of one's own followed by its answer, for the helper's greeting.
fn own_guess_example(space: &Space) -> String {
    let rules = space.rules();
    match rules.notation {
        Notation::Numeron => "345 1E0B".to_string(),
        Notation::Mastermind => {
            let code: String = (0..rules.digits)
                .map(|i| {
                    rules
                        .notation
                        .symbol_char((i % rules.alphabet) as u8, rules.alphabet)
                })
                .collect();
            format!("{code} 1B2W")
        }
    }
}

/// The helper: proposes the guesses of `strategy` (`hard`: only candidates still possible;
/// `long`: admit an exact search of hours), reads the user's answers from `input` and
/// writes everything to `out`, until the secret is found, the user quits (`q`) or the
/// input ends. An answer that is malformed or contradicts the earlier ones is refused
/// with the reason, and the same guess is asked again.
pub fn solve<R: BufRead, W: Write>(
    engine: &Engine,
    strategy: Strategy,
    hard: bool,
    long: bool,
    input: R,
    mut out: W,
) -> Result<SolveEnd> {
    let mut player = Player::new(engine, strategy, hard, long)?;
    let oracle = engine.oracle();
    let space = &engine.space;
    let n = space.digits();
    let mut session = Session::new(space);
    let mut lines = Lines::new(input);
    let notation = space.notation();
    let how = match notation {
        Notation::Numeron => "its answer as EAT BITE (`1 0` or `1E0B`)",
        Notation::Mastermind => "its black and white pegs (`1 2` or `1B2W`)",
    };
    say(
        &mut out,
        &format!(
            "Think of a secret of {}. For each guess type {how}; to answer a guess of your \
             own, type it first (`{}`); `q` quits.",
            secret_words(space),
            own_guess_example(space)
        ),
    )?;
    let mut suggestion = player.next_guess(&session.candidates().to_vec(), &[])?;
    loop {
        let left = session.candidates().len();
        prompt(
            &mut out,
            &format!(
                "{left} candidate{} left; guess {}\nanswer> ",
                if left == 1 { "" } else { "s" },
                space.format(suggestion)
            ),
        )?;
        let Some(line) = lines.next()? else {
            say(&mut out, "\n(end of input)")?;
            return Ok(SolveEnd::EndOfInput);
        };
        if line.is_empty() {
            continue;
        }
        if is_quit(&line) {
            return Ok(SolveEnd::Quit);
        }
        let recorded = parse_reply(space, &line, suggestion)
            .and_then(|(guess, reply)| Ok((guess, session.record(&oracle, guess, reply)?)));
        let guess = match recorded {
            Ok((guess, _)) => guess,
            Err(e) => {
                say(&mut out, &format!("refused: {e}"))?;
                continue;
            }
        };
        if session.solved(n) {
            let secret = space.format(guess);
            let guesses = session.history().len();
            say(&mut out, &format!("solved: {secret} in {guesses} guesses"))?;
            return Ok(SolveEnd::Solved { secret, guesses });
        }
        let set = session.candidates().to_vec();
        suggestion = player.next_guess(&set, &session.guesses())?;
        if set.len() <= 6 {
            let list: Vec<String> = set.iter().map(|&c| space.format(c)).collect();
            say(&mut out, &format!("candidates: {}", list.join(" ")))?;
        }
    }
}

/// The game: hides the secret chosen by `seed`, reads the user's guesses from `input` and
/// writes each answer to `out`, until the secret is found, the user gives up (`q`) or the
/// input ends (then the secret is told).
pub fn play<R: BufRead, W: Write>(
    engine: &Engine,
    seed: u64,
    input: R,
    mut out: W,
) -> Result<PlayEnd> {
    let space = &engine.space;
    let oracle = engine.oracle();
    let secret = hidden_secret(space, seed);
    let n = space.digits();
    let notation = space.notation();
    say(
        &mut out,
        &format!(
            "I have chosen a secret of {} (seed {seed}). Type your guesses; `q` gives up.",
            secret_words(space)
        ),
    )?;
    let mut lines = Lines::new(input);
    let mut session = Session::new(space);
    loop {
        prompt(&mut out, "guess> ")?;
        let Some(line) = lines.next()? else {
            say(
                &mut out,
                &format!("\nthe secret was {}", space.format(secret)),
            )?;
            return Ok(PlayEnd::GaveUp);
        };
        if line.is_empty() {
            continue;
        }
        if is_quit(&line) {
            say(
                &mut out,
                &format!("the secret was {}", space.format(secret)),
            )?;
            return Ok(PlayEnd::GaveUp);
        }
        let guess = match space.parse(&line) {
            Ok(g) => g,
            Err(e) => {
                say(&mut out, &format!("refused: {e}"))?;
                continue;
            }
        };
        let reply = answer(space, guess, secret);
        let left = session.record(&oracle, guess, reply)?;
        let written = reply.written(notation);
        if reply == Answer::win(n) {
            let guesses = session.history().len();
            say(
                &mut out,
                &format!(
                    "{written}: found {} in {guesses} guesses",
                    space.format(secret)
                ),
            )?;
            return Ok(PlayEnd::Found { guesses });
        }
        say(
            &mut out,
            &format!("{written}  ({left} candidates fit every answer so far)"),
        )?;
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::Rules;
    use super::*;
    use proptest::prelude::{any, prop_assert, proptest};

    fn engine(digits: usize) -> Engine {
        Engine::new(Rules::new(digits), Strategy::First).unwrap()
    }

    fn run_solve(engine: &Engine, script: &[u8]) -> (Result<SolveEnd>, String) {
        let mut out = Vec::new();
        let end = solve(engine, Strategy::First, false, false, script, &mut out);
        (end, String::from_utf8(out).unwrap())
    }

    /// The secret's answer to each guess the helper proposes, computed independently of
    /// the session (position by position), until it is found.
    fn honest_script(engine: &Engine, secret: &str) -> (Vec<u8>, usize) {
        let s: Vec<char> = secret.chars().collect();
        let space = &engine.space;
        let mut candidates: Vec<u32> = (0..space.len() as u32).collect();
        let mut script = String::new();
        for k in 1.. {
            // The first strategy proposes the smallest candidate left.
            let g: Vec<char> = space.format(candidates[0]).chars().collect();
            let eat = g.iter().zip(&s).filter(|(a, b)| a == b).count();
            let bite = g.iter().filter(|c| s.contains(c)).count() - eat;
            script.push_str(&format!("{eat}E{bite}B\n"));
            if eat == s.len() {
                return (script.into_bytes(), k);
            }
            let guess = candidates[0];
            candidates.retain(|&c| {
                answer(space, guess, c)
                    == Answer {
                        eat: eat as u8,
                        bite: bite as u8,
                    }
            });
        }
        unreachable!()
    }

    #[test]
    fn the_helper_finds_a_secret_from_honest_answers() {
        let e = engine(3);
        for secret in ["719", "012", "987", "503"] {
            let (script, guesses) = honest_script(&e, secret);
            let (end, text) = run_solve(&e, &script);
            assert_eq!(
                end.unwrap(),
                SolveEnd::Solved {
                    secret: secret.to_string(),
                    guesses
                },
                "{text}"
            );
        }
    }

    #[test]
    fn the_helper_reads_the_letters_of_an_answer_in_either_order() {
        // 012 against 120 or 201: no digit in place, three elsewhere.
        let e = engine(3);
        let (_, a) = run_solve(&e, b"0E3B\n");
        let (_, b) = run_solve(&e, b"3B0E\n");
        assert!(a.contains("candidates: 120 201"), "{a}");
        assert_eq!(a, b);
        // 1B0E is one digit elsewhere, not one in place.
        let (_, c) = run_solve(&e, b"1B0E\n");
        let (_, d) = run_solve(&e, b"0 1\n");
        assert_eq!(c, d);
        let (_, f) = run_solve(&e, b"1 0\n");
        assert_ne!(c, f);
    }

    #[test]
    fn a_negative_or_malformed_answer_is_refused_and_asked_again() {
        let e = engine(3);
        for bad in ["-1 0", "1E", "1E1E", "1,,0", "E1B0", "1 0 0", "x"] {
            let (end, text) = run_solve(&e, format!("{bad}\nq\n").as_bytes());
            assert_eq!(end.unwrap(), SolveEnd::Quit);
            assert!(text.contains("refused:"), "{bad}: {text}");
            assert!(text.contains("is not an answer"), "{bad}: {text}");
            assert_eq!(text.matches("720 candidates left").count(), 2, "{bad}");
        }
    }

    #[test]
    fn a_line_longer_than_the_limit_ends_the_session_as_bad_input() {
        let e = engine(3);
        let long = vec![b'0'; MAX_LINE + 1];
        let (end, _) = run_solve(&e, &long);
        let err = end.unwrap_err();
        assert!(matches!(err, Error::LineTooLong { line: 1, .. }), "{err}");
        assert_eq!(err.kind(), crate::fault::ErrorKind::Input);
        // A line of exactly the limit is read (and refused as an answer, not as a line).
        let mut ok = vec![b' '; MAX_LINE];
        ok.extend_from_slice(b"\nq\n");
        assert_eq!(run_solve(&e, &ok).0.unwrap(), SolveEnd::Quit);
    }

    #[test]
    fn an_endless_stream_of_zero_bytes_is_refused_without_reading_it_all() {
        let e = engine(3);
        let (end, _) = run_solve(&e, &[]);
        assert_eq!(end.unwrap(), SolveEnd::EndOfInput);
        let zeros = std::io::BufReader::new(std::io::repeat(0));
        let err = solve(&e, Strategy::First, false, false, zeros, Vec::new()).unwrap_err();
        assert!(matches!(err, Error::LineTooLong { .. }), "{err}");
    }

    #[test]
    fn input_that_is_not_utf8_is_named_with_its_line_and_stream() {
        let e = engine(3);
        let (end, _) = run_solve(&e, b"\n\xff\xfe\n");
        let err = end
            .unwrap_err()
            .in_streams("standard input", "standard output");
        assert_eq!(err.to_string(), "standard input: line 2 is not UTF-8 text");
        assert_eq!(err.kind(), crate::fault::ErrorKind::Input);
    }

    #[test]
    fn a_closed_output_is_a_broken_pipe_for_the_caller() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let e = engine(3);
        let err = play(&e, 1, &b"012\n"[..], Closed).unwrap_err();
        let err: crate::Error = err.in_streams("standard input", "standard output").into();
        assert!(err.is_broken_pipe(), "{err}");
    }

    #[test]
    fn the_game_answers_guesses_like_the_position_by_position_count() {
        let e = engine(3);
        let mut out = Vec::new();
        assert_eq!(
            play(&e, 42, &b"q\n"[..], &mut out).unwrap(),
            PlayEnd::GaveUp
        );
        let text = String::from_utf8(out).unwrap();
        let secret: Vec<char> = text.trim().rsplit(' ').next().unwrap().chars().collect();
        let mut out = Vec::new();
        let script = format!("01\n012\n{}\n", secret.iter().collect::<String>());
        let end = play(&e, 42, script.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let g = ['0', '1', '2'];
        let eat = g.iter().zip(&secret).filter(|(a, b)| a == b).count();
        let bite = g.iter().filter(|c| secret.contains(c)).count() - eat;
        assert!(text.contains("refused: \"01\" has 2 digits"), "{text}");
        if eat == 3 {
            assert_eq!(end, PlayEnd::Found { guesses: 1 });
        } else {
            assert!(text.contains(&format!("{eat}E{bite}B  (")), "{text}");
            assert_eq!(end, PlayEnd::Found { guesses: 2 });
        }
    }

    #[test]
    fn a_guess_of_the_users_own_is_recorded_with_its_answer() {
        let e = engine(3);
        let space = &e.space;
        let (g, a) = parse_reply(space, "345 1E0B", 0).unwrap();
        assert_eq!(
            (space.format(g), a),
            ("345".to_string(), Answer { eat: 1, bite: 0 })
        );
        let (g, a) = parse_reply(space, "0 2", 7).unwrap();
        assert_eq!((g, a), (7, Answer { eat: 0, bite: 2 }));
        assert!(parse_reply(space, "355 1 0", 0).is_err());
    }

    proptest! {
        #[test]
        fn replies_never_panic_on_any_text(line in "\\PC{0,40}", digits in 1usize..=6) {
            let e = engine(digits);
            let _ = parse_reply(&e.space, &line, 0);
        }

        #[test]
        fn replies_of_digits_letters_and_signs_never_panic(
            line in "[0-9eEbB ,/\\-]{0,12}",
            digits in 1usize..=6,
        ) {
            let e = engine(digits);
            if let Ok((_, a)) = parse_reply(&e.space, &line, 0) {
                prop_assert!(usize::from(a.eat) + usize::from(a.bite) <= digits);
            }
        }

        #[test]
        fn every_strategy_survives_any_run_of_plausible_replies(
            digits in 1usize..=2,
            strategy in 0usize..6,
            hard: bool,
            replies in proptest::collection::vec(
                proptest::sample::select(vec![
                    "0 0", "1 0", "0 1", "0 2", "1E1B", "2 0", "1B0E", "10 0", "", "q2",
                    "01 1 0", "98 0 0", "x",
                ]),
                0..12,
            ),
        ) {
            let strategy = Strategy::ALL[strategy];
            let e = Engine::new(Rules::new(digits), strategy).unwrap();
            let script = replies.join("\n");
            let mut out = Vec::new();
            let end = solve(&e, strategy, hard, false, script.as_bytes(), &mut out);
            let text = String::from_utf8(out).unwrap();
            prop_assert!(end.is_ok(), "{:?}\n{}", end, text);
        }

        #[test]
        fn a_session_never_panics_on_any_bytes(script in proptest::collection::vec(any::<u8>(), 0..200)) {
            let e = engine(3);
            let _ = solve(&e, Strategy::First, false, false, &script[..], Vec::new());
            let _ = play(&e, 3, &script[..], Vec::new());
        }
    }
}
