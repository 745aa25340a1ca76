//! The runner on Linux: a program whose own peak memory is wanted is started by the launcher,
//! a fresh copy of the xtask's own executable; others start straight from the runner
//! (`unix.rs`), which waits for them on a pidfd.
//!
//! Linux keeps a process's peak resident set (`ru_maxrss`) across `exec`, and a forked child
//! starts with a copy of its parent's anonymous pages: a solution forked straight from the
//! runner would be charged the runner's heap (megabytes of syntax trees after bundling). So the
//! runner starts `XTASK __xtask_launch STACK PROGRAM ARGS...`, a process image that has done
//! nothing yet (under half a megabyte of anonymous memory), which sets its stack limit, forks
//! PROGRAM into a process group of its own, waits for it, clears its group and reaps it (as
//! `unix.rs` does for a program started directly) and reports on file descriptor 3, one JSON
//! line each:
//!
//! ```text
//! {"Started":{"pid":PID}}                  once PROGRAM runs (or {"Failed":{"message":…}})
//! {"Ended":{"exit":…,"cpu_micros":…,"peak_kib":…}}   when it has ended
//! ```
//!
//! The figure is then what `/usr/bin/time -f %M` reports for PROGRAM, which starts it the same
//! way. Both processes die with their parent (`PR_SET_PDEATHSIG`), so nothing outlives an
//! interrupted run, even a runner killed by `SIGKILL`.
#![allow(unsafe_code)]

pub mod kernel;
mod procfs;

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{unix, Ended, Setup, Streams};
use crate::run::Exit;
use kernel::{proc_cpu_time, proc_resident_memory, proc_runnable_time};

/// The first argument that makes the xtask's executable act as the launcher.
const LAUNCH_ARG: &str = "__xtask_launch";

/// The descriptor the launcher reports on.
const REPORT_FD: i32 = 3;

/// One line of the launcher's report.
#[derive(Debug, Serialize, Deserialize)]
enum Report {
    /// The program runs, with this pid (also its process group).
    Started { pid: i32 },
    /// The program could not be started.
    Failed { message: String },
    /// The program has ended.
    Ended {
        exit: Exit,
        cpu_micros: u64,
        peak_kib: u64,
    },
}

/// When this process was started as the launcher (`XTASK __xtask_launch STACK PROGRAM
/// ARGS...`), does the launcher's work and returns the exit code to end with; otherwise `None`.
/// Call it before anything else in `main`, so that the launcher holds as little memory as it
/// can.
pub fn launch_if_asked() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != LAUNCH_ARG {
        return None;
    }
    let stack = args.next()?.to_str()?.parse::<u64>().ok();
    let program = args.next()?;
    let rest: Vec<OsString> = args.collect();
    let mut report = match take_report_fd(REPORT_FD) {
        Ok(file) => file,
        Err(_) => return Some(ExitCode::from(125)),
    };
    let code = match launch(stack, &program, &rest, &mut report) {
        Ok(()) => 0,
        Err(err) => {
            let message = err.to_string();
            let _ = write_report(&mut report, &Report::Failed { message });
            125
        }
    };
    Some(ExitCode::from(code))
}

/// The launcher's work: start PROGRAM in a group of its own under the stack limit, report its
/// pid, wait for it, clear out anything it left in its group, and report how it ended.
fn launch(
    stack: Option<u64>,
    program: &OsString,
    args: &[OsString],
    report: &mut File,
) -> io::Result<()> {
    die_with_parent()?;
    unix::restore_sigchld();
    if let Some(bytes) = stack {
        unix::set_stack_limit(bytes)?;
    }
    let mut command = Command::new(program);
    command.args(args).process_group(0);
    // SAFETY: prctl is async-signal-safe and touches no memory of ours.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let child = command.spawn().map_err(|err| {
        io::Error::new(
            err.kind(),
            format!("cannot run {}: {err}", Path::new(program).display()),
        )
    })?;
    let pid = child.id() as i32;
    // Let go of the pipes at once: only the program holds them now, so its readers and writers
    // see the end of them when it ends.
    release_standard_streams();
    write_report(report, &Report::Started { pid })?;
    unix::wait_and_clear_group(pid)?;
    let ended = unix::reap(pid)?;
    drop(child);
    write_report(
        report,
        &Report::Ended {
            exit: ended.exit,
            cpu_micros: ended.cpu_time.map_or(0, |t| t.as_micros() as u64),
            peak_kib: ended.peak_memory.unwrap_or(0) / 1024,
        },
    )
}

fn write_report(report: &mut File, line: &Report) -> io::Result<()> {
    let mut text = serde_json::to_string(line).map_err(io::Error::other)?;
    text.push('\n');
    report.write_all(text.as_bytes())?;
    report.flush()
}

/// A program started through the launcher.
#[derive(Debug)]
pub struct Launched {
    /// The program's pid, which is also its process group.
    pid: i32,
    ended: Receiver<io::Result<Ended>>,
    result: Option<io::Result<Ended>>,
}

