//! Tests of `cargo xtask bundle`: the fixture workspace's bundle (snapshot and assertions), the
//! `--check` verdicts, and the real boj-2239/boj-2580 bundles compiled with plain rustc and
//! compared with the workspace binaries on samples and 200 public puzzles.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use crate::support::{assert_success_saying, edit, listing, run_xtask, scratch, target_dir, text};
use xtask::workspace;
use xtask::workspace::build::{self, BuildOptions, Executables};
use xtask::workspace::problem::{self, Problem};

fn fixture(problem: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bundle-fixture/problems")
        .join(problem)
}

/// Runs the real xtask binary, building into the target folder of this module's tests.
fn xtask(args: &[&str]) -> Output {
    run_xtask("bundle-ws-target", args)
}

/// `cargo xtask bundle FIXTURE -o DIR/FIXTURE.rs --check` in a fresh scratch folder `scratch_name`:
/// the bundle's path and the run.
fn bundle_check(fixture_name: &str, scratch_name: &str) -> (PathBuf, Output) {
    bundle_check_at(&fixture(fixture_name), scratch_name)
}

/// [`bundle_check`] of the problem folder `problem`.
fn bundle_check_at(problem: &Path, scratch_name: &str) -> (PathBuf, Output) {
    let dir = scratch("bundle-tests", scratch_name);
    let name = problem.file_name().unwrap().to_string_lossy();
    let out = dir.join(format!("{}.rs", name));
    let result = xtask(&[
        "bundle",
        problem.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--check",
    ]);
    (out, result)
}

/// Bundles `problem` (a name or folder) into `dir/NAME.rs` and returns the text.
fn bundle_into(problem: &str, dir: &Path, name: &str) -> (PathBuf, String) {
    let out = dir.join(format!("{}.rs", name));
    let result = xtask(&["bundle", problem, "-o", out.to_str().unwrap()]);
    assert!(
        result.status.success(),
        "xtask bundle {} failed: {}",
        problem,
        text(&result.stderr)
    );
    let stdout = text(&result.stdout);
    assert!(stdout.contains(&out.display().to_string()), "{}", stdout);
    assert!(stdout.contains("bytes"), "{}", stdout);
    let bundle = fs::read_to_string(&out).unwrap();
    (out, bundle)
}

fn fixture_bundle(test: &str) -> String {
    let dir = scratch("bundle-tests", test);
    bundle_into(fixture("boj-1000").to_str().unwrap(), &dir, "boj-1000").1
}

#[test]
fn fixture_bundle_snapshot() {
    insta::assert_snapshot!("fixture_bundle", fixture_bundle("snapshot"));
}

#[test]
fn fixture_bundle_has_no_tests_docs_comments_or_unused_items() {
    let bundle = fixture_bundle("stripped");
    let body: String = bundle
        .lines()
        .skip_while(|l| l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    for gone in [
        "#[test]",
        "cfg(test)",
        "mod tests",
        "#[doc",
        "///",
        "//!",
        "Plain comment",
        "missing_docs",
        "test_only_helper",
        "stray_root_test",
        "unused_helper",
        "unused_util",
        "unused_in_main",
        "perimeter",
        "fn restricted",
    ] {
        assert!(!body.contains(gone), "`{}` survived:\n{}", gone, bundle);
    }
    for kept in [
        // Both crates inlined; the binary's nested module reaches the library through `crate::`.
        "mod fixture_lib {",
        "mod fixture_util {",
        "use crate::fixture_lib::add;",
        // `crate::` in the library, a path to the other bundled crate, `$crate`, `pub(crate)`.
        "crate::fixture_lib::checked(a * b)",
        "use crate::fixture_util::clamp;",
        "$crate::fixture_lib::geometry::mul($x, $x)",
        "pub(in crate::fixture_lib) fn checked",
        "pub(in crate::fixture_lib) static UNITS",
        // The exported macro, named apart in the bundle, is reachable as `fixture_lib::square!`.
        "macro_rules! __fixture_lib__square",
        "pub use crate::__fixture_lib__square as square;",
        // A kept type keeps its trait impls; a static keeps its `const fn` builder.
        "impl fmt::Display for Rect",
        "const fn build_units",
        // Raw strings are data, not code.
        r##"r#"crate::not_a_path // not a comment /* nor this */"#"##,
    ] {
        assert!(bundle.contains(kept), "`{}` missing:\n{}", kept, bundle);
    }
    assert!(bundle.starts_with("// boj-1000: one-file submission"));
    assert!(bundle.contains("fixture_lib (crates/fixture-lib), fixture_util (crates/fixture-util)"));
}

#[test]
fn bundling_is_deterministic() {
    let dir = scratch("bundle-tests", "deterministic");
    let problem = fixture("boj-1000");
    let (_, first) = bundle_into(problem.to_str().unwrap(), &dir, "first");
    let (_, second) = bundle_into(problem.to_str().unwrap(), &dir, "second");
    assert_eq!(first, second);
}

#[test]
fn check_compiles_the_fixture_bundle_and_judges_its_sample() {
    let (out, result) = bundle_check("boj-1000", "check-ok");
    let stdout = text(&result.stdout);
    assert_eq!(
        result.status.code(),
        Some(0),
        "{}{}",
        stdout,
        text(&result.stderr)
    );
    assert!(
        stdout.contains("compiled alone with rustc --edition 2021 -O"),
        "{}",
        stdout
    );
    assert!(stdout.contains("1/1 AC"), "{}", stdout);
    assert!(out.with_file_name("boj-1000.check/Main").is_file());
}

#[test]
fn check_names_the_lines_of_syntax_newer_than_rust_1_56() {
    let (out, result) = bundle_check("boj-1001", "check-syntax");
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "{}", stderr);
    let bundle = fs::read_to_string(&out).unwrap();
    let line_of = |needle: &str| {
        bundle
            .lines()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no `{}` in:\n{}", needle, bundle))
            + 1
    };
    let let_else = format!(
        "{}:{}: let-else (Rust 1.65)",
        out.display(),
        line_of("else {")
    );
    let inline = format!(
        "{}:{}: inline format argument `{{sum}}` (Rust 1.58)",
        out.display(),
        line_of("{sum}")
    );
    assert!(
        stderr.contains(&let_else),
        "{}\nwanted: {}",
        stderr,
        let_else
    );
    assert!(stderr.contains(&inline), "{}\nwanted: {}", stderr, inline);
}

#[test]
fn check_shows_rustc_errors_and_fails() {
    let (_, result) = bundle_check("boj-1002", "check-broken");
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{}", stderr);
    assert!(
        stderr.contains("error[E0308]: mismatched types"),
        "{}",
        stderr
    );
    assert!(stderr.contains("NOT a valid submission"), "{}", stderr);
    assert!(!text(&result.stdout).contains("AC"));
}

