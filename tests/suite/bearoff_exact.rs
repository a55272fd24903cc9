//! The bear-off tables against an independent computation written for this test: the
//! rules of bearing off written again on checker lists (every order of the dice, every
//! checker), plain memoised recursion over small databases, the cube's rules written out
//! from `docs/gammon.md`; and, with `--ignored`, against GNU Backgammon's own files.

use std::collections::{BTreeSet, HashMap};
use tabula::gammon::bearoff::store::{build, Kind, OneSidedTable, TwoSidedTable};
use tabula::gammon::bearoff::BearoffIndex;
use tabula::progress::Progress;

/// A side: its checkers' points, highest first (borne-off checkers left out).
type Side = Vec<u8>;

/// Every side reachable by playing the dice `dice` in order from `side`, each step any
/// checker the rules allow; a side that bears off its last checker stops there.
fn play(side: &Side, dice: &[u8], out: &mut BTreeSet<Side>) {
    let Some((&d, rest)) = dice.split_first() else {
        out.insert(side.clone());
        return;
    };
    if side.is_empty() {
        out.insert(side.clone());
        return;
    }
    let top = side[0];
    let mut moved = false;
    for i in 0..side.len() {
        if i > 0 && side[i] == side[i - 1] {
            continue;
        }
        let x = side[i];
        let mut next = side.clone();
        if x > d {
            next[i] = x - d;
        } else if top <= 6 && (x == d || x == top) {
            next.remove(i);
        } else {
            continue;
        }
        moved = true;
        next.sort_unstable_by(|a, b| b.cmp(a));
        play(&next, rest, out);
    }
    assert!(moved, "a die can always be played in a bear-off");
}

/// The distinct results of roll `a-b`: both orders of the dice, four steps on a double.
fn plays(side: &Side, a: u8, b: u8) -> Vec<Side> {
    let mut out = BTreeSet::new();
    if a == b {
        play(side, &[a; 4], &mut out);
    } else {
        play(side, &[a, b], &mut out);
        play(side, &[b, a], &mut out);
    }
    out.into_iter().collect()
}

fn rolls() -> Vec<(u8, u8, f64)> {
    let mut out = Vec::new();
    for a in 1..=6u8 {
        for b in a..=6u8 {
            out.push((a, b, if a == b { 1.0 } else { 2.0 }));
        }
    }
    out
}

/// Every side of at most `c` checkers on `p` points.
/// [`all_sides`] with a checker left: the sides of a game still under way.
fn sides_in_play(p: u8, c: usize) -> Vec<Side> {
    let mut sides = all_sides(p, c);
    sides.retain(|s| !s.is_empty());
    sides
}

fn all_sides(p: u8, c: usize) -> Vec<Side> {
    fn grow(p: u8, c: usize, max: u8, side: &mut Side, out: &mut Vec<Side>) {
        out.push(side.clone());
        if side.len() == c {
            return;
        }
        for x in (1..=max.min(p)).rev() {
            side.push(x);
            grow(p, c, x, side, out);
            side.pop();
        }
    }
    let mut out = Vec::new();
    grow(p, c, p, &mut Vec::new(), &mut out);
    out
}

fn counts(side: &Side, p: usize) -> Vec<u8> {
    let mut c = vec![0u8; p];
    for &x in side {
        c[usize::from(x) - 1] += 1;
    }
    c
}

/// The two-sided values by plain recursion: [equity, win, win gammon, lose gammon,
/// owned, centred, Jacoby, opponent owns] for the side on roll.
struct Pairs {
    full: usize,
    memo: HashMap<(Side, Side), [f64; 8]>,
}

impl Pairs {
    fn value(&mut self, us: &Side, them: &Side) -> [f64; 8] {
        if them.is_empty() {
            // The opponent is off: the side on roll has lost, a gammon if it has none off.
            let g = if us.len() == self.full { 1.0 } else { 0.0 };
            return [-1.0 - g, 0.0, 0.0, g, -1.0 - g, -1.0 - g, -1.0, -1.0 - g];
        }
        if let Some(v) = self.memo.get(&(us.clone(), them.clone())) {
            return *v;
        }
        let mut total = [0.0; 8];
        for (a, b, w) in rolls() {
            let mut best = [f64::NEG_INFINITY; 8];
            for after in plays(us, a, b) {
                let o = self.value(them, &after);
                // The opponent, on roll, doubles first where it has access and gains.
                let dt = (2.0 * o[7]).min(1.0);
                let mine = [
                    -o[0],
                    1.0 - o[1],
                    o[3],
                    o[2],
                    -o[7],
                    -o[5].max(dt),
                    -o[6].max(dt),
                    -o[4].max(dt),
                ];
                if mine[0] > best[0] {
                    best[..4].copy_from_slice(&mine[..4]);
                }
                for s in 4..8 {
                    best[s] = best[s].max(mine[s]);
                }
            }
            for (t, x) in total.iter_mut().zip(best) {
                *t += w * x / 36.0;
            }
        }
        self.memo.insert((us.clone(), them.clone()), total);
        total
    }
}

