//! A literal transliteration of the seed's Python, on strings, kept as the second,
//! independent method the tests and `poker verify` check the fast code against.
//!
//! It works on `&str` with Python's semantics: `str.find` returns a *character* index or
//! -1, slices `x[i:i+1]` are one character (or empty past the end), and the right-place
//! tests go through the seed's lookup strings rather than `letter == position`.

use std::collections::HashMap;

/// Python's `haystack.find(needle)`: the character index of the first occurrence, or -1.
/// (Like Python, an empty needle is found at 0.)
pub fn py_find(haystack: &str, needle: &str) -> i64 {
    match haystack.find(needle) {
        Some(byte) => haystack[..byte].chars().count() as i64,
        None => -1,
    }
}

/// Python's `x[i:i+1]`: the `i`-th character as a string, empty past the end.
fn py_char(x: &str, i: usize) -> String {
    x.chars().skip(i).take(1).collect()
}

/// The seed's five lookups: `p[i] == 0` means position `i + 1` holds its right character.
fn lookups(x: &str) -> [i64; 5] {
    let c: Vec<String> = (0..5).map(|i| py_char(x, i)).collect();
    [
        py_find("大石泉すき", &c[0]),
        py_find("石泉すき", &c[1]).max(py_find("石大", &c[1])),
        py_find("泉すき", &c[2]).max(py_find("泉石大", &c[2])),
        py_find("すき", &c[3]).max(py_find("す泉石大", &c[3])),
        py_find("きす泉石大", &c[4]),
    ]
}

/// The seed's `calc_pos_score`.
pub fn calc_pos_score(x: &str) -> i64 {
    lookups(x).iter().filter(|&&p| p == 0).count() as i64
}

/// The seed's `calc_stroke_score`.
pub fn calc_stroke_score(x: &str) -> i64 {
    let weights = [3, 5, 9, 2, 4];
    lookups(x)
        .iter()
        .zip(weights)
        .map(|(&p, w)| if p == 0 { w } else { 0 })
        .sum()
}

/// The seed's `calc_stroke_not_score`. (A character outside the name, on which Python
/// would raise `KeyError`, counts 0 here.)
pub fn calc_stroke_not_score(x: &str) -> i64 {
    let strokes: HashMap<&str, i64> = [("大", 3), ("石", 5), ("泉", 9), ("す", 2), ("き", 4)]
        .into_iter()
        .collect();
    lookups(x)
        .iter()
        .enumerate()
        .map(|(i, &p)| if p != 0 { strokes.get(py_char(x, i).as_str()).copied().unwrap_or(0) } else { 0 })
        .sum()
}

/// The seed's `judge_hand`, with a counter of characters as in `collections.Counter`.
pub fn judge_hand(name: &str) -> i64 {
    let mut counter: HashMap<char, i64> = HashMap::new();
    for c in name.chars() {
        *counter.entry(c).or_default() += 1;
    }
    let counts: Vec<i64> = counter.values().copied().collect();
    if name == "大石泉すき" {
        0
    } else if counter.len() == 1 {
        1
    } else if counts.contains(&4) {
        2
    } else if counts.len() == 5 {
        3
    } else if counts.contains(&2) && counts.contains(&3) {
        4
    } else if name.contains("すき") {
        5
    } else if counts.contains(&3) {
        6
    } else if counts.contains(&2) && counts.len() == 3 {
        7
    } else {
        8
    }
}

/// The seed's final `compare_hand`: -1 when `a` is stronger, 1 when `b` is, 0 only for
/// identical hands. With `faithful_last_line`, a tie after all four rules answers 1 (the
/// seed's `return -1 if stroke1 < stroke2 else 1`, reached only with equal strokes, so
/// `compare(a, b) = compare(b, a) = 1`); without it, such a tie answers 0, which is the
/// version the seed counted its tied pairs with.
pub fn compare_hand(a: &str, b: &str, faithful_last_line: bool) -> i64 {
    if a == b {
        return 0;
    }
    // Each stage is evaluated only when the ones before it tie, as in the seed.
    let steps: [&dyn Fn() -> (i64, i64); 5] = [
        &|| (judge_hand(b), judge_hand(a)),
        &|| (py_find(a, "すき"), py_find(b, "すき")),
        &|| (calc_pos_score(a), calc_pos_score(b)),
        &|| (calc_stroke_score(a), calc_stroke_score(b)),
        &|| (calc_stroke_not_score(b), calc_stroke_not_score(a)),
    ];
    for step in steps {
        let (x, y) = step();
        if x != y {
            return if x > y { -1 } else { 1 };
        }
    }
    if faithful_last_line {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_find_counts_characters_not_bytes() {
        assert_eq!(py_find("大石泉すき", "すき"), 3);
        assert_eq!(py_find("大石泉すき", "大"), 0);
        assert_eq!(py_find("石大", "泉"), -1);
        assert_eq!(py_find("石大", ""), 0);
    }

    #[test]
    fn the_seeds_printed_tests_all_answer_minus_one() {
        // As in the seed, including its third pair with the typo 太, which is no card:
        // both strings judge as すき and the seed decides it by rule 1 (3 against 2).
        for (a, b) in [
            ("大石泉きす", "大石大石泉"),
            ("泉す泉すき", "大大泉石石"),
            ("す泉太すき", "泉泉すきす"),
            ("大石すき泉", "泉大すき石"),
            ("泉泉石きき", "大大石泉泉"),
            ("すき泉きす", "すき石石き"),
        ] {
            assert_eq!(compare_hand(a, b, true), -1, "{a} vs {b}");
        }
    }
}
