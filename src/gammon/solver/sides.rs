//! The legal plays of any variant on side ranks: the solver's graph needs the successors
//! of every state for every roll (15.6 million for NikoNiko, hundreds of millions for
//! Hypergammon-3), and this search makes them with table lookups.
//!
//! A side is its rank among the `C(P + 1 + C, C)` count vectors, in gnubg's stars-and-bars
//! order ([`crate::gammon::HyperIndex`]). Every move of one checker of one side, with its
//! own constraints (the bar enters first, bearing off), is precomputed from rank to rank,
//! and so is a hit. The search tries the dice in a fixed order — the larger die first, then
//! the smaller; doubles with the checkers taken from the highest down, so that each set of
//! moves is tried once — and keeps the plays that use the most dice (the larger die when
//! only one of two can be used), each distinct result once, in the order first found. A
//! test holds it to an independent generator on boards over every state and roll.

use crate::gammon::moves::{for_each_order, Leaves};
use crate::gammon::variant::Variant;
use crate::gammon::{HyperIndex, Roll};

/// Locations of a side: 0 off, `1..=P` points, `P + 1` the bar; room for 24 points.
pub const LOCATIONS: usize = crate::gammon::variant::MAX_POINTS + 2;

/// A side's checker counts per location (see [`LOCATIONS`]); slots past the bar are 0.
pub type Side = [u8; LOCATIONS];

/// No move: the checker cannot make it.
const NO: u16 = u16::MAX;

/// Rank-to-rank tables of one side's moves, for one variant.
pub struct Sides {
    index: HyperIndex,
    points: usize,
    checkers: u8,
    counts: Vec<Side>,
    /// `moves[r * faces + f]`: the moves of one checker by face `f` (the variant's
    /// nonzero faces, ascending) the side with rank `r` can make, the opponent not looked
    /// at, highest `from` first: `(from, to, rank after)`, `to` = 0 for off.
    moves: Vec<Vec<(u8, u8, u16)>>,
    /// Nonzero faces, and `slot_of[die]`: a face's place among them, ascending.
    face_count: usize,
    slot_of: [usize; crate::gammon::variant::MAX_FACE as usize + 1],
    /// `hit[r * LOCATIONS + q]`: the side after its checker on point `q` is hit.
    hit: Vec<u16>,
    pips: Vec<u16>,
    /// `win_points[r]`: what a side that bears off its last checker wins against the side
    /// with rank `r` (0 when that side has no checker in play).
    win_points: Vec<u8>,
    /// Per rank, in the side's own numbering: its made points, its blots (see
    /// [`Sides::view`]).
    made: Vec<u32>,
    blots: Vec<u32>,
    /// Per rank: the points it could land on (below its highest checker), as a mask in
    /// the opponent's numbering.
    reach: Vec<u32>,
}

impl Sides {
    /// The tables of `variant` (checked by [`Variant::check`]; at most 65,535 sides).
    pub fn new(variant: &Variant) -> Sides {
        let p = variant.points;
        let index = HyperIndex::new(p, variant.checkers).expect("a checked variant");
        let n = index.sides() as usize;
        assert!(n < usize::from(NO), "sides are numbered in 16 bits");
        let mut slots = vec![0u8; p + 1];
        let counts: Vec<Side> = (0..n as u64)
            .map(|r| {
                index.side_into(r, &mut slots).expect("in range");
                let mut side = [0u8; LOCATIONS];
                side[1..=p + 1].copy_from_slice(&slots);
                side[0] = variant.checkers as u8 - slots.iter().sum::<u8>();
                side
            })
            .collect();
        let rank_of = |v: &Side| index.side_rank(&v[1..=p + 1]).expect("a side") as u16;
        let faces: Vec<u8> = variant.nonzero_faces();
        let mut slot_of = [usize::MAX; crate::gammon::variant::MAX_FACE as usize + 1];
        for (f, &die) in faces.iter().enumerate() {
            slot_of[usize::from(die)] = f;
        }
        let home = variant.home;
        let moves = counts
            .iter()
            .flat_map(|me| {
                faces.iter().map(move |&die| {
                    (1..=p + 1)
                        .rev()
                        .filter_map(|from| {
                            own_step(me, p, home, from, die).map(|after| {
                                let to = from.saturating_sub(usize::from(die)) as u8;
                                (from as u8, to, rank_of(&after))
                            })
                        })
                        .collect()
                })
            })
            .collect();
        let mut hit = vec![NO; n * LOCATIONS];
        for (r, v) in counts.iter().enumerate() {
            for q in 1..=p {
                if v[q] == 1 {
                    let mut after = *v;
                    after[q] = 0;
                    after[p + 1] += 1;
                    hit[r * LOCATIONS + q] = rank_of(&after);
                }
            }
        }
        let pips = counts.iter().map(|v| pips(v, p) as u16).collect();
        let win_points = counts
            .iter()
            .map(|opp| win_score(opp, p, home, variant.checkers as u8) as u8)
            .collect();
        let mask = |v: &Side, keep: fn(u8) -> bool| {
            (1..=p)
                .filter(|&q| keep(v[q]))
                .fold(0u32, |m, q| m | 1 << (q - 1))
        };
        let made = counts.iter().map(|v| mask(v, |c| c >= 2)).collect();
        let blots = counts.iter().map(|v| mask(v, |c| c == 1)).collect();
        let reach = counts
            .iter()
            .map(|v| {
                let top = (0..=p + 1).rev().find(|&l| v[l] > 0).unwrap_or(0);
                // My points 1..top (exclusive), the opponent's P + 1 - to.
                (1..top.min(p + 1)).fold(0u32, |m, to| m | 1 << (p - to))
            })
            .collect();
        Sides {
            made,
            blots,
            reach,
            index,
            points: p,
            checkers: variant.checkers as u8,
            counts,
            moves,
            face_count: faces.len(),
            slot_of,
            hit,
            pips,
            win_points,
        }
    }

