//! Plays as GNU Backgammon writes and reads them (`docs/gammon.md`, "Notation"), for
//! every variant of the family: the moves sorted from the highest point down, one
//! checker's moves joined into one (`24/13`, keeping a point it hit on: `13/7*/1`), the
//! same move made by several checkers counted (`8/4(2)`), `bar` and `off` for the bar and
//! the tray, `*` after a point where a blot was hit.
//!
//! Reading takes that notation and looser spellings of the same play: single steps
//! (`24/18 18/13`), chains (`24/18/13`), any order, `b`/`o` or the numbers `P + 1` and 0
//! for the bar and off, with or without the `*`. A text names a play by where its
//! checkers leave from and land; it is matched against the legal plays of the roll.
//!
//! ```
//! use tabula::gammon::gnubg::notation::{format, parse_play};
//! use tabula::gammon::{moves, notation::parse_position, Roll, Variant};
//!
//! let hyper2 = Variant::parse("hyper2").unwrap();
//! let p = parse_position(&hyper2, "24,23/24,23").unwrap();
//! let plays = moves::plays(&hyper2, &p, Roll::new(6, 5));
//! let run = parse_play(&hyper2, &p, &plays, "24/13").unwrap();
//! assert_eq!(format(24, run.steps()), "24/13");
//! // The same play, step by step.
//! assert_eq!(parse_play(&hyper2, &p, &plays, "24/18 18/13").unwrap(), run);
//! ```

use crate::gammon::moves::{Play, Step};
use crate::gammon::{Error, Position, Variant};

/// The steps of a play (see [`Play::steps`]) on a board of `points` points in gnubg's
/// notation; `(no move)` for none.
pub fn format(points: usize, steps: &[Step]) -> String {
    if steps.is_empty() {
        return "(no move)".to_string();
    }
    // A point where the mover hit a blot: the opponent had a checker there before.
    let hit_at = |point: u8| steps.iter().any(|s| s.hit && s.to == point);
    let mut moves: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
    moves.sort_by(|a, b| b.cmp(a));
    // One checker's moves joined: a move that starts where an earlier one ended continues
    // it; the point between is kept only where it hit.
    let mut paths: Vec<Vec<u8>> = Vec::new();
    let mut used = vec![false; moves.len()];
    for i in 0..moves.len() {
        if used[i] {
            continue;
        }
        let mut path = vec![moves[i].0, moves[i].1];
        for j in i + 1..moves.len() {
            let end = *path.last().expect("two points");
            if !used[j] && end != 0 && moves[j].0 == end {
                if !hit_at(end) {
                    path.pop();
                }
                path.push(moves[j].1);
                used[j] = true;
            }
        }
        used[i] = true;
        paths.push(path);
    }
    // The same path taken by several checkers, counted.
    let mut counted: Vec<(Vec<u8>, usize)> = Vec::new();
    for path in paths {
        match counted.iter_mut().find(|(p, _)| *p == path) {
            Some((_, n)) => *n += 1,
            None => counted.push((path, 1)),
        }
    }
    let name = |l: u8| match usize::from(l) {
        0 => "off".to_string(),
        l if l == points + 1 => "bar".to_string(),
        l => l.to_string(),
    };
    let mut starred = Vec::new();
    let mut out = Vec::new();
    for (path, n) in counted {
        let mut text = name(path[0]);
        let last = path.len() - 1;
        for (k, &l) in path.iter().enumerate().skip(1) {
            text.push('/');
            text.push_str(&name(l));
            if k < last || (l != 0 && hit_at(l) && !starred.contains(&l)) {
                text.push('*');
                starred.push(l);
            }
        }
        if n > 1 {
            text.push_str(&format!("({n})"));
        }
        out.push(text);
    }
    out.join(" ")
}

fn bad(text: &str, reason: String) -> Error {
    Error::Input {
        what: "play",
        input: crate::fault::excerpt(text),
        reason,
    }
}

/// One checker's move as written: the points it touches and how many checkers make it.
struct Written {
    path: Vec<usize>,
    stars: Vec<usize>,
    count: usize,
}

/// Reads one move, `13/7*/1`, `8/4(2)`, `bar/22`, `b/22`, `6/off`.
fn written(variant: &Variant, token: &str, text: &str) -> Result<Written, Error> {
    let p = variant.points;
    let (body, count) = match token.strip_suffix(')').and_then(|t| t.split_once('(')) {
        Some((body, n)) => match n.parse::<usize>() {
            Ok(n @ 1..=4) => (body, n),
            _ => return Err(bad(text, format!("`({n})`: a move is made 1 to 4 times"))),
        },
        None => (token, 1),
    };
    let mut path = Vec::new();
    let mut stars = Vec::new();
    for part in body.split('/') {
        let (name, star) = match part.strip_suffix('*') {
            Some(name) => (name, true),
            None => (part, false),
        };
        let l = match name.to_ascii_lowercase().as_str() {
            "bar" | "b" => p + 1,
            "off" | "o" => 0,
            n => match n.parse::<usize>() {
                Ok(l) if l <= p + 1 => l,
                _ => {
                    return Err(bad(
                        text,
                        format!(
                            "`{}` is not a point (1 to {p}, `bar` or `off`)",
                            crate::fault::excerpt(name)
                        ),
                    ))
                }
            },
        };
        if star {
            stars.push(l);
        }
        path.push(l);
    }
    if path.len() < 2 {
        return Err(bad(
            text,
            format!(
                "`{}` is not a move (from/to, like `13/7`)",
                crate::fault::excerpt(token)
            ),
        ));
    }
    if path.windows(2).any(|w| w[1] >= w[0]) {
        return Err(bad(
            text,
            format!(
                "`{}` does not move forward (from a higher point to a lower one)",
                crate::fault::excerpt(token)
            ),
        ));
    }
    Ok(Written { path, stars, count })
}

