"""Interop: the official pusher HTTP SDK against bird-sandbox's HTTP API (pusher dialect).

Signature, timestamp and body_md5 checks (a wrong secret or app is refused), the size limit,
and terminate_user_connections closing a signed-in pysher client with 4009.
"""
import pusher

from interop_common import Checker, SignedPysher, decoded, parse_args, server_sdk, wait_until

info = parse_args(__doc__)
sdk = server_sdk(info)
c = Checker("pusher_http_api")
clients = []


def refused(label, call, exception, status_text=None):
    try:
        call()
        c.check(label, False, "no error raised")
    except exception as e:
        c.check(label, status_text is None or status_text in str(e), str(e))
    except Exception as e:  # noqa: BLE001
        c.check(label, False, repr(e))


try:
    c.check("trigger with the right secret is accepted", sdk.trigger("news", "e", {"a": 1}) == {})
    refused("channels_info with a wrong secret → 401", lambda: server_sdk(info, secret="wrong").channels_info(),
            pusher.errors.PusherBadAuth)
    refused("trigger to an unknown app id → 404", lambda: server_sdk(info, app_id="99999").trigger("news", "e", {}),
            pusher.errors.PusherBadStatus, "404")
    refused("trigger with 12 KB of data → 413", lambda: sdk.trigger("news", "big", "x" * 12 * 1024),
            pusher.errors.PusherBadStatus, "413")
    refused("users_info of a public channel → 400", lambda: sdk.users_info("news"), pusher.errors.PusherBadRequest)

    carol = SignedPysher(info, sdk, name="carol")
    clients.append(carol)
    c.check("pysher client connects", carol.start())
    carol.connection.bind("pusher:signin_success", lambda data: None)
    carol.signin({"id": "carol", "user_info": {"name": "Carol"}}, info["secret"])
    ok = carol.wait_message("pusher:signin_success")
    c.check("pusher:signin signed by hand (HMAC of socket_id::user::user_data) succeeds",
            ok is not None and decoded(decoded(ok["data"]).get("user_data")).get("id") == "carol", carol.messages())
    other = SignedPysher(info, sdk, name="dave")
    clients.append(other)
    c.check("a second, unsigned client connects", other.start())

    c.check("terminate_user_connections(carol) is accepted", sdk.terminate_user_connections("carol") == {})
    wait_until(lambda: carol.closes, 10)
    closes = carol.closes
    c.check("carol's connection is closed with 4009", bool(closes) and closes[0][0] == 4009, closes)
    reason = closes[0][1] if closes else None
    if isinstance(reason, bytes):
        reason = reason.decode("utf-8", "replace")
    c.check("the close reason says terminated by the app", reason == "terminated by the app", reason)
    c.check("the other client stays connected", not other.closes and other.connection.state == "connected")
except Exception as e:  # noqa: BLE001
    c.check("no unexpected error", False, repr(e))
finally:
    for client in clients:
        client.stop()

c.finish()
