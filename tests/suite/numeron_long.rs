//! The exact search on every core and over long runs: the same reports on 1, 2 and 4
//! threads; a search cut short going on from its checkpoint to the same report; a search
//! split into jobs combined to the same report as one process; and the files of facts
//! refused when they belong to another game or are damaged.

use crate::common::{refused, succeed, tabula};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tabula::numeron::jobs;
use tabula::numeron::root::{solve_root, solve_root_keeping, Keep, Objective, RootReport};
use tabula::numeron::{Engine, Rules, Strategy};
use tabula::progress::Progress;

/// A report without what depends on the run: the counters and the times.
fn settled(mut r: RootReport) -> RootReport {
    r.stats = Default::default();
    for c in &mut r.per_class {
        c.time = Duration::ZERO;
    }
    r
}

/// `f` run on a pool of `threads` threads.
fn on<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

fn fresh() -> PathBuf {
    crate::scratch::folder()
}

#[test]
fn reports_and_trees_are_the_same_on_one_two_and_four_threads() {
    let games = [
        Rules::new(3),
        Rules::new(3).with_repeats(true),
        Rules::new(3).with_alphabet(7),
        Rules::mastermind(4, 6),
        Rules::mastermind(3, 5),
    ];
    for rules in games {
        let engine = Engine::new(rules, Strategy::Optimal).unwrap();
        for objective in [Objective::Total, Objective::Worst, Objective::FewestAtWorst] {
            for hard in [false, true] {
                if hard && objective == Objective::FewestAtWorst {
                    continue;
                }
                let report = |t| {
                    on(t, || {
                        settled(
                            solve_root(&engine, hard, objective, None, Progress::SILENT).unwrap(),
                        )
                    })
                };
                let one = report(1);
                assert!(one.exact, "{rules:?} {objective:?}");
                assert_eq!(one, report(2), "{rules:?} {objective:?} hard={hard}");
                assert_eq!(one, report(4), "{rules:?} {objective:?} hard={hard}");
            }
        }
        for strategy in [Strategy::Optimal, Strategy::OptimalWorst] {
            let tree = |t| on(t, || engine.tree(strategy, false, false).unwrap());
            let one = tree(1);
            assert_eq!(one, tree(2), "{rules:?} {strategy}");
            assert_eq!(one, tree(4), "{rules:?} {strategy}");
        }
    }
}

#[test]
fn the_optimum_prints_the_same_bytes_whatever_the_thread_count() {
    for objective in [None, Some("--worst"), Some("--fewest-at-worst")] {
        let run = |threads: &str| {
            let mut c = tabula();
            c.env("RAYON_NUM_THREADS", threads)
                .args(["mastermind", "optimum", "--colours", "5"]);
            c.args(objective);
            let text = succeed(&mut c).stdout;
            c.arg("--json");
            (text, succeed(&mut c).stdout)
        };
        let one = run("1");
        assert_eq!(one, run("2"), "{objective:?}");
        assert_eq!(one, run("4"), "{objective:?}");
    }
}

#[test]
fn a_search_cut_short_goes_on_from_its_checkpoint_to_the_report_of_one_run() {
    let engine = Engine::new(Rules::new(3).with_repeats(true), Strategy::Optimal).unwrap();
    let dir = fresh();
    for objective in [Objective::Total, Objective::Worst, Objective::FewestAtWorst] {
        let fresh_run = solve_root(&engine, false, objective, None, Progress::SILENT).unwrap();
        let whole = settled(fresh_run.clone());
        let path = dir.join(format!("{objective:?}.tbl"));
        let keep = Keep {
            read: Vec::new(),
            write: Some(path.clone()),
            every: Some(Duration::from_millis(1)),
            memory: None,
        };
        // No time at all: bounds only (or out of time for the fewest at the worst case),
        // but the checkpoint is written.
        let cut = solve_root_keeping(
            &engine,
            false,
            objective,
            Some(Duration::ZERO),
            &keep,
            Progress::SILENT,
        );
        assert!(
            cut.map_or(true, |r| !r.exact || whole.exact),
            "{objective:?}"
        );
        assert!(path.exists());
        // Then rounds of a tenth of a second more each time, each going on from the last,
        // until one proves the optimum (the first guesses it refuted may have been cut
        // short).
        let mut rounds = 0;
        let report = loop {
            rounds += 1;
            let again = Keep {
                read: vec![path.clone()],
                ..keep.clone()
            };
            let budget = Some(Duration::from_millis(100 * rounds));
            match solve_root_keeping(&engine, false, objective, budget, &again, Progress::SILENT) {
                Ok(r) if r.exact => break r,
                _ => assert!(rounds < 100, "{objective:?} never finished"),
            }
        };
        let values = |r: &RootReport| (r.lower, r.upper, r.first_guess, r.per_class.clone());
        assert_eq!(values(&settled(report)), values(&whole), "{objective:?}");
        // Without a budget, from the facts kept: the whole report, with less search.
        let read = Keep {
            read: vec![path.clone()],
            ..Keep::default()
        };
        let again =
            solve_root_keeping(&engine, false, objective, None, &read, Progress::SILENT).unwrap();
        assert!(again.stats.nodes < fresh_run.stats.nodes, "{objective:?}");
        assert_eq!(settled(again), whole, "{objective:?}");
    }
}

