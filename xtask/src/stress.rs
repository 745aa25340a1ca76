//! Stress testing: the problem's generator writes inputs, its reference answers them, and the
//! solution is judged on each with the same code as `cargo xtask test`, several cases side by
//! side, until a case fails; the lowest-numbered failing case is then shrunk to the smallest
//! failing input a budget of runs finds. Nothing here prints, and nothing knows what the
//! problem is about: the command (`commands/stress.rs`) renders what [`Stress::run`] returns.
//!
//! Case N of a run with seed S calls `GENERATOR SEED' SIZE`, where SEED' = [`case_seed`]`(S, N)`
//! and SIZE = [`case_size`]`(N, CASES)`; shrinking tries [`shrink_seed`]s. A seed names the same
//! cases, and the same shrunk case, forever, on any machine and whatever `--jobs` is.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use anyhow::{bail, Context, Result};

use crate::judge::{
    self, CaseLimits, CaseReport, CheckedRun, Detail, JudgeOptions, Judged, Verdict,
};
use crate::run::{Exit, Limits, Measure, Program, Setup, DEFAULT_OUTPUT_CAP};
use crate::scratch::Scratch;
use crate::validate::{self, Validator};
use crate::workspace::build::Executables;
use crate::workspace::problem::{Judge, Problem, Sample};

/// The largest SIZE a generator is asked for.
pub const MAX_SIZE: u64 = 100;

/// The generator's seed for case `n` of a run with seed `seed`: SplitMix64's output function
/// applied to `seed + n × 0x9E3779B97F4A7C15` (wrapping), keeping the high 32 bits, so a case
/// seed fits any integer type a generator may parse it into.
pub fn case_seed(seed: u64, n: u64) -> u64 {
    mix(seed.wrapping_add(n.wrapping_mul(0x9E37_79B9_7F4A_7C15))) >> 32
}

/// The SIZE of case `n` (1-based) of a run of `cases`: from 1 up to [`MAX_SIZE`] evenly over
/// the first hundred cases (or over the whole run when it is shorter), then from 1 again, so
/// small cases come first and every size recurs.
pub fn case_size(n: u64, cases: u64) -> u64 {
    let span = cases.clamp(1, MAX_SIZE);
    let step = (n - 1) % MAX_SIZE;
    if span < MAX_SIZE {
        1 + step * (MAX_SIZE - 1) / (span - 1).max(1)
    } else {
        1 + step
    }
}

/// The generator's seed for shrinking round `round` (1, 2, ...) at `size`, after case `n` of
/// a run with seed `seed` failed: another case seed, fixed by the four.
pub fn shrink_seed(seed: u64, n: u64, round: u64, size: u64) -> u64 {
    let key = (round << 8 | size).wrapping_mul(0xD1B5_4A32_D192_ED03);
    mix(case_seed(seed, n).wrapping_add(key)) >> 32
}

/// SplitMix64's output function.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One generated case: which run case it is, and the generator's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// The run's case number (1-based); a shrunk case keeps the number of the case it shrinks.
    pub number: u64,
    /// The generator's SEED.
    pub seed: u64,
    /// The generator's SIZE.
    pub size: u64,
}

/// A case run: its input, the expected answer, and the verdict.
#[derive(Debug, Clone)]
pub struct Tried {
    /// The case.
    pub case: Case,
    /// What the generator wrote.
    pub input: Vec<u8>,
    /// What the reference answered (empty without one).
    pub answer: Vec<u8>,
    /// The solution's verdict on it.
    pub report: CaseReport,
}

impl Tried {
    /// Whether the solution failed this case.
    pub fn failed(&self) -> bool {
        self.report.verdict != Verdict::Ac
    }

    /// Lines of its input.
    pub fn input_lines(&self) -> usize {
        String::from_utf8_lossy(&self.input).lines().count()
    }
}

/// The fewest runs shrinking gets by default. A small failing input is often rare: on the
/// wrong union of BOJ 1717 (tests/data/stress), a fresh seed fails at a size of at most 6 lines
/// only 0.3–3.5% of the time, so the 9 to 36 runs its failures take to find would seldom reach
/// one, where 200 (ten sweeps of the sizes below, well under a second) did for 9 seeds in 10.
pub const MIN_SHRINK_RUNS: u64 = 200;

