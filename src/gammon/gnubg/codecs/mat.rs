//! The Jellyfish match text, `.mat` (`docs/gammon.md`, "Match files"), as gnubg exports
//! it and most programs read and write it: comment lines `; [Variation "HyperGammon
//! (2)"]`, ` 3 point match` (0 for money play), then per game ` Game 1`, the names and
//! scores (`gnubg : 0     root : 0`) and numbered lines of two columns, the first
//! player's entry then the second's: `52: 13/8 8/6*` (the dice, then the checkers in the
//! mover's numbering, 25 or `bar` the bar, 0 or `off` off), ` Doubles => 2`, ` Takes`,
//! ` Drops`, and `Wins 2 points` under the winner's column. An entry's column is where it
//! starts on its line: the second column starts 28 characters or more in.

use super::record::{self, Act, Action, Fault, GameRecord, MatchRecord, Played};

/// Where the second column starts at the earliest, counted from the line's start.
const SECOND_COLUMN: usize = 28;

/// Reads a `.mat` file's text: what could be read, and a fault for each line that could
/// not be.
pub fn read(text: &str) -> MatchRecord {
    let mut r = MatchRecord::unread();
    let mut length_seen = false;
    // The game being read, and whether a fault ended it.
    let mut game: Option<(GameRecord, bool)> = None;
    let mut names_next = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(comment) = t.strip_prefix(';') {
            if let Some(v) = comment.trim().strip_prefix("[Variation \"") {
                r.played = variation(v.trim_end_matches("\"]"));
            }
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        if let [n, "point", "match" | "points"] | [n, "point", "match", ..] = words[..] {
            match n.parse() {
                Ok(n) if !length_seen && game.is_none() => {
                    r.length = n;
                    length_seen = true;
                }
                _ => fault(
                    &mut r,
                    line,
                    None,
                    format!("`{t}`: a second or bad match length"),
                ),
            }
            continue;
        }
        if let ["Game", n] = words[..] {
            finish(&mut r, game.take());
            let number = n.parse().unwrap_or(r.games.len() + 1);
            game = Some((
                GameRecord {
                    number,
                    line,
                    score: [0, 0],
                    crawford: None,
                    actions: Vec::new(),
                    start: None,
                    result: None,
                },
                false,
            ));
            names_next = true;
            continue;
        }
        let Some((g, broken)) = game.as_mut() else {
            fault(
                &mut r,
                line,
                None,
                format!("`{}` before the first `Game`", crate::fault::excerpt(t)),
            );
            continue;
        };
        if names_next {
            names_next = false;
            match names(t) {
                Some((players, score)) => {
                    r.players = players;
                    g.score = score;
                    continue;
                }
                None if t.contains(')') => {}
                None => {
                    let reason = format!(
                        "`{}` is not `NAME : SCORE  NAME : SCORE`",
                        crate::fault::excerpt(t)
                    );
                    fault(&mut r, line, Some(g.number), reason);
                    continue;
                }
            }
        }
        if *broken {
            continue;
        }
        if let Err(reason) = entries(raw, line, g) {
            let number = g.number;
            *broken = true;
            fault(&mut r, line, Some(number), reason);
        }
    }
    finish(&mut r, game.take());
    if r.games.is_empty() {
        fault(
            &mut r,
            0,
            None,
            "no game in the file (a game starts with ` Game 1`)".into(),
        );
    }
    r
}

fn fault(r: &mut MatchRecord, line: usize, game: Option<usize>, reason: String) {
    r.faults.push(Fault { line, game, reason });
}

fn finish(r: &mut MatchRecord, game: Option<(GameRecord, bool)>) {
    if let Some((mut g, broken)) = game {
        if broken {
            g.result = None;
        }
        r.games.push(g);
    }
}

fn variation(name: &str) -> Played {
    match name {
        "HyperGammon (1)" => Played::Hypergammon(1),
        "HyperGammon (2)" => Played::Hypergammon(2),
        "HyperGammon (3)" => Played::Hypergammon(3),
        "Backgammon" | "Standard" => Played::Backgammon,
        other => Played::Other(other.to_string()),
    }
}

/// `gnubg : 0      root : 0`: the names and the scores.
fn names(t: &str) -> Option<([String; 2], [u32; 2])> {
    let (first, rest) = t.split_once(" : ")?;
    let rest = rest.trim_start();
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let a: u32 = rest[..digits].parse().ok()?;
    let (second, b) = rest[digits..].trim().rsplit_once(" : ")?;
    let b: u32 = b.trim().parse().ok()?;
    Some(([first.trim().into(), second.trim().into()], [a, b]))
}

