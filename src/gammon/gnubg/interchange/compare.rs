//! `compare`: a family table (and its cube table) against gnubg's database of the same
//! Hypergammon, record by record (`docs/gammon.md`, "gnubg interchange"): the largest
//! difference of each quantity, where it is, and why the two programs may differ there
//! (gnubg's 24-bit truncation and stopping rule, plays tied in equity, and gnubg 1.07's
//! cube error where a roll passes).

use crate::gammon::gnubg::codecs::bd::HyperFile;
use crate::gammon::notation::{check, notation};
use crate::gammon::solver::sides::{Search, Sides};
use crate::gammon::store::{self, decode_cube, decode_equity, decode_outcomes, Tables};
use crate::gammon::variant::Numbering;
use crate::gammon::{CubeState, Error, Evaluator};
use rayon::prelude::*;
use serde::Serialize;

/// The largest differences between a table and a gnubg database.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// The variant.
    pub variant: String,
    /// Records in both.
    pub records: u64,
    /// Records compared: the legal ones with play left.
    pub compared: u64,
    /// The largest difference of each quantity.
    pub max_diff: MaxDiff,
    /// Where each largest difference is, and the two values there.
    pub quantities: Vec<Worst>,
    /// Whether every cubeless equity difference is within gnubg's precision (its 24-bit
    /// rounding, and its own stopping rule, a change of 1e-5 in a sweep).
    pub within_precision: bool,
    /// Records whose chances differ by more than [`TIE_GAP`] while their equities agree:
    /// there the plays tie in equity and the two programs break the tie apart.
    pub tie_records: u64,
    /// Records where the side on roll has a roll without a legal move (a pass), where
    /// gnubg 1.07's cubeful values go wrong.
    pub pass_records: u64,
    /// With the cube: the largest difference of each cubeful equity over the records
    /// where no roll passes (the error spreads from the pass positions to those that
    /// lead to them, so it is smaller there, not nil).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_diff_without_pass: Option<CubeDiff>,
}

/// The largest difference of each quantity.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct MaxDiff {
    /// Cubeless equity.
    pub equity: f64,
    /// P(win).
    pub win: f64,
    /// P(win a gammon or more).
    pub win_gammon: f64,
    /// P(win a backgammon).
    pub win_backgammon: f64,
    /// P(lose a gammon or more).
    pub lose_gammon: f64,
    /// P(lose a backgammon).
    pub lose_backgammon: f64,
    /// With the cube: the four no-double equities.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub cube: Option<CubeDiff>,
}

/// The largest difference of each cubeful equity.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct CubeDiff {
    /// Owned.
    pub owned: f64,
    /// Centred.
    pub centred: f64,
    /// Centred, Jacoby.
    pub centred_jacoby: f64,
    /// Opponent owns.
    pub opponent_owns: f64,
}

/// One quantity's largest difference.
#[derive(Debug, Clone, Serialize)]
pub struct Worst {
    /// The quantity.
    pub name: &'static str,
    /// The difference.
    pub max_diff: f64,
    /// Where.
    pub record: u64,
    /// The position there.
    pub position: String,
    /// tabula's value.
    pub ours: f64,
    /// gnubg's value.
    pub theirs: f64,
}

/// gnubg's precision for a cubeless chance: 24-bit truncation plus its stopping rule.
pub const GNUBG_CHANCE_TOLERANCE: f64 = 1e-5 + 1.0 / 16_777_215.0;

/// A chance that differs by more than this while the equities agree is taken for a tie
/// kept differently: far beyond what gnubg's stopping rule leaves (a few 1e-5).
pub const TIE_GAP: f64 = 1e-3;

const NAMES: [&str; 10] = [
    "equity",
    "win",
    "win_gammon",
    "win_backgammon",
    "lose_gammon",
    "lose_backgammon",
    "owned",
    "centred",
    "centred_jacoby",
    "opponent_owns",
];

/// One record compared: its number, both programs' values, whether a roll passes there.
struct Compared {
    record: u64,
    ours: [f64; 10],
    theirs: [f64; 10],
    pass: bool,
}

/// What the records compared so far add up to: per quantity the largest difference, its
/// record (the first, on a tie) and the two values there; the largest cubeful differences
/// where no roll passes; the counts.
#[derive(Default)]
struct Tally {
    worst: [(f64, u64, f64, f64); 10],
    no_pass: [f64; 4],
    compared: u64,
    ties: u64,
    passes: u64,
}

impl Tally {
    /// Counts one record, compared for its first `quantities` values.
    fn add(&mut self, c: &Compared, quantities: usize) {
        self.compared += 1;
        self.passes += u64::from(c.pass);
        let diff: [f64; 10] = std::array::from_fn(|i| (c.ours[i] - c.theirs[i]).abs());
        if diff[0] <= 6.0 * GNUBG_CHANCE_TOLERANCE && diff[1..6].iter().any(|&d| d > TIE_GAP) {
            self.ties += 1;
        }
        for (i, w) in self.worst.iter_mut().enumerate().take(quantities) {
            if diff[i] > w.0 || (diff[i] == w.0 && c.record < w.1) {
                *w = (diff[i], c.record, c.ours[i], c.theirs[i]);
            }
        }
        if !c.pass {
            for j in 0..4 {
                self.no_pass[j] = self.no_pass[j].max(diff[6 + j]);
            }
        }
    }

