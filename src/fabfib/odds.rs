//! Exact odds: the value of a fresh hand, and the chance that a hand reaches a target
//! after a discard.
//!
//! Draws are counted by digit: drawing `m_d` cards of digit `d` from a pool holding `c_d`
//! of them can be done in `Π C(c_d, m_d)` ways, out of `C(pool, k)` equally likely draws.
//! The tests check every count here against a brute force over physical cards numbered by
//! the [`Combinations`] ranker.

use super::calls::call_digits;
use super::cards::{digit, digits_value, Card, COPIES, DECK_SIZE, DIGITS};
use crate::rank::{binomial, Combinations, Ranker};
use crate::{Error, Result};
use num_rational::Ratio;

/// `C(n, k)` for the small arguments a pool needs (n ≤ 5, k ≤ 3).
const SMALL_BINOM: [[u64; 4]; 6] = [
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
                return Err(Error::input(format!(
                    "{what} use more than {COPIES} cards of digit {d}: the deck has only {COPIES}"
                )));
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
        if self.total == 0 {
            0.0
        } else {
            self.favourable as f64 / self.total as f64
        }
    }
}

/// Writes a fraction as `"num/den"` (the CLI's exact form).
pub fn fraction(r: &Ratio<u64>) -> String {
    format!("{}/{}", r.numer(), r.denom())
}

/// How a hand's value is judged against a target: at least, or exactly.
#[inline]
fn meets(value: u16, target: u16, exact: bool) -> bool {
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

/// One line of the fresh-hand distribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueCount {
    /// A hand value (a call).
    pub value: u16,
    /// Hands of three cards (out of C(50, 3) = 19,600) worth it.
    pub hands: u64,
}

/// The distribution of a fresh hand's value, lowest value first: every one of the
/// C(50, 3) hands, visited in rank order with the [`Combinations`] ranker's masks.
pub fn fresh_distribution() -> Vec<ValueCount> {
    let ranker = Combinations::new(DECK_SIZE, 3).expect("C(50,3) fits");
    let mut by_value = vec![0u64; 1001];
    let mut mask = ranker.first_mask();
    loop {
        let mut m = mask;
        let mut cards = [0 as Card; 3];
        for slot in &mut cards {
            *slot = m.trailing_zeros() as Card;
            m &= m - 1;
        }
        let v = digits_value(digit(cards[0]), digit(cards[1]), digit(cards[2]));
        by_value[usize::from(v)] += 1;
        match ranker.next_mask(mask) {
            Some(next) => mask = next,
            None => break,
        }
    }
    collect(&by_value)
}

/// The same distribution by a counting formula: for each digit multiset with
/// multiplicities `m_d`, `Π C(5, m_d)` hands. For cross-checks.
pub fn fresh_distribution_by_formula() -> Vec<ValueCount> {
    let mut by_value = vec![0u64; 1001];
    for a in 0..DIGITS as u8 {
        for b in a..DIGITS as u8 {
            for d in b..DIGITS as u8 {
                let mut m = [0usize; DIGITS];
                for x in [a, b, d] {
                    m[usize::from(x)] += 1;
                }
                let ways: u64 = m.iter().map(|&k| SMALL_BINOM[5][k.min(3)]).product();
                by_value[usize::from(digits_value(a, b, d))] += ways;
            }
        }
    }
    collect(&by_value)
}

fn collect(by_value: &[u64]) -> Vec<ValueCount> {
    by_value
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(v, &hands)| ValueCount {
            value: v as u16,
            hands,
        })
        .collect()
}

/// One line of the fresh-hand table: a value, the hands worth it and the hands worth at
/// least it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FreshRow {
    /// A hand value.
    pub value: u16,
    /// Hands worth exactly `value`.
    pub hands: u64,
    /// Hands worth `value` or more.
    pub at_least: u64,
}

/// The fresh-hand distribution with its upper tail, lowest value first.
pub fn fresh_rows() -> Vec<FreshRow> {
    let d = fresh_distribution();
    let mut at_least = d.iter().map(|x| x.hands).sum::<u64>();
    d.iter()
        .map(|x| {
            let row = FreshRow {
                value: x.value,
                hands: x.hands,
                at_least,
            };
            at_least -= x.hands;
            row
        })
        .collect()
}

/// The exact mean value of a fresh hand.
pub fn fresh_mean() -> Ratio<u64> {
    let d = fresh_distribution();
    let total: u64 = d.iter().map(|x| x.hands).sum();
    let sum: u64 = d.iter().map(|x| u64::from(x.value) * x.hands).sum();
    Ratio::new(sum, total)
}

/// One way to discard from a hand, with its chance of reaching the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscardOption {
    /// The digits thrown away, highest first.
    pub discard: Vec<u8>,
    /// The digits kept, highest first.
    pub kept: Vec<u8>,
    /// The chance of reaching the target after drawing as many cards as discarded.
    pub chance: Chance,
}

/// The chance of reaching `target` from `hand` after discarding `discard` (a sub-multiset
/// of the hand) and drawing from the deck without the hand and the `seen` cards.
pub fn discard_chance(
    hand: &[u8; 3],
    discard: &[u8],
    seen: &[u8],
    target: u16,
    exact: bool,
    zero_discard: bool,
) -> Result<DiscardOption> {
    let pool = pool_for(hand, seen)?;
    if discard.is_empty() && !zero_discard {
        return Err(Error::input(
            "a player who accepts must discard 1 to 3 cards (allow none with --zero-discard)",
        ));
    }
    let mut kept = hand.to_vec();
    for &d in discard {
        match kept.iter().position(|&x| x == d) {
            Some(i) => {
                kept.remove(i);
            }
            None => {
                return Err(Error::input(format!(
                    "cannot discard {}: the hand {} does not hold those cards",
                    discard_list(discard),
                    super::cards::format_digits(hand)
                )))
            }
        }
    }
    Ok(option(kept, discard.to_vec(), &pool, target, exact))
}

