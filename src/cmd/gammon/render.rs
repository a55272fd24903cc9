//! Each backgammon result as text for people, in one place. Equities are printed to six
//! decimals for every variant and table.

use std::fmt::Write as _;
use std::path::Path;
use tabula::gammon::cube::{Choice, Choices, CubeAction, CubeDecision};
use tabula::gammon::gnubg::{bd, compare, Comparison, Imported};
use tabula::gammon::numbering::Census;
use tabula::gammon::query::{Evaluation, Hint, Looked, Moves, Opening, Ranked};
use tabula::gammon::store::BuildReport;
use tabula::gammon::verify::VerifyReport;
use tabula::gammon::Outcomes;
use tabula::gammon::{CubeState, Roll};
use tabula::nikoniko::counting::Count;

/// The six outcome chances in one line.
pub fn outcomes(o: &Outcomes) -> String {
    format!(
        "win {:5.1}% (gammon {:5.1}%, backgammon {:5.1}%)  lose {:5.1}% (gammon {:5.1}%, \
         backgammon {:5.1}%)",
        100.0 * o.win,
        100.0 * o.win_gammon,
        100.0 * o.win_backgammon,
        100.0 * o.lose,
        100.0 * o.lose_gammon,
        100.0 * o.lose_backgammon,
    )
}

/// `count`.
pub fn census(c: &Census) -> String {
    let rules = c.rules.describe();
    let name = if c.variant == rules {
        rules
    } else {
        format!("{} ({rules})", c.variant)
    };
    format!(
        "variant   {name}\nrecords   {}\nlegal     {} (positions whose sides share no point)\n\
         states    {} (legal, and neither side has finished)",
        c.records, c.legal, c.states
    )
}

/// `show`, without a board.
pub fn looked(l: &Looked) -> String {
    let mut out = format!(
        "position  {}\nindex     {}\npips      {} (on roll), {} (opponent)",
        l.position, l.index, l.pips[0], l.pips[1]
    );
    if let Some(id) = &l.position_id {
        let _ = write!(out, "\nPosition ID {id}");
    }
    if let Some(x) = &l.xgid {
        let _ = write!(out, "\n{x}");
    }
    out
}

/// `moves`.
pub fn moves(m: &Moves) -> String {
    if m.pass {
        return format!("{}: no legal move, the turn passes", m.roll);
    }
    let mut out = format!("{} distinct plays of {}:\n", m.moves.len(), m.roll);
    for (k, p) in m.moves.iter().enumerate() {
        let end = match p.wins {
            0 => String::new(),
            s => format!("  (wins {s})"),
        };
        let _ = writeln!(out, "{:>3}. {:<24} {}{end}", k + 1, p.play, p.position);
    }
    out
}

/// `build`.
pub fn build(r: &BuildReport) -> String {
    let s = &r.solve;
    let mut out = String::new();
    for t in &r.tables {
        let _ = writeln!(
            out,
            "built {} ({}, {})",
            t.path.display(),
            r.variant,
            t.kind
        );
    }
    let _ = write!(
        out,
        "records         {} ({} states)\n\
         plays           {} successor links ({:.2} GB of graph)\n\
         equity          {} sweeps, final residual {:.2e}\n\
         outcomes        {} sweeps, final residual {:.2e}\n",
        r.records,
        s.states,
        s.successors,
        s.graph_bytes as f64 / 1e9,
        s.sweeps,
        s.residual,
        s.outcome_sweeps,
        s.outcome_residual,
    );
    if let (Some(n), Some(res)) = (s.cube_sweeps, s.cube_residual) {
        let _ = writeln!(out, "cube            {n} sweeps, final residual {res:.2e}");
    }
    let _ = writeln!(
        out,
        "time            {:.2} s ({:.2} s generating plays, {:.2} s iterating, {:.2} s of it \
         for the outcomes)",
        r.seconds, s.graph_seconds, s.solve_seconds, s.outcome_seconds
    );
    for t in &r.tables {
        let _ = writeln!(out, "checksum        sha256:{} ({})", t.checksum, t.kind);
    }
    let _ = write!(out, "opening equity  {:+.6}", r.opening_equity);
    out
}

