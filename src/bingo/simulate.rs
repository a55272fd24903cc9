//! Method 4: Monte Carlo, seeded and reproducible.
//!
//! One game needs only the call times of the card's numbered squares: the call order is a
//! uniform permutation of `1..=M`, so those times are `c` distinct values of `1..=M` in
//! uniform random order, drawn by rejection on a `u128` bit mask. Every pattern is "the
//! `m`-th smallest of some group completion times": a line is complete at the latest call
//! time of its squares (reach: the second latest), and `T` is the `m`-th smallest of those.
//!
//! Games are cut into chunks of [`CHUNK`]; chunk `i` draws from
//! `tabula::random::stream(seed, i)` alone (`docs/bingo.md`, Randomness), and the chunk
//! histograms are summed, so the result does not depend on the number of threads.
//!
//! The call times are the first `c` entries of a partial Fisher–Yates shuffle of `0..M`
//! (the array need not be reset between games: any permutation, partially shuffled, gives
//! a uniform ordered sample). Full lines — the common case — take a path specialised on the
//! line length, where the compiler unrolls the inner loop.

use super::card::{Card, Pattern};
use super::{check_drum, Result};
use crate::progress::Progress;
use crate::random::{self, Rng};
use rand::RngCore;
use rayon::prelude::*;

/// Games per chunk (per seeded generator).
pub const CHUNK: u64 = 1 << 16;

/// A finished simulation: `counts[n]` games first won on call `n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// How many games were played.
    pub games: u64,
    /// The seed the run was played from.
    pub seed: u64,
    /// `counts[n]`: games first won on call `n`, for `n = 0..=M`.
    pub counts: Vec<u64>,
}

/// The per-game work, compiled from the card and the pattern.
pub(crate) struct Game {
    /// Squares of each group, flattened; `ends[g]` closes group `g`.
    squares: Vec<u8>,
    ends: Vec<usize>,
    /// Which order statistic: the `need`-th smallest group time.
    need: usize,
    /// Reach: a group's time is its second-latest square.
    reach: bool,
    numbered: usize,
    /// For "at least `need` full lines" patterns: the groups padded to the card side with
    /// square [`PAD`], whose call time stays 0.
    padded: Option<Vec<[u8; 7]>>,
    side: usize,
    /// For `line`: the bit of each square of the grid, row by row ([`PAD`] for the free
    /// centre), so rows, columns and diagonals are read from one small grid.
    grid: Option<[u8; 49]>,
}

/// Call times indexed by square; indices past the card are scratch, and [`PAD`] stays 0.
pub(crate) type Times = [u8; 256];

/// A square index never used by a card nor by the shuffle (M ≤ 128); its time is 0.
const PAD: u8 = 255;

impl Game {
    pub(crate) fn new(card: &Card, pattern: Pattern) -> Game {
        let (masks, need) = card
            .groups(pattern)
            .unwrap_or_else(|| (card.lines().iter().map(|l| l.mask).collect(), 1));
        let mut squares = Vec::new();
        let mut ends = Vec::new();
        for mask in masks {
            let mut m = mask;
            while m != 0 {
                squares.push(m.trailing_zeros() as u8);
                m &= m - 1;
            }
            ends.push(squares.len());
        }
        let side = card.size();
        let padded = match pattern {
            Pattern::Line | Pattern::Double | Pattern::Triple | Pattern::Hardway => {
                let mut rows = Vec::new();
                let mut start = 0;
                for &end in &ends {
                    let mut row = [PAD; 7];
                    row[..end - start].copy_from_slice(&squares[start..end]);
                    rows.push(row);
                    start = end;
                }
                Some(rows)
            }
            _ => None,
        };
        let grid = (pattern == Pattern::Line).then(|| {
            let mut g = [PAD; 49];
            for r in 0..side {
                for c in 0..side {
                    g[r * side + c] = card.bit(r, c).map_or(PAD, |b| b as u8);
                }
            }
            g
        });
        Game {
            squares,
            ends,
            need,
            reach: pattern == Pattern::Reach,
            numbered: card.numbered(),
            padded,
            side,
            grid,
        }
    }

