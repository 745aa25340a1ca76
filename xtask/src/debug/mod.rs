//! `cargo xtask debug`'s engine: the system's debugger found (rust-gdb where gdb is installed,
//! rust-lldb where lldb is), the command that opens it on a solution with a case as standard
//! input and a breakpoint on a panic, and the batch run that reports where the solution stopped
//! (its panic, its own frames with their arguments and locals, through Rust's pretty-printers).
//!
//! The debugger is driven through its own Python API by a script of ours (`gdb_batch.py`,
//! `lldb_batch.py`), which prints one JSON record a line, marked, on the debugger's stdout; the
//! solution's own stdout and stderr go to files, so nothing of its output is read as ours.
//! Nothing here prints: the command (`commands/debug.rs`) renders what [`Stopped`] holds.

use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use crate::judge::hint::{self, CheckedRun};
use crate::run::{Exit, Limits, Measure, Program, Setup};
use crate::scratch::Scratch;

/// The mark that starts each line of our script's report on the debugger's stdout.
const MARK: &str = "@xtask-debug ";

/// The batch script run inside gdb (`python exec(...)`).
const GDB_SCRIPT: &str = include_str!("gdb_batch.py");

/// The batch script run inside lldb (`script exec(...)`). lldb evaluates the text between two
/// backquotes in any command line as an expression, so the script holds none (a unit test
/// checks).
const LLDB_SCRIPT: &str = include_str!("lldb_batch.py");

/// How many of a collection's elements a value shows before `...`.
pub const ELEMENTS: u32 = 32;

/// How many characters a value's text keeps, its end cut to `…`.
pub const VALUE_WIDTH: u32 = 200;

/// How many of the solution's own frames a batch run shows, innermost first.
pub const FRAMES: u32 = 8;

/// Which debugger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// GDB, through the toolchain's rust-gdb.
    Gdb,
    /// LLDB, through the toolchain's rust-lldb.
    Lldb,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Gdb => "gdb",
            Kind::Lldb => "lldb",
        })
    }
}

/// A debugger found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Debugger {
    /// gdb or lldb.
    pub kind: Kind,
    /// The toolchain's wrapper that starts it with Rust's pretty-printers loaded (`rust-gdb`,
    /// `rust-lldb`).
    pub wrapper: PathBuf,
}

/// The order debuggers are tried in where none is asked for: lldb first on macOS, whose own
/// debugger it is (Apple ships no gdb, and a gdb there must be code-signed to debug), gdb first
/// elsewhere.
pub fn preference() -> [Kind; 2] {
    if cfg!(target_os = "macos") {
        [Kind::Lldb, Kind::Gdb]
    } else {
        [Kind::Gdb, Kind::Lldb]
    }
}

/// Finds the debugger to use: `wanted`, or the first of [`preference`] installed (its program,
/// `gdb` or `lldb`, on `PATH`), with the toolchain's wrapper for it (`rust-gdb`, `rust-lldb`:
/// in the sysroot of the `rustc` that cargo runs, else on `PATH`). The error says what to
/// install, for this system.
pub fn find(wanted: Option<Kind>) -> Result<Debugger> {
    if cfg!(windows) {
        bail!("{}", windows_advice());
    }
    let kinds: Vec<Kind> = match wanted {
        Some(kind) => vec![kind],
        None => preference().to_vec(),
    };
    let Some(kind) = kinds
        .iter()
        .copied()
        .find(|kind| on_path(&kind.to_string()).is_some())
    else {
        bail!("{}", install_advice(wanted));
    };
    let wrapper_name = format!("rust-{kind}");
    let in_sysroot = sysroot().map(|root| root.join("bin").join(&wrapper_name));
    let wrapper = in_sysroot
        .filter(|path| path.is_file())
        .or_else(|| on_path(&wrapper_name))
        .with_context(|| {
            format!(
                "{kind} is installed, but not {wrapper_name}, the toolchain's script that starts \
                 it with Rust's pretty-printers: install the toolchain with rustup (it ships \
                 {wrapper_name} beside rustc), or your distribution's {wrapper_name} package"
            )
        })?;
    Ok(Debugger { kind, wrapper })
}

