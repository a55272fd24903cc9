//! Exact odds: the chance that a hand reaches a target after a draw ([`reach`]), the
//! value of a fresh hand (`fresh`), the best discard (`discard`).
//!
//! Draws are counted by digit: drawing `m_d` cards of digit `d` from a pool holding `c_d`
//! of them can be done in `Π C(c_d, m_d)` ways, out of `C(pool, k)` equally likely draws.
//! The tests check every count here against a brute force over physical cards numbered by
//! the [`Combinations`] ranker.

use super::cards::{digits_value, COPIES, DIGITS};
mod discard;
pub(crate) use discard::discard_list;
mod fresh;

pub use discard::{
    discard_chance, discard_odds, discard_options, discard_ranking, DiscardOdds, DiscardOption,
    DiscardQuery, DiscardRanking,
};
pub use fresh::{
    fresh_distribution, fresh_distribution_by_formula, fresh_mean, fresh_odds, fresh_rows,
    FreshOdds, FreshRow, FreshValue, ValueCount,
};

use super::{Error, Result};
use crate::exact;
use crate::rank::{binomial, Combinations, Ranker};
use num_rational::Ratio;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// `C(n, k)` for the small arguments a pool needs (n ≤ 5, k ≤ 3).
pub(crate) const SMALL_BINOM: [[u64; 4]; 6] = [
    [1, 0, 0, 0],
    [1, 1, 0, 0],
    [1, 2, 1, 0],
    [1, 3, 3, 1],
    [1, 4, 6, 4],
    [1, 5, 10, 10],
];

/// The cards a player may still draw, counted by digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pool {
    counts: [u8; DIGITS],
}

impl Pool {
    /// The whole deck: five of each digit.
    pub fn full() -> Pool {
        Pool {
            counts: [COPIES; DIGITS],
        }
    }

    /// The deck without the cards in `mask` (bit `c` for card `c`).
    pub fn without_cards(mask: u64) -> Pool {
        let mut counts = [0u8; DIGITS];
        for (d, slot) in counts.iter_mut().enumerate() {
            let gone = (mask >> (d * COPIES as usize)) & 0x1f;
            *slot = COPIES - gone.count_ones() as u8;
        }
        Pool { counts }
    }

    /// The deck without the given digits (one card per entry), refusing more than five of
    /// a digit. `what` names the input in the error message.
    pub fn without_digits(digits: &[u8], what: &str) -> Result<Pool> {
        let mut pool = Pool::full();
        for &d in digits {
            if !pool.remove(d) {
                return Err(Error::TooManyCopies {
                    what: what.to_string(),
                    digit: d,
                    copies: COPIES,
                });
            }
        }
        Ok(pool)
    }

    /// Takes one card of digit `d` out; false (and no change) when none is left.
    #[inline]
    pub fn remove(&mut self, d: u8) -> bool {
        let slot = &mut self.counts[usize::from(d)];
        if *slot == 0 {
            false
        } else {
            *slot -= 1;
            true
        }
    }

    /// Cards of digit `d` left.
    #[inline]
    pub fn count(&self, d: u8) -> u8 {
        self.counts[usize::from(d)]
    }

    /// Cards left in all.
    pub fn size(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }
}

/// A count of favourable draws out of all equally likely draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chance {
    /// Favourable draws.
    pub favourable: u64,
    /// All draws.
    pub total: u64,
}

impl Chance {
    /// The chance as a reduced fraction (0/1 when there is no draw at all).
    pub fn ratio(&self) -> Ratio<u64> {
        if self.total == 0 {
            Ratio::new(0, 1)
        } else {
            Ratio::new(self.favourable, self.total)
        }
    }

    /// The chance as a float.
    pub fn float(&self) -> f64 {
        exact::float(&self.ratio())
    }
}

/// A chance is written as its counts, its float and its exact fraction:
/// `favourable`, `draws`, `p`, `p_exact`.
impl Serialize for Chance {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Chance", 4)?;
        st.serialize_field("draws", &self.total)?;
        st.serialize_field("favourable", &self.favourable)?;
        st.serialize_field("p", &self.float())?;
        st.serialize_field("p_exact", &exact::fraction(&self.ratio()))?;
        st.end()
    }
}

/// How a hand's value is judged against a target: at least, or exactly.
#[inline]
pub(crate) fn meets(value: u16, target: u16, exact: bool) -> bool {
    if exact {
        value == target
    } else {
        value >= target
    }
}

