"""The report: verdict, probe latency, minutes, the service, every client."""

import collections
import json
import math
import os
import sys

from .common import *  # noqa: F401,F403
from .handover import PipeFiller
from .service import *  # noqa: F401,F403


def fmt_ms(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return "%.2f" % x


def fmt_mb(kb):
    return "-" if kb is None else "%.1f MB" % (kb / 1024.0)


def progress_line(t_rel, rss, fds, st, out_owner, out_hostile, out_probe, phase="-"):
    owner = read_json(os.path.join(out_owner, "owner.json")) or {}
    probe = read_json(os.path.join(out_probe, "probe.json")) or {}
    hostile = read_json(os.path.join(out_hostile, "hostile.json")) or {}
    open_owner = sum(owner.get("open", {}).values())
    pe = probe.get("extra", {})
    def recent(k):
        r = pe.get(k, {}).get("recent", {})
        return "%s/%s" % (fmt_ms(r.get("p99")), fmt_ms(r.get("max"))) if r.get("n") else "-"
    busy_owner = sum(v for k, v in owner.get("errors", {}).items() if k.endswith("|busy"))
    return ("[%5.0fs] %s | service: conns %s watches %s rss %s fds %s | owner open %d busy %d | "
            "hostile held %s | probe p99/max 10 s: one-shot %s session %s ms" % (
                t_rel, phase, st.get("connections_open", "?") if st else "?",
                st.get("watches", "?") if st else "?", fmt_mb(rss), fds, open_owner, busy_owner,
                hostile.get("extra", {}).get("held_now", "-") if phase == "classic" else "-", recent("oneshot"),
                recent("session")))


def by_kind(counter):
    out = collections.defaultdict(dict)
    for key, n in counter.items():
        kind, _, rest = key.partition("|")
        out[kind][rest] = n
    return out


def build_report(c):
    """The report's text and the exit status (0 all held, 1 a check failed, 2 a client crashed)."""
    data = c["data"]
    probe = (data["probe"] or {}).get("extra", {})
    owner = data["owner"] or {}
    hostile = data["hostile"] or {}
    checks, status, peak = verdict(c, probe, owner)
    L = header_lines(c, owner, status, checks)
    L += probe_lines(probe)
    L += phase_lines(c, probe)
    L += minute_lines(c, probe, owner, hostile)
    L += service_lines(c, peak)
    L += client_lines(c, probe)
    L += closing_lines(c)
    return "\n".join(L) + "\n", status


# ---- verdict ----

def verdict(c, probe, owner):
    """The checks (kind, text), the exit status, and the RSS peak (kB, at s)."""
    checks = []
    service_checks(c, checks)
    for name, label in (("oneshot", "one-shot ping"), ("session", "session ping")):
        probe_checks(probe.get(name, {}), label, checks)
    idle_checks(c, checks)
    memory_checks(c, checks)
    phase_checks(c, probe, checks)
    stall_checks(c, probe, owner, checks)
    room_checks(c, owner, checks)
    calendar_checks(c, checks)
    for role, code in c["crashed"].items():
        checks.append(("FAIL", "the %s client process exited with status %s (a soak bug; see below)" % (role, code)))
    cpu_checks(c, checks)
    status = 0
    if any(k == "FAIL" for k, _ in checks):
        status = 1
    if c["crashed"]:
        status = 2
    # memory is reported, not judged
    peak = max(((s[1], s[0]) for s in c["samples"] if s[1] is not None), default=(None, None))
    if c["rss_start"] and c["rss_end"] and c["rss_end"] > 2 * c["rss_start"]:
        checks.append(("note", "RSS at the end is %.1fx the start (%s -> %s) with every client gone" % (
            c["rss_end"] / c["rss_start"], fmt_mb(c["rss_start"]), fmt_mb(c["rss_end"]))))
    owner_busy = sum(v for k, v in (owner.get("errors") or {}).items() if k.endswith("|busy"))
    owner_refused = owner_busy + sum(v for k, v in (owner.get("counts") or {}).items() if "|refused-" in k)
    if owner_refused:
        checks.append(("note", "the owner's own clients were refused %d times (ERR busy / backlog full)" % owner_refused))
    return checks, status, peak


def service_checks(c, checks):
    if c["service_died"]:
        checks.append(("FAIL", "service died: " + c["service_died"]))
    else:
        checks.append(("ok", "service stayed up, and exited with status %s on SIGTERM%s" % (
            c["exit_status"], "" if c["shutdown"] is None else " after %.2f s" % c["shutdown"])))
        if c["exit_status"] not in (0,):
            checks.append(("FAIL", "service exit status %s after SIGTERM" % c["exit_status"]))


def probe_checks(p, label, checks):
    o = p.get("overall", {})
    if not o.get("n"):
        checks.append(("FAIL", "probe %s: no answers at all" % label))
    elif o["p99"] >= P99_GOAL_MS:
        checks.append(("FAIL", "probe %s p99 %.2f ms >= %g ms" % (label, o["p99"], P99_GOAL_MS)))
    else:
        checks.append(("ok", "probe %s p99 %.2f ms < %g ms" % (label, o["p99"], P99_GOAL_MS)))
    minutes = p.get("minutes", {})
    bad = [m for m, s in minutes.items() if s.get("n") and s["p99"] >= P99_GOAL_MS]
    if bad:  # the goal holds throughout: in every minute, not only overall
        checks.append(("FAIL", "probe %s p99 >= %g ms in minute(s) %s" % (
            label, P99_GOAL_MS, ", ".join(str(int(m) + 1) for m in sorted(bad, key=int)))))
    if p.get("stall_count"):
        checks.append(("note", "probe %s stalled %d times: no answer for 5 s, then a new connection (first at %s s)" % (
            label, p["stall_count"], p["stalls"][0][0])))
    if p.get("refused") or p.get("timeouts") or p.get("errors") or p.get("lost"):
        tried = p.get("overall", {}).get("n", 0) + p.get("refused", 0) + p.get("timeouts", 0) + p.get("errors", 0)
        checks.append(("note", "probe %s: of %d tries %d refused (service full), %d timeouts, %d errors; %d lost" % (
            label, tried, p.get("refused", 0), p.get("timeouts", 0), p.get("errors", 0), p.get("lost", 0))))


def idle_checks(c, checks):
    fs = c["final_stats"] or {}
    idle = (fs.get("connections_open") == 1 and fs.get("watches") == 0 and fs.get("timers") == 0)
    if c["service_died"]:
        return
    if idle:
        checks.append(("ok", "idle %.1f s after the clients stopped: connections_open 1, watches 0, timers 0%s"
                       % (c["idle_after"] or 0, "" if c["idle_after"] is not None else " (but see fds)")))
    else:
        checks.append(("FAIL", "not idle 30 s after the clients stopped: connections_open %s, watches %s, timers %s"
                       % (fs.get("connections_open"), fs.get("watches"), fs.get("timers"))))
    if c["fds_end"] is not None and c["fds_start"] is not None and c["fds_end"] <= c["fds_start"]:
        checks.append(("ok", "descriptors back to %d (%d at the start)" % (c["fds_end"], c["fds_start"])))
    else:
        checks.append(("FAIL", "descriptors %s at the end, %s at the start" % (c["fds_end"], c["fds_start"])))


def memory_checks(c, checks):
    if c["rss_limit"]:
        checks.append(("FAIL", c["rss_limit"]))
    # Flat after the first minutes: the most in the last two minutes against the most in
    # minutes 2-3 (judged from 5 minutes of load on).
    warm = [s[1] for s in c["samples"] if s[1] is not None and 60 <= s[0] < 180]
    late = [s[1] for s in c["samples"] if s[1] is not None and s[0] >= c["load_seconds"] - 120]
    if c["load_seconds"] >= 300 and warm and late and len(c["phases"]) == 1:
        grew = max(late) - max(warm)
        verdict = "ok" if max(late) <= max(warm) * 1.10 + 4096 else "FAIL"
        checks.append((verdict, "RSS %s at most in minutes 2-3, %s at most in the last two minutes (%+.1f MB)" % (
            fmt_mb(max(warm)), fmt_mb(max(late)), grew / 1024.0)))


# ---- the phases: each attack of issue 29 beside the probe ----

MAX_GOAL_MS = 100.0
PHASE_KEYS = ("requests", "closed_output_limit", "closed_slow_reader", "closed_partial_line", "connections_refused",
              "held_for_next_turn", "formatter_cache_misses", "log_lines_dropped")


def phase_view(c, probe, ph):
    """What one phase measured: probe, RSS, cgroup, stats deltas, rooms, and whether its goal held."""
    start, end = ph["start"], ph["end"]
    log = next((x for x in c["phase_log"] if x["name"] == ph["name"]), None)
    ss = [x for x in c["samples"] if start <= x[0] < end]
    rss = [x[1] for x in ss if x[1] is not None]
    rss_max = max(rss + ([log["hwm_kb"]] if log and log.get("hwm_kb") else []), default=None)
    cg = [b for t, b in c["cg_samples"] if start <= t < end and b is not None]
    anon = [b for t, b in c["anon_samples"] if start <= t < end and b is not None]
    before = [x[3] for x in c["samples"] if x[0] < start and x[3]]
    during = [x[3] for x in ss if x[3]]
    first = before[-1] if before else (c["base_stats"] or {})
    last = during[-1] if during else None
    delta = {}
    for k in PHASE_KEYS:
        a, b = first.get(k), (last or {}).get(k)
        delta[k] = (b - a) if isinstance(a, int) and isinstance(b, int) else None
    stalls = [t for t in ((c["data"].get("owner") or {}).get("extra") or {}).get("session_stalls_t", [])
              if start <= t < end]
    v = {"name": ph["name"], "start": start, "end": end, "ran": log is not None, "rss_max": rss_max,
         "owner_stalls": len(stalls), "anon_max": max(anon) if anon else None,
         "cg_max": max(cg) if cg else None, "delta": delta, "log": log or {},
         "probe": {n: probe.get(n, {}).get("phases", {}).get(ph["name"], {}) for n in ("oneshot", "session")}}
    why = []
    if not v["ran"]:
        why.append("did not run (the soak stopped before it)")
    for n, label in (("oneshot", "one-shot"), ("session", "session")):
        pr = v["probe"][n]
        if not pr.get("n"):
            why.append("probe %s: no answers" % label)
            continue
        if pr["p99"] >= P99_GOAL_MS:
            why.append("probe %s p99 %.2f ms" % (label, pr["p99"]))
        if pr["max"] >= MAX_GOAL_MS:
            why.append("probe %s max %.2f ms" % (label, pr["max"]))
        if pr.get("stalls"):
            why.append("probe %s stalled %d times (no answer for 5 s; reconnected)" % (label, pr["stalls"]))
    if rss_max is not None and rss_max > c["rss_goal_kb"]:
        why.append("RSS %s > %s" % (fmt_mb(rss_max), fmt_mb(c["rss_goal_kb"])))
    if log and log.get("died"):
        why.append("the service died")
    if log and log.get("rooms_missing_n"):
        why.append("%d acknowledged rooms missing (%s)" % (log["rooms_missing_n"], ", ".join(log["rooms_missing"])))
    if log and log.get("rooms_seen") is None and not log.get("died"):
        why.append("`live list` could not be asked at the phase's end")
    v["why"] = why
    return v


def phase_checks(c, probe, checks):
    if c["oom_kills"]:
        checks.append(("FAIL", "the kernel's OOM killer ended %d process(es) in the service's cgroup (%s)" % (
            c["oom_kills"], c["cgroup"])))
    for ph in c["phases"]:
        v = phase_view(c, probe, ph)
        if v["why"]:
            checks.append(("FAIL", "goal under %s did not hold: %s" % (ph["name"], "; ".join(v["why"]))))
        else:
            p1, p2 = v["probe"]["oneshot"], v["probe"]["session"]
            checks.append(("ok", "goal under %s held: probe p99/max %.2f/%.2f (one-shot), %.2f/%.2f ms (session); "
                           "RSS max %s; not killed; %d rooms kept" % (
                               ph["name"], p1["p99"], p1["max"], p2["p99"], p2["max"], fmt_mb(v["rss_max"]),
                               v["log"].get("rooms_seen") or 0)))


def stall_checks(c, probe, owner, checks):
    """A connection the service stops reading while lines wait on it, for good: the probe's
    session (no pong for 5 s) and the owner's sessions (no answer for 10 s), each replaced."""
    n_owner = (owner.get("counts") or {}).get("session|stalled", 0)
    n_probe = sum((probe.get(n) or {}).get("stall_count", 0) for n in ("oneshot", "session"))
    if n_owner or n_probe:
        first = ((owner.get("extra") or {}).get("session_stalls_t") or [None])[0]
        checks.append(("FAIL", "connections stalled (lines sent, no answer while others were answered): the probe's "
                       "session %d times, the owner's sessions %d times%s" % (
                           n_probe, n_owner, "" if first is None else " (the first at %.0f s)" % first)))


def room_checks(c, owner, checks):
    """No acknowledged room lost: the pre-added rooms, and the writer's rooms as it last knew
    them, in `live list` at the end and in the state file after SIGTERM."""
    extra = owner.get("extra") or {}
    present = set(extra.get("writer_present") or [])
    unknown = set(extra.get("writer_unknown") or [])
    absent = set(extra.get("writer_ids") or []) - present - unknown
    for label, ids in (("`live list` at the end", c["rooms_end"]), ("the state file after SIGTERM", c["rooms_on_disk"])):
        if ids is None:
            if not c["service_died"]:
                checks.append(("FAIL", "%s could not be read" % label))
            continue
        lost = (c["expected_rooms"] | present) - ids
        back = absent & ids
        if lost or back:
            checks.append(("FAIL", "%s: %d acknowledged rooms missing (%s), %d acknowledged removals undone (%s)" % (
                label, len(lost), ", ".join(sorted(lost)[:8]), len(back), ", ".join(sorted(back)[:8]))))
        else:
            checks.append(("ok", "%s: every acknowledged room there (%d pre-added, %d of the writer's), none it removed" % (
                label, len(c["expected_rooms"]), len(present))))


def calendar_checks(c, checks):
    if not c["calendars"]:
        return
    cal = c["data"].get("calendar")
    edits = (cal or {}).get("edit_s", {})
    if not cal or not edits.get("n"):
        checks.append(("FAIL", "the honest calendar's edits were never seen in `schedule`"))
    elif cal.get("missed"):
        checks.append(("FAIL", "%d of the honest calendar's edits not shown within 30 s" % cal["missed"]))
    else:
        checks.append(("ok", "every honest calendar edit shown (%d; p50 %.2f s, max %.2f s) among the hostile files" % (
            edits["n"], edits["p50"], edits["max"])))


def cpu_checks(c, checks):
    """Sets c["other_cpu"]: what other processes used during the load (the service section shows it)."""
    data = c["data"]
    c["other_cpu"] = None
    if c["cpu_machine"] is not None and c["cpu_service"] is not None:
        ours = c["cpu_service"] + c["cpu_self_load"] + sum(
            (data.get(r) or {}).get("cpu", 0) for r in CLIENT_ROLES)
        c["other_cpu"] = max(0.0, c["cpu_machine"] - ours)
        share = c["other_cpu"] / max(1, c["load_seconds"])
        if share > 0.25:
            checks.append(("note", "other processes used %.0f%% of a CPU during the load (builds, tests?): "
                           "the latencies above are suspect" % (100 * share)))


CLIENT_ROLES = ("owner", "hostile", "probe", "calendar", "hostile-render", "hostile-events", "hostile-unread", "reload")


# ---- the sections ----

def header_lines(c, owner, status, checks):
    L = []
    add = L.append
    add("zaoan soak report — %s" % c["started_at"])
    add("=" * 78)
    add("binary    %s (%s)" % (c["binary"], c["version"]))
    add("host      %d CPUs, %s, Python %s" % (os.cpu_count(), os.uname().release, sys.version.split()[0]))
    add("duration  %.0f s of load (DURATION=%g)" % (c["load_seconds"], c["duration"]))
    add("config    %s" % json.dumps(c["config"]))
    add("rooms     %d of %d pre-added in %.1f s (one session, every `ok` read)" % (
        c["added"], c["rooms"], c["add_seconds"]))
    mix = owner.get("extra", {}).get("mix", {})
    add("load      owner (uid 0): %d connections: %s watchers, %s sessions, %s one-shot workers, "
        "%s slow readers (8 KiB / %g ms), 1 writer (batch %d, pause %g s)" % (
            c["owner_conns"], mix.get("watch"), mix.get("session"), mix.get("oneshot"), mix.get("slow"),
            c["cfg"]["slow_period_ms"], c["cfg"]["writer_batch"], c["cfg"]["writer_pause"]))
    add("          hostile (uid 65534): %s" % (("attacks %s; holder holds %s" % (
        ",".join(c["cfg"]["attacks"]), c["cfg"]["hostile_hold"] or "as many as it can"))
        if c["hostile"] else "off (HOSTILE=0)"))
    add("          probe (uid %s): one-shot ping every 100 ms, session ping every 10 ms" % (c["cfg"].get("probe_uid") or 0))
    add("phases    %s" % ", ".join("%s %.0f-%.0f s" % (p["name"], p["start"], p["end"]) for p in c["phases"]))
    add("memory    %s" % c["cgroup"])
    add("")
    add("VERDICT: %s" % ("PASS" if status == 0 else "FAIL"))
    for kind, text in checks:
        add("  %-4s  %s" % (kind, text))
    for n in c["notes"]:
        add("  note  %s" % n)
    add("")
    return L


def probe_lines(probe):
    L = []
    add = L.append
    add("Probe latency (ms; goal p99 < %g ms)" % P99_GOAL_MS)
    add("  %-32s %8s %7s %7s %7s %8s  %7s %5s %5s" % ("", "answered", "p50", "p99", "max", "refused", "timeout", "err", "lost"))
    worst = {}
    for name, label in (("oneshot", "one-shot ping (connect→pong)"), ("session", "session ping (send→pong)")):
        p = probe.get(name, {})
        o = p.get("overall", {})
        add("  %-32s %8d %7s %7s %7s %8d  %7d %5d %5d" % (
            label, o.get("n", 0), fmt_ms(o.get("p50")), fmt_ms(o.get("p99")), fmt_ms(o.get("max")),
            p.get("refused", 0), p.get("timeouts", 0), p.get("errors", 0), p.get("lost", 0)))
        mins = [(int(m), s) for m, s in p.get("minutes", {}).items() if s.get("n")]
        if mins:
            m, s = max(mins, key=lambda x: x[1]["p99"])
            worst[name] = (m, s)
    for name, label in (("oneshot", "one-shot"), ("session", "session")):
        if name in worst:
            m, s = worst[name]
            add("  worst minute, %-9s minute %d: p50 %s  p99 %s  max %s  (n %d)" % (
                label, m + 1, fmt_ms(s["p50"]), fmt_ms(s["p99"]), fmt_ms(s["max"]), s["n"]))
    add("")
    return L


MINUTE_ROW = "  %3s  %-22s %7s  %-22s  %5s %5s %7s %5s %9s %8s %7s %7s"


def minute_lines(c, probe, owner, hostile):
    L = ["Per minute"]
    L.append(MINUTE_ROW % ("min", "one-shot p50/p99/max", "one-shot", "session p50/p99/max", "conns", "watch", "RSS MB",
                           "fds", "requests", "owner ok", "owner", "hostile"))
    L.append(MINUTE_ROW % ("", "", "refused", "", "max", "max", "max", "max", "answered", "answers", "refused", "held"))
    n_min = max(1, int(math.ceil(min(c["load_seconds"], c["duration"]) / 60.0 - 1e-9)))
    prev_req = (c["base_stats"] or {}).get("requests", 0)
    for m in range(n_min):
        row, prev_req = minute_row(c, m, prev_req, probe, owner, hostile)
        L.append(row)
    L.append("  (refused = ERR busy + failed connects; hostile held = most `watch ping` connections open at once)")
    L.append("")
    return L


def minute_row(c, m, prev_req, probe, owner, hostile):
    """Minute m's row, and the request count at its end (the next row's start)."""
    ss = [s for s in c["samples"] if m * 60 <= s[0] < (m + 1) * 60]

    def mx(i, key=None):
        vals = [(s[i] if key is None else (s[3] or {}).get(key)) for s in ss]
        vals = [v for v in vals if isinstance(v, (int, float))]
        return max(vals) if vals else None
    reqs = [s[3].get("requests") for s in ss if s[3] and isinstance(s[3].get("requests"), int)]
    req_delta = (reqs[-1] - prev_req) if reqs else None
    if reqs:
        prev_req = reqs[-1]

    def pm(name):
        s = probe.get(name, {}).get("minutes", {}).get(str(m), {})
        return "%s/%s/%s" % (fmt_ms(s.get("p50")), fmt_ms(s.get("p99")), fmt_ms(s.get("max"))) if s.get("n") else "-"
    refused_min = probe.get("oneshot", {}).get("minutes", {}).get(str(m), {}).get("refused", 0)
    om = (owner.get("minutes") or {}).get(str(m), {})
    hm = (hostile.get("minute_open") or {}).get(str(m), {})
    rss = mx(1)
    row = MINUTE_ROW % (
        m + 1, pm("oneshot"), refused_min, pm("session"), mx(3, "connections_open") or "-", mx(3, "watches") or "-",
        "-" if rss is None else "%.1f" % (rss / 1024.0), mx(2) or "-",
        "-" if req_delta is None else req_delta, om.get("answers", 0), om.get("busy", 0),
        hm.get("hold", "-") if c["hostile"] else "-")
    return row, prev_req


def service_lines(c, peak):
    L = []
    add = L.append
    fs = c["final_stats"] or {}
    add("Service")
    add("  RSS       start %s   peak %s (at %s s)   end %s" % (
        fmt_mb(c["rss_start"]), fmt_mb(peak[0]), "-" if peak[1] is None else "%.0f" % peak[1], fmt_mb(c["rss_end"])))
    if c["cgroup_on"]:
        add("  memory    %s: peak charged %s, OOM kills %s%s" % (
            c["cgroup"], "-" if c["cgroup_peak"] is None else "%.1f MB" % (c["cgroup_peak"] / 1e6), c["oom_kills"],
            "" if c["cgroup_left_at"] is None else "; moved out of it by another process at %.0f s (figures until then)"
            % c["cgroup_left_at"]))
    else:
        add("  memory    no cgroup: %s" % c["cgroup"])
    fds_peak = max((s[2] for s in c["samples"] if s[2] is not None), default=None)
    add("  fds       start %s   peak %s   end %s" % (c["fds_start"], fds_peak, c["fds_end"]))
    conns_peak = max(((s[3] or {}).get("connections_open", 0) for s in c["samples"]), default=0)
    watches_peak = max(((s[3] or {}).get("watches", 0) for s in c["samples"]), default=0)
    add("  peak      connections_open %s (max_connections %d), watches %s" % (conns_peak, MAX_CONNECTIONS, watches_peak))
    add("  at end    connections_open %s, watches %s, timers %s%s" % (
        fs.get("connections_open"), fs.get("watches"), fs.get("timers"),
        "" if c["idle_after"] is None else " (idle %.1f s after the clients stopped)" % c["idle_after"]))
    stat_ms = sorted(s[4] for s in c["samples"] if s[4] is not None)
    if stat_ms:
        add("  stats     sampled %d times; answer p50 %s ms, max %s ms; %d samples failed%s" % (
            len(stat_ms), fmt_ms(pct(stat_ms, 0.5)), fmt_ms(stat_ms[-1]), sum(c["stats_errors"].values()),
            "" if not c["stats_errors"] else " (%s)" % "; ".join("%s ×%d" % kv for kv in c["stats_errors"].most_common(3))))
    L += cpu_lines(c)
    L += log_lines(c)
    add("  final stats:")
    for l in c["final_lines"] or ["(none: the stats connection failed)"]:
        add("    " + l)
    add("")
    return L


def cpu_lines(c):
    parts = []
    data = c["data"]
    if c["cpu_service"] is not None:
        parts.append("service %.1f s (%.0f%% of one CPU)" % (c["cpu_service"], 100 * c["cpu_service"] / max(1, c["load_seconds"])))
    for role in CLIENT_ROLES:
        d = data.get(role)
        if d:
            parts.append("%s %.1f s (%.0f%%)" % (role, d["cpu"], 100 * d["cpu"] / max(1, c["load_seconds"])))
    parts.append("soak itself (sampling, log counting) %.1f s" % c["cpu_self"])
    L = ["  CPU       " + ", ".join(parts)]
    if c["other_cpu"] is not None:
        L.append("            other processes on the machine: %.1f s (%.0f%% of one CPU, of %d CPUs)" % (
            c["other_cpu"], 100 * c["other_cpu"] / max(1, c["load_seconds"]), os.cpu_count()))
    return L


def log_lines(c):
    lg = c["log"]
    L = ["  log       %d lines, %.1f MB; %d refusals logged (%.0f/s)" % (
        lg["lines"], lg["bytes"] / 1e6, lg["refused"], lg["refused"] / max(1, c["load_seconds"]))]
    if lg["other"]:
        L.append("            other lines%s:" % ("" if not lg.get("other_more") else " (first 40 of %d)" % (40 + lg["other_more"])))
        for l in lg["other"]:
            L.append("              " + l)
    if lg["refused"]:
        L.append("            (refusal lines are counted, not kept; service.log in the temp dir has the other lines and 20 samples)")
    return L


# ---- the clients ----

def client_lines(c, probe):
    data = c["data"]
    L = ["All clients"]
    for role in ("owner", "hostile", "hostile-render", "hostile-events", "hostile-unread", "probe"):
        d = data.get(role)
        if not d:
            continue
        answered = sum(d.get("answers", {}).values())
        if role == "probe":
            answered = sum(probe.get(n, {}).get("overall", {}).get("n", 0) for n in ("oneshot", "session"))
        errs = collections.Counter()
        for key, n in d.get("errors", {}).items():
            errs[key.partition("|")[2]] += n
        failed = sum(n for key, n in d.get("counts", {}).items() if "|refused-" in key)
        L.append("  %-8s answered %d; errors by code: %s; refused: %d busy + %d failed connects" % (
            role, answered, ", ".join("%s %d" % kv for kv in errs.most_common()) or "none",
            errs.get("busy", 0), failed))
    L.append("")
    for role, title in (("owner", "Owner clients (uid 0)"), ("hostile", "Hostile clients (uid 65534), classic phase"),
                        ("hostile-render", "Hostile clients (uid 65534), render phase"),
                        ("hostile-events", "Hostile clients (uid 65534), events phase"),
                        ("hostile-unread", "Hostile clients (uid 65534), unread phase"),
                        ("probe", "Probe clients (the probe's uid; errors only, latencies above)")):
        if role != "owner" and role != "probe" and role not in data:
            continue
        L += role_lines(role, title, data.get(role))
    return L


def role_lines(role, title, d):
    L = [title]
    if not d:
        return L + ["  (no results: the client process wrote none)", ""]
    answers = by_kind(collections.Counter(d.get("answers", {})))
    errors = by_kind(collections.Counter(d.get("errors", {})))
    counts = by_kind(collections.Counter(d.get("counts", {})))
    for kind in sorted(set(answers) | set(errors) | set(counts)):
        L += kind_lines(role, kind, answers.get(kind, {}), errors.get(kind, {}), counts.get(kind, {}), d)
    extra = d.get("extra", {})
    lists = d.get("lists", {})
    if role == "owner":
        L += owner_extra_lines(extra, lists)
    if role == "hostile":
        L += hostile_extra_lines(extra, lists)
    for name, s in sorted(lists.items()):
        if role != "hostile" and role != "owner" and s.get("n"):
            L.append("  %s: n %d, p50 %.2f, p99 %.2f, max %.2f" % (name, s["n"], s["p50"], s["p99"], s["max"]))
    L.append("")
    return L


def kind_lines(role, kind, a, e, k, d):
    L = []
    refused = e.get("busy", 0) + sum(v for kk, v in k.items() if kk.startswith("refused-"))
    if role != "probe":
        L.append("  %-14s answered %d (%s)" % (kind, sum(a.values()), ", ".join(
            "%s %d" % (lab, n) for lab, n in sorted(a.items(), key=lambda x: -x[1])) or "-"))
    else:
        L.append("  %s" % kind)
    if e:
        L.append("  %-14s errors   %s" % ("", ", ".join("%s %d" % (code, n) for code, n in sorted(e.items(), key=lambda x: -x[1]))))
    L.append("  %-14s refused  %d%s; peak open %s" % ("", refused, "" if not refused else " (%s)" % ", ".join(
        (["busy %d" % e["busy"]] if e.get("busy") else []) + [
            "%s %d" % (kk[8:], v) for kk, v in k.items() if kk.startswith("refused-")]),
        d.get("peak", {}).get(kind, "-")))
    other = {kk: v for kk, v in k.items() if not kk.startswith("refused-")}
    if other:
        L.append("  %-14s counts   %s" % ("", ", ".join("%s %d" % kv for kv in sorted(other.items()))))
    return L


def owner_extra_lines(extra, lists):
    L = []
    if "watch_max_gap_s" in extra:
        wg = lists.get("watch gap s", {})
        L.append("  watch gaps: longest %.2f s between two updates of a per-second watch; %d gaps over 1.5 s" % (
            extra["watch_max_gap_s"], wg.get("n", 0)))
    for name in ("writer ms", "live list ms"):
        s = lists.get(name)
        if s and s.get("n"):
            L.append("  %s: n %d, p50 %s, p99 %s, max %s (pipelined: includes waiting behind earlier requests)" % (
                name.replace(" ms", " latency ms"), s["n"], fmt_ms(s["p50"]), fmt_ms(s["p99"]), fmt_ms(s["max"])))
    return L


def hostile_extra_lines(extra, lists):
    L = ["  holder: peak %s connections held at once, %s at stop" % (
        extra.get("held_peak"), extra.get("held_at_stop", extra.get("held_now")))]
    for name in ("drip-session lifetime s", "drip-oneshot lifetime s"):
        s = lists.get(name)
        if s and s.get("n"):
            L.append("  %s: n %d, min %.1f, p50 %.1f, max %.1f (how long the service kept a dripping connection)" % (
                name, s["n"], s["min"], s["p50"], s["max"]))
    return L


def phase_lines(c, probe):
    """One line per phase (each attack of issue 29 alone beside the probe), then what each
    attack did and what the service counted meanwhile."""
    L = ["Attacks one at a time (goal: probe p99 < %g ms and max < %g ms, service RSS <= %s, never killed, "
         "no acknowledged room lost)" % (P99_GOAL_MS, MAX_GOAL_MS, fmt_mb(c["rss_goal_kb"]))]
    row = "  %-8s %-9s %-22s %-22s %8s %6s %7s %4s %9s  %s"
    L.append(row % ("phase", "window s", "one-shot p50/p99/max", "session p50/p99/max", "RSS max", "anon", "cgroup",
                    "died", "rooms", "goal"))
    views = [phase_view(c, probe, ph) for ph in c["phases"]]
    for v in views:
        def pm(n):
            s = v["probe"][n]
            return "%s/%s/%s" % (fmt_ms(s.get("p50")), fmt_ms(s.get("p99")), fmt_ms(s.get("max"))) if s.get("n") else "-"
        log = v["log"]
        L.append(row % (v["name"], "%.0f-%.0f" % (v["start"], v["end"]), pm("oneshot"), pm("session"),
                        "%.1f MB" % (v["rss_max"] / 1024.0) if v["rss_max"] else "-",
                        "%.1f" % (v["anon_max"] / 1024.0) if v["anon_max"] else "-",
                        "%.0f MB" % (v["cg_max"] / 1e6) if v["cg_max"] else "-",
                        "-" if not log else ("yes" if log.get("died") else "no"),
                        "-" if log.get("rooms_seen") is None else "%d/%d" % (log["rooms_seen"], len(c["expected_rooms"])),
                        "held" if not v["why"] else "NOT HELD: " + "; ".join(v["why"])))
    L.append("  (RSS max: the most of the once-a-second VmRSS samples and the phase's own VmHWM, reset at its start;"
             " anon: the most RssAnon sampled, MB, the service's own memory without mapped files;"
             " cgroup: the most charged to the service's memory cgroup, MB, its reader and page cache included)")
    data = c["data"]
    for v in views:
        d = v["delta"]
        service = "service: closed_output_limit +%s, closed_slow_reader +%s, refused (busy) +%s, held_for_next_turn +%s, " \
                  "formatter misses +%s, requests +%s; owner sessions stalled %d, probe session stalled %s" % (
                      d["closed_output_limit"], d["closed_slow_reader"], d["connections_refused"],
                      d["held_for_next_turn"], d["formatter_cache_misses"], d["requests"], v["owner_stalls"],
                      v["probe"]["session"].get("stalls", 0))
        L.append("  %-8s %s" % (v["name"], attack_summary(v["name"], data, c)))
        L.append("  %-8s %s" % ("", service))
    L.append("")
    return L


def attack_summary(name, data, c):
    def counts(d):
        return collections.Counter(d.get("counts") or {}) if d else collections.Counter()

    def errors(d):
        return collections.Counter(d.get("errors") or {}) if d else collections.Counter()
    if name == "classic":
        h = data.get("hostile") or {}
        busy = sum(v for k, v in errors(h).items() if k.endswith("|busy"))
        return "the hostile's classic attacks (%s) at once: %s busy refusals, peak %s held" % (
            ",".join(a for a in c["cfg"]["attacks"] if a not in ("render", "events", "unread", "reload")) or "none",
            busy, (h.get("extra") or {}).get("held_peak", "-"))
    if name == "render":
        d = data.get("hostile-render") or {}
        k, e, x = counts(d), errors(d), d.get("extra") or {}
        pipelined = (d.get("answers") or {}).get("render-pipeline|time", 0)
        return ("%d watches of distinct costly `time` patterns: %d accepted (at most %s watching at once), %d refused "
                "(ERR busy: 32 distinct watches), %d other busy; 8 sessions pipelining distinct costly `time`: %d "
                "answered (%.0f/s), %d errors, %d closed by the service" % (
                    c["cfg"]["render_watches"], k["render-watch|accepted"], x.get("watching_peak", "-"),
                    k["render-watch|busy-32-distinct"], k["render-watch|busy-other"], pipelined,
                    pipelined / max(1.0, sum(p["end"] - p["start"] for p in c["phases"] if p["name"] == "render")),
                    sum(v for kk, v in e.items() if kk.startswith("render-pipeline|")),
                    k["render-pipeline|closed-by-service"]))
    if name == "events":
        d = data.get("hostile-events") or {}
        k, e, x = counts(d), errors(d), (d.get("extra") or {}).get("events_reader") or {}
        files = ((data.get("calendar") or {}).get("phase_files") or {})
        return ("%d `watch events` subscribers never reading: %d connections, %d closed by the service, %d refused; "
                "events.ics of %d events rewritten %d times; the reading subscriber saw %s firings (%s of the file's "
                "events, %s moments each at most), at most %s moments in full and %s `more` lines in one" % (
                    c["cfg"]["events_subscribers"], k["events-subscriber|connections"],
                    k["events-subscriber|closed-by-service"],
                    sum(v for kk, v in e.items() if kk.startswith("events-subscriber|")), c["cfg"]["events"],
                    files.get("events_rounds", 0), x.get("firings", 0), x.get("big_firings", 0),
                    x.get("moments_max", "-"), x.get("max_full", "-"), x.get("max_more_lines", "-")))
    if name == "unread":
        d = data.get("hostile-unread") or {}
        k, e = counts(d), errors(d)
        life = (d.get("lists") or {}).get("unread-schedule lifetime s") or {}
        return ("%d connections `schedule 744`..`schedule %d` over 10,000 events, never read: %d connects, %d closed by "
                "the service (lifetime p50 %s s, max %s s), %d refused (%s)" % (
                    c["cfg"]["unread_conns"], 744 - c["cfg"]["unread_conns"] + 1, k["unread-schedule|connections"],
                    k["unread-schedule|closed-by-service"], fmt_ms(life.get("p50")), fmt_ms(life.get("max")),
                    sum(e.values()), ", ".join("%s %d" % (kk.partition("|")[2], v) for kk, v in e.items()) or "-"))
    if name == "reload":
        d = data.get("reload") or {}
        k, ms = counts(d), d.get("ms") or {}
        sizes = d.get("sizes") or {}

        def part(label):
            m = ms.get(label) or {}
            codes = ", ".join("%s %d" % (kk.partition("|")[2], v) for kk, v in sorted(k.items()) if kk.startswith(label + "|"))
            return "%s: %s (answer ms p50 %s, max %s)" % (label, codes or "-", fmt_ms(m.get("p50")), fmt_ms(m.get("max")))
        return ("%d rounds of the owner's `reload` of a ~1 MiB config (cities %s bytes, unknown keys %s bytes), the good "
                "one restored after each: %s; %s; %s%s" % (
                    k["rounds"], sizes.get("cities", "-"), sizes.get("unknown-keys", "-"), part("cities"),
                    part("unknown-keys"), part("restore"),
                    "" if not d.get("first_other") else "; first other answer: " + d["first_other"]))
    return "-"


def closing_lines(c):
    """The calendar writer, the hand-over attackers, the client processes' stderr."""
    L = []
    add = L.append
    data = c["data"]
    if c["calendars"]:
        add("Calendar writer (uid 0, the calendar folder's owner)")
        cal = data.get("calendar") or {}
        add("  wrote    %s" % (", ".join("%s %d" % kv for kv in sorted((cal.get("counts") or {}).items())) or "nothing"))
        pf = cal.get("phase_files") or {}
        if pf.get("events_rounds") or pf.get("many_written"):
            add("  phase files: events.ics written %d times (%d bytes), many.ics %d times (%d bytes), %d removed" % (
                pf.get("events_rounds", 0), pf.get("events_bytes", 0), pf.get("many_written", 0),
                pf.get("many_bytes", 0), pf.get("removed", 0)))
        e = cal.get("edit_s", {})
        if e.get("n"):
            add("  honest edits shown in `schedule`: n %d, p50 %.2f s, p99 %.2f s, max %.2f s; missed %d" % (
                e["n"], e["p50"], e["p99"], e["max"], cal.get("missed", 0)))
        add("")
    for role in ("owner", "hostile"):
        h = ((data.get(role) or {}).get("extra") or {}).get("handover")
        if h:
            add("Hand-over attacker (%s): %s" % (role, ", ".join("%s %d" % (k, h.get(k, 0)) for k in PipeFiller.KEYS)))
    add("")
    if c["worker_err"]:
        add("Client process output (stderr)")
        for role, text in c["worker_err"].items():
            add("  [%s]" % role)
            for l in text.splitlines()[-30:]:
                add("    " + l)
        add("")
    if c["keep"]:
        add("temp dir kept: %s" % c["tmp"])
    return L
