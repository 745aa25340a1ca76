//! One case run, shared by stress, hack, shrinking and scale: an input is generated (or given),
//! the problem's validator passes it, the reference answers it, and the solution is judged on it
//! with the same code as `cargo xtask test`. A generator, validator, reference, checker or
//! interactor that fails is the tool's error, never a verdict.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Error, Result};

use super::input::mix;
use crate::judge::{
    self, CaseLimits, CaseReport, CheckedRun, Detail, JudgeOptions, Judged, Verdict,
};
use crate::run::{Exit, Limits, Measure, Program, Setup, DEFAULT_OUTPUT_CAP};
use crate::scratch::Scratch;
use crate::validate::{self, Refusal, Validator};
use crate::workspace::build::Executables;
use crate::workspace::problem::{Judge, Problem, Sample};

/// The generator's seed for case `n` of a run with seed `seed`: SplitMix64's output function
/// applied to `seed + n × 0x9E3779B97F4A7C15` (wrapping), keeping the high 32 bits, so a case
/// seed fits any integer type a generator may parse it into.
pub fn case_seed(seed: u64, n: u64) -> u64 {
    mix(seed.wrapping_add(n.wrapping_mul(0x9E37_79B9_7F4A_7C15))) >> 32
}

/// A generated input's name: which case of a run it is, and the generator's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// The run's case number (1-based); a case found by shrinking keeps the number of the case
    /// it shrinks.
    pub number: u64,
    /// The generator's SEED.
    pub seed: u64,
    /// The generator's SIZE.
    pub size: u64,
}

/// An input run: the input, the expected answer, and the verdict.
#[derive(Debug, Clone)]
pub struct Tried {
    /// The input.
    pub input: Vec<u8>,
    /// What the reference answered (empty without one).
    pub answer: Vec<u8>,
    /// The solution's verdict on it.
    pub report: CaseReport,
}

impl Tried {
    /// Whether the solution failed this input.
    pub fn failed(&self) -> bool {
        self.report.verdict != Verdict::Ac
    }

    /// Lines of its input.
    pub fn input_lines(&self) -> usize {
        String::from_utf8_lossy(&self.input).lines().count()
    }
}

/// An input that was not generated, run: refused by the validator, or judged.
#[derive(Debug, Clone)]
pub enum Checked {
    /// The validator refused it: it breaks the problem's constraints, so nothing ran on it.
    Refused(Refusal),
    /// It met the constraints and was judged.
    Tried(Box<Tried>),
}

/// A problem's programs, judge and limits, ready to run cases.
#[derive(Debug)]
pub struct Engine {
    problem: Problem,
    solver: Program,
    generator: Option<PathBuf>,
    reference: Option<PathBuf>,
    /// Run on every input before anything else sees it.
    validator: Option<Validator>,
    judge: Judge<PathBuf>,
    limits: CaseLimits,
    /// For the generator and the reference: max(10 s, 10 × the time limit) of CPU time and of
    /// waiting ([`Limits::helper`]).
    helper_limits: Limits,
    scratch: Scratch,
    /// Names the scratch files of cases run side by side apart.
    next_file: AtomicU64,
}

impl Engine {
    /// Readies `problem` for runs of its `built` helpers and `solver`. An error, saying what to
    /// add, when the problem has no generator (stress and scale need one; [`Engine::alone`]
    /// readies one without).
    pub fn new(problem: &Problem, built: &Executables, solver: Program) -> Result<Engine> {
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
        let mut engine = Engine::alone(problem, built, solver)?;
        engine.generator = Some(
            built
                .generator
                .clone()
                .with_context(|| format!("the generator {generator_name} was not built"))?,
        );
        Ok(engine)
    }

