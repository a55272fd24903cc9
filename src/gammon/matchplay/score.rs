//! Scores, the cube at a score, and the units of work a match is solved in
//! (`docs/gammon.md`, "Match play").
//!
//! A score is written from the side on roll: `A-B`, the points it still needs, then the
//! points its opponent needs. A *unit* is what one solve covers: the games at a score and
//! at its mirror (the same score with the other side on roll), which lead into each other
//! move by move; it is named by the smaller number first (`3-5`, `1-4-crawford`,
//! `1-4-post-crawford`, `1-1`). A unit reads only the values at the start of a game of
//! the units below it (and, where the cube can go dead, the double-match-point unit's
//! values), so units of the same total can be solved apart.

use crate::gammon::cube::{Cube, Owner};
use crate::gammon::gnubg::xgid::XgOwner;
use crate::gammon::Error;
use serde::Serialize;
use std::fmt;

/// The longest match tabula solves (gnubg's match-equity tables go to 64 points too).
pub const MAX_LENGTH: u32 = 64;

/// The largest cube value a query may name (beyond the longest match's last live level).
pub const MAX_CUBE: u32 = 1 << 12;

/// Which game of a match is played at a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Game {
    /// Both sides need two points or more: the cube is in play.
    Normal,
    /// The first game after a side first needs exactly one point: no doubling.
    Crawford,
    /// A later game with a side one point away: the cube is in play again (and at
    /// double match point, 1-1, where the cube is dead).
    PostCrawford,
}

/// A score: the points the side on roll still needs, the points the opponent needs, and
/// which game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Score {
    /// Points the side on roll still needs.
    pub on_roll: u32,
    /// Points the opponent still needs.
    pub opponent: u32,
    /// Which game: the Crawford game, a post-Crawford game, or neither.
    pub game: Game,
}

fn score_error(input: &str, reason: impl Into<String>) -> Error {
    Error::Input {
        what: "score",
        input: crate::fault::excerpt(input),
        reason: reason.into(),
    }
}

impl Score {
    /// The score `on_roll`-`opponent`; `crawford` says that this is the Crawford game
    /// (which needs one side, and only one, exactly one point away). A side one point away
    /// otherwise plays a post-Crawford game.
    pub fn new(on_roll: u32, opponent: u32, crawford: bool) -> Result<Score, Error> {
        let text = format!("{on_roll}-{opponent}");
        for need in [on_roll, opponent] {
            if need == 0 {
                return Err(score_error(
                    &text,
                    "a side that needs no point has won the match",
                ));
            }
            if need > MAX_LENGTH {
                return Err(score_error(
                    &text,
                    format!("a side needs at most {MAX_LENGTH} points (the longest match solved)"),
                ));
            }
        }
        let one_away = on_roll == 1 || opponent == 1;
        let game = match (one_away, crawford) {
            (false, false) => Game::Normal,
            (false, true) => {
                return Err(score_error(
                    &text,
                    "the Crawford game needs one side one point away",
                ))
            }
            (true, true) if on_roll == opponent => {
                return Err(score_error(
                    &text,
                    "at 1-1 there is no Crawford game: the game decides the match",
                ))
            }
            (true, true) => Game::Crawford,
            (true, false) => Game::PostCrawford,
        };
        Ok(Score {
            on_roll,
            opponent,
            game,
        })
    }

    /// Reads `A-B` (the side on roll needs `A`).
    pub fn parse(text: &str, crawford: bool) -> Result<Score, Error> {
        let t = text.trim();
        let (a, b) = t.split_once('-').ok_or_else(|| {
            score_error(
                t,
                "write it A-B: the points the side on roll needs, then the opponent's",
            )
        })?;
        let number = |s: &str| {
            let s = s.trim();
            // Digits alone: `+3` is not how a score is written.
            let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            digits
                .then(|| s.parse::<u32>().ok())
                .flatten()
                .ok_or_else(|| {
                    score_error(
                        t,
                        format!("`{}` is not a number of points", crate::fault::excerpt(s)),
                    )
                })
        };
        Score::new(number(a)?, number(b)?, crawford)
    }

    /// The same score with the other side on roll.
    pub fn mirrored(self) -> Score {
        Score {
            on_roll: self.opponent,
            opponent: self.on_roll,
            game: self.game,
        }
    }

    /// The unit that solves this score, and whether the side on roll is its second
    /// perspective (the one that needs the unit's larger number).
    pub fn unit(self) -> (Unit, bool) {
        let (a, b) = (
            self.on_roll.min(self.opponent),
            self.on_roll.max(self.opponent),
        );
        let unit = Unit {
            a,
            b,
            game: self.game,
        };
        (unit, self.on_roll > self.opponent)
    }

