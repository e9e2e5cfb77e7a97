"""Benchmark: bird-sandbox fan-out to many WebSocket clients on one channel (loopback).

Starts `bird-sandbox --port 0 --quiet`, opens N clients (Python `websockets`, default 2000) that
all subscribe to one channel, then:
  * deliveries per second: a burst of E 100-byte events (control API `burst`, rate 0) fanned out
    to all N clients, timed from the request to the last delivery;
  * publish-to-receive latency at a fixed rate (p50 / p95 / p99, nearest rank over every
    receiver of every publish), events stamped with the send time;
  * the edge's own fan-out cost: the duration of one unsigned publish (control API `publish`),
    which returns after the edge encoded and queued the event for all N connections;
  * the sandbox's RSS with all clients connected.
Each figure is the median of RUNS runs. Human-readable lines first, then the last line per
docs/PROTOCOL.md § Bench output: {"bench":"sandbox","figures":[{name,value,unit,peer,peer_value,ratio}]} (no peer
here: every peer value is null). The load generator is Python, so on a small machine it, not the
sandbox, may be the bottleneck: compare figures from the same machine only.

usage: bench_sandbox.py --binary .build/release/bird-sandbox [--clients 2000] [--events 20] [--runs 5]
                        [--skip-publish-timing]
(Scripts/bench fanout runs it as the peer of the Swift load generator, bird-bench fanout.)
"""
import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request

import websockets

parser = argparse.ArgumentParser(description="bird-sandbox fan-out benchmark")
parser.add_argument("--binary", required=True)
parser.add_argument("--clients", type=int, default=2000)
parser.add_argument("--events", type=int, default=20, help="events per throughput burst")
parser.add_argument("--rate", type=float, default=2,
                    help="events per second in the latency runs (keep rate × clients below the load generator's capacity)")
parser.add_argument("--seconds", type=float, default=3, help="length of each latency run")
parser.add_argument("--runs", type=int, default=5)
parser.add_argument("--skip-publish-timing", action="store_true",
                    help="leave out the publish_fanout_ms runs (the fanout bench times publishes itself)")
args = parser.parse_args()


