//! The Looking-Glass table: hidden games between two people (rules.md 5.7), each player
//! on a private link that carries an unguessable token. The referee of the `referee`
//! command settles every order; a player is answered only with what the referee
//! addresses to that player (`Report::view`) and its own board, so nothing the player
//! may not know leaves the server until the game is over and both boards are shown.
//!
//! A game is kept on disk as the orders the referee accepted, one per line after a
//! header (its start, rule and tokens): at start the server plays them again, so a game
//! survives a restart exactly as it stood.

use super::http::{self, ApiError};
use super::token;
use super::{lock, Shared};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use fairysolve::fen::write_placement;
use fairysolve::glass::referee::{
    own_board, parse_order, setup_line, OrderError, Referee, Report, Status,
};
use fairysolve::glass::setup::position_line;
use fairysolve::glass::{read_line, Side};
use fairysolve::types::Color;
use hashbrown::HashMap;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path as FsPath, PathBuf};
use std::sync::{Arc, Mutex};

/// The first line of a game's file names its format.
const FORMAT: &str = "fairysolve looking-glass game 1";
/// Most games the server keeps, and most orders a game takes (a player who asks
/// forever must not fill the disk).
const MOST_GAMES: usize = 10_000;
const MOST_ORDERS: usize = 20_000;
/// Chess960 arrays: 0..960, 518 the standard one.
const ARRAYS: u64 = 960;

/// One game.
pub struct Game {
    id: String,
    /// The white player's token, then the black one's.
    tokens: [String; 2],
    forfeit: bool,
    referee: Referee,
    /// Every order answered, by whom, with the referee's answer.
    log: Vec<(Color, Report)>,
    file: PathBuf,
}

impl Game {
    /// What `player` sees of the game now: own board, whose turn, the strikes, the
    /// referee's answers addressed to that player, and both boards once it is over.
    fn view(&self, player: Color) -> Value {
        let state = self.referee.state();
        let own = own_board(player);
        let to_pick = self
            .referee
            .pick_offer()
            .filter(|(picker, _)| *picker == player)
            .map(|(_, choices)| choices);
        let log: Vec<Value> = self
            .log
            .iter()
            .enumerate()
            .filter_map(|(i, (by, report))| entry(i, *by, report, player))
            .collect();
        let over = self.referee.is_over();
        let strikes = self.referee.strikes();
        json!({
            "game": self.id,
            "color": player.letter().to_string(),
            "board_name": own.letter().to_string(),
            "board": write_placement(state.board(own).board()),
            "turn": state.turn.letter().to_string(),
            "to_pick": to_pick,
            "forfeit": self.forfeit,
            "strikes": {"w": strikes[0], "b": strikes[1]},
            "over": over,
            "result": over.then(|| self.result()),
            "log": log,
            "reveal": over.then(|| json!({
                "real": write_placement(state.board(Side::Real).board()),
                "mirror": write_placement(state.board(Side::Mirror).board()),
                "line": position_line(state),
            })),
        })
    }

    /// How the game ended, in words.
    fn result(&self) -> String {
        match self.log.last().map(|(_, r)| r) {
            Some(Report::Played(p)) if p.status == Status::Win => {
                format!("{} wins: the king is captured", p.mover.name())
            }
            Some(Report::Played(p)) if p.status == Status::Draw => {
                "Draw: the side to move has no move on either board".to_string()
            }
            Some(Report::Strike {
                color, lost: true, ..
            }) => format!("{} loses by three strikes", color.name()),
            _ => "The game is over".to_string(),
        }
    }

    /// Answers `player`'s order `text` (without the side letter) on a copy of the
    /// referee; `record` keeps the accepted order (on disk) before the game goes on.
    fn order(
        &mut self,
        player: Color,
        text: &str,
        record: impl FnOnce(&str) -> std::io::Result<()>,
    ) -> Result<usize, ApiError> {
        if self.log.len() >= MOST_ORDERS {
            return Err(ApiError::unprocessable(format!(
                "the game has had {MOST_ORDERS} orders, the most a game takes"
            ))
            .in_field("order"));
        }
        let line = order_line(player, text)?;
        let order = parse_order(&line).map_err(|e| match e {
            // The column is counted in what the player wrote, not in the side letter
            // put before it.
            OrderError::Unreadable { column, message } => ApiError::unprocessable(message.clone())
                .in_field("order")
                .at_column(Some(column.saturating_sub(2).max(1))),
            e => ApiError::unprocessable(e.to_string()).in_field("order"),
        })?;
        let mut referee = self.referee.clone();
        let report = referee
            .order(order)
            .map_err(|e| ApiError::unprocessable(e.to_string()).in_field("order"))?;
        record(&line).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the game cannot be saved, the order is not played: {e}"),
            )
        })?;
        self.referee = referee;
        self.log.push((player, report));
        Ok(self.log.len() - 1)
    }
}