/// What to install where no debugger was found (or not the one asked for).
fn install_advice(wanted: Option<Kind>) -> String {
    let what = match wanted {
        Some(kind) => format!("no {kind} on PATH"),
        None => "no debugger on PATH (neither gdb nor lldb)".to_string(),
    };
    let how = if cfg!(target_os = "macos") {
        "install Xcode's command line tools (`xcode-select --install`), which bring lldb"
    } else if cfg!(target_os = "linux") {
        "install gdb (`sudo apt-get install gdb` on Debian and Ubuntu, `sudo dnf install gdb` on \
         Fedora, `sudo pacman -S gdb` on Arch), or lldb"
    } else {
        "install gdb or lldb from the system's packages"
    };
    format!(
        "{what}: {how}; the toolchain's rust-gdb and rust-lldb load Rust's pretty-printers into \
         them"
    )
}

/// Why `debug` stops on Windows, and what to use there. What a toolchain ships is decided by
/// rust-lang/rust's `src/bootstrap` (`dist.rs`, `DebuggerScripts`): on a `*-windows-msvc` host
/// (rustup's default on Windows) only `bin/rust-windbg.cmd`, which starts WinDbg with std's
/// Natvis files (`lib/rustlib/etc/*.natvis`), and no rust-gdb or rust-lldb; on every other host,
/// `*-windows-gnu` included, `rust-gdb`, `rust-gdbgui` and `rust-lldb`, which are POSIX shell
/// scripts (`src/etc/rust-gdb`: `#!/bin/sh`) that Windows cannot run without a shell of its own
/// (MSYS2's). WinDbg and cdb take the program and its arguments on their command line, and we
/// found no documented way there to give it a file as standard input (what `run < FILE` and
/// lldb's `target.input-path` do), so `debug` does not drive them. CodeLLDB debugs both
/// toolchains' programs on Windows (its README, "Features": Windows, x86) and gives a program a
/// file as standard input (`stdio`, its manual's "Stdio Redirection"): the workspace's
/// `.vscode/launch.json` holds a configuration per sample for it. Unproven here: nothing in
/// this project runs Windows.
pub fn windows_advice() -> String {
    "`cargo xtask debug` drives gdb or lldb through the toolchain's rust-gdb and rust-lldb, \
     which rustup ships on Windows only for the windows-gnu toolchain, as shell scripts that \
     Windows cannot run: on Windows, debug a case in VS Code with the CodeLLDB extension \
     (vadimcn.vscode-lldb), whose configurations, one per sample with the sample as standard \
     input, are in this workspace's .vscode/launch.json (Run and Debug, then `PROBLEM: sample \
     CASE`); or, on the MSVC toolchain, open the program in WinDbg with the toolchain's \
     rust-windbg.cmd and type the case's input"
        .to_string()
}

/// `name` as a program on `PATH` (with `.exe` on Windows): the first such file.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let file = if cfg!(windows) {
        format!("{name}.exe")
    } else {
        name.to_string()
    };
    std::env::split_paths(&path)
        .map(|dir| dir.join(&file))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// The sysroot of the `rustc` cargo runs (`RUSTC`, else `rustc`): where rustup puts rust-gdb
/// and rust-lldb, beside it in `bin/`.
fn sysroot() -> Option<PathBuf> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| PathBuf::from(text.trim()))
}

/// One case to debug.
#[derive(Debug, Clone)]
pub struct Case {
    /// The solution, built with debug info ([`crate::workspace::build::BuildOptions::debugging`]).
    pub exe: PathBuf,
    /// Its standard input (LF line ends: [`fed_input`]).
    pub input: PathBuf,
    /// The folder whose sources are the solution's own (the workspace, or the problem's folder
    /// when it is a workspace of its own): frames in other files (std, libraries) are not shown.
    pub own: PathBuf,
    /// How long a batch run may go before it is stopped where it is.
    pub time: Duration,
    /// The stack the solution's main thread may grow to, set when it starts (Linux; the build
    /// links it in elsewhere): `None` keeps the debugger's.
    pub stack: Option<u64>,
}

