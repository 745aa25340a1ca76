//! Peak memory describes the solution alone (issue 22): a runner that holds a lot of memory
//! itself reports the same small figure, and `cargo xtask test 2580` and `cargo xtask bundle
//! 2580 --check` agree with `/usr/bin/time -f %M` (GNU time, Debian's `time` package; CI
//! installs it, and the comparison is skipped, saying so, where it is absent).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::{run_xtask, scratch, target_dir, text};

/// The sample both figures are taken on.
fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/boj-2580/samples/1.in")
}

/// `/usr/bin/time -f %M PROGRAM < sample`, the median of five, in KiB; `None` without GNU time
/// (macOS's and the BSDs' `time` take no `-f`).
fn gnu_time_kib(program: &Path) -> Option<u64> {
    let time = Path::new("/usr/bin/time");
    let gnu = Command::new(time)
        .arg("--version")
        .output()
        .is_ok_and(|out| {
            String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).contains("GNU")
        });
    if !gnu {
        eprintln!("skipped: /usr/bin/time is not GNU time (Debian's `time` package)");
        return None;
    }
    let mut figures: Vec<u64> = (0..5)
        .map(|_| {
            let out = Command::new(time)
                .args(["-f", "%M"])
                .arg(program)
                .stdin(File::open(sample()).unwrap())
                .stdout(Stdio::null())
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", text(&out.stderr));
            text(&out.stderr)
                .trim()
                .lines()
                .last()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    figures.sort_unstable();
    Some(figures[2])
}

/// The MB figure on the report line of sample 1 (`  1  AC   3 ms   1.9 MB`).
fn reported_mib(report: &str) -> f64 {
    let line = report
        .lines()
        .find(|l| l.starts_with("  1  "))
        .unwrap_or_else(|| panic!("no line for sample 1 in:\n{report}"));
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(fields.last(), Some(&"MB"), "{line}");
    fields[fields.len() - 2].parse().unwrap()
}

fn xtask(args: &[&str]) -> String {
    let out = run_xtask("bundle-ws-target", args);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}{}", text(&out.stderr));
    report
}

fn assert_close(what: &str, reported: f64, gnu_kib: u64) {
    let gnu = gnu_kib as f64 / 1024.0;
    assert!(
        (reported - gnu).abs() <= 0.6,
        "{what}: reported {reported} MB, /usr/bin/time {gnu:.2} MB"
    );
}

#[test]
fn test_and_bundle_check_report_what_gnu_time_reports() {
    let report = xtask(&["test", "boj-2580"]);
    let built = target_dir("bundle-ws-target").join("judge/boj-2580");
    if let Some(kib) = gnu_time_kib(&built) {
        assert_close("cargo xtask test 2580", reported_mib(&report), kib);
    }

    let dir = scratch("memory", "bundle");
    let bundle = dir.join("boj-2580.rs");
    let report = xtask(&[
        "bundle",
        "boj-2580",
        "--check",
        "-o",
        bundle.to_str().unwrap(),
    ]);
    if let Some(kib) = gnu_time_kib(&dir.join("boj-2580.check/Main")) {
        assert_close(
            "cargo xtask bundle 2580 --check",
            reported_mib(&report),
            kib,
        );
    }
}

/// The defect itself: a runner holding 64 MiB of its own when it starts the program. Before
/// the launcher, a forked child was charged those pages; now the figure stays the program's.
#[test]
#[cfg(unix)]
fn the_runners_own_memory_is_never_charged_to_the_program() {
    use crate::support::use_xtask_launcher;
    use xtask::run::{Limits, Measure, Program, Setup};

    use_xtask_launcher();
    let ballast: Vec<u8> = (0..64 << 20).map(|i| i as u8).collect();
    let limits = Limits::helper(std::time::Duration::from_secs(10), 1 << 20);
    let no_args: [&str; 0] = [];
    let measured = Setup {
        measure: Measure::Exact,
        ..Setup::default()
    };
    let true_ = Program::new("/bin/true");
    let outcome = true_.run(&no_args, None, &limits, &measured).unwrap();
    let peak = outcome.peak_memory.expect("Linux tells the peak");
    assert!(
        peak < 8 << 20,
        "peak {peak} bytes with the runner holding {} MiB",
        ballast.len() >> 20
    );
    assert!(peak > 0);
    std::hint::black_box(&ballast);
}