/// `equity`.
pub fn evaluation(e: &Evaluation) -> String {
    let mut out = format!(
        "position {}  (index {})\nequity   {:+.6} for the side on roll (cubeless)\n{}",
        e.looked.position,
        e.looked.index,
        e.equity,
        outcomes(&e.outcomes)
    );
    match (&e.cubeful, &e.cube) {
        (Some(c), Some(a)) => {
            let _ = write!(
                out,
                "\ncubeful  owned {:+.6}  centred {:+.6}  Jacoby {:+.6}  opponent owns {:+.6}\n{}",
                c.owned,
                c.centred,
                c.centred_jacoby,
                c.opponent_owns,
                money_verdict(a)
            );
        }
        (Some(_), None) => out.push_str("\ncube     none: the game is over"),
        _ => out.push_str("\ncube     (this table keeps no cube)"),
    }
    out
}

/// How the values of a verdict are written: each value, a difference between two, an
/// amount (a margin).
pub struct Figures {
    pub value: fn(f64) -> String,
    pub diff: fn(f64) -> String,
    pub amount: fn(f64) -> String,
}

/// Equities, to six decimals.
pub const EQUITY: Figures = Figures {
    value: |e| format!("{e:+.6}"),
    diff: |e| format!("{e:+.6}"),
    amount: |e| format!("{e:.6}"),
};

/// The money cube verdict (`equity`, the trainer): the cube state, the cubeful equities.
pub fn money_verdict(a: &CubeAction) -> String {
    let state = a.state.unwrap_or(CubeState::Centred);
    if a.proper.is_none() {
        return format!(
            "cube ({state}): no access to the cube; no double {:+.6}",
            a.no_double
        );
    }
    verdict(a, &format!("cube ({state}), cubeful equities:"), &EQUITY)
}

/// The cube verdict as gnubg gives it, under `head`: the choices open to the side on roll
/// in gnubg's order (the proper one first), each with its value and, after the first, its
/// difference from it; the proper action in gnubg's words, with gnubg's percentage; where
/// the position stands against the doubling point, and the opponent against its take
/// point. For a side that may double (`a.proper`).
pub fn verdict(a: &CubeAction, head: &str, f: &Figures) -> String {
    let Some(proper) = &a.proper else {
        return head.to_string();
    };
    let re = if proper.redouble {
        "Redouble"
    } else {
        "Double"
    };
    let name = |c: Choice| match c {
        Choice::NoDouble => format!("No {}", re.to_lowercase()),
        Choice::DoubleTake => format!("{re}, take"),
        Choice::DoublePass => format!("{re}, pass"),
    };
    let choices = Choices {
        no_double: a.no_double,
        double_take: a.double_take,
        double_pass: a.double_pass,
    };
    let best = a.order[0].of(&choices);
    let mut out = head.to_string();
    for (n, &c) in a.order.iter().enumerate() {
        let e = c.of(&choices);
        let _ = write!(out, "\n  {}. {:<16} {}", n + 1, name(c), (f.value)(e));
        if n > 0 {
            let _ = write!(out, "  ({})", (f.diff)(e - best));
        }
    }
    let _ = write!(out, "\nProper cube action: {proper}");
    if let Some(p) = a.percent {
        let _ = write!(out, " ({:.1}%)", 100.0 * p);
    }
    let m = a.doubling_margin;
    let doubling = match a.action {
        _ if proper.dead => "none: the cube is dead for the side on roll (a single win at this \
                             cube takes the match)"
            .to_string(),
        Some(d) if d.doubles() => format!("past it, doubling gains {}", (f.amount)(m.max(0.0))),
        Some(CubeDecision::TooGood) => format!(
            "past it, and too good to double: playing on gains {} over cashing",
            (f.amount)(a.no_double - a.double_pass)
        ),
        _ => format!("short of it, doubling costs {}", (f.amount)(-m)),
    };
    let _ = write!(out, "\nDoubling point: {doubling}");
    let tp = a.take_margin;
    let _ = write!(
        out,
        "\nTake point: {}",
        if tp >= 0.0 && proper.beaver {
            format!(
                "the opponent takes and beavers (it is ahead after a take), {} better than \
                 passing",
                (f.amount)(tp)
            )
        } else if tp >= 0.0 {
            format!("the opponent takes, {} better than passing", (f.amount)(tp))
        } else {
            format!(
                "the opponent passes, {} better than taking",
                (f.amount)(-tp)
            )
        }
    );
    out
}