/// How to run: how many cases, how many side by side, and shrinking's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// How many cases.
    pub cases: u64,
    /// Every case at this SIZE (`--size`), instead of [`case_size`]; a failure is then not
    /// shrunk, since its size is the point (the largest input, for a TLE hunt).
    pub size: Option<u64>,
    /// Cases run side by side (at least 1).
    pub jobs: usize,
    /// Runs shrinking may take; `None`: as many as it took to find the failure, and at least
    /// [`MIN_SHRINK_RUNS`].
    pub shrink_budget: Option<u64>,
}

/// What a run found.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Cases that passed before the first failure (all of them when none failed).
    pub passed: u64,
    /// The lowest-numbered failing case, shrunk.
    pub failure: Option<Failure>,
}

/// The first failing case, and the smallest failing input shrinking found from it.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The lowest-numbered failing case of the run.
    pub first: Tried,
    /// The smallest failing input found (by bytes; `first` when nothing smaller failed).
    pub smallest: Tried,
    /// Runs shrinking took.
    pub shrink_runs: u64,
}

/// A problem's programs, judge and limits, ready to run cases.
#[derive(Debug)]
pub struct Stress {
    problem: Problem,
    /// The run's seed.
    seed: u64,
    solver: Program,
    generator: PathBuf,
    reference: Option<PathBuf>,
    /// Run on every generated input before anything else sees it.
    validator: Option<Validator>,
    judge: Judge<PathBuf>,
    limits: CaseLimits,
    /// For the generator and the reference: max(10 s, 10 × the time limit), either clock.
    helper_limits: Limits,
    scratch: Scratch,
    /// Names the scratch files of cases run side by side apart.
    next_file: AtomicU64,
}

impl Stress {
    /// Readies `problem` for a stress run with seed `seed`, its `built` helpers and `solver`.
    /// An error, saying what to add, when the problem has no generator, or no reference where
    /// its judge needs the expected answer.
    pub fn new(
        problem: &Problem,
        seed: u64,
        built: &Executables,
        solver: Program,
    ) -> Result<Stress> {
        let Some(generator_name) = &problem.meta.generator else {
            bail!(
                "{} has no generator, so stress and scale have nothing to run; add a binary \
                 src/bin/{}-gen.rs that prints one input for `SEED SIZE`, and `generator = \
                 \"{}-gen\"` to [package.metadata.boj] in {} (`cargo xtask new ID --stress` \
                 scaffolds both for a new problem); nothing was written",
                problem.name,
                problem.name,
                problem.name,
                problem.manifest.display()
            );
        };
        let options = JudgeOptions {
            checker: built.checker.clone(),
            interactor: built.interactor.clone(),
            ..JudgeOptions::default()
        };
        let limits = judge::start_report(problem, &options)?.limits;
        // An interactive problem has no answer at all: a reference is ignored.
        let uses_reference = !matches!(problem.judge, Judge::Interactive(_));
        let helper_time = validate::helper_time(limits.time);
        Ok(Stress {
            problem: problem.clone(),
            seed,
            solver,
            generator: built
                .generator
                .clone()
                .with_context(|| format!("the generator {generator_name} was not built"))?,
            reference: built.reference.clone().filter(|_| uses_reference),
            validator: built
                .validator
                .as_deref()
                .map(|path| Validator::new(path, helper_time)),
            judge: judge::with_executables(&problem.judge, &options)?,
            limits,
            helper_limits: Limits::helper(helper_time, DEFAULT_OUTPUT_CAP),
            scratch: Scratch::new("stress")?,
            next_file: AtomicU64::new(0),
        })
    }

    /// Whether `problem`'s judge needs the expected answer (a checker decides without one, its
    /// ANSWER then empty; an interactor needs none).
    pub fn needs_reference(problem: &Problem) -> bool {
        matches!(problem.judge, Judge::Exact | Judge::Float(_))
    }

