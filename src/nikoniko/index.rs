//! The dense, article-compatible index of states (`docs/nikoniko.md`, "States and the dense index").
//!
//! The side on roll's count vector `x` over locations 0..=9 is numbered by the article's
//! `seqNumber` (all-off, #0, excluded). For each `x`, the opponent may use its off, the
//! points whose mirror `x` leaves empty (ascending in the opponent's numbering) and its bar:
//! `ns + 2` places, numbered again by `seqNumber` (all-off excluded). The index is the
//! number of states with an earlier `x` plus the opponent's number.

use super::position::{Position, Side, BAR, CHECKERS, LOCATIONS, POINTS};
use crate::rank::{Multisets, Ranker};
use std::sync::OnceLock;

/// Number of states: the article's 1,106,945.
pub const STATES: u64 = 1_106_945;
/// Count vectors of one side (5 checkers on 10 locations), all-off included: the article's 2,002.
pub const SIDE_VECTORS: u64 = 2_002;

struct Indexer {
    /// The side on roll's vectors: 5 checkers on 10 locations.
    side: Multisets,
    /// `opp[ns]`: the opponent's vectors compressed to `ns + 2` places.
    opp: Vec<Multisets>,
    /// `base[s]`: states whose side-on-roll vector has seqNumber < s.
    base: Vec<u64>,
}

fn indexer() -> &'static Indexer {
    static INDEXER: OnceLock<Indexer> = OnceLock::new();
    INDEXER.get_or_init(|| {
        let side = Multisets::new(LOCATIONS, u32::from(CHECKERS)).expect("2002 vectors fit");
        let opp: Vec<Multisets> = (0..=POINTS)
            .map(|ns| Multisets::new(ns + 2, u32::from(CHECKERS)).expect("small family"))
            .collect();
        let mut base = Vec::with_capacity(side.len() as usize + 1);
        let mut total = 0;
        for (seq, x) in side.iter().enumerate() {
            base.push(total);
            if seq > 0 {
                total += opp[open_points(&x)].len() - 1;
            }
        }
        base.push(total);
        assert_eq!(total, STATES, "the article's state count");
        Indexer { side, opp, base }
    })
}

/// Number of the opponent's points left open by the side on roll's vector `x`.
fn open_points(x: &[u8]) -> usize {
    (1..=POINTS).filter(|&p| x[p] == 0).count()
}

/// The opponent compressed to the places open to it: off, open points ascending in its own
/// numbering, bar. Returns the compressed vector and its length `ns + 2`.
fn compress(me: &Side, opp: &Side) -> ([u8; LOCATIONS], usize) {
    let mut v = [0u8; LOCATIONS];
    let mut len = 1;
    v[0] = opp[0];
    for q in 1..=POINTS {
        if me[9 - q] == 0 {
            v[len] = opp[q];
            len += 1;
        }
    }
    v[len] = opp[BAR];
    (v, len + 1)
}

fn expand(me: &Side, v: &[u8]) -> Side {
    let mut opp = [0u8; LOCATIONS];
    opp[0] = v[0];
    let mut k = 1;
    for q in 1..=POINTS {
        if me[9 - q] == 0 {
            opp[q] = v[k];
            k += 1;
        }
    }
    opp[BAR] = v[k];
    opp
}

/// The rank of one side's vector among all [`SIDE_VECTORS`] in the article's `next_PN` order
/// (`seqNumber`; all-off is 0).
pub fn side_rank(side: &Side) -> u16 {
    indexer().side.seq_number(side, BAR, u32::from(CHECKERS)) as u16
}

/// Every side vector, by [`side_rank`].
pub fn all_sides() -> Vec<Side> {
    indexer()
        .side
        .iter()
        .map(|v| {
            let mut side = [0u8; LOCATIONS];
            side.copy_from_slice(&v);
            side
        })
        .collect()
}

/// The dense index of a valid position, in `0..STATES`.
pub fn index_of(p: &Position) -> u64 {
    let ix = indexer();
    let n = u32::from(CHECKERS);
    let sx = ix.side.seq_number(&p.me, BAR, n);
    let (v, len) = compress(&p.me, &p.opp);
    let so = ix.opp[len - 2].seq_number(&v, len - 1, n);
    ix.base[sx as usize] + so - 1
}

