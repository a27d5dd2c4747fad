"""bench/soak as a package: what bench/soak runs (its header says what and how).

    loop         the event loop, the client processes' counters, connections
    clients      the owner's clients (uid 0)
    hostile      the hostile clients (uid 65534)
    handover     the hand-over attacker both run
    calendar_writer  the calendar writer
    probe        the well-behaved probe
    service      the orchestrator's view of the service (stats, /proc, its log)
    orchestrate  start, sample, stop, in phases
    report       the report and its verdict

Standard library only, for Debian's /usr/bin/python3.
"""
