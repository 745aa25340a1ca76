//! The runner on every Unix (macOS and the BSDs alone; on Linux, under the launcher and for
//! programs that need no figures): a program `posix_spawn`ed into a process group of its own,
//! watched by a thread that waits for its end without reaping it, kills what is left of its
//! group while the zombie still holds the group's id, and reaps it with `wait4`'s resource
//! usage.
//!
//! Linux's launcher kills the program when the runner dies (`PR_SET_PDEATHSIG`). Other Unix
//! systems have no such guard, and a guard set between fork and exec would make std fork a copy
//! of the runner instead of `posix_spawn`ing a fresh image (whose peak memory is then its
//! own). What is lost: a runner killed by `SIGKILL` leaves its running program to end by
//! itself (its stdout pipe is closed then, so one that prints dies of `SIGPIPE`). What is kept:
//! a `SIGINT`, `SIGTERM` or `SIGHUP` of the runner (Ctrl-C, a closed terminal) first kills
//! every process group it started that is still running; an error or panic in the runner kills
//! the program when its `Process` is dropped.
//!
//! What XNU (macOS) asks for besides, each from its source (apple-oss-distributions/xnu):
//! - a stack limit is set by `/bin/sh`'s `ulimit -s` in the program's own process, just before
//!   it `exec`s the program: `dosetrlimit` (bsd/kern/kern_resource.c) refuses to lower
//!   `RLIMIT_STACK` with `EINVAL` unless the caller runs on the main thread's stack, so the
//!   runner, whose spawns happen on other threads, could raise its own limit and never lower it
//!   back; and the stack usable is at most `maxsmap` (`MAXSSIZ` less a page, 64 MiB) whatever the
//!   limit says, which [`stack_ceiling`] tells;
//! - CPU and runnable time come in Mach ticks at the kernel's rate, `hw.tbfrequency`
//!   (`sysctl_tbfrequency` in bsd/kern/kern_mib.c), not at the rate `mach_timebase_info` gives a
//!   process, which differs under Rosetta; the runnable time is the threads' `runnable_timer`,
//!   started when a thread becomes runnable and stopped when it blocks (osfmk/kern/sched_prim.c),
//!   so running and waiting for a CPU both count;
//! - std makes pipes with `pipe()` and marks them close-on-exec after (no `pipe2`): pipes are
//!   made and programs spawned one at a time ([`spawn_lock`]), so no program inherits another
//!   run's pipe.
//!
//! On every Unix, a `SIGCHLD` the runner's parent set to be ignored (inherited across `exec`)
//! would make the kernel reap its programs itself and `wait4` fail with `ECHILD`: the runner
//! restores its default action before it starts any.
//!
//! Every `unsafe` call of the Unix runner is in this file or `linux.rs`, each with its SAFETY
//! line.
#![allow(unsafe_code)]

use std::ffi::OsString;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
#[cfg(target_os = "macos")]
use std::sync::OnceLock;
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

#[cfg(test)]
use super::Stream;
use super::{cannot_run, command, Ended, Setup, Streams};
use crate::run::Exit;

/// A program started straight from the runner.
#[derive(Debug)]
pub struct Direct {
    pid: i32,
    waiter: Waiter,
    result: Option<io::Result<Ended>>,
}

/// How the runner learns that a directly started program has ended.
#[derive(Debug)]
enum Waiter {
    /// Linux: a pidfd, readable once the program has ended; the thread that waits reaps it, so
    /// no other thread is woken for each program (stress starts thousands).
    #[cfg(target_os = "linux")]
    Pidfd {
        pidfd: std::os::fd::OwnedFd,
        slot: Option<usize>,
    },
    /// Elsewhere (and on a Linux without pidfds): a pooled thread waits, kills what is left of
    /// the group and reaps, holding `reaped`'s lock, which a killer takes too: once reaped, the
    /// group's id may name another group and must not be killed.
    Thread {
        reaped: Arc<Mutex<bool>>,
        ended: Receiver<io::Result<Ended>>,
    },
}