#[test]
fn the_jobs_of_a_plan_combined_give_the_report_of_one_process() {
    for (rules, objective) in [
        (Rules::new(3).with_repeats(true), Objective::Total),
        (Rules::new(3).with_repeats(true), Objective::Worst),
        (Rules::mastermind(4, 5), Objective::Total),
        (Rules::new(3), Objective::Total),
    ] {
        let engine = Engine::new(rules, Strategy::Optimal).unwrap();
        let whole = settled(solve_root(&engine, false, objective, None, Progress::SILENT).unwrap());
        let plan = jobs::plan(&engine, false, objective).unwrap();
        assert!(!plan.units.is_empty());
        // Every class of the first guess solved exactly has a job without a limit.
        assert!(plan
            .units
            .iter()
            .filter(|u| u.first == plan.first)
            .all(|u| u.limit.is_none()));
        let dir = fresh();
        let mut files = Vec::new();
        for (i, unit) in plan.units.iter().enumerate() {
            let out = dir.join(format!("unit-{i}.tbl"));
            let done = jobs::solve_unit(
                &engine,
                false,
                objective,
                unit,
                None,
                &Keep::default(),
                Some(&out),
                Progress::SILENT,
            )
            .unwrap();
            assert!(done.settled, "{rules:?} {unit:?}");
            files.push(out);
        }
        let read = Keep {
            read: files,
            ..Keep::default()
        };
        let combined =
            solve_root_keeping(&engine, false, objective, None, &read, Progress::SILENT).unwrap();
        assert_eq!(settled(combined), whole, "{rules:?} {objective:?}");
    }
}

/// Writes `optimum-plan`'s Makefile for 3 digits with repeats into `dir`.
fn plan(dir: &Path, extra: &[&str]) -> PathBuf {
    let out = succeed(
        tabula()
            .args(["numeron", "optimum-plan", "--digits", "3", "--repeats"])
            .args(extra)
            .arg("--folder")
            .arg(dir),
    );
    let file = dir.join("plan.mk");
    std::fs::write(&file, out.stdout).unwrap();
    file
}

#[test]
fn the_plan_names_one_job_a_class_and_combines_their_facts() {
    let dir = fresh();
    let text = std::fs::read_to_string(plan(&dir, &[])).unwrap();
    let d = dir.display();
    // 012's eight classes solved exactly; 001's and 000's within a limit each.
    assert_eq!(text.matches("optimum-build").count(), 18, "{text}");
    assert!(text.contains("# First guess solved exactly: 012"), "{text}");
    assert!(text.contains(&format!(
        "{d}/unit-012-0E1B.tbl:\n\t$(TABULA) numeron optimum-build --digits 3 --repeats --first 012 --reply 0E1B --out $@ --checkpoint $@.part --every 600 --quiet"
    )));
    assert!(text.contains("--first 001 --reply 0E0B --limit "), "{text}");
    assert!(text.contains("--first 000 --reply 2E0B --limit "), "{text}");
    assert!(text.contains(
        "\t$(TABULA) numeron optimum --digits 3 --repeats --quiet $(addprefix --facts ,$^) > $@"
    ));
}

