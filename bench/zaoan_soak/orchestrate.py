"""The orchestrator: starts the service and the client processes, samples, stops, reports."""

import collections
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from .common import *  # noqa: F401,F403
from .calendar_writer import ics, vevent
from .hostile import ATTACKS, CLASSIC_ATTACKS, PHASE_ATTACKS, PHASE_ROLES
from .report import *  # noqa: F401,F403
from .service import *  # noqa: F401,F403


PACKAGE = os.path.dirname(os.path.abspath(__file__))   # bench/zaoan_soak
ROOT = os.path.dirname(os.path.dirname(PACKAGE))          # the checkout
PYTHON = "/usr/bin/python3"


class Settings:
    """The environment's settings (see bench/soak's header), read once."""

    def __init__(self):
        self.duration = env_float("DURATION", 600)
        self.owner_conns = env_int("OWNER_CONNS", 1000)
        self.rooms = env_int("ROOMS", 1000)
        self.hostile = env_int("HOSTILE", 1) != 0
        self.calendars = env_int("CALENDARS", 1) != 0
        self.keep = env_int("KEEP", 0) != 0
        self.progress_every = env_float("PROGRESS", 10)
        self.attacks = [a.strip() for a in os.environ.get("ATTACKS", ",".join(ATTACKS)).split(",") if a.strip()]
        self.memory_max_mb = env_int("MEMORY_MAX", 256)
        self.rss_goal_mb = env_float("RSS_GOAL_MB", 64)

    def problem(self):
        """Why the soak cannot run as asked (printed, exit 2), or None."""
        unknown = [a for a in self.attacks if a not in ATTACKS]
        if unknown:
            return "unknown attack(s) %s; known: %s" % (", ".join(unknown), ",".join(ATTACKS))
        if self.hostile and os.geteuid() != 0:
            return ("the hostile client runs as uid 65534 through setpriv, which needs root;\n"
                    "run it with sudo, or HOSTILE=0 bench/soak to leave the hostile out")
        if self.hostile and not shutil.which("setpriv"):
            return "setpriv (util-linux) is missing"
        return None


def plan_phases(s, notes):
    """The run's phases, back to back over DURATION in equal parts: "classic" (the owner's load
    with the hostile's classic attacks and the calendar writer's hostile files, all at once, as
    before), then each attack of issue 29 alone (render, events, unread, reload) beside the
    owner's load, the honest calendar edits and the probe. A phase attack needs the hostile
    (uid 65534; reload: the owner) and events and unread the calendar folder."""
    new = [a for a in PHASE_ATTACKS if a in s.attacks]
    if new and not s.hostile:
        notes.append("HOSTILE=0: the phase attacks (%s) are left out" % ",".join(new))
        new = []
    if not s.calendars:
        for a in ("events", "unread"):
            if a in new:
                new.remove(a)
                notes.append("CALENDARS=0: the %s attack needs the calendar folder; left out" % a)
    classic = [a for a in s.attacks if a in CLASSIC_ATTACKS]
    names = (["classic"] if classic or not new else []) + new
    part = s.duration / len(names)
    return [{"name": n, "start": i * part, "end": (i + 1) * part, "role": PHASE_ROLES.get(n, "hostile")}
            for i, n in enumerate(names)]


def find_binary():
    """The `zaoan` to soak (`zaoan-server` beside it), built in release if missing; None if not."""
    binary = os.environ.get("ZAOAN_BIN") or os.path.join(ROOT, ".build/release/zaoan")
    server = os.path.join(os.path.dirname(binary), "zaoan-server")  # what `zaoan serve` runs
    if os.path.exists(binary) and os.path.exists(server):
        return binary
    if os.environ.get("ZAOAN_BIN"):
        print("bench/soak: ZAOAN_BIN=%s, or the zaoan-server beside it, does not exist" % binary, file=sys.stderr)
        return None
    print("bench/soak: building %s" % binary, flush=True)
    try:
        r = subprocess.run(["swift", "build", "-c", "release", "--product", "zaoan"], cwd=ROOT)
        if r.returncode == 0:
            r = subprocess.run(["swift", "build", "-c", "release", "--product", "zaoan-server"], cwd=ROOT)
    except FileNotFoundError:
        print("bench/soak: swift is not on PATH (sudo resets PATH); build first with\n"
              "  swift build -c release --product zaoan && swift build -c release --product zaoan-server\n"
              "or pass ZAOAN_BIN", file=sys.stderr)
        return None
    if r.returncode != 0 or not os.path.exists(binary) or not os.path.exists(server):
        print("bench/soak: build failed", file=sys.stderr)
        return None
    return binary


