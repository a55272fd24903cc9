//! The legal plays of any variant, on boards: every distinct position a roll can lead
//! to, with the checker steps of one way to get there (`docs/gammon.md`, "Rules").
//!
//! This generator tries every order of the dice and every checker, doubles included,
//! without the solver's pruning or its rank tables, so tests hold the two against each
//! other. The plays come in a fixed order: by the first die tried (the larger first),
//! then by the checkers moved, highest point first.

use super::{Position, Variant};
use serde::Serialize;

/// One checker moved by one die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Where it left, in the mover's numbering: a point, or `P + 1` for the bar.
    pub from: u8,
    /// Where it arrived: a point, or 0 for borne off.
    pub to: u8,
    /// Whether it hit a blot there.
    pub hit: bool,
}

/// A legal play: its steps and the position after them, the mover's side first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Play {
    /// The steps, in the order made (empty for a pass).
    pub steps: Vec<Step>,
    /// The position after the play, the mover's side first.
    pub after: Position,
}

impl Play {
    /// The steps as a backgammon player writes them (`24/18 13/8*`, `bar/22`, `3/off`).
    pub fn text(&self, points: usize) -> String {
        if self.steps.is_empty() {
            return "(no move)".to_string();
        }
        let loc = |l: u8| match usize::from(l) {
            0 => "off".to_string(),
            l if l == points + 1 => "bar".to_string(),
            l => l.to_string(),
        };
        self.steps
            .iter()
            .map(|s| {
                format!(
                    "{}/{}{}",
                    loc(s.from),
                    loc(s.to),
                    if s.hit { "*" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Checkers a side has borne off.
pub fn off(side: &[u8], checkers: usize) -> usize {
    checkers - side.iter().map(|&c| usize::from(c)).sum::<usize>()
}

/// Points won by the side that has just borne off its last checker against `loser`
/// (slots, see [`Position`]): 1; 2 when the loser has borne off none; 3 when, moreover,
/// one of its checkers is on its bar or in the winner's home board.
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

/// Every distinct legal play of the roll `(a, b)` from `position` (faces of the
/// variant's dice); a single pass (no step, the same position) when nothing can move.
pub fn plays(variant: &Variant, position: &Position, roll: (u8, u8)) -> Vec<Play> {
    let (low, high) = (roll.0.min(roll.1), roll.0.max(roll.1));
    let orders: Vec<Vec<u8>> = match (low, high) {
        (0, 0) => vec![],
        (0, d) => vec![vec![d]],
        (a, b) if a == b => vec![vec![a; 4]],
        (a, b) => vec![vec![b, a], vec![a, b]],
    };
    let mut leaves: Vec<(usize, u8, Play)> = Vec::new();
    let start = Play {
        steps: Vec::new(),
        after: position.clone(),
    };
    for dice in &orders {
        walk(variant, &start, dice, 0, dice[0], &mut leaves);
    }
    let most = leaves.iter().map(|l| l.0).max().unwrap_or(0);
    if most == 0 {
        return vec![start];
    }
    let larger_only =
        most == 1 && low != high && low > 0 && leaves.iter().any(|l| l.0 == 1 && l.1 == high);
    let mut out: Vec<Play> = Vec::new();
    for (used, first, play) in leaves {
        if used != most || (larger_only && first != high) {
            continue;
        }
        if !out.iter().any(|p| p.after == play.after) {
            out.push(play);
        }
    }
    out
}

/// Tries every checker for die `dice[used]`, recording each finished play with the dice
/// it used and the first die.
fn walk(
    variant: &Variant,
    at: &Play,
    dice: &[u8],
    used: usize,
    first: u8,
    leaves: &mut Vec<(usize, u8, Play)>,
) {
    let Some(&die) = dice.get(used) else {
        leaves.push((used, first, at.clone()));
        return;
    };
    let mut moved = false;
    for from in (1..=variant.points + 1).rev() {
        if let Some((after, step)) = step(variant, &at.after, from, die) {
            moved = true;
            let mut next = at.clone();
            next.steps.push(step);
            next.after = after;
            if off(next.after.us(), variant.checkers) == variant.checkers {
                leaves.push((dice.len(), first, next));
            } else {
                walk(variant, &next, dice, used + 1, first, leaves);
            }
        }
    }
    if !moved {
        leaves.push((used, first, at.clone()));
    }
}

/// One checker of the side on roll from location `from` (a point, or `P + 1` the bar) by
/// `die`, if the rules allow.
pub fn step(variant: &Variant, p: &Position, from: usize, die: u8) -> Option<(Position, Step)> {
    let points = variant.points;
    let bar = points + 1;
    let d = usize::from(die);
    let (mut us, mut them) = (p.us().to_vec(), p.them().to_vec());
    // Slot of location l (1..=bar) is l - 1.
    if d == 0 || from == 0 || from > bar || us[from - 1] == 0 {
        return None;
    }
    if us[bar - 1] > 0 && from != bar {
        return None; // the bar enters first
    }
    us[from - 1] -= 1;
    if from > d {
        let to = from - d;
        let theirs = bar - to; // the opponent's point
        let hit = match them[theirs - 1] {
            0 => false,
            1 => true,
            _ => return None,
        };
        if hit {
            them[theirs - 1] = 0;
            them[bar - 1] += 1;
        }
        us[to - 1] += 1;
        let after = Position::new(us, them).expect("same lengths");
        return Some((
            after,
            Step {
                from: from as u8,
                to: to as u8,
                hit,
            },
        ));
    }
    // Bearing off: every checker home or off, and a larger die only from the highest.
    let home = variant.home;
    if p.us()[home..bar].iter().any(|&c| c > 0) {
        return None;
    }
    if from < d && p.us()[from..home].iter().any(|&c| c > 0) {
        return None;
    }
    let after = Position::new(us, them).expect("same lengths");
    Some((
        after,
        Step {
            from: from as u8,
            to: 0,
            hit: false,
        },
    ))
}
