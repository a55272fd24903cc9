//! The source article's three strategies (`docs/fabfib.md`), with the gaps of its code
//! closed, and their parameters open to tuning.

use super::poisson::CappedPoisson;
use super::{CallView, Caller, DiscardView, Discarder, DoubtView, Doubter};
use crate::fabfib::calls::call_digits;
use crate::fabfib::cards::{digit, digits_value, hand_value, TOP};
use crate::fabfib::{Error, Result};
use crate::random;
use rand::Rng;
use serde::Serialize;

/// The article strategy's parameters: how its caller lies, its discarder throws and its
/// doubter doubts. [`ArticleParams::default`] is the article's own setting.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ArticleParams {
    /// Mean of the Poisson draws that replace the lowest digits of a lie (article: 4).
    pub mean: f64,
    /// Mean of the Poisson extra rise of the digit a lie raises (article: 0.2).
    pub bump: f64,
    /// Cards showing a digit below this are thrown away (article: 6).
    pub keep: u8,
    /// When the hand's highest and lowest digits differ by less than this, every card but
    /// the 9s is thrown away (article: 4).
    pub spread: u8,
    /// The doubt index above which a call is doubted (article: 0.85).
    pub doubt: f64,
}

impl Default for ArticleParams {
    fn default() -> Self {
        ArticleParams {
            mean: 4.0,
            bump: 0.2,
            keep: 6,
            spread: 4,
            doubt: 0.85,
        }
    }
}

impl ArticleParams {
    /// Checks every parameter against its range.
    pub fn checked(self) -> Result<ArticleParams> {
        let check = |name, value: f64, lo: f64, hi: f64, range| {
            if value.is_finite() && (lo..=hi).contains(&value) {
                Ok(())
            } else {
                Err(Error::Parameter { name, value, range })
            }
        };
        check("Poisson mean", self.mean, 0.0, 20.0, "from 0 to 20")?;
        check("bump", self.bump, 0.0, 9.0, "from 0 to 9")?;
        check(
            "keep digit",
            f64::from(self.keep),
            0.0,
            10.0,
            "a whole number from 0 to 10",
        )?;
        check(
            "spread",
            f64::from(self.spread),
            0.0,
            10.0,
            "a whole number from 0 to 10",
        )?;
        check("doubt threshold", self.doubt, 0.0, 2.0, "from 0 to 2")?;
        Ok(self)
    }
}

/// Calls the truth when the hand beats the last call; otherwise lies by pretending the
/// replaced cards came back higher.
///
/// The lie: the previous call's digits in ascending order; `L = min(cards replaced,
/// non-9 digits)`; the lowest `L − 1` digits become Poisson(mean) draws capped at 9; the
/// `L`-th lowest gains `1 + Poisson(bump)`, capped at 9. The result always beats the
/// previous call, since the `L`-th lowest digit rises and the digits above it stay.
///
/// Where the article's code fails: when `L = 0` because every digit is a 9 (a previous
/// call of 999), the only higher call, 1000, is made; when `L = 0` because no card was
/// replaced (the zero-discard option), `L = 1` is used.
#[derive(Debug, Clone)]
pub struct ArticleCaller {
    low: CappedPoisson,
    bump: CappedPoisson,
}

impl ArticleCaller {
    /// The article's caller with the given Poisson means.
    pub fn new(params: &ArticleParams) -> ArticleCaller {
        ArticleCaller {
            low: CappedPoisson::new(params.mean),
            bump: CappedPoisson::new(params.bump),
        }
    }
}

impl Default for ArticleCaller {
    fn default() -> Self {
        ArticleCaller::new(&ArticleParams::default())
    }
}

