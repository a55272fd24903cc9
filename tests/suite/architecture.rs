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

#[test]
fn the_backgammon_engine_names_none_of_its_members() {
    let mut found = Vec::new();
    for path in sources("src/gammon") {
        for (n, line) in code(&path).iter().enumerate() {
            if line.contains("nikoniko::") {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "src/gammon uses nikoniko:\n{}",
        found.join("\n")
    );
}

/// The modules each file of `src/gammon` names in its code (`crate::gammon::x::y` and
/// `super::…` paths), as module paths.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let files = sources("src/gammon");
    let modules: BTreeSet<String> = files.iter().map(|p| module_of(p)).collect();
    let mut graph = BTreeMap::new();
    for path in &files {
        let me = module_of(path);
        let is_mod = path.file_name().is_some_and(|n| n == "mod.rs");
        let parent = if is_mod {
            me.clone()
        } else {
            me.rsplit_once("::")
                .map_or(String::new(), |(p, _)| p.to_string())
        };
        let mut named = BTreeSet::new();
        for line in code(path) {
            for (start, _) in line
                .match_indices("crate::")
                .chain(line.match_indices("super::"))
            {
                let rest = &line[start..];
                let path_text: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let mut segments: Vec<&str> =
                    path_text.split("::").filter(|s| !s.is_empty()).collect();
                let mut base: Vec<String> = match segments.first() {
                    Some(&"crate") => {
                        segments.remove(0);
                        Vec::new()
                    }
                    _ => parent.split("::").map(str::to_string).collect(),
                };
                while segments.first() == Some(&"super") {
                    segments.remove(0);
                    base.pop();
                }
                base.extend(segments.iter().map(|s| s.to_string()));
                // The longest prefix that is a module of the engine.
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
