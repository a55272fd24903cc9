//! The bear-off at a match score (`docs/bearoff.md`, "At a match score"): every pair of
//! sides a table's index numbers valued exactly as match-winning chances, with the cube
//! as the score makes it, given the match-equity table that says what each score after
//! the game is worth. A two-sided table holds money values: at a score the cube's and the
//! gammons' worth depend on the score, so these values are solved apart, from the rules
//! alone (the table's sides and moves), for the one score asked.
//!
//! A value is the match-winning chance of the side on roll if it does not double now, for
//! each cube the score can hold (`Levels`): centred at 1, then each value below where
//! the cube goes dead, owned by either side. Each roll's best play is taken for each cube
//! apart; a play that bears off the last checker wins the cube's value (twice, a gammon,
//! when the loser still has all fifteen checkers) and the match-equity table says what
//! the score then is worth; any other play leaves the opponent on roll, who first decides
//! on the cube by the match rules (`matchplay::judge::may_double`: the higher of not
//! doubling and the lower of take and pass). Every play lowers the mover's side, so the
//! pairs a game reaches are solved once, from the lowest up (`MatchRace::prepare`), and
//! kept for the game's questions.

use super::index::{BearoffIndex, MAX_POINTS};
use super::sides::{weight, Sides, ROLLS};
use crate::gammon::cube::Choices;
use crate::gammon::matchplay::judge::may_double;
use crate::gammon::matchplay::met::Met;
use crate::gammon::matchplay::store::CHANCE_SCALE;
use crate::gammon::matchplay::{CubeOwner, Game, MatchCube, Score};
use crate::gammon::Error;
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;

/// Checkers a side has before it bears off any: only such a side can lose a gammon.
const FULL: u8 = 15;

/// The cubes a score can hold, as places in a pair's values: the centred cube first, then
/// for each value `2, 4, …` up to where the cube is dead, owned by the side on roll and
/// owned by the opponent. A cube above that value is worth what the dead one is (every
/// game then decides the match), so it shares its place.
#[derive(Debug, Clone, Copy)]
struct Levels {
    /// The first cube value at which every game decides the match (1 in the Crawford
    /// game and at double match point).
    dead: u32,
}

impl Levels {
    fn of(score: Score) -> Levels {
        let dead = match score.game {
            Game::Crawford => 1,
            _ => score.on_roll.max(score.opponent).next_power_of_two(),
        };
        Levels { dead }
    }

    /// How many places.
    fn len(self) -> usize {
        1 + 2 * self.dead.trailing_zeros() as usize
    }

    /// The place of `cube`.
    fn place(self, cube: MatchCube) -> usize {
        let v = cube.value.min(self.dead);
        if v <= 1 {
            return 0;
        }
        1 + 2 * (v.trailing_zeros() as usize - 1) + usize::from(cube.owner == CubeOwner::Opponent)
    }

    /// The cube at place `c`.
    fn cube(c: usize) -> MatchCube {
        if c == 0 {
            return MatchCube::START;
        }
        MatchCube {
            value: 1 << ((c - 1) / 2 + 1),
            owner: match (c - 1) % 2 {
                0 => CubeOwner::OnRoll,
                _ => CubeOwner::Opponent,
            },
        }
    }
}

/// One of the score's two sides: the score seen by it, its cubes, and the match-winning
/// chance of it winning `n` points (index `n`, up to twice the dead cube).
struct Perspective {
    score: Score,
    levels: Levels,
    won: Vec<f64>,
}

impl Perspective {
    fn new(score: Score, met: &Met) -> Result<Perspective, Error> {
        let levels = Levels::of(score);
        let won = (0..=2 * levels.dead)
            .map(|n| match score.after_win(n) {
                _ if n == 0 => Ok(f64::NAN),
                None => Ok(1.0),
                Some(after) => met.start(after),
            })
            .collect::<Result<_, _>>()?;
        Ok(Perspective { score, levels, won })
    }

