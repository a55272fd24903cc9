//! The module graph of `docs/architecture.md`, read off the sources: the backgammon
//! engine knows no single member, the cube's files do not import each other in a circle,
//! and no function of the command layer grows past about a hundred lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(under: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join(under), &mut out);
    out.sort();
    out
}

/// A file's lines of code: comments and doc comments left out.
fn code(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| match l.find("//") {
            Some(at) => l[..at].to_string(),
            None => l.to_string(),
        })
        .collect()
}

/// The module a source file is, as a path from the crate (`gammon::solver::cube`).
fn module_of(path: &Path) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rel = path.strip_prefix(&src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The paths of `use` tree `tree` (`a::{b, c::{d, e as f}, self}`), each as its
/// segments after `prefix`; `self` names the prefix itself, an alias is dropped.
fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    let (head, inner) = match (tree.find('{'), tree.rfind('}')) {
        (Some(open), Some(close)) => (&tree[..open], Some(&tree[open + 1..close])),
        _ => (tree, None),
    };
    let head = head.split(" as ").next().unwrap_or_default();
    let mut path = prefix.to_vec();
    path.extend(
        head.split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != "self")
            .map(str::to_string),
    );
    let Some(inner) = inner else {
        out.push(path);
        return;
    };
    // The inner trees, split at the commas outside braces.
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                if !inner[start..i].trim().is_empty() {
                    expand(&inner[start..i], &path, out);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
}

