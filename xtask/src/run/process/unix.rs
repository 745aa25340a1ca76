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
//! - a stack limit is set in the program's own process by the exec launcher, the xtask's own
//!   executable run again ([`exec_if_asked`]), which sets it on its main thread and `exec`s the
//!   program: `dosetrlimit` (bsd/kern/kern_resource.c) refuses to lower `RLIMIT_STACK` with
//!   `EINVAL` unless the caller runs on the main thread's stack, so the runner, whose spawns
//!   happen on other threads, could raise its own limit and never lower it back. The stack
//!   usable so is at most `maxsmap` (`MAXSSIZ` less a page, 64 MiB) whatever the limit says,
//!   which [`stack_ceiling`] tells, and a limit past it would fail the `exec` ([`soft_stack_limit`]
//!   clamps it); the judge build links its solvers with their stack instead (`build::StackAt`),
//!   which XNU gives whole. The launcher says on a pipe why it could not `exec` a program, so a
//!   missing one is the runner's error, never a program that "exited 127"; unlike `/bin/sh`, it
//!   is no program System Integrity Protection guards, so the solution keeps `DYLD_*` ("purged
//!   when launching protected processes": Apple's System Integrity Protection Guide, "Runtime
//!   Protections");
//! - CPU and runnable time are the program's and every process it started that is still its
//!   descendant (`proc_listchildpids`), with the children they waited for
//!   (`ri_child_user_time`), as Windows' job accounting counts them, in Mach ticks at the
//!   kernel's rate, `hw.tbfrequency` (`sysctl_tbfrequency` in bsd/kern/kern_mib.c), not at the
//!   rate `mach_timebase_info` gives a process, which differs under Rosetta; the runnable time is the threads' `runnable_timer`,
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
//! Every `unsafe` call of the Unix runner is in this file or `linux/`, each with its SAFETY
//! line.
#![allow(unsafe_code)]

