//! The arguments of the backgammon commands, declared once for both doors: `tabula gammon
//! … --variant V` and the article's presets `tabula nikoniko …`.

use clap::{Args, ValueEnum};
use std::path::PathBuf;
use tabula::gammon::matchplay::CubeOwner;
use tabula::gammon::CubeState;

/// `--json`.
#[derive(Args, Clone, Copy)]
pub struct Json {
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

/// `--no-board`.
#[derive(Args, Clone, Copy)]
pub struct NoBoard {
    /// Leave the board out of the text (--json always does)
    #[arg(long)]
    pub no_board: bool,
}

/// Which variant, and which table of it: `--variant`, `--table`, or both.
#[derive(Args, Clone)]
pub struct Source {
    /// The variant: nikoniko, nikoniko-12, hyper1, hyper2, hyper3, or your own as
    /// points=P:checkers=C[:faces=F][:home=H][:start=S]
    #[arg(long, value_name = "VARIANT", required_unless_present = "table")]
    pub variant: Option<String>,
    /// The table (default: the variant's, in the tables folder); a table knows its
    /// variant, so this alone is enough
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
}

/// The NikoNiko article's table.
#[derive(Args, Clone)]
pub struct ArticleTable {
    /// The equity table (default: nikoniko.tbl in the tables folder); its outcome table
    /// lies beside it
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
}

/// A position.
#[derive(Args, Clone)]
pub struct At {
    /// The position, the side on roll first: each side's points as a list (`24,23/24,23`,
    /// `bar` for the bar, borne-off checkers left out), an index, a gnubg Position ID or an XGID
    pub position: String,
}

/// A position and a roll.
#[derive(Args, Clone)]
pub struct AtRoll {
    #[command(flatten)]
    pub at: At,
    /// The roll: two dice of the variant's faces, as `6-5` or `3-3`
    pub roll: String,
}

/// `--timings`.
#[derive(Args, Clone, Copy)]
pub struct Timings {
    /// With --json, include the wall-clock timings (seconds) in the report; without it the
    /// same build prints the same bytes
    #[arg(long)]
    pub timings: bool,
}

/// `--quiet`.
#[derive(Args, Clone, Copy)]
pub struct Quiet {
    /// Hide the progress display
    #[arg(long)]
    pub quiet: bool,
}

/// The cube on the command line: a cube state in money play, or its value at a match
/// score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CubeArg {
    /// A money-play cube state: `owned`, `centred`, `centred-jacoby` (or `jacoby`),
    /// `opponent-owns` (or `opponent`).
    State(CubeState),
    /// At a match score: the cube's value.
    Value(u32),
}

/// Reads `--cube`: a state's name or a number.
pub fn parse_cube(text: &str) -> Result<CubeArg, String> {
    Ok(CubeArg::State(match text {
        "owned" => CubeState::Owned,
        "centred" | "centered" => CubeState::Centred,
        "centred-jacoby" | "jacoby" => CubeState::CentredJacoby,
        "opponent-owns" | "opponent" => CubeState::OpponentOwns,
        _ => match text.parse::<u32>() {
            Ok(v) => return Ok(CubeArg::Value(v)),
            Err(_) => {
                return Err(
                    "expected owned, centred, centred-jacoby, opponent-owns, or at a \
                            match score the cube's value (1, 2, 4, …)"
                        .to_string(),
                )
            }
        },
    }))
}

/// `count`.
#[derive(Args, Clone, Copy)]
pub struct CountArgs {
    #[command(flatten)]
    pub json: Json,
}

/// `show`.
#[derive(Args, Clone)]
pub struct ShowArgs {
    #[command(flatten)]
    pub at: At,
    #[command(flatten)]
    pub board: NoBoard,
    #[command(flatten)]
    pub json: Json,
}

/// `moves`.
#[derive(Args, Clone)]
pub struct MovesArgs {
    #[command(flatten)]
    pub at: AtRoll,
    #[command(flatten)]
    pub json: Json,
}

