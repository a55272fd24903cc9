//! Calls: the numbers a player may announce, and their dense numbering.
//!
//! A call is a three-digit number whose digits never increase from left to right (976,
//! 550, 100), or 1000. There are 220 of them, one per multiset of three digits (three
//! zeros being 1000). They are numbered densely by the [`Multisets`] ranker over the count
//! vector of their digits.

use super::cards::{digits_value, TOP};
use super::{Error, Result};
use crate::rank::{Multisets, Ranker};
use std::sync::OnceLock;

/// Number of distinct calls.
pub const NUMBER_OF_CALLS: usize = 220;

/// True when `n` is a call: 1000, or 100–999 with non-increasing digits.
pub fn is_call(n: u16) -> bool {
    if n == TOP {
        return true;
    }
    if !(100..=999).contains(&n) {
        return false;
    }
    let (a, b, c) = (n / 100, n / 10 % 10, n % 10);
    a >= b && b >= c
}

/// The digits of a call, highest first (1000 → three zeros).
pub fn call_digits(call: u16) -> [u8; 3] {
    if call >= TOP {
        [0, 0, 0]
    } else {
        [
            (call / 100) as u8,
            (call / 10 % 10) as u8,
            (call % 10) as u8,
        ]
    }
}

/// Parses a call, refusing anything that is not one.
pub fn parse_call(text: &str, what: &str) -> Result<u16> {
    let t = text.trim();
    match t.parse::<u16>() {
        Ok(n) if (t.len() == 3 || t == "1000") && is_call(n) => Ok(n),
        _ => Err(Error::NotACall {
            what: what.to_string(),
            text: text.to_string(),
        }),
    }
}

/// Every call, lowest first.
pub fn all_calls() -> &'static [u16; NUMBER_OF_CALLS] {
    &tables().ascending
}

/// The lowest call strictly above `previous` (any call at all when `None`), or `None`
/// above 1000.
#[inline]
pub fn lowest_call_above(previous: Option<u16>) -> Option<u16> {
    match previous {
        None => Some(tables().ascending[0]),
        Some(p) if p >= TOP => None,
        Some(p) => Some(tables().next_above[usize::from(p)]),
    }
}

/// The dense number `0..220` of a call (its digits' count vector ranked by
/// [`Multisets`]). The call must be valid.
#[inline]
pub fn call_index(call: u16) -> usize {
    usize::from(tables().index[usize::from(call.min(TOP))])
}

/// The call numbered `index` by [`call_index`].
pub fn call_of_index(index: usize) -> u16 {
    tables().by_index[index]
}

struct Tables {
    ascending: [u16; NUMBER_OF_CALLS],
    next_above: [u16; TOP as usize],
    index: [u8; TOP as usize + 1],
    by_index: [u16; NUMBER_OF_CALLS],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let ranker = Multisets::new(10, 3).expect("220 count vectors fit easily");
        assert_eq!(ranker.len(), NUMBER_OF_CALLS as u64);
        let mut by_index = [0u16; NUMBER_OF_CALLS];
        let mut index = [u8::MAX; TOP as usize + 1];
        for (r, counts) in ranker.iter().enumerate() {
            let mut d = Vec::with_capacity(3);
            for (digit, &m) in counts.iter().enumerate() {
                d.extend(std::iter::repeat_n(digit as u8, usize::from(m)));
            }
            let call = digits_value(d[0], d[1], d[2]);
            by_index[r] = call;
            index[usize::from(call)] = r as u8;
        }
        let mut ascending = by_index;
        ascending.sort_unstable();
        let mut next_above = [TOP; TOP as usize];
        for (p, slot) in next_above.iter_mut().enumerate() {
            *slot = *ascending
                .iter()
                .find(|&&c| usize::from(c) > p)
                .expect("1000 is above every p < 1000");
        }
        Tables {
            ascending,
            next_above,
            index,
            by_index,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_220_calls_and_they_are_exactly_the_non_increasing_numbers() {
        let by_filter: Vec<u16> = (0..=TOP).filter(|&n| is_call(n)).collect();
        assert_eq!(by_filter.len(), NUMBER_OF_CALLS);
        assert_eq!(by_filter.as_slice(), all_calls().as_slice());
        assert_eq!(all_calls()[0], 100);
        assert_eq!(all_calls()[1], 110);
        assert_eq!(all_calls()[NUMBER_OF_CALLS - 2], 999);
        assert_eq!(all_calls()[NUMBER_OF_CALLS - 1], 1000);
    }

    #[test]
    fn the_dense_numbering_is_a_bijection() {
        let mut seen = [false; NUMBER_OF_CALLS];
        for &c in all_calls() {
            let i = call_index(c);
            assert!(!seen[i]);
            seen[i] = true;
            assert_eq!(call_of_index(i), c);
        }
    }

    #[test]
    fn the_lowest_call_above_skips_numbers_that_are_not_calls() {
        assert_eq!(lowest_call_above(None), Some(100));
        assert_eq!(lowest_call_above(Some(100)), Some(110));
        assert_eq!(lowest_call_above(Some(199)), Some(200));
        assert_eq!(lowest_call_above(Some(654)), Some(655));
        assert_eq!(lowest_call_above(Some(655)), Some(660));
        assert_eq!(lowest_call_above(Some(999)), Some(1000));
        assert_eq!(lowest_call_above(Some(1000)), None);
    }

    #[test]
    fn calls_parse_and_non_calls_are_refused() {
        assert_eq!(parse_call("900", "t").unwrap(), 900);
        assert_eq!(parse_call("1000", "t").unwrap(), 1000);
        for bad in ["", "x", "678", "000", "99", "1001", "-1", "0100"] {
            assert!(parse_call(bad, "t").is_err(), "{bad}");
        }
    }
}
