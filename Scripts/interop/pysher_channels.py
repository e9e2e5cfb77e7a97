"""Interop: pysher clients against bird-sandbox (pusher dialect), signed by the official pusher SDK.

Public, private and presence subscriptions; events triggered with pusher.Pusher(...).trigger
arrive; a wrong secret gets 401; a second client's presence join and leave reach the first;
client events pass between two clients (never echoed; presence adds user_id); channel_info,
users_info and channels_info answer correctly.
"""
import time

import pusher

from interop_common import Checker, SignedPysher, decoded, parse_args, server_sdk, wait_until

info = parse_args(__doc__)
sdk = server_sdk(info)
bad_sdk = server_sdk(info, secret="not-the-secret")
c = Checker("pysher_channels")
clients = []

try:
    alice = SignedPysher(info, sdk, user_data={"user_id": "alice", "user_info": {"name": "Alice"}}, name="alice")
    clients.append(alice)
    c.check("pysher connects (protocol 6) and gets a socket_id", alice.start(), alice.connection.state)

    # --- subscriptions ---
    alice.subscribe("news")
    c.check("public subscription succeeds",
            alice.wait_message("pusher_internal:subscription_succeeded", "news") is not None)
    alice.subscribe("private-room")
    c.check("private subscription signed by pusher.authenticate succeeds",
            alice.wait_message("pusher_internal:subscription_succeeded", "private-room") is not None,
            alice.messages(channel="private-room"))
    alice.subscribe("presence-lobby")
    ok = alice.wait_message("pusher_internal:subscription_succeeded", "presence-lobby")
    c.check("presence subscription (channel_data with spaces, signed as sent) succeeds", ok is not None,
            alice.messages(channel="presence-lobby"))
    presence = decoded(ok["data"])["presence"] if ok else {}
    c.check("presence roster has alice with her info",
            presence.get("ids") == ["alice"] and presence.get("hash", {}).get("alice") == {"name": "Alice"}
            and presence.get("count") == 1, presence)

    bad_auth = bad_sdk.authenticate(channel="private-secret", socket_id=alice.connection.socket_id)["auth"]
    alice.subscribe("private-secret", auth=bad_auth)
    error = alice.wait_message("pusher:subscription_error", "private-secret")
    c.check("a subscription signed with the wrong secret gets subscription_error 401",
            error is not None and decoded(error["data"]).get("status") == 401, error)

    # --- events from the server SDK ---
    for channel in ["news", "private-room", "presence-lobby"]:
        sdk.trigger(channel, "greeting", {"hello": channel})
        got = alice.wait_message("greeting", channel)
        c.check("trigger on %s arrives with its data" % channel,
                got is not None and decoded(got.get("data")) == {"hello": channel}, got)
    sdk.trigger_batch([{"channel": "news", "name": "batched", "data": {"n": 1}},
                       {"channel": "private-room", "name": "batched", "data": {"n": 2}}])
    c.check("trigger_batch events arrive",
            alice.wait_message("batched", "news") is not None and alice.wait_message("batched", "private-room") is not None)
    try:
        bad_sdk.trigger("news", "nope", {})
        c.check("trigger with a wrong secret is refused with 401", False, "no error raised")
    except pusher.errors.PusherBadAuth as e:
        c.check("trigger with a wrong secret is refused with 401", True)
    except Exception as e:  # noqa: BLE001
        c.check("trigger with a wrong secret is refused with 401", False, repr(e))
    time.sleep(0.2)
    c.check("the refused event was not delivered", not alice.messages("nope"))

    # --- a second client: presence join/leave, client events ---
    bob = SignedPysher(info, sdk, user_data={"user_id": "bob", "user_info": {"name": "Bob"}}, name="bob")
    clients.append(bob)
    c.check("second pysher client connects", bob.start())
    bob.subscribe("presence-lobby")
    bob.subscribe("private-room")
    roster = bob.wait_message("pusher_internal:subscription_succeeded", "presence-lobby")
    c.check("bob's roster lists alice and bob",
            roster is not None and sorted(decoded(roster["data"])["presence"]["ids"]) == ["alice", "bob"], roster)
    added = alice.wait_message("pusher_internal:member_added", "presence-lobby")
    c.check("bob's join reaches alice as member_added",
            added is not None and decoded(added["data"]).get("user_id") == "bob"
            and decoded(added["data"]).get("user_info") == {"name": "Bob"}, added)
    c.check("bob is not told about his own join",
            not bob.messages("pusher_internal:member_added"))
    wait_until(lambda: bob.messages("pusher_internal:subscription_succeeded", "private-room"))

    info_now = sdk.channel_info("presence-lobby", ["user_count", "subscription_count"])
    c.check("channel_info(presence-lobby) = occupied, 2 users, 2 subscriptions",
            info_now == {"occupied": True, "user_count": 2, "subscription_count": 2}, info_now)
    c.check("channel_info(empty channel) = not occupied", sdk.channel_info("nobody-here") == {"occupied": False})
    users = sdk.users_info("presence-lobby")
    c.check("users_info lists alice and bob", sorted(u["id"] for u in users.get("users", [])) == ["alice", "bob"], users)
    channels = sdk.channels_info()
    c.check("channels_info lists the occupied channels",
            set(channels.get("channels", {}).keys()) == {"news", "private-room", "presence-lobby"}, channels)
    presence_channels = sdk.channels_info(prefix_filter="presence-", attributes=["user_count"])
    c.check("channels_info(presence-, user_count) counts users",
            presence_channels == {"channels": {"presence-lobby": {"user_count": 2}}}, presence_channels)

    sdk.trigger("private-room", "not-for-alice", {"x": 1}, socket_id=alice.connection.socket_id)
    c.check("trigger with socket_id skips that connection",
            bob.wait_message("not-for-alice") is not None and not alice.messages("not-for-alice"))

    alice.channels["private-room"].trigger("client-typing", {"on": True})
    got = bob.wait_message("client-typing", "private-room")
    c.check("client event on a private channel reaches the other client",
            got is not None and decoded(got["data"]) == {"on": True}, got)
    alice.channels["presence-lobby"].trigger("client-wave", {"to": "bob"})
    got = bob.wait_message("client-wave", "presence-lobby")
    c.check("client event on a presence channel carries the sender's user_id",
            got is not None and got.get("user_id") == "alice", got)
    time.sleep(0.3)
    c.check("client events are never echoed to the sender",
            not alice.messages("client-typing") and not alice.messages("client-wave"))
    alice.connection.send_event("client-public", {"x": 1}, channel_name="news")
    err = alice.wait_message("pusher:error", where=lambda m: decoded(m.get("data", {})).get("code") == 4301)
    c.check("client event on a public channel is rejected with error 4301", err is not None, alice.messages("pusher:error"))

    bob.stop()
    removed = alice.wait_message("pusher_internal:member_removed", "presence-lobby")
    c.check("bob's leave reaches alice as member_removed",
            removed is not None and decoded(removed["data"]).get("user_id") == "bob", removed)
    c.check("users_info after the leave lists alice only",
            wait_until(lambda: sdk.users_info("presence-lobby") == {"users": [{"id": "alice"}]}))
except Exception as e:  # noqa: BLE001 — any unexpected error is a failure, with its message
    c.check("no unexpected error", False, repr(e))
finally:
    for client in clients:
        client.stop()

c.finish()
