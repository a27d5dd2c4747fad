#!/usr/bin/python3
"""Side by side, in one run: what a one-block bar clock (yyyy-MM-dd HH:mm:ss, every
second) costs with i3status, py3status, zaoan serve + zaoan bar (1 and 10 bars on one
service), and the C floor (bench/c_tick.c: a timerfd on the second, the same status line
zaoan writes, one write). Per process: CPU microseconds per second (schedstat of every
thread), wake-ups per second (voluntary context switches of every thread) and RSS at the
end. Every status command writes into a pipe that a reader drains, as i3bar's and
swaybar's do (the reader's own cost is not counted, for any of them).

Every status command is pinned to CPU $SERVER_CPU (0; PIN=0 leaves them to the scheduler),
as bench/run.sh pins its servers, so that all of them share one CPU's caches and clock
and a neighbour moved onto the other CPU moves none of them alone. "other" is the CPU that
processes outside the table (and outside this script) used during the round, in % of one
CPU: a compiler next door shows there, and a round with much of it is suspect.

Usage: bench/bars.py ZAOAN_BINARY [SECONDS] [ROUNDS]   (bench/bars.sh installs what it needs)
Several rounds run one after the other, each side by side; the ratios' median is reported.

TURNS=1 measures the same processes taking turns instead: in each round every status command
(a zaoan service with its bars, py3status with its children) runs alone for SECONDS while
the others are stopped (SIGSTOP), then the next. Side by side, every status command wakes
on the same second on the same CPU, one after the other, and the later ones find caches the
earlier ones warmed: the C tick and i3status both run libc's localtime and strftime, which
the first of them leaves warm for the second. Alone, each pays what it pays on a desktop
where it is the only bar.
"""
import json, os, signal, statistics, subprocess, sys, tempfile, threading, time

zaoan = os.path.abspath(sys.argv[1])
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 25.0
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
work = tempfile.mkdtemp(prefix="zaoan-bars-")
here = os.path.dirname(os.path.abspath(__file__))
c_tick = os.path.join(work, "c_tick")
subprocess.run(["gcc", "-O2", "-o", c_tick, os.path.join(here, "c_tick.c")], check=True)
pin = ["taskset", "-c", os.environ.get("SERVER_CPU", "0")] if os.environ.get("PIN", "1") == "1" else []
clock_tick = os.sysconf("SC_CLK_TCK")


def machine_busy_seconds():
    """CPU seconds every CPU has spent busy since boot (user, nice, system, irq, softirq, steal)."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]) / clock_tick


def tasks(pid):
    try:
        return os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return []


def sample(pid):
    """(cpu ns, voluntary switches) over every thread of pid."""
    cpu = switches = 0
    for task in tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                cpu += int(f.read().split()[0])
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.startswith("voluntary_ctxt_switches:"):
                        switches += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return cpu, switches


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def drain(pipe):
    """Reads a status command's output as a bar would, and throws it away."""
    while pipe.read1(65536):
        pass


def start(name, argv, env=None):
    process = subprocess.Popen(pin + argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=open(os.path.join(work, name.replace("/", "_") + ".err"), "w"), env=env)
    threading.Thread(target=drain, args=(process.stdout,), daemon=True).start()
    return name, process


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


i3conf = write(os.path.join(work, "i3status.conf"), """general {
    interval = 1
    output_format = "i3bar"
    colors = false
}
order += "tztime local"
tztime local {
    format = "%Y-%m-%d %H:%M:%S"
}
""")
py3conf = write(os.path.join(work, "py3status.conf"), """general {
    interval = 1
}
order += "clock"
clock {
    format = "{Local}"
    format_time = "%Y-%m-%d %H:%M:%S"
    round_to_nearest_block = False
}
""")
config_home = os.path.join(work, "config")
os.makedirs(os.path.join(config_home, "zaoan"))
write(os.path.join(config_home, "zaoan", "config.json"),
      json.dumps({"bar_blocks": ["time yyyy-MM-dd HH:mm:ss"]}))
env = dict(os.environ, XDG_CONFIG_HOME=config_home, TZ="UTC", LANG="C.UTF-8")
socket = os.path.join(work, "zaoan.sock")
single_socket = os.path.join(work, "zaoan-single.sock")


def own_state(env, name):
    """A service's environment with a state directory of its own: two services on one state
    directory would overwrite each other's rooms, and the second refuses to start."""
    state = os.path.join(work, "state-" + name)
    os.makedirs(state)
    return dict(env, XDG_STATE_HOME=state)


processes = [
    start("C tick (c_tick.c)", [c_tick], dict(os.environ, TZ="UTC")),
    start("i3status", ["i3status", "-c", i3conf]),
    start("py3status", ["py3status", "-c", py3conf, "-s"]),
    start("zaoan serve (1 bar)", [zaoan, "serve", "--socket", single_socket, "--timezone", "UTC"], own_state(env, "single")),
    start("zaoan serve (10 bars)", [zaoan, "serve", "--socket", socket, "--timezone", "UTC"], own_state(env, "ten")),
]
deadline = time.time() + 10
while not (os.path.exists(socket) and os.path.exists(single_socket)) and time.time() < deadline:
    time.sleep(0.05)
processes.append(start("zaoan bar (1 bar)", [zaoan, "bar", "--socket", single_socket], env))
for index in range(10):
    processes.append(start(f"zaoan bar #{index + 1} of 10", [zaoan, "bar", "--socket", socket], env))

time.sleep(5)  # everything started, connected and ticking
for name, process in processes:
    if process.poll() is not None:
        sys.exit(f"{name} exited with {process.returncode}; see {work}/{name}.err")

