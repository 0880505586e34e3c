//! The workbench's work: a position line read and drawn as `show --svg` draws it (or
//! refused, with the field of the form at fault), Popeye input imported, and solves run
//! as jobs. Each solve is a `fairysolve solve --json` process of its own on one thread:
//! the page polls its progress, a stop interrupts it as Ctrl-C does (it reports what it
//! proved), and no solve can take the server down with it.

use super::http::{self, ApiError};
use super::token;
use super::{lock, Shared};
use crate::cli::input::gather;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use fairysolve::epd::Record;
use fairysolve::problem::{Aim, Stipulation};
use hashbrown::HashMap;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The names of the four FEN fields, as the form calls them.
const FEN_FIELDS: [&str; 4] = ["placement", "turn", "castling", "ep"];

/// Longest position line taken (as the files' readers take).
const MAX_LINE: usize = 65536;

/// The field of the form that column `column` (1-based) of `line` belongs to: one of the
/// FEN fields, else the operation written there (`dm` is the form's `stip`).
fn field_at(line: &str, column: usize, record: Option<&Record>) -> String {
    let at = column.saturating_sub(1);
    let chars: Vec<char> = line.chars().collect();
    // The spans of the FEN fields, the first four words.
    let mut words = Vec::new();
    let mut i = 0;
    while words.len() < FEN_FIELDS.len() && i < chars.len() {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() {
            i += 1;
        }
        if start < i {
            words.push((start, i));
        }
    }
    if let Some(k) = words.iter().position(|&(_, end)| at < end) {
        return FEN_FIELDS[k].to_string();
    }
    let operations_start = words.last().map_or(0, |&(_, end)| end);
    let opcode = match record {
        Some(rec) => rec
            .operations
            .iter()
            .filter(|o| o.column <= at)
            .max_by_key(|o| o.column)
            .map(|o| o.opcode.clone()),
        // An operation that could not be read: the word after the last `;` before it.
        None => {
            let end = (at + 1).min(chars.len());
            let mut i = (operations_start..end)
                .rev()
                .find(|&i| chars[i] == ';')
                .map_or(operations_start, |i| i + 1);
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            let word: String = chars[i..]
                .iter()
                .take_while(|c| !c.is_whitespace() && !matches!(c, ';' | '"'))
                .collect();
            Some(word)
        }
    };
    match opcode.as_deref() {
        Some("dm") | Some("stip") => "stip".to_string(),
        Some(op) if !op.is_empty() => op.to_string(),
        _ => "line".to_string(),
    }
}

/// A reader's message about the line (`--fen: line 1, column N: what`) as a refusal of
/// the field it concerns.
fn refusal(line: &str, message: &str, record: Option<&Record>) -> ApiError {
    let rest = message.strip_prefix("--fen: ").unwrap_or(message);
    let located = rest.strip_prefix("line 1, column ").and_then(|r| {
        let (number, what) = r.split_once(": ")?;
        Some((number.parse::<usize>().ok()?, what))
    });
    match located {
        Some((column, what)) => ApiError::unprocessable(what)
            .in_field(field_at(line, column, record))
            .at_column(Some(column)),
        None => ApiError::unprocessable(rest).in_field("line"),
    }
}

