//! A member of the backgammon family: its board, checkers, dice, home board and start
//! (`docs/gammon.md`, "Variants").
//!
//! ```
//! use tabula::gammon::Variant;
//!
//! let hyper2 = Variant::parse("hyper2").unwrap();
//! assert_eq!((hyper2.points, hyper2.checkers, hyper2.home), (24, 2, 6));
//! // Hypergammon-2's rules described are Hypergammon-2.
//! assert_eq!(Variant::parse("points=24:checkers=2").unwrap().name(), "hyper2");
//! let own = Variant::parse("points=10:checkers=2:faces=1-3:home=3:start=10,9").unwrap();
//! assert_eq!(own.faces, vec![1, 2, 3]);
//! assert!(Variant::parse("points=10:checkers=0").is_err());
//! ```

use super::{Error, HyperIndex, Roll};
use serde::Serialize;

/// The largest board: gnubg's 24 points.
pub const MAX_POINTS: usize = 24;
/// The most distinct faces a die may have.
pub const MAX_FACES: usize = 15;
/// The largest face.
pub const MAX_FACE: u8 = 15;

/// How a variant's positions are numbered in its tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Numbering {
    /// The NikoNiko article's dense index (`docs/nikoniko.md`), generalised to any board
    /// ([`super::numbering::SeedIndex`]): one record per state.
    Seed,
    /// gnubg's Hypergammon index, generalised ([`super::HyperIndex`]): one record per
    /// pair of side numbers.
    Gnubg,
}

/// The built-in variants (`docs/gammon.md`, "Built-in variants").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum BuiltIn {
    /// NikoNiko Gammon: 8 points, 5 checkers, dice 0-2, the article's index.
    #[serde(rename = "nikoniko")]
    Nikoniko,
    /// NikoNiko Gammon with dice 1-2 only (the article's rejected game).
    #[serde(rename = "nikoniko-12")]
    Nikoniko12,
    /// Hypergammon with one checker a side.
    #[serde(rename = "hyper1")]
    Hyper1,
    /// Hypergammon with two checkers a side.
    #[serde(rename = "hyper2")]
    Hyper2,
    /// Hypergammon with three checkers a side.
    #[serde(rename = "hyper3")]
    Hyper3,
}

impl BuiltIn {
    /// Every built-in variant.
    pub const ALL: [BuiltIn; 5] = [
        BuiltIn::Nikoniko,
        BuiltIn::Nikoniko12,
        BuiltIn::Hyper1,
        BuiltIn::Hyper2,
        BuiltIn::Hyper3,
    ];

    /// Its name on the command line and in file names.
    pub const fn name(self) -> &'static str {
        match self {
            BuiltIn::Nikoniko => "nikoniko",
            BuiltIn::Nikoniko12 => "nikoniko-12",
            BuiltIn::Hyper1 => "hyper1",
            BuiltIn::Hyper2 => "hyper2",
            BuiltIn::Hyper3 => "hyper3",
        }
    }

    /// Its name for people.
    pub const fn title(self) -> &'static str {
        match self {
            BuiltIn::Nikoniko => "NikoNiko Gammon",
            BuiltIn::Nikoniko12 => "NikoNiko Gammon, dice 1-2",
            BuiltIn::Hyper1 => "Hypergammon-1",
            BuiltIn::Hyper2 => "Hypergammon-2",
            BuiltIn::Hyper3 => "Hypergammon-3",
        }
    }

    /// The built-in variant of this name.
    pub fn from_name(name: &str) -> Option<BuiltIn> {
        BuiltIn::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Its rules.
    pub fn variant(self) -> Variant {
        let make = |points, checkers, faces: &[u8], home, start: &[u8], numbering| Variant {
            built_in: Some(self),
            points,
            checkers,
            faces: faces.to_vec(),
            home,
            start: start.to_vec(),
            numbering,
        };
        match self {
            BuiltIn::Nikoniko => make(8, 5, &[0, 1, 2], 2, &[8, 8, 5, 2, 2], Numbering::Seed),
            BuiltIn::Nikoniko12 => make(8, 5, &[1, 2], 2, &[8, 8, 5, 2, 2], Numbering::Seed),
            BuiltIn::Hyper1 => make(24, 1, &SIX, 6, &[24], Numbering::Gnubg),
            BuiltIn::Hyper2 => make(24, 2, &SIX, 6, &[24, 23], Numbering::Gnubg),
            BuiltIn::Hyper3 => make(24, 3, &SIX, 6, &[24, 23, 22], Numbering::Gnubg),
        }
    }
}

