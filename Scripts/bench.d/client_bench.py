"""Client benchmarks (helper of Scripts/bench.d/client-ingest and Scripts/bench.d/memory).

A release `bird-sandbox --dialect pusher --port 0` runs as a separate process. Each client run is a
separate process too: ours is `bird-bench` (release build), the peer is pysher 1.0.8 (this file,
`pysher-ingest` / `pysher-memory`). Runs alternate ours/peer; medians of --reps runs.

client-ingest: the client subscribes `bench` and binds a handler to `tick`; once subscribed, this
script calls `POST /sandbox/burst` (count N, rate 0 = as fast as the sandbox can) with an ≈64-byte
JSON payload. events/s = N / (time the handler saw event N − time just before the burst call).
Latency: the same at a fixed rate (10,000/s); the payload carries `t`, the wall-clock time just
before the burst call, and event i's publish time is taken as t + i/rate (the burst repeats one
payload, so a per-event stamp is not possible; the sandbox's burst timer fires every 5 ms, so up
to 5 ms of the figure is the sandbox batching its schedule).

  python client_bench.py ingest --sandbox BIN --bench BIN [--count N] [--reps N] [--lat-rate R] [--lat-seconds S]
  python client_bench.py memory --sandbox BIN --bench BIN [--channels N] [--reps N]
  python client_bench.py pysher-ingest --port P --count N [--rate R]     (worker)
  python client_bench.py pysher-memory --port P --channels N            (worker)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def payload(t):
    base = {"t": t, "pad": ""}
    size = len(json.dumps(base, separators=(",", ":")))
    base["pad"] = "x" * max(0, 64 - size)
    return base


class SandboxProcess:
    def __init__(self, binary, dialect="pusher"):
        self.proc = subprocess.Popen(
            [binary, "--dialect", dialect, "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.info = None
        deadline = time.time() + 20
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            line = line.strip()
            if line.startswith("{"):
                self.info = json.loads(line)
                break
        if self.info is None:
            self.stop()
            raise SystemExit("bench: bird-sandbox did not print its endpoints line")
        threading.Thread(target=self._drain, daemon=True).start()
        self.port = self.info["port"]
        self.control = self.info["control"]

    def _drain(self):
        for _ in self.proc.stdout:
            pass

    def burst(self, count, rate, data, channel="bench", event="tick"):
        body = json.dumps({"channel": channel, "event": event, "data": data, "count": count, "rate": rate})
        req = urllib.request.Request(self.control + "/burst", data=body.encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            r.read()

    def rss_kb(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return -1

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Feeder:
    """A one-connection Pusher-protocol edge that writes `count` pre-encoded tick frames as fast as
    the socket accepts them, right after subscription_succeeded — the client's own limit, with the
    sandbox's send rate out of the way."""

    def __init__(self, count, gate=None):
        import socket
        self.count = count
        self.gate = gate
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.t0 = None
        self.error = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @staticmethod
    def _frame(text):
        import struct
        data = text.encode()
        n = len(data)
        head = struct.pack("!BB", 0x81, n) if n < 126 else struct.pack("!BBH", 0x81, 126, n)
        return head + data

    def _serve(self):
        import base64
        import hashlib
        try:
            conn, _ = self.listener.accept()
            buf = b""
            while b"\r\n\r\n" not in buf:
                buf += conn.recv(65536)
            head = buf.split(b"\r\n\r\n", 1)[0].decode("latin-1")
            key = [ln.split(":", 1)[1].strip() for ln in head.split("\r\n") if ln.lower().startswith("sec-websocket-key:")][0]
            accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
            conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
            conn.sendall(self._frame(json.dumps({"event": "pusher:connection_established", "data": json.dumps(
                {"socket_id": "1234.5678", "activity_timeout": 120})})))
            got = b""
            while b"subscribe" not in got:  # the masked subscribe frame: unmask and look
                chunk = conn.recv(65536)
                if not chunk:
                    return
                got_raw = chunk
                n = got_raw[1] & 0x7F
                h = 2 if n < 126 else 4
                mask = got_raw[h:h + 4]
                got += bytes(b ^ mask[i % 4] for i, b in enumerate(got_raw[h + 4:]))
            tick = self._frame(json.dumps({"event": "tick", "channel": "bench", "data": json.dumps(
                payload(time.time()), separators=(",", ":"))}, separators=(",", ":")))
            blob = tick * self.count
            conn.sendall(self._frame(json.dumps({"event": "pusher_internal:subscription_succeeded",
                                                 "channel": "bench", "data": "{}"})))
            if self.gate is not None and not self.gate.wait(600):
                return
            self.t0 = time.time()
            conn.sendall(blob)
            conn.recv(1)  # hold the connection until the client goes
        except Exception as e:  # noqa: BLE001 — reported by the caller
            self.error = e


