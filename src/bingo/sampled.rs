//! The simulations behind `tabula bingo simulate` (one card or several players) and
//! `tabula bingo plot`, each beside the exact law it is tested against, as typed values.

use super::analysis::{players_law, support};
use super::formula::{formula_cdf, formula_pmf};
use super::players::{self, Cards, Players};
use super::players_sim::{simulate_players, PlayersSample};
use super::simulate::{simulate, Sample};
use super::{exact_law, serde_opt_fraction, Law, Method, Pattern, Result, Run, Setup};
use crate::progress::Progress;
use crate::stats::{chi_square, sample_mean, wilson95, ChiSquare};
use num_rational::BigRational;
use serde::Serialize;

/// One call `n` of a simulated law of one card.
#[derive(Debug, Clone, Serialize)]
pub struct SampleRow {
    /// The call `n`, from 0 to `M`.
    pub n: usize,
    /// Games first won on call `n`.
    pub count: u64,
    /// The share of games first won on call `n` (`count / games`).
    pub p: f64,
    /// The low end of the 95% Wilson interval of `p`.
    pub low: f64,
    /// The high end of the 95% Wilson interval of `p`.
    pub high: f64,
    /// P(T = n) by the exact law, when one of the exact methods reaches it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_p: Option<f64>,
    /// The same as a fraction: outer `None` without an exact law, inner `None` when it keeps
    /// no fractions.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "exact_fraction"
    )]
    pub exact_p_exact: Option<Option<BigRational>>,
}

fn exact_fraction<S: serde::Serializer>(
    q: &Option<Option<BigRational>>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    serde_opt_fraction::serialize(&q.clone().flatten(), s)
}

/// `tabula bingo simulate`: games of one card, tested against the exact law when one of
/// the exact methods reaches it.
#[derive(Debug, Clone, Serialize)]
pub struct SimulatedCard {
    /// The card, the drum and the pattern (written flat as `size`, `free`, `max`, `pattern`).
    #[serde(flatten)]
    pub setup: Setup,
    /// How many games, from which seed (written flat as `games`, `seed`).
    #[serde(flatten)]
    pub run: Run,
    /// The sample mean of `T`.
    pub mean: f64,
    /// One row per call `n = 0..=M`.
    pub distribution: Vec<SampleRow>,
    /// `E[T]` by the exact law, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_mean: Option<f64>,
    /// The chi-square test of the counts against the exact law, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chi_square: Option<ChiSquare>,
    /// The exact law, when one of the exact methods reaches it (not serialized).
    #[serde(skip)]
    pub exact: Option<Law>,
    /// The raw counts of the simulation (not serialized).
    #[serde(skip)]
    pub sample: Sample,
}

/// Plays `run.games` games of one card.
pub fn simulated_card(setup: &Setup, run: &Run, progress: Progress<'_>) -> Result<SimulatedCard> {
    let (card, max, pattern) = (&setup.card, setup.max, setup.pattern);
    run.check()?;
    let sample = simulate(card, pattern, max, run.games, run.seed, progress)?;
    // The exact law, where one of the exact methods reaches.
    let exact = exact_law(card, pattern, max, Method::Auto).ok();
    let chi = exact.as_ref().map(|l| {
        let probs: Vec<f64> = (0..=l.max()).map(|n| l.p(n)).collect();
        chi_square(&sample.counts, &probs)
    });
    let g = run.games as f64;
    let distribution = (0..=max as usize)
        .map(|n| {
            let (low, high) = wilson95(sample.counts[n], run.games);
            SampleRow {
                n,
                count: sample.counts[n],
                p: sample.counts[n] as f64 / g,
                low,
                high,
                exact_p: exact.as_ref().map(|l| l.p(n)),
                exact_p_exact: exact.as_ref().map(|l| l.p_exact(n)),
            }
        })
        .collect();
    Ok(SimulatedCard {
        setup: setup.clone(),
        run: *run,
        mean: sample_mean(&sample.counts),
        distribution,
        exact_mean: exact.as_ref().map(Law::mean),
        chi_square: chi,
        exact,
        sample,
    })
}

/// One call `n` of a simulated game of several players.
#[derive(Debug, Clone, Serialize)]
pub struct PlayersSampleRow {
    /// The call `n`, from 0 to `M`.
    pub n: usize,
    /// Games whose first win came on call `n`.
    pub count: u64,
    /// The share of games whose first win came on call `n` (`count / games`).
    pub p: f64,
    /// The low end of the 95% Wilson interval of `p`.
    pub low: f64,
    /// The high end of the 95% Wilson interval of `p`.
    pub high: f64,
    /// Of those, games where two or more cards won on that call.
    pub shared_count: u64,
    /// P(the first win comes on call n) by the exact law, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_p: Option<f64>,
}

