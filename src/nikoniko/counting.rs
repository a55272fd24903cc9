//! The counting of the NikoNiko article (`docs/nikoniko.md`, "Counting (the article's own
//! tables)"): how many ways `n` checkers stand on `p` places (PNC), the count vectors
//! listed in the order the article's `next_PN` produces them, each with its rank, and the
//! article's checks of its state count and index ([`count`]).

use super::{Error, SIDE_VECTORS, STATES};
use crate::gammon::moves::{play_statistics, RollStats};
use crate::rank::{pnc, Multisets, Ranker};
use rayon::prelude::*;
use serde::Serialize;

/// The most vectors [`listing`] writes out.
pub const MAX_LISTING: u64 = 1_000_000;
/// The most entries [`pnc_table`] computes.
pub const MAX_TABLE: u64 = 1_000_000;

/// PNC(p, n) for every p in `1..=places` and n in `0..=checkers`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PncTable {
    /// The largest number of places (rows 1 to this).
    pub places: u32,
    /// The largest number of checkers (columns 0 to this).
    pub checkers: u32,
    /// `rows[p - 1][n]` = PNC(p, n).
    pub rows: Vec<Vec<u64>>,
}

/// One count vector of a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// Its rank: the number of vectors that come before it.
    pub rank: u64,
    /// Checkers on each place, place 0 (borne off, in the game) first.
    pub counts: Vec<u8>,
}

/// Every count vector of `checkers` checkers on `places` places, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listing {
    /// Places of a vector.
    pub places: u32,
    /// Checkers of a vector.
    pub checkers: u32,
    /// How many vectors there are: PNC(places, checkers).
    pub count: u64,
    /// The vectors, rank 0 (every checker on place 0) first.
    pub rows: Vec<Row>,
}

