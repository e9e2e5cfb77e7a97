#!/usr/bin/env python3
"""bird-inspect --jsonl against its embedded sandbox: a scripted stdin session whose JSON lines
are checked (docs/PROTOCOL.md § Headless output), plus the exit codes and the absence of secrets; scripts that wait
for what they need (no sleep), payloads byte for byte, closed pipes, signals, an inbox flood,
continuity across two edge restarts.
Every wait here is for an event, with a deadline; nothing sleeps to synchronise."""
import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import urllib.request

# The binary: the first argument (Scripts/stages/65-headless), else $BIRD_INSPECT_BIN.
BIN = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BIRD_INSPECT_BIN", "")
if not BIN or not os.access(BIN, os.X_OK):
    sys.exit(f"headless: no bird-inspect binary (argument or BIRD_INSPECT_BIN): {BIN!r}")
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
    """bird-inspect --jsonl with stdin and stdout pipes; a reader thread collects the lines and
    wakes waiters (a condition variable, so waiting never sleeps)."""

    def __init__(self, *args, env=None, read=True):
        self.proc = subprocess.Popen([BIN, "--jsonl", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        self.lines = []
        self.raw = []
        self.eof = False
        self.cond = threading.Condition()
        if read:
            self.start_reading()

    def start_reading(self):
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.raw.append(line)
                try:
                    self.lines.append(json.loads(line))
                except ValueError:
                    self.lines.append({"type": "<not json>", "text": line})
                self.cond.notify_all()
        with self.cond:
            self.eof = True
            self.cond.notify_all()

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def wait_until(self, condition, timeout=20):
        """Waits until condition() is true (checked whenever a line arrives), for at most timeout s."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                result = condition()
                if result or self.eof:
                    return result
                left = deadline - time.monotonic()
                if left <= 0:
                    return result
                self.cond.wait(left)

    def wait_for(self, predicate, timeout=20):
        return self.wait_until(lambda: next((l for l in self.lines if predicate(l)), None), timeout)

    def count(self, predicate):
        with self.cond:
            return sum(1 for line in self.lines if predicate(line))

    def finish(self, timeout=20):
        """Closes stdin and waits for the exit code (None when it did not exit in time)."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None


def run(args, stdin_text="", timeout=60, env=None):
    """Runs bird-inspect with a script on stdin; returns the process and its JSON lines."""
    p = subprocess.run([BIN, *args], input=stdin_text, capture_output=True, text=True, timeout=timeout, env=env)
    lines = []
    for l in p.stdout.splitlines():
        try:
            lines.append(json.loads(l))
        except ValueError:
            lines.append({"type": "<not json>", "text": l})
    return p, lines


def control(port, call, body):
    """POSTs a JSON body to the embedded sandbox's control API (http://127.0.0.1:PORT/sandbox/CALL)."""
    req = urllib.request.Request(f"http://127.0.0.1:{port}/sandbox/{call}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.loads(answer.read())


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
check("the connected line carries the negotiated activity timeout",
      connected is not None and connected.get("activity_timeout_ms") == 120000, f"({connected})")
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
s.send("ping")
rtt = s.wait_for(lambda l: l.get("type") == "rtt")
check("ping → an rtt line with the round-trip time in ms", rtt is not None and isinstance(rtt.get("ms"), (int, float))
      and 0 <= rtt["ms"] < 10_000, f"({rtt})")
s.send("signin")
check("signin", s.wait_for(lambda l: l.get("type") == "signin" and l.get("member_id") == "inspector") is not None)

before = s.count(lambda l: l.get("type") == "state" and l.get("current") == "connected")
s.send("drop")
check("drop → unavailable", s.wait_for(lambda l: l.get("type") == "state" and l.get("current") == "unavailable") is not None)
retry = s.wait_for(lambda l: l.get("type") == "retry" and "in_ms" in l)
check("drop → a retry line with its delay and the library's attempt number (0 for the first)",
      retry is not None and retry.get("attempt") == 0, f"({retry})")

def connected_again():
    return sum(1 for l in s.lines if l.get("type") == "state" and l.get("current") == "connected") > before

check("connected again after the drop", s.wait_until(connected_again, 40))
s.send("disconnect")
check("disconnect", s.wait_for(lambda l: l.get("type") == "state" and l.get("current") == "disconnected") is not None)
s.send("quit")
try:
    code = s.proc.wait(timeout=15)
except subprocess.TimeoutExpired:
    s.proc.kill()
    code = None
check("quit exits 1: two commands of the session failed (a public-channel trigger, an unknown command)",
      code == 1, f"(exit {code})")
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
steps = [l for l in (json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")) if l.get("type") == "scenario"]
restart_step = next((l for l in steps if l.get("action") == "restart"), None)
check("--scenario edge-restart: a scenario line per runner line, the restart with its step and when the edge is back",
      restart_step is not None and restart_step.get("name") == "edge-restart" and restart_step.get("step") == 1
      and "edge_back_at" in restart_step and steps[-1].get("text") == "done", f"(scenario lines: {steps})")
p = subprocess.run([BIN, "--sandbox", "--scenario", "no-such-scenario"], capture_output=True, text=True, timeout=10)
check("an unknown scenario exits 2 naming the built-ins", p.returncode == 2 and "edge-restart" in p.stderr)

# --record / --replay (docs/RECORDING.md): a recorded --jsonl session with a fault scenario,
# private and presence channels (the embedded sandbox's demo auth), sign-in and a client event;
# then the file replayed headless must give the same lines with only ts changed.
TMP = tempfile.mkdtemp(prefix="bird-rec-")
REC = os.path.join(TMP, "session.jsonl")
HEX64 = re.compile(r":[0-9a-f]{64}")


def without_ts(lines):
    return [re.sub(r'^\{"ts":"[^"]*",', "{", l) for l in lines]


rec = subprocess.Popen([BIN, "--jsonl", "--sandbox", "--scenario", "rate-limited-client-events", "--demo-rate", "5",
                        "--subscribe", "demo-orders", "--subscribe", "private-rec", "--subscribe", "presence-rec",
                        "--signin", "--auth-header", "Authorization: Bearer SECRETTOKEN",
                        "--record", REC, "--duration", "5"],
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
# The trigger waits for its channel's subscription by itself (no sleep).
rec.stdin.write('trigger private-rec client-rec {"x":1}\n')
rec.stdin.flush()
try:
    rec_out, rec_err = rec.communicate(timeout=30)
except subprocess.TimeoutExpired:
    rec.kill()
    rec_out, rec_err = rec.communicate()
check("--jsonl --record exits 0 at the end of --duration", rec.returncode == 0, f"(exit {rec.returncode}: {rec_err[-300:]})")
file_text = open(REC, encoding="utf-8").read() if os.path.exists(REC) else ""
file_lines = file_text.splitlines()
check("--jsonl --record: stdout carries exactly the file's lines", rec_out.splitlines() == file_lines and len(file_lines) > 5,
      f"({len(rec_out.splitlines())} stdout lines, {len(file_lines)} file lines)")
entries = []
for l in file_lines:
    try:
        entries.append(json.loads(l))
    except ValueError:
        entries.append({"type": "<not json>", "text": l})
header = entries[0] if entries else {}
check("the header comes first: type recording, version 1, the edge and channels",
      header.get("type") == "recording" and header.get("version") == 1 and header.get("mono_ms") == 0
      and header.get("host") == "127.0.0.1" and "private-rec" in header.get("channels", []), f"({header})")
check("every line is JSON with ts, mono_ms and type",
      all(isinstance(e.get("mono_ms"), (int, float)) and "ts" in e and "type" in e for e in entries))
monos = [e.get("mono_ms", -1) for e in entries]
check("mono_ms never goes backwards", all(a <= b for a, b in zip(monos, monos[1:])))
types = [e.get("type") for e in entries]
wire_in = [e for e in entries if e.get("type") == "wire" and e.get("direction") == "in"]
wire_out = [e for e in entries if e.get("type") == "wire" and e.get("direction") == "out"]
check("wire in entries (handshake, events)", any("connection_established" in e.get("text", "") for e in wire_in)
      and any("order-updated" in e.get("text", "") for e in wire_in))
check("wire out entries (subscribe, the client event)", any("subscribe" in e.get("text", "") for e in wire_out)
      and any("client-rec" in e.get("text", "") for e in wire_out))
auths = [e for e in entries if e.get("type") == "auth"]
check("auth entries: channel requests with their channel and status, no query string",
      {e.get("channel") for e in auths if e.get("kind") == "channel"} >= {"private-rec", "presence-rec"}
      and all(e.get("status") == 200 and "?" not in e.get("endpoint", "") and isinstance(e.get("ms"), int) for e in auths),
      f"({auths})")
check("auth entries: the sign-in request", any(e.get("kind") == "signin" for e in auths))
check("E lines are recorded too: state, subscribed, members, signin, sent, the 4301 error",
      {"state", "subscribed", "members", "signin", "sent", "error"} <= set(types), f"({sorted(set(types))})")
first_wire = next((i for i, t in enumerate(types) if t == "wire"), None)
connected_at = next((i for i, e in enumerate(entries) if e.get("type") == "state" and e.get("current") == "connected"), None)
check("entries keep the order they happened in (the handshake's wire entry before the connected state)",
      first_wire is not None and connected_at is not None and first_wire < connected_at)
check("no secret in the recording: sandbox secret, bearer token, signatures",
      "sandbox-secret" not in file_text and "SECRETTOKEN" not in file_text and not HEX64.search(file_text)
      and not re.search(r'\\?"auth\\?":\\?"[^"\\]*:[0-9a-f]{64}', file_text))
check("signatures in wire text are kept redacted", "sandbox-key:<redacted>" in file_text)
check("nothing secret on stderr either", "SECRETTOKEN" not in rec_err and not HEX64.search(rec_err))

rp = subprocess.run([BIN, "--jsonl", "--replay", REC, "--speed", "0"], capture_output=True, text=True, timeout=30)
check("--jsonl --replay --speed 0 exits 0", rp.returncode == 0, f"(exit {rp.returncode}: {rp.stderr})")
check("the replayed stream equals the recording compared without ts",
      without_ts(rp.stdout.splitlines()) == without_ts(file_lines) and len(file_lines) > 5)
check("replayed ts are the time of printing",
      all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", json.loads(l)["ts"]) for l in rp.stdout.splitlines())
      and json.loads(rp.stdout.splitlines()[0])["ts"] != header.get("ts"))
last_mono = monos[-1] / 1000 if monos else 0
started = time.time()
rp = subprocess.run([BIN, "--jsonl", "--replay", REC, "--speed", "4"], capture_output=True, text=True, timeout=30)
took = time.time() - started
check("--speed 4 paces the replay by mono_ms / 4", rp.returncode == 0 and last_mono / 4 - 0.2 <= took <= last_mono / 4 + 2,
      f"(took {took:.2f}s for {last_mono:.2f}s recorded)")

# Reader errors and flag rules.
bad = os.path.join(TMP, "bad.jsonl")
with open(bad, "w") as f:
    f.write(file_lines[0] + "\n" + file_lines[1] + "\nnot json\n" + file_lines[2] + "\n" + '{"ts":"x","mono_ms":9,"type":"ev')
rp = subprocess.run([BIN, "--jsonl", "--replay", bad, "--speed", "0"], capture_output=True, text=True, timeout=10)
check("a bad line is skipped with a warning naming it; the rest plays; exit 0",
      rp.returncode == 0 and len(rp.stdout.splitlines()) == 3 and "line 3: not JSON" in rp.stderr and "line 5" in rp.stderr,
      f"(exit {rp.returncode}: {rp.stderr})")
p = subprocess.run([BIN, "--jsonl", "--replay", os.path.join(TMP, "missing.jsonl")], capture_output=True, text=True, timeout=10)
check("a missing file: one clear line, exit 1", p.returncode == 1 and "no such file" in p.stderr and p.stderr.count("\n") == 1,
      f"(exit {p.returncode}: {p.stderr})")
notrec = os.path.join(TMP, "notrec.jsonl")
with open(notrec, "w") as f:
    f.write('{"ts":"2026-01-01T00:00:00.000Z","type":"state","previous":"initialized","current":"connecting"}\n')
p = subprocess.run([BIN, "--jsonl", "--replay", notrec], capture_output=True, text=True, timeout=10)
check("not a recording (no header): exit 1 saying so", p.returncode == 1 and "not a bird-inspect recording" in p.stderr)
future = os.path.join(TMP, "future.jsonl")
with open(future, "w") as f:
    f.write(file_lines[0].replace('"version":1', '"version":7') + "\n")
p = subprocess.run([BIN, "--jsonl", "--replay", future], capture_output=True, text=True, timeout=10)
check("an unknown version: exit 1 naming it", p.returncode == 1 and "version 7 is not supported" in p.stderr, f"({p.stderr})")
p = subprocess.run([BIN, "--jsonl", "--sandbox", "--record", os.path.join(TMP, "no", "such", "dir.jsonl")],
                   stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=10)
check("--record to an unwritable path: one clear line, exit 1", p.returncode == 1 and "cannot open" in p.stderr,
      f"(exit {p.returncode}: {p.stderr})")
for args, what in [(["--sandbox", "--speed", "2"], "--speed needs --replay"),
                   (["--replay", REC, "--sandbox"], "--sandbox cannot be used"),
                   (["--replay", REC, "--record", os.path.join(TMP, "x.jsonl")], "--record cannot be used"),
                   (["--replay", REC, "--speed", "-1"], "--speed must be")]:
    p = subprocess.run([BIN, "--jsonl", *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=10)
    check(f"{' '.join(a if a != REC else 'FILE' for a in args)} → exit 2", p.returncode == 2 and what in p.stderr,
          f"(exit {p.returncode}: {p.stderr[:200]})")

# Secret scan (issue: security checks): a separate bird-sandbox with a recognisable app secret,
# the inspector attached with a recognisable bearer token; neither may appear anywhere — the
# session is recorded too, so the recording is scanned as well.
SCAN_REC = os.path.join(TMP, "scan.jsonl")
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
                 "--subscribe", "private-scan", "--subscribe", "presence-scan", "--signin", "--record", SCAN_REC)
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
    scan_text = open(SCAN_REC, encoding="utf-8").read() if os.path.exists(SCAN_REC) else ""
    out += scan_text
    check("the recorded scan has auth entries for both endpoints and no query strings",
          '"kind":"channel"' in scan_text and '"kind":"signin"' in scan_text and "member=scan" not in scan_text)
finally:
    sb.terminate()
    try:
        sb_out, sb_err = sb.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        sb.kill()
        sb_out, sb_err = sb.communicate()
everything = out + sb_out + sb_err
for secret in (APP_SECRET, TOKEN):
    check(f"{secret} appears nowhere (inspector stdout/stderr and recording, sandbox stdout/stderr)", secret not in everything)
check("no full auth signature appears anywhere", not re.search(r":[0-9a-f]{64}", everything))
check("the sandbox logged the session (the scan saw real output)", "private-scan" in sb_err)

# bird-sandbox --replay (docs/RECORDING.md): record a session through a 4100 close and a TCP drop,
# play the recording's server side to a fresh inspector, and compare the state sequences.
FAULTS = os.path.join(TMP, "faults.json")
with open(FAULTS, "w") as f:
    json.dump({"name": "replay-check", "steps": [
        {"after": 1, "action": "close-all", "code": 4100, "reason": "over capacity"},
        {"after": 2, "action": "drop", "target": "all"}]}, f)
SRV_REC = os.path.join(TMP, "server-side.jsonl")
rec2 = subprocess.run([BIN, "--jsonl", "--sandbox", "--scenario", FAULTS, "--subscribe", "news",
                       "--subscribe", "private-replay", "--record", SRV_REC, "--duration", "7"],
                      stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def states(lines):
    return [(d["previous"], d["current"], d.get("close_code")) for d in lines if d.get("type") == "state"]


recorded_states = states(json.loads(l) for l in open(SRV_REC, encoding="utf-8") if l.strip()) \
    if os.path.exists(SRV_REC) else []
check("the recording for the server replay went through 4100 and a drop (a network error: no close code)",
      rec2.returncode == 0 and ("connected", "unavailable", 4100) in recorded_states
      and ("connected", "unavailable", None) in recorded_states, f"(exit {rec2.returncode}: {recorded_states})")
rs = subprocess.Popen([sandbox_bin, "--replay", SRV_REC, "--port", "0"],
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    info = json.loads(rs.stdout.readline())
    rep = subprocess.run([BIN, "--jsonl", "--host", "127.0.0.1", "--port", str(info["port"]), "--insecure",
                          "--app-key", info["app_key"], "--auth-endpoint", info["auth_endpoint"],
                          "--subscribe", "news", "--subscribe", "private-replay", "--duration", "9"],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    replayed_lines = [json.loads(l) for l in rep.stdout.splitlines() if l.strip()]
finally:
    rs.terminate()
    try:
        _, rs_err = rs.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        rs.kill()
        _, rs_err = rs.communicate()
check("bird-sandbox --replay: a fresh client goes through the recorded state sequence",
      states(replayed_lines) == recorded_states and len(recorded_states) >= 6,
      f"\n  recorded {recorded_states}\n  replayed {states(replayed_lines)}\n  {rs_err[-600:]}")
check("bird-sandbox --replay: every recorded client message was matched (no mismatch logged)",
      "mismatch" not in rs_err and "segment 1/" in rs_err, rs_err[-400:])
check("bird-sandbox --replay: the private channel was authorized and subscribed again",
      any(d.get("type") == "subscribed" and d.get("channel") == "private-replay" for d in replayed_lines))

# --- Scripts wait for what they need (docs/INSPECTOR.md "Scripts on stdin"): no sleep anywhere. ---
p, lines = run(["--sandbox", "--jsonl"], 'subscribe presence-x\ntrigger presence-x client-hi {"a":1}\nquit\n')
types = [l.get("type") for l in lines]
sent = next((l for l in lines if l.get("type") == "sent"), None)
check("the issue's pipe with no sleep: subscribe, trigger, quit → a sent line with the data, exit 0",
      p.returncode == 0 and sent is not None and sent.get("channel") == "presence-x" and sent.get("data") == {"a": 1}
      and '"data":{"a":1}' in p.stdout and "command_error" not in types, f"(exit {p.returncode}: {p.stdout[-600:]})")
sub_at = next((i for i, l in enumerate(lines) if l.get("type") == "subscribed" and l.get("channel") == "presence-x"), None)
check("… the trigger ran once presence-x was subscribed", sub_at is not None and types.index("sent") > sub_at)

p, lines = run(["--sandbox", "--jsonl", "--wait-timeout", "1"], 'trigger presence-nope client-hi {}\nquit\n')
err = next((l for l in lines if l.get("type") == "command_error"), {})
check("a trigger whose channel never subscribes: command_error after the wait timeout, exit 1",
      p.returncode == 1 and err.get("message") == "presence-nope not subscribed after 1 s", f"(exit {p.returncode}: {err})")

p, lines = run(["--sandbox", "--jsonl"],
               "wait connected\nwait subscribed presence-demo\nwait members presence-demo 2\nwait state connected 5\n"
               "subscribe private-w\nwait subscribed private-w 10\nquit\n")
check("wait connected / subscribed / members / state: all met, exit 0",
      p.returncode == 0 and not any(l.get("type") == "command_error" for l in lines), f"(exit {p.returncode}: {p.stdout[-400:]})")
p, lines = run(["--sandbox", "--jsonl"], "wait connected\nwait event demo-orders never-sent 0.5\nwait state failed 0.2\nfrobnicate\n")
errors = [l.get("message", "") for l in lines if l.get("type") == "command_error"]
check("waits that run out and a bad command: one command_error each, in order, and end of stdin exits 1",
      p.returncode == 1 and len(errors) == 3 and errors[0] == "no never-sent on demo-orders within 0.5 s"
      and errors[1].startswith("still connected after 0.2 s, not failed") and "unknown command" in errors[2],
      f"(exit {p.returncode}: {errors})")

def section(name, body):
    """Runs one group of checks; an exception (the binary failed early, say) is a failed check,
    and the next group still runs."""
    try:
        body()
    except Exception as error:  # noqa: BLE001 — reported as a failure, the script goes on
        check(f"{name}: ran to the end", False, f"({type(error).__name__}: {error})")


# The auth failure is named when it is known (the embedded sandbox's control API answers on the
# port of the recording header, which --record puts first on stdout).
def section_auth():
    AUTH_REC = os.path.join(TMP, "auth-failure.jsonl")
    s3 = Session("--sandbox", "--demo-rate", "0", "--wait-timeout", "1.5", "--record", AUTH_REC)
    head = s3.wait_for(lambda l: l.get("type") == "recording")
    port = head.get("port") if head else None
    s3.wait_for(lambda l: l.get("type") == "subscribed" and l.get("channel") == "presence-demo")
    control(port, "auth-failure", {"status": 503})
    s3.send("subscribe presence-fail")
    s3.send("trigger presence-fail client-x {}")
    s3.send("quit")
    code = s3.finish()
    err = next((l for l in s3.lines if l.get("type") == "command_error"), {})
    check("… a trigger on a channel whose auth failed says why: subscription_error AuthError 503",
          code == 1 and err.get("message") == "presence-fail not subscribed after 1.5 s: subscription_error AuthError 503",
          f"(exit {code}: {err})")


section("auth-failure trigger", section_auth)

# --- What was sent, byte for byte (issue 12). ---
def section_exact():
    EXACT_REC = os.path.join(TMP, "exact.jsonl")
    s4 = Session("--sandbox", "--demo-rate", "0", "--record", EXACT_REC)
    head = s4.wait_for(lambda l: l.get("type") == "recording")
    port = head.get("port") if head else None
    s4.wait_for(lambda l: l.get("type") == "subscribed" and l.get("channel") == "demo-orders")
    control(port, "publish", {"channel": "demo-orders", "event": "exact-object", "data": {"id": 9007199254740993, "b": 1, "a": 2}})
    # Python's json would read the number as an int and write it back exactly; send the text itself.
    req = urllib.request.Request(f"http://127.0.0.1:{port}/sandbox/publish", method="POST",
                                 headers={"Content-Type": "application/json"},
                                 data=b'{"channel":"demo-orders","event":"exact-text","data":"{ \\"id\\" : 9007199254740993,\\r\\n \\"b\\":1.50 }"}')
    urllib.request.urlopen(req, timeout=10).read()
    s4.wait_for(lambda l: l.get("type") == "event" and l.get("event") == "exact-text")
    s4.send("quit")
    s4.finish()
    object_line = next((r for r in s4.raw if '"event":"exact-object"' in r), "")
    text_line = next((r for r in s4.raw if '"event":"exact-text"' in r), "")
    check("a payload published as {\"id\":9007199254740993,\"b\":1,\"a\":2} is the JSONL data byte for byte",
          '"data":{"id":9007199254740993,"b":1,"a":2}' in object_line, f"({object_line.strip()})")
    check("a payload's own spacing and digits are kept; raw CR/LF become spaces, the line stays one line",
          text_line.endswith('"data":{ "id" : 9007199254740993,   "b":1.50 }}\n'), f"({text_line!r})")
    rp = subprocess.run([BIN, "--jsonl", "--replay", EXACT_REC, "--speed", "0"], capture_output=True, text=True, timeout=30)
    check("… and the recording and its replay carry the same bytes",
          '"data":{"id":9007199254740993,"b":1,"a":2}' in rp.stdout and '"data":{ "id" : 9007199254740993,   "b":1.50 }' in rp.stdout)


section("exact payloads", section_exact)

# --- A closed stdout ends the inspector cleanly (issue 13). ---
def section_pipe():
    PIPE_REC = os.path.join(TMP, "pipe.jsonl")
    sh = subprocess.run(["bash", "-c", f'"{BIN}" --jsonl --sandbox --duration 60 --record "{PIPE_REC}" </dev/null | head -1; '
                                       'echo "rc=${PIPESTATUS[0]}"'], capture_output=True, text=True, timeout=30)
    out_lines = sh.stdout.splitlines()
    check("--jsonl | head -1: exits 0 when the reader goes (long before --duration), no crash",
          len(out_lines) == 2 and out_lines[0].startswith("{") and out_lines[1] == "rc=0" and "Broken pipe" not in sh.stderr,
          f"({sh.stdout!r} {sh.stderr[-300:]!r})")
    pipe_text = open(PIPE_REC, encoding="utf-8").read() if os.path.exists(PIPE_REC) else ""
    check("… and its recording is kept whole: every line JSON, ending in a newline",
          pipe_text.endswith("\n") and all(json.loads(l) for l in pipe_text.splitlines()) and '"type":"recording"' in pipe_text)
    sh = subprocess.run(["bash", "-c", f'"{BIN}" --jsonl --replay "{REC}" --speed 1 | head -1; echo "rc=${{PIPESTATUS[0]}}"'],
                        capture_output=True, text=True, timeout=30)
    check("--jsonl --replay | head -1: exits 0 (not killed by SIGPIPE)", sh.stdout.splitlines()[-1:] == ["rc=0"],
          f"({sh.stdout!r} {sh.stderr[-300:]!r})")


section("closed stdout", section_pipe)

# --- SIGHUP stops --jsonl like SIGTERM: the recording is flushed and closed. ---
def section_hup():
    HUP_REC = os.path.join(TMP, "hup.jsonl")
    s5 = Session("--sandbox", "--record", HUP_REC)
    s5.wait_for(lambda l: l.get("type") == "state" and l.get("current") == "connected")
    s5.proc.send_signal(signal.SIGHUP)
    try:
        code = s5.proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        s5.proc.kill()
        code = None
    hup_text = open(HUP_REC, encoding="utf-8").read() if os.path.exists(HUP_REC) else ""
    check("SIGHUP ends --jsonl cleanly (exit 0, no command pending) with the recording whole",
          code == 0 and hup_text.endswith("\n") and '"current":"connected"' in hup_text, f"(exit {code})")


section("SIGHUP", section_hup)

# --- An inbox flood: events dropped are counted in a dropped line, none silently (issue 13). ---
# The bound is lowered for the test; stdout is not read until 30,000 events have been published,
# so the main loop is stuck writing and the client's deliveries overflow the inbox.
def section_flood():
    env = dict(os.environ, BIRD_INSPECT_TEST_INBOX_LIMIT="100")
    s6 = Session("--sandbox", "--demo-rate", "0", "--record", os.path.join(TMP, "flood.jsonl"), env=env, read=False)
    first = [json.loads(s6.proc.stdout.readline())]
    port = first[0].get("port")
    while not any(l.get("type") == "subscribed" and l.get("channel") == "demo-orders" for l in first):
        first.append(json.loads(s6.proc.stdout.readline()))
    BURST = 30000
    control(port, "burst", {"channel": "demo-orders", "event": "flood", "data": {"pad": "x" * 200}, "count": BURST, "rate": 0})
    fd = s6.proc.stdout.fileno()
    full_by = time.monotonic() + 30


    def pipe_bytes():
        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


    while pipe_bytes() < 60000 and time.monotonic() < full_by:
        select.select([], [], [], 0.05)  # check the pipe's fill level again in 50 ms, up to the deadline
    check("flood: stdout filled up while nobody read it (the main loop is stuck writing)", pipe_bytes() >= 60000)
    s6.start_reading()


    def flood_accounted():
        seen = sum(1 for l in s6.lines if l.get("type") == "event" and l.get("event") == "flood")
        dropped = sum(l.get("count", 0) for l in s6.lines if l.get("type") == "dropped")
        return seen + dropped >= BURST


    accounted = s6.wait_until(flood_accounted, 60)
    s6.send("quit")
    code = s6.finish(30)
    seen = sum(1 for l in s6.lines if l.get("type") == "event" and l.get("event") == "flood")
    drops = [l for l in s6.lines if l.get("type") == "dropped"]
    dropped = sum(l.get("count", 0) for l in drops)
    check("flood: events were dropped and every one is counted in a dropped {count, since} line",
          accounted and dropped > 0 and seen + dropped == BURST and all("since" in l for l in drops),
          f"(seen {seen}, dropped {dropped}, exit {code})")
    check("flood: the run ends normally afterwards (exit 0)", code == 0, f"(exit {code})")


section("inbox flood", section_flood)


# --- Encrypted channels (issue 16): --sandbox gives its embedded sandbox a master key; a known one
# (BIRD_SANDBOX_ENCRYPTION_MASTER_KEY) lets this check that neither it nor the channel key
# (SHA-256(channel ‖ master key), the auth answer's shared_secret) appears anywhere. ---
def section_encrypted():
    import base64
    import hashlib
    master = bytes(range(1, 33))
    master_b64 = base64.b64encode(master).decode()
    channel = "private-encrypted-demo"
    channel_key = hashlib.sha256(channel.encode() + master).digest()
    secrets = [master_b64, base64.b64encode(channel_key).decode(), master.hex(), channel_key.hex()]
    env = dict(os.environ, BIRD_SANDBOX_ENCRYPTION_MASTER_KEY=master_b64)
    enc_rec = os.path.join(TMP, "encrypted.jsonl")
    p = subprocess.run([BIN, "--sandbox", "--jsonl", "--demo-rate", "20", "--record", enc_rec],
                       input=f"wait subscribed {channel}\nwait event {channel} payment-authorised 10\nquit\n",
                       capture_output=True, text=True, timeout=60, env=env)
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    event = next((l for l in lines if l.get("type") == "event" and l.get("channel") == channel), None)
    check("--sandbox --jsonl: an event on the encrypted demo channel arrives decrypted, \"decrypted\":true",
          p.returncode == 0 and event is not None and event.get("decrypted") is True
          and isinstance(event.get("data"), dict) and event["data"].get("card_last4") == "4242"
          and set(event.get("ciphertext", {})) == {"nonce", "ciphertext"},
          f"(exit {p.returncode}: {event} {p.stderr[-300:]})")
    check("… clear channels' events do not say decrypted",
          not any(l.get("decrypted") for l in lines if l.get("type") == "event" and l.get("channel") != channel))
    with open(enc_rec, encoding="utf-8") as f:
        recorded = f.read()
    everything = p.stdout + p.stderr + recorded
    check("… neither the master key nor the channel key (shared_secret) in stdout, stderr or the recording",
          not any(secret in everything for secret in secrets) and "shared_secret" not in everything)
    # A bad key: a clear error that does not show it, exit 1.
    bad = "not-a-key-SECRETISH"
    p = subprocess.run([BIN, "--sandbox", "--jsonl", "--duration", "1"], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=30,
                       env=dict(os.environ, BIRD_SANDBOX_ENCRYPTION_MASTER_KEY=bad))
    check("a bad BIRD_SANDBOX_ENCRYPTION_MASTER_KEY: exit 1, named, not shown",
          p.returncode == 1 and "BIRD_SANDBOX_ENCRYPTION_MASTER_KEY" in p.stderr and bad not in p.stdout + p.stderr,
          f"(exit {p.returncode}: {p.stderr[-300:]})")


section("encrypted channels", section_encrypted)


# --- Continuity (issue 15): the outage-publish scenario restarts the edge twice while demo-orders
# is published to (5 events, then 1,500 — more than the 1,000 the history holds). The script waits
# for each re-subscription (the runner forgets subscriptions when the connection goes), then for a
# replayed event; the lines say recovered, then missed N with N exact against the offsets. ---
def section_continuity():
    rec = os.path.join(TMP, "continuity.jsonl")
    script = ("wait subscribed demo-orders\n"
              "wait state unavailable 10\nwait subscribed demo-orders 30\n"
              "wait state unavailable 45\nwait subscribed demo-orders 30\n"
              "wait event demo-orders while-down 15\nquit\n")
    p, lines = run(["--sandbox", "--jsonl", "--scenario", "outage-publish", "--record", rec], script, timeout=120)
    orders = [l for l in lines if l.get("channel") == "demo-orders" and l.get("type") in ("subscribed", "event")]
    subs = [i for i, l in enumerate(orders) if l["type"] == "subscribed"]
    outcomes = [orders[i].get("continuity") for i in subs]
    check("outage-publish: demo-orders subscribed fresh, then recovered, then missed; exit 0",
          p.returncode == 0 and outcomes == ["fresh", "recovered", "missed"],
          f"(exit {p.returncode}: {outcomes} {[l for l in lines if l.get('type') == 'command_error']})")
    if outcomes != ["fresh", "recovered", "missed"]:
        return
    offsets = [l.get("offset") for l in orders if l["type"] == "event"]
    check("… every demo-orders event has an offset, each once, in order",
          all(isinstance(o, int) for o in offsets) and offsets == sorted(set(offsets)), f"({offsets[:20]}…)")

    def around(i):
        """The offset of the last event before subscribed line i and of the first after it."""
        before = next((l["offset"] for l in reversed(orders[:i]) if l["type"] == "event"), None)
        after = next((l["offset"] for l in orders[i + 1:] if l["type"] == "event"), None)
        return before, after

    rec_line, miss_line = orders[subs[1]], orders[subs[2]]
    before, after = around(subs[1])
    check("… recovered: resumed after the last offset seen, missed 0, the next event follows it directly",
          rec_line.get("offset") == before and rec_line.get("missed") == 0 and after == before + 1
          and isinstance(rec_line.get("epoch"), str), f"({rec_line}, before {before}, after {after})")
    before, after = around(subs[2])
    missed = miss_line.get("missed")
    check("… missed: the exact count, first replayed offset − last offset before − 1, and more than the history drops",
          miss_line.get("offset") == before and isinstance(missed, int) and after is not None
          and missed == after - before - 1 and missed >= 500, f"({miss_line}, before {before}, first after {after})")
    with open(rec, encoding="utf-8") as f:
        recorded = [json.loads(l) for l in f if '"subscribed"' in l]
    keys = ("channel", "continuity", "missed", "offset", "epoch")
    check("… the recording carries the same subscribed lines",
          [tuple(l.get(k) for k in keys) for l in recorded if l.get("channel") == "demo-orders"]
          == [tuple(orders[i].get(k) for k in keys) for i in subs])


section("continuity", section_continuity)

import shutil
shutil.rmtree(TMP, ignore_errors=True)
print(f"headless: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
