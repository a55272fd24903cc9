//! Legal plays: every distinct position a roll can lead to, under the rules of `docs/nikoniko.md`.

use super::position::{Position, BAR, CHECKERS};
use super::Roll;
use std::fmt;

/// One checker moved by one die: from a location to a location (0 = off), hitting or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Step {
    /// The location moved from, in the mover's numbering: 1–8 a point, 9 the bar.
    pub from: u8,
    /// The location moved to, in the mover's numbering: 0 borne off, 1–8 a point.
    pub to: u8,
    /// Whether the step hit an opposing blot on `to`, sending it to the bar.
    pub hit: bool,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let loc = |l: u8| match l {
            0 => "off".to_string(),
            9 => "bar".to_string(),
            p => p.to_string(),
        };
        write!(f, "{}/{}", loc(self.from), loc(self.to))?;
        if self.hit {
            write!(f, "*")?;
        }
        Ok(())
    }
}

/// A legal play: the checker steps (at most four) and the position after them, still
/// seen from the side that moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
    /// The position after the play, the mover's side first.
    pub after: Position,
}

impl Play {
    /// The steps, in the order they were made.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }

    /// True when no checker moved (a pass).
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }

    /// True when the play bears off the mover's last checker.
    pub fn wins(&self) -> bool {
        self.after.me[0] == CHECKERS
    }

    /// Points won by this play when it ends the game: 1, 2 (gammon: the loser has borne
    /// off none) or 3 (backgammon: moreover a loser's checker on its bar or in the winner's
    /// home board, the loser's points 7 and 8). 0 when the game goes on.
    pub fn score(&self) -> u32 {
        win_score(&self.after)
    }
}

/// Points won by the side that just moved in `after` (see [`Play::score`]).
pub fn win_score(after: &Position) -> u32 {
    if after.me[0] != CHECKERS {
        0
    } else if after.opp[0] > 0 {
        1
    } else if after.opp[BAR] + after.opp[7] + after.opp[8] > 0 {
        3
    } else {
        2
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return write!(f, "(no move)");
        }
        let words: Vec<String> = self.steps().iter().map(|s| s.to_string()).collect();
        write!(f, "{}", words.join(" "))
    }
}

/// Moves one checker of the side on roll from `from` by `die` pips, if the rules allow.
pub fn step(p: &Position, from: usize, die: u8) -> Option<(Position, Step)> {
    let d = usize::from(die);
    if d == 0 || p.me[from] == 0 || from == 0 {
        return None;
    }
    if p.me[BAR] > 0 && from != BAR {
        return None; // the bar enters first
    }
    let mut q = *p;
    q.me[from] -= 1;
    if from > d {
        let to = from - d;
        let theirs = 9 - to;
        let hit = match q.opp[theirs] {
            0 => false,
            1 => true,
            _ => return None, // a made point
        };
        if hit {
            q.opp[theirs] = 0;
            q.opp[BAR] += 1;
        }
        q.me[to] += 1;
        return Some((
            q,
            Step {
                from: from as u8,
                to: to as u8,
                hit,
            },
        ));
    }
    // Bearing off: all checkers home (points 1 and 2) or off.
    if p.me[3..=BAR].iter().any(|&c| c > 0) {
        return None;
    }
    // With a larger die only from the highest point held.
    if from < d && p.me[from + 1..=2].iter().any(|&c| c > 0) {
        return None;
    }
    q.me[0] += 1;
    Some((
        q,
        Step {
            from: from as u8,
            to: 0,
            hit: false,
        },
    ))
}

/// A reusable generator of legal plays (keeps its buffers between calls).
#[derive(Default)]
pub struct Generator {
    leaves: Vec<Leaf>,
    max_used: u8,
    unpruned: bool,
}

#[derive(Clone, Copy)]
struct Leaf {
    play: Play,
    used: u8,
    first_die: u8,
}

impl Generator {
    /// A generator with the pruned search (the same as [`Generator::default`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// A generator that tries every order of the dice, doubles included: slower, and
    /// kept as the reference the pruned search is tested against.
    pub fn unpruned() -> Self {
        Generator {
            unpruned: true,
            ..Self::default()
        }
    }

