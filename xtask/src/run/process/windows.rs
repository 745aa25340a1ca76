//! The runner on Windows: every program is created by `CreateProcessW`, suspended, put in a Job
//! Object of its own, then resumed, so nothing it starts can escape the job.
//!
//! Each call follows Microsoft's documentation (learn.microsoft.com/windows/win32):
//! - **Creating.** `CreateProcessW` with `CREATE_SUSPENDED` gives the main thread's handle, which
//!   `ResumeThread` lets run once the process is in its job (`AssignProcessToJobObject`: "create
//!   the process suspended... then resume"); nothing is enumerated. The command line is built so
//!   the program's own parser splits it back into the same words (`command_line`), the program
//!   is found as std's `Command` finds it and named as the application, so `CreateProcessW`
//!   searches no folder itself (it would look in the runner's folder and the current folder
//!   before `PATH`: `command_line::windows_program`), the
//!   environment block drops `RUST_BACKTRACE` and `RUST_LIB_BACKTRACE`, and the three standard
//!   handles are the only ones it inherits: inheritable copies listed in
//!   `PROC_THREAD_ATTRIBUTE_HANDLE_LIST`, made and closed while no other program of ours starts.
//! - **Dialogs.** `SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX |
//!   SEM_NOOPENFILEERRORBOX)` in the runner, which "a child process inherits": a program whose
//!   DLL is missing ends at once with `0xC0000135` instead of a loader's message box waiting for
//!   a click; the job's `JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION` covers crash dialogs.
//! - **Limits.** The job is kill-on-close (if the runner dies, Windows closes its handles and
//!   everything in the job dies) and `TerminateJobObject` ends the program and all it started at
//!   a limit and at its end; termination is asynchronous, so the runner waits for the job's
//!   active processes to reach 0 before it reads figures. The job's commit limit is only a guard
//!   (`process::commit_guard`): Windows counts memory committed, BOJ and Linux count pages
//!   touched.
//! - **Figures.** CPU time from the job's accounting (what the program started included); the
//!   peak memory is the program's peak working set (`GetProcessMemoryInfo`'s
//!   `PeakWorkingSetSize`), read after it has ended and before its handle is closed (the process
//!   object lives on while a handle is open); its peak commit (`PeakPagefileUsage`) and the
//!   job's message tell, with the program's own message, a refusal at the guard
//!   (`process::memory_refused`).
//! - **Where jobs cannot nest** (a runner inside a job that forbids it: `AssignProcessToJobObject`
//!   fails with `ERROR_ACCESS_DENIED`), the program runs alone, said once on stderr: killed with
//!   `TerminateProcess`, its CPU time from `GetProcessTimes`, and what it starts is not killed
//!   with it.
//!
//! Wine runs all of this but reports 0 for a job's CPU time, a wrong `GetProcessTimes` and no
//! sound memory figure after a process ends, and enforces no job memory limit: under Wine both
//! figures are `None` (shown as no figure).
#![allow(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::path::Path;
use std::sync::{Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use windows_sys::Win32::Foundation::{
    DuplicateHandle, GetLastError, DUPLICATE_SAME_ACCESS, ERROR_ACCESS_DENIED,
    ERROR_INVALID_PARAMETER, FILETIME, HANDLE, INVALID_HANDLE_VALUE, WAIT_FAILED, WAIT_OBJECT_0,
    WAIT_TIMEOUT,
};
use windows_sys::Win32::System::Diagnostics::Debug::{
    SetErrorMode, SEM_FAILCRITICALERRORS, SEM_NOGPFAULTERRORBOX, SEM_NOOPENFILEERRORBOX,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectAssociateCompletionPortInformation,
    JobObjectBasicAccountingInformation, JobObjectExtendedLimitInformation,
    QueryInformationJobObject, SetInformationJobObject, TerminateJobObject,
    JOBOBJECT_ASSOCIATE_COMPLETION_PORT, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION,
    JOB_OBJECT_LIMIT_JOB_MEMORY, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::LibraryLoader::{GetModuleHandleW, GetProcAddress};
use windows_sys::Win32::System::ProcessStatus::{K32GetProcessMemoryInfo, PROCESS_MEMORY_COUNTERS};
use windows_sys::Win32::System::SystemInformation::{GetSystemDirectoryW, GetWindowsDirectoryW};
use windows_sys::Win32::System::SystemServices::JOB_OBJECT_MSG_JOB_MEMORY_LIMIT;
use windows_sys::Win32::System::Threading::{
    CreateProcessW, DeleteProcThreadAttributeList, GetCurrentProcess, GetExitCodeProcess,
    GetProcessTimes, InitializeProcThreadAttributeList, OpenProcess, ResumeThread,
    TerminateProcess, UpdateProcThreadAttribute, WaitForSingleObject, CREATE_SUSPENDED,
    CREATE_UNICODE_ENVIRONMENT, EXTENDED_STARTUPINFO_PRESENT, INFINITE,
    LPPROC_THREAD_ATTRIBUTE_LIST, PROCESS_INFORMATION, PROCESS_QUERY_LIMITED_INFORMATION,
    PROCESS_SYNCHRONIZE, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, STARTF_USESTDHANDLES, STARTUPINFOEXW,
};
use windows_sys::Win32::System::IO::{CreateIoCompletionPort, GetQueuedCompletionStatus};

use super::{
    cannot_run, commit_guard, is_exception, windows_memory, Commit, Ended, Setup, Stream, Streams,
    REMOVED_VARIABLES,
};
use crate::run::command_line::{
    windows_command_line, windows_environment_block, windows_program, windows_search_folders,
    WideVariable,
};
use crate::run::Exit;

/// The exit code the runner's own kills give (the runner knows which kills were its own).
const KILLED: u32 = 1;

/// How long the runner waits for a job's processes to be gone after ending them.
const EMPTYING: Duration = Duration::from_secs(5);

/// A program running in a job of its own (or alone, where jobs cannot nest).
#[derive(Debug)]
pub struct InJob {
    process: OwnedHandle,
    job: Option<Job>,
    result: Option<Ended>,
}

/// A job and the port that receives its messages.
#[derive(Debug)]
struct Job {
    handle: OwnedHandle,
    port: OwnedHandle,
}

impl InJob {
    /// Creates the job, creates `program ARGS...` suspended, puts it in the job, and lets it run.
    pub fn start(
        program: &Path,
        args: &[OsString],
        streams: Streams,
        setup: &Setup,
    ) -> io::Result<InJob> {
        no_error_dialogs();
        let job = new_job(setup.memory_limit.map(commit_guard))?;
        let created = create_suspended(program, args, streams, &setup.environment)
            .map_err(|e| cannot_run(program, e))?;
        // SAFETY: both handles are open and owned here.
        let assigned = unsafe { AssignProcessToJobObject(raw(&job.handle), raw(&created.process)) };
        let job = if assigned != 0 {
            Some(job)
        } else {
            let err = io::Error::last_os_error();
            if err.raw_os_error() != Some(ERROR_ACCESS_DENIED as i32) {
                terminate(&created.process);
                return Err(io::Error::new(
                    err.kind(),
                    format!("cannot put {} in a job object: {err}", program.display()),
                ));
            }
            jobs_cannot_nest();
            None
        };
        // SAFETY: the thread handle is open, with the rights CreateProcessW grants its creator.
        if unsafe { ResumeThread(raw(&created.thread)) } == u32::MAX {
            let err = io::Error::last_os_error();
            terminate(&created.process);
            return Err(cannot_run(program, err));
        }
        Ok(InJob {
            process: created.process,
            job,
            result: None,
        })
    }

    /// Waits until the program has ended or `timeout` has passed.
    pub fn wait_timeout(&mut self, timeout: Duration) -> io::Result<bool> {
        if self.result.is_some() {
            return Ok(true);
        }
        wait(&self.process, timeout)
    }

    /// The CPU time so far: the job's (what the program started included), or the program's
    /// own when it runs alone; none under Wine.
    pub fn cpu_time(&self) -> Option<Duration> {
        if under_wine() {
            return None;
        }
        let Some(job) = &self.job else {
            return process_cpu_time(&self.process);
        };
        let info: JOBOBJECT_BASIC_ACCOUNTING_INFORMATION =
            query(&job.handle, JobObjectBasicAccountingInformation)?;
        let ticks = info.TotalUserTime.max(0) as u64 + info.TotalKernelTime.max(0) as u64;
        Some(Duration::from_nanos(ticks * 100))
    }

    /// Ends every process in the job (the program alone where it has no job).
    pub fn kill(&mut self) {
        match &self.job {
            // SAFETY: the job handle is open and owned here.
            Some(job) => unsafe {
                TerminateJobObject(raw(&job.handle), KILLED);
            },
            None => terminate(&self.process),
        }
    }

    /// Waits for the end, ends what the program left in its job, waits for the job to be
    /// empty, and says how the program ended.
    pub fn finish(&mut self) -> io::Result<Ended> {
        if let Some(ended) = self.result {
            return Ok(ended);
        }
        while !wait(&self.process, Duration::from_secs(3600))? {}
        let mut code = 0u32;
        // SAFETY: the process handle is open; `code` is a writable u32.
        if unsafe { GetExitCodeProcess(raw(&self.process), &mut code) } == 0 {
            return Err(io::Error::last_os_error());
        }
        self.kill();
        if let Some(job) = &self.job {
            wait_until_empty(&job.handle);
        }
        let exit = if is_exception(code) {
            Exit::Exception(code)
        } else {
            Exit::Code(code as i32)
        };
        let (working_set, commit) = if under_wine() {
            (0, 0)
        } else {
            peaks(&self.process)
        };
        let refusal_posted = self
            .job
            .as_ref()
            .is_some_and(|job| refusal_posted(&job.port));
        let ended = Ended {
            exit,
            cpu_time: self.cpu_time(),
            peak_memory: windows_memory(working_set),
            commit: (commit > 0 || refusal_posted).then_some(Commit {
                peak: commit,
                refusal_posted,
            }),
            peak_is_upper_bound: false,
        };
        self.result = Some(ended);
        Ok(ended)
    }
}

/// Waits for `process` to end, at most `timeout` (rounded up to a whole millisecond, so a
/// short wait is not a look without waiting); whether it has ended.
fn wait(process: &OwnedHandle, timeout: Duration) -> io::Result<bool> {
    let millis = timeout
        .as_micros()
        .div_ceil(1000)
        .min(u128::from(INFINITE - 1)) as u32;
    // SAFETY: the process handle is open and owned by the caller.
    match unsafe { WaitForSingleObject(raw(process), millis) } {
        WAIT_OBJECT_0 => Ok(true),
        WAIT_TIMEOUT => Ok(false),
        WAIT_FAILED => Err(io::Error::last_os_error()),
        other => Err(io::Error::other(format!(
            "waiting for a program returned {other:#x}"
        ))),
    }
}

/// Ends `process` alone.
fn terminate(process: &OwnedHandle) {
    // SAFETY: the process handle is open, with the right to terminate (its creator's).
    unsafe { TerminateProcess(raw(process), KILLED) };
}

/// Waits, at most [`EMPTYING`], until the job has no active process: `TerminateJobObject`
/// only starts ending them.
fn wait_until_empty(job: &OwnedHandle) {
    let start = Instant::now();
    while start.elapsed() < EMPTYING {
        let info: Option<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION> =
            query(job, JobObjectBasicAccountingInformation);
        if info.is_none_or(|info| info.ActiveProcesses == 0) {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The program's peak working set and peak commit, in bytes (0 where unknown).
fn peaks(process: &OwnedHandle) -> (u64, u64) {
    // SAFETY: the struct is plain data for which all-zero bytes are valid.
    let mut counters: PROCESS_MEMORY_COUNTERS = unsafe { std::mem::zeroed() };
    counters.cb = size_of::<PROCESS_MEMORY_COUNTERS>() as u32;
    // SAFETY: the process handle is open (with PROCESS_QUERY_INFORMATION, its creator's
    // rights); `counters` is writable and its size is given.
    let ok = unsafe { K32GetProcessMemoryInfo(raw(process), &mut counters, counters.cb) };
    if ok == 0 {
        return (0, 0);
    }
    (
        counters.PeakWorkingSetSize as u64,
        counters.PeakPagefileUsage as u64,
    )
}

/// The program's own CPU time (user and kernel), from `GetProcessTimes`.
fn process_cpu_time(process: &OwnedHandle) -> Option<Duration> {
    let zero = FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: the process handle is open; the four FILETIMEs are writable.
    let ok = unsafe {
        GetProcessTimes(
            raw(process),
            &mut created,
            &mut exited,
            &mut kernel,
            &mut user,
        )
    };
    let ticks = |t: FILETIME| u64::from(t.dwHighDateTime) << 32 | u64::from(t.dwLowDateTime);
    (ok != 0).then(|| Duration::from_nanos((ticks(kernel) + ticks(user)) * 100))
}

/// Whether the job posted that it refused memory past its limit (a message whose delivery is
/// not guaranteed: see `process::Commit`).
fn refusal_posted(port: &OwnedHandle) -> bool {
    let mut posted = false;
    loop {
        let (mut message, mut key, mut overlapped) = (0u32, 0usize, std::ptr::null_mut());
        // SAFETY: the port handle is open; the three out-pointers are valid and writable.
        let got = unsafe {
            GetQueuedCompletionStatus(raw(port), &mut message, &mut key, &mut overlapped, 0)
        };
        if got == 0 {
            return posted;
        }
        posted |= message == JOB_OBJECT_MSG_JOB_MEMORY_LIMIT;
    }
}

/// Turns off, once, the dialogs that would wait for a click (a missing DLL, a crash, a missing
/// file): the runner's error mode, which every program it creates inherits.
fn no_error_dialogs() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: SetErrorMode takes flags and changes only this process's error mode.
        unsafe {
            SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX)
        };
    });
}

/// Says once that programs run outside a job here.
fn jobs_cannot_nest() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        eprintln!(
            "note: the runner is itself in a job that lets no job nest in it, so programs run \
             alone: what a program starts is not ended with it"
        );
    });
}

