//! tabula's gnubg interchange checked against GNU Backgammon itself.
//!
//! The second method here is gnubg: the Position IDs, side numbers and values below are
//! what `gnubg -t` (1.07.001) printed, through `scripts/gnubg_eval.sh`, for positions set
//! with `set board ID` and evaluated with `eval` against its own `makehyper` databases.
//! The tests marked `#[ignore]` read gnubg's real `hyper1.bd` and `hyper2.bd`: build them
//! with `scripts/gnubg_databases.sh FOLDER`, then
//! `TABULA_GNUBG_DIR=FOLDER cargo test --release --test suite gammon_gnubg -- --include-ignored`.

use proptest::prelude::*;
use std::path::PathBuf;
use tabula::gammon::gnubg::{bd, position_id, HyperFile, HyperWriter, Record, Stored};
use tabula::gammon::numbering::hyper;
use tabula::gammon::{Error, HyperIndex, Position};

/// One line of `scripts/gnubg_eval.sh`: a Position ID, gnubg's side numbers (side on roll,
/// other side), its five probabilities (3 decimals) and four cubeful equities (4 decimals).
struct Printed {
    checkers: usize,
    id: &'static str,
    player: u64,
    opponent: u64,
    probabilities: [f64; 5],
    equities: [f64; 4],
}

const fn printed(
    checkers: usize,
    id: &'static str,
    player: u64,
    opponent: u64,
    probabilities: [f64; 5],
    equities: [f64; 4],
) -> Printed {
    Printed {
        checkers,
        id,
        player,
        opponent,
        probabilities,
        equities,
    }
}

/// What gnubg 1.07.001 printed (`scripts/gnubg_eval.sh 1 …` and `… 2 …`).
const GNUBG: [Printed; 13] = [
    // 1 checker: the opening (both on their 24 points).
    printed(
        1,
        "AACAAAAAAgAAAA",
        24,
        24,
        [0.602, 0.602, 0.080, 0.398, 0.033],
        [0.5883, 0.5393, 0.4557, 0.3864],
    ),
    // On the bar against a checker on its 3 point.
    printed(
        1,
        "BAAAAAAABAAAAA",
        25,
        3,
        [0.212, 0.212, 0.019, 0.788, 0.179],
        [-1.2476, -1.2716, -0.4900, -1.3420],
    ),
    printed(
        1,
        "AAAEQAAAAAAAAA",
        5,
        19,
        [0.992, 0.992, 0.861, 0.008, 0.000],
        [2.8302, 2.8302, 0.9846, 2.8302],
    ),
    printed(
        1,
        "AAAAASAAAAAAAA",
        12,
        25,
        [0.810, 0.810, 0.273, 0.190, 0.017],
        [1.5188, 1.4668, 0.5736, 1.4480],
    ),
    printed(
        1,
        "AABABAAAAAAAAA",
        1,
        23,
        [1.000, 1.000, 1.000, 0.000, 0.000],
        [3.0, 3.0, 1.0, 3.0],
    ),
    // 2 checkers: the opening (24 and 23 points each).
    printed(
        2,
        "AABAAQAACgAAAA",
        346,
        346,
        [0.535, 0.418, 0.042, 0.349, 0.030],
        [0.3278, 0.2092, 0.2046, 0.0109],
    ),
    printed(
        2,
        "AABAAQBAAQAAAA",
        331,
        346,
        [0.577, 0.463, 0.050, 0.312, 0.026],
        [0.5376, 0.4664, 0.4556, 0.2041],
    ),
    printed(
        2,
        "YAAAAIAAEAAAAA",
        272,
        141,
        [0.141, 0.070, 0.004, 0.802, 0.164],
        [-1.5775, -1.6259, -0.9944, -1.6519],
    ),
    printed(
        2,
        "AAAGIAAAAAAAAA",
        3,
        315,
        [1.000, 1.000, 0.000, 0.000, 0.000],
        [2.0, 2.0, 1.0, 2.0],
    ),
    printed(
        2,
        "BQAAAAAAGAAAAA",
        350,
        27,
        [0.181, 0.132, 0.010, 0.761, 0.400],
        [-1.6066, -1.7670, -0.9203, -1.7849],
    ),
    printed(
        2,
        "EBAACAAACAAAAA",
        49,
        127,
        [0.463, 0.335, 0.022, 0.411, 0.022],
        [-0.0633, -0.1355, -0.1540, -0.2247],
    ),
    printed(
        2,
        "AAAAgQEAAAAAAA",
        141,
        25,
        [0.693, 0.000, 0.000, 0.169, 0.023],
        [0.2441, 0.0828, 0.0867, 0.0597],
    ),
    printed(
        2,
        "AABgKAAAAAAAAA",
        27,
        341,
        [1.000, 1.000, 1.000, 0.000, 0.000],
        [3.0, 3.0, 1.0, 3.0],
    ),
];

