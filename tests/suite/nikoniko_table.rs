//! The built NikoNiko tables: checked against the spec's worked example, an independent
//! exact solver of bear-offs, the manifest's checksums, and a rebuild on one thread.
//! They read the suite's one build (see `common::nikoniko_build`).

use crate::common::niko::{index, parse_position, variant};
use assert_cmd::Command;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::HashMap;
use std::path::PathBuf;
use tabula::gammon::{Evaluator, Position};
use tabula::nikoniko::store::{self, Tables};
use tabula::progress::Progress;

/// The suite's one NikoNiko build (made by the command line, see `common`): the equity
/// table's path and the build's report.
fn built() -> (&'static PathBuf, &'static serde_json::Value) {
    let build = crate::common::nikoniko_build();
    (&build.files.1, &build.report)
}

fn tables() -> Tables {
    Tables::open(built().0).unwrap()
}

fn equity(t: &Tables, position: &str) -> f64 {
    t.equity(&parse_position(position).unwrap()).unwrap()
}

#[test]
fn the_specs_worked_example_one_checker_each_on_point_one_is_worth_0_8() {
    let t = tables();
    assert_eq!(t.equities().unwrap()[0], 8000);
    assert_eq!(equity(&t, "1/1"), 0.8);
}

#[test]
fn the_build_converges_below_the_tolerance() {
    let r = built().1;
    let residual = r["residual"].as_f64().unwrap();
    let outcome_residual = r["outcome_residual"].as_f64().unwrap();
    assert!(residual < 1e-12 && outcome_residual < 1e-12);
    let sweeps = r["sweeps"].as_u64().unwrap();
    assert!(sweeps > 10 && sweeps < 200, "{sweeps} sweeps");
}

#[test]
fn the_checksums_are_those_of_the_manifest() {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tables/MANIFEST")).unwrap();
    let expected = |name: &str| {
        manifest
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .and_then(|l| l.split_whitespace().last())
            .unwrap_or_else(|| panic!("{name} is not in the manifest"))
            .to_string()
    };
    let tables = built().1["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    for (table, name) in tables.iter().zip(["nikoniko.tbl", "nikoniko.outcomes"]) {
        assert_eq!(
            format!("sha256:{}", table["checksum"].as_str().unwrap()),
            expected(name)
        );
    }
}

// A second full solve, on one thread: run with `cargo test --release -- --ignored`.
#[test]
#[ignore = "a second full solve; run with --ignored"]
fn the_tables_bytes_do_not_depend_on_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.tbl");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| store::build(&path, Progress::SILENT))
        .unwrap();
    let two = built().0;
    assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(two).unwrap());
    assert_eq!(
        std::fs::read(store::outcomes_path(&path)).unwrap(),
        std::fs::read(store::outcomes_path(two)).unwrap()
    );
}

#[test]
fn every_equity_lies_in_range_and_matches_its_outcome_chances() {
    let t = tables();
    for i in 0..tabula::nikoniko::STATES {
        let e = t.equity_at(i).unwrap();
        assert!((-3.0..=3.0).contains(&e), "{i}: {e}");
        let o = t.outcomes_at(i).unwrap();
        let from_o = o.equity();
        assert!((from_o - e).abs() < 2e-4, "{i}: {e} vs {from_o}");
    }
}

#[test]
fn a_board_where_neither_side_can_ever_move_is_worth_nothing() {
    // Each side has a checker on the bar facing the other's closed home board: every roll
    // passes, for ever. The pass cycle must give 0, not a division by zero.
    let t = tables();
    assert_eq!(equity(&t, "bar,2,2,1,1/bar,2,2,1,1"), 0.0);
    assert_eq!(
        t.outcomes(&parse_position("bar,2,2,1,1/bar,2,2,1,1").unwrap())
            .unwrap(),
        tabula::gammon::Outcomes::default()
    );
}

#[test]
fn a_closed_out_side_loses_most_of_its_games() {
    // The side on roll is on the bar against a closed board: it passes until the
    // opponent breaks its board, and the opponent is far ahead.
    let t = tables();
    let e = equity(&t, "bar,6,6,6,6/2,2,1,1");
    assert!(e < -0.9, "{e}");
    // It passes on every roll, so its equity is exactly minus the opponent's on the same
    // board.
    assert_eq!(equity(&t, "2,2,1,1/bar,6,6,6,6"), -e);
}

#[test]
fn the_opening_position_favours_the_side_on_roll() {
    let t = tables();
    let e = t.equity(&variant().opening()).unwrap();
    assert!(e > 0.0 && e < 1.0, "{e}");
    assert!((e - built().1["opening_equity"].as_f64().unwrap()).abs() <= 0.5e-4);
}

/// The rolls that move, each as its orders of dice, with its weight among the 9.
const ROLLS: [(&[&[u8]], i64); 5] = [
    (&[&[1]], 2),
    (&[&[2]], 2),
    (&[&[1, 1, 1, 1]], 1),
    (&[&[1, 2], &[2, 1]], 2),
    (&[&[2, 2, 2, 2]], 1),
];

