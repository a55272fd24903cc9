//! Count vectors: `n` identical items on `p` places, numbered in the article's `next_PN` order.
//!
//! The order treats the vector as a number whose most significant digit is the *last*
//! place: `{n,0,…,0}` is #0 and `{0,…,0,n}` is the last. The article's recursion
//! `seqNumber(v, ix, n) = seqNumber(v, ix-1, n - v[ix]) + Σ_{i < v[ix]} PNC(ix, n - i)`
//! is the rank; [`Multisets::advance`] is `next_PN`.

use super::{check_rank, check_width, RankError, Ranker};

/// Ways to put `n` identical items on `p` places, `C(p + n - 1, n)` (the article's `PNC`).
/// `None` on overflow of `u64` or for `p == 0` with `n > 0` (no way at all gives 0, which
/// is returned as `Some(0)`).
pub fn pnc(p: u32, n: u32) -> Option<u64> {
    if p == 0 {
        return Some(u64::from(n == 0));
    }
    super::binomial(u64::from(p) + u64::from(n) - 1, u64::from(n))
}

/// The family of count vectors of `places` places holding `items` items in all.
#[derive(Debug, Clone)]
pub struct Multisets {
    places: usize,
    items: u32,
    len: u64,
    /// `pnc[ix][m]` = PNC(ix, m) for ix in 0..=places, m in 0..=items.
    pnc: Vec<Vec<u64>>,
    /// `skip[(ix·(items+1) + m)·(items+1) + c]` = Σ_{i<c} PNC(ix, m - i): the vectors that
    /// come before those with `c` items on place `ix` when `m` items are left for places
    /// `0..=ix`.
    skip: Vec<u64>,
}

impl Multisets {
    /// Builds the ranker; refuses zero places, more than 255 items (they must fit a `u8`
    /// count) and families too large for `u64`.
    pub fn new(places: usize, items: u32) -> Result<Self, RankError> {
        if places == 0 {
            return Err(RankError::Overflow(
                "a count vector needs at least one place".into(),
            ));
        }
        if items > 255 {
            return Err(RankError::Overflow(format!(
                "{items} items do not fit a u8 count"
            )));
        }
        let too_big = || RankError::Overflow(format!("{items} items on {places} places"));
        // The size first: the tables below grow with the places.
        if places > u32::MAX as usize || pnc(places as u32, items).is_none() {
            return Err(too_big());
        }
        let mut table = Vec::with_capacity(places + 1);
        for ix in 0..=places {
            let row = (0..=items)
                .map(|m| pnc(ix as u32, m).ok_or_else(too_big))
                .collect::<Result<Vec<_>, _>>()?;
            table.push(row);
        }
        let len = table[places][items as usize];
        let width = items as usize + 1;
        let mut skip = vec![0u64; (places + 1) * width * width];
        for (ix, row) in table.iter().enumerate() {
            for m in 0..width {
                let base = (ix * width + m) * width;
                for c in 1..=m {
                    skip[base + c] = skip[base + c - 1] + row[m - (c - 1)];
                }
            }
        }
        Ok(Multisets {
            places,
            items,
            len,
            pnc: table,
            skip,
        })
    }

    /// Number of places.
    pub fn places(&self) -> usize {
        self.places
    }

    /// Number of items in every vector.
    pub fn items(&self) -> u32 {
        self.items
    }

    /// PNC(p, n) from the precomputed table (p ≤ places, n ≤ items).
    pub fn pnc(&self, p: usize, n: u32) -> u64 {
        self.pnc[p][n as usize]
    }

    /// The article's `seqNumber(v, ix, n)`: the rank of the prefix `v[0..=ix]` holding `n`
    /// items, among vectors of `ix + 1` places. Unchecked beyond debug assertions: for hot
    /// loops over vectors known to be valid.
    pub fn seq_number(&self, v: &[u8], ix: usize, n: u32) -> u64 {
        let width = self.items as usize + 1;
        let mut sum = 0;
        let mut n = n as usize;
        let mut ix = ix;
        while n != 0 && ix != 0 {
            let here = usize::from(v[ix]);
            debug_assert!(here <= n);
            sum += self.skip[(ix * width + n) * width + here];
            n -= here;
            ix -= 1;
        }
        sum
    }
}

impl Ranker for Multisets {
    fn len(&self) -> u64 {
        self.len
    }

    fn width(&self) -> usize {
        self.places
    }

    fn rank(&self, item: &[u8]) -> Result<u64, RankError> {
        check_width(item.len(), self.places)?;
        let total: u32 = item.iter().map(|&c| u32::from(c)).sum();
        if total != self.items {
            return Err(RankError::NotMember(format!(
                "the counts add up to {total}, expected {}",
                self.items
            )));
        }
        Ok(self.seq_number(item, self.places - 1, self.items))
    }

    fn unrank_into(&self, r: u64, out: &mut [u8]) -> Result<(), RankError> {
        check_width(out.len(), self.places)?;
        check_rank(r, self.len)?;
        let mut r = r;
        let mut n = self.items;
        for ix in (1..self.places).rev() {
            // Choose the count on place ix: the largest c with Σ_{i<c} PNC(ix, n-i) ≤ r.
            let mut c = 0;
            while c < n {
                let block = self.pnc[ix][(n - c) as usize];
                if r < block {
                    break;
                }
                r -= block;
                c += 1;
            }
            out[ix] = c as u8;
            n -= c;
        }
        out[0] = n as u8;
        Ok(())
    }

