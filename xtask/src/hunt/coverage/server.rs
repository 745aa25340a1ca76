//! Running the instrumented solution and reading its counters, in the runtime's wire format
//! (`runtime/unix.rs`, `runtime/windows.rs`; little-endian):
//!
//! - the header: `XCOV`, the version (u32), the number of counters N (u64), where the runtime's
//!   `__sanitizer_cov_pcs_init` is at run time (u64), then N pairs (PC, flags) of u64; from
//!   version 2 (the Unix runtime), the control-flow table's length in words (u64) and its words
//!   (u64; version 1, Windows' runtime, has none);
//! - a request to the fork server: CPU limit and wall-clock limit (ms), memory guard and output
//!   cap (bytes; 0: none), each a u64, then the input's and the output's paths, each a u64
//!   length and its bytes (an empty output: the null device);
//! - its reply: `XREP`, the child's wait status (i32), its CPU time (µs) and peak memory
//!   (bytes) as u64, a byte that is 1 when it copied its counters at exit, and the N counters.
//!
//! On Unix a [`Server`] is a fork server: one start, then a fork a run. Elsewhere (Windows)
//! each run starts the program afresh with `XTASK_COVERAGE_FILE`, and reads the header and the
//! counters it wrote at exit ([`run_once`]).

use std::ffi::OsString;
use std::fs;
use std::io::Read;
#[cfg(unix)]
use std::io::{BufReader, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::run::process::{self, Setup};
#[cfg(unix)]
use crate::run::process::{Process, Stream, Streams};
use crate::run::{Exit, Limits, Program};

/// The newest version of the wire format this side reads (it reads every one before).
const VERSION: u32 = 2;

/// The most words a control-flow table is taken to have (a row a block, a few words each):
/// past it, the header is not coverage data.
const MAX_CONTROL_FLOW_WORDS: u64 = 1 << 30;

/// The instrumented program's tables: for each counter, where its block is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Where the runtime's `__sanitizer_cov_pcs_init` was at run time: with its link address,
    /// how far the program was moved.
    pub anchor: u64,
    /// Each counter's block, at run time.
    pub pcs: Vec<u64>,
    /// Whether each counter's block is its function's entry (the PC table's flag 1): a
    /// function's counters follow its entry's, up to the next entry.
    pub entries: Vec<bool>,
    /// SanitizerCoverage's control-flow table, at run time: for each block, its address, its
    /// successors and a 0, the functions it calls and a 0 (empty where the runtime gives none).
    pub control_flow: Vec<u64>,
}

/// How a run of the instrumented solution went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// How it ended.
    pub exit: Exit,
    /// Its CPU time.
    pub cpu_time: Duration,
    /// Its peak memory, in bytes (none where the system does not tell).
    pub peak_memory: Option<u64>,
    /// Its counters, when it ended by itself (a program killed by a signal copies none).
    pub counters: Option<Vec<u8>>,
    /// What it wrote, when the request asked for it.
    pub output: Vec<u8>,
}

/// One run asked of the instrumented solution.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// Its stdin.
    pub input: &'a Path,
    /// Where its stdout goes (`None`: nowhere).
    pub output: Option<&'a Path>,
    /// Its CPU time limit (whole seconds on Unix, rounded up).
    pub cpu: Duration,
    /// Its wall-clock limit (whole seconds on Unix, rounded up).
    pub wall: Duration,
    /// A bound on its memory against runaways (0: none).
    pub memory_guard: u64,
    /// A bound on its output (0: none).
    pub output_cap: u64,
}

/// A fork server: the instrumented solution started once, forking a child for each run.
#[cfg(unix)]
#[derive(Debug)]
pub struct Server {
    // Declared first, so that it closes first: the server then reads the end of its requests
    // and exits.
    requests: std::io::PipeWriter,
    replies: BufReader<std::io::PipeReader>,
    table: Table,
    process: Process,
}

