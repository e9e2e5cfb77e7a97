"""Inspector flood (helper of Scripts/bench.d/inspector-flood).

A separate release `bird-sandbox` bursts events on channel `flood` into a release `bird-inspect`
attached with --host/--port (subscribed to `flood`) in a tmux pane of 140×40, wide enough for the
Channels pane's event-rate sparklines. Measured on the inspector process alone (/proc/PID): CPU over
the burst (utime+stime, % of one core) and VmRSS just before the burst, 5 s into it and at its end.

Key-to-screen: 120 presses of `T` spread over the burst, alternately opening the Timeline (wait until
its "per column" label shows) and closing it (wait until the label is gone), so the timeline is drawn
for half the burst and the Channels pane with its sparklines for the other half. Each latency is
from `tmux send-keys` to the first `tmux capture-pane` that shows the effect (on a tmux server of
the bench's own, `-L`, so other tmux sessions on the machine do not share it; so it includes the
polling: each run prints the median time one capture-pane took, the polling's own share). A press
whose effect does not show within 5 s counts as 5 s. p99 is by nearest rank over every press of
every run. `--presses N` changes the 120 (with up to 100 presses a run's p99 is its slowest press;
with 120 it is the second slowest).

`--trace` runs the inspector with `BIRD_INSPECT_TRACE` (docs/INSPECTOR.md § Design) and
lines each press up with the inspector's own record of it (same wall clock), splitting its latency into
tmux send-keys (the command until it returned), waiting to be read (send-keys returned → the inspector's
read returned: the loop busy with a frame or the inbox), the inspector's handling (read → update →
view built → doupdate returned) and tmux + polling (doupdate → the capture that showed it). The
inspector's own share of a press is doupdate − send-keys returned.

Two modes (both by default):
  budgets   issue 17's budgets: 10,000 events/s for 60 s — ≤ 50 % of a core, key-to-screen p99
            ≤ 50 ms, RSS growth ≤ 10 MB over the 60 s.
  fire      issue 19's inspector under fire: 50,000 events/s for 20 s, with `--record` on — ≤ 1 core,
            key-to-screen p99 ≤ 50 ms, RSS bounded, and every event accounted for: a raw WebSocket
            reader on the same channel counts what the sandbox sent (and its achieved rate); after the
            burst, the events the Channels pane counts + the `dropped N events` the Connection pane
            shows must equal it, and so must the recording's `event` lines + its `dropped` counts.

  python inspector_flood.py --sandbox BIN --inspect BIN [--mode both|budgets|fire] [--reps 5]
                            [--seconds S] [--rate R] [--presses N] [--trace] [--keep-trace]
                                                              (S, R override the mode's defaults)
  python inspector_flood.py count-reader --port P --channel C --count N     (worker)
"""
import argparse
import base64
import json
import math
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client_bench import SandboxProcess  # noqa: E402

HZ = os.sysconf("SC_CLK_TCK")
WIDTH, HEIGHT = 140, 40
PRESSES = 120  # ≥ 101, so a run's p99 (nearest rank) is not just its slowest press
MODES = {
    "budgets": {"rate": 10_000, "seconds": 60, "record": False},
    "fire": {"rate": 50_000, "seconds": 20, "record": True},  # 1,000,000 events: one burst's limit
}


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def load_average():
    return os.getloadavg()[0]


# A tmux server of the bench's own (`-L`): the default server is shared with every other tmux
# session of this user (other benches, terminal tests), whose work would stall our presses.
TMUX = ["tmux", "-L", f"birdflood{os.getpid()}"]


def tmux(*args):
    return subprocess.run([*TMUX, *args], capture_output=True, text=True).stdout


def screen(session):
    return tmux("capture-pane", "-p", "-t", session)


CAPTURES = []  # how long each `tmux capture-pane` took: the polling's own share of a key's latency


def wait_for(session, text, timeout, present=True):
    deadline = time.time() + timeout
    while time.time() < deadline:
        c0 = time.time()
        shown = screen(session)
        CAPTURES.append((time.time() - c0) * 1000)
        if (text in shown) == present:
            return True
        time.sleep(0.002)
    return False


def percentile(values, p):
    """Nearest rank."""
    s = sorted(values)
    if not s:
        return float("nan")
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def grouped_int(text):
    return int(text.replace(",", ""))


