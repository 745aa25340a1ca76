//! `cargo xtask test [PROBLEM...]`: builds problems in the judge profile (or takes them from
//! `--prebuilt DIR`, or judges `--command CMD`) and judges every sample as BOJ would, printing
//! each case as it finishes and a summary at the end.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use xtask::judge::hint::CheckedRun;
use xtask::judge::{self, CaseReport, Hint, JudgeOptions, Judged, ProblemReport};
use xtask::judge::{Detail, Verdict};
use xtask::report::{emit, ColorChoice, Style};
use xtask::run::{Program, DEFAULT_OUTPUT_CAP};
use xtask::validate::{self, Validator};
use xtask::workspace;
use xtask::workspace::build;
use xtask::workspace::members;
use xtask::workspace::problem::{self, Problem};

use super::ProgramArgs;

/// Judge the samples of problems locally, as BOJ would (exit 0 all AC, 1 some not, 2 no run).
#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Problems: `boj-2239`, `2239` or a path to a problem folder [default: every problem
    /// under problems/].
    pub problems: Vec<String>,
    #[command(flatten)]
    pub judging: JudgeArgs,
    #[command(flatten)]
    pub programs: ProgramArgs,
}

/// How problems are found, judged and reported: the same for `test` and `watch`.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// Colour the report: auto = when stdout is a terminal and NO_COLOR is unset.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Stop a solver after this many bytes of stdout and call it OLE.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_OUTPUT_CAP)]
    pub output_cap: u64,
    /// Look for problems under DIR/problems instead of this workspace's.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Judge every case in the checked build: the judge profile (opt-level 2) with overflow
    /// checks and debug assertions on, so an overflow or a failed debug_assert! is RE with its
    /// place.
    #[arg(long)]
    pub checked: bool,
    /// Do not judge a WA or RE case again in the checked build (by default its panic, if any,
    /// is added to the report: `in a checked build: attempt to subtract with overflow at
    /// src/main.rs:12:9`).
    #[arg(long)]
    pub no_checked_rerun: bool,
}

