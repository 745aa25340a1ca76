//! `cargo xtask stress PROBLEM [--cases N] [--seed S] [--bundled]`: the problem's own generator
//! writes inputs, its reference answers them, and the solution is judged on each with the same
//! code as `cargo xtask test`, until the first failure. That case is shrunk (the same case seed,
//! smaller sizes) and saved as `samples/stress-SEED-N.in/.out`, so `cargo xtask test` replays it.
//!
//! Case N of a run with seed S calls `GENERATOR SEED' SIZE`, where SEED' = [`case_seed`]`(S, N)`
//! and SIZE = [`case_size`]`(N, CASES)`: a seed names the same cases forever, on any machine.
//! Nothing here knows what the problem is about.

use std::ffi::OsStr;
use std::fs;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xtask::judge::{self, CaseLimits, CaseReport, Detail, Judge, JudgeOptions, Verdict};
use xtask::problem::{self, JudgeRule, Problem, Sample};
use xtask::report::{emit, ColorChoice, Style};
use xtask::run::{self, Exit, Limits, Program, Setup, DEFAULT_OUTPUT_CAP};
use xtask::scratch::Scratch;

use super::ProgramArgs;

/// The largest SIZE a generator is asked for.
pub const MAX_SIZE: u64 = 100;

/// Find the input that breaks a solution: generated cases judged until the first failure.
#[derive(clap::Args, Debug)]
pub struct StressArgs {
    /// The problem: `boj-1717`, `1717` or a path to a problem folder. It needs a generator
    /// (`generator = "boj-ID-gen"` in its metadata) and, unless a checker judges it, a reference.
    pub problem: String,
    /// How many cases to run.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub cases: u64,
    /// The seed [default: random; the summary prints it].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub programs: ProgramArgs,
    /// Colour the report: auto = when stdout is a terminal and NO_COLOR is unset.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

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

/// SplitMix64's output function.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One generated case: which run case it is, and the generator's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Case {
    number: u64,
    seed: u64,
    size: u64,
}

/// A case run: the input, the expected answer and the verdict.
#[derive(Debug)]
struct Tried {
    input: Vec<u8>,
    answer: Vec<u8>,
    report: CaseReport,
    sample: Sample,
}

/// What every case needs: the executables, the judge and the limits.
#[derive(Debug)]
struct Bench<'a> {
    problem: &'a Problem,
    solver: Program,
    generator: PathBuf,
    reference: Option<PathBuf>,
    judge: Judge,
    limits: CaseLimits,
    /// For the generator and the reference: max(10 s, 10 × the time limit).
    helper_limits: Limits,
    scratch: Scratch,
}

