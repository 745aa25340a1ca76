//! Every puzzle of every public set in `../shared/data/puzzles/`, when this checkout has that
//! folder: both solving modes checked by the validator, and the lexicographic answers compared
//! with `puzzles7_serg_benchmark.lexmin`. Skips, saying so, when the folder is absent.

use sudoku_core::{check_solution, solve, solve_lexmin, Format};

use crate::fixtures::{parse_lines, read, shared_puzzles};

#[test]
fn every_public_puzzle_is_solved_in_both_modes() {
    let dir = match shared_puzzles() {
        Some(dir) => dir,
        None => {
            eprintln!("skipped: ../shared/data/puzzles not found");
            return;
        }
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_none() || path.to_string_lossy().contains(".part"))
        .collect();
    files.sort();
    let mut total = 0;
    for path in &files {
        let puzzles = parse_lines(&read(path.clone()));
        let lexmin_file = path.with_file_name(format!(
            "{}.lexmin",
            path.file_name().unwrap().to_string_lossy()
        ));
        let published = if lexmin_file.exists() {
            Some(parse_lines(&read(lexmin_file)))
        } else {
            None
        };
        for (i, puzzle) in puzzles.iter().enumerate() {
            let at = || {
                format!(
                    "{} line {}: {}",
                    path.display(),
                    i + 1,
                    puzzle.display(Format::Line)
                )
            };
            let any = solve(puzzle).unwrap_or_else(|| panic!("no solution: {}", at()));
            assert_eq!(check_solution(puzzle, &any), Ok(()), "{}", at());
            let smallest = solve_lexmin(puzzle).unwrap_or_else(|| panic!("no solution: {}", at()));
            assert_eq!(check_solution(puzzle, &smallest), Ok(()), "{}", at());
            assert!(smallest <= any, "lexmin above another solution: {}", at());
            if let Some(published) = &published {
                assert_eq!(smallest, published[i], "{}", at());
            }
        }
        total += puzzles.len();
    }
    assert!(
        files.len() >= 9 && total > 100_000,
        "{} files, {} puzzles",
        files.len(),
        total
    );
}
