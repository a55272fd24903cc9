//! Symmetry: a relabelling of the digits together with a permutation of the positions maps
//! candidates to candidates and keeps every answer, so it maps a candidate set to an
//! equivalent one (same optimal cost, same shape of decision tree).
//!
//! Two uses:
//! - [`Stabilizer`]: the symmetries that fix every guess made so far also fix the current
//!   candidate set, so two guesses in one orbit of that group are equally good; only the
//!   orbit's smallest rank (the tie-break winner) needs scoring.
//! - [`Canon`]: an image of a candidate set chosen so that equivalent sets usually get the
//!   same key; the memo of the exact search is keyed by it. Every key is an image of
//!   its set under a symmetry, so equal keys always mean equivalent sets (soundness does not
//!   depend on how often equivalent sets meet).

use super::rules::Space;

/// Permutations of positions tried in full up to this many positions (6! = 720).
const MAX_PERMUTED_POSITIONS: usize = 6;

/// All permutations of `0..n` (only the identity beyond six positions).
pub fn position_permutations(n: usize) -> Vec<Vec<usize>> {
    if n > MAX_PERMUTED_POSITIONS {
        return vec![(0..n).collect()];
    }
    let mut out = Vec::new();
    let mut p: Vec<usize> = (0..n).collect();
    heap_permutations(n, &mut p, &mut out);
    out.sort();
    out
}

fn heap_permutations(k: usize, p: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if k <= 1 {
        out.push(p.clone());
        return;
    }
    for i in 0..k {
        heap_permutations(k - 1, p, out);
        let j = if k.is_multiple_of(2) { i } else { 0 };
        p.swap(j, k - 1);
    }
}

/// The symmetries fixing every guess of a history: for each position permutation `π` that
/// can be completed, the forced relabelling of the digits the history uses; the digits it
/// never used ("free" digits) may be relabelled among themselves at will.
#[derive(Debug, Clone)]
pub struct Stabilizer {
    /// `(π, δ)`: position `p` goes to `π[p]`, used digit `d` to `δ[d]` (255 for free digits).
    maps: Vec<(Vec<usize>, [u8; 10])>,
    /// Free digits in ascending order.
    free: Vec<u8>,
    digits: usize,
    /// Whether codes may repeat a digit (then all dead digits are interchangeable at once).
    repeats: bool,
}