#[cfg(unix)]
impl Server {
    /// Starts `exe` as a fork server, its stack limit `stack` (its children inherit it).
    pub fn start(exe: &Path, stack: Option<u64>) -> Result<Server> {
        let (request_read, requests) = process::pipe()?;
        let (replies, reply_write) = process::pipe()?;
        let setup = Setup {
            stack,
            environment: vec![(OsString::from("XTASK_COVERAGE_SERVER"), OsString::from("1"))],
            ..Setup::default()
        };
        let streams = Streams {
            stdin: Stream::from(request_read),
            stdout: Stream::from(reply_write),
            stderr: Stream::Null,
        };
        let process = Process::start(exe, &[], streams, &setup)
            .with_context(|| format!("cannot start {}", exe.display()))?;
        let mut replies = BufReader::new(replies);
        let table = read_table(&mut replies).with_context(|| {
            format!(
                "{} did not start as an instrumented build (no coverage header)",
                exe.display()
            )
        })?;
        Ok(Server {
            requests,
            replies,
            table,
            process,
        })
    }

    /// The program's tables.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Runs the program once, as `request` asks; its output read when it was written to a file.
    pub fn run(&mut self, request: &Request<'_>) -> Result<Run> {
        let mut message = Vec::new();
        for value in [
            request.cpu.as_millis() as u64,
            request.wall.as_millis() as u64,
            request.memory_guard,
            request.output_cap,
        ] {
            message.extend(value.to_le_bytes());
        }
        for path in [Some(request.input), request.output] {
            let bytes = path.map_or(Vec::new(), path_bytes);
            message.extend((bytes.len() as u64).to_le_bytes());
            message.extend(bytes);
        }
        self.requests
            .write_all(&message)
            .context("the coverage server has stopped")?;
        let reply = &mut self.replies;
        let mut magic = [0; 4];
        reply
            .read_exact(&mut magic)
            .context("the coverage server has stopped")?;
        if &magic != b"XREP" {
            bail!("the coverage server answered out of turn");
        }
        let status = i32::from_le_bytes(read_array(reply)?);
        let cpu_time = Duration::from_micros(read_u64(reply)?);
        let peak = read_u64(reply)?;
        let [copied] = read_array(reply)?;
        let mut counters = vec![0; self.table.pcs.len()];
        reply.read_exact(&mut counters)?;
        let output = match request.output {
            Some(path) => fs::read(path).unwrap_or_default(),
            None => Vec::new(),
        };
        Ok(Run {
            exit: exit_of(status),
            cpu_time,
            peak_memory: Some(peak),
            counters: (copied == 1).then_some(counters),
            output,
        })
    }
}

#[cfg(unix)]
impl Drop for Server {
    fn drop(&mut self) {
        self.process.kill();
    }
}

/// How a wait status ended: its exit code, or the signal that killed it.
#[cfg(unix)]
fn exit_of(status: i32) -> Exit {
    use std::os::unix::process::ExitStatusExt;
    let status = std::process::ExitStatus::from_raw(status);
    match (status.code(), status.signal()) {
        (Some(code), _) => Exit::Code(code),
        (None, Some(signal)) => Exit::Signal(signal),
        _ => Exit::Code(-1),
    }
}

/// A path as the runtime opens it: its bytes.
#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

/// A little-endian u64 of the wire format.
fn read_u64(reader: &mut impl Read) -> Result<u64> {
    Ok(u64::from_le_bytes(read_array(reader)?))
}

/// Exactly `N` bytes of the wire format.
fn read_array<const N: usize>(reader: &mut impl Read) -> Result<[u8; N]> {
    let mut bytes = [0; N];
    reader
        .read_exact(&mut bytes)
        .context("the coverage data ends early")?;
    Ok(bytes)
}

/// Reads the header, the PCs and (from version 2) the control-flow table.
pub fn read_table(reader: &mut impl Read) -> Result<Table> {
    let magic: [u8; 4] = read_array(reader)?;
    if &magic != b"XCOV" {
        bail!("no coverage header");
    }
    let version = u32::from_le_bytes(read_array(reader)?);
    if !(1..=VERSION).contains(&version) {
        bail!("coverage data of version {version}, where this xtask reads 1 to {VERSION}");
    }
    let counters = read_u64(reader)?;
    let anchor = read_u64(reader)?;
    if counters > 1 << 28 {
        bail!("{counters} counters: not coverage data");
    }
    let mut pcs = Vec::with_capacity(counters as usize);
    let mut entries = Vec::with_capacity(counters as usize);
    for _ in 0..counters {
        pcs.push(read_u64(reader)?);
        entries.push(read_u64(reader)? & 1 != 0);
    }
    let mut control_flow = Vec::new();
    if version >= 2 {
        let words = read_u64(reader)?;
        if words > MAX_CONTROL_FLOW_WORDS {
            bail!("a control-flow table of {words} words: not coverage data");
        }
        control_flow.reserve(words as usize);
        for _ in 0..words {
            control_flow.push(read_u64(reader)?);
        }
    }
    Ok(Table {
        anchor,
        pcs,
        entries,
        control_flow,
    })
}

