//! An independent computation of match play for the tests: plain value iteration on
//! boards with the board move generator, match-winning chances directly (no match
//! equities), every cube value up to a cap with both owners (no dead level assumed), the
//! Crawford rule and the opening roll written out again, the scores solved by recursion.

use crate::gammon::{moves, notation, Position, Roll, Variant};
use std::collections::HashMap;

/// Every position with play left, the index of each, and for each position and moving
/// roll its plays: a position index (the opponent on roll) or a win of so many points.
pub struct Boards {
    pub all: Vec<Position>,
    pub at: HashMap<Position, usize>,
    succ: Vec<Vec<Vec<Result<usize, u32>>>>,
    rolls: Vec<Roll>,
    idle: u32,
    denominator: u32,
    opening: usize,
}

impl Boards {
    pub fn new(variant: &Variant) -> Boards {
        let index = variant.hyper_index().unwrap();
        let all: Vec<Position> = (0..index.records())
            .map(|r| index.position(r).unwrap())
            .filter(|p| notation::check(variant, p).is_ok())
            .collect();
        let at: HashMap<Position, usize> = all.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let rolls = variant.rolls();
        let succ = all
            .iter()
            .map(|p| {
                rolls
                    .moving
                    .iter()
                    .map(|&roll| {
                        moves::plays(variant, p, roll)
                            .into_iter()
                            .filter(|m| !m.is_pass())
                            .map(|m| {
                                if m.wins() {
                                    Err(moves::win_points(variant, m.after.them()))
                                } else {
                                    Ok(at[&m.after.swapped()])
                                }
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let opening = at[&variant.opening()];
        Boards {
            all,
            at,
            succ,
            rolls: rolls.moving,
            idle: rolls.idle,
            denominator: rolls.denominator,
            opening,
        }
    }
}

/// A cube as the side on roll sees it: value, and owner (0 centred, 1 mine, 2 theirs).
type Cube = (u32, u8);

/// The match of a variant solved naively, score by score, memoised.
pub struct Naive<'a> {
    b: &'a Boards,
    /// Cube values go up to this; at the cap nobody doubles.
    cap: u32,
    /// By (score on roll, opponent, crawford): the game's values, by perspective (0: that
    /// score, 1: its mirror), cube and board.
    games: HashMap<(u32, u32, bool), Game>,
}

/// One game's values: `nd[p][cube]` by board.
pub struct Game {
    pub nd: [HashMap<Cube, Vec<f64>>; 2],
    /// The chance of winning the match of perspective 0 before the opening roll.
    pub start: f64,
}

impl<'a> Naive<'a> {
    pub fn new(b: &'a Boards, cap: u32) -> Self {
        Naive {
            b,
            cap,
            games: HashMap::new(),
        }
    }

    /// The chance of winning the match of the side needing `x` against `y` at the start of
    /// a game (`crawford`: the Crawford game).
    pub fn start(&mut self, x: u32, y: u32, crawford: bool) -> f64 {
        if x == 0 {
            return 1.0;
        }
        if y == 0 {
            return 0.0;
        }
        self.game(x, y, crawford).start
    }

    /// The chance after the side needing `x` (against `y`, in a game that is `crawford`
    /// or not) wins `points`.
    fn after_win(&mut self, x: u32, y: u32, crawford: bool, points: u32) -> f64 {
        if points >= x {
            return 1.0;
        }
        let left = x - points;
        // The Crawford game is the first game after a side first needs exactly 1: from a
        // game where both needed more.
        let _ = crawford;
        let next_crawford = left == 1 && x > 1 && y > 1;
        self.start(left, y, next_crawford)
    }

    pub fn game(&mut self, x: u32, y: u32, crawford: bool) -> &Game {
        if !self.games.contains_key(&(x, y, crawford)) {
            let g = self.solve(x, y, crawford);
            self.games.insert((x, y, crawford), g);
        }
        &self.games[&(x, y, crawford)]
    }

    fn cubes(&self, crawford: bool) -> Vec<Cube> {
        let mut out = vec![(1, 0)];
        if !crawford {
            let mut v = 2;
            while v <= self.cap {
                out.push((v, 1));
                out.push((v, 2));
                v *= 2;
            }
        }
        out
    }

    fn solve(&mut self, x: u32, y: u32, crawford: bool) -> Game {
        let b = self.b;
        let n = b.all.len();
        let needs = [(x, y), (y, x)];
        let cubes = self.cubes(crawford);
        // What a win of `points` is worth to the side of perspective p.
        let mut won: HashMap<(usize, u32), f64> = HashMap::new();
        for (p, &(me, them)) in needs.iter().enumerate() {
            for v in cubes.iter().map(|c| c.0) {
                for k in 1..=3 {
                    let w = self.after_win(me, them, crawford, k * v);
                    won.insert((p, k * v), w);
                }
            }
        }
        let mut nd: [HashMap<Cube, Vec<f64>>; 2] = [HashMap::new(), HashMap::new()];
        for table in &mut nd {
            for &c in &cubes {
                table.insert(c, vec![0.5; n]);
            }
        }
        // The opponent's value before it rolls (perspective q, its cube c, board j).
        let before = |nd: &[HashMap<Cube, Vec<f64>>; 2], q: usize, c: Cube, j: usize| -> f64 {
            let base = nd[q][&c][j];
            let access = c.1 != 2 && !crawford && c.0 < self.cap;
            if !access {
                return base;
            }
            let take = nd[q][&(2 * c.0, 2)][j];
            let pass = won[&(q, c.0)];
            base.max(take.min(pass))
        };
        let seen = |c: Cube| -> Cube { (c.0, [0, 2, 1][c.1 as usize]) };
        let d = f64::from(b.denominator);
        for _ in 0..100_000 {
            let mut change = 0.0f64;
            for p in 0..2 {
                for &c in &cubes {
                    for i in 0..n {
                        let swapped = b.at[&b.all[i].swapped()];
                        let mut v =
                            f64::from(b.idle) * (1.0 - before(&nd, 1 - p, seen(c), swapped));
                        for (r, roll) in b.rolls.iter().enumerate() {
                            let plays = &b.succ[i][r];
                            let best = if plays.is_empty() {
                                1.0 - before(&nd, 1 - p, seen(c), swapped)
                            } else {
                                plays
                                    .iter()
                                    .map(|t| match *t {
                                        Ok(j) => 1.0 - before(&nd, 1 - p, seen(c), j),
                                        Err(points) => won[&(p, points * c.0)],
                                    })
                                    .fold(f64::NEG_INFINITY, f64::max)
                            };
                            v += f64::from(roll.weight()) * best;
                        }
                        let v = v / d;
                        let slot = &mut nd[p].get_mut(&c).unwrap()[i];
                        change = change.max((v - *slot).abs());
                        *slot = v;
                    }
                }
            }
            if change < 1e-15 {
                break;
            }
        }
        // The opening: each side throws one die; the higher moves first with both, the
        // cube centred at 1.
        let mut opening = [0.0; 2];
        for (p, o) in opening.iter_mut().enumerate() {
            let (mut sum, mut weight) = (0.0, 0.0);
            for (r, roll) in b.rolls.iter().enumerate() {
                if roll.is_double() {
                    continue;
                }
                let plays = &b.succ[b.opening][r];
                let swapped = b.at[&b.all[b.opening].swapped()];
                let best = if plays.is_empty() {
                    1.0 - before(&nd, 1 - p, (1, 0), swapped)
                } else {
                    plays
                        .iter()
                        .map(|t| match *t {
                            Ok(j) => 1.0 - before(&nd, 1 - p, (1, 0), j),
                            Err(points) => won[&(p, points)],
                        })
                        .fold(f64::NEG_INFINITY, f64::max)
                };
                sum += 2.0 * best;
                weight += 2.0;
            }
            *o = sum / weight;
        }
        Game {
            nd,
            start: 0.5 * opening[0] + 0.5 * (1.0 - opening[1]),
        }
    }
}
