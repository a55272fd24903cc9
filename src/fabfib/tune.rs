//! A search over the article strategy's parameters: one seat plays the article's
//! strategies with each setting of a grid against a fixed field of opponents, and the
//! settings are ranked by the games that seat wins.
//!
//! Every setting plays the same games of the run: game `g` draws from
//! `random::stream(seed, g)` and is started by seat `g mod players`, as in a simulation.
//! The settings thus meet the same deals (common random numbers, which sharpens the
//! comparison), and the report depends on the seed alone, not on the threads.

use super::rules::Rules;
use super::simulate::{check_games, play_games, RulesReport, MAX_GAMES};
use super::strategy::{parse_strategies, parse_strategy_with, ArticleParams};
use super::{Error, Result};
use crate::progress::Progress;
use crate::stats::wilson95;
use serde::Serialize;

/// The most settings one search may try.
pub const MAX_SETTINGS: usize = 10_000;

/// The values to try for each parameter; the grid is every combination.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// Poisson means of the made-up digits of a lie.
    pub mean: Vec<f64>,
    /// Poisson means of the extra rise.
    pub bump: Vec<f64>,
    /// Digits below which cards are thrown.
    pub keep: Vec<u8>,
    /// Spreads below which everything but 9s is thrown.
    pub spread: Vec<u8>,
    /// Doubt thresholds.
    pub doubt: Vec<f64>,
}

impl Default for Grid {
    /// The article's values with a step either side for the call and the doubt, the
    /// discard as the article has it: 27 settings.
    fn default() -> Self {
        Grid {
            mean: vec![3.0, 4.0, 5.0],
            bump: vec![0.1, 0.2, 0.4],
            keep: vec![6],
            spread: vec![4],
            doubt: vec![0.75, 0.85, 0.95],
        }
    }
}

