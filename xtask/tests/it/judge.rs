//! `cargo xtask test` and the judge library: verdicts, rendered reports (insta snapshots, with
//! times and memory figures filtered out) and exit codes, on the fixture problems in
//! `tests/data/judge/` (a wrong, a crashing, a looping and a flooding solver, and a checker).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;
use std::time::Duration;

use xtask::judge::{self, Detail, JudgeOptions, ProblemReport, Verdict};
use xtask::report::Style;
use xtask::run::{Exit, Limits, Program, Setup};
use xtask::workspace::build::{self, BuildOptions, Executables};
use xtask::workspace::problem::Problem;

const FIXTURES: [&str; 8] = [
    "echo", "crash", "loop", "flood", "sorted", "fault", "spawn", "lines",
];

/// The small output cap the flood fixture is judged with.
const CAP: u64 = 64 * 1024;

fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/judge")
        .join(name)
}

/// Where fixtures are built: never the outer cargo's own target dir, whose lock it holds.
fn fixture_target_dir() -> PathBuf {
    crate::support::target_dir("judge-fixtures")
}

/// Every fixture problem and its executables, built once (one cargo run) for all tests.
fn fixtures() -> &'static HashMap<&'static str, (Problem, Executables)> {
    static BUILT: OnceLock<HashMap<&'static str, (Problem, Executables)>> = OnceLock::new();
    BUILT.get_or_init(|| {
        crate::support::use_xtask_launcher();
        let problems: Vec<Problem> = FIXTURES
            .iter()
            .map(|name| Problem::load(&fixture_dir(name)).unwrap())
            .collect();
        let options = BuildOptions {
            target_dir: Some(fixture_target_dir()),
            quiet: true,
            ..BuildOptions::default()
        };
        let executables = build::build(&problems, &options).unwrap();
        FIXTURES
            .into_iter()
            .zip(problems.into_iter().zip(executables))
            .collect()
    })
}

fn judge_fixture(name: &str) -> ProblemReport {
    let (problem, exe) = &fixtures()[name];
    let options = JudgeOptions {
        checker: exe.checker.clone(),
        output_cap: Some(CAP),
        ..JudgeOptions::default()
    };
    judge::run_samples(problem, &Program::new(&exe.solver), &options).unwrap()
}

fn verdicts(report: &ProblemReport) -> Vec<(&str, Verdict)> {
    report
        .cases
        .iter()
        .map(|c| (c.name.as_str(), c.verdict))
        .collect()
}

/// Snapshots a rendered report with times and memory figures filtered out.
fn assert_report_snapshot(name: &str, rendered: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(
        r"(AC|WA|PE|RE|TLE|OLE|MLE|JE) +\d+ ms (CPU|wall) +(\d+\.\d MB|—)",
        "$1 [time] [memory]",
    );
    settings.add_filter(
        r"slowest \S+ \(\d+ ms (CPU|wall)\)",
        "slowest [case] ([time])",
    );
    settings.add_filter(r"peak memory \d+\.\d MB", "peak memory [memory]");
    settings.bind(|| insta::assert_snapshot!(name, rendered));
}

#[test]
fn exact_judge_gives_ac_wa_and_pe_by_boj_whitespace_rules() {
    let report = judge_fixture("echo");
    // Samples run in natural order; 1 has trailing spaces, a tab and blank lines in its answer,
    // 10 has a CRLF in its input (fed as LF): both AC. 3 differs by one digit, 4 by an inner
    // space.
    assert_eq!(
        verdicts(&report),
        [
            ("1", Verdict::Ac),
            ("2", Verdict::Ac),
            ("3", Verdict::Wa),
            ("4", Verdict::Pe),
            ("10", Verdict::Ac)
        ]
    );
    assert!(!report.all_accepted());
    assert_report_snapshot("echo_ac_wa_pe", &report.render(&Style::plain()));
}

#[test]
fn wa_diff_highlights_the_changed_digit() {
    let report = judge_fixture("echo");
    let plain = report.render(&Style::plain());
    // The caret sits under the one digit that differs, in both rows.
    assert!(
        plain.contains("    -2 572139460\n               ^\n    +2 572139468\n               ^\n")
    );
    let colored = report.render(&Style {
        color: true,
        ..Style::plain()
    });
    assert!(colored.contains("57213946\x1b[7m0\x1b[27m"), "{colored:?}");
    assert!(colored.contains("57213946\x1b[7m8\x1b[27m"), "{colored:?}");
    assert!(!plain.contains('\x1b'));
}

