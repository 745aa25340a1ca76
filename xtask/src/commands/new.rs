//! `cargo xtask new ID`: scaffolds `problems/boj-ID/` (manifest with BOJ metadata, a thin
//! `src/main.rs`, a `samples/` folder git keeps; with `--judge checker` a checker, with
//! `--stress` a generator and a reference), refusing to touch an existing folder.
//!
//! `--from FILE.json` (and `cargo xtask listen`) scaffold through the same [`create`], with the
//! limits and samples of a competitive-companion payload; over an existing problem [`import`]
//! only compares.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use xtask::companion::{Differences, Import, SampleText};
use xtask::problem::{self, Judge, JudgeKind, Problem};

/// Create problems/boj-ID/ for a new BOJ problem (refuses, changing nothing, if it exists).
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The BOJ problem number.
    pub id: u32,
    /// BOJ's time limit, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = problem::DEFAULT_TIME_LIMIT_MS)]
    pub time_limit_ms: u64,
    /// BOJ's memory limit, in MB.
    #[arg(long, value_name = "MB", default_value_t = problem::DEFAULT_MEMORY_LIMIT_MB)]
    pub memory_limit_mb: u64,
    /// How answers are judged: exact (BOJ's text rules), float (numbers within --error),
    /// checker (a special judge: a template `src/bin/boj-ID-checker.rs` to fill in) or
    /// interactive (a grader talks to the solution: a template `src/bin/boj-ID-interactor.rs`)
    /// [default: exact, or interactive when a payload says so].
    #[arg(long, value_enum, value_name = "JUDGE")]
    pub judge: Option<JudgeKind>,
    /// With `--judge float`: the absolute or relative error a number may have, e.g. 1e-9.
    #[arg(long, value_name = "E", required_if_eq("judge", "float"))]
    pub error: Option<f64>,
    /// Also scaffold a generator (`src/bin/boj-ID-gen.rs`) and a reference
    /// (`src/bin/boj-ID-brute.rs`) for `cargo xtask stress`.
    #[arg(long)]
    pub stress: bool,
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

impl NewArgs {
    /// The judge asked for (`default` when none is), with what it needs.
    fn judge(&self, default: JudgeKind) -> Result<Judge<String>> {
        match (self.judge.unwrap_or(default), self.error) {
            (JudgeKind::Float, Some(error)) => problem::allowed_error(error)
                .map(Judge::Float)
                .map_err(|why| anyhow::anyhow!("--error {why}")),
            (JudgeKind::Float, None) => bail!("--judge float needs --error E, like 1e-9"),
            (_, Some(_)) => bail!("--error is only read with --judge float"),
            (JudgeKind::Exact, None) => Ok(Judge::Exact),
            (JudgeKind::Checker, None) => Ok(Judge::Checker(format!("boj-{}-checker", self.id))),
            (JudgeKind::Interactive, None) => {
                Ok(Judge::Interactive(format!("boj-{}-interactor", self.id)))
            }
        }
    }
}

/// Runs the subcommand: 0 created (or, with `--from`, already there with the same samples and
/// limits), 1 already there and the payload differs, 2 refused or failed.
pub fn run(args: &NewArgs) -> Result<ExitCode> {
    match &args.from {
        Some(file) => from_file(args, file),
        None => scaffold(args).map(|()| ExitCode::SUCCESS),
    }
}

/// Everything a new problem folder is made from.
#[derive(Debug, Clone)]
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
    /// How answers are judged.
    pub judge: Judge<String>,
    /// Scaffold a generator and a reference for `cargo xtask stress`.
    pub stress: bool,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            id: 0,
            time_limit_ms: problem::DEFAULT_TIME_LIMIT_MS,
            memory_limit_mb: problem::DEFAULT_MEMORY_LIMIT_MB,
            title: None,
            samples: Vec::new(),
            judge: Judge::Exact,
            stress: false,
        }
    }
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
            judge: if import.interactive {
                Judge::Interactive(format!("boj-{}-interactor", import.id))
            } else {
                Judge::Exact
            },
            ..Spec::default()
        }
    }

    /// The title as the templates' first line shows it after the id: ` (TITLE)`, or nothing.
    fn title_in_parentheses(&self) -> String {
        self.title
            .as_ref()
            .map_or_else(String::new, |title| format!(" ({title})"))
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
    import_as(root, import, Spec::from_import(import))
}

