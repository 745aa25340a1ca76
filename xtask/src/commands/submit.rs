//! `cargo xtask submit PROBLEM [--force] [--rustc PATH]... [--color WHEN]`: the last step by hand, as BOJ
//! allows no other: the bundle written and checked (`bundle --check`: refused unless every
//! sample is AC, or with `--force`), copied to the clipboard, BOJ's submit page opened in the
//! browser, and what was done said (`xtask::submit`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use xtask::bundle::{self, check};
use xtask::report::{emit, ColorChoice, Style};
use xtask::submit::{self, Copied, Opened};
use xtask::workspace::problem;

/// Arguments of `cargo xtask submit`.
#[derive(clap::Args, Debug)]
pub struct SubmitArgs {
    /// The problem: `boj-1000`, `1000` or a path to a problem folder (its metadata's `id` names
    /// the submit page).
    pub problem: String,
    /// Copy the bundle and open the page even when a sample is not AC or the bundle breaks a
    /// rule (over 512 KB, newer syntax).
    #[arg(long)]
    pub force: bool,
    /// Also compile the bundle with this rustc (an older one, like Debian's 1.63 at
    /// /usr/bin/rustc); repeatable.
    #[arg(long, value_name = "PATH")]
    pub rustc: Vec<PathBuf>,
    /// Colour the report: auto = when stdout is a terminal and NO_COLOR is unset.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Exit 0 when the bundle was handed over (whether or not this machine has a clipboard or a
/// browser: what could not be done is said, with the bundle's path); 1 when the check refused
/// it (a sample not AC, a rule broken) without `--force`; an error (the bundle does not
/// compile, a checker fails, no `id`) is the tool's own, exit 2.
pub fn run(args: &SubmitArgs) -> Result<ExitCode> {
    let problem = problem::find(None, &args.problem)?;
    let Some(id) = problem.meta.id else {
        bail!(
            "{} has no `id` in [package.metadata.boj] of {}, so there is no BOJ page to submit \
             it to",
            problem.name,
            problem.manifest.display()
        );
    };
    let (bundle, path) = bundle::write_bundle(&problem, None)?;
    say!("{}", bundle::wrote_line(&problem, &path, bundle.text.len()));
    if let Some(fallback) = &bundle.fallback {
        say!("{}: {fallback}", problem.name);
    }
    let checked = check::check(&problem, &bundle, &path, &args.rustc, None)?;
    for issue in &checked.issues {
        eprintln!("error: {issue}");
    }
    say!("{}", checked.compiled);
    emit(&checked.report.render(&Style::new(args.color)));
    if checked.report.judge_failed() {
        bail!(
            "the checker or interactor of {} failed; see JE above",
            problem.name
        );
    }
    if !checked.good() {
        if !args.force {
            eprintln!(
                "error: not submitted: BOJ would not accept this as it is (see above); fix it, \
                 or `cargo xtask submit {} --force` to copy it and open the page anyway",
                args.problem
            );
            return Ok(ExitCode::from(1));
        }
        say!("{}: --force: handing it over all the same", problem.name);
    }
    let shown = xtask::hunt::engine::shown_path(&path);
    let url = submit::submit_url(id);
    match submit::copy_to_clipboard(&bundle.text) {
        Copied::Copied { server: None } => say!(
            "copied {shown} ({} bytes) to the clipboard",
            bundle.text.len()
        ),
        Copied::Copied { server: Some(pid) } => say!(
            "copied {shown} ({} bytes) to the clipboard (kept there by process {pid} until \
             something else is copied)",
            bundle.text.len()
        ),
        Copied::NotCopied(why) => {
            say!("not copied: {why}; the bundle to paste is {shown}")
        }
    }
    match submit::open_in_browser(&url) {
        Opened::Opened => say!("opened {url} in the browser"),
        Opened::NotOpened(why) => say!("not opened: {why}; open {url}"),
    }
    say!("on the page, choose the language Rust 2021, paste the bundle and submit");
    Ok(ExitCode::SUCCESS)
}