#[test]
fn crashes_are_re_with_status_and_stderr_and_a_memory_hog_is_mle() {
    let report = judge_fixture("crash");
    assert_eq!(
        verdicts(&report),
        [("1", Verdict::Re), ("2", Verdict::Re), ("3", Verdict::Mle)]
    );
    match &report.cases[0].detail {
        Detail::Crash { exit, stderr_tail } => {
            assert_eq!(*exit, Exit::Code(3));
            assert!(stderr_tail.contains("crash: no digit"));
        }
        other => panic!("expected a crash detail, got {other:?}"),
    }
    // Over its 32 MB limit, which is what the verdict rests on; not necessarily all of its 64
    // MiB: the runner's guard stops it as its resident memory passes the limit and the guard's
    // 32 MB of slack, which can be before its last pages are touched (CI once read a peak of
    // 64.0 MB, just under 64 MiB).
    let peak = report.cases[2].peak_memory.unwrap();
    assert!(peak > 32 << 20, "peak {peak}");
    assert_report_snapshot("crash_re_mle", &report.render(&Style::plain()));
}

#[test]
fn a_looping_solver_is_tle_at_its_limit_and_later_cases_still_run() {
    let report = judge_fixture("loop");
    assert_eq!(verdicts(&report), [("1", Verdict::Tle), ("2", Verdict::Ac)]);
    // Killed when its CPU time reached the limit (a loop uses nothing else): the figure the
    // verdict names is that CPU time, and the wall clock never runs past the outer bound, however busy
    // the machine.
    let limit = Duration::from_millis(200);
    let case = &report.cases[0];
    assert_eq!(
        case.detail,
        Detail::Overtime {
            killed: Some(xtask::run::TimeUp::Cpu)
        }
    );
    let (cpu, clock) = case.judged_time();
    assert_eq!(clock, xtask::run::Clock::Cpu);
    assert!(cpu >= limit && cpu < limit * 2, "{cpu:?}");
    assert!(case.time < xtask::run::outer_bound(limit) + Duration::from_secs(1));
    assert_report_snapshot("loop_tle", &report.render(&Style::plain()));
}

#[test]
fn a_null_write_and_a_panic_are_re_named_by_how_they_ended() {
    let report = judge_fixture("fault");
    assert_eq!(verdicts(&report), [("1", Verdict::Re), ("2", Verdict::Re)]);
    let crash = |i: usize| match &report.cases[i].detail {
        Detail::Crash { exit, stderr_tail } => (*exit, stderr_tail.clone()),
        other => panic!("expected a crash detail, got {other:?}"),
    };
    let (null, _) = crash(0);
    let named = null.to_string();
    if cfg!(windows) {
        assert_eq!(null, Exit::Exception(0xC000_0005));
        assert!(named.contains("access violation"), "{named}");
    } else {
        assert!(matches!(null, Exit::Signal(_)), "{null:?}");
        assert!(named.contains("SIGSEGV"), "{named}");
    }
    let (panic, stderr) = crash(1);
    assert_eq!(panic, Exit::Code(101));
    assert!(stderr.contains("a panic on purpose"), "{stderr}");
}

#[test]
fn a_looping_solution_that_started_a_child_is_tle_and_neither_outlives_it() {
    fixtures();
    let heartbeat = crate::support::scratch("judge", "heartbeat").join("beat");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["test", "--color", "never"])
        .arg(fixture_dir("spawn"))
        .env("CARGO_TARGET_DIR", fixture_target_dir())
        .env("XTASK_FIXTURE_HEARTBEAT", &heartbeat)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("1  TLE"), "{stdout}");
    let beats = || std::fs::metadata(&heartbeat).map_or(0, |m| m.len());
    let first = beats();
    assert!(first > 0, "the child never ran");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(beats(), first, "the child still runs after the TLE");
}

#[test]
fn a_crlf_input_is_fed_with_lf_as_bojs_data_is() {
    // Fed as it is on disk, the sample breaks a solution that splits on `\n` only...
    let (problem, exe) = &fixtures()["lines"];
    let input = problem.dir.join("samples/1.in");
    assert!(std::fs::read(&input).unwrap().starts_with(b"1\r\n"));
    let limits = Limits::helper(Duration::from_secs(10), 1024);
    let no_args: [&str; 0] = [];
    let solver = Program::new(&exe.solver);
    let raw = solver
        .run(&no_args, Some(&input), &limits, &Setup::default())
        .unwrap();
    assert_eq!(
        raw.exit,
        Exit::Code(101),
        "the fixture no longer minds a \\r"
    );
    // ...and the judge feeds it with LF, as BOJ's data has.
    let report = judge_fixture("lines");
    assert_eq!(verdicts(&report), [("1", Verdict::Ac)]);
}

#[test]
fn a_flooding_solver_is_ole_at_the_cap() {
    let report = judge_fixture("flood");
    assert_eq!(verdicts(&report), [("1", Verdict::Ole), ("2", Verdict::Ac)]);
    assert_report_snapshot("flood_ole", &report.render(&Style::plain()));
}

