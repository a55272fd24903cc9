//! The bounded cache of verified blocks that long-lived readers share
//! ([`super::Table::open_cached`]; `docs/table-format.md`, "Two readers").
//!
//! A block enters the cache only after it has matched its stored sum, so whatever the
//! file does afterwards, what is served from the cache is the table as it was opened.
//! The cache holds at most its budget of block bytes, in shards that each evict by the
//! clock rule (a block read since the hand last passed gets a second chance), so a hit
//! takes one uncontended lock and no allocation.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Shards of the cache: a lock each, so that threads reading different blocks rarely
/// meet.
const SHARDS: usize = 16;

/// The budget of [`Cache::shared`], in bytes: the process's one cache for its long-lived
/// tables (a server, a game).
pub const SHARED_BUDGET: usize = 256 << 20;

/// A bounded cache of verified blocks, shared by the tables opened with it. Cloning it
/// gives another handle to the same cache.
#[derive(Clone)]
pub struct Cache {
    inner: std::sync::Arc<Inner>,
}

struct Inner {
    shards: Box<[Mutex<Shard>]>,
    /// Bytes each shard may hold.
    shard_budget: usize,
}

#[derive(Default)]
struct Shard {
    blocks: HashMap<Key, Slot>,
    /// The clock: keys in the order they entered, the hand at the front.
    clock: VecDeque<Key>,
    bytes: usize,
}

struct Slot {
    data: Box<[u8]>,
    /// Read since the hand last passed.
    used: bool,
}

/// A block of an open table: the table's number in this process, the block's.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub table: u64,
    pub block: u64,
}

/// Numbers the tables opened in this process, so that a table opened again (a file
/// replaced by a rebuild) never meets the blocks of the old one.
static NEXT_TABLE: AtomicU64 = AtomicU64::new(0);

pub(crate) fn next_table() -> u64 {
    NEXT_TABLE.fetch_add(1, Ordering::Relaxed)
}

impl Cache {
    /// A cache of at most `budget` bytes of blocks (at least one block a shard is kept,
    /// whatever the budget).
    pub fn new(budget: usize) -> Cache {
        Cache {
            inner: std::sync::Arc::new(Inner {
                shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
                shard_budget: budget / SHARDS,
            }),
        }
    }

    /// The process's cache, of [`SHARED_BUDGET`] bytes.
    pub fn shared() -> &'static Cache {
        static SHARED: OnceLock<Cache> = OnceLock::new();
        SHARED.get_or_init(|| Cache::new(SHARED_BUDGET))
    }

    /// The most bytes of blocks it holds.
    pub fn budget(&self) -> usize {
        self.inner.shard_budget * SHARDS
    }

    /// The bytes of blocks held now.
    pub fn bytes(&self) -> usize {
        self.inner.shards.iter().map(|s| lock(s).bytes).sum()
    }

    fn shard(&self, key: Key) -> &Mutex<Shard> {
        // Fibonacci hashing of the two numbers: neighbouring blocks land in different
        // shards.
        let h = (key.table.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key.block)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.inner.shards[(h >> 60) as usize % SHARDS]
    }

    /// Runs `f` on the block of `key` if it is held.
    pub(crate) fn with<R>(&self, key: Key, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        let mut shard = lock(self.shard(key));
        let slot = shard.blocks.get_mut(&key)?;
        slot.used = true;
        Some(f(&slot.data))
    }

    /// Keeps `data`, a verified block, evicting others as the budget needs.
    pub(crate) fn insert(&self, key: Key, data: Box<[u8]>) {
        let budget = self.inner.shard_budget;
        let mut shard = lock(self.shard(key));
        let shard = &mut *shard;
        if shard.blocks.contains_key(&key) {
            return;
        }
        while shard.bytes + data.len() > budget {
            let Some(old) = shard.clock.pop_front() else {
                break;
            };
            match shard.blocks.get_mut(&old) {
                Some(slot) if slot.used => {
                    slot.used = false;
                    shard.clock.push_back(old);
                }
                Some(_) => {
                    let slot = shard.blocks.remove(&old).expect("present");
                    shard.bytes -= slot.data.len();
                }
                None => {}
            }
        }
        shard.bytes += data.len();
        shard.clock.push_back(key);
        shard.blocks.insert(key, Slot { data, used: false });
    }

    /// Drops every block of table `table` (a table closed).
    pub(crate) fn forget(&self, table: u64) {
        for shard in self.inner.shards.iter() {
            let mut shard = lock(shard);
            let shard = &mut *shard;
            let before = shard.blocks.len();
            shard.blocks.retain(|k, slot| {
                let keep = k.table != table;
                if !keep {
                    shard.bytes -= slot.data.len();
                }
                keep
            });
            if shard.blocks.len() != before {
                shard.clock.retain(|k| k.table != table);
            }
        }
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("budget", &(self.inner.shard_budget * SHARDS))
            .field("bytes", &self.bytes())
            .finish()
    }
}

/// A shard's lock; a panic while it was held leaves a consistent shard (every change is
/// made after the last call that can panic), so a poisoned lock is taken as is.
fn lock(m: &Mutex<Shard>) -> std::sync::MutexGuard<'_, Shard> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_keeps_to_its_budget_and_gives_a_read_block_a_second_chance() {
        let cache = Cache::new(SHARDS * 4096);
        let key = |block| Key { table: 7, block };
        for b in 0..1000 {
            cache.insert(key(b), vec![b as u8; 1024].into_boxed_slice());
            assert!(cache.bytes() <= SHARDS * 4096);
            // Block 0 is read after every insertion: it is never the one evicted.
            assert_eq!(cache.with(key(0), |d| d[0]), Some(0));
        }
        assert!(cache.with(key(999), |d| d[0]).is_some());
        assert!(cache.with(key(1), |_| ()).is_none());
        cache.forget(7);
        assert_eq!(cache.bytes(), 0);
        assert!(cache.with(key(0), |_| ()).is_none());
    }
}
