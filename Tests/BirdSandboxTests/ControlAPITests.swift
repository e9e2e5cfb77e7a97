import BirdWire
import Synchronization
import Testing
import WebSocket

@testable import BirdSandbox

@Suite struct ControlAPITests {
    private final class Calls: Sendable {
        let restarts = Mutex<[(Int, String, Double)]>([])
        let bursts = Mutex<[(String, Int, Double)]>([])
    }

    private func api(_ h: EdgeHarness, _ calls: Calls = Calls()) -> ControlAPI {
        ControlAPI(
            edge: h.edge,
            restart: { code, reason, down in calls.restarts.withLock { $0.append((code, reason, down)) } },
            burst: { channel, _, _, count, rate in calls.bursts.withLock { $0.append((channel, count, rate)) } })
    }

    private func call(_ api: ControlAPI, _ method: String, _ path: String, _ body: JSONValue? = nil) -> (
        Int, JSONValue?
    ) {
        let headers: HTTPHeaders = body == nil ? [:] : ["Content-Type": "application/json"]
        let outcome = api.handle(
            HTTPRequest(method: method, target: path, headers: headers, body: Array((body?.description ?? "").utf8)))
        outcome.afterResponse?()
        return (
            outcome.response.status, try? JSONValue(parsing: String(decoding: outcome.response.body, as: UTF8.self))
        )
    }

    @Test func listsConnections() throws {
        let h = EdgeHarness()
        let (_, id) = h.client()
        h.subscribe(id, "news")
        h.signin(id, member: "alice")
        let (status, body) = call(api(h), "GET", "/sandbox/connections")
        #expect(status == 200)
        let first = try #require(body?[0])
        #expect(first["id"]?.stringValue == id)
        #expect(first["member_id"] == "alice")
        #expect(first["channels"] == ["#server-to-member-alice", "news"])
        #expect(first["remote"] == "127.0.0.1:5000")
        #expect(first["connected_at"]?.stringValue?.hasSuffix("Z") == true)
    }

    @Test func closeDropSilenceAndSend() {
        let h = EdgeHarness()
        let api = api(h)
        let (a, aId) = h.client()
        let (b, bId) = h.client()
        let (c, cId) = h.client()
        #expect(call(api, "POST", "/sandbox/connections/\(aId)/close", ["code": 4100, "reason": "busy"]).0 == 200)
        #expect(a.closed?.code == 4100)
        #expect(a.closed?.reason == "busy")
        #expect(call(api, "POST", "/sandbox/connections/\(bId)/drop").0 == 200)
        #expect(b.dropped)
        #expect(call(api, "POST", "/sandbox/connections/\(cId)/silence").0 == 200)
        #expect(c.paused)
        h.edge.publish(channel: "x", event: "e", data: nil)
        h.time.advance(1000)
        h.edge.tick()
        #expect(c.closed == nil)  // a silenced connection is neither pinged nor closed by the edge
        #expect(c.take().isEmpty)
        #expect(call(api, "POST", "/sandbox/connections/\(cId)/send", ["opcode": "binary", "base64": "AAE="]).0 == 200)
        #expect(c.raw.first?.binary == true)
        #expect(c.raw.first?.payload == [0, 1])
        #expect(call(api, "POST", "/sandbox/connections/\(cId)/send", ["text": "hello"]).0 == 200)
        #expect(c.raw.last?.payload == Array("hello".utf8))
        #expect(call(api, "POST", "/sandbox/connections/9.9/close").0 == 404)
        #expect(call(api, "POST", "/sandbox/connections/\(cId)/close", ["code": 1006]).0 == 400)
        #expect(call(api, "POST", "/sandbox/connections/\(cId)/send", ["base64": "***"]).0 == 400)
    }

    @Test func closeAllRefuseHandshakeAuthFailure() {
        let h = EdgeHarness()
        let api = api(h)
        let (a, _) = h.client()
        let (b, _) = h.client()
        #expect(call(api, "POST", "/sandbox/close-all", ["code": 4200, "reason": "bye"]).1?["closed"] == 2)
        #expect(a.closed?.code == 4200 && b.closed?.code == 4200)
        #expect(call(api, "POST", "/sandbox/refuse", ["code": 4004, "reason": "quota", "seconds": 2]).0 == 200)
        #expect(h.connect().link.closed?.code == 4004)
        h.time.advance(2)
        #expect(h.connect().id != nil)
        #expect(call(api, "POST", "/sandbox/handshake", ["omit_id": true, "count": 2]).0 == 200)
        #expect(h.edge.omitHandshakeIds == 2)
        #expect(call(api, "POST", "/sandbox/auth-failure", ["status": 403, "prefix": "private-"]).0 == 200)
        #expect(h.edge.authFailure?.status == 403)
        #expect(h.edge.authFailure?.prefix == "private-")
        #expect(call(api, "DELETE", "/sandbox/auth-failure").0 == 200)
        #expect(h.edge.authFailure == nil)
    }

