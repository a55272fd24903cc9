//! The combinatorial ranking engine.
//!
//! Every exhaustive pass in tabula is a loop over integers: each family of combinatorial
//! objects here is put in bijection with `0..len()`. All rankers share one small API, the
//! [`Ranker`] trait, over objects written as byte slices:
//!
//! | ranker | object (`&[u8]`) | order |
//! |---|---|---|
//! | [`Multisets`] | a count vector: `v[i]` identical items on place `i` | the article's `next_PN` |
//! | [`Combinations`] | a k-subset of `0..n`, ascending | colex (combinatorial number system) |
//! | [`KPermutations`] | `k` distinct values of `0..n` | lexicographic |
//! | [`Words`] | `len` letters of an alphabet of size `a` | lexicographic |
//!
//! Counts are `u64`; a family whose size does not fit is refused with
//! [`RankError::Overflow`] when the ranker is built, so no arithmetic inside can wrap.
//!
//! ```
//! use tabula::rank::{KPermutations, Multisets, Ranker};
//!
//! // Numeron's 720 candidates: 012 is #0, 987 is #719.
//! let codes = KPermutations::new(10, 3).unwrap();
//! assert_eq!(codes.rank(&[0, 1, 2]).unwrap(), 0);
//! assert_eq!(codes.unrank(719).unwrap(), vec![9, 8, 7]);
//!
//! // The article's listing of 2 checkers on 4 places, in next_PN order.
//! let vectors: Vec<Vec<u8>> = Multisets::new(4, 2).unwrap().iter().take(3).collect();
//! assert_eq!(vectors, [vec![2, 0, 0, 0], vec![1, 1, 0, 0], vec![0, 2, 0, 0]]);
//! ```

mod combinations;
mod kperm;
mod multiset;
mod words;

pub use combinations::{binomial, Combinations};
pub use kperm::KPermutations;
pub use multiset::{pnc, Multisets};
pub use words::Words;

use thiserror::Error;

/// What can go wrong when ranking or unranking.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RankError {
    /// The family cannot be numbered in 64 bits (too many objects, or parameters beyond
    /// what the ranker supports); the text names the family, such as `C(n, k)`.
    #[error("the family is too large to number in 64 bits ({0})")]
    Overflow(String),
    /// A rank at or past the family's size was unranked.
    #[error("rank {rank} is out of range (the family has {len} objects)")]
    RankOutOfRange {
        /// The rank asked for.
        rank: u64,
        /// The number of objects in the family.
        len: u64,
    },
    /// The object's slice is not [`Ranker::width`] long.
    #[error("object has length {found}, expected {expected}")]
    WrongLength {
        /// The slice's length.
        found: usize,
        /// The family's width.
        expected: usize,
    },
    /// The object is not in the family; the text says why.
    #[error("not a member of the family: {0}")]
    NotMember(String),
}

/// A bijection between a finite family of objects (byte slices of fixed width) and
/// `0..len()`, with iteration in rank order.
pub trait Ranker {
    /// Number of objects in the family.
    fn len(&self) -> u64;

    /// True when the family is empty (never, for the rankers here; kept for clippy's sake).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Length of the slice that represents one object.
    fn width(&self) -> usize;

    /// The rank of `item`, checking that it belongs to the family.
    fn rank(&self, item: &[u8]) -> Result<u64, RankError>;

    /// Writes the object of rank `r` into `out` (of length [`Ranker::width`]).
    fn unrank_into(&self, r: u64, out: &mut [u8]) -> Result<(), RankError>;

    /// Replaces `item` by the next object in rank order; returns false (leaving `item`
    /// unspecified) when `item` was the last one.
    fn advance(&self, item: &mut [u8]) -> bool;

    /// The object of rank `r`, freshly allocated.
    fn unrank(&self, r: u64) -> Result<Vec<u8>, RankError> {
        let mut out = vec![0; self.width()];
        self.unrank_into(r, &mut out)?;
        Ok(out)
    }

    /// Every object in rank order.
    fn iter(&self) -> RankIter<'_, Self>
    where
        Self: Sized,
    {
        RankIter {
            ranker: self,
            next: if self.is_empty() {
                None
            } else {
                self.unrank(0).ok()
            },
        }
    }
}

/// Iterator over a family in rank order (see [`Ranker::iter`]).
pub struct RankIter<'a, R: Ranker> {
    ranker: &'a R,
    next: Option<Vec<u8>>,
}

impl<R: Ranker> Iterator for RankIter<'_, R> {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        let current = self.next.take()?;
        let mut following = current.clone();
        if self.ranker.advance(&mut following) {
            self.next = Some(following);
        }
        Some(current)
    }
}

pub(crate) fn check_width(found: usize, expected: usize) -> Result<(), RankError> {
    if found == expected {
        Ok(())
    } else {
        Err(RankError::WrongLength { found, expected })
    }
}

pub(crate) fn check_rank(rank: u64, len: u64) -> Result<(), RankError> {
    if rank < len {
        Ok(())
    } else {
        Err(RankError::RankOutOfRange { rank, len })
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::Ranker;

    /// Exhaustive check of a ranker: iteration visits `len` objects, each object's rank is
    /// its position, unrank inverts rank, and the order is strictly increasing under `less`.
    pub fn check_exhaustively<R: Ranker>(r: &R, less: impl Fn(&[u8], &[u8]) -> bool) {
        let mut count = 0u64;
        let mut previous: Option<Vec<u8>> = None;
        for item in r.iter() {
            assert_eq!(r.rank(&item).unwrap(), count, "rank of {item:?}");
            assert_eq!(r.unrank(count).unwrap(), item, "unrank of {count}");
            if let Some(p) = &previous {
                assert!(less(p, &item), "{p:?} should come before {item:?}");
            }
            previous = Some(item);
            count += 1;
        }
        assert_eq!(count, r.len());
        assert!(r.unrank(r.len()).is_err());
    }
}
