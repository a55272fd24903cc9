//! The match-equity table (`docs/gammon.md`, "Match play"): the match-winning chance at
//! the start of a game at every score of a match, assembled from the units' start values;
//! written in gnubg's match-equity file format and read back from it.
//!
//! gnubg's format (`/usr/share/gnubg/met/*.xml`, described by its `met.dtd`) is XML: an
//! `info` element (name, description, length), a `pre-crawford-table` of explicit rows —
//! row `i`, column `j`: the chance of the side needing `i + 1` points against `j + 1`,
//! where a side needs 1 the Crawford game — and a `post-crawford-table` whose one row holds
//! the chance of the *trailer*, needing `j + 1` points, against a side one point away
//! after the Crawford game (gnubg reads its first `length − 1` values and extends it
//! beyond). tabula's `post_crawford` holds the side one point away, as the spec has it:
//! one minus gnubg's.

use super::score::{Game, Score, Unit};
use crate::gammon::Error;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// A match-equity table.
#[derive(Debug, Clone, Serialize)]
pub struct Met {
    /// The variant's name (or the table's, for one read from a file).
    pub variant: String,
    /// The match length: `met` is `length` rows of `length`.
    pub length: u32,
    /// Row `A − 1`, column `B − 1`: the match-winning chance of the side needing `A`
    /// against `B` at the start of a game, before the opening roll; where a side needs 1,
    /// the Crawford game (1-1: one half).
    pub met: Vec<Vec<f64>>,
    /// Index `B − 1`: the chance of the side needing 1 against `B` at the start of a
    /// post-Crawford game.
    pub post_crawford: Vec<f64>,
}

/// A match-winning chance from a match equity.
pub fn mwc(e: f64) -> f64 {
    (1.0 + e) / 2.0
}

impl Met {
    /// The table of a match to `length` from the start values (match equities of each
    /// unit's first perspective) of its units.
    pub fn from_starts(
        variant: &str,
        length: u32,
        starts: &HashMap<Unit, f64>,
    ) -> Result<Met, Error> {
        super::score::check_length(length)?;
        let start = |unit: Unit| {
            starts.get(&unit).copied().ok_or_else(|| {
                Error::Inconsistent(format!("no start value for the score {}", unit.name()))
            })
        };
        let n = length as usize;
        let mut met = vec![vec![0.0; n]; n];
        for a in 1..=length {
            for b in 1..=length {
                let (lo, hi) = (a.min(b), a.max(b));
                let game = match (lo, hi) {
                    (1, 1) => Game::PostCrawford,
                    (1, _) => Game::Crawford,
                    _ => Game::Normal,
                };
                let s = start(Unit { a: lo, b: hi, game })?;
                met[a as usize - 1][b as usize - 1] = mwc(if a <= b { s } else { -s });
            }
        }
        let post_crawford = (1..=length)
            .map(|b| {
                start(Unit {
                    a: 1,
                    b,
                    game: Game::PostCrawford,
                })
                .map(mwc)
            })
            .collect::<Result<_, _>>()?;
        Ok(Met {
            variant: variant.to_string(),
            length,
            met,
            post_crawford,
        })
    }

    /// The table of a match to one point: at double match point a game won is the match,
    /// so no other score is ever reached and the table holds nothing but its start (one
    /// half). Exact: no table of a longer match is needed there.
    pub fn double_match_point() -> Met {
        Met {
            variant: "double match point".to_string(),
            length: 1,
            met: vec![vec![0.5]],
            post_crawford: vec![0.5],
        }
    }

    /// The match-winning chance of the side on roll of `score` at the start of a game
    /// there, before the opening roll: the pre-Crawford row (where a side needs one
    /// point, the Crawford game), or the post-Crawford row. A score beyond the table is
    /// refused.
    pub fn start(&self, score: Score) -> Result<f64, Error> {
        let (a, b) = (score.on_roll, score.opponent);
        let beyond = || {
            Error::Inconsistent(format!(
                "the match-equity table {} stops at {} points, short of the score {score}",
                self.variant, self.length
            ))
        };
        if a.max(b) > self.length {
            return Err(beyond());
        }
        let (a, b) = (a as usize, b as usize);
        let chance = match score.game {
            Game::PostCrawford if a == b => 0.5,
            Game::PostCrawford if a == 1 => self.post_crawford[b - 1],
            Game::PostCrawford => 1.0 - self.post_crawford[a - 1],
            Game::Normal | Game::Crawford => self.met[a - 1][b - 1],
        };
        chance.is_finite().then_some(chance).ok_or_else(beyond)
    }

    /// The table in gnubg's match-equity file format, named `name`, values to 12 decimals.
    pub fn gnubg_xml(&self, name: &str, description: &str) -> String {
        let mut out = String::from(
            "<?xml version = \"1.0\"?>\n<!DOCTYPE met PUBLIC \"-//GNU Backgammon//DTD Match Equity \
             Tables//EN\"\n                     \"met.dtd\">\n\n<met>\n  <info>\n",
        );
        out += &format!(
            "    <name>{}</name>\n    <description>{}</description>\n    <length>{}</length>\n  </info>\n\n",
            escape(name),
            escape(description),
            self.length
        );
        out += "  <pre-crawford-table type=\"explicit\">\n";
        for row in &self.met {
            out += &row_xml(row.iter().copied());
        }
        out += "  </pre-crawford-table>\n\n  <post-crawford-table type=\"explicit\" player=\"both\">\n";
        // gnubg's row is the trailer's chance.
        out += &row_xml(self.post_crawford.iter().map(|p| 1.0 - p));
        out += "  </post-crawford-table>\n\n</met>\n";
        out
    }