    /// Whether the output is judged: against the reference's answer, or by the checker or the
    /// interactor. Without (an exact or float problem stressed with no reference) only the run
    /// is: RE, TLE, MLE and OLE.
    pub fn judges_output(&self) -> bool {
        self.reference.is_some() || !Stress::needs_reference(&self.problem)
    }

    /// The judge a case is judged with: `None` when the output is not judged
    /// ([`Stress::judges_output`]).
    fn case_judge(&self) -> Option<&Judge<PathBuf>> {
        self.judges_output().then_some(&self.judge)
    }

    /// The limits cases are judged under.
    pub fn limits(&self) -> &CaseLimits {
        &self.limits
    }

    /// Whether the expected answers come from a reference.
    pub fn has_reference(&self) -> bool {
        self.reference.is_some()
    }

    /// The judge cases are judged with.
    pub fn judge(&self) -> &Judge<PathBuf> {
        &self.judge
    }

    /// The validator every generated input goes through, when the problem has one.
    pub fn validator(&self) -> Option<&Validator> {
        self.validator.as_ref()
    }

    /// The problem stressed.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Runs the plan's cases, `plan.jobs` side by side, calling `on_case` with each in case
    /// order (never after the lowest failing case), until one fails; then shrinks it.
    ///
    /// The finding does not depend on `plan.jobs`: the failure reported is the lowest-numbered
    /// failing case (every case below it has run by then), and shrinking tries its candidates
    /// in one fixed order. A generator, reference, checker or interactor that fails is the
    /// tool's error, at the lowest case it happens in.
    pub fn run(&self, plan: &Plan, mut on_case: impl FnMut(&Tried)) -> Result<Finding> {
        let cases: Vec<Case> = (1..=plan.cases)
            .map(|n| Case {
                number: n,
                seed: case_seed(self.seed, n),
                size: plan.size.unwrap_or_else(|| case_size(n, plan.cases)),
            })
            .collect();
        let mut passed = 0;
        let mut failed = None;
        self.run_in_order(&cases, plan.jobs, |tried| {
            if tried.failed() {
                failed = Some(tried.clone());
                return false;
            }
            passed += 1;
            on_case(tried);
            true
        })?;
        let Some(first) = failed else {
            return Ok(Finding {
                passed,
                failure: None,
            });
        };
        let budget = match plan.size {
            Some(_) => 0,
            None => plan
                .shrink_budget
                .unwrap_or(first.case.number.max(MIN_SHRINK_RUNS)),
        };
        let (smallest, shrink_runs) = self.shrink(plan.jobs, &first, budget)?;
        Ok(Finding {
            passed,
            failure: Some(Failure {
                first,
                smallest,
                shrink_runs,
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
        take: impl FnMut(&Tried) -> bool,
    ) -> Result<usize> {
        in_order(cases, jobs, |case| self.try_case(case), Tried::failed, take)
    }

    /// Looks for a smaller failing input than `first`'s within `budget` runs, smallest sizes
    /// first: round 0 tries the failing case's own seed at every smaller size, round r > 0
    /// another [`shrink_seed`] at every size up to the smallest failing one found so far. A
    /// round ends at its first failing candidate; the answer is the smallest failing input seen,
    /// by bytes. Candidates run `jobs` side by side, but are counted and taken in this one
    /// order, so the result does not depend on `jobs`.
    fn shrink(&self, jobs: usize, first: &Tried, budget: u64) -> Result<(Tried, u64)> {
        let mut best = first.clone();
        let mut runs = 0;
        for round in 0.. {
            if runs >= budget {
                break;
            }
            if best.case.size == 1 {
                break;
            }
            let candidates: Vec<Case> = (1..best.case.size)
                .map(|size| Case {
                    number: first.case.number,
                    seed: if round == 0 {
                        first.case.seed
                    } else {
                        shrink_seed(self.seed, first.case.number, round, size)
                    },
                    size,
                })
                .take((budget - runs) as usize)
                .collect();
            let mut found = None;
            runs += self.run_in_order(&candidates, jobs, |tried| {
                if tried.failed() {
                    found = Some(tried.clone());
                }
                found.is_none()
            })? as u64;
            if let Some(tried) = found.filter(|t| t.input.len() < best.input.len()) {
                best = tried;
            }
        }
        Ok((best, runs))
    }

    /// Writes the case's input into the file `path` and returns it: the generator's output,
    /// passed by the validator where the problem has one. A generator that fails, and an input
    /// the validator refuses (with its reason, the seed and size, and the command that writes
    /// it again), are the tool's errors: nothing made from them is ever judged or saved.
    pub fn generate_into(&self, case: &Case, path: &Path) -> Result<Vec<u8>> {
        let args = [case.seed.to_string(), case.size.to_string()];
        let input = self
            .run_helper("generator", &self.generator, &args, None)
            .with_context(|| format!("on case {}", case.number))?;
        write(path, &input)?;
        let Some(validator) = &self.validator else {
            return Ok(input);
        };
        let Some(refusal) = validator
            .check(path)
            .with_context(|| format!("on the input of {}", self.generator_command(case)))?
        else {
            return Ok(input);
        };
        bail!(
            "the validator {} refused the input of case {} (seed {}, size {}) with {}:\n{}\nthe \
             generator wrote it as: {}\nso the generator breaks the problem's constraints (or \
             the validator is wrong); this is not the solution's failure, and nothing was saved",
            validator.name(),
            case.number,
            case.seed,
            case.size,
            refusal.exit,
            validate::indent(refusal.reason_or_silence()),
            self.generator_command(case)
        )
    }

    /// Generates the case's input, asks the reference for its answer and judges the solution.
    /// A generator, validator, reference, checker or interactor that fails is the tool's error,
    /// never a verdict.
    pub fn try_case(&self, case: &Case) -> Result<Tried> {
        let file = self.next_file.fetch_add(1, Ordering::Relaxed);
        let sample = Sample {
            name: self.case_name(case),
            input: self.scratch.path().join(format!("{file}.in")),
            answer: self.scratch.path().join(format!("{file}.out")),
        };
        let cleanup = RemoveOnDrop(&[&sample.input, &sample.answer]);
        let input = self.generate_into(case, &sample.input)?;
        let answer = match &self.reference {
            Some(reference) => {
                let no_args: [&str; 0] = [];
                self.run_helper("reference", reference, &no_args, Some(&sample.input))
                    .with_context(|| format!("on the input of {}", self.generator_command(case)))?
            }
            None => Vec::new(),
        };
        write(&sample.answer, &answer)?;
        let report =
            judge::run_case_quickly(&sample, &self.solver, self.case_judge(), &self.limits)?;
        drop(cleanup);
        self.judge_worked(case, &report)?;
        Ok(Tried {
            case: *case,
            input,
            answer,
            report,
        })
    }

    /// An error when the checker or interactor failed on `case` (JE): the judge's error, never
    /// a verdict.
    fn judge_worked(&self, case: &Case, report: &CaseReport) -> Result<()> {
        if report.verdict != Verdict::Je {
            return Ok(());
        }
        let (exit, message) = match &report.detail {
            Detail::Checker { exit, message } => (*exit, message.as_str()),
            Detail::Interaction {
                interactor,
                interactor_stderr,
                ..
            } => (*interactor, interactor_stderr.as_str()),
            _ => (Exit::Code(0), ""),
        };
        bail!(
            "the checker or interactor failed on case {} ({exit}){}{}; this is the judge's \
             error, not the solution's, and nothing was saved (the input: {})",
            case.number,
            if message.is_empty() { "" } else { ":\n" },
            message,
            self.generator_command(case)
        )
    }

    /// The solution run once on the input in the file `input` (of `case`), with its own exact
    /// figures (never the quick run's bound), judged by its run alone: RE, TLE, MLE, OLE, or AC.
    /// An interactive solution talks to its interactor, which judges it, when `interact`; else
    /// it runs alone too. How `scale` times a size (and, on an empty input, the solution's
    /// start-up).
    pub fn time_run(&self, case: &Case, input: &Path, interact: bool) -> Result<CaseReport> {
        let sample = Sample {
            name: self.case_name(case),
            input: input.to_path_buf(),
            answer: input.to_path_buf(),
        };
        let judge = Some(&self.judge).filter(|judge| interact && judge.interactor().is_some());
        let report =
            judge::run_case_measured(&sample, &self.solver, judge, &self.limits, Measure::Exact)?;
        self.judge_worked(case, &report)?;
        Ok(report)
    }

    /// The name a case is saved and reported under: `stress-SEED-N`.
    pub fn case_name(&self, case: &Case) -> String {
        format!("stress-{}-{}", self.seed, case.number)
    }

    /// Runs the generator or the reference; its stdout, or an error naming it and the reason.
    fn run_helper<S: AsRef<OsStr>>(
        &self,
        role: &str,
        program: &Path,
        args: &[S],
        stdin: Option<&Path>,
    ) -> Result<Vec<u8>> {
        let outcome =
            (Program::new(program)).run(args, stdin, &self.helper_limits, &Setup::default())?;
        let name = program.file_name().unwrap_or_default().to_string_lossy();
        let why = match outcome.exit {
            Exit::Code(0) => return Ok(outcome.stdout),
            Exit::TimedOut(_) => format!(
                "ran past its limit of {} ms",
                self.helper_limits.cpu.as_millis()
            ),
            exit => exit.to_string(),
        };
        let stderr = String::from_utf8_lossy(&outcome.stderr_tail);
        let stderr = stderr.trim_end();
        bail!(
            "the {role} {name} failed ({why}){}{}; this is the {role}'s error, not the \
             solution's, and nothing was saved",
            if stderr.is_empty() { "" } else { ":\n" },
            stderr
        )
    }

    /// Judges `tried`'s case again with `checked`, the solution's checked build (overflow
    /// checks and debug assertions on): see [`judge::check_again`].
    pub fn check_again(&self, tried: &Tried, checked: &Program) -> Result<Option<CheckedRun>> {
        let file = self.next_file.fetch_add(1, Ordering::Relaxed);
        let sample = Sample {
            name: tried.report.name.clone(),
            input: self.scratch.path().join(format!("{file}.in")),
            answer: self.scratch.path().join(format!("{file}.out")),
        };
        let _cleanup = RemoveOnDrop(&[&sample.input, &sample.answer]);
        write(&sample.input, &tried.input)?;
        write(&sample.answer, &tried.answer)?;
        let judged = Judged {
            sample: &sample,
            judge: self.case_judge(),
            limits: &self.limits,
        };
        judge::check_again(&judged, &tried.report, checked)
    }

    /// The solution's output on `tried`'s input, run again (a checker's verdict does not
    /// carry it), up to `cap` bytes.
    pub fn output_again(&self, tried: &Tried, cap: u64) -> Result<Vec<u8>> {
        let input = self.scratch.path().join("again.in");
        let _cleanup = RemoveOnDrop(&[&input]);
        write(&input, &tried.input)?;
        let no_args: [&str; 0] = [];
        let limits = Limits {
            output_cap: cap,
            ..self.limits.for_solution()
        };
        let outcome = self
            .solver
            .run(&no_args, Some(&input), &limits, &Setup::default())?;
        Ok(outcome.stdout)
    }

    /// The command that prints the case's input again.
    pub fn generator_command(&self, case: &Case) -> String {
        let generator = self.problem.meta.generator.as_deref().unwrap_or_default();
        format!(
            "cargo run -q --manifest-path {} --bin {generator} -- {} {}",
            shown_path(&self.problem.manifest),
            case.seed,
            case.size
        )
    }
}

/// Does `work` on each of `items`, `jobs` at once, and hands the results to `take` in the
/// items' order while it returns true; returns how many it took. A worker that finds a result
/// that `stops` (or an error) starts no item after it, so every item before the lowest such one
/// has run when it is taken: what `take` sees does not depend on `jobs`.
fn in_order<I: Sync, T: Send>(
    items: &[I],
    jobs: usize,
    work: impl Fn(&I) -> Result<T> + Sync,
    stops: impl Fn(&T) -> bool + Sync,
    mut take: impl FnMut(&T) -> bool,
) -> Result<usize> {
    let next = AtomicU64::new(0);
    // Items past this index need not run: one at or below it already stops the run.
    let stop = AtomicU64::new(u64::MAX);
    let (send, results) = mpsc::channel::<(usize, Result<T>)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let send = send.clone();
            let (next, stop, work, stops) = (&next, &stop, &work, &stops);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i as usize >= items.len() || i > stop.load(Ordering::SeqCst) {
                    break;
                }
                let result = work(&items[i as usize]);
                if result.as_ref().map_or(true, stops) {
                    stop.fetch_min(i, Ordering::SeqCst);
                }
                if send.send((i as usize, result)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        // Results arrive in any order; they are taken in the items' order. Returning drops the
        // receiver, which ends the other workers after their current item.
        let mut done: BTreeMap<usize, Result<T>> = BTreeMap::new();
        let mut taken = 0;
        for (i, result) in results {
            done.insert(i, result);
            while let Some(result) = done.remove(&taken) {
                let more = take(&result?);
                taken += 1;
                if !more {
                    return Ok(taken);
                }
            }
        }
        Ok(taken)
    })
}

/// Removes its files when dropped, so a case's scratch files go even when the case errs.
struct RemoveOnDrop<'a>(&'a [&'a PathBuf]);

impl Drop for RemoveOnDrop<'_> {
    fn drop(&mut self) {
        for path in self.0 {
            let _ = fs::remove_file(path);
        }
    }
}

/// `path` relative to the current directory when it lies below it.
pub fn shown_path(path: &Path) -> String {
    let here = std::env::current_dir().ok();
    let here = here.and_then(|d| dunce::canonicalize(d).ok());
    here.and_then(|d| path.strip_prefix(d).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn sizes_grow_from_one_to_the_maximum_then_start_again() {
        let sizes = |cases| (1..=cases).map(|n| case_size(n, cases)).collect::<Vec<_>>();
        assert_eq!(sizes(1), [1]);
        assert_eq!(sizes(2), [1, 100]);
        assert_eq!(sizes(4), [1, 34, 67, 100]);
        let run = sizes(250);
        assert_eq!(&run[..3], [1, 2, 3]);
        assert_eq!(run[99], 100);
        assert_eq!(&run[100..102], [1, 2]);
        assert!(run.iter().all(|&s| (1..=MAX_SIZE).contains(&s)));
        let short = sizes(30);
        assert!(short.windows(2).all(|w| w[0] < w[1]), "{short:?}");
        assert_eq!((short[0], short[29]), (1, 100));
    }

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

    /// `in_order` over 1..=60 with items 17, 23 and 41 failing, each item taking a time that
    /// scrambles the order in which they finish: whatever `jobs` is, exactly items 1 to 17 are
    /// taken, in order, and an error at 12 wins over a failure at 17.
    #[test]
    fn results_are_taken_in_order_up_to_the_lowest_failure_whatever_the_jobs() {
        let items: Vec<u64> = (1..=60).collect();
        let work = |&i: &u64| -> Result<u64> {
            std::thread::sleep(Duration::from_micros(mix(i) % 3000));
            Ok(i)
        };
        let failing = |i: &u64| [17, 23, 41].contains(i);
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let taken = in_order(&items, jobs, work, failing, |&i| {
                seen.push(i);
                !failing(&i)
            })
            .unwrap();
            assert_eq!(taken, 17, "jobs {jobs}");
            assert_eq!(seen, (1..=17).collect::<Vec<_>>(), "jobs {jobs}");

            let erring = |&i: &u64| -> Result<u64> {
                if i == 12 {
                    bail!("the generator failed on {i}");
                }
                work(&i)
            };
            let err = in_order(&items, jobs, erring, failing, |i| !failing(i)).unwrap_err();
            assert_eq!(err.to_string(), "the generator failed on 12", "jobs {jobs}");
        }
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
