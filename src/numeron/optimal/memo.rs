//! What the search has proved, kept under the canonical image of each set: exact values and
//! lower bounds learnt from cut-offs, and the counters of a search.

use super::{Objective, Search};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Debug, Clone, Copy)]
pub(super) enum Entry {
    Exact(u32),
    Lower(u32),
}

/// A fast hash for the memo's keys (sorted ranks): a multiply-rotate over 8-byte words.
#[derive(Default, Clone, Copy)]
pub(super) struct WordHasher(u64);

impl WordHasher {
    #[inline]
    pub(super) fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }

    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// Memo keys: (depth cap, at most the set's size; the set's canonical image).
pub(super) type Memo<V> = HashMap<(u32, Box<[u16]>), V, BuildHasherDefault<WordHasher>>;

/// Counters of one search, for the report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls of the cost function that were not answered by a shortcut.
    pub nodes: u64,
    /// Entries in the memo.
    pub memo: u64,
    /// Memo hits that settled a node.
    pub hits: u64,
}

impl std::ops::Add for Stats {
    type Output = Stats;

    fn add(self, o: Stats) -> Stats {
        Stats {
            nodes: self.nodes + o.nodes,
            memo: self.memo + o.memo,
            hits: self.hits + o.hits,
        }
    }
}

impl Search<'_> {
    /// A node's key in the memos: its depth cap (no more than its size matters) and the
    /// canonical image of its set.
    pub(super) fn memo_key(&self, set: &[u32], depth: u32) -> (u32, Box<[u16]>) {
        (
            depth.min(set.len() as u32),
            self.tables
                .canon
                .key(self.oracle.space, set)
                .into_boxed_slice(),
        )
    }

    /// The memo of `objective`'s values.
    pub(super) fn memo(&mut self, objective: Objective) -> &mut Memo<Entry> {
        match objective {
            Objective::Total => &mut self.memo,
            Objective::Last => &mut self.last_memo,
        }
    }
}