#[test]
fn the_check_compiles_the_bundle_alone_as_boj_does() {
    // boj-1022 reads `table.txt` beside its solution with `include_str!` and `include_bytes!`.
    // The bundle kept the macros as written, which BOJ, compiling the one file with nothing
    // beside it, rejects; the check, compiling a copy alone, refused it ("couldn't read"). Now
    // the bundle carries the table as literals: compiled alone (and never reading the
    // `table.txt` that lies beside it here, which says otherwise), it is AC.
    let old = crate::support::old_rustc();
    let dir = scratch("bundle-tests", "check-alone");
    fs::write(dir.join("table.txt"), "wrong table\n").unwrap();
    let out = dir.join("boj-1022.rs");
    let problem = fixture("boj-1022");
    let mut args = vec![
        "bundle",
        problem.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--check",
    ];
    if let Some(old) = &old {
        args.extend(["--rustc", old.to_str().unwrap()]);
    }
    let stdout = assert_success_saying(&xtask(&args), "1/1 AC");
    if old.is_some() {
        assert!(stdout.contains("(rustc 1.63"), "{stdout}");
    }
    let bundle = fs::read_to_string(&out).unwrap();
    assert!(!bundle.contains("include_"), "{bundle}");
    let table = fs::read_to_string(problem.join("src/table.txt")).unwrap();
    let literal = format!("{table:?}");
    assert!(
        bundle.contains(&format!("= {literal};")),
        "{literal}: {bundle}"
    );
    assert!(
        bundle.contains(&format!("b{literal}.len()")),
        "{literal}: {bundle}"
    );
}

#[test]
fn included_files_are_carried_byte_for_byte_relative_to_the_file_that_includes_them() {
    // boj-1023's `src/tables.rs` includes `data/bytes.bin` (`src/data/`, beside the file, not
    // `src/tables/`, where its module's children live): every byte value, NUL before a digit, CR
    // LF, a quote, a backslash. `src/tables/text.rs` includes text beside itself, with escapes
    // and non-ASCII; the library fixture-include's `src/words/mod.rs` includes
    // `../../data/words.txt`. The sample's answer is worked out here from the files themselves,
    // and the bundle, compiled alone (by the old rustc too, when there is one), prints it.
    let problem = fixture("boj-1023");
    let bytes = fs::read(problem.join("src/data/bytes.bin")).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the bytes are meant to be no UTF-8"
    );
    let text = fs::read_to_string(problem.join("src/tables/text.txt")).unwrap();
    assert!(text.contains("\r\n") && text.contains('\0') && !text.is_ascii());
    let words = fs::read_to_string(problem.join("../../crates/fixture-include/data/words.txt"))
        .unwrap()
        .split_whitespace()
        .count();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        fs::read_to_string(problem.join("samples/1.out")).unwrap(),
        format!("{hex}\n{text:?}\n{words}\n")
    );
    let bundle = bundle_passes(&problem, "include-bytes");
    assert!(!bundle.contains("include_"), "{bundle}");
    // The macro's own type: an array of the file's length.
    assert!(
        bundle.contains(&format!("BYTES: &[u8; {}] = b\"", bytes.len())),
        "{bundle}"
    );
}

#[test]
fn an_edit_of_an_included_file_is_carried_by_the_next_bundle() {
    // The solution as read is kept between runs, keyed by every file its reading read: the
    // included table is one of them.
    let copy = crate::support::fixture_copy("bundle-fixture", "include-edited");
    let problem = copy.join("problems/boj-1022");
    let dir = scratch("bundle-tests", "include-edited");
    let (_, before) = bundle_into(problem.to_str().unwrap(), &dir, "before");
    assert!(before.contains("\"seven eight\\n\""), "{before}");
    fs::write(problem.join("src/table.txt"), "nine ten eleven\n").unwrap();
    let (_, after) = bundle_into(problem.to_str().unwrap(), &dir, "after");
    assert!(after.contains("\"nine ten eleven\\n\""), "{after}");
    assert!(!after.contains("seven"), "{after}");
}

#[test]
fn an_include_the_bundle_cannot_carry_is_refused_naming_the_file_the_line_and_the_reason() {
    let copy = crate::support::fixture_copy("bundle-fixture", "include-refused");
    let problem = copy.join("problems/boj-1022");
    let main = problem.join("src/main.rs");
    let table = problem.join("src/table.txt");
    let written = fs::read_to_string(&main).unwrap();
    let as_written = "include_str!(\"table.txt\")";
    fs::write(problem.join("src/table.bin"), b"seven \xff\n").unwrap();
    let dir = scratch("bundle-tests", "include-refused");
    // (case, whether table.txt is there, the call on line 4 instead, the call as the refusal
    // says it, why)
    for (case, table_there, instead, said, reason) in [
        (
            "a file that is not there",
            false,
            as_written,
            as_written,
            "reads TABLE, which cannot be read (",
        ),
        (
            "a path that is no literal",
            true,
            "include_str!(concat!(\"table\", \".txt\"))",
            "include_str!(concat ! (\"table\" , \".txt\"))",
            "has a path that is no plain string literal",
        ),
        (
            "a file that is no UTF-8",
            true,
            "include_str!(\"table.bin\")",
            "include_str!(\"table.bin\")",
            "is not UTF-8 (byte 6 is not)",
        ),
        (
            "Rust source",
            true,
            "include!(\"table.txt\")",
            "include!(\"table.txt\")",
            "includes Rust source, which the bundler does not carry",
        ),
    ] {
        fs::write(&main, written.replace(as_written, instead)).unwrap();
        let away = problem.join("src/table.away");
        if !table_there {
            fs::rename(&table, &away).unwrap();
        }
        let stderr = refused_at(&problem, &dir);
        if !table_there {
            fs::rename(&away, &table).unwrap();
        }
        let at = format!("{}:4: `{said}` ", main.display());
        assert!(stderr.contains(&at), "{case}: {stderr}\nwanted: {at}");
        let reason = reason.replace("TABLE", &table.display().to_string());
        assert!(
            stderr.contains(&reason),
            "{case}: {stderr}\nwanted: {reason}"
        );
        assert!(!stderr.contains("panicked"), "{case}: {stderr}");
    }
}

#[test]
fn a_librarys_include_that_cannot_be_carried_refuses_the_bundle_where_the_solution_reaches_it() {
    let copy = crate::support::fixture_copy("bundle-fixture", "include-library");
    let words = copy.join("crates/fixture-include/data/words.txt");
    fs::remove_file(&words).unwrap();
    let dir = scratch("bundle-tests", "include-library");
    let stderr = refused_at(&copy.join("problems/boj-1023"), &dir);
    let module = copy.join("crates/fixture-include/src/words/mod.rs");
    for said in [
        "cannot read crate fixture-include 0.1.0".to_string(),
        format!(
            "{}:5: `include_str!(\"../../data/words.txt\")` reads",
            module.display()
        ),
        format!("reads {}, which cannot be read", words.display()),
        "the solution reaches it: main → fixture_include".to_string(),
    ] {
        assert!(stderr.contains(&said), "{stderr}\nwanted: {said}");
    }
}

