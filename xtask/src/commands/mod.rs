//! The subcommands, one module each: arguments (clap) and printing over the library's parts.

/// `println!` that a closed stdout (`cargo xtask new 1000 | head -1`) does not turn into a panic:
/// the line goes through [`xtask::report::emit`], which drops what cannot be written.
macro_rules! say {
    ($($arg:tt)*) => {
        xtask::report::emit(&format!("{}\n", format_args!($($arg)*)))
    };
}

pub mod archive;
pub mod bundle;
pub mod debug;
pub mod found;
pub mod hack;
pub mod listen;
pub mod new;
pub mod replay;
pub mod scale;
pub mod stress;
pub mod submit;
pub mod test;
pub mod watch;

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use xtask::bundle::{check, wrote_line};
use xtask::hunt::coverage::{self, Coverage};
use xtask::hunt::Engine;
use xtask::report::emit;
use xtask::run::command_line::Rules;
use xtask::run::Program;
use xtask::workspace::build::{self, BuildOptions, Executables};
use xtask::workspace::problem::Problem;

/// Brings the editor's files of the workspace at `root` (`.vscode/launch.json` and
/// `tasks.json`) up to date with its open problems and their samples, making them or not as
/// `missing` says. A failure (a file that is
/// not JSON with comments, say) is said on stderr and changes nothing: the command's own work
/// is done.
pub fn keep_editor_files(root: &std::path::Path, missing: xtask::workspace::editor::Missing) {
    if let Err(err) = xtask::workspace::editor::sync(root, missing) {
        eprintln!("warning: {err:#}");
    }
}

/// Where the programs judged come from, shared by `test`, `stress` and `scale`: cargo's build of the
/// problem (the default), a folder of prebuilt executables, a command of any language, or the
/// problem's one-file bundle.
#[derive(clap::Args, Debug)]
pub struct ProgramArgs {
    /// Take every executable of the problem (`boj-ID`, and `boj-ID-checker`, `-interactor`,
    /// `-gen`, `-brute` where it has them) from DIR, as NAME or NAME.exe, instead of building.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["command", "bundled"])]
    pub prebuilt: Option<PathBuf>,
    /// Judge this command as the solution, e.g. "python3 sol.py" (split into words as this
    /// system's shell would: POSIX rules, or Windows' where `\` is a path separator; no shell
    /// runs it). Cargo builds only the helpers the judge needs (none for exact and float).
    #[arg(long, value_name = "CMD", conflicts_with = "bundled", value_parser = parse_command)]
    pub command: Option<CommandLine>,
    /// Judge the problem's one-file bundle (`cargo xtask bundle`), compiled alone with `rustc
    /// --edition 2021 -O`, instead of cargo's build of the solver.
    #[arg(long)]
    pub bundled: bool,
    /// With --bundled: also compile the bundle with this rustc (an older one, like Debian's
    /// 1.63 at /usr/bin/rustc); repeatable.
    #[arg(long, value_name = "PATH", requires = "bundled")]
    pub rustc: Vec<PathBuf>,
}

impl ProgramArgs {
    /// The executables of `problems`: from `--prebuilt DIR`, or built by cargo in the judge
    /// profile (with `--command`, only the helpers the judge needs, so an exact or float problem
    /// runs no cargo at all). `for_stress` asks for the generator and the reference too.
    pub fn executables(&self, problems: &[Problem], for_stress: bool) -> Result<Vec<Executables>> {
        if let Some(command) = &self.command {
            if problems.len() != 1 {
                bail!(
                    "--command judges one problem: name it (`cargo xtask test ID --command ...`)"
                );
            }
            let options = BuildOptions::default();
            return build::helpers(problems, &command.program.path, for_stress, &options);
        }
        match &self.prebuilt {
            Some(dir) => build::prebuilt(problems, dir, for_stress),
            None => build::build(problems, &BuildOptions::default()),
        }
    }