/// The case's input as the judge feeds it: the sample itself, or, when it has CRLF line ends,
/// an LF copy written to `folder` (the debugging build's target folder, so the copy outlives
/// this process, which the debugger replaces).
pub fn fed_input(sample: &Path, folder: &Path) -> Result<PathBuf> {
    let bytes = fs::read(sample).with_context(|| format!("cannot read {}", sample.display()))?;
    if !bytes.windows(2).any(|pair| pair == b"\r\n") {
        return Ok(sample.to_path_buf());
    }
    let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
    let copy_dir = folder.join("xtask-debug-input");
    fs::create_dir_all(&copy_dir)
        .with_context(|| format!("cannot create {}", copy_dir.display()))?;
    let copy = copy_dir.join(sample.file_name().unwrap_or_default());
    fs::write(&copy, text).with_context(|| format!("cannot write {}", copy.display()))?;
    Ok(copy)
}

impl Debugger {
    /// The command that opens the debugger on `case`, at its prompt, nothing started: a
    /// breakpoint on std's `rust_panic` (called once the panic's message is printed, before the
    /// stack unwinds), and the case as standard input for `run`.
    pub fn interactive(&self, case: &Case) -> Command {
        let mut command = Command::new(&self.wrapper);
        command.args(self.interactive_args(case));
        command
    }

    /// The arguments of [`Debugger::interactive`], after the wrapper.
    pub fn interactive_args(&self, case: &Case) -> Vec<OsString> {
        let input = case.input.to_string_lossy();
        let mut args: Vec<OsString> = Vec::new();
        let mut add = |words: &[&str]| args.extend(words.iter().map(OsString::from));
        match self.kind {
            Kind::Gdb => {
                let quoted =
                    shlex::try_quote(&input).map_or_else(|_| input.to_string(), |q| q.into_owned());
                add(&["-q"]);
                // No download of debug info from the network, and no question about it.
                add(&["-iex", "set debuginfod enabled off"]);
                add(&["-ex", "set confirm off"]);
                add(&["-ex", "break rust_panic"]);
                // gdb starts the program through the shell, which reads the redirection.
                add(&["-ex", &format!("set args < {quoted}")]);
            }
            Kind::Lldb => {
                // `quit` ends it without asking, as gdb's `set confirm off` does.
                add(&["-o", "settings set auto-confirm true"]);
                add(&[
                    "-o",
                    &format!("settings set target.input-path {}", lldb_quoted(&input)),
                ]);
                add(&["-o", "breakpoint set --name rust_panic"]);
            }
        }
        args.push(case.exe.clone().into_os_string());
        args
    }

    /// Runs `case` under the debugger to its end, its first panic, a signal, or [`Case::time`],
    /// and says where it stopped. An error is the debugger's own failure.
    pub fn batch(&self, case: &Case) -> Result<Stopped> {
        let scratch = Scratch::new("debug")?;
        let output = scratch.path().join("stdout");
        let errors = scratch.path().join("stderr");
        let request = serde_json::json!({
            "input": case.input,
            "output": output,
            "errors": errors,
            "own": case.own,
            "seconds": case.time.as_secs_f64(),
            "elements": ELEMENTS,
            "frames": FRAMES,
            "width": VALUE_WIDTH,
        });
        // A JSON string is a Python string literal: the request as text, and the script.
        let literal = |text: &str| serde_json::to_string(text).unwrap_or_default();
        let request = literal(&request.to_string());
        // Batch mode without the user's init file; then a command (`-ex`, `-o`) that runs
        // Python (`python`, `script`) twice: the request, and the script.
        let (flags, command, python, script, name): (&[&str], _, _, _, _) = match self.kind {
            Kind::Gdb => (
                &["-q", "-nx", "-batch", "-iex", "set debuginfod enabled off"],
                "-ex",
                "python",
                GDB_SCRIPT,
                "gdb_batch.py",
            ),
            Kind::Lldb => (
                &["-b", "--no-lldbinit"],
                "-o",
                "script",
                LLDB_SCRIPT,
                "lldb_batch.py",
            ),
        };
        let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
        for line in [
            format!("{python} xtask_request = {request}"),
            format!(
                "{python} exec(compile({}, '{name}', 'exec'))",
                literal(script)
            ),
        ] {
            args.extend([OsString::from(command), OsString::from(line)]);
        }
        args.push(case.exe.clone().into_os_string());
        // The script stops the solution at `time`; this bound is for the debugger itself.
        let bound = case.time + Duration::from_secs(60);
        let setup = Setup {
            measure: Measure::Nothing,
            stack: case.stack,
            memory_limit: None,
            ..Setup::default()
        };
        let ran = Program::new(&self.wrapper)
            .run(&args, None, &Limits::helper(bound, 16 << 20), &setup)
            .with_context(|| format!("cannot run {}", self.wrapper.display()))?;
        let said = String::from_utf8_lossy(&ran.stdout);
        let stderr = fs::read(&errors).unwrap_or_default();
        let stderr = String::from_utf8_lossy(&stderr).into_owned();
        let written = fs::metadata(&output).map_or(0, |m| m.len());
        match read_report(&said, stderr, written) {
            Some(stopped) => Ok(stopped),
            None => {
                let tail = String::from_utf8_lossy(&ran.stderr_tail);
                let how = match ran.exit {
                    Exit::TimedOut(_) => format!("ran past {} s", bound.as_secs()),
                    exit => exit.to_string(),
                };
                let lines: Vec<&str> = said.lines().collect();
                let last = lines[lines.len().saturating_sub(20)..].join("\n");
                bail!(
                    "{} {how} without saying where the solution stopped:\n{}{}",
                    self.wrapper.display(),
                    last,
                    if tail.trim().is_empty() {
                        String::new()
                    } else {
                        format!("\n{}", tail.trim_end())
                    }
                )
            }
        }
    }
}