#[test]
fn a_solution_within_512_kb_is_not_refused_for_the_bundles_layout() {
    // A precomputed table, as BOJ solutions hold: 400 KB as written, one `d,` a value. Printed
    // `d, ` a value, it was a 600 KB bundle, refused as over BOJ's 512 KB,
    // though the solution pasted as it is fits. Over the limit, the bundle is now printed
    // compactly (its tokens, spaced only where they must be) and fits.
    let copy = crate::support::fixture_copy("bundle-fixture", "table-size");
    let problem = copy.join("problems/boj-1000");
    let values: Vec<String> = (0..200_000u32).map(|i| (i * 7 % 10).to_string()).collect();
    fs::write(
        problem.join("src/main.rs"),
        format!(
            "//! A table.\nstatic T: [u8; {}] = [{}];\n\nfn main() {{\n    let s: u32 = \
             T.iter().map(|&d| d as u32).sum();\n    println!(\"{{}} {{}}\", s, T[12_345]);\n}}\n",
            values.len(),
            values.join(",")
        ),
    )
    .unwrap();
    let sum: u32 = (0..200_000u32).map(|i| i * 7 % 10).sum();
    fs::write(
        problem.join("samples/1.out"),
        format!("{sum} {}\n", 12_345 * 7 % 10),
    )
    .unwrap();
    let (out, result) = bundle_check_at(&problem, "table-size");
    let (stdout, stderr) = (text(&result.stdout), text(&result.stderr));
    assert_eq!(result.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("1/1 AC"), "{stdout}");
    let bundle = fs::read(&out).unwrap();
    assert!(bundle.len() <= 512 * 1024, "{} bytes", bundle.len());
}

#[test]
fn a_warning_that_will_become_a_hard_error_fails_the_check() {
    // rustc 1.95 warns of `#[automatically_derived]` on an inherent impl: "previously accepted
    // ... will become a hard error in a future release". BOJ's rustc may be that release.
    let copy = crate::support::fixture_copy("bundle-fixture", "future-error");
    let problem = copy.join("problems/boj-1000");
    edit(
        &problem.join("src/main.rs"),
        "fn main() {",
        "struct Marker;\n#[automatically_derived]\nimpl Marker {\n    fn zero() -> i64 {\n        \
         0\n    }\n}\n\nfn main() {\n    let _ = Marker::zero();",
    );
    let (out, result) = bundle_check_at(&problem, "future-error");
    let (stdout, stderr) = (text(&result.stdout), text(&result.stderr));
    assert_eq!(result.status.code(), Some(1), "{stdout}{stderr}");
    let bundle = fs::read_to_string(&out).unwrap();
    let line = bundle
        .lines()
        .position(|l| l.contains("#[automatically_derived]"))
        .unwrap()
        + 1;
    let said = format!("error: {}: rustc 1.", out.display());
    let warned = format!(
        "warns: `#[automatically_derived]` attribute cannot be used on inherent impl blocks (at \
         {}:{line}:1), which will become a hard error in a future release",
        out.display()
    );
    assert!(
        stderr.contains(&said) && stderr.contains(&warned),
        "{stderr}"
    );
    // The samples are judged all the same: the bundle answers, but is no submission.
    assert!(stdout.contains("1/1 AC"), "{stdout}");
    // A `--bundled` run refuses to judge it, saying the same.
    let result = xtask(&["test", problem.to_str().unwrap(), "--bundled"]);
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("which will become a hard error"),
        "{stderr}"
    );
}

// ---------------------------------------------------------------------------------------------
// The real problems.

/// The workspace's judge-profile binaries, built once per test run in a target folder of their
/// own (so the build never waits on the `cargo test` that runs us).
fn workspace_binaries() -> &'static [(Problem, Executables)] {
    static BUILT: OnceLock<Vec<(Problem, Executables)>> = OnceLock::new();
    BUILT.get_or_init(|| {
        crate::support::use_xtask_launcher();
        let root = workspace::project_root().unwrap();
        let problems: Vec<Problem> = ["boj-2239", "boj-2580"]
            .iter()
            .map(|p| problem::resolve(&root, p).unwrap())
            .collect();
        let options = BuildOptions {
            target_dir: Some(target_dir("bundle-ws-target")),
            quiet: true,
            ..BuildOptions::default()
        };
        let exes = build::build(&problems, &options).expect("cargo build of the problems");
        problems.into_iter().zip(exes).collect()
    })
}

