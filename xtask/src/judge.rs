//! Judging: runs a solver on every sample of a problem and gives each case a verdict as BOJ
//! would (AC, WA, PE, RE, TLE, OLE, MLE), by exact comparison with BOJ's whitespace rules, by
//! the float judge ([`float`]) or by the problem's checker.
//!
//! The entry point is [`run_samples`]; it takes the program explicitly, so a cargo build, a
//! rustc-built bundle, a prebuilt binary or any command (`python3 sol.py`) is judged by the
//! same code.

use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

pub mod float;
pub mod hint;

use crate::run::interact::{self, Interaction, Transcript};
use crate::run::{self, process, Clock, Exit, Limits, Measure, Outcome, Program, Setup, TimeUp};
use crate::scratch::Scratch;
use crate::workspace::build::StackAt;
use crate::workspace::problem::{Judge, Problem, Sample, MIB};

pub use hint::{CheckedRun, Hint};

/// A case's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Accepted.
    Ac,
    /// Wrong answer.
    Wa,
    /// Presentation error, BOJ's "wrong output format": right apart from whitespace.
    Pe,
    /// Runtime error: non-zero exit status or killed by a signal.
    Re,
    /// Time limit exceeded: its CPU time over the limit (killed there, or ended over it), or
    /// killed at the wall-clock cap.
    Tle,
    /// Output limit exceeded: stopped at the output cap.
    Ole,
    /// Memory limit exceeded: peak resident memory over the limit.
    Mle,
    /// Judge error: the checker itself failed (exit status other than 0 or 1, or a crash), so
    /// the run's result cannot be trusted. Not one of BOJ's verdicts; `cargo xtask test` exits 2.
    Je,
}

impl Verdict {
    /// The short name: `AC`, `WA`, ...
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Ac => "AC",
            Verdict::Wa => "WA",
            Verdict::Pe => "PE",
            Verdict::Re => "RE",
            Verdict::Tle => "TLE",
            Verdict::Ole => "OLE",
            Verdict::Mle => "MLE",
            Verdict::Je => "JE",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Settings for [`run_samples`]; `Default` is BOJ's behaviour with the problem's own limits.
#[derive(Debug, Clone, Default)]
pub struct JudgeOptions {
    /// The checker executable; required when the problem's judge is `checker`
    /// (see [`crate::workspace::build::Executables`]).
    pub checker: Option<PathBuf>,
    /// The interactor executable; required when the problem's judge is `interactive`.
    pub interactor: Option<PathBuf>,
    /// Stdout cap in bytes; `None` means [`run::DEFAULT_OUTPUT_CAP`] (64 MiB).
    pub output_cap: Option<u64>,
    /// The solution was linked with the problem's stack (cargo's judge build and `--bundled`,
    /// where the system fixes the stack when a program is linked: [`crate::workspace::build::StackAt`]),
    /// so the ceiling on a stack set at run time does not bound it. `false` for a program from
    /// elsewhere (`--prebuilt`, `--command`).
    pub stack_linked: bool,
}

/// The limits a problem was judged under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseLimits {
    /// Time limit, on the solution's CPU time (user and system); its time spent waiting is
    /// capped at [`run::idle_cap`] of it, and the wall clock at [`run::outer_bound`].
    pub time: Duration,
    /// Memory limit, in bytes.
    pub memory: u64,
    /// The stack the solution's main thread may grow to, in bytes (by default the memory
    /// limit).
    pub stack: u64,
    /// The stack it gets: `stack`, or less where the system caps a stack set at run time (a
    /// hard `RLIMIT_STACK`; macOS's 64 MiB) and the solution was not linked with its stack
    /// ([`JudgeOptions::stack_linked`]).
    pub stack_given: u64,
    /// Stdout cap, in bytes.
    pub output_cap: u64,
}

impl CaseLimits {
    /// What the runner holds the solution to, and judges it by ([`Limits::judged`]): its CPU
    /// time up to [`run::NEAR_LIMIT_PERCENT`] past the time limit (a run over the limit is TLE
    /// wherever it ends, and one that ends by then tells how near it came:
    /// [`Hint::NearLimit`]), the caps on waiting and on the wall clock, the output cap.
    pub fn for_solution(&self) -> Limits {
        Limits::judged(self.time, self.output_cap)
    }