    /// T for `line`, side `S` known at compile time: the minimum over rows, columns and
    /// both diagonals of the latest call time, read from the grid in one pass.
    #[inline]
    fn first_win_grid<const S: usize>(grid: &[u8; 49], time: &Times) -> u8 {
        let mut g = [[0u8; S]; S];
        for (r, row) in g.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = time[usize::from(grid[r * S + c])];
            }
        }
        let mut best = u8::MAX;
        let mut cols = [0u8; S];
        let (mut down, mut up) = (0u8, 0u8);
        for (r, row) in g.iter().enumerate() {
            let mut latest = 0u8;
            for (col, &t) in cols.iter_mut().zip(row) {
                latest = latest.max(t);
                *col = (*col).max(t);
            }
            best = best.min(latest);
            down = down.max(row[r]);
            up = up.max(row[S - 1 - r]);
        }
        for col in cols {
            best = best.min(col);
        }
        best.min(down).min(up)
    }

    /// T for line patterns, the line length `W` known at compile time.
    #[inline]
    fn first_win_lines<const W: usize>(&self, rows: &[[u8; 7]], time: &Times) -> u8 {
        let latest = |row: &[u8; 7]| {
            let mut t = 0u8;
            for &q in &row[..W] {
                t = t.max(time[usize::from(q)]);
            }
            t
        };
        if self.need == 1 {
            return rows.iter().map(latest).min().unwrap_or(u8::MAX);
        }
        let mut group_times = [u8::MAX; 16];
        for (slot, row) in group_times.iter_mut().zip(rows) {
            *slot = latest(row);
        }
        let times = &mut group_times[..rows.len()];
        times.sort_unstable();
        times[self.need - 1]
    }

    /// T for the call times `time[square]` (1-based calls), by the fastest path.
    #[inline]
    pub(crate) fn first_win_fast(&self, time: &Times) -> u8 {
        if let Some(grid) = &self.grid {
            return match self.side {
                3 => Self::first_win_grid::<3>(grid, time),
                4 => Self::first_win_grid::<4>(grid, time),
                5 => Self::first_win_grid::<5>(grid, time),
                _ => Self::first_win_grid::<7>(grid, time),
            };
        }
        match (&self.padded, self.side) {
            (Some(rows), 3) => self.first_win_lines::<3>(rows, time),
            (Some(rows), 4) => self.first_win_lines::<4>(rows, time),
            (Some(rows), 5) => self.first_win_lines::<5>(rows, time),
            (Some(rows), 7) => self.first_win_lines::<7>(rows, time),
            _ => self.first_win(time),
        }
    }

    /// T for the call times `time[square]` (1-based calls).
    #[inline]
    pub(crate) fn first_win(&self, time: &Times) -> u8 {
        let mut group_times = [u8::MAX; 64];
        let mut start = 0;
        for (g, &end) in self.ends.iter().enumerate() {
            let (mut latest, mut second) = (0u8, 0u8);
            for &q in &self.squares[start..end] {
                let t = time[usize::from(q)];
                if t > latest {
                    second = latest;
                    latest = t;
                } else if t > second {
                    second = t;
                }
            }
            group_times[g] = if self.reach { second } else { latest };
            start = end;
        }
        let times = &mut group_times[..self.ends.len()];
        if self.need == 1 {
            return *times.iter().min().expect("a card has lines");
        }
        times.sort_unstable();
        times[self.need - 1]
    }
}

/// Simulates `games` games of one card with calls from `1..=max`, reporting the games
/// played to `progress` (stage `"games"`).
pub fn simulate(
    card: &Card,
    pattern: Pattern,
    max: u64,
    games: u64,
    seed: u64,
    progress: Progress<'_>,
) -> Result<Sample> {
    check_drum(card, max)?;
    let game = Game::new(card, pattern);
    let width = max as usize + 1;
    let [counts] = in_chunks(games, width, progress, |chunk, n| {
        [run_chunk(&game, max, seed, chunk, n, width)]
    });
    Ok(Sample {
        games,
        seed,
        counts,
    })
}

/// Plays `games` games cut into chunks of [`CHUNK`], in parallel: `play(chunk, n)` plays
/// the `n` games of chunk `chunk` into `H` histograms of `width` bins, which are summed.
/// Reports the games to `progress` (stage `"games"`).
pub(crate) fn in_chunks<const H: usize>(
    games: u64,
    width: usize,
    progress: Progress<'_>,
    play: impl Fn(u64, u64) -> [Vec<u64>; H] + Sync,
) -> [Vec<u64>; H] {
    progress.start("games", Some(games));
    let sums = (0..games.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let n = CHUNK.min(games - chunk * CHUNK);
            let hists = play(chunk, n);
            progress.advance(n);
            hists
        })
        .reduce(
            || std::array::from_fn(|_| vec![0u64; width]),
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x.iter_mut().zip(y).for_each(|(x, y)| *x += y);
                }
                a
            },
        );
    progress.finish();
    sums
}

