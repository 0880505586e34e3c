//! `fairysolve serve` over HTTP, as the pages use it (docs/serve.md): the workbench's
//! position reading, import and solving (with progress and stop); the Looking-Glass
//! table's private links, over random games checked answer by answer against the
//! referee itself (rules.md 5.7-5.8: a player is told its own board and the referee's
//! view addressed to it, nothing else); refusals of malformed or oversized requests that
//! change nothing; games that survive a restart of the server.

mod common;

use common::{bin, Rng};
use fairysolve::generic::TurnGame;
use fairysolve::glass::referee::{own_board, parse_order, setup_line, Referee, Report};
use fairysolve::glass::{read_line, GState, Glass, Side};
use fairysolve::types::{Color, Square};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A server of this build on a free loopback port, ended when dropped.
struct Server {
    child: Child,
    addr: String,
    /// The server's standard output, kept open: a closed pipe would end the server at
    /// its next line (SIGPIPE).
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Server {
    fn start(games: &Path) -> Server {
        let mut child = bin()
            .args(["serve", "--addr", "127.0.0.1:0", "--games"])
            .arg(games)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut first = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut first).unwrap();
        let addr = first
            .trim()
            .strip_prefix("fairysolve serve: http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Server {
            child,
            addr,
            _stdout: stdout,
        }
    }