#[test]
fn gnubgs_position_ids_decode_to_the_sides_gnubg_numbers() {
    for row in &GNUBG {
        let index = HyperIndex::hypergammon(row.checkers).unwrap();
        let position = position_id::decode(row.id).unwrap();
        assert_eq!(
            index.side_rank(position.us()).unwrap(),
            row.player,
            "{}: side on roll",
            row.id
        );
        assert_eq!(
            index.side_rank(position.them()).unwrap(),
            row.opponent,
            "{}: other side",
            row.id
        );
        assert_eq!(position.clash(), None, "{}", row.id);
    }
}

#[test]
fn the_hypergammon_openings_encode_to_the_ids_gnubg_prints() {
    assert_eq!(
        position_id::encode(&hyper::hypergammon_opening(1).unwrap()).unwrap(),
        "AACAAAAAAgAAAA"
    );
    assert_eq!(
        position_id::encode(&hyper::hypergammon_opening(2).unwrap()).unwrap(),
        "AABAAQAACgAAAA"
    );
}

#[test]
fn every_id_gnubg_printed_encodes_back_to_itself() {
    for row in &GNUBG {
        let position = position_id::decode(row.id).unwrap();
        assert_eq!(position_id::encode(&position).unwrap(), row.id);
    }
}

/// Any position of at most 15 checkers a side on the 24-point board.
fn any_board_position() -> impl Strategy<Value = Position> {
    let side = || {
        proptest::collection::vec(0..25usize, 0..=15).prop_map(|slots| {
            let mut side = vec![0u8; 25];
            for s in slots {
                side[s] += 1;
            }
            side
        })
    };
    (side(), side()).prop_map(|(us, them)| Position::new(&us, &them).unwrap())
}

proptest! {
    #[test]
    fn a_position_survives_its_position_id(position in any_board_position()) {
        let id = position_id::encode(&position).unwrap();
        prop_assert_eq!(id.len(), 14);
        prop_assert_eq!(position_id::decode(&id).unwrap(), position);
    }

    #[test]
    fn swapping_the_sides_swaps_the_halves_of_the_key(position in any_board_position()) {
        // The key lists the side not on roll first: the swapped position's key is the
        // other side's bits followed by the side on roll's.
        let key = position_id::key(&position).unwrap();
        let bits = |side: &[u8]| side.iter().map(|&c| u32::from(c) + 1).sum::<u32>();
        let first = bits(position.them());
        let low = key & ((1u128 << first) - 1);
        let high = key >> first;
        let swapped = position_id::key(&position.swapped()).unwrap();
        prop_assert_eq!(swapped, high | low << bits(position.us()));
    }

    #[test]
    fn an_id_decodes_only_if_it_encodes_back_to_itself(
        digits in proptest::collection::vec(0..64usize, 14)
    ) {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let id: String = digits.iter().map(|&d| char::from(ALPHABET[d])).collect();
        if let Ok(position) = position_id::decode(&id) {
            prop_assert_eq!(position_id::encode(&position).unwrap(), id);
        }
    }

    #[test]
    fn a_record_survives_unranking_on_any_board(
        points in 1usize..=24,
        checkers in 1usize..=6,
        fraction in 0.0f64..1.0,
    ) {
        let index = HyperIndex::new(points, checkers).unwrap();
        let record = ((index.records() as f64 * fraction) as u64).min(index.records() - 1);
        let position = index.position(record).unwrap();
        prop_assert_eq!(index.record(&position).unwrap(), record);
        let on_board: usize = position.us().iter().map(|&c| usize::from(c)).sum();
        prop_assert!(on_board <= checkers);
    }
}

/// Values for a legal record, made up but different per record and covering the scale.
fn made_up(record: u64) -> Record {
    let x = (record % 1000) as f64 / 999.0;
    Record {
        win: x,
        win_gammon: x * 0.5,
        win_backgammon: x * 0.1,
        lose_gammon: (1.0 - x) * 0.5,
        lose_backgammon: (1.0 - x) * 0.1,
        owned: 6.0 * x - 3.0,
        centred: 3.0 - 6.0 * x,
        centred_jacoby: x - 0.5,
        opponent_owns: -x,
    }
}

