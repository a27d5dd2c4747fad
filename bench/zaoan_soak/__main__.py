"""Entry point: `bench/soak`, `python3 bench/zaoan_soak`, or `python3 -m zaoan_soak` from
bench/. The orchestrator runs the client processes as `python3 -I .../zaoan_soak --worker
ROLE CONFIG` from a copy of this package in its temp dir."""

import os
import sys

if __package__ in (None, ""):  # run as a directory: its parent holds the package
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True

from zaoan_soak.common import CHILDREN  # noqa: E402


def run_worker(role, cfg_path):
    import json
    from zaoan_soak.calendar_writer import run_calendar
    from zaoan_soak.clients import run_owner
    from zaoan_soak.hostile import run_hostile, run_phase_attack, run_reload
    from zaoan_soak.probe import run_probe
    with open(cfg_path) as f:
        cfg = json.load(f)
    roles = {"owner": run_owner, "hostile": run_hostile, "probe": run_probe, "calendar": run_calendar,
             "reload": run_reload}
    for attack in ("render", "events", "unread"):
        roles["hostile-" + attack] = lambda c, a=attack: run_phase_attack(c, a)
    roles[role](cfg)
    return 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "--worker":
        return run_worker(sys.argv[2], sys.argv[3])
    from zaoan_soak.orchestrate import orchestrate
    try:
        return orchestrate()
    finally:
        for p in CHILDREN:
            if p.poll() is None:
                p.kill()


if __name__ == "__main__":
    sys.exit(main())
