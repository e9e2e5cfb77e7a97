"""Interop: end-to-end encrypted channels (private-encrypted-) on bird-sandbox, pusher dialect,
with peers we did not write: the official `pusher` SDK seals and signs, pysher subscribes (it
cannot decrypt, so it shows exactly what the edge relays) and PyNaCl opens.

The sandbox must run with the master key in BIRD_SANDBOX_ENCRYPTION_MASTER_KEY (or
--encryption-master-key); this script reads the same variable. Checks: the SDK's authenticate
and the sandbox's demo auth endpoint give the same shared_secret; an SDK trigger (and a batch)
reaches a pysher subscriber as the SDK's sealed envelope, untouched, and PyNaCl opens it to the
SDK's plaintext; one event for several channels with an encrypted one is refused by the SDK and
answered 400 by the sandbox with the same text; POST /sandbox/publish seals plaintext with the
channel key; client events on an encrypted channel get pusher:error 4301; the rotation control
call changes every channel key and never answers a key.
"""
import base64
import hashlib
import hmac
import json
import os
import sys
import time

import nacl.exceptions
import nacl.secret
import requests

from interop_common import Checker, SignedPysher, parse_args, server_sdk

VARIABLE = "BIRD_SANDBOX_ENCRYPTION_MASTER_KEY"
CHANNEL = "private-encrypted-orders"
MULTI_CHANNEL_ERROR = "You cannot trigger to multiple channels when using encrypted channels"

info = parse_args(__doc__)
master = os.environ.get(VARIABLE, "")
if not master:
    sys.exit("pusher_encryption.py needs the sandbox's master key in %s" % VARIABLE)
sdk = server_sdk(info, encryption_master_key_base64=master)
c = Checker("pusher_encryption")
clients = []
http_base = info["http"]


def text(value):
    return value.decode() if isinstance(value, bytes) else value


def demo_auth(channel, socket_id):
    """The sandbox's demo auth endpoint, asked as pusher-js would (form body)."""
    answer = requests.post(info["auth_endpoint"], data={"socket_id": socket_id, "channel_name": channel}, timeout=5)
    return answer.status_code, answer.json()


def open_envelope(data, secret):
    """The plaintext of an event's data (the {"nonce","ciphertext"} envelope) under `secret`."""
    envelope = json.loads(data)
    box = nacl.secret.SecretBox(base64.b64decode(secret))
    return box.decrypt(base64.b64decode(envelope["ciphertext"]), base64.b64decode(envelope["nonce"])).decode()


def signed_post(path, body):
    """A POST to the HTTP API signed by hand (A.5), for what the SDK refuses to send."""
    raw = json.dumps(body)
    params = {"auth_key": info["app_key"], "auth_timestamp": str(int(time.time())), "auth_version": "1.0",
              "body_md5": hashlib.md5(raw.encode()).hexdigest()}
    string = "POST\n%s\n%s" % (path, "&".join("%s=%s" % (k, params[k]) for k in sorted(params)))
    params["auth_signature"] = hmac.new(info["secret"].encode(), string.encode(), hashlib.sha256).hexdigest()
    return requests.post(http_base + path, params=params, data=raw, headers={"Content-Type": "application/json"},
                         timeout=5)


def control(path, body=None):
    answer = requests.post(info["control"] + path, json=body, timeout=5) if body is not None else requests.post(
        info["control"] + path, timeout=5)
    return answer.status_code, answer.text