/// Every path a file's code names, as segments: its `use` trees expanded, and the paths
/// written in the code (`crate::x::y`, `super::z::w`, `tabula::v`); string literals and
/// comments left out.
fn paths(path: &Path) -> Vec<Vec<String>> {
    let text: String = code(path)
        .join("\n")
        .split('"')
        .step_by(2)
        .collect::<Vec<_>>()
        .join(" ");
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("use ") {
        let after = &rest[at + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if rest[..at].chars().last().is_none_or(|c| !is_word(c)) {
            expand(&after[..end], &[], &mut out);
        }
        rest = &after[end..];
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let starts = i == 0 || !(is_word(chars[i - 1]) || chars[i - 1] == ':');
        if !(is_word(chars[i]) && starts) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && (is_word(chars[j]) || chars[j] == ':') {
            j += 1;
        }
        let word: String = chars[i..j].iter().collect();
        if word.contains("::") {
            let segments = word.split("::").filter(|s| !s.is_empty());
            out.push(segments.map(str::to_string).collect());
        }
        i = j;
    }
    out
}

/// `segments`, a path written in the module `me`, from the crate's root: `crate::` and
/// `tabula::` dropped, each `super::` one module up, `self::` the module itself; none for
/// a path outside the crate (`std::io`) or relative to what `me` imported.
fn resolve(segments: &[String], me: &str) -> Option<Vec<String>> {
    let mut base: Vec<String> = match segments.first().map(String::as_str) {
        Some("crate" | "tabula") => return Some(segments[1..].to_vec()),
        Some("super" | "self") => me.split("::").map(str::to_string).collect(),
        _ => return None,
    };
    let mut rest = segments;
    while let Some(first) = rest.first() {
        match first.as_str() {
            "super" => {
                base.pop();
            }
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

#[test]
fn the_path_reader_expands_use_trees_and_resolves_super() {
    let mut out = Vec::new();
    expand(
        "super::{cube::{Cube, Owner as O}, moves::Play, self}",
        &[],
        &mut out,
    );
    let joined: Vec<String> = out.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        [
            "super::cube::Cube",
            "super::cube::Owner",
            "super::moves::Play",
            "super"
        ]
    );
    let r = |t: &str| {
        let segments: Vec<String> = t.split("::").map(str::to_string).collect();
        resolve(&segments, "gammon::matchplay::judge").map(|p| p.join("::"))
    };
    assert_eq!(
        r("super::score::Unit").as_deref(),
        Some("gammon::matchplay::score::Unit")
    );
    assert_eq!(
        r("super::super::judge::Judge").as_deref(),
        Some("gammon::judge::Judge")
    );
    assert_eq!(
        r("crate::nikoniko::board").as_deref(),
        Some("nikoniko::board")
    );
    assert_eq!(r("std::io::Write"), None);
}

#[test]
fn the_backgammon_engine_names_none_of_its_members() {
    let mut found = Vec::new();
    for path in sources("src/gammon") {
        let me = module_of(&path);
        for named in paths(&path) {
            let full = resolve(&named, &me).unwrap_or_default();
            if full.first().is_some_and(|m| m == "nikoniko") {
                found.push(format!("{}: {}", path.display(), named.join("::")));
            }
        }
    }
    assert!(
        found.is_empty(),
        "src/gammon uses nikoniko:\n{}",
        found.join("\n")
    );
}

/// The modules each file of `src/gammon` names in its code: for every path it names that
/// resolves into the engine, the longest prefix that is one of its modules.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let files = sources("src/gammon");
    let modules: BTreeSet<String> = files.iter().map(|p| module_of(p)).collect();
    let mut graph = BTreeMap::new();
    for path in &files {
        let me = module_of(path);
        let mut named = BTreeSet::new();
        for segments in paths(path) {
            let Some(mut base) = resolve(&segments, &me) else {
                continue;
            };
            while !base.is_empty() {
                let candidate = base.join("::");
                if modules.contains(&candidate) {
                    if candidate != me {
                        named.insert(candidate);
                    }
                    break;
                }
                base.pop();
            }
        }
        graph.insert(me, named);
    }
    graph
}

#[test]
fn the_cubes_files_import_each_other_in_no_circle() {
    let graph = imports();
    let cube = [
        "gammon::cube",
        "gammon::solver::cube",
        "gammon::solver::cube_pair",
    ];
    for m in cube {
        assert!(graph.contains_key(m), "{m} is not a file of the engine");
    }
    // Depth-first search for a path back to the start, through the cube's files only.
    for start in cube {
        let mut stack = vec![start.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(m) = stack.pop() {
            for next in &graph[&m] {
                if !cube.contains(&next.as_str()) {
                    continue;
                }
                assert_ne!(next, start, "{start} imports itself back through {m}");
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
    }
    // The cube's vocabulary is the engine's own: the solver uses it, not the other way.
    assert!(graph["gammon::solver::cube_pair"].contains("gammon::cube"));
    assert!(!graph["gammon::cube"]
        .iter()
        .any(|m| m.starts_with("gammon::solver")));
}

#[test]
fn no_function_of_the_command_layer_is_much_longer_than_a_hundred_lines() {
    let mut long = Vec::new();
    for path in sources("src/cmd")
        .into_iter()
        .chain([Path::new(env!("CARGO_MANIFEST_DIR")).join("src/main.rs")])
    {
        let lines = code(&path);
        let mut i = 0;
        while i < lines.len() {
            let line = &lines[i];
            let trimmed = line.trim_start();
            let is_fn = ["fn ", "pub fn ", "pub(super) fn ", "pub(crate) fn "]
                .iter()
                .any(|p| trimmed.starts_with(p));
            if is_fn && !trimmed.ends_with(';') {
                let indent = line.len() - trimmed.len();
                let end = (i + 1..lines.len())
                    .find(|&j| {
                        let l = &lines[j];
                        l.len() - l.trim_start().len() == indent && l.trim_start().starts_with('}')
                    })
                    .unwrap_or(lines.len());
                if end - i > 110 {
                    long.push(format!("{}:{}: {} lines", path.display(), i + 1, end - i));
                }
                i = end;
            }
            i += 1;
        }
    }
    assert!(long.is_empty(), "functions too long:\n{}", long.join("\n"));
}

#[test]
fn every_docs_heading_the_code_cites_exists() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut missing = Vec::new();
    for path in sources("src") {
        let text = std::fs::read_to_string(&path).unwrap();
        // Doc comments wrap: read them as one line.
        let flat: String = text
            .lines()
            .map(|l| {
                let t = l.trim_start();
                t.strip_prefix("//!")
                    .or_else(|| t.strip_prefix("///"))
                    .or_else(|| t.strip_prefix("//"))
                    .map_or(format!("\n{l}"), |rest| format!(" {}", rest.trim()))
            })
            .collect();
        let mut rest = flat.as_str();
        while let Some(at) = rest.find("`docs/") {
            rest = &rest[at + 6..];
            let Some((file, after)) = rest.split_once('`') else {
                break;
            };
            let Some(heading) = after
                .strip_prefix(", \"")
                .and_then(|h| h.split_once('"'))
                .map(|(h, _)| h)
            else {
                continue;
            };
            let page = std::fs::read_to_string(docs.join(file)).unwrap_or_default();
            let found = page
                .lines()
                .any(|l| l.starts_with('#') && l.trim_start_matches('#').trim() == heading);
            if !found {
                missing.push(format!("{}: {file}, \"{heading}\"", path.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cited headings missing:\n{}",
        missing.join("\n")
    );
}