/// Compiles `source` as BOJ does: `rustc --edition 2021 -O -o Main`, nothing else.
fn rustc(source: &Path, dir: &Path) -> PathBuf {
    let exe = dir.join("Main");
    let out = Command::new("rustc")
        .args(["--edition", "2021", "-O", "-o"])
        .arg(&exe)
        .arg(source)
        .output()
        .expect("run rustc");
    assert!(
        out.status.success(),
        "rustc rejected {}:\n{}",
        source.display(),
        text(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "rustc warned on {}:\n{}",
        source.display(),
        text(&out.stderr)
    );
    exe
}

fn run(exe: &Path, input: &str) -> String {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{} failed on\n{}{}",
        exe.display(),
        input,
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// BOJ's comparison: trailing whitespace per line and trailing blank lines do not count.
fn normalise(output: &str) -> String {
    let lines: Vec<&str> = output.lines().map(str::trim_end).collect();
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    lines[..end].join("\n")
}

fn digits(grid: &str) -> Vec<u8> {
    grid.bytes()
        .filter(|b| b.is_ascii_digit() || *b == b'.')
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect()
}

/// An independent check: `output` is a full, valid grid that keeps every given of `puzzle`.
fn assert_solves(puzzle: &[u8], output: &str) {
    let grid = digits(output);
    assert_eq!(grid.len(), 81, "not a grid: {}", output);
    for (i, (&p, &g)) in puzzle.iter().zip(&grid).enumerate() {
        assert!((1..=9).contains(&g), "cell {} empty in {}", i, output);
        assert!(p == 0 || p == g, "given {} changed in {}", i, output);
    }
    for unit in 0..9 {
        let mut seen = [[false; 10]; 3];
        for k in 0..9 {
            let cells = [
                unit * 9 + k,
                k * 9 + unit,
                (unit / 3 * 3 + k / 3) * 9 + unit % 3 * 3 + k % 3,
            ];
            for (s, &c) in seen.iter_mut().zip(&cells) {
                assert!(!s[grid[c] as usize], "unit {} repeats in {}", unit, output);
                s[grid[c] as usize] = true;
            }
        }
    }
}

/// A puzzle line in the problem's input format.
fn as_input(puzzle: &[u8], spaced: bool) -> String {
    let mut s = String::new();
    for row in puzzle.chunks(9) {
        let cells: Vec<String> = row.iter().map(u8::to_string).collect();
        s.push_str(&cells.join(if spaced { " " } else { "" }));
        s.push('\n');
    }
    s
}

fn puzzles() -> Vec<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/puzzles/sample.txt");
    let text = fs::read_to_string(path).unwrap();
    let puzzles: Vec<Vec<u8>> = text.lines().map(digits).collect();
    assert_eq!(puzzles.len(), 200);
    assert!(puzzles.iter().all(|p| p.len() == 81));
    puzzles
}

/// Bundles `name`, compiles it with plain rustc, runs samples and the 200 puzzles through both
/// the bundle and the workspace binary.
fn real_bundle_agrees(name: &str, spaced: bool, exact: bool) {
    let dir = scratch("bundle-tests", name);
    let (source, bundle) = bundle_into(name, &dir, name);
    assert!(bundle.len() < 512 * 1024);
    for gone in ["#[test]", "cfg(test)", "#[doc", "///", "//!"] {
        assert!(!bundle.contains(gone), "`{}` survived in {}", gone, name);
    }
    let exe = rustc(&source, &dir);
    let (problem, built) = workspace_binaries()
        .iter()
        .find(|(p, _)| p.name == name)
        .unwrap();

    let samples = problem.samples().unwrap();
    assert!(!samples.is_empty());
    for sample in samples {
        let input = fs::read_to_string(&sample.input).unwrap();
        let answer = fs::read_to_string(&sample.answer).unwrap();
        let got = run(&exe, &input);
        if exact {
            assert_eq!(
                normalise(&got),
                normalise(&answer),
                "{} sample {}",
                name,
                sample.name
            );
        } else {
            assert_solves(&digits(&input), &got);
        }
    }

    for puzzle in puzzles() {
        let input = as_input(&puzzle, spaced);
        let got = run(&exe, &input);
        let want = run(&built.solver, &input);
        // 2239's answer is unique (the smallest solution); 2580 accepts any valid one.
        if exact {
            assert_eq!(
                got, want,
                "{}: bundle and workspace binary differ on\n{}",
                name, input
            );
        } else {
            assert_solves(&puzzle, &want);
        }
        assert_solves(&puzzle, &got);
    }
}

#[test]
fn boj_2239_bundle_compiles_alone_and_matches_the_workspace_binary() {
    real_bundle_agrees("boj-2239", false, true);
}

#[test]
fn boj_2580_bundle_compiles_alone_and_matches_the_workspace_binary() {
    real_bundle_agrees("boj-2580", true, false);
}

/// The full-set comparison reported in README.md: up to `BUNDLE_FULL_PER_FILE` (default 1000)
/// puzzles from each file of the shared public sets, evenly spaced, through both bundles and both
/// workspace binaries. Needs `/work/shared/data/puzzles` (or `BUNDLE_FULL_DIR`); run with
/// `cargo test -p xtask --test it -- --ignored full_public_sets --nocapture`.
#[test]
#[ignore = "minutes long; needs the shared puzzle collection"]
fn full_public_sets() {
    let dir =
        std::env::var("BUNDLE_FULL_DIR").unwrap_or_else(|_| "/work/shared/data/puzzles".into());
    let per_file: usize = std::env::var("BUNDLE_FULL_PER_FILE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("the shared puzzle folder")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("puzzles") && !name.ends_with(".lexmin")
                || name == "named_hard"
                || name == "boj_nearcap_1e7"
        })
        .collect();
    files.sort();
    let scratch = scratch("bundle-tests", "full");
    let mut bundles = Vec::new();
    for (name, spaced) in [("boj-2239", false), ("boj-2580", true)] {
        let dir = scratch.join(name);
        fs::create_dir_all(&dir).unwrap();
        let (source, bundle) = bundle_into(name, &dir, name);
        let exe = rustc(&source, &dir);
        let built = &workspace_binaries()
            .iter()
            .find(|(p, _)| p.name == name)
            .unwrap()
            .1;
        println!("{}: bundle {} bytes", name, bundle.len());
        bundles.push((name, spaced, exe, built.solver.clone()));
    }
    let mut total = 0;
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let all: Vec<Vec<u8>> = text.lines().filter(|l| l.len() >= 81).map(digits).collect();
        let step = all.len().div_ceil(per_file).max(1);
        let chosen: Vec<&Vec<u8>> = all.iter().step_by(step).collect();
        let halves: Vec<&[&Vec<u8>]> = chosen.chunks(chosen.len().div_ceil(2).max(1)).collect();
        std::thread::scope(|s| {
            for half in halves {
                let bundles = &bundles;
                s.spawn(move || {
                    for puzzle in half {
                        for (name, spaced, exe, solver) in bundles {
                            let input = as_input(puzzle, *spaced);
                            let got = run(exe, &input);
                            let want = run(solver, &input);
                            assert_eq!(got, want, "{}: differs on\n{}", name, input);
                            assert_solves(puzzle, &got);
                        }
                    }
                });
            }
        });
        println!(
            "{}: {} of {} puzzles, bundles = workspace binaries (both problems)",
            file.file_name().unwrap().to_string_lossy(),
            chosen.len(),
            all.len()
        );
        total += chosen.len();
    }
    println!(
        "total: {} puzzles x 2 problems, all identical and valid",
        total
    );
}

// ---------------------------------------------------------------------------------------------
// Crates with features, old editions, dependencies of dependencies, older compilers.

/// `bundle PROBLEM -o DIR/NAME.rs --check [--rustc OLD]`: the run and the bundle's text.
fn bundle_checked(problem: &Path, test: &str, old: Option<&Path>) -> (Output, String) {
    let dir = scratch("bundle-tests", test);
    let out = dir.join("bundle.rs");
    let mut args = vec![
        "bundle",
        problem.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--check",
    ];
    if let Some(old) = old {
        args.extend(["--rustc", old.to_str().unwrap()]);
    }
    let result = xtask(&args);
    let bundle = fs::read_to_string(&out).unwrap_or_default();
    (result, bundle)
}

/// [`bundle_checked`] with the old rustc when there is one: the check passes (compiled by each
/// compiler, its one sample AC). Returns the bundle's text.
fn bundle_passes(problem: &Path, test: &str) -> String {
    bundle_passes_saying(problem, test).1
}

/// [`bundle_passes`], with what the run printed: (stdout, bundle).
fn bundle_passes_saying(problem: &Path, test: &str) -> (String, String) {
    let old = crate::support::old_rustc();
    let (result, bundle) = bundle_checked(problem, test, old.as_deref());
    let stdout = assert_success_saying(&result, "1/1 AC");
    if old.is_some() {
        assert!(stdout.contains("(rustc 1.63"), "{stdout}");
    }
    (stdout, bundle)
}

#[test]
fn features_are_decided_as_cargo_resolved_them() {
    let bundle = bundle_passes(&fixture("boj-1003"), "features");
    // `fast` (default) and `loud` (asked for by the problem) are on, `slow` off: the cfgs are
    // gone, decided, and the item behind `slow` (a compile_error!) with them.
    assert!(!bundle.contains("only_slow"), "{bundle}");
    assert!(
        !bundle.contains("feature =") && !bundle.contains("cfg"),
        "{bundle}"
    );
    assert!(
        bundle.contains("if true {"),
        "cfg!(feature = \"loud\") became true:\n{bundle}"
    );
    assert_eq!(bundle.matches("fn speed").count(), 1, "{bundle}");
}

