//! Everything that can go wrong in Numeron, each fault its own variant.
//!
//! Messages say what is wrong in the game's words; they never name a command-line option
//! (the command layer adds its own advice with [`Error::advised`]).

use crate::fault::excerpt;
use crate::fault::ErrorKind;
use thiserror::Error;

/// An error of the Numeron module.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The digit symbols are not 1 to 10.
    #[error("the alphabet must have 1 to 10 {symbol}s, not {alphabet}")]
    Alphabet {
        /// The size asked for.
        alphabet: usize,
        /// The word for a symbol (`digit`, `colour`).
        symbol: &'static str,
    },
    /// A code length outside 1..=10.
    #[error("the number of {unit}s must be between 1 and 10, not {digits}")]
    Digits {
        /// The length asked for.
        digits: usize,
        /// The word for a position (`digit`, `peg`).
        unit: &'static str,
    },
    /// More distinct digits than symbols.
    #[error("{digits} distinct digits cannot be drawn from {alphabet} symbols")]
    TooFewSymbols {
        /// Positions asked for.
        digits: usize,
        /// Symbols available.
        alphabet: usize,
    },
    /// The candidate space is larger than the game handles.
    #[error("{candidates} candidates is too many (at most {max}); play with fewer {unit}s")]
    TooManyCandidates {
        /// Candidates the variant has.
        candidates: u64,
        /// The largest space accepted.
        max: u64,
        /// The word for a position (`digit`, `peg`).
        unit: &'static str,
    },
    /// The candidates could not be numbered.
    #[error("the candidates cannot be numbered: {0}")]
    Numbering(#[from] crate::rank::RankError),
    /// A code with a character that is not an admissible digit (or colour).
    #[error("{:?} is not a code: {found:?} is not a {symbol} {symbols}", excerpt(.text))]
    NotASymbol {
        /// The text given.
        text: String,
        /// The first offending character.
        found: char,
        /// The word for a symbol (`digit`, `colour`).
        symbol: &'static str,
        /// The symbols allowed, written out (`0-9`, `1-6 or A-F`).
        symbols: String,
    },
    /// A code of the wrong length.
    #[error("{:?} has {found} {unit}s, expected {expected}", excerpt(.text))]
    CodeLength {
        /// The text given.
        text: String,
        /// Positions found.
        found: usize,
        /// Positions of a code.
        expected: usize,
        /// The word for a position (`digit`, `peg`).
        unit: &'static str,
    },
    /// A code repeating a digit when digits must be distinct.
    #[error("{:?} repeats the digit {digit}, but this game's digits are distinct", excerpt(.text))]
    RepeatedDigit {
        /// The text given.
        text: String,
        /// The repeated digit.
        digit: u8,
    },
    /// Digits that the numbering does not know.
    #[error("{:?} is not a candidate", excerpt(.text))]
    NotACandidate {
        /// The text given.
        text: String,
    },
    /// A reply that is not the two counts in any of the accepted forms.
    #[error("{:?} is not an answer: {help}", excerpt(.text))]
    NotAnAnswer {
        /// The text given.
        text: String,
        /// How to type one, in the game's words.
        help: &'static str,
    },
    /// A reply with more symbols in place and elsewhere than a code has positions.
    #[error("{reply} is impossible: {in_place} + {elsewhere} cannot exceed {digits} {unit}s")]
    AnswerTooLarge {
        /// The reply, written out.
        reply: String,
        /// The name of the count in place (`EAT`, `black`).
        in_place: &'static str,
        /// The name of the count elsewhere (`BITE`, `white`).
        elsewhere: &'static str,
        /// Positions of a code.
        digits: usize,
        /// The word for a position (`digit`, `peg`).
        unit: &'static str,
    },
    /// `(N-1)E1B`: the one symbol out of place would have nowhere else to go.
    #[error(
        "{reply} is impossible: when {in_place} {unit}s are in place, the last one cannot be elsewhere"
    )]
    LastDigitElsewhere {
        /// The reply, written out.
        reply: String,
        /// Positions in place.
        in_place: u8,
        /// The word for a position (`digit`, `peg`).
        unit: &'static str,
    },
    /// A reply no secret at all gives to this guess.
    #[error("{reply} is impossible for the guess {guess}: no secret at all gives it")]
    ImpossibleForGuess {
        /// The reply, written out.
        reply: String,
        /// The guess, written out.
        guess: String,
    },
    /// A reply that no candidate left gives: it contradicts the earlier ones.
    #[error(
        "{guess} {reply} contradicts the earlier answers ({earlier}): no secret fits them all; check them and type this one again"
    )]
    Contradiction {
        /// The guess, written out.
        guess: String,
        /// The reply, written out.
        reply: String,
        /// The earlier guesses and answers, written out.
        earlier: String,
    },
    /// An unknown strategy name.
    #[error("unknown strategy {name:?}: choose one of {known}")]
    UnknownStrategy {
        /// The name given.
        name: String,
        /// The names known, comma-separated.
        known: String,
    },
    /// An exact strategy on a space too large for the exact search.
    #[error("the exact search handles at most {max} candidates, not {candidates}")]
    TooLargeForExactSearch {
        /// Candidates of the space.
        candidates: usize,
        /// The largest space searched.
        max: usize,
    },
    /// An exact strategy on a space that takes minutes, not asked for explicitly.
    #[error("strategy {strategy} on {candidates} candidates is a search of minutes")]
    SearchOfHours {
        /// The strategy's name.
        strategy: &'static str,
        /// Candidates of the space.
        candidates: usize,
    },
    /// A heuristic on a space too large to score every guess at every node.
    #[error(
        "strategy {strategy} scores every guess at every node, which is limited to {max} candidates, not {candidates}"
    )]
    TooLargeForHeuristic {
        /// The strategy's name.
        strategy: &'static str,
        /// Candidates of the space.
        candidates: usize,
        /// The largest space scored.
        max: usize,
    },
    /// A guess was asked for with no candidate left.
    #[error("no candidate is left")]
    NoCandidateLeft,
    /// The time budget ran out before the search finished.
    #[error("the exact search ran out of time")]
    OutOfTime,
    /// A first guess the whole search does not try (it tries one per pattern).
    #[error("{guess} is not one of the first guesses the search tries ({tried})")]
    NotAFirstGuess {
        /// The guess, written out.
        guess: String,
        /// The first guesses tried, written out.
        tried: String,
    },
    /// A reply that no secret gives to the first guess.
    #[error("no secret replies {reply} to {guess}")]
    NoSuchClass {
        /// The first guess, written out.
        guess: String,
        /// The reply, written out.
        reply: String,
    },
    /// No strategy meets a depth cap.
    #[error("no strategy finds all {candidates} candidates within {depth} guesses")]
    Infeasible {
        /// Candidates of the set.
        candidates: usize,
        /// The cap.
        depth: u32,
    },
    /// A strategy made a guess that tells nothing.
    #[error("the strategy guessed {guess} which tells nothing about {candidates} candidates")]
    UselessGuess {
        /// The guess, written out.
        guess: String,
        /// Candidates it failed to split.
        candidates: usize,
    },
    /// A strategy that keeps guessing without winning.
    #[error("the strategy does not converge")]
    NoConvergence,
    /// An inconsistency inside the exact search (a bug, never bad input).
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// A file of facts could not be read, checked or written.
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    /// Reading the interactive input failed.
    #[error("cannot read: {0}")]
    Read(#[source] std::io::Error),
    /// Writing the interactive output failed.
    #[error("cannot write: {0}")]
    Write(#[source] std::io::Error),
    /// An input line longer than the session reads.
    #[error("line {line} is longer than {max} bytes")]
    LineTooLong {
        /// The line's number, from 1.
        line: u64,
        /// The longest line read.
        max: usize,
    },
    /// An input line that is not UTF-8 text.
    #[error("line {line} is not UTF-8 text")]
    NotText {
        /// The line's number, from 1.
        line: u64,
    },
    /// An error in a stream the caller names (`standard input`, a file).
    #[error("{name}: {fault}")]
    In {
        /// The stream's name.
        name: String,
        /// The fault.
        #[source]
        fault: Box<Error>,
    },
    /// An error with the caller's advice on how to avoid it.
    #[error("{fault}; {advice}")]
    Advised {
        /// The fault.
        #[source]
        fault: Box<Error>,
        /// What to do instead, in the caller's words.
        advice: String,
    },
}

impl Error {
    /// What sort of failure this is (the command layer maps it to an exit status).
    pub fn kind(&self) -> ErrorKind {
        use Error::*;
        match self {
            Alphabet { .. }
            | Digits { .. }
            | TooFewSymbols { .. }
            | TooManyCandidates { .. }
            | NotASymbol { .. }
            | CodeLength { .. }
            | RepeatedDigit { .. }
            | NotACandidate { .. }
            | NotAnAnswer { .. }
            | AnswerTooLarge { .. }
            | LastDigitElsewhere { .. }
            | ImpossibleForGuess { .. }
            | Contradiction { .. }
            | UnknownStrategy { .. }
            | TooLargeForExactSearch { .. }
            | SearchOfHours { .. }
            | TooLargeForHeuristic { .. }
            | NoCandidateLeft
            | NotAFirstGuess { .. }
            | NoSuchClass { .. }
            | LineTooLong { .. }
            | NotText { .. } => ErrorKind::Input,
            Numbering(_)
            | OutOfTime
            | Infeasible { .. }
            | UselessGuess { .. }
            | NoConvergence
            | Internal(_) => ErrorKind::Failed,
            Read(_) | Write(_) => ErrorKind::Io,
            Table(_) => ErrorKind::Table,
            In { fault, .. } | Advised { fault, .. } => fault.kind(),
        }
    }

    /// Names the streams of an interactive session: faults of reading (and of the lines
    /// read) are said to be in `input`, faults of writing in `output`.
    pub fn in_streams(self, input: &str, output: &str) -> Error {
        let name = match &self {
            Error::Read(_) | Error::LineTooLong { .. } | Error::NotText { .. } => input,
            Error::Write(_) => output,
            _ => return self,
        };
        Error::In {
            name: name.to_string(),
            fault: Box::new(self),
        }
    }

    /// The same error followed by `advice` (the command layer's hint, which may name its
    /// options).
    pub fn advised(self, advice: impl Into<String>) -> Error {
        Error::Advised {
            fault: Box::new(self),
            advice: advice.into(),
        }
    }
}