    /// The chance after winning `points` with `cube`.
    fn won(&self, points: u32, cube: MatchCube) -> f64 {
        self.won[(points * cube.value.min(self.levels.dead)) as usize]
    }
}

/// A chance as the questions answer it: rounded to the grid the match tables keep theirs
/// on (`1 / (2³² − 1)`), so that values equal but for the order of their sums (a sure
/// win averaged over the 36 rolls against the same win taken at once) compare equal.
fn on_grid(chance: f64) -> f64 {
    (chance * CHANCE_SCALE).round() / CHANCE_SCALE
}

/// What a cube place of one perspective reads when it has moved and the opponent is on
/// roll: the opponent's place for the same cube, and where the opponent may double, its
/// place one level up and what a pass brings it.
#[derive(Clone, Copy)]
struct Reads {
    nd: usize,
    double: Option<(usize, f64)>,
}

/// The most a region's values may take, in bytes: beyond it a position is not held.
pub const BUDGET: u64 = 2 << 30;

/// Bytes a region keeps a pair and cube place: each perspective's value, and what moving
/// into it brings the other.
const BYTES: u64 = 32;

/// The pairs a game reaches from a root pair: each perspective's sides that its root
/// side can come to (sorted by rank, so that a play leads to a lower place), and the
/// values of every pair of them, each perspective on roll.
struct Region {
    roots: [u32; 2],
    sides: [Vec<u32>; 2],
    /// `values[p][(i * n + j) * places + c]`: perspective `p` on roll with its local side
    /// `i` against the other's `j` (`n` the other's sides), cube place `c`.
    values: [Vec<f64>; 2],
}

/// A play that bears off the last checker.
const OFF: u32 = u32::MAX;

/// The bear-off at one match score: the pairs a game reaches valued once, when first
/// asked (`prepare`, or any question about a pair).
pub struct MatchRace {
    sides: Sides,
    /// The score as the first side sees it, then as the second does.
    sides_of_score: [Perspective; 2],
    /// By perspective and cube place, what a play leaving the opponent on roll reads.
    reads: [Vec<Reads>; 2],
    region: RefCell<Option<Region>>,
    /// How many sides each side can come to.
    reach: RefCell<HashMap<u32, u64>>,
}

impl MatchRace {
    /// The bear-off of `index`'s sides at `score` (the side on roll of the first
    /// perspective first), the scores after a game valued by `met`; a score the table
    /// does not reach is refused.
    pub fn new(index: &BearoffIndex, met: &Met, score: Score) -> Result<MatchRace, Error> {
        let sides_of_score = [
            Perspective::new(score, met)?,
            Perspective::new(score.mirrored(), met)?,
        ];
        let reads = std::array::from_fn(|p| {
            let them = &sides_of_score[1 - p];
            (0..sides_of_score[p].levels.len())
                .map(|c| {
                    let theirs = Levels::cube(c).seen_by_opponent();
                    Reads {
                        nd: them.levels.place(theirs),
                        double: may_double(them.score, theirs)
                            .then(|| (them.levels.place(theirs.doubled()), them.won(1, theirs))),
                    }
                })
                .collect()
        });
        Ok(MatchRace {
            sides: Sides::new(index),
            sides_of_score,
            reads,
            region: RefCell::new(None),
            reach: RefCell::new(HashMap::new()),
        })
    }

    /// The score as the side of perspective `p` (0 or 1) sees it.
    pub fn score(&self, p: usize) -> Score {
        self.sides_of_score[p].score
    }

    /// The match-winning chance of perspective `p`'s side winning `points` times `cube`.
    pub fn won(&self, p: usize, points: u32, cube: MatchCube) -> f64 {
        on_grid(self.sides_of_score[p].won(points, cube))
    }

    /// The match-winning chance of perspective `p`'s side winning `n` points, whatever
    /// the cube.
    pub fn won_points(&self, p: usize, n: u32) -> f64 {
        let won = &self.sides_of_score[p].won;
        on_grid(won[(n as usize).min(won.len() - 1)])
    }