    /// Writes [`Met::gnubg_xml`] at `path`, atomically (`crate::table::write_file`).
    pub fn write_gnubg(&self, path: &Path, name: &str, description: &str) -> Result<(), Error> {
        let text = self.gnubg_xml(name, description);
        crate::table::write_file(path, |out| -> Result<(), Error> {
            out.write_all(text.as_bytes()).map_err(Error::io(path))
        })
    }

    /// Reads a match-equity table in gnubg's format with explicit rows (the tables
    /// gnubg ships, and the ones tabula writes); a table given by parameters (Zadeh's
    /// formula) is refused. Player 0's post-Crawford row is read where the players' rows
    /// differ.
    pub fn read_gnubg(path: &Path) -> Result<Met, Error> {
        let (mut file, _) = crate::table::open_input(path)?;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut file, &mut text).map_err(Error::io(path))?;
        let bad = |reason: String| Error::Input {
            what: "match-equity table",
            input: path.display().to_string(),
            reason,
        };
        let name = unescape(between(&text, "<name>", "</name>").unwrap_or("").trim());
        let section = |tag: &str| -> Result<Vec<Vec<f64>>, Error> {
            let open = format!("<{tag}");
            let start = text.find(&open).ok_or_else(|| bad(format!("no {tag}")))?;
            let body = &text[start..];
            let head_end = body
                .find('>')
                .ok_or_else(|| bad(format!("an unclosed {tag}")))?;
            if !body[..head_end].contains("explicit") {
                return Err(bad(format!("its {tag} is not given as explicit rows")));
            }
            let end = body
                .find(&format!("</{tag}>"))
                .ok_or_else(|| bad(format!("an unclosed {tag}")))?;
            let mut rows = Vec::new();
            for chunk in body[head_end..end].split("<row>").skip(1) {
                let row = chunk.split("</row>").next().unwrap_or("");
                let values = row
                    .split("<me>")
                    .skip(1)
                    .map(|v| {
                        let v = v.split("</me>").next().unwrap_or("").trim();
                        v.parse::<f64>().map_err(|_| {
                            bad(format!("`{}` is not a number", crate::fault::excerpt(v)))
                        })
                    })
                    .collect::<Result<Vec<f64>, Error>>()?;
                rows.push(values);
            }
            Ok(rows)
        };
        let met = section("pre-crawford-table")?;
        let post = section("post-crawford-table")?;
        let n = met.len();
        if n == 0 || met.iter().any(|r| r.len() < n) || post.first().is_none_or(|r| r.len() < n - 1)
        {
            return Err(bad("its rows are shorter than its table is long".into()));
        }
        let trailer = &post[0];
        let post_crawford = (0..n)
            .map(|j| trailer.get(j).map_or(f64::NAN, |p| 1.0 - p))
            .collect();
        Ok(Met {
            variant: name,
            length: n as u32,
            met: met.into_iter().map(|r| r[..n].to_vec()).collect(),
            post_crawford,
        })
    }
}

/// Text between the first `open` and the `close` after it.
fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let len = text[start..].find(close)?;
    Some(&text[start..start + len])
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn row_xml(values: impl Iterator<Item = f64>) -> String {
    let mut out = String::from("    <row>\n");
    for v in values {
        out += &format!("      <me>{v:.12}</me>\n");
    }
    out += "    </row>\n";
    out
}

/// Two tables side by side on the scores both hold (up to the shorter one's length).
#[derive(Debug, Clone, Serialize)]
pub struct MetComparison {
    /// The first table.
    pub ours: Met,
    /// The second (gnubg's).
    pub theirs: Met,
    /// The scores compared.
    pub length: u32,
    /// The largest difference, first minus second, and where (`A`, `B`).
    pub largest: (f64, u32, u32),
}

impl MetComparison {
    /// Compares `ours` with `theirs`.
    pub fn new(ours: Met, theirs: Met) -> MetComparison {
        let n = ours.length.min(theirs.length);
        let mut largest = (0.0f64, 1, 1);
        for a in 0..n as usize {
            for b in 0..n as usize {
                let d = ours.met[a][b] - theirs.met[a][b];
                if d.abs() > largest.0.abs() {
                    largest = (d, a as u32 + 1, b as u32 + 1);
                }
            }
        }
        MetComparison {
            ours,
            theirs,
            length: n,
            largest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_written_in_gnubgs_format_reads_back() {
        let met = Met {
            variant: "x".into(),
            length: 2,
            met: vec![vec![0.5, 0.7], vec![0.3, 0.5]],
            post_crawford: vec![0.5, 0.52],
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.xml");
        std::fs::write(&path, met.gnubg_xml("a & b", "test")).unwrap();
        let back = Met::read_gnubg(&path).unwrap();
        assert_eq!(back.variant, "a & b");
        assert_eq!(back.met, met.met);
        for (x, y) in back.post_crawford.iter().zip(&met.post_crawford) {
            assert!((x - y).abs() < 1e-12);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // gnubg's row: the trailer's chance, 1 - 0.52.
        assert!(text.contains("<me>0.480000000000</me>"), "{text}");
    }
}