/// `equity`.
#[derive(Args, Clone)]
pub struct EquityArgs {
    #[command(flatten)]
    pub at: At,
    /// The cube: in money play the state whose decision to show (owned, centred,
    /// centred-jacoby, opponent-owns; with a cube table; default centred); at a match
    /// score its value (default 1)
    #[arg(long, value_name = "CUBE", value_parser = parse_cube)]
    pub cube: Option<CubeArg>,
    #[command(flatten)]
    pub json: Json,
}

/// `hint`.
#[derive(Args, Clone)]
pub struct HintArgs {
    #[command(flatten)]
    pub at: AtRoll,
    /// Rank the plays by the cubeful equity of this cube state (owned, centred,
    /// centred-jacoby, opponent-owns; needs a cube table), cubeless without it; at a
    /// match score, the cube's value
    #[arg(long, value_name = "CUBE", value_parser = parse_cube)]
    pub cube: Option<CubeArg>,
    #[command(flatten)]
    pub board: NoBoard,
    #[command(flatten)]
    pub json: Json,
}

/// `play`.
#[derive(Args, Clone, Copy)]
pub struct PlayArgs {
    /// Seed of the dice, to replay a game (default: from the clock; each game says its
    /// seed)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Let the table move first
    #[arg(long)]
    pub second: bool,
    /// Money play with the doubling cube (needs a cube table)
    #[arg(long)]
    pub cube: bool,
    #[command(flatten)]
    pub board: NoBoard,
}

/// Where the match tables lie: `--match-tables`.
#[derive(Args, Clone)]
pub struct MatchTables {
    /// The folder of the match tables, one a score (default: the tables folder)
    #[arg(long, value_name = "DIR")]
    pub match_tables: Option<PathBuf>,
}

/// A variant's match tables: `--variant` and `--match-tables`.
#[derive(Args, Clone)]
pub struct MatchSource {
    /// The variant: nikoniko, nikoniko-12, hyper1, hyper2, hyper3, or your own as
    /// points=P:checkers=C[:faces=F][:home=H][:start=S]
    #[arg(long, value_name = "VARIANT")]
    pub variant: String,
    #[command(flatten)]
    pub tables: MatchTables,
}

/// Who owns the cube at a match score.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OwnerArg {
    /// The side on roll
    #[value(name = "on-roll", alias = "me")]
    OnRoll,
    /// Its opponent
    Opponent,
}

/// The owner of a cube at a match score as the server's `owner` parameter spells it (the
/// command line's `--owner` words): `on-roll` (or `me`), `opponent`.
pub fn parse_owner(text: &str) -> Option<CubeOwner> {
    match text {
        "on-roll" | "me" => Some(CubeOwner::OnRoll),
        "opponent" => Some(CubeOwner::Opponent),
        _ => None,
    }
}

impl From<OwnerArg> for CubeOwner {
    fn from(o: OwnerArg) -> Self {
        match o {
            OwnerArg::OnRoll => CubeOwner::OnRoll,
            OwnerArg::Opponent => CubeOwner::Opponent,
        }
    }
}

/// A match score for `equity` and `hint`, the family's and the bear-off's: `--score`,
/// `--crawford`, `--owner`.
#[derive(Args, Clone)]
pub struct ScoreFlags {
    /// At a match score: the points the side on roll still needs, then its opponent's
    /// (`3-5`); values are then match-winning chances, and --cube takes the cube's value
    /// (an XGID of a match brings its own score)
    #[arg(long, value_name = "A-B")]
    pub score: Option<String>,
    /// At a score with a side one point away: the Crawford game (no doubling); without it
    /// a post-Crawford game
    #[arg(long, requires = "score")]
    pub crawford: bool,
    /// At a match score, who owns a cube of 2 or more
    #[arg(long, value_enum, requires = "score")]
    pub owner: Option<OwnerArg>,
}

