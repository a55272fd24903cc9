//! The legal plays of any variant: every distinct position a roll can lead to, with the
//! checker steps of one way to get there (`docs/gammon.md`, "A variant").
//!
//! This is the family's one move generator on positions; the solver runs the same rules
//! on side numbers with table lookups (`solver::sides`, tested against this one). The
//! plays come in a fixed order: by the first die tried (the larger first), then by the
//! checkers moved, highest point first; each distinct result once, with the first way
//! found to reach it.
//!
//! ```
//! use tabula::gammon::{moves::Generator, Roll, Variant};
//!
//! let nikoniko = Variant::parse("nikoniko").unwrap();
//! let opening = nikoniko.opening();
//! // The opening 1-2 has four distinct plays.
//! let plays = Generator::new(&nikoniko).plays(&opening, Roll::new(1, 2));
//! assert_eq!(plays.len(), 4);
//! assert_eq!(plays[0].text(8), "8/6 6/5");
//! ```

use super::{Position, Roll, Variant};
use serde::Serialize;
use std::fmt;

/// One checker moved by one die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Step {
    /// Where it left, in the mover's numbering: a point, or `P + 1` for the bar.
    pub from: u8,
    /// Where it arrived: a point, or 0 for borne off.
    pub to: u8,
    /// Whether it hit a blot there, sending it to the bar.
    pub hit: bool,
}

/// A legal play: its steps (at most four) and the position after them, still seen from
/// the side that moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
    /// The position after the play, the mover's side first.
    pub after: Position,
}

impl Play {
    /// The play that moves nothing from `p` (a pass).
    pub fn pass(p: &Position) -> Play {
        Play {
            steps: [Step::default(); 4],
            len: 0,
            after: *p,
        }
    }

    /// The steps, in the order made (empty for a pass).
    pub fn steps(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }

    /// True when no checker moved (a pass).
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }

    /// True when the play bears off the mover's last checker: the game is over.
    pub fn wins(&self) -> bool {
        self.after.us_in_play() == 0
    }

    /// The steps as a backgammon player writes them (`24/18 13/8*`, `bar/22`, `3/off`) on
    /// a board of `points` points; `(no move)` for a pass.
    pub fn text(&self, points: usize) -> String {
        PlayText(self, points).to_string()
    }

    /// Makes one more (legal) step.
    fn push(&mut self, step: Step, variant: &Variant) {
        self.steps[usize::from(self.len)] = step;
        self.len += 1;
        apply(variant, &mut self.after, step);
    }
}

struct PlayText<'a>(&'a Play, usize);

impl fmt::Display for PlayText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let PlayText(play, points) = *self;
        if play.is_pass() {
            return f.write_str("(no move)");
        }
        let loc = |f: &mut fmt::Formatter<'_>, l: u8| match usize::from(l) {
            0 => f.write_str("off"),
            l if l == points + 1 => f.write_str("bar"),
            l => write!(f, "{l}"),
        };
        for (k, s) in play.steps().iter().enumerate() {
            if k > 0 {
                f.write_str(" ")?;
            }
            loc(f, s.from)?;
            f.write_str("/")?;
            loc(f, s.to)?;
            if s.hit {
                f.write_str("*")?;
            }
        }
        Ok(())
    }
}

/// Checkers a side (slots, see [`Position`]) of `checkers` checkers has borne off.
pub fn off(side: &[u8], checkers: usize) -> usize {
    checkers - side.iter().map(|&c| usize::from(c)).sum::<usize>()
}

/// Points won by the side that has just borne off its last checker against `loser`
/// (slots): 1; 2 (a gammon) when the loser has borne off none; 3 (a backgammon) when,
/// moreover, one of its checkers is on its bar or in the winner's home board.
pub fn win_points(variant: &Variant, loser: &[u8]) -> u32 {
    let p = variant.points;
    if off(loser, variant.checkers) > 0 {
        1
    } else if loser[p - variant.home..=p].iter().any(|&c| c > 0) {
        3
    } else {
        2
    }
}

