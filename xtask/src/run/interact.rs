//! Running a solution against an interactor, as an interactive problem is judged: the
//! interactor's stdout is the solution's stdin and the solution's stdout is the interactor's
//! stdin, relayed by the runner, which keeps a transcript of the lines each side wrote.
//!
//! Both sides start through the runner's [`process`](super::process) seam, each killed with all
//! it started: the solution's peak memory and CPU time are its own (the interactor's are not
//! counted), and both are killed when the solution runs past its limits (its CPU time, or the
//! wall-clock cap) or the interactor past its own. When either side ends, the other side's input is
//! closed at once (the relay sees the end of the one's output and closes the other's input).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use super::process::{self, pipe, Process, RunnerThread, Setup, Stream, Streams};
use super::{read_chunks, read_tail, Exit, Limits, Program, TimeKeeper, TimeUp, STDERR_TAIL};

/// Lines of the transcript kept (the last ones).
pub const TRANSCRIPT_LINES: usize = 40;

/// Characters of one transcript line kept.
const LINE_CHARS: usize = 200;

/// Which side wrote a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The solution (to the interactor).
    Solution,
    /// The interactor (to the solution).
    Interactor,
}

/// The last [`TRANSCRIPT_LINES`] lines the two sides wrote, in the order the runner relayed
/// them, and how many earlier ones were cut.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    /// The lines kept, oldest first.
    pub lines: Vec<(Side, String)>,
    /// Lines written before the kept ones.
    pub cut: usize,
}

/// How an interaction ended.
#[derive(Debug, Clone)]
pub struct Interaction {
    /// How the solution ended (`TimedOut` when it ran past its limits).
    pub solution: Exit,
    /// Wall-clock time from the solution's start to its end.
    pub time: Duration,
    /// The solution's CPU time, when the system can tell.
    pub cpu_time: Option<Duration>,
    /// The solution's own peak memory in bytes, when the system can tell.
    pub peak_memory: Option<u64>,
    /// The system refused the solution memory past its limit.
    pub memory_limit_hit: bool,
    /// `peak_memory` may be more than the solution's own.
    pub peak_is_upper_bound: bool,
    /// The end of the solution's stderr.
    pub solution_stderr: Vec<u8>,
    /// How the interactor ended (`TimedOut` when it ran past its own limit; also when it was
    /// killed because the solution ran past the solution's).
    pub interactor: Exit,
    /// The end of the interactor's stderr: its reason, when it rejects.
    pub interactor_stderr: Vec<u8>,
    /// What the two sides said.
    pub transcript: Transcript,
}

