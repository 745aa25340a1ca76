//! The runner's one seam over the operating system: start a program with its standard streams,
//! wait for it with a deadline, kill it and everything it started, and learn how it ended
//! (exit code, signal or exception, by name) with its CPU time and peak memory when the system
//! can tell.
//!
//! The judge, stress and interactive code call [`Process`] and never ask which system they run
//! on. Behind it, one module per system holds every `unsafe` call, each with its SAFETY line:
//!
//! | system | module | a program runs | peak memory | CPU time | killed with what it started |
//! |---|---|---|---|---|---|
//! | Linux | `linux.rs` over `unix.rs` | through the launcher (a fresh exec of the xtask), in its own process group; without it when no exact peak is needed | `wait4`'s `ru_maxrss`, its own (started directly: at most its own or the runner's) | `wait4`; live from `/proc` | its group, and `PR_SET_PDEATHSIG` if the runner dies (launched) |
//! | macOS, other Unix | `unix.rs` | `posix_spawn`ed into its own process group | `wait4`'s `ru_maxrss` (bytes on macOS, KiB elsewhere) | `wait4`; live from `proc_pid_rusage` on macOS | its group; a `SIGINT`/`SIGTERM`/`SIGHUP` of the runner kills every live group first |
//! | Windows | `windows.rs` | started suspended, put in a Job Object of its own, resumed | the job's `PeakProcessMemoryUsed` | the job's accounting | `TerminateJobObject`; the job is kill-on-close |
//!
//! A figure the system cannot give is `None`, shown as no figure and never judged against a
//! limit: Wine's job objects report 0 for both, and a process never truly peaks at 0 bytes.

use std::ffi::OsString;
use std::io;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use super::Exit;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

#[cfg(target_os = "linux")]
pub use linux::{launch_if_asked, set_launcher};

/// Does nothing off Linux: only Linux starts programs through the launcher.
#[cfg(not(target_os = "linux"))]
pub fn launch_if_asked() -> Option<std::process::ExitCode> {
    None
}

/// Does nothing off Linux: only Linux starts programs through the launcher.
#[cfg(not(target_os = "linux"))]
pub fn set_launcher(_path: &Path) {}

/// Which figures a run needs, and how exact.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Measure {
    /// None (a generator, a reference, a checker): the quickest start.
    #[default]
    Nothing,
    /// The program's own peak memory and CPU time (a solution judged by `cargo xtask test`).
    Exact,
    /// Its CPU time, and a peak memory that may be more than its own but never less: on Linux a
    /// program started straight from the runner is charged the runner's peak too, which still
    /// rules an MLE out when under the limit, and saves the launcher's start (stress cases).
    AtMost,
}

/// What the runner asks of the system besides starting the program.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Setup {
    /// The figures the run needs.
    pub measure: Measure,
    /// The stack the program's main thread may grow to, in bytes; `None` keeps the system's
    /// default. Unix sets `RLIMIT_STACK` before the program starts; Windows fixes the stack
    /// when the program is linked, so there it is the build's business.
    pub stack: Option<u64>,
    /// Memory the system itself holds the program to, in bytes (Windows: the job's limit, so a
    /// program over it is told at once; elsewhere the peak is judged after the run).
    pub memory_limit: Option<u64>,
}

/// The standard streams a program starts with.
#[derive(Debug)]
pub struct Streams {
    /// Its stdin.
    pub stdin: Stdio,
    /// Its stdout.
    pub stdout: Stdio,
    /// Its stderr.
    pub stderr: Stdio,
}

/// How a program ended and what it used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended {
    /// [`Exit::Code`], [`Exit::Signal`] or [`Exit::Exception`]: how it ended by itself or by a
    /// kill (the runner knows which kills were its own).
    pub exit: Exit,
    /// User plus system CPU time of the program (and what it started and waited for), when the
    /// system can tell.
    pub cpu_time: Option<Duration>,
    /// Its peak memory in bytes, when the system can tell.
    pub peak_memory: Option<u64>,
    /// The system itself refused the program memory past [`Setup::memory_limit`] (Windows'
    /// job limit), whatever the peak figure says.
    pub memory_limit_hit: bool,
    /// `peak_memory` may be more than the program's own ([`Measure::AtMost`] on Linux).
    pub peak_is_upper_bound: bool,
}

/// A program started by the runner. Dropping it kills the program and everything it started,
/// and reaps it: nothing a run starts outlives it, even when the runner returns early.
#[derive(Debug)]
pub struct Process {
    inner: Backend,
}

#[cfg(target_os = "linux")]
#[derive(Debug)]
enum Backend {
    Launched(linux::Launched),
    Direct(unix::Direct),
}

#[cfg(all(unix, not(target_os = "linux")))]
#[derive(Debug)]
enum Backend {
    Direct(unix::Direct),
}

#[cfg(windows)]
#[derive(Debug)]
enum Backend {
    Job(windows::InJob),
}

impl Process {
    /// Starts `program ARGS...` with `streams`, as `setup` asks. Errors are the runner's own:
    /// the program (or the launcher) cannot be started.
    pub fn start(
        program: &Path,
        args: &[OsString],
        streams: Streams,
        setup: &Setup,
    ) -> io::Result<Process> {
        #[cfg(target_os = "linux")]
        let inner = if setup.measure == Measure::Exact {
            Backend::Launched(linux::Launched::start(program, args, streams, setup)?)
        } else {
            Backend::Direct(unix::Direct::start(program, args, streams, setup)?)
        };
        #[cfg(all(unix, not(target_os = "linux")))]
        let inner = Backend::Direct(unix::Direct::start(program, args, streams, setup)?);
        #[cfg(windows)]
        let inner = Backend::Job(windows::InJob::start(program, args, streams, setup)?);
        Ok(Process { inner })
    }

