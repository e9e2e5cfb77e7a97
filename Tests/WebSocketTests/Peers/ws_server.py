"""A Python `websockets` server used as a conformance peer for our WebSocket client.

Prints `PORT <n>` on stdout once listening. Echoes every message; text messages starting with
`cmd:` are commands (close, drop, bad UTF-8, fragments, ping, big, headers).
Usage: ws_server.py [--tls CERT KEY]
"""
import asyncio
import json
import signal
import ssl
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed


async def handler(ws):
    try:
        async for message in ws:
            if isinstance(message, str) and message.startswith("cmd:"):
                parts = message[4:].split(" ", 2)
                cmd = parts[0]
                if cmd == "close":
                    await ws.close(int(parts[1]), parts[2] if len(parts) > 2 else "")
                    return
                if cmd == "drop":
                    ws.transport.abort()
                    return
                if cmd == "badutf8":
                    ws.protocol.send_text(b"ok \xff\xfe bad", fin=True)
                    ws.send_data()
                    continue
                if cmd == "fragments":
                    await ws.send(["frag-one ", "frag-two ", "frag-three \u00e9\u20ac"])
                    await ws.send([b"\x01\x02", b"", b"\x03"])
                    continue
                if cmd == "ping":
                    waiter = await ws.ping(b"server-ping")
                    await asyncio.wait_for(waiter, 5)
                    await ws.send("pong-received")
                    continue
                if cmd == "big":
                    await ws.send("x" * int(parts[1]))
                    continue
                if cmd == "headers":
                    await ws.send(json.dumps({k: v for k, v in ws.request.headers.raw_items()}))
                    continue
            await ws.send(message)
    except ConnectionClosed:
        pass


async def main():
    context = None
    if len(sys.argv) >= 4 and sys.argv[1] == "--tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
    async with serve(handler, "127.0.0.1", 0, ssl=context, max_size=8 * 1024 * 1024,
                     compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"PORT {port}", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    # Our parent may have SIGTERM blocked; restore the default so the peer can be stopped.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
