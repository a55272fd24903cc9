//! k-subsets of `0..n` in colex order: the combinatorial number system.
//!
//! A subset `c_0 < c_1 < … < c_{k-1}` has rank `Σ C(c_i, i + 1)`. Colex order is the
//! numeric order of the subsets' bit masks, so [`Combinations::next_mask`] (Gosper's
//! step) walks masks in rank order too.

use super::{check_rank, check_width, RankError, Ranker};

/// The binomial coefficient `C(n, k)`, or `None` when it does not fit a `u64`.
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c = C(n, i) here; C(n, i+1) = C(n, i) · (n - i) / (i + 1), exact.
        c = c.checked_mul(u128::from(n - i))? / u128::from(i + 1);
        if c > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(c).ok()
}

/// The family of `k`-subsets of `0..n` (n ≤ 64 so that masks fit a `u64`).
#[derive(Debug, Clone)]
pub struct Combinations {
    n: usize,
    k: usize,
    len: u64,
    /// `binom[m][j]` = C(m, j) for m in 0..=n, j in 0..=k.
    binom: Vec<Vec<u64>>,
}

impl Combinations {
    /// Builds the ranker for k-subsets of `0..n`; `n` at most 64, `k ≤ n`.
    pub fn new(n: usize, k: usize) -> Result<Self, RankError> {
        if n > 64 || k > n {
            return Err(RankError::Overflow(format!(
                "{k}-subsets of {n} (need k ≤ n ≤ 64)"
            )));
        }
        let too_big = || RankError::Overflow(format!("C({n}, {k})"));
        let mut binom = Vec::with_capacity(n + 1);
        for m in 0..=n {
            let row = (0..=k)
                .map(|j| binomial(m as u64, j as u64).ok_or_else(too_big))
                .collect::<Result<Vec<_>, _>>()?;
            binom.push(row);
        }
        let len = binom[n][k];
        Ok(Combinations { n, k, len, binom })
    }

    /// Size of the ground set.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Size of each subset.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Rank of the subset whose members are the set bits of `mask`.
    pub fn rank_mask(&self, mask: u64) -> Result<u64, RankError> {
        if mask.count_ones() as usize != self.k || (self.n < 64 && mask >> self.n != 0) {
            return Err(RankError::NotMember(format!(
                "mask {mask:#x} is not a {}-subset of 0..{}",
                self.k, self.n
            )));
        }
        let mut rank = 0;
        let mut m = mask;
        let mut i = 0;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            i += 1;
            rank += self.binom[c][i];
            m &= m - 1;
        }
        Ok(rank)
    }

    /// The mask of the subset of rank `r`.
    pub fn unrank_mask(&self, r: u64) -> Result<u64, RankError> {
        check_rank(r, self.len)?;
        let mut r = r;
        let mut mask = 0u64;
        let mut c = self.n;
        for i in (1..=self.k).rev() {
            // Largest c with C(c, i) ≤ r.
            c -= 1;
            while self.binom[c][i] > r {
                c -= 1;
            }
            r -= self.binom[c][i];
            mask |= 1 << c;
        }
        Ok(mask)
    }

    /// Stars and bars: the rank of the `k` bars placed, from the bottom cell up, after
    /// `counts[k-1]` stars, then `counts[k-2]`, …, then `counts[0]` (one count a bar; the
    /// stars left over fill the cells above the last bar).
    pub fn rank_stars(&self, counts: &[u8]) -> Result<u64, RankError> {
        let stars: usize = counts.iter().map(|&c| usize::from(c)).sum();
        if counts.len() != self.k || stars + self.k > self.n {
            return Err(RankError::NotMember(format!(
                "{} counts of {stars} stars do not place {} bars in {} cells",
                counts.len(),
                self.k,
                self.n
            )));
        }
        let mut mask = 0u64;
        let mut cell = 0;
        for &count in counts.iter().rev() {
            cell += usize::from(count);
            mask |= 1 << cell;
            cell += 1;
        }
        self.rank_mask(mask)
    }

    /// Writes into `counts` (`k` of them) the stars before each bar of rank `r`, in
    /// [`Combinations::rank_stars`]' order.
    pub fn unrank_stars(&self, r: u64, counts: &mut [u8]) -> Result<(), RankError> {
        if counts.len() != self.k {
            return Err(RankError::NotMember(format!(
                "room for {} counts, expected {}",
                counts.len(),
                self.k
            )));
        }
        let mut mask = self.unrank_mask(r)?;
        for slot in counts.iter_mut().rev() {
            let gap = mask.trailing_zeros();
            *slot = gap as u8;
            mask >>= gap + 1;
        }
        Ok(())
    }

    /// The mask of rank 0, `{0, …, k-1}`.
    pub fn first_mask(&self) -> u64 {
        low_bits(self.k)
    }

    /// The next mask in rank order (Gosper's step), or `None` after the last.
    pub fn next_mask(&self, mask: u64) -> Option<u64> {
        if mask == 0 {
            return None;
        }
        let lowest = mask & mask.wrapping_neg();
        let (ripple, carried) = mask.overflowing_add(lowest);
        if carried {
            return None;
        }
        let ones = ((mask ^ ripple) >> 2) >> lowest.trailing_zeros();
        let next = ripple | ones;
        (self.n == 64 || next >> self.n == 0).then_some(next)
    }
}