/// A variant: the rules of one member of the family.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Variant {
    /// The built-in variant these rules are, if any.
    #[serde(skip)]
    built_in: Option<BuiltIn>,
    /// Points on the board, `P` (at most [`MAX_POINTS`]).
    pub points: usize,
    /// Checkers a side, `C`.
    pub checkers: usize,
    /// The faces of each die, ascending, distinct (0 moves nothing).
    pub faces: Vec<u8>,
    /// Each side's home board is its points `1..=home`.
    pub home: usize,
    /// Where each side's checkers start, in its own numbering, highest first.
    pub start: Vec<u8>,
    /// How its tables number positions.
    pub numbering: Numbering,
}

/// The rolls of a variant: the distinct rolls that may move something, each with its
/// weight ([`Roll::weight`]) among the `denominator` equally likely ordered rolls, and the
/// weight of the rolls that never move (all faces 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolls {
    /// The rolls that move, in ascending order of `(low, high)`.
    pub moving: Vec<Roll>,
    /// Weight of the rolls that move nothing (`0-0`).
    pub idle: u32,
    /// Ordered rolls in all: faces².
    pub denominator: u32,
}

/// The built-in variants' names.
pub const BUILT_IN: [&str; 5] = [
    BuiltIn::Nikoniko.name(),
    BuiltIn::Nikoniko12.name(),
    BuiltIn::Hyper1.name(),
    BuiltIn::Hyper2.name(),
    BuiltIn::Hyper3.name(),
];

impl Variant {
    /// A built-in variant by name.
    pub fn built_in(name: &str) -> Option<Variant> {
        BuiltIn::from_name(name).map(BuiltIn::variant)
    }

    /// Real backgammon's rules: 24 points, 15 checkers a side, two six-sided dice, a home
    /// board of six points and the usual start. Too large for the family's solver (its
    /// [`Variant::check`] refuses it); the bear-off databases (`super::bearoff`) play the
    /// last phase of it with the one move generator.
    pub fn backgammon() -> Variant {
        Variant {
            built_in: None,
            points: MAX_POINTS,
            checkers: 15,
            faces: SIX.to_vec(),
            home: 6,
            start: vec![24, 24, 13, 13, 13, 13, 13, 8, 8, 8, 6, 6, 6, 6, 6],
            numbering: Numbering::Gnubg,
        }
    }

    /// The built-in variant these rules are, if any.
    pub fn built_in_kind(&self) -> Option<BuiltIn> {
        self.built_in
    }

    /// Its name: a built-in's, or the description of its rules ([`Variant::describe`]).
    pub fn name(&self) -> String {
        match self.built_in {
            Some(b) => b.name().to_string(),
            None => self.describe(),
        }
    }

    /// Its name for people: a built-in's title, or the description of its rules.
    pub fn title(&self) -> String {
        match self.built_in {
            Some(b) => b.title().to_string(),
            None => self.describe(),
        }
    }

    /// The same rules, known as the built-in variant they are, if any (a description of
    /// Hypergammon-2's rules is Hypergammon-2).
    pub fn recognised(mut self) -> Variant {
        self.built_in = None;
        self.built_in = BuiltIn::ALL
            .into_iter()
            .find(|b| b.variant().same_rules(&self));
        self
    }

    /// Whether two variants have the same rules and numbering, whatever their names.
    fn same_rules(&self, other: &Variant) -> bool {
        (
            self.points,
            self.checkers,
            &self.faces,
            self.home,
            &self.start,
            self.numbering,
        ) == (
            other.points,
            other.checkers,
            &other.faces,
            other.home,
            &other.start,
            other.numbering,
        )
    }