impl Direct {
    /// Spawns `program ARGS...` in a group of its own, with `setup.stack` as its stack limit.
    pub fn start(
        program: &Path,
        args: &[OsString],
        streams: Streams,
        setup: &Setup,
    ) -> io::Result<Direct> {
        prepare_runner();
        let child = spawn_in_group(program, args, streams, setup.stack)
            .map_err(|err| cannot_run(program, err))?;
        let pid = child.id() as i32;
        // The waiter reaps it; std's handle must not wait for it too (dropping it does not).
        drop(child);
        let slot = LiveGroups::add(pid);
        #[cfg(target_os = "linux")]
        if let Some(pidfd) = super::linux::pidfd_open(pid) {
            return Ok(Direct {
                pid,
                waiter: Waiter::Pidfd { pidfd, slot },
                result: None,
            });
        }
        let reaped = Arc::new(Mutex::new(false));
        let (send, ended) = mpsc::channel();
        let flag = Arc::clone(&reaped);
        std::thread::spawn(move || {
            let result = wait_and_clear_group(pid).and_then(|()| {
                LiveGroups::remove(slot);
                let mut reaped = flag.lock().unwrap_or_else(|e| e.into_inner());
                *reaped = true;
                reap(pid)
            });
            let _ = send.send(result);
        });
        Ok(Direct {
            pid,
            waiter: Waiter::Thread { reaped, ended },
            result: None,
        })
    }

    /// Waits until the program has ended (and is reaped) or `timeout` has passed.
    pub fn wait_timeout(&mut self, timeout: Duration) -> io::Result<bool> {
        if self.result.is_some() {
            return Ok(true);
        }
        match &self.waiter {
            #[cfg(target_os = "linux")]
            Waiter::Pidfd { pidfd, slot } => {
                if !super::linux::poll_readable(pidfd, timeout)? {
                    return Ok(false);
                }
                let result = wait_and_clear_group(self.pid).and_then(|()| {
                    LiveGroups::remove(*slot);
                    reap(self.pid)
                });
                self.result = Some(result);
                Ok(true)
            }
            Waiter::Thread { ended, .. } => {
                self.result = received(ended, timeout, "the watcher")?;
                Ok(self.result.is_some())
            }
        }
    }

    /// The CPU time used so far, where the system tells it of a running process.
    pub fn cpu_time(&self) -> Option<Duration> {
        running_cpu_time(self.pid)
    }

    /// The time runnable so far (running or waiting for a CPU), where the system tells it.
    pub fn runnable_time(&self) -> Option<Duration> {
        running_runnable_time(self.pid)
    }

    /// Kills the program's group, unless the program is already reaped.
    pub fn kill(&mut self) {
        match &self.waiter {
            #[cfg(target_os = "linux")]
            Waiter::Pidfd { .. } => {
                if self.result.is_none() {
                    kill_group(self.pid);
                }
            }
            Waiter::Thread { reaped, .. } => {
                let reaped = reaped.lock().unwrap_or_else(|e| e.into_inner());
                if !*reaped {
                    kill_group(self.pid);
                }
            }
        }
    }

    /// Waits for the end and says how the program ended.
    pub fn finish(&mut self) -> io::Result<Ended> {
        while !self.wait_timeout(Duration::from_secs(3600))? {}
        copy_of(self.result.as_ref().expect("waited for"))
    }
}

/// The end another thread reports on `ended` (a watcher, the launcher's reader), when it comes
/// within `timeout`; `who` names that thread in the error when it is gone.
pub fn received(
    ended: &Receiver<io::Result<Ended>>,
    timeout: Duration,
    who: &str,
) -> io::Result<Option<io::Result<Ended>>> {
    match ended.recv_timeout(timeout) {
        Ok(result) => Ok(Some(result)),
        Err(RecvTimeoutError::Timeout) => Ok(None),
        Err(RecvTimeoutError::Disconnected) => Err(io::Error::other(format!("{who} is gone"))),
    }
}

