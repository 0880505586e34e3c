//! `fairysolve generate` (formats.md 3): every puzzle of a run proved again by `solve`
//! in the same test (one key, nothing shorter) and each theme checked by another
//! command; the shards of a run merged are the unsharded run, byte for byte; a run
//! resumes where it stopped; its parameters are checked with messages.

mod common;

use common::bin;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Output, Stdio};

fn fairysolve(args: &[&str]) -> Output {
    bin().args(args).stdin(Stdio::null()).output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn generate(args: &[&str]) -> Vec<String> {
    let mut all = vec!["generate", "--threads", "2"];
    all.extend_from_slice(args);
    stdout(&fairysolve(&all))
        .lines()
        .map(String::from)
        .collect()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fairysolve-generate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("epd.resume"));
    let _ = std::fs::remove_file(path.with_extension("epd.pool"));
    path
}

/// The run of `base` as its three shards, each written to its own file (`NAME-K.epd`),
/// nothing on standard output.
fn three_shards(base: &[&str], name: &str) -> Vec<PathBuf> {
    (0..3)
        .map(|k| {
            let path = temp(&format!("{name}-{k}.epd"));
            let shard = format!("{k}/3");
            let mut args = base.to_vec();
            args.extend(["--shard", shard.as_str(), "-o", path.to_str().unwrap()]);
            assert!(generate(&args).is_empty());
            path
        })
        .collect()
}

/// The operand of `opcode` in a line (`pv` gives its moves joined by spaces).
fn op(line: &str, opcode: &str) -> Option<String> {
    let start = line.find(&format!(" {opcode} "))? + opcode.len() + 2;
    let rest = &line[start..];
    let end = rest.find(';')?;
    Some(rest[..end].trim().trim_matches('"').to_string())
}