fn write_made_up(checkers: usize) -> Vec<u8> {
    let mut writer = HyperWriter::new(Vec::new(), checkers).unwrap();
    while writer.next_record() < writer.index().records() {
        let record = writer.next_record();
        let values = writer.next_is_legal().then(|| made_up(record));
        writer.push(values.as_ref()).unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn a_written_database_reads_back_within_one_step_of_the_scale() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hyper2.bd");
    let bytes = write_made_up(2);
    assert_eq!(bytes.len(), 40 + 123_201 * 28);
    std::fs::write(&path, &bytes).unwrap();
    let file = HyperFile::open_for(&path, 2).unwrap();
    let index = file.index();
    let step = 1.0 / f64::from(bd::SCALE);
    let mut legal = 0;
    for record in 0..file.records() {
        match file.record(record).unwrap() {
            None => assert!(!index.is_legal(record).unwrap()),
            Some(read) => {
                legal += 1;
                let want = made_up(record);
                let pairs = [
                    (read.win, want.win, step),
                    (read.win_gammon, want.win_gammon, step),
                    (read.win_backgammon, want.win_backgammon, step),
                    (read.lose_gammon, want.lose_gammon, step),
                    (read.lose_backgammon, want.lose_backgammon, step),
                    (read.owned, want.owned, 6.0 * step),
                    (read.centred, want.centred, 6.0 * step),
                    (read.centred_jacoby, want.centred_jacoby, 6.0 * step),
                    (read.opponent_owns, want.opponent_owns, 6.0 * step),
                ];
                for (got, want, tolerance) in pairs {
                    // Truncation: the stored value is at most one step below.
                    assert!(got <= want + 1e-9 && want - got < tolerance, "{record}");
                }
            }
        }
    }
    assert_eq!(legal, 107_253);
}

#[test]
fn reading_a_database_and_writing_it_again_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hyper1.bd");
    let bytes = write_made_up(1);
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(rewrite(&HyperFile::open(&path).unwrap()), bytes);
}

/// Every record of `file` read as values and written again.
fn rewrite(file: &HyperFile) -> Vec<u8> {
    let mut writer = HyperWriter::new(Vec::new(), file.checkers()).unwrap();
    for record in 0..file.records() {
        writer.push(file.record(record).unwrap().as_ref()).unwrap();
    }
    writer.finish().unwrap()
}

#[test]
fn damaged_or_foreign_files_are_refused_with_the_fault_named() {
    let dir = tempfile::tempdir().unwrap();
    let good = write_made_up(1);
    let path = dir.path().join("hyper1.bd");

    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    let truncated = HyperFile::open(&path).unwrap_err();
    assert!(
        matches!(
            truncated,
            Error::Length {
                state: "truncated",
                ..
            }
        ),
        "{truncated}"
    );
    assert!(truncated.to_string().contains("truncated"));

    let mut long = good.clone();
    long.push(0);
    std::fs::write(&path, &long).unwrap();
    assert!(matches!(
        HyperFile::open(&path),
        Err(Error::Length {
            state: "too long",
            ..
        })
    ));

    let mut foreign = good.clone();
    foreign[..7].copy_from_slice(b"tabula!");
    std::fs::write(&path, &foreign).unwrap();
    assert!(matches!(HyperFile::open(&path), Err(Error::Header { .. })));

    std::fs::write(&path, b"gnubg-H1").unwrap();
    assert!(matches!(HyperFile::open(&path), Err(Error::Header { .. })));

    std::fs::write(&path, &good).unwrap();
    let wrong = HyperFile::open_for(&path, 2).unwrap_err();
    assert!(matches!(
        wrong,
        Error::WrongCheckers {
            expected: 2,
            found: 1,
            ..
        }
    ));
    assert_eq!(tabula::Error::from(wrong).kind(), tabula::ErrorKind::Table);

    let missing = HyperFile::open(&dir.path().join("hyper3.bd")).unwrap_err();
    assert!(matches!(
        missing,
        Error::Table(tabula::table::TableError::Missing { .. })
    ));
}

#[test]
fn a_writer_refuses_records_that_do_not_fit_the_index() {
    let mut writer = HyperWriter::new(Vec::new(), 1).unwrap();
    // Record 0: both sides borne off, a legal record: it needs values.
    assert!(matches!(
        writer.push(None),
        Err(Error::Records { record: 0, .. })
    ));
    // Skip to the first illegal record: side on roll on its 1 point (side 1), the other
    // on its 24 point (side 24).
    while writer.next_record() < 26 + 24 {
        let record = writer.next_record();
        writer.push(Some(&made_up(record))).unwrap();
    }
    assert!(!writer.next_is_legal());
    assert!(matches!(
        writer.push(Some(&made_up(0))),
        Err(Error::Records { record: 50, .. })
    ));
    assert!(matches!(writer.finish(), Err(Error::Records { .. })));
}