/// `hint`.
pub fn hint(h: &Hint) -> String {
    if h.moves.is_empty() {
        return format!("{}: no legal move, the turn passes", h.roll);
    }
    plays(&h.position, h.roll, h.cube, &h.moves, 24, |m| {
        format!("\n     {}", outcomes(&m.outcomes))
    })
}

/// A ranked list of plays: a heading (the position, the roll and the cube state), then a
/// line a play, its text `text_width` wide, ended by `tail` (which starts with its own
/// separator).
pub fn plays(
    position: &str,
    roll: Roll,
    cube: Option<CubeState>,
    plays: &[Ranked],
    text_width: usize,
    tail: impl Fn(&Ranked) -> String,
) -> String {
    let mut out = match cube {
        Some(state) => format!("{position} to play {roll} (cube {state}):\n"),
        None => format!("{position} to play {roll}:\n"),
    };
    for (k, m) in plays.iter().enumerate() {
        let cubeful = m
            .cubeful
            .map(|c| format!("cubeful {c:+.6}  "))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{:>3}. {:<text_width$} {:<24} {cubeful}equity {:+.6}  loss {:.6}{}",
            k + 1,
            m.text,
            m.position,
            m.equity,
            m.loss,
            tail(m)
        );
    }
    out
}

/// `opening`.
pub fn opening(o: &Opening) -> String {
    let mut out = format!("{} opening {}: best first plays\n", o.variant, o.position);
    for r in &o.rolls {
        let _ = writeln!(
            out,
            "  {:<5} {:<24} {:+.6}",
            r.roll.to_string(),
            r.play,
            r.equity
        );
    }
    let _ = write!(
        out,
        "opening-roll winner's equity {:+.10} (average over the non-double rolls)",
        o.winner_equity
    );
    out
}

/// `verify`, which took `seconds`.
pub fn verify(r: &VerifyReport, seconds: f64) -> String {
    format!(
        "checksums           ok\n\
         Bellman sweep       largest gap {:.3e} at index {} (rounding allows {:.3e})\n\
         equity vs outcomes  largest gap {:.3e} (rounding allows {:.3e})\n\
         outcomes add to 1   largest gap {:.3e} (rounding allows {:.3e})\n\
         verdict             {} ({seconds:.2} s)",
        r.max_bellman_gap,
        r.worst_index,
        r.bellman_bound,
        r.max_outcome_gap,
        r.outcome_bound,
        r.max_total_gap,
        r.total_bound,
        if r.ok { "consistent" } else { "INCONSISTENT" }
    )
}

/// `compare` against the gnubg file at `path`.
pub fn comparison(c: &Comparison, path: &Path) -> String {
    let mut out = format!(
        "{} against {}: {} records, {} compared (legal, play left)\n",
        c.variant,
        path.display(),
        c.records,
        c.compared
    );
    for d in &c.quantities {
        let _ = writeln!(
            out,
            "  {:<16} largest difference {:.3e} at record {} ({}): tabula {:.7}, gnubg {:.7}",
            d.name, d.max_diff, d.record, d.position, d.ours, d.theirs
        );
    }
    let _ = writeln!(
        out,
        "{} positions differ in a chance by more than {:.0e} while their equities agree: plays \
         that tie in equity, kept differently by the two programs",
        c.tie_records,
        compare::TIE_GAP
    );
    let _ = writeln!(
        out,
        "{} positions have a roll without a legal move (gnubg 1.07 mishandles the cube there)",
        c.pass_records
    );
    if let Some(d) = &c.max_diff_without_pass {
        let _ = writeln!(
            out,
            "cubeful, where no roll passes: largest differences owned {:.1e}, centred {:.1e}, \
             Jacoby {:.1e}, opponent owns {:.1e}",
            d.owned, d.centred, d.centred_jacoby, d.opponent_owns
        );
    }
    let _ = write!(
        out,
        "gnubg stores 24 bits: a chance to {:.1e}, an equity to {:.1e}; every cubeless \
         equity difference is {}",
        1.0 / f64::from(bd::SCALE),
        6.0 / f64::from(bd::SCALE),
        if c.within_precision {
            "within that (plus gnubg's own 1e-5 stopping rule)"
        } else {
            "NOT within it"
        }
    );
    out
}

