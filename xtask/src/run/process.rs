//! The runner's one seam over the operating system: start a program with its standard streams,
//! wait for it with a deadline, kill it and everything it started, and learn how it ended
//! (exit code, signal or exception, by name) with its CPU time and peak memory when the system
//! can tell.
//!
//! The judge, stress and interactive code call [`Process`] and never ask which system they run
//! on. Behind it, one module per system holds every `unsafe` call, each with its SAFETY line:
//!
//! | system | module | a program runs | peak memory (what it touched) | CPU time; time runnable | killed with what it started |
//! |---|---|---|---|---|---|
//! | Linux | `linux/` over `unix.rs` | through the launcher (a fresh exec of the xtask), in its own process group; without it when no exact peak is needed | `wait4`'s `ru_maxrss`, its own (started directly: at most its own or the runner's) | `wait4`, live from `/proc` for it and its descendants (`procfs.rs`); their threads' `schedstat` | its group, and `PR_SET_PDEATHSIG` if the runner dies (launched) |
//! | macOS, other Unix | `unix.rs` | `posix_spawn`ed into its own process group (through the exec launcher, which sets its stack limit and `exec`s it, when it has one) | `wait4`'s `ru_maxrss` (bytes on macOS, KiB elsewhere) | `wait4`, live from `proc_pid_rusage` on macOS for it and its descendants; their `ri_runnable_time` | its group; a `SIGINT`/`SIGTERM`/`SIGHUP` of the runner kills every live group first |
//! | Windows | `windows.rs` | created suspended by `CreateProcessW`, put in a Job Object of its own, resumed (alone, where jobs cannot nest) | its peak working set (`PeakWorkingSetSize`) | the job's accounting; none | `TerminateJobObject`; the job is kill-on-close |
//!
//! A figure the system cannot give is `None`, shown as no figure and never judged against a
//! limit: Wine reports 0 for a job's CPU time and nothing sound for a process's memory, and a
//! process never truly peaks at 0 bytes.

use std::ffi::OsString;
use std::io;
use std::path::Path;
#[cfg(unix)]
use std::process::Stdio;
use std::time::Duration;

use super::Exit;
use crate::workspace::problem::MIB;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

#[cfg(unix)]
pub use unix::set_launcher;

/// When this process was started as one of the runner's launchers (the xtask's executable
/// run again: Linux's `__xtask_launch`, which reports the program's own figures, and on every
/// Unix `__xtask_exec`, which sets a stack limit on its main thread and `exec`s the program),
/// does that work and returns the exit code to end with; otherwise `None`. Call it before
/// anything else in `main`, so that a launcher holds as little memory as it can.
pub fn launch_if_asked() -> Option<std::process::ExitCode> {
    #[cfg(unix)]
    if let Some(code) = unix::exec_if_asked() {
        return Some(code);
    }
    #[cfg(target_os = "linux")]
    if let Some(code) = linux::launch_if_asked() {
        return Some(code);
    }
    None
}

/// Whether the process with the id `pid` is still running: how the scratch folders of a run
/// that was killed (`crate::scratch`) are told from those of one still at work. `true` where the
/// system cannot tell.
pub fn is_running(pid: u32) -> bool {
    #[cfg(unix)]
    return unix::is_running(pid);
    #[cfg(windows)]
    return windows::is_running(pid);
    #[cfg(not(any(unix, windows)))]
    {
        let _ = pid;
        true
    }
}

/// Sets this process's own soft stack limit to `bytes` (at most its hard limit), so that a
/// program it `exec`s next, and what that program starts, gets it: how `cargo xtask debug`
/// gives the solution under the debugger the problem's stack on Linux, where the stack is set
/// when a program starts. Returns the limit set. Only from the main thread (XNU refuses
/// another's), and not needed on Windows or macOS, where the judge build links it in.
#[cfg(unix)]
pub fn set_own_stack_limit(bytes: u64) -> io::Result<u64> {
    unix::set_stack_limit(bytes)
}

