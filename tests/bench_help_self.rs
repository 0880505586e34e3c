//! `bench` rows of help- and self-mates beside a stand-in peer: the peer's key sets (for
//! h#, the first moves of all solutions) are compared with fairysolve's: equal, the row
//! says so and the exit status is 0; different, a message naming the suite and exit 1.

mod common;

use common::{run, text};

#[cfg(unix)]
#[test]
fn bench_compares_help_and_self_keys_with_a_peer() {
    let dir = std::env::temp_dir().join(format!("fairysolve-bench-hs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("suite.epd");
    let lines: Vec<&str> = include_str!("../positions/helpmates/published.epd")
        .lines()
        .filter(|l| l.contains("\"helpmate-04a\""))
        .chain(
            include_str!("../positions/selfmates/published.epd")
                .lines()
                .filter(|l| l.contains("\"selfmate-01\"")),
        )
        .collect();
    assert_eq!(lines.len(), 2);
    std::fs::write(&suite, lines.join("\n")).unwrap();
    // h#2 helpmate-04a has one solution, 1...Ka7; s#2 selfmate-01 the key Qg4-h4.
    let peer = |name: &str, help_keys: &str| {
        common::fake_peer(
            &dir.join(name),
            "helpmate-04a",
            &format!("keys: {help_keys} time: 0.5"),
            "keys: g4h4 time: 0.25",
        )
    };
    let (right, wrong) = (peer("right.sh", "b6a7"), peer("wrong.sh", "b6a7 b7c5"));
    let suite = suite.to_string_lossy().into_owned();
    let bench = |peer: &str| run(&["bench", "--no-perft", "--no-retro", "--peer", peer, &suite]);
    let out = bench(&right);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let row = stdout
        .lines()
        .find(|l| l.starts_with(&suite))
        .unwrap_or_else(|| panic!("no row: {stdout}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    // suite, lines, our time, the peer's (0.5 s + 0.25 s), peer/us, agree
    assert_eq!(cols.len(), 6, "{row}");
    assert_eq!((cols[1], cols[3], cols[5]), ("2", "750ms", "yes"), "{row}");
    assert!(!stdout.contains("solver suite"), "no #N rows: {stdout}");
    let out = bench(&wrong);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the peer's key sets differ on 1 positions"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stdout)
        .lines()
        .any(|l| l.starts_with(&suite) && l.ends_with("no")));
    let _ = std::fs::remove_dir_all(&dir);
}
