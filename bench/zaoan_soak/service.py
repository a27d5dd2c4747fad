"""The orchestrator's view of the service: its stats session, /proc readings, its log."""

import json
import os
import resource
import signal
import socket
import subprocess
import threading
import time

from .common import *  # noqa: F401,F403


class StatsConn(BlockingSession):
    """The `session` for `stats`, kept open the whole run."""
    name = "stats connection"

    def __init__(self, path):
        super().__init__(path, timeout=5.0)
        self.failures = 0

    def stats(self):
        """(dict, raw lines, latency ms) or (None, error text, None)."""
        try:
            if self.sock is None:
                self.connect()
            t = time.perf_counter()
            self.send(b"stats")
            answer = self.read_answer()
            if answer and answer[0].startswith(b"ERR "):
                raise OSError(answer[0].decode("utf-8", "replace"))
            lines = [line.decode("utf-8", "replace") for line in answer]
            ms = (time.perf_counter() - t) * 1000
        except (OSError, socket.timeout) as e:
            self.failures += 1
            self.close()
            return None, str(e), None
        d = {}
        for line in lines:
            if ": " in line:
                k, v = line.split(": ", 1)
                try:
                    d[k] = int(v)
                except ValueError:
                    try:
                        d[k] = float(v)
                    except ValueError:
                        d[k] = v
        return d, lines, ms

    def ask(self, request):
        """A one-line answer."""
        self.send(request)
        return self.readline().decode("utf-8", "replace")


def calendars_idle(st):
    """No calendar reading running (stats: `calendars: N read, M waiting, K reading`)."""
    if not st:
        return False
    text = st.get("calendars")
    return not isinstance(text, str) or text.endswith(" 0 reading")


def proc_rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def mem_total_kb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 4 << 20


def proc_fds(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return None


def machine_busy_s():
    """CPU seconds the whole machine has been busy (all CPUs), from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in fields[1:9])
        return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def self_cpu_s():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def proc_cpu_s(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / tick
    except (OSError, IndexError, ValueError):
        return None


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def die_with_parent():
    """In the child before exec: SIGTERM when the soak exits, however it exits."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)   # PR_SET_PDEATHSIG
    except Exception:
        pass


def ignored_by_git(root, relpath):
    try:
        r = subprocess.run(["git", "-C", root, "check-ignore", "-q", relpath],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r.returncode == 0
    except OSError:
        # No git: trust the .gitignore line we know of.
        try:
            with open(os.path.join(root, ".gitignore")) as f:
                return any(l.strip() in ("/bench/out/", "bench/out/", "bench/out") for l in f)
        except OSError:
            return False


class LogReader(threading.Thread):
    """Drains the service's stderr. The `refused ...` lines of the hostile's flood (tens of
    thousands a second) are counted, not kept; every other line is kept (the first 40 in
    the report) and written to service.log with a sample of 20 refusals."""

    def __init__(self, fd, path):
        super().__init__(daemon=True)
        self.fd = fd
        self.path = path
        self.info = {"lines": 0, "bytes": 0, "refused": 0, "other": [], "other_more": 0}

    def run(self):
        info, tail, sampled = self.info, b"", 0
        with open(self.path, "wb") as out:
            while True:
                try:
                    chunk = os.read(self.fd, 1 << 20)
                except OSError:
                    break
                if not chunk:
                    break
                if len(chunk) < (1 << 19):
                    # Read in batches: waking on each of the service's writes (one per line,
                    # tens of thousands a second under the flood) would cost more CPU than the
                    # service. 20 ms of the heaviest flood seen fits the 1 MiB pipe easily.
                    time.sleep(0.02)
                info["bytes"] += len(chunk)
                buf = tail + chunk
                end = buf.rfind(b"\n") + 1
                whole, tail = buf[:end], buf[end:]
                n = whole.count(b"\n")
                refused = whole.count(b": refused ")
                info["lines"] += n
                info["refused"] += refused
                if refused == n and sampled >= 20:
                    continue
                for line in whole.split(b"\n")[:-1]:
                    if b": refused " in line:
                        if sampled < 20:
                            sampled += 1
                            out.write(line + b"\n")
                        continue
                    out.write(line + b"\n")
                    if len(info["other"]) < 40:
                        info["other"].append(line.decode("utf-8", "replace")[:300])
                    else:
                        info["other_more"] += 1
                out.flush()
        os.close(self.fd)
