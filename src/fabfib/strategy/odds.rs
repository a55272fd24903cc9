//! Strategies that use the exact odds: a doubter and a discarder.

use super::{DiscardView, Discarder, DoubtView, Doubter};
use crate::fabfib::calls::{call_digits, lowest_call_above};
use crate::fabfib::cards::{mask_of, sorted_digits, TOP};
use crate::fabfib::odds::{reach, Chance, Pool};
use crate::random;

/// Doubts when the exact chance that the call is true, given what the player can know,
/// is below a threshold.
///
/// The model of the offered hand: the caller kept its best `3 − replaced` cards and drew
/// the rest from the cards this player cannot rule out of the deck. The kept cards are the
/// best of the hand the caller received when this player passed it (it then also knows all
/// three are out of the deck); otherwise the highest digits of the previous call, taken as
/// true. A fresh hand (the round's first call) keeps nothing. Cards the player knows lie
/// in the discard pile are out of the deck.
#[derive(Debug, Clone, Copy)]
pub struct OddsDoubter {
    /// Doubt when the chance is strictly below this.
    pub threshold: f64,
}

impl OddsDoubter {
    /// A doubter with the given threshold.
    pub fn new(threshold: f64) -> OddsDoubter {
        OddsDoubter { threshold }
    }

    /// The exact chance, under the model above, that the offered call is true.
    pub fn chance(view: &DoubtView) -> Chance {
        let replaced = usize::from(view.replaced.min(3));
        let keep = 3 - replaced;
        let (kept, pool) = match (view.passed, view.previous) {
            (Some(h), _) => {
                let d = sorted_digits(&h);
                (d, Pool::without_cards(view.seen | mask_of(&h)))
            }
            (None, Some(p)) if keep > 0 => {
                let d = call_digits(p);
                let mut pool = Pool::without_cards(view.seen);
                for &x in &d[..keep] {
                    pool.remove(x);
                }
                (d, pool)
            }
            _ => ([0; 3], Pool::without_cards(view.seen)),
        };
        reach(&kept[..keep], &pool, view.call, view.rules.exact)
    }
}

impl Doubter for OddsDoubter {
    fn doubt(&self, view: &DoubtView, _rng: &mut random::Rng) -> bool {
        let c = OddsDoubter::chance(view);
        (c.favourable as f64) < self.threshold * c.total as f64
    }
}

/// Discards so as to maximise the exact chance of a hand that beats the call it accepted
/// (drawing from the deck without its hand and the cards it knows lie in the discard
/// pile); among equal chances, fewer cards.
#[derive(Debug, Clone, Copy, Default)]
pub struct BestDiscarder;

impl Discarder for BestDiscarder {
    fn discard(&self, view: &DiscardView, _rng: &mut random::Rng) -> u8 {
        let target = lowest_call_above(Some(view.call)).unwrap_or(TOP);
        let pool = Pool::without_cards(view.seen | mask_of(&view.hand));
        let digits = view.hand.map(crate::fabfib::cards::digit);
        let mut best = (
            0u8,
            Chance {
                favourable: 0,
                total: 1,
            },
        );
        let mut first = true;
        // Subsets by increasing size, so ties keep the smaller discard.
        for mask in [0u8, 1, 2, 4, 3, 5, 6, 7] {
            if mask.count_ones() < view.rules.min_discard() {
                continue;
            }
            let kept: Vec<u8> = (0..3)
                .filter(|i| mask >> i & 1 == 0)
                .map(|i| digits[i])
                .collect();
            let c = reach(&kept, &pool, target, view.rules.exact);
            let better = u128::from(c.favourable) * u128::from(best.1.total)
                > u128::from(best.1.favourable) * u128::from(c.total);
            if first || better {
                best = (mask, c);
                first = false;
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabfib::odds::reach_by_cards;
    use crate::fabfib::rules::Rules;

    fn view(rules: &Rules, call: u16, previous: Option<u16>, replaced: u8) -> DoubtView<'_> {
        DoubtView {
            call,
            previous,
            replaced,
            seen: 0,
            passed: None,
            rules,
        }
    }

    #[test]
    fn a_fresh_hand_call_is_judged_by_the_fresh_hand_odds() {
        let rules = Rules::new(3).unwrap();
        let c = OddsDoubter::chance(&view(&rules, 900, None, 3));
        assert_eq!(c, reach_by_cards(&[], &Pool::full(), 900, false));
    }

    #[test]
    fn one_replaced_card_keeps_the_two_highest_digits_of_the_previous_call() {
        // Previous 876, one card replaced, call 887: kept 8 and 7 (out of the deck), one
        // card from 48 must be an 8 (4 left) or a 9 (5): 9/48.
        let rules = Rules::new(3).unwrap();
        let c = OddsDoubter::chance(&view(&rules, 887, Some(876), 1));
        assert_eq!(
            c,
            Chance {
                favourable: 9,
                total: 48
            }
        );
        let mut rng = random::stream(0, 0);
        assert!(OddsDoubter::new(0.5).doubt(&view(&rules, 887, Some(876), 1), &mut rng));
        assert!(!OddsDoubter::new(0.1).doubt(&view(&rules, 887, Some(876), 1), &mut rng));
    }

    #[test]
    fn a_player_who_passed_the_hand_uses_the_cards_it_passed() {
        // It passed 9(1) 9(1) 2(1); one card replaced; the call 995 needs a 5 or more on
        // the one new card from the 47 others: digits 5–8 give 20, the last three 9s 3.
        let rules = Rules::new(2).unwrap();
        let mut v = view(&rules, 995, Some(992), 1);
        v.passed = Some([45, 46, 10]);
        assert_eq!(
            OddsDoubter::chance(&v),
            Chance {
                favourable: 23,
                total: 47
            }
        );
    }

    #[test]
    fn the_best_discarder_throws_everything_from_876_to_beat_899() {
        let rules = Rules::new(3).unwrap();
        let v = DiscardView {
            hand: [40, 35, 30],
            call: 899,
            seen: 0,
            rules: &rules,
        };
        assert_eq!(BestDiscarder.discard(&v, &mut random::stream(0, 0)), 0b111);
    }
}