/// `text` as one word of an lldb command line: in double quotes, with `\` and `"` escaped.
fn lldb_quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Where a batch run stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct Stopped {
    /// How the run ended.
    pub ending: Ending,
    /// The solution's own frames, innermost first (none when it ran to its end).
    pub frames: Vec<Frame>,
    /// How many more of its own frames there were, not shown.
    pub more_frames: u32,
    /// Whether every frame was walked (a deep recursion is walked 512 frames deep).
    pub walked_all: bool,
    /// The panic, as its message says it, when it panicked.
    pub panic: Option<CheckedRun>,
    /// What the solution wrote on stderr.
    pub stderr: String,
    /// How many bytes it wrote on stdout.
    pub stdout_bytes: u64,
}

/// How a batch run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// It ran to its end, with this exit status.
    Exited(i32),
    /// It panicked: stopped at `rust_panic`, before unwinding.
    Panicked,
    /// A signal stopped it (`SIGSEGV`: a stack overflow or a bad access; `SIGABRT`).
    Signal(String),
    /// It was still running at [`Case::time`], and was stopped there.
    StillRunning(Duration),
}

impl Stopped {
    /// Whether the run ended cleanly: ran to its end with exit status 0.
    pub fn clean(&self) -> bool {
        self.ending == Ending::Exited(0)
    }
}

/// One of the solution's own frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The function, as the debugger names it (`boj_1717::find`).
    pub function: String,
    /// Its source file, as the debug info names it (absolute).
    pub file: PathBuf,
    /// The line it is at.
    pub line: u32,
    /// Its arguments, then its locals declared above the line.
    pub values: Vec<Variable>,
}

/// A variable of a frame and its value, as the pretty-printers show it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its value; a reference shows what it points to (`&Vec(size=3) = {1, 2, 3}`).
    pub value: String,
    /// Whether it is an argument.
    pub argument: bool,
}

/// One record of the script's report.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Record {
    Ended {
        ended: String,
        code: Option<i32>,
        signal: Option<String>,
        seconds: Option<f64>,
    },
    Frame {
        frame: String,
        file: PathBuf,
        line: u32,
        values: Vec<Variable>,
    },
    More {
        more: u32,
        walked_all: bool,
    },
}

