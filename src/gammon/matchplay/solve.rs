//! A unit's solve (`docs/gammon.md`, "Match play"): its cube levels, from the highest
//! live one down to the centred cube, each with the cube solver at match stakes
//! (`crate::gammon::solver::score`), and the value at the start of a game.
//!
//! Values are match equities `e = 2 · MWC − 1` of the side on roll while solving (what one
//! side wins the other loses); the tables keep match-winning chances.

use super::score::{Game, Next, Unit};
use crate::gammon::solver::score::{Board, Component, Double, Solved};
use crate::gammon::{Error, Variant};
use crate::progress::Progress;
use serde::Serialize;
use std::collections::HashMap;
use std::time::Instant;

/// What a unit's solve reads from the units below it.
pub struct Inputs<'a> {
    /// The match equity at the start of a game of each unit below (from its first
    /// perspective): [`Unit::inputs`].
    pub starts: &'a HashMap<Unit, f64>,
    /// At double match point (1-1), by state (the order of the board's records): where a
    /// double kills the cube, the values of the game from then on. Not read by the
    /// Crawford game and by 1-1 itself.
    pub dmp: Option<&'a [f64]>,
}

/// A unit solved: every state's values in every column (see [`Unit::width`]).
pub struct UnitSolution {
    /// The unit.
    pub unit: Unit,
    /// By column, then by state: match equities.
    pub columns: Vec<Vec<f64>>,
    /// The match equity of the unit's first perspective (the side needing `a`) at the
    /// start of a game: half its opening-roll winner's equity less half the other's.
    pub start: f64,
    /// By perspective, the match equity after the side on roll wins `j` points, for `j`
    /// from 1 to one less than it needs (more wins the match).
    pub won: [Vec<f64>; 2],
    /// How the solve went.
    pub report: UnitReport,
}

/// How a unit's solve went.
#[derive(Debug, Clone, Serialize)]
pub struct UnitReport {
    /// The unit's name.
    pub unit: String,
    /// Cube levels solved (one of them centred, or the Crawford game, or 1-1).
    pub levels: usize,
    /// Sweeps over all its levels.
    pub sweeps: u32,
    /// The largest last change of a level.
    pub residual: f64,
    /// Wall time, in seconds.
    pub seconds: f64,
}

/// The match equity of winning `points` at one perspective.
struct Wins {
    won: [Vec<f64>; 2],
}

impl Wins {
    fn of(&self, second: bool, points: u32) -> f64 {
        let won = &self.won[usize::from(second)];
        won.get(points as usize - 1).copied().unwrap_or(1.0)
    }

    /// The values of winning 1, 2, 3 times `cube`.
    fn three(&self, second: bool, cube: u32) -> [f64; 3] {
        std::array::from_fn(|k| self.of(second, (k as u32 + 1) * cube))
    }
}

/// The match equity after each side of `unit` wins each number of points short of the
/// match, from the start values of the units below.
fn wins(unit: Unit, starts: &HashMap<Unit, f64>) -> Result<[Vec<f64>; 2], Error> {
    let side = |second: bool| -> Result<Vec<f64>, Error> {
        let need = unit.score(second).on_roll;
        (1..need)
            .map(|points| match unit.after_win(second, points) {
                Next::Won => Ok(1.0),
                Next::Game { unit: u, second } => match starts.get(&u) {
                    Some(&s) => Ok(if second { -s } else { s }),
                    None => Err(Error::Inconsistent(format!(
                        "the score {} reads the start of {}, which is not given",
                        unit.name(),
                        u.name()
                    ))),
                },
            })
            .collect()
    };
    Ok([side(false)?, side(true)?])
}

/// A variant's states and their successors, built once and solved at any score.
pub struct MatchSolver {
    board: Board,
}

impl MatchSolver {
    /// Lays out the states of `variant` and their successors (refused, before allocating,
    /// when the solve would not fit in memory).
    pub fn new(variant: &Variant, progress: Progress<'_>) -> Result<MatchSolver, Error> {
        Ok(MatchSolver {
            board: Board::new(variant, progress)?,
        })
    }

    /// The record of each state in the variant's numbering, in the order of
    /// [`UnitSolution::columns`].
    pub fn records(&self) -> &[u64] {
        self.board.records()
    }

    /// Solves `unit` from the values of the units below it.
    pub fn solve(
        &self,
        unit: Unit,
        inputs: &Inputs<'_>,
        progress: Progress<'_>,
    ) -> Result<UnitSolution, Error> {
        solve_unit(&self.board, unit, inputs, progress)
    }
}

