"""Start-up times (helper of Scripts/bench.d/startup).

Two figures, each the median of --reps launches of a release binary, timed from just before the
process is spawned to the moment the line that says "ready" arrives on its stdout:

  inspector_sandbox_to_connected_ms  `bird-inspect --sandbox --jsonl` → the first JSONL `state`
                                     line whose `current` is `connected` (embedded sandbox started,
                                     WebSocket opened, handshake received)
  sandbox_ready_ms                   `bird-sandbox --port 0 --quiet` → its endpoints JSON line
                                     (listening, ready for clients)

The limits of issue 19 (300 ms and 100 ms) are the peers. Also measured in the same run, as a
floor: `/bin/true` spawned the same way (what launching any process costs here).

  python startup_bench.py run --inspect BIN --sandbox BIN [--reps N] [--timeout S]
"""
import argparse
import json
import statistics
import subprocess
import sys
import time


def time_to_line(cmd, ready, timeout):
    """Milliseconds from spawn to the first stdout line for which `ready(line)` is true."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, bufsize=1)
    try:
        deadline = t0 + timeout
        for line in proc.stdout:
            if ready(line):
                return (time.monotonic() - t0) * 1000
            if time.monotonic() > deadline:
                break
        raise RuntimeError(f"{cmd[0]}: no ready line within {timeout} s (exit {proc.poll()})")
    finally:
        proc.kill()
        proc.wait()


def spawn_floor():
    t0 = time.monotonic()
    subprocess.run(["/bin/true"], stdin=subprocess.DEVNULL)
    return (time.monotonic() - t0) * 1000


def is_connected(line):
    try:
        obj = json.loads(line)
    except ValueError:
        return False
    return obj.get("type") == "state" and obj.get("current") == "connected"


def is_endpoints(line):
    try:
        obj = json.loads(line)
    except ValueError:
        return False
    return isinstance(obj, dict) and "ws" in obj


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--inspect", required=True)
    p.add_argument("--sandbox", required=True)
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    print(f"startup: release binaries, {args.reps} launches each, spawn → ready line on stdout")
    cases = [
        ("inspector_sandbox_to_connected_ms", "bird-inspect --sandbox --jsonl → first `connected` state line",
         [args.inspect, "--sandbox", "--jsonl"], is_connected, 300.0),
        ("sandbox_ready_ms", "bird-sandbox --port 0 --quiet → endpoints line",
         [args.sandbox, "--port", "0", "--quiet"], is_endpoints, 100.0),
    ]
    figures = []
    floor = []
    for name, label, cmd, ready, limit in cases:
        times = []
        for _ in range(args.reps):
            times.append(time_to_line(cmd, ready, args.timeout))
            floor.append(spawn_floor())
        median = statistics.median(times)
        print(f"{label}: median {median:.1f} ms (min {min(times):.1f}, max {max(times):.1f}); "
              f"limit {limit:.0f} ms: {'met' if median <= limit else 'missed'}", flush=True)
        figures.append({"name": name, "value": round(median, 2), "unit": "ms", "peer": "limit",
                        "peer_value": limit, "ratio": round(median / limit, 3)})
    spawn = statistics.median(floor)
    print(f"floor: spawning /bin/true the same way: median {spawn:.2f} ms")
    figures.append({"name": "spawn_true_ms", "value": round(spawn, 2), "unit": "ms", "peer": None,
                    "peer_value": None, "ratio": None})
    print(json.dumps({"bench": "startup", "figures": figures}))


if __name__ == "__main__":
    sys.exit(main())