/// One answer of the log as `player` hears it, numbered, with who ordered.
fn entry(i: usize, by: Color, report: &Report, player: Color) -> Option<Value> {
    report.view(player).map(|mut v| {
        v["n"] = json!(i + 1);
        v["by"] = json!(by.letter().to_string());
        v
    })
}

/// The referee's order line for what `player` wrote: the side letter is the link's (a
/// player may write it, but only his own).
fn order_line(player: Color, text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or_default();
    if first == (!player).letter().to_string() && words.next().is_some() {
        return Err(ApiError::unprocessable(format!(
            "you play {}: your orders are {}'s",
            player.name(),
            player.name()
        ))
        .in_field("order"));
    }
    let own = player.letter().to_string();
    let rest = match text.strip_prefix(&own) {
        Some(r) if r.starts_with(char::is_whitespace) => r.trim_start(),
        _ => text,
    };
    Ok(format!("{own} {rest}"))
}

/// Every game, by id.
pub struct Games {
    dir: PathBuf,
    games: Mutex<HashMap<String, Arc<Mutex<Game>>>>,
}

/// A game read back from its file, or why not (with the line at fault).
fn load(path: &FsPath) -> Result<Game, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut lines = text.lines();
    let header: Value = lines
        .next()
        .and_then(|l| serde_json::from_str(l).ok())
        .ok_or("line 1: not a game's header")?;
    if header["format"] != FORMAT {
        return Err(format!("line 1: not a game of this version ({FORMAT})"));
    }
    let field = |name: &str| {
        header[name]
            .as_str()
            .map(str::to_string)
            .ok_or(format!("line 1: no {name}"))
    };
    let id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| token::well_formed(s))
        .ok_or("the file's name is not a game id")?;
    let tokens = [field("white")?, field("black")?];
    if !tokens.iter().all(|t| token::well_formed(t)) {
        return Err("line 1: a token is not well formed".into());
    }
    let start = field("line")?;
    let forfeit = header["forfeit"].as_bool().unwrap_or(false);
    let problem = read_line(&start).map_err(|e| format!("line 1: the start {start}: {e}"))?;
    let mut game = Game {
        id,
        tokens,
        forfeit,
        referee: Referee::new(problem.state, forfeit, [0, 0]),
        log: Vec::new(),
        file: path.to_path_buf(),
    };
    for (i, line) in lines.enumerate() {
        let color = match line.split_whitespace().next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            _ => return Err(format!("line {}: not an order: {line}", i + 2)),
        };
        let text = line.trim_start()[1..].trim_start();
        game.order(color, text, |_| Ok(()))
            .map_err(|e| format!("line {}: {line}: {}", i + 2, e.message))?;
    }
    Ok(game)
}