/// Solves `unit` on `board` from the values of the units below it.
fn solve_unit(
    board: &Board,
    unit: Unit,
    inputs: &Inputs<'_>,
    progress: Progress<'_>,
) -> Result<UnitSolution, Error> {
    let started = Instant::now();
    let w = Wins {
        won: wins(unit, inputs.starts)?,
    };
    let mut levels = Vec::new();
    let columns = if unit == Unit::DMP || unit.game == Game::Crawford {
        // One level and no cube: each perspective reads the other's.
        progress.start(&format!("score {}", unit.name()), None);
        let comps = [false, true].map(|second| Component {
            reads: usize::from(!second),
            won: w.three(second, 1),
            double: None,
        });
        let solved = board.solve(&comps, progress)?;
        let columns = solved.values.clone();
        levels.push(solved);
        columns
    } else {
        cube_levels(board, unit, inputs, &w, &mut levels, progress)?
    };
    // The centred cube (or the cubeless game) is solved last.
    let opening = &levels.last().expect("a level").opening;
    let start = 0.5 * (opening[0] - opening[1]);
    let report = UnitReport {
        unit: unit.name(),
        levels: levels.len(),
        sweeps: levels.iter().map(|l| l.sweeps).sum(),
        residual: levels.iter().map(|l| l.residual).fold(0.0, f64::max),
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok(UnitSolution {
        unit,
        columns,
        start,
        won: w.won,
        report,
    })
}

/// The cube levels of a unit with the cube in play, from the highest live one down to
/// the centred cube: its columns (see [`Unit::columns`]), each level's solution pushed
/// onto `levels` (the centred one last).
fn cube_levels(
    board: &Board,
    unit: Unit,
    inputs: &Inputs<'_>,
    w: &Wins,
    levels: &mut Vec<Solved>,
    progress: Progress<'_>,
) -> Result<Vec<Vec<f64>>, Error> {
    let dmp = inputs.dmp.ok_or_else(|| {
        Error::Inconsistent(format!(
            "the score {} reads the values at 1-1, which are not given",
            unit.name()
        ))
    })?;
    let live = unit.live_levels();
    let per = unit.columns();
    let persp = unit.perspectives();
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); persp * per];
    // What a double taken leads to, for the doubler at each perspective: its no-double
    // value with the opponent owning the cube one level up (at the dead level, 1-1's).
    let mut takes: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut up_dead = true;
    for (li, &v) in live.iter().enumerate().rev() {
        progress.start(&format!("score {}, cube {v}", unit.name()), None);
        let take = |second: bool| -> &[f64] {
            if up_dead {
                dmp
            } else {
                &takes[usize::from(second) % persp]
            }
        };
        let solved = if unit.symmetric() {
            // The side on roll owns, the opponent owns: each reads the other.
            let comps = [
                Component {
                    reads: 1,
                    won: w.three(false, v),
                    double: None,
                },
                Component {
                    reads: 0,
                    won: w.three(false, v),
                    double: Some(Double {
                        take: take(false),
                        pass: w.of(false, v),
                    }),
                },
            ];
            board.solve(&comps, progress)?
        } else {
            // The first perspective owns / the second's opponent owns; the first's
            // opponent owns / the second owns.
            let comps = [
                Component {
                    reads: 1,
                    won: w.three(false, v),
                    double: None,
                },
                Component {
                    reads: 0,
                    won: w.three(true, v),
                    double: Some(Double {
                        take: take(false),
                        pass: w.of(false, v),
                    }),
                },
                Component {
                    reads: 3,
                    won: w.three(false, v),
                    double: Some(Double {
                        take: take(true),
                        pass: w.of(true, v),
                    }),
                },
                Component {
                    reads: 2,
                    won: w.three(true, v),
                    double: None,
                },
            ];
            board.solve(&comps, progress)?
        };
        // Components → columns: (perspective, owned) and (perspective, opponent owns).
        let (own, opp): (&[usize], &[usize]) = if unit.symmetric() {
            (&[0], &[1])
        } else {
            (&[0, 3], &[2, 1])
        };
        for p in 0..persp {
            columns[p * per + 1 + 2 * li] = solved.values[own[p]].clone();
            columns[p * per + 2 + 2 * li] = solved.values[opp[p]].clone();
        }
        takes = [
            solved.values[opp[0]].clone(),
            solved.values[opp[persp - 1]].clone(),
        ];
        up_dead = false;
        levels.push(solved);
    }
    progress.start(&format!("score {}, cube centred", unit.name()), None);
    let take = |second: bool| -> &[f64] {
        if up_dead {
            dmp
        } else {
            &takes[usize::from(second) % persp]
        }
    };
    // Each side's centred cube; the opponent on roll may double.
    let comps = [false, true].map(|second| {
        let (mine, theirs) = if unit.symmetric() {
            (false, false)
        } else {
            (second, !second)
        };
        Component {
            reads: usize::from(!second),
            won: w.three(mine, 1),
            double: Some(Double {
                take: take(theirs),
                pass: w.of(theirs, 1),
            }),
        }
    });
    let solved = board.solve(&comps, progress)?;
    for p in 0..persp {
        columns[p * per] = solved.values[p].clone();
    }
    levels.push(solved);
    Ok(columns)
}