/// One checker of the side on roll from location `from` (a point, or `P + 1` the bar)
/// by `die`, if the rules allow: the bar enters first, no landing on two or more
/// opposing checkers, a blot is hit, bearing off only with every checker home and with a
/// larger die only from the highest point held.
pub fn step(variant: &Variant, p: &Position, from: usize, die: u8) -> Option<(Position, Step)> {
    let s = legal_step(variant, p, from, die)?;
    let mut after = *p;
    apply(variant, &mut after, s);
    Some((after, s))
}

/// The step of one checker from `from` by `die` if the rules allow it (see [`step`]),
/// without making it.
#[inline]
fn legal_step(variant: &Variant, p: &Position, from: usize, die: u8) -> Option<Step> {
    let bar = variant.points + 1;
    let d = usize::from(die);
    let us = p.us();
    // Slot of location l (1..=bar) is l - 1.
    if d == 0 || from == 0 || from > bar || us[from - 1] == 0 {
        return None;
    }
    if us[bar - 1] > 0 && from != bar {
        return None; // the bar enters first
    }
    if from > d {
        let to = from - d;
        let hit = match p.them()[bar - to - 1] {
            0 => false,
            1 => true,
            _ => return None, // a made point
        };
        return Some(Step {
            from: from as u8,
            to: to as u8,
            hit,
        });
    }
    // Bearing off: every checker home or off, and a larger die only from the highest.
    let home = variant.home;
    if us[home..bar].iter().any(|&c| c > 0) {
        return None;
    }
    if from < d && us[from..home].iter().any(|&c| c > 0) {
        return None;
    }
    Some(Step {
        from: from as u8,
        to: 0,
        hit: false,
    })
}

/// Makes a legal step on `p`.
#[inline]
fn apply(variant: &Variant, p: &mut Position, s: Step) {
    let bar = variant.points + 1;
    p.us_mut()[usize::from(s.from) - 1] -= 1;
    let to = usize::from(s.to);
    if to > 0 {
        if s.hit {
            let them = p.them_mut();
            them[bar - to - 1] = 0;
            them[bar - 1] += 1;
        }
        p.us_mut()[to - 1] += 1;
    }
}

/// The dice of `roll` in each order a search tries them, given to `search` one order at
/// a time: the larger die first, then the smaller; a double four times; a roll with one
/// face 0 its other die alone; nothing for a roll that cannot move. Both move searches
/// (this module's and the solver's on side numbers) walk the same orders.
pub(crate) fn for_each_order(roll: Roll, mut search: impl FnMut(&[u8])) {
    match (roll.low(), roll.high()) {
        (0, 0) => {}
        (0, d) => search(&[d]),
        (a, b) if a == b => search(&[a; 4]),
        (a, b) => {
            search(&[b, a]);
            search(&[a, b]);
        }
    }
}

/// The ends of a search's paths (plays of any form `T`), with the rule that picks the
/// legal ones: as many dice as can be used, and when only one of two different dice can
/// be, the larger if it can be. Shared by both move searches.
pub(crate) struct Leaves<T> {
    leaves: Vec<Leaf<T>>,
    max_used: u8,
}

#[derive(Clone, Copy)]
struct Leaf<T> {
    play: T,
    used: u8,
    first_die: u8,
}

impl<T: Copy> Leaves<T> {
    pub(crate) fn new() -> Self {
        Leaves {
            leaves: Vec::with_capacity(64),
            max_used: 0,
        }
    }

    /// Forgets every leaf, for the next roll.
    pub(crate) fn clear(&mut self) {
        self.leaves.clear();
        self.max_used = 0;
    }

    /// A path that ends after using `used` dice, the first of them `first_die`; kept only
    /// while no path has used more.
    #[inline]
    pub(crate) fn push(&mut self, play: T, used: u8, first_die: u8) {
        if used < self.max_used {
            return;
        }
        if used > self.max_used {
            self.max_used = used;
            self.leaves.clear();
        }
        self.leaves.push(Leaf {
            play,
            used,
            first_die,
        });
    }

    /// The most dice any path used.
    pub(crate) fn max_used(&self) -> u8 {
        self.max_used
    }

