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


    def room_ids(self):
        """The IDs `live list` shows (a set), or None if it could not be asked."""
        try:
            if self.sock is None:
                self.connect()
            self.send(b"live list")
            answer = self.read_answer()
        except (OSError, socket.timeout):
            self.close()
            return None
        if answer and answer[0].startswith(b"ERR "):
            return None
        return {line.split(b"\t", 1)[0].decode("utf-8", "replace") for line in answer if line}


def state_file_ids(state_home):
    """The room IDs in the service's state file (XDG_STATE_HOME/zaoan/state.json), or None."""
    try:
        with open(os.path.join(state_home, "zaoan", "state.json")) as f:
            return {r.get("id") for r in json.load(f).get("rooms", [])}
    except (OSError, ValueError, AttributeError):
        return None


def proc_status_kb(pid, key):
    """A `key:  N kB` line of /proc/PID/status (VmRSS, VmHWM), or None."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def reset_peak_rss(pid):
    """Starts VmHWM afresh from the current RSS (clear_refs 5), so a phase's peak is its own;
    False where it cannot (not root)."""
    try:
        with open("/proc/%d/clear_refs" % pid, "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class MemoryCgroup:
    """A cgroup of the soak's own that holds the service (and its calendar reader) under a real
    memory limit: cgroup v2 where the memory controller is there (a new group at the root of
    the hierarchy, memory.max), else cgroup v1's memory controller (a child of the soak's own
    group, memory.limit_in_bytes). `reason` says why there is none. The service's pid is
    written to cgroup.procs before it execs (so its reader, forked at start, is inside too)."""

    def __init__(self, limit_mb, tag):
        self.limit = limit_mb << 20
        self.tag = tag
        self.path = self.version = self.reason = None
        self.peak_seen = 0
        self.removed = False
        self.moved_out = 0
        if limit_mb <= 0:
            self.reason = "MEMORY_MAX=0"
            return
        why = []
        for create in (self.try_v2, self.try_v1):
            r = create()
            if r is None:
                return
            why.append(r)
        self.reason = "; ".join(why)

    @staticmethod
    def mounts(fstype):
        out = []
        try:
            with open("/proc/self/mounts") as f:
                for line in f:
                    parts = line.split()
                    if len(parts) >= 4 and parts[2] == fstype:
                        out.append((parts[1], parts[3].split(",")))
        except OSError:
            pass
        return out

    def make(self, parent, limit_file):
        path = os.path.join(parent, "zaoan-soak-%s" % self.tag)
        try:
            os.mkdir(path)
        except OSError as e:
            return "cannot create %s (%s)" % (path, e.strerror)
        try:
            with open(os.path.join(path, limit_file), "w") as f:
                f.write(str(self.limit))
        except OSError as e:
            os.rmdir(path)
            return "cannot write %s/%s (%s)" % (path, limit_file, e.strerror)
        self.path = path
        return None

    def try_v2(self):
        found = self.mounts("cgroup2")
        if not found:
            return "no cgroup v2 mounted"
        for mount, _ in found:
            try:
                with open(os.path.join(mount, "cgroup.controllers")) as f:
                    controllers = f.read().split()
            except OSError:
                continue
            if "memory" not in controllers:
                continue
            r = self.make(mount, "memory.max")
            if r is None:
                self.version = 2
                return None
            return "cgroup v2: " + r
        return "cgroup v2 (%s) has no memory controller" % ", ".join(m for m, _ in found)

    def try_v1(self):
        found = [m for m, opts in self.mounts("cgroup") if "memory" in opts]
        if not found:
            return "no cgroup v1 memory controller"
        own = "/"
        try:
            with open("/proc/self/cgroup") as f:
                for line in f:
                    parts = line.rstrip("\n").split(":", 2)
                    if len(parts) == 3 and "memory" in parts[1].split(","):
                        own = parts[2]
        except OSError:
            pass
        parent = os.path.join(found[0], own.lstrip("/"))
        r = self.make(parent, "memory.limit_in_bytes")
        if r is None:
            self.version = 1
            return None
        return "cgroup v1: " + r

    def describe(self):
        if not self.path:
            return "none (%s)" % self.reason
        return "cgroup v%d %s, %s = %d MiB" % (self.version, self.path, "memory.max" if self.version == 2
                                                else "memory.limit_in_bytes", self.limit >> 20)

    def join(self, pid):
        """Puts pid in the group (in the child before exec, or after the fact)."""
        if not self.path:
            return False
        try:
            with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
                f.write(str(pid))
            return True
        except OSError:
            return False

    def left(self, pid):
        """Whether pid has been moved out of the group since it was put there (by another
        process: the soak leaves it where it went, and says so). Counted once."""
        if not self.path or self.moved_out or self.holds(pid):
            return False
        self.moved_out = 1
        return True

    def holds(self, pid):
        try:
            with open("/proc/%d/cgroup" % pid) as f:
                text = f.read()
        except OSError:
            return False
        return ("/zaoan-soak-%s\n" % self.tag) in text

    def read(self, name):
        try:
            with open(os.path.join(self.path, name)) as f:
                return f.read()
        except (OSError, TypeError):
            return None

    def usage(self):
        """Bytes charged to the group now (the service, its reader, their page cache)."""
        text = self.read("memory.current" if self.version == 2 else "memory.usage_in_bytes")
        try:
            value = int(text)
        except (TypeError, ValueError):
            return None
        self.peak_seen = max(self.peak_seen, value)
        return value

    def peak(self):
        text = self.read("memory.peak" if self.version == 2 else "memory.max_usage_in_bytes")
        try:
            return max(int(text), self.peak_seen)
        except (TypeError, ValueError):
            return self.peak_seen or None

    def oom_kills(self):
        """Processes the kernel's OOM killer ended in the group (None if it does not say)."""
        text = self.read("memory.events" if self.version == 2 else "memory.oom_control")
        for line in (text or "").splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "oom_kill":
                return int(parts[1])
        return None

    def remove(self):
        """Removes the group once it is empty; why not, or None."""
        if not self.path or self.removed:
            return None
        deadline = monotonic() + 10
        while monotonic() < deadline:
            if not (self.read("cgroup.procs") or "").strip():
                break
            time.sleep(0.2)
        try:
            os.rmdir(self.path)
            self.removed = True
            return None
        except OSError as e:
            return "could not remove %s: %s" % (self.path, e.strerror)


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