    /// Every distinct legal play of `roll` from `p`, in a fixed order; a single pass (no
    /// step, the same position) when nothing can move.
    pub fn plays(&mut self, p: &Position, roll: Roll) -> Vec<Play> {
        let mut out = Vec::new();
        self.plays_into(p, roll, &mut out);
        out
    }

    /// As [`Generator::plays`], into `out` (cleared first).
    pub fn plays_into(&mut self, p: &Position, roll: Roll, out: &mut Vec<Play>) {
        out.clear();
        self.leaves.clear();
        self.max_used = 0;
        let empty = Play {
            steps: [Step::default(); 4],
            len: 0,
            after: *p,
        };
        match (roll.low, roll.high) {
            (0, 0) => {}
            (0, d) => self.search(empty, &[d], 0, d, BAR),
            (a, b) if a == b => self.search(empty, &[a; 4], 0, a, BAR),
            (a, b) => {
                self.search(empty, &[b, a], 0, b, BAR);
                self.search(empty, &[a, b], 0, a, BAR);
            }
        }
        let max_used = self.max_used;
        // With one die of 1-2 usable, the larger must be played if it can be.
        let larger_only = max_used == 1
            && roll.low != roll.high
            && roll.low > 0
            && self
                .leaves
                .iter()
                .any(|l| l.used == 1 && l.first_die == roll.high);
        for leaf in &self.leaves {
            if leaf.used != max_used || (larger_only && leaf.first_die != roll.high) {
                continue;
            }
            if !out.iter().any(|o: &Play| o.after == leaf.play.after) {
                out.push(leaf.play);
            }
        }
        if out.is_empty() {
            out.push(empty);
        }
    }

    /// Plays out `dice[used..]` from `play`. With doubles, the checkers are taken in
    /// non-increasing order of where they start (`highest`): every play of equal dice can
    /// be reordered so (the bar enters first, a checker moved on may move again, and
    /// bearing off only gets easier once higher checkers have moved), so no position is
    /// lost and each is reached far fewer times.
    fn search(&mut self, play: Play, dice: &[u8], used: usize, first_die: u8, highest: usize) {
        let Some(&die) = dice.get(used) else {
            self.leaf(play, used as u8, first_die);
            return;
        };
        let mut moved = false;
        let p = play.after;
        let doubles = dice.len() == 4;
        let top = if doubles && !self.unpruned {
            highest
        } else {
            BAR
        };
        for from in (1..=top).rev() {
            if let Some((after, s)) = step(&p, from, die) {
                moved = true;
                let mut next = play;
                next.steps[used] = s;
                next.len += 1;
                next.after = after;
                if after.me[0] == CHECKERS {
                    // Bearing off the last checker ends the game: all dice count as used.
                    self.leaf(next, dice.len() as u8, first_die);
                } else {
                    self.search(next, dice, used + 1, first_die, from);
                }
            }
        }
        if !moved {
            self.leaf(play, used as u8, first_die);
        }
    }

    fn leaf(&mut self, play: Play, used: u8, first_die: u8) {
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
}

/// Counts over every state of the plays of one roll.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RollStats {
    /// Distinct legal plays, summed over the states (a pass counts as one).
    pub plays: u64,
    /// States where the roll passes.
    pub passes: u64,
    /// Plays that bear off the last checker.
    pub wins: u64,
}

/// Generates the plays of each of the 6 distinct rolls for every state (in parallel on
/// the current rayon pool) and counts them, in the order of [`Roll::ALL`].
pub fn play_statistics(states: &[Position]) -> [RollStats; 6] {
    use rayon::prelude::*;
    states
        .par_chunks(4096)
        .map(|chunk| {
            let mut generator = Generator::new();
            let mut plays = Vec::new();
            let mut stats = [RollStats::default(); 6];
            for p in chunk {
                for (k, (roll, _)) in Roll::ALL.iter().enumerate() {
                    generator.plays_into(p, *roll, &mut plays);
                    stats[k].plays += plays.len() as u64;
                    stats[k].passes += u64::from(plays[0].is_pass());
                    stats[k].wins += plays.iter().filter(|m| m.wins()).count() as u64;
                }
            }
            stats
        })
        .reduce(
            || [RollStats::default(); 6],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x.plays += y.plays;
                    x.passes += y.passes;
                    x.wins += y.wins;
                }
                a
            },
        )
}