def on_screen_counts(text):
    """(events the Channels pane counts for `flood`, events the Connection pane says were dropped)."""
    shown = None
    for line in text.splitlines():
        if "flood" in line:
            m = re.search(r"(\d[\d,]*) ev\b", line)
            if m:
                shown = grouped_int(m.group(1))
    dropped = 0
    m = re.search(r"dropped (\d[\d,]*) events?", text)
    if m:
        dropped = grouped_int(m.group(1))
    return shown, dropped


def recording_counts(path):
    """(event lines on `flood`, sum of `dropped` counts, dropped wire lines) in a recording."""
    events = dropped = wire = 0
    with open(path, "rb") as f:
        for line in f:
            if b'"type":"event"' in line and b'"channel":"flood"' in line:
                events += 1
            elif b'"type":"dropped"' in line:
                obj = json.loads(line)
                dropped += int(obj.get("count", 0))
                wire += int(obj.get("wire", 0))
    return events, dropped, wire


class CountReader:
    """A raw WebSocket subscriber (bird dialect) in its own process counting the `tick` frames the
    sandbox sends on the channel: what was sent, and when the first and last arrived."""

    def __init__(self, port, channel, count):
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "count-reader", "--port", str(port), "--channel", channel,
             "--count", str(count)], stdout=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "READY":
            raise SystemExit("inspector-flood: the counting reader did not subscribe")

    def result(self, timeout):
        try:
            out, _ = self.proc.communicate(timeout=timeout)
            return json.loads(out.strip().splitlines()[-1])
        except (subprocess.TimeoutExpired, ValueError, IndexError):
            self.proc.kill()
            out, _ = self.proc.communicate()
            return None


