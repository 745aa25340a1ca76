//! The runner on Windows: every program runs in a Job Object of its own.
//!
//! The program is created suspended, put in its job, then resumed, so nothing it starts can
//! escape the job. The job is kill-on-close (if the runner dies, Windows closes its handles and
//! everything in the job dies), `TerminateJobObject` ends the program and all it started at a
//! limit or when it ends, the job's accounting gives the CPU time and its
//! `PeakProcessMemoryUsed` the peak memory (committed bytes), and its memory limit makes
//! Windows refuse memory past the problem's limit, which the job's completion port reports.
//! An unhandled exception ends the program at once (no error-reporting dialog waits for a
//! click), and its exit code is the exception's `NTSTATUS`, named by `process::exception_name`.
//!
//! Wine runs all of this but reports 0 for the job's peak memory and CPU time and does not
//! enforce its memory limit: under Wine both figures are `None` (shown as no figure).
#![allow(unsafe_code)]

use std::ffi::OsString;
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle};
use std::os::windows::process::CommandExt;
use std::path::Path;
use std::process::Child;
use std::sync::OnceLock;
use std::time::Duration;

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, INVALID_HANDLE_VALUE, WAIT_OBJECT_0};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
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
use windows_sys::Win32::System::SystemServices::JOB_OBJECT_MSG_JOB_MEMORY_LIMIT;
use windows_sys::Win32::System::Threading::{
    OpenThread, ResumeThread, WaitForSingleObject, CREATE_SUSPENDED, INFINITE,
    THREAD_SUSPEND_RESUME,
};
use windows_sys::Win32::System::IO::{CreateIoCompletionPort, GetQueuedCompletionStatus};

use super::{cannot_run, command, is_exception, Ended, Setup, Streams};
use crate::run::Exit;

/// The exit code the runner's own kills give (the runner knows which kills were its own).
const KILLED: u32 = 1;

/// A program running in a job of its own.
#[derive(Debug)]
pub struct InJob {
    child: Child,
    job: OwnedHandle,
    /// Receives the job's messages (a memory-limit refusal among them).
    port: OwnedHandle,
    result: Option<Ended>,
}

impl InJob {
    /// Creates the job, starts `program ARGS...` suspended in it, and lets it run.
    pub fn start(
        program: &Path,
        args: &[OsString],
        streams: Streams,
        setup: &Setup,
    ) -> io::Result<InJob> {
        let job = new_job(setup.memory_limit)?;
        let port = completion_port(&job)?;
        let child = command(program, args, streams)
            .creation_flags(CREATE_SUSPENDED)
            .spawn()
            .map_err(|err| cannot_run(program, err))?;
        let mut in_job = InJob {
            child,
            job,
            port,
            result: None,
        };
        // SAFETY: both handles are open and owned here.
        if unsafe { AssignProcessToJobObject(raw(&in_job.job), raw(&in_job.child)) } == 0 {
            let err = io::Error::last_os_error();
            let _ = in_job.child.kill();
            let _ = in_job.child.wait();
            return Err(io::Error::new(
                err.kind(),
                format!("cannot put {} in a job object: {err}", program.display()),
            ));
        }
        if let Err(err) = resume(in_job.child.id()) {
            in_job.kill();
            let _ = in_job.child.wait();
            return Err(err);
        }
        Ok(in_job)
    }

    /// Waits until the program has ended or `timeout` has passed.
    pub fn wait_timeout(&mut self, timeout: Duration) -> io::Result<bool> {
        if self.result.is_some() {
            return Ok(true);
        }
        let millis = timeout.as_millis().min(u128::from(INFINITE - 1)) as u32;
        // SAFETY: the process handle is open and owned by `self.child`.
        Ok(unsafe { WaitForSingleObject(raw(&self.child), millis) } == WAIT_OBJECT_0)
    }

    /// The job's CPU time so far (none under Wine).
    pub fn cpu_time(&self) -> Option<Duration> {
        if under_wine() {
            return None;
        }
        let info: JOBOBJECT_BASIC_ACCOUNTING_INFORMATION =
            query(&self.job, JobObjectBasicAccountingInformation)?;
        let ticks = info.TotalUserTime.max(0) as u64 + info.TotalKernelTime.max(0) as u64;
        Some(Duration::from_nanos(ticks * 100))
    }

    /// Ends every process in the job.
    pub fn kill(&mut self) {
        // SAFETY: the job handle is open and owned here.
        unsafe { TerminateJobObject(raw(&self.job), KILLED) };
    }

