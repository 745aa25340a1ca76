//! BOJ's limits, exactly (docs/limits.md), on the fixtures in `tests/data/limits/`: a recursive
//! tree DP a million deep is AC with the stack BOJ gives (built by cargo and bundled) and RE
//! "stack overflow" under `stack-limit-mb = 8`; under a bounded load that starves them (four
//! spinning threads a core), a solution that burns 60% of its time limit in CPU stays AC however
//! long it waits for a CPU, and one that sleeps is TLE, ended at the cap on waiting.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

#[cfg(unix)]
use crate::support::SpinningProcesses;
use crate::support::{assert_success_saying, edit, fixture_copy, run_xtask, text};
use xtask::judge::{self, Detail, JudgeOptions, Verdict};
use xtask::run::{self as run, process, Clock, Program, TimeUp};
use xtask::workspace::build::{self, BuildOptions, Executables};
use xtask::workspace::problem::Problem;

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
        let names = [
            "deep", "spin", "sleep", "grow", "reserve", "burn", "nap", "leak",
        ];
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
    // The header names the stack only where the system gives less than the 256 MB asked: a
    // hard limit, where the stack is set at run time. Windows and macOS link it into the
    // solver (macOS's kernel would give a stack set at run time 64 MB at most, and 10^6 frames
    // of this recursion take about 96 MB).
    let given = if build::StackAt::here() == build::StackAt::RunTime {
        process::stack_given(256 << 20)
    } else {
        256 << 20
    };
    let header = if given < 256 << 20 {
        format!(
            "2000 ms CPU · 256 MB · stack {} MB (this system's most; 256 MB asked)\n",
            given >> 20
        )
    } else {
        "2000 ms CPU · 256 MB\n".to_string()
    };
    assert!(stdout.contains(&header), "{stdout}");

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

