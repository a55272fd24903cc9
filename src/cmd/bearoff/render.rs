//! Each bear-off result as text for people, in one place.

use std::fmt::Write as _;
use std::path::Path;
use tabula::gammon::bearoff::estimate::{EstimatedHint, RaceEstimate};
use tabula::gammon::bearoff::gnubg::{Comparison, Format, OS_UNIT, TS_UNIT};
use tabula::gammon::bearoff::index::Count;
use tabula::gammon::bearoff::query::{BearoffEvaluation, BearoffHint, Distribution};
use tabula::gammon::bearoff::store::BuildReport;

/// `count`.
pub fn count(c: &Count) -> String {
    format!(
        "points     {}\ncheckers   {} a side at most\npositions  {} (one side)\npairs      {}",
        c.points, c.checkers, c.positions, c.pairs
    )
}

/// `build`.
pub fn build(r: &BuildReport) -> String {
    let d = &r.database;
    let what = if d.two_sided {
        format!(
            "two-sided {}x{}, {}",
            d.points,
            d.checkers,
            if d.cube { "with the cube" } else { "cubeless" }
        )
    } else {
        format!("one-sided, {} points, 15 checkers", d.points)
    };
    let mut out = format!(
        "built {} ({what})\npositions  {} a side{}\nrecords    {}\n",
        r.table.path.display(),
        r.positions,
        if d.two_sided {
            format!(", {} pairs", r.pairs)
        } else {
            String::new()
        },
        r.records
    );
    let _ = write!(
        out,
        "time       {:.2} s ({:.2} s solving)\nchecksum   sha256:{} ({})",
        r.seconds, r.solve_seconds, r.table.checksum, r.table.kind
    );
    if let Some(o) = &r.out_of_core {
        let mb = |b: u64| b as f64 / 1e6;
        let _ = write!(
            out,
            "\nout of core {} layers ({} resumed), {:.0} MB held at most of {:.0} MB allowed\n\
             disk       {:.0} MB of working values written, {:.0} MB read",
            o.layers,
            o.resumed_layers,
            mb(o.peak_memory),
            mb(o.memory),
            mb(o.bytes_written),
            mb(o.bytes_read)
        );
        if let Some(x) = &o.exchange {
            let _ = write!(
                out,
                "\nexchange   {} ranks: {} gathers to rank 0, {:.0} MB sent, {:.0} MB received \
                 (at most {:.0} MB in a layer); {:.2} s in gathers, {:.2} s in barriers",
                x.ranks,
                x.gathers,
                mb(x.bytes_sent),
                mb(x.bytes_received),
                mb(x.largest_layer_received),
                x.gather_seconds,
                x.barrier_seconds
            );
        }
    }
    out
}

/// Probabilities as percentages, one roll count a line.
fn column(rolls: &[f64], gammon: Option<&[f64]>) -> String {
    let mut out = String::from(" rolls   bear off   first off\n");
    let len = rolls.len().max(gammon.map_or(0, <[f64]>::len));
    for i in 0..len {
        let p = rolls.get(i).copied().unwrap_or(0.0);
        let g = gammon.map(|g| g.get(i).copied().unwrap_or(0.0));
        let _ = writeln!(
            out,
            "{i:>6}  {:>8.4}%  {}",
            100.0 * p,
            g.map_or(String::new(), |g| format!("{:>8.4}%", 100.0 * g))
        );
    }
    out
}

/// `distribution` of a pair: both sides side by side, then their mean, standard
/// deviation, pip count, effective pip count and wastage, as gnubg shows them.
pub fn pair_distribution(d: &tabula::gammon::bearoff::query::PairDistribution) -> String {
    let (a, b) = (&d.roller, &d.opponent);
    let mut out = format!("{:>6}  {:>10}  {:>10}\n", "rolls", a.position, b.position);
    for i in 0..a.rolls.len().max(b.rolls.len()) {
        let p = |r: &[f64]| 100.0 * r.get(i).copied().unwrap_or(0.0);
        let _ = writeln!(out, "{i:>6}  {:>9.4}%  {:>9.4}%", p(&a.rolls), p(&b.rolls));
    }
    for (name, x, y) in [
        ("mean", a.mean, b.mean),
        ("std dev", a.std_dev, b.std_dev),
        ("pips", f64::from(a.pips), f64::from(b.pips)),
        ("EPC", a.epc, b.epc),
        ("wastage", a.wastage, b.wastage),
    ] {
        let _ = writeln!(out, "{name:>7} {x:>10.4}  {y:>10.4}");
    }
    out.trim_end().to_string()
}