fn two_sided_agrees(p: u8, c: usize) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let kind = Kind::two_sided(usize::from(p), c, true);
    let path = dir.path().join(kind.file_name());
    build(&kind, &path, Progress::SILENT).unwrap();
    let table = TwoSidedTable::open(&path).unwrap();
    let index = BearoffIndex::new(usize::from(p), c).unwrap();
    let mut pairs = Pairs {
        full: if c == 15 { 15 } else { usize::MAX },
        memo: HashMap::new(),
    };
    let sides = sides_in_play(p, c);
    let mut compared = 0;
    for us in &sides {
        for them in &sides {
            let want = pairs.value(us, them);
            let r = |s: &Side| index.rank(&counts(s, usize::from(p))).unwrap();
            let got = table.values(r(us), r(them)).unwrap();
            let cube = got.cubeful.unwrap();
            let close = |a: f64, b: f64| (a - b).abs() < 5e-9;
            assert!(close(got.win, want[1]), "{us:?}/{them:?}: {got:?} {want:?}");
            assert!(close(got.win_gammon, want[2]) && close(got.lose_gammon, want[3]));
            assert!(close(got.equity(), want[0]), "{us:?}/{them:?}");
            assert!(
                close(cube.owned, want[4]),
                "{us:?}/{them:?}: {cube:?} {want:?}"
            );
            assert!(
                close(cube.centred, want[5]),
                "{us:?}/{them:?}: {cube:?} {want:?}"
            );
            assert!(close(cube.opponent_owns, want[7]));
            if c == 15 {
                assert!(close(cube.centred_jacoby, want[6]));
            }
            compared += 1;
        }
    }
    compared
}

#[test]
fn every_two_sided_value_with_the_cube_agrees_with_plain_recursion_on_4x4() {
    assert_eq!(two_sided_agrees(4, 4), 69 * 69);
}

#[test]
fn every_gammon_and_jacoby_value_agrees_with_plain_recursion_on_2x15() {
    assert_eq!(two_sided_agrees(2, 15), 135 * 135);
}

/// The one-sided database by plain recursion in exact rational arithmetic: each roll's
/// play is the one of least expectation, among exactly equal ones the one to the
/// lowest-numbered side (`docs/bearoff.md`'s rule); the distributions follow the plays.
struct Single {
    index: BearoffIndex,
    memo: HashMap<Side, (Ratio, Ratio)>,
    dist: HashMap<(Side, bool), Vec<Ratio>>,
}

type Ratio = num_rational::BigRational;

impl Single {
    fn rank(&self, s: &Side) -> u64 {
        self.index.rank(&counts(s, self.index.points())).unwrap()
    }

    /// (rolls to bear off, rolls to the first checker off).
    fn means(&mut self, s: &Side) -> (Ratio, Ratio) {
        use num_traits::Zero;
        if s.is_empty() {
            return (Ratio::zero(), Ratio::zero());
        }
        if let Some(m) = self.memo.get(s) {
            return m.clone();
        }
        let (mut all, mut first) = (Ratio::zero(), Ratio::zero());
        for (a, b, w) in rolls() {
            let w = Ratio::from_integer((w as i64).into());
            let (best, gbest) = (self.best(s, a, b, false), self.best(s, a, b, true));
            all += &w * self.means(&best).0;
            if gbest.len() == 15 {
                first += &w * self.means(&gbest).1;
            }
        }
        let one = Ratio::from_integer(1.into());
        let n36 = Ratio::from_integer(36.into());
        let m = (&one + all / &n36, &one + first / &n36);
        self.memo.insert(s.clone(), m.clone());
        m
    }

