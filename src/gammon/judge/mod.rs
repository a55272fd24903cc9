//! One judge for every stake (`docs/architecture.md`, "One judge"): what a play, a
//! position at a cube, and a finished game are worth under given stakes. Money play
//! through any [`Evaluator`](super::Evaluator) ([`Money`]), a match score through the
//! score's tables (`matchplay::judge::AtScore`) and the two-sided bear-off
//! (`bearoff::judge::Bearoff`) implement it; on it stand the one ranking of a roll's plays
//! ([`rank`]), the one cube rule ([`super::cube::decide`]) and the one game loop
//! (`super::game`).
//!
//! A caller that judges one decision of a game (a match file's analysis, say) asks the
//! judge of its stakes: [`rank`] for a play, [`Judge::cube`] for a cube decision.

mod money;

pub use money::{Money, MoneyWorth};

use super::cube::CubeAction;
use super::moves::{win_points, Generator, Play};
use super::{Error, Position, Roll, Variant};

/// What a play is worth to its mover, as plays are ranked.
pub trait Worth: Clone {
    /// The value the plays are ranked by (higher is better for the mover).
    fn key(&self) -> f64;

    /// The value that orders plays of the same key: the cubeless equity where there is
    /// one, else the key itself.
    fn tiebreak(&self) -> f64 {
        self.key()
    }
}

/// A match-winning chance.
impl Worth for f64 {
    fn key(&self) -> f64 {
        *self
    }
}

/// What a game is played for, and what its table says under those stakes. Values are
/// seen from the side on roll (for a play, its mover), higher better.
pub trait Judge {
    /// The cube as the side on roll sees it: a money cube state (none: cubeless), or the
    /// cube at a match score.
    type Cube: Copy;
    /// What a play is worth to its mover.
    type Worth: Worth;

    /// The variant played.
    fn variant(&self) -> &Variant;

    /// What a game won by `points` (1 a single game, 2 a gammon, 3 a backgammon) is worth
    /// to the winner, `cube` as the winner saw it on its turn.
    fn won(&self, points: u32, cube: Self::Cube) -> Self::Worth;

    /// What `next` (the opponent on roll after a play, with play left) is worth to the
    /// side that moved into it, `cube` as that side saw it: the opponent decides on the
    /// cube first.
    fn after(&self, next: &Position, cube: Self::Cube) -> Result<Self::Worth, Error>;

    /// The cube decision of the side on roll in `p` with `cube`, in the stakes' unit; none
    /// where these stakes have no cube decision there (cubeless, the Crawford game, a
    /// dead cube, no access at a match score).
    fn cube(&self, p: &Position, cube: Self::Cube) -> Result<Option<CubeAction>, Error>;

    /// A loss in the stakes' unit as an equity per unit of the cube (gnubg's normalised
    /// equity, which its marks and ratings read), with `cube` as the side that lost it
    /// saw it.
    fn normalised(&self, loss: f64, cube: Self::Cube) -> f64 {
        let _ = cube;
        loss
    }

    /// What `play` is worth to its mover.
    fn play(&self, play: &Play, cube: Self::Cube) -> Result<Self::Worth, Error> {
        if play.wins() {
            let points = win_points(self.variant(), play.after.them());
            return Ok(self.won(points, cube));
        }
        self.after(&play.after.swapped(), cube)
    }
}

/// A play judged: what it is worth, and what it loses against the best.
#[derive(Debug, Clone)]
pub struct Judged<W> {
    /// The play.
    pub play: Play,
    /// What it is worth to the mover.
    pub worth: W,
    /// What it gives up against the best play, in the key's unit (0 for the best).
    pub loss: f64,
}

/// The one ranking: every play of `roll` from `p`, best first by the judge's key, plays of
/// the same key by their tiebreak, plays alike in both in the generator's order. Empty
/// when the roll passes.
pub fn rank<J: Judge + ?Sized>(
    judge: &J,
    p: &Position,
    roll: Roll,
    cube: J::Cube,
) -> Result<Vec<Judged<J::Worth>>, Error> {
    let mut ranked = Vec::new();
    for play in Generator::new(judge.variant()).plays(p, roll) {
        if play.is_pass() {
            continue;
        }
        let worth = judge.play(&play, cube)?;
        ranked.push(Judged {
            play,
            worth,
            loss: 0.0,
        });
    }
    ranked.sort_by(|a, b| {
        (b.worth.key().total_cmp(&a.worth.key()))
            .then(b.worth.tiebreak().total_cmp(&a.worth.tiebreak()))
    });
    let best = ranked.first().map_or(0.0, |r| r.worth.key());
    for r in &mut ranked {
        r.loss = best - r.worth.key();
    }
    Ok(ranked)
}