    /// Whether the cube may be turned in this game.
    pub fn cube_in_play(self) -> bool {
        self.game != Game::Crawford
    }

    /// The score after the side on roll wins `points`: `None` when it has won the match.
    pub fn after_win(self, points: u32) -> Option<Score> {
        let left = self.on_roll.checked_sub(points).filter(|&l| l > 0)?;
        let game = match self.game {
            Game::Normal if left == 1 => Game::Crawford,
            Game::Normal => Game::Normal,
            Game::Crawford | Game::PostCrawford => Game::PostCrawford,
        };
        Some(Score {
            on_roll: left,
            opponent: self.opponent,
            game,
        })
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.on_roll, self.opponent)?;
        match self.game {
            Game::Crawford => f.write_str(" (Crawford)"),
            Game::PostCrawford if self.on_roll.max(self.opponent) > 1 => {
                f.write_str(" (post-Crawford)")
            }
            _ => Ok(()),
        }
    }
}

/// The cube at a score, seen from the side on roll: its value and who owns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct MatchCube {
    /// 1, 2, 4, …
    pub value: u32,
    /// Who owns it: nobody (centred, at 1), the side on roll, or the opponent.
    pub owner: CubeOwner,
}

/// Who owns the cube, seen from the side on roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeOwner {
    /// Nobody: the cube is centred at 1.
    Centred,
    /// The side on roll.
    OnRoll,
    /// The opponent.
    Opponent,
}

/// An XGID's owner is the same three places, seen from the side on roll.
impl From<CubeOwner> for XgOwner {
    fn from(o: CubeOwner) -> XgOwner {
        match o {
            CubeOwner::Centred => XgOwner::Centred,
            CubeOwner::OnRoll => XgOwner::OnRoll,
            CubeOwner::Opponent => XgOwner::Opponent,
        }
    }
}

impl From<XgOwner> for CubeOwner {
    fn from(o: XgOwner) -> CubeOwner {
        match o {
            XgOwner::Centred => CubeOwner::Centred,
            XgOwner::OnRoll => CubeOwner::OnRoll,
            XgOwner::Opponent => CubeOwner::Opponent,
        }
    }
}

impl MatchCube {
    /// The cube at the start of a game.
    pub const START: MatchCube = MatchCube {
        value: 1,
        owner: CubeOwner::Centred,
    };

    /// The cube of `value` owned by `owner`; a cube at 1 is centred and a centred cube
    /// is at 1; the value is a power of two up to [`MAX_CUBE`].
    pub fn new(value: u32, owner: CubeOwner) -> Result<MatchCube, Error> {
        let bad = |reason: &str| Error::Input {
            what: "cube",
            input: value.to_string(),
            reason: reason.to_string(),
        };
        if value == 0 || !value.is_power_of_two() {
            return Err(bad("the cube's value is a power of two: 1, 2, 4, …"));
        }
        if value > MAX_CUBE {
            return Err(bad(&format!("the cube goes no higher than {MAX_CUBE}")));
        }
        match (value, owner) {
            (1, CubeOwner::Centred) => Ok(MatchCube::START),
            (1, _) => Err(bad(
                "the cube at 1 is centred: nobody owns it before a double",
            )),
            (_, CubeOwner::Centred) => Err(bad("a cube turned to 2 or more is owned by a side")),
            _ => Ok(MatchCube { value, owner }),
        }
    }

    /// A game's cube (none: a game without it, taken as the cube at 1, centred) as
    /// `side` sees it on its turn.
    pub fn seen(cube: Option<Cube>, side: Owner) -> MatchCube {
        let c = cube.unwrap_or(Cube::START);
        let owner = match c.owner {
            Owner::Centred => CubeOwner::Centred,
            o if o == side => CubeOwner::OnRoll,
            _ => CubeOwner::Opponent,
        };
        MatchCube {
            value: c.value,
            owner,
        }
    }

    /// Whether the side on roll may double.
    pub fn has_access(self) -> bool {
        self.owner != CubeOwner::Opponent
    }

    /// The same cube seen by the opponent.
    pub fn seen_by_opponent(self) -> MatchCube {
        let owner = match self.owner {
            CubeOwner::OnRoll => CubeOwner::Opponent,
            CubeOwner::Opponent => CubeOwner::OnRoll,
            CubeOwner::Centred => CubeOwner::Centred,
        };
        MatchCube { owner, ..self }
    }

    /// After the side on roll doubles and the opponent takes: twice the value, the
    /// opponent owning it (seen from the doubler).
    pub fn doubled(self) -> MatchCube {
        MatchCube {
            value: 2 * self.value,
            owner: CubeOwner::Opponent,
        }
    }
}

