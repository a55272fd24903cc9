//! Each match-play result as text for people, in one place (the family's other results
//! are in `render`). Match-winning chances are printed as percentages.

use super::render::Figures;
use std::fmt::Write as _;
use std::path::Path;
use tabula::gammon::matchplay::met::{Met, MetComparison};
use tabula::gammon::matchplay::query::{MarketWindow, MatchEvaluation, MatchHint};
use tabula::gammon::matchplay::store::UnitBuilt;

/// A chance as a percentage.
pub fn pc(p: f64) -> String {
    format!("{:.4}%", 100.0 * p)
}

/// `equity --score`.
pub fn evaluation(e: &MatchEvaluation) -> String {
    let mut out = format!(
        "position {}  (index {})\nscore    {} (the side on roll needs {}, its opponent {})\n\
         cube     {}\nMWC      {} for the side on roll if it does not double",
        e.looked.position,
        e.looked.index,
        e.score,
        e.score.on_roll,
        e.score.opponent,
        e.cube,
        pc(e.mwc)
    );
    match &e.cube_action {
        Some(a) => {
            out.push('\n');
            out.push_str(&super::render::verdict(
                a,
                "cube verdict, match-winning chances:",
                &CHANCES,
            ));
        }
        None if !e.score.cube_in_play() => {
            out.push_str("\naction   none: the Crawford game has no cube")
        }
        None if e.cube.has_access() => {
            out.push_str("\naction   none: the cube is dead (every game decides the match)")
        }
        None => out.push_str("\naction   no access (the opponent owns the cube)"),
    }
    if let Some(w) = &e.market_window {
        out.push('\n');
        out.push_str(&window(w));
    }
    out
}

/// Chances, as percentages to four decimals.
pub const CHANCES: Figures = Figures {
    value: pc,
    diff: |d| format!("{:+.4}%", 100.0 * d),
    amount: pc,
};

/// A point of the window: a chance, or `none` where there is none (0/0).
fn point(p: Option<f64>) -> String {
    p.map_or_else(|| "none".to_string(), pc)
}

/// The market window.
fn window(w: &MarketWindow) -> String {
    let mut out = match w.doubling_point {
        Some(d) => format!(
            "window   dead cube {} - {} (doubling point - take point, winning chances, no gammons)",
            pc(d),
            point(w.take_point)
        ),
        None => format!(
            "window   dead cube: no doubling point (a last roll's win and loss are worth the same \
             at the cube and at twice it); take point {}",
            point(w.take_point)
        ),
    };
    if let Some(live) = w.take_point_live {
        let _ = write!(
            out,
            "\n         live cube {} - {}",
            point(w.doubling_point),
            pc(live)
        );
    }
    if let Some((d, t)) = w.with_redouble {
        let _ = write!(
            out,
            "\n         dead cube, the opponent redoubling at once: {} - {}",
            point(d),
            point(t)
        );
    }
    out
}

/// `hint --score`.
pub fn hint(h: &MatchHint) -> String {
    if h.moves.is_empty() {
        return format!("{}: no legal move, the turn passes", h.roll);
    }
    let mut out = format!(
        "{} to play {} at {} ({}):\n",
        h.position, h.roll, h.score, h.cube
    );
    for (k, m) in h.moves.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>3}. {:<24} {:<20} MWC {}  loss {:.4}%",
            k + 1,
            m.text,
            m.position,
            pc(m.mwc),
            100.0 * m.loss
        );
    }
    out
}

/// A match-equity table: the pre-Crawford rows, then the post-Crawford row.
pub fn met(m: &Met) -> String {
    let n = m.length as usize;
    let mut out = format!(
        "{}: match-winning chance of the side needing A (rows) against B (columns) at the \
         start of a game; a side needing 1 plays the Crawford game\n        ",
        m.variant
    );
    for b in 1..=n {
        let _ = write!(out, "{:>9}", format!("{b}-away"));
    }
    for (a, row) in m.met.iter().enumerate() {
        let _ = write!(out, "\n{:>7} ", format!("{}-away", a + 1));
        for p in row {
            let _ = write!(out, "{:>9.4}", 100.0 * p);
        }
    }
    let _ = write!(
        out,
        "\npost-Crawford: match-winning chance of the leader (the side needing 1) against the \
         trailer needing B; gnubg's table holds the trailer's, 100 less these\n        "
    );
    for p in &m.post_crawford {
        let _ = write!(out, "{:>9.4}", 100.0 * p);
    }
    out
}