    /// The legal plays of `roll` among the leaves, in the order found (a play reached
    /// several ways comes several times).
    pub(crate) fn legal(&self, roll: Roll) -> impl Iterator<Item = T> + '_ {
        let (low, high) = (roll.low(), roll.high());
        let max_used = self.max_used;
        let larger_only = max_used == 1
            && low != high
            && low > 0
            && self
                .leaves
                .iter()
                .any(|l| l.used == 1 && l.first_die == high);
        self.leaves
            .iter()
            .filter(move |l| l.used == max_used && !(larger_only && l.first_die != high))
            .map(|l| l.play)
    }
}

/// A reusable generator of one variant's legal plays (keeps its buffers between calls).
pub struct Generator<'a> {
    variant: &'a Variant,
    leaves: Leaves<Play>,
    unpruned: bool,
}

impl<'a> Generator<'a> {
    /// A generator of `variant`'s plays.
    pub fn new(variant: &'a Variant) -> Self {
        Generator {
            variant,
            leaves: Leaves::new(),
            unpruned: false,
        }
    }

    /// A generator that tries every order of the dice and of the checkers, doubles
    /// included: slower, and kept as the reference the pruned search is tested against.
    pub fn unpruned(variant: &'a Variant) -> Self {
        Generator {
            unpruned: true,
            ..Generator::new(variant)
        }
    }

    /// Every distinct legal play of `roll` from `p`; a single pass (no step, the same
    /// position) when nothing can move.
    pub fn plays(&mut self, p: &Position, roll: Roll) -> Vec<Play> {
        let mut out = Vec::new();
        self.plays_into(p, roll, &mut out);
        out
    }

    /// As [`Generator::plays`], into `out` (cleared first).
    pub fn plays_into(&mut self, p: &Position, roll: Roll, out: &mut Vec<Play>) {
        out.clear();
        self.leaves.clear();
        let start = Play::pass(p);
        let bar = self.variant.points + 1;
        for_each_order(roll, |dice| self.search(start, dice, 0, dice[0], bar));
        for play in self.leaves.legal(roll) {
            if !out.iter().any(|o: &Play| o.after == play.after) {
                out.push(play);
            }
        }
        if out.is_empty() {
            out.push(start);
        }
    }

    /// Plays out `dice[used..]` from `play`. With doubles, the checkers are taken in
    /// non-increasing order of where they start (`highest`): every play of equal dice can
    /// be reordered so (the bar enters first, a checker moved on may move again, and
    /// bearing off only gets easier once higher checkers have moved), and the first way
    /// to reach each position in the search's order is such a play, so no position is
    /// lost, none is reached another way first, and each is reached far fewer times.
    fn search(&mut self, play: Play, dice: &[u8], used: usize, first_die: u8, highest: usize) {
        let Some(&die) = dice.get(used) else {
            self.leaves.push(play, used as u8, first_die);
            return;
        };
        let variant = self.variant;
        let top = if dice.len() == 4 && !self.unpruned {
            highest
        } else {
            variant.points + 1
        };
        let mut moved = false;
        for from in (1..=top).rev() {
            if let Some(s) = legal_step(variant, &play.after, from, die) {
                moved = true;
                let mut next = play;
                next.push(s, variant);
                if s.to == 0 && next.wins() {
                    // Bearing off the last checker ends the game: all dice count as used.
                    self.leaves.push(next, dice.len() as u8, first_die);
                } else {
                    self.search(next, dice, used + 1, first_die, from);
                }
            }
        }
        if !moved {
            self.leaves.push(play, used as u8, first_die);
        }
    }
}

/// Every distinct legal play of `roll` from `p` (see [`Generator::plays`]).
pub fn plays(variant: &Variant, p: &Position, roll: Roll) -> Vec<Play> {
    Generator::new(variant).plays(p, roll)
}

/// Counts over a set of positions of the plays of one roll.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RollStats {
    /// The roll.
    pub roll: Roll,
    /// Distinct legal plays, summed over the positions (a pass counts as one).
    pub plays: u64,
    /// Positions where the roll passes.
    pub passes: u64,
    /// Plays that bear off the last checker.
    pub wins: u64,
}

