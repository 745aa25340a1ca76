//! The few Unix calls std has no safe API for: waiting for a child without reaping it
//! (`waitid` with `WNOWAIT`), reaping it with its resource usage (`wait4`: peak memory and CPU
//! time of that one child), killing its process group, sleeping until it exits (a pidfd), and
//! the launcher's plumbing (a report pipe handed over as descriptor 3, dying with the parent).
//!
//! This is the only module of the workspace that uses `unsafe`; each block is one libc call on
//! values owned here.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

/// How a reaped child ended, and what it used.
#[derive(Debug, Clone, Copy)]
pub struct Reaped {
    /// `Ok(code)` for a normal exit, `Err(signal)` when a signal ended it.
    pub status: Result<i32, i32>,
    /// Peak resident set size, in bytes (`ru_maxrss`).
    pub peak_memory: u64,
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
    Ok(Reaped {
        status,
        // Linux reports ru_maxrss in KiB.
        peak_memory: usage.ru_maxrss.max(0) as u64 * 1024,
    })
}

/// A pipe for the launcher's report, both ends close-on-exec: (read end, write end).
pub fn report_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
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
pub fn hand_over_report_fd(command: &mut Command, fd: i32, target: i32) {
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

/// Makes `command`'s child (forked, not vforked) die when the process that started it dies.
pub fn die_with_parent_after_fork(command: &mut Command) {
    // SAFETY: prctl is async-signal-safe and touches no memory of ours.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}

/// Makes this process die when the process that started it dies.
pub fn die_with_parent() -> io::Result<()> {
    // SAFETY: prctl with these arguments only sets a flag of this process.
    if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The launcher's report descriptor as a file, marked close-on-exec so the program it starts
/// does not inherit it.
pub fn take_report_fd(fd: i32) -> io::Result<File> {
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
pub fn release_standard_streams() {
    if let Ok(null) = File::options().read(true).write(true).open("/dev/null") {
        for target in 0..=2 {
            // SAFETY: dup2 onto the standard descriptors, which std does not own as objects.
            unsafe { libc::dup2(null.as_raw_fd(), target) };
        }
    }
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