/// [`import`], creating the folder from `spec` (the payload's, with the command line's judge
/// and stress choices).
fn import_as(root: &Path, import: &Import, spec: Spec) -> Result<Imported> {
    let target = problem_dir(root, import.id);
    if target.symlink_metadata().is_ok() {
        let existing = Problem::load(&target)?;
        let differences = Differences::between(&existing, import)?;
        return Ok(Imported::Existing(target, differences));
    }
    create(root, &spec).map(Imported::Created)
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
    let root = problem::root_or_project(args.root.as_deref())?;
    let payload_judge = if payload.interactive {
        JudgeKind::Interactive
    } else {
        JudgeKind::Exact
    };
    let spec = Spec {
        judge: args.judge(payload_judge)?,
        stress: args.stress,
        ..Spec::from_import(&payload)
    };
    match import_as(&root, &payload, spec.clone())? {
        Imported::Created(dir) => {
            print_created(&dir, &spec);
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
    let root = problem::root_or_project(args.root.as_deref())?;
    let spec = Spec {
        id: args.id,
        time_limit_ms: args.time_limit_ms,
        memory_limit_mb: args.memory_limit_mb,
        judge: args.judge(JudgeKind::Exact)?,
        stress: args.stress,
        ..Spec::default()
    };
    let target = create(&root, &spec)?;
    print_created(&target, &spec);
    Ok(())
}

fn print_created(target: &Path, spec: &Spec) {
    println!("created {}", target.display());
    println!(
        "  Cargo.toml        [package.metadata.boj]: {} ms, {} MB, {}",
        spec.time_limit_ms, spec.memory_limit_mb, spec.judge
    );
    if let Judge::Interactive(_) = spec.judge {
        println!("  src/main.rs       answers each line it reads, flushing after each");
    } else {
        println!("  src/main.rs       reads stdin once, writes stdout through one buffer");
    }
    let id = spec.id;
    match &spec.judge {
        Judge::Checker(name) => {
            println!(
                "  src/bin/{name}.rs  a template checker (INPUT ANSWER OUTPUT): write the rule"
            )
        }
        Judge::Interactive(name) => println!(
            "  src/bin/{name}.rs  a template interactor (INPUT = a sample's .in): write the grader"
        ),
        Judge::Exact | Judge::Float(_) => {}
    }
    if spec.stress {
        println!("  src/bin/boj-{id}-gen.rs    prints one input for SEED SIZE: make it real");
        println!("  src/bin/boj-{id}-brute.rs  the reference: a slow, obviously right solution");
    }
    if spec.samples.is_empty() {
        println!("  samples/.gitkeep  put NAME.in and NAME.out here");
        println!("next: add samples, then `cargo xtask test {id}`");
    } else {
        let n = spec.samples.len();
        println!("  samples/          1.in .. {n}.out: {n} from the payload");
        println!("next: `cargo xtask test {id}`");
    }
    if spec.stress {
        println!("then: `cargo xtask stress {id}`");
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
    let id = spec.id;
    let mut files = vec![
        ("Cargo.toml".to_string(), manifest(spec)),
        ("src/main.rs".to_string(), main_rs(spec)),
    ];
    match &spec.judge {
        Judge::Checker(name) => files.push((format!("src/bin/{name}.rs"), checker_rs(id))),
        Judge::Interactive(name) => {
            files[1].1 = interactive_main_rs(spec);
            files.push((format!("src/bin/{name}.rs"), interactor_rs(id)));
        }
        Judge::Exact | Judge::Float(_) => {}
    }
    if spec.stress {
        files.push((format!("src/bin/boj-{id}-gen.rs"), generator_rs(id)));
        files.push((format!("src/bin/boj-{id}-brute.rs"), reference_rs(id)));
    }
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
    let id = spec.id;
    let judge = match &spec.judge {
        Judge::Exact => "judge = \"exact\"\n\
                             # judge = \"float\" with error = 1e-9 for answers within an error;\n\
                             # judge = \"checker\" with checker = \"boj-ID-checker\" for a special judge;\n\
                             # judge = \"interactive\" with interactor = \"boj-ID-interactor\" for a grader.\n"
            .replace("ID", &id.to_string()),
        Judge::Float(error) => format!(
            "judge = \"float\"\n# Numbers may differ by this much, absolutely or relatively.\n\
             error = {error:e}\n"
        ),
        Judge::Checker(name) => format!(
            "judge = \"checker\"\n# Called as `{name} INPUT ANSWER OUTPUT`; exit 0 accepts.\n\
             checker = \"{name}\"\n"
        ),
        Judge::Interactive(name) => format!(
            "judge = \"interactive\"\n# Called as `{name} INPUT` (a sample's .in), talking to the \
             solution; exit 0 accepts, 1 rejects.\ninteractor = \"{name}\"\n"
        ),
    };
    let stress = if spec.stress {
        format!(
            "# `cargo xtask stress {id}`: `boj-{id}-gen SEED SIZE` prints an input, the reference \
             answers it.\ngenerator = \"boj-{id}-gen\"\nreference = \"boj-{id}-brute\"\n"
        )
    } else {
        format!(
            "# For `cargo xtask stress`: generator = \"boj-{id}-gen\", reference = \
             \"boj-{id}-brute\".\n"
        )
    };
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
# The solution; other binaries of this package (checker, generator, reference) are helpers.
default-run = "boj-{id}"

[dependencies]

[package.metadata.boj]
id = {id}
time-limit-ms = {time}
memory-limit-mb = {memory}
{judge}{stress}
[lints]
workspace = true
"#,
        time = spec.time_limit_ms,
        memory = spec.memory_limit_mb,
    )
}

fn main_rs(spec: &Spec) -> String {
    let (id, title) = (spec.id, spec.title_in_parentheses());
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

/// A template special judge, in BOJ's calling convention. Until its rule is written it accepts
/// exactly the outputs whose tokens equal the model answer's.
fn checker_rs(id: u32) -> String {
    format!(
        r#"//! BOJ {id}'s special judge: `boj-{id}-checker INPUT ANSWER OUTPUT` (BOJ's order: the model
//! answer before the contestant's output). Exit 0 accepts, 1 rejects with the reason on stderr,
//! 2 when the check itself cannot run.
//!
//! A template: it accepts an OUTPUT whose tokens equal ANSWER's. Write the problem's real rule.

use std::fs;
use std::process;

fn main() {{
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 3 {{
        eprintln!("usage: boj-{id}-checker INPUT ANSWER OUTPUT");
        process::exit(2);
    }}
    let read = |path: &str| match fs::read(path) {{
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(err) => {{
            eprintln!("cannot read {{}}: {{}}", path, err);
            process::exit(2)
        }}
    }};
    let (_input, answer, output) = (read(&args[0]), read(&args[1]), read(&args[2]));
    let expected: Vec<&str> = answer.split_whitespace().collect();
    let actual: Vec<&str> = output.split_whitespace().collect();
    if expected == actual {{
        process::exit(0);
    }}
    eprintln!("wrong answer: the output's tokens differ from the model answer's");
    process::exit(1);
}}
"#
    )
}

/// A template generator: `boj-ID-gen SEED SIZE` prints one input, the same for the same
/// arguments, with a PRNG of its own (no crates, Rust 1.56).
fn generator_rs(id: u32) -> String {
    format!(
        r#"//! BOJ {id}'s input generator for `cargo xtask stress`: `boj-{id}-gen SEED SIZE` prints one
//! input on stdout. SIZE runs from 1 to 100 (small first, as the run goes); make it mean "how
//! big" for this problem. The same SEED and SIZE must give the same input.
//!
//! A template: it prints SIZE numbers on one line after their count. Make it print the
//! problem's real input format, within the problem's constraints.

use std::io::{{self, Write}};

fn main() {{
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if args.len() != 2 || numbers.len() != 2 {{
        eprintln!("usage: boj-{id}-gen SEED SIZE");
        std::process::exit(2);
    }}
    let (seed, size) = (numbers[0], numbers[1].max(1));
    let mut rng = Rng(seed);
    let n = 1 + rng.below(size);
    let mut out = String::new();
    out.push_str(&format!("{{}}\n", n));
    let numbers: Vec<String> = (0..n).map(|_| rng.below(1000).to_string()).collect();
    out.push_str(&numbers.join(" "));
    out.push('\n');
    io::stdout().write_all(out.as_bytes()).expect("cannot write standard output");
}}

/// SplitMix64: small, fast and the same everywhere.
struct Rng(u64);

impl Rng {{
    fn next(&mut self) -> u64 {{
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }}

    /// A number in 0..n (n > 0).
    fn below(&mut self, n: u64) -> u64 {{
        self.next() % n
    }}
}}
"#
    )
}

/// A template reference: reads the input, prints the expected answer.
fn reference_rs(id: u32) -> String {
    format!(
        r#"//! BOJ {id}'s reference for `cargo xtask stress`: reads one input on stdin and prints the
//! expected answer. Make it slow and obviously right (brute force over every possibility), so
//! that a disagreement points at the solution.
//!
//! A template: like the solution's template, it echoes each token on a line.

use std::io::{{self, Read, Write}};

fn main() {{
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .expect("cannot read standard input");
    let mut out = String::new();
    for token in input.split_ascii_whitespace() {{
        out.push_str(token);
        out.push('\n');
    }}
    io::stdout().write_all(out.as_bytes()).expect("cannot write standard output");
}}
"#
    )
}

/// The solution template of an interactive problem: a line in, a line out, flushed at once.
fn interactive_main_rs(spec: &Spec) -> String {
    let (id, title) = (spec.id, spec.title_in_parentheses());
    format!(
        r#"//! BOJ {id}{title}: an interactive problem. The grader's lines arrive on stdin and the
//! solution's go to stdout; every line must be flushed before waiting for the answer.
//!
//! A template: it answers each line it reads with a line, until its input ends.

use std::io::{{self, BufRead, Write}};

fn main() {{
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {{
        let line = line.expect("cannot read standard input");
        writeln!(out, "{{}}", answer(&line)).expect("cannot write standard output");
        // The grader waits for this line: send it now, not when a buffer fills.
        out.flush().expect("cannot write standard output");
    }}
}}

/// A placeholder until the problem is solved: repeats the line.
fn answer(line: &str) -> String {{
    line.to_string()
}}
"#
    )
}

/// A template interactor (grader), in the contract `cargo xtask test` judges with.
fn interactor_rs(id: u32) -> String {
    format!(
        r#"//! BOJ {id}'s interactor: `boj-{id}-interactor INPUT`, where INPUT is a sample's `.in` (the
//! secret data). Its stdout is the solution's stdin and the solution's stdout is its stdin.
//! Exit 0 accepts; exit 1 rejects, with the reason on stderr; anything else is a judge error.
//! Flush after every line: the solution is waiting for it.
//!
//! A template: it sends INPUT's first line, answers each line it reads with INPUT's next line
//! while there is one, then rejects, as it does when the solution's output ends. Write the
//! problem's real grader here, as BOJ describes it.

use std::io::{{self, BufRead, Write}};
use std::process;

fn main() {{
    let path = match std::env::args().nth(1) {{
        Some(path) => path,
        None => {{
            eprintln!("usage: boj-{id}-interactor INPUT");
            process::exit(2)
        }}
    }};
    let input = match std::fs::read_to_string(&path) {{
        Ok(text) => text,
        Err(err) => {{
            eprintln!("cannot read {{}}: {{}}", path, err);
            process::exit(2)
        }}
    }};
    let mut secret = input.lines();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if let Some(first) = secret.next() {{
        let _ = writeln!(out, "{{}}", first);
        let _ = out.flush();
    }}
    let stdin = io::stdin();
    for line in stdin.lock().lines() {{
        if line.is_err() {{
            break;
        }}
        match secret.next() {{
            Some(next) => {{
                let _ = writeln!(out, "{{}}", next);
                let _ = out.flush();
            }}
            None => break,
        }}
    }}
    eprintln!("template interactor: write the real one");
    process::exit(1);
}}
"#
    )
}
