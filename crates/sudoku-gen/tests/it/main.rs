//! `sudoku-gen`'s integration tests: every kind is what it claims (checked with the core's
//! counter and an independent clash check), and a seed gives the same boards every time.

use sudoku_core::{check_solution, count_solutions, solve_lexmin, Grid};
use sudoku_gen::{adversarial, generate, naive_nodes, Kind, Options, Rng, Transform};

const QUICK: Options = Options {
    clues: None,
    effort: 4_000_000,
};

/// Clash check written here, not taken from the core.
fn clashes(grid: &Grid) -> bool {
    let cells = grid.cells();
    (0..81).any(|a| {
        (0..a).any(|b| {
            let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
            let shared = ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3);
            cells[a] != 0 && cells[a] == cells[b] && shared
        })
    })
}

#[test]
fn the_same_seed_gives_the_same_boards_and_another_seed_others() {
    for kind in Kind::ALL {
        let first: Vec<Grid> = (1..=3).map(|i| generate(kind, 7, i, &QUICK).grid).collect();
        let again: Vec<Grid> = (1..=3).map(|i| generate(kind, 7, i, &QUICK).grid).collect();
        assert_eq!(first, again, "{kind}");
        assert_ne!(first[0], first[1], "{kind}: puzzles of one stream differ");
        assert_ne!(first[0], generate(kind, 8, 1, &QUICK).grid, "{kind}");
    }
}

#[test]
fn a_seed_means_the_same_puzzle_forever() {
    // Pinned: a change here breaks every saved `stress-SEED-N` case and every README example.
    let grid = generate(Kind::Unique, 1, 1, &Options::default()).grid;
    assert_eq!(
        grid.display(sudoku_core::Format::Line).to_string(),
        PINNED_UNIQUE_1_1
    );
}

const PINNED_UNIQUE_1_1: &str =
    "........25...7..41...31..............7..9....6.8.5.4..9.6..28...84...39.3..5.....";

#[test]
fn unique_puzzles_have_one_solution_and_every_clue_is_needed() {
    let mut rng = Rng::new(11);
    for _ in 0..5 {
        let grid = sudoku_gen::unique(&mut rng, None);
        assert!(!clashes(&grid));
        assert_eq!(count_solutions(&grid, 2), 1);
        for index in (0..81).filter(|&i| grid.cells()[i] != 0) {
            let mut cells = *grid.cells();
            cells[index] = 0;
            let fewer = Grid::from_cells(cells).unwrap();
            assert_eq!(count_solutions(&fewer, 2), 2, "clue {index} is not needed");
        }
    }
}

#[test]
fn unique_puzzles_meet_a_reachable_clue_target() {
    for index in 1..=5 {
        let options = Options {
            clues: Some(30),
            ..QUICK
        };
        let grid = generate(Kind::Unique, 3, index, &options).grid;
        assert_eq!(grid.given_count(), 30);
        assert_eq!(count_solutions(&grid, 2), 1);
    }
}

#[test]
fn multi_boards_have_several_solutions_down_to_the_empty_board() {
    for index in 1..=20 {
        let grid = generate(Kind::Multi, 5, index, &QUICK).grid;
        assert!(!clashes(&grid));
        assert!(grid.given_count() <= 26);
        assert_eq!(count_solutions(&grid, 2), 2);
    }
    let empty = Options {
        clues: Some(0),
        ..QUICK
    };
    assert_eq!(generate(Kind::Multi, 5, 1, &empty).grid, Grid::EMPTY);
}

#[test]
fn unsolvable_boards_have_no_clash_and_no_solution() {
    for index in 1..=10 {
        let grid = generate(Kind::Unsolvable, 9, index, &QUICK).grid;
        assert!(!clashes(&grid), "{grid:?}");
        assert!(grid.find_conflict().is_none());
        assert_eq!(count_solutions(&grid, 1), 0, "{grid:?}");
        assert_eq!(solve_lexmin(&grid), None);
    }
}

#[test]
fn transforms_keep_a_puzzle_valid_and_its_solution_count() {
    let mut rng = Rng::new(21);
    let puzzle = sudoku_gen::unique(&mut rng, None);
    let solution = solve_lexmin(&puzzle).unwrap();
    for _ in 0..20 {
        let transform = Transform::random(&mut rng).mutate(&mut rng);
        let (p, s) = (transform.apply(&puzzle), transform.apply(&solution));
        assert!(!clashes(&p));
        assert_eq!(p.given_count(), puzzle.given_count());
        assert_eq!(check_solution(&p, &s), Ok(()));
        assert_eq!(count_solutions(&p, 2), 1);
        let greedy = transform.with_greedy_digits(&puzzle, &solution);
        assert_eq!(count_solutions(&greedy.apply(&puzzle), 2), 1);
    }
    let multi = sudoku_gen::multi(&mut rng, Some(20));
    let transform = Transform::random(&mut rng);
    assert_eq!(
        count_solutions(&transform.apply(&multi), 500),
        count_solutions(&multi, 500)
    );
}

#[test]
fn adversarial_search_raises_the_naive_count_over_the_base_puzzle() {
    let mut rng = Rng::new(31);
    for _ in 0..4 {
        let base = sudoku_gen::unique(&mut rng, None);
        let cap = 2_000_000;
        let found = adversarial(&mut rng, &base, 2 * cap);
        assert_eq!(found.grid, found.transform.apply(&base));
        assert_eq!(count_solutions(&found.grid, 2), 1);
        assert_eq!(found.nodes, naive_nodes(&found.grid, cap));
        assert_eq!(found.base_nodes, naive_nodes(&base, cap));
        if !found.base_nodes.capped {
            assert!(
                found.nodes.calls > found.base_nodes.calls,
                "{:?} vs base {:?}",
                found.nodes,
                found.base_nodes
            );
        }
    }
    let puzzle = generate(Kind::Adversarial, 4, 1, &QUICK);
    let (nodes, base) = puzzle.naive.unwrap();
    assert!(nodes > base);
    assert_eq!(count_solutions(&puzzle.grid, 2), 1);
}

#[test]
fn kinds_parse_from_their_names() {
    for kind in Kind::ALL {
        assert_eq!(kind.name().parse::<Kind>(), Ok(kind));
    }
    assert!("hard".parse::<Kind>().is_err());
}

#[test]
fn stress_cases_take_their_kind_from_the_seed_and_stay_easy_for_a_naive_reference() {
    use sudoku_gen::{stress_case, STRESS_NAIVE_CAP};
    for seed in 0..9u64 {
        for size in [1, 50, 100] {
            let puzzle = stress_case(seed, size);
            assert_eq!(
                puzzle,
                stress_case(seed, size),
                "the same arguments, the same board"
            );
            let solutions = count_solutions(&puzzle.grid, 2);
            match seed % 3 {
                0 => assert_eq!((puzzle.kind, solutions), (Kind::Unique, 1)),
                1 => assert_eq!((puzzle.kind, solutions), (Kind::Multi, 2)),
                // Adversarial, or its unique fallback when it outgrew the naive budget.
                _ => assert_eq!(solutions, 1),
            }
            assert!(!naive_nodes(&puzzle.grid, STRESS_NAIVE_CAP).capped);
        }
        // Size 1 of a unique case leaves one blank: the smallest case shrinking can reach.
        if seed % 3 == 0 {
            assert_eq!(stress_case(seed, 1).grid.given_count(), 80);
        }
    }
}
