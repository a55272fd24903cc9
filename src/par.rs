//! Parallel loops over fixed chunks of an index range, with one copy of rayon's machinery
//! for the whole library.
//!
//! A `par_iter()` pipeline is a dozen generic functions of rayon's, compiled anew for
//! every closure it carries, and again for every instantiation of the generic function
//! around it: the solver's loops, generic over the stakes and the number of values a
//! state, made a third of the library's compiled code rayon's (issue 38's first-run
//! time). The loops here hand rayon one `dyn` closure a chunk, so its machinery is
//! compiled once; the caller's closure runs monomorphic inside each chunk, so a chunk's
//! loop is as fast as before.
//!
//! The chunks depend only on the length and the grain, never on the number of threads: a
//! reduction over [`map_chunks`]' results, in order, gives the same bits on any thread
//! count.

use rayon::prelude::*;
use std::ops::Range;

/// Indices a chunk holds by default: large enough that a call per chunk costs nothing,
/// small enough for the threads to share uneven work.
pub const GRAIN: usize = 4096;

/// Calls `f` on the consecutive ranges of `grain` indices (the last one shorter) that
/// cover `0..len`, in parallel, in no particular order.
pub fn for_ranges(len: usize, grain: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
    let grain = grain.max(1);
    let chunks = len.div_ceil(grain);
    if chunks <= 1 {
        if len > 0 {
            f(0..len);
        }
        return;
    }
    (0..chunks)
        .into_par_iter()
        .for_each(|c| f(c * grain..((c + 1) * grain).min(len)));
}

/// A pointer that threads may share because each writes only its own chunk.
struct Shared<T>(*mut T);
// SAFETY: `for_chunks_mut` hands each thread a disjoint part of the slice (`T: Send`).
unsafe impl<T: Send> Sync for Shared<T> {}

/// Calls `f(start, chunk)` on the consecutive chunks of `grain` elements of `s`, in
/// parallel; `start` is the index of the chunk's first element.
pub fn for_chunks_mut<T: Send>(s: &mut [T], grain: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    let base = Shared(s.as_mut_ptr());
    let base = &base;
    for_ranges(s.len(), grain, &|r: Range<usize>| {
        // SAFETY: the ranges are disjoint and lie within `s`, which is borrowed mutably
        // for the whole call.
        let chunk = unsafe { std::slice::from_raw_parts_mut(base.0.add(r.start), r.len()) };
        f(r.start, chunk)
    });
}

/// `(0..len).map(f).collect()`, computed in parallel.
pub fn collect<T: Send>(len: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    collect_in(len, GRAIN, f)
}

/// `f` of each of the consecutive ranges of `grain` indices covering `0..len`, computed in
/// parallel, in the ranges' order: what a deterministic reduction folds.
pub fn map_chunks<R: Send>(
    len: usize,
    grain: usize,
    f: impl Fn(Range<usize>) -> R + Sync,
) -> Vec<R> {
    let grain = grain.max(1);
    collect_in(len.div_ceil(grain), 1, |c| {
        f(c * grain..((c + 1) * grain).min(len))
    })
}

/// [`collect`] in chunks of `grain` indices.
fn collect_in<T: Send>(len: usize, grain: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(len);
    for_chunks_mut(
        &mut out.spare_capacity_mut()[..len],
        grain,
        |start, chunk| {
            for (i, slot) in chunk.iter_mut().enumerate() {
                slot.write(f(start + i));
            }
        },
    );
    // SAFETY: every one of the first `len` elements was written above (a panic in `f`
    // propagates before this line, and the written ones are leaked, not dropped twice).
    unsafe { out.set_len(len) };
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn the_ranges_cover_every_index_once() {
        for (len, grain) in [(0, 3), (1, 3), (7, 3), (9, 3), (10_000, 64), (5, 0)] {
            let seen: Vec<AtomicUsize> = (0..len).map(|_| AtomicUsize::new(0)).collect();
            for_ranges(len, grain, &|r| {
                assert!(r.len() <= grain.max(1) && !r.is_empty());
                for i in r {
                    seen[i].fetch_add(1, Ordering::Relaxed);
                }
            });
            assert!(
                seen.iter().all(|s| s.load(Ordering::Relaxed) == 1),
                "{len} {grain}"
            );
        }
    }

    #[test]
    fn collect_and_map_chunks_keep_the_order_on_any_thread_count() {
        let plain: Vec<u64> = (0..20_000u64).map(|i| i * i % 977).collect();
        let sums: Vec<u64> = plain.chunks(100).map(|c| c.iter().sum()).collect();
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                assert_eq!(collect(plain.len(), |i| plain[i]), plain);
                let got = map_chunks(plain.len(), 100, |r| plain[r].iter().sum::<u64>());
                assert_eq!(got, sums);
                let mut copy = vec![0u64; plain.len()];
                for_chunks_mut(&mut copy, 33, |start, chunk| {
                    for (i, v) in chunk.iter_mut().enumerate() {
                        *v = plain[start + i];
                    }
                });
                assert_eq!(copy, plain);
            });
        }
        assert!(collect(0, |i| i).is_empty());
        assert!(map_chunks(0, 10, |r| r.len()).is_empty());
    }

    #[test]
    fn values_that_own_memory_are_collected_whole() {
        let v = collect(5000, |i| vec![i; i % 5]);
        assert!(v
            .iter()
            .enumerate()
            .all(|(i, x)| x.len() == i % 5 && x.iter().all(|&y| y == i)));
    }
}
