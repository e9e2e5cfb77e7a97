#!/usr/bin/env python3
"""bird-inspect report (docs/REPORT.md) in a real browser: each fixture recording is rendered to
HTML, loaded by headless Chromium, and the rendered DOM is checked against facts counted from the
recording here (independently of the Swift code): one state span per state change plus the first,
one auth row per auth line (failed ones marked), the headline, the replay command, the scenario
named. The page must load with no console message and no request of its own (Chromium's net log
is read: the browser's own background requests have no page initiator). Then a screenshot and a
PDF (print) of one report (support-ticket: the picture in docs/REPORT.md) are written under
.build/report/."""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
FIXTURES = "Tests/BirdReportTests/Fixtures"
OUT = ".build/report"
os.makedirs(OUT, exist_ok=True)

# Fixture → the built-in scenarios whose faults it was recorded with (Fixtures/README.md).
EXPECTED = {
    "edge-restart": ["edge-restart"], "over-capacity": ["over-capacity"], "terminated-member": ["terminated-member"],
    "stale-connection": ["stale-connection"], "auth-outage": ["auth-outage"],
    "rate-limited-client-events": ["rate-limited-client-events"], "flaky-network": ["flaky-network"], "demo": [],
    "support-ticket": ["auth-outage", "edge-restart", "rate-limited-client-events"],
}
HEADLINES = {
    "edge-restart": "1 reconnect: 1 × 4200; 4 failed attempts: 4 × refused; longest outage 8.6 s",
    "auth-outage": "2 reconnects: 2 × 4200; longest outage 3 ms; 3 auth failures (503); 2 subscription errors; "
                   "1 sign-in error",
    "support-ticket": "4 reconnects: 3 × 4200, 1 × drop; 4 failed attempts: 4 × refused; longest outage 5.6 s; "
                      "3 auth failures (503); 1 error (4301); 2 subscription errors; 1 sign-in error",
}

failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else "  " + detail))
    if not ok:
        failures.append(name)


chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    print("report: chromium is missing (Scripts/bootstrap installs it)")
    sys.exit(1)

profile = tempfile.mkdtemp(prefix="bird-report-chromium-")
BASE_FLAGS = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
              "--no-default-browser-check", "--disable-extensions", f"--user-data-dir={profile}",
              # Nothing may be fetched: every host name fails to resolve, and the net log shows any attempt.
              "--host-resolver-rules=MAP * ~NOTFOUND"]


def chromium_run(extra, url, timeout=90):
    netlog = os.path.join(profile, "netlog.json")
    if os.path.exists(netlog):
        os.remove(netlog)
    p = subprocess.run(BASE_FLAGS + ["--enable-logging=stderr", "--v=0", f"--log-net-log={netlog}"] + extra + [url],
                       capture_output=True, timeout=timeout)
    return p, netlog


def page_requests(netlog):
    """URLs the page itself requested (initiator set), from Chromium's net log."""
    try:
        text = open(netlog, encoding="utf-8").read()
    except OSError:
        return ["<no net log written>"]
    try:
        log = json.loads(text)
    except json.JSONDecodeError:
        log = json.loads(text.rstrip().rstrip(",") + "]}")  # cut short at exit
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = []
    for event in log.get("events", []):
        if names.get(event.get("type")) == "URL_REQUEST_START_JOB":
            params = event.get("params", {})
            if params.get("initiator") not in (None, "not an origin"):
                urls.append(params.get("url"))
    return urls


def page_errors(stderr):
    """Console messages and page errors; the browser's own noise (dbus, GPU, sandbox) is not one."""
    lines = stderr.decode("utf-8", "replace").splitlines()
    return [l for l in lines if ":CONSOLE" in l or "Uncaught" in l or "Failed to load resource" in l]


class Dom(html.parser.HTMLParser):
    """The parts of the rendered DOM the checks read."""

    def __init__(self):
        super().__init__()
        self.spans = []           # data-state of each timeline span
        self.retries = 0
        self.auth_rows = []       # class of each row in #auth-table
        self.scenarios = []       # data-scenario items
        self.ids = {}             # id → text
        self._stack = []          # (tag, id) of open elements whose text we collect
        self._table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "rect" and "span" in classes and "data-state" in a:
            self.spans.append(a["data-state"])
        if tag == "rect" and "retry" in classes and "data-wait-ms" in a:
            self.retries += 1
        if tag == "table":
            self._table = a.get("id")
        if tag == "tr" and self._table == "auth-table" and "data-status" in a:
            self.auth_rows.append(a.get("class"))
        if tag == "li" and "data-scenario" in a:
            self.scenarios.append(a["data-scenario"])
        if a.get("id") in ("headline", "replay-command", "scenario-match"):
            self._stack.append(a["id"])
            self.ids[a["id"]] = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None
        if self._stack and tag in ("p", "pre", "ul"):
            self._stack.pop()

    def handle_data(self, data):
        for i in self._stack:
            self.ids[i] += data


