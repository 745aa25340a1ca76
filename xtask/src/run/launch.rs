//! The launcher: every program the judge runs is started by a fresh copy of the xtask's own
//! executable, so that its peak memory is its own.
//!
//! Linux keeps a process's peak resident set (`ru_maxrss`) across `exec`, and a forked child
//! starts with a copy of its parent's anonymous pages: a solution forked straight from the
//! runner would be charged the runner's heap (megabytes of syntax trees after bundling). So the
//! runner starts `XTASK __xtask_launch PROGRAM ARGS...`, a process image that has done nothing
//! yet (under half a megabyte of anonymous memory), which forks PROGRAM into a process group of
//! its own, waits for it and reports on file descriptor 3:
//!
//! ```text
//! pid PID                                  once PROGRAM runs (or: error MESSAGE)
//! done exit|signal N MAXRSS_KIB            when it has ended
//! ```
//!
//! The figure is then what `/usr/bin/time -f %M` reports for PROGRAM, which starts it the same
//! way. Both processes die with their parent (`PR_SET_PDEATHSIG`), so nothing outlives an
//! interrupted run.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::OnceLock;

use super::sys;

/// The first argument that makes the xtask's executable act as the launcher.
pub const LAUNCH_ARG: &str = "__xtask_launch";

/// The descriptor the launcher reports on.
const REPORT_FD: i32 = 3;

static LAUNCHER: OnceLock<PathBuf> = OnceLock::new();

/// Names the executable that starts programs (one whose `main` calls [`launch_if_asked`] first):
/// the xtask binary. Without a call, the current executable is used; tests of the library call
/// this with `env!("CARGO_BIN_EXE_xtask")`. The first call wins.
pub fn set_launcher(path: &Path) {
    let _ = LAUNCHER.set(path.to_path_buf());
}

fn launcher() -> io::Result<PathBuf> {
    if let Some(path) = LAUNCHER.get() {
        return Ok(path.clone());
    }
    std::env::current_exe()
}

/// When this process was started as the launcher (`XTASK __xtask_launch PROGRAM ARGS...`), does
/// the launcher's work and returns the exit code to end with; otherwise `None`. Call it before
/// anything else in `main`, so that the launcher holds as little memory as it can.
pub fn launch_if_asked() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != LAUNCH_ARG {
        return None;
    }
    let program = args.next()?;
    let rest: Vec<OsString> = args.collect();
    // SAFETY (in sys): fd 3 was put there by the runner for us alone.
    let mut report = match sys::take_report_fd(REPORT_FD) {
        Ok(file) => file,
        Err(_) => return Some(ExitCode::from(125)),
    };
    let code = match launch(&program, &rest, &mut report) {
        Ok(()) => 0,
        Err(err) => {
            let _ = writeln!(report, "error {}", err.to_string().replace('\n', " "));
            125
        }
    };
    Some(ExitCode::from(code))
}

/// The launcher's work: start PROGRAM in a group of its own, report its pid, wait for it, clear
/// out anything it left in its group, and report how it ended.
fn launch(program: &OsString, args: &[OsString], report: &mut File) -> io::Result<()> {
    sys::die_with_parent()?;
    let mut command = Command::new(program);
    command.args(args).process_group(0);
    sys::die_with_parent_after_fork(&mut command);
    let child = command.spawn().map_err(|err| {
        io::Error::new(
            err.kind(),
            format!("cannot run {}: {err}", Path::new(program).display()),
        )
    })?;
    let pid = child.id() as i32;
    // Let go of the pipes at once: only the program holds them now, so its readers and writers
    // see the end of them when it ends.
    sys::release_standard_streams();
    writeln!(report, "pid {pid}")?;
    report.flush()?;
    sys::wait_until_exited(pid)?;
    // It is a zombie: its group id cannot be reused yet, so this kills only what it started.
    sys::kill_group(pid);
    let reaped = sys::reap(pid)?;
    let (how, n) = match reaped.status {
        Ok(code) => ("exit", code),
        Err(signal) => ("signal", signal),
    };
    writeln!(report, "done {how} {n} {}", reaped.peak_memory / 1024)?;
    drop(child);
    Ok(())
}