/// A solution whose work runs in a child it waits for (a `--command "bash run.sh"` wrapper's
/// way) is held to the CPU time of both, as Windows' job accounting holds it: its own CPU time
/// stays near 0 while the child spins, so counting its own alone would end it at the cap on
/// waiting, "with 1 ms of CPU time". It is TLE on CPU time, the case line names at least the
/// limit's worth of CPU, and the child is gone with it.
#[test]
fn a_childs_cpu_time_is_the_solutions_and_the_child_ends_with_it() {
    let target = "limits-wrapper";
    let workspace = fixture_copy("limits", "wrapper");
    let wrapper = workspace.join("wrapper");
    let out = run_xtask(target, &["test", wrapper.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let line = stdout
        .lines()
        .find(|l| l.starts_with("  1  TLE"))
        .unwrap_or_else(|| panic!("no TLE line:\n{stdout}"));
    let cpu: u64 = line
        .split_whitespace()
        .nth(2)
        .and_then(|ms| ms.parse().ok())
        .unwrap_or_else(|| panic!("no time on {line:?}"));
    assert!(line.contains(" ms CPU"), "{line}");
    assert!(cpu >= 1000, "{line}");
    assert!(
        stdout.contains("killed when its CPU time reached 1100 ms"),
        "{stdout}"
    );
    assert_eq!(
        crate::support::processes_under(&crate::support::target_dir(target)),
        Vec::<String>::new(),
        "the child outlived the solution"
    );
}

/// Memory reserved is not memory used: `Vec::with_capacity` for 200 MB, and for 1.3 GB, with
/// 10 MB touched, are AC under 256 MB by the memory they touched, as on BOJ (Windows commits the
/// capacity whole: the job's commit guard refuses none of it, `process::commit_guard`). A `Vec`
/// pushed to 150 MB is AC on Linux and macOS, whose allocators move a growing block without a
/// copy; on Windows its last doubling holds both copies, the peak working set passes 256 MB,
/// and the MLE says why BOJ may judge it otherwise (`Hint::GrowthCopied`). CI runs this on a
/// real Windows machine (.github/workflows/ci.yml); under Wine there is no figure, so no MLE.
#[test]
fn memory_reserved_but_never_touched_is_not_counted() {
    let grow = judged("grow");
    let reserve = judged("reserve");
    assert_eq!(reserve.cases.len(), 2);
    for case in &reserve.cases {
        assert_eq!(case.verdict, Verdict::Ac, "reserve {}: {case:?}", case.name);
        // Where the system gives a figure, it is the memory touched.
        if let Some(peak) = case.peak_memory {
            assert!((10 << 20..64 << 20).contains(&peak), "{peak}");
        }
    }
    let grown = &grow.cases[0];
    match grown.verdict {
        Verdict::Ac => {
            if let Some(peak) = grown.peak_memory {
                assert!((150 << 20..256 << 20).contains(&peak), "{peak}");
            }
        }
        Verdict::Mle if process::PEAK_COUNTS_MOVES => {
            assert!(
                matches!(grown.hints[..], [judge::Hint::GrowthCopied { .. }]),
                "{:?}",
                grown.hints
            );
        }
        _ => panic!("a Vec grown to 150 MB under 256 MB: {grown:?}"),
    }
}

/// A solution that holds three times its memory limit and then runs out its time is TLE by the
/// order of the verdicts (TLE before MLE), where BOJ, which stops a solution when it reaches its
/// memory limit, says MLE. The report said only "killed when its CPU time reached 330 ms", its
/// 48 MB beside a 16 MB limit unremarked; a hint now says what BOJ would say.
#[test]
fn a_tle_over_the_memory_limit_too_says_boj_stops_it_there_and_a_leak_is_stopped_at_the_guard() {
    let leak = judged("leak");
    let case = &leak.cases[0];
    assert_eq!(case.verdict, Verdict::Tle, "{case:?}");
    let Some(peak) = case.peak_memory else {
        // No figure (Wine): nothing to say.
        assert!(case.hints.is_empty(), "{:?}", case.hints);
        return;
    };
    assert!(peak > 32 << 20, "{peak}");
    let [hint] = &case.hints[..] else {
        panic!("one hint expected: {:?}", case.hints);
    };
    assert!(
        matches!(hint, judge::Hint::OverMemoryToo { limit, .. } if *limit == 16 << 20),
        "{hint:?}"
    );
    let said = hint.to_string();
    assert!(
        said.starts_with("hint: its peak memory, ")
            && said.contains("MB, is over the limit of 16 MB too"),
        "{said}"
    );
    // A leak without end is stopped at the runner's guard while it runs, where the system tells
    // its memory then (Linux, macOS), and is MLE, as on BOJ; it used to grow until its CPU time
    // ran out, TLE.
    let leaking = &leak.cases[1];
    if cfg!(any(target_os = "linux", target_os = "macos")) && leaking.peak_memory.is_some() {
        assert_eq!(leaking.verdict, Verdict::Mle, "{leaking:?}");
        assert!(
            leaking.cpu_time < Some(Duration::from_millis(300)),
            "{leaking:?}"
        );
    }
}

/// Spins four threads a core for as long as `busy` is set, at most `bound`: a solution judged
/// meanwhile gets a small share of a core (other tests share them too), and waits for a CPU
/// far longer than it runs.
fn spinners(busy: &Arc<AtomicBool>, bound: Duration) -> Vec<thread::JoinHandle<()>> {
    let cores = thread::available_parallelism().map_or(2, |n| n.get());
    (0..4 * cores)
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

/// Judges `names` one after the other while [`spinners`] keep the machine busy.
fn judged_under_load(names: &[&str]) -> Vec<judge::ProblemReport> {
    for name in names {
        built(name);
    }
    let busy = Arc::new(AtomicBool::new(true));
    let spinning = spinners(&busy, Duration::from_secs(60));
    let reports = names.iter().map(|name| judged(name)).collect();
    busy.store(false, Ordering::Relaxed);
    for spinner in spinning {
        spinner.join().unwrap();
    }
    reports
}

/// The property the cap keeps: a solution is judged on its CPU time however long a busy
/// machine keeps it waiting for a CPU (its wall-clock time may pass 2 × the limit + 1 s; only
/// the outer bound, 20 × the limit, would end it), while one that sleeps still ends at the cap
/// on time spent waiting. Nothing here depends on how busy the machine is besides.
#[test]
fn a_starved_solution_is_judged_on_its_cpu_time_and_a_sleeper_still_ends_at_the_cap() {
    let reports = judged_under_load(&["spin", "spin", "spin", "sleep"]);
    for report in &reports[..3] {
        let case = &report.cases[0];
        let cpu = case.cpu_time.expect("Linux tells CPU time");
        assert_eq!(
            case.verdict,
            Verdict::Ac,
            "{cpu:?} CPU, {:?} wall: {:?}",
            case.time,
            case.detail
        );
        // The fixture measures its own CPU time on Linux; elsewhere it burns at most that.
        if cfg!(target_os = "linux") {
            assert!(cpu >= Duration::from_millis(170), "{cpu:?}");
        }
        assert_eq!(case.judged_time().1, Clock::Cpu);
    }
    let sleeper = &reports[3].cases[0];
    assert_eq!(sleeper.verdict, Verdict::Tle);
    assert_eq!(
        sleeper.detail,
        Detail::Overtime {
            killed: Some(waiting_clock())
        }
    );
    // It waited out the cap, 2 × 500 ms + 1 s, and was not left to sleep its 30 s.
    assert!(sleeper.time >= Duration::from_secs(2), "{:?}", sleeper.time);
    assert!(sleeper.time < run::outer_bound(Duration::from_millis(500)));
}

/// The limit a sleeper is killed at: its time spent waiting where the system tells how long a
/// program was runnable, else the cap on waiting kept on the wall clock.
fn waiting_clock() -> TimeUp {
    if process::tells_runnable_time() {
        TimeUp::Waiting
    } else {
        TimeUp::WallCap
    }
}

#[test]
fn a_sleeping_solution_is_tle_and_ends_at_the_cap_on_waiting() {
    built("sleep");
    let start = Instant::now();
    let report = judged("sleep");
    let took = start.elapsed();
    let case = &report.cases[0];
    assert_eq!(case.verdict, Verdict::Tle);
    // Where the system tells how long a program was runnable, the cap is on its time spent
    // waiting; elsewhere on the wall clock.
    let said = if process::tells_runnable_time() {
        "killed after 2000 ms spent waiting"
    } else {
        "killed at the wall-clock cap of 2000 ms"
    };
    assert_eq!(
        case.detail,
        Detail::Overtime {
            killed: Some(waiting_clock())
        }
    );
    assert_eq!(case.judged_time().1, Clock::Wall);
    // The cap is 2 × 500 ms + 1 s: the 30 s sleep is cut there, not waited for.
    assert!(case.time >= Duration::from_secs(2), "{:?}", case.time);
    assert!(took < Duration::from_secs(10), "{took:?}");
    let rendered = report.render(&xtask::report::Style::plain());
    assert!(rendered.contains(said), "{rendered}");
}

/// The demonstration behind docs/limits.md and docs/benchmarks.md ("A busy machine"), run by
/// hand (`cargo test -p xtask --test it -- --ignored --nocapture sixteen`): with 16 processes
/// spinning beside the judge, a solution that burns 550 ms of CPU under a 1000 ms limit is AC
/// three times out of three, however long it waits for a CPU, and one that sleeps 10 s is TLE
/// at the cap on waiting. Ignored in the suite: it holds both cores for half a minute.
#[test]
#[ignore]
#[cfg(unix)]
fn sixteen_spinning_processes_starve_a_solution_but_do_not_fail_it() {
    for name in ["burn", "nap"] {
        built(name);
    }
    let _spinning = SpinningProcesses::start(16, None);
    for round in 1..=3 {
        let case = judged("burn").cases.remove(0);
        eprintln!(
            "burn, round {round}: {} · {:?} CPU · {:?} wall",
            case.verdict,
            case.cpu_time.unwrap_or_default(),
            case.time
        );
        assert_eq!(case.verdict, Verdict::Ac, "{:?}", case.detail);
        assert_eq!(case.judged_time().1, Clock::Cpu);
    }
    let nap = judged("nap").cases.remove(0);
    eprintln!(
        "nap: {} · {:?} CPU · {:?} wall · {:?}",
        nap.verdict,
        nap.cpu_time.unwrap_or_default(),
        nap.time,
        nap.detail
    );
    assert_eq!(nap.verdict, Verdict::Tle);
    assert_eq!(
        nap.detail,
        Detail::Overtime {
            killed: Some(waiting_clock())
        }
    );
}