impl ScoreFlags {
    /// Without `--score`, an XGID of a match position brings its own score, Crawford game,
    /// and (unless `--cube` is given) cube ([`XgidScore`]).
    pub fn or_from_xgid(&mut self, position: &str, cube: &mut Option<CubeArg>) {
        if self.score.is_some() {
            return;
        }
        let Some(x) = xgid_score(position) else {
            return;
        };
        self.score = Some(x.score);
        self.crawford = x.crawford;
        if cube.is_none() {
            *cube = Some(CubeArg::Value(x.cube));
            self.owner = x.owner.and_then(|o| match o {
                CubeOwner::OnRoll => Some(OwnerArg::OnRoll),
                CubeOwner::Opponent => Some(OwnerArg::Opponent),
                CubeOwner::Centred => None,
            });
        }
    }
}

/// What an XGID of a match position (a length above 0) says of the match: the score as
/// `A-B` (the points each side still needs), the Crawford game, the cube's value and its
/// owner. Both doors ask a question whose position is such an XGID, given without a
/// score, at this score; any other text gives none (a bad XGID is reported when the
/// position is read).
pub struct XgidScore {
    pub score: String,
    pub crawford: bool,
    pub cube: u32,
    pub owner: Option<CubeOwner>,
}

/// See [`XgidScore`].
pub fn xgid_score(position: &str) -> Option<XgidScore> {
    use tabula::gammon::gnubg::xgid;
    if !xgid::looks_like(position) {
        return None;
    }
    let x = xgid::parse(position).ok().filter(|x| x.length > 0)?;
    let need = |points: u32| x.length.saturating_sub(points);
    Some(XgidScore {
        score: format!("{}-{}", need(x.score[0]), need(x.score[1])),
        crawford: x.crawford,
        cube: x.cube,
        owner: Some(CubeOwner::from(x.owner)).filter(|&o| o != CubeOwner::Centred),
    })
}

/// The family's match score for `equity` and `hint`, with its match tables' folder.
#[derive(Args, Clone)]
pub struct ScoreArgs {
    #[command(flatten)]
    pub flags: ScoreFlags,
    #[command(flatten)]
    pub tables: MatchTables,
}

/// `met`.
#[derive(Args, Clone)]
pub struct MetArgs {
    /// The match length, 1 to 64 points
    #[arg(long, value_name = "N")]
    pub length: u32,
    /// Also write the table in gnubg's match-equity format (XML) to this file
    #[arg(long, value_name = "FILE")]
    pub gnubg: Option<PathBuf>,
    /// Compare with a match-equity table in gnubg's format (such as
    /// /usr/share/gnubg/met/Kazaross-XG2.xml)
    #[arg(long, value_name = "FILE")]
    pub compare: Option<PathBuf>,
    #[command(flatten)]
    pub quiet: Quiet,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub timings: Timings,
}

/// `score-build`.
#[derive(Args, Clone)]
pub struct ScoreBuildArgs {
    /// The score to solve, either side on roll first (`2-3`)
    #[arg(long, value_name = "A-B")]
    pub score: String,
    /// A side one point away: the Crawford game (else the post-Crawford game)
    #[arg(long)]
    pub crawford: bool,
    #[command(flatten)]
    pub quiet: Quiet,
    #[command(flatten)]
    pub json: Json,
    #[command(flatten)]
    pub timings: Timings,
}

/// `score-plan`.
#[derive(Args, Clone)]
pub struct ScorePlanArgs {
    /// The match length, 1 to 64 points
    #[arg(long, value_name = "N")]
    pub length: u32,
    /// The program the rules run
    #[arg(long, value_name = "PATH", default_value = "tabula")]
    pub program: String,
}

/// `play --match`.
#[derive(Args, Clone)]
pub struct MatchPlayArgs {
    /// Play a match to this many points (needs the match's tables: `gammon met`)
    #[arg(long = "match", value_name = "N")]
    pub length: Option<u32>,
    #[command(flatten)]
    pub tables: MatchTables,
}
