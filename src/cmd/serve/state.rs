//! The tables folder and the tables opened from it: each table memory-mapped once, on the
//! first question about its variant, and shared by every request after. Only the file
//! names the command line would open for a variant in that folder are ever opened
//! (`handle::open_in`), and the files the folder lists; no path a client sends is read.

use crate::cmd::bearoff::answer::build_command;
use crate::cmd::gammon::handle::{self, Handle};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::RwLock;
use tabula::gammon::bearoff::query;
use tabula::gammon::bearoff::store::{Database, Kind, OneSidedTable, TwoSidedTable};
use tabula::gammon::{Numbers, Variant};
use tabula::table::TableError;
use tabula::Result;

/// What the server serves.
pub struct State {
    folder: PathBuf,
    /// The tables opened, by variant name. A table stays mapped while the server runs.
    open: RwLock<HashMap<String, &'static Handle>>,
    /// The bear-off tables opened, by file name.
    bearoff: RwLock<HashMap<String, &'static Database>>,
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

/// A bear-off table in the folder, as `/api/variants` lists it.
#[derive(Serialize)]
pub struct BearoffServed {
    /// Its name in the routes, `/api/bearoff/{table}/…`: the file's name without `.tbl`.
    pub table: String,
    /// The database's name (`bearoff 6x6`, `bearoff one-sided 6`).
    pub database: String,
    /// Points, checkers a side, two-sided or not, with the cube or not.
    pub kind: Kind,
    /// The questions it answers: `distribution` (one-sided), `equity` and `hint`.
    pub questions: &'static [&'static str],
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
    /// The bear-off tables (`docs/bearoff.md`).
    pub bearoff: Vec<BearoffServed>,
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
            bearoff: RwLock::new(HashMap::new()),
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

    /// The bear-off table of `kind`, its default file in the folder, opened on the first
    /// question and kept. A file that holds another database than its name says is
    /// refused as a foreign table.
    pub fn bearoff(&self, kind: &Kind) -> Result<&'static Database> {
        let file = kind.file_name();
        let path = self.folder.join(&file);
        let cached = self
            .bearoff
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&file)
            .copied();
        let db = match cached {
            Some(db) => db,
            None => {
                let db = Database::open(&path)
                    .map_err(|e| e.with_hint(&build_command(kind, Some(&path))))?;
                let opened: &'static Database = Box::leak(Box::new(db));
                let mut open = self.bearoff.write().unwrap_or_else(|e| e.into_inner());
                *open.entry(file).or_insert(opened)
            }
        };
        if db.kind() != *kind {
            return Err(wrong(&path, kind, &db.kind()));
        }
        Ok(db)
    }

    /// The one-sided table of `kind` ([`State::bearoff`]).
    pub fn one_sided(&self, kind: &Kind) -> Result<&'static OneSidedTable> {
        match self.bearoff(kind)? {
            Database::OneSided(t) => Ok(t),
            Database::TwoSided(t) => Err(wrong(t.table().path(), kind, &t.kind())),
        }
    }

    /// The two-sided table of `kind` ([`State::bearoff`]).
    pub fn two_sided(&self, kind: &Kind) -> Result<&'static TwoSidedTable> {
        match self.bearoff(kind)? {
            Database::TwoSided(t) => Ok(t),
            Database::OneSided(t) => Err(wrong(t.table().path(), kind, &t.kind())),
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, &'static Handle>> {
        self.open.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Every variant with a table in the folder, and the table files that do not open.
    pub fn listing(&self) -> Listing {
        let mut variants: Vec<Served> = Vec::new();
        let mut broken = Vec::new();
        let mut bearoff = Vec::new();
        for path in self.table_files() {
            let file = file_name(&path);
            if let Some(kind) = Kind::of_file_name(&file) {
                match self.bearoff(&kind) {
                    Ok(_) => bearoff.push(BearoffServed {
                        table: file.trim_end_matches(".tbl").to_string(),
                        database: query::name(&kind),
                        kind,
                        questions: if kind.two_sided {
                            &["equity", "hint"]
                        } else {
                            &["distribution"]
                        },
                    }),
                    Err(e) => broken.push(Broken {
                        file,
                        error: e.to_string(),
                    }),
                }
                continue;
            }
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
            bearoff,
            broken,
            games: ["bingo", "numeron", "poker"],
        }
    }

    /// The folder's `.tbl` files, by name, but for the match tables (one a score,
    /// `<variant>.match-<score>.tbl`), which answer at a score beside a variant's table.
    fn table_files(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.folder) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "tbl") && p.is_file())
            .filter(|p| !file_name(p).contains(".match-"))
            .collect();
        files.sort();
        files
    }
}

/// A bear-off table that holds `found` where `expected` was asked for.
fn wrong(path: &Path, expected: &Kind, found: &Kind) -> tabula::Error {
    TableError::WrongKind {
        path: path.to_path_buf(),
        expected: query::name(expected),
        found: query::name(found),
    }
    .into()
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
