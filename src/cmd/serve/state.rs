//! The tables folder and the tables opened from it: each table opened once, on the first
//! question about it, through the cache of verified blocks (never mapped: a file changed
//! or truncated under the server is an error for the request that meets it, never a
//! signal), shared by every request after, and opened again when its file is replaced
//! or changed (`docs/table-format.md`, "Two readers"). Only the file names the command
//! line would open for a variant in that folder are ever opened (`handle::open_in`), and
//! the files the folder lists; no path a client sends is read.

use crate::cmd::bearoff::answer::{build_command, RaceTables};
use crate::cmd::gammon::handle::{self, Handle};
use crate::cmd::gammon::matchplay;
use serde::Serialize;
use std::collections::HashMap;
use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use tabula::gammon::bearoff::store::{Database, Kind, OneSidedTable, TwoSidedTable};
use tabula::gammon::matchplay::judge::ScoreTables;
use tabula::gammon::matchplay::Score;
use tabula::gammon::{Numbers, Variant};
use tabula::table::{Reader, TableError};
use tabula::Result;

/// The name in the bear-off routes of a race asked without a table named
/// (`/api/bearoff/race/…`); no table is named so.
pub const RACE: &str = "race";

/// How often a kept table's files are looked at for a replacement or a change in place.
/// Until then a request reads the table as it was opened: every block it reads is one
/// that matched its sum.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// What the server serves.
pub struct State {
    folder: PathBuf,
    /// The family's and the article's tables, by variant name.
    gammon: Shelf<String, Handle>,
    /// The bear-off tables, by file name.
    bearoff: Shelf<String, Database>,
    /// The tables at a match score, by variant and unit.
    scores: Shelf<(String, String), ScoreTables>,
}

/// Tables kept open, each shared by the requests that read it.
struct Shelf<K, V> {
    kept: RwLock<HashMap<K, Arc<Kept<V>>>>,
    /// Held while a table is opened, so that requests arriving together open it once.
    opening: Mutex<()>,
    started: Instant,
}

struct Kept<V> {
    value: Arc<V>,
    /// When its files were last looked at, in milliseconds since the shelf was made.
    looked: AtomicU64,
}

impl<K: Eq + Hash + Clone, V> Shelf<K, V> {
    fn new() -> Shelf<K, V> {
        Shelf {
            kept: RwLock::new(HashMap::new()),
            opening: Mutex::new(()),
            started: Instant::now(),
        }
    }

    /// The kept table of `key`, opened by `open` the first time and again once
    /// `changed` finds its files replaced or changed.
    fn get(
        &self,
        key: &K,
        changed: impl Fn(&V) -> bool,
        open: impl FnOnce() -> Result<V>,
    ) -> Result<Arc<V>> {
        if let Some(fresh) = self.fresh(key, &changed) {
            return Ok(fresh);
        }
        let _opening = self.opening.lock().unwrap_or_else(|e| e.into_inner());
        // Another request may have opened it meanwhile.
        if let Some(fresh) = self.fresh(key, &changed) {
            return Ok(fresh);
        }
        let mut kept = self.kept.write().unwrap_or_else(|e| e.into_inner());
        kept.remove(key);
        drop(kept);
        let value = Arc::new(open()?);
        let now = self.now();
        self.kept.write().unwrap_or_else(|e| e.into_inner()).insert(
            key.clone(),
            Arc::new(Kept {
                value: value.clone(),
                looked: AtomicU64::new(now),
            }),
        );
        Ok(value)
    }

    /// The kept table of `key` if there is one and its files are as it found them (looked
    /// at no more often than [`LOOK_EVERY`]).
    fn fresh(&self, key: &K, changed: impl Fn(&V) -> bool) -> Option<Arc<V>> {
        let kept = self.peek(key)?;
        let now = self.now();
        let looked = kept.looked.load(Ordering::Relaxed);
        if now.saturating_sub(looked) < LOOK_EVERY.as_millis() as u64 {
            return Some(kept.value.clone());
        }
        if changed(&kept.value) {
            return None;
        }
        kept.looked.store(now, Ordering::Relaxed);
        Some(kept.value.clone())
    }

