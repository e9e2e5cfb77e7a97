"""Inspector flood (helper of Scripts/bench.d/inspector-flood).

A separate release `bird-sandbox` bursts 10,000 events/s for --seconds on channel `flood` into a
release `bird-inspect` attached with --host/--port (subscribed to `flood`) in a tmux pane
(120×40). Measured on the inspector process alone (/proc/PID): CPU over the burst (utime+stime,
% of one core), VmRSS 5 s into the burst and at its end, and key-to-screen latency: send `p`,
poll `tmux capture-pane` until the pause marker shows, then `G` to follow again (5 presses per
run, spread over the burst). No peer. Medians of --reps runs.

  python inspector_flood.py --sandbox BIN --inspect BIN [--reps 5] [--seconds 30] [--rate 10000]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client_bench import SandboxProcess  # noqa: E402

HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True).stdout


def wait_for(session, text, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if text in tmux("capture-pane", "-p", "-t", session):
            return True
        time.sleep(0.002)
    return False


def wait_gone(session, text, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if text not in tmux("capture-pane", "-p", "-t", session):
            return True
        time.sleep(0.005)
    return False


def one_run(args, index):
    sandbox = SandboxProcess(args.sandbox, dialect="bird")
    session = f"birdflood{os.getpid()}_{index}"
    try:
        cmd = (f"LANG=C.UTF-8 exec {args.inspect} --app-key sandbox-key --host 127.0.0.1 --port {sandbox.port} "
               f"--insecure --subscribe flood")
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", cmd], check=True)
        pid = int(tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip())
        if not wait_for(session, "flood", 15):
            raise SystemExit("inspector-flood: bird-inspect never showed the channel")
        time.sleep(1.5)
        count = int(args.rate * args.seconds)
        cpu0, t0 = cpu_seconds(pid), time.time()
        sandbox.burst(count, args.rate, {"seq": 1, "text": "flood event payload for the inspector bench"},
                      channel="flood", event="tick")
        rss5 = None
        key_times = []
        key_at = [args.seconds * f for f in (0.3, 0.45, 0.6, 0.75, 0.9)]
        end = t0 + args.seconds
        while time.time() < end:
            elapsed = time.time() - t0
            if rss5 is None and elapsed >= 5:
                rss5 = rss_mb(pid)
            if key_at and elapsed >= key_at[0]:
                key_at.pop(0)
                k0 = time.time()
                tmux("send-keys", "-t", session, "p")
                if wait_for(session, "paused", 5):
                    key_times.append((time.time() - k0) * 1000)
                tmux("send-keys", "-t", session, "G")
                wait_gone(session, "⏸ paused", 5)
            time.sleep(0.05)
        cpu = (cpu_seconds(pid) - cpu0) / (time.time() - t0) * 100
        rss_end = rss_mb(pid)
        if "tick" not in tmux("capture-pane", "-p", "-t", session):
            raise SystemExit("inspector-flood: no tick event on the inspector's screen — the burst did not arrive")
        return {"cpu": cpu, "rss5": rss5 if rss5 is not None else float("nan"), "rss_end": rss_end,
                "key_ms": statistics.median(key_times) if key_times else float("nan"), "keys": len(key_times)}
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        sandbox.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sandbox", required=True)
    ap.add_argument("--inspect", required=True)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--rate", type=float, default=10_000)
    args = ap.parse_args()
    print(f"inspector-flood: bird-sandbox (release) bursts {args.rate:,.0f} events/s for {args.seconds:g} s into "
          f"bird-inspect (release, tmux 120×40, --host/--port); {args.reps} runs")
    runs = []
    for i in range(args.reps):
        r = one_run(args, i)
        runs.append(r)
        print(f"  run {i + 1}: CPU {r['cpu']:.1f} % of a core   RSS {r['rss5']:.1f} MB at 5 s → {r['rss_end']:.1f} MB "
              f"at {args.seconds:g} s (+{r['rss_end'] - r['rss5']:.1f})   key→screen {r['key_ms']:.1f} ms "
              f"(median of {r['keys']})", flush=True)
    cpu = statistics.median(r["cpu"] for r in runs)
    rss5 = statistics.median(r["rss5"] for r in runs)
    rss_end = statistics.median(r["rss_end"] for r in runs)
    growth = statistics.median(r["rss_end"] - r["rss5"] for r in runs)
    key = statistics.median(r["key_ms"] for r in runs)
    print(f"median: CPU {cpu:.1f} % (target ≤ 50 %), RSS {rss5:.1f} → {rss_end:.1f} MB, growth {growth:.1f} MB "
          f"(target ≤ 10 MB), key→screen {key:.1f} ms (target ≤ 100 ms; includes tmux capture polling)")
    figs = [("inspector_cpu_percent", cpu, "%"), ("inspector_rss_at_5s", rss5, "MB"),
            ("inspector_rss_at_end", rss_end, "MB"), ("inspector_rss_growth", growth, "MB"),
            ("inspector_key_latency", key, "ms")]
    print(json.dumps({"bench": "inspector-flood", "figures": [
        {"name": n, "value": round(v, 3), "unit": u, "peer": None, "peer_value": None, "ratio": None}
        for n, v, u in figs]}))


if __name__ == "__main__":
    main()
