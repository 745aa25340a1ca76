"""`cargo xtask debug --batch` inside gdb (rust-gdb): runs the solution on the case, stops at
its first panic (std's `rust_panic`), at a signal, or at the time limit, and prints where it
stopped as JSON lines marked `@xtask-debug ` for the xtask to read (xtask/src/debug/mod.rs).

It is handed one string, `xtask_request` (JSON: input, output, errors, own, seconds, elements,
frames, width), set by an `-ex python ...` before it runs. It uses only gdb's documented Python
API (Values, Frames, Blocks, Symbols, events) and the pretty-printers rust-gdb loads.
"""
import json
import os
import shlex
import signal
import threading

import gdb

MARK = "@xtask-debug "
request = json.loads(xtask_request)  # noqa: F821 (set by the xtask before this runs)


def say(**record):
    print(MARK + json.dumps(record), flush=True)


def quietly(command):
    gdb.execute(command, to_string=True)


for setting in (
    "set confirm off",
    "set pagination off",
    "set width 0",
    "set print elements %d" % request["elements"],
    "set print repeats 10",
    "set print max-depth 3",
    "set startup-with-shell on",
    "set environment RUST_BACKTRACE 0",
):
    quietly(setting)

# The panic breakpoint: std's `rust_panic` (mangled as `__rustc::rust_panic` since Rust 1.88,
# plain before), called once the panic hook has printed the message, before unwinding.
panic_breakpoint = gdb.Breakpoint("rust_panic", internal=True)
if not panic_breakpoint.locations:
    panic_breakpoint.delete()
    panic_breakpoint = gdb.Breakpoint("core::panicking::panic_fmt", internal=True)

stops = []
exits = []
gdb.events.stop.connect(stops.append)
gdb.events.exited.connect(exits.append)

redirect = "< %s > %s 2> %s" % tuple(
    shlex.quote(request[key]) for key in ("input", "output", "errors")
)
quietly("starti " + redirect)
inferior = gdb.selected_inferior()

# gdb starts the solution in a process group of its own, out of reach of the xtask, which ends
# the debugger's group: a process the solution starts is ended with that group at the end.
solution_group = None
try:
    solution_group = os.getpgid(inferior.pid)
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

interrupted = threading.Event()


def interrupt():
    interrupted.set()
    try:
        os.kill(inferior.pid, signal.SIGINT)
    except OSError:
        pass


timer = threading.Timer(request["seconds"], interrupt)
timer.daemon = True
timer.start()
stops.clear()
try:
    gdb.execute("continue", to_string=True)
except gdb.error:
    pass
timer.cancel()


def own_file(frame):
    symtab = frame.find_sal().symtab
    if symtab is None:
        return None
    path = symtab.fullname()
    own = request["own"]
    inside = path.startswith(own.rstrip("/") + "/")
    if not inside or "/target/" in path[len(own):]:
        return None
    return path


def shown(value):
    """The value as Rust's pretty-printers print it, a reference as what it points to."""
    # gdb names a Rust reference `*mut T`, like a raw pointer: every pointer to data is followed
    # (a reference is always valid; a raw pointer that is not says so).
    kind = value.type.strip_typedefs()
    prefix = ""
    pointer = kind.code in (gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_REF)
    if pointer and kind.target().strip_typedefs().code not in (
        gdb.TYPE_CODE_FUNC,
        gdb.TYPE_CODE_VOID,
    ):
        address = int(value)
        try:
            value = value.dereference()
            value.fetch_lazy()
        except gdb.error:
            return "0x%x (nothing readable there)" % address
        prefix = "&"
    try:
        text = value.format_string(max_elements=request["elements"], max_depth=3)
    except gdb.error as err:
        text = "<%s>" % err
    text = " ".join(text.split())
    if len(text) > request["width"]:
        text = text[: request["width"] - 1] + "…"
    return prefix + text


def variables(frame, line):
    """The frame's arguments, then its locals declared before `line`, innermost scope first."""
    found = []
    seen = set()
    try:
        block = frame.block()
    except RuntimeError:
        return found
    arguments, locals_ = [], []
    while block is not None:
        for symbol in block:
            if not (symbol.is_argument or symbol.is_variable) or symbol.name in seen:
                continue
            if not symbol.is_argument and symbol.line >= line:
                continue
            seen.add(symbol.name)
            try:
                text = shown(symbol.value(frame))
            except (gdb.error, RuntimeError) as err:
                text = "<%s>" % err
            (arguments if symbol.is_argument else locals_).append(
                {"name": symbol.name, "value": text, "argument": symbol.is_argument}
            )
        if block.function is not None:
            break
        block = block.superblock
    return arguments + locals_


def report_frames():
    frame = gdb.newest_frame()
    shown_frames = 0
    skipped = 0
    walked = 0
    while frame is not None and walked < 512:
        walked += 1
        path = own_file(frame)
        if path is not None:
            if shown_frames < request["frames"]:
                line = frame.find_sal().line
                function = frame.function()
                say(
                    frame=function.name if function is not None else (frame.name() or "?"),
                    file=path,
                    line=line,
                    values=variables(frame, line),
                )
                shown_frames += 1
            else:
                skipped += 1
        try:
            frame = frame.older()
        except gdb.error:
            break
    say(more=skipped, walked_all=frame is None)


if exits:
    code = getattr(exits[-1], "exit_code", None)
    say(ended="exited", code=code if code is not None else 0)
elif not stops:
    say(ended="unknown")
else:
    stop = stops[-1]
    if isinstance(stop, gdb.BreakpointEvent) and panic_breakpoint in stop.breakpoints:
        say(ended="panicked")
    elif isinstance(stop, gdb.SignalEvent) and interrupted.is_set():
        say(ended="interrupted", seconds=request["seconds"])
    elif isinstance(stop, gdb.SignalEvent):
        say(ended="signal", signal=stop.stop_signal)
    else:
        say(ended="stopped")
    report_frames()
    quietly("kill")
end_solution_group()
