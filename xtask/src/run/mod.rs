//! Running one program on one input, as a judge does: a CPU time limit, and a wall-clock cap
//! so that a program that sleeps or waits still ends, both enforced by killing the program and
//! everything it started; stdout read up to a cap (never buffered past it), the tail of stderr,
//! and the program's own peak memory and CPU time when the system can tell, through the one
//! seam over the operating system, [`process`].

pub mod command_line;
pub mod interact;
pub mod process;

pub use process::{launch_if_asked, set_launcher, Measure, Setup};

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use process::{Process, Stream, Streams};

/// A program to run: an executable and the arguments that always come first (`python3 sol.py`
/// is `python3` with `sol.py`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The executable: a path, or a bare name looked up on `PATH`.
    pub path: PathBuf,
    /// Arguments before any the runner adds.
    pub args: Vec<OsString>,
}

impl Program {
    /// The executable alone, with no arguments of its own.
    pub fn new(path: impl Into<PathBuf>) -> Program {
        Program {
            path: path.into(),
            args: Vec::new(),
        }
    }

    /// A command line split into words by `rules` (see [`command_line`]; no shell is run):
    /// its first word is the program.
    pub fn from_command_line(line: &str, rules: command_line::Rules) -> Result<Program, String> {
        let words = command_line::split(line, rules)
            .map_err(|why| format!("cannot split {line:?} into words: {why}"))?;
        let mut words = words.into_iter();
        let path = words.next().ok_or("the command is empty")?;
        Ok(Program {
            path: PathBuf::from(path),
            args: words.map(OsString::from).collect(),
        })
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        for arg in &self.args {
            write!(f, " {}", arg.to_string_lossy())?;
        }
        Ok(())
    }
}

/// What `run` holds a program to, and what it is judged by: the one place that decides when a
/// run is killed ([`TimeKeeper`]) and whether it went past its time ([`Limits::overtime`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The time limit the run is judged by: its CPU time over this (or, where the system tells
    /// none, its wall-clock time) is past its time.
    pub time: Duration,
    /// CPU time (user and system) after which the program and all it started are killed. Where
    /// the system cannot tell a running program's CPU time, the wall clock stands in for it.
    pub cpu: Duration,
    /// Time spent waiting, neither running nor waiting for a CPU, after which they are killed:
    /// a program that sleeps, or waits for input that never comes, still ends, while one that a
    /// busy machine keeps waiting for a CPU is judged on its CPU time. Where the system does not
    /// tell how long a program was runnable (Windows, the BSDs), this is a cap on the wall
    /// clock.
    pub idle: Duration,
    /// Wall-clock time after which they are killed whatever else: an outer bound, against a
    /// machine too busy (or stuck) to run the program at all.
    pub wall: Duration,
    /// Bytes of stdout kept; one byte more and the program is stopped (OLE).
    pub output_cap: u64,
}

/// How far past its time limit a judged program may run before it is killed, in percent: a run
/// over the limit is past its time wherever it ends, and one that ends by then can say how near
/// it came.
pub const NEAR_LIMIT_PERCENT: u32 = 10;

impl Limits {
    /// A judged program's limits for a time limit of `time`: killed when its CPU time reaches
    /// [`NEAR_LIMIT_PERCENT`] past `time`, after [`idle_cap`] of waiting, and at
    /// [`outer_bound`] on the wall clock.
    pub fn judged(time: Duration, output_cap: u64) -> Limits {
        Limits {
            time,
            cpu: time + time * NEAR_LIMIT_PERCENT / 100,
            idle: idle_cap(time),
            wall: outer_bound(time),
            output_cap,
        }
    }

    /// An interactor's limits beside a solution held to `solution`: `time` of CPU time, and the
    /// solution's outer bound on the wall clock (when later than `time`). An interactor waits
    /// for the solution, and on a busy machine for a CPU, as long as the solution may run: only
    /// its own CPU time is its business. Where the system tells no CPU time, `time` on the wall
    /// clock.
    pub fn interactor(time: Duration, solution: &Limits) -> Limits {
        let wall = solution.wall.max(time);
        Limits {
            time,
            cpu: time,
            idle: wall,
            wall,
            output_cap: 0,
        }
    }