    /// Number of sides.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Points on the board.
    pub fn points(&self) -> usize {
        self.points
    }

    /// The bar's location.
    #[inline]
    pub fn bar(&self) -> usize {
        self.points + 1
    }

    /// Whether the side with rank `r` has borne off every checker.
    #[inline]
    pub fn all_off(&self, r: u16) -> bool {
        self.counts(r)[0] == self.checkers
    }

    /// The checker counts of the side with rank `r`.
    #[inline]
    pub fn counts(&self, r: u16) -> &Side {
        &self.counts[usize::from(r)]
    }

    /// The rank of a side's counts.
    pub fn rank(&self, side: &Side) -> u16 {
        self.index
            .side_rank(&side[1..=self.points + 1])
            .expect("a side") as u16
    }

    /// How the opponent `opp` looks to the side `me` on roll, as far as its plays go: the
    /// points `me` could land on (below its highest checker) that `opp` has made (two
    /// checkers or more), as a mask in the opponent's numbering (bit `q - 1` for its point
    /// `q`). Against two opponents with the same view `me` has the same plays, but for
    /// which blots they hit.
    #[inline]
    pub fn view(&self, me: u16, opp: u16) -> u32 {
        self.made[usize::from(opp)] & self.reach[usize::from(me)]
    }

    /// The opponent's blots: bit `q - 1` for each of its points `q` with one checker.
    #[inline]
    pub fn blots(&self, r: u16) -> u32 {
        self.blots[usize::from(r)]
    }

    /// The side with rank `r` after its blots on the points of bit mask `hits` (bit
    /// `q - 1` for point `q`) are hit.
    #[inline]
    pub fn hit_all(&self, r: u16, hits: u32) -> u16 {
        let mut r = r;
        let mut bits = hits;
        while bits != 0 {
            let q = bits.trailing_zeros() as usize + 1;
            r = self.hit[usize::from(r) * LOCATIONS + q];
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

    /// The moves of one checker of side `r` by the nonzero face `die`.
    #[inline]
    fn moves(&self, r: u16, die: u8) -> &[(u8, u8, u16)] {
        &self.moves[usize::from(r) * self.face_count + self.slot_of[usize::from(die)]]
    }
}

/// Pip count of a side on `points` points (a checker on the bar counts `points + 1`).
pub fn pips(v: &Side, points: usize) -> u32 {
    (1..=points + 1).map(|l| l as u32 * u32::from(v[l])).sum()
}

/// What the side that just bore off its last checker wins against `loser`: 1; 2 when the
/// loser has borne off none; 3 when, moreover, a loser's checker is on its bar or in the
/// winner's home board (the loser's points `P + 1 - H ..= P`). 0 when the loser has
/// borne off everything (no game).
pub fn win_score(loser: &Side, points: usize, home: usize, checkers: u8) -> u32 {
    if loser[0] == checkers {
        0
    } else if loser[0] > 0 {
        1
    } else if loser[points + 1 - home..=points + 1].iter().any(|&c| c > 0) {
        3
    } else {
        2
    }
}

/// One checker of `me` from `from` by `die`, under the side's own constraints only (the
/// bar enters first; bearing off needs every checker home, and a larger die only takes the
/// highest checker).
fn own_step(me: &Side, points: usize, home: usize, from: usize, die: u8) -> Option<Side> {
    let d = usize::from(die);
    let bar = points + 1;
    if from == 0 || me[from] == 0 || (me[bar] > 0 && from != bar) {
        return None;
    }
    let mut after = *me;
    after[from] -= 1;
    if from > d {
        after[from - d] += 1;
        return Some(after);
    }
    if me[home + 1..=bar].iter().any(|&c| c > 0)
        || (from < d && me[from + 1..=home].iter().any(|&c| c > 0))
    {
        return None;
    }
    after[0] += 1;
    Some(after)
}

/// A play found by [`Search`]: both sides' ranks after it, the mover first.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct After {
    pub me: u16,
    pub opp: u16,
}

/// A play as the search finds it: the mover's rank after it (high 32 bits) and the
/// opponent's points it landed on (low 32 bits, bit `q - 1` for the opponent's point
/// `q`): the blots among them are hit.
pub type Landing = u64;

/// A reusable search (keeps its buffers between calls).
pub struct Search<'a> {
    sides: &'a Sides,
    leaves: Leaves<Landing>,
    seen: Seen,
    #[cfg(test)]
    found: Vec<Landing>,
}