// Runs make: `cargo test --release -- --ignored`.
#[test]
#[ignore = "runs make -j2 on a plan; run with --ignored"]
fn make_runs_the_jobs_in_parallel_to_the_report_of_one_process() {
    let dir = fresh();
    let file = plan(&dir, &["--worst"]);
    let program = assert_cmd::cargo::cargo_bin("tabula");
    let status = std::process::Command::new("make")
        .args(["-j2", "-s", "-f"])
        .arg(&file)
        .arg(format!("TABULA={}", program.display()))
        .status()
        .unwrap();
    assert!(status.success());
    let one = succeed(tabula().args([
        "numeron",
        "optimum",
        "--digits",
        "3",
        "--repeats",
        "--worst",
        "--quiet",
    ]))
    .stdout;
    assert_eq!(std::fs::read(dir.join("optimum.txt")).unwrap(), one);
}

#[test]
fn a_job_of_another_class_or_facts_of_another_game_are_refused() {
    for (args, fault) in [
        (
            vec!["--first", "123", "--reply", "0E1B"],
            "is not one of the first guesses the search tries (012)",
        ),
        (
            vec!["--first", "012", "--reply", "3E0B"],
            "no secret replies 3E0B to 012",
        ),
        (
            vec!["--first", "012", "--reply", "2E1B"],
            "2E1B is impossible",
        ),
        (vec!["--first", "0a2", "--reply", "0E1B"], "not a digit"),
    ] {
        let mut all = vec![
            "optimum-build",
            "--digits",
            "3",
            "--out",
            "/nonexistent/x.tbl",
        ];
        all.extend(args);
        refused("numeron", &all, fault);
    }
    refused("numeron", &["optimum", "--every", "0"], "--every");
    refused("numeron", &["optimum", "--memory", "0"], "gigabytes");
    let dir = fresh();
    let facts = dir.join("three.tbl");
    succeed(
        tabula()
            .args([
                "numeron",
                "optimum",
                "--digits",
                "3",
                "--quiet",
                "--checkpoint",
            ])
            .arg(&facts),
    );
    // Another game's facts: a table error, exit 1, naming the file and both games.
    let other = tabula()
        .args([
            "numeron",
            "optimum",
            "--digits",
            "3",
            "--repeats",
            "--facts",
        ])
        .arg(&facts)
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(1));
    let message = String::from_utf8_lossy(&other.stderr);
    assert!(
        message.contains("repeats=false") && message.contains("repeats=true"),
        "{message}"
    );
    // A damaged file: its block sum no longer matches.
    let mut bytes = std::fs::read(&facts).unwrap();
    bytes[300] ^= 1;
    std::fs::write(&facts, bytes).unwrap();
    let damaged = tabula()
        .args(["numeron", "optimum", "--digits", "3", "--facts"])
        .arg(&facts)
        .output()
        .unwrap();
    assert_eq!(damaged.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&damaged.stderr).contains("three.tbl"));
}

/// A long search run where stderr is no terminal (a batch job, `nohup`) writes its
/// progress as lines, the proven interval among them, every minute at most (here every
/// time, `TABULA_PROGRESS_EVERY=0`); a short one under the default writes none, and the
/// report is the same bytes either way.
#[test]
fn a_search_whose_stderr_is_no_terminal_writes_its_progress_as_lines() {
    let run = |every: Option<&str>| {
        let mut c = tabula();
        c.args(["numeron", "optimum", "--digits", "3", "--symbols", "6"]);
        if let Some(e) = every {
            c.env("TABULA_PROGRESS_EVERY", e);
        }
        succeed(&mut c)
    };
    let (often, never) = (run(Some("0")), run(None));
    assert_eq!(often.stdout, never.stdout);
    // Beside the timings the command writes to stderr.
    let progress = |out: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(out)
            .lines()
            .filter(|l| l.starts_with("tabula: ["))
            .map(str::to_string)
            .collect()
    };
    let lines = progress(&often.stderr);
    assert!(lines.len() > 3, "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" optimum ") && l.contains(": proven ")),
        "{lines:?}"
    );
    assert!(progress(&never.stderr).is_empty());
}
