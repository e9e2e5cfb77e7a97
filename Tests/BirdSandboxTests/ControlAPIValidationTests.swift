import BirdWire
import Synchronization
import Testing
import WebSocket

@testable import BirdSandbox

/// The control API refuses what a web page could send, and never invents a value: every field of
/// the wrong type or out of range is a 400 whose message names the field, and nothing happens.
@Suite struct ControlAPIValidationTests {
    private final class Calls: Sendable {
        let count = Mutex(0)
    }

    private struct Setup {
        let h: EdgeHarness
        let api: ControlAPI
        let calls: Calls
        let link: FakeLink
        let id: String
    }

    private func setup() -> Setup {
        let h = EdgeHarness()
        let calls = Calls()
        let api = ControlAPI(
            edge: h.edge, restart: { _, _, _ in calls.count.withLock { $0 += 1 } },
            burst: { _, _, _, _, _ in calls.count.withLock { $0 += 1 } })
        let (link, id) = h.client()
        return Setup(h: h, api: api, calls: calls, link: link, id: id)
    }

    private func send(
        _ api: ControlAPI, _ method: String, _ path: String, _ body: String = "",
        headers: HTTPHeaders = ["Content-Type": "application/json", "Host": "127.0.0.1:6001"]
    ) -> (status: Int, error: String?, response: HTTPResponse) {
        let outcome = api.handle(HTTPRequest(method: method, target: path, headers: headers, body: Array(body.utf8)))
        outcome.afterResponse?()
        let json = try? JSONValue(parsing: String(decoding: outcome.response.body, as: UTF8.self))
        return (outcome.response.status, json?["error"]?.stringValue, outcome.response)
    }

    // MARK: Types and ranges