impl fmt::Display for MatchCube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.owner {
            CubeOwner::Centred => write!(f, "cube {}, centred", self.value),
            CubeOwner::OnRoll => write!(f, "cube {}, owned by the side on roll", self.value),
            CubeOwner::Opponent => write!(f, "cube {}, owned by the opponent", self.value),
        }
    }
}

/// A unit of work: the games at score `a-b` and `b-a` (`a ≤ b`) of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Unit {
    /// The smaller number of points needed.
    pub a: u32,
    /// The larger.
    pub b: u32,
    /// Which game is played.
    pub game: Game,
}

/// A unit's start value seen from one of its perspectives: what [`Unit::after_win`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// The winner has won the match.
    Won,
    /// A new game starts at a unit's score; `second` when the winner is the unit's second
    /// perspective (its start value is then the negation of the unit's).
    Game {
        /// The unit of the new game's score.
        unit: Unit,
        /// Whether the winner is that unit's second perspective.
        second: bool,
    },
}

impl Unit {
    /// Double match point, 1-1: every game decides the match and the cube is dead.
    pub const DMP: Unit = Unit {
        a: 1,
        b: 1,
        game: Game::PostCrawford,
    };

    /// Its name in file names and messages: `3-5`, `1-4-crawford`, `1-4-post-crawford`,
    /// `1-1`.
    pub fn name(&self) -> String {
        match self.game {
            Game::Normal => format!("{}-{}", self.a, self.b),
            Game::Crawford => format!("{}-{}-crawford", self.a, self.b),
            Game::PostCrawford if self.b == 1 => "1-1".to_string(),
            Game::PostCrawford => format!("{}-{}-post-crawford", self.a, self.b),
        }
    }

    /// The unit a name from [`Unit::name`] stands for.
    pub fn parse(name: &str) -> Option<Unit> {
        let (score, kind) = match name.split_once("-crawford") {
            Some((s, "")) => match s.strip_suffix("-post") {
                Some(s) => (s, true),
                None => (s, false),
            },
            Some(_) => return None,
            None => (name, false),
        };
        let crawford = name.ends_with("-crawford") && !kind;
        let s = Score::parse(score, crawford).ok()?;
        let (unit, _) = s.unit();
        (unit.name() == name).then_some(unit)
    }

    /// The score of its first perspective (the side on roll needs `a`); the second is the
    /// mirror.
    pub fn score(&self, second: bool) -> Score {
        let s = Score {
            on_roll: self.a,
            opponent: self.b,
            game: self.game,
        };
        if second {
            s.mirrored()
        } else {
            s
        }
    }

    /// Whether both perspectives are the same score (`a = b`).
    pub fn symmetric(&self) -> bool {
        self.a == self.b
    }

    /// Perspectives a record keeps: 1 when symmetric, else 2.
    pub fn perspectives(&self) -> usize {
        if self.symmetric() {
            1
        } else {
            2
        }
    }

    /// The cube levels above 1 at which the cube is still alive (2, 4, … below the larger
    /// score): the doubled cube is dead once it reaches what both sides need, since every
    /// game then decides the match.
    pub fn live_levels(&self) -> Vec<u32> {
        if self.game == Game::Crawford {
            return Vec::new();
        }
        (1..)
            .map(|k| 1u32 << k)
            .take_while(|&v| v < self.b)
            .collect()
    }

    /// The cube value from which the cube is dead at this score (every game decides the
    /// match): the first power of two at or above the larger score.
    pub fn dead_level(&self) -> u32 {
        self.b.next_power_of_two()
    }

    /// Values a record keeps for one perspective: the centred cube (or the Crawford game,
    /// or 1-1), then the side on roll owning and the opponent owning each live level.
    pub fn columns(&self) -> usize {
        1 + 2 * self.live_levels().len()
    }

    /// Values a record keeps: [`Unit::columns`] per perspective.
    pub fn width(&self) -> usize {
        if *self == Unit::DMP {
            // The double-match-point values, as the bits of an f64 each.
            return 2;
        }
        match self.game {
            Game::Crawford => 2,
            _ => self.perspectives() * self.columns(),
        }
    }

    /// What follows when the side of perspective `second` wins `points`.
    pub fn after_win(&self, second: bool, points: u32) -> Next {
        match self.score(second).after_win(points) {
            None => Next::Won,
            Some(s) => {
                let (unit, second) = s.unit();
                Next::Game { unit, second }
            }
        }
    }