/// A position line read as every command reads it, and drawn.
fn read_position(line: &str) -> Result<Value, ApiError> {
    if line.len() > MAX_LINE {
        return Err(
            ApiError::unprocessable(format!("the line is longer than {MAX_LINE} bytes"))
                .in_field("line"),
        );
    }
    if line.contains(['\n', '\r']) {
        return Err(
            ApiError::unprocessable("one position line only: the text holds a line break")
                .in_field("line"),
        );
    }
    if line.trim().is_empty() {
        return Err(ApiError::unprocessable("the position line is empty").in_field("line"));
    }
    let Some(item) = gather(&[], Some(line), "").into_iter().next() else {
        return Err(ApiError::unprocessable("no position in the line").in_field("line"));
    };
    let record = item
        .record
        .as_ref()
        .map_err(|e| refusal(line, e, None))?
        .clone();
    let kind = match item
        .two_board()
        .map_err(|e| refusal(line, &e, Some(&record)))?
    {
        Some(crate::cli::input::TwoBoard::Underworld(_)) => "underworld",
        Some(crate::cli::input::TwoBoard::Glass(_)) => "glass",
        None => {
            item.problem()
                .map_err(|e| refusal(line, &e, Some(&record)))?;
            "single"
        }
    };
    let scene = crate::cli::show::scene(&item).map_err(|e| refusal(line, &e, Some(&record)))?;
    let mut fields = serde_json::Map::new();
    for (name, value) in FEN_FIELDS.iter().zip(record.fen_text.split_whitespace()) {
        fields.insert(name.to_string(), Value::String(value.to_string()));
    }
    let operations: Vec<Value> = record
        .operations
        .iter()
        .map(|o| {
            let operands: Vec<&str> = o.operands.iter().map(|x| x.text()).collect();
            json!([o.opcode, operands.join(" ")])
        })
        .collect();
    let stip = match (record.get("stip"), record.get("dm")) {
        (Some(s), _) => s.single().map(str::to_string),
        (None, Some(d)) => d.single().map(|n| format!("#{n}")),
        _ => None,
    };
    Ok(json!({
        "line": fairysolve::epd::write_record(&record),
        "fields": fields,
        "operations": operations,
        "kind": kind,
        "svg": fairysolve::svg::render(&scene),
        "stip": stip,
    }))
}

pub async fn position(body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = http::object(body)?;
    let line = http::required_text(&body, "line")?;
    Ok(http::ok(&read_position(line)?))
}

pub async fn import(body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    use fairysolve::import::{import, Imported};
    let body = http::object(body)?;
    let text = http::required_text(&body, "text")?;
    let mut lines = Vec::new();
    let mut errors = Vec::new();
    for item in import(text, "popeye") {
        match item {
            Imported::Problem(p) => {
                lines.extend(p.lines.iter().cloned());
                errors.extend(p.errors.iter().map(|e| e.to_string()));
            }
            Imported::Error(e) => errors.push(e.to_string()),
        }
    }
    Ok(http::ok(&json!({"lines": lines, "errors": errors})))
}

/// Where a solve stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum JobState {
    Running,
    Done,
    Stopped,
    Failed,
}

impl JobState {
    fn name(self) -> &'static str {
        match self {
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Stopped => "stopped",
            JobState::Failed => "failed",
        }
    }
}

/// One solve: its process and what it has said.
struct Job {
    started: Instant,
    ended: Option<Instant>,
    state: JobState,
    progress: Option<Value>,
    result: Option<Value>,
    /// What the process wrote that is not progress (a failure's reason).
    messages: String,
    stop_asked: bool,
    kill_asked: bool,
}

impl Job {
    fn to_json(&self) -> Value {
        let elapsed = self.ended.unwrap_or_else(Instant::now) - self.started;
        let error = (self.state == JobState::Failed).then(|| {
            if self.messages.trim().is_empty() {
                "the solver ended without an answer".to_string()
            } else {
                self.messages.trim().to_string()
            }
        });
        json!({
            "state": self.state.name(),
            "elapsed_ms": elapsed.as_millis() as u64,
            "progress": self.progress,
            "result": self.result,
            "error": error,
        })
    }
}

/// The solves, running and finished (kept a while for the page to read).
pub struct Solves {
    most: usize,
    jobs: Mutex<HashMap<String, Arc<Mutex<Job>>>>,
}

/// How long a finished solve's answer is kept.
const KEEP: Duration = Duration::from_secs(30 * 60);
/// Beyond its time limit a solver process gets this long to report before it is ended.
const GRACE: Duration = Duration::from_secs(10);

impl Solves {
    pub fn new(most: usize) -> Solves {
        Solves {
            most,
            jobs: Mutex::new(HashMap::new()),
        }
    }

    fn find(&self, id: &str) -> Result<Arc<Mutex<Job>>, ApiError> {
        lock(&self.jobs)
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no solve {id}")))
    }