#[test]
fn the_runner_keeps_no_more_than_the_cap_of_a_flood() {
    let (problem, exe) = &fixtures()["flood"];
    let input = problem.dir.join("samples/1.in");
    let cap = 1024 * 1024;
    let limits = Limits::helper(Duration::from_secs(10), cap);
    let no_args: [&str; 0] = [];
    let outcome = (Program::new(&exe.solver))
        .run(&no_args, Some(&input), &limits, &Setup::default())
        .unwrap();
    assert_eq!(outcome.exit, Exit::OutputCapped);
    assert_eq!(outcome.stdout.len() as u64, cap);
    assert!(outcome.stdout.capacity() as u64 <= cap);
    assert!(outcome.time < Duration::from_secs(5));
}

#[test]
fn a_checker_judges_not_the_text() {
    // Sample 2's answer is spaced, the solver prints one number a line: the checker accepts
    // (having written 2 MiB to its stdout, which goes unread).
    let report = judge_fixture("sorted");
    assert_eq!(verdicts(&report), [("1", Verdict::Ac), ("2", Verdict::Ac)]);
    assert_report_snapshot("sorted_checker_ac", &report.render(&Style::plain()));
}

#[test]
fn a_checker_rejection_is_wa_with_its_message() {
    // Any executable can be judged: here the echo solver on the sorted problem.
    let (problem, exe) = &fixtures()["sorted"];
    let echo = &fixtures()["echo"].1.solver;
    let options = JudgeOptions {
        checker: exe.checker.clone(),
        ..JudgeOptions::default()
    };
    let report = judge::run_samples(problem, &Program::new(echo), &options).unwrap();
    assert_eq!(verdicts(&report), [("1", Verdict::Wa), ("2", Verdict::Wa)]);
    assert_report_snapshot("sorted_checker_wa", &report.render(&Style::plain()));
}

#[test]
fn a_failing_checker_is_a_judge_error_not_a_verdict() {
    // The crash fixture as a "checker": it exits 3 on its empty stdin.
    let (problem, exe) = &fixtures()["sorted"];
    let options = JudgeOptions {
        checker: Some(fixtures()["crash"].1.solver.clone()),
        ..JudgeOptions::default()
    };
    let report = judge::run_samples(problem, &Program::new(&exe.solver), &options).unwrap();
    assert_eq!(verdicts(&report), [("1", Verdict::Je), ("2", Verdict::Je)]);
    assert!(report.judge_failed());
}

#[test]
fn a_checker_problem_without_a_checker_is_an_error() {
    let (problem, exe) = &fixtures()["sorted"];
    let solver = Program::new(&exe.solver);
    let err = judge::run_samples(problem, &solver, &JudgeOptions::default()).unwrap_err();
    assert!(err.to_string().contains("no checker executable"), "{err}");
}

fn xtask_test(args: &[&str]) -> Output {
    fixtures(); // built already: the command's own build is then a quick no-op
    let mut all = vec!["test"];
    all.extend_from_slice(args);
    crate::support::run_xtask("judge-fixtures", &all)
}