def copy_package(tmp):
    """The package, readable by uid 65534, in the temp dir: what the client processes run."""
    copy = os.path.join(tmp, "zaoan_soak")
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for directory, _, files in os.walk(copy):
        os.chmod(directory, 0o755)
        for name in files:
            os.chmod(os.path.join(directory, name), 0o644)
    return copy


class World:
    """The soak's temp dir: the service's directories, its config, the clients' outputs."""

    def __init__(self, settings):
        tmp = self.tmp = tempfile.mkdtemp(prefix="zaoan-soak-")
        os.chmod(tmp, 0o755)
        for d in ("state", "config", "run", "out", "calendars", "scratch"):
            os.mkdir(os.path.join(tmp, d), 0o700)
        self.cal_dir = os.path.join(tmp, "calendars")
        os.mkdir(os.path.join(tmp, "scratch", "open"))
        os.chmod(os.path.join(tmp, "scratch", "open"), 0o1777)   # a world-writable folder a link may point into
        self.out_owner = os.path.join(tmp, "out")
        self.out_hostile = os.path.join(tmp, "out-hostile")
        os.mkdir(self.out_hostile, 0o700)
        if settings.hostile:
            os.chown(self.out_hostile, NOBODY, NOBODY)
        self.out_probe = os.path.join(tmp, "out-probe")
        os.mkdir(self.out_probe, 0o700)
        self.probe_uid = PROBE_UID if os.geteuid() == 0 else None   # without root, the owner's own
        if self.probe_uid is not None:
            os.chown(self.out_probe, PROBE_UID, PROBE_UID)
        self.package_copy = copy_package(tmp)
        self.sock_path = os.path.join(tmp, "s")
        self.cfg_path = os.path.join(tmp, "config.json")
        self.config = {"max_connections": MAX_CONNECTIONS, "max_rooms": MAX_ROOMS}
        if settings.calendars:
            self.config["calendars"] = [self.cal_dir]
            with open(os.path.join(self.cal_dir, "honest.ics"), "wb") as f:
                f.write(ics([vevent("honest", ":" + time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() + 1800)),
                                    "DURATION:PT30M", "SUMMARY:honest edit 0")]))
        with open(self.cfg_path, "w") as f:
            json.dump(self.config, f)
        os.chmod(self.cfg_path, 0o644)
        self.log_path = os.path.join(tmp, "service.log")
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp, "LANG": "C.UTF-8",
                    "XDG_STATE_HOME": os.path.join(tmp, "state"),
                    "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
                    "XDG_RUNTIME_DIR": os.path.join(tmp, "run")}


def pre_add_rooms(sock_path, rooms, notes):
    """Adds the rooms as the owner in one session, reading every answer: (added, seconds)."""
    t = monotonic()
    adder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    adder.settimeout(60)
    adder.connect(sock_path)
    titles = ["早安 room", "Morning news", "夜读 · night reading", "Radio \x1b[31mred\x1b[0m",
              "Weekly 直播 show", "Podcast 🎙"]
    reqs = [b"session"]
    for i in range(1, rooms + 1):
        start = ("+%dm" % (i % 10 + 1)) if i <= 10 else "+1h"
        title = "%s %d" % (titles[i % len(titles)], i)
        extra = " end=+90m" if i % 3 == 0 else ""
        reqs.append(("live add r%d %s %s%s" % (i, start, title, extra)).encode())
    reqs.append(b"quit")
    adder.sendall(b"\n".join(reqs) + b"\n")
    answers = b""
    while answers.count(b"\n") < len(reqs):
        data = adder.recv(65536)
        if not data:
            break
        answers += data
    adder.close()
    lines = answers.decode("utf-8", "replace").split("\n")[: len(reqs)]
    added = sum(1 for x in lines[1:-1] if x == "ok")
    if added != rooms:
        bad = collections.Counter(x for x in lines[1:-1] if x != "ok")
        notes.append("pre-add: only %d of %d rooms answered ok (%s)" % (added, rooms, dict(bad)))
    return added, monotonic() - t