impl Launched {
    /// Starts `program ARGS...` through the launcher with the given standard streams. Errors
    /// are the runner's own: the launcher or the program cannot be started.
    pub fn start(
        program: &Path,
        args: &[OsString],
        streams: Streams,
        setup: &Setup,
    ) -> io::Result<Launched> {
        unix::prepare_runner();
        let launcher = unix::launcher()?;
        let (read, write) = report_pipe()?;
        let stack = setup.stack.map_or("-".to_string(), |b| b.to_string());
        let mut command = Command::new(&launcher);
        command
            .arg(LAUNCH_ARG)
            .arg(stack)
            .arg(program)
            .args(args)
            .stdin(streams.stdin)
            .stdout(streams.stdout)
            .stderr(streams.stderr)
            .process_group(0);
        for name in super::REMOVED_VARIABLES {
            command.env_remove(name);
        }
        command.envs(setup.environment.iter().map(|(name, value)| (name, value)));
        hand_over_report_fd(&mut command, write.as_raw_fd(), REPORT_FD);
        let mut child = command
            .spawn()
            .map_err(|err| unix::launcher_failed(&launcher, err))?;
        // The command holds the streams' parent ends: drop it, so that only the program does.
        drop(command);
        drop(write);
        let mut report = BufReader::new(File::from(read));
        let first = read_report(&mut report);
        let pid = match first {
            Ok(Some(Report::Started { pid })) => pid,
            other => {
                let _ = child.wait();
                return Err(match other {
                    Ok(Some(Report::Failed { message })) => io::Error::other(message),
                    Err(err) => err,
                    _ => io::Error::other(format!(
                        "{} did not start {} (is it the xtask's executable?)",
                        launcher.display(),
                        program.display()
                    )),
                });
            }
        };
        let (send, ended) = mpsc::channel();
        std::thread::spawn(move || {
            let result = match read_report(&mut report) {
                Ok(Some(Report::Ended {
                    exit,
                    cpu_micros,
                    peak_kib,
                })) => Ok(Ended {
                    exit,
                    cpu_time: Some(Duration::from_micros(cpu_micros)),
                    peak_memory: (peak_kib > 0).then_some(peak_kib * 1024),
                    commit: None,
                    peak_is_upper_bound: false,
                }),
                Ok(other) => Err(io::Error::other(format!(
                    "the launcher's report makes no sense: {other:?}"
                ))),
                Err(err) => Err(err),
            };
            // The launcher exits right after its last line.
            let _ = child.wait();
            let _ = send.send(result);
        });
        Ok(Launched {
            pid,
            ended,
            result: None,
        })
    }

    /// Waits until the program has ended or `timeout` has passed.
    pub fn wait_timeout(&mut self, timeout: Duration) -> io::Result<bool> {
        if self.result.is_some() {
            return Ok(true);
        }
        self.result = unix::received(&self.ended, timeout, "the launcher's reader")?;
        Ok(self.result.is_some())
    }

    /// The CPU time the program has used so far.
    pub fn cpu_time(&self) -> Option<Duration> {
        proc_cpu_time(self.pid)
    }

    /// The time the program has been runnable so far.
    pub fn runnable_time(&self) -> Option<Duration> {
        proc_runnable_time(self.pid)
    }

    /// The program's resident memory now (its own, as `wait4`'s peak counts it).
    pub fn resident_memory(&self) -> Option<u64> {
        proc_resident_memory(self.pid)
    }

    /// Kills the program and everything in its group, unless it has been seen to end. (The
    /// launcher reports the end only after reaping; a kill in the microseconds between names a
    /// group that just ended, whose id Linux does not hand out again so soon.)
    pub fn kill(&mut self) {
        if self.result.is_none() {
            unix::kill_group(self.pid);
        }
    }

    /// Waits for the end and says how the program ended.
    pub fn finish(&mut self) -> io::Result<Ended> {
        while !self.wait_timeout(Duration::from_secs(3600))? {}
        unix::copy_of(self.result.as_ref().expect("waited for"))
    }
}

/// The next line of the launcher's report; `None` at its end.
fn read_report(report: &mut impl BufRead) -> io::Result<Option<Report>> {
    let mut line = String::new();
    if report.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    serde_json::from_str(&line)
        .map(Some)
        .map_err(|err| io::Error::other(format!("the launcher's report {line:?}: {err}")))
}

/// A pipe for the launcher's report, both ends close-on-exec: (read end, write end).
fn report_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors are fresh and owned by nothing else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Makes `command`'s child (forked, not vforked: the closure's presence makes std fork) find
/// the descriptor `fd` of ours as `target`, open across exec, and die with its parent thread.
fn hand_over_report_fd(command: &mut Command, fd: i32, target: i32) {
    // SAFETY: between fork and exec the closure calls only async-signal-safe functions (dup2,
    // fcntl, prctl) on integers it owns.
    unsafe {
        command.pre_exec(move || {
            if fd == target {
                let flags = libc::fcntl(fd, libc::F_GETFD);
                libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC);
            } else if libc::dup2(fd, target) < 0 {
                return Err(io::Error::last_os_error());
            }
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}

/// Makes this process die when the process that started it dies.
fn die_with_parent() -> io::Result<()> {
    // SAFETY: prctl with these arguments only sets a flag of this process.
    if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The launcher's report descriptor as a file, marked close-on-exec so the program it starts
/// does not inherit it.
fn take_report_fd(fd: i32) -> io::Result<File> {
    // SAFETY: fcntl on an integer descriptor has no memory effects.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) };
    // SAFETY: the runner opened `fd` for this process alone, and nothing else here owns it.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// Points stdin, stdout and stderr at /dev/null, so that this process holds no end of the
/// pipes it was given.
fn release_standard_streams() {
    if let Ok(null) = File::options().read(true).write(true).open("/dev/null") {
        for target in 0..=2 {
            // SAFETY: dup2 onto the standard descriptors, which std does not own as objects.
            unsafe { libc::dup2(null.as_raw_fd(), target) };
        }
    }
}