/// A bear-off side as slots: `one` on point 1, `two` on point 2, the rest off.
fn home_side((one, two): Home) -> [u8; 9] {
    let mut v = [0u8; 9];
    v[0] = one;
    v[1] = two;
    v
}

/// A side in a bear-off: checkers on its point 1 and on its point 2.
type Home = (u8, u8);

/// An independent exact solver for bear-offs (every checker of both sides on its points
/// 1–2 or off), in rational arithmetic, with its own move rules.
struct BearOff {
    memo: HashMap<(Home, Home), BigRational>,
    gammon_memo: HashMap<(Home, Home), (BigRational, BigRational)>,
}

impl BearOff {
    /// Positions after playing `dice` in order from (on 1, on 2); a bear-off of the last
    /// checker stops the play.
    fn after(side: (u8, u8), dice: &[u8]) -> Vec<(u8, u8)> {
        let Some((&d, rest)) = dice.split_first() else {
            return vec![side];
        };
        if side == (0, 0) {
            return vec![side];
        }
        let (one, two) = side;
        let mut next = Vec::new();
        if d == 1 {
            if one > 0 {
                next.push((one - 1, two));
            }
            if two > 0 {
                next.push((one + 1, two - 1));
            }
        } else if two > 0 {
            next.push((one, two - 1));
        } else {
            next.push((one - 1, 0));
        }
        next.into_iter()
            .flat_map(|s| Self::after(s, rest))
            .collect()
    }

    /// Σ over the rolls that move of weight × best value, over 9.
    fn moving_part(&mut self, me: (u8, u8), opp: (u8, u8)) -> BigRational {
        let mut sum = BigRational::zero();
        for (orders, weight) in ROLLS {
            let mut best: Option<BigRational> = None;
            for dice in orders {
                for s in Self::after(me, dice) {
                    let v = if s == (0, 0) {
                        let gammon = opp.0 + opp.1 == 5;
                        BigRational::from_integer(if gammon { 2 } else { 1 }.into())
                    } else {
                        -self.equity(opp, s)
                    };
                    if best.as_ref().is_none_or(|b| v > *b) {
                        best = Some(v);
                    }
                }
            }
            sum += best.unwrap() * BigRational::from_integer(weight.into());
        }
        sum / BigRational::from_integer(9.into())
    }

    /// E(me, opp), with the 0-0 pass solved exactly against E(opp, me).
    fn equity(&mut self, me: (u8, u8), opp: (u8, u8)) -> BigRational {
        if let Some(v) = self.memo.get(&(me, opp)) {
            return v.clone();
        }
        let a = self.moving_part(me, opp);
        let b = self.moving_part(opp, me);
        let ninth = BigRational::new(1.into(), 9.into());
        // E_ab = a - E_ba/9, E_ba = b - E_ab/9.
        let e = (a - b * ninth.clone()) / (BigRational::one() - ninth.clone() * ninth);
        self.memo.insert((me, opp), e.clone());
        e
    }

    /// The chances that the side on roll wins a gammon and loses one, both sides playing
    /// the plays of greatest exact equity: (a_s, b_s) over the moving rolls, then the 0-0
    /// pass solved against the same board with the other side on roll.
    fn gammons(&mut self, me: Home, opp: Home) -> (BigRational, BigRational) {
        if let Some(v) = self.gammon_memo.get(&(me, opp)) {
            return v.clone();
        }
        let a = self.gammon_part(me, opp);
        let b = self.gammon_part(opp, me);
        let ninth = BigRational::new(1.into(), 9.into());
        let den = BigRational::one() - ninth.clone() * ninth.clone();
        // x_s = a_s + flip(x_t)/9, x_t = a_t + flip(x_s)/9.
        let v = (
            (a.0 + b.1 * ninth.clone()) / den.clone(),
            (a.1 + b.0 * ninth) / den,
        );
        self.gammon_memo.insert((me, opp), v.clone());
        v
    }

    fn gammon_part(&mut self, me: Home, opp: Home) -> (BigRational, BigRational) {
        let (mut win, mut lose) = (BigRational::zero(), BigRational::zero());
        for (orders, weight) in ROLLS {
            let mut best: Option<(BigRational, Home)> = None;
            for dice in orders {
                for s in Self::after(me, dice) {
                    let v = if s == (0, 0) {
                        BigRational::from_integer(if opp.0 + opp.1 == 5 { 2 } else { 1 }.into())
                    } else {
                        -self.equity(opp, s)
                    };
                    if best.as_ref().is_none_or(|b| v > b.0) {
                        best = Some((v, s));
                    }
                }
            }
            let w = BigRational::new(weight.into(), 9.into());
            let (_, s) = best.unwrap();
            if s == (0, 0) {
                if opp.0 + opp.1 == 5 {
                    win += w;
                }
            } else {
                let (their_win, their_lose) = self.gammons(opp, s);
                win += w.clone() * their_lose;
                lose += w * their_win;
            }
        }
        (win, lose)
    }
}