/// Every distinct discard from `hand` (1–3 cards, or 0–3 with `zero_discard`), best
/// chance first; among equal chances, fewer cards discarded first, then higher kept cards.
pub fn discard_options(
    hand: &[u8; 3],
    seen: &[u8],
    target: u16,
    exact: bool,
    zero_discard: bool,
) -> Result<Vec<DiscardOption>> {
    let pool = pool_for(hand, seen)?;
    let mut sorted = *hand;
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut options: Vec<DiscardOption> = Vec::new();
    for subset in 0u8..8 {
        if subset == 0 && !zero_discard {
            continue;
        }
        let (mut kept, mut discard) = (Vec::new(), Vec::new());
        for (i, &d) in sorted.iter().enumerate() {
            if subset >> i & 1 == 1 {
                discard.push(d);
            } else {
                kept.push(d);
            }
        }
        if options.iter().any(|o| o.discard == discard) {
            continue;
        }
        options.push(option(kept, discard, &pool, target, exact));
    }
    options.sort_by(|x, y| {
        let (a, b) = (x.chance, y.chance);
        // Compare favourable/total exactly by cross-multiplying (totals ≤ 19,600).
        (u128::from(b.favourable) * u128::from(a.total))
            .cmp(&(u128::from(a.favourable) * u128::from(b.total)))
            .then(x.discard.len().cmp(&y.discard.len()))
            .then(y.kept.cmp(&x.kept))
    });
    Ok(options)
}

/// The target every chance is computed for, from the call it must beat: the lowest call
/// above it. Used by strategies that discard to beat the current call.
pub fn beat(call: u16) -> Option<u16> {
    super::calls::lowest_call_above(Some(call))
}

fn option(kept: Vec<u8>, discard: Vec<u8>, pool: &Pool, target: u16, exact: bool) -> DiscardOption {
    let chance = reach(&kept, pool, target, exact);
    DiscardOption {
        discard,
        kept,
        chance,
    }
}

fn pool_for(hand: &[u8; 3], seen: &[u8]) -> Result<Pool> {
    let mut all = hand.to_vec();
    all.extend_from_slice(seen);
    Pool::without_digits(&all, "the hand and the seen cards together")
}

fn discard_list(d: &[u8]) -> String {
    d.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// The digits of `call` kept when `replaced` cards are drawn anew: its highest
/// `3 - replaced` digits (a player keeps its best cards).
pub fn kept_digits_of_call(call: u16, replaced: usize) -> Vec<u8> {
    call_digits(call)[..3 - replaced.min(3)].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fresh_distribution_by_ranker_and_by_formula_agree() {
        let a = fresh_distribution();
        let b = fresh_distribution_by_formula();
        assert_eq!(a, b);
        assert_eq!(a.len(), 220);
        assert_eq!(a.iter().map(|x| x.hands).sum::<u64>(), 19_600);
    }

    #[test]
    fn three_zeros_three_nines_and_a_run_have_the_expected_hand_counts() {
        let d = fresh_distribution();
        let hands = |v: u16| d.iter().find(|x| x.value == v).unwrap().hands;
        assert_eq!(hands(1000), 10); // C(5,3)
        assert_eq!(hands(999), 10);
        assert_eq!(hands(990), 50); // C(5,2)·5
        assert_eq!(hands(987), 125); // 5·5·5
    }

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

    #[test]
    fn throwing_away_876_to_reach_900_needs_a_nine() {
        // 47 cards left, 5 nines: draws with a nine are C(47,3) - C(42,3) = 16215 - 11480;
        // three zeros (worth 1000) add C(5,3) = 10.
        let o = discard_chance(&[8, 7, 6], &[8, 7, 6], &[], 900, false, false).unwrap();
        assert_eq!(o.chance.total, 16_215);
        assert_eq!(o.chance.favourable, 16_215 - 11_480 + 10);
        assert_eq!(fraction(&o.chance.ratio()), "949/3243");
    }

    #[test]
    fn the_best_discard_is_ranked_first() {
        let options = discard_options(&[8, 7, 6], &[], 900, false, false).unwrap();
        assert_eq!(options.len(), 7);
        for w in options.windows(2) {
            assert!(w[0].chance.float() >= w[1].chance.float());
        }
        // Keeping 8 and 7 reaches 900 only with a nine: 5 of the 47 cards.
        let keep87 = options.iter().find(|o| o.kept == vec![8, 7]).unwrap();
        assert_eq!(
            keep87.chance,
            Chance {
                favourable: 5,
                total: 47
            }
        );
        assert_eq!(options[0].discard.len(), 3);
    }

    #[test]
    fn a_discard_not_in_the_hand_or_a_sixth_copy_is_refused() {
        assert!(discard_chance(&[8, 7, 6], &[5], &[], 900, false, false).is_err());
        assert!(discard_chance(&[8, 7, 6], &[8, 8], &[], 900, false, false).is_err());
        assert!(discard_chance(&[9, 9, 9], &[9], &[9, 9, 9], 900, false, false).is_err());
        assert!(discard_chance(&[8, 7, 6], &[], &[], 900, false, false).is_err());
        assert!(discard_chance(&[8, 7, 6], &[], &[], 876, false, true).is_ok());
    }
}
