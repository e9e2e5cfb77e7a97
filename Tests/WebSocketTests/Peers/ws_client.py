"""A Python `websockets` client used as a conformance peer for our WebSocket server.

Usage: ws_client.py URL SCENARIO. Prints one JSON object with the results on stdout.
Scenarios: echo, server-close, server-badutf8, send-badutf8, drop, too-big.
"""
import asyncio
import json
import signal
import os
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def closed_info(exc):
    rcvd = exc.rcvd.code if exc.rcvd else None
    sent = exc.sent.code if exc.sent else None
    reason = exc.rcvd.reason if exc.rcvd else ""
    return {"rcvd": rcvd, "sent": sent, "reason": reason}


async def legacy_badutf8(url):
    # The sans-I/O asyncio client decodes text lazily; the legacy client fails the connection
    # with 1007 as RFC 6455 asks, so it is the one to check our server's invalid UTF-8 against.
    from websockets.legacy.client import connect as legacy_connect
    result = {"scenario": "server-badutf8"}
    async with legacy_connect(url, max_size=None, compression=None) as ws:
        await ws.send("send bad")
        try:
            await ws.recv()
            result["error"] = "accepted invalid UTF-8"
        except ConnectionClosed as exc:
            result.update(closed_info(exc))
    return result


async def main():
    url, scenario = sys.argv[1], sys.argv[2]
    result = {"scenario": scenario}
    if scenario == "server-badutf8":
        print(json.dumps(await legacy_badutf8(url)), flush=True)
        return
    async with connect(url, max_size=8 * 1024 * 1024, compression=None, open_timeout=10) as ws:
        if scenario == "echo":
            sizes = [0, 1, 125, 126, 127, 65535, 65536, 1 << 20, 4 << 20]
            ok = True
            for size in sizes:
                text = ("a\u00e9" * size)[:size] if size < 1000 else "z" * size
                await ws.send(text)
                if await ws.recv() != text:
                    ok = False
                data = os.urandom(size)
                await ws.send(data)
                if await ws.recv() != data:
                    ok = False
            await ws.send(["part1 ", "part2 ", "\u20ac"])
            result["fragmented"] = await ws.recv()
            await ws.send([b"\x00\x01", b"\x02"])
            result["fragmented_binary"] = list(await ws.recv())
            pong = await ws.ping(b"client-ping")
            await asyncio.wait_for(pong, 5)
            result["pong"] = True
            result["echo_ok"] = ok
            await ws.close(4000, "client done")
            result["close_rcvd"] = ws.protocol.close_code
            result["close_reason"] = ws.protocol.close_reason
        elif scenario == "server-close":
            await ws.send("please close")
            try:
                await ws.recv()
                result["error"] = "no close"
            except ConnectionClosed as exc:
                result.update(closed_info(exc))
        elif scenario == "send-badutf8":
            ws.protocol.send_text(b"bad \xc3\x28", fin=True)
            ws.send_data()
            try:
                await ws.recv()
                result["error"] = "server accepted invalid UTF-8"
            except ConnectionClosed as exc:
                result.update(closed_info(exc))
        elif scenario == "too-big":
            await ws.send("y" * (int(sys.argv[3])))
            try:
                await ws.recv()
                result["error"] = "server accepted a too-big message"
            except ConnectionClosed as exc:
                result.update(closed_info(exc))
        elif scenario == "drop":
            await ws.send("about to drop")
            await ws.recv()
            ws.transport.abort()
            result["dropped"] = True
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    # Our parent may have SIGTERM blocked; restore the default so the peer can be stopped.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    asyncio.run(main())
