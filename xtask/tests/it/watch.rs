//! `cargo xtask watch` on a copy of the bundler's fixture workspace (`boj-1000`, over the path
//! crates `fixture-lib` and `fixture-util`), run as a user runs it and read line by line: an
//! edit from AC to WA is judged again within seconds, one save one run, and Ctrl-C leaves
//! nothing running; a compile error in a crate the problem uses is shown and watching goes
//! on; a new sample is judged; Ctrl-C during a build ends cargo and rustc too; a problem folder
//! that disappears ends the watch. Signals and the removed folder are tested on Unix only.
//!
//! Every wait is bounded and the watcher is killed when a test ends in any way, so a
//! watcher that hangs fails the test instead of the suite.

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
#[cfg(unix)]
use std::process::ExitStatus;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::support::{self, edit, processes_under, target_dir};

/// A cold build of the fixture (three small crates in the judge profile) takes seconds; this
/// bounds a hang, not the speed.
const FIRST_RUN: Duration = Duration::from_secs(120);

/// From a save to its verdict: the debounce (200 ms) and settling (100 ms), cargo rebuilding
/// the one changed crate and the binary (about a second here, more on a busy machine), and
/// judging one sample.
const AFTER_SAVE: Duration = Duration::from_secs(10);

/// The fixture's workspace lacks the judge profile, which only its bundles needed so far.
const JUDGE_PROFILE: &str = "
[profile.judge]
inherits = \"release\"
opt-level = 2
debug-assertions = false
overflow-checks = false
";

/// A fresh copy of the fixture workspace for one test, and its problem folder.
fn fixture_copy(test: &str) -> (PathBuf, PathBuf) {
    let workspace = support::fixture_copy("bundle-fixture", &format!("watch-{test}"));
    let manifest = workspace.join("Cargo.toml");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(&manifest, text + JUDGE_PROFILE).unwrap();
    let problem = workspace.join("problems/boj-1000");
    (workspace, problem)
}

/// The target folder a test's builds go to.
fn target(test: &str) -> PathBuf {
    target_dir(&format!("watch-{test}-target"))
}

/// A running `cargo xtask watch`, its stdout and stderr (`stderr: ` before each line) read on
/// threads into one channel. Dropping it kills the watcher.
struct Watcher {
    child: Child,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    seen: Vec<String>,
}