impl Caller for ArticleCaller {
    fn call(&self, view: &CallView, rng: &mut random::Rng) -> u16 {
        let value = hand_value(&view.hand);
        let previous = match view.previous {
            None => return value,
            Some(p) if value > p => return value,
            Some(p) => p,
        };
        let mut asc = call_digits(previous);
        asc.reverse();
        let non_nines = asc.iter().filter(|&&d| d != 9).count();
        if non_nines == 0 || previous >= TOP {
            return TOP;
        }
        let l = usize::from(view.replaced).min(non_nines).max(1);
        for d in asc.iter_mut().take(l - 1) {
            *d = self.low.sample(rng);
        }
        asc[l - 1] = (asc[l - 1] + 1 + self.bump.sample(rng)).min(9);
        digits_value(asc[0], asc[1], asc[2])
    }
}

/// Throws away every card below `keep` (6); then, if the hand's highest and lowest digits
/// differ by less than `spread` (4), every card but the 9s. When that leaves nothing to
/// throw and the rules demand a discard (a hand of three 9s), throws the first lowest card.
#[derive(Debug, Clone, Copy)]
pub struct ArticleDiscarder {
    /// Digits below this are thrown away.
    pub keep: u8,
    /// A spread below this throws everything but the 9s.
    pub spread: u8,
}

impl ArticleDiscarder {
    /// The article's discarder with the given digits.
    pub fn new(params: &ArticleParams) -> ArticleDiscarder {
        ArticleDiscarder {
            keep: params.keep,
            spread: params.spread,
        }
    }
}

impl Default for ArticleDiscarder {
    fn default() -> Self {
        ArticleDiscarder::new(&ArticleParams::default())
    }
}

impl Discarder for ArticleDiscarder {
    fn discard(&self, view: &DiscardView, _rng: &mut random::Rng) -> u8 {
        let d = view.hand.map(digit);
        let (max, min) = (*d.iter().max().unwrap_or(&0), *d.iter().min().unwrap_or(&0));
        let mut mask = 0u8;
        for (i, &x) in d.iter().enumerate() {
            if x < self.keep || (max - min < self.spread && x != 9) {
                mask |= 1 << i;
            }
        }
        if mask.count_ones() < view.rules.min_discard() {
            let lowest = (0..3).min_by_key(|&i| d[i]).unwrap_or(0);
            mask = 1 << lowest;
        }
        mask
    }
}

/// The article's doubt index: `U(0.8, 1.0) · ((call − 700) / 300)³`, plus 0.1 when the
/// caller replaced 2 cards (0.6 more for a call of 990 or more), plus 0.3 when it replaced
/// 3 (0.3 more for a call of 900 or more); doubts when the index exceeds the threshold
/// (0.85).
#[derive(Debug, Clone, Copy)]
pub struct ArticleDoubter {
    /// Doubt when the index is strictly above this.
    pub threshold: f64,
}

impl ArticleDoubter {
    /// The article's doubter with the given threshold.
    pub fn new(params: &ArticleParams) -> ArticleDoubter {
        ArticleDoubter {
            threshold: params.doubt,
        }
    }
}

impl Default for ArticleDoubter {
    fn default() -> Self {
        ArticleDoubter::new(&ArticleParams::default())
    }
}

impl ArticleDoubter {
    /// The index for a given uniform factor `u` in [0.8, 1.0).
    pub fn index(call: u16, replaced: u8, u: f64) -> f64 {
        let x = (f64::from(call) - 700.0) / 300.0;
        let mut index = u * x * x * x;
        if replaced == 2 {
            index += 0.1;
            if call >= 990 {
                index += 0.6;
            }
        }
        if replaced == 3 {
            index += 0.3;
            if call >= 900 {
                index += 0.3;
            }
        }
        index
    }
}