/// Runs the subcommand: exit 0 all AC, 1 a case failed (saved); an error is the tool's own
/// (exit 2).
pub fn run(args: &StressArgs) -> Result<ExitCode> {
    let problem = problem::find(None, &args.problem)?;
    let Some(generator_name) = problem.meta.generator.clone() else {
        bail!(
            "{} has no generator, so stress has nothing to run; add a binary \
             src/bin/{}-gen.rs that prints one input for `SEED SIZE`, and `generator = \
             \"{}-gen\"` to [package.metadata.boj] in {} (`cargo xtask new ID --stress` \
             scaffolds both for a new problem); nothing was written",
            problem.name,
            problem.name,
            problem.name,
            problem.manifest.display()
        );
    };
    // A checker decides without one (its ANSWER is then empty), and an interactive problem has
    // no answer at all (a reference is ignored).
    let needs_reference = matches!(problem.judge, JudgeRule::Exact | JudgeRule::Float(_));
    let uses_reference = !matches!(problem.judge, JudgeRule::Interactive(_));
    if problem.meta.reference.is_none() && needs_reference {
        bail!(
            "{} has a generator but no reference, and its {} needs the expected answer; add a \
             binary that prints it (a slow, obviously right solution) and `reference = \
             \"{}-brute\"` to [package.metadata.boj] in {}; nothing was written",
            problem.name,
            problem.judge,
            problem.name,
            problem.manifest.display()
        );
    }
    let exe = args
        .programs
        .executables(std::slice::from_ref(&problem), true)?
        .remove(0);
    let solver = args.programs.solver(&problem, &exe)?;
    let options = JudgeOptions {
        checker: exe.checker.clone(),
        interactor: exe.interactor.clone(),
        ..JudgeOptions::default()
    };
    let mut report = judge::start_report(&problem, &options)?;
    let limits = report.limits;
    let bench = Bench {
        problem: &problem,
        solver,
        generator: exe
            .generator
            .clone()
            .context("the generator was not built")?,
        reference: exe.reference.clone().filter(|_| uses_reference),
        judge: Judge::new(&problem.judge, &options)?,
        limits,
        helper_limits: Limits::helper(
            (limits.time * 10).max(Duration::from_secs(10)),
            DEFAULT_OUTPUT_CAP,
        ),
        scratch: Scratch::new("stress")?,
    };
    let seed = args.seed.unwrap_or_else(random_seed);
    let style = Style::new(args.color);

    emit(&format!(
        "{}  stress · seed {seed} · {} cases · {generator_name}{} · {}{} · {} ms · {} MB\n",
        problem.name,
        args.cases,
        match &problem.meta.reference {
            Some(reference) if uses_reference => format!(" and {reference}"),
            _ => String::new(),
        },
        problem.judge,
        if args.programs.bundled {
            " · bundled".to_string()
        } else if let Some(command) = &args.programs.command {
            format!(" · `{}`", command.line)
        } else {
            String::new()
        },
        limits.time.as_millis(),
        limits.memory / (1024 * 1024),
    ));
    let bar = progress_bar(args.cases);
    let started = Instant::now();
    let block = (args.cases / 10).clamp(1, 100);
    let mut slowest: Option<Slowest> = None;
    let mut block_slowest: Option<Slowest> = None;
    let mut block_start = 1;
    for n in 1..=args.cases {
        let case = Case {
            number: n,
            seed: case_seed(seed, n),
            size: case_size(n, args.cases),
        };
        let name = format!("stress-{seed}-{n}");
        let tried = bench.try_case(&case, &name)?;
        let this = Slowest {
            case,
            time: tried.report.judged_time().0,
        };
        for record in [&mut slowest, &mut block_slowest] {
            if record.is_none_or(|s| this.time > s.time) {
                *record = Some(this);
            }
        }
        bar.set_message(format!(
            "case {n} size {} {} ms · slowest {} ms of {} ms",
            case.size,
            tried.report.judged_time().0.as_millis(),
            slowest.map_or(0, |s| s.time.as_millis()),
            limits.time.as_millis()
        ));
        bar.inc(1);

        if tried.report.verdict != Verdict::Ac {
            bar.finish_and_clear();
            let (smallest, tried) = bench.shrink(case, tried, &name)?;
            report.sample_names = vec![name.clone()];
            let mut text = style
                .case(&report, &tried.report)
                .replace("; the next case runs", "; stress stops here");
            if let Detail::Checker { .. } = tried.report.detail {
                text.push_str(&bench.actual_output(&tried.sample)?);
            }
            emit(&format!(
                "  case {n} (size {}) failed{}:\n{}{text}",
                case.size,
                if smallest.size < case.size {
                    format!(
                        "; the smallest failing size of its seed is {}",
                        smallest.size
                    )
                } else {
                    String::new()
                },
                show_input(&tried.input),
            ));
            if tried.report.verdict == Verdict::Je {
                bail!("the checker failed on case {n}; nothing was saved");
            }
            let saved = save(&problem, &name, &tried)?;
            emit(&format!(
                "  saved {} and .out ({}): `cargo xtask test {}` replays it\n  the generator \
                 wrote it as: {}\n",
                saved.display(),
                match (&bench.reference, &bench.judge) {
                    (Some(_), _) => "the reference's answer",
                    (None, Judge::Interactive(_)) => "empty: the interactor judges",
                    (None, _) => "empty: no reference; the checker judges",
                },
                args.problem,
                bench.generator_command(&smallest),
            ));
            emit(&summary(
                &problem,
                args,
                seed,
                n - 1,
                slowest,
                &limits,
                Some(&tried.report),
            ));
            return Ok(ExitCode::from(1));
        }
        if n % block == 0 || n == args.cases {
            let s = block_slowest.take().expect("a case ran");
            emit(&format!(
                "  cases {:>w$}-{:<w$}  AC  slowest {:>5} ms of {} ms (case {}, size {})\n",
                block_start,
                n,
                s.time.as_millis(),
                limits.time.as_millis(),
                s.case.number,
                s.case.size,
                w = args.cases.to_string().len(),
            ));
            block_start = n + 1;
        }
    }
    bar.finish_and_clear();
    emit(&summary(
        &problem, args, seed, args.cases, slowest, &limits, None,
    ));
    emit(&format!(
        "  {:.1} s in all (generation, reference, runs and judging)\n",
        started.elapsed().as_secs_f64()
    ));
    Ok(ExitCode::SUCCESS)
}