impl Watcher {
    /// Starts `cargo xtask watch PROBLEM`, building into [`target`]`(test)`. `own_group` puts
    /// it in a process group of its own, as a shell puts a foreground job (Unix), so that
    /// [`Watcher::interrupt_group`] is a terminal's Ctrl-C.
    fn start(test: &str, problem: &Path, own_group: bool) -> Watcher {
        let xtask = env!("CARGO_BIN_EXE_xtask");
        // A process started with SIGINT ignored (a background job of a shell without job
        // control) passes that on, and then nothing Ctrl-C would end ends: start the watcher
        // as a terminal would, with SIGINT's default action.
        let mut command = if sigint_ignored_here() {
            let mut env = Command::new("env");
            env.args(["--default-signal=INT", xtask]);
            env
        } else {
            Command::new(xtask)
        };
        command
            .args(["watch", problem.to_str().unwrap(), "--color", "never"])
            .env("CARGO_TARGET_DIR", target(test))
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        if own_group {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        #[cfg(not(unix))]
        let _ = own_group;
        let mut child = command.spawn().unwrap();
        let (sender, lines) = mpsc::channel();
        let streams: [(Box<dyn Read + Send>, &str); 2] = [
            (Box::new(child.stdout.take().unwrap()), ""),
            (Box::new(child.stderr.take().unwrap()), "stderr: "),
        ];
        for (stream, prefix) in streams {
            let sender = sender.clone();
            thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if sender.send(format!("{prefix}{line}")).is_err() {
                        break;
                    }
                }
            });
        }
        Watcher {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// The lines read until one contains `wanted` (that one included), which must come
    /// within `bound`.
    fn wait_for(&mut self, wanted: &str, bound: Duration) -> Vec<String> {
        let deadline = Instant::now() + bound;
        let mut read = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let found = line.contains(wanted);
                    read.push(line);
                    if found {
                        return read;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no line with {wanted:?} within {bound:?}; the watcher said:\n{}",
                    self.seen.join("\n")
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "the watcher ended before saying {wanted:?}; it said:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// The lines that come within `period`.
    fn lines_within(&mut self, period: Duration) -> Vec<String> {
        let deadline = Instant::now() + period;
        let mut read = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line.clone());
            read.push(line);
        }
        read
    }

    /// How the watcher ended, which must be within `bound`.
    #[cfg(unix)]
    fn exit_within(&mut self, bound: Duration) -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                started.elapsed() < bound,
                "the watcher still runs {bound:?} later; it said:\n{}",
                self.seen.join("\n")
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// `kill -INT` to the watcher alone.
    #[cfg(unix)]
    fn interrupt(&self) {
        send_sigint(&self.child.id().to_string());
    }

    /// `kill -INT` to the watcher's whole process group, as a terminal's Ctrl-C: it reaches
    /// the cargo and rustc it started too (they share its group; judged programs have their
    /// own).
    #[cfg(unix)]
    fn interrupt_group(&self) {
        send_sigint(&format!("-{}", self.child.id()));
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `kill -INT -- TARGET`: a process id, or a group's as `-PGID`.
#[cfg(unix)]
fn send_sigint(target: &str) {
    let status = Command::new("kill")
        .args(["-INT", "--", target])
        .status()
        .unwrap();
    assert!(status.success(), "kill -INT -- {target}: {status}");
}

/// Whether this process ignores SIGINT (Linux's `/proc` tells; elsewhere taken as not).
fn sigint_ignored_here() -> bool {
    let Ok(status) = fs::read_to_string("/proc/self/status") else {
        return false;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
}

/// Asserts that the watcher ended of SIGINT, as a program without a handler does.
#[cfg(unix)]
fn assert_ended_by_sigint(status: ExitStatus) {
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(2), "{status}");
}

/// Saves `path` as vim does by default: a write test file `4913` made and removed, the old
/// file renamed to a backup `NAME~`, the new text written, the backup removed.
fn save_like_vim(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    let folder = path.parent().unwrap();
    fs::write(folder.join("4913"), "").unwrap();
    fs::remove_file(folder.join("4913")).unwrap();
    let backup = folder.join(format!("{}~", path.file_name().unwrap().to_str().unwrap()));
    fs::rename(path, &backup).unwrap();
    fs::write(path, text.replace(from, to)).unwrap();
    fs::remove_file(backup).unwrap();
}

fn count_containing(lines: &[String], wanted: &str) -> usize {
    lines.iter().filter(|line| line.contains(wanted)).count()
}

#[test]
fn an_edit_from_ac_to_wa_is_judged_again_within_seconds_and_ctrl_c_leaves_nothing_running() {
    let (workspace, problem) = fixture_copy("ac-to-wa");
    let mut watcher = Watcher::start("ac-to-wa", &problem, false);
    let first = watcher.wait_for("boj-1000: 1/1 AC", FIRST_RUN);
    assert!(
        first[0].starts_with(
            "── watching boj-1000: src/, samples/, Cargo.toml, the workspace's Cargo.toml and \
             crates/fixture-lib, crates/fixture-util (src/, Cargo.toml) · Ctrl-C stops ──"
        ),
        "{first:#?}"
    );

    let saved = Instant::now();
    save_like_vim(
        &problem.join("src/main.rs"),
        "report::total(&values));",
        "report::total(&values) + 1);",
    );
    let run = watcher.wait_for("boj-1000: 0/1 AC", AFTER_SAVE);
    eprintln!("the WA verdict came {:?} after the save", saved.elapsed());
    let run: Vec<&str> = run
        .iter()
        .map(String::as_str)
        .skip_while(|l| l.is_empty())
        .collect();
    // The editor's write test, backup and rename are one change of src/main.rs.
    assert_eq!(run[0], "── changed: src/main.rs ──", "{run:#?}");
    assert_eq!(
        run[1],
        "boj-1000  1 sample · exact judge · 2000 ms CPU · 256 MB"
    );
    assert!(run[2].starts_with("  1  WA "), "{run:#?}");
    assert!(run.contains(&"    +1 8"), "{run:#?}");
    // One save, one run: nothing follows it.
    let after = watcher.lines_within(Duration::from_millis(700));
    assert!(after.is_empty(), "{after:#?}");

    #[cfg(unix)]
    {
        watcher.interrupt();
        assert_ended_by_sigint(watcher.exit_within(Duration::from_secs(2)));
    }
    #[cfg(not(unix))]
    eprintln!("skipped: Ctrl-C is sent to a console, which this test has none of");
    drop(watcher);
    assert_eq!(processes_under(&target("ac-to-wa")), Vec::<String>::new());
    assert_eq!(processes_under(&workspace), Vec::<String>::new());
}

#[test]
fn a_compile_error_in_a_crate_the_problem_uses_is_shown_and_watching_goes_on() {
    let (_workspace, problem) = fixture_copy("compile-error");
    let library = problem.join("../../crates/fixture-lib/src/lib.rs");
    let mut watcher = Watcher::start("compile-error", &problem, false);
    watcher.wait_for("boj-1000: 1/1 AC", FIRST_RUN);

    edit(
        &library,
        "    checked(a + b)\n",
        "    checked(a + b) oops\n",
    );
    let run = watcher.wait_for("stderr: (still watching", AFTER_SAVE);
    assert_eq!(
        count_containing(&run, "── changed: crates/fixture-lib/src/lib.rs ──"),
        1,
        "{run:#?}"
    );
    assert_eq!(
        count_containing(&run, "stderr: error: cargo build --profile judge failed"),
        1,
        "{run:#?}"
    );
    assert_eq!(count_containing(&run, "found `oops`"), 1, "{run:#?}");

    edit(
        &library,
        "    checked(a + b) oops\n",
        "    checked(a + b)\n",
    );
    let run = watcher.wait_for("boj-1000: 1/1 AC", AFTER_SAVE);
    assert_eq!(
        count_containing(&run, "── changed: crates/fixture-lib/src/lib.rs ──"),
        1,
        "{run:#?}"
    );

    // A new sample (two files) is one run, with nothing to rebuild.
    fs::write(problem.join("samples/2.in"), "1 2\n").unwrap();
    fs::write(problem.join("samples/2.out"), "3\n1x2 2 1\n49\n").unwrap();
    let run = watcher.wait_for("boj-1000: 2/2 AC", AFTER_SAVE);
    assert_eq!(
        count_containing(&run, "── changed: samples/2.in and 1 more ──"),
        1,
        "{run:#?}"
    );

    // The problem folder gone, there is nothing to watch: exit 2, saying why. (Unix only: on
    // Windows the watch's open handles may hold the folder; not tried there.)
    #[cfg(unix)]
    {
        fs::remove_dir_all(&problem).unwrap();
        let status = watcher.exit_within(AFTER_SAVE);
        assert_eq!(status.code(), Some(2), "{:#?}", watcher.seen);
        let said = watcher.lines_within(Duration::from_secs(1));
        assert_eq!(
            count_containing(&said, "is gone; watching stops"),
            1,
            "{said:#?}"
        );
    }
}

/// Ctrl-C while cargo builds: the terminal's SIGINT reaches the watcher, cargo and rustc at
/// once, and none of them is left.
#[cfg(unix)]
#[test]
fn ctrl_c_during_a_build_ends_the_build_too() {
    let (workspace, problem) = fixture_copy("mid-build");
    let target = target("mid-build");
    let _ = fs::remove_dir_all(&target);
    let mut watcher = Watcher::start("mid-build", &problem, true);
    watcher.wait_for("── watching boj-1000", FIRST_RUN);
    // A cold build takes seconds: wait until cargo is building the fixture (where /proc tells).
    if Path::new("/proc/self/exe").exists() {
        let started = Instant::now();
        while !processes_under(&workspace)
            .iter()
            .any(|p| p.contains("cargo build"))
        {
            assert!(
                started.elapsed() < FIRST_RUN,
                "cargo never started building"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }
    watcher.interrupt_group();
    assert_ended_by_sigint(watcher.exit_within(Duration::from_secs(2)));
    // The signal reached every process of the group at once; give them a moment to die.
    let started = Instant::now();
    let mut left = processes_under(&workspace);
    while !left.is_empty() && started.elapsed() < Duration::from_secs(2) {
        thread::sleep(Duration::from_millis(20));
        left = processes_under(&workspace);
    }
    assert_eq!(left, Vec::<String>::new());
    assert_eq!(processes_under(&target), Vec::<String>::new());
}