    /// A helper's limits (a generator, a reference, a validator, a checker): `time` of CPU time
    /// and of waiting, and [`outer_bound`] on the wall clock. Like a judged program, a helper
    /// that keeps to its CPU time is not killed because the machine is busy (a reference of 1 s
    /// on a machine shared with a build and a fuzzer took more than 10 s of wall clock).
    pub fn helper(time: Duration, output_cap: u64) -> Limits {
        Limits {
            time,
            cpu: time,
            idle: time,
            wall: outer_bound(time),
            output_cap,
        }
    }

    /// The limit a program is killed at when it reaches `up`: on the wall clock where the
    /// system tells no CPU time ([`TimeUp::WallForCpu`]), the CPU limit, or the cap on waiting
    /// when that is sooner.
    pub fn limit_at(&self, up: TimeUp) -> Duration {
        match up {
            TimeUp::Cpu => self.cpu,
            TimeUp::Waiting | TimeUp::WallCap => self.idle,
            TimeUp::OuterBound => self.wall,
            TimeUp::WallForCpu => self.cpu.min(self.idle),
        }
    }

    /// How a run held to these limits ended, in a message's words: a program killed at a limit
    /// with that limit ("killed at its CPU time limit of 10000 ms"), any other end as [`Exit`]
    /// displays it.
    pub fn ended(&self, exit: Exit) -> String {
        match exit {
            Exit::TimedOut(up) => format!("{exit} of {} ms", self.limit_at(up).as_millis()),
            exit => exit.to_string(),
        }
    }

    /// Whether a run that ended as `exit`, with `cpu` of CPU time (when the system told it) in
    /// `wall` of wall-clock time, went past its time: killed at one of these limits, or ended
    /// by itself with its CPU time (where the system tells none, its wall-clock time) over
    /// [`Limits::time`]. `None` when it kept to its time.
    pub fn overtime(&self, exit: Exit, cpu: Option<Duration>, wall: Duration) -> Option<Overtime> {
        let killed = match exit {
            Exit::TimedOut(up) => Some(up),
            _ => None,
        };
        let over = cpu.map_or(wall > self.time, |cpu| cpu > self.time);
        (killed.is_some() || over).then_some(Overtime { killed })
    }
}

/// How a run went past its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overtime {
    /// The limit it was killed at; `None` when it ended by itself over the time limit.
    pub killed: Option<TimeUp>,
}

/// The cap on waiting for a time limit of `time`: 2 × `time` + 1 s. A solution that sleeps or
/// waits for input ends there.
pub fn idle_cap(time: Duration) -> Duration {
    time * 2 + Duration::from_secs(1)
}

/// The outer bound on the wall clock for a time limit of `time`: 20 × `time` (and never below
/// [`idle_cap`]). A solution is judged on its CPU time however busy the machine is, up to here.
pub fn outer_bound(time: Duration) -> Duration {
    (time * 20).max(idle_cap(time))
}

/// Which clock a limit was enforced on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Clock {
    /// The program's own CPU time (user and system).
    Cpu,
    /// The wall clock.
    Wall,
    /// The time the program spent waiting: the wall clock less the time it was running or
    /// waiting for a CPU.
    Idle,
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Clock::Cpu => "CPU",
            Clock::Wall => "wall",
            Clock::Idle => "waiting",
        })
    }
}

/// The default stdout cap: 64 MiB.
pub const DEFAULT_OUTPUT_CAP: u64 = 64 * 1024 * 1024;

/// Bytes of stderr kept (the end of it).
pub const STDERR_TAIL: usize = 4096;

/// Which of a run's time limits ended it (each is a kill by the runner).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TimeUp {
    /// Its CPU time reached [`Limits::cpu`].
    Cpu,
    /// Its time spent waiting, neither running nor waiting for a CPU, reached [`Limits::idle`].
    Waiting,
    /// The wall clock reached [`Limits::idle`]: the cap on waiting, kept on the wall clock
    /// where the system does not tell how long a program was runnable.
    WallCap,
    /// The wall clock reached [`Limits::wall`], the outer bound, whatever its CPU time.
    OuterBound,
    /// The wall clock reached [`Limits::cpu`] (or the cap on waiting, when sooner), where the
    /// system tells no CPU time while a program runs.
    WallForCpu,
}