    fn peek(&self, key: &K) -> Option<Arc<Kept<V>>> {
        let kept = self.kept.read().unwrap_or_else(|e| e.into_inner());
        kept.get(key).cloned()
    }

    fn now(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }
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

/// The route that answers any race without a table named (`/api/bearoff/race/…`), as
/// `/api/variants` lists it.
#[derive(Serialize)]
pub struct RaceServed {
    /// Its name in the routes, `/api/bearoff/race/…` (no table is named so).
    pub table: &'static str,
    /// The questions it answers: `equity` and `hint`.
    pub questions: &'static [&'static str],
    /// The points (`points`, 6 by default) of the one-sided and fifteen-checker
    /// two-sided tables in the folder: on those, a race of more checkers than the
    /// two-sided table of `checkers` holds is answered, exactly or by the estimate.
    pub points: Vec<usize>,
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
    /// The route that answers any race from the tables of the folder.
    pub race: RaceServed,
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
            gammon: Shelf::new(),
            bearoff: Shelf::new(),
            scores: Shelf::new(),
        }
    }

    /// The tables folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The table that answers `v`, opened on the first question and kept.
    pub fn handle(&self, v: &Variant) -> Result<Arc<Handle>> {
        self.gammon.get(
            &v.name(),
            |h| h.table.changed(),
            || handle::open_in(&self.folder, v),
        )
    }

    /// The numbering of `v`: its table's when one is open, else made afresh.
    pub fn numbers(&self, v: &Variant) -> Result<Numbers> {
        match self.gammon.peek(&v.name()) {
            Some(h) => Ok(h.value.table.numbers().clone()),
            None => Ok(Numbers::new(v)?),
        }
    }

    /// The tables that answer `v` at `score`, in the folder, opened on the first question
    /// and kept.
    pub fn score_tables(&self, v: &Variant, score: Score) -> Result<Arc<ScoreTables>> {
        let (unit, _) = score.unit();
        let changed = |t: &ScoreTables| {
            t.unit().table().changed() || t.dmp().is_some_and(|d| d.table().changed())
        };
        self.scores.get(&(v.name(), unit.name()), changed, || {
            matchplay::score_tables(v, score, Some(&self.folder), Reader::long_lived())
        })
    }

    /// The bear-off table of `kind`, its default file in the folder, opened on the first
    /// question and kept. A file that holds another database than its name says is
    /// refused as a foreign table.
    pub fn bearoff(&self, kind: &Kind) -> Result<Arc<Database>> {
        let file = kind.file_name();
        let path = self.folder.join(&file);
        let db = self.bearoff.get(
            &file,
            |db| db.table().changed(),
            || {
                Ok(Database::open_with(&path, Reader::long_lived())
                    .map_err(|e| e.with_hint(&build_command(kind, Some(&path))))?)
            },
        )?;
        db.expect(kind)?;
        Ok(db)
    }

    /// The one-sided table of `kind` ([`State::bearoff`]).
    pub fn one_sided(&self, kind: &Kind) -> Result<Sided<OneSidedTable>> {
        let db = self.bearoff(kind)?;
        match &*db {
            Database::OneSided(_) => Ok(Sided(db, std::marker::PhantomData)),
            Database::TwoSided(t) => Err(wrong(t.table().path(), kind, &t.kind())),
        }
    }

    /// The two-sided table of `kind` ([`State::bearoff`]).
    pub fn two_sided(&self, kind: &Kind) -> Result<Sided<TwoSidedTable>> {
        let db = self.bearoff(kind)?;
        match &*db {
            Database::TwoSided(_) => Ok(Sided(db, std::marker::PhantomData)),
            Database::OneSided(t) => Err(wrong(t.table().path(), kind, &t.kind())),
        }
    }

    /// The variant of the table file `path` in the folder, of either kind.
    fn listed(&self, path: &Path) -> Result<Variant> {
        Ok(handle::open_file(path)?.table.variant().clone())
    }

    /// Every variant with a table in the folder, and the table files that do not open.
    pub fn listing(&self) -> Listing {
        let mut variants: Vec<Served> = Vec::new();
        let mut broken = Vec::new();
        let mut bearoff = Vec::new();
        let mut race = Vec::new();
        for path in self.table_files() {
            let file = file_name(&path);
            if let Some(kind) = Kind::of_file_name(&file) {
                match self.bearoff(&kind) {
                    Ok(_) => {
                        if !kind.two_sided || kind.checkers == 15 {
                            race.push(kind.points);
                        }
                        bearoff.push(BearoffServed {
                            table: file.trim_end_matches(".tbl").to_string(),
                            database: kind.name(),
                            kind,
                            questions: if kind.two_sided {
                                &["equity", "hint"]
                            } else {
                                &["distribution"]
                            },
                        })
                    }
                    Err(e) => broken.push(Broken {
                        file,
                        error: e.to_string(),
                    }),
                }
                continue;
            }
            let found = self.listed(&path).and_then(|v| Ok((self.handle(&v)?, v)));
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
        race.sort_unstable();
        race.dedup();
        Listing {
            folder: self.folder.display().to_string(),
            variants,
            bearoff,
            race: RaceServed {
                table: RACE,
                questions: &["equity", "hint"],
                points: race,
            },
            broken,
            games: ["bingo", "numeron", "poker"],
        }
    }

    /// The folder's two-sided bear-off tables that open, by name.
    pub fn two_sided_tables(&self) -> Vec<Sided<TwoSidedTable>> {
        self.table_files()
            .iter()
            .filter_map(|p| Kind::of_file_name(&file_name(p)).filter(|k| k.two_sided))
            .filter_map(|kind| self.two_sided(&kind).ok())
            // A table of the cube's equities alone judges only with its cubeless table.
            .filter(|t| t.chances().is_ok())
            .collect()
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

/// A kept bear-off table known to be of one side's kind: derefs to it.
pub struct Sided<T>(Arc<Database>, std::marker::PhantomData<T>);

impl std::ops::Deref for Sided<OneSidedTable> {
    type Target = OneSidedTable;
    fn deref(&self) -> &OneSidedTable {
        match &*self.0 {
            Database::OneSided(t) => t,
            Database::TwoSided(_) => unreachable!("checked when made"),
        }
    }
}

impl std::ops::Deref for Sided<TwoSidedTable> {
    type Target = TwoSidedTable;
    fn deref(&self) -> &TwoSidedTable {
        match &*self.0 {
            Database::TwoSided(t) => t,
            Database::OneSided(_) => unreachable!("checked when made"),
        }
    }
}

impl std::borrow::Borrow<OneSidedTable> for Sided<OneSidedTable> {
    fn borrow(&self) -> &OneSidedTable {
        self
    }
}

impl std::borrow::Borrow<TwoSidedTable> for Sided<TwoSidedTable> {
    fn borrow(&self) -> &TwoSidedTable {
        self
    }
}

/// The folder's bear-off tables as a race asked without a table named reads them
/// (`/api/bearoff/race/…`, [`crate::cmd::bearoff::answer::race`]): the kept tables, and
/// the one-sided table the question names (`one_sided`), if it names one.
pub struct RaceFolder<'a> {
    /// The server's folder and kept tables.
    pub state: &'a State,
    /// The one-sided table `one_sided` names, if it names one.
    pub one_sided: Option<Kind>,
}

impl RaceTables for RaceFolder<'_> {
    type TwoSided = Sided<TwoSidedTable>;
    type OneSided = Sided<OneSidedTable>;

    fn present(&self, kind: &Kind) -> bool {
        self.state.folder.join(kind.file_name()).is_file()
    }

    fn two_sided(&self, kind: &Kind) -> Result<Sided<TwoSidedTable>> {
        self.state.two_sided(kind)
    }

    fn one_sided(&self, kind: &Kind) -> Result<Sided<OneSidedTable>> {
        self.state
            .one_sided(self.one_sided.as_ref().unwrap_or(kind))
    }

    fn names_one_sided(&self) -> bool {
        self.one_sided.is_some()
    }
}

/// A bear-off table that holds `found` where `expected` was asked for.
fn wrong(path: &Path, expected: &Kind, found: &Kind) -> tabula::Error {
    TableError::WrongKind {
        path: path.to_path_buf(),
        expected: expected.name(),
        found: found.name(),
    }
    .into()
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