#[test]
fn features_are_those_of_the_problems_own_judge_build_not_the_workspaces() {
    // boj-1013's dev-dependency asks fixture-features for `slow` (whose item is a
    // compile_error!): `cargo metadata` resolves it on, the judge build of the solution has
    // no dev-dependencies and does not. Made of the union, the bundle would not compile.
    let bundle = bundle_passes(&fixture("boj-1013"), "judge-build-features");
    assert!(!bundle.contains("only_slow"), "{bundle}");
    assert!(!bundle.contains("compile_error"), "{bundle}");
}

#[test]
fn a_2015_crate_and_its_own_dependency_are_carried_into_the_2021_bundle() {
    // The sample's answer (1/1 AC) is what the 2015 crate computes under cargo (1 + 4 + 9, and
    // the patterns), so the meaning survived.
    let bundle = bundle_passes(&fixture("boj-1004"), "edition-2015");
    for kept in [
        "mod fixture_util {",
        "use crate::fixture_old::shapes::{Shape, Square};",
        "Box<dyn Shape>",
        "$p:pat_param | $q:pat_param",
        "either_pattern!(n, 0..= 1 | 2)",
        "[1, 2, 3].iter()",
        "panic!(\"{}\", message)",
        "crate::fixture_util::clamp(sum, 0, 1000)",
    ] {
        assert!(bundle.contains(kept), "`{kept}` missing:\n{bundle}");
    }
    for gone in ["unused_old", "unused_shape", "unused_util", "extern crate"] {
        assert!(!bundle.contains(gone), "`{gone}` survived:\n{bundle}");
    }
}