class Soak:
    """One soak, phase by phase; `run()` returns the exit status."""

    def __init__(self, settings, binary):
        self.s = settings
        self.binary = binary
        self.w = World(settings)
        self.started_at = time.strftime("%Y-%m-%d %H:%M:%S %Z")
        self.stamp = time.strftime("%Y%m%d-%H%M%S")
        self.notes = []
        self.workers = {}
        self.result = {"service_died": None}
        self.interrupted = {"flag": False}
        self.crashed = {}
        self.retired = set()      # phase workers stopped on purpose at their phase's end
        self.phases = plan_phases(settings, self.notes)
        self.phase_log = []       # what each phase left: its peak RSS, rooms, OOM kills
        self.phase_index = -1
        self.cgroup = MemoryCgroup(settings.memory_max_mb, "%s-%d" % (self.stamp, os.getpid()))
        if not self.cgroup.path:
            print("bench/soak: no memory limit for the service: %s" % self.cgroup.reason, flush=True)

    def run(self):
        print("bench/soak: temp dir %s, binary %s, %g s" % (self.w.tmp, self.binary, self.s.duration), flush=True)
        print("bench/soak: phases %s; memory limit: %s" % (", ".join("%s %.0f-%.0f s" % (p["name"], p["start"], p["end"])
                                                                   for p in self.phases), self.cgroup.describe()), flush=True)
        try:
            self.start_service()
            problem = self.connect_stats()
            if problem:
                return self.fail_early(problem)
            os.chmod(self.w.sock_path, 0o666)
            self.version = self.stats_conn.ask(b"version")
            self.added, self.add_seconds = pre_add_rooms(self.w.sock_path, self.s.rooms, self.notes)
            self.take_baseline()
            self.start_workers()
            self.sample_under_load()
            self.stop_clients()
            self.wait_until_idle()
            self.stop_service()
        finally:
            why = self.cgroup.remove()
            if why:
                self.notes.append(why)
        report, status = build_report(self.context())
        self.write_report(report)
        return status

    def start_service(self):
        log_r, log_w = os.pipe()
        try:
            fcntl.fcntl(log_r, 1031, 1 << 20)    # F_SETPIPE_SZ: 1 MiB, so the service never waits on it
        except OSError:
            self.notes.append("could not enlarge the log pipe to 1 MiB; the service may have waited on its log")
        # Own process group (Ctrl-C reaches only the soak, which then stops everything in
        # order), and SIGTERM if the soak itself dies.
        cgroup = self.cgroup

        def in_child():
            die_with_parent()
            cgroup.join(os.getpid())     # before exec: the reader it forks at start is inside too
        self.service = subprocess.Popen([self.binary, "serve", "--socket", self.w.sock_path, "--config", self.w.cfg_path],
                                        env=self.w.env, stdin=subprocess.DEVNULL, stdout=log_w, stderr=log_w,
                                        close_fds=True, cwd=self.w.tmp, start_new_session=True,
                                        preexec_fn=in_child)
        CHILDREN.append(self.service)
        if cgroup.path and not cgroup.holds(self.service.pid):
            joined = cgroup.join(self.service.pid)
            self.notes.append("the service joined its cgroup only after exec%s" % ("" if joined else ": it could not"))
        os.close(log_w)
        self.log_reader = LogReader(log_r, self.w.log_path)
        self.log_reader.start()

        def on_sigint(signum, frame):
            self.interrupted["flag"] = True
        signal.signal(signal.SIGINT, on_sigint)
        signal.signal(signal.SIGTERM, on_sigint)

    def fail_early(self, msg):
        print("bench/soak: " + msg, file=sys.stderr)
        for p in self.workers.values():
            if p.poll() is None:
                p.kill()
        service = self.service
        if service.poll() is None:
            service.terminate()
            try:
                service.wait(5)
            except subprocess.TimeoutExpired:
                service.kill()
        self.log_reader.join(5)
        print("service log:\n" + "\n".join(self.log_reader.info["other"][-20:]), file=sys.stderr)
        self.cgroup.remove()
        if not self.s.keep:
            shutil.rmtree(self.w.tmp, ignore_errors=True)
        return 2

    def connect_stats(self):
        """Waits for the socket and opens the stats session; why not, or None."""
        deadline = monotonic() + 15
        self.stats_conn = StatsConn(self.w.sock_path)
        while True:
            if self.service.poll() is not None:
                return "zaoan serve exited at start with status %s" % self.service.returncode
            if os.path.exists(self.w.sock_path):
                try:
                    self.stats_conn.connect()
                    return None
                except OSError:
                    pass
            if monotonic() > deadline:
                return "zaoan serve did not answer on %s within 15 s" % self.w.sock_path
            time.sleep(0.05)

    def take_baseline(self):
        """Rooms added, the first calendar reading done, nothing else connected but the stats session."""
        time.sleep(0.5)
        wait_until = monotonic() + 30
        while monotonic() < wait_until and not calendars_idle(self.stats_conn.stats()[0]):
            time.sleep(0.1)
        self.base_stats, self.base_lines, _ = self.stats_conn.stats()
        self.expected_rooms = {"r%d" % i for i in range(1, self.s.rooms + 1)}
        seen = self.stats_conn.room_ids()
        if seen is not None and not self.expected_rooms <= seen:
            self.notes.append("%d pre-added rooms missing from `live list` before the load" % len(self.expected_rooms - seen))
            self.expected_rooms &= seen   # judge only what was acknowledged and is there
        pid = self.service.pid
        self.rss_start = proc_rss_kb(pid)
        self.fds_start = proc_fds(pid)
        self.cpu_service_start = proc_cpu_s(pid)
        self.busy_start, self.self_start = machine_busy_s(), self_cpu_s()

    def start_workers(self):
        self.t0 = time.time()
        s = self.s
        self.base_cfg = {"socket": self.w.sock_path, "t0": self.t0, "duration": s.duration, "rooms": s.rooms,
                         "owner_conns": s.owner_conns, "probe_uid": self.w.probe_uid,
                         "slow_readers": env_int("SLOW_READERS", 2),
                         "slow_period_ms": env_float("SLOW_PERIOD_MS", 4),
                         "writer_batch": env_int("WRITER_BATCH", 4),
                         "writer_pause": env_float("WRITER_PAUSE", 0.5),
                         "live_list": env_float("LIVE_LIST", 0.02),
                         "attacks": s.attacks,
                         "hostile_hold": env_int("HOSTILE_HOLD", 0),
                         "phases": [{"name": p["name"], "start": p["start"], "end": p["end"]} for p in self.phases],
                         "classic_end": self.phases[0]["end"] if self.phases[0]["name"] == "classic" else 0.0,
                         "config_path": self.w.cfg_path,
                         "render_watches": env_int("RENDER_WATCHES", 128),
                         "render_sessions": env_int("RENDER_SESSIONS", 8),
                         "events": env_int("EVENTS", 3000),
                         "events_every": env_float("EVENTS_EVERY", 30),
                         "events_lead": env_float("EVENTS_LEAD", 15),
                         "events_subscribers": env_int("EVENTS_SUBSCRIBERS", 120),
                         "unread_conns": env_int("UNREAD_CONNS", 125),
                         "reload_every": env_float("RELOAD_EVERY", 3),
                         "reload_cities": env_int("RELOAD_CITIES", 30000),
                         "reload_keys": env_int("RELOAD_KEYS", 36000)}
        self.start_worker("probe", self.w.out_probe, uid=self.w.probe_uid)
        time.sleep(0.3)
        self.start_worker("owner", self.w.out_owner)
        if s.calendars:
            self.start_worker("calendar", self.w.out_owner)
        self.enter_phase(0, 0.0)

    def enter_phase(self, index, t_rel):
        """Ends the phase before (its attacker stopped, its peak RSS, rooms and OOM kills noted),
        then starts phase `index`'s attacker with the peak RSS counted afresh."""
        if self.phase_index >= 0:
            self.end_phase(t_rel)
        self.phase_index = index
        phase = self.phases[index]
        phase["started"] = t_rel
        reset_peak_rss(self.service.pid)
        if phase["name"] == "classic" and not self.s.hostile:
            return
        role = phase["role"]
        out = self.w.out_owner if role == "reload" else self.w.out_hostile
        self.start_worker(role, out, uid=None if role == "reload" else NOBODY)

    def end_phase(self, t_rel):
        phase = self.phases[self.phase_index]
        role = phase["role"]
        p = self.workers.get(role)
        if p is not None and role not in self.retired:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    self.notes.append("%s client did not stop within 20 s at its phase's end; killed" % role)
                    p.kill()
                    p.wait()
            if p.returncode not in (0, None) and role not in self.crashed:
                self.crashed[role] = p.returncode
            self.retired.add(role)
        seen = self.stats_conn.room_ids() if self.service.poll() is None else None
        self.phase_log.append({
            "name": phase["name"], "ended": t_rel, "hwm_kb": proc_status_kb(self.service.pid, "VmHWM"),
            "rooms_seen": None if seen is None else len(self.expected_rooms & seen),
            "rooms_missing": None if seen is None else sorted(self.expected_rooms - seen)[:10],
            "rooms_missing_n": None if seen is None else len(self.expected_rooms - seen),
            "oom_kills": self.cgroup.oom_kills(), "died": self.service.poll() is not None})

    def start_worker(self, role, out_dir, uid=None):
        tmp = self.w.tmp
        cfg = dict(self.base_cfg, out=out_dir, calendars=self.w.cal_dir, scratch=os.path.join(tmp, "scratch"))
        cfg_file = os.path.join(tmp, "cfg-%s.json" % role)
        with open(cfg_file, "w") as f:
            json.dump(cfg, f)
        os.chmod(cfg_file, 0o644)
        cmd = [PYTHON, "-I", self.w.package_copy, "--worker", role, cfg_file]
        if uid is not None:
            cmd = ["setpriv", "--reuid=%d" % uid, "--regid=%d" % uid, "--clear-groups", "--"] + cmd
        errf = open(os.path.join(tmp, "%s.err" % role), "wb")
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=errf, stderr=errf,
                             close_fds=True, cwd=tmp, env={"PATH": self.w.env["PATH"], "LANG": "C.UTF-8"},
                             start_new_session=True)
        CHILDREN.append(p)
        self.workers[role] = p
        return p

    def sample_under_load(self):
        """Once a second for DURATION: RSS, fds and stats; stops early on a death or the RSS limit."""
        self.samples = []      # (t_rel, rss_kb, fds, stats dict or None, stats ms)
        self.stats_errors = collections.Counter()
        next_progress = self.s.progress_every
        end_at = monotonic() + self.s.duration - (time.time() - self.t0)   # the minutes count from t0
        rss_limit_kb = env_int("RSS_LIMIT_MB", mem_total_kb() // 4 // 1024) * 1024
        self.cg_samples = []   # (t_rel, bytes charged to the cgroup)
        self.anon_samples = []  # (t_rel, RssAnon kB): the service's own memory, without mapped files
        while monotonic() < end_at and not self.interrupted["flag"]:
            tick_start = monotonic()
            t_rel = time.time() - self.t0
            if self.phase_index + 1 < len(self.phases) and t_rel >= self.phases[self.phase_index + 1]["start"]:
                self.enter_phase(self.phase_index + 1, t_rel)
            if self.service.poll() is not None:
                self.result["service_died"] = "zaoan serve exited with status %s at %.0f s" % (self.service.returncode, t_rel)
                break
            rss, fds, st = self.sample(t_rel)
            if self.crashed or self.over_limit(rss, rss_limit_kb, t_rel):
                break
            if t_rel >= next_progress:
                next_progress += self.s.progress_every
                print(progress_line(t_rel, rss, fds, st, self.w.out_owner, self.w.out_hostile, self.w.out_probe,
                                    self.phases[self.phase_index]["name"]), flush=True)
            time.sleep(max(0.0, 1.0 - (monotonic() - tick_start)))
        self.load_seconds = time.time() - self.t0
        self.end_phase(self.load_seconds)
        if self.interrupted["flag"]:
            self.notes.append("interrupted after %.0f s" % self.load_seconds)

    def sample(self, t_rel):
        rss = proc_rss_kb(self.service.pid)
        fds = proc_fds(self.service.pid)
        st, raw, ms = self.stats_conn.stats()
        if st is None:
            self.stats_errors[raw[:80]] += 1
        self.samples.append((t_rel, rss, fds, st, ms))
        self.anon_samples.append((t_rel, proc_status_kb(self.service.pid, "RssAnon")))
        if self.cgroup.path:
            if self.cgroup.left(self.service.pid):
                self.cgroup_left_at = t_rel
                self.notes.append("the service was moved out of its memory cgroup by another process at %.0f s: "
                                  "the limit and the cgroup figures hold only until then" % t_rel)
            if not self.cgroup.moved_out:
                self.cg_samples.append((t_rel, self.cgroup.usage()))
        for role, p in self.workers.items():
            if p.poll() is not None and role not in self.crashed and role not in self.retired:
                self.crashed[role] = p.returncode
        return rss, fds, st

    def over_limit(self, rss, rss_limit_kb, t_rel):
        if rss is None or rss <= rss_limit_kb:
            return False
        self.result["rss_limit"] = "service RSS %s passed RSS_LIMIT_MB=%d at %.0f s; the soak stopped early" % (
            fmt_mb(rss), rss_limit_kb // 1024, t_rel)
        print("bench/soak: " + self.result["rss_limit"], flush=True)
        return True

    def stop_clients(self):
        print("bench/soak: stopping clients", flush=True)
        self.cpu_service_load = proc_cpu_s(self.service.pid)
        self.busy_load, self.self_load = machine_busy_s(), self_cpu_s()
        workers = self.workers
        # The probe first, so that the teardown of the load is not measured as latency.
        for group in (["probe"], [r for r in workers if r != "probe"]):
            for role in group:
                if role in workers and workers[role].poll() is None:
                    workers[role].send_signal(signal.SIGTERM)
            for role in group:
                p = workers.get(role)
                if p is None:
                    continue
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    self.notes.append("%s client did not stop within 20 s; killed" % role)
                    p.kill()
                    p.wait()
                if p.returncode not in (0, None) and role not in self.crashed:
                    self.crashed[role] = p.returncode

    def wait_until_idle(self):
        """Idle = connections_open 1 (this stats session), watches 0, timers 0, and no more fds
        than at the start. The fds are part of the condition because connections still waiting
        in the listen backlog when their clients exited are accepted (and closed) only afterwards."""
        self.idle_after = None
        t = monotonic()
        self.final_stats, self.final_lines = None, []
        service = self.service
        if service.poll() is None:
            while monotonic() - t < 30:
                st, raw, ms = self.stats_conn.stats()
                if st is not None:
                    self.final_stats, self.final_lines = st, raw
                    fds_now = proc_fds(service.pid)
                    if (st.get("connections_open") == 1 and st.get("watches") == 0 and st.get("timers") == 0
                            and calendars_idle(st) and fds_now is not None and self.fds_start is not None
                            and fds_now <= self.fds_start):
                        self.idle_after = monotonic() - t
                        break
                time.sleep(0.25)
        self.rss_end = proc_rss_kb(service.pid)
        self.fds_end = proc_fds(service.pid)
        self.cpu_service_end = proc_cpu_s(service.pid)
        if service.poll() is None:
            st, raw, _ = self.stats_conn.stats()
            if st is not None:
                self.final_stats, self.final_lines = st, raw
        self.rooms_end = self.stats_conn.room_ids() if service.poll() is None else None
        self.stats_conn.close()

    def stop_service(self):
        self.shutdown = None
        service = self.service
        if service.poll() is not None:
            if not self.result["service_died"]:
                self.result["service_died"] = "zaoan serve exited with status %s" % service.returncode
        else:
            t = monotonic()
            service.send_signal(signal.SIGTERM)
            try:
                service.wait(10)
                self.shutdown = monotonic() - t
            except subprocess.TimeoutExpired:
                self.notes.append("zaoan serve did not exit within 10 s of SIGTERM; killed")
                service.kill()
                service.wait()
        self.exit_status = service.returncode
        self.log_reader.join(10)
        self.rooms_on_disk = state_file_ids(self.w.env["XDG_STATE_HOME"])
        self.oom_kills = self.cgroup.oom_kills()
        self.cgroup_peak = self.cgroup.peak() if self.cgroup.path else None

    def client_results(self):
        w, s = self.w, self.s
        data = {
            "owner": read_json(os.path.join(w.out_owner, "owner.json")),
            "probe": read_json(os.path.join(w.out_probe, "probe.json")),
            "hostile": read_json(os.path.join(w.out_hostile, "hostile.json")) if "hostile" in self.workers else None,
            "calendar": read_json(os.path.join(w.out_owner, "calendar.json")) if s.calendars else None,
        }
        for role in ("hostile-render", "hostile-events", "hostile-unread", "reload"):
            if role in self.workers:
                data[role] = read_json(os.path.join(w.out_owner if role == "reload" else w.out_hostile, role + ".json"))
        worker_err = {}
        for role in self.workers:
            try:
                with open(os.path.join(w.tmp, "%s.err" % role), "rb") as f:
                    text = f.read().decode("utf-8", "replace").strip()
                if text:
                    worker_err[role] = text[-3000:]
            except OSError:
                pass
        return data, worker_err

    def context(self):
        """Everything the report reads."""
        data, worker_err = self.client_results()
        s = self
        return dict(
            started_at=s.started_at, binary=s.binary, version=s.version, duration=s.s.duration,
            load_seconds=s.load_seconds, config=s.w.config, rooms=s.s.rooms, added=s.added,
            add_seconds=s.add_seconds, hostile=s.s.hostile, calendars=s.s.calendars, owner_conns=s.s.owner_conns,
            base_stats=s.base_stats, rss_start=s.rss_start, fds_start=s.fds_start, rss_end=s.rss_end,
            fds_end=s.fds_end, samples=s.samples, final_stats=s.final_stats, final_lines=s.final_lines,
            idle_after=s.idle_after, shutdown=s.shutdown, exit_status=s.exit_status,
            service_died=s.result["service_died"], rss_limit=s.result.get("rss_limit"), crashed=s.crashed,
            worker_err=worker_err, data=data, notes=s.notes, stats_errors=s.stats_errors, log=s.log_reader.info,
            cpu_service=(None if s.cpu_service_load is None or s.cpu_service_start is None
                         else s.cpu_service_load - s.cpu_service_start),
            cpu_service_total=s.cpu_service_end, tmp=s.w.tmp, keep=s.s.keep, cfg=s.base_cfg,
            cpu_self=self_cpu_s(),
            cpu_machine=(None if s.busy_start is None or s.busy_load is None else s.busy_load - s.busy_start),
            cpu_self_load=s.self_load - s.self_start,
            phases=s.phases, phase_log=s.phase_log, cgroup=s.cgroup.describe(), cgroup_on=bool(s.cgroup.path),
            cgroup_left_at=getattr(s, "cgroup_left_at", None), cg_samples=getattr(s, "cg_samples", []),
            anon_samples=getattr(s, "anon_samples", []), cgroup_peak=getattr(s, "cgroup_peak", None),
            oom_kills=getattr(s, "oom_kills", None), rss_goal_kb=int(s.s.rss_goal_mb * 1024),
            expected_rooms=s.expected_rooms, rooms_end=getattr(s, "rooms_end", None),
            rooms_on_disk=getattr(s, "rooms_on_disk", None))

    def write_report(self, report):
        """To bench/out/soak-DATE.txt (or /tmp), then to stdout; the temp dir removed unless KEEP."""
        stamp = self.stamp
        out_dir = os.path.join(ROOT, "bench", "out")
        if ignored_by_git(ROOT, "bench/out/soak-x.txt"):
            os.makedirs(out_dir, exist_ok=True)
            report_path = os.path.join(out_dir, "soak-%s.txt" % stamp)
        else:
            report_path = os.path.join("/tmp", "zaoan-soak-%s.txt" % stamp)
            report += "\n(bench/out/ is not gitignored here, so this report went to /tmp)\n"
        try:
            with open(report_path, "w") as f:
                f.write(report + "\nreport: %s\n" % report_path)
        except OSError as e:
            report_path = os.path.join("/tmp", "zaoan-soak-%s.txt" % stamp)
            report += "\n(could not write bench/out/: %s; the report went to /tmp)\n" % e
            with open(report_path, "w") as f:
                f.write(report + "\nreport: %s\n" % report_path)
        report += "\nreport: %s\n" % report_path
        print(report, end="")
        if self.s.keep:
            print("kept %s (service.log, client outputs)" % self.w.tmp)
        else:
            shutil.rmtree(self.w.tmp, ignore_errors=True)


def orchestrate():
    settings = Settings()
    problem = settings.problem()
    if problem:
        print("bench/soak: " + problem, file=sys.stderr)
        return 2
    binary = find_binary()
    if binary is None:
        return 2
    return Soak(settings, binary).run()
