//! The honest caller: never lies unless it must, and then by as little as it can.

use super::{CallView, Caller};
use crate::fabfib::calls::lowest_call_above;
use crate::fabfib::cards::{hand_value, TOP};
use crate::random;

/// Calls the hand's value when it beats the last call; otherwise (a call must rise) the
/// lowest call above the last one.
#[derive(Debug, Clone, Copy, Default)]
pub struct HonestCaller;

impl Caller for HonestCaller {
    fn call(&self, view: &CallView, _rng: &mut random::Rng) -> u16 {
        let value = hand_value(&view.hand);
        match view.previous {
            Some(p) if value <= p => lowest_call_above(Some(p)).unwrap_or(TOP),
            _ => value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabfib::rules::Rules;

    #[test]
    fn the_honest_caller_calls_its_hand_or_the_smallest_lie() {
        let rules = Rules::new(3).unwrap();
        let mut rng = random::stream(0, 0);
        let view = |previous| CallView {
            hand: [30, 15, 5], // 6, 3, 1
            previous,
            replaced: 1,
            rules: &rules,
        };
        assert_eq!(HonestCaller.call(&view(None), &mut rng), 631);
        assert_eq!(HonestCaller.call(&view(Some(630)), &mut rng), 631);
        assert_eq!(HonestCaller.call(&view(Some(631)), &mut rng), 632);
        assert_eq!(HonestCaller.call(&view(Some(699)), &mut rng), 700);
        assert_eq!(HonestCaller.call(&view(Some(999)), &mut rng), 1000);
    }
}