    static let invalid: [(path: String, body: String, field: String)] = [
        ("close-all", #"{"code":"4000"}"#, "code"),
        ("close-all", #"{"code":4200.5}"#, "code"),
        ("close-all", #"{"code":null}"#, "code"),
        ("close-all", #"{"code":true}"#, "code"),
        ("close-all", #"{"code":[4200]}"#, "code"),
        ("close-all", #"{"code":1006}"#, "code"),
        ("close-all", #"{"code":999}"#, "code"),
        ("close-all", #"{"code":5000}"#, "code"),
        ("close-all", #"{"code":1e300}"#, "code"),
        ("close-all", #"{"reason":42}"#, "reason"),
        ("close-all", #"{"reason":null}"#, "reason"),
        ("close-all", "{\"reason\":\"\(String(repeating: "r", count: 124))\"}", "reason"),
        ("connections/{id}/close", #"{"code":"4000"}"#, "code"),
        ("connections/{id}/close", #"{"code":4200.5}"#, "code"),
        ("connections/{id}/close", #"{"code":null}"#, "code"),
        ("refuse", #"{"seconds":-5}"#, "seconds"),
        ("refuse", #"{"seconds":"10"}"#, "seconds"),
        ("refuse", #"{"seconds":86401}"#, "seconds"),
        ("refuse", #"{"seconds":null}"#, "seconds"),
        ("refuse", #"{"code":"4100"}"#, "code"),
        ("handshake", #"{"omit_id":"yes"}"#, "omit_id"),
        ("handshake", #"{"count":-1}"#, "count"),
        ("handshake", #"{"count":1.5}"#, "count"),
        ("handshake", #"{"count":2000000}"#, "count"),
        ("restart", #"{"down_seconds":-1}"#, "down_seconds"),
        ("restart", #"{"down_seconds":3601}"#, "down_seconds"),
        ("restart", #"{"down_seconds":"2"}"#, "down_seconds"),
        ("restart", #"{"code":4200.1}"#, "code"),
        ("auth-failure", #"{"status":"abc"}"#, "status"),
        ("auth-failure", #"{"status":99}"#, "status"),
        ("auth-failure", #"{"status":101}"#, "status"),
        ("auth-failure", #"{"status":200}"#, "status"),
        ("auth-failure", #"{"status":600}"#, "status"),
        ("auth-failure", #"{"status":503.5}"#, "status"),
        ("auth-failure", #"{"status":null}"#, "status"),
        ("auth-failure", #"{"prefix":42}"#, "prefix"),
        ("auth-failure", #"{"prefix":null}"#, "prefix"),
        ("publish", #"{"channel":42,"event":"e"}"#, "channel"),
        ("publish", #"{"event":"e"}"#, "channel"),
        ("publish", #"{"channel":"bad name!","event":"e"}"#, "channel"),
        ("publish", #"{"channel":"news"}"#, "event"),
        ("publish", #"{"channel":"news","event":""}"#, "event"),
        ("publish", "{\"channel\":\"news\",\"event\":\"\(String(repeating: "e", count: 201))\"}", "event"),
        ("burst", #"{"channel":"news","event":"e","count":-1}"#, "count"),
        ("burst", #"{"channel":"news","event":"e","count":"5"}"#, "count"),
        ("burst", #"{"channel":"news","event":"e","count":1000001}"#, "count"),
        ("burst", #"{"channel":"news","event":"e","rate":-1}"#, "rate"),
        ("burst", #"{"channel":"news","event":"e","rate":1e-300}"#, "rate"),
        ("burst", #"{"channel":"news","event":"e","rate":100001}"#, "rate"),
        ("burst", #"{"channel":"news","event":"e","rate":"fast"}"#, "rate"),
        ("connections/{id}/send", #"{"text":42}"#, "text"),
        ("connections/{id}/send", #"{"base64":"***"}"#, "base64"),
        ("connections/{id}/send", #"{"base64":"AA==","opcode":"close"}"#, "opcode"),
        ("connections/{id}/send", #"{"text":"x","opcode":"text"}"#, "opcode"),
        ("connections/{id}/send", #"{"text":"x","base64":"AA=="}"#, "text"),
        ("connections/{id}/send", #"{}"#, "text"),
    ]

    @Test(arguments: invalid)
    func aWrongTypeOrRangeIs400NamingTheField(path: String, body: String, field: String) {
        let s = setup()
        let (status, error, _) = send(
            s.api, "POST", "/sandbox/" + path.replacingOccurrences(of: "{id}", with: s.id), body)
        #expect(status == 400)
        #expect(error?.contains(field) == true, "error \(error ?? "none") does not name \(field)")
        // Nothing happened.
        #expect(s.link.closed == nil)
        #expect(s.link.raw.isEmpty)
        #expect(s.h.edge.refusal == nil)
        #expect(s.h.edge.authFailure == nil)
        #expect(s.h.edge.omitHandshakeIds == 0)
        #expect(s.calls.count.withLock { $0 } == 0)
    }

    @Test func theLimitsThemselvesAreAccepted() {
        let s = setup()
        let reason = String(repeating: "r", count: 123)
        #expect(send(s.api, "POST", "/sandbox/refuse", #"{"code":1000,"seconds":86400}"#).status == 200)
        #expect(send(s.api, "POST", "/sandbox/refuse", #"{"code":4999,"seconds":0}"#).status == 200)
        #expect(s.h.edge.refusal?.until == nil)  // 0: until DELETE
        #expect(send(s.api, "POST", "/sandbox/handshake", #"{"count":1000000}"#).status == 200)
        #expect(send(s.api, "POST", "/sandbox/restart", #"{"code":4200.0,"down_seconds":3600}"#).status == 200)
        #expect(send(s.api, "POST", "/sandbox/auth-failure", #"{"status":400}"#).status == 200)
        #expect(send(s.api, "POST", "/sandbox/auth-failure", #"{"status":599,"prefix":"private-"}"#).status == 200)
        #expect(
            send(s.api, "POST", "/sandbox/burst", #"{"channel":"news","event":"e","count":1000000,"rate":0.01}"#)
                .status == 200)
        #expect(
            send(s.api, "POST", "/sandbox/connections/\(s.id)/close", "{\"code\":3000,\"reason\":\"\(reason)\"}").status
                == 200)
        #expect(s.link.closed?.code == 3000)
        #expect(s.link.closed?.reason == reason)
        #expect(s.calls.count.withLock { $0 } == 2)
    }

    // MARK: Web pages

    @Test(arguments: [
        "https://evil.example", "http://evil.example:6001", "null", "http://127.0.0.1.evil.example",
        "http://localhost.evil.example:6001", "http://127.0.0.1@evil.example", "file://", "http://[::2]:6001",
        "http://127.0.0.1:99999", "http://127.0.0.1:6001/path", "ws://127.0.0.1:6001",
    ])
    func aForeignOriginIsRefused(origin: String) {
        let s = setup()
        let (status, error, _) = send(
            s.api, "POST", "/sandbox/connections/\(s.id)/close", #"{"code":4000}"#,
            headers: ["Content-Type": "application/json", "Origin": origin])
        #expect(status == 403)
        #expect(error?.contains("Origin") == true)
        #expect(s.link.closed == nil)
    }

    @Test(arguments: [
        "http://127.0.0.1:6001", "http://localhost:3000", "http://[::1]:6001", "http://127.0.0.1", "HTTP://LOCALHOST:1",
        "https://localhost:6001", "http://127.1.2.3:80",
    ])
    func aLoopbackOriginIsServed(origin: String) {
        let s = setup()
        let status = send(
            s.api, "POST", "/sandbox/connections/\(s.id)/close", #"{"code":4000}"#,
            headers: ["Content-Type": "application/json", "Origin": origin]
        ).status
        #expect(status == 200)
        #expect(s.link.closed?.code == 4000)
    }

    @Test func aForeignHostIsRefused() {
        let s = setup()
        let rebound = send(s.api, "GET", "/sandbox/connections", headers: ["Host": "evil.example:6001"])
        #expect(rebound.status == 403)
        #expect(rebound.error?.contains("Host") == true)
        for host in ["127.0.0.1:6001", "localhost", "[::1]:6001"] {
            #expect(send(s.api, "GET", "/sandbox/connections", headers: ["Host": host]).status == 200)
        }
        // The name the sandbox was told to listen on is its own, not a rebound one.
        let named = EdgeHarness(SandboxConfiguration(host: "devbox.local"))
        let api = ControlAPI(edge: named.edge, restart: { _, _, _ in }, burst: { _, _, _, _, _ in })
        #expect(send(api, "GET", "/sandbox/connections", headers: ["Host": "devbox.local:6001"]).status == 200)
        #expect(send(api, "GET", "/sandbox/connections", headers: ["Host": "devbox.local.evil:6001"]).status == 403)
        #expect(!ControlAPIGate.names("0.0.0.0:6001", "0.0.0.0"))
    }

    @Test(arguments: [
        nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx",
    ])
    func aBodyWithoutTheJSONContentTypeIsRefused(contentType: String?) {
        let s = setup()
        var headers: HTTPHeaders = [:]
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        let (status, error, _) = send(s.api, "POST", "/sandbox/close-all", #"{"code":4000}"#, headers: headers)
        #expect(status == 415)
        #expect(error?.contains("Content-Type") == true)
        #expect(s.link.closed == nil)
    }

    @Test func jsonWithParametersAndEmptyBodiesNeedNoMore() {
        let s = setup()
        #expect(
            send(
                s.api, "POST", "/sandbox/refuse", #"{"code":4100}"#,
                headers: ["Content-Type": "Application/JSON; charset=utf-8"]
            )
            .status == 200)
        #expect(send(s.api, "DELETE", "/sandbox/refuse", headers: [:]).status == 200)
        #expect(send(s.api, "POST", "/sandbox/connections/\(s.id)/drop", headers: [:]).status == 200)
        #expect(s.link.dropped)
    }

    @Test func aPreflightGetsNoCORSGrant() {
        let s = setup()
        let preflight = send(
            s.api, "OPTIONS", "/sandbox/close-all",
            headers: ["Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"]
        ).response
        #expect(preflight.status == 204)
        #expect(!preflight.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
        let foreign = send(s.api, "OPTIONS", "/sandbox/close-all", headers: ["Origin": "https://evil.example"])
        #expect(foreign.status == 403)
        #expect(!foreign.response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
    }
}
