"""The inspector's own CPU per event under fire (not run by `Scripts/bench all`: run it by hand).

Wall-clock figures of Scripts/bench.d/inspector_flood.py move with the machine's load; this one
measures what the inspector PROCESS spends, which moves far less. The fire scenario of
inspector_flood.py (a release `bird-sandbox` bursting `tick` events on `flood` into a release
`bird-inspect --record` in a 140×40 tmux pane; a raw WebSocket reader counting what was sent), with
`T` pressed every `--press-every` seconds without waiting for the screen (the Timeline drawn half the
burst), and `perf stat -e task-clock -p PID` over the burst (all the inspector's threads). Figures:
CPU seconds per 1,000 sent events and per 1,000 shown (handled) events, the share dropped, and the
accounting (shown + dropped on screen = sent; recording `event` lines + `dropped` counts = sent).
Hardware counters (`instructions`) are not available on every machine; when perf reports them they
are printed too.

`--callgrind N` instead runs the inspector under `valgrind --tool=callgrind --separate-threads=yes`
and bursts N events at `--rate` (give one it keeps up with under valgrind, e.g. 200): counts are
zeroed as the burst starts and dumped once the screen has settled, so the figure is the
instructions of the burst on every thread, divided by the events handled — the same on a loaded
machine as on a quiet one — split by where they went (inclusive): the library's socket loop and
client queue, the inspector's handlers on the delivery queue, and on the main loop draining and
recording, `update`, and frames (view + draw, which depend on time, not on events).

`--profile` also runs `perf record -e cpu-clock -g -p PID` over the burst and prints where the
samples went per thread and per function (self), so a change can be aimed at what costs.

  python inspector_cost.py --sandbox BIN --inspect BIN [--reps 3] [--rate 50000] [--seconds 20]
                           [--press-every 0.8] [--profile] [--keep-profile] [--callgrind N]
"""
import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client_bench import SandboxProcess  # noqa: E402
from inspector_flood import (HEIGHT, TMUX, WIDTH, CountReader, cpu_seconds, load_average,  # noqa: E402
                             on_screen_counts, recording_counts, screen, tmux, wait_for)


def perf_stat_start(pid, out):
    return subprocess.Popen(["perf", "stat", "-x", ",", "-e", "task-clock,instructions:u", "-p", str(pid), "-o", out],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def perf_stop(proc):
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def perf_stat_read(path):
    """{event: value} from `perf stat -x ,` output (task-clock in ms; None when not supported)."""
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) < 3 or line.startswith("#"):
                continue
            value, event = parts[0], parts[2]
            try:
                out[event.split(":")[0]] = float(value)
            except ValueError:
                out[event.split(":")[0]] = None
    return out


def profile_report(data):
    """Samples per thread (comm/tid) and the top functions (self), as text."""
    by_thread = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "pid", "--stdio", "-g",
                                "none", "--percent-limit", "1"], capture_output=True, text=True).stdout
    by_sym = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "pid,sym", "--stdio", "-g",
                             "none", "--percent-limit", "0.7"], capture_output=True, text=True).stdout
    keep = lambda text: "\n".join(l for l in text.splitlines() if l.strip() and not l.startswith("#"))
    return keep(by_thread) + "\n" + keep(by_sym)


# Where instructions go: (name, pattern of the function entered, inclusive); demangled names.
PARTS = [
    ("socket loop (library)", re.compile(r"EventLoop\.run\(\)")),
    ("client queue (library)", re.compile(r"ClientCore\.handleTransportBatch")),
    ("delivery queue (library + inspector handlers)", re.compile(r"Deliverer\.drain\(\)")),
    ("  inspector: channel events", re.compile(r"LiveSession\.channelEvent")),
    ("  inspector: activity / wire tap", re.compile(r"closure #1 in LiveSession\.observe")),
    ("main loop: drain + record", re.compile(r"drain #1 \(limit:\) in runTerminalApp")),
    ("main loop: update", re.compile(r"handle #1 \(_:\) in runTerminalApp")),
    ("main loop: frames (view)", re.compile(r"static Inspector\.view\(")),
    ("main loop: frames (draw)", re.compile(r"CursesTerminal\.draw\(")),
]


