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


def progress_line(t_rel, rss, fds, st, out_owner, out_hostile):
    owner = read_json(os.path.join(out_owner, "owner.json")) or {}
    probe = read_json(os.path.join(out_owner, "probe.json")) or {}
    hostile = read_json(os.path.join(out_hostile, "hostile.json")) or {}
    open_owner = sum(owner.get("open", {}).values())
    pe = probe.get("extra", {})
    def recent(k):
        r = pe.get(k, {}).get("recent", {})
        return "%s/%s" % (fmt_ms(r.get("p99")), fmt_ms(r.get("max"))) if r.get("n") else "-"
    busy_owner = sum(v for k, v in owner.get("errors", {}).items() if k.endswith("|busy"))
    return ("[%5.0fs] service: conns %s watches %s rss %s fds %s | owner open %d busy %d | "
            "hostile held %s | probe p99/max 10 s: one-shot %s session %s ms" % (
                t_rel, st.get("connections_open", "?") if st else "?",
                st.get("watches", "?") if st else "?", fmt_mb(rss), fds, open_owner, busy_owner,
                hostile.get("extra", {}).get("held_now", "-"), recent("oneshot"), recent("session")))


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
    if c["load_seconds"] >= 300 and warm and late:
        grew = max(late) - max(warm)
        verdict = "ok" if max(late) <= max(warm) * 1.10 + 4096 else "FAIL"
        checks.append((verdict, "RSS %s at most in minutes 2-3, %s at most in the last two minutes (%+.1f MB)" % (
            fmt_mb(max(warm)), fmt_mb(max(late)), grew / 1024.0)))


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
            (data.get(r) or {}).get("cpu", 0) for r in ("owner", "hostile", "probe", "calendar"))
        c["other_cpu"] = max(0.0, c["cpu_machine"] - ours)
        share = c["other_cpu"] / max(1, c["load_seconds"])
        if share > 0.25:
            checks.append(("note", "other processes used %.0f%% of a CPU during the load (builds, tests?): "
                           "the latencies above are suspect" % (100 * share)))


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
    add("          probe (uid 0): one-shot ping every 100 ms, session ping every 10 ms")
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
    for role in ("owner", "hostile", "probe", "calendar"):
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
    for role in ("owner", "hostile", "probe"):
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
    for role, title in (("owner", "Owner clients (uid 0)"), ("hostile", "Hostile clients (uid 65534)"),
                        ("probe", "Probe clients (uid 0; errors only, latencies above)")):
        if role == "hostile" and not c["hostile"]:
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


def closing_lines(c):
    """The calendar writer, the hand-over attackers, the client processes' stderr."""
    L = []
    add = L.append
    data = c["data"]
    if c["calendars"]:
        add("Calendar writer (uid 0, the calendar folder's owner)")
        cal = data.get("calendar") or {}
        add("  wrote    %s" % (", ".join("%s %d" % kv for kv in sorted((cal.get("counts") or {}).items())) or "nothing"))
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
