"""WebSocket receive benchmark (helper of Scripts/bench.d/websocket).

A sender process listens on 127.0.0.1, answers the WebSocket opening handshake by hand, then writes
pre-encoded unmasked text frames as fast as the socket accepts them. The same stream is read by
  ours    websocket-agent bench-read (our WebSocketClient, release build)
  python  the Python `websockets` client (asyncio implementation)
  plain   a plain TCP reader that sends the handshake request and discards the bytes (the limit)
Each reader runs in its own process; each run gets a fresh sender. Medians of --reps runs.
Rates count payload bytes (MB = 10^6 bytes) over the time from connect to the last message.

  python websocket_bench.py run --agent PATH [--reps 5] [--small-count N] [--large-count N]
  python websocket_bench.py serve --size BYTES --count N        (prints the port, serves once)
  python websocket_bench.py read-python --url URL --count N
  python websocket_bench.py read-plain --port P --count N --frame-bytes B
"""
import argparse
import asyncio
import base64
import hashlib
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import time

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
RUN_TIMEOUT = 300  # seconds, per reader run


def encode_frame(payload, opcode=0x1):
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x80 | opcode, n)
    elif n <= 0xFFFF:
        header = struct.pack("!BBH", 0x80 | opcode, 126, n)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 127, n)
    return header + payload