    /// Waits until the program has ended or `timeout` has passed; whether it has ended.
    pub fn wait_timeout(&mut self, timeout: Duration) -> io::Result<bool> {
        match &mut self.inner {
            #[cfg(target_os = "linux")]
            Backend::Launched(p) => p.wait_timeout(timeout),
            #[cfg(unix)]
            Backend::Direct(p) => p.wait_timeout(timeout),
            #[cfg(windows)]
            Backend::Job(p) => p.wait_timeout(timeout),
        }
    }

    /// The CPU time the program has used so far, when the system can tell while it runs.
    pub fn cpu_time(&self) -> Option<Duration> {
        match &self.inner {
            #[cfg(target_os = "linux")]
            Backend::Launched(p) => p.cpu_time(),
            #[cfg(unix)]
            Backend::Direct(p) => p.cpu_time(),
            #[cfg(windows)]
            Backend::Job(p) => p.cpu_time(),
        }
    }

    /// Kills the program and everything it started (at a limit). Killing an ended program
    /// does nothing.
    pub fn kill(&mut self) {
        match &mut self.inner {
            #[cfg(target_os = "linux")]
            Backend::Launched(p) => p.kill(),
            #[cfg(unix)]
            Backend::Direct(p) => p.kill(),
            #[cfg(windows)]
            Backend::Job(p) => p.kill(),
        }
    }

    /// Waits for the end, kills whatever the program left running, and says how it ended.
    pub fn finish(mut self) -> io::Result<Ended> {
        self.finish_in_place()
    }

    fn finish_in_place(&mut self) -> io::Result<Ended> {
        match &mut self.inner {
            #[cfg(target_os = "linux")]
            Backend::Launched(p) => p.finish(),
            #[cfg(unix)]
            Backend::Direct(p) => p.finish(),
            #[cfg(windows)]
            Backend::Job(p) => p.finish(),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // `finish` leaves nothing to do; otherwise the program is still ours to end.
        self.kill();
        let _ = self.finish_in_place();
    }
}

/// The largest stack the system lets a program's main thread have, in bytes, when it caps it
/// (a hard `RLIMIT_STACK`: macOS's is 64 MiB); `None` when the asked size is always given
/// (Windows sets the stack when a program is linked).
pub fn stack_ceiling() -> Option<u64> {
    #[cfg(unix)]
    {
        unix::stack_ceiling()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The command that starts `program ARGS...` with `streams`, as every system starts it: no
/// backtraces, as on BOJ (their symbolising can take tens of megabytes).
fn command(program: &Path, args: &[OsString], streams: Streams) -> std::process::Command {
    let mut command = std::process::Command::new(program);
    command
        .args(args)
        .stdin(streams.stdin)
        .stdout(streams.stdout)
        .stderr(streams.stderr)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE");
    command
}

/// The error for a program that could not be started, naming it.
fn cannot_run(program: &Path, err: io::Error) -> io::Error {
    io::Error::new(
        err.kind(),
        format!("cannot run {}: {err}", program.display()),
    )
}

/// A name for a Windows exception code (an `NTSTATUS` a crashed program exits with).
pub fn exception_name(code: u32) -> Option<&'static str> {
    Some(match code {
        0x8000_0003 => "breakpoint",
        0xC000_0005 => "access violation",
        0xC000_0017 => "out of memory",
        0xC000_001D => "illegal instruction",
        0xC000_008C => "array bounds exceeded",
        0xC000_008E => "float divide by zero",
        0xC000_0094 => "integer divide by zero",
        0xC000_0095 => "integer overflow",
        0xC000_0096 => "privileged instruction",
        0xC000_00FD => "stack overflow",
        0xC000_013A => "interrupted by Ctrl-C",
        0xC000_0135 => "a DLL was not found",
        0xC000_0142 => "a DLL failed to initialise",
        0xC000_0374 => "heap corruption",
        0xC000_0409 => "abort (fast fail)",
        _ => return None,
    })
}

/// Whether a Windows exit code is a crash's exception (an `NTSTATUS` of error severity,
/// `0xC…`) rather than a code the program chose.
pub fn is_exception(code: u32) -> bool {
    code >> 28 == 0xC || exception_name(code).is_some()
}

/// A name for a Unix signal.
#[cfg(unix)]
pub fn signal_name(signal: i32) -> Option<&'static str> {
    unix::signal_name(signal)
}

/// No signals end a Windows program.
#[cfg(not(unix))]
pub fn signal_name(_signal: i32) -> Option<&'static str> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crash_codes_are_exceptions_and_chosen_codes_are_not() {
        assert!(is_exception(0xC000_0005));
        assert!(is_exception(0xC000_00FD));
        assert!(is_exception(0xC000_0409));
        assert!(is_exception(0x8000_0003));
        assert!(!is_exception(3));
        assert!(!is_exception(101));
        assert!(
            !is_exception(u32::MAX),
            "exit(-1) is a code the program chose"
        );
        assert_eq!(exception_name(0xC000_00FD), Some("stack overflow"));
        assert_eq!(exception_name(0xC000_0005), Some("access violation"));
    }
}
