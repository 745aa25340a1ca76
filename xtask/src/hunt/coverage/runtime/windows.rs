//! The coverage runtime for Windows: not a module of the xtask but a source it compiles
//! (`rustc --crate-type lib --emit obj`, `no_std`, `panic=abort`) into an object linked into
//! the instrumented build of a solution (`super::build`), as `runtime/unix.rs` is on Unix. It
//! runs inside the user's program, where only the C runtime is there to call; every call has
//! its SAFETY line.
//!
//! Windows has no fork, so there is no fork server: with `XTASK_COVERAGE_FILE` set, the
//! program runs once, as it is, and writes the header, the PCs and its counters to that file at
//! exit, in the format of `super::server`. The C runtime's `_wgetenv`, `_wfopen`, `fwrite`,
//! `fclose` and `atexit` are in both the UCRT (MSVC targets) and msvcrt (the GNU targets)
//! (Microsoft's C runtime reference: "_wgetenv", "_wfopen", "atexit"); Rust's `main` returns
//! through the C runtime's `exit`, which runs `atexit` functions, and so does
//! `std::process::exit`.
//!
//! COFF has no linker-made section bounds: LLVM's SanitizerCoverage gives each module its own
//! start and stop markers (`.SCOV$CA`, `.SCOV$CZ`, sorted by the linker around the tables), so
//! the tables' bounds are the widest the modules report.
//!
//! What stays unproven: nothing here runs Windows; the object is only compiled for it.

#![no_std]

use core::ptr;

extern "C" {
    fn _wgetenv(name: *const u16) -> *const u16;
    fn _wfopen(path: *const u16, mode: *const u16) -> *mut u8;
    fn fwrite(buffer: *const u8, size: usize, count: usize, file: *mut u8) -> usize;
    fn fclose(file: *mut u8) -> i32;
    fn atexit(function: extern "C" fn()) -> i32;
}

/// The header's first bytes, and the version of the wire format.
const MAGIC: &[u8; 4] = b"XCOV";
const VERSION: u32 = 1;

static mut COUNTERS: *mut u8 = ptr::null_mut();
static mut COUNTERS_END: *mut u8 = ptr::null_mut();
/// SanitizerCoverage's bool flags, one a block as the counters are (`-inline-bool-flag`): a
/// counter wraps to 0 at 256 hits, and its flag says the block ran all the same.
static mut FLAGS: *mut u8 = ptr::null_mut();
static mut FLAGS_END: *mut u8 = ptr::null_mut();
static mut PCS: *const u64 = ptr::null();
static mut PCS_END: *const u64 = ptr::null();
static mut FILE: *const u16 = ptr::null();
static mut STARTED: bool = false;

/// `XTASK_COVERAGE_FILE`, NUL-terminated UTF-16.
const VARIABLE: [u16; 20] = {
    let name = b"XTASK_COVERAGE_FILE\0";
    let mut wide = [0u16; 20];
    let mut i = 0;
    while i < 20 {
        wide[i] = name[i] as u16;
        i += 1;
    }
    wide
};

/// `wb`, NUL-terminated UTF-16.
const WRITE_BINARY: [u16; 3] = [b'w' as u16, b'b' as u16, 0];

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

/// The counters' table (from each module's constructor): the widest bounds.
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

/// The PCs' table: the widest bounds; at the first call, the runtime starts.
///
/// # Safety
/// As [`__sanitizer_cov_8bit_counters_init`].
#[no_mangle]
pub unsafe extern "C" fn __sanitizer_cov_pcs_init(start: *const u64, stop: *const u64) {
    widen!(PCS, PCS_END, start, stop);
    if STARTED {
        return;
    }
    STARTED = true;
    // SAFETY: _wgetenv reads the environment, which nothing changes before main; VARIABLE is
    // NUL-terminated.
    let file = _wgetenv(VARIABLE.as_ptr());
    if !file.is_null() {
        FILE = file;
        // SAFETY: `dump_to_file` is a plain function that lives as long as the program.
        atexit(dump_to_file);
    }
}

/// Writes `count` bytes at `bytes` to `file`; false when it cannot.
unsafe fn put(file: *mut u8, bytes: *const u8, count: usize) -> bool {
    // SAFETY: `bytes` points at `count` readable bytes; `file` is open.
    count == 0 || fwrite(bytes, 1, count, file) == count
}

/// At exit: the header, the PCs and the counters into the file.
extern "C" fn dump_to_file() {
    // SAFETY: FILE is a NUL-terminated path from the environment; the tables are the
    // program's own, set before main, and each pair of bounds is ordered.
    unsafe {
        let file = _wfopen(FILE, WRITE_BINARY.as_ptr());
        if file.is_null() {
            return;
        }
        settle_wrapped_counters();
        let counters = COUNTERS_END as usize - COUNTERS as usize;
        let pcs = PCS_END as usize - PCS as usize;
        let here = (__sanitizer_cov_pcs_init as *const () as u64).to_le_bytes();
        let _ = put(file, MAGIC.as_ptr(), 4)
            && put(file, VERSION.to_le_bytes().as_ptr(), 4)
            && put(file, (counters as u64).to_le_bytes().as_ptr(), 8)
            && put(file, here.as_ptr(), 8)
            && put(file, PCS as *const u8, pcs)
            && put(file, COUNTERS, counters);
        fclose(file);
    }
}
