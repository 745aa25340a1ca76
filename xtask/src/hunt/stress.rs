//! Stress testing: the problem's generator writes inputs, its reference answers them, and the
//! solution is judged on each ([`Engine::try_case`]), several cases side by side, until a case
//! fails; the lowest-numbered failing case is then shrunk, first by other seeds at smaller
//! sizes, then, where the problem has a validator, by cutting the input itself
//! ([`super::shrink`]).
//!
//! Case N of a run with seed S calls `GENERATOR SEED' SIZE`, where SEED' = [`case_seed`]`(S, N)`
//! and SIZE = [`case_size`]`(N, CASES, MAX)`, MAX the largest size the run allows
//! ([`super::sizes`]); shrinking tries [`shrink_seed`]s. A seed (and the largest size) names
//! the same cases, and the same shrunk case, forever, on any machine and whatever `--jobs` is.

use anyhow::Result;

use super::counts::Counts;
use super::engine::{case_seed, Case, Checked, Engine, Tried};
use super::in_order::in_order;
use super::input::{mix, Input};
use super::shrink::{self, Judged};
use super::sizes::{self, case_size, Ceiling};

/// The generator's seed for shrinking round `round` (1, 2, ...) at `size`, after case `n` of
/// a run with seed `seed` failed: another case seed, fixed by the four.
pub fn shrink_seed(seed: u64, n: u64, round: u64, size: u64) -> u64 {
    let key = (round << 8 | size).wrapping_mul(0xD1B5_4A32_D192_ED03);
    mix(case_seed(seed, n).wrapping_add(key)) >> 32
}

/// The fewest runs shrinking by seed gets by default. A small failing input is often rare: on
/// the wrong union of BOJ 1717 (tests/data/stress), a fresh seed fails at a size of at most 6
/// lines only 0.3–3.5% of the time, so the 9 to 36 runs its failures take to find would seldom
/// reach one, where 200 (ten sweeps of the sizes below, well under a second) did for 9 seeds in
/// 10.
pub const MIN_SHRINK_RUNS: u64 = 200;

/// The runs shrinking the input itself gets by default: an input of 8,000 numbers cut by
/// halves takes a few hundred.
pub const INPUT_SHRINK_RUNS: u64 = 1000;

/// How many generated inputs that passed are kept as examples of the input's counts.
const EXAMPLES: usize = 24;

/// How to run: how many cases, how large, how many side by side, and shrinking's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// How many cases.
    pub cases: u64,
    /// Every case at this SIZE (`--size`), instead of [`case_size`]; a failure is then not
    /// shrunk, since its size is the point (the largest input, for a TLE hunt).
    pub size: Option<u64>,
    /// The largest SIZE (`--max-size`); `None`: as large as the reference answers well within
    /// its limit ([`sizes::probe`]).
    pub max_size: Option<u64>,
    /// Cases run side by side (at least 1).
    pub jobs: usize,
    /// Runs each way of shrinking may take; `None`: by seed, as many as it took to find the
    /// failure and at least [`MIN_SHRINK_RUNS`]; the input, [`INPUT_SHRINK_RUNS`].
    pub shrink_budget: Option<u64>,
}

/// What a run found.
#[derive(Debug, Clone)]
pub struct Finding {
    /// How large its inputs got.
    pub ceiling: Ceiling,
    /// Cases that passed before the first failure (all of them when none failed).
    pub passed: u64,
    /// The lowest-numbered failing case, shrunk.
    pub failure: Option<Failure>,
}

/// The first failing case, and the smallest failing input shrinking found from it.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The lowest-numbered failing case of the run.
    pub case: Case,
    /// How it went.
    pub first: Tried,
    /// The smallest failing case another seed found (`case` when none smaller failed): the
    /// generator's input that shrinking the input started from.
    pub generated: Case,
    /// The smallest failing input found.
    pub smallest: Tried,
    /// Runs shrinking by seed took.
    pub seed_runs: u64,
    /// Runs shrinking the input took; `None` when it was not tried (no validator to keep the
    /// cut inputs legal, an input that is not text, or `--size`).
    pub input_runs: Option<u64>,
    /// Whether `smallest` was cut from the generator's input (else it is that input).
    pub cut: bool,
}

/// What a stress worker does with each case that passed, besides judging it: coverage
/// measures the input (`worker`, the case, the input).
pub type Observer<'a> = &'a (dyn Fn(usize, &Case, &[u8]) -> Result<()> + Sync);

/// A stress run of a problem's engine with one seed.
#[derive(Clone, Copy)]
pub struct Stress<'a> {
    engine: &'a Engine,
    seed: u64,
    observer: Option<Observer<'a>>,
}

