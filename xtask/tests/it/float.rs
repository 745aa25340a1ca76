//! The float judge on a problem that is not Sudoku: BOJ 1008 (A/B, answers within 1e-9)
//! imported from a competitive-companion payload, judged by `cargo xtask test` before and after
//! switching it to `judge = "float"` (the exact judge's WA hinting at it); the scaffold flags;
//! a missing `error`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{edit, run_xtask, scratch, text, write_minimal_workspace};

/// Runs the real xtask binary, building into this module's own target folder.
fn xtask(args: &[&str]) -> Output {
    run_xtask("float-target", args)
}

fn payload() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/companion/boj-1008.json")
}

/// A/B, printed with the given format string for an `f64` (Rust 1.56 syntax).
fn solution(format: &str) -> String {
    format!(
        r#"//! BOJ 1008: A/B.
use std::io::Read;

fn main() {{
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let numbers: Vec<f64> = input.split_whitespace().map(|t| t.parse().unwrap()).collect();
    println!("{format}", numbers[0] / numbers[1]);
}}
"#
    )
}

/// `new 1008 --from` the BOJ 1008 payload into the workspace at `root`, with `flags`.
fn import_1008(root: &Path, flags: &[&str]) -> Output {
    let payload = payload();
    let mut args = vec![
        "new",
        "1008",
        "--from",
        payload.to_str().unwrap(),
        "--root",
        root.to_str().unwrap(),
    ];
    args.extend_from_slice(flags);
    xtask(&args)
}

fn judge(root: &Path) -> (Option<i32>, String) {
    let out = xtask(&[
        "test",
        "--root",
        root.to_str().unwrap(),
        "1008",
        "--color",
        "never",
    ]);
    (out.status.code(), text(&out.stdout) + &text(&out.stderr))
}

/// [`judge`] once the imported `judge = "exact"` line is replaced by `judge_lines`.
fn judge_as(root: &Path, judge_lines: &str) -> (Option<i32>, String) {
    edit(
        &root.join("problems/boj-1008/Cargo.toml"),
        "judge = \"exact\"\n",
        judge_lines,
    );
    judge(root)
}

#[test]
fn a_right_a_over_b_is_ac_under_the_float_judge_and_four_places_are_wa() {
    let root = scratch("float", "boj-1008");
    write_minimal_workspace(&root);
    let out = import_1008(&root, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let problem = root.join("problems/boj-1008");
    fs::write(problem.join("src/main.rs"), solution("{}")).unwrap();

    // As imported the judge is exact, and 0.3333333333333333 is not the sample's 32 threes.
    let (code, report) = judge(&root);
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report.contains("boj-1008  2 samples · exact judge"),
        "{report}"
    );
    assert!(report.contains("  1  WA"), "{report}");
    assert!(report.contains("  2  AC"), "{report}");
    // Every token matches as a number within 1e-6: the report says so and names the fix; the
    // verdict stays WA.
    assert!(
        report.contains(
            "    hint: every token matches the expected one as a number within 1e-6: if the \
             problem accepts answers within an error, set judge = \"float\""
        ),
        "{report}"
    );
    assert_eq!(report.matches("hint:").count(), 1, "{report}");

    // Switched to the float judge, as BOJ judges it: AC.
    let (code, report) = judge_as(&root, "judge = \"float\"\nerror = 1e-9\n");
    assert_eq!(code, Some(0), "{report}");
    assert!(report.contains("float judge (error 1e-9)"), "{report}");
    assert!(report.contains("boj-1008: 2/2 AC"), "{report}");

    // Four places are not enough: WA, and the report names the token and both values.
    fs::write(problem.join("src/main.rs"), solution("{:.4}")).unwrap();
    let (code, report) = judge(&root);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("  1  WA"), "{report}");
    assert!(
        report.contains(
            "token 1 (line 1): expected `0.33333333333333333333333333333333`, found `0.3333`"
        ),
        "{report}"
    );
    assert!(report.contains("allowed error 1e-9"), "{report}");
    assert!(
        !report.contains("hint:"),
        "the float judge already: {report}"
    );
    // 4/5 = 0.8000 is within the error.
    assert!(report.contains("  2  AC"), "{report}");
}

#[test]
fn new_scaffolds_the_float_judge_and_requires_its_error() {
    let root = scratch("float", "scaffold");
    let root_arg = root.to_str().unwrap();
    let out = import_1008(&root, &["--judge", "float", "--error", "1e-9"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("float judge (error 1e-9)"));
    let manifest = fs::read_to_string(root.join("problems/boj-1008/Cargo.toml")).unwrap();
    assert!(manifest.contains("judge = \"float\"\n"), "{manifest}");
    assert!(manifest.contains("error = 1e-9\n"), "{manifest}");

    // --judge float without --error, and --error without --judge float: refused, nothing made.
    for args in [
        vec!["new", "1009", "--root", root_arg, "--judge", "float"],
        vec!["new", "1009", "--root", root_arg, "--error", "1e-6"],
        vec![
            "new", "1009", "--root", root_arg, "--judge", "float", "--error", "-1",
        ],
    ] {
        let out = xtask(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("error"), "{}", text(&out.stderr));
        assert!(!root.join("problems/boj-1009").exists(), "{args:?}");
    }
}

#[test]
fn a_float_judge_without_its_error_names_the_manifest() {
    let root = scratch("float", "missing-error");
    write_minimal_workspace(&root);
    let root_arg = root.to_str().unwrap();
    assert_eq!(
        xtask(&["new", "1008", "--root", root_arg]).status.code(),
        Some(0)
    );
    let (code, report) = judge_as(&root, "judge = \"float\"\n");
    assert_eq!(code, Some(2), "{report}");
    assert!(report.contains("boj-1008/Cargo.toml"), "{report}");
    assert!(
        report.contains("judge = \"float\" needs `error = 1e-9`"),
        "{report}"
    );
}
