//! Comparison rules a user can name: the article's four tie-break rules alone (`article`,
//! the default), or followed by a fifth rule made of one to three statistics of a hand,
//! written as their names joined by `+` (`stroke-pos+ssd+possum-o`). `docs/izumi-poker.md`
//! lists the statistics, their names and which side of each wins.

use super::hand::{Hand, CHARS, HANDS, ROMAJI, STROKES};
use super::tiebreak::{all_features, compare_features, Features, Key, Stage};
use super::Error;
use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;

type Letters = [u8; 5];

/// Most statistics a fifth rule may chain.
pub const MAX_STATISTICS: usize = 3;

/// A simple statistic of a hand: a small integer computed from its five cards. Positions
/// are 1-based in names and sums, 0-based (-1 when absent) in first / last positions, as
/// Python's `str.find` / `str.rfind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Statistic {
    /// 0-based position of the first card `c` (-1 when absent).
    FirstPosition(u8),
    /// 0-based position of the last card `c` (-1 when absent).
    LastPosition(u8),
    /// Sum of the 1-based positions of card `c`.
    PositionSum(u8),
    /// How many cards `c`.
    Count(u8),
    /// Σ strokes × 1-based position.
    StrokesByPosition,
    /// Σ strokes × (6 − position).
    StrokesByReversePosition,
    /// Strokes of the card at 1-based position `p`.
    StrokesAt(u8),
    /// How many times すき appears.
    SukiPairs,
    /// How many neighbours are consecutive in the name (大石, 石泉, 泉す, すき).
    NameBigrams,
    /// The longest run of neighbours consecutive in the name.
    LongestRun,
    /// Pairs of cards in the wrong order against the name.
    Inversions,
    /// Σ |home − position| over the cards.
    Displacement,
    /// Σ (home − position)² over the cards.
    SquaredDisplacement,
    /// How many different cards.
    Distinct,
    /// The highest stroke count in the hand.
    HighestStroke,
    /// The lowest stroke count in the hand.
    LowestStroke,
    /// The stroke counts sorted high to low, compared as poker compares kickers.
    Kicker,
}

fn strokes(l: u8) -> i32 {
    i32::from(STROKES[l as usize])
}

impl Statistic {
    /// The family searched by `search-rule`, in its fixed order (37 statistics).
    pub fn family() -> Vec<Statistic> {
        use Statistic::*;
        let mut out = Vec::new();
        for c in 0..5u8 {
            out.extend([FirstPosition(c), LastPosition(c), PositionSum(c), Count(c)]);
        }
        out.extend([StrokesByPosition, StrokesByReversePosition]);
        out.extend((1..=5).map(StrokesAt));
        out.extend([
            SukiPairs,
            NameBigrams,
            LongestRun,
            Inversions,
            Displacement,
            SquaredDisplacement,
            Distinct,
            HighestStroke,
            LowestStroke,
            Kicker,
        ]);
        out
    }

