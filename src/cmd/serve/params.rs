//! A request's query parameters: percent-decoded (a `+` stays a `+`, as Position IDs
//! need), each named once, each one the route knows; a fault is a 400 naming it.

use super::fault::Fault;
use percent_encoding::percent_decode_str;
use std::str::FromStr;

/// The longest query string accepted, in bytes.
pub const MAX_QUERY: usize = 4096;

/// The parameters of one request.
pub struct Params {
    pairs: Vec<(String, String)>,
    used: Vec<bool>,
}

impl Params {
    /// Decodes `query` (`a=1&b=2`).
    pub fn parse(query: Option<&str>) -> Result<Params, Fault> {
        let query = query.unwrap_or("");
        if query.len() > MAX_QUERY {
            return Err(Fault::uri_too_long(format!(
                "the query is {} bytes long, at most {MAX_QUERY} are read",
                query.len()
            )));
        }
        let mut pairs: Vec<(String, String)> = Vec::new();
        for item in query.split('&').filter(|s| !s.is_empty()) {
            let (name, value) = item.split_once('=').unwrap_or((item, ""));
            let (name, value) = (decode(name)?, decode(value)?);
            if pairs.iter().any(|(n, _)| *n == name) {
                return Err(Fault::bad(format!(
                    "parameter {} is given twice",
                    tabula::error::shorten(&name)
                )));
            }
            pairs.push((name, value));
        }
        let used = vec![false; pairs.len()];
        Ok(Params { pairs, used })
    }

    /// Whether `name` is given (without reading it).
    pub fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|(n, _)| n == name)
    }

    /// The value of `name`, if given.
    pub fn get(&mut self, name: &str) -> Option<String> {
        let i = self.pairs.iter().position(|(n, _)| n == name)?;
        self.used[i] = true;
        Some(self.pairs[i].1.clone())
    }

    /// The value of `name`, which must be given.
    pub fn required(&mut self, name: &str) -> Result<String, Fault> {
        self.get(name)
            .ok_or_else(|| Fault::bad(format!("parameter `{name}` is missing")))
    }

    /// A yes-or-no parameter: absent, empty, `true` or `1` for yes, `false` or `0` for no.
    pub fn flag(&mut self, name: &str) -> Result<bool, Fault> {
        match self.get(name).as_deref() {
            None | Some("false" | "0") => Ok(false),
            Some("" | "true" | "1") => Ok(true),
            Some(other) => Err(Fault::bad(format!(
                "parameter `{name}`: {} is not true or false",
                tabula::error::shorten(other)
            ))),
        }
    }

    /// A parameter read by `FromStr` (a number, a pattern), if given.
    pub fn parsed<T: FromStr>(&mut self, name: &str) -> Result<Option<T>, Fault>
    where
        T::Err: std::fmt::Display,
    {
        self.get(name)
            .map(|v| {
                v.parse::<T>().map_err(|e| {
                    Fault::bad(format!(
                        "parameter `{name}`: {} is refused: {e}",
                        tabula::error::shorten(&v)
                    ))
                })
            })
            .transpose()
    }

    /// Refuses any parameter the route did not read (a misspelt name is not ignored).
    pub fn finish(self) -> Result<(), Fault> {
        let unknown: Vec<&str> = (self.pairs.iter().zip(&self.used))
            .filter(|(_, &used)| !used)
            .map(|((n, _), _)| n.as_str())
            .collect();
        /// Unknown names listed; the rest are counted.
        const LISTED: usize = 5;
        match unknown.as_slice() {
            [] => Ok(()),
            names => {
                let mut list = (names.iter().take(LISTED))
                    .map(|n| tabula::error::shorten(n))
                    .collect::<Vec<_>>()
                    .join(", ");
                if names.len() > LISTED {
                    list.push_str(&format!(" and {} more", names.len() - LISTED));
                }
                Err(Fault::bad(format!(
                    "unknown parameter{} {list}",
                    if names.len() == 1 { "" } else { "s" },
                )))
            }
        }
    }
}

/// Percent-decodes one name or value, which must be UTF-8.
pub fn decode(text: &str) -> Result<String, Fault> {
    percent_decode_str(text)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| {
            Fault::bad(format!(
                "{} is not UTF-8 once decoded",
                tabula::error::shorten(text)
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_decoded_once_each_and_a_plus_stays_a_plus() {
        let mut p = Params::parse(Some("position=4HPw+TDgc%2FABMA&cube=owned&x")).unwrap();
        assert_eq!(p.get("position").unwrap(), "4HPw+TDgc/ABMA");
        assert_eq!(p.required("cube").unwrap(), "owned");
        assert!(p.flag("x").unwrap());
        p.finish().unwrap();
        assert!(Params::parse(Some("a=1&a=2")).is_err());
        let p = Params::parse(Some("a=1&typo=2")).unwrap();
        let e = p.finish().unwrap_err();
        assert!(
            e.message.contains("`a`") && e.message.contains("`typo`"),
            "{}",
            e.message
        );
        assert!(Params::parse(Some("a=%FF")).is_err());
        assert_eq!(
            Params::parse(Some(&"a".repeat(MAX_QUERY + 1)))
                .err()
                .unwrap()
                .status,
            hyper::StatusCode::URI_TOO_LONG
        );
    }
}