    /// The time a checker or an interactor may take: max(10 s, 5 × the time limit), a
    /// checker's of CPU time and of waiting ([`Limits::helper`]), an interactor's of CPU time
    /// ([`Limits::interactor`]). It is the problem's code, not the contestant's.
    pub fn for_judge(&self) -> Duration {
        CHECKER_TIME.max(self.time * 5)
    }
}

/// Why a case is not AC, with what a reader needs to see.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// Nothing to add (AC, OLE, MLE: the limits say it).
    None,
    /// TLE: how the run went past its time.
    Overtime {
        /// The limit the runner killed it at; `None` when it ended by itself over the time
        /// limit.
        killed: Option<TimeUp>,
    },
    /// Exact judge: the model answer and the output (up to the cap) for a diff.
    Diff {
        /// The `.out` file.
        expected: Vec<u8>,
        /// What the solver printed.
        actual: Vec<u8>,
    },
    /// Float judge: the first token that differs.
    Float(float::Mismatch),
    /// Checker judge: what the checker said on stderr when it rejected (WA) or failed (JE).
    Checker {
        /// How the checker ended.
        exit: Exit,
        /// The tail of its stderr.
        message: String,
    },
    /// Interactive judge: what the two sides said and how the interactor ended (WA, JE, TLE),
    /// or how the solution ended (RE).
    Interaction {
        /// How the solution ended.
        solution: Exit,
        /// The last lines each side wrote, in order.
        transcript: Transcript,
        /// How the interactor ended.
        interactor: Exit,
        /// The end of the interactor's stderr (its reason, when it rejects).
        interactor_stderr: String,
        /// The end of the solution's stderr.
        solution_stderr: String,
    },
    /// RE: how the solver ended and the tail of its stderr.
    Crash {
        /// Exit status or signal.
        exit: Exit,
        /// The tail of its stderr, lossily decoded.
        stderr_tail: String,
    },
}

/// One sample's result.
#[derive(Debug, Clone)]
pub struct CaseReport {
    /// The sample's name (`samples/NAME.in`).
    pub name: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Wall-clock time.
    pub time: Duration,
    /// User plus system CPU time, when the system can tell: the time the verdict goes by.
    pub cpu_time: Option<Duration>,
    /// Peak memory in bytes, when the system can tell.
    pub peak_memory: Option<u64>,
    /// `peak_memory` may be more than the solution's own (see [`run_case_quickly`]).
    pub peak_is_upper_bound: bool,
    /// Why it is not AC.
    pub detail: Detail,
    /// Likely causes of the verdict, said beside it; they never change it.
    pub hints: Vec<Hint>,
}

impl CaseReport {
    /// The time the verdict goes by, and its clock: the CPU time, or the wall-clock time for a
    /// run killed at the wall-clock cap and where the system tells no CPU time.
    pub fn judged_time(&self) -> (Duration, Clock) {
        let killed = match &self.detail {
            Detail::Overtime { killed } => *killed,
            Detail::Interaction {
                solution: Exit::TimedOut(up),
                ..
            } => Some(*up),
            _ => None,
        };
        let capped = killed.is_some_and(|up| up.clock() != Clock::Cpu);
        match self.cpu_time {
            Some(cpu) if !capped => (cpu, Clock::Cpu),
            _ => (self.time, Clock::Wall),
        }
    }
}

/// All samples of one problem.
#[derive(Debug, Clone)]
pub struct ProblemReport {
    /// The problem's name (package name).
    pub problem: String,
    /// How outputs were judged.
    pub judge: Judge<String>,
    /// The limits used.
    pub limits: CaseLimits,
    /// Sample names, in the order they run.
    pub sample_names: Vec<String>,
    /// One report per sample, in order.
    pub cases: Vec<CaseReport>,
}

impl ProblemReport {
    /// How many cases are AC.
    pub fn accepted(&self) -> usize {
        self.cases
            .iter()
            .filter(|c| c.verdict == Verdict::Ac)
            .count()
    }

    /// Every case is AC (true for a problem with no samples).
    pub fn all_accepted(&self) -> bool {
        self.accepted() == self.cases.len()
    }

    /// Some checker failed: the result cannot be trusted.
    pub fn judge_failed(&self) -> bool {
        self.cases.iter().any(|c| c.verdict == Verdict::Je)
    }

