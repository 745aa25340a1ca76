//! `cargo xtask stress`: a solver that is wrong on many-solution boards is caught, the failing
//! case is saved and `cargo xtask test` replays it; a right solver passes; a seed names the same
//! cases. Fixtures: `tests/data/stress/`, copied to a scratch folder because stress writes into
//! the problem's samples.

use crate::support::text;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh copy of the fixture workspace for one test (sources and samples only).
fn fixture_copy(test: &str) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/stress");
    let to = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("stress-{test}"));
    let _ = fs::remove_dir_all(&to);
    copy_dir(&from, &to);
    to
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &to.join(&name));
        } else {
            fs::copy(entry.path(), to.join(&name)).unwrap();
        }
    }
}

/// Runs the real xtask binary; fixtures build into one shared target folder (never the outer
/// cargo's, whose lock it holds).
fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("stress-fixtures-target"),
        )
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

fn saved_cases(problem: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(problem.join("samples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("stress-"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_solver_wrong_on_many_solution_boards_is_caught_and_the_case_replays() {
    let workspace = fixture_copy("catch");
    let problem = workspace.join("first-found");
    let path = problem.to_str().unwrap();

    let out = xtask(&["stress", path, "--cases", "30", "--seed", "7"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    // Case 1 is unique (a first solution is the only one); case 2 is the first multi board.
    assert!(stdout.contains("case 2 (multi) failed:"), "{stdout}");
    assert!(stdout.contains("stress-7-2  WA"), "{stdout}");
    assert!(stdout.contains("expected (-) vs actual (+)"), "{stdout}");
    assert!(
        stdout.contains("fixture-first-found: WA on case 2 after 1 AC"),
        "{stdout}"
    );
    assert!(stdout.contains("cargo xtask stress"), "{stdout}");
    assert!(stdout.contains("--seed 7"), "{stdout}");
    assert_eq!(saved_cases(&problem), ["stress-7-2.in", "stress-7-2.out"]);

    // The saved case is an ordinary sample: `cargo xtask test` judges it WA the same way.
    let out = xtask(&["test", path]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("  1           AC"), "{stdout}");
    assert!(stdout.contains("  stress-7-2  WA"), "{stdout}");
    assert!(stdout.contains("1/2 AC"), "{stdout}");

    // The same seed gives the same cases: the same case fails again, with the same files.
    let input = fs::read(problem.join("samples/stress-7-2.in")).unwrap();
    fs::remove_file(problem.join("samples/stress-7-2.in")).unwrap();
    fs::remove_file(problem.join("samples/stress-7-2.out")).unwrap();
    let out = xtask(&["stress", path, "--cases", "30", "--seed", "7"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        fs::read(problem.join("samples/stress-7-2.in")).unwrap(),
        input
    );
}

#[test]
fn a_right_solver_passes_every_case_and_nothing_is_saved() {
    let workspace = fixture_copy("pass");
    let problem = workspace.join("row-major");
    let out = xtask(&[
        "stress",
        problem.to_str().unwrap(),
        "--cases",
        "12",
        "--seed",
        "3",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("stress · seed 3 · 12 cases"), "{stdout}");
    assert!(
        stdout.contains("fixture-row-major: 12/12 AC · slowest case "),
        "{stdout}"
    );
    assert!(stdout.contains("of 2000 ms"), "{stdout}");
    assert!(saved_cases(&problem).is_empty());
}

#[test]
fn a_problem_that_cannot_be_found_exits_2() {
    let out = xtask(&["stress", "no/such/problem", "--cases", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no problem folder"));
}
