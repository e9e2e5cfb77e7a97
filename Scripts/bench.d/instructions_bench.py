"""Instructions per event (helper of Scripts/bench.d/instructions).

`bird-bench ingest` (release) runs under `valgrind --tool=callgrind --separate-threads=yes` against
the pre-encoded feeder of client_bench.py (one Pusher-protocol connection; `tick` frames written
as fast as the socket takes them). Once the client is subscribed (READY), `callgrind_control -z`
zeroes every thread's counts and the feeder is let go; once the handler has seen the last event
(DONE), `callgrind_control -d` dumps every thread. So the counts are exactly the burst's: the
socket loop reading, the client queue decoding and routing, the delivery queue running the
handler, on every thread, and nothing of start-up, connection or exit. Instruction counts do not
move with the machine's load (docs/PERFORMANCE.md).

Two handlers: `data` is `channel.bind(name) { data in … }` (the payload is parsed for each event,
as most apps do) and `event` is `bindEvent` reading nothing (the payload is never parsed).

  python instructions_bench.py run --bench BIN [--count N] [--reps N] [--handlers data,event] [--limit N]
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client_bench import Feeder  # noqa: E402

# A thread's role, from the inclusive cost of the function each role enters through.
ROLES = [
    ("socket loop", re.compile(r"9EventLoopC3run")),
    ("client queue", re.compile(r"ClientCoreC20handleTransportBatch")),
    ("delivery queue", re.compile(r"9DelivererC5drain")),
]


def inclusive_roles(path):
    """The inclusive instructions of each role's entry function in one thread's dump."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) ", line)
        if not m:
            continue
        cost = int(m.group(1).replace(",", ""))
        for role, pattern in ROLES:
            if pattern.search(line):
                found[role] = max(found.get(role, 0), cost)
    return found


def totals(path):
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    return 0


