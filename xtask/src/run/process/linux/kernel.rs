//! What Linux tells beside POSIX, for the runner: a process's pidfd and a wait on it, the
//! calling thread's id, and the live figures of `/proc` (read through `procfs.rs`, and only
//! from this PID namespace's own `/proc`). `unix.rs` waits on pidfds and reads the figures
//! here; the launcher (`mod.rs`) reports them.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use super::procfs;

/// The `/proc` the runner reads, when it is this process's own: a PID namespace whose `/proc`
/// is another's (a container that shares its host's) would give another process's figures for
/// a pid, so there none is read, said once on stderr, and the time limit is kept on the wall
/// clock while a program runs (its CPU time still comes from `wait4` at its end).
fn proc_root() -> Option<&'static Path> {
    static OURS: OnceLock<bool> = OnceLock::new();
    let root = Path::new("/proc");
    let ours = *OURS.get_or_init(|| {
        let ours = procfs::is_ours(root, std::process::id());
        if !ours {
            eprintln!(
                "note: /proc is not this PID namespace's own, so no CPU time is read while a \
                 program runs: its time limit is kept on the wall clock"
            );
        }
        ours
    });
    ours.then_some(root)
}

/// The CPU time (user and system) a running process and everything it started have used, from
/// `/proc` (see `procfs.rs`).
pub fn proc_cpu_time(pid: i32) -> Option<Duration> {
    procfs::tree_times(proc_root()?, pid, clock_ticks(), false).map(|t| t.cpu)
}

/// The time a running process and everything it started have been runnable: their CPU time
/// and their live threads' waits on a run queue for a CPU (see `procfs.rs`). A thread that has
/// ended takes its waits with it, so the figure errs low, which only ever lets a program run
/// longer. `None` where the kernel keeps no such figures: then the CPU time is no stand-in,
/// and the cap on waiting is kept on the wall clock.
pub fn proc_runnable_time(pid: i32) -> Option<Duration> {
    procfs::tree_times(proc_root()?, pid, clock_ticks(), true)?.runnable
}

/// The resident memory of a running process, its own (see `procfs.rs`).
pub fn proc_resident_memory(pid: i32) -> Option<u64> {
    procfs::resident_memory(proc_root()?, pid)
}

/// The id of the calling thread (`gettid`).
pub fn current_thread() -> i32 {
    // SAFETY: gettid takes nothing and returns the caller's thread id.
    unsafe { libc::syscall(libc::SYS_gettid) as i32 }
}

/// How long the thread `tid` of this process has been runnable (see `procfs.rs`).
pub fn thread_runnable_time(tid: i32) -> Option<Duration> {
    procfs::own_thread_runnable(proc_root()?, tid)
}

/// Whether this Linux tells how long a program was runnable: `/proc` is ours and its
/// `schedstat` says more than `0 0 0`.
pub fn tells_runnable_time() -> bool {
    static TELLS: OnceLock<bool> = OnceLock::new();
    *TELLS.get_or_init(|| proc_root().is_some_and(procfs::tells_waits))
}

/// Clock ticks per second (`sysconf(_SC_CLK_TCK)`, 100 on every Linux in use).
fn clock_ticks() -> u64 {
    static TICKS: OnceLock<u64> = OnceLock::new();
    *TICKS.get_or_init(|| {
        // SAFETY: sysconf takes an integer and touches no memory of ours.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if ticks > 0 {
            ticks as u64
        } else {
            100
        }
    })
}

/// A pidfd for the child `pid` (Linux 5.3 and later; `None` before): readable once it ends.
pub fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a non-negative result is a fresh descriptor that nothing else owns.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Waits until `fd` is readable or `timeout` has passed; whether it is readable.
pub fn poll_readable(fd: &OwnedFd, timeout: Duration) -> io::Result<bool> {
    let mut poll = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let millis = timeout.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
    // SAFETY: `poll` is one valid, writable pollfd.
    match unsafe { libc::poll(&mut poll, 1, millis) } {
        n if n > 0 => Ok(true),
        0 => Ok(false),
        _ => {
            let err = io::Error::last_os_error();
            match err.kind() {
                io::ErrorKind::Interrupted => Ok(false),
                _ => Err(err),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_time_of_a_running_process_is_read_from_proc() {
        let own = proc_cpu_time(std::process::id() as i32);
        assert!(own.is_some());
        assert_eq!(proc_cpu_time(-1), None);
        assert_eq!(proc_runnable_time(-1), None);
    }
}
