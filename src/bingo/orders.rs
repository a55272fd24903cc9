//! Method 3 (`docs/bingo.md`): every call order of a tiny card, as the article checked
//! its 3×3 card.
//!
//! With `M = c` (the drum holds exactly the card's numbers), each of the `c!` call orders
//! is equally likely. They are numbered by [`KPermutations`] (lexicographic ranks), walked
//! in rank order, and for each the first call after which the card wins is recorded.

use super::card::{Card, Pattern};
use super::law::Law;
use super::{Error, Result};
use crate::rank::{KPermutations, Ranker};
use num_bigint::BigInt;
use num_rational::BigRational;

/// Largest card (numbered squares) whose orders are enumerated: 10! = 3,628,800.
pub const MAX_ORDERS: usize = 10;

/// The outcome of the exhaustive check.
#[derive(Debug, Clone)]
pub struct Orders {
    /// Number of call orders enumerated (`c!`).
    pub orders: u64,
    /// `counts[n]` = number of orders whose first win is on call `n`.
    pub counts: Vec<u64>,
}

impl Orders {
    /// The law these counts define: P(T ≤ n) = (orders won by call n) / c!.
    pub fn law(&self) -> Law {
        let mut running = 0u64;
        let cdf = self
            .counts
            .iter()
            .map(|&k| {
                running += k;
                BigRational::new(BigInt::from(running), BigInt::from(self.orders))
            })
            .collect();
        Law::from_exact(cdf)
    }
}

/// Enumerates all `c!` call orders of the card's numbers (a drum of exactly `c` numbers).
pub fn all_orders(card: &Card, pattern: Pattern) -> Result<Orders> {
    let c = card.numbered();
    if c > MAX_ORDERS {
        return Err(Error::TooManyOrders {
            size: card.size(),
            numbered: c,
            largest: MAX_ORDERS,
        });
    }
    let judge = card.judge(pattern);
    let ranker = KPermutations::new(c, c).map_err(Error::Orders)?;
    let mut counts = vec![0u64; c + 1];
    let mut order = ranker.unrank(0).map_err(Error::Orders)?;
    let mut seen = 0u64;
    loop {
        let mut mask = 0u64;
        let mut t = 0;
        while !judge.wins(mask) {
            mask |= 1 << order[t];
            t += 1;
        }
        counts[t] += 1;
        seen += 1;
        if !ranker.advance(&mut order) {
            break;
        }
    }
    debug_assert_eq!(seen, ranker.len());
    Ok(Orders {
        orders: seen,
        counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bingo::enumerate::winning_subsets;

    #[test]
    fn the_seed_s_forty_thousand_orders_give_the_exact_three_by_three_law() {
        let card = Card::new(3, true).unwrap();
        let orders = all_orders(&card, Pattern::Line).unwrap();
        assert_eq!(orders.orders, 40_320);
        // 1/7 of orders win on call 2 (the article's hand count): 5,760 of them.
        assert_eq!(orders.counts[2], 5_760);
        let exact = Law::from_counts(&card, 8, &winning_subsets(&card, Pattern::Line).unwrap());
        assert_eq!(orders.law(), exact);
    }

    #[test]
    fn every_pattern_agrees_on_the_free_three_by_three_card() {
        for free in [true, false] {
            let card = Card::new(3, free).unwrap();
            let m = card.numbered() as u64;
            for p in Pattern::ALL {
                let exact = Law::from_counts(&card, m, &winning_subsets(&card, p).unwrap());
                assert_eq!(
                    all_orders(&card, p).unwrap().law(),
                    exact,
                    "{p} free={free}"
                );
            }
        }
    }

    #[test]
    fn a_four_by_four_card_is_too_big_to_order() {
        let card = Card::new(4, false).unwrap();
        assert!(all_orders(&card, Pattern::Line).is_err());
    }
}
