//! `sudoku-gen`: seeded, reproducible 9x9 puzzle generation for testing solvers: puzzles with a
//! unique solution (minimal, or with a target number of clues), boards with many solutions,
//! puzzles transformed to defeat row-major backtracking, and unsolvable boards whose givens do
//! not clash.
//!
//! Puzzle `index` of `seed` depends on nothing else: not on the other puzzles, not on the
//! machine, not on the core's search order (the PRNG and the grid filler are this crate's own,
//! and the core is asked only for facts: solution counts and the lexicographically smallest
//! solution). The adversarial search's budget is counted in naive-search calls, not seconds, for
//! the same reason.
//!
//! ```
//! use sudoku_core::count_solutions;
//! use sudoku_gen::{generate, Kind, Options};
//!
//! let puzzle = generate(Kind::Unique, 42, 1, &Options::default());
//! assert_eq!(count_solutions(&puzzle.grid, 2), 1);
//! assert_eq!(puzzle, generate(Kind::Unique, 42, 1, &Options::default()));
//! ```

#![forbid(unsafe_code)]

mod adversarial;
mod fill;
mod naive;
mod rng;
mod transform;

use std::fmt;
use std::str::FromStr;

use sudoku_core::{count_solutions, solve_lexmin, Grid};

pub use adversarial::{adversarial, Search};
pub use fill::random_solution;
pub use naive::{naive_nodes, Nodes};
pub use rng::Rng;
pub use transform::Transform;

/// What kind of board to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Exactly one solution; minimal (every clue needed) unless a clue count is asked for.
    Unique,
    /// At least two solutions: few clues, down to the empty board.
    Multi,
    /// A unique puzzle transformed by Sudoku's symmetries to maximise the calls of a naive
    /// row-major, smallest-digit-first backtracker ([`naive_nodes`]).
    Adversarial,
    /// No solution, though no two givens clash.
    Unsolvable,
}

impl Kind {
    /// Every kind, in the order of the command line's list.
    pub const ALL: [Kind; 4] = [
        Kind::Unique,
        Kind::Multi,
        Kind::Adversarial,
        Kind::Unsolvable,
    ];

    /// The lowercase name: `unique`, `multi`, `adversarial`, `unsolvable`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Unique => "unique",
            Kind::Multi => "multi",
            Kind::Adversarial => "adversarial",
            Kind::Unsolvable => "unsolvable",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(text: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|kind| kind.name() == text)
            .ok_or_else(|| {
                format!("unknown kind `{text}` (unique, multi, adversarial, unsolvable)")
            })
    }
}

/// Settings shared by every kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Target number of clues. Unique: stop removing clues there (or as close above it as
    /// a few tries reach; minimal when `None`). Multi: keep this many (fewer if that many still
    /// leave one solution; a random 0–26 when `None`).
    pub clues: Option<usize>,
    /// The adversarial search's budget, in naive-search calls (see [`Search`]).
    pub effort: u64,
}

/// The default adversarial budget: 10⁸ naive-search calls, about a second on one core.
pub const DEFAULT_EFFORT: u64 = 100_000_000;

impl Default for Options {
    fn default() -> Options {
        Options {
            clues: None,
            effort: DEFAULT_EFFORT,
        }
    }
}

/// Base puzzles an adversarial puzzle is searched from, each with an equal share of the budget.
const ADVERSARIAL_BASES: u64 = 4;

/// A generated board and what is known about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The board.
    pub grid: Grid,
    /// The kind asked for.
    pub kind: Kind,
    /// Adversarial only: the naive search's calls on this board and on the board it was
    /// transformed from.
    pub naive: Option<(Nodes, Nodes)>,
}

/// Puzzle `index` of the stream `seed`, of the given kind: the same arguments give the same
/// board forever.
pub fn generate(kind: Kind, seed: u64, index: u64, options: &Options) -> Puzzle {
    let mut rng = Rng::for_item(seed, index);
    let mut naive = None;
    let grid = match kind {
        Kind::Unique => unique(&mut rng, options.clues),
        Kind::Multi => multi(&mut rng, options.clues),
        Kind::Unsolvable => unsolvable(&mut rng),
        Kind::Adversarial => {
            // A climb settles within a fraction of the budget and the base puzzle matters as
            // much as its transform: climb from a few bases and keep the hardest result.
            let mut best: Option<Search> = None;
            for _ in 0..ADVERSARIAL_BASES {
                let base = unique(&mut rng, options.clues);
                let found = adversarial(&mut rng, &base, options.effort / ADVERSARIAL_BASES);
                if best.is_none_or(|b| found.nodes > b.nodes) {
                    best = Some(found);
                }
            }
            let best = best.expect("at least one base");
            naive = Some((best.nodes, best.base_nodes));
            best.grid
        }
    };
    Puzzle { grid, kind, naive }
}

/// A naive row-major backtracker solves every adversarial [`stress_case`] within this many calls
/// (a many-solution board may take it far more: BOJ 2239's reference does not search row-major).
pub const STRESS_NAIVE_CAP: u64 = 5_000_000;

