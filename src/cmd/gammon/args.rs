//! The arguments of the backgammon commands, declared once for both doors: `tabula gammon
//! … --variant V` and the article's presets `tabula nikoniko …`.

use clap::{Args, ValueEnum};
use std::path::PathBuf;
use tabula::gammon::CubeState;

/// `--json`.
#[derive(Args, Clone, Copy)]
pub struct Json {
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
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
    /// `bar` for the bar, borne-off checkers left out), an index, or a gnubg Position ID
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

/// The cube state on the command line.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CubeArg {
    /// The side on roll owns the cube
    Owned,
    /// The cube is in the centre
    Centred,
    /// In the centre, under the Jacoby rule (gammons count 1 until the cube is turned)
    #[value(name = "centred-jacoby", alias = "jacoby")]
    CentredJacoby,
    /// The opponent owns the cube
    #[value(name = "opponent-owns", alias = "opponent")]
    OpponentOwns,
}

impl From<CubeArg> for CubeState {
    fn from(c: CubeArg) -> Self {
        match c {
            CubeArg::Owned => CubeState::Owned,
            CubeArg::Centred => CubeState::Centred,
            CubeArg::CentredJacoby => CubeState::CentredJacoby,
            CubeArg::OpponentOwns => CubeState::OpponentOwns,
        }
    }
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
    /// The cube state whose decision to show (with a cube table)
    #[arg(long, value_enum, value_name = "STATE", default_value_t = CubeArg::Centred)]
    pub cube: CubeArg,
    #[command(flatten)]
    pub json: Json,
}

/// `hint`.
#[derive(Args, Clone)]
pub struct HintArgs {
    #[command(flatten)]
    pub at: AtRoll,
    /// Rank the plays by the cubeful equity of this cube state (needs a cube table);
    /// cubeless without it
    #[arg(long, value_enum, value_name = "STATE")]
    pub cube: Option<CubeArg>,
    #[command(flatten)]
    pub json: Json,
}

/// `play`.
#[derive(Args, Clone, Copy)]
pub struct PlayArgs {
    /// Seed of the dice
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Let the table move first
    #[arg(long)]
    pub second: bool,
    /// Money play with the doubling cube (needs a cube table)
    #[arg(long)]
    pub cube: bool,
}