#[test]
fn every_bear_off_matches_an_independent_exact_rational_solver() {
    let t = tables();
    let mut oracle = BearOff {
        memo: HashMap::new(),
        gammon_memo: HashMap::new(),
    };
    let sides: Vec<(u8, u8)> = (0..=5u8)
        .flat_map(|a| (0..=5 - a).map(move |b| (a, b)))
        .filter(|&s| s != (0, 0))
        .collect();
    assert_eq!(sides.len(), 20);
    let mut checked = 0;
    for &me in &sides {
        for &opp in &sides {
            let exact = oracle.equity(me, opp);
            let p = Position::new(&home_side(me), &home_side(opp)).unwrap();
            let stored = t.equity(&p).unwrap();
            let x = exact.to_f64().unwrap();
            assert!(
                (stored - x).abs() <= 0.5e-4 + 1e-12,
                "{me:?} {opp:?}: {stored} vs {x}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 400);
    // The gammon chances too: the stored outcomes against the exact ones.
    for &me in &sides {
        for &opp in &sides {
            let (win_g, lose_g) = oracle.gammons(me, opp);
            let o = t
                .outcomes(&Position::new(&home_side(me), &home_side(opp)).unwrap())
                .unwrap();
            let tol = 1.5 / 65535.0;
            assert!(
                (o.win_gammon - win_g.to_f64().unwrap()).abs() <= tol,
                "{me:?} {opp:?}"
            );
            assert!(
                (o.lose_gammon - lose_g.to_f64().unwrap()).abs() <= tol,
                "{me:?} {opp:?}"
            );
            assert_eq!(
                (o.win_backgammon, o.lose_backgammon),
                (0.0, 0.0),
                "no backgammon in a bear-off"
            );
        }
    }
    // The worked example again, now exactly: 4/5.
    assert_eq!(
        oracle.equity((1, 0), (1, 0)),
        BigRational::new(4.into(), 5.into())
    );
}

fn cli_json(args: &[&str]) -> serde_json::Value {
    let table = built().0.to_str().unwrap().to_string();
    crate::common::json_of(
        crate::common::tabula()
            .args(args)
            .args(["--table", &table, "--json"]),
    )
}

#[test]
fn equity_reports_the_index_and_the_equity_for_the_side_on_roll() {
    let v = cli_json(&["nikoniko", "equity", "1/1"]);
    assert_eq!(v["index"], 0);
    assert_eq!(v["equity"], 0.8);
    let win = v["outcomes"]["win"].as_f64().unwrap();
    assert!((win - 0.9).abs() < 1e-4);
}

#[test]
fn hint_lists_the_plays_best_first_with_the_equity_each_loses() {
    let v = cli_json(&["nikoniko", "hint", "8,8,5,2,2/8,8,5,2,2", "1-2"]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    let eq: Vec<f64> = moves
        .iter()
        .map(|m| m["equity"].as_f64().unwrap())
        .collect();
    assert!(eq.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(moves[0]["loss"], 0.0);
    // The best play's equity is minus the equity of its position with the opponent on roll.
    let after = parse_position(moves[0]["position"].as_str().unwrap()).unwrap();
    let t = tables();
    assert_eq!(eq[0], -t.equity(&after.swapped()).unwrap());
    assert_eq!(v["index"], index().index(&variant().opening()));
}

#[test]
fn verify_finds_the_table_consistent_within_its_rounding() {
    let v = cli_json(&["nikoniko", "verify"]);
    assert_eq!(v["ok"], true);
    assert!(v["max_bellman_gap"].as_f64().unwrap() <= 1e-4 + 1e-9);
}

#[test]
fn verify_refuses_a_table_with_a_changed_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.tbl");
    std::fs::copy(built().0, &path).unwrap();
    std::fs::copy(store::outcomes_path(built().0), store::outcomes_path(&path)).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[tabula::table::HEADER_LEN + 2 * 1000] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    Command::cargo_bin("tabula")
        .unwrap()
        .args(["nikoniko", "verify", "--table"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("corrupt"));
}

#[test]
fn a_game_against_the_table_runs_to_its_end_and_refuses_illegal_answers() {
    let play = |input: &str| {
        let out = Command::cargo_bin("tabula")
            .unwrap()
            .args(["nikoniko", "play", "--seed", "7", "--table"])
            .arg(built().0)
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    // Always the first listed play, after one answer that is not a play at all; no
    // other game.
    let input = format!("99\n8/1\n{}n\n", "1\n".repeat(500));
    let text = play(&input);
    assert!(
        text.contains("You win") || text.contains("O wins"),
        "{text}"
    );
    assert!(!text.contains("Game abandoned"), "{text}");
    assert!(
        text.contains("There is no play 99") || text.contains("Only one play"),
        "{text}"
    );
    // The family's board, on the article's 8 points.
    assert!(text.contains("+-5--6-------7--8-+"), "{text}");
    // The same seed and answers replay the same game.
    assert_eq!(play(&input), text);
    // The end of the input abandons the game.
    assert!(play("").contains("Game abandoned."));
}
