//! Puzzles against row-major backtracking: a hill climb over Sudoku's symmetries that maximises
//! the calls of the naive search ([`crate::naive_nodes`]), within a budget of such calls.

use sudoku_core::{solve_lexmin, Grid};

use crate::naive::{naive_nodes, Nodes};
use crate::rng::Rng;
use crate::transform::Transform;

/// What the adversarial search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// The transformed puzzle: the hardest seen for the naive search.
    pub grid: Grid,
    /// The transform from the base puzzle to `grid`.
    pub transform: Transform,
    /// Naive calls on `grid` (capped at half the budget: `capped` means "at least").
    pub nodes: Nodes,
    /// Naive calls on the base puzzle, under the same cap.
    pub base_nodes: Nodes,
    /// Transforms evaluated.
    pub evaluations: u64,
}

/// Starting points tried before climbing from the best of them.
const STARTS: usize = 4;

/// Searches the symmetries of `base` for the one whose naive row-major search is longest,
/// spending about `effort` naive calls in all (one evaluation is capped at `effort / 2`, at
/// least 10⁴; reaching that cap ends the search, the puzzle being as hard as can be told).
///
/// Starts: a few random transforms, each with its digits relabelled greedily (the blanks met
/// first in row-major order get the largest digits, see [`Transform::with_greedy_digits`]).
/// Then a hill climb: one small change at a time (a digit swap, a row or column swap within its
/// band or stack, a band or stack swap, transposition), half the time relabelled greedily
/// again, kept when it is no worse. The search is deterministic given `rng`; no clock is read.
pub fn adversarial(rng: &mut Rng, base: &Grid, effort: u64) -> Search {
    let cap = (effort / 2).max(10_000);
    let solution = solve_lexmin(base);
    let greedy = |t: Transform| match &solution {
        Some(solution) => t.with_greedy_digits(base, solution),
        None => t,
    };
    let base_nodes = naive_nodes(base, cap);
    let mut spent = base_nodes.calls;
    let mut evaluations = 1;
    let mut best = Search {
        grid: *base,
        transform: Transform::IDENTITY,
        nodes: base_nodes,
        base_nodes,
        evaluations: 0,
    };
    let mut evaluate = |transform: Transform, best: &mut Search, spent: &mut u64| {
        let grid = transform.apply(base);
        let nodes = naive_nodes(&grid, cap);
        *spent += nodes.calls;
        evaluations += 1;
        if nodes.calls >= best.nodes.calls {
            *best = Search {
                grid,
                transform,
                nodes,
                base_nodes,
                evaluations: 0,
            };
        }
    };
    let mut start: Option<Search> = None;
    for _ in 0..STARTS {
        if spent >= effort || best.nodes.capped {
            break;
        }
        // Each start competes with the other starts, not with the untransformed base.
        let mut candidate = start.unwrap_or(Search {
            nodes: Nodes {
                calls: 0,
                capped: false,
            },
            ..best
        });
        evaluate(greedy(Transform::random(rng)), &mut candidate, &mut spent);
        start = Some(candidate);
    }
    if let Some(start) = start {
        if start.nodes.calls >= best.nodes.calls {
            best = start;
        }
    }
    while spent < effort && !best.nodes.capped {
        let mut transform = best.transform.mutate(rng);
        if rng.below(4) != 0 {
            transform = greedy(transform);
        }
        evaluate(transform, &mut best, &mut spent);
    }
    best.evaluations = evaluations;
    best
}