    /// The play of roll `a-b` kept: least expectation, then lowest rank (a play that bears
    /// a checker off is worth 0 to the first-off quantity).
    fn best(&mut self, s: &Side, a: u8, b: u8, gammon: bool) -> Side {
        let mut keyed: Vec<(Ratio, u64, Side)> = Vec::new();
        for t in plays(s, a, b) {
            let v = if gammon && t.len() < 15 {
                Ratio::from_integer(0.into())
            } else if gammon {
                self.means(&t).1
            } else {
                self.means(&t).0
            };
            let r = if gammon && t.len() < 15 {
                u64::MAX
            } else {
                self.rank(&t)
            };
            keyed.push((v, r, t));
        }
        keyed.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)));
        keyed.swap_remove(0).2
    }

    fn distribution(&mut self, s: &Side, gammon: bool) -> Vec<Ratio> {
        use num_traits::{One, Zero};
        if s.is_empty() || (gammon && s.len() < 15) {
            return vec![Ratio::one()];
        }
        if let Some(d) = self.dist.get(&(s.clone(), gammon)) {
            return d.clone();
        }
        let mut out = vec![Ratio::zero()];
        for (a, b, w) in rolls() {
            let t = self.best(s, a, b, gammon);
            let d = self.distribution(&t, gammon);
            if out.len() < d.len() + 1 {
                out.resize(d.len() + 1, Ratio::zero());
            }
            let w = Ratio::new((w as i64).into(), 36.into());
            for (i, p) in d.iter().enumerate() {
                out[i + 1] += &w * p;
            }
        }
        self.dist.insert((s.clone(), gammon), out.clone());
        out
    }
}

/// Every side's two distributions of the one-sided database of `p` points against the
/// exact recursion; returns the sides compared.
fn one_sided_agrees(p: u8) -> usize {
    use num_traits::ToPrimitive;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("os.tbl");
    build(&Kind::one_sided(usize::from(p)), &path, Progress::SILENT).unwrap();
    let table = OneSidedTable::open(&path).unwrap();
    let mut single = Single {
        index: BearoffIndex::new(usize::from(p), 15).unwrap(),
        memo: HashMap::new(),
        dist: HashMap::new(),
    };
    let close = |exact: &[Ratio], got: &[f64], side: &Side| {
        assert_eq!(exact.len(), got.len(), "{side:?}: {exact:?} {got:?}");
        for (a, b) in exact.iter().zip(got) {
            assert!((a.to_f64().unwrap() - b).abs() < 1e-14, "{side:?}: {got:?}");
        }
    };
    let sides = all_sides(p, 15);
    for side in &sides {
        let got = table
            .distributions_of(&counts(side, usize::from(p)))
            .unwrap();
        close(&single.distribution(side, false), &got.rolls, side);
        match &got.gammon_rolls {
            Some(g) => close(&single.distribution(side, true), g, side),
            None => assert!(side.len() < 15),
        }
    }
    sides.len()
}

#[test]
fn every_one_sided_distribution_of_3_points_agrees_with_exact_rational_recursion() {
    assert_eq!(one_sided_agrees(3), 816);
}

#[test]
#[ignore = "the 15,504 sides of 5 points in exact rational arithmetic: about 20 seconds"]
fn every_one_sided_distribution_of_5_points_agrees_with_exact_rational_recursion() {
    assert_eq!(one_sided_agrees(5), 15_504);
}

/// gnubg's files: `$TABULA_GNUBG_DIR`, else where Debian's package puts them.
fn gnubg_file(name: &str, debian: &str) -> String {
    match std::env::var("TABULA_GNUBG_DIR") {
        Ok(dir) => format!("{dir}/{name}"),
        Err(_) => format!("{debian}/{name}"),
    }
}

#[test]
#[ignore = "needs gnubg's gnubg_os0.bd and gnubg_ts0.bd (Debian's gnubg package)"]
fn the_gnubg_bearoff_files_agree_within_gnubgs_own_rounding() {
    use tabula::gammon::bearoff::gnubg::{compare_one_sided, compare_two_sided, GnubgFile};
    let dir = tempfile::tempdir().unwrap();
    let ts = dir.path().join("ts.tbl");
    build(&Kind::two_sided(6, 6, true), &ts, Progress::SILENT).unwrap();
    let file = GnubgFile::open(gnubg_file("gnubg_ts0.bd", "/var/lib/gnubg").as_ref()).unwrap();
    let c = compare_two_sided(&TwoSidedTable::open(&ts).unwrap(), &file).unwrap();
    // gnubg truncates each average of 36 rolls to 1/32767.5: a few units over the rolls
    // of a 6x6 race.
    for q in &c.quantities {
        assert!(q.units < 6.0, "{}: {} units", q.quantity, q.units);
    }
    let os = dir.path().join("os.tbl");
    build(&Kind::one_sided(6), &os, Progress::SILENT).unwrap();
    let file = GnubgFile::open(gnubg_file("gnubg_os0.bd", "/usr/share/gnubg").as_ref()).unwrap();
    let c = compare_one_sided(&OneSidedTable::open(&os).unwrap(), &file).unwrap();
    let units = |name: &str| c.quantities.iter().find(|q| q.quantity == name).unwrap();
    // The expectations agree to gnubg's rounding; whole distributions differ where its
    // rounded expectations keep another of two near-tied plays.
    assert!(units("mean").units < 20.0);
    assert!(units("gammon_mean").units < 8.0);
    assert!(units("gammon_rolls").units < 4.0);
    assert!(units("rolls").max_diff < 0.003);
    assert!(units("rolls").near_ties > 0);
}

