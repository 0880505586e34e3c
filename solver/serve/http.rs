//! Requests and answers of the JSON API: a body is read whole within `MAX_BODY` and must
//! be a JSON object; every refusal is a 4xx whose body says what is wrong and, where it
//! concerns one field of a form, which (`{"error", "field", "column"}`).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

/// Largest request body: a position line, a Popeye file of a few problems, an order.
pub const MAX_BODY: usize = 256 * 1024;

/// A refusal: its status, message, and the field of the form it concerns.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub field: Option<String>,
    pub column: Option<usize>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            field: None,
            column: None,
        }
    }

    /// A request that is well formed but cannot be done as asked (422).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn in_field(mut self, field: impl Into<String>) -> ApiError {
        self.field = Some(field.into());
        self
    }

    pub fn at_column(mut self, column: Option<usize>) -> ApiError {
        self.column = column;
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": self.message, "field": self.field, "column": self.column});
        json_response(self.status, &body)
    }
}

/// A JSON answer.
pub fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response()
}

pub fn ok(body: &Value) -> Response {
    json_response(StatusCode::OK, body)
}

/// The body of a request as a JSON object, or the refusal that says why not: too large
/// (413), not UTF-8 JSON (400), not an object (400).
pub fn object(body: Result<Bytes, BytesRejection>) -> Result<Map<String, Value>, ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request body is larger than {MAX_BODY} bytes"),
            )
        } else {
            ApiError::new(e.status(), format!("the request body cannot be read: {e}"))
        }
    })?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the request body is not JSON: {e}")))?;
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(ApiError::bad_request(
            "the request body is not a JSON object",
        )),
    }
}

/// A text field of a request: absent or null is `None`; any other type is refused.
pub fn text<'a>(body: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::bad_request(format!("'{name}' must be a string")).in_field(name)),
    }
}

/// A text field that must be there.
pub fn required_text<'a>(body: &'a Map<String, Value>, name: &str) -> Result<&'a str, ApiError> {
    text(body, name)?
        .ok_or_else(|| ApiError::bad_request(format!("'{name}' is missing")).in_field(name))
}

/// A yes/no field (absent: no).
pub fn flag(body: &Map<String, Value>, name: &str) -> Result<bool, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => {
            Err(ApiError::bad_request(format!("'{name}' must be true or false")).in_field(name))
        }
    }
}

/// A whole number field within `range` (absent or null: `None`).
pub fn number(
    body: &Map<String, Value>,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<Option<u64>, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64().filter(|n| range.contains(n)) {
            Some(n) => Ok(Some(n)),
            None => Err(ApiError::unprocessable(format!(
                "'{name}' must be a whole number from {} to {}",
                range.start(),
                range.end()
            ))
            .in_field(name)),
        },
    }
}

/// Any path the server does not know.
pub async fn not_found(uri: axum::http::Uri) -> Response {
    ApiError::not_found(format!("nothing at {}", uri.path())).into_response()
}
