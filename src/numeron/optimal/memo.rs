//! What the search has proved, kept under the canonical image of each set: exact values and
//! lower bounds learnt from cut-offs (or, for the worst case, whether a depth suffices),
//! shared by every thread of a search, and the counters of a search.
//!
//! The memo is split in shards, each a hash map behind its own lock, chosen by the key's
//! hash: threads meet on the same lock only when their sets hash to the same shard, and a
//! lock is held only to look one key up or to store one. Every entry is a fact about its
//! set whoever wrote it, so two threads storing the same set keep the stronger fact
//! ([`Merge`]): a value over a bound, the larger of two bounds.
//!
//! Facts about large sets can be written out and read back ([`Memo::facts`],
//! [`Memo::learn`]): a search that stops (a budget, a killed process) and starts again
//! finds them where it left them, and a search split into jobs combines the jobs' facts.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// What is known of a set's value under a depth cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entry {
    /// The value.
    Exact(u32),
    /// A lower bound on it.
    Lower(u32),
}

/// How two facts about one key combine into the stronger one.
pub(super) trait Merge: Copy {
    fn merge(old: Self, new: Self) -> Self;
}

impl Merge for Entry {
    fn merge(old: Entry, new: Entry) -> Entry {
        match (old, new) {
            (Entry::Exact(v), _) | (_, Entry::Exact(v)) => Entry::Exact(v),
            (Entry::Lower(a), Entry::Lower(b)) => Entry::Lower(a.max(b)),
        }
    }
}

impl Merge for bool {
    fn merge(_: bool, new: bool) -> bool {
        new
    }
}

/// A fast hash for the memo's keys (sorted ranks): a multiply-rotate over 8-byte words.
#[derive(Default, Clone, Copy)]
pub(super) struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn add(&mut self, word: u64) {
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

/// A memo key: a depth cap (at most the set's size) and a set's canonical image, with its
/// hash computed once (it picks the shard and is the hash map's hash).
#[derive(Debug, Clone)]
pub(super) struct Key {
    hash: u64,
    depth: u32,
    set: Box<[u16]>,
}

impl Key {
    pub(super) fn new(depth: u32, set: Vec<u16>) -> Key {
        let mut h = WordHasher::default();
        h.write_u32(depth);
        h.write(bytemuck::cast_slice(&set));
        Key {
            hash: h.finish(),
            depth,
            set: set.into_boxed_slice(),
        }
    }

    /// The canonical image of the set.
    #[cfg(test)]
    fn set(&self) -> &[u16] {
        &self.set
    }
}

impl PartialEq for Key {
    fn eq(&self, o: &Key) -> bool {
        self.hash == o.hash && self.depth == o.depth && self.set == o.set
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Shards of a memo (a power of two).
const SHARDS: usize = 64;

type Shard<V> = HashMap<Key, V, BuildHasherDefault<WordHasher>>;

/// Facts about canonical sets, shared by the threads of a search.
pub(super) struct Memo<V> {
    shards: Box<[Mutex<Shard<V>>]>,
    /// About how many bytes the entries take ([`entry_bytes`]).
    bytes: AtomicU64,
}

/// About how many bytes an entry of `len` ranks takes: the ranks, the key, the map's slot
/// and the allocator's overhead.
fn entry_bytes(len: usize) -> u64 {
    2 * len as u64 + 64
}

impl<V: Merge> Default for Memo<V> {
    fn default() -> Self {
        Memo {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            bytes: AtomicU64::new(0),
        }
    }
}

impl<V: Merge> Memo<V> {
    fn shard(&self, key: &Key) -> MutexGuard<'_, Shard<V>> {
        let i = (key.hash >> 58) as usize % SHARDS;
        // A thread that panicked while holding the lock left the map whole (inserts are
        // single calls), so its contents are still facts.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What is known of `key`.
    pub(super) fn get(&self, key: &Key) -> Option<V> {
        self.shard(key).get(key).copied()
    }

    /// Learns `value` of `key`, kept with what was known ([`Merge`]).
    pub(super) fn insert(&self, key: Key, value: V) {
        let mut shard = self.shard(&key);
        match shard.get_mut(&key) {
            Some(old) => *old = V::merge(*old, value),
            None => {
                self.bytes
                    .fetch_add(entry_bytes(key.set.len()), Ordering::Relaxed);
                shard.insert(key, value);
            }
        }
    }

    /// About how many bytes the entries take.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Forgets the facts about sets of fewer than `min` candidates (they are found again
    /// when needed); the larger ones stay.
    pub(super) fn forget_below(&self, min: usize) {
        for s in self.shards.iter() {
            let mut shard = s.lock().unwrap_or_else(|e| e.into_inner());
            let before = shard.len();
            let mut freed = 0;
            shard.retain(|k, _| {
                let keep = k.set.len() >= min;
                if !keep {
                    freed += entry_bytes(k.set.len());
                }
                keep
            });
            if shard.len() < before / 2 {
                shard.shrink_to_fit();
            }
            self.bytes.fetch_sub(freed, Ordering::Relaxed);
        }
    }

    /// Number of keys.
    pub(super) fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len())
            .sum()
    }

    /// Every fact about a set of at least `min` candidates, in a fixed order (by depth,
    /// then size, then the canonical image).
    pub(super) fn facts(&self, min: usize) -> Vec<(Key, V)> {
        let mut out: Vec<(Key, V)> = Vec::new();
        for s in self.shards.iter() {
            let shard = s.lock().unwrap_or_else(|e| e.into_inner());
            out.extend(
                shard
                    .iter()
                    .filter(|(k, _)| k.set.len() >= min)
                    .map(|(k, &v)| (k.clone(), v)),
            );
        }
        out.sort_by(|a, b| {
            (a.0.depth, a.0.set.len(), &a.0.set).cmp(&(b.0.depth, b.0.set.len(), &b.0.set))
        });
        out
    }
}

/// Which memo a written fact belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Book {
    /// Least totals ([`Entry`]).
    Total = 0,
    /// Whether a depth suffices (`bool`).
    Feasible = 1,
    /// Fewest secrets at the last guess ([`Entry`]).
    Last = 2,
}

