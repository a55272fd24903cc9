//! What the bear-off tables teach (`docs/bearoff.md`, "What the tables teach"): how far
//! the one-sided estimate of a race is from the exact two-sided values, measured over
//! every pair of a two-sided table with the cube.
//!
//! ```text
//! cargo run --release --example bearoff_lessons TWO_SIDED.tbl ONE_SIDED.tbl [X [GNUBG_TS]]
//! ```
//!
//! For every pair where both sides have a checker on the board, and the side on roll:
//! - the win: the estimate (the side on roll wins if it needs no more rolls than the
//!   opponent, from the one-sided distributions) against the exact chance;
//! - the play: for each of the 21 rolls, the play an engine picks with the estimate (the
//!   one that leaves the opponent the lowest estimated win) and the play of the one-sided
//!   database's own criterion (the fewest expected rolls left), each against the play of
//!   the highest exact win; a roll counts as wrong when the chosen play's exact win is
//!   lower than the best's (by more than 1e-9, the table's rounding);
//! - the cube action, centred cube: the exact action from the table's cubeful values,
//!   against the action an engine derives from a win chance with Janowski's live-cube
//!   model at cube efficiency X (default 0.7), given the estimate and given the exact win
//!   (so that the estimate's own share of the mistakes shows apart from the model's);
//! - given gnubg's two-sided file of the same database (`gnubg_ts0.bd`, or one
//!   `makebearoff -t` wrote), the same for gnubg's 16-bit values: the plays its cubeless
//!   equities choose, and the centred cube action its cubeful equities give.
//!
//! Below fifteen checkers no gammon is possible, so the win chance is the whole cubeless
//! story. It needs only the library (`default-features = false`).

use rayon::prelude::*;
use std::path::Path;
use tabula::gammon::bearoff::gnubg::{ts_value, GnubgFile};
use tabula::gammon::bearoff::store::{OneSidedTable, TwoSidedTable};
use tabula::gammon::bearoff::{estimate, notation};
use tabula::gammon::cube::{decide_money, CubeDecision};
use tabula::gammon::moves::Generator;
use tabula::gammon::{CubeState, Roll, Variant};

/// Janowski's cubeful equity of the side on roll with win chance `p` (money, no gammons,
/// cube efficiency `x`), for the cube centred, owned by it, owned by the opponent:
/// `(1 − x)·(2p − 1) + x·live(p)`, the live cube's equity linear between the take point
/// `TP = 0.5 / (2 + x/2)` and the cash point `1 − TP`.
fn janowski(p: f64, x: f64) -> (f64, f64, f64) {
    let tp = 0.5 / (2.0 + x / 2.0);
    let cp = 1.0 - tp;
    let dead = 2.0 * p - 1.0;
    let line = |a: f64, b: f64| {
        if p <= a {
            -1.0
        } else if p >= b {
            1.0
        } else {
            -1.0 + 2.0 * (p - a) / (b - a)
        }
    };
    let mix = |live: f64| (1.0 - x) * dead + x * live;
    (mix(line(tp, cp)), mix(line(0.0, cp)), mix(line(tp, 1.0)))
}

/// The family's decision rule (`gammon::cube::decide`) on equities: no double, double and
/// take, double and pass, too good (no gammons: never), with a certain win a cash.
fn action(no_double: f64, opponent_owns: f64) -> CubeDecision {
    let dt = 2.0 * opponent_owns;
    if dt.min(1.0) > no_double || (no_double >= 1.0 && dt >= 1.0) {
        if dt <= 1.0 {
            CubeDecision::DoubleTake
        } else {
            CubeDecision::DoublePass
        }
    } else {
        CubeDecision::NoDouble
    }
}

#[derive(Default, Clone, Copy)]
struct Worst {
    value: f64,
    at: (u64, u64),
    roll: (u8, u8),
}

