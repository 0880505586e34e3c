//! `fairysolve import`: Popeye input files to position lines (formats.md 5), on
//! standard output; what cannot be imported is reported on standard error with its
//! file, line and column, and the other problems go on.

use clap::Args;
use fairysolve::import::{import, Imported};
use std::io::Read;

#[derive(Args)]
pub struct ImportArgs {
    /// Popeye input files (`-` for standard input), English keywords: BeginProblem,
    /// Pieces, Stipulation (#N, h#N, h#N.5, s#N), Option, Twin, EndProblem.
    #[arg(required = true, value_name = "FILE.inp")]
    pub files: Vec<String>,
}

/// The text of a file: UTF-8, or else Latin-1 (older Popeye files write composers'
/// names that way); a byte-order mark is dropped.
fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

fn read(name: &str) -> Result<Vec<u8>, String> {
    if name == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("{name}: cannot read standard input: {e}"))?;
        Ok(buf)
    } else {
        std::fs::read(name).map_err(|e| format!("{name}: cannot read: {e}"))
    }
}

/// The name problems without a title are known by: the file's name without its
/// directory and extension.
fn stem(name: &str) -> String {
    if name == "-" {
        return "stdin".to_string();
    }
    std::path::Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.to_string())
}

pub fn run(args: ImportArgs) -> bool {
    let mut ok = true;
    for name in &args.files {
        let text = match read(name) {
            Ok(bytes) => decode(&bytes),
            Err(e) => {
                eprintln!("{e}");
                ok = false;
                continue;
            }
        };
        for item in import(&text, &stem(name)) {
            match item {
                Imported::Problem(p) => {
                    for line in &p.lines {
                        println!("{line}");
                    }
                    if !p.errors.is_empty() {
                        ok = false;
                        for e in &p.errors {
                            eprintln!("{name}: {e}");
                        }
                        let not = if p.lines.is_empty() {
                            format!("problem {} is not imported", p.number)
                        } else {
                            format!(
                                "problem {}: {} line{} imported, the twins above left out",
                                p.number,
                                p.lines.len(),
                                if p.lines.len() == 1 { "" } else { "s" }
                            )
                        };
                        eprintln!("{name}: {}", p.at.error(not));
                    }
                }
                Imported::Error(e) => {
                    ok = false;
                    eprintln!("{name}: {e}");
                }
            }
        }
    }
    ok
}
