//! The bugs random stress misses, each planted in a fixture of its own (`tests/data/hunt/`) and
//! found as a new user would find it: a solution wrong only on equal values, whose generator
//! draws from 1 to 10^9 (stress passes 1000 cases, hack finds it); a `-1` branch that prints
//! the wrong value, whose generator always connects (stress names the branch's line as never
//! reached, hack finds it); a solution that indexes `a[1]`, whose generator's `n` starts at 2
//! (hack finds the RE); a product in a `u32`, whose generator draws from 1 to 1000 and whose
//! validator allows 10^9 (hack sets a number to that bound, and finds the WA). Each failing input hack saves is small and `cargo xtask test` judges it
//! as hack did. Then what must not happen: hack on a right solution saves nothing, hack without
//! a validator refuses to run, a quadratic reference over a generator of n = 3000 × SIZE holds
//! stress's sizes instead of running past its limit, and stress cuts a failing input of a
//! thousand numbers down to a few.

use crate::support::{self, processes_under, run_xtask, target_dir, text};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh copy of the fixture workspace for one test.
fn fixture_copy(test: &str) -> PathBuf {
    support::fixture_copy("hunt", test)
}

/// Runs the xtask on `test`'s copy, building into that test's own target folder.
fn xtask(test: &str, args: &[&str]) -> Output {
    run_xtask(&format!("hunt-{test}-target"), args)
}