impl TimeUp {
    /// The clock the limit was kept on.
    pub fn clock(self) -> Clock {
        match self {
            TimeUp::Cpu => Clock::Cpu,
            TimeUp::Waiting => Clock::Idle,
            TimeUp::WallCap | TimeUp::OuterBound | TimeUp::WallForCpu => Clock::Wall,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Exit {
    /// The program exited by itself with this status.
    Code(i32),
    /// A signal the runner did not send ended the program (Unix).
    Signal(i32),
    /// An exception ended the program; its `NTSTATUS` code (Windows: `0xC0000005`, ...).
    Exception(u32),
    /// The runner killed the program at one of its time limits.
    TimedOut(TimeUp),
    /// The program wrote more than the output cap; the runner stopped it.
    OutputCapped,
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Exit::Code(code) => write!(f, "exit status {code}"),
            Exit::Signal(signal) => match process::signal_name(signal) {
                Some(name) => write!(f, "killed by signal {signal} ({name})"),
                None => write!(f, "killed by signal {signal}"),
            },
            Exit::Exception(code) => match process::exception_name(code) {
                Some(name) => write!(f, "exception 0x{code:08X} ({name})"),
                None => write!(f, "exception 0x{code:08X}"),
            },
            Exit::TimedOut(up) => f.write_str(match up {
                TimeUp::Cpu => "killed at its CPU time limit",
                TimeUp::Waiting => "killed at its limit on waiting",
                TimeUp::WallCap => "killed at its wall-clock cap",
                TimeUp::OuterBound => "killed at its wall-clock limit",
                TimeUp::WallForCpu => "killed at its time limit on the wall clock",
            }),
            Exit::OutputCapped => f.write_str("stopped at the output cap"),
        }
    }
}

/// What one run produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub exit: Exit,
    /// Wall-clock time from the start to the end.
    pub time: Duration,
    /// User plus system CPU time, when the system can tell.
    pub cpu_time: Option<Duration>,
    /// The program's peak memory in bytes, when the system can tell.
    pub peak_memory: Option<u64>,
    /// The system refused the program memory past the limit it was given.
    pub memory_limit_hit: bool,
    /// `peak_memory` may be more than the program's own (see [`Measure::AtMost`]).
    pub peak_is_upper_bound: bool,
    /// Everything written to stdout, up to the cap (its capacity never exceeds the cap either).
    pub stdout: Vec<u8>,
    /// The last `STDERR_TAIL` bytes written to stderr.
    pub stderr_tail: Vec<u8>,
}

/// How often the runner looks at the output cap while a program runs.
const POLL: Duration = Duration::from_millis(10);

impl Program {
    /// Runs the program with `args` after its own, stdin from the file `stdin` (or empty),
    /// under `limits`, as `setup` asks of the system.
    ///
    /// The program and everything it starts are killed at a time limit, at the output cap, and
    /// after it ends (so nothing it started lingers or holds the pipes). Errors are the
    /// runner's own (the program cannot be started, the input cannot be opened); everything the
    /// program does is in the `Outcome`.
    pub fn run<S: AsRef<OsStr>>(
        &self,
        args: &[S],
        stdin: Option<&Path>,
        limits: &Limits,
        setup: &Setup,
    ) -> io::Result<Outcome> {
        run(self, args, stdin, limits, setup)
    }
}

fn run<S: AsRef<OsStr>>(
    program: &Program,
    args: &[S],
    stdin: Option<&Path>,
    limits: &Limits,
    setup: &Setup,
) -> io::Result<Outcome> {
    let stdin = match stdin {
        Some(path) => Stream::from(File::open(path).map_err(|err| {
            io::Error::new(err.kind(), format!("cannot open {}: {err}", path.display()))
        })?),
        None => Stream::Null,
    };
    let (stdout_read, stdout_write) = match setup.stdout_unread {
        true => (None, Stream::Null),
        false => {
            let (read, write) = process::pipe()?;
            (Some(read), Stream::from(write))
        }
    };
    let (stderr_read, stderr_write) = process::pipe()?;
    let mut all_args = program.args.clone();
    all_args.extend(args.iter().map(|a| a.as_ref().to_os_string()));
    let streams = Streams {
        stdin,
        stdout: stdout_write,
        stderr: Stream::from(stderr_write),
    };
    let mut process = Process::start(&program.path, &all_args, streams, setup)?;
    // The program is running now: starting it is not the program's time.
    let start = Instant::now();
    let over_cap = Arc::new(AtomicBool::new(false));
    let cap = limits.output_cap;
    let flag = Arc::clone(&over_cap);
    let stdout_reader =
        stdout_read.map(|read| std::thread::spawn(move || read_capped(read, cap, &flag)));
    let stderr_reader = std::thread::spawn(move || read_tail(stderr_read, STDERR_TAIL));

    let mut clock = TimeKeeper::new(start, limits);
    let mut killed = None;
    let mut over_memory = false;
    let waited = loop {
        if process.wait_timeout(clock.next_look())? {
            break start.elapsed();
        }
        if killed.is_none() && !over_memory {
            if over_cap.load(Ordering::SeqCst) {
                process.kill();
                killed = Some(Exit::OutputCapped);
            } else if let Some(up) = clock.time_up(&process) {
                process.kill();
                killed = Some(Exit::TimedOut(up));
            } else if past_memory_guard(&process, setup) {
                process.kill();
                over_memory = true;
            }
        }
    };
    let ended = process.finish()?;
    let stdout = stdout_reader.map_or_else(Vec::new, |reader| {
        reader.join().expect("the stdout reader does not panic")
    });
    let stderr_tail = stderr_reader
        .join()
        .expect("the stderr reader does not panic");

    let exit = match killed {
        Some(exit) => exit,
        None if over_cap.load(Ordering::SeqCst) => Exit::OutputCapped,
        None => ended.exit,
    };
    Ok(Outcome {
        exit,
        time: waited,
        cpu_time: clock.cpu_time(ended.cpu_time),
        peak_memory: ended.peak_memory,
        memory_limit_hit: over_memory
            || process::memory_refused(ended.commit, ended.exit, &stderr_tail, setup.memory_limit),
        peak_is_upper_bound: ended.peak_is_upper_bound,
        stdout,
        stderr_tail,
    })
}