    /// Whether the pairs a game reaches from sides `x` and `y` (either on roll) fit in
    /// [`BUDGET`].
    pub fn fits(&self, x: u32, y: u32) -> bool {
        self.need(x, y) <= BUDGET
    }

    /// The bytes of the region of sides `x` and `y`.
    fn need(&self, x: u32, y: u32) -> u64 {
        let places = self.sides_of_score[0].levels.len() as u64;
        self.reached(x) * self.reached(y) * places * BYTES
    }

    /// Values the pairs a game reaches from perspective `p` on roll with side `x` against
    /// `y`, if not done: the next questions of the game are answered from them.
    pub fn prepare(&self, p: usize, x: u32, y: u32) -> Result<(), Error> {
        self.locate(p, x, y).map(|_| ())
    }

    /// The chance of perspective `p`'s side, on roll with side `x` against `y`, if it does
    /// not double now with `cube`.
    pub fn no_double(&self, p: usize, x: u32, y: u32, cube: MatchCube) -> Result<f64, Error> {
        let at = self.locate(p, x, y)?;
        let region = self.region.borrow();
        let r = region.as_ref().expect("located");
        Ok(on_grid(
            r.values[p][at + self.sides_of_score[p].levels.place(cube)],
        ))
    }

    /// Its three choices with `cube`, where it may double.
    pub fn choices(&self, p: usize, x: u32, y: u32, cube: MatchCube) -> Result<Choices, Error> {
        Ok(Choices {
            no_double: self.no_double(p, x, y, cube)?,
            double_take: self.no_double(p, x, y, cube.doubled())?,
            double_pass: self.won(p, 1, cube),
        })
    }

    /// Its chance on its turn, deciding on the cube first.
    pub fn on_turn(&self, p: usize, x: u32, y: u32, cube: MatchCube) -> Result<f64, Error> {
        let me = &self.sides_of_score[p];
        let nd = self.no_double(p, x, y, cube)?;
        if !may_double(me.score, cube) {
            return Ok(nd);
        }
        let take = self.no_double(p, x, y, cube.doubled())?;
        Ok(nd.max(take.min(self.won(p, 1, cube))))
    }

    /// How many sides `x` can come to (itself included).
    fn reached(&self, x: u32) -> u64 {
        if let Some(&n) = self.reach.borrow().get(&x) {
            return n;
        }
        let n = self.closure(x).len() as u64;
        self.reach.borrow_mut().insert(x, n);
        n
    }

    /// The sides `x` can come to, and more: every side with no more checkers than `x` on
    /// each point or higher (a play only moves checkers down or off, so these hold every
    /// side a play leads to from any of them), sorted by rank (every play lowers it).
    fn closure(&self, x: u32) -> Vec<u32> {
        let top = self.above(x);
        (0..self.sides.len() as u32)
            .filter(|&s| self.above(s).iter().zip(&top).all(|(a, t)| a <= t))
            .collect()
    }

    /// The checkers of side `s` on each point or higher, from the highest point down.
    fn above(&self, s: u32) -> [u8; MAX_POINTS] {
        let counts = self.sides.counts(s);
        let mut out = [0u8; MAX_POINTS];
        let mut sum = 0;
        for (k, q) in (1..=self.sides.points()).rev().enumerate() {
            sum += counts[q];
            out[k] = sum;
        }
        out
    }

    /// The side whose region holds both `a`'s and `b`'s: on each point or higher, the
    /// most checkers `a` or `b` has there.
    fn join(&self, a: u32, b: u32) -> u32 {
        let (ha, hb) = (self.above(a), self.above(b));
        let mut counts = [0u8; MAX_POINTS + 1];
        let mut higher = 0;
        for (k, q) in (1..=self.sides.points()).rev().enumerate() {
            let here = ha[k].max(hb[k]);
            counts[q] = here - higher;
            higher = here;
        }
        self.sides.rank(&counts)
    }