/// The PNC table up to `places` places and `checkers` checkers.
pub fn pnc_table(places: u32, checkers: u32) -> Result<PncTable, Error> {
    if places == 0 {
        return Err(Error::Counting(
            "a table needs at least one place".to_string(),
        ));
    }
    let entries = u64::from(places) * (u64::from(checkers) + 1);
    if entries > MAX_TABLE {
        return Err(Error::Counting(format!(
            "{entries} entries are too many for one table (at most {MAX_TABLE})"
        )));
    }
    let rows = (1..=places)
        .map(|p| {
            (0..=checkers)
                .map(|n| {
                    pnc(p, n).ok_or_else(|| {
                        Error::Counting(format!("PNC({p}, {n}) does not fit in 64 bits"))
                    })
                })
                .collect::<Result<Vec<u64>, Error>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PncTable {
        places,
        checkers,
        rows,
    })
}

/// Every vector of `checkers` checkers on `places` places, in the article's order.
pub fn listing(places: u32, checkers: u32) -> Result<Listing, Error> {
    // Sized before anything is built: the ranker's tables grow with the places.
    match pnc(places, checkers) {
        Some(count) if count <= MAX_LISTING => {}
        Some(count) => {
            return Err(Error::Counting(format!(
                "{count} vectors are too many to list (at most {MAX_LISTING})"
            )))
        }
        None => {
            return Err(Error::Counting(format!(
                "PNC({places}, {checkers}) vectors are too many to list (at most {MAX_LISTING})"
            )))
        }
    }
    let family =
        Multisets::new(places as usize, checkers).map_err(|e| Error::Counting(e.to_string()))?;
    let count = family.len();
    if count > MAX_LISTING {
        return Err(Error::Counting(format!(
            "{count} vectors are too many to list (at most {MAX_LISTING})"
        )));
    }
    let rows = family
        .iter()
        .enumerate()
        .map(|(rank, counts)| Row {
            rank: rank as u64,
            counts,
        })
        .collect();
    Ok(Listing {
        places,
        checkers,
        count,
        rows,
    })
}

/// The article's counts of the states, each by two methods.
#[derive(Debug, Clone, Serialize)]
pub struct Count {
    /// States enumerated in the article's order, each checked to round-trip through its
    /// index (index → position → index).
    pub states: u64,
    /// States counted the article's way, block by block (see
    /// [`crate::gammon::SeedIndex::count_like_the_article`]).
    pub seed_count: u64,
    /// One side's count vectors, all off included: the article's PNC(10, 5).
    pub side_vectors: u64,
    /// With the plays: for each roll, its plays, passes and wins over every state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plays: Option<Vec<RollStats>>,
}

/// Enumerates every state in the article's order and checks that the index of the k-th
/// is k and that unranking k gives it back; counts the states the article's way too; with
/// `plays`, generates the plays of every roll from every state and counts them. The
/// blocks of the index (one per side-on-roll vector) are checked in parallel.
pub fn count(plays: bool) -> Result<Count, Error> {
    let index = super::index();
    let variant = super::variant();
    let (states, stats) = (1..index.blocks())
        .into_par_iter()
        .map_init(Vec::new, |block_states, block| {
            block_states.clear();
            index.block_into(block, block_states);
            let start = index.block_start(block);
            for (k, p) in block_states.iter().enumerate() {
                let i = start + k as u64;
                if index.index(p) != i {
                    return Err(format!("state #{i} has index {}", index.index(p)));
                }
                if index.position(i).as_ref() != Some(p) {
                    return Err(format!("index {i} does not unrank to state #{i}"));
                }
            }
            let stats = plays.then(|| play_statistics(&variant, block_states));
            Ok((block_states.len() as u64, stats))
        })
        .try_reduce(
            || (0, None),
            |a, b| Ok((a.0 + b.0, RollStats::merge(a.1, b.1))),
        )
        .map_err(Error::Index)?;
    let count = Count {
        states,
        seed_count: index.count_like_the_article(),
        side_vectors: index.side_vectors(),
        plays: stats,
    };
    if (count.states, count.seed_count, count.side_vectors) != (STATES, STATES, SIDE_VECTORS) {
        return Err(Error::Index(format!(
            "{} states enumerated, {} counted, {} side vectors: the article has {STATES} \
             and {SIDE_VECTORS}",
            count.states, count.seed_count, count.side_vectors
        )));
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The article's recursion, transcribed: PNC(1, n) = PNC(p, 0) = 1, else
    /// PNC(p - 1, n) + PNC(p, n - 1).
    fn recursive(p: u32, n: u32) -> u64 {
        if p == 1 || n == 0 {
            1
        } else {
            recursive(p - 1, n) + recursive(p, n - 1)
        }
    }

    /// The article's `next_PN`, transcribed: the vector after `v`, or `None` after the last.
    fn next_pn(v: &mut [u8]) -> bool {
        if v[0] > 0 {
            v[0] -= 1;
            v[1] += 1;
            return true;
        }
        let mut i = 1;
        loop {
            if i == v.len() - 1 {
                return false;
            }
            if v[i] != 0 {
                break;
            }
            i += 1;
        }
        v[i + 1] += 1;
        v[0] = v[i] - 1;
        v[i] = 0;
        true
    }

    #[test]
    fn the_table_agrees_with_the_articles_recursion() {
        let t = pnc_table(10, 5).unwrap();
        for p in 1..=10u32 {
            for n in 0..=5u32 {
                assert_eq!(
                    t.rows[p as usize - 1][n as usize],
                    recursive(p, n),
                    "{p} {n}"
                );
            }
        }
        assert_eq!(t.rows[9][5], 2002);
    }

    #[test]
    fn the_listing_follows_next_pn_step_by_step() {
        for (places, checkers) in [(4u32, 2u32), (10, 5), (3, 7), (1, 4)] {
            let listing = listing(places, checkers).unwrap();
            let mut v = vec![0u8; places as usize];
            v[0] = checkers as u8;
            let mut expected = vec![v.clone()];
            while places > 1 && next_pn(&mut v) {
                expected.push(v.clone());
            }
            let got: Vec<Vec<u8>> = listing.rows.iter().map(|r| r.counts.clone()).collect();
            assert_eq!(got, expected, "{places} places, {checkers} checkers");
            assert_eq!(listing.count, expected.len() as u64);
        }
    }

    #[test]
    fn the_articles_states_round_trip_and_its_rolls_play_as_the_readme_counts() {
        let c = count(true).unwrap();
        assert_eq!(
            (c.states, c.seed_count, c.side_vectors),
            (STATES, STATES, 2002)
        );
        let rows: Vec<(String, u64, u64, u64)> = c
            .plays
            .unwrap()
            .iter()
            .map(|s| (s.roll.to_string(), s.plays, s.passes, s.wins))
            .collect();
        // Every state passes on 0-0; a win needs a die that moves.
        assert_eq!(rows[0], ("0-0".to_string(), STATES, STATES, 0));
        assert_eq!(rows.len(), 6);
        assert_eq!(rows[4], ("1-2".to_string(), 3_964_224, 3_250, 6_760));
    }

    #[test]
    fn too_large_a_request_is_refused_not_attempted() {
        assert!(pnc_table(0, 3).is_err());
        assert!(pnc_table(200, 200).is_err());
        assert!(pnc_table(2_424_242_424, 0).is_err());
        assert!(listing(30, 30).is_err());
        // Found by the fuzz script: refused before the ranker allocates its tables.
        assert!(listing(1_212_121_212, 5).is_err());
        assert!(listing(2_000_000, 1).is_err());
    }
}