impl Worst {
    fn keep(&mut self, value: f64, at: (u64, u64), roll: (u8, u8)) {
        if value > self.value {
            *self = Worst { value, at, roll };
        }
    }
    fn max(self, o: Worst) -> Worst {
        if o.value > self.value {
            o
        } else {
            self
        }
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    pairs: u64,
    win_error_sum: f64,
    win_error_sq: f64,
    win_error: Worst,
    decisions: u64,
    estimate_wrong: u64,
    estimate_loss_sum: f64,
    estimate_loss: Worst,
    fewest_rolls_wrong: u64,
    fewest_rolls_loss_sum: f64,
    fewest_rolls_loss: Worst,
    cube_exact_vs_model_on_estimate: u64,
    cube_exact_vs_model_on_exact: u64,
    cube_model_estimate_vs_exact_win: u64,
    cube_exact_doubles: u64,
    gnubg_wrong: u64,
    gnubg_loss: Worst,
    gnubg_cube_wrong: u64,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.pairs += o.pairs;
        self.win_error_sum += o.win_error_sum;
        self.win_error_sq += o.win_error_sq;
        self.win_error = self.win_error.max(o.win_error);
        self.decisions += o.decisions;
        self.estimate_wrong += o.estimate_wrong;
        self.estimate_loss_sum += o.estimate_loss_sum;
        self.estimate_loss = self.estimate_loss.max(o.estimate_loss);
        self.fewest_rolls_wrong += o.fewest_rolls_wrong;
        self.fewest_rolls_loss_sum += o.fewest_rolls_loss_sum;
        self.fewest_rolls_loss = self.fewest_rolls_loss.max(o.fewest_rolls_loss);
        self.cube_exact_vs_model_on_estimate += o.cube_exact_vs_model_on_estimate;
        self.cube_exact_vs_model_on_exact += o.cube_exact_vs_model_on_exact;
        self.cube_model_estimate_vs_exact_win += o.cube_model_estimate_vs_exact_win;
        self.cube_exact_doubles += o.cube_exact_doubles;
        self.gnubg_wrong += o.gnubg_wrong;
        self.gnubg_loss = self.gnubg_loss.max(o.gnubg_loss);
        self.gnubg_cube_wrong += o.gnubg_cube_wrong;
        self
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: bearoff_lessons TWO_SIDED.tbl ONE_SIDED.tbl [X [GNUBG_TS]]");
        std::process::exit(2);
    }
    let two = TwoSidedTable::open(Path::new(&args[0]))?;
    let one = OneSidedTable::open(Path::new(&args[1]))?;
    let x: f64 = args.get(2).map_or(Ok(0.7), |s| s.parse())?;
    if !two.has_cube() || two.kind().gammons() {
        return Err("a two-sided table with the cube and fewer than fifteen checkers".into());
    }
    let index = two.index().clone();
    let n = index.sides() as usize;
    // gnubg's values, when its file is given: win (from 2p − 1), centred, opponent owns.
    let gnubg: Option<Vec<(f64, f64, f64)>> = match args.get(3) {
        None => None,
        Some(path) => {
            let file = GnubgFile::open(Path::new(path))?;
            if file.format().index().sides() != index.sides() {
                return Err("gnubg's file is of another database".into());
            }
            let mut out = Vec::with_capacity(n * n);
            for r in 0..(n * n) as u64 {
                let u = file.two_sided(r)?;
                let at = |i: usize| u.get(i).copied().map_or(f64::NAN, ts_value);
                out.push(((at(0) + 1.0) / 2.0, at(2), at(3)));
            }
            Some(out)
        }
    };