/// A set of plays found (an open-addressing table stamped per search, so that it never
/// needs clearing).
pub struct Seen {
    keys: Vec<u64>,
    stamps: Vec<u32>,
    now: u32,
}

impl Default for Seen {
    fn default() -> Self {
        Self::new()
    }
}

impl Seen {
    /// Slots: a power of two well above the plays of any roll.
    const SLOTS: usize = 1 << 12;

    /// An empty set.
    pub fn new() -> Seen {
        Seen {
            keys: vec![0; Self::SLOTS],
            stamps: vec![0; Self::SLOTS],
            now: 0,
        }
    }

    /// Forgets every play.
    #[inline]
    pub fn clear(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamps.fill(0);
            self.now = 1;
        }
    }

    /// Adds a key; false when it was there already.
    #[inline]
    pub fn insert(&mut self, key: u64) -> bool {
        let mut h = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize;
        loop {
            if self.stamps[h] != self.now {
                self.stamps[h] = self.now;
                self.keys[h] = key;
                return true;
            }
            if self.keys[h] == key {
                return false;
            }
            h = (h + 1) & (Self::SLOTS - 1);
        }
    }
}

impl<'a> Search<'a> {
    pub fn new(sides: &'a Sides) -> Search<'a> {
        Search {
            sides,
            leaves: Leaves::new(),
            seen: Seen::new(),
            #[cfg(test)]
            found: Vec::new(),
        }
    }

    /// The distinct plays of the roll `(low, high)` for the side `me` against an opponent
    /// whose made points are `made` (a mask in its numbering, see [`Sides::view`]), as
    /// [`Landing`]s, appended to `out` in the search's order (each distinct landing once).
    /// Appends nothing when the roll passes.
    pub fn landings_into(&mut self, me: u16, made: u32, roll: Roll, out: &mut Vec<Landing>) {
        self.leaves.clear();
        let bar = self.sides.bar();
        let start = u64::from(me) << 32;
        for_each_order(roll, |dice| self.search(start, made, dice, 0, dice[0], bar));
        if self.leaves.max_used() == 0 {
            return;
        }
        self.seen.clear();
        for play in self.leaves.legal(roll) {
            if self.seen.insert(play) {
                out.push(play);
            }
        }
    }

    /// The distinct plays of the roll for the side `me` against `opp` (ranks), in the
    /// search's order, into `out`. Leaves `out` empty when the roll passes.
    #[cfg(test)]
    pub fn plays_into(&mut self, me: u16, opp: u16, roll: Roll, out: &mut Vec<After>) {
        out.clear();
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        self.landings_into(me, self.sides.made[usize::from(opp)], roll, &mut found);
        let blots = self.sides.blots(opp);
        self.seen.clear();
        for &play in &found {
            let after = After {
                me: (play >> 32) as u16,
                opp: self.sides.hit_all(opp, play as u32 & blots),
            };
            if self
                .seen
                .insert(u64::from(after.me) << 16 | u64::from(after.opp))
            {
                out.push(after);
            }
        }
        self.found = found;
    }

    fn search(
        &mut self,
        at: Landing,
        made: u32,
        dice: &[u8],
        used: usize,
        first_die: u8,
        highest: usize,
    ) {
        let Some(&die) = dice.get(used) else {
            self.leaves.push(at, used as u8, first_die);
            return;
        };
        let sides = self.sides;
        let p = sides.points;
        let top = if dice.len() == 4 { highest } else { p + 1 };
        let me = (at >> 32) as u16;
        let mut moved = false;
        for &(from, to, after) in sides.moves(me, die) {
            let (from, to) = (usize::from(from), usize::from(to));
            if from > top {
                continue;
            }
            let mut landed = at as u32;
            if to > 0 {
                // The opponent's point P + 1 - to.
                let bit = 1u32 << (p - to);
                if made & bit != 0 {
                    continue; // a made point
                }
                landed |= bit;
            }
            moved = true;
            let next = u64::from(after) << 32 | u64::from(landed);
            if sides.all_off(after) {
                // Bearing off the last checker ends the game: all dice count as used.
                self.leaves.push(next, dice.len() as u8, first_die);
            } else {
                self.search(next, made, dice, used + 1, first_die, from);
            }
        }
        if !moved {
            self.leaves.push(at, used as u8, first_die);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::{moves, Position};
    use rayon::prelude::*;

    fn position(sides: &Sides, me: u16, opp: u16) -> Position {
        let p = sides.points();
        Position::new(&sides.counts(me)[1..=p + 1], &sides.counts(opp)[1..=p + 1]).unwrap()
    }

    /// Every `step`-th state of `name`: the rank search finds the board generator's plays,
    /// in the generator's order, for every roll. Returns the (state, roll) pairs checked.
    fn search_matches_the_board_generator(name: &str, step: usize) -> usize {
        let variant = crate::gammon::Variant::parse(name).unwrap();
        let sides = Sides::new(&variant);
        let states = crate::gammon::solver::states(&variant, &sides).unwrap();
        let rolls = variant.rolls();
        states
            .par_chunks(512)
            .map(|chunk| {
                let mut search = Search::new(&sides);
                let mut generator = moves::Generator::new(&variant);
                let (mut found, mut plays) = (Vec::new(), Vec::new());
                let mut checked = 0;
                for &(me, opp) in chunk.iter().step_by(step) {
                    let board = position(&sides, me, opp);
                    for &roll in &rolls.moving {
                        search.plays_into(me, opp, roll, &mut found);
                        let got: Vec<Position> = found
                            .iter()
                            .map(|a| position(&sides, a.me, a.opp))
                            .collect();
                        generator.plays_into(&board, roll, &mut plays);
                        let expected: Vec<Position> = plays
                            .iter()
                            .filter(|p| !p.is_pass())
                            .map(|p| p.after)
                            .collect();
                        assert_eq!(got, expected, "{board:?} {roll}");
                        checked += 1;
                    }
                }
                checked
            })
            .sum()
    }

    #[test]
    fn the_rank_search_agrees_with_the_board_generator_on_every_hyper1_state() {
        // 652 legal records, less the 51 where a side has finished.
        assert_eq!(search_matches_the_board_generator("hyper1", 1), 601 * 21);
    }

    #[test]
    fn the_rank_search_agrees_with_the_board_generator_on_a_board_with_a_zero_face() {
        let checked =
            search_matches_the_board_generator("points=10:checkers=2:faces=0-3:home=3", 1);
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn the_rank_search_agrees_with_the_board_generator_on_sampled_hyper2_states() {
        let checked = search_matches_the_board_generator("hyper2", 41);
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn the_rank_search_agrees_with_the_board_generator_on_every_nikoniko_state_and_roll() {
        // 1,106,945 states, 5 rolls that move.
        assert_eq!(
            search_matches_the_board_generator("nikoniko", 1),
            5 * 1_106_945
        );
    }

    #[test]
    fn ranks_round_trip_and_pips_and_wins_match_the_board() {
        let variant = crate::gammon::Variant::built_in("hyper3").unwrap();
        let sides = Sides::new(&variant);
        assert_eq!(sides.len(), 3276);
        for r in 0..sides.len() as u16 {
            let v = sides.counts(r);
            assert_eq!(sides.rank(v), r);
            let slots = &v[1..=25];
            assert_eq!(
                sides.pips(r),
                (1..=25u32)
                    .map(|l| l * u32::from(v[l as usize]))
                    .sum::<u32>()
            );
            assert_eq!(v.iter().map(|&c| u32::from(c)).sum::<u32>(), 3);
            if !sides.all_off(r) {
                assert_eq!(
                    sides.win_points(r),
                    moves::win_points(&variant, slots),
                    "{v:?}"
                );
            }
        }
    }
}
