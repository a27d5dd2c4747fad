# gdb's Python, loaded by scripts/walk: the walk of one request through the running
# service (a debug build), from its bytes in to its bytes out. Every function of the named
# source files gets a breakpoint (`rbreak FILE:.`, closures included); the request is sent
# on a connection of its own; each function entered is logged, in order, with its file and
# thread and its caller, until the request's first answer byte is in the client's socket.
#
# Environment: WALK_SOCKET (the service's socket), WALK_REQUEST (one line), WALK_FILES
# (source file names, separated by spaces), WALK_LOG (where the entries go: one line each,
# "thread<TAB>file:line<TAB>function", then each caller's "<TAB>file:line<TAB>function", nearest
# first, up to four; "-" for none).
import os
import socket

import gdb

SOURCES = "/Sources/"


def place(frame):
    sal = frame.find_sal()
    if sal is None or sal.symtab is None:
        return None
    name = sal.symtab.fullname()
    if SOURCES not in name:
        return None
    return f"{name.split(SOURCES, 1)[1]}:{sal.line}"


def entered():
    """The function entered, where, and its callers in the project's sources, nearest first
    (up to four: the nearest may be a thunk the compiler wrote, which the summary skips)."""
    frame = gdb.selected_frame()
    here = place(frame)
    if here is None:
        return None
    callers = []
    caller = frame.older()
    while caller is not None and len(callers) < 4:
        where = place(caller)
        if where is not None:
            callers.append(f"{where}\t{caller.name()}")
        caller = caller.older()
    return "\t".join([str(gdb.selected_thread().num), here, frame.name() or "?"] + (callers or ["-"]))


def answered(client):
    try:
        return len(client.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)) > 0
    except BlockingIOError:
        return False


class Entry(gdb.Breakpoint):
    """A function's first instruction: logs the entry and goes on, inside gdb (no stop
    reported), until the answer is in the client's socket."""

    log = []
    client = None

    def stop(self):
        entry = entered()
        if entry is not None:
            Entry.log.append(entry)
        return answered(Entry.client) or len(Entry.log) >= 200_000


def main():
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    # Thousands of breakpoints: leave them in place between stops, not removed and put back.
    gdb.execute("set breakpoint always-inserted on")
    gdb.execute("handle SIGPIPE SIGCHLD SIGALRM SIGHUP nostop noprint pass")
    for name in os.environ["WALK_FILES"].split():
        gdb.execute(f"rbreak {name}:.", to_string=True)
    addresses = {location.address for breakpoint in gdb.breakpoints() for location in breakpoint.locations}
    gdb.execute("delete")
    entries = [Entry(f"*{address:#x}", internal=True) for address in sorted(addresses)]
    Entry.client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    Entry.client.connect(os.environ["WALK_SOCKET"])
    Entry.client.sendall(os.environ["WALK_REQUEST"].encode() + b"\n")
    gdb.execute("continue", to_string=True)
    for breakpoint in entries:
        breakpoint.delete()
    with open(os.environ["WALK_LOG"], "w") as log:
        log.write("".join(entry + "\n" for entry in Entry.log))
    gdb.execute("detach")
    Entry.client.close()


main()
