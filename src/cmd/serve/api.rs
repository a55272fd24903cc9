//! The API's routes (`docs/serve.md`): a path and its query parameters in, the JSON
//! document the command line prints with `--json` for the same question out, made by the
//! same function, or a [`Fault`](super::fault::Fault): a status and the message the
//! command line would print.

use super::fault::Fault;
use super::params::Params;
use super::state::{State, RACE};
use crate::cmd::gammon::answer;
use crate::cmd::gammon::args::{parse_cube, parse_owner, xgid_score, CubeArg, XgidScore};
use crate::cmd::gammon::matchplay;
use clap::ValueEnum;
use hyper::StatusCode;
use serde::Serialize;
use tabula::gammon::{CubeState, Variant};

/// An answer: a JSON document.
pub type Answer = Result<Vec<u8>, Fault>;

/// The document of `value`, as the command line's `--json` writes it (compact here).
fn json<T: Serialize>(value: &T) -> Answer {
    serde_json::to_vec(value)
        .map_err(|e| Fault::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

/// The route that analyses a match file, sent as the body of a `POST`.
pub const ANALYSE: &str = "/api/gammon/analyse";

/// `POST /api/gammon/analyse`: the match file in `body` (gnubg's `.sgf` or a `.mat`, told
/// apart by their first characters), analysed as `tabula gammon analyse FILE --json`
/// analyses it, with the tables of the server's folder. The file's own faults (a damaged
/// line, another variant) are listed in the document, as the command line lists them,
/// and the rest of the file is analysed; a table missing is a 404, as elsewhere.
pub fn analyse(state: &State, query: Option<&str>, body: &[u8]) -> Answer {
    Params::parse(query)?.finish()?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(Fault::bad(
            "the request has no match file: POST the text of a .sgf or .mat file as its body",
        ));
    }
    let record = crate::cmd::gammon::analyse::read_text(body, false);
    if record.played == tabula::gammon::gnubg::record::Played::Backgammon {
        return bearoff_analyse(state, &record);
    }
    let analysis = crate::cmd::gammon::analyse::analysis_with(
        &record,
        |name| {
            let name = name.expect("a judged file names its variant");
            state.handle(&Variant::parse(&name).map_err(tabula::Error::from)?)
        },
        |v, score| {
            matchplay::score_tables(
                v,
                score,
                Some(state.folder()),
                tabula::table::Reader::long_lived(),
            )
        },
    )?;
    json(&analysis)
}

/// A backgammon file's bear-offs, as `tabula bearoff analyse FILE --json` judges them with
/// the two-sided tables of the server's folder and gnubg's match-equity table; no
/// two-sided table is a 404 naming the build of the 6×6.
fn bearoff_analyse(state: &State, record: &tabula::gammon::gnubg::record::MatchRecord) -> Answer {
    use tabula::gammon::bearoff::store::{Kind, TwoSidedTable};
    let owned = state.two_sided_tables();
    if owned.is_empty() {
        let build = crate::cmd::bearoff::answer::build_command(&Kind::two_sided(6, 6, true), None);
        return Err(Fault::not_found(format!(
            "a backgammon file's bear-offs are judged by a two-sided bear-off table, and the \
             server's folder has none: {build}"
        )));
    }
    let tables: Vec<&TwoSidedTable> = owned.iter().map(|t| &**t).collect();
    let met = match record.length {
        0 => None,
        _ => crate::cmd::bearoff::analyse::open_met(None)?,
    };
    let analysis = tabula::gammon::bearoff::analysis::analyse(
        record,
        &tables,
        None,
        met.as_ref(),
        tabula::progress::Progress::SILENT,
    )
    .map_err(tabula::Error::from)?;
    json(&analysis)
}

/// Whether a route may compute for long (bingo's laws, numeron's searches, a bear-off at
/// a match score, which solves the pairs its game reaches: seconds for the largest):
/// those run on the blocking pool, a few at a time.
pub fn is_heavy(path: &str, query: Option<&str>) -> bool {
    let at_score = || {
        Params::parse(query).is_ok_and(|mut p| p.has("score") || xgid_of_match(&mut p).is_some())
    };
    path.starts_with("/api/bingo/")
        || path.starts_with("/api/numeron/")
        || (path.starts_with("/api/bearoff/") && at_score())
}

/// Answers `path` (under `/api/`) with its parameters.
pub fn answer(state: &State, path: &str, query: Option<&str>) -> Answer {
    let mut params = Params::parse(query)?;
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let document = match segments.as_slice() {
        ["api", "variants"] => json(&state.listing()),
        ["api", "gammon", variant, question] => gammon(state, variant, question, &mut params),
        ["api", "bearoff", table, question] => bearoff(state, table, question, &mut params),
        ["api", "bingo", "law"] => bingo_law(&mut params),
        ["api", "numeron", "next"] => numeron_next(&mut params),
        ["api", "poker", "compare"] => poker_compare(&mut params),
        _ => Err(Fault::not_found(format!(
            "no route {}: see /api/variants and docs/serve.md",
            tabula::error::shorten(path)
        ))),
    }?;
    params.finish()?;
    Ok(document)
}

/// `/api/gammon/{variant}/{question}`: the family's questions, as `tabula gammon
/// {question} --variant {variant} --json` answers them with the server's tables folder.
fn gammon(state: &State, variant: &str, question: &str, params: &mut Params) -> Answer {
    let name = super::params::decode(variant)?;
    let v = Variant::parse(&name).map_err(tabula::Error::from)?;
    let open = || state.handle(&v);
    // A position given as an XGID of a match position, without a score, is asked at its
    // score, as on the command line.
    let xgid = match params.has("score") {
        true => None,
        false => params.get("position").and_then(|p| xgid_score(&p)),
    };
    match question {
        "show" => json(&answer::show(
            &v,
            &state.numbers(&v)?,
            &params.required("position")?,
        )?),
        "moves" => {
            let (position, roll) = (params.required("position")?, params.required("roll")?);
            json(&answer::moves(&v, &state.numbers(&v)?, &position, &roll)?)
        }
        "equity" if params.has("score") || xgid.is_some() => {
            let position = params.required("position")?;
            let at = at_score(params, xgid)?;
            let open = |s| state.score_tables(&v, s);
            json(&matchplay::equity_answer(
                &v,
                &position,
                &at.borrowed(state),
                &open,
            )?)
        }
        "hint" if params.has("score") || xgid.is_some() => {
            let (position, roll) = (params.required("position")?, params.required("roll")?);
            let at = at_score(params, xgid)?;
            let open = |s| state.score_tables(&v, s);
            json(&matchplay::hint_answer(
                &v,
                &position,
                &roll,
                &at.borrowed(state),
                &open,
            )?)
        }
        "equity" => {
            let position = params.required("position")?;
            let cube = cube_state(params)?.unwrap_or(CubeState::Centred);
            json(&answer::equity(&v, open, &position, cube)?)
        }
        "hint" => {
            let (position, roll) = (params.required("position")?, params.required("roll")?);
            let cube = cube_state(params)?;
            json(&answer::hint(&v, open, &position, &roll, cube)?)
        }
        "opening" => json(&answer::opening(&*open()?)?),
        other => Err(Fault::not_found(format!(
            "no question {} of the family: show, moves, equity, hint or opening",
            tabula::error::shorten(other)
        ))),
    }
}

/// The score an XGID of a match given as `position` brings.
fn xgid_of_match(params: &mut Params) -> Option<XgidScore> {
    params.get("position").and_then(|p| xgid_score(&p))
}

/// The parameters of a question at a match score, read.
struct ScoreParams {
    score: String,
    crawford: bool,
    cube: Option<CubeArg>,
    owner: Option<tabula::gammon::matchplay::CubeOwner>,
}

impl ScoreParams {
    /// The question at that score, the match tables the server's folder's.
    fn borrowed<'a>(&'a self, state: &'a State) -> matchplay::AtScore<'a> {
        matchplay::AtScore {
            score: &self.score,
            crawford: self.crawford,
            cube: self.cube,
            owner: self.owner,
            folder: Some(state.folder()),
        }
    }
}

/// At a match score: `score` (`A-B`), `crawford=true`, `cube` (the cube's value) and
/// `owner` (`on-roll` or `opponent`), as the command line's `--score`, `--crawford`,
/// `--cube` and `--owner`; the match tables are the tables folder's. Or the score an
/// XGID brings (`xgid`), with its cube unless `cube` is given.
fn at_score(params: &mut Params, xgid: Option<XgidScore>) -> Result<ScoreParams, Fault> {
    let (score, crawford) = match &xgid {
        // The XGID's Crawford flag is the game's; a `crawford` given beside it is read
        // and has no say.
        Some(x) => (
            x.score.clone(),
            params.flag("crawford").map(|_| x.crawford)?,
        ),
        None => (params.required("score")?, params.flag("crawford")?),
    };
    let cube = match params.get("cube") {
        None => None,
        Some(text) => Some(parse_cube(&text).map_err(|reason| invalid("cube", &text, &reason))?),
    };
    let owner = match params.get("owner") {
        None => None,
        Some(text) => Some(parse_owner(&text).ok_or_else(|| {
            Fault::bad(format!(
                "parameter `owner`: {} is not on-roll or opponent",
                tabula::error::shorten(&text)
            ))
        })?),
    };
    // Without `cube`, the XGID's cube and owner.
    let (cube, owner) = match (&xgid, cube) {
        (Some(x), None) => (Some(CubeArg::Value(x.cube)), x.owner),
        _ => (cube, owner),
    };
    Ok(ScoreParams {
        score,
        crawford,
        cube,
        owner,
    })
}

/// `/api/bearoff/{table}/{question}`: the bear-off questions, as `tabula bearoff
/// {question} --table DIR/{table}.tbl --json` answers them. `{table}` is a table's file
/// name in the folder, with or without `.tbl` (`bearoff-os-6`, `bearoff-ts-6x6`,
/// `bearoff-ts-6x15-cubeless`); only those names are opened.
fn bearoff(state: &State, table: &str, question: &str, params: &mut Params) -> Answer {
    use crate::cmd::bearoff::answer;
    use tabula::gammon::bearoff::store::Kind;
    let name = super::params::decode(table)?;
    if name == RACE {
        return race(state, question, params);
    }
    let kind = Kind::of_file_name(&name).ok_or_else(|| {
        Fault::not_found(format!(
            "no bear-off table {}: their names are bearoff-os-P, bearoff-ts-PxC and \
             bearoff-ts-PxC-cubeless (see /api/variants)",
            tabula::error::shorten(&name)
        ))
    })?;
    kind.check().map_err(tabula::Error::from)?;
    let sided = |wanted: &str| {
        Fault::not_found(format!(
            "{question} is a question of a {wanted} table; {} is {}",
            kind.file_name().trim_end_matches(".tbl"),
            kind.name()
        ))
    };
    match question {
        "distribution" => {
            let position = params.required("position")?;
            if kind.two_sided {
                return Err(sided("one-sided"));
            }
            answer::side(&kind, &position)?;
            json(&answer::distribution(&*state.one_sided(&kind)?, &position)?)
        }
        "equity" | "hint" if params.has("score") || xgid_of_match(params).is_some() => {
            if !kind.two_sided {
                return Err(sided("two-sided"));
            }
            let position = params.required("position")?;
            let roll = match question {
                "hint" => Some(params.required("roll")?),
                _ => None,
            };
            let at = bearoff_score(params)?;
            answer::pair(&kind.index().map_err(tabula::Error::from)?, &position)?;
            bearoff_at_score(state, &*state.two_sided(&kind)?, &position, roll, at)
        }
        "equity" | "hint" => {
            let position = params.required("position")?;
            let roll = if question == "hint" {
                let roll = params.required("roll")?;
                answer::roll(&roll)?;
                Some(roll)
            } else {
                None
            };
            let cube = cube_state(params)?;
            let one_sided = match question {
                "equity" => one_sided_named(params)?,
                _ => None,
            };
            if !kind.two_sided {
                return Err(sided("two-sided"));
            }
            answer::pair(&kind.index().map_err(tabula::Error::from)?, &position)?;
            let t = state.two_sided(&kind)?;
            match roll {
                Some(roll) => json(&answer::hint(&t, &position, &roll, cube)?),
                None => {
                    let os = one_sided.map(|k| state.one_sided(&k)).transpose()?;
                    let cube = cube.unwrap_or(tabula::gammon::CubeState::Centred);
                    json(&answer::equity(&t, &position, cube, os.as_deref())?)
                }
            }
        }
        other => Err(Fault::not_found(format!(
            "no question {} of a bear-off table: distribution, equity or hint",
            tabula::error::shorten(other)
        ))),
    }
}

/// The score of a bear-off question: `score` and the rest, or an XGID of a match's.
fn bearoff_score(params: &mut Params) -> Result<ScoreParams, Fault> {
    let xgid = xgid_of_match(params).filter(|_| !params.has("score"));
    at_score(params, xgid)
}

/// A bear-off question at a match score asked of `t` (`roll` for `hint`), as `tabula
/// bearoff equity|hint … --score` answers it, with gnubg's match-equity table.
fn bearoff_at_score(
    state: &State,
    t: &tabula::gammon::bearoff::store::TwoSidedTable,
    position: &str,
    roll: Option<String>,
    at: ScoreParams,
) -> Answer {
    use crate::cmd::bearoff::at_score;
    let at = at.borrowed(state);
    let met = at_score::met(None, &at)?;
    match roll {
        Some(roll) => json(&at_score::hint_answer(t, &met, position, &roll, &at)?),
        None => json(&at_score::equity_answer(t, &met, position, &at)?),
    }
}

/// `/api/bearoff/race/{question}`: a race asked without a table named, as `tabula bearoff
/// {question} P [R] --json` answers it with the server's folder as the tables folder:
/// exact from the two-sided table `answer::race` chooses, else the one-sided estimate,
/// labelled as one. `points` and `checkers` are the command line's `--points` and
/// `--checkers` (6 and 6); `one_sided` (equity) names a one-sided table as on a table's
/// route.
fn race(state: &State, question: &str, params: &mut Params) -> Answer {
    use crate::cmd::bearoff::answer;
    if question != "equity" && question != "hint" {
        return Err(Fault::not_found(format!(
            "no question {} of a race: equity or hint",
            tabula::error::shorten(question)
        )));
    }
    let position = params.required("position")?;
    let roll = match question {
        "hint" => Some(params.required("roll")?),
        _ => None,
    };
    if params.has("score") || xgid_of_match(params).is_some() {
        let at = bearoff_score(params)?;
        let size = (
            params.parsed("points")?.unwrap_or(6),
            params.parsed("checkers")?.unwrap_or(6),
        );
        let tables = super::state::RaceFolder {
            state,
            one_sided: None,
        };
        let t = crate::cmd::bearoff::at_score::race_table(&tables, size, &position)?;
        return bearoff_at_score(state, &t, &position, roll, at);
    }
    let cube = cube_state(params)?;
    let one_sided = match roll {
        None => one_sided_named(params)?,
        Some(_) => None,
    };
    let points = params.parsed("points")?.unwrap_or(6);
    let checkers = params.parsed("checkers")?.unwrap_or(6);
    let tables = super::state::RaceFolder { state, one_sided };
    match roll {
        Some(roll) => json(&answer::race_hint(
            &tables, points, checkers, &position, &roll, cube,
        )?),
        None => json(&answer::race_equity(
            &tables,
            points,
            checkers,
            &position,
            cube.unwrap_or(CubeState::Centred),
        )?),
    }
}

/// `one_sided`: the one-sided table a question names for its estimate (`bearoff-os-P`).
fn one_sided_named(
    params: &mut Params,
) -> Result<Option<tabula::gammon::bearoff::store::Kind>, Fault> {
    use tabula::gammon::bearoff::store::Kind;
    match params.get("one_sided") {
        None => Ok(None),
        Some(name) => Kind::of_file_name(&name)
            .filter(|k| !k.two_sided)
            .map(Some)
            .ok_or_else(|| {
                Fault::bad(format!(
                    "parameter `one_sided`: {} names no one-sided table (bearoff-os-P)",
                    tabula::error::shorten(&name)
                ))
            }),
    }
}

/// `cube` (the command line's spellings: owned, centred, centred-jacoby or jacoby,
/// opponent-owns or opponent) and `jacoby=true` (the centred cube under the Jacoby rule),
/// read by the command line's own functions, so that a fault is told in its words.
fn cube_state(params: &mut Params) -> Result<Option<CubeState>, Fault> {
    let cube = match params.get("cube") {
        None => None,
        Some(text) => {
            let arg = parse_cube(&text).map_err(|reason| invalid("cube", &text, &reason))?;
            Some(crate::cmd::gammon::money_state(arg)?)
        }
    };
    let jacoby = params.flag("jacoby")?;
    Ok(match (cube, jacoby) {
        (state, false) => state,
        (None | Some(CubeState::Centred | CubeState::CentredJacoby), true) => {
            Some(CubeState::CentredJacoby)
        }
        (Some(state), true) => {
            return Err(Fault::bad(format!(
                "the Jacoby rule applies to a centred cube, not to cube={}",
                state.name()
            )))
        }
    })
}

/// A parameter's value refused by the command line's parser for its flag: the parser's
/// reason, in the form the command line gives it (`invalid value … for …: reason`).
fn invalid(name: &str, text: &str, reason: &str) -> Fault {
    Fault::bad(format!(
        "invalid value {} for `{name}`: {reason}",
        tabula::error::shorten(text)
    ))
}

/// `/api/bingo/law`: `tabula bingo exact --json` with the same parameters (`size`, `max`,
/// `pattern`, `no_free`, `players`, `cards`, `method`).
fn bingo_law(params: &mut Params) -> Answer {
    use crate::cmd::bingo::{self, CardArgs, MethodArg, PlayerArgs};
    let card = CardArgs {
        size: params.parsed("size")?.unwrap_or(5),
        max: params.parsed("max")?,
        pattern: params
            .parsed("pattern")?
            .unwrap_or(tabula::bingo::Pattern::Line),
        no_free: params.flag("no_free")?,
    };
    let players = PlayerArgs {
        players: params.parsed("players")?,
        cards: params.parsed("cards")?,
    };
    if players.cards.is_some() && players.players.is_none() {
        return Err(Fault::bad("parameter `cards` needs `players`"));
    }
    let method = match params.get("method") {
        None => MethodArg::Auto,
        Some(m) => MethodArg::from_str(&m, true).map_err(|_| {
            Fault::bad(format!(
                "parameter `method`: {} is not auto, enumerate or inclusion-exclusion",
                tabula::error::shorten(&m)
            ))
        })?,
    };
    let law = bingo::law(&card, method, &players, tabula::progress::Progress::SILENT)?;
    json(&serde_json::to_value(&law).map_err(|e| Fault::bad(e.to_string()))?)
}

/// `/api/numeron/next`: `tabula numeron next --json` (`digits`, `repeats`, `strategy`,
/// `hard`, `history` as `123:0E1B,456:1E0B`).
fn numeron_next(params: &mut Params) -> Answer {
    use crate::cmd::numeron::{self, GameArgs};
    let game = GameArgs {
        digits: params.parsed("digits")?.unwrap_or(3),
        repeats: params.flag("repeats")?,
        symbols: params.parsed("symbols")?.unwrap_or(10),
    };
    let strategy = match params.get("strategy") {
        None => tabula::numeron::Strategy::Entropy,
        Some(s) => tabula::numeron::Strategy::parse(&s).map_err(tabula::Error::from)?,
    };
    let hard = params.flag("hard")?;
    let history: Vec<String> = match params.get("history") {
        Some(h) if !h.is_empty() => h.split(',').map(str::to_string).collect(),
        _ => Vec::new(),
    };
    let report = numeron::next(&game, strategy, hard, &history)?;
    json(&serde_json::to_value(&report).map_err(|e| Fault::bad(e.to_string()))?)
}

/// `/api/poker/compare`: `tabula poker compare A B --json` (`a`, `b`, `rule`).
fn poker_compare(params: &mut Params) -> Answer {
    let (a, b) = (params.required("a")?, params.required("b")?);
    let rule = match params.get("rule") {
        None => tabula::poker::rule::Rule::article(),
        Some(r) => tabula::poker::rule::Rule::parse(&r).map_err(tabula::Error::from)?,
    };
    json(&crate::cmd::poker::comparison(&a, &b, &rule)?)
}

#[cfg(test)]
mod tests {
    use super::is_heavy;

    #[test]
    fn a_bear_off_at_a_match_score_is_a_long_computation_and_money_play_is_not() {
        let route = "/api/bearoff/bearoff-ts-6x6/equity";
        assert!(!is_heavy(route, Some("position=6,5/4,2")));
        assert!(is_heavy(route, Some("position=6,5/4,2&score=3-5")));
        let xgid = "XGID%3D-ADA---------------aa-aa--%3A1%3A1%3A1%3A00%3A19%3A19%3A0%3A25%3A10";
        assert!(is_heavy(route, Some(&format!("position={xgid}"))));
        // A money XGID (a match to 0) is not.
        let money = "XGID%3D-ADA---------------aa-aa--%3A1%3A1%3A1%3A00%3A0%3A0%3A0%3A0%3A10";
        assert!(!is_heavy(route, Some(&format!("position={money}"))));
        assert!(is_heavy("/api/numeron/next", None));
        assert!(!is_heavy(
            "/api/gammon/hyper1/equity",
            Some("position=x&score=3-5")
        ));
    }
}
