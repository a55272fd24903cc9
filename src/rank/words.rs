//! Fixed-length words over an alphabet `0..a`, in lexicographic order (base-`a` numbers,
//! first letter most significant).

use super::{check_rank, check_width, RankError, Ranker};

/// The family of words of `len` letters over the alphabet `0..alphabet`.
#[derive(Debug, Clone)]
pub struct Words {
    alphabet: u64,
    length: usize,
    len: u64,
}

impl Words {
    /// Builds the ranker; the alphabet has 1..=256 letters and `alphabet^length` must fit.
    pub fn new(alphabet: usize, length: usize) -> Result<Self, RankError> {
        if alphabet == 0 || alphabet > 256 {
            return Err(RankError::Overflow(format!(
                "an alphabet of {alphabet} letters (need 1..=256)"
            )));
        }
        let len = (alphabet as u64)
            .checked_pow(length as u32)
            .filter(|_| length <= u32::MAX as usize)
            .ok_or_else(|| RankError::Overflow(format!("{alphabet}^{length}")))?;
        Ok(Words {
            alphabet: alphabet as u64,
            length,
            len,
        })
    }

    /// Number of letters.
    pub fn alphabet(&self) -> usize {
        self.alphabet as usize
    }
}

impl Ranker for Words {
    fn len(&self) -> u64 {
        self.len
    }

    fn width(&self) -> usize {
        self.length
    }

    fn rank(&self, item: &[u8]) -> Result<u64, RankError> {
        check_width(item.len(), self.length)?;
        item.iter().try_fold(0u64, |r, &c| {
            if u64::from(c) >= self.alphabet {
                Err(RankError::NotMember(format!(
                    "letter {c} is outside the alphabet 0..{}",
                    self.alphabet
                )))
            } else {
                Ok(r * self.alphabet + u64::from(c))
            }
        })
    }

    fn unrank_into(&self, r: u64, out: &mut [u8]) -> Result<(), RankError> {
        check_width(out.len(), self.length)?;
        check_rank(r, self.len)?;
        let mut r = r;
        for slot in out.iter_mut().rev() {
            *slot = (r % self.alphabet) as u8;
            r /= self.alphabet;
        }
        Ok(())
    }

    fn advance(&self, item: &mut [u8]) -> bool {
        for slot in item.iter_mut().rev() {
            if u64::from(*slot) + 1 < self.alphabet {
                *slot += 1;
                return true;
            }
            *slot = 0;
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
        for a in 1..=5 {
            for length in 0..=5 {
                let w = Words::new(a, length).unwrap();
                assert_eq!(w.len(), (a as u64).pow(length as u32));
                check_exhaustively(&w, |x, y| x < y);
            }
        }
    }

    #[test]
    fn poker_hands_number_3125() {
        let w = Words::new(5, 5).unwrap();
        assert_eq!(w.len(), 3125);
        assert_eq!(w.rank(&[0, 1, 2, 3, 4]).unwrap(), 194);
        assert_eq!(w.unrank(3124).unwrap(), vec![4; 5]);
    }

    #[test]
    fn overflow_and_foreign_letters_are_refused() {
        assert!(Words::new(256, 8).is_err());
        assert!(Words::new(2, 64).is_err());
        assert!(Words::new(2, 63).is_ok());
        assert!(Words::new(5, 2).unwrap().rank(&[5, 0]).is_err());
    }
}