impl std::fmt::Debug for Stress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stress").field("seed", &self.seed).finish()
    }
}

impl<'a> Stress<'a> {
    /// A run of `engine` with `seed`.
    pub fn new(engine: &'a Engine, seed: u64) -> Stress<'a> {
        Stress {
            engine,
            seed,
            observer: None,
        }
    }

    /// The same run, `observer` called on every case that passed, in the worker that ran it.
    pub fn observed_by(self, observer: Observer<'a>) -> Stress<'a> {
        Stress {
            observer: Some(observer),
            ..self
        }
    }

    /// The name a case is saved and reported under: `stress-SEED-N`.
    pub fn case_name(&self, case: &Case) -> String {
        format!("stress-{}-{}", self.seed, case.number)
    }

    /// How large the plan's inputs may get: `--size` or `--max-size` as given, else what the
    /// reference answers well within its limit.
    pub fn ceiling(&self, plan: &Plan) -> Result<Ceiling> {
        match (plan.size, plan.max_size) {
            (Some(size), _) | (None, Some(size)) => Ok(Ceiling {
                max_size: size,
                held: None,
            }),
            (None, None) => sizes::probe(self.engine, self.seed),
        }
    }

    /// Runs the plan's cases up to `ceiling`, `plan.jobs` side by side, calling `on_case` with
    /// each in case order (never after the lowest failing case), until one fails; then shrinks
    /// it.
    ///
    /// The finding does not depend on `plan.jobs`: the failure reported is the lowest-numbered
    /// failing case (every case below it has run by then), and shrinking tries its candidates
    /// in one fixed order. A generator, reference, checker or interactor that fails is the
    /// tool's error, at the lowest case it happens in.
    pub fn run(
        &self,
        plan: &Plan,
        ceiling: Ceiling,
        mut on_case: impl FnMut(&Case, &Tried),
    ) -> Result<Finding> {
        let cases: Vec<Case> = (1..=plan.cases)
            .map(|n| Case {
                number: n,
                seed: case_seed(self.seed, n),
                size: plan
                    .size
                    .unwrap_or_else(|| case_size(n, plan.cases, ceiling.max_size)),
            })
            .collect();
        let mut passed = 0;
        let mut failed = None;
        let mut examples: Vec<(u64, Vec<u8>)> = Vec::new();
        self.run_in_order(&cases, plan.jobs, |case, tried| {
            if tried.failed() {
                failed = Some((*case, tried.clone()));
                return false;
            }
            passed += 1;
            if examples.len() < EXAMPLES && examples.iter().all(|(s, _)| *s != case.size) {
                examples.push((case.size, tried.input.clone()));
            }
            on_case(case, tried);
            true
        })?;
        let Some((case, first)) = failed else {
            return Ok(Finding {
                ceiling,
                passed,
                failure: None,
            });
        };
        if plan.size.is_some() {
            return Ok(Finding {
                ceiling,
                passed,
                failure: Some(Failure {
                    case,
                    generated: case,
                    smallest: first.clone(),
                    first,
                    seed_runs: 0,
                    input_runs: None,
                    cut: false,
                }),
            });
        }
        let budget = plan
            .shrink_budget
            .unwrap_or(case.number.max(MIN_SHRINK_RUNS));
        let (generated, by_seed, seed_runs) =
            self.shrink_by_seed(plan.jobs, &case, &first, budget)?;
        let examples: Vec<Vec<u8>> = examples.into_iter().map(|(_, input)| input).collect();
        let budget = plan.shrink_budget.unwrap_or(INPUT_SHRINK_RUNS);
        let (cut, input_runs) =
            self.shrink_input(plan.jobs, &generated, &by_seed, &examples, budget)?;
        Ok(Finding {
            ceiling,
            passed,
            failure: Some(Failure {
                case,
                first,
                generated,
                smallest: cut.clone().unwrap_or(by_seed),
                seed_runs,
                input_runs,
                cut: cut.is_some(),
            }),
        })
    }

    /// Runs `cases` (in their order), `jobs` side by side, handing each result to `take` in
    /// that order while it returns true; returns how many it took. Cases after the one `take`
    /// refused are not run (or their results are dropped), and an error stops the run at the
    /// lowest case it happens in.
    fn run_in_order(
        &self,
        cases: &[Case],
        jobs: usize,
        mut take: impl FnMut(&Case, &Tried) -> bool,
    ) -> Result<usize> {
        let work = |worker: usize, case: &Case| -> Result<(Case, Tried)> {
            let tried = self.engine.try_case(case, &self.case_name(case))?;
            if let (false, Some(observe)) = (tried.failed(), self.observer) {
                observe(worker, case, &tried.input)?;
            }
            Ok((*case, tried))
        };
        in_order(
            cases,
            jobs,
            work,
            |(_, tried)| tried.failed(),
            |(case, tried)| take(case, tried),
        )
    }

    /// Looks for a smaller failing case than `first`'s within `budget` runs, smallest sizes
    /// first: round 0 tries the failing case's own seed at every smaller size, round r > 0
    /// another [`shrink_seed`] at every size up to the smallest failing one found so far. A
    /// round ends at its first failing candidate; the answer is the smallest failing input seen,
    /// by bytes. Candidates run `jobs` side by side, but are counted and taken in this one
    /// order, so the result does not depend on `jobs`.
    fn shrink_by_seed(
        &self,
        jobs: usize,
        case: &Case,
        first: &Tried,
        budget: u64,
    ) -> Result<(Case, Tried, u64)> {
        let mut best = (*case, first.clone());
        let mut runs = 0;
        for round in 0.. {
            if runs >= budget || best.0.size == 1 {
                break;
            }
            let candidates: Vec<Case> = (1..best.0.size)
                .map(|size| Case {
                    number: case.number,
                    seed: if round == 0 {
                        case.seed
                    } else {
                        shrink_seed(self.seed, case.number, round, size)
                    },
                    size,
                })
                .take((budget - runs) as usize)
                .collect();
            let mut found = None;
            runs += self.run_in_order(&candidates, jobs, |case, tried| {
                if tried.failed() {
                    found = Some((*case, tried.clone()));
                }
                found.is_none()
            })? as u64;
            if let Some(smaller) = found.filter(|(_, t)| t.input.len() < best.1.input.len()) {
                best = smaller;
            }
        }
        Ok((best.0, best.1, runs))
    }

    /// Shrinks the failing input of `generated` ([`super::shrink`]), keeping candidates that
    /// fail with the same verdict: the smallest found (`None` when nothing smaller failed) and
    /// the runs it took. The counts that cuts keep true are inferred from `examples` (inputs
    /// that passed), the failing input and the samples. Not tried (`None` runs) without a
    /// validator, which alone says a cut input is legal, or for an input that is not text.
    fn shrink_input(
        &self,
        jobs: usize,
        generated: &Case,
        failing: &Tried,
        examples: &[Vec<u8>],
        budget: u64,
    ) -> Result<(Option<Tried>, Option<u64>)> {
        let unshrunk = || Ok((None, None));
        if self.engine.validator().is_none() {
            return unshrunk();
        }
        let Some(start) = Input::read(&failing.input) else {
            return unshrunk();
        };
        let samples = self.engine.sample_inputs();
        let examples: Vec<Input> = examples
            .iter()
            .chain(&samples)
            .chain([&failing.input])
            .filter_map(|bytes| Input::read(bytes))
            .collect();
        let counts = Counts::infer(&examples);
        let verdict = failing.report.verdict;
        let name = self.case_name(generated);
        let test = |_: usize, candidate: &Input| -> Result<Judged<Tried>> {
            Ok(match self.engine.try_input(&candidate.write(), &name)? {
                Checked::Refused(_) => Judged::Refused,
                Checked::Tried(tried) if tried.report.verdict == verdict => Judged::Failed(*tried),
                Checked::Tried(_) => Judged::Passed,
            })
        };
        let shrunk = shrink::shrink(&start, &counts, jobs, budget, test)?;
        Ok((shrunk.found, Some(shrunk.runs)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_seeds_depend_on_the_run_seed_and_the_case() {
        assert_eq!(case_seed(7, 3), case_seed(7, 3));
        assert_ne!(case_seed(7, 3), case_seed(7, 4));
        assert_ne!(case_seed(7, 3), case_seed(8, 3));
        assert!((1..1000).all(|n| case_seed(42, n) <= u64::from(u32::MAX)));
        // Pinned: a seed names the same cases on every machine and in every version.
        // (Computed independently, in Python, from the formula the docs give.)
        assert_eq!(case_seed(0, 1), 3_793_791_033);
        assert_eq!(case_seed(2239, 5), 2_729_882_696);
    }

    #[test]
    fn shrink_seeds_differ_by_round_and_size_and_fit_in_32_bits() {
        let seeds: std::collections::HashSet<u64> = (1..=3)
            .flat_map(|round| (1..=100).map(move |size| shrink_seed(7, 24, round, size)))
            .collect();
        assert_eq!(seeds.len(), 300);
        assert!(seeds.iter().all(|&s| s <= u64::from(u32::MAX)));
        assert_eq!(shrink_seed(7, 24, 1, 5), shrink_seed(7, 24, 1, 5));
        assert_ne!(shrink_seed(7, 24, 1, 5), shrink_seed(8, 24, 1, 5));
    }
}