    /// The solution to judge: the command, or the bundle (written and compiled alone, and with
    /// each older rustc, saying so), or else `built`'s solver.
    pub fn solver(&self, problem: &Problem, built: &Executables) -> Result<Program> {
        if let Some(command) = &self.command {
            return Ok(command.program.clone());
        }
        if !self.bundled {
            return Ok(Program::new(&built.solver));
        }
        let compiled = check::compiled_bundle(problem, &self.rustc)?;
        let notes: String = compiled.notes.iter().map(|n| format!("{n}\n")).collect();
        emit(&format!(
            "{}\n{notes}{}\n",
            wrote_line(problem, &compiled.path, compiled.bytes),
            compiled.compiled
        ));
        Ok(Program::new(compiled.exe))
    }

    /// Whether the solver is linked by the xtask with the problem's stack (cargo's build, the
    /// bundle), where the system fixes the stack when a program is linked
    /// (`build::StackAt`); a `--prebuilt` or `--command` program keeps its own.
    pub fn links_stack(&self) -> bool {
        self.prebuilt.is_none() && self.command.is_none()
    }

    /// The solver of `problem` in the checked build (`BuildOptions::checked`: overflow checks
    /// and debug assertions on, the judge's opt-level), built by the same cargo path as the
    /// judge build; `None` where the solution is not cargo's build of it (`--prebuilt`,
    /// `--command`, `--bundled`), so there is no checked build of it to make.
    pub fn checked_solver(&self, problem: &Problem) -> Result<Option<Program>> {
        if self.prebuilt.is_some() || self.command.is_some() || self.bundled {
            return Ok(None);
        }
        let built = build::build(std::slice::from_ref(problem), &BuildOptions::checked())?;
        Ok(built.into_iter().next().map(|e| Program::new(e.solver)))
    }

    /// The instrumented build of the solution, for coverage (`hunt::coverage`), readied for
    /// `workers` runners; or why there is none: the solution is not cargo's build of it
    /// (`--prebuilt`, `--command`, `--bundled`), or the build failed (its reason).
    pub fn coverage(
        &self,
        problem: &Problem,
        engine: &Engine,
        workers: usize,
    ) -> std::result::Result<Coverage, String> {
        if self.prebuilt.is_some() || self.command.is_some() || self.bundled {
            return Err(
                "the solution is not cargo's build of it, so there is no instrumented \
                        build to measure"
                    .to_string(),
            );
        }
        let limits = engine.limits();
        // The judge build's executables are in TARGET/judge/: the target folder, without asking
        // cargo again.
        let target = engine.solver().path.parent().and_then(Path::parent);
        let built = coverage::build(problem, target).map_err(|err| format!("{err:#}"))?;
        Coverage::new(
            built,
            workers,
            engine.helper_time(),
            (limits.memory * 4).saturating_add(64 << 20),
            Some(limits.stack),
        )
        .map_err(|err| format!("{err:#}"))
    }

    /// What the summary's "repeat it" command line adds for these arguments.
    pub fn repeat_flags(&self) -> String {
        let mut flags = String::new();
        if let Some(dir) = &self.prebuilt {
            flags.push_str(&format!(" --prebuilt {}", dir.display()));
        }
        if let Some(command) = &self.command {
            let quoted = shlex::try_quote(&command.line).unwrap_or_default();
            flags.push_str(&format!(" --command {quoted}"));
        }
        if self.bundled {
            flags.push_str(" --bundled");
        }
        for rustc in &self.rustc {
            let shown = rustc.to_string_lossy();
            let quoted = shlex::try_quote(&shown).unwrap_or_default();
            flags.push_str(&format!(" --rustc {quoted}"));
        }
        flags
    }
}

/// `--command CMD`: the line as typed, and the program it names.
#[derive(Debug, Clone)]
pub struct CommandLine {
    /// The line as the user typed it.
    pub line: String,
    /// Its words: the program and its arguments.
    pub program: Program,
}

fn parse_command(line: &str) -> Result<CommandLine, String> {
    Ok(CommandLine {
        line: line.to_string(),
        program: Program::from_command_line(line, Rules::here())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repeat_command_keeps_every_older_rustc() {
        let args = ProgramArgs {
            prebuilt: None,
            command: None,
            bundled: true,
            rustc: vec![
                PathBuf::from("/usr/bin/rustc"),
                PathBuf::from("/opt/my rustc"),
            ],
        };
        assert_eq!(
            args.repeat_flags(),
            " --bundled --rustc /usr/bin/rustc --rustc '/opt/my rustc'"
        );
    }
}
