//! `cargo xtask debug` (issue 51): a solution whose helper indexes past the end of the vector it
//! is lent (`tests/data/debug/index-helper`, RE on sample 2, AC on sample 1), run to its panic
//! by `--batch` under gdb (and lldb, where its Python works), opened at gdb's prompt in tmux, and
//! refused with what to install where no debugger is; `deep-or-endless`, which spins or recurses
//! past its stack, stopped at its time and named by its signal, and whose copies it starts
//! (`fork-exit`, `fork-panic`) end with it. Tests that need gdb, lldb or
//! tmux skip, saying so, where it is not installed (CI installs gdb and tmux).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::support::{fixture_copy, processes_under, target_dir, text};

/// Runs the real xtask with `args` and `envs`, building into its own target folder.
fn xtask(test: &str, args: &[&str], envs: &[(&str, &std::ffi::OsStr)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_xtask"));
    command
        .args(args)
        .env(
            "CARGO_TARGET_DIR",
            target_dir(&format!("debug-{test}-target")),
        )
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE");
    for (key, value) in envs {
        command.env(key, value);
    }
    command.output().unwrap()
}

/// The fixture problem, copied for one test.
fn problem(test: &str) -> PathBuf {
    fixture_copy("debug", test).join("index-helper")
}

/// Whether `program` is on PATH; says so when it is not.
fn installed(program: &str, why: &str) -> bool {
    let found = xtask::debug::on_path(program).is_some();
    if !found {
        eprintln!("skipped {why}: no {program} on PATH");
    }
    found
}

#[test]
fn batch_names_the_helper_its_panic_and_the_vector_it_was_lent() {
    if !installed("gdb", "the gdb batch run") {
        return;
    }
    let dir = problem("batch-gdb");
    let path = dir.to_str().unwrap();
    // No CASE: the samples are judged, and the first that fails (2, RE) is run.
    let out = xtask(
        "batch-gdb",
        &["debug", path, "--batch", "--debugger", "gdb"],
        &[],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("  2  RE"), "{stdout}");
    assert_panic_report(&stdout);

    // Sample 1 is AC: it runs to its end.
    let out = xtask("batch-gdb", &["debug", path, "1", "--batch"], &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("sample 1"), "{stdout}");
    assert!(stdout.contains("ran to its end: exit status 0"), "{stdout}");
    assert!(!stdout.contains("panicked"), "{stdout}");
}

/// What a batch run on sample 2 must say, whichever debugger ran it: the panic's message and
/// place, the helper's frame (function, file:line), and on the argument's line the vector.
fn assert_panic_report(stdout: &str) {
    assert!(stdout.contains("sample 2"), "{stdout}");
    assert!(
        stdout.contains(concat!(
            "panicked: index out of bounds: the len is 4 but the index is 4\n",
            "  at src/main.rs:9:23\n"
        )),
        "{stdout}"
    );
    let helper = stdout
        .find("  fixture_index_helper::neighbour_sum at src/main.rs:9\n")
        .unwrap_or_else(|| panic!("no helper frame:\n{stdout}"));
    let frame = &stdout[helper..];
    let argument = frame
        .lines()
        .find(|line| line.starts_with("    arg numbers = "))
        .unwrap_or_else(|| panic!("no argument line:\n{stdout}"));
    assert!(argument.contains("{7, 8, 9, 10}"), "{argument}");
    assert!(argument.starts_with("    arg numbers = &"), "{argument}");
    assert!(frame.contains("\n    arg at = 3\n"), "{stdout}");
    // main's frame follows the helper's.
    let main = stdout
        .find("  fixture_index_helper::main at src/main.rs:20")
        .unwrap();
    assert!(main > helper, "{stdout}");
}

/// Where Debian's lldb 14 cannot find its Python module (its `lldb -P` names a folder that is
/// not there), the module's folder for `PYTHONPATH`; `None` where lldb's Python works as it is
/// or no folder is found.
fn lldb_python_path() -> Option<PathBuf> {
    let works = Command::new("lldb")
        .args(["-b", "--no-lldbinit", "-o", "script print(6 * 7)"])
        .output()
        .is_ok_and(|out| text(&out.stdout).contains("42"));
    if works {
        return None;
    }
    let lib = Path::new("/usr/lib");
    fs::read_dir(lib)
        .ok()?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("llvm-"))
        })
        .flat_map(|llvm| {
            fs::read_dir(llvm.join("lib"))
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|entry| entry.path().join("dist-packages"))
        .find(|path| path.join("lldb/embedded_interpreter.py").is_file())
}

