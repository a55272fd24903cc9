//! How a backgammon engine asks tabula's bear-off tables (`docs/bearoff.md`, "The
//! library"): open a table once, then each question is a few index computations and one
//! memory read. The engine keeps its own board; here a side is 25 counts, its points 1 to
//! 24 then its bar, as `tabula::gammon::Position` holds it.
//!
//! ```text
//! cargo run --release --example bearoff_engine [TABLES_DIR]
//! ```
//!
//! builds the one-sided database of 6 points and the two-sided 6x6 with the cube into
//! TABLES_DIR (a temporary folder by default) when they are not there (half a second),
//! then answers: the exact chances and cube action of a race, the best play of a roll
//! under each cube state, the one-sided estimate an engine falls back on beyond its
//! two-sided table, and a race of fifteen checkers a side: exact from the 6x15 table when
//! TABLES_DIR holds it (`tabula bearoff build --two-sided --points 6 --checkers 15`), else
//! estimated, and said to be. It needs only the library (`default-features = false`).

use std::path::{Path, PathBuf};
use tabula::gammon::bearoff::store::{self, Kind, OneSidedTable, TwoSidedTable};
use tabula::gammon::bearoff::{estimate, query, BearoffIndex};
use tabula::gammon::cube::decide_money;
use tabula::gammon::moves::Generator;
use tabula::gammon::{CubeState, Position, Roll, Variant};
use tabula::progress::Progress;

/// One side of a race as the engine holds it: `checkers[p - 1]` on point `p`.
fn side(points: &[(usize, u8)]) -> [u8; 25] {
    let mut s = [0u8; 25];
    for &(p, n) in points {
        s[p - 1] = n;
    }
    s
}

/// The table of `kind` in `dir`, built first if it is not there.
fn table_in(dir: &Path, kind: &Kind) -> Result<PathBuf, tabula::gammon::Error> {
    let path = dir.join(kind.file_name());
    if !path.exists() {
        let report = store::build(kind, &path, Progress::SILENT)?;
        println!(
            "built {} in {:.2} s ({})",
            path.display(),
            report.seconds,
            report.table.checksum
        );
    }
    Ok(path)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scratch;
    let dir = match std::env::args_os().nth(1) {
        Some(d) => PathBuf::from(d),
        None => {
            scratch = tempfile::tempdir()?;
            scratch.path().to_path_buf()
        }
    };
    let two = TwoSidedTable::open(&table_in(&dir, &Kind::two_sided(6, 6, true))?)?;
    let one = OneSidedTable::open(&table_in(&dir, &Kind::one_sided(6))?)?;

    // The race: the side on roll has 6,6,5 (17 pips), the opponent 4,2,1 (7 pips).
    let us = side(&[(6, 2), (5, 1)]);
    let them = side(&[(4, 1), (2, 1), (1, 1)]);
    let race = Position::new(&us, &them)?;

    // 1. Look it up: rank both sides, read one record.
    let index: &BearoffIndex = two.index();
    let (r_us, r_them) = index.ranks_of(&race)?;
    let v = two.values(r_us, r_them)?;
    println!(
        "record {}: win {:.4}, cubeless equity {:+.4}",
        index.record(r_us, r_them)?,
        v.win,
        v.equity()
    );
    if let Some(c) = &v.cubeful {
        for state in [CubeState::Centred, CubeState::Owned] {
            let a = decide_money(c, state, true);
            let action = a.action.map_or("no access".into(), |d| d.to_string());
            println!(
                "  cube {}: no double {:+.4}, double/take {:+.4} -> {action}",
                state.name(),
                a.no_double,
                a.double_take
            );
        }
    }

    // 2. Choose a play: every play of the roll from the one move generator, each worth
    //    minus the opponent's value after it (the opponent on roll; with the cube, the
    //    opponent's doubling option first, as `Cubeful::after_move` applies it).
    let roll = Roll::new(6, 1);
    let backgammon = Variant::backgammon();
    let mut generator = Generator::new(&backgammon);
    for state in [None, Some(CubeState::Centred)] {
        // (worth in the cube state, cubeless worth): equal cubeful values (a pass the
        // opponent's double forces, say) are told apart by the cubeless one.
        let mut best: Option<((f64, f64), Position)> = None;
        for play in generator.plays(&race, roll) {
            let worth = if play.wins() {
                (1.0, 1.0) // one point: with six checkers a side there is no gammon
            } else {
                let (mover, opponent) = index.ranks_of(&play.after)?;
                let next = two.values(opponent, mover)?;
                let cubeless = -next.equity();
                match (state, &next.cubeful) {
                    (Some(s), Some(c)) => (c.after_move()[s], cubeless),
                    _ => (cubeless, cubeless),
                }
            };
            if best.as_ref().is_none_or(|(w, _)| worth > *w) {
                best = Some((worth, play.after));
            }
        }
        if let Some(((worth, _), after)) = best {
            let (mover, _) = index.ranks_of(&after)?;
            println!(
                "{roll} {}: best play leaves {} (worth {worth:+.4})",
                state.map_or("cubeless".into(), |s| format!("cube {}", s.name())),
                tabula::gammon::bearoff::notation::side(&index.side(mover)?)
            );
        }
    }
    // The library ranks every play too, as `tabula bearoff hint` prints them.
    let hint = query::hint(&two, r_us, r_them, roll, Some(CubeState::Centred))?;
    println!("query::hint ranks {} plays", hint.plays.len());

    // 3. Beyond the two-sided table: the one-sided estimate from each side's distribution
    //    of rolls to bear off (the side on roll wins if it needs no more rolls).
    let d_us = one.distributions_of(&us[..6])?;
    let d_them = one.distributions_of(&them[..6])?;
    let (win, _, _) = estimate::estimate(&d_us, &d_them);
    println!(
        "one-sided estimate of the win {win:.4} (exact {:.4}); mean rolls {:.3} against {:.3}",
        v.win,
        mean(&d_us.rolls),
        mean(&d_them.rolls)
    );

    // 4. A real race, fifteen checkers a side: the 6x15 table answers it exactly when it
    //    is there (with the cube or without); otherwise the one-sided estimate, labelled.
    let us = side(&[(6, 3), (5, 3), (4, 3), (3, 2), (2, 2), (1, 2)]);
    let them = side(&[(6, 2), (5, 3), (4, 3), (3, 3), (2, 2), (1, 2)]);
    let race = Position::new(&us, &them)?;
    let exact = [true, false]
        .map(|cube| dir.join(Kind::two_sided(6, 15, cube).file_name()))
        .into_iter()
        .find(|p| p.exists());
    match exact {
        Some(path) => {
            let t = TwoSidedTable::open(&path)?;
            let (a, b) = t.index().ranks_of(&race)?;
            let v = t.values(a, b)?;
            println!(
                "15 checkers a side, exact from {}: win {:.4}, equity {:+.4}",
                path.display(),
                v.win,
                v.equity()
            );
        }
        None => {
            let e = estimate::race_estimate(&one, &us[..6], &them[..6])?;
            println!(
                "15 checkers a side ({}; no 6x15 table here): win {:.4}, equity {:+.4}",
                e.method, e.win, e.equity
            );
        }
    }
    Ok(())
}

fn mean(d: &[f64]) -> f64 {
    d.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}
