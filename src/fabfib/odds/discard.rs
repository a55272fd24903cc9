//! Discards: the chance each way of discarding gives of reaching a target.

use super::{reach, Chance, Pool};
use crate::fabfib::cards::format_digits;
use crate::fabfib::{Error, Result};
use serde::{Serialize, Serializer};

/// One way to discard from a hand, with its chance of reaching the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiscardOption {
    /// The digits thrown away, highest first.
    #[serde(serialize_with = "digits")]
    pub discard: Vec<u8>,
    /// The digits kept, highest first.
    #[serde(serialize_with = "digits")]
    pub kept: Vec<u8>,
    /// The chance of reaching the target after drawing as many cards as discarded.
    #[serde(flatten)]
    pub chance: Chance,
}

/// What a discard question asks: the hand, the target, how a call is judged and the cards
/// known to be out of the deck.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiscardQuery {
    /// The hand's three digits.
    #[serde(serialize_with = "digits")]
    pub hand: [u8; 3],
    /// The call the new hand must reach.
    pub target: u16,
    /// Whether the new hand must be worth exactly the target.
    pub exact: bool,
    /// Digits of other cards known to be out of the deck.
    #[serde(serialize_with = "digits")]
    pub seen: Vec<u8>,
    /// Whether the rules allow discarding nothing.
    #[serde(skip)]
    pub zero_discard: bool,
}

/// The chance of one discard (the JSON of `fabfib odds --discard`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiscardOdds {
    /// The question.
    #[serde(flatten)]
    pub query: DiscardQuery,
    /// The discard and its chance.
    #[serde(flatten)]
    pub option: DiscardOption,
}

/// Every discard ranked (the JSON of `fabfib odds --best`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiscardRanking {
    /// The question.
    #[serde(flatten)]
    pub query: DiscardQuery,
    /// The best discard.
    pub best: DiscardOption,
    /// Every distinct discard, best first.
    pub options: Vec<DiscardOption>,
}

/// Writes digits together, highest first.
fn digits<S: Serializer>(d: &[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&format_digits(d))
}

/// The chance of one discard, with its question.
pub fn discard_odds(query: DiscardQuery, discard: &[u8]) -> Result<DiscardOdds> {
    let option = discard_chance(
        &query.hand,
        discard,
        &query.seen,
        query.target,
        query.exact,
        query.zero_discard,
    )?;
    Ok(DiscardOdds { query, option })
}

/// Every discard ranked, with its question.
pub fn discard_ranking(query: DiscardQuery) -> Result<DiscardRanking> {
    let options = discard_options(
        &query.hand,
        &query.seen,
        query.target,
        query.exact,
        query.zero_discard,
    )?;
    Ok(DiscardRanking {
        query,
        best: options[0].clone(),
        options,
    })
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
        return Err(Error::EmptyDiscard);
    }
    let mut kept = hand.to_vec();
    for &d in discard {
        match kept.iter().position(|&x| x == d) {
            Some(i) => {
                kept.remove(i);
            }
            None => {
                return Err(Error::NotInHand {
                    discard: discard_list(discard),
                    hand: format_digits(hand),
                })
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

pub(crate) fn discard_list(d: &[u8]) -> String {
    d.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::fraction;

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