    /// The units whose start values this unit reads, each once, in order.
    pub fn inputs(&self) -> Vec<Unit> {
        let mut out = Vec::new();
        for second in [false, true] {
            let need = self.score(second).on_roll;
            for points in 1..need {
                if let Next::Game { unit, .. } = self.after_win(second, points) {
                    if !out.contains(&unit) {
                        out.push(unit);
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Whether its solve reads the double-match-point unit's values (where a double
    /// kills the cube).
    pub fn reads_dmp(&self) -> bool {
        *self != Unit::DMP && self.game != Game::Crawford
    }

    /// Every unit of a match to `length` points, each after those it reads.
    pub fn all(length: u32) -> Vec<Unit> {
        let mut out = vec![Unit::DMP];
        for total in 3..=2 * length {
            for a in 1..=total / 2 {
                let b = total - a;
                if b > length {
                    continue;
                }
                if a == 1 {
                    out.push(Unit {
                        a,
                        b,
                        game: Game::PostCrawford,
                    });
                    out.push(Unit {
                        a,
                        b,
                        game: Game::Crawford,
                    });
                } else {
                    out.push(Unit {
                        a,
                        b,
                        game: Game::Normal,
                    });
                }
            }
        }
        out
    }
}

/// Checks a match length: 1 to [`MAX_LENGTH`] points.
pub fn check_length(length: u32) -> Result<(), Error> {
    if (1..=MAX_LENGTH).contains(&length) {
        Ok(())
    } else {
        Err(Error::Input {
            what: "match length",
            input: length.to_string(),
            reason: format!("a match is played to 1 to {MAX_LENGTH} points"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_is_read_from_the_side_on_roll_and_checked() {
        let s = Score::parse("3-5", false).unwrap();
        assert_eq!((s.on_roll, s.opponent, s.game), (3, 5, Game::Normal));
        assert_eq!(Score::parse("1-4", true).unwrap().game, Game::Crawford);
        assert_eq!(Score::parse("4-1", false).unwrap().game, Game::PostCrawford);
        for bad in ["3", "0-2", "3-x", "65-2", "-2"] {
            assert!(Score::parse(bad, false).is_err(), "{bad}");
        }
        // The Crawford game needs exactly one side one point away.
        assert!(Score::parse("3-5", true).is_err());
        assert!(Score::parse("1-1", true).is_err());
    }

    #[test]
    fn a_cube_is_a_power_of_two_and_centred_only_at_one() {
        assert!(MatchCube::new(3, CubeOwner::OnRoll).is_err());
        assert!(MatchCube::new(0, CubeOwner::Centred).is_err());
        assert!(MatchCube::new(1, CubeOwner::Opponent).is_err());
        assert!(MatchCube::new(2, CubeOwner::Centred).is_err());
        assert!(MatchCube::new(2 * MAX_CUBE, CubeOwner::OnRoll).is_err());
        let c = MatchCube::new(4, CubeOwner::OnRoll).unwrap();
        assert_eq!(c.seen_by_opponent().owner, CubeOwner::Opponent);
        assert_eq!(c.doubled(), MatchCube::new(8, CubeOwner::Opponent).unwrap());
    }

    #[test]
    fn winning_leads_to_the_crawford_game_then_to_post_crawford_games() {
        let s = Score::parse("3-5", false).unwrap();
        assert_eq!(s.after_win(2).unwrap(), Score::parse("1-5", true).unwrap());
        assert_eq!(s.after_win(3), None);
        let crawford = Score::parse("5-1", true).unwrap();
        assert_eq!(
            crawford.after_win(2).unwrap(),
            Score::parse("3-1", false).unwrap()
        );
        assert_eq!(crawford.after_win(6), None);
    }

    #[test]
    fn units_are_named_and_read_back_and_come_after_their_inputs() {
        let all = Unit::all(5);
        // 1-1, then 1-b post-Crawford and Crawford for b = 2..5, then a-b for 2 ≤ a ≤ b ≤ 5.
        assert_eq!(all.len(), 1 + 2 * 4 + 10);
        for (k, u) in all.iter().enumerate() {
            assert_eq!(Unit::parse(&u.name()), Some(*u), "{}", u.name());
            for input in u.inputs() {
                assert!(
                    all[..k].contains(&input),
                    "{} before {}",
                    input.name(),
                    u.name()
                );
            }
        }
        let u = Unit {
            a: 3,
            b: 5,
            game: Game::Normal,
        };
        assert_eq!(u.live_levels(), vec![2, 4]);
        assert_eq!(u.dead_level(), 8);
        assert_eq!(u.width(), 10);
        assert_eq!(Unit::parse("1-4-crawford").unwrap().game, Game::Crawford);
        assert_eq!(Unit::parse("1-4-post-crawford").unwrap().width(), 6);
        assert_eq!(Unit::parse("4-1"), None);
        assert_eq!(Unit::parse("2-2-crawford"), None);
        assert!(check_length(0).is_err() && check_length(65).is_err() && check_length(11).is_ok());
    }
}
