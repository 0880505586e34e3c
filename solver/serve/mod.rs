//! `fairysolve serve`: a local web server with two pages built into the binary, the
//! composer's workbench (set up, solve, read the solution) and the Looking-Glass table
//! (a hidden game between two people, each on a private link).
//!
//! - `http`: requests and answers: JSON bodies read with a size limit, errors as JSON
//!   with the field they concern;
//! - `assets`: the pages, styles and scripts (embedded; `--assets DIR` reads them from
//!   disk while they are being written);
//! - `workbench`: reading a position for the diagram, Popeye import, solving jobs;
//! - `table`: the Looking-Glass games, their private links, kept on disk as orders;
//! - `token`: unguessable names for links and jobs.

mod assets;
mod http;
mod table;
mod token;
mod workbench;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on. The default is reachable from this computer only; another
    /// address lets anyone who can reach it use the workbench and the table.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Directory where Looking-Glass games are kept (one file each, the orders played);
    /// created if missing, and the games in it are taken up again at start.
    #[arg(long, value_name = "DIR", default_value = "fairysolve-games")]
    pub games: PathBuf,
    /// Most solves running at once (each is one solver process on one thread).
    #[arg(long = "max-solves", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub max_solves: u64,
    /// Serve the pages from DIR instead of the copies built into the binary (for work
    /// on the pages themselves).
    #[arg(long, value_name = "DIR", hide = true)]
    pub assets: Option<PathBuf>,
}

/// A lock of the server's shared state, also after a panic while it was held: every
/// change to a game or a solve is put in place whole (a game's on a copy, a solve's in
/// one assignment), so what the lock guards is consistent either way.
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What every request handler shares.
pub struct Shared {
    pub assets: assets::Assets,
    pub solves: workbench::Solves,
    pub games: table::Games,
}

/// The routes: pages, their files, and the JSON API (docs/serve.md).
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(assets::workbench_page))
        .route("/glass", get(assets::glass_page))
        .route("/play/{game}/{token}", get(assets::play_page))
        .route("/assets/{name}", get(assets::file))
        .route("/api/position", post(workbench::position))
        .route("/api/import", post(workbench::import))
        .route("/api/solve", post(workbench::solve))
        .route("/api/solve/{job}", get(workbench::job))
        .route("/api/solve/{job}/stop", post(workbench::stop))
        .route("/api/games", post(table::create))
        .route("/api/play/{game}/{token}", get(table::state))
        .route("/api/play/{game}/{token}/order", post(table::order))
        .fallback(http::not_found)
        .layer(DefaultBodyLimit::max(http::MAX_BODY))
        .with_state(shared)
}

pub fn run(args: ServeArgs) -> bool {
    let games = match table::Games::open(&args.games) {
        Ok((games, notes)) => {
            for note in notes {
                eprintln!("{note}");
            }
            games
        }
        Err(e) => {
            eprintln!("--games {}: {e}", args.games.display());
            return false;
        }
    };
    let count = games.count();
    let shared = Arc::new(Shared {
        assets: assets::Assets::new(args.assets.clone()),
        solves: workbench::Solves::new(args.max_solves as usize),
        games,
    });
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("serve: cannot start: {e}");
            return false;
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(args.addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("--addr {}: cannot listen: {e}", args.addr);
                return false;
            }
        };
        let addr = listener.local_addr().unwrap_or(args.addr);
        if !addr.ip().is_loopback() {
            eprintln!(
                "serve: listening on {addr}, not the loopback address: anyone who can reach it can use the workbench and open games by their links"
            );
        }
        // The first line is the address (scripts and tests read it); the three lines go
        // out in one write, so a reader that stops after the first has them all.
        let banner = format!(
            "fairysolve serve: http://{addr}/\n  workbench: http://{addr}/   Looking-Glass table: http://{addr}/glass\n  games kept in {} ({count} taken up); Ctrl-C stops\n",
            args.games.display()
        );
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(banner.as_bytes()).and_then(|()| out.flush());
        drop(out);
        let solves = shared.clone();
        let server = axum::serve(listener, router(shared)).with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        });
        let ok = match server.await {
            Ok(()) => true,
            Err(e) => {
                eprintln!("serve: {e}");
                false
            }
        };
        // Solver processes end with the server.
        solves.solves.stop_all();
        ok
    })
}