/// A program started through the launcher.
#[derive(Debug)]
pub struct Launched {
    /// The launcher: the runner's own child, in a process group of its own.
    launcher: Child,
    /// The program's pid, which is also its process group.
    pid: i32,
    report: BufReader<File>,
}

/// How a launched program ended and what it used.
#[derive(Debug, Clone, Copy)]
pub struct Ended {
    /// `Ok(code)` for a normal exit, `Err(signal)` when a signal ended it.
    pub status: Result<i32, i32>,
    /// Its own peak resident set size, in bytes.
    pub peak_memory: u64,
}

impl Launched {
    /// Starts `program ARGS...` through the launcher with the given standard streams. Errors
    /// are the runner's own: the launcher or the program cannot be started.
    pub fn start(
        program: &Path,
        args: &[OsString],
        stdin: Stdio,
        stdout: Stdio,
        stderr: Stdio,
    ) -> io::Result<Launched> {
        let launcher = launcher()?;
        let (read, write): (OwnedFd, OwnedFd) = sys::report_pipe()?;
        let mut command = Command::new(&launcher);
        command
            .arg(LAUNCH_ARG)
            .arg(program)
            .args(args)
            // As on BOJ: no backtraces, whose symbolising can take tens of megabytes.
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE")
            .stdin(stdin)
            .stdout(stdout)
            .stderr(stderr)
            .process_group(0);
        sys::hand_over_report_fd(&mut command, write.as_raw_fd(), REPORT_FD);
        let child = command.spawn().map_err(|err| {
            io::Error::new(
                err.kind(),
                format!("cannot start the launcher {}: {err}", launcher.display()),
            )
        })?;
        drop(write);
        let mut launched = Launched {
            pid: 0,
            launcher: child,
            report: BufReader::new(File::from(read)),
        };
        let mut line = String::new();
        launched.report.read_line(&mut line)?;
        match line.trim_end().split_once(' ') {
            Some(("pid", pid)) => {
                launched.pid = pid.parse().map_err(|_| bad_report(&line))?;
                Ok(launched)
            }
            Some(("error", message)) => {
                launched.finish_launcher();
                Err(io::Error::other(message.to_string()))
            }
            _ => {
                launched.finish_launcher();
                Err(io::Error::other(format!(
                    "{} did not start {} (is it the xtask's executable?)",
                    launcher.display(),
                    program.display()
                )))
            }
        }
    }

    /// Whether the program has ended (the launcher exits right after it).
    pub fn has_ended(&self) -> io::Result<bool> {
        sys::has_exited(self.launcher.id() as i32)
    }

    /// The launcher's pid, for [`sys::ExitWatch`]-style waiting.
    pub fn launcher_pid(&self) -> i32 {
        self.launcher.id() as i32
    }

    /// Kills the program and everything in its group (at a time limit or an output cap).
    pub fn kill(&self) {
        sys::kill_group(self.pid);
    }

    /// Waits for the end and returns how the program ended.
    pub fn finish(mut self) -> io::Result<Ended> {
        let mut rest = String::new();
        self.report.read_to_string(&mut rest)?;
        self.finish_launcher();
        let line = rest.lines().last().unwrap_or_default();
        let fields: Vec<&str> = line.split(' ').collect();
        let number = |i: usize| -> io::Result<i64> {
            fields
                .get(i)
                .and_then(|f| f.parse().ok())
                .ok_or_else(|| bad_report(line))
        };
        let status = match fields.first().zip(fields.get(1)) {
            Some((&"done", &"exit")) => Ok(number(2)? as i32),
            Some((&"done", &"signal")) => Err(number(2)? as i32),
            _ => return Err(bad_report(line)),
        };
        Ok(Ended {
            status,
            peak_memory: number(3)?.max(0) as u64 * 1024,
        })
    }

    /// Kills whatever is left of the launcher's group and reaps it.
    fn finish_launcher(&mut self) {
        if self.pid > 0 {
            sys::kill_group(self.pid);
        }
        let pid = self.launcher.id() as i32;
        let _ = sys::wait_until_exited(pid);
        sys::kill_group(pid);
        let _ = self.launcher.wait();
    }
}

fn bad_report(line: &str) -> io::Error {
    io::Error::other(format!("the launcher's report makes no sense: {line:?}"))
}
