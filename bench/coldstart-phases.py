#!/usr/bin/python3
"""Where a socket-activated cold start of `zaoan serve` spends its time, phase by phase.

Usage: bench/coldstart-phases.py ZAOAN_BINARY [RUNS]      (default 9 runs; prints medians)

Each run starts `systemd-socket-activate -l SOCKET strace ... zaoan serve` and connects to the
socket with a `greeting`, as bench/run.sh's cold-start case does, with the service traced by
strace through a seccomp filter (`--seccomp-bpf`: only the calls named below stop it, so the
others run at full speed). The phases are read off the trace (strace runs the activator, which execs
`zaoan` in its own process, so LISTEN_PID still names the service), from the `execve` of
`zaoan`:

  client start      `zaoan serve` is the static client, which execs zaoan-server
  loading libs      zaoan-server's execve to its last shared library opened (ld.so: search, map)
  runtime init      to its first open of its own (the config file): relocations, constructors,
                    the Swift runtime and Foundation's start, argument parsing
  service setup     to accept4 of the waiting connection: config, state directory and lock,
                    the event loop, the worker threads, the listening socket
  first answer      to the answer's send: the request, its zone and date formatting (ICU)

Traced system calls are slower than untraced ones (each stops the process for strace), so the
sum is more than an untraced cold start, and the `connect → answer` line is of the traced
runs; bench/run.sh gives the untraced times.
LD_DEBUG=statistics of one untraced start is printed too (the loader's own count of its time
and relocations).
"""
import os, socket, statistics, subprocess, sys, tempfile, time

zaoan = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 9
work = tempfile.mkdtemp(prefix="zaoan-cold-")
env = dict(os.environ)
for name in ("HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
    path = os.path.join(work, name.lower())
    os.makedirs(path, mode=0o700)
    env[name] = path
flags = ["--language", "zh", "--city", "北京", "--timezone", "Asia/Shanghai"]
activator = ["systemd-socket-activate", "-E", "HOME", "-E", "XDG_CONFIG_HOME", "-E", "XDG_RUNTIME_DIR",
             "-E", "XDG_STATE_HOME", "-E", "XDG_CACHE_HOME"]
PHASES = ["client start", "loading libs", "runtime init", "service setup", "first answer"]


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            sys.exit(f"coldstart-phases: {what} within {seconds} s")
        time.sleep(0.002)


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except FileNotFoundError:
        return []


def greet(path):
    """connect → first answer line, in ms, and the answer."""
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(10)
    start = time.monotonic()
    client.connect(path)
    client.sendall(b"greeting\n")
    answer = b""
    while not answer.endswith(b"\n"):
        chunk = client.recv(4096)
        if not chunk:
            break
        answer += chunk
    elapsed = (time.monotonic() - start) * 1000
    client.close()
    return elapsed, answer.decode(errors="replace").strip()


def phases(trace):
    """The phase lengths (ms) of one trace, or None if a marker is missing."""
    execs, libraries, first_own, accepted, answered = [], None, None, None, None
    with open(trace) as f:
        for line in f:
            fields = line.split(None, 2)
            if len(fields) < 3:
                continue
            when, call = float(fields[1]), fields[2]
            if call.startswith("execve(") and "= 0" in call:
                execs.append(when)
            elif len(execs) >= 3 and call.startswith("openat(") and accepted is None:
                if ".so" in call.split('"')[1]:
                    libraries = when
                elif first_own is None and libraries is not None and not call.split('"')[1].startswith(("/proc/", "/sys/")):
                    first_own = when
            elif call.startswith("accept4(") and accepted is None and "EAGAIN" not in call:
                accepted = when
            elif call.startswith(("sendto(", "sendmsg(", "write(")) and accepted is not None and answered is None and "<6>" not in call:
                answered = when
    if len(execs) < 3 or None in (libraries, first_own, accepted, answered):
        return None
    marks = [execs[-2], execs[-1], libraries, first_own, accepted, answered]
    return [(b - a) * 1000 for a, b in zip(marks, marks[1:])]


rows, totals, answers = [], [], set()
for run in range(runs):
    sock = os.path.join(work, "cold.sock")
    trace = os.path.join(work, f"trace.{run}")
    # strace outside the activator: the activator execs zaoan in its own process, so that
    # LISTEN_PID names the service (strace inside would fork it with another pid).
    command = ["strace", "-f", "--seccomp-bpf", "-ttt", "-o", trace, "-e",
               "trace=execve,openat,accept4,sendto,sendmsg,write"] + activator + ["-l", sock, zaoan, "serve"] + flags
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "log"), "a"))
    wait_for(lambda: os.path.exists(sock), 5, "the socket did not appear")
    time.sleep(0.2)
    elapsed, answer = greet(sock)
    answers.add(answer)
    for child in children(process.pid):  # strace's child: the service
        os.kill(child, 15)
    process.wait(timeout=10)
    os.unlink(sock)
    lengths = phases(trace)
    if lengths is None:
        print(f"run {run + 1}: markers missing in {trace}", file=sys.stderr)
        continue
    rows.append(lengths)
    totals.append(elapsed)

print(f"zaoan serve cold start under strace --seccomp-bpf, {len(rows)} runs, answer {' / '.join(sorted(answers))}; medians, ms:")
for index, name in enumerate(PHASES):
    values = [row[index] for row in rows]
    print(f"  {name:<14} {statistics.median(values):7.2f}   (min {min(values):.2f}, max {max(values):.2f})")
print(f"  {'sum':<14} {statistics.median([sum(r) for r in rows]):7.2f}")
print(f"  connect → answer, traced: {statistics.median(totals):.2f} ms")

# The loader's own statistics, untraced: how long relocation takes, how many there are.
server = os.path.join(os.path.dirname(zaoan), "zaoan-server")
result = subprocess.run([server, "--version"], env=dict(env, LD_DEBUG="statistics"), capture_output=True, text=True)
print("LD_DEBUG=statistics, zaoan-server --version:")
for line in result.stderr.splitlines():
    text = line.split(":", 1)[-1].strip()
    if text:
        print("  " + text)
