//! `cargo xtask new ID`: scaffolds `problems/boj-ID/` (manifest with BOJ metadata, a thin
//! `src/main.rs`, a `samples/` folder git keeps), refusing to touch an existing folder.
//!
//! `--from FILE.json` (and `cargo xtask listen`) scaffold through the same [`create`], with the
//! limits and samples of a competitive-companion payload; over an existing problem [`import`]
//! only compares.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use xtask::companion::{Differences, Import, SampleText};
use xtask::problem::{self, Problem};

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
    /// Take limits and samples from a saved competitive-companion payload (its URL must name
    /// problem ID); over an existing problem, only report how its samples differ.
    #[arg(
        long,
        value_name = "FILE.json",
        conflicts_with_all = ["time_limit_ms", "memory_limit_mb"]
    )]
    pub from: Option<PathBuf>,
    /// Create DIR/problems/boj-ID/ instead of this workspace's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Runs the subcommand: 0 created (or, with `--from`, already there with the same samples and
/// limits), 1 already there and the payload differs, 2 refused or failed.
pub fn run(args: &NewArgs) -> ExitCode {
    let result = match &args.from {
        Some(file) => from_file(args, file),
        None => scaffold(args).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Everything a new problem folder is made from.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    /// The BOJ problem number.
    pub id: u32,
    /// BOJ's time limit, in milliseconds.
    pub time_limit_ms: u64,
    /// BOJ's memory limit, in MB.
    pub memory_limit_mb: u64,
    /// The problem's title, for the first line of `src/main.rs`.
    pub title: Option<String>,
    /// Written as `samples/1.in`, `1.out`, ...; none means an empty `samples/` (a `.gitkeep`).
    pub samples: Vec<SampleText>,
}

impl Spec {
    /// What `cargo xtask new` makes from a payload.
    pub fn from_import(import: &Import) -> Spec {
        Spec {
            id: import.id,
            time_limit_ms: import.time_limit_ms,
            memory_limit_mb: import.memory_limit_mb,
            title: Some(import.name.clone()).filter(|t| !t.is_empty()),
            samples: import.samples.clone(),
        }
    }
}

/// What [`import`] did.
#[derive(Debug)]
pub enum Imported {
    /// A new problem folder.
    Created(PathBuf),
    /// The folder existed and was left alone; how the payload compares with it.
    Existing(PathBuf, Differences),
}

/// Scaffolds `root/problems/boj-ID/` from a payload, or, when that folder exists, compares the
/// payload with it without writing anything.
pub fn import(root: &Path, import: &Import) -> Result<Imported> {
    let target = problem_dir(root, import.id);
    if target.symlink_metadata().is_ok() {
        let existing = Problem::load(&target)?;
        let differences = Differences::between(&existing, import)?;
        return Ok(Imported::Existing(target, differences));
    }
    create(root, &Spec::from_import(import)).map(Imported::Created)
}

/// `cargo xtask new ID --from FILE.json`.
fn from_file(args: &NewArgs, file: &Path) -> Result<ExitCode> {
    let body = fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let payload = Import::parse(&body).with_context(|| format!("{}", file.display()))?;
    if payload.id != args.id {
        bail!(
            "{} is BOJ {} ({}), not {}; nothing was changed",
            file.display(),
            payload.id,
            payload.url,
            args.id
        );
    }
    let root = match &args.root {
        Some(root) => root.clone(),
        None => problem::project_root()?,
    };
    match import(&root, &payload)? {
        Imported::Created(dir) => {
            print_created(&dir, &Spec::from_import(&payload));
            Ok(ExitCode::SUCCESS)
        }
        Imported::Existing(dir, differences) => {
            println!("{}: {} {differences}", payload.label(), dir.display());
            Ok(if differences.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

fn problem_dir(root: &Path, id: u32) -> PathBuf {
    root.join("problems").join(format!("boj-{id}"))
}

fn scaffold(args: &NewArgs) -> Result<()> {
    let root = match &args.root {
        Some(root) => root.clone(),
        None => problem::project_root()?,
    };
    let spec = Spec {
        id: args.id,
        time_limit_ms: args.time_limit_ms,
        memory_limit_mb: args.memory_limit_mb,
        ..Spec::default()
    };
    let target = create(&root, &spec)?;
    print_created(&target, &spec);
    Ok(())
}

fn print_created(target: &Path, spec: &Spec) {
    println!("created {}", target.display());
    println!(
        "  Cargo.toml        [package.metadata.boj]: {} ms, {} MB, exact judge",
        spec.time_limit_ms, spec.memory_limit_mb
    );
    println!("  src/main.rs       reads stdin once, writes stdout through one buffer");
    if spec.samples.is_empty() {
        println!("  samples/.gitkeep  put NAME.in and NAME.out here");
        println!("next: add samples, then `cargo xtask test {}`", spec.id);
    } else {
        let n = spec.samples.len();
        println!("  samples/          1.in .. {n}.out: {n} from the payload");
        println!("next: `cargo xtask test {}`", spec.id);
    }
}

/// Creates `root/problems/boj-ID/` from `spec`; fails, changing nothing, if it exists.
pub fn create(root: &Path, spec: &Spec) -> Result<PathBuf> {
    let problems = root.join("problems");
    let name = format!("boj-{}", spec.id);
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
    let result = write_files(&staging, spec).and_then(|()| {
        fs::rename(&staging, &target)
            .with_context(|| format!("cannot create {} (does it exist now?)", target.display()))
    });
    if result.is_err() {
        let _ = fs::remove_dir_all(&staging);
    }
    result?;
    Ok(target)
}

fn write_files(dir: &Path, spec: &Spec) -> Result<()> {
    let mut files = vec![
        ("Cargo.toml".to_string(), manifest(spec)),
        ("src/main.rs".to_string(), main_rs(spec)),
    ];
    if spec.samples.is_empty() {
        files.push(("samples/.gitkeep".to_string(), String::new()));
    }
    for (n, sample) in (1..).zip(&spec.samples) {
        files.push((format!("samples/{n}.in"), sample.input.clone()));
        files.push((format!("samples/{n}.out"), sample.output.clone()));
    }
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

fn manifest(spec: &Spec) -> String {
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
        id = spec.id,
        time = spec.time_limit_ms,
        memory = spec.memory_limit_mb,
    )
}

fn main_rs(spec: &Spec) -> String {
    let id = spec.id;
    let title = match &spec.title {
        Some(title) => format!(" ({title})"),
        None => String::new(),
    };
    format!(
        r#"//! BOJ {id}{title}: reads the whole input from stdin and writes the answer to stdout.
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