impl Bench<'_> {
    /// Generates the case's input, asks the reference for its answer and judges the solution.
    /// A generator or reference that fails is the tool's error, never a verdict.
    fn try_case(&self, case: &Case, name: &str) -> Result<Tried> {
        let args = [case.seed.to_string(), case.size.to_string()];
        let input = self.run_helper("generator", &self.generator, &args, None)?;
        let sample = Sample {
            name: name.to_string(),
            input: self.scratch.path().join(format!("{name}.in")),
            answer: self.scratch.path().join(format!("{name}.out")),
        };
        write(&sample.input, &input)?;
        let answer = match &self.reference {
            Some(reference) => {
                let no_args: [&str; 0] = [];
                self.run_helper("reference", reference, &no_args, Some(&sample.input))
                    .with_context(|| format!("on the input of {}", self.generator_command(case)))?
            }
            None => Vec::new(),
        };
        write(&sample.answer, &answer)?;
        let report = judge::judge_case(&sample, &self.solver, &self.judge, &self.limits)?;
        Ok(Tried {
            input,
            answer,
            report,
            sample,
        })
    }

    /// The smallest failing case with the same case seed: sizes from 1 up to the failing one.
    fn shrink(&self, failed: Case, tried: Tried, name: &str) -> Result<(Case, Tried)> {
        for size in 1..failed.size {
            let smaller = Case { size, ..failed };
            let attempt = self.try_case(&smaller, name)?;
            if attempt.report.verdict != Verdict::Ac {
                return Ok((smaller, attempt));
            }
        }
        Ok((failed, tried))
    }

    /// Runs the generator or the reference; its stdout, or an error naming it and the reason.
    fn run_helper<S: AsRef<OsStr>>(
        &self,
        role: &str,
        program: &Path,
        args: &[S],
        stdin: Option<&Path>,
    ) -> Result<Vec<u8>> {
        let outcome = run::run(
            &Program::new(program),
            args,
            stdin,
            &self.helper_limits,
            &Setup::default(),
        )?;
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

    /// The solver's output on a case, run again (a checker's verdict does not carry it).
    fn actual_output(&self, sample: &Sample) -> Result<String> {
        let no_args: [&str; 0] = [];
        let run_limits = Limits::judged(self.limits.time, 64 * 1024);
        let outcome = run::run(
            &self.solver,
            &no_args,
            Some(&sample.input),
            &run_limits,
            &Setup::default(),
        )?;
        let stdout = String::from_utf8_lossy(&outcome.stdout);
        let mut text = String::from("    actual output (run again):\n");
        for line in stdout.lines().take(20) {
            text.push_str(&format!("    | {line}\n"));
        }
        Ok(text)
    }

    /// The command that prints the case's input again.
    fn generator_command(&self, case: &Case) -> String {
        let manifest = shown_path(&self.problem.manifest);
        let generator = self.problem.meta.generator.as_deref().unwrap_or_default();
        format!(
            "cargo run -q --manifest-path {manifest} --bin {generator} -- {} {}",
            case.seed, case.size
        )
    }
}

/// The slowest case so far.
#[derive(Debug, Clone, Copy)]
struct Slowest {
    case: Case,
    time: Duration,
}

/// The closing lines: cases passed, the slowest, and the command that repeats the run.
fn summary(
    problem: &Problem,
    args: &StressArgs,
    seed: u64,
    passed: u64,
    slowest: Option<Slowest>,
    limits: &CaseLimits,
    failed: Option<&CaseReport>,
) -> String {
    let mut line = match failed {
        None => format!("{}: {passed}/{passed} AC", problem.name),
        Some(case) => format!(
            "{}: {} on case {} after {passed} AC",
            problem.name,
            case.verdict,
            passed + 1
        ),
    };
    if let Some(s) = slowest {
        line.push_str(&format!(
            " · slowest case {} (size {}) {} ms of {} ms",
            s.case.number,
            s.case.size,
            s.time.as_millis(),
            limits.time.as_millis()
        ));
    }
    line.push_str(&format!(
        "\n  seed {seed}: cargo xtask stress {} --cases {} --seed {seed}{}\n",
        args.problem,
        args.cases,
        args.programs.repeat_flags()
    ));
    line
}

/// The failing input, as the report shows it: its first lines.
fn show_input(input: &[u8]) -> String {
    const SHOWN: usize = 20;
    let text = String::from_utf8_lossy(input);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = format!(
        "    input ({} line{}):\n",
        lines.len(),
        if lines.len() == 1 { "" } else { "s" }
    );
    for line in lines.iter().take(SHOWN) {
        out.push_str(&format!("    | {line}\n"));
    }
    if lines.len() > SHOWN {
        out.push_str(&format!("    | … {} more lines\n", lines.len() - SHOWN));
    }
    out
}

/// Writes the failing case into the problem's samples; returns the `.in` path as shown.
fn save(problem: &Problem, name: &str, tried: &Tried) -> Result<PathBuf> {
    let folder = problem.dir.join("samples");
    let path = folder.join(format!("{name}.in"));
    write(&path, &tried.input)?;
    write(&folder.join(format!("{name}.out")), &tried.answer)?;
    Ok(PathBuf::from(shown_path(&path)))
}

/// `path` relative to the current directory when it lies below it.
fn shown_path(path: &Path) -> String {
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

fn progress_bar(cases: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(cases), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} · {msg}").expect("a valid template"),
    );
    bar
}

/// A seed for a run without `--seed`: the clock and the process id, mixed, below 10⁹ so it is
/// easy to type again.
fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    mix(nanos ^ u64::from(std::process::id())) % 1_000_000_000
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