/// The entries of one line (`  6) 55: 13/8 8/3        Doubles => 2`) added to the game.
fn entries(raw: &str, line: usize, g: &mut GameRecord) -> Result<(), String> {
    let body_start = match raw.trim_start().split_once(')') {
        Some((n, _)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            raw.find(')').expect("found") + 1
        }
        // A `Wins` line carries no number.
        _ => 0,
    };
    if g.result.is_some() {
        return Err("an entry after the game's end (`Wins`)".into());
    }
    // Each entry starts at a keyword: the dice `52:`, Doubles, Beavers, Takes, Drops,
    // Wins; it runs to the next one.
    let mut starts = Vec::new();
    let bytes = raw.as_bytes();
    let mut at = body_start;
    while at < raw.len() {
        if bytes[at].is_ascii_whitespace() {
            at += 1;
            continue;
        }
        let end = raw[at..]
            .find(char::is_whitespace)
            .map_or(raw.len(), |e| at + e);
        let word = &raw[at..end];
        let dice = word.len() == 3
            && word.ends_with(':')
            && word.as_bytes()[..2].iter().all(u8::is_ascii_digit);
        if dice || ["Doubles", "Beavers", "Takes", "Drops", "Wins"].contains(&word) {
            starts.push(at);
        } else if starts.is_empty() {
            return Err(format!(
                "`{}` where an entry (the dice `52:`, Doubles, Takes, Drops, Wins) was expected",
                crate::fault::excerpt(word)
            ));
        }
        at = end;
    }
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(raw.len());
        let entry = raw[start..end].trim();
        let player = usize::from(start >= SECOND_COLUMN);
        let act = if let Some(rest) = entry.strip_prefix("Wins") {
            let points = rest
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| format!("`{entry}`: Wins N points"))?;
            g.result = Some((player, points));
            continue;
        } else if entry.starts_with("Doubles") {
            Act::Double
        } else if entry.starts_with("Beavers") {
            return Err("a beaver: tabula replays no beavers".into());
        } else if entry == "Takes" {
            Act::Take
        } else if entry == "Drops" {
            Act::Drop
        } else {
            let (dice, moves) = entry.split_at(3);
            let d = dice.as_bytes();
            let die = |c: u8| (b'1'..=b'6').contains(&c).then(|| c - b'0');
            let (Some(a), Some(b)) = (die(d[0]), die(d[1])) else {
                return Err(format!("`{dice}`: the dice are two digits 1-6"));
            };
            let steps = record::steps(moves)?;
            Act::Move {
                dice: (a, b),
                steps,
            }
        };
        g.actions.push(Action { line, player, act });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MATCH: &str = "; [EventDate \"2026.11.29\"]
; [Variation \"HyperGammon (2)\"]

 3 point match

 Game 1
 gnubg : 0                      root : 0
  1) 21: 13/11 24/23             41: 6/2* 2/1* 
  2) 32: 25/22 25/23              Doubles => 2
  3)  Takes                      53: 
  4)  Doubles => 4                Drops
      Wins 2 points

 Game 2
 gnubg : 2                      root : 0
  1)                             31: 8/5 6/5 
  2) 66: bar/19 19/13(2) 6/off     
";

    #[test]
    fn a_gnubg_export_reads_as_games_of_actions() {
        let r = read(MATCH);
        assert_eq!(r.faults, vec![]);
        assert_eq!((r.played.clone(), r.length), (Played::Hypergammon(2), 3));
        assert_eq!(r.players, ["gnubg".to_string(), "root".to_string()]);
        let g = &r.games[0];
        let acts: Vec<(usize, Act)> = g
            .actions
            .iter()
            .map(|a| (a.player, a.act.clone()))
            .collect();
        assert_eq!(
            acts,
            vec![
                (
                    0,
                    Act::Move {
                        dice: (2, 1),
                        steps: vec![(13, 11), (24, 23)]
                    }
                ),
                (
                    1,
                    Act::Move {
                        dice: (4, 1),
                        steps: vec![(6, 2), (2, 1)]
                    }
                ),
                (
                    0,
                    Act::Move {
                        dice: (3, 2),
                        steps: vec![(25, 22), (25, 23)]
                    }
                ),
                (1, Act::Double),
                (0, Act::Take),
                (
                    1,
                    Act::Move {
                        dice: (5, 3),
                        steps: vec![]
                    }
                ),
                (0, Act::Double),
                (1, Act::Drop),
            ]
        );
        assert_eq!(g.result, Some((0, 2)));
        let g = &r.games[1];
        assert_eq!(g.score, [2, 0]);
        assert_eq!(g.actions[0].player, 1);
        assert_eq!(
            g.actions[1].act,
            Act::Move {
                dice: (6, 6),
                steps: vec![(25, 19), (19, 13), (19, 13), (6, 0)]
            }
        );
        assert_eq!(g.actions[1].line, 17);
    }

    #[test]
    fn a_damaged_line_ends_its_game_not_the_file() {
        let bad = MATCH.replace("41: 6/2* 2/1*", "41: 6/x* 2/1*");
        let r = read(&bad);
        assert_eq!(r.faults.len(), 1, "{:?}", r.faults);
        assert_eq!((r.faults[0].line, r.faults[0].game), (8, Some(1)));
        assert_eq!(r.games.len(), 2);
        assert_eq!(r.games[0].actions.len(), 1);
        assert_eq!(r.games[1].actions.len(), 2);
        assert_eq!(read("").faults.len(), 1);
        assert_eq!(read("hello\n").faults.len(), 2);
    }
}
