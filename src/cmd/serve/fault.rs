//! What the API answers when it does not answer the question: a status and the message
//! the command line would print, sent as `{"error": message}`.

use hyper::StatusCode;
use tabula::table::TableError;

/// A request the API does not answer: its status and a message naming the fault, sent as
/// `{"error": message}`.
#[derive(Debug)]
pub struct Fault {
    /// 4xx for the client's fault, 5xx for the server's.
    pub status: StatusCode,
    /// What is wrong.
    pub message: String,
}

impl Fault {
    /// 400: the request is malformed.
    pub fn bad(message: impl Into<String>) -> Fault {
        Fault::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: no such route or table.
    pub fn not_found(message: impl Into<String>) -> Fault {
        Fault::new(StatusCode::NOT_FOUND, message)
    }

    /// 414: the query is too long.
    pub fn uri_too_long(message: impl Into<String>) -> Fault {
        Fault::new(StatusCode::URI_TOO_LONG, message)
    }

    /// Any status. The message is held to the excerpt rule, as the command line's are
    /// (`tabula::error::shorten_message`).
    pub fn new(status: StatusCode, message: impl Into<String>) -> Fault {
        Fault {
            status,
            message: tabula::error::shorten_message(&message.into()),
        }
    }

    /// The body: `{"error": "…"}`.
    pub fn body(&self) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({ "error": self.message })).unwrap_or_default()
    }
}

impl From<tabula::Error> for Fault {
    /// The command line's exit 2 (bad input) is a 400; a missing table, cube table or
    /// cubeless table beside a cube table of equities alone a 404; a damaged or foreign
    /// table, or any other failure, a 500.
    fn from(e: tabula::Error) -> Fault {
        let status = match e.kind() {
            tabula::ErrorKind::Input => StatusCode::BAD_REQUEST,
            tabula::ErrorKind::Table if missing(&e) => StatusCode::NOT_FOUND,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Fault::new(status, e.to_string())
    }
}

/// Whether `e` says that a table is not there (rather than damaged).
fn missing(e: &tabula::Error) -> bool {
    use tabula::gammon::Error as G;
    use tabula::nikoniko::Error as N;
    matches!(
        e,
        tabula::Error::Table(TableError::Missing { .. })
            | tabula::Error::Gammon(
                G::Table(TableError::Missing { .. }) | G::NoCube { .. } | G::NoChances { .. }
            )
            | tabula::Error::Nikoniko(N::Table(TableError::Missing { .. }))
    )
}