    @Test func publishRestartAndBurst() {
        let h = EdgeHarness()
        let calls = Calls()
        let api = api(h, calls)
        let (a, aId) = h.client()
        h.subscribe(aId, "news")
        _ = a.take()
        let (status, body) = call(api, "POST", "/sandbox/publish", ["channel": "news", "event": "e", "data": ["x": 1]])
        #expect(status == 200)
        #expect(body?["delivered"] == 1)
        let got = a.take().first
        #expect(got?.event == "e")
        #expect(got?.data?.value == ["x": 1])
        #expect(call(api, "POST", "/sandbox/restart", ["code": 4200, "down_seconds": 2]).0 == 200)
        #expect(calls.restarts.withLock { $0.first?.0 } == 4200)
        #expect(calls.restarts.withLock { $0.first?.2 } == 2)
        #expect(
            call(api, "POST", "/sandbox/burst", ["channel": "news", "event": "e", "count": 5, "rate": 10]).0 == 200)
        #expect(calls.bursts.withLock { $0.first?.1 } == 5)
        #expect(call(api, "POST", "/sandbox/burst", ["channel": "news", "event": "e", "rate": -1]).0 == 400)
        #expect(call(api, "POST", "/sandbox/nothing").0 == 404)
        #expect(call(api, "POST", "/sandbox/publish", nil).0 == 400)
        let bad = api.handle(
            HTTPRequest(
                method: "POST", target: "/sandbox/publish", headers: ["Content-Type": "application/json"],
                body: Array("{oops".utf8)))
        #expect(bad.response.status == 400)
    }

    @Test func loopbackDetection() {
        #expect(Sandbox.isLoopback("127.0.0.1:5000"))
        #expect(Sandbox.isLoopback("[::1]:5000"))
        #expect(Sandbox.isLoopback("[::ffff:127.0.0.1]:5000"))
        #expect(!Sandbox.isLoopback("192.168.1.4:5000"))
        #expect(!Sandbox.isLoopback("[fe80::1]:5000"))
    }
}

@Suite struct CommandLineTests {
    @Test func defaultsNeedNoFlags() throws {
        guard case .run(let configuration, let quiet) = try SandboxCommandLine.parse([]) else {
            Issue.record("expected run")
            return
        }
        #expect(configuration.port == 6001)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.appId == "sandbox")
        #expect(configuration.appKey == "sandbox-key")
        #expect(configuration.appSecret == "sandbox-secret")
        #expect(configuration.dialect == .bird)
        #expect(!configuration.clientEvents && !configuration.connectionCount && !quiet)
    }

    @Test func flagsAreRead() throws {
        let parsed = try SandboxCommandLine.parse([
            "--dialect", "pusher", "--port=0", "--client-events", "--connection-count", "--require-signin", "2.5",
            "--activity-timeout", "30", "--app-id", "42", "--tls-cert", "c.pem", "--tls-key", "k.pem",
            "--max-http-connections", "8",
        ])
        guard case .run(let c, _) = parsed else {
            Issue.record("expected run")
            return
        }
        #expect(c.dialect == .pusher && c.port == 0 && c.clientEvents && c.connectionCount)
        #expect(c.requireSigninSeconds == 2.5 && c.activityTimeout == 30 && c.appId == "42")
        #expect(c.usesTLS)
        #expect(c.maxHTTPConnections == 8)
    }

    @Test(arguments: [
        ["--bogus"], ["--port", "x"], ["--port"], ["--dialect", "soketi"], ["--tls-cert", "c"],
        ["--require-signin", "-1"],
    ])
    func badFlagsGiveOneClearLine(arguments: [String]) {
        #expect(throws: SandboxCommandLine.UsageError.self) { try SandboxCommandLine.parse(arguments) }
    }

    /// Every number a flag takes has a range, and the error says it, upper bound included.
    @Test(arguments: [
        (["--port", "65536"], "0…65535"), (["--port", "-1"], "0…65535"),
        (["--pong-timeout", "1e300"], "≤ 86400"), (["--pong-timeout", "nan"], "≤ 86400"),
        (["--pong-timeout", "inf"], "≤ 86400"), (["--require-signin", "86401"], "≤ 86400"),
        (["--require-signin", "0"], "> 0"), (["--activity-timeout", "86401"], "1…86400"),
        (["--activity-timeout", "1.5"], "1…86400"), (["--activity-timeout", "0"], "1…86400"),
        (["--max-http-connections", "0"], "1…65536"), (["--max-http-connections", "65537"], "1…65536"),
        (["--max-http-connections", "99999999999999999999"], "1…65536"),
        (["--history-events", "-1"], "0…1000000"), (["--history-events", "1000001"], "0…1000000"),
        (["--history-seconds", "0"], "> 0"), (["--history-seconds", "nan"], "≤ 86400"),
    ])
    func numericFlagsStateTheirRange(arguments: [String], range: String) {
        do {
            _ = try SandboxCommandLine.parse(arguments)
            Issue.record("\(arguments) accepted")
        } catch {
            #expect(error.message.contains(range), "\(error.message)")
            #expect(error.message.contains(arguments[0]))
        }
    }

    /// The whole sentences, as a user reads them (the flag reader and the whole-number check are
    /// shared, the wording is the sandbox's).
    @Test(arguments: [
        (["--port", "65536"], "--port needs 0…65535, not '65536'"),
        (["--activity-timeout", "0"], "--activity-timeout needs whole seconds in 1…86400, not '0'"),
        (["--max-http-connections", "x"], "--max-http-connections needs a whole number in 1…65536, not 'x'"),
        (["--history-events=-1"], "--history-events needs a whole number in 0…1000000, not '-1'"),
        (["--quiet=yes"], "--quiet takes no value"), (["--port"], "--port needs a value"),
        (["--bogus"], "unknown option '--bogus'"),
    ])
    func badFlagsSayWhatIsWrongInOneSentence(arguments: [String], message: String) {
        do {
            _ = try SandboxCommandLine.parse(arguments)
            Issue.record("\(arguments) accepted")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func helpIsHelp() throws {
        guard case .help = try SandboxCommandLine.parse(["--help"]) else {
            Issue.record("expected help")
            return
        }
    }
}