    /// The case that took longest, by the time verdicts go by.
    pub fn slowest(&self) -> Option<&CaseReport> {
        self.cases.iter().max_by_key(|c| c.judged_time().0)
    }
}

/// Comparison of an output with the model answer under BOJ's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// Equal once trailing whitespace at line ends (spaces, tabs, `\r`) and empty lines at the
    /// end are ignored; a missing final newline is fine.
    Same,
    /// Equal only once all whitespace is ignored: PE.
    WhitespaceOnly,
    /// Different: WA.
    Different,
}

/// Compares `actual` with `expected` as BOJ does: see [`Comparison`].
pub fn compare(expected: &[u8], actual: &[u8]) -> Comparison {
    if significant_lines(expected) == significant_lines(actual) {
        Comparison::Same
    } else if non_whitespace(expected).eq(non_whitespace(actual)) {
        Comparison::WhitespaceOnly
    } else {
        Comparison::Different
    }
}

/// The lines that count: split on `\n`, trailing spaces/tabs/`\r` trimmed, empty lines at the
/// end dropped.
pub fn significant_lines(text: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|line| {
            let end = line
                .iter()
                .rposition(|&b| !matches!(b, b' ' | b'\t' | b'\r'))
                .map_or(0, |i| i + 1);
            &line[..end]
        })
        .collect();
    while lines.last().is_some_and(|line| line.is_empty()) {
        lines.pop();
    }
    lines
}

fn non_whitespace(text: &[u8]) -> impl Iterator<Item = &u8> {
    text.iter().filter(|b| !b.is_ascii_whitespace())
}

/// Runs `solver` on every sample of `problem` and judges each case; see
/// [`run_samples_with`] to see each case as soon as it is judged.
///
/// Errors are the tool's own (unreadable samples, a checker problem without a checker in
/// `options`, an executable that cannot be started); every verdict is in the report.
pub fn run_samples(
    problem: &Problem,
    solver: &Program,
    options: &JudgeOptions,
) -> Result<ProblemReport> {
    run_samples_with(problem, solver, options, |_| {})
}

/// [`run_samples`], calling `on_case` with each case right after it is judged (for printing as
/// the run goes).
pub fn run_samples_with(
    problem: &Problem,
    solver: &Program,
    options: &JudgeOptions,
    mut on_case: impl FnMut(&CaseReport),
) -> Result<ProblemReport> {
    run_samples_each(problem, solver, options, |_, case| {
        on_case(case);
        Ok(())
    })
}

/// [`run_samples`], handing each case, right after it is judged, to `on_case` with its sample
/// and the problem's judge and limits, which may add to it (a [`Hint`]) before it is kept; an
/// error of `on_case` stops the run.
pub fn run_samples_each(
    problem: &Problem,
    solver: &Program,
    options: &JudgeOptions,
    mut on_case: impl FnMut(&Judged<'_>, &mut CaseReport) -> Result<()>,
) -> Result<ProblemReport> {
    let samples = problem.samples()?;
    let mut report = start_report(problem, options)?;
    let judge = with_executables(&problem.judge, options)?;
    for sample in &samples {
        let mut case = run_case(sample, solver, &judge, &report.limits)?;
        let judged = Judged {
            sample,
            judge: Some(&judge),
            limits: &report.limits,
        };
        on_case(&judged, &mut case)?;
        report.cases.push(case);
    }
    Ok(report)
}

/// A case as it was judged: its sample, the judge and the limits, so it can be judged again.
#[derive(Debug, Clone, Copy)]
pub struct Judged<'a> {
    /// The sample.
    pub sample: &'a Sample,
    /// The judge, with its executables; `None` where there is no expected answer (see
    /// [`run_case_quickly`]).
    pub judge: Option<&'a Judge<PathBuf>>,
    /// The limits.
    pub limits: &'a CaseLimits,
}

/// Whether a case's verdict is one a checked build may explain: WA or RE (an overflow that
/// wraps gives a wrong answer or a crash further on; a failed debug assertion names a broken
/// assumption).
pub fn worth_checking(case: &CaseReport) -> bool {
    matches!(case.verdict, Verdict::Wa | Verdict::Re)
}