use std::ffi::OsString;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, Once, OnceLock};
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
    /// The exec launcher's report, when the program was started through it: see
    /// [`launch_failure`].
    launch_report: Option<std::fs::File>,
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
        let (child, launch_report) = spawn_in_group(program, args, streams, setup)
            .map_err(|err| cannot_run(program, err))?;
        let pid = child.id() as i32;
        // The waiter reaps it; std's handle must not wait for it too (dropping it does not).
        drop(child);
        let slot = LiveGroups::add(pid);
        #[cfg(target_os = "linux")]
        if let Some(pidfd) = super::linux::kernel::pidfd_open(pid) {
            return Ok(Direct {
                pid,
                waiter: Waiter::Pidfd { pidfd, slot },
                result: None,
                launch_report,
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
            launch_report,
        })
    }

    /// Waits until the program has ended (and is reaped) or `timeout` has passed. A program
    /// the exec launcher could not run has not ended: it is the runner's error.
    pub fn wait_timeout(&mut self, timeout: Duration) -> io::Result<bool> {
        if self.result.is_some() {
            return Ok(true);
        }
        let result = match &self.waiter {
            #[cfg(target_os = "linux")]
            Waiter::Pidfd { pidfd, slot } => {
                if !super::linux::kernel::poll_readable(pidfd, timeout)? {
                    return Ok(false);
                }
                wait_and_clear_group(self.pid).and_then(|()| {
                    LiveGroups::remove(*slot);
                    reap(self.pid)
                })
            }
            Waiter::Thread { ended, .. } => match received(ended, timeout, "the watcher")? {
                Some(result) => result,
                None => return Ok(false),
            },
        };
        let failed = self.launch_report.take().and_then(launch_failure);
        self.result = Some(match failed {
            Some(why) => Err(io::Error::other(why)),
            None => result,
        });
        Ok(true)
    }

    /// The CPU time used so far, where the system tells it of a running process.
    pub fn cpu_time(&self) -> Option<Duration> {
        running_cpu_time(self.pid)
    }

    /// The time runnable so far (running or waiting for a CPU), where the system tells it.
    pub fn runnable_time(&self) -> Option<Duration> {
        running_runnable_time(self.pid)
    }

    /// The resident memory now (the program's own), where the system tells it.
    pub fn resident_memory(&self) -> Option<u64> {
        running_resident_memory(self.pid)
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
        commit: None,
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

/// Sets this process's soft `RLIMIT_STACK` to `bytes`, at most its hard limit and the most
/// the kernel makes usable ([`soft_stack_limit`]); returns the limit set. The next program
/// this process starts, or `exec`s, gets it as its main thread's stack. (XNU refuses to lower
/// it off the main thread: on macOS only a launcher's `main` calls this.)
pub fn set_stack_limit(bytes: u64) -> io::Result<u64> {
    let mut limit = get_stack_limit()?;
    limit.rlim_cur = soft_stack_limit(bytes, limit.rlim_max, kernel_stack_most());
    // SAFETY: `limit` is a valid rlimit.
    if unsafe { libc::setrlimit(libc::RLIMIT_STACK, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(limit.rlim_cur as u64)
}

/// The soft stack limit that asks for `bytes` under the hard limit `hard` on a kernel that
/// makes at most `kernel_most` of a main thread's stack usable. XNU keeps a limit past its
/// `maxsmap` as asked (`dosetrlimit`, bsd/kern/kern_resource.c) and, at the next `exec`, takes
/// the whole of it from a stack of `MAXSSIZ` (`create_unix_stack`, bsd/kern/kern_exec.c:
/// `size - user_stack_size` underflows, and the `exec` fails): with an unlimited hard limit
/// (root's, say) nothing else would clamp it.
fn soft_stack_limit(bytes: u64, hard: libc::rlim_t, kernel_most: Option<u64>) -> libc::rlim_t {
    let wanted = kernel_most.map_or(bytes, |most| bytes.min(most)) as libc::rlim_t;
    if hard == libc::RLIM_INFINITY {
        wanted
    } else {
        wanted.min(hard)
    }
}

/// The most of a main thread's stack set by `RLIMIT_STACK` that the kernel makes usable: on
/// macOS `maxsmap`, `MAXSSIZ` less the largest page (bsd/kern/kern_resource.c,
/// bsd/{arm,i386}/vmparam.h); elsewhere the limit is the stack.
fn kernel_stack_most() -> Option<u64> {
    if cfg!(target_os = "macos") {
        let page_max: u64 = if cfg!(target_arch = "aarch64") {
            16 << 10
        } else {
            4 << 10
        };
        Some((64 << 20) - page_max)
    } else {
        None
    }
}

/// The largest stack a program's main thread may have here when the stack is set as it starts
/// (not linked into it): the hard `RLIMIT_STACK` (when not unlimited), and at most
/// [`kernel_stack_most`].
pub fn stack_ceiling() -> Option<u64> {
    let hard = get_stack_limit().ok()?.rlim_max;
    let hard = (hard != libc::RLIM_INFINITY).then_some(hard as u64);
    match (hard, kernel_stack_most()) {
        (Some(hard), Some(most)) => Some(hard.min(most)),
        (hard, most) => hard.or(most),
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
/// `stack` bytes when given. No launch report: the program is spawned itself.
#[cfg(target_os = "linux")]
fn spawn_in_group(
    program: &Path,
    args: &[OsString],
    streams: Streams,
    setup: &Setup,
) -> io::Result<(std::process::Child, Option<std::fs::File>)> {
    let mut command = command(program, args, streams, &setup.environment);
    command.process_group(0);
    let Some(bytes) = setup.stack else {
        return Ok((command.spawn()?, None));
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
    Ok((spawned?, None))
}

/// Spawns `program ARGS...` in a process group of its own, its main thread's stack limited to
/// `stack` bytes when given: through the exec launcher (`XTASK __xtask_exec FD BYTES PROGRAM
/// ARGS...`, [`exec_if_asked`]), which sets the limit on the main thread of the program's own
/// process and `exec`s it (see the module's notes on XNU); the runner's limit is never touched.
/// Returns the read end of the launch report, where the launcher says why it could not `exec`
/// the program (see [`launch_failure`]).
#[cfg(not(target_os = "linux"))]
fn spawn_in_group(
    program: &Path,
    args: &[OsString],
    streams: Streams,
    setup: &Setup,
) -> io::Result<(std::process::Child, Option<std::fs::File>)> {
    use std::os::fd::AsRawFd;
    let _one_at_a_time = spawn_lock();
    let Some(bytes) = setup.stack else {
        let mut command = command(program, args, streams, &setup.environment);
        command.process_group(0);
        return Ok((command.spawn()?, None));
    };
    let launcher = launcher()?;
    // Made, handed to the launcher alone and closed here while no other program of ours
    // starts (the lock): only the launcher inherits the write end.
    let (read, write) = io::pipe()?;
    keep_across_exec(write.as_raw_fd())?;
    let mut launcher_args = vec![
        OsString::from(EXEC_ARG),
        OsString::from(write.as_raw_fd().to_string()),
        OsString::from(bytes.to_string()),
        program.as_os_str().to_os_string(),
    ];
    launcher_args.extend(args.iter().cloned());
    let mut command = command(&launcher, &launcher_args, streams, &setup.environment);
    command.process_group(0);
    let child = command
        .spawn()
        .map_err(|err| launcher_failed(&launcher, err))?;
    drop(command);
    drop(write);
    let read = std::fs::File::from(std::os::fd::OwnedFd::from(read));
    set_nonblocking(read.as_raw_fd())?;
    Ok((child, Some(read)))
}

/// The first argument that makes the xtask's executable the exec launcher.
pub const EXEC_ARG: &str = "__xtask_exec";

static LAUNCHER: OnceLock<PathBuf> = OnceLock::new();

/// Names the executable that starts programs (one whose `main` calls
/// `process::launch_if_asked` first): the xtask binary. Without a call, the current executable
/// is used; tests of the library call this with `env!("CARGO_BIN_EXE_xtask")`. The first call
/// wins.
pub fn set_launcher(path: &Path) {
    let _ = LAUNCHER.set(path.to_path_buf());
}

/// The error for a launcher that could not be started, naming it.
pub fn launcher_failed(launcher: &Path, err: io::Error) -> io::Error {
    io::Error::new(
        err.kind(),
        format!("cannot start the launcher {}: {err}", launcher.display()),
    )
}

/// The launcher named by [`set_launcher`], or this executable.
pub fn launcher() -> io::Result<PathBuf> {
    match LAUNCHER.get() {
        Some(path) => Ok(path.clone()),
        None => std::env::current_exe(),
    }
}

/// When this process was started as the exec launcher (`XTASK __xtask_exec FD BYTES PROGRAM
/// ARGS...`): sets its soft `RLIMIT_STACK` to BYTES ([`set_stack_limit`]) on its main thread,
/// where XNU allows it, and `exec`s PROGRAM (searched on `PATH` as `execvp` does), which keeps
/// the process (its pid, its group, its standard streams) and the limit. If that fails, writes
/// why on the descriptor FD (close-on-exec, so the program never holds it) and exits 127; the
/// runner reads it and fails as it would for a program it could not spawn itself, so a missing
/// program is the tool's error and never a program that exited 127. Being the xtask and not
/// `/bin/sh`, which System Integrity Protection guards, it keeps the `DYLD_*` variables that
/// macOS strips from a protected program's environment (Apple, "Runtime Protections"). Its own
/// memory is not the program's: XNU runs the `exec`ed image in a new task
/// (`proc_exec_switch_task`, bsd/kern/kern_exec.c), whose peak `wait4` reports.
pub fn exec_if_asked() -> Option<std::process::ExitCode> {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    let mut args = std::env::args_os().skip(1);
    if args.next()? != EXEC_ARG {
        return None;
    }
    let fd: i32 = args.next()?.to_str()?.parse().ok()?;
    let bytes: u64 = args.next()?.to_str()?.parse().ok()?;
    let program = args.next()?;
    let rest: Vec<OsString> = args.collect();
    if fd > 2 {
        // SAFETY: fcntl on an integer descriptor has no memory effects.
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    let err = match set_stack_limit(bytes) {
        Ok(_) => std::process::Command::new(&program).args(&rest).exec(),
        Err(err) => err,
    };
    // SAFETY: the runner opened `fd` for this process alone, and nothing else here owns it.
    let mut report = unsafe { std::fs::File::from_raw_fd(fd) };
    let _ = write!(
        report,
        "cannot run {}: {err}",
        Path::new(&program).display()
    );
    Some(std::process::ExitCode::from(127))
}

/// What the exec launcher said on its report before it ended, read without waiting: why it
/// could not `exec` the program, or `None` when it said nothing (it did `exec` it).
pub fn launch_failure(mut report: impl io::Read) -> Option<String> {
    let mut said = Vec::new();
    let mut chunk = [0u8; 1024];
    loop {
        match report.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => said.extend_from_slice(&chunk[..n]),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            // WouldBlock: the launcher became the program, which holds no end of it.
            Err(_) => break,
        }
    }
    (!said.is_empty()).then(|| String::from_utf8_lossy(&said).into_owned())
}

/// Clears close-on-exec on `fd`, so the next program spawned inherits it.
#[cfg(not(target_os = "linux"))]
fn keep_across_exec(fd: i32) -> io::Result<()> {
    // SAFETY: fcntl on an integer descriptor has no memory effects.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Makes reads of `fd` return at once when there is nothing to read.
#[cfg(any(test, not(target_os = "linux")))]
fn set_nonblocking(fd: i32) -> io::Result<()> {
    // SAFETY: fcntl on an integer descriptor has no memory effects.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Held while a pipe is made or a program spawned, where std cannot make a pipe whose ends are
/// close-on-exec from the start (macOS and the BSDs have no `pipe2` std uses): see
/// `process::pipe`.
#[cfg(not(target_os = "linux"))]
pub fn spawn_lock() -> std::sync::MutexGuard<'static, ()> {
    static SPAWN: Mutex<()> = Mutex::new(());
    SPAWN.lock().unwrap_or_else(|e| e.into_inner())
}

/// What macOS's `proc_pid_rusage` tells of a running process and every process it started
/// that is still its descendant: their CPU time (user and system, and that of the children
/// they waited for: `ri_child_user_time` and `ri_child_system_time`, which `proc_reap` adds
/// up, `update_rusage_info_child` in bsd/kern/kern_resource.c) and their runnable time (each
/// one's `ri_runnable_time` and its waited-for children's CPU time), at the kernel's tick rate.
/// Each process is read before its children (`proc_listchildpids`, libproc.c), so a child that
/// its parent reaps meanwhile is missed for one look, never counted twice (Linux reads `/proc`
/// the same way: `procfs.rs`).
#[cfg(target_os = "macos")]
fn rusage_times(pid: i32) -> Option<(Duration, Duration)> {
    let rate = kernel_tick_rate()?;
    let (mut cpu, mut runnable) = (0u64, 0u64);
    let mut to_read = vec![pid];
    let mut read = 0;
    while let Some(next) = to_read.pop() {
        read += 1;
        if read > 4096 {
            break;
        }
        let Some(info) = rusage_of(next) else {
            if next == pid {
                return None;
            }
            continue;
        };
        let children = info
            .ri_child_user_time
            .saturating_add(info.ri_child_system_time);
        let own = info.ri_user_time.saturating_add(info.ri_system_time);
        cpu = cpu.saturating_add(own).saturating_add(children);
        runnable = runnable
            .saturating_add(info.ri_runnable_time)
            .saturating_add(children);
        to_read.extend(child_pids(next));
    }
    Some((
        super::ticks_to_duration(cpu, rate),
        super::ticks_to_duration(runnable, rate),
    ))
}

/// `proc_pid_rusage`'s figures of one process, `None` once it is gone.
#[cfg(target_os = "macos")]
fn rusage_of(pid: i32) -> Option<libc::rusage_info_v4> {
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
    (result == 0).then_some(info)
}

/// The pids of `pid`'s children (at most 256 of them).
#[cfg(target_os = "macos")]
fn child_pids(pid: i32) -> Vec<i32> {
    let mut pids = vec![0 as libc::pid_t; 256];
    let bytes = i32::try_from(std::mem::size_of_val(&pids[..])).unwrap_or(i32::MAX);
    // SAFETY: `pids` is a writable buffer of `bytes` bytes; the call writes at most that many
    // and returns how many pids it wrote (libproc.c: the byte count over sizeof(int)).
    let count = unsafe { libc::proc_listchildpids(pid, pids.as_mut_ptr().cast(), bytes) };
    pids.truncate(usize::try_from(count).unwrap_or(0).min(256));
    pids.retain(|&child| child > 0);
    pids
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

/// The CPU time of a running process: Linux reads `/proc` (see `linux/kernel.rs`), macOS asks
/// `proc_pid_rusage`; the BSDs tell only at the end, through `wait4`.
fn running_cpu_time(pid: i32) -> Option<Duration> {
    #[cfg(target_os = "linux")]
    return super::linux::kernel::proc_cpu_time(pid);
    #[cfg(target_os = "macos")]
    return rusage_times(pid).map(|(cpu, _)| cpu);
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    {
        let _ = pid;
        None
    }
}

/// The time a running process has been runnable (running or waiting for a CPU): Linux reads
/// `/proc` (see `linux/kernel.rs`), macOS asks `proc_pid_rusage`; the BSDs do not tell.
fn running_runnable_time(pid: i32) -> Option<Duration> {
    #[cfg(target_os = "linux")]
    return super::linux::kernel::proc_runnable_time(pid);
    #[cfg(target_os = "macos")]
    return rusage_times(pid).map(|(_, runnable)| runnable);
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    {
        let _ = pid;
        None
    }
}

/// The resident memory of a running process (its own, not its children's), the figure whose
/// peak `wait4` reports at its end: Linux reads `/proc` (see `linux/kernel.rs`), macOS asks
/// `proc_pid_rusage` (`ri_resident_size`, in bytes); the BSDs do not tell.
fn running_resident_memory(pid: i32) -> Option<u64> {
    #[cfg(target_os = "linux")]
    return super::linux::kernel::proc_resident_memory(pid);
    #[cfg(target_os = "macos")]
    return rusage_of(pid).map(|info| info.ri_resident_size);
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

/// Whether the process `pid` is still running (or a zombie not yet reaped): `kill(pid, 0)`
/// checks that it exists without sending anything, and fails with `ESRCH` only when no process
/// has that id (POSIX, kill(3p)); one of another user's (`EPERM`) counts as running.
pub fn is_running(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    if pid <= 0 {
        return true;
    }
    // SAFETY: signal 0 sends nothing; kill takes two integers.
    let checked = unsafe { libc::kill(pid, 0) };
    checked == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
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
        let expected = soft_stack_limit(64 << 20, before.rlim_max, kernel_stack_most()) / 1024;
        assert_eq!(said.trim(), expected.to_string());
        assert_eq!(get_stack_limit().unwrap().rlim_cur, before.rlim_cur);
    }

    #[test]
    fn a_stack_limit_is_clamped_to_what_the_kernel_makes_usable() {
        let mib = |n: u64| n << 20;
        let maxsmap = Some(mib(64) - (16 << 10));
        // Root's unlimited hard limit: XNU would keep 256 MB and fail the exec; asked for no
        // more than maxsmap, it gives all of it.
        let unlimited = libc::RLIM_INFINITY;
        assert_eq!(
            soft_stack_limit(mib(256), unlimited, maxsmap),
            mib(64) - (16 << 10)
        );
        assert_eq!(soft_stack_limit(mib(8), unlimited, maxsmap), mib(8));
        // A hard limit below both wins; Linux's kernel takes any limit.
        assert_eq!(soft_stack_limit(mib(256), mib(32), maxsmap), mib(32));
        assert_eq!(soft_stack_limit(mib(256), unlimited, None), mib(256));
        assert_eq!(soft_stack_limit(mib(256), mib(100), None), mib(100));
    }

    #[test]
    fn the_launchers_report_tells_a_failed_exec_and_nothing_else() {
        let (read, mut write) = io::pipe().unwrap();
        io::Write::write_all(&mut write, b"cannot run nope: No such file or directory").unwrap();
        drop(write);
        assert_eq!(
            launch_failure(read).as_deref(),
            Some("cannot run nope: No such file or directory")
        );
        // An exec that succeeded closed the launcher's end: nothing was said.
        let (read, write) = io::pipe().unwrap();
        drop(write);
        assert_eq!(launch_failure(read), None);
        // A stray holder of the write end (a program spawned elsewhere meanwhile) never makes
        // the runner wait: the read end does not block.
        let (read, write) = io::pipe().unwrap();
        let read = std::fs::File::from(std::os::fd::OwnedFd::from(read));
        set_nonblocking(std::os::fd::AsRawFd::as_raw_fd(&read)).unwrap();
        let waited = Instant::now();
        assert_eq!(launch_failure(read), None);
        assert!(waited.elapsed() < Duration::from_secs(1));
        drop(write);
    }
}
