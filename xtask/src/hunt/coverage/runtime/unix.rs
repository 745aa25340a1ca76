//! The coverage runtime for Linux and macOS: not a module of the xtask but a source it compiles
//! (`rustc --crate-type lib --emit obj`, `no_std`, `panic=abort`) into an object linked into
//! the instrumented build of a solution (`super::build`). It is the one other place where code
//! of ours calls the system unchecked: it runs inside the user's program, before its `main`,
//! where only the C library is there to call. Every call has its SAFETY line.
//!
//! LLVM's SanitizerCoverage (`-sanitizer-coverage-inline-8bit-counters`, `-inline-bool-flag`,
//! `-pc-table`, `-control-flow`) gives each basic block a one-byte counter, a bool flag, a
//! `(PC, flags)` entry and a row of the control-flow table (the block, its successors, 0, the
//! functions it calls, 0), and its module constructor hands the tables to
//! `__sanitizer_cov_8bit_counters_init(start, stop)`, `__sanitizer_cov_bool_flag_init(start,
//! stop)`, `__sanitizer_cov_pcs_init(start, stop)` and, last, `__sanitizer_cov_cfs_init(start,
//! stop)`, defined here (the interface of LLVM's
//! `compiler-rt/include/sanitizer/coverage_interface.h`; clang's SanitizerCoverage docs, and
//! "Tracing control flow" there for the last table). Then:
//!
//! - with `XTASK_COVERAGE_SERVER` set, the process becomes a fork server, as AFL's does: it
//!   writes the tables' header and PCs to stdout, then for each request read on stdin forks a
//!   child that goes on to the program's `main` on the request's input, waits for it, and
//!   replies with how it ended, its CPU time and peak memory (`wait4`), and its counters, which
//!   the child copies into a shared page at exit. A fork costs a fraction of a fresh start;
//! - with `XTASK_COVERAGE_FILE` set, the program runs once, as it is, and writes the header,
//!   the PCs and its counters to that file at exit;
//! - with neither, it runs as it is and writes nothing.
//!
//! The wire format (little-endian, 64-bit targets) is `super::server`'s: keep the two alike.

#![no_std]

use core::ptr;

/// Linux's and macOS's values, from the libc crate's own definitions
/// (`src/unix/linux_like/linux/...`, `src/unix/bsd/mod.rs`, `src/unix/bsd/apple/mod.rs`).
#[cfg(target_os = "linux")]
mod sys {
    pub const O_CREAT: i32 = 0o100;
    pub const O_TRUNC: i32 = 0o1000;
    pub const MAP_ANONYMOUS: i32 = 0x20;
    /// The address space: what a runaway allocation meets first.
    pub const RLIMIT_MEMORY: i32 = 9;
    pub type Usec = i64;
    /// `ru_maxrss` is in KiB.
    pub const MAXRSS_UNIT: u64 = 1024;
}

#[cfg(target_os = "macos")]
mod sys {
    pub const O_CREAT: i32 = 0x200;
    pub const O_TRUNC: i32 = 0x400;
    pub const MAP_ANONYMOUS: i32 = 0x1000;
    /// `RLIMIT_AS` (5, as `RLIMIT_RSS`), which XNU does not enforce: no guard there.
    pub const RLIMIT_MEMORY: i32 = 5;
    pub type Usec = i32;
    /// `ru_maxrss` is in bytes.
    pub const MAXRSS_UNIT: u64 = 1;
}

const O_RDONLY: i32 = 0;
const O_WRONLY: i32 = 1;
const PROT_READ_WRITE: i32 = 3;
const MAP_SHARED: i32 = 1;
const RLIMIT_CPU: i32 = 0;
const RLIMIT_FSIZE: i32 = 1;

#[repr(C)]
struct Rlimit {
    current: u64,
    max: u64,
}

#[repr(C)]
struct Timeval {
    seconds: i64,
    micros: sys::Usec,
}

#[repr(C)]
struct Rusage {
    user: Timeval,
    system: Timeval,
    maxrss: i64,
    rest: [i64; 13],
}