    /// One request; the status and the body.
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        stream.write_all(request).unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {answer:?}"));
        let body = answer
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_string());
        (status, body)
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        self.raw(&[head.as_bytes(), body.as_bytes()].concat())
    }

    /// A JSON request and its JSON answer.
    fn call(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        let body = if body.is_null() {
            String::new()
        } else {
            body.to_string()
        };
        let (status, text) = self.request(method, path, &body);
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text:?}"));
        (status, value)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        self.call("GET", path, Value::Null)
    }

    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.call("POST", path, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An empty directory of this test's own for games.
fn games_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fairysolve-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn pages_and_their_files_are_served_and_nothing_else() {
    let server = Server::start(&games_dir("pages"));
    for (path, kind) in [
        ("/", "text/html"),
        ("/glass", "text/html"),
        ("/assets/style.css", "text/css"),
        ("/assets/board.js", "text/javascript"),
        ("/assets/workbench.js", "text/javascript"),
        ("/assets/play.js", "text/javascript"),
    ] {
        let head = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let mut stream = TcpStream::connect(&server.addr).unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {answer:.80}");
        assert!(
            answer
                .to_lowercase()
                .contains(&format!("content-type: {kind}")),
            "{path}"
        );
        // Nothing is fetched from elsewhere.
        assert!(!answer.contains("https://"), "{path} loads from elsewhere");
    }
    for path in [
        "/assets/../Cargo.toml",
        "/assets/workbench.html",
        "/assets/nothing.js",
        "/api/nothing",
        "/play/0123/4567",
    ] {
        let (status, body) = server.get(path);
        assert_eq!(status, 404, "{path}");
        assert!(body["error"].is_string(), "{path}: {body}");
    }
    let (status, _) = server.request("GET", "/api/position", "");
    assert_eq!(status, 405);
}

#[test]
fn the_workbench_reads_draws_and_refuses_lines_by_field() {
    let server = Server::start(&games_dir("position"));
    let (status, v) = server.post(
        "/api/position",
        json!({"line": "8/8/8/1k6/6B1/8/3K4/2R5 b - - taxi \"3 0\"; stip \"h#2\";"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["kind"], "single");
    assert_eq!(v["stip"], "h#2");
    assert_eq!(
        v["fields"],
        json!({"placement": "8/8/8/1k6/6B1/8/3K4/2R5", "turn": "b", "castling": "-", "ep": "-"})
    );
    assert_eq!(v["operations"], json!([["taxi", "3 0"], ["stip", "h#2"]]));
    let svg = v["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("data-square=\"b5\""));
    // Two-board games are drawn with both boards.
    for (line, kind) in [
        (
            "7k/5Kp1/8/8/8/8/8/8 w - - underworld \"8/8/7k/8/7R/8/8/4K3\"; phase WU; dm 1;",
            "underworld",
        ),
        (
            "6B1/8/8/8/8/8/8/R2K4 w - - mirror \"7k/6pp/8/8/8/8/8/8\"; dm 2;",
            "glass",
        ),
    ] {
        let (status, v) = server.post("/api/position", json!({ "line": line }));
        assert_eq!((status, v["kind"].as_str()), (200, Some(kind)), "{v}");
        assert_eq!(
            v["svg"]
                .as_str()
                .unwrap()
                .matches("class=\"board\"")
                .count(),
            2
        );
    }
    // Each refusal names the field it concerns, with the reader's own message.
    for (line, field, column, message) in [
        (
            "8/8/8/1k6/6B1/8/3K4/2R5 b - - taxi \"3 x\"; stip \"h#2\";",
            "taxi",
            31,
            "taxi: 'x' is no amount of cash; \"W B\" (cash in hand of White and Black) expected",
        ),
        (
            "8/8/8/8/6B1/8/3K4/2R5 b - - stip \"h#2\";",
            "placement",
            1,
            "Black has no king",
        ),
        (
            "8/8/8/1k6/6B1/8/3K4/2R9 b - -",
            "placement",
            23,
            "'9' is not a count of empty squares",
        ),
    ] {
        let (status, v) = server.post("/api/position", json!({ "line": line }));
        assert_eq!(status, 422, "{line}: {v}");
        assert_eq!(
            v,
            json!({"error": message, "field": field, "column": column}),
            "{line}"
        );
    }
    let (status, v) = server.post("/api/position", json!({"line": "a\nb"}));
    assert_eq!((status, v["field"].as_str()), (422, Some("line")));
}

#[test]
fn the_workbench_imports_popeye_problems() {
    let server = Server::start(&games_dir("import"));
    let popeye = "BeginProblem\nPieces\nWhite Kb6 Rh1\nBlack Ka8\nStipulation #1\nEndProblem\n";
    let (status, v) = server.post("/api/import", json!({ "text": popeye }));
    assert_eq!(status, 200, "{v}");
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "{v}");
    assert!(
        lines[0]
            .as_str()
            .unwrap()
            .starts_with("k7/8/1K6/8/8/8/8/7R w - -"),
        "{v}"
    );
    assert_eq!(v["errors"], json!([]));
    let (status, v) = server.post(
        "/api/import",
        json!({"text": "BeginProblem\nPieces\nWhite Kx9\nEndProblem\n"}),
    );
    assert_eq!(status, 200);
    assert_eq!(v["lines"], json!([]));
    assert!(!v["errors"].as_array().unwrap().is_empty(), "{v}");
}

/// Polls a solve until it is no longer running (within `limit`).
fn finished(server: &Server, job: &str, limit: Duration) -> Value {
    let start = Instant::now();
    loop {
        let (status, v) = server.get(&format!("/api/solve/{job}"));
        assert_eq!(status, 200, "{v}");
        if v["state"] != "running" {
            return v;
        }
        assert!(start.elapsed() < limit, "the solve still runs: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_workbench_solves_with_progress_and_stops_on_request() {
    let server = Server::start(&games_dir("solve"));
    // A help-mate: the page's answer is the solver's own JSON (formats.md 2).
    let (status, v) = server.post(
        "/api/solve",
        json!({"line": "8/8/8/1k6/6B1/8/3K4/2R5 b - -", "stip": "h#2", "time_limit": 30}),
    );
    assert_eq!(status, 200, "{v}");
    let done = finished(&server, v["job"].as_str().unwrap(), Duration::from_secs(30));
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["result"]["status"], "solved");
    assert_eq!(
        done["result"]["solutions"],
        json!([["b5a4", "d2c3", "a4a3", "c1a1"]])
    );
    assert_eq!(
        done["progress"]["done"], done["progress"]["total"],
        "{done}"
    );
    // A direct mate with tries: the key and the tree.
    let (_, v) = server.post(
        "/api/solve",
        json!({"line": "k7/8/1K6/8/8/8/8/7R w - - dm 1;", "tries": true}),
    );
    let done = finished(&server, v["job"].as_str().unwrap(), Duration::from_secs(30));
    assert_eq!(done["result"]["keys"], json!(["h1h8"]), "{done}");
    assert_eq!(done["result"]["tree"]["h1h8"]["san"], "Rh8#");
    // A long self-mate (W. Hundsdorfer's s#6), stopped after a second: it says what it
    // proved and that it is incomplete.
    let (_, v) = server.post(
        "/api/solve",
        json!({"line": "KR2N3/4P1P1/6QB/3N1pPB/n6P/rP6/ppkPP2P/3R4 w - f6", "stip": "s#6"}),
    );
    let job = v["job"].as_str().unwrap().to_string();
    std::thread::sleep(Duration::from_millis(1000));
    let (status, running) = server.get(&format!("/api/solve/{job}"));
    assert_eq!(
        (status, running["state"].as_str()),
        (200, Some("running")),
        "{running}"
    );
    let asked = Instant::now();
    let (status, _) = server.post(&format!("/api/solve/{job}/stop"), Value::Null);
    assert_eq!(status, 200);
    let stopped = finished(&server, &job, Duration::from_secs(5));
    assert!(asked.elapsed() < Duration::from_secs(3));
    assert_eq!(stopped["state"], "stopped", "{stopped}");
    assert_eq!(stopped["result"]["complete"], false, "{stopped}");
    assert_eq!(stopped["result"]["status"], "timeout", "{stopped}");
    // Refusals by field, before anything runs.
    for (body, field) in [
        (json!({"line": "k7/8/1K6/8/8/8/8/7R w - -"}), "stip"),
        (
            json!({"line": "k7/8/1K6/8/8/8/8/7R w - -", "stip": "x#2"}),
            "stip",
        ),
        (
            json!({"line": "k7/8/1K6/8/8/8/8/7R w - -", "stip": "#2", "max_solutions": 3}),
            "max_solutions",
        ),
        (
            json!({"line": "k7/8/1K6/8/8/8/8/7R w - -", "stip": "h#2", "set_play": true}),
            "set_play",
        ),
        (
            json!({"line": "k7/8/1K6/8/8/8/8/7R w - -", "stip": "#2", "time_limit": 0}),
            "time_limit",
        ),
        (
            json!({"line": "k7/8/1K6/8/8/8/8/7R w - - taxi \"1\";", "stip": "#2"}),
            "taxi",
        ),
    ] {
        let (status, v) = server.post("/api/solve", body.clone());
        assert_eq!(
            (status, v["field"].as_str()),
            (422, Some(field)),
            "{body}: {v}"
        );
    }
    let (status, _) = server.get("/api/solve/0123456789abcdef0123456789abcdef");
    assert_eq!(status, 404);
}

#[test]
fn malformed_and_oversized_requests_are_refused_and_change_nothing() {
    let server = Server::start(&games_dir("malformed"));
    let (_, links) = server.post(
        "/api/games",
        json!({"white_array": 518, "black_array": 518}),
    );
    let white = format!("/api{}", links["white"].as_str().unwrap());
    let before = server.get(&white).1;
    let order = format!("{white}/order");
    for (body, status, error) in [
        (
            "{\"order\": \"R:e2e",
            400,
            "the request body is not JSON: EOF while parsing a string at line 1 column 16",
        ),
        ("[1, 2]", 400, "the request body is not a JSON object"),
        ("{\"order\": 5}", 400, "'order' must be a string"),
        ("{}", 400, "'order' is missing"),
        (
            "{\"order\": \"R:e2\"}",
            422,
            "'e2' is not two squares and an optional promotion letter",
        ),
        (
            "{\"order\": \"b M:e7e5\"}",
            422,
            "you play White: your orders are White's",
        ),
    ] {
        let (got, text) = server.request("POST", &order, body);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!((got, v["error"].as_str()), (status, Some(error)), "{body}");
    }
    let big = format!("{{\"order\": \"{}\"}}", "a".repeat(300 * 1024));
    let (got, text) = server.request("POST", &order, &big);
    assert_eq!(got, 413, "{text:.200}");
    assert_eq!(
        server.get(&white).1,
        before,
        "a refused request changed the game"
    );
    // Not an HTTP request at all.
    let (got, _) = server.raw(b"HELLO\r\n\r\n");
    assert_eq!(got / 100, 4);
    // Black's order while White is to move is refused, not a strike.
    let black = format!("/api{}", links["black"].as_str().unwrap());
    let (got, v) = server.post(&format!("{black}/order"), json!({"order": "M:e7e5"}));
    assert_eq!(
        (got, v["error"].as_str()),
        (422, Some("it is White's turn"))
    );
    assert_eq!(server.get(&white).1, before);
}

/// A random order of the side to move (or of the side that must pick): a legal move as
/// it is, or squares drawn from its men and the board, on either board.
fn random_order(s: &GState, picking: Option<&[String]>, rng: &mut Rng) -> String {
    if let Some(choices) = picking {
        return format!("pick {}", choices[rng.below(choices.len())]);
    }
    let moves = Glass {
        attacker: Color::White,
    }
    .moves(s);
    if rng.below(8) == 0 {
        return "ask".into();
    }
    if !moves.is_empty() && rng.below(2) == 0 {
        return fairysolve::glass::notation::coord(moves[rng.below(moves.len())]);
    }
    let side = [Side::Real, Side::Mirror][rng.below(2)];
    let men: Vec<Square> = s.board(side).board().by_color(s.turn).into_iter().collect();
    let from = if men.is_empty() || rng.below(8) == 0 {
        Square::new(rng.below(64) as u8)
    } else {
        men[rng.below(men.len())]
    };
    let to = Square::new(rng.below(64) as u8);
    format!("{}:{from}{to}", side.letter())
}

/// What the server must answer `player` after the orders `log`, from the referee itself:
/// its own board, the turn, the views addressed to it, both boards only at the end.
fn expected_state(r: &Referee, log: &[(Color, Report)], player: Color, forfeit: bool) -> Value {
    let s = r.state();
    let own = own_board(player);
    let views: Vec<Value> = log
        .iter()
        .enumerate()
        .filter_map(|(i, (by, rep))| {
            rep.view(player).map(|mut v| {
                v["n"] = json!(i + 1);
                v["by"] = json!(by.letter().to_string());
                v
            })
        })
        .collect();
    let over = r.is_over();
    json!({
        "color": player.letter().to_string(),
        "board_name": own.letter().to_string(),
        "board": fairysolve::fen::write_placement(s.board(own).board()),
        "turn": s.turn.letter().to_string(),
        "to_pick": r.pick_offer().filter(|(c, _)| *c == player).map(|(_, ch)| ch),
        "forfeit": forfeit,
        "strikes": {"w": r.strikes()[0], "b": r.strikes()[1]},
        "over": over,
        "log": views,
        "reveal": over.then(|| json!({
            "real": fairysolve::fen::write_placement(s.board(Side::Real).board()),
            "mirror": fairysolve::fen::write_placement(s.board(Side::Mirror).board()),
            "line": fairysolve::glass::setup::position_line(s),
        })),
    })
}

/// The state the server gave, without the fields the referee does not decide (the
/// game's id and the result in words).
fn comparable(mut v: Value) -> Value {
    let map = v.as_object_mut().unwrap();
    map.remove("game");
    map.remove("result");
    v
}

/// Random games played over HTTP by both players' links: every answer and every state
/// is exactly what the referee addresses to that player (its `view`, which
/// tests/glass_referee.rs proves tells nothing a player may not know) with the player's
/// own board; the other board appears only once the game is over. Then the server is
/// stopped and started again on the same directory: every game is as it was.
#[test]
fn rule_5_8e_random_games_over_http_tell_each_player_only_its_own() {
    let dir = games_dir("random");
    let mut server = Server::start(&dir);
    let mut rng = Rng(0x5e7e_9a3e);
    let mut games = Vec::new();
    let mut orders = 0;
    for g in 0..24 {
        let forfeit = g % 3 == 2;
        let (w, b) = (rng.below(960), rng.below(960));
        let start = setup_line(w, b);
        let (status, links) = server.post(
            "/api/games",
            json!({"white_array": w, "black_array": b, "forfeit": forfeit}),
        );
        assert_eq!(status, 201, "{links}");
        let paths = [
            format!("/api{}", links["white"].as_str().unwrap()),
            format!("/api{}", links["black"].as_str().unwrap()),
        ];
        let mut referee = Referee::new(read_line(&start).unwrap().state, forfeit, [0, 0]);
        let mut log: Vec<(Color, Report)> = Vec::new();
        for _ in 0..60 {
            if referee.is_over() {
                break;
            }
            let offer = referee.pick_offer();
            let who = offer.as_ref().map_or(referee.state().turn, |(c, _)| *c);
            let text = random_order(
                referee.state(),
                offer.as_ref().map(|(_, ch)| ch.as_slice()),
                &mut rng,
            );
            let line = format!("{} {text}", who.letter());
            let expected = parse_order(&line)
                .ok()
                .and_then(|o| referee.clone().order(o).ok());
            let (status, answer) = server.post(
                &format!("{}/order", paths[who.index()]),
                json!({"order": text}),
            );
            let Some(report) = expected else {
                assert_eq!(status, 422, "{start}: {line}: {answer}");
                continue;
            };
            assert_eq!(status, 200, "{start}: {line}: {answer}");
            referee.order(parse_order(&line).unwrap()).unwrap();
            log.push((who, report));
            orders += 1;
            let mut view = log.last().unwrap().1.view(who).unwrap();
            view["n"] = json!(log.len());
            view["by"] = json!(who.letter().to_string());
            assert_eq!(answer["answer"], view, "{start}: {line}");
            for player in Color::ALL {
                let (_, got) = server.get(&paths[player.index()]);
                assert_eq!(
                    comparable(got),
                    expected_state(&referee, &log, player, forfeit),
                    "{start}: after {line}, {player:?}'s state"
                );
            }
        }
        games.push(paths);
    }
    assert!(orders > 600, "only {orders} orders played");
    // The games, before and after a restart.
    let before: Vec<[Value; 2]> = games
        .iter()
        .map(|p| [server.get(&p[0]).1, server.get(&p[1]).1])
        .collect();
    drop(server);
    server = Server::start(&dir);
    for (paths, was) in games.iter().zip(&before) {
        assert_eq!(&[server.get(&paths[0]).1, server.get(&paths[1]).1], was);
    }
    // A token of one game opens no other game, and one side's token is not the other's.
    let id0 = games[0][0].split('/').nth(3).unwrap();
    let token1 = games[1][0].split('/').nth(4).unwrap();
    let (status, _) = server.get(&format!("/api/play/{id0}/{token1}"));
    assert_eq!(status, 404);
}
