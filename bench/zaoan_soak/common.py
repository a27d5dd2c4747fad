"""Settings, constants and small helpers every soak process shares."""

import errno
import math
import os
import select
import time

EPOLLIN, EPOLLOUT = select.EPOLLIN, select.EPOLLOUT
EPOLLERR, EPOLLHUP = select.EPOLLERR, select.EPOLLHUP
monotonic = time.monotonic

NOBODY = 65534
CHILDREN = []          # every process the orchestrator started, killed if it fails midway
MAX_CONNECTIONS = 2048
MAX_ROOMS = 1100
P99_GOAL_MS = 10.0


def env_int(name, default):
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def env_float(name, default):
    value = os.environ.get(name, "")
    return float(value) if value.strip() else default


def summarize(values):
    """n, p50, p99, max (and mean) of a list of numbers."""
    if not values:
        return {"n": 0}
    s = sorted(values)
    return {"n": len(s), "p50": pct(s, 0.50), "p90": pct(s, 0.90), "p99": pct(s, 0.99),
            "max": s[-1], "min": s[0], "mean": sum(s) / len(s)}


def pct(sorted_values, p):
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(p * len(sorted_values)))
    return sorted_values[rank - 1]


def errname(e):
    return errno.errorcode.get(e.errno, str(e.errno)).lower() if e.errno else type(e).__name__
