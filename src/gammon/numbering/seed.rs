//! The NikoNiko article's dense index of states (`docs/nikoniko.md`, "States and the dense
//! index"), generalised to any board of `P` points and `C` checkers a side.
//!
//! A side is its count vector over the locations `0..=P + 1` (0 borne off, then the
//! points, the bar last), numbered by the article's `seqNumber` in its `next_PN` order
//! (all off is #0). The side on roll's vector `x` (all off excluded) opens a block; in it
//! the opponent may use its off, then the points whose mirror `x` leaves empty (ascending
//! in the opponent's numbering), then its bar: `ns + 2` places, numbered again by
//! `seqNumber` (all off excluded). The index is the number of states in the earlier
//! blocks plus the opponent's number. For NikoNiko it is the article's index, a
//! bijection onto `0..1,106,945`.
//!
//! ```
//! use tabula::gammon::{numbering::SeedIndex, Position};
//!
//! let index = SeedIndex::new(8, 5).unwrap();
//! assert_eq!(index.states(), 1_106_945);
//! // Both sides with every checker on the bar: the last state.
//! let bar = [0, 0, 0, 0, 0, 0, 0, 0, 5];
//! let last = Position::new(&bar, &bar).unwrap();
//! assert_eq!(index.index(&last), 1_106_944);
//! assert_eq!(index.position(1_106_944), Some(last));
//! ```

use crate::gammon::{Error, Position};
use crate::rank::{Multisets, Ranker};

/// The most locations a side has: off, 24 points, the bar.
const MAX_LOCATIONS: usize = crate::gammon::variant::MAX_POINTS + 2;

/// The article's index for `C` checkers a side on `P` points.
#[derive(Debug, Clone)]
pub struct SeedIndex {
    points: usize,
    checkers: u8,
    /// A side's vectors: `C` checkers on `P + 2` locations.
    side: Multisets,
    /// `opp[ns]`: the opponent's vectors compressed to `ns + 2` places.
    opp: Vec<Multisets>,
    /// `base[s]`: states whose side-on-roll vector has seqNumber < s.
    base: Vec<u64>,
}

/// A side's locations: 0 off, `1..=P` points, `P + 1` bar.
type Locations = [u8; MAX_LOCATIONS];

impl SeedIndex {
    /// The index of `checkers` checkers a side on `points` points.
    pub fn new(points: usize, checkers: usize) -> Result<SeedIndex, Error> {
        if points == 0 || points + 2 > MAX_LOCATIONS || checkers == 0 || checkers > 15 {
            return Err(Error::Size {
                points,
                checkers,
                reason: "the article's index numbers 1 to 24 points and 1 to 15 checkers",
            });
        }
        let c = checkers as u32;
        let side = Multisets::new(points + 2, c)?;
        let opp = (0..=points)
            .map(|ns| Multisets::new(ns + 2, c))
            .collect::<Result<Vec<_>, _>>()?;
        let mut base = Vec::with_capacity(side.len() as usize + 1);
        let mut total = 0u64;
        let mut x: Locations = [0; MAX_LOCATIONS];
        x[0] = checkers as u8;
        base.push(0);
        // Block 0 (all off) is empty.
        let width = points + 2;
        while side.advance(&mut x[..width]) {
            base.push(total);
            total += opp[open_points(&x, points)].len() - 1;
        }
        base.push(total);
        Ok(SeedIndex {
            points,
            checkers: checkers as u8,
            side,
            opp,
            base,
        })
    }

    /// Points on the board.
    pub fn points(&self) -> usize {
        self.points
    }

    /// Checkers a side.
    pub fn checkers(&self) -> usize {
        usize::from(self.checkers)
    }

    /// Numbered states: the legal positions in which neither side has finished.
    pub fn states(&self) -> u64 {
        *self.base.last().expect("at least one block")
    }

    /// A side's count vectors, all off included: PNC(P + 2, C).
    pub fn side_vectors(&self) -> u64 {
        self.side.len()
    }

    /// The locations of a side given as slots (see [`Position`]).
    fn locations(&self, slots: &[u8]) -> Locations {
        let mut v: Locations = [0; MAX_LOCATIONS];
        v[1..=self.points + 1].copy_from_slice(slots);
        let on: u8 = slots.iter().sum();
        v[0] = self.checkers - on;
        v
    }

