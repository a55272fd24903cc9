//! Where the command line keeps its tables (`docs/cli.md`, "Tables"): the folder that the
//! environment variable `TABULA_TABLES` names; else `tables/` in the current folder (a
//! clone of the project has one); else the per-user data folder (an installed binary run
//! anywhere). A table is looked for in each, in that order; a build writes into the first
//! that applies.

use std::path::{Path, PathBuf};

/// The environment variable naming the tables folder.
pub const ENV: &str = "TABULA_TABLES";

/// The folder given by [`ENV`], if set.
fn from_env() -> Option<PathBuf> {
    std::env::var_os(ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// `tables/` in the current folder.
fn local() -> PathBuf {
    PathBuf::from("tables")
}

/// The per-user data folder's `tabula/tables`, where the platform has one.
fn per_user() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("tabula").join("tables"))
}

/// The folder a build writes into: [`ENV`]'s, else `./tables` when it exists, else the
/// per-user one (else `./tables` all the same).
pub fn build_folder() -> PathBuf {
    if let Some(dir) = from_env() {
        return dir;
    }
    let local = local();
    if local.is_dir() {
        return local;
    }
    per_user().unwrap_or(local)
}

/// Where a table named `file` is read from by default: the first of [`ENV`]'s folder,
/// `./tables` and the per-user folder that holds it; where a build would write it when
/// none does (so that the message for a missing table names that place).
pub fn find(file: &str) -> PathBuf {
    let candidates = [from_env(), Some(local()), per_user()];
    candidates
        .into_iter()
        .flatten()
        .map(|dir| dir.join(file))
        .find(|p| p.is_file())
        .unwrap_or_else(|| build_folder().join(file))
}

/// The folders a table is looked for in, in order, those that exist.
pub fn folders() -> Vec<PathBuf> {
    [from_env(), Some(local()), per_user()]
        .into_iter()
        .flatten()
        .filter(|d| d.is_dir())
        .collect()
}

/// The path of a table named `file` for a build: in [`build_folder`].
pub fn for_build(file: &str) -> PathBuf {
    build_folder().join(file)
}

/// The path given, or `default` resolved by `resolve` ([`find`] or [`for_build`]).
pub fn given_or(given: Option<&Path>, default: &str, resolve: fn(&str) -> PathBuf) -> PathBuf {
    given.map_or_else(|| resolve(default), Path::to_path_buf)
}
