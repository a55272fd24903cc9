//! `tabula gammon play`, the trainer, tested as a player uses it: through a real
//! pseudo-terminal (`openpty`), answering its questions as they appear.

use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula::gammon::cube::CubeState;
use tabula::gammon::notation::{parse_position, parse_roll};
use tabula::gammon::store::Tables;
use tabula::gammon::{query, Evaluator};

/// A pseudo-terminal: its master side and its slave side.
fn pty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors it opened into the two integers; the null
    // name, terminal settings and window size are allowed.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors are open and owned by nothing else.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// The prompts the trainer asks, and what a scripted player answers.
const PROMPTS: [&str; 4] = [
    "Take or pass? [t/p] ",
    "Double or roll? [d/r] ",
    "Your play (",
    "Another game? [y/n] ",
];

/// A session of `tabula gammon play ARGS` in a pseudo-terminal, answered by `answer`
/// (given the prompt's number in [`PROMPTS`] and the text so far); its whole output.
fn drive(args: &[&str], mut answer: impl FnMut(usize, &str) -> String) -> String {
    let (master, slave) = pty();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("tabula"))
        .args(args)
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    let out = Arc::new(Mutex::new(Vec::new()));
    let mut reader = std::fs::File::from(master.try_clone().unwrap());
    let sink = Arc::clone(&out);
    let reading = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        // The read fails (EIO) once the program has ended and the terminal is closed.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    let mut writer = std::fs::File::from(master);
    let mut seen = 0;
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no end after a minute:\n{}",
            String::from_utf8_lossy(&out.lock().unwrap())
        );
        if child.try_wait().unwrap().is_some() {
            break;
        }
        let text = String::from_utf8_lossy(&out.lock().unwrap()).replace("\r\n", "\n");
        let next = PROMPTS
            .iter()
            .enumerate()
            .filter_map(|(k, p)| text[seen.min(text.len())..].find(p).map(|at| (at, k, p)))
            .min();
        match next {
            Some((at, k, p)) => {
                seen += at + p.len();
                let reply = answer(k, &text);
                writer.write_all(format!("{reply}\n").as_bytes()).unwrap();
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    assert!(child.wait().unwrap().success());
    drop(writer);
    reading.join().unwrap();
    let text = String::from_utf8_lossy(&out.lock().unwrap()).replace("\r\n", "\n");
    text
}

/// A Hypergammon-1 table with the cube, built once by the command line.
fn hyper1() -> &'static Path {
    use std::sync::OnceLock;
    static TABLE: OnceLock<std::path::PathBuf> = OnceLock::new();
    TABLE.get_or_init(|| {
        let table = crate::scratch::folder().join("hyper1.tbl");
        crate::common::build_hyper1(&table);
        table
    })
}

/// Hypergammon-1's match tables to 5 points, built once by the command line.
fn match5() -> &'static Path {
    use std::sync::OnceLock;
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = crate::scratch::folder();
        let out = Command::new(assert_cmd::cargo::cargo_bin("tabula"))
            .args([
                "gammon",
                "met",
                "--variant",
                "hyper1",
                "--length",
                "5",
                "--quiet",
            ])
            .arg("--match-tables")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        dir
    })
}

/// One line of a review: `  3. play 2-6 at 18/13 (cube 2, yours): 18/10; best
/// 18/12*/10; loss 0.012345 ?!`.
struct Line {
    what: String,
    position: String,
    cube: String,
    chosen: String,
    loss: f64,
}