/// What the script said (the marked lines of `said`), with the solution's stderr and the size
/// of its stdout; `None` when it never said how the run ended.
fn read_report(said: &str, stderr: String, stdout_bytes: u64) -> Option<Stopped> {
    let mut ending = None;
    let mut frames = Vec::new();
    let (mut more_frames, mut walked_all) = (0, true);
    for line in said.lines() {
        let Some(record) = line.strip_prefix(MARK) else {
            continue;
        };
        match serde_json::from_str::<Record>(record).ok()? {
            Record::Ended {
                ended,
                code,
                signal,
                seconds,
            } => {
                ending = Some(match ended.as_str() {
                    "exited" => Ending::Exited(code.unwrap_or(0)),
                    "panicked" => Ending::Panicked,
                    "interrupted" => {
                        Ending::StillRunning(Duration::from_secs_f64(seconds.unwrap_or(0.0)))
                    }
                    _ => Ending::Signal(signal.unwrap_or_else(|| "an unknown stop".into())),
                })
            }
            Record::Frame {
                frame,
                file,
                line,
                values,
            } => frames.push(Frame {
                function: frame,
                file,
                line,
                values,
            }),
            Record::More {
                more,
                walked_all: all,
            } => {
                more_frames = more;
                walked_all = all;
            }
        }
    }
    let ending = ending?;
    let panic = match ending {
        Ending::Panicked => hint::panic_in(&stderr),
        _ => None,
    };
    Some(Stopped {
        ending,
        frames,
        more_frames,
        walked_all,
        panic,
        stderr,
        stdout_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_read_from_the_marked_lines_alone() {
        let said = "Breakpoint 1, rust_panic ()\n\
            @xtask-debug {\"ended\": \"panicked\"}\n\
            @xtask-debug {\"frame\": \"a::helper\", \"file\": \"/w/src/main.rs\", \"line\": 9, \
            \"values\": [{\"name\": \"v\", \"value\": \"&Vec(size=2) = {1, 2}\", \"argument\": true}]}\n\
            noise {\"ended\": \"exited\"}\n\
            @xtask-debug {\"more\": 2, \"walked_all\": false}\n";
        let stderr = "thread 'main' panicked at src/main.rs:9:5:\n\
            index out of bounds: the len is 2 but the index is 2\n\
            note: run with `RUST_BACKTRACE=1`\n";
        let stopped = read_report(said, stderr.into(), 0).unwrap();
        assert_eq!(stopped.ending, Ending::Panicked);
        assert!(!stopped.clean());
        assert_eq!(stopped.frames.len(), 1);
        assert_eq!(stopped.frames[0].line, 9);
        assert_eq!(stopped.frames[0].values[0].value, "&Vec(size=2) = {1, 2}");
        assert_eq!((stopped.more_frames, stopped.walked_all), (2, false));
        assert_eq!(
            stopped.panic,
            Some(CheckedRun::Panicked {
                message: "index out of bounds: the len is 2 but the index is 2".into(),
                place: Some("src/main.rs:9:5".into())
            })
        );
        let clean = read_report(
            "@xtask-debug {\"ended\": \"exited\", \"code\": 0}\n",
            String::new(),
            3,
        )
        .unwrap();
        assert!(clean.clean());
        assert_eq!(
            read_report("gdb: no symbol table\n", String::new(), 0),
            None
        );
    }

    #[test]
    fn the_lldb_script_holds_no_backquote() {
        assert!(!LLDB_SCRIPT.contains('`'));
    }

    #[test]
    fn gdb_reads_the_case_through_the_shell_and_lldb_through_its_setting() {
        let case = Case {
            exe: PathBuf::from("/w/target/judge-debug/boj-1000"),
            input: PathBuf::from("/w/problems/boj-1000/samples/it's 1.in"),
            own: PathBuf::from("/w"),
            time: Duration::from_secs(10),
            stack: None,
        };
        let words = |kind| -> Vec<String> {
            Debugger {
                kind,
                wrapper: PathBuf::from("rust-x"),
            }
            .interactive_args(&case)
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect()
        };
        let gdb = words(Kind::Gdb);
        assert!(gdb.contains(&"break rust_panic".to_string()), "{gdb:?}");
        // The shell gdb starts the program with reads the path back whole.
        let redirect = gdb
            .iter()
            .find_map(|w| w.strip_prefix("set args < "))
            .unwrap();
        assert_eq!(
            shlex::split(redirect).unwrap(),
            ["/w/problems/boj-1000/samples/it's 1.in"]
        );
        assert_eq!(gdb.last().unwrap(), "/w/target/judge-debug/boj-1000");
        let lldb = words(Kind::Lldb);
        assert!(
            lldb.contains(
                &"settings set target.input-path \"/w/problems/boj-1000/samples/it's 1.in\""
                    .to_string()
            ),
            "{lldb:?}"
        );
    }
}
