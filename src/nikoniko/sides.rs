//! The legal plays again, on side ranks instead of boards: the solver's graph needs the
//! successors of every state for every roll (15.6 million of them), and this search makes
//! them with table lookups.
//!
//! A side is its rank among the 2,002 count vectors ([`side_rank`]). Every move of one
//! checker of one side, with its own constraints (the bar enters first, bearing off), is
//! precomputed from rank to rank, and so is a hit. The search then follows
//! [`Generator`](super::moves::Generator) step for step — the same dice orders, the same
//! pruning of doubles, the same rules for which dice must be used — so it finds the same
//! plays *in the same order*; a test holds the two to that over every state and roll.

use super::index::{all_sides, side_rank};
use super::moves::win_score;
use super::position::{Position, Side, BAR, CHECKERS, LOCATIONS};
use super::Roll;

/// Number of side vectors.
const RANKS: usize = 2_002;
/// No move: the checker cannot make it.
const NO: u16 = u16::MAX;

/// One side's legal single-checker moves with one die (at most one per location held).
#[derive(Clone, Copy, Default)]
struct Moves {
    len: u8,
    list: [(u8, u8, u16); 5],
}

/// Rank-to-rank tables of one side's moves.
pub struct Sides {
    counts: Vec<Side>,
    /// `moves[r][die - 1]`: the moves of one checker by `die` the side with rank `r` can
    /// make, the opponent not looked at (the bar enters first; bearing off), highest
    /// `from` first: `(from, to, rank after)`, `to` = 0 for off.
    moves: Vec<[Moves; 2]>,
    /// `hit[r][q]`: the side after its checker on point `q` is hit (sent to the bar).
    hit: Vec<[u16; LOCATIONS]>,
    pips: Vec<u8>,
    /// `top[r]`: the highest location the side with rank `r` holds.
    top: Vec<u8>,
    /// `win_points[r]`: what a side that bears off its last checker wins against the side
    /// with rank `r` (0 when that side has no checker in play).
    win_points: Vec<u8>,
}

/// Number of opponent views (see [`Sides::view`]).
pub const VIEWS: usize = 6_561;

impl Default for Sides {
    fn default() -> Self {
        Self::new()
    }
}

impl Sides {
    pub fn new() -> Sides {
        let counts = all_sides();
        debug_assert_eq!(counts.len(), RANKS);
        let rank_of = |v: &Side| side_rank(v);
        // step[r][from][die - 1]: the side after that move, or NO.
        let step: Vec<[[u16; 2]; LOCATIONS]> = counts
            .iter()
            .map(|me| {
                let mut t = [[NO; 2]; LOCATIONS];
                for (from, row) in t.iter_mut().enumerate() {
                    for die in 1..=2u8 {
                        if let Some(after) = own_step(me, from, die) {
                            row[usize::from(die) - 1] = rank_of(&after);
                        }
                    }
                }
                t
            })
            .collect();
        let moves = step
            .iter()
            .map(|t| {
                [1u8, 2].map(|die| {
                    let mut m = Moves::default();
                    for from in (1..LOCATIONS).rev() {
                        let after = t[from][usize::from(die) - 1];
                        if after != NO {
                            let to = from.saturating_sub(usize::from(die)) as u8;
                            m.list[usize::from(m.len)] = (from as u8, to, after);
                            m.len += 1;
                        }
                    }
                    m
                })
            })
            .collect();
        let hit = counts
            .iter()
            .map(|v| {
                let mut t = [NO; LOCATIONS];
                for (q, slot) in t.iter_mut().enumerate().take(BAR).skip(1) {
                    if v[q] == 1 {
                        let mut after = *v;
                        after[q] = 0;
                        after[BAR] += 1;
                        *slot = rank_of(&after);
                    }
                }
                t
            })
            .collect();
        let pips = counts
            .iter()
            .map(|v| super::position::pips(v) as u8)
            .collect();
        let top = counts
            .iter()
            .map(|v| (0..LOCATIONS).rev().find(|&l| v[l] > 0).unwrap_or(0) as u8)
            .collect();
        let mut gone = [0u8; LOCATIONS];
        gone[0] = CHECKERS;
        let win_points = counts
            .iter()
            .map(|&opp| win_score(&Position { me: gone, opp }) as u8)
            .collect();
        Sides {
            counts,
            moves,
            hit,
            pips,
            top,
            win_points,
        }
    }

    /// The checker counts of the side with rank `r`.
    #[inline]
    pub fn counts(&self, r: u16) -> &Side {
        &self.counts[usize::from(r)]
    }

