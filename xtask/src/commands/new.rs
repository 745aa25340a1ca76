//! `cargo xtask new ID`: its arguments, and what it prints about the problem folder
//! `xtask::scaffold` makes (manifest with BOJ metadata, a thin `src/main.rs`, a `samples/`
//! folder git keeps; with `--judge checker` a checker, with `--stress` a generator, a
//! reference and a validator), refusing to touch an existing folder.
//!
//! `--from FILE.json` scaffolds through the same engine as `cargo xtask listen`
//! ([`scaffold::import`]), with the limits and samples of a competitive-companion payload; over
//! an existing problem it only compares.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use xtask::companion::Import;
use xtask::scaffold::{self, Imported, Role, Spec};
use xtask::workspace;
use xtask::workspace::archive;
use xtask::workspace::problem::{self, Judge, JudgeKind};

/// Create problems/boj-ID/ for a new BOJ problem (refuses, changing nothing, if it exists).
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The BOJ problem number (1 or more).
    #[arg(value_parser = clap::value_parser!(u32).range(1..))]
    pub id: u32,
    /// BOJ's time limit, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = problem::DEFAULT_TIME_LIMIT_MS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub time_limit_ms: u64,
    /// BOJ's memory limit, in MB.
    #[arg(long, value_name = "MB", default_value_t = problem::DEFAULT_MEMORY_LIMIT_MB,
          value_parser = clap::value_parser!(u64).range(1..))]
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
    /// Also scaffold a generator (`src/bin/boj-ID-gen.rs`), a reference
    /// (`src/bin/boj-ID-brute.rs`) and a validator (`src/bin/boj-ID-validator.rs`, named in
    /// Cargo.toml once it checks the constraints) for `cargo xtask stress`.
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
            (JudgeKind::Checker, None) => Ok(Judge::Checker(Role::Checker.binary(self.id))),
            (JudgeKind::Interactive, None) => {
                Ok(Judge::Interactive(Role::Interactor.binary(self.id)))
            }
        }
    }
}

/// Runs the subcommand: 0 created (or, with `--from`, already there with the same samples and
/// limits), 1 already there and the payload differs, 2 refused or failed.
pub fn run(args: &NewArgs) -> Result<ExitCode> {
    match &args.from {
        Some(file) => from_file(args, file),
        None => from_arguments(args).map(|()| ExitCode::SUCCESS),
    }
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
    let root = workspace::root_or_project(args.root.as_deref())?;
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
    match scaffold::import(&root, &payload, &spec)? {
        Imported::Created(dir) => {
            print_created(&dir, &spec);
            print_opened(&root, &dir);
            Ok(ExitCode::SUCCESS)
        }
        Imported::Existing(dir, differences) => {
            say!("{}: {} {differences}", payload.label(), dir.display());
            Ok(if differences.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

/// `cargo xtask new ID` with the limits and judge given as arguments.
fn from_arguments(args: &NewArgs) -> Result<()> {
    let root = workspace::root_or_project(args.root.as_deref())?;
    let spec = Spec {
        id: args.id,
        time_limit_ms: args.time_limit_ms,
        memory_limit_mb: args.memory_limit_mb,
        judge: args.judge(JudgeKind::Exact)?,
        stress: args.stress,
        ..Spec::default()
    };
    let target = scaffold::create(&root, &spec)?;
    print_created(&target, &spec);
    print_opened(&root, &target);
    Ok(())
}

/// Opens the new problem (a member of the workspace, so rust-analyzer sees it) and says what
/// moved. A problem that cannot be opened (an open copy has its package's name) is made all
/// the same, and judged built alone: a warning, as `listen` and `watch` say it, not a failure.
fn print_opened(root: &Path, dir: &Path) {
    match archive::open_if_archivable(root, dir) {
        Ok(moved) if !moved.is_empty() => {
            say!("{moved}");
            super::keep_editor_files(root, xtask::workspace::editor::Missing::Make);
        }
        Ok(_) => {}
        Err(err) => eprintln!("warning: not opened: {err:#}"),
    }
}

/// What was made, a line per file, and what to do next.
fn print_created(target: &Path, spec: &Spec) {
    say!("created {}", target.display());
    say!(
        "  Cargo.toml        [package.metadata.boj]: {} ms, {} MB, {}",
        spec.time_limit_ms,
        spec.memory_limit_mb,
        spec.judge
    );
    if let Judge::Interactive(_) = spec.judge {
        say!("  src/main.rs       answers each line it reads, flushing after each");
    } else {
        say!("  src/main.rs       reads stdin once, writes stdout through one buffer");
    }
    let id = spec.id;
    match &spec.judge {
        Judge::Checker(name) => {
            say!("  src/bin/{name}.rs  a template checker (INPUT ANSWER OUTPUT): write the rule")
        }
        Judge::Interactive(name) => say!(
            "  src/bin/{name}.rs  a template interactor (INPUT = a sample's .in): write the grader"
        ),
        Judge::Exact | Judge::Float(_) => {}
    }
    if spec.stress {
        let (generator, reference) = (Role::Generator.binary(id), Role::Reference.binary(id));
        say!("  src/bin/{generator}.rs    prints one input for SEED SIZE: make it real");
        say!("  src/bin/{reference}.rs  the reference: a slow, obviously right solution");
        let validator = Role::Validator.binary(id);
        say!(
            "  src/bin/{validator}.rs  checks an input against the constraints: write them, \
             then name it in Cargo.toml"
        );
    }
    if spec.samples.is_empty() {
        say!("  samples/.gitkeep  put NAME.in and NAME.out here");
        say!("next: add samples, then `cargo xtask test {id}`");
    } else {
        let n = spec.samples.len();
        say!("  samples/          1.in .. {n}.out: {n} from the payload");
        say!("next: `cargo xtask test {id}`");
    }
    if spec.stress {
        say!("then: `cargo xtask stress {id}`");
    }
}
