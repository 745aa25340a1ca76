//! `cargo xtask stress PROBLEM [--cases N] [--seed S] [--bundled]`: generated puzzles (unique,
//! many-solution and anti-backtracking; never unsolvable, as BOJ sends none) in the problem's
//! input format, judged one by one with the same code as `cargo xtask test`, until the first
//! failure, which is saved as `samples/stress-SEED-N.in/.out` so `cargo xtask test` replays it.
//!
//! Case N of seed S is `sudoku_gen::generate(kind, S, N)` with the kinds taken in turn (unique,
//! multi, adversarial), so a seed names the same cases forever. The expected answer is the
//! core's lexicographically smallest solution (for a checker problem the checker decides, and
//! that answer is only its model answer).

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudoku_core::{solve_lexmin, Format};
use sudoku_gen::{generate, Kind, Options};
use xtask::build::{self, BuildOptions};
use xtask::judge::{self, CaseReport, Detail, JudgeOptions, Verdict};
use xtask::problem::{self, JudgeKind, Problem, Sample};
use xtask::report::{ColorChoice, Style};
use xtask::run::{self, Limits};

/// The kinds of case, taken in turn: case N is `KINDS[(N - 1) % 3]`.
const KINDS: [Kind; 3] = [Kind::Unique, Kind::Multi, Kind::Adversarial];

/// Find the input that breaks a solution: generated cases judged until the first failure.
#[derive(clap::Args, Debug)]
pub struct StressArgs {
    /// The problem: `boj-2239`, `2239` or a path to a problem folder.
    pub problem: String,
    /// How many cases to run (unique, multi and adversarial in turn).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub cases: u64,
    /// The seed [default: random; the summary prints it].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Judge the problem's one-file bundle compiled with `rustc --edition 2021 -O` instead of
    /// cargo's build.
    #[arg(long)]
    pub bundled: bool,
    /// Budget of each adversarial case's search, in millions of naive-search calls (`sudoku
    /// generate --effort`); 10 takes about 0.1 s a case and caps each measurement at 1.25
    /// million calls.
    #[arg(long, value_name = "MCALLS", default_value_t = 10)]
    pub effort: u64,
    /// Colour the report: auto = when stdout is a terminal and NO_COLOR is unset.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// Runs the subcommand: exit 0 all AC, 1 a case failed (saved), 2 the tool could not run.
pub fn run(args: &StressArgs) -> ExitCode {
    match stress(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// The slowest case so far.
#[derive(Debug, Clone, Copy)]
struct Slowest {
    case: u64,
    kind: Kind,
    time: Duration,
}

fn stress(args: &StressArgs) -> Result<ExitCode> {
    let root = problem::project_root()?;
    let problem = problem::resolve(&root, &args.problem)?;
    let format = input_format(&problem)?;
    let exe = build::build(std::slice::from_ref(&problem), &BuildOptions::default())?.remove(0);
    let solver = if args.bundled {
        crate::bundle::check::compiled_bundle(&problem)?
    } else {
        exe.solver.clone()
    };
    let options = JudgeOptions {
        checker: exe.checker.clone(),
        ..JudgeOptions::default()
    };
    let mut report = judge::start_report(&problem, &options)?;
    let limits = report.limits;
    let checker = match problem.meta.judge {
        JudgeKind::Exact => None,
        JudgeKind::Checker => Some(exe.checker.clone().context("no checker was built")?),
    };
    let seed = args.seed.unwrap_or_else(random_seed);
    let generator = Options {
        clues: None,
        effort: args.effort.saturating_mul(1_000_000),
    };
    let style = Style::new(args.color);
    let scratch = Scratch::new()?;

    emit(&format!(
        "{}  stress · seed {seed} · {} cases (unique, multi, adversarial in turn) · {} judge{} · \
         {} ms · {} MB\n",
        problem.name,
        args.cases,
        problem.meta.judge,
        if args.bundled { " · bundled" } else { "" },
        limits.time.as_millis(),
        limits.memory / (1024 * 1024),
    ));
    let bar = progress_bar(args.cases);
    let started = Instant::now();
    let block = (args.cases / 10).clamp(1, 100);
    let mut slowest: Option<Slowest> = None;
    let mut block_slowest: Option<Slowest> = None;
    let mut block_start = 1;
    let mut naive: Vec<sudoku_gen::Nodes> = Vec::new();
    for n in 1..=args.cases {
        let kind = KINDS[((n - 1) % 3) as usize];
        let puzzle = generate(kind, seed, n, &generator);
        naive.extend(puzzle.naive.map(|(nodes, _)| nodes));
        let expected = solve_lexmin(&puzzle.grid).context("a generated case has no solution")?;
        let name = format!("stress-{seed}-{n}");
        let sample = Sample {
            input: scratch.path.join(format!("{name}.in")),
            answer: scratch.path.join(format!("{name}.out")),
            name: name.clone(),
        };
        let input = format!("{}\n", puzzle.grid.display(format));
        let answer = format!("{}\n", expected.display(format));
        write(&sample.input, &input)?;
        write(&sample.answer, &answer)?;
        let case = judge::judge_case(&sample, &solver, checker.as_deref(), &limits)?;
        let _ = fs::remove_file(&sample.input);
        let _ = fs::remove_file(&sample.answer);

        let this = Slowest {
            case: n,
            kind,
            time: case.time,
        };
        for record in [&mut slowest, &mut block_slowest] {
            if record.is_none_or(|s| case.time > s.time) {
                *record = Some(this);
            }
        }
        bar.set_message(format!(
            "case {n} {kind} {} ms · slowest {} ms of {} ms",
            case.time.as_millis(),
            slowest.map_or(0, |s| s.time.as_millis()),
            limits.time.as_millis()
        ));
        bar.inc(1);

        if case.verdict != Verdict::Ac {
            bar.finish_and_clear();
            report.sample_names = vec![name.clone()];
            let mut text = style
                .case(&report, &case)
                .replace("; the next case runs", "; stress stops here");
            if let Detail::Checker { .. } = case.detail {
                text.push_str(&actual_output(&solver, &sample, &input, &limits)?);
            }
            emit(&format!("  case {n} ({kind}) failed:\n{text}"));
            if case.verdict == Verdict::Je {
                bail!("the checker failed on case {n}; nothing was saved");
            }
            let saved = save(&problem, &name, &input, &answer)?;
            emit(&format!(
                "  saved {} and .out (the expected answer): `cargo xtask test {}` replays it\n",
                saved.display(),
                args.problem
            ));
            emit(&summary(
                &problem,
                args,
                seed,
                n - 1,
                slowest,
                &limits,
                Some(&case),
            ));
            return Ok(ExitCode::from(1));
        }
        if n % block == 0 || n == args.cases {
            let s = block_slowest.take().expect("a case ran");
            emit(&format!(
                "  cases {:>w$}-{:<w$}  AC  slowest {:>5} ms of {} ms (case {}, {})\n",
                block_start,
                n,
                s.time.as_millis(),
                limits.time.as_millis(),
                s.case,
                s.kind,
                w = args.cases.to_string().len(),
            ));
            block_start = n + 1;
        }
    }
    bar.finish_and_clear();
    emit(&summary(
        &problem, args, seed, args.cases, slowest, &limits, None,
    ));
    emit(&naive_line(&mut naive, args.effort));
    emit(&format!(
        "  {:.1} s in all (generation, runs and judging)\n",
        started.elapsed().as_secs_f64()
    ));
    Ok(ExitCode::SUCCESS)
}

/// The closing lines: cases passed, the slowest, and the command that repeats the run.
fn summary(
    problem: &Problem,
    args: &StressArgs,
    seed: u64,
    passed: u64,
    slowest: Option<Slowest>,
    limits: &judge::CaseLimits,
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
            " · slowest case {} ({}) {} ms of {} ms",
            s.case,
            s.kind,
            s.time.as_millis(),
            limits.time.as_millis()
        ));
    }
    line.push_str(&format!(
        "\n  seed {seed}: cargo xtask stress {} --cases {} --seed {seed}{}\n",
        args.problem,
        args.cases,
        if args.bundled { " --bundled" } else { "" }
    ));
    line
}