/// Judges `judged`'s case again with `checked`, the same solution built with overflow checks
/// and debug assertions on, and says what that shows: its panic (message and place). `None`
/// when it shows nothing `case` does not already say: it did not panic, or the judge build
/// crashed with the same panic.
pub fn check_again(
    judged: &Judged<'_>,
    case: &CaseReport,
    checked: &Program,
) -> Result<Option<CheckedRun>> {
    let again = run_case_measured(
        judged.sample,
        checked,
        judged.judge,
        judged.limits,
        Measure::Exact,
    )?;
    let run = match &again.detail {
        Detail::Crash { stderr_tail, .. } => hint::panic_in(stderr_tail),
        Detail::Interaction {
            solution_stderr, ..
        } => hint::panic_in(solution_stderr),
        _ => None,
    };
    let Some(run) = run else {
        return Ok(None);
    };
    let before = match &case.detail {
        Detail::Crash { stderr_tail, .. } => hint::panic_in(stderr_tail),
        Detail::Interaction {
            solution_stderr, ..
        } => hint::panic_in(solution_stderr),
        _ => None,
    };
    Ok((before.as_ref() != Some(&run)).then_some(run))
}

/// The judge of `problem`'s answers, with the checker or interactor executable it needs from
/// `options`.
pub fn with_executables(judge: &Judge<String>, options: &JudgeOptions) -> Result<Judge<PathBuf>> {
    judge.try_map(|name| {
        let (given, role) = match judge {
            Judge::Checker(_) => (&options.checker, "checker"),
            _ => (&options.interactor, "interactor"),
        };
        given
            .clone()
            .with_context(|| format!("no {role} executable for `{name}` was built"))
    })
}

/// The report of `problem` before any case runs: its name, judge, limits and sample names.
pub fn start_report(problem: &Problem, options: &JudgeOptions) -> Result<ProblemReport> {
    let stack = problem.meta.stack_limit_bytes();
    let linked = options.stack_linked && StackAt::here() != StackAt::RunTime;
    Ok(ProblemReport {
        problem: problem.name.clone(),
        judge: problem.judge.clone(),
        limits: CaseLimits {
            time: problem.meta.time_limit(),
            memory: problem.meta.memory_limit_bytes(),
            stack,
            stack_given: if linked {
                stack
            } else {
                process::stack_given(stack)
            },
            output_cap: options.output_cap.unwrap_or(run::DEFAULT_OUTPUT_CAP),
        },
        sample_names: problem.samples()?.into_iter().map(|s| s.name).collect(),
        cases: Vec::new(),
    })
}

/// How the solution is set up to run under `limits`: measured as `measure` says, its stack as
/// the problem says, and held to the memory limit where the system holds programs to one.
fn solution_setup(limits: &CaseLimits, measure: Measure) -> Setup {
    Setup {
        measure,
        stack: Some(limits.stack),
        memory_limit: Some(limits.memory),
        ..Setup::default()
    }
}

/// Whether a crash was a stack overflow: Rust's runtime says so on stderr (and aborts), and
/// Windows names the exception.
pub fn is_stack_overflow(exit: &Exit, stderr: &str) -> bool {
    match exit {
        Exit::Exception(code) => *code == 0xC000_00FD,
        Exit::Signal(_) => stderr.contains("has overflowed its stack"),
        _ => false,
    }
}

/// What an MLE's figures tell on this system ([`hint::from_memory`]).
fn memory_hint(
    verdict: Verdict,
    peak: &Option<u64>,
    refused: bool,
    limits: &CaseLimits,
) -> Option<Hint> {
    hint::from_memory(
        verdict,
        *peak,
        refused,
        limits.memory,
        process::PEAK_COUNTS_MOVES,
    )
}

/// Whether a run went over the memory limit: its peak (when the system tells it) is over, or
/// the system refused it memory past the limit.
fn over_memory(peak: Option<u64>, refused: bool, limits: &CaseLimits) -> bool {
    refused || peak.is_some_and(|peak| peak > limits.memory)
}

/// A sample's input as programs are fed it. BOJ's data has LF line ends; git on Windows may
/// check a `.in` out with CRLF, so such a file is fed from a scratch copy with LF.
#[derive(Debug)]
pub(crate) struct FedInput {
    pub(crate) path: PathBuf,
    _copy: Option<Scratch>,
}

