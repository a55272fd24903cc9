//! XGIDs (`docs/gammon.md`, "XGID") checked against GNU Backgammon's own reader: tabula
//! writes XGIDs, `gnubg -t` reads them with `set xgid` and prints the Position ID of what
//! it read, and that ID must decode to the position tabula wrote. Published XGIDs read
//! back to the positions they name, and every XGID tabula writes reads back (a property
//! test, fixed seed in CI).

use proptest::prelude::*;
use std::process::{Command, Stdio};
use tabula::gammon::gnubg::position_id;
use tabula::gammon::gnubg::xgid::{self, XgDice, XgOwner, Xgid};
use tabula::gammon::{notation, Position, Variant};

/// gnubg's binary, when installed (`.ci/run` installs Debian's).
pub fn gnubg() -> Option<std::path::PathBuf> {
    let path = std::path::PathBuf::from("/usr/games/gnubg");
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("TABULA_GNUBG").is_none(),
        "TABULA_GNUBG is set but /usr/games/gnubg is missing"
    );
    None
}

/// A position without clashes: `checkers[i]` checkers of each side on its own slots,
/// drawn from a small linear congruential generator.
fn drawn(seed: &mut u64, checkers: [usize; 2]) -> Position {
    let mut next = || {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*seed >> 33) as usize
    };
    let mut us = vec![0u8; 25];
    let mut them = vec![0u8; 25];
    for _ in 0..checkers[0] {
        us[next() % 25] += 1;
    }
    for _ in 0..checkers[1] {
        loop {
            let slot = next() % 25;
            // The other side's point `slot + 1` is the side on roll's `24 - slot`.
            if slot == 24 || us[23 - slot] == 0 {
                them[slot] += 1;
                break;
            }
        }
    }
    Position::new(&us, &them).unwrap()
}

#[test]
fn gnubg_reads_the_xgids_tabula_writes_as_the_same_positions() {
    let Some(gnubg) = gnubg() else {
        eprintln!("gnubg is not installed: skipped");
        return;
    };
    let mut seed = 20_261_129;
    let mut positions = vec![Variant::parse("hyper3").unwrap().opening()];
    for k in 0..60 {
        let sizes = [[15, 15], [3, 3], [2, 1], [15, 9], [1, 1]][k % 5];
        positions.push(drawn(&mut seed, sizes));
    }
    let mut script = String::from("set player 0 human\nset player 1 human\nnew game\n");
    for p in &positions {
        // `show score` after each: its line ends the XGID's output.
        script += &format!("set xgid {}\nshow score\n", xgid::encode(p).unwrap());
    }
    let mut child = Command::new(gnubg)
        .args(["-t", "-q", "-r"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .current_dir(std::env::temp_dir())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // The last Position ID gnubg shows before each score line is what it read.
    let mut ids = Vec::new();
    let mut last = "";
    for line in text.lines() {
        if let Some(id) = line.split("Position ID: ").nth(1) {
            last = id.trim();
        } else if line.starts_with("The score") {
            ids.push(last);
        }
    }
    assert_eq!(ids.len(), positions.len(), "{text}");
    for (p, id) in positions.iter().zip(&ids) {
        assert_eq!(
            position_id::decode(id).unwrap(),
            *p,
            "{} read by gnubg as {id}",
            xgid::encode(p).unwrap()
        );
    }
}

#[test]
fn published_xgids_name_the_positions_they_describe() {
    let opening = "24,24,13,13,13,13,13,8,8,8,6,6,6,6,6";
    let v = Variant::backgammon();
    for text in [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:65:0:0:0:1:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0",
    ] {
        let x = xgid::parse(text).unwrap();
        assert_eq!(
            notation::notation(&v, &x.position),
            format!("{opening}/{opening}"),
            "{text}"
        );
        assert_eq!(position_id::encode(&x.position).unwrap(), "4HPwATDgc/ABMA");
    }
    // Money play with the Jacoby rule and beavers, 5 and 2 rolled.
    let x = xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10").unwrap();
    assert!(x.jacoby && x.beavers && x.length == 0);
    assert_eq!(x.dice, XgDice::Rolled(5, 2));
    // A 7-point match at 0-0 with the cube on 2 owned by the side on roll.
    let x = xgid::parse("XGID=-a----DDC---bB---bbb-c-B--:1:1:1:52:0:0:0:7:10").unwrap();
    assert_eq!((x.cube, x.owner, x.length), (2, XgOwner::OnRoll, 7));
    assert_eq!(
        notation::notation(&v, &x.position),
        "23,23,13,13,8,8,8,7,7,7,7,6,6,6,6/24,13,13,8,8,7,7,6,6,4,4,4"
    );
}

/// Any XGID's fields, the position without clashes.
fn any_xgid() -> impl Strategy<Value = Xgid> {
    (
        any::<u64>(),
        0usize..=15,
        0usize..=15,
        0u32..=12,
        0usize..3,
        0usize..3,
        (1u8..=6, 1u8..=6),
        (0u32..=25, 0u32..=25),
        any::<bool>(),
        (0u32..=3, 0u32..=12),
    )
        .prop_map(
            |(seed, a, b, cube, owner, dice, roll, score, top, (rules, max))| {
                let mut seed = seed;
                let position = drawn(&mut seed, [a, b]);
                let length = if score.0 % 2 == 0 {
                    0
                } else {
                    score.0.max(score.1) + 1
                };
                Xgid {
                    position,
                    cube: 1 << cube,
                    owner: [XgOwner::Centred, XgOwner::OnRoll, XgOwner::Opponent][owner],
                    dice: [
                        XgDice::ToRoll,
                        XgDice::Doubled,
                        XgDice::Rolled(roll.0, roll.1),
                    ][dice],
                    score: if length == 0 {
                        [0, 0]
                    } else {
                        [score.0, score.1]
                    },
                    length,
                    crawford: length > 0 && rules % 2 == 1,
                    jacoby: length == 0 && rules % 2 == 1,
                    beavers: length == 0 && rules >= 2,
                    max_cube: max,
                    top_on_roll: top,
                }
            },
        )
}

proptest! {
    #[test]
    fn every_xgid_tabula_writes_reads_back(x in any_xgid()) {
        let text = xgid::write(&x).unwrap();
        prop_assert_eq!(text.len() >= 26 + 5 + 18, true);
        prop_assert!(xgid::looks_like(&text));
        prop_assert_eq!(xgid::parse(&text).unwrap(), x);
        // Without its prefix too.
        prop_assert_eq!(xgid::parse(&text[5..]).unwrap(), x);
    }
}