    /// The statistic's value on a hand's letters.
    pub fn value(self, x: &Letters) -> i32 {
        use Statistic::*;
        let positions = |c: u8| (0..5).filter(move |&i| x[i] == c);
        match self {
            FirstPosition(c) => x.iter().position(|&l| l == c).map_or(-1, |p| p as i32),
            LastPosition(c) => x.iter().rposition(|&l| l == c).map_or(-1, |p| p as i32),
            PositionSum(c) => positions(c).map(|i| i as i32 + 1).sum(),
            Count(c) => positions(c).count() as i32,
            StrokesByPosition => (0..5).map(|i| strokes(x[i]) * (i as i32 + 1)).sum(),
            StrokesByReversePosition => (0..5).map(|i| strokes(x[i]) * (5 - i as i32)).sum(),
            StrokesAt(p) => strokes(x[usize::from(p) - 1]),
            SukiPairs => x.windows(2).filter(|w| w == &[3, 4]).count() as i32,
            NameBigrams => x.windows(2).filter(|w| w[1] == w[0] + 1).count() as i32,
            LongestRun => {
                let (mut best, mut run) = (1, 1);
                for w in x.windows(2) {
                    run = if w[1] == w[0] + 1 { run + 1 } else { 1 };
                    best = best.max(run);
                }
                best
            }
            Inversions => (0..5)
                .flat_map(|i| (i + 1..5).map(move |j| (i, j)))
                .filter(|&(i, j)| x[i] > x[j])
                .count() as i32,
            Displacement => (0..5).map(|i| (i32::from(x[i]) - i as i32).abs()).sum(),
            SquaredDisplacement => (0..5).map(|i| (i32::from(x[i]) - i as i32).pow(2)).sum(),
            Distinct => (0..5u8).filter(|c| x.contains(c)).count() as i32,
            HighestStroke => x.iter().map(|&l| strokes(l)).max().unwrap_or(0),
            LowestStroke => x.iter().map(|&l| strokes(l)).min().unwrap_or(0),
            Kicker => {
                let mut s: Vec<i32> = x.iter().map(|&l| strokes(l)).collect();
                s.sort_unstable_by(|a, b| b.cmp(a));
                s.iter().fold(0, |acc, &v| acc * 10 + v)
            }
        }
    }

    /// The statistic's value on every hand, in index order.
    pub fn values(self) -> Vec<i32> {
        Hand::all().map(|h| self.value(&h.letters())).collect()
    }

    /// A description for people, e.g. `first position of 大`.
    pub fn description(self) -> String {
        use Statistic::*;
        let ch = |c: u8| CHARS[c as usize];
        match self {
            FirstPosition(c) => format!("first position of {}", ch(c)),
            LastPosition(c) => format!("last position of {}", ch(c)),
            PositionSum(c) => format!("sum of positions of {}", ch(c)),
            Count(c) => format!("count of {}", ch(c)),
            StrokesByPosition => "Σ strokes × position".into(),
            StrokesByReversePosition => "Σ strokes × (6 − position)".into(),
            StrokesAt(p) => format!("strokes at position {p}"),
            SukiPairs => "すき pairs".into(),
            NameBigrams => "name bigrams".into(),
            LongestRun => "longest run of the name".into(),
            Inversions => "inversions against the name".into(),
            Displacement => "displacement Σ|home − position|".into(),
            SquaredDisplacement => "squared displacement (SSD)".into(),
            Distinct => "distinct characters".into(),
            HighestStroke => "highest stroke".into(),
            LowestStroke => "lowest stroke".into(),
            Kicker => "strokes high to low (kicker)".into(),
        }
    }

    /// The name a user types, in ASCII, cards by their letters: `first-o`, `ssd`.
    pub fn name(self) -> String {
        use Statistic::*;
        let letter = |c: u8| ROMAJI[c as usize];
        match self {
            FirstPosition(c) => format!("first-{}", letter(c)),
            LastPosition(c) => format!("last-{}", letter(c)),
            PositionSum(c) => format!("possum-{}", letter(c)),
            Count(c) => format!("count-{}", letter(c)),
            StrokesByPosition => "stroke-pos".into(),
            StrokesByReversePosition => "stroke-revpos".into(),
            StrokesAt(p) => format!("stroke-at-{p}"),
            SukiPairs => "suki-pairs".into(),
            NameBigrams => "bigrams".into(),
            LongestRun => "run".into(),
            Inversions => "inversions".into(),
            Displacement => "displacement".into(),
            SquaredDisplacement => "ssd".into(),
            Distinct => "distinct".into(),
            HighestStroke => "max-stroke".into(),
            LowestStroke => "min-stroke".into(),
            Kicker => "kicker".into(),
        }
    }