    /// The opponent compressed to the places open to it: off, open points ascending in
    /// its own numbering, bar. Returns the vector and its length `ns + 2`.
    fn compress(&self, me: &Locations, opp: &Locations) -> (Locations, usize) {
        let p = self.points;
        let mut v: Locations = [0; MAX_LOCATIONS];
        let mut len = 1;
        v[0] = opp[0];
        for q in 1..=p {
            if me[p + 1 - q] == 0 {
                v[len] = opp[q];
                len += 1;
            }
        }
        v[len] = opp[p + 1];
        (v, len + 1)
    }

    fn expand(&self, me: &Locations, v: &[u8]) -> Locations {
        let p = self.points;
        let mut opp: Locations = [0; MAX_LOCATIONS];
        opp[0] = v[0];
        let mut k = 1;
        for q in 1..=p {
            if me[p + 1 - q] == 0 {
                opp[q] = v[k];
                k += 1;
            }
        }
        opp[p + 1] = v[k];
        opp
    }

    /// The seqNumber of one side (slots, see [`Position`]) among all
    /// [`SeedIndex::side_vectors`], in the article's `next_PN` order (all off is 0).
    pub fn side_number(&self, slots: &[u8]) -> u64 {
        let v = self.locations(slots);
        self.side
            .seq_number(&v, self.points + 1, u32::from(self.checkers))
    }

    /// The index of a state: a position of this board and checker count whose sides
    /// share no point and each have a checker in play (checked by the caller, for
    /// instance with [`crate::gammon::notation::check`]).
    pub fn index(&self, p: &Position) -> u64 {
        let n = u32::from(self.checkers);
        let me = self.locations(p.us());
        let opp = self.locations(p.them());
        let sx = self.side.seq_number(&me, self.points + 1, n);
        let (v, len) = self.compress(&me, &opp);
        let so = self.opp[len - 2].seq_number(&v, len - 1, n);
        self.base[sx as usize] + so - 1
    }

    /// The state with index `i`, or `None` when `i` is not below [`SeedIndex::states`].
    pub fn position(&self, i: u64) -> Option<Position> {
        if i >= self.states() {
            return None;
        }
        // The last block whose base is ≤ i (block 0, all off, is empty).
        let seq = self.base.partition_point(|&b| b <= i) - 1;
        let width = self.points + 2;
        let mut me: Locations = [0; MAX_LOCATIONS];
        self.side.unrank_into(seq as u64, &mut me[..width]).ok()?;
        let ns = open_points(&me, self.points);
        let mut v: Locations = [0; MAX_LOCATIONS];
        self.opp[ns]
            .unrank_into(i - self.base[seq] + 1, &mut v[..ns + 2])
            .ok()?;
        let opp = self.expand(&me, &v[..ns + 2]);
        Position::new(&me[1..width], &opp[1..width]).ok()
    }