    /// Ends every solver process (the server is stopping).
    pub fn stop_all(&self) {
        for job in lock(&self.jobs).values() {
            lock(job).kill_asked = true;
        }
        // The watchers end their processes within their next look.
        std::thread::sleep(Duration::from_millis(120));
    }
}

/// What a solve asks for, checked.
struct SolveRequest {
    line: String,
    stip: Option<Stipulation>,
    tries: bool,
    set_play: bool,
    max_solutions: Option<u64>,
    time_limit: u64,
}

fn solve_request(body: &serde_json::Map<String, Value>) -> Result<SolveRequest, ApiError> {
    let line = http::required_text(body, "line")?.to_string();
    let drawn = read_position(&line)?;
    let given = http::text(body, "stip")?
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let stip = match given {
        Some(text) => Some(Stipulation::parse(text).ok_or_else(|| {
            ApiError::unprocessable(format!(
                "'{text}' is not a stipulation: #N, h#N, h#N.5 or s#N with N in 1..={}",
                fairysolve::problem::MAX_MOVES
            ))
            .in_field("stip")
        })?),
        None => None,
    };
    let stated = drawn["stip"].as_str().and_then(Stipulation::parse);
    let Some(effective) = stip.or(stated) else {
        return Err(ApiError::unprocessable(
            "no stipulation: give one (#2, h#3, s#2) or put stip in the line",
        )
        .in_field("stip"));
    };
    if effective.aim.is_proof_game() {
        return Err(ApiError::unprocessable(
            "proof games are solved on the command line (fairysolve solve); the workbench solves #N, h#N and s#N",
        )
        .in_field("stip"));
    }
    let tries = http::flag(body, "tries")?;
    let set_play = http::flag(body, "set_play")?;
    let max_solutions = http::number(body, "max_solutions", 1..=100_000)?;
    let help = effective.aim == Aim::Help;
    if set_play && (help || effective.moves < 2) {
        return Err(
            ApiError::unprocessable("set play applies to #N and s#N with N >= 2")
                .in_field("set_play"),
        );
    }
    if max_solutions.is_some() && !help {
        return Err(ApiError::unprocessable(
            "a most number of solutions applies to help-mates (h#N, h#N.5)",
        )
        .in_field("max_solutions"));
    }
    let time_limit = http::number(body, "time_limit", 1..=600)?.unwrap_or(60);
    Ok(SolveRequest {
        line,
        stip,
        tries,
        set_play,
        max_solutions,
        time_limit,
    })
}

/// The solver process of a request: `fairysolve solve --json` on one thread, with its
/// progress as JSON lines on standard error.
fn spawn(req: &SolveRequest) -> std::io::Result<Child> {
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    cmd.args(["solve", "--json", "--progress-json", "--threads", "1"])
        .args(["--time-limit", &req.time_limit.to_string()])
        .args(["--fen", &req.line]);
    if let Some(s) = req.stip {
        cmd.args(["--stip", &s.to_string()]);
    }
    if req.tries {
        cmd.arg("--tries");
    }
    if req.set_play {
        cmd.arg("--set-play");
    }
    if let Some(n) = req.max_solutions {
        cmd.args(["--max-solutions", &n.to_string()]);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
}

/// Asks a solver process to stop as Ctrl-C would: it reports what it proved.
fn interrupt(child: &mut Child) {
    #[cfg(unix)]
    // SAFETY: sends a signal to our own child, whose id is valid until it is waited for.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    #[cfg(not(unix))]
    let _ = child.kill();
}

/// Follows a solve to its end: its standard error gives progress, its standard output the
/// answer; a stop asked for interrupts it, and one past its time limit and grace is ended.
fn watch(job: Arc<Mutex<Job>>, mut child: Child, limit: Duration) {
    let stderr = child.stderr.take();
    let progress_job = job.clone();
    let errors = std::thread::spawn(move || {
        let Some(stderr) = stderr else { return };
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let parsed = serde_json::from_str::<Value>(&line)
                .ok()
                .and_then(|v| v.get("progress").cloned());
            let mut j = lock(&progress_job);
            match parsed {
                Some(p) => j.progress = Some(p),
                None if j.messages.len() < 64 * 1024 => {
                    j.messages.push_str(&line);
                    j.messages.push('\n');
                }
                None => {}
            }
        }
    });
    let stdout = child.stdout.take();
    let output = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut out) = stdout {
            let _ = out.read_to_string(&mut text);
        }
        text
    });
    let started = Instant::now();
    let mut interrupted = false;
    loop {
        match child.try_wait() {
            Ok(Some(_)) | Err(_) => break,
            Ok(None) => {}
        }
        let (stop, kill) = {
            let j = lock(&job);
            (j.stop_asked, j.kill_asked)
        };
        if kill || started.elapsed() > limit + GRACE {
            let _ = child.kill();
        } else if stop && !interrupted {
            interrupt(&mut child);
            interrupted = true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.wait();
    let _ = errors.join();
    let text = output.join().unwrap_or_default();
    // One JSON object per position: the last is the answer (`--fen` gives one).
    let result = text
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<Value>(l).ok());
    let mut j = lock(&job);
    j.ended = Some(Instant::now());
    j.state = match (&result, j.stop_asked) {
        (None, _) => JobState::Failed,
        (Some(_), true) => JobState::Stopped,
        (Some(_), false) => JobState::Done,
    };
    j.result = result;
}