/// `distribution`.
pub fn distribution(d: &Distribution) -> String {
    let mut out = format!("side {}  (index {})\n", d.position, d.index);
    out.push_str(&column(&d.rolls, d.gammon_rolls.as_deref()));
    let _ = write!(
        out,
        "mean rolls to bear off {:.6} (std dev {:.6}); pips {}, EPC {:.4}, wastage {:.4}",
        d.mean, d.std_dev, d.pips, d.epc, d.wastage
    );
    if let Some(g) = d.gammon_mean {
        let _ = write!(out, "\nmean rolls to the first checker off {g:.6}");
    }
    out
}

/// `equity`.
pub fn evaluation(e: &BearoffEvaluation) -> String {
    let mut out = crate::cmd::gammon::render::evaluation(&e.evaluation);
    if let Some(x) = &e.one_sided_estimate {
        let _ = write!(
            out,
            "\none-sided estimate: win {:.4}% ({:+.4}% from exact)",
            100.0 * x.win,
            100.0 * x.win_error
        );
    }
    out
}

/// `equity` of a race no two-sided table holds: the one-sided estimate, labelled.
pub fn race_estimate(e: &RaceEstimate) -> String {
    format!(
        "position  {}\nmethod    {} (no two-sided table holds this race: not exact)\n\
         pips      {} (on roll), {} (opponent)\n\
         win       {:.4}%  (win gammon {:.4}%, lose gammon {:.4}%)\n\
         equity    {:+.6} cubeless, estimated",
        e.position,
        e.method,
        e.pips[0],
        e.pips[1],
        100.0 * e.win,
        100.0 * e.win_gammon,
        100.0 * e.lose_gammon,
        e.equity
    )
}

/// `hint` of a race no two-sided table holds: the plays by the one-sided estimate.
pub fn hint_estimate(h: &EstimatedHint) -> String {
    let mut out = format!(
        "position  {}  roll {}-{}\nmethod    {} (no two-sided table holds this race: not exact)\n",
        h.position,
        h.roll.high(),
        h.roll.low(),
        h.method
    );
    for (k, p) in h.plays.iter().take(20).enumerate() {
        let _ = writeln!(
            out,
            "{:>3}. after {:<36} equity {:+.6}  loss {:.6}",
            k + 1,
            p.after,
            p.equity,
            p.loss
        );
    }
    out.pop();
    out
}

/// `hint`.
pub fn hint(h: &BearoffHint) -> String {
    crate::cmd::gammon::render::plays(&h.position, h.roll, h.cube, &h.plays, 20, |m| {
        format!("  win {:.4}%", 100.0 * m.outcomes.win)
    })
}

/// `export` of `format` to `path`.
pub fn export(path: &Path, format: &Format) -> String {
    let what = match *format {
        Format::OneSided {
            points, compressed, ..
        } => format!(
            "one-sided, {points} points, with the gammon distributions, {}",
            if compressed {
                "compressed"
            } else {
                "uncompressed"
            }
        ),
        Format::TwoSided {
            points,
            checkers,
            cubeful,
        } => format!(
            "two-sided {points}x{checkers}, {}",
            if cubeful { "cubeful" } else { "cubeless" }
        ),
    };
    format!("wrote {} (gnubg's format: {what})", path.display())
}

/// `compare` against the gnubg file at `path`.
pub fn comparison(c: &Comparison, path: &Path) -> String {
    let one_sided = matches!(c.gnubg, Format::OneSided { .. });
    let unit = if one_sided { OS_UNIT } else { TS_UNIT };
    let mut out = format!(
        "{} against {}: {} positions compared\n",
        c.database_name(),
        path.display(),
        c.positions
    );
    for q in &c.quantities {
        let _ = writeln!(
            out,
            "  {:<14} largest difference {:.3e} ({:.1} of gnubg's units) at {} ({}): tabula {:.7}, \
             gnubg {:.7}\n  {:<14} mean difference {:.2e}; positions over 1, 4, 16 units: {}, {}, {}; \
             near-tied rolls there: {}",
            q.quantity,
            q.max_diff,
            q.units,
            q.index,
            q.position,
            q.tabula,
            q.gnubg,
            "",
            q.mean_diff,
            q.over[0],
            q.over[1],
            q.over[2],
            q.near_ties
        );
    }
    if one_sided {
        let _ = write!(
            out,
            "gnubg stores each probability to {unit:.2e} (1/65535), computes each side from its \
             successors' rounded values, forces the total to 0xFFFF at the mode, and chooses \
             plays by rounded expectations: where two plays are near-tied it may keep the \
             other, and its whole distribution then differs while the means agree. {} sides \
             need more than 31 rolls, which the format cannot hold.",
            c.beyond_format
        );
    } else {
        let _ = write!(
            out,
            "gnubg stores each equity to {unit:.2e} (1/32767.5) and truncates every average of \
             the 36 rolls in 16-bit integers: differences of a few units, growing with the \
             number of rolls left, are its rounding; its format keeps no gammons."
        );
    }
    out
}
