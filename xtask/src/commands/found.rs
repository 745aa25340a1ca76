//! A failing case that stress or hack found, as both show it: its input and verdict (with the
//! checked build's panic where it has one), saved as a sample with the reference's answer (or
//! kept aside where nothing answered it), and what the instrumented build says no case reached.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use xtask::hunt::coverage::lines::Reached;
use xtask::hunt::engine::shown_path;
use xtask::hunt::{Engine, Tried};
use xtask::judge::{self, Detail, Hint, JudgeOptions};
use xtask::report::{ColorChoice, Style};
use xtask::workspace::problem::{Judge, Problem};

use super::ProgramArgs;

/// What stress and hack share of their arguments: the checked rerun, where the programs come
/// from, the colour of the report.
#[derive(clap::Args, Debug)]
pub struct HuntArgs {
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

/// The cases or inputs run side by side: as asked, else one a core.
pub fn jobs(asked: Option<u64>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
}

/// Judges `tried` again in the checked build (overflow checks and debug assertions on) where
/// it is WA or RE and the solution is cargo's build, and adds the panic it names as a hint.
pub fn add_checked_hint(
    programs: &ProgramArgs,
    problem: &Problem,
    engine: &Engine,
    tried: &mut Tried,
) -> Result<()> {
    if !judge::worth_checking(&tried.report) {
        return Ok(());
    }
    let Some(checked) = programs.checked_solver(problem)? else {
        return Ok(());
    };
    if let Some(run) = engine.check_again(tried, &checked)? {
        let workspace = xtask::workspace::build::workspace_manifest(&problem.dir)?;
        let workspace = workspace.parent().unwrap_or(&problem.dir);
        let run = run.shown_from(workspace, &problem.dir);
        tried.report.hints.push(Hint::Checked(run));
    }
    Ok(())
}

/// The failing input and its verdict, as a case line of `cargo xtask test` shows it (and the
/// output, run again, where a checker judged it).
pub fn show_case(
    engine: &Engine,
    problem: &Problem,
    tried: &Tried,
    style: &Style,
    stack_linked: bool,
) -> Result<String> {
    let options = JudgeOptions {
        stack_linked,
        ..JudgeOptions::default()
    };
    let mut report = judge::start_report(problem, &options)?;
    report.sample_names = vec![tried.report.name.clone()];
    let mut text = format!(
        "{}{}",
        show_input(&tried.input),
        style.case(&report, &tried.report)
    );
    if let Detail::Checker { .. } = tried.report.detail {
        let output = engine.output_again(tried, 64 * 1024)?;
        text.push_str("    actual output (run again):\n");
        for line in String::from_utf8_lossy(&output).lines().take(20) {
            text.push_str(&format!("    | {}\n", cut(line, 160)));
        }
    }
    Ok(text)
}

/// Saves the failing case `tried` as the sample `name` (its input and the reference's answer),
/// or, where nothing answers it, its input into `samples/unanswered/`; the lines that say so:
/// how `cargo xtask test` replays it, and the `cargo xtask debug` command that steps through it.
/// A case saved before under `name` with another input (an earlier run of the seed, which
/// failed on another input) is kept: the new one takes `NAME-2`, `NAME-3`, ...
pub fn save(
    engine: &Engine,
    problem: &Problem,
    problem_arg: &str,
    name: &str,
    tried: &Tried,
) -> Result<String> {
    if !engine.judges_output() {
        let folder = problem.dir.join("samples").join("unanswered");
        fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        let name = &free_name(&folder, name, &tried.input);
        let path = folder.join(format!("{name}.in"));
        write(&path, &tried.input)?;
        return Ok(format!(
            "  saved {} (no reference answered it, so it is not a sample: give it its answer as \
             samples/{name}.out and move it to samples/ for `cargo xtask test` to judge it)\n",
            shown_path(&path),
        ));
    }
    let folder = problem.dir.join("samples");
    let name = &free_name(&folder, name, &tried.input);
    let path = folder.join(format!("{name}.in"));
    write(&path, &tried.input)?;
    write(&folder.join(format!("{name}.out")), &tried.answer)?;
    Ok(format!(
        "  saved {} and .out ({}): `cargo xtask test {problem_arg}` replays it\n  step through \
         it in the debugger: {}\n",
        shown_path(&path),
        match (engine.has_reference(), engine.judge()) {
            (true, _) => "the reference's answer",
            (false, Judge::Interactive(_)) => "empty: the interactor judges",
            (false, _) => "empty: no reference; the checker judges",
        },
        super::replay::debug_command(problem_arg, name),
    ))
}

/// `name`, where `folder` holds no `name.in` or one with this very `input`; else the first of
/// `name-2`, `name-3`, ... that is so, so that a case saved before is never overwritten.
fn free_name(folder: &Path, name: &str, input: &[u8]) -> String {
    let free = |candidate: &str| match fs::read(folder.join(format!("{candidate}.in"))) {
        Ok(saved) => saved == input,
        Err(_) => true,
    };
    if free(name) {
        return name.to_string();
    }
    (2..)
        .map(|n| format!("{name}-{n}"))
        .find(|candidate| free(candidate))
        .expect("a free name")
}

/// How many ranges of lines no case reached are shown; the rest are counted.
const RANGES_SHOWN: usize = 5;

/// What no case reached of the solution's own source: a line for each of the first few ranges
/// (`src/main.rs:33    writeln!(out, "{}", 0)`), and a count of the rest; or that every line
/// was reached.
pub fn unreached_lines(reached: &Reached, cases: &str) -> String {
    if reached.total == 0 {
        return String::new();
    }
    let percent = reached.reached * 100 / reached.total;
    if reached.unreached.is_empty() {
        return format!(
            "  coverage: {cases} reached every line of src/ with code ({} lines)\n",
            reached.total
        );
    }
    let mut text = format!(
        "  coverage: {cases} reached {} of {} lines of src/ ({percent}%); never reached:\n",
        reached.reached, reached.total
    );
    let places: Vec<String> = reached
        .unreached
        .iter()
        .map(|range| {
            let file = xtask::workspace::slashed(&range.file);
            if range.first == range.last {
                format!("{file}:{}", range.first)
            } else {
                format!("{file}:{}-{}", range.first, range.last)
            }
        })
        .collect();
    let width = places
        .iter()
        .take(RANGES_SHOWN)
        .map(String::len)
        .max()
        .unwrap_or(0);
    for (place, range) in places.iter().zip(&reached.unreached).take(RANGES_SHOWN) {
        text.push_str(&format!("    {place:width$}    {}\n", cut(&range.text, 80)));
    }
    let rest = &reached.unreached[RANGES_SHOWN.min(reached.unreached.len())..];
    if !rest.is_empty() {
        let lines: usize = rest.iter().map(|r| r.lines).sum();
        text.push_str(&format!(
            "    and {lines} more line{} in {} more range{}\n",
            if lines == 1 { "" } else { "s" },
            rest.len(),
            if rest.len() == 1 { "" } else { "s" }
        ));
    }
    text.push_str(
        "  a line no case reaches is one the generator may never write an input for: make it \
         write inputs that reach it, or hunt for them with `cargo xtask hack`\n",
    );
    text
}

/// `n` lines, in words.
pub fn lines(n: usize) -> String {
    format!("{n} line{}", if n == 1 { "" } else { "s" })
}

/// `n` tokens, in words.
pub fn tokens(n: usize) -> String {
    format!("{n} token{}", if n == 1 { "" } else { "s" })
}

/// The tokens of `input` (whitespace-separated).
pub fn token_count(input: &[u8]) -> usize {
    String::from_utf8_lossy(input).split_whitespace().count()
}

/// `line` up to `max` characters, and how many bytes were left out after them.
pub fn cut(line: &str, max: usize) -> String {
    match line.char_indices().nth(max) {
        Some((at, _)) => format!("{} … (+{} bytes)", &line[..at], line.len() - at),
        None => line.to_string(),
    }
}

/// The failing input, as the report shows it: its first lines, each cut at 160 characters (the
/// largest inputs have lines of megabytes).
pub fn show_input(input: &[u8]) -> String {
    const SHOWN: usize = 20;
    const WIDTH: usize = 160;
    let text = String::from_utf8_lossy(input);
    let all: Vec<&str> = text.lines().collect();
    let mut out = format!(
        "    input ({}, {}):\n",
        lines(all.len()),
        tokens(token_count(input))
    );
    for line in all.iter().take(SHOWN) {
        out.push_str(&format!("    | {}\n", cut(line, WIDTH)));
    }
    if all.len() > SHOWN {
        out.push_str(&format!("    | … {} more lines\n", all.len() - SHOWN));
    }
    out
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xtask::hunt::coverage::lines::Range;

    fn range(file: &str, first: u32, last: u32, lines: usize, text: &str) -> Range {
        Range {
            file: file.into(),
            first,
            last,
            lines,
            text: text.to_string(),
        }
    }

    #[test]
    fn unreached_lines_show_a_few_ranges_and_count_the_rest() {
        let mut unreached = vec![range("src/main.rs", 33, 33, 1, "writeln!(out, \"{}\", 0)")];
        unreached.extend((0..6).map(|i| range("src/main.rs", 40 + 10 * i, 41 + 10 * i, 2, "x")));
        let reached = Reached {
            total: 60,
            reached: 47,
            unreached,
        };
        let text = unreached_lines(&reached, "1000 cases");
        assert!(
            text.starts_with("  coverage: 1000 cases reached 47 of 60 lines of src/ (78%)"),
            "{text}"
        );
        assert!(
            text.contains("    src/main.rs:33       writeln!(out, \"{}\", 0)\n"),
            "{text}"
        );
        assert!(text.contains("    src/main.rs:40-41    x\n"), "{text}");
        assert!(text.contains("and 4 more lines in 2 more ranges"), "{text}");
        let all = Reached {
            total: 12,
            reached: 12,
            unreached: Vec::new(),
        };
        assert_eq!(
            unreached_lines(&all, "20 cases"),
            "  coverage: 20 cases reached every line of src/ with code (12 lines)\n"
        );
    }
}