    /// Both tallies in one; the result does not depend on how the records were split.
    fn merge(mut self, other: Tally) -> Tally {
        for (w, o) in self.worst.iter_mut().zip(other.worst) {
            if o.0 > w.0 || (o.0 == w.0 && o.1 < w.1) {
                *w = o;
            }
        }
        for (a, b) in self.no_pass.iter_mut().zip(other.no_pass) {
            *a = a.max(b);
        }
        self.compared += other.compared;
        self.ties += other.ties;
        self.passes += other.passes;
        self
    }
}

/// Compares the table (and its cube table, if any) with a gnubg database of the same
/// variant, record by record.
pub fn compare(tables: &Tables, file: &HyperFile) -> Result<Comparison, Error> {
    let variant = tables.variant();
    if variant.numbering != Numbering::Gnubg
        || variant.points != crate::gammon::gnubg::codecs::position_id::POINTS
    {
        return Err(Error::Variant {
            reason: format!(
                "{} is not a Hypergammon variant: gnubg keeps no database of it",
                variant.name()
            ),
        });
    }
    let (records, cube) = store::records(tables)?;
    let cube = cube.as_deref();
    let quantities = if cube.is_some() { 10 } else { 6 };
    let sides = Sides::new(variant);
    let rolls = variant.rolls();
    let numbers = tables.numbers();
    let n = records.len() as u64;
    let tally = (0..n)
        .into_par_iter()
        .map_init(
            || (Search::new(&sides), Vec::new()),
            |(search, found), r| -> Result<Option<Compared>, (u64, Error)> {
                let at = |e: Error| (r, e);
                let p = numbers.position(r).map_err(at)?;
                if check(variant, &p).is_err() {
                    return Ok(None);
                }
                let Some(theirs) = file.record(r).map_err(at)? else {
                    return Ok(None);
                };
                let rec = &records[r as usize];
                let o = decode_outcomes(rec);
                let mut ours = [0.0; 10];
                ours[..6].copy_from_slice(&[
                    decode_equity(rec),
                    o.win,
                    o.win_gammon,
                    o.win_backgammon,
                    o.lose_gammon,
                    o.lose_backgammon,
                ]);
                if let Some(c) = cube {
                    let c = decode_cube(&c[r as usize]);
                    for s in CubeState::ALL {
                        ours[6 + s.index()] = c[s];
                    }
                }
                let gnubg = [
                    theirs.equity(),
                    theirs.win,
                    theirs.win_gammon,
                    theirs.win_backgammon,
                    theirs.lose_gammon,
                    theirs.lose_backgammon,
                    theirs.owned,
                    theirs.centred,
                    theirs.centred_jacoby,
                    theirs.opponent_owns,
                ];
                let (me, opp) = numbers.hyper().split(r).map_err(at)?;
                let (me, opp) = (me as u16, opp as u16);
                let pass = rolls.moving.iter().any(|&roll| {
                    found.clear();
                    search.landings_into(me, sides.view(me, opp), roll, found);
                    found.is_empty()
                });
                Ok(Some(Compared {
                    record: r,
                    ours,
                    theirs: gnubg,
                    pass,
                }))
            },
        )
        .fold(
            || Ok(Tally::default()),
            |t: Result<Tally, (u64, Error)>, item| match (t, item) {
                (Ok(mut t), Ok(c)) => {
                    if let Some(c) = c {
                        t.add(&c, quantities);
                    }
                    Ok(t)
                }
                (Err(e), Err(f)) => Err(lowest(e, f)),
                (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
            },
        )
        .reduce(
            || Ok(Tally::default()),
            |a, b| match (a, b) {
                (Ok(a), Ok(b)) => Ok(a.merge(b)),
                (Err(e), Err(f)) => Err(lowest(e, f)),
                (Err(e), Ok(_)) | (Ok(_), Err(e)) => Err(e),
            },
        )
        .map_err(|(_, e)| e)?;
    let Tally {
        worst,
        no_pass,
        compared,
        ties,
        passes,
    } = tally;
    let listed = NAMES[..quantities]
        .iter()
        .zip(&worst)
        .map(|(&name, &(d, r, ours, theirs))| -> Result<Worst, Error> {
            Ok(Worst {
                name,
                max_diff: d,
                record: r,
                position: notation(variant, &numbers.position(r)?),
                ours,
                theirs,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let cube_diff = |v: [f64; 4]| CubeDiff {
        owned: v[0],
        centred: v[1],
        centred_jacoby: v[2],
        opponent_owns: v[3],
    };
    let max_diff = MaxDiff {
        equity: worst[0].0,
        win: worst[1].0,
        win_gammon: worst[2].0,
        win_backgammon: worst[3].0,
        lose_gammon: worst[4].0,
        lose_backgammon: worst[5].0,
        cube: cube.map(|_| cube_diff([worst[6].0, worst[7].0, worst[8].0, worst[9].0])),
    };
    Ok(Comparison {
        variant: variant.name(),
        records: n,
        compared,
        within_precision: max_diff.equity <= 6.0 * GNUBG_CHANCE_TOLERANCE,
        max_diff,
        quantities: listed,
        tie_records: ties,
        pass_records: passes,
        max_diff_without_pass: cube.map(|_| cube_diff(no_pass)),
    })
}

/// Of two failures, the one at the lower record: the same error however the records
/// were split among the threads.
fn lowest(a: (u64, Error), b: (u64, Error)) -> (u64, Error) {
    if b.0 < a.0 {
        b
    } else {
        a
    }
}