/// `met`: the table, what was solved, the gnubg file, a comparison.
pub fn met_report(
    m: &Met,
    units: &[UnitBuilt],
    gnubg: Option<&Path>,
    compared: Option<&MetComparison>,
) -> String {
    let solved: Vec<&UnitBuilt> = units.iter().filter(|u| u.solve.is_some()).collect();
    let seconds = solved
        .iter()
        .filter_map(|u| u.solve.as_ref())
        .fold(0.0, |t, s| t + s.seconds);
    let mut out = met(m);
    let _ = write!(
        out,
        "\n\n{} scores: {} solved now ({seconds:.2} s), {} read from their tables",
        units.len(),
        solved.len(),
        units.len() - solved.len()
    );
    if let Some(path) = gnubg {
        let _ = write!(
            out,
            "\nwrote {} (gnubg's match-equity format)",
            path.display()
        );
    }
    if let Some(c) = compared {
        let _ = write!(out, "\n\n{}", comparison(c));
    }
    out
}

/// Ours less theirs, in percentage points, on the scores both hold.
fn comparison(c: &MetComparison) -> String {
    let n = c.length as usize;
    let mut out = format!(
        "{} less {} (percentage points):\n        ",
        c.ours.variant, c.theirs.variant
    );
    for b in 1..=n {
        let _ = write!(out, "{:>8}", format!("{b}-away"));
    }
    for a in 0..n {
        let _ = write!(out, "\n{:>7} ", format!("{}-away", a + 1));
        for b in 0..n {
            let _ = write!(
                out,
                "{:>+8.2}",
                100.0 * (c.ours.met[a][b] - c.theirs.met[a][b])
            );
        }
    }
    let (d, a, b) = c.largest;
    let _ = write!(
        out,
        "\nlargest difference {:+.2} points at {a}-away against {b}-away ({} against {})",
        100.0 * d,
        pc(c.ours.met[a as usize - 1][b as usize - 1]),
        pc(c.theirs.met[a as usize - 1][b as usize - 1])
    );
    out
}

/// `score-build`.
pub fn unit_built(u: &UnitBuilt) -> String {
    let mut out = format!("built {} (score {})", u.table.path.display(), u.unit);
    if let Some(s) = &u.solve {
        let _ = write!(
            out,
            "\ncube levels     {}\nsweeps          {}, final residual {:.2e}\ntime            {:.2} s",
            s.levels, s.sweeps, s.residual, s.seconds
        );
    }
    let _ = write!(
        out,
        "\nchecksum        sha256:{}\nstart           {} for the side needing the smaller score",
        u.table.checksum,
        pc(u.start_mwc)
    );
    out
}

/// `score-plan`: a Makefile with a rule for each table (`rules`: target, prerequisites,
/// recipe).
pub fn plan(
    variant: &str,
    length: u32,
    program: &str,
    rules: &[(String, Vec<String>, String)],
) -> String {
    let mut out = format!(
        "# Every score of a match to {length} points of {variant}, one rule a score: each\n\
         # table is solved from the tables of the scores below it. Run with `make -j N -f FILE`\n\
         # (or hand each rule to a batch scheduler in this order of prerequisites).\n\
         TABULA ?= {program}\n\nall:"
    );
    for (target, _, _) in rules {
        let _ = write!(out, " \\\n  {target}");
    }
    out.push_str("\n\n.PHONY: all\n");
    for (target, deps, command) in rules {
        let _ = write!(out, "\n{target}:");
        for d in deps {
            let _ = write!(out, " {d}");
        }
        let _ = writeln!(out, "\n\t{command}");
    }
    out
}