/// The samples saved by a hunt (`hack-*` or `stress-*`), sorted.
fn saved(problem: &Path, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(problem.join("samples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".in"))
        .collect();
    names.sort();
    names
}

/// Runs `hack` on `problem` (120 s at most, as a user would), expects it to find a failure,
/// and returns the saved input, checked small (at most 8 tokens), and hack's report.
fn hack_finds(test: &str, problem: &Path, verdict: &str) -> (String, String) {
    let path = problem.to_str().unwrap();
    let out = xtask(test, &["hack", path, "--time", "120", "--seed", "11"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!("{verdict} on input #")),
        "{stdout}"
    );
    let saved = saved(problem, "hack-");
    assert_eq!(saved.len(), 1, "{saved:?}");
    let input = fs::read_to_string(problem.join("samples").join(&saved[0])).unwrap();
    let tokens = input.split_whitespace().count();
    assert!((1..=8).contains(&tokens), "{tokens} tokens: {input}");
    // The saved case is an ordinary sample, judged as hack judged it.
    let name = saved[0].strip_suffix(".in").unwrap();
    let judged = xtask(test, &["test", path]);
    let report = text(&judged.stdout);
    assert_eq!(judged.status.code(), Some(1), "{report}");
    assert!(report.contains(&format!("  {name}  {verdict}")), "{report}");
    assert!(processes_under(problem.parent().unwrap()).is_empty());
    // Nor the instrumented build's fork servers, nor their children.
    assert!(processes_under(&target_dir(&format!("hunt-{test}-target"))).is_empty());
    (input, stdout)
}

#[test]
fn equal_values_pass_stress_and_hack_finds_them() {
    let workspace = fixture_copy("equal");
    let problem = workspace.join("pairs-wrong");
    let path = problem.to_str().unwrap();
    let out = xtask("equal", &["stress", path, "--cases", "1000", "--seed", "3"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("1000/1000 AC"), "{stdout}");
    assert!(saved(&problem, "stress-").is_empty());

    let (input, report) = hack_finds("equal", &problem, "WA");
    // Two equal numbers are the whole of it.
    let numbers: Vec<u64> = input
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap())
        .collect();
    let distinct: std::collections::BTreeSet<_> = numbers.iter().collect();
    assert!(distinct.len() < numbers.len(), "{input}");
    assert!(report.contains("saved "), "{report}");
    assert!(report.contains("--seed 11"), "{report}");
}

#[test]
fn a_branch_no_case_reaches_is_named_and_hack_reaches_it() {
    let workspace = fixture_copy("branch");
    let problem = workspace.join("path-wrong");
    let path = problem.to_str().unwrap();
    let out = xtask(
        "branch",
        &["stress", path, "--cases", "1000", "--seed", "3"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    // The `-1` branch: the line that prints, named with its text, and only it.
    let source = fs::read_to_string(problem.join("src/main.rs")).unwrap();
    let branch = source
        .lines()
        .position(|l| l.contains("writeln!(out, \"{}\", 0)"))
        .unwrap()
        + 1;
    let named = format!("src/main.rs:{branch}    writeln!(out, \"{{}}\", 0).unwrap();");
    assert!(stdout.contains(&named), "{named} in:\n{stdout}");
    let never = stdout
        .lines()
        .skip_while(|l| !l.contains("never reached:"))
        .skip(1)
        .take_while(|l| l.starts_with("    src/"))
        .count();
    assert_eq!(never, 1, "{stdout}");

    let (input, _) = hack_finds("branch", &problem, "WA");
    let answer = fs::read_to_string(
        problem
            .join("samples")
            .join(saved(&problem, "hack-")[0].replace(".in", ".out")),
    )
    .unwrap();
    assert_eq!(answer.trim(), "-1", "{input}");
}

#[test]
fn n_equal_to_one_that_the_generator_never_writes_is_found() {
    let workspace = fixture_copy("index");
    let problem = workspace.join("gap-wrong");
    let (input, report) = hack_finds("index", &problem, "RE");
    assert_eq!(input.split_whitespace().next(), Some("1"), "{input}");
    assert!(report.contains("index out of bounds"), "{report}");
}

#[test]
fn a_product_past_32_bits_that_the_generator_never_writes_is_found() {
    let workspace = fixture_copy("mul");
    let problem = workspace.join("mul-wrong");
    let (input, report) = hack_finds("mul", &problem, "WA");
    // The validator's bounds, probed, are what the search set the numbers to.
    assert!(
        report.contains(
            "probed on one input: line 1 token 1 from 1 to 1000000000, line 1 token 2 from 1 \
             to 1000000000"
        ),
        "{report}"
    );
    let product: u64 = input
        .split_whitespace()
        .map(|t| t.parse::<u64>().unwrap())
        .product();
    assert!(product >= 1 << 32, "{input}");
}

#[test]
fn a_right_solution_is_left_alone_and_no_validator_is_refused() {
    let workspace = fixture_copy("quiet");
    let right = workspace.join("pairs-right");
    let before = support::listing(&right);
    let out = xtask(
        "quiet",
        &[
            "hack",
            right.to_str().unwrap(),
            "--time",
            "6",
            "--seed",
            "5",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("nothing failed in 6 s"), "{stdout}");
    // How many inputs it judged and how much of the solution they reached.
    assert!(stdout.contains(" inputs judged ("), "{stdout}");
    assert!(stdout.contains("lines of src/ reached"), "{stdout}");
    assert_eq!(support::listing(&right), before);
    assert!(processes_under(&workspace).is_empty());
    assert!(processes_under(&target_dir("hunt-quiet-target")).is_empty());

    let bare = workspace.join("gap-bare");
    let out = xtask("quiet", &["hack", bare.to_str().unwrap(), "--time", "5"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("has no validator, and hack needs one"),
        "{stderr}"
    );
    assert!(
        stderr.contains("validator = \"fixture-gap-bare-validator\""),
        "{stderr}"
    );
    assert!(stderr.contains("add a binary src/bin/"), "{stderr}");

    // Scaffolded but not named yet: the advice is to finish the file and name it.
    let scaffolded = bare.join("src/bin/fixture-gap-bare-validator.rs");
    std::fs::create_dir_all(scaffolded.parent().unwrap()).unwrap();
    std::fs::write(&scaffolded, "//! Not written yet.\nfn main() {}\n").unwrap();
    let out = xtask("quiet", &["hack", bare.to_str().unwrap(), "--time", "5"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("src/bin/fixture-gap-bare-validator.rs is there, as scaffolded"),
        "{stderr}"
    );
    assert!(!stderr.contains("add a binary"), "{stderr}");
}

#[test]
fn sizes_follow_what_the_reference_answers_in_time() {
    let workspace = fixture_copy("sizes");
    let problem = workspace.join("pairs-big");
    let out = xtask(
        "sizes",
        &[
            "stress",
            problem.to_str().unwrap(),
            "--cases",
            "20",
            "--seed",
            "3",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("20/20 AC"), "{stdout}");
    // Held, saying why, and the repeat command names the largest size.
    let held = stdout
        .lines()
        .find(|l| l.starts_with("  sizes 1 to "))
        .unwrap_or_else(|| panic!("no line on the sizes in {stdout}"));
    let max: u64 = held["  sizes 1 to ".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..58).contains(&max), "{held}");
    assert!(stdout.contains(&format!("--max-size {max}\n")), "{stdout}");
}

#[test]
fn a_failing_input_of_a_thousand_numbers_is_cut_to_a_few() {
    let workspace = fixture_copy("cut");
    let problem = workspace.join("pairs-dense");
    let out = xtask(
        "cut",
        &[
            "stress",
            problem.to_str().unwrap(),
            "--seed",
            "5",
            "--jobs",
            "2",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    let saved = saved(&problem, "stress-");
    assert_eq!(saved.len(), 1, "{saved:?}");
    let input = fs::read_to_string(problem.join("samples").join(&saved[0])).unwrap();
    // The smallest such input: two equal numbers, each as small as the constraints allow.
    assert_eq!(input, "2\n1 1\n");
    assert!(
        stdout.contains("to 2 lines, 3 tokens: cutting the input took "),
        "{stdout}"
    );
    assert!(
        stdout.contains("the generator wrote the case it was cut from as: "),
        "{stdout}"
    );
}