    /// Readies `problem` for runs of inputs given to it (its generator used where it has one).
    pub fn alone(problem: &Problem, built: &Executables, solver: Program) -> Result<Engine> {
        let options = JudgeOptions {
            checker: built.checker.clone(),
            interactor: built.interactor.clone(),
            ..JudgeOptions::default()
        };
        let limits = judge::start_report(problem, &options)?.limits;
        // An interactive problem has no answer at all: a reference is ignored.
        let uses_reference = !matches!(problem.judge, Judge::Interactive(_));
        let helper_time = validate::helper_time(limits.time);
        Ok(Engine {
            problem: problem.clone(),
            solver,
            generator: built.generator.clone(),
            reference: built.reference.clone().filter(|_| uses_reference),
            validator: built
                .validator
                .as_deref()
                .map(|path| Validator::new(path, helper_time)),
            judge: judge::with_executables(&problem.judge, &options)?,
            limits,
            helper_limits: Limits::helper(helper_time, DEFAULT_OUTPUT_CAP),
            scratch: Scratch::new("hunt")?,
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
        self.reference.is_some() || !Engine::needs_reference(&self.problem)
    }

    /// The judge a case is judged with: `None` when the output is not judged
    /// ([`Engine::judges_output`]).
    pub fn case_judge(&self) -> Option<&Judge<PathBuf>> {
        self.judges_output().then_some(&self.judge)
    }

    /// The limits cases are judged under.
    pub fn limits(&self) -> &CaseLimits {
        &self.limits
    }

    /// The time the generator and the reference may take: max(10 s, 10 × the time limit).
    pub fn helper_time(&self) -> Duration {
        self.helper_limits.time
    }

    /// Whether the expected answers come from a reference.
    pub fn has_reference(&self) -> bool {
        self.reference.is_some()
    }

    /// The judge cases are judged with.
    pub fn judge(&self) -> &Judge<PathBuf> {
        &self.judge
    }

    /// The validator every input goes through, when the problem has one.
    pub fn validator(&self) -> Option<&Validator> {
        self.validator.as_ref()
    }

    /// The problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The solution judged.
    pub fn solver(&self) -> &Program {
        &self.solver
    }

    /// The inputs of the problem's samples, as they are fed (CRLF as LF); none when they cannot
    /// be read. What the counts of an input are inferred from, beside the generator's.
    pub fn sample_inputs(&self) -> Vec<Vec<u8>> {
        let samples = self.problem.samples().unwrap_or_default();
        samples
            .iter()
            .filter_map(|sample| fs::read(&sample.input).ok())
            .map(|bytes| {
                String::from_utf8_lossy(&bytes)
                    .replace("\r\n", "\n")
                    .into_bytes()
            })
            .collect()
    }

    /// A fresh path in the engine's scratch folder, for runs side by side.
    pub fn scratch_file(&self, extension: &str) -> PathBuf {
        let file = self.next_file.fetch_add(1, Ordering::Relaxed);
        self.scratch.path().join(format!("{file}.{extension}"))
    }

    /// Writes the case's input into the file `path` and returns it: the generator's output,
    /// passed by the validator where the problem has one. A generator that fails, and an input
    /// the validator refuses (with its reason, the seed and size, and the command that writes
    /// it again), are the tool's errors: nothing made from them is ever judged or saved.
    pub fn generate_into(&self, case: &Case, path: &Path) -> Result<Vec<u8>> {
        let generator = self
            .generator
            .as_deref()
            .context("the problem has no generator")?;
        let args = [case.seed.to_string(), case.size.to_string()];
        let input = self
            .run_helper("generator", generator, &args, None)
            .with_context(|| {
                format!(
                    "on case {} (its command: {})",
                    case.number,
                    self.generator_command(case)
                )
            })?;
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

    /// The generator's input for `case`, validated ([`Engine::generate_into`]).
    pub fn generate(&self, case: &Case) -> Result<Vec<u8>> {
        let path = self.scratch_file("in");
        let _cleanup = RemoveOnDrop(&[&path]);
        self.generate_into(case, &path)
    }

    /// Generates the case's input, asks the reference for its answer and judges the solution,
    /// the case reported as `name`.
    pub fn try_case(&self, case: &Case, name: &str) -> Result<Tried> {
        let sample = self.scratch_sample(name);
        let _cleanup = RemoveOnDrop(&[&sample.input, &sample.answer]);
        let input = self.generate_into(case, &sample.input)?;
        let context = || format!("on the input of {}", self.generator_command(case));
        self.answer_and_judge(&sample, input, &context)
    }

    /// Runs `input`, an input no generator wrote (a sample's, or one a search or shrinking
    /// made), reported as `name`: the validator first, where the problem has one; then, if it
    /// passes, the reference's answer and the solution's verdict.
    pub fn try_input(&self, input: &[u8], name: &str) -> Result<Checked> {
        let sample = self.scratch_sample(name);
        let _cleanup = RemoveOnDrop(&[&sample.input, &sample.answer]);
        write(&sample.input, input)?;
        if let Some(refusal) = self.refusal(&sample.input)? {
            return Ok(Checked::Refused(refusal));
        }
        let context = || format!("on the input {}", one_line(input));
        let tried = self.answer_and_judge(&sample, input.to_vec(), &context)?;
        Ok(Checked::Tried(Box::new(tried)))
    }

    /// Whether the validator refuses the input in the file `path` (never, without one).
    pub fn refusal(&self, path: &Path) -> Result<Option<Refusal>> {
        match &self.validator {
            Some(validator) => validator.check(path),
            None => Ok(None),
        }
    }

    /// Whether the validator passes the input in the file `path` within `time`, a validator
    /// killed counting as refusing ([`Validator::passes_within`]); always, without one.
    pub fn passes_within(&self, path: &Path, time: Duration) -> Result<bool> {
        match &self.validator {
            Some(validator) => validator.passes_within(path, time),
            None => Ok(true),
        }
    }

    /// The reference's answer to the input in the file `path` (empty without a reference).
    pub fn answer(&self, path: &Path) -> Result<Vec<u8>> {
        match &self.reference {
            Some(reference) => {
                let no_args: [&str; 0] = [];
                self.run_helper("reference", reference, &no_args, Some(path))
            }
            None => Ok(Vec::new()),
        }
    }

    /// The reference's answer and the solution's verdict on `sample`, whose input (`input`) is
    /// written; `context` says which input, in an error of the reference.
    fn answer_and_judge(
        &self,
        sample: &Sample,
        input: Vec<u8>,
        context: &dyn Fn() -> String,
    ) -> Result<Tried> {
        let answer = self.answer(&sample.input).with_context(context)?;
        write(&sample.answer, &answer)?;
        let report =
            judge::run_case_quickly(sample, &self.solver, self.case_judge(), &self.limits)?;
        self.judge_worked(&sample.name, &report)
            .with_context(context)?;
        Ok(Tried {
            input,
            answer,
            report,
        })
    }

    /// A sample of scratch files, reported as `name`.
    fn scratch_sample(&self, name: &str) -> Sample {
        let file = self.next_file.fetch_add(1, Ordering::Relaxed);
        Sample {
            name: name.to_string(),
            input: self.scratch.path().join(format!("{file}.in")),
            answer: self.scratch.path().join(format!("{file}.out")),
        }
    }

    /// An error when the checker or interactor failed on the case `name` (JE): the judge's
    /// error, never a verdict.
    fn judge_worked(&self, name: &str, report: &CaseReport) -> Result<()> {
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
            "the checker or interactor failed on {name} ({exit}){}{}; this is the judge's \
             error, not the solution's, and nothing was saved",
            if message.is_empty() { "" } else { ":\n" },
            message,
        )
    }

    /// The solution run once on the input in the file `input` (of `case`), with its own exact
    /// figures (never the quick run's bound), judged by its run alone: RE, TLE, MLE, OLE, or AC.
    /// An interactive solution talks to its interactor, which judges it, when `interact`; else
    /// it runs alone too. How `scale` times a size (and, on an empty input, the solution's
    /// start-up).
    pub fn time_run(&self, case: &Case, input: &Path, interact: bool) -> Result<CaseReport> {
        let name = format!("size {}", case.size);
        let sample = Sample {
            name: name.clone(),
            input: input.to_path_buf(),
            answer: input.to_path_buf(),
        };
        let judge = Some(&self.judge).filter(|judge| interact && judge.interactor().is_some());
        let report =
            judge::run_case_measured(&sample, &self.solver, judge, &self.limits, Measure::Exact)?;
        self.judge_worked(&name, &report)
            .with_context(|| format!("the input: {}", self.generator_command(case)))?;
        Ok(report)
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
        if outcome.exit == Exit::Code(0) {
            return Ok(outcome.stdout);
        }
        Err(self.helper_failed(role, program, outcome.exit, &outcome.stderr_tail))
    }

    /// The error for a generator or reference (`role`) that ended as `exit`, with the tail of
    /// what it wrote to stderr.
    fn helper_failed(&self, role: &str, program: &Path, exit: Exit, stderr: &[u8]) -> Error {
        let name = program.file_name().unwrap_or_default().to_string_lossy();
        let why = self.helper_limits.ended(exit);
        let stderr = String::from_utf8_lossy(stderr);
        let stderr = stderr.trim_end();
        anyhow!(
            "the {role} {name} failed ({why}){}{}; this is the {role}'s error, not the \
             solution's, and nothing was saved",
            if stderr.is_empty() { "" } else { ":\n" },
            stderr
        )
    }

    /// The reference's CPU time on the input in the file `path`: how [`super::sizes`] tells how
    /// large inputs may grow. Its limit when it ran into it; an error, as for any case, when it
    /// failed otherwise (a crash the sizes it allows might never meet again).
    pub fn time_reference(&self, path: &Path) -> Result<Option<Duration>> {
        let Some(reference) = &self.reference else {
            return Ok(None);
        };
        let no_args: [&str; 0] = [];
        let outcome = Program::new(reference).run(
            &no_args,
            Some(path),
            &self.helper_limits,
            &Setup {
                measure: Measure::AtMost,
                ..Setup::default()
            },
        )?;
        match outcome.exit {
            Exit::Code(0) => Ok(Some(outcome.cpu_time.unwrap_or(outcome.time))),
            // Past its limit: the caller stops growing here.
            Exit::TimedOut(_) => Ok(Some(self.helper_limits.time)),
            exit => Err(self.helper_failed("reference", reference, exit, &outcome.stderr_tail)),
        }
    }

    /// Judges `tried` again with `checked`, the solution's checked build (overflow checks and
    /// debug assertions on): see [`judge::check_again`].
    pub fn check_again(&self, tried: &Tried, checked: &Program) -> Result<Option<CheckedRun>> {
        let sample = self.scratch_sample(&tried.report.name);
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
        let input = self.scratch_file("in");
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

/// `input`'s first line, cut, for an error message.
fn one_line(input: &[u8]) -> String {
    let text = String::from_utf8_lossy(input);
    let first = text.lines().next().unwrap_or_default();
    let cut: String = first.chars().take(60).collect();
    let more = if cut.len() < text.trim_end().len() {
        " …"
    } else {
        ""
    };
    format!("starting `{cut}`{more}")
}

/// Removes its files when dropped, so a case's scratch files go even when the case errs.
pub(crate) struct RemoveOnDrop<'a>(pub(crate) &'a [&'a PathBuf]);

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

pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