    // Per side: its distribution of rolls to bear off, and its mean.
    let mut dist = Vec::with_capacity(n);
    for s in 0..n as u64 {
        dist.push(one.distributions_of(&index.side(s)?)?);
    }
    let mean: Vec<f64> = (dist.iter())
        .map(|d| d.rolls.iter().enumerate().map(|(k, p)| k as f64 * p).sum())
        .collect();
    // The estimate and the exact win of every pair, side on roll first.
    let est: Vec<f64> = (0..n * n)
        .into_par_iter()
        .map(|r| estimate::estimate(&dist[r / n], &dist[r % n]).0)
        .collect();
    let mut exact = vec![0.0; n * n];
    let mut cubeful = vec![(0.0, 0.0); n * n];
    for (r, (e, c)) in exact.iter_mut().zip(cubeful.iter_mut()).enumerate() {
        let v = two.values_at(r as u64)?;
        *e = v.win;
        if let Some(cf) = v.cubeful {
            let a = decide_money(&cf, CubeState::Centred, true);
            *c = (a.no_double, cf.opponent_owns);
        }
    }
    // Per side and roll: the sides its plays leave (the one move generator's plays).
    let rolls: Vec<Roll> = (1..=6u8)
        .flat_map(|a| (a..=6).map(move |b| Roll::new(a, b)))
        .collect();
    let backgammon = Variant::backgammon();
    let mut generator = Generator::new(&backgammon);
    let mut succ: Vec<Vec<Vec<u64>>> = Vec::with_capacity(n);
    for s in 0..n as u64 {
        let p = index.position(s, 0)?;
        let mut per_roll = Vec::new();
        for &roll in &rolls {
            let mut after: Vec<u64> = Vec::new();
            for play in generator.plays(&p, roll) {
                after.push(index.ranks_of(&play.after)?.0);
            }
            after.sort_unstable();
            after.dedup();
            per_roll.push(after);
        }
        succ.push(per_roll);
    }

    let tally = (1..n)
        .into_par_iter()
        .map(|us| {
            let mut t = Tally::default();
            for them in 1..n {
                let r = us * n + them;
                let at = (us as u64, them as u64);
                t.pairs += 1;
                let err = est[r] - exact[r];
                t.win_error_sum += err.abs();
                t.win_error_sq += err * err;
                t.win_error.keep(err.abs(), at, (0, 0));
                for (k, after) in succ[us].iter().enumerate() {
                    if after.len() < 2 {
                        continue;
                    }
                    let roll = (rolls[k].low(), rolls[k].high());
                    t.decisions += 1;
                    // What a play leaving side `a` is worth to the mover: exact, estimated.
                    let worth = |a: u64, table: &[f64]| {
                        if a == 0 {
                            1.0
                        } else {
                            1.0 - table[them * n + a as usize]
                        }
                    };
                    let best = after.iter().map(|&a| worth(a, &exact)).fold(0.0, f64::max);
                    let pick = |key: &dyn Fn(u64) -> f64| {
                        *after
                            .iter()
                            .max_by(|&&a, &&b| key(a).total_cmp(&key(b)))
                            .unwrap_or(&after[0])
                    };
                    let by_estimate = pick(&|a| worth(a, &est));
                    let loss = best - worth(by_estimate, &exact);
                    if loss > 1e-9 {
                        t.estimate_wrong += 1;
                        t.estimate_loss_sum += loss;
                        t.estimate_loss.keep(loss, at, roll);
                    }
                    if let Some(g) = &gnubg {
                        let by_gnubg = pick(&|a| {
                            if a == 0 {
                                1.0
                            } else {
                                1.0 - g[them * n + a as usize].0
                            }
                        });
                        let loss = best - worth(by_gnubg, &exact);
                        if loss > 1e-9 {
                            t.gnubg_wrong += 1;
                            t.gnubg_loss.keep(loss, at, roll);
                        }
                    }
                    let by_rolls = pick(&|a| -mean[a as usize]);
                    let loss = best - worth(by_rolls, &exact);
                    if loss > 1e-9 {
                        t.fewest_rolls_wrong += 1;
                        t.fewest_rolls_loss_sum += loss;
                        t.fewest_rolls_loss.keep(loss, at, roll);
                    }
                }
                let (nd, oo) = cubeful[r];
                let truth = action(nd, oo);
                t.cube_exact_doubles += u64::from(truth.doubles());
                let model = |p: f64| {
                    let (c, _, u) = janowski(p, x);
                    action(c, u)
                };
                let (on_est, on_exact) = (model(est[r]), model(exact[r]));
                t.cube_exact_vs_model_on_estimate += u64::from(on_est != truth);
                t.cube_exact_vs_model_on_exact += u64::from(on_exact != truth);
                t.cube_model_estimate_vs_exact_win += u64::from(on_est != on_exact);
                if let Some(g) = &gnubg {
                    let (_, c, u) = g[r];
                    t.gnubg_cube_wrong += u64::from(action(c, u) != truth);
                }
            }
            t
        })
        .reduce(Tally::default, Tally::merge);