impl Stabilizer {
    /// The group fixing each of `history` (ranks in `space`).
    pub fn of_history(space: &Space, history: &[u32]) -> Stabilizer {
        let n = space.digits();
        let codes: Vec<Vec<u8>> = history.iter().map(|&g| space.digits_of(g)).collect();
        let mut used = [false; 10];
        for c in &codes {
            for &d in c {
                used[d as usize] = true;
            }
        }
        let free = (0..space.rules().alphabet as u8)
            .filter(|&d| !used[d as usize])
            .collect();
        let mut maps = Vec::new();
        'perm: for pi in position_permutations(n) {
            let mut delta = [255u8; 10];
            let mut image_used = [false; 10];
            for c in &codes {
                for p in 0..n {
                    let (from, to) = (c[p], c[pi[p]]);
                    match delta[from as usize] {
                        255 => {
                            if image_used[to as usize] {
                                continue 'perm;
                            }
                            delta[from as usize] = to;
                            image_used[to as usize] = true;
                        }
                        t if t != to => continue 'perm,
                        _ => {}
                    }
                }
            }
            maps.push((pi, delta));
        }
        Stabilizer {
            maps,
            free,
            digits: n,
            repeats: space.rules().repeats,
        }
    }

    /// True when the group is trivial (no reduction possible).
    pub fn is_trivial(&self) -> bool {
        self.maps.len() <= 1 && self.free.len() <= 1
    }

    /// Whether `digits` is the smallest (lexicographically, hence by rank) code among its
    /// images: under each symmetry of the group, followed by the relabelling of the `dead`
    /// digits (ascending; digits no candidate contains) in order of first appearance. When
    /// digits may repeat, every dead digit becomes the smallest one: a dead digit scores
    /// nothing, so a guess keeps its answers when one dead digit replaces another, even
    /// where that makes a digit repeat.
    pub fn is_orbit_minimum(&self, digits: &[u8], dead: &[u8]) -> bool {
        let n = self.digits;
        let mut image = [0u8; 10];
        let mut is_dead = [false; 10];
        for &d in dead {
            is_dead[d as usize] = true;
        }
        for (pi, delta) in &self.maps {
            let mut free_map = [255u8; 10];
            let mut next_free = 0;
            // Position q of the image receives the digit at position pi⁻¹(q).
            let mut src = [0usize; 10];
            for p in 0..n {
                src[pi[p]] = p;
            }
            for q in 0..n {
                let d = digits[src[q]];
                image[q] = if delta[d as usize] != 255 {
                    delta[d as usize]
                } else {
                    if free_map[d as usize] == 255 {
                        free_map[d as usize] = self.free[next_free];
                        next_free += 1;
                    }
                    free_map[d as usize]
                };
            }
            if !dead.is_empty() {
                let mut dead_map = [255u8; 10];
                let mut next_dead = 0;
                for slot in image.iter_mut().take(n) {
                    let d = *slot as usize;
                    if is_dead[d] && self.repeats {
                        *slot = dead[0];
                    } else if is_dead[d] {
                        if dead_map[d] == 255 {
                            dead_map[d] = dead[next_dead];
                            next_dead += 1;
                        }
                        *slot = dead_map[d];
                    }
                }
            }
            if image[..n] < *digits {
                return false;
            }
        }
        true
    }

    /// Whether the guess `g` is kept as the representative of its class of equally good
    /// guesses (see [`Stabilizer::representatives`]) for a set whose dead digits are `dead`.
    pub fn keeps(&self, space: &Space, g: u32, dead: &[u8]) -> bool {
        if self.is_trivial() && dead.len() <= 1 {
            return true;
        }
        self.is_orbit_minimum(&unpack(space.packed(g), self.digits)[..self.digits], dead)
    }

    /// One guess per class of equally good guesses among `guesses` (ascending ranks), for
    /// the candidates `set`: the smallest of each class is kept. Two guesses are equally
    /// good when a symmetry of the group maps one to the other, or when they differ only by
    /// a relabelling of dead digits (a dead digit scores nothing anywhere).
    pub fn representatives(&self, space: &Space, guesses: &[u32], set: &[u32]) -> Vec<u32> {
        let n = self.digits;
        let mut alive = 0u16;
        for &r in set {
            let p = space.packed(r);
            for i in 0..n {
                alive |= 1 << (p >> (4 * i) & 15);
            }
        }
        let dead: Vec<u8> = (0..space.rules().alphabet as u8)
            .filter(|&d| alive >> d & 1 == 0)
            .collect();
        if self.is_trivial() && dead.len() <= 1 {
            return guesses.to_vec();
        }
        guesses
            .iter()
            .copied()
            .filter(|&g| self.is_orbit_minimum(&unpack(space.packed(g), n)[..n], &dead))
            .collect()
    }
}

/// The digits of a packed code on the stack.
#[inline]
fn unpack(packed: u64, n: usize) -> [u8; 10] {
    let mut d = [0u8; 10];
    for (i, slot) in d.iter_mut().enumerate().take(n) {
        *slot = (packed >> (4 * i) & 15) as u8;
    }
    d
}

/// Canonical images of candidate sets under the symmetries, for the exact search's memo.
///
/// For a set, each position gets an invariant (its digits' counts, sorted); only the
/// position permutations that order the positions by that invariant are tried, since
/// equivalent sets have the same invariants in permuted order. Under each, the digits are
/// relabelled in the order of their per-position counts (ties by label) and the image's
/// ranks sorted; the smallest such list is the key. Every key is an image of its set under
/// a symmetry, so equal keys always mean equivalent sets.
#[derive(Debug, Clone)]
pub struct Canon {
    digits: usize,
    alphabet: usize,
    perms: Vec<Vec<usize>>,
    /// The rank of the code whose digits, read as a number in base `alphabet` with the
    /// leftmost position least significant, are the index (`u16::MAX`: not a code).
    rank_of_index: Vec<u16>,
}

impl Canon {
    /// The canonical images of `space`'s sets (at most 65,535 candidates).
    pub fn new(space: &Space) -> Canon {
        let n = space.digits();
        let a = space.rules().alphabet;
        let size = a.pow(n as u32);
        let mut rank_of_index = vec![u16::MAX; size];
        for r in 0..space.len() as u32 {
            let p = space.packed(r);
            let index = (0..n)
                .rev()
                .fold(0, |acc, i| acc * a + (p >> (4 * i) & 15) as usize);
            rank_of_index[index] = r as u16;
        }
        Canon {
            digits: n,
            alphabet: a,
            perms: position_permutations(n),
            rank_of_index,
        }
    }