    /// A built-in variant's name, or a description `key=value:key=value…` with the keys
    /// `points` (required), `checkers` (required), `faces` (a list `1,2,3` or a range
    /// `1-6`; default 1-6), `home` (default a quarter of the board, rounded up) and
    /// `start` (a list of points, highest first; default one checker on each of the
    /// highest points, as Hypergammon). Such a variant is numbered as gnubg numbers
    /// Hypergammon. Checked as [`Variant::check`] says.
    pub fn parse(text: &str) -> Result<Variant, Error> {
        let text = text.trim();
        if let Some(v) = Variant::built_in(text) {
            return Ok(v);
        }
        if !text.contains('=') {
            return Err(bad(format!(
                "unknown variant {}: the built-in ones are {}, or describe one as \
                 points=P:checkers=C[:faces=F][:home=H][:start=S]",
                crate::fault::excerpt(text),
                BUILT_IN.join(", ")
            )));
        }
        let (mut points, mut checkers, mut faces, mut home, mut start) =
            (None, None, None, None, None);
        let mut seen: Vec<&str> = Vec::new();
        for part in text.split(':') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("{}: expected key=value", excerpt(part))))?;
            if seen.contains(&key.trim()) {
                return Err(bad(format!(
                    "the key {} is given twice",
                    excerpt(key.trim())
                )));
            }
            seen.push(key.trim());
            let number = |what: &str| -> Result<usize, Error> {
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| bad(format!("{what} {}: not a number", excerpt(value))))
            };
            match key.trim() {
                "points" => points = Some(number("points")?),
                "checkers" => checkers = Some(number("checkers")?),
                "home" => home = Some(number("home")?),
                "faces" => faces = Some(parse_faces(value)?),
                "start" => start = Some(parse_list(value, "start")?),
                other => {
                    return Err(bad(format!(
                        "unknown key {} (points, checkers, faces, home, start)",
                        excerpt(other)
                    )))
                }
            }
        }
        let points = points.ok_or_else(|| bad("points=P is missing".to_string()))?;
        let checkers = checkers.ok_or_else(|| bad("checkers=C is missing".to_string()))?;
        // Checked here as well as in `check`: the default start below lists the checkers.
        if checkers == 0 || checkers > 15 {
            return Err(bad(format!(
                "{checkers} checkers: each side has 1 to 15 checkers"
            )));
        }
        let start = match start {
            Some(s) => s,
            None => (0..checkers)
                .map(|i| points.saturating_sub(i).max(1) as u8)
                .collect(),
        };
        let variant = Variant {
            built_in: None,
            points,
            checkers,
            faces: faces.unwrap_or_else(|| SIX.to_vec()),
            home: home.unwrap_or(points.div_ceil(4)),
            start,
            numbering: Numbering::Gnubg,
        };
        variant.check()?;
        Ok(variant.recognised())
    }

    /// Checks that the variant describes a game this program can solve: 1 to 24 points,
    /// 1 to 15 checkers, distinct faces 0 to 15 with at least one that moves, a home board
    /// on the board, a start of exactly `checkers` checkers on the board whose two sides
    /// do not share a point, and sides few enough to number in 16 bits.
    pub fn check(&self) -> Result<(), Error> {
        let (p, c) = (self.points, self.checkers);
        if p == 0 || p > MAX_POINTS {
            return Err(bad(format!(
                "{p} points: a board has 1 to {MAX_POINTS} points"
            )));
        }
        if c == 0 || c > 15 {
            return Err(bad(format!("{c} checkers: each side has 1 to 15 checkers")));
        }
        if self.faces.is_empty() || self.faces.len() > MAX_FACES {
            return Err(bad(format!(
                "{} faces: a die has 1 to {MAX_FACES}",
                self.faces.len()
            )));
        }
        if let Some(&f) = self.faces.iter().find(|&&f| f > MAX_FACE) {
            return Err(bad(format!("face {f}: faces run from 0 to {MAX_FACE}")));
        }
        if self.faces.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad(
                "the faces must be distinct (and are kept ascending)".into()
            ));
        }
        if self.faces.iter().all(|&f| f == 0) {
            return Err(bad(
                "no face moves a checker: the game could never end".into()
            ));
        }
        if self.home == 0 || self.home > p {
            return Err(bad(format!(
                "a home board of {} points on a board of {p}: it must be 1 to {p}",
                self.home
            )));
        }
        if self.start.len() != c {
            return Err(bad(format!(
                "the start places {} checkers, expected {c}",
                self.start.len()
            )));
        }
        if let Some(&s) = self.start.iter().find(|&&s| s == 0 || usize::from(s) > p) {
            return Err(bad(format!(
                "the start puts a checker on point {s}, off a board of points 1 to {p}"
            )));
        }
        if self.start.windows(2).any(|w| w[0] < w[1]) {
            return Err(bad("the start lists its points highest first".into()));
        }
        if let Some(&s) = self
            .start
            .iter()
            .find(|&&s| self.start.contains(&(p as u8 + 1 - s)))
        {
            return Err(bad(format!(
                "the start puts both sides on point {s} (the other side's {})",
                p as u8 + 1 - s
            )));
        }
        let index = HyperIndex::new(p, c)?;
        if index.sides() >= u64::from(u16::MAX) {
            return Err(Error::TooLarge {
                points: p,
                checkers: c,
                reason: format!(
                    "{} numbered sides, and the solver numbers a side in 16 bits (at most {})",
                    index.sides(),
                    u16::MAX - 1
                ),
            });
        }
        Ok(())
    }

    /// The canonical description, `points=…:checkers=…:faces=…:home=…:start=…`.
    pub fn describe(&self) -> String {
        let list = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        format!(
            "points={}:checkers={}:faces={}:home={}:start={}",
            self.points,
            self.checkers,
            list(&self.faces),
            self.home,
            list(&self.start)
        )
    }

    /// The faces that move a checker, ascending.
    pub fn nonzero_faces(&self) -> Vec<u8> {
        self.faces.iter().copied().filter(|&f| f > 0).collect()
    }

    /// The variant's rolls.
    pub fn rolls(&self) -> Rolls {
        let mut moving = Vec::new();
        let mut idle = 0;
        for (i, &low) in self.faces.iter().enumerate() {
            for &high in &self.faces[i..] {
                let roll = Roll::new(low, high);
                if roll.moves() {
                    moving.push(roll);
                } else {
                    idle += roll.weight();
                }
            }
        }
        let n = self.faces.len() as u32;
        Rolls {
            moving,
            idle,
            denominator: n * n,
        }
    }

    /// Whether `roll` can be thrown with this variant's dice.
    pub fn has_roll(&self, roll: Roll) -> bool {
        self.faces.contains(&roll.low()) && self.faces.contains(&roll.high())
    }

    /// The index of records for a gnubg-numbered variant (any variant's sides are
    /// numbered this way inside the solver).
    pub fn hyper_index(&self) -> Result<HyperIndex, Error> {
        HyperIndex::new(self.points, self.checkers)
    }

    /// One side at the start, as slots `1..=P` then the bar (see [`super::Position`]).
    pub fn start_slots(&self) -> Vec<u8> {
        let mut slots = vec![0u8; self.points + 1];
        for &s in &self.start {
            slots[usize::from(s) - 1] += 1;
        }
        slots
    }

    /// The opening position.
    pub fn opening(&self) -> super::Position {
        let side = self.start_slots();
        super::Position::new(&side, &side).expect("a checked variant's slots")
    }
}

