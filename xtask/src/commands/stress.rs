//! `cargo xtask stress PROBLEM [--cases N] [--seed S] [--jobs N] [--shrink-budget RUNS]`:
//! arguments and printing over the stress run (`xtask::hunt::stress`): how large inputs get, a
//! block line for every tenth of the run, then the failing case, shrunk, saved as
//! `samples/stress-SEED-N.in/.out` so `cargo xtask test` replays it, or, on a pass, the lines
//! of the solution no case reached; and the command that repeats the run.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xtask::hunt::coverage::{self, Coverage, Reach};
use xtask::hunt::sizes::{Ceiling, Held, MAX_SIZE};
use xtask::hunt::stress::{Failure, Plan, Stress};
use xtask::hunt::{Case, Engine};
use xtask::judge;
use xtask::report::{emit, thousands, Style};
use xtask::workspace::problem::{self, Problem};

use super::found::{self, lines, token_count, tokens, HuntArgs};

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
    /// Runs spent on each way of shrinking the failing input: other seeds at smaller sizes,
    /// then cutting the input itself [default: as many as it took to find the failure, at
    /// least 200; then 1000].
    #[arg(long, value_name = "RUNS", conflicts_with = "size")]
    pub shrink_budget: Option<u64>,
    /// Every case at this SIZE (1 to 100; 100 is the generator's largest), as BOJ's hidden data
    /// always holds the largest inputs; the summary gives the slowest case's time against the
    /// limit. A failing case is saved as it is, not shrunk.
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u64).range(1..=100))]
    pub size: Option<u64>,
    /// The largest SIZE [default: as large as the reference answers within a tenth of its
    /// limit, found by timing it at sizes 1, 2, 4, ... 100 first; 100 without a reference].
    #[arg(long, value_name = "S", conflicts_with = "size", value_parser = clap::value_parser!(u64).range(1..=100))]
    pub max_size: Option<u64>,
    /// Do not measure which lines of the solution the cases reach (which needs an
    /// instrumented build of it, made once, apart from the judged one).
    #[arg(long)]
    pub no_coverage: bool,
    /// Measure the lines every case reaches, not only those of the first 20 cases and one in
    /// seven after (a fifth of stress's speed on small cases).
    #[arg(long, conflicts_with = "no_coverage")]
    pub coverage_every_case: bool,
    /// Judge without the reference, even where the manifest names one: only what the run shows
    /// (RE, TLE, MLE, OLE, and the checker where the problem has one). Also what stress does
    /// when the manifest names no reference.
    #[arg(long)]
    pub no_reference: bool,
    #[command(flatten)]
    pub hunt: HuntArgs,
}