    /// Every state, in index order, built by walking the article's `next_PN` order rather
    /// than by unranking.
    pub fn all_states(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.states() as usize);
        for block in 1..self.blocks() {
            self.block_into(block, &mut out);
        }
        out
    }

    /// Blocks of the index: one per side-on-roll vector (block 0, all off, is empty).
    pub fn blocks(&self) -> usize {
        self.base.len() - 1
    }

    /// The index of the first state of block `block`.
    pub fn block_start(&self, block: usize) -> u64 {
        self.base[block]
    }

    /// Appends the states of block `block` (the side on roll's vector of seqNumber
    /// `block`), in index order, walking the article's `next_PN` order.
    pub fn block_into(&self, block: usize, out: &mut Vec<Position>) {
        let width = self.points + 2;
        let mut me: Locations = [0; MAX_LOCATIONS];
        if block == 0
            || self
                .side
                .unrank_into(block as u64, &mut me[..width])
                .is_err()
        {
            return;
        }
        self.each_opponent(&me, |opp| {
            out.push(Position::new(&me[1..width], &opp[1..width]).expect("slots"));
        });
    }

    /// Every side's locations (off, the points, the bar: `P + 2` counts), in the order
    /// of [`SeedIndex::side_number`].
    pub fn side_locations(&self) -> Vec<Vec<u8>> {
        self.side.iter().collect()
    }

    /// Every state's two side numbers ([`SeedIndex::side_number`]), the side on roll
    /// first, in index order.
    pub fn side_numbers(&self) -> Vec<(u64, u64)> {
        let width = self.points + 2;
        let n = u32::from(self.checkers);
        let mut out = Vec::with_capacity(self.states() as usize);
        let mut me: Locations = [0; MAX_LOCATIONS];
        me[0] = self.checkers;
        let mut sx = 0;
        while self.side.advance(&mut me[..width]) {
            sx += 1;
            self.each_opponent(&me, |opp| {
                out.push((sx, self.side.seq_number(opp, width - 1, n)));
            });
        }
        out
    }

    /// Calls `f` with each opponent (its locations) the side on roll `me` faces, in the
    /// article's `next_PN` order of the places open to it.
    fn each_opponent(&self, me: &Locations, mut f: impl FnMut(&Locations)) {
        let ns = open_points(me, self.points);
        let places = ns + 2;
        let mut v: Locations = [0; MAX_LOCATIONS];
        v[0] = self.checkers;
        while self.opp[ns].advance(&mut v[..places]) {
            f(&self.expand(me, &v[..places]));
        }
    }

    /// Counts the states the article's way: for each side-on-roll vector (all off
    /// excluded), the opponent's vectors on the places open to it, less its all-off one.
    pub fn count_like_the_article(&self) -> u64 {
        self.side
            .iter()
            .skip(1)
            .map(|x| self.opp[open_points(&x, self.points)].len() - 1)
            .sum()
    }
}

/// Number of the opponent's points left open by the side on roll's locations `x`.
fn open_points(x: &[u8], points: usize) -> usize {
    (1..=points).filter(|&p| x[p] == 0).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::notation::check;
    use crate::gammon::Variant;

    #[test]
    fn nikonikos_index_counts_the_articles_1106945_states_and_2002_side_vectors() {
        let index = SeedIndex::new(8, 5).unwrap();
        assert_eq!(index.states(), 1_106_945);
        assert_eq!(index.count_like_the_article(), 1_106_945);
        assert_eq!(index.side_vectors(), 2_002);
        assert_eq!(index.all_states().len(), 1_106_945);
    }

    #[test]
    fn the_spec_examples_have_their_indices() {
        let index = SeedIndex::new(8, 5).unwrap();
        let one = [1, 0, 0, 0, 0, 0, 0, 0, 0];
        let one_each = Position::new(&one, &one).unwrap();
        assert_eq!(index.index(&one_each), 0);
        let opening = Variant::parse("nikoniko").unwrap().opening();
        assert_eq!(index.index(&opening), 562_767);
    }

    /// Every position of a small variant, by brute force over the gnubg index's records.
    fn states_by_brute_force(v: &Variant) -> Vec<Position> {
        let hyper = v.hyper_index().unwrap();
        (0..hyper.records())
            .map(|r| hyper.position(r).unwrap())
            .filter(|p| check(v, p).is_ok())
            .collect()
    }

    #[test]
    fn on_small_boards_the_index_is_a_bijection_onto_the_legal_states() {
        for name in ["points=5:checkers=2:home=2", "points=6:checkers=3:home=2"] {
            let v = Variant::parse(name).unwrap();
            let index = SeedIndex::new(v.points, v.checkers).unwrap();
            let brute = states_by_brute_force(&v);
            assert_eq!(index.states(), brute.len() as u64, "{name}");
            let all = index.all_states();
            let numbers = index.side_numbers();
            for (i, p) in all.iter().enumerate() {
                assert_eq!(index.index(p), i as u64, "{name} {p:?}");
                assert_eq!(index.position(i as u64).as_ref(), Some(p));
                let expected = (index.side_number(p.us()), index.side_number(p.them()));
                assert_eq!(numbers[i], expected);
            }
            let mut sorted = all.clone();
            sorted.sort();
            let mut brute = brute;
            brute.sort();
            assert_eq!(sorted, brute, "{name}");
            assert_eq!(index.position(index.states()), None);
        }
    }
}