    /// Waits for the end, ends what the program left in its job, and says how it ended.
    pub fn finish(&mut self) -> io::Result<Ended> {
        if let Some(ended) = self.result {
            return Ok(ended);
        }
        let status = self.child.wait()?;
        self.kill();
        let code = status.code().unwrap_or(KILLED as i32) as u32;
        let exit = if is_exception(code) {
            Exit::Exception(code)
        } else {
            Exit::Code(code as i32)
        };
        let peak = if under_wine() {
            None
        } else {
            query::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>(
                &self.job,
                JobObjectExtendedLimitInformation,
            )
            .map(|info| info.PeakProcessMemoryUsed as u64)
            .filter(|&peak| peak > 0)
        };
        let ended = Ended {
            exit,
            cpu_time: self.cpu_time(),
            peak_memory: peak,
            memory_limit_hit: self.memory_limit_hit(),
            peak_is_upper_bound: false,
        };
        self.result = Some(ended);
        Ok(ended)
    }

    /// Whether the job posted that it refused memory past its limit.
    fn memory_limit_hit(&self) -> bool {
        let mut hit = false;
        loop {
            let (mut message, mut key, mut overlapped) = (0u32, 0usize, std::ptr::null_mut());
            // SAFETY: the port handle is open; the three out-pointers are valid and writable.
            let got = unsafe {
                GetQueuedCompletionStatus(
                    raw(&self.port),
                    &mut message,
                    &mut key,
                    &mut overlapped,
                    0,
                )
            };
            if got == 0 {
                return hit;
            }
            hit |= message == JOB_OBJECT_MSG_JOB_MEMORY_LIMIT;
        }
    }
}

/// A new job: kill-on-close, no error dialogs, and the memory limit when given.
fn new_job(memory_limit: Option<u64>) -> io::Result<OwnedHandle> {
    // SAFETY: no security attributes and no name: a fresh, private job.
    let handle = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
    if handle.is_null() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `handle` is a fresh handle that nothing else owns.
    let job = unsafe { OwnedHandle::from_raw_handle(handle) };
    // SAFETY: the struct is plain data for which all-zero bytes are valid.
    let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
    limits.BasicLimitInformation.LimitFlags =
        JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
    if let Some(bytes) = memory_limit {
        limits.BasicLimitInformation.LimitFlags |= JOB_OBJECT_LIMIT_JOB_MEMORY;
        limits.JobMemoryLimit = usize::try_from(bytes).unwrap_or(usize::MAX);
    }
    // SAFETY: the job handle is open; `limits` is the struct this class asks for, and its size.
    let set = unsafe {
        SetInformationJobObject(
            raw(&job),
            JobObjectExtendedLimitInformation,
            (&limits as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
            size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        )
    };
    if set == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(job)
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

/// Resumes the threads of the suspended process `pid` (its one main thread).
fn resume(pid: u32) -> io::Result<()> {
    // SAFETY: a snapshot of the system's threads; the handle is closed below.
    let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snapshot == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `snapshot` is a fresh handle that nothing else owns.
    let snapshot = unsafe { OwnedHandle::from_raw_handle(snapshot) };
    // SAFETY: the struct is plain data for which all-zero bytes are valid.
    let mut entry: THREADENTRY32 = unsafe { std::mem::zeroed() };
    entry.dwSize = size_of::<THREADENTRY32>() as u32;
    let mut resumed = 0;
    // SAFETY: the snapshot is open and `entry` is writable with its size set.
    let mut more = unsafe { Thread32First(raw(&snapshot), &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            // SAFETY: opening a thread by id; the handle is closed below.
            let thread = unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID) };
            if !thread.is_null() {
                // SAFETY: `thread` is open with the right to resume it.
                if unsafe { ResumeThread(thread) } != u32::MAX {
                    resumed += 1;
                }
                // SAFETY: `thread` is open and owned here.
                unsafe { CloseHandle(thread) };
            }
        }
        // SAFETY: as for Thread32First.
        more = unsafe { Thread32Next(raw(&snapshot), &mut entry) } != 0;
    }
    if resumed == 0 {
        return Err(io::Error::other(format!(
            "cannot resume process {pid}: no thread of it was found"
        )));
    }
    Ok(())
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

/// Whether this is Wine, which reports no job memory or CPU time (its ntdll exports
/// `wine_get_version`; Windows' does not).
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

fn raw(handle: &impl AsRawHandle) -> HANDLE {
    handle.as_raw_handle() as HANDLE
}
