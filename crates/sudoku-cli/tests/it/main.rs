//! The `sudoku` command end to end: aligned `none` lines with reasons on stderr, exit codes,
//! output order under `--jobs`, counts with a limit, and reproducible generation.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use sudoku_core::{check_solution, count_solutions, solve_lexmin, Format, Grid};

const SAMPLE: &str =
    "103000509002109400000704000300502006060000050700803004000401000009205800804000107";

fn sudoku(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn generated(kind: &str, count: &str, seed: &str) -> Vec<String> {
    let out = sudoku(
        &[
            "generate", "--kind", kind, "--count", count, "--seed", seed, "--effort", "2",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn bad_and_unsolvable_lines_print_none_in_place_and_exit_1() {
    let unsolvable = &generated("unsolvable", "1", "5")[0];
    let clash = format!("11{}", &SAMPLE[2..]);
    let input = format!(
        "{SAMPLE}\r\n{}\n\n{unsolvable}\n{clash}\n{}  \n\n",
        &SAMPLE[1..],
        SAMPLE.replace('0', ".")
    );
    let out = sudoku(&["solve", "--lexmin"], &input);
    assert_eq!(out.status.code(), Some(1));
    let answer = solve_lexmin(&SAMPLE.parse().unwrap())
        .unwrap()
        .display(Format::Line)
        .to_string();
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            answer.as_str(),
            "none",
            "none",
            "none",
            "none",
            answer.as_str()
        ]
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("line 2: expected 81 cells, found 80"),
        "{stderr}"
    );
    assert!(stderr.contains("line 3: empty line"), "{stderr}");
    assert!(stderr.contains("line 4: no solution"), "{stderr}");
    assert!(
        stderr.contains("line 5: invalid puzzle: 1 appears twice"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 4, "{stderr}");
}

#[test]
fn all_good_lines_exit_0_and_any_solution_is_valid() {
    let puzzles = generated("unique", "20", "3");
    let out = sudoku(&["solve", "--jobs", "2"], &puzzles.join("\n"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty());
    for (puzzle, answer) in puzzles.iter().zip(text(&out.stdout).lines()) {
        let (p, a): (Grid, Grid) = (puzzle.parse().unwrap(), answer.parse().unwrap());
        assert_eq!(check_solution(&p, &a), Ok(()));
    }
}

#[test]
fn jobs_keep_the_input_order() {
    let mut puzzles = generated("multi", "300", "4");
    puzzles.extend(generated("unique", "300", "4"));
    let input = puzzles.join("\n");
    let one = sudoku(&["solve", "--lexmin", "--jobs", "1"], &input);
    let four = sudoku(&["solve", "--lexmin", "--jobs", "4"], &input);
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(text(&one.stdout), text(&four.stdout));
    for (puzzle, answer) in puzzles.iter().zip(text(&four.stdout).lines()) {
        let expected = solve_lexmin(&puzzle.parse().unwrap()).unwrap();
        assert_eq!(answer, expected.display(Format::Line).to_string());
    }
}

#[test]
fn count_prints_counts_with_a_limit_and_none_for_bad_lines() {
    let empty = ".".repeat(81);
    let unsolvable = &generated("unsolvable", "1", "6")[0];
    let input = format!("{SAMPLE}\n{empty}\nxyz\n{unsolvable}\n");
    let out = sudoku(&["count", "--limit", "100"], &input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "1\n100+\nnone\n0\n");
    assert!(text(&out.stderr).contains("line 3: "));
    // The sample with its first row blanked has a few solutions.
    let multi = format!("{}{}", ".".repeat(9), &SAMPLE[9..]);
    let exact = count_solutions(&multi.parse().unwrap(), 1_000_000);
    assert!((2..1_000_000).contains(&exact), "{exact}");
    let out = sudoku(&["count", "--limit", &exact.to_string()], &multi);
    assert_eq!(text(&out.stdout), format!("{exact}\n"));
}

#[test]
fn generate_is_reproducible_and_prints_a_random_seed_when_none_is_given() {
    assert_eq!(generated("unique", "3", "9"), generated("unique", "3", "9"));
    let out = sudoku(&["generate", "--count", "2"], "");
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    let seed = stderr
        .split_whitespace()
        .nth(2)
        .unwrap_or_else(|| panic!("no seed in {stderr:?}"));
    assert_eq!(
        text(&out.stdout).lines().collect::<Vec<_>>(),
        generated("unique", "2", seed)
    );
}

#[test]
fn generate_prints_each_format_and_kind() {
    let out = sudoku(
        &[
            "generate", "--kind", "multi", "--count", "2", "--seed", "1", "--format", "spaced",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    let boards: Vec<&str> = stdout.split("\n\n").collect();
    assert_eq!(boards.len(), 2, "{stdout}");
    for board in boards {
        let grid = Grid::parse_as(board, Format::Spaced).unwrap();
        assert!(count_solutions(&grid, 2) == 2);
    }
    let out = sudoku(
        &[
            "generate",
            "--kind",
            "adversarial",
            "--seed",
            "2",
            "--effort",
            "2",
            "--format",
            "rows",
            "-v",
        ],
        "",
    );
    let grid = Grid::parse_as(&text(&out.stdout), Format::Rows).unwrap();
    assert_eq!(count_solutions(&grid, 2), 1);
    assert!(text(&out.stderr).contains("naive row-major search"));
    let out = sudoku(&["generate", "--kind", "hard"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_missing_file_exits_2() {
    let out = sudoku(&["solve", "/no/such/file"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read /no/such/file"));
}

/// The core's independent reference solver (plain backtracking, no shared code with the solver),
/// shared by path rather than copied.
#[allow(dead_code)]
#[path = "../../../sudoku-core/tests/it/reference.rs"]
mod reference;

/// Every public set in `../shared/data/puzzles/` through `sudoku solve` (each answer checked by
/// the validator) and, on a sample of each set, `sudoku solve --lexmin` against the reference
/// (and all of Serg's benchmark against its published `.lexmin` file). Skips, saying so, when
/// the folder is absent.
#[test]
fn public_sets_solve_validly_and_lexmin_matches_the_reference() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/puzzles");
    if !dir.is_dir() {
        eprintln!("skipped: ../shared/data/puzzles not found");
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            !name.ends_with(".md") && !name.ends_with(".lexmin")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{} files", files.len());
    for path in files {
        let input = std::fs::read_to_string(&path).unwrap();
        let puzzles: Vec<Grid> = input.lines().map(|l| Grid::parse(l).unwrap()).collect();
        let file = path.to_str().unwrap();
        let any = sudoku(&["solve", file], "");
        assert_eq!(
            any.status.code(),
            Some(0),
            "{}: {}",
            file,
            text(&any.stderr)
        );
        let answers: Vec<String> = text(&any.stdout).lines().map(str::to_string).collect();
        assert_eq!(answers.len(), puzzles.len(), "{}", file);
        for (i, (puzzle, answer)) in puzzles.iter().zip(&answers).enumerate() {
            let answer =
                Grid::parse(answer).unwrap_or_else(|e| panic!("{} line {}: {}", file, i + 1, e));
            assert_eq!(
                check_solution(puzzle, &answer),
                Ok(()),
                "{} line {}",
                file,
                i + 1
            );
        }

        let published = std::fs::read_to_string(format!("{}.lexmin", file)).ok();
        let step = if published.is_some() {
            1
        } else {
            (puzzles.len() / 40).max(1)
        };
        let sample: Vec<&Grid> = puzzles.iter().step_by(step).collect();
        let sample_text: String = sample
            .iter()
            .map(|p| format!("{}\n", p.display(Format::Line)))
            .collect();
        let lexmin = sudoku(&["solve", "--lexmin"], &sample_text);
        assert_eq!(
            lexmin.status.code(),
            Some(0),
            "{}: {}",
            file,
            text(&lexmin.stderr)
        );
        let answers: Vec<String> = text(&lexmin.stdout).lines().map(str::to_string).collect();
        assert_eq!(answers.len(), sample.len(), "{}", file);
        match &published {
            Some(published) => {
                let expected: Vec<&str> = published.lines().collect();
                assert_eq!(answers, expected, "{}", file);
            }
            None => {
                for (puzzle, answer) in sample.iter().zip(&answers) {
                    let expected = reference::lexmin(puzzle.cells()).expect("solvable");
                    assert_eq!(
                        Grid::parse(answer).unwrap().cells(),
                        &expected,
                        "{}: {}",
                        file,
                        puzzle.display(Format::Line)
                    );
                }
            }
        }
    }
}