/// gnubg's database folder for the ignored tests.
fn gnubg_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("TABULA_GNUBG_DIR").expect(
        "TABULA_GNUBG_DIR must name a folder holding gnubg's hyper1.bd and hyper2.bd \
         (scripts/gnubg_databases.sh FOLDER builds them)",
    ))
}

#[test]
#[ignore = "needs gnubg's hyper1.bd and hyper2.bd in TABULA_GNUBG_DIR"]
fn gnubgs_own_databases_mark_exactly_the_illegal_records() {
    for checkers in [1, 2] {
        let file = HyperFile::open_for(&gnubg_dir().join(format!("hyper{checkers}.bd")), checkers)
            .unwrap();
        let index = file.index();
        let counts = index.counts();
        let mut valued = 0;
        for record in 0..file.records() {
            let stored = file.stored(record).unwrap();
            let legal = index.is_legal(record).unwrap();
            if legal {
                assert!(!stored.is_illegal(), "hyper{checkers} record {record}");
                valued += 1;
            } else {
                // Not all zeros, as one might think: makehyper stores equities of 0.0.
                assert_eq!(stored, Stored::ILLEGAL, "hyper{checkers} record {record}");
            }
        }
        assert_eq!(file.records(), counts.records);
        assert_eq!(valued, counts.legal, "hyper{checkers}");
    }
}

#[test]
#[ignore = "needs gnubg's hyper1.bd and hyper2.bd in TABULA_GNUBG_DIR"]
fn gnubgs_databases_hold_what_gnubg_prints_for_its_position_ids() {
    for row in &GNUBG {
        let path = gnubg_dir().join(format!("hyper{}.bd", row.checkers));
        let file = HyperFile::open_for(&path, row.checkers).unwrap();
        let position = position_id::decode(row.id).unwrap();
        let record = file.lookup(&position).unwrap().expect("a legal record");
        let read = [
            record.win,
            record.win_gammon,
            record.win_backgammon,
            record.lose_gammon,
            record.lose_backgammon,
        ];
        for (got, want) in read.iter().zip(row.probabilities) {
            assert!((got - want).abs() <= 0.0005 + 1e-7, "{}: {read:?}", row.id);
        }
        let cubeful = [
            record.owned,
            record.centred,
            record.centred_jacoby,
            record.opponent_owns,
        ];
        for (got, want) in cubeful.iter().zip(row.equities) {
            assert!(
                (got - want).abs() <= 0.00005 + 1e-6,
                "{}: {cubeful:?}",
                row.id
            );
        }
    }
}

#[test]
#[ignore = "needs gnubg's hyper1.bd and hyper2.bd in TABULA_GNUBG_DIR"]
fn rewriting_gnubgs_databases_gives_back_their_bytes() {
    for checkers in [1, 2] {
        let path = gnubg_dir().join(format!("hyper{checkers}.bd"));
        let file = HyperFile::open_for(&path, checkers).unwrap();
        assert!(
            rewrite(&file) == std::fs::read(&path).unwrap(),
            "hyper{checkers}.bd differs after a read and a write"
        );
    }
}

#[test]
fn a_gnubg_database_imported_and_exported_again_is_the_same_file() {
    use crate::common::{export_gnubg, hyper1_with_gnubg, json, tabula};
    let dir = tempfile::tempdir().unwrap();
    let (_, first) = hyper1_with_gnubg(dir.path());
    // gnubg's file read into tables: they know their variant and their origin.
    let imported = dir.path().join("from-gnubg.tbl");
    let report = json(&[
        "gammon",
        "import",
        "--gnubg",
        first.to_str().unwrap(),
        "--table",
        imported.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(report["variant"], "hyper1");
    assert_eq!(report["records"], 676);
    assert_eq!(report["tables"].as_array().unwrap().len(), 2);
    let info = json(&["table", "info", imported.to_str().unwrap(), "--json"]);
    assert!(
        info["variant"].as_str().unwrap().ends_with("from gnubg"),
        "{info}"
    );
    let second = dir.path().join("second.bd");
    export_gnubg(&imported, &second);
    assert!(std::fs::read(&first).unwrap() == std::fs::read(&second).unwrap());
    // Every value within gnubg's 24 bits of tabula's own.
    let c = json(&[
        "gammon",
        "compare",
        "--table",
        imported.to_str().unwrap(),
        "--gnubg",
        first.to_str().unwrap(),
        "--json",
    ]);
    for (k, v) in c["max_diff"].as_object().unwrap() {
        assert!(v.as_f64().unwrap() < 1e-6, "{k}: {v}");
    }
    // An import over its own file is refused.
    let out = tabula()
        .args(["gammon", "import", "--gnubg"])
        .arg(&first)
        .arg("--table")
        .arg(&first)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
