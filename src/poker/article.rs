//! A literal transliteration of the article's Python, on strings, kept as the second,
//! independent method the tests and `poker verify` check the fast code against.
//!
//! It works on `&str` with Python's semantics: `str.find` returns a *character* index or
//! -1, slices `x[i:i+1]` are one character (or empty past the end), and the right-place
//! tests go through the article's lookup strings rather than `letter == position`.

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
fn py_char(x: &str, i: usize) -> &str {
    match x.char_indices().nth(i) {
        Some((start, c)) => &x[start..start + c.len_utf8()],
        None => "",
    }
}

/// The article's five lookups: `p[i] == 0` means position `i + 1` holds its right character.
fn lookups(x: &str) -> [i64; 5] {
    let c: [&str; 5] = std::array::from_fn(|i| py_char(x, i));
    [
        py_find("大石泉すき", c[0]),
        py_find("石泉すき", c[1]).max(py_find("石大", c[1])),
        py_find("泉すき", c[2]).max(py_find("泉石大", c[2])),
        py_find("すき", c[3]).max(py_find("す泉石大", c[3])),
        py_find("きす泉石大", c[4]),
    ]
}

/// The article's `calc_pos_score`.
pub fn calc_pos_score(x: &str) -> i64 {
    lookups(x).iter().filter(|&&p| p == 0).count() as i64
}

/// The article's `calc_stroke_score`.
pub fn calc_stroke_score(x: &str) -> i64 {
    let weights = [3, 5, 9, 2, 4];
    lookups(x)
        .iter()
        .zip(weights)
        .map(|(&p, w)| if p == 0 { w } else { 0 })
        .sum()
}

/// The article's `calc_stroke_not_score`. (A character outside the name, on which Python
/// would raise `KeyError`, counts 0 here.)
pub fn calc_stroke_not_score(x: &str) -> i64 {
    // The article's `stroke_dict`.
    const STROKE_DICT: [(&str, i64); 5] = [("大", 3), ("石", 5), ("泉", 9), ("す", 2), ("き", 4)];
    let strokes = |c: &str| STROKE_DICT.iter().find(|e| e.0 == c).map_or(0, |e| e.1);
    lookups(x)
        .iter()
        .enumerate()
        .map(|(i, &p)| if p != 0 { strokes(py_char(x, i)) } else { 0 })
        .sum()
}

/// The article's `judge_hand`, with a counter of characters as in `collections.Counter`.
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

/// The article's comparator run through the rank and all four rules, reporting where it
/// stopped: `(-1 or 1, stage)` when stage `0..=4` (0 = rank) decides, `(0, 5)` when
/// everything ties, `(0, 0)` for identical hands.
pub fn compare_stage(a: &str, b: &str) -> (i64, usize) {
    if a == b {
        return (0, 0);
    }
    // Each stage is evaluated only when the ones before it tie, as in the article.
    let steps: [&dyn Fn() -> (i64, i64); 5] = [
        &|| (judge_hand(b), judge_hand(a)),
        &|| (py_find(a, "すき"), py_find(b, "すき")),
        &|| (calc_pos_score(a), calc_pos_score(b)),
        &|| (calc_stroke_score(a), calc_stroke_score(b)),
        &|| (calc_stroke_not_score(b), calc_stroke_not_score(a)),
    ];
    for (stage, step) in steps.iter().enumerate() {
        let (x, y) = step();
        if x != y {
            return (if x > y { -1 } else { 1 }, stage);
        }
    }
    (0, 5)
}

/// The article's comparator with only the rank and its first `rules` rules (0 to 4): -1 when
/// `a` is stronger, 1 when `b` is, 0 when they tie (this is the version the article counted
/// its tied pairs with: `rules = 3` gave 287,564 and `rules = 4` gave 24,942).
pub fn compare_until(a: &str, b: &str, rules: usize) -> i64 {
    match compare_stage(a, b) {
        (r, stage) if stage <= rules => r,
        _ => 0,
    }
}

/// The article's final `compare_hand`, last line included: when all four rules tie it
/// returns `-1 if stroke1 < stroke2 else 1` with equal strokes, that is 1, so
/// `compare_hand(a, b) = compare_hand(b, a) = 1`: not a valid comparator.
pub fn compare_hand(a: &str, b: &str) -> i64 {
    match compare_until(a, b, 4) {
        0 if a != b => 1,
        r => r,
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
    fn the_articles_printed_tests_all_answer_minus_one() {
        // As in the article, including its third pair with the typo 太, which is no card:
        // both strings judge as すき and the article decides it by rule 1 (3 against 2).
        for (a, b) in [
            ("大石泉きす", "大石大石泉"),
            ("泉す泉すき", "大大泉石石"),
            ("す泉太すき", "泉泉すきす"),
            ("大石すき泉", "泉大すき石"),
            ("泉泉石きき", "大大石泉泉"),
            ("すき泉きす", "すき石石き"),
        ] {
            assert_eq!(compare_hand(a, b), -1, "{a} vs {b}");
        }
    }
}
