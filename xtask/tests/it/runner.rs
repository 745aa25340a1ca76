//! The runner's own tests, on every system (CI runs them on Linux and, cross-built, under
//! Wine): exit codes, a stdout left unread never capped, an abort named by how it ended, a kill
//! at the limit that ends what the program started, and figures that are real or absent, never
//! a made-up 0.
//!
//! The program under test is this test binary itself: run as `IT --exact runner::program
//! ROLE`, the test `program` plays ROLE (libtest takes ROLE as a second filter, which matches
//! no test), so no fixture needs building and the tests run wherever the binary does.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use xtask::run::{Exit, Limits, Measure, Outcome, Program, Setup};

/// Plays the role its last argument names, when run by [`as_program`]; otherwise passes.
#[test]
fn program() {
    let role = std::env::args().next_back().unwrap_or_default();
    match role.as_str() {
        "exit-3" => std::process::exit(3),
        "abort" => std::process::abort(),
        "hog" => {
            let block = vec![1u8; 64 << 20];
            let sum: u64 = block.iter().step_by(4096).map(|&b| u64::from(b)).sum();
            println!("{sum}");
            std::process::exit(0);
        }
        "flood" => {
            // 3 MiB on stdout, then a clean exit.
            let block = vec![b'x'; 3 << 20];
            std::io::Write::write_all(&mut std::io::stdout(), &block).unwrap();
            std::process::exit(0);
        }
        "spin" => {
            let start = Instant::now();
            let mut n = 0u64;
            while start.elapsed() < Duration::from_millis(300) {
                n = std::hint::black_box(n.wrapping_add(1));
            }
            std::process::exit(0);
        }
        "run-exit-3-both-ways" => {
            // The runner at work inside a process that may have been started with SIGCHLD
            // ignored: a program started directly and one started through the launcher.
            let limits = Limits::helper(Duration::from_secs(20), 1 << 20);
            let no_args: [&str; 0] = [];
            for measure in [Measure::Nothing, Measure::Exact] {
                let setup = Setup {
                    measure,
                    ..Setup::default()
                };
                match as_program("exit-3").run(&no_args, None, &limits, &setup) {
                    Ok(outcome) => println!("{measure:?}: {}", outcome.exit),
                    Err(err) => println!("{measure:?}: error {err}"),
                }
            }
            std::process::exit(0);
        }
        role if role.starts_with("beat=") => {
            let mut heartbeat = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&role["beat=".len()..])
                .unwrap();
            loop {
                let _ = std::io::Write::write_all(&mut heartbeat, b".");
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        role if role.starts_with("start-a-beat-and-loop=") => {
            let heartbeat = &role["start-a-beat-and-loop=".len()..];
            let mut child = std::process::Command::new(std::env::current_exe().unwrap())
                .args(role_args(&format!("beat={heartbeat}")))
                .spawn()
                .unwrap();
            // Busy until the child ends, which it never does by itself.
            while child.try_wait().unwrap().is_none() {}
            std::process::exit(0);
        }
        _ => {}
    }
}

fn role_args(role: &str) -> Vec<OsString> {
    [
        "--exact",
        "--nocapture",
        "--test-threads=1",
        "runner::program",
        role,
    ]
    .map(OsString::from)
    .to_vec()
}

/// This test binary as a program that plays `role`.
fn as_program(role: &str) -> Program {
    crate::support::use_xtask_launcher();
    Program {
        path: std::env::current_exe().unwrap(),
        args: role_args(role),
    }
}

fn run_as(role: &str, time: Duration) -> Outcome {
    let limits = Limits::judged(time, 1 << 20);
    let measured = Setup {
        measure: Measure::Exact,
        ..Setup::default()
    };
    let no_args: [&str; 0] = [];
    (as_program(role))
        .run(&no_args, None, &limits, &measured)
        .unwrap()
}

/// A fresh scratch file path for a heartbeat.
fn heartbeat(test: &str) -> PathBuf {
    crate::support::scratch("runner", test).join("beat")
}

/// How many beats the heartbeat file has had (one byte each).
fn beats(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[test]
fn an_exit_code_is_the_programs_own() {
    let outcome = run_as("exit-3", Duration::from_secs(20));
    assert_eq!(outcome.exit, Exit::Code(3));
}

#[test]
fn a_stdout_left_unread_is_never_capped() {
    let limits = Limits::helper(Duration::from_secs(20), 1 << 20);
    let no_args: [&str; 0] = [];
    let read = as_program("flood")
        .run(&no_args, None, &limits, &Setup::default())
        .unwrap();
    assert_eq!(read.exit, Exit::OutputCapped);
    // A checker's or a validator's: it says what it has to say by its exit and stderr.
    let unread = Setup {
        stdout_unread: true,
        ..Setup::default()
    };
    let outcome = as_program("flood")
        .run(&no_args, None, &limits, &unread)
        .unwrap();
    assert_eq!(outcome.exit, Exit::Code(0));
    assert!(outcome.stdout.is_empty());
}

#[test]
fn an_abort_is_named_by_how_it_ended() {
    // (A null write, which needs `unsafe`, is the `fault` fixture's: tests/data/judge.)
    let outcome = run_as("abort", Duration::from_secs(20));
    let named = outcome.exit.to_string();
    if cfg!(windows) {
        assert_eq!(outcome.exit, Exit::Exception(0xC000_0409));
        assert!(named.starts_with("exception 0xC0000409 (abort"), "{named}");
    } else {
        assert!(matches!(outcome.exit, Exit::Signal(_)), "{named}");
        assert!(named.ends_with("(SIGABRT)"), "{named}");
    }
}

#[test]
fn a_kill_at_the_limit_ends_the_program_and_what_it_started() {
    let beat = heartbeat("kill");
    let role = format!("start-a-beat-and-loop={}", beat.display());
    let start = Instant::now();
    let outcome = run_as(&role, Duration::from_millis(1500));
    assert!(
        matches!(outcome.exit, Exit::TimedOut(_)),
        "{:?}",
        outcome.exit
    );
    assert!(start.elapsed() < Duration::from_secs(10));
    let first = beats(&beat);
    assert!(first > 0, "the started program never ran");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(beats(&beat), first, "what the program started outlived it");
}

#[test]
fn figures_are_the_programs_own_or_none_never_zero() {
    let hog = run_as("hog", Duration::from_secs(20));
    assert_eq!(hog.exit, Exit::Code(0));
    let spin = run_as("spin", Duration::from_secs(20));
    assert_eq!(spin.exit, Exit::Code(0));
    // Linux, macOS and Windows tell both figures; Wine tells neither, and then there is none.
    if let Some(peak) = hog.peak_memory {
        assert!(peak >= 64 << 20, "peak {peak} bytes after touching 64 MiB");
    }
    if let Some(cpu) = spin.cpu_time {
        // However busy the machine (other tests spin too), 300 ms of spinning gets some CPU,
        // and never more than the wall clock saw (one thread).
        let wall = spin.time + Duration::from_millis(20);
        assert!(
            cpu > Duration::from_millis(10) && cpu <= wall,
            "{cpu:?} in {wall:?}"
        );
    }
    assert_ne!(hog.peak_memory, Some(0));
    assert_ne!(spin.cpu_time, Some(Duration::ZERO));
    if cfg!(unix) {
        assert!(hog.peak_memory.is_some() && spin.cpu_time.is_some());
    }
}

/// A runner started with `SIGCHLD` ignored (a parent's choice, kept across `exec`) would have
/// its programs reaped by the kernel, and `wait4` would fail with `ECHILD`; it restores the
/// default first.
#[test]
#[cfg(unix)]
fn a_runner_started_with_sigchld_ignored_still_learns_how_programs_ended() {
    // perl (on Debian and macOS alike) ignores SIGCHLD and execs the runner: a shell's `trap`
    // will not, since shells keep SIGCHLD for their own jobs.
    let program = as_program("run-exit-3-both-ways");
    let Ok(out) = std::process::Command::new("perl")
        .args(["-e", "$SIG{CHLD} = 'IGNORE'; exec @ARGV or die"])
        .arg(&program.path)
        .args(&program.args)
        .output()
    else {
        eprintln!("skipped: no perl to start the runner with SIGCHLD ignored");
        return;
    };
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("Nothing: exit status 3"), "{said}");
    assert!(said.contains("Exact: exit status 3"), "{said}");
}

#[test]
fn a_missing_program_is_the_runners_error() {
    let limits = Limits::helper(Duration::from_secs(5), 1024);
    let no_args: [&str; 0] = [];
    let missing = Program::new("no-such-program-here");
    let err = missing
        .run(&no_args, None, &limits, &Setup::default())
        .unwrap_err();
    assert!(err.to_string().contains("no-such-program-here"), "{err}");
}

/// The exec launcher (`XTASK __xtask_exec FD BYTES PROGRAM ARGS...`), through which macOS
/// starts a program with a stack limit: it sets the limit in its own process and becomes the
/// program, or says on FD why it could not, exiting 127 (here FD is its stderr).
#[test]
#[cfg(unix)]
fn the_exec_launcher_sets_the_stack_and_becomes_the_program_or_says_why_not() {
    let launch = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["__xtask_exec", "2", "8388608"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = launch(&["/bin/sh", "-c", "ulimit -S -s; ulimit -H -s"]);
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = said.lines();
    let (soft, hard) = (lines.next().unwrap(), lines.next().unwrap());
    let expected = match hard.parse::<u64>() {
        Ok(hard) => hard.min(8192).to_string(),
        Err(_) => "8192".to_string(),
    };
    assert_eq!(soft, expected, "{said}");
    // The program's own exit status, 127 included, is its own.
    let out = launch(&["/bin/sh", "-c", "exit 127"]);
    assert_eq!(out.status.code(), Some(127));
    assert!(out.stderr.is_empty(), "{out:?}");
    let out = launch(&["no-such-program-here", "x"]);
    assert_eq!(out.status.code(), Some(127));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.starts_with("cannot run no-such-program-here: "),
        "{said}"
    );
}

/// The workspace denies `unsafe_code`; only the runner's seam over the operating system may
/// allow it, one module per system. A new `allow` anywhere else fails here.
#[test]
fn the_only_unsafe_code_is_the_runners_seam() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let seam = ["linux/mod.rs", "unix.rs", "windows.rs"]
        .map(|file| Path::new("xtask/src/run/process").join(file));
    let mut allowing = Vec::new();
    for folder in [
        "crates",
        "problems",
        "xtask/src",
        "xtask/tests/it",
        "fuzz/fuzz_targets",
    ] {
        let files = walkdir::WalkDir::new(root.join(folder))
            .into_iter()
            .filter_entry(|e| e.file_name() != "target")
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "rs"));
        for file in files {
            let text = std::fs::read_to_string(file.path()).unwrap();
            let needle = ["allow", "(unsafe_code)"].concat();
            if text.contains(&needle) {
                allowing.push(file.path().strip_prefix(&root).unwrap().to_path_buf());
            }
        }
    }
    allowing.sort();
    assert_eq!(allowing, seam, "only the seam may allow unsafe code");
    // The one other place that calls the system unchecked is not the xtask's code but the
    // coverage runtime it compiles into an instrumented solution (never a module: `#![no_std]`
    // inside one is refused): these two files, and nothing else beside them.
    let runtime = root.join("xtask/src/hunt/coverage/runtime");
    let mut files: Vec<String> = std::fs::read_dir(&runtime)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["unix.rs", "windows.rs"]);
    for file in files {
        let text = std::fs::read_to_string(runtime.join(&file)).unwrap();
        assert!(text.contains("\n#![no_std]\n"), "{file}");
    }
}