    /// The group it belongs to in the family.
    pub fn group(self) -> &'static str {
        use Statistic::*;
        match self {
            FirstPosition(_) | LastPosition(_) | PositionSum(_) | Count(_) => {
                "positions of each character"
            }
            StrokesByPosition | StrokesByReversePosition | StrokesAt(_) => {
                "stroke-weighted positions"
            }
            SukiPairs | NameBigrams | LongestRun | Inversions | Displacement
            | SquaredDisplacement | Distinct => "the name's shape",
            HighestStroke | LowestStroke | Kicker => "kickers",
        }
    }

    /// Which side wins when the statistic decides: the larger value, except for the three
    /// distances from the name (inversions, displacement, its square), where the hand
    /// closer to the name, the smaller value, wins.
    pub fn larger_wins(self) -> bool {
        !matches!(
            self,
            Statistic::Inversions | Statistic::Displacement | Statistic::SquaredDisplacement
        )
    }

    /// The value turned so that larger always wins.
    pub fn strength(self, x: &Letters) -> i32 {
        let v = self.value(x);
        if self.larger_wins() {
            v
        } else {
            -v
        }
    }

    /// The statistic named `name` (see [`Statistic::name`]).
    pub fn from_name(name: &str) -> Option<Statistic> {
        Statistic::family().into_iter().find(|s| s.name() == name)
    }
}

impl Serialize for Statistic {
    /// A statistic is written by its name.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

/// A comparison rule: the article's four tie-break rules, then (optionally) a fifth rule
/// of one to three statistics, tried in order, each oriented by
/// [`Statistic::larger_wins`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rule {
    fifth: Vec<Statistic>,
}

impl Rule {
    /// The article's rules alone: the default.
    pub fn article() -> Rule {
        Rule::default()
    }

    /// The article's rules followed by `fifth` (at most three statistics, no repeats).
    pub fn with_fifth(fifth: Vec<Statistic>) -> Result<Rule, Error> {
        let rule = Rule { fifth };
        let refuse = |reason: String| Error::BadRule {
            name: rule.name(),
            reason,
        };
        if rule.fifth.len() > MAX_STATISTICS {
            return Err(refuse(format!(
                "{} statistics, at most {MAX_STATISTICS} may follow the article's rules",
                rule.fifth.len()
            )));
        }
        for (i, s) in rule.fifth.iter().enumerate() {
            if rule.fifth[..i].contains(s) {
                return Err(refuse(format!("{} is named twice", s.name())));
            }
        }
        Ok(rule)
    }