extern "C" {
    fn getenv(name: *const u8) -> *const u8;
    fn atexit(function: extern "C" fn()) -> i32;
    fn open(path: *const u8, flags: i32, mode: u32) -> i32;
    fn read(fd: i32, buffer: *mut u8, count: usize) -> isize;
    fn write(fd: i32, buffer: *const u8, count: usize) -> isize;
    fn close(fd: i32) -> i32;
    fn dup2(from: i32, to: i32) -> i32;
    fn fork() -> i32;
    fn wait4(pid: i32, status: *mut i32, options: i32, usage: *mut Rusage) -> i32;
    fn mmap(at: *mut u8, length: usize, prot: i32, flags: i32, fd: i32, offset: i64) -> *mut u8;
    fn setrlimit(resource: i32, limit: *const Rlimit) -> i32;
    fn alarm(seconds: u32) -> u32;
    fn _exit(status: i32) -> !;
    #[cfg(target_os = "linux")]
    fn prctl(option: i32, argument: u64, ...) -> i32;
}

/// The header's first bytes, and the version of the wire format.
const MAGIC: &[u8; 4] = b"XCOV";
const VERSION: u32 = 2;

static mut COUNTERS: *mut u8 = ptr::null_mut();
static mut COUNTERS_END: *mut u8 = ptr::null_mut();
/// SanitizerCoverage's bool flags, one a block as the counters are (`-inline-bool-flag`): a
/// counter wraps to 0 at 256 hits, and its flag says the block ran all the same.
static mut FLAGS: *mut u8 = ptr::null_mut();
static mut FLAGS_END: *mut u8 = ptr::null_mut();
static mut PCS: *const u64 = ptr::null();
static mut PCS_END: *const u64 = ptr::null();
static mut CFS: *const u64 = ptr::null();
static mut CFS_END: *const u64 = ptr::null();
/// The fork server's shared page: a byte that says the counters were copied, then the counters.
static mut SHARED: *mut u8 = ptr::null_mut();
/// Where `XTASK_COVERAGE_FILE` names a file: its path.
static mut FILE: *const u8 = ptr::null();
static mut STARTED: bool = false;

/// Widens the bounds `$low..$high` (two of the statics above, `$low` null before the first
/// call) to take in `$start..$stop`: each table's init may be called once per module, and the
/// widest bounds are kept. A macro, not a function, so that one form serves the tables of
/// bytes and of words alike, each a `static mut` used by value.
macro_rules! widen {
    ($low:ident, $high:ident, $start:expr, $stop:expr) => {
        if $low.is_null() || $start < $low {
            $low = $start;
        }
        if $stop > $high {
            $high = $stop;
        }
    };
}

/// The counters' table (from LLVM's module constructor). Every module passes the bounds of the
/// one merged section; the widest is kept all the same.
///
/// # Safety
/// Called by the instrumented program's constructors only, before `main`, on one thread.
#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_8bit_counters_init(start: *mut u8, stop: *mut u8) {
    widen!(COUNTERS, COUNTERS_END, start, stop);
}

/// The bool flags' table (from the same constructors): the widest bounds.
///
/// # Safety
/// As [`__sanitizer_cov_8bit_counters_init`].
#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_bool_flag_init(start: *mut u8, stop: *mut u8) {
    widen!(FLAGS, FLAGS_END, start, stop);
}

/// Each counter that wrapped to 0 though its block ran (its flag set) made 255, so that a
/// block run 256 times (a loop over a table of 256) is reached, in the bucket of 128 hits
/// and more, not never run. Nothing where the two tables differ in length.
///
/// # Safety
/// After the constructors set both tables, on the program's last thread (at exit).
unsafe fn settle_wrapped_counters() {
    let counters = COUNTERS_END as usize - COUNTERS as usize;
    if FLAGS.is_null() || FLAGS_END as usize - FLAGS as usize != counters {
        return;
    }
    let mut i = 0;
    while i < counters {
        // SAFETY: both tables hold `counters` bytes.
        if *COUNTERS.add(i) == 0 && *FLAGS.add(i) != 0 {
            *COUNTERS.add(i) = 255;
        }
        i += 1;
    }
}

/// The PCs' table (after the counters', in the same constructor): the widest bounds.
///
/// # Safety
/// As [`__sanitizer_cov_8bit_counters_init`].
#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_pcs_init(start: *const u64, stop: *const u64) {
    widen!(PCS, PCS_END, start, stop);
}