/// The play among `plays` (the legal plays of one roll from `p`) that `text` names, in
/// gnubg's notation or a looser spelling of it (see the module's notes). Refuses a text
/// that names no legal play, saying why.
pub fn parse_play(
    variant: &Variant,
    p: &Position,
    plays: &[Play],
    text: &str,
) -> Result<Play, Error> {
    let t = text.trim();
    if plays.len() == 1 && plays[0].is_pass() {
        return match t {
            "" | "(no move)" => Ok(plays[0]),
            _ => Err(bad(text, "there is no legal move: the turn passes".into())),
        };
    }
    if t.is_empty() {
        return Err(bad(text, "no move given".into()));
    }
    let bar = variant.points + 1;
    let blot_before = |l: usize| (1..=variant.points).contains(&l) && p.them()[bar - l - 1] == 1;
    let mut us: Vec<i32> = p.us().iter().map(|&c| i32::from(c)).collect();
    let mut hits: Vec<usize> = Vec::new();
    for token in t.split_whitespace() {
        let w = written(variant, token, text)?;
        let (from, to) = (w.path[0], *w.path.last().expect("two points"));
        for _ in 0..w.count {
            us[from - 1] -= 1;
            if to > 0 {
                us[to - 1] += 1;
            }
        }
        for &l in w.path[1..].iter().chain(&w.stars) {
            if blot_before(l) && !hits.contains(&l) {
                hits.push(l);
            }
        }
    }
    if let Some(slot) = us.iter().position(|&c| c < 0) {
        let where_ = if slot + 1 == bar {
            "the bar".to_string()
        } else {
            format!("point {}", slot + 1)
        };
        return Err(bad(
            text,
            format!("it moves more checkers from {where_} than stand there"),
        ));
    }
    let same_side = |play: &Play| {
        play.after
            .us()
            .iter()
            .zip(&us)
            .all(|(&a, &b)| i32::from(a) == b)
    };
    let hit_set = |play: &Play| {
        let mut h: Vec<usize> = play
            .steps()
            .iter()
            .filter(|s| s.hit)
            .map(|s| usize::from(s.to))
            .collect();
        h.sort_unstable();
        h
    };
    hits.sort_unstable();
    let candidates: Vec<&Play> = plays.iter().filter(|play| same_side(play)).collect();
    if let Some(exact) = candidates.iter().find(|play| hit_set(play) == hits) {
        return Ok(**exact);
    }
    match candidates.as_slice() {
        [only] => Ok(**only),
        [] => Err(bad(text, "not a legal play of this roll".into())),
        _ => Err(bad(
            text,
            "more than one legal play fits: mark the points it hits on with `*`".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gammon::notation::parse_position;
    use crate::gammon::{moves, Roll};

    /// Backgammon itself: the rules of hyper3 with fifteen checkers at the usual start
    /// (too large for an index, so never numbered here).
    fn standard() -> Variant {
        let mut v = Variant::parse("hyper3").unwrap();
        v.checkers = 15;
        v.start = vec![24, 24, 13, 13, 13, 13, 13, 8, 8, 8, 6, 6, 6, 6, 6];
        v
    }

    #[test]
    fn the_opening_six_four_is_written_as_gnubg_writes_it() {
        // gnubg 1.07's `hint` for 64 at the opening lists these ten plays, among others.
        let v = standard();
        let plays = moves::plays(&v, &v.opening(), Roll::new(6, 4));
        let texts: Vec<String> = plays.iter().map(|p| format(24, p.steps())).collect();
        for gnubg in [
            "8/2 6/2",
            "24/14",
            "24/18 13/9",
            "24/20 24/18",
            "24/20 13/7",
            "13/3",
            "13/9 13/7",
            "24/18 6/2",
            "24/20 8/2",
            "13/9 8/2",
        ] {
            assert!(texts.iter().any(|t| t == gnubg), "{gnubg} not in {texts:?}");
        }
    }

    #[test]
    fn doubles_hits_and_bearing_off_are_counted_starred_and_joined() {
        let v = standard();
        let sixes = moves::plays(&v, &v.opening(), Roll::new(6, 6));
        let texts: Vec<String> = sixes.iter().map(|p| format(24, p.steps())).collect();
        assert!(texts.contains(&"24/18(2) 13/7(2)".to_string()), "{texts:?}");
        let h = Variant::parse("hyper1").unwrap();
        // Ours on 13, theirs on their 18 (our 7): 6-6 hits on the way off.
        let p = parse_position(&h, "13/18").unwrap();
        let plays = moves::plays(&h, &p, Roll::new(6, 6));
        assert_eq!(plays.len(), 1);
        // The point between, 1, is left out: nothing was hit there.
        assert_eq!(format(24, plays[0].steps()), "13/7*/off");
        // Ours on 3 and the opponent's blot on our 1: hit, then bear off.
        let h2 = Variant::parse("hyper2").unwrap();
        let p = parse_position(&h2, "3/24,20").unwrap();
        let plays = moves::plays(&h2, &p, Roll::new(2, 1));
        let texts: Vec<String> = plays.iter().map(|p| format(24, p.steps())).collect();
        assert!(texts.contains(&"3/1*/off".to_string()), "{texts:?}");
        let p = parse_position(&h2, "bar,6/24,3").unwrap();
        let plays = moves::plays(&h2, &p, Roll::new(3, 1));
        let texts: Vec<String> = plays.iter().map(|p| format(24, p.steps())).collect();
        assert!(texts.contains(&"bar/22*/21".to_string()), "{texts:?}");
        assert!(texts.contains(&"bar/22* 6/5".to_string()), "{texts:?}");
    }

    #[test]
    fn loose_spellings_name_the_same_play_and_wrong_ones_say_why() {
        let v = standard();
        let o = v.opening();
        let plays = moves::plays(&v, &o, Roll::new(6, 4));
        let run = parse_play(&v, &o, &plays, "24/14").unwrap();
        for same in ["24/18 18/14", "24/20/14", "24/18/14", " 24/20 20/14 "] {
            assert_eq!(parse_play(&v, &o, &plays, same).unwrap(), run, "{same}");
        }
        let fault = |t: &str| parse_play(&v, &o, &plays, t).unwrap_err().to_string();
        assert!(fault("24/15").contains("not a legal play"));
        assert!(fault("5/1").contains("more checkers from point 5"));
        assert!(fault("13/x").contains("`x` is not a point"));
        assert!(fault("13/17").contains("does not move forward"));
        assert!(fault("13").contains("is not a move"));
        assert!(fault("13/9(7)").contains("1 to 4 times"));
        assert!(fault("").contains("no move given"));
        let sixes = moves::plays(&v, &o, Roll::new(6, 6));
        let four = parse_play(&v, &o, &sixes, "24/18(2) 13/7(2)").unwrap();
        assert_eq!(
            parse_play(&v, &o, &sixes, "13/7 24/18 13/7 24/18").unwrap(),
            four
        );
    }

    #[test]
    fn a_route_that_hits_is_told_from_one_that_does_not_by_its_star() {
        // hyper2: ours on 13 and 24, theirs a blot on our 7 (their 18) and one on 22: 6-4
        // takes 13 to 3 by 7 (hitting) or by 9 (not).
        let v = Variant::parse("hyper2").unwrap();
        let p = parse_position(&v, "24,13/18,3").unwrap();
        let plays = moves::plays(&v, &p, Roll::new(6, 4));
        let hit = parse_play(&v, &p, &plays, "13/7*/3").unwrap();
        let quiet = parse_play(&v, &p, &plays, "13/3").unwrap();
        assert_ne!(hit, quiet);
        assert_eq!(format(24, hit.steps()), "13/7*/3");
        assert_eq!(format(24, quiet.steps()), "13/3");
        assert_eq!(parse_play(&v, &p, &plays, "13/7/3").unwrap(), hit);
        assert_eq!(parse_play(&v, &p, &plays, "13/9/3").unwrap(), quiet);
    }

    #[test]
    fn every_legal_play_of_random_hypergammon_positions_reads_back_from_both_notations() {
        // A seeded loop over 300 random legal positions of hyper2 and hyper3 and every roll:
        // each play's gnubg text and its step-by-step text (tabula's before gnubg's) both
        // name that play and no other.
        let mut rng = crate::random::stream(27, 0);
        let mut checked = 0;
        for c in [2, 3] {
            let v = Variant::parse(&format!("hyper{c}")).unwrap();
            let numbers = crate::gammon::Numbers::new(&v).unwrap();
            let mut found = 0;
            while found < 150 {
                let record = crate::random::below(&mut rng, numbers.records());
                let p = numbers.position(record).unwrap();
                if crate::gammon::notation::check(&v, &p).is_err() {
                    continue;
                }
                found += 1;
                for roll in v.rolls().moving {
                    let plays = moves::plays(&v, &p, roll);
                    for play in &plays {
                        let gnubg = format(24, play.steps());
                        let steps: Vec<String> = play
                            .steps()
                            .iter()
                            .map(|s| format(24, std::slice::from_ref(s)))
                            .collect();
                        let steps = steps.join(" ");
                        for text in [&gnubg, &steps] {
                            let back = parse_play(&v, &p, &plays, text)
                                .unwrap_or_else(|e| panic!("{p:?} {roll} {text}: {e}"));
                            assert_eq!(back.after, play.after, "{p:?} {roll} {text}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