    /// Where the values of perspective `p` on roll with `x` against `y` start in its
    /// region's values, valuing a region that holds them first where the present one does
    /// not (rooted where the present root and the pair asked both come from).
    fn locate(&self, p: usize, x: u32, y: u32) -> Result<usize, Error> {
        let mut sides = [0; 2];
        (sides[p], sides[1 - p]) = (x, y);
        let found = |r: &Region| {
            let i = r.sides[p].binary_search(&x).ok()?;
            let j = r.sides[1 - p].binary_search(&y).ok()?;
            Some((i * r.sides[1 - p].len() + j) * self.sides_of_score[p].levels.len())
        };
        if let Some(at) = self.region.borrow().as_ref().and_then(found) {
            return Ok(at);
        }
        let roots = match self.region.borrow().as_ref() {
            Some(r) => [
                self.join(r.roots[0], sides[0]),
                self.join(r.roots[1], sides[1]),
            ],
            None => sides,
        };
        let need = self.need(roots[0], roots[1]);
        if need > BUDGET {
            return Err(Error::MemoryCap {
                what: "the bear-off at a match score from this position".into(),
                need,
                cap: BUDGET,
            });
        }
        let region = self.solve(roots);
        let at = found(&region).expect("the root's region holds the pair");
        *self.region.borrow_mut() = Some(region);
        Ok(at)
    }

    /// Values every pair the game reaches from `roots`.
    fn solve(&self, roots: [u32; 2]) -> Region {
        let sides = roots.map(|r| self.closure(r));
        let mut starts: [Vec<u32>; 2] = Default::default();
        let mut plays: [Vec<u32>; 2] = Default::default();
        let mut out = Vec::new();
        for p in 0..2 {
            starts[p].push(0);
            for &s in &sides[p] {
                for k in 0..ROLLS.len() {
                    self.sides.plays_into(s, k, &mut out);
                    for &t in &out {
                        let local = match self.sides.node(t).on {
                            0 => OFF,
                            _ => sides[p].binary_search(&t).expect("closed") as u32,
                        };
                        plays[p].push(local);
                    }
                    starts[p].push(plays[p].len() as u32);
                }
            }
        }
        let gammon: [Vec<bool>; 2] = std::array::from_fn(|p| {
            sides[p]
                .iter()
                .map(|&s| self.sides.node(s).on == FULL)
                .collect()
        });
        let places = self.sides_of_score[0].levels.len();
        let n = [sides[0].len(), sides[1].len()];
        // By perspective and whether the loser has all fifteen: a game won, each place.
        let off: [[[f64; MAX_PLACES]; 2]; 2] = std::array::from_fn(|p| {
            std::array::from_fn(|g| {
                std::array::from_fn(|c| match c < places {
                    true => self.sides_of_score[p].won(1 + g as u32, Levels::cube(c)),
                    false => 0.0,
                })
            })
        });
        let total = n[0] * n[1] * places;
        let mut values = [vec![0.0; total], vec![0.0; total]];
        // `after[q]`: what the other perspective gets, each of its places, moving into
        // perspective q's pair (q then decides on the cube): made once a pair, read by
        // every play that leads to it.
        let mut after = [vec![0.0; total], vec![0.0; total]];
        let mut column = vec![0.0; n[1] * places];
        let mut column_after = vec![0.0; n[1] * places];
        let reads = &self.reads;
        for i in 0..n[0] {
            // Perspective 0 on roll with i against every j: reads what moving into
            // perspective 1's pairs against 0's sides below i brings, all done.
            let range = i * n[1] * places..(i + 1) * n[1] * places;
            let (a0, a1) = after.split_at_mut(1);
            let row = values[0][range.clone()].par_chunks_mut(places);
            row.zip(a0[0][range].par_chunks_mut(places))
                .enumerate()
                .for_each(|(j, (out, moved))| {
                    let pair = Pair {
                        i,
                        j,
                        gammon: gammon[1][j],
                    };
                    value(&off[0], &pair, (&starts[0], &plays[0]), &a1[0], n[0], out);
                    into(&reads[1], out, moved);
                });
            // Perspective 1 on roll with every j against i: reads the row just made.
            let a0 = &after[0];
            column
                .par_chunks_mut(places)
                .zip(column_after.par_chunks_mut(places))
                .enumerate()
                .for_each(|(j, (out, moved))| {
                    let pair = Pair {
                        i: j,
                        j: i,
                        gammon: gammon[0][i],
                    };
                    value(&off[1], &pair, (&starts[1], &plays[1]), a0, n[1], out);
                    into(&reads[0], out, moved);
                });
            for j in 0..n[1] {
                let at = (j * n[0] + i) * places;
                let from = j * places..(j + 1) * places;
                values[1][at..at + places].copy_from_slice(&column[from.clone()]);
                after[1][at..at + places].copy_from_slice(&column_after[from]);
            }
        }
        Region {
            roots,
            sides,
            values,
        }
    }
}

