//! Several players by Monte Carlo: real cards drawn and called, the independent check of
//! [`super::players`]. Seeded per chunk like [`super::simulate`].

use super::players::{check_players, check_us_drum, Cards};
use super::simulate::{in_chunks, Game, Times};
use super::{check_drum, Result, Run, Setup};
use crate::progress::Progress;
use crate::random::{self, Rng};

/// `first[n]`: games whose first win came on call `n`; `shared[n]`: of those, the games
/// where two or more cards won on that call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayersSample {
    /// How many games were played.
    pub games: u64,
    /// `first[n]`: games whose first win came on call `n`, for `n = 0..=M`.
    pub first: Vec<u64>,
    /// `shared[n]`: of the games in `first[n]`, those where two or more cards won on that call.
    pub shared: Vec<u64>,
    /// With `k` prizes: `prize[n]`, games where card 0 won a prize (or a share) on call n.
    pub prize: Vec<u64>,
    /// With `k` prizes: `last[n]`, games whose last prize went on call n.
    pub last: Vec<u64>,
    /// With `k` prizes: `split[n]`, of the games counted in `last[n]`, those where the last
    /// prize was split.
    pub split: Vec<u64>,
}

/// Simulates `run.games` games of `k` cards drawn by `cards` on the card, drum and
/// pattern of `setup`, reporting the games played to `progress`.
pub fn simulate_players(
    setup: &Setup,
    cards: Cards,
    k: u32,
    prizes: u32,
    run: &Run,
    progress: Progress<'_>,
) -> Result<PlayersSample> {
    let (card, max, pattern) = (&setup.card, setup.max, setup.pattern);
    let Run { games, seed } = *run;
    let s = card.size() as u64;
    check_drum(card, max)?;
    if cards == Cards::Us {
        check_us_drum(card, max)?;
    }
    check_players(k)?;
    super::prizes::check_prizes(k, prizes)?;
    let game = Game::new(card, pattern);
    // The numbered squares of each column, in bit order.
    let columns: Vec<Vec<u8>> = (0..card.size())
        .map(|j| {
            let mut m = card.column(j);
            let mut v = Vec::new();
            while m != 0 {
                v.push(m.trailing_zeros() as u8);
                m &= m - 1;
            }
            v
        })
        .collect();
    let width = max as usize + 1;
    let [first, shared, prize, last, split] = in_chunks(games, width, progress, |chunk, n| {
        let [mut prize, mut last, mut split] = [(); 3].map(|()| vec![0u64; width]);
        let mut by_call = vec![0u32; width];
        let mut rng = random::stream(seed, chunk);
        let mut first = vec![0u64; width];
        let mut shared = vec![0u64; width];
        let mut order: Vec<u8> = (0..max as u8).collect();
        let mut call_time = vec![0u8; max as usize];
        let mut time: Times = [0; 256];
        for _ in 0..n {
            // A uniform call order (Fisher–Yates); call_time[number] is 1-based.
            for i in (1..order.len()).rev() {
                let j = random::below(&mut rng, i as u64 + 1) as usize;
                order.swap(i, j);
            }
            for (t, &num) in order.iter().enumerate() {
                call_time[num as usize] = t as u8 + 1;
            }
            let (mut best, mut winners) = (u8::MAX, 0u32);
            let mut own = 0u8;
            for player in 0..k {
                let mut used = 0u128;
                match cards {
                    Cards::Uniform => {
                        for slot in time.iter_mut().take(card.numbered()) {
                            let v = distinct(&mut rng, max, &mut used, 0);
                            *slot = call_time[v as usize];
                        }
                    }
                    Cards::Us => {
                        let range = max / s;
                        for (j, squares) in columns.iter().enumerate() {
                            for &q in squares {
                                let v = distinct(&mut rng, range, &mut used, j as u64 * range);
                                time[q as usize] = call_time[v as usize];
                            }
                        }
                    }
                }
                let t = game.first_win_fast(&time);
                if player == 0 {
                    own = t;
                }
                if prizes > 1 {
                    by_call[usize::from(t)] += 1;
                }
                if t < best {
                    best = t;
                    winners = 1;
                } else if t == best {
                    winners += 1;
                }
            }
            first[best as usize] += 1;
            if winners >= 2 {
                shared[best as usize] += 1;
            }
            if prizes == 1 {
                prize[usize::from(own)] += u64::from(own == best);
                last[usize::from(best)] += 1;
                split[usize::from(best)] += u64::from(winners >= 2);
            } else {
                // The hall's rule, call by call.
                let mut left = prizes;
                for (call, j) in by_call.iter_mut().enumerate() {
                    if *j == 0 {
                        continue;
                    }
                    if usize::from(own) == call && left > 0 {
                        prize[call] += 1;
                    }
                    if *j >= left && left > 0 {
                        last[call] += 1;
                        split[call] += u64::from(*j > left);
                    }
                    left = left.saturating_sub(*j);
                    *j = 0;
                }
            }
        }
        [first, shared, prize, last, split]
    });
    Ok(PlayersSample {
        games,
        first,
        shared,
        prize,
        last,
        split,
    })
}

