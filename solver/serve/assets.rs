//! The pages and their files, built into the binary: nothing is fetched from elsewhere
//! when a page is shown. `--assets DIR` reads the same names from DIR instead.

use super::http::ApiError;
use super::Shared;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use std::path::PathBuf;
use std::sync::Arc;

/// Every file the pages use: name, type, text.
const FILES: &[(&str, &str, &str)] = &[
    (
        "workbench.html",
        "text/html; charset=utf-8",
        include_str!("assets/workbench.html"),
    ),
    (
        "glass.html",
        "text/html; charset=utf-8",
        include_str!("assets/glass.html"),
    ),
    (
        "play.html",
        "text/html; charset=utf-8",
        include_str!("assets/play.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("assets/style.css"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/board.js"),
    ),
    (
        "workbench.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/workbench.js"),
    ),
    (
        "glass.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/glass.js"),
    ),
    (
        "play.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/play.js"),
    ),
];

/// Where the files come from.
pub struct Assets {
    from_disk: Option<PathBuf>,
}

impl Assets {
    pub fn new(from_disk: Option<PathBuf>) -> Assets {
        Assets { from_disk }
    }

    /// The file `name` (one of `FILES` only: no other path is ever read) and its type.
    fn get(&self, name: &str) -> Option<(&'static str, String)> {
        let &(_, kind, text) = FILES.iter().find(|(n, _, _)| *n == name)?;
        let text = match &self.from_disk {
            Some(dir) => std::fs::read_to_string(dir.join(name)).ok()?,
            None => text.to_string(),
        };
        Some((kind, text))
    }

    fn response(&self, name: &str) -> Response {
        match self.get(name) {
            Some((kind, text)) => (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, kind),
                    (header::CACHE_CONTROL, "no-cache"),
                    // The pages load nothing from elsewhere, and say so to the browser.
                    (
                        header::CONTENT_SECURITY_POLICY,
                        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
                    ),
                    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                ],
                text,
            )
                .into_response(),
            None => ApiError::not_found(format!("no file {name}")).into_response(),
        }
    }
}

pub async fn workbench_page(State(shared): State<Arc<Shared>>) -> Response {
    shared.assets.response("workbench.html")
}

pub async fn glass_page(State(shared): State<Arc<Shared>>) -> Response {
    shared.assets.response("glass.html")
}

/// A player's page: only for a game and token that belong together, so that a wrong
/// link says so at once.
pub async fn play_page(
    State(shared): State<Arc<Shared>>,
    Path((game, token)): Path<(String, String)>,
) -> Response {
    match shared.games.player(&game, &token) {
        Ok(_) => shared.assets.response("play.html"),
        Err(e) => e.into_response(),
    }
}

pub async fn file(State(shared): State<Arc<Shared>>, Path(name): Path<String>) -> Response {
    // The pages are served at their own addresses, not as files.
    if name.ends_with(".html") {
        return ApiError::not_found(format!("no file {name}")).into_response();
    }
    shared.assets.response(&name)
}