fn low_bits(k: usize) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

fn mask_of(item: &[u8], n: usize) -> Result<u64, RankError> {
    let mut mask = 0u64;
    let mut previous: Option<u8> = None;
    for &c in item {
        if usize::from(c) >= n || previous.is_some_and(|p| p >= c) {
            return Err(RankError::NotMember(format!(
                "{item:?} is not an ascending subset of 0..{n}"
            )));
        }
        mask |= 1 << c;
        previous = Some(c);
    }
    Ok(mask)
}

impl Ranker for Combinations {
    fn len(&self) -> u64 {
        self.len
    }

    fn width(&self) -> usize {
        self.k
    }

    fn rank(&self, item: &[u8]) -> Result<u64, RankError> {
        check_width(item.len(), self.k)?;
        self.rank_mask(mask_of(item, self.n)?)
    }

    fn unrank_into(&self, r: u64, out: &mut [u8]) -> Result<(), RankError> {
        check_width(out.len(), self.k)?;
        let mut mask = self.unrank_mask(r)?;
        for slot in out.iter_mut() {
            *slot = mask.trailing_zeros() as u8;
            mask &= mask - 1;
        }
        Ok(())
    }

    fn advance(&self, item: &mut [u8]) -> bool {
        let k = self.k;
        for i in 0..k {
            let limit = if i + 1 < k { item[i + 1] } else { self.n as u8 };
            if item[i] + 1 < limit {
                item[i] += 1;
                for (j, slot) in item.iter_mut().enumerate().take(i) {
                    *slot = j as u8;
                }
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::check_exhaustively;
    use super::*;

    fn colex_less(a: &[u8], b: &[u8]) -> bool {
        a.iter().rev().lt(b.iter().rev())
    }

    #[test]
    fn binomials_match_pascals_triangle() {
        let mut row = vec![1u64];
        for n in 0..=66u64 {
            for (k, &c) in row.iter().enumerate() {
                assert_eq!(binomial(n, k as u64), Some(c), "C({n},{k})");
            }
            let mut next = vec![1u64; row.len() + 1];
            for k in 1..row.len() {
                next[k] = row[k - 1] + row[k];
            }
            row = next;
        }
        assert_eq!(binomial(5, 7), Some(0));
    }

    #[test]
    fn binomials_too_large_for_u64_are_refused() {
        assert_eq!(binomial(67, 33), Some(14_226_520_737_620_288_370));
        assert_eq!(binomial(68, 34), None);
        assert_eq!(binomial(100, 50), None);
        assert!(Combinations::new(65, 3).is_err());
    }

    #[test]
    fn every_small_family_round_trips_in_colex_order() {
        for n in 0..=9 {
            for k in 0..=n {
                let c = Combinations::new(n, k).unwrap();
                check_exhaustively(&c, colex_less);
            }
        }
    }

    #[test]
    fn gosper_walks_masks_in_rank_order() {
        for (n, k) in [(10, 4), (12, 6), (24, 3), (64, 2), (64, 63)] {
            let c = Combinations::new(n, k).unwrap();
            let mut mask = c.first_mask();
            let mut r = 0;
            loop {
                assert_eq!(c.rank_mask(mask).unwrap(), r);
                assert_eq!(c.unrank_mask(r).unwrap(), mask);
                r += 1;
                match c.next_mask(mask) {
                    Some(m) => mask = m,
                    None => break,
                }
            }
            assert_eq!(r, c.len());
        }
    }

    #[test]
    fn non_members_are_refused() {
        let c = Combinations::new(5, 2).unwrap();
        assert!(c.rank(&[3, 1]).is_err());
        assert!(c.rank(&[1, 5]).is_err());
        assert!(c.rank(&[2, 2]).is_err());
        assert!(c.rank_mask(0b111).is_err());
        assert!(c.rank_mask(1 << 6 | 1).is_err());
    }

    #[test]
    fn stars_and_bars_number_every_placement_of_three_stars_before_three_bars_once() {
        // Three bars and up to three stars before them: C(6, 3) = 20 placements.
        let c = Combinations::new(6, 3).unwrap();
        let mut seen = Vec::new();
        for a in 0..=3u8 {
            for b in 0..=3 - a {
                for d in 0..=3 - a - b {
                    let counts = [a, b, d];
                    let r = c.rank_stars(&counts).unwrap();
                    let mut back = [0u8; 3];
                    c.unrank_stars(r, &mut back).unwrap();
                    assert_eq!(back, counts);
                    seen.push(r);
                }
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..20).collect::<Vec<u64>>());
        // No stars: the bars fill the bottom cells, rank 0; all three before the first
        // bar (the last count): the top cells, the last rank.
        assert_eq!(c.rank_stars(&[0, 0, 0]).unwrap(), 0);
        assert_eq!(c.rank_stars(&[0, 0, 3]).unwrap(), 19);
        assert!(c.rank_stars(&[2, 2, 0]).is_err());
        assert!(c.rank_stars(&[0, 0]).is_err());
        assert!(c.unrank_stars(0, &mut [0u8; 2]).is_err());
        assert!(c.unrank_stars(20, &mut [0u8; 3]).is_err());
    }
}
