//! The solver against the independent reference: same lexicographically smallest solution, same
//! solution counts, the same verdict on unsolvable puzzles, and every answer accepted by the
//! validator.

use sudoku_core::{check_solution, count_solutions, solve, solve_lexmin, strategies, Format, Grid};

use crate::fixtures::{data, relabel_against_row_major, thin_out, Rng};
use crate::reference;

/// A few hundred puzzles: hard unique ones, the same relabelled against row-major search,
/// many-solution boards (Serg's benchmark and random thinned-out solutions), the empty board.
fn agreement_puzzles() -> Vec<Grid> {
    let mut puzzles = data("named_hard.txt");
    puzzles.extend(data("boj_nearcap_1e7.txt"));
    puzzles.extend(data("magictour_top150.txt"));
    let hard = puzzles.clone();
    for puzzle in hard.iter().take(80) {
        let solution = solve(puzzle).expect("fixture puzzles are solvable");
        puzzles.push(relabel_against_row_major(puzzle, &solution));
    }
    let serg = data("serg_benchmark_150.txt");
    puzzles.extend(serg.iter().cloned());
    let mut rng = Rng(2239);
    for (i, puzzle) in hard.iter().enumerate().take(120) {
        let solution = solve(puzzle).unwrap();
        let solution = relabel_against_row_major(&solution, &solution);
        puzzles.push(thin_out(&solution, i % 30, &mut rng));
    }
    puzzles.push(Grid::EMPTY);
    puzzles
}

#[test]
fn lexmin_agrees_with_reference_on_hundreds_of_puzzles() {
    let puzzles = agreement_puzzles();
    assert!(puzzles.len() >= 500, "{} puzzles", puzzles.len());
    let (mut many_solutions, mut bound_finished) = (0, 0);
    for (i, puzzle) in puzzles.iter().enumerate() {
        let expected =
            reference::lexmin(puzzle.cells()).expect("every agreement puzzle is solvable");
        let actual = solve_lexmin(puzzle).expect("solve_lexmin found no solution");
        assert_eq!(
            actual.cells(),
            &expected,
            "puzzle #{}: {}",
            i,
            puzzle.display(Format::Line)
        );
        assert_eq!(check_solution(puzzle, &actual), Ok(()));
        // The three methods solve_lexmin combines, on their own. Branch and bound alone can
        // meet a long chain of ever smaller solutions on nearly empty boards, so it gets a
        // budget of dead ends and is checked wherever it finishes.
        assert_eq!(
            strategies::row_major(puzzle),
            Some(actual),
            "row-major, #{}",
            i
        );
        assert_eq!(
            strategies::by_witness(puzzle),
            Some(actual),
            "witness, #{}",
            i
        );
        if let Some(found) = strategies::by_bound(puzzle, 100_000) {
            assert_eq!(found, Some(actual), "branch and bound, #{}", i);
            bound_finished += 1;
        }
        if reference::count(puzzle.cells(), 2) == 2 {
            many_solutions += 1;
        }
    }
    assert!(
        many_solutions >= 250,
        "only {} many-solution boards",
        many_solutions
    );
    assert!(
        bound_finished * 10 >= puzzles.len() * 9,
        "branch and bound finished only {} of {}",
        bound_finished,
        puzzles.len()
    );
}

#[test]
fn solve_answers_pass_the_validator_and_counts_agree() {
    for (i, puzzle) in agreement_puzzles().iter().enumerate() {
        let solution = solve(puzzle).expect("solvable");
        assert_eq!(check_solution(puzzle, &solution), Ok(()), "puzzle #{}", i);
        assert_eq!(
            count_solutions(puzzle, 3),
            reference::count(puzzle.cells(), 3),
            "puzzle #{}: {}",
            i,
            puzzle.display(Format::Line)
        );
    }
}

#[test]
fn hard_puzzles_given_more_clues_solve_to_their_one_solution() {
    // Clues of the solution added to hard puzzles leave boards with few open cells that can
    // still need search with dead ends: `solve` starts those light and must finish them in full.
    let mut puzzles = data("named_hard.txt");
    puzzles.extend(data("magictour_top150.txt").into_iter().take(60));
    let mut rng = Rng(50);
    for (i, puzzle) in puzzles.iter().enumerate() {
        let expected = reference::solve(puzzle.cells()).expect("fixture puzzles are solvable");
        for added in [6, 10, 14] {
            let mut cells = *puzzle.cells();
            for _ in 0..added {
                let cell = rng.below(81);
                cells[cell] = expected[cell];
            }
            let board = Grid::from_cells(cells).unwrap();
            let solution = solve(&board).expect("a puzzle with clues added stays solvable");
            assert_eq!(
                solution.cells(),
                &expected,
                "puzzle #{} with {} clues added: {}",
                i,
                added,
                board.display(Format::Line)
            );
            assert_eq!(check_solution(&board, &solution), Ok(()));
        }
    }
}