/// How far past its memory limit a running program's resident memory may go before the runner
/// stops it ([`past_memory_guard`]): enough that the exec launcher, which holds the program's
/// pid until it `exec`s the program, is never taken for it under the smallest limits BOJ sets
/// (4 MB).
pub const MEMORY_GUARD_SLACK: u64 = 32 << 20;

/// Whether a running program's resident memory is past the memory limit `setup` gives it by
/// more than [`MEMORY_GUARD_SLACK`], where the system tells that while it runs (Linux, macOS).
/// Such a program is stopped there, as BOJ stops one at its limit, not left to grow until its
/// time runs out (a leak under a long time limit could take the machine's memory), and is MLE.
fn past_memory_guard(process: &Process, setup: &Setup) -> bool {
    match setup.memory_limit {
        Some(limit) => process
            .resident_memory()
            .is_some_and(|bytes| bytes > limit.saturating_add(MEMORY_GUARD_SLACK)),
        None => false,
    }
}

/// Keeps a running program to its [`Limits`]' clocks, looking every [`POLL`] at most.
#[derive(Debug)]
pub struct TimeKeeper {
    start: Instant,
    limits: Limits,
    /// Whether the system tells this program's CPU time while it runs (known at the first look).
    cpu_told: Option<bool>,
    /// The most CPU time seen while it ran (what it started included, where the system tells
    /// that: see [`Process::cpu_time`]).
    seen_cpu: Option<Duration>,
}

impl TimeKeeper {
    /// Starts keeping time for a program started at `start`.
    pub fn new(start: Instant, limits: &Limits) -> TimeKeeper {
        TimeKeeper {
            start,
            limits: *limits,
            cpu_told: None,
            seen_cpu: None,
        }
    }

    /// How long to wait before looking again.
    pub fn next_look(&self) -> Duration {
        let left = self.wall_limit().saturating_sub(self.start.elapsed());
        left.min(POLL)
    }

    /// Whether the program's time is up, and which limit it reached: its CPU time at the limit;
    /// its time spent waiting at the cap (where the system tells how long it was runnable, and
    /// on the wall clock where it does not); the wall clock at the outer bound.
    pub fn time_up(&mut self, process: &Process) -> Option<TimeUp> {
        self.time_up_beside(process, Duration::ZERO)
    }

    /// [`TimeKeeper::time_up`] for a program that waits on others to answer it (an interactive
    /// solution, on its interactor and the runner's relays): they have been runnable for
    /// `helping` so far, time the program's waiting on them was not its own.
    pub fn time_up_beside(&mut self, process: &Process, helping: Duration) -> Option<TimeUp> {
        let cpu = process.cpu_time();
        if cpu > self.seen_cpu {
            self.seen_cpu = cpu;
        }
        let told = *self.cpu_told.get_or_insert(cpu.is_some());
        let wall = self.start.elapsed();
        if !told {
            return (wall >= self.wall_limit()).then_some(TimeUp::WallForCpu);
        }
        if cpu.is_some_and(|cpu| cpu >= self.limits.cpu) {
            return Some(TimeUp::Cpu);
        }
        if wall >= self.limits.wall {
            return Some(TimeUp::OuterBound);
        }
        if wall < self.limits.idle {
            return None;
        }
        match process.runnable_time() {
            Some(runnable) => {
                let waiting = wall.saturating_sub(runnable).saturating_sub(helping);
                (waiting >= self.limits.idle).then_some(TimeUp::Waiting)
            }
            // Unreadable for a moment (the program is ending): the outer bound still holds.
            None if process::tells_runnable_time() => None,
            None => Some(TimeUp::WallCap),
        }
    }