#[test]
fn an_older_rustc_given_with_rustc_judges_what_the_syntax_scan_cannot_see() {
    let Some(old) = crate::support::old_rustc() else {
        return;
    };
    let problem = fixture("boj-1005");
    // Today's rustc takes it: without --rustc the bundle is good.
    let (result, _) = bundle_checked(&problem, "new-std-today", None);
    assert_eq!(result.status.code(), Some(0), "{}", text(&result.stderr));
    // Rust 1.63 has no `Option::is_some_and`: exit 2, with that compiler's version and words.
    let (result, _) = bundle_checked(&problem, "new-std-old-rustc", Some(&old));
    assert_eq!(result.status.code(), Some(2));
    let stderr = text(&result.stderr);
    assert!(
        stderr.contains("/usr/bin/rustc --edition 2021 -O"),
        "{stderr}"
    );
    assert!(stderr.contains("rustc 1.63"), "{stderr}");
    assert!(stderr.contains("is_some_and"), "{stderr}");
    assert!(stderr.contains("NOT a valid submission"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// A user's own macros, build scripts, and keeping more when pruning breaks a bundle (issue 31).

#[test]
fn a_users_exported_macros_work_through_use_by_path_and_beside_a_namesake() {
    // `use algo::read_vals;` at the root and in a nested module, `algo::square!` by path beside
    // `fixture_lib::square!` (imported): the sample's answer needs each macro to be its own.
    let bundle = bundle_passes(&fixture("boj-1006"), "user-macros");
    for kept in [
        "use algo::read_vals;",
        "use fixture_lib::square;",
        "use crate::algo::sum_all;",
        // Each crate's macro has a name of its own in the bundle and is re-exported under its
        // own name by its crate's module.
        "macro_rules! __algo__read_vals",
        "macro_rules! __algo__square",
        "macro_rules! __fixture_lib__square",
        "pub use crate::__algo__square as square;",
        "pub use crate::__fixture_lib__square as square;",
        // `read_vals!` reaches its helper through `$crate`.
        "$crate::algo::__parse!",
        "pub use crate::__algo____parse as __parse;",
        // `algo::cube` calls `square!` by its bare name: spelled out as the path to its
        // crate's re-export, the one macro it meant.
        "let (_, squared) = crate::algo::square!(x);",
    ] {
        assert!(bundle.contains(kept), "`{kept}` missing:\n{bundle}");
    }
    // No `macro_rules! square` at all: each is renamed apart, and no forwarder is needed.
    assert_eq!(bundle.matches("macro_rules! square").count(), 0, "{bundle}");
    // `call!` is not used, nor is `Meters`.
    for gone in ["__algo__call", "Meters", "__macros"] {
        assert!(!bundle.contains(gone), "`{gone}` survived:\n{bundle}");
    }
}

#[test]
fn a_solutions_own_macros_in_its_own_modules_are_kept() {
    // `#[macro_use] mod macros;` (`add!`), `#[macro_use] mod fastio;` (a `println!` of its own
    // that buffers, whose sample answer counts the lines it buffered: with std's `println!` in
    // its place the bundle prints `0 lines`), and `twice!` defined at the root above the
    // `mod doubling;` that calls it. Each module's macros were once taken for a library's,
    // and left out.
    let bundle = bundle_passes(&fixture("boj-1018"), "own-macros");
    for kept in [
        "macro_rules! add",
        "macro_rules! println",
        "macro_rules! twice",
        "#[macro_use]\nmod fastio",
    ] {
        assert!(bundle.contains(kept), "`{kept}` missing:\n{bundle}");
    }
    assert!(!bundle.contains("macro_rules! unused"), "{bundle}");
}

#[test]
fn macro_use_extern_crate_brings_the_macros_into_every_module() {
    let bundle = bundle_passes(&fixture("boj-1007"), "macro-use");
    assert!(!bundle.contains("extern crate"), "{bundle}");
    assert_eq!(
        bundle.matches("use crate::algo::__macros::*;").count(),
        2,
        "the root and `nested`:\n{bundle}"
    );
    assert!(
        bundle.contains("pub mod __macros {"),
        "the macros' module:\n{bundle}"
    );
}

/// `bundle --check` of `problem`, whose `doubled` is called only as `call!(length, doubled)`:
/// pruned item by item, the bundle does not compile (rustc's E0599 is in what the bundler
/// says); keeping `kept` (the bundler's words) compiles, and the sample is AC, with `halved`,
/// used nowhere, come along.
fn keeps_more_where_pruning_broke_the_bundle(problem: &str, test: &str, kept: &str) {
    let (stdout, bundle) = bundle_passes_saying(&fixture(problem), test);
    assert!(
        stdout.contains(&format!("{problem}: kept {kept}")),
        "{stdout}"
    );
    assert!(
        stdout.contains("error[E0599]: no method named `doubled`"),
        "{stdout}"
    );
    for kept in ["fn doubled", "fn halved"] {
        assert!(bundle.contains(kept), "`{kept}` missing:\n{bundle}");
    }
}

#[test]
fn when_pruning_breaks_a_bundle_it_keeps_whole_modules_and_says_why() {
    // `call!` is algo's: the whole module of algo that it uses.
    keeps_more_where_pruning_broke_the_bundle(
        "boj-1008",
        "fallback",
        "every item of the modules of algo it uses",
    );
    // The other fixtures needed no fallback.
    let (_, result) = bundle_check("boj-1000", "no-fallback");
    assert!(!text(&result.stdout).contains("kept every item"));
}

#[test]
fn when_pruning_breaks_a_bundle_without_libraries_it_keeps_more_of_the_solution() {
    // boj-1019 has no library: `call!` is its own macro, so the solution's own modules whole.
    keeps_more_where_pruning_broke_the_bundle(
        "boj-1019",
        "fallback-solution",
        "every item of the modules of the solution it uses",
    );
}

#[test]
fn a_build_script_that_only_decides_cfgs_is_bundled_with_them_decided() {
    // Plain rustc sets no `fixture_fast`: undecided, the bundle would print `slow slow mode`.
    let bundle = bundle_passes(&fixture("boj-1009"), "cfg-build-script");
    assert!(bundle.contains("\"fast\""), "{bundle}");
    assert!(!bundle.contains("\"slow\""), "{bundle}");
    assert!(!bundle.contains("fixture_fast"), "{bundle}");
    assert!(bundle.contains("if true {"), "{bundle}");
    // A cfg the script did not set is off: BOJ's rustc, given no `--cfg`, does not set it.
    assert!(bundle.contains("} else if false {"), "{bundle}");
}

#[test]
fn build_scripts_that_do_more_than_decide_cfgs_are_refused_with_the_reason() {
    let dir = scratch("bundle-tests", "refused-build-scripts");
    for (problem, reason) in [
        (
            "boj-1010",
            "crate fixture-codegen 0.1.0 has a build script that generates code",
        ),
        (
            "boj-1011",
            "crate fixture-env 0.1.0 has a build script that sets `FIXTURE_GREETING`, which \
             the crate reads",
        ),
        (
            "boj-1012",
            "crate fixture-native 0.1.0 has a build script that links the native library \
             `fixturenative`",
        ),
    ] {
        let stderr = refused(problem, &dir);
        assert!(stderr.contains(reason), "{problem}: {stderr}");
    }
}

#[test]
fn the_solutions_own_build_script_cfgs_are_decided_as_it_set_them() {
    // boj-1020's own build script sets `own_fast`; plain rustc runs no build script, so the
    // bundle, left with the `cfg`, printed `off false` where the crate build prints `on true`.
    let bundle = bundle_passes(&fixture("boj-1020"), "own-build-script-cfg");
    assert!(!bundle.contains("own_fast"), "{bundle}");
    assert_eq!(bundle.matches("fn mode").count(), 1, "{bundle}");
}

#[test]
fn the_solutions_own_build_script_setting_a_variable_it_reads_is_refused() {
    // boj-1021 reads `option_env!("OWN_GREETING")`, set by its own build script: `hello`
    // under cargo, `unset` from a plain rustc, so no bundle can mean the same.
    let dir = scratch("bundle-tests", "refused-own-build-script");
    let stderr = refused("boj-1021", &dir);
    assert!(
        stderr.contains(
            "the solution's package boj-1021 0.1.0 has a build script that sets \
             `OWN_GREETING`, which the crate reads"
        ),
        "{stderr}"
    );
}

#[test]
fn a_refused_bundle_removes_the_earlier_one_it_would_have_replaced() {
    // The bundle of an earlier run stayed at the default place, the file a user pastes into
    // BOJ, though it was no bundle of the solution as it is now.
    let earlier = target_dir("bundle-ws-target").join("bundle/boj-1021.rs");
    fs::create_dir_all(earlier.parent().unwrap()).unwrap();
    fs::write(&earlier, "fn main() {}\n").unwrap();
    let result = xtask(&["bundle", fixture("boj-1021").to_str().unwrap()]);
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{stderr}");
    assert!(!earlier.exists(), "{stderr}");
    assert!(stderr.contains("an earlier bundle"), "{stderr}");
}

/// `cargo xtask bundle FIXTURE -o DIR/FIXTURE.rs`, which must refuse (exit 2, no file
/// written): what it said.
fn refused(problem: &str, dir: &Path) -> String {
    refused_at(&fixture(problem), dir)
}

/// [`refused`] of the problem folder `problem`.
fn refused_at(problem: &Path, dir: &Path) -> String {
    let name = problem.file_name().unwrap().to_string_lossy();
    let out = dir.join(format!("{name}.rs"));
    let result = xtask(&[
        "bundle",
        problem.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(2), "{name}: {stderr}");
    assert!(!out.exists(), "{name}: a refused bundle was written");
    stderr
}

#[test]
fn a_proc_macros_item_is_expanded_never_left_out() {
    // An attribute macro on an impl no rule would keep (easy-ext's shape), and `#[fastout]`, a
    // derive and a function-like macro through a library's glob re-export (proconio's shape):
    // with the toolchain's proc-macro server, expanded, AC, and no proc-macro crate left.
    if crate::proc_macros::server().is_none() {
        return;
    }
    for problem in ["boj-1014", "boj-1015"] {
        let (result, bundle) = bundle_checked(&fixture(problem), problem, None);
        assert_success_saying(&result, "AC");
        assert!(!bundle.contains("fixture_macros"), "{problem}: {bundle}");
    }
    // Re-exported and marking an item no solution reaches: nothing to expand or refuse.
    let bundle = bundle_passes(&fixture("boj-1016"), "proc-macro-unreached");
    assert!(!bundle.contains("fixture_macros"), "{bundle}");
    assert!(!bundle.contains("fastout"), "{bundle}");
}

#[cfg(unix)]
#[test]
fn a_proc_macros_item_that_cannot_be_expanded_is_refused_by_name_never_left_out() {
    // The same two without a server (a rustc whose sysroot has none): each refused, naming
    // the item, the macro's crate and why, never left for rustc to find missing.
    if crate::proc_macros::server().is_none() {
        return;
    }
    let dir = scratch("bundle-tests", "proc-macros-without-a-server");
    let (wrapper, _) = crate::proc_macros::rustc_without_a_proc_macro_server(&dir);
    for (problem, item) in [
        ("boj-1014", "`ext` in `impl i64` in the solution"),
        ("boj-1015", "in the solution"),
    ] {
        let out = dir.join(format!("{problem}.rs"));
        let result = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["bundle", fixture(problem).to_str().unwrap(), "-o"])
            .arg(&out)
            .env("CARGO_TARGET_DIR", target_dir("bundle-no-server-target"))
            .env("RUSTC", &wrapper)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let stderr = text(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{problem}: {stderr}");
        for said in [
            item,
            "may be a macro of the proc-macro crate fixture-macros 0.1.0, which needs expanding",
            "the toolchain's proc-macro server is missing",
        ] {
            assert!(stderr.contains(said), "{problem}: no {said:?} in {stderr}");
        }
        assert!(!out.exists(), "{problem}: a refused bundle was written");
    }
}

#[test]
fn a_safe_fn_foreign_item_is_bundled_as_its_tokens_and_ac() {
    // Rust 1.82's `unsafe extern "C" { pub safe fn abs(i: i32) -> i32; }`, which syn keeps as
    // tokens and prettyplease would panic on (`not implemented: ForeignItem::Verbatim`). The
    // problem's `rust-version = "1.82"` says its judge is that new, so the check lets the
    // syntax be (Debian's 1.63 cannot compile it, so only this toolchain's rustc is asked).
    let (result, bundle) = bundle_checked(&fixture("boj-1017"), "safe-fn", None);
    assert_success_saying(&result, "1/1 AC");
    assert!(bundle.contains("unsafe extern \"C\" {"), "{bundle}");
    assert!(
        bundle.contains("pub safe fn abs (i : i32) -> i32 ;"),
        "{bundle}"
    );
}

// ---------------------------------------------------------------------------------------------
// ac-library-rs from crates.io (tests/data/acl/).

/// Makes one input of a fixture problem.
type Generator = fn(&mut Rng) -> String;

/// Each fixture problem, the largest its bundle may be (bytes, as written), and its inputs.
const ACL: [(&str, usize, Generator); 7] = [
    ("dsu", 6_000, dsu_input),
    ("segtree", 9_000, segtree_input),
    ("lazysegtree", 14_000, lazysegtree_input),
    ("scc", 8_000, scc_input),
    ("maxflow", 12_000, maxflow_input),
    ("string", 14_000, string_input),
    ("modint", 28_000, modint_input),
];

/// SplitMix64, for the generated inputs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

fn dsu_input(rng: &mut Rng) -> String {
    let (n, q) = (1 + rng.below(30), 1 + rng.below(60));
    let mut s = format!("{n} {q}\n");
    for _ in 0..q {
        s += &format!("{} {} {}\n", rng.below(2), rng.below(n), rng.below(n));
    }
    s
}

fn segtree_input(rng: &mut Rng) -> String {
    let (n, q) = (1 + rng.below(30), 1 + rng.below(60));
    let values: Vec<String> = (0..n)
        .map(|_| (rng.below(2_000) as i64 - 1_000).to_string())
        .collect();
    let mut s = format!("{n} {q}\n{}\n", values.join(" "));
    for _ in 0..q {
        if rng.below(2) == 0 {
            s += &format!(
                "0 {} {}\n",
                rng.below(n),
                rng.below(1_000_000_000) as i64 - 500_000_000
            );
        } else {
            let l = rng.below(n + 1);
            s += &format!("1 {l} {}\n", l + rng.below(n + 1 - l));
        }
    }
    s
}

fn lazysegtree_input(rng: &mut Rng) -> String {
    let (n, q) = (1 + rng.below(30), 1 + rng.below(60));
    let values: Vec<String> = (0..n).map(|_| rng.below(1_000).to_string()).collect();
    let mut s = format!("{n} {q}\n{}\n", values.join(" "));
    for _ in 0..q {
        let l = rng.below(n + 1);
        let r = l + rng.below(n + 1 - l);
        if rng.below(2) == 0 {
            s += &format!("0 {l} {r} {}\n", rng.below(1_000_000));
        } else {
            s += &format!("1 {l} {r}\n");
        }
    }
    s
}

fn scc_input(rng: &mut Rng) -> String {
    let (n, m) = (1 + rng.below(20), rng.below(40));
    let mut s = format!("{n} {m}\n");
    for _ in 0..m {
        s += &format!("{} {}\n", rng.below(n), rng.below(n));
    }
    s
}

fn maxflow_input(rng: &mut Rng) -> String {
    let (n, m) = (2 + rng.below(15), rng.below(50));
    let mut s = format!("{n} {m}\n");
    for _ in 0..m {
        s += &format!("{} {} {}\n", rng.below(n), rng.below(n), rng.below(100));
    }
    s
}

fn string_input(rng: &mut Rng) -> String {
    let (n, letters) = (1 + rng.below(60), 1 + rng.below(4));
    let s: String = (0..n)
        .map(|_| char::from(b'a' + rng.below(letters) as u8))
        .collect();
    s + "\n"
}

fn modint_input(rng: &mut Rng) -> String {
    let q = 1 + rng.below(20);
    let mut s = format!("{q}\n");
    for _ in 0..q {
        let n = rng.below(100_000);
        s += &format!("{n} {}\n", rng.below(n + 1));
    }
    s
}

/// The acl fixture workspace's judge-profile binaries, built once.
fn acl_binaries() -> &'static std::collections::HashMap<String, PathBuf> {
    static BUILT: OnceLock<std::collections::HashMap<String, PathBuf>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/acl");
        let problems: Vec<Problem> = ACL
            .iter()
            .map(|(name, _, _)| Problem::load(&root.join(name)).unwrap())
            .collect();
        let options = BuildOptions {
            target_dir: Some(target_dir("acl-target")),
            quiet: true,
            ..BuildOptions::default()
        };
        let exes = build::build(&problems, &options).expect("cargo build of the acl fixtures");
        ACL.iter()
            .zip(exes)
            .map(|((name, _, _), exe)| (name.to_string(), exe.solver))
            .collect()
    })
}

fn run_on(exe: &Path, input: &str) -> String {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{} failed on:\n{input}",
        exe.display()
    );
    text(&out.stdout)
}