/// The 6×15 database of every home-board race from the tables folder (`$TABULA_TABLES`,
/// else `tables/`): cubeless (`tabula bearoff build --two-sided --cubeless`: 35 GB) or
/// the cube's equities (`tabula bearoff build --two-sided`: 47 GB).
fn six_by_fifteen(cube: bool) -> TwoSidedTable {
    let dir = std::env::var("TABULA_TABLES").unwrap_or_else(|_| "tables".into());
    let path = std::path::Path::new(&dir).join(Kind::two_sided(6, 15, cube).file_name());
    TwoSidedTable::open(&path).unwrap_or_else(|e| {
        let (flag, size) = if cube {
            ("", "47")
        } else {
            (" --cubeless", "35")
        };
        panic!(
            "{e}: build it with `tabula bearoff build --two-sided{flag}` \
             (about {size} GB and an hour)"
        )
    })
}

/// The largest of `diff` over every pair of sides whose checkers all lie on points 1 and
/// 2 (the rest off: no play leaves those points, so plain recursion reaches every value),
/// given the plain recursion's values and the pair's ranks in `t`.
fn largest_on_points_1_and_2(
    t: &TwoSidedTable,
    mut diff: impl FnMut(&[f64; 8], u64, u64) -> f64,
) -> f64 {
    let index = t.index();
    let rank15 = |s: &Side| index.rank(&counts(s, 6)).unwrap();
    let mut pairs = Pairs {
        full: 15,
        memo: HashMap::new(),
    };
    let low = sides_in_play(2, 15);
    let mut worst = 0.0f64;
    for us in &low {
        for them in &low {
            let want = pairs.value(us, them);
            worst = worst.max(diff(&want, rank15(us), rank15(them)));
        }
    }
    eprintln!(
        "points 1-2, {} pairs: largest difference {worst:.3e}",
        low.len().pow(2)
    );
    worst
}

/// The largest of `diff` over every pair of sides of at most 10 checkers, given the 6×10
/// database (built in memory, `f64`, with the cube or not), the pair in it and the
/// pair's ranks in `t`.
fn largest_on_6x10(
    t: &TwoSidedTable,
    cube: bool,
    mut diff: impl FnMut(&TwoSidedTable, (u64, u64), (u64, u64)) -> f64,
) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let ten = dir.path().join("ten.tbl");
    build(&Kind::two_sided(6, 10, cube), &ten, Progress::SILENT).unwrap();
    let ten = TwoSidedTable::open(&ten).unwrap();
    let n10 = ten.index().sides();
    let map: Vec<u64> = (0..n10)
        .map(|s| t.index().rank(&ten.index().side(s).unwrap()).unwrap())
        .collect();
    let mut worst = 0.0f64;
    for us in 0..n10 {
        for them in 0..n10 {
            let fifteen = (map[us as usize], map[them as usize]);
            worst = worst.max(diff(&ten, (us, them), fifteen));
        }
    }
    eprintln!(
        "6x10{}, {} pairs: largest difference {worst:.3e}",
        if cube { " with the cube" } else { "" },
        n10 * n10
    );
    worst
}

/// The largest of `diff` over every pair of sides of at most 6 checkers, none empty,
/// given gnubg's own 6×6 two-sided file's record of it and the pair's ranks in `t`; in
/// gnubg's units.
fn largest_on_gnubg_6x6(t: &TwoSidedTable, mut diff: impl FnMut(&[u16], u64, u64) -> f64) -> f64 {
    use tabula::gammon::bearoff::gnubg::{GnubgFile, TS_UNIT};
    let file = GnubgFile::open(gnubg_file("gnubg_ts0.bd", "/var/lib/gnubg").as_ref()).unwrap();
    let six = BearoffIndex::new(6, 6).unwrap();
    let n6 = six.sides();
    let r = |s| t.index().rank(&six.side(s).unwrap()).unwrap();
    let mut worst = 0.0f64;
    for us in 1..n6 {
        for them in 1..n6 {
            let theirs = file.two_sided(us * n6 + them).unwrap();
            worst = worst.max(diff(&theirs, r(us), r(them)));
        }
    }
    eprintln!(
        "gnubg 6x6: largest difference {worst:.3e}, {:.2} units",
        worst / TS_UNIT
    );
    worst / TS_UNIT
}