/// The line with its `stip` kept and `id`, `pv`, `c0` left out: what a composer would
/// hand to `solve`.
fn diagram(line: &str) -> String {
    line.split(';')
        .map(str::trim)
        .filter(|p| {
            !p.is_empty() && !p.starts_with("id ") && !p.starts_with("pv ") && !p.starts_with("c0 ")
        })
        .map(|p| format!("{p};"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn solve_json(line: &str, extra: &[&str]) -> Value {
    let mut args = vec!["solve", "--json", "--fen", line];
    args.extend_from_slice(extra);
    let out = fairysolve(&args);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{line}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v["keys"]
        .as_array()
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    k.sort();
    k
}

/// The puzzle proved again by `solve`: one solution, and it is the one written; for
/// #N and s#N the shortest win is N.
fn check_puzzle(line: &str, stip: &str, retro: bool) {
    let solved = solve_json(&diagram(line), if retro { &["--retro"] } else { &[] });
    assert_eq!(solved["status"], "solved", "{line}: {solved}");
    let pv = op(line, "pv").unwrap();
    let key = pv.split(' ').next().unwrap().to_string();
    assert_eq!(keys(&solved), vec![key.clone()], "{line}");
    if stip.starts_with('h') {
        let lines = solved["solutions"].as_array().unwrap();
        assert_eq!(lines.len(), 1, "{line}");
        let moves: Vec<&str> = lines[0]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(moves.join(" "), pv, "{line}");
        assert_eq!(solved["short_solutions"], serde_json::json!([]), "{line}");
    } else {
        let n: u64 = stip.trim_start_matches(['s', '#']).parse().unwrap();
        assert_eq!(solved["shortest"], n, "{line}");
    }
}

/// The key as a composer writes it (from `replay`), and each move's line of `replay`.
fn replayed(line: &str) -> Vec<String> {
    let fen = diagram(line);
    let pv = op(line, "pv").unwrap();
    let mut args = vec!["replay", "--fen", fen.as_str()];
    args.extend(pv.split(' '));
    String::from_utf8(fairysolve(&args).stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Each run: its stipulation, flags, and how many puzzles; every puzzle is checked.
#[test]
fn every_generated_puzzle_is_proved_again_by_solve() {
    let runs: &[(&str, &[&str], &str)] = &[
        ("#2", &[], "3"),
        ("#2", &["--trapdoor", "1", "--theme", "fall"], "2"),
        ("#2", &["--taxi", "2 0", "--theme", "budget"], "2"),
        ("#2", &["--earthquake", "1 0", "--theme", "seam"], "2"),
        (
            "#2",
            &[
                "--trapdoor",
                "2",
                "--taxi",
                "3 3",
                "--earthquake",
                "2 0",
                "--theme",
                "variant",
            ],
            "2",
        ),
        ("#2", &["--looking-glass", "--men", "3-5"], "2"),
        ("#3", &["--looking-glass", "--men", "3-5"], "1"),
        ("#1", &["--underworld-chess", "--men", "5-7"], "2"),
        // On Underworld the World alone is the FIDE diagram compared.
        (
            "#2",
            &["--underworld-chess", "--men", "5-7", "--theme", "variant"],
            "2",
        ),
        ("h#2", &["--underworld-chess"], "2"),
        ("h#2", &["--looking-glass", "--men", "3-5"], "2"),
        ("h#2", &["--theme", "quiet"], "2"),
        ("s#1", &[], "1"),
        // Built backwards from a Black-to-move end where every move mates (orthodox
        // self-mates): each still proved like every other puzzle.
        ("s#2", &[], "3"),
        ("s#3", &[], "2"),
        // On an Earthquake board, taken back by the board's own moves.
        ("s#2", &["--earthquake", "0 -1"], "2"),
        // On Looking-Glass, from an end where every Black move takes White's king,
        // taken back with the passes through the glass.
        ("s#2", &["--looking-glass"], "2"),
        ("s#3", &["--looking-glass"], "1"),
        (
            "#2",
            &["--trapdoor", "1", "--theme", "retro", "--men", "4-8"],
            "1",
        ),
    ];
    for (stip, flags, count) in runs {
        let mut args = vec!["--stip", stip, "--seed", "7", "--count", count];
        args.extend_from_slice(flags);
        let puzzles = generate(&args);
        assert_eq!(puzzles.len().to_string(), *count, "{args:?}");
        let theme = flags
            .iter()
            .position(|f| *f == "--theme")
            .map(|i| flags[i + 1]);
        for line in &puzzles {
            assert_eq!(op(line, "stip").as_deref(), Some(*stip), "{line}");
            check_puzzle(line, stip, theme == Some("retro"));
            let pv = op(line, "pv").unwrap();
            let moves: Vec<&str> = pv.split(' ').collect();
            match theme {
                Some("quiet") => {
                    let key = &replayed(line)[0];
                    assert!(!key.contains(['x', '+', '#']), "{line}: {key}");
                }
                Some("fall") => {
                    let fell = replayed(line).iter().any(|l| {
                        l.split(" (").skip(1).any(|f| {
                            f.len() > 2
                                && f.as_bytes()[0].is_ascii_lowercase()
                                && f.as_bytes()[1].is_ascii_digit()
                        })
                    });
                    assert!(fell, "{line}: {:?}", replayed(line));
                }
                Some("seam") => {
                    let crosses = moves.iter().any(|m| {
                        let b = m.as_bytes();
                        (b[1] <= b'4') != (b[3] <= b'4')
                    });
                    assert!(crosses, "{line}");
                }
                Some("budget") => {
                    let rich = diagram(line).replace("taxi \"2 0\"", "taxi \"999 999\"");
                    let v = solve_json(&rich, &[]);
                    assert_ne!(keys(&v), vec![moves[0].to_string()], "{line}");
                }
                Some("variant") => {
                    let fields: Vec<&str> = line.split(' ').take(4).collect();
                    let fide = format!("{} stip \"{stip}\";", fields.join(" "));
                    let v = solve_json(&fide, &[]);
                    // An Underworld key on the World is the FIDE move written with `W:`.
                    let key = moves[0].strip_prefix("W:").unwrap_or(moves[0]);
                    assert_ne!(keys(&v), vec![key.to_string()], "{line}: {v}");
                }
                Some("retro") => {
                    // Solved as written, every man is safe, and the key is not unique.
                    let v = solve_json(&diagram(line), &[]);
                    assert_ne!(keys(&v), vec![moves[0].to_string()], "{line}: {v}");
                    assert!(op(line, "c0").unwrap().starts_with("retro: "), "{line}");
                }
                _ => {}
            }
        }
    }
}

/// `--men MIN-MAX` bounds every puzzle handed out (RULES.md, Generation), also where a
/// run takes a superfluous man off (economy) or a climb takes men off (`--improve`):
/// the men of every board counted, kings included.
#[test]
fn every_puzzle_holds_the_men_asked() {
    let runs: [&[&str]; 4] = [
        &["--stip", "h#2", "--theme", "economy"],
        &["--stip", "#3", "--theme", "economy"],
        &["--stip", "#2", "--improve"],
        &["--stip", "#2", "--underworld-chess", "--theme", "economy"],
    ];
    for flags in runs {
        let mut args = flags.to_vec();
        args.extend(["--men", "6-8", "--seed", "3", "--count", "4"]);
        let puzzles = generate(&args);
        assert_eq!(puzzles.len(), 4, "{args:?}");
        for line in &puzzles {
            let under = line.split("underworld \"").nth(1).unwrap_or("");
            let placements = [
                line.split(' ').next().unwrap(),
                under.split('"').next().unwrap(),
            ];
            let men = placements
                .iter()
                .flat_map(|p| p.chars())
                .filter(char::is_ascii_alphabetic)
                .count();
            assert!((6..=8).contains(&men), "{args:?}: {line}");
        }
    }
}

/// An Underworld self-mate's World is built backwards with captures taken back
/// (docs/design.md): in the play the man taken drops onto the Underworld and wakes it,
/// and the line goes on there. Without them no line of the run moved on the Underworld.
#[test]
fn underworld_self_mates_wake_the_underworld() {
    let args = [
        "--stip",
        "s#2",
        "--underworld-chess",
        "--men",
        "5-8",
        "--seed",
        "7",
        "--count",
        "2",
    ];
    let puzzles = generate(&args);
    assert_eq!(puzzles.len(), 2, "{puzzles:?}");
    for line in &puzzles {
        check_puzzle(line, "s#2", false);
        assert!(op(line, "pv").unwrap().contains("U:"), "{line}");
    }
}

/// formats.md 3: the shards of a run together give exactly the unsharded run; merged
/// they are the same bytes.
#[test]
fn the_shards_of_a_run_merged_are_the_unsharded_run() {
    for json in [false, true] {
        let mut base = vec!["--stip", "#2", "--seed", "5", "--candidates", "1500"];
        if json {
            base.push("--json");
        }
        let whole = generate(&base).join("\n");
        assert!(whole.lines().count() >= 5, "{whole}");
        let files = three_shards(&base, &format!("shard-{json}"));
        // Each shard holds only its own candidates.
        let first = std::fs::read_to_string(&files[1]).unwrap();
        assert!(first.lines().all(|l| {
            let index = if json {
                serde_json::from_str::<Value>(l).unwrap()["index"]
                    .as_u64()
                    .unwrap()
            } else {
                op(l, "id")
                    .unwrap()
                    .split('-')
                    .nth(1)
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            index % 3 == 1
        }));
        let mut merge = vec!["generate", "--merge"];
        let names: Vec<String> = files
            .iter()
            .map(|p| p.to_str().unwrap().to_string())
            .collect();
        merge.extend(names.iter().map(String::as_str));
        let merged = stdout(&fairysolve(&merge));
        assert_eq!(merged.trim_end(), whole, "json {json}");
        // Two shards of three: what they hold is merged, and the missing shard named
        // (status 1), as their resume files tell.
        let two = fairysolve(&["generate", "--merge", &names[0], &names[2]]);
        assert_eq!(two.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&two.stderr),
            "generate --merge: shard 1/3 of the run is missing: the merged set is not the whole run\n"
        );
        assert!(String::from_utf8_lossy(&two.stdout).lines().count() >= 2);
    }
}

/// formats.md 3: a set holds no two puzzles with the same idea. Seed 1's #2 number 18192
/// (Rd1-g1, Kh2, Qh6#) repeats number 1739 (Rd4-g4, Kh7, Qh1#: the same men along the
/// same steps) and is left out, in one run and in the merge of shards that hold the two
/// apart; every idea of the run is its own.
#[test]
fn a_set_holds_no_repeated_idea() {
    let base = ["--stip", "#2", "--seed", "1", "--candidates", "18200"];
    let whole = generate(&base);
    let ids: Vec<String> = whole.iter().filter_map(|l| op(l, "id")).collect();
    assert!(ids.contains(&"1-1739".to_string()), "{ids:?}");
    assert!(!ids.contains(&"1-18192".to_string()), "{ids:?}");
    let ideas: std::collections::HashSet<String> = whole
        .iter()
        .map(|l| fairysolve::generate::repeats::idea(l).expect("a puzzle's idea"))
        .collect();
    assert_eq!(ideas.len(), whole.len());
    let names: Vec<String> = three_shards(&base, "idea")
        .iter()
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    let mut merge = vec!["generate", "--merge"];
    merge.extend(names.iter().map(String::as_str));
    assert_eq!(stdout(&fairysolve(&merge)).trim_end(), whole.join("\n"));
}

/// A shard's K comes from the batch system's variable when only N is given.
#[test]
fn the_shard_index_comes_from_slurm_or_kubernetes() {
    let base = [
        "generate",
        "--stip",
        "#2",
        "--seed",
        "5",
        "--candidates",
        "600",
    ];
    let given = stdout(&fairysolve(&[&base[..], &["--shard", "2/4"]].concat()));
    // `--shard 4` with K taken from `var` set to 2, or from no variable at all.
    let shard_of_4 = |var: Option<&str>| {
        let mut cmd = bin();
        cmd.args(base)
            .args(["--shard", "4"])
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX");
        if let Some(var) = var {
            cmd.env(var, "2");
        }
        cmd.output().unwrap()
    };
    for var in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
        assert_eq!(stdout(&shard_of_4(Some(var))), given, "{var}");
    }
    let out = shard_of_4(None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "generate: --shard 4: no K given, and neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set\n"
    );
}

/// A rerun with the same arguments and more to do goes on where the first stopped; the
/// file then holds what one run would have written. Other arguments are refused.
#[test]
fn a_rerun_resumes_where_the_run_stopped() {
    let path = temp("resume.epd");
    let file = path.to_str().unwrap();
    let run =
        |count: &str| generate(&["--stip", "#2", "--seed", "11", "--count", count, "-o", file]);
    run("2");
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
    run("5");
    let fresh = generate(&["--stip", "#2", "--seed", "11", "--count", "5"]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        fresh.join("\n") + "\n"
    );
    // The same count again: nothing more is written.
    run("5");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        fresh.join("\n") + "\n"
    );
    let out = fairysolve(&[
        "generate", "--stip", "#2", "--seed", "12", "--count", "5", "-o", file,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds a run of other arguments"));
    // A smaller count than the file holds: refused, and the file left as it was.
    let out = fairysolve(&[
        "generate", "--stip", "#2", "--seed", "11", "--count", "3", "-o", file,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("generate: {file} already holds 5 puzzles of this run, more than --count 3: give --count 5 or more to go on, or another -o\n")
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        fresh.join("\n") + "\n"
    );
}

/// Ctrl-C keeps what was found, and a rerun finishes the run as if nothing happened.
#[cfg(unix)]
#[test]
fn an_interrupted_run_keeps_its_puzzles_and_resumes() {
    let path = temp("interrupted.epd");
    let file = path.to_str().unwrap();
    let run = ["--stip", "s#1", "--seed", "3", "--count", "1000000"];
    let args = [&["generate", "--threads", "2"][..], &run, &["-o", file]].concat();
    let child = bin().args(&args).stderr(Stdio::piped()).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: sending a signal to our own child process.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
    let resume: Value =
        serde_json::from_str(&std::fs::read_to_string(path.with_extension("epd.resume")).unwrap())
            .unwrap();
    let next = resume["next"].as_u64().unwrap();
    assert!(next > 0);
    let limit = (next + 2_000).to_string();
    let mut again = args.clone();
    again.extend(["--candidates", limit.as_str()]);
    stdout(&fairysolve(&again));
    let fresh = generate(&[&run[..], &["--candidates", &limit]].concat());
    assert!(fresh.len() > 10, "{} puzzles", fresh.len());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        fresh.join("\n") + if fresh.is_empty() { "" } else { "\n" }
    );
}

/// `--spread` (issue 41): four times the count proved, the count kept at evenly spaced
/// ranks of hardness (effort times one more than the tries), easiest first, with their
/// levels; the same set when the run is made in two steps with -o.
#[test]
fn a_spread_set_runs_from_the_easiest_to_the_hardest() {
    let base = ["--stip", "#2", "--seed", "7", "--count", "6", "--spread"];
    let set: Vec<Value> = generate(&[&base[..], &["--json"]].concat())
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<(u64, u64)> = set
        .iter()
        .map(|v| (v["level"].as_u64().unwrap(), v["index"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        ids,
        [(1, 662), (1, 1640), (2, 995), (3, 1785), (4, 86), (5, 837)]
    );
    let hardness: Vec<u64> = set
        .iter()
        .map(|v| v["effort"].as_u64().unwrap() * (1 + v["tries"].as_array().unwrap().len() as u64))
        .collect();
    assert!(hardness.windows(2).all(|w| w[0] <= w[1]), "{hardness:?}");
    // The pool of 24: the set's first is the easiest of all 24 and its last the hardest.
    let pool = generate(&[
        "--stip",
        "#2",
        "--seed",
        "7",
        "--count",
        "24",
        "--qualities",
        "--json",
    ]);
    let pool: Vec<u64> = pool
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["effort"].as_u64().unwrap() * (1 + v["tries"].as_array().unwrap().len() as u64)
        })
        .collect();
    assert_eq!(hardness.first(), pool.iter().min());
    assert_eq!(hardness.last(), pool.iter().max());
    // In two steps with -o: the pool is kept in FILE.pool, the set written whole.
    let path = temp("spread.epd");
    let file = path.to_str().unwrap();
    let _ = std::fs::remove_file(path.with_extension("epd.pool"));
    assert!(generate(&[&base[..], &["--candidates", "300", "-o", file]].concat()).is_empty());
    // The 6 puzzles of the first 300 candidates: the whole pool so far.
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 6);
    assert_eq!(
        std::fs::read_to_string(path.with_extension("epd.pool"))
            .unwrap()
            .lines()
            .count(),
        6
    );
    assert!(generate(&[&base[..], &["-o", file]].concat()).is_empty());
    let lines = generate(&base);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        lines.join("\n") + "\n"
    );
    let ids: Vec<String> = lines.iter().filter_map(|l| op(l, "id")).collect();
    assert_eq!(ids, ["7-662", "7-1640", "7-995", "7-1785", "7-86", "7-837"]);
    // A pool cut short (a lost write): refused, and the set written before kept.
    let pool = path.with_extension("epd.pool");
    let text = std::fs::read_to_string(&pool).unwrap();
    let cut: Vec<&str> = text.lines().take(10).collect();
    std::fs::write(&pool, cut.join("\n") + "\n").unwrap();
    let out = fairysolve(&[
        "generate", "--stip", "#2", "--seed", "7", "--count", "8", "--spread", "-o", file,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("generate: {file}.pool: holds 10 puzzles, the run had proved 24: the pool of this spread run is incomplete; remove {file} to start again\n")
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        lines.join("\n") + "\n"
    );
}

/// A JSON puzzle's hardness (formats.md 3, `--spread`): effort times one more than
/// its tries.
fn hardness(v: &Value) -> u64 {
    v["effort"].as_u64().unwrap() * (1 + v["tries"].as_array().unwrap().len() as u64)
}

/// `--merge --spread` (issue 41): the shards of a spread run merged into one set spread
/// over all their pools (each shard's FILE.pool): the count asked for, easiest first,
/// the easiest and the hardest of every pool together both kept, each from a pool; a
/// file without a pool or effort is named line by line.
#[test]
fn merged_spread_shards_are_one_set_over_their_pools() {
    let base = [
        "--stip", "#2", "--seed", "7", "--count", "2", "--spread", "--json",
    ];
    let files = three_shards(&base, "spread-shard");
    let mut pool: Vec<Value> = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f.with_extension("epd.pool")).unwrap();
        pool.extend(
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
    }
    assert_eq!(pool.len(), 24);
    let names: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    let mut merge = vec!["generate", "--merge"];
    merge.extend(&names);
    merge.extend(["--spread", "--count", "4", "--json"]);
    let out = fairysolve(&merge);
    let set: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "generate --merge: 4 puzzles spread over difficulty from 24 proved\n"
    );
    let levels: Vec<u64> = set.iter().map(|v| v["level"].as_u64().unwrap()).collect();
    assert_eq!(levels, [1, 2, 3, 5]);
    let hard: Vec<u64> = set.iter().map(hardness).collect();
    assert!(hard.windows(2).all(|w| w[0] <= w[1]), "{hard:?}");
    assert_eq!(hard.first(), pool.iter().map(hardness).min().as_ref());
    assert_eq!(hard.last(), pool.iter().map(hardness).max().as_ref());
    let indices: Vec<u64> = pool.iter().map(|v| v["index"].as_u64().unwrap()).collect();
    assert!(set
        .iter()
        .all(|v| indices.contains(&v["index"].as_u64().unwrap())));
    // A pool whose last write was cut short: that line is not read.
    let first_pool = files[0].with_extension("epd.pool");
    let text = std::fs::read_to_string(&first_pool).unwrap();
    std::fs::write(&first_pool, &text[..text.len() - 20]).unwrap();
    let out = fairysolve(&merge);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "generate --merge: 4 puzzles spread over difficulty from 23 proved\n"
    );
    // Without the pools: the shards' own JSON lines, two each.
    for f in &files {
        std::fs::remove_file(f.with_extension("epd.pool")).unwrap();
    }
    let out = fairysolve(&merge);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "generate --merge: 4 puzzles spread over difficulty from 6 proved\n"
    );
    assert_eq!(stdout(&out).lines().count(), 4);
    // A set of plain lines without its pool: nothing to spread by.
    let plain = temp("spread-plain.epd");
    let lines = generate(&["--stip", "#2", "--seed", "7", "--count", "1"]);
    std::fs::write(&plain, lines.join("\n") + "\n").unwrap();
    let name = plain.to_str().unwrap();
    let out = fairysolve(&["generate", "--merge", name, "--spread", "--count", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("generate --merge: {name}: no {name}.resume beside it, so which shard it holds is not checked\n\
            {name}, line 1, column 1: not a puzzle with its effort (--merge --spread reads each shard's pool, FILE.pool, or JSON lines of a spread run)\n\
            generate --merge: 0 puzzles spread over difficulty from 0 proved\n")
    );
}

/// `--improve` (issue 41): each puzzle scores at least what the same candidate gives
/// without it, some more, and each is proved again by `solve`.
#[test]
fn improved_puzzles_score_higher_and_stay_sound() {
    let run = |extra: &[&str]| -> Vec<Value> {
        generate(
            &[
                &[
                    "--stip",
                    "#2",
                    "--seed",
                    "7",
                    "--count",
                    "8",
                    "--json",
                    "--qualities",
                ][..],
                extra,
            ]
            .concat(),
        )
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
    };
    let plain = run(&[]);
    let improved = run(&["--improve"]);
    assert_eq!(improved.len(), 8);
    let mut higher = 0;
    for p in &improved {
        let line = p["epd"].as_str().unwrap();
        check_puzzle(line, "#2", false);
        if let Some(q) = plain.iter().find(|q| q["index"] == p["index"]) {
            let (a, b) = (q["score"].as_f64().unwrap(), p["score"].as_f64().unwrap());
            assert!(b >= a, "{line}: {b} < {a}");
            higher += usize::from(b > a);
        }
    }
    assert!(higher >= 2, "{higher} improved");
}

#[test]
fn parameters_that_cannot_make_a_run_are_refused() {
    let cases: &[(&[&str], &str)] = &[
        (&["--stip", "#2", "--count", "1", "--theme", "fall"], "generate: --theme fall: falls need a Trapdoor board (--trapdoor T)\n"),
        (&["--stip", "#2", "--count", "1", "--theme", "variant"], "generate: --theme variant: the variant theme needs a variant: a Trapdoor, Taxi or Earthquake flag, or Underworld\n"),
        (&["--stip", "#2", "--count", "1", "--theme", "loud"], "generate: --theme loud: not a theme (variant, quiet, fall, budget, seam, retro, quiet-key, economy, model-mate, no-duals, variations:N, tries:N)\n"),
        (&["--stip", "#2", "--count", "1", "--men", "9-3"], "generate: --men 9-3: a diagram holds 2 to 32 men, kings included, the least first\n"),
        (&["--stip", "#2", "--count", "1", "--pieces", "QK"], "generate: --pieces QK: 'K' is not one of Q, R, B, N, P\n"),
        (&["--stip", "x#2", "--count", "1"], "generate: --stip x#2: not a stipulation (#N, s#N, h#N, h#N.5)\n"),
        (&["--stip", "#2"], "generate: give --count N (puzzles) or --candidates M (candidates to look at), or both\n"),
        (&["--stip", "#2", "--count", "1", "--shard", "3/3"], "generate: --shard 3/3: write K/N with 0 <= K < N (or N alone inside a Slurm array or a Kubernetes Indexed Job)\n"),
        (&["--stip", "#2", "--count", "1", "--underworld", "4k3/8/8/8/8/8/8/4K3"], "generate: --underworld: a generated diagram draws its own boards; ask for Underworld with --underworld-chess\n"),
        (&["--stip", "#2", "--count", "1", "--improve", "--looking-glass"], "generate: --improve: puzzles are improved on the single-board games, proof games apart\n"),
        (&["--stip", "pg 3.0", "--count", "1", "--spread"], "generate: --spread: a proof game (pg 3.0) has no measured effort to spread a set over\n"),
    ];
    for (args, message) in cases {
        let out = fairysolve(&[&["generate"][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), *message, "{args:?}");
    }
}

/// `--time-limit` ends a run as Ctrl-C does: what was found is kept, the place is
/// saved, the exit status says the run was cut short.
#[test]
fn a_run_stops_at_its_time_limit() {
    let path = temp("time-limit.epd");
    let file = path.to_str().unwrap();
    let started = std::time::Instant::now();
    let out = fairysolve(&[
        "generate",
        "--stip",
        "s#1",
        "--seed",
        "3",
        "--count",
        "1000000",
        "--time-limit",
        "1",
        "-o",
        file,
    ]);
    // One second asked; a slow machine gets room, a run that ignores it none.
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "the time limit ran out: a rerun with the same arguments and -o goes on from here"
    ));
    assert!(path.with_extension("epd.resume").exists());
}

