//! `cargo xtask stress PROBLEM [--cases N] [--seed S] [--jobs N] [--shrink-budget RUNS]`:
//! arguments and printing over the stress engine (`xtask::stress`): a block line for every
//! tenth of the run, then the failing case, shrunk, saved as `samples/stress-SEED-N.in/.out` so
//! `cargo xtask test` replays it, and the command that repeats the run.

use std::fs;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xtask::judge::{self, Detail, Hint, JudgeOptions};
use xtask::report::{emit, thousands, ColorChoice, Style};
use xtask::stress::{shown_path, Case, Failure, Plan, Stress, Tried};
use xtask::workspace::problem::{self, Judge, Problem};

use super::ProgramArgs;

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
    /// Cases run side by side [default: the machine's cores]. The case reported, and how it
    /// shrinks, do not depend on it; each solution is timed by its own CPU time.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    /// Runs spent looking for a smaller failing input [default: as many as it took to find
    /// the failure, and at least 200].
    #[arg(long, value_name = "RUNS", conflicts_with = "size")]
    pub shrink_budget: Option<u64>,
    /// Every case at this SIZE (1 to 100; 100 is the generator's largest), as BOJ's hidden data
    /// always holds the largest inputs; the summary gives the slowest case's time against the
    /// limit. A failing case is saved as it is, not shrunk.
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u64).range(1..=100))]
    pub size: Option<u64>,
    /// Judge without the reference, even where the manifest names one: only what the run shows
    /// (RE, TLE, MLE, OLE, and the checker where the problem has one). Also what stress does
    /// when the manifest names no reference.
    #[arg(long)]
    pub no_reference: bool,
    /// Do not judge the saved WA or RE case again in the checked build (overflow checks and
    /// debug assertions on), whose panic, if any, the report otherwise adds.
    #[arg(long)]
    pub no_checked_rerun: bool,
    #[command(flatten)]
    pub programs: ProgramArgs,
    /// Colour the report: auto = when stdout is a terminal and NO_COLOR is unset.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Runs the subcommand: exit 0 all AC, 1 a case failed (saved); an error is the tool's own