def one_run(bench, count, handler, workdir):
    gate = threading.Event()
    feeder = Feeder(count, gate)
    out = os.path.join(workdir, f"callgrind.{handler}")
    for f in glob.glob(out + "*"):
        os.remove(f)
    cmd = ["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}",
           bench, "ingest", "--port", str(feeder.port), "--dialect", "pusher", "--count", str(count),
           "--handler", handler, "--hold", "yes"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        if line != "READY":
            raise RuntimeError(f"bird-bench under valgrind: expected READY, got {line!r}: {proc.stderr.read()[-800:]}")
        subprocess.run(["callgrind_control", "-z", str(proc.pid)], capture_output=True, check=True, timeout=120)
        gate.set()
        line = proc.stdout.readline().strip()
        if line != "DONE":
            raise RuntimeError(f"bird-bench under valgrind: expected DONE, got {line!r}")
        subprocess.run(["callgrind_control", "-d", str(proc.pid)], capture_output=True, check=True, timeout=120)
        proc.stdin.write("\n")
        proc.stdin.flush()
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        feeder.listener.close()
    dumps = sorted(glob.glob(out + ".1-*"))
    if not dumps:
        raise RuntimeError("callgrind wrote no dump for the burst")
    threads = []
    for path in dumps:
        tid = int(path.rsplit("-", 1)[1])
        total = totals(path)
        roles = inclusive_roles(path) if total > 0 else {}
        threads.append({"thread": tid, "ir": total, "roles": roles})
    return threads


def describe(roles, total):
    if not roles:
        return "other"
    parts = sorted(roles.items(), key=lambda kv: -kv[1])
    return " + ".join(f"{name} {cost / total:.0%}" if cost < 0.98 * total else name for name, cost in parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--bench", required=True)
    p.add_argument("--count", type=int, default=20_000)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--handlers", default="data,event")
    p.add_argument("--limit", type=float, default=6_000)
    p.add_argument("--keep", default=None, help="copy the last run's dumps to this directory")
    args = ap.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("bench instructions: valgrind is not installed (Scripts/bootstrap --bench installs it)")
    handlers = [h for h in args.handlers.split(",") if h]
    print(f"instructions: bird-bench ingest under callgrind, {args.count:,} tick events from a pre-encoded feeder, "
          f"counted from subscribed to the last event on every thread; {args.reps} runs per handler")
    figures = []
    workdir = tempfile.mkdtemp(prefix="bird-instructions-")
    try:
        for handler in handlers:
            per_event, by_role, by_thread = [], {}, {}
            for rep in range(args.reps):
                t0 = time.time()
                threads = one_run(args.bench, args.count, handler, workdir)
                total = sum(t["ir"] for t in threads)
                per_event.append(total / args.count)
                roles_here = {}
                threads_here = {}
                for t in threads:
                    for role, cost in t["roles"].items():
                        roles_here[role] = roles_here.get(role, 0) + cost
                    # Thread ids swap roles between runs (dispatch workers): a thread is named
                    # for the role it spends most in, so medians compare like with like.
                    label = max(t["roles"].items(), key=lambda kv: kv[1])[0] if t["roles"] else "other"
                    entry = threads_here.setdefault(label, {"ir": 0, "roles": {}, "threads": 0})
                    entry["ir"] += t["ir"]
                    entry["threads"] += 1
                    for role, cost in t["roles"].items():
                        entry["roles"][role] = entry["roles"].get(role, 0) + cost
                for label, entry in threads_here.items():
                    by_thread.setdefault(label, []).append(entry)
                roles_here["other"] = total - sum(roles_here.values())
                for role, cost in roles_here.items():
                    by_role.setdefault(role, []).append(cost / args.count)
                print(f"  {handler} run {rep + 1}: {per_event[-1]:,.0f} instructions/event "
                      f"({len(threads)} threads, {time.time() - t0:.0f} s)", flush=True)
                if args.keep and rep == args.reps - 1:
                    os.makedirs(args.keep, exist_ok=True)
                    for f in glob.glob(os.path.join(workdir, f"callgrind.{handler}.1-*")):
                        shutil.copy(f, args.keep)
            median = statistics.median(per_event)
            label = "bind (payload parsed)" if handler == "data" else "bindEvent (payload not read)"
            print(f"handler {handler} — {label}: median {median:,.0f} instructions/event "
                  f"(min {min(per_event):,.0f}, max {max(per_event):,.0f}); limit {args.limit:,.0f}: "
                  f"{'met' if median <= args.limit else 'missed'}")
            print("  per thread, named for its main role (median over runs; a dispatch worker may run more than one queue):")
            for label in sorted(by_thread):
                runs = by_thread[label]
                ir = statistics.median([r["ir"] for r in runs]) / args.count
                if ir < 1:
                    continue
                last = runs[-1]
                many = f" ({last['threads']} threads)" if last["threads"] > 1 else ""
                print(f"    {label + ' thread' + many:28s} {ir:8,.0f}  {describe(last['roles'], last['ir'])}")
            print("  per role (inclusive, median):")
            for role in [r for r, _ in ROLES] + ["other"]:
                if role in by_role:
                    print(f"    {role:15s} {statistics.median(by_role[role]):8,.0f}")
            name = "instructions_per_event" + ("" if handler == "data" else "_payload_not_read")
            figures.append({"name": name, "value": round(median, 1), "unit": "instructions/event",
                            "peer": "limit", "peer_value": args.limit, "ratio": round(median / args.limit, 3)})
            for label in sorted(by_thread):
                ir = statistics.median([r["ir"] for r in by_thread[label]]) / args.count
                if ir >= 1:
                    figures.append({"name": f"{name}_thread_{label.replace(' ', '_')}", "value": round(ir, 1),
                                    "unit": "instructions/event", "peer": None, "peer_value": None, "ratio": None})
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps({"bench": "instructions", "figures": figures}))


if __name__ == "__main__":
    main()