def cmd_count_reader(args):
    sock = socket.create_connection(("127.0.0.1", args.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /app/sandbox-key?protocol=7&client=bench&version=1 HTTP/1.1\r\nHost: 127.0.0.1:{args.port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += sock.recv(65536)
    buf = buf.split(b"\r\n\r\n", 1)[1]
    while b"connection_established" not in buf:
        buf += sock.recv(65536)
    text = json.dumps({"event": "bird:subscribe", "data": {"channel": args.channel}}).encode()
    mask = os.urandom(4)
    head = bytes([0x81, 0x80 | len(text)]) if len(text) < 126 else bytes([0x81, 0x80 | 126]) + len(text).to_bytes(2, "big")
    sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(text)))
    while b"subscription_succeeded" not in buf:
        buf += sock.recv(65536)
    print("READY", flush=True)
    # Every tick frame is identical: count the event name's bytes, keeping a tail across reads.
    marker = b'"event":"tick"'
    n = buf.split(b"subscription_succeeded", 1)[1].count(marker)
    tail = b""
    t_first = time.time() if n else None
    t_last = t_first
    sock.settimeout(15)
    try:
        while n < args.count:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            data = tail + chunk
            got = data.count(marker)
            if got:
                now = time.time()
                t_first = t_first or now
                t_last = now
                n += got
            tail = data[-(len(marker) - 1):]
    except socket.timeout:
        pass
    print(json.dumps({"count": n, "t_first": t_first, "t_last": t_last}), flush=True)


def read_trace(path):
    """The inspector's trace lines (BIRD_INSPECT_TRACE), oldest first."""
    lines = []
    with open(path) as f:
        for line in f:
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
    return lines


def split_presses(sends, trace):
    """Each press split by the inspector's trace (the first key line read after send-keys started):
    a dict of ms per part, or None where no key line matches."""
    keys = [t for t in trace if t["kind"] == "key"]
    frames = [t for t in trace if t["kind"] == "frame"]
    out = []
    for k0, k1, seen in sends:
        line = next((t for t in keys if t["read"] >= k0), None)
        if line is None or line["drawn"] <= 0:
            out.append(None)
            continue
        # A frame that was being worked on when send-keys returned: the key waited behind it.
        behind = [f for f in frames if f["read"] <= k1 <= f["drawn"]]
        out.append({
            "send": (k1 - k0) * 1000,
            "to_read": (line["read"] - k1) * 1000,
            "update": (line["key_updated"] - line["read"]) * 1000,
            "drain": (line["drain_updated"] - line["key_updated"]) * 1000,
            "drained": line["drained"],
            "build": (line["built"] - line["drain_updated"]) * 1000,
            "draw": (line["drawn"] - line["built"]) * 1000,
            "cells": line["cells"],
            "to_seen": (seen - line["drawn"]) * 1000,
            "inspector": (line["drawn"] - k1) * 1000,
            "total": (seen - k0) * 1000,
            "behind_frame": ((behind[0]["drawn"] - behind[0]["read"]) * 1000) if behind else 0.0,
        })
    return out


def frame_stats(trace):
    """Drawn frames without a key: (count, p50, p99, max) of read returned → doupdate returned, in ms."""
    spans = [(t["drawn"] - t["read"]) * 1000 for t in trace if t["kind"] == "frame" and t["drawn"] > 0]
    return (len(spans), percentile(spans, 50), percentile(spans, 99), max(spans)) if spans else None


def one_run(args, mode, rate, seconds, index):
    sandbox = SandboxProcess(args.sandbox, dialect="bird")
    session = f"birdflood{os.getpid()}_{mode}_{index}"
    record = None
    if MODES[mode]["record"]:
        fd, record = tempfile.mkstemp(prefix="bird-flood-", suffix=".jsonl")
        os.close(fd)
    trace = None
    if args.trace:
        fd, trace = tempfile.mkstemp(prefix="bird-flood-trace-", suffix=".jsonl")
        os.close(fd)
    try:
        cmd = ((f"BIRD_INSPECT_TRACE={trace} " if trace else "") + f"LANG=C.UTF-8 exec {args.inspect} --app-key sandbox-key --host 127.0.0.1 --port {sandbox.port} "
               f"--insecure --subscribe flood" + (f" --record {record}" if record else ""))
        subprocess.run([*TMUX, "new-session", "-d", "-s", session, "-x", str(WIDTH), "-y", str(HEIGHT), cmd],
                       check=True)
        pid = int(tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip())
        if not wait_for(session, "flood", 15):
            raise SystemExit("inspector-flood: bird-inspect never showed the channel")
        time.sleep(1.5)
        count = int(rate * seconds)
        reader = CountReader(sandbox.port, "flood", count) if record else None
        rss0 = rss_mb(pid)
        load0 = load_average()
        cpu0, t0 = cpu_seconds(pid), time.time()
        sandbox.burst(count, rate, {"seq": 1, "text": "flood event payload for the inspector bench"},
                      channel="flood", event="tick")
        rss5 = None
        keys = []
        timeouts = 0
        CAPTURES.clear()
        presses = args.presses
        key_at = [seconds * (0.04 + 0.92 * i / max(1, presses - 1)) for i in range(presses)]
        sends = []  # (send-keys started, returned, effect seen) per press, wall clock
        opened = False
        end = t0 + seconds
        while time.time() < end:
            elapsed = time.time() - t0
            if rss5 is None and elapsed >= 5:
                rss5 = rss_mb(pid)
            if key_at and elapsed >= key_at[0]:
                key_at.pop(0)
                k0 = time.time()
                tmux("send-keys", "-t", session, "T")
                k1 = time.time()
                # A press whose effect never shows within 5 s counts as 5 s (it is in the p99).
                if not wait_for(session, "per column", 5, present=not opened):
                    timeouts += 1
                seen = time.time()
                keys.append((seen - k0) * 1000)
                sends.append((k0, k1, seen))
                opened = not opened
            time.sleep(0.01)
        cpu = (cpu_seconds(pid) - cpu0) / (time.time() - t0) * 100
        rss_end = rss_mb(pid)
        load1 = load_average()
        if opened:
            tmux("send-keys", "-t", session, "T")
            wait_for(session, "per column", 5, present=False)
        out = {"cpu": cpu, "rss0": rss0, "rss5": rss5 if rss5 is not None else float("nan"), "rss_end": rss_end,
               "keys": keys, "timeouts": timeouts,
               "capture": statistics.median(CAPTURES) if CAPTURES else float("nan"),
               "load": (load0 + load1) / 2}
        if reader is not None:
            sent = reader.result(30)
            out["sent"] = sent["count"] if sent else None
            out["achieved"] = (sent["count"] / (sent["t_last"] - t0)) if sent and sent["t_last"] else float("nan")
            # Wait for the inspector to settle: the same counts on two captures a second apart.
            last, deadline = None, time.time() + 30
            while time.time() < deadline:
                now = on_screen_counts(screen(session))
                if now == last and now[0] is not None:
                    break
                last = now
                time.sleep(1)
            out["shown"], out["dropped_screen"] = on_screen_counts(screen(session))
            out["rss_settled"] = rss_mb(pid)
            tmux("send-keys", "-t", session, "q")
            deadline = time.time() + 20
            while time.time() < deadline and os.path.exists(f"/proc/{pid}"):
                time.sleep(0.05)
            out["rec_events"], out["rec_dropped"], out["rec_wire"] = recording_counts(record)
        else:
            text = screen(session)
            if "tick" not in text:
                raise SystemExit("inspector-flood: no tick event on the inspector's screen — the burst did not arrive")
            # What the panes say at the burst's end (events still in the inbox are in neither count).
            out["shown"], out["dropped_screen"] = on_screen_counts(text)
        if trace:
            # The trace is complete once the inspector has exited.
            tmux("send-keys", "-t", session, "q")
            deadline = time.time() + 20
            while time.time() < deadline and os.path.exists(f"/proc/{pid}"):
                time.sleep(0.05)
            out["split"] = split_presses(sends, read_trace(trace))
            out["frames"] = frame_stats(read_trace(trace))
        return out
    finally:
        subprocess.run([*TMUX, "kill-server"], capture_output=True)
        sandbox.stop()
        if record and os.path.exists(record):
            os.unlink(record)
        if trace and os.path.exists(trace):
            if args.keep_trace:
                print(f"  trace kept: {trace}", flush=True)
            else:
                os.unlink(trace)


def print_split(split, frames, label):
    """The slowest presses of a run, split into their parts, and the run's frame times."""
    matched = [s for s in split if s is not None]
    if frames:
        print(f"  {label} trace: {frames[0]} frames, read → doupdate p50 {frames[1]:.1f} ms p99 {frames[2]:.1f} ms "
              f"max {frames[3]:.1f} ms; {len(matched)} of {len(split)} presses matched; the slowest:", flush=True)
    for s in sorted(matched, key=lambda s: -s["total"])[:4]:
        print(f"    {s['total']:.1f} ms = send-keys {s['send']:.1f} + to read {s['to_read']:.1f} (behind a frame of "
              f"{s['behind_frame']:.1f}) + update {s['update']:.1f} + drain {s['drained']} in {s['drain']:.1f} + build "
              f"{s['build']:.1f} + draw {s['draw']:.1f} ({s['cells']} cells) + tmux/poll {s['to_seen']:.1f}", flush=True)


def run_mode(args, mode):
    rate = args.rate or MODES[mode]["rate"]
    seconds = args.seconds or MODES[mode]["seconds"]
    print(f"inspector-flood [{mode}]: bird-sandbox (release) bursts {rate:,.0f} events/s for {seconds:g} s into "
          f"bird-inspect (release, tmux {WIDTH}×{HEIGHT}: sparklines shown; --host/--port"
          + (", --record" if MODES[mode]["record"] else "") + f"); {args.presses} `T` presses per run; {args.reps} runs"
          + ("; traced" if args.trace else ""))
    runs = []
    for i in range(args.reps):
        r = one_run(args, mode, rate, seconds, i)
        runs.append(r)
        if "split" in r:
            print_split(r["split"], r["frames"], f"run {i + 1}")
        line = (f"  run {i + 1}: CPU {r['cpu']:.1f} % of a core   RSS {r['rss0']:.1f} → {r['rss5']:.1f} (5 s) → "
                f"{r['rss_end']:.1f} MB (+{r['rss_end'] - r['rss0']:.1f})   key→screen p50 "
                f"{percentile(r['keys'], 50):.1f} ms p99 {percentile(r['keys'], 99):.1f} ms "
                f"({len(r['keys'])} presses, {r['timeouts']} not shown within 5 s; one capture-pane {r['capture']:.1f} ms)   load {r['load']:.1f}")
        if "sent" not in r and r.get("shown") is not None:
            line += f"\n         at the end: shown {r['shown']:,}, dropped {r['dropped_screen']:,} of {int(rate * seconds):,}"
        if "sent" in r:
            ok_screen = r["shown"] is not None and r["sent"] == r["shown"] + r["dropped_screen"]
            ok_rec = r["sent"] == r["rec_events"] + r["rec_dropped"]
            r["accounted"] = ok_screen and ok_rec
            line += (f"\n         sent {r['sent']:,} at {r['achieved']:,.0f} events/s; screen: shown {r['shown']:,} + "
                     f"dropped {r['dropped_screen']:,} = {(r['shown'] or 0) + r['dropped_screen']:,} "
                     f"({'exact' if ok_screen else 'MISMATCH'}); recording: {r['rec_events']:,} events + dropped "
                     f"{r['rec_dropped']:,} = {r['rec_events'] + r['rec_dropped']:,} "
                     f"({'exact' if ok_rec else 'MISMATCH'}; {r['rec_wire']:,} wire lines dropped); "
                     f"RSS settled {r['rss_settled']:.1f} MB")
        print(line, flush=True)
    keys = [k for r in runs for k in r["keys"]]
    cpu = statistics.median(r["cpu"] for r in runs)
    rss0 = statistics.median(r["rss0"] for r in runs)
    rss_end = statistics.median(r["rss_end"] for r in runs)
    growth = statistics.median(r["rss_end"] - r["rss0"] for r in runs)
    growth5 = statistics.median(r["rss_end"] - r["rss5"] for r in runs)
    p50, p99 = percentile(keys, 50), percentile(keys, 99)
    load = statistics.median(r["load"] for r in runs)
    splits = [s for r in runs for s in r.get("split", []) if s is not None]
    if splits:
        own = [s["inspector"] for s in splits]
        ext = [s["total"] - s["inspector"] for s in splits]
        print(f"trace [{mode}]: over {len(splits)} matched presses the inspector's own share (send-keys returned → "
              f"doupdate) p50 {percentile(own, 50):.1f} ms p99 {percentile(own, 99):.1f} ms max {max(own):.1f} ms; "
              f"the rest (send-keys + tmux + capture polling) p50 {percentile(ext, 50):.1f} ms p99 "
              f"{percentile(ext, 99):.1f} ms max {max(ext):.1f} ms")
    limit = 50 if mode == "budgets" else 100
    print(f"median [{mode}]: CPU {cpu:.1f} % (target ≤ {limit} %), RSS {rss0:.1f} → {rss_end:.1f} MB, growth "
          f"{growth:.1f} MB over the burst, {growth5:.1f} MB from 5 s on (target ≤ 10 MB), key→screen p50 {p50:.1f} "
          f"ms p99 {p99:.1f} ms over {len(keys)} presses (target p99 ≤ 50 ms; includes tmux capture polling); "
          f"load average {load:.1f}")
    prefix = "inspector" if mode == "budgets" else "inspector_fire"
    figs = [(f"{prefix}_cpu_percent", cpu, "%"), (f"{prefix}_rss_at_start", rss0, "MB"),
            (f"{prefix}_rss_at_end", rss_end, "MB"), (f"{prefix}_rss_growth", growth, "MB"),
            (f"{prefix}_key_latency_p50", p50, "ms"), (f"{prefix}_key_latency_p99", p99, "ms")]
    if mode == "fire":
        achieved = statistics.median(r["achieved"] for r in runs)
        dropped = statistics.median(r["dropped_screen"] / r["sent"] * 100 for r in runs if r["sent"])
        exact = sum(1 for r in runs if r.get("accounted"))
        print(f"median [fire]: sandbox achieved {achieved:,.0f} events/s; dropped {dropped:.1f} % of the events; "
              f"counts exact (screen and recording) in {exact} of {len(runs)} runs")
        figs += [("inspector_fire_achieved_rate", achieved, "events/s"), ("inspector_fire_dropped", dropped, "%"),
                 ("inspector_fire_runs_accounted", exact, "runs")]
    return figs


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "count-reader":
        ap = argparse.ArgumentParser()
        ap.add_argument("cmd")
        ap.add_argument("--port", type=int, required=True)
        ap.add_argument("--channel", required=True)
        ap.add_argument("--count", type=int, required=True)
        cmd_count_reader(ap.parse_args())
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sandbox", required=True)
    ap.add_argument("--inspect", required=True)
    ap.add_argument("--mode", choices=["both", "budgets", "fire"], default="both")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--rate", type=float, default=None)
    ap.add_argument("--presses", type=int, default=PRESSES)
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--keep-trace", action="store_true")
    args = ap.parse_args()
    figs = []
    for mode in (["budgets", "fire"] if args.mode == "both" else [args.mode]):
        figs += run_mode(args, mode)
    print(json.dumps({"bench": "inspector-flood", "figures": [
        {"name": n, "value": round(v, 3), "unit": u, "peer": None, "peer_value": None, "ratio": None}
        for n, v, u in figs]}))


if __name__ == "__main__":
    main()