/// The control-flow table (the constructor's last call, after the PCs'); then the runtime
/// starts, every table known.
///
/// # Safety
/// As [`__sanitizer_cov_8bit_counters_init`].
#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_cfs_init(start: *const u64, stop: *const u64) {
    widen!(CFS, CFS_END, start, stop);
    if STARTED {
        return;
    }
    STARTED = true;
    // SAFETY: getenv reads the environment, which nothing changes before main.
    if !getenv(b"XTASK_COVERAGE_SERVER\0".as_ptr()).is_null() {
        serve();
    }
    // SAFETY: as above.
    let file = getenv(b"XTASK_COVERAGE_FILE\0".as_ptr());
    if !file.is_null() {
        FILE = file;
        // SAFETY: `dump_to_file` is a plain function that lives as long as the program.
        atexit(dump_to_file);
    }
}

fn counters_len() -> usize {
    // SAFETY: set once by the constructors before anything reads them.
    unsafe { COUNTERS_END as usize - COUNTERS as usize }
}

fn pcs_len() -> usize {
    // SAFETY: as above.
    unsafe { PCS_END as usize - PCS as usize }
}

fn cfs_len() -> usize {
    // SAFETY: as above.
    unsafe { CFS_END as usize - CFS as usize }
}

/// Writes all of `bytes` to `fd`; false when it cannot.
unsafe fn write_all(fd: i32, mut bytes: *const u8, mut left: usize) -> bool {
    while left > 0 {
        // SAFETY: `bytes` points at `left` readable bytes.
        let written = write(fd, bytes, left);
        if written <= 0 {
            return false;
        }
        bytes = bytes.add(written as usize);
        left -= written as usize;
    }
    true
}

/// Reads exactly `count` bytes from `fd` into `buffer`; false at the end of the input.
unsafe fn read_exact(fd: i32, buffer: *mut u8, count: usize) -> bool {
    let mut got = 0;
    while got < count {
        // SAFETY: `buffer` has room for `count` bytes.
        let n = read(fd, buffer.add(got), count - got);
        if n <= 0 {
            return false;
        }
        got += n as usize;
    }
    true
}

unsafe fn write_u64(fd: i32, value: u64) -> bool {
    let bytes = value.to_le_bytes();
    write_all(fd, bytes.as_ptr(), 8)
}

unsafe fn read_u64(fd: i32) -> Option<u64> {
    let mut bytes = [0u8; 8];
    if read_exact(fd, bytes.as_mut_ptr(), 8) {
        Some(u64::from_le_bytes(bytes))
    } else {
        None
    }
}

/// The header: magic, version, the number of counters, where `__sanitizer_cov_pcs_init` is at
/// run time (from which the reader tells how far the program was moved from its link
/// addresses), the PCs, then the control-flow table's length in words and its words.
unsafe fn write_header(fd: i32) -> bool {
    let here = __sanitizer_cov_pcs_init as *const () as u64;
    write_all(fd, MAGIC.as_ptr(), 4)
        && write_all(fd, VERSION.to_le_bytes().as_ptr(), 4)
        && write_u64(fd, counters_len() as u64)
        && write_u64(fd, here)
        && write_all(fd, PCS as *const u8, pcs_len())
        && write_u64(fd, (cfs_len() / 8) as u64)
        && write_all(fd, CFS as *const u8, cfs_len())
}

/// At the exit of a program run once: the header, the PCs and the counters into the file.
extern "C" fn dump_to_file() {
    // SAFETY: FILE is a NUL-terminated path from the environment; the tables are the
    // program's own, set before main.
    unsafe {
        let fd = open(FILE, O_WRONLY | sys::O_CREAT | sys::O_TRUNC, 0o644);
        if fd < 0 {
            return;
        }
        settle_wrapped_counters();
        let _ = write_header(fd) && write_all(fd, COUNTERS, counters_len());
        close(fd);
    }
}

/// At the exit of a child of the fork server: the counters into the shared page.
extern "C" fn copy_to_shared() {
    // SAFETY: SHARED has room for the flag and every counter (mapped for them before the fork).
    unsafe {
        settle_wrapped_counters();
        ptr::copy_nonoverlapping(COUNTERS, SHARED.add(1), counters_len());
        *SHARED = 1;
    }
}

/// The longest path a request may name.
const PATH_MAX: usize = 4096;

/// Reads a length and that many bytes into `buffer` as a NUL-terminated path.
unsafe fn read_path(buffer: &mut [u8; PATH_MAX + 1]) -> bool {
    let Some(length) = read_u64(0) else {
        return false;
    };
    let length = length as usize;
    if length > PATH_MAX || !read_exact(0, buffer.as_mut_ptr(), length) {
        return false;
    }
    // SAFETY: length <= PATH_MAX, inside the buffer.
    *buffer.as_mut_ptr().add(length) = 0;
    true
}