    /// The canonical image of `set` (ranks in `space`), as sorted ranks.
    pub fn key(&self, space: &Space, set: &[u32]) -> Vec<u16> {
        let n = self.digits;
        let a = self.alphabet;
        let codes: Vec<[u8; 10]> = set.iter().map(|&r| unpack(space.packed(r), n)).collect();
        // count[p][d]: codes with digit d at position p; the invariant of p is that row sorted.
        let mut count = [[0u32; 10]; 10];
        for c in &codes {
            for p in 0..n {
                count[p][c[p] as usize] += 1;
            }
        }
        let mut invariant = count;
        for row in invariant.iter_mut().take(n) {
            row[..a].sort_unstable_by(|x, y| y.cmp(x));
        }
        let mut best: Option<Vec<u16>> = None;
        let mut key: Vec<u16> = Vec::with_capacity(set.len());
        let mut src = [0usize; 10];
        'perm: for pi in &self.perms {
            for p in 0..n {
                src[pi[p]] = p;
            }
            for q in 1..n {
                if invariant[src[q - 1]][..a] < invariant[src[q]][..a] {
                    continue 'perm;
                }
            }
            let mut order: Vec<usize> = (0..a).collect();
            order.sort_by(|&x, &y| {
                (0..n)
                    .map(|q| count[src[q]][y])
                    .cmp((0..n).map(|q| count[src[q]][x]))
                    .then(x.cmp(&y))
            });
            let mut label = [0usize; 10];
            for (new, &old) in order.iter().enumerate() {
                label[old] = new;
            }
            key.clear();
            key.extend(codes.iter().map(|c| {
                let index = (0..n)
                    .rev()
                    .fold(0, |acc, q| acc * a + label[c[src[q]] as usize]);
                self.rank_of_index[index]
            }));
            key.sort_unstable();
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key.clone());
            }
        }
        best.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::answer::answer;
    use super::super::rules::Rules;
    use super::*;

    #[test]
    fn with_no_history_every_guess_is_equivalent_to_the_first() {
        let space = Space::new(Rules::new(3)).unwrap();
        let all: Vec<u32> = (0..720).collect();
        let st = Stabilizer::of_history(&space, &[]);
        assert_eq!(st.representatives(&space, &all, &all), vec![0]);
    }

    #[test]
    fn after_012_guesses_fall_into_a_few_orbits_each_keeping_the_partition_shape() {
        let space = Space::new(Rules::new(3)).unwrap();
        let all: Vec<u32> = (0..720).collect();
        let st = Stabilizer::of_history(&space, &[0]);
        let reps = st.representatives(&space, &all, &all);
        // Orbits of S3 × S7 on guesses: by how many of 0,1,2 a guess uses and whether each
        // sits in its own place: 1 + 2 + 2·... small.
        assert!(reps.len() > 3 && reps.len() < 20, "{reps:?}");
        // Every guess's partition of the 012-classes matches its representative's multiset.
        let shape = |g: u32| {
            let mut v: Vec<(u8, u8)> = (0..720)
                .map(|s| {
                    let a = answer(&space, 0, s);
                    let b = answer(&space, g, s);
                    (a.code(3), b.code(3))
                })
                .collect();
            v.sort();
            let mut counts: Vec<usize> = v.chunk_by(|x, y| x == y).map(|c| c.len()).collect();
            counts.sort();
            counts
        };
        for g in (0..720).step_by(37) {
            let r = reps
                .iter()
                .copied()
                .find(|&r| shape(r) == shape(g))
                .expect("some representative has the same shape");
            assert!(r <= g);
        }
    }

    #[test]
    fn equivalent_sets_get_the_same_canonical_key() {
        let space = Space::new(Rules::new(3)).unwrap();
        let canon = Canon::new(&space);
        let set = |codes: &[&str]| -> Vec<u32> {
            let mut v: Vec<u32> = codes.iter().map(|c| space.parse(c).unwrap()).collect();
            v.sort();
            v
        };
        // Swap digits 1↔5 and reverse positions.
        let a = set(&["012", "034", "516"]);
        let b = set(&["250", "430", "651"]);
        assert_eq!(canon.key(&space, &a), canon.key(&space, &b));
        let c = set(&["012", "034", "561"]);
        assert_eq!(canon.key(&space, &c).len(), 3);
        assert_ne!(canon.key(&space, &a), canon.key(&space, &c));
    }
}