/// Does nothing on Windows, which starts every program itself.
#[cfg(not(unix))]
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Setup {
    /// The figures the run needs.
    pub measure: Measure,
    /// The stack the program's main thread may grow to, in bytes; `None` keeps the system's
    /// default. Unix sets `RLIMIT_STACK` before the program starts; Windows fixes the stack
    /// when the program is linked, so there it is the build's business.
    pub stack: Option<u64>,
    /// The memory limit the program is judged by, in bytes. Every system judges the peak after
    /// the run; against runaways, Linux and macOS stop a program whose resident memory passes it
    /// by [`super::MEMORY_GUARD_SLACK`] while it runs, and Windows holds the program's commit to
    /// [`commit_guard`] of it.
    pub memory_limit: Option<u64>,
    /// Variables set for the program besides those it inherits (less [`REMOVED_VARIABLES`]):
    /// how the coverage runtime of an instrumented solution is asked to serve runs.
    pub environment: Vec<(OsString, OsString)>,
    /// Whether the program's stdout goes unread (a checker, a validator: their exit status
    /// and stderr are what they say): it goes to the null device, so no cap applies to it and
    /// no thread reads it.
    pub stdout_unread: bool,
}

/// One standard stream of a program: the null device, or a file or pipe end it is given (the
/// runner keeps no copy, so the program alone holds it).
#[derive(Debug)]
pub enum Stream {
    /// Nothing to read, and what is written is dropped.
    Null,
    /// An open file or pipe end.
    Open(Owned),
}

/// An open file or pipe end, as the system names it.
#[cfg(unix)]
pub type Owned = std::os::fd::OwnedFd;
/// An open file or pipe end, as the system names it.
#[cfg(windows)]
pub type Owned = std::os::windows::io::OwnedHandle;

impl From<std::fs::File> for Stream {
    fn from(file: std::fs::File) -> Stream {
        Stream::Open(file.into())
    }
}

impl From<io::PipeReader> for Stream {
    fn from(pipe: io::PipeReader) -> Stream {
        Stream::Open(pipe.into())
    }
}

impl From<io::PipeWriter> for Stream {
    fn from(pipe: io::PipeWriter) -> Stream {
        Stream::Open(pipe.into())
    }
}

#[cfg(unix)]
impl From<Stream> for Stdio {
    fn from(stream: Stream) -> Stdio {
        match stream {
            Stream::Null => Stdio::null(),
            Stream::Open(fd) => Stdio::from(fd),
        }
    }
}

/// The standard streams a program starts with.
#[derive(Debug)]
pub struct Streams {
    /// Its stdin.
    pub stdin: Stream,
    /// Its stdout.
    pub stdout: Stream,
    /// Its stderr.
    pub stderr: Stream,
}

