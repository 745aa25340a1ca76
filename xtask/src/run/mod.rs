//! Running one executable on one input, as a judge does: a time limit enforced by killing the
//! program's process group, stdout read up to a cap (never buffered past it), the tail of
//! stderr, and the program's own peak memory and CPU time from the kernel (`wait4`, taken by
//! the [`launch`]er so that the runner's memory never counts).

pub mod interact;
pub mod launch;
mod sys;

pub use launch::{launch_if_asked, set_launcher};

use std::ffi::OsStr;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// What `run` holds a child to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time after which the child's process group is killed.
    pub time: Duration,
    /// Bytes of stdout kept; one byte more and the child is stopped (OLE).
    pub output_cap: u64,
}

/// The default stdout cap: 64 MiB.
pub const DEFAULT_OUTPUT_CAP: u64 = 64 * 1024 * 1024;

/// Bytes of stderr kept (the end of it).
pub const STDERR_TAIL: usize = 4096;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The child exited by itself with this status.
    Code(i32),
    /// A signal the runner did not send ended the child.
    Signal(i32),
    /// The runner killed the child at the time limit.
    TimedOut,
    /// The child wrote more than the output cap; the runner stopped it.
    OutputCapped,
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Exit::Code(code) => write!(f, "exit status {code}"),
            Exit::Signal(signal) => match signal_name(signal) {
                Some(name) => write!(f, "killed by signal {signal} ({name})"),
                None => write!(f, "killed by signal {signal}"),
            },
            Exit::TimedOut => f.write_str("killed at the time limit"),
            Exit::OutputCapped => f.write_str("stopped at the output cap"),
        }
    }
}

fn signal_name(signal: i32) -> Option<&'static str> {
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

/// What one run produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub exit: Exit,
    /// Wall-clock time from spawn to exit (about the limit for `TimedOut`).
    pub time: Duration,
    /// The child's peak resident set size, in bytes.
    pub peak_memory: u64,
    /// Everything written to stdout, up to the cap (its capacity never exceeds the cap either).
    pub stdout: Vec<u8>,
    /// The last `STDERR_TAIL` bytes written to stderr.
    pub stderr_tail: Vec<u8>,
}

/// Runs `program ARGS...` with stdin from the file `stdin` (or empty), under `limits`.
///
/// The program is started through the launcher ([`launch`]), so its peak memory is its own. It
/// gets a process group of its own, which is killed at the time limit, at the output cap, and
/// after it ends (so nothing it started lingers or holds the pipes). Errors are the runner's
/// own (the program cannot be started, the input cannot be opened); everything the program
/// does is in the `Outcome`.
pub fn run<S: AsRef<OsStr>>(
    program: &Path,
    args: &[S],
    stdin: Option<&Path>,
    limits: &Limits,
) -> io::Result<Outcome> {
    let stdin = match stdin {
        Some(path) => Stdio::from(File::open(path).map_err(|err| {
            io::Error::new(err.kind(), format!("cannot open {}: {err}", path.display()))
        })?),
        None => Stdio::null(),
    };
    let (stdout_read, stdout_write) = io::pipe()?;
    let (stderr_read, stderr_write) = io::pipe()?;
    let args: Vec<_> = args.iter().map(|a| a.as_ref().to_os_string()).collect();
    let launched = launch::Launched::start(
        program,
        &args,
        stdin,
        Stdio::from(stdout_write),
        Stdio::from(stderr_write),
    )?;
    // The program is running now: the launcher's own start-up is not the program's time.
    let start = Instant::now();
    let over_cap = Arc::new(AtomicBool::new(false));
    let cap = limits.output_cap;
    let flag = Arc::clone(&over_cap);
    let stdout_reader = thread::spawn(move || read_capped(stdout_read, cap, &flag));
    let stderr_reader = thread::spawn(move || read_tail(stderr_read, STDERR_TAIL));

    let watch = sys::ExitWatch::new(launched.launcher_pid());
    let deadline = start + limits.time;
    let mut killed = None;
    let poll = Duration::from_millis(10);
    let waited = loop {
        if launched.has_ended()? {
            break start.elapsed();
        }
        let now = Instant::now();
        if killed.is_none() {
            if over_cap.load(Ordering::SeqCst) {
                launched.kill();
                killed = Some(Exit::OutputCapped);
            } else if now >= deadline {
                launched.kill();
                killed = Some(Exit::TimedOut);
            }
        }
        let timeout = match killed {
            Some(_) => poll,
            None => deadline.saturating_duration_since(now).min(poll),
        };
        watch.wait(timeout);
    };
    let ended = launched.finish()?;
    let stdout = stdout_reader.join().expect("stdout reader does not panic");
    let stderr_tail = stderr_reader.join().expect("stderr reader does not panic");

    let exit = match killed {
        Some(exit) => exit,
        None if over_cap.load(Ordering::SeqCst) => Exit::OutputCapped,
        None => match ended.status {
            Ok(code) => Exit::Code(code),
            Err(signal) => Exit::Signal(signal),
        },
    };
    Ok(Outcome {
        exit,
        time: waited,
        peak_memory: ended.peak_memory,
        stdout,
        stderr_tail,
    })
}

/// Reads until EOF or until more than `cap` bytes came; then sets `over_cap` and stops reading
/// (dropping the pipe, so a writer gets SIGPIPE or is killed by the runner).
fn read_capped(mut pipe: impl Read, cap: u64, over_cap: &AtomicBool) -> Vec<u8> {
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    let mut kept = Vec::new();
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let n = match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let room = cap - kept.len();
        let take = n.min(room);
        if kept.capacity() - kept.len() < take {
            // Grow by doubling, but never past the cap.
            let want = (kept.capacity() * 2)
                .max(64 * 1024)
                .min(cap)
                .max(kept.len() + take);
            kept.reserve_exact(want - kept.len());
        }
        kept.extend_from_slice(&chunk[..take]);
        if n > room {
            over_cap.store(true, Ordering::SeqCst);
            break;
        }
    }
    kept
}

/// Reads until EOF, keeping the last `keep` bytes.
fn read_tail(mut pipe: impl Read, keep: usize) -> Vec<u8> {
    let mut tail = Vec::with_capacity(2 * keep);
    let mut chunk = [0; 8192];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                tail.extend_from_slice(&chunk[..n]);
                if tail.len() > keep {
                    tail.drain(..tail.len() - keep);
                }
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_reader_stops_one_byte_past_the_cap() {
        let flag = AtomicBool::new(false);
        let kept = read_capped(&[7u8; 100][..], 100, &flag);
        assert_eq!(kept.len(), 100);
        assert!(!flag.load(Ordering::SeqCst), "exactly the cap is allowed");

        let kept = read_capped(&[7u8; 101][..], 100, &flag);
        assert_eq!(kept.len(), 100);
        assert!(kept.capacity() <= 100);
        assert!(flag.load(Ordering::SeqCst));
    }

    #[test]
    fn tail_reader_keeps_the_end() {
        let text: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
        let tail = read_tail(&text[..], 10);
        assert_eq!(tail, &text[10_000 - 10..]);
    }
}