try:
    alice = SignedPysher(info, sdk, name="alice")
    clients.append(alice)
    c.check("pysher connects", alice.start())
    socket_id = alice.connection.socket_id

    # The SDK's authenticate and the sandbox's demo endpoint agree on the channel key.
    sdk_auth = sdk.authenticate(channel=CHANNEL, socket_id=socket_id)
    sdk_secret = text(sdk_auth.get("shared_secret"))
    status, sandbox_auth = demo_auth(CHANNEL, socket_id)
    c.check("the demo auth endpoint answers an encrypted channel (200)", status == 200, sandbox_auth)
    c.check("its shared_secret equals the SDK's authenticate (base64 of 32 bytes)",
            sdk_secret is not None and sandbox_auth.get("shared_secret") == sdk_secret
            and len(base64.b64decode(sdk_secret)) == 32)
    c.check("its auth equals the SDK's signature", sandbox_auth.get("auth") == sdk_auth.get("auth"))
    c.check("a plain private channel gets no shared_secret",
            "shared_secret" not in demo_auth("private-plain", socket_id)[1])

    alice.subscribe(CHANNEL)
    c.check("pysher subscribes to the encrypted channel (signed by the SDK)",
            alice.wait_message("pusher_internal:subscription_succeeded", CHANNEL) is not None)

    # The SDK seals; the edge relays the envelope untouched; PyNaCl opens it.
    order = {"item": "café ☕", "qty": 2}
    c.check("SDK trigger to the encrypted channel is accepted", sdk.trigger(CHANNEL, "order-placed", order) == {})
    got = alice.wait_message("order-placed", CHANNEL)
    data = got.get("data") if got else None
    c.check("pysher receives the event", isinstance(data, str), got)
    if isinstance(data, str):
        envelope = json.loads(data)
        c.check("what travelled is an envelope, not the plaintext",
                set(envelope) == {"nonce", "ciphertext"} and "café" not in data, data)
        c.check("PyNaCl opens it with the shared secret to the SDK's plaintext",
                json.loads(open_envelope(data, sdk_secret)) == order)

    c.check("SDK trigger_batch with an encrypted event is accepted", sdk.trigger_batch([
        {"channel": CHANNEL, "name": "order-batched", "data": {"item": "tea", "qty": 1}},
        {"channel": "news", "name": "headline", "data": "clear"},
    ]) == {})
    got = alice.wait_message("order-batched", CHANNEL)
    c.check("the batched event opens too",
            got is not None and json.loads(open_envelope(got["data"], sdk_secret)) == {"item": "tea", "qty": 1}, got)

    # One event for several channels with an encrypted one: the SDK refuses; so does the sandbox.
    try:
        sdk.trigger([CHANNEL, "news"], "x", {})
        c.check("the SDK refuses one event for an encrypted and another channel", False, "no error")
    except ValueError as e:
        c.check("the SDK refuses one event for an encrypted and another channel", str(e) == MULTI_CHANNEL_ERROR, e)
    answer = signed_post("/apps/%s/events" % info["app_id"],
                         {"name": "x", "data": "{}", "channels": [CHANNEL, "news"]})
    c.check("the sandbox's HTTP API answers such a request 400 with the same text",
            answer.status_code == 400 and answer.json().get("error") == MULTI_CHANNEL_ERROR,
            "%s %s" % (answer.status_code, answer.text))

    # The control API seals plaintext with the channel key.
    status, body = control("/publish", {"channel": CHANNEL, "event": "control-sealed", "data": {"n": 1}})
    c.check("POST /sandbox/publish to the encrypted channel (200)", status == 200, body)
    got = alice.wait_message("control-sealed", CHANNEL)
    c.check("…arrives sealed under the channel key",
            got is not None and json.loads(open_envelope(got["data"], sdk_secret)) == {"n": 1}, got)

    # Client events are refused on encrypted channels.
    alice.channels[CHANNEL].trigger("client-typing", {"on": True})
    error = alice.wait_message("pusher:error", where=lambda m: "encrypted" in json.dumps(m))
    payload = error.get("data") if error else None
    if isinstance(payload, str):
        payload = json.loads(payload)
    c.check("a client event on an encrypted channel gets pusher:error 4301",
            isinstance(payload, dict) and payload.get("code") == 4301, error)

    # Rotation: every channel key changes; no answer carries a key.
    status, body = control("/encryption/rotate")
    c.check("POST /sandbox/encryption/rotate (200) answers no key",
            status == 200 and master not in body and sdk_secret not in body and "shared_secret" not in body, body)
    _, after = demo_auth(CHANNEL, socket_id)
    c.check("after the rotation the channel key differs", after.get("shared_secret") not in (None, sdk_secret))
    sdk.trigger(CHANNEL, "old-master", {"n": 2})
    got = alice.wait_message("old-master", CHANNEL)
    try:
        open_envelope(got["data"], after.get("shared_secret"))
        opened = True
    except (nacl.exceptions.CryptoError, TypeError, KeyError, ValueError):
        opened = False
    c.check("an event sealed with the old master key does not open under the new channel key",
            got is not None and not opened)
    status, body = control("/encryption/rotate", {"master_key": "bm90IGEga2V5"})
    c.check("a bad master_key is 400 and not echoed", status == 400 and "bm90IGEga2V5" not in body, body)
    c.check("the pysher client stayed connected", alice.connection.state == "connected" and not alice.closes)
except Exception as e:  # noqa: BLE001
    c.check("no unexpected error", False, repr(e))
finally:
    for client in clients:
        client.stop()

c.finish()