/// One fact as written: which memo, its key, and its value (`Exact` for `true` in the
/// memo of depths, `Lower` for `false`).
pub(super) type Fact = (Book, Key, Entry);

/// Words of a fact before its set: book and kind, depth, value (two words), size.
const FACT_HEAD: usize = 5;

/// Appends `fact` to `out`: the book (high byte) and the kind (low byte: 0 a value, 1 a
/// lower bound), the depth, the value (high word first), the set's size, and its ranks.
pub(super) fn encode(out: &mut Vec<u16>, (book, key, entry): &Fact) {
    let (kind, value) = match *entry {
        Entry::Exact(v) => (0u16, v),
        Entry::Lower(v) => (1u16, v),
    };
    out.extend_from_slice(&[
        (*book as u16) << 8 | kind,
        key.depth as u16,
        (value >> 16) as u16,
        value as u16,
        key.set.len() as u16,
    ]);
    out.extend_from_slice(&key.set);
}

/// The facts written by [`encode`] in `words`, for a space of `len` candidates; an error
/// naming the first word that is not part of a fact of such a space.
pub(super) fn decode(words: &[u16], len: usize, top: u32) -> Result<Vec<Fact>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let bad = |what: &str| format!("word {at} does not start a fact: {what}");
        let head = words
            .get(at..at + FACT_HEAD)
            .ok_or_else(|| bad("cut short"))?;
        let book = match head[0] >> 8 {
            0 => Book::Total,
            1 => Book::Feasible,
            2 => Book::Last,
            _ => return Err(bad("unknown book")),
        };
        let value = u32::from(head[2]) << 16 | u32::from(head[3]);
        let entry = match head[0] & 0xff {
            0 => Entry::Exact(value),
            1 => Entry::Lower(value),
            _ => return Err(bad("unknown kind")),
        };
        let (depth, n) = (u32::from(head[1]), usize::from(head[4]));
        let set = words
            .get(at + FACT_HEAD..at + FACT_HEAD + n)
            .ok_or_else(|| bad("its set is cut short"))?;
        if n == 0 || n > len || depth == 0 || depth as usize > n || value > top {
            return Err(bad("size, depth or value out of range"));
        }
        if set.windows(2).any(|w| w[0] >= w[1]) || set[n - 1] as usize >= len {
            return Err(bad("its set is not ascending ranks of the space"));
        }
        out.push((book, Key::new(depth, set.to_vec()), entry));
        at += FACT_HEAD + n;
    }
    Ok(out)
}

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

/// The counters the threads of a search share.
#[derive(Default)]
pub(super) struct Counters {
    pub(super) nodes: AtomicU64,
    pub(super) hits: AtomicU64,
}

impl Counters {
    /// Counts a node; returns the count.
    #[inline]
    pub(super) fn node(&self) -> u64 {
        self.nodes.fetch_add(1, Ordering::Relaxed) + 1
    }

    #[inline]
    pub(super) fn hit(&self) {
        self.hits.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_outlasts_a_bound_and_the_larger_bound_is_kept() {
        let memo: Memo<Entry> = Memo::default();
        let key = || Key::new(3, vec![1, 5, 9]);
        memo.insert(key(), Entry::Lower(7));
        memo.insert(key(), Entry::Lower(5));
        assert_eq!(memo.get(&key()), Some(Entry::Lower(7)));
        memo.insert(key(), Entry::Exact(8));
        memo.insert(key(), Entry::Lower(9));
        assert_eq!(memo.get(&key()), Some(Entry::Exact(8)));
        assert_eq!(memo.get(&Key::new(2, vec![1, 5, 9])), None);
        assert_eq!(memo.len(), 1);
        memo.insert(Key::new(4, vec![0, 1, 2, 3]), Entry::Exact(3));
        let facts = memo.facts(4);
        assert_eq!(facts.len(), 1);
        assert_eq!(facts[0].0.set(), [0, 1, 2, 3]);
        assert_eq!(memo.bytes(), entry_bytes(3) + entry_bytes(4));
        memo.forget_below(4);
        assert_eq!(memo.get(&key()), None);
        assert_eq!(memo.len(), 1);
        assert_eq!(memo.bytes(), entry_bytes(4));
    }

    #[test]
    fn facts_read_back_as_written_and_a_damaged_stream_is_refused() {
        let facts: Vec<Fact> = vec![
            (
                Book::Total,
                Key::new(3, vec![1, 5, 9]),
                Entry::Exact(70_000),
            ),
            (Book::Feasible, Key::new(2, vec![0, 7]), Entry::Lower(0)),
            (Book::Last, Key::new(4, vec![2, 3, 4, 8]), Entry::Lower(12)),
        ];
        let mut words = Vec::new();
        for f in &facts {
            encode(&mut words, f);
        }
        assert_eq!(decode(&words, 10, 1 << 30).unwrap(), facts);
        // Cut short, a rank outside the space, a value above the top.
        assert!(decode(&words[..words.len() - 1], 10, 1 << 30).is_err());
        assert!(decode(&words, 9, 1 << 30).is_err());
        assert!(decode(&words, 10, 60_000).is_err());
        let mut unsorted = words.clone();
        unsorted.swap(5, 6);
        assert!(decode(&unsorted, 10, 1 << 30)
            .unwrap_err()
            .contains("ascending"));
    }
}
