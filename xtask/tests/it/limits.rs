//! BOJ's limits, exactly (docs/limits.md), on the fixtures in `tests/data/limits/`: a recursive
//! tree DP a million deep is AC with the stack BOJ gives (built by cargo and bundled) and RE
//! "stack overflow" under `stack-limit-mb = 8`; a solution that burns 60% of its time limit in
//! CPU stays AC while the machine is kept busy; one that sleeps is TLE, ended at the wall-clock
//! cap.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crate::support::{assert_success_saying, edit, fixture_copy, run_xtask, text};
use xtask::build::{self, BuildOptions, Executables};
use xtask::judge::{self, Detail, JudgeOptions, Verdict};
use xtask::problem::Problem;
use xtask::run::{Clock, Program};

const TARGET: &str = "limits-fixtures";

fn fixture_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/limits")
        .join(name)
}

/// Every fixture problem and its executables, built once for all tests.
fn built(name: &str) -> &'static (Problem, Executables) {
    static BUILT: OnceLock<Vec<(String, (Problem, Executables))>> = OnceLock::new();
    let all = BUILT.get_or_init(|| {
        crate::support::use_xtask_launcher();
        let names = ["deep", "spin", "sleep"];
        let problems: Vec<Problem> = names
            .iter()
            .map(|n| Problem::load(&fixture_dir(n)).unwrap())
            .collect();
        let options = BuildOptions {
            target_dir: Some(crate::support::target_dir(TARGET)),
            quiet: true,
            ..BuildOptions::default()
        };
        let executables = build::build(&problems, &options).unwrap();
        names
            .iter()
            .map(|n| n.to_string())
            .zip(problems.into_iter().zip(executables))
            .collect()
    });
    &all.iter().find(|(n, _)| n == name).unwrap().1
}

fn judged(name: &str) -> judge::ProblemReport {
    let (problem, exe) = built(name);
    judge::run_samples(
        problem,
        &Program::new(&exe.solver),
        &JudgeOptions::default(),
    )
    .unwrap()
}

#[test]
fn a_recursion_a_million_deep_is_ac_with_the_stack_boj_gives() {
    built("deep");
    let deep = fixture_dir("deep");
    let out = run_xtask(TARGET, &["test", deep.to_str().unwrap()]);
    let stdout = assert_success_saying(&out, "fixture-deep: 1/1 AC");
    assert!(stdout.contains("2000 ms CPU · 256 MB\n"), "{stdout}");

    let out = run_xtask(TARGET, &["test", deep.to_str().unwrap(), "--bundled"]);
    assert_success_saying(&out, "fixture-deep: 1/1 AC");
}

#[test]
fn the_same_recursion_under_an_8_mb_stack_is_re_saying_stack_overflow() {
    built("deep");
    let workspace = fixture_copy("limits", "small-stack");
    let manifest = workspace.join("deep/Cargo.toml");
    edit(
        &manifest,
        "memory-limit-mb = 256\n",
        "memory-limit-mb = 256\nstack-limit-mb = 8\n",
    );
    let deep = workspace.join("deep");
    let out = run_xtask(TARGET, &["test", deep.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("· stack 8 MB\n"), "{stdout}");
    assert!(stdout.contains("1  RE"), "{stdout}");
    assert!(
        stdout.contains("a stack overflow, past the stack of 8 MB"),
        "{stdout}"
    );
}

/// Spins every core but one for as long as `busy` is set, at most `bound`: the rest of the
/// machine is busy while a solution is judged on the one left (which other tests share too).
fn spinners(busy: &Arc<AtomicBool>, bound: Duration) -> Vec<thread::JoinHandle<()>> {
    let cores = thread::available_parallelism().map_or(2, |n| n.get());
    (0..cores.saturating_sub(1).max(1))
        .map(|_| {
            let busy = Arc::clone(busy);
            thread::spawn(move || {
                let start = Instant::now();
                let mut n = 0u64;
                while busy.load(Ordering::Relaxed) && start.elapsed() < bound {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
            })
        })
        .collect()
}

#[test]
fn a_solution_within_its_cpu_time_stays_ac_on_a_busy_machine() {
    built("spin");
    let busy = Arc::new(AtomicBool::new(true));
    let spinning = spinners(&busy, Duration::from_secs(30));
    let reports: Vec<_> = (0..3).map(|_| judged("spin")).collect();
    busy.store(false, Ordering::Relaxed);
    for spinner in spinning {
        spinner.join().unwrap();
    }
    for report in reports {
        let case = &report.cases[0];
        let cpu = case.cpu_time.expect("Linux tells CPU time");
        // Wall-clock time grows with the load (here often past the limit); CPU time does not.
        assert_eq!(
            case.verdict,
            Verdict::Ac,
            "{cpu:?} CPU, {:?} wall: {:?}",
            case.time,
            case.detail
        );
        assert!(cpu >= Duration::from_millis(170), "{cpu:?}");
        assert_eq!(case.judged_time().1, Clock::Cpu);
    }
}

#[test]
fn a_sleeping_solution_is_tle_and_ends_at_the_wall_clock_cap() {
    built("sleep");
    let start = Instant::now();
    let report = judged("sleep");
    let took = start.elapsed();
    let case = &report.cases[0];
    assert_eq!(case.verdict, Verdict::Tle);
    assert_eq!(
        case.detail,
        Detail::Overtime {
            killed: Some(Clock::Wall)
        }
    );
    assert_eq!(case.judged_time().1, Clock::Wall);
    // The cap is 2 × 500 ms + 1 s: the 30 s sleep is cut there, not waited for.
    assert!(case.time >= Duration::from_secs(2), "{:?}", case.time);
    assert!(took < Duration::from_secs(10), "{took:?}");
    let rendered = report.render(&xtask::report::Style::plain());
    assert!(
        rendered.contains("killed at the wall-clock cap of 2000 ms"),
        "{rendered}"
    );
}