/// `export` of `records` records to `path`, with the cube or without.
pub fn export(path: &Path, records: u64, cube: bool) -> String {
    format!(
        "wrote {} ({records} records, gnubg 1.07's format{})",
        path.display(),
        if cube {
            ""
        } else {
            "; the table keeps no cube, so the cubeful equities are 0: build it without \
             --cubeless"
        }
    )
}

/// `import` of the gnubg file at `from`.
pub fn imported(i: &Imported, from: &Path) -> String {
    let mut out = format!(
        "read {} ({}, {} records, gnubg 1.07's format)",
        from.display(),
        i.variant,
        i.records
    );
    for t in &i.tables {
        let _ = write!(
            out,
            "\nwrote {} ({}, sha256:{})",
            t.path.display(),
            t.kind,
            t.checksum
        );
    }
    out
}

/// `nikoniko count`, which took `seconds`.
pub fn count(c: &Count, seconds: f64) -> String {
    let mut out = format!(
        "states                {}\n\
         counted as the seed   {}\n\
         one side's vectors    {} (the seed's PNC(10, 5))\n\
         round trips verified  {} (index -> position -> index) in {seconds:.3} s",
        c.states, c.seed_count, c.side_vectors, c.states
    );
    if let Some(plays) = &c.plays {
        out.push_str(
            "\nplays of every roll from every state:\n  roll        plays     passes       wins",
        );
        for s in plays {
            let _ = write!(
                out,
                "\n  {}  {:>11} {:>10} {:>10}",
                s.roll, s.plays, s.passes, s.wins
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::gammon::cube::{decide_money, Cubeful};

    #[test]
    fn the_verdict_lists_the_proper_action_first_and_the_others_against_it() {
        let c = |nd: f64, x: f64| Cubeful {
            owned: nd,
            centred: nd,
            centred_jacoby: nd,
            opponent_owns: x,
        };
        let verdict = |nd, x, state| money_verdict(&decide_money(&c(nd, x), state, true));
        // No double 0.3; doubled and taken 2 × 0.1 = 0.2: no double, take.
        let text = verdict(0.3, 0.1, CubeState::Centred);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "  1. No double        +0.300000");
        assert_eq!(lines[2], "  2. Double, pass     +1.000000  (+0.700000)");
        assert_eq!(lines[3], "  3. Double, take     +0.200000  (-0.100000)");
        // gnubg's percentage: (0.3 − 0.2) / (1 − 0.2).
        assert_eq!(lines[4], "Proper cube action: No double, take (12.5%)");
        assert!(lines[5].contains("short of it, doubling costs 0.100000"));
        assert!(lines[6].contains("the opponent takes, 0.800000 better than passing"));
        // Owned, 0.9 and 2 × 0.6 = 1.2: redouble, pass.
        let text = verdict(0.9, 0.6, CubeState::Owned);
        assert!(text.contains("  1. Redouble, pass   +1.000000\n"), "{text}");
        assert!(
            text.contains("Proper cube action: Redouble, pass\n"),
            "{text}"
        );
        assert!(text.contains("past it, doubling gains 0.100000"), "{text}");
        assert!(text.contains("the opponent passes, 0.200000 better than taking"));
        let text = verdict(0.9, 0.6, CubeState::OpponentOwns);
        assert!(
            text.contains("no access") && !text.contains("pass"),
            "{text}"
        );
        // Too good, pass: listed no double, double/take, double/pass; past the doubling
        // point, not short of it.
        let text = verdict(1.2, 0.6, CubeState::Centred);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "  1. No double        +1.200000");
        assert_eq!(lines[2], "  2. Double, take     +1.200000  (+0.000000)");
        assert_eq!(lines[3], "  3. Double, pass     +1.000000  (-0.200000)");
        assert_eq!(
            lines[4],
            "Proper cube action: Too good to double, pass (100.0%)"
        );
        assert!(
            lines[5].starts_with("Doubling point: past it, and too good"),
            "{text}"
        );
        // A beaver: the taker is ahead after a take.
        let text = verdict(-0.3, -0.4, CubeState::Centred);
        assert!(
            text.contains("Proper cube action: No double, beaver ("),
            "{text}"
        );
        assert!(text.contains("takes and beavers"), "{text}");
    }
}