#[test]
fn cli_exits_0_when_all_ac_1_when_not_and_2_when_it_cannot_run() {
    let sorted = fixture_dir("sorted");
    let out = xtask_test(&[sorted.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("fixture-sorted: 2/2 AC"), "{stdout}");
    assert!(!stdout.contains('\x1b'), "not a terminal: no colour");

    let echo = fixture_dir("echo");
    let out = xtask_test(&[
        "--color",
        "always",
        echo.to_str().unwrap(),
        sorted.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("\x1b[1;31m3/5 AC\x1b[0m"), "{stdout:?}");
    assert!(stdout.contains("total: "), "{stdout}");

    let out = xtask_test(&["no/such/problem"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no problem folder"));

    let out = xtask_test(&["--color", "sometimes"]);
    assert_eq!(out.status.code(), Some(2), "bad arguments");
}

/// `python3` when it runs here; `None` (the test skips, saying so) when it does not.
fn python3() -> Option<&'static str> {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !found {
        eprintln!("skipped: no python3 on PATH");
    }
    found.then_some("python3")
}

#[test]
fn a_command_in_any_language_is_judged_like_a_build() {
    let Some(python) = python3() else { return };
    // The scripts sit in a folder whose name has a space: the command line quotes it, as a
    // shell would, and no shell runs it.
    let folder = crate::support::scratch("judge", "command").join("my solutions");
    std::fs::create_dir_all(&folder).unwrap();
    for script in ["right.py", "wrong.py"] {
        std::fs::copy(
            fixture_dir("lines").join("python").join(script),
            folder.join(script),
        )
        .unwrap();
    }
    let lines = fixture_dir("lines");
    let judged = |script: &str| {
        let command = format!("{python} '{}'", folder.join(script).display());
        xtask_test(&[lines.to_str().unwrap(), "--command", &command])
    };

    let out = judged("right.py");
    let stdout = crate::support::assert_success_saying(&out, "fixture-lines: 1/1 AC");
    assert!(stdout.contains("judging `python3 "), "{stdout}");

    let out = judged("wrong.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("1  WA"), "{stdout}");
    assert!(
        stdout.contains("+1 43"),
        "the diff shows the wrong sum: {stdout}"
    );
    // The debugger would open cargo's build, not the program judged: no such hint.
    assert!(stdout.contains("sample 1 WA"), "{stdout}");
    assert!(!stdout.contains("step through it"), "{stdout}");

    // A command that cannot be split, or runs nothing, is the tool's error.
    let out = xtask_test(&[lines.to_str().unwrap(), "--command", "python3 'unclosed"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unclosed quote"));
}

/// A command whose program does not exist is the tool's error (exit 2, naming it), never a
/// verdict: on macOS the solution starts through the exec launcher (it sets the stack limit
/// and `exec`s), which says why it could not rather than exiting 127 as a program that failed;
/// on Windows the program is searched as std does (not in the runner's or the current folder).
/// CI runs this on real macOS and Windows machines (.github/workflows/ci.yml).
#[test]
fn a_missing_program_in_a_command_is_the_tools_error() {
    let lines = fixture_dir("lines");
    for command in ["no-such-interpreter x.py", "./no-such-folder/sol"] {
        let out = xtask_test(&[lines.to_str().unwrap(), "--command", command]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        let program = command.split(' ').next().unwrap();
        assert!(stderr.contains(program), "{stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("  RE"));
    }
}

/// `--command` runs cargo only for what the judge needs: nothing for an exact problem (here
/// cargo is a program that does not exist, and the run is AC all the same), the checker alone
/// for a checker problem (cargo is a script that notes its arguments, then runs cargo).
#[test]
#[cfg(unix)]
fn a_command_calls_cargo_only_for_the_helpers_the_judge_needs() {
    let (_, lines) = &fixtures()["lines"];
    let (_, sorted) = &fixtures()["sorted"];
    let scratch = crate::support::scratch("judge", "command-cargo");
    let run = |problem: &str, solver: &Path, cargo: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["test", problem, "--command"])
            .arg(solver)
            .env("CARGO", cargo)
            .env(
                "CARGO_TARGET_DIR",
                crate::support::target_dir("judge-fixtures"),
            )
            .output()
            .unwrap()
    };
    let out = run(
        fixture_dir("lines").to_str().unwrap(),
        &lines.solver,
        &scratch.join("no-such-cargo"),
    );
    crate::support::assert_success_saying(&out, "fixture-lines: 1/1 AC");

    let log = scratch.join("cargo.log");
    let cargo = scratch.join("cargo");
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec '{real}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&cargo).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&cargo, permissions).unwrap();
    let out = run(
        fixture_dir("sorted").to_str().unwrap(),
        &sorted.solver,
        &cargo,
    );
    crate::support::assert_success_saying(&out, "fixture-sorted: 2/2 AC");
    let called = std::fs::read_to_string(&log).unwrap();
    assert_eq!(called.lines().count(), 1, "{called}");
    assert!(called.contains("--bin fixture-sorted-checker"), "{called}");
    assert!(!called.contains("--bins"), "{called}");
}

#[test]
fn prebuilt_executables_are_judged_and_a_missing_one_is_the_tools_error() {
    let (_, sorted) = &fixtures()["sorted"];
    let dir = crate::support::scratch("judge", "prebuilt");
    let copy = |from: &Path, name: &str| {
        let to = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        std::fs::copy(from, to).unwrap();
    };
    copy(&sorted.solver, "fixture-sorted");
    let problem = fixture_dir("sorted");
    let problem = problem.to_str().unwrap();
    let prebuilt = dir.to_str().unwrap();

    let out = xtask_test(&[problem, "--prebuilt", prebuilt]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no fixture-sorted-checker (or fixture-sorted-checker.exe) in "),
        "{stderr}"
    );

    copy(sorted.checker.as_ref().unwrap(), "fixture-sorted-checker");
    let out = xtask_test(&[problem, "--prebuilt", prebuilt]);
    crate::support::assert_success_saying(&out, "fixture-sorted: 2/2 AC");

    // `bundle --check` takes the checker from the folder too: here a "checker" that fails,
    // so the run is JE, which only the folder's could make it.
    copy(&fixtures()["crash"].1.solver, "fixture-sorted-checker");
    let out = crate::support::run_xtask(
        "judge-fixtures",
        &["bundle", problem, "--check", "--prebuilt", prebuilt],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("JE"));
}