def run_feeder(cmd_for_port, count, timeout):
    feeder = Feeder(count)
    proc = subprocess.Popen(cmd_for_port(feeder.port), stdout=subprocess.PIPE, text=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        if proc.returncode != 0 or feeder.t0 is None:
            raise RuntimeError(f"feeder run failed: rc {proc.returncode} {feeder.error}")
        result = json.loads(out.strip().splitlines()[-1])
        return count / (result["t_last"] - feeder.t0)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        feeder.listener.close()


def run_worker(cmd, sandbox, count, rate, timeout):
    """Starts a client process, bursts once it is READY, returns its JSON result and the burst time."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        if line != "READY":
            raise RuntimeError(f"{cmd[0]}: expected READY, got {line!r}")
        t0 = time.time()
        sandbox.burst(count, rate, payload(t0))
        out, _ = proc.communicate(timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"{cmd[0]} exited {proc.returncode}")
        result = json.loads(out.strip().splitlines()[-1])
        result["t0"] = t0
        return result
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def ours_cmd(args, sandbox, count, rate):
    return [args.bench, "ingest", "--port", str(sandbox.port), "--dialect", "pusher", "--count", str(count),
            "--rate", str(rate)]


def peer_cmd(sandbox, count, rate):
    return [sys.executable, os.path.abspath(__file__), "pysher-ingest", "--port", str(sandbox.port),
            "--count", str(count), "--rate", str(rate)]


def figure(name, value, unit, peer=None, peer_value=None, higher_is_better=True):
    ratio = None
    if peer_value:
        ratio = round(value / peer_value, 3) if higher_is_better else round(value / peer_value, 3)
    return {"name": name, "value": round(value, 3), "unit": unit, "peer": peer,
            "peer_value": None if peer_value is None else round(peer_value, 3), "ratio": ratio}


def cmd_ingest(args):
    sandbox = SandboxProcess(args.sandbox)
    figures = []
    try:
        print(f"client-ingest: bird-sandbox (release, pusher dialect) on port {sandbox.port}; "
              f"{args.count:,} events × {args.reps} runs per client, ≈64-byte payloads, full speed"
              + ("" if args.count == 200_000 else " (fewer than the issue's 200,000: --count)"))
        if args.peer_count != args.count:
            print(f"  pysher gets {args.peer_count:,} events per run: it falls so far behind a full-speed burst that "
                  f"the sandbox drops it once 16 MB are queued (WebSocketServer maxOutboundBytes); --peer-count")
        ours, peer, plain = [], [], []
        for rep in range(args.reps):
            r = run_worker(ours_cmd(args, sandbox, args.count, 0), sandbox, args.count, 0, 600)
            ours.append(args.count / (r["t_last"] - r["t0"]))
            p = run_worker(peer_cmd(sandbox, args.peer_count, 0), sandbox, args.peer_count, 0, 180)
            peer.append(args.peer_count / (p["t_last"] - p["t0"]))
            q = run_worker([sys.executable, os.path.abspath(__file__), "plain-ingest", "--port", str(sandbox.port),
                            "--count", str(args.count)], sandbox, args.count, 0, 600)
            plain.append(args.count / (q["t_last"] - q["t0"]))
            print(f"  run {rep + 1}: BirdRealtime {ours[-1]:,.0f} events/s   pysher {peer[-1]:,.0f} events/s"
                  f"   plain TCP reader {plain[-1]:,.0f} events/s"
                  f"   (sandbox RSS {sandbox.rss_kb() / 1024:.0f} MB)", flush=True)
        mo, mp = statistics.median(ours), statistics.median(peer)
        print(f"median: BirdRealtime {mo:,.0f} events/s, pysher {mp:,.0f} events/s, ratio {mo / mp:.1f}×"
              f"  (targets: ≥ 300,000 events/s, ≥ 20× pysher)")
        mq = statistics.median(plain)
        print(f"median plain TCP reader (the sandbox's send limit, no WebSocket/JSON work): {mq:,.0f} events/s;"
              f" BirdRealtime reaches {mo / mq:.0%} of it")
        figures.append(figure("ingest_events_per_s", mo, "events/s", "pysher", mp))
        figures.append(figure("ingest_events_per_s_vs_plain_reader", mo, "events/s", "plain-tcp-reader", mq))

        print(f"client limit: a pre-encoded feeder (Python, one connection) writes {args.count:,} identical "
              f"tick frames as fast as the socket accepts them right after subscription_succeeded")
        fo, fp = [], []
        for rep in range(args.reps):
            fo.append(run_feeder(lambda port: [args.bench, "ingest", "--port", str(port), "--dialect", "pusher",
                                               "--count", str(args.count)], args.count, 600))
            fp.append(run_feeder(lambda port: [sys.executable, os.path.abspath(__file__), "pysher-ingest", "--port",
                                               str(port), "--count", str(args.peer_count)], args.peer_count, 900))
            print(f"  run {rep + 1}: BirdRealtime {fo[-1]:,.0f} events/s   pysher {fp[-1]:,.0f} events/s", flush=True)
        mfo, mfp = statistics.median(fo), statistics.median(fp)
        print(f"median (feeder): BirdRealtime {mfo:,.0f} events/s, pysher {mfp:,.0f} events/s, ratio {mfo / mfp:.1f}×")
        figures.append(figure("ingest_events_per_s_feeder", mfo, "events/s", "pysher", mfp))

        n = int(args.lat_rate * args.lat_seconds)
        print(f"latency: {n:,} events at {args.lat_rate:,.0f}/s, publish time = t + i/rate "
              f"(t in the payload; includes ≤ 5 ms burst-timer batching in the sandbox)")
        l50, l99, p50, p99 = [], [], [], []
        for rep in range(args.reps):
            r = run_worker(ours_cmd(args, sandbox, n, args.lat_rate), sandbox, n, args.lat_rate, 120)
            p = run_worker(peer_cmd(sandbox, n, args.lat_rate), sandbox, n, args.lat_rate, 300)
            l50.append(r["lat_p50_ms"]); l99.append(r["lat_p99_ms"])
            p50.append(p["lat_p50_ms"]); p99.append(p["lat_p99_ms"])
            print(f"  run {rep + 1}: BirdRealtime p50 {l50[-1]:.2f} ms p99 {l99[-1]:.2f} ms   "
                  f"pysher p50 {p50[-1]:.2f} ms p99 {p99[-1]:.2f} ms", flush=True)
        m = [statistics.median(x) for x in (l50, l99, p50, p99)]
        print(f"median: BirdRealtime p50 {m[0]:.2f} ms p99 {m[1]:.2f} ms; pysher p50 {m[2]:.2f} ms p99 {m[3]:.2f} ms")
        figures.append(figure("latency_p50_at_10k", m[0], "ms", "pysher", m[2], False))
        figures.append(figure("latency_p99_at_10k", m[1], "ms", "pysher", m[3], False))
    finally:
        sandbox.stop()
    print(json.dumps({"bench": "client-ingest", "figures": figures}))


def cmd_memory(args):
    sandbox = SandboxProcess(args.sandbox)
    figures = []
    try:
        print(f"memory: {args.channels:,} public channels subscribed, client VmRSS after all "
              f"subscription_succeeded; bird-sandbox (release) separate process; {args.reps} runs; both clients "
              f"subscribe 1,800 at once then 400 a second (under the sandbox's flood budget: no 1008 closes)")
        ours, ours_base, peer = [], [], []
        for rep in range(args.reps):
            out = subprocess.run([args.bench, "memory", "--port", str(sandbox.port), "--dialect", "pusher",
                                  "--channels", str(args.channels), "--paced", "yes"],
                                 capture_output=True, text=True, timeout=300)
            if out.returncode != 0:
                raise SystemExit(f"bird-bench memory failed: {out.stderr.strip()}")
            r = json.loads(out.stdout.strip().splitlines()[-1])
            ours.append(r["rss_kb_after"] / 1024); ours_base.append(r["rss_kb_before"] / 1024)
            line = f"  run {rep + 1}: BirdRealtime {ours[-1]:.1f} MB (process start {ours_base[-1]:.1f} MB, " \
                   f"subscribed in {r['seconds'] * 1000:.0f} ms, {r.get('connects', '?')} connection(s))"
            if not args.no_peer:
                out = subprocess.run([sys.executable, os.path.abspath(__file__), "pysher-memory", "--port",
                                      str(sandbox.port), "--channels", str(args.channels)],
                                     capture_output=True, text=True, timeout=600)
                if out.returncode != 0:
                    raise SystemExit(f"pysher memory failed: {out.stderr.strip()[-500:]}")
                p = json.loads(out.stdout.strip().splitlines()[-1])
                peer.append(p["rss_kb_after"] / 1024)
                line += (f"   pysher {peer[-1]:.1f} MB (start {p['rss_kb_before'] / 1024:.1f} MB, "
                         f"{p.get('connects', '?')} connection(s))")
            print(line, flush=True)
        mo = statistics.median(ours)
        mp = statistics.median(peer) if peer else None
        print(f"median: BirdRealtime {mo:.1f} MB" + (f", pysher {mp:.1f} MB" if mp else "") + "  (target ≤ 40 MB, issue 19)")
        figures.append(figure("client_rss_10k_channels", mo, "MB", "pysher" if mp else None, mp, False))
        figures.append(figure("client_rss_growth_10k_channels", mo - statistics.median(ours_base), "MB"))
    finally:
        sandbox.stop()
    print(json.dumps({"bench": "memory", "figures": figures}))


def pysher_client(port):
    import logging
    import pysher
    logging.getLogger("pysher").setLevel(logging.WARNING)
    return pysher.Pusher("sandbox-key", custom_host="127.0.0.1", port=port, secure=False)


def cmd_pysher_ingest(args):
    before = rss_kb()
    client = pysher_client(args.port)
    ready, done = threading.Event(), threading.Event()
    state = {"n": 0, "t_last": 0.0}
    lats = []
    count, rate = args.count, args.rate

    def on_event(data):
        i = state["n"]
        state["n"] = i + 1
        if rate > 0:
            t = time.time()
            lats.append(t - (json.loads(data)["t"] + i / rate))
        if state["n"] == count:
            state["t_last"] = time.time()
            done.set()

    def on_connect(_):
        channel = client.subscribe("bench")
        channel.bind("pusher_internal:subscription_succeeded", lambda _d: ready.set())
        channel.bind("tick", on_event)

    client.connection.bind("pusher:connection_established", on_connect)
    client.connect()
    if not ready.wait(20):
        raise SystemExit("pysher: not subscribed after 20 s")
    print("READY", flush=True)
    if not done.wait(args.timeout):
        raise SystemExit(f"pysher: only {state['n']} of {count} events")
    out = {"count": state["n"], "t_last": state["t_last"], "rss_kb": rss_kb(), "rss_kb_before": before}
    if rate > 0:
        lats.sort()
        out["lat_p50_ms"] = lats[round(0.5 * (len(lats) - 1))] * 1000
        out["lat_p99_ms"] = lats[round(0.99 * (len(lats) - 1))] * 1000
    print(json.dumps(out), flush=True)
    os._exit(0)


def cmd_plain_ingest(args):
    """A plain TCP reader: handshake and subscribe by hand, then count tick frames by their bytes
    (every tick frame is identical) — what the sandbox can send, with no client in the way."""
    import base64
    import socket
    import struct
    sock = socket.create_connection(("127.0.0.1", args.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /app/sandbox-key?protocol=7&client=plain&version=1 HTTP/1.1\r\nHost: 127.0.0.1:{args.port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += sock.recv(65536)
    buf = buf.split(b"\r\n\r\n", 1)[1]

    def frame():
        nonlocal buf
        while True:
            if len(buf) >= 2:
                n = buf[1] & 0x7F
                h = 2
                if n == 126 and len(buf) >= 4:
                    n, h = struct.unpack("!H", buf[2:4])[0], 4
                elif n == 127 and len(buf) >= 10:
                    n, h = struct.unpack("!Q", buf[2:10])[0], 10
                if n < 126 or h > 2:
                    if len(buf) >= h + n:
                        out, buf = buf[:h + n], buf[h + n:]
                        return out, out[h:]
            chunk = sock.recv(1 << 20)
            if not chunk:
                raise SystemExit("plain: connection closed")
            buf += chunk

    def send_text(text):
        data = text.encode()
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        n = len(data)
        head = struct.pack("!BB", 0x81, 0x80 | n) if n < 126 else struct.pack("!BBH", 0x81, 0x80 | 126, n)
        sock.sendall(head + mask + masked)

    while b"connection_established" not in frame()[1]:
        pass
    send_text(json.dumps({"event": "pusher:subscribe", "data": {"channel": "bench"}}))
    while b"subscription_succeeded" not in frame()[1]:
        pass
    print("READY", flush=True)
    while True:
        whole, body = frame()
        if b'"tick"' in body:
            break
    need = args.count * len(whole) - len(whole)
    got = len(buf)
    while got < need:
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise SystemExit("plain: connection closed")
        got += len(chunk)
    print(json.dumps({"count": args.count, "t_last": time.time()}), flush=True)
    os._exit(0)


def cmd_pysher_memory(args):
    before = rss_kb()
    client = pysher_client(args.port)
    done = threading.Event()
    state = {"n": 0}
    lock = threading.Lock()
    t0 = time.time()

    def on_ok(_data):
        with lock:
            state["n"] += 1
            if state["n"] == args.channels:
                done.set()

    state["connects"] = 0

    def on_connect(_):
        # Paced like `bird-bench memory --paced yes`: under bird-sandbox's flood budget (2,000
        # messages at once, 500 a second), so every subscription is made once on one connection.
        # On pysher's thread, as before: each handler is bound before its answer can be read.
        state["connects"] += 1
        nxt = 0
        while nxt < args.channels:
            wave = 1800 if nxt == 0 else 400
            if nxt:
                time.sleep(1)
            for i in range(nxt, min(args.channels, nxt + wave)):
                client.subscribe(f"mem-{i}").bind("pusher_internal:subscription_succeeded", on_ok)
            nxt += wave

    client.connection.bind("pusher:connection_established", on_connect)
    client.connect()
    if not done.wait(300):
        raise SystemExit(f"pysher: only {state['n']} of {args.channels} subscriptions")
    time.sleep(0.3)
    print(json.dumps({"rss_kb_before": before, "rss_kb_after": rss_kb(), "seconds": time.time() - t0,
                      "connects": state["connects"]}), flush=True)
    os._exit(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("ingest")
    p.add_argument("--sandbox", required=True)
    p.add_argument("--bench", required=True)
    p.add_argument("--count", type=int, default=200_000)
    p.add_argument("--peer-count", type=int, default=None)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--lat-rate", type=float, default=10_000)
    p.add_argument("--lat-seconds", type=float, default=3)
    p = sub.add_parser("memory")
    p.add_argument("--sandbox", required=True)
    p.add_argument("--bench", required=True)
    p.add_argument("--channels", type=int, default=10_000)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--no-peer", action="store_true")
    p = sub.add_parser("pysher-ingest")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--rate", type=float, default=0)
    p.add_argument("--timeout", type=float, default=170)
    p = sub.add_parser("plain-ingest")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--count", type=int, required=True)
    p = sub.add_parser("pysher-memory")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--channels", type=int, required=True)
    args = ap.parse_args()
    if args.cmd == "ingest":
        if args.peer_count is None:
            args.peer_count = min(args.count, 50_000)
        cmd_ingest(args)
    elif args.cmd == "memory":
        cmd_memory(args)
    elif args.cmd == "plain-ingest":
        cmd_plain_ingest(args)
    elif args.cmd == "pysher-ingest":
        cmd_pysher_ingest(args)
    else:
        cmd_pysher_memory(args)


if __name__ == "__main__":
    main()
