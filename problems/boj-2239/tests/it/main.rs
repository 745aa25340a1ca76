//! End-to-end tests of the boj-2239 binary: its samples, and every kind of bad input (exit
//! status 1, nothing on stdout, one line on stderr, never a panic).

// Test code is never submitted to BOJ, so it may use std newer than the crate's rust-version.
#![allow(clippy::incompatible_msrv)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn run(input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boj-2239"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start boj-2239");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// BOJ's comparison: trailing whitespace at line ends and blank lines at the end ignored.
fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    lines.join("\n").trim_end_matches('\n').to_string()
}

#[test]
fn every_sample_prints_its_expected_output() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&samples).unwrap() {
        let input = entry.unwrap().path();
        if input.extension().map_or(true, |e| e != "in") {
            continue;
        }
        let expected = std::fs::read_to_string(input.with_extension("out")).unwrap();
        let output = run(&std::fs::read(&input).unwrap());
        assert!(output.status.success(), "{}: {:?}", input.display(), output);
        let actual = String::from_utf8(output.stdout).unwrap();
        assert_eq!(
            normalise(&actual),
            normalise(&expected),
            "{}",
            input.display()
        );
        checked += 1;
    }
    assert!(checked >= 4, "only {} samples", checked);
}

#[test]
fn other_input_formats_are_accepted_too() {
    let sample =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/1.in"))
            .unwrap();
    let expected =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/1.out"))
            .unwrap();
    let line: String = sample.lines().collect();
    let crlf_spaced: String = sample
        .lines()
        .map(|l| l.chars().map(String::from).collect::<Vec<_>>().join(" ") + " \r\n")
        .collect();
    for input in [line, crlf_spaced] {
        let output = run(input.as_bytes());
        assert!(output.status.success(), "{:?}", output);
        assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
    }
}

fn rows(edit: impl Fn(&mut Vec<String>)) -> Vec<u8> {
    let sample =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/1.in"))
            .unwrap();
    let mut lines: Vec<String> = sample.lines().map(String::from).collect();
    edit(&mut lines);
    (lines.join("\n") + "\n").into_bytes()
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_status_1() {
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", b"".to_vec(), "the input is empty"),
        (
            "eight rows",
            rows(|l| {
                l.pop();
            }),
            "expected 9 lines, found 8",
        ),
        (
            "short row",
            rows(|l| l[2].truncate(8)),
            "line 3: expected 9 cells, found 8",
        ),
        (
            "letter",
            rows(|l| l[4] = "06000x050".into()),
            "line 5, column 6",
        ),
        (
            "repeat",
            rows(|l| l[0] = "113000509".into()),
            "1 appears twice in row 1",
        ),
        (
            "unsolvable",
            rows(|l| l[0] = "103000589".into()),
            "no solution",
        ),
        ("binary", vec![0xff, 0xfe, 0x00], "column 1"),
    ];
    for (name, input, message) in cases {
        let output = run(&input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{}: {:?}", name, output);
        assert!(
            output.stdout.is_empty(),
            "{}: stdout {:?}",
            name,
            output.stdout
        );
        assert_eq!(stderr.lines().count(), 1, "{}: {}", name, stderr);
        assert!(
            stderr.starts_with("boj-2239: error: "),
            "{}: {}",
            name,
            stderr
        );
        assert!(stderr.contains(message), "{}: {}", name, stderr);
        assert!(!stderr.contains("panicked"), "{}: {}", name, stderr);
    }
}

/// The stress contract's two helpers agree with the solution: the generator's puzzles (every
/// kind, small and large sizes) are answered by the independent reference exactly as
/// by boj-2239, and the answer is a valid completion (sudoku-core's validator).
#[test]
fn the_generator_and_the_independent_reference_agree_with_the_solution() {
    use sudoku_core::{check_solution, Grid};
    let mut kinds_seen = [false; 3];
    for seed in 0..12u64 {
        for size in [1u64, 37, 100] {
            let generated = Command::new(env!("CARGO_BIN_EXE_boj-2239-gen"))
                .args([seed.to_string(), size.to_string()])
                .output()
                .unwrap();
            assert!(generated.status.success(), "{:?}", generated);
            let again = Command::new(env!("CARGO_BIN_EXE_boj-2239-gen"))
                .args([seed.to_string(), size.to_string()])
                .output()
                .unwrap();
            assert_eq!(
                generated.stdout, again.stdout,
                "the same arguments, the same input"
            );
            let mut reference = Command::new(env!("CARGO_BIN_EXE_boj-2239-brute"))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = reference.stdin.take().unwrap();
            stdin.write_all(&generated.stdout).unwrap();
            drop(stdin);
            let expected = reference.wait_with_output().unwrap();
            assert!(expected.status.success(), "seed {seed} size {size}");
            let actual = run(&generated.stdout);
            assert_eq!(
                String::from_utf8_lossy(&actual.stdout),
                String::from_utf8_lossy(&expected.stdout),
                "seed {seed} size {size}"
            );
            let puzzle = Grid::parse(&String::from_utf8_lossy(&generated.stdout)).unwrap();
            let answer = Grid::parse(&String::from_utf8_lossy(&actual.stdout)).unwrap();
            check_solution(&puzzle, &answer).unwrap();
            kinds_seen[(seed % 3) as usize] = true;
        }
    }
    assert_eq!(kinds_seen, [true; 3]);
}
