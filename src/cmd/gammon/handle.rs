//! `--variant` and `--table`, resolved once into the variant and the table that answers
//! (any [`Evaluator`]: the family's table, or the NikoNiko article's).

use super::args::{ArticleTable, Source};
use crate::cmd::tables;
use std::path::{Path, PathBuf};
use tabula::gammon::{store, BuiltIn, Evaluator, Variant};
use tabula::table::{Reader, Table};
use tabula::{nikoniko, Result};

/// A table opened for questions, and the advice for what a rebuild cures.
pub struct Handle {
    /// The table.
    pub table: Box<dyn Evaluator + Send>,
    /// The command that builds the table again (for a damaged one).
    rebuild: String,
    /// What to run for a table with the cube.
    cube_advice: String,
}

impl Handle {
    /// Adds the advice to an error a rebuild cures: a damaged table, a missing cube table.
    pub fn advise<T>(&self, r: std::result::Result<T, tabula::gammon::Error>) -> Result<T> {
        Ok(r.map_err(|e| match e {
            tabula::gammon::Error::NoCube { .. } => e.with_hint(&self.cube_advice),
            e => e.with_hint(&self.rebuild),
        })?)
    }
}

/// The file name of a variant's family table. NikoNiko's lies apart from the article's
/// own `nikoniko.tbl`.
fn family_file(v: &Variant) -> String {
    match v.built_in_kind() {
        Some(BuiltIn::Nikoniko) => "nikoniko-cube.tbl".to_string(),
        _ => store::file_name(v),
    }
}

/// The variant `--variant` names.
fn parse(name: &str) -> Result<Variant> {
    Ok(Variant::parse(name)?)
}

/// The variant of `source`: `--variant`'s, or the one its `--table` was built for.
pub fn variant(source: &Source) -> Result<Variant> {
    Ok(resolve(source, Reader::Map)?.0)
}

/// The variant of `source` and the opener of its table for a question: when the table
/// had to be opened to learn the variant (`--table` alone), the opener hands over that
/// table instead of opening it again, so that a question opens its table once.
pub fn resolve<'a>(
    source: &'a Source,
    how: Reader<'static>,
) -> Result<(Variant, impl FnOnce() -> Result<Handle> + 'a)> {
    let opened = match (&source.variant, &source.table) {
        (Some(_), _) => None,
        (None, Some(path)) => Some(open_path(path, Some(path), how, None)?),
        (None, None) => unreachable!("clap requires --variant or --table"),
    };
    let v = match (&opened, &source.variant) {
        (Some(h), _) => h.table.variant().clone(),
        (None, Some(name)) => parse(name)?,
        (None, None) => unreachable!("clap requires --variant or --table"),
    };
    Ok((v, move || match opened {
        Some(h) => Ok(h),
        None => open(source, how),
    }))
}

/// The table of `source`: `--table`'s (of any kind), else the variant's family table in
/// the tables folder.
pub fn open(source: &Source, how: Reader) -> Result<Handle> {
    let wanted = source.variant.as_deref().map(parse).transpose()?;
    let path = match (&source.table, &wanted) {
        (Some(p), _) => p.clone(),
        (None, Some(v)) => tables::find(&family_file(v)),
        (None, None) => unreachable!("clap requires --variant or --table"),
    };
    let handle = open_path(&path, source.table.as_deref(), how, wanted.as_ref())?;
    match &wanted {
        Some(v) => expect_variant(handle, v),
        None => Ok(handle),
    }
}

/// The family table of `source` itself (compare and export read its records), opened
/// once.
pub fn open_family(source: &Source) -> Result<store::Tables> {
    let wanted = source.variant.as_deref().map(parse).transpose()?;
    let path = match (&source.table, &wanted) {
        (Some(p), _) => p.clone(),
        (None, Some(v)) => tables::find(&family_file(v)),
        (None, None) => unreachable!("clap requires --variant or --table"),
    };
    let opened = store::Tables::open_with(&path, wanted.as_ref(), Reader::Map);
    Ok(opened.map_err(|e| match &wanted {
        Some(v) => e.with_hint(&build_command(
            &format!("gammon build --variant {}", v.name()),
            source.table.as_deref(),
        )),
        None => e,
    })?)
}