/// `tabula bingo simulate --players K`: dealt cards, tested against the exact law.
#[derive(Debug, Clone, Serialize)]
pub struct SimulatedPlayers {
    /// The card, the drum and the pattern (written flat as `size`, `free`, `max`, `pattern`).
    #[serde(flatten)]
    pub setup: Setup,
    /// How many games, from which seed (written flat as `games`, `seed`).
    #[serde(flatten)]
    pub run: Run,
    /// `K`, the number of cards in play.
    pub players: u32,
    /// How the cards are dealt: US cards or uniform ones.
    pub cards: Cards,
    /// The sample mean of the first winning call.
    pub mean: f64,
    /// The share of games whose first win was shared.
    pub shared: f64,
    /// The low end of the 95% Wilson interval of `shared`.
    pub shared_low: f64,
    /// The high end of the 95% Wilson interval of `shared`.
    pub shared_high: f64,
    /// One row per call `n = 0..=M`.
    pub distribution: Vec<PlayersSampleRow>,
    /// The mean first winning call by the exact law, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_mean: Option<f64>,
    /// P(the first win is shared) by the exact law, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_shared: Option<f64>,
    /// The chi-square test of the first-win counts against the exact law, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chi_square: Option<ChiSquare>,
    /// With `--prizes k`: the prizes in the same games, beside the exact chances (written
    /// flat; absent without `--prizes`).
    #[serde(flatten)]
    pub prizes: Option<SimulatedPrizes>,
    /// The exact law of the `K` cards, when there is one (not serialized).
    #[serde(skip)]
    pub exact: Option<Players>,
    /// The raw counts of the simulation (not serialized).
    #[serde(skip)]
    pub sample: PlayersSample,
}

/// `tabula bingo simulate --players K --prizes k`: the prizes in the simulated games, each
/// share with its 95% Wilson interval, beside the exact chances of
/// [`super::prizes::prizes`] when they are reached.
#[derive(Debug, Clone, Serialize)]
pub struct SimulatedPrizes {
    /// `k`, the number of prizes.
    pub prizes: u32,
    /// The share of games in which a given player (card 0) won a prize or a share of one.
    pub chance: f64,
    /// The low end of the 95% Wilson interval of `chance`.
    pub chance_low: f64,
    /// The high end of the 95% Wilson interval of `chance`.
    pub chance_high: f64,
    /// The share of games whose last prize was split.
    pub split: f64,
    /// The low end of the 95% Wilson interval of `split`.
    pub split_low: f64,
    /// The high end of the 95% Wilson interval of `split`.
    pub split_high: f64,
    /// The sample mean of the call of the last prize.
    pub last_mean: f64,
    /// The exact chance of a prize (a float), when it is reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_chance: Option<f64>,
    /// The same as a fraction: outer `None` without an exact result, inner `None` when it
    /// keeps no fractions.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "exact_fraction"
    )]
    pub exact_chance_exact: Option<Option<BigRational>>,
    /// The exact chance that the last prize is split, when it is reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_split: Option<f64>,
    /// The same as a fraction (as `exact_chance_exact`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "exact_fraction"
    )]
    pub exact_split_exact: Option<Option<BigRational>>,
    /// The exact mean call of the last prize, when it is reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_last_mean: Option<f64>,
    /// The chi-square test of the calls of the last prize against their exact law.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_chi_square: Option<ChiSquare>,
}

/// Plays `run.games` games of `k` dealt cards (with `prizes`, also the hall's prizes).
pub fn simulated_players(
    setup: &Setup,
    run: &Run,
    k: u32,
    cards: Option<Cards>,
    prizes: Option<u32>,
    progress: Progress<'_>,
) -> Result<SimulatedPlayers> {
    let (card, max) = (&setup.card, setup.max);
    run.check()?;
    let cards = cards.unwrap_or_else(|| players::default_cards(card, max));
    // The number of prizes changes only what is counted, not the draws: the first-win
    // counts are the same with or without prizes.
    let sample = simulate_players(setup, cards, k, prizes.unwrap_or(1), run, progress)?;
    let prizes = prizes.map(|p| simulated_prizes(setup, cards, k, p, &sample));
    let exact = players_law(setup, k, cards).ok();
    let g = run.games as f64;
    let chi = exact.as_ref().map(|e| {
        let probs: Vec<f64> = (0..=max as usize).map(|n| e.first.p(n)).collect();
        chi_square(&sample.first, &probs)
    });
    let shared_hits: u64 = sample.shared.iter().sum();
    let (shared_low, shared_high) = wilson95(shared_hits, run.games);
    let distribution = (0..=max as usize)
        .map(|n| {
            let (low, high) = wilson95(sample.first[n], run.games);
            PlayersSampleRow {
                n,
                count: sample.first[n],
                p: sample.first[n] as f64 / g,
                low,
                high,
                shared_count: sample.shared[n],
                exact_p: exact.as_ref().map(|e| e.first.p(n)),
            }
        })
        .collect();
    Ok(SimulatedPlayers {
        setup: setup.clone(),
        run: *run,
        players: k,
        cards,
        mean: sample_mean(&sample.first),
        shared: shared_hits as f64 / g,
        shared_low,
        shared_high,
        distribution,
        exact_mean: exact.as_ref().map(|e| e.first.mean()),
        exact_shared: exact.as_ref().map(Players::shared_total),
        chi_square: chi,
        prizes,
        exact,
        sample,
    })
}

