#!/usr/bin/env python3
"""bird-inspect --jsonl against its embedded sandbox: a scripted stdin session whose JSON lines
are checked (PROTOCOL.md part E), plus the exit codes and the absence of secrets."""
import json
import re
import subprocess
import sys
import threading
import time

BIN = sys.argv[1]
passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   - {name}")
    else:
        failed += 1
        print(f"FAIL - {name} {detail}")


class Session:
    def __init__(self, *args, env=None):
        self.proc = subprocess.Popen([BIN, "--jsonl", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        self.lines = []
        self.raw = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.raw.append(line)
                try:
                    self.lines.append(json.loads(line))
                except ValueError:
                    self.lines.append({"type": "<not json>", "text": line})

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def wait_for(self, predicate, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                for line in self.lines:
                    if predicate(line):
                        return line
            time.sleep(0.05)
        return None

    def count(self, predicate):
        with self.lock:
            return sum(1 for line in self.lines if predicate(line))


s = Session("--sandbox", "--demo-rate", "20")
connected = s.wait_for(lambda l: l.get("type") == "state" and l.get("current") == "connected")
check("connects to the embedded sandbox", connected is not None)
check("connected line carries the connection id",
      connected is not None and re.fullmatch(r"\d+\.\d+", connected.get("connection_id", "")) is not None)
for ch in ["demo-orders", "private-demo", "presence-demo"]:
    check(f"subscribed {ch}", s.wait_for(lambda l, ch=ch: l.get("type") == "subscribed" and l.get("channel") == ch) is not None)
members = s.wait_for(lambda l: l.get("type") == "members" and l.get("channel") == "presence-demo")
check("presence roster arrives with our own id", members is not None and "inspector" in json.dumps(members.get("members")))
event = s.wait_for(lambda l: l.get("type") == "event" and l.get("channel") == "demo-orders")
check("app events arrive with decoded data", event is not None and isinstance(event.get("data"), dict))
check("every line has a millisecond UTC timestamp",
      all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", l.get("ts", "")) for l in list(s.lines)))

s.send('trigger presence-demo client-wave {"hi":1}')
check("trigger sends a client event", s.wait_for(lambda l: l.get("type") == "sent" and l.get("event") == "client-wave") is not None)
s.send("trigger demo-orders client-wave {}")
check("trigger on a public channel is refused with a reason",
      s.wait_for(lambda l: l.get("type") == "command_error" and "demo-orders" in l.get("command", "")) is not None)
s.send("frobnicate")
check("unknown command → command_error", s.wait_for(lambda l: l.get("type") == "command_error" and "frobnicate" in l.get("command", "")) is not None)
s.send("subscribe presence-extra")
check("subscribe command", s.wait_for(lambda l: l.get("type") == "subscribed" and l.get("channel") == "presence-extra") is not None)
s.send("signin")
check("signin", s.wait_for(lambda l: l.get("type") == "signin" and l.get("member_id") == "inspector") is not None)

before = s.count(lambda l: l.get("type") == "state" and l.get("current") == "connected")
s.send("drop")
check("drop → unavailable", s.wait_for(lambda l: l.get("type") == "state" and l.get("current") == "unavailable") is not None)
check("drop → a retry line with its delay", s.wait_for(lambda l: l.get("type") == "retry" and "in_ms" in l) is not None)
deadline = time.time() + 40
while time.time() < deadline and s.count(lambda l: l.get("type") == "state" and l.get("current") == "connected") <= before:
    time.sleep(0.1)
check("connected again after the drop", s.count(lambda l: l.get("type") == "state" and l.get("current") == "connected") > before)
s.send("disconnect")
check("disconnect", s.wait_for(lambda l: l.get("type") == "state" and l.get("current") == "disconnected") is not None)
s.send("quit")
try:
    code = s.proc.wait(timeout=15)
except subprocess.TimeoutExpired:
    s.proc.kill()
    code = None
check("quit exits 0", code == 0, f"(exit {code})")
text = "".join(s.raw) + s.proc.stderr.read()
check("no line is anything but JSON", all(l.get("type") != "<not json>" for l in s.lines))
check("no secret or signature in the output",
      "sandbox-secret" not in text and not re.search(r"sandbox-key:[0-9a-f]{64}", text))

# Exit rules: end of stdin, --duration, bad flags.
p = subprocess.run([BIN, "--jsonl", "--sandbox", "--duration", "1"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
check("end of stdin / --duration exits 0", p.returncode == 0, f"(exit {p.returncode})")
p = subprocess.run([BIN, "--no-such-flag"], capture_output=True, text=True, timeout=10)
check("a bad flag exits 2 with one clear line", p.returncode == 2 and "--no-such-flag" in p.stderr, f"(exit {p.returncode})")
p = subprocess.run([BIN, "--sandbox"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=10)
check("no TTY without --jsonl exits 2", p.returncode == 2 and "TTY" in p.stderr.upper(), f"(exit {p.returncode})")
p = subprocess.run([BIN, "--jsonl", "--app-key", "k", "--host", "example.com", "--insecure"], capture_output=True, text=True, timeout=10)
check("--insecure refused for a non-loopback host", p.returncode == 2 and "insecure" in p.stderr, f"(exit {p.returncode})")

# --sandbox --scenario: the embedded sandbox plays a built-in fault sequence.
p = subprocess.run([BIN, "--jsonl", "--sandbox", "--demo-rate", "0", "--scenario", "rate-limited-client-events",
                    "--duration", "6"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
lines = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
check("--scenario rate-limited-client-events: error 4301 on onError, still connected",
      any(l.get("type") == "error" and l.get("code") == 4301 for l in lines)
      and not any(l.get("type") == "state" and l.get("previous") == "connected" for l in lines))
p = subprocess.run([BIN, "--jsonl", "--sandbox", "--demo-rate", "0", "--scenario", "edge-restart",
                    "--duration", "25"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
states = [l for l in (json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")) if l.get("type") == "state"]
seq = [s["current"] for s in states]
restart = next((i for i, s in enumerate(states) if s.get("close_code") == 4200), None)
check("--scenario edge-restart: 4200 → connecting at once, backoff while down, connected again",
      restart is not None and states[restart]["current"] == "connecting"
      and "unavailable" in seq[restart:] and seq[-1] == "connected", f"(states: {seq})")
p = subprocess.run([BIN, "--sandbox", "--scenario", "no-such-scenario"], capture_output=True, text=True, timeout=10)
check("an unknown scenario exits 2 naming the built-ins", p.returncode == 2 and "edge-restart" in p.stderr)

# Secret scan (issue: security checks): a separate bird-sandbox with a recognisable app secret,
# the inspector attached with a recognisable bearer token; neither may appear anywhere.
import os
APP_SECRET = "app-secret-RECOGNISABLE-4711"
TOKEN = "token-RECOGNISABLE-0815"
sandbox_bin = os.path.join(os.path.dirname(BIN), "bird-sandbox")
sb = subprocess.Popen([sandbox_bin, "--port", "0", "--app-secret", APP_SECRET, "--client-events"],
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    info = json.loads(sb.stdout.readline())
    port = str(info["port"])
    s2 = Session("--app-key", info["app_key"], "--host", "127.0.0.1", "--port", port, "--insecure",
                 "--auth-endpoint", info["auth_endpoint"] + "?member=scan",
                 "--member-auth-endpoint", info["member_auth_endpoint"] + "?member=scan",
                 "--auth-header", f"Authorization: Bearer {TOKEN}",
                 "--subscribe", "private-scan", "--subscribe", "presence-scan", "--signin")
    ok = s2.wait_for(lambda l: l.get("type") == "subscribed" and l.get("channel") == "presence-scan", 30)
    check("attached to a separate bird-sandbox: private and presence channels authorized", ok is not None)
    s2.send('trigger private-scan client-scan {"x":1}')
    s2.wait_for(lambda l: l.get("type") == "sent", 10)
    s2.send("quit")
    try:
        s2.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        s2.proc.kill()
    out = "".join(s2.raw) + s2.proc.stderr.read()
finally:
    sb.terminate()
    try:
        sb_out, sb_err = sb.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        sb.kill()
        sb_out, sb_err = sb.communicate()
everything = out + sb_out + sb_err
for secret in (APP_SECRET, TOKEN):
    check(f"{secret} appears nowhere (inspector stdout/stderr, sandbox stdout/stderr)", secret not in everything)
check("no full auth signature appears anywhere", not re.search(r":[0-9a-f]{64}", everything))
check("the sandbox logged the session (the scan saw real output)", "private-scan" in sb_err)

print(f"headless: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
