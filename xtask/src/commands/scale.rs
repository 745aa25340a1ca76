//! `cargo xtask scale PROBLEM [--seed S] [--open]`: arguments and printing over the scale engine
//! (`xtask::scale`): a table line for each size as it is measured, how CPU time and memory grow
//! with the input, the largest size measured or predicted against the limits, a chart for the
//! terminal and the SVG plot's path.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use xtask::hunt::engine::shown_path;
use xtask::hunt::sizes::MAX_SIZE;
use xtask::hunt::Engine;
use xtask::judge::{self, CaseLimits, CaseReport, JudgeOptions, Verdict};
use xtask::report::{emit, thousands, ColorChoice, Style};
use xtask::scale::chart::short_ms;
use xtask::scale::fit::{Fit, NoFit};
use xtask::scale::{self, chart, plot, Analysis, Estimate, Growth, Measured, Scale, Size};
use xtask::submit::{open_in_browser, Opened};
use xtask::workspace::problem::{self, Problem, MIB};

use super::stress::random_seed;
use super::ProgramArgs;

/// See how a solution scales: time and memory against the input's size, up to the largest.
#[derive(clap::Args, Debug)]
pub struct ScaleArgs {
    /// The problem: `boj-1517`, `1517` or a path to a problem folder. It needs a generator
    /// (`generator = "boj-ID-gen"` in its metadata); no reference: only the runs are judged.
    pub problem: String,
    /// The seed [default: random; the summary prints it].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Open the SVG plot in the browser (the `BROWSER` command where it is set).
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub programs: ProgramArgs,
    /// Colour the report: auto = when stdout is a terminal and NO_COLOR is unset.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Runs the subcommand: exit 0 when the largest size is within the limits, 1 when it is (or is
/// predicted) past one, or the solution failed on the way; an error is the tool's own (exit 2).
pub fn run(args: &ScaleArgs) -> Result<ExitCode> {
    let problem = problem::find(None, &args.problem)?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let mut built = args
        .programs
        .executables(std::slice::from_ref(&problem), true)?
        .remove(0);
    // Runs are judged, not answers.
    built.reference = None;
    let solver = args.programs.solver(&problem, &built)?;
    let engine = Engine::new(&problem, &built, solver)?;
    let limits = *engine.limits();
    let style = Style::new(args.color);
    emit(&format!(
        "{}  scale · seed {seed} · sizes 1 to {MAX_SIZE} · {}{}{} · {} ms CPU · {} MB\n",
        problem.name,
        problem.meta.generator.as_deref().unwrap_or_default(),
        engine
            .validator()
            .map_or(String::new(), |v| format!(" · validated by {}", v.name())),
        if args.programs.bundled {
            " · bundled".to_string()
        } else if let Some(command) = &args.programs.command {
            format!(" · `{}`", command.line)
        } else {
            String::new()
        },
        limits.time.as_millis(),
        limits.memory / MIB,
    ));
    let ladder = Scale::new(&engine, seed)?;
    emit(&format!(
        "  {:>4}  {:>11}  {:>10}  {:>4}  {:>9}\n",
        "size", "input bytes", "CPU time", "runs", "memory"
    ));
    let measured = ladder.run(|size| emit(&size_line(size, &limits)))?;
    let analysis = scale::analyse(&measured);
    let mut report = String::new();
    if let Some(stopped) = measured.stopped_at() {
        if let Some(failed) = &stopped.failed {
            if !matches!(failed.verdict, Verdict::Tle | Verdict::Mle) || waited(failed) {
                let options = JudgeOptions {
                    stack_linked: args.programs.links_stack(),
                    ..JudgeOptions::default()
                };
                let mut head = judge::start_report(&problem, &options)?;
                head.sample_names = vec![failed.name.clone()];
                report.push_str(&format!(
                    "  the solution failed at size {}, so scale stops there:\n{}  the input: {}\n",
                    stopped.case.size,
                    style.case(&head, failed),
                    engine.generator_command(&stopped.case)
                ));
            }
        }
    }
    report.push_str(&start_up_line(&measured, &analysis));
    report.push_str(&growth_line("CPU time", &analysis.time, &measured, &|f| {
        format!("{} ms", short_ms(f * 1000.0))
    }));
    report.push_str(&growth_line(
        "peak memory",
        &analysis.memory,
        &measured,
        &|f| format!("{:.1} MB", f / MIB as f64),
    ));
    report.push_str(&time_outlook(&measured, &analysis, &limits));
    report.push_str(&memory_outlook(&measured, &analysis, &limits));
    report.push('\n');
    report.push_str(&chart::time_chart(
        &measured,
        &analysis.time,
        analysis.time_at_largest,
        limits.time.as_secs_f64(),
    ));
    emit(&report);

    let svg = plot::svg(&problem.name, &measured, &analysis, &limits)?;
    let path = plot_path(&problem)?;
    if let Some(folder) = path.parent() {
        fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
    }
    fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    emit(&format!("  plot: {}\n", shown_path(&path)));
    if args.open {
        match open_in_browser(&path.display().to_string()) {
            Opened::Opened => emit("  opened in the browser\n"),
            Opened::NotOpened(why) => emit(&format!("  not opened: {why}\n")),
        }
    }
    let past = analysis.past_time(&limits, &measured)
        || analysis.past_memory(&limits, &measured)
        || measured.stopped_at().is_some();
    emit(&format!(
        "{}: {} · seed {seed}: cargo xtask scale {} --seed {seed}{}\n",
        problem.name,
        if past {
            "past the limits at the largest size"
        } else {
            "within the limits at the largest size"
        },
        args.problem,
        args.programs.repeat_flags()
    ));
    Ok(if past {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the plot goes: `TARGET/scale/PACKAGE.svg`, in cargo's target folder for the problem
/// (so `CARGO_TARGET_DIR` holds), beside the bundles.
fn plot_path(problem: &Problem) -> Result<PathBuf> {
    let target = xtask::workspace::build::target_directory(&problem.manifest)?;
    Ok(target.join("scale").join(format!("{}.svg", problem.name)))
}

/// A size's line of the table: size, input bytes, median CPU time, runs, peak memory, and the
/// verdict where it failed.
fn size_line(size: &Size, limits: &CaseLimits) -> String {
    let time = match &size.failed {
        Some(failed) if waited(failed) => {
            let cpu = failed.cpu_time.unwrap_or_default();
            format!("{} ms", short_ms(cpu.as_secs_f64() * 1000.0))
        }
        Some(failed) if failed.verdict == Verdict::Tle => {
            format!(">{} ms", thousands(limits.time.as_millis()))
        }
        _ => format!("{} ms", short_ms(size.time().as_secs_f64() * 1000.0)),
    };
    let memory = size.memory().map_or("—".to_string(), |m| {
        format!("{:.1} MB", m as f64 / MIB as f64)
    });
    let verdict = size
        .failed
        .as_ref()
        .map_or(String::new(), |f| format!("  {}", f.verdict));
    format!(
        "  {:>4}  {:>11}  {:>10}  {:>4}  {:>9}{verdict}\n",
        size.case.size,
        thousands(u128::from(size.bytes)),
        time,
        size.runs.len(),
        memory,
    )
}

/// Whether `failed` is a TLE killed at a cap other than its CPU time's (waiting, the wall
/// clock) where the system tells its CPU time: it did not run past the limit, it waited, and
/// its case report says so.
fn waited(failed: &CaseReport) -> bool {
    failed.verdict == Verdict::Tle
        && failed.cpu_time.is_some()
        && failed.judged_time().1 != xtask::run::Clock::Cpu
}

/// What was taken off before fitting: the start-up, and the noise floor.
fn start_up_line(measured: &Measured, analysis: &Analysis) -> String {
    let clock = if measured.clock == xtask::run::Clock::Wall {
        " (wall clock: this system tells no CPU time)"
    } else {
        ""
    };
    if measured.start_up.is_empty() {
        return format!(
            "  start-up: not measured (the solution did not end on an empty input), so \
             nothing is taken off{clock}\n"
        );
    }
    format!(
        "  start-up: {} ms on an empty input ({} runs), taken off each size before fitting; \
         the timer's noise {} ms (resolution {} µs), so a size is fitted from {} ms above the \
         start-up{clock}\n",
        short_ms(analysis.time.base * 1000.0),
        measured.start_up.len(),
        short_ms(analysis.noise * 1000.0),
        analysis.resolution.as_micros(),
        short_ms(analysis.time.floor * 1000.0),
    )
}

/// How a figure grows: `CPU time grows as n^1.98, quadratic (n is the input's size; 95% range
/// 1.93 to 2.03, R² 0.999, from 7 sizes, 48,890 to 391,120 bytes)`, or why it was not fitted.
fn growth_line(
    what: &str,
    growth: &Growth,
    measured: &Measured,
    show: &dyn Fn(f64) -> String,
) -> String {
    match &growth.fit {
        Ok(fit) => format!(
            "  {what} grows as {} (n the input's bytes; 95% range of the exponent {:.2} to \
             {:.2}, R² {:.3}, from {} sizes, {} to {} bytes)\n",
            growth_name(fit),
            fit.range.0,
            fit.range.1,
            fit.r_squared,
            fit.points,
            thousands(fit.span.0.round() as u128),
            thousands(fit.span.1.round() as u128),
        ),
        Err(why) => {
            let under = match why {
                NoFit::TooFewPoints { .. } => {
                    let most = measured
                        .sizes
                        .iter()
                        .zip(&growth.fitted)
                        .filter(|(s, fitted)| !**fitted && s.failed.is_none())
                        .count();
                    format!(
                        " ({most} others under {} over the start-up)",
                        show(growth.floor)
                    )
                }
                NoFit::TooNarrow { .. } => String::new(),
            };
            format!("  {what}: no growth fitted: {why}{under}\n")
        }
    }
}

/// `n^1.98, quadratic`, or `n^1.52` where no name is clear.
fn growth_name(fit: &Fit) -> String {
    match fit.name() {
        Some(name) => format!("n^{:.2}, {name}", fit.exponent),
        None => format!("n^{:.2}", fit.exponent),
    }
}

/// The largest size's CPU time against the limit, measured or predicted.
fn time_outlook(measured: &Measured, analysis: &Analysis, limits: &CaseLimits) -> String {
    let limit_ms = limits.time.as_secs_f64() * 1000.0;
    let ms = |seconds: f64| thousands((seconds * 1000.0).round() as u128);
    outlook(
        measured,
        analysis.time_at_largest,
        limit_ms / 1000.0,
        &format!("{} ms", thousands(limits.time.as_millis())),
        "TLE",
        Verdict::Tle,
        &|v| format!("{} ms", ms(v)),
        &|(low, high)| format!("{} to {} ms", ms(low), ms(high)),
    )
}

/// The largest size's peak memory against the limit, measured or predicted.
fn memory_outlook(measured: &Measured, analysis: &Analysis, limits: &CaseLimits) -> String {
    let mb = |bytes: f64| format!("{:.1}", bytes / MIB as f64);
    outlook(
        measured,
        analysis.memory_at_largest,
        limits.memory as f64,
        &format!("{} MB", limits.memory / MIB),
        "MLE",
        Verdict::Mle,
        &|v| format!("{} MB", mb(v)),
        &|(low, high)| format!("{} to {} MB", mb(low), mb(high)),
    )
}

/// What a prediction for the largest size says against the limit when a smaller size, `stopped`,
/// already ran past it: the fit may still put the largest size under it (the sizes before the
/// failure were quick), and then the verdict is the smaller size's, not the prediction's.
fn already_past(
    predicted_past: bool,
    limit_shown: &str,
    verdict_name: &str,
    stopped: &Size,
) -> String {
    let size = stopped.case.size;
    match (predicted_past, stopped.failed.as_ref().is_some_and(waited)) {
        (true, false) => {
            format!("past the limit of {limit_shown}: {verdict_name} (size {size} already was)")
        }
        (false, false) => format!(
            "under the limit of {limit_shown} by the fit, but size {size} already ran past it: \
             {verdict_name}"
        ),
        (true, true) => format!(
            "past the limit of {limit_shown}: {verdict_name} (size {size} was killed for \
             waiting: it sleeps or waits for input)"
        ),
        (false, true) => format!(
            "under the limit of {limit_shown} by the fit, but size {size} was killed for \
             waiting (it sleeps or waits for input): {verdict_name}"
        ),
    }
}

/// `at size 100 (4,888,890 bytes): 1,840 ms predicted (95%: 1,500 to 2,300 ms), past the limit
/// of 1,000 ms: TLE`, and the like.
#[allow(clippy::too_many_arguments)]
fn outlook(
    measured: &Measured,
    estimate: Estimate,
    limit: f64,
    limit_shown: &str,
    verdict_name: &str,
    verdict: Verdict,
    show: &dyn Fn(f64) -> String,
    range: &dyn Fn((f64, f64)) -> String,
) -> String {
    let (case, bytes) = measured.largest;
    let at = format!(
        "  at size {} ({} bytes): ",
        case.size,
        thousands(u128::from(bytes))
    );
    let against = |value: f64| {
        if value > limit {
            format!("past the limit of {limit_shown}: {verdict_name}")
        } else {
            let spare = ((limit - value) / limit * 100.0).floor();
            format!("within the limit of {limit_shown}, {spare:.0}% to spare")
        }
    };
    let stopped = measured.stopped_at();
    match estimate {
        Estimate::Measured(value) => format!("{at}{} measured, {}\n", show(value), against(value)),
        Estimate::Predicted(value, (low, high)) => {
            let shown_range = if (high - low) > value * 1e-6 {
                format!(" (95%: {})", range((low, high)))
            } else {
                String::new()
            };
            let against = match stopped {
                Some(s) if s.verdict() == verdict => {
                    already_past(value > limit, limit_shown, verdict_name, s)
                }
                _ => against(value),
            };
            format!("{at}{} predicted{shown_range}, {against}\n", show(value))
        }
        Estimate::Unknown => match stopped {
            Some(s) if s.verdict() == verdict && s.failed.as_ref().is_some_and(waited) => format!(
                "{at}not predicted (no fit), but size {} was killed for waiting (it sleeps or \
                 waits for input): {verdict_name}\n",
                s.case.size
            ),
            Some(s) if s.verdict() == verdict => format!(
                "{at}not predicted (no fit), but size {} already ran past the limit of \
                 {limit_shown}: {verdict_name}\n",
                s.case.size
            ),
            Some(s) => format!(
                "{at}not measured (the run stopped at size {}: {}) and not predicted (no fit)\n",
                s.case.size,
                s.verdict(),
            ),
            None => format!("{at}no figure on this system\n"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xtask::run::TimeUp;

    #[test]
    fn a_prediction_under_the_limit_does_not_say_past_it_when_a_smaller_size_failed() {
        let stopped = |killed: TimeUp| Size {
            case: xtask::hunt::engine::Case {
                number: 63,
                seed: 1,
                size: 63,
            },
            bytes: 100,
            runs: Vec::new(),
            failed: Some(CaseReport {
                name: "63".into(),
                verdict: Verdict::Tle,
                time: std::time::Duration::from_millis(3000),
                cpu_time: Some(std::time::Duration::from_millis(1)),
                peak_memory: None,
                peak_is_upper_bound: false,
                detail: xtask::judge::Detail::Overtime {
                    killed: Some(killed),
                },
                hints: Vec::new(),
            }),
        };
        let ran = stopped(TimeUp::Cpu);
        assert_eq!(
            already_past(true, "1,000 ms", "TLE", &ran),
            "past the limit of 1,000 ms: TLE (size 63 already was)"
        );
        assert_eq!(
            already_past(false, "1,000 ms", "TLE", &ran),
            "under the limit of 1,000 ms by the fit, but size 63 already ran past it: TLE"
        );
        // Killed at the cap on waiting (it sleeps): it never ran past the limit.
        let slept = stopped(TimeUp::Waiting);
        assert_eq!(
            already_past(false, "1,000 ms", "TLE", &slept),
            "under the limit of 1,000 ms by the fit, but size 63 was killed for waiting (it \
             sleeps or waits for input): TLE"
        );
        assert!(!already_past(true, "1,000 ms", "TLE", &slept).contains("already"));
    }
}