/// A new job: kill-on-close, no error dialogs, and the commit limit when given.
fn new_job(commit_limit: Option<u64>) -> io::Result<Job> {
    // SAFETY: no security attributes and no name: a fresh, private job.
    let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
    if handle.is_null() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `handle` is a fresh handle that nothing else owns.
    let handle = unsafe { OwnedHandle::from_raw_handle(handle) };
    // SAFETY: the struct is plain data for which all-zero bytes are valid.
    let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
    limits.BasicLimitInformation.LimitFlags =
        JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
    if let Some(bytes) = commit_limit {
        limits.BasicLimitInformation.LimitFlags |= JOB_OBJECT_LIMIT_JOB_MEMORY;
        limits.JobMemoryLimit = usize::try_from(bytes).unwrap_or(usize::MAX);
    }
    // SAFETY: the job handle is open; `limits` is the struct this class asks for, and its size.
    let set = unsafe {
        SetInformationJobObject(
            raw(&handle),
            JobObjectExtendedLimitInformation,
            (&limits as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
            size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        )
    };
    if set == 0 {
        return Err(io::Error::last_os_error());
    }
    let port = completion_port(&handle)?;
    Ok(Job { handle, port })
}

/// A completion port that receives the job's messages.
fn completion_port(job: &OwnedHandle) -> io::Result<OwnedHandle> {
    // SAFETY: a new port, not tied to any file.
    let handle =
        unsafe { CreateIoCompletionPort(INVALID_HANDLE_VALUE, std::ptr::null_mut(), 0, 1) };
    if handle.is_null() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `handle` is a fresh handle that nothing else owns.
    let port = unsafe { OwnedHandle::from_raw_handle(handle) };
    let association = JOBOBJECT_ASSOCIATE_COMPLETION_PORT {
        CompletionKey: std::ptr::null_mut(),
        CompletionPort: raw(&port),
    };
    // SAFETY: both handles are open; the struct is the one this class asks for, and its size.
    let set = unsafe {
        SetInformationJobObject(
            raw(job),
            JobObjectAssociateCompletionPortInformation,
            (&association as *const JOBOBJECT_ASSOCIATE_COMPLETION_PORT).cast(),
            size_of::<JOBOBJECT_ASSOCIATE_COMPLETION_PORT>() as u32,
        )
    };
    if set == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(port)
}

/// A program created suspended: its process and main thread.
struct Created {
    process: OwnedHandle,
    thread: OwnedHandle,
}

/// Creates `program ARGS...` suspended, with `streams` as its only inherited handles and
/// `environment` set in its environment block.
fn create_suspended(
    program: &Path,
    args: &[OsString],
    streams: Streams,
    environment: &[(OsString, OsString)],
) -> io::Result<Created> {
    let unicode = |text: &OsStr| {
        text.to_str().map(str::to_owned).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{text:?} is not Unicode, which a Windows command line must be"),
            )
        })
    };
    let application = application(&unicode(program.as_os_str())?)?;
    let args: Vec<String> = args.iter().map(|a| unicode(a)).collect::<io::Result<_>>()?;
    let line = windows_command_line(&application, &args)
        .map_err(|err| io::Error::new(io::ErrorKind::InvalidInput, err.to_string()))?;
    let mut line: Vec<u16> = line.encode_utf16().chain([0]).collect();
    let application: Vec<u16> = application.encode_utf16().chain([0]).collect();
    // Windows' variable names are case-insensitive: a set one replaces its namesake.
    let set = environment.iter().cloned();
    let vars: Vec<WideVariable> = std::env::vars_os()
        .filter(|(name, _)| {
            !environment
                .iter()
                .any(|(set, _)| name.eq_ignore_ascii_case(set))
        })
        .chain(set)
        .map(|(name, value): (OsString, OsString)| {
            (name.encode_wide().collect(), value.encode_wide().collect())
        })
        .collect();
    let environment = windows_environment_block(&vars, &REMOVED_VARIABLES);

    // Made inheritable, handed over and closed while no other program of ours starts.
    static CREATING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = CREATING.lock().unwrap_or_else(|e| e.into_inner());
    let inherited = [
        inheritable(streams.stdin)?,
        inheritable(streams.stdout)?,
        inheritable(streams.stderr)?,
    ];
    let handles: [HANDLE; 3] = [raw(&inherited[0]), raw(&inherited[1]), raw(&inherited[2])];
    let mut attributes = AttributeList::with_handles(&handles)?;
    // SAFETY: the struct is plain data for which all-zero bytes are valid.
    let mut startup: STARTUPINFOEXW = unsafe { std::mem::zeroed() };
    startup.StartupInfo.cb = size_of::<STARTUPINFOEXW>() as u32;
    startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    startup.StartupInfo.hStdInput = handles[0];
    startup.StartupInfo.hStdOutput = handles[1];
    startup.StartupInfo.hStdError = handles[2];
    startup.lpAttributeList = attributes.list();
    // SAFETY: the struct is plain data for which all-zero bytes are valid.
    let mut info: PROCESS_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: `application` is a NUL-terminated UTF-16 file name (given, so CreateProcessW
    // searches no folder itself); `line` is a writable, NUL-terminated UTF-16 command line; the
    // environment block is
    // UTF-16 and double-NUL-terminated (CREATE_UNICODE_ENVIRONMENT); `startup` is a valid
    // STARTUPINFOEXW (EXTENDED_STARTUPINFO_PRESENT) whose attribute list and handles outlive the
    // call; `info` is writable.
    let created = unsafe {
        CreateProcessW(
            application.as_ptr(),
            line.as_mut_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            1,
            CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT | EXTENDED_STARTUPINFO_PRESENT,
            environment.as_ptr().cast(),
            std::ptr::null(),
            &startup.StartupInfo,
            &mut info,
        )
    };
    if created == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: CreateProcessW returned two fresh handles that nothing else owns.
    Ok(unsafe {
        Created {
            process: OwnedHandle::from_raw_handle(info.hProcess),
            thread: OwnedHandle::from_raw_handle(info.hThread),
        }
    })
}

