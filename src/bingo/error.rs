//! Everything that can go wrong in bingo, each fault its own variant.
//!
//! The messages speak of cards, drums and players, never of command-line options: a caller
//! that wants to say which of its options was at fault wraps the error in
//! [`Error::Named`].

use crate::fault::ErrorKind;
use thiserror::Error;

/// An error of the bingo module.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// A card side the module does not handle.
    #[error("card size {size} is not supported: expected 3, 4, 5 or 7")]
    CardSize {
        /// The side asked for, in squares.
        size: usize,
    },
    /// A pattern name that is none of the known patterns.
    #[error("unknown pattern {name:?}: expected one of {expected}")]
    UnknownPattern {
        /// The name given.
        name: String,
        /// The known pattern names, comma-separated.
        expected: String,
    },
    /// A card model name that is neither `us` nor `uniform`.
    #[error("unknown card model {name:?}: expected us or uniform")]
    UnknownCards {
        /// The name given.
        name: String,
    },
    /// The drum holds fewer numbers than the card has squares, or more than the module handles.
    #[error(
        "the drum must hold between {numbered} (the card's numbered squares) and {largest} \
         numbers, got {got}"
    )]
    Drum {
        /// The card's numbered squares `c`, the smallest drum accepted.
        numbered: u64,
        /// The largest drum accepted ([`super::MAX_NUMBERS`]).
        largest: u64,
        /// The drum size `M` asked for.
        got: u64,
    },
    /// Too many subsets to count one by one.
    #[error(
        "a {size}×{size} card has {numbered} numbered squares: 2^{numbered} subsets are too many \
         to enumerate (at most {largest}); {hint}"
    )]
    TooManySubsets {
        /// The card's side, in squares.
        size: usize,
        /// The card's numbered squares `c` (there are `2^c` subsets).
        numbered: usize,
        /// The most numbered squares enumeration accepts ([`super::enumerate::MAX_ENUMERATED`]).
        largest: usize,
        /// Which other method reaches this pattern, as a phrase ending the message.
        hint: &'static str,
    },
    /// The pattern is not "at least m of these sets fully marked" (only `reach`).
    #[error(
        "pattern {pattern} is not a union of full lines, so inclusion-exclusion cannot count it; \
         enumeration can"
    )]
    NoInclusionExclusion {
        /// The pattern's name.
        pattern: &'static str,
    },
    /// Inclusion–exclusion produced an impossible count (a bug, never expected).
    #[error("inclusion-exclusion gave {total} subsets of size {k}")]
    BadCount {
        /// The count found, negative or beyond `u64`.
        total: i128,
        /// The subset size it was counted for.
        k: usize,
    },
    /// Too many call orders to walk through.
    #[error(
        "a {size}×{size} card has {numbered} numbers: {numbered}! call orders are too many to \
         enumerate (at most {largest} numbers, i.e. the 3×3 card)"
    )]
    TooManyOrders {
        /// The card's side, in squares.
        size: usize,
        /// The card's numbered squares `c` (there are `c!` call orders).
        numbered: usize,
        /// The most numbered squares the walk accepts ([`super::orders::MAX_ORDERS`]).
        largest: usize,
    },
    /// The call orders could not be numbered.
    #[error("could not number the call orders: {0}")]
    Orders(#[source] crate::rank::RankError),
    /// The exhaustive check of call orders disagrees with the exact law.
    #[error("the call orders disagree with the exact law")]
    OrdersDisagree,
    /// A number of players out of range.
    #[error("the number of players must be between 1 and {largest}, got {got}")]
    Players {
        /// The number of players asked for.
        got: u32,
        /// The most players accepted ([`super::players::MAX_PLAYERS`]).
        largest: u32,
    },
    /// The number of prizes is out of range for the number of players.
    #[error(
        "the number of prizes must be between 1 and the number of players ({players}), got {got}"
    )]
    Prizes {
        /// The number of prizes asked for.
        got: u32,
        /// The most prizes accepted: the number of players, at most
        /// [`super::prizes::MAX_PRIZES`].
        players: u32,
    },
    /// US cards need the drum cut into equal column ranges, each at least a column long.
    #[error(
        "US cards need M to be a multiple of the size {size} with at least {size} numbers per \
         column, got M = {got}"
    )]
    UsDrum {
        /// The card's side, in squares (and its number of columns).
        size: usize,
        /// The drum size `M` asked for.
        got: u64,
    },
    /// US cards on a card too large for the one pass over its marked sets.
    #[error("US cards on a {size}×{size} card are not supported (too many squares to enumerate)")]
    UsCardTooLarge {
        /// The card's side, in squares.
        size: usize,
    },
    /// The US-card counts do not fit 128 bits.
    #[error("US-card counts overflow 128 bits: M is too large")]
    UsOverflow,
    /// A number of games out of range.
    #[error("the number of games must be between 1 and {largest}, got {got}")]
    Games {
        /// The number of games asked for.
        got: u64,
        /// The most games one run accepts ([`super::MAX_GAMES`]).
        largest: u64,
    },
    /// A number of worker threads out of range.
    #[error("the number of worker threads must be between 1 and {largest}, got {got}")]
    Threads {
        /// The number of threads asked for.
        got: usize,
        /// The most threads accepted.
        largest: usize,
    },
    /// The worker threads could not be started.
    #[error("could not start {threads} threads: {source}")]
    ThreadPool {
        /// The number of threads asked for.
        threads: usize,
        /// Why rayon could not build the pool.
        #[source]
        source: rayon::ThreadPoolBuildError,
    },
    /// An error in a value the caller names `name` (e.g. the option it came from).
    #[error("{name}: {source}")]
    Named {
        /// The caller's name for the value at fault (e.g. `--games`).
        name: String,
        /// The error itself.
        #[source]
        source: Box<Error>,
    },
}

impl Error {
    /// The same error, said to concern the caller's value `name`.
    pub fn named(self, name: impl Into<String>) -> Error {
        Error::Named {
            name: name.into(),
            source: Box::new(self),
        }
    }

    /// What sort of failure this is (the command layer maps it to an exit status).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::CardSize { .. }
            | Error::UnknownPattern { .. }
            | Error::UnknownCards { .. }
            | Error::Drum { .. }
            | Error::TooManySubsets { .. }
            | Error::NoInclusionExclusion { .. }
            | Error::TooManyOrders { .. }
            | Error::Players { .. }
            | Error::Prizes { .. }
            | Error::UsDrum { .. }
            | Error::UsCardTooLarge { .. }
            | Error::UsOverflow
            | Error::Games { .. }
            | Error::Threads { .. } => ErrorKind::Input,
            Error::BadCount { .. }
            | Error::Orders(_)
            | Error::OrdersDisagree
            | Error::ThreadPool { .. } => ErrorKind::Failed,
            Error::Named { source, .. } => source.kind(),
        }
    }
}

/// Result with the bingo [`enum@Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_error_keeps_the_kind_and_the_message_of_its_source() {
        let e = Error::Games {
            got: 0,
            largest: 10,
        }
        .named("--games");
        assert_eq!(e.kind(), ErrorKind::Input);
        assert_eq!(
            e.to_string(),
            "--games: the number of games must be between 1 and 10, got 0"
        );
        assert_eq!(Error::OrdersDisagree.kind(), ErrorKind::Failed);
    }
}