impl FedInput {
    pub(crate) fn of(sample: &Sample) -> Result<FedInput> {
        let bytes = fs::read(&sample.input)
            .with_context(|| format!("cannot read {}", sample.input.display()))?;
        if !bytes.windows(2).any(|pair| pair == b"\r\n") {
            return Ok(FedInput {
                path: sample.input.clone(),
                _copy: None,
            });
        }
        let mut lf = Vec::with_capacity(bytes.len());
        let mut rest = &bytes[..];
        while let Some(at) = rest.windows(2).position(|pair| pair == b"\r\n") {
            lf.extend_from_slice(&rest[..at]);
            lf.push(b'\n');
            rest = &rest[at + 2..];
        }
        lf.extend_from_slice(rest);
        let copy = Scratch::new("input")?;
        let path = copy
            .path()
            .join(sample.input.file_name().unwrap_or_default());
        fs::write(&path, lf).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(FedInput {
            path,
            _copy: Some(copy),
        })
    }
}

/// Runs and judges one sample, with the solution's own figures.
pub fn run_case(
    sample: &Sample,
    solver: &Program,
    judge: &Judge<PathBuf>,
    limits: &CaseLimits,
) -> Result<CaseReport> {
    run_case_measured(sample, solver, Some(judge), limits, Measure::Exact)
}

/// [`run_case`], starting the solution as quickly as the system allows: on Linux without the
/// launcher, its peak memory then an upper bound (its own or the runner's), which rules an MLE
/// out when under the limit. A case that is not AC this way is judged again with exact
/// figures, so every verdict is exact, as is every figure of a case that is not AC; an AC
/// case's peak memory is `None` when only the bound was known. Stress judges its cases so.
///
/// `judge` `None`: there is no expected answer (stress without a reference), so only the run
/// is judged (RE, TLE, MLE, OLE) and a clean run is AC whatever it printed.
pub fn run_case_quickly(
    sample: &Sample,
    solver: &Program,
    judge: Option<&Judge<PathBuf>>,
    limits: &CaseLimits,
) -> Result<CaseReport> {
    let mut quick = run_case_measured(sample, solver, judge, limits, Measure::AtMost)?;
    if quick.verdict != Verdict::Ac {
        return run_case_measured(sample, solver, judge, limits, Measure::Exact);
    }
    if quick.peak_is_upper_bound {
        quick.peak_memory = None;
        quick.peak_is_upper_bound = false;
    }
    Ok(quick)
}

/// [`run_case`] with the figures measured as `measure` says, and `judge` `None` to judge the
/// run alone (see [`run_case_quickly`]).
pub fn run_case_measured(
    sample: &Sample,
    solver: &Program,
    judge: Option<&Judge<PathBuf>>,
    limits: &CaseLimits,
    measure: Measure,
) -> Result<CaseReport> {
    let input = FedInput::of(sample)?;
    let fed = Sample {
        input: input.path.clone(),
        ..sample.clone()
    };
    if let Some(Judge::Interactive(interactor)) = judge {
        return judge_interaction(&fed, solver, interactor, limits, measure);
    }
    let run_limits = limits.for_solution();
    let no_args: [&OsStr; 0] = [];
    let outcome = solver.run(
        &no_args,
        Some(&fed.input),
        &run_limits,
        &solution_setup(limits, measure),
    )?;
    let case = |verdict, detail| {
        let mut case = CaseReport {
            name: sample.name.clone(),
            verdict,
            time: outcome.time,
            cpu_time: outcome.cpu_time,
            peak_memory: outcome.peak_memory,
            peak_is_upper_bound: outcome.peak_is_upper_bound,
            detail,
            hints: Vec::new(),
        };
        case.hints = hint::from_verdict(verdict, &case.detail, case.judged_time().0, limits.time);
        case.hints.extend(memory_hint(
            verdict,
            &outcome.peak_memory,
            outcome.memory_limit_hit,
            limits,
        ));
        case
    };
    if let Some(over) = run_limits.overtime(outcome.exit, outcome.cpu_time, outcome.time) {
        return Ok(case(
            Verdict::Tle,
            Detail::Overtime {
                killed: over.killed,
            },
        ));
    }
    match outcome.exit {
        Exit::TimedOut(_) => unreachable!("judged above"),
        Exit::OutputCapped => return Ok(case(Verdict::Ole, Detail::None)),
        _ if over_memory(outcome.peak_memory, outcome.memory_limit_hit, limits) => {
            return Ok(case(Verdict::Mle, Detail::None))
        }
        Exit::Code(0) => {}
        exit => {
            let detail = Detail::Crash {
                exit,
                stderr_tail: String::from_utf8_lossy(&outcome.stderr_tail).into_owned(),
            };
            return Ok(case(Verdict::Re, detail));
        }
    }
    let (verdict, detail) = match judge {
        None => (Verdict::Ac, Detail::None),
        Some(Judge::Exact) => judge_exact(&fed, &outcome)?,
        Some(Judge::Float(error)) => judge_float(&fed, &outcome, *error)?,
        Some(Judge::Checker(checker)) => judge_with_checker(&fed, checker, &outcome, limits)?,
        Some(Judge::Interactive(_)) => unreachable!("judged above"),
    };
    Ok(case(verdict, detail))
}

