//! `cargo xtask bundle PROBLEM [-o FILE] [--check [--rustc PATH]... [--prebuilt DIR]]`: writes
//! the problem's one-file submission and, with `--check`, proves it is one (see
//! `xtask::bundle`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use xtask::bundle::{self, check};
use xtask::report::{emit, ColorChoice, Style};
use xtask::workspace::problem;

/// Arguments of `cargo xtask bundle`.
#[derive(clap::Args, Debug)]
pub struct BundleArgs {
    /// The problem: `boj-2239`, `2239` or a path to a problem folder.
    pub problem: String,
    /// Where to write the bundle [default: <target dir>/bundle/<package>.rs].
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Compile the bundle alone with `rustc --edition 2021 -O` and judge the samples with it.
    #[arg(long)]
    pub check: bool,
    /// With --check: also compile with this rustc (an older one, like Debian's 1.63 at
    /// /usr/bin/rustc); repeatable.
    #[arg(long, value_name = "PATH", requires = "check")]
    pub rustc: Vec<PathBuf>,
    /// With --check: take the problem's checker or interactor from DIR (as NAME or NAME.exe)
    /// instead of building it.
    #[arg(long, value_name = "DIR", requires = "check")]
    pub prebuilt: Option<PathBuf>,
}

/// Exit 0 when written (and, with `--check`, good); 1 when the bundle is over BOJ's 512 KB
/// (said with its three largest crates, written but not compiled), or when the check finds it
/// bad (newer syntax, a sample not AC); an error (bundling fails, the bundle does not
/// compile, a checker fails) is the tool's own, exit 2, as a build failure is for `cargo xtask
/// test`.
pub fn run(args: &BundleArgs) -> Result<ExitCode> {
    let problem = problem::find(None, &args.problem)?;
    let (bundle, path) = bundle::write_bundle(&problem, args.output.as_deref())?;
    say!("{}", bundle::wrote_line(&problem, &path, bundle.text.len()));
    if let Some(fallback) = &bundle.fallback {
        say!("{}: {fallback}", problem.name);
    }
    // Over 512 KB it is no submission, whatever else holds: said, and not compiled.
    if let Some(over) = bundle.over_limit() {
        eprintln!("error: {}: {over}", problem.name);
        return Ok(ExitCode::from(1));
    }
    if !args.check {
        return Ok(ExitCode::SUCCESS);
    }
    for note in check::judge_notes(&bundle, true) {
        say!("{}: {note}", problem.name);
    }
    let crates = check::declared_versions(&bundle);
    for rustc in &args.rustc {
        if let Some(note) = check::newer_than(&crates, rustc) {
            say!("{}: {note}", problem.name);
        }
    }
    let checked = check::check(
        &problem,
        &bundle,
        &path,
        &args.rustc,
        args.prebuilt.as_deref(),
    )?;
    for issue in &checked.issues {
        eprintln!("error: {issue}");
    }
    say!("{}", checked.compiled);
    emit(&checked.report.render(&Style::new(ColorChoice::Auto)));
    if checked.report.judge_failed() {
        anyhow::bail!(
            "the checker or interactor of {} failed; see JE above",
            problem.name
        );
    }
    Ok(if checked.good() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
