"""Shared helpers for the interop scripts: a running bird-sandbox (pusher dialect) checked with
third-party peers we did not write — pysher (WebSocket client) and the official `pusher` server SDK.

Every script takes the sandbox's start-up JSON line (`--sandbox '{"ws":…}'`) and the app secret,
prints one line per check, ends with `N passed, N failed`, and exits non-zero on any failure.
"""
import argparse
import hashlib
import hmac
import json
import logging
import sys
import threading
import time

import pusher
import pysher
from pysher.channel import Channel


def parse_args(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sandbox", required=True, help="the JSON line bird-sandbox printed on start")
    parser.add_argument("--secret", default="sandbox-secret", help="the app secret (default sandbox-secret)")
    args = parser.parse_args()
    info = json.loads(args.sandbox)
    if info.get("dialect") != "pusher":
        sys.exit("interop scripts need bird-sandbox --dialect pusher (got %r)" % info.get("dialect"))
    info["secret"] = args.secret
    return info


def server_sdk(info, secret=None, app_id=None, **options):
    """The official pusher HTTP SDK pointed at the sandbox (`options`: more of its settings, such
    as encryption_master_key_base64)."""
    return pusher.Pusher(app_id=app_id or info["app_id"], key=info["app_key"], secret=secret or info["secret"],
                         host="127.0.0.1", port=int(info["port"]), ssl=False, timeout=5, **options)


class Checker:
    """Counts checks; prints each one."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def check(self, label, condition, detail=""):
        if condition:
            self.passed += 1
            print("  ok    %s" % label, flush=True)
        else:
            self.failed += 1
            print("  FAIL  %s%s" % (label, (": " + str(detail)) if detail != "" else ""), flush=True)
        return condition

    def finish(self):
        print("%s: %d passed, %d failed" % (self.name, self.passed, self.failed), flush=True)
        sys.exit(1 if self.failed else 0)


def wait_until(condition, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


class SignedPysher(pysher.Pusher):
    """pysher whose private and presence subscriptions are signed by the official server SDK's
    `authenticate` (pysher's own auth hooks, `_generate_auth_token` / `_generate_presence_token`,
    overridden). pysher sends `channel_data = json.dumps(user_data)`, the same text the SDK signs."""

    def __init__(self, info, sdk, user_data=None, name="client"):
        self.sdk = sdk
        self.name = name
        self.raw = []          # every text message received, parsed
        self.closes = []       # (code, reason) of each close
        self.lock = threading.Lock()
        super().__init__(info["app_key"], custom_host="127.0.0.1", port=int(info["port"]), secure=False,
                         user_data=user_data, log_level=logging.WARNING, reconnect_interval=60)
        connection = self.connection
        original_message = connection._on_message
        original_close = connection._on_close

        def on_message(*args):
            try:
                parsed = json.loads(args[-1])
            except ValueError:
                parsed = {"unparsed": args[-1]}
            with self.lock:
                self.raw.append(parsed)
            original_message(*args)

        def on_close(*args):
            code = args[1] if len(args) > 1 else None
            reason = args[2] if len(args) > 2 else None
            with self.lock:
                self.closes.append((code, reason))
            original_close(*args)

        # pysher creates its WebSocketApp with `on_message=self._on_message` at connect time,
        # so instance attributes set here are the ones it uses.
        connection._on_message = on_message
        connection._on_close = on_close

    def _generate_auth_token(self, channel_name):
        return self.sdk.authenticate(channel=channel_name, socket_id=self.connection.socket_id)["auth"]

    def _generate_presence_token(self, channel_name):
        return self.sdk.authenticate(channel=channel_name, socket_id=self.connection.socket_id,
                                     custom_data=self.user_data)["auth"]

    # --- helpers for the checks ---

    def start(self, timeout=10.0):
        self.connect()
        return wait_until(lambda: self.connection.socket_id and self.connection.state == "connected", timeout)

    def messages(self, event=None, channel=None):
        with self.lock:
            items = list(self.raw)
        return [m for m in items
                if (event is None or m.get("event") == event) and (channel is None or m.get("channel") == channel)]

    def wait_message(self, event, channel=None, timeout=10.0, where=None):
        def found():
            return [m for m in self.messages(event, channel) if where is None or where(m)]
        wait_until(lambda: len(found()) > 0, timeout)
        items = found()
        return items[0] if items else None

    def subscribe_raw(self, channel_name, data):
        """Sends pusher:subscribe with exactly `data` (for signatures made elsewhere)."""
        payload = dict(data)
        payload["channel"] = channel_name
        self.connection.send_event("pusher:subscribe", payload)
        self.channels[channel_name] = Channel(channel_name, self.connection)
        return self.channels[channel_name]

    def signin(self, user_data, secret):
        """pusher:signin signed by hand (HMAC-SHA256 of `<socket_id>::user::<user_data>`)."""
        text = json.dumps(user_data)
        signature = hmac.new(secret.encode(), ("%s::user::%s" % (self.connection.socket_id, text)).encode(),
                             hashlib.sha256).hexdigest()
        self.connection.send_event("pusher:signin", {"auth": "%s:%s" % (self.key, signature), "user_data": text})

    def stop(self):
        try:
            self.disconnect(timeout=5)
        except Exception:  # noqa: BLE001 — best effort at the end of a run
            pass


def decoded(data):
    """A message's data: JSON strings are parsed (double encoding)."""
    if isinstance(data, str):
        try:
            return json.loads(data)
        except ValueError:
            return data
    return data