fn run_chunk(game: &Game, max: u64, seed: u64, chunk: u64, n: u64, width: usize) -> Vec<u64> {
    let mut rng: Rng = random::stream(seed, chunk);
    let mut hist = vec![0u64; width];
    // Call times 1..=M in slots 0..M, partially shuffled in place game after game: after
    // the shuffle, slot q holds the call time of square q.
    let mut time: Times = [0; 256];
    for (slot, t) in time.iter_mut().zip(1..=max as u8) {
        *slot = t;
    }
    let c = game.numbered;
    let m = max as u32;
    for _ in 0..n {
        let mut i = 0;
        while i < c {
            // Two draws from one 64-bit word.
            let word = rng.next_u64();
            for half in [word as u32, (word >> 32) as u32] {
                if i < c {
                    if let Some(j) = lemire32(half, m - i as u32) {
                        time.swap(i, i + j as usize);
                        i += 1;
                    }
                }
            }
        }
        hist[usize::from(game.first_win_fast(&time))] += 1;
    }
    hist
}

/// Lemire's multiply-shift on one 32-bit word: a uniform value of `0..bound`, or `None`
/// on the rare rejection that keeps it exactly uniform (the caller draws again).
#[inline]
fn lemire32(x: u32, bound: u32) -> Option<u32> {
    let m = u64::from(x) * u64::from(bound);
    if (m as u32) < bound && (m as u32) < bound.wrapping_neg() % bound {
        return None;
    }
    Some((m >> 32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize, card: &Card, games: u64) -> Sample {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(card, Pattern::Line, 75, games, 42, Progress::SILENT).unwrap())
    }

    #[test]
    fn the_same_seed_gives_the_same_sample_on_one_or_two_threads() {
        let card = Card::new(5, true).unwrap();
        let one = pool(1, &card, 3 * CHUNK + 17);
        let two = pool(2, &card, 3 * CHUNK + 17);
        assert_eq!(one, two);
        assert_eq!(one.counts.iter().sum::<u64>(), 3 * CHUNK + 17);
    }

    #[test]
    fn different_seeds_give_different_samples() {
        let card = Card::new(5, true).unwrap();
        let a = simulate(&card, Pattern::Line, 75, 10_000, 1, Progress::SILENT).unwrap();
        let b = simulate(&card, Pattern::Line, 75, 10_000, 2, Progress::SILENT).unwrap();
        assert_ne!(a.counts, b.counts);
    }

    #[test]
    fn the_fast_game_agrees_with_the_plain_rules_on_random_call_times() {
        for (size, free) in [(3, true), (4, false), (5, true), (7, true)] {
            let card = Card::new(size, free).unwrap();
            let c = card.numbered();
            let mut draw = random::stream(9, 0);
            for p in Pattern::ALL {
                let game = Game::new(&card, p);
                for _ in 0..200 {
                    let mut time: Times = [0; 256];
                    let mut used = 0u128;
                    for slot in time.iter_mut().take(c) {
                        let v = loop {
                            let v = random::below(&mut draw, 100);
                            if used >> v & 1 == 0 {
                                break v;
                            }
                        };
                        used |= 1 << v;
                        *slot = v as u8 + 1;
                    }
                    // The plain way: mark squares call by call until the card wins.
                    let mut mask = 0u64;
                    let mut plain = 0u8;
                    for call in 0..=100u8 {
                        for (q, &t) in time.iter().enumerate().take(c) {
                            if t == call {
                                mask |= 1 << q;
                            }
                        }
                        if card.wins(p, mask) {
                            plain = call;
                            break;
                        }
                    }
                    assert_eq!(game.first_win(&time), plain, "{size} {p}");
                    assert_eq!(game.first_win_fast(&time), plain, "{size} {p}");
                }
            }
        }
    }

    #[test]
    fn lemire_draws_reject_only_the_biased_remainder() {
        // 2^32 mod 7 = 4 words must be rejected: those whose low product falls under 4.
        assert_eq!(lemire32(0, 7), None);
        assert_eq!(lemire32(u32::MAX, 7), Some(6));
        assert_eq!(lemire32(1 << 31, 7), Some(3));
        let rejected = (0..1u32 << 20)
            .filter(|&k| lemire32(k << 12, 7).is_none())
            .count();
        assert!(rejected <= 1, "{rejected}");
    }

    #[test]
    fn a_drum_too_small_or_too_large_is_refused() {
        let card = Card::new(5, true).unwrap();
        assert!(simulate(&card, Pattern::Line, 20, 10, 1, Progress::SILENT).is_err());
        assert!(simulate(&card, Pattern::Line, 200, 10, 1, Progress::SILENT).is_err());
    }
}
