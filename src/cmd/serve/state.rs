//! The tables folder and the tables opened from it: each table memory-mapped once, on the
//! first question about its variant, and shared by every request after. Only the file
//! names the command line would open for a variant in that folder are ever opened
//! (`handle::open_in`), and the files the folder lists; no path a client sends is read.

use crate::cmd::gammon::handle::{self, Handle};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::RwLock;
use tabula::gammon::{Numbers, Variant};
use tabula::Result;

/// What the server serves.
pub struct State {
    folder: PathBuf,
    /// The tables opened, by variant name. A table stays mapped while the server runs.
    open: RwLock<HashMap<String, &'static Handle>>,
}

/// A variant with a table in the folder, as `/api/variants` lists it.
#[derive(Serialize)]
pub struct Served {
    /// The variant's name (`--variant`'s).
    pub variant: String,
    /// Its name for people.
    pub title: String,
    /// Its rules: points, checkers, faces, home, start, numbering.
    pub rules: Variant,
    /// The table file that answers, in the folder.
    pub file: String,
    /// Whether the table keeps the cube (cubeful equities and cube actions).
    pub cube: bool,
    /// The opening position's notation.
    pub opening: String,
}

/// A table file in the folder that could not be opened.
#[derive(Serialize)]
pub struct Broken {
    /// The file.
    pub file: String,
    /// Why.
    pub error: String,
}

/// `/api/variants`: what the folder holds.
#[derive(Serialize)]
pub struct Listing {
    /// The tables folder.
    pub folder: String,
    /// The variants with a table that answers.
    pub variants: Vec<Served>,
    /// Table files that could not be opened, and why.
    pub broken: Vec<Broken>,
    /// The other games, which need no table.
    pub games: [&'static str; 3],
}

impl State {
    /// A server of the tables in `folder` (nothing is opened yet).
    pub fn new(folder: PathBuf) -> State {
        State {
            folder,
            open: RwLock::new(HashMap::new()),
        }
    }

    /// The tables folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The table that answers `v`, opened on the first question and kept.
    pub fn handle(&self, v: &Variant) -> Result<&'static Handle> {
        let name = v.name();
        if let Some(h) = self.read().get(&name) {
            return Ok(h);
        }
        let opened: &'static Handle = Box::leak(Box::new(handle::open_in(&self.folder, v)?));
        let mut open = self.open.write().unwrap_or_else(|e| e.into_inner());
        Ok(open.entry(name).or_insert(opened))
    }

    /// The numbering of `v`: its table's when one is open, else made afresh.
    pub fn numbers(&self, v: &Variant) -> Result<Numbers> {
        match self.read().get(&v.name()) {
            Some(h) => Ok(h.table.numbers().clone()),
            None => Ok(Numbers::new(v)?),
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, &'static Handle>> {
        self.open.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Every variant with a table in the folder, and the table files that do not open.
    pub fn listing(&self) -> Listing {
        let mut variants: Vec<Served> = Vec::new();
        let mut broken = Vec::new();
        for path in self.table_files() {
            let file = file_name(&path);
            let found = handle::open_file(&path)
                .map(|h| h.table.variant().clone())
                .and_then(|v| Ok((self.handle(&v)?, v)));
            match found {
                Ok((h, v)) => {
                    if variants.iter().all(|s| s.variant != v.name()) {
                        variants.push(Served {
                            variant: v.name(),
                            title: v.title(),
                            file: file_name(h.table.path()),
                            cube: h.table.has_cube(),
                            opening: tabula::gammon::notation::notation(&v, &v.opening()),
                            rules: v,
                        });
                    }
                }
                Err(e) => broken.push(Broken {
                    file,
                    error: e.to_string(),
                }),
            }
        }
        variants.sort_by_key(|s| (s.rules.points, s.rules.checkers, s.variant.clone()));
        Listing {
            folder: self.folder.display().to_string(),
            variants,
            broken,
            games: ["bingo", "numeron", "poker"],
        }
    }

    /// The folder's `.tbl` files, by name.
    fn table_files(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.folder) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "tbl") && p.is_file())
            .collect();
        files.sort();
        files
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