/// The file to run for `program`, found as std's `Command` finds it and never in the runner's
/// own folder or the current one (`command_line::windows_program`): a path as it is (with
/// `.exe` where only that file exists), a bare name in the system folder, the Windows folder,
/// then `PATH`. Named to `CreateProcessW` as its application, so it searches nothing itself.
fn application(program: &str) -> io::Result<String> {
    let folders = windows_search_folders(
        system_folder(GetSystemDirectoryW).as_deref(),
        system_folder(GetWindowsDirectoryW).as_deref(),
        &std::env::var("PATH").unwrap_or_default(),
    );
    windows_program(program, &folders, |path| Path::new(path).exists()).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "not found in the system folders or on PATH (a program in the current folder \
                 is named by its path: .\\{program})"
            ),
        )
    })
}

/// A system folder by the call that tells it (`GetSystemDirectoryW`, `GetWindowsDirectoryW`):
/// it writes the folder and returns its length, or the size it needs when the buffer is too
/// small, or 0 on failure.
fn system_folder(tell: unsafe extern "system" fn(*mut u16, u32) -> u32) -> Option<String> {
    let mut buffer = vec![0u16; 260];
    loop {
        // SAFETY: `buffer` is writable and its length is given.
        let written = unsafe { tell(buffer.as_mut_ptr(), buffer.len() as u32) } as usize;
        if written == 0 {
            return None;
        }
        if written < buffer.len() {
            return String::from_utf16(&buffer[..written]).ok();
        }
        buffer.resize(written + 1, 0);
    }
}