/// Solves every unit of a match to `length` on one board, in order (the values of 1-1
/// and the start values kept for the units above), calling `done` with each solution.
pub fn solve_match(
    variant: &Variant,
    length: u32,
    progress: Progress<'_>,
    mut done: impl FnMut(&UnitSolution) -> Result<(), Error>,
) -> Result<HashMap<Unit, f64>, Error> {
    super::score::check_length(length)?;
    progress.start("numbering the states", None);
    let solver = MatchSolver::new(variant, progress)?;
    let mut starts = HashMap::new();
    let mut dmp: Option<Vec<f64>> = None;
    for unit in Unit::all(length) {
        let inputs = Inputs {
            starts: &starts,
            dmp: dmp.as_deref(),
        };
        let solved = solver.solve(unit, &inputs, progress)?;
        done(&solved)?;
        if unit == Unit::DMP {
            dmp = Some(solved.columns[0].clone());
        }
        starts.insert(unit, solved.start);
    }
    Ok(starts)
}

#[cfg(test)]
mod tests {
    use super::super::naive::{Boards, Naive};
    use super::*;
    use crate::gammon::Numbers;

    /// Solves `name` to `length` points and compares every value of every unit, and every
    /// start value, with the naive computation; returns the units compared.
    fn matches_naive(name: &str, length: u32) -> usize {
        let v = Variant::parse(name).unwrap();
        let boards = Boards::new(&v);
        // Cube values up to twice the first dead level: above it nothing may change.
        let mut naive = Naive::new(&boards, 4 * length.next_power_of_two());
        let numbers = Numbers::new(&v).unwrap();
        let board = Board::new(&v, Progress::SILENT).unwrap();
        let at: Vec<usize> = board
            .records()
            .iter()
            .map(|&r| boards.at[&numbers.position(r).unwrap()])
            .collect();
        let mwc = |e: f64| (1.0 + e) / 2.0;
        let mut units = 0;
        solve_match(&v, length, Progress::SILENT, |sol| {
            let u = sol.unit;
            let game = naive.game(u.a, u.b, u.game == Game::Crawford);
            let start = game.start;
            assert!(
                (mwc(sol.start) - start).abs() < 1e-10,
                "{}: start {} vs {start}",
                u.name(),
                mwc(sol.start)
            );
            let per = if u.game == Game::Crawford || u == Unit::DMP {
                1
            } else {
                u.columns()
            };
            let persp = if u.game == Game::Crawford || u == Unit::DMP {
                2
            } else {
                u.perspectives()
            };
            for p in 0..persp {
                let mut cubes = vec![(1u32, 0u8)];
                for &lv in &u.live_levels() {
                    cubes.push((lv, 1));
                    cubes.push((lv, 2));
                }
                for (k, cube) in cubes.iter().enumerate().take(per) {
                    let ours = &sol.columns[p * per + k];
                    let theirs = &game.nd[p][cube];
                    for (i, &e) in ours.iter().enumerate() {
                        let want = theirs[at[i]];
                        assert!(
                            (mwc(e) - want).abs() < 1e-10,
                            "{} perspective {p} cube {cube:?} {:?}: {} vs {want}",
                            u.name(),
                            boards.all[at[i]],
                            mwc(e)
                        );
                    }
                }
            }
            units += 1;
            Ok(())
        })
        .unwrap();
        units
    }

    #[test]
    fn hyper1_matches_to_three_points_match_plain_value_iteration_on_boards() {
        assert_eq!(matches_naive("hyper1", 3), 8);
    }

    #[test]
    #[ignore = "a naive match solve of a board with passes; run with --ignored"]
    fn a_small_board_with_passes_matches_plain_value_iteration_to_four_points() {
        assert_eq!(matches_naive("points=6:checkers=2:faces=0-2:home=2", 4), 13);
    }
}