/// (exit 2).
pub fn run(args: &StressArgs) -> Result<ExitCode> {
    let problem = problem::find(None, &args.problem)?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    // Say what is missing before building anything.
    let mut built = args
        .programs
        .executables(std::slice::from_ref(&problem), true)?
        .remove(0);
    if args.no_reference {
        built.reference = None;
    }
    let solver = args.programs.solver(&problem, &built)?;
    let stress = Stress::new(&problem, seed, &built, solver)?;
    let limits = *stress.limits();
    let style = Style::new(args.color);

    emit(&format!(
        "{}  stress · seed {seed} · {} cases{} · {jobs} side by side · {}{}{} · {}{} · {} ms \
         CPU · {} MB\n{}",
        problem.name,
        args.cases,
        args.size.map_or(String::new(), |s| format!(" at size {s}")),
        problem.meta.generator.as_deref().unwrap_or_default(),
        match &problem.meta.reference {
            Some(reference) if stress.has_reference() => format!(" and {reference}"),
            _ => String::new(),
        },
        stress
            .validator()
            .map_or(String::new(), |v| format!(" · validated by {}", v.name())),
        problem.judge,
        if args.programs.bundled {
            " · bundled".to_string()
        } else if let Some(command) = &args.programs.command {
            format!(" · `{}`", command.line)
        } else {
            String::new()
        },
        limits.time.as_millis(),
        limits.memory / problem::MIB,
        if stress.judges_output() {
            ""
        } else {
            "  no reference: only the runs are judged (RE, TLE, MLE, OLE), not their answers\n"
        },
    ));
    let bar = progress_bar(args.cases);
    let started = Instant::now();
    let block = (args.cases / 10).clamp(1, 100);
    let mut slowest: Option<Slowest> = None;
    let mut block_slowest: Option<Slowest> = None;
    let mut block_start = 1;
    let width = args.cases.to_string().len();
    let plan = Plan {
        cases: args.cases,
        size: args.size,
        jobs,
        shrink_budget: args.shrink_budget,
    };
    let finding = stress.run(&plan, |tried| {
        let n = tried.case.number;
        let this = Slowest {
            case: tried.case,
            time: tried.report.judged_time().0,
        };
        for record in [&mut slowest, &mut block_slowest] {
            if record.is_none_or(|s| this.time > s.time) {
                *record = Some(this);
            }
        }
        bar.set_message(format!(
            "case {n} size {} · slowest {} ms of {} ms",
            tried.case.size,
            slowest.map_or(0, |s| s.time.as_millis()),
            limits.time.as_millis()
        ));
        bar.inc(1);
        if n % block == 0 || n == args.cases {
            let s = block_slowest.take().expect("a case ran");
            bar.suspend(|| {
                emit(&format!(
                    "  cases {block_start:>width$}-{n:<width$}  AC  slowest {:>5} ms of {} ms \
                     (case {}, size {})\n",
                    s.time.as_millis(),
                    limits.time.as_millis(),
                    s.case.number,
                    s.case.size,
                ))
            });
            block_start = n + 1;
        }
    });
    bar.finish_and_clear();
    let mut finding = finding?;
    if let Some(failure) = &mut finding.failure {
        if !args.no_checked_rerun && judge::worth_checking(&failure.smallest.report) {
            if let Some(checked) = args.programs.checked_solver(&problem)? {
                if let Some(run) = stress.check_again(&failure.smallest, &checked)? {
                    let workspace = xtask::workspace::build::workspace_manifest(&problem.dir)?;
                    let workspace = workspace.parent().unwrap_or(&problem.dir);
                    let run = run.shown_from(workspace, &problem.dir);
                    failure.smallest.report.hints.push(Hint::Checked(run));
                }
            }
        }
        let linked = args.programs.links_stack();
        emit(&render_failure(&stress, &problem, failure, &style, linked)?);
        let name = stress.case_name(&failure.first.case);
        let generated = stress.generator_command(&failure.smallest.case);
        if stress.judges_output() {
            let saved = save(&problem, &name, &failure.smallest)?;
            emit(&format!(
                "  saved {} and .out ({}): `cargo xtask test {}` replays it\n  the generator \
                 wrote it as: {generated}\n",
                saved.display(),
                match (stress.has_reference(), stress.judge()) {
                    (true, _) => "the reference's answer",
                    (false, Judge::Interactive(_)) => "empty: the interactor judges",
                    (false, _) => "empty: no reference; the checker judges",
                },
                args.problem,
            ));
        } else {
            let saved = save_unanswered(&problem, &name, &failure.smallest)?;
            emit(&format!(
                "  saved {} (no reference answered it, so it is not a sample: give it its \
                 answer as samples/{name}.out and move it to samples/ for `cargo xtask test` to \
                 judge it)\n  the generator wrote it as: {generated}\n",
                saved.display(),
            ));
        }
    }
    emit(&summary(
        &problem,
        args,
        seed,
        finding.passed,
        slowest,
        &limits,
        finding.failure.as_ref(),
    ));
    if finding.failure.is_some() {
        return Ok(ExitCode::from(1));
    }
    emit(&format!(
        "  {:.1} s in all, {jobs} side by side (generation, {}runs and judging)\n",
        started.elapsed().as_secs_f64(),
        if stress.has_reference() {
            "reference, "
        } else {
            ""
        },
    ));
    Ok(ExitCode::SUCCESS)
}

/// The failing case: where it was found, how it shrank, its input, and its verdict.
fn render_failure(
    stress: &Stress,
    problem: &Problem,
    failure: &Failure,
    style: &Style,
    stack_linked: bool,
) -> Result<String> {
    let (first, smallest) = (&failure.first, &failure.smallest);
    let shrunk = if smallest.input.len() < first.input.len() {
        format!(
            "; shrunk from size {} ({}) to size {} ({}) in {} runs",
            first.case.size,
            lines(first.input_lines()),
            smallest.case.size,
            lines(smallest.input_lines()),
            failure.shrink_runs
        )
    } else if failure.shrink_runs > 0 {
        format!(
            "; nothing smaller failed in {} runs of shrinking",
            failure.shrink_runs
        )
    } else {
        String::new()
    };
    let options = JudgeOptions {
        stack_linked,
        ..JudgeOptions::default()
    };
    let mut report = judge::start_report(problem, &options)?;
    report.sample_names = vec![smallest.report.name.clone()];
    let mut text = format!(
        "  case {} (size {}) failed{shrunk}:\n{}{}",
        first.case.number,
        first.case.size,
        show_input(&smallest.input),
        style.case(&report, &smallest.report)
    );
    if let Detail::Checker { .. } = smallest.report.detail {
        let output = stress.output_again(smallest, 64 * 1024)?;
        text.push_str("    actual output (run again):\n");
        for line in String::from_utf8_lossy(&output).lines().take(20) {
            text.push_str(&format!("    | {}\n", cut(line, 160)));
        }
    }
    Ok(text)
}