/// How hard the adversarial cases were for a naive row-major backtracker.
fn naive_line(naive: &mut [sudoku_gen::Nodes], effort: u64) -> String {
    if naive.is_empty() {
        return String::new();
    }
    naive.sort_unstable();
    let show = |n: &sudoku_gen::Nodes| format!("{}{}", if n.capped { "≥" } else { "" }, n.calls);
    format!(
        "  adversarial cases: a naive row-major search takes {} to {} calls (median {}; \
         --effort {effort} to change)\n",
        show(&naive[0]),
        show(&naive[naive.len() - 1]),
        show(&naive[naive.len() / 2]),
    )
}

/// The problem's input format from `input = "rows" | "spaced"` (rows when unset).
fn input_format(problem: &Problem) -> Result<Format> {
    Ok(match problem.meta.input.as_deref() {
        None | Some("rows") => Format::Rows,
        Some("spaced") => Format::Spaced,
        Some(other) => bail!(
            "{}: input = \"{other}\" in [package.metadata.boj]; stress knows \"rows\" and \
             \"spaced\"",
            problem.manifest.display()
        ),
    })
}

/// The solver's output on a case, run again (the checker's verdict does not carry it).
fn actual_output(
    solver: &Path,
    sample: &Sample,
    input: &str,
    limits: &judge::CaseLimits,
) -> Result<String> {
    write(&sample.input, input)?;
    let no_args: [&str; 0] = [];
    let run_limits = Limits {
        time: limits.time,
        output_cap: 64 * 1024,
    };
    let outcome = run::run(solver, &no_args, Some(&sample.input), &run_limits)?;
    let stdout = String::from_utf8_lossy(&outcome.stdout);
    let mut text = String::from("    actual output (run again):\n");
    for line in stdout.lines().take(20) {
        text.push_str(&format!("    | {line}\n"));
    }
    Ok(text)
}

/// Writes the failing case into the problem's samples; returns the `.in` path.
fn save(problem: &Problem, name: &str, input: &str, answer: &str) -> Result<PathBuf> {
    let folder = problem.dir.join("samples");
    let path = folder.join(format!("{name}.in"));
    write(&path, input)?;
    write(&folder.join(format!("{name}.out")), answer)?;
    let shown = problem::project_root()
        .ok()
        .and_then(|root| path.strip_prefix(root).ok().map(Path::to_path_buf));
    Ok(shown.unwrap_or(path))
}

fn write(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
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

fn random_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    sudoku_gen::Rng::new(nanos ^ u64::from(std::process::id())).next_u64() % 1_000_000_000
}

/// Prints as the run goes; a closed stdout only stops the printing.
fn emit(text: &str) {
    let mut stdout = io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}

/// A private folder for the case being judged, removed on drop.
#[derive(Debug)]
struct Scratch {
    path: PathBuf,
}

impl Scratch {
    fn new() -> Result<Scratch> {
        let path = std::env::temp_dir().join(format!("xtask-stress-{}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Scratch { path })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}