/// The chance that `kept` (0–3 digits) plus `3 - kept.len()` cards drawn from `pool`
/// make a hand worth at least `target` (exactly `target` when `exact`).
///
/// Draws are enumerated as digit multisets (at most 220), so this is cheap enough for a
/// strategy to call on every turn.
pub fn reach(kept: &[u8], pool: &Pool, target: u16, exact: bool) -> Chance {
    let k = 3 - kept.len().min(3);
    let total = binomial(u64::from(pool.size()), k as u64).unwrap_or(0);
    let c = &pool.counts;
    let mut favourable = 0u64;
    match k {
        0 => {
            if meets(digits_value(kept[0], kept[1], kept[2]), target, exact) {
                favourable = 1;
            }
        }
        1 => {
            for a in 0..DIGITS as u8 {
                let w = u64::from(c[usize::from(a)]);
                if w != 0 && meets(digits_value(kept[0], kept[1], a), target, exact) {
                    favourable += w;
                }
            }
        }
        2 => {
            for a in 0..DIGITS as u8 {
                for b in a..DIGITS as u8 {
                    let w = pair_weight(c, a, b);
                    if w != 0 && meets(digits_value(kept[0], a, b), target, exact) {
                        favourable += w;
                    }
                }
            }
        }
        _ => {
            for a in 0..DIGITS as u8 {
                for b in a..DIGITS as u8 {
                    for d in b..DIGITS as u8 {
                        let w = triple_weight(c, a, b, d);
                        if w != 0 && meets(digits_value(a, b, d), target, exact) {
                            favourable += w;
                        }
                    }
                }
            }
        }
    }
    Chance { favourable, total }
}

/// Ways to draw the digits `a ≤ b` from counts `c`.
#[inline]
fn pair_weight(c: &[u8; DIGITS], a: u8, b: u8) -> u64 {
    let (ca, cb) = (
        usize::from(c[usize::from(a)]),
        usize::from(c[usize::from(b)]),
    );
    if a == b {
        SMALL_BINOM[ca][2]
    } else {
        (ca * cb) as u64
    }
}

/// Ways to draw the digits `a ≤ b ≤ d` from counts `c`.
#[inline]
fn triple_weight(c: &[u8; DIGITS], a: u8, b: u8, d: u8) -> u64 {
    let n = |x: u8| usize::from(c[usize::from(x)]);
    match (a == b, b == d) {
        (true, true) => SMALL_BINOM[n(a)][3],
        (true, false) => SMALL_BINOM[n(a)][2] * n(d) as u64,
        (false, true) => n(a) as u64 * SMALL_BINOM[n(b)][2],
        (false, false) => (n(a) * n(b) * n(d)) as u64,
    }
}

/// The same chance as [`reach`], by brute force: every set of `k` physical cards of the
/// pool, numbered by the [`Combinations`] ranker. Slow; for cross-checks.
pub fn reach_by_cards(kept: &[u8], pool: &Pool, target: u16, exact: bool) -> Chance {
    let cards: Vec<u8> = (0..DIGITS as u8)
        .flat_map(|d| std::iter::repeat_n(d, usize::from(pool.count(d))))
        .collect();
    let k = 3 - kept.len();
    let ranker = Combinations::new(cards.len(), k).expect("a pool has at most 50 cards");
    let mut favourable = 0;
    let mut hand = [0u8; 3];
    hand[..kept.len()].copy_from_slice(kept);
    let mut pick = vec![0u8; k];
    for r in 0..ranker.len() {
        ranker.unrank_into(r, &mut pick).expect("r < len");
        for (slot, &i) in hand[kept.len()..].iter_mut().zip(&pick) {
            *slot = cards[usize::from(i)];
        }
        if meets(digits_value(hand[0], hand[1], hand[2]), target, exact) {
            favourable += 1;
        }
    }
    Chance {
        favourable,
        total: ranker.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_by_digits_matches_the_brute_force_over_cards() {
        let pools = [
            Pool::full(),
            Pool::without_digits(&[8, 7, 6, 9, 9, 0], "t").unwrap(),
            Pool::without_digits(&[9, 9, 9, 9, 9, 5, 5], "t").unwrap(),
        ];
        let kepts: [&[u8]; 4] = [&[], &[9], &[8, 7], &[9, 9, 1]];
        for pool in &pools {
            for kept in kepts {
                for &target in &[100u16, 554, 800, 900, 976, 990, 999, 1000] {
                    for exact in [false, true] {
                        assert_eq!(
                            reach(kept, pool, target, exact),
                            reach_by_cards(kept, pool, target, exact),
                            "kept {kept:?} target {target} exact {exact}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn keeping_nothing_from_a_full_deck_gives_the_fresh_distribution_tail() {
        let d = fresh_distribution();
        let at_least_900: u64 = d.iter().filter(|x| x.value >= 900).map(|x| x.hands).sum();
        let c = reach(&[], &Pool::full(), 900, false);
        assert_eq!(
            c,
            Chance {
                favourable: at_least_900,
                total: 19_600
            }
        );
    }
}