/// A pipe whose ends no program started meanwhile can inherit: (read end, write end). On macOS
/// and the BSDs std makes a pipe with `pipe()` and only then marks its ends close-on-exec, so a
/// program spawned by another thread in between would inherit them (and a reader waiting for
/// the pipe's end would wait for that program too); there pipes are made and programs spawned
/// one at a time. Linux's `pipe2(O_CLOEXEC)` and Windows' non-inheritable handles need no lock.
pub fn pipe() -> io::Result<(io::PipeReader, io::PipeWriter)> {
    #[cfg(all(unix, not(target_os = "linux")))]
    let _one_at_a_time = unix::spawn_lock();
    io::pipe()
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
    /// Windows: the program's peak commit and whether its job said it refused memory at the
    /// [`commit_guard`]; from these and the program's stderr, [`memory_refused`] tells a
    /// refusal. `None` elsewhere, and under Wine.
    pub commit: Option<Commit>,
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

    /// The time the program has been runnable so far: running, or ready to run and waiting for
    /// a CPU (Linux: its CPU time and its threads' run-queue waits; macOS: the kernel's own
    /// runnable time), when the system tells it. The rest of its wall-clock time it spent
    /// waiting for something else: sleeping, or blocked on input.
    pub fn runnable_time(&self) -> Option<Duration> {
        match &self.inner {
            #[cfg(target_os = "linux")]
            Backend::Launched(p) => p.runnable_time(),
            #[cfg(unix)]
            Backend::Direct(p) => p.runnable_time(),
            #[cfg(windows)]
            Backend::Job(_) => None,
        }
    }

    /// The program's own resident memory now, as its peak is counted at its end (Linux: `/proc`;
    /// macOS: `proc_pid_rusage`), where the system tells it while it runs. Windows holds a
    /// program's memory with its job's commit guard instead.
    pub fn resident_memory(&self) -> Option<u64> {
        match &self.inner {
            #[cfg(target_os = "linux")]
            Backend::Launched(p) => p.resident_memory(),
            #[cfg(unix)]
            Backend::Direct(p) => p.resident_memory(),
            #[cfg(windows)]
            Backend::Job(_) => None,
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
/// (a hard `RLIMIT_STACK`; on macOS also the kernel's own `MAXSSIZ`, 64 MiB, whatever the
/// limit says); `None` when the asked size is always given (Windows sets the stack when a
/// program is linked).
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

/// Whether this system tells how long a running program has been runnable (running, or
/// waiting for a CPU): Linux where `/proc` is its own and keeps `schedstat`, and macOS. Where
/// it does, the cap on a judged program's time spent waiting is kept on that figure, and only
/// the outer bound on the wall clock; elsewhere the cap is on the wall clock.
pub fn tells_runnable_time() -> bool {
    #[cfg(target_os = "linux")]
    {
        linux::kernel::tells_runnable_time()
    }
    #[cfg(not(target_os = "linux"))]
    {
        cfg!(target_os = "macos")
    }
}

/// One of the runner's own threads, whose runnable time (on a CPU or waiting for one) counts as
/// time a program waiting on it was not waiting by itself (an interactive solution waits on
/// the relays that pass its interactor's answers). Linux tells it (`/proc/self/task/TID`);
/// elsewhere it is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunnerThread {
    #[cfg(target_os = "linux")]
    tid: i32,
}

impl RunnerThread {
    /// The calling thread.
    pub fn current() -> RunnerThread {
        RunnerThread {
            #[cfg(target_os = "linux")]
            tid: linux::kernel::current_thread(),
        }
    }

    /// How long it has been runnable so far, when the system tells.
    pub fn runnable_time(&self) -> Option<Duration> {
        #[cfg(target_os = "linux")]
        {
            linux::kernel::thread_runnable_time(self.tid)
        }
        #[cfg(not(target_os = "linux"))]
        {
            None
        }
    }
}

/// The stack a program that asks for `asked` bytes gets on this system: `asked`, or the
/// system's ceiling where that is lower.
pub fn stack_given(asked: u64) -> u64 {
    stack_ceiling().map_or(asked, |ceiling| asked.min(ceiling))
}

/// The environment variables a judged program never sees: as on BOJ, no backtraces (their
/// symbolising can take tens of megabytes).
pub const REMOVED_VARIABLES: [&str; 2] = ["RUST_BACKTRACE", "RUST_LIB_BACKTRACE"];

/// The command that starts `program ARGS...` with `streams`, as Unix starts it, less
/// [`REMOVED_VARIABLES`] and with `environment` set.
#[cfg(unix)]
fn command(
    program: &Path,
    args: &[OsString],
    streams: Streams,
    environment: &[(OsString, OsString)],
) -> std::process::Command {
    let mut command = std::process::Command::new(program);
    command
        .args(args)
        .stdin(streams.stdin)
        .stdout(streams.stdout)
        .stderr(streams.stderr);
    for name in REMOVED_VARIABLES {
        command.env_remove(name);
    }
    command.envs(environment.iter().map(|(name, value)| (name, value)));
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

/// The memory BOJ's judging machine has (an AWS c4.large: 3.75 GiB, www.acmicpc.net/help/judge),
/// rounded up: no single allocation that could succeed there is past it.
const BOJ_MACHINE_MEMORY: u64 = 4 << 30;

/// The commit limit of a Windows job for a memory limit of `limit` bytes: 4 × the limit, and
/// at least [`BOJ_MACHINE_MEMORY`], plus 64 MiB. Windows counts memory committed, which its heap
/// commits whole for a large block (`Vec::with_capacity` untouched, a JVM's initial heap of
/// 1/64 of the machine's memory), where Linux and BOJ count pages touched; so the commit limit
/// is only a guard against runaways, far enough above the limit that no program whose touched
/// memory fits is refused an allocation (the `reserve` fixture asks 1.3 GB under 256 MB, AC
/// on Linux at 10 MB), and the verdict goes by the memory touched ([`windows_memory`]) or an
/// allocation refused at the guard ([`memory_refused`]).
pub fn commit_guard(limit: u64) -> u64 {
    limit
        .saturating_mul(4)
        .max(BOJ_MACHINE_MEMORY)
        .saturating_add(64 * MIB)
}

/// What a Windows run's figures say of its peak memory: its peak working set, the memory it
/// touched, as Linux's `ru_maxrss` and BOJ count it; none when the system gave 0.
pub fn windows_memory(peak_working_set: u64) -> Option<u64> {
    (peak_working_set > 0).then_some(peak_working_set)
}

/// A Windows program's commit figures (see [`Ended::commit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Commit {
    /// Its peak commit in bytes (`PeakPagefileUsage`).
    pub peak: u64,
    /// The job posted `JOB_OBJECT_MSG_JOB_MEMORY_LIMIT`: it refused an allocation past the
    /// guard. Its delivery "is not guaranteed" (Microsoft, `JOBOBJECT_ASSOCIATE_COMPLETION_PORT`),
    /// so its absence proves nothing.
    pub refusal_posted: bool,
}

/// The exit of a Rust program whose allocation failed: std's `default_alloc_error_hook` prints
/// "memory allocation of N bytes failed" and aborts, which on Windows is `__fastfail`,
/// `STATUS_STACK_BUFFER_OVERRUN` (library/std/src/alloc.rs, sys/pal/windows abort_internal).
const FAST_FAIL: u32 = 0xC000_0409;

/// Whether a program ran out of memory the system would give it: on Windows, an allocation
/// refused at the job's [`commit_guard`]. Decided from the failure itself, never from the peak
/// alone: the job said so, or the program ended as Rust's allocation failure ends one
/// (`0xC0000409` with "memory allocation of N bytes failed" on stderr) and its commit with
/// those N bytes would have passed `limit`. A program that committed much and then crashed
/// otherwise (a panic on an index) is RE; one refused an allocation within the limit
/// (the machine itself out of memory) is RE too.
pub fn memory_refused(
    commit: Option<Commit>,
    exit: Exit,
    stderr: &[u8],
    limit: Option<u64>,
) -> bool {
    let Some(commit) = commit else {
        return false;
    };
    if commit.refusal_posted {
        return true;
    }
    let (Exit::Exception(FAST_FAIL), Some(limit)) = (exit, limit) else {
        return false;
    };
    failed_allocation(stderr).is_some_and(|asked| commit.peak.saturating_add(asked) > limit)
}

/// The N of the last "memory allocation of N bytes failed" on `stderr` (Rust's message).
fn failed_allocation(stderr: &[u8]) -> Option<u64> {
    let text = String::from_utf8_lossy(stderr);
    let at = text.rfind("memory allocation of ")?;
    let rest = &text[at + "memory allocation of ".len()..];
    let (bytes, tail) = rest.split_once(' ')?;
    tail.starts_with("bytes failed")
        .then(|| bytes.parse().ok())
        .flatten()
}

/// Whether this system's peak memory counts a block twice while the allocator moves it to grow
/// it: on Windows, `HeapReAlloc` "may move the block to a new location" (Microsoft, HeapReAlloc)
/// and a move is a copy, so at a `Vec`'s last doubling its old block and the copy are both in
/// the working set; glibc moves a large block with `mremap` (malloc.c, `mremap_chunk`), no copy,
/// so on BOJ's Linux the peak stays near what the `Vec` holds. No figure Windows gives tells
/// one from the other; an MLE that such a move may explain says so (`Hint::GrowthCopied`).
pub const PEAK_COUNTS_MOVES: bool = cfg!(windows);

/// `ticks` of a clock that ticks `per_second` times a second, as a duration. macOS tells CPU
/// and runnable time in the kernel's Mach ticks, whose rate `hw.tbfrequency` gives (24 MHz on
/// Apple Silicon, 1 GHz on Intel); `mach_timebase_info` would give the rate the process sees,
/// which under Rosetta is Intel's while the kernel's figures stay native, 125/3 ≈ 41.7 times
/// too few nanoseconds (psutil mends it so, giampaolo/psutil#2728).
pub fn ticks_to_duration(ticks: u64, per_second: u64) -> Duration {
    let nanos = u128::from(ticks) * 1_000_000_000 / u128::from(per_second.max(1));
    Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_judges_the_memory_touched_not_the_memory_committed() {
        // Vec::with_capacity for 200 MB, 10 MB touched: its peak is what it touched.
        assert_eq!(windows_memory(12 * MIB), Some(12 * MIB));
        // No figure is no figure.
        assert_eq!(windows_memory(0), None);
        // The guard refuses nothing BOJ's machine could give: with_capacity for 1.3 GB under
        // 256 MB (AC on Linux at 10 MB), a JVM's 1/64 of a 64 GB machine.
        let guard = commit_guard(256 * MIB);
        assert_eq!(guard, 4096 * MIB + 64 * MIB);
        assert!(1_300_000_000 + 12 * MIB < guard);
        assert!(1024 * MIB < guard);
        // A large limit keeps 4 × of it.
        assert_eq!(commit_guard(2048 * MIB), 8192 * MIB + 64 * MIB);
    }

    fn commit(peak: u64, refusal_posted: bool) -> Option<Commit> {
        Some(Commit {
            peak,
            refusal_posted,
        })
    }

    #[test]
    fn a_refusal_is_told_by_the_failed_allocation_not_by_the_peak() {
        let limit = Some(256 * MIB);
        let fast_fail = Exit::Exception(0xC000_0409);
        let refused = b"memory allocation of 4400000000 bytes failed\n";
        // Refused at the guard, the job's message lost: Rust's own message and the commit say
        // it.
        assert!(memory_refused(
            commit(40 * MIB, false),
            fast_fail,
            refused,
            limit
        ));
        // The job said it, whatever the program printed.
        assert!(memory_refused(
            commit(40 * MIB, true),
            Exit::Code(101),
            b"",
            limit
        ));
        // 300 MB committed untouched, then a panic on an index: RE, not MLE.
        let panic = b"thread 'main' panicked at src/main.rs:9:5:\nindex out of bounds\n";
        assert!(!memory_refused(
            commit(300 * MIB, false),
            Exit::Code(101),
            panic,
            limit
        ));
        // An abort of another kind with much committed is no refusal either.
        assert!(!memory_refused(
            commit(900 * MIB, false),
            fast_fail,
            b"abort\n",
            limit
        ));
        // An allocation refused within the limit (the machine itself out of memory) is RE.
        let small = b"memory allocation of 1048576 bytes failed\n";
        assert!(!memory_refused(
            commit(40 * MIB, false),
            fast_fail,
            small,
            limit
        ));
        // Off Windows (and under Wine) there are no commit figures: never refused.
        assert!(!memory_refused(None, fast_fail, refused, limit));
        assert_eq!(
            failed_allocation(b"x\nmemory allocation of 12 bytes failed\n"),
            Some(12)
        );
        assert_eq!(
            failed_allocation(b"memory allocation of many bytes failed"),
            None
        );
    }

    #[test]
    fn mach_ticks_convert_at_the_kernels_rate() {
        // Apple Silicon: 24 MHz; Intel: 1 GHz.
        assert_eq!(
            ticks_to_duration(24_000_000, 24_000_000),
            Duration::from_secs(1)
        );
        assert_eq!(
            ticks_to_duration(1_000_000_000, 1_000_000_000),
            Duration::from_secs(1)
        );
        // Under Rosetta mach_timebase_info says 1/1 (a 1 GHz rate) for the same native ticks:
        // a second of CPU would read as 24 ms, 41.7 times too little.
        let native = ticks_to_duration(24_000_000, 24_000_000);
        let misread = ticks_to_duration(24_000_000, 1_000_000_000);
        assert_eq!(misread, Duration::from_millis(24));
        assert_eq!(native.as_nanos() * 3 / misread.as_nanos(), 125);
        assert_eq!(
            ticks_to_duration(5, 0),
            Duration::from_secs(5),
            "no rate is no division by 0"
        );
    }

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