/// The fork server: never returns in the server; returns in each child, which goes on to the
/// program's `main`.
unsafe fn serve() {
    let counters = counters_len();
    // SAFETY: a fresh shared anonymous mapping, checked below.
    SHARED = mmap(
        ptr::null_mut(),
        counters + 1,
        PROT_READ_WRITE,
        MAP_SHARED | sys::MAP_ANONYMOUS,
        -1,
        0,
    );
    if SHARED as isize == -1 || !write_header(1) {
        _exit(3);
    }
    let mut input = [0u8; PATH_MAX + 1];
    let mut output = [0u8; PATH_MAX + 1];
    loop {
        // A request: CPU limit (ms), wall-clock limit (ms), memory guard (bytes, 0: none),
        // output cap (bytes), then the input's path and the output's (empty: the null device).
        let (Some(cpu), Some(wall), Some(memory), Some(cap)) =
            (read_u64(0), read_u64(0), read_u64(0), read_u64(0))
        else {
            _exit(0);
        };
        if !read_path(&mut input) || !read_path(&mut output) {
            _exit(0);
        }
        // SAFETY: SHARED maps counters + 1 bytes.
        ptr::write_bytes(SHARED, 0, counters + 1);
        // SAFETY: one thread (a constructor's), so fork copies all there is.
        let pid = fork();
        if pid == 0 {
            if child(&input, &output, cpu, wall, memory, cap) {
                return;
            }
            _exit(127);
        }
        let mut status = 0;
        let mut usage: Rusage = core::mem::zeroed();
        // SAFETY: `pid` is our child; both pointers are to locals.
        if pid < 0 || wait4(pid, &mut status, 0, &mut usage) != pid {
            _exit(4);
        }
        let micros = |t: &Timeval| t.seconds as u64 * 1_000_000 + t.micros as u64;
        let cpu_micros = micros(&usage.user) + micros(&usage.system);
        let peak = usage.maxrss as u64 * sys::MAXRSS_UNIT;
        let replied = write_all(1, b"XREP".as_ptr(), 4)
            && write_all(1, status.to_le_bytes().as_ptr(), 4)
            && write_u64(1, cpu_micros)
            && write_u64(1, peak)
            && write_all(1, SHARED, counters + 1);
        if !replied {
            _exit(0);
        }
    }
}

/// Sets the child up for its run: its limits, its stdin and stdout, its counters copied at
/// exit. False when it cannot.
unsafe fn child(
    input: &[u8; PATH_MAX + 1],
    output: &[u8; PATH_MAX + 1],
    cpu: u64,
    wall: u64,
    memory: u64,
    cap: u64,
) -> bool {
    // SAFETY: prctl with PR_SET_PDEATHSIG (1) and SIGKILL (9) only marks this process.
    #[cfg(target_os = "linux")]
    prctl(1, 9);
    let seconds = |ms: u64| (ms + 999) / 1000;
    let cpu = Rlimit {
        current: seconds(cpu).max(1),
        max: seconds(cpu).max(1) + 1,
    };
    // SAFETY: each limit is a local, read by the call only.
    let mut set = setrlimit(RLIMIT_CPU, &cpu) == 0;
    if cap > 0 {
        set &= setrlimit(RLIMIT_FSIZE, &Rlimit { current: cap, max: cap }) == 0;
    }
    if memory > 0 {
        set &= setrlimit(sys::RLIMIT_MEMORY, &Rlimit { current: memory, max: memory }) == 0;
    }
    // SAFETY: alarm only schedules SIGALRM, whose default action ends the child.
    alarm(seconds(wall).max(1).min(u64::from(u32::MAX)) as u32);
    // SAFETY: both paths are NUL-terminated buffers of ours.
    let stdin = open(input.as_ptr(), O_RDONLY, 0);
    let stdout = if output[0] == 0 {
        open(b"/dev/null\0".as_ptr(), O_WRONLY, 0)
    } else {
        open(output.as_ptr(), O_WRONLY | sys::O_CREAT | sys::O_TRUNC, 0o644)
    };
    if !set || stdin < 0 || stdout < 0 || dup2(stdin, 0) < 0 || dup2(stdout, 1) < 0 {
        return false;
    }
    close(stdin);
    close(stdout);
    // SAFETY: `copy_to_shared` is a plain function that lives as long as the program.
    atexit(copy_to_shared) == 0
}
