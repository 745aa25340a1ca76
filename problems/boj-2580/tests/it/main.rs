//! End-to-end tests of boj-2580 and its checker: every sample solved validly (judged by the
//! core's validator and by the checker), bad input rejected cleanly, and the checker's verdicts
//! and exit statuses.

// Test code is never submitted to BOJ, so it may use std newer than the crate's rust-version.
#![allow(clippy::incompatible_msrv)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sudoku_core::{check_solution, Format, Grid};

fn run(input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boj-2580"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start boj-2580");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn checker(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boj-2580-checker"))
        .args(args)
        .output()
        .expect("start the checker")
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map_or(false, |e| e == "in"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 4, "{} samples", inputs.len());
    inputs
}

/// A scratch file under cargo's per-test temporary folder.
fn scratch(name: &str, contents: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn every_sample_is_solved_validly_and_the_checker_accepts_it() {
    for input in samples() {
        let text = std::fs::read_to_string(&input).unwrap();
        let output = run(text.as_bytes());
        assert!(output.status.success(), "{}: {:?}", input.display(), output);
        let stdout = String::from_utf8(output.stdout).unwrap();
        let puzzle = Grid::parse(&text).unwrap();
        let answer = Grid::parse_as(&stdout, Format::Spaced).expect("spaced output");
        assert_eq!(
            check_solution(&puzzle, &answer),
            Ok(()),
            "{}",
            input.display()
        );

        let name = input.file_name().unwrap().to_string_lossy().to_string();
        let actual = scratch(&format!("{}.actual", name), stdout.as_bytes());
        let verdict = checker(&[&input, &input.with_extension("out"), &actual]);
        assert_eq!(
            verdict.status.code(),
            Some(0),
            "{}: {:?}",
            input.display(),
            verdict
        );
        // The model answer itself is a valid completion too.
        let model = checker(&[
            &input,
            &input.with_extension("out"),
            &input.with_extension("out"),
        ]);
        assert_eq!(
            model.status.code(),
            Some(0),
            "{}: {:?}",
            input.display(),
            model
        );
    }
}

#[test]
fn checker_rejects_wrong_answers_with_a_reason() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/1.in");
    let answer = input.with_extension("out");
    let good = std::fs::read_to_string(&answer).unwrap();
    let swapped = {
        // Swap the first two digits of row 1: a given changes or a column repeats.
        let mut lines: Vec<String> = good.lines().map(String::from).collect();
        let row: Vec<char> = lines[0].chars().collect();
        let mut row = row.clone();
        row.swap(0, 2);
        lines[0] = row.into_iter().collect();
        lines.join("\n") + "\n"
    };
    let unspaced: String = good.lines().map(|l| l.replace(' ', "") + "\n").collect();
    let blank = good.replacen('1', "0", 1);
    let repeat = good.replacen('1', "5", 1);
    // Digits 3 and 9 swapped everywhere: still a valid grid, but the givens no longer hold.
    let given_changed: String = good
        .chars()
        .map(|c| match c {
            '3' => '9',
            '9' => '3',
            c => c,
        })
        .collect();
    for (name, text, reason) in [
        (
            "swapped",
            swapped,
            "wrong answer: 3 appears twice in column 1",
        ),
        (
            "given",
            given_changed,
            "row 1, column 2 holds 9 but the puzzle gives 3",
        ),
        ("repeat", repeat, "wrong answer: 5 appears twice in row 1"),
        ("unspaced", unspaced, "not a grid"),
        ("blank", blank, "is blank"),
        ("empty", String::new(), "empty"),
    ] {
        let output = scratch(&format!("reject-{}.txt", name), text.as_bytes());
        let verdict = checker(&[&input, &answer, &output]);
        let stderr = String::from_utf8_lossy(&verdict.stderr);
        assert_eq!(verdict.status.code(), Some(1), "{}: {}", name, stderr);
        assert!(stderr.contains(reason), "{}: {}", name, stderr);
    }
}