# py3status runs helpers (an i3status child): count its whole tree.
def tree(pid):
    children = []
    for task in tasks(pid):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                children += [int(c) for c in f.read().split()]
        except FileNotFoundError:
            pass
    return [pid] + [p for c in children for p in tree(c)]

def own_cpu_seconds():
    """This script's CPU (its pipe-draining threads), which is not "other"."""
    times = os.times()
    return times.user + times.system


def row(process, first, elapsed):
    """(CPU µs a second, wake-ups a second, RSS MB) of process's tree since `first`."""
    cpu = switches = rss = 0
    for pid, (cpu0, sw0) in first.items():
        cpu1, sw1 = sample(pid)
        cpu += cpu1 - cpu0
        switches += sw1 - sw0
        try:
            rss += rss_kib(pid)
        except FileNotFoundError:
            pass
    return cpu / 1000 / elapsed, switches / elapsed, rss / 1024


def measure_group(group):
    """Every process of `group` for `seconds`, side by side: (elapsed, rows by name, the
    CPU other processes used in % of one CPU)."""
    first = {name: {p: sample(p) for p in tree(process.pid)} for name, process in group}
    busy0, own0 = machine_busy_seconds(), own_cpu_seconds()
    start_time = time.time()
    time.sleep(seconds)
    elapsed = time.time() - start_time
    busy1, own1 = machine_busy_seconds(), own_cpu_seconds()
    rows = {name: row(process, first[name], elapsed) for name, process in group}
    measured = sum(cpu for cpu, _, _ in rows.values()) / 1e6 * elapsed
    other = max(0.0, (busy1 - busy0) - (own1 - own0) - measured) / elapsed * 100
    return elapsed, rows, other


def measure():
    """One round: every process side by side for `seconds`."""
    return measure_group(processes)


def turn_groups():
    """The status commands that take turns: each zaoan service with the bars it serves."""
    groups = {}
    for name, process in processes:
        owner = "zaoan serve (1 bar)" if name == "zaoan bar (1 bar)" else \
            "zaoan serve (10 bars)" if name.startswith("zaoan bar #") else name
        groups.setdefault(owner, []).append((name, process))
    return list(groups.values())


def signal_trees(group, sig):
    for _, process in group:
        for pid in tree(process.pid):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass


def measure_turns():
    """One round: each group alone for `seconds` while the others are stopped."""
    groups = turn_groups()
    for group in groups:
        signal_trees(group, signal.SIGSTOP)
    rows, others, elapsed_all = {}, [], 0.0
    for group in groups:
        signal_trees(group, signal.SIGCONT)
        time.sleep(1.5)  # the ticks missed while stopped are caught up before measuring
        elapsed, group_rows, other = measure_group(group)
        signal_trees(group, signal.SIGSTOP)
        rows.update(group_rows)
        others.append(other)
        elapsed_all += elapsed
    for group in groups:
        signal_trees(group, signal.SIGCONT)
    return elapsed_all, {name: rows[name] for name, _ in processes}, statistics.mean(others)


turns = os.environ.get("TURNS") == "1"


ratios = {"one/C": [], "one/i3": [], "ten/i3": [], "C/i3": [], "py3status/i3": []}
others = []
for round_number in range(1, rounds + 1):
    elapsed, rows, other = measure_turns() if turns else measure()
    others.append(other)
    print(f"round {round_number} of {rounds}: {elapsed:.1f} s {'taking turns, each alone for ' + str(seconds) + ' s' if turns else 'side by side'}, one block yyyy-MM-dd HH:mm:ss every second"
          f"{f', pinned to CPU {pin[-1]}' if pin else ''}; other processes used {other:.0f}% of one CPU")
    print(f"| {'process':<26} | CPU µs/s | wake-ups/s | RSS MB |")
    print(f"|{'-' * 28}|---------:|-----------:|-------:|")
    for name, (cpu, wakeups, rss) in rows.items():
        print(f"| {name:<26} | {cpu:8.0f} | {wakeups:10.2f} | {rss:6.1f} |")
    floor = rows["C tick (c_tick.c)"][0]
    i3 = rows["i3status"][0]
    one = rows["zaoan serve (1 bar)"][0] + rows["zaoan bar (1 bar)"][0]
    one_wakeups = rows["zaoan serve (1 bar)"][1] + rows["zaoan bar (1 bar)"][1]
    ten = rows["zaoan serve (10 bars)"][0] + sum(v[0] for k, v in rows.items() if k.startswith("zaoan bar #"))
    ratios["one/C"].append(one / floor)
    ratios["one/i3"].append(one / i3)
    ratios["ten/i3"].append(ten / i3)
    ratios["C/i3"].append(floor / i3)
    ratios["py3status/i3"].append(rows["py3status"][0] / i3)
    print(f"zaoan serve + 1 bar: {one:.0f} µs/s, {one_wakeups:.2f} wake-ups/s = {one / floor:.2f}× the C tick, {one / i3:.2f}× i3status")
    print(f"zaoan serve + 10 bars: {ten:.0f} µs/s = {ten / i3:.2f}× i3status")
    print(f"C tick: {floor / i3:.2f}× i3status; py3status: {rows['py3status'][0] / i3:.2f}× i3status")
    print()
for name, process in processes:
    process.terminate()
if rounds > 1:
    def listed(values):
        return ", ".join(f"{v:.2f}" for v in values)
    def median(key):
        return f"{statistics.median(ratios[key]):.2f}× ({listed(ratios[key])})"
    print(f"median of {rounds} rounds (other processes: {listed(others)} % of one CPU):")
    print(f"  zaoan serve + 1 bar: {median('one/C')} the C tick, {median('one/i3')} i3status")
    print(f"  zaoan serve + 10 bars: {median('ten/i3')} i3status")
    print(f"  C tick: {median('C/i3')} i3status; py3status: {median('py3status/i3')} i3status")