#[test]
fn batch_under_lldb_says_the_same() {
    if !installed("lldb", "the lldb batch run") {
        return;
    }
    let python = lldb_python_path();
    let mut envs: Vec<(&str, &std::ffi::OsStr)> = Vec::new();
    if let Some(path) = &python {
        envs.push(("PYTHONPATH", path.as_os_str()));
    }
    let dir = problem("batch-lldb");
    let path = dir.to_str().unwrap();
    let out = xtask(
        "batch-lldb",
        &["debug", path, "2", "--batch", "--debugger", "lldb"],
        &envs,
    );
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    if out.status.code() == Some(2) && stderr.contains("python") {
        eprintln!("skipped the lldb batch run: lldb's Python does not work here:\n{stderr}");
        return;
    }
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert_panic_report(&stdout);
}

#[test]
fn without_a_debugger_it_exits_2_saying_what_to_install() {
    let dir = problem("no-debugger");
    let empty = target_dir("debug-no-debugger-path");
    fs::create_dir_all(&empty).unwrap();
    // A PATH with neither gdb nor lldb: refused before anything is built (no cargo is found
    // on this PATH either).
    let out = xtask(
        "no-debugger",
        &["debug", dir.to_str().unwrap(), "2"],
        &[("PATH", empty.as_os_str())],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}{stderr}", text(&out.stdout));
    if cfg!(windows) {
        // No rust-gdb or rust-lldb that Windows can run: what to use there instead.
        assert!(stderr.contains("CodeLLDB"), "{stderr}");
        return;
    }
    assert!(
        stderr.contains("no debugger on PATH (neither gdb nor lldb)"),
        "{stderr}"
    );
    let install = if cfg!(target_os = "macos") {
        "xcode-select --install"
    } else {
        "install gdb"
    };
    assert!(stderr.contains(install), "{stderr}");
    let out = xtask(
        "no-debugger",
        &[
            "debug",
            dir.to_str().unwrap(),
            "2",
            "--batch",
            "--debugger",
            "lldb",
        ],
        &[("PATH", empty.as_os_str())],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no lldb on PATH"),
        "{}",
        text(&out.stderr)
    );
    assert!(!target_dir("debug-no-debugger-target")
        .join("judge-debug")
        .exists());
}

/// A tmux server of the test's own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
    session: String,
}

impl Tmux {
    fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        command.args(["-L", &self.socket]);
        command
    }

    /// The pane's text, with its scrollback.
    fn screen(&self) -> String {
        let out = self
            .command()
            .args([
                "capture-pane",
                "-p",
                "-J",
                "-S",
                "-200",
                "-t",
                &self.session,
            ])
            .output()
            .unwrap();
        text(&out.stdout)
    }

    fn type_line(&self, line: &str) {
        let status = self
            .command()
            .args(["send-keys", "-t", &self.session, line, "Enter"])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits (at most `limit`) until the screen says `what` more than `before` times.
    fn wait_for(&self, what: &str, before: usize, limit: Duration) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.matches(what).count() > before {
                return screen;
            }
            assert!(
                start.elapsed() < limit,
                "no {what:?} within {limit:?}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn alive(&self) -> bool {
        self.command()
            .args(["has-session", "-t", &self.session])
            .output()
            .is_ok_and(|out| out.status.success())
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").output();
    }
}