/// The prize block of a simulation of `k` cards and `prizes` prizes.
fn simulated_prizes(
    setup: &Setup,
    cards: Cards,
    k: u32,
    prizes: u32,
    sample: &PlayersSample,
) -> SimulatedPrizes {
    let games = sample.games;
    let g = games as f64;
    let won: u64 = sample.prize.iter().sum();
    let split: u64 = sample.split.iter().sum();
    let (chance_low, chance_high) = wilson95(won, games);
    let (split_low, split_high) = wilson95(split, games);
    let exact = super::prizes::prizes(setup, k, prizes, Some(cards), Progress::SILENT).ok();
    let chi = exact.as_ref().map(|e| {
        let probs: Vec<f64> = (0..=setup.max as usize).map(|n| e.last_law.p(n)).collect();
        chi_square(&sample.last, &probs)
    });
    SimulatedPrizes {
        prizes,
        chance: won as f64 / g,
        chance_low,
        chance_high,
        split: split as f64 / g,
        split_low,
        split_high,
        last_mean: sample_mean(&sample.last),
        exact_chance: exact.as_ref().map(|e| e.chance),
        exact_chance_exact: exact.as_ref().map(|e| e.chance_exact.clone()),
        exact_split: exact.as_ref().map(|e| e.split),
        exact_split_exact: exact.as_ref().map(|e| e.split_exact.clone()),
        exact_last_mean: exact.as_ref().map(|e| e.last.mean),
        last_chi_square: chi,
    }
}

/// What a curve of the figure shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Curve {
    /// The exact law.
    Exact,
    /// The article's approximate formula.
    Formula,
    /// A simulation of this many games.
    Simulation(u64),
}

/// One curve of the figure: what it is, its label and the points `(n, P(T = n))`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    /// What the curve shows (not serialized).
    #[serde(skip)]
    pub curve: Curve,
    /// The curve's label in the legend.
    pub label: String,
    /// The points `(n, P(T = n))`, over the calls where the exact law is not zero.
    pub points: Vec<(f64, f64)>,
}

/// The data of the article's figure: P(T = n) by the exact law, by the formula (line
/// pattern only) and by one simulation per entry of `games`, over the calls where the exact
/// law is not zero. The `i`-th simulation is seeded `seed + i`, so the samples are
/// independent and the first is the one `simulate` plays with `seed`.
pub fn figure(
    setup: &Setup,
    games: &[u64],
    seed: u64,
    progress: Progress<'_>,
) -> Result<Vec<Series>> {
    let (card, max, pattern) = (&setup.card, setup.max, setup.pattern);
    let runs: Vec<Run> = (0u64..)
        .zip(games)
        .map(|(i, &games)| Run {
            games,
            seed: seed.wrapping_add(i),
        })
        .collect();
    runs.iter().try_for_each(Run::check)?;
    let exact = exact_law(card, pattern, max, Method::Auto)?;
    let range = support(&exact);
    let mut series = vec![Series {
        curve: Curve::Exact,
        label: "exact".into(),
        points: range.clone().map(|n| (n as f64, exact.p(n))).collect(),
    }];
    if pattern == Pattern::Line {
        let f = formula_pmf(&formula_cdf(card, max));
        series.push(Series {
            curve: Curve::Formula,
            label: "seed's formula".into(),
            points: range.clone().map(|n| (n as f64, f[n])).collect(),
        });
    }
    for run in &runs {
        let sample = simulate(card, pattern, max, run.games, run.seed, progress)?;
        series.push(Series {
            curve: Curve::Simulation(run.games),
            label: format!("simulation, {} games", run.games),
            points: range
                .clone()
                .map(|n| (n as f64, sample.counts[n] as f64 / run.games as f64))
                .collect(),
        });
    }
    Ok(series)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figure_has_the_exact_law_the_formula_and_one_curve_per_sample_size() {
        let setup = Setup::new(3, true, Some(12), Pattern::Line).unwrap();
        let series = figure(&setup, &[1_000, 50_000, 2_000], 5, Progress::SILENT).unwrap();
        let curves: Vec<Curve> = series.iter().map(|s| s.curve).collect();
        assert_eq!(
            curves,
            [
                Curve::Exact,
                Curve::Formula,
                Curve::Simulation(1_000),
                Curve::Simulation(50_000),
                Curve::Simulation(2_000)
            ]
        );
        // Each simulated curve is a law over the same calls as the exact one, and the large
        // sample is close to it (within 5 standard errors at every call).
        let exact = &series[0].points;
        for s in &series[2..] {
            let total: f64 = s.points.iter().map(|p| p.1).sum();
            assert!((total - 1.0).abs() < 1e-12);
            assert_eq!(s.points.len(), exact.len());
        }
        for (e, s) in exact.iter().zip(&series[3].points) {
            let se = (e.1 * (1.0 - e.1) / 50_000.0).sqrt();
            assert!((e.1 - s.1).abs() < 5.0 * se + 1e-12, "n = {}", e.0);
        }
        // The samples are independent: the two small ones differ.
        assert_ne!(series[2].points, series[4].points);
        assert!(figure(&setup, &[10, 0], 5, Progress::SILENT).is_err());
    }
}
