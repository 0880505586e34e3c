//! The documents cannot drift from the program: every command shown in README.md and
//! docs/*.md (a line `$ fairysolve ...` in a fenced block) is run, and what it prints
//! must be what the text shows after it. Times, node counts and thread counts, which
//! differ from run to run and machine to machine, are compared as `#`; a block may leave
//! out the summary line that ends a `solve` report.

use std::path::Path;
use std::process::Command;

/// `line` with every number that counts time, nodes or threads replaced by `#`.
fn mask(line: &str) -> String {
    const COUNTED: [&str; 4] = [" ms", " nodes", " node", " thread"];
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == ',') {
                i += 1;
            }
            let rest: String = chars[i..].iter().collect();
            if COUNTED.iter().any(|c| rest.starts_with(c)) || rest.starts_with(" nodes/s") {
                out.push('#');
            } else {
                out.extend(&chars[start..i]);
            }
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The commands of a document with the output shown for each: (line number, command,
/// expected lines).
fn examples(text: &str) -> Vec<(usize, String, Vec<String>)> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut current: Option<(usize, String, Vec<String>)> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            if in_block {
                out.extend(current.take());
            }
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ fairysolve") {
            out.extend(current.take());
            current = Some((i + 1, format!("fairysolve{cmd}"), Vec::new()));
        } else if let Some((_, _, expected)) = current.as_mut() {
            expected.push(line.to_string());
        }
    }
    out
}

#[test]
fn every_command_in_the_documents_prints_what_the_text_shows() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = vec![Path::new(root).join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(Path::new(root).join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let binary = env!("CARGO_BIN_EXE_fairysolve");
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (line, cmd, expected) in examples(&text) {
            let real = cmd.replacen("fairysolve", &format!("'{binary}'"), 1);
            let out = Command::new("bash")
                .arg("-c")
                .arg(&real)
                .current_dir(root)
                .output()
                .unwrap();
            let got: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(mask)
                .collect();
            let mut want: Vec<String> = expected.iter().map(|l| mask(l)).collect();
            // Blank lines at the end of an output do not show in a block.
            let mut got = got;
            while got.last().is_some_and(|l| l.is_empty()) {
                got.pop();
            }
            while want.last().is_some_and(|l| l.is_empty()) {
                want.pop();
            }
            // The block may stop before a last summary line (it holds the time).
            let fits = got == want
                || (got.len() == want.len() + 1
                    && got[..want.len()] == want[..]
                    && got[want.len()].contains(" nodes in "));
            if !fits {
                failures.push(format!(
                    "{}:{line}: $ {cmd}\n--- the text shows:\n{}\n--- the program prints:\n{}",
                    file.display(),
                    want.join("\n"),
                    got.join("\n")
                ));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked >= 20, "only {checked} commands found");
}

#[test]
fn masking_keeps_what_is_not_a_count() {
    assert_eq!(
        mask("key: Ne5 · 1,049 nodes in 2 ms, 1 thread"),
        "key: Ne5 · # nodes in # ms, # thread"
    );
    assert_eq!(mask("1.Ne5! threat: 2.Ncd7#"), "1.Ne5! threat: 2.Ncd7#");
    assert_eq!(
        mask("d5 depth 3: 8902 nodes in under 1 ms"),
        "d5 depth 3: # nodes in under # ms"
    );
}