fn lines(n: usize) -> String {
    format!("{n} line{}", if n == 1 { "" } else { "s" })
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
    limits: &judge::CaseLimits,
    failed: Option<&Failure>,
) -> String {
    let mut line = match failed {
        None => format!("{}: {passed}/{passed} AC", problem.name),
        Some(failure) => format!(
            "{}: {} on case {} after {passed} AC",
            problem.name, failure.first.report.verdict, failure.first.case.number
        ),
    };
    if let Some(s) = slowest {
        line.push_str(&format!(
            " · slowest case {} (size {}) {} ms of {} ms: {}% to spare",
            s.case.number,
            s.case.size,
            thousands(s.time.as_millis()),
            thousands(limits.time.as_millis()),
            to_spare(s.time, limits.time),
        ));
    }
    let mut flags = args.programs.repeat_flags();
    if let Some(size) = args.size {
        flags.push_str(&format!(" --size {size}"));
    }
    if args.no_reference {
        flags.push_str(" --no-reference");
    }
    line.push_str(&format!(
        "\n  seed {seed}: cargo xtask stress {} --cases {} --seed {seed}{flags}\n",
        args.problem, args.cases,
    ));
    line
}

/// How much of `limit` the slowest AC case left, in whole percent (rounded down, so a case at
/// 99.5% of the limit leaves 0%).
fn to_spare(time: std::time::Duration, limit: std::time::Duration) -> u128 {
    let limit = limit.as_micros().max(1);
    limit.saturating_sub(time.as_micros()) * 100 / limit
}

/// `line` up to `max` characters, and how many bytes were left out after them.
fn cut(line: &str, max: usize) -> String {
    match line.char_indices().nth(max) {
        Some((at, _)) => format!("{} … (+{} bytes)", &line[..at], line.len() - at),
        None => line.to_string(),
    }
}

/// The failing input, as the report shows it: its first lines, each cut at 160 characters (the
/// largest inputs have lines of megabytes).
fn show_input(input: &[u8]) -> String {
    const SHOWN: usize = 20;
    const WIDTH: usize = 160;
    let text = String::from_utf8_lossy(input);
    let all: Vec<&str> = text.lines().collect();
    let mut out = format!("    input ({}):\n", lines(all.len()));
    for line in all.iter().take(SHOWN) {
        out.push_str(&format!("    | {}\n", cut(line, WIDTH)));
    }
    if all.len() > SHOWN {
        out.push_str(&format!("    | … {} more lines\n", all.len() - SHOWN));
    }
    out
}

/// Writes the input of a failing case that no reference answered into `samples/unanswered/`,
/// where `cargo xtask test` does not look (a sample needs its answer); returns the path as
/// shown.
fn save_unanswered(problem: &Problem, name: &str, tried: &Tried) -> Result<PathBuf> {
    let folder = problem.dir.join("samples").join("unanswered");
    fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let path = folder.join(format!("{name}.in"));
    write(&path, &tried.input)?;
    Ok(PathBuf::from(shown_path(&path)))
}

/// Writes the failing case into the problem's samples; returns the `.in` path as shown.
fn save(problem: &Problem, name: &str, tried: &Tried) -> Result<PathBuf> {
    let folder = problem.dir.join("samples");
    let path = folder.join(format!("{name}.in"));
    write(&path, &tried.input)?;
    write(&folder.join(format!("{name}.out")), &tried.answer)?;
    Ok(PathBuf::from(shown_path(&path)))
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
pub fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    xtask::stress::case_seed(nanos, u64::from(std::process::id())) % 1_000_000_000
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn figures_read_with_thousands_and_the_margin_rounds_down() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_840), "1,840");
        assert_eq!(thousands(12_345_678), "12,345,678");
        let ms = Duration::from_millis;
        assert_eq!(to_spare(ms(1_840), ms(2_000)), 8);
        assert_eq!(to_spare(ms(1_999), ms(2_000)), 0);
        assert_eq!(to_spare(ms(0), ms(2_000)), 100);
    }
}