/// The board a Sudoku problem's stress generator prints for `GEN SEED SIZE` (`cargo xtask
/// stress`). The kind comes from the seed (`SEED % 3`: unique, multi, adversarial); SIZE, from 1
/// to 100, is how much there is to solve: the blanks of a unique puzzle (80 clues at 1, minimal
/// at 100), how few clues a many-solution board keeps (26 at 1, the empty board at 100), or the
/// adversarial search's budget (SIZE × 10⁵ naive calls). An adversarial board that the naive
/// search cannot finish within [`STRESS_NAIVE_CAP`] calls gives way to a unique puzzle of the
/// same seed. A few many-solution boards still defeat a plain row-major backtracker (seed
/// 232960171, size 32: 15 to 26 s of CPU), so BOJ 2239's reference fixes digits row-major but
/// asks a most-constrained-first search whether each can still be completed.
pub fn stress_case(seed: u64, size: u64) -> Puzzle {
    let size = size.clamp(1, 100);
    let kind = [Kind::Unique, Kind::Multi, Kind::Adversarial][(seed % 3) as usize];
    let unique_clues = (size < 100).then(|| 80 - (size as usize * 58) / 100);
    let options = match kind {
        Kind::Multi => Options {
            clues: Some(26 - (size as usize * 26) / 100),
            effort: 0,
        },
        Kind::Adversarial => Options {
            clues: None,
            effort: size * 100_000,
        },
        _ => Options {
            clues: unique_clues,
            effort: 0,
        },
    };
    let puzzle = generate(kind, seed, 0, &options);
    if kind == Kind::Adversarial && naive_nodes(&puzzle.grid, STRESS_NAIVE_CAP).capped {
        let options = Options {
            clues: None,
            effort: 0,
        };
        return generate(Kind::Unique, seed, 0, &options);
    }
    puzzle
}

/// A puzzle with exactly one solution: clues of a random grid removed in random order while
/// the solution stays unique. Without `clues` every cell is tried once, which leaves a minimal
/// puzzle (removing a clue never lowers the count, so a clue needed once stays needed). With
/// `clues`, removal stops there; when a grid's minimal puzzle has more clues, up to seven more
/// grids are tried and the one with the fewest clues is kept.
pub fn unique(rng: &mut Rng, clues: Option<usize>) -> Grid {
    let target = clues.unwrap_or(0);
    let mut best: Option<Grid> = None;
    for _ in 0..8 {
        let mut grid = random_solution(rng);
        let mut order: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut order);
        let mut count = 81;
        for index in order {
            if count <= target {
                break;
            }
            let mut cells = *grid.cells();
            cells[index] = 0;
            let fewer = Grid::from_cells(cells).expect("digits 0-9");
            if count_solutions(&fewer, 2) == 1 {
                grid = fewer;
                count -= 1;
            }
        }
        if clues.is_none() || count <= target {
            return grid;
        }
        if best.is_none_or(|b| count < b.given_count()) {
            best = Some(grid);
        }
    }
    best.expect("eight tries were made")
}

/// A board with at least two solutions: `clues` cells (a random 0–26 by default) of a random
/// grid, thinned further while the solution is still unique.
pub fn multi(rng: &mut Rng, clues: Option<usize>) -> Grid {
    let keep = clues.unwrap_or_else(|| rng.range(0, 26)).min(81);
    let solution = random_solution(rng);
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut cells = [0u8; 81];
    for &index in &order[..keep] {
        cells[index] = solution.cells()[index];
    }
    let mut kept = order[..keep].to_vec();
    loop {
        let grid = Grid::from_cells(cells).expect("digits 0-9");
        if count_solutions(&grid, 2) >= 2 {
            return grid;
        }
        let index = kept.pop().expect("the empty board has many solutions");
        cells[index] = 0;
    }
}

/// A board with no solution whose givens do not clash: a unique puzzle with one blank filled
/// by a digit that its row, column and box allow but that is not the solution's. Every
/// solution of the result would be a solution of the unique puzzle with that cell different,
/// and there is none.
pub fn unsolvable(rng: &mut Rng) -> Grid {
    loop {
        let puzzle = unique(rng, None);
        let solution = solve_lexmin(&puzzle).expect("a unique puzzle has a solution");
        let mut choices = Vec::new();
        for index in 0..81 {
            if puzzle.cells()[index] != 0 {
                continue;
            }
            for digit in 1..=9 {
                if digit == solution.cells()[index] {
                    continue;
                }
                let mut cells = *puzzle.cells();
                cells[index] = digit;
                let grid = Grid::from_cells(cells).expect("digits 0-9");
                if grid.find_conflict().is_none() {
                    choices.push(grid);
                }
            }
        }
        if choices.is_empty() {
            continue; // every blank forced by its units alone: try another puzzle
        }
        let grid = choices[rng.below(choices.len())];
        debug_assert_eq!(count_solutions(&grid, 1), 0);
        return grid;
    }
}