def control(base, path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def timed_publish_ms(base, body):
    """One control-API publish, timed by curl (a separate process, so the load generator's busy
    interpreter does not inflate it); urllib when curl is missing. Returns (ms, answer)."""
    try:
        out = subprocess.run(["curl", "-s", "-X", "POST", "-H", "Content-Type: application/json", "-d", json.dumps(body),
                              "-w", "\\n%{time_total}", base + "/publish"], capture_output=True, text=True, timeout=30)
        text, seconds = out.stdout.rsplit("\n", 1)
        return float(seconds) * 1000.0, json.loads(text)
    except (OSError, ValueError):
        start = time.time()
        answer = control(base, "/publish", body)
        return (time.time() - start) * 1000.0, answer


def nearest_rank(sorted_samples, percent):
    """The nearest-rank percentile: the sample at 1-based rank ceil(percent * n / 100)."""
    rank = max(1, (percent * len(sorted_samples) + 99) // 100)
    return sorted_samples[rank - 1]


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


class Load:
    def __init__(self):
        self.count = 0
        self.latencies = None   # a list while a latency run records
        self.target = 0
        self.done = None

    def on_event(self, text):
        self.count += 1
        if self.latencies is not None:
            try:
                sent = json.loads(json.loads(text)["data"])["t"]
                self.latencies.append((time.time() - sent) * 1000.0)
            except (ValueError, KeyError, TypeError):
                pass
        if self.done is not None and self.count >= self.target and not self.done.done():
            self.done.set_result(True)


async def client(url, load, ready):
    async with websockets.connect(url, max_queue=None, ping_interval=None, open_timeout=60) as ws:
        await ws.recv()  # handshake
        await ws.send(json.dumps({"event": "bird:subscribe", "data": {"channel": "bench"}}))
        while True:
            text = await ws.recv()
            if "subscription_succeeded" in text:
                break
        ready.release()
        async for text in ws:
            if text.startswith('{"event":"tick"'):
                load.on_event(text)


async def main():
    process = subprocess.Popen([args.binary, "--port", "0", "--quiet"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    try:
        info = json.loads(process.stdout.readline())
        url = info["ws"] + "?protocol=7&client=bench"
        base = info["control"]
        load = Load()
        ready = asyncio.Semaphore(0)
        tasks = []
        t0 = time.time()
        for i in range(args.clients):
            tasks.append(asyncio.create_task(client(url, load, ready)))
            if i % 100 == 99:
                for _ in range(100):
                    await asyncio.wait_for(ready.acquire(), 60)
        for _ in range(args.clients % 100):
            await asyncio.wait_for(ready.acquire(), 60)
        print("connected and subscribed %d clients in %.1f s" % (args.clients, time.time() - t0), flush=True)
        rss = rss_mib(process.pid)
        print("sandbox RSS with %d clients: %.1f MiB" % (args.clients, rss), flush=True)

        pad = "x" * 60
        throughput = []
        for run in range(args.runs):
            load.count = 0
            load.target = args.clients * args.events
            load.done = asyncio.get_running_loop().create_future()
            start = time.time()
            await asyncio.to_thread(control, base, "/burst", {"channel": "bench", "event": "tick",
                                                              "data": {"p": pad}, "count": args.events, "rate": 0})
            await asyncio.wait_for(load.done, 120)
            elapsed = time.time() - start
            throughput.append(load.target / elapsed)
            print("run %d: %d deliveries in %.3f s = %.0f deliveries/s" % (run + 1, load.target, elapsed,
                                                                            throughput[-1]), flush=True)

        publish_ms = []
        for run in range(0 if args.skip_publish_timing else args.runs):
            samples = []
            for _ in range(10):
                ms, answer = await asyncio.to_thread(timed_publish_ms, base, {"channel": "bench", "event": "warm",
                                                                              "data": {"p": pad}})
                samples.append(ms)
                await asyncio.sleep(0.2)
            publish_ms.append(statistics.median(samples))
            print("run %d: one publish to %s connections takes %.2f ms (median of 10)" % (
                run + 1, answer.get("delivered"), publish_ms[-1]), flush=True)
            await asyncio.sleep(0.5)

        p50s, p95s, p99s = [], [], []
        for run in range(args.runs):
            load.latencies = []
            load.done = None
            interval = 1.0 / args.rate
            next_at = time.time()
            end = next_at + args.seconds
            while time.time() < end:
                body = {"channel": "bench", "event": "tick", "data": {"t": time.time(), "p": pad[:40]}}
                await asyncio.to_thread(control, base, "/publish", body)
                next_at += interval
                await asyncio.sleep(max(0, next_at - time.time()))
            await asyncio.sleep(1.0)
            samples = sorted(load.latencies)
            load.latencies = None
            if not samples:
                print("run %d: no latency samples" % (run + 1))
                continue
            p50, p95, p99 = (nearest_rank(samples, p) for p in (50, 95, 99))
            p50s.append(p50)
            p95s.append(p95)
            p99s.append(p99)
            print("run %d: %d samples at %.0f events/s: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms" % (
                run + 1, len(samples), args.rate, p50, p95, p99), flush=True)
        rss_after = rss_mib(process.pid)
        print("sandbox RSS after the runs: %.1f MiB" % rss_after, flush=True)
        for task in tasks:
            task.cancel()

        def figure(name, value, unit):
            return {"name": name, "value": round(value, 3), "unit": unit, "peer": None, "peer_value": None,
                    "ratio": None}

        figures = [figure("fanout_deliveries_per_second", statistics.median(throughput), "deliveries/s")]
        if publish_ms:
            figures.append(figure("publish_fanout_ms", statistics.median(publish_ms), "ms"))
        figures += [
            figure("latency_p50", statistics.median(p50s) if p50s else float("nan"), "ms"),
            figure("latency_p95", statistics.median(p95s) if p95s else float("nan"), "ms"),
            figure("latency_p99", statistics.median(p99s) if p99s else float("nan"), "ms"),
            figure("rss_%d_clients" % args.clients, max(rss, rss_after), "MiB"),
        ]
        print(json.dumps({"bench": "sandbox", "figures": figures}))
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except Exception as e:  # noqa: BLE001
        print("bench_sandbox: %r" % e, file=sys.stderr)
        sys.exit(1)