#[test]
fn full_counts_agree_with_reference_on_many_solution_boards() {
    // Whole counts, not just "more than two": every branch of the search must be counted once.
    let mut boards = data("serg_benchmark_150.txt");
    boards.truncate(40);
    let mut rng = Rng(2580);
    for (i, puzzle) in data("magictour_top150.txt").iter().enumerate().take(40) {
        let solution = solve(puzzle).unwrap();
        boards.push(thin_out(&solution, 30 + i % 20, &mut rng));
    }
    let mut with_several = 0;
    for board in &boards {
        let expected = reference::count(board.cells(), 300);
        with_several += (expected > 2) as usize;
        assert_eq!(
            count_solutions(board, 300),
            expected,
            "{}",
            board.display(Format::Line)
        );
    }
    assert!(
        with_several >= 20,
        "only {} boards with several solutions",
        with_several
    );
}

#[test]
fn lexmin_matches_published_answers_for_serg_benchmark() {
    let puzzles = data("serg_benchmark_150.txt");
    let answers = data("serg_benchmark_150.lexmin");
    assert_eq!(puzzles.len(), answers.len());
    for (puzzle, answer) in puzzles.iter().zip(&answers) {
        assert_eq!(solve_lexmin(puzzle).as_ref(), Some(answer));
    }
}

/// Puzzles whose givens do not clash yet have no solution: one extra given, chosen at random
/// among the digits legal in its row, column and box, that the reference says kills every
/// solution.
fn unsolvable_puzzles() -> Vec<Grid> {
    let mut found = vec![Grid::parse(&format!(
        "12345678.{}........9{}",
        ".".repeat(27),
        ".".repeat(36)
    ))
    .unwrap()];
    let mut rng = Rng(2580);
    let sources: Vec<Grid> = data("magictour_top150.txt")
        .into_iter()
        .chain(data("serg_benchmark_150.txt"))
        .collect();
    for puzzle in sources.iter().cycle().take(4000) {
        if found.len() >= 40 {
            break;
        }
        let mut cells = *puzzle.cells();
        let cell = rng.below(81);
        if cells[cell] != 0 {
            continue;
        }
        cells[cell] = 1 + rng.below(9) as u8;
        if reference::givens_consistent(&cells) && reference::solve(&cells).is_none() {
            found.push(Grid::from_cells(cells).unwrap());
        }
    }
    assert!(
        found.len() >= 40,
        "only {} unsolvable puzzles found",
        found.len()
    );
    found
}

#[test]
fn unsolvable_puzzles_have_no_solution_in_every_mode() {
    for puzzle in unsolvable_puzzles() {
        let line = puzzle.display(Format::Line).to_string();
        assert_eq!(puzzle.find_conflict(), None, "{}", line);
        assert_eq!(solve(&puzzle), None, "{}", line);
        assert_eq!(solve_lexmin(&puzzle), None, "{}", line);
        assert_eq!(strategies::by_witness(&puzzle), None, "{}", line);
        assert_eq!(
            strategies::by_bound(&puzzle, 100_000),
            Some(None),
            "{}",
            line
        );
        assert_eq!(strategies::row_major(&puzzle), None, "{}", line);
        assert_eq!(count_solutions(&puzzle, 10), 0, "{}", line);
    }
}

#[test]
fn clashing_givens_have_no_solution() {
    // Cell 0 and a cell in its row, its box, its column in the same band, its column in
    // another band; cell 40 shares no unit with any of them and is there to be placed too.
    for (clash, digit) in [(8, 5), (10, 5), (18, 9), (72, 1)] {
        let mut cells = [0u8; 81];
        cells[0] = digit;
        cells[40] = digit;
        cells[clash] = digit;
        let puzzle = Grid::from_cells(cells).unwrap();
        assert!(puzzle.find_conflict().is_some());
        assert_eq!(solve(&puzzle), None, "clash at {}", clash);
        assert_eq!(solve_lexmin(&puzzle), None, "clash at {}", clash);
        assert_eq!(count_solutions(&puzzle, 5), 0, "clash at {}", clash);
    }
}

#[test]
fn filled_grid_is_its_own_only_solution() {
    let puzzle = data("serg_benchmark_150.lexmin").remove(0);
    assert_eq!(solve(&puzzle), Some(puzzle));
    assert_eq!(solve_lexmin(&puzzle), Some(puzzle));
    assert_eq!(count_solutions(&puzzle, 10), 1);
}

#[test]
fn count_stops_at_the_limit() {
    assert_eq!(count_solutions(&Grid::EMPTY, 0), 0);
    assert_eq!(count_solutions(&Grid::EMPTY, 1), 1);
    assert_eq!(count_solutions(&Grid::EMPTY, 5000), 5000);
    let unique = data("named_hard.txt").remove(0);
    assert_eq!(count_solutions(&unique, 1000), 1);
}

#[test]
fn branch_and_bound_gives_up_when_its_dead_ends_run_out() {
    // This hard puzzle meets some 170 dead ends; a filled grid meets none and always finishes.
    let hard = data("named_hard.txt").remove(1);
    let filled = data("serg_benchmark_150.lexmin").remove(0);
    assert_eq!(strategies::by_bound(&hard, 1), None);
    assert_eq!(strategies::by_bound(&hard, 100), None);
    assert_eq!(
        strategies::by_bound(&hard, 100_000),
        Some(solve_lexmin(&hard))
    );
    assert_eq!(strategies::by_bound(&filled, 1), Some(Some(filled)));
}
