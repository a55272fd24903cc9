//! k-permutations of `0..n` (sequences of `k` distinct values) in lexicographic order.
//!
//! With values as digits, lexicographic order is ascending numeric order: for Numeron,
//! `012` is #0 and `987` is #719 among the 3-permutations of the ten digits.

use super::{check_rank, check_width, RankError, Ranker};

/// The family of `k`-permutations of `0..n` (n ≤ 64).
#[derive(Debug, Clone)]
pub struct KPermutations {
    n: usize,
    k: usize,
    /// `falling[i]` = number of ways to complete a prefix of length `i + 1`:
    /// (n-i-1)·(n-i-2)···(n-k+1), the count of (k-i-1)-permutations of n-i-1 values.
    falling: Vec<u64>,
    len: u64,
}

impl KPermutations {
    /// Builds the ranker; `k ≤ n ≤ 64` and `n!/(n-k)!` must fit a `u64`.
    pub fn new(n: usize, k: usize) -> Result<Self, RankError> {
        if n > 64 || k > n {
            return Err(RankError::Overflow(format!(
                "{k}-permutations of {n} (need k ≤ n ≤ 64)"
            )));
        }
        let too_big = || RankError::Overflow(format!("{n}!/({n}-{k})!"));
        let mut falling = vec![1u64; k];
        for i in (0..k.saturating_sub(1)).rev() {
            falling[i] = falling[i + 1]
                .checked_mul((n - i - 1) as u64)
                .ok_or_else(too_big)?;
        }
        let len = match falling.first() {
            Some(&f) => f.checked_mul(n as u64).ok_or_else(too_big)?,
            None => 1,
        };
        Ok(KPermutations { n, k, falling, len })
    }

    /// Number of values.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Length of each sequence.
    pub fn k(&self) -> usize {
        self.k
    }
}

impl Ranker for KPermutations {
    fn len(&self) -> u64 {
        self.len
    }

    fn width(&self) -> usize {
        self.k
    }

    fn rank(&self, item: &[u8]) -> Result<u64, RankError> {
        check_width(item.len(), self.k)?;
        let mut used = 0u64;
        let mut rank = 0;
        for (i, &v) in item.iter().enumerate() {
            if usize::from(v) >= self.n || used >> v & 1 == 1 {
                return Err(RankError::NotMember(format!(
                    "{item:?} is not a sequence of distinct values of 0..{}",
                    self.n
                )));
            }
            let smaller_unused = u64::from(v) - u64::from((used & ((1u64 << v) - 1)).count_ones());
            rank += smaller_unused * self.falling[i];
            used |= 1 << v;
        }
        Ok(rank)
    }

    fn unrank_into(&self, r: u64, out: &mut [u8]) -> Result<(), RankError> {
        check_width(out.len(), self.k)?;
        check_rank(r, self.len)?;
        let mut r = r;
        let mut used = 0u64;
        for (i, slot) in out.iter_mut().enumerate() {
            let mut skip = r / self.falling[i];
            r %= self.falling[i];
            let mut v = 0;
            loop {
                if used >> v & 1 == 0 {
                    if skip == 0 {
                        break;
                    }
                    skip -= 1;
                }
                v += 1;
            }
            *slot = v as u8;
            used |= 1 << v;
        }
        Ok(())
    }

    fn advance(&self, item: &mut [u8]) -> bool {
        for i in (0..self.k).rev() {
            let used: u64 = item[..i].iter().fold(0, |m, &v| m | 1 << v);
            let Some(bigger) = (usize::from(item[i]) + 1..self.n).find(|&v| used >> v & 1 == 0)
            else {
                continue;
            };
            item[i] = bigger as u8;
            let mut used = used | 1 << bigger;
            let mut v = 0;
            for slot in item[i + 1..].iter_mut() {
                while used >> v & 1 == 1 {
                    v += 1;
                }
                *slot = v as u8;
                used |= 1 << v;
            }
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::check_exhaustively;
    use super::*;

    #[test]
    fn every_small_family_round_trips_in_lexicographic_order() {
        for n in 0..=7 {
            for k in 0..=n {
                let p = KPermutations::new(n, k).unwrap();
                check_exhaustively(&p, |a, b| a < b);
            }
        }
    }

    #[test]
    fn numeron_candidates_are_numbered_in_ascending_numeric_order() {
        let p = KPermutations::new(10, 3).unwrap();
        assert_eq!(p.len(), 720);
        assert_eq!(p.rank(&[0, 1, 2]).unwrap(), 0);
        assert_eq!(p.rank(&[9, 8, 7]).unwrap(), 719);
        assert_eq!(
            p.rank(&[7, 1, 9]).unwrap(),
            719 - p.rank(&[2, 8, 0]).unwrap()
        );
        check_exhaustively(&p, |a, b| a < b);
        assert_eq!(KPermutations::new(10, 4).unwrap().len(), 5040);
        assert_eq!(KPermutations::new(10, 10).unwrap().len(), 3_628_800);
    }

    #[test]
    fn repeated_or_out_of_range_values_are_refused() {
        let p = KPermutations::new(10, 3).unwrap();
        assert!(p.rank(&[1, 1, 2]).is_err());
        assert!(p.rank(&[1, 10, 2]).is_err());
        assert!(p.rank(&[1, 2]).is_err());
    }

    #[test]
    fn huge_families_are_an_error_not_a_wrap() {
        assert!(KPermutations::new(21, 21).is_err());
        assert!(KPermutations::new(20, 20).is_ok());
    }
}
