//! The counting tables of the NikoNiko article (`docs/nikoniko.md`, "Counting"): how many
//! ways `n` checkers stand on `p` places (PNC), and the count vectors listed in the order
//! the article's `next_PN` produces them, each with its rank.

use super::Error;
use crate::rank::{pnc, Multisets, Ranker};
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
