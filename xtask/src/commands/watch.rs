//! `cargo xtask watch PROBLEM [--bundled]`: judges a problem as `cargo xtask test PROBLEM`
//! does, then again each time one of its files is saved, until Ctrl-C.
//!
//! Events come from `notify` (inotify, FSEvents, ReadDirectoryChangesW) through its debouncer;
//! the main thread blocks on them, builds and judges, and never polls. Ctrl-C keeps its default
//! action, so the watcher ends at once wherever it is: a terminal's Ctrl-C reaches the whole
//! foreground process group (cargo and rustc stop with it, as they do under `cargo build`),
//! and the programs being judged, in process groups or jobs of their own, are ended by the
//! runner's guards (ARCHITECTURE.md, "The runner's seam").

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use xtask::report::emit;
use xtask::watch::{Watch, Watched};
use xtask::workspace;
use xtask::workspace::archive;
use xtask::workspace::problem::{self, Problem};

use super::test::{judge_problems, JudgeArgs};
use super::ProgramArgs;

/// Judge a problem's samples, then again each time one of its files is saved (Ctrl-C stops).
#[derive(clap::Args, Debug)]
pub struct WatchArgs {
    /// The problem: `boj-2239`, `2239` or a path to a problem folder.
    pub problem: String,
    #[command(flatten)]
    pub judging: JudgeArgs,
    /// Judge the problem's one-file bundle (`cargo xtask bundle`), compiled alone with `rustc
    /// --edition 2021 -O`, instead of cargo's build of the solver.
    #[arg(long)]
    pub bundled: bool,
    /// With --bundled: also compile the bundle with this rustc; repeatable.
    #[arg(long, value_name = "PATH", requires = "bundled")]
    pub rustc: Vec<PathBuf>,
}

/// How long a file must be quiet before its change is reported: an editor's save (write a
/// temporary file, rename it over the old one, remove a backup) takes a few milliseconds.
const DEBOUNCE: Duration = Duration::from_millis(200);

/// The debouncer looks every quarter of [`DEBOUNCE`] (50 ms) for paths quiet for that long,
/// so the paths of one save, a few milliseconds apart, can straddle a look and come in two
/// batches: batches closer than this are one change.
const SETTLE: Duration = Duration::from_millis(100);

/// The longest a run waits for changes to settle (a file written without pause).
const SETTLE_AT_MOST: Duration = Duration::from_secs(2);

/// Runs the subcommand until Ctrl-C; it returns only when the problem's folder is gone or
/// the file watcher fails (exit 2).
pub fn run(args: &WatchArgs) -> Result<ExitCode> {
    let problem = problem::find(args.judging.root.as_deref(), &args.problem)?;
    // The problem being worked on is open: a member of the workspace, so rust-analyzer sees it.
    // Where it cannot be (a copy whose package has another open problem's name), it is judged
    // all the same, built alone, and the reason is said.
    if let Ok(root) = workspace::root_or_project(args.judging.root.as_deref()) {
        match archive::open_if_archivable(&root, &problem.dir) {
            Ok(moved) if !moved.is_empty() => {
                emit(&format!("{moved}\n"));
                super::keep_editor_files(&root, xtask::workspace::editor::Missing::Make);
            }
            Ok(_) => {}
            Err(err) => emit(&format!("not opened (judged all the same): {err:#}\n")),
        }
    }
    let programs = ProgramArgs {
        prebuilt: None,
        command: None,
        bundled: args.bundled,
        rustc: args.rustc.clone(),
    };
    let (events, changes) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer = new_debouncer(DEBOUNCE, None, events).context("cannot watch files")?;
    let mut watched = Watched::of(&problem).unwrap_or_else(|_| Watched::problem_only(&problem));
    let mut watching = Watching::default();
    watching.update(&mut debouncer, &watched, &BTreeSet::new());
    emit(&format!(
        "── watching {}: {} · Ctrl-C stops ──\n",
        problem.name,
        watched.summary()
    ));
    judge(&problem.dir, &programs, &args.judging);
    loop {
        let changed = next_change(&changes, &watched, &problem.dir)?;
        if changed.iter().any(|path| watched.is_manifest(path)) {
            // Dependencies may have changed; a manifest cargo cannot read keeps the old set
            // (the build says what is wrong with it).
            if let Ok(now) = Watched::of(&problem) {
                watched = now;
            }
        }
        watching.update(&mut debouncer, &watched, &changed);
        emit(&format!("\n{}", watched.changed_line(&changed)));
        judge(&problem.dir, &programs, &args.judging);
    }
}