/// Every game's review: its lines, and its total.
fn reviews(text: &str) -> Vec<(Vec<Line>, f64)> {
    let mut all = Vec::new();
    for part in text.split("Review of your decisions").skip(1) {
        let mut lines = Vec::new();
        let mut total = None;
        for l in part.lines().skip(1) {
            if let Some(rest) = l.strip_prefix("Total: ") {
                let first = rest.split(' ').next().unwrap().trim_end_matches('%');
                total = Some(first.parse().unwrap());
                break;
            }
            if l.contains("none: every decision was the best") {
                continue;
            }
            let (_, rest) = l.trim_start().split_once(". ").unwrap();
            let (what, rest) = rest.split_once(" at ").unwrap();
            let (position, rest) = rest.split_once(" (").unwrap();
            let (cube, rest) = rest.split_once("): ").unwrap();
            let (chosen, rest) = rest.split_once("; best ").unwrap();
            let (_, rest) = rest.split_once("; loss ").unwrap();
            let loss = rest.split(' ').next().unwrap().trim_end_matches('%');
            lines.push(Line {
                what: what.to_string(),
                position: position.to_string(),
                cube: cube.to_string(),
                chosen: chosen.to_string(),
                loss: loss.parse().unwrap(),
            });
        }
        all.push((lines, total.expect("the game's total")));
    }
    all
}

/// The cube state of the side that decided, from the review's cube (`cube 2, yours`,
/// the human's view): the human for a play or a double, the table for an answer.
fn decider_state(line: &Line) -> CubeState {
    let human = line.what != "answer";
    match (line.cube.rsplit(", ").next().unwrap(), human) {
        ("centred", _) => CubeState::Centred,
        ("yours", true) | ("O's", false) => CubeState::Owned,
        _ => CubeState::OpponentOwns,
    }
}

/// What a decision of the review lost, from the table's stored equities.
fn loss_in_table(t: &Tables, line: &Line) -> f64 {
    let v = t.variant();
    let p = parse_position(v, &line.position).unwrap();
    let state = decider_state(line);
    if let Some(roll) = line.what.strip_prefix("play ") {
        // The plays' cubeful values: for each, what the opponent on roll leaves the mover.
        let roll = parse_roll(v, roll).unwrap();
        let h = query::hint(t, &p, roll, Some(state)).unwrap();
        let values: Vec<(String, f64)> = h
            .moves
            .iter()
            .map(|m| {
                let value = if m.play.wins() {
                    m.equity
                } else {
                    let next = t.cubeful(&m.play.after.swapped()).unwrap().unwrap();
                    // The opponent, on roll, doubles first where it has access and gains
                    // (the mover then taking or passing, whichever costs it less).
                    let theirs = state.seen_by_opponent();
                    let no_double = next[theirs];
                    let doubled = (2.0 * next.opponent_owns).min(1.0);
                    if theirs.has_access() {
                        -no_double.max(doubled)
                    } else {
                        -no_double
                    }
                };
                (m.text.clone(), value)
            })
            .collect();
        let best = values.iter().map(|x| x.1).fold(f64::MIN, f64::max);
        let chosen = values.iter().find(|x| x.0 == line.chosen).unwrap().1;
        return best - chosen;
    }
    let c = t.cubeful(&p).unwrap().unwrap();
    let (nd, dt) = (c[state], 2.0 * c.opponent_owns);
    if line.what == "cube" {
        let doubled = dt.min(1.0);
        let chosen = if line.chosen == "double" { doubled } else { nd };
        nd.max(doubled) - chosen
    } else {
        let (take, pass) = (-dt, -1.0);
        let chosen = if line.chosen == "take" { take } else { pass };
        take.max(pass) - chosen
    }
}

