"""Prints the fixed end-to-end encryption vectors of Tests/BirdWireTests/EncryptionTests.swift,
computed by the official `pusher` SDK (pusher/crypto.py, pusher/authentication_client.py) and PyNaCl.

    .venv/bin/python Scripts/interop/encryption_vectors.py

Everything is fixed except `trigger data`, whose nonce the SDK draws at random: any run's line is a
valid vector (it must open under the shared secret above it).
"""
import base64
import json

import nacl.secret
import pusher
from pusher.crypto import encrypt, generate_shared_secret

MASTER = b"bird-sdk-swift test master key!!"  # 32 bytes
CHANNEL = "private-encrypted-orders"
PLAINTEXT = json.dumps({"item": "café ☕", "qty": 2}, ensure_ascii=False)

assert len(MASTER) == 32
master_b64 = base64.b64encode(MASTER).decode()
client = pusher.Pusher(app_id="1", key="278d425bdf160c739803", secret="7ad3773142a6692b25b8",
                       encryption_master_key_base64=master_b64)

auth = client.authenticate(channel=CHANNEL, socket_id="1234.1234")
# pusher 3.3.2 returns shared_secret as bytes (json.dumps of the result fails until it is decoded).
print("master key (base64):", master_b64)
print("authenticate:", {k: (v.decode() if isinstance(v, bytes) else v) for k, v in auth.items()})
print("shared_secret type:", type(auth["shared_secret"]).__name__)
print("sha256(channel || master) hex:", generate_shared_secret(CHANNEL.encode(), MASTER).hex())

print("plaintext:", PLAINTEXT)
fixed = encrypt(CHANNEL, PLAINTEXT, MASTER, nonce=bytes(range(24)))
print("fixed nonce 00..17:", json.dumps(fixed))
empty = encrypt(CHANNEL, "", MASTER, nonce=bytes([7] * 24))
print("empty plaintext, nonce 07*24:", json.dumps(empty))

request = client._pusher_client.trigger.make_request(CHANNEL, "order-placed", json.loads(PLAINTEXT))
print("trigger data:", request.params["data"])

box = nacl.secret.SecretBox(generate_shared_secret(CHANNEL.encode(), MASTER))
not_utf8 = box.encrypt(b"\xff\xfe\xfd", bytes([9] * 24)).ciphertext  # PyNaCl directly: the SDK only seals text
print("not UTF-8 (ff fe fd), nonce 09*24:", json.dumps(
    {"nonce": base64.b64encode(bytes([9] * 24)).decode(), "ciphertext": base64.b64encode(not_utf8).decode()}))
for envelope in (fixed, json.loads(request.params["data"])):
    opened = box.decrypt(base64.b64decode(envelope["ciphertext"]), base64.b64decode(envelope["nonce"]))
    assert opened.decode() == PLAINTEXT
