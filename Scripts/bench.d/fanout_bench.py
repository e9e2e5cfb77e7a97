"""Helper of Scripts/bench.d/fanout: runs the Swift load generator (`bird-bench fanout`) at each
size and the Python one (Scripts/interop/bench_sandbox.py) at the peer sizes, in the same run,
and prints medians (with min–max) and the summary line of docs/PROTOCOL.md § Bench output.

Comparable figures, same definitions on both sides: deliveries/s of one `/sandbox/burst` of
E events to all N clients (request to last delivery; E = 100,000 / N, at least 10), and
publish-to-receive p50/p95/p99 by nearest rank over every receiver of every stamped publish
(Swift: 20 publishes one at a time, CLOCK_MONOTONIC stamps read right after `recv`; Python:
2 publishes/s for 3 s, wall-clock stamps read in its asyncio handler). ratio = ours / Python.

  python fanout_bench.py --sandbox BIN --bench BIN --python PY [--sizes 250,2000,10000]
                         [--peer-sizes 250,2000] [--reps 5] [--publishes 20] [--client lean]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
P95_TARGET_MS = 20.0  # the target at 250 clients (soketi's CI gate is p95 <= 100 ms)

parser = argparse.ArgumentParser()
parser.add_argument("--sandbox", required=True)
parser.add_argument("--bench", required=True)
parser.add_argument("--python", required=True)
parser.add_argument("--sizes", default="250,2000,10000")
parser.add_argument("--peer-sizes", default="250,2000")
parser.add_argument("--reps", type=int, default=5)
parser.add_argument("--publishes", type=int, default=20)
parser.add_argument("--client", default="lean")
args = parser.parse_args()


def sizes(text):
    return [int(x) for x in text.split(",") if x.strip()]


def burst_events(clients):
    return max(10, 100_000 // max(1, clients))


def uptime():
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()
    except OSError:
        return "uptime unavailable"


def run(command, timeout):
    """Runs a generator, echoing its human lines; returns its last stdout line parsed as JSON."""
    process = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    lines = [line for line in process.stdout.splitlines() if line.strip()]
    for line in lines[:-1]:
        print("  " + line, flush=True)
    if process.returncode != 0 or not lines:
        sys.stderr.write(process.stderr[-2000:])
        raise SystemExit("bench fanout: %s failed (exit %d)" % (os.path.basename(command[0]), process.returncode))
    return json.loads(lines[-1])


def spread(values, fmt):
    return (fmt + " (" + fmt + "–" + fmt + ")") % (statistics.median(values), min(values), max(values))


def figure(name, value, unit, peer=None, peer_value=None):
    ratio = None
    if peer_value:
        ratio = round(value / peer_value, 3)
    return {"name": name, "value": round(value, 3), "unit": unit, "peer": peer if peer_value is not None else None,
            "peer_value": None if peer_value is None else round(peer_value, 3), "ratio": ratio}


def main():
    print("bench fanout: load before: " + uptime(), flush=True)
    ours = {}
    for n in sizes(args.sizes):
        print("Swift load generator (bird-bench fanout, %s client), %d clients:" % (args.client, n), flush=True)
        ours[n] = run([args.bench, "fanout", "--sandbox", args.sandbox, "--clients", str(n), "--reps", str(args.reps),
                       "--publishes", str(args.publishes), "--events", str(burst_events(n)), "--client", args.client],
                      timeout=1800)["reps"]
    peer = {}
    for n in sizes(args.peer_sizes):
        print("Python load generator (bench_sandbox.py), %d clients:" % n, flush=True)
        result = run([args.python, os.path.join(ROOT, "Scripts/interop/bench_sandbox.py"), "--binary", args.sandbox,
                      "--clients", str(n), "--runs", str(args.reps), "--events", str(burst_events(n)),
                      "--skip-publish-timing"], timeout=1800)
        peer[n] = {f["name"]: f["value"] for f in result["figures"]}
    print("bench fanout: load after: " + uptime(), flush=True)

    figures = []
    print("medians of %d reps (min–max):" % args.reps)
    for n, reps in ours.items():
        col = lambda key: [r[key] for r in reps]
        p = peer.get(n, {})
        print("  %6d clients: p50 %s ms, p95 %s ms, p99 %s ms; %s deliveries/s; connect %s s; sandbox RSS %s MiB "
              "held, %s KiB/connection"
              % (n, spread(col("p50_ms"), "%.2f"), spread(col("p95_ms"), "%.2f"), spread(col("p99_ms"), "%.2f"),
                 spread(col("deliveries_per_s"), "%.0f"), spread(col("connect_s"), "%.2f"),
                 spread([r["rss_held_kb"] / 1024 for r in reps], "%.1f"), spread(col("rss_per_connection_kb"), "%.2f")))
        print("          sandbox CPU per delivery: %s µs (one publish at a time), %s µs (burst); generator %s µs"
              % (spread(col("publish_sandbox_cpu_us_per_delivery"), "%.2f"),
                 spread(col("sandbox_cpu_us_per_delivery"), "%.2f"),
                 spread(col("publish_generator_cpu_us_per_delivery"), "%.2f")))
        if p:
            print("          Python generator: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms; %.0f deliveries/s"
                  % (p.get("latency_p50", float("nan")), p.get("latency_p95", float("nan")),
                     p.get("latency_p99", float("nan")), p.get("fanout_deliveries_per_second", float("nan"))))
        if n == 250:
            p95 = statistics.median(col("p95_ms"))
            print("          target p95 ≤ %.0f ms at 250 clients: %s" % (P95_TARGET_MS, "met" if p95 <= P95_TARGET_MS
                                                                          else "NOT met"))
        med = lambda key: statistics.median(col(key))
        figures += [
            figure("fanout_%d_deliveries_per_second" % n, med("deliveries_per_s"), "deliveries/s",
                   "python-generator", p.get("fanout_deliveries_per_second")),
            figure("fanout_%d_latency_p50" % n, med("p50_ms"), "ms", "python-generator", p.get("latency_p50")),
            figure("fanout_%d_latency_p95" % n, med("p95_ms"), "ms", "python-generator", p.get("latency_p95")),
            figure("fanout_%d_latency_p99" % n, med("p99_ms"), "ms", "python-generator", p.get("latency_p99")),
            figure("fanout_%d_sandbox_rss_held" % n, med("rss_held_kb") / 1024, "MiB"),
            figure("fanout_%d_rss_per_connection" % n, med("rss_per_connection_kb"), "KiB"),
            figure("fanout_%d_connect_seconds" % n, med("connect_s"), "s"),
            figure("fanout_%d_sandbox_cpu_per_delivery" % n, med("publish_sandbox_cpu_us_per_delivery"), "µs"),
        ]
    print(json.dumps({"bench": "fanout", "figures": figures}))


if __name__ == "__main__":
    main()