    fn advance(&self, v: &mut [u8]) -> bool {
        // The article's next_PN, bounds-safe.
        if self.places == 1 {
            return false;
        }
        if v[0] > 0 {
            v[0] -= 1;
            v[1] += 1;
            return true;
        }
        let Some(i) = (1..self.places - 1).find(|&i| v[i] != 0) else {
            return false;
        };
        v[i + 1] += 1;
        v[0] = v[i] - 1;
        v[i] = 0;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::check_exhaustively;
    use super::*;

    /// Seed order: compare as numbers whose most significant digit is the last place.
    fn seed_less(a: &[u8], b: &[u8]) -> bool {
        a.iter().rev().lt(b.iter().rev())
    }

    #[test]
    fn a_family_too_large_to_number_is_refused_before_its_tables_are_built() {
        assert!(Multisets::new(1_212_121_212, 5).is_err());
        assert!(Multisets::new(10, 5).is_ok());
    }

    #[test]
    fn pnc_reproduces_the_articles_table() {
        // The article's table, p = 1..=10 by rows, n = 0..=5 by columns.
        let article: [[u64; 6]; 10] = [
            [1, 1, 1, 1, 1, 1],
            [1, 2, 3, 4, 5, 6],
            [1, 3, 6, 10, 15, 21],
            [1, 4, 10, 20, 35, 56],
            [1, 5, 15, 35, 70, 126],
            [1, 6, 21, 56, 126, 252],
            [1, 7, 28, 84, 210, 462],
            [1, 8, 36, 120, 330, 792],
            [1, 9, 45, 165, 495, 1287],
            [1, 10, 55, 220, 715, 2002],
        ];
        for (p, row) in article.iter().enumerate() {
            for (n, &want) in row.iter().enumerate() {
                assert_eq!(
                    pnc(p as u32 + 1, n as u32),
                    Some(want),
                    "PNC({}, {n})",
                    p + 1
                );
            }
        }
    }

    #[test]
    fn pnc_agrees_with_the_articles_recursion() {
        fn article_pnc(p: u32, n: u32) -> u64 {
            if p == 1 || n == 0 {
                1
            } else {
                article_pnc(p - 1, n) + article_pnc(p, n - 1)
            }
        }
        for p in 1..=12 {
            for n in 0..=8 {
                assert_eq!(pnc(p, n), Some(article_pnc(p, n)));
            }
        }
    }

    #[test]
    fn four_places_two_items_are_listed_exactly_as_in_the_article() {
        let listing: Vec<Vec<u8>> = Multisets::new(4, 2).unwrap().iter().collect();
        let seed: Vec<Vec<u8>> = vec![
            vec![2, 0, 0, 0],
            vec![1, 1, 0, 0],
            vec![0, 2, 0, 0],
            vec![1, 0, 1, 0],
            vec![0, 1, 1, 0],
            vec![0, 0, 2, 0],
            vec![1, 0, 0, 1],
            vec![0, 1, 0, 1],
            vec![0, 0, 1, 1],
            vec![0, 0, 0, 2],
        ];
        assert_eq!(listing, seed);
    }

    #[test]
    fn every_small_family_round_trips_in_the_articles_order() {
        for places in 1..=7 {
            for items in 0..=6 {
                let m = Multisets::new(places, items).unwrap();
                assert_eq!(Some(m.len()), pnc(places as u32, items));
                check_exhaustively(&m, seed_less);
            }
        }
    }

    #[test]
    fn ten_places_five_items_has_the_seeds_2002_vectors() {
        let m = Multisets::new(10, 5).unwrap();
        assert_eq!(m.len(), 2002);
        check_exhaustively(&m, seed_less);
    }

    #[test]
    fn seq_number_agrees_with_the_seeds_recursion_on_every_prefix() {
        fn seed_seq(v: &[u8], ix: usize, n: u32) -> u64 {
            if n == 0 || ix == 0 {
                return 0;
            }
            let below: u64 = (0..u32::from(v[ix]))
                .map(|i| pnc(ix as u32, n - i).unwrap())
                .sum();
            seed_seq(v, ix - 1, n - u32::from(v[ix])) + below
        }
        let m = Multisets::new(10, 5).unwrap();
        for v in m.iter() {
            let mut n: u32 = v.iter().map(|&c| u32::from(c)).sum();
            for ix in (0..10).rev() {
                assert_eq!(m.seq_number(&v, ix, n), seed_seq(&v, ix, n), "{v:?} {ix}");
                n -= u32::from(v[ix]);
            }
        }
    }

    #[test]
    fn wrong_totals_and_lengths_are_refused() {
        let m = Multisets::new(4, 2).unwrap();
        assert!(matches!(
            m.rank(&[1, 0, 0, 0]),
            Err(RankError::NotMember(_))
        ));
        assert!(matches!(
            m.rank(&[2, 0, 0]),
            Err(RankError::WrongLength { .. })
        ));
        assert!(Multisets::new(100, 200).is_err());
    }
}