#[test]
fn a_hyper1_game_in_a_terminal_with_a_double_a_take_and_a_hint_is_reviewed_to_the_tables_total() {
    let table = hyper1();
    let mut hinted = false;
    let text = drive(
        &[
            "gammon",
            "play",
            "--table",
            table.to_str().unwrap(),
            "--cube",
            "--second",
            "--seed",
            "1",
        ],
        |prompt, text| match prompt {
            0 => "t".to_string(),
            1 => "r".to_string(),
            2 if !hinted => {
                hinted = true;
                "hint".to_string()
            }
            // The worst play of the hint's ranking, typed as the hint prints it.
            2 => {
                let ranking = &text[text.rfind("The table's ranking of").unwrap()..];
                let last = ranking
                    .lines()
                    .skip(1)
                    .take_while(|l| l.contains(" cubeful equity "))
                    .last()
                    .unwrap();
                let (_, rest) = last.trim_start().split_once(". ").unwrap();
                rest.split(" cubeful equity")
                    .next()
                    .unwrap()
                    .trim()
                    .to_string()
            }
            _ => "n".to_string(),
        },
    );
    assert!(
        text.contains("Dice seed 1 (replay with --seed 1)."),
        "{text}"
    );
    // The table moves first: the opening roll is its own, played at once.
    assert!(text.contains("Opening roll: you throw "), "{text}");
    assert!(text.contains("O doubles to 2.\n"), "{text}");
    assert!(text.contains("You take: cube 2, yours."), "{text}");
    assert!(hinted && text.contains("The table's ranking of"), "{text}");
    assert!(text.contains("+13-14-15-16-17-18"), "the board: {text}");
    assert!(
        text.contains("You win") || text.contains("O wins"),
        "{text}"
    );
    assert!(!text.contains("is not a legal play"), "{text}");
    let (lines, total) = reviews(&text).remove(0);
    assert!(lines.iter().any(|l| l.what.starts_with("play ")));
    // Only the decisions that lost something are listed.
    assert!(lines.iter().all(|l| l.loss > 0.0));
    let t = Tables::open(table).unwrap();
    let mut sum = 0.0;
    for l in &lines {
        let loss = loss_in_table(&t, l);
        assert!(
            (loss - l.loss).abs() < 1e-6,
            "{}: {loss} {}",
            l.position,
            l.loss
        );
        sum += loss;
    }
    // The worst play was chosen on purpose: the total is not zero.
    assert!(sum > 0.0);
    assert!((total - sum).abs() < 1e-5, "{total} {sum}\n{text}");
    assert!(text.contains("Error rate: "), "{text}");
    assert!(text.contains("Session: you "), "{text}");
}

#[test]
fn a_match_in_a_terminal_is_played_to_its_end_with_hint_eval_a_take_the_crawford_game_and_reviews()
{
    let dir = match5();
    let (mut cube_asked, mut play_asked) = (0, 0);
    let text = drive(
        &[
            "gammon",
            "play",
            "--variant",
            "hyper1",
            "--match",
            "5",
            "--seed",
            "13",
            "--match-tables",
            dir.to_str().unwrap(),
        ],
        |prompt, _| {
            let (asked, last) = match prompt {
                0 => return "t".to_string(),
                1 => (&mut cube_asked, "r"),
                2 => (&mut play_asked, "1"),
                _ => return "n".to_string(),
            };
            *asked += 1;
            ["hint", "eval"]
                .get(*asked - 1)
                .unwrap_or(&last)
                .to_string()
        },
    );
    assert!(text.starts_with("A match to 5 point(s)"), "{text}");
    // The running score on the board, and the side on roll marked.
    assert!(text.contains("match to 5: X needs 5, O needs 5"), "{text}");
    assert!(text.contains("O  pips 24  off 0  on roll"), "{text}");
    // hint and eval at a cube question and at a play, in match-winning chances.
    assert!(
        text.contains("cube verdict, match-winning chances:"),
        "{text}"
    );
    assert!(text.contains("Proper cube action: "), "{text}");
    assert!(text.contains("match-winning chance "), "{text}");
    assert!(text.contains("The table's ranking of"), "{text}");
    assert!(text.contains(" MWC "), "{text}");
    // A take, the Crawford game, and a review after every game.
    assert!(text.contains("You take: cube 2, yours."), "{text}");
    assert!(
        text.contains("This is the Crawford game: no doubling."),
        "{text}"
    );
    let games = text.matches("Opening roll:").count();
    assert!(games >= 3, "{text}");
    assert_eq!(text.matches("\nReview").count(), games, "{text}");
    for (lines, total) in reviews(&text) {
        let sum: f64 = lines.iter().map(|l| l.loss).sum();
        assert!((sum - total).abs() < 1e-3, "{text}");
    }
    assert!(text.contains(" the match to 5 ("), "{text}");
    // No game in the Crawford game's part of the text turns the cube.
    let crawford = text
        .split("\nGame ")
        .find(|g| g.contains("Crawford game"))
        .unwrap();
    assert!(!crawford.contains("doubles"), "{crawford}");
    assert!(!text.contains("NaN"), "{text}");
}