/// Issue 21's floor: each ac-library-rs problem bundles small, compiles alone with this
/// toolchain and with Rust 1.63, and answers generated inputs exactly as cargo's build does.
#[test]
fn ac_library_rs_from_crates_io_bundles_small_compiles_on_old_rustc_and_answers_alike() {
    let old = crate::support::old_rustc();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/acl");
    for (k, (name, limit, input)) in ACL.iter().enumerate() {
        let dir = scratch("bundle-acl", name);
        let (path, bundle) = bundle_into(root.join(name).to_str().unwrap(), &dir, name);
        assert!(
            bundle.len() <= *limit,
            "{name}: {} bytes, over {limit}",
            bundle.len()
        );
        assert!(
            bundle.contains("ac_library (ac-library-rs 0.1.1 from crates.io)"),
            "{bundle}"
        );
        let mut exes = vec![rustc(&path, &dir)];
        if let Some(old) = &old {
            let old_dir = dir.join("old");
            fs::create_dir_all(&old_dir).unwrap();
            let exe = old_dir.join("Main");
            let out = Command::new(old)
                .args(["--edition", "2021", "-O", "-o"])
                .arg(&exe)
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name} with rustc 1.63:\n{}",
                text(&out.stderr)
            );
            exes.push(exe);
        }
        let cargo_built = &acl_binaries()[*name];
        let mut rng = Rng(k as u64);
        for _ in 0..25 {
            let case = input(&mut rng);
            let expected = run_on(cargo_built, &case);
            for exe in &exes {
                assert_eq!(run_on(exe, &case), expected, "{name} on:\n{case}");
            }
        }
    }
}