/// Runs `solution` against `interactor INPUT`; the solution is held to `solution_limits` (its
/// CPU time and the caps; no output cap, since the relay passes everything on) and set up as
/// `setup` says, the interactor to `interactor_limits` ([`Limits::interactor`]). Errors are the
/// runner's own (a program cannot be started).
///
/// The solution's time spent waiting is what is left of the wall clock once its own runnable
/// time, its interactor's and the relays' are taken out: a solution blocked on an interactor
/// that computes, or waits for a CPU on a busy machine, or on a relay that waits for one, is
/// not waiting by itself. Only when neither side nor a relay can run (a solution that forgot to
/// flush, and its interactor waiting for the answer) does its waiting grow to the cap.
pub fn run(
    solution: &Program,
    interactor: &Path,
    input: &Path,
    solution_limits: &Limits,
    interactor_limits: &Limits,
    setup: &Setup,
) -> io::Result<Interaction> {
    let (to_solution_read, to_solution_write) = pipe()?;
    let (from_solution_read, from_solution_write) = pipe()?;
    let (to_interactor_read, to_interactor_write) = pipe()?;
    let (from_interactor_read, from_interactor_write) = pipe()?;
    let (solution_err_read, solution_err_write) = pipe()?;
    let (interactor_err_read, interactor_err_write) = pipe()?;

    let mut interactor_run = Process::start(
        interactor,
        &[OsString::from(input.as_os_str())],
        Streams {
            stdin: Stream::from(to_interactor_read),
            stdout: Stream::from(from_interactor_write),
            stderr: Stream::from(interactor_err_write),
        },
        &Setup::default(),
    )?;
    // If the solution cannot start, dropping `interactor_run` kills the interactor.
    let mut solution_run = Process::start(
        &solution.path,
        &solution.args,
        Streams {
            stdin: Stream::from(to_solution_read),
            stdout: Stream::from(from_solution_write),
            stderr: Stream::from(solution_err_write),
        },
        setup,
    )?;
    let start = Instant::now();

    let transcript = Arc::new(Mutex::new(Recorder::default()));
    let (relay_started, relay_threads) = mpsc::channel();
    let relays = [
        relay(
            from_interactor_read,
            to_solution_write,
            Side::Interactor,
            &transcript,
            relay_started.clone(),
        ),
        relay(
            from_solution_read,
            to_interactor_write,
            Side::Solution,
            &transcript,
            relay_started,
        ),
    ];
    let solution_stderr = std::thread::spawn(move || read_tail(solution_err_read, STDERR_TAIL));
    let interactor_stderr = std::thread::spawn(move || read_tail(interactor_err_read, STDERR_TAIL));

    let mut solution_clock = TimeKeeper::new(start, solution_limits);
    let mut interactor_clock = TimeKeeper::new(start, interactor_limits);
    let mut relay_clocks: Vec<(RunnerThread, Duration)> = Vec::new();
    let mut interactor_seen = Duration::ZERO;
    let (mut solution_killed, mut interactor_killed) = (None, None);
    let mut over_memory = false;
    let mut solution_time_taken = None;
    let (mut solution_ended, mut interactor_ended) = (false, false);
    loop {
        let step = if solution_ended {
            interactor_clock.next_look()
        } else {
            solution_clock.next_look().min(interactor_clock.next_look())
        }
        .clamp(Duration::from_millis(1), Duration::from_millis(5));
        // Sleep on whichever side is still running; look at the other without waiting.
        if !solution_ended {
            solution_ended = solution_run.wait_timeout(step)?;
            if solution_ended {
                solution_time_taken = Some(start.elapsed());
            }
            interactor_ended = interactor_ended || interactor_run.wait_timeout(Duration::ZERO)?;
        } else {
            interactor_ended = interactor_ended || interactor_run.wait_timeout(step)?;
        }
        if solution_ended && interactor_ended {
            break;
        }
        relay_clocks.extend(
            relay_threads
                .try_iter()
                .map(|thread| (thread, Duration::ZERO)),
        );
        // Each helper's latest figure, read at every look and kept once it has ended (an ended
        // thread or process tells nothing more, but its time stays its own).
        for (thread, seen) in &mut relay_clocks {
            *seen = thread.runnable_time().unwrap_or(*seen).max(*seen);
        }
        if !interactor_ended {
            if let Some(now) = interactor_run.runnable_time() {
                interactor_seen = interactor_seen.max(now);
            }
        }
        if !solution_ended && solution_killed.is_none() {
            let relays: Duration = relay_clocks.iter().map(|(_, seen)| *seen).sum();
            if let Some(up) = solution_clock.time_up_beside(&solution_run, relays + interactor_seen)
            {
                // The solution's time is up: the interaction is over for both sides.
                solution_run.kill();
                interactor_run.kill();
                solution_killed = Some(up);
            } else if !over_memory && super::past_memory_guard(&solution_run, setup) {
                solution_run.kill();
                interactor_run.kill();
                over_memory = true;
            }
        }
        if !interactor_ended && interactor_killed.is_none() {
            if let Some(up) = interactor_clock.time_up(&interactor_run) {
                interactor_run.kill();
                solution_run.kill();
                interactor_killed = Some(up);
            }
        }
    }
    let solution_end = solution_run.finish()?;
    let interactor_end = interactor_run.finish()?;
    for relay in relays {
        relay.join().expect("a relay does not panic");
    }
    let exit = |ended: Exit, killed: Option<TimeUp>| killed.map_or(ended, Exit::TimedOut);
    let transcript = std::mem::take(&mut *transcript.lock().expect("no relay panicked")).finish();
    let solution_stderr = solution_stderr.join().expect("no panic");
    Ok(Interaction {
        solution: exit(solution_end.exit, solution_killed),
        time: solution_time_taken.unwrap_or_else(|| start.elapsed()),
        cpu_time: solution_clock.cpu_time(solution_end.cpu_time),
        peak_memory: solution_end.peak_memory,
        memory_limit_hit: over_memory
            || process::memory_refused(
                solution_end.commit,
                solution_end.exit,
                &solution_stderr,
                setup.memory_limit,
            ),
        peak_is_upper_bound: solution_end.peak_is_upper_bound,
        solution_stderr,
        interactor: exit(interactor_end.exit, interactor_killed.or(solution_killed)),
        interactor_stderr: interactor_stderr.join().expect("no panic"),
        transcript,
    })
}

