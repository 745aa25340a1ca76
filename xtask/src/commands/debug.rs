//! `cargo xtask debug PROBLEM [CASE] [--batch]`: a failing case in the system's debugger. The
//! solution is built with debug info (profile `judge-debug`: opt-level 0, overflow checks and
//! debug assertions on), and rust-gdb or rust-lldb opens on it with the case as standard input
//! and a breakpoint on a panic, at its prompt; `--batch` runs it instead and prints where it
//! stopped (`xtask::debug`). CASE is a sample's name, by default the first that fails.
//!
//! [`command_line`] is the command that debugs a saved case, for the messages of the commands
//! that save one.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use xtask::debug::{self, Case, Debugger, Ending, Kind, Stopped};
use xtask::judge::Verdict;
use xtask::report::ColorChoice;
use xtask::run::DEFAULT_OUTPUT_CAP;
use xtask::workspace::build::{self, BuildOptions};
use xtask::workspace::members;
use xtask::workspace::problem::{self, Judge, Problem, Sample};

use super::test::{judge_problems, JudgeArgs};
use super::ProgramArgs;

/// What the debugging build is, as the first line says it.
const DEBUGGING_BUILD: &str = "debugging build: opt-level 0, overflow checks, debug assertions";

/// Open a case in the debugger (rust-gdb, or rust-lldb), ready to `run`; or, with --batch, run
/// it and print where it stopped (exit 0 it ran to its end, 1 it did not, 2 no debugger).
#[derive(clap::Args, Debug)]
pub struct DebugArgs {
    /// The problem: `boj-1717`, `1717`, or a path to its folder or to a file in it.
    pub problem: String,
    /// The sample to run, by name (`2` for samples/2.in, `stress-7-28`) [default: the first
    /// sample that fails, found by judging them as `cargo xtask test` does].
    pub case: Option<String>,
    /// No prompt: run the case to its end or to its first panic, and print the panic, the
    /// solution's own frames and their arguments and locals.
    #[arg(long)]
    pub batch: bool,
    /// The debugger [default: gdb where it is installed, else lldb; lldb first on macOS].
    #[arg(long, value_enum, value_name = "DEBUGGER")]
    pub debugger: Option<Kind>,
    /// Look for problems under DIR/problems instead of this workspace's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: &DebugArgs) -> Result<ExitCode> {
    let problem = problem::find(args.root.as_deref(), &args.problem)?;
    if let Judge::Interactive(interactor) = &problem.judge {
        bail!(
            "{} is interactive: its solution talks to {interactor}, and `debug` runs a solution \
             on a file; debug it by hand in the debugger, its input typed as the interactor would",
            problem.name
        );
    }
    // Before anything is built: where there is no debugger, say what to install at once.
    let debugger = debug::find(args.debugger)?;
    let samples = problem.samples()?;
    let sample = match &args.case {
        Some(name) => named_sample(&problem, &samples, name)?,
        None => match first_failing(&problem, &samples)? {
            Some(sample) => sample,
            None => {
                say!(
                    "{}: every sample is AC, so none to debug by default; name one to step \
                     through it: {}",
                    problem.name,
                    super::replay::debug_command(
                        &args.problem,
                        samples.first().map_or("1", |s| &s.name)
                    )
                );
                return Ok(ExitCode::SUCCESS);
            }
        },
    };
    let built = build::build(std::slice::from_ref(&problem), &BuildOptions::debugging())?;
    let exe = built
        .into_iter()
        .next()
        .context("cargo built nothing for the problem")?
        .solver;
    let target = exe.parent().unwrap_or(Path::new("."));
    let own = own_folder(&problem)?;
    let case = Case {
        input: debug::fed_input(&sample.input, target)?,
        exe,
        own,
        time: batch_time(&problem),
        stack: cfg!(target_os = "linux").then(|| problem.meta.stack_limit_bytes()),
    };
    let input = shown(&sample.input, &problem.dir);
    if args.batch {
        say!(
            "{} · sample {} · {} --batch on {input} ({DEBUGGING_BUILD})",
            problem.name,
            sample.name,
            debugger
                .wrapper
                .file_name()
                .unwrap_or_default()
                .to_string_lossy(),
        );
        let stopped = debugger.batch(&case)?;
        say!("{}", render(&stopped, &problem, &case));
        return Ok(if stopped.clean() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    interactive(&debugger, &case, &problem, &sample.name, &input)
}

/// The sample named `name`, or an error listing the names there are.
fn named_sample(problem: &Problem, samples: &[Sample], name: &str) -> Result<Sample> {
    let wanted = name.strip_suffix(".in").unwrap_or(name);
    if let Some(sample) = samples.iter().find(|s| s.name == wanted) {
        return Ok(sample.clone());
    }
    let names: Vec<&str> = samples.iter().map(|s| s.name.as_str()).collect();
    bail!(
        "{} has no sample `{name}` (samples/{wanted}.in with its .out); its samples: {}",
        problem.name,
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    )
}

/// The first sample that is not AC, judged as `cargo xtask test PROBLEM` judges (and prints)
/// them; `None` when every one is AC.
fn first_failing(problem: &Problem, samples: &[Sample]) -> Result<Option<Sample>> {
    let programs = ProgramArgs {
        prebuilt: None,
        command: None,
        bundled: false,
        rustc: Vec::new(),
    };
    let judging = JudgeArgs {
        color: ColorChoice::Auto,
        output_cap: DEFAULT_OUTPUT_CAP,
        root: None,
        checked: false,
        // The debugger shows the panic itself: no second build for the hint.
        no_checked_rerun: true,
    };
    let reports = judge_problems(std::slice::from_ref(problem), &programs, &judging)?;
    let failing = reports
        .iter()
        .flat_map(|report| &report.cases)
        .find(|case| case.verdict != Verdict::Ac);
    Ok(failing.and_then(|case| samples.iter().find(|s| s.name == case.name).cloned()))
}

/// The folder whose sources are the solution's own: the workspace the problem is in (its
/// libraries are the user's too), else the cargo workspace that builds it.
fn own_folder(problem: &Problem) -> Result<PathBuf> {
    if let Some(root) = members::root_of(&problem.dir) {
        return Ok(root);
    }
    let manifest = build::workspace_manifest(&problem.dir)?;
    Ok(manifest.parent().unwrap_or(&problem.dir).to_path_buf())
}

/// How long a batch run goes before it is stopped where it is: 10 s and 10 × the time limit
/// (a debugging build runs unoptimised, under the debugger).
fn batch_time(problem: &Problem) -> Duration {
    Duration::from_secs(10) + problem.meta.time_limit() * 10
}

/// `path` from the problem's folder when it lies in it (`samples/2.in`), else as it is.
fn shown(path: &Path, problem_dir: &Path) -> String {
    xtask::workspace::slashed(path.strip_prefix(problem_dir).unwrap_or(path))
}

/// Says what the prompt is for, then becomes the debugger (Unix: `exec`, so that the
/// terminal's signals go to it alone, and `quit` ends the command).
fn interactive(
    debugger: &Debugger,
    case: &Case,
    problem: &Problem,
    sample: &str,
    input: &str,
) -> Result<ExitCode> {
    let (run, backtrace, quit) = match debugger.kind {
        Kind::Gdb => ("run", "bt", "quit"),
        Kind::Lldb => ("run", "bt", "quit"),
    };
    say!(
        "{} · sample {sample} · {} ({DEBUGGING_BUILD})\n\
         `{run}` starts it on {input}; it stops at a panic before unwinding (`{backtrace}` for the \
         frames, `frame N` and `info locals` or `frame variable` for the values); `{quit}` leaves",
        problem.name,
        debugger.wrapper.display(),
    );
    let mut command = debugger.interactive(case);
    become_debugger(&mut command, case)
}

#[cfg(unix)]
fn become_debugger(command: &mut std::process::Command, case: &Case) -> Result<ExitCode> {
    use std::os::unix::process::CommandExt;
    if let Some(bytes) = case.stack {
        // Kept across exec, by the debugger and by the solution it starts.
        xtask::run::process::set_own_stack_limit(bytes)
            .context("cannot set the stack limit the solution runs with")?;
    }
    let err = command.exec();
    Err(err).with_context(|| format!("cannot start {}", command.get_program().to_string_lossy()))
}

#[cfg(not(unix))]
fn become_debugger(_command: &mut std::process::Command, _case: &Case) -> Result<ExitCode> {
    bail!("{}", debug::windows_advice())
}

/// What a batch run found: how it ended, the panic, each of the solution's own frames
/// (function, file:line) with its arguments (`arg`) and locals (`let`).
fn render(stopped: &Stopped, problem: &Problem, case: &Case) -> String {
    let mut out = String::new();
    let place = |file: &Path| -> String {
        let from = if file.starts_with(&problem.dir) {
            &problem.dir
        } else {
            &case.own
        };
        shown(file, from)
    };
    match &stopped.ending {
        Ending::Exited(0) => out.push_str(&format!(
            "ran to its end: exit status 0, {} bytes written on stdout",
            stopped.stdout_bytes
        )),
        Ending::Exited(code) => out.push_str(&format!(
            "ran to its end with exit status {code} (RE on BOJ)"
        )),
        Ending::Panicked => match &stopped.panic {
            Some(xtask::judge::hint::CheckedRun::Panicked { message, place: at }) => {
                out.push_str(&format!("panicked: {message}"));
                if let Some(at) = at {
                    out.push_str(&format!(
                        "\n  at {}",
                        xtask::judge::hint::place_in_problem(at, &case.own, &problem.dir)
                    ));
                }
            }
            None => out.push_str("panicked (its message is not on its stderr)"),
        },
        Ending::Signal(signal) => out.push_str(&format!(
            "stopped by {signal}{}",
            match signal.as_str() {
                "SIGSEGV" => " (a stack overflow, or an access out of bounds in unsafe code)",
                "SIGABRT" => " (aborted: a panic while panicking, or a failed allocation)",
                _ => "",
            }
        )),
        Ending::StillRunning(time) => out.push_str(&format!(
            "still running after {} s, stopped there (a TLE? a loop that never ends?)",
            time.as_secs()
        )),
    }
    if !stopped.frames.is_empty() {
        out.push_str("\nthe solution's own frames, innermost first:");
    }
    for frame in &stopped.frames {
        out.push_str(&format!(
            "\n  {} at {}:{}",
            without_hash(&frame.function),
            place(&frame.file),
            frame.line
        ));
        for variable in &frame.values {
            out.push_str(&format!(
                "\n    {} {} = {}",
                if variable.argument { "arg" } else { "let" },
                variable.name,
                variable.value
            ));
        }
    }
    if stopped.more_frames > 0 || !stopped.walked_all {
        out.push_str(&format!(
            "\n  ... {} more of its own frames{}",
            stopped.more_frames,
            if stopped.walked_all {
                ""
            } else {
                " in the first 512 (a deep recursion)"
            }
        ));
    }
    out
}

/// A function's name without the hash legacy mangling ends it with (`main::h81dfbbb9387b957d`,
/// as lldb names it): `main`.
fn without_hash(function: &str) -> &str {
    match function.rsplit_once("::h") {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name
        }
        _ => function,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legacy_hash_is_left_out_of_a_function_name() {
        assert_eq!(without_hash("a::main::h81dfbbb9387b957d"), "a::main");
        assert_eq!(without_hash("a::hello"), "a::hello");
        assert_eq!(without_hash("a::main::{closure#0}"), "a::main::{closure#0}");
    }
}