/// The values of `pair` into `out`: the plays of its side on roll from `starts` and
/// `plays`, what moving into each brings in `theirs` (`n` the mover's sides), a play
/// bearing off the last checker worth `off` (by whether the loser has all fifteen).
fn value(
    off: &[[f64; MAX_PLACES]; 2],
    pair: &Pair,
    (starts, plays): (&[u32], &[u32]),
    theirs: &[f64],
    n: usize,
    out: &mut [f64],
) {
    let places = out.len();
    let won = &off[usize::from(pair.gammon)][..places];
    let mut best = [0.0f64; MAX_PLACES];
    out.fill(0.0);
    for k in 0..ROLLS.len() {
        let b = &mut best[..places];
        b.fill(f64::NEG_INFINITY);
        let at = pair.i * ROLLS.len() + k;
        for &t in &plays[starts[at] as usize..starts[at + 1] as usize] {
            let got = match t {
                OFF => won,
                _ => {
                    let at = (pair.j * n + t as usize) * places;
                    &theirs[at..at + places]
                }
            };
            for (b, g) in b.iter_mut().zip(got) {
                *b = b.max(*g);
            }
        }
        for (o, b) in out.iter_mut().zip(b.iter()) {
            *o += weight(k) * b;
        }
    }
    for o in out.iter_mut() {
        *o /= 36.0;
    }
}

/// What the mover gets, each of its places read by `reads`, moving into a pair whose
/// values (its opponent on roll, not doubling) are `v`: one less the opponent's chance
/// after it decides on the cube.
fn into(reads: &[Reads], v: &[f64], out: &mut [f64]) {
    for (o, r) in out.iter_mut().zip(reads) {
        let mut x = v[r.nd];
        if let Some((take, pass)) = r.double {
            x = x.max(v[take].min(pass));
        }
        *o = 1.0 - x;
    }
}

/// The most cube places a score has (a cube dead at 2⁶ = 64, the longest match).
const MAX_PLACES: usize = 13;

/// A pair being valued: the local side on roll `i` against the other's
/// `j`, and whether the other has all fifteen checkers (a game won is a gammon).
struct Pair {
    i: usize,
    j: usize,
    gammon: bool,
}

#[cfg(test)]
mod tests {
    use super::super::sides::Successors;
    use super::super::two_sided::{solve as solve_table, Win};
    use super::*;
    use crate::gammon::matchplay::judge::rules;
    use crate::gammon::moves::{plays, win_points};
    use crate::gammon::{Position, Roll, Variant};
    use crate::progress::Progress;
    use std::collections::HashMap;