    /// The CPU time to report for a run that ended with `ended` of it (the system's figure at
    /// the end): the larger of that and the most seen while it ran. A child killed with the
    /// program, never waited for, is in the figures seen but not in the end's.
    pub fn cpu_time(&self, ended: Option<Duration>) -> Option<Duration> {
        ended.max(self.seen_cpu)
    }

    /// The latest the wall clock may reach: the outer bound, or where the system tells no CPU
    /// time, the CPU limit itself (or the cap on waiting, when that is sooner).
    fn wall_limit(&self) -> Duration {
        match self.cpu_told {
            Some(false) => self.limits.limit_at(TimeUp::WallForCpu),
            _ => self.limits.wall,
        }
    }
}

/// A program's stdout kept up to a cap, never buffered past it.
#[derive(Debug)]
struct Capped {
    kept: Vec<u8>,
    cap: usize,
}

impl Capped {
    fn new(cap: u64) -> Capped {
        Capped {
            kept: Vec::new(),
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
        }
    }

    /// Keeps `bytes` up to the cap; false once past it (then reading stops and the pipe is
    /// dropped, so a writer gets SIGPIPE or is killed by the runner).
    fn take(&mut self, bytes: &[u8]) -> bool {
        let room = self.cap - self.kept.len();
        let take = bytes.len().min(room);
        if self.kept.capacity() - self.kept.len() < take {
            // Grow by doubling, but never past the cap.
            let want = (self.kept.capacity() * 2)
                .max(64 * 1024)
                .min(self.cap)
                .max(self.kept.len() + take);
            self.kept.reserve_exact(want - self.kept.len());
        }
        self.kept.extend_from_slice(&bytes[..take]);
        bytes.len() <= room
    }
}

/// The last bytes of a stream.
#[derive(Debug)]
struct Tail {
    tail: Vec<u8>,
    keep: usize,
}

impl Tail {
    fn new(keep: usize) -> Tail {
        Tail {
            tail: Vec::with_capacity(2 * keep),
            keep,
        }
    }

    fn take(&mut self, bytes: &[u8]) {
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > self.keep {
            self.tail.drain(..self.tail.len() - self.keep);
        }
    }
}

/// Reads `pipe` in chunks, handing each to `take`, until it ends (or fails) or `take` returns
/// false; a read interrupted by a signal is tried again.
pub fn read_chunks(mut pipe: impl Read, mut take: impl FnMut(&[u8]) -> bool) {
    let mut chunk = vec![0; 64 * 1024];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                if !take(&chunk[..n]) {
                    return;
                }
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// Reads until EOF or until more than `cap` bytes came; then sets `over_cap` and stops reading
/// (dropping the pipe, so a writer gets SIGPIPE or is killed by the runner).
fn read_capped(pipe: impl Read, cap: u64, over_cap: &AtomicBool) -> Vec<u8> {
    let mut kept = Capped::new(cap);
    read_chunks(pipe, |chunk| {
        let more = kept.take(chunk);
        if !more {
            over_cap.store(true, Ordering::SeqCst);
        }
        more
    });
    kept.kept
}

/// Reads until EOF, keeping the last `keep` bytes.
fn read_tail(pipe: impl Read, keep: usize) -> Vec<u8> {
    let mut tail = Tail::new(keep);
    read_chunks(pipe, |chunk| {
        tail.take(chunk);
        true
    });
    tail.tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capped_stdout_stops_one_byte_past_the_cap() {
        let mut capped = Capped::new(100);
        assert!(capped.take(&[7u8; 60]));
        assert!(capped.take(&[7u8; 40]), "exactly the cap is allowed");
        assert_eq!(capped.kept.len(), 100);
        assert!(!capped.take(&[7u8; 1]));
        assert_eq!(capped.kept.len(), 100);
        assert!(capped.kept.capacity() <= 100);
    }

    #[test]
    fn the_capped_reader_stops_one_byte_past_the_cap() {
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