impl Doubter for ArticleDoubter {
    fn doubt(&self, view: &DoubtView, rng: &mut random::Rng) -> bool {
        let u = 0.8 + 0.2 * rng.gen::<f64>();
        ArticleDoubter::index(view.call, view.replaced, u) > self.threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabfib::calls::is_call;
    use crate::fabfib::rules::Rules;

    /// A hand with the given digits (first copies: 1 coin each).
    fn hand(d: [u8; 3]) -> [u8; 3] {
        [d[0] * 5, d[1] * 5 + 1, d[2] * 5 + 2]
    }

    fn call(hand_digits: [u8; 3], previous: Option<u16>, replaced: u8, seed: u64) -> u16 {
        let rules = Rules::new(3).unwrap();
        let view = CallView {
            hand: hand(hand_digits),
            previous,
            replaced,
            rules: &rules,
        };
        ArticleCaller::default().call(&view, &mut random::stream(seed, 0))
    }

    #[test]
    fn the_article_caller_tells_the_truth_when_the_hand_beats_the_call() {
        // The article's own doctest: BasicLogic(431, 1, [6,3,1]) calls 631.
        assert_eq!(call([6, 3, 1], Some(431), 1, 1), 631);
        assert_eq!(call([1, 3, 6], None, 3, 1), 631);
    }

    #[test]
    fn the_article_callers_lies_always_beat_the_previous_call() {
        // The article's doctests: (831,1,[6,3,1]), (995,1,[9,9,4]), (654,3,[4,3,1]) lie above.
        for seed in 0..300 {
            for (prev, replaced, h) in [
                (831, 1, [6, 3, 1]),
                (995, 1, [9, 9, 4]),
                (654, 3, [4, 3, 1]),
                (654, 2, [4, 3, 1]),
                (900, 3, [1, 0, 0]),
                (998, 0, [1, 0, 0]),
            ] {
                let c = call(h, Some(prev), replaced, seed);
                assert!(
                    c > prev && c <= 999 && is_call(c),
                    "{prev} {replaced} -> {c}"
                );
            }
        }
    }

    #[test]
    fn a_lie_after_999_is_1000_where_the_articles_code_crashes() {
        assert_eq!(call([1, 0, 0], Some(999), 2, 3), 1000);
    }

    #[test]
    fn a_one_card_lie_raises_only_the_lowest_non_nine_digit() {
        // 831 with one card replaced: the 1 rises by 1 + Poisson(0.2), the 8 and 3 stay.
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let c = call([6, 3, 1], Some(831), 1, seed);
            let mut d = call_digits(c).to_vec();
            for keep in [8, 3] {
                let i = d.iter().position(|&x| x == keep).expect("8 and 3 stay");
                d.remove(i);
            }
            assert!(d[0] >= 2, "{c}");
            seen.insert(c);
        }
        assert!(seen.contains(&832) && seen.contains(&833), "{seen:?}");
    }

    #[test]
    fn a_one_card_lie_rises_by_exactly_one_with_the_poisson_chance_e_to_the_minus_0_2() {
        // 831, one card replaced: 832 exactly when Poisson(0.2) gives 0, P = e^-0.2.
        let n = 20_000;
        let hits = (0..n)
            .filter(|&s| call([6, 3, 1], Some(831), 1, s) == 832)
            .count();
        let p = (-0.2f64).exp();
        let observed = hits as f64 / n as f64;
        let sd = (p * (1.0 - p) / n as f64).sqrt();
        assert!((observed - p).abs() < 4.0 * sd, "{observed} vs {p}");
    }

    #[test]
    fn the_article_discarder_follows_its_two_rules() {
        let rules = Rules::new(3).unwrap();
        let run = |d: [u8; 3]| {
            let view = DiscardView {
                hand: hand(d),
                call: 500,
                seen: 0,
                rules: &rules,
            };
            ArticleDiscarder::default().discard(&view, &mut random::stream(0, 0))
        };
        assert_eq!(run([6, 5, 4]), 0b111); // the article's doctest: all of 6,5,4 go
        assert_eq!(run([9, 7, 3]), 0b100); // below 6 only; spread 6 ≥ 4
        assert_eq!(run([8, 7, 6]), 0b111); // spread 2 < 4: everything but 9s
        assert_eq!(run([9, 8, 7]), 0b110);
        assert_eq!(run([9, 9, 1]), 0b100);
        assert_eq!(run([9, 9, 9]), 0b001); // nothing to throw: the first lowest goes
    }