/// Runs the subcommand: exit 0 all AC, 1 some case not; an error is the tool's own (exit 2).
pub fn run(args: &TestArgs) -> Result<ExitCode> {
    let judging = &args.judging;
    let mut problems: Vec<Problem> = if args.problems.is_empty() {
        let root = workspace::root_or_project(judging.root.as_deref())?;
        let found = problem::discover(&root)?;
        if found.is_empty() {
            bail!(
                "no problems under {} (create one with `cargo xtask new ID`)",
                root.join("problems").display()
            );
        }
        found
    } else {
        args.problems
            .iter()
            .map(|spec| problem::find(judging.root.as_deref(), spec))
            .collect::<Result<_>>()?
    };
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert(p.manifest.clone()));
    let reports = judge_problems(&problems, &args.programs, judging)?;
    // Samples come and go (by hand, by stress): the editor's configurations follow.
    let mut roots: Vec<PathBuf> = problems
        .iter()
        .filter_map(|p| members::root_of(&p.dir))
        .collect();
    roots.dedup();
    for root in roots {
        super::keep_editor_files(&root, xtask::workspace::editor::Missing::Leave);
    }
    Ok(if reports.iter().any(ProblemReport::judge_failed) {
        eprintln!("error: a checker or an interactor failed; see JE above");
        ExitCode::from(2)
    } else if reports.iter().all(ProblemReport::all_accepted) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Builds `problems` (or takes their programs as `programs` says) and judges every sample,
/// printing each problem's header, each case as it finishes, its summary, and a total over
/// several problems: all that `cargo xtask test` prints, and what `cargo xtask watch` prints
/// at each run. Errors are the tool's own (a failed build, unreadable samples).
pub fn judge_problems(
    problems: &[Problem],
    programs: &ProgramArgs,
    judging: &JudgeArgs,
) -> Result<Vec<ProblemReport>> {
    let style = Style::new(judging.color);
    let executables = programs.executables(problems, false)?;
    let mut reports: Vec<ProblemReport> = Vec::new();
    for (problem, exe) in problems.iter().zip(&executables) {
        let options = JudgeOptions {
            checker: exe.checker.clone(),
            interactor: exe.interactor.clone(),
            output_cap: Some(judging.output_cap),
            stack_linked: programs.links_stack(),
        };
        let head = judge::start_report(problem, &options)?;
        emit(&style.header(&head));
        if let Some(path) = &exe.validator {
            // The samples are legal inputs: a refusal shows the validator wrong (exit 2).
            let validator = Validator::new(path, validate::helper_time(head.limits.time));
            let checked = validate::check_samples(problem, &validator)?;
            emit(&format!(
                "  {checked} sample{} the constraints, says {}\n",
                if checked == 1 { " meets" } else { "s meet" },
                validator.name()
            ));
        }
        let solver = if judging.checked {
            let checked = programs.checked_solver(problem)?.context(
                "--checked judges cargo's build of the solution, not --prebuilt, --command \
                     or --bundled",
            )?;
            emit("  judging the checked build (overflow checks and debug assertions on)\n");
            checked
        } else {
            programs.solver(problem, exe)?
        };
        if programs.command.is_some() {
            emit(&format!("  judging `{solver}`\n"));
        }
        let mut rerun = if judging.checked || judging.no_checked_rerun {
            CheckedRerun::Off
        } else {
            CheckedRerun::NotBuilt
        };
        let report = judge::run_samples_each(problem, &solver, &options, |judged, case| {
            rerun.add_hint(programs, problem, judged, case)?;
            emit(&style.case(&head, case));
            Ok(())
        })?;
        // Before the summary, which stays a run's last line (what the editor's watch task
        // reads as the end of a run).
        let debuggable = programs.command.is_none() && programs.prebuilt.is_none();
        emit(&failed_cases(problem, &report, debuggable));
        emit(&style.summary(&report));
        reports.push(report);
    }
    if reports.len() > 1 {
        emit(&style.total(&reports));
    }
    Ok(reports)
}

/// The checked build of one problem's solution, for judging its WA and RE cases again: built
/// at the first such case (so an AC run starts no second build), then reused.
#[derive(Debug)]
pub enum CheckedRerun {
    /// No rerun: `--no-checked-rerun`, `--checked`, or nothing to build (`--prebuilt`,
    /// `--command`, `--bundled`), or its build failed (said once).
    Off,
    /// Not built yet.
    NotBuilt,
    /// Built: the solver.
    Built(Program),
}

impl CheckedRerun {
    /// When `case` is WA or RE, judges it again in the checked build (building it first) and
    /// adds what that shows to its hints. A checked build that cannot be built is said in the
    /// case's report once, and no case is judged again after it.
    pub fn add_hint(
        &mut self,
        programs: &ProgramArgs,
        problem: &Problem,
        judged: &Judged<'_>,
        case: &mut CaseReport,
    ) -> Result<()> {
        if matches!(self, CheckedRerun::Off) || !judge::worth_checking(case) {
            return Ok(());
        }
        if let CheckedRerun::NotBuilt = self {
            *self = match programs.checked_solver(problem) {
                Ok(Some(solver)) => CheckedRerun::Built(solver),
                Ok(None) => CheckedRerun::Off,
                Err(err) => {
                    let why = format!("{err:#}")
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    case.hints.push(Hint::CheckedBuildFailed(why));
                    CheckedRerun::Off
                }
            };
        }
        if let CheckedRerun::Built(solver) = self {
            let workspace = xtask::workspace::build::workspace_manifest(&problem.dir)?;
            let workspace = workspace.parent().unwrap_or(&problem.dir);
            if let Some(run) = judge::check_again(judged, case, solver)? {
                case.hints
                    .push(Hint::Checked(run.shown_from(workspace, &problem.dir)));
            }
        }
        Ok(())
    }
}

/// A line for each case of `report` that is not AC, before the problem's summary: where to look
/// (the panic's place, else the sample's input), the verdict, and the command that opens the
/// case in the debugger, where that debugs what was judged (`debuggable`: cargo's build of the
/// solution, or its bundle, not a `--command` or `--prebuilt` program) and the solution is what
/// failed (not a JE, the checker's or the interactor's failure). Paths are from the workspace
/// root (absolute outside one), the form the editor's tasks match as problems
/// (`xtask::workspace::editor`).
pub fn failed_cases(problem: &Problem, report: &ProblemReport, debuggable: bool) -> String {
    let root = members::root_of(&problem.dir);
    let shown = |path: &std::path::Path| from_root(root.as_deref(), path);
    let named = problem
        .name
        .strip_prefix("boj-")
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .filter(|_| root.is_some())
        // A name finds the folder of that name first: a copy whose package kept its original's
        // name (`problems/boj-1001` of `boj-1000`) is named by its path, not the original's.
        .filter(|_| problem.dir.file_name() == Some(std::ffi::OsStr::new(&problem.name)))
        .map(|_| problem.name.clone())
        .unwrap_or_else(|| {
            // Outside a workspace's problems/: its path, from here when it is below.
            let here = std::env::current_dir().unwrap_or_default();
            let below = problem.dir.strip_prefix(&here).ok();
            below.map_or_else(|| shown(&problem.dir), |p| p.to_string_lossy().into_owned())
        });
    let mut lines = String::new();
    for case in report
        .cases
        .iter()
        .filter(|case| case.verdict != Verdict::Ac)
    {
        let debug = super::replay::debug_command(&named, &case.name);
        let (at, why) = match panic_of(problem, case) {
            Some((place, message)) => (place, format!(" ({message})")),
            None => (
                shown(
                    &problem
                        .dir
                        .join("samples")
                        .join(format!("{}.in", case.name)),
                ),
                String::new(),
            ),
        };
        // `debug` runs a solution on a file, which an interactive one cannot be run on.
        let interactive = matches!(
            problem.judge,
            xtask::workspace::problem::Judge::Interactive(_)
        );
        let step = if interactive || !debuggable || case.verdict == Verdict::Je {
            String::new()
        } else {
            format!("; step through it: {debug}")
        };
        lines.push_str(&format!(
            "  {at}: sample {} {}{why}{step}\n",
            case.name, case.verdict
        ));
    }
    lines
}

/// `path` from the workspace `root` when it lies there, else as it is, with `/` between its
/// parts: the form the editor's tasks match as problems.
fn from_root(root: Option<&std::path::Path>, path: &std::path::Path) -> String {
    let relative = root.and_then(|root| path.strip_prefix(root).ok());
    xtask::workspace::slashed(relative.unwrap_or(path))
}

/// Where a case panicked, as `PATH:LINE:COLUMN` from the workspace root, and its message: from
/// its own run's stderr, or the checked build's.
fn panic_of(problem: &Problem, case: &CaseReport) -> Option<(String, String)> {
    let from_run = match &case.detail {
        Detail::Crash {
            stderr_tail: stderr,
            ..
        }
        | Detail::Interaction {
            solution_stderr: stderr,
            ..
        } => xtask::judge::hint::panic_in(stderr)
            .map(|run| (run, build::workspace_manifest(&problem.dir).ok())),
        _ => None,
    };
    let from_checked = case.hints.iter().find_map(|hint| match hint {
        Hint::Checked(run) => Some((run.clone(), None)),
        _ => None,
    });
    let (CheckedRun::Panicked { message, place }, compiled_in) = from_run.or(from_checked)?;
    // rustc names a file from the workspace it compiled in; the checked hint from the problem.
    let place = place?;
    let mut parts = place.rsplitn(3, ':');
    let (column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
    let base = compiled_in
        .as_deref()
        .and_then(std::path::Path::parent)
        .unwrap_or(&problem.dir);
    let path = from_root(members::root_of(&problem.dir).as_deref(), &base.join(file));
    let message = message.lines().next().unwrap_or_default().to_string();
    Some((format!("{path}:{line}:{column}"), message))
}