impl RollStats {
    /// The counts of two sets of positions together, roll by roll (either may be absent).
    pub fn merge(a: Option<Vec<RollStats>>, b: Option<Vec<RollStats>>) -> Option<Vec<RollStats>> {
        match (a, b) {
            (Some(mut a), Some(b)) => {
                for (x, y) in a.iter_mut().zip(b) {
                    x.plays += y.plays;
                    x.passes += y.passes;
                    x.wins += y.wins;
                }
                Some(a)
            }
            (a, None) => a,
            (None, b) => b,
        }
    }
}

/// Generates the plays of each of the variant's distinct rolls (the idle `0-0` first
/// when its dice have a 0) for every position of `positions`, in parallel on the current
/// rayon pool, and counts them.
pub fn play_statistics(variant: &Variant, positions: &[Position]) -> Vec<RollStats> {
    use rayon::prelude::*;
    let rolls: Vec<Roll> = variant
        .faces
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| variant.faces[i..].iter().map(move |&b| Roll::new(a, b)))
        .collect();
    let empty: Vec<RollStats> = rolls
        .iter()
        .map(|&roll| RollStats {
            roll,
            ..RollStats::default()
        })
        .collect();
    positions
        .par_chunks(4096)
        .map(|chunk| {
            let mut generator = Generator::new(variant);
            let mut plays = Vec::new();
            let mut stats = empty.clone();
            for p in chunk {
                for s in stats.iter_mut() {
                    generator.plays_into(p, s.roll, &mut plays);
                    s.plays += plays.len() as u64;
                    s.passes += u64::from(plays[0].is_pass());
                    s.wins += plays.iter().filter(|m| m.wins()).count() as u64;
                }
            }
            stats
        })
        .reduce(
            || empty.clone(),
            |a, b| RollStats::merge(Some(a), Some(b)).expect("both present"),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hyper(c: usize) -> Variant {
        Variant::parse(&format!("hyper{c}")).unwrap()
    }

    #[test]
    fn a_checker_on_the_bar_enters_before_any_other_moves() {
        let v = hyper(2);
        // Ours on the bar and on 13; theirs on their 24 and 23 (our 1 and 2).
        let mut us = vec![0u8; 25];
        us[24] = 1;
        us[12] = 1;
        let mut them = vec![0u8; 25];
        them[23] = 1;
        them[22] = 1;
        let p = Position::new(&us, &them).unwrap();
        let plays = plays(&v, &p, Roll::new(6, 5));
        assert!(plays.iter().all(|m| m.steps()[0].from == 25), "{plays:?}");
        assert_eq!(plays[0].text(24), "bar/19 19/14");
    }

    #[test]
    fn bearing_off_the_last_checker_ends_the_play_whatever_dice_are_left() {
        // NikoNiko: our last checker on point 2. Bearing it off with the 2, or 2/1 and
        // 1/off, end the game alike: one play, found with the larger die first.
        let v = Variant::parse("nikoniko").unwrap();
        let p = Position::new(&[0, 1, 0, 0, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        let plays = plays(&v, &p, Roll::new(1, 2));
        assert_eq!(plays.len(), 1);
        assert!(plays[0].wins());
        assert_eq!(plays[0].text(8), "2/off");
    }

    #[test]
    fn the_pruned_search_finds_the_unpruned_plays_in_the_same_order_with_the_same_steps() {
        // Every position of Hypergammon-2 whose side on roll has a checker on one of the
        // points 1..=8 or the bar (the doubles that matter: hits, bearing off, entering).
        let v = hyper(2);
        let index = v.hyper_index().unwrap();
        let rolls = v.rolls();
        let mut compared = 0;
        for record in (0..index.records()).step_by(7) {
            let p = index.position(record).unwrap();
            if super::super::notation::check(&v, &p).is_err() {
                continue;
            }
            for &roll in rolls.moving.iter().filter(|r| r.is_double()) {
                let pruned = Generator::new(&v).plays(&p, roll);
                let all = Generator::unpruned(&v).plays(&p, roll);
                assert_eq!(pruned, all, "{p:?} {roll}");
                compared += 1;
            }
        }
        assert!(compared > 50_000, "{compared}");
    }
}