/// Copies `from` to `to` until `from` ends, noting each line in the transcript, then closes
/// `to`. When the receiving side is gone, what the sending side still writes is read and noted
/// but dropped, so the sender is never blocked or killed for the other side's end. The relay's
/// thread is sent on `started` first, so its runnable time can be told.
fn relay(
    from: io::PipeReader,
    to: io::PipeWriter,
    side: Side,
    transcript: &Arc<Mutex<Recorder>>,
    started: mpsc::Sender<RunnerThread>,
) -> std::thread::JoinHandle<()> {
    let transcript = Arc::clone(transcript);
    std::thread::spawn(move || {
        let _ = started.send(RunnerThread::current());
        drop(started);
        let mut to = Some(to);
        read_chunks(from, |chunk| {
            // Noted before it is passed on, so that no answer to it can be noted first.
            transcript
                .lock()
                .expect("no relay panicked")
                .note(side, chunk);
            if let Some(writer) = &mut to {
                if writer.write_all(chunk).is_err() {
                    to = None;
                }
            }
            true
        });
        transcript.lock().expect("no relay panicked").flush(side);
    })
}

/// Builds the transcript from the bytes each side writes.
#[derive(Debug, Default)]
struct Recorder {
    lines: VecDeque<(Side, String)>,
    cut: usize,
    /// Each side's line so far (index 0 the solution's, 1 the interactor's).
    partial: [Vec<u8>; 2],
}

impl Recorder {
    fn note(&mut self, side: Side, bytes: &[u8]) {
        let index = side as usize;
        for &byte in bytes {
            if byte == b'\n' {
                self.push(side);
            } else if self.partial[index].len() < 4 * LINE_CHARS {
                self.partial[index].push(byte);
            }
        }
    }

    fn flush(&mut self, side: Side) {
        if !self.partial[side as usize].is_empty() {
            self.push(side);
        }
    }

    fn push(&mut self, side: Side) {
        let bytes = std::mem::take(&mut self.partial[side as usize]);
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_end_matches('\r');
        let mut line: String = text.chars().take(LINE_CHARS).collect();
        if text.chars().count() > LINE_CHARS {
            line.push('…');
        }
        self.lines.push_back((side, line));
        if self.lines.len() > TRANSCRIPT_LINES {
            self.lines.pop_front();
            self.cut += 1;
        }
    }

    fn finish(mut self) -> Transcript {
        self.flush(Side::Solution);
        self.flush(Side::Interactor);
        Transcript {
            lines: self.lines.into(),
            cut: self.cut,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcript_keeps_the_last_lines_in_order_and_counts_the_rest() {
        let mut recorder = Recorder::default();
        recorder.note(Side::Interactor, b"100\n");
        recorder.note(Side::Solution, b"? 5");
        recorder.note(Side::Solution, b"0\r\n");
        for i in 0..TRANSCRIPT_LINES {
            recorder.note(Side::Interactor, format!("{i}\n").as_bytes());
        }
        recorder.note(Side::Solution, b"! 42");
        let transcript = recorder.finish();
        assert_eq!(transcript.cut, 3);
        assert_eq!(transcript.lines.len(), TRANSCRIPT_LINES);
        assert_eq!(transcript.lines[0], (Side::Interactor, "1".to_string()));
        assert_eq!(
            transcript.lines.last(),
            Some(&(Side::Solution, "! 42".to_string()))
        );
    }
}