/// A solution's own module named like the crate it uses (`acl/namesake`: `mod ac_library;`
/// read from its file, beside ac-library-rs, which the root names `::ac_library` and a module
/// that binds nothing of the name names plainly; another module imports the solution's): the
/// crate's module goes apart as `ac_library_crate`, and the bundle compiles alone (with rustc
/// 1.63 too), is AC on its sample, and answers generated inputs as cargo's build does. The
/// bundle had two `mod ac_library`, and rustc found no `answer` in the one kept.
#[test]
fn a_solutions_own_module_named_like_its_crate_keeps_the_crate_apart_and_answers_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/acl");
    let problem = root.join("namesake");
    let (_, bundle) = bundle_passes_saying(&problem, "namesake");
    for expected in [
        "// Crates bundled as modules: ac_library_crate (ac-library-rs 0.1.1 from crates.io).\n\
         // `ac_library_crate` is the crate `ac_library`, renamed: the solution's root has \
         another `ac_library`.\n",
        "use crate::ac_library_crate::Dsu;",
        "mod ac_library {\n    pub fn answer(",
        "mod joins {\n    use crate::ac_library_crate::dsu::Dsu;",
        "mod answers {\n    use crate::ac_library;",
        "        ac_library::answer(same)",
        "out.push_str(&ac_library::summary(",
        "mod ac_library_crate {",
    ] {
        assert!(bundle.contains(expected), "`{expected}` missing:\n{bundle}");
    }
    let dir = scratch("bundle-acl", "namesake");
    let path = dir.join("namesake.rs");
    fs::write(&path, &bundle).unwrap();
    let bundled = rustc(&path, &dir);
    let options = BuildOptions {
        target_dir: Some(target_dir("acl-target")),
        quiet: true,
        ..BuildOptions::default()
    };
    let problems = [Problem::load(&problem).unwrap()];
    let exes = build::build(&problems, &options).expect("cargo build of acl/namesake");
    let mut rng = Rng(7);
    for _ in 0..25 {
        let case = dsu_input(&mut rng);
        let expected = run_on(&exes[0].solver, &case);
        assert_eq!(run_on(&bundled, &case), expected, "on:\n{case}");
    }
}

/// What pruning leaves of the library: a `Dsu` solution carries the union-find and nothing of
/// the other modules the library re-exports beside it.
#[test]
fn a_dsu_solution_carries_the_dsu_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/acl");
    let dir = scratch("bundle-acl", "dsu-alone");
    let (_, bundle) = bundle_into(root.join("dsu").to_str().unwrap(), &dir, "dsu");
    assert!(bundle.contains("pub struct Dsu"), "{bundle}");
    for gone in [
        "convolution",
        "fenwick",
        "Segtree",
        "LazySegtree",
        "ModInt",
        "MfGraph",
        "SccGraph",
        "suffix_array",
        "fn groups",
        "macro_rules",
    ] {
        assert!(!bundle.contains(gone), "`{gone}` survived:\n{bundle}");
    }
    // Of the library's two dozen re-exports, the one `main` goes through.
    assert_eq!(bundle.matches("pub use").count(), 1, "{bundle}");
    assert!(bundle.contains("pub use dsu::Dsu;"), "{bundle}");
}

/// What a bundle learnt is kept in `<target>/bundle/cache/` and used again, and no edit that
/// changes the bundle is ever answered from it: a library's file (a path crate, kept by its
/// files' contents), a new module file of it, the solution's `main.rs`; and a cache filled with
/// garbage is no cache. Each bundle equals the one made with no cache at all.
#[test]
fn what_a_bundle_learnt_is_kept_and_never_outlives_what_decided_it() {
    let root = crate::support::fixture_copy("bundle-fixture", "cache-workspace");
    let out = scratch("bundle-tests", "cache-out");
    let target = target_dir("bundle-cache-target");
    let problem = root.join("problems/boj-1000");
    let bundle = |name: &str| -> String {
        let file = out.join(format!("{name}.rs"));
        let result = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["bundle", problem.to_str().unwrap(), "-o"])
            .arg(&file)
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap();
        assert!(result.status.success(), "{}", text(&result.stderr));
        fs::read_to_string(&file).unwrap()
    };
    let cache = target.join("bundle/cache");
    let uncached = |name: &str| -> String {
        let _ = fs::remove_dir_all(&cache);
        bundle(name)
    };

    let first = uncached("first");
    for kind in ["builds", "crates", "checks"] {
        let entries = fs::read_dir(cache.join(kind)).map_or(0, |d| d.count());
        assert!(entries > 0, "nothing kept in {kind}: {:?}", listing(&cache));
    }
    assert_eq!(bundle("again"), first, "a bundle from the cache differs");

    let lib = root.join("crates/fixture-lib/src/lib.rs");
    edit(&lib, "checked(a + b)", "checked(b + a)");
    let edited_lib = bundle("edited-lib");
    assert!(edited_lib.contains("checked(b + a)"), "{edited_lib}");
    assert_eq!(edited_lib, uncached("edited-lib-uncached"));

    // A module moved from `parse.rs` to `parse/mod.rs` with a change: the new file is read.
    let parse = root.join("crates/fixture-lib/src/parse.rs");
    let moved = fs::read_to_string(&parse)
        .unwrap()
        .replace("split_whitespace", "split_ascii_whitespace");
    bundle("before-move");
    fs::remove_file(&parse).unwrap();
    fs::create_dir_all(parse.with_extension("")).unwrap();
    fs::write(parse.with_extension("").join("mod.rs"), moved).unwrap();
    let after_move = bundle("after-move");
    assert!(
        after_move.contains("split_ascii_whitespace"),
        "{after_move}"
    );
    assert_eq!(after_move, uncached("after-move-uncached"));

    let main = problem.join("src/main.rs");
    edit(
        &main,
        "println!(\"{}\", report::total(&values));",
        "println!(\"{}\", report::total(&values) + 0);",
    );
    let edited_main = bundle("edited-main");
    assert!(
        edited_main.contains("report::total(& values) + 0"),
        "{edited_main}"
    );
    assert_eq!(edited_main, uncached("edited-main-uncached"));

    for entry in walkdir::WalkDir::new(&cache) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            fs::write(entry.path(), "{\"key\": garbage").unwrap();
        }
    }
    assert_eq!(bundle("garbage"), edited_main);
}

/// A relative `CARGO_TARGET_DIR` names a folder of the caller's current one, as cargo reads it:
/// the bundler's build and its cache go there, and no target folder appears in the problem's
/// (cargo metadata, run in the problem's folder, was given the relative path and named one
/// there, where the cache then went).
#[test]
fn a_relative_target_folder_is_read_from_where_the_bundler_was_started() {
    let root = crate::support::fixture_copy("bundle-fixture", "relative-target");
    let out = scratch("bundle-tests", "relative-target-out").join("bundle.rs");
    let result = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["bundle", "problems/boj-1000", "-o"])
        .arg(&out)
        .current_dir(&root)
        .env("CARGO_TARGET_DIR", "relative-target")
        .output()
        .unwrap();
    assert!(result.status.success(), "{}", text(&result.stderr));
    let cache = root.join("relative-target/bundle/cache/builds");
    let kept = fs::read_dir(&cache).map_or(0, |d| d.count());
    assert!(kept > 0, "nothing kept in {}", cache.display());
    let strays: Vec<String> = listing(&root)
        .into_iter()
        .filter(|p| p.ends_with("relative-target") && p != "relative-target")
        .collect();
    assert!(strays.is_empty(), "{strays:?}");
}