/// The NikoNiko article's table at `--table`'s path or the default one.
pub fn open_article(table: &ArticleTable, how: Reader) -> Result<Handle> {
    let path = tables::given_or(
        table.table.as_deref(),
        nikoniko::store::FILE_NAME,
        tables::find,
    );
    let rebuild = build_command("nikoniko build", table.table.as_deref());
    let opened = how.open(&path).map_err(|e| e.with_hint(&rebuild))?;
    article(opened, rebuild, how)
}

/// The article's tables, from its equity table already open.
fn article(equity: Table, rebuild: String, how: Reader) -> Result<Handle> {
    let tables = nikoniko::store::Tables::with_table(equity, how);
    Ok(Handle {
        table: Box::new(tables.map_err(|e| e.with_hint(&rebuild))?),
        rebuild,
        cube_advice: "the article's table keeps no cube; the family's does: run `tabula \
                      gammon build --variant nikoniko` and ask `tabula gammon … --variant \
                      nikoniko`"
            .to_string(),
    })
}

/// The table at `path`, whatever its kind: the family's or the article's. `wanted`, the
/// variant asked for, names the command that builds a missing table (with `--table`
/// when the path was `given`).
fn open_path(
    path: &Path,
    given: Option<&Path>,
    how: Reader,
    wanted: Option<&Variant>,
) -> Result<Handle> {
    let build = |v: &Variant| build_command(&format!("gammon build --variant {}", v.name()), given);
    let table = match how.open(path) {
        Ok(t) => t,
        Err(e) => {
            return Err(match wanted {
                Some(v) => e.with_hint(&build(v)).into(),
                None => e.into(),
            })
        }
    };
    if table.header().kind == nikoniko::store::EQUITY_KIND {
        return article(table, build_command("nikoniko build", Some(path)), how);
    }
    let opened = store::Tables::with_table(table, None, how);
    let table = match (opened, wanted) {
        (Ok(t), _) => t,
        (Err(e), Some(v)) => return Err(e.with_hint(&build(v)).into()),
        (Err(e), None) => return Err(e.into()),
    };
    let rebuild = build(table.variant());
    Ok(Handle {
        table: Box::new(table),
        cube_advice: rebuild.clone(),
        rebuild,
    })
}

/// `handle`, once its table is one of `v`: a table of another variant, under `v`'s name
/// or given with `v`, is a foreign table (`docs/cli.md`: exit status 1).
fn expect_variant(handle: Handle, v: &Variant) -> Result<Handle> {
    let found = handle.table.variant();
    if found == v {
        return Ok(handle);
    }
    Err(tabula::table::TableError::Variant {
        path: handle.table.path().to_path_buf(),
        expected: v.name(),
        found: found.name(),
    }
    .into())
}

/// The path a build of `v` writes: `--table`'s, or the variant's in the tables folder.
pub fn build_path(v: &Variant, table: Option<&Path>) -> PathBuf {
    tables::given_or(table, &family_file(v), tables::for_build)
}

/// The advice for a missing table: the command that builds it.
fn build_command(command: &str, table: Option<&Path>) -> String {
    match table {
        Some(t) => format!("run `tabula {command} --table {}`", t.display()),
        None => format!("run `tabula {command}`"),
    }
}

/// The table that answers `v`'s questions in the folder `dir` (the server's): the
/// variant's family table, as `--variant` finds it; for NikoNiko without one, the
/// article's `nikoniko.tbl`. Only these file names in `dir` are ever opened.
#[cfg(feature = "serve")]
pub fn open_in(dir: &Path, v: &Variant) -> Result<Handle> {
    let family = dir.join(family_file(v));
    let article = dir.join(nikoniko::store::FILE_NAME);
    let path = match v.built_in_kind() {
        Some(BuiltIn::Nikoniko) if !family.is_file() && article.is_file() => article,
        _ => family,
    };
    expect_variant(
        open_path(&path, Some(&path), Reader::long_lived(), Some(v))?,
        v,
    )
}

/// The table at `path`, of either kind, through the cache (the server's look through
/// its folder).
#[cfg(feature = "serve")]
pub fn open_file(path: &Path) -> Result<Handle> {
    open_path(path, Some(path), Reader::long_lived(), None)
}
