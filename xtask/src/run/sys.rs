//! The few Unix calls std has no safe API for: waiting for a child without reaping it
//! (`waitid` with `WNOWAIT`), reaping it with its resource usage (`wait4`: peak memory and CPU
//! time of that one child), killing its process group, and sleeping until it exits (a pidfd).
//!
//! This is the only module of the workspace that uses `unsafe`; each block is one libc call on
//! values owned here.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::Duration;

/// How a reaped child ended, and what it used.
#[derive(Debug, Clone, Copy)]
pub struct Reaped {
    /// `Ok(code)` for a normal exit, `Err(signal)` when a signal ended it.
    pub status: Result<i32, i32>,
    /// Peak resident set size, in bytes (`ru_maxrss`).
    pub peak_memory: u64,
    /// User plus system CPU time.
    pub cpu: Duration,
}

/// Whether the child `pid` has ended, without reaping it (it stays a zombie, so its pid and
/// process group cannot be reused until `reap`).
pub fn has_exited(pid: i32) -> io::Result<bool> {
    // SAFETY: siginfo_t is plain data for which all-zero bytes are valid.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    loop {
        // SAFETY: `info` is a valid, writable siginfo_t.
        let result = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) };
        if result == 0 {
            // SAFETY: waitid filled `info` (or left it zeroed: si_pid 0 = still running).
            return Ok(unsafe { info.si_pid() } != 0);
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

/// Reaps the child `pid` (blocking until it ends) and returns its status and resource usage.
pub fn reap(pid: i32) -> io::Result<Reaped> {
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
    let status = if libc::WIFEXITED(status) {
        Ok(libc::WEXITSTATUS(status))
    } else {
        Err(libc::WTERMSIG(status))
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Ok(Reaped {
        status,
        // Linux reports ru_maxrss in KiB.
        peak_memory: usage.ru_maxrss.max(0) as u64 * 1024,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
    })
}

/// Makes `command` start its child with fork(2) rather than posix_spawn's vfork.
///
/// Linux carries the address space a process had before exec into its `ru_maxrss`: after a
/// vfork that is the runner's whole peak (including, say, a 64 MiB output buffer of an earlier
/// case), after a fork only the anonymous pages the runner holds at that moment. Fork keeps a
/// child's reported peak close to its own.
pub fn spawn_with_fork(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure does nothing, so it is async-signal-safe; its mere presence makes std
    // use fork + exec.
    unsafe {
        command.pre_exec(|| Ok(()));
    }
}

/// Sends SIGKILL to the process group `pgid` (the child and anything it started). A group that
/// is already gone is not an error.
pub fn kill_group(pgid: i32) {
    // SAFETY: kill has no memory effects; a negative pid names a process group.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// Sleeps until a child ends or a timeout passes: poll(2) on a pidfd, or plain sleeps where the
/// kernel has no pidfd_open (before Linux 5.3).
#[derive(Debug)]
pub struct ExitWatch {
    pidfd: Option<OwnedFd>,
}

impl ExitWatch {
    /// Watches the child `pid`.
    pub fn new(pid: i32) -> ExitWatch {
        // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        let pidfd = (fd >= 0).then(|| {
            // SAFETY: `fd` is a fresh descriptor that nothing else owns.
            unsafe { OwnedFd::from_raw_fd(fd as i32) }
        });
        ExitWatch { pidfd }
    }

    /// Returns when the child has ended or `timeout` has passed, whichever is first (or early,
    /// on a signal).
    pub fn wait(&self, timeout: Duration) {
        match &self.pidfd {
            Some(fd) => {
                let mut poll = libc::pollfd {
                    fd: fd.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                };
                let millis = timeout.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
                // SAFETY: `poll` is one valid pollfd.
                unsafe {
                    libc::poll(&mut poll, 1, millis);
                }
            }
            None => std::thread::sleep(timeout.min(Duration::from_millis(1))),
        }
    }
}