impl Grid {
    /// Every setting, checked, in the order mean, bump, keep, spread, doubt (the last
    /// varying fastest).
    pub fn settings(&self) -> Result<Vec<ArticleParams>> {
        let sizes = [
            ("Poisson mean", self.mean.len()),
            ("bump", self.bump.len()),
            ("keep digit", self.keep.len()),
            ("spread", self.spread.len()),
            ("doubt threshold", self.doubt.len()),
        ];
        if let Some(&(name, _)) = sizes.iter().find(|(_, n)| *n == 0) {
            return Err(Error::NothingToTry { name });
        }
        let count = sizes
            .iter()
            .try_fold(1usize, |acc, (_, n)| acc.checked_mul(*n))
            .filter(|&c| c <= MAX_SETTINGS);
        if count.is_none() {
            return Err(Error::TooManySettings { max: MAX_SETTINGS });
        }
        let mut out = Vec::new();
        for &mean in &self.mean {
            for &bump in &self.bump {
                for &keep in &self.keep {
                    for &spread in &self.spread {
                        for &doubt in &self.doubt {
                            out.push(
                                ArticleParams {
                                    mean,
                                    bump,
                                    keep,
                                    spread,
                                    doubt,
                                }
                                .checked()?,
                            );
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

/// A search to run.
#[derive(Debug, Clone)]
pub struct Tuning {
    /// The rules; the player count is one more than the field.
    pub rules: Rules,
    /// The opponents, one strategy name per seat after the tuned one (the article's parts
    /// with the article's own parameters).
    pub field: String,
    /// The settings to try.
    pub grid: Grid,
    /// Games per setting.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
}

/// How one setting did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SettingResult {
    /// The parameters.
    #[serde(flatten)]
    pub params: ArticleParams,
    /// Games the tuned seat won.
    pub wins: u64,
    /// Wins / games.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_rate_ci95: [f64; 2],
}

/// What a search reports (the JSON of `fabfib tune`).
#[derive(Debug, Clone, Serialize)]
pub struct TuneReport {
    /// Games per setting.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// The rules (the tuned seat is player 1).
    pub rules: RulesReport,
    /// The opponents' strategies, players 2, 3, ….
    pub field: Vec<String>,
    /// Every setting, in grid order.
    pub settings: Vec<SettingResult>,
    /// The setting with the most wins (the first in grid order on a tie).
    pub best: SettingResult,
    /// The article's own setting, when the grid holds it.
    pub article: Option<SettingResult>,
}

/// Runs the search, reporting games done to `progress` (stage `"games"`).
pub fn tune(t: &Tuning, progress: Progress<'_>) -> Result<TuneReport> {
    let field = parse_strategies(&t.field)?;
    let rules = Rules {
        players: field.len() + 1,
        ..t.rules
    }
    .checked()?;
    let games = check_games(t.games)?;
    let settings = t.grid.settings()?;
    let total = games.saturating_mul(settings.len() as u64);
    if total > MAX_GAMES {
        return Err(Error::SearchTooLong {
            settings: settings.len(),
            games,
            total,
            max: MAX_GAMES,
        });
    }
    progress.start("games", Some(total));
    let mut results = Vec::with_capacity(settings.len());
    for params in settings {
        let mut seats = vec![parse_strategy_with("article", &params)?];
        seats.extend(parse_strategies(&t.field)?);
        let tally = play_games(&rules, &seats, games, t.seed, progress);
        let wins = tally.seats[0].wins;
        let (lo, hi) = wilson95(wins, games);
        results.push(SettingResult {
            params,
            wins,
            win_rate: wins as f64 / games as f64,
            win_rate_ci95: [lo, hi],
        });
    }
    progress.finish();
    let best = results
        .iter()
        .fold(None::<&SettingResult>, |b, r| match b {
            Some(b) if b.wins >= r.wins => Some(b),
            _ => Some(r),
        })
        .cloned()
        .expect("a grid has at least one setting");
    let article = results
        .iter()
        .find(|r| r.params == ArticleParams::default())
        .cloned();
    Ok(TuneReport {
        games,
        seed: t.seed,
        rules: RulesReport::from(&rules),
        field: field.iter().map(|s| s.name.clone()).collect(),
        settings: results,
        best,
        article,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabfib::simulate::Simulation;
    use crate::fabfib::strategy::parse_strategies_with;

    fn tuning(field: &str, grid: Grid, games: u64, seed: u64) -> Tuning {
        Tuning {
            rules: Rules::new(2).unwrap(),
            field: field.into(),
            grid,
            games,
            seed,
        }
    }

    fn single(params: ArticleParams) -> Grid {
        Grid {
            mean: vec![params.mean],
            bump: vec![params.bump],
            keep: vec![params.keep],
            spread: vec![params.spread],
            doubt: vec![params.doubt],
        }
    }

    #[test]
    fn a_setting_wins_exactly_what_a_simulation_with_those_parameters_wins() {
        // The field uses none of the article's parts, so a simulation that gives every
        // article part the setting plays the same games as the search.
        let grid = Grid {
            mean: vec![2.5, 4.0],
            bump: vec![0.2],
            keep: vec![5, 6],
            spread: vec![4],
            doubt: vec![0.85],
        };
        let report = tune(
            &tuning("honest/best/odds", grid, 3_000, 17),
            Progress::SILENT,
        )
        .unwrap();
        assert_eq!(report.settings.len(), 4);
        for r in &report.settings {
            let strategies = parse_strategies_with("article,honest/best/odds", &r.params).unwrap();
            let sim =
                Simulation::with_article(Rules::new(2).unwrap(), strategies, 3_000, 17, &r.params)
                    .unwrap();
            let tally = sim.run(Progress::SILENT);
            assert_eq!(r.wins, tally.seats[0].wins, "{:?}", r.params);
        }
        let most = report.settings.iter().map(|r| r.wins).max().unwrap();
        assert_eq!(report.best.wins, most);
        // The grid holds the article's own setting (mean 4, keep 6).
        assert_eq!(
            report.article.map(|a| a.params),
            Some(ArticleParams::default())
        );
    }

    #[test]
    fn the_articles_own_setting_against_itself_wins_half_the_two_player_games() {
        // Two identical players who alternate the start: each wins half the games; the
        // interval of 20,000 games must hold 1/2.
        let report = tune(
            &tuning("article", single(ArticleParams::default()), 20_000, 5),
            Progress::SILENT,
        )
        .unwrap();
        let a = report.article.expect("the grid is the article's setting");
        assert!(
            a.win_rate_ci95[0] <= 0.5 && 0.5 <= a.win_rate_ci95[1],
            "{a:?}"
        );
    }

    #[test]
    fn a_player_who_never_doubts_by_choice_loses_to_the_article() {
        // A threshold of 2 is above every doubt index (at most 1.6): only forced doubts.
        let never = ArticleParams {
            doubt: 2.0,
            ..ArticleParams::default()
        };
        let report = tune(
            &tuning("article", single(never), 4_000, 9),
            Progress::SILENT,
        )
        .unwrap();
        assert!(report.best.win_rate_ci95[1] < 0.5, "{:?}", report.best);
    }

    #[test]
    fn the_search_is_the_same_on_one_or_two_threads() {
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    let r = tune(
                        &tuning("article,odds", Grid::default(), 2_500, 3),
                        Progress::SILENT,
                    )
                    .unwrap();
                    serde_json::to_string(&r).unwrap()
                })
        };
        assert_eq!(run(1), run(2));
    }

    #[test]
    fn empty_lists_and_out_of_range_values_are_refused() {
        let mut grid = Grid::default();
        grid.doubt.clear();
        assert!(matches!(
            grid.settings(),
            Err(Error::NothingToTry {
                name: "doubt threshold"
            })
        ));
        let mut grid = Grid::default();
        grid.mean.push(-1.0);
        assert!(matches!(grid.settings(), Err(Error::Parameter { .. })));
        let huge = Grid {
            mean: vec![1.0; 100],
            bump: vec![0.1; 100],
            keep: vec![6; 2],
            ..Grid::default()
        };
        assert!(matches!(
            huge.settings(),
            Err(Error::TooManySettings { max: MAX_SETTINGS })
        ));
    }
}
