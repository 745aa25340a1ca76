//! The interactive judge on a guessing game (`tests/data/interactive/`): binary search is AC,
//! directly and bundled; a linear search (too many questions) and an answer off by one are WA
//! with the interactor's reason and the transcript; a solution that never flushes is TLE at the
//! cap on waiting (waiting uses no CPU time) with both processes gone; a failing interactor is JE (exit 2). Then the scaffold, a
//! payload that says "interactive", and stress on an interactive problem.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use crate::support::{
    self, assert_success_saying, edit, listing, processes_under, run_xtask, scratch, target_dir,
    text, write_minimal_workspace,
};

/// A fresh copy of the fixture workspace for one test.
fn fixture_copy(test: &str) -> PathBuf {
    support::fixture_copy("interactive", test)
}

/// Runs the real xtask binary; each test builds into a target folder of its own.
fn xtask(test: &str, args: &[&str]) -> Output {
    run_xtask(&format!("interactive-{test}-target"), args)
}

#[test]
fn binary_search_is_ac_and_the_wrong_ones_are_wa_with_the_transcript() {
    let workspace = fixture_copy("verdicts");
    let problem = |name: &str| workspace.join(name).to_str().unwrap().to_string();

    let out = xtask(
        "verdicts",
        &["test", &problem("binary"), "--color", "never"],
    );
    let stdout = assert_success_saying(&out, "fixture-guess-binary: 3/3 AC");
    assert!(
        stdout.contains("3 samples · interactive judge · 1000 ms"),
        "{stdout}"
    );

    let out = xtask(
        "verdicts",
        &["test", &problem("linear"), "--color", "never"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("  1  WA"), "{stdout}");
    assert!(
        stdout.contains("| too many questions: 25 at most"),
        "{stdout}"
    );
    assert!(stdout.contains("transcript (last 40 of 52 lines; > solution, < interactor):"));
    assert!(stdout.contains("    > ? 26\n"), "{stdout}");
    // The secret 1 of sample 3 is found by the first question: AC.
    assert!(stdout.contains("  3  AC"), "{stdout}");

    let out = xtask(
        "verdicts",
        &["test", &problem("off-by-one"), "--color", "never"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("fixture-guess-off-by-one: 0/3 AC"),
        "{stdout}"
    );
    assert!(
        stdout.contains("| wrong answer 2: the secret is 1"),
        "{stdout}"
    );
    // The transcript is in causal order: the answer `=` comes before the guess it prompted.
    assert!(
        stdout.contains(
            "    < 7\n    > ? 4\n    < <\n    > ? 2\n    < <\n    > ? 1\n    < =\n    > ! 2\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("wrong answer: the interactor rejected it (exit status 1):\n"),
        "{stdout}"
    );

    // The same solution ending with an error after its answer: still WA (the interactor
    // rejected it first), with how the solution ended beside the reason.
    crate::support::edit(
        &workspace.join("off-by-one/src/main.rs"),
        "binary_search::play(1);",
        "binary_search::play(1);\n    std::process::exit(3);",
    );
    let out = xtask(
        "verdicts",
        &["test", &problem("off-by-one"), "--color", "never"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "wrong answer: the interactor rejected it (exit status 1); the solution ended with \
             exit status 3:\n"
        ),
        "{stdout}"
    );
}

#[test]
fn a_solution_that_panics_after_its_wrong_answer_shows_its_panic() {
    // The interactor rejects the answer first (WA), and the solution then panics: the report
    // said "the solution ended with exit status 101" and nothing of its panic, neither its
    // message nor where (the checked build's rerun, which panics the same way, adds nothing).
    let workspace = fixture_copy("panics");
    edit(
        &workspace.join("off-by-one/src/main.rs"),
        "binary_search::play(1);",
        "binary_search::play(1);\n    panic!(\"gave up after answering\");",
    );
    let problem = workspace.join("off-by-one");
    let out = xtask(
        "panics",
        &["test", problem.to_str().unwrap(), "--color", "never"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "wrong answer: the interactor rejected it (exit status 1); the solution ended with \
             exit status 101:\n    | wrong answer"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("    the solution's stderr:\n"), "{stdout}");
    assert!(
        stdout.contains("    | gave up after answering\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("/src/main.rs:8:5: sample 1 WA (gave up after answering)\n"),
        "{stdout}"
    );
}

#[test]
fn a_solution_that_never_flushes_is_tle_at_the_wall_clock_cap_and_nothing_is_left_running() {
    let workspace = fixture_copy("no-flush");
    let problem = workspace.join("no-flush");
    // Build first, so the timing below is the judging alone (a build on a busy machine takes
    // seconds).
    build_first(
        &workspace,
        "fixture-guess-no-flush",
        "interactive-no-flush-target",
    );
    let started = Instant::now();
    let out = xtask(
        "no-flush",
        &["test", problem.to_str().unwrap(), "--color", "never"],
    );
    let took = started.elapsed();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert_eq!(stdout.matches(" TLE ").count(), 3, "{stdout}");
    assert!(
        stdout.contains("must flush what it wrote first"),
        "{stdout}"
    );
    // Waiting uses no CPU time: each case ends at the cap on waiting, 2 × 250 ms + 1 s (kept
    // on the wall clock where the system tells no runnable time).
    let capped = if xtask::run::process::tells_runnable_time() {
        "killed after 1500 ms spent waiting"
    } else {
        "killed at the wall-clock cap of 1500 ms"
    };
    assert_eq!(stdout.matches(capped).count(), 3, "{stdout}");
    // Three cases of 1.5 s each, plus a generous allowance for everything else (a bound on a
    // hang, not a speed test).
    assert!(took < Duration::from_millis(3 * 1500 + 5000), "{took:?}");
    let target = target_dir("interactive-no-flush-target");
    assert_eq!(processes_under(&target), Vec::<String>::new());
}

/// Builds `package` of the fixture copy `workspace` (the solution and the interactor) as `cargo
/// xtask test` does, into the test's target folder, so that what is timed next is the judging
/// alone.
fn build_first(workspace: &Path, package: &str, target: &str) {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "build",
            "--profile",
            "judge",
            "--bins",
            "--package",
            package,
        ])
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir(target))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// Judges the echo game (`tests/data/interactive/echo`) with `cargo xtask test`, pinned to the
/// CPU `cpu` when given, and returns its report.
#[cfg(unix)]
fn judge_echo(test: &str, echo: &Path, cpu: Option<usize>) -> String {
    let xtask = env!("CARGO_BIN_EXE_xtask");
    let mut command = match cpu {
        Some(cpu) => {
            let mut taskset = std::process::Command::new("taskset");
            taskset.args(["-c", &cpu.to_string(), xtask]);
            taskset
        }
        None => std::process::Command::new(xtask),
    };
    let out = command
        .args(["test", echo.to_str().unwrap(), "--color", "never"])
        .env(
            "CARGO_TARGET_DIR",
            target_dir(&format!("interactive-{test}-target")),
        )
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    eprint!("{stdout}");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{stdout}{}",
        text(&out.stderr)
    );
    stdout
}

/// A solution blocked on an interactor that computes, on a busy machine, is not waiting by
/// itself: the time its interactor (and the runner's relays) were runnable is not its waiting.
/// Everything runs on one CPU beside 8 spinning processes, so the interactor's 300 ms of CPU
/// time take at least 9 × that on the wall clock, past the cap on waiting (2 × 250 ms + 1 s),
/// while the solution's own CPU time is a few milliseconds. Counting only its own runnable
/// time, it was TLE "after 1500 ms spent waiting" every time; now it is AC, or on a machine so
/// busy that the interaction outlasts the outer bound (20 × the limit), TLE there, never for
/// waiting. One CPU is held for a few seconds; the other is left to the rest of the suite.
#[test]
#[cfg(target_os = "linux")]
fn a_solution_waiting_on_a_starved_interactor_is_not_itself_waiting() {
    let Some(cpu) = support::cpu_to_pin() else {
        return;
    };
    let workspace = fixture_copy("starved");
    let echo = workspace.join("echo");
    edit(
        &echo.join("Cargo.toml"),
        "time-limit-ms = 2000",
        "time-limit-ms = 250",
    );
    fs::write(echo.join("samples/1.in"), "3 100000\n").unwrap();
    build_first(&workspace, "fixture-echo", "interactive-starved-target");
    let _spinning = support::SpinningProcesses::start(8, Some(cpu));
    let stdout = judge_echo("starved", &echo, Some(cpu));
    assert!(!stdout.contains("spent waiting"), "{stdout}");
    assert!(
        stdout.contains("fixture-echo: 1/1 AC")
            || stdout.contains("killed at the outer bound of 5000 ms"),
        "{stdout}"
    );
}

/// The demonstration behind docs/limits.md and docs/benchmarks.md ("A busy machine"), run by
/// hand (`cargo test -p xtask --test it -- --ignored --nocapture --test-threads=1 sixteen`):
/// 600 round trips with an interactor that computes for 0.5 ms before each answer (the
/// solution's own CPU time a few milliseconds), under a 2000 ms limit, judged three times with
/// 16 processes spinning beside the judge: AC 3/3. Ignored in the suite: it holds both cores
/// for a minute.
#[test]
#[ignore]
#[cfg(unix)]
fn sixteen_spinning_processes_do_not_fail_a_solution_waiting_on_its_interactor() {
    let workspace = fixture_copy("sixteen");
    let echo = workspace.join("echo");
    build_first(&workspace, "fixture-echo", "interactive-sixteen-target");
    let _spinning = support::SpinningProcesses::start(16, None);
    for round in 1..=3 {
        let started = Instant::now();
        let stdout = judge_echo("sixteen", &echo, None);
        eprintln!("round {round}: {:?} wall", started.elapsed());
        assert!(stdout.contains("fixture-echo: 1/1 AC"), "{stdout}");
    }
}

#[test]
fn binary_search_is_ac_through_its_bundle_too() {
    let workspace = fixture_copy("bundled");
    let problem = workspace.join("binary");
    let out = xtask(
        "bundled",
        &[
            "test",
            "--bundled",
            problem.to_str().unwrap(),
            "--color",
            "never",
        ],
    );
    assert_success_saying(&out, "fixture-guess-binary: 3/3 AC");
    let bundle = fs::read_to_string(
        target_dir("interactive-bundled-target").join("bundle/fixture-guess-binary.rs"),
    )
    .unwrap();
    assert!(
        !bundle.contains("too many questions"),
        "the interactor is never bundled"
    );
}

#[test]
fn a_failing_interactor_is_a_judge_error_and_exits_2() {
    let workspace = fixture_copy("judge-error");
    edit(
        &workspace.join("common/guess-interactor.rs"),
        "    let path = std::env::args()",
        "    std::process::exit(3);\n    #[allow(unreachable_code)]\n    let path = std::env::args()",
    );
    let problem = workspace.join("binary");
    let out = xtask(
        "judge-error",
        &["test", problem.to_str().unwrap(), "--color", "never"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("  1  JE"), "{stdout}");
    assert!(
        stdout.contains("the interactor itself failed (exit status 3)"),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).contains("an interactor failed"),
        "{}",
        text(&out.stderr)
    );

    // Without `interactor`, the manifest is refused by name.
    edit(
        &problem.join("Cargo.toml"),
        "interactor = \"fixture-guess-binary-interactor\"\n",
        "",
    );
    let out = xtask("judge-error", &["test", problem.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("binary/Cargo.toml"), "{stderr}");
    assert!(
        stderr.contains("judge = \"interactive\" needs `interactor"),
        "{stderr}"
    );
}

#[test]
fn stress_feeds_the_generators_input_to_the_interactor_and_saves_an_empty_answer() {
    let workspace = fixture_copy("stress");
    let problem = workspace.join("linear");
    let out = xtask(
        "stress",
        &[
            "stress",
            problem.to_str().unwrap(),
            "--cases",
            "60",
            "--seed",
            "3",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("too many questions"), "{stdout}");
    assert!(
        stdout.contains("(empty: the interactor judges)"),
        "{stdout}"
    );
    let saved: Vec<String> = listing(&problem.join("samples"))
        .into_iter()
        .filter(|n| n.starts_with("stress-"))
        .collect();
    assert_eq!(saved.len(), 2, "{saved:?}");
    let answer = problem.join("samples").join(&saved[1]);
    assert_eq!(fs::read(answer).unwrap(), b"");
    // Shrunk: the smallest N (10 × SIZE) that linear search can fail on is 30.
    let input = fs::read_to_string(problem.join("samples").join(&saved[0])).unwrap();
    let n: u64 = input.split_whitespace().next().unwrap().parse().unwrap();
    assert!(n >= 30, "{input}");
    let out = xtask(
        "stress",
        &["test", problem.to_str().unwrap(), "--color", "never"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains(&format!("{}  WA", saved[0].trim_end_matches(".in"))));
}

/// `new --judge interactive` (here over a BOJ payload, which never says "interactive"): the
/// templates build, and `cargo xtask test` fails honestly, WA on every sample, within the time
/// limit, until the user writes the interactor and the solution.
#[test]
fn a_scaffolded_interactive_problem_is_judged_wa_until_it_is_written() {
    let root = scratch("interactive", "scaffold");
    write_minimal_workspace(&root);
    let root_arg = root.to_str().unwrap();
    let payload = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/companion/boj-1000.json");
    let out = xtask(
        "scaffold",
        &[
            "new",
            "1000",
            "--from",
            payload.to_str().unwrap(),
            "--root",
            root_arg,
            "--judge",
            "interactive",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let dir = root.join("problems/boj-1000");
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("judge = \"interactive\"\n"), "{manifest}");
    assert!(
        manifest.contains("interactor = \"boj-1000-interactor\"\n"),
        "{manifest}"
    );
    assert!(dir.join("src/bin/boj-1000-interactor.rs").is_file());
    let main = fs::read_to_string(dir.join("src/main.rs")).unwrap();
    assert!(main.contains("out.flush()"), "{main}");

    let started = Instant::now();
    let out = xtask(
        "scaffold",
        &["test", "--root", root_arg, "1000", "--color", "never"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert_eq!(stdout.matches("  WA  ").count(), 2, "{stdout}");
    assert!(
        stdout.contains("| template interactor: write the real one"),
        "{stdout}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "built and judged, no hang"
    );

    // A payload that does say "interactive" is scaffolded the same way without the flag.
    let text_payload = fs::read_to_string(&payload).unwrap();
    let said = root.join("interactive.json");
    fs::write(
        &said,
        text_payload
            .replace("\"interactive\": false", "\"interactive\": true")
            .replace("problem/1000", "problem/1001"),
    )
    .unwrap();
    let out = xtask(
        "scaffold",
        &[
            "new",
            "1001",
            "--from",
            said.to_str().unwrap(),
            "--root",
            root_arg,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let manifest = fs::read_to_string(root.join("problems/boj-1001/Cargo.toml")).unwrap();
    assert!(manifest.contains("judge = \"interactive\"\n"), "{manifest}");
}
