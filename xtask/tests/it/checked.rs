//! Why it is WA (issue 36): a WA or RE case judged again in a checked build of the same
//! solution (overflow checks and debug assertions on, opt-level 2) names its panic and place;
//! an AC run builds nothing more; `--no-checked-rerun` and `--checked`; stress does it for the
//! saved case; the judge build stays cached. Fixtures: `tests/data/lastmile/` (A-B in u32 and
//! in i64), copied, since stress writes into samples/.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::SystemTime;

use crate::support::{fixture_copy, run_xtask, target_dir, text};

/// The line a u32 `a - b` with b > a is reported by, in a checked build: the subtraction in
/// `subtract-u32/src/main.rs`, line 14, column 22, shown from the problem's folder.
const OVERFLOW: &str =
    "    in a checked build: attempt to subtract with overflow at src/main.rs:14:22\n";

/// Runs the real xtask on `args` with its own target folder `TEST-target`; stdout and stderr.
fn xtask(test: &str, args: &[&str]) -> (Option<i32>, String, Output) {
    let out = run_xtask(&format!("checked-{test}-target"), args);
    let report = text(&out.stdout) + &text(&out.stderr);
    (out.status.code(), report, out)
}

fn problem(workspace: &Path, name: &str) -> String {
    workspace.join(name).to_str().unwrap().to_string()
}

fn modified(path: &Path) -> SystemTime {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn checked_folder(test: &str) -> PathBuf {
    target_dir(&format!("checked-{test}-target")).join("judge-checked")
}

#[test]
fn a_wrapping_subtraction_is_wa_and_a_checked_build_names_the_overflow_and_its_line() {
    let workspace = fixture_copy("lastmile", "overflow");
    let path = problem(&workspace, "subtract-u32");
    let (code, report, _) = xtask("overflow", &["test", &path, "--color", "never"]);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("  1  AC"), "{report}");
    assert!(report.contains("  2  WA"), "{report}");
    assert!(report.contains("+1 4294967294"), "{report}");
    // The hint follows the case it explains, and is said once.
    let case = &report[report.find("  2  WA").unwrap()..];
    assert!(case.contains(OVERFLOW), "{report}");
    assert_eq!(report.matches("in a checked build").count(), 1, "{report}");
    assert!(checked_folder("overflow").is_dir());

    // The judge build's executable is not rebuilt by the checked one: judged again (both
    // builds run again), cargo finds it fresh.
    let judged = target_dir("checked-overflow-target").join("judge/fixture-subtract-u32");
    let before = modified(&judged);
    let (code, again, _) = xtask("overflow", &["test", &path, "--color", "never"]);
    assert_eq!(code, Some(1), "{again}");
    assert!(again.contains(OVERFLOW), "{again}");
    assert_eq!(modified(&judged), before, "the judge build was relinked");

    // --no-checked-rerun: the same verdicts, no hint.
    let (code, quiet, _) = xtask(
        "overflow",
        &["test", &path, "--color", "never", "--no-checked-rerun"],
    );
    assert_eq!(code, Some(1), "{quiet}");
    assert!(quiet.contains("  2  WA"), "{quiet}");
    assert!(!quiet.contains("checked build"), "{quiet}");

    // --checked: every case judged in the checked build, where the overflow is a panic (RE).
    let (code, checked, _) = xtask(
        "overflow",
        &["test", &path, "--color", "never", "--checked"],
    );
    assert_eq!(code, Some(1), "{checked}");
    assert!(
        checked.contains("judging the checked build (overflow checks and debug assertions on)"),
        "{checked}"
    );
    assert!(checked.contains("  1  AC"), "{checked}");
    assert!(checked.contains("  2  RE"), "{checked}");
    assert!(
        checked.contains("attempt to subtract with overflow"),
        "{checked}"
    );
}

#[test]
fn an_ac_run_starts_no_second_build() {
    let workspace = fixture_copy("lastmile", "all-ac");
    let path = problem(&workspace, "subtract-i64");
    let (code, report, _) = xtask("all-ac", &["test", &path, "--color", "never"]);
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("2/2 AC"), "{report}");
    assert!(target_dir("checked-all-ac-target").join("judge").is_dir());
    assert!(
        !checked_folder("all-ac").exists(),
        "an AC run built the checked profile"
    );
}

#[test]
fn stress_judges_its_saved_case_again_in_a_checked_build() {
    let workspace = fixture_copy("lastmile", "stress");
    let path = problem(&workspace, "subtract-u32");
    let args = [
        "stress", &path, "--cases", "30", "--seed", "1", "--jobs", "1",
    ];
    let (code, report, _) = xtask("stress", &args);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("WA on case"), "{report}");
    assert!(report.contains(OVERFLOW), "{report}");
    let saved = fs::read_dir(workspace.join("subtract-u32/samples"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("stress-")
        })
        .count();
    assert_eq!(saved, 2, "the case and its answer");

    let mut quiet = args.to_vec();
    quiet.push("--no-checked-rerun");
    let (code, report, _) = xtask("stress", &quiet);
    assert_eq!(code, Some(1), "{report}");
    assert!(!report.contains("checked build"), "{report}");
}

/// A TLE that ended by itself just past the limit says how far past (issue 36): the runner lets
/// a run go on to 110% of the limit, and the fixture stops at 103% of its own CPU time. The
/// verdict stays TLE.
#[test]
fn a_tle_near_the_limit_says_its_margin() {
    let workspace = fixture_copy("lastmile", "near-limit");
    let path = problem(&workspace, "near-limit");
    let (code, report, _) = xtask("near-limit", &["test", &path, "--color", "never"]);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("  1  TLE"), "{report}");
    if cfg!(target_os = "linux") {
        assert!(report.contains("ms over the limit ("), "{report}");
        assert!(report.contains("a constant factor from AC"), "{report}");
    }
}