/// The verdict on `output`, what the solution wrote on `sample`'s input in a run that ended
/// cleanly, by `judge`: how hack judges its instrumented build's output, before the real build
/// is judged. An interactive judge needs the run itself: that is an error.
pub fn judge_output(
    sample: &Sample,
    judge: &Judge<PathBuf>,
    output: &[u8],
    limits: &CaseLimits,
) -> Result<Verdict> {
    let outcome = Outcome {
        exit: Exit::Code(0),
        time: Duration::ZERO,
        cpu_time: None,
        peak_memory: None,
        memory_limit_hit: false,
        peak_is_upper_bound: false,
        stdout: output.to_vec(),
        stderr_tail: Vec::new(),
    };
    let (verdict, _) = match judge {
        Judge::Exact => judge_exact(sample, &outcome)?,
        Judge::Float(error) => judge_float(sample, &outcome, *error)?,
        Judge::Checker(checker) => judge_with_checker(sample, checker, &outcome, limits)?,
        Judge::Interactive(_) => bail!("an interactive judge judges a run, not an output"),
    };
    Ok(verdict)
}

fn judge_exact(sample: &Sample, outcome: &Outcome) -> Result<(Verdict, Detail)> {
    let expected = fs::read(&sample.answer)
        .with_context(|| format!("cannot read {}", sample.answer.display()))?;
    let verdict = match compare(&expected, &outcome.stdout) {
        Comparison::Same => return Ok((Verdict::Ac, Detail::None)),
        Comparison::WhitespaceOnly => Verdict::Pe,
        Comparison::Different => Verdict::Wa,
    };
    let actual = outcome.stdout.clone();
    Ok((verdict, Detail::Diff { expected, actual }))
}

fn judge_float(sample: &Sample, outcome: &Outcome, error: f64) -> Result<(Verdict, Detail)> {
    let expected = fs::read(&sample.answer)
        .with_context(|| format!("cannot read {}", sample.answer.display()))?;
    Ok(match float::compare(&expected, &outcome.stdout, error) {
        Ok(()) => (Verdict::Ac, Detail::None),
        Err(mismatch) => (Verdict::Wa, Detail::Float(mismatch)),
    })
}

/// Time a checker or an interactor may take at least (and 5 × the time limit when that is
/// more); it is the problem's code, not the contestant's.
const CHECKER_TIME: Duration = Duration::from_secs(10);

