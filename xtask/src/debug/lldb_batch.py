"""cargo xtask debug --batch inside lldb (rust-lldb): runs the solution on the case, stops at
its first panic (std's rust_panic), at a signal, or at the time limit, and prints where it
stopped as JSON lines marked '@xtask-debug ' for the xtask to read (xtask/src/debug/mod.rs),
the same records as gdb_batch.py.

It is handed one string, xtask_request (JSON: input, output, errors, own, seconds, elements,
frames, width), set by a script command before it runs. No backquote may
appear in this file: lldb evaluates the text between two as an expression in every command line,
this one (script exec(...)) included. It uses lldb's SB API (SBTarget,
SBLaunchInfo, SBFrame, SBValue) and the summaries and synthetic children rust-lldb loads.
"""
import json
import os
import re
import signal
import threading

import lldb

MARK = "@xtask-debug "
request = json.loads(xtask_request)  # noqa: F821 (set by the xtask before this runs)


def say(**record):
    print(MARK + json.dumps(record), flush=True)


debugger = lldb.debugger
debugger.SetAsync(False)
target = debugger.GetSelectedTarget()

# The panic breakpoint: std's rust_panic (mangled as __rustc::rust_panic since Rust 1.88,
# plain before), called once the panic hook has printed the message, before unwinding.
panic_breakpoint = target.BreakpointCreateByName("rust_panic")
if panic_breakpoint.GetNumLocations() == 0:
    target.BreakpointDelete(panic_breakpoint.GetID())
    panic_breakpoint = target.BreakpointCreateByRegex(r"^core::panicking::panic_fmt$")

info = lldb.SBLaunchInfo([])
info.AddOpenFileAction(0, request["input"], True, False)
info.AddOpenFileAction(1, request["output"], False, True)
info.AddOpenFileAction(2, request["errors"], False, True)
environment = lldb.SBEnvironment()
environment.Set("RUST_BACKTRACE", "0", True)
info.SetEnvironment(environment, True)
interrupted = threading.Event()
process_box = []


def interrupt():
    interrupted.set()
    if process_box:
        process_box[0].SendAsyncInterrupt()


# Launched stopped at its entry, so that the timer has the process to interrupt while
# Continue waits for it to stop (lldb's synchronous mode).
info.SetLaunchFlags(info.GetLaunchFlags() | lldb.eLaunchFlagStopAtEntry)
error = lldb.SBError()
process = target.Launch(info, error)
process_box.append(process)

# lldb starts the solution in a process group of its own, out of reach of the xtask, which ends
# the debugger's group: a process the solution starts is ended with that group at the end.
solution_group = None
if error.Success():
    try:
        solution_group = os.getpgid(process.GetProcessID())
    except OSError:
        pass
if solution_group == os.getpgrp():
    solution_group = None


def end_solution_group():
    if solution_group is not None:
        try:
            os.killpg(solution_group, signal.SIGKILL)
        except OSError:
            pass

timer = threading.Timer(request["seconds"], interrupt)
timer.daemon = True
timer.start()
if error.Success():
    process.Continue()
timer.cancel()


def own_file(frame):
    spec = frame.GetLineEntry().GetFileSpec()
    if not spec.IsValid() or spec.GetDirectory() is None:
        return None
    path = spec.fullpath
    own = request["own"].rstrip("/") + "/"
    if not path.startswith(own) or "/target/" in path[len(own) - 1 :]:
        return None
    return path


def cut(text):
    text = " ".join(text.split())
    if len(text) > request["width"]:
        text = text[: request["width"] - 1] + "…"
    return text


def short_type(name):
    """A type's name without its paths and default allocator: Vec<i64> for
    alloc::vec::Vec<i64, alloc::alloc::Global>."""
    name = re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*::", "", name or "")
    return name.replace(", Global>", ">")


def text_of(value, depth=0):
    """The value with its summary and children as rust-lldb's providers give them."""
    summary = value.GetSummary()
    if summary is not None:
        summary = summary.replace("\n", "\\n")
    plain = value.GetValue()
    count = value.GetNumChildren()
    if summary is not None and summary.startswith('"'):
        return summary
    if count == 0 or depth >= 3:
        return summary or plain or ("{...}" if count else "")
    shown = min(count, request["elements"])
    children = []
    for index in range(shown):
        child = value.GetChildAtIndex(index)
        name = child.GetName() or ""
        inner = text_of(child, depth + 1)
        children.append(inner if name.startswith("[") else "%s: %s" % (name, inner))
    if count > shown:
        children.append("...")
    head = "%s(%s) = " % (short_type(value.GetTypeName()), summary) if summary else ""
    return head + "{" + ", ".join(children) + "}"


def shown(value):
    kind = value.GetType()
    prefix = ""
    if kind.IsPointerType() or kind.IsReferenceType():
        pointee = kind.GetPointeeType()
        if pointee.IsValid() and pointee.GetName() not in ("void", "()"):
            target_value = value.Dereference()
            if not target_value.GetError().Success():
                return "0x%x (nothing readable there)" % value.GetValueAsUnsigned()
            value = target_value
            prefix = "&"
    return prefix + cut(text_of(value))


def variables(frame, line):
    found = []
    for argument in (True, False):
        values = frame.GetVariables(argument, not argument, False, True)
        for index in range(values.GetSize()):
            value = values.GetValueAtIndex(index)
            declared = value.GetDeclaration()
            if not argument and declared.IsValid() and declared.GetLine() >= line:
                continue
            found.append({"name": value.GetName(), "value": shown(value), "argument": argument})
    return found


def report_frames(thread):
    shown_frames = 0
    skipped = 0
    count = thread.GetNumFrames()
    walked = min(count, 512)
    for index in range(walked):
        frame = thread.GetFrameAtIndex(index)
        path = own_file(frame)
        if path is None:
            continue
        if shown_frames < request["frames"]:
            line = frame.GetLineEntry().GetLine()
            say(
                frame=frame.GetDisplayFunctionName() or frame.GetFunctionName() or "?",
                file=path,
                line=line,
                values=variables(frame, line),
            )
            shown_frames += 1
        else:
            skipped += 1
    say(more=skipped, walked_all=walked == count)


state = process.GetState()
if not error.Success() and state != lldb.eStateStopped:
    say(ended="unknown", why=error.GetCString())
elif state == lldb.eStateExited:
    say(ended="exited", code=process.GetExitStatus())
elif state == lldb.eStateStopped:
    thread = process.GetSelectedThread()
    reason = thread.GetStopReason()
    hit = (
        reason == lldb.eStopReasonBreakpoint
        and thread.GetStopReasonDataAtIndex(0) == panic_breakpoint.GetID()
    )
    if hit:
        say(ended="panicked")
    elif interrupted.is_set():
        say(ended="interrupted", seconds=request["seconds"])
    elif reason == lldb.eStopReasonSignal:
        number = thread.GetStopReasonDataAtIndex(0)
        say(ended="signal", signal=process.GetUnixSignals().GetSignalAsCString(number))
    else:
        say(ended="signal", signal=thread.GetStopDescription(256))
    report_frames(thread)
    process.Kill()
else:
    say(ended="unknown")
end_solution_group()