/// Hypergammon's die.
const SIX: [u8; 6] = [1, 2, 3, 4, 5, 6];

fn bad(reason: String) -> Error {
    Error::Variant { reason }
}

fn excerpt(text: &str) -> String {
    crate::fault::excerpt(text)
}

fn parse_list(value: &str, what: &str) -> Result<Vec<u8>, Error> {
    value
        .split(',')
        .map(|t| {
            t.trim().parse::<u8>().map_err(|_| {
                bad(format!(
                    "{what} {}: {} is not a number",
                    excerpt(value),
                    excerpt(t)
                ))
            })
        })
        .collect()
}

/// Faces as a list `0,1,2` or a range `1-6`, kept ascending.
fn parse_faces(value: &str) -> Result<Vec<u8>, Error> {
    let mut faces = if let Some((a, b)) = value.split_once('-') {
        let end = |t: &str| {
            t.trim()
                .parse::<u8>()
                .map_err(|_| bad(format!("faces {}: not a range a-b", excerpt(value))))
        };
        let (a, b) = (end(a)?, end(b)?);
        if a > b || b > MAX_FACE {
            return Err(bad(format!(
                "faces {}: a range from a to b, 0 ≤ a ≤ b ≤ {MAX_FACE}",
                excerpt(value)
            )));
        }
        (a..=b).collect()
    } else {
        parse_list(value, "faces")?
    };
    let given = faces.len();
    faces.sort_unstable();
    faces.dedup();
    if faces.len() != given {
        return Err(bad(format!("faces {}: a face is repeated", excerpt(value))));
    }
    Ok(faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nikonikos_rolls_are_five_that_move_and_zero_zero() {
        let r = Variant::built_in("nikoniko").unwrap().rolls();
        let listed: Vec<(u8, u8, u32)> = r
            .moving
            .iter()
            .map(|r| (r.low(), r.high(), r.weight()))
            .collect();
        assert_eq!(
            listed,
            vec![(0, 1, 2), (0, 2, 2), (1, 1, 1), (1, 2, 2), (2, 2, 1)]
        );
        assert_eq!((r.idle, r.denominator), (1, 9));
    }

    #[test]
    fn hypergammons_rolls_are_the_21_of_two_dice_weighing_36() {
        let r = Variant::built_in("hyper3").unwrap().rolls();
        assert_eq!(r.moving.len(), 21);
        assert_eq!(r.moving.iter().map(|m| m.weight()).sum::<u32>(), 36);
        assert_eq!(r.idle, 0);
    }

    #[test]
    fn every_built_in_variant_passes_its_own_check() {
        for name in BUILT_IN {
            Variant::built_in(name).unwrap().check().unwrap();
        }
    }

    #[test]
    fn a_described_variant_gets_its_defaults_and_a_canonical_name() {
        let v = Variant::parse("points=12:checkers=2").unwrap();
        assert_eq!((v.home, v.faces.len()), (3, 6));
        assert_eq!(v.start, vec![12, 11]);
        assert_eq!(
            v.name(),
            "points=12:checkers=2:faces=1,2,3,4,5,6:home=3:start=12,11"
        );
        assert_eq!(Variant::parse(&v.name()).unwrap(), v);
        assert_eq!(v.built_in_kind(), None);
    }

    #[test]
    fn a_built_in_variants_rules_described_are_that_variant() {
        for b in BuiltIn::ALL {
            let v = b.variant();
            let mut described = Variant::parse(&v.describe()).unwrap();
            // A description is numbered as gnubg numbers Hypergammon.
            described.numbering = v.numbering;
            assert_eq!(described.recognised().built_in_kind(), Some(b));
        }
        assert_eq!(Variant::parse("hyper3").unwrap().title(), "Hypergammon-3");
    }

    #[test]
    fn bad_variants_are_refused_with_the_fault_named() {
        let fault = |t: &str| Variant::parse(t).unwrap_err().to_string();
        assert!(fault("points=8:checkers=0").contains("0 checkers"));
        assert!(fault("points=8:checkers=2:start=9,8").contains("point 9"));
        assert!(fault("points=8:checkers=2:faces=0").contains("no face moves"));
        assert!(fault("points=8:checkers=2:faces=1,16").contains("face 16"));
        assert!(fault("points=9:checkers=1:start=5").contains("both sides"));
        assert!(fault("hyper9").contains("unknown variant"));
        assert!(fault("points=8:checkers=2:points=9").contains("the key points is given twice"));
        assert!(fault("points=24:checkers=6").contains("16 bits"));
    }
}