#[test]
#[ignore = "needs the 6x15 cubeless table (35 GB); builds 6x10 (10 s); needs gnubg_ts0.bd"]
fn the_6x15_table_agrees_with_recursion_with_6x10_and_with_gnubg() {
    use tabula::gammon::bearoff::gnubg::ts_value;
    let t = six_by_fifteen(false);
    assert!(t.kind().compact);
    // 1. Plain recursion on points 1 and 2.
    let worst = largest_on_points_1_and_2(&t, |want, us, them| {
        let got = t.values(us, them).unwrap();
        [
            (got.equity(), want[0]),
            (got.win, want[1]),
            (got.win_gammon, want[2]),
            (got.lose_gammon, want[3]),
        ]
        .iter()
        .fold(0.0f64, |w, (g, x)| w.max((g - x).abs()))
    });
    assert!(worst < 5e-7, "points 1-2: {worst}");
    assert!(worst > 0.0, "f32 values that equal f64 ones everywhere?");
    // 2. Every pair of sides of at most 10 checkers: the 6x10 database's (no gammon: each
    // side has borne off five or more).
    let worst = largest_on_6x10(&t, false, |ten, (a, b), (x, y)| {
        let (a, b) = (ten.values(a, b).unwrap(), t.values(x, y).unwrap());
        assert!(b.win_gammon == 0.0 && b.lose_gammon == 0.0);
        (a.win - b.win).abs()
    });
    assert!(worst < 5e-7, "6x10: {worst}");
    // 3. gnubg's own 6x6 two-sided file: the cubeless equity of sides of at most 6
    // checkers, within the few units of its 16-bit rounding its 6x6 table shows.
    let units = largest_on_gnubg_6x6(&t, |theirs, us, them| {
        let ours = 2.0 * t.values(us, them).unwrap().win - 1.0;
        (ours - ts_value(theirs[0])).abs()
    });
    assert!(units < 6.0, "gnubg 6x6: {units} units");
}

#[test]
#[ignore = "needs the 6x15 cube table (47 GB); builds 6x10 with the cube (3 GB, 20 s); needs gnubg_ts0.bd"]
fn the_6x15_cube_table_agrees_with_recursion_with_6x10_and_with_gnubg() {
    use tabula::gammon::bearoff::gnubg::ts_value;
    let t = six_by_fifteen(true);
    assert!(t.kind().equities_only());
    let equities = |c: Option<tabula::gammon::Cubeful>| {
        let c = c.unwrap();
        [c.owned, c.centred, c.centred_jacoby, c.opponent_owns]
    };
    let largest = |a: &[f64], b: &[f64]| {
        a.iter()
            .zip(b)
            .fold(0.0f64, |w, (x, y)| w.max((x - y).abs()))
    };
    // 1. Plain recursion on points 1 and 2: the cube's four states each with its own
    // plays, gammons and the Jacoby rule.
    let worst = largest_on_points_1_and_2(&t, |want, us, them| {
        largest(&equities(t.cubeful(us, them).unwrap()), &want[4..])
    });
    assert!(worst < 5e-7, "points 1-2: {worst}");
    assert!(worst > 0.0, "f32 values that equal f64 ones everywhere?");
    // 2. Every pair of sides of at most 10 checkers: the 6x10 cube database's (no gammon:
    // the Jacoby value is the centred one).
    let worst = largest_on_6x10(&t, true, |ten, (a, b), (x, y)| {
        let want = equities(ten.values(a, b).unwrap().cubeful);
        let got = equities(t.cubeful(x, y).unwrap());
        assert_eq!(got[1], got[2], "the Jacoby rule without gammons");
        largest(&want, &got)
    });
    assert!(worst < 5e-7, "6x10: {worst}");
    // 3. gnubg's own 6x6 two-sided file, which keeps the cube's owned, centred and
    // opponent-owns equities: within the few units of its 16-bit rounding.
    let units = largest_on_gnubg_6x6(&t, |theirs, us, them| {
        assert_eq!(theirs.len(), 4, "a gnubg file with the cube");
        let ours = equities(t.cubeful(us, them).unwrap());
        let gnubg: Vec<f64> = theirs[1..].iter().map(|&u| ts_value(u)).collect();
        largest(&[ours[0], ours[1], ours[3]], &gnubg)
    });
    assert!(units < 6.0, "gnubg 6x6: {units} units");
}