/// An inheritable copy of `stream`'s handle (the null device for [`Stream::Null`]).
fn inheritable(stream: Stream) -> io::Result<OwnedHandle> {
    let owned = match stream {
        Stream::Open(handle) => handle,
        Stream::Null => std::fs::File::options()
            .read(true)
            .write(true)
            .open("NUL")?
            .into(),
    };
    let mut copy: HANDLE = std::ptr::null_mut();
    // SAFETY: the source handle is open; `copy` is writable; the copy is made in this process.
    let ok = unsafe {
        DuplicateHandle(
            GetCurrentProcess(),
            raw(&owned),
            GetCurrentProcess(),
            &mut copy,
            0,
            1,
            DUPLICATE_SAME_ACCESS,
        )
    };
    if ok == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: DuplicateHandle returned a fresh handle that nothing else owns.
    Ok(unsafe { OwnedHandle::from_raw_handle(copy) })
}

/// A process attribute list with one attribute: the handles a new program inherits.
struct AttributeList {
    /// The list's storage, in `usize`s so it is aligned as the list needs.
    storage: Vec<usize>,
}

impl AttributeList {
    fn with_handles(handles: &[HANDLE; 3]) -> io::Result<AttributeList> {
        let mut size = 0usize;
        // SAFETY: a null list asks only for the size one attribute needs (the call "fails" with
        // ERROR_INSUFFICIENT_BUFFER, as documented).
        unsafe { InitializeProcThreadAttributeList(std::ptr::null_mut(), 1, 0, &mut size) };
        let mut list = AttributeList {
            storage: vec![0; size.div_ceil(size_of::<usize>())],
        };
        // SAFETY: the storage has `size` bytes, as asked.
        if unsafe { InitializeProcThreadAttributeList(list.list(), 1, 0, &mut size) } == 0 {
            // Nothing to delete: the list was never initialised.
            let err = io::Error::last_os_error();
            list.storage.clear();
            return Err(err);
        }
        // SAFETY: the list is initialised; `handles` outlives every use of the list (the caller
        // keeps both until CreateProcessW returns), and its size is given.
        let ok = unsafe {
            UpdateProcThreadAttribute(
                list.list(),
                0,
                PROC_THREAD_ATTRIBUTE_HANDLE_LIST as usize,
                handles.as_ptr().cast(),
                size_of_val(handles),
                std::ptr::null_mut(),
                std::ptr::null(),
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(list)
    }

    fn list(&mut self) -> LPPROC_THREAD_ATTRIBUTE_LIST {
        self.storage.as_mut_ptr().cast()
    }
}

impl Drop for AttributeList {
    fn drop(&mut self) {
        if !self.storage.is_empty() {
            // SAFETY: the list was initialised by InitializeProcThreadAttributeList.
            unsafe { DeleteProcThreadAttributeList(self.list()) };
        }
    }
}

/// The job's information of class `class`, as `T`.
fn query<T>(job: &OwnedHandle, class: i32) -> Option<T> {
    // SAFETY: the information structs are plain data for which all-zero bytes are valid.
    let mut info: T = unsafe { std::mem::zeroed() };
    // SAFETY: the job is open and `info` is a writable struct of the size given.
    let ok = unsafe {
        QueryInformationJobObject(
            raw(job),
            class,
            (&mut info as *mut T).cast(),
            size_of::<T>() as u32,
            std::ptr::null_mut(),
        )
    };
    (ok != 0).then_some(info)
}

/// Whether this is Wine, which reports no job CPU time and no sound memory figures (its ntdll
/// exports `wine_get_version`; Windows' does not).
fn under_wine() -> bool {
    static WINE: OnceLock<bool> = OnceLock::new();
    *WINE.get_or_init(|| {
        let name: Vec<u16> = "ntdll.dll\0".encode_utf16().collect();
        // SAFETY: `name` is a NUL-terminated UTF-16 string; ntdll is loaded in every process.
        let ntdll = unsafe { GetModuleHandleW(name.as_ptr()) };
        // SAFETY: the module handle is valid (or null, which GetProcAddress refuses) and the
        // name is a NUL-terminated byte string.
        !ntdll.is_null()
            && unsafe { GetProcAddress(ntdll, c"wine_get_version".as_ptr().cast()) }.is_some()
    })
}

/// Whether the process `pid` is still running: it can be opened and has not ended. One that
/// cannot be opened for another reason than not being there (another user's) counts as running.
/// `OpenProcess` fails with `ERROR_INVALID_PARAMETER` for an id no process has
/// (learn.microsoft.com, "OpenProcess function"); a handle that a wait finds signalled is a
/// process that has ended ("WaitForSingleObject function").
pub fn is_running(pid: u32) -> bool {
    // SAFETY: plain integers in; the handle returned, if any, is owned below.
    let handle = unsafe {
        OpenProcess(
            PROCESS_QUERY_LIMITED_INFORMATION | PROCESS_SYNCHRONIZE,
            0,
            pid,
        )
    };
    if handle.is_null() {
        // SAFETY: reads the calling thread's last error, which OpenProcess just set.
        return unsafe { GetLastError() } != ERROR_INVALID_PARAMETER;
    }
    // SAFETY: `handle` is a fresh handle that nothing else owns.
    let process = unsafe { OwnedHandle::from_raw_handle(handle) };
    !matches!(wait(&process, Duration::ZERO), Ok(true))
}

fn raw(handle: &impl AsRawHandle) -> HANDLE {
    handle.as_raw_handle() as HANDLE
}