/// A copy of how a program ended, or of the error that says why that is not known.
pub fn copy_of(result: &io::Result<Ended>) -> io::Result<Ended> {
    match result {
        Ok(ended) => Ok(*ended),
        Err(err) => Err(io::Error::new(err.kind(), err.to_string())),
    }
}

/// Waits for the child `pid` to end, then kills what is left of its process group while it is
/// an unreaped zombie (its id cannot be reused yet). [`reap`] it next.
pub fn wait_and_clear_group(pid: i32) -> io::Result<()> {
    wait_until_exited(pid)?;
    kill_group(pid);
    Ok(())
}

/// Blocks until the child `pid` has ended, without reaping it.
pub fn wait_until_exited(pid: i32) -> io::Result<()> {
    // SAFETY: siginfo_t is plain data for which all-zero bytes are valid.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `info` is a valid, writable siginfo_t.
        let result = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if result == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Reaps the child `pid` (blocking until it ends): how it ended, its CPU time and peak memory.
pub fn reap(pid: i32) -> io::Result<Ended> {
    let mut status = 0;
    // SAFETY: rusage is plain data for which all-zero bytes are valid.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `usage` are valid and writable.
        let result = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if result == pid {
            break;
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
    let exit = if libc::WIFEXITED(status) {
        Exit::Code(libc::WEXITSTATUS(status))
    } else {
        Exit::Signal(libc::WTERMSIG(status))
    };
    let seconds = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    // macOS gives ru_maxrss in bytes; Linux and the BSDs in KiB.
    let unit = if cfg!(target_os = "macos") { 1 } else { 1024 };
    let peak = usage.ru_maxrss.max(0) as u64 * unit;
    Ok(Ended {
        exit,
        cpu_time: Some(seconds(usage.ru_utime) + seconds(usage.ru_stime)),
        peak_memory: (peak > 0).then_some(peak),
        memory_limit_hit: false,
        // Linux carries the spawner's peak into the child at exec (a vfork shares its memory):
        // straight from the runner, the figure is the runner's peak or the program's.
        peak_is_upper_bound: cfg!(target_os = "linux"),
    })
}

/// Sends SIGKILL to the process group `pgid` (the program and anything it started). A group
/// that is already gone is not an error.
pub fn kill_group(pgid: i32) {
    if pgid <= 0 {
        return;
    }
    // SAFETY: kill has no memory effects; a negative pid names a process group.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// Sets this process's soft `RLIMIT_STACK` to `bytes` (at most its hard limit); returns the
/// limit set. The next program this process starts gets it as its main thread's stack. (Linux
/// only: XNU refuses to lower it off the main thread.)
#[cfg(target_os = "linux")]
pub fn set_stack_limit(bytes: u64) -> io::Result<u64> {
    let mut limit = get_stack_limit()?;
    limit.rlim_cur = soft_stack_limit(bytes, limit.rlim_max);
    // SAFETY: `limit` is a valid rlimit.
    if unsafe { libc::setrlimit(libc::RLIMIT_STACK, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(limit.rlim_cur as u64)
}

/// The soft stack limit that asks for `bytes` under the hard limit `hard`.
fn soft_stack_limit(bytes: u64, hard: libc::rlim_t) -> libc::rlim_t {
    let wanted = bytes as libc::rlim_t;
    if hard == libc::RLIM_INFINITY {
        wanted
    } else {
        wanted.min(hard)
    }
}

/// The largest stack a program's main thread may have here: the hard `RLIMIT_STACK` (when not
/// unlimited), and on macOS at most the kernel's `maxsmap` (`MAXSSIZ` less the largest page:
/// bsd/kern/kern_resource.c, bsd/{arm,i386}/vmparam.h).
pub fn stack_ceiling() -> Option<u64> {
    let hard = get_stack_limit().ok()?.rlim_max;
    let hard = (hard != libc::RLIM_INFINITY).then_some(hard as u64);
    #[cfg(target_os = "macos")]
    {
        let page_max = if cfg!(target_arch = "aarch64") {
            16 << 10
        } else {
            4 << 10
        };
        let maxsmap = (64 << 20) - page_max;
        Some(hard.map_or(maxsmap, |hard| hard.min(maxsmap)))
    }
    #[cfg(not(target_os = "macos"))]
    {
        hard
    }
}

fn get_stack_limit() -> io::Result<libc::rlimit> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid, writable rlimit.
    if unsafe { libc::getrlimit(libc::RLIMIT_STACK, &mut limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(limit)
}

/// Spawns `program ARGS...` in a process group of its own, its main thread's stack limited to
/// `stack` bytes when given.
#[cfg(target_os = "linux")]
fn spawn_in_group(
    program: &Path,
    args: &[OsString],
    streams: Streams,
    stack: Option<u64>,
) -> io::Result<std::process::Child> {
    let mut command = command(program, args, streams);
    command.process_group(0);
    let Some(bytes) = stack else {
        return command.spawn();
    };
    // Linux lets any thread lower its process's limit back, so the runner sets its own, spawns
    // (the child keeps the limit it started with), and restores it: one spawn at a time.
    static STACK_LIMIT: Mutex<()> = Mutex::new(());
    let _one_at_a_time = STACK_LIMIT.lock().unwrap_or_else(|e| e.into_inner());
    let before = get_stack_limit()?;
    set_stack_limit(bytes)?;
    let spawned = command.spawn();
    // SAFETY: `before` is a valid rlimit read from this process.
    unsafe { libc::setrlimit(libc::RLIMIT_STACK, &before) };
    spawned
}

/// Spawns `program ARGS...` in a process group of its own, its main thread's stack limited to
/// `stack` bytes when given: `/bin/sh -c 'ulimit -S -s KIB && exec "$0" "$@"' PROGRAM ARGS...`,
/// so the limit is set on the main thread of the program's own process (see the module's
/// notes on XNU); the runner's limit is never touched.
#[cfg(not(target_os = "linux"))]
fn spawn_in_group(
    program: &Path,
    args: &[OsString],
    streams: Streams,
    stack: Option<u64>,
) -> io::Result<std::process::Child> {
    let mut command = match stack {
        None => command(program, args, streams),
        Some(bytes) => {
            let hard = get_stack_limit()?.rlim_max;
            let kib = soft_stack_limit(bytes, hard) as u64 / 1024;
            let mut shell_args = vec![
                OsString::from("-c"),
                OsString::from(format!("ulimit -S -s {kib} && exec \"$0\" \"$@\"")),
                program.as_os_str().to_os_string(),
            ];
            shell_args.extend(args.iter().cloned());
            command(Path::new("/bin/sh"), &shell_args, streams)
        }
    };
    command.process_group(0);
    let _one_at_a_time = spawn_lock();
    command.spawn()
}

/// Held while a pipe is made or a program spawned, where std cannot make a pipe whose ends are
/// close-on-exec from the start (macOS and the BSDs have no `pipe2` std uses): see
/// `process::pipe`.
#[cfg(not(target_os = "linux"))]
pub fn spawn_lock() -> std::sync::MutexGuard<'static, ()> {
    static SPAWN: Mutex<()> = Mutex::new(());
    SPAWN.lock().unwrap_or_else(|e| e.into_inner())
}

/// What macOS's `proc_pid_rusage` tells of a running process: its CPU time (user and system)
/// and its runnable time, converted at the kernel's tick rate.
#[cfg(target_os = "macos")]
fn rusage_times(pid: i32) -> Option<(Duration, Duration)> {
    // SAFETY: rusage_info_v4 is plain data for which all-zero bytes are valid.
    let mut info: libc::rusage_info_v4 = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is a writable rusage_info_v4, the flavour asked for.
    let result = unsafe {
        libc::proc_pid_rusage(
            pid,
            libc::RUSAGE_INFO_V4,
            (&mut info as *mut libc::rusage_info_v4).cast(),
        )
    };
    if result != 0 {
        return None;
    }
    let rate = kernel_tick_rate()?;
    let cpu = info.ri_user_time.saturating_add(info.ri_system_time);
    Some((
        super::ticks_to_duration(cpu, rate),
        super::ticks_to_duration(info.ri_runnable_time, rate),
    ))
}

/// The rate of the kernel's Mach ticks, `hw.tbfrequency`, read once.
#[cfg(target_os = "macos")]
fn kernel_tick_rate() -> Option<u64> {
    static RATE: OnceLock<Option<u64>> = OnceLock::new();
    *RATE.get_or_init(|| {
        let mut rate: u64 = 0;
        let mut size = std::mem::size_of::<u64>();
        // SAFETY: the name is NUL-terminated; `rate` is a writable 64-bit integer of `size`
        // bytes, what `hw.tbfrequency` holds (kern_mib.c: "expected as 64 bit values").
        let result = unsafe {
            libc::sysctlbyname(
                c"hw.tbfrequency".as_ptr(),
                (&mut rate as *mut u64).cast(),
                &mut size,
                std::ptr::null_mut(),
                0,
            )
        };
        (result == 0 && rate > 0).then_some(rate)
    })
}

/// The CPU time of a running process: Linux reads `/proc` (see `linux.rs`), macOS asks
/// `proc_pid_rusage`; the BSDs tell only at the end, through `wait4`.
fn running_cpu_time(pid: i32) -> Option<Duration> {
    #[cfg(target_os = "linux")]
    return super::linux::proc_cpu_time(pid);
    #[cfg(target_os = "macos")]
    return rusage_times(pid).map(|(cpu, _)| cpu);
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    {
        let _ = pid;
        None
    }
}

/// The time a running process has been runnable (running or waiting for a CPU): Linux reads
/// `/proc` (see `linux.rs`), macOS asks `proc_pid_rusage`; the BSDs do not tell.
fn running_runnable_time(pid: i32) -> Option<Duration> {
    #[cfg(target_os = "linux")]
    return super::linux::proc_runnable_time(pid);
    #[cfg(target_os = "macos")]
    return rusage_times(pid).map(|(_, runnable)| runnable);
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    {
        let _ = pid;
        None
    }
}

/// A name for a signal.
pub fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        _ => return None,
    })
}

/// The process groups this runner started that are still running, where a signal handler can
/// read them: fixed slots of atomics (a handler may not lock or allocate).
struct LiveGroups;

const SLOTS: usize = 256;
static LIVE: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

impl LiveGroups {
    /// Notes the group `pgid`; the slot it took, or `None` when all are taken (then only the
    /// `Drop` of its `Process` ends it early).
    fn add(pgid: i32) -> Option<usize> {
        (0..SLOTS).find(|&i| {
            LIVE[i]
                .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
    }

    /// Forgets a group before its leader is reaped.
    fn remove(slot: Option<usize>) {
        if let Some(i) = slot {
            LIVE[i].store(0, Ordering::SeqCst);
        }
    }
}

/// The signals after which the runner kills its live groups before it dies.
const FATAL: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Readies the runner, once, before its first program: `SIGCHLD` back to its default action
/// (an ignored `SIGCHLD`, inherited from whoever started the runner, makes the kernel reap
/// children unasked, and `wait4` then fails with `ECHILD`), and handlers for [`FATAL`] that
/// kill every live group, then die of the signal as they would have. Signals the runner's
/// caller chose to ignore stay ignored.
pub fn prepare_runner() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        restore_sigchld();
        for signal in FATAL {
            // SAFETY: sigaction is plain data for which all-zero bytes are valid.
            let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
            // SAFETY: reading the current action into a valid, writable sigaction.
            if unsafe { libc::sigaction(signal, std::ptr::null(), &mut old) } != 0
                || old.sa_sigaction != libc::SIG_DFL
            {
                // Ignored, or someone else's handler: leave it.
                continue;
            }
            // SAFETY: as above.
            let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
            action.sa_sigaction = on_fatal_signal as extern "C" fn(libc::c_int) as usize;
            // SAFETY: `action` is valid and its handler only makes async-signal-safe calls.
            unsafe { libc::sigaction(signal, &action, std::ptr::null_mut()) };
        }
    });
}

/// Sets `SIGCHLD` back to its default action if it is ignored, so that this process's children
/// stay for it to reap.
pub fn restore_sigchld() {
    // SAFETY: sigaction is plain data for which all-zero bytes are valid.
    let mut child: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: reading the current action into a valid, writable sigaction.
    let read = unsafe { libc::sigaction(libc::SIGCHLD, std::ptr::null(), &mut child) };
    if read == 0 && child.sa_sigaction == libc::SIG_IGN {
        // SAFETY: setting SIGCHLD's default action takes an integer and touches no memory.
        unsafe { libc::signal(libc::SIGCHLD, libc::SIG_DFL) };
    }
}

/// Kills every live group, restores the default action and raises the signal again.
extern "C" fn on_fatal_signal(signal: libc::c_int) {
    for slot in &LIVE {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            kill_group(pgid);
        }
    }
    // SAFETY: signal and raise are async-signal-safe and take integers.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn streams() -> Streams {
        Streams {
            stdin: Stream::Null,
            stdout: Stream::Null,
            stderr: Stream::Null,
        }
    }

    fn sh(script: &str) -> Direct {
        let args = [OsString::from("-c"), OsString::from(script)];
        Direct::start(Path::new("/bin/sh"), &args, streams(), &Setup::default()).unwrap()
    }

    #[test]
    fn an_exit_code_and_a_signal_are_told_apart() {
        assert_eq!(sh("exit 3").finish().unwrap().exit, Exit::Code(3));
        let ended = sh("kill -SEGV $$").finish().unwrap();
        assert_eq!(ended.exit, Exit::Signal(libc::SIGSEGV));
        assert!(ended.cpu_time.is_some());
    }

    #[test]
    fn a_kill_ends_the_program_and_what_it_started() {
        // The shell starts a sleeping child and waits: killing the group ends both at once.
        let mut direct = sh("sleep 30 & wait");
        assert!(!direct.wait_timeout(Duration::from_millis(50)).unwrap());
        let start = Instant::now();
        direct.kill();
        let ended = direct.finish().unwrap();
        assert_eq!(ended.exit, Exit::Signal(libc::SIGKILL));
        assert!(start.elapsed() < Duration::from_secs(5));
        // Its group is gone: signalling it fails, once the orphaned sleeper (dead, a zombie
        // until init reaps it) is reaped.
        // SAFETY: kill with signal 0 only checks that the group exists.
        let alive = || unsafe { libc::kill(-direct.pid, 0) } == 0;
        let waited = Instant::now();
        while alive() && waited.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(), "the sleeping child outlived the kill");
    }

    #[test]
    fn a_stack_limit_reaches_the_program_and_not_the_runner() {
        let before = get_stack_limit().unwrap();
        let (read, write) = io::pipe().unwrap();
        let args = [OsString::from("-c"), OsString::from("ulimit -s")];
        let setup = Setup {
            stack: Some(64 << 20),
            ..Setup::default()
        };
        let streams = Streams {
            stdout: Stream::from(write),
            ..streams()
        };
        let mut direct = Direct::start(Path::new("/bin/sh"), &args, streams, &setup).unwrap();
        let mut said = String::new();
        io::Read::read_to_string(&mut { read }, &mut said).unwrap();
        direct.finish().unwrap();
        let expected = soft_stack_limit(64 << 20, before.rlim_max) as u64 / 1024;
        assert_eq!(said.trim(), expected.to_string());
        assert_eq!(get_stack_limit().unwrap().rlim_cur, before.rlim_cur);
    }
}