/// formats.md 3 with `--html`: the set as one page, each puzzle its diagram, its proved
/// qualities and its solution behind a click, in the game's notation; a page that
/// fetches nothing.
#[test]
fn html_gallery_shows_each_puzzle() {
    let page = temp("gallery.html");
    let out = fairysolve(&[
        "generate",
        "--stip",
        "#2",
        "--count",
        "3",
        "--seed",
        "7",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<div class=\"puzzle\"").count(), 3);
    assert_eq!(html.matches("<svg").count(), 3);
    assert_eq!(
        html.matches("<details><summary>Solution</summary>").count(),
        3
    );
    assert!(
        html.contains("<p class=\"solution\">1.Qb3+ Kc1 2.Qe1#</p>"),
        "{html}"
    );
    assert!(html
        .contains("themes: none · score 0.29 · tries 4 · variations 3 · superfluous: Bg7 · duals"));
    assert!(html.contains("themes: economy, model-mate, no-duals · score 0.52"));
    for line in &lines {
        let escaped = line.replace('&', "&amp;").replace('"', "&quot;");
        assert!(html.contains(&escaped), "{line}");
    }
    for fetch in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(fetch), "{fetch}");
    }
    // A proof game's solution is played from the array.
    let out = fairysolve(&[
        "generate",
        "--stip",
        "spg 3.0",
        "--count",
        "1",
        "--seed",
        "1",
        "--trapdoor",
        "1",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<p class=\"solution\">1.c4 b5 2.cxb5 Na6 3.bxa6 h5</p>"),
        "{html}"
    );
}
