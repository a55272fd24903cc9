//! The trainer's words (`super::trainer::Words`): what a session or a match in
//! the terminal shows of the table's advice and of the review, in money play and at a
//! match score.

use super::render::{money_verdict, outcomes, verdict};
use super::render_match::{pc, CHANCES};
use super::trainer::{self, Evaluated, Row};
use std::fmt::Write as _;
use tabula::gammon::cube::CubeAction;
use tabula::gammon::game::describe;
use tabula::gammon::judge::Measure;
use tabula::gammon::review::{GameReview, Kind, Mark};
use tabula::gammon::Roll;

/// The trainer's words, for every session.
pub struct Words;

/// A value of `measure`: an equity to six decimals, a chance as a percentage.
fn value(v: f64, measure: Measure) -> String {
    match measure {
        Measure::Chance => pc(v),
        _ => format!("{v:+.6}"),
    }
}

/// A loss of `measure`.
fn loss(l: f64, measure: Measure) -> String {
    match measure {
        Measure::Chance => format!("{:.4}%", 100.0 * l),
        _ => format!("{l:.6}"),
    }
}

impl trainer::Words for Words {
    fn seed(&self, seed: u64) -> String {
        format!("Dice seed {seed} (replay with --seed {seed}).")
    }

    fn verdict(&self, a: &CubeAction, measure: Measure) -> String {
        match measure {
            Measure::Chance => verdict(a, "cube verdict, match-winning chances:", &CHANCES),
            _ => money_verdict(a),
        }
    }

    fn ranking(&self, roll: Roll, plays: &[Row], measure: Measure) -> String {
        let label = match measure {
            Measure::Cubeless => "cubeless equity",
            Measure::Cubeful => "cubeful equity",
            Measure::Chance => "MWC",
        };
        let mut out = format!("The table's ranking of {roll}:");
        for (k, m) in plays.iter().enumerate() {
            let _ = write!(
                out,
                "\n  {:>2}. {:<24} {label} {}  loss {}",
                k + 1,
                m.play,
                value(m.value, measure),
                loss(m.loss, measure)
            );
        }
        out
    }

    fn evaluation(&self, e: &Evaluated) -> String {
        let mut out = e.position.clone();
        if let Some(id) = &e.position_id {
            let _ = write!(out, " (Position ID {id})");
        }
        if let Some(x) = &e.xgid {
            let _ = write!(out, " ({x})");
        }
        out.push_str(", the side on roll's:");
        if let Some((equity, o)) = &e.cubeless {
            let _ = write!(out, "\n  cubeless equity {equity:+.6}; {}", outcomes(o));
        }
        let _ = match e.measure {
            Measure::Cubeless => Ok(()),
            Measure::Cubeful => write!(
                out,
                "\n  cubeful equity {:+.6} if it does not double",
                e.no_double
            ),
            Measure::Chance => write!(
                out,
                "\n  match-winning chance {} if it does not double",
                pc(e.no_double)
            ),
        };
        out
    }

    fn review(&self, r: &GameReview) -> String {
        let unit = match r.measure {
            Measure::Chance => "in match-winning chance",
            _ => "per unit of the cube",
        };
        let lost: Vec<_> = r
            .decisions
            .iter()
            .enumerate()
            .filter(|(_, d)| d.loss > 0.0)
            .collect();
        if r.decisions.is_empty() {
            return "\nReview: no decision of yours in this game.".to_string();
        }
        let mut out = format!(
            "\nReview of your decisions that lost something (the loss {unit} against the best; \
             gnubg's marks on the equity lost per unit of the cube: ?! over 0.03, ? over 0.06, \
             ?? over 0.12):"
        );
        if lost.is_empty() {
            out.push_str("\n  none: every decision was the best.");
        }
        for (k, d) in lost {
            let cube = d.cube.map_or("no cube".to_string(), |c| describe(&c));
            let what = match (d.kind, d.roll) {
                (Kind::Play, Some(roll)) => format!("play {roll}"),
                (Kind::Cube, _) => "cube".to_string(),
                _ => "answer".to_string(),
            };
            let mark = d.mark.map_or("", Mark::symbol);
            let _ = write!(
                out,
                "\n  {:>3}. {what} at {} ({cube}): {}; best {}; loss {} {mark}",
                k + 1,
                d.position,
                d.chosen,
                d.best,
                loss(d.loss, r.measure)
            );
        }
        let marked = |m: Mark| r.decisions.iter().filter(|d| d.mark == Some(m)).count();
        let losing = r.decisions.iter().filter(|d| d.loss > 0.0).count();
        let _ = write!(
            out,
            "\nTotal: {} lost in {losing} of {} decision(s){}; {} very bad, {} bad, {} doubtful.",
            loss(r.total, r.measure),
            r.decisions.len(),
            r.total_points
                .map(|p| format!(" ({p:.6} points at the cube's values)"))
                .unwrap_or_default(),
            marked(Mark::VeryBad),
            marked(Mark::Bad),
            marked(Mark::Doubtful)
        );
        if let (Some(rate), Some(rating)) = (r.rate, r.rating) {
            let _ = write!(
                out,
                "\nError rate: {:.1} thousandths of an equity per unit of the cube per decision \
                 (gnubg's mEMG): gnubg's rating {}.",
                1000.0 * rate,
                rating.text()
            );
        }
        out
    }
}
