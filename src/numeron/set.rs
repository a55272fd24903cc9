//! Candidate sets as bitsets over candidate ranks: filtering by an answer is one pass over
//! the set bits of each word.

use super::answer::Oracle;

/// A set of candidate ranks, one bit each.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CandidateSet {
    words: Vec<u64>,
    universe: usize,
}

impl CandidateSet {
    /// The set of all `universe` candidates.
    pub fn full(universe: usize) -> CandidateSet {
        let mut words = vec![u64::MAX; universe.div_ceil(64)];
        if !universe.is_multiple_of(64) {
            if let Some(last) = words.last_mut() {
                *last = (1u64 << (universe % 64)) - 1;
            }
        }
        CandidateSet { words, universe }
    }

    /// The empty set over `universe` candidates.
    pub fn empty(universe: usize) -> CandidateSet {
        CandidateSet {
            words: vec![0; universe.div_ceil(64)],
            universe,
        }
    }

    /// Whether `r` is in the set.
    pub fn contains(&self, r: u32) -> bool {
        self.words[r as usize / 64] >> (r % 64) & 1 == 1
    }

    /// Adds `r`.
    pub fn insert(&mut self, r: u32) {
        self.words[r as usize / 64] |= 1 << (r % 64);
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when no candidate is left.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The smallest member.
    pub fn first(&self) -> Option<u32> {
        self.words
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| (i * 64) as u32 + w.trailing_zeros())
    }

    /// Members in ascending rank order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some((i * 64) as u32 + b)
            })
        })
    }

    /// Members as an ascending vector.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    /// The members whose answer to `guess` has code `answer`.
    pub fn filter(&self, oracle: &Oracle<'_>, guess: u32, answer: u8) -> CandidateSet {
        let mut out = CandidateSet::empty(self.universe);
        for (i, &w) in self.words.iter().enumerate() {
            let mut w = w;
            let mut kept = 0u64;
            while w != 0 {
                let b = w.trailing_zeros();
                w &= w - 1;
                if oracle.code(guess, (i * 64) as u32 + b) == answer {
                    kept |= 1 << b;
                }
            }
            out.words[i] = kept;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_set_holds_exactly_its_universe() {
        for n in [1, 63, 64, 65, 720] {
            let s = CandidateSet::full(n);
            assert_eq!(s.len(), n);
            assert_eq!(s.to_vec(), (0..n as u32).collect::<Vec<_>>());
        }
        let mut e = CandidateSet::empty(100);
        assert!(e.is_empty());
        e.insert(70);
        e.insert(3);
        assert_eq!(e.first(), Some(3));
        assert!(e.contains(70) && !e.contains(71));
    }
}
