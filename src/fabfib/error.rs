//! Everything that can go wrong in Fabfib, each fault its own variant.

use crate::fault::ErrorKind;
use thiserror::Error;

/// An error of the Fabfib module.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// A table of fewer than 2 or more than 10 players.
    #[error("{players} players: fabfib is played by {min} to {max}")]
    Players {
        /// The players asked for.
        players: usize,
        /// Fewest players.
        min: usize,
        /// Most players.
        max: usize,
    },
    /// A starting life outside 1..=1000.
    #[error("life {life}: the starting life must be 1 to {max}")]
    Life {
        /// The life asked for.
        life: i16,
        /// The highest starting life.
        max: i16,
    },
    /// A number of games outside what a run may play.
    #[error("{games} games: a run plays at least 1 game and at most {max}")]
    Games {
        /// The games asked for.
        games: u64,
        /// The most games one run may play.
        max: u64,
    },
    /// Neither one strategy for everyone nor one per player.
    #[error("{given} strategies for {players} players: give one for everyone or one per player")]
    StrategyCount {
        /// Strategies named.
        given: usize,
        /// Players at the table.
        players: usize,
    },
    /// A strategy name that names no strategy.
    #[error(
        "unknown strategy {name:?}: use article (alias seed), honest, odds, odds:T (0 ≤ T ≤ 1), \
         or CALL/DISCARD/DOUBT with CALL in article|honest, DISCARD in article|best, DOUBT in \
         article|odds|odds:T"
    )]
    UnknownStrategy {
        /// The name as given.
        name: String,
    },
    /// The odds doubter's threshold is not a probability.
    #[error("strategy {name:?}: the odds threshold {threshold:?} must be a number from 0 to 1")]
    OddsThreshold {
        /// The strategy as given.
        name: String,
        /// The threshold as given.
        threshold: String,
    },
    /// A parameter of the article's strategy out of its range.
    #[error("the article strategy's {name} {value} is out of range: it must be {range}")]
    Parameter {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The allowed range, in words.
        range: &'static str,
    },
    /// A seat that is not at the table.
    #[error("seat {seat}: the seats are 1 to {players}")]
    Seat {
        /// The seat asked for, from 1.
        seat: usize,
        /// Players at the table.
        players: usize,
    },
    /// A parameter of a search given no value to try.
    #[error("no value of the {name} to try: give at least one")]
    NothingToTry {
        /// Which parameter.
        name: &'static str,
    },
    /// A search grid of too many settings.
    #[error("the grid has more than {max} settings: try fewer values")]
    TooManySettings {
        /// The most settings a search tries.
        max: usize,
    },
    /// A search of too many games in all.
    #[error(
        "{settings} settings of {games} games are {total} games: a search plays at most {max}"
    )]
    SearchTooLong {
        /// Settings in the grid.
        settings: usize,
        /// Games per setting.
        games: u64,
        /// Games in all.
        total: u64,
        /// The most games a search plays.
        max: u64,
    },
    /// Something that should be a call is not one.
    #[error(
        "{what} {text:?} is not a call: a call is 1000 or three digits that never increase \
         from left to right, like 976, 550 or 100"
    )]
    NotACall {
        /// What the text was meant to be.
        what: String,
        /// The text.
        text: String,
    },
    /// A list of digits holds something that is not a digit.
    #[error("{what} {text:?}: {part:?} is not a digit 0-9 (write digits like 876 or 8,7,6)")]
    NotADigit {
        /// What the list was meant to be.
        what: String,
        /// The whole text.
        text: String,
        /// The piece that is not a digit.
        part: String,
    },
    /// A hand of other than three digits.
    #[error("hand {text:?} has {digits} digits; a hand is exactly 3 digits, like 876")]
    HandSize {
        /// The text.
        text: String,
        /// Digits found.
        digits: usize,
    },
    /// More than five cards of one digit.
    #[error("{what} use more than {copies} cards of digit {digit}: the deck has only {copies}")]
    TooManyCopies {
        /// What holds the cards.
        what: String,
        /// The digit.
        digit: u8,
        /// Copies of each digit in the deck.
        copies: u8,
    },
    /// A discard of no card where the rules demand one.
    #[error(
        "a player who accepts must discard 1 to 3 cards (none only under the zero-discard rule)"
    )]
    EmptyDiscard,
    /// A discard of more than three cards.
    #[error("cannot discard {discard}: a hand has only 3 cards")]
    DiscardTooLarge {
        /// The digits, comma-separated.
        discard: String,
    },
    /// A discard of cards the hand does not hold.
    #[error("cannot discard {discard}: the hand {hand} does not hold those cards")]
    NotInHand {
        /// The digits, comma-separated.
        discard: String,
        /// The hand's digits.
        hand: String,
    },
    /// A line of input longer than a session reads.
    #[error("{what}: a line longer than {limit} bytes; answers are a few characters")]
    LineTooLong {
        /// Where the line came from, e.g. "standard input".
        what: String,
        /// The longest line read.
        limit: usize,
    },
    /// Input that is not UTF-8 text.
    #[error("{what}: the input is not valid UTF-8 text (line {line})")]
    NotText {
        /// Where the input came from.
        what: String,
        /// The line's number, from 1.
        line: u64,
    },
    /// Reading a session's input failed.
    #[error("reading {what}: {source}")]
    Read {
        /// Where the input came from.
        what: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Writing a session's output failed.
    #[error("writing the game: {source}")]
    Write {
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// What sort of failure this is (the command layer maps it to an exit status).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Read { .. } | Error::Write { .. } => ErrorKind::Io,
            _ => ErrorKind::Input,
        }
    }
}

/// Results of the Fabfib module.
pub type Result<T, E = Error> = std::result::Result<T, E>;