/// One run, as `cargo xtask test PROBLEM` does it, with the problem read again (its limits,
/// judge or samples may have changed). A failure (a compile error, a bad manifest) is shown
/// and watching goes on.
fn judge(dir: &Path, programs: &ProgramArgs, judging: &JudgeArgs) {
    let judged = Problem::load(dir)
        .and_then(|problem| judge_problems(std::slice::from_ref(&problem), programs, judging));
    if let Err(err) = judged {
        eprintln!("error: {err:#}");
        eprintln!("(still watching: save a file to judge again)");
    }
}

/// Waits for the next change that concerns the watch, and takes with it every change that
/// arrives until they settle (those made during the last run included). Errs when the
/// problem's folder is gone or the watcher has stopped.
fn next_change(
    changes: &Receiver<DebounceEventResult>,
    watched: &Watched,
    problem_dir: &Path,
) -> Result<BTreeSet<PathBuf>> {
    let mut changed = BTreeSet::new();
    loop {
        let batch = changes
            .recv()
            .context("the file watcher stopped; watching cannot go on")?;
        take(batch, watched, &mut changed);
        let started = Instant::now();
        while started.elapsed() < SETTLE_AT_MOST {
            match changes.recv_timeout(SETTLE) {
                Ok(batch) => take(batch, watched, &mut changed),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        if !problem_dir.is_dir() {
            bail!(
                "the problem folder {} is gone; watching stops",
                problem_dir.display()
            );
        }
        if !changed.is_empty() {
            return Ok(changed);
        }
    }
}

/// Adds the paths of `batch` that concern the watch to `changed`; a watcher's errors are
/// shown and watching goes on. Reading a file is no change: cargo and rustc open every
/// source and manifest they build from (inotify reports each open), and a run must not
/// start the next.
fn take(batch: DebounceEventResult, watched: &Watched, changed: &mut BTreeSet<PathBuf>) {
    match batch {
        Ok(events) => changed.extend(
            events
                .into_iter()
                .filter(|event| !event.kind.is_access())
                .flat_map(|event| event.event.paths)
                .filter(|path| watched.concerns(path)),
        ),
        Err(errors) => {
            for err in errors {
                eprintln!("warning: watching files: {err}");
            }
        }
    }
}

/// The folders handed to the file watcher, kept in step with [`Watched`].
#[derive(Debug, Default)]
struct Watching {
    folders: BTreeMap<PathBuf, bool>,
}

impl Watching {
    /// Watches what `watched` asks and no more. A folder that does not exist yet is watched
    /// once it does; one that `changed` names was replaced (removed and made again), and is
    /// watched anew, since a watch ends with the folder it was on.
    fn update(
        &mut self,
        watcher: &mut Debouncer<RecommendedWatcher, RecommendedCache>,
        watched: &Watched,
        changed: &BTreeSet<PathBuf>,
    ) {
        let wanted: BTreeMap<PathBuf, bool> = watched
            .watches()
            .into_iter()
            .map(|Watch { path, recursive }| (path, recursive))
            .collect();
        let stale: Vec<PathBuf> = self
            .folders
            .iter()
            .filter(|&(path, recursive)| {
                wanted.get(path) != Some(recursive) || changed.contains(path) || !path.is_dir()
            })
            .map(|(path, _)| path.clone())
            .collect();
        for path in stale {
            let _ = watcher.unwatch(&path);
            self.folders.remove(&path);
        }
        for (path, recursive) in wanted {
            if self.folders.contains_key(&path) || !path.is_dir() {
                continue;
            }
            let mode = if recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            match watcher.watch(&path, mode) {
                Ok(()) => {
                    self.folders.insert(path, recursive);
                }
                Err(err) => eprintln!("warning: cannot watch {}: {err}", path.display()),
            }
        }
    }
}