/// Runs `exe` once on `request`'s input as a program of its own (the runtime's file mode, as on
/// Windows, where nothing forks), and reads the counters it wrote at exit from `file`.
pub fn run_once(
    exe: &Path,
    request: &Request<'_>,
    file: &Path,
    stack: Option<u64>,
) -> Result<(Table, Run)> {
    let _ = fs::remove_file(file);
    let limits = Limits {
        output_cap: if request.output_cap == 0 {
            u64::MAX
        } else {
            request.output_cap
        },
        wall: request.wall,
        ..Limits::helper(request.cpu, u64::MAX)
    };
    let setup = Setup {
        measure: process::Measure::AtMost,
        stack,
        environment: vec![(
            OsString::from("XTASK_COVERAGE_FILE"),
            file.as_os_str().to_os_string(),
        )],
        ..Setup::default()
    };
    let no_args: [&str; 0] = [];
    let outcome = Program::new(exe).run(&no_args, Some(request.input), &limits, &setup)?;
    let (table, counters) = match fs::read(file) {
        Ok(bytes) => {
            let mut reader = &bytes[..];
            let table = read_table(&mut reader)?;
            let counters = (reader.len() == table.pcs.len()).then(|| reader.to_vec());
            (table, counters)
        }
        Err(_) => (
            Table {
                anchor: 0,
                pcs: Vec::new(),
                entries: Vec::new(),
                control_flow: Vec::new(),
            },
            None,
        ),
    };
    let _ = fs::remove_file(file);
    if let Some(path) = request.output {
        fs::write(path, &outcome.stdout)?;
    }
    Ok((
        table,
        Run {
            exit: outcome.exit,
            cpu_time: outcome.cpu_time.unwrap_or(outcome.time),
            peak_memory: outcome.peak_memory,
            counters,
            output: outcome.stdout,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header of `version` with two counters (and, from version 2, a control-flow table of
    /// two rows: the first block goes to the second, which calls 0x7000).
    fn header(version: u32) -> Vec<u8> {
        let mut bytes = b"XCOV".to_vec();
        bytes.extend(version.to_le_bytes());
        bytes.extend(2u64.to_le_bytes());
        bytes.extend(0x5000u64.to_le_bytes());
        for (pc, flags) in [(0x5010u64, 1u64), (0x5020, 0)] {
            bytes.extend(pc.to_le_bytes());
            bytes.extend(flags.to_le_bytes());
        }
        if version >= 2 {
            let rows = [0x5010u64, 0x5020, 0, 0, 0x5020, 0, 0x7000, 0];
            bytes.extend((rows.len() as u64).to_le_bytes());
            for word in rows {
                bytes.extend(word.to_le_bytes());
            }
        }
        bytes
    }

    #[test]
    fn a_table_reads_back_and_anything_else_is_refused() {
        let bytes = header(1);
        let table = read_table(&mut &bytes[..]).unwrap();
        assert_eq!(
            table,
            Table {
                anchor: 0x5000,
                pcs: vec![0x5010, 0x5020],
                entries: vec![true, false],
                control_flow: Vec::new(),
            }
        );
        let short = &bytes[..bytes.len() - 3];
        assert!(read_table(&mut &short[..]).is_err());
        let mut other = bytes.clone();
        other[4] = 9;
        let err = read_table(&mut &other[..]).unwrap_err().to_string();
        assert!(err.contains("version 9"), "{err}");
        assert!(read_table(&mut &b"hello world"[..]).is_err());
    }

    #[test]
    fn a_second_version_table_brings_its_control_flow() {
        let bytes = header(2);
        let table = read_table(&mut &bytes[..]).unwrap();
        assert_eq!(table.pcs, [0x5010, 0x5020]);
        assert_eq!(
            table.control_flow,
            [0x5010, 0x5020, 0, 0, 0x5020, 0, 0x7000, 0]
        );
        assert!(read_table(&mut &bytes[..bytes.len() - 8]).is_err());
        let mut huge = header(2);
        let at = huge.len() - 8 * 9;
        huge[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        let err = read_table(&mut &huge[..]).unwrap_err().to_string();
        assert!(err.contains("not coverage data"), "{err}");
    }
}
