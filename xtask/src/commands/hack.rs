//! `cargo xtask hack PROBLEM [--time SECONDS] [--seed S]`: arguments and printing over the
//! coverage-guided search (`xtask::hunt::hack`): what guides it, its progress, then the failing
//! input, shrunk and saved as `samples/hack-SEED-N.in/.out` as stress saves one, or, when the
//! time runs out, how many inputs it judged and how much of the solution they reached.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xtask::hunt::hack::{Found, Hack, Origin, Progress, Settings};
use xtask::hunt::ranges::{Ranges, FARTHEST};
use xtask::hunt::sizes::MAX_SIZE;
use xtask::hunt::stress::INPUT_SHRINK_RUNS;
use xtask::hunt::Engine;
use xtask::report::{emit, thousands, Style};
use xtask::workspace::problem;

use super::found::{self, lines, token_count, tokens, HuntArgs};
use super::stress::random_seed;

/// Search for an input the solution fails: samples and generated inputs altered as a person
/// alters a case, guided by which code of the solution each reaches.
#[derive(clap::Args, Debug)]
pub struct HackArgs {
    /// The problem: `boj-1717`, `1717` or a path to a problem folder. It needs a validator
    /// (`validator = "boj-ID-validator"`), and, unless a checker judges it, a reference.
    pub problem: String,
    /// How long to search, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    pub time: u64,
    /// The seed [default: random; the summary prints it].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Inputs judged side by side [default: the machine's cores]. What is found, and in which
    /// order inputs are met, do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    /// Runs spent cutting the failing input down [default: 1000].
    #[arg(long, value_name = "RUNS")]
    pub shrink_budget: Option<u64>,
    /// The largest SIZE the generator is asked for (the search starts from small inputs).
    #[arg(long, value_name = "S", default_value_t = MAX_SIZE, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub max_size: u64,
    #[command(flatten)]
    pub hunt: HuntArgs,
}

/// Runs the subcommand: exit 1 when an input failed (saved), 0 when the time ran out without
/// one; an error is the tool's own (exit 2), a problem without a validator among them.
pub fn run(args: &HackArgs) -> Result<ExitCode> {
    let problem = problem::find(None, &args.problem)?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let jobs = found::jobs(args.jobs);
    let problems = std::slice::from_ref(&problem);
    let built = args.hunt.programs.executables(problems, true)?.remove(0);
    let solver = args.hunt.programs.solver(&problem, &built)?;
    let engine = Engine::alone(&problem, &built, solver)?;
    let settings = Settings {
        seed,
        time: Duration::from_secs(args.time),
        jobs,
        shrink_budget: args.shrink_budget.unwrap_or(INPUT_SHRINK_RUNS),
        max_size: args.max_size,
    };
    let limits = *engine.limits();
    // Refused before anything is built for coverage: no validator, an interactive problem.
    Hack::new(&engine, None, settings)?;
    emit(&format!(
        "{}  hack · seed {seed} · {} s · {jobs} side by side · {}{}{} · {} · {} ms CPU · {} \
         MB\n{}",
        problem.name,
        args.time,
        engine
            .validator()
            .map_or(String::new(), |v| format!("validated by {}", v.name())),
        problem
            .meta
            .reference
            .as_ref()
            .filter(|_| engine.has_reference())
            .map_or(String::new(), |r| format!(" · {r}")),
        problem
            .meta
            .generator
            .as_ref()
            .map_or(String::new(), |g| format!(" · {g}")),
        problem.judge,
        limits.time.as_millis(),
        limits.memory / problem::MIB,
        if engine.judges_output() {
            ""
        } else {
            "  no reference: only the runs are judged (RE, TLE, MLE, OLE), not their answers\n"
        },
    ));
    let coverage = match args.hunt.programs.coverage(&problem, &engine, jobs) {
        Ok(coverage) => Some(coverage),
        Err(why) => {
            emit(&format!(
                "  not guided by coverage ({why}): inputs are altered at random\n"
            ));
            None
        }
    };
    let hack = Hack::new(&engine, coverage.as_ref(), settings)?;
    let bar = progress_bar(args.time);
    let outcome = hack.run(|progress| {
        bar.set_position(progress.elapsed.as_secs().min(args.time));
        bar.set_message(progress_message(progress));
    });
    bar.finish_and_clear();
    let mut outcome = outcome?;
    let style = Style::new(args.hunt.color);
    let progress = &outcome.progress;
    let repeat = format!(
        "  seed {seed}: cargo xtask hack {} --seed {seed} --time {}{}{}\n",
        args.problem,
        args.time,
        if args.max_size < MAX_SIZE {
            format!(" --max-size {}", args.max_size)
        } else {
            String::new()
        },
        args.hunt.programs.repeat_flags(),
    );
    if !outcome.ranges.is_empty() {
        emit(&ranges_line(&outcome.ranges));
    }
    let Some(found) = &mut outcome.found else {
        if let (Some(coverage), Some(reach)) = (&coverage, &outcome.reach) {
            if let Ok(map) = coverage.line_map() {
                let cases = format!("the {} inputs judged", thousands(progress.judged.into()));
                emit(&found::unreached_lines(&map.reached(reach), &cases));
            }
        }
        emit(&format!(
            "{}: nothing failed in {} s · {}\n{repeat}",
            problem.name,
            args.time,
            progress_message(progress)
        ));
        return Ok(ExitCode::SUCCESS);
    };
    if !args.hunt.no_checked_rerun {
        found::add_checked_hint(&args.hunt.programs, &problem, &engine, &mut found.smallest)?;
    }
    let name = hack.case_name(found.number);
    emit(&format!(
        "  input #{} failed ({}){}:\n{}",
        found.number,
        lineage(found),
        shrunk(found),
        found::show_case(
            &engine,
            &problem,
            &found.smallest,
            &style,
            args.hunt.programs.links_stack()
        )?
    ));
    emit(&found::save(
        &engine,
        &problem,
        &args.problem,
        &name,
        &found.smallest,
    )?);
    emit(&format!(
        "{}: {} on input #{} · {:.1} s · {}\n{repeat}",
        problem.name,
        found.first.report.verdict,
        found.number,
        progress.elapsed.as_secs_f64(),
        progress_message(progress),
    ));
    Ok(ExitCode::from(1))
}