pub async fn solve(
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = http::object(body)?;
    let req = solve_request(&body)?;
    let solves = &shared.solves;
    let mut jobs = lock(&solves.jobs);
    jobs.retain(|_, j| lock(j).ended.is_none_or(|t| t.elapsed() < KEEP));
    let running = jobs
        .values()
        .filter(|j| lock(j).state == JobState::Running)
        .count();
    if running >= solves.most {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{running} solves are running, the most at once: stop one or wait for it"),
        ));
    }
    let child = spawn(&req).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the solver cannot be started: {e}"),
        )
    })?;
    let id = token::fresh();
    let job = Arc::new(Mutex::new(Job {
        started: Instant::now(),
        ended: None,
        state: JobState::Running,
        progress: None,
        result: None,
        messages: String::new(),
        stop_asked: false,
        kill_asked: false,
    }));
    jobs.insert(id.clone(), job.clone());
    drop(jobs);
    let limit = Duration::from_secs(req.time_limit);
    std::thread::spawn(move || watch(job, child, limit));
    Ok(http::ok(&json!({"job": id})))
}

pub async fn job(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let job = shared.solves.find(&id)?;
    let body = lock(&job).to_json();
    Ok(http::ok(&body))
}

pub async fn stop(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let job = shared.solves.find(&id)?;
    lock(&job).stop_asked = true;
    // The process answers within a second; the page reads the outcome as it polls.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let body = lock(&job).to_json();
    Ok(http::ok(&body))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each column of a line names the field of the form it belongs to.
    #[test]
    fn columns_name_their_fields() {
        let line = "8/8/8/1k6/6B1/8/3K4/2R5 b - - taxi \"3 x\"; stip \"h#2\";";
        assert_eq!(field_at(line, 1, None), "placement");
        assert_eq!(field_at(line, 25, None), "turn");
        assert_eq!(field_at(line, 27, None), "castling");
        assert_eq!(field_at(line, 29, None), "ep");
        assert_eq!(field_at(line, 31, None), "taxi");
        assert_eq!(field_at(line, 37, None), "taxi");
        assert_eq!(field_at(line, 44, None), "stip");
    }

    /// The reader's refusals come back with the field and the column.
    #[test]
    fn refusals_name_the_field() {
        let e =
            read_position("8/8/8/1k6/6B1/8/3K4/2R5 b - - taxi \"3 x\"; stip \"h#2\";").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("taxi"));
        assert_eq!(e.column, Some(31));
        assert!(
            e.message.starts_with("taxi: 'x' is no amount of cash"),
            "{}",
            e.message
        );
        let e = read_position("8/8/8/8/6B1/8/3K4/2R5 b - - stip \"h#2\";").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("placement"));
        assert_eq!(e.message, "Black has no king");
        let e = read_position("8/8/8/1k6/6B1/8/3K4/2R5 x - -").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("turn"), "{}", e.message);
    }
}
