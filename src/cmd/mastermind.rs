//! `tabula mastermind analyze|trace|solve|play|optimum|next|race`: Numeron's commands on the
//! preset of Mastermind (4 pegs, 6 colours that may repeat), in its own words: colours
//! written 1-6 (or A-F), replies in black and white pegs (`docs/numeron.md`).

use super::numeron::{self, parse_strategy, NextArgs, PlayerArgs, RaceArgs};
use super::optimum::{self, BuildArgs, OptimumArgs, PlanArgs};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use tabula::numeron::{Rules, Strategy};
use tabula::Result;

#[derive(Subcommand)]
pub enum MastermindCmd {
    /// Play a strategy against every secret: exact distribution of the number of guesses
    #[command(
        after_help = "Example:\n  tabula mastermind analyze --strategy optimal --tree mastermind.txt"
    )]
    Analyze {
        #[command(flatten)]
        game: MastermindArgs,
        #[command(flatten)]
        player: PlayerArgs,
        /// Write the decision tree to this file (JSON when it ends in .json, else text)
        #[arg(long, value_name = "PATH")]
        tree: Option<PathBuf>,
        /// Hide the progress spinner
        #[arg(long)]
        quiet: bool,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Show a strategy's game against one secret, guess by guess
    #[command(after_help = "Example:\n  tabula mastermind trace --secret 3632 --strategy minimax")]
    Trace {
        /// The secret, e.g. 3632 or CFCB
        #[arg(long)]
        secret: String,
        #[command(flatten)]
        game: MastermindArgs,
        #[command(flatten)]
        player: PlayerArgs,
        /// Print one JSON document on stdout instead of text
        #[arg(long)]
        json: bool,
    },
    /// Interactive helper: it proposes guesses, you type the black and white pegs (`1 2` or `1B2W`)
    #[command(after_help = "Example:\n  tabula mastermind solve --strategy optimal")]
    Solve {
        #[command(flatten)]
        game: MastermindArgs,
        /// Strategy proposing the guesses
        #[arg(long, default_value = "entropy", value_parser = parse_strategy)]
        strategy: Strategy,
        /// Propose only guesses consistent with the pegs so far
        #[arg(long)]
        hard: bool,
        /// Allow the exact strategies on more than 2,000 codes (a search of minutes)
        #[arg(long)]
        long: bool,
    },
    /// Play against the program: it hides a code and answers your guesses in pegs
    #[command(after_help = "Example:\n  tabula mastermind play --seed 7")]
    Play {
        #[command(flatten)]
        game: MastermindArgs,
        /// Seed choosing the secret (random when absent)
        #[arg(long)]
        seed: Option<u64>,
    },
    /// The exact optimum of the whole game, with a progress bar, a time budget and
    /// checkpoints
    #[command(after_help = "Example:\n  tabula mastermind optimum --worst")]
    Optimum {
        #[command(flatten)]
        game: MastermindArgs,
        #[command(flatten)]
        optimum: OptimumArgs,
    },
    /// The optimum split into independent jobs: a Makefile, one rule a job
    #[command(
        name = "optimum-plan",
        after_help = "Example:\n  tabula mastermind optimum-plan --pegs 4 --folder jobs\n(a Makefile on stdout: save it as plan.mk, then run make -j 2 -f plan.mk)"
    )]
    OptimumPlan {
        #[command(flatten)]
        game: MastermindArgs,
        #[command(flatten)]
        plan: PlanArgs,
    },
    /// One job of optimum-plan: a class below a first guess, its facts written to a file
    #[command(
        name = "optimum-build",
        after_help = "Example:\n  tabula mastermind optimum-build --first 1123 --reply 1B1W --out u.tbl"
    )]
    OptimumBuild {
        #[command(flatten)]
        game: MastermindArgs,
        #[command(flatten)]
        build: BuildArgs,
    },
    /// The codes left after guesses and their pegs, and the strategy's next guess
    #[command(
        after_help = "Example:\n  tabula mastermind next --history 1122:1B0W,1344:0B2W --strategy optimal"
    )]
    Next {
        #[command(flatten)]
        game: MastermindArgs,
        #[command(flatten)]
        next: NextArgs,
    },
    /// Two players race (each guesses the other's code, first to all black pegs wins)
    #[command(after_help = "Example:\n  tabula mastermind race --first minimax --second optimal")]
    Race {
        #[command(flatten)]
        game: MastermindArgs,
        #[command(flatten)]
        race: RaceArgs,
    },
}

/// The board played.
#[derive(Args)]
pub struct MastermindArgs {
    /// Number of pegs in a code (1..=10)
    #[arg(long, default_value_t = 4)]
    pegs: usize,
    /// Number of colours K (1..=10), written 1 to K or A, B, … (letters only for 10)
    #[arg(long, value_name = "K", default_value_t = 6)]
    colours: usize,
}

impl MastermindArgs {
    fn rules(&self) -> Rules {
        Rules::mastermind(self.pegs, self.colours)
    }
}

pub fn run(cmd: MastermindCmd) -> Result<()> {
    match cmd {
        MastermindCmd::Analyze {
            game,
            player,
            tree,
            quiet,
            json,
        } => numeron::analyze(game.rules(), &player, tree, quiet, json),
        MastermindCmd::Trace {
            secret,
            game,
            player,
            json,
        } => numeron::run_trace(game.rules(), &player, &secret, json),
        MastermindCmd::Solve {
            game,
            strategy,
            hard,
            long,
        } => numeron::solve(game.rules(), strategy, hard, long),
        MastermindCmd::Play { game, seed } => numeron::play(game.rules(), seed),
        MastermindCmd::Optimum { game, optimum: o } => optimum::optimum(game.rules(), &o),
        MastermindCmd::OptimumPlan { game, plan } => optimum::plan(game.rules(), &plan),
        MastermindCmd::OptimumBuild { game, build } => optimum::build(game.rules(), &build),
        MastermindCmd::Next { game, next } => numeron::run_next(game.rules(), &next),
        MastermindCmd::Race { game, race } => numeron::run_race(game.rules(), &race),
    }
}