/// What the validator allows of each number probed, in one line: the bounds the search set
/// numbers to, which are also the constraints as the validator checks them.
fn ranges_line(ranges: &Ranges) -> String {
    let each: Vec<String> = ranges
        .probed()
        .iter()
        .map(|&(place, (least, most))| {
            let unbounded = least == FARTHEST.0 || most == FARTHEST.1;
            format!(
                "{place} from {least} to {most}{}",
                if unbounded {
                    " (no bound: does the validator check it?)"
                } else {
                    ""
                }
            )
        })
        .collect();
    format!(
        "  numbers set to the bounds the validator allows, probed on one input: {}\n",
        each.join(", ")
    )
}

/// How far the search went, in one line.
fn progress_message(progress: &Progress) -> String {
    let mut message = format!(
        "{} inputs judged ({} refused by the validator), {} kept for reaching new code",
        thousands(progress.judged.into()),
        thousands(progress.refused.into()),
        thousands(progress.kept as u128),
    );
    if let Some((reached, total)) = progress.lines.filter(|&(_, t)| t > 0) {
        message.push_str(&format!(
            ", {reached} of {total} lines of src/ reached ({}%)",
            reached * 100 / total
        ));
    }
    if progress.passed_on_the_real_build > 0 {
        message.push_str(&format!(
            "; {} failed on the instrumented build only",
            progress.passed_on_the_real_build
        ));
    }
    message
}

/// Where the failing input came from: a sample or a generated input, and how it was altered.
fn lineage(found: &Found) -> String {
    let mut alterations = Vec::new();
    let mut root = String::from("an input");
    for (_, origin) in &found.lineage {
        match origin {
            Origin::Altered { alterations: a, .. } => alterations.extend(a.iter().rev().copied()),
            Origin::Sample(name) => root = format!("the sample {name}"),
            Origin::Generated(case) => {
                root = format!(
                    "the generator's input for seed {} size {}",
                    case.seed, case.size
                )
            }
        }
    }
    if alterations.is_empty() {
        return root;
    }
    alterations.reverse();
    // Each kind once, in the order first made, with how many times.
    let mut kinds: Vec<(xtask::hunt::mutate::Alteration, usize)> = Vec::new();
    for &alteration in &alterations {
        match kinds.iter_mut().find(|(kind, _)| *kind == alteration) {
            Some((_, times)) => *times += 1,
            None => kinds.push((alteration, 1)),
        }
    }
    let kinds: Vec<String> = kinds
        .iter()
        .map(|(kind, times)| match times {
            1 => kind.to_string(),
            n => format!("{kind} ×{n}"),
        })
        .collect();
    format!("{root}, altered: {}", kinds.join(", "))
}

/// How the failing input was cut down.
fn shrunk(found: &Found) -> String {
    let (first, smallest) = (&found.first.input, &found.smallest.input);
    let size = |input: &[u8]| {
        format!(
            "{}, {}",
            lines(String::from_utf8_lossy(input).lines().count()),
            tokens(token_count(input))
        )
    };
    if first == smallest {
        return format!("; nothing smaller failed in {} runs", found.shrink_runs);
    }
    if token_count(first) == token_count(smallest) {
        return format!("; its numbers made smaller in {} runs", found.shrink_runs);
    }
    format!(
        "; cut from {} to {} in {} runs",
        size(first),
        size(smallest),
        found.shrink_runs
    )
}

fn progress_bar(seconds: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(seconds), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} s · {msg}").expect("a valid template"),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use xtask::hunt::counts::Counts;
    use xtask::hunt::input::Input;
    use xtask::hunt::ranges;

    #[test]
    fn a_number_the_validator_does_not_bound_is_pointed_out() {
        let input = Input::read(b"5 7\n").unwrap();
        let counts = Counts::infer(std::slice::from_ref(&input));
        // The first number from 1 to 10; the second anything.
        let legal = ranges::probe(&input, &counts, 1, |_, input| {
            Ok(input
                .numbers()
                .all(|(place, value)| place.token == 1 || (1..=10).contains(&value)))
        })
        .unwrap();
        assert_eq!(
            ranges_line(&legal),
            "  numbers set to the bounds the validator allows, probed on one input: line 1 \
             token 1 from 1 to 10, line 1 token 2 from -9223372036854775808 to \
             9223372036854775807 (no bound: does the validator check it?)\n"
        );
    }
}