    let name = |(us, them): (u64, u64)| -> String {
        let side = |s| {
            index
                .side(s)
                .map(|v| notation::side(&v))
                .unwrap_or_default()
        };
        format!("{}/{}", side(us), side(them))
    };
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "{} against {}: {} pairs with a checker on each side",
        two.kind().name(),
        one.kind().name(),
        tally.pairs
    );
    println!(
        "win, one-sided estimate minus exact: largest {:.4} at {}, mean {:.5}, root mean square {:.5}",
        tally.win_error.value,
        name(tally.win_error.at),
        tally.win_error_sum / tally.pairs as f64,
        (tally.win_error_sq / tally.pairs as f64).sqrt()
    );
    // How often a rule's play loses win chance, on average and at worst.
    let losses = |wrong: u64, loss_sum: f64, worst: &Worst| -> String {
        format!(
            "{} ({:.2}%), {:.2e} on average there, at most {:.4} ({} to play {}-{})",
            wrong,
            pct(wrong, tally.decisions),
            loss_sum / wrong.max(1) as f64,
            worst.value,
            name(worst.at),
            worst.roll.0,
            worst.roll.1
        )
    };
    println!(
        "plays: {} (pair, roll) with a choice; the estimate's play loses win chance in {}",
        tally.decisions,
        losses(
            tally.estimate_wrong,
            tally.estimate_loss_sum,
            &tally.estimate_loss
        )
    );
    println!(
        "plays by the fewest expected rolls lose win chance in {}",
        losses(
            tally.fewest_rolls_wrong,
            tally.fewest_rolls_loss_sum,
            &tally.fewest_rolls_loss
        )
    );
    println!(
        "cube, centred (exact: a double in {} pairs): Janowski x={x} on the estimate gives \
         another action than the exact one in {} pairs ({:.2}%); on the exact win in {} \
         ({:.2}%); the estimate alone changes the model's action in {} ({:.2}%)",
        tally.cube_exact_doubles,
        tally.cube_exact_vs_model_on_estimate,
        pct(tally.cube_exact_vs_model_on_estimate, tally.pairs),
        tally.cube_exact_vs_model_on_exact,
        pct(tally.cube_exact_vs_model_on_exact, tally.pairs),
        tally.cube_model_estimate_vs_exact_win,
        pct(tally.cube_model_estimate_vs_exact_win, tally.pairs),
    );
    if gnubg.is_some() {
        println!(
            "gnubg's 16-bit values: its cubeless equities choose a play that loses win chance \
             in {} (pair, roll) ({:.3}%), at most {:.2e} ({} to play {}-{}); its cubeful \
             equities give another centred cube action than the exact one in {} pairs ({:.3}%)",
            tally.gnubg_wrong,
            pct(tally.gnubg_wrong, tally.decisions),
            tally.gnubg_loss.value,
            name(tally.gnubg_loss.at),
            tally.gnubg_loss.roll.0,
            tally.gnubg_loss.roll.1,
            tally.gnubg_cube_wrong,
            pct(tally.gnubg_cube_wrong, tally.pairs),
        );
    }
    Ok(())
}