/// Runs the subcommand: exit 0 all AC, 1 a case failed (saved); an error is the tool's own
/// (exit 2).
pub fn run(args: &StressArgs) -> Result<ExitCode> {
    let problem = problem::find(None, &args.problem)?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let jobs = found::jobs(args.jobs);
    // Say what is missing before building anything.
    let mut built = args
        .hunt
        .programs
        .executables(std::slice::from_ref(&problem), true)?
        .remove(0);
    if args.no_reference {
        built.reference = None;
    }
    let solver = args.hunt.programs.solver(&problem, &built)?;
    let engine = Engine::new(&problem, &built, solver)?;
    let limits = *engine.limits();
    let style = Style::new(args.hunt.color);

    emit(&format!(
        "{}  stress · seed {seed} · {} cases{} · {jobs} side by side · {}{}{} · {}{} · {} ms \
         CPU · {} MB\n{}",
        problem.name,
        args.cases,
        args.size.map_or(String::new(), |s| format!(" at size {s}")),
        problem.meta.generator.as_deref().unwrap_or_default(),
        match &problem.meta.reference {
            Some(reference) if engine.has_reference() => format!(" and {reference}"),
            _ => String::new(),
        },
        engine
            .validator()
            .map_or(String::new(), |v| format!(" · validated by {}", v.name())),
        problem.judge,
        if args.hunt.programs.bundled {
            " · bundled".to_string()
        } else if let Some(command) = &args.hunt.programs.command {
            format!(" · `{}`", command.line)
        } else {
            String::new()
        },
        limits.time.as_millis(),
        limits.memory / problem::MIB,
        if engine.judges_output() {
            ""
        } else {
            "  no reference: only the runs are judged (RE, TLE, MLE, OLE), not their answers\n"
        },
    ));
    let plan = Plan {
        cases: args.cases,
        size: args.size,
        max_size: args.max_size,
        jobs,
        shrink_budget: args.shrink_budget,
    };
    let run = Stress::new(&engine, seed);
    // The instrumented build made and readied while the probe times the reference.
    let (coverage, ceiling) = std::thread::scope(|scope| {
        let preparing = (!args.no_coverage).then(|| {
            scope.spawn(|| {
                let coverage = args.hunt.programs.coverage(&problem, &engine, jobs)?;
                coverage.prepare().map_err(|err| format!("{err:#}"))?;
                Ok::<_, String>(coverage)
            })
        });
        let ceiling = run.ceiling(&plan);
        let coverage = preparing.map(|thread| thread.join().expect("the coverage thread"));
        (coverage, ceiling)
    });
    let ceiling = ceiling?;
    let coverage = match coverage {
        Some(Ok(coverage)) => Some(coverage),
        Some(Err(why)) => {
            emit(&format!("  coverage not measured: {why}\n"));
            None
        }
        None => None,
    };
    if let Some(held) = ceiling.held {
        emit(&format!("  {}\n", held_sizes(ceiling.max_size, &held)));
    }
    let measured = Measured::default();
    let observe = |worker: usize, case: &Case, input: &[u8]| -> Result<()> {
        match &coverage {
            Some(coverage) if coverage::measures(case.number, args.coverage_every_case) => {
                measured.add(coverage, worker, input)
            }
            _ => Ok(()),
        }
    };
    let run = match coverage {
        Some(_) => run.observed_by(&observe),
        None => run,
    };
    let bar = progress_bar(args.cases);
    let started = Instant::now();
    let block = (args.cases / 10).clamp(1, 100);
    let mut slowest: Option<Slowest> = None;
    let mut block_slowest: Option<Slowest> = None;
    let mut block_start = 1;
    let width = args.cases.to_string().len();
    let finding = run.run(&plan, ceiling, |case, tried| {
        let n = case.number;
        let this = Slowest {
            case: *case,
            time: tried.report.judged_time().0,
        };
        for record in [&mut slowest, &mut block_slowest] {
            if record.is_none_or(|s| this.time > s.time) {
                *record = Some(this);
            }
        }
        bar.set_message(format!(
            "case {n} size {} · slowest {} ms of {} ms",
            case.size,
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
        if !args.hunt.no_checked_rerun {
            found::add_checked_hint(
                &args.hunt.programs,
                &problem,
                &engine,
                &mut failure.smallest,
            )?;
        }
        let linked = args.hunt.programs.links_stack();
        emit(&format!(
            "  case {} (size {}) failed{}:\n{}",
            failure.case.number,
            failure.case.size,
            shrunk(failure),
            found::show_case(&engine, &problem, &failure.smallest, &style, linked)?
        ));
        emit(&format!(
            "  the generator wrote {} as: {}\n",
            if failure.cut {
                "the case it was cut from"
            } else {
                "it"
            },
            engine.generator_command(&failure.generated)
        ));
        let name = run.case_name(&failure.case);
        emit(&found::save(
            &engine,
            &problem,
            &args.problem,
            &name,
            &failure.smallest,
        )?);
    } else if let Some(coverage) = &coverage {
        emit(&measured.report(coverage, finding.passed));
    }
    emit(&summary(
        &problem,
        args,
        seed,
        &ceiling,
        finding.passed,
        slowest,
        &limits,
        finding.failure.as_ref(),
    ));
    if finding.failure.is_some() {
        return Ok(ExitCode::from(1));
    }
    emit(&format!(
        "  {:.1} s in all, {jobs} side by side (generation, {}runs{} and judging)\n",
        started.elapsed().as_secs_f64(),
        if engine.has_reference() {
            "reference, "
        } else {
            ""
        },
        if coverage.is_some() { ", coverage" } else { "" },
    ));
    Ok(ExitCode::SUCCESS)
}

/// How the failing case shrank: by other seeds at smaller sizes, then by cutting the input.
fn shrunk(failure: &Failure) -> String {
    let first = &failure.first.input;
    let smallest = &failure.smallest.input;
    let size = |input: &[u8]| {
        let text = String::from_utf8_lossy(input);
        format!(
            "{}, {}",
            lines(text.lines().count()),
            tokens(token_count(input))
        )
    };
    if failure.seed_runs == 0 && failure.input_runs.is_none() {
        return String::new();
    }
    if !failure.cut && failure.generated == failure.case {
        return format!(
            "; nothing smaller failed in {} runs of shrinking",
            failure.seed_runs + failure.input_runs.unwrap_or(0)
        );
    }
    let mut how = Vec::new();
    if failure.generated != failure.case {
        how.push(format!(
            "other seeds failed at size {} in {} runs",
            failure.generated.size, failure.seed_runs
        ));
    } else if failure.case.size > 1 {
        how.push(format!(
            "no smaller size failed in {} runs",
            failure.seed_runs
        ));
    }
    how.push(match failure.input_runs {
        Some(runs) => format!("cutting the input took {runs} runs"),
        None => "the input itself was not cut: a validator in the manifest lets stress cut it \
                 (a cut input must still meet the constraints)"
            .to_string(),
    });
    format!(
        "; shrunk from size {} ({}) to {}: {}",
        failure.case.size,
        size(first),
        size(smallest),
        how.join(", then ")
    )
}

/// What the cases that passed reached of the solution, measured on its instrumented build.
#[derive(Debug, Default)]
struct Measured {
    reach: Mutex<Option<Reach>>,
    /// Cases measured.
    measured: Mutex<u64>,
    /// Cases whose instrumented run ended without its counters (killed at its limit).
    unmeasured: Mutex<u64>,
}

impl Measured {
    fn add(&self, coverage: &Coverage, worker: usize, input: &[u8]) -> Result<()> {
        *self.measured.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        let run = coverage.measure(worker, input)?;
        let Some(counters) = run.counters else {
            *self.unmeasured.lock().unwrap_or_else(|e| e.into_inner()) += 1;
            return Ok(());
        };
        let mut reach = self.reach.lock().unwrap_or_else(|e| e.into_inner());
        reach
            .get_or_insert_with(|| Reach::new(counters.len()))
            .add(&counters);
        Ok(())
    }

    /// The lines of the solution no case reached, or why that cannot be said.
    fn report(&self, coverage: &Coverage, passed: u64) -> String {
        let reach = self.reach.lock().unwrap_or_else(|e| e.into_inner());
        let unmeasured = *self.unmeasured.lock().unwrap_or_else(|e| e.into_inner());
        let measured = *self.measured.lock().unwrap_or_else(|e| e.into_inner());
        let Some(reach) = reach.as_ref() else {
            return "  coverage: no case's run of the instrumented build ended by itself\n"
                .to_string();
        };
        let map = match coverage.line_map() {
            Ok(map) => map,
            Err(err) => return format!("  coverage not shown: {err:#}\n"),
        };
        let mut cases = if measured == passed {
            format!("the {passed} cases")
        } else {
            format!(
                "the {measured} cases measured of {passed} ({})",
                coverage::MEASURED_RULE
            )
        };
        if unmeasured > 0 {
            cases.push_str(&format!(
                " ({unmeasured} of them ran past the instrumented build's limit and are not \
                 counted)"
            ));
        }
        found::unreached_lines(&map.reached(reach), &cases)
    }
}

/// The slowest case so far.
#[derive(Debug, Clone, Copy)]
struct Slowest {
    case: Case,
    time: Duration,
}

/// The closing lines: cases passed, the slowest, and the command that repeats the run.
#[allow(clippy::too_many_arguments)]
fn summary(
    problem: &Problem,
    args: &StressArgs,
    seed: u64,
    ceiling: &Ceiling,
    passed: u64,
    slowest: Option<Slowest>,
    limits: &judge::CaseLimits,
    failed: Option<&Failure>,
) -> String {
    let mut line = match failed {
        None => format!("{}: {passed}/{passed} AC", problem.name),
        Some(failure) => format!(
            "{}: {} on case {} after {passed} AC",
            problem.name, failure.first.report.verdict, failure.case.number
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
    let mut flags = args.hunt.programs.repeat_flags();
    if let Some(size) = args.size {
        flags.push_str(&format!(" --size {size}"));
    } else if args.max_size.is_some() || ceiling.max_size < MAX_SIZE {
        flags.push_str(&format!(" --max-size {}", ceiling.max_size));
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
    xtask::hunt::engine::case_seed(nanos, u64::from(std::process::id())) % 1_000_000_000
}

/// Why the sizes stop at `max_size`: what the reference took at the largest size timed.
fn held_sizes(max_size: u64, held: &Held) -> String {
    let (time, within, limit) = (
        thousands(held.time.as_millis()),
        thousands(held.within.as_millis()),
        thousands(held.limit.as_millis()),
    );
    let why = if held.time >= held.limit {
        format!("ran into its limit of {limit} ms at size {}", held.size)
    } else if held.time > held.within {
        format!(
            "took {time} ms at size {}, over {within} ms (a tenth of its limit of {limit} ms)",
            held.size
        )
    } else {
        format!(
            "took {time} ms at size {}, and larger inputs would take it past {within} ms (a tenth \
             of its limit of {limit} ms)",
            held.size
        )
    };
    format!("sizes 1 to {max_size}: the reference {why}; --max-size sets the largest")
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

    #[test]
    fn why_the_sizes_are_held_says_what_the_reference_took_against_its_bound() {
        let ms = Duration::from_millis;
        let held = |size, time| Held {
            size,
            time: ms(time),
            within: ms(1_000),
            limit: ms(10_000),
        };
        assert_eq!(
            held_sizes(20, &held(16, 613)),
            "sizes 1 to 20: the reference took 613 ms at size 16, and larger inputs would take \
             it past 1,000 ms (a tenth of its limit of 10,000 ms); --max-size sets the largest"
        );
        assert_eq!(
            held_sizes(99, &held(100, 1_547)),
            "sizes 1 to 99: the reference took 1,547 ms at size 100, over 1,000 ms (a tenth of \
             its limit of 10,000 ms); --max-size sets the largest"
        );
        assert_eq!(
            held_sizes(7, &held(8, 10_000)),
            "sizes 1 to 7: the reference ran into its limit of 10,000 ms at size 8; --max-size \
             sets the largest"
        );
    }
}
