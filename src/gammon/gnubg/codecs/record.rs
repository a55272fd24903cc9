//! A match as a file records it (`docs/gammon.md`, "Match files"): the players, the
//! variant, the length, and each game's score and actions in order, read from gnubg's
//! `.sgf` ([`super::sgf`]) or the Jellyfish `.mat` text every program exports
//! ([`super::mat`]). A line that cannot be read is a [`Fault`] naming the line; the
//! reader keeps what it could read, so the rest of the file is still analysed.

use serde::Serialize;

/// The family member a file says it was played in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Played {
    /// Backgammon itself (15 checkers a side).
    Backgammon,
    /// Hypergammon with 1, 2 or 3 checkers a side.
    Hypergammon(usize),
    /// Another variant, by the file's name for it (Nackgammon, say).
    Other(String),
}

impl Played {
    /// The name of the matching built-in variant (`hyper2`), for Hypergammon.
    pub fn variant_name(&self) -> Option<String> {
        match self {
            Played::Hypergammon(n) => Some(format!("hyper{n}")),
            _ => None,
        }
    }

    /// How people name it.
    pub fn title(&self) -> String {
        match self {
            Played::Backgammon => "backgammon".into(),
            Played::Hypergammon(n) => format!("Hypergammon-{n}"),
            Played::Other(name) => name.clone(),
        }
    }
}

/// What a player did, in the order of the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// Rolled `dice` and moved each checker `from` → `to` in the mover's own numbering
    /// (25 the bar, 0 borne off); no steps when it could not move.
    Move {
        /// The dice as written.
        dice: (u8, u8),
        /// The checkers moved, one step a die (or several dice when the file joins them).
        steps: Vec<(u8, u8)>,
    },
    /// Doubled (or redoubled).
    Double,
    /// Took the double.
    Take,
    /// Passed (dropped) the double.
    Drop,
}

/// One action of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Action {
    /// The file's line it was read from (1-based).
    pub line: usize,
    /// Who acted: 0 the file's first player, 1 its second.
    pub player: usize,
    /// What was done.
    pub act: Act,
}

/// One game of the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// The game's number in the file (1-based).
    pub number: usize,
    /// The line it starts on.
    pub line: usize,
    /// Each player's points before it.
    pub score: [u32; 2],
    /// Whether the file marks it the Crawford game (None: the file does not say; the
    /// analysis applies the rule from the scores).
    pub crawford: Option<bool>,
    /// The cube the game starts from, when not 1 and centred: gnubg's automatic doubles
    /// (`CV` in the game's root) or the cube set before the first action (`CV`, `CP`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<StartCube>,
    /// Its actions in order.
    pub actions: Vec<Action>,
    /// The winner and the points it won, as the file says.
    pub result: Option<(usize, u32)>,
}

/// A cube turned before a game's first action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StartCube {
    /// 1, 2, 4, …
    pub value: u32,
    /// The player who owns it (0 the file's first, 1 its second); None: centred.
    pub owner: Option<usize>,
}

/// A line of a file that could not be read or judged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fault {
    /// The line (1-based; 0 for the file as a whole).
    pub line: usize,
    /// The game it belongs to (1-based), when one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

/// A whole file, as read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchRecord {
    /// The two players' names, the file's first player first.
    pub players: [String; 2],
    /// The member of the family played.
    pub played: Played,
    /// The match's length in points; 0 for money play.
    pub length: u32,
    /// Whether the Jacoby rule was in force (money play).
    pub jacoby: bool,
    /// Whether the cube was in use.
    pub cube: bool,
    /// The games.
    pub games: Vec<GameRecord>,
    /// What could not be read.
    pub faults: Vec<Fault>,
}

impl MatchRecord {
    /// What a reader starts from before it has read the file's header: unnamed players,
    /// backgammon, money play, no Jacoby rule, the cube in use, no game, no fault.
    pub fn unread() -> MatchRecord {
        MatchRecord {
            players: ["player 0".into(), "player 1".into()],
            played: Played::Backgammon,
            length: 0,
            jacoby: false,
            cube: true,
            games: Vec::new(),
            faults: Vec::new(),
        }
    }
}

/// Reads a move written as `from/to` steps (`13/7 24/18*`, `bar/22`, `6/off`, `13/7(2)`,
/// `8/5/2`), in the mover's numbering: the steps, 25 for the bar and 0 for off.
pub fn steps(text: &str) -> Result<Vec<(u8, u8)>, String> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        let (word, times) = match word.split_once('(') {
            Some((w, rest)) => {
                let n = rest
                    .trim_end_matches(')')
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| format!("`{word}`: a repeat (n) is 1 to 4"))?;
                (w, n)
            }
            None => (word, 1),
        };
        let points: Vec<u8> = word
            .split('/')
            .map(|p| point(p.trim_end_matches('*')))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("`{word}`: {e}"))?;
        if points.len() < 2 {
            return Err(format!("`{word}` is not a step from/to"));
        }
        for _ in 0..times {
            for pair in points.windows(2) {
                out.push((pair[0], pair[1]));
            }
        }
    }
    Ok(out)
}

fn point(text: &str) -> Result<u8, String> {
    match text.to_ascii_lowercase().as_str() {
        "bar" | "b" => Ok(25),
        "off" | "o" => Ok(0),
        t => t
            .parse::<u8>()
            .ok()
            .filter(|&p| p <= 25)
            .ok_or_else(|| format!("`{t}` is not a point 0 to 25, bar or off")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_in_every_way_programs_write_them() {
        assert_eq!(steps("13/7 24/18*").unwrap(), vec![(13, 7), (24, 18)]);
        assert_eq!(steps("bar/22 6/off").unwrap(), vec![(25, 22), (6, 0)]);
        assert_eq!(steps("13/7(2)").unwrap(), vec![(13, 7), (13, 7)]);
        assert_eq!(steps("8/5*/2").unwrap(), vec![(8, 5), (5, 2)]);
        assert_eq!(steps("").unwrap(), vec![]);
        for bad in ["13", "13/x", "13/7(9)", "26/20"] {
            assert!(steps(bad).is_err(), "{bad}");
        }
    }
}