/// Runs the solution against the interactor on the sample's `.in` (its `.out` is not read) and
/// gives the verdict, first match winning: the solution still running at the time limit (TLE),
/// over the memory limit (MLE), the interactor exiting 1 (WA), the interactor ending any other
/// way or outrunning its own limit (JE), the solution failing (RE), else AC.
fn judge_interaction(
    sample: &Sample,
    solver: &Program,
    interactor: &Path,
    limits: &CaseLimits,
    measure: Measure,
) -> Result<CaseReport> {
    let run_limits = limits.for_solution();
    let Interaction {
        solution,
        time,
        cpu_time,
        peak_memory,
        memory_limit_hit,
        peak_is_upper_bound,
        solution_stderr,
        interactor: interactor_exit,
        interactor_stderr,
        transcript,
    } = interact::run(
        solver,
        interactor,
        &sample.input,
        &run_limits,
        &Limits::interactor(limits.for_judge(), &run_limits),
        &solution_setup(limits, measure),
    )?;
    let verdict = match (solution, interactor_exit) {
        _ if run_limits.overtime(solution, cpu_time, time).is_some() => Verdict::Tle,
        _ if over_memory(peak_memory, memory_limit_hit, limits) => Verdict::Mle,
        (_, Exit::Code(1)) => Verdict::Wa,
        (_, Exit::Code(0)) if solution != Exit::Code(0) => Verdict::Re,
        (_, Exit::Code(0)) => Verdict::Ac,
        _ => Verdict::Je,
    };
    let detail = match verdict {
        Verdict::Ac | Verdict::Mle => Detail::None,
        _ => Detail::Interaction {
            solution,
            transcript,
            interactor: interactor_exit,
            interactor_stderr: String::from_utf8_lossy(&interactor_stderr)
                .trim_end()
                .to_string(),
            solution_stderr: String::from_utf8_lossy(&solution_stderr)
                .trim_end()
                .to_string(),
        },
    };
    Ok(CaseReport {
        name: sample.name.clone(),
        verdict,
        time,
        cpu_time,
        peak_memory,
        peak_is_upper_bound,
        detail,
        hints: memory_hint(verdict, &peak_memory, memory_limit_hit, limits)
            .into_iter()
            .collect(),
    })
}

fn judge_with_checker(
    sample: &Sample,
    checker: &Path,
    outcome: &Outcome,
    limits: &CaseLimits,
) -> Result<(Verdict, Detail)> {
    let scratch = Scratch::new("judge")?;
    let output = scratch.path().join(format!("{}.output", sample.name));
    fs::write(&output, &outcome.stdout)
        .with_context(|| format!("cannot write {}", output.display()))?;
    // BOJ's order: checker INPUT ANSWER OUTPUT (model answer before the contestant's output).
    let args = [
        sample.input.as_os_str(),
        sample.answer.as_os_str(),
        output.as_os_str(),
    ];
    // What it writes to stdout goes unread, as BOJ judges by its exit status: a checker that
    // prints much there is no judge error.
    let run_limits = Limits::helper(limits.for_judge(), MIB);
    let checker = Program::new(checker);
    let setup = Setup {
        stdout_unread: true,
        ..Setup::default()
    };
    let verdict = checker.run(&args, None, &run_limits, &setup)?;
    let message = String::from_utf8_lossy(&verdict.stderr_tail)
        .trim_end()
        .to_string();
    Ok(match verdict.exit {
        Exit::Code(0) => (Verdict::Ac, Detail::None),
        Exit::Code(1) => (
            Verdict::Wa,
            Detail::Checker {
                exit: verdict.exit,
                message,
            },
        ),
        exit => (Verdict::Je, Detail::Checker { exit, message }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each pair (expected, actual) compares as `comparison`.
    fn assert_compares(comparison: Comparison, pairs: &[(&str, &str)]) {
        for (expected, actual) in pairs {
            assert_eq!(
                compare(expected.as_bytes(), actual.as_bytes()),
                comparison,
                "{expected:?} against {actual:?}"
            );
        }
    }

    #[test]
    fn trailing_whitespace_and_blank_lines_do_not_count() {
        assert_compares(
            Comparison::Same,
            &[
                ("1 2\n3\n", "1 2  \t\r\n3"),
                ("1 2\n3\n", "1 2\r\n3\r\n\r\n\n  \n"),
                ("", "\n\n"),
            ],
        );
    }

    #[test]
    fn other_whitespace_differences_are_pe() {
        assert_compares(
            Comparison::WhitespaceOnly,
            &[
                ("1 2\n3\n", "1  2\n3\n"),
                ("1 2\n3\n", " 1 2\n3\n"),
                ("1 2\n3\n", "1 2 3\n"),
                ("1 2\n3\n", "\n1 2\n3\n"),
                ("12\n", "1 2\n"),
            ],
        );
    }

    #[test]
    fn anything_else_is_wa() {
        assert_compares(
            Comparison::Different,
            &[("1 2\n3\n", "1 2\n4\n"), ("1 2\n3\n", "1 2\n"), ("1\n", "")],
        );
    }
}