    #[test]
    fn the_article_doubter_doubts_900_after_three_replaced_with_chance_25_over_32() {
        // Doubt iff U · (200/300)³ + 0.6 > 0.85, i.e. U > 0.84375, for U uniform on
        // [0.8, 1.0): P = 0.15625 / 0.2 = 25/32.
        let rules = Rules::new(3).unwrap();
        let view = DoubtView {
            call: 900,
            previous: Some(880),
            replaced: 3,
            seen: 0,
            passed: None,
            rules: &rules,
        };
        let mut rng = random::stream(8, 0);
        let n = 40_000;
        let doubts = (0..n)
            .filter(|_| ArticleDoubter::default().doubt(&view, &mut rng))
            .count();
        let p = 25.0 / 32.0;
        let observed = doubts as f64 / n as f64;
        let sd = (p * (1.0 - p) / n as f64).sqrt();
        assert!((observed - p).abs() < 4.0 * sd, "{observed} vs {p}");
    }

    #[test]
    fn the_article_doubt_index_matches_the_formula_at_its_thresholds() {
        assert!((ArticleDoubter::index(700, 0, 0.9) - 0.0).abs() < 1e-12);
        assert!((ArticleDoubter::index(1000, 0, 0.8) - 0.8).abs() < 1e-12);
        assert!(
            (ArticleDoubter::index(990, 2, 1.0) - (0.7 + (290.0f64 / 300.0).powi(3))).abs() < 1e-12
        );
        assert!(
            (ArticleDoubter::index(900, 3, 1.0) - (0.6 + (200.0f64 / 300.0).powi(3))).abs() < 1e-12
        );
        // A call of 999 with 2 replaced is always doubted; 800 with 1 never.
        assert!(ArticleDoubter::index(999, 2, 0.8) > 0.85);
        assert!(ArticleDoubter::index(800, 1, 1.0) < 0.85);
    }

    #[test]
    fn the_parameters_change_what_the_article_strategies_do() {
        let rules = Rules::new(3).unwrap();
        // No bump: a one-card lie over 831 raises the 1 by exactly one, every time.
        let flat = ArticleCaller::new(&ArticleParams {
            bump: 0.0,
            ..ArticleParams::default()
        });
        let view = CallView {
            hand: hand([6, 3, 1]),
            previous: Some(831),
            replaced: 1,
            rules: &rules,
        };
        for seed in 0..100 {
            assert_eq!(flat.call(&view, &mut random::stream(seed, 0)), 832);
        }
        // Keep 8 and spread 0: only the 7 of 9,8,7 goes (the article's own rule throws
        // the 8 and the 7, since 9 − 7 < 4).
        let picky = ArticleDiscarder::new(&ArticleParams {
            keep: 8,
            spread: 0,
            ..ArticleParams::default()
        });
        let view = DiscardView {
            hand: hand([9, 8, 7]),
            call: 500,
            seen: 0,
            rules: &rules,
        };
        assert_eq!(picky.discard(&view, &mut random::stream(0, 0)), 0b100);
        // A threshold of 2 is above every index: no doubt by choice.
        let never = ArticleDoubter::new(&ArticleParams {
            doubt: 2.0,
            ..ArticleParams::default()
        });
        let view = DoubtView {
            call: 999,
            previous: Some(990),
            replaced: 2,
            seen: 0,
            passed: None,
            rules: &rules,
        };
        let mut rng = random::stream(1, 0);
        assert!((0..1000).all(|_| !never.doubt(&view, &mut rng)));
        assert!(ArticleDoubter::default().doubt(&view, &mut rng));
    }
}
