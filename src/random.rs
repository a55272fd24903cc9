//! The one source of randomness for every simulation: xoshiro256++ (`rand_xoshiro`), one
//! independent stream per chunk of work.
//!
//! A run is named by its seed. Work is cut into chunks (a block of games, one game) and
//! chunk `i` draws from `stream(seed, i)` alone, so what a run computes never depends on
//! how many threads share the chunks. The stream's state comes from ChaCha8 keyed by the
//! seed on stream `i`: distinct chunks get unrelated states, not overlapping sequences.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The generator every simulation draws from.
pub type Rng = rand_xoshiro::Xoshiro256PlusPlus;

/// The generator of chunk `index` of a run seeded with `seed`.
pub fn stream(seed: u64, index: u64) -> Rng {
    let mut chacha = ChaCha8Rng::seed_from_u64(seed);
    chacha.set_stream(index);
    let mut state = [0u8; 32];
    chacha.fill_bytes(&mut state);
    Rng::from_seed(state)
}

/// A uniform draw from `0..bound` (`bound` ≥ 1) by Lemire's nearly divisionless method:
/// exactly uniform, one multiplication on the fast path. (rand's own `gen_range` is
/// uniform too but draws a different stream; this one is fixed so recorded runs stay
/// reproducible.)
#[inline]
pub fn below(rng: &mut Rng, bound: u64) -> u64 {
    debug_assert!(bound >= 1);
    let mut m = u128::from(rng.next_u64()) * u128::from(bound);
    if (m as u64) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(bound);
        }
    }
    (m >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_depends_on_its_seed_and_index_only() {
        let a = stream(7, 0).next_u64();
        assert_eq!(a, stream(7, 0).next_u64());
        assert_ne!(a, stream(7, 1).next_u64());
        assert_ne!(a, stream(8, 0).next_u64());
    }

    #[test]
    fn draws_below_a_bound_are_uniform() {
        let mut rng = stream(1, 0);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut rng, 6) as usize] += 1;
        }
        // Each face 10,000 ± 5 standard deviations (about 91).
        for c in counts {
            assert!((9_545..=10_455).contains(&c), "{counts:?}");
        }
    }
}