/// A value of `offset..offset + range` not yet in `used` (rejection), marked as used.
#[inline]
fn distinct(rng: &mut Rng, range: u64, used: &mut u128, offset: u64) -> u64 {
    loop {
        let v = offset + random::below(rng, range);
        if *used >> v & 1 == 0 {
            *used |= 1 << v;
            return v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bingo::card::{Card, Pattern};
    use crate::bingo::formula::formula_pmf;
    use crate::bingo::players::{uniform, UsModel};
    use crate::bingo::{exact_law, Method};
    use crate::stats::chi_square;

    fn agrees(sample: &PlayersSample, first: &[f64], shared: &[f64]) {
        let chi = chi_square(&sample.first, first);
        assert!(chi.p_value > 1e-4, "first-win law rejected: {chi:?}");
        let hits: u64 = sample.shared.iter().sum();
        let p: f64 = shared.iter().sum();
        let n = sample.games as f64;
        let sd = (p * (1.0 - p) / n).sqrt();
        assert!(
            (hits as f64 / n - p).abs() < 5.0 * sd + 1e-9,
            "shared: sample {} vs exact {p}",
            hits as f64 / n
        );
    }

    fn play(size: usize, max: u64, cards: Cards, k: u32, games: u64, seed: u64) -> PlayersSample {
        let setup = Setup::new(size, true, Some(max), Pattern::Line).unwrap();
        let run = Run { games, seed };
        simulate_players(&setup, cards, k, 1, &run, Progress::SILENT).unwrap()
    }

    #[test]
    fn the_us_card_law_for_several_players_matches_dealt_cards() {
        let card = Card::new(5, true).unwrap();
        let model = UsModel::new(&card, Pattern::Line, 75).unwrap();
        let exact = model.players(6).unwrap();
        let sample = play(5, 75, Cards::Us, 6, 40_000, 5);
        agrees(&sample, &formula_pmf(&exact.first.cdf), &exact.shared);
    }

    #[test]
    fn the_uniform_card_law_for_several_players_matches_dealt_cards() {
        let card = Card::new(3, true).unwrap();
        let single = exact_law(&card, Pattern::Line, 12, Method::Enumerate).unwrap();
        let exact = uniform(&single, 4).unwrap();
        let sample = play(3, 12, Cards::Uniform, 4, 60_000, 6);
        agrees(&sample, &formula_pmf(&exact.first.cdf), &exact.shared);
    }

    #[test]
    fn the_us_model_on_a_small_card_matches_dealt_cards_too() {
        // 3×3 with 12 numbers: columns of 4, the middle column holds 2 (free centre).
        let card = Card::new(3, true).unwrap();
        let model = UsModel::new(&card, Pattern::Line, 12).unwrap();
        let exact = model.players(3).unwrap();
        let sample = play(3, 12, Cards::Us, 3, 60_000, 7);
        agrees(&sample, &formula_pmf(&exact.first.cdf), &exact.shared);
    }
}