def text_payload(size):
    pattern = b"The quick brown fox jumps over the lazy dog 0123456789 bird realtime. "
    return (pattern * (size // len(pattern) + 1))[:size]


def read_http_head(sock):
    """Reads up to the blank line; returns (head, bytes read past it)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("connection closed during the handshake")
        data += chunk
        if len(data) > 65536:
            raise ConnectionError("handshake too long")
    head, _, rest = data.partition(b"\r\n\r\n")
    return head.decode("latin-1"), rest


# --- sender -------------------------------------------------------------------------------------

def serve(size, count):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(60)
    print(listener.getsockname()[1], flush=True)
    conn, _ = listener.accept()
    listener.close()
    conn.settimeout(RUN_TIMEOUT)
    head, _ = read_http_head(conn)
    key = ""
    for line in head.split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "sec-websocket-key":
            key = value.strip()
    accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
    conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
    frame = encode_frame(text_payload(size))
    per_chunk = max(1, (1 << 20) // len(frame))
    chunk = memoryview(frame * per_chunk)
    full, rest = divmod(count, per_chunk)
    for _ in range(full):
        conn.sendall(chunk)
    if rest:
        conn.sendall(frame * rest)
    conn.sendall(encode_frame(struct.pack("!H", 1000), opcode=0x8))
    # Wait for the reader to close (its close frame or EOF), discarding what it sends.
    conn.settimeout(30)
    try:
        while conn.recv(65536):
            pass
    except OSError:
        pass
    conn.close()


def start_sender(size, count):
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "serve", "--size", str(size),
                             "--count", str(count)], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if not line.strip():
        proc.kill()
        raise RuntimeError("sender did not start")
    return proc, int(line)


# --- readers ------------------------------------------------------------------------------------

def read_python(url, count):
    from websockets.asyncio.client import connect

    async def main():
        start = time.perf_counter()
        received = 0
        nbytes = 0
        async with connect(url, max_size=None, compression=None) as ws:
            while received < count:
                message = await ws.recv()
                received += 1
                nbytes += len(message)  # text: characters == bytes for our ASCII payload
            elapsed = time.perf_counter() - start
        return received, nbytes, elapsed

    received, nbytes, elapsed = asyncio.run(main())
    print(json.dumps({"messages": received, "bytes": nbytes, "elapsed_s": elapsed}))


def read_plain(port, count, frame_bytes):
    start = time.perf_counter()
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key)).encode())
    head, rest = read_http_head(sock)
    if not head.startswith("HTTP/1.1 101"):
        raise RuntimeError("handshake refused: " + head.splitlines()[0])
    want = count * frame_bytes
    got = len(rest)
    buf = bytearray(1 << 20)
    while got < want:
        n = sock.recv_into(buf)
        if n == 0:
            break
        got += n
    elapsed = time.perf_counter() - start
    sock.close()
    if got < want:
        raise RuntimeError("stream ended after %d of %d bytes" % (got, want))
    print(json.dumps({"messages": count, "bytes": want, "elapsed_s": elapsed}))


# --- driver -------------------------------------------------------------------------------------

def one_run(reader, agent, size, count):
    sender, port = start_sender(size, count)
    url = "ws://127.0.0.1:%d/" % port
    frame_bytes = len(encode_frame(text_payload(size)))
    me = [sys.executable, os.path.abspath(__file__)]
    if reader == "ours":
        cmd = [agent, "bench-read", "--url", url, "--count", str(count), "--timeout", str(RUN_TIMEOUT)]
    elif reader == "python":
        cmd = me + ["read-python", "--url", url, "--count", str(count)]
    else:
        cmd = me + ["read-plain", "--port", str(port), "--count", str(count), "--frame-bytes", str(frame_bytes)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT + 30)
    finally:
        try:
            sender.wait(timeout=40)
        except subprocess.TimeoutExpired:
            sender.kill()
            sender.wait()
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        raise RuntimeError("%s reader failed (exit %d): %s" % (reader, out.returncode, out.stderr.strip()[-500:]))
    result = json.loads(lines[-1])
    if result["messages"] != count:
        raise RuntimeError("%s reader counted %s of %d messages" % (reader, result["messages"], count))
    elapsed = result["elapsed_s"]
    return {"msgs": count / elapsed, "mbps": count * size / elapsed / 1e6, "elapsed": elapsed}


def run(args):
    import websockets
    cases = [("64B", 64, args.small_count), ("64KiB", 65536, args.large_count)]
    readers = ["ours", "python", "plain"]
    labels = {"ours": "ours (websocket-agent)", "python": "python websockets %s" % websockets.__version__,
              "plain": "plain TCP reader"}
    medians = {}
    for case, size, count in cases:
        # Readers take turns within each repetition, so background load hits all of them alike.
        runs = {reader: [] for reader in readers}
        for _ in range(args.reps):
            for reader in readers:
                runs[reader].append(one_run(reader, args.agent, size, count))
        for reader in readers:
            m = {k: statistics.median(r[k] for r in runs[reader]) for k in ("msgs", "mbps", "elapsed")}
            medians[(case, reader)] = m
            print("%-6s %-28s %12.0f msg/s %9.1f MB/s   (median of %d, %d messages, %.3f s each)" % (
                case, labels[reader], m["msgs"], m["mbps"], args.reps, count, m["elapsed"]), flush=True)

    def fig(name, value, unit, peer=None, peer_value=None):
        return {"name": name, "value": round(value, 1), "unit": unit, "peer": peer,
                "peer_value": None if peer_value is None else round(peer_value, 1),
                "ratio": None if peer_value is None else round(value / peer_value, 3)}

    o64, p64, t64 = medians[("64B", "ours")], medians[("64B", "python")], medians[("64B", "plain")]
    oL, pL, tL = medians[("64KiB", "ours")], medians[("64KiB", "python")], medians[("64KiB", "plain")]
    figures = [
        fig("recv_text_64B_messages_per_s", o64["msgs"], "msg/s", labels["python"], p64["msgs"]),
        fig("recv_text_64B_MB_per_s", o64["mbps"], "MB/s", labels["plain"], t64["mbps"]),
        fig("recv_text_64KiB_MB_per_s", oL["mbps"], "MB/s", labels["plain"], tL["mbps"]),
        fig("recv_text_64KiB_messages_per_s", oL["msgs"], "msg/s", labels["python"], pL["msgs"]),
        fig("python_recv_text_64B_messages_per_s", p64["msgs"], "msg/s"),
        fig("plain_recv_64KiB_MB_per_s", tL["mbps"], "MB/s"),
    ]
    r64 = o64["msgs"] / p64["msgs"]
    rL = oL["mbps"] / tL["mbps"]
    print("64 B:   ours / python websockets = %.1fx messages/s (target >= 10x): %s" % (r64, "met" if r64 >= 10 else "NOT met"))
    print("64 KiB: ours / plain TCP reader  = %.0f%% of MB/s (target >= 50%%): %s" % (rL * 100, "met" if rL >= 0.5 else "NOT met"))
    print(json.dumps({"bench": "websocket", "figures": figures}))


def main():
    parser = argparse.ArgumentParser(description="WebSocket receive benchmark")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--agent", required=True)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--small-count", type=int, default=500000)
    p.add_argument("--large-count", type=int, default=30000)
    p = sub.add_parser("serve")
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--count", type=int, required=True)
    p = sub.add_parser("read-python")
    p.add_argument("--url", required=True)
    p.add_argument("--count", type=int, required=True)
    p = sub.add_parser("read-plain")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--frame-bytes", type=int, required=True)
    args = parser.parse_args()
    if args.command == "run":
        if args.reps < 1:
            parser.error("--reps must be at least 1")
        run(args)
    elif args.command == "serve":
        serve(args.size, args.count)
    elif args.command == "read-python":
        read_python(args.url, args.count)
    else:
        read_plain(args.port, args.count, args.frame_bytes)


if __name__ == "__main__":
    main()