/// The position with dense index `i`, or `None` when `i ≥ STATES`.
pub fn position_at(i: u64) -> Option<Position> {
    if i >= STATES {
        return None;
    }
    let ix = indexer();
    // The last block whose base is ≤ i (block 0, all-off, is empty).
    let seq = ix.base.partition_point(|&b| b <= i) - 1;
    let mut me = [0u8; LOCATIONS];
    ix.side.unrank_into(seq as u64, &mut me).ok()?;
    let ns = open_points(&me);
    let mut v = [0u8; LOCATIONS];
    ix.opp[ns]
        .unrank_into(i - ix.base[seq] + 1, &mut v[..ns + 2])
        .ok()?;
    Some(Position {
        me,
        opp: expand(&me, &v[..ns + 2]),
    })
}

/// Every state, in index order, built by walking the article's `next_PN` order rather than by
/// unranking.
pub fn all_states() -> Vec<Position> {
    let ix = indexer();
    let mut out = Vec::with_capacity(STATES as usize);
    let mut me = [0u8; LOCATIONS];
    me[0] = CHECKERS;
    while ix.side.advance(&mut me) {
        let ns = open_points(&me);
        let places = ns + 2;
        let mut v = [0u8; LOCATIONS];
        v[0] = CHECKERS;
        while ix.opp[ns].advance(&mut v[..places]) {
            out.push(Position {
                me,
                opp: expand(&me, &v[..places]),
            });
        }
    }
    out
}

/// Enumerates every state in the article's order and checks that the index of the k-th is k
/// and that unranking k gives it back. Returns the number of states.
pub fn check_bijection() -> Result<u64, super::Error> {
    use rayon::prelude::*;
    let states = all_states();
    states
        .par_iter()
        .enumerate()
        .try_for_each(|(i, p)| {
            let i = i as u64;
            if index_of(p) != i {
                return Err(format!("state #{i} has index {}", index_of(p)));
            }
            if position_at(i).as_ref() != Some(p) {
                return Err(format!("index {i} does not unrank to state #{i}"));
            }
            Ok(())
        })
        .map_err(super::Error::Index)?;
    Ok(states.len() as u64)
}

/// Count states the article's way: for each side-on-roll vector (all-off excluded), the
/// opponent's vectors on the places open to it, minus its all-off vector.
pub fn count_states_like_the_article() -> u64 {
    let ix = indexer();
    ix.side
        .iter()
        .skip(1)
        .map(|x| ix.opp[open_points(&x)].len() - 1)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_state_count_is_the_articles_1106945() {
        assert_eq!(count_states_like_the_article(), STATES);
        assert_eq!(all_states().len() as u64, STATES);
        assert_eq!(indexer().side.len(), SIDE_VECTORS);
    }

    #[test]
    fn the_spec_examples_have_their_indices() {
        let one_each = Position::new(
            [4, 1, 0, 0, 0, 0, 0, 0, 0, 0],
            [4, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        )
        .unwrap();
        assert_eq!(index_of(&one_each), 0);
        let all_on_bar = Position::new(
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 5],
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 5],
        )
        .unwrap();
        assert_eq!(index_of(&all_on_bar), STATES - 1);
    }

    #[test]
    fn index_and_position_are_inverse_on_every_state() {
        for (i, p) in all_states().iter().enumerate() {
            p.check().unwrap();
            assert_eq!(index_of(p), i as u64);
            assert_eq!(position_at(i as u64).as_ref(), Some(p));
        }
        assert_eq!(position_at(STATES), None);
    }

    #[test]
    fn enumeration_finds_exactly_the_valid_pairs_of_sides() {
        // Brute force: every pair of side vectors, filtered by the rules.
        let side = Multisets::new(LOCATIONS, 5).unwrap();
        let vectors: Vec<Side> = side.iter().map(|v| v.try_into().unwrap()).collect();
        let mut valid = 0u64;
        for me in &vectors {
            for opp in &vectors {
                if Position::new(*me, *opp).is_ok() {
                    valid += 1;
                }
            }
        }
        assert_eq!(valid, STATES);
    }
}