    /// A match-equity table of `length` points made up for the tests: not a real one, but
    /// every score apart.
    fn made_up(length: u32) -> Met {
        let n = length as usize;
        let f = |a: usize, b: usize| 0.5 + 0.4 * (b as f64 - a as f64) / (a + b) as f64;
        Met {
            variant: "made up".into(),
            length,
            met: (1..=n)
                .map(|a| {
                    (1..=n)
                        .map(|b| f(a, b) + 0.003 * (a * b % 7) as f64)
                        .collect()
                })
                .collect(),
            post_crawford: (1..=n).map(|b| 1.0 - 0.45 / b as f64 + 0.01).collect(),
        }
    }

    /// The plain recursion of the test, on positions and the one move generator, the
    /// cube's rules written out on the match cube: `(position, perspective, cube)` → the
    /// chance of the side on roll if it does not double.
    struct Plain<'a> {
        v: Variant,
        met: &'a Met,
        scores: [Score; 2],
        memo: HashMap<(Position, usize, u32, CubeOwner), f64>,
    }

    impl Plain<'_> {
        fn won(&self, p: usize, points: u32) -> f64 {
            let s = self.scores[p];
            match s.after_win(points) {
                None => 1.0,
                Some(after) => self.met.start(after).unwrap(),
            }
        }

        fn turn(&mut self, pos: &Position, p: usize, cube: MatchCube) -> f64 {
            let nd = self.no_double(pos, p, cube);
            let s = self.scores[p];
            let dead = match s.game {
                Game::Crawford => true,
                _ => cube.value >= s.on_roll.max(s.opponent).next_power_of_two(),
            };
            if dead || cube.owner == CubeOwner::Opponent {
                return nd;
            }
            let take = self.no_double(pos, p, cube.doubled());
            let pass = self.won(p, cube.value);
            nd.max(take.min(pass))
        }

        fn no_double(&mut self, pos: &Position, p: usize, cube: MatchCube) -> f64 {
            let key = (*pos, p, cube.value, cube.owner);
            if let Some(&v) = self.memo.get(&key) {
                return v;
            }
            let mut total = 0.0;
            for a in 1..=6u8 {
                for b in 1..=6u8 {
                    let best = plays(&self.v, pos, Roll::new(a, b))
                        .iter()
                        .map(|play| {
                            if play.wins() {
                                let points = win_points(&self.v, play.after.them());
                                self.won(p, points * cube.value)
                            } else {
                                let theirs = cube.seen_by_opponent();
                                1.0 - self.turn(&play.after.swapped(), 1 - p, theirs)
                            }
                        })
                        .fold(f64::NEG_INFINITY, f64::max);
                    total += best;
                }
            }
            let v = total / 36.0;
            self.memo.insert(key, v);
            v
        }
    }

    fn scores() -> Vec<Score> {
        [
            (3, 2, false),
            (2, 4, false),
            (1, 3, true),
            (3, 1, false),
            (5, 5, false),
        ]
        .iter()
        .map(|&(a, b, c)| Score::new(a, b, c).unwrap())
        .collect()
    }

    #[test]
    fn every_value_of_4x3_at_five_scores_agrees_with_the_plain_recursion() {
        let index = BearoffIndex::new(4, 3).unwrap();
        let met = made_up(7);
        for score in scores() {
            let race = MatchRace::new(&index, &met, score).unwrap();
            let mut plain = Plain {
                v: Variant::backgammon(),
                met: &met,
                scores: [score, score.mirrored()],
                memo: HashMap::new(),
            };
            let levels = Levels::of(score);
            let mut doubles = 0;
            // Every side comes from three checkers on the highest point: one region.
            let top = index.rank(&[0, 0, 0, 3]).unwrap() as u32;
            race.prepare(0, top, top).unwrap();
            for x in 1..index.sides() as u32 {
                for y in 1..index.sides() as u32 {
                    let pos = index.position(x.into(), y.into()).unwrap();
                    for c in 0..levels.len() {
                        let cube = Levels::cube(c);
                        let got = race.no_double(0, x, y, cube).unwrap();
                        let want = plain.no_double(&pos, 0, cube);
                        assert!((got - want).abs() < 1e-9, "{score} {x} {y} {cube}");
                        if may_double(score, cube) {
                            let d = crate::gammon::cube::decide(
                                race.choices(0, x, y, cube).unwrap(),
                                rules(score, cube),
                            );
                            doubles += usize::from(d.doubling_margin > 0.0);
                        }
                    }
                }
            }
            // The cube matters at the scores where it is alive.
            assert_eq!(doubles > 0, score.cube_in_play(), "{score}");
        }
    }

    #[test]
    fn gammons_count_at_a_score_where_the_loser_has_all_fifteen() {
        let index = BearoffIndex::new(1, 15).unwrap();
        let met = made_up(7);
        let score = Score::new(3, 3, false).unwrap();
        let race = MatchRace::new(&index, &met, score).unwrap();
        let full = index.rank(&[15]).unwrap() as u32;
        let one = index.rank(&[1]).unwrap() as u32;
        // One checker on the ace point against fifteen: the side on roll wins a gammon,
        // two points, whatever it rolls; with a cube of 2 owned, four: the match.
        let two = race.won(0, 2, MatchCube::START);
        assert!((race.no_double(0, one, full, MatchCube::START).unwrap() - two).abs() < 1e-15);
        assert!(two < 1.0);
        let owned = MatchCube::new(2, CubeOwner::OnRoll).unwrap();
        assert_eq!(race.no_double(0, one, full, owned).unwrap(), 1.0);
    }

    #[test]
    fn at_double_match_point_the_value_is_the_tables_chance_to_win() {
        let index = BearoffIndex::new(4, 4).unwrap();
        let sides = Sides::new(&index);
        let succ = Successors::new(&sides);
        let full = vec![false; index.sides() as usize];
        let wins = solve_table::<Win>(&succ, &full, Progress::SILENT);
        let met = made_up(3);
        let dmp = MatchRace::new(&index, &met, Score::new(1, 1, false).unwrap()).unwrap();
        let n = index.sides() as u32;
        for x in 1..n {
            for y in 1..n {
                let p = f64::from(wins[(x * n + y) as usize][0]) / f64::from(u32::MAX);
                let got = dmp.no_double(0, x, y, MatchCube::START).unwrap();
                assert!((got - p).abs() < 1e-9, "{x} {y}: {got} {p}");
            }
        }
    }

    #[test]
    fn in_the_crawford_game_without_gammons_a_value_is_a_line_of_the_chance_to_win() {
        let index = BearoffIndex::new(4, 4).unwrap();
        let sides = Sides::new(&index);
        let succ = Successors::new(&sides);
        let full = vec![false; index.sides() as usize];
        let wins = solve_table::<Win>(&succ, &full, Progress::SILENT);
        let met = made_up(5);
        let score = Score::new(4, 1, true).unwrap();
        let race = MatchRace::new(&index, &met, score).unwrap();
        let (w, l) = (
            race.won(0, 1, MatchCube::START),
            1.0 - race.won(1, 1, MatchCube::START),
        );
        assert!(w > l);
        let n = index.sides() as u32;
        for x in 1..n {
            for y in 1..n {
                let p = f64::from(wins[(x * n + y) as usize][0]) / f64::from(u32::MAX);
                let got = race.no_double(0, x, y, MatchCube::START).unwrap();
                assert!((got - (l + p * (w - l))).abs() < 1e-9, "{x} {y}");
            }
        }
    }

    #[test]
    fn a_score_beyond_the_match_equity_table_is_refused() {
        let index = BearoffIndex::new(2, 2).unwrap();
        let met = made_up(3);
        let e = MatchRace::new(&index, &met, Score::new(5, 2, false).unwrap())
            .err()
            .unwrap();
        assert!(e.to_string().contains("stops at 3 points"), "{e}");
    }
}