impl Games {
    /// The games kept in `dir` (created if missing), each played again from its orders;
    /// the notes say which files could not be taken up and why (they are left as they
    /// are).
    pub fn open(dir: &FsPath) -> Result<(Games, Vec<String>), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create: {e}"))?;
        let mut games = HashMap::new();
        let mut notes = Vec::new();
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read: {e}"))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "game"))
            .collect();
        paths.sort();
        for path in paths {
            match load(&path) {
                Ok(game) => {
                    games.insert(game.id.clone(), Arc::new(Mutex::new(game)));
                }
                Err(e) => notes.push(format!("{}: {e}; the game is not taken up", path.display())),
            }
        }
        Ok((
            Games {
                dir: dir.to_path_buf(),
                games: Mutex::new(games),
            },
            notes,
        ))
    }

    pub fn count(&self) -> usize {
        lock(&self.games).len()
    }

    /// The game of a link and the colour its token plays. A wrong game and a wrong token
    /// get the same answer: a link tells nothing about other links.
    pub fn player(&self, game: &str, tok: &str) -> Result<(Arc<Mutex<Game>>, Color), ApiError> {
        let unknown = || ApiError::not_found("no game at this link");
        if !token::well_formed(game) || !token::well_formed(tok) {
            return Err(unknown());
        }
        let found = lock(&self.games).get(game).cloned().ok_or_else(unknown)?;
        let color = {
            let g = lock(&found);
            if token::same(&g.tokens[0], tok) {
                Color::White
            } else if token::same(&g.tokens[1], tok) {
                Color::Black
            } else {
                return Err(unknown());
            }
        };
        Ok((found, color))
    }

    /// A new game from `start` (a Looking-Glass position line), written to disk.
    fn create(&self, start: String, forfeit: bool) -> Result<Value, ApiError> {
        let problem = read_line(&start)
            .map_err(|e| ApiError::unprocessable(e.to_string()).in_field("line"))?;
        let mut games = lock(&self.games);
        if games.len() >= MOST_GAMES {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server keeps {MOST_GAMES} games, the most it takes"),
            ));
        }
        let id = token::fresh();
        let tokens = [token::fresh(), token::fresh()];
        let file = self.dir.join(format!("{id}.game"));
        let header = json!({
            "format": FORMAT, "line": start, "forfeit": forfeit,
            "white": tokens[0], "black": tokens[1],
        });
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&file)
            .and_then(|mut f| writeln!(f, "{header}"))
            .map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the game cannot be saved in {}: {e}", self.dir.display()),
                )
            })?;
        let links = json!({
            "game": id,
            "white": format!("/play/{id}/{}", tokens[0]),
            "black": format!("/play/{id}/{}", tokens[1]),
        });
        games.insert(
            id.clone(),
            Arc::new(Mutex::new(Game {
                id,
                tokens,
                forfeit,
                referee: Referee::new(problem.state, forfeit, [0, 0]),
                log: Vec::new(),
                file,
            })),
        );
        Ok(links)
    }
}

/// A Chess960 array asked for, or one drawn at random.
fn array(body: &serde_json::Map<String, Value>, name: &str) -> Result<usize, ApiError> {
    Ok(match http::number(body, name, 0..=ARRAYS - 1)? {
        Some(n) => n as usize,
        None => (u64::from_str_radix(&token::fresh()[..12], 16).unwrap_or(0) % ARRAYS) as usize,
    })
}

pub async fn create(
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = http::object(body)?;
    let forfeit = http::flag(&body, "forfeit")?;
    let start = match http::text(&body, "line")? {
        Some(line) => line.trim().to_string(),
        None => setup_line(array(&body, "white_array")?, array(&body, "black_array")?),
    };
    let links = shared.games.create(start, forfeit)?;
    Ok(http::json_response(StatusCode::CREATED, &links))
}

pub async fn state(
    State(shared): State<Arc<Shared>>,
    Path((game, tok)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let (game, color) = shared.games.player(&game, &tok)?;
    let view = lock(&game).view(color);
    Ok(http::ok(&view))
}

pub async fn order(
    State(shared): State<Arc<Shared>>,
    Path((game, tok)): Path<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let (game, color) = shared.games.player(&game, &tok)?;
    let body = http::object(body)?;
    let text = http::required_text(&body, "order")?;
    let mut g = lock(&game);
    let file = g.file.clone();
    let at = g.order(color, text, |line| {
        let mut f = std::fs::OpenOptions::new().append(true).open(&file)?;
        writeln!(f, "{line}")?;
        f.sync_data()
    })?;
    let (by, report) = &g.log[at];
    let answer = entry(at, *by, report, color).unwrap_or(Value::Null);
    let view = g.view(color);
    Ok(http::ok(&json!({"answer": answer, "state": view})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_get_the_links_side_letter() {
        assert_eq!(order_line(Color::White, "R:e2e4").unwrap(), "w R:e2e4");
        assert_eq!(order_line(Color::White, " w R:e2e4 ").unwrap(), "w R:e2e4");
        assert_eq!(order_line(Color::Black, "ask").unwrap(), "b ask");
        assert_eq!(
            order_line(Color::White, "b M:e7e5").unwrap_err().message,
            "you play White: your orders are White's"
        );
    }
}