#[test]
fn in_a_terminal_the_prompt_waits_then_run_stops_at_the_panic_and_quit_ends_it() {
    if !installed("gdb", "the terminal session") || !installed("tmux", "the terminal session") {
        return;
    }
    let dir = problem("terminal");
    let workspace = dir.parent().unwrap().to_path_buf();
    // Built first, so that the session waits on nothing but the debugger.
    let built = xtask(
        "terminal",
        &["debug", dir.to_str().unwrap(), "1", "--batch"],
        &[],
    );
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let tmux = Tmux {
        socket: format!("xtask-debug-test-{}", std::process::id()),
        session: "debug".into(),
    };
    let command = format!(
        "env -u RUST_BACKTRACE CARGO_TARGET_DIR={} {} debug {} 2",
        shlex::try_quote(target_dir("debug-terminal-target").to_str().unwrap()).unwrap(),
        env!("CARGO_BIN_EXE_xtask"),
        shlex::try_quote(dir.to_str().unwrap()).unwrap(),
    );
    let status = tmux
        .command()
        .args([
            "new-session",
            "-d",
            "-x",
            "200",
            "-y",
            "50",
            "-s",
            &tmux.session,
            &command,
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let limit = Duration::from_secs(120);
    // The prompt, with nothing started: the breakpoint is set, the program not run.
    let screen = tmux.wait_for("(gdb)", 0, limit);
    assert!(
        screen.contains("`run` starts it on samples/2.in"),
        "{screen}"
    );
    assert!(
        !screen.contains("panicked"),
        "started before `run`:\n{screen}"
    );
    tmux.type_line("run");
    let screen = tmux.wait_for("Breakpoint 1, std::panicking::rust_panic", 0, limit);
    assert!(
        screen.contains("index out of bounds: the len is 4 but the index is 4"),
        "{screen}"
    );
    let prompts = screen.matches("(gdb)").count();
    tmux.type_line("bt");
    let screen = tmux.wait_for("(gdb)", prompts, limit);
    let backtrace = &screen[screen.rfind("bt\n").unwrap_or(0)..];
    assert!(
        backtrace.contains("fixture_index_helper::neighbour_sum (numbers="),
        "{backtrace}"
    );
    assert!(backtrace.contains("src/main.rs:9"), "{backtrace}");
    tmux.type_line("quit");
    let start = Instant::now();
    while tmux.alive() {
        assert!(
            start.elapsed() < limit,
            "quit did not end it:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Nothing left: no debugger, no solution, no xtask.
    let left = processes_under(&workspace);
    assert!(left.is_empty(), "left running: {left:?}");
    let debugging = processes_under(&target_dir("debug-terminal-target"));
    assert!(debugging.is_empty(), "left running: {debugging:?}");
}

#[test]
fn a_run_that_never_ends_is_stopped_at_its_time_and_a_stack_overflow_is_named() {
    if !installed("gdb", "the gdb batch runs") {
        return;
    }
    let dir = fixture_copy("debug", "never-ends").join("deep-or-endless");
    let path = dir.to_str().unwrap();
    // 10 s + 10 × its 100 ms: stopped where it spins, its frame and locals shown.
    let out = xtask("never-ends", &["debug", path, "endless", "--batch"], &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("still running after 11 s, stopped there"),
        "{stdout}"
    );
    // Where in the loop it stops is where the interrupt lands: the loop's lines, 35 to 38 (at
    // opt-level 0 some of its instructions are the counter's line), or 40: the load that
    // starts the loop's way back is laid out after the `println!`'s code and takes its line
    // in the line table (seen once in CI, by objdump -dl of the fixture).
    let line: u32 = stdout
        .split("  fixture_deep_or_endless::main at src/main.rs:")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no frame of main in {stdout}"));
    assert!((35..=38).contains(&line) || line == 40, "{stdout}");
    assert!(stdout.contains("\n    let n = 0\n"), "{stdout}");
    // Past its 16 MB stack (the problem's, as when judged): SIGSEGV, in the recursion.
    let out = xtask("never-ends", &["debug", path, "deep", "--batch"], &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("stopped by SIGSEGV (a stack overflow"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  fixture_deep_or_endless::depth at src/main.rs:14"),
        "{stdout}"
    );
    assert!(
        stdout.contains("more of its own frames in the first 512 (a deep recursion)"),
        "{stdout}"
    );
    let left = processes_under(&dir);
    assert!(left.is_empty(), "left running: {left:?}");
}

/// Ends every process of the list (`PID COMMAND` lines, as [`processes_under`] gives them):
/// what a failing test found left running is not left for the next.
fn end_all(left: &[String]) {
    for line in left {
        if let Some(pid) = line.split(' ').next() {
            let _ = Command::new("kill").args(["-KILL", pid]).status();
        }
    }
}

#[test]
fn a_child_the_solution_started_is_ended_with_it_however_it_stops() {
    // The debugger puts the solution in a process group of its own and kills only the solution
    // itself: a copy of it that it started (sleeping a minute) was left running.
    let mut debuggers = Vec::new();
    if installed("gdb", "the gdb batch runs") {
        debuggers.push(("gdb", Vec::new()));
    }
    if installed("lldb", "the lldb batch runs") {
        let python = lldb_python_path();
        debuggers.push(("lldb", python.into_iter().collect()));
    }
    for (debugger, python) in debuggers {
        let test = format!("child-left-{debugger}");
        let dir = fixture_copy("debug", &test).join("deep-or-endless");
        let path = dir.to_str().unwrap();
        let envs: Vec<(&str, &std::ffi::OsStr)> = python
            .iter()
            .map(|path: &PathBuf| ("PYTHONPATH", path.as_os_str()))
            .collect();
        for (case, code, said) in [
            ("fork-exit", 0, "ran to its end: exit status 0"),
            ("fork-panic", 1, "panicked: a child left running"),
        ] {
            let args = ["debug", path, case, "--batch", "--debugger", debugger];
            let out = xtask(&test, &args, &envs);
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            if debugger == "lldb" && out.status.code() == Some(2) && stderr.contains("python") {
                eprintln!("skipped the lldb batch runs: lldb's Python does not work here");
                break;
            }
            let left = processes_under(&target_dir(&format!("debug-{test}-target")));
            end_all(&left);
            assert_eq!(out.status.code(), Some(code), "{stdout}{stderr}");
            assert!(stdout.contains(said), "{stdout}");
            assert!(left.is_empty(), "{debugger} {case}: left running: {left:?}");
        }
    }
}