def callgrind_parts(paths):
    """Total instructions and the inclusive cost of each PARTS entry, summed over thread dumps."""
    total, parts = 0, {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("totals:") or line.startswith("summary:"):
                    total += int(line.split()[1])
                    break
        out = subprocess.run(f"callgrind_annotate --inclusive=yes --threshold=100 {path} | swift demangle --simplified",
                             shell=True, capture_output=True, text=True).stdout
        found = {}
        for line in out.splitlines():
            m = re.match(r"\s*([\d,]+) ", line)
            if not m:
                continue
            cost = int(m.group(1).replace(",", ""))
            for name, pattern in PARTS:
                if pattern.search(line):
                    found[name] = max(found.get(name, 0), cost)
        for name, cost in found.items():
            parts[name] = parts.get(name, 0) + cost
    return total, parts


def callgrind_run(args):
    import glob
    import shutil
    sandbox = SandboxProcess(args.sandbox, dialect="bird")
    session = f"birdcg{os.getpid()}"
    workdir = tempfile.mkdtemp(prefix="bird-cost-cg-")
    record = os.path.join(workdir, "rec.jsonl")
    out = os.path.join(workdir, "cg.out")
    try:
        cmd = (f"LANG=C.UTF-8 exec valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file={out} "
               f"{args.inspect} --app-key sandbox-key --host 127.0.0.1 --port {sandbox.port} --insecure "
               f"--subscribe flood --record {record}")
        subprocess.run([*TMUX, "new-session", "-d", "-s", session, "-x", str(WIDTH), "-y", str(HEIGHT), cmd],
                       check=True)
        pid = int(tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip())
        if not wait_for(session, "flood", 120):
            raise SystemExit("inspector-cost: bird-inspect under valgrind never showed the channel")
        time.sleep(3)
        count = args.callgrind
        reader = CountReader(sandbox.port, "flood", count)
        subprocess.run(["callgrind_control", "-z", str(pid)], capture_output=True, check=True, timeout=120)
        t0 = time.time()
        sandbox.burst(count, args.rate, {"seq": 1, "text": "flood event payload for the inspector bench"},
                      channel="flood", event="tick")
        seconds = count / args.rate
        presses = 0
        while time.time() < t0 + seconds:
            time.sleep(args.press_every)
            tmux("send-keys", "-t", session, "T")
            presses += 1
        if presses % 2:
            tmux("send-keys", "-t", session, "T")
        sent = reader.result(60)
        last, deadline = None, time.time() + 120
        while time.time() < deadline:
            now = on_screen_counts(screen(session))
            if now[0] is not None and sent and now[0] + now[1] == sent["count"]:
                break
            last = now
            time.sleep(1)
        subprocess.run(["callgrind_control", "-d", str(pid)], capture_output=True, check=True, timeout=300)
        shown, dropped = on_screen_counts(screen(session))
        tmux("send-keys", "-t", session, "q")
        deadline = time.time() + 120
        while time.time() < deadline and os.path.exists(f"/proc/{pid}"):
            time.sleep(0.2)
        dumps = sorted(glob.glob(out + ".1-*"))
        if not dumps:
            raise SystemExit("inspector-cost: callgrind wrote no dump for the burst")
        total, parts = callgrind_parts(dumps)
        n = sent["count"] if sent else None
        print(f"callgrind: sent {n:,}, shown {shown:,} + dropped {dropped:,} "
              f"({'exact' if n == (shown or 0) + dropped else 'MISMATCH'}); {len(dumps)} threads; "
              f"{total:,} instructions = {total / max(1, shown or 0):,.0f} per event handled", flush=True)
        for name, _ in PARTS:
            if name in parts:
                print(f"  {name:50s} {parts[name] / max(1, shown or 0):10,.0f} per event", flush=True)
        if args.keep_profile:
            keep = tempfile.mkdtemp(prefix="bird-cost-cg-keep-")
            for path in dumps:
                shutil.copy(path, keep)
            print(f"  dumps kept: {keep}", flush=True)
    finally:
        subprocess.run([*TMUX, "kill-server"], capture_output=True)
        sandbox.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def one_run(args, index):
    sandbox = SandboxProcess(args.sandbox, dialect="bird")
    session = f"birdcost{os.getpid()}_{index}"
    fd, record = tempfile.mkstemp(prefix="bird-cost-", suffix=".jsonl")
    os.close(fd)
    fd, stat_out = tempfile.mkstemp(prefix="bird-cost-stat-", suffix=".txt")
    os.close(fd)
    profile = None
    perf_rec = None
    try:
        cmd = (f"LANG=C.UTF-8 exec {args.inspect} --app-key sandbox-key --host 127.0.0.1 --port {sandbox.port} "
               f"--insecure --subscribe flood --record {record}")
        subprocess.run([*TMUX, "new-session", "-d", "-s", session, "-x", str(WIDTH), "-y", str(HEIGHT), cmd],
                       check=True)
        pid = int(tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip())
        if not wait_for(session, "flood", 15):
            raise SystemExit("inspector-cost: bird-inspect never showed the channel")
        time.sleep(1.5)
        count = int(args.rate * args.seconds)
        reader = CountReader(sandbox.port, "flood", count)
        load0 = load_average()
        stat = perf_stat_start(pid, stat_out)
        if args.profile:
            profile = tempfile.mkstemp(prefix="bird-cost-", suffix=".perf")[1]
            perf_rec = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "499", "-g", "-p", str(pid),
                                         "-o", profile], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.3)  # perf attached
        cpu0, t0 = cpu_seconds(pid), time.time()
        sandbox.burst(count, args.rate, {"seq": 1, "text": "flood event payload for the inspector bench"},
                      channel="flood", event="tick")
        presses = 0
        while time.time() < t0 + args.seconds:
            time.sleep(args.press_every)
            tmux("send-keys", "-t", session, "T")
            presses += 1
        if presses % 2:
            tmux("send-keys", "-t", session, "T")  # the Timeline closed again: the Channels pane shows the counts
        sent = reader.result(30)
        # Until the inspector has settled: every event sent shown or said dropped, or else the same
        # counts on two captures a second apart (a starved inspector may pause longer than that).
        last, deadline = None, time.time() + 60
        while time.time() < deadline:
            now = on_screen_counts(screen(session))
            if now[0] is not None and sent and now[0] + now[1] == sent["count"]:
                break
            if now == last and now[0] is not None and time.time() > deadline - 45:
                break
            last = now
            time.sleep(1)
        perf_stop(stat)
        if perf_rec:
            perf_stop(perf_rec)
        cpu = cpu_seconds(pid) - cpu0
        load1 = load_average()
        shown, dropped = on_screen_counts(screen(session))
        tmux("send-keys", "-t", session, "q")
        deadline = time.time() + 20
        while time.time() < deadline and os.path.exists(f"/proc/{pid}"):
            time.sleep(0.05)
        rec_events, rec_dropped, _ = recording_counts(record)
        stats = perf_stat_read(stat_out)
        n = sent["count"] if sent else None
        out = {"sent": n, "shown": shown, "dropped": dropped, "rec_events": rec_events, "rec_dropped": rec_dropped,
               "task_clock_s": (stats.get("task-clock") or float("nan")) / 1000, "proc_cpu_s": cpu,
               "instructions": stats.get("instructions"), "load": (load0 + load1) / 2, "presses": presses}
        if profile:
            out["profile"] = profile_report(profile)
        return out
    finally:
        subprocess.run([*TMUX, "kill-server"], capture_output=True)
        sandbox.stop()
        for path in (record, stat_out):
            if os.path.exists(path):
                os.unlink(path)
        if profile and os.path.exists(profile):
            if args.keep_profile:
                print(f"  profile kept: {profile}", flush=True)
            else:
                os.unlink(profile)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sandbox", required=True)
    ap.add_argument("--inspect", required=True)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rate", type=float, default=50_000)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--press-every", type=float, default=0.8)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--keep-profile", action="store_true")
    ap.add_argument("--callgrind", type=int, default=0)
    args = ap.parse_args()
    if args.callgrind:
        callgrind_run(args)
        return
    print(f"inspector-cost: {args.rate:,.0f} events/s for {args.seconds:g} s into bird-inspect --record "
          f"(tmux {WIDTH}×{HEIGHT}, T every {args.press_every:g} s); perf stat over the burst; {args.reps} runs",
          flush=True)
    runs = []
    for i in range(args.reps):
        r = one_run(args, i)
        runs.append(r)
        if r["sent"] is None or r["shown"] is None:
            print(f"  run {i + 1}: no count (sent {r['sent']}, shown {r['shown']}): the reader or the screen did not "
                  f"settle; load {r['load']:.1f}", flush=True)
            continue
        ok = (r["sent"] is not None and r["shown"] is not None and r["sent"] == r["shown"] + r["dropped"]
              and r["sent"] == r["rec_events"] + r["rec_dropped"])
        r["exact"] = ok
        per_sent = r["task_clock_s"] / r["sent"] * 1e6 if r["sent"] else float("nan")
        per_shown = r["task_clock_s"] / r["shown"] * 1e6 if r["shown"] else float("nan")
        r["per_sent"], r["per_shown"] = per_sent, per_shown
        ins = f", {r['instructions'] / r['sent']:,.0f} instructions/event" if r["instructions"] and r["sent"] else ""
        print(f"  run {i + 1}: sent {r['sent']:,}, shown {r['shown']:,} + dropped {r['dropped']:,} "
              f"({r['dropped'] / r['sent'] * 100:.1f} % dropped; {'exact' if ok else 'MISMATCH'}; recording "
              f"{r['rec_events']:,} + {r['rec_dropped']:,}); task-clock {r['task_clock_s']:.2f} s "
              f"(/proc {r['proc_cpu_s']:.2f} s) = {per_sent:.2f} µs per sent event, {per_shown:.2f} µs per shown "
              f"event{ins}; load {r['load']:.1f}", flush=True)
        if "profile" in r:
            print(r["profile"], flush=True)
    runs = [r for r in runs if "exact" in r]
    if not runs:
        raise SystemExit("inspector-cost: no run counted")
    med = lambda k: statistics.median(r[k] for r in runs)
    print(f"median: {med('per_sent'):.2f} µs CPU per sent event, {med('per_shown'):.2f} µs per shown event, "
          f"{statistics.median(r['dropped'] / r['sent'] * 100 for r in runs):.1f} % dropped, accounting exact in "
          f"{sum(1 for r in runs if r['exact'])} of {len(runs)}, load {med('load'):.1f}", flush=True)


if __name__ == "__main__":
    main()
