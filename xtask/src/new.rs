//! `cargo xtask new ID`: scaffolds `problems/boj-ID/` (manifest with BOJ metadata, a thin
//! `src/main.rs`, a `samples/` folder git keeps), refusing to touch an existing folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use xtask::problem;

/// Create problems/boj-ID/ for a new BOJ problem (refuses, changing nothing, if it exists).
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The BOJ problem number.
    pub id: u32,
    /// BOJ's time limit, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub time_limit_ms: u64,
    /// BOJ's memory limit, in MB.
    #[arg(long, value_name = "MB", default_value_t = 256)]
    pub memory_limit_mb: u64,
    /// Create DIR/problems/boj-ID/ instead of this workspace's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Runs the subcommand: 0 created, 2 refused or failed.
pub fn run(args: &NewArgs) -> ExitCode {
    match scaffold(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn scaffold(args: &NewArgs) -> Result<()> {
    let root = args.root.clone().unwrap_or_else(problem::project_root);
    let problems = root.join("problems");
    let name = format!("boj-{}", args.id);
    let target = problems.join(&name);
    if target.symlink_metadata().is_ok() {
        bail!("{} already exists; nothing was changed", target.display());
    }
    // Write everything in a hidden staging folder, then rename it into place in one step: an
    // interrupted run leaves no half-made problem, and a folder that appeared meanwhile is
    // never overwritten (renaming onto a non-empty folder fails).
    fs::create_dir_all(&problems)
        .with_context(|| format!("cannot create {}", problems.display()))?;
    let staging = problems.join(format!(".{name}.new-{}", std::process::id()));
    let result = write_files(&staging, args).and_then(|()| {
        fs::rename(&staging, &target)
            .with_context(|| format!("cannot create {} (does it exist now?)", target.display()))
    });
    if result.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    result?;
    println!("created {}", target.display());
    println!(
        "  Cargo.toml        [package.metadata.boj]: {} ms, {} MB, exact judge",
        args.time_limit_ms, args.memory_limit_mb
    );
    println!("  src/main.rs       reads stdin once, writes stdout through one buffer");
    println!("  samples/.gitkeep  put NAME.in and NAME.out here");
    println!("next: add samples, then `cargo xtask test {}`", args.id);
    Ok(())
}

fn write_files(dir: &Path, args: &NewArgs) -> Result<()> {
    let files = [
        ("Cargo.toml", manifest(args)),
        ("src/main.rs", main_rs(args.id)),
        ("samples/.gitkeep", String::new()),
    ];
    for (path, text) in files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn manifest(args: &NewArgs) -> String {
    format!(
        r#"[package]
name = "boj-{id}"
description = "BOJ {id} judge binary: stdin -> solution -> stdout."
version.workspace = true
edition.workspace = true
license.workspace = true
authors.workspace = true
publish = false
# Bundled into a BOJ submission: BOJ's rustc is older than ours.
rust-version = "1.56"

[dependencies]
# sudoku-core.workspace = true

[package.metadata.boj]
id = {id}
time-limit-ms = {time}
memory-limit-mb = {memory}
judge = "exact"
# judge = "checker" with checker = "boj-{id}-checker" for a special judge;
# input = "rows" or "spaced" for generated stress cases.

[lints]
workspace = true
"#,
        id = args.id,
        time = args.time_limit_ms,
        memory = args.memory_limit_mb,
    )
}

fn main_rs(id: u32) -> String {
    format!(
        r#"//! BOJ {id}: reads the whole input from stdin and writes the answer to stdout.
//!
//! Thin on purpose: input and output here, the real work in a function (or the core crate).

use std::io::{{self, Read, Write}};

fn main() {{
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .expect("cannot read standard input");
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    solve(&input, &mut out).expect("cannot write standard output");
    out.flush().expect("cannot write standard output");
}}

/// Answers one input. A placeholder until the problem is solved: echoes each token on a line.
fn solve(input: &str, out: &mut impl Write) -> io::Result<()> {{
    for token in input.split_ascii_whitespace() {{
        writeln!(out, "{{}}", token)?;
    }}
    Ok(())
}}
"#
    )
}