    /// How the opponent `opp` looks to the side `me` on roll, as far as its plays go: on
    /// each point `me` could land on (below its highest checker), whether `opp` has no
    /// checker there, one, or more; a base-3 number below [`VIEWS`]. Against two opponents
    /// with the same view `me` has the same plays, but for which checkers they hit.
    pub fn view(&self, me: u16, opp: u16) -> u16 {
        let theirs = self.counts(opp);
        let top = usize::from(self.top[usize::from(me)]);
        (1..top.min(BAR)).fold(0u16, |v, to| v * 3 + u16::from(theirs[9 - to].min(2)))
    }

    /// The side with rank `r` after its blots on the points of bit mask `hits` (bit
    /// `q - 1` for point `q`) are hit.
    #[inline]
    pub fn hit_all(&self, r: u16, hits: u8) -> u16 {
        let mut r = r;
        let mut bits = hits;
        while bits != 0 {
            let q = bits.trailing_zeros() as usize + 1;
            r = self.hit[usize::from(r)][q];
            bits &= bits - 1;
        }
        r
    }

    /// Points won by bearing off the last checker against the side with rank `r`.
    #[inline]
    pub fn win_points(&self, r: u16) -> u32 {
        u32::from(self.win_points[usize::from(r)])
    }

    /// Pip count of the side with rank `r`.
    #[inline]
    pub fn pips(&self, r: u16) -> u32 {
        u32::from(self.pips[usize::from(r)])
    }
}

/// One checker of `me` from `from` by `die`, under the side's own constraints only (the
/// bar enters first; bearing off needs every checker home, and a larger die only takes the
/// highest checker). Mirrors [`super::moves::step`] without the opponent.
fn own_step(me: &Side, from: usize, die: u8) -> Option<Side> {
    let d = usize::from(die);
    if from == 0 || me[from] == 0 || (me[BAR] > 0 && from != BAR) {
        return None;
    }
    let mut after = *me;
    after[from] -= 1;
    if from > d {
        after[from - d] += 1;
        return Some(after);
    }
    if me[3..=BAR].iter().any(|&c| c > 0) || (from < d && me[from + 1..=2].iter().any(|&c| c > 0)) {
        return None;
    }
    after[0] += 1;
    Some(after)
}

/// A play found by [`Search`]: both sides' ranks after it, the mover first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct After {
    pub me: u16,
    pub opp: u16,
}

#[derive(Clone, Copy)]
struct Leaf {
    after: After,
    used: u8,
    first_die: u8,
}

/// A reusable search (keeps its buffers between calls).
pub struct Search<'a> {
    sides: &'a Sides,
    leaves: Vec<Leaf>,
    max_used: u8,
    seen: Seen,
}

/// A set of plays found (an open-addressing table stamped per search, so that it never
/// needs clearing): a roll has far fewer than [`Seen::SLOTS`] plays.
struct Seen {
    keys: Vec<u32>,
    stamps: Vec<u32>,
    now: u32,
}

impl Seen {
    const SLOTS: usize = 256;

    fn new() -> Seen {
        Seen {
            keys: vec![0; Self::SLOTS],
            stamps: vec![0; Self::SLOTS],
            now: 0,
        }
    }

    /// Forgets every play.
    fn clear(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamps.fill(0);
            self.now = 1;
        }
    }

    /// Adds a play; false when it was there already.
    fn insert(&mut self, after: After) -> bool {
        let key = u32::from(after.me) << 16 | u32::from(after.opp);
        let mut h = (key.wrapping_mul(0x9E37_79B1) >> 24) as usize;
        loop {
            if self.stamps[h] != self.now {
                self.stamps[h] = self.now;
                self.keys[h] = key;
                return true;
            }
            if self.keys[h] == key {
                return false;
            }
            h = (h + 1) % Self::SLOTS;
        }
    }
}