#[test]
fn checker_that_cannot_run_exits_2() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/1.in");
    let missing = Path::new("/nonexistent/output");
    assert_eq!(checker(&[&input]).status.code(), Some(2));
    assert_eq!(checker(&[&input, &input, missing]).status.code(), Some(2));
    let not_a_puzzle = scratch("not-a-puzzle.in", b"hello\n");
    assert_eq!(
        checker(&[&not_a_puzzle, &input, &input]).status.code(),
        Some(2)
    );
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_status_1() {
    let sample =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/1.in"))
            .unwrap();
    let edit = |row: usize, text: &str| {
        let mut lines: Vec<String> = sample.lines().map(String::from).collect();
        lines[row] = text.to_string();
        (lines.join("\n") + "\n").into_bytes()
    };
    // Row 1 leaves only a 9 for its last cell, and column 9 already has one: no clash, no
    // solution.
    let mut dead_end = String::from("1 2 3 4 5 6 7 8 0\n");
    for row in 1..9 {
        dead_end.push_str(if row == 4 {
            "0 0 0 0 0 0 0 0 9\n"
        } else {
            "0 0 0 0 0 0 0 0 0\n"
        });
    }
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", b"\n\n".to_vec(), "the input is empty"),
        ("joined", edit(1, "7 8 21 0 5 6 0 9"), "expected a space"),
        (
            "short",
            edit(1, "7 8 2 1 0 5 6 0"),
            "line 2: expected 9 cells, found 8",
        ),
        ("letter", edit(2, "0 6 0 2 7 8 1 3 q"), "line 3, column 17"),
        (
            "repeat",
            edit(0, "3 3 5 4 6 9 2 7 8"),
            "3 appears twice in row 1",
        ),
        ("unsolvable", dead_end.into_bytes(), "no solution"),
    ];
    for (name, input, message) in cases {
        let output = run(&input);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{}: {:?}", name, output);
        assert!(output.stdout.is_empty(), "{}", name);
        assert_eq!(stderr.lines().count(), 1, "{}: {}", name, stderr);
        assert!(
            stderr.starts_with("boj-2580: error: "),
            "{}: {}",
            name,
            stderr
        );
        assert!(stderr.contains(message), "{}: {}", name, stderr);
        assert!(!stderr.contains("panicked"), "{}: {}", name, stderr);
    }
}

/// The in-suite twin of `fuzz/fuzz_targets/checker.rs`: outputs made by editing a valid
/// solution (digits swapped or changed, separators and lines broken) are accepted exactly when a
/// validator written here from scratch finds 81 digits 1-9, every given kept, no unit repeated.
#[test]
fn the_checker_accepts_an_output_exactly_when_it_is_a_valid_completion() {
    const SOLUTION: &str =
        "135469278782135649469278135321546897874913526596827413917652384643781952258394761";
    let mut state = 2580u64;
    let mut below = |n: usize| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    };
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..3000 {
        let mut cells = [0u8; 81];
        for (i, digit) in SOLUTION.bytes().enumerate() {
            if below(3) == 0 {
                cells[i] = digit - b'0';
            }
        }
        let puzzle = sudoku_core::Grid::from_cells(cells).unwrap();
        let mut digits: Vec<u8> = SOLUTION.bytes().map(|b| b - b'0').collect();
        match below(4) {
            0 => {}
            // Swap two cells (sometimes a valid other solution: a swap within a unit never is).
            1 => digits.swap(below(81), below(81)),
            2 => digits[below(81)] = below(10) as u8,
            _ => {
                // Swap two digits everywhere: valid whenever no given holds either.
                let (a, b) = (1 + below(9) as u8, 1 + below(9) as u8);
                for d in &mut digits {
                    *d = if *d == a {
                        b
                    } else if *d == b {
                        a
                    } else {
                        *d
                    };
                }
            }
        }
        let mut output = String::new();
        let mut broken = false;
        for (i, d) in digits.iter().enumerate() {
            output.push(char::from(b'0' + d));
            let separator = match (i % 9 == 8, below(400)) {
                (_, 0) => '\n',
                (_, 1) => 'x',
                (true, _) => '\n',
                (false, _) => ' ',
            };
            broken |= separator != if i % 9 == 8 { '\n' } else { ' ' };
            output.push(separator);
        }
        let verdict = boj_2580::judge(&puzzle, &output);
        let valid = valid_completion(&cells, &output);
        if broken {
            // Rows broken or a stray character: never accepted as a valid grid would be.
            assert!(verdict.is_err() || valid, "{verdict:?}\n{output}");
        } else {
            assert_eq!(verdict.is_ok(), valid, "{verdict:?}\n{output}");
        }
        if verdict.is_ok() {
            accepted += 1;
        } else {
            rejected += 1;
        }
    }
    assert!(
        accepted > 300 && rejected > 300,
        "{accepted} accepted, {rejected} rejected"
    );
}

/// 81 digits 1-9 (whitespace aside, nothing else) keeping every given, each unit a permutation.
fn valid_completion(givens: &[u8; 81], output: &str) -> bool {
    let digits: Vec<u8> = output
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(10).map_or(0, |d| d as u8))
        .collect();
    if digits.len() != 81 || digits.contains(&0) {
        return false;
    }
    if (0..81).any(|i| givens[i] != 0 && givens[i] != digits[i]) {
        return false;
    }
    (0..9).all(|u| {
        let (mut row, mut column, mut square) = (0u16, 0u16, 0u16);
        for k in 0..9 {
            row |= 1 << digits[u * 9 + k];
            column |= 1 << digits[k * 9 + u];
            square |= 1 << digits[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3];
        }
        row == 0x3fe && column == 0x3fe && square == 0x3fe
    })
}
