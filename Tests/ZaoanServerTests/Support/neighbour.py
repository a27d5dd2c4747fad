"""A hostile local user, for HostileNeighbourTests: run as another uid through setpriv.

    neighbour.py hold PATH COUNT REQUEST   open COUNT connections, send REQUEST on each, print
                                           what the first line of each was, then hold them
                                           all until stdin closes
    neighbour.py refused PATH COUNT        send COUNT one-shot `live add` requests (refused:
                                           not the owner) and count the answers by code
    neighbour.py fill-pipe PATH SECONDS    hand a pipe over with a bar's watch, clear
                                           O_NONBLOCK on it, fill it, never read it; print
                                           the answer, then hold it SECONDS or until stdin
                                           closes

Prints one JSON object on stdout. Standard library only (Debian's /usr/bin/python3).
"""
import fcntl
import json
import os
import select
import socket
import sys


def first_line(sock, timeout=10.0):
    sock.settimeout(timeout)
    data = b""
    while b"\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\n", 1)[0].decode("utf-8", "replace")


def hold(path, count, request):
    held, answers = [], {}
    busy = []
    for _ in range(count):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        try:
            sock.sendall(request.encode() + b"\n")
        except OSError:
            pass  # refused at once: the ERR line may still be there to read
        try:
            line = first_line(sock)
        except OSError:
            line = ""
        kind = line.split(" ", 2)[1] if line.startswith("ERR ") else ("answer" if line else "closed")
        answers[kind] = answers.get(kind, 0) + 1
        if kind == "busy" and len(busy) < 3:
            busy.append(line)
        held.append(sock)
    print(json.dumps({"answers": answers, "busy": busy}), flush=True)
    sys.stdin.read()  # until the test closes our stdin
    for sock in held:
        sock.close()


def refused(path, count):
    answers = {}
    for index in range(count):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        sock.sendall(b"live add n%d +1h neighbour\n" % index)
        line = first_line(sock)
        sock.close()
        kind = line.split(" ", 2)[1] if line.startswith("ERR ") else line
        answers[kind] = answers.get(kind, 0) + 1
    print(json.dumps({"answers": answers}), flush=True)


def fill_pipe(path, seconds):
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: one page
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    socket.send_fds(sock, [b"watch --format=i3bar blocks time HH:mm:ss\n"], [write_end])
    line = first_line(sock)
    kind = "handed-over" if line == "ok writing to the bar's output" else ("answer" if line else "closed")
    # Fill it on our copy, a byte at a time (a line the service wrote may share the page),
    # then clear O_NONBLOCK: on a shared open file description the service's write blocks.
    os.set_blocking(write_end, False)
    filled = 0
    try:
        while True:
            filled += os.write(write_end, b"x")
    except BlockingIOError:
        pass
    os.set_blocking(write_end, True)
    print(json.dumps({"answers": {kind: 1}, "filled": filled}), flush=True)
    select.select([sys.stdin], [], [], seconds)
    sock.close()


if __name__ == "__main__":
    command, path = sys.argv[1], sys.argv[2]
    if command == "hold":
        hold(path, int(sys.argv[3]), sys.argv[4])
    elif command == "refused":
        refused(path, int(sys.argv[3]))
    elif command == "fill-pipe":
        fill_pipe(path, float(sys.argv[3]))
    else:
        sys.exit("unknown command " + command)