    /// Parses a rule's name: `article`, or statistic names joined by `+` (an `article+`
    /// in front is allowed and changes nothing).
    pub fn parse(name: &str) -> Result<Rule, Error> {
        let body = name.strip_prefix("article+").unwrap_or(name);
        if body == "article" {
            return Ok(Rule::article());
        }
        let fifth = body
            .split('+')
            .map(|part| {
                Statistic::from_name(part).ok_or_else(|| Error::BadRule {
                    name: name.to_string(),
                    reason: if part.is_empty() {
                        "an empty statistic name".to_string()
                    } else {
                        format!("no statistic is called {part:?}")
                    },
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Rule::with_fifth(fifth)
    }

    /// The rule's name, as typed: `article`, or the statistics' names joined by `+`.
    pub fn name(&self) -> String {
        if self.fifth.is_empty() {
            "article".to_string()
        } else {
            let names: Vec<String> = self.fifth.iter().map(|s| s.name()).collect();
            names.join("+")
        }
    }

    /// Whether this is the article's rule alone.
    pub fn is_article(&self) -> bool {
        self.fifth.is_empty()
    }

    /// The statistics of the fifth rule, in the order they are tried.
    pub fn fifth(&self) -> &[Statistic] {
        &self.fifth
    }

    /// Every stage in order: the rank, the article's four rules, then the statistics.
    pub fn steps(&self) -> Vec<Step> {
        Stage::ALL
            .iter()
            .map(|&s| Step::Article(s))
            .chain(self.fifth.iter().map(|&s| Step::Fifth(s)))
            .collect()
    }

    /// The fifth rule's values of one hand, oriented so that larger wins (zeros past the
    /// rule's length).
    pub fn fifth_strengths(&self, hand: &Hand) -> [i32; MAX_STATISTICS] {
        let letters = hand.letters();
        std::array::from_fn(|i| self.fifth.get(i).map_or(0, |s| s.strength(&letters)))
    }

    /// Compares two hands under this rule.
    pub fn compare(&self, a: &Hand, b: &Hand) -> Decision {
        decide(
            &Features::of(a),
            &Features::of(b),
            &self.fifth_strengths(a),
            &self.fifth_strengths(b),
        )
    }

    /// Every hand's values under this rule, for exhaustive work.
    pub fn strengths(&self) -> Strengths {
        let features = all_features();
        let fifth = Hand::all().map(|h| self.fifth_strengths(&h)).collect();
        Strengths {
            keys: features.iter().map(Features::key).collect(),
            features,
            fifth,
            depth: self.fifth.len(),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Rule {
    type Err = Error;

    fn from_str(s: &str) -> Result<Rule, Error> {
        Rule::parse(s)
    }
}

impl Serialize for Rule {
    /// A rule is written by its name.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

/// One stage of a rule: the rank or one of the article's rules, or a statistic of the
/// fifth rule. Written in JSON by its name (`right_strokes`, `ssd`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Step {
    /// The rank or one of the article's four rules.
    Article(Stage),
    /// A statistic of the fifth rule.
    Fifth(Statistic),
}

impl Step {
    /// The stage's machine name: the article's stage names, or a statistic's name.
    pub fn name(self) -> String {
        match self {
            Step::Article(s) => s.name().to_string(),
            Step::Fifth(s) => s.name(),
        }
    }
}

/// Which hand a rule prefers and at which stage (its index in [`Rule::steps`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// `Greater` when `a` is the stronger hand, `Less` when `b` is, `Equal` for a tie.
    pub order: Ordering,
    /// The index of the stage that decided, `None` for a tie.
    pub stage: Option<usize>,
}

/// The verdict from both hands' article values and fifth-rule values (larger wins).
fn decide(fa: &Features, fb: &Features, xa: &[i32], xb: &[i32]) -> Decision {
    let v = compare_features(fa, fb);
    if v.order != Ordering::Equal {
        return Decision {
            order: v.order,
            stage: v.stage.map(|s| s as usize),
        };
    }
    for (i, (x, y)) in xa.iter().zip(xb).enumerate() {
        if x != y {
            return Decision {
                order: x.cmp(y),
                stage: Some(Stage::ALL.len() + i),
            };
        }
    }
    Decision {
        order: Ordering::Equal,
        stage: None,
    }
}

/// Every hand's values under one rule, in index order.
#[derive(Debug, Clone)]
pub struct Strengths {
    features: Vec<Features>,
    keys: Vec<Key>,
    fifth: Vec<[i32; MAX_STATISTICS]>,
    depth: usize,
}

impl Strengths {
    /// Compares the hands numbered `a` and `b`.
    #[inline(always)]
    pub fn compare(&self, a: usize, b: usize) -> Decision {
        let v = compare_features(&self.features[a], &self.features[b]);
        if v.order != Ordering::Equal || self.depth == 0 {
            return Decision {
                order: v.order,
                stage: v.stage.map(|s| s as usize),
            };
        }
        self.compare_fifth(a, b)
    }

    /// The fifth rule's verdict on two hands the article's rules tie.
    #[inline(never)]
    fn compare_fifth(&self, a: usize, b: usize) -> Decision {
        let (xa, xb) = (&self.fifth[a][..self.depth], &self.fifth[b][..self.depth]);
        for (i, (x, y)) in xa.iter().zip(xb).enumerate() {
            if x != y {
                return Decision {
                    order: x.cmp(y),
                    stage: Some(Stage::ALL.len() + i),
                };
            }
        }
        Decision {
            order: Ordering::Equal,
            stage: None,
        }
    }

    /// The full strength key of hand `h`: a larger key is a stronger hand, equal keys tie.
    /// The article's [`Key`] fills the top 32 bits, each fifth-rule value (offset to be
    /// unsigned) 32 bits below it.
    pub fn key(&self, h: usize) -> u128 {
        self.fifth[h]
            .iter()
            .fold(u128::from(self.keys[h].0), |k, &v| {
                k << 32 | u128::from(v as u32 ^ 0x8000_0000)
            })
    }

    /// The part of hand `h`'s key that the stages up to `stage` see (an index in
    /// [`Rule::steps`]).
    pub fn prefix(&self, h: usize, stage: usize) -> (u32, [i32; MAX_STATISTICS]) {
        let last = Stage::ALL.len() - 1;
        let mut fifth = [0; MAX_STATISTICS];
        let seen = stage.saturating_sub(last);
        fifth[..seen].copy_from_slice(&self.fifth[h][..seen]);
        (self.keys[h].prefix(stage.min(last)), fifth)
    }

    /// Number of stages: five, plus the fifth rule's statistics.
    pub fn stages(&self) -> usize {
        Stage::ALL.len() + self.depth
    }

    /// The article's values of every hand.
    pub fn features(&self) -> &[Features] {
        &self.features
    }

    /// Number of hands (3,125).
    pub fn len(&self) -> usize {
        self.features.len()
    }

    /// Never true: there are always 3,125 hands.
    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }
}

const _: () = assert!(HANDS == 3125);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statistic_name_parses_back_to_itself_and_names_are_unique() {
        let family = Statistic::family();
        assert_eq!(family.len(), 37);
        for s in &family {
            assert_eq!(Statistic::from_name(&s.name()), Some(*s));
            assert!(s.name().is_ascii());
        }
        let mut names: Vec<String> = family.iter().map(|s| s.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 37);
    }

    #[test]
    fn rule_names_round_trip_and_faults_are_named() {
        for name in [
            "article",
            "ssd",
            "stroke-pos+ssd+possum-o",
            "kicker+first-k",
        ] {
            assert_eq!(Rule::parse(name).unwrap().name(), name);
        }
        assert_eq!(Rule::parse("article+ssd").unwrap().name(), "ssd");
        let e = Rule::parse("ssd+sdd").unwrap_err().to_string();
        assert!(e.contains("\"sdd\""), "{e}");
        let e = Rule::parse("ssd+ssd").unwrap_err().to_string();
        assert!(e.contains("ssd is named twice"), "{e}");
        let e = Rule::parse("ssd+run+bigrams+distinct")
            .unwrap_err()
            .to_string();
        assert!(e.contains("4 statistics"), "{e}");
        assert!(Rule::parse("").is_err());
        assert!(Rule::parse("ssd+").is_err());
    }

    #[test]
    fn the_fifth_rule_decides_only_where_the_article_ties() {
        let rule = Rule::parse("stroke-pos").unwrap();
        let h = |s: &str| Hand::parse(s).unwrap();
        // Tied by the article (the article's first rule-4 tie): Σ strokes × position is
        // 3+6+9+20+15 = 53 for 大大大石大 and 3+6+9+12+25 = 55 for 大大大大石.
        let d = rule.compare(&h("大大大大石"), &h("大大大石大"));
        assert_eq!(d.order, Ordering::Greater);
        assert_eq!(d.stage, Some(5));
        assert_eq!(
            Rule::article()
                .compare(&h("大大大大石"), &h("大大大石大"))
                .order,
            Ordering::Equal
        );
        // Decided by the rank whatever the fifth rule says.
        let d = rule.compare(&h("大石泉すき"), &h("泉泉泉泉泉"));
        assert_eq!((d.order, d.stage), (Ordering::Greater, Some(0)));
    }
}