def recorded_facts(path):
    """Counted straight from the JSONL: no Swift involved."""
    lines = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    states = [l for l in lines if l.get("type") == "state"]
    auth = [l for l in lines if l.get("type") == "auth"]
    failed = [l for l in auth if not (200 <= l.get("status", 0) < 300)]
    retries = [l for l in lines if l.get("type") == "retry"]
    return {"spans": len(states) + 1, "auth": len(auth), "failed_auth": len(failed), "retries": len(retries),
            "channels": lines[0].get("channels", []), "final": states[-1]["current"] if states else "initialized"}


for fixture, scenario in EXPECTED.items():
    rec = os.path.join(FIXTURES, fixture + ".jsonl")
    page = os.path.join(OUT, fixture + ".html")
    p = subprocess.run([BIN, "report", rec, "-o", page, "--force"], capture_output=True, text=True, timeout=60)
    check(f"{fixture}: bird-inspect report exits 0", p.returncode == 0, p.stderr)
    if p.returncode != 0:
        continue
    again = subprocess.run([BIN, "report", rec, "-o", "-"], capture_output=True, timeout=60)
    check(f"{fixture}: the same recording gives the same bytes", again.stdout == open(page, "rb").read())

    url = "file://" + os.path.abspath(page)
    run, netlog = chromium_run(["--dump-dom"], url)
    check(f"{fixture}: chromium loaded the page", run.returncode == 0 and b"</html>" in run.stdout,
          f"exit {run.returncode}")
    errors = page_errors(run.stderr)
    check(f"{fixture}: no console message or page error", not errors, "; ".join(errors[:3]))
    requests = page_requests(netlog)
    check(f"{fixture}: the page requested nothing", not requests, ", ".join(map(str, requests[:3])))

    dom = Dom()
    dom.feed(run.stdout.decode("utf-8"))
    facts = recorded_facts(rec)
    check(f"{fixture}: {facts['spans']} state spans", len(dom.spans) == facts["spans"], f"got {len(dom.spans)}")
    check(f"{fixture}: the last span is the final state ({facts['final']})",
          dom.spans[-1:] == [facts["final"]], f"got {dom.spans[-1:]}")
    check(f"{fixture}: {facts['retries']} retry waits", dom.retries == facts["retries"], f"got {dom.retries}")
    check(f"{fixture}: {facts['auth']} auth rows, {facts['failed_auth']} marked failed",
          len(dom.auth_rows) == facts["auth"] and dom.auth_rows.count("failed") == facts["failed_auth"],
          f"got {dom.auth_rows}")
    replay = dom.ids.get("replay-command", "")
    check(f"{fixture}: the replay command", f"bird-sandbox --replay {rec} --port 6001" in replay
          and all(f"--subscribe {c}" in replay for c in facts["channels"]), replay)
    check(f"{fixture}: names {', '.join(scenario) or 'no scenario'}", dom.scenarios == scenario,
          f"got {dom.scenarios}")
    if fixture in HEADLINES:
        check(f"{fixture}: the headline", dom.ids.get("headline") == HEADLINES[fixture], repr(dom.ids.get("headline")))

# One picture for the docs (made as docs/REPORT.md says: bird-inspect report session.jsonl -o
# report.html), and the printed form.
shutil.copyfile(os.path.join(FIXTURES, "support-ticket.jsonl"), os.path.join(OUT, "session.jsonl"))
p = subprocess.run([os.path.abspath(BIN), "report", "session.jsonl", "-o", "report.html", "--force"], cwd=OUT,
                   capture_output=True, text=True, timeout=60)
check("the docs' example command works", p.returncode == 0, p.stderr)
shot = os.path.join(OUT, "report.png")
page = "file://" + os.path.abspath(os.path.join(OUT, "report.html"))
if os.path.exists(shot):
    os.remove(shot)
run, _ = chromium_run([f"--screenshot={shot}", "--window-size=1200,1150"], page)
ok = os.path.exists(shot)
if ok:
    head = open(shot, "rb").read(24)
    ok = head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (1200, 1150)
check(f"screenshot written: {shot} (1200 × 1150 PNG)", ok)
pdf = os.path.join(OUT, "report.pdf")
if os.path.exists(pdf):
    os.remove(pdf)
run, _ = chromium_run([f"--print-to-pdf={pdf}", "--no-pdf-header-footer"], page)
ok = os.path.exists(pdf) and open(pdf, "rb").read(5) == b"%PDF-" and os.path.getsize(pdf) > 10_000
check(f"printed: {pdf}", ok)

shutil.rmtree(profile, ignore_errors=True)
print()
print(f"report: {len(failures)} failure(s)" if failures else "report: all checks passed")
sys.exit(1 if failures else 0)