impl<'a> Search<'a> {
    pub fn new(sides: &'a Sides) -> Search<'a> {
        Search {
            sides,
            leaves: Vec::with_capacity(64),
            max_used: 0,
            seen: Seen::new(),
        }
    }

    /// The distinct plays of `roll` for the side `me` against `opp` (ranks), in the
    /// order [`Generator`](super::moves::Generator) gives them, into `out`. Leaves `out`
    /// empty when the roll passes.
    pub fn plays_into(&mut self, me: u16, opp: u16, roll: Roll, out: &mut Vec<After>) {
        out.clear();
        self.leaves.clear();
        self.max_used = 0;
        let start = After { me, opp };
        match (roll.low, roll.high) {
            (0, 0) => return,
            (0, d) => self.search(start, &[d], 0, d, BAR),
            (a, b) if a == b => self.search(start, &[a; 4], 0, a, BAR),
            (a, b) => {
                self.search(start, &[b, a], 0, b, BAR);
                self.search(start, &[a, b], 0, a, BAR);
            }
        }
        let max_used = self.max_used;
        if max_used == 0 {
            return;
        }
        let larger_only = max_used == 1
            && roll.low != roll.high
            && roll.low > 0
            && self
                .leaves
                .iter()
                .any(|l| l.used == 1 && l.first_die == roll.high);
        self.seen.clear();
        for leaf in &self.leaves {
            if leaf.used != max_used || (larger_only && leaf.first_die != roll.high) {
                continue;
            }
            if self.seen.insert(leaf.after) {
                out.push(leaf.after);
            }
        }
    }

    /// The plays of [`Search::plays_into`], each as the mover's rank after it (high 16
    /// bits) and the mask of the opponent's points it hits (low 8 bits, see
    /// [`Sides::hit_all`]), appended to `out`.
    pub fn hits_into(
        &mut self,
        me: u16,
        opp: u16,
        roll: Roll,
        plays: &mut Vec<After>,
        out: &mut Vec<u32>,
    ) {
        self.plays_into(me, opp, roll, plays);
        let before = self.sides.counts(opp);
        for after in plays.iter() {
            let now = self.sides.counts(after.opp);
            let hits = (1..BAR)
                .filter(|&q| before[q] != now[q])
                .fold(0u32, |m, q| m | 1 << (q - 1));
            out.push(u32::from(after.me) << 16 | hits);
        }
    }

    fn search(&mut self, at: After, dice: &[u8], used: usize, first_die: u8, highest: usize) {
        let Some(&die) = dice.get(used) else {
            self.leaf(at, used as u8, first_die);
            return;
        };
        let sides = self.sides;
        let top = if dice.len() == 4 { highest } else { BAR };
        let moves = &sides.moves[usize::from(at.me)][usize::from(die) - 1];
        let theirs = sides.counts(at.opp);
        let mut moved = false;
        for &(from, to, me) in &moves.list[..usize::from(moves.len)] {
            let (from, to) = (usize::from(from), usize::from(to));
            if from > top {
                continue;
            }
            let mut opp = at.opp;
            if to > 0 {
                match theirs[9 - to] {
                    0 => {}
                    1 => opp = sides.hit[usize::from(opp)][9 - to],
                    _ => continue, // a made point
                }
            }
            moved = true;
            let next = After { me, opp };
            if sides.counts(me)[0] == CHECKERS {
                // Bearing off the last checker ends the game: all dice count as used.
                self.leaf(next, dice.len() as u8, first_die);
            } else {
                self.search(next, dice, used + 1, first_die, from);
            }
        }
        if !moved {
            self.leaf(at, used as u8, first_die);
        }
    }

    fn leaf(&mut self, after: After, used: u8, first_die: u8) {
        if used < self.max_used {
            return;
        }
        if used > self.max_used {
            self.max_used = used;
            self.leaves.clear();
        }
        self.leaves.push(Leaf {
            after,
            used,
            first_die,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nikoniko::index::all_states;
    use crate::nikoniko::moves::Generator;
    use crate::nikoniko::Position;
    use rayon::prelude::*;

    #[test]
    fn the_rank_search_finds_the_generators_plays_in_its_order_for_every_state_and_roll() {
        let sides = Sides::new();
        let states = all_states();
        let checked: usize = states
            .par_chunks(4096)
            .map(|chunk| {
                let mut generator = Generator::new();
                let mut search = Search::new(&sides);
                let (mut plays, mut found) = (Vec::new(), Vec::new());
                for p in chunk {
                    let (me, opp) = (side_rank(&p.me), side_rank(&p.opp));
                    for (roll, _) in Roll::ALL {
                        generator.plays_into(p, roll, &mut plays);
                        search.plays_into(me, opp, roll, &mut found);
                        let expected: Vec<Position> = plays
                            .iter()
                            .filter(|play| !play.is_pass())
                            .map(|play| play.after)
                            .collect();
                        let got: Vec<Position> = found
                            .iter()
                            .map(|a| Position {
                                me: *sides.counts(a.me),
                                opp: *sides.counts(a.opp),
                            })
                            .collect();
                        assert_eq!(got, expected, "{p:?} {roll}");
                    }
                }
                chunk.len()
            })
            .sum();
        assert_eq!(checked as u64, crate::nikoniko::STATES);
    }

    #[test]
    fn ranks_round_trip_and_pips_match_the_board() {
        let sides = Sides::new();
        for r in 0..RANKS as u16 {
            let v = sides.counts(r);
            assert_eq!(side_rank(v), r);
            assert_eq!(sides.pips(r), crate::nikoniko::position::pips(v));
            assert_eq!(v.iter().map(|&c| u32::from(c)).sum::<u32>(), 5);
        }
    }
}
